// Accepted findings: the ruleset's `accept` declarations matched against the checker's findings.
#pragma once

#include "westphalia/verify/check.hpp"

namespace wp::verify::detail {

// Marks each finding that an `accept` of `rs` names (same kind; its subject, or the name of an
// element it involves, is the accept's subject) as accepted, with the reason. An accept that
// matches no finding becomes a `stale-accept` warning, so accepts do not outlive their findings
// (when every check ran, and none ran out of time).
void apply_accepts(const ir::ruleset& rs, check_result& out);

// Whether an `accept` of `rs` names the finding of `kind` about `subject` that a question may
// give (either side, for a bound): known before the question is asked, so that an accepted
// finding's witness is not searched for.
bool accepted_before(const ir::ruleset& rs, const std::string& kind, const std::string& subject);

// Whether an `accept` of `rs` names finding f (as apply_accepts will mark it).
bool accepted(const ir::ruleset& rs, const finding& f);

}  // namespace wp::verify::detail
