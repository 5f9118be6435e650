// Simulation: the report does not depend on the number of threads, its counts add up, the
// never-fired list matches the fire counts, and a game's seed replays it with play_game.
#include "cli.hpp"
#include "source_dir.hpp"
#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/sim.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <numeric>
#include <sstream>

using namespace wp;

namespace {

ir::ruleset compile_sim(const std::string& relative) {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/" + relative, {}, sources, sink);
    REQUIRE(rs.has_value());
    return *rs;
}

void require_same(const engine::sim_report& a, const engine::sim_report& b) {
    REQUIRE(a.games == b.games);
    REQUIRE(a.engine_errors == b.engine_errors);
    REQUIRE(a.invariant_violations == b.invariant_violations);
    REQUIRE(a.finished == b.finished);
    REQUIRE(a.mean_decisions == b.mean_decisions);  // exact: summed in game order
    REQUIRE(a.min_decisions == b.min_decisions);
    REQUIRE(a.max_decisions == b.max_decisions);
    REQUIRE(a.decision_percentiles == b.decision_percentiles);
    REQUIRE(a.wins == b.wins);
    REQUIRE(a.games_without_winner == b.games_without_winner);
    REQUIRE(a.end_reasons == b.end_reasons);
    REQUIRE(a.never_fired == b.never_fired);
    REQUIRE(a.rules.size() == b.rules.size());
    for (std::size_t i = 0; i < a.rules.size(); ++i) {
        REQUIRE(a.rules[i].name == b.rules[i].name);
        REQUIRE(a.rules[i].fires == b.rules[i].fires);
        REQUIRE(a.rules[i].games == b.rules[i].games);
    }
}

void require_consistent(const engine::sim_report& r, const ir::ruleset& rs) {
    std::uint64_t ended = 0;
    for (const auto& [reason, count] : r.end_reasons) ended += count;
    REQUIRE(ended == r.games);
    REQUIRE(r.finished + r.engine_errors == r.games);
    const double wins = std::accumulate(r.wins.begin(), r.wins.end(), 0.0);
    REQUIRE(wins + static_cast<double>(r.games_without_winner) == Approx(static_cast<double>(r.finished)));
    std::vector<std::string> never;
    for (const auto& rule : r.rules) {
        REQUIRE(rule.games <= r.games);
        REQUIRE((rule.fires == 0) == (rule.games == 0));
        if (rule.fires == 0) never.push_back(rule.name);
    }
    REQUIRE(never == r.never_fired);
    std::size_t fireable = 0;
    for (const ir::rule& rule : rs.rules)
        fireable += ir::plays(rule.kind);
    REQUIRE(r.rules.size() == fireable);
    if (r.finished > 0) {
        REQUIRE(r.min_decisions <= r.decision_percentiles.at(5));
        REQUIRE(r.decision_percentiles.at(5) <= r.decision_percentiles.at(50));
        REQUIRE(r.decision_percentiles.at(50) <= r.decision_percentiles.at(95));
        REQUIRE(r.decision_percentiles.at(95) <= r.max_decisions);
        REQUIRE(r.mean_decisions >= static_cast<double>(r.min_decisions));
        REQUIRE(r.mean_decisions <= static_cast<double>(r.max_decisions));
    }
}

}  // namespace

TEST_CASE("sim: Contractor Cards, the same report on 1 and 3 threads, counts add up", "[sim]") {
    const ir::ruleset rs = compile_sim("rulesets/contractor-cards");
    for (int players : {2, 4}) {
        engine::sim_options o;
        o.games = 60;
        o.players = players;
        o.seed = 7;
        o.threads = 1;
        const engine::sim_report one = engine::simulate(rs, o);
        o.threads = 3;
        const engine::sim_report three = engine::simulate(rs, o);
        require_same(one, three);
        require_consistent(one, rs);
        REQUIRE(one.games == 60);
        REQUIRE(one.engine_errors == 0);
        REQUIRE(one.invariant_violations == 0);
        REQUIRE(one.wins.size() == static_cast<std::size_t>(players));
        // Another seed plays other games.
        o.seed = 8;
        const engine::sim_report other = engine::simulate(rs, o);
        require_consistent(other, rs);
        REQUIRE(other.mean_decisions != one.mean_decisions);
    }
}

TEST_CASE("sim: a game's seed replays it with play_game", "[sim]") {
    const ir::ruleset rs = compile_sim("rulesets/contractor-cards");
    engine::sim_options o;
    o.games = 1;
    o.players = 3;
    o.seed = 42;
    const engine::sim_report r = engine::simulate(rs, o);
    engine::random_agent random;
    const engine::play_result p = engine::play_game(rs, 3, engine::game_seed(42, 0), {&random});
    REQUIRE(p.error.empty());
    REQUIRE(r.min_decisions == p.decisions);
    REQUIRE(r.end_reasons.at(p.end_reason) == 1);
    REQUIRE(engine::game_seed(42, 0) != engine::game_seed(42, 1));
    REQUIRE(engine::game_seed(42, 1) != engine::game_seed(43, 0));
}

TEST_CASE("sim: a small engine ruleset, first-legal agents, every thread count", "[sim]") {
    const ir::ruleset rs = compile_sim("tests/rulesets/engine-statements/game.wph");
    engine::sim_options o;
    o.games = 25;
    o.players = 2;
    o.seed = 3;
    o.threads = 1;
    const engine::sim_report base = engine::simulate(rs, o);
    require_consistent(base, rs);
    REQUIRE(base.games == 25);
    for (unsigned threads : {2u, 3u, 8u, 40u}) {
        o.threads = threads;
        require_same(base, engine::simulate(rs, o));
    }
    o.agent = "first";
    o.threads = 2;
    const engine::sim_report first = engine::simulate(rs, o);
    require_consistent(first, rs);
    o.threads = 1;
    require_same(first, engine::simulate(rs, o));
}

TEST_CASE("sim: no games, and an unknown option", "[sim]") {
    const ir::ruleset rs = compile_sim("tests/rulesets/engine-statements/game.wph");
    engine::sim_options o;
    o.games = 0;
    o.threads = 4;
    const engine::sim_report r = engine::simulate(rs, o);
    REQUIRE(r.games == 0);
    REQUIRE(r.end_reasons.empty());
    REQUIRE(r.never_fired.size() == r.rules.size());
    o.options["no_such_option"] = "1";
    REQUIRE_THROWS_AS(engine::simulate(rs, o), engine::engine_error);
}

TEST_CASE("sim: the command's JSON is the same on 1 and 3 threads", "[sim]") {
    auto run = [](const std::string& jobs) {
        std::ostringstream out, err;
        const int code = cli::run({"sim", std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", "-n", "40",
                                   "--players", "3", "--seed", "9", "-j", jobs, "--json"},
                                  out, err);
        REQUIRE(code == 0);
        REQUIRE(err.str().empty());
        return out.str();
    };
    const std::string one = run("1");
    REQUIRE(one == run("3"));
    const auto j = nlohmann::json::parse(one);
    REQUIRE(j["games"] == 40);
    std::uint64_t ended = 0;
    for (const auto& [reason, count] : j["end_reasons"].items()) ended += count.get<std::uint64_t>();
    REQUIRE(ended == 40);
}

TEST_CASE("sim: coverage records the statements run and the table rows read, and only those", "[sim]") {
    // The rally roll is clamped to 1..6: the table's 7+ row is never read, the others are.
    const ir::ruleset rs = compile_sim("tests/checker/dead-cell/clamped_rally_row.wph");
    engine::sim_options o;
    o.games = 200;
    o.players = 2;
    engine::sim_report plain = engine::simulate(rs, o);
    CHECK(plain.statements_run.empty());
    CHECK(plain.keys_read.empty());

    o.coverage = true;
    const engine::sim_report r = engine::simulate(rs, o);
    REQUIRE(rs.tables.size() == 1);
    const ir::table& t = rs.tables[0];
    REQUIRE(r.table_key_first.size() == 2);
    REQUIRE(r.table_key_first[1] == t.rows.size() + t.columns.size());
    REQUIRE(r.keys_read.size() == r.table_key_first[1]);
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
        INFO("row " << t.rows[i].key.text);
        CHECK((r.keys_read[i] != 0) == (t.rows[i].key.text != "7+"));
    }
    // the `end game` statement ran; a node that is no statement never does
    REQUIRE(r.statements_run.size() == rs.nodes.size());
    bool ended = false;
    for (ir::id n = 0; n < rs.nodes.size(); ++n)
        if (rs.nodes[n].code == ir::op::end_game && r.statements_run[n]) ended = true;
    CHECK(ended);
    CHECK(std::count(r.statements_run.begin(), r.statements_run.end(), 1) < static_cast<long>(rs.nodes.size()));

    // the same games whatever the coverage
    o.coverage = false;
    require_same(plain, r);
}

TEST_CASE("sim: coverage marks an assignment that changed what it wrote (bit 2), not one that never did", "[sim]") {
    // The fire sets `disrupted` (a change, in some game); the rally sets it where it is already
    // set (it runs, and never changes it): the checker's no-op check asks only about the second.
    const ir::ruleset rs = compile_sim("tests/checker/no-op/disruption_removal_sets_the_flag.wph");
    engine::sim_options o;
    o.games = 200;
    o.players = 2;
    o.coverage = true;
    const engine::sim_report r = engine::simulate(rs, o);
    REQUIRE(r.statements_run.size() == rs.nodes.size());
    std::vector<std::uint8_t> marks;  // the assignments, in source order
    std::vector<std::pair<std::uint32_t, ir::id>> assignments;
    for (ir::id n = 0; n < rs.nodes.size(); ++n)
        if (rs.nodes[n].code == ir::op::assign) assignments.push_back({rs.nodes[n].where.line, n});
    std::sort(assignments.begin(), assignments.end());
    for (const auto& [line, n] : assignments) marks.push_back(r.statements_run[n]);
    CHECK(marks == std::vector<std::uint8_t>{3, 1});
}

TEST_CASE("coverage notes a skipped demand, in games the rules stop before their first decision too") {
    // Before state_options::deferred_start, a game whose error came before any decision was
    // thrown from the state's constructor and kept nothing it met: about half of these games.
    const ir::ruleset rs = compile_sim("tests/rulesets/engine-statements/skipped_demand_then_gap.wph");
    engine::sim_options o;
    o.games = 200;
    o.players = 1;
    o.coverage = true;
    const engine::sim_report r = engine::simulate(rs, o);
    CHECK(r.engine_errors > 50);
    CHECK(r.engine_errors < 150);
    const auto skipped = std::find_if(r.faults.begin(), r.faults.end(), [](const engine::sim_fault& f) {
        return f.fault.kind == "unmet-obligation" && f.fault.subject == "march";
    });
    REQUIRE(skipped != r.faults.end());
    CHECK(skipped->games == 200);
    REQUIRE(skipped->fault.node < rs.nodes.size());
    CHECK(rs.nodes[skipped->fault.node].code == ir::op::may);
    // without coverage, play notes nothing it went on past, and the same games stop
    o.coverage = false;
    const engine::sim_report plain = engine::simulate(rs, o);
    CHECK(std::none_of(plain.faults.begin(), plain.faults.end(),
                       [](const engine::sim_fault& f) { return f.fault.kind == "unmet-obligation"; }));
    CHECK(plain.engine_errors == r.engine_errors);
}
