// value_cycles(): predicates, quantities, decisions and rolls that call themselves, directly or
// through each other. The engine, the translator and the checker evaluate these by unfolding
// calls, so such a cycle never ends; the compiler and the IR loader reject it.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace wp::ir {

// A definition evaluated by unfolding: a quantity or predicate, a decision or a roll.
struct value_def {
    enum class kind : std::uint8_t { quantity, decision, roll };
    kind k = kind::quantity;
    id index = no_id;
    bool operator==(const value_def&) const = default;
};

// One step of a cycle: `from` calls `to` at node `call` (in its value, or in a rule aimed at it).
struct value_call {
    value_def from, to;
    id call = no_id;
};

// The cycles, each as its calls in order (the last one calls back the first one's `from`); one
// cycle per set of definitions. Indices out of their tables are skipped, not followed.
std::vector<std::vector<value_call>> value_cycles(const ruleset& rs);

// "predicate `r`", "quantity `q`", "decision `d`", "roll `x`".
std::string describe(const ruleset& rs, value_def d);

}  // namespace wp::ir
