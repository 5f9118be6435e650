// The engine: statements, rolls with modifiers and their exact distributions, tables, triggers,
// legality rules, decisions, errors, determinism, views, and random games of Contractor Cards.
#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/engine/sim.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

using namespace wp;

namespace {

ir::ruleset compile(const std::string& relative, const std::map<std::string, std::string>& options = {}) {
    return test::compile_repo_ruleset(relative, options);
}

using test::action_with_text;
using test::explicit_chance;
using test::outcome_with_value;
using test::sampled_chance;
using test::texts;

const char* const statements = "tests/rulesets/engine-statements/game.wph";

}  // namespace

TEST_CASE("engine: statements, legality, triggers, rolls and tables step by step", "[engine]") {
    const engine::game g(compile(statements), 2);
    engine::state s(g, 7, explicit_chance());

    // let, assignment, clamp, if, while, repeat, procedure call ran before the first decision
    CHECK(s.slot_value("total") == 16);
    CHECK(s.slot_value("capped") == 5);
    CHECK(s.slot_value("loops") == 7);
    // deal gave each player the top token; draw put the last two on the table
    CHECK(s.zone_contents("pile").empty());
    CHECK(s.zone_contents("table_zone").size() == 4);

    REQUIRE_FALSE(s.is_terminal());
    REQUIRE_FALSE(s.is_chance_node());
    CHECK(s.current_player() == 0);
    CHECK(texts(s) == std::vector<std::string>{"yes: take a token", "no: do not take a token"});
    s.apply(0);
    // the forbid rule makes both red tokens illegal options
    CHECK(s.current_player() == 0);
    CHECK(texts(s) == std::vector<std::string>{"Blue Three", "Green Two"});
    s.apply(action_with_text(s, "Blue Three"));
    CHECK(s.slot_value("score", 0) == 13);  // the quantity worth with its modifier: 3 + 10

    CHECK(s.current_player() == 1);
    s.apply(0);
    CHECK(texts(s) == std::vector<std::string>{"Green Two"});
    s.apply(0);
    CHECK(s.slot_value("score", 1) == 2);

    // triggers: big_scores overrides count_scores for P1 (+10); count_scores alone for P2 (+1)
    CHECK(s.slot_value("fired") == 11);

    // P1's roll: 1d6 + score 13 + option bonus 1, exactly 15..20 at 1/6 each
    REQUIRE(s.is_chance_node());
    CHECK(s.current_player() == -1);
    const auto outcomes = s.chance_outcomes();
    REQUIRE(outcomes.size() == 6);
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        CHECK(outcomes[i].value == 15 + static_cast<std::int64_t>(i));
        CHECK(outcomes[i].weight == 1);
        CHECK(outcomes[i].total == 6);
    }
    s.apply(outcome_with_value(s, 20));
    CHECK(s.slot_value("rolled") == 20);
    CHECK(s.slot_value("decided") == 1);  // best(P1): best_high overrides best_default

    // P2's table roll: 1d6 + 2 + 1 = 4..9; 7 reads row 7+
    REQUIRE(s.is_chance_node());
    CHECK(s.chance_outcomes().front().value == 4);
    CHECK(s.chance_outcomes().back().value == 9);
    s.apply(outcome_with_value(s, 7));
    CHECK(s.slot_value("outcome") == 3);
    CHECK(s.slot_value("decided") == 1);

    REQUIRE(s.is_terminal());
    CHECK(s.current_player() == -2);
    CHECK(s.end_reason() == "done");
    CHECK(s.zone_contents("pile").size() == 2);  // reshuffle brought the table back
    CHECK(s.zone_contents("hand", 0).size() == 1);

    const ir::ruleset& rs = g.ruleset();
    auto fires = [&](const std::string& rule) {
        for (std::size_t r = 0; r < rs.rules.size(); ++r)
            if (rs.rules[r].name == rule) return s.rule_fires()[r];
        FAIL("no rule " << rule);
        return std::uint64_t{0};
    };
    CHECK(fires("big_scores") == 1);
    CHECK(fires("count_scores") == 1);
    // once per decision point where it took the red tokens away: each player's `choose` (not the
    // `may` before it, whose "yes" stayed legal)
    CHECK(fires("no_red") == 2);
    CHECK(fires("blue_bonus") == 1);    // once: the one worth() that Blue Three was
    CHECK(fires("score_bonus") == 2);   // once per roll of die: P1's roll and P2's table roll
    CHECK(fires("flat_bonus") == 2);
    CHECK(fires("best_high") == 1);     // best(P1)
    CHECK(fires("best_default") == 1);  // best(P2); defeated for P1, so not counted there
}

TEST_CASE("engine: pure quantities and predicates are tabulated, others are not", "[engine]") {
    const engine::game g(compile(statements), 2);
    const ir::ruleset& rs = g.ruleset();
    auto table_of = [&](const std::string& name) -> const engine::game::tabulated& {
        for (std::size_t q = 0; q < rs.quantities.size(); ++q)
            if (rs.quantities[q].name == name) return g.quantity_tables[q];
        FAIL("no quantity " << name);
        return g.quantity_tables.front();
    };
    const engine::game::tabulated& is_red = table_of("is_red");
    REQUIRE(is_red.values.size() == 4);  // four token instances: Red One x2, Green Two, Blue Three
    CHECK(is_red.values == std::vector<std::int64_t>{1, 1, 0, 0});
    CHECK(table_of("worth").values.empty());  // blue_bonus modifies it: evaluated each time
}

TEST_CASE("engine: a rule whose guard the chosen options make false is left out of its group", "[engine][contractor]") {
    const ir::ruleset rs = compile("rulesets/contractor-cards");
    auto live = [&](const engine::game& g, const std::string& rule) {
        for (const std::vector<ir::id>& group : g.live_rules)
            for (ir::id r : group)
                if (rs.rules[r].name == rule) return true;
        return false;
    };
    const engine::game by_default(rs, 2);
    CHECK_FALSE(live(by_default, "negotiations_cards_own_roll_only"));  // option.n_card_players == owner_only
    CHECK_FALSE(live(by_default, "etiquette_on_renewal_roll"));         // option.etiquette_on_renewal
    CHECK(live(by_default, "one_adversary_per_roll"));                  // option.adversary_limit == one_total holds
    CHECK(live(by_default, "strategy_by_roller_only"));                 // no option in its guard
    // Guards: the conjuncts that read only the arguments are tabulated; the whole guard when it can be.
    auto rule_id = [&](const std::string& name) {
        for (ir::id r = 0; r < rs.rules.size(); ++r)
            if (rs.rules[r].name == name) return r;
        FAIL("no rule " << name);
        return ir::id{0};
    };
    CHECK(by_default.guard_is_tabulated[rule_id("strategy_by_roller_only")]);  // c.kind == S and q != p
    CHECK_FALSE(by_default.guard_tables[rule_id("adversary_one_per_opponent")].values.empty());  // c.kind == V ...
    CHECK_FALSE(by_default.guard_is_tabulated[rule_id("adversary_one_per_opponent")]);  // ... and q.adversaries_played >= 1

    const engine::game owner_only(rs, 2, {{"n_card_players", "owner_only"}});
    CHECK(live(owner_only, "negotiations_cards_own_roll_only"));
    CHECK_FALSE(live(owner_only, "negotiations_cards_by_sign"));

    // The rule then plays: 200 random games with the option fire it.
    engine::sim_options o;
    o.games = 200;
    o.options = {{"n_card_players", "owner_only"}};
    const engine::sim_report r = engine::simulate(rs, o);
    for (const engine::sim_rule& rule : r.rules)
        if (rule.name == "negotiations_cards_own_roll_only") CHECK(rule.fires > 0);
}

TEST_CASE("engine: an invariant violation names the rule that last changed what it reads", "[engine]") {
    const ir::ruleset rs = compile("tests/rulesets/engine-invariants/drained.wph");
    engine::first_legal_agent first;
    engine::play_options o;
    o.check_invariants = true;
    const engine::play_result r = engine::play_game(rs, 2, 1, {&first}, o);
    REQUIRE(r.error.empty());
    REQUIRE(r.invariant_violations.size() == 1);
    CHECK_THAT(r.invariant_violations[0], Catch::StartsWith("stock_kept after decision 4 (last changed by rule drain at "));
    CHECK_THAT(r.invariant_violations[0], Catch::EndsWith("drained.wph:14:3)"));

    // Without tracking the report has no cause.
    const engine::game g(rs, 2);
    engine::state s(g, 1);
    while (!s.is_terminal()) s.apply(0);
    CHECK(s.violated_invariants() == std::vector<std::string>{"stock_kept"});
    CHECK(s.last_change("stock_kept").empty());
}

TEST_CASE("engine: check_in_steps finds an invariant false inside a step, where the checker assumes it", "[engine]") {
    // The muster's first loop fills the garrison, the second empties the field: between them,
    // at the end of the first loop, a regiment is counted twice; after each decision, never.
    const ir::ruleset rs = compile("tests/checker/invariant-violation/regiments_counted_between_loops.wph");
    const engine::game g(rs, 1);
    engine::state_options so;
    so.track_changes = true;
    engine::state after_decisions(g, 1, so);
    so.check_in_steps = true;
    engine::state in_steps(g, 1, so);
    for (engine::state* s : {&after_decisions, &in_steps}) {
        while (!s->is_terminal()) {
            s->apply(0);
            CHECK(s->violated_invariants().empty());
        }
    }
    CHECK(after_decisions.in_step_violations().empty());
    REQUIRE(in_steps.in_step_violations().size() == 1);  // the first place only
    const engine::step_violation& v = in_steps.in_step_violations()[0];
    CHECK(v.invariant == "regiments_counted");
    CHECK_THAT(v.place, Catch::StartsWith("the end of the loop at ") && Catch::EndsWith("regiments_counted_between_loops.wph:17:7"));
    CHECK_THAT(v.cause, Catch::EndsWith("regiments_counted_between_loops.wph:17:32"));

    // The simulator reports it with its place (sim_options::check_in_steps), and once per game.
    engine::sim_options o;
    o.games = 3;
    o.players = 1;
    const engine::sim_report plain = engine::simulate(rs, o);
    CHECK(plain.invariant_violations == 0);
    o.check_in_steps = true;
    const engine::sim_report r = engine::simulate(rs, o);
    CHECK(r.invariant_violations == 3);
    REQUIRE(r.broken_invariants.size() == 1);
    CHECK(r.broken_invariants[0].name == "regiments_counted");
    CHECK(r.broken_invariants[0].games == 3);
    CHECK_THAT(r.broken_invariants[0].first.text, Catch::StartsWith("regiments_counted at the end of the loop at "));
}

TEST_CASE("engine: an option changes the roll's distribution", "[engine]") {
    const engine::game g(compile(statements), 2, {{"bonus", "0"}});
    engine::state s(g, 7, explicit_chance());
    s.apply(0);
    s.apply(action_with_text(s, "Blue Three"));
    s.apply(1);  // P2 declines
    REQUIRE(s.is_chance_node());
    CHECK(s.chance_outcomes().front().value == 14);
    CHECK(s.chance_outcomes().back().value == 19);
    CHECK_THROWS_AS(engine::game(compile(statements), 2, {{"bonus", "7"}}), engine::engine_error);
}

TEST_CASE("engine: states copy and diverge independently", "[engine]") {
    const engine::game g(compile(statements), 2);
    engine::state a(g, 7, explicit_chance());
    a.apply(0);
    engine::state b = a;
    a.apply(action_with_text(a, "Blue Three"));
    b.apply(action_with_text(b, "Green Two"));
    CHECK(a.slot_value("score", 0) == 13);
    CHECK(b.slot_value("score", 0) == 2);
}

TEST_CASE("engine: an error overflow names the slot and the position", "[engine]") {
    const engine::game g(compile("tests/rulesets/engine-errors/overflow.wph"), 2);
    try {
        engine::state s(g, 1);
        FAIL("no engine error");
    } catch (const engine::engine_error& e) {
        const std::string what = e.what();
        CHECK(what.find("overflow.wph:6:3") != std::string::npos);
        CHECK(what.find("slot small_total would be 7, outside 0..3") != std::string::npos);
        CHECK(what.find("sequence game") != std::string::npos);
    }
}

TEST_CASE("engine: a key no table row covers is an engine error", "[engine]") {
    const engine::game g(compile("tests/rulesets/engine-errors/gap.wph"), 2);
    engine::state s(g, 1, explicit_chance());
    REQUIRE(s.is_chance_node());
    CHECK(s.chance_outcomes().front().value == 4);
    engine::state covered = s;
    covered.apply(outcome_with_value(covered, 5));
    CHECK(covered.slot_value("seen") == 1);
    CHECK(covered.is_terminal());
    CHECK_THROWS_WITH(s.apply(outcome_with_value(s, 7)), Catch::Contains("no row of table gappy for key 7"));
}

TEST_CASE("engine: Contractor Cards chance nodes have exact distributions", "[engine][contractor]") {
    const engine::game g(compile("rulesets/contractor-cards"), 2);
    engine::state s(g, 11, explicit_chance());
    // The first player is a choice with no owner: a uniform chance node.
    REQUIRE(s.is_chance_node());
    REQUIRE(s.chance_outcomes().size() == 2);
    CHECK(s.chance_outcomes()[0].probability == Approx(0.5));
    s.apply(1);
    CHECK(s.slot_value("first_player") == 1);
    // starting_gold: 2d6, weights 1..6..1 out of 36
    REQUIRE(s.is_chance_node());
    const auto outcomes = s.chance_outcomes();
    REQUIRE(outcomes.size() == 11);
    CHECK(outcomes.front().value == 2);
    CHECK(outcomes[5].value == 7);
    CHECK(outcomes[5].weight == 6);
    CHECK(outcomes[5].total == 36);
    double sum = 0;
    for (const auto& o : outcomes) sum += o.probability;
    CHECK(sum == Approx(1.0));
    s.apply(outcome_with_value(s, 12));
    CHECK(s.slot_value("gold", 0) == 12);
    // The deal gave five cards to each hand; hands are seen by their owners only.
    CHECK(s.zone_contents("hand", 1).size() == 5);
    const std::string view = s.view(0);
    INFO(view);
    CHECK(view.find("hand[P2] (5)\n") != std::string::npos);
    CHECK(view.find("hand[P1] (5): ") != std::string::npos);
    CHECK(view.find("deck (71)\n") != std::string::npos);
    CHECK(s.view(-1).find("deck (71): ") != std::string::npos);
}

TEST_CASE("engine: the same seed plays the same game", "[engine][contractor]") {
    const ir::ruleset rs = compile("rulesets/contractor-cards");
    auto play = [&](std::uint64_t seed) {
        std::string log;
        const std::function<void(const std::string&)> trace = [&log](const std::string& line) { log += line + "\n"; };
        engine::random_agent random;
        engine::play_options o;
        o.trace = &trace;
        const auto r = engine::play_game(rs, 3, seed, {&random}, o);
        REQUIRE(r.error.empty());
        return log + r.final_state->view(-1);
    };
    const std::string a = play(42);
    CHECK(a == play(42));
    CHECK(a != play(43));
}

TEST_CASE("engine: random and first-legal games of Contractor Cards finish", "[engine][contractor]") {
    const ir::ruleset rs = compile("rulesets/contractor-cards");
    engine::random_agent random;
    engine::first_legal_agent first;
    for (int players : {2, 4}) {
        int games = 0;
        std::uint64_t decisions = 0;
        const auto start = std::chrono::steady_clock::now();
        for (std::uint64_t seed = 1; seed <= 100; ++seed) {
            const auto r = engine::play_game(rs, players, seed, {seed % 5 == 0 ? static_cast<engine::agent*>(&first) : &random});
            INFO("players " << players << " seed " << seed);
            REQUIRE(r.error.empty());
            CHECK(r.final_state->is_terminal());
            CHECK((r.end_reason == "deck_empty_twice" || r.end_reason == "peace_1648"));
            CHECK_FALSE(r.winners.empty());
            ++games;
            decisions += r.decisions;
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "Contractor Cards, " << players << " players: " << games << " games, " << decisions
                  << " decisions, " << static_cast<int>(games / seconds) << " games/s\n";
    }
    // The driver may also stop at every chance node and sample it itself.
    engine::play_options o;
    o.sampled_chance = false;
    const auto r = engine::play_game(rs, 4, 9, {&random}, o);
    CHECK(r.error.empty());
    CHECK_FALSE(r.end_reason.empty());
}

TEST_CASE("engine: the base layer's table gaps are engine errors; the errata fill them", "[engine][contractor]") {
    // A campaign roll of 0 or less has no row at the base layer. Search seeds for one.
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    compiler::compile_options opts;
    opts.upto_layer = "base";
    const auto base = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", opts, sources, sink);
    REQUIRE(base.has_value());
    engine::random_agent random;
    bool gap = false;
    for (std::uint64_t seed = 1; seed <= 400 && !gap; ++seed) {
        const auto r = engine::play_game(*base, 4, seed, {&random});
        if (r.error.find("no row of table") != std::string::npos) gap = true;
        else CHECK(r.error.empty());
    }
    CHECK(gap);
}

TEST_CASE("engine: end game at the end of the turn or of the round", "[engine]") {
    for (const bool at_turn : {true, false}) {
        const engine::game g(compile("tests/rulesets/engine-end/rounds.wph"), 2, {{"at_turn", at_turn ? "true" : "false"}});
        engine::state s(g, 5, explicit_chance());
        REQUIRE(s.is_chance_node());  // the ownerless choice of the first player
        CHECK(s.chance_outcomes().size() == 2);
        s.apply(1);
        REQUIRE(s.is_terminal());
        CHECK(s.end_reason() == "early");
        CHECK(s.slot_value("ticks") == (at_turn ? 3 : 4));
        CHECK(s.slot_value("last") == (at_turn ? 0 : 1));
        CHECK(s.violated_invariants().empty());
    }
}

TEST_CASE("engine: Contractor Cards keeps its invariants in random games", "[engine][contractor]") {
    const ir::ruleset rs = compile("rulesets/contractor-cards");
    engine::random_agent random;
    engine::play_options o;
    o.check_invariants = true;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const auto r = engine::play_game(rs, 2 + static_cast<int>(seed % 3), seed, {&random}, o);
        REQUIRE(r.error.empty());
        CHECK(r.invariant_violations.empty());
    }
}

TEST_CASE("engine: choose subset and choose order", "[engine]") {
    const engine::game g(compile("tests/rulesets/engine-statements/subsets.wph"), 3);
    engine::state s(g, 5, explicit_chance());
    REQUIRE(s.is_chance_node());  // who chooses: no owner
    s.apply(outcome_with_value(s, 2));
    CHECK(s.current_player() == 2);
    CHECK(texts(s) == std::vector<std::string>{"include P1", "leave out P1"});
    s.apply(0);
    CHECK(texts(s) == std::vector<std::string>{"include P2", "leave out P2"});
    s.apply(1);
    s.apply(0);  // P3
    CHECK(s.slot_value("picked") == 2);
    CHECK(s.slot_value("marked", 0) == 1);
    CHECK(s.slot_value("marked", 1) == 0);
    CHECK(s.slot_value("marked", 2) == 1);
    // order: pick P3, then P1; P2 comes last without a decision
    CHECK(texts(s) == std::vector<std::string>{"P1", "P2", "P3"});
    s.apply(action_with_text(s, "P3"));
    CHECK(texts(s) == std::vector<std::string>{"P1", "P2"});
    s.apply(action_with_text(s, "P1"));
    REQUIRE(s.is_terminal());
    CHECK(s.slot_value("order_code") == 312);
    CHECK(s.decisions() == 5);
}

TEST_CASE("engine: a table looked up in an expression gives its outcome without effects", "[engine]") {
    const engine::game g(compile("tests/rulesets/engine-statements/lookup.wph"), 2);
    engine::state s(g, 3, explicit_chance());
    // `band == "high" or band == "low"`: the first lookup rolls; 1..3 short-circuits the `or`
    REQUIRE(s.is_chance_node());
    s.apply(outcome_with_value(s, 2));
    REQUIRE(s.is_chance_node());  // the second lookup rolls again
    s.apply(outcome_with_value(s, 2));
    REQUIRE(s.is_terminal());
    CHECK(s.slot_value("value") == 5);
    CHECK(s.slot_value("label_ok") == 1);
    CHECK(s.slot_value("effects_ran") == 0);  // neither lookups nor `resolve price(Red)` ran Green's effects
}

TEST_CASE("engine: a game replays from its seed and its actions", "[engine][contractor]") {
    const ir::ruleset rs = compile("rulesets/contractor-cards");
    engine::random_agent random;
    for (const bool sampled : {true, false}) {
        engine::play_options o;
        o.sampled_chance = sampled;
        const auto played = engine::play_game(rs, 4, 77, {&random}, o);
        REQUIRE(played.error.empty());
        CHECK(played.actions.size() == played.decisions);
        engine::scripted_agent script(played.actions);
        const auto replayed = engine::play_game(rs, 4, 77, {&script}, o);
        REQUIRE(replayed.error.empty());
        CHECK(replayed.end_reason == played.end_reason);
        CHECK(replayed.actions == played.actions);
        CHECK(replayed.rule_fires == played.rule_fires);
        CHECK(replayed.final_state->view(-1) == played.final_state->view(-1));
    }
}

TEST_CASE("engine: map built-ins", "[engine]") {
    const engine::game g(compile("tests/rulesets/engine-maps/maps.wph"), 2);
    const engine::state s(g, 1);
    REQUIRE(s.is_terminal());
    CHECK(s.slot_value("d1") == 1);
    CHECK(s.slot_value("d2") == 2);
    CHECK(s.slot_value("d3") == 5);
    CHECK(s.slot_value("d4") == 2);
    CHECK(s.slot_value("near") == 1);
    CHECK(s.slot_value("woods") == 2);
    CHECK(s.slot_value("around") == 4);
}

TEST_CASE("engine: odds-keyed tables round and clamp as SPI's combat results table", "[engine][odds]") {
    const engine::game g(compile("tests/rulesets/engine-odds/odds.wph"), 2);
    const engine::state s(g, 1, sampled_chance());  // the 1d6 rows all give the same cells: any roll will do
    REQUIRE(s.is_terminal());
    // columns 1-5 .. 6-1 give 1 .. 10; in favour of the defender, clamped 1-5..6-1
    CHECK(s.slot_value("c13_4") == 7);   // 13:4 is 3-1
    CHECK(s.slot_value("c4_13") == 2);   // 4:13 is 1-4
    CHECK(s.slot_value("c1_6") == 1);    // 1:6 is read as 1-5
    CHECK(s.slot_value("c7_1") == 10);   // 7:1 is read as 6-1
    CHECK(s.slot_value("c6_6") == 5);    // 1-1
    CHECK(s.slot_value("c5_6") == 4);    // 5:6 rounds down to 1-2
    CHECK(s.slot_value("c0_3") == 1);    // no attack strength: the lowest column
    CHECK(s.slot_value("c40_1") == 10);
    // in favour of the attacker
    CHECK(s.slot_value("a5_6") == 5);    // 5:6 rounds up to 1-1
    CHECK(s.slot_value("a13_4") == 8);   // 13:4 is 4-1
    CHECK(s.slot_value("a4_13") == 3);   // 4:13 is 1-3
    // no `round`: the defender's favour; 3:2 is 1-1, 5:2 is 2-1
    CHECK(s.slot_value("o3_2") == 5);
    CHECK(s.slot_value("o5_2") == 6);
    // odds as the row key, a lookup used as a value, `resolve`
    CHECK(s.slot_value("row_even") == 1);
    CHECK(s.slot_value("row_long") == 1);
    CHECK(s.slot_value("outcome_de") == 1);  // 9:2 is 4-1, read as 3-1
    CHECK(s.slot_value("resolved") == 1);    // 2:3 is 1-2
    // distance bands as columns: 1, 2, 3-5, 6+
    CHECK(s.slot_value("f1") == 4);
    CHECK(s.slot_value("f2") == 3);
    CHECK(s.slot_value("f4") == 2);
    CHECK(s.slot_value("f5") == 2);
    CHECK(s.slot_value("f9") == 1);
    CHECK(s.slot_value("f3_6") == 10);
}

TEST_CASE("engine: an odds ratio with no column, or against no defender, is an engine error", "[engine][odds]") {
    {
        const engine::game g(compile("tests/rulesets/engine-errors/odds_gap.wph"), 2);
        CHECK_THROWS_WITH(engine::state(g, 1, sampled_chance()),
                          Catch::Contains("odds_gap.wph:9:10") && Catch::Contains("no column of table crt for odds 7:1 (read as 7-1)"));
    }
    {
        const engine::game g(compile("tests/rulesets/engine-errors/odds_zero.wph"), 2);
        CHECK_THROWS_WITH(engine::state(g, 1, sampled_chance()), Catch::Contains("odds 3:0 for table crt"));
    }
}

TEST_CASE("engine: hexsides, edge kinds, paths, hex attributes and line of sight", "[engine][maps]") {
    const engine::game g(compile("tests/rulesets/engine-los/los.wph"), 2);
    const engine::state s(g, 1);
    REQUIRE(s.is_terminal());
    // attributes given in the map (`{ hilltop = true }`), false/0 elsewhere
    CHECK(s.slot_value("hill") == 1);
    CHECK(s.slot_value("flat") == 0);
    CHECK(s.slot_value("tag_sum") == 3);
    // hexside features, either way round; none between hexes that are not adjacent
    CHECK(s.slot_value("bridge") == 1);
    CHECK(s.slot_value("bridge_back") == 1);
    CHECK(s.slot_value("sides") == 2);
    CHECK(s.slot_value("sides_far") == 0);
    CHECK(s.slot_value("stream") == 1);
    CHECK(s.slot_value("river_free") == 1);
    // edge kinds on an area map: `--` both ways, `->` one way
    CHECK(s.slot_value("road_kind") == 1);
    CHECK(s.slot_value("road_back") == 1);
    CHECK(s.slot_value("ford_kind") == 1);
    CHECK(s.slot_value("road_side") == 1);
    // path_exists: every hex after the start, the end included, satisfies the predicate
    CHECK(s.slot_value("path_clear") == 1);       // 0201-0202-0203
    CHECK(s.slot_value("path_woods_end") == 0);   // 0307 is Woods
    CHECK(s.slot_value("path_same") == 1);
    CHECK(s.slot_value("path_cut") == 0);         // 0406 is reached only through Woods
    CHECK(s.slot_value("path_any") == 1);
    CHECK(s.slot_value("path_from_woods") == 1);  // the start itself is not tested
    // a two-parameter predicate judges each step: 0202-0203 crosses a river, so a dry path goes
    // round by 0303 (Woods); one that must also stay in Clear has no way across
    CHECK(s.slot_value("step_dry") == 1);
    CHECK(s.slot_value("step_clear_dry") == 0);
    CHECK(s.slot_value("step_any") == 1);
    // line_blocked, worked out by hand in cube coordinates (x = col, z = row - (col + col%2)/2):
    // 0301-0305 runs down column 3 through 0302, 0303 (Woods), 0304
    CHECK(s.slot_value("los_column") == 1);
    // 0203-0403 runs exactly along the side between 0303 (Woods) and 0304 (Clear): not blocked
    CHECK(s.slot_value("los_side_one") == 0);
    // 0206-0406 slips between 0306 and 0307, both Woods: blocked
    CHECK(s.slot_value("los_side_both") == 1);
    // adjacent hexes: nothing lies between them
    CHECK(s.slot_value("los_adjacent") == 0);
    // 0101-0404 (N = 5) crosses 0201, 0202, 0303, 0304
    CHECK(s.slot_value("los_long") == 1);
    CHECK(s.slot_value("los_long_tag") == 1);     // 0202
    CHECK(s.slot_value("los_long_clear") == 1);   // the other way round
    // a three-parameter predicate: from the hilltop 0301 the screen at 0304, 1 hex from the
    // target 4 hexes away, is ignored; from 0305 towards 0301 it blocks
    CHECK(s.slot_value("los_hill") == 0);
    CHECK(s.slot_value("los_no_hill") == 1);
}

TEST_CASE("engine: path_length, and map searches whose predicate takes arguments of its own", "[engine][maps]") {
    const engine::game g(compile("tests/rulesets/engine-paths/lengths.wph"), 2);
    const engine::state s(g, 1);
    REQUIRE(s.is_terminal());
    // from a to a: 0 steps, whatever the predicate (a itself is never tested)
    CHECK(s.slot_value("same") == 0);
    CHECK(s.slot_value("same_nowhere") == 0);
    CHECK(s.slot_value("next") == 1);       // 0101-0102
    CHECK(s.slot_value("straight") == 2);   // 0101-0102-0103
    CHECK(s.slot_value("round") == 3);      // round the Woods: 0101-0201-0202-0103
    // pred(_, x): the argument is evaluated once and passed with each location tried
    CHECK(s.slot_value("without_leave") == 3);
    CHECK(s.slot_value("with_leave") == 2);
    CHECK(s.slot_value("step_without") == 3);  // pred(_, _, x): each step
    CHECK(s.slot_value("step_with") == 2);
    CHECK(s.slot_value("far") == 3);           // 0203-0202-0201-0101
    CHECK(s.slot_value("exists_leave") == 1);
    CHECK(s.slot_value("exists_no_leave") == 0);
    CHECK(s.slot_value("woods_between") == 1);  // line_blocked(…, pred(_, x))
    CHECK(s.slot_value("woods_excused") == 0);
}

TEST_CASE("engine: path_length with no path is an engine error naming both locations", "[engine][maps]") {
    const engine::game g(compile("tests/rulesets/engine-errors/no_path.wph"), 2);
    CHECK_THROWS_WITH(engine::state(g, 1, sampled_chance()),
                      Catch::Contains("no_path.wph:13:11") && Catch::Contains("no path from 0101 to 0103 (sequence game)"));
}

namespace {

template <class Named>
ir::id named(const std::vector<Named>& xs, const std::string& name) {
    for (ir::id i = 0; i < xs.size(); ++i)
        if (xs[i].name == name) return i;
    FAIL("nothing named " << name);
    return ir::no_id;
}

}  // namespace

TEST_CASE("probe: the engine computes a table's keys and an assignment in a state set value by value", "[engine][probe]") {
    const ir::ruleset rs = compile("tests/checker/table-gap/cavalry_pursuit_count.wph");
    const engine::game g(rs, 2);
    const ir::id table = named(rs.tables, "pursuit_table");
    const ir::id roll = named(rs.rolls, "pursuit_roll");
    ir::id resolve = ir::no_id, add_two = ir::no_id;
    for (ir::id n = 0; n < rs.nodes.size(); ++n) {
        const ir::node& nd = rs.nodes[n];
        if (nd.code == ir::op::resolve && nd.ref == table) resolve = n;
        if (nd.code == ir::op::add_assign && rs.nodes[rs.children[nd.first_child + 1]].value == 2) add_two = n;
    }
    REQUIRE(resolve != ir::no_id);
    REQUIRE(add_two != ir::no_id);
    const std::uint32_t army_p1 = g.zone_first.at(named(rs.zones, "army"));
    const std::uint32_t first_cuirassier = g.entity_first.at(named(rs.entities, "cuirassier"));

    SECTION("three cuirassiers and a 6: key 9, which no row covers") {
        engine::probe p(g);
        for (std::uint32_t i = 0; i < 3; ++i) p.put(army_p1, first_cuirassier + i);
        p.fix_roll(roll, 6);
        const engine::probe::outcome o = p.read_table(table, resolve, {0});
        CHECK(o.values == std::vector<std::int64_t>{9});
        CHECK(o.error.find("no row of table pursuit_table for key 9") != std::string::npos);
    }
    SECTION("no cavalry and a 2: key 2, read") {
        engine::probe p(g);
        p.fix_roll(roll, 2);
        const engine::probe::outcome o = p.read_table(table, resolve, {0});
        CHECK(o.values == std::vector<std::int64_t>{2});
        CHECK(o.error.empty());
    }
    SECTION("a roll whose dice are not given is an error, not a draw") {
        engine::probe p(g);
        const engine::probe::outcome o = p.read_table(table, resolve, {0});
        CHECK(o.values.empty());
        CHECK_FALSE(o.error.empty());
    }
    SECTION("an assignment past the field's range") {
        engine::probe p(g);
        const ir::id losses = named(rs.slots, "enemy_losses");
        p.set_value(g.slots.at(losses).offset + 1, 11);  // P2's
        const engine::probe::outcome past = p.assign(add_two, {1});
        CHECK(past.values == std::vector<std::int64_t>{13});
        CHECK(past.error.find("outside 0..12") != std::string::npos);
        const engine::probe::outcome within = p.assign(add_two, {0});  // P1's, at 0
        CHECK(within.values == std::vector<std::int64_t>{2});
        CHECK(within.error.empty());
    }
    SECTION("a choice's legal options") {
        ir::id choose = ir::no_id;
        for (ir::id n = 0; n < rs.nodes.size(); ++n)
            if (rs.nodes[n].code == ir::op::choose_one) choose = n;
        REQUIRE(choose != ir::no_id);
        engine::probe p(g);
        CHECK(p.options(choose, {0, -1}).values.empty());
        const std::uint32_t reserve = g.zone_first.at(named(rs.zones, "reserve"));
        p.put(reserve, first_cuirassier);
        p.put(reserve, first_cuirassier + 1);
        const engine::probe::outcome o = p.options(choose, {0, -1});
        CHECK(o.error.empty());
        CHECK(o.values == std::vector<std::int64_t>{first_cuirassier, first_cuirassier + 1});
    }
}

TEST_CASE("probe: which rules of a group apply, and the values they give", "[engine][probe]") {
    const ir::ruleset rs = compile("tests/checker/contradiction/prague_stacking_limit.wph");
    const engine::game g(rs, 2);
    const ir::id city = named(rs.rules, "city_stacking"), fortress = named(rs.rules, "fortress_stacking");
    const ir::id open = named(rs.rules, "open_stacking");
    const ir::id group = g.group_of_decision.at(named(rs.decisions, "stacking_limit"));
    engine::probe p(g);
    // the map's areas in their declared order: prague, pilsen, eger, tabor
    CHECK(p.applicable(group, {0}).values == std::vector<std::int64_t>{city, fortress});
    CHECK(p.applicable(group, {1}).values == std::vector<std::int64_t>{city});
    CHECK(p.applicable(group, {3}).values == std::vector<std::int64_t>{open});
    CHECK(p.value(city, {0}).values == std::vector<std::int64_t>{8});
    CHECK(p.value(fortress, {0}).values == std::vector<std::int64_t>{12});
    CHECK_FALSE(p.applicable(static_cast<ir::id>(rs.groups.size()), {0}).error.empty());
}

TEST_CASE("probe: a quantity with its modifiers, an action's legality, a table's cell for given keys", "[engine][probe]") {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    compiler::compile_options opts;
    opts.upto_layer = "base";  // the errata withdraw big_hand and change must_attack
    opts.upto_keeps_options = true;
    const auto compiled = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/tests/rulesets/all-constructs", opts, sources, sink);
    REQUIRE(compiled.has_value());
    const ir::ruleset& rs = *compiled;
    const engine::game g(rs, 2);
    engine::probe p(g);
    p.start();
    const engine::game::slot_layout renown = g.slots.at(named(rs.slots, "renown"));
    const ir::id hand_limit = named(rs.quantities, "hand_limit"), attack = named(rs.actions, "attack");
    CHECK(p.quantity(hand_limit, {0}).values == std::vector<std::int64_t>{7});
    p.set_value(renown.offset + 0 * renown.width, 2);  // P1: big_hand adds 1
    CHECK(p.quantity(hand_limit, {0}).values == std::vector<std::int64_t>{8});
    CHECK(p.quantity(hand_limit, {1}).values == std::vector<std::int64_t>{7});
    CHECK(p.value(named(rs.rules, "big_hand"), {0}).values == std::vector<std::int64_t>{1});  // a modifier's amount
    CHECK(p.legal(attack, {0, 1}).values == std::vector<std::int64_t>{1, 0});
    p.set_value(renown.offset + 1 * renown.width, -3);  // P2: must_attack demands it
    CHECK(p.legal(attack, {1, 0}).values == std::vector<std::int64_t>{1, 1});
    const ir::id outcome = named(rs.tables, "campaign_outcome");
    CHECK(p.cell(outcome, {2}).values == std::vector<std::int64_t>{0, 0});
    CHECK(p.cell(outcome, {7}).values == std::vector<std::int64_t>{2, 0});
    CHECK(p.cell(outcome, {12}).values == std::vector<std::int64_t>{3, 0});  // 9+
    CHECK_FALSE(p.cell(outcome, {0}).error.empty());                         // no row
    CHECK_FALSE(p.cell(named(rs.tables, "crt"), {1, 0}).error.empty());      // an odds column: not asked this way
    CHECK_FALSE(p.quantity(static_cast<ir::id>(rs.quantities.size()), {0}).error.empty());
}

namespace {

// Example `name` of the ruleset at `relative`, run by a probe from the start of a 2-player game.
engine::probe::outcome example_outcome(const std::string& relative, const std::string& name, int active) {
    const ir::ruleset rs = compile(relative);
    const engine::game g(rs, 2);
    engine::probe p(g);
    p.start();
    return p.example(named(rs.rules, name), active, {});
}

}  // namespace

TEST_CASE("probe: an example's given run from the start of a game, and its stated outcome", "[engine][probe]") {
    const engine::probe::outcome holds =
        example_outcome("tests/checker/clean/campaign_table_covered.wph", "combined_arms_example", 1);
    CHECK(holds.error.empty());
    CHECK(holds.values == std::vector<std::int64_t>{1});
    // the example forgets a modifier: the engine does not find its outcome
    const engine::probe::outcome fails =
        example_outcome("tests/checker/example-failure/campaign_example_forgets_penalty.wph", "campaign_example", 0);
    CHECK(fails.error.empty());
    CHECK(fails.values == std::vector<std::int64_t>{0});
    // not an example: an error, not a crash
    const engine::probe::outcome not_one =
        example_outcome("tests/checker/example-failure/campaign_example_forgets_penalty.wph", "undisciplined_army", 0);
    CHECK(not_one.values.empty());
    CHECK_FALSE(not_one.error.empty());
}

TEST_CASE("engine: a deal and a draw stop when the pile runs out, with no error", "[engine][zones]") {
    // three cards; a deal of 2 to each of two players, then a draw of 5 (docs/language.md)
    const engine::game g(compile("tests/rulesets/engine-statements/short_pile.wph"), 2);
    engine::state s(g, 1, explicit_chance());
    CHECK(s.slot_value("dealt_out") == 1);  // play went on past both statements
    CHECK(s.zone_contents("hand", 0).size() == 2);
    CHECK(s.zone_contents("hand", 1).size() == 1);  // the second player's second card was not there
    CHECK(s.zone_contents("pile").empty());
    CHECK(s.zone_contents("spare").empty());  // nothing left to draw
    CHECK(s.faults_passed().empty());  // noted only for the checker's evidence play
}

TEST_CASE("engine: with coverage, a short deal and draw are noted as faults play went past", "[engine][zones]") {
    // the checker's evidence play: each short statement once, its zone the subject
    const engine::game g(compile("tests/rulesets/engine-statements/short_pile.wph"), 2);
    engine::state_options o = explicit_chance();
    o.track_coverage = true;
    engine::state s(g, 1, o);
    CHECK(s.slot_value("dealt_out") == 1);
    const auto& passed = s.faults_passed();
    REQUIRE(passed.size() == 2);
    for (const auto& [fault, decisions] : passed) {
        CHECK(fault.kind == "unmet-obligation");
        CHECK(fault.subject == "pile");
        CHECK(decisions == 0);
    }
    CHECK(g.ruleset().nodes.at(passed[0].first.node).code == ir::op::deal);
    CHECK(g.ruleset().nodes.at(passed[1].first.node).code == ir::op::draw);
}
