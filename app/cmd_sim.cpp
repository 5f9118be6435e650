// `westphalia sim <ruleset> -n N --players P --seed S -j J [--format=json] [--agent A] [--seat N=A]
// [--no-check-invariants] [--compiled]`: plays N seeded games on J threads and summarises them (lengths,
// wins, end reasons, rule coverage, engine errors, invariant violations). The output does not
// depend on J.
#include "cli.hpp"
#include "westphalia/dsl/json_text.hpp"
#include "number_options.hpp"
#include "ruleset_input.hpp"
#include "seat_agents.hpp"
#include "distributed.hpp"

#include "westphalia/codegen/compiled_sim.hpp"
#include "westphalia/codegen/translate.hpp"
#include "westphalia/engine/search_agents.hpp"
#include "westphalia/engine/sim.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace wp::cli {

namespace {

struct sim_args {
    ruleset_input input;
    std::uint64_t games = 1000;
    int players = 2;
    std::uint64_t seed = 1;
    unsigned threads = 0;
    std::string agent = "random";
    std::vector<std::string> seats;  // N=AGENT
    bool json = false;
    bool no_check_invariants = false;
    bool invariants_in_steps = false;
    bool compiled = false;
    bool no_build_cache = false;
    bool mpi = false;
};

std::string fixed(double v, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
    return buffer;
}

std::string percent(double part, double whole) { return whole > 0 ? fixed(100.0 * part / whole, 1) + "%" : "-"; }

nlohmann::ordered_json to_json(const engine::sim_report& r) {
    using nlohmann::ordered_json;
    ordered_json j;
    j["ruleset"] = r.ruleset;
    if (!r.with.empty()) j["with"] = r.with;
    j["players"] = r.players;
    j["seed"] = r.seed;
    j["agent"] = r.agent;
    j["games"] = r.games;
    auto messages = [](const std::vector<engine::sim_message>& list) {
        ordered_json a = ordered_json::array();
        for (const auto& m : list) a.push_back({{"game", m.game}, {"seed", m.seed}, {"message", m.text}});
        return a;
    };
    j["engine_errors"] = {{"count", r.engine_errors}, {"first", messages(r.first_errors)}};
    if (!r.faults.empty()) {
        ordered_json faults = ordered_json::array();
        for (const engine::sim_fault& f : r.faults) {
            ordered_json e = {{"kind", f.fault.kind}, {"subject", f.fault.subject}};
            if (!f.fault.side.empty()) e["side"] = f.fault.side;
            e["games"] = f.games;
            e["first"] = {{"game", f.first.game}, {"seed", f.first.seed}, {"message", f.first.text}};
            faults.push_back(std::move(e));
        }
        j["engine_errors"]["faults"] = std::move(faults);
    }
    j["invariant_violations"] = {
        {"checked", r.invariants_checked}, {"count", r.invariant_violations}, {"first", messages(r.first_violations)}};
    if (!r.queries.empty()) {
        ordered_json queries = ordered_json::array();
        for (const engine::sim_query& q : r.queries) {
            ordered_json e = {{"name", q.name}, {"kind", q.kind}, {"games", q.games}};
            if (q.first) e["first"] = {{"game", q.first->game}, {"seed", q.first->seed}, {"message", q.first->text}};
            queries.push_back(std::move(e));
        }
        j["queries"] = std::move(queries);
    }
    ordered_json length = {{"games", r.finished},        {"mean", r.mean_decisions},
                           {"min", r.min_decisions},     {"max", r.max_decisions}};
    ordered_json percentiles = ordered_json::object();
    for (const auto& [p, v] : r.decision_percentiles) percentiles["p" + std::to_string(p)] = v;
    length["percentiles"] = percentiles;
    j["decisions"] = length;
    ordered_json wins = ordered_json::array();
    for (std::size_t s = 0; s < r.wins.size(); ++s)
        wins.push_back({{"seat", s + 1},
                        {"wins", r.wins[s]},
                        {"share", r.finished > 0 ? r.wins[s] / static_cast<double>(r.finished) : 0.0},
                        {"interval", {r.win_intervals[s].lo, r.win_intervals[s].hi}}});
    j["wins"] = {{"ties", "split: each winner of a game with k winners counts 1/k"},
                 {"intervals", "Wilson, 95% for all seats together (each at 1 - 0.05/seats)"},
                 {"seats", wins},
                 {"games_without_winner", r.games_without_winner}};
    ordered_json reasons = ordered_json::object();
    for (const auto& [reason, count] : r.end_reasons) reasons[reason] = count;
    j["end_reasons"] = reasons;
    ordered_json rules = ordered_json::array();
    for (const auto& rule : r.rules)
        rules.push_back({{"name", rule.name}, {"kind", rule.kind}, {"fires", rule.fires}, {"games", rule.games}});
    j["rules"] = rules;
    j["never_fired"] = r.never_fired;
    return j;
}

// The designer's queries: what the games showed of each (a game that answers it is evidence from
// setup; none is not a proof: `check` proves).
void print_queries(std::ostream& out, const engine::sim_report& r) {
    if (r.queries.empty()) return;
    out << "queries (after every decision and at the end):\n";
    for (const engine::sim_query& q : r.queries) {
        const bool always = q.kind == "assert always", reach = q.kind == "reachable";
        out << "  " << q.kind << ' ' << q.name << ": ";
        if (q.games == 0) {
            out << (always ? "true throughout every game" : reach ? "not reached in any game" : "never true in any game") << '\n';
            continue;
        }
        out << (always ? "false in " : reach ? "reached in " : "true in ") << q.games << " of " << r.games << " games";
        if (q.first) out << ", first in game " << q.first->game << " (seed " << q.first->seed << ") " << q.first->text;
        out << '\n';
    }
}

void print_human(std::ostream& out, const engine::sim_report& r) {
    out << r.ruleset << (r.with.empty() ? "" : " with " + r.with) << ": " << r.games << " games, " << r.players << " players, seed " << r.seed << ", "
        << (r.agent.rfind("P1 ", 0) == 0 ? "agents " + r.agent : r.agent + " agents") << '\n';
    out << "length in decisions: ";
    if (r.finished == 0) {
        out << "no finished game\n";
    } else {
        out << "mean " << fixed(r.mean_decisions, 1) << ", min " << r.min_decisions << ", max " << r.max_decisions;
        out << " (";
        bool first = true;
        for (const auto& [p, v] : r.decision_percentiles) {
            out << (first ? "" : ", ") << (p == 50 ? std::string("median") : "p" + std::to_string(p)) << ' ' << v;
            first = false;
        }
        out << ")\n";
    }
    out << "end reasons:";
    for (const auto& [reason, count] : r.end_reasons)
        out << ' ' << reason << ' ' << count << " (" << percent(static_cast<double>(count), static_cast<double>(r.games))
            << ")" << (&reason == &r.end_reasons.rbegin()->first ? "" : ",");
    out << '\n';
    out << "wins (a tie splits the win; 95% intervals for all seats together):";
    for (std::size_t s = 0; s < r.wins.size(); ++s) {
        out << " P" << s + 1 << ' ' << percent(r.wins[s], static_cast<double>(r.finished));
        if (r.finished > 0)
            out << " [" << fixed(100 * r.win_intervals[s].lo, 1) << "-" << fixed(100 * r.win_intervals[s].hi, 1) << "]";
        out << (s + 1 < r.wins.size() ? "," : "");
    }
    out << "; no winner " << r.games_without_winner << '\n';
    out << "engine errors: " << r.engine_errors << '\n';
    for (const auto& m : r.first_errors)
        out << "  game " << m.game << " (seed " << m.seed << "): " << m.text << '\n';
    if (!r.faults.empty()) {
        // the faults of the rules among them, by kind and subject (a field's side apart)
        std::vector<std::pair<std::string, std::uint64_t>> kinds;
        for (const engine::sim_fault& f : r.faults) {
            // (a stuck choice has no subject: no empty quotes for it)
            const std::string what = f.fault.kind + (f.fault.subject.empty() ? "" : " `" + f.fault.subject + "`") +
                                     (f.fault.side.empty() ? "" : " " + f.fault.side);
            auto at = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == what; });
            if (at == kinds.end()) at = kinds.insert(kinds.end(), {what, 0});
            at->second += f.games;
        }
        out << "  by kind:";
        for (std::size_t i = 0; i < kinds.size(); ++i)
            out << (i ? ", " : " ") << kinds[i].first << ' ' << kinds[i].second << (kinds[i].second == 1 ? " game" : " games");
        out << '\n';
    }
    out << "invariant violations: " << (r.invariants_checked ? std::to_string(r.invariant_violations) : "not checked")
        << '\n';
    for (const auto& m : r.first_violations)
        out << "  game " << m.game << " (seed " << m.seed << "): " << m.text << '\n';
    print_queries(out, r);
    out << "rules fired: " << r.rules.size() - r.never_fired.size() << " of " << r.rules.size() << "; never fired:";
    if (r.never_fired.empty()) out << " none";
    for (std::size_t i = 0; i < r.never_fired.size(); ++i) out << (i ? ", " : " ") << r.never_fired[i];
    out << '\n';
    if (r.rules.empty()) return;
    std::size_t width = 4;
    for (const auto& rule : r.rules) width = std::max(width, rule.name.size());
    std::size_t digits = 5;
    for (const auto& rule : r.rules) digits = std::max(digits, std::to_string(rule.fires).size());
    out << "rule" << std::string(width + 4 - 4 + digits - 5, ' ') << "fires  games\n";
    for (const auto& rule : r.rules) {
        const std::string fires = std::to_string(rule.fires);
        const std::string games = percent(static_cast<double>(rule.games), static_cast<double>(r.games));
        out << "  " << rule.name << std::string(width - rule.name.size() + 2 + digits - fires.size(), ' ') << fires
            << std::string(7 - std::min<std::size_t>(games.size(), 6), ' ') << games << '\n';
    }
}

}  // namespace

void add_sim_command(CLI::App& app, context& ctx) {
    auto args = std::make_shared<sim_args>();
    CLI::App* command = app.add_subcommand("sim", "Play many seeded games on several threads and summarise them");
    args->input.add_to(*command);
    command->add_option("-n,--games", args->games, "Number of games (at most 10000000)")
        ->check(whole_number(1, max_games, "the most games one run plays"))
        ->default_val(1000);
    command->add_option("--players", args->players, "Number of players")->default_val(2);
    command->add_option("--seed", args->seed, "Random seed; game i is seeded from (seed, i) only")
        ->check(whole_number(0, std::numeric_limits<std::uint64_t>::max()))
        ->default_val(1);
    command->add_option("-j,--jobs", args->threads, "Threads (default: one per core; at most 4 per core: more are lowered to that, with a note); the "
                        "report does not depend on it")
        ->check(whole_number(0, std::numeric_limits<unsigned>::max()));
    command->add_option("--agent", args->agent,
                        "Agent for every seat: random, first, greedy (one ply, by the rules' `wins`) or "
                        "mcts:ITERATIONS[:DEPTH] (Monte Carlo tree search; DEPTH decisions per playout, 0 to the end, default 100)")
        ->check([](const std::string& a) { return engine::agent_problem(a); })
        ->default_val("random");
    command->add_option("--seat", args->seats, "Agent for one seat: --seat 1=mcts:100 (repeatable)");
    command->get_option("--format")->description("How to print the report and any diagnostics: human, gnu or json (the report as one JSON object)");
    command->add_flag("--json", args->json, "The same as --format=json (kept for scripts written before --format)");
    command->add_flag("--no-check-invariants", args->no_check_invariants,
                      "Do not check the invariants after every decision");
    command->add_flag("--invariants-in-steps", args->invariants_in_steps,
                      "Check the invariants inside each step too, where the checker assumes them: at the start of each "
                      "phase and of each round of a loop, and where a loop ends (not with --compiled)");
    command->add_flag("--mpi", args->mpi,
                      "Split the games across the processes `mpirun -n K` started (each plays its share on -j threads); "
                      "the first prints the report, the same byte for byte as one process's");
    command->add_flag("--compiled", args->compiled,
                      "Play through the compiled engine: the ruleset translated to C++ and built with the C++ compiler "
                      "($CXX, else c++) first: the same games and report, many times faster (an invariant violation does not name "
                      "the statement that last changed what it reads); the built game is kept in $XDG_CACHE_HOME/westphalia/compiled "
                      "(else ~/.cache/westphalia/compiled) and used again for the same rules and compiler");
    command->add_flag("--no-build-cache", args->no_build_cache,
                      "With --compiled: build the game again, and keep nothing in the build cache");
    command->footer(
        "Rule fires count the points where a rule changed or decided something, once per point however\n"
        "often it was evaluated there: a trigger once per run; a modifier once per roll (or quantity\n"
        "evaluation) it was added to; a define once per decision it decided; a forbid once per decision\n"
        "point (choose, may, do) where it removed an option that would otherwise be legal; a permit once\n"
        "per decision point where it made legal an option whose guard fails; a require once per `may` it\n"
        "made mandatory. `games` is the share of games in which the rule fired at least once.\n"
        "An invariant violation names the invariant, the decision after which it first failed, and the\n"
        "rule or step whose statement last changed the state the invariant reads, with its position.");
    command->callback([args, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        if (args->json) args->input.diagnostics.format = "json";
        const bool json = args->input.diagnostics.format == "json";
        const auto rs = args->input.load(ctx, sources, sink);
        // In JSON the report is the one document on stdout: diagnostics alone when the ruleset does
        // not compile, else its warnings inside the report.
        if (!rs || !json) report(ctx, sources, sink, args->input.diagnostics);
        if (!rs) return;
        if (!check_player_count(ctx, *rs, args->players)) return;
        engine::sim_options options;
        options.games = args->games;
        options.players = args->players;
        options.seed = args->seed;
        options.threads = args->threads > 0 ? args->threads : std::max(1u, std::thread::hardware_concurrency());
        if (options.threads > thread_cap()) {
            ctx.err << "westphalia: note: -j " << args->threads << " is more than " << threads_per_core_cap
                    << " threads per core; using " << threads_per_core_cap << " per core\n";
            options.threads = thread_cap();
        }
        options.agent = args->agent;
        if (!read_seat_agents(ctx, args->seats, args->players, options.seat_agents)) return;
        // a `toward` agent's field must be the ruleset's
        std::vector<std::string> agent_names = options.seat_agents;
        agent_names.push_back(options.agent);
        for (const std::string& n : agent_names)
            if (const std::string problem = n.empty() ? "" : engine::agent_problem(n, *rs); !problem.empty()) {
                ctx.err << "westphalia: error: --agent: " << problem << '\n';
                ctx.exit_code = exit_bad_input;
                return;
            }
        options.check_invariants = !args->no_check_invariants;
        if (args->invariants_in_steps && (args->compiled || args->no_check_invariants)) {
            ctx.err << "westphalia: error: --invariants-in-steps: not with "
                    << (args->compiled ? "--compiled (the interpreter checks inside a step)" : "--no-check-invariants") << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        }
        options.check_in_steps = args->invariants_in_steps;
        // A progress line only for a person watching: never when stderr is a file, a pipe or a test stream.
        const bool show_progress = &ctx.err == &std::cerr && isatty(STDERR_FILENO) == 1;
        if (show_progress) {
            options.progress = [&ctx](std::uint64_t done, std::uint64_t total) {
                ctx.err << "\rsim: " << done << '/' << total << " games" << std::flush;
            };
        }
        if (args->mpi && (!mpi_simulator || args->compiled)) {
            ctx.err << "westphalia: error: --mpi: "
                    << (args->compiled ? std::string("not with --compiled")
                                       : "this westphalia was built without MPI (install libopenmpi-dev and build again: scripts/setup.sh)")
                    << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        }
        engine::sim_report r;
        try {
            if (args->mpi) {
                options.progress = nullptr;
                std::optional<engine::sim_report> made = mpi_simulator(*rs, options);
                if (!made) return;  // another process prints the report
                r = std::move(*made);
            } else if (args->compiled) {
                options.progress = nullptr;
                if (show_progress) ctx.err << "sim: translating and building the compiled game..." << std::flush;
                codegen::compiled_sim_options build;
                if (!args->no_build_cache) build.cache_dir = codegen::default_build_cache();
                r = codegen::simulate_compiled(*rs, options, build);
            } else {
                r = engine::simulate(*rs, options);
            }
        } catch (const codegen::unsupported& e) {
            if (show_progress) ctx.err << '\n';
            report_untranslatable(ctx, *rs, sources, sink, args->input.diagnostics, e);
            return;
        } catch (const codegen::build_error& e) {
            if (show_progress) ctx.err << '\n';
            ctx.err << "westphalia: error: " << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        } catch (const engine::engine_error& e) {
            if (show_progress) ctx.err << '\n';
            ctx.err << "westphalia: error: " << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        }
        if (show_progress) ctx.err << "\r\033[K" << std::flush;
        if (json) {
            nlohmann::ordered_json j = to_json(r);
            if (!sink.all().empty()) {
                std::ostringstream diagnostics;
                dsl::render(diagnostics, sources, sink.all(), dsl::diag_format::json, args->input.diagnostics.max_errors);
                j["diagnostics"] = nlohmann::ordered_json::parse(diagnostics.str()).at("diagnostics");
            }
            ctx.out << dsl::json_text(j, 2) << '\n';
        } else {
            print_human(ctx.out, r);
        }
        if (r.engine_errors > 0 || r.invariant_violations > 0) ctx.exit_code = exit_findings;
    });
}

}  // namespace wp::cli
