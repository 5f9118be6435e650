// The checker's reports: compiler-style text for people, JSON for tools, SARIF 2.1.0 for CI
// annotations on the rule files' lines.
#pragma once

#include "westphalia/verify/check.hpp"

#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace wp::verify {

// Where the report finds file names and source lines: `path(file)` is the name to print for
// ruleset::files[file] (relative to where the user is), `line(file, n)` its n-th line if known.
struct report_source {
    std::function<std::string(ir::id)> path;
    std::function<std::optional<std::string>(ir::id, std::uint32_t)> line;
};

struct report_header {
    std::string options;  // "defaults" or "n_card_players=roller_only"
    int players_checked = 0;
};

// `color`: the severity words and the caret in the terminal colours of `dsl::render`.
void render_human(std::ostream& out, const ir::ruleset& rs, const check_result& r, const report_source& src,
                  const report_header& h, bool show_stats, bool color = false);
void render_json(std::ostream& out, const ir::ruleset& rs, const check_result& r, const report_source& src,
                 const report_header& h);
void render_sarif(std::ostream& out, const ir::ruleset& rs, const check_result& r, const report_source& src);

}  // namespace wp::verify
