// Simultaneous, secret choices and hidden fields (docs/language.md §2 and §5): the IR and its JSON,
// a seat's view (seat_view, state::masked_for), and the property that matters: no agent's input
// depends on what its seat cannot see. Play a game; at every decision change only what the deciding
// seat cannot see (state::resample_hidden); the seat's view, and the choice of every agent handed
// it, are the same.
#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/engine/log.hpp"
#include "westphalia/engine/search_agents.hpp"
#include "westphalia/ir/hidden_flow.hpp"
#include "westphalia/ir/json.hpp"
#include "westphalia/ir/print.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <sstream>

using namespace wp;

namespace {

const char* const planning = "tests/rulesets/secrets/secret_planning.wph";
const char* const fog = "tests/rulesets/secrets/fog_of_war.wph";
const char* const markers = "tests/rulesets/secrets/force_markers.wph";
const char* const revealed = "tests/rulesets/secrets/force_markers_revealed.wph";
const char* const detachments = "tests/rulesets/secrets/detachments.wph";

// Every value of every field, per-location and per-piece ones included (state::view leaves those out).
std::string every_value(const engine::state& s) {
    const engine::game& g = s.the_game();
    std::ostringstream out;
    for (ir::id sl = 0; sl < g.ruleset().slots.size(); ++sl) {
        const ir::slot& slot = g.ruleset().slots[sl];
        const int first = slot.scope == ir::slot_scope::per_entity ? static_cast<int>(g.kind_first.at(slot.entity_kind)) : 0;
        out << slot.name << ':';
        for (std::uint32_t c = 0; c < g.slots[sl].copies; ++c)
            for (std::uint32_t k = 0; k < g.slots[sl].width; ++k)
                out << ' ' << s.slot_value(slot.name, first + static_cast<int>(c), static_cast<int>(k));
        out << '\n';
    }
    return out.str();
}

std::size_t count_op(const ir::ruleset& rs, ir::op o) {
    return static_cast<std::size_t>(std::count_if(rs.nodes.begin(), rs.nodes.end(), [&](const ir::node& n) { return n.code == o; }));
}

// Plays `games` seeded games with random agents; at each of the first `decisions` decisions of
// each, compares the deciding seat's view and the agents' choices on the state and on states that
// differ from it only in what the seat cannot see. Returns how many of those states differed from
// the game's own (the test is not vacuous: hidden things were there to change).
std::size_t check_independence(const ir::ruleset& rs, int players, int games, std::uint64_t decisions, bool search) {
    const engine::game g(rs, players);
    REQUIRE(g.has_hidden);
    std::size_t differed = 0;
    for (int seed = 1; seed <= games; ++seed) {
        engine::state s(g, static_cast<std::uint64_t>(seed), test::sampled_chance());
        engine::rng play_rng{static_cast<std::uint64_t>(seed) * 7919};
        engine::random_agent mover;
        while (!s.is_terminal() && s.decisions() < decisions) {
            if (s.is_chance_node()) {
                s.apply_sampled();
                continue;
            }
            const int seat = s.current_player();
            const engine::seat_view here(s, seat);
            for (std::uint64_t k = 1; k <= 3; ++k) {
                INFO("seed " << seed << ", decision " << s.decisions() + 1 << ", P" << seat + 1 << ", resample " << k);
                const engine::state other = s.resample_hidden(seat, k * 104729 + static_cast<std::uint64_t>(seed));
                if (other.view(-1) != s.view(-1) || every_value(other) != every_value(s)) ++differed;
                const engine::seat_view there(other, seat);
                // what the seat sees, everything in it
                REQUIRE(there.seen().view(-1) == here.seen().view(-1));
                REQUIRE(every_value(there.seen()) == every_value(here.seen()));
                CHECK(there.seen().view(seat) == here.seen().view(seat));
                CHECK(there.num_actions() == here.num_actions());
                // and what each agent makes of it, from the same generator
                engine::random_agent random;
                engine::rng r1{k}, r2{k};
                CHECK(random.act(here, r1) == random.act(there, r2));
                if (search) {
                    engine::greedy_agent greedy;
                    engine::rng g1{k}, g2{k};
                    CHECK(greedy.act(here, g1) == greedy.act(there, g2));
                    engine::mcts_agent mcts(24, 6);
                    engine::rng m1{k}, m2{k};
                    CHECK(mcts.act(here, m1) == mcts.act(there, m2));
                }
            }
            s.apply(mover.act(here, play_rng));
        }
    }
    return differed;
}

}  // namespace

TEST_CASE("secrets: the IR has the block, its reveal and the hidden field; JSON round trip", "[secrets][ir][json]") {
    const ir::ruleset rs = test::compile_repo_ruleset(planning);
    CHECK(count_op(rs, ir::op::simultaneous) == 1);
    CHECK(count_op(rs, ir::op::reveal) == 1);
    std::ostringstream text;
    ir::print(text, rs);
    CHECK(text.str().find("simultaneous {") != std::string::npos);
    CHECK(text.str().find("reveal;") != std::string::npos);

    const ir::ruleset fog_rs = test::compile_repo_ruleset(fog);
    const auto strength = std::find_if(fog_rs.slots.begin(), fog_rs.slots.end(), [](const ir::slot& s) { return s.name == "strength"; });
    REQUIRE(strength != fog_rs.slots.end());
    CHECK(strength->hidden);
    CHECK(std::count_if(fog_rs.slots.begin(), fog_rs.slots.end(), [](const ir::slot& s) { return s.hidden; }) == 1);

    for (const ir::ruleset* r : {&rs, &fog_rs}) test::json_round_trip(*r);
    // `hidden` is written only where it is true
    const nlohmann::json j = ir::to_json(fog_rs);
    std::size_t keys = 0;
    for (const auto& s : j["slots"]) keys += s.contains("hidden");
    CHECK(keys == 1);

    // a reveal taken out of its block is refused
    nlohmann::json broken = ir::to_json(rs);
    for (auto& n : broken["nodes"])
        if (n["code"] == "simultaneous") n["code"] = "block";
    ir::read_error error;
    CHECK_FALSE(ir::from_json(broken, error).has_value());
}

TEST_CASE("secrets: a game without anything hidden hands agents the state itself", "[secrets][view]") {
    const engine::game g(test::compile_repo_ruleset("tests/rulesets/engine-end/truce_ends_turn.wph"), 2);
    CHECK_FALSE(g.has_hidden);
    engine::state s(g, 1, test::sampled_chance());
    while (!s.is_terminal() && s.is_chance_node()) s.apply_sampled();
    REQUIRE_FALSE(s.is_terminal());
    const engine::seat_view v(s, s.current_player());
    CHECK_FALSE(v.masked());
    CHECK(&v.seen() == &s);
}

TEST_CASE("secrets: inside the block, another seat's plan reads as at its start until the reveal", "[secrets][view]") {
    const engine::game g(test::compile_repo_ruleset(planning), 2);
    engine::state s(g, 3, test::sampled_chance());
    REQUIRE(s.current_player() == 0);
    CHECK(s.in_secret());
    // P1 lays a size-2 county in every box and bids 1
    for (int box = 0; box < 3; ++box) s.apply(test::action_with_text(s, "2"));
    s.apply(test::action_with_text(s, "1"));
    REQUIRE(s.current_player() == 1);
    CHECK(s.slot_value("plan", 0, 0) == 2);
    const engine::seat_view p2(s, 1);
    CHECK(p2.masked());
    CHECK(p2.seen().slot_value("plan", 0, 0) == 0);  // as the block began
    CHECK(p2.seen().slot_value("bid", 0) == 0);
    CHECK(p2.seen().view(1).find("plan[P1] = 0 0 0") != std::string::npos);
    // P1's own view of its plan is the plan
    const engine::seat_view p1(s, 0);
    CHECK(p1.seen().slot_value("plan", 0, 0) == 2);
    for (int box = 0; box < 3; ++box) s.apply(test::action_with_text(s, "0"));
    s.apply(test::action_with_text(s, "0"));
    // revealed: the next decisions (round 2) see round 1's plans
    CHECK(s.slot_value("round") == 2);
    const engine::seat_view after(s, s.current_player());
    CHECK(after.seen().slot_value("bid", 0) == 1);
}

TEST_CASE("secrets: another seat's hidden field reads as its initial value; the owner sees it", "[secrets][view]") {
    const engine::game g(test::compile_repo_ruleset(fog), 2);
    engine::state s(g, 5, test::sampled_chance());
    REQUIRE(s.current_player() == 0);
    s.apply(test::action_with_text(s, "3"));  // P1 musters 3 in secret
    s.apply(test::action_with_text(s, "no: do not advance into the enemy's zone of control"));
    REQUIRE(s.current_player() == 1);
    s.apply(test::action_with_text(s, "2"));  // P2 musters 2
    s.apply(test::action_with_text(s, "no: do not advance into the enemy's zone of control"));
    REQUIRE(s.current_player() == 0);  // year 2: revealed, and a new block begun
    CHECK(s.slot_value("year") == 2);
    CHECK(s.in_secret());
    const std::int64_t p2_strength = s.slot_value("strength", 1);
    CHECK(p2_strength == 6);
    const engine::seat_view p1(s, 0);
    CHECK(p1.seen().slot_value("strength", 1) == 4);  // its initial value, whatever P2 mustered
    CHECK(p1.seen().slot_value("strength", 0) == s.slot_value("strength", 0));
    CHECK(p1.seen().view(0).find("strength[P2] = (hidden)") != std::string::npos);
    const engine::seat_view p2(s, 1);
    CHECK(p2.seen().slot_value("strength", 1) == p2_strength);
}

TEST_CASE("secrets: entries hidden by side: the IR, its JSON, and what the IR reader refuses", "[secrets][ir][json]") {
    const ir::ruleset rs = test::compile_repo_ruleset(markers);
    auto slot_named = [&](const std::string& name) {
        const auto it = std::find_if(rs.slots.begin(), rs.slots.end(), [&](const ir::slot& x) { return x.name == name; });
        REQUIRE(it != rs.slots.end());
        return static_cast<ir::id>(it - rs.slots.begin());
    };
    const ir::slot& sp = rs.slots[slot_named("sp")];
    CHECK(sp.hidden);
    CHECK(sp.scope == ir::slot_scope::per_node);
    CHECK(sp.hidden_by == slot_named("camp"));
    REQUIRE(sp.hidden_if != ir::no_id);
    CHECK(rs.options[sp.hidden_if].name == "fog");
    const ir::slot& scouts = rs.slots[slot_named("scouts")];
    CHECK(scouts.hidden);
    CHECK(scouts.hidden_by == ir::no_id);
    CHECK(scouts.hidden_if == sp.hidden_if);
    std::ostringstream text;
    ir::print(text, rs);
    CHECK(text.str().find("hidden by camp if option.fog") != std::string::npos);

    test::json_round_trip(rs);
    const nlohmann::json once = ir::to_json(rs);
    ir::read_error error;
    std::size_t by = 0, when = 0;
    for (const auto& x : once["slots"]) {
        by += x.contains("hidden_by");
        when += x.contains("hidden_if");
    }
    CHECK(by == 1);
    CHECK(when == 2);

    // hidden by a field that is not per player, and a hidden field keyed by something no one holds
    nlohmann::json broken = once;
    for (auto& x : broken["slots"])
        if (x["name"] == "sp") x["hidden_by"] = slot_named("year");
    CHECK_FALSE(ir::from_json(broken, error).has_value());
    CHECK(error.message.find("hidden_by") != std::string::npos);
    broken = once;
    for (auto& x : broken["slots"])
        if (x["name"] == "year") x["hidden"] = true;
    CHECK_FALSE(ir::from_json(broken, error).has_value());
}

TEST_CASE("secrets: a side's entries read as their initial value to the other side, only with the option on", "[secrets][view]") {
    const engine::game g(test::compile_repo_ruleset(markers), 2);
    CHECK(g.has_hidden);
    engine::state s(g, 5, test::sampled_chance());
    REQUIRE(s.current_player() == 0);
    s.apply(test::action_with_text(s, "Middle"));  // P1 (Blue) musters 3 in Middle
    s.apply(test::action_with_text(s, "3"));
    s.apply(test::action_with_text(s, "yes: send out a scout"));
    REQUIRE(s.current_player() == 1);
    s.apply(test::action_with_text(s, "East"));  // P2 (Red) musters 2 in East
    s.apply(test::action_with_text(s, "2"));
    s.apply(test::action_with_text(s, "no: do not send out a scout"));
    REQUIRE_FALSE(s.is_terminal());
    const int middle = 1, east = 2, blue = 0, red = 1;
    REQUIRE(s.slot_value("sp", middle, blue) == 3);
    REQUIRE(s.slot_value("sp", east, red) == 2);
    const engine::seat_view p1(s, 0), p2(s, 1);
    CHECK(p1.seen().slot_value("sp", middle, blue) == 3);  // its own side's
    CHECK(p1.seen().slot_value("sp", east, red) == 0);     // the other side's: its initial value
    CHECK(p2.seen().slot_value("sp", middle, blue) == 0);
    CHECK(p2.seen().slot_value("sp", east, red) == 2);
    CHECK(p1.seen().slot_value("scouts", 0, 0) == 1);      // a map keyed by player: its own entry
    CHECK(p2.seen().slot_value("scouts", 0, 0) == 0);
    CHECK(p1.seen().view(0).find("scouts = 1 (hidden)") != std::string::npos);

    // the same rules played in the open
    const engine::game open(test::compile_repo_ruleset(markers, {{"fog", "false"}}), 2);
    CHECK(std::count(open.slot_hidden.begin(), open.slot_hidden.end(), 1) == 0);
    CHECK(std::count(g.slot_hidden.begin(), g.slot_hidden.end(), 1) == 2);
    engine::state t(open, 5, test::sampled_chance());
    for (const char* a : {"Middle", "3", "yes: send out a scout"}) t.apply(test::action_with_text(t, a));
    CHECK(engine::seat_view(t, 1).seen().slot_value("scouts", 0, 0) == 1);  // a global field: seen as it changes, block or not
    for (const char* a : {"East", "2", "no: do not send out a scout"}) t.apply(test::action_with_text(t, a));
    CHECK(engine::seat_view(t, 1).seen().slot_value("sp", middle, blue) == 3);
    CHECK(engine::seat_view(t, 1).seen().slot_value("scouts", 0, 0) == 1);
}

TEST_CASE("secrets: entries shown while their `unless` field is set, copy by copy", "[secrets][view]") {
    const ir::ruleset rs = test::compile_repo_ruleset(revealed);
    const auto sp = std::find_if(rs.slots.begin(), rs.slots.end(), [](const ir::slot& x) { return x.name == "sp"; });
    REQUIRE(sp != rs.slots.end());
    REQUIRE(sp->hidden_unless != ir::no_id);
    CHECK(rs.slots[sp->hidden_unless].name == "revealed");
    std::ostringstream text;
    ir::print(text, rs);
    CHECK(text.str().find("hidden by camp if option.fog unless revealed") != std::string::npos);
    test::json_round_trip(rs);
    // an `unless` slot of another block, or hidden, is refused by the IR reader
    const nlohmann::json once = ir::to_json(rs);
    const auto year = static_cast<std::size_t>(std::find_if(rs.slots.begin(), rs.slots.end(), [](const ir::slot& x) { return x.name == "year"; }) - rs.slots.begin());
    nlohmann::json broken = once;
    for (auto& x : broken["slots"])
        if (x["name"] == "sp") x["hidden_unless"] = year;
    ir::read_error error;
    CHECK_FALSE(ir::from_json(broken, error).has_value());
    CHECK(error.message.find("hidden_unless") != std::string::npos);

    const engine::game g(rs, 2);
    const int west = 0, middle = 1, east = 2, blue = 0, red = 1;
    // both in Middle: a battle there, shown to both; West, where only Blue stands, stays hidden
    engine::state s(g, 5, test::sampled_chance());
    for (const char* a : {"West", "1", "no: do not send out a scout"}) s.apply(test::action_with_text(s, a));
    for (const char* a : {"East", "1", "no: do not send out a scout"}) s.apply(test::action_with_text(s, a));
    REQUIRE_FALSE(s.is_terminal());
    for (const char* a : {"Middle", "3", "no: do not send out a scout"}) s.apply(test::action_with_text(s, a));
    CHECK(engine::seat_view(s, 1).seen().slot_value("sp", middle, blue) == 0);  // not yet: hidden
    for (const char* a : {"Middle", "2", "no: do not send out a scout"}) s.apply(test::action_with_text(s, a));
    REQUIRE(s.slot_value("revealed", middle) == 1);
    const engine::seat_view p1(s, 0), p2(s, 1);
    CHECK(p1.seen().slot_value("sp", middle, red) == 2);  // shown
    CHECK(p2.seen().slot_value("sp", middle, blue) == 3);
    CHECK(p2.seen().slot_value("sp", west, blue) == 0);   // still hidden: 1 under the marker
    CHECK(p1.seen().slot_value("sp", east, red) == 0);
    CHECK(s.slot_value("sp", west, blue) == 1);
    // a player's own field, shown once that player's `showing` is set (Red, after year 2)
    CHECK(s.slot_value("showing", 1) == 1);
    CHECK(p1.seen().slot_value("reserve", 1) == 2);
    CHECK(p2.seen().slot_value("reserve", 0) == 0);  // Blue's: hidden, its initial value
    CHECK(s.slot_value("reserve", 0) == 2);
}

TEST_CASE("secrets: no agent's input depends on what its seat cannot see", "[secrets][view][agents]") {
    SECTION("secret planning (a simultaneous block)") {
        CHECK(check_independence(test::compile_repo_ruleset(planning), 3, 4, 1000, true) > 0);
    }
    SECTION("fog of war (a hidden field)") {
        CHECK(check_independence(test::compile_repo_ruleset(fog), 2, 6, 1000, true) > 0);
    }
    SECTION("strength per space and side, seen by that side (Cuius Regio's force markers)") {
        CHECK(check_independence(test::compile_repo_ruleset(markers), 2, 6, 1000, true) > 0);
    }
    SECTION("the same, shown once their battle begins (`unless revealed`)") {
        CHECK(check_independence(test::compile_repo_ruleset(revealed), 2, 6, 1000, true) > 0);
    }
    SECTION("a plan kept in hidden maps keyed by card (Wallenstein's boxes)") {
        CHECK(check_independence(test::compile_repo_ruleset("tests/rulesets/entity-keys/card_keyed_plans.wph"), 2, 6, 1000, true) > 0);
    }
    SECTION("Contractor Cards (a hidden deck, hands seen by their owners)") {
        CHECK(check_independence(test::compile_repo_ruleset("rulesets/contractor-cards"), 3, 2, 40, true) > 0);
    }
}

TEST_CASE("secrets: the log marks private decisions; replay as a seat hides the others' secrets", "[secrets][log]") {
    const ir::ruleset rs = test::compile_repo_ruleset(planning);
    engine::log_header h;
    h.ruleset_name = rs.name;
    h.ruleset_path = planning;
    h.fingerprint = engine::ir_fingerprint(rs);
    h.players = 2;
    h.seed = 4;
    h.agents = {"random"};
    engine::random_agent random;
    const engine::logged_play played = engine::play_logged(rs, h, {&random});
    REQUIRE(played.stop.empty());
    // every decision of this game is taken in secret: 2 players x (3 boxes + a bid) x 3 rounds
    auto occurrences = [](const std::string& text, const std::string& what) {
        std::size_t n = 0, pos = 0;
        while ((pos = text.find(what, pos)) != std::string::npos) {
            ++n;
            ++pos;
        }
        return n;
    };
    CHECK(played.result.decisions == 24);
    CHECK(occurrences(played.log, "\"private\":true") == 24);
    const std::size_t p2_decisions = occurrences(played.log, "\"player\":2");
    std::vector<std::string> all, as_p1;
    const std::function<void(const std::string&)> to_all = [&](const std::string& l) { all.push_back(l); };
    const std::function<void(const std::string&)> to_p1 = [&](const std::string& l) { as_p1.push_back(l); };
    const engine::replay_result everything = engine::replay_log(played.log, rs, h, &to_all);
    REQUIRE_FALSE(everything.error.has_value());
    CHECK(everything.relog == played.log);
    const engine::replay_result seen = engine::replay_log(played.log, rs, h, &to_p1, false, 0);
    REQUIRE_FALSE(seen.error.has_value());
    auto count = [](const std::vector<std::string>& lines, const std::string& what) {
        return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(what) != std::string::npos; });
    };
    CHECK(count(all, "P2 decides in secret") == 0);
    CHECK(static_cast<std::size_t>(count(as_p1, "P2 decides in secret")) == p2_decisions);
    CHECK(p2_decisions == 12);
    CHECK(count(as_p1, "P1 (") == count(all, "P1 ("));
    // P2's plan changes are left out until the reveal, which shows what they came to; P1's own are there
    CHECK(count(as_p1, "P2 plan") == count(as_p1, "(revealed)"));
    CHECK(count(as_p1, "(revealed)") > 0);
    CHECK(count(all, "(revealed)") == 0);
    CHECK(count(all, "P2 plan") > 0);
    CHECK(count(as_p1, "P1 plan") == count(all, "P1 plan"));
}

TEST_CASE("secrets: Wallenstein's plan stays with its player past the reveal, box by box", "[secrets][view][wallenstein]") {
    // §L473: a county card is shown only when its action comes. The plan is kept in hidden
    // per-player fields keyed by box and by card (not in the cards' own fields, which every seat sees).
    const engine::game g(test::compile_repo_ruleset("rulesets/wallenstein"), 3);
    engine::state s(g, 11, test::sampled_chance());
    engine::random_agent agent;
    engine::rng r{5};
    const int boxes = 10;  // the action boxes of a mat (§L25-31)
    auto planned = [&](const engine::state& x, int seat) {
        int n = 0;
        for (int b = 0; b < boxes; ++b) n += x.slot_value("card_in_box", seat, b) >= 0;
        return n;
    };
    bool looked = false;
    for (int step = 0; step < 5000 && !s.is_terminal() && !looked; ++step) {
        if (s.is_chance_node()) {
            s.apply_sampled();
            continue;
        }
        const int seat = s.current_player();
        // after the reveal, while P1 still has cards face down, another seat decides
        if (!s.in_secret() && seat != 0 && planned(s, 0) > 0) {
            const engine::seat_view other(s, seat), own(s, 0);
            CHECK(planned(other.seen(), 0) == 0);
            CHECK(planned(own.seen(), 0) == planned(s, 0));
            looked = true;
        }
        s.apply(agent.act(engine::seat_view(s, seat), r));
    }
    CHECK(looked);
}

TEST_CASE("secrets: Cuius Regio's moving army, straggler losses and supply excess are hidden from the other side, as its stacks are", "[secrets][view][cuius]") {
    // §L1138-1162: an army under a Force marker is hidden from the other side; up to five a side
    // (§L1146), the marker its Army Commander's (fog.wph). The activation lifts the army's SP off
    // its hex into the active_* fields while it moves; with fog of war the other side sees them at
    // their initial value when its commander has a marker, and both see them while it fights
    // (§L1159) or when it has none. Before 2026-12-06 these were plain global fields: the other
    // side saw the moving army in full; then every stack was hidden, marker or not.
    const engine::game g(test::compile_repo_ruleset("rulesets/cuius-regio", {{"fog_of_war", "true"}}), 2);
    // and what tells a stack's size: a straggler loss (10% of it), SP to disband for supply
    for (const char* name : {"active_inf", "active_cav", "active_art", "active_fat", "r_inf", "r_cav", "r_art", "st_inf", "st_cav", "excess", "inf", "cav"}) {
        const auto& slots = g.ruleset().slots;
        const auto at = std::find_if(slots.begin(), slots.end(), [&](const ir::slot& x) { return x.name == name; });
        REQUIRE(at != slots.end());
        CHECK(g.slot_hidden.at(static_cast<std::size_t>(at - slots.begin())));
    }
    int marked = 0, unmarked = 0;
    for (std::uint64_t seed = 1; seed <= 12 && (marked == 0 || unmarked == 0); ++seed) {
        engine::state s(g, seed, test::sampled_chance());
        engine::random_agent agent;
        engine::rng r{seed * 7};
        for (int step = 0; step < 20000 && !s.is_terminal(); ++step) {
            if (s.is_chance_node()) {
                s.apply_sampled();
                continue;
            }
            const std::int64_t side = s.slot_value("a_side", 0, 0);
            const std::int64_t sp = s.slot_value("active_inf", 0, side) + s.slot_value("active_cav", 0, side);
            if (s.slot_value("a_on", 0, 0) && sp > 0 && !s.slot_value("active_fighting", 0, 0)) {
                const bool under_marker = s.slot_value("force", static_cast<int>(s.slot_value("a_cmd", 0, 0)), 0) != 0;
                for (int seat = 0; seat < 2; ++seat) {
                    const engine::seat_view v(s, seat);
                    const bool own = s.slot_value("camp", seat, 0) == side;
                    const std::int64_t seen = v.seen().slot_value("active_inf", 0, side) + v.seen().slot_value("active_cav", 0, side);
                    INFO("seed " << seed << ", decision " << s.decisions() << ", P" << seat + 1 << (under_marker ? ", marked" : ", unmarked"));
                    CHECK(seen == (own || !under_marker ? sp : 0));
                }
                ++(under_marker ? marked : unmarked);
            }
            s.apply(agent.act(engine::seat_view(s, s.current_player()), r));
        }
    }
    CHECK(marked > 0);
    CHECK(unmarked > 0);
}

TEST_CASE("secrets: Cuius Regio's forces under markers announce exact numbers or bands of five", "[secrets][cuius]") {
    // §L1153-1158 (rulesets/cuius-regio/base/fog.wph): what a force under a marker tells at a ZOC,
    // kept in public fields per hex and side. Exact: low == high; bands: 1-5, 6-10, ... (cavalry
    // also 0 alone). Random games until some announcements are heard.
    for (const char* announce : {"exact", "bands"}) {
        const engine::game g(test::compile_repo_ruleset("rulesets/cuius-regio", {{"fog_of_war", "true"}, {"fog_announce", announce}}), 2);
        const bool bands = std::string(announce) == "bands";
        int heard = 0;
        for (std::uint64_t seed = 1; seed <= 60 && heard < 3; ++seed) {
            engine::state s(g, seed, test::sampled_chance());
            engine::random_agent agent;
            engine::rng r{seed};
            while (!s.is_terminal() && s.decisions() < 400) {
                if (s.is_chance_node()) {
                    s.apply_sampled();
                    continue;
                }
                s.apply(agent.act(engine::seat_view(s, s.current_player()), r));
            }
            for (const char* what : {"sp", "cav"}) {
                const std::string low = std::string("told_") + what + "_low", high = std::string("told_") + what + "_high";
                const engine::game::slot_layout& layout = g.slots.at(static_cast<std::size_t>(
                    std::find_if(g.ruleset().slots.begin(), g.ruleset().slots.end(), [&](const ir::slot& x) { return x.name == low; }) -
                    g.ruleset().slots.begin()));
                for (std::uint32_t h = 0; h < layout.copies; ++h)
                    for (int side = 0; side < 2; ++side) {
                        const std::int64_t lo = s.slot_value(low, static_cast<int>(h), side), hi = s.slot_value(high, static_cast<int>(h), side);
                        if (hi == 0) continue;
                        ++heard;
                        INFO(announce << " " << what << " at copy " << h << ": " << lo << ".." << hi);
                        if (bands) CHECK((hi - lo == 4 && lo % 5 == 1));
                        else CHECK(lo == hi);
                    }
            }
        }
        CHECK(heard >= 3);
    }
}

// What a seat's account withholds (engine/src/log.cpp, account_view) rests on this: per choice,
// the hidden field its set reads and the one its `where` reads.
TEST_CASE("secrets: the choices whose options read a hidden field, set and filter apart", "[secrets][log]") {
    const ir::ruleset rs = test::compile_repo_ruleset(detachments);
    const auto local_named = [&](const std::string& name) {
        const ir::sequence& game = rs.sequences.at(0);
        for (ir::id n = 0; n < rs.nodes.size(); ++n)
            if (rs.nodes[n].code == ir::op::choose_one && rs.nodes[n].ref < game.locals.size() && game.locals[rs.nodes[n].ref].name == name)
                return n;
        FAIL("no choice of " << name);
        return ir::no_id;
    };
    const auto slot_named = [&](const std::string& name) {
        for (ir::id sl = 0; sl < rs.slots.size(); ++sl)
            if (rs.slots[sl].name == name) return sl;
        return ir::no_id;
    };
    const std::vector<char> hidden = ir::hidden_slots(rs);
    REQUIRE(hidden.at(slot_named("army")));
    CHECK_FALSE(hidden.at(slot_named("marches")));
    const std::vector<ir::hidden_flow::choice_reads> reads = ir::hidden_flow(rs, hidden).choice_sources();
    REQUIRE(reads.size() == rs.nodes.size());
    CHECK(reads[local_named("detachment")].set == slot_named("army"));
    CHECK(reads[local_named("march")].set == ir::no_id);
    CHECK(reads[local_named("march")].filter == slot_named("army"));
    CHECK(reads[local_named("drill")].set == ir::no_id);
    CHECK(reads[local_named("drill")].filter == ir::no_id);
    // with the fog off nothing is hidden, and no choice reads anything
    const std::vector<ir::hidden_flow::choice_reads> open = ir::hidden_flow(rs, std::vector<char>(rs.slots.size(), 0)).choice_sources();
    CHECK(std::all_of(open.begin(), open.end(), [](const auto& r) { return r.set == ir::no_id && r.filter == ir::no_id; }));
}
