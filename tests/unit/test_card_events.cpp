// Card events (docs/language.md, "Events on cards"; GMT §8.6): the compiler's plan (a procedure
// per event, an in-force value per lasting one, a dispatcher per card kind, turn ends), the IR's
// JSON round trip, precedence edges, `lifts`, and the engine playing them: an event in force
// permits what the rules forbid and lifts an invariant until the end of the turn.
#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/ir/json.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <algorithm>

using namespace wp;

namespace {

const char* const game_file = "tests/rulesets/engine-events/card_events.wph";

ir::id rule_id(const ir::ruleset& rs, const std::string& name) {
    for (std::size_t i = 0; i < rs.rules.size(); ++i)
        if (rs.rules[i].name == name) return static_cast<ir::id>(i);
    FAIL("no rule " << name);
    return ir::no_id;
}

bool has_text(const engine::state& s, const std::string& text) {
    const auto t = test::texts(s);
    return std::find(t.begin(), t.end(), text) != t.end();
}

}  // namespace

TEST_CASE("card events: the IR holds each event, its duration, flag, lifts and rules", "[card-events][ir]") {
    const ir::ruleset rs = test::compile_repo_ruleset(game_file);
    REQUIRE(rs.card_events.size() == 6);
    CHECK(std::any_of(rs.card_events.begin(), rs.card_events.end(), [](const ir::card_event& e) { return e.duration == ir::event_duration::phase; }));
    REQUIRE(rs.event_dispatchers.size() == 1);
    REQUIRE(rs.events_outrank.size() == 1);
    auto event_of = [&](const std::string& card) -> const ir::card_event& {
        for (const ir::card_event& e : rs.card_events)
            if (rs.entities[e.card].name == card) return e;
        FAIL("no event of " << card);
        return rs.card_events[0];
    };
    CHECK(event_of("c2").duration == ir::event_duration::once);
    CHECK(event_of("c2").flag == ir::no_id);
    const ir::card_event& c19 = event_of("c19");
    CHECK(c19.duration == ir::event_duration::turn);
    REQUIRE(c19.flag != ir::no_id);
    CHECK(rs.slots[c19.flag].name == "c19.in_force");
    REQUIRE(c19.lifts.size() == 1);
    CHECK(rs.rules[c19.lifts[0]].name == "no_mixed_stacks");
    REQUIRE(c19.rules.size() == 1);
    CHECK(rs.rules[c19.rules[0]].name == "maximilian_joins");
    CHECK(event_of("p24").duration == ir::event_duration::until_cancelled);
    CHECK(rs.procedures[event_of("p24").procedure].name == "p24.event");
    CHECK(rs.procedures[rs.event_dispatchers[0]].name == "card.play_event");
    // C7 is excepted: no rule of it; the precedence names it
    REQUIRE(rs.events_outrank[0].except.size() == 1);
    CHECK(rs.entities[rs.events_outrank[0].except[0]].name == "c7");
    // precedence: the subsidy's `=` over the rulebook's, the permit over the forbid
    const ir::id subsidy = rule_id(rs, "english_subsidy"), last = rule_id(rs, "no_aid_last_turn");
    const ir::id permit = rule_id(rs, "maximilian_joins"), forbid = rule_id(rs, "no_mixing_march");
    auto edge = [&](ir::id h, ir::id l) {
        for (const ir::rule_group& g : rs.groups)
            for (const ir::override_edge& e : g.edges)
                if (e.higher == h && e.lower == l && e.reason == ir::override_reason::event) return true;
        return false;
    };
    CHECK(edge(subsidy, last));
    CHECK(edge(permit, forbid));
    CHECK_FALSE(edge(last, subsidy));
}

TEST_CASE("card events: the IR's JSON round trip is exact, and a ruleset without events writes no new key", "[card-events][ir][json]") {
    const ir::ruleset rs = test::compile_repo_ruleset(game_file);
    const nlohmann::json once = ir::to_json(rs);
    CHECK(once.contains("card_events"));
    test::json_round_trip(rs);
    const nlohmann::json plain = ir::to_json(test::compile_repo_ruleset("tests/rulesets/engine-end/truce_ends_turn.wph"));
    CHECK_FALSE(plain.contains("card_events"));
    CHECK_FALSE(plain.contains("event_dispatchers"));
    CHECK_FALSE(plain.contains("events_outrank"));
    // a lasting event without its in-force value is refused
    ir::read_error error;
    nlohmann::json broken = once;
    for (auto& e : broken["card_events"])
        if (e["duration"] == "turn") e["flag"] = nullptr;
    CHECK_FALSE(ir::from_json(broken, error).has_value());
}

TEST_CASE("card events: C19 in force permits the march, lifts the invariant, and ends with the turn", "[card-events][engine]") {
    const engine::game g(test::compile_repo_ruleset(game_file), 2);
    bool played = false;
    for (std::uint64_t seed = 1; seed < 200 && !played; ++seed) {
        engine::state s(g, seed, test::sampled_chance());
        // turn 1, card phase: P1 picks a card from two
        if (s.is_terminal() || s.current_player() != 0 || !has_text(s, "C19 Maximilian")) continue;
        played = true;
        CHECK(s.slot_value("c19.in_force") == 0);
        s.apply(test::action_with_text(s, "C19 Maximilian"));
        CHECK(s.slot_value("c19.in_force") == 1);
        // P2 plays a card that neither ends the turn nor changes Munich
        REQUIRE(s.current_player() == 1);
        int pick = -1;
        for (const engine::action_info& a : s.legal_actions())
            if (a.text != "C7 Truce") pick = a.id;
        if (pick < 0) {
            played = false;
            continue;
        }
        s.apply(pick);
        // movement: the rulebook forbids the march into Munich; C19's permit outranks it
        REQUIRE(s.current_player() == 0);
        s.apply(test::action_with_text(s, "yes: march Imperial units into Munich"));
        CHECK(s.slot_value("imperial_at_munich") == 1);
        CHECK(s.violated_invariants().empty());  // lifted while C19 is in force
        REQUIRE(s.current_player() == 1);
        s.apply(test::action_with_text(s, "no: do not march Imperial units into Munich"));
        // the stack is separated in the last phase, and the event ended with the turn
        CHECK(s.slot_value("imperial_at_munich") == 0);
        CHECK(s.slot_value("c19.in_force") == 0);
        CHECK(s.violated_invariants().empty());
    }
    CHECK(played);
}

TEST_CASE("card events: without C19 the march is not offered", "[card-events][engine]") {
    const engine::game g(test::compile_repo_ruleset(game_file), 2);
    for (std::uint64_t seed = 1; seed < 60; ++seed) {
        engine::state s(g, seed, test::sampled_chance());
        if (s.is_terminal() || s.current_player() != 0 || !has_text(s, "C2 Spanish Gold")) continue;
        s.apply(test::action_with_text(s, "C2 Spanish Gold"));
        if (s.current_player() != 1) continue;
        int pick = -1;
        for (const engine::action_info& a : s.legal_actions())
            if (a.text != "C7 Truce" && a.text != "C19 Maximilian") pick = a.id;
        if (pick < 0) continue;
        s.apply(pick);
        // no `may` to march: the forbid holds, so play moves on to the next turn's cards
        CHECK_FALSE(has_text(s, "yes: march Imperial units into Munich"));
        CHECK(s.slot_value("imperial_at_munich") == 0);
        return;
    }
    FAIL("no seed deals C2 to the first player with a card for the second");
}
