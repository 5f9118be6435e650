// The interpreter (interp.hpp): expressions. Sets (a zone, the players, a type's members, a
// chosen list; map sets are in maps.cpp), storage addresses, and the evaluator: the compiled
// form of each node (compile.hpp) with its in-place zone reads and tabulated quantities, the IR
// interpreter for the rest (eval_node), aggregates and builtins. Expressions never suspend and
// evaluate their operands left to right. The hot path, eval, stays in this one file with the
// operand reads it calls (arg, in the header).
#include "interp.hpp"

namespace wp::engine {

// ------------------------------------------------------------------ sets

// Pushes the elements of set expression `n` onto scratch; returns the start index.
std::size_t interp::push_set(id n, std::uint32_t fb) {
    const std::size_t start = s.scratch_.size();
    const ir::node& nd = N(n);
    const ir::type_kind k = kind_of(n);
    if (k == ir::type_kind::zone) {
        const std::int64_t zi = eval(n, fb);
        if (zi < 0) fail(n, "no zone");
        const auto z = static_cast<std::size_t>(zi);
        const std::int32_t* first = s.contents_.data() + g.zone_capacity_offset[z];
        s.scratch_.insert(s.scratch_.end(), first, first + s.zone_size_[z]);
        return start;
    }
    if (nd.code == op::builtin) {
        const auto b = static_cast<ir::builtin>(nd.ref);
        if (b == ir::builtin::players) {
            for (int p = 0; p < g.players(); ++p) s.scratch_.push_back(p);
            return start;
        }
        if (b == ir::builtin::opponents) {
            const std::int64_t p = eval(child(n, 0), fb);
            for (int i = 1; i < g.players(); ++i) s.scratch_.push_back((p + i) % g.players());
            return start;
        }
        if (b == ir::builtin::neighbours || b == ir::builtin::hexside) {
            map_set(n, fb, start);
            return start;
        }
    }
    if (k == ir::type_kind::list_of && (nd.code == op::global || nd.code == op::player_field || nd.code == op::entity_field)) {
        // A stored list: its length, then its members (game::slots).
        const std::uint32_t a = addr(n, fb);
        const std::int64_t* at = s.values_.data() + a;
        s.scratch_.insert(s.scratch_.end(), at + 1, at + 1 + at[0]);
        return start;
    }
    if (nd.code == op::local && k == ir::type_kind::list_of) {
        // A list chosen by `choose subset|order`: a handle into the loop store.
        const std::int64_t h = s.locals_[fb + nd.ref];
        if (h < 0) fail(n, "no list chosen yet");
        const auto off = static_cast<std::size_t>(h >> 24);
        const auto len = static_cast<std::size_t>(h & 0xFFFFFF);
        for (std::size_t i = 0; i < len; ++i) s.scratch_.push_back(s.loop_store_[off + i]);
        return start;
    }
    if (nd.code == op::range) {
        // lo..hi: the compiler bounded both ends (the element type's span); a parameter given
        // a value outside its type can reach past it, which stops the game.
        const std::int64_t lo = eval(child(n, 0), fb);
        const std::int64_t hi = eval(child(n, 1), fb);
        const ir::type& el = rs.types.at(rs.types.at(nd.type).value);
        if (lo > hi) return start;
        if (lo < el.lo || hi > el.hi)
            fail(n, "the range " + std::to_string(lo) + ".." + std::to_string(hi) + " reaches past " + std::to_string(el.lo) +
                        ".." + std::to_string(el.hi) + ", the span its ends can have (" + g.statement_owner(n) + ")");
        for (std::int64_t v = lo; v <= hi; ++v) s.scratch_.push_back(v);
        return start;
    }
    if (nd.code == op::type_members) {
        const ir::type& t = rs.types.at(nd.ref);
        switch (t.kind) {
            case ir::type_kind::player:
                for (int p = 0; p < g.players(); ++p) s.scratch_.push_back(p);
                break;
            case ir::type_kind::enumeration:
                for (std::size_t m = 0; m < rs.enums.at(t.ref).members.size(); ++m)
                    s.scratch_.push_back(static_cast<std::int64_t>(m));
                break;
            case ir::type_kind::entity:
                for (std::uint32_t i = 0; i < g.kind_count.at(t.ref); ++i) s.scratch_.push_back(g.kind_first[t.ref] + i);
                break;
            case ir::type_kind::node:
                for (std::size_t m = 0; m < rs.maps.at(t.ref).nodes.size(); ++m)
                    s.scratch_.push_back(static_cast<std::int64_t>(m));
                break;
            default: fail(n, "cannot list the members of " + ir::type_name(rs, nd.ref));
        }
        return start;
    }
    fail(n, std::string("unsupported set expression ") + ir::name_of(nd.code));
}

// A zone instance named by an expression of zone type.
std::int64_t interp::eval_zone(id n, std::uint32_t fb) {
    const std::int64_t zi = eval(n, fb);
    if (zi < 0 || static_cast<std::size_t>(zi) >= s.zone_size_.size()) fail(n, "no zone");
    return zi;
}

std::size_t interp::set_size(id n, std::uint32_t fb) {
    if (kind_of(n) == ir::type_kind::zone) return s.zone_size_[static_cast<std::size_t>(eval_zone(n, fb))];
    const std::size_t start = push_set(n, fb);
    const std::size_t size = s.scratch_.size() - start;
    cut(s.scratch_, start);
    return size;
}

// ------------------------------------------------------------------ storage addresses

std::uint32_t interp::slot_addr(id n, id slot, std::int64_t index) const {
    const ir::slot& sl = rs.slots[slot];
    const game::slot_layout& l = g.slots[slot];
    std::int64_t copy = 0;
    switch (sl.scope) {
        case ir::slot_scope::global: break;
        case ir::slot_scope::per_player:
            if (index < 0 || index >= g.players()) fail(n, "slot " + sl.name + " of no player");
            copy = index;
            break;
        case ir::slot_scope::per_entity:
            if (index < 0) fail(n, "slot " + sl.name + " of no " + rs.entity_kinds.at(sl.entity_kind).name);
            copy = index - g.kind_first.at(sl.entity_kind);
            break;
        case ir::slot_scope::per_node:
            if (index < 0) fail(n, "slot " + sl.name + " of no location");
            copy = index;
            break;
    }
    return l.offset + static_cast<std::uint32_t>(copy) * l.width;
}

// The address in values_ of an assignable expression (or of a map's first element).
std::uint32_t interp::addr(id n, std::uint32_t fb) {
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::global: return slot_addr(n, nd.ref, 0);
        case op::player_field:
        case op::entity_field: return slot_addr(n, nd.ref, eval(child(n, 0), fb));
        case op::index: {
            const std::uint32_t base = addr(child(n, 0), fb);
            const ir::type& mt = rs.types[N(child(n, 0)).type];
            const ir::type_kind key = rs.types[mt.key].kind;
            const std::int64_t k = eval(child(n, 1), fb) - g.key_first(mt.key);
            // player and entity keys can be out of range (none, a seat not playing); the types keep the others in
            const std::int64_t width =
                key == ir::type_kind::player || key == ir::type_kind::entity ? std::int64_t{g.key_count(mt.key)} : 1 << 30;
            if (k < 0 || k >= width) fail(n, "map key out of range");
            return base + static_cast<std::uint32_t>(k);
        }
        default: fail(n, std::string("not assignable: ") + ir::name_of(nd.code));
    }
}

id interp::slot_of(id n) const {
    const ir::node& nd = N(n);
    if (nd.code == op::index) return slot_of(child(n, 0));
    return nd.ref;
}

// ------------------------------------------------------------------ the evaluator

// Evaluates the arguments (children [from, count)) of node n into a small buffer.
std::size_t interp::eval_args(id n, std::uint32_t fb, std::int64_t* out, std::uint32_t from) {
    const std::uint32_t c = N(n).child_count;
    if (c - from > 16) fail(n, "too many arguments");
    for (std::uint32_t i = from; i < c; ++i) out[i - from] = eval(child(n, i), fb);
    return c - from;
}

// Calls (rolls, quantities, decisions, table lookups): out of eval() so that its frame stays
// small (each needs an argument buffer).
std::int64_t interp::eval_call(id n, std::uint32_t fb) {
    std::int64_t args[16];
    const std::size_t c = eval_args(n, fb, args);
    return call_with(n, args, c);
}

std::int64_t interp::call_with(id n, const std::int64_t* args, std::size_t c) {
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::roll: return roll(nd.ref, args, c);
        case op::quantity: return call_quantity(nd.ref, args, c);
        case op::decide: return decide(n, nd.ref, args, c);
        case op::lookup: {
            const std::size_t mark = s.locals_.size();
            const ir::table_cell* cell = table_cell(n, nd.ref, args, c).second;
            cut(s.locals_, mark);
            if (!cell->has_outcome) fail(n, "table " + rs.tables[nd.ref].name + " gives no outcome here");
            if (trace_lookup) [[unlikely]] {
                trace_lookup = false;
                trace_table(nd.ref, cell);
            }
            return cell->outcome;
        }
        default: fail(n, std::string("not a call: ") + ir::name_of(nd.code));
    }
}

// A two-level leaf operand (i) of compiled node c whose value is out of range: evaluates
// the operand's IR node, which reports the error where the interpreter would.
void interp::operand_failure(const game::compiled_node& c, unsigned i, std::uint32_t fb) {
    const auto n = static_cast<id>(&c - g.code.data());
    eval_node(child(n, i), fb);
    fail(child(n, i), "operand out of range");
}

// Operand i of compiled node c (node n) as a zone instance; a bad one is reported at the
// operand's own IR node, as eval_zone does.
std::int64_t interp::zone_arg(id n, const game::compiled_node& c, unsigned i, std::uint32_t v, std::uint32_t fb) {
    const std::int64_t zi = arg(c, i, v, fb);
    if (zi < 0 || static_cast<std::size_t>(zi) >= s.zone_size_.size()) [[unlikely]]
        fail(child(n, i), "no zone");
    return zi;
}

// The evaluator: runs the compiled form of node n (compile.hpp); what it does not
// specialise goes to eval_node, the IR interpreter. Operands are evaluated left to right.
std::int64_t interp::eval(id n, std::uint32_t fb) {
    const game::compiled_node& c = g.code[n];
    switch (static_cast<xop>(c.code)) {
        case xop::local: return s.locals_[fb + static_cast<std::size_t>(c.imm)];
        case xop::constant: return c.imm;
        case xop::value_at: return s.values_[static_cast<std::size_t>(c.imm)];
        case xop::player_value: {
            const std::int64_t p = arg(c, 0, c.a, fb);
            if (p < 0 || p >= g.players()) [[unlikely]]
                slot_addr(n, N(n).ref, p);  // fails
            const std::uint32_t a = static_cast<std::uint32_t>(c.imm) + static_cast<std::uint32_t>(p) * c.x;
            return c.flag ? a : s.values_[a];
        }
        case xop::entity_value: {
            const std::int64_t e = arg(c, 0, c.a, fb);
            if (e < 0) [[unlikely]]
                slot_addr(n, N(n).ref, e);  // fails
            const std::uint32_t a =
                static_cast<std::uint32_t>(c.imm) + static_cast<std::uint32_t>(e - static_cast<std::int64_t>(c.c)) * c.x;
            return c.flag ? a : s.values_[a];
        }
        case xop::attribute: {
            const std::int64_t inst = arg(c, 0, c.a, fb);
            if (inst < 0 || static_cast<std::size_t>(inst) >= g.instance_entity.size()) [[unlikely]]
                fail(n, "attribute of no entity");
            return g.instance_attributes[static_cast<std::size_t>(inst) * g.attribute_stride + c.x];
        }
        case xop::index_value: {
            const std::int64_t base = arg(c, 0, c.a, fb);
            const std::int64_t k = arg(c, 1, c.b, fb) - c.imm;  // imm: the first key's value (game::key_first)
            if (k < 0 || k >= static_cast<std::int64_t>(c.x)) [[unlikely]]
                fail(n, "map key out of range");
            return s.values_[static_cast<std::uint32_t>(base) + static_cast<std::uint32_t>(k)];
        }
        case xop::index_zone: {
            const std::int64_t base = arg(c, 0, c.a, fb);
            const std::int64_t k = arg(c, 1, c.b, fb);
            if (c.flag) {  // per location
                if (k < 0 || k >= static_cast<std::int64_t>(c.x)) [[unlikely]]
                    fail(n, "zone of no location");
            } else if (k < 0 || k >= g.players()) [[unlikely]] {
                fail(n, "zone of no player");
            }
            return base + k;
        }
        case xop::neg: return neg_ck(n, arg(c, 0, c.a, fb));
        case xop::not_: return arg(c, 0, c.a, fb) == 0;
        case xop::add: { const std::int64_t a = arg(c, 0, c.a, fb); return add_ck(n, a, arg(c, 1, c.b, fb)); }
        case xop::sub: { const std::int64_t a = arg(c, 0, c.a, fb); return sub_ck(n, a, arg(c, 1, c.b, fb)); }
        case xop::mul: { const std::int64_t a = arg(c, 0, c.a, fb); return mul_ck(n, a, arg(c, 1, c.b, fb)); }
        case xop::lt: { const std::int64_t a = arg(c, 0, c.a, fb); return a < arg(c, 1, c.b, fb); }
        case xop::le: { const std::int64_t a = arg(c, 0, c.a, fb); return a <= arg(c, 1, c.b, fb); }
        case xop::gt: { const std::int64_t a = arg(c, 0, c.a, fb); return a > arg(c, 1, c.b, fb); }
        case xop::ge: { const std::int64_t a = arg(c, 0, c.a, fb); return a >= arg(c, 1, c.b, fb); }
        case xop::eq: { const std::int64_t a = arg(c, 0, c.a, fb); return a == arg(c, 1, c.b, fb); }
        case xop::ne: { const std::int64_t a = arg(c, 0, c.a, fb); return a != arg(c, 1, c.b, fb); }
        case xop::eq_entity: {
            const std::int64_t a = entity_or_none(arg(c, 0, c.a, fb));
            return a == entity_or_none(arg(c, 1, c.b, fb));
        }
        case xop::ne_entity: {
            const std::int64_t a = entity_or_none(arg(c, 0, c.a, fb));
            return a != entity_or_none(arg(c, 1, c.b, fb));
        }
        case xop::and_: return arg(c, 0, c.a, fb) != 0 && arg(c, 1, c.b, fb) != 0;
        case xop::or_: return arg(c, 0, c.a, fb) != 0 || arg(c, 1, c.b, fb) != 0;
        case xop::cond: return arg(c, 0, c.a, fb) != 0 ? arg(c, 1, c.b, fb) : arg(c, 2, c.c, fb);
        case xop::same: return arg(c, 0, c.a, fb);
        case xop::in_zone: return in_zone(n, c, fb);
        case xop::zone_aggregate: return zone_aggregate(n, c, fb);
        case xop::zone_size: return s.zone_size_[static_cast<std::size_t>(zone_arg(n, c, 0, c.a, fb))];
        case xop::zone_top: {
            const auto z = static_cast<std::size_t>(zone_arg(n, c, 0, c.a, fb));
            return s.zone_size_[z] > 0 ? s.contents_[g.zone_capacity_offset[z] + s.zone_size_[z] - 1] : -1;
        }
        case xop::table_quantity: return table_quantity(n, c, fb);
        case xop::call: return eval_call(n, fb);
        case xop::generic: break;
    }
    return eval_node(n, fb);
}

std::int64_t interp::in_zone(id n, const game::compiled_node& c, std::uint32_t fb) {
    const std::int64_t v = arg(c, 0, c.a, fb);
    const auto z = static_cast<std::size_t>(zone_arg(n, c, 1, c.b, fb));
    const std::int32_t* it = s.contents_.data() + g.zone_capacity_offset[z];
    const std::int32_t* end = it + s.zone_size_[z];
    if (c.flag) {
        const std::int64_t e = entity_or_none(v);
        for (; it != end; ++it)
            if (entity_or_none(*it) == e) return 1;
        return 0;
    }
    for (; it != end; ++it)
        if (*it == v) return 1;
    return 0;
}

// any/all/count/sum/min/max over a zone, read in place (an expression cannot change it).
std::int64_t interp::zone_aggregate(id n, const game::compiled_node& c, std::uint32_t fb) {
    const auto z = static_cast<std::size_t>(zone_arg(n, c, 0, c.a, fb));
    const std::uint32_t off = g.zone_capacity_offset[z];
    const std::uint32_t size = s.zone_size_[z];
    const auto code = static_cast<op>(c.flag);
    const std::size_t binder = fb + static_cast<std::size_t>(c.x);
    switch (code) {
        case op::any:
            for (std::uint32_t i = 0; i < size; ++i) {
                s.locals_[binder] = s.contents_[off + i];
                if (arg(c, 1, c.b, fb) != 0) return 1;
            }
            return 0;
        case op::all:
            for (std::uint32_t i = 0; i < size; ++i) {
                s.locals_[binder] = s.contents_[off + i];
                if (arg(c, 1, c.b, fb) == 0) return 0;
            }
            return 1;
        case op::count:
        case op::sum: {
            std::int64_t acc = 0;
            for (std::uint32_t i = 0; i < size; ++i) {
                s.locals_[binder] = s.contents_[off + i];
                const std::int64_t v = arg(c, 1, c.b, fb);
                acc = code == op::count ? acc + (v != 0) : add_ck(n, acc, v);
            }
            return acc;
        }
        default: {
            std::int64_t acc = 0;
            for (std::uint32_t i = 0; i < size; ++i) {
                s.locals_[binder] = s.contents_[off + i];
                const std::int64_t v = arg(c, 1, c.b, fb);
                acc = i == 0 ? v : code == op::min ? std::min(acc, v) : std::max(acc, v);
            }
            return acc;
        }
    }
}

// A quantity tabulated over its (one to three) parameters: a table index; outside the
// table, the interpreter's call with the arguments already evaluated.
std::int64_t interp::table_quantity(id n, const game::compiled_node& c, std::uint32_t fb) {
    std::int64_t args[3];
    args[0] = arg(c, 0, c.a, fb);
    if (c.flag > 1) args[1] = arg(c, 1, c.b, fb);
    if (c.flag > 2) args[2] = arg(c, 2, c.c, fb);
    const game::tabulated& table = g.quantity_tables[c.x];
    std::size_t index = 0;
    for (std::size_t i = 0; i < c.flag; ++i) {
        const std::int64_t v = args[i] - table.bases[i];
        if (v < 0 || v >= table.sizes[i]) return call_with(n, args, c.flag);
        index = index * static_cast<std::size_t>(table.sizes[i]) + static_cast<std::size_t>(v);
    }
    return table.values[index];
}

std::int64_t interp::eval_node(id n, std::uint32_t fb) {
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::absent: return 0;
        case op::const_int:
        case op::const_bool:
        case op::const_string:
        case op::const_member:
        case op::const_node: return nd.value;
        case op::const_entity:
            return nd.value < 0 ? -1 : static_cast<std::int64_t>(g.entity_first.at(static_cast<std::size_t>(nd.value)));
        case op::dice: {
            if (s.probing_) [[unlikely]] {
                if (const std::optional<std::int64_t> total = take_fixed(s.fixed_dice_, n)) return *total;
            }
            const ir::distribution& d = g.dice[nd.ref];
            return chance(d.min, d.weights, d.total);
        }
        case op::dice_count: return dice_count(n, fb);
        case op::local: return s.locals_[fb + nd.ref];
        case op::global:
        case op::player_field:
        case op::entity_field: {
            const std::uint32_t a = addr(n, fb);
            return kind_of(n) == ir::type_kind::map_of ? a : s.values_[a];
        }
        case op::attribute: {
            const std::int64_t inst = eval(child(n, 0), fb);
            if (inst < 0 || static_cast<std::size_t>(inst) >= g.instance_entity.size()) fail(n, "attribute of no entity");
            return g.instance_attributes[static_cast<std::size_t>(inst) * g.attribute_stride + nd.ref];
        }
        case op::node_attribute: {
            const std::int64_t v = eval(child(n, 0), fb);
            const ir::type& t = rs.types[N(child(n, 0)).type];
            if (v < 0) fail(n, "attribute of no location");
            return rs.maps.at(t.ref).nodes.at(static_cast<std::size_t>(v)).values.at(nd.ref);
        }
        case op::zone: return g.zone_first.at(nd.ref);
        case op::index: {
            const ir::type& mt = rs.types[N(child(n, 0)).type];
            if (mt.kind == ir::type_kind::map_of && rs.types[mt.value].kind == ir::type_kind::zone) {
                const std::int64_t base = eval(child(n, 0), fb);
                const std::int64_t k = eval(child(n, 1), fb);
                const ir::zone& z = rs.zones[g.zone_instance_zone.at(static_cast<std::size_t>(base))];
                if (z.per_player) {
                    if (k < 0 || k >= g.players()) fail(n, "zone of no player");
                } else if (k < 0 || static_cast<std::size_t>(k) >= ir::zone_instance_count(rs, z, g.players())) {
                    fail(n, "zone of no location");
                }
                return base + k;
            }
            return s.values_[addr(n, fb)];
        }
        case op::option: return g.option_value.at(nd.ref);
        case op::roll:
        case op::quantity:
        case op::decide:
        case op::lookup: return eval_call(n, fb);
        case op::builtin: return builtin(n, fb);
        case op::neg: return neg_ck(n, eval(child(n, 0), fb));
        case op::not_: return eval(child(n, 0), fb) == 0;
        case op::add: { const std::int64_t a = eval(child(n, 0), fb); return add_ck(n, a, eval(child(n, 1), fb)); }
        case op::sub: { const std::int64_t a = eval(child(n, 0), fb); return sub_ck(n, a, eval(child(n, 1), fb)); }
        case op::mul: { const std::int64_t a = eval(child(n, 0), fb); return mul_ck(n, a, eval(child(n, 1), fb)); }
        case op::div:
        case op::mod: {
            const std::int64_t a = eval(child(n, 0), fb);
            const std::int64_t b = eval(child(n, 1), fb);
            if (b == 0) fail(n, "division by zero");
            return div_ck(n, a, b, nd.code == op::mod);
        }
        case op::eq:
        case op::ne: {
            std::int64_t a = eval(child(n, 0), fb);
            std::int64_t b = eval(child(n, 1), fb);
            // A card named in the rules stands for every copy of it.
            if (N(child(n, 0)).code == op::const_entity || N(child(n, 1)).code == op::const_entity) {
                a = entity_or_none(a);
                b = entity_or_none(b);
            }
            return nd.code == op::eq ? a == b : a != b;
        }
        case op::lt: return eval(child(n, 0), fb) < eval(child(n, 1), fb);
        case op::le: return eval(child(n, 0), fb) <= eval(child(n, 1), fb);
        case op::gt: return eval(child(n, 0), fb) > eval(child(n, 1), fb);
        case op::ge: return eval(child(n, 0), fb) >= eval(child(n, 1), fb);
        case op::in: {
            const std::int64_t v = eval(child(n, 0), fb);
            const bool by_entity = N(child(n, 0)).code == op::const_entity;
            if (kind_of(child(n, 1)) == ir::type_kind::zone) {
                const auto z = static_cast<std::size_t>(eval_zone(child(n, 1), fb));
                const std::int32_t* c = s.contents_.data() + g.zone_capacity_offset[z];
                for (std::uint32_t i = 0; i < s.zone_size_[z]; ++i)
                    if (by_entity ? entity_or_none(c[i]) == entity_or_none(v) : c[i] == v) return 1;
                return 0;
            }
            const std::size_t start = push_set(child(n, 1), fb);
            bool found = false;
            for (std::size_t i = start; i < s.scratch_.size() && !found; ++i)
                found = by_entity ? entity_or_none(s.scratch_[i]) == entity_or_none(v) : s.scratch_[i] == v;
            cut(s.scratch_, start);
            return found;
        }
        case op::and_: return eval(child(n, 0), fb) != 0 && eval(child(n, 1), fb) != 0;
        case op::or_: return eval(child(n, 0), fb) != 0 || eval(child(n, 1), fb) != 0;
        case op::cond: return eval(child(n, 0), fb) != 0 ? eval(child(n, 1), fb) : eval(child(n, 2), fb);
        case op::any:
        case op::all:
        case op::count:
        case op::sum:
        case op::min:
        case op::max: return aggregate(n, fb);
        default: fail(n, std::string("not an expression: ") + ir::name_of(nd.code));
    }
}

std::int64_t interp::aggregate(id n, std::uint32_t fb) {
    const ir::node& nd = N(n);
    // A zone is read in place (an expression cannot change it); other sets go on scratch.
    const bool zone = kind_of(child(n, 0)) == ir::type_kind::zone;
    std::size_t start = 0, end = 0;
    const std::int32_t* contents = nullptr;
    if (zone) {
        const auto z = static_cast<std::size_t>(eval_zone(child(n, 0), fb));
        contents = s.contents_.data() + g.zone_capacity_offset[z];
        end = s.zone_size_[z];
    } else {
        start = push_set(child(n, 0), fb);
        end = s.scratch_.size();
    }
    std::int64_t acc = nd.code == op::all ? 1 : 0;
    bool first = true;
    for (std::size_t i = start; i < end; ++i) {
        s.locals_[fb + nd.ref] = zone ? contents[i] : s.scratch_[i];
        const std::int64_t v = eval(child(n, 1), fb);
        switch (nd.code) {
            case op::any: if (v) acc = 1; break;
            case op::all: if (!v) acc = 0; break;
            case op::count: acc += v != 0; break;
            case op::sum: acc = add_ck(n, acc, v); break;
            case op::min: acc = first ? v : std::min(acc, v); break;
            case op::max: acc = first ? v : std::max(acc, v); break;
            default: break;
        }
        first = false;
        if ((nd.code == op::any && acc) || (nd.code == op::all && !acc)) break;
    }
    if (!zone) cut(s.scratch_, start);
    return acc;
}

std::int64_t interp::builtin(id n, std::uint32_t fb) {
    const ir::node& nd = N(n);
    const auto b = static_cast<ir::builtin>(nd.ref);
    switch (b) {
        case ir::builtin::count:
        case ir::builtin::size: {
            const id arg = child(n, 0);
            if (kind_of(arg) == ir::type_kind::integer) return eval(arg, fb);
            return static_cast<std::int64_t>(set_size(arg, fb));
        }
        case ir::builtin::top: {
            if (kind_of(child(n, 0)) == ir::type_kind::zone) {
                const auto z = static_cast<std::size_t>(eval_zone(child(n, 0), fb));
                return s.zone_size_[z] > 0 ? s.contents_[g.zone_capacity_offset[z] + s.zone_size_[z] - 1] : -1;
            }
            const std::size_t start = push_set(child(n, 0), fb);
            const std::int64_t v = s.scratch_.size() > start ? s.scratch_.back() : -1;
            cut(s.scratch_, start);
            return v;
        }
        case ir::builtin::active_player: return active_player();
        case ir::builtin::min: return std::min(eval(child(n, 0), fb), eval(child(n, 1), fb));
        case ir::builtin::max: return std::max(eval(child(n, 0), fb), eval(child(n, 1), fb));
        case ir::builtin::abs: {
            const std::int64_t v = eval(child(n, 0), fb);
            if (v == std::numeric_limits<std::int64_t>::min()) [[unlikely]]
                overflow(n, "abs(" + std::to_string(v) + ")");
            return v < 0 ? -v : v;
        }
        case ir::builtin::ceil_div:
        case ir::builtin::floor_div: {
            const std::int64_t a = eval(child(n, 0), fb);
            const std::int64_t d = eval(child(n, 1), fb);
            if (d == 0) fail(n, "division by zero");
            std::int64_t q = div_ck(n, a, d, false);
            const bool inexact = q * d != a;
            if (b == ir::builtin::floor_div && inexact && ((a < 0) != (d < 0))) --q;
            if (b == ir::builtin::ceil_div && inexact && ((a < 0) == (d < 0))) ++q;
            return q;
        }
        case ir::builtin::adjacent:
        case ir::builtin::distance:
        case ir::builtin::terrain:
        case ir::builtin::edge_kind:
        case ir::builtin::path_exists:
        case ir::builtin::path_length:
        case ir::builtin::line_blocked: return map_builtin(n, fb);
        case ir::builtin::odds: return odds_value(n, fb);
        default: fail(n, std::string("built-in ") + ir::name_of(b) + " is not supported by the engine yet");
    }
}

}  // namespace wp::engine
