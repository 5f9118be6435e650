// The player aid (docgen): exact odds, options, layout bounds (nothing crosses a page edge or a
// table rule), and a PDF smoke test through qpdf, pdffonts and pdftotext.
#include "cli.hpp"
#include "source_dir.hpp"
#include "test_support.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/docgen/aid.hpp"
#include "westphalia/ir/print.hpp"
// The layout stage itself, below the public API, for tests on exact widths.
#include "../../docgen/src/layout.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
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
int shell(const std::string& command, std::string& out) { return wp::test::run_shell(command + " 2>/dev/null", out); }

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
    // A column is as wide as its longest word: "20%" is never broken into "20" and "%" (it
    // was, when float sums made the word a hair wider than the room measured for it).
    for (const auto paper : {wp::docgen::paper::a4, wp::docgen::paper::letter}) {
        const std::string layout = aid_text(compiled("rulesets/contractor-cards"), wp::docgen::aid_product::layout_dump, paper);
        CHECK_FALSE(has(layout, " \"%\"\n"));
        CHECK(has(layout, " \"20%\"\n"));
    }
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

TEST_CASE("aid: a designer's queries are claims to check, not rules: the aid leaves them out", "[docgen]") {
    const std::string text = aid_text(compiled("tests/rulesets/queries/siege_claims.wph"), wp::docgen::aid_product::text_dump);
    CHECK(has(text, "storm the walls"));
    for (const char* word : {"full strength", "full_strength", "fallen town", "fallen_town", "relief arrives", "relief_arrives",
                             "town empty", "town_empty"})
        CHECK_FALSE(has(text, word));
}

TEST_CASE("aid: chosen options decide which rules and steps it prints", "[docgen]") {
    const std::string plain = aid_text(compiled("rulesets/contractor-cards"), wp::docgen::aid_product::text_dump);
    const std::string chosen =
        aid_text(compiled("rulesets/contractor-cards", {{"etiquette_on_renewal", "true"}}), wp::docgen::aid_product::text_dump);
    // The option turns on a modifier of the renewal roll: Etiquette then shows under two rolls.
    auto count = [](const std::string& text, const std::string& what) {
        std::size_t n = 0;
        for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; ++at) ++n;
        return n;
    };
    CHECK(count(plain, "+ your Etiquette traits") == 1);
    CHECK(count(chosen, "+ your Etiquette traits") == 2);
    CHECK(has(plain, "options: all 16 at defaults"));
    CHECK(has(chosen, "options chosen: etiquette on renewal = yes; the other options at their defaults"));
    CHECK(has(chosen, "Etiquette on renewal yes (chosen; default no)"));
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
                    // margins: 24 pt at the sides, 20 pt at the top and bottom
                    CHECK(t.x >= 23.9);
                    CHECK(t.x + t.w <= width - 23.9);
                    CHECK(t.y >= 19.9);
                    CHECK(t.y <= height - 19.9);
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
    std::istringstream lines(dump);
    for (std::string l; std::getline(lines, l);) headers += has(l, " bold ") && has(l, "\"1d120\"");
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
        CHECK(has(text, "DejaVuSansCondensed,Book"));
        CHECK(has(text, "DejaVuSansCondensed-Bold"));
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
        CHECK(has(err.str(), "DejaVuSansCondensed.ttf not found"));
    }
    {
        std::ostringstream out, err;
        CHECK(wp::cli::run({"aid", source_dir + "/tests/golden/aid/fail_missing_glyph.wph", "-o", pdf}, out, err) == 2);
        // located at the string that holds it, not at the comment that also does
        CHECK(has(err.str(), "fail_missing_glyph.wph:7:7: error: the aid's fonts have no glyph for U+1F3B2"));
        CHECK(has(err.str(), "fail_missing_glyph.wph:5:9: error: the aid's fonts have no glyph for U+1200"));
    }
    CHECK(fs::is_empty(folder));
    fs::remove_all(folder);
}

TEST_CASE("aid: CJK names and texts are drawn with the fallback font, embedded beside DejaVu", "[docgen]") {
    const fs::path folder = fs::temp_directory_path() / ("wp-aid-cjk-" + std::to_string(::getpid()));
    fs::create_directories(folder);
    const std::string pdf = (folder / "cjk.pdf").string();
    std::ostringstream out, err;
    const int code = wp::cli::run({"aid", source_dir + "/tests/golden/aid/cjk_fallback.wph", "-o", pdf}, out, err);
    INFO(err.str());
    REQUIRE(code == 0);
    std::string text;
    CHECK(shell("qpdf --check '" + pdf + "'", text) == 0);
    REQUIRE(shell("pdffonts '" + pdf + "'", text) == 0);
    CHECK(has(text, "DejaVuSansCondensed,Book"));
    CHECK(has(text, "IPAGothic"));
    CHECK(has(text, "NanumGothic"));
    REQUIRE(shell("pdftotext '" + pdf + "' -", text) == 0);
    for (const char* s : {"東", "漢字", "かな", "说", "한국어"}) CHECK(has(text, s));
    fs::remove_all(folder);

    // Without a fallback font the same characters are errors, each named once.
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    const auto rs = wp::compiler::compile_ruleset(source_dir + "/tests/golden/aid/cjk_fallback.wph", {}, sources, sink);
    REQUIRE(rs);
    wp::docgen::aid_options options;
    options.fallback_fonts = {};
    try {
        wp::docgen::make_aid(*rs, options, wp::docgen::aid_product::text_dump);
        FAIL("no error without a fallback font");
    } catch (const wp::docgen::missing_glyphs_error& e) {
        std::vector<char32_t> seen;
        for (const auto& m : e.missing) seen.push_back(m.code_point);
        CHECK(std::count(seen.begin(), seen.end(), U'東') == 1);
        CHECK(std::count(seen.begin(), seen.end(), U'漢') == 1);
    }
    // A fallback file that is not there is skipped, not an error of its own.
    options.fallback_fonts = {(folder / "no-such-font.ttf").string()};
    for (const std::string& f : wp::docgen::aid_options{}.fallback_fonts) options.fallback_fonts.push_back(f);
    CHECK(wp::docgen::make_aid(*rs, options, wp::docgen::aid_product::text_dump).pages >= 1);
    // A font of more than 32767 glyphs (Droid Sans Fallback) is not used: libharu embeds its
    // composite glyphs blank.
    const std::string droid = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf";
    if (fs::exists(droid)) {
        options.fallback_fonts = {droid};
        CHECK_THROWS_AS(wp::docgen::make_aid(*rs, options, wp::docgen::aid_product::text_dump), wp::docgen::missing_glyphs_error);
    }
}

// Every character 0.1 pt wide: sums of such widths are where floating point rounds.
struct tenth_point_metrics : wp::docgen::font_metrics {
    double width(wp::docgen::face, double, const std::string& text) override {
        return 0.1 * static_cast<double>(text.size());  // the test uses ASCII only
    }
    void check_glyphs(wp::docgen::face, const std::string&) override {}
};

TEST_CASE("aid layout: a word exactly as wide as its grid column is not broken", "[docgen]") {
    // Column one holds one word, so it gets exactly that word's width plus padding; column two
    // wants more than the page has. Measured back, (0.3 + padding) − padding is a hair under
    // 0.3: without slack in the line breaker "abc" came out as "ab" and "c".
    wp::docgen::document doc;
    doc.title = "t";
    wp::docgen::grid g;
    g.caption = "grid";
    g.header.push_back({wp::docgen::cell{{wp::docgen::span{"k"}}}, wp::docgen::cell{{wp::docgen::span{"v"}}}});
    std::string long_text;
    for (int i = 0; i < 1000; ++i) long_text += "word ";
    g.rows.push_back({wp::docgen::cell{{wp::docgen::span{"abc"}}}, wp::docgen::cell{{wp::docgen::span{long_text}}}});
    doc.blocks.push_back(g);
    tenth_point_metrics metrics;
    const std::string dump = wp::docgen::display_list_text(wp::docgen::layout(doc, metrics, wp::docgen::paper::a4));
    CHECK(has(dump, " \"abc\"\n"));
    CHECK_FALSE(has(dump, " \"ab\"\n"));
}

TEST_CASE("aid layout: a section heading never ends a column", "[docgen]") {
    // The heading band is the only fill at grey 0.2. Before the fix, a heading followed by a short
    // table (kept whole) could stay at the foot of a column while the table moved on.
    for (const char* folder : {"rulesets/contractor-cards", "tests/rulesets/all-constructs"}) {
        for (const auto paper : {wp::docgen::paper::a4, wp::docgen::paper::letter}) {
            INFO(folder << (paper == wp::docgen::paper::a4 ? " A4" : " Letter"));
            std::istringstream dump(aid_text(compiled(folder), wp::docgen::aid_product::layout_dump, paper));
            struct band { double x, bottom; };
            std::vector<band> bands;
            std::vector<std::pair<double, double>> texts;  // x, baseline
            auto check_page = [&] {
                for (const band& b : bands) {
                    bool below = false;
                    for (const auto& [x, y] : texts) below = below || (x >= b.x - 0.5 && x < b.x + 200 && y > b.bottom + 2);
                    CHECK(below);
                }
                bands.clear();
                texts.clear();
            };
            for (std::string l; std::getline(dump, l);) {
                std::istringstream in(l);
                std::string kind;
                in >> kind;
                if (kind == "page") check_page();
                double x = 0, y = 0, w = 0, h = 0;
                std::string word;
                if (kind == "fill" && (in >> x >> y >> w >> h >> word) && has(l, " grey 0.2")) bands.push_back({x, y + h});
                std::string face;
                double size = 0;
                // the footer (5.8 pt) is on every page and does not count
                if (kind == "text" && (in >> x >> y >> word >> w >> face >> size) && size > 6) texts.emplace_back(x, y);
            }
            check_page();
        }
    }
}

TEST_CASE("aid layout: a heading followed by a short table moves on with it", "[docgen]") {
    // N one-line paragraphs, a heading, then a ten-row table short enough to be kept whole. For
    // some N the table does not fit under the heading: the heading must move on with it.
    tenth_point_metrics metrics;
    for (int n = 60; n < 140; ++n) {
        wp::docgen::document doc;
        doc.title = "t";
        wp::docgen::paragraph line;
        line.text.push_back(wp::docgen::span{"line"});
        for (int i = 0; i < n; ++i) doc.blocks.emplace_back(std::in_place_type<wp::docgen::paragraph>, line);
        wp::docgen::heading heading;
        heading.text = "Heading";
        doc.blocks.emplace_back(std::in_place_type<wp::docgen::heading>, heading);
        wp::docgen::grid g;
        g.caption = "grid";
        g.header.push_back({wp::docgen::cell{{wp::docgen::span{"k"}}}});
        for (int r = 0; r < 10; ++r) g.rows.push_back({wp::docgen::cell{{wp::docgen::span{"row"}}}});
        doc.blocks.push_back(g);
        const wp::docgen::display_list list = wp::docgen::layout(doc, metrics, wp::docgen::paper::a4);
        // Where the heading is drawn, the table's caption follows in the same column.
        double heading_x = -1, heading_y = 0, caption_x = -1, caption_y = 0;
        int heading_page = -1, caption_page = -1;
        for (std::size_t p = 0; p < list.pages.size(); ++p)
            for (const auto& it : list.pages[p].items)
                if (const auto* t = std::get_if<wp::docgen::text_run>(&it)) {
                    if (t->text == "Heading") heading_x = t->x, heading_y = t->y, heading_page = static_cast<int>(p);
                    if (t->text == "grid") caption_x = t->x, caption_y = t->y, caption_page = static_cast<int>(p);
                }
        INFO("paragraphs: " << n);
        CHECK(heading_page == caption_page);
        CHECK(std::abs(heading_x - 4 - caption_x) < 1);
        CHECK(caption_y > heading_y);
    }
}

TEST_CASE("aid: Contractor Cards fits two pages on A4 and Letter, with every option value", "[docgen]") {
    // The bar: one or two pages. Each option value changes what is printed (rules,
    // steps, the footer); closer lines (never a smaller type) are allowed when they save the
    // third page.
    const wp::ir::ruleset defaults = compiled("rulesets/contractor-cards");
    std::vector<std::map<std::string, std::string>> choices{{}};
    for (const wp::ir::option& o : defaults.options)
        for (std::size_t v = 0; v < o.values.size(); ++v)
            if (v != o.default_index) choices.push_back({{o.name, wp::ir::constant_text(defaults, o.type, o.values[v])}});
    REQUIRE(choices.size() > 16);
    for (const auto& choice : choices)
        for (const auto paper : {wp::docgen::paper::a4, wp::docgen::paper::letter}) {
            INFO((choice.empty() ? "defaults" : choice.begin()->first + "=" + choice.begin()->second)
                 << (paper == wp::docgen::paper::a4 ? " A4" : " Letter"));
            const std::string dump = aid_text(compiled("rulesets/contractor-cards", choice), wp::docgen::aid_product::layout_dump, paper);
            CHECK(has(dump.substr(0, dump.find('\n')), ", 2 pages"));
        }
}

TEST_CASE("aid: body text of 7.5 pt or more on every bundled ruleset, A4 and Letter, within its pages", "[docgen]") {
    // Issue 30: a printed aid a player can read. The body (the most common size of regular text)
    // is never below 7.5 pt, whatever the paper; the page-saving step closes up the lines instead.
    // The page limits: Contractor Cards two pages, SPI two per reading of its charts, the others
    // no more than they took when the type could still shrink.
    struct one {
        std::string folder;
        std::map<std::string, std::string> options;
        std::size_t most_pages;
    };
    const std::vector<one> aids = {
        {"rulesets/contractor-cards", {}, 2},
        {"rulesets/spi-thirty-years-war", {}, 2},
        {"rulesets/spi-thirty-years-war", {{"charts", "freiburg_map"}}, 2},
        // every scenario's aid, with its deployment and its own victory conditions
        {"rulesets/spi-thirty-years-war", {{"scenario", "aug5"}}, 2},
        {"rulesets/spi-thirty-years-war", {{"scenario", "aug9"}}, 2},
        {"rulesets/spi-thirty-years-war", {{"scenario", "campaign"}}, 2},
        {"rulesets/spi-thirty-years-war", {{"scenario", "siege"}}, 2},
        {"rulesets/spi-thirty-years-war", {{"scenario", "siege_campaign"}}, 2},
        // ... and with the map's printing of the charts
        {"rulesets/spi-thirty-years-war", {{"scenario", "aug5"}, {"charts", "freiburg_map"}}, 2},
        {"rulesets/spi-thirty-years-war", {{"scenario", "aug9"}, {"charts", "freiburg_map"}}, 2},
        {"rulesets/spi-thirty-years-war", {{"scenario", "campaign"}, {"charts", "freiburg_map"}}, 2},
        {"rulesets/spi-thirty-years-war", {{"scenario", "siege"}, {"charts", "freiburg_map"}}, 2},
        {"rulesets/spi-thirty-years-war", {{"scenario", "siege_campaign"}, {"charts", "freiburg_map"}}, 2},
        {"rulesets/cuius-regio", {}, 3},
        // a GMT player's aid, card manifest included: 4 to 6 pages (issue 29)
        {"rulesets/gmt-thirty-years-war", {}, 6},
        {"rulesets/gmt-thirty-years-war", {{"scenario", "early_war"}}, 6},
        {"rulesets/wallenstein", {}, 2},  // each expansion selection is also 2 on both papers (issue 26; checked by hand)
    };
    std::size_t bundled = 0;
    for (const auto& e : fs::directory_iterator(source_dir + "/rulesets")) bundled += fs::exists(e.path() / "ruleset.wph");
    REQUIRE(bundled == 5);  // a ruleset added under rulesets/ gets its line above
    for (const one& aid : aids)
        for (const auto paper : {wp::docgen::paper::a4, wp::docgen::paper::letter}) {
            std::string chosen;
            for (const auto& [k, v] : aid.options) chosen += " " + k + "=" + v;
            INFO(aid.folder << chosen << (paper == wp::docgen::paper::a4 ? " A4" : " Letter"));
            const std::string dump = aid_text(compiled(aid.folder, aid.options), wp::docgen::aid_product::layout_dump, paper);
            std::istringstream in(dump);
            std::string first;
            std::getline(in, first);
            const std::size_t pages = std::stoul(first.substr(first.rfind(", ") + 2));
            CHECK(pages <= aid.most_pages);
            // `  text X Y w W regular SIZE …`: the regular runs by size
            std::map<double, int> by_size;
            for (std::string line; std::getline(in, line);) {
                std::istringstream l(line);
                std::string kind, w, face;
                double x = 0, y = 0, width = 0, size = 0;
                if ((l >> kind >> x >> y >> w >> width >> face >> size) && kind == "text" && face == "regular") ++by_size[size];
            }
            REQUIRE_FALSE(by_size.empty());
            const auto body = std::max_element(by_size.begin(), by_size.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
            CHECK(body->first >= 7.5);
        }
}

TEST_CASE("aid layout: a continued table never carries its last row alone", "[docgen]") {
    // N one-line paragraphs, then a 100-row table (too long to keep whole). For some N only the
    // last row would be left for the next column: the last two rows must go together.
    tenth_point_metrics metrics;
    for (int n = 0; n < 140; ++n) {
        wp::docgen::document doc;
        doc.title = "t";
        wp::docgen::paragraph line;
        line.text.push_back(wp::docgen::span{"line"});
        for (int i = 0; i < n; ++i) doc.blocks.emplace_back(std::in_place_type<wp::docgen::paragraph>, line);
        wp::docgen::grid g;
        g.caption = "grid";
        g.header.push_back({wp::docgen::cell{{wp::docgen::span{"k"}}}});
        for (int r = 0; r < 100; ++r) g.rows.push_back({wp::docgen::cell{{wp::docgen::span{"row" + std::to_string(r)}}}});
        doc.blocks.push_back(g);
        const wp::docgen::display_list list = wp::docgen::layout(doc, metrics, wp::docgen::paper::a4);
        // The column of each row: (page, x). The last row never sits alone in its column.
        auto column_of = [&](const std::string& text) {
            for (std::size_t p = 0; p < list.pages.size(); ++p)
                for (const auto& it : list.pages[p].items)
                    if (const auto* t = std::get_if<wp::docgen::text_run>(&it); t && t->text == text)
                        return std::make_pair(p, static_cast<int>(t->x));
            return std::make_pair(std::size_t{999}, -1);
        };
        INFO("paragraphs: " << n);
        CHECK(column_of("row99") == column_of("row98"));
    }
}

TEST_CASE("aid: an option that picks a chart prints the chart in force, names the reading, and lists the other as left out", "[docgen]") {
    // SPI prints both the rules folder's and the Freiburg map's charts (§5.1, §8.6); option
    // `charts` picks the one play reads. Before, the aid printed all four with no word of it.
    const std::string folder = aid_text(compiled("rulesets/spi-thirty-years-war"), wp::docgen::aid_product::text_dump);
    CHECK(has(folder, "[Combat results table (charts = rules folder)"));
    CHECK_FALSE(has(folder, "[Map combat results table"));
    CHECK(has(folder, "the map combat results table (charts = freiburg map)"));
    CHECK(has(folder, "Combat roll: 1d6; read on the combat results table §"));
    const std::string map = aid_text(compiled("rulesets/spi-thirty-years-war", {{"charts", "freiburg_map"}}), wp::docgen::aid_product::text_dump);
    CHECK(has(map, "[Map combat results table (charts = freiburg map)"));
    CHECK_FALSE(has(map, "[Combat results table"));
    CHECK(has(map, "the combat results table (charts = rules folder)"));
    // A table no option decides has no reading in its caption.
    CHECK(has(folder, "[Morale levels table  §"));
}

TEST_CASE("aid: a key to a table's results says what each result does, from the rules that test for it", "[docgen]") {
    // SPI's combat results (§8.61) are applied by `apply_result`, which tests `last_result == Ad`
    // and so on; the key follows the table that shows the most results, once.
    const std::string text = aid_text(compiled("rulesets/spi-thirty-years-war"), wp::docgen::aid_product::text_dump);
    const auto key = text.find("[Key to the combat results table]");
    REQUIRE(key != std::string::npos);
    CHECK(text.find("[Key to", key + 1) == std::string::npos);
    CHECK(key > text.find("[Combat results table (charts = rules folder)"));
    CHECK(has(text, "| Ae | Apply result: for every unit: if the unit is in attack and the unit is not charging: eliminate (the unit). |"));
    CHECK(has(text, "| Dx | Apply result: for every unit: if the unit is in defence: disrupt (the unit); exchange. |"));
    CHECK(has(text, "| • | No effect. |"));  // named by no rule outside the tables
    // Contractor Cards' tables print their effects in their own column: no key.
    CHECK_FALSE(has(aid_text(compiled("rulesets/contractor-cards"), wp::docgen::aid_product::text_dump), "[Key to"));
}

TEST_CASE("aid: the terrain effects chart of a map game is derived from the rules that test each terrain and hexside", "[docgen]") {
    // SPI §12.0: the costs are a decision over the terrain, the rest predicates and quantities.
    const std::string spi = aid_text(compiled("rulesets/spi-thirty-years-war"), wp::docgen::aid_product::text_dump);
    CHECK(has(spi, "[Terrain effects chart  §12.0]"));
    CHECK(has(spi, "| Ditch | terrain cost 5 (cavalry), 2 (not cavalry) |"));
    CHECK(has(spi, "| Woods | terrain cost 2 · closed to cavalry · blocking |"));
    CHECK(has(spi, "| Forest | impassable · blocking |"));
    CHECK(has(spi, "[Hexside effects chart  §12.0]"));
    CHECK(has(spi, "| Stream | hexside cost: 2 |"));
    CHECK(has(spi, "| Road | entry cost: 1 |"));
    // Cuius Regio keys tables by terrain: each row is read into the chart.
    const std::string cr = aid_text(compiled("rulesets/cuius-regio"), wp::docgen::aid_product::text_dump);
    // and a modifier's guard, and an `if` in a procedure, testing the terrain itself or through a
    // predicate it calls (a retreat into Hills off the road straggles); a phrase with no condition
    // beside conditional ones adds nothing (it printed ",," before)
    CHECK(has(cr, "| Hills | hex supply 0 · terrain MP 2 · road MP 1 · terrain DRM +1 · enters hills (if not Road is in the "
                  "hexside between the hex and the other hex) · owes hills (if Road is in the hexside between the hex and "
                  "the other hex) · straggle (with conditions) · straggle stack (with conditions) |"));
    CHECK_FALSE(has(cr, ",,"));
    CHECK(has(cr, "· side PP gain 3 |"));  // the numbers the procedure is given
    // A test under a quantifier of a predicate (SPI §16.1: next to an entrenchment).
    CHECK(has(spi, "entrenched zone (some of the neighbours of the hex, with conditions)"));
    // ... and beside other conditions (§5.24: a hilltop is next to a slope hexside).
    CHECK(has(spi, "| Slope | hexside cost: 1 (if from’s slope) · hilltop (some of the neighbours of the hex, with conditions) |"));
    // A game without a map has none.
    CHECK_FALSE(has(aid_text(compiled("rulesets/contractor-cards"), wp::docgen::aid_product::text_dump), "effects chart"));
}

TEST_CASE("aid: a summary of zones of control and stacking from the outline's own entries", "[docgen]") {
    const std::string spi = aid_text(compiled("rulesets/spi-thirty-years-war"), wp::docgen::aid_product::text_dump);
    REQUIRE(has(spi, "## Zones of control and stacking"));
    CHECK(has(spi, "Stacking: one unit per hex at the end of every phase §6.32"));
    CHECK(has(spi, "Zone of control: the six hexes around an undisrupted unit §7.0"));
    CHECK(has(spi, "Mutually controlled hexes §7.12"));  // in chapter 7.0, though its title does not say so
    CHECK(has(aid_text(compiled("rulesets/cuius-regio"), wp::docgen::aid_product::text_dump), "Primary and secondary zones of control §L579-588"));
    CHECK_FALSE(has(aid_text(compiled("rulesets/contractor-cards"), wp::docgen::aid_product::text_dump), "Zones of control"));
}

TEST_CASE("aid: a scenario's deployment says what each player sets up and where, by the scenario's name", "[docgen]") {
    // Issue 30: no procedure name, no value set for the engine's own sake (`today`), no setup
    // plumbing (marking distances); the heading names the scenario as a player does.
    const std::string aug5 = aid_text(compiled("rulesets/spi-thirty-years-war", {{"scenario", "aug5"}}), wp::docgen::aid_product::text_dump);
    CHECK(has(aug5, "Deployment, 5 August: the French player sets up in the French 5 August area: 11 French Regular Infantry units, "
                    "10 French Regular Cavalry units, 7 French Mercenary Infantry units, 4 French Mercenary Cavalry units, "
                    "4 French Regular guns, 2 French Mercenary guns, D'Enghien, Turenne; the Bavarian player sets up in the "
                    "Bavarian 5 August area: 12 Bavarian Infantry units, 5 Bavarian Cavalry units, 5 Bavarian guns, von Mercy; "
                    "the Bavarian player is the first player"));
    CHECK(has(aug5, "Player aid · 2 players · 5 August ·"));
    for (const char* gone : {"deploy units", "deploy guns", "deploy leader", "mark distances", "today = ", "Deployment, aug5"})
        CHECK_FALSE(has(aug5, gone));
    // A `may` that sets a yes/no value, then an `if` on it: "if they do … otherwise".
    const std::string both = aid_text(compiled("rulesets/spi-thirty-years-war", {{"scenario", "siege_campaign"}}), wp::docgen::aid_product::text_dump);
    CHECK(has(both, "Deployment, the siege within the campaign: the Bavarian player may defend Freiburg's fortifications (§20.12) "
                    "rather than the 3 August Line; if they do: the Bavarian player sets up in Freiburg: "));
    CHECK(has(both, "; otherwise the Bavarian player sets up on the 3 August Line: 14 Bavarian Infantry units"));
    CHECK_FALSE(has(both, "defends town"));
    CHECK_FALSE(has(both, "mark bavarian distances"));
    // Cuius Regio's stand-in set-up is the same in both scenarios, and says so.
    for (const char* scenario : {"short", "campaign"}) {
        const std::string cuius = aid_text(compiled("rulesets/cuius-regio", {{"scenario", scenario}}), wp::docgen::aid_product::text_dump);
        CHECK(has(cuius, "Deployment (every scenario): "));
    }
}

TEST_CASE("aid: what a scenario settles and what repeats is said once", "[docgen]") {
    const std::string aug5 = aid_text(compiled("rulesets/spi-thirty-years-war", {{"scenario", "aug5"}}), wp::docgen::aid_product::text_dump);
    // `today` is set to 5 August by the setup and by nothing else in this scenario: the rows of
    // other days never apply, and "today is 5 August" goes without saying.
    // Its rules cite one section in one layer: once, after the last ("Morale row of" names its
    // parameter).
    CHECK(has(aug5, "Morale row of the army: 5 Aug/Bavarian when the army is Bavarian; 5 Aug/Fr. Regular when the army is "
                    "French Regular; 5 Aug/Fr. Mercenary when the army is French Mercenary §15.14 [freiburg]\n"));
    // 3 August too, once the yes/no values no play sets decide the setup's branches (the
    // Bavarians defend the town only in the siege within the campaign).
    const std::string aug3 = aid_text(compiled("rulesets/spi-thirty-years-war"), wp::docgen::aid_product::text_dump);
    CHECK(has(aug3, "Morale row of the army: 3 Aug/Bavarian when the army is Bavarian; 3 Aug/Fr. Regular when the army is "
                    "French Regular §15.14 [freiburg]\n"));
    // The campaign sets it day by day: every row stays.
    const std::string campaign = aid_text(compiled("rulesets/spi-thirty-years-war", {{"scenario", "campaign"}}), wp::docgen::aid_product::text_dump);
    CHECK(has(campaign, "3 Aug/Bavarian when today is 3 August and the army is Bavarian"));
    CHECK(has(campaign, "9 Aug/Fr. Mercenary when today is 9 August and the army is French Mercenary"));
    // Three triggers of one layer that do the same under one condition: one entry.
    CHECK(has(aug5, "When army demoralized, unit eliminated or movement begins, and day collapsed: fighting stops §17.13"));
    CHECK_FALSE(has(aug5, "When unit eliminated and day collapsed"));
    // A row's label says why the game ends; the table's caption says its layer.
    CHECK(has(aug5, "| -3 | Decisive Bavarian Victory | victor = Bavarian; the game ends |"));
    CHECK(has(aug5, "| 0 | Draw | draw result: yes; the game ends |"));
    // The scenario by its words in the options paragraph, the footer and a chart's reading.
    CHECK(has(aug5, "Options. Scenario 5 August (chosen; default 3 August) §17.0"));
    CHECK(has(aug5, "options chosen: scenario = 5 August"));
    const std::string both = aid_text(compiled("rulesets/spi-thirty-years-war", {{"scenario", "siege_campaign"}}), wp::docgen::aid_product::text_dump);
    CHECK(has(both, "the level of victory table (scenario = 5 August)"));
    // An errata that amends one row of a table still marks that row.
    const std::string cards = aid_text(compiled("rulesets/contractor-cards"), wp::docgen::aid_product::text_dump);
    CHECK(has(cards, "| ≤2 | Terrible Defeat | your reputation −2; your casualties = 1d6 + 2 [clarifications] |"));
}

TEST_CASE("aid layout: a short table that does not fit whole where half of it would starts there", "[docgen]") {
    // N one-line paragraphs, then a ten-row table short enough to keep whole. Where half of it
    // fits under the paragraphs, it starts there (two rows at least) and goes on in the next
    // column under its caption again, rather than leaving the foot of the column empty.
    tenth_point_metrics metrics;
    int splits = 0;
    for (int n = 60; n < 140; ++n) {
        wp::docgen::document doc;
        doc.title = "t";
        wp::docgen::paragraph line;
        line.text.push_back(wp::docgen::span{"line"});
        for (int i = 0; i < n; ++i) doc.blocks.emplace_back(std::in_place_type<wp::docgen::paragraph>, line);
        wp::docgen::grid g;
        g.caption = "grid";
        g.header.push_back({wp::docgen::cell{{wp::docgen::span{"k"}}}});
        for (int r = 0; r < 10; ++r) g.rows.push_back({wp::docgen::cell{{wp::docgen::span{"row" + std::to_string(r)}}}});
        doc.blocks.push_back(g);
        const wp::docgen::display_list list = wp::docgen::layout(doc, metrics, wp::docgen::paper::a4);
        // rows drawn under the first caption, before the continued one
        int before = 0;
        bool continued = false;
        for (const auto& page : list.pages)
            for (const auto& it : page.items)
                if (const auto* t = std::get_if<wp::docgen::text_run>(&it)) {
                    if (t->text == "grid (continued)") continued = true;
                    if (t->text.rfind("row", 0) == 0 && !continued) ++before;
                }
        INFO("paragraphs: " << n);
        if (!continued) continue;
        ++splits;
        CHECK(before >= 2);
        CHECK(before <= 8);  // never the last row alone in the next column
    }
    CHECK(splits > 0);
}
