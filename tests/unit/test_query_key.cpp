// The proof cache's key (verify/src/query_key.hpp): the structure of a query, not its names.
#include "query_key.hpp"

#include <catch2/catch.hpp>

using wp::verify::detail::query_key;

namespace {

z3::expr_vector query(z3::context& c, const char* x, const char* y, int bound) {
    z3::expr_vector v(c);
    const z3::expr a = c.int_const(x), b = c.int_const(y);
    v.push_back(a + b > c.int_val(bound));
    v.push_back(a < 3 && b < 3);
    return v;
}

}  // namespace

TEST_CASE("query key: renamed constants give the same key, another number or order or sort another", "[cache]") {
    z3::context c;
    const auto k = query_key(query(c, "gold_1", "turn_2", 5));
    REQUIRE(k);
    CHECK(k->size() == 64);
    CHECK(query_key(query(c, "gold_17", "turn_40", 5)) == k);
    CHECK(query_key(query(c, "gold_1", "turn_2", 6)) != k);
    // the same constants in the other roles: a + b > 5 with b's bound first is another question
    z3::expr_vector swapped(c);
    const z3::expr a = c.int_const("gold_1"), b = c.int_const("turn_2");
    swapped.push_back(a + b > c.int_val(5));
    swapped.push_back(a < 3 && b < 4);
    CHECK(query_key(swapped) != k);
    // one constant used twice is not two constants
    z3::expr_vector one(c), two(c);
    one.push_back(a + a > 5);
    two.push_back(a + b > 5);
    CHECK(query_key(one) != query_key(two));
    z3::expr_vector real(c);
    const z3::expr r = c.real_const("gold_1"), s = c.real_const("turn_2");
    real.push_back(r + s > c.real_val(5));
    real.push_back(r < 3 && s < 3);
    CHECK(query_key(real) != k);
    // in another context, the same question has the same key
    z3::context d;
    CHECK(query_key(query(d, "x", "y", 5)) == k);
}
