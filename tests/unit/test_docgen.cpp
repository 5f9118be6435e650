// The player aid (docgen): exact odds, options, layout bounds (nothing crosses a page edge or a
// table rule), and a PDF smoke test through qpdf, pdffonts and pdftotext.
#include "cli.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/docgen/aid.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string source_dir = WP_SOURCE_DIR;

wp::ir::ruleset compiled(const std::string& folder, const std::map<std::string, std::string>& options = {}) {
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    wp::compiler::compile_options opts;
    for (const auto& [k, v] : options) opts.options[k] = v;
    auto rs = wp::compiler::compile_ruleset(source_dir + "/" + folder, opts, sources, sink);
    REQUIRE(rs);
    REQUIRE_FALSE(sink.has_errors());
    return *rs;
}

std::string aid_text(const wp::ir::ruleset& rs, wp::docgen::aid_product product, wp::docgen::paper paper = wp::docgen::paper::a4) {
    wp::docgen::aid_options options;
    options.size = paper;
    return wp::docgen::make_aid(rs, options, product).bytes;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// Runs a shell command; returns its exit status and fills `out` with its standard output.
int shell(const std::string& command, std::string& out) {
    out.clear();
    FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    const int status = ::pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct text_item {
    double x, y, w;
};
struct vertical_rule {
    double x, top, bottom;
};
struct page_items {
    std::vector<text_item> texts;
    std::vector<vertical_rule> rules;
};

// Parses `--dump=layout`: the paper size and, per page, text runs and vertical rules.
std::vector<page_items> parse_layout(const std::string& dump, double& width, double& height) {
    std::vector<page_items> pages;
    std::istringstream in(dump);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string word;
        words >> word;
        if (word == "paper") {
            std::string x;
            words >> width >> x >> height;
        } else if (word == "page") {
            pages.emplace_back();
        } else if (word == "text") {
            text_item t{};
            std::string w;
            words >> t.x >> t.y >> w >> t.w;
            pages.back().texts.push_back(t);
        } else if (word == "rule") {
            double x1, y1, x2, y2;
            words >> x1 >> y1 >> x2 >> y2;
            if (x1 == x2) pages.back().rules.push_back({x1, std::min(y1, y2), std::max(y1, y2)});
        }
    }
    return pages;
}

}  // namespace

TEST_CASE("aid: exact odds at each net modifier from the IR's distributions", "[docgen]") {
    const std::string text = aid_text(compiled("rulesets/contractor-cards"), wp::docgen::aid_product::text_dump);
    // 1d10 + reputation (−3..+3) against 6 or more, and the recruit roll against 7 or more.
    CHECK(has(text, "| Employment roll, 6 or more §L56-62 | 20% | 30% | 40% | 50% | 60% | 70% | 80% |"));
    CHECK(has(text, "| Renewal roll, 6 or more §L63-68 | 20% | 30% | 40% | 50% | 60% | 70% | 80% |"));
    CHECK(has(text, "| Recruit roll, 7 or more §L76-81 | 10% | 20% | 30% | 40% | 50% | 60% | 70% |"));
    // The campaign table with the errata's open low row: every modified roll lands in a row.
    CHECK(has(text, "| ≤2 Terrible Defeat | 50% | 40% | 30% | 20% | 10% | 0% | 0% |"));
    CHECK(has(text, "| 9+ Great Victory | 0% | 0% | 10% | 20% | 30% | 40% | 50% |"));
    CHECK_FALSE(has(text, "no row (a gap in the table)"));
}

TEST_CASE("aid: the base layer alone shows the campaign table's gap as odds", "[docgen]") {
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    wp::compiler::compile_options opts;
    opts.upto_layer = "base";
    const auto rs = wp::compiler::compile_ruleset(source_dir + "/rulesets/contractor-cards", opts, sources, sink);
    REQUIRE(rs);
    const std::string text = aid_text(*rs, wp::docgen::aid_product::text_dump);
    // Printed rows 1-2 .. 9+: at −3 a roll of 1-3 falls below every row (30%).
    CHECK(has(text, "| no row (a gap in the table) | 30% | 20% | 10% | 0% | 0% | 0% | 0% |"));
    CHECK(has(text, "layers: base (up to base) · no errata"));
}

TEST_CASE("aid: chosen options decide which rules and steps it prints", "[docgen]") {
    const std::string plain = aid_text(compiled("rulesets/contractor-cards"), wp::docgen::aid_product::text_dump);
    const std::string chosen =
        aid_text(compiled("rulesets/contractor-cards", {{"etiquette_on_renewal", "true"}}), wp::docgen::aid_product::text_dump);
    CHECK_FALSE(has(plain, "(etiquette on renewal roll)"));
    CHECK(has(chosen, "(etiquette on renewal roll)"));
    CHECK(has(plain, "etiquette_on_renewal=false,"));
    CHECK(has(chosen, "etiquette_on_renewal=true (chosen)"));
}

TEST_CASE("aid: no text crosses a page edge or a table's column rule", "[docgen]") {
    for (const char* folder : {"rulesets/contractor-cards", "tests/rulesets/all-constructs"}) {
        for (const auto paper : {wp::docgen::paper::a4, wp::docgen::paper::letter}) {
            INFO(folder << (paper == wp::docgen::paper::a4 ? " A4" : " Letter"));
            double width = 0, height = 0;
            const auto pages = parse_layout(aid_text(compiled(folder), wp::docgen::aid_product::layout_dump, paper), width, height);
            REQUIRE_FALSE(pages.empty());
            CHECK(width == Approx(paper == wp::docgen::paper::a4 ? 595.3 : 612.0));
            for (const page_items& p : pages) {
                REQUIRE_FALSE(p.texts.empty());
                for (const text_item& t : p.texts) {
                    CHECK(t.x >= 29.9);
                    CHECK(t.x + t.w <= width - 29.9);
                    CHECK(t.y >= 29.9);
                    CHECK(t.y <= height - 29.9);
                    for (const vertical_rule& r : p.rules) {
                        const bool beside = t.y > r.top && t.y < r.bottom;
                        CHECK_FALSE((beside && t.x < r.x - 0.05 && t.x + t.w > r.x + 0.05));
                    }
                }
            }
        }
    }
}

TEST_CASE("aid: a table that continues in the next column or page repeats its caption and header", "[docgen]") {
    const fs::path file = fs::temp_directory_path() / ("wp-aid-long-" + std::to_string(::getpid()) + ".wph");
    {
        std::ofstream out(file);
        out << "roll big = 1d120;\ntable long_table : roll big {\n";
        for (int i = 1; i <= 120; ++i) out << "  " << i << " \"Result number " << i << "\" { }\n";
        out << "}\nsequence game { resolve long_table; }\n";
    }
    std::ostringstream out, err;
    REQUIRE(wp::cli::run({"aid", file.string(), "--dump=layout"}, out, err) == 0);
    fs::remove(file);
    const std::string dump = out.str();
    // 120 rows do not fit one column: the caption comes back marked as continued, and the
    // header ("1d120" over the key column) is drawn once per column the table runs through.
    std::size_t continued = 0, headers = 0;
    for (std::size_t at = 0; (at = dump.find("\"Long table (continued)\"", at)) != std::string::npos; ++at) ++continued;
    for (std::size_t at = 0; (at = dump.find("bold 7.0 \"1d120\"", at)) != std::string::npos; ++at) ++headers;
    CHECK(continued >= 1);
    CHECK(headers == continued + 1);
    CHECK(has(dump, "\"Result number 120\""));
}

TEST_CASE("aid: the PDF passes qpdf, embeds Unicode fonts and holds the headings, odds and anchors", "[docgen]") {
    const fs::path folder = fs::temp_directory_path() / ("wp-aid-test-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    for (const char* paper : {"a4", "letter"}) {
        const std::string pdf = (folder / (std::string("cc-") + paper + ".pdf")).string();
        std::ostringstream out, err;
        const int code = wp::cli::run({"aid", source_dir + "/rulesets/contractor-cards", "-o", pdf, "--paper", paper}, out, err);
        INFO(err.str());
        REQUIRE(code == 0);
        CHECK(has(out.str(), "wrote " + pdf + ": "));
        std::string text;
        CHECK(shell("qpdf --check '" + pdf + "'", text) == 0);
        CHECK(has(text, "No syntax or stream encoding errors"));
        REQUIRE(shell("pdffonts '" + pdf + "'", text) == 0);
        // name, type, encoding, embedded, subset, ToUnicode
        CHECK(has(text, "DejaVuSans,Book"));
        CHECK(has(text, "DejaVuSans-Bold"));
        std::istringstream fonts(text);
        int embedded_unicode = 0;
        for (std::string line; std::getline(fonts, line);)
            if (has(line, "CID TrueType") && has(line, "Identity-H") && has(line, "yes yes yes")) ++embedded_unicode;
        CHECK(embedded_unicode >= 2);
        REQUIRE(shell("pdftotext '" + pdf + "' -", text) == 0);
        for (const char* heading : {"Sequence of play", "Trait table", "Campaign outcome table", "Live off the land table",
                                    "Chance of success by net modifier", "Cards (82)", "End of the game and victory"})
            CHECK(has(text, heading));
        for (const char* anchor : {"§L24-34", "§L86-92", "§L105-107", "§L56-62", "§L126-181"}) CHECK(has(text, anchor));
        for (const char* odds : {"Employment roll, 6 or more", "80%", "Terrible Defeat"}) CHECK(has(text, odds));
        CHECK(has(text, "page 1 of"));
    }
    {
        const std::string pdf = (folder / "test-page.pdf").string();
        std::ostringstream out, err;
        REQUIRE(wp::cli::run({"aid", source_dir + "/rulesets/contractor-cards", "--test-page", "-o", pdf}, out, err) == 0);
        std::string text;
        REQUIRE(shell("pdftotext '" + pdf + "' -", text) == 0);
        for (const char* c : {"Österreich", "Lützen", "—", "×", "½", "≤"}) CHECK(has(text, c));
        REQUIRE(shell("pdffonts '" + pdf + "'", text) == 0);
        CHECK(has(text, "DejaVuSansMono"));
    }
    fs::remove_all(folder);
}

TEST_CASE("aid: a missing font or a character the fonts lack is an error, exit 2, and no file", "[docgen]") {
    const fs::path folder = fs::temp_directory_path() / ("wp-aid-fail-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    const std::string pdf = (folder / "aid.pdf").string();
    {
        std::ostringstream out, err;
        CHECK(wp::cli::run({"aid", source_dir + "/tests/rulesets/all-constructs", "-o", pdf, "--font-dir", folder.string()}, out, err) == 2);
        CHECK(has(err.str(), "DejaVuSans.ttf not found"));
    }
    {
        std::ostringstream out, err;
        CHECK(wp::cli::run({"aid", source_dir + "/tests/golden/aid/fail_missing_glyph.wph", "-o", pdf}, out, err) == 2);
        CHECK(has(err.str(), "no glyph for U+6771"));
    }
    CHECK(fs::is_empty(folder));
    fs::remove_all(folder);
}
