// The hex map the human agent draws: the renderer on a fixed scene, and the scene read from a
// game of tests/rulesets/play-hex (engine: option_type, option_values, entity_field).
#include "hex_scene.hpp"
#include "source_dir.hpp"
#include "hex_view.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <map>
#include <sstream>

using namespace wp;

namespace {

// Columns 01-03, rows 01-02: six hexes; two pieces in 0202, one in 0301; options lead to 0201
// and 0302; a river with a bridge between 0202 and 0302.
cli::hex_scene small_scene() {
    cli::hex_scene s;
    s.map_name = "field";
    const char* numbers[] = {"0101", "0102", "0201", "0202", "0301", "0302"};
    const char* terrain[] = {"C", "W", "C", "C", "W", "C"};
    for (int i = 0; i < 6; ++i) {
        const std::string n = numbers[i];
        s.hexes.push_back({n, std::stoi(n.substr(0, 2)), std::stoi(n.substr(2)), terrain[i], ""});
    }
    s.legend = {{"C", "Clear"}, {"W", "Woods"}, {"T", "Town"}};
    s.hexsides = {{3, 5, "River, Bridge"}, {0, 1, "Stream"}};
    s.pieces = {{3, "tilly", "Imperial", ""}, {3, "pappenheim", "Imperial, disrupted", ""}, {4, "horn", "Swedish", ""}};
    s.marks.resize(6);
    s.marks[2] = "1";
    s.marks[5] = "2";
    return s;
}

// The widest line of the pictures (not the lists under them: those start with a letter or two spaces).
std::size_t widest_line(const std::string& text) {
    std::size_t widest = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && (line[0] == '/' || line[0] == '\\' || line.rfind(" _", 0) == 0 || line.rfind("   ", 0) == 0))
            widest = std::max(widest, line.size());
    return widest;
}

ir::ruleset play_hex() {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    auto r = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/tests/rulesets/play-hex/game.wph", {}, sources, sink);
    REQUIRE(r.has_value());
    return *r;
}

}  // namespace

TEST_CASE("hex view: the hexes around the options, their pieces, hexsides and legend", "[hex_view]") {
    // 0201 and 0302 are the options; 0202 holds two pieces (too long together: "+1").
    const std::string expected = R"(field around 0201 0302:
 ___________             ___________
/0101 C     \___________/0301 W     \
\___________/0201 C *1  \_horn______/
/0102 W     \___________/0302 C *2  \
\___________/0202 C     \___________/
            \_tilly+1___/
pieces:
  0202  tilly: Imperial
  0202  pappenheim: Imperial, disrupted
  0301  horn: Swedish
hexsides:
  0202|0302  River, Bridge
  0101|0102  Stream
terrain: C Clear, W Woods; *N: choice N
)";
    CHECK(cli::render_region(small_scene(), {2, 5}) == expected);
}

TEST_CASE("hex view: what the shown hexes' own fields hold, under their pieces", "[hex_view]") {
    cli::hex_scene s = small_scene();
    s.hexes[3].fields = "inf[Imperial] 8, fort";
    s.hexes[0].fields = "dmg Sacked";    // 0101: not around 0302
    s.hexes[1].fields = "far_from_town";  // 0102: no piece, no option
    const std::string around = cli::render_region(s, {5});
    CHECK_THAT(around, Catch::Contains("  0301  horn: Swedish\nin the hexes:\n  0202  inf[Imperial] 8, fort\nhexsides:\n"));
    CHECK_THAT(around, !Catch::Contains("Sacked"));
    const std::string both = cli::render_region(s, {0, 5});
    CHECK_THAT(both, Catch::Contains("  0202  inf[Imperial] 8, fort\n") && !Catch::Contains("far_from_town"));
}

TEST_CASE("hex view: a side's strength in a hex is listed to that side only under the Fog of War", "[hex_view][secrets]") {
    // Cuius Regio's set-up puts each side's SP in hexes (per-hex fields keyed by side); with the
    // option fog_of_war a seat's view holds the other side's at their start (docs/language.md §2)
    // where they stand under a Force marker: here every army is put under one, as the first
    // Operations Phase begins (rulesets/cuius-regio/base/fog.wph).
    auto listed = [](const std::map<std::string, std::string>& options, int seat) {
        const engine::game g(test::compile_repo_ruleset("rulesets/cuius-regio", options), 2);
        engine::state s(g, 1, test::sampled_chance());
        for (;;) {
            while (!s.is_terminal() && s.is_chance_node()) s.apply_sampled();
            REQUIRE_FALSE(s.is_terminal());
            const std::string context = s.decision_context();
            if (context.find("offer_marker") != std::string::npos) s.apply(0);  // yes; the first leader
            else if (context.find("pick_first") != std::string::npos) s.apply(0);
            else break;
        }
        const auto scene = cli::first_hex_scene(engine::seat_view(s, seat).seen());
        REQUIRE(scene);
        std::string all;
        for (const auto& h : scene->hexes) all += h.fields + "\n";
        return all;
    };
    const std::string imperial = listed({{"fog_of_war", "true"}}, 0), protestant = listed({{"fog_of_war", "true"}}, 1);
    CHECK_THAT(imperial, Catch::Contains("inf[Imperial]") && !Catch::Contains("inf[Protestant]"));
    CHECK_THAT(protestant, Catch::Contains("inf[Protestant]") && !Catch::Contains("inf[Imperial]"));
    CHECK_THAT(listed({}, 0), Catch::Contains("inf[Imperial]") && Catch::Contains("inf[Protestant]"));
}

TEST_CASE("hex view: a region too wide is split into one picture per focus hex", "[hex_view]") {
    cli::hex_view_options narrow;
    narrow.max_width = 30;
    const std::string split = cli::render_region(small_scene(), {0, 5}, narrow);
    CHECK_THAT(split, Catch::Contains("field around 0101:\n") && Catch::Contains("field around 0302:\n"));
    CHECK(widest_line(split) <= 37);  // a neighbourhood (three columns) is always shown whole
    // The first picture (around 0101) shows no piece; the Stream lies between its hexes.
    const std::string first = split.substr(0, split.find("field around 0302"));
    CHECK_THAT(first, Catch::Contains("0101|0102  Stream") && !Catch::Contains("pieces:"));

    narrow.max_pictures = 1;
    CHECK_THAT(cli::render_region(small_scene(), {0, 5}, narrow),
               Catch::EndsWith("… and 1 more (`m` shows the whole map)\nterrain: C Clear, W Woods; *N: choice N\n"));
    // The same neighbourhoods at full width overlap (0201) and make one picture.
    CHECK_THAT(cli::render_region(small_scene(), {0, 5}), Catch::StartsWith("field around 0101 0302:\n"));
}

TEST_CASE("hex view: the whole map when it fits, else the occupied hexes", "[hex_view]") {
    const std::string whole = cli::render_whole(small_scene());
    CHECK_THAT(whole, Catch::StartsWith("field, the whole map (6 hexes):\n"));
    cli::hex_view_options narrow;
    narrow.max_width = 30;
    const std::string occupied = cli::render_whole(small_scene(), narrow);
    CHECK_THAT(occupied, Catch::StartsWith("field, pieces at 0202:\n") && Catch::Contains("field, pieces at 0301:\n"));
    cli::hex_scene empty = small_scene();
    empty.pieces.clear();
    CHECK(cli::render_whole(empty, narrow) == "field: no piece is on the map\n");
}

TEST_CASE("hex view: the scene of a decision over pieces, over hexes, and a subset step", "[hex_view]") {
    const ir::ruleset rs = play_hex();
    const engine::game g(rs, 2);
    engine::state s(g, 1);
    const auto hex_of = [&](const std::string& number) {
        for (std::size_t n = 0; n < rs.maps[0].nodes.size(); ++n)
            if (rs.maps[0].nodes[n].name == number) return static_cast<std::int64_t>(n);
        FAIL("no hex " << number);
        return std::int64_t{-1};
    };
    // Decision 1: which piece (an entity type); the scene marks each piece's hex.
    REQUIRE(s.option_type() != ir::no_id);
    CHECK(rs.types[s.option_type()].kind == ir::type_kind::entity);
    auto d = cli::scene_for_decision(s);
    REQUIRE(d.has_value());
    CHECK(d->focus == std::vector<std::size_t>{static_cast<std::size_t>(hex_of("0202")), static_cast<std::size_t>(hex_of("0303"))});
    REQUIRE(d->scene.pieces.size() == 2);
    CHECK(d->scene.pieces[1].tag == "horn");
    CHECK(d->scene.pieces[1].details == "Horn's horse, Swedish, disrupted");  // its name, then what it is
    CHECK(d->scene.pieces[1].mark == "2");
    CHECK(d->scene.legend == std::vector<std::pair<std::string, std::string>>{{"C", "Clear"}, {"W", "Woods"}});
    REQUIRE(d->scene.hexsides.size() == 3);
    CHECK(d->scene.hexsides[0].features == "River, Bridge");

    // Decision 2: horn (disrupted) moves to a clear neighbour of 0303: hexes as option values.
    s.apply(1);
    REQUIRE(s.option_type() != ir::no_id);
    CHECK(rs.types[s.option_type()].kind == ir::type_kind::node);
    CHECK(s.option_values() == std::vector<std::int64_t>{hex_of("0202"), hex_of("0302"), hex_of("0403")});
    d = cli::scene_for_decision(s);
    REQUIRE(d.has_value());
    CHECK(d->scene.marks[static_cast<std::size_t>(hex_of("0403"))] == "3");
    ir::id at = ir::no_id;
    for (ir::id sl = 0; sl < rs.slots.size(); ++sl)
        if (rs.slots[sl].name == "at") at = sl;
    REQUIRE(at != ir::no_id);
    const std::int64_t horn = g.kind_first[rs.slots[at].entity_kind] + 1;
    CHECK(s.entity_field(at, horn) == hex_of("0303"));
    s.apply(2);
    CHECK(s.entity_field(at, horn) == hex_of("0403"));
    CHECK_THROWS_AS(s.entity_field(at, horn + 1), engine::engine_error);
    CHECK(s.subset_item() == -1);

    // P2 moves tilly (0202) to its first neighbour, 0102; then the subset of attackers: one
    // step per piece, the map on the piece decided on, marked with the option including it.
    s.apply(0);
    s.apply(0);
    CHECK(s.entity_field(at, horn - 1) == hex_of("0102"));
    REQUIRE(s.option_type() != ir::no_id);
    CHECK(rs.types[s.option_type()].kind == ir::type_kind::entity);
    CHECK(s.option_values().empty());
    CHECK(s.subset_item() == horn - 1);
    d = cli::scene_for_decision(s);
    REQUIRE(d.has_value());
    CHECK(d->focus == std::vector<std::size_t>{static_cast<std::size_t>(hex_of("0102"))});
    CHECK(d->scene.pieces[0].mark == "1");
    s.apply(0);
    CHECK(s.subset_item() == horn);
}
