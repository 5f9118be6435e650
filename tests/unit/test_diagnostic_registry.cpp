// Every diagnostic kind in the registry has at least one golden file that shows it.
#include "westphalia/dsl/diagnostics.hpp"
#include "source_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

TEST_CASE("every diagnostic kind has a golden test", "[diagnostics]") {
    namespace fs = std::filesystem;
    std::string all_goldens;
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(WP_SOURCE_DIR) / "tests" / "golden")) {
        if (entry.path().extension() != ".expected") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        all_goldens += text.str();
    }
    for (const auto& kind : wp::dsl::all_diag_kinds()) {
        const std::string tag = "[" + std::string(kind.name) + "]";
        const std::string json_tag = "\"kind\": \"" + std::string(kind.name) + "\"";
        INFO("diagnostic kind without a golden: " << kind.name);
        CHECK((all_goldens.find(tag) != std::string::npos || all_goldens.find(json_tag) != std::string::npos));
    }
}

TEST_CASE("diagnostic kind names are unique and kebab-case", "[diagnostics]") {
    std::set<std::string> seen;
    for (const auto& kind : wp::dsl::all_diag_kinds()) {
        CHECK(seen.insert(std::string(kind.name)).second);
        for (char c : kind.name) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'));
    }
}

TEST_CASE("did you mean", "[diagnostics]") {
    const std::vector<std::string> names{"campaign_roll", "contract_roll", "draw_roll"};
    CHECK(wp::dsl::closest_name("campain_roll", names) == "campaign_roll");
    CHECK_FALSE(wp::dsl::closest_name("zzz", names).has_value());
    CHECK(wp::dsl::closest_name("drwa_roll", names) == "draw_roll");  // a swap of neighbours is one step
}

TEST_CASE("columns count code points", "[diagnostics]") {
    wp::dsl::source_manager sources;
    const auto id = sources.add("x.wph", "area lutzen \"L\xC3\xBCtzen\" bad\nnext");
    const std::string& text = sources.get(id).text;
    const auto offset = static_cast<std::uint32_t>(text.find("bad"));
    const auto pos = sources.position(id, offset);
    CHECK(pos.line == 1);
    CHECK(pos.column == 22);
    CHECK(sources.position(id, static_cast<std::uint32_t>(text.find("next"))).line == 2);
}

TEST_CASE("the IR read back from JSON prints as the IR compiled from rule files", "[ir][golden]") {
    // Two goldens: `compile … --emit-ir=text` from the rule files, and from the committed JSON.
    auto output_of = [](const char* name) {
        std::ifstream in(std::filesystem::path(WP_SOURCE_DIR) / "tests" / "golden" / "ir" / name, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        const std::string s = text.str();
        return s.substr(s.find('\n') + 1);  // drop the command line
    };
    const std::string direct = output_of("all_constructs_text.expected");
    CHECK(direct.find("exit: 0") == 0);
    CHECK(direct == output_of("all_constructs_from_json.expected"));
}
