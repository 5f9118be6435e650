// Aid texts that no longer say what their element does (issue 30): the designer's `aid "…"`
// phrase stands in the player aid instead of the generated English, so an errata that changes
// a number of the rule leaves the aid printing the old one. No solver: the numbers of the
// element are read from the IR.
#pragma once

#include "westphalia/verify/check.hpp"

namespace wp::verify::detail {

// Adds an `aid-drift` warning for each element whose aid text names a number the element no
// longer uses: a signed number ("+1") that is not a modifier's amount, a die ("2d6") none of its
// rolls has, or a number none of its constants (or those of what it reads) is. A number glued to
// a letter ("E12") or read as a date ("5 August") is a name, not a number of the rules.
void aid_drift(const ir::ruleset& rs, check_result& out);

}  // namespace wp::verify::detail
