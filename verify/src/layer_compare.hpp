// What the layers above one layer change in the rules below it without declaring it
// (`check --compare LOWER UPPER`, kind `undeclared-change`).
#pragma once

#include "westphalia/verify/check.hpp"

namespace wp::verify::detail {

// Compares the stack up to options.compare->first (the lower layer) with the stack up to
// ->second, subject by
// subject, where the upper layers add a rule that no declaration ranks (no `overrides` of a
// lower rule, no errata block), and adds an `undeclared-change` warning for each outcome the
// lower stack decided that such a rule changes. Nothing without options.compare or
// options.compile_upto.
void undeclared_changes(const check_options& options, check_result& out);

}  // namespace wp::verify::detail
