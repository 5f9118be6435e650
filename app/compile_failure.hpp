// A report command's ruleset that does not compile: its diagnostics in the form the report would
// have had (`check`, `diff`), so a CI job that reads JSON or SARIF sees the typo as it would a finding.
#pragma once

#include "cli.hpp"

#include <string>
#include <vector>

namespace wp::cli {

struct report_target {
    std::string format;  // human, json or sarif
    std::string output;  // -o: empty or `-` for standard output
    std::size_t max_errors = 50;
    std::string tool;  // the SARIF run's automation id is `<tool>/<ruleset name>`
};

// human: the diagnostics on standard error. json: the diagnostics object (`dsl::render`'s);
// sarif: a SARIF 2.1.0 log whose results are the diagnostics; either to standard output or the
// -o file (refused when it is one of the inputs), and then also as text on standard error.
// The exit code is 2.
void report_not_compiled(context& ctx, const report_target& target, const std::vector<std::string>& rulesets,
                         const dsl::source_manager& sources, const dsl::diagnostic_sink& sink);

// The ruleset's name as a check reports it (the manifest's, else the file's stem), found from
// what the failed compile read.
std::string ruleset_name(const std::string& path, const dsl::source_manager& sources);

}  // namespace wp::cli
