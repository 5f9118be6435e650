// `westphalia play <ruleset> --players N --seed S [--option k=v] [--agent random|first]`:
// plays one game with the engine, printing one line per turn, emitted event and the end.
#include "cli.hpp"
#include "ruleset_input.hpp"

#include "westphalia/engine/engine.hpp"

#include <functional>

namespace wp::cli {

namespace {

struct play_args {
    ruleset_input input;
    int players = 2;
    std::uint64_t seed = 1;
    std::string agent = "random";
    bool quiet = false;
};

}  // namespace

void add_play_command(CLI::App& app, context& ctx) {
    auto args = std::make_shared<play_args>();
    CLI::App* command = app.add_subcommand("play", "Play one game with computer agents and print what happens");
    args->input.add_to(*command);
    command->add_option("--players", args->players, "Number of players")->default_val(2);
    command->add_option("--seed", args->seed, "Random seed (the same seed plays the same game)")->default_val(1);
    command->add_option("--agent", args->agent, "Agent for every seat: random or first")
        ->check(CLI::IsMember({"random", "first"}))
        ->default_val("random");
    command->add_flag("--quiet", args->quiet, "Print only the result");
    command->callback([args, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = args->input.load(ctx, sources, sink);
        report(ctx, sources, sink, args->input.diagnostics);
        if (!rs) return;
        if (args->players < rs->min_players || args->players > rs->max_players) {
            ctx.err << "westphalia: error: " << rs->name << " is played by " << rs->min_players << " to "
                    << rs->max_players << " players, not " << args->players << " (--players)\n";
            ctx.exit_code = exit_bad_input;
            return;
        }
        engine::random_agent random;
        engine::first_legal_agent first;
        std::vector<engine::agent*> agents{args->agent == "first" ? static_cast<engine::agent*>(&first) : &random};
        const std::function<void(const std::string&)> trace = [&ctx](const std::string& line) { ctx.out << line << '\n'; };
        engine::play_options options;
        if (!args->quiet) options.trace = &trace;
        const engine::play_result r = engine::play_game(*rs, args->players, args->seed, agents, options);
        if (!r.error.empty()) {
            ctx.err << "westphalia: engine error: " << r.error << '\n';
            ctx.exit_code = exit_findings;
            return;
        }
        ctx.out << "end: " << r.end_reason << " after " << r.decisions << " decisions\n";
        ctx.out << "winners:";
        if (r.winners.empty()) ctx.out << " none";
        for (int w : r.winners) ctx.out << " P" << w + 1;
        ctx.out << '\n';
    });
}

}  // namespace wp::cli
