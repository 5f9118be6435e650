// A state replay (verify/src/replay.cpp) sets the engine in the witness's state. A value the
// witness chose outside its field's declared range is no game's state: whatever the engine does
// there confirms nothing. (A checker bug once gave the witness `tests = -1` for a field of
// 0..3, and the replay said "confirmed".)
#include "replay.hpp"
#include "symbolic.hpp"

#include "test_support.hpp"

#include <catch2/catch.hpp>

#include <optional>

namespace {

using wp::verify::detail::bound_site;
using wp::verify::detail::symbolic;
using wp::verify::detail::witness_replay;

// The replayable site of the assignment to `level` (the last one met).
const bound_site* level_site(const symbolic& sym, const wp::ir::ruleset& rs) {
    const bound_site* site = nullptr;
    for (const bound_site& s : sym.bound_sites)
        if (rs.slots.at(s.slot).name == "level" && s.replay.recorded) site = &s;
    return site;
}

}  // namespace

TEST_CASE("a state replay refuses a witness value outside its field's range", "[verify][replay]") {
    // `level += 1` overflows 0..3 from level 3; the engine, set at level 5 (no game's), also
    // computes a value past the range, and would "confirm" it.
    const wp::ir::ruleset rs = wp::test::compile_rules_text(R"(
state {
  level: 0..3 error = 0
}
sequence game {
  for each p in players {
    turn raise {
      level += 1;
    }
  }
  end game over;
}
)");
    z3::context ctx;
    symbolic sym(ctx, rs, 2);
    sym.explore();
    const bound_site* site = level_site(sym, rs);
    REQUIRE(site != nullptr);
    const z3::expr held = site->replay.st->value(sym.lay.slots.at(site->slot).offset);
    // the witness's own value (at setup the store holds the number 0; the loop forgets what
    // its rounds wrote, so a round starts from a variable)
    REQUIRE_FALSE(held.is_numeral());
    witness_replay replay(sym);
    auto line_for = [&](int level) {
        z3::solver s(ctx);
        s.add(held == level && sym.n_players == 2);
        REQUIRE(s.check() == z3::sat);
        return replay.bound_violation(*site, 0, s.get_model());
    };
    const std::string outside = line_for(5);
    INFO(outside);
    CHECK(outside.rfind("not confirmed: the witness's state holds `level` = 5, outside its type's range 0..3", 0) == 0);
    const std::string inside = line_for(3);
    INFO(inside);
    CHECK(inside.rfind("confirmed:", 0) == 0);
}

TEST_CASE("a state replay refuses dice the roll cannot show", "[verify][replay]") {
    // `level += roll gain()` overflows 0..10; a witness with the die at 8 (a question once left
    // out the die's faces, at a demanded `may` with a roll in its `do`) is no game's, though
    // the engine, given 8, would compute a value past the range and "confirm" it.
    const wp::ir::ruleset rs = wp::test::compile_rules_text(R"(
state {
  level: 0..10 error = 0
}
roll gain() = 1d6;
sequence game {
  for each p in players {
    turn raise {
      level += roll gain();
    }
  }
  end game over;
}
)");
    z3::context ctx;
    symbolic sym(ctx, rs, 2);
    sym.explore();
    const bound_site* site = level_site(sym, rs);
    REQUIRE(site != nullptr);
    const z3::expr held = site->replay.st->value(sym.lay.slots.at(site->slot).offset);
    std::optional<z3::expr> die;
    for (std::size_t i = site->replay.variables_from; i < site->replay.variables_to; ++i)
        if (sym.variables.at(i).roll != wp::ir::no_id) die = sym.variables[i].var;
    REQUIRE(die.has_value());
    witness_replay replay(sym);
    auto line_for = [&](int level, int dice) {
        z3::solver s(ctx);
        s.add(held == level && *die == dice && sym.n_players == 2);
        REQUIRE(s.check() == z3::sat);
        return replay.bound_violation(*site, 0, s.get_model());
    };
    const std::string impossible = line_for(3, 8);
    INFO(impossible);
    CHECK(impossible.rfind("not confirmed: the witness's gain (dice) = 8, which the dice cannot show", 0) == 0);
    const std::string possible = line_for(5, 6);
    INFO(possible);
    CHECK(possible.rfind("confirmed:", 0) == 0);
}
