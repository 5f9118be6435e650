// detail::large_groups: what the large groups of facts decided before say of a new one
// (checker::groups_hold).
#include "large_groups.hpp"

#include <catch2/catch.hpp>

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
