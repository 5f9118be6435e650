// The symbolic execution's constant folding (verify/src/folding.hpp): what it settles, what it
// leaves, that it is sound (checked against Z3 on generated terms), and that it remembers.
#include "folding.hpp"

#include <catch2/catch.hpp>

#include <random>

using wp::verify::detail::constant_folding;

namespace {

bool folds_true(constant_folding& f, const z3::expr& e) { return f.is_true(e); }
bool folds_false(constant_folding& f, const z3::expr& e) { return f.is_false(e); }

}  // namespace

TEST_CASE("folding: constants settle conditions through arithmetic, if-then-else and connectives", "[verify][folding]") {
    z3::context c;
    const z3::expr x = c.int_const("x"), b = c.bool_const("b");
    const z3::expr three = c.int_val(3), four = c.int_val(4);
    constant_folding f(c);
    CHECK(folds_true(f, three + four == c.int_val(7)));
    CHECK(folds_false(f, three * four < c.int_val(12)));
    CHECK(folds_true(f, three - four == -c.int_val(1)));
    CHECK(folds_true(f, z3::ite(three < four, c.int_val(1), x) == c.int_val(1)));  // the branch taken
    CHECK(folds_true(f, z3::ite(b, three, three) == three));                       // both branches alike
    CHECK(folds_false(f, b && three > four));                                       // an absorbing argument
    CHECK(folds_true(f, b || three <= four));
    CHECK(folds_true(f, z3::implies(three > four, b)));
    CHECK(folds_true(f, x + 1 == x + 1));                                           // the same term
    CHECK(folds_true(f, x <= x));
    CHECK(folds_false(f, x < x));
    z3::expr_vector known(c), unknown(c);
    for (int v : {3, 4, 3}) known.push_back(c.int_val(v));
    unknown.push_back(three);
    unknown.push_back(x);
    CHECK(folds_false(f, z3::distinct(known)));  // two members alike
    CHECK_FALSE(f.is_true(z3::distinct(unknown)));
    CHECK_FALSE(f.is_false(z3::distinct(unknown)));
}

TEST_CASE("folding: what needs more than constants is left unsettled", "[verify][folding]") {
    z3::context c;
    const z3::expr x = c.int_const("x"), y = c.int_const("y"), b = c.bool_const("b");
    constant_folding f(c);
    for (const z3::expr& e : {x > 0, x == y, b, b && x > 0, c.int_val(7) / c.int_val(2) == c.int_val(3),
                              x - x == c.int_val(0),  // algebra, not folding
                              c.int_val(INT64_MAX) + c.int_val(1) > c.int_val(0)}) {  // would overflow
        INFO(e.to_string());
        CHECK_FALSE(f.is_true(e));
        CHECK_FALSE(f.is_false(e));
    }
}

TEST_CASE("folding: a settled term is settled in Z3 too (generated terms)", "[verify][folding]") {
    z3::context c;
    const z3::expr x = c.int_const("x"), y = c.int_const("y"), p = c.bool_const("p");
    std::mt19937 rng(7);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    std::function<z3::expr(int)> num, cond;
    num = [&](int d) -> z3::expr {
        switch (d <= 0 ? pick(2) : pick(7)) {
            case 0: return c.int_val(pick(9) - 4);
            case 1: return pick(2) ? x : y;
            case 2: return num(d - 1) + num(d - 1);
            case 3: return num(d - 1) - num(d - 1);
            case 4: return num(d - 1) * num(d - 1);
            case 5: return -num(d - 1);
            default: return z3::ite(cond(d - 1), num(d - 1), num(d - 1));
        }
    };
    cond = [&](int d) -> z3::expr {
        switch (d <= 0 ? pick(2) : pick(8)) {
            case 0: return c.bool_val(pick(2) == 1);
            case 1: return p;
            case 2: return num(d - 1) < num(d - 1);
            case 3: return num(d - 1) == num(d - 1);
            case 4: return cond(d - 1) && cond(d - 1);
            case 5: return cond(d - 1) || cond(d - 1);
            case 6: return !cond(d - 1);
            default: return z3::implies(cond(d - 1), cond(d - 1));
        }
    };
    constant_folding f(c);
    int settled = 0;
    for (int i = 0; i < 2000; ++i) {
        const z3::expr e = cond(4);
        const bool t = f.is_true(e), fa = f.is_false(e);
        if (!t && !fa) continue;
        ++settled;
        z3::solver s(c);
        s.add(t ? !e : e);  // the opposite of what folding says cannot hold
        INFO(e.to_string());
        CHECK(s.check() == z3::unsat);
    }
    CHECK(settled > 200);  // the generator does make settled terms
}

TEST_CASE("folding: a term that shares its subterms is folded in linear time", "[verify][folding]") {
    z3::context c;
    const z3::expr x = c.int_const("x");
    constant_folding f(c);
    // 300 levels, each reading the level below twice: a tree walk would take 2^300 steps
    z3::expr t = c.int_val(1);
    for (int i = 0; i < 300; ++i) t = z3::ite(x == i, t + 1, t + 1);
    CHECK(folds_true(f, t == c.int_val(301)));
    // and what it learnt stays: a term over the same levels is settled too
    CHECK(folds_false(f, t + 0 < c.int_val(5)));
}

TEST_CASE("folding: a term that takes the id of a term gone is folded anew", "[verify][folding]") {
    z3::context c;
    const z3::expr x = c.int_const("x");
    constant_folding f(c);
    int settled = 0;
    for (int i = 0; i < 500; ++i) {
        {
            const z3::expr gone = (x + i) * 2 == c.int_val(i);  // not constant; its terms die here
            CHECK_FALSE(f.of(gone).known());
        }
        // Z3 hands the ids of the terms gone to new ones: these must not be taken for them
        const z3::expr fresh = (c.int_val(i) + 1) * 2 == c.int_val(2 * i + 2);
        settled += f.is_true(fresh);
    }
    CHECK(settled == 500);
}
