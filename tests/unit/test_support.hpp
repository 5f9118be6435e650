// What several unit test files share: compiling a ruleset of the repository, and engine options.
#pragma once

#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

namespace wp::test {

// Compiles the ruleset at `relative` (from the repository root) with the given options; the
// test fails if it does not compile.
inline ir::ruleset compile_repo_ruleset(const std::string& relative, const std::map<std::string, std::string>& options = {}) {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    compiler::compile_options opts;
    opts.options = options;
    auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/" + relative, opts, sources, sink);
    REQUIRE(rs.has_value());
    return *rs;
}

// Chance events stop the engine and wait for an outcome (a test picks it), rather than sampled.
inline engine::state_options explicit_chance() {
    engine::state_options o;
    o.sampled_chance = false;
    return o;
}

}  // namespace wp::test
