// Counts heap allocations (every global operator new) made by this program, so the benchmark
// can report the engine's allocations per game and per decision.
#pragma once

#include <cstdint>

namespace wp::bench {

// Allocations since the program started (all threads).
std::uint64_t allocations();

}  // namespace wp::bench
