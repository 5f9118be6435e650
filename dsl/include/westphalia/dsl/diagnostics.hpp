// Diagnostics: a registry of kinds, a sink that collects them (the library never prints),
// and renderers for people (`human`), tools (`gnu`) and machines (`json`).
#pragma once

#include "westphalia/dsl/ast.hpp"
#include "westphalia/dsl/source.hpp"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace wp::dsl {

enum class severity { error, warning, note };

enum class diag_kind {
#define WP_DIAG(id, sev, kebab, what) id,
#include "westphalia/dsl/diagnostic_kinds.def"
#undef WP_DIAG
};

struct diag_kind_info {
    diag_kind kind;
    severity default_severity;
    std::string_view name;  // kebab-case, printed as `[name]`
    std::string_view meaning;
};

const std::vector<diag_kind_info>& all_diag_kinds();
const diag_kind_info& info(diag_kind k);

struct diag_note {
    std::optional<span> where;
    std::string message;
};

struct diagnostic {
    diag_kind kind;
    severity sev;
    std::optional<span> where;  // absent for errors without a source position (a missing file on the command line)
    std::string message;
    std::vector<diag_note> notes;
    // Without `where`: the file or folder the diagnostic is about when there is no line to point
    // at (a file too large to read, a folder without a manifest); shown as `PATH: error: …`.
    std::string file = {};
};

class diagnostic_sink {
public:
    void report(diagnostic d);
    // Shorthand: an error (or the kind's default severity) at a span.
    void error(diag_kind k, span where, std::string message, std::vector<diag_note> notes = {});
    void error(diag_kind k, std::string message);

    const std::vector<diagnostic>& all() const { return items_; }
    bool has_errors() const { return errors_ > 0; }
    std::size_t error_count() const { return errors_; }

private:
    std::vector<diagnostic> items_;
    std::size_t errors_ = 0;
};

// "did you mean `x`?" — the closest candidate within a small edit distance, if any.
std::optional<std::string> closest_name(std::string_view wanted, const std::vector<std::string>& candidates);

enum class diag_format { human, gnu, json };

// Sorted by file, line and column, with at most `max_errors` errors (0 = no cap); `hidden_errors`
// counts the errors left out.
std::vector<diagnostic> shown_diagnostics(const source_manager& sources, std::vector<diagnostic> diags,
                                          std::size_t max_errors, std::size_t& hidden_errors);

// Sorted by file, line and column; at most `max_errors` errors (0 = no cap). With `color`, the
// human format is coloured with ANSI escapes as compilers do: `error:` red, `warning:` magenta,
// `note:` cyan, the caret green, the position bold (for a terminal; never into a file or a pipe).
void render(std::ostream& out, const source_manager& sources, std::vector<diagnostic> diags, diag_format fmt,
            std::size_t max_errors = 0, bool color = false);

// The ANSI escapes of the colours above, one place for the checker's report too.
namespace ansi {
inline constexpr const char* reset = "\033[0m";
inline constexpr const char* bold = "\033[1m";
inline constexpr const char* error = "\033[1;31m";
inline constexpr const char* warning = "\033[1;35m";
inline constexpr const char* note = "\033[1;36m";
inline constexpr const char* caret = "\033[1;32m";
}  // namespace ansi

}  // namespace wp::dsl
