// A readable, deterministic text dump of the IR (`westphalia compile --emit-ir=text`), one
// element per line with its provenance; expressions printed back in the rule language's syntax.
// Used by golden tests, so the format changes only on purpose.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <ostream>
#include <string>

namespace wp::ir {

void print(std::ostream& out, const ruleset& rs);

// One expression or statement tree as text (statements on one line, `{ a; b; }`).
std::string print_node(const ruleset& rs, id node, const std::vector<local>& frame);

// A constant of type `type` as written in the rule language (`true`, `12`, `one_total`).
std::string constant_text(const ruleset& rs, id type, std::int64_t value);

}  // namespace wp::ir
