// Games from setup that meet a finding (docs/checker.md, "Shown reachable"): the faults the
// checker's random games met, and play aimed at a bound violation no random game met.
#pragma once

#include "westphalia/engine/sim.hpp"
#include "westphalia/verify/check.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace wp::verify::detail {

// A game of the checker's play in words, with the command that plays it again (`agent`: the
// agents' name when not random).
std::string game_trace(const ir::ruleset& rs, int players, const engine::sim_message& first, const std::string& agent = "");

// Adds the faults of these games that `out` does not hold yet (check_result::faults).
void note_faults(const ir::ruleset& rs, const engine::sim_report& r, int players, const std::string& agent,
                 check_result& out);

// For each bound violation not shown reachable, games at the fewest and the most players checked
// with every seat played by the agent `toward:FIELD:SIDE` (options.sim_games each, at most 20 s
// an aim and within the deadline): the faults they meet join out.faults.
void aimed_play(const ir::ruleset& rs, const check_options& options,
                std::optional<std::chrono::steady_clock::time_point> deadline, check_result& out);

}  // namespace wp::verify::detail
