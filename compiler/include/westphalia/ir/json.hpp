// The IR's JSON form (`westphalia compile --emit-ir`): a top-level object with
// "schema": "westphalia-ir" and "version": 1, then every table of ir::ruleset.
// The only header of the project that names nlohmann::json.
#pragma once

#include "westphalia/dsl/diagnostics.hpp"
#include "westphalia/ir/ir.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace wp::ir {

inline constexpr std::string_view schema_name = "westphalia-ir";

// Why an IR file could not be read: `kind` is ir_invalid or ir_version, ready for a diagnostic.
struct read_error {
    dsl::diag_kind kind = dsl::diag_kind::ir_invalid;
    std::string message;  // names the JSON path of the problem: "rules[3].guard: node 812 does not exist"
    std::optional<std::size_t> offset;  // byte offset of a JSON syntax error in the text
};

nlohmann::json to_json(const ruleset& rs);
std::string to_json_text(const ruleset& rs, int indent = 1);

// Reads and validates an IR: the schema and version, every field's presence and type, every
// index against its table, and the shape of the node graph (children come before parents).
// Never throws for bad input; on failure returns nothing and fills `error`.
std::optional<ruleset> from_json(const nlohmann::json& j, read_error& error);
std::optional<ruleset> from_json_text(std::string_view text, read_error& error);

}  // namespace wp::ir
