// Reading the hex map and the pieces on it from a state (engine accessors: option_type,
// option_values, entity_field), for hex_view to draw.
#include "hex_scene.hpp"

#include "westphalia/engine/agents.hpp"

#include <algorithm>

namespace wp::cli {

namespace {

using ir::id;

// The field locating pieces of `kind` on `map`: the first per-entity slot whose type is a node of it.
id location_slot(const ir::ruleset& rs, id kind, id map) {
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        if (slot.scope != ir::slot_scope::per_entity || slot.entity_kind != kind) continue;
        const ir::type& t = rs.types.at(slot.type);
        if (t.kind == ir::type_kind::node && t.ref == map) return sl;
    }
    return ir::no_id;
}

// One short initial per terrain: the member's display label, else its first letter, lengthened
// while two members would share it.
std::vector<std::string> terrain_initials(const ir::enum_def& e) {
    std::vector<std::string> out;
    for (const ir::enum_member& m : e.members) out.push_back(m.label.empty() ? m.name.substr(0, 1) : m.label);
    for (std::size_t length = 2; length <= 4; ++length) {
        bool clash = false;
        for (std::size_t i = 0; i < out.size(); ++i)
            for (std::size_t j = 0; j < out.size(); ++j)
                if (i != j && out[i] == out[j] && e.members[i].label.empty()) {
                    out[i] = e.members[i].name.substr(0, length);
                    clash = true;
                }
        if (!clash) break;
    }
    return out;
}

// What a value adds to a piece's description: a true bool by its name, a player or an enum
// member by its text, a number by name and value when `numbers` (the counter's printed factors,
// "strength 6"); nothing for hexes and the rest.
void describe(const engine::game& g, const std::string& name, id type, std::int64_t v, std::string& out, bool numbers = false) {
    const ir::type& t = g.ruleset().types.at(type);
    std::string word;
    if (t.kind == ir::type_kind::boolean && v) word = name;
    else if ((t.kind == ir::type_kind::player && v >= 0) || t.kind == ir::type_kind::enumeration) word = g.value_text(type, v);
    else if (numbers && (t.kind == ir::type_kind::range || t.kind == ir::type_kind::integer)) word = name + " " + std::to_string(v);
    if (!word.empty()) out += (out.empty() ? "" : ", ") + word;
}

// Each hex's own fields (`state per hex`) that differ from their start: "inf[Protestant] 8" for
// an entry of a map, "fort" for a true bool, "dmg Sacked" for the rest. The seat's view holds a
// field hidden from it at its start, so what it may not see is not listed.
void hex_fields(const engine::state& s, id map, hex_scene& sc) {
    const engine::game& g = s.the_game();
    const ir::ruleset& rs = g.ruleset();
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        if (slot.scope != ir::slot_scope::per_node || slot.map != map) continue;
        const ir::type& t = rs.types.at(slot.type);
        if (t.kind == ir::type_kind::list_of) continue;
        const id vt = t.kind == ir::type_kind::map_of ? t.value : slot.type;
        const std::int64_t start = g.initial_value(sl);
        const auto width = static_cast<int>(g.slots.at(sl).width);
        for (std::size_t h = 0; h < sc.hexes.size(); ++h)
            for (int k = 0; k < width; ++k) {
                const std::int64_t v = s.slot_value(slot.name, static_cast<int>(h), k);
                if (v == start) continue;
                std::string name = slot.name;
                if (t.kind == ir::type_kind::map_of) name += "[" + g.value_text(t.key, g.key_first(t.key) + k) + "]";
                const bool flag = rs.types.at(vt).kind == ir::type_kind::boolean && v != 0;
                std::string& out = sc.hexes[h].fields;
                out += (out.empty() ? "" : ", ") + (flag ? name : name + " " + g.value_text(vt, v));
            }
    }
}

struct built {
    hex_scene scene;
    std::vector<std::int64_t> instances;  // per piece
};

built build(const engine::state& s, id map) {
    const engine::game& g = s.the_game();
    const ir::ruleset& rs = g.ruleset();
    const ir::map& m = rs.maps.at(map);
    built b;
    hex_scene& sc = b.scene;
    sc.map_name = m.name;
    std::vector<std::string> initials;
    if (m.terrain_enum != ir::no_id) {
        const ir::enum_def& e = rs.enums.at(m.terrain_enum);
        initials = terrain_initials(e);
        for (std::size_t i = 0; i < e.members.size(); ++i) sc.legend.emplace_back(initials[i], e.members[i].name);
    }
    for (const ir::map_node& n : m.nodes) {
        hex_scene::hex h;
        h.number = n.name;
        h.col = n.col;
        h.row = n.row;
        if (n.terrain >= 0 && static_cast<std::size_t>(n.terrain) < initials.size())
            h.terrain = initials[static_cast<std::size_t>(n.terrain)];
        sc.hexes.push_back(h);
    }
    hex_fields(s, map, sc);
    sc.marks.resize(sc.hexes.size());
    for (const ir::map_edge& e : m.edges) {
        hex_scene::hexside side{e.a, e.b, ""};
        for (std::int64_t k : e.kinds)
            side.features += (side.features.empty() ? "" : ", ") +
                             (m.edge_enum == ir::no_id ? std::to_string(k)
                                                       : rs.enums.at(m.edge_enum).members.at(static_cast<std::size_t>(k)).name);
        sc.hexsides.push_back(side);
    }
    for (id kind = 0; kind < rs.entity_kinds.size(); ++kind) {
        const id at = location_slot(rs, kind, map);
        if (at == ir::no_id) continue;
        const std::int64_t first = g.kind_first.at(kind);
        for (std::int64_t inst = first; inst < first + static_cast<std::int64_t>(g.kind_count.at(kind)); ++inst) {
            const std::int64_t where = s.entity_field(at, inst);
            if (where < 0 || static_cast<std::size_t>(where) >= sc.hexes.size()) continue;
            const id ent = s.entity_of(inst);
            const ir::entity& e = rs.entities.at(ent);
            hex_scene::piece p;
            p.hex = static_cast<std::size_t>(where);
            p.tag = e.name;
            if (e.count > 1) p.tag += "#" + std::to_string(inst - g.entity_first.at(ent) + 1);
            if (!e.display.empty()) p.details = e.display;  // "Bavarian 6-3"
            const id rec = rs.entity_kinds[kind].record;
            if (rec != ir::no_id) {
                const ir::record& r = rs.records.at(rec);
                for (std::size_t f = 0; f < r.fields.size() && f < e.values.size(); ++f)
                    describe(g, r.fields[f].name, r.fields[f].type, e.values[f], p.details, true);
            }
            for (id sl = 0; sl < rs.slots.size(); ++sl) {
                const ir::slot& slot = rs.slots[sl];
                if (sl == at || slot.scope != ir::slot_scope::per_entity || slot.entity_kind != kind) continue;
                const ir::type& t = rs.types.at(slot.type);
                if (t.kind == ir::type_kind::map_of || t.kind == ir::type_kind::list_of) continue;
                describe(g, slot.name, slot.type, s.entity_field(sl, inst), p.details);
            }
            sc.pieces.push_back(std::move(p));
            b.instances.push_back(inst);
        }
    }
    return b;
}

void add_mark(std::string& mark, std::size_t option) {
    const std::string number = std::to_string(option + 1);
    if (("," + mark + ",").find("," + number + ",") != std::string::npos) return;  // a second piece of one option
    mark += (mark.empty() ? "" : ",") + number;
}

}  // namespace

std::optional<decision_scene> scene_for_decision(const engine::state& s) {
    const ir::ruleset& rs = s.the_game().ruleset();
    const id type = s.option_type();
    if (type == ir::no_id) return std::nullopt;
    const ir::type& t = rs.types.at(type);
    // (value, the option choosing it): a choose's options; at a subset step its element, which
    // the first option includes.
    // A mark is the option's number at the prompt, which lists options of one text once: two
    // pieces of one name in one hex are both marked with their one number.
    std::vector<std::pair<std::int64_t, std::size_t>> values;
    if (const std::int64_t item = s.subset_item(); item >= 0) values.emplace_back(item, 0);
    const std::vector<std::int64_t> options = s.option_values();
    const std::vector<engine::action_info> legal = s.legal_actions();
    const std::vector<engine::numbered_option> numbered = engine::numbered_options(legal);
    for (std::size_t i = 0; i < options.size(); ++i) {
        std::size_t number = i;
        for (std::size_t k = 0; k < numbered.size() && i < legal.size(); ++k)
            if (numbered[k].text == legal[i].text) number = k;
        values.emplace_back(options[i], number);
    }
    if (t.kind == ir::type_kind::node && rs.maps.at(t.ref).kind == ir::map_kind::hexgrid) {
        decision_scene d{build(s, t.ref).scene, {}};
        for (const auto& [v, i] : values) {
            if (v < 0 || static_cast<std::size_t>(v) >= d.scene.hexes.size()) continue;
            d.focus.push_back(static_cast<std::size_t>(v));
            add_mark(d.scene.marks[static_cast<std::size_t>(v)], i);
        }
        return d;
    }
    if (t.kind != ir::type_kind::entity) return std::nullopt;
    for (id map = 0; map < rs.maps.size(); ++map) {
        if (rs.maps[map].kind != ir::map_kind::hexgrid || location_slot(rs, t.ref, map) == ir::no_id) continue;
        built b = build(s, map);
        decision_scene d{std::move(b.scene), {}};
        for (const auto& [v, i] : values) {
            const auto it = std::find(b.instances.begin(), b.instances.end(), v);
            if (it == b.instances.end()) continue;  // not on the map
            hex_scene::piece& p = d.scene.pieces[static_cast<std::size_t>(it - b.instances.begin())];
            add_mark(p.mark, i);
            add_mark(d.scene.marks[p.hex], i);
            d.focus.push_back(p.hex);
        }
        return d;
    }
    return std::nullopt;
}

std::optional<hex_scene> first_hex_scene(const engine::state& s) {
    const ir::ruleset& rs = s.the_game().ruleset();
    for (id map = 0; map < rs.maps.size(); ++map)
        if (rs.maps[map].kind == ir::map_kind::hexgrid) return build(s, map).scene;
    return std::nullopt;
}

}  // namespace wp::cli
