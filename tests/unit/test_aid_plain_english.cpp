// The aid reads as English a player can use, on every bundled ruleset (issue 30): the text that
// pdftotext extracts from the PDF holds no identifier of the rule language, no loop of it, no
// one-letter name of a rule's parameter and no range the engine needs only for bookkeeping.
// A ruleset added under rulesets/ is checked too: the test walks the folder.
#include "cli.hpp"
#include "source_dir.hpp"
#include "test_support.hpp"

#include "westphalia/ir/print.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string source_dir = WP_SOURCE_DIR;

int shell(const std::string& command, std::string& out) { return wp::test::run_shell(command, out); }

struct rule {
    const char* what;
    std::regex pattern;
};

// What a player must never have to decode, each with why it is there.
const std::vector<rule>& rules() {
    static const std::vector<rule> all = {
        {"an identifier of the rule language (snake_case)", std::regex(R"(\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b)")},
        {"a loop of the rule language", std::regex(R"(while true|until false|for each .*\bin the\b)", std::regex::icase)},
        {"a one-letter parameter list", std::regex(R"(\(([a-z])(, ?[a-z])*\))")},
        {"a one-letter name in the possessive", std::regex(R"((^|[^\w§])[a-z]['’]s?\b)")},
        {"a one-letter name with a type", std::regex(R"((\(|, )[a-z]: [a-z])")},
        // BuildPalace: an enum member's identifier beside its label
        {"an identifier of the rule language (CamelCase)", std::regex(R"(\b[A-Z][a-z]+[A-Z][a-z]+[A-Za-z]*\b)")},
        {"an action that does nothing said", std::regex(R"(Does: ?\.)")},
        {"dice in the rule language's notation", std::regex(R"(\d+d\[)")},
        // a table's key by its one-letter name: a header cell "T" alone, or "1d6 \ O"
        {"a one-letter table key", std::regex(R"(^\s*[A-Z]\s*$|\\ [A-Z]\s*$)")},
        // round no = 0; while round no is less than 6: round no +1
        {"a counter's bookkeeping", std::regex(R"(while (.+) is less than \d+: \1 \+1)")},
    };
    return all;
}

// "0 to 100000": a range wider than any game reaches is the engine's bookkeeping.
bool bookkeeping_range(const std::string& line) {
    static const std::regex range(R"((−|-)?(\d+) to \+?(\d+))");
    for (auto it = std::sregex_iterator(line.begin(), line.end(), range); it != std::sregex_iterator(); ++it) {
        const double low = std::stod((*it)[2].str()) * ((*it)[1].matched ? -1 : 1);
        const double high = std::stod((*it)[3].str());
        if (high - low > 5000) return true;
    }
    return false;
}

std::vector<fs::path> bundled_rulesets() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(source_dir + "/rulesets"))
        if (fs::exists(e.path() / "ruleset.wph")) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("aid plain English: no rule-language identifier, loop, one-letter name or bookkeeping range on any bundled ruleset", "[docgen]") {
    const fs::path folder = fs::temp_directory_path() / ("wp-aid-english-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    const auto rulesets = bundled_rulesets();
    REQUIRE(rulesets.size() >= 5);
    // Every ruleset's aid, and one per scenario where a ruleset has a `scenario` option (the
    // main job prints them all).
    std::vector<std::pair<fs::path, std::string>> aids;
    for (const fs::path& ruleset : rulesets) {
        aids.emplace_back(ruleset, "");
        const wp::ir::ruleset rs = wp::test::compile_repo_ruleset(fs::relative(ruleset, source_dir).string());
        for (const wp::ir::option& o : rs.options)
            if (o.name == "scenario")
                for (std::int64_t v : o.values) aids.emplace_back(ruleset, wp::ir::constant_text(rs, o.type, v));
    }
    REQUIRE(aids.size() >= 5 + 6 + 2);
    for (const auto& [ruleset, scenario] : aids) {
        const std::string pdf = (folder / (ruleset.filename().string() + scenario + ".pdf")).string();
        std::ostringstream out, err;
        std::vector<std::string> args{"aid", ruleset.string(), "-o", pdf};
        if (!scenario.empty()) args.insert(args.end(), {"--option", "scenario=" + scenario});
        const int code = wp::cli::run(args, out, err);
        INFO(ruleset.filename().string() << " " << scenario << ": " << err.str());
        REQUIRE(code == 0);
        std::string text;
        REQUIRE(shell("pdftotext '" + pdf + "' - 2>/dev/null", text) == 0);
        std::istringstream lines(text);
        std::vector<std::string> found;
        for (std::string line; std::getline(lines, line);) {
            for (const rule& r : rules())
                if (std::regex_search(line, r.pattern)) found.push_back(std::string(r.what) + ": " + line);
            if (bookkeeping_range(line)) found.push_back("a bookkeeping range: " + line);
        }
        std::string report;
        for (const std::string& f : found) report += "\n  " + f;
        INFO(ruleset.filename().string() << " " << scenario << ", " << found.size() << " lines a player would have to decode:" << report);
        CHECK(found.empty());
    }
    fs::remove_all(folder);
}

TEST_CASE("aid PDF: pdftotext and pdftoppm print no warning, qpdf --check is clean, every font is embedded, on every bundled ruleset", "[docgen]") {
    // Before the /ToUnicode maps were mended (docgen/src/to_unicode.hpp), poppler warned
    // "Invalid 'begincidrange' operator in ToUnicode CMap" once per font on every page.
    const fs::path folder = fs::temp_directory_path() / ("wp-aid-clean-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    for (const fs::path& ruleset : bundled_rulesets()) {
        const std::string pdf = (folder / (ruleset.filename().string() + ".pdf")).string();
        std::ostringstream out, err;
        const int code = wp::cli::run({"aid", ruleset.string(), "-o", pdf}, out, err);
        INFO(ruleset.filename().string() << ": " << err.str());
        REQUIRE(code == 0);
        std::string said;
        CHECK(shell("pdftotext '" + pdf + "' /dev/null 2>&1", said) == 0);
        CHECK(said == "");  // the printed value is what it said
        CHECK(shell("pdftoppm -r 20 -png '" + pdf + "' '" + (folder / "page").string() + "' 2>&1", said) == 0);
        CHECK(said == "");
        CHECK(shell("qpdf --check '" + pdf + "' 2>&1", said) == 0);
        CHECK(said.find("No syntax or stream encoding errors") != std::string::npos);
        REQUIRE(shell("pdffonts '" + pdf + "' 2>&1", said) == 0);
        std::istringstream fonts(said);
        int listed = 0;
        for (std::string line; std::getline(fonts, line);) {
            if (line.rfind("name", 0) == 0 || line.rfind("---", 0) == 0) continue;
            ++listed;
            INFO(line);
            CHECK(line.find(" yes yes yes ") != std::string::npos);  // embedded, subset, with a Unicode map
        }
        CHECK(listed >= 2);
    }
    fs::remove_all(folder);
}
