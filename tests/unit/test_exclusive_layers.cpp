// A series' standard rules with stand-ins of their own (a map, counters, a set-up, a length), and
// a game's exclusive layer that puts its own in their place with `replace` and `withdraw`
// (docs/language.md §11, "Series rules and a game's exclusive rules"): both stacks compile and
// play, the full one exactly as the game's declarations say, and a `replace` word that is not the
// target's kind is `wrong-kind`.
#include "test_support.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/docgen/aid.hpp"
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace wp;

namespace {

using wp::test::temp_ruleset;

using compiled = wp::test::compiled_ruleset;

// The series rules: a game of `game_length` turns. The map, the counters, the set-up (which puts
// each unit on the woods hex) and the length are the stand-ins a game replaces.
const char* const series = R"(
enum terrain { Clear, Woods }
record face { strength: 0..9 error = 0 }
state { length_played: 0..9 error = 0  start: 0..9999 error = 0 }
state per unit { at: hex }
decision game_length : int total §4;
map series_map §1 : hexgrid standin "ours" {
  hex 0101 : Clear
  hex 0201 : Woods
}
pieces unit of face §2 standin "ours" { stand_in "Stand-in" { strength = 1 } }
procedure deploy() §3 { for each u in unit { for each h in hex { if terrain(h) == Woods { u.at = h; } } } }
define series_length §4 : game_length = 1;
predicate series_only(h: hex) §3 = h.series_mark;
sequence game §4 {
  setup { deploy(); }
  repeat {
    turn turns §4 { length_played += 1; }
  } until length_played >= game_length;
}
)";

const char* const game = R"(
errata addition "The game: its map" §1 {
  replace map series_map with map game_map §1 : hexgrid standin "the game's" {
    hex 0101 : Clear
    hex 0102 : Clear
    hex 0103 : Woods
  }
}
errata addition "The game: its counters and set-up" §2 §3 {
  replace pieces unit with pieces unit of face §2 { foot "Foot" { strength = 4 } x2 }
  replace procedure deploy with procedure deploy() §3 { start = 103; }
  withdraw rule series_only;
}
errata addition "The game: its length" §4 {
  withdraw rule series_length;
}
define game_length_three §4 : game_length = 3;
)";

const char* const manifest =
    "ruleset t \"T\" {\n  players 1..2\n  outline \"outline.wph\"\n"
    "  layer standard : base { \"standard.wph\" }\n"
    "  layer game : exclusive { \"game.wph\" }\n}\n";

std::unique_ptr<compiled> compile(const std::string& series_text, const std::string& game_text, const std::string& upto = "") {
    temp_ruleset folder({
        {"ruleset.wph", manifest},
        {"outline.wph", "outline { §1-9 \"All\" encoded }\n"},
        {"standard.wph", series_text},
        {"game.wph", game_text},
    });
    auto r = std::make_unique<compiled>();
    compiler::compile_options options;
    if (!upto.empty()) options.upto_layer = upto;
    r->ir = compiler::compile_ruleset(folder.root(), options, r->sources, r->sink);
    return r;
}

std::string with_mark(std::string text) {
    // The stand-in map carries the attribute the series-only predicate reads.
    const std::string from = "hex 0201 : Woods";
    text.replace(text.find(from), from.size(), "hex 0201 : Woods { series_mark = true }");
    return text;
}

}  // namespace

TEST_CASE("exclusive layers: the standard layer alone plays its stand-ins", "[compiler][patch][exclusive]") {
    auto r = compile(with_mark(series), game, "standard");
    INFO(r->rendered());
    REQUIRE(r->ir);
    const ir::ruleset& rs = *r->ir;
    REQUIRE(rs.maps.size() == 1);
    CHECK(rs.maps[0].name == "series_map");
    CHECK(rs.errata.empty());
    const engine::game g(rs, 1);
    engine::state s(g, 1);
    REQUIRE(s.is_terminal());
    CHECK(s.slot_value("length_played") == 1);
    CHECK(s.slot_value("start") == 0);
}

TEST_CASE("exclusive layers: a game's map, counters, set-up and length take the stand-ins' place", "[compiler][patch][exclusive]") {
    auto r = compile(with_mark(series), game);
    INFO(r->rendered());
    REQUIRE(r->ir);
    const ir::ruleset& rs = *r->ir;
    REQUIRE(rs.maps.size() == 1);
    CHECK(rs.maps[0].name == "game_map");
    // The game's two counters, not the stand-in.
    std::int64_t pieces = 0;
    for (const ir::entity& e : rs.entities) pieces += e.count;
    CHECK(pieces == 2);
    // The withdrawn length and predicate are gone; the errata records say what the layer did.
    CHECK(std::none_of(rs.rules.begin(), rs.rules.end(), [](const ir::rule& x) { return x.name == "series_length"; }));
    CHECK(rs.errata.size() == 5);
    CHECK(std::all_of(rs.errata.begin(), rs.errata.end(), [](const ir::errata_op& e) { return e.layer == 1; }));
    const engine::game g(rs, 1);
    engine::state s(g, 1);
    REQUIRE(s.is_terminal());
    CHECK(s.slot_value("length_played") == 3);
    CHECK(s.slot_value("start") == 103);
    // The aid counts none of it as errata of the rules.
    const std::string aid = docgen::make_aid(rs, docgen::aid_options{}, docgen::aid_product::text_dump).bytes;
    CHECK(aid.find("no errata") != std::string::npos);
    CHECK(aid.find("The game: its map") == std::string::npos);
}

TEST_CASE("exclusive layers: the word after `replace` or `withdraw` names the target's kind", "[compiler][patch][exclusive]") {
    auto r = compile(with_mark(series), R"(errata addition "x" §1 { replace map unit with pieces unit of face { foot "Foot" { strength = 4 } } })");
    REQUIRE_FALSE(r->ir);
    const dsl::diagnostic* d = r->first(dsl::diag_kind::wrong_kind_of_name);
    REQUIRE(d);
    CHECK(d->message == "`unit` is a piece list, not a map; write `replace pieces unit`");
    auto w = compile(with_mark(series), R"(errata addition "x" §1 { withdraw procedure series_length; })");
    REQUIRE_FALSE(w->ir);
    REQUIRE(w->first(dsl::diag_kind::wrong_kind_of_name));
    CHECK(w->first(dsl::diag_kind::wrong_kind_of_name)->message == "`series_length` is a rule, not a procedure; write `withdraw rule series_length`");
    // `rule` names any declaration, as before.
    auto any = compile(with_mark(series), R"(errata addition "x" §1 { withdraw rule series_only; })");
    INFO(any->rendered());
    CHECK(any->ir);
}
