// The checker on Contractor Cards as printed (`check --upto base`): the printed rules' real
// problems, each with a witness that the engine confirms. Both reports are also byte goldens
// (tests/golden/check/contractor_cards/); this test says what must hold whatever witness the
// solver picks, so a golden update that loses a finding or a confirmation fails here.
#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/engine/agents.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/verify/check.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

namespace {

bool has_line_starting(const std::vector<std::string>& lines, const std::string& prefix) {
    for (const std::string& l : lines)
        if (l.rfind(prefix, 0) == 0) return true;
    return false;
}

long value_after(const std::vector<std::string>& lines, const std::string& prefix) {
    for (const std::string& l : lines)
        if (l.rfind(prefix, 0) == 0) return std::stol(l.substr(prefix.size()));
    return 0;
}

}  // namespace

TEST_CASE("check --upto base finds the printed Contractor Cards rules' real problems", "[verify][contractor-cards]") {
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    wp::compiler::compile_options opts;
    opts.upto_layer = "base";
    const auto rs = wp::compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", opts, sources, sink);
    REQUIRE(rs);
    wp::verify::check_options co;
    co.timeout_ms = 120000;  // the clock must not decide anything here
    const wp::verify::check_result r = wp::verify::check(*rs, co);

    std::map<std::string, int> by_kind_subject;
    // a finding with one cause at several places counts once per place
    for (const auto& f : r.findings) by_kind_subject[f.kind + " " + f.subject] += 1 + static_cast<int>(f.also.size());
    const std::map<std::string, int> expected{
        // modified rolls below the printed tables (§L86-92, §L105-107)
        {"table-gap campaign_outcome", 1},
        {"table-gap live_off_the_land", 1},
        // leaders level in gold and reputation: §L18 says nothing
        {"gap wins", 1},
        // the two passages on when the game ends (§L17 against §L54), and what follows from them
        {"contradiction deck_out_ends_game deck_out_twice_ends_game", 1},
        {"bound-violation deck_exhaustions", 1},
        // our representation's ranges, which the phase-by-phase summary cannot bound (accepted
        // in the full stack, rulesets/contractor-cards/accepted.wph)
        {"bound-violation traits", 10},
        {"bound-violation gold", 3},
        {"bound-violation turn_number", 1},
        // §L84 repeats what the Campaign phase already ensures
        {"dead-rule one_campaign_per_phase", 1},
        // a claim of the rulebook (base/queries.wph) that the base layer's random games do not
        // reach (as printed, §L17 ends the game at the first run-out) and the phase summary
        // cannot settle: not shown either way
        {"unknown deck_out_twice", 1},
        // (no unmet obligation at the end-of-war card's move from the reserve: the invariant
        // `end_card_waits_for_first_pass` keeps it there until the first run-out, §L184-186)
    };
    CHECK(by_kind_subject == expected);
    // The ten traits are one finding; the three gold places two, by side: gold past the top of
    // its range (two places), and below 0 (a negative contract score's income, §L56-62 §L70-74).
    // No game the checker plays meets a bound violation: their witnesses rest on the summary of
    // play, so they are not shown reachable and fail nothing (but with strict_reach). Both table
    // gaps and the gap of `wins` are met by its random games, with traces from setup.
    CHECK(wp::verify::error_count(r) == 5);
    wp::verify::check_result strict = r;
    strict.strict_reach = true;
    CHECK(wp::verify::error_count(strict) == 10);
    // both gaps were met by games where the sequence consults the tables: decided by those
    // games, with no question (docs/checker.md, "How", step 5)
    CHECK(r.stats.at("tables").queries == 0);
    for (const auto& f : r.findings) {
        INFO(f.kind << " " << f.subject);
        if (f.kind == "bound-violation" || f.kind == "unmet-obligation") CHECK(f.reach == wp::verify::reach_kind::not_shown);
        if (f.kind == "table-gap" || f.kind == "gap") {
            CHECK(f.reach == wp::verify::reach_kind::trace);
            // The replay command plays the same stack: the base layer alone.
            CHECK(f.trace.find("`westphalia play --upto base --players ") != std::string::npos);
        }
    }
    // each trace is a game the engine plays into that very fault
    for (const auto& m : r.faults) {
        INFO(m.kind << " " << m.subject << ": " << m.trace);
        wp::engine::random_agent random;
        const wp::engine::play_result played = wp::engine::play_game(*rs, m.players, m.seed, {&random});
        CHECK(played.decisions == std::stoull(m.when.substr(m.when.rfind(' ') + 1)));
        CHECK(played.error.find(m.subject) != std::string::npos);
    }

    for (const auto& f : r.findings) {
        INFO(f.kind << " " << f.subject);
        CHECK_FALSE(f.elements.empty());
        CHECK_FALSE(f.accepted);
        // the engine, set in each witness's state, does what the witness says
        if (f.kind != "dead-rule" && f.kind != "unknown") CHECK(f.replay.rfind("confirmed: ", 0) == 0);
        if (f.kind == "table-gap") {
            // the witness is a key below the lowest printed row (1 on both tables), the one the
            // game that met it stopped on (no question asked: docs/checker.md, "How", step 5)
            REQUIRE(has_line_starting(f.witness, "the row key = "));
            CHECK(value_after(f.witness, "the row key = ") < 1);
        }
        if (f.kind == "contradiction") CHECK(value_after(f.witness, "deck_exhaustions = ") >= 2);
        if (f.kind == "dead-rule") {
            CHECK(f.proof == wp::verify::proof_kind::proved);
            CHECK_FALSE(f.because.empty());
        }
        if (f.kind == "bound-violation") CHECK(has_line_starting(f.witness, "the new value = "));
    }
}

// The full stack accepts its bound violations (accepted.wph); their witnesses are not searched
// for (docs/checker.md, "How", step 5): each is still a real one, confirmed by the engine from the
// solver's model, and says the new value and that it was not searched for.
TEST_CASE("the full stack's accepted bound violations are confirmed by the engine, their witnesses not searched for", "[verify][contractor-cards]") {
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    const auto rs = wp::compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", {}, sources, sink);
    REQUIRE(rs);
    wp::verify::check_options co;
    co.timeout_ms = 120000;
    co.checks = {"bounds"};
    const wp::verify::check_result r = wp::verify::check(*rs, co);
    int accepted = 0;
    for (const auto& f : r.findings) {
        INFO(f.kind << " " << f.subject);
        CHECK(f.kind == "bound-violation");
        CHECK(f.accepted);
        accepted += 1 + static_cast<int>(f.also.size());
        CHECK(f.replay.rfind("confirmed: ", 0) == 0);
        CHECK(has_line_starting(f.witness, "the new value = "));
        CHECK(has_line_starting(f.witness, "not searched for: the ruleset accepts this finding"));
    }
    // ten traits, three gold, one turn_number, and the errata's `traits -= 1` that only the
    // summary of the trait table's recursion reaches (its witness says it rests on it)
    CHECK(accepted == 15);
}
