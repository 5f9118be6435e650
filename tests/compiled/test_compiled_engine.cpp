// The compiled engine against the interpreter: every ruleset translated at build time
// (tests/CMakeLists.txt) plays the same seeded games with random agents as the interpreter —
// the same length, end, winners and error, and the same final value of every state slot and
// the same contents of every zone.
#include "compiled_case.hpp"
#include "../unit/source_dir.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/engine/sim.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <unistd.h>

namespace wp::test {

std::vector<compiled_case>& compiled_cases() {
    static std::vector<compiled_case> cases;
    return cases;
}

bool add_compiled_case(compiled_case c) {
    compiled_cases().push_back(std::move(c));
    return true;
}

}  // namespace wp::test

using namespace wp;

namespace {

std::map<std::string, std::string> parse_options(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (const auto eq = item.find('='); eq != std::string::npos) out[item.substr(0, eq)] = item.substr(eq + 1);
    return out;
}

struct interpreted {
    std::unique_ptr<engine::state> state;
    std::uint64_t decisions = 0;
    std::string end_reason;
    std::string error;
    std::uint32_t winners = 0;
    std::vector<std::uint64_t> fires;  // per rule, the `wins` decisions included
};

// As the simulator plays a game (engine/src/sim.cpp), without the invariant checks.
interpreted play_interpreter(const engine::game& g, std::uint64_t seed, std::uint64_t max_decisions) {
    interpreted out;
    engine::state_options so;
    so.sampled_chance = true;
    engine::rng agent_rng{seed ^ 0xA5A5A5A5DEADBEEFull};
    engine::random_agent agent;
    try {
        out.state = std::make_unique<engine::state>(g, seed, so);
        engine::state& s = *out.state;
        while (!s.is_terminal()) {
            if (s.is_chance_node()) {
                s.apply_sampled();
                continue;
            }
            if (s.decisions() >= max_decisions) break;
            s.apply(agent.act(engine::seat_view(s, s.current_player()), agent_rng));
        }
        out.decisions = s.decisions();
        out.end_reason = s.is_terminal() ? s.end_reason() : "decision limit";
        out.fires = s.rule_fires();
        if (s.is_terminal())
            for (int w : s.winners(&out.fires)) out.winners |= 1u << w;
    } catch (const engine::engine_error& e) {
        out.error = e.what();
        out.end_reason = "engine error";
        if (out.state) out.decisions = out.state->decisions();
    }
    return out;
}

// Every difference between the two final states, as text ("" when none).
std::string state_differences(const engine::game& g, const engine::state& s, const test::compiled_run& c) {
    const ir::ruleset& rs = g.ruleset();
    std::ostringstream out;
    for (std::uint32_t sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        int copies = 1, first = 0;
        switch (slot.scope) {
            case ir::slot_scope::global: break;
            case ir::slot_scope::per_player: copies = g.players(); break;
            case ir::slot_scope::per_entity:
                copies = static_cast<int>(g.kind_count.at(slot.entity_kind));
                first = static_cast<int>(g.kind_first.at(slot.entity_kind));
                break;
            case ir::slot_scope::per_node: copies = static_cast<int>(rs.maps.at(slot.map).nodes.size()); break;
        }
        for (int copy = 0; copy < copies; ++copy)
            for (int key = 0; key < static_cast<int>(g.slots[sl].width); ++key) {
                const std::int64_t a = s.slot_value(slot.name, first + copy, key), b = c.value(sl, copy, key);
                if (a != b) out << "slot " << slot.name << "[" << copy << "][" << key << "]: " << a << " against " << b << "; ";
            }
    }
    for (std::uint32_t z = 0; z < rs.zones.size(); ++z) {
        const int copies = static_cast<int>(ir::zone_instance_count(rs, rs.zones[z], g.players()));  // each seat's or location's
        for (int copy = 0; copy < copies; ++copy)
            if (s.zone_contents(rs.zones[z].name, copy) != c.zone(z, copy))
                out << "zone " << rs.zones[z].name << "[" << copy << "] differs; ";
    }
    return out.str();
}

}  // namespace

TEST_CASE("the compiled engine plays the interpreter's games", "[compiled]") {
    REQUIRE(test::compiled_cases().size() >= 5);
    for (const test::compiled_case& c : test::compiled_cases()) {
        DYNAMIC_SECTION(c.ruleset << (c.options.empty() ? "" : " with " + c.options)) {
            dsl::source_manager sources;
            dsl::diagnostic_sink sink;
            compiler::compile_options opts;
            opts.options = parse_options(c.options);
            const auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/" + c.ruleset, opts, sources, sink);
            REQUIRE(rs.has_value());
            const int low = static_cast<int>(std::max<std::int64_t>(1, rs->min_players));
            const int high = static_cast<int>(rs->max_players > 0 ? std::min<std::int64_t>(rs->max_players, low + 2) : low + 2);
            std::uint64_t games = 0, ended_by_error = 0;
            for (int players = low; players <= high; ++players) {
                const engine::game g(*rs, players);
                for (std::uint64_t i = 0; i < c.games; ++i) {
                    const std::uint64_t seed = engine::game_seed(7, i);
                    const interpreted a = play_interpreter(g, seed, 5000);
                    const test::compiled_run b = c.play(seed, seed ^ 0xA5A5A5A5DEADBEEFull, players, 5000);
                    INFO(c.ruleset << ", " << players << " players, seed " << seed);
                    REQUIRE(b.end_reason == a.end_reason);
                    REQUIRE(b.decisions == a.decisions);
                    REQUIRE(b.winners == a.winners);
                    REQUIRE(b.error == a.error);
                    if (a.error.empty()) {
                        REQUIRE(state_differences(g, *a.state, b).empty());
                        for (std::size_t r = 0; r < a.fires.size(); ++r) {
                            INFO("rule " << rs->rules[r].name);
                            REQUIRE(b.fires.at(r) == a.fires[r]);
                        }
                    }
                    ++games;
                    ended_by_error += !a.error.empty();
                }
            }
            INFO(games << " games, " << ended_by_error << " ended by an engine error");
            CHECK(games > 0);
        }
    }
}

#include "westphalia/codegen/compiled_sim.hpp"

namespace {

void require_same_report(const engine::sim_report& a, const engine::sim_report& b) {
    CHECK(a.games == b.games);
    CHECK(a.engine_errors == b.engine_errors);
    CHECK(a.finished == b.finished);
    CHECK(a.mean_decisions == b.mean_decisions);
    CHECK(a.min_decisions == b.min_decisions);
    CHECK(a.max_decisions == b.max_decisions);
    CHECK(a.decision_percentiles == b.decision_percentiles);
    CHECK(a.wins == b.wins);
    CHECK(a.games_without_winner == b.games_without_winner);
    CHECK(a.end_reasons == b.end_reasons);
    CHECK(a.invariant_violations == b.invariant_violations);
    REQUIRE(a.first_errors.size() == b.first_errors.size());
    for (std::size_t i = 0; i < a.first_errors.size(); ++i) CHECK(a.first_errors[i].text == b.first_errors[i].text);
    // the compiled engine does not name the statement that last changed what an invariant reads
    REQUIRE(a.first_violations.size() == b.first_violations.size());
    for (std::size_t i = 0; i < a.first_violations.size(); ++i)
        CHECK(b.first_violations[i].text.rfind(a.first_violations[i].text, 0) == 0);
    // the designer's queries: the games that answered each, and the first
    REQUIRE(a.queries.size() == b.queries.size());
    for (std::size_t i = 0; i < a.queries.size(); ++i) {
        INFO("query " << b.queries[i].name);
        CHECK(a.queries[i].name == b.queries[i].name);
        CHECK(a.queries[i].kind == b.queries[i].kind);
        CHECK(a.queries[i].games == b.queries[i].games);
        REQUIRE(a.queries[i].first.has_value() == b.queries[i].first.has_value());
        if (a.queries[i].first) {
            CHECK(a.queries[i].first->game == b.queries[i].first->game);
            CHECK(a.queries[i].first->text == b.queries[i].first->text);
        }
    }
}

}  // namespace

TEST_CASE("a simulation through the compiled engine reports what the interpreter's does", "[compiled]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"rulesets/contractor-cards", "random"},
        {"rulesets/contractor-cards", "first"},
        {"tests/rulesets/engine-invariants/drained.wph", "random"},
        {"tests/rulesets/engine-errors/gap.wph", "random"},
        {"tests/rulesets/queries/siege_claims.wph", "random"},
    };
    for (const auto& [path, agent] : cases) {
        DYNAMIC_SECTION(path << " with " << agent << " agents") {
            dsl::source_manager sources;
            dsl::diagnostic_sink sink;
            const auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/" + path, {}, sources, sink);
            REQUIRE(rs.has_value());
            engine::sim_options o;
            o.games = 400;
            o.players = rs->min_players > 2 ? static_cast<int>(rs->min_players) : 3;
            o.seed = 11;
            o.threads = 2;
            o.agent = agent;
            const engine::sim_report interpreted = engine::simulate(*rs, o);
            codegen::compiled_sim_timing timing;
            const engine::sim_report compiled = codegen::simulate_compiled(*rs, o, {}, &timing);
            require_same_report(compiled, interpreted);
            REQUIRE(compiled.rules.size() == interpreted.rules.size());
            for (std::size_t i = 0; i < compiled.rules.size(); ++i) {
                INFO("rule " << interpreted.rules[i].name);
                CHECK(compiled.rules[i].name == interpreted.rules[i].name);
                CHECK(compiled.rules[i].kind == interpreted.rules[i].kind);
                CHECK(compiled.rules[i].fires == interpreted.rules[i].fires);
                CHECK(compiled.rules[i].games == interpreted.rules[i].games);
            }
            CHECK(compiled.never_fired == interpreted.never_fired);
            CHECK(timing.build_seconds > 0);
        }
    }
}

TEST_CASE("a compiled simulation without a C++ compiler says so", "[compiled]") {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    const auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/tests/rulesets/engine-end/rounds.wph", {}, sources, sink);
    REQUIRE(rs.has_value());
    codegen::compiled_sim_options build;
    build.compiler = "/nonexistent/westphalia-test-c++";
    engine::sim_options o;
    o.games = 3;
    REQUIRE_THROWS_WITH(codegen::simulate_compiled(*rs, o, build), Catch::Contains("was not found; set CXX"));
    build.compiler = "false";  // a compiler that fails
    REQUIRE_THROWS_WITH(codegen::simulate_compiled(*rs, o, build), Catch::Contains("could not build the compiled game"));
}

TEST_CASE("a compiled simulation keeps its built game and uses it again for the same rules", "[compiled]") {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    const auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/tests/rulesets/engine-end/rounds.wph", {}, sources, sink);
    REQUIRE(rs.has_value());
    const std::filesystem::path cache =
        std::filesystem::temp_directory_path() / ("westphalia-build-cache-test-" + std::to_string(getpid()));
    std::filesystem::remove_all(cache);
    codegen::compiled_sim_options build;
    build.cache_dir = cache.string();
    engine::sim_options o;
    o.games = 50;
    o.players = 2;
    o.seed = 3;
    codegen::compiled_sim_timing first, second, other;
    const engine::sim_report a = codegen::simulate_compiled(*rs, o, build, &first);
    CHECK_FALSE(first.cached);
    o.games = 60;  // the same rules, another run: the kept game plays it
    const engine::sim_report b = codegen::simulate_compiled(*rs, o, build, &second);
    CHECK(second.cached);
    o.threads = 1;
    const engine::sim_report b_fresh = codegen::simulate_compiled(*rs, o, {}, &other);
    CHECK_FALSE(other.cached);
    require_same_report(b, b_fresh);
    // a damaged game in the cache is built again, never trusted
    for (const auto& f : std::filesystem::directory_iterator(cache)) std::ofstream(f.path(), std::ios::trunc) << "not a program";
    const engine::sim_report c = codegen::simulate_compiled(*rs, o, build, &other);
    CHECK_FALSE(other.cached);
    require_same_report(c, b_fresh);
    (void)a;
    std::filesystem::remove_all(cache);
}
