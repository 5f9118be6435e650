// `westphalia diff <ruleset> --from <layer> [--to <layer>]` (or two ruleset folders): what a
// change to the rules changes — every subject whose outcome differs, with a witness; the
// checker's findings that appear and disappear; with --sim N, the change in random play.
#include "cli.hpp"
#include "westphalia/dsl/json_text.hpp"
#include "compile_failure.hpp"
#include "number_options.hpp"
#include "output_file.hpp"
#include "ruleset_input.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/engine/search_agents.hpp"
#include "westphalia/engine/sim.hpp"
#include "westphalia/engine/statistics.hpp"
#include "westphalia/verify/diff.hpp"
#include "westphalia/verify/report.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <future>
#include <thread>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace wp::cli {

namespace {

using nlohmann::json;

// File names as the user sees them: relative to the ruleset folder given.
struct paths {
    std::filesystem::path folder;
    const ir::ruleset* rs = nullptr;
    std::string operator()(ir::id f) const {
        if (!rs || f >= rs->files.size()) return "?";
        const std::filesystem::path p(rs->files[f]);
        if (folder.empty() || p.is_absolute()) return p.generic_string();
        return (folder / p).lexically_normal().generic_string();
    }
};

std::string stack_name(const ir::ruleset& rs) {
    std::string s;
    for (const ir::layer& l : rs.layers) s += (s.empty() ? "" : "+") + l.name;
    return s;
}

std::string at(const ir::provenance& p, const paths& path) {
    if (p.where.file == ir::no_id) return "";
    return path(p.where.file) + ":" + std::to_string(p.where.line) + ":" + std::to_string(p.where.column);
}

// One measure of play per game on each side, paired by seed.
struct measure {
    std::string name;
    std::vector<double> a, b;  // per paired game
};

using interval = engine::paired_comparison;

// Every measure's interval, and its p-value adjusted by Holm's method over all of them: a
// difference is reported as a change only when it survives the number of measures compared.
std::vector<std::pair<interval, double>> compare_all(const std::vector<measure>& measures) {
    std::vector<std::pair<interval, double>> out;
    std::vector<double> p;
    for (const measure& m : measures) {
        out.emplace_back(engine::compare_paired(m.a, m.b), 1.0);
        p.push_back(out.back().first.p);
    }
    const std::vector<double> adjusted = engine::holm_adjust(p);
    for (std::size_t i = 0; i < out.size(); ++i) out[i].second = adjusted[i];
    return out;
}

struct sim_result {
    int players = 0;
    std::uint64_t games = 0, seed = 0, errors_a = 0, errors_b = 0;
    std::string agent;
    std::vector<measure> measures;  // game length, win share per seat, end reasons
};

// Plays `games` random games on each stack with the same seeds.
sim_result simulate_both(const ir::ruleset& a, const ir::ruleset& b, int players, std::uint64_t games, std::uint64_t seed,
                         const std::string& agent_name) {
    sim_result r;
    r.players = players;
    r.games = games;
    r.seed = seed;
    r.agent = agent_name;
    struct one {
        bool ok = false;
        std::uint64_t decisions = 0;
        std::vector<int> winners;
        std::string end;
    };
    auto play = [&](const ir::ruleset& rs, std::uint64_t s) {
        one o;
        const std::unique_ptr<engine::agent> agent = engine::make_agent(agent_name);
        engine::play_options po;
        po.max_decisions = 100000;
        try {
            engine::play_result p = engine::play_game(rs, players, s, {agent.get()}, po);
            o.ok = p.error.empty();
            o.decisions = p.decisions;
            o.winners = p.winners;
            o.end = p.error.empty() ? p.end_reason : "engine error";
        } catch (const std::exception&) {
            o.end = "engine error";
        }
        return o;
    };
    std::vector<one> xa, xb;
    std::set<std::string> reasons;
    for (std::uint64_t i = 0; i < games; ++i) {
        const std::uint64_t s = engine::game_seed(seed, i);
        xa.push_back(play(a, s));
        xb.push_back(play(b, s));
        reasons.insert(xa.back().end);
        reasons.insert(xb.back().end);
        r.errors_a += !xa.back().ok;
        r.errors_b += !xb.back().ok;
    }
    measure length{"game length (decisions)", {}, {}};
    std::vector<measure> wins;
    for (int p = 0; p < players; ++p) wins.push_back({"win share P" + std::to_string(p + 1), {}, {}});
    std::vector<measure> ends;
    for (const std::string& e : reasons) ends.push_back({"end: " + e, {}, {}});
    auto share = [](const one& o, int seat) {
        for (int w : o.winners)
            if (w == seat) return 1.0 / static_cast<double>(o.winners.size());
        return 0.0;
    };
    for (std::uint64_t i = 0; i < games; ++i) {
        if (xa[i].ok && xb[i].ok) {
            length.a.push_back(static_cast<double>(xa[i].decisions));
            length.b.push_back(static_cast<double>(xb[i].decisions));
            for (int p = 0; p < players; ++p) {
                wins[static_cast<std::size_t>(p)].a.push_back(share(xa[i], p));
                wins[static_cast<std::size_t>(p)].b.push_back(share(xb[i], p));
            }
        }
        std::size_t k = 0;
        for (const std::string& e : reasons) {
            ends[k].a.push_back(xa[i].end == e ? 1.0 : 0.0);
            ends[k].b.push_back(xb[i].end == e ? 1.0 : 0.0);
            ++k;
        }
    }
    r.measures.push_back(std::move(length));
    for (auto& w : wins) r.measures.push_back(std::move(w));
    for (auto& e : ends) r.measures.push_back(std::move(e));
    return r;
}

std::string fixed(double x, int digits, bool sign = false) {
    std::ostringstream o;
    if (sign && x >= 0) o << '+';
    o << std::fixed << std::setprecision(digits) << x;
    return o.str();
}

}  // namespace

void add_diff_command(CLI::App& app, context& ctx) {
    struct settings {
        std::string from_path, to_path;
        std::vector<std::string> options;
        std::vector<std::string> with;  // expansions on both sides
        std::string from_layer, to_layer;
        std::string format = "human";
        std::string output;
        std::uint64_t sim = 0;
        std::string agent = "random";
        int players = 0;
        std::uint64_t seed = 1;
        double timeout = 10;
        double max_time = 0;
        unsigned jobs = 0;
        bool no_check = false;
        diagnostic_options diagnostics;  // --max-errors (--format is the report's)
    };
    auto s = std::make_shared<settings>();
    CLI::App* command = app.add_subcommand(
        "diff", "Show what a change to the rules changes: every decision, table and rule whose outcome differs (with a "
                "witness), the checker's findings that appear and disappear, and with --sim the change in play");
    command->add_option("ruleset", s->from_path, "A ruleset folder or a single .wph file")->required();
    command->add_option("other", s->to_path, "A second ruleset folder to compare the first with (instead of --from/--to)");
    command->add_option("--from", s->from_layer, "The old stack: the layers up to and including this one, "
                                                 "+ each expansion to apply (base+court)");
    command->add_option("--to", s->to_layer, "The new stack: the layers up to and including this one (default: all), "
                                             "+ each expansion to apply (base+court, or +court: all layers)");
    add_with_option(*command, s->with);
    command->add_option("--option", s->options, "Choose an option's value on both sides: --option name=value (repeatable)");
    command->add_option("--format", s->format, "Report as human text or json; a ruleset that does not compile gets its diagnostics in the same form")
        ->check(CLI::IsMember({"human", "json"}))
        ->capture_default_str();
    command->add_option("-o,--output", s->output, "Write the report to this file (`-`: standard output)");
    add_max_errors(*command, s->diagnostics);
    command->add_option("--sim", s->sim, "Also play this many games on each side with the same seeds and agents (--agent; at most 10000000)")
        ->check(whole_number(0, max_games, "the most games one run plays"));
    command->add_option("--agent", s->agent, "The agent of every seat in the simulated games: random, first, greedy or "
                        "mcts:ITERATIONS[:DEPTH] (see `play`)")
        ->check([](const std::string& a) { return engine::agent_problem(a); })
        ->capture_default_str();
    command->add_option("--players", s->players, "Players in the simulated games (default: the ruleset's minimum, at least 2)");
    command->add_option("--seed", s->seed, "The first seed of the simulated games")
        ->check(whole_number(0, std::numeric_limits<std::uint64_t>::max()))
        ->capture_default_str();
    CLI::Option* timeout = add_seconds(*command, "--timeout", s->timeout,
                                       "Seconds allowed for each solver query (the checks of the two sides: `check`'s own "
                                       "limit, unless given)",
                                       0.001, 3600.0);
    command->add_flag("--no-check", s->no_check, "Do not run the checker on the two sides (no findings compared)");
    add_seconds(*command, "--max-time", s->max_time,
                "Seconds for the two sides' checks, which run at once (0: no limit); past them no more queries are "
                "asked, each question left is an `unknown` finding on its side, and the report says which side ran out",
                0.0, 86400.0);
    command->add_option("-j,--jobs", s->jobs,
                        "Threads for the checks (default: one per core), shared by the two sides; the report does "
                        "not depend on it")
        ->check(whole_number(1, 1024));
    command->callback([s, timeout, &ctx] {
        const auto started = std::chrono::steady_clock::now();  // --max-time counts from here
        if (s->to_path.empty() && s->from_layer.empty()) {
            ctx.err << "westphalia: error: diff needs --from <layer> (or a second ruleset folder)\n";
            ctx.exit_code = exit_bad_input;
            return;
        }
        if (!s->to_path.empty() && (!s->from_layer.empty() || !s->to_layer.empty())) {
            ctx.err << "westphalia: error: diff takes either two ruleset folders or --from/--to, not both\n";
            ctx.exit_code = exit_bad_input;
            return;
        }
        // both sides, compiled with their diagnostics reported
        // a stack up to a layer keeps the options layers past it: errata may read their options
        // A side `layer+exp+exp`: the stack up to the layer, with these expansions and --with's.
        struct side {
            std::string upto;
            std::vector<std::string> with;
        };
        auto side_of = [&](const std::string& spec) {
            side x{spec, s->with};
            if (const auto plus = spec.find('+'); plus != std::string::npos) {
                x.upto = spec.substr(0, plus);
                std::string rest = spec.substr(plus + 1);
                for (std::size_t at = 0; at <= rest.size();) {
                    const auto next = std::min(rest.find('+', at), rest.size());
                    if (next > at) x.with.push_back(rest.substr(at, next - at));
                    at = next + 1;
                }
            }
            return x;
        };
        auto load = [&](const std::string& path, const side& sd, dsl::source_manager& sources) {
            const std::string& upto = sd.upto;
            compiler::compile_options o;
            o.with = sd.with;
            dsl::diagnostic_sink sink;
            for (const std::string& x : s->options) {
                const auto eq = x.find('=');
                if (eq == std::string::npos || eq == 0) sink.error(dsl::diag_kind::unknown_option_value, "--option `" + x + "` must be written name=value");
                else o.options[x.substr(0, eq)] = x.substr(eq + 1);
            }
            if (!upto.empty()) {
                o.upto_layer = upto;
                o.upto_keeps_options = true;
            }
            std::optional<ir::ruleset> rs;
            if (!sink.has_errors()) rs = compiler::compile_ruleset(path, o, sources, sink);
            if (!rs || sink.has_errors()) {
                report_not_compiled(ctx, {s->format, s->output, s->diagnostics.max_errors, "westphalia-diff"}, {path}, sources, sink);
                rs.reset();
                return rs;
            }
            if (!sink.all().empty())
                dsl::render(ctx.err, sources, sink.all(), dsl::diag_format::human, s->diagnostics.max_errors, ctx.colored(ctx.err));
            return rs;
        };
        for (const std::string& p : {s->from_path, s->to_path})
            if (!p.empty() && std::filesystem::path(p).extension() == ".json") {
                ctx.err << "westphalia: error: diff compiles rule files; `" << p << "` is an IR file\n";
                ctx.exit_code = exit_bad_input;
                return;
            }
        dsl::source_manager sa, sb;
        const side side_a = side_of(s->to_path.empty() ? s->from_layer : "");
        const side side_b = side_of(s->to_layer);
        const auto from = load(s->from_path, side_a, sa);
        if (!from) return;
        const auto to = load(s->to_path.empty() ? s->from_path : s->to_path, side_b, sb);
        if (!to) return;
        const std::string to_path = s->to_path.empty() ? s->from_path : s->to_path;
        std::vector<std::string> inputs = input_files({s->from_path, to_path}, sa);
        for (const std::string& f : input_files({}, sb)) inputs.push_back(f);
        if (!s->output.empty() && !check_output(ctx, "--output", s->output, inputs)) return;
        paths pa{std::filesystem::is_directory(s->from_path) ? std::filesystem::path(s->from_path) : std::filesystem::path(), &*from};
        paths pb{std::filesystem::is_directory(to_path) ? std::filesystem::path(to_path) : std::filesystem::path(), &*to};

        verify::diff_options dopt;
        dopt.timeout_ms = static_cast<unsigned>(std::lround(s->timeout * 1000));
        const verify::outcome_diff d = verify::compare_outcomes(*from, *to, dopt);

        verify::finding_changes fc;
        std::array<bool, 2> out_of_time{false, false};
        std::array<std::uint64_t, 2> not_asked{0, 0};
        if (!s->no_check) {
            // The two sides' checks are independent (a solver each): they run at once, each on
            // half the threads. Each side's report is the same as alone (the parts of a check
            // do not depend on its threads); the budget is the command's, so both share it.
            verify::check_options co;
            // Each side's findings are those `check` gives: its own clock backstop per query (the
            // resource limit decides), not the outcomes' 10 s, which under the load of two checks at
            // once could cut a query on one side only and show an `unknown` as a change.
            if (timeout->count() > 0) co.timeout_ms = dopt.timeout_ms;
            co.exit_after = true;  // the command ends after the report: the solvers' memory is left to the system
            const unsigned threads = s->jobs ? s->jobs : std::max(1u, std::thread::hardware_concurrency());
            co.jobs = std::max(1u, threads / 2);
            if (s->max_time > 0)
                co.max_seconds = std::max(1e-3, s->max_time - std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
            ruleset_input ia;
            ia.path = s->from_path;
            ia.options = s->options;
            ruleset_input ib = ia;
            ib.path = to_path;
            ia.with = side_a.with;
            ib.with = side_b.with;
            verify::check_options coa = co, cob = co;
            coa.compile_upto = upto_compiler(ia);
            cob.compile_upto = upto_compiler(ib);
            auto later = std::async(threads > 1 ? std::launch::async : std::launch::deferred,
                                    [&] { return verify::check(*to, cob); });
            const verify::check_result ca = verify::check(*from, coa);
            const verify::check_result cb = later.get();
            fc = verify::compare_findings(ca, cb);
            const std::array<const verify::check_result*, 2> both{&ca, &cb};
            for (std::size_t k = 0; k < 2; ++k) {
                out_of_time[k] = both[k]->out_of_time;
                for (const auto& [kind, st] : both[k]->stats) not_asked[k] += st.skipped;
            }
        }
        std::optional<sim_result> sim;
        if (s->sim > 0) {
            int players = s->players;
            if (players == 0) players = static_cast<int>(std::max<std::int64_t>(2, std::max(from->min_players, to->min_players)));
            if (!check_player_count(ctx, *from, players) || !check_player_count(ctx, *to, players)) return;
            sim = simulate_both(*from, *to, players, s->sim, s->seed, s->agent);
        }

        const std::string name_a = s->to_path.empty() ? stack_name(*from) : s->from_path;
        const std::string name_b = s->to_path.empty() ? stack_name(*to) : to_path;
        // The sequence's named blocks one side has and the other not (an expansion's new steps).
        struct block_change {
            std::string change, word, path, layer, at;
        };
        std::vector<block_change> blocks;
        auto block_changes = [&](const ir::ruleset& x, const ir::ruleset& y, const char* change, const paths& p) {
            std::set<std::string> there;
            for (const ir::block& b : y.blocks) there.insert(b.path);
            for (const ir::block& b : x.blocks) {
                if (there.count(b.path)) continue;
                const std::string layer = b.prov.layer < x.layers.size() ? x.layers[b.prov.layer].name : "";
                blocks.push_back({change, b.word, b.path, layer, at(b.prov, p)});
            }
        };
        block_changes(*to, *from, "added", pb);
        block_changes(*from, *to, "removed", pa);
        std::ostringstream report;
        auto elem_path = [&](const verify::outcome_change& c, const verify::involved& e) {
            return c.change == "removed" ? at(e.prov, pa) : at(e.prov, pb);
        };
        if (s->format == "human") {
            report << "diff " << from->name << ": " << name_a << " -> " << name_b << '\n';
            std::size_t changed = 0;
            for (const auto& c : d.changes) changed += c.proof != verify::proof_kind::unknown;
            report << "outcomes: " << d.subjects << " compared, " << changed << " changed\n";
            for (const auto& c : d.changes) {
                const std::string where = c.elements.empty() ? "" : elem_path(c, c.elements.front());
                report << "  " << (where.empty() ? from->name : where) << ": " << c.change << ": " << c.message << '\n';
                for (std::size_t i = 1; i < c.elements.size(); ++i)
                    report << "    note: " << c.elements[i].role << " `" << c.elements[i].name << "` at " << elem_path(c, c.elements[i]) << '\n';
                if (!c.witness.empty()) {
                    report << "    witness:\n";
                    for (const std::string& w : c.witness) report << "      " << w << '\n';
                }
                if (!c.replay.empty()) report << "    state replay: " << c.replay << '\n';
            }
            if (!blocks.empty()) {
                report << "sequence: " << blocks.size() << " block" << (blocks.size() == 1 ? "" : "s") << " added or removed\n";
                for (const block_change& b : blocks)
                    report << "  " << b.at << ": " << b.change << ": " << b.word << ' ' << b.path
                           << (b.layer.empty() ? "" : " (layer " + b.layer + ")") << '\n';
            }
            if (!s->no_check) {
                auto list = [&](const char* title, const std::vector<verify::finding>& v, const paths& p) {
                    report << title << " (" << v.size() << ")\n";
                    for (const auto& f : v) {
                        std::string where;
                        for (const auto& e : f.elements)
                            if (e.prov.where.file != ir::no_id) {
                                where = at(e.prov, p);
                                break;
                            }
                        report << "  " << (where.empty() ? from->name : where) << ": " << verify::name_of(f.level) << ": "
                               << f.message << " [" << f.kind << "]\n";
                    }
                };
                list("findings appeared", fc.appeared, pb);
                list("findings disappeared", fc.disappeared, pa);
                const std::array<std::string, 2> names{name_a, name_b};
                for (std::size_t k = 0; k < 2; ++k)
                    if (out_of_time[k])
                        report << "out of time: the check of " << names[k] << " ran out of --max-time with " << not_asked[k]
                               << " question" << (not_asked[k] == 1 ? "" : "s")
                               << " not asked; each is an `unknown` finding of that side, compared as any other\n";
            }
            if (sim) {
                report << "simulated play: " << sim->games << " games per side (" << sim->agent << " agents), " << sim->players
                       << " players, seed " << sim->seed << " (engine errors " << sim->errors_a << " -> " << sim->errors_b
                       << "); differences with 95% intervals; p-values adjusted by Holm's method over the "
                       << sim->measures.size() << " measures, `changed` below 0.05\n";
                const auto compared = compare_all(sim->measures);
                for (std::size_t k = 0; k < sim->measures.size(); ++k) {
                    const measure& m = sim->measures[k];
                    const interval& iv = compared[k].first;
                    const bool length = m.name.rfind("game length", 0) == 0;
                    const int dg = length ? 1 : 3;
                    report << "  " << m.name << ": " << fixed(iv.mean_a, dg) << " -> " << fixed(iv.mean_b, dg) << "  ("
                           << fixed(iv.difference, dg, true) << ", 95% CI " << fixed(iv.lo, dg, true) << " .. " << fixed(iv.hi, dg, true)
                           << ", p " << fixed(compared[k].second, 3) << (compared[k].second < 0.05 ? ", changed" : "") << ")\n";
                }
            }
        } else {
            json j;
            j["ruleset"] = from->name;
            j["from"] = name_a;
            j["to"] = name_b;
            json changes = json::array();
            for (const auto& c : d.changes) {
                json x{{"what", c.what},
                       {"subject", c.subject},
                       {"change", c.change},
                       {"message", c.message},
                       {"proof", verify::name_of(c.proof)},
                       {"only_gaps", c.only_gaps},
                       {"witness", c.witness}};
                if (!c.replay.empty()) x["replay"] = c.replay;
                x["elements"] = json::array();
                for (const auto& e : c.elements) {
                    const std::string w = elem_path(c, e);
                    x["elements"].push_back({{"role", e.role}, {"name", e.name}, {"at", w}});
                }
                changes.push_back(x);
            }
            j["outcomes"] = {{"compared", d.subjects}, {"changes", changes}};
            if (!blocks.empty()) {
                json a = json::array();
                for (const block_change& b : blocks)
                    a.push_back({{"change", b.change}, {"word", b.word}, {"path", b.path}, {"layer", b.layer}, {"at", b.at}});
                j["blocks"] = a;
            }
            if (!s->no_check) {
                auto list = [&](const std::vector<verify::finding>& v, const paths& p) {
                    json a = json::array();
                    for (const auto& f : v) {
                        std::string where;
                        for (const auto& e : f.elements)
                            if (e.prov.where.file != ir::no_id) {
                                where = at(e.prov, p);
                                break;
                            }
                        a.push_back({{"kind", f.kind}, {"severity", verify::name_of(f.level)}, {"subject", f.subject},
                                     {"message", f.message}, {"at", where}, {"witness", f.witness}});
                    }
                    return a;
                };
                j["findings"] = {{"appeared", list(fc.appeared, pb)}, {"disappeared", list(fc.disappeared, pa)}};
                j["checks"] = {{"from", {{"out_of_time", out_of_time[0]}, {"not_asked", not_asked[0]}}},
                               {"to", {{"out_of_time", out_of_time[1]}, {"not_asked", not_asked[1]}}}};
            }
            if (sim) {
                json m = json::array();
                const auto compared = compare_all(sim->measures);
                for (std::size_t k = 0; k < sim->measures.size(); ++k) {
                    const interval& iv = compared[k].first;
                    m.push_back({{"measure", sim->measures[k].name}, {"games", iv.n}, {"before", iv.mean_a},
                                 {"after", iv.mean_b}, {"difference", iv.difference}, {"ci95", {iv.lo, iv.hi}}, {"p", iv.p},
                                 {"p_holm", compared[k].second}, {"changed", compared[k].second < 0.05}});
                }
                j["sim"] = {{"games", sim->games}, {"agent", sim->agent}, {"players", sim->players}, {"seed", sim->seed},
                            {"engine_errors", {sim->errors_a, sim->errors_b}}, {"measures", m}};
            }
            report << dsl::json_text(j, 2) << '\n';
        }
        if (s->output.empty()) {
            ctx.out << report.str();
        } else if (!write_output(ctx, "--output", s->output, report.str(), inputs)) {
            return;
        }
        const bool differs = !d.changes.empty() || !blocks.empty() || !fc.appeared.empty() || !fc.disappeared.empty();
        ctx.exit_code = differs ? exit_findings : exit_clean;
    });
}

}  // namespace wp::cli
