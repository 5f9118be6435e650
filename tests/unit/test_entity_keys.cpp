// Maps keyed by a kind of card or piece (docs/language.md §2, `K -> V`): one value per instance of
// the kind, counted within the kind. Before, the interpreter refused such a map as a game began
// ("unsupported map key type") and the checker kept one value for all the keys; and a map whose
// values are cards started at the wrong card.
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace wp;

namespace {

ir::id entity_named(const ir::ruleset& rs, const std::string& name) {
    for (ir::id e = 0; e < rs.entities.size(); ++e)
        if (rs.entities[e].name == name) return e;
    FAIL("no entity " << name);
    return ir::no_id;
}

}  // namespace

TEST_CASE("entity keys: one value per card of the kind, counted within the kind", "[engine][maps]") {
    // two generals, then the cards Red x2, Green, Blue: a card's instance is not its place in its kind
    const engine::game g(test::compile_repo_ruleset("tests/rulesets/entity-keys/card_keyed_plans.wph"), 2);
    const ir::ruleset& rs = g.ruleset();
    const std::int64_t blue = g.entity_first.at(entity_named(rs, "blue"));
    REQUIRE(blue != static_cast<std::int64_t>(entity_named(rs, "blue")));
    const std::int64_t cards_first = g.entity_first.at(entity_named(rs, "red"));
    REQUIRE(cards_first == 2);

    engine::state s(g, 3, test::sampled_chance());
    while (s.is_chance_node()) s.apply_sampled();
    // a map of cards starts at the card its declaration names, in every key
    CHECK(s.slot_value("lucky", 0, 0) == blue);
    CHECK(s.slot_value("lucky", 0, 1) == blue);

    // P1 lays a card in the first box: its own key (its place among the cards) and nothing else
    REQUIRE(s.current_player() == 0);
    const std::vector<std::int64_t> cards = s.option_values();
    REQUIRE(cards.size() == 2);
    const std::int64_t laid = cards[1];
    s.apply(1);
    for (int k = 0; k < 4; ++k) {
        INFO("key " << k << ", card laid " << laid);
        CHECK(s.slot_value("laid", 0, k) == (k == laid - cards_first ? 1 : 0));
    }
    CHECK(s.slot_value("boxed", 0, 0) == laid);
    CHECK(s.slot_value("boxed", 0, 1) == -1);

    // and the game plays to its end
    while (!s.is_terminal()) {
        if (s.is_chance_node()) s.apply_sampled();
        else s.apply(0);
    }
    for (int k = 0; k < 4; ++k) CHECK(s.slot_value("laid", 0, k) == 0);
}
