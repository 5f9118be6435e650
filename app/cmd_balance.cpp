// `westphalia balance <ruleset> -n N [--players P] [--seed S] [-j J] [--agent A] [--seat N=A]
// [--vary OPTION] [--option k=v] [-o report.txt] [--plot chart.svg] [--mpi]`: the same seeded games under
// each value of each option, one option at a time, with win shares and intervals, lengths, end
// reasons, and every cell against the baseline with Holm's correction (balance.hpp).
#include "balance.hpp"
#include "cli.hpp"
#include "number_options.hpp"
#include "output_file.hpp"
#include "ruleset_input.hpp"
#include "seat_agents.hpp"

#include "westphalia/engine/search_agents.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <thread>

namespace wp::cli {

namespace {

struct balance_args {
    ruleset_input input;
    std::uint64_t games = 1000;
    int players = 2;
    std::uint64_t seed = 1;
    unsigned threads = 0;
    std::string agent = "random";
    std::vector<std::string> seats, vary;
    std::string output, plot;
    bool mpi = false;
};

}  // namespace

void add_balance_command(CLI::App& app, context& ctx) {
    auto args = std::make_shared<balance_args>();
    CLI::App* command = app.add_subcommand(
        "balance", "Play the same seeded games under each value of each option and report win shares with intervals, "
                   "lengths and end reasons, each option value against the baseline");
    args->input.add_to(*command);
    command->add_option("-n,--games", args->games, "Games per cell (at most 10000000)")
        ->check(whole_number(1, max_games, "the most games one run plays"))
        ->default_val(1000);
    command->add_option("--players", args->players, "Number of players")->default_val(2);
    command->add_option("--seed", args->seed, "Random seed; game i of every cell is seeded from (seed, i) only")
        ->check(whole_number(0, std::numeric_limits<std::uint64_t>::max()))
        ->default_val(1);
    command->add_option("-j,--jobs", args->threads, "Threads (default: one per core); the report does not depend on it")
        ->check(whole_number(0, std::numeric_limits<unsigned>::max()));
    command->add_option("--agent", args->agent, "Agent for every seat: random, first, greedy or mcts:ITERATIONS[:DEPTH]")
        ->check([](const std::string& a) { return engine::agent_problem(a); })
        ->default_val("random");
    command->add_option("--seat", args->seats, "Agent for one seat: --seat 1=mcts:100 (repeatable)");
    command->add_option("--vary", args->vary, "Vary only this option (repeatable; default: every option not fixed by --option)");
    command->add_option("-o,--output", args->output, "Write the report to this file (`-`: standard output, the default)");
    command->add_flag("--mpi", args->mpi,
                      "Split the games across the processes `mpirun -n K` started (each plays its share on -j threads); "
                      "the first prints the report, the same byte for byte as one process's");
    command->add_option("--plot", args->plot, "Write an SVG chart: win share per cell with intervals, and game-length histograms");
    command->callback([args, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = args->input.load(ctx, sources, sink);
        report(ctx, sources, sink, args->input.diagnostics, /*output_follows=*/rs.has_value());
        if (!rs) return;
        if (!check_player_count(ctx, *rs, args->players)) return;
        for (const std::string& name : args->vary)
            if (std::none_of(rs->options.begin(), rs->options.end(), [&](const ir::option& o) { return o.name == name; })) {
                ctx.err << "westphalia: error: --vary: `" << name << "` is not an option of " << rs->name << '\n';
                ctx.exit_code = exit_bad_input;
                return;
            }
        const std::vector<std::string> inputs = input_files({args->input.path}, sources);
        if (!args->output.empty() && args->output != "-" && !check_output(ctx, "--output", args->output, inputs)) return;
        if (!args->plot.empty() && !check_output(ctx, "--plot", args->plot, inputs)) return;
        engine::sim_options options;
        options.games = args->games;
        options.players = args->players;
        options.seed = args->seed;
        options.threads = std::min(args->threads > 0 ? args->threads : std::max(1u, std::thread::hardware_concurrency()), thread_cap());
        options.agent = args->agent;
        options.check_invariants = false;  // a balance question; `sim` checks the invariants
        if (!read_seat_agents(ctx, args->seats, args->players, options.seat_agents)) return;
        for (const std::string& o : args->input.options) {
            const auto eq = o.find('=');
            options.options[o.substr(0, eq)] = o.substr(eq + 1);
        }
        if (args->mpi && !mpi_simulator) {
            ctx.err << "westphalia: error: --mpi: this westphalia was built without MPI (install libopenmpi-dev and build "
                       "again: scripts/setup.sh)\n";
            ctx.exit_code = exit_bad_input;
            return;
        }
        balance_report r;
        try {
            std::optional<balance_report> made = run_balance(*rs, options, args->vary, args->mpi ? mpi_simulator : nullptr);
            if (!made) return;  // another process prints the report
            r = std::move(*made);
        } catch (const engine::engine_error& e) {
            ctx.err << "westphalia: error: " << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        }
        const std::string text = balance_text(r);
        if (args->output.empty() || args->output == "-") ctx.out << text;
        else if (!write_output(ctx, "--output", args->output, text, inputs)) return;
        if (!args->plot.empty() && !write_output(ctx, "--plot", args->plot, balance_svg(r), inputs)) return;
        ctx.exit_code = exit_clean;
    });
}

}  // namespace wp::cli
