// SARIF 2.1.0 for diagnostics: a compile error as a CI annotation on the rule file's line.
#pragma once

#include "westphalia/dsl/diagnostics.hpp"

#include <nlohmann/json_fwd.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace wp::dsl {

inline constexpr const char* sarif_schema = "https://json.schemastore.org/sarif-2.1.0.json";
inline constexpr const char* sarif_version = "2.1.0";

// A path as a SARIF artifact URI: a relative path stays relative (to the directory the command
// ran in, which CI takes as the repository root), an absolute one becomes `file:///…`; bytes
// outside the unreserved set and `/` are percent-encoded.
std::string sarif_uri(const std::string& path);

// One SARIF log with one run of the tool `westphalia` whose results are the diagnostics (sorted
// and capped like `render`): level from the severity, ruleId the diagnostic's kind, a physical
// location (file, line, column, end) when the diagnostic has one, a located note as a related
// location. `automation_id` names the run (e.g. `westphalia-check/<ruleset path>`).
nlohmann::json diagnostics_sarif(const source_manager& sources, std::vector<diagnostic> diags,
                                 const std::string& automation_id, std::size_t max_errors = 0);

}  // namespace wp::dsl
