// detail::large_groups: what the large groups of facts decided before say of a new one
// (checker::groups_hold).
#include "large_groups.hpp"

#include <catch2/catch.hpp>

#include <map>

using wp::verify::detail::large_groups;

TEST_CASE("large groups: inside one that holds it holds; holding an undecided one it is undecided", "[verify][groups]") {
    large_groups known;
    CHECK_FALSE(known.of({1, 2, 3}).inside_held);
    CHECK_FALSE(known.of({1, 2, 3}).undecided);

    known.add_held({1, 2, 3, 5, 8});
    const large_groups::verdict inside = known.of({2, 5, 8});
    REQUIRE(inside.inside_held);
    CHECK(known.held(*inside.inside_held) == large_groups::group{1, 2, 3, 5, 8});
    CHECK_FALSE(known.of({2, 5, 9}).inside_held);       // 9 is not in it
    CHECK_FALSE(known.of({1, 2, 3, 5, 8, 9}).inside_held);  // more than it: not known to hold

    known.add_undecided({10, 20});
    CHECK(known.of({10, 15, 20}).undecided);
    CHECK_FALSE(known.of({10, 15}).undecided);  // part of it only: may be decided
    CHECK_FALSE(known.of({20}).undecided);

    // a group inside a held one is answered by it even when it holds an undecided one: a model is
    // an answer, an undecided group only a guess
    known.add_held({10, 20, 30});
    CHECK(known.of({10, 20}).inside_held);
    CHECK_FALSE(known.of({10, 20}).undecided);
}

TEST_CASE("large groups: a group asked with the larger limit is undecided only by one undecided within it", "[verify][groups]") {
    large_groups known;
    known.add_undecided({1, 2});  // within the ordinary limit
    CHECK(known.of({1, 2, 3}).undecided);
    CHECK_FALSE(known.of({1, 2, 3}, true).undecided);  // it gets the larger limit: asked
    known.add_undecided({1, 2, 3, 4}, true);          // within the larger limit
    CHECK(known.of({1, 2, 3, 4, 5}, true).undecided);
    CHECK(known.of({1, 2, 3, 4, 5}).undecided);
    CHECK_FALSE(known.of({1, 2, 3, 5}, true).undecided);
}

TEST_CASE("large groups: the nearest group is the large one sharing the most facts, the first of equals", "[verify][groups]") {
    using wp::verify::detail::nearest_group;
    using wp::verify::detail::shared_facts;
    CHECK(shared_facts({1, 3, 5, 7}, {2, 3, 4, 7, 9}) == 2);
    CHECK(shared_facts({}, {1}) == 0);

    std::map<large_groups::group, int> known;
    CHECK(nearest_group(known, {1, 2, 3}, 2) == nullptr);
    known[{1, 2}] = 0;              // shares two, but not over the size asked for
    known[{2, 3, 4, 5}] = 1;        // shares two
    known[{1, 3, 10, 11}] = 2;      // shares two, later in the map's order than {1, 2}'s but before {2, ...}
    known[{7, 8, 9}] = 3;           // shares none
    const auto* near = nearest_group(known, {1, 2, 3}, 2);
    REQUIRE(near != nullptr);
    CHECK(near->second == 2);  // the first of the two that share two, in the map's order
    known[{1, 2, 3, 4, 5, 6}] = 4;  // holds all three
    CHECK(nearest_group(known, {1, 2, 3}, 2)->second == 4);
    CHECK(nearest_group(known, {20, 21}, 2) == nullptr);
}
