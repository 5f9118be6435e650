// The checker's interval bounds (verify/src/intervals.hpp): what facts on single variables
// bound, how terms combine them, and that shared subterms cost once.
#include "intervals.hpp"

#include <catch2/catch.hpp>

using wp::verify::detail::interval_bounds;

TEST_CASE("intervals: bounds from facts, in every form they are written", "[verify][intervals]") {
    z3::context c;
    const z3::expr x = c.int_const("x"), y = c.int_const("y"), d = c.int_const("d");
    interval_bounds b;
    b.learn(x >= 0);
    b.learn(x <= 8);
    b.learn(c.int_val(1) <= d);  // number on the left
    b.learn(d < 7);
    b.learn(!(y < 2));           // a negated comparison
    b.learn(y <= 5);
    b.learn(x > 2);              // narrows the earlier bound
    REQUIRE(b.of(x));
    CHECK(b.of(x)->lo == 3);
    CHECK(b.of(x)->hi == 8);
    REQUIRE(b.of(d + 2));
    CHECK(b.of(d + 2)->lo == 3);
    CHECK(b.of(d + 2)->hi == 8);
    REQUIRE(b.of(x - y));
    CHECK(b.of(x - y)->lo == -2);
    CHECK(b.of(x - y)->hi == 6);
    REQUIRE(b.of(-3 * d));
    CHECK(b.of(-3 * d)->lo == -18);
    CHECK(b.of(-3 * d)->hi == -3);
    REQUIRE(b.of(z3::ite(x > 4, d, y - 10)));
    CHECK(b.of(z3::ite(x > 4, d, y - 10))->lo == -8);
    CHECK(b.of(z3::ite(x > 4, d, y - 10))->hi == 6);
}

TEST_CASE("intervals: what they cannot bound gives nothing", "[verify][intervals]") {
    z3::context c;
    const z3::expr x = c.int_const("x"), y = c.int_const("y"), z = c.int_const("z");
    interval_bounds b;
    b.learn(x >= 0);            // no upper bound
    b.learn(y >= 0);
    b.learn(y <= 3);
    b.learn(!(z == 2));         // bounds nothing
    b.learn(x + y <= 4);        // two variables: not a single-variable bound
    CHECK_FALSE(b.of(x));
    CHECK_FALSE(b.of(y + x));
    CHECK_FALSE(b.of(z));
    CHECK_FALSE(b.of(y * y));   // not linear
    CHECK_FALSE(b.of(y / 2));
    REQUIRE(b.of(y));
}

TEST_CASE("intervals: a term that shares its subterms is bounded in linear time", "[verify][intervals]") {
    z3::context c;
    const z3::expr x = c.int_const("x");
    interval_bounds b;
    b.learn(x >= 1);
    b.learn(x <= 2);
    // 200 levels, each reading the level below twice: a tree walk would take 2^200 steps
    z3::expr t = x;
    for (int i = 0; i < 200; ++i) t = z3::ite(x == i, t + 1, t - 1);
    const auto r = b.of(t);
    REQUIRE(r);
    CHECK(r->lo == -199);
    CHECK(r->hi == 202);
    // and one bigger than the budget is given up, not walked
    CHECK_FALSE(b.of(t, 50));
}

TEST_CASE("intervals: a branch is bounded by the condition that leads to it", "[verify][intervals]") {
    z3::context c;
    const z3::expr x = c.int_const("x"), y = c.int_const("y");
    interval_bounds b;
    b.learn(x >= -5);
    b.learn(x <= 3);
    b.learn(y >= 1);
    b.learn(y <= 7);
    // |x|, as the checker encodes a hex distance: ite(x >= 0, x, -x) is 0..5, not -3..5
    const auto abs = b.of(z3::ite(x >= 0, x, -x));
    REQUIRE(abs);
    CHECK(abs->lo == 0);
    CHECK(abs->hi == 5);
    // the larger and the smaller of two terms, however the comparison is written
    const auto larger = b.of(z3::ite(x >= y, x, y));
    REQUIRE(larger);
    CHECK(larger->lo == 1);
    CHECK(larger->hi == 7);
    const auto smaller = b.of(z3::ite(x < y, x, y));
    REQUIRE(smaller);
    CHECK(smaller->lo == -5);
    CHECK(smaller->hi == 3);
    // a branch the condition never reaches adds nothing: x is never 10 or more
    const auto unreached = b.of(z3::ite(x >= 10, x, c.int_val(0)));
    REQUIRE(unreached);
    CHECK(unreached->lo == 0);
    CHECK(unreached->hi == 0);
    // a negated condition sends the other way: not (x < 1) is x >= 1
    const auto negated = b.of(z3::ite(!(x < 1), x, c.int_val(9)));
    REQUIRE(negated);
    CHECK(negated->lo == 1);
    CHECK(negated->hi == 9);
}

TEST_CASE("intervals: a fact on a whole term bounds it where its parts do not", "[verify][intervals]") {
    z3::context c;
    const z3::expr which = c.int_const("which"), a = c.int_const("a"), b = c.int_const("b");
    interval_bounds b_;
    b_.learn(a >= 0);
    b_.learn(a <= 4);
    b_.learn(b >= 0);
    b_.learn(b <= 4);
    // a table read at count[which] + 1 only after `count[which] < 4` was checked
    const z3::expr count = z3::ite(which == 0, a, b);
    b_.learn(count < 4);
    const auto key = b_.of(count + 1);
    REQUIRE(key);
    CHECK(key->lo == 1);
    CHECK(key->hi == 4);
    // a term with no bounds of its parts, bounded on both sides by facts on it
    const z3::expr product = which * which;
    b_.learn(product >= 1);
    b_.learn(product <= 9);
    REQUIRE(b_.of(product));
    CHECK(b_.of(product)->hi == 9);
}
