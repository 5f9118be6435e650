// Expressions prepared once per game for the evaluator: each IR expression node gets a
// compiled form (same index) whose operation is specialised by what the types and the layout
// already decide (a slot read becomes a fixed address, a zone aggregate reads the zone in
// place, a tabulated quantity a table index), so the evaluator reads no types, no slot
// scopes and no child lists at run time. Anything not specialised stays `generic` and goes
// through the IR interpreter.
#pragma once

#include "westphalia/engine/engine.hpp"

namespace wp::engine {

enum class xop : std::uint8_t {
    generic,       // the IR interpreter (eval_node)
    local,         // imm: local index
    constant,      // imm: the value (constants, options, fixed zones, named entities)
    value_at,      // imm: address in values_ (a global slot)
    player_value,  // a: player; imm: slot offset; x: width; flag: 1 = the address of a map
    entity_value,  // a: entity or map node; imm: slot offset; c: the kind's first instance (0 for nodes); x: width; flag as above
    attribute,     // a: entity instance; x: field
    index_value,   // a: a map (its address); b: key; x: key count (players, an entity kind's, or 1 << 30); imm: first key
    index_zone,    // a: a per-player zone (its first instance); b: player
    neg, not_, add, sub, mul, lt, le, gt, ge, and_, or_, cond,
    eq, ne,            // plain values
    eq_entity, ne_entity,  // a card named in the rules stands for all its copies
    in_zone,       // a: value; b: zone; flag: 1 = by entity
    zone_aggregate,  // a: zone; b: body; x: binder local; flag: the op (any ... max)
    zone_size,     // a: zone
    zone_top,      // a: zone
    same,          // a: evaluated as is (`count(n)` of an integer)
    table_quantity,  // a, b, c: up to three arguments (count in flag); x: quantity
    call,          // roll, quantity, decision, lookup: the interpreter's eval_call
};

// How a compiled node reads operand i (bits 3i .. 3i + 2 of compiled_node::leaf): by evaluating
// node a/b/c, or in place, the field then holding a local's index, a constant (32 bits,
// sign-extended), an address in values_, or for an entity attribute, a player's slot or a
// player's zone read through a local: the local's index in the low 8 bits and the field, the
// slot's address or the zone's first instance above them. Leaves are over half of all operands.
enum class xleaf : std::uint8_t {
    node = 0, local = 1, constant = 2, value = 3,
    local_attribute = 4,  // attribute (v >> 8) of the entity in local (v & 255)
    local_player_value = 5,  // values_[(v >> 8) + player in local (v & 255)] (a slot of width 1)
    local_player_zone = 6,   // zone instance (v >> 8) + player in local (v & 255)
};

// Fills g.code from the IR (again after the quantity tables are made: table_quantity needs them).
void compile_expressions(game& g);

}  // namespace wp::engine
