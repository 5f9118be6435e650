// A way an option closes is not explored under the chosen options: its questions were all unsat
// (a false fact), yet asking them cost GMT's check as much as the rest (docs/checker.md, "Ways an
// option closes"). The free-options exploration still runs it, and the `if` is still noted.
#include "symbolic.hpp"

#include "test_support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

namespace {

using wp::verify::detail::symbolic;

const char* const forced_march = R"(
option forced_march : bool = false;
state per player { fatigue: 0..3 clamp = 0 }
roll march_roll(p: player) = 1d6;
modifier tired_legs : -1 to march_roll when p.fatigue > 0;
table march_table(p: player) : roll march_roll(p) {
  1-2 "Straggle" { p.fatigue += 1; }
  3+  "Marches"  { }
}
sequence game {
  for each p in players {
    turn march {
      if option.forced_march { resolve march_table(p); }
      if p.fatigue > 2 { p.fatigue = 0; }
    }
  }
  end game over;
}
)";

std::size_t sites_of_rule(const symbolic& sym, const wp::ir::ruleset& rs, const std::string& name) {
    return static_cast<std::size_t>(std::count_if(sym.rule_sites.begin(), sym.rule_sites.end(),
                                                  [&](const auto& s) { return rs.rules.at(s.rule).name == name; }));
}

}  // namespace

TEST_CASE("a way the chosen options close is not explored, and is explored with the options free", "[verify][options]") {
    const wp::ir::ruleset rs = wp::test::compile_rules_text(forced_march);
    z3::context ctx;
    symbolic sym(ctx, rs, 2);
    sym.explore();
    CHECK(sym.skipped_ways.size() == 1);
    CHECK(sites_of_rule(sym, rs, "tired_legs") == 0);
    // the `if` is noted still: the dead-branch check asks of its way
    CHECK(std::any_of(sym.branch_sites.begin(), sym.branch_sites.end(), [](const auto& b) { return b.taken; }));

    z3::context ctx2;
    symbolic free(ctx2, rs, 2);
    free.free_options = true;
    free.explore();
    CHECK(free.skipped_ways.empty());
    CHECK(sites_of_rule(free, rs, "tired_legs") > 0);
}

TEST_CASE("an option that opens the way explores it", "[verify][options]") {
    wp::ir::ruleset rs = wp::test::compile_rules_text(forced_march);
    rs.options.at(0).selected_index = 1;  // forced_march = true
    z3::context ctx;
    symbolic sym(ctx, rs, 2);
    sym.explore();
    CHECK(sym.skipped_ways.empty());
    CHECK(sites_of_rule(sym, rs, "tired_legs") > 0);
}
