// A readable, deterministic dump of the syntax tree (`westphalia parse`), used by golden tests.
#pragma once

#include "westphalia/dsl/ast.hpp"
#include "westphalia/dsl/source.hpp"

#include <ostream>

namespace wp::dsl {

// One node per line, indented by depth, with line:col of each declaration and statement.
void dump(std::ostream& out, const file& f, const source_manager& sources);

}  // namespace wp::dsl
