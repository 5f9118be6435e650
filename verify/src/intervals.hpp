// Integer intervals of Z3 terms, from the simple bounds that facts state on single variables
// (x <= 5, 2 <= x, x == 3, not (x < 1)) or on whole terms (the value a condition compared with a
// number before a table reads it): a cheap proof that a value stays within a range, asked
// before any solver question. Terms it cannot bound (products of variables, divisions, anything
// not linear) give no interval.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace wp::verify::detail {

struct interval {
    std::int64_t lo = 0, hi = 0;
};

class interval_bounds {
public:
    // Takes what a fact (a conjunct of the path) says about one variable or term, if anything.
    void learn(const z3::expr& fact);
    // The interval of an integer term, when every variable in it is bounded on both sides.
    // Terms share subterms: each is bounded once, and a term of more than `budget` distinct
    // subterms is not bounded at all.
    std::optional<interval> of(const z3::expr& term, std::size_t budget = 4096);

private:
    std::optional<interval> bound(const z3::expr& term);
    std::optional<interval> of_uncached(const z3::expr& term);
    void narrow(const z3::expr& var, std::int64_t lo, std::int64_t hi);
    static std::optional<interval> min_or_max(const z3::expr& c, const z3::expr& t, const z3::expr& e,
                                              const interval& x, const interval& y);
    static bool within_branch(const z3::expr& c, bool holds, const z3::expr& branch, interval& x);
    std::unordered_map<unsigned, interval> vars_;  // by the variable's (or term's) id
    std::unordered_map<unsigned, std::optional<interval>> memo_;  // during one of()
    std::size_t left_ = 0;
};

}  // namespace wp::verify::detail
