// Compiling IR expression nodes into game::code (see compile.hpp). Every specialisation keeps
// the interpreter's meaning: the same operands in the same order, the same errors (the
// evaluator reports them through the IR node, which has the same index).
#include "compile.hpp"

#include <cstdint>

namespace wp::engine {

using ir::id;
using ir::op;

namespace {

ir::type_kind kind_of(const ir::ruleset& rs, id n) {
    const id t = rs.nodes[n].type;
    return t == ir::no_id ? ir::type_kind::void_ : rs.types[t].kind;
}

game::compiled_node compile_node(const game& g, id n) {
    const ir::ruleset& rs = g.ruleset();
    const ir::node& nd = rs.nodes[n];
    auto child = [&](std::uint32_t i) { return rs.children[nd.first_child + i]; };
    auto make = [](xop o) {
        game::compiled_node c;
        c.code = static_cast<std::uint8_t>(o);
        return c;
    };
    auto binary = [&](xop o) {
        game::compiled_node c = make(o);
        c.a = child(0);
        c.b = child(1);
        return c;
    };
    auto constant = [&](std::int64_t v) {
        game::compiled_node c = make(xop::constant);
        c.imm = v;
        return c;
    };
    const bool is_map = kind_of(rs, n) == ir::type_kind::map_of;
    switch (nd.code) {
        case op::local: {
            game::compiled_node c = make(xop::local);
            c.imm = nd.ref;
            return c;
        }
        case op::const_int:
        case op::const_bool:
        case op::const_string:
        case op::const_member:
        case op::const_node: return constant(nd.value);
        case op::const_entity:
            if (nd.value >= 0 && static_cast<std::size_t>(nd.value) >= g.entity_first.size()) break;
            return constant(nd.value < 0 ? -1 : static_cast<std::int64_t>(g.entity_first[static_cast<std::size_t>(nd.value)]));
        case op::option:
            if (nd.ref >= g.option_value.size()) break;
            return constant(g.option_value[nd.ref]);
        case op::zone:
            if (nd.ref >= g.zone_first.size()) break;
            return constant(g.zone_first[nd.ref]);
        case op::global: {
            game::compiled_node c = make(is_map ? xop::constant : xop::value_at);
            c.imm = g.slots[nd.ref].offset;
            return c;
        }
        case op::player_field:
        case op::entity_field: {
            const ir::slot& sl = rs.slots[nd.ref];
            game::compiled_node c;
            if (sl.scope == ir::slot_scope::per_player && nd.code == op::player_field) c = make(xop::player_value);
            else if (sl.scope == ir::slot_scope::per_entity) c = make(xop::entity_value), c.c = g.kind_first.at(sl.entity_kind);
            else if (sl.scope == ir::slot_scope::per_node) c = make(xop::entity_value), c.c = 0;
            else break;
            c.a = child(0);
            c.imm = g.slots[nd.ref].offset;
            c.x = g.slots[nd.ref].width;
            c.flag = is_map ? 1 : 0;
            return c;
        }
        case op::attribute: {
            game::compiled_node c = make(xop::attribute);
            c.a = child(0);
            c.x = nd.ref;
            return c;
        }
        case op::index: {
            const ir::type& mt = rs.types[rs.nodes[child(0)].type];
            if (mt.kind == ir::type_kind::map_of && rs.types[mt.value].kind == ir::type_kind::zone) {
                game::compiled_node c = binary(xop::index_zone);
                if (rs.types[mt.key].kind == ir::type_kind::node) {  // a per-location zone: flag 1, x its locations
                    c.flag = 1;
                    c.x = static_cast<std::uint32_t>(rs.maps.at(rs.types[mt.key].ref).nodes.size());
                }
                return c;
            }
            const op base = rs.nodes[child(0)].code;
            if (is_map || (base != op::global && base != op::player_field && base != op::entity_field)) break;
            game::compiled_node c = binary(xop::index_value);
            const ir::type_kind key = rs.types[mt.key].kind;
            c.x = key == ir::type_kind::player || key == ir::type_kind::entity ? g.key_count(mt.key) : 1u << 30;
            c.imm = g.key_first(mt.key);
            return c;
        }
        case op::neg:
        case op::not_: {
            game::compiled_node c = make(nd.code == op::neg ? xop::neg : xop::not_);
            c.a = child(0);
            return c;
        }
        case op::add: return binary(xop::add);
        case op::sub: return binary(xop::sub);
        case op::mul: return binary(xop::mul);
        case op::lt: return binary(xop::lt);
        case op::le: return binary(xop::le);
        case op::gt: return binary(xop::gt);
        case op::ge: return binary(xop::ge);
        case op::and_: return binary(xop::and_);
        case op::or_: return binary(xop::or_);
        case op::eq:
        case op::ne: {
            const bool by_entity = rs.nodes[child(0)].code == op::const_entity || rs.nodes[child(1)].code == op::const_entity;
            if (nd.code == op::eq) return binary(by_entity ? xop::eq_entity : xop::eq);
            return binary(by_entity ? xop::ne_entity : xop::ne);
        }
        case op::cond: {
            game::compiled_node c = binary(xop::cond);
            c.c = child(2);
            return c;
        }
        case op::in: {
            if (kind_of(rs, child(1)) != ir::type_kind::zone) break;
            game::compiled_node c = binary(xop::in_zone);
            c.flag = rs.nodes[child(0)].code == op::const_entity ? 1 : 0;
            return c;
        }
        case op::any:
        case op::all:
        case op::count:
        case op::sum:
        case op::min:
        case op::max: {
            if (kind_of(rs, child(0)) != ir::type_kind::zone) break;
            game::compiled_node c = binary(xop::zone_aggregate);
            c.x = nd.ref;
            c.flag = static_cast<std::uint8_t>(nd.code);
            return c;
        }
        case op::builtin: {
            const auto b = static_cast<ir::builtin>(nd.ref);
            if ((b == ir::builtin::count || b == ir::builtin::size) && nd.child_count == 1) {
                const ir::type_kind k = kind_of(rs, child(0));
                if (k == ir::type_kind::integer) {
                    game::compiled_node c = make(xop::same);
                    c.a = child(0);
                    return c;
                }
                if (k == ir::type_kind::zone) {
                    game::compiled_node c = make(xop::zone_size);
                    c.a = child(0);
                    return c;
                }
            }
            if (b == ir::builtin::top && nd.child_count == 1 && kind_of(rs, child(0)) == ir::type_kind::zone) {
                game::compiled_node c = make(xop::zone_top);
                c.a = child(0);
                return c;
            }
            break;
        }
        case op::quantity: {
            const bool tabulated = nd.ref < g.quantity_tables.size() && !g.quantity_tables[nd.ref].values.empty();
            if (tabulated && nd.child_count >= 1 && nd.child_count <= 3 &&
                g.quantity_tables[nd.ref].sizes.size() == nd.child_count) {
                game::compiled_node c = make(xop::table_quantity);
                c.a = child(0);
                if (nd.child_count > 1) c.b = child(1);
                if (nd.child_count > 2) c.c = child(2);
                c.flag = static_cast<std::uint8_t>(nd.child_count);
                c.x = nd.ref;
                return c;
            }
            return make(xop::call);
        }
        case op::roll:
        case op::decide:
        case op::lookup: return make(xop::call);
        default: break;
    }
    return make(xop::generic);
}

// The number of node operands (a, b, c) an operation reads.
unsigned operand_count(const game::compiled_node& c) {
    switch (static_cast<xop>(c.code)) {
        case xop::player_value:
        case xop::entity_value:
        case xop::attribute:
        case xop::neg:
        case xop::not_:
        case xop::same:
        case xop::zone_size:
        case xop::zone_top: return 1;
        case xop::index_value:
        case xop::index_zone:
        case xop::add:
        case xop::sub:
        case xop::mul:
        case xop::lt:
        case xop::le:
        case xop::gt:
        case xop::ge:
        case xop::and_:
        case xop::or_:
        case xop::eq:
        case xop::ne:
        case xop::eq_entity:
        case xop::ne_entity:
        case xop::in_zone:
        case xop::zone_aggregate: return 2;
        case xop::cond: return 3;
        case xop::table_quantity: return c.flag;
        default: return 0;
    }
}

}  // namespace

namespace {

// Appends the statements of list `n` to out, splicing in nested lists and blocks other than
// `turn` (which needs a frame: its start is traced, its end may end the game); a spliced block
// stays in the list before its statements, as the header the account prints.
void flatten(const game& g, id n, std::vector<id>& out) {
    const ir::ruleset& rs = g.ruleset();
    const ir::node& nd = rs.nodes[n];
    for (std::uint32_t i = 0; i < nd.child_count; ++i) {
        const id c = rs.children[nd.first_child + i];
        const ir::node& cn = rs.nodes[c];
        if (cn.code == op::seq) {
            flatten(g, c, out);
        } else if (g.spliced(c)) {
            out.push_back(c);  // its header for the account (interp::statement), then its statements
            flatten(g, rs.children[cn.first_child], out);
        } else {
            out.push_back(c);
        }
    }
}

}  // namespace

void compile_expressions(game& g) {
    const ir::ruleset& rs = g.ruleset();
    std::vector<game::compiled_node> code(rs.nodes.size());
    for (id n = 0; n < rs.nodes.size(); ++n) code[n] = compile_node(g, n);
    // Operands that are leaves are read in place (compile.hpp, xleaf): first locals, constants
    // and global slots; then attributes, player slots and player zones read through a local
    // (whose own operand the first pass made a local leaf).
    g.code = code;
    auto fuse = [&](game::compiled_node& c, unsigned i, std::uint32_t& field, const game::compiled_node& k, bool second) {
        xleaf leaf = xleaf::node;
        std::uint32_t payload = static_cast<std::uint32_t>(k.imm);
        const bool of_local = (k.leaf & 7u) == static_cast<unsigned>(xleaf::local) && k.a < 256;
        switch (static_cast<xop>(k.code)) {
            case xop::local:
                if (!second) leaf = xleaf::local;
                break;
            case xop::value_at:
                if (!second) leaf = xleaf::value;
                break;
            case xop::constant:
                if (!second && k.imm >= INT32_MIN && k.imm <= INT32_MAX) leaf = xleaf::constant;
                break;
            case xop::attribute:
                if (second && of_local && k.x < (1u << 24)) leaf = xleaf::local_attribute, payload = k.x << 8 | k.a;
                break;
            case xop::player_value:
                if (second && of_local && k.flag == 0 && k.x == 1 && k.imm >= 0 && k.imm < (1 << 24))
                    leaf = xleaf::local_player_value, payload = static_cast<std::uint32_t>(k.imm) << 8 | k.a;
                break;
            case xop::index_zone:
                if (second && k.flag == 0 && (k.leaf & 7u) == static_cast<unsigned>(xleaf::constant) && k.a < (1u << 24) &&
                    ((k.leaf >> 3) & 7u) == static_cast<unsigned>(xleaf::local) && k.b < 256)
                    leaf = xleaf::local_player_zone, payload = k.a << 8 | k.b;
                break;
            default: break;
        }
        if (leaf == xleaf::node) return;
        field = payload;
        c.leaf = static_cast<std::uint16_t>(c.leaf | (static_cast<unsigned>(leaf) << (3 * i)));
    };
    for (game::compiled_node& c : g.code) {
        std::uint32_t* fields[3] = {&c.a, &c.b, &c.c};
        for (unsigned i = 0; i < operand_count(c); ++i) fuse(c, i, *fields[i], code[*fields[i]], false);
    }
    for (game::compiled_node& c : g.code) {
        std::uint32_t* fields[3] = {&c.a, &c.b, &c.c};
        for (unsigned i = 0; i < operand_count(c); ++i)
            if (((c.leaf >> (3 * i)) & 7u) == static_cast<unsigned>(xleaf::node))
                fuse(c, i, *fields[i], g.code[*fields[i]], true);
    }
    g.flat_statements.clear();
    for (id n = 0; n < rs.nodes.size(); ++n) {
        if (rs.nodes[n].code != op::seq) continue;
        g.code[n].a = static_cast<std::uint32_t>(g.flat_statements.size());
        flatten(g, n, g.flat_statements);
        g.code[n].b = static_cast<std::uint32_t>(g.flat_statements.size()) - g.code[n].a;
    }
}

}  // namespace wp::engine
