// The compiled engine names the faults of the rules that stop its games as the interpreter does
// (engine::engine_fault: kind, subject, side and node), so `sim --compiled` gives the same
// `by kind` line and JSON `faults` (it gave none: every compiled engine error was a bare message).
#include "test_support.hpp"

#include "westphalia/codegen/compiled_sim.hpp"
#include "westphalia/engine/sim.hpp"

#include <catch2/catch.hpp>

TEST_CASE("a compiled simulation reports the same faults as the interpreter's", "[engine][codegen]") {
    const char* const rulesets[] = {
        "tests/rulesets/engine-errors/gap.wph",                  // table-gap
        "tests/rulesets/engine-errors/overflow.wph",             // bound-violation, with its side
        "tests/rulesets/engine-errors/odds_gap.wph",             // table-gap on an odds key
        "tests/checker/stuck-state/discard_from_empty_hand.wph",  // stuck-state
        "tests/checker/gap/winner_gold_tie.wph",                 // gap, of the decision that names the winners
        "tests/checker/contradiction/mercenary_event_ops.wph",    // contradiction, both rules named
        "tests/checker/unmet-obligation/storm_without_siege_guns.wph",       // unmet-obligation: a `do` not legal
        "tests/checker/unmet-obligation/plague_takes_pikemen_not_held.wph",  // unmet-obligation: a move of a card not there
    };
    for (const char* path : rulesets) {
        INFO(path);
        const wp::ir::ruleset rs = wp::test::compile_repo_ruleset(path);
        wp::engine::sim_options o;
        o.games = 40;
        o.players = static_cast<int>(std::max<std::int64_t>(2, rs.min_players));
        o.seed = 7;
        o.threads = 1;
        const wp::engine::sim_report interpreted = wp::engine::simulate(rs, o);
        const wp::engine::sim_report compiled = wp::codegen::simulate_compiled(rs, o);
        REQUIRE_FALSE(interpreted.faults.empty());
        REQUIRE(compiled.faults.size() == interpreted.faults.size());
        for (std::size_t i = 0; i < interpreted.faults.size(); ++i) {
            const wp::engine::sim_fault& a = interpreted.faults[i];
            const wp::engine::sim_fault& b = compiled.faults[i];
            CHECK(b.fault.kind == a.fault.kind);
            CHECK(b.fault.subject == a.fault.subject);
            CHECK(b.fault.side == a.fault.side);
            CHECK(b.fault.node == a.fault.node);
            CHECK(b.games == a.games);
            CHECK(b.first.game == a.first.game);
        }
    }
}
