// detail::id_marks: the checker's "seen already?" set of small ids, emptied in constant time.
#include "id_marks.hpp"

#include <catch2/catch.hpp>

using wp::verify::detail::id_marks;

TEST_CASE("id marks: an id is marked once per round, and a new round forgets every mark", "[verify][id_marks]") {
    id_marks m;
    CHECK_FALSE(m.has(0));
    CHECK_FALSE(m.has(1'000'000));  // never marked, beyond what is stored: not there
    CHECK(m.mark(7));
    CHECK_FALSE(m.mark(7));  // already there
    CHECK(m.has(7));
    CHECK(m.mark(123'456));  // grows to hold it
    CHECK(m.has(123'456));
    CHECK_FALSE(m.has(8));
    m.clear();
    CHECK_FALSE(m.has(7));
    CHECK_FALSE(m.has(123'456));
    CHECK(m.mark(7));
    for (int i = 0; i < 1000; ++i) m.clear();
    CHECK_FALSE(m.has(7));
}
