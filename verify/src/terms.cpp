#include "terms.hpp"

#include <functional>

namespace wp::verify::detail::terms {

std::optional<std::int64_t> number(const z3::expr& e) {
    std::int64_t v = 0;
    if (Z3_get_ast_kind(e.ctx(), e) == Z3_NUMERAL_AST && Z3_get_numeral_int64(e.ctx(), e, &v)) return v;
    return std::nullopt;
}

std::optional<bool> truth(const z3::expr& e) {
    switch (Z3_get_bool_value(e.ctx(), e)) {
        case Z3_L_TRUE: return true;
        case Z3_L_FALSE: return false;
        default: return std::nullopt;
    }
}

namespace {

// Both operands known: integers, or booleans as 0 and 1. (Asked of the AST kinds first: the C++
// API's sort test makes and frees a sort object each time.)
bool both(const z3::expr& a, const z3::expr& b, std::int64_t& x, std::int64_t& y) {
    const Z3_context c = a.ctx();
    const Z3_ast_kind ka = Z3_get_ast_kind(c, a), kb = Z3_get_ast_kind(c, b);
    if (ka == Z3_NUMERAL_AST && kb == Z3_NUMERAL_AST)
        return Z3_get_numeral_int64(c, a, &x) && Z3_get_numeral_int64(c, b, &y) &&
               Z3_get_sort_kind(c, Z3_get_sort(c, a)) == Z3_get_sort_kind(c, Z3_get_sort(c, b));
    if (ka != Z3_APP_AST || kb != Z3_APP_AST) return false;
    const Z3_lbool p = Z3_get_bool_value(c, a), q = Z3_get_bool_value(c, b);
    if (p == Z3_L_UNDEF || q == Z3_L_UNDEF) return false;
    x = p == Z3_L_TRUE;
    y = q == Z3_L_TRUE;
    return true;
}

}  // namespace

z3::expr eq(const z3::expr& a, const z3::expr& b) {
    std::int64_t x = 0, y = 0;
    return both(a, b, x, y) ? a.ctx().bool_val(x == y) : a == b;
}
z3::expr ne(const z3::expr& a, const z3::expr& b) {
    std::int64_t x = 0, y = 0;
    return both(a, b, x, y) ? a.ctx().bool_val(x != y) : a != b;
}
namespace {

// An order test: folded when both operands are numbers, else made by Z3's operator.
template <class Test, class Make>
z3::expr order(const z3::expr& a, const z3::expr& b, Test test, Make make) {
    const auto x = number(a), y = number(b);
    return x && y ? a.ctx().bool_val(test(*x, *y)) : make(a, b);
}

}  // namespace

z3::expr lt(const z3::expr& a, const z3::expr& b) {
    return order(a, b, std::less<>(), [](const z3::expr& p, const z3::expr& q) { return p < q; });
}
z3::expr le(const z3::expr& a, const z3::expr& b) {
    return order(a, b, std::less_equal<>(), [](const z3::expr& p, const z3::expr& q) { return p <= q; });
}
z3::expr gt(const z3::expr& a, const z3::expr& b) {
    return order(a, b, std::greater<>(), [](const z3::expr& p, const z3::expr& q) { return p > q; });
}
z3::expr ge(const z3::expr& a, const z3::expr& b) {
    return order(a, b, std::greater_equal<>(), [](const z3::expr& p, const z3::expr& q) { return p >= q; });
}

z3::expr and_(const z3::expr& a, const z3::expr& b) {
    if (const auto p = truth(a)) return *p ? b : a;
    if (const auto q = truth(b)) return *q ? a : b;
    return a && b;
}
z3::expr or_(const z3::expr& a, const z3::expr& b) {
    if (const auto p = truth(a)) return *p ? a : b;
    if (const auto q = truth(b)) return *q ? b : a;
    return a || b;
}
z3::expr not_(const z3::expr& a) {
    if (const auto p = truth(a)) return a.ctx().bool_val(!*p);
    return !a;
}
z3::expr implies(const z3::expr& a, const z3::expr& b) {
    if (const auto p = truth(a)) return *p ? b : a.ctx().bool_val(true);
    if (const auto q = truth(b); q && *q) return b;
    return z3::implies(a, b);
}
z3::expr ite(const z3::expr& c, const z3::expr& a, const z3::expr& b) {
    if (const auto p = truth(c)) return *p ? a : b;
    return z3::ite(c, a, b);
}

z3::expr add(const z3::expr& a, const z3::expr& b) {
    const auto x = number(a), y = number(b);
    std::int64_t sum = 0;
    if (x && y && !__builtin_add_overflow(*x, *y, &sum)) return a.ctx().int_val(sum);
    if (x && *x == 0) return b;
    if (y && *y == 0) return a;
    return a + b;
}

}  // namespace wp::verify::detail::terms
