// Terms made with constant operands folded (verify/src/terms.hpp): a folded term is the constant
// Z3 gives the same term, and a term with an unknown operand is made as Z3's operator makes it.
#include "terms.hpp"
#include "source_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <random>
#include <vector>

namespace terms = wp::verify::detail::terms;

namespace {

// Whether a and b are the same term, or both constants of the same value.
bool same(const z3::expr& a, const z3::expr& b) { return z3::eq(a, b); }

// Z3's own verdict on a closed term.
bool equivalent(z3::context& c, const z3::expr& a, const z3::expr& b) {
    z3::solver s(c);
    s.add(a != b);
    return s.check() == z3::unsat;
}

}  // namespace

TEST_CASE("terms: constants fold, as Z3 evaluates them", "[verify][terms]") {
    z3::context c;
    const z3::expr t = c.bool_val(true), f = c.bool_val(false);
    const z3::expr three = c.int_val(3), four = c.int_val(4), minus = c.int_val(-2);
    CHECK(same(terms::eq(three, three), t));
    CHECK(same(terms::eq(three, four), f));
    CHECK(same(terms::ne(three, four), t));
    CHECK(same(terms::eq(t, f), f));
    CHECK(same(terms::eq(f, f), t));
    CHECK(same(terms::lt(minus, three), t));
    CHECK(same(terms::le(four, three), f));
    CHECK(same(terms::gt(four, three), t));
    CHECK(same(terms::ge(minus, minus), t));
    CHECK(same(terms::and_(t, f), f));
    CHECK(same(terms::or_(f, t), t));
    CHECK(same(terms::not_(f), t));
    CHECK(same(terms::implies(f, f), t));
    CHECK(same(terms::implies(t, f), f));
    CHECK(same(terms::ite(t, three, four), three));
    CHECK(same(terms::ite(f, three, four), four));
    CHECK(same(terms::add(three, minus), c.int_val(1)));
    CHECK(terms::number(c.int_val(-7)) == std::optional<std::int64_t>(-7));
    CHECK_FALSE(terms::number(t).has_value());
    CHECK(terms::truth(f) == std::optional<bool>(false));
    CHECK_FALSE(terms::truth(three).has_value());
}

TEST_CASE("terms: a known operand simplifies the connectives; otherwise Z3's own term", "[verify][terms]") {
    z3::context c;
    const z3::expr x = c.int_const("x"), y = c.int_const("y"), b = c.bool_const("b");
    const z3::expr t = c.bool_val(true), f = c.bool_val(false), zero = c.int_val(0);
    CHECK(same(terms::and_(t, b), b));
    CHECK(same(terms::and_(b, f), f));
    CHECK(same(terms::or_(b, f), b));
    CHECK(same(terms::or_(t, b), t));
    CHECK(same(terms::implies(t, b), b));
    CHECK(same(terms::implies(b, t), t));
    CHECK(same(terms::add(zero, x), x));
    CHECK(same(terms::ite(b, x, y), z3::ite(b, x, y)));
    CHECK(same(terms::eq(x, c.int_val(3)), x == c.int_val(3)));
    CHECK(same(terms::ne(x, y), x != y));
    CHECK(same(terms::lt(x, y), x < y));
    CHECK(same(terms::le(x, y), x <= y));
    CHECK(same(terms::gt(x, y), x > y));
    CHECK(same(terms::ge(x, y), x >= y));
    CHECK(same(terms::and_(b, x > 0), b && x > 0));
    CHECK(same(terms::or_(b, x > 0), b || x > 0));
    CHECK(same(terms::not_(b), !b));
    CHECK(same(terms::implies(b, x > 0), z3::implies(b, x > 0)));
    CHECK(same(terms::add(x, y), x + y));
    // an addition past the 64-bit range is left to Z3 (its integers are unbounded)
    const z3::expr big = c.int_val(INT64_MAX);
    CHECK_FALSE(terms::number(terms::add(big, c.int_val(1))).has_value());
    CHECK(equivalent(c, terms::add(big, c.int_val(1)), big + c.int_val(1)));
}

TEST_CASE("terms: every combination of small constants agrees with Z3", "[verify][terms]") {
    z3::context c;
    std::vector<z3::expr> ints, bools;
    for (int v = -2; v <= 2; ++v) ints.push_back(c.int_val(v));
    bools.push_back(c.bool_val(false));
    bools.push_back(c.bool_val(true));
    using binary = std::function<z3::expr(const z3::expr&, const z3::expr&)>;
    const std::vector<std::pair<binary, binary>> on_ints{
        {terms::eq, [](const z3::expr& a, const z3::expr& b) { return a == b; }},
        {terms::ne, [](const z3::expr& a, const z3::expr& b) { return a != b; }},
        {terms::lt, [](const z3::expr& a, const z3::expr& b) { return a < b; }},
        {terms::le, [](const z3::expr& a, const z3::expr& b) { return a <= b; }},
        {terms::gt, [](const z3::expr& a, const z3::expr& b) { return a > b; }},
        {terms::ge, [](const z3::expr& a, const z3::expr& b) { return a >= b; }},
        {terms::add, [](const z3::expr& a, const z3::expr& b) { return a + b; }}};
    const std::vector<std::pair<binary, binary>> on_bools{
        {terms::eq, [](const z3::expr& a, const z3::expr& b) { return a == b; }},
        {terms::and_, [](const z3::expr& a, const z3::expr& b) { return a && b; }},
        {terms::or_, [](const z3::expr& a, const z3::expr& b) { return a || b; }},
        {terms::implies, [](const z3::expr& a, const z3::expr& b) { return z3::implies(a, b); }}};
    std::size_t checked = 0;
    for (const auto& [folded, plain] : on_ints)
        for (const z3::expr& a : ints)
            for (const z3::expr& b : ints) {
                const z3::expr r = folded(a, b);
                INFO(plain(a, b).to_string());
                CHECK((terms::number(r) || terms::truth(r)));  // folded to a constant
                CHECK(equivalent(c, r, plain(a, b)));
                ++checked;
            }
    for (const auto& [folded, plain] : on_bools)
        for (const z3::expr& a : bools)
            for (const z3::expr& b : bools) {
                const z3::expr r = folded(a, b);
                INFO(plain(a, b).to_string());
                CHECK(terms::truth(r).has_value());
                CHECK(equivalent(c, r, plain(a, b)));
                ++checked;
            }
    for (const z3::expr& p : bools)
        for (const z3::expr& a : ints) {
            CHECK(equivalent(c, terms::ite(p, a, ints[0]), z3::ite(p, a, ints[0])));
            CHECK(equivalent(c, terms::not_(p), !p));
            ++checked;
        }
    CHECK(checked == 7 * 25 + 4 * 4 + 2 * 5);
}

// Z3 4.8.12's z3::abs makes its comparison, then `-x` (which releases the comparison when the
// compiler evaluates arguments left to right, as Clang does), then the `ite` over the freed
// comparison: the Clang build folded a cyclic term forever (docs/checker.md, "Where the code
// is"). The checker writes |x| as its own `ite`; this keeps it so.
TEST_CASE("terms: the checker never calls z3::abs, which frees a term in use under Clang", "[verify][terms]") {
    const std::filesystem::path dir = std::filesystem::path(WP_SOURCE_DIR) / "verify" / "src";
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(entry.path());
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ++files;
        INFO(entry.path().string());
        CHECK(text.find("z3::abs(") == std::string::npos);
    }
    CHECK(files > 10);
}
