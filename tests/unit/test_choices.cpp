// Subset choices under `where` with an objective (GMT §12.31 loss allocation), and modifiers
// that set, cap or floor a roll (GMT §12.26), played step by step in the interpreter.
#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <algorithm>

using namespace wp;

namespace {

using test::explicit_chance;

ir::ruleset compile_file(const std::string& relative) { return test::compile_repo_ruleset(relative); }

using test::outcome_with_value;

// Plays the first round's first allocation: the loss roll shows `die`, then the subset steps,
// each answered by the first (or last) legal action. Returns the loss taken.
std::int64_t allocate(const engine::game& g, std::int64_t die, bool first, std::vector<std::size_t>* counts = nullptr) {
    engine::state s(g, 3, explicit_chance());
    REQUIRE(s.is_chance_node());
    s.apply(outcome_with_value(s, die));
    while (!s.is_terminal() && !s.is_chance_node() && s.current_player() == 0) {
        const auto actions = s.legal_actions();
        REQUIRE_FALSE(actions.empty());
        if (counts) counts->push_back(actions.size());
        s.apply(first ? actions.front().id : actions.back().id);
    }
    return s.slot_value("taken");
}

}  // namespace

TEST_CASE("choices: a subset under `where … maximizing` ends at the largest total within the bound", "[engine][choices]") {
    const engine::game g(compile_file("tests/rulesets/choices/loss_allocation.wph"), 2);
    // loss factors 1+1+2+2+3 in each stack: every loss 0..5 can be met exactly
    for (std::int64_t die = 1; die <= 6; ++die) {
        INFO("loss " << die - 1);
        CHECK(allocate(g, die, true) == die - 1);
        CHECK(allocate(g, die, false) == die - 1);
    }
    // a loss of 0: each step offers only "leave out"
    std::vector<std::size_t> counts;
    allocate(g, 1, true, &counts);
    CHECK(std::all_of(counts.begin(), counts.end(), [](std::size_t c) { return c == 1; }));
}

TEST_CASE("choices: caps and floors hold a modified roll to 0..11", "[engine][choices]") {
    const engine::game g(compile_file("tests/rulesets/choices/bounded_rolls.wph"), 2);
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        engine::state s(g, seed, test::sampled_chance());
        int steps = 0;
        while (!s.is_terminal() && steps++ < 1000) s.apply(s.legal_actions().front().id);
        REQUIRE(s.is_terminal());
        CHECK(s.slot_value("loss_number") >= 0);
        CHECK(s.slot_value("loss_number") <= 11);
    }
}
