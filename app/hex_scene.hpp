// The hex map a player at the terminal is shown, read from a game state: which hexgrid map the
// current decision is about (its options are hexes, or pieces with a per-piece field holding a
// hex), every piece located by such a field, the terrains and hexside features.
#pragma once

#include "hex_view.hpp"

#include "westphalia/engine/engine.hpp"

#include <optional>

namespace wp::cli {

struct decision_scene {
    hex_scene scene;
    std::vector<std::size_t> focus;  // the hexes the options lead to, or where the option pieces are
};

// For a decision whose options are hexes of a hexgrid map, or pieces located on one; nullopt
// otherwise (a `may`, players, cards, a map of areas…).
std::optional<decision_scene> scene_for_decision(const engine::state& s);

// The ruleset's first hexgrid map with the pieces on it; nullopt when it has none.
std::optional<hex_scene> first_hex_scene(const engine::state& s);

}  // namespace wp::cli
