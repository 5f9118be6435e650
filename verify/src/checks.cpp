// The checks of DESIGN.md §5 over the symbolic game: each is a set of Z3 queries whose
// satisfying models become witnesses and whose unsatisfiable cores become "why never".
#include "westphalia/verify/check.hpp"

#include "accepts.hpp"
#include "intervals.hpp"
#include "obligations.hpp"
#include "replay.hpp"
#include "symbolic.hpp"
#include "watchdog.hpp"

#include "westphalia/engine/sim.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace wp::verify {

using detail::fact;
using detail::fact_list;
using detail::symbolic;
using detail::variable;
using ir::id;

const char* name_of(severity s) { return s == severity::error ? "error" : "warning"; }
const char* name_of(proof_kind p) {
    switch (p) {
        case proof_kind::witness: return "witness";
        case proof_kind::proved: return "proved";
        case proof_kind::unknown: return "unknown";
    }
    return "?";
}

std::size_t error_count(const check_result& r) {
    return static_cast<std::size_t>(std::count_if(r.findings.begin(), r.findings.end(), [](const finding& f) {
        return f.level == severity::error && !f.accepted;
    }));
}

namespace {

std::string anchors_text(const ir::provenance& p) {
    std::string s;
    for (const ir::anchor& a : p.anchors) s += (s.empty() ? "§" : " §") + a.first + (a.last.empty() ? "" : "-" + a.last);
    return s;
}

class checker {
public:
    checker(const ir::ruleset& rs, const check_options& opt, check_result& out)
        : rs_(rs), opt_(opt), out_(out), sym_(ctx_, rs, players_for(rs, opt)) {
        sym_.unfold_limit = opt.unfold_limit;
        out_.players_checked = sym_.lay.players;
        for (std::size_t i = 0; i < sym_.variables.size(); ++i) index_[sym_.variables[i].var.id()] = i;
    }

    // Whether check `k` was asked for (check_options::checks; all when empty).
    bool wanted(const char* k) const { return opt_.checks.empty() || opt_.checks.count(k) > 0; }

    void run() {
        // reach needs the decisions' verdicts (a rule impossible in the domain is not asked again)
        const bool decisions = wanted("decisions") || wanted("reach");
        if (decisions || wanted("tables")) timed("play", [&] { play_evidence(); });
        if (decisions) timed("decisions", [&] { domain_checks(); });
        const bool sequence = wanted("tables") || wanted("bounds") || wanted("choices") || wanted("reach");
        timed("explore", [&] {
            if (sequence) {
                if (opt_.max_seconds > 0)
                    sym_.deadline = started_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                   std::chrono::duration<double>(opt_.max_seconds));
                sym_.explore();
                sym_.deadline.reset();
                sequence_stopped_ = sym_.stopped;
                sym_.stopped = false;
            }
            if (sequence_stopped_) {
                out_.out_of_time = true;
                unknown("the checks over the sequence of play (tables, bounds, choices, reach): its symbolic execution did not finish", {});
            }
            if (wanted("examples")) sym_.run_examples();
        });
        if (debug_) {
            std::size_t longest = 0;
            for (const auto& s : sym_.rule_sites) {
                std::size_t n = 0;
                for (const detail::fact_node* f = s.facts.get(); f; f = f->prev.get()) ++n;
                longest = std::max(longest, n);
            }
            std::fprintf(stderr, "explore: %zu rule sites, %zu table, %zu bound, %zu choice, %zu block, %zu end; %zu variables; longest path %zu facts; %.0f ms\n",
                         sym_.rule_sites.size(), sym_.table_sites.size(), sym_.bound_sites.size(), sym_.choice_sites.size(),
                         sym_.block_sites.size(), sym_.end_sites.size(), sym_.variables.size(), longest,
                         out_.stats["explore"].milliseconds);
        }
        index_.clear();
        for (std::size_t i = 0; i < sym_.variables.size(); ++i) index_[sym_.variables[i].var.id()] = i;
        // The cheap checks first, so that a time budget (--max-time) is spent on them before
        // the reachability proofs, which take most of it; the report keeps the order below.
        if (wanted("examples")) timed("examples", [&] { example_checks(); });
        // A sequence not run to its end leaves uses unseen: nothing is concluded from it.
        if (wanted("tables") && !sequence_stopped_) timed("tables", [&] { table_checks(); });
        if (wanted("bounds") && !sequence_stopped_) timed("bounds", [&] { bound_checks(); });
        if (wanted("choices") && !sequence_stopped_) timed("choices", [&] { choice_checks(); });
        if (wanted("reach") && !sequence_stopped_) timed("reach", [&] { reach_checks(); });
        for (auto& [i, replay] : replays_) out_.findings.at(i).replay = replay();
        replays_.clear();
        // the report's order of the stages (the checks run in another order, see above)
        static const std::vector<std::string> report_order{"decisions", "explore", "reach", "tables", "bounds", "choices", "examples"};
        for (const std::string& k : stage_of_)
            ranks_.push_back(static_cast<std::size_t>(std::find(report_order.begin(), report_order.end(), k) - report_order.begin()));
        for (const std::string& a : sym_.approximations) out_.approximations.push_back(a);
        out_.encoder["cut"] = sym_.cuts;
        out_.encoder["shared"] = sym_.memo_hits;
        out_.encoder["cached"] = sym_.memo_misses;
        out_.encoder["variables"] = sym_.variables.size();
    }

    // Per finding, in the order found: its stage's place in the report (after run).
    const std::vector<std::size_t>& ranks() const { return ranks_; }

private:
    static int players_for(const ir::ruleset& rs, const check_options& opt) {
        int most = rs.max_players > 0 ? static_cast<int>(rs.max_players) : 4;
        if (opt.max_players > 0) most = std::min(most, opt.max_players);
        else most = std::min(most, 6);
        return std::max(most, static_cast<int>(std::max<std::int64_t>(1, rs.min_players)));
    }

    void timed(const std::string& kind, const std::function<void()>& f) {
        const auto t0 = std::chrono::steady_clock::now();
        kind_ = kind;
        f();
        out_.stats[kind].milliseconds +=
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (debug_) {
            std::fprintf(stderr, "%s: %llu queries, %.0f ms (%.0f ms in the solver)\n", kind.c_str(),
                         static_cast<unsigned long long>(out_.stats[kind].queries), out_.stats[kind].milliseconds, solver_ms_);
            for (const auto& [k, v] : by_purpose_) std::fprintf(stderr, "  %-20s %5zu queries %8.0f ms\n", k.c_str(), v.first, v.second);
        }
        solver_ms_ = 0;
        by_purpose_.clear();
    }

    // ------------------------------------------------------------ solving

    // How hard a witness is made small. `all`: the fewest values away from their usual ones,
    // every value of the question free. `near`: the fewest among the values the witness shows
    // (those near the question), the others kept as the solver's model has them. For findings
    // the ruleset accepts: it shows the finding still happens, at a fifth of the cost (on
    // Contractor Cards' accepted bounds 0.1-0.4 s a witness for `all`, 20-110 ms for `near`).
    enum class witness_search { all, near };

    struct answer {
        z3::check_result r = z3::unknown;
        std::vector<std::string> witness;
        std::vector<std::string> because;
        std::optional<z3::model> model;  // the witness's (when shown)
    };

    void dump(z3::solver& s) {
        if (opt_.dump_smt_dir.empty()) return;
        std::filesystem::create_directories(opt_.dump_smt_dir);
        char name[64];
        std::snprintf(name, sizeof name, "%05zu-%s.smt2", ++dumped_, kind_.c_str());
        std::ofstream(std::filesystem::path(opt_.dump_smt_dir) / name) << s.to_smt2();
    }

    // Milliseconds left of the whole check's budget (--max-time); unlimited without one.
    double budget_left_ms() const {
        if (opt_.max_seconds <= 0) return std::numeric_limits<double>::infinity();
        return opt_.max_seconds * 1000.0 -
               std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
    }

    // Whether the budget is spent: then a question is not even prepared (its slice of the facts
    // costs time too), and its answer is `unknown`.
    bool spent() {
        if (budget_left_ms() >= 1.0) return false;
        out_.out_of_time = true;
        ++out_.stats[kind_].skipped;
        return true;
    }

    // Every query goes through here: the per-query limit (--timeout), shortened to what is left
    // of the budget; past the budget nothing more is asked and every answer is `unknown`.
    template <class Solver, class... Assumptions>
    z3::check_result ask(Solver& s, const Assumptions&... assumptions) {
        if (spent()) {
            --out_.stats[kind_].queries;  // counted by the caller, never asked
            return z3::unknown;
        }
        const unsigned ms = static_cast<unsigned>(std::min<double>(opt_.timeout_ms, budget_left_ms()));
        const auto t0 = std::chrono::steady_clock::now();
        const z3::check_result r = dog_.check(s, assumptions..., ms);
        if (debug_) {
            const double took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            solver_ms_ += took;
            auto& b = by_purpose_[purpose_ + (r == z3::sat ? " sat" : r == z3::unsat ? " unsat" : " unknown")];
            b.first += 1;
            b.second += took;
        }
        if (r == z3::unknown && ms < opt_.timeout_ms && budget_left_ms() < 1.0)
            out_.out_of_time = true;  // cut short by the budget, not by its own limit
        return r;
    }

    // The resource limit of a quick neighbourhood try (solve_local_first).
    static constexpr unsigned quick_rlimit = 2000000;

    // Time limits come from the watchdog (see watchdog.hpp), not Z3's own "timeout".
    void configure(z3::solver& s) {
        if (!opt_.rlimit) return;
        z3::params p(ctx_);
        p.set("rlimit", opt_.rlimit);
        s.set(p);
    }

    // detail::one_shot_solver with the query limits.
    z3::solver one_shot_solver() {
        z3::solver s = detail::one_shot_solver(ctx_);
        configure(s);
        return s;
    }

    // ---- slicing: a query only needs the facts that share variables with its target; the
    // other facts fall into independent groups whose satisfiability is checked once and cached.

    struct conjunct {
        z3::expr e;
        std::vector<unsigned> vars;
    };

    void flatten(const z3::expr& e, std::vector<z3::expr>& out) {
        if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
            for (unsigned i = 0; i < e.num_args(); ++i) flatten(e.arg(i), out);
            return;
        }
        if (e.is_true()) return;
        out.push_back(e);
    }

    std::vector<unsigned> variables_of(const z3::expr& e) {
        const std::vector<z3::expr> consts = constants(e);
        std::vector<unsigned> ids;
        for (const z3::expr& c : consts) ids.push_back(c.id());
        std::sort(ids.begin(), ids.end());
        return ids;
    }

    const std::vector<unsigned>& conjuncts_of(const fact_list& node) {
        const detail::fact_node* f = node.get();
        auto it = fact_conjuncts_.find(f);
        if (it != fact_conjuncts_.end()) return it->second;
        keep_alive_.push_back(node);  // the cache is keyed by address: the node must not be reused
        std::vector<z3::expr> parts;
        flatten(f->f.e, parts);
        std::vector<unsigned> idx;
        for (const z3::expr& p : parts) {
            auto known = conjunct_index_.find(p.id());
            if (known == conjunct_index_.end()) {
                known = conjunct_index_.emplace(p.id(), static_cast<unsigned>(conjuncts_.size())).first;
                conjuncts_.push_back({p, variables_of(p)});
            }
            idx.push_back(known->second);
        }
        return fact_conjuncts_.emplace(f, std::move(idx)).first->second;
    }

    unsigned find(std::unordered_map<unsigned, unsigned>& parent, unsigned x) {
        auto it = parent.find(x);
        if (it == parent.end()) { parent.emplace(x, x); return x; }
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }

    // The conjuncts of one fact list and, per variable, those that name it: the questions about
    // one place come one after another (two quick tries, the question, its witness), so the
    // last list's are kept.
    struct fact_index {
        const detail::fact_node* head = nullptr;
        fact_list keep;
        std::vector<unsigned> all;
        std::unordered_map<unsigned, std::vector<unsigned>> by_var;
    };

    const fact_index& index_of(const fact_list& facts) {
        if (last_index_.keep == facts && last_index_.head == facts.get()) return last_index_;
        fact_index x;
        x.head = facts.get();
        x.keep = facts;
        std::unordered_set<unsigned> seen;
        for (fact_list f = facts; f; f = f->prev)
            for (unsigned c : conjuncts_of(f))
                if (seen.insert(c).second) x.all.push_back(c);
        for (unsigned c : x.all)
            for (unsigned v : conjuncts_[c].vars) x.by_var[v].push_back(c);
        last_index_ = std::move(x);
        return last_index_;
    }

    // The part of facts ∧ target to solve, or nothing when an independent group of facts is
    // itself unsatisfiable (the target can then never hold).
    std::optional<z3::expr> slice(const fact_list& facts, const z3::expr& target, bool& undecided) {
        const std::vector<unsigned>& all = index_of(facts).all;  // slice asks for no other index
        std::vector<z3::expr> tparts;
        flatten(target, tparts);
        std::unordered_map<unsigned, unsigned> parent;
        auto unite = [&](const std::vector<unsigned>& vars) {
            for (std::size_t i = 1; i < vars.size(); ++i) {
                const unsigned a = find(parent, vars[0]), b = find(parent, vars[i]);
                if (a != b) parent[a] = b;
            }
            if (!vars.empty()) find(parent, vars[0]);
        };
        for (unsigned c : all) unite(conjuncts_[c].vars);
        std::vector<std::vector<unsigned>> tvars;
        for (const z3::expr& t : tparts) {
            tvars.push_back(variables_of(t));
            unite(tvars.back());
        }
        std::unordered_set<unsigned> relevant;
        for (const auto& vs : tvars)
            for (unsigned v : vs) relevant.insert(find(parent, v));
        z3::expr_vector chosen(ctx_);
        std::map<unsigned, std::vector<unsigned>> others;
        // On a path already known satisfiable, every independent group is too
        const bool path_sat = known_sat_.count(facts.get()) > 0;
        for (unsigned c : all) {
            const conjunct& cj = conjuncts_[c];
            if (cj.vars.empty() || relevant.count(find(parent, cj.vars[0]))) chosen.push_back(cj.e);
            else if (!path_sat) others[find(parent, cj.vars[0])].push_back(c);
        }
        // The small groups not known yet are asked together first: they share no variable, so
        // together they hold exactly when each does, and setting a question up costs far more
        // than solving a few facts. Only when that fails is each asked alone.
        std::vector<const std::vector<unsigned>*> fresh;
        for (auto& [root, group] : others) {
            std::sort(group.begin(), group.end());
            if (group.size() <= small_group && !group_sat_.count(group)) fresh.push_back(&group);
        }
        if (fresh.size() > 1) {
            z3::solver s = one_shot_solver();
            for (const std::vector<unsigned>* g : fresh)
                for (unsigned c : *g) s.add(conjuncts_[c].e);
            ++out_.stats[kind_].queries;
            purpose_ = "small groups";
            if (ask(s) == z3::sat)
                for (const std::vector<unsigned>* g : fresh) group_sat_.emplace(*g, z3::sat);
            purpose_ = "other";
        }
        for (auto& [root, group] : others) {
            auto it = group_sat_.find(group);
            if (it == group_sat_.end()) {
                z3::solver s = one_shot_solver();
                for (unsigned c : group) s.add(conjuncts_[c].e);
                ++out_.stats[kind_].queries;
                purpose_ = "group";
                it = group_sat_.emplace(group, ask(s)).first;
                purpose_ = "other";
            }
            if (it->second == z3::unsat) return std::nullopt;
            if (it->second == z3::unknown) undecided = true;
        }
        for (const z3::expr& t : tparts) chosen.push_back(t);
        return chosen.empty() ? ctx_.bool_val(true) : z3::mk_and(chosen);
    }

    // Independent groups of at most this many facts are first asked together (slice).
    static constexpr std::size_t small_group = 50;

    // The facts of this path and so of every shorter one hold together: their independent groups
    // need no question of their own any more (most questions are asked along the same paths).
    void mark_satisfiable(const fact_list& facts) {
        if (!facts || known_sat_.count(facts.get())) return;
        keep_alive_.push_back(facts);  // keyed by address: the node must not be reused
        for (const detail::fact_node* f = facts.get(); f && known_sat_.insert(f).second; f = f->prev.get()) {}
    }

    // The facts within `radius` steps of the target's variables (two facts are a step apart
    // when they share a variable), with the target.
    z3::expr neighbourhood(const fact_list& facts, const z3::expr& target, int radius) {
        const fact_index& ix = index_of(facts);
        const std::vector<unsigned>& all = ix.all;
        const auto& by_var = ix.by_var;
        std::unordered_set<unsigned> vars_seen;
        std::vector<unsigned> frontier = variables_of(target);
        vars_seen.insert(frontier.begin(), frontier.end());
        std::set<unsigned> chosen;
        for (unsigned c : all)
            if (conjuncts_[c].vars.empty()) chosen.insert(c);
        for (int step = 0; step < radius && !frontier.empty(); ++step) {
            std::vector<unsigned> next;
            for (unsigned v : frontier) {
                auto it = by_var.find(v);
                if (it == by_var.end()) continue;
                for (unsigned c : it->second) {
                    if (!chosen.insert(c).second) continue;
                    for (unsigned w : conjuncts_[c].vars)
                        if (vars_seen.insert(w).second) next.push_back(w);
                }
            }
            frontier = std::move(next);
        }
        z3::expr_vector v(ctx_);
        for (unsigned c : chosen) v.push_back(conjuncts_[c].e);
        v.push_back(target);
        return z3::mk_and(v);
    }

    // Satisfiability, trying a small neighbourhood of the facts first: when that is already
    // unsatisfiable, so is the whole (a quick proof of "never"). With `show`, as solve().
    answer solve_local_first(const fact_list& facts, const z3::expr& target, bool show,
                             const std::vector<std::pair<std::string, z3::expr>>& extra = {}) {
        if (spent()) return {};
        for (int radius : {2, 6}) {
            ++out_.stats[kind_].queries;
            z3::solver s = one_shot_solver();
            // A quick try, bounded by Z3's resource count rather than the clock: the answer (and
            // so every later query and witness) must not depend on how busy the machine is.
            z3::params p(ctx_);
            p.set("rlimit", opt_.rlimit ? std::min(opt_.rlimit, quick_rlimit) : quick_rlimit);
            s.set(p);
            s.add(neighbourhood(facts, target, radius));
            purpose_ = "quick" + std::to_string(radius);
            const z3::check_result r = ask(s);
            purpose_ = "other";
            if (r == z3::unsat) {
                answer a;
                a.r = z3::unsat;
                return a;
            }
            // Out of its resources on the small neighbourhood: the larger one is no quicker.
            if (r == z3::unknown) break;
        }
        return solve(facts, target, show, extra);
    }
    z3::check_result solve_local_first(const fact_list& facts, const z3::expr& target) {
        return solve_local_first(facts, target, false).r;
    }

    // Is facts ∧ target satisfiable? With `show`: the smallest witness found, as lines (the
    // values of `extra` first), searched as `search` says.
    answer solve(const fact_list& facts, const z3::expr& target, bool show,
                 const std::vector<std::pair<std::string, z3::expr>>& extra = {}, witness_search search = witness_search::all) {
        answer a;
        if (spent()) return a;
        bool undecided = false;
        const std::optional<z3::expr> q = slice(facts, target, undecided);
        if (!q) {
            a.r = z3::unsat;
            return a;
        }
        ++out_.stats[kind_].queries;
        const auto t0 = std::chrono::steady_clock::now();
        purpose_ = show ? "full+witness" : "full";
        z3::solver s = one_shot_solver();
        s.add(*q);
        dump(s);
        a.r = ask(s);
        if (a.r == z3::sat && show && search == witness_search::near) {
            // The search keeps the number of players of the solver's model (cards dealt to the
            // sixth seat hold six): a model with the usual number is asked for where it differs.
            auto it = index_.find(sym_.n_players.id());
            const z3::expr usual = it == index_.end() ? ctx_.bool_val(true)
                                                      : sym_.n_players == ctx_.int_val(sym_.variables[it->second].preferred);
            auto reads_players = [&] {
                const std::vector<z3::expr> consts = constants(*q);
                return std::any_of(consts.begin(), consts.end(), [&](const z3::expr& c) { return z3::eq(c, sym_.n_players); });
            };
            if (s.get_model().eval(usual, true).is_false() && reads_players()) {
                z3::solver pinned = one_shot_solver();
                pinned.add(*q && usual);
                dump(pinned);
                ++out_.stats[kind_].queries;
                if (ask(pinned) == z3::sat) s = pinned;
            }
        }
        purpose_ = "other";
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (debug_ && ms > 200) std::fprintf(stderr, "  slow %s query: %.0f ms (%s)\n", kind_.c_str(), ms,
                                             a.r == z3::sat ? "sat" : a.r == z3::unsat ? "unsat" : "unknown");
        if (a.r == z3::sat && undecided) a.r = z3::unknown;
        if (a.r == z3::sat) mark_satisfiable(facts);
        if (a.r == z3::sat && show) {
            // the answer rests on every fact of the path (the slice's and the independent
            // groups'), so an approximation anywhere in them is named
            for (; approx_scanned_ < sym_.variables.size(); ++approx_scanned_) {
                const detail::variable& v = sym_.variables[approx_scanned_];
                if (v.approximate) approx_.emplace(v.var.id(), v.text.substr(2));
            }
            std::set<std::string> cut;
            auto note = [&](const std::vector<unsigned>& vars) {
                for (unsigned v : vars)
                    if (auto it = approx_.find(v); it != approx_.end()) cut.insert(it->second);
            };
            if (!approx_.empty()) {
                for (fact_list f = facts; f; f = f->prev)
                    for (unsigned c : conjuncts_of(f)) note(conjuncts_[c].vars);
                note(variables_of(target));
            }
            // the witness shows the values near the question (its variables and those one
            // fact away), kept at their usual values where possible
            const std::vector<unsigned> near = variables_of(neighbourhood(facts, target, 1));
            a.model = s.get_model();
            a.witness = witness(*q, *a.model, extra, std::set<unsigned>(near.begin(), near.end()), search);
            for (const std::string& c : cut)
                a.witness.push_back("approximate: rests on " + c + ", encoded as any value (it may not happen in play)");
        }
        return a;
    }

    // Unsatisfiable: which of the labelled facts (and extra labelled conditions) it needs.
    std::vector<std::string> explain(const fact_list& facts, const std::vector<std::pair<std::string, z3::expr>>& extra) {
        if (spent()) return {};
        ++out_.stats[kind_].queries;
        z3::solver s(ctx_);
        configure(s);
        z3::params p(ctx_);
        p.set("core.minimize", true);
        s.set(p);
        std::vector<std::string> why;
        std::size_t k = 0;
        auto track = [&](const z3::expr& e, const std::string& w) {
            const z3::expr lit = ctx_.bool_const(("why" + std::to_string(k++)).c_str());
            s.add(z3::implies(lit, e));
            why.push_back(w);
            return lit;
        };
        z3::expr_vector lits(ctx_);
        for (const auto& [w, e] : extra) lits.push_back(track(e, w));
        for (const detail::fact_node* f = facts.get(); f; f = f->prev.get()) lits.push_back(track(f->f.e, f->f.why));
        std::vector<std::string> out;
        if (ask(s, lits) != z3::unsat) return out;
        // In the order the reasons were given (the question's own conditions first, then the
        // facts from the nearest back): the core's own order follows Z3's term ids, which
        // depend on every query asked before.
        std::vector<std::size_t> used;
        for (const z3::expr& c : s.unsat_core()) used.push_back(std::stoul(c.decl().name().str().substr(3)));
        std::sort(used.begin(), used.end());
        std::set<std::string> seen;
        for (std::size_t i : used)
            if (seen.insert(why.at(i)).second) out.push_back(why.at(i));
        return out;
    }

    // The uninterpreted constants of e, each once, in the order a depth-first walk meets them.
    // Walked through Z3's C API, each subterm marked by its id: the questions' terms are big and
    // share most of their subterms, and the C++ wrappers' reference counting made this walk a
    // fifth of the bounds' time.
    std::vector<z3::expr> constants(const z3::expr& e) {
        const Z3_context c = ctx_;
        if (++epoch_ == 0) {
            std::fill(mark_.begin(), mark_.end(), 0u);
            epoch_ = 1;
        }
        std::vector<z3::expr> out;
        std::vector<Z3_ast> todo{e};
        while (!todo.empty()) {
            const Z3_ast a = todo.back();
            todo.pop_back();
            const unsigned id = Z3_get_ast_id(c, a);
            if (id >= mark_.size()) mark_.resize(std::max<std::size_t>(id + 1, mark_.size() * 3 / 2), 0u);
            if (mark_[id] == epoch_) continue;
            mark_[id] = epoch_;
            switch (Z3_get_ast_kind(c, a)) {
                case Z3_APP_AST: {
                    const Z3_app app = Z3_to_app(c, a);
                    const unsigned n = Z3_get_app_num_args(c, app);
                    if (n == 0 && Z3_get_decl_kind(c, Z3_get_app_decl(c, app)) == Z3_OP_UNINTERPRETED) {
                        out.push_back(z3::expr(ctx_, a));
                        break;
                    }
                    for (unsigned i = n; i-- > 0;) todo.push_back(Z3_get_app_arg(c, app, i));
                    break;
                }
                case Z3_QUANTIFIER_AST: todo.push_back(Z3_get_quantifier_body(c, a)); break;
                default: break;
            }
        }
        return out;
    }

    static std::string value_line(const std::string& text, const z3::expr& e, z3::model& m) {
        const z3::expr v = m.eval(e, true);
        std::int64_t x = 0;
        return text + " = " + (v.is_numeral_i64(x) ? std::to_string(x) : v.to_string());
    }

    // Leaves in m the model the witness shows.
    std::vector<std::string> witness(const z3::expr& q, z3::model& m, const std::vector<std::pair<std::string, z3::expr>>& extra,
                                     const std::set<unsigned>& near, witness_search search) {
        std::vector<z3::expr> vars;
        const std::vector<z3::expr> all = constants(q);
        for (const z3::expr& v : all)
            if (near.count(v.id()) || z3::eq(v, sym_.n_players)) vars.push_back(v);
        // the smallest witness: as many values as possible at their usual (initial) value
        std::vector<std::size_t> known;
        std::vector<z3::expr> usual;
        for (const z3::expr& v : vars) {
            auto it = index_.find(v.id());
            if (it == index_.end()) continue;
            const variable& var = sym_.variables[it->second];
            known.push_back(it->second);
            usual.push_back(var.var.is_bool() ? !var.var : var.var == ctx_.int_val(var.preferred));
        }
        if (search == witness_search::near) near_changes(q, all, vars, usual, m);
        else fewest_changes(q, usual, m);
        std::vector<std::string> lines;
        for (const auto& [text, e] : extra) lines.push_back(value_line(text, e, m));
        std::sort(known.begin(), known.end());
        std::set<std::string> done;
        for (std::size_t i : known) {
            const variable& var = sym_.variables[i];
            const z3::expr v = m.eval(var.var, true);
            std::string line;
            if (var.var.is_bool()) {
                if (v.is_true()) line = var.text + ": yes";
                else continue;
            } else {
                std::int64_t x = 0;
                if (!v.is_numeral_i64(x)) continue;
                if (x == var.preferred && var.text != "players") continue;
                switch (var.as) {
                    case variable::show::zone: line = var.text + " is in " + sym_.zone_instance_text(x); break;
                    case variable::show::boolean: line = var.text + " = " + (x ? "true" : "false"); break;
                    case variable::show::player: line = var.text + " = " + (x < 0 ? "none" : "P" + std::to_string(x + 1)); break;
                    case variable::show::instance: line = var.text + " = " + sym_.instance_text(x); break;
                    default: line = var.text + " = " + sym_.value_text(var.type, x); break;
                }
            }
            if (done.insert(line).second) lines.push_back(line);
        }
        return lines;
    }

    // fewest_changes among the `shown` constants only (witness_search::near): every other
    // constant of q fixed as m has it. Leaves in m the merged model.
    void near_changes(const z3::expr& q, const std::vector<z3::expr>& all, const std::vector<z3::expr>& shown_vars,
                      const std::vector<z3::expr>& usual, z3::model& m) {
        std::unordered_set<unsigned> shown;
        for (const z3::expr& v : shown_vars) shown.insert(v.id());
        z3::expr_vector from(ctx_), to(ctx_);
        for (const z3::expr& c : all)
            if (!shown.count(c.id())) {
                from.push_back(c);
                to.push_back(m.eval(c, true));
            }
        z3::expr fixed = q;
        fixed = fixed.substitute(from, to);
        z3::model found = m;
        fewest_changes(fixed, usual, found);
        z3::model merged(ctx_);
        for (const z3::expr& c : all) {
            z3::func_decl d = c.decl();
            z3::expr v = (shown.count(c.id()) ? found : m).eval(c, true);
            merged.add_const_interp(d, v);
        }
        m = merged;
    }

    // A model of q with as many of `usual` holding as it can find (all but the fewest with
    // Z3's optimizer, up to exact_witness_limit of them; else few_changes). Leaves m as it was
    // when a question is not answered.
    void fewest_changes(const z3::expr& q, const std::vector<z3::expr>& usual, z3::model& m) {
        if (usual.size() > exact_witness_limit) {
            few_changes(q, usual, m);
            return;
        }
        z3::optimize o(ctx_);
        o.add(q);
        for (const z3::expr& u : usual) o.add_soft(u, 1);
        ++out_.stats[kind_].queries;
        // The search for the smallest witness has the query's own limit: a shorter one made
        // the witness depend on how busy the machine was.
        if (ask(o) == z3::sat) m = o.get_model();
    }

    // Above this many values to keep at their usual value, Z3's optimizer takes longer than
    // few_changes (on Contractor Cards: 50 ms at 62-70 values, 0.6 and 1.0 s at 183 and 195,
    // where few_changes takes 0.1-0.3 s).
    static constexpr std::size_t exact_witness_limit = 100;

    // A small witness by unsat cores: every value is assumed at its usual one; while that cannot
    // hold, the values of the core are given up; then those given up are taken back where they
    // can be. That keeps every value it can one at a time, not always the fewest changes: then
    // fewer changes than its model has are asked for until that cannot be, and the last model
    // has the fewest. A few dozen questions.
    // Leaves m as it was when a question is not answered.
    void few_changes(const z3::expr& q, const std::vector<z3::expr>& usual, z3::model& m) {
        z3::solver s(ctx_);
        configure(s);
        s.add(q);
        std::vector<z3::expr> flags;
        std::unordered_map<unsigned, std::size_t> flag_of;
        for (std::size_t i = 0; i < usual.size(); ++i) {
            flags.push_back(ctx_.bool_const(("usual!" + std::to_string(i)).c_str()));
            flag_of.emplace(flags.back().id(), i);
            s.add(z3::implies(flags.back(), usual[i]));
        }
        std::vector<char> kept(usual.size(), 1);
        auto holds = [&] {
            z3::expr_vector assumed(ctx_);
            for (std::size_t i = 0; i < usual.size(); ++i)
                if (kept[i]) assumed.push_back(flags[i]);
            ++out_.stats[kind_].queries;
            return ask(s, assumed);
        };
        std::vector<std::size_t> given_up;
        for (z3::check_result r = holds(); r != z3::sat; r = holds()) {
            if (r == z3::unknown) return;
            const z3::expr_vector core = s.unsat_core();
            std::size_t dropped = 0;
            for (unsigned c = 0; c < core.size(); ++c)
                if (auto it = flag_of.find(core[c].id()); it != flag_of.end() && kept[it->second]) {
                    kept[it->second] = 0;
                    given_up.push_back(it->second);
                    ++dropped;
                }
            if (dropped == 0) return;  // the question itself cannot hold: keep the model given
        }
        std::sort(given_up.begin(), given_up.end());
        // The values given up that the model just found keeps at their usual value are taken
        // back without a question (that model holds them all); only the others are searched.
        {
            const z3::model found = s.get_model();
            std::vector<std::size_t> changed;
            for (std::size_t i : given_up) {
                if (found.eval(usual[i], true).is_true()) kept[i] = 1;
                else changed.push_back(i);
            }
            given_up = std::move(changed);
        }
        // Take back a range of them together when it can be, else each half: the questions grow
        // with the values that must change (a witness has few) times the halvings.
        bool undecided = false;
        std::function<void(std::size_t, std::size_t)> take_back = [&](std::size_t from, std::size_t to) {
            if (from >= to || undecided) return;
            for (std::size_t i = from; i < to; ++i) kept[given_up[i]] = 1;
            const z3::check_result r = holds();
            if (r == z3::sat) return;
            for (std::size_t i = from; i < to; ++i) kept[given_up[i]] = 0;
            if (r == z3::unknown) { undecided = true; return; }
            if (to - from == 1) return;
            const std::size_t mid = from + (to - from) / 2;
            take_back(from, mid);
            take_back(mid, to);
        };
        take_back(0, given_up.size());
        if (holds() != z3::sat) return;
        m = s.get_model();
        // At most one change fewer, until that cannot be (the greedy model makes the first bound
        // small, so this takes a question or two).
        z3::expr_vector changed(ctx_);
        for (const z3::expr& u : usual) changed.push_back(!u);
        for (;;) {
            int count = 0;
            for (const z3::expr& u : usual) count += m.eval(u, true).is_false() ? 1 : 0;
            if (count == 0) return;
            s.add(z3::atmost(changed, static_cast<unsigned>(count - 1)));
            ++out_.stats[kind_].queries;
            if (ask(s) != z3::sat) return;
            m = s.get_model();
        }
    }

    // ------------------------------------------------------------ findings

    involved rule_elem(id r) const {
        const ir::rule& rule = rs_.rules.at(r);
        return {"rule", rule.name, rule.prov};
    }

    std::string where(const ir::provenance& p) const {
        std::string s = sym_.position(p.where);
        const std::string a = anchors_text(p);
        return a.empty() ? s : s + " " + a;
    }

    // The replay of the finding added last, run once every question is answered: replaying
    // evaluates the witness's model, which makes Z3 terms, and terms made between questions
    // move the later questions' term ids, so their witnesses and their time.
    void replay_later(std::function<std::string()> replay) { replays_.emplace_back(out_.findings.size() - 1, std::move(replay)); }

    finding& add(const std::string& kind, severity level, const std::string& subject, const std::string& message) {
        finding f;
        f.kind = kind;
        f.level = level;
        f.subject = subject;
        f.message = message;
        out_.findings.push_back(std::move(f));
        stage_of_.push_back(kind_);
        return out_.findings.back();
    }

    void unknown(const std::string& what, const std::vector<involved>& elems, severity level = severity::error) {
        finding& f = add("unknown", level, what,
                         out_.out_of_time ? "not decided: the check's time budget (--max-time) ran out before deciding " + what
                                          : "the solver could not decide " + what + " within the limits (--timeout, --rlimit)");
        f.proof = proof_kind::unknown;
        f.elements = elems;
    }

    // ------------------------------------------------------------ domain checks

    // The rules of one group over a free state and free target arguments.
    void domain_checks() {
        std::vector<fact> facts;
        const detail::store st = sym_.free_store(facts);
        // the store's variables can be shown in witnesses (the state a decision is taken in)
        for (std::size_t i = 0; i < sym_.variables.size(); ++i) index_[sym_.variables[i].var.id()] = i;
        fact_list base;
        for (const fact& f : facts) base = std::make_shared<const detail::fact_node>(detail::fact_node{f, base});
        const std::int64_t lo = std::max<std::int64_t>(1, rs_.min_players);
        base = std::make_shared<const detail::fact_node>(detail::fact_node{
            {sym_.n_players >= ctx_.int_val(lo) && sym_.n_players <= ctx_.int_val(sym_.lay.players),
             "the number of players is " + std::to_string(lo) + ".." + std::to_string(sym_.lay.players)},
            base});
        for (id g = 0; g < rs_.groups.size(); ++g) group_checks(g, st, base);
    }

    const std::vector<ir::local>* target_params(const ir::rule_group& gr) const {
        switch (gr.target) {
            case ir::target_kind::roll: return &rs_.rolls.at(gr.target_id).locals;
            case ir::target_kind::quantity: return &rs_.quantities.at(gr.target_id).locals;
            case ir::target_kind::decision: return &rs_.decisions.at(gr.target_id).params;
            case ir::target_kind::action: return &rs_.actions.at(gr.target_id).locals;
            case ir::target_kind::event: return &rs_.events.at(gr.target_id).params;
            default: return nullptr;
        }
    }

    std::size_t target_param_count(const ir::rule_group& gr) const {
        switch (gr.target) {
            case ir::target_kind::roll: return rs_.rolls.at(gr.target_id).param_count;
            case ir::target_kind::quantity: return rs_.quantities.at(gr.target_id).param_count;
            case ir::target_kind::decision: return rs_.decisions.at(gr.target_id).params.size();
            case ir::target_kind::action: return rs_.actions.at(gr.target_id).param_count;
            case ir::target_kind::event: return rs_.events.at(gr.target_id).params.size();
            default: return 0;
        }
    }

    std::string target_name(const ir::rule_group& gr) const {
        switch (gr.target) {
            case ir::target_kind::roll: return rs_.rolls.at(gr.target_id).name;
            case ir::target_kind::quantity: return rs_.quantities.at(gr.target_id).name;
            case ir::target_kind::decision: return rs_.decisions.at(gr.target_id).name;
            case ir::target_kind::action: return rs_.actions.at(gr.target_id).name;
            case ir::target_kind::event: return rs_.events.at(gr.target_id).name;
            default: return "?";
        }
    }

    // Whether a beats b through override edges (transitively).
    bool beats(const ir::rule_group& gr, id a, id b) const {
        std::vector<id> todo{a};
        std::set<id> seen;
        while (!todo.empty()) {
            const id x = todo.back();
            todo.pop_back();
            if (!seen.insert(x).second) continue;
            for (const ir::override_edge& e : gr.edges)
                if (e.higher == x) {
                    if (e.lower == b) return true;
                    todo.push_back(e.lower);
                }
        }
        return false;
    }

    // Whether rule r's condition can hold for some other values of the options.
    bool applies_under_other_options(id r, const std::vector<z3::expr>& args, const detail::store& st, const fact_list& facts) {
        if (rs_.options.empty()) return false;
        sym_.free_options = true;
        z3::expr g = sym_.rule_guard(r, args, st);
        for (const z3::expr& x : sym_.side) g = g && x;
        sym_.side.clear();
        sym_.free_options = false;
        return solve(facts, g, false).r == z3::sat;
    }

    // Whether random play under other option values ran statement (or block) `node`.
    bool played_under_other_options(id node) {
        if (rs_.options.empty()) return false;
        if (!played_elsewhere_) play_other_options();
        return started(run_elsewhere_, node);
    }

    // Whether a site unreachable under the chosen options is reachable under others: seen in
    // play under them, or else the sequence is explored again with every option free.
    bool reachable_under_other_options(id node) {
        if (rs_.options.empty()) return false;
        if (played_under_other_options(node)) return true;
        if (!free_) {
            free_ = std::make_unique<symbolic>(ctx_, rs_, sym_.lay.players);
            free_->free_options = true;
            free_->explore();
        }
        auto check = [&](const auto& sites) {
            for (const auto& s : sites)
                if (s.node == node && solve_local_first(s.facts, ctx_.bool_val(true)) != z3::unsat) return true;
            return false;
        };
        return check(free_->block_sites) || check(free_->end_sites) || check(free_->table_sites);
    }

    void group_checks(id g, const detail::store& st, const fact_list& base) {
        const ir::rule_group& gr = rs_.groups.at(g);
        const std::vector<ir::local>* params = target_params(gr);
        const std::size_t count = target_param_count(gr);
        fact_list facts = base;
        std::vector<z3::expr> args;
        // The engine replays a witness here over the same store, with the arguments as locals.
        detail::replay_point at;
        at.recorded = true;
        at.st = sym_.snapshot(st);
        at.variables_from = sym_.variables.size();
        auto replay = [&](const answer& x, std::function<std::string(const detail::replay_point&, const z3::model&)> how) {
            if (!x.model) return;
            at.variables_to = sym_.variables.size();
            replay_later([at, m = *x.model, how = std::move(how)] { return how(at, m); });
        };
        auto both_apply = [this, g](id a, id b, detail::witness_replay::values v) {
            return [this, g, a, b, v](const detail::replay_point& p, const z3::model& m) { return replay_.both_apply(p, g, a, b, v, m); };
        };
        for (std::size_t i = 0; i < count && params; ++i) {
            const ir::local& l = params->at(i);
            z3::expr v = sym_.fresh(l.name, l.type, l.name, variable::show::value, 0);
            switch (rs_.types.at(l.type).kind) {
                case ir::type_kind::player: sym_.variables.back().as = variable::show::player; break;
                case ir::type_kind::entity: sym_.variables.back().as = variable::show::instance; break;
                case ir::type_kind::enumeration: sym_.variables.back().as = variable::show::member; break;
                default: break;
            }
            sym_.variables.back().preferred = -99;  // always show the arguments
            index_[v.id()] = sym_.variables.size() - 1;
            z3::expr dom = sym_.in_type(v, l.type);
            if (rs_.types.at(l.type).kind == ir::type_kind::player) dom = dom && v >= 0;
            if (rs_.types.at(l.type).kind == ir::type_kind::entity) dom = dom && v >= 0;
            facts = std::make_shared<const detail::fact_node>(detail::fact_node{{dom, "the range of `" + l.name + "`"}, facts});
            args.push_back(v);
            at.locals.emplace_back(v);
        }
        std::map<id, z3::expr> guards;
        std::map<id, z3::expr> applies = sym_.group_effective(g, args, st, &guards);
        z3::expr side = ctx_.bool_val(true);
        for (const z3::expr& s : sym_.side) side = side && s;
        sym_.side.clear();
        facts = std::make_shared<const detail::fact_node>(detail::fact_node{{side, "the possible dice and values"}, facts});
        const std::string target = target_name(gr);

        // vacuous and shadowed (a rule that fired in random play is neither)
        for (id r : gr.rules) {
            const ir::rule& rule = rs_.rules.at(r);
            if (rule.guard == ir::no_id || fired_.count(rule.name)) continue;
            answer a = solve(facts, guards.at(r), false);
            if (a.r == z3::unknown) { unknown("whether rule " + rule.name + " can apply", {rule_elem(r)}); continue; }
            if (a.r == z3::unsat && applies_under_other_options(r, args, st, facts)) {
                dead_.insert(r);  // inactive under the chosen options: not a defect
                continue;
            }
            if (a.r == z3::unsat) {
                finding& f = add("dead-rule", severity::warning, rule.name,
                                 "rule `" + rule.name + "` can never apply: its condition is impossible");
                f.elements.push_back(rule_elem(r));
                f.proof = proof_kind::proved;
                f.because = explain(facts, {{"the condition of `" + rule.name + "` (" + where(rule.prov) + ")", guards.at(r)}});
                dead_.insert(r);
                continue;
            }
            if (!gr.edges.empty()) {
                answer b = solve(facts, applies.at(r), false);
                if (b.r == z3::unsat) {
                    finding& f = add("dead-rule", severity::warning, rule.name,
                                     "rule `" + rule.name + "` never takes effect: whenever it applies, a rule that overrides it applies too");
                    f.elements.push_back(rule_elem(r));
                    for (const ir::override_edge& e : gr.edges)
                        if (e.lower == r) f.elements.push_back(rule_elem(e.higher));
                    f.proof = proof_kind::proved;
                    std::vector<std::pair<std::string, z3::expr>> extra{
                        {"the condition of `" + rule.name + "` (" + where(rule.prov) + ")", guards.at(r)}};
                    for (const ir::override_edge& e : gr.edges)
                        if (e.lower == r)
                            extra.push_back({"`" + rs_.rules.at(e.higher).name + "` overrides it where it applies (" +
                                                 where(rs_.rules.at(e.higher).prov) + ")",
                                             !guards.at(e.higher)});
                    f.because = explain(facts, extra);
                    dead_.insert(r);
                }
            }
        }

        // contradictions and ambiguities
        auto value_of = [&](id r) {
            const ir::rule& rule = rs_.rules.at(r);
            symbolic::env e;
            e.locals.resize(std::max(rule.locals.size(), args.size()));
            for (std::size_t i = 0; i < args.size() && i < rule.locals.size(); ++i) e.locals[i] = args[i];
            z3::expr v = sym_.integer(rule.value, e, st);
            z3::expr s = ctx_.bool_val(true);
            for (const z3::expr& x : sym_.side) s = s && x;
            sym_.side.clear();
            return std::make_pair(v, s);
        };
        for (std::size_t i = 0; i < gr.rules.size(); ++i)
            for (std::size_t j = i + 1; j < gr.rules.size(); ++j) {
                const id a = gr.rules[i], b = gr.rules[j];
                if (dead_.count(a) || dead_.count(b) || beats(gr, a, b) || beats(gr, b, a)) continue;
                const ir::rule& ra = rs_.rules.at(a);
                const ir::rule& rb = rs_.rules.at(b);
                const bool defines = ra.kind == ir::rule_kind::define && rb.kind == ir::rule_kind::define;
                const bool legal = (ra.kind == ir::rule_kind::forbid && rb.kind == ir::rule_kind::require) ||
                                   (ra.kind == ir::rule_kind::require && rb.kind == ir::rule_kind::forbid);
                const bool triggers = ra.kind == ir::rule_kind::trigger && rb.kind == ir::rule_kind::trigger;
                if (triggers) {
                    // Two passages that end the game on the same event for different reasons:
                    // whichever runs first decides, and the text does not say which.
                    const std::set<std::string> ea = end_reasons(ra.body), eb = end_reasons(rb.body);
                    if (ea.empty() || eb.empty() || ea == eb) continue;
                    answer x = solve(facts, applies.at(a) && applies.at(b), true);
                    if (x.r == z3::unknown) unknown("whether " + ra.name + " and " + rb.name + " both end the game", {rule_elem(a), rule_elem(b)});
                    if (x.r != z3::sat) continue;
                    finding& f = add("contradiction", severity::error, ra.name + " " + rb.name,
                                     "`" + ra.name + "` ends the game (" + joined(ea) + ") and `" + rb.name + "` ends it (" + joined(eb) +
                                         ") on the same `" + target + "`, and neither overrides the other");
                    f.elements = {rule_elem(a), rule_elem(b)};
                    f.witness = x.witness;
                    replay(x, both_apply(a, b, detail::witness_replay::values::any));
                    continue;
                }
                if (!defines && !legal) continue;
                const z3::expr both = applies.at(a) && applies.at(b);
                if (legal) {
                    answer x = solve(facts, both, true);
                    if (x.r == z3::unknown) unknown("whether " + ra.name + " and " + rb.name + " conflict", {rule_elem(a), rule_elem(b)});
                    if (x.r != z3::sat) continue;
                    finding& f = add("contradiction", severity::error, ra.name + " " + rb.name,
                                     "`" + ra.name + "` forbids " + target + " where `" + rb.name + "` requires it, and neither overrides the other");
                    f.elements = {rule_elem(a), rule_elem(b)};
                    f.witness = x.witness;
                    replay(x, both_apply(a, b, detail::witness_replay::values::any));
                    continue;
                }
                const auto [va, sa] = value_of(a);
                const auto [vb, sb] = value_of(b);
                answer x = solve(facts, both && sa && sb && va != vb, true, {{ra.name + " gives", va}, {rb.name + " gives", vb}});
                if (x.r == z3::unknown) {
                    unknown("whether " + ra.name + " and " + rb.name + " disagree", {rule_elem(a), rule_elem(b)});
                    continue;
                }
                if (x.r == z3::sat) {
                    finding& f = add("contradiction", severity::error, ra.name + " " + rb.name,
                                     "`" + ra.name + "` and `" + rb.name + "` both decide " + target +
                                         " with different values, and neither overrides the other");
                    f.elements = {rule_elem(a), rule_elem(b)};
                    f.witness = x.witness;
                    replay(x, both_apply(a, b, detail::witness_replay::values::different));
                    continue;
                }
                answer y = solve(facts, both && sa && sb, true);
                if (y.r == z3::sat) {
                    finding& f = add("ambiguity", severity::warning, ra.name + " " + rb.name,
                                     "`" + ra.name + "` and `" + rb.name + "` both decide " + target +
                                         " (with the same value) and neither overrides the other");
                    f.elements = {rule_elem(a), rule_elem(b)};
                    f.witness = y.witness;
                    replay(y, both_apply(a, b, detail::witness_replay::values::same));
                }
            }

        // gaps in total decisions
        if (gr.target == ir::target_kind::decision && rs_.decisions.at(gr.target_id).total) {
            const ir::decision& d = rs_.decisions.at(gr.target_id);
            z3::expr none = ctx_.bool_val(true);
            for (id r : gr.rules)
                if (rs_.rules.at(r).kind == ir::rule_kind::define) none = none && !guards.at(r);
            answer x = solve(facts, none, true);
            if (x.r == z3::unknown) unknown("whether " + d.name + " is decided everywhere", {{"decision", d.name, d.prov}});
            if (x.r == z3::sat) {
                finding& f = add("gap", severity::error, d.name,
                                 "decision `" + d.name + "` is declared total, but no rule decides it in this situation");
                f.elements.push_back({"decision", d.name, d.prov});
                for (id r : gr.rules) f.elements.push_back(rule_elem(r));
                f.witness = x.witness;
                replay(x, [this, g](const detail::replay_point& p, const z3::model& m) { return replay_.undecided(p, g, m); });
            }
        }
    }

    // The reasons of the `end game` statements in a body.
    std::set<std::string> end_reasons(id body) const {
        std::set<std::string> out;
        if (body == ir::no_id) return out;
        std::vector<id> todo{body};
        while (!todo.empty()) {
            const id n = todo.back();
            todo.pop_back();
            const ir::node& nd = rs_.nodes.at(n);
            if (nd.code == ir::op::end_game)
                out.insert(nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs_.strings.size() ? rs_.strings[static_cast<std::size_t>(nd.value)]
                                                                                                     : std::to_string(nd.value));
            for (id c : ir::children_of(rs_, n)) todo.push_back(c);
        }
        return out;
    }

    static std::string joined(const std::set<std::string>& words) {
        std::string out;
        for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
        return out;
    }

    // ------------------------------------------------------------ reachability

    // Random games under each other value of each option, one option at a time (a tenth of the
    // games per value, at the fewest and the most players): what they run is reachable under
    // other options and needs no proof of it.
    void play_other_options() {
        played_elsewhere_ = true;
        if (opt_.sim_games == 0 || rs_.sequences.empty()) return;
        const int lo = static_cast<int>(std::max<std::int64_t>(1, rs_.min_players));
        std::set<int> counts{lo, std::max(lo, sym_.lay.players)};
        for (std::size_t o = 0; o < rs_.options.size(); ++o) {
            for (std::uint32_t v = 0; v < rs_.options[o].values.size(); ++v) {
                if (v == rs_.options[o].selected_index || budget_left_ms() < 1.0) continue;
                ir::ruleset variant = rs_;
                variant.options[o].selected_index = v;
                for (int players : counts)
                    if (const auto r = evidence_games(variant, players, std::max<std::uint64_t>(1, opt_.sim_games / 10)))
                        engine::merge_coverage(run_elsewhere_, r->statements_run);
            }
        }
    }

    // Seeded random games of `rs` with coverage, or nothing when they are no evidence: the engine
    // cannot set the game up for this many players, or play broke an invariant (a state that
    // breaks one lies outside the domain the questions assume). A game stopped by an engine
    // error, a table with no row for a key say, reached every state before it.
    std::optional<engine::sim_report> evidence_games(const ir::ruleset& rs, int players, std::uint64_t games) const {
        engine::sim_options so;
        so.games = games;
        so.players = players;
        so.seed = 1;
        so.check_invariants = true;
        so.max_decisions = 100000;
        so.coverage = true;
        try {
            engine::sim_report r = engine::simulate(rs, so);
            if (r.invariant_violations > 0) return std::nullopt;
            return r;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }

    // Random games through the engine: a rule that fires, a statement that starts, a table key
    // read or a game end that happens there is reached and needs no proof.
    void play_evidence() {
        if (opt_.sim_games == 0 || rs_.sequences.empty()) return;
        const int lo = static_cast<int>(std::max<std::int64_t>(1, rs_.min_players));
        for (int players = lo; players <= sym_.lay.players; ++players) {
            if (const std::optional<engine::sim_report> played = evidence_games(rs_, players, opt_.sim_games)) {
                const engine::sim_report& r = *played;
                for (const engine::sim_rule& x : r.rules)
                    if (x.fires > 0) fired_.insert(x.name);
                for (const auto& [reason, n] : r.end_reasons)
                    if (n > 0) ended_.insert(reason);
                engine::merge_coverage(statements_run_, r.statements_run);
                engine::merge_coverage(keys_read_, r.keys_read);
                table_key_first_ = r.table_key_first;
                played_ += r.games;
            }
        }
    }

    // Whether random play (its statements run) started statement n: for a block or a list, its
    // first statement (the engine runs those inline).
    bool started(const std::vector<std::uint8_t>& ran, id n) const {
        while (n != ir::no_id && (rs_.nodes.at(n).code == ir::op::block || rs_.nodes.at(n).code == ir::op::seq)) {
            const ir::node& nd = rs_.nodes.at(n);
            if (nd.child_count == 0) return false;
            n = rs_.children.at(nd.first_child);
        }
        return n != ir::no_id && n < ran.size() && ran[n] != 0;
    }

    // Whether random play read key i (a row, then the columns) of table t.
    bool played_key(id t, std::size_t i) const {
        if (keys_read_.empty() || t + 1 >= table_key_first_.size()) return false;
        const std::size_t k = table_key_first_[t] + i;
        return k < table_key_first_[t + 1] && keys_read_[k] != 0;
    }

    // Rules that apply nowhere the sequence consults them; blocks and game ends never reached.
    void reach_checks() {
        std::map<id, std::vector<const detail::rule_site*>> by_rule;
        for (const detail::rule_site& s : sym_.rule_sites) by_rule[s.rule].push_back(&s);
        for (id g = 0; g < rs_.groups.size(); ++g) {
            const ir::rule_group& gr = rs_.groups.at(g);
            for (id r : gr.rules) {
                if (dead_.count(r)) continue;
                const ir::rule& rule = rs_.rules.at(r);
                auto it = by_rule.find(r);
                if (it == by_rule.end()) {
                    // decisions and quantities may be consulted outside the sequence (the winner)
                    if (gr.target == ir::target_kind::decision || gr.target == ir::target_kind::quantity) continue;
                    finding& f = add("dead-rule", severity::warning, rule.name,
                                     "rule `" + rule.name + "` is never used: nothing in the sequence of play uses `" +
                                         target_name(gr) + "`");
                    f.elements.push_back(rule_elem(r));
                    f.proof = proof_kind::proved;
                    continue;
                }
                if (fired_.count(rule.name)) continue;
                // one question per place and circumstances: the options considered there, together
                // in the order the sequence reaches them (not by address: reports must not vary)
                std::vector<std::pair<const detail::fact_node*, std::vector<const detail::rule_site*>>> places;
                for (const detail::rule_site* s : it->second) {
                    auto at = std::find_if(places.begin(), places.end(), [&](const auto& x) { return x.first == s->facts.get(); });
                    if (at == places.end()) places.push_back({s->facts.get(), {s}});
                    else at->second.push_back(s);
                }
                if (debug_)
                    std::fprintf(stderr, "reach: proving %s over %zu places\n", rule.name.c_str(), places.size());
                bool reached = false, undecided = false;
                std::vector<std::pair<const detail::rule_site*, z3::expr>> questions;
                for (const auto& [facts, sites] : places) {
                    z3::expr_vector any(ctx_);
                    for (const detail::rule_site* s : sites) any.push_back(s->extra && s->applies);
                    questions.push_back({sites.front(), z3::mk_or(any)});
                }
                for (const auto& [s, q] : questions) {
                    const z3::check_result a = solve_local_first(s->facts, q);
                    if (a == z3::sat) { reached = true; break; }
                    if (a == z3::unknown) undecided = true;
                }
                if (reached) continue;
                if (undecided) {
                    unknown("whether rule " + rule.name + " is ever reached", {rule_elem(r)}, severity::warning);
                    continue;
                }
                finding& f = add("dead-rule", severity::warning, rule.name,
                                 "rule `" + rule.name + "` never applies in play: wherever the sequence uses `" + target_name(gr) +
                                     "`, its condition is false");
                f.elements.push_back(rule_elem(r));
                f.proof = proof_kind::proved;
                if (played_) f.replay = "confirmed: it did not fire in " + std::to_string(played_) + " random games either";
                std::vector<const detail::rule_site*> firsts;
                std::map<const detail::site*, z3::expr> question_of;
                for (const auto& [s, q] : questions) {
                    firsts.push_back(s);
                    question_of.emplace(s, q);
                }
                because_at_sites(f, firsts, [&](const detail::site& s) {
                    return std::vector<std::pair<std::string, z3::expr>>{
                        {"the condition of `" + rule.name + "` (" + where(rule.prov) + ")", question_of.at(&s)}};
                });
            }
        }
        // blocks
        std::map<id, std::vector<const detail::block_site*>> by_block;
        for (const detail::block_site& s : sym_.block_sites) by_block[s.block].push_back(&s);
        for (id b = 0; b < rs_.blocks.size(); ++b) {
            const ir::block& bl = rs_.blocks[b];
            auto it = by_block.find(b);
            if (it == by_block.end()) continue;  // in a procedure the sequence never calls
            // seen in play, under these options or (then it is no finding either way) others
            if (started(statements_run_, bl.node) || played_under_other_options(bl.node)) continue;
            bool reached = false, undecided = false;
            for (const auto* s : it->second) {
                const z3::check_result a = solve_local_first(s->facts, ctx_.bool_val(true));
                if (a == z3::sat) { reached = true; break; }
                undecided = undecided || a == z3::unknown;
            }
            if (reached) continue;
            if (undecided) {
                unknown("whether " + bl.word + " `" + bl.path + "` is ever reached", {{"block", bl.path, bl.prov}}, severity::warning);
                continue;
            }
            if (reachable_under_other_options(it->second.front()->node)) continue;
            finding& f = add("unreachable", severity::warning, bl.path,
                             bl.word + " `" + bl.path + "` is never reached: the circumstances around it can never hold");
            f.elements.push_back({"block", bl.path, bl.prov});
            f.proof = proof_kind::proved;
            if (played_) f.replay = "confirmed: none of " + std::to_string(played_) + " random games reached it either";
            because_at_sites(f, it->second, [](const detail::site&) { return std::vector<std::pair<std::string, z3::expr>>{}; });
        }
        // game ends
        std::map<std::string, std::vector<const detail::end_site*>> by_reason;
        for (const detail::end_site& s : sym_.end_sites) by_reason[s.reason].push_back(&s);
        for (const auto& [reason, sites] : by_reason) {
            if (ended_.count(reason)) continue;
            if (std::any_of(sites.begin(), sites.end(), [&](const auto* s) { return played_under_other_options(s->node); })) continue;
            bool reached = false, undecided = false;
            for (const auto* s : sites) {
                const z3::check_result a = solve_local_first(s->facts, ctx_.bool_val(true));
                if (a == z3::sat) { reached = true; break; }
                undecided = undecided || a == z3::unknown;
            }
            if (reached) continue;
            if (undecided) {
                unknown("whether the game can end with `" + reason + "`",
                        {{"statement", "end game " + reason, statement_prov(sites.front()->node)}}, severity::warning);
                continue;
            }
            bool elsewhere = false;
            for (const auto* s : sites) elsewhere = elsewhere || reachable_under_other_options(s->node);
            if (elsewhere) continue;
            finding& f = add("unreachable", severity::warning, reason, "the game can never end with `" + reason + "`");
            for (const auto* s : sites) f.elements.push_back({"statement", "end game " + reason, statement_prov(s->node)});
            f.proof = proof_kind::proved;
            if (played_) f.replay = "confirmed: none of " + std::to_string(played_) + " random games ended so either";
            because_at_sites(f, sites, [](const detail::site&) { return std::vector<std::pair<std::string, z3::expr>>{}; });
        }
    }

    ir::provenance statement_prov(id n) const {
        ir::provenance p;
        if (n != ir::no_id) {
            p.where = rs_.nodes.at(n).where;
            p.layer = rs_.nodes.at(n).layer;
        }
        return p;
    }

    template <class Site>
    void because_at_sites(finding& f, const std::vector<const Site*>& sites,
                          const std::function<std::vector<std::pair<std::string, z3::expr>>(const detail::site&)>& extra) {
        std::set<std::string> seen;
        std::size_t shown = 0;
        for (const Site* s : sites) {
            if (shown == 3) {
                f.because.push_back("… and " + std::to_string(sites.size() - shown) + " more places");
                break;
            }
            std::vector<std::string> core = explain(s->facts, extra(*s));
            std::string line = "at " + sym_.node_position(s->node) + ": ";
            for (std::size_t i = 0; i < core.size(); ++i) line += (i ? "; " : "") + core[i];
            if (core.empty()) line += "the circumstances there";
            if (seen.insert(line).second) {
                f.because.push_back(line);
                ++shown;
            }
        }
    }

    // ------------------------------------------------------------ tables

    void table_checks() {
        std::map<id, std::vector<const detail::table_site*>> by_table;
        for (const detail::table_site& s : sym_.table_sites) by_table[s.table].push_back(&s);
        for (id t = 0; t < rs_.tables.size(); ++t) {
            const ir::table& tb = rs_.tables[t];
            overlaps(tb, tb.rows.size(), [&](std::size_t i) { return tb.rows[i].key; }, "row");
            if (!tb.columns.empty()) overlaps(tb, tb.columns.size(), [&](std::size_t i) { return tb.columns[i]; }, "column");
            auto it = by_table.find(t);
            if (it == by_table.end()) continue;
            // gaps: a key that can occur and that no row (or column) covers
            bool gap = false;
            for (std::size_t k = 0; k < tb.keys.size() && k < 2 && !gap; ++k) {
                for (const detail::table_site* s : it->second) {
                    const z3::expr key = s->keys.at(k);
                    z3::expr_vector any(ctx_);
                    if (k == 0) for (const ir::table_row& r : tb.rows) any.push_back(detail::key_in(ctx_, r.key, key));
                    else for (const ir::key_range& c : tb.columns) any.push_back(detail::key_in(ctx_, c, key));
                    const z3::expr covered = any.empty() ? ctx_.bool_val(false) : z3::mk_or(any);
                    const bool odds = (k == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds;
                    const std::string label = "the " + std::string(k == 0 ? "row" : "column") +
                                              (odds ? " key (odds read as steps: 1-2 is -1, 1-1 is 0, 2-1 is 1)" : " key");
                    answer a = solve(s->facts, !covered, true, {{label, key}});
                    if (a.r == z3::unknown) { unknown("whether every key of " + tb.name + " is covered", {{"table", tb.name, tb.prov}}); break; }
                    if (a.r != z3::sat) continue;
                    finding& f = add("table-gap", severity::error, tb.name,
                                     "table `" + tb.name + "` has no " + (k == 0 ? "row" : "column") + " for a key that can occur");
                    f.elements.push_back({"table", tb.name, tb.prov});
                    f.elements.push_back({"statement", "use of " + tb.name, statement_prov(s->node)});
                    modifiers_of(tb, f);
                    f.witness = a.witness;
                    if (a.model) replay_later([this, s, k, m = *a.model] { return replay_.table_gap(*s, k, m); });
                    gap = true;
                    break;
                }
            }
            // A table that no play consults under these options but does under others (the
            // printing an option does not pick) has no dead cells: its cells are for those others.
            if (!rs_.options.empty()) {
                bool consulted = false;
                for (std::size_t i = 0; i < tb.rows.size() + tb.columns.size() && !consulted; ++i) consulted = played_key(t, i);
                for (const detail::table_site* s : it->second) {
                    if (consulted) break;
                    consulted = solve_local_first(s->facts, ctx_.bool_val(true)) != z3::unsat;
                }
                if (!consulted && reachable_under_other_options(it->second.front()->node)) continue;
            }
            // dead cells: a row (column) no key that can occur selects
            auto dead = [&](const ir::key_range& key, std::size_t k, std::size_t index, const std::string& what) {
                if (played_key(t, index)) return;
                for (const detail::table_site* s : it->second) {
                    if (solve_local_first(s->facts, detail::key_in(ctx_, key, s->keys.at(k))) != z3::unsat) return;
                }
                finding& f = add("dead-cell", severity::warning, tb.name + " " + key.text,
                                 what + " `" + key.text + "` of table `" + tb.name + "` can never be selected");
                f.elements.push_back({"table", tb.name, tb.prov});
                f.proof = proof_kind::proved;
                if (played_) f.replay = "confirmed: none of " + std::to_string(played_) + " random games read it either";
                because_at_sites(f, it->second, [&](const detail::site& s) {
                    const auto* ts = static_cast<const detail::table_site*>(&s);
                    return std::vector<std::pair<std::string, z3::expr>>{
                        {"the key falls in `" + key.text + "`", detail::key_in(ctx_, key, ts->keys.at(k))}};
                });
            };
            for (std::size_t i = 0; i < tb.rows.size(); ++i) dead(tb.rows[i].key, 0, i, "row");
            for (std::size_t i = 0; i < tb.columns.size(); ++i) dead(tb.columns[i], 1, tb.rows.size() + i, "column");
        }
    }

    void modifiers_of(const ir::table& tb, finding& f) {
        if (tb.keys.empty() || tb.keys[0].expr == ir::no_id) return;
        const ir::node& key = rs_.nodes.at(tb.keys[0].expr);
        if (key.code != ir::op::roll) return;
        const id g = sym_.group_of_target[static_cast<int>(ir::target_kind::roll)].at(key.ref);
        if (g == ir::no_id) return;
        for (id r : rs_.groups.at(g).rules)
            if (rs_.rules.at(r).kind == ir::rule_kind::modifier) f.elements.push_back(rule_elem(r));
    }

    void overlaps(const ir::table& tb, std::size_t count, const std::function<ir::key_range(std::size_t)>& key,
                  const std::string& what) {
        for (std::size_t i = 0; i < count; ++i)
            for (std::size_t j = i + 1; j < count; ++j) {
                const ir::key_range a = key(i), b = key(j);
                if (a.kind != b.kind) continue;
                bool meet = false;
                std::string common;
                if (a.kind == ir::key_range_kind::member) {
                    meet = a.lo == b.lo;
                    common = a.text;
                } else if (a.kind == ir::key_range_kind::odds) {
                    meet = detail::odds_step(a.lo, a.hi) == detail::odds_step(b.lo, b.hi);
                    common = a.text;
                } else {
                    const std::int64_t alo = a.open_lo ? INT64_MIN : a.lo, ahi = a.open_hi ? INT64_MAX : a.hi;
                    const std::int64_t blo = b.open_lo ? INT64_MIN : b.lo, bhi = b.open_hi ? INT64_MAX : b.hi;
                    meet = alo <= bhi && blo <= ahi;
                    const std::int64_t k = std::max(alo, blo) == INT64_MIN ? std::min(ahi, bhi) : std::max(alo, blo);
                    common = std::to_string(k);
                }
                if (!meet) continue;
                finding& f = add("table-overlap", severity::error, tb.name,
                                 what + "s `" + a.text + "` and `" + b.text + "` of table `" + tb.name + "` cover a common key");
                f.elements.push_back({"table", tb.name, tb.prov});
                if (what == "row") {
                    f.elements.push_back({"row", tb.rows[i].key.text, tb.rows[i].prov});
                    f.elements.push_back({"row", tb.rows[j].key.text, tb.rows[j].prov});
                }
                f.witness.push_back("the key " + common + " falls in both; the engine reads the first");
            }
    }

    // ------------------------------------------------------------ bounds, choices, examples

    // Whether the facts about the new value's variables alone keep it in the field's range, for
    // every place it may write (no question needed then).
    bool stays_in_range(const detail::bound_site& s) {
        const ir::type& t = rs_.types.at(s.type);
        if (t.kind != ir::type_kind::range) return false;
        const fact_index& ix = index_of(s.facts);
        for (const z3::expr& v : s.value) {
            detail::interval_bounds bounds;
            for (unsigned var : variables_of(v)) {
                auto it = ix.by_var.find(var);
                if (it == ix.by_var.end()) return false;
                for (unsigned c : it->second)
                    if (conjuncts_[c].vars.size() == 1) bounds.learn(conjuncts_[c].e);
            }
            const std::optional<detail::interval> x = bounds.of(v);
            if (!x || x->lo < t.lo || x->hi > t.hi) return false;
        }
        return true;
    }

    void bound_checks() {
        std::set<id> reported;
        for (const detail::bound_site& s : sym_.bound_sites) {
            if (reported.count(s.node)) continue;
            if (stays_in_range(s)) continue;
            // One question for every place the assignment may write. Its witness is made smallest
            // over all of them, so it shows the place that needs the fewest changes (seat P1
            // before P6), without a question per place.
            z3::expr_vector any(ctx_);
            for (const z3::expr& o : s.out) any.push_back(o);
            // A field whose violation the ruleset accepts is expected to have one: the quick tries,
            // which only ever prove "never", are skipped there.
            const bool accepted = accepted_bound(rs_.slots.at(s.slot).name);
            answer found = accepted ? solve(s.facts, z3::mk_or(any), true, {}, witness_search::near)
                                    : solve_local_first(s.facts, z3::mk_or(any), true);
            if (found.r == z3::unsat) continue;
            if (found.r == z3::sat && found.model) {
                // (the model holds the question, so one place is out of range in it)
                for (std::size_t k = 0; k < s.out.size(); ++k)
                    if (found.model->eval(s.out[k], true).is_true()) {
                        found.witness.insert(found.witness.begin(), value_line("the new value", s.value[k], *found.model));
                        report_bound(s, k, found);
                        reported.insert(s.node);
                        break;
                    }
            }
            if (reported.count(s.node)) continue;
            // Undecided over all of them: each place is asked alone.
            const ir::slot& sl = rs_.slots.at(s.slot);
            for (std::size_t k = 0; k < s.out.size(); ++k) {
                const std::vector<std::pair<std::string, z3::expr>> extra{{"the new value", s.value[k]}};
                answer a = solve(s.facts, s.out[k], true, extra, accepted ? witness_search::near : witness_search::all);
                if (a.r == z3::unknown) {
                    unknown("whether `" + sl.name + "` stays in range", {{"field", sl.name, sl.prov}});
                    break;
                }
                if (a.r != z3::sat) continue;
                report_bound(s, k, a);
                reported.insert(s.node);
                break;
            }
        }
    }

    void report_bound(const detail::bound_site& s, std::size_t k, const answer& a) {
        const ir::slot& sl = rs_.slots.at(s.slot);
        const ir::type& t = rs_.types.at(s.type);
        finding& f = add("bound-violation", severity::error, sl.name,
                         "this can take `" + sl.name + "` outside " + std::to_string(t.lo) + ".." + std::to_string(t.hi) +
                             ", and its type has no clamp");
        f.elements.push_back({"statement", "assignment to " + sl.name, statement_prov(s.node)});
        f.elements.push_back({"field", sl.name, sl.prov});
        f.witness = a.witness;
        if (a.model) replay_later([this, site = &s, k, m = *a.model] { return replay_.bound_violation(*site, k, m); });
    }

    bool accepted_bound(const std::string& field) const {
        return std::any_of(rs_.accepts.begin(), rs_.accepts.end(),
                           [&](const ir::accepted_finding& a) { return a.kind == "bound-violation" && a.subject == field; });
    }

    void choice_checks() {
        std::set<id> reported;
        for (const detail::choice_site& s : sym_.choice_sites) {
            if (reported.count(s.node)) continue;
            answer a = solve(s.facts, s.none_legal, true);
            if (a.r == z3::unknown) { unknown("whether the choice at " + sym_.node_position(s.node) + " always has an option", {}); continue; }
            if (a.r != z3::sat) continue;
            finding& f = add("stuck-state", severity::error, owner_of(s.node),
                             "a mandatory choice can face no legal option: the game cannot go on");
            f.elements.push_back({"statement", "choose", statement_prov(s.node)});
            f.witness = a.witness;
            if (a.model) replay_later([this, site = &s, m = *a.model] { return replay_.stuck_choice(*site, m); });
            reported.insert(s.node);
        }
    }

    // The innermost block (or procedure, action, rule) whose text holds node n.
    std::string owner_of(id n) const {
        const ir::source_pos& w = rs_.nodes.at(n).where;
        std::string best;
        std::uint32_t best_line = 0;
        auto consider = [&](const std::string& name, const ir::provenance& p) {
            if (p.where.file == w.file && p.where.line <= w.line && p.where.line >= best_line &&
                (p.where.end_line == 0 || p.where.end_line >= w.line)) {
                best = name;
                best_line = p.where.line;
            }
        };
        for (const ir::procedure& p : rs_.procedures) consider(p.name, p.prov);
        for (const ir::action& a : rs_.actions) consider(a.name, a.prov);
        for (const ir::rule& r : rs_.rules) consider(r.name, r.prov);
        for (const ir::block& b : rs_.blocks) consider(b.path, b.prov);
        return best.empty() ? "sequence" : best;
    }

    void example_checks() {
        for (const detail::example_run& x : sym_.examples) {
            const ir::rule& rule = rs_.rules.at(x.rule);
            answer can = solve(x.facts, ctx_.bool_val(true), false);
            if (can.r == z3::unsat) {
                finding& f = add("example-failure", severity::error, rule.name,
                                 "example `" + rule.name + "`: the situation it gives cannot happen under the rules");
                f.elements.push_back({"example", rule.name, rule.prov});
                f.proof = proof_kind::proved;
                continue;
            }
            // the numbers shown join the question (as v == v), so that slicing keeps what defines them
            z3::expr target = !x.expect;
            for (const auto& [label, v] : x.shown) target = target && v == v;
            answer a = solve(x.facts, target, true, x.shown);
            if (a.r == z3::unknown) { unknown("example `" + rule.name + "`", {{"example", rule.name, rule.prov}}); continue; }
            if (a.r != z3::sat) continue;
            finding& f = add("example-failure", severity::error, rule.name,
                             "example `" + rule.name + "`: the rules do not produce the outcome it states");
            f.elements.push_back({"example", rule.name, rule.prov});
            f.witness = a.witness;
            if (a.model) replay_later([this, run = &x, m = *a.model] { return replay_.example_fails(*run, m); });
        }
    }

    const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    bool sequence_stopped_ = false;  // the budget ran out in the symbolic execution
    detail::z3_settings settings_;  // before the context and its solvers
    z3::context ctx_;
    detail::watchdog dog_{ctx_};  // declared after the context it interrupts, destroyed before it
    const ir::ruleset& rs_;
    const check_options& opt_;
    check_result& out_;
    symbolic sym_;
    detail::witness_replay replay_{sym_};
    std::vector<std::pair<std::size_t, std::function<std::string()>>> replays_;  // by finding
    std::unordered_map<unsigned, std::size_t> index_;  // the variables by term id
    std::vector<unsigned> mark_;  // constants(): the walk it last marked each term id in
    unsigned epoch_ = 0;
    std::set<id> dead_;
    std::string kind_;
    std::vector<std::string> stage_of_;  // per finding: the check that made it
    std::vector<std::size_t> ranks_;     // per finding: its stage's place in the report
    std::size_t dumped_ = 0;
    std::vector<conjunct> conjuncts_;
    std::unordered_map<unsigned, unsigned> conjunct_index_;  // by Z3 AST id
    std::unordered_map<const detail::fact_node*, std::vector<unsigned>> fact_conjuncts_;
    std::vector<fact_list> keep_alive_;
    fact_index last_index_;  // holds Z3 terms: declared after the context, so destroyed before it
    std::set<std::string> fired_, ended_;  // seen in random play
    std::unique_ptr<symbolic> free_;       // the sequence with every option free
    std::uint64_t played_ = 0;
    std::vector<std::uint8_t> statements_run_, keys_read_;  // seen in random play (sim_report)
    std::vector<std::uint32_t> table_key_first_;
    std::vector<std::uint8_t> run_elsewhere_;  // statements run in play under other option values
    bool played_elsewhere_ = false;
    std::map<std::vector<unsigned>, z3::check_result> group_sat_;
    std::unordered_set<const detail::fact_node*> known_sat_;  // paths whose facts are satisfiable
    bool debug_ = std::getenv("WP_CHECK_DEBUG") != nullptr;
    // WP_CHECK_DEBUG: time inside the solver in the current stage, and per kind of query
    double solver_ms_ = 0;
    std::string purpose_ = "other";
    std::map<std::string, std::pair<std::size_t, double>> by_purpose_;
    // the variables standing for cut subterms (the unfolding budget), by term id, with what
    std::size_t approx_scanned_ = 0;
    std::map<unsigned, std::string> approx_;
};

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
std::pair<check_options, std::optional<check_options>> split(const check_options& options) {
    static const std::vector<std::string> others{"decisions", "examples", "tables", "choices", "reach"};
    auto wanted = [&](const std::string& k) { return options.checks.empty() || options.checks.count(k) > 0; };
    if (!wanted("bounds") || std::none_of(others.begin(), others.end(), wanted)) return {options, std::nullopt};
    check_options rest = options, bounds = options;
    rest.checks.clear();
    for (const std::string& k : others)
        if (wanted(k)) rest.checks.insert(k);
    bounds.checks = {"bounds"};
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
}

}  // namespace

check_result check(const ir::ruleset& rs, const check_options& options) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto [first, second] = split(options);
    part_result main, bounds, obligations;
    // the checks other than the bounds, then the errata's obligations (their own solvers)
    auto main_part = [&, opts = first] {
        run_part(rs, opts, main);
        if (!options.checks.empty() && !options.checks.count("obligations")) return;
        const auto t1 = std::chrono::steady_clock::now();
        detail::errata_obligations(rs, options, obligations.out);
        if (auto it = obligations.out.stats.find("obligations"); it != obligations.out.stats.end())
            it->second.milliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
        obligations.ranks.assign(obligations.out.findings.size(), std::numeric_limits<std::size_t>::max());  // last
    };
    const unsigned jobs = options.jobs ? options.jobs : std::thread::hardware_concurrency();
    if (second && jobs > 1) {
        std::exception_ptr failed;
        std::thread worker([&, opts = *second] {
            try {
                run_part(rs, opts, bounds);
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
        if (second) run_part(rs, *second, bounds);
    }
    if (second) merge(main, std::move(bounds));
    merge(main, std::move(obligations));
    std::vector<std::size_t> order(main.out.findings.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return main.ranks[a] < main.ranks[b]; });
    check_result out = std::move(main.out);
    std::vector<finding> sorted;
    for (std::size_t i : order) sorted.push_back(std::move(out.findings[i]));
    out.findings = std::move(sorted);
    out.only = options.checks;
    detail::apply_accepts(rs, out);
    out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}  // namespace wp::verify
