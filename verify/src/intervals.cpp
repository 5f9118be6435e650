#include "intervals.hpp"

#include <algorithm>
#include <limits>

namespace wp::verify::detail {

namespace {

__extension__ typedef __int128 wide;  // sums and products of 64-bit ends, checked before narrowing back

constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min(), highest = std::numeric_limits<std::int64_t>::max();

bool is_variable(const z3::expr& e) { return e.is_const() && !e.is_numeral() && e.is_int(); }
// A term a fact may bound: a variable, or any integer term that is not a number (the value a
// table's key reads, compared in the condition before it: tests_taken[a] < 4).
bool is_bounded_term(const z3::expr& e) { return e.is_int() && !e.is_numeral(); }

// An interval from 128-bit ends, or none when they leave 64 bits.
std::optional<interval> fit(wide lo, wide hi) {
    if (lo < lowest || hi > highest) return std::nullopt;
    return interval{static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)};
}

// The comparison a ≥ b as (a, b, strict), whichever way it is written; none for anything else.
struct at_least {
    z3::expr a, b;
    bool strict;
};
std::optional<at_least> as_at_least(const z3::expr& c, bool holds) {
    if (!c.is_app()) return std::nullopt;
    Z3_decl_kind k = c.decl().decl_kind();
    z3::expr e = c;
    if (k == Z3_OP_NOT) {
        e = c.arg(0);
        if (!e.is_app()) return std::nullopt;
        k = e.decl().decl_kind();
        holds = !holds;
    }
    if (e.num_args() != 2 || !e.arg(0).is_int()) return std::nullopt;
    const z3::expr l = e.arg(0), r = e.arg(1);
    // where the condition holds (or fails, for the else branch): l ≥ r, l > r, r ≥ l or r > l
    switch (k) {
        case Z3_OP_GE: return holds ? at_least{l, r, false} : at_least{r, l, true};
        case Z3_OP_GT: return holds ? at_least{l, r, true} : at_least{r, l, false};
        case Z3_OP_LE: return holds ? at_least{r, l, false} : at_least{l, r, true};
        case Z3_OP_LT: return holds ? at_least{r, l, true} : at_least{l, r, false};
        default: return std::nullopt;
    }
}

bool negation_of(const z3::expr& e, const z3::expr& x) {
    if (!e.is_app()) return false;
    if (e.decl().decl_kind() == Z3_OP_UMINUS) return z3::eq(e.arg(0), x);
    std::int64_t m = 0;
    return e.decl().decl_kind() == Z3_OP_MUL && e.num_args() == 2 && e.arg(0).is_numeral_i64(m) && m == -1 && z3::eq(e.arg(1), x);
}

}  // namespace

// ite(a ≥ b, a, b) is the larger of a and b, ite(a ≥ b, b, a) the smaller (any comparison).
std::optional<interval> interval_bounds::min_or_max(const z3::expr& c, const z3::expr& t, const z3::expr& e,
                                                    const interval& x, const interval& y) {
    const std::optional<at_least> g = as_at_least(c, true);
    if (!g) return std::nullopt;
    if (z3::eq(t, g->a) && z3::eq(e, g->b)) return interval{std::max(x.lo, y.lo), std::max(x.hi, y.hi)};
    if (z3::eq(t, g->b) && z3::eq(e, g->a)) return interval{std::min(x.lo, y.lo), std::min(x.hi, y.hi)};
    return std::nullopt;
}

// Narrows a branch's interval by the condition that leads to it, where the branch is one side
// of a comparison with a number (or its negation); false when nothing of it is left.
bool interval_bounds::within_branch(const z3::expr& c, bool holds, const z3::expr& branch, interval& x) {
    const std::optional<at_least> g = as_at_least(c, holds);
    if (!g) return true;
    std::int64_t k = 0;
    const wide step = g->strict ? 1 : 0;
    wide lo = x.lo, hi = x.hi;
    if (g->b.is_numeral_i64(k)) {  // a ≥ k
        if (z3::eq(branch, g->a)) lo = std::max<wide>(lo, static_cast<wide>(k) + step);
        else if (negation_of(branch, g->a)) hi = std::min<wide>(hi, -static_cast<wide>(k) - step);
    } else if (g->a.is_numeral_i64(k)) {  // k ≥ b
        if (z3::eq(branch, g->b)) hi = std::min<wide>(hi, static_cast<wide>(k) - step);
        else if (negation_of(branch, g->b)) lo = std::max<wide>(lo, -static_cast<wide>(k) + step);
    }
    if (lo > hi) return false;
    x = interval{static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)};
    return true;
}

void interval_bounds::narrow(const z3::expr& var, std::int64_t lo, std::int64_t hi) {
    auto [it, fresh] = vars_.try_emplace(var.id(), interval{lo, hi});
    if (fresh) return;
    it->second.lo = std::max(it->second.lo, lo);
    it->second.hi = std::min(it->second.hi, hi);
}

void interval_bounds::learn(const z3::expr& fact) {
    if (!fact.is_app()) return;
    Z3_decl_kind k = fact.decl().decl_kind();
    z3::expr f = fact;
    bool negated = false;
    if (k == Z3_OP_NOT) {
        f = fact.arg(0);
        if (!f.is_app()) return;
        k = f.decl().decl_kind();
        negated = true;
    }
    if (f.num_args() != 2) return;
    z3::expr a = f.arg(0), b = f.arg(1);
    std::int64_t c = 0;
    // written as (var op number): a number on the left mirrors the comparison
    if (a.is_numeral_i64(c) && is_bounded_term(b)) {
        std::swap(a, b);
        switch (k) {
            case Z3_OP_LE: k = Z3_OP_GE; break;
            case Z3_OP_GE: k = Z3_OP_LE; break;
            case Z3_OP_LT: k = Z3_OP_GT; break;
            case Z3_OP_GT: k = Z3_OP_LT; break;
            default: break;
        }
    } else if (!(is_bounded_term(a) && b.is_numeral_i64(c))) {
        return;
    }
    if (negated) {
        switch (k) {
            case Z3_OP_LE: k = Z3_OP_GT; break;
            case Z3_OP_GE: k = Z3_OP_LT; break;
            case Z3_OP_LT: k = Z3_OP_GE; break;
            case Z3_OP_GT: k = Z3_OP_LE; break;
            default: return;  // not (x == c) bounds nothing
        }
    }
    switch (k) {
        case Z3_OP_LE: narrow(a, lowest, c); break;
        case Z3_OP_GE: narrow(a, c, highest); break;
        case Z3_OP_LT: if (c > lowest) narrow(a, lowest, c - 1); break;
        case Z3_OP_GT: if (c < highest) narrow(a, c + 1, highest); break;
        case Z3_OP_EQ: narrow(a, c, c); break;
        default: break;
    }
}

std::optional<interval> interval_bounds::of(const z3::expr& t, std::size_t budget) {
    memo_.clear();
    left_ = budget;
    return bound(t);
}

std::optional<interval> interval_bounds::bound(const z3::expr& t) {
    if (auto it = memo_.find(t.id()); it != memo_.end()) return it->second;
    if (left_ == 0) return std::nullopt;
    --left_;
    std::optional<interval> x = of_uncached(t);
    // what a fact says of the term itself narrows what its parts give
    if (!is_variable(t)) {
        if (auto it = vars_.find(t.id()); it != vars_.end()) {
            const interval& said = it->second;
            if (x) x = interval{std::max(x->lo, said.lo), std::min(x->hi, said.hi)};
            else if (said.lo != lowest && said.hi != highest) x = said;
            if (x && x->lo > x->hi) x = std::nullopt;  // facts that contradict: no bound claimed
        }
    }
    memo_.emplace(t.id(), x);
    return x;
}

std::optional<interval> interval_bounds::of_uncached(const z3::expr& t) {
    std::int64_t c = 0;
    if (t.is_numeral_i64(c)) return interval{c, c};
    if (is_variable(t)) {
        auto it = vars_.find(t.id());
        if (it == vars_.end() || it->second.lo == lowest || it->second.hi == highest || it->second.lo > it->second.hi)
            return std::nullopt;
        return it->second;
    }
    if (!t.is_app() || !t.is_int()) return std::nullopt;
    switch (t.decl().decl_kind()) {
        case Z3_OP_ADD: {
            wide lo = 0, hi = 0;
            for (unsigned i = 0; i < t.num_args(); ++i) {
                const std::optional<interval> x = bound(t.arg(i));
                if (!x) return std::nullopt;
                lo += x->lo;
                hi += x->hi;
            }
            return fit(lo, hi);
        }
        case Z3_OP_SUB: {
            std::optional<interval> x = bound(t.arg(0));
            if (!x) return std::nullopt;
            wide lo = x->lo, hi = x->hi;
            for (unsigned i = 1; i < t.num_args(); ++i) {
                const std::optional<interval> y = bound(t.arg(i));
                if (!y) return std::nullopt;
                lo -= y->hi;
                hi -= y->lo;
            }
            return fit(lo, hi);
        }
        case Z3_OP_UMINUS: {
            const std::optional<interval> x = bound(t.arg(0));
            if (!x) return std::nullopt;
            return fit(-static_cast<wide>(x->hi), -static_cast<wide>(x->lo));
        }
        case Z3_OP_MUL: {
            if (t.num_args() != 2) return std::nullopt;
            std::int64_t m = 0;
            z3::expr other = t.arg(1);
            if (!t.arg(0).is_numeral_i64(m)) {
                if (!t.arg(1).is_numeral_i64(m)) return std::nullopt;
                other = t.arg(0);
            }
            const std::optional<interval> x = bound(other);
            if (!x) return std::nullopt;
            const wide a = static_cast<wide>(x->lo) * m, b = static_cast<wide>(x->hi) * m;
            return fit(std::min(a, b), std::max(a, b));
        }
        case Z3_OP_ITE: {
            std::optional<interval> x = bound(t.arg(1)), y = bound(t.arg(2));
            if (!x || !y) return std::nullopt;
            if (const std::optional<interval> m = min_or_max(t.arg(0), t.arg(1), t.arg(2), *x, *y)) return m;
            // each branch only where the condition sends play to it: |x| is ite(x >= 0, x, -x)
            // (a branch the condition never reaches adds nothing)
            const bool then_reached = within_branch(t.arg(0), true, t.arg(1), *x);
            const bool else_reached = within_branch(t.arg(0), false, t.arg(2), *y);
            if (!then_reached) return else_reached ? y : std::nullopt;
            if (!else_reached) return x;
            return interval{std::min(x->lo, y->lo), std::max(x->hi, y->hi)};
        }
        default: return std::nullopt;
    }
}

}  // namespace wp::verify::detail
