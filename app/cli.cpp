// Command-line plumbing shared by the subcommands: parsing and diagnostics output.
#include "cli.hpp"
#include <sstream>
#include <fstream>
#include "number_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string_view>

#include <unistd.h>

namespace wp::cli {

void diagnostic_options::add_to(CLI::App& command) {
    command.add_option("--format", format, "How to print diagnostics: human, gnu or json")
        ->check(CLI::IsMember({"human", "gnu", "json"}))
        ->capture_default_str();
    add_max_errors(command, *this);
}

void add_max_errors(CLI::App& command, diagnostic_options& options) {
    command.add_option("--max-errors", options.max_errors, "Stop listing errors after this many (0: no limit)")
        ->check(whole_number(0, std::numeric_limits<std::size_t>::max()))
        ->capture_default_str();
}

dsl::diag_format diagnostic_options::parsed() const {
    if (format == "gnu") return dsl::diag_format::gnu;
    if (format == "json") return dsl::diag_format::json;
    return dsl::diag_format::human;
}

void report(context& ctx, const dsl::source_manager& sources, const dsl::diagnostic_sink& sink,
            const diagnostic_options& options, bool output_follows) {
    const auto fmt = options.parsed();
    if ((fmt != dsl::diag_format::json || output_follows) && sink.all().empty()) return;
    if (fmt == dsl::diag_format::json) dsl::render(output_follows ? ctx.err : ctx.out, sources, sink.all(), fmt, options.max_errors);
    else dsl::render(ctx.err, sources, sink.all(), fmt, options.max_errors, ctx.colored(ctx.err));
}

bool use_color(const std::string& mode, bool terminal, const char* no_color, const char* term) {
    if (mode == "always") return true;
    if (mode == "never") return false;
    if (no_color && *no_color) return false;
    if (term && std::string_view(term) == "dumb") return false;
    return terminal;
}

bool context::colored(const std::ostream& stream) const {
    // only the process's own standard streams can be a terminal; a test's string stream is not
    const bool terminal = (&stream == &std::cerr && isatty(STDERR_FILENO) == 1) ||
                          (&stream == &std::cout && isatty(STDOUT_FILENO) == 1);
    return use_color(color, terminal, std::getenv("NO_COLOR"), std::getenv("TERM"));
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    return run(args, out, err, std::cin);
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, std::istream& in) {
    context ctx{out, err, exit_clean, &in};
    CLI::App app{"westphalia: rules-as-data for board wargames — compile, play, check and print a game's rules",
                 "westphalia"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "westphalia 0.1.0");
    // One option for every command, before or after the command's name: each command lets what
    // it does not know fall through to here.
    app.add_option("--color", ctx.color,
                   "Colour diagnostics and reports: auto (on a terminal, unless NO_COLOR is set), always or never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->capture_default_str();
    app.fallthrough();
    add_parse_command(app, ctx);
    add_compile_command(app, ctx);
    add_info_command(app, ctx);
    add_play_command(app, ctx);
    add_replay_command(app, ctx);
    add_sim_command(app, ctx);
    add_balance_command(app, ctx);
    add_coverage_command(app, ctx);
    add_check_command(app, ctx);
    add_diff_command(app, ctx);
    add_translate_command(app, ctx);
    add_aid_command(app, ctx);

    // CLI11 would call an unknown command "a missing subcommand"; name it and suggest one instead.
    if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
        std::vector<std::string> names;
        for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
        if (std::find(names.begin(), names.end(), args[0]) == names.end()) {
            err << "westphalia: error: unknown command `" << args[0] << "`";
            if (auto near = dsl::closest_name(args[0], names)) err << "; did you mean `" << *near << "`?";
            err << "\nThe commands are:";
            for (const std::string& n : names) err << ' ' << n;
            err << ". Run `westphalia --help` for usage.\n";
            return exit_bad_input;
        }
    }
    std::vector<const char*> argv{"westphalia"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e, out, err);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e, out, err);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e, out, err);
    } catch (const CLI::ParseError& e) {
        err << "westphalia: " << (ctx.colored(err) ? std::string(dsl::ansi::error) + "error:" + dsl::ansi::reset : "error:")
            << ' ' << e.what() << "\n";
        err << "Run `westphalia --help` or `westphalia <command> --help` for usage.\n";
        return exit_bad_input;
    }
    return ctx.exit_code;
}

std::optional<std::string> read_whole_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace wp::cli
