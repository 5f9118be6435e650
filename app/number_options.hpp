// Validators for the numbers given on the command line: CLI11 alone saturates 2^64, wraps -5
// and lets NaN through its ranges; these reject them with the flag named (exit 2).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace wp::cli {

// Decimal digits only (no sign, no blank), from `min` to `max`; `what` names the limit in the
// message ("the most games").
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max, const std::string& what = "");

// A finite number (not nan, not inf); combine with CLI::Range for the bounds.
CLI::Validator finite_number();

// A duration in seconds from `lo` to `hi`, finite, its default shown in --help: the solver's
// per-query --timeout and the whole check's --max-time (check, diff).
CLI::Option* add_seconds(CLI::App& command, const std::string& name, double& value, const std::string& help, double lo, double hi);

// The most games one run plays (`sim -n`, `diff --sim`): each game's outcome is kept until the
// report (about 120 bytes), so 10 million is about a gigabyte; more is a mistake, not a study.
inline constexpr std::uint64_t max_games = 10'000'000;

// Threads worth starting: more than this many per core only costs memory (and past the
// system's limit aborts); -j above it is lowered to it with a note.
inline constexpr unsigned threads_per_core_cap = 4;
unsigned thread_cap();

}  // namespace wp::cli
