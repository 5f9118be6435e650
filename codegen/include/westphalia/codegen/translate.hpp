// The compiled engine: a ruleset's IR translated into one self-contained C++ source file that
// plays it. The file holds the rules as plain functions over fixed arrays (no IR, no frames, no
// allocation while playing); a C++ compiler turns it into code that plays the same game as the
// interpreter (engine/) — the same seeds give the same games — many times faster.
//
// What the translation covers: everything the interpreter plays with sampled chance and random
// agents, except the constructs listed by `unsupported` below (maps and their built-ins,
// `choose subset`/`order`, odds tables, example-only statements). It does not count rule
// firings, check invariants or trace; the interpreter does those.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <stdexcept>
#include <string>

namespace wp::codegen {

// A construct the translation does not cover: what it is (what()), and where.
class unsupported : public std::runtime_error {
public:
    unsupported(const std::string& what, ir::source_pos where) : std::runtime_error(what), where(where) {}
    ir::source_pos where;  // in ruleset::files
};

struct translate_options {
    // The C++ namespace of the generated code (an identifier).
    std::string name_space = "wp_compiled";
};

// The C++ source, with the options the IR has selected (`--option` when compiling) fixed in it.
// Throws `unsupported` for a construct it does not translate.
//
// The generated file declares, in namespace `name_space`:
//   struct outcome { decisions, end_reason ("engine error", "decision limit" or the game's),
//                    error (the engine error's message), winners (bit per seat) };
//   class game_state { int players() const; std::int64_t value(slot, copy, key) const;
//                      const std::int32_t* zone(zone, copy, std::uint32_t* size) const; ... };
//   outcome play(game_state& s, int players, std::uint64_t seed, std::uint64_t agent_seed,
//                std::uint64_t max_decisions);
// `play` plays one game with the engine's random agents: the state's generator seeded with
// `seed`, the agents' with `agent_seed`, as engine::play_game and the simulator do.
std::string translate(const ir::ruleset& rs, const translate_options& options = {});

}  // namespace wp::codegen
