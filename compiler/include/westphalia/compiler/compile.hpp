// The compiler's entry point: a ruleset folder (manifest, outline, layer files) to the IR.
// Passes, in order: load (manifest, outline, files) → patch (layers and errata) → resolve
// (names to ids) → typecheck → lower (flat IR with provenance).
#pragma once

#include "westphalia/dsl/diagnostics.hpp"
#include "westphalia/dsl/source.hpp"
#include "westphalia/ir/ir.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wp::compiler {

struct compile_options {
    // --option name=value: checked against the ruleset's declared options (unknown-option-value).
    std::map<std::string, std::string> options;
    // --upto <layer>: compile the stack only up to and including this layer.
    std::optional<std::string> upto_layer;
    // With upto_layer: keep the `options` layers past it (the stack before an errata layer,
    // whose rules may read options declared last; `westphalia diff`, errata obligations).
    bool upto_keeps_options = false;
    // --with a,b: the expansions to apply (any order; applied in their declared order, then
    // manifest order). An expansion not named here is not read.
    std::vector<std::string> with;
};

// Reports every problem of every file to `sink` (one syntax error per file at most; other
// files still checked) and returns the IR only when there was no error.
std::optional<ir::ruleset> compile_ruleset(const std::filesystem::path& folder, const compile_options& options,
                                           dsl::source_manager& sources, dsl::diagnostic_sink& sink);

}  // namespace wp::compiler
