// What the rules copy out of hidden fields (docs/checker.md, `hidden-leak`): an assignment to a
// field every seat sees whose value reads a field some seats do not see in this game (a player's
// own hidden field, a side's entries hidden by side, under the options chosen). A seat's view,
// its agents and `replay --as` show that value, so the secret is out. No solver: the values an
// expression reads, through `let`s, the arguments of procedure calls, actions, tables and events,
// and the quantities, decisions and rolls it consults (westphalia/ir/hidden_flow.hpp).
#pragma once

#include "westphalia/ir/ir.hpp"
#include "westphalia/verify/check.hpp"

namespace wp::verify::detail {

// Adds a `hidden-leak` warning for each field every seat sees that takes a value read from a
// hidden one: one finding per pair of fields, its other statements in `also`.
void hidden_leaks(const ir::ruleset& rs, check_result& out);

}  // namespace wp::verify::detail
