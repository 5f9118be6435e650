// The checker of one part of a check: the checks of DESIGN.md §5 over the symbolic game, each a
// set of Z3 queries whose satisfying models become witnesses and whose unsatisfiable cores become
// "why never". Declared here, defined by concept: checker.cpp (the run, limits, findings),
// slicing.cpp (asking), witnesses.cpp, and one check_*.cpp per kind of check.
#pragma once

#include "westphalia/verify/check.hpp"

#include "generalize.hpp"
#include "id_marks.hpp"
#include "intervals.hpp"
#include "large_groups.hpp"
#include "query_key.hpp"
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
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace wp::verify {

using detail::fact;
using detail::fact_list;
using detail::symbolic;
using detail::variable;
using ir::id;

// WP_CHECK_DEBUG: prints where a slow check goes (a table's, a field's bound) when it ends.
struct slow_check_timer {
    bool on;
    std::string what;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    ~slow_check_timer() {
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (on && ms > 200) std::fprintf(stderr, "  %s: %.0f ms\n", what.c_str(), ms);
    }
};

// The § anchors of an element, as the report prints them.
std::string anchors_text(const ir::provenance& p);

class checker {
public:
    checker(const ir::ruleset& rs, const check_options& opt, check_result& out)
        : rs_(rs), opt_(opt), out_(out), sym_(ctx_, rs, players_for(rs, opt)) {
        sym_.unfold_limit = unfold_limit_for(rs, opt);
        sym_.unroll_depth = unroll_depth_for(rs, opt);
        sim_games_ = sim_games_for(rs, opt);
        sim_games_cap_ = sim_games_cap_for(rs, opt);
        rlimit_ = rlimit_for(rs, opt);
        sym_.prove_invariants = opt.prove_invariants;
        sym_.record_queries = wanted("queries");
        out_.players_checked = sym_.lay.players;
        // One number of players: it is a constant in every question (see players_pin_).
        if (std::max<std::int64_t>(1, rs.min_players) == sym_.lay.players) {
            players_pin_ = sym_.n_players == ctx_.int_val(sym_.lay.players);
            players_id_ = sym_.n_players.id();
        }
        for (std::size_t i = 0; i < sym_.variables.size(); ++i) index_[sym_.variables[i].var.id()] = i;
        for (id r = 0; r < rs.rules.size(); ++r)
            if (rs.rules[r].kind == ir::rule_kind::invariant && opt.unassumed_invariants.count(rs.rules[r].name))
                sym_.unassumed.insert(r);
    }

    // Whether check `k` was asked for (check_options::checks; all when empty).
    bool wanted(const char* k) const { return opt_.checks.empty() || opt_.checks.count(k) > 0; }

    void run();

    // Per finding, in the order found: its stage's place in the report (after run).
    const std::vector<std::size_t>& ranks() const { return ranks_; }

private:
    static int players_for(const ir::ruleset& rs, const check_options& opt);

    void timed(const std::string& kind, const std::function<void()>& f);

    // ------------------------------------------------------------ solving

    // How hard a witness is made small. `all`: the fewest values away from their usual ones,
    // every value of the question free. `quick`: as `all` over many values, with at most
    // take_back_questions spent taking back the values given up and no descent to the fewest
    // after: for a witness that rests on the summary of play (it fails nothing by default) or
    // whose fault a game already met. `accepted`: not searched at all, for a finding the
    // ruleset accepts: the designers have seen one already, and the report says the finding
    // still happens without showing it again (on Wallenstein's full stack its accepted stuck
    // choices' and obligations' witnesses took 49 of the choices' 109 s). The replay still
    // runs on the solver's model. `played`: for a table's gap that a game of the checker's
    // random play met, as `all` over at most exact_witness_limit values, else not searched:
    // that game, replayed from setup, is the witness the finding carries (its trace), and the
    // gap's key is shown from the solver's model (on Contractor Cards' `--upto base` the two
    // gaps' searches, over 460 and 781 values, took 8.9 of the tables' 10.3 s).
    enum class witness_search { all, quick, accepted, played };

    struct answer {
        z3::check_result r = z3::unknown;
        std::vector<std::string> witness;
        std::vector<std::string> because;
        std::optional<z3::model> model;  // the witness's (when shown)
        bool approximated = false;       // the witness rests on what the encoding approximates
    };

    void dump(z3::solver& s);

    // Milliseconds left of the whole check's budget (--max-time); unlimited without one.
    double budget_left_ms() const;
    // The moment the budget (--max-time) runs out, for the symbolic execution and the evidence
    // games to look at; none without a budget.
    std::optional<std::chrono::steady_clock::time_point> budget_deadline() const;

    // Whether the budget is spent: then a question is not even prepared (its slice of the facts
    // costs time too), and its answer is `unknown`.
    bool spent();

    // Every query goes through here: the per-query limit (--timeout), shortened to what is left
    // of the budget; past the budget nothing more is asked and every answer is `unknown`.
    template <class Solver, class... Assumptions>
    z3::check_result ask(Solver& s, const Assumptions&... assumptions) {
        if (spent()) {
            --out_.stats[kind_].queries;  // counted by the caller, never asked
            return z3::unknown;
        }
        // The proof cache: a question proved before is not asked again (only plain questions:
        // one with assumptions wants its unsat core, an optimisation its model).
        std::optional<std::string> key;
        if constexpr (std::is_same_v<Solver, z3::solver> && sizeof...(Assumptions) == 0) {
            if (opt_.proved_before && !hinted_) {
                key = detail::query_key(s.assertions());
                if (key && opt_.proved_before->count(*key)) {
                    ++out_.cache_hits;
                    out_.proved.insert(*key);
                    return z3::unsat;
                }
            }
        }
        const double timeout_ms = opt_.timeout_ms * timeout_factor_;
        const unsigned ms = static_cast<unsigned>(std::min<double>(timeout_ms, budget_left_ms()));
        const auto t0 = std::chrono::steady_clock::now();
        z3::check_result r = dog_.check(s, assumptions..., ms);
        // A model that reads a map search wrongly (symbolic::map_search) is refined with the
        // search's answer at its endpoints, and asked again; until it reads every one right.
        bool refined = false;  // lemmas about the map's searches were added to the question
        for (int round = 0; r == z3::sat && !sym_.searches.empty(); ++round) {
            const std::vector<z3::expr> lemmas = sym_.refine(s.get_model());
            if (lemmas.empty()) break;
            if (round == max_refinements || spent()) {
                r = z3::unknown;
                break;
            }
            for (const z3::expr& l : lemmas) s.add(l);
            search_lemmas_ += lemmas.size();
            refined = true;
            r = dog_.check(s, assumptions..., ms);
        }
        if (debug_) {
            const double took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            solver_ms_ += took;
            auto& b = by_purpose_[purpose_ + (r == z3::sat ? " sat" : r == z3::unsat ? " unsat" : " unknown")];
            b.first += 1;
            b.second += took;
        }
        if (r == z3::unknown && ms < timeout_ms && budget_left_ms() < 1.0)
            out_.out_of_time = true;  // cut short by the budget, not by its own limit
        // Only a proof of the question as asked is kept. One that needed the searches' lemmas
        // rests on the map's data, which the question's key does not describe (a search's value
        // is a plain variable in it): an errata to the map would find the key unchanged.
        if (key && r == z3::unsat && !refined) out_.proved.insert(*key);
        return r;
    }

    // Rounds of refinement a question may take before it is `unknown`; lemmas made.
    static constexpr int max_refinements = 200;
    std::uint64_t search_lemmas_ = 0;

    // The resource limit of a quick neighbourhood try (solve_local_first).
    static constexpr unsigned quick_rlimit = 2000000;
    // The resource limit of the try on the last frame's facts (solve_local_first).
    static constexpr unsigned frame_rlimit = 10000000;
    // The resource limit of each value's question in element_split_proof.
    static constexpr unsigned split_rlimit = 2000000;
    // The resource limit of each question of first_sat_of's first round: most places answer well
    // within it, and one that does not waits for the second round.
    static constexpr unsigned round_rlimit = 8000000;
    unsigned rlimit_cap_ = 0;  // while set, no question's resource limit is above it

    // Whether the question holds at one of n places (`ask_at(i)` asks the i-th): sat at the
    // first that holds, unsat if none does, unknown if none holds and one is undecided. With
    // several places, a first round caps each question at round_rlimit, and only the places it
    // leaves undecided are asked again in full: one hard place no longer holds up an easy one
    // (GMT's Hungary no-op questions: a first place out of its limit after 28 s, the second
    // sat at once). With `stop_when_undecided`, the second round ends at its first place
    // undecided in full (an invariant undecided there is not proved whatever the others say).
    z3::check_result first_sat_of(std::size_t n, const std::function<z3::check_result(std::size_t)>& ask_at,
                                  bool stop_when_undecided = false);
    // The same, each place asked once in full, in order. Past the budget the places left are one
    // question not asked (unknown), not one per place.
    z3::check_result any_place_sat(std::size_t n, const std::function<z3::check_result(std::size_t)>& ask_at);

    // The resource limit of each question of a witness's descent to fewer changes (few_changes).
    static constexpr unsigned descent_rlimit = 2000000;
    // The limit of each take-back question of a quick witness search (few_changes, `quick`):
    // that witness fails nothing by default, so it is made small only where that is cheap.
    static constexpr unsigned quick_take_back_rlimit = 1000000;
    // The limit of each unsat-core question of a quick witness search (few_changes, `quick`).
    static constexpr unsigned quick_cores_rlimit = 8000000;

    // Time limits come from the watchdog (see watchdog.hpp), not Z3's own "timeout".
    void configure(z3::solver& s);

    // Where the number of players is fixed (GMT, SPI: two), the players variable is no link
    // between facts: every question holds the pin instead (configure), and variables_of leaves
    // the variable out, so the facts that read it (a seat's values, "players >= 2") fall into
    // small independent groups rather than one of thousands of facts a path (GMT's loss draw
    // and retreat questions: one group of 3,000 to 6,000 facts, undecided).
    std::optional<z3::expr> players_pin_;
    unsigned players_id_ = 0;

    // detail::one_shot_solver with the query limits; a large question's Boolean subterms named
    // while the questions with every option free are asked (free_options_question).
    z3::solver one_shot_solver();
    bool name_subterms_ = false;
    struct free_options_question {
        explicit free_options_question(checker& c) : c_(c), was_(c.name_subterms_) { c.name_subterms_ = true; }
        ~free_options_question() { c_.name_subterms_ = was_; }
        free_options_question(const free_options_question&) = delete;
        free_options_question& operator=(const free_options_question&) = delete;
        checker& c_;
        bool was_;
    };

    // ---- slicing: a query only needs the facts that share variables with its target; the
    // other facts fall into independent groups whose satisfiability is checked once and cached.

    struct conjunct {
        z3::expr e;
        std::vector<unsigned> vars;
    };

    void flatten(const z3::expr& e, std::vector<z3::expr>& out);

    std::vector<unsigned> variables_of(const z3::expr& e);

    const std::vector<unsigned>& conjuncts_of(const fact_list& node);

    // The conjuncts of one fact list and, per variable, those that name it: the questions about
    // one place come one after another (two quick tries, the question, its witness), so the
    // last list's are kept.
    struct fact_index {
        const detail::fact_node* head = nullptr;
        fact_list keep;
        std::vector<unsigned> all;
        std::unordered_map<unsigned, std::vector<unsigned>> by_var;
    };

    const fact_index& index_of(const fact_list& facts);

    // facts ∧ target split: the question (the target with every fact it shares a variable with,
    // through others) and the independent groups of the other facts, each sorted (none on a path
    // known satisfiable). facts ∧ target holds exactly when the question and every group do.
    struct sliced {
        z3::expr question;
        std::vector<std::vector<unsigned>> groups;
    };
    sliced slice(const fact_list& facts, const z3::expr& target);

    // Whether every group holds (each asked once, its answer kept): unsat as soon as one cannot,
    // unknown when one was not decided.
    z3::check_result groups_hold(const std::vector<std::vector<unsigned>>& groups);

    // Independent groups of at most this many facts are first asked together (slice).
    static constexpr std::size_t small_group = 50;
    // A group of more facts than this gets huge_group_rlimit_factor times the resource limit:
    // Z3 counts the simplification of its thousands of facts against the limit before the search
    // starts. GMT's path groups of 4,000-7,000 facts were undecided at 40 M and 80 M and hold at
    // 160 M in 23-37 s, about what each undecided try took (docs/performance.md).
    static constexpr std::size_t huge_group = 1000;
    static constexpr unsigned huge_group_rlimit_factor = 4;
    // The clock's backstop (--timeout) grows with the limit, so that the resource count, not the
    // machine, decides such a group: at the default 60 s, one of GMT's held in 49 s in two runs
    // and was cut off at 60 s in a third (docs/performance.md, twenty-third session).
    double timeout_factor_ = 1;

    // A satisfiable question's model, kept as hints: the next questions are mostly asked along
    // the same paths, and their facts mostly over the same variables.
    void remember(const z3::model& m);

    // Whether these facts and the target hold with every variable fixed at a value it had in a
    // model found before (`preferred`'s first, then the hints), but for the target's own, those
    // of the facts the fixed values make false, and those up to `max_radius` facts away from
    // them: quick tries, radius 0 first, each bounded
    // like the neighbourhood tries. True is a proof that they hold (the model found is one of
    // the question without the fixed values too); false says nothing. Only for questions whose
    // model is not shown (a hinted model is far from the usual values a witness keeps).
    using values = std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>>;
    bool holds_near_hints(const std::vector<unsigned>& conjuncts, const z3::expr& target,
                          const std::unordered_map<unsigned, std::vector<unsigned>>* by_var, int max_radius,
                          const values& preferred);
    // The independent groups of these facts (no two share a variable), each sorted.
    std::vector<std::vector<unsigned>> groups_of(const fact_index& ix);
    // The values of a model of the facts of these groups, where one is known: the models of the
    // groups found to hold (together one model of the facts, as they share no variable).
    values path_values(const std::vector<std::vector<unsigned>>& groups);
    // The values, over the variables of by_var, of the model of the large group found to hold
    // that shares the most facts with this one (none when no large group has held).
    values nearest_group_values(const std::vector<unsigned>& group, const std::unordered_map<unsigned, std::vector<unsigned>>& by_var);
    // WP_CHECK_NO_HINTS: no such try (to measure what they change, docs/performance.md)
    bool no_hints_ = std::getenv("WP_CHECK_NO_HINTS") != nullptr;

    // The facts of this path and so of every shorter one hold together: their independent groups
    // need no question of their own any more (most questions are asked along the same paths).
    void mark_satisfiable(const fact_list& facts);

    // The facts within `radius` steps of the target's variables (two facts are a step apart
    // when they share a variable), with the target.
    z3::expr neighbourhood(const fact_list& facts, const z3::expr& target, int radius);
    // The facts since the last loop round's start (fact_node::frame), where the invariants were
    // assumed, with every older fact over no variable but theirs and the target's (the ranges
    // of the values the round did not forget); nothing when the path has no such start.
    std::optional<z3::expr> last_frame(const fact_list& facts, const z3::expr& target);
    // A proof of "never" from the last frame's facts alone, bounded by frame_rlimit: the
    // invariants assumed at a loop round's start often decide what the round does (the cubes a
    // player holds add up to 62), and the facts of every earlier round and of the phase's start,
    // each of which assumed the invariants again, only make the question longer. Asked of a
    // bound question whose quick tries ran out of their resources, before the whole question,
    // and of every invariant's obligation in the induction, before its quick try; false says
    // nothing. (Tried on stuck choices and unmet obligations too: Wallenstein's
    // undecided ones stayed undecided, and others became so.)
    bool frame_proof(const fact_list& facts, const z3::expr& target);
    // The same question split by the piece or seat the round works on: a loop over many
    // (Wallenstein's 45 county cards) reads each field and place through an `ite` over them,
    // which the solver may not get past as one question, while with the piece fixed each folds
    // away. Asked once per value of the newest picked piece in `q` (a loop's element, a pile's
    // top card or a choice), each in its own one-shot solver capped at split_rlimit (incremental
    // solving lacks the preprocessing that makes each case easy); true when every one is
    // unsatisfiable. Of an invariant's obligation whose frame try ran out.
    // Or by the term most often compared with numbers in q (compared_terms), when it is
    // compared with more numbers than the piece is: each number, then every other value.
    bool element_split_proof(const z3::expr& q);
    static std::unordered_map<unsigned, std::pair<z3::expr, std::set<std::int64_t>>> compared_terms(const z3::expr& q);
    // Whether q is unsatisfiable in each case (each one-shot, capped at split_rlimit).
    bool split_cases(const z3::expr& q, const std::vector<z3::expr>& cases);

    // A quick proof of "never" from the target's top levels alone (generalize.hpp), tried on a
    // target of more than general_threshold subterms before anything else: the facts are not
    // read, and the subterms below general_depth are any values. Each target is tried once
    // (solve_local_first, then solve).
    bool general_proof(const z3::expr& target);
    static constexpr std::size_t general_threshold = 2000;
    static constexpr unsigned general_depth = 12;
    static constexpr std::size_t general_budget = 1000;
    unsigned general_counter_ = 0;
    // WP_CHECK_NO_GENERAL: none tried (to measure what they change, docs/performance.md)
    bool no_general_ = std::getenv("WP_CHECK_NO_GENERAL") != nullptr;
    // dead branches and no-op effects off, to measure what they cost (docs/checker.md)
    bool no_branches_ = std::getenv("WP_CHECK_NO_BRANCHES") != nullptr;
    // WP_CHECK_NO_OBLIGATIONS=1: no unmet-obligation questions (to measure what they cost)
    bool no_obligations_ = std::getenv("WP_CHECK_NO_OBLIGATIONS") != nullptr;

    // Satisfiability, trying a small neighbourhood of the facts first: when that is already
    // unsatisfiable, so is the whole (a quick proof of "never"). With `show`, as solve().
    answer solve_local_first(const fact_list& facts, const z3::expr& target, bool show,
                             const std::vector<std::pair<std::string, z3::expr>>& extra = {},
                             witness_search search = witness_search::all);
    z3::check_result solve_local_first(const fact_list& facts, const z3::expr& target);

    // Does a model found before, freed near the target, hold facts ∧ target (docs/checker.md,
    // step 15)? Kept as each group's model of the path when it does.
    bool holds_at_path_hints(const fact_list& facts, const z3::expr& target);
    // On a path already known satisfiable, does the path imply the target? Asked of the facts two
    // steps from the negated target, capped at quick_rlimit; true when they cannot hold with it
    // negated, so the path's own models hold the target (a no-op effect's change inside the `if`
    // that tested the old value). False says nothing.
    bool implied_on_known_path(const fact_list& facts, const z3::expr& target);
    bool hints_tried_ = false;  // solve_local_first tried them already: solve() does not again

    // Is facts ∧ target satisfiable? With `show`: the smallest witness found, as lines (the
    // values of `extra` first), searched as `search` says.
    answer solve(const fact_list& facts, const z3::expr& target, bool show,
                 const std::vector<std::pair<std::string, z3::expr>>& extra = {}, witness_search search = witness_search::all);

    // Unsatisfiable: which of the labelled facts (and extra labelled conditions) it needs.
    std::vector<std::string> explain(const fact_list& facts, const std::vector<std::pair<std::string, z3::expr>>& extra);

    // The uninterpreted constants of e, each once, in the order a depth-first walk meets them.
    // Walked through Z3's C API, each subterm marked by its id: the questions' terms are big and
    // share most of their subterms, and the C++ wrappers' reference counting made this walk a
    // fifth of the bounds' time.
    std::vector<z3::expr> constants(const z3::expr& e);

    static std::string value_line(const std::string& text, const z3::expr& e, z3::model& m);

    // Past this many pieces away from their starting zones, a witness lists them by zone, one
    // line each.
    static constexpr std::size_t witness_piece_lines = 12;
    // Leaves in m the model the witness shows.
    std::vector<std::string> witness(const z3::expr& q, z3::model& m, const std::vector<std::pair<std::string, z3::expr>>& extra,
                                     const std::set<unsigned>& near, witness_search search);

    // After the search for fewest changes: the fewest players the witness can have, keeping
    // every value it keeps at its usual one. The changes search counts a player count as
    // changed or not, not how far: a short deal shown with 5 players where 2 already run short
    // (docs/checker.md, "How", step 5).
    void fewest_players(const z3::expr& q, const std::vector<z3::expr>& all, const std::vector<z3::expr>& shown_vars,
                        const std::vector<z3::expr>& usual, z3::model& m);

    // For a question the solver could not decide in one piece: all of q's values assumed at
    // their usual (initial) ones, then those of each unsat core given up, at most usual_rounds
    // questions of usual_round_rlimit each (together 0.4 of the default limit of one question). sat
    // with its model; unsat when a core holds no usual value (q cannot hold at all); else
    // unknown (a round not answered, or the rounds run out).
    std::pair<z3::check_result, std::optional<z3::model>> near_usual(const z3::expr& q);
    static constexpr int usual_rounds = 8;
    static constexpr unsigned usual_round_rlimit = 2000000;
    static constexpr std::size_t usual_values_limit = 3000;  // a larger question is not asked so
    // That a value is at its usual (initial) one: a flag false, a number at its preferred value.
    z3::expr usual_value(const detail::variable& var) {
        return var.var.is_bool() ? !var.var : var.var == ctx_.int_val(var.preferred);
    }
    // Adds to s, for each of `usual`, a fresh flag that implies it; returns the flags and, by
    // flag id, the index into `usual` (to read unsat cores of checks assuming the flags).
    std::pair<std::vector<z3::expr>, std::unordered_map<unsigned, std::size_t>> assume_usual(z3::solver& s, const std::vector<z3::expr>& usual);

    // A model of q with as many of `usual` holding as it can find (all but the fewest with
    // Z3's optimizer, up to exact_witness_limit of them; else few_changes). Leaves m as it was
    // when a question is not answered.
    void fewest_changes(const z3::expr& q, const std::vector<z3::expr>& usual, z3::model& m, bool quick = false);

    // Above this many values to keep at their usual value, Z3's optimizer takes longer than
    // few_changes (on Contractor Cards: 50 ms at 62-70 values, 0.6 and 1.0 s at 183 and 195,
    // where few_changes takes 0.1-0.3 s).
    static constexpr std::size_t exact_witness_limit = 100;
    // What an accepted finding shows in place of its witness (witness_search::accepted).
    static constexpr const char* accepted_witness_line =
        "not searched for: the ruleset accepts this finding (without the accept, the check shows one)";
    // What a table gap that play met shows in place of the rest of its witness (`played`).
    static constexpr const char* played_witness_line =
        "the rest not searched for: a game of the checker's random play met a gap of this table (the trace from setup below)";
    // The questions a quick few_changes spends taking back the values it gave up (by halves).
    static constexpr std::size_t take_back_questions = 32;

    // A small witness by unsat cores: every value is assumed at its usual one; while that cannot
    // hold, the values of the core are given up; then those given up are taken back where they
    // can be. That keeps every value it can one at a time, not always the fewest changes: then
    // fewer changes than its model has are asked for until that cannot be, and the last model
    // has the fewest. A few dozen questions.
    // Leaves m as it was when a question is not answered.
    void few_changes(const z3::expr& q, const std::vector<z3::expr>& usual, z3::model& m, bool quick = false);

    // ------------------------------------------------------------ findings

    involved rule_elem(id r) const;

    std::string where(const ir::provenance& p) const;

    // The replay of the finding added last, run once every question is answered: replaying
    // evaluates the witness's model, which makes Z3 terms, and terms made between questions
    // move the later questions' term ids, so their witnesses and their time.
    void replay_later(std::function<std::string()> replay) { replays_.emplace_back(out_.findings.size() - 1, std::move(replay)); }

    finding& add(const std::string& kind, severity level, const std::string& subject, const std::string& message);

    // The question the undecided one would have answered as a finding, for `accept`s.
    struct asked_finding {
        std::string kind, subject, side;
    };
    void unknown(const std::string& what, const std::vector<involved>& elems, severity level = severity::error,
                 const asked_finding& asked = {});

    // ------------------------------------------------------------ domain checks

    // The rules of one group over a free state and free target arguments.
    void domain_checks();

    const std::vector<ir::local>* target_params(const ir::rule_group& gr) const;

    std::size_t target_param_count(const ir::rule_group& gr) const;

    std::string target_name(const ir::rule_group& gr) const;

    // Whether a beats b through override edges (transitively).
    bool beats(const ir::rule_group& gr, id a, id b) const;

    // Whether rule r's condition can hold for some other values of the options: sat, unsat, or
    // unknown when the question was not decided (never taken as either).
    z3::check_result applies_under_other_options(id r, const std::vector<z3::expr>& args, const detail::store& st,
                                                 const fact_list& facts);

    // Whether random play under other option values ran statement (or block) `node`.
    bool played_under_other_options(id node);

    // The sequence explored again with every option free (once, when first needed), within the
    // budget (--max-time). False when the budget ran out before or during it: the question that
    // needed it is not asked (counted so), and its caller reports it `unknown`; a part-explored
    // sequence is never read (a use it did not reach would look like none).
    bool explore_free_options();

    // Whether rule r applies somewhere the sequence uses it under other option values: fired in
    // play under them, or else asked of the sequence with every option free; unknown when
    // undecided (never taken as either answer).
    z3::check_result applies_in_play_under_other_options(id r);

    // A rule with no site under the chosen options, where ways an option closes were not run:
    // whether the sequence uses it under other values, and whether it then applies.
    bool only_in_skipped_ways(id node);
    enum class used_elsewhere { never_used, never_applies, applies, undecided };
    used_elsewhere rule_used_under_other_options(id r);

    // Whether random play under other option values fired rule `name`: a rule for another
    // scenario or printing is not dead, and needs no question under these options.
    bool fired_under_other_options(const std::string& name);

    // Whether a site unreachable under the chosen options is reachable under others: seen in
    // play under them, or else the sequence is explored again with every option free. An
    // undecided question is `unknown`, never taken as either answer.
    z3::check_result reachable_under_other_options(id node);
    // Whether a way out of an `if` or `may` (branch_site) is taken under another option value.
    z3::check_result branch_taken_under_other_options(id branch, bool taken);
    void branch_checks();
    void effect_checks();
    // Whether statement n holds a phase, step or turn, or an `end game` (within it, not its calls).
    bool holds_block_or_end(id n) const;
    bool ends_lasting_event(id n) const;  // the compiler's expiry of a lasting card event

    void group_checks(id g, const detail::store& st, const fact_list& base);

    // The reasons of the `end game` statements in a body.
    std::set<std::string> end_reasons(id body) const;

    static std::string joined(const std::set<std::string>& words);

    // ------------------------------------------------------------ reachability

    // Random games under each other value of each option, one option at a time (a tenth of the
    // games per value, at the fewest and the most players): what they run is reachable under
    // other options and needs no proof of it.
    void play_other_options();

    // Seeded random games of `rs` with coverage, or nothing when the engine cannot set the game
    // up for this many players. The games check the invariants after each decision and inside
    // each step, where the questions assume them (engine::sim_options::check_in_steps). A game
    // stopped by an engine error, a table with no row for a key say, reached every state before it.
    // They stop at `deadline`, or else at the check's budget.
    static engine::sim_options evidence_options(int players, std::uint64_t games, std::uint64_t seed);
    std::optional<engine::sim_report> evidence_games(const ir::ruleset& rs, int players, std::uint64_t games,
                                                     std::uint64_t seed = 1,
                                                     std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt) const;
    // Before the dead branches and no-op effects are asked: more of the same random games, in
    // batches, while some way or assignment they would ask about is not yet shown by a game and
    // the last batch showed one (check_options::default_sim_games_cap).
    void play_for_ways();
    // The invariants these games broke that the questions assume, each the first time: findings
    // of their own (played_invariant_findings), and the run again without them.
    void note_broken_invariants(const engine::sim_report& r, int players);
    // Whether these games are evidence for the questions: none broke an invariant they assume
    // (a state that breaks one lies outside the domain they are asked over).
    bool evidence_usable(const engine::sim_report& r) const;
    // The invariants the random play broke, with the first game of each (by rule name): each an
    // `invariant-violation` error, and no longer assumed (check()'s next round).
    struct played_violation {
        int players = 0;
        engine::sim_invariant broken;
        std::uint64_t games = 0;  // played at that player count
    };
    std::map<std::string, played_violation> played_violations_;
    void played_invariant_findings();

    // Random games through the engine: a rule that fires, a statement that starts, a table key
    // read or a game end that happens there is reached and needs no proof.
    void play_evidence();
    // Keeps the faults of the rules these games met (check_result::faults), the first game each.
    void note_faults(const engine::sim_report& r, int players);
    // A game of the random play in words, with the command that plays it again.
    std::string game_trace(int players, const engine::sim_message& first) const;
    // What a witness at site s shows of play until a game meets it (checks.cpp's label_reach).
    static reach_kind reach_of(const detail::site& s) {
        return s.from_setup ? reach_kind::setup_path : reach_kind::not_shown;
    }
    // How hard to make the witness of a finding of `kind` about `subject` at site s small: the
    // quick search where its path rests on the summary of play (it fails nothing by default) or
    // a game of the random play met such a fault already (the finding carries that game);
    // else the full one. Only the witness's size depends on it, never a verdict.
    witness_search search_for(const std::string& kind, const std::string& subject, const detail::site& s) const {
        if (!s.from_setup) return witness_search::quick;
        const bool met = std::any_of(out_.faults.begin(), out_.faults.end(),
                                     [&](const fault_met& m) { return m.kind == kind && m.subject == subject; });
        return met ? witness_search::quick : witness_search::all;
    }
    // How the witness of a gap of table `name` is searched for: not at all where the ruleset
    // accepts it; `played` where a game met a gap of the table (checks.cpp's `met` gives the
    // finding that game as its trace); else fully.
    witness_search table_gap_search(const std::string& name, bool accepted) const {
        if (accepted) return witness_search::accepted;
        const bool met = std::any_of(out_.faults.begin(), out_.faults.end(),
                                     [&](const fault_met& m) { return m.kind == "table-gap" && m.subject == name; });
        return met ? witness_search::played : witness_search::all;
    }

    // Whether random play (its statements run) started statement n: for a block or a list, its
    // first statement (the engine runs those inline).
    bool started(const std::vector<std::uint8_t>& ran, id n) const;

    // Whether random play read key i (a row, then the columns) of table t.
    bool played_key(id t, std::size_t i) const;
    // The same, in play under other option values (a row only another scenario reads).
    bool played_key_under_other_options(id t, std::size_t i);
    // Whether some use of table t reads its key `index` (a row, then the columns; k: 0 for a
    // row, 1 for a column) under some values of the options, as the solver says.
    z3::check_result key_read_under_other_options(const ir::table& tb, id t, std::size_t k, std::size_t index);

    // Rules that apply nowhere the sequence consults them; blocks and game ends never reached.
    void reach_checks();

    // The designer's queries (check_queries.cpp): random play's games from setup first, then the
    // symbolic execution's places.
    void query_checks();
    // The first game of random play that answered a query (by rule name), and its player count.
    struct played_answer {
        int players = 0;
        engine::sim_message first;
    };
    std::map<std::string, played_answer> query_played_;
    std::uint64_t query_games_ = 0;  // the random games that evaluated the queries (the extra ones too)

    ir::provenance statement_prov(id n) const;

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

    void table_checks();
    // A gap of table tb that a game of the random play met at one of its sites: reported from
    // that game, with no question (false when no game met one there).
    bool played_table_gap(const ir::table& tb, const std::vector<const detail::table_site*>& sites);
    // Two printings of one table (`printing of`) compared cell by cell (check_printings.cpp):
    // fixed data, no solver, so it runs even when the sequence's exploration stops.
    void printing_checks();

    void modifiers_of(const ir::table& tb, finding& f);

    // Whether the table's rows (k == 0) or columns (k == 1) cover every key in the key's
    // interval at the site (no gap there, and no question asked), and whether row (column) i
    // lies wholly outside it (never read there).
    bool interval_covered(const ir::table& tb, std::size_t k, const detail::table_site& s);
    bool outside_interval(const ir::table& tb, std::size_t k, std::size_t i, const detail::table_site& s);

    void overlaps(const ir::table& tb, std::size_t count, const std::function<ir::key_range(std::size_t)>& key,
                  const std::string& what);

    // ------------------------------------------------------------ bounds, choices, examples

    // Whether the facts about the new value's variables alone keep it in the field's range, for
    // every place it may write (no question needed then).
    bool stays_in_range(const detail::bound_site& s);
    // The interval of a term from the facts over its variables alone (x <= 5, x == 3, or a part
    // of the term compared with a number), when they bound it on both sides: a proof with no
    // solver question.
    // `where`: also the facts read where `where` holds, an equation `x == k` of a variable and
    // a number (the place an assignment writes when its chosen location x is k): a disjunction
    // on x (a choice's "a legal option is chosen", over its options) gives the parts of the one
    // option that does not name another value of x.
    std::optional<detail::interval> interval_of(const fact_list& facts, const z3::expr& term,
                                                const std::optional<z3::expr>& where = std::nullopt);

    void bound_checks();

    // Which side of the field's range the question asks about.
    enum class range_side { either, above, below };
    // Asks whether the assignment at s can leave its field's range on that side (at any place
    // it may write), and reports it: sat when it did, unsat when it cannot, unknown when that
    // was not decided (not reported: the caller says so, once for the statement). An accepted
    // field's question is expected to hold: it skips the quick tries, and its witness is
    // searched near the model.
    z3::check_result ask_bound(const detail::bound_site& s, range_side side, bool accepted);
    // Both sides' questions of site s as its field's accepts call for; the side left
    // undecided, if any (sat or unsat: a finding reported, or none).
    z3::check_result bound_site_checked(const detail::bound_site& s, range_side& undecided);

    void report_bound(const detail::bound_site& s, std::size_t k, const answer& a);

    // How the ruleset accepts a bound violation of `field`: none, on either side (an accept
    // that names no side), or on one side only (`accept bound-violation "gold" above …`).
    std::optional<range_side> accepted_bound(const std::string& field) const;

    void choice_checks();
    // Statements play must carry out, met where they cannot be (check_unmet.cpp).
    void obligation_checks();

    // The innermost block (or procedure, action, rule) whose text holds node n.
    std::string owner_of(id n) const;

    void example_checks();
    void chances_checks();  // check_examples.cpp: every cell of a `chances` grid followed by the engine

    // ------------------------------------------------------------ invariants (check_invariants.cpp)

    void invariant_checks();

    const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    bool sequence_stopped_ = false;  // the budget ran out in the symbolic execution
    detail::z3_settings settings_;  // before the context and its solvers
    z3::context ctx_;
    detail::watchdog dog_{ctx_};  // declared after the context it interrupts, destroyed before it
    const ir::ruleset& rs_;
    const check_options& opt_;
    std::uint64_t sim_games_ = check_options::default_sim_games;  // random games per player count (sim_games_for)
    std::uint64_t sim_games_cap_ = check_options::default_sim_games_cap;  // and at most, in batches (sim_games_cap_for)
    unsigned rlimit_ = check_options::default_rlimit;  // each question's resource limit, 0: none (rlimit_for)
    // A quick try's resource limit: `cap`, or the question's own limit where that is lower.
    unsigned capped_rlimit(unsigned cap) const { return rlimit_ ? std::min(rlimit_, cap) : cap; }
    // Gives solver s the resource limit capped_rlimit(cap).
    void limit(z3::solver& s, unsigned cap);
    check_result& out_;
    symbolic sym_;
    detail::witness_replay replay_{sym_};
    std::vector<std::pair<std::size_t, std::function<std::string()>>> replays_;  // by finding
    std::unordered_map<unsigned, std::size_t> index_;  // the variables by term id
    detail::id_marks walked_;      // constants(): the term ids its walk has seen
    detail::id_marks mine_, learnt_;  // interval_of(): the term's variables, the facts it read
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
    std::optional<z3::expr> general_tried_;  // general_proof's last target (a Z3 term: after the context too)
    std::set<std::string> fired_, ended_;  // seen in random play
    std::unique_ptr<symbolic> free_;       // the sequence with every option free
    bool free_stopped_ = false;            // its exploration ran out of the budget
    std::uint64_t played_ = 0;
    std::vector<std::uint8_t> statements_run_, keys_read_;  // seen in random play (sim_report)
    std::vector<std::uint32_t> table_key_first_;
    std::vector<std::uint8_t> run_elsewhere_;  // statements run in play under other option values
    std::vector<std::uint8_t> keys_read_elsewhere_;  // table keys read there
    std::vector<std::uint32_t> table_key_first_elsewhere_;
    std::set<std::string> fired_elsewhere_;    // rules fired in play under other option values
    bool played_elsewhere_ = false;
    std::map<std::vector<unsigned>, z3::check_result> group_sat_;
    detail::large_groups large_groups_;  // those over small_group facts the solver decided or left undecided
    // per variable (by term id): the variable and its value in the last model that gave it one
    std::unordered_map<unsigned, std::pair<z3::expr, z3::expr>> hints_;
    std::map<std::vector<unsigned>, z3::model> group_model_;  // a model of each group found to hold
    std::optional<z3::model> last_hinted_;  // holds_near_hints' last model
    bool hinted_ = false;  // asking a hinted try: its answer is neither a proof to keep nor one to look up
    std::unordered_map<unsigned, z3::expr> variable_of_id_;  // the constants variables_of met
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

}  // namespace wp::verify
