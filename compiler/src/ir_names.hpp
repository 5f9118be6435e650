// Spellings of the IR's enumerations, shared by the JSON form, the text dump and name_of().
// Private to wp_ir.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <array>
#include <optional>
#include <string_view>

namespace wp::ir::detail {

template <class E>
struct enum_names;

#define WP_IR_NAMES(E, ...)                                                      \
    template <>                                                                  \
    struct enum_names<E> {                                                       \
        static constexpr std::array<std::string_view, std::size(std::initializer_list<std::string_view>{__VA_ARGS__})> \
            names{__VA_ARGS__};                                                  \
    };

WP_IR_NAMES(layer_kind, "base", "exclusive", "errata", "options", "expansion")
WP_IR_NAMES(section_status, "encoded", "flavour", "missing-data", "pending")
WP_IR_NAMES(type_kind, "error", "void", "bool", "int", "range", "string", "enum", "record", "entity", "player",
            "zone", "node", "map", "list", "odds")
WP_IR_NAMES(overflow, "none", "clamp", "error")
WP_IR_NAMES(slot_scope, "global", "per-player", "per-entity", "per-node")
WP_IR_NAMES(visibility, "public", "hidden", "owner")
WP_IR_NAMES(map_kind, "areas", "hexgrid")
WP_IR_NAMES(key_source, "roll", "dice", "key")
WP_IR_NAMES(rounding, "none", "attacker", "defender")
WP_IR_NAMES(key_range_kind, "integer", "odds", "member")
WP_IR_NAMES(option_kind, "bool", "int", "named")
WP_IR_NAMES(element_kind, "none", "enum", "alias", "record", "slot", "entity-kind", "entity", "zone", "map", "roll",
            "derived", "decision", "action", "event", "procedure", "sequence", "table", "option", "missing", "rule")
WP_IR_NAMES(rule_kind, "modifier", "define", "forbid", "permit", "require", "trigger", "invariant", "example",
            "assert-always", "assert-never", "reachable", "chances")
WP_IR_NAMES(modifier_kind, "add", "set", "at-most", "at-least")
WP_IR_NAMES(target_kind, "none", "roll", "quantity", "decision", "action", "event")
WP_IR_NAMES(override_reason, "declared", "exception", "exclusive-layer", "event")
WP_IR_NAMES(event_duration, "once", "phase", "turn", "until-cancelled")
WP_IR_NAMES(errata_kind, "correction", "clarification", "addition")
WP_IR_NAMES(errata_op_kind, "replace", "refine", "except", "withdraw", "amend", "add", "replace-block",
            "insert-block")
WP_IR_NAMES(op, "absent", "const-int", "const-bool", "const-string", "const-member", "const-entity", "const-node",
            "dice", "local", "global", "player-field", "entity-field", "attribute", "record-field", "node-attribute",
            "zone", "index", "option", "type-members", "roll", "quantity", "decide", "lookup", "builtin", "neg",
            "not", "add", "sub", "mul", "div", "mod", "eq", "ne", "lt", "le", "gt", "ge", "in", "and", "or", "cond",
            "any", "all", "count", "sum", "min", "max", "seq", "block", "let", "assign", "add-assign", "sub-assign",
            "fix-roll", "if", "for-each", "repeat-until", "while", "shuffle", "draw", "deal", "move", "reshuffle",
            "choose-one", "choose-subset", "choose-order", "may", "do", "resolve", "emit", "call", "end-game",
            "range", "dice-count", "end-turn", "simultaneous", "reveal")
WP_IR_NAMES(builtin, "players", "active_player", "opponents", "count", "size", "top", "min", "max", "abs", "ceil_div",
            "floor_div", "odds", "adjacent", "distance", "neighbours", "edge_kind", "hexside", "terrain",
            "path_exists", "line_blocked", "path_length")

#undef WP_IR_NAMES

template <class E>
std::string_view spell(E e) {
    const auto i = static_cast<std::size_t>(e);
    const auto& names = enum_names<E>::names;
    return i < names.size() ? names[i] : std::string_view("?");
}

template <class E>
std::optional<E> parse_enum(std::string_view text) {
    const auto& names = enum_names<E>::names;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == text) return static_cast<E>(i);
    }
    return std::nullopt;
}

}  // namespace wp::ir::detail
