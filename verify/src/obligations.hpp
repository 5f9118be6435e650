// Errata obligations (DESIGN.md §5): what each errata layer may change, by the kind of each of
// its blocks, checked against the stack just before the layer.
#pragma once

#include "westphalia/verify/check.hpp"
#include "westphalia/verify/diff.hpp"

namespace wp::verify::detail {

// The subject a rule decides, as `westphalia diff` names it ("decision wins", "roll
// campaign_roll"); empty for rules of no subject (invariants, examples, queries).
std::string rule_subject(const ir::ruleset& rs, const ir::rule& r);

// Adds the `unknown` finding for a change the solver could not decide (outcome_change::proof),
// with its subject ("whether …") and message, and the change's elements.
void add_undecided_change(check_result& out, const outcome_change& c, std::string subject, std::string message);

// Adds an `errata-obligation` finding for every broken obligation of the errata layers of `rs`
// (nothing when options.compile_upto is unset).
void errata_obligations(const ir::ruleset& rs, const check_options& options, check_result& out);

}  // namespace wp::verify::detail
