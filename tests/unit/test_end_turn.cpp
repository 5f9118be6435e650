// `end turn;` (GMT §5.32's Truce): the parser, the IR's JSON round trip and validation, and the
// engine leaving the turn at once, the rest of the turn unplayed, from a procedure or from the
// sequence itself (inside a loop over the players and a `may`).
#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/ir/json.hpp"
#include "westphalia/ir/print.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <sstream>

using namespace wp;

namespace {

const char* const truce = "tests/rulesets/engine-end/truce_ends_turn.wph";

std::size_t count_op(const ir::ruleset& rs, ir::op o) {
    return static_cast<std::size_t>(std::count_if(rs.nodes.begin(), rs.nodes.end(), [&](const ir::node& n) { return n.code == o; }));
}

// Turn 1: the recovery die, P1 offers peace, the talks give `talks`; returns the state after.
void first_turn_with_talks(engine::state& s, std::int64_t talks) {
    CHECK(s.slot_value("turn_number") == 1);
    REQUIRE(s.is_chance_node());
    s.apply(test::outcome_with_value(s, 3));  // recovery: halved, rounded up
    CHECK(s.slot_value("recovered") == 2);
    REQUIRE_FALSE(s.is_chance_node());
    CHECK(s.current_player() == 0);
    s.apply(test::action_with_text(s, "yes: offer peace"));
    REQUIRE(s.is_chance_node());
    s.apply(test::outcome_with_value(s, talks));
}

}  // namespace

TEST_CASE("end turn: the IR has the statement and the procedure that ends the turn", "[end-turn][ir]") {
    const ir::ruleset rs = test::compile_repo_ruleset(truce);
    CHECK(count_op(rs, ir::op::end_turn) == 2);
    const std::vector<bool> ending = ir::procedures_ending_turn(rs);
    REQUIRE(ending.size() == 1);
    CHECK(ending[0]);
    // the sequence's turn holds both exits: the sequence itself has none outside a turn
    CHECK(ir::turn_exits(rs, rs.sequences[0].body, ending).empty());
    std::ostringstream text;
    ir::print(text, rs);
    CHECK(text.str().find("end turn;") != std::string::npos);
}

TEST_CASE("end turn: the IR's JSON round trip is exact; an `end turn` with no turn around it is refused", "[end-turn][ir][json]") {
    const ir::ruleset rs = test::compile_repo_ruleset(truce);
    const nlohmann::json once = ir::to_json(rs);
    const ir::ruleset back = test::json_round_trip(rs);
    CHECK(count_op(back, ir::op::end_turn) == 2);

    // the turn made a phase: the `end turn`s have nothing to end
    ir::read_error error;
    nlohmann::json broken = once;
    for (auto& b : broken["blocks"])
        if (b["word"] == "turn") b["word"] = "phase";
    CHECK_FALSE(ir::from_json(broken, error).has_value());
    CHECK(error.message.find("with no `turn` block around it") != std::string::npos);
}

TEST_CASE("end turn: a Truce ends the turn at once, through a procedure or in the sequence", "[end-turn][engine]") {
    for (const char* inline_talks : {"false", "true"}) {
        INFO("talks_inline=" << inline_talks);
        const engine::game g(test::compile_repo_ruleset(truce, {{"talks_inline", inline_talks}}), 2);
        engine::state s(g, 1, test::explicit_chance());
        first_turn_with_talks(s, 5);
        // the rest of turn 1 did not run: P2 was not asked, no card round, no end phase
        CHECK(s.slot_value("truces") == 1);
        CHECK(s.slot_value("card_rounds") == 0);
        CHECK(s.slot_value("sieges_rolled") == 0);
        // turn 2 began: its recovery roll is not halved after the Truce
        CHECK(s.slot_value("turn_number") == 2);
        REQUIRE(s.is_chance_node());
        s.apply(test::outcome_with_value(s, 3));
        CHECK(s.slot_value("recovered") == 5);
        CHECK(s.slot_value("truce") == 0);
        // and it is played in full: both seats are asked to offer peace
        CHECK(s.current_player() == 0);
        s.apply(test::action_with_text(s, "no: do not offer peace"));
        CHECK(s.current_player() == 1);
    }
}

TEST_CASE("end turn: without a Truce the turn runs to its end", "[end-turn][engine]") {
    const engine::game g(test::compile_repo_ruleset(truce), 2);
    engine::state s(g, 1, test::explicit_chance());
    first_turn_with_talks(s, 3);  // the war goes on
    CHECK(s.slot_value("truces") == 0);
    CHECK(s.slot_value("turn_number") == 1);
    CHECK(s.current_player() == 1);  // P2 may offer peace in turn
}
