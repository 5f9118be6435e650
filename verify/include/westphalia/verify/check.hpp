// The checker: proves or refutes properties of a compiled ruleset with Z3 (DESIGN.md §5).
// Reads only the IR; the findings name rules by id and provenance, so any front end (the
// CLI's human, JSON and SARIF reports) can render them.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace wp::verify {

enum class severity : std::uint8_t { error, warning };

// One element a finding involves: a rule, table, decision, field, block or example.
struct involved {
    std::string role;  // "rule", "table", "decision", "field", "block", "example", "statement"
    std::string name;
    ir::provenance prov;
};

// How a finding was established.
enum class proof_kind : std::uint8_t {
    witness,  // a satisfying situation was found (shown in `witness`)
    proved,   // a "never" answer: unsatisfiable, with the reasons in `because`
    unknown,  // the solver gave up (timeout or resource limit): never a pass
};

// Whether play from setup is shown to reach what a finding says can happen (a bound
// violation, a table gap, a stuck choice, a decision's gap; a contradiction when a game met it).
enum class reach_kind : std::uint8_t {
    none,        // not a claim about play (a table's rows, an unused rule), or not judged
    trace,       // a game the engine played from setup meets it (finding::trace says which)
    setup_path,  // the witness's path runs from setup with nothing forgotten on the way
    not_shown,   // the witness rests on the checker's summary of play (a loop or a phase's start
                 // forgot the history) and no game met it: it fails nothing unless
                 // check_options::strict_reach
};

struct finding {
    std::string kind;  // contradiction, ambiguity, gap, table-gap, table-overlap, dead-rule,
                       // dead-cell, bound-violation, example-failure, unreachable, stuck-state,
                       // errata-obligation, unknown
    severity level = severity::error;
    std::string subject;  // what the finding is about, by name ("wins", "campaign_outcome 9+")
    std::string message;  // one line, for a designer
    std::vector<involved> elements;  // the first is where the report points
    proof_kind proof = proof_kind::witness;
    std::vector<std::string> witness;  // "P1 reputation = -3", "campaign_roll dice = 1"
    std::vector<std::string> because;  // for proved findings: the unsat core in rule terms
    std::string replay;                // what the engine computed in the witness's state (no game)
    reach_kind reach = reach_kind::none;
    std::string trace;                 // reach trace: the game from setup that meets it
    bool accepted = false;             // accepted in the ruleset (`accept`), with a reason
    std::string accepted_reason;
    std::string side;  // a bound-violation's side of the field's range: "above" or "below"
    // An `unknown`'s question as the finding it would give, when it names one (kind and
    // subject; a bound's side in `side`, empty for both): an `accept` of that finding covers
    // the undecided question too, whichever way it would have gone (docs/checker.md).
    std::string asked_kind, asked_subject;
    // The same finding (kind, subject, message, the other elements, verdict) at other places:
    // one cause, reported once (the field's range, at the 13 rows of a table that raise it).
    std::vector<ir::provenance> also;
};

struct check_options {
    // The limit of one query is Z3's resource count, not the clock: the same answers on any
    // machine at any load, so an `accept` does not go stale because CI was busy. (The clock
    // made the same check report different findings from one run to the next.) The clock limit
    // is a backstop above it; a query that runs out of either is an `unknown` finding.
    // About 2 s of one core on the wargames' hard questions with `smt.arith.solver=2` (those
    // Wallenstein leaves undecided: 1.9-2.8 s, 2026-12-05); 5-12 s on them with Z3's default (6).
    static constexpr unsigned default_rlimit = 40000000;
    unsigned timeout_ms = 60000;  // per query
    // Z3 resource limit per query (0: none). Unset: the manifest's `resource limit`, else
    // default_rlimit (rlimit_for).
    std::optional<unsigned> rlimit;
    // The whole check's time budget in seconds (0: none). Past it no further query is asked:
    // each question left is an `unknown` finding, so a check that runs out never passes.
    double max_seconds = 0;
    // The caller exits right after the check: the solver's memory is left to the operating
    // system instead of being freed term by term (minutes for a big ruleset).
    bool exit_after = false;
    // The checks to run, by name (empty: all): decisions, examples, tables, bounds, choices,
    // reach (which runs the decisions' too), invariants, queries, obligations. Examples alone need no exploration of
    // the sequence, so they are quick on any ruleset.
    std::set<std::string> checks;
    // Threads (0: one per core). The check runs as two parts with solvers of their own, the
    // bounds and the rest, the same whatever this is: so is the report.
    unsigned jobs = 0;
    unsigned threads() const { return jobs ? jobs : std::max(1u, std::thread::hardware_concurrency()); }
    std::string dump_smt_dir;     // when set, every query is written there as an SMT-LIB file
    int max_players = 0;          // 0: the ruleset's maximum, at most 6 (the symbolic state's size)
    // Random games played through the engine at each player count before the reachability
    // proofs: what they reach needs no proof (0: prove everything). Unset: the manifest's
    // `evidence games`, else default_sim_games.
    std::optional<std::uint64_t> sim_games;
    static constexpr std::uint64_t default_sim_games = 100;
    // With the default number (neither --evidence-games nor the manifest's `evidence games` sets
    // it), play goes on before the dead branches and no-op effects are asked, in batches of
    // default_sim_games, while some way out of an `if` or `may`, or some assignment's change,
    // that they would ask about is not yet shown by a game and the last batch showed one: up to
    // this many games per player count. A long game's rare ways (GMT's retreats and sieges) need more games than a card
    // game's, and each question a game answers costs seconds. A fixed rule, so the report is the
    // same on any machine, but where the budget stops it (at most a fifth of what is left).
    static constexpr std::uint64_t default_sim_games_cap = 1000;
    // The random play before the questions has at most this share of the budget (max_seconds):
    // on a map of 2,025 hexes its 100 games took 299 s of a 300 s budget, and no question was asked.
    static constexpr double evidence_share = 0.2;
    // The encoder's unfolding budget per aggregate and per choice's options (instances: the set's
    // size times the instances of the body, nested aggregates multiplied): past it, the aggregate
    // is any value of its type and the report says so under `approximated:` (0: no limit).
    // Unset: the manifest's `unfold limit`, else default_unfold_limit (16384, above the largest
    // unfolding of Contractor Cards, 82 x 164).
    std::optional<std::uint64_t> unfold_limit;
    static constexpr std::uint64_t default_unfold_limit = 16384;
    // How many times a procedure, action, trigger or table that leads back to itself is unrolled;
    // deeper calls are summarised (checked once from any state of what they write). Unset: the
    // manifest's `unroll depth`, else 0.
    std::optional<int> unroll_depth;
    // Invariants (by rule name) not assumed anywhere: check() sets it when it runs the parts
    // again without the invariants a run could not prove (Houdini's iteration).
    std::set<std::string> unassumed_invariants;
    // The proof cache (`check --cache`): the keys of queries an earlier run found unsatisfiable
    // (detail::query_key, a SHA-256 of the query's structure). Such a query is answered
    // `unsat` without asking the solver: the same question has the same answer. Null: no cache,
    // and check_result::proved stays empty.
    std::shared_ptr<const std::unordered_set<std::string>> proved_before;
    // Called as each stage of a part starts (`play`, `explore`, `tables`, `bounds`, ...), from
    // the part's own thread: a terminal shows progress with it.
    std::function<void(const std::string& stage)> progress;
    // Prove the invariants by induction (every place they are assumed, every decision); without
    // it only the base case is checked (from setup, nothing forgotten) and the invariants are
    // assumed elsewhere, as the report says. `--checks invariants` sets it.
    bool prove_invariants = false;
    // Compiles the same ruleset up to and including the named layer (and the options layers
    // past it, whose options errata may read): with it, every errata
    // layer's obligations are checked against the stack before it (kind `errata-obligation`);
    // unset (an IR file as input) they are not.
    std::function<std::optional<ir::ruleset>(const std::string& layer)> compile_upto;
    // `check --compare LOWER UPPER`: the layers above LOWER, up to UPPER, are compared with the
    // stack up to LOWER, and each outcome of it they change without declaring it is an
    // `undeclared-change` warning (needs compile_upto; in the `obligations` checks).
    std::optional<std::pair<std::string, std::string>> compare;
    // Count the findings play is not shown to reach (reach_kind::not_shown) as errors and
    // warnings, as every other finding (`check --strict-reach`).
    bool strict_reach = false;
    // Whether this run plays the random games whose coverage and faults are evidence: the
    // second of check()'s two parts (the bounds) leaves them to the first.
    bool play_evidence = true;
};

// A fault of the rules one of the checker's random games met (an engine error of a kind a
// finding has): the first such game, by seed, as `westphalia play --players N --seed S` plays it.
struct fault_met {
    std::string kind, subject, side;  // engine_fault's
    ir::provenance at;                // the statement or expression where play met it
    int players = 0;
    std::uint64_t game = 0, seed = 0, games = 0;  // the first game (its index), its seed; how many games met it
    std::uint64_t played = 0;                     // the games played at that number of players
    std::string when;                             // "after decision 57"
    std::string trace;                            // the game in words, with the command that plays it
    std::string message;                          // the engine's error where that game stopped (empty: play went past)
};

// A designer's query (`assert always P`, `assert never P`, `reachable P`) and its answer. A query
// the rules fail (an assertion false in a game, a reachable property that never holds) is also an
// error finding, and one the check cannot answer an `unknown` finding; this is what the report's
// `queries:` list says of each.
struct query_answer {
    std::string name;
    std::string kind;     // "assert always", "assert never", "reachable"
    std::string verdict;  // "holds", "fails", "reached", "never", "unknown"
    std::string how;      // one line: the proof's grounds, the trace, or what was not decided
    ir::provenance prov;
};

// Per check kind: how many Z3 queries and how long they took.
struct kind_stats {
    std::uint64_t queries = 0;
    std::uint64_t skipped = 0;  // queries not asked: the time budget (--max-time) had run out
    double milliseconds = 0;
    int players_checked = 0;  // games of the ruleset's fewest players up to this many
};

struct check_result {
    std::vector<finding> findings;
    std::map<std::string, kind_stats> stats;  // by check name (decisions, tables, bounds, …)
    std::vector<std::string> approximations;  // what the encoding over-approximates, once each
    // The encoder's work (for --stats): aggregates cut by the unfolding budget, encodings shared
    // through its cache and encoded afresh, fresh variables.
    std::map<std::string, std::uint64_t> encoder;
    double milliseconds = 0;
    int players_checked = 0;  // games of the ruleset's fewest players up to this many
    // The time budget (check_options::max_seconds) ran out: the questions not asked are
    // `unknown` findings, counted per check under `skipped`.
    bool out_of_time = false;
    std::set<std::string> only;  // the checks run when not all were (check_options::checks)
    // The invariants (by rule name) the run assumed but could not prove: broken somewhere, or
    // undecided. check() runs again without them until none is left.
    std::set<std::string> unproved_invariants;
    // With check_options::proved_before: the keys of the queries this run found unsatisfiable or
    // took from the cache (what the cache keeps for the next run), and how many it took.
    std::set<std::string> proved;
    std::uint64_t cache_hits = 0;
    // Questions proved "never" from their top levels alone, before their facts were read.
    std::uint64_t general_proofs = 0;
    std::uint64_t hinted_answers = 0;  // questions shown to hold by a model found before (checker.md, step 15)
    // questions shown to hold by a path known to hold that implies them (checker.md, step 15)
    std::uint64_t implied_answers = 0;
    // Every query of the ruleset, in rule order, with its answer (the check `queries`).
    std::vector<query_answer> answers;
    // The faults the random games met, in the order met (what labels the findings' reach).
    std::vector<fault_met> faults;
    bool strict_reach = false;  // check_options::strict_reach: what error_count counts
};

// Runs every check on `rs` (options as selected in the IR).
check_result check(const ir::ruleset& rs, const check_options& options = {});

const char* name_of(severity s);
const char* name_of(proof_kind p);
const char* name_of(reach_kind k);

// Whether a finding counts among the errors and warnings: not accepted, and not (unless
// strict_reach) a finding play is not shown to reach.
bool counts(const check_result& r, const finding& f);
// The findings at error severity that count.
std::size_t error_count(const check_result& r);

// The budgets a check of `rs` runs with: the command line's (options), else the manifest's
// (`unfold limit N`, `unroll depth N`, `evidence games N`, `resource limit N`), else the defaults
// (16384, 0, 100 and default_rlimit).
std::uint64_t unfold_limit_for(const ir::ruleset& rs, const check_options& options);
int unroll_depth_for(const ir::ruleset& rs, const check_options& options);
std::uint64_t sim_games_for(const ir::ruleset& rs, const check_options& options);
// The most evidence games a player count gets: default_sim_games_cap when neither the command
// line nor the manifest sets their number, else that number (the batches stop there).
std::uint64_t sim_games_cap_for(const ir::ruleset& rs, const check_options& options);
unsigned rlimit_for(const ir::ruleset& rs, const check_options& options);

}  // namespace wp::verify
