// `westphalia play <ruleset> --players N --seed S [--option k=v] [--agent A] [--seat N=A]
// [--log FILE]`: plays one game with the engine, printing one line per turn, emitted event and
// the end, with every player's final state fields. Agents: random, first, greedy, mcts:N[:D]
// (engine/search_agents.hpp), human (at the terminal) or script:FILE (one action per line: its
// number as the prompt shows it, or its exact text).
#include "account_writer.hpp"
#include "cli.hpp"
#include "human_agent.hpp"
#include "number_options.hpp"
#include "output_file.hpp"
#include "play_summary.hpp"
#include "script_text.hpp"
#include "seat_agents.hpp"
#include "ruleset_input.hpp"

#include "westphalia/engine/agents.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/engine/log.hpp"
#include "westphalia/engine/search_agents.hpp"

#include <algorithm>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>

namespace wp::cli {

namespace {

struct play_args {
    ruleset_input input;
    int players = 2;
    std::uint64_t seed = 1;
    std::string agent = "random";
    std::vector<std::string> seats;  // N=AGENT
    std::string log;
    std::string resume;
    bool quiet = false;
    bool verbose = false;
    bool no_check_invariants = false;
};


std::string check_agent(const std::string& a) {
    if (a == "human") return {};
    if (a.rfind("script:", 0) == 0 && a.size() > 7) return {};
    if (a.rfind("mcts", 0) == 0 || a.rfind("toward", 0) == 0) return engine::agent_problem(a);
    if (engine::agent_problem(a).empty()) return {};
    return "`" + a + "` is not an agent: random, first, greedy, mcts:ITERATIONS[:DEPTH], toward:FIELD:below|above, human "
           "or script:FILE";
}

}  // namespace

void add_play_command(CLI::App& app, context& ctx) {
    auto args = std::make_shared<play_args>();
    CLI::App* command = app.add_subcommand("play", "Play one game with computer agents and print what happens");
    args->input.add_to(*command);
    command->add_option("--players", args->players, "Number of players")->default_val(2);
    command->add_option("--seed", args->seed, "Random seed (the same seed plays the same game)")
        ->check(whole_number(0, std::numeric_limits<std::uint64_t>::max()))
        ->default_val(1);
    command->add_option("--agent", args->agent,
                        "Agent for every seat: random, first, greedy (one ply, by the rules' `wins`), "
                        "mcts:ITERATIONS[:DEPTH] (Monte Carlo tree search; DEPTH decisions per playout, 0 to the end, default 100), "
                        "human (at the terminal) or script:FILE "
                        "(one action per line: its number as the prompt shows it, after a first line `#! options from 1`, or its exact "
                        "text; the end of the script is an error)")
        ->check(check_agent)
        ->default_val("random");
    command->add_option("--seat", args->seats, "Agent for one seat: --seat 2=human (repeatable)");
    command->add_option("--log", args->log, "Write a JSON-lines game log to this file (replay it with `replay`; `-`: standard output)");
    command->add_flag("--quiet", args->quiet, "Print only the first line and the result");
    command->add_flag("--no-check-invariants", args->no_check_invariants,
                      "Do not check the invariants (by default, after every decision and inside each step, where the "
                      "checker assumes them; a broken one is told where it breaks, listed at the end, and exits 1)");
    command->add_flag("--verbose", args->verbose, "Also print every step's start and every change of state, not only the players' own")
        ->excludes("--quiet");
    command->add_option("--resume", args->resume,
                        "Continue the game a log holds (a human's `w FILE` saves one): its players, seed and agents, "
                        "unless --agent or --seat say otherwise");
    command->callback([args, &ctx, command] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = args->input.load(ctx, sources, sink);
        report(ctx, sources, sink, args->input.diagnostics, /*output_follows=*/rs.has_value());
        if (!rs) return;
        // A resumed game: the log's header gives the players, the seed and (unless the command
        // line names them) the agents; replay_log checks every step before play goes on.
        std::string resume_text;
        std::optional<engine::log_header> resumed;
        if (!args->resume.empty()) {
            auto fail = [&](const engine::log_error& e) {
                ctx.err << args->resume << ':' << e.line << ": error: " << e.message << " [" << e.kind << "]\n";
                ctx.exit_code = exit_bad_input;
            };
            if (command->get_option("--players")->count() > 0 || command->get_option("--seed")->count() > 0) {
                ctx.err << "westphalia: error: --resume: the players and the seed are the log's; leave out --players and --seed\n";
                ctx.exit_code = exit_bad_input;
                return;
            }
            const std::optional<std::string> read = read_whole_file(args->resume);
            if (!read) {
                ctx.err << "westphalia: error: --resume: cannot read `" << args->resume << "`\n";
                ctx.exit_code = exit_bad_input;
                return;
            }
            resume_text = *read;
            engine::log_error error;
            resumed = engine::read_log_header(resume_text, error);
            if (!resumed) return fail(error);
            const engine::replay_result check = engine::replay_log(resume_text, *rs, *resumed);
            if (check.error) return fail(*check.error);
            if (check.result.final_state && check.result.final_state->is_terminal())
                return fail({1, "the game is over (" + check.result.end_reason + "): nothing to resume", "log-resume"});
            if (!check.result.error.empty())
                return fail({1, "the game stopped with an engine error: nothing to resume", "log-resume"});
            args->players = resumed->players;
            args->seed = resumed->seed;
            if (command->get_option("--agent")->count() == 0 && args->seats.empty()) {
                if (resumed->agents.size() == 1) args->agent = resumed->agents[0];
                else
                    for (std::size_t p = 0; p < resumed->agents.size(); ++p)
                        args->seats.push_back(std::to_string(p + 1) + "=" + resumed->agents[p]);
            }
        }
        if (!check_player_count(ctx, *rs, args->players)) return;
        std::vector<std::string> names(static_cast<std::size_t>(args->players), args->agent);
        std::vector<std::string> seat_names;
        if (!read_seat_agents(ctx, args->seats, args->players, seat_names, check_agent)) return;
        for (std::size_t p = 0; p < seat_names.size(); ++p)
            if (!seat_names[p].empty()) names[p] = seat_names[p];
        for (const std::string& n : names)
            if (n.rfind("toward:", 0) == 0)
                if (const std::string problem = engine::agent_problem(n, *rs); !problem.empty()) {
                    ctx.err << "westphalia: error: --agent: " << problem << '\n';
                    ctx.exit_code = exit_bad_input;
                    return;
                }
        std::vector<std::string> inputs = input_files({args->input.path}, sources);
        for (const std::string& n : names)
            if (n.rfind("script:", 0) == 0) {
                if (!check_script_text(ctx, n.substr(7))) return;
                inputs.push_back(n.substr(7));
            }
        if (!args->resume.empty()) inputs.push_back(args->resume);
        if (!args->log.empty() && !check_output(ctx, "--log", args->log, inputs)) return;
        std::vector<std::unique_ptr<engine::agent>> owned;
        std::vector<engine::agent*> agents;
        try {
            for (const std::string& n : names) {
                if (n == "human") owned.push_back(std::make_unique<human_agent>(ctx.in ? *ctx.in : std::cin, ctx.out));
                else if (n.rfind("script:", 0) == 0)
                    owned.push_back(std::make_unique<engine::script_agent>(engine::script_agent::from_file(n.substr(7))));
                else owned.push_back(engine::make_agent(n));
                agents.push_back(owned.back().get());
            }
        } catch (const engine::agent_stop& e) {
            ctx.err << "westphalia: error: " << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        }
        engine::log_header header;
        header.ruleset_name = rs->name;
        header.ruleset_path = args->input.path;
        header.fingerprint = engine::ir_fingerprint(*rs);
        header.upto = args->input.upto;
        header.with = args->input.with;
        for (const std::string& o : args->input.options) {
            const auto eq = o.find('=');
            header.options[o.substr(0, eq)] = o.substr(eq + 1);
        }
        header.players = args->players;
        header.seed = args->seed;
        bool same = true;
        for (const std::string& n : names) same = same && n == names[0];
        header.agents = same ? std::vector<std::string>{names[0]} : names;
        if (same) agents.resize(1);

        // With the log on standard output (`--log -`), the account goes to standard error.
        std::ostream& account = args->log == "-" ? ctx.err : ctx.out;
        print_game_header(account, rs->name, args->players, args->seed, header.agents);
        const std::function<void(const std::string&)> trace = account_writer(account, ctx.colored(account));
        engine::play_options options;
        if (!args->quiet) options.trace = &trace;
        options.trace_verbose = args->verbose;
        options.check_invariants = !args->no_check_invariants;
        // One human among other agents reads the account at the terminal: it is that seat's own,
        // as `replay --as` prints it (the others' secret decisions and hidden fields left out).
        // Several humans share the screen, and a game of agents alone hides nothing.
        const int humans = static_cast<int>(std::count(names.begin(), names.end(), std::string("human")));
        if (humans == 1 && names.size() > 1)
            options.viewer = static_cast<int>(std::find(names.begin(), names.end(), std::string("human")) - names.begin());
        if (resumed) options.resume = &resume_text;
        engine::logged_play played = engine::play_logged(*rs, header, agents, options);
        // A human's `u`: the game again from its log, cut before that seat's previous decision
        // (the same dice up to there), the account silent until that decision is asked again.
        // A `w FILE` that cannot be written (an input, a directory, no room) says why and plays
        // the whole log again, so the game goes on where it was.
        std::string again;
        bool saved = false;
        for (;;) {
            if (played.undo_seat >= 0) {
                again = engine::log_before_last_decision(played.log, played.undo_seat);
                if (again.empty()) break;  // (the human agent refuses `u` before its first decision)
                options.resume_note = "undo: back to P" + std::to_string(played.undo_seat + 1) + "'s previous decision";
            } else if (!played.save_to.empty()) {
                if (write_output(ctx, "w", played.save_to, played.log, inputs)) {
                    saved = true;
                    break;
                }
                ctx.exit_code = exit_clean;  // the reason is on standard error; the game is not lost
                again = played.log;
                options.resume_note = "not saved to " + played.save_to + ": the game goes on";
            } else {
                break;
            }
            for (const auto& a : owned)
                if (auto* h = dynamic_cast<human_agent*>(a.get())) h->restart();
            options.resume = &again;
            played = engine::play_logged(*rs, header, agents, options);
        }
        if (!args->log.empty() && !write_output(ctx, "--log", args->log, played.log, inputs)) return;
        if (saved) {
            account << "game saved to " << played.save_to << " after " << played.result.decisions
                    << " decisions: continue it with `westphalia play " << args->input.path << " --resume " << played.save_to
                    << "`\n";
            return;
        }
        const engine::play_result& r = played.result;
        if (!r.error.empty()) {
            for (const std::string& v : r.invariant_violations) ctx.err << "westphalia: invariant broken: " << v << '\n';
            ctx.err << "westphalia: engine error: " << r.error << '\n';
            ctx.exit_code = exit_findings;
            return;
        }
        if (!played.stop.empty()) {
            if (played.stop_is_error) {
                ctx.err << "westphalia: error: " << played.stop << '\n';
                ctx.exit_code = exit_bad_input;
            } else {
                account << "game abandoned: " << played.stop << " after " << r.decisions << " decisions\n";
            }
            return;
        }
        print_summary(account, r, options.viewer);
        if (!r.invariant_violations.empty()) ctx.exit_code = exit_findings;
    });
}

}  // namespace wp::cli
