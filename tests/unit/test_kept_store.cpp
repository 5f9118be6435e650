// States kept for replays (verify/src/symbolic.hpp, kept_store): chunks shared with the state
// kept before must never let one kept state show another's terms.
#include "symbolic.hpp"

#include <catch2/catch.hpp>

namespace {

using wp::verify::detail::kept_store;
using wp::verify::detail::store;

store numbered(z3::context& c, std::size_t values, std::size_t loc, int base) {
    store st;
    for (std::size_t i = 0; i < values; ++i) st.values.push_back(c.int_val(base + static_cast<int>(i)));
    for (std::size_t i = 0; i < loc; ++i) st.loc.push_back(c.int_val(-base - static_cast<int>(i)));
    return st;
}

void shows(const kept_store& k, const store& st) {
    REQUIRE(k.value_count() == st.values.size());
    REQUIRE(k.loc_count() == st.loc.size());
    for (std::size_t i = 0; i < st.values.size(); ++i) CHECK(z3::eq(k.value(i), st.values[i]));
    for (std::size_t i = 0; i < st.loc.size(); ++i) CHECK(z3::eq(k.loc(i), st.loc[i]));
    CHECK(k.same(st));
}

}  // namespace

TEST_CASE("a kept state shows its own terms, whatever it shares with the one before", "[verify][replay]") {
    z3::context c;
    // 150 values and 70 zones: chunks of 64 straddle the values' end
    store first = numbered(c, 150, 70, 1000);
    const kept_store a(first, nullptr);
    shows(a, first);

    store second = first;
    second.values[3] = c.int_val(7);     // first chunk differs
    second.loc[69] = c.int_val(-7);      // last chunk differs
    second.values[140] = c.int_val(8);   // the chunk holding the values' end and the first zones
    const kept_store b(second, &a);
    shows(b, second);
    shows(a, first);  // the earlier state is untouched
    CHECK_FALSE(b.same(first));
    CHECK_FALSE(a.same(second));

    // a state of another shape shares nothing, and is kept whole
    store other = numbered(c, 10, 3, 5);
    const kept_store d(other, &b);
    shows(d, other);
    CHECK_FALSE(d.same(second));
}
