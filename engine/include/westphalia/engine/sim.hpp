// Simulation: many seeded games of one ruleset on several threads, summarised (lengths, wins,
// end reasons, rule coverage, engine errors, invariant violations). The report depends only
// on the options, never on the number of threads: game i is seeded from (seed, i) alone and
// the results are merged in game order.
#pragma once

#include "westphalia/engine/engine.hpp"
#include "westphalia/engine/statistics.hpp"

#include <chrono>
#include <optional>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace wp::engine {

struct sim_options {
    std::uint64_t games = 1000;
    int players = 2;
    std::uint64_t seed = 1;
    unsigned threads = 1;                        // 0: one
    std::string agent = "random";                // every seat's agent, by name (make_agent)
    std::vector<std::string> seat_agents;        // per seat, overriding `agent` (empty: none)
    bool check_invariants = true;                // after every decision and at the end
    // With check_invariants: also inside a step, at each phase's start and each loop round's,
    // where the checker assumes them (state_options::check_in_steps; the interpreter only).
    bool check_in_steps = false;
    std::uint64_t max_decisions = 1'000'000;     // a game stops ("decision limit") beyond this
    std::map<std::string, std::string> options;  // name=value, as play_options::options
    std::size_t max_messages = 5;                // errors and violations quoted in the report
    bool coverage = false;                       // fill sim_report::statements_run and keys_read
    bool keep_outcomes = false;                  // fill sim_report::outcomes (balance reports)
    // Past this moment no game starts and a game in progress stops (end reason "deadline"): the
    // checker's evidence play keeps to its time budget (--max-time).
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // Called on the calling thread about ten times a second with (games finished, games).
    std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// The seed of game `index`: the index-th output of splitmix64 seeded with `seed`.
// `westphalia play --seed <it>` with the same agent plays the same game.
std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index);

struct sim_message {
    std::uint64_t game = 0;  // index, from 0
    std::uint64_t seed = 0;  // the game's seed
    std::string text;
};

struct sim_rule {
    std::string name;
    std::string kind;           // modifier, define, forbid, permit, require, trigger
    std::uint64_t fires = 0;    // in all games
    std::uint64_t games = 0;    // games in which it fired at least once
};

// What one game of a simulation leaves for its report.
struct sim_game {
    std::uint64_t decisions = 0;
    std::string end_reason;               // "decision limit" when stopped there
    std::vector<int> winners;
    std::string error;                    // an engine error's message; empty when none
    std::vector<std::string> violations;  // "name after decision N (...)", first of each invariant
    // The designer's queries this game answered (state::query_hits), the first time each: the
    // query's index among the queries in rule order, and the decisions made by then.
    std::vector<std::pair<std::uint32_t, std::uint64_t>> query_hits;
    engine_fault fault;                   // the error's kind of fault, when it is one
    // With sim_options::coverage: the faults the game met and went on past (state::faults_passed).
    std::vector<std::pair<engine_fault, std::uint64_t>> faults_passed;
};

// One of the designer's queries over a simulation's games (with the invariants' checking): how
// many games answered it (an `assert always` false, an `assert never` or a `reachable` true at
// some point), and the first such game.
struct sim_query {
    std::string name;
    std::string kind;        // "assert always", "assert never", "reachable"
    std::uint64_t games = 0;  // games that answered it
    std::optional<sim_message> first;  // game, seed, "after decision N"
};

// A fault of the rules (engine_fault) that stopped games, or with sim_options::coverage one they
// went on past (a short draw): how many games, and the first such game (its message is "after
// decision N").
struct sim_fault {
    engine_fault fault;
    std::uint64_t games = 0;
    sim_message first;
    std::string message;  // the engine's error where the first such game stopped; empty when play went past
};

// An invariant some games broke: how many, and the first such game (its message names the
// invariant and where it failed: "after decision N", or inside a step).
struct sim_invariant {
    std::string name;
    std::uint64_t games = 0;
    sim_message first;
};

struct sim_report {
    std::string ruleset;
    std::string with;                            // the expansions applied ("leaders, court"), or empty
    int players = 0;
    std::uint64_t seed = 0;
    std::string agent;                           // "random", or "P1 mcts:100, P2 random"
    bool invariants_checked = true;

    std::uint64_t games = 0;
    std::uint64_t engine_errors = 0;             // games stopped by an engine error
    std::vector<sim_message> first_errors;       // up to max_messages, in game order
    std::vector<sim_fault> faults;               // each distinct fault, in the order games first met it
    std::uint64_t invariant_violations = 0;      // (game, invariant) pairs violated
    std::vector<sim_message> first_violations;
    std::vector<sim_invariant> broken_invariants;  // each invariant broken, in the order games first broke it

    // Length in decisions, over the games without an engine error (`finished`).
    std::uint64_t finished = 0;
    double mean_decisions = 0;
    std::uint64_t min_decisions = 0, max_decisions = 0;
    std::map<int, std::uint64_t> decision_percentiles;  // 5, 25, 50, 75, 95 (nearest rank)

    // Win share per seat: each game's win is split equally among its winners (a tie between
    // two seats gives each 0.5), so the shares add up to the games with a winner.
    std::vector<double> wins;
    // Per seat, Wilson's interval for its win share over the finished games, at 95% for all the
    // seats together (Bonferroni: each at 1 - 0.05 / seats).
    std::vector<share_interval> win_intervals;
    std::uint64_t games_without_winner = 0;      // finished games with no winner
    std::map<std::string, std::uint64_t> end_reasons;  // errored games: "engine error"; sums to games

    std::vector<sim_rule> rules;                 // every rule that can fire, in ruleset order
    std::vector<std::string> never_fired;        // names of the rules with fires == 0
    std::vector<sim_query> queries;              // in rule order, when the invariants are checked

    // With sim_options::coverage, over all games (else empty): per ruleset::nodes, bit 1 when the
    // statement started in some game, bit 2 when an assignment changed what it wrote in one; per table key (game::table_key_first: a table's rows,
    // then its columns), 1 when some game read it.
    std::vector<std::uint8_t> statements_run;
    std::vector<std::uint8_t> keys_read;
    std::vector<std::uint32_t> table_key_first;

    // With sim_options::keep_outcomes, every game's outcome in game order (else empty).
    std::vector<sim_game> outcomes;
};


// The report of these games (games[i] is game first + i, seeded with game_seed(o.seed, first + i)),
// without the rules' firing counts and coverage (its callers add them): what `simulate` reports
// from its games, the compiled engine's simulation (codegen/) from its own, and the checker's from
// a range of games (simulate_range).
sim_report summarise(const ir::ruleset& rs, const sim_options& o, const std::vector<sim_game>& games, std::uint64_t first = 0);

// Adds the coverage `from` (sim_report::statements_run or keys_read) to `into`: 1 where either is.
void merge_coverage(std::vector<std::uint8_t>& into, const std::vector<std::uint8_t>& from);

// The agents' description in a report: the agent's name when every seat has it, else each
// seat's ("P1 mcts:100, P2 random").
std::string agents_text(const sim_options& o);

// A share of a simulation's games: those with index % ranks == rank (one process's share when
// the games are split across processes), their outcomes, and the rules' firing counts and
// coverage summed over them.
struct sim_part {
    std::vector<std::uint64_t> indices;             // the games played, ascending
    std::vector<sim_game> outcomes;                 // one per index
    std::vector<std::uint64_t> fires, fired_games;  // per ruleset::rules
    std::vector<std::uint8_t> ran, keys;            // sim_options::coverage
    std::vector<std::uint32_t> table_key_first;     // sim_options::coverage: game::table_key_first
};
sim_part simulate_part(const ir::ruleset& rs, const sim_options& o, std::uint64_t rank, std::uint64_t ranks);
// The games first .. first + count - 1 (o.games is not read): a part of a simulation that grows
// batch by batch (the checker's evidence play), merged with merge_parts once its size is known.
sim_part simulate_range(const ir::ruleset& rs, const sim_options& o, std::uint64_t first, std::uint64_t count);
// The report of parts that together played every game once: byte for byte the report of one
// process playing them all.
sim_report merge_parts(const ir::ruleset& rs, const sim_options& o, std::vector<sim_part> parts);

// Plays the games. Throws engine_error when the game cannot be set up (unknown option), and
// std::invalid_argument on an agent name make_agent does not know.
sim_report simulate(const ir::ruleset& rs, const sim_options& options);

}  // namespace wp::engine
