// `westphalia replay game.jsonl [--ruleset DIR] [--check] [--quiet | --verbose]`: rebuilds the game from
// the log's header, replays every step checking that it is legal and matches the engine, and
// prints the same account as `play`, the invariants checked as play checks them (a broken one
// exits 1; `--no-check-invariants`: not checked). `--check` also confirms that logging the replay again
// gives the identical log, byte for byte. A bad log: `game.jsonl:LINE: error: … [kind]`, exit 2.
#include "account_writer.hpp"
#include "cli.hpp"
#include "play_summary.hpp"
#include "ruleset_input.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/log.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

namespace wp::cli {

namespace {

struct replay_args {
    std::string log;
    std::string ruleset;
    bool check = false;
    bool quiet = false;
    bool verbose = false;
    bool no_check_invariants = false;
    int as_seat = 0;  // --as N: the account as seat N saw it (0: everything)
    diagnostic_options diagnostics;
};

// An option's value as `--option` spells it (the compiler's reading of --option).
std::string option_value_text(const ir::ruleset& rs, const ir::option& o, std::int64_t v) {
    switch (o.kind) {
        case ir::option_kind::boolean: return v ? "true" : "false";
        case ir::option_kind::integer: return std::to_string(v);
        case ir::option_kind::named:
            if (o.enum_id < rs.enums.size() && v >= 0 && static_cast<std::size_t>(v) < rs.enums[o.enum_id].members.size())
                return rs.enums[o.enum_id].members[static_cast<std::size_t>(v)].name;
            return "?";
    }
    return "?";
}

// What in the log's header (line 1) the ruleset does not have: an `upto` naming no layer, an
// option it does not declare, or a value that option does not take. An error in the log, not a
// `--upto` or `--option` the user never gave. Empty when the header fits the ruleset, or when the
// ruleset does not compile on its own (loading it then reports why).
std::string header_mismatch(const std::string& path, const engine::log_header& header) {
    if ((header.upto.empty() && header.options.empty()) || std::filesystem::path(path).extension() == ".json") return {};
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    compiler::compile_options with;
    with.with = header.with;
    const auto rs = compiler::compile_ruleset(path, with, sources, sink);
    if (!rs || sink.has_errors()) return {};
    if (!header.upto.empty()) {
        std::string names;
        bool found = false;
        for (const ir::layer& l : rs->layers) {
            found = found || l.name == header.upto;
            names += (names.empty() ? "" : ", ") + l.name;
        }
        if (!found)
            return "the header's \"upto\" names the layer `" + header.upto + "`, which `" + path +
                   "` does not declare; its layers are: " + names;
    }
    for (const auto& entry : header.options) {
        // named, not a structured binding: Clang 14 does not let a lambda capture a binding
        const std::string& name = entry.first;
        const std::string& value = entry.second;
        const auto o = std::find_if(rs->options.begin(), rs->options.end(), [&](const ir::option& x) { return x.name == name; });
        if (o == rs->options.end()) {
            std::string names;
            for (const ir::option& x : rs->options) names += (names.empty() ? "" : ", ") + x.name;
            return "the header's \"options\" names the option `" + name + "`, which `" + path + "` does not declare; " +
                   (names.empty() ? "it declares no option" : "its options are: " + names);
        }
        std::string values;
        bool found = false;
        for (const std::int64_t v : o->values) {
            const std::string text = option_value_text(*rs, *o, v);
            found = found || text == value;
            values += (values.empty() ? "" : ", ") + text;
        }
        if (!found)
            return "the header's \"options\" gives option `" + name + "` the value `" + value +
                   "`, which is not one of its values in `" + path + "`: " + values;
    }
    return {};
}

}  // namespace

void add_replay_command(CLI::App& app, context& ctx) {
    auto args = std::make_shared<replay_args>();
    CLI::App* command = app.add_subcommand("replay", "Replay a game log written by `play --log`, checking every step");
    command->add_option("log", args->log, "A JSON-lines game log")->required();
    command->add_option("--ruleset", args->ruleset, "The ruleset to replay with (default: the path in the log)");
    command->add_flag("--check", args->check, "Also confirm that re-logging the replay gives the identical log");
    command->add_flag("--quiet", args->quiet, "Print only the first line and the result");
    command->add_flag("--verbose", args->verbose, "Also print every step's start and every change of state, not only the players' own")
        ->excludes("--quiet");
    command->add_flag("--no-check-invariants", args->no_check_invariants,
                      "Do not check the invariants (by default, as `play` checks them: after every decision and inside "
                      "each step; a broken one is told where it breaks, listed at the end, and exits 1)");
    command->add_option("--as", args->as_seat,
                        "Print the account as seat N (1 = P1) saw it: others' secret decisions and hidden fields left out")
        ->check(CLI::PositiveNumber);
    args->diagnostics.add_to(*command);
    command->callback([args, &ctx] {
        auto fail = [&](const engine::log_error& e) {
            ctx.err << args->log << ':' << e.line << ": error: " << e.message << " [" << e.kind << "]\n";
            ctx.exit_code = exit_bad_input;
        };
        const std::optional<std::string> read = read_whole_file(args->log);
        if (!read) {
            ctx.err << "westphalia: error: cannot read `" << args->log << "`\n";
            ctx.exit_code = exit_bad_input;
            return;
        }
        const std::string& text = *read;
        engine::log_error error;
        const auto header = engine::read_log_header(text, error);
        if (!header) return fail(error);

        ruleset_input input;
        input.path = args->ruleset.empty() ? header->ruleset_path : args->ruleset;
        for (const auto& [k, v] : header->options) input.options.push_back(k + "=" + v);
        input.upto = header->upto;
        input.with = header->with;
        input.diagnostics = args->diagnostics;
        if (const std::string why = header_mismatch(input.path, *header); !why.empty()) return fail({1, why, "log-ruleset"});
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = input.load(ctx, sources, sink);
        report(ctx, sources, sink, input.diagnostics, /*output_follows=*/rs.has_value());
        if (!rs) return fail({1, "cannot load the ruleset `" + input.path + "`", "log-ruleset"});

        const std::function<void(const std::string&)> trace = account_writer(ctx.out, ctx.colored(ctx.out));
        print_game_header(ctx.out, rs->name, header->players, header->seed, header->agents);
        if (args->as_seat > header->players)
            return fail({1, "--as " + std::to_string(args->as_seat) + ": the game has " + std::to_string(header->players) + " players",
                         "log-ruleset"});
        const int viewer = args->as_seat - 1;
        const engine::replay_result r =
            engine::replay_log(text, *rs, *header, args->quiet ? nullptr : &trace, args->verbose, viewer, !args->no_check_invariants);
        if (r.error) return fail(*r.error);
        if (!r.result.invariant_violations.empty()) ctx.exit_code = exit_findings;
        if (!r.result.error.empty()) {
            for (const std::string& v : r.result.invariant_violations) ctx.err << "westphalia: invariant broken: " << v << '\n';
            ctx.err << "westphalia: engine error: " << r.result.error << '\n';
            ctx.exit_code = exit_findings;
        } else if (r.result.end_reason == "stopped") {
            ctx.out << "game abandoned after " << r.result.decisions << " decisions\n";
        } else {
            print_summary(ctx.out, r.result, viewer);
        }
        if (args->check) {
            if (r.relog != text) {
                std::size_t line = 1;
                for (std::size_t i = 0; i < text.size() && i < r.relog.size() && text[i] == r.relog[i]; ++i)
                    line += text[i] == '\n';
                return fail({line, "re-logging the replay gives a different log from this line on", "log-check"});
            }
            ctx.out << "check: re-logging the replay gives the identical log ("
                    << std::count(text.begin(), text.end(), '\n') << " lines)\n";
        }
    });
}

}  // namespace wp::cli
