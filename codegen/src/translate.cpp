// IR -> C++ (translate.hpp). Every element becomes a function: quantities, rolls, decisions,
// the rule groups' guards and amounts, actions (legality and body), events, procedures, tables
// and the main sequence. Statements become C++ statements; a decision or a chance draw is a
// call in place (the random agent and the generator are in the state), so nothing suspends and
// no frame is kept. The layout is the engine's (engine::game) for the ruleset's largest number
// of players; a game with fewer seats uses the first copies.
//
// The generated code follows the interpreter's order of evaluation wherever it can matter:
// chance draws happen in the same order (operands left to right, a roll's modifiers before its
// dice, a rule group's guards before its amounts), so a seed plays the same game.
//
// This file: the generated file as a whole (layout constants, data, the prelude, the elements'
// functions, start-up and `play`); the writer's other parts are named in writer.hpp.
#include "prelude.hpp"
#include "writer.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <sstream>

namespace wp::codegen {

std::string quoted(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (c == '\n') {
            o += "\\n";
            continue;
        }
        o += c;
    }
    return o + "\"";
}

std::string num(std::int64_t v) {
    if (v == std::numeric_limits<std::int64_t>::min()) return "(-9223372036854775807LL - 1)";
    return "i64(" + std::to_string(v) + "LL)";
}

std::vector<std::string> numbers(const std::vector<std::int64_t>& values) {
    std::vector<std::string> out;
    out.reserve(values.size());
    for (std::int64_t v : values)
        out.push_back(v == std::numeric_limits<std::int64_t>::min() ? num(v) : std::to_string(v));
    return out;
}

void write_array(std::ostream& out, const std::string& type, const std::string& name, const std::vector<std::string>& items,
                 const std::string& none) {
    out << "[[maybe_unused]] static const " << type << " " << name << "[] = {";
    for (std::size_t i = 0; i < items.size(); ++i) out << (i ? (i % 16 ? ", " : ",\n    ") : "") << items[i];
    if (items.empty()) out << none;
    out << "};\n";
}

std::string writer::run() {
    chance_node_.assign(rs_.nodes.size(), -1);
    chance_quantity_.assign(rs_.quantities.size(), -1);
    map_emitted_.assign(rs_.maps.size(), 0);
    table_arity_.assign(rs_.tables.size(), 0);
    for (id t = 0; t < rs_.tables.size(); ++t) {
        table_arity_[t] = rs_.tables[t].param_count;
        for (const ir::node& nd : rs_.nodes)
            if ((nd.code == op::resolve || nd.code == op::lookup) && nd.ref == t)
                table_arity_[t] = std::max<std::size_t>(table_arity_[t], nd.child_count);
    }

    // Elements, in IR order (prototypes make the order free).
    for (id gi = 0; gi < rs_.groups.size(); ++gi) {
        const std::size_t arity = group_arity(gi);
        for (id r : g_.live_rules[gi]) rule_functions(r, arity);
        if (rs_.groups[gi].target == ir::target_kind::roll || rs_.groups[gi].target == ir::target_kind::quantity) {
            modifier_function(gi);
            if (has_bounds(gi)) {
                const bool roll = rs_.groups[gi].target == ir::target_kind::roll;
                const std::string& name = roll ? rs_.rolls[rs_.groups[gi].target_id].name : rs_.quantities[rs_.groups[gi].target_id].name;
                bound_function(gi, std::string(roll ? "roll " : "quantity ") + name);
            }
        }
    }
    for (id q = 0; q < rs_.quantities.size(); ++q) quantity_function(q);
    for (id r = 0; r < rs_.rolls.size(); ++r) roll_function(r);
    for (id d = 0; d < rs_.decisions.size(); ++d) decision_function(d);
    for (id a = 0; a < rs_.actions.size(); ++a) action_functions(a);
    for (id e = 0; e < rs_.events.size(); ++e) event_function(e);
    for (id p = 0; p < rs_.procedures.size(); ++p) procedure_function(p);
    for (id t = 0; t < rs_.tables.size(); ++t) table_functions(t);
    // Invariants: each a predicate; check_invariants puts the generator back (a die in an
    // invariant draws nothing from the game's, as in the interpreter).
    std::vector<std::string> invariant_names;
    std::size_t query_count = 0;
    {
        std::string check = "    const rng saved = s.r;\n    const bool was_counting = s.count_fires;\n    s.count_fires = false;\n";
        for (id r = 0; r < rs_.rules.size(); ++r) {
            const ir::rule& rule = rs_.rules[r];
            if (rule.kind != ir::rule_kind::invariant || rule.value == ir::no_id) continue;
            if (invariant_names.size() == 64) refuse(rule.value, "more than 64 invariants");
            function("bool inv" + std::to_string(r) + "(S& s)",
                     "    " + locals(rule.locals.size(), 0) + "\n    return " + E(rule.value) + " != 0;\n");
            check += "    if (!inv" + std::to_string(r) + "(s)) broken(s, " + std::to_string(invariant_names.size()) + ");\n";
            invariant_names.push_back(rule.name);
        }
        // The designer's queries, where the invariants are checked: query k answered (an `assert
        // always` false, an `assert never` or `reachable` true) is recorded the first time.
        for (id r = 0; r < rs_.rules.size(); ++r) {
            const ir::rule& rule = rs_.rules[r];
            if (!ir::is_query(rule.kind) || rule.value == ir::no_id) continue;
            if (query_count == 64) refuse(rule.value, "more than 64 queries");
            function("bool query" + std::to_string(r) + "(S& s)",
                     "    " + locals(rule.locals.size(), 0) + "\n    return " + E(rule.value) + " != 0;\n");
            // a query answered already in this game is not evaluated again
            check += "    if (!(s.answered >> " + std::to_string(query_count) + " & 1) && " +
                     (rule.kind == ir::rule_kind::assert_always ? "!" : "") + "query" + std::to_string(r) + "(s)) answered(s, " +
                     std::to_string(query_count) + ");\n";
            ++query_count;
        }
        fns_ << "static void check_invariants([[maybe_unused]] S& s) {\n" << check << "    s.r = saved;\n    s.count_fires = was_counting;\n}\n\n";
    }
    const ir::sequence& seq = rs_.sequences[g_.main_sequence];
    {
        std::string body = "    " + locals(seq.locals.size(), 0) + "\n";
        in_sequence_ = true;
        statement(seq.body, body, 1);
        in_sequence_ = false;
        function("void play_sequence(S& s)", body);
    }

    // Layout and data.
    const auto instances = static_cast<std::uint32_t>(g_.instance_entity.size());
    const auto zones = static_cast<std::uint32_t>(g_.zone_instance_zone.size());
    std::ostringstream out;
    out << "// Generated by `westphalia translate` from ruleset " << rs_.name << " (" << rs_.title << ").\n"
        << "// The compiled engine: do not edit; translate the ruleset again instead.\n"
        << "#include <algorithm>\n#include <cstdint>\n#include <cstring>\n#include <limits>\n#include <stdexcept>\n#include <string>\n\n"
        << "namespace " << o_.name_space << " {\n\nusing i64 = std::int64_t;\n\n";
    out << "inline constexpr int WP_MAXP = " << g_.players() << ";\n"
        << "inline constexpr std::uint32_t WP_VALUES = " << std::max<std::uint32_t>(1, g_.value_count) << ";\n"
        << "inline constexpr std::uint32_t WP_CONTENTS = " << std::max<std::uint32_t>(1, g_.contents_size) << ";\n"
        << "inline constexpr i64 WP_ZONES = " << std::max<std::uint32_t>(1, zones) << ";\n"
        << "inline constexpr i64 WP_INSTANCES = " << instances << ";\n"
        << "inline constexpr std::uint32_t WP_LIST_CAP = 16384;\n"
        << "inline constexpr std::uint32_t WP_RULES = " << std::max<std::size_t>(1, rs_.rules.size()) << ";\n"
        << "inline constexpr std::uint32_t WP_STRIDE = " << std::max<std::uint32_t>(1, g_.attribute_stride) << ";\n";
    auto array = [&](const char* type, const char* name, std::size_t n, const std::function<std::int64_t(std::size_t)>& at) {
        std::vector<std::int64_t> v;
        for (std::size_t i = 0; i < n; ++i) v.push_back(at(i));
        write_array(out, type, name, numbers(v));
    };
    auto texts = [&](const char* name, const std::vector<std::string>& v) {
        std::vector<std::string> items;
        for (const std::string& t : v) items.push_back(quoted(t));
        write_array(out, "char* const", name, items, "nullptr");
    };
    array("std::uint32_t", "zone_offset", zones, [&](std::size_t i) { return g_.zone_capacity_offset[i]; });
    array("std::int32_t", "zone_kind", zones,
          [&](std::size_t i) { return static_cast<std::int64_t>(rs_.zones[g_.zone_instance_zone[i]].entity_kind); });
    array("std::int32_t", "instance_entity", instances, [&](std::size_t i) { return g_.instance_entity[i]; });
    array("std::int32_t", "instance_kind", instances,
          [&](std::size_t i) { return static_cast<std::int64_t>(rs_.entities[g_.instance_entity[i]].kind); });
    write_array(out, "i64", "instance_attributes", numbers(g_.instance_attributes));
    array("std::uint32_t", "zone_first_of", rs_.zones.size(), [&](std::size_t i) { return g_.zone_first[i]; });
    std::vector<std::string> instance_names, zone_names;
    for (std::uint32_t i = 0; i < instances; ++i) instance_names.push_back(g_.instance_text(i));
    for (std::uint32_t z = 0; z < zones; ++z) {
        const id zone = g_.zone_instance_zone[z];
        std::string name = rs_.zones[zone].name;
        name += ir::zone_instance_suffix(rs_, rs_.zones[zone], z - g_.zone_first[zone]);
        zone_names.push_back(name);
    }
    texts("instance_names", instance_names);
    texts("zone_names", zone_names);
    array("std::uint32_t", "slot_offset", rs_.slots.size(), [&](std::size_t i) { return g_.slots[i].offset; });
    array("std::uint32_t", "slot_width", rs_.slots.size(), [&](std::size_t i) { return g_.slots[i].width; });
    out << prelude;
    out << R"CPP(
[[gnu::always_inline]] inline i64 attr(const char* where, i64 inst, unsigned field) {
    if (inst < 0 || inst >= WP_INSTANCES) [[unlikely]]
        fail(where, "attribute of no entity");
    return instance_attributes[static_cast<std::size_t>(inst) * WP_STRIDE + field];
}

inline i64 odds_step(i64 a, i64 b, bool attacker) {
    if (a >= b) return (attacker ? (a + b - 1) / b : a / b) - 1;
    if (a == 0) return std::numeric_limits<i64>::min() / 4;
    return 1 - (attacker ? b / a : (b + a - 1) / a);
}

inline std::string odds_text(i64 step) {
    if (step == std::numeric_limits<i64>::min() / 4) return "0-1";
    return step >= 0 ? std::to_string(step + 1) + "-1" : "1-" + std::to_string(1 - step);
}

// odds(a, d): the attacker in the high 32 bits, the defender in the low 32 (both signed).
inline i64 odds_value(const char* where, i64 a, i64 d) {
    if (a < std::numeric_limits<std::int32_t>::min() || a > std::numeric_limits<std::int32_t>::max() ||
        d < std::numeric_limits<std::int32_t>::min() || d > std::numeric_limits<std::int32_t>::max())
        fail(where, "odds " + std::to_string(a) + ":" + std::to_string(d) + " are too large to read");
    return static_cast<i64>((static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(static_cast<std::int32_t>(d)));
}

[[gnu::always_inline]] inline i64 index_check(const char* where, i64 i, i64 n, const char* what) {
    if (i < 0 || i >= n) [[unlikely]]
        fail(where, what);
    return i;
}
)CPP";
    out << "\n" << consts_.str() << "\n" << protos_.str() << "\n" << fns_.str();

    // Storage at the start: the initial values, every card in the first zone of its kind.
    out << "static void set_up(S& s, int players) {\n";
    for (id sl = 0; sl < rs_.slots.size(); ++sl) {
        const std::int64_t init = g_.initial_value(sl);
        const std::uint32_t end = sl + 1 < rs_.slots.size() ? g_.slots[sl + 1].offset : g_.value_count;
        out << "    std::fill(s.v + " << g_.slots[sl].offset << ", s.v + " << end << ", " << num(init) << ");\n";
    }
    out << "    std::fill(s.c, s.c + WP_CONTENTS, -1);\n    std::fill(s.zs, s.zs + WP_ZONES, 0u);\n";
    for (id k = 0; k < rs_.entity_kinds.size(); ++k)
        for (id z = 0; z < rs_.zones.size(); ++z) {
            if (rs_.zones[z].entity_kind != k) continue;
            const std::uint32_t zi = g_.zone_first[z];
            out << "    for (std::uint32_t i = 0; i < " << g_.kind_count[k] << "; ++i) s.c[" << g_.zone_capacity_offset[zi]
                << " + s.zs[" << zi << "]++] = static_cast<std::int32_t>(" << g_.kind_first[k] << " + i);\n";
            break;
        }
    out << "    s.np = players;\n    s.decisions = 0;\n    s.done = s.limit = s.turn_ends = false;\n    s.end_at = 0;\n"
        << "    s.end_reason = s.pending_end = \"\";\n    s.active = s.pending_player = -1;\n"
        << "    s.broken = 0;\n    s.broken_count = 0;\n    s.answered = 0;\n    s.answered_count = 0;\n    s.list_top = 0;\n    s.reached_decision = false;\n"
        << "    if (s.count_fires) {\n        std::fill(s.fires, s.fires + WP_RULES, 0ull);\n        std::fill(s.fire_stamp, s.fire_stamp + WP_RULES, 0ull);\n"
        << "        s.step = 1;\n        s.fire_log_size = 0;\n    }\n}\n\n";
    out << "inline constexpr int invariant_count = " << invariant_names.size() << ";\n";
    texts("invariant_names", invariant_names);
    out << "\n";

    out << "struct outcome {\n    std::uint64_t decisions = 0;\n    const char* end_reason = \"\";  // or \"decision limit\", \"engine error\"\n"
        << "    std::string error;  // the engine error's message\n"
        << "    std::string fault;  // a fault of the rules: kind|subject|side (engine::engine_fault)\n"
        << "    std::uint32_t winners = 0;  // bit p: seat p wins\n};\n\n";
    out << "inline constexpr int min_players = " << rs_.min_players << ", max_players = " << g_.players() << ";\n\n";
    out << "// One game with the engine's random agents (engine::play_game, the simulator), or with every\n"
        << "// seat taking the first legal option; with check, the invariants after every decision and at\n"
        << "// the end (s.broken_*); with count_fires, how often each rule fired (s.fires, per IR rule: only\n"
        << "// when WP_COUNT_FIRES is defined as 1 before this file is included).\n"
        << "inline outcome play(game_state& s, int players, std::uint64_t seed, std::uint64_t agent_seed, std::uint64_t max_decisions,\n"
        << "                    bool check = false, bool first_agent = false, bool count_fires = false) {\n"
        << "    outcome o;\n    if (players < 1 || players > WP_MAXP) {\n        o.end_reason = \"engine error\";\n"
        << "        o.error = \"this game is for \" + std::to_string(min_players) + \"..\" + std::to_string(max_players) + \" players\";\n"
        << "        return o;\n    }\n"
        << "    s.count_fires = count_fires;\n    set_up(s, players);\n    s.r.s = seed;\n    s.ar.s = agent_seed;\n    s.max_decisions = max_decisions;\n"
        << "    s.check_invariants = check;\n    s.first_agent = first_agent;\n"
        << "    try {\n        play_sequence(s);\n        if (!s.done) finish(s, \"sequence finished\");\n"
        << "        if (check) check_invariants(s);\n"
        << "        o.decisions = s.decisions;\n        if (s.limit) {\n            o.end_reason = \"decision limit\";\n            return o;\n        }\n"
        << "        o.end_reason = s.end_reason;\n";
    if (g_.wins_decision != ir::no_id)
        out << "        for (int p = 0; p < s.np; ++p)\n            if ((next_step(s), dec" << g_.wins_decision << "(s, \"?\", p)) != 0) o.winners |= 1u << p;\n";
    out << "    } catch (const engine_error& e) {\n        o.decisions = s.decisions;\n        o.end_reason = \"engine error\";\n"
        << "        o.error = e.what();\n"
        << "        if (*e.kind) o.fault = std::string(e.kind) + \"|\" + e.subject + \"|\" + e.side;\n    }\n    return o;\n}\n\n}  // namespace " << o_.name_space << "\n";
    return out.str();
}

std::string translate(const ir::ruleset& rs, const translate_options& options) {
    const int players = static_cast<int>(rs.max_players > 0 ? std::min<std::int64_t>(rs.max_players, 32) : 8);
    const engine::game g(rs, players);
    return writer(g.ruleset(), g, options).run();
}

}  // namespace wp::codegen
