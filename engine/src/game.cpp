// The game: storage layout of one ruleset for a number of players, options, rule groups.
#include "westphalia/engine/engine.hpp"

#include "compile.hpp"

#include "westphalia/ir/print.hpp"

#include <algorithm>
#include <functional>

namespace wp::engine {

ir::distribution dice_distribution(const ir::dice_term& d) {
    ir::distribution r;
    r.weights = {1};
    r.total = 1;
    const auto faces = static_cast<std::uint64_t>(d.high - d.low + 1);
    for (std::int64_t i = 0; i < d.count; ++i) {
        std::vector<std::uint64_t> n(r.weights.size() + faces - 1, 0);
        for (std::size_t a = 0; a < r.weights.size(); ++a)
            for (std::size_t b = 0; b < faces; ++b) n[a + b] += r.weights[a];
        r.weights = std::move(n);
        r.total *= faces;
    }
    r.min = d.count * d.low;
    r.max = d.count * d.high;
    return r;
}

game::game(ir::ruleset rs, int players, const std::map<std::string, std::string>& options)
    : rs_(std::move(rs)), players_(players) {
    if (players < 1) throw engine_error("a game needs at least one player");
    if (rs_.min_players > 0 && (players < rs_.min_players || players > rs_.max_players))
        throw engine_error("ruleset " + rs_.name + " is for " + std::to_string(rs_.min_players) + ".." +
                           std::to_string(rs_.max_players) + " players, not " + std::to_string(players));
    // options
    for (const auto& [name, text] : options) {
        bool found = false;
        for (ir::option& o : rs_.options) {
            if (o.name != name) continue;
            found = true;
            bool matched = false;
            for (std::uint32_t i = 0; i < o.values.size(); ++i)
                if (ir::constant_text(rs_, o.type, o.values[i]) == text) { o.selected_index = i; matched = true; }
            if (!matched) throw engine_error("option " + name + " has no value " + text);
        }
        if (!found) throw engine_error("no option named " + name);
    }
    for (const ir::option& o : rs_.options) option_value.push_back(o.values.empty() ? 0 : o.values.at(o.selected_index));

    // entity instances
    for (const ir::entity_kind& k : rs_.entity_kinds) {
        kind_first.push_back(static_cast<std::uint32_t>(instance_entity.size()));
        for (std::uint32_t e = k.first_entity; e < k.first_entity + k.entity_count; ++e) {
            if (entity_first.size() <= e) entity_first.resize(e + 1, 0);
            entity_first[e] = static_cast<std::uint32_t>(instance_entity.size());
            for (std::int64_t c = 0; c < rs_.entities.at(e).count; ++c) instance_entity.push_back(e);
        }
        kind_count.push_back(static_cast<std::uint32_t>(instance_entity.size()) - kind_first.back());
    }
    entity_first.resize(rs_.entities.size(), 0);

    // slots
    for (const ir::slot& s : rs_.slots) {
        slot_layout l;
        l.offset = value_count;
        const ir::type& t = rs_.types.at(s.type);
        if (t.kind == ir::type_kind::map_of) l.width = key_count(t.key);
        if (t.kind == ir::type_kind::list_of) l.width = 1 + list_capacity(t.value);
        std::uint32_t copies = 1;
        switch (s.scope) {
            case ir::slot_scope::global: break;
            case ir::slot_scope::per_player: copies = static_cast<std::uint32_t>(players); break;
            case ir::slot_scope::per_entity: copies = kind_count.at(s.entity_kind); break;
            case ir::slot_scope::per_node: copies = static_cast<std::uint32_t>(rs_.maps.at(s.map).nodes.size()); break;
        }
        l.copies = copies;
        value_count += l.width * copies;
        slots.push_back(l);
    }

    // zones
    for (ir::id z = 0; z < rs_.zones.size(); ++z) {
        const ir::zone& zn = rs_.zones[z];
        zone_first.push_back(static_cast<std::uint32_t>(zone_instance_zone.size()));
        const std::size_t n = ir::zone_instance_count(rs_, zn, players);
        for (std::size_t i = 0; i < n; ++i) {
            zone_instance_zone.push_back(z);
            zone_capacity_offset.push_back(contents_size);
            contents_size += kind_count.at(zn.entity_kind);
        }
    }

    // rule groups
    group_of_roll.assign(rs_.rolls.size(), ir::no_id);
    group_of_quantity.assign(rs_.quantities.size(), ir::no_id);
    group_of_decision.assign(rs_.decisions.size(), ir::no_id);
    group_of_action.assign(rs_.actions.size(), ir::no_id);
    group_of_event.assign(rs_.events.size(), ir::no_id);
    group_bounds.assign(rs_.groups.size(), 0);
    for (ir::id g = 0; g < rs_.groups.size(); ++g) {
        const ir::rule_group& gr = rs_.groups[g];
        for (ir::id r : gr.rules)
            if (rs_.rules[r].kind == ir::rule_kind::modifier && rs_.rules[r].mod != ir::modifier_kind::add) group_bounds[g] = 1;
        switch (gr.target) {
            case ir::target_kind::roll: group_of_roll.at(gr.target_id) = g; break;
            case ir::target_kind::quantity: group_of_quantity.at(gr.target_id) = g; break;
            case ir::target_kind::decision: group_of_decision.at(gr.target_id) = g; break;
            case ir::target_kind::action: group_of_action.at(gr.target_id) = g; break;
            case ir::target_kind::event: group_of_event.at(gr.target_id) = g; break;
            case ir::target_kind::none: break;
        }
    }

    for (ir::id s = 0; s < rs_.sequences.size(); ++s)
        if (main_sequence == ir::no_id || rs_.sequences[s].name == "game") main_sequence = s;
    if (main_sequence == ir::no_id) throw engine_error("ruleset " + rs_.name + " has no sequence to play");
    for (ir::id d = 0; d < rs_.decisions.size(); ++d) {
        const ir::decision& dec = rs_.decisions[d];
        if (dec.name == "wins" && dec.params.size() == 1 &&
            rs_.types.at(dec.params[0].type).kind == ir::type_kind::player &&
            rs_.types.at(dec.result).kind == ir::type_kind::boolean)
            wins_decision = d;
    }

    // Flat lookups for the interpreter.
    for (const ir::entity& e : rs_.entities) attribute_stride = std::max(attribute_stride, static_cast<std::uint32_t>(e.values.size()));
    instance_attributes.assign(instance_entity.size() * attribute_stride, 0);
    for (std::size_t i = 0; i < instance_entity.size(); ++i) {
        const std::vector<std::int64_t>& v = rs_.entities.at(instance_entity[i]).values;
        std::copy(v.begin(), v.end(), instance_attributes.begin() + static_cast<std::ptrdiff_t>(i * attribute_stride));
    }
    for (const ir::dice_term& d : rs_.dice_terms) dice.push_back(dice_distribution(d));
    dice_by_count.resize(rs_.dice_terms.size());
    for (const ir::node& nd : rs_.nodes) {
        if (nd.code != ir::op::dice_count || !dice_by_count.at(nd.ref).empty()) continue;
        const ir::dice_term& d = rs_.dice_terms[nd.ref];
        for (std::int64_t k = 0; k <= d.count; ++k) dice_by_count[nd.ref].push_back(dice_distribution({k, d.low, d.high}));
    }
    node_edges.resize(rs_.maps.size());
    for (std::size_t m = 0; m < rs_.maps.size(); ++m) {
        const ir::map& map = rs_.maps[m];
        node_edges[m].resize(map.nodes.size());
        for (std::size_t e = 0; e < map.edges.size(); ++e) {
            const ir::map_edge& edge = map.edges[e];
            if (edge.a < map.nodes.size()) node_edges[m][edge.a].push_back(static_cast<std::uint32_t>(e));
            if (edge.b < map.nodes.size() && edge.b != edge.a) node_edges[m][edge.b].push_back(static_cast<std::uint32_t>(e));
        }
    }
    for (const ir::block& b : rs_.blocks) {
        block_is_turn.push_back(b.word == "turn");
        has_turns = has_turns || b.word == "turn";
    }
    for (const ir::zone& z : rs_.zones) has_hidden = has_hidden || z.vis != ir::visibility::public_;
    for (const ir::slot& s : rs_.slots) {
        slot_hidden.push_back(s.hidden && (s.hidden_if == ir::no_id || option_value.at(s.hidden_if) != 0));
        has_hidden = has_hidden || slot_hidden.back();
    }
    for (const ir::node& nd : rs_.nodes) has_hidden = has_hidden || nd.code == ir::op::simultaneous;
    table_key_first.push_back(0);
    for (const ir::table& t : rs_.tables)
        table_key_first.push_back(table_key_first.back() + static_cast<std::uint32_t>(t.rows.size() + t.columns.size()));
    compile_expressions(*this);
    prepare_rules(*this);
    number_blocks();  // after prepare_rules: it skips the branches the options rule out
    tabulate_quantities(*this);
    compile_expressions(*this);  // again: quantities tabulated just now become table lookups
    find_invariant_reads();
}

// Walks an expression (and the quantities, decisions and rules it calls) for the slots and
// zones it reads.
void game::collect_reads(ir::id n, std::vector<std::uint8_t>& seen_slot, std::vector<std::uint8_t>& seen_zone,
                         std::vector<std::uint8_t>& seen_call) const {
    if (n == ir::no_id || n >= rs_.nodes.size()) return;
    const ir::node& nd = rs_.nodes[n];
    auto rules_of = [&](ir::id group) {
        if (group == ir::no_id) return;
        for (ir::id r : rs_.groups[group].rules) {
            collect_reads(rs_.rules[r].guard, seen_slot, seen_zone, seen_call);
            collect_reads(rs_.rules[r].amount, seen_slot, seen_zone, seen_call);
            collect_reads(rs_.rules[r].value, seen_slot, seen_zone, seen_call);
        }
    };
    switch (nd.code) {
        case ir::op::global:
        case ir::op::player_field:
        case ir::op::entity_field: seen_slot.at(nd.ref) = 1; break;
        case ir::op::zone: seen_zone.at(nd.ref) = 1; break;
        case ir::op::quantity:
            if (!seen_call.at(nd.ref)) {
                seen_call[nd.ref] = 1;
                collect_reads(rs_.quantities[nd.ref].expr, seen_slot, seen_zone, seen_call);
                rules_of(group_of_quantity[nd.ref]);
            }
            break;
        case ir::op::decide: rules_of(group_of_decision[nd.ref]); break;
        case ir::op::builtin: {
            // a map search calls the predicate named in value
            const auto b = static_cast<ir::builtin>(nd.ref);
            const bool calls = ir::is_map_search(b);
            if (calls && nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs_.quantities.size() &&
                !seen_call.at(static_cast<std::size_t>(nd.value))) {
                seen_call[static_cast<std::size_t>(nd.value)] = 1;
                collect_reads(rs_.quantities[static_cast<std::size_t>(nd.value)].expr, seen_slot, seen_zone, seen_call);
            }
            break;
        }
        default: break;
    }
    for (std::uint32_t i = 0; i < nd.child_count; ++i) collect_reads(rs_.children[nd.first_child + i], seen_slot, seen_zone, seen_call);
}

void game::find_invariant_reads() {
    for (const ir::rule& r : rs_.rules) {
        if (r.kind != ir::rule_kind::invariant) continue;
        std::vector<std::uint8_t> seen_slot(rs_.slots.size(), 0), seen_zone(rs_.zones.size(), 0),
            seen_call(rs_.quantities.size(), 0);
        collect_reads(r.value, seen_slot, seen_zone, seen_call);
        state_reads reads;
        for (ir::id sl = 0; sl < rs_.slots.size(); ++sl)
            if (seen_slot[sl])
                reads.values.emplace_back(slots[sl].offset, sl + 1 < slots.size() ? slots[sl + 1].offset : value_count);
        for (ir::id z = 0; z < rs_.zones.size(); ++z)
            if (seen_zone[z])
                reads.zones.emplace_back(zone_first[z], z + 1 < zone_first.size() ? zone_first[z + 1]
                                                                                  : static_cast<std::uint32_t>(zone_instance_zone.size()));
        const std::uint64_t bit = invariant_reads.size() < 64 ? 1ull << invariant_reads.size() : 0;
        value_invariants.resize(value_count, 0);
        zone_invariants.resize(zone_instance_zone.size(), 0);
        for (const auto& [first, end] : reads.values)
            for (std::uint32_t a = first; a < end && a < value_invariants.size(); ++a) value_invariants[a] |= bit;
        for (const auto& [first, end] : reads.zones)
            for (std::uint32_t z = first; z < end && z < zone_invariants.size(); ++z) zone_invariants[z] |= bit;
        invariant_reads.push_back(std::move(reads));
    }
}

std::string game::position(ir::id node) const {
    if (node == ir::no_id || node >= rs_.nodes.size()) return "?";
    const ir::source_pos& w = rs_.nodes[node].where;
    std::string file = w.file < rs_.files.size() ? rs_.files[w.file] : "?";
    return file + ":" + std::to_string(w.line) + ":" + std::to_string(w.column);
}

std::string game::statement_owner(ir::id n, ir::id* block) const {
    const ir::source_pos& w = rs_.nodes.at(n).where;
    std::string best;
    std::uint32_t best_line = 0;
    ir::id best_block = ir::no_id;
    auto consider = [&](const std::string& what, const ir::provenance& p, ir::id b = ir::no_id) {
        if (p.where.file == w.file && p.where.line <= w.line && p.where.line >= best_line &&
            (p.where.end_line == 0 || p.where.end_line >= w.line)) {
            best = what;
            best_line = p.where.line;
            best_block = b;
        }
    };
    for (const ir::rule& r : rs_.rules) consider("rule " + r.name, r.prov);
    for (ir::id b = 0; b < rs_.blocks.size(); ++b) consider(rs_.blocks[b].word + " " + rs_.blocks[b].path, rs_.blocks[b].prov, b);
    for (ir::id i = 0; i < rs_.procedures.size(); ++i) {
        // a card's event reads as the card's; the card kind's dispatcher is no place of its own
        if (std::find(rs_.event_dispatchers.begin(), rs_.event_dispatchers.end(), i) != rs_.event_dispatchers.end()) continue;
        std::string what = "procedure " + rs_.procedures[i].name;
        for (const ir::card_event& e : rs_.card_events)
            if (e.procedure == i) {
                const ir::entity& c = rs_.entities.at(e.card);
                what = "event of " + (c.display.empty() ? c.name : c.display);
            }
        consider(what, rs_.procedures[i].prov);
    }
    for (const ir::action& a : rs_.actions) consider("action " + a.name, a.prov);
    for (const ir::table& t : rs_.tables) consider("table " + t.name, t.prov);
    for (const ir::roll& r : rs_.rolls) consider("roll " + r.name, r.prov);
    if (best.empty())
        for (const ir::sequence& q : rs_.sequences) consider("sequence " + q.name, q.prov);
    if (block) *block = best_block;
    return best.empty() ? "statement" : best;
}

std::string game::instance_text(std::int64_t instance) const {
    if (instance < 0 || static_cast<std::size_t>(instance) >= instance_entity.size()) return "none";
    const ir::entity& e = rs_.entities.at(instance_entity[static_cast<std::size_t>(instance)]);
    return e.display.empty() ? e.name : e.display;
}

// A place as a player reads it: its display name where the map gives one ("Frankfurt an der
// Oder"), else its name (a hex's number, "0101").
std::string game::node_text(const ir::map_node& n) {
    return n.display.empty() ? n.name : n.display;
}

std::string game::value_text(ir::id type, std::int64_t v) const {
    if (type == ir::no_id) return std::to_string(v);
    const ir::type& t = rs_.types.at(type);
    switch (t.kind) {
        case ir::type_kind::player: return v < 0 ? "none" : "P" + std::to_string(v + 1);
        case ir::type_kind::entity: return instance_text(v);
        case ir::type_kind::boolean: return v ? "true" : "false";
        case ir::type_kind::enumeration:
            if (v >= 0 && static_cast<std::size_t>(v) < rs_.enums.at(t.ref).members.size())
                return rs_.enums.at(t.ref).members[static_cast<std::size_t>(v)].name;
            return std::to_string(v);
        case ir::type_kind::string:
            if (v >= 0 && static_cast<std::size_t>(v) < rs_.strings.size()) return rs_.strings[static_cast<std::size_t>(v)];
            return std::to_string(v);
        case ir::type_kind::node:
            if (v >= 0 && static_cast<std::size_t>(v) < rs_.maps.at(t.ref).nodes.size())
                return node_text(rs_.maps.at(t.ref).nodes[static_cast<std::size_t>(v)]);
            return "none";
        default: return std::to_string(v);
    }
}

bool game::spliced(ir::id n) const {
    const ir::node& nd = rs_.nodes.at(n);
    return nd.code == ir::op::block && nd.child_count == 1 && !block_is_turn[nd.ref] &&
           rs_.nodes[rs_.children[nd.first_child]].code == ir::op::seq;
}

// Phases and steps numbered as the aid numbers them: by their place among the blocks of their
// parent that play can run under the chosen options (a block whose statements all lie in
// branches the options rule out takes no number), in the source's order: SPI's turn has phases
// 1-4 and step 5; Contractor Cards' phase 2 has steps 2.1, 2.1.1, 2.2 ...
void game::number_blocks() {
    block_number.assign(rs_.blocks.size(), "");
    // Whether a statement other than a list or a header is met below n, numbering the blocks on
    // the way under `prefix`.
    std::function<bool(ir::id, const std::string&, int&)> walk = [&](ir::id n, const std::string& prefix, int& count) {
        const ir::node& nd = rs_.nodes.at(n);
        if (nd.code == ir::op::seq) {
            bool any = false;
            for (std::uint32_t i = 0; i < nd.child_count; ++i) any = walk(rs_.children[nd.first_child + i], prefix, count) || any;
            return any;
        }
        if (nd.code == ir::op::block) {
            const ir::block& blk = rs_.blocks.at(nd.ref);
            const bool numbered = blk.word == "phase" || blk.word == "step";
            const std::string number = numbered ? prefix + std::to_string(count + 1) : std::string();
            int inner = 0;
            bool any = false;
            for (std::uint32_t i = 0; i < nd.child_count; ++i)
                any = walk(rs_.children[nd.first_child + i], numbered ? number + "." : std::string(), inner) || any;
            if (numbered && any) {
                block_number[nd.ref] = number;
                ++count;
            }
            return any;
        }
        if (nd.code == ir::op::if_) {
            const std::uint8_t known = if_condition.empty() ? condition_varies : if_condition[n];
            bool any = false;
            for (std::uint32_t i = 1; i < nd.child_count; ++i) {
                if ((i == 1 && known == condition_false) || (i == 2 && known == condition_true)) continue;
                const ir::id c = rs_.children[nd.first_child + i];
                if (rs_.nodes[c].code != ir::op::absent) any = walk(c, prefix, count) || any;
            }
            return known != condition_false || any;  // a false condition with no else runs nothing
        }
        for (std::uint32_t i = 0; i < nd.child_count; ++i) {  // a statement; blocks inside it (a loop's body) are numbered on
            const ir::id c = rs_.children[nd.first_child + i];
            const ir::op code = rs_.nodes[c].code;
            if (code == ir::op::seq || code == ir::op::block) walk(c, prefix, count);
        }
        return true;
    };
    int count = 0;
    for (const ir::sequence& q : rs_.sequences)
        if (q.body != ir::no_id) walk(q.body, "", count);
}

std::uint32_t game::list_capacity(ir::id element) const {
    const ir::type& e = rs_.types.at(element);
    switch (e.kind) {
        case ir::type_kind::player: return static_cast<std::uint32_t>(players_);
        case ir::type_kind::enumeration: return static_cast<std::uint32_t>(rs_.enums.at(e.ref).members.size());
        case ir::type_kind::entity: return kind_count.at(e.ref);
        case ir::type_kind::node: return static_cast<std::uint32_t>(rs_.maps.at(e.ref).nodes.size());
        case ir::type_kind::boolean: return 2;
        case ir::type_kind::range: return static_cast<std::uint32_t>(e.hi - e.lo + 1);
        default: throw engine_error("a stored list of " + ir::type_name(rs_, element) + " has no bound");
    }
}

std::string game::list_text(ir::id list_type, const std::int64_t* at) const {
    const ir::id element = rs_.types.at(list_type).value;
    std::string out = "[";
    for (std::int64_t i = 0; i < at[0]; ++i) out += (i ? ", " : "") + value_text(element, at[1 + i]);
    return out + "]";
}

std::string game::value_place(std::uint32_t address, bool& players_own) const {
    players_own = false;
    for (ir::id sl = 0; sl < rs_.slots.size(); ++sl) {
        const ir::slot& slot = rs_.slots[sl];
        const slot_layout& l = slots[sl];
        if (address < l.offset || address >= l.offset + l.copies * l.width) continue;
        const std::uint32_t copy = (address - l.offset) / l.width, k = (address - l.offset) % l.width;
        std::string name = slot.name;
        const ir::type& t = rs_.types.at(slot.type);
        if (t.kind == ir::type_kind::list_of) {
            // the list as a whole (interp::store_list traces it so)
        } else if (t.kind == ir::type_kind::map_of) {
            const ir::type& key = rs_.types.at(t.key);
            name += "[" + value_text(t.key, static_cast<std::int64_t>(k) + (key.kind == ir::type_kind::range ? key.lo : key_first(t.key))) + "]";
        }
        switch (slot.scope) {
            case ir::slot_scope::per_player: players_own = true; return "P" + std::to_string(copy + 1) + " " + name;
            case ir::slot_scope::per_entity: return instance_text(kind_first.at(slot.entity_kind) + copy) + " " + name;
            case ir::slot_scope::per_node: return node_text(rs_.maps.at(slot.map).nodes.at(copy)) + " " + name;
            default: return name;
        }
    }
    return "value " + std::to_string(address);
}

std::uint32_t game::key_count(ir::id key_type) const {
    const ir::type& k = rs_.types.at(key_type);
    switch (k.kind) {
        case ir::type_kind::player: return static_cast<std::uint32_t>(players_);
        case ir::type_kind::enumeration: return static_cast<std::uint32_t>(rs_.enums.at(k.ref).members.size());
        case ir::type_kind::boolean: return 2;
        case ir::type_kind::node: return static_cast<std::uint32_t>(rs_.maps.at(k.ref).nodes.size());
        case ir::type_kind::entity: return kind_count.at(k.ref);
        default: throw engine_error("unsupported map key type " + ir::type_name(rs_, key_type));
    }
}

std::int64_t game::key_first(ir::id key_type) const {
    const ir::type& k = rs_.types.at(key_type);
    return k.kind == ir::type_kind::entity ? std::int64_t{kind_first.at(k.ref)} : 0;
}

std::int64_t game::initial_value(ir::id slot) const {
    const ir::slot& sl = rs_.slots.at(slot);
    const ir::type& t = rs_.types.at(sl.type);
    const ir::type& v = t.kind == ir::type_kind::map_of ? rs_.types.at(t.value) : t;
    if (v.kind == ir::type_kind::entity && sl.initial >= 0) return entity_first.at(static_cast<std::size_t>(sl.initial));
    return sl.initial;
}

}  // namespace wp::engine
