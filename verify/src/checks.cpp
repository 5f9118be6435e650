// The check as a whole: its two parts (the bounds, and every other check) on their own solvers
// and threads, their findings merged in the report's order, the accepts applied.
#include "westphalia/verify/check.hpp"

#include "accepts.hpp"
#include "checker.hpp"
#include "finding_texts.hpp"
#include "aid_drift.hpp"
#include "hidden_flow.hpp"
#include "layer_compare.hpp"
#include "obligations.hpp"
#include "traces.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <thread>

namespace wp::verify {

const char* name_of(severity s) { return s == severity::error ? "error" : "warning"; }
const char* name_of(reach_kind k) {
    switch (k) {
        case reach_kind::none: return "none";
        case reach_kind::trace: return "trace";
        case reach_kind::setup_path: return "setup path";
        case reach_kind::not_shown: return "not shown";
    }
    return "?";
}
const char* name_of(proof_kind p) {
    switch (p) {
        case proof_kind::witness: return "witness";
        case proof_kind::proved: return "proved";
        case proof_kind::unknown: return "unknown";
    }
    return "?";
}

namespace {
// The command line's value, else the manifest's setting `name`, else the default.
template <typename T>
T setting_for(const std::optional<T>& given, const ir::ruleset& rs, const std::string& name, T fallback) {
    if (given) return *given;
    for (const ir::checker_setting& s : rs.checker)
        if (s.name == name) return static_cast<T>(s.value);
    return fallback;
}
}  // namespace

std::uint64_t unfold_limit_for(const ir::ruleset& rs, const check_options& options) {
    return setting_for(options.unfold_limit, rs, "unfold_limit", check_options::default_unfold_limit);
}

int unroll_depth_for(const ir::ruleset& rs, const check_options& options) {
    return setting_for(options.unroll_depth, rs, "unroll_depth", 0);
}

std::uint64_t sim_games_for(const ir::ruleset& rs, const check_options& options) {
    return setting_for(options.sim_games, rs, "evidence_games", check_options::default_sim_games);
}

std::uint64_t sim_games_cap_for(const ir::ruleset& rs, const check_options& options) {
    return setting_for(options.sim_games, rs, "evidence_games", check_options::default_sim_games_cap);
}

unsigned rlimit_for(const ir::ruleset& rs, const check_options& options) {
    return setting_for(options.rlimit, rs, "resource_limit", check_options::default_rlimit);
}

bool counts(const check_result& r, const finding& f) {
    return !f.accepted && (r.strict_reach || f.reach != reach_kind::not_shown);
}

std::size_t error_count(const check_result& r) {
    return static_cast<std::size_t>(std::count_if(r.findings.begin(), r.findings.end(), [&](const finding& f) {
        return f.level == severity::error && counts(r, f);
    }));
}

namespace {


// The findings of one part of the check, with their stages' places in the report.
struct part_result {
    check_result out;
    std::vector<std::size_t> ranks;
};

void run_part(const ir::ruleset& rs, const check_options& options, part_result& part) {
    // A big check's solver holds gigabytes of terms that take minutes to free one by one: a
    // program that exits right after the check may skip that (as compilers skip freeing).
    auto c = std::make_unique<checker>(rs, options, part.out);
    c->run();
    part.ranks = c->ranks();
    if (options.exit_after) (void)c.release();  // NOLINT: deliberately not freed
}

// The bounds' questions are most of a check's: they are one part, with a solver of their own,
// and every other check the other. The parts are the same whatever the number of threads, so
// the report is too (a solver's answers and models depend on every question it was asked before).
// A manifest's `bounds part with tables, choices` moves those stages to the bounds' part (for a
// game whose reach stage is the long part: GMT's); read from the ruleset, never from a clock.
std::pair<check_options, std::optional<check_options>> split(const ir::ruleset& rs, const check_options& options) {
    static const std::vector<std::string> others{"decisions", "examples", "tables", "choices", "reach", "invariants", "queries"};
    auto wanted = [&](const std::string& k) { return options.checks.empty() || options.checks.count(k) > 0; };
    auto with_bounds = [&](const std::string& k) {
        return std::any_of(rs.checker.begin(), rs.checker.end(),
                           [&](const ir::checker_setting& c) { return c.name == k + "_with_bounds" && c.value == 1; });
    };
    if (!wanted("bounds") || std::none_of(others.begin(), others.end(), wanted)) return {options, std::nullopt};
    check_options rest = options, bounds = options;
    rest.checks.clear();
    bounds.checks = {"bounds"};
    for (const std::string& k : others)
        if (wanted(k)) (with_bounds(k) ? bounds : rest).checks.insert(k);
    // every stage wanted moved: one part (its own games, as a check of the bounds alone)
    if (rest.checks.empty()) return {options, std::nullopt};
    bounds.play_evidence = false;  // the other part plays the games; the faults are labelled after the merge
    return {rest, bounds};
}

// Adds the second part's findings and figures to the first's (findings in the report's order
// of stages, each part's in the order found).
void merge(part_result& into, part_result&& other) {
    check_result& out = into.out;
    for (std::size_t i = 0; i < other.out.findings.size(); ++i) {
        finding& f = other.out.findings[i];
        // both parts run the symbolic execution: when the budget stops it, each says so
        const bool again = f.kind == "unknown" && std::any_of(out.findings.begin(), out.findings.end(), [&](const finding& g) {
                               return g.kind == f.kind && g.subject == f.subject && g.message == f.message;
                           });
        if (again) continue;
        out.findings.push_back(std::move(f));
        into.ranks.push_back(other.ranks[i]);
    }
    for (fault_met& m : other.out.faults) out.faults.push_back(std::move(m));
    for (const auto& [kind, st] : other.out.stats) {
        auto [it, fresh] = out.stats.emplace(kind, st);
        if (fresh) continue;
        // a stage both parts ran (the exploration): they ran side by side
        it->second.queries += st.queries;
        it->second.skipped += st.skipped;
        it->second.milliseconds = std::max(it->second.milliseconds, st.milliseconds);
    }
    for (const std::string& a : other.out.approximations)
        if (std::find(out.approximations.begin(), out.approximations.end(), a) == out.approximations.end())
            out.approximations.push_back(a);
    for (const auto& [k, v] : other.out.encoder) out.encoder[k] = std::max(out.encoder[k], v);
    out.out_of_time = out.out_of_time || other.out.out_of_time;
    out.proved.insert(other.out.proved.begin(), other.out.proved.end());
    out.cache_hits += other.out.cache_hits;
    out.general_proofs += other.out.general_proofs;
    out.hinted_answers += other.out.hinted_answers;
    out.implied_answers += other.out.implied_answers;
    if (out.answers.empty()) out.answers = std::move(other.out.answers);
}

// One run of both parts (and the errata's obligations), merged, not yet in the report's order.
part_result check_parts(const ir::ruleset& rs, const check_options& options) {
    const auto t_parts = std::chrono::steady_clock::now();
    const auto [first, second] = split(rs, options);
    part_result main, bounds, obligations;
    // The aid texts, the secrets and the errata's obligations: no solver of the parts' (the
    // obligations have their own), so their findings do not depend on the thread that runs them,
    // and they go last in the report. Run by the part that ends first (on Contractor Cards' full
    // stack the bounds part ends seconds before the other, and the obligations take 0.6 s).
    std::atomic<bool> tail_taken{false};
    auto tail = [&] {
        if (tail_taken.exchange(true)) return;
        // the aid texts (no solver): last, beside the obligations
        if (options.checks.empty() || options.checks.count("aid")) {
            const auto t0 = std::chrono::steady_clock::now();
            detail::aid_drift(rs, obligations.out);
            obligations.out.stats["aid"].milliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        }
        // what the rules copy out of hidden fields (no solver)
        if (options.checks.empty() || options.checks.count("secrets")) {
            const auto t0 = std::chrono::steady_clock::now();
            detail::hidden_leaks(rs, obligations.out);
            obligations.out.stats["secrets"].milliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        }
        if (!options.checks.empty() && !options.checks.count("obligations")) {
            obligations.ranks.assign(obligations.out.findings.size(), std::numeric_limits<std::size_t>::max());
            return;
        }
        const auto t1 = std::chrono::steady_clock::now();
        detail::errata_obligations(rs, options, obligations.out);
        if (auto it = obligations.out.stats.find("obligations"); it != obligations.out.stats.end())
            it->second.milliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
        if (options.compare) {
            if (options.progress) options.progress("compare");
            const auto t2 = std::chrono::steady_clock::now();
            detail::undeclared_changes(options, obligations.out);
            obligations.out.stats["compare"].milliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t2).count();
        }
        obligations.ranks.assign(obligations.out.findings.size(), std::numeric_limits<std::size_t>::max());  // last
    };
    // the checks other than the bounds
    auto main_part = [&, opts = first] {
        run_part(rs, opts, main);
        tail();
    };
    const unsigned jobs = options.threads();
    if (second && jobs > 1) {
        std::exception_ptr failed;
        std::thread worker([&, opts = *second] {
            try {
                run_part(rs, opts, bounds);
                tail();
            } catch (...) {
                failed = std::current_exception();
            }
        });
        try {
            main_part();
        } catch (...) {
            worker.join();
            throw;
        }
        worker.join();
        if (failed) std::rethrow_exception(failed);
    } else {
        main_part();
        if (second) {
            // one after the other: the second part has what the first left of the budget
            check_options rest = *second;
            if (rest.max_seconds > 0)
                rest.max_seconds = std::max(1e-3, rest.max_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t_parts).count());
            run_part(rs, rest, bounds);
        }
    }
    if (second) merge(main, std::move(bounds));
    merge(main, std::move(obligations));
    return main;
}

// Findings with one cause are reported once: the first, with the places of the others (the same
// kind, subject, message and verdict, and the same elements but the one the report points at).
void group_repeats(check_result& out) {
    std::vector<finding> kept;
    std::map<std::string, std::size_t> first;
    for (finding& f : out.findings) {
        if (f.kind == "stale-accept") {
            kept.push_back(std::move(f));
            continue;
        }
        std::string key = f.kind + '\n' + f.subject + '\n' + f.message + '\n' + name_of(f.level) + '\n' +
                          (f.accepted ? "accepted " + f.accepted_reason : "") + '\n' + std::to_string(static_cast<int>(f.reach));
        for (std::size_t i = 1; i < f.elements.size(); ++i) key += '\n' + f.elements[i].role + ' ' + f.elements[i].name;
        const auto [it, fresh] = first.emplace(key, kept.size());
        if (fresh) {
            kept.push_back(std::move(f));
            continue;
        }
        finding& g = kept[it->second];
        if (f.elements.empty()) continue;  // the very same words with no place: said once
        g.also.push_back(f.elements.front().prov);
        g.also.insert(g.also.end(), f.also.begin(), f.also.end());
    }
    out.findings = std::move(kept);
}

// Whether a game met finding f: the fault of its kind and subject (a contradiction's two rules
// in either order), on the side of the range it names, at its place for a bound violation, a
// stuck choice or an unmet obligation (a table's gap is the table's, wherever it is consulted).
bool met(const finding& f, const fault_met& m) {
    if (m.kind != f.kind) return false;
    if (f.kind == "contradiction") {
        const std::size_t sp = m.subject.find(' ');
        const std::string swapped = sp == std::string::npos ? m.subject : m.subject.substr(sp + 1) + ' ' + m.subject.substr(0, sp);
        return f.subject == m.subject || f.subject == swapped;
    }
    if (f.kind == "table-gap" || f.kind == "gap") return f.subject == m.subject;
    if (f.kind == "bound-violation" && (f.subject != m.subject || (!f.side.empty() && f.side != m.side))) return false;
    if (f.kind == "unmet-obligation" && f.subject != m.subject) return false;
    if (f.kind != "bound-violation" && f.kind != "stuck-state" && f.kind != "unmet-obligation") return false;
    return std::any_of(f.elements.begin(), f.elements.end(), [&](const involved& e) {
        return e.role == "statement" && e.prov.where == m.at.where;
    });
}

// Labels what each finding says can happen by whether play from setup is shown to reach it:
// a game the checker played meets it (a trace), or the witness's own path is from setup; a
// witness that rests on the summary of play, which no game met, is not shown reachable.
void label_reach(check_result& out) {
    for (finding& f : out.findings) {
        const auto m = std::find_if(out.faults.begin(), out.faults.end(), [&](const fault_met& x) { return met(f, x); });
        if (m == out.faults.end()) continue;
        f.reach = reach_kind::trace;
        f.trace = m->trace;
    }
}

// An undecided question that a game of the checker's play answered: the fault the question
// asks about, met at its place (a field's bound on the side asked, or either side when both
// were undecided; a choice's or an obligation's statement), is the finding the question would
// have given, with that game as its trace and no witness from the solver. The game is a real
// one from setup, which the engine played: no reason to leave the question open.
void decide_by_play(const ir::ruleset& rs, check_result& out) {
    for (finding& f : out.findings) {
        if (f.kind != "unknown" || f.accepted) continue;
        const std::string& kind = f.asked_kind;
        if (kind != "bound-violation" && kind != "stuck-state" && kind != "unmet-obligation") continue;
        const involved* statement = nullptr;
        for (const involved& e : f.elements)
            if (e.role == "statement") statement = &e;
        const auto m = std::find_if(out.faults.begin(), out.faults.end(), [&](const fault_met& x) {
            // (the engine names no subject for a stuck choice: its place says which)
            if (x.kind != kind || (kind != "stuck-state" && x.subject != f.asked_subject)) return false;
            if (kind == "bound-violation") return f.side.empty() || x.side == f.side;
            return statement && statement->prov.where == x.at.where;
        });
        if (m == out.faults.end()) continue;
        finding g;
        g.kind = kind;
        g.level = severity::error;
        g.subject = f.asked_subject;
        g.reach = reach_kind::trace;
        g.trace = m->trace;
        g.witness.push_back("none from the solver, which could not decide the question within its limits; the game below meets it");
        if (kind == "bound-violation") {
            const auto sl = std::find_if(rs.slots.begin(), rs.slots.end(), [&](const ir::slot& x) { return x.name == g.subject; });
            std::optional<std::pair<std::int64_t, std::int64_t>> range;  // the field's values' range
            if (sl != rs.slots.end() && sl->type != ir::no_id) {
                const ir::type* t = &rs.types.at(sl->type);
                while ((t->kind == ir::type_kind::map_of || t->kind == ir::type_kind::list_of) && t->value != ir::no_id) t = &rs.types.at(t->value);
                if (t->kind == ir::type_kind::range) range = std::pair{t->lo, t->hi};
            }
            g.side = m->side;
            g.message = detail::bound_message(g.subject, g.side, range);
            g.elements.push_back({"statement", "assignment to " + g.subject, m->at});
            g.elements.insert(g.elements.end(), f.elements.begin(), f.elements.end());
        } else if (kind == "stuck-state") {
            g.message = detail::stuck_message();
            g.elements = f.elements;
        } else {
            g.message = detail::unmet_message(statement->name, g.subject);
            g.elements = f.elements;
            const bool zone = statement->name == "move" || statement->name == "draw" || statement->name == "deal";
            if (zone) {
                for (const ir::zone& z : rs.zones)
                    if (z.name == g.subject) g.elements.push_back({"zone", z.name, z.prov});
            } else {
                for (const ir::action& a : rs.actions)
                    if (a.name == g.subject) g.elements.push_back({"action", a.name, a.prov});
            }
        }
        f = std::move(g);
    }
}

// Whether finding f is about invariant `name` not being proved (broken, or undecided).
bool about_invariant(const finding& f, const std::set<std::string>& names) {
    if (f.kind != "invariant-violation" && f.kind != "unknown") return false;
    return std::any_of(f.elements.begin(), f.elements.end(), [&](const involved& e) {
        return e.role == "rule" && names.count(e.name) > 0;
    });
}

}  // namespace

// Invariants are assumed by every question, so one the run could not prove is dropped and the
// run made again without it, until every invariant left is proved (Houdini's iteration: each
// round drops at least one, so it ends). The findings that dropped one are kept from its round.
check_result check(const ir::ruleset& rs, const check_options& options) {
    const auto t0 = std::chrono::steady_clock::now();
    check_options opts = options;
    std::vector<std::pair<finding, std::size_t>> dropped;  // with their ranks
    part_result main;
    std::set<std::string> proved;  // over every round
    std::uint64_t cache_hits = 0, general_proofs = 0, hinted_answers = 0, implied_answers = 0;
    for (;;) {
        main = check_parts(rs, opts);
        proved.insert(main.out.proved.begin(), main.out.proved.end());
        cache_hits += main.out.cache_hits;
        general_proofs += main.out.general_proofs;
        hinted_answers += main.out.hinted_answers;
        implied_answers += main.out.implied_answers;
        std::set<std::string> fresh;
        for (const std::string& n : main.out.unproved_invariants)
            if (!opts.unassumed_invariants.count(n)) fresh.insert(n);
        if (fresh.empty() || main.out.out_of_time) break;
        for (std::size_t i = 0; i < main.out.findings.size(); ++i)
            if (about_invariant(main.out.findings[i], fresh)) dropped.emplace_back(main.out.findings[i], main.ranks[i]);
        opts.unassumed_invariants.insert(fresh.begin(), fresh.end());
        if (options.max_seconds > 0)
            opts.max_seconds =
                std::max(1e-3, options.max_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    for (auto& [f, rank] : dropped) {
        main.out.findings.push_back(std::move(f));
        main.ranks.push_back(rank);
    }
    main.out.unproved_invariants.insert(opts.unassumed_invariants.begin(), opts.unassumed_invariants.end());
    std::vector<std::size_t> order(main.out.findings.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return main.ranks[a] < main.ranks[b]; });
    check_result out = std::move(main.out);
    std::vector<finding> sorted;
    for (std::size_t i : order) sorted.push_back(std::move(out.findings[i]));
    out.findings = std::move(sorted);
    out.only = options.checks;
    out.proved = std::move(proved);
    out.cache_hits = cache_hits;
    out.general_proofs = general_proofs;
    out.hinted_answers = hinted_answers;
    out.implied_answers = implied_answers;
    out.strict_reach = options.strict_reach;
    // a bound violation no random game met: play aimed at it, within what is left of the budget
    decide_by_play(rs, out);
    label_reach(out);
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (options.max_seconds > 0)
        deadline = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(options.max_seconds));
    if (options.play_evidence && (options.checks.empty() || options.checks.count("bounds"))) {
        const auto t1 = std::chrono::steady_clock::now();
        detail::aimed_play(rs, options, deadline, out);
        out.stats["aimed play"].milliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
        decide_by_play(rs, out);
        label_reach(out);
    }
    detail::apply_accepts(rs, out);
    group_repeats(out);
    out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}  // namespace wp::verify
