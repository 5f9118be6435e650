// `westphalia check <ruleset>`: the Z3 checker (contradictions, gaps, dead rules and cells,
// bounds, reachability, stuck states, examples) with human, JSON or SARIF reports.
#include "cli.hpp"
#include "westphalia/dsl/json_text.hpp"
#include "compile_failure.hpp"
#include "number_options.hpp"
#include "output_file.hpp"
#include "proof_cache.hpp"
#include "ruleset_input.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/ir/print.hpp"
#include "westphalia/verify/check.hpp"
#include "westphalia/verify/report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>

#include <unistd.h>

namespace wp::cli {

namespace {

// File names as the user sees them (ruleset files are stored relative to the ruleset folder),
// and their lines, read once.
class source_lines {
public:
    source_lines(const std::filesystem::path& input, const ir::ruleset& rs) : rs_(rs) {
        if (std::filesystem::is_directory(input)) folder_ = input;
    }
    std::string path(ir::id f) const {
        if (f >= rs_.files.size()) return "?";
        const std::filesystem::path p(rs_.files[f]);
        if (folder_.empty() || p.is_absolute()) return p.generic_string();
        return (folder_ / p).lexically_normal().generic_string();
    }
    std::optional<std::string> line(ir::id f, std::uint32_t n) {
        auto& lines = cache_[f];
        if (lines.empty()) {
            std::ifstream in(path(f), std::ios::binary);
            std::string l;
            while (std::getline(in, l)) lines.push_back(l);
            if (lines.empty()) lines.push_back("");
        }
        if (n == 0 || n > lines.size()) return std::nullopt;
        return lines[n - 1];
    }

private:
    const ir::ruleset& rs_;
    std::filesystem::path folder_;
    std::map<ir::id, std::vector<std::string>> cache_;
};

std::string options_text(const ir::ruleset& rs) {
    std::string s;
    for (const ir::option& o : rs.options) {
        if (o.values.empty() || o.selected_index == o.default_index) continue;
        s += (s.empty() ? "" : ", ") + o.name + "=" + ir::constant_text(rs, o.type, o.values.at(o.selected_index));
    }
    return s.empty() ? "defaults" : s;
}

// Every combination of option values, or, when there are more than `limit`, the defaults and
// each value of each option alone (a stated sample).
std::vector<std::map<std::string, std::string>> option_runs(const ir::ruleset& rs, std::size_t limit, bool& sampled) {
    std::vector<std::map<std::string, std::string>> runs{{}};
    double total = 1;
    for (const ir::option& o : rs.options) total *= static_cast<double>(std::max<std::size_t>(1, o.values.size()));
    sampled = total > static_cast<double>(limit);
    if (sampled) {
        for (const ir::option& o : rs.options)
            for (std::size_t v = 0; v < o.values.size(); ++v)
                if (v != o.default_index) runs.push_back({{o.name, ir::constant_text(rs, o.type, o.values[v])}});
        return runs;
    }
    for (const ir::option& o : rs.options) {
        std::vector<std::map<std::string, std::string>> next;
        for (const auto& r : runs)
            for (std::size_t v = 0; v < o.values.size(); ++v) {
                auto x = r;
                x[o.name] = ir::constant_text(rs, o.type, o.values[v]);
                next.push_back(std::move(x));
            }
        runs = std::move(next);
    }
    return runs;
}

// False, with the flag and the path named (exit 2), when --dump-smt's folder cannot be made or
// written: found now rather than as a failure in the middle of the check.
bool check_dump_folder(context& ctx, const std::string& dir) {
    namespace fs = std::filesystem;
    auto refuse = [&](const std::string& why) {
        ctx.err << "westphalia: error: --dump-smt: cannot write SMT files into `" << dir << "`: " << why << '\n';
        ctx.exit_code = exit_bad_input;
        return false;
    };
    std::error_code ec;
    const fs::file_status st = fs::status(dir, ec);
    if (fs::exists(st) && !fs::is_directory(st)) return refuse("it is not a folder");
    if (!fs::exists(st)) {
        fs::create_directories(dir, ec);
        if (ec) return refuse(ec.message());
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) return refuse(std::strerror(errno));
    return true;
}

// False, with the reason (exit 2), when --compare does not name two layers of the stack
// checked, the lower first, or the ruleset is an IR file (no rule files to compile a stack from).
bool check_compare_layers(context& ctx, const ir::ruleset& rs, const ruleset_input& in, const std::vector<std::string>& names) {
    auto refuse = [&](const std::string& why) {
        ctx.err << "westphalia: error: --compare: " << why << '\n';
        ctx.exit_code = exit_bad_input;
        return false;
    };
    if (std::filesystem::path(in.path).extension() == ".json")
        return refuse("compares stacks compiled from the rule files; `" + in.path + "` is an IR file");
    std::string all;
    for (const ir::layer& l : rs.layers) all += (all.empty() ? "" : ", ") + l.name;
    std::size_t at[2] = {0, 0};
    for (std::size_t k = 0; k < 2; ++k) {
        const auto it = std::find_if(rs.layers.begin(), rs.layers.end(), [&](const ir::layer& l) { return l.name == names[k]; });
        if (it == rs.layers.end())
            return refuse("no layer `" + names[k] + "` among the layers checked (" + all + (in.upto.empty() ? "" : "; --upto " + in.upto) + ")");
        at[k] = static_cast<std::size_t>(it - rs.layers.begin());
    }
    if (at[0] >= at[1])
        return refuse("the lower layer comes first: `" + names[0] + "` is not below `" + names[1] + "` (the layers: " + all + ")");
    return true;
}

}  // namespace

void add_check_command(CLI::App& app, context& ctx) {
    struct settings {
        ruleset_input input;
        std::string format = "human";
        std::string output;
        bool all_options = false;
        double timeout = 60;
        double max_time = 0;
        std::vector<std::string> checks;
        unsigned rlimit = verify::check_options::default_rlimit;  // when given; else the manifest's
        CLI::Option* rlimit_given = nullptr;
        std::string dump_smt;
        int players = 0;
        bool stats = false;
        bool cache = false;
        bool strict_reach = false;
        std::string cache_dir;
        std::uint64_t unfold_limit = 0;  // when given; else the manifest's, else 16384
        int unroll_depth = 0;            // when given; else the manifest's, else 0
        std::uint64_t evidence_games = 0;  // when given; else the manifest's, else 100
        CLI::Option* unfold_given = nullptr;
        CLI::Option* unroll_given = nullptr;
        CLI::Option* evidence_given = nullptr;
        unsigned jobs = 0;
        std::vector<std::string> compare;  // --compare LOWER UPPER
    };
    auto s = std::make_shared<settings>();
    CLI::App* command = app.add_subcommand(
        "check", "Prove or refute properties of the rules: contradictions, gaps, dead rules and table cells, bound "
                 "violations, unreachable phases, stuck states, broken examples");
    command->add_option("ruleset", s->input.path, "A ruleset folder, a single .wph file, or an IR file (.json)")->required();
    command->add_option("--option", s->input.options, "Choose an option's value: --option name=value (repeatable)");
    command->add_option("--upto", s->input.upto, "Check the layers only up to and including this one (e.g. base)");
    add_with_option(*command, s->input.with);
    command->add_flag("--all-options", s->all_options,
                      "Check every combination of option values (or, past 32 combinations, each value alone)");
    command->add_option("--format", s->format, "Report as human text, json or sarif (SARIF 2.1.0); a ruleset that does not compile gets its diagnostics in the same form")
        ->check(CLI::IsMember({"human", "json", "sarif"}))
        ->capture_default_str();
    command->add_option("-o,--output", s->output, "Write the report to this file (`-`: standard output)");
    add_max_errors(*command, s->input.diagnostics);
    add_seconds(*command, "--timeout", s->timeout,
                "Seconds allowed for each solver query, a backstop to --rlimit (four times it where the resource limit is "
                "four times too; a query that runs out is an `unknown` finding, never a pass)",
                0.001, 3600.0);
    add_seconds(*command, "--max-time", s->max_time,
                "Seconds for the whole check (0: no limit); past them no more queries are asked and each question left "
                "is an `unknown` finding",
                0.0, 86400.0);
    command->add_option("--checks", s->checks,
                        "Run only these checks (comma-separated): decisions, examples, tables, bounds, choices, "
                        "reach, invariants, queries, obligations, aid, secrets (default: all)")
        ->delimiter(',')
        ->check(CLI::IsMember({"decisions", "examples", "tables", "bounds", "choices", "reach", "invariants", "queries", "obligations", "aid", "secrets"}));
    command->add_option("--compare", s->compare,
                        "Compare two layers: --compare LOWER UPPER reports each outcome of the rules up to LOWER that "
                        "the layers above it, up to UPPER, change without declaring it (no overrides, no errata "
                        "block; an `undeclared-change` warning), e.g. --compare standard freiburg")
        ->expected(2);
    s->rlimit_given = command->add_option("--rlimit", s->rlimit,
                        "Z3 resource limit per query (0: none): the limit that decides, counted in the solver's own "
                        "steps, so a report does not depend on the machine or its load (about 2 s of one core on the wargames' hard "
                        "questions; four times it for a path's group of over 1,000 facts, whose simplification it counts too; "
                        "default: the manifest's `resource limit`, else 40000000)")
        ->check(whole_number(0, std::numeric_limits<unsigned>::max()));
    command->add_option("--dump-smt", s->dump_smt, "Write every solver query to this folder as SMT-LIB (for `z3 FILE`)");
    command->add_option("--players-up-to", s->players,
                        "Check games of up to this many players (default: the ruleset's maximum, at most 6)")
        ->check(CLI::Range(1, 16));
    command->add_option("-j,--jobs", s->jobs,
                        "Threads, of which the check uses at most two (default: one per core); the report does not "
                        "depend on it")
        ->check(whole_number(1, 1024));
    command->add_flag("--cache", s->cache,
                      "Keep the check's proofs for the next run, and answer the questions proved before from them "
                      "(in .westphalia-cache/ in the ruleset's folder; see --cache-dir)");
    command->add_flag("--strict-reach", s->strict_reach,
                      "Count the findings play is not shown to reach (their witness rests on the checker's summary "
                      "of play, and no random game met them) as errors and warnings");
    command->add_option("--cache-dir", s->cache_dir, "The proof cache's folder (implies --cache)");
    command->add_flag("--stats", s->stats, "Print the number of solver queries and the time taken per check");
    s->unfold_given = command->add_option("--unfold-limit", s->unfold_limit,
                        "Largest unfolding of one aggregate (set size times the instances of its body, nested "
                        "aggregates multiplied) the encoder writes out; a larger one is encoded as any value and "
                        "reported as an approximation (0: no limit; default: the manifest's `unfold limit`, else 16384)")
        ->check(whole_number(0, std::numeric_limits<std::uint64_t>::max()));
    s->unroll_given = command->add_option("--unroll-depth", s->unroll_depth,
                        "How many times a procedure, action, trigger or table that leads back to itself is unrolled; "
                        "deeper calls are checked once from any state of what they write, and reported as an "
                        "approximation (default: the manifest's `unroll depth`, else 0)")
        ->check(whole_number(0, 64));
    s->evidence_given = command->add_option("--evidence-games", s->evidence_games,
                        "Random games played at each number of players before the questions: what they reach needs "
                        "no proof (0: prove everything; default: the manifest's `evidence games`, else 100, and then, up to 1000, "
                        "another 100 while the last 100 showed a way the dead-branch or no-op questions would ask about)")
        ->check(whole_number(0, static_cast<std::uint64_t>(ir::max_evidence_games)));
    command->callback([s, &ctx] {
        if (!s->dump_smt.empty() && !check_dump_folder(ctx, s->dump_smt)) return;
        std::vector<std::map<std::string, std::string>> runs{{}};
        bool sampled = false;
        std::ostringstream report;
        std::vector<std::string> human_runs;
        nlohmann::json json_runs = nlohmann::json::array();
        nlohmann::json sarif;
        bool any_errors = false;
        bool expanded = false;
        std::vector<std::string> inputs;
        std::vector<std::string> summaries;  // each run's summary lines, printed when -o takes the report
        const auto started = std::chrono::steady_clock::now();  // --max-time covers every run
        std::string cache_path;  // the proof cache's file, once the ruleset's name is known
        std::shared_ptr<const std::unordered_set<std::string>> proved_before;
        std::set<std::string> proved;  // over every run (--all-options)
        for (std::size_t i = 0; i < runs.size(); ++i) {
            ruleset_input in = s->input;
            for (const auto& [k, v] : runs[i]) in.options.push_back(k + "=" + v);
            dsl::source_manager sources;
            dsl::diagnostic_sink sink;
            const auto rs = in.load(ctx, sources, sink);
            const std::size_t max_errors = s->input.diagnostics.max_errors;
            if (!rs) return report_not_compiled(ctx, {s->format, s->output, max_errors, "westphalia-check"}, {s->input.path}, sources, sink);
            if (!sink.all().empty())
                dsl::render(ctx.err, sources, sink.all(), dsl::diag_format::human, max_errors, ctx.colored(ctx.err));
            if (i == 0 && !expanded) {
                // refused before the (long) check, not after it
                inputs = input_files({s->input.path}, sources);
                if (!s->output.empty() && !check_output(ctx, "--output", s->output, inputs)) return;
                if (!s->compare.empty() && !check_compare_layers(ctx, *rs, s->input, s->compare)) return;
            }
            if (s->all_options && !expanded) {
                // now that the options are known: one run per combination, from the first
                expanded = true;
                runs = option_runs(*rs, 32, sampled);
                if (sampled)
                    ctx.err << "westphalia: note: " << rs->name << " has too many option combinations to check all; "
                            << "checking the defaults and each other value alone (" << runs.size() << " runs)\n";
                i = static_cast<std::size_t>(-1);
                continue;
            }
            if ((s->cache || !s->cache_dir.empty()) && cache_path.empty()) {
                cache_path = proof_cache_path(s->cache_dir, s->input.path, rs->name);
                proved_before = load_proof_cache(ctx, cache_path);
            }
            verify::check_options opts;
            opts.proved_before = proved_before;
            opts.timeout_ms = static_cast<unsigned>(std::lround(s->timeout * 1000));
            if (s->rlimit_given->count() > 0) opts.rlimit = s->rlimit;
            opts.dump_smt_dir = s->dump_smt;
            opts.max_players = s->players;
            if (s->unfold_given->count() > 0) opts.unfold_limit = s->unfold_limit;
            if (s->unroll_given->count() > 0) opts.unroll_depth = s->unroll_depth;
            if (s->evidence_given->count() > 0) opts.sim_games = s->evidence_games;
            opts.jobs = s->jobs;
            opts.strict_reach = s->strict_reach;
            opts.checks.insert(s->checks.begin(), s->checks.end());
            opts.prove_invariants = opts.checks.count("invariants") > 0;
            opts.exit_after = i + 1 == runs.size();  // the command ends after its last report
            if (s->max_time > 0)
                opts.max_seconds = std::max(1e-3, s->max_time - std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
            opts.compile_upto = upto_compiler(in);
            if (!s->compare.empty()) opts.compare = std::make_pair(s->compare[0], s->compare[1]);
            // A progress line only for a person watching: never when stderr is a file, a pipe or a test stream.
            if (&ctx.err == &std::cerr && isatty(STDERR_FILENO) == 1) {
                opts.progress = [&ctx, started, mutex = std::make_shared<std::mutex>()](const std::string& stage) {
                    const std::lock_guard<std::mutex> lock(*mutex);
                    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started);
                    ctx.err << "\rcheck: " << std::left << std::setw(12) << stage << std::right << std::setw(6) << seconds.count()
                            << " s" << std::flush;
                };
            }
            const verify::check_result result = verify::check(*rs, opts);
            if (opts.progress) ctx.err << "\r" << std::string(28, ' ') << "\r" << std::flush;
            any_errors = any_errors || verify::error_count(result) > 0;
            proved.insert(result.proved.begin(), result.proved.end());
            source_lines lines(s->input.path, *rs);
            verify::report_source src{[&](ir::id f) { return lines.path(f); },
                                      [&](ir::id f, std::uint32_t n) { return lines.line(f, n); }};
            const verify::report_header h{options_text(*rs), result.players_checked};
            if (!s->output.empty() && s->output != "-") {
                // the report goes to a file: its summary still reaches the terminal
                std::ostringstream human;
                verify::render_human(human, *rs, result, src, h, false);
                std::istringstream lines_of(human.str());
                for (std::string line; std::getline(lines_of, line);)
                    if ((line.rfind(rs->name + ": ", 0) == 0 && line.size() > rs->name.size() + 2 &&
                         std::isdigit(static_cast<unsigned char>(line[rs->name.size() + 2]))) ||
                        line.rfind("out of time:", 0) == 0)
                        summaries.push_back(line);
            }
            std::ostringstream one;
            if (s->format == "human") {
                if (runs.size() > 1) one << "== options: " << h.options << '\n';
                verify::render_human(one, *rs, result, src, h, s->stats, s->output.empty() && ctx.colored(ctx.out));
                report << one.str();
            } else if (s->format == "json") {
                verify::render_json(one, *rs, result, src, h);
                json_runs.push_back(nlohmann::json::parse(one.str()));
            } else {
                verify::render_sarif(one, *rs, result, src);
                nlohmann::json j = nlohmann::json::parse(one.str());
                if (sarif.is_null()) sarif = j;
                else sarif["runs"].push_back(j["runs"][0]);
            }
        }
        if (!cache_path.empty()) save_proof_cache(ctx, cache_path, proved);
        if (s->format == "json")
            report << (json_runs.size() == 1 ? dsl::json_text(json_runs[0], 2) : dsl::json_text(nlohmann::json{{"runs", json_runs}}, 2)) << '\n';
        if (s->format == "sarif") report << dsl::json_text(sarif, 2) << '\n';
        if (s->output.empty()) {
            ctx.out << report.str();
        } else if (!write_output(ctx, "--output", s->output, report.str(), inputs)) {
            return;
        }
        for (const std::string& line : summaries) ctx.out << line << '\n';
        ctx.exit_code = any_errors ? exit_findings : exit_clean;
    });
}

}  // namespace wp::cli
