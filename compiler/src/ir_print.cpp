// The IR's text dump: one element per line, provenance in brackets, node trees as source text.
#include "westphalia/ir/print.hpp"

#include <sstream>

namespace wp::ir {

namespace {

struct printer {
    const ruleset& rs;
    const std::vector<local>& frame;

    std::string str(std::int64_t v) const {
        return v >= 0 && static_cast<std::uint64_t>(v) < rs.strings.size() ? rs.strings[static_cast<std::size_t>(v)] : "?";
    }
    std::string quoted(const std::string& s) const {
        std::string out = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\') out += '\\';
            out += c;
        }
        return out + "\"";
    }
    std::string local_name(id i) const { return i < frame.size() ? frame[i].name : "local" + std::to_string(i); }

    // The constant `v` of type `t` as source text.
    std::string constant(id t, std::int64_t v) const {
        if (t >= rs.types.size()) return std::to_string(v);
        const type& x = rs.types[t];
        switch (x.kind) {
            case type_kind::boolean: return v ? "true" : "false";
            case type_kind::string: return quoted(str(v));
            case type_kind::enumeration:
                if (x.ref < rs.enums.size() && v >= 0 && static_cast<std::size_t>(v) < rs.enums[x.ref].members.size())
                    return rs.enums[x.ref].members[static_cast<std::size_t>(v)].name;
                return "?" + std::to_string(v);
            case type_kind::entity:
                if (v >= 0 && static_cast<std::size_t>(v) < rs.entities.size()) return rs.entities[static_cast<std::size_t>(v)].name;
                return "none";
            case type_kind::node:
                if (x.ref < rs.maps.size() && v >= 0 && static_cast<std::size_t>(v) < rs.maps[x.ref].nodes.size())
                    return rs.maps[x.ref].nodes[static_cast<std::size_t>(v)].name;
                return "none";
            case type_kind::player: return v < 0 ? "none" : "player#" + std::to_string(v);
            default: return std::to_string(v);
        }
    }

    std::string args(std::span<const id> kids, std::size_t from = 0) const {
        std::string s = "(";
        for (std::size_t i = from; i < kids.size(); ++i) s += (i > from ? ", " : "") + expr(kids[i]);
        return s + ")";
    }

    static const char* binary_symbol(op o) {
        switch (o) {
            case op::add: return "+";
            case op::sub: return "-";
            case op::mul: return "*";
            case op::div: return "/";
            case op::mod: return "%";
            case op::eq: return "==";
            case op::ne: return "!=";
            case op::lt: return "<";
            case op::le: return "<=";
            case op::gt: return ">";
            case op::ge: return ">=";
            case op::in: return "in";
            case op::and_: return "and";
            case op::or_: return "or";
            default: return nullptr;
        }
    }

    template <class Table> std::string named(const Table& table, id i) const {
        return i < table.size() ? table[i].name : "?" + std::to_string(i);
    }

    std::string field_name(const node& n, id child) const {
        const id t = child < rs.nodes.size() ? rs.nodes[child].type : no_id;
        if (t >= rs.types.size()) return "?";
        const type& x = rs.types[t];
        if (n.code == op::attribute && x.kind == type_kind::entity && x.ref < rs.entity_kinds.size()) {
            const id r = rs.entity_kinds[x.ref].record;
            if (r < rs.records.size() && n.ref < rs.records[r].fields.size()) return rs.records[r].fields[n.ref].name;
        }
        if (n.code == op::record_field && x.kind == type_kind::record && x.ref < rs.records.size() &&
            n.ref < rs.records[x.ref].fields.size())
            return rs.records[x.ref].fields[n.ref].name;
        if (n.code == op::node_attribute && x.kind == type_kind::node && x.ref < rs.maps.size() &&
            n.ref < rs.maps[x.ref].attributes.size())
            return rs.maps[x.ref].attributes[n.ref].name;
        return "?";
    }

    std::string expr(id n) const {
        if (n >= rs.nodes.size()) return "<?>";
        const node& x = rs.nodes[n];
        const auto kids = children_of(rs, n);
        auto kid = [&](std::size_t i) { return i < kids.size() ? expr(kids[i]) : std::string("<?>"); };
        if (const char* sym = binary_symbol(x.code)) return "(" + kid(0) + " " + sym + " " + kid(1) + ")";
        switch (x.code) {
            case op::absent: return "_";
            case op::const_int: return std::to_string(x.value);
            case op::const_bool: return x.value ? "true" : "false";
            case op::const_string: return quoted(str(x.value));
            case op::const_member: case op::const_entity: case op::const_node: return constant(x.type, x.value);
            case op::dice: {
                if (x.ref >= rs.dice_terms.size()) return "?d?";
                const dice_term& d = rs.dice_terms[x.ref];
                if (d.low == 1) return std::to_string(d.count) + "d" + std::to_string(d.high);
                return std::to_string(d.count) + "d[" + std::to_string(d.low) + ".." + std::to_string(d.high) + "]";
            }
            case op::dice_count: {
                if (x.ref >= rs.dice_terms.size()) return "(?)d?";
                const dice_term& d = rs.dice_terms[x.ref];
                if (d.low == 1) return "(" + kid(0) + ")d" + std::to_string(d.high);
                return "(" + kid(0) + ")d[" + std::to_string(d.low) + ".." + std::to_string(d.high) + "]";
            }
            case op::range: return kid(0) + ".." + kid(1);
            case op::local: return local_name(x.ref);
            case op::global: return named(rs.slots, x.ref);
            case op::player_field: case op::entity_field: return kid(0) + "." + named(rs.slots, x.ref);
            case op::attribute: case op::record_field: case op::node_attribute:
                return kid(0) + "." + (kids.empty() ? "?" : field_name(x, kids[0]));
            case op::zone: return named(rs.zones, x.ref);
            case op::index: return kid(0) + "[" + kid(1) + "]";
            case op::option: return "option." + named(rs.options, x.ref);
            case op::type_members: return "all of " + type_name(rs, x.ref);
            case op::roll: return "roll " + named(rs.rolls, x.ref) + args(kids);
            case op::quantity: return named(rs.quantities, x.ref) + args(kids);
            case op::decide: return named(rs.decisions, x.ref) + args(kids);
            case op::lookup: return named(rs.tables, x.ref) + args(kids);
            case op::builtin: {
                const std::string b = x.ref <= static_cast<id>(last_builtin) ? name_of(static_cast<builtin>(x.ref)) : "?";
                if (x.ref <= static_cast<id>(last_builtin) && is_map_search(static_cast<builtin>(x.ref)) && kids.size() >= 2) {
                    std::string s = b + "(" + kid(0) + ", " + kid(1) + ", ";
                    const bool named = x.value >= 0 && static_cast<std::uint64_t>(x.value) < rs.quantities.size();
                    s += named ? rs.quantities[static_cast<std::size_t>(x.value)].name : "?";
                    if (kids.size() > 2) {
                        // pred(_, …, extra…): a `_` for each location the search supplies
                        const std::size_t extra = kids.size() - 2;
                        const std::size_t params = named ? rs.quantities[static_cast<std::size_t>(x.value)].param_count : extra;
                        s += "(";
                        for (std::size_t i = 0; i + extra < params; ++i) s += i ? ", _" : "_";
                        for (std::size_t i = 0; i < extra; ++i) s += ", " + kid(static_cast<std::uint32_t>(2 + i));
                        s += ")";
                    }
                    return s + ")";
                }
                if (kids.empty() && (x.ref == static_cast<id>(builtin::players) || x.ref == static_cast<id>(builtin::active_player)))
                    return b;
                return b + args(kids);
            }
            case op::neg: return "-" + kid(0);
            case op::not_: return "not " + kid(0);
            case op::cond: return "(if " + kid(0) + " then " + kid(1) + " else " + kid(2) + ")";
            case op::any: case op::all: case op::count: case op::sum: case op::min: case op::max:
                return std::string(name_of(x.code)) + "(" + local_name(x.ref) + " in " + kid(0) + " : " + kid(1) + ")";
            default: return stmt(n);
        }
    }

    std::string body(id n) const {
        if (n >= rs.nodes.size()) return "{ }";
        const node& x = rs.nodes[n];
        if (x.code != op::seq) return "{ " + stmt(n) + " }";
        std::string s = "{";
        for (id c : children_of(rs, n)) s += " " + stmt(c);
        return s + " }";
    }

    std::string stmt(id n) const {
        if (n >= rs.nodes.size()) return "<?>;";
        const node& x = rs.nodes[n];
        const auto kids = children_of(rs, n);
        auto kid = [&](std::size_t i) { return i < kids.size() ? expr(kids[i]) : std::string("<?>"); };
        auto present = [&](std::size_t i) { return i < kids.size() && rs.nodes[kids[i]].code != op::absent; };
        switch (x.code) {
            case op::seq: return body(n);
            case op::block: {
                std::string s = "block";
                if (x.ref < rs.blocks.size()) {
                    s = rs.blocks[x.ref].word;
                    if (!rs.blocks[x.ref].name.empty()) s += " " + rs.blocks[x.ref].name;
                    if (rs.blocks[x.ref].number != no_id) s += " numbered " + expr(rs.blocks[x.ref].number);
                }
                return s + " " + (kids.empty() ? "{ }" : body(kids[0]));
            }
            case op::let: return "let " + local_name(x.ref) + " = " + kid(0) + ";";
            case op::assign: return kid(0) + " = " + kid(1) + ";";
            case op::add_assign: return kid(0) + " += " + kid(1) + ";";
            case op::sub_assign: return kid(0) + " -= " + kid(1) + ";";
            case op::fix_roll: return kid(0) + " = " + kid(1) + ";";
            case op::if_: {
                std::string s = "if " + kid(0) + " " + (kids.size() > 1 ? body(kids[1]) : "{ }");
                if (present(2)) s += " else " + body(kids[2]);
                return s;
            }
            case op::for_each: {
                std::string s = "for each " + local_name(x.ref) + " in " + kid(0);
                if (present(1)) s += " from " + kid(1);
                return s + " " + (kids.size() > 2 ? body(kids[2]) : "{ }");
            }
            case op::repeat_until: return "repeat " + (kids.empty() ? "{ }" : body(kids[0])) + " until " + kid(1) + ";";
            case op::while_: return "while " + kid(0) + " " + (kids.size() > 1 ? body(kids[1]) : "{ }");
            case op::shuffle: return "shuffle " + kid(0) + ";";
            case op::draw: return "draw " + kid(0) + " from " + kid(1) + " to " + kid(2) + ";";
            case op::deal: return "deal " + kid(0) + " from " + kid(1) + " to " + kid(2) + ";";
            case op::move: return "move " + kid(0) + " from " + kid(1) + " to " + kid(2) + ";";
            case op::reshuffle:
                if (x.value == 1) return "move all from " + kid(0) + " to " + kid(1) + ";";
                return "reshuffle " + kid(0) + " into " + kid(1) + ";";
            case op::choose_one: case op::choose_subset: case op::choose_order: {
                std::string s = x.code == op::choose_one ? "choose " : x.code == op::choose_subset ? "choose subset " : "choose order ";
                s += local_name(x.ref) + (x.code == op::choose_one ? " in " : " of ") + kid(0);
                if (present(1)) s += " by " + kid(1);
                if (present(2)) s += " where " + kid(2);
                if (kids.size() > 4) s += (x.value == 1 ? " maximizing " : " minimizing ") + kid(4);
                return s + " " + (kids.size() > 3 ? body(kids[3]) : "{ }");
            }
            case op::may: {
                std::string s = "may";
                if (present(0)) s += " by " + kid(0);
                return s + " " + quoted(str(x.value)) + " " + (kids.size() > 1 ? body(kids[1]) : "{ }");
            }
            case op::do_action: return "do " + named(rs.actions, x.ref) + args(kids) + ";";
            case op::resolve: return "resolve " + named(rs.tables, x.ref) + args(kids) + ";";
            case op::emit: return "emit " + named(rs.events, x.ref) + args(kids) + ";";
            case op::call: return named(rs.procedures, x.ref) + args(kids) + ";";
            case op::end_game: {
                std::string s = "end game " + str(x.value);
                if (x.ref == 1) s += " at end of turn";
                if (x.ref == 2) s += " at end of round";
                return s + ";";
            }
            case op::end_turn: return "end turn;";
            case op::simultaneous: return "simultaneous " + (kids.empty() ? std::string("{ }") : body(kids[0]));
            case op::reveal: return "reveal;";
            default: return expr(n) + ";";
        }
    }
};

struct dumper {
    std::ostream& out;
    const ruleset& rs;

    std::string where(const source_pos& p) const {
        if (p.file >= rs.files.size()) return "?";
        return rs.files[p.file] + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
    }
    std::string anchors(const std::vector<anchor>& as) const {
        std::string s;
        for (const anchor& a : as) s += " §" + a.first + (a.last.empty() ? "" : "-" + a.last);
        return s;
    }
    // "[file:line:col layer §…]"
    std::string prov(const provenance& p) const {
        std::string s = "  [" + where(p.where);
        if (p.layer < rs.layers.size()) s += " " + rs.layers[p.layer].name;
        s += anchors(p.anchors);
        return s + "]";
    }
    std::string quoted(const std::string& s) const { return printer{rs, {}}.quoted(s); }
    std::string params(const std::vector<local>& ls, std::size_t count) const {
        std::string s = "(";
        for (std::size_t i = 0; i < count && i < ls.size(); ++i)
            s += (i ? ", " : "") + ls[i].name + ": " + type_name(rs, ls[i].type);
        return s + ")";
    }
    std::string node_text(id n, const std::vector<local>& frame) const {
        return n == no_id ? std::string("-") : printer{rs, frame}.expr(n);
    }
    std::string key(const key_range& k) const {
        std::string s = k.text.empty() ? "?" : k.text;
        s += " =";
        if (k.kind == key_range_kind::odds) return s + " " + std::to_string(k.lo) + ":" + std::to_string(k.hi);
        if (k.kind == key_range_kind::member) return s + " #" + std::to_string(k.lo);
        s += k.open_lo ? " .." : " " + std::to_string(k.lo) + "..";
        s += k.open_hi ? "" : std::to_string(k.hi);
        return s;
    }

    void run() const {
        out << "ruleset " << rs.name << " " << quoted(rs.title) << " players " << rs.min_players << ".." << rs.max_players
            << "\n";
        out << "source " << quoted(rs.source) << " sha256 " << quoted(rs.sha256) << "\n";
        if (!rs.upto.empty()) out << "upto " << rs.upto << "\n";
        for (const expansion& e : rs.expansions) {
            out << "expansion " << e.name << (e.selected ? " selected" : " not selected");
            for (std::size_t a = 0; a < e.after.size(); ++a) out << (a ? ", " : " after ") << e.after[a];
            out << " files";
            for (const std::string& f : e.files) out << " " << f;
            out << "\n";
        }
        for (const selected_option& o : rs.selected_options) out << "selected option " << o.name << " = " << o.value << "\n";
        for (const checker_setting& c : rs.checker) out << "checker " << c.name << " = " << c.value << "\n";
        for (std::size_t i = 0; i < rs.files.size(); ++i) out << "file " << i << " " << rs.files[i] << "\n";
        for (std::size_t i = 0; i < rs.layers.size(); ++i) {
            const layer& l = rs.layers[i];
            out << "layer " << i << " " << l.name << " : " << name_of(l.kind) << " files";
            for (id f : l.files) out << " " << (f < rs.files.size() ? rs.files[f] : "?");
            out << prov(l.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.sections.size(); ++i) {
            const section& s = rs.sections[i];
            out << "section " << i << " §" << s.first << (s.last.empty() ? "" : "-" + s.last) << " " << quoted(s.title)
                << " " << name_of(s.status) << prov(s.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.types.size(); ++i) out << "type " << i << " " << type_name(rs, static_cast<id>(i)) << "\n";
        for (std::size_t i = 0; i < rs.enums.size(); ++i) {
            const enum_def& e = rs.enums[i];
            out << "enum " << i << " " << e.name << (e.synthesised ? " (option values)" : "") << " {";
            for (std::size_t m = 0; m < e.members.size(); ++m)
                out << (m ? ", " : " ") << e.members[m].name << (e.members[m].label.empty() ? "" : " " + quoted(e.members[m].label));
            out << " }" << prov(e.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.aliases.size(); ++i)
            out << "alias " << i << " " << rs.aliases[i].name << " = " << type_name(rs, rs.aliases[i].type)
                << prov(rs.aliases[i].prov) << "\n";
        for (std::size_t i = 0; i < rs.records.size(); ++i) {
            const record& r = rs.records[i];
            out << "record " << i << " " << r.name << prov(r.prov) << "\n";
            for (const field& f : r.fields) {
                out << "  field " << f.name << ": " << type_name(rs, f.type);
                if (f.has_default) out << " = " << printer{rs, {}}.constant(f.type, f.default_value);
                out << prov(f.prov) << "\n";
            }
        }
        for (std::size_t i = 0; i < rs.slots.size(); ++i) {
            const slot& s = rs.slots[i];
            out << "slot " << i << " " << name_of(s.scope);
            if (s.scope == slot_scope::per_entity && s.entity_kind < rs.entity_kinds.size())
                out << " " << rs.entity_kinds[s.entity_kind].name;
            if (s.scope == slot_scope::per_node && s.map < rs.maps.size()) out << " " << rs.maps[s.map].name;
            out << " " << s.name << ": " << type_name(rs, s.type) << (s.flag ? " flag" : "") << (s.counter ? " counter" : "") << (s.hidden ? " hidden" : "")
                << (s.hidden_by != no_id ? " by " + rs.slots[s.hidden_by].name : "")
                << (s.hidden_if != no_id ? " if option." + rs.options[s.hidden_if].name : "")
                << (s.hidden_unless != no_id ? " unless " + rs.slots[s.hidden_unless].name : "");
            id element_type = s.type;
            if (element_type < rs.types.size() && rs.types[element_type].kind == type_kind::map_of)
                element_type = rs.types[element_type].value;
            out << " = " << printer{rs, {}}.constant(element_type, s.initial) << prov(s.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.entity_kinds.size(); ++i) {
            const entity_kind& k = rs.entity_kinds[i];
            out << (k.pieces ? "pieces " : "cards ") << i << " " << k.name << " of "
                << (k.record < rs.records.size() ? rs.records[k.record].name : "?") << " entities " << k.first_entity
                << "+" << k.entity_count << (k.standin != no_id ? " standin" : "") << prov(k.prov) << "\n";
            for (std::uint32_t e = k.first_entity; e < k.first_entity + k.entity_count && e < rs.entities.size(); ++e) {
                const entity& x = rs.entities[e];
                out << "  entity " << e << " " << x.name << " " << quoted(x.display) << " x" << x.count << " {";
                if (k.record < rs.records.size()) {
                    const record& r = rs.records[k.record];
                    for (std::size_t f = 0; f < r.fields.size() && f < x.values.size(); ++f)
                        out << (f ? ", " : " ") << r.fields[f].name << " = " << printer{rs, {}}.constant(r.fields[f].type, x.values[f]);
                }
                out << " }" << prov(x.prov) << "\n";
            }
        }
        for (std::size_t i = 0; i < rs.zones.size(); ++i) {
            const zone& z = rs.zones[i];
            out << "zone " << i << " " << z.name << " :" << (z.per_player ? " per-player" : "")
                << (z.map < rs.maps.size() ? " per-" + rs.maps[z.map].name : std::string()) << (z.ordered ? " ordered" : "")
                << " " << name_of(z.vis) << " of " << (z.entity_kind < rs.entity_kinds.size() ? rs.entity_kinds[z.entity_kind].name : "?")
                << prov(z.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.maps.size(); ++i) {
            const map& m = rs.maps[i];
            out << "map " << i << " " << m.name << " : " << name_of(m.kind) << (m.standin != no_id ? " standin" : "") << prov(m.prov) << "\n";
            for (const map_attribute& a : m.attributes) out << "  attribute " << a.name << ": " << type_name(rs, a.type) << "\n";
            for (std::size_t n = 0; n < m.nodes.size(); ++n) {
                const map_node& x = m.nodes[n];
                out << "  node " << n << " " << x.name;
                if (!x.display.empty()) out << " " << quoted(x.display);
                if (x.terrain >= 0 && m.terrain_enum < rs.enums.size() &&
                    static_cast<std::size_t>(x.terrain) < rs.enums[m.terrain_enum].members.size())
                    out << " : " << rs.enums[m.terrain_enum].members[static_cast<std::size_t>(x.terrain)].name;
                for (std::size_t a = 0; a < x.values.size() && a < m.attributes.size(); ++a)
                    out << " " << m.attributes[a].name << "=" << printer{rs, {}}.constant(m.attributes[a].type, x.values[a]);
                out << " neighbours";
                for (id nb : x.neighbours) out << " " << nb;
                out << prov(x.prov) << "\n";
            }
            for (const map_edge& e : m.edges) {
                out << "  edge " << e.a << (e.directed ? " -> " : " -- ") << e.b << " :";
                for (std::int64_t k : e.kinds) {
                    if (m.edge_enum < rs.enums.size() && k >= 0 && static_cast<std::size_t>(k) < rs.enums[m.edge_enum].members.size())
                        out << " " << rs.enums[m.edge_enum].members[static_cast<std::size_t>(k)].name;
                }
                out << prov(e.prov) << "\n";
            }
        }
        for (std::size_t i = 0; i < rs.rolls.size(); ++i) {
            const roll& r = rs.rolls[i];
            out << "roll " << i << " " << r.name << params(r.locals, r.param_count) << " = " << node_text(r.expr, r.locals);
            if (r.linear) {
                out << " range " << r.dist.min << ".." << r.dist.max;
                if (!r.dist.weights.empty()) {
                    out << " weights";
                    for (std::uint64_t w : r.dist.weights) out << " " << w;
                    out << " /" << r.dist.total;
                }
            }
            out << prov(r.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.quantities.size(); ++i) {
            const derived& d = rs.quantities[i];
            out << (d.predicate ? "predicate " : "quantity ") << i << " " << d.name << params(d.locals, d.param_count)
                << " : " << type_name(rs, d.result) << " = " << node_text(d.expr, d.locals) << prov(d.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.decisions.size(); ++i) {
            const decision& d = rs.decisions[i];
            out << "decision " << i << " " << d.name << params(d.params, d.params.size()) << " : " << type_name(rs, d.result)
                << (d.total ? " total" : "") << prov(d.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.actions.size(); ++i) {
            const action& a = rs.actions[i];
            out << "action " << i << " " << a.name << params(a.locals, a.param_count) << " when " << node_text(a.guard, a.locals)
                << " " << node_text(a.body, a.locals) << prov(a.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.events.size(); ++i)
            out << "event " << i << " " << rs.events[i].name << params(rs.events[i].params, rs.events[i].params.size())
                << prov(rs.events[i].prov) << "\n";
        for (std::size_t i = 0; i < rs.procedures.size(); ++i) {
            const procedure& p = rs.procedures[i];
            out << "procedure " << i << " " << p.name << params(p.locals, p.param_count) << " " << node_text(p.body, p.locals)
                << prov(p.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.sequences.size(); ++i) {
            const sequence& s = rs.sequences[i];
            out << "sequence " << i << " " << s.name << " " << node_text(s.body, s.locals) << prov(s.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.blocks.size(); ++i) {
            const block& b = rs.blocks[i];
            out << "block " << i << " " << b.word << " " << b.path;
            if (b.parent != no_id) out << " in " << b.parent;
            out << prov(b.prov) << "\n";
        }
        auto named = [](const auto& table, id i) { return i < table.size() ? table[i].name : "?" + std::to_string(i); };
        for (std::size_t i = 0; i < rs.card_events.size(); ++i) {
            const card_event& e = rs.card_events[i];
            out << "card_event " << i << " of " << named(rs.entities, e.card) << " procedure " << e.procedure << " "
                << name_of(e.duration);
            if (e.flag != no_id) out << " flag " << e.flag;
            for (id r : e.lifts) out << " lifts " << named(rs.rules, r);
            for (id r : e.rules) out << " rule " << named(rs.rules, r);
            out << prov(e.prov) << "\n";
        }
        for (id d : rs.event_dispatchers) out << "event_dispatcher " << named(rs.procedures, d) << "\n";
        for (const event_precedence& o : rs.events_outrank) {
            out << "events outrank rules";
            for (std::size_t k = 0; k < o.except.size(); ++k) out << (k ? ", " : " except ") << named(rs.entities, o.except[k]);
            out << prov(o.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.tables.size(); ++i) {
            const table& t = rs.tables[i];
            out << "table " << i << " " << t.name << params(t.locals, t.param_count) << " outcome "
                << (t.outcome_type == no_id ? std::string("-") : type_name(rs, t.outcome_type))
                << (t.printing_of != no_id ? " printing of " + named(rs.tables, t.printing_of) : std::string())
                << (t.standin != no_id ? " standin" : "") << prov(t.prov) << "\n";
            for (const table_key& k : t.keys) {
                out << "  key " << name_of(k.source) << " " << node_text(k.expr, t.locals) << " : " << type_name(rs, k.type);
                if (k.round != rounding::none) out << " round " << name_of(k.round);
                if (k.has_clamp) out << " clamp " << k.clamp_lo.text << ".." << k.clamp_hi.text;
                if (k.shift != no_id) out << " shift " << node_text(k.shift, t.locals) << (k.shift_clamp ? " clamp" : "");
                out << "\n";
            }
            for (const key_range& c : t.columns) out << "  column " << key(c) << "\n";
            const std::size_t columns = std::max<std::size_t>(1, t.columns.size());
            for (std::size_t r = 0; r < t.rows.size(); ++r) {
                out << "  row " << (t.rows[r].natural ? "natural " : "") << key(t.rows[r].key) << (t.rows[r].label.empty() ? "" : " " + quoted(t.rows[r].label))
                    << prov(t.rows[r].prov) << "\n";
                for (std::size_t c = 0; c < columns && r * columns + c < t.cells.size(); ++c) {
                    const table_cell& cell = t.cells[r * columns + c];
                    out << "    cell";
                    if (cell.has_outcome) out << " " << printer{rs, {}}.constant(t.outcome_type, cell.outcome);
                    if (cell.effects != no_id) out << " " << node_text(cell.effects, t.locals);
                    out << "\n";
                }
            }
            auto map_text = [&](const char* what, const key_map& m) {
                out << "  " << what << " " << name_of(m.kind);
                if (m.kind == key_range_kind::integer) out << " " << m.min << ".." << m.max << " below " << m.below << " above " << m.above;
                out << " [";
                for (std::size_t d = 0; d < m.dense.size(); ++d) out << (d ? " " : "") << m.dense[d];
                out << "]\n";
            };
            map_text("row-map", t.row_map);
            if (!t.columns.empty()) map_text("column-map", t.column_map);
            if (!t.natural_map.dense.empty()) map_text("natural-map", t.natural_map);
        }
        for (std::size_t i = 0; i < rs.options.size(); ++i) {
            const option& o = rs.options[i];
            out << "option " << i << " " << o.name << " :";
            for (std::size_t v = 0; v < o.values.size(); ++v) out << (v ? " |" : "") << " " << printer{rs, {}}.constant(o.type, o.values[v]);
            out << " default " << printer{rs, {}}.constant(o.type, o.values.empty() ? 0 : o.values[std::min<std::size_t>(o.default_index, o.values.size() - 1)])
                << " selected " << printer{rs, {}}.constant(o.type, o.values.empty() ? 0 : o.values[std::min<std::size_t>(o.selected_index, o.values.size() - 1)])
                << prov(o.prov) << "\n";
        }
        for (std::size_t i = 0; i < rs.missing_data.size(); ++i)
            out << "missing " << i << " " << rs.missing_data[i].name << " " << quoted(rs.missing_data[i].what)
                << (rs.missing_data[i].kind == element_kind::none
                        ? std::string()
                        : std::string(" on ") + name_of(rs.missing_data[i].kind) + " " + std::to_string(rs.missing_data[i].element) +
                              (rs.missing_data[i].field.empty() ? "" : " field " + rs.missing_data[i].field))
                << prov(rs.missing_data[i].prov) << "\n";
        for (std::size_t i = 0; i < rs.accepts.size(); ++i)
            out << "accept " << i << " " << rs.accepts[i].kind << " " << quoted(rs.accepts[i].subject) << " "
                << (rs.accepts[i].side.empty() ? "" : rs.accepts[i].side + " ")
                << quoted(rs.accepts[i].reason) << prov(rs.accepts[i].prov) << "\n";
        for (std::size_t i = 0; i < rs.standins.size(); ++i)
            out << "standin " << i << " " << name_of(rs.standins[i].kind) << " " << rs.standins[i].element
                << (rs.standins[i].field.empty() ? "" : " field " + rs.standins[i].field) << " "
                << quoted(rs.standins[i].why) << prov(rs.standins[i].prov) << "\n";
        for (std::size_t i = 0; i < rs.rules.size(); ++i) {
            const rule& r = rs.rules[i];
            out << "rule " << i << " " << name_of(r.kind) << " " << r.name;
            if (r.target != target_kind::none) {
                out << " -> " << name_of(r.target) << " ";
                switch (r.target) {
                    case target_kind::roll: out << printer{rs, {}}.named(rs.rolls, r.target_id); break;
                    case target_kind::quantity: out << printer{rs, {}}.named(rs.quantities, r.target_id); break;
                    case target_kind::decision: out << printer{rs, {}}.named(rs.decisions, r.target_id); break;
                    case target_kind::action: out << printer{rs, {}}.named(rs.actions, r.target_id); break;
                    case target_kind::event: out << printer{rs, {}}.named(rs.events, r.target_id); break;
                    case target_kind::none: break;
                }
                out << params(r.locals, r.param_count);
            }
            if (r.kind == rule_kind::chances) out << params(r.locals, r.param_count);
            if (!r.overrides.empty()) {
                out << " overrides";
                for (id o : r.overrides) out << " " << printer{rs, {}}.named(rs.rules, o);
            }
            out << prov(r.prov) << "\n";
            if (r.amount != no_id)
                out << (r.mod == modifier_kind::set        ? "  set "
                        : r.mod == modifier_kind::at_most  ? "  at most "
                        : r.mod == modifier_kind::at_least ? "  at least "
                                                           : "  amount ")
                    << node_text(r.amount, r.locals) << "\n";
            if (r.value != no_id) out << "  value " << node_text(r.value, r.locals) << "\n";
            if (r.guard != no_id) out << "  when " << node_text(r.guard, r.locals) << "\n";
            if (r.body != no_id) out << "  body " << node_text(r.body, r.locals) << "\n";
        }
        for (std::size_t i = 0; i < rs.groups.size(); ++i) {
            const rule_group& g = rs.groups[i];
            out << "group " << i << " " << name_of(g.target) << " " << g.target_id << " rules";
            for (id r : g.rules) out << " " << printer{rs, {}}.named(rs.rules, r);
            for (const override_edge& e : g.edges)
                out << " | " << printer{rs, {}}.named(rs.rules, e.higher) << " > " << printer{rs, {}}.named(rs.rules, e.lower)
                    << " (" << name_of(e.reason) << ")";
            out << "\n";
        }
        for (std::size_t i = 0; i < rs.errata.size(); ++i) {
            const errata_op& e = rs.errata[i];
            out << "errata " << i << " " << name_of(e.kind) << " " << quoted(e.title) << " " << name_of(e.op)
                << (e.target.empty() ? "" : " " + e.target) << " -> " << name_of(e.result_kind) << " "
                << (e.result == no_id ? std::string("-") : std::to_string(e.result)) << prov(e.prov) << "\n";
        }
    }
};

}  // namespace

void print(std::ostream& out, const ruleset& rs) { dumper{out, rs}.run(); }

std::string print_node(const ruleset& rs, id node, const std::vector<local>& frame) {
    return printer{rs, frame}.expr(node);
}

}  // namespace wp::ir

namespace wp::ir {

std::string constant_text(const ruleset& rs, id type, std::int64_t value) {
    static const std::vector<local> no_frame;
    return printer{rs, no_frame}.constant(type, value);
}

}  // namespace wp::ir
