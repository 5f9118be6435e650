// The checker's query time limit (verify/src/watchdog.hpp): an interrupted query answers
// `unknown`, and the interrupt leaves nothing behind, wherever it lands.
#include "watchdog.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace {

// Pigeonhole: n + 1 pigeons in n holes. Unsatisfiable, and slow to prove for a CDCL solver
// (seconds at n = 11), so a limit of a few milliseconds always interrupts it mid-search.
z3::expr_vector pigeonhole(z3::context& c, int n) {
    z3::expr_vector facts(c);
    std::vector<std::vector<z3::expr>> in(n + 1);
    for (int p = 0; p <= n; ++p)
        for (int h = 0; h < n; ++h) in[p].push_back(c.bool_const(("p" + std::to_string(p) + "h" + std::to_string(h)).c_str()));
    for (int p = 0; p <= n; ++p) {
        z3::expr_vector some(c);
        for (int h = 0; h < n; ++h) some.push_back(in[p][h]);
        facts.push_back(z3::mk_or(some));
    }
    for (int h = 0; h < n; ++h)
        for (int p = 0; p <= n; ++p)
            for (int q = p + 1; q <= n; ++q) facts.push_back(!in[p][h] || !in[q][h]);
    return facts;
}

// What the checker does with a context after a query: simplify a term, ask again and evaluate
// the model (the simplification first: a check would clear what an interrupt left).
void context_still_usable(z3::context& c, wp::verify::detail::watchdog& dog) {
    z3::expr v(c);
    CHECK_NOTHROW(v = (c.int_val(2) + 3).simplify());
    CHECK(v.is_numeral());
    z3::solver quick(c);
    const z3::expr x = c.int_const("x");
    quick.add(x > 2 && x < 4);
    REQUIRE(dog.check(quick, 10000) == z3::sat);
    CHECK_NOTHROW(v = quick.get_model().eval(x * x + 1, true));
    CHECK(v.get_numeral_int() == 10);
}

}  // namespace

TEST_CASE("watchdog: an interrupted query answers unknown", "[verify][watchdog]") {
    z3::context c;
    wp::verify::detail::watchdog dog(c);
    z3::solver s(c);
    z3::optimize o(c);
    for (const z3::expr& f : pigeonhole(c, 11)) {
        s.add(f);
        o.add(f);
    }
    o.add_soft(c.bool_const("p0h0"), 1);
    z3::check_result r = z3::sat;
    CHECK_NOTHROW(r = dog.check(s, 20));
    CHECK(r == z3::unknown);
    CHECK_NOTHROW(r = dog.check(o, 20));
    CHECK(r == z3::unknown);
    context_still_usable(c, dog);
}

// The CI failure (a "canceled" exception out of `check` under --timeout 0.001): the limit
// passed just after Z3 had answered, before the watchdog was disarmed. Z3 then kept the
// context cancelled, and the next model evaluation threw. Here the window is made wide: the
// query sleeps after its answer, still armed; and, the other way, before it asks.
TEST_CASE("watchdog: an interrupt that lands outside the check leaves the context usable", "[verify][watchdog]") {
    z3::context c;
    wp::verify::detail::watchdog dog(c);
    z3::solver s(c);
    s.add(c.int_const("y") > 0);
    REQUIRE(s.check() == z3::sat);  // the first check of a context costs more: not under the limit
    const z3::check_result after = dog.run(500, [&] {
        const z3::check_result answer = s.check();  // well inside 500 ms, even under ASan
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        return answer;
    });
    REQUIRE(after == z3::sat);
    z3::expr y(c);
    CHECK_NOTHROW(y = s.get_model().eval(c.int_const("y") + 1, true));  // the answer's own model
    CHECK(y.is_numeral());
    context_still_usable(c, dog);
    // a limit that passed before the check began: Z3 may answer it still, or not
    const z3::check_result before = dog.run(1, [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        return s.check();
    });
    CHECK((before == z3::sat || before == z3::unknown));
    context_still_usable(c, dog);
}
