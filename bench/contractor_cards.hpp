// Contractor Cards written by hand in C++: the benchmark's baseline. It follows the full stack
// of rulesets/contractor-cards (base + errata, every option at its default) and plays with the
// engine's random policy (a uniform pick among the legal options, the engine's generator and
// seeding), so that a seed plays the same game as `westphalia play --seed` with random agents.
#pragma once

#include <cstdint>

namespace wp::bench {

// Why a hand-written game stopped (the ruleset's `end_reason` members).
enum class hw_end : std::uint8_t { deck_empty, deck_empty_twice, peace_1648, decision_limit };

const char* hw_end_name(hw_end e);

inline constexpr int hw_max_players = 16;

struct hw_outcome {
    std::uint64_t decisions = 0;
    hw_end end = hw_end::decision_limit;
    int players = 0;
    int gold[hw_max_players] = {};
    int reputation[hw_max_players] = {};
    std::uint32_t winners = 0;  // bit p: seat p wins (a tie on gold and reputation shares the win)
};

// Plays one game of `players` (2..16) seated leaders seeded with `seed` (the engine's
// game_seed output for that game). Never allocates.
hw_outcome play_contractor_cards(std::uint64_t seed, int players, std::uint64_t max_decisions = 1'000'000);

}  // namespace wp::bench
