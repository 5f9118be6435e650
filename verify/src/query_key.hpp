// The key of a solver query in the proof cache (`check --cache`): a SHA-256 of the query's
// structure, its constants numbered in the order they first appear. Names do not enter it: the
// encoder numbers its variables as it goes, so an errata early in the rules renames every later
// variable without changing a question about them.
#pragma once

#include <z3++.h>

#include <optional>
#include <string>

namespace wp::verify::detail {

// 64 hex digits; none for a query the key cannot describe (quantifiers, bound variables).
std::optional<std::string> query_key(const z3::expr_vector& assertions);

}  // namespace wp::verify::detail
