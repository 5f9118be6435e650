// Numbers counted at run time: a choice of a number from a range `lo..hi` (with `where`),
// loops and aggregates over ranges, and dice counted by an expression `(e)dM`, step by step in
// the interpreter; the IR's JSON keeps both new nodes; a corrupted dice count is refused.
#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/ir/json.hpp"
#include "test_support.hpp"

#include <catch2/catch.hpp>

using namespace wp;

namespace {

ir::ruleset compile_counts(const std::string& file, const std::map<std::string, std::string>& options = {}) {
    return test::compile_repo_ruleset("tests/rulesets/counts/" + file, options);
}

using test::action_with_text;
using test::explicit_chance;
using test::outcome_with_value;
using test::texts;

}  // namespace

TEST_CASE("counts: number choices, ranges and counted dice step by step", "[engine][counts]") {
    const engine::game g(compile_counts("statements.wph"), 2);
    engine::state s(g, 3, explicit_chance());

    // choose c in 2..8 where c is even: the numbers that satisfy `where`, in order
    REQUIRE(s.current_player() == 0);
    CHECK(texts(s) == std::vector<std::string>{"2", "4", "6", "8"});
    s.apply(action_with_text(s, "4"));
    s.apply(action_with_text(s, "8"));
    CHECK(s.slot_value("cubes", 0) == 4);
    CHECK(s.slot_value("cubes", 1) == 8);

    // a choice with no `by` is chance: 0..k where n != 1, k = 3
    REQUIRE(s.is_chance_node());
    std::vector<std::int64_t> values;
    for (const engine::chance_outcome& o : s.chance_outcomes()) values.push_back(o.value);
    CHECK(values == std::vector<std::int64_t>{0, 2, 3});
    s.apply(outcome_with_value(s, 3));
    CHECK(s.slot_value("picked") == 3);

    // computed high end: 1..min(cubes, 5)
    CHECK(texts(s) == std::vector<std::string>{"1", "2", "3", "4"});
    s.apply(action_with_text(s, "2"));
    CHECK(texts(s) == std::vector<std::string>{"1", "2", "3", "4", "5"});
    s.apply(action_with_text(s, "5"));
    CHECK(s.slot_value("picked") == 10);

    // for each over 1..3, an empty range k..k-1, and the aggregates over 0..3, 2..4, 1..3
    CHECK(s.slot_value("looped") == 6 + 6 + 2 + 9 + 1);
    CHECK(s.slot_value("empty_rounds") == 0);

    // tower(P1): (4)d[0..1] is one chance event, binomial weights out of 16
    REQUIRE(s.is_chance_node());
    const auto tower = s.chance_outcomes();
    REQUIRE(tower.size() == 5);
    const std::uint64_t binomial[] = {1, 4, 6, 4, 1};
    for (std::size_t i = 0; i < tower.size(); ++i) {
        CHECK(tower[i].value == static_cast<std::int64_t>(i));
        CHECK(tower[i].weight == binomial[i]);
        CHECK(tower[i].total == 16);
    }
    s.apply(outcome_with_value(s, 3));
    REQUIRE(s.is_chance_node());  // then the fixed 1d[0..1]
    s.apply(outcome_with_value(s, 1));
    CHECK(s.slot_value("rolled") == 4);
}

TEST_CASE("counts: a count of dice below 0 or above its limit at run time is an engine error", "[engine][counts]") {
    for (const char* fault : {"negative", "above"}) {
        const engine::game g(compile_counts("dice_count_fault.wph", {{"fault", fault}}), 2);
        INFO(fault);
        engine::state_options sampled;
        sampled.sampled_chance = true;
        CHECK_THROWS_WITH(engine::state(g, 1, sampled),
                          Catch::Contains(std::string(fault) == "negative" ? "a negative count of dice (-3) (roll bonus)"
                                                                          : "a count of dice (5) above its limit 4 (roll bonus)"));
    }
}

TEST_CASE("counts: ranges and counted dice survive the IR's JSON, and a bad count limit is refused", "[ir][json][counts]") {
    const ir::ruleset rs = compile_counts("statements.wph");
    const nlohmann::json once = ir::to_json(rs);
    test::json_round_trip(rs);
    ir::read_error error;

    // a dice_count whose lower limit is above the term's upper limit
    nlohmann::json bad = once;
    bool changed = false;
    for (auto& n : bad["nodes"])
        if (n["op"] == "dice-count" && !changed) {
            n["value"] = 99;
            changed = true;
        }
    REQUIRE(changed);
    CHECK_FALSE(ir::from_json(bad, error).has_value());
    CHECK(error.message.find("lower limit of a dice count") != std::string::npos);

    // a counted term of 9000 d6: too many outcomes for the engine to list (it would not finish)
    nlohmann::json many = once;
    changed = false;
    for (auto& n : many["nodes"])
        if (n["op"] == "dice-count" && !changed) {
            many["dice_terms"][n["ref"].get<std::size_t>()]["count"] = 9000;
            changed = true;
        }
    REQUIRE(changed);
    CHECK_FALSE(ir::from_json(many, error).has_value());
    CHECK(error.message.find("too many outcomes to list") != std::string::npos);

    // a range whose numbers are not a bounded span
    nlohmann::json wide = once;
    changed = false;
    for (auto& n : wide["nodes"])
        if (n["op"] == "range" && !changed) {
            n["type"] = 2;  // int
            changed = true;
        }
    REQUIRE(changed);
    CHECK_FALSE(ir::from_json(wide, error).has_value());
}
