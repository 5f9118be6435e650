// westphalia-bench: the engine against hand-written C++ on Contractor Cards. Plays the same
// seeded random games through the engine — its interpreter, and its compiled form (the ruleset
// translated to C++ by `westphalia translate` at build time) — and through the hand-written
// version, checks that they play the same game (game by game, and statistically), and prints
// games per second, the interpreter's heap allocations, the compile, check and aid times of the
// bundled rulesets and (with --memory-games) the peak memory of a long simulation. The last
// line is `ratio engine/hand-written: X.XX` (the compiled engine, 2 players).
#include "allocation_counter.hpp"
#include "compiled_contractor_cards.hpp"
#include "contractor_cards.hpp"
#include "two_sample.hpp"

#include "cli.hpp"
#include "westphalia/codegen/translate.hpp"
#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/engine/sim.hpp"

#include <CLI/CLI.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <memory>
#include <sstream>
#include <thread>

namespace {

namespace fs = std::filesystem;
using namespace wp;
using clock_type = std::chrono::steady_clock;

struct bench_args {
    std::uint64_t games = 2000;
    int repeats = 5;
    std::uint64_t seed = 1;
    std::vector<int> players = {4, 2};
    double alpha = 0.01;
    std::uint64_t memory_games = 0;
    bool tools = true;
    double tool_timeout = 15;
    int check_runs = 3;  // the check time is the median of this many runs
    bool independent = false;  // cross-check the hand-written version on other seeds
    std::vector<std::string> engine_options;  // name=value: the engine plays another game
    std::string root = WP_SOURCE_DIR;
};

double seconds_since(clock_type::time_point t0) {
    return std::chrono::duration<double>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string fixed(double v, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
    return buffer;
}

std::string machine() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
}

// ---------------------------------------------------------------- one game through the engine

struct engine_game {
    std::uint64_t decisions = 0;
    std::string end_reason;
    std::vector<std::int64_t> gold;
    std::vector<int> winners;
};

// Heap allocations of the engine's game phases, summed over games.
struct allocation_counts {
    std::uint64_t setup = 0;    // the state's constructor: storage and play up to the first decision
    std::uint64_t loop = 0;     // every step after it
    std::uint64_t winners = 0;  // state::winners() at the end
};

// As the simulator plays a game (engine/src/sim.cpp play_one), without the invariant checks.
void play_engine(const engine::game& g, std::uint64_t seed, engine::random_agent& agent, std::uint64_t* decisions,
                 engine_game* out, allocation_counts* allocs) {
    engine::state_options so;
    so.sampled_chance = true;
    engine::rng agent_rng{seed ^ 0xA5A5A5A5DEADBEEFull};
    const std::uint64_t setup_start = allocs ? bench::allocations() : 0;
    std::optional<engine::state> started;
    try {
        started.emplace(g, seed, so);
    } catch (const engine::engine_error&) {
        if (out) {
            out->end_reason = "engine error";
            out->gold.assign(static_cast<std::size_t>(g.players()), 0);
        }
        return;
    }
    engine::state& s = *started;
    const std::uint64_t loop_start = allocs ? bench::allocations() : 0;
    if (allocs) allocs->setup += loop_start - setup_start;
    bool failed = false;
    try {
        while (!s.is_terminal()) {
            if (s.is_chance_node()) {
                s.apply_sampled();
                continue;
            }
            if (s.decisions() >= 1'000'000) break;
            s.apply(agent.act(engine::seat_view(s, s.current_player()), agent_rng));
        }
    } catch (const engine::engine_error&) {
        failed = true;  // counted as the end reason "engine error"
    }
    if (allocs) allocs->loop += bench::allocations() - loop_start;
    *decisions += s.decisions();
    if (!out) return;
    const std::uint64_t winners_start = allocs ? bench::allocations() : 0;
    try {
        if (s.is_terminal()) out->winners = s.winners();
    } catch (const engine::engine_error&) {
        failed = true;  // no rule decides who wins: an engine error too
    }
    if (allocs) allocs->winners += bench::allocations() - winners_start;
    out->decisions = s.decisions();
    out->end_reason = failed ? "engine error" : s.is_terminal() ? s.end_reason() : "decision limit";
    for (int p = 0; p < g.players(); ++p) out->gold.push_back(s.slot_value("gold", p));
}

// ---------------------------------------------------------------- the cross-check

struct samples {
    std::vector<double> length, gold;
    std::map<std::string, std::uint64_t> end_reasons;
};

// The IR index of per-player slot `gold` (what the compiled game's state is read by).
std::uint32_t gold_slot(const ir::ruleset& rs) {
    for (std::uint32_t i = 0; i < rs.slots.size(); ++i)
        if (rs.slots[i].name == "gold") return i;
    return 0;
}

// Whether the compiled engine plays the game the interpreter does: the compiled game is
// translated with every option at its default, so not with --engine-option.
bool compiled_comparable(const bench_args& a) { return a.engine_options.empty(); }

constexpr std::uint64_t agent_seed_mix = 0xA5A5A5A5DEADBEEFull;  // as engine::play_game and the simulator

bool cross_check(const engine::game& g, const bench_args& a, int players) {
    samples e, h, c;
    std::uint64_t identical = 0, decisions = 0, compiled_identical = 0, compiled_allocations = 0;
    allocation_counts allocs;
    engine::random_agent agent;
    const std::uint32_t gold_at = gold_slot(g.ruleset());
    const bool compiled = compiled_comparable(a);
    for (std::uint64_t i = 0; i < a.games; ++i) {
        const std::uint64_t seed = engine::game_seed(a.seed, i);
        engine_game eg;
        play_engine(g, seed, agent, &decisions, &eg, &allocs);
        if (compiled) {
            const std::uint64_t before = bench::allocations();
            const bench::compiled_outcome co = bench::play_compiled_contractor_cards(seed, seed ^ agent_seed_mix, players, gold_at);
            compiled_allocations += bench::allocations() - before;
            c.length.push_back(static_cast<double>(co.decisions));
            for (int p = 0; p < players; ++p) c.gold.push_back(static_cast<double>(co.gold[p]));
            ++c.end_reasons[co.end_reason];
            std::uint32_t mask = 0;
            for (int w : eg.winners) mask |= 1u << w;
            bool same = co.decisions == eg.decisions && eg.end_reason == co.end_reason && co.winners == mask;
            for (int p = 0; p < players; ++p) same = same && eg.gold[static_cast<std::size_t>(p)] == co.gold[p];
            compiled_identical += same;
        }
        const bench::hw_outcome ho =
            bench::play_contractor_cards(a.independent ? engine::game_seed(a.seed, a.games + i) : seed, players);
        e.length.push_back(static_cast<double>(eg.decisions));
        h.length.push_back(static_cast<double>(ho.decisions));
        for (int p = 0; p < players; ++p) {
            e.gold.push_back(static_cast<double>(eg.gold[static_cast<std::size_t>(p)]));
            h.gold.push_back(ho.gold[p]);
        }
        ++e.end_reasons[eg.end_reason];
        ++h.end_reasons[bench::hw_end_name(ho.end)];
        bool same = eg.decisions == ho.decisions && eg.end_reason == bench::hw_end_name(ho.end);
        std::uint32_t mask = 0;
        for (int w : eg.winners) mask |= 1u << w;
        same = same && mask == ho.winners;
        for (int p = 0; p < players; ++p) same = same && eg.gold[static_cast<std::size_t>(p)] == ho.gold[p];
        identical += same;
    }
    const double n = static_cast<double>(a.games);
    const auto per_game = [n](std::uint64_t v) { return fixed(static_cast<double>(v) / n, 1); };
    std::cout << "engine heap allocations (" << players << " players): " << per_game(allocs.setup + allocs.loop + allocs.winners)
              << " per game: " << per_game(allocs.setup) << " creating the state, " << per_game(allocs.loop)
              << " in the play loop ("
              << fixed(static_cast<double>(allocs.loop) / static_cast<double>(std::max<std::uint64_t>(decisions, 1)), 3)
              << " per decision), " << per_game(allocs.winners) << " finding the winners\n";
    const bench::test_result length = bench::kolmogorov_smirnov(e.length, h.length);
    const bench::test_result gold = bench::kolmogorov_smirnov(e.gold, h.gold);
    const bench::test_result reasons = bench::chi_square(e.end_reasons, h.end_reasons);
    auto verdict = [&](const bench::test_result& t) { return t.p_value >= a.alpha ? "agree" : "DISAGREE"; };
    std::cout << "cross-check (" << players << " players, " << a.games << " games each, "
              << (a.independent ? "different seeds" : "same seeds") << ", significance level " << a.alpha << "): " << identical
              << " of " << a.games << " games identical (length, end, gold, winners)\n";
    std::cout << "  game length   Kolmogorov-Smirnov D = " << fixed(length.statistic, 4) << ", p = " << fixed(length.p_value, 4)
              << ": " << verdict(length) << "\n";
    std::cout << "  final gold    Kolmogorov-Smirnov D = " << fixed(gold.statistic, 4) << ", p = " << fixed(gold.p_value, 4)
              << ": " << verdict(gold) << "\n";
    std::cout << "  end reasons   chi-square X2 = " << fixed(reasons.statistic, 3) << ", df = " << reasons.degrees_of_freedom
              << ", p = " << fixed(reasons.p_value, 4) << ": " << verdict(reasons) << " (engine";
    for (const auto& [k, v] : e.end_reasons) std::cout << ' ' << k << ' ' << v;
    std::cout << "; hand-written";
    for (const auto& [k, v] : h.end_reasons) std::cout << ' ' << k << ' ' << v;
    std::cout << ")\n";
    bool agree = length.p_value >= a.alpha && gold.p_value >= a.alpha && reasons.p_value >= a.alpha;
    if (!compiled) {
        std::cout << "compiled engine: not cross-checked (it is translated with every option at its default; "
                     "--engine-option plays the interpreter only)\n";
        return agree;
    }
    const bench::test_result c_length = bench::kolmogorov_smirnov(c.length, h.length);
    const bench::test_result c_gold = bench::kolmogorov_smirnov(c.gold, h.gold);
    const bench::test_result c_reasons = bench::chi_square(c.end_reasons, h.end_reasons);
    std::cout << "compiled engine heap allocations (" << players << " players): "
              << fixed(static_cast<double>(compiled_allocations) / n, 1) << " per game (the whole game, its result included)\n";
    std::cout << "compiled engine (" << players << " players): " << compiled_identical << " of " << a.games
              << " games identical to the interpreter's (length, end, gold, winners); against the hand-written: game length D = "
              << fixed(c_length.statistic, 4) << ", p = " << fixed(c_length.p_value, 4) << ": " << verdict(c_length)
              << "; final gold D = " << fixed(c_gold.statistic, 4) << ", p = " << fixed(c_gold.p_value, 4) << ": "
              << verdict(c_gold) << "; end reasons X2 = " << fixed(c_reasons.statistic, 3) << ", p = "
              << fixed(c_reasons.p_value, 4) << ": " << verdict(c_reasons) << "\n";
    agree = agree && compiled_identical == a.games && c_length.p_value >= a.alpha && c_gold.p_value >= a.alpha &&
            c_reasons.p_value >= a.alpha;
    return agree;
}

// ---------------------------------------------------------------- speed

struct speed_ratios {
    double interpreter = 0;  // the interpreter against the hand-written version
    double compiled = 0;     // the compiled engine against it (0: not measured)
};

// Games per second of each implementation (median of the runs; they alternate in each run).
speed_ratios speed(const engine::game& g, const bench_args& a, int players) {
    std::vector<double> engine_rate, compiled_rate, hand_rate;
    std::uint64_t sink = 0;
    engine::random_agent agent;
    const std::uint32_t gold = gold_slot(g.ruleset());
    const bool compiled = compiled_comparable(a);
    for (int r = 0; r < a.repeats; ++r) {
        auto t0 = clock_type::now();
        for (std::uint64_t i = 0; i < a.games; ++i) play_engine(g, engine::game_seed(a.seed, i), agent, &sink, nullptr, nullptr);
        engine_rate.push_back(static_cast<double>(a.games) / seconds_since(t0));
        if (compiled) {
            t0 = clock_type::now();
            for (std::uint64_t i = 0; i < a.games; ++i) {
                const std::uint64_t seed = engine::game_seed(a.seed, i);
                sink += bench::play_compiled_contractor_cards(seed, seed ^ agent_seed_mix, players, gold).decisions;
            }
            compiled_rate.push_back(static_cast<double>(a.games) / seconds_since(t0));
        }
        t0 = clock_type::now();
        for (std::uint64_t i = 0; i < a.games; ++i)
            sink += bench::play_contractor_cards(engine::game_seed(a.seed, i), players).decisions;
        hand_rate.push_back(static_cast<double>(a.games) / seconds_since(t0));
    }
    const double e = median(engine_rate), h = median(hand_rate);
    const double c = compiled ? median(compiled_rate) : 0;
    std::cout << players << " players: engine interpreting " << fixed(e, 0) << " games/s";
    if (compiled) std::cout << ", engine compiled " << fixed(c, 0) << " games/s";
    std::cout << ", hand-written " << fixed(h, 0) << " games/s (median of " << a.repeats << " runs of " << a.games
              << " games; " << sink / (compiled ? 3 : 2) / a.repeats / a.games << " decisions per game)\n";
    return {e / h, c / h};
}

// ---------------------------------------------------------------- tools

std::vector<fs::path> bundled_rulesets(const fs::path& root) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root / "rulesets", ec))
        if (entry.is_directory() && fs::exists(entry.path() / "ruleset.wph")) out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

// Runs `westphalia <args>` in-process in a child (from the source folder, so paths print
// relative to it): its wall time in seconds and exit code, or nothing when it was stopped after
// a.tool_timeout seconds.
struct tool_run {
    double seconds = 0;
    int exit = -1;
};
std::optional<tool_run> run_command(const bench_args& a, const std::vector<std::string>& args) {
    std::cout.flush();
    const auto t0 = clock_type::now();
    const pid_t child = fork();
    if (child == 0) {
        std::error_code ec;
        fs::current_path(a.root, ec);
        std::ostringstream out, err;
        _exit(ec ? 125 : cli::run(args, out, err));
    }
    int status = 0;
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (seconds_since(t0) > a.tool_timeout) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            return std::nullopt;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return tool_run{seconds_since(t0), WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

// Prints the median wall time of `runs` runs of `westphalia <args>` (the machine's speed varies
// by a third from one run to the next), their range, and the last exit code.
void time_command(const bench_args& a, const std::vector<std::string>& args, int runs = 1) {
    std::vector<double> t;
    int exit = -1;
    for (int r = 0; r < runs; ++r) {
        const std::optional<tool_run> one = run_command(a, args);
        if (!one) {
            std::cout << args[0] << ' ' << args[1] << ": more than " << fixed(a.tool_timeout, 0)
                      << " s (stopped; --tool-timeout to wait longer)\n";
            return;
        }
        t.push_back(one->seconds);
        exit = one->exit;
    }
    std::cout << args[0] << ' ' << args[1] << ": " << fixed(median(t) * 1000, 1) << " ms";
    if (runs > 1)
        std::cout << " (median of " << runs << ", " << fixed(*std::min_element(t.begin(), t.end()) * 1000, 0) << "-"
                  << fixed(*std::max_element(t.begin(), t.end()) * 1000, 0) << " ms; exit " << exit << ")\n";
    else
        std::cout << " (exit " << exit << ")\n";
}

// What checking the invariants inside each step costs a simulation (sim --invariants-in-steps,
// as the checker's random play does): 200 random games on one thread at the fewest players,
// invariants checked after each decision, and also inside the steps; medians of 3 runs each,
// alternated, and their ratio.
void time_invariants_in_steps(const fs::path& rs_dir, const std::string& rel) {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    const auto rs = compiler::compile_ruleset(rs_dir, {}, sources, sink);
    if (!rs || rs->sequences.empty()) return;
    engine::sim_options o;
    o.games = 200;
    o.players = static_cast<int>(std::max<std::int64_t>(2, rs->min_players));
    o.threads = 1;
    std::vector<double> plain, in_steps;
    std::uint64_t broken = 0;
    for (int r = 0; r < 3; ++r)
        for (bool steps : {false, true}) {
            o.check_in_steps = steps;
            const auto t0 = clock_type::now();
            const engine::sim_report rep = engine::simulate(*rs, o);
            (steps ? in_steps : plain).push_back(seconds_since(t0));
            if (steps) broken = rep.invariant_violations;
        }
    std::cout << "sim " << rel << " (" << o.games << " games, " << o.players << " players, 1 thread): invariants after decisions "
              << fixed(median(plain) * 1000, 1) << " ms, also inside steps " << fixed(median(in_steps) * 1000, 1)
              << " ms (medians of 3), ratio " << fixed(median(in_steps) / median(plain), 2) << "; " << broken
              << " violations\n";
}

void time_tools(const bench_args& a) {
    const fs::path root = a.root;
    for (const fs::path& rs : bundled_rulesets(root)) {
        const std::string rel = fs::relative(rs, root).string();
        std::vector<double> t;
        bool ok = true;
        for (int r = 0; r < 5; ++r) {
            dsl::source_manager sources;
            dsl::diagnostic_sink sink;
            const auto t0 = clock_type::now();
            ok = compiler::compile_ruleset(rs, {}, sources, sink).has_value();
            t.push_back(seconds_since(t0));
        }
        std::cout << "compile " << rel << ": " << fixed(median(t) * 1000, 1) << " ms (median of 5)"
                  << (ok ? "" : ", with errors") << "\n";
        // the compiled engine's translation (the C++ compiler's build comes on top, seconds)
        if (ok) {
            dsl::source_manager sources;
            dsl::diagnostic_sink sink;
            const auto ir = compiler::compile_ruleset(rs, {}, sources, sink);
            std::vector<double> tt;
            std::size_t bytes = 0;
            std::string failed;
            for (int r = 0; r < 3 && ir && failed.empty(); ++r) {
                const auto t0 = clock_type::now();
                try {
                    bytes = codegen::translate(*ir).size();
                } catch (const std::exception& e) {
                    failed = e.what();
                }
                tt.push_back(seconds_since(t0));
            }
            if (failed.empty())
                std::cout << "translate " << rel << ": " << fixed(median(tt) * 1000, 1) << " ms (median of 3; " << bytes / 1024
                          << " KiB of C++)\n";
            else
                std::cout << "translate " << rel << ": not translated (" << failed << ")\n";
        }
        if (ok) time_invariants_in_steps(rs, rel);
        const fs::path pdf = fs::temp_directory_path() / ("westphalia-bench-" + std::to_string(getpid()) + ".pdf");
        time_command(a, {"check", rel}, a.check_runs);
        time_command(a, {"aid", rel, "-o", pdf.string()});
        std::error_code ec;
        fs::remove(pdf, ec);
    }
}

// Peak resident memory of a simulation of `games` games (2 players, every core), measured in
// a child process (its own getrusage, sent back through a pipe), before anything else big has
// run, so that little but the simulation counts.
void peak_memory(const ir::ruleset& rs, std::uint64_t games) {
    std::cout.flush();
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    int channel[2];
    if (pipe(channel) != 0) {
        std::cout << "peak memory: not measured (no pipe)\n";
        return;
    }
    const auto t0 = clock_type::now();
    const pid_t child = fork();
    if (child == 0) {
        close(channel[0]);
        engine::sim_options o;
        o.games = games;
        o.players = 2;
        o.threads = threads;
        const engine::sim_report r = engine::simulate(rs, o);
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        const long kib = usage.ru_maxrss;
        const bool written = write(channel[1], &kib, sizeof kib) == static_cast<ssize_t>(sizeof kib);
        _exit(written && r.engine_errors == 0 ? 0 : 1);
    }
    close(channel[1]);
    long kib = 0;
    const bool got = read(channel[0], &kib, sizeof kib) == static_cast<ssize_t>(sizeof kib);
    close(channel[0]);
    int status = 0;
    waitpid(child, &status, 0);
    const double s = seconds_since(t0);
    std::cout << "peak memory of a simulation of " << games << " games (2 players, invariants checked, " << threads
              << " threads): ";
    if (got)
        std::cout << fixed(static_cast<double>(kib) / 1024.0, 1) << " MiB";
    else
        std::cout << "not measured";
    std::cout << " (the benchmark held " << fixed(static_cast<double>(self.ru_maxrss) / 1024.0, 1) << " MiB when it forked), "
              << fixed(s, 1) << " s, " << fixed(static_cast<double>(games) / s, 0) << " games/s"
              << (WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : ", FAILED") << "\n";
}

}  // namespace

int main(int argc, char** argv) {
    bench_args a;
    CLI::App app{"westphalia-bench: the engine against hand-written C++ on Contractor Cards"};
    app.add_option("-n,--games", a.games, "Games per run and per implementation")->default_val(a.games);
    app.add_option("-r,--repeats", a.repeats, "Timed runs; the median is reported")->default_val(a.repeats);
    app.add_option("--seed", a.seed, "Game i is seeded with game_seed(seed, i), as `westphalia sim`")->default_val(a.seed);
    app.add_option("--players", a.players, "Player counts to measure; the last one gives the last line")
        ->default_str("4 2")
        ->check(CLI::Range(2, 16));
    app.add_option("--alpha", a.alpha, "Significance level of the cross-check")->default_val(a.alpha);
    app.add_option("--engine-option", a.engine_options,
                   "Play the engine with an option away from its default (name=value, repeatable): the "
                   "cross-check should then disagree");
    app.add_flag("--independent", a.independent,
                 "Cross-check on independent samples: the hand-written games use the next N seeds");
    app.add_option("--memory-games", a.memory_games, "Also measure the peak memory of a simulation of this many games");
    app.add_flag("!--no-tools", a.tools, "Do not time compile, check and aid");
    app.add_option("--check-runs", a.check_runs, "Runs of `check` per ruleset; the median is reported")
        ->default_val(a.check_runs)
        ->check(CLI::Range(1, 20));
    app.add_option("--tool-timeout", a.tool_timeout, "Stop `check` or `aid` after this many seconds")
        ->default_val(a.tool_timeout);
    app.add_option("--root", a.root, "The Westphalia source folder (rulesets/)")->default_val(a.root);
    CLI11_PARSE(app, argc, argv);
    if (a.games == 0 || a.repeats < 1) {
        std::cerr << "westphalia-bench: error: --games and --repeats must be at least 1\n";
        return 2;
    }

    const fs::path ruleset = fs::path(a.root) / "rulesets" / "contractor-cards";
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    const auto rs = compiler::compile_ruleset(ruleset, {}, sources, sink);
    if (!rs) {
        std::cerr << "westphalia-bench: error: " << ruleset.string() << " does not compile (run `westphalia compile` on it)\n";
        return 2;
    }
    std::cout << "westphalia-bench: Contractor Cards (" << ruleset.string() << ", options at their defaults), seed " << a.seed
              << "\nmachine: " << machine() << "\n";
    if (a.memory_games > 0) peak_memory(*rs, a.memory_games);
    if (a.tools) time_tools(a);

    bool agree = true;
    std::vector<std::pair<int, speed_ratios>> ratios;
    for (int players : a.players) {
        std::map<std::string, std::string> options;
        for (const std::string& o : a.engine_options) {
            const auto eq = o.find('=');
            if (eq == std::string::npos) {
                std::cerr << "westphalia-bench: error: --engine-option wants name=value, not `" << o << "`\n";
                return 2;
            }
            options[o.substr(0, eq)] = o.substr(eq + 1);
        }
        std::unique_ptr<engine::game> g;
        try {
            g = std::make_unique<engine::game>(*rs, players, options);
        } catch (const engine::engine_error& e) {
            std::cerr << "westphalia-bench: error: " << e.what() << "\n";
            return 2;
        }
        agree = cross_check(*g, a, players) && agree;
        ratios.emplace_back(players, speed(*g, a, players));
    }
    // The interpreter's ratios first; the last lines are the engine's compiled form, what a
    // long simulation runs (`westphalia translate`), unless --engine-option left it out.
    for (const auto& [players, r] : ratios)
        std::cout << "ratio engine interpreting/hand-written (" << players << " players): " << fixed(r.interpreter, 2) << "\n";
    if (compiled_comparable(a))
        for (std::size_t i = 0; i < ratios.size(); ++i) {
            std::cout << "ratio engine/hand-written";
            if (i + 1 < ratios.size()) std::cout << " (" << ratios[i].first << " players)";
            std::cout << ": " << fixed(ratios[i].second.compiled, 2) << "\n";
        }
    if (!agree) std::cerr << "westphalia-bench: the engine and the hand-written version disagree (see the cross-check)\n";
    return agree ? 0 : 1;
}
