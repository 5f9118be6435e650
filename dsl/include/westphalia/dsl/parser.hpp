// The parser: one rule file's text into the public syntax tree.
#pragma once

#include "westphalia/dsl/ast.hpp"
#include "westphalia/dsl/diagnostics.hpp"
#include "westphalia/dsl/source.hpp"

#include <cstdint>
#include <optional>

namespace wp::dsl {

// Parses file `id` of `sources`. On a syntax error reports exactly one diagnostic (the first
// error in the file: no cascades) and returns nothing. Never throws for bad input: invalid
// UTF-8, deep nesting and oversized numbers are diagnostics too.
std::optional<file> parse(const source_manager& sources, std::uint32_t id, diagnostic_sink& sink);

// Maximum nesting of expressions, types (`list of`, `->`) and blocks; deeper input is `nesting-too-deep`.
inline constexpr int max_nesting = 256;

// Maximum height of one expression's tree, where each operator of a flat chain (`a + b + c`,
// `x and y and z`, `p.f.g`) counts one level: every later pass (type checking, the engine, the
// translator, the checker) walks expressions recursively, so their depth must stay bounded.
inline constexpr std::uint32_t max_expression_depth = 1000;

}  // namespace wp::dsl
