// An example's `given` runs from the start of a game with everything known, so a branch its
// known condition rules out is never taken. Its run records nothing there: on GMT's set-up
// examples, every `place` loop's body for the units of other nations kept a bound and a state
// per unit (24,490 bound sites, 27 s and 3.4 GB of a 184 s check) for questions that could only
// be unsatisfiable.
#include "symbolic.hpp"

#include "test_support.hpp"

#include <catch2/catch.hpp>

using wp::verify::detail::symbolic;

TEST_CASE("an example's run records no bound where its known condition rules the branch out", "[verify][examples]") {
    const wp::ir::ruleset rs = wp::test::compile_rules_text(R"(
enum end_reason { done }
enum side { red, blue }
record unit_face { side: side }
pieces unit of unit_face {
  r1 "R1" { side = red }
  r2 "R2" { side = red }
  b1 "B1" { side = blue }
  b2 "B2" { side = blue }
  b3 "B3" { side = blue }
}
state per unit { strength: 0..2 error = 0 }
state { placed: 0..9 error = 0 }
procedure raise_side(s: side) {
  for each u in unit {
    if u.side == s { u.strength += 1; placed += 1; }
  }
}
sequence game {
  end game done;
}
example raise_red : given { raise_side(red); } expect r1.strength == 1 and b1.strength == 0 and placed == 2;
)");
    z3::context ctx;
    symbolic sym(ctx, rs, 2);
    sym.run_examples();
    REQUIRE(sym.examples.size() == 1);
    // the two red units' strengths and the count twice: the blue units' rounds are ruled out
    CHECK(sym.bound_sites.size() == 4);
}
