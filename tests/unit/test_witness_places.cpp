// A witness shows where a piece is only when that is a place the piece can be. A piece's place
// forgotten on one side of a branch is a fresh variable whose zones are a fact of that side
// only: on the other side the model may give it any number, and GMT's check once showed sixteen
// step tokens "in box", a zone of cards (docs/checker.md, "How", step 5).
#include "symbolic.hpp"

#include "test_support.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

namespace {

using wp::verify::detail::symbolic;
using wp::verify::detail::variable;

std::int64_t zone_instance(const symbolic& sym, const wp::ir::ruleset& rs, const std::string& zone, std::uint32_t k = 0) {
    for (wp::ir::id z = 0; z < rs.zones.size(); ++z)
        if (rs.zones[z].name == zone) return static_cast<std::int64_t>(sym.lay.zone_first.at(z) + k);
    FAIL("no zone " << zone);
    return -1;
}

}  // namespace

TEST_CASE("a piece's place is shown only in a zone of its kind, of a seat in play", "[verify][witness]") {
    const wp::ir::ruleset rs = wp::test::compile_rules_text(R"(
record face { }
cards card of face { letter "Letter" x3 }
pieces token of face { tok "Token" x4 }
zone box  : public of card
zone pool : public of token
zone used : per player public of token
state { moved: 0..9 clamp = 0 }
sequence game {
  for each p in players {
    turn act {
      if moved < 2 {
        for each t in token { if t in pool { move t from pool to used[p]; moved += 1; } }
      }
    }
  }
  end game over;
}
)");
    z3::context ctx;
    symbolic sym(ctx, rs, 4);
    sym.explore();
    wp::ir::id token_kind = wp::ir::no_id, card_kind = wp::ir::no_id;
    for (const wp::ir::zone& z : rs.zones) (z.name == "box" ? card_kind : token_kind) = z.entity_kind;
    REQUIRE(card_kind != token_kind);
    // the places of the tokens the loop forgets are variables, each knowing its kind
    std::size_t token_places = 0;
    for (const variable& v : sym.variables)
        if (v.as == variable::show::zone && v.text.rfind("Token", 0) == 0) {
            CHECK(v.kind == token_kind);
            ++token_places;
        }
    CHECK(token_places >= 4);
    CHECK_FALSE(sym.can_hold(token_kind, zone_instance(sym, rs, "box"), 4));  // the model's 0: a zone of cards
    CHECK(sym.can_hold(card_kind, zone_instance(sym, rs, "box"), 4));
    CHECK(sym.can_hold(token_kind, zone_instance(sym, rs, "pool"), 2));
    CHECK(sym.can_hold(token_kind, zone_instance(sym, rs, "used", 1), 2));        // P2's
    CHECK_FALSE(sym.can_hold(token_kind, zone_instance(sym, rs, "used", 2), 2));  // P3's, in a 2-player game
    CHECK_FALSE(sym.can_hold(token_kind, -1, 2));
}
