// The `westphalia` command line, callable in-process with injected streams (golden tests do).
#pragma once

#include "westphalia/dsl/diagnostics.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <istream>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

namespace wp::cli {

// Exit codes (DESIGN.md §5): 0 clean, 1 findings at error severity, 2 input unreadable,
// not compilable, or a usage error.
inline constexpr int exit_clean = 0;
inline constexpr int exit_findings = 1;
inline constexpr int exit_bad_input = 2;

struct context {
    std::ostream& out;
    std::ostream& err;
    int exit_code = exit_clean;
    std::istream* in = nullptr;  // what a human player types (std::cin when null)
    std::string color = "auto";  // --color: auto, always or never
    // Whether text written to `stream` is coloured (see use_color).
    bool colored(const std::ostream& stream) const;
};

// --color: `always` and `never` are what they say; `auto` colours only a terminal (`terminal`: the
// stream is the process's standard output or error and isatty), and not when NO_COLOR is set to
// a non-empty value or TERM is `dumb`.
bool use_color(const std::string& mode, bool terminal, const char* no_color, const char* term);

// Options every command that reports diagnostics takes.
struct diagnostic_options {
    std::string format = "human";
    std::size_t max_errors = 50;
    void add_to(CLI::App& command);
    dsl::diag_format parsed() const;
};

// Only `--max-errors`, for a command whose `--format` is its own (check, diff).
void add_max_errors(CLI::App& command, diagnostic_options& options);

// Renders the sink's diagnostics to ctx.err. JSON goes to ctx.out, the requested output, as the
// one document there, unless `output_follows`: the command then prints its own output (an IR, a
// game, a PDF) on standard output, so JSON diagnostics go to ctx.err, and only when there are some.
void report(context& ctx, const dsl::source_manager& sources, const dsl::diagnostic_sink& sink,
            const diagnostic_options& options, bool output_follows = false);

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// A file's bytes, or std::nullopt when it cannot be read.
std::optional<std::string> read_whole_file(const std::string& path);
// The same, with a human player's input read from `in` instead of std::cin (golden tests).
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, std::istream& in);

// One per subcommand file.
void add_parse_command(CLI::App& app, context& ctx);
void add_compile_command(CLI::App& app, context& ctx);
void add_info_command(CLI::App& app, context& ctx);
void add_play_command(CLI::App& app, context& ctx);
void add_replay_command(CLI::App& app, context& ctx);
void add_sim_command(CLI::App& app, context& ctx);
void add_balance_command(CLI::App& app, context& ctx);
void add_coverage_command(CLI::App& app, context& ctx);
void add_check_command(CLI::App& app, context& ctx);
void add_aid_command(CLI::App& app, context& ctx);
void add_diff_command(CLI::App& app, context& ctx);
void add_translate_command(CLI::App& app, context& ctx);

}  // namespace wp::cli

namespace wp::ir { struct ruleset; }
namespace wp::codegen { class unsupported; }

namespace wp::cli {

// A construct the compiled engine does not translate, as a diagnostic at its source position
// (`translate`, `sim --compiled`); sets exit code 2.
void report_untranslatable(context& ctx, const ir::ruleset& rs, const dsl::source_manager& sources, dsl::diagnostic_sink& sink,
                           const diagnostic_options& options, const codegen::unsupported& e);

}  // namespace wp::cli
