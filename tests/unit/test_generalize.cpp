// A question's top levels with its deep subterms let go (verify/src/generalize.hpp): what it
// proves, what it cannot, and that it stays a generalization of the question.
#include "generalize.hpp"

#include <catch2/catch.hpp>

using wp::verify::detail::generalize;
using wp::verify::detail::larger_than;

namespace {

// A deep term over x: ((x*x + 1)*(x*x + 1) + 1) ... `levels` times.
z3::expr deep(z3::context& c, const z3::expr& x, int levels) {
    z3::expr e = x;
    for (int i = 0; i < levels; ++i) e = e * e + c.int_val(1);
    return e;
}

z3::check_result solve(const z3::expr& e) {
    z3::solver s(e.ctx());
    s.add(e);
    return s.check();
}

}  // namespace

TEST_CASE("generalize: a key clamped to the table is covered whatever lies under the clamp", "[checker]") {
    z3::context c;
    const z3::expr raw = deep(c, c.int_const("strength"), 20);
    const z3::expr low = z3::ite(raw < -4, c.int_val(-4), raw);
    const z3::expr key = z3::ite(low > 5, c.int_val(5), low);
    const z3::expr gap = key < -4 || key > 5;  // the question: a key outside the columns
    unsigned counter = 0;
    const auto g = generalize(gap, 6, 1000, counter);
    CHECK(g.replaced > 0);
    CHECK(solve(g.e) == z3::unsat);
    CHECK(counter == g.replaced);
}

TEST_CASE("generalize: a question that depends on the detail is not proved, and its models are the question's", "[checker]") {
    z3::context c;
    const z3::expr x = c.int_const("x");
    const z3::expr y = c.int_const("y");
    // never holds (six levels of x*x + 1 are at least 677), but only the whole term shows it
    const z3::expr q = deep(c, x, 6) == y && y < 3;
    REQUIRE(solve(q) == z3::unsat);
    unsigned counter = 0;
    const auto g = generalize(q, 4, 1000, counter);
    CHECK(g.replaced > 0);
    CHECK(solve(g.e) == z3::sat);
    // a question small enough is kept whole
    const auto whole = generalize(x + 1 > 2, 8, 1000, counter);
    CHECK(whole.replaced == 0);
    CHECK(z3::eq(whole.e, x + 1 > 2));
}

TEST_CASE("generalize: a question that can hold keeps a generalization that can, at every depth", "[checker]") {
    z3::context c;
    const z3::expr x = c.int_const("x"), y = c.int_const("y");
    const z3::expr shared = deep(c, x, 3);  // x = 0 makes it 2
    // shared occurs at depth 1 and deeper: let go at one depth, kept at the other, it must
    // still allow every model of the question (here x = 0, y = -4)
    const z3::expr q = shared > y && (shared + y) * 2 == y;
    REQUIRE(solve(q) == z3::sat);
    for (unsigned depth = 0; depth < 8; ++depth) {
        unsigned counter = 0;
        CHECK(solve(generalize(q, depth, 1000, counter).e) == z3::sat);
        CHECK(solve(generalize(q, 8, depth, counter).e) == z3::sat);  // by the budget
    }
}

TEST_CASE("generalize: larger_than counts distinct subterms", "[checker]") {
    z3::context c;
    const z3::expr x = c.int_const("x");
    CHECK_FALSE(larger_than(x + 1, 5));
    CHECK(larger_than(deep(c, x, 10), 5));
    // a shared subterm counts once: x*x + 1 built 30 times over itself is about 60 subterms, not 2^30
    CHECK_FALSE(larger_than(deep(c, x, 30), 200));
}
