// Odds computed from the rules (docs/language.md §7, `chances`): the engine follows a `given`
// through every die it rolls, merging the branches that meet, and gives the exact chance of the
// condition; the aid prints the grid and the checker reports a cell the rules cannot follow.
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "test_support.hpp"

using namespace wp;

namespace {

ir::id rule_named(const ir::ruleset& rs, const std::string& name) {
    for (ir::id r = 0; r < rs.rules.size(); ++r)
        if (rs.rules[r].name == name) return r;
    FAIL("no rule " << name);
    return ir::no_id;
}

double binomial(int n, int k, double p) {
    double c = 1;
    for (int i = 0; i < k; ++i) c = c * (n - i) / (i + 1);
    return c * std::pow(p, k) * std::pow(1 - p, n - k);
}

}  // namespace

TEST_CASE("chances: the exact odds of several dice composed by the rules", "[engine][chances]") {
    const engine::game g(test::compile_repo_ruleset("tests/rulesets/chances/volley_odds.wph"), 1);
    const engine::chances_grid grid = engine::compute_chances(g, rule_named(g.ruleset(), "volley_hits"));
    REQUIRE(grid.rows == std::vector<std::int64_t>{1, 2, 3, 4});
    REQUIRE(grid.columns == std::vector<std::int64_t>{1, 2, 3});
    REQUIRE(grid.cells.size() == 12);
    for (std::size_t y = 0; y < grid.rows.size(); ++y)
        for (std::size_t x = 0; x < grid.columns.size(); ++x) {
            const int shots = static_cast<int>(grid.rows[y]), need = static_cast<int>(grid.columns[x]);
            // each shot hits on 5-6; then, with a hit, a 6 takes one back
            double want = 0;
            for (int k = 0; k <= shots; ++k) {
                const double b = binomial(shots, k, 1.0 / 3);
                if (k >= need) want += b * (k > 0 ? 5.0 / 6 : 1.0);
                if (k > 0 && k - 1 >= need) want += b / 6;
            }
            const engine::chances_grid::cell& c = grid.cells[y * grid.columns.size() + x];
            INFO("shots " << shots << ", at least " << need << " hits");
            CHECK(c.error.empty());
            CHECK(std::abs(c.chance - want) < 1e-12);
        }
}

TEST_CASE("chances: a bool parameter, and one parameter is one column", "[engine][chances]") {
    const engine::game g(test::compile_repo_ruleset("tests/rulesets/chances/volley_odds.wph"), 1);
    const engine::chances_grid grid = engine::compute_chances(g, rule_named(g.ruleset(), "one_shot"));
    REQUIRE(grid.rows == std::vector<std::int64_t>{0, 1});
    REQUIRE(grid.columns.size() == 1);
    CHECK(grid.cells[0].chance == 0.0);
    CHECK(std::abs(grid.cells[1].chance - 1.0 / 3) < 1e-12);
}

TEST_CASE("chances: a shuffle has no exact odds; the cell keeps the engine's reason", "[engine][chances]") {
    const engine::game g(test::compile_repo_ruleset("tests/rulesets/chances/volley_odds.wph"), 1);
    const engine::chances_grid grid = engine::compute_chances(g, rule_named(g.ruleset(), "shuffled_draw"));
    REQUIRE(grid.cells.size() == 2);
    for (const engine::chances_grid::cell& c : grid.cells) CHECK(c.error.find("no exact odds") != std::string::npos);
}

TEST_CASE("chances: branches that meet are merged, so a long run of dice stays small", "[engine][chances]") {
    // 40 shots would be 6^40 runs; merged, a few dozen states a step
    const ir::ruleset rs = test::compile_rules_text(R"(
enum end_reason { done }
roll d = 1d6;
state { hits: 0..40 clamp = 0  left: 0..40 clamp = 0 }
chances many(shots: 40..40) : given {
  left = shots;
  while left > 0 { if roll d >= 5 { hits += 1; } left -= 1; }
} chance hits >= 14;
sequence game { end game done; }
)");
    const engine::game g(rs, 1);
    engine::probe p(g);
    p.start();
    double want = 0;
    for (int k = 14; k <= 40; ++k) want += binomial(40, k, 1.0 / 3);
    CHECK(std::abs(p.chance_of(rule_named(rs, "many"), {40}, 2'000) - want) < 1e-9);
}
