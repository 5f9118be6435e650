// The look-ahead agents (greedy, MCTS) and the statistics of play reports: agent names, seeded
// determinism, thread independence of a simulation with them, MCTS stronger than random on
// Contractor Cards, and Wilson intervals and Holm's adjustment against values worked by hand.
#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/engine/search_agents.hpp"
#include "westphalia/engine/sim.hpp"
#include "westphalia/engine/statistics.hpp"

#include <catch2/catch.hpp>

using namespace wp;

namespace {

ir::ruleset contractor_cards() {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", {}, sources, sink);
    REQUIRE(rs.has_value());
    return *rs;
}

}  // namespace

TEST_CASE("agents by name: the computer agents, and why a name is not one") {
    for (const char* good : {"random", "first", "greedy", "mcts:1", "mcts:200", "mcts:50:0", "mcts:1000000:1000000",
                             "toward:gold:below", "toward:vp:above"}) {
        INFO(good);
        REQUIRE(engine::agent_problem(good).empty());
        REQUIRE(engine::make_agent(good) != nullptr);
    }
    for (const char* bad : {"mcts", "mcts:", "mcts:0", "mcts:-3", "mcts:1000001", "mcts:10:", "mcts:10:x", "mcts:1:2:3",
                            "mcts: 5", "Random", "human", "", "toward", "toward:gold", "toward::below", "toward:gold:under",
                            "toward:a:b:below"}) {
        INFO(bad);
        REQUIRE_FALSE(engine::agent_problem(bad).empty());
        REQUIRE_THROWS_AS(engine::make_agent(bad), std::invalid_argument);
    }
    REQUIRE(engine::agent_problem("mcts:0").find("mcts:ITERATIONS") != std::string::npos);
    REQUIRE(engine::agent_problem("toward:gold").find("toward:FIELD:below") != std::string::npos);
    // the field must be the ruleset's
    const ir::ruleset rs = contractor_cards();
    REQUIRE(engine::agent_problem("toward:gold:below", rs).empty());
    REQUIRE(engine::agent_problem("toward:ducats:below", rs) == "`toward:ducats:below` names no field of contractor_cards");
}

// The checker's aimed play: the agent takes the field toward its side, so over the same seeds
// the lowest gold any player ends a game with is lower than random play's (the highest higher).
TEST_CASE("the toward agent plays a field toward its side") {
    const ir::ruleset rs = contractor_cards();
    auto gold = [&](const char* name, bool lowest) {
        double total = 0;
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            auto a = engine::make_agent(name);
            const engine::play_result r = engine::play_game(rs, 2, seed, {a.get()});
            const std::int64_t g0 = r.final_state->slot_value("gold", 0), g1 = r.final_state->slot_value("gold", 1);
            total += static_cast<double>(lowest ? std::min(g0, g1) : std::max(g0, g1));
        }
        return total / 20;
    };
    CHECK(gold("toward:gold:below", true) < gold("random", true));
    CHECK(gold("toward:gold:above", false) > gold("random", false));
}

TEST_CASE("greedy and MCTS agents play the same game from the same seed") {
    const ir::ruleset rs = contractor_cards();
    for (const char* name : {"greedy", "mcts:20"}) {
        INFO(name);
        auto once = [&] {
            auto a = engine::make_agent(name);
            engine::random_agent random;
            return engine::play_game(rs, 2, 77, {a.get(), &random});
        };
        const engine::play_result x = once(), y = once();
        REQUIRE(x.error.empty());
        REQUIRE(x.actions == y.actions);
        REQUIRE(x.winners == y.winners);
    }
}

TEST_CASE("a simulation with MCTS at one seat does not depend on the threads, and names each seat's agent") {
    const ir::ruleset rs = contractor_cards();
    engine::sim_options o;
    o.games = 6;
    o.players = 2;
    o.seat_agents = {"mcts:10", ""};
    o.threads = 1;
    const engine::sim_report one = engine::simulate(rs, o);
    o.threads = 2;
    const engine::sim_report two = engine::simulate(rs, o);
    REQUIRE(one.wins == two.wins);
    REQUIRE(one.mean_decisions == two.mean_decisions);
    REQUIRE(one.agent == "P1 mcts:10, P2 random");
    o.seat_agents = {"bogus"};
    REQUIRE_THROWS_AS(engine::simulate(rs, o), std::invalid_argument);
}

TEST_CASE("MCTS beats random at Contractor Cards more often than random beats random") {
    const ir::ruleset rs = contractor_cards();
    engine::sim_options o;
    o.games = 20;
    o.players = 2;
    o.threads = 2;
    o.seat_agents = {"mcts:30", ""};
    const engine::sim_report r = engine::simulate(rs, o);
    REQUIRE(r.finished == 20);
    // Random against random is about even (sim golden contractor_cards_2p); the benchmark
    // (bench/agents.cpp) measures the strength on 200 games.
    REQUIRE(r.wins[0] >= 13);
}

TEST_CASE("statistics: normal quantile, Wilson interval, Holm's adjustment") {
    REQUIRE(engine::normal_quantile_two_sided(0.05) == Approx(1.959964).epsilon(1e-6));
    REQUIRE(engine::normal_two_sided_p(1.959964) == Approx(0.05).epsilon(1e-5));
    // Wilson at 95%: 50 of 100 gives 0.4038 .. 0.5962; 0 of 10 gives 0 .. 0.2775.
    const engine::share_interval half = engine::wilson(50, 100);
    REQUIRE(half.lo == Approx(0.4038).margin(1e-4));
    REQUIRE(half.hi == Approx(0.5962).margin(1e-4));
    const engine::share_interval none = engine::wilson(0, 10);
    REQUIRE(none.lo == 0);
    REQUIRE(none.hi == Approx(0.2775).margin(1e-4));
    REQUIRE(engine::wilson(0, 0).hi == 1);
    // Holm: sorted 0.01, 0.03, 0.04 -> 3 * 0.01, 2 * 0.03, max(0.06, 1 * 0.04).
    const std::vector<double> adjusted = engine::holm_adjust({0.01, 0.04, 0.03});
    REQUIRE(adjusted[0] == Approx(0.03));
    REQUIRE(adjusted[1] == Approx(0.06));
    REQUIRE(adjusted[2] == Approx(0.06));
    REQUIRE(engine::holm_adjust({0.9, 0.8}) == std::vector<double>{1.0, 1.0});
}
