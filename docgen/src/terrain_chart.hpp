// The terrain effects chart of a map game, derived from the rules: for each terrain of a map
// (and each hexside feature), what every rule that tests for it does with it. "Woods: terrain
// cost 2 · closed to cavalry · blocking". The same derivation serves any map, hex or area.
#pragma once

#include "document.hpp"

#include "westphalia/ir/ir.hpp"

#include <map>
#include <string>
#include <vector>

namespace wp::docgen {

// One grid per terrain enum and per hexside-feature enum of the ruleset's maps that some rule
// tests (`terrain(h) == Woods`, `t == Ditch` of a decision's parameter, `River in hexside(a, b)`).
// Empty for a game without a map. `charted`, when given, receives each `define` rule the charts
// print whole (its value and every other condition), with the chart's name ("terrain effects
// chart"): the aid's entry for the decision need not repeat it.
std::vector<grid> terrain_charts(const ir::ruleset& rs, std::map<ir::id, std::string>* charted = nullptr);

}  // namespace wp::docgen
