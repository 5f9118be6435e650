// Zones per map location and stacks that move as one (docs/language.md §3):
// tests/rulesets/stacks, played step by step.
#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace wp;

namespace {

std::size_t node_named(const ir::ruleset& rs, const std::string& name) {
    for (const ir::map& m : rs.maps)
        for (std::size_t i = 0; i < m.nodes.size(); ++i)
            if (m.nodes[i].name == name) return i;
    FAIL("no location " << name);
    return 0;
}

}  // namespace

TEST_CASE("stacks: a zone per city, counted and moved whole", "[engine][stacks]") {
    const ir::ruleset rs = test::compile_repo_ruleset("tests/rulesets/stacks/stacks.wph");
    // the IR: one zone per area of the map, typed map_of(area, zone)
    const ir::zone* stack = nullptr;
    for (const ir::zone& z : rs.zones)
        if (z.name == "stack") stack = &z;
    REQUIRE(stack != nullptr);
    REQUIRE(stack->map != ir::no_id);
    CHECK_FALSE(stack->per_player);
    const std::size_t cities = rs.maps.at(stack->map).nodes.size();
    CHECK(cities == 6);

    const engine::game g(rs, 2);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        engine::state s(g, seed, test::sampled_chance());
        // setup: four regiments at each home city, nothing elsewhere
        CHECK(s.zone_contents("stack", static_cast<int>(node_named(rs, "vienna"))).size() == 4);
        CHECK(s.zone_contents("stack", static_cast<int>(node_named(rs, "magdeburg"))).size() == 4);
        CHECK(s.zone_contents("stack", static_cast<int>(node_named(rs, "prague"))).empty());
        std::uint64_t pick = seed;
        for (int step = 0; step < 400 && !s.is_terminal(); ++step) {
            const auto actions = s.legal_actions();
            REQUIRE_FALSE(actions.empty());
            pick = pick * 6364136223846793005ULL + 1442695040888963407ULL;
            s.apply(actions[static_cast<std::size_t>((pick >> 33) % actions.size())].id);
            // every regiment is in exactly one place: the pool, a city's stack or eliminated;
            // no city ever holds more than the stacking limit at a decision
            std::size_t total = s.zone_contents("pool").size() + s.zone_contents("eliminated").size();
            for (std::size_t c = 0; c < cities; ++c) {
                const std::size_t here = s.zone_contents("stack", static_cast<int>(c)).size();
                CHECK(here <= 8);
                total += here;
            }
            CHECK(total == 24);
        }
        CHECK(s.is_terminal());
        CHECK(s.violated_invariants().empty());
    }
}
