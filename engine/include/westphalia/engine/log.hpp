// Game logs: JSON lines. A header (schema "westphalia-log", version 1, the ruleset's name, path
// and IR fingerprint, players, seed, options, agents), one line per step (a decision: the seat,
// the action's index and text; a chance node: the outcome's index, value and text), then a
// footer (end reason, decisions, winners, every per-player state field of every player).
// A logged game replays from its log: every step is checked against the engine.
#pragma once

#include "westphalia/engine/engine.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wp::engine {

inline constexpr const char* log_schema = "westphalia-log";
inline constexpr int log_version = 1;

struct log_header {
    std::string ruleset_name;
    std::string ruleset_path;  // as given on the command line
    std::string fingerprint;   // of the IR: 16 hex digits
    std::string upto;          // --upto, empty for the whole stack
    std::vector<std::string> with;  // --with, the expansions selected (written only when some are)
    std::map<std::string, std::string> options;  // --option name=value
    int players = 2;
    std::uint64_t seed = 1;
    std::vector<std::string> agents;  // one per seat, or one for every seat
};

// FNV-1a 64 of the IR's JSON text.
std::string ir_fingerprint(const ir::ruleset& rs);

// Every per-player state field of `seat` in slot order: name -> value text (`a,b,c` for a map).
// `viewer` >= 0: as that seat sees them (another seat's hidden fields left out).
std::vector<std::pair<std::string, std::string>> player_fields(const state& s, int seat, int viewer = -1);

// A problem in a log: its line (1-based), message and kind (`log-json`, `log-schema` …).
struct log_error {
    std::size_t line = 0;
    std::string message;
    std::string kind;
};

struct logged_play {
    play_result result;
    std::string log;          // the whole log, footer included
    std::string stop;         // an agent_stop's message; empty when none
    bool stop_is_error = false;
    std::string save_to;      // the agent_stop's save_to: write `log` there
    int undo_seat = -1;       // the agent_stop's undo_seat (see log_before_last_decision)
    std::uint64_t resumed = 0;  // decisions played from play_options::resume
    // The trace the final state calls (silent during the resumed steps), kept alive with it.
    std::shared_ptr<std::function<void(const std::string&)>> trace_gate;
};

// Plays one game like play_game (same seed, same game), stopping at chance nodes to record
// each outcome, and writes its log.
logged_play play_logged(const ir::ruleset& rs, const log_header& header, const std::vector<agent*>& agents,
                        const play_options& options = {});

// The log (header and steps, no footer) up to, not including, the last decision `seat` made in
// it: what `play_options::resume` takes to ask that decision again (the human seat's undo).
// Empty when the seat made none.
std::string log_before_last_decision(const std::string& log, int seat);

// Reads the header (line 1) of a log.
std::optional<log_header> read_log_header(const std::string& text, log_error& error);

struct replay_result {
    play_result result;
    std::string relog;                 // the log written again from the replay
    std::optional<log_error> error;
};

// Replays a log over `rs` (built from its header), checking the fingerprint, that every step
// is legal and matches the engine, and the footer. `trace` receives the same lines as play.
// `viewer` >= 0 (`replay --as`): the account as that seat saw it: another seat's private decisions
// (in a simultaneous block before its reveal) as "P2 decides in secret", no change to another
// seat's hidden field or, before a reveal, to its per-player fields.
// `check_invariants`: as play_logged checks them (after each decision and inside each step, never
// at a chance node): each broken one told in the account where it is first seen ("invariant
// broken: …") and listed in result.invariant_violations.
replay_result replay_log(const std::string& text, const ir::ruleset& rs, const log_header& header,
                         const std::function<void(const std::string&)>* trace = nullptr, bool verbose = false,
                         int viewer = -1, bool check_invariants = false);

}  // namespace wp::engine
