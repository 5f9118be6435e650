// Contractor Cards through the compiled engine: rulesets/contractor-cards (options at their
// defaults) translated to C++ by `westphalia translate` at build time (bench/CMakeLists.txt).
#pragma once

#include <cstdint>
#include <string>

namespace wp::bench {

inline constexpr int compiled_max_players = 16;

struct compiled_outcome {
    std::uint64_t decisions = 0;
    const char* end_reason = "";  // a member of end_reason, "decision limit" or "engine error"
    std::string error;
    std::uint32_t winners = 0;  // bit p: seat p wins
    std::int64_t gold[compiled_max_players] = {};
};

// One game with the engine's random agents: the state's generator seeded with `seed`, the
// agents' with `agent_seed` (as the simulator seeds them). `gold_slot` is the IR index of the
// per-player slot `gold`. Not thread-safe (one state, reused).
compiled_outcome play_compiled_contractor_cards(std::uint64_t seed, std::uint64_t agent_seed, int players,
                                                std::uint32_t gold_slot, std::uint64_t max_decisions = 1'000'000);

}  // namespace wp::bench
