// The compiled engine's writer: chance analysis, sets, storage addresses and expressions (writer.hpp).
#include "writer.hpp"

#include <algorithm>

namespace wp::codegen {

bool writer::chancy_quantity(id q) {
    if (chance_quantity_[q] >= 0) return chance_quantity_[q] != 0;
    chance_quantity_[q] = 0;  // recursion: assume none while looking
    bool c = chancy(rs_.quantities[q].expr) || chancy_group(g_.group_of_quantity[q]);
    chance_quantity_[q] = c;
    return c;
}

bool writer::chancy_group(id gi) {
    if (gi == ir::no_id) return false;
    for (id r : g_.live_rules[gi]) {
        const ir::rule& rule = rs_.rules[r];
        if (chancy(rule.guard) || chancy(rule.amount) || chancy(rule.value)) return true;
    }
    return false;
}

// Whether evaluating n may draw from the generator (its order then matters).
bool writer::chancy(id n) {
    if (n == ir::no_id) return false;
    if (chance_node_[n] >= 0) return chance_node_[n] != 0;
    bool c = false;
    switch (N(n).code) {
        case op::dice:
        case op::dice_count:
        case op::roll:
        case op::lookup: c = true; break;
        case op::quantity: c = chancy_quantity(N(n).ref); break;
        case op::decide: c = chancy_group(g_.group_of_decision[N(n).ref]); break;
        default: break;
    }
    for (std::uint32_t i = 0; i < N(n).child_count && !c; ++i) c = chancy(child(n, i));
    chance_node_[n] = c;
    return c;
}

// Operands of n in order; when two or more may draw, they are computed into temporaries
// first (C++ leaves the order of operands open), and `make` builds the result from names.
std::string writer::with_operands(id n, std::uint32_t from, const std::function<std::string(const std::vector<std::string>&)>& make) {
    std::vector<std::string> ops;
    int drawing = 0;
    for (std::uint32_t i = from; i < N(n).child_count; ++i) drawing += chancy(child(n, i));
    for (std::uint32_t i = from; i < N(n).child_count; ++i) ops.push_back(E(child(n, i)));
    if (drawing < 2) return make(ops);
    std::string code = "([&]() -> i64 { ";
    std::vector<std::string> names;
    for (const std::string& e : ops) {
        names.push_back(fresh("t"));
        code += "const i64 " + names.back() + " = " + e + "; ";
    }
    return code + "return " + make(names) + "; }())";
}

// A table's arguments, padded to what its functions take (a use giving fewer leaves the
// keys to their expressions, as the interpreter does).
std::vector<std::string> writer::padded(id table, std::vector<std::string> args) const {
    while (args.size() < table_arity_.at(table)) args.push_back("i64(0)");
    return args;
}

// A call that names its call site (for the engine's error messages).
std::string writer::call_at(const std::string& fn, const std::string& at, const std::vector<std::string>& args) {
    std::string t = fn + "(s, " + at;
    for (const std::string& a : args) t += ", " + a;
    return t + ")";
}

// C++ text of value v (an expression) of IR type `type`, as the engine writes it (game::value_text).
std::string writer::text_code(id type, const std::string& v) {
    if (type == ir::no_id) return "std::to_string(" + v + ")";
    const ir::type& t = rs_.types.at(type);
    switch (t.kind) {
        case type_kind::player: return "(" + v + " < 0 ? std::string(\"none\") : \"P\" + std::to_string(" + v + " + 1))";
        case type_kind::entity: return "std::string(instance_text(" + v + "))";
        case type_kind::boolean: return "std::string(" + v + " ? \"true\" : \"false\")";
        case type_kind::enumeration:
        case type_kind::string:
        case type_kind::node: {
            std::vector<std::string> names;
            if (t.kind == type_kind::enumeration)
                for (const ir::enum_member& m : rs_.enums.at(t.ref).members) names.push_back(m.name);
            else if (t.kind == type_kind::string)
                names = rs_.strings;
            else
                for (const ir::map_node& m : rs_.maps.at(t.ref).nodes) names.push_back(engine::game::node_text(m));
            const std::string table = fresh("names");
            std::vector<std::string> items;
            for (const std::string& name : names) items.push_back(quoted(name));
            write_array(consts_, "char* const", table, items, "nullptr");
            return "(" + v + " >= 0 && " + v + " < " + std::to_string(names.size()) + " ? std::string(" + table + "[" + v +
                   "]) : " + (t.kind == type_kind::node ? std::string("std::string(\"none\")") : "std::to_string(" + v + ")") + ")";
        }
        default: return "std::to_string(" + v + ")";
    }
}

// "(P1, Pikemen)": the arguments of a call, as the engine's messages show them.
std::string writer::args_text_code(const std::vector<ir::local>& params, const std::vector<std::string>& args) {
    std::string t = "std::string(\"(\")";
    for (std::size_t i = 0; i < args.size(); ++i)
        t += std::string(i ? " + \", \"" : "") + " + " + text_code(i < params.size() ? params[i].type : ir::no_id, args[i]);
    return t + " + \")\"";
}

std::string writer::call_text(const std::string& fn, const std::vector<std::string>& args) {
    std::string t = fn + "(s";
    for (const std::string& a : args) t += ", " + a;
    return t + ")";
}

// How many distinct values of type t there can be in a set (a list's elements, a type's members).
std::string writer::type_capacity(id n, id t) const {
    const ir::type& ty = rs_.types.at(t);
    switch (ty.kind) {
        case type_kind::player: return "WP_MAXP";
        case type_kind::enumeration: return std::to_string(std::max<std::size_t>(1, rs_.enums.at(ty.ref).members.size()));
        case type_kind::entity: return std::to_string(std::max<std::uint32_t>(1, g_.kind_count.at(ty.ref)));
        case type_kind::node: return std::to_string(std::max<std::size_t>(1, rs_.maps.at(ty.ref).nodes.size()));
        case type_kind::boolean: return "2";
        case type_kind::range: return std::to_string(std::max<std::int64_t>(1, ty.hi - ty.lo + 1));
        default: refuse(n, "a list of " + ir::type_name(rs_, t));
    }
}

// The number of elements set expression n can hold at most.
std::string writer::set_capacity(id n) const {
    const ir::node& nd = N(n);
    if (nd.code == op::local && kind_of(n) == type_kind::list_of) return type_capacity(n, rs_.types[nd.type].value);
    if (stored_list(n)) return type_capacity(n, rs_.types[nd.type].value);
    if (kind_of(n) == type_kind::zone) {
        const id kind = rs_.types[nd.type].ref;
        return std::to_string(std::max<std::uint32_t>(1, g_.kind_count.at(kind)));
    }
    if (nd.code == op::builtin) {
        const auto b = static_cast<ir::builtin>(nd.ref);
        if (b == ir::builtin::neighbours || b == ir::builtin::hexside) {
            const ir::map& m = rs_.maps.at(map_of_node(child(n, 0)));
            std::size_t most = 1;
            if (b == ir::builtin::neighbours)
                for (const ir::map_node& x : m.nodes) most = std::max(most, x.neighbours.size());
            else
                for (const ir::map_edge& e : m.edges) most += e.kinds.size();
            return std::to_string(most);
        }
        return "WP_MAXP";
    }
    if (nd.code == op::type_members) return type_capacity(n, nd.ref);
    if (nd.code == op::range) {
        const ir::type& el = rs_.types.at(rs_.types.at(nd.type).value);
        return std::to_string(std::max<std::int64_t>(1, el.hi - el.lo + 1));
    }
    refuse(n, std::string("this kind of set (") + ir::name_of(nd.code) + ")");
}

// A loop over the elements of set expression n, each assigned to `var` before `body` runs.
std::string writer::for_set(id n, const std::string& var, const std::string& body) {
    const ir::node& nd = N(n);
    if (kind_of(n) == type_kind::zone) {
        const std::string z = fresh("z"), it = fresh("it"), size = fresh("n"), i = fresh("i");
        return "{ const i64 " + z + " = " + Z(n) + "; const std::int32_t* " + it + " = s.c + zone_offset[" + z +
               "]; const std::uint32_t " + size + " = s.zs[" + z + "]; for (std::uint32_t " + i + " = 0; " + i + " < " +
               size + "; ++" + i + ") { " + var + " = " + it + "[" + i + "]; " + body + " } }";
    }
    const std::string i = fresh("i");
    if (nd.code == op::range) {
        // lo..hi within the span the compiler saw (engine: interp::push_set)
        const ir::type& el = rs_.types.at(rs_.types.at(nd.type).value);
        const std::string lo = fresh("lo"), hi = fresh("hi");
        return "{ const i64 " + lo + " = " + E(child(n, 0)) + "; const i64 " + hi + " = " + E(child(n, 1)) + "; if (" + lo +
               " <= " + hi + " && (" + lo + " < " + num(el.lo) + " || " + hi + " > " + num(el.hi) + ")) fail(" + where(n) +
               ", \"the range \" + std::to_string(" + lo + ") + \"..\" + std::to_string(" + hi + ") + " +
               quoted(" reaches past " + std::to_string(el.lo) + ".." + std::to_string(el.hi) + ", the span its ends can have (" +
                      g_.statement_owner(n) + ")") +
               "); for (i64 " + i + " = " + lo + "; " + i + " <= " + hi + "; ++" + i + ") { " + var + " = " + i + "; " + body + " } }";
    }
    if (stored_list(n)) {
        // A stored list (engine::game::slots): its length, then its members. Copied first, as the
        // interpreter does, so that a body that replaces the list does not change this loop.
        const std::string at = fresh("at"), copy = fresh("copy"), size = fresh("n");
        return "{ const i64* " + at + " = s.v + " + A(n) + "; i64 " + copy + "[" + set_capacity(n) + "]; const i64 " + size +
               " = " + at + "[0]; std::copy(" + at + " + 1, " + at + " + 1 + " + size + ", " + copy + "); for (i64 " + i +
               " = 0; " + i + " < " + size + "; ++" + i + ") { " + var + " = " + copy + "[" + i + "]; " + body + " } }";
    }
    if (nd.code == op::local && kind_of(n) == type_kind::list_of) {
        const std::string h = fresh("h");
        return "{ const i64 " + h + " = l" + std::to_string(nd.ref) + "; if (" + h + " < 0) fail(" + where(n) +
               ", \"no list chosen yet\"); for (i64 " + i + " = 0; " + i + " < (" + h + " & 0xFFFFFF); ++" + i + ") { " + var +
               " = s.list_store[(" + h + " >> 24) + " + i + "]; " + body + " } }";
    }
    if (nd.code == op::builtin) {
        const auto b = static_cast<ir::builtin>(nd.ref);
        if (b == ir::builtin::players)
            return "for (i64 " + i + " = 0; " + i + " < s.np; ++" + i + ") { " + var + " = " + i + "; " + body + " }";
        if (b == ir::builtin::neighbours) {
            const std::string p = map_data(map_of_node(child(n, 0))), v = fresh("v");
            return "{ const i64 " + v + " = " + p + "node_check(" + where(n) + ", " + E(child(n, 0)) +
                   ", " + quoted("neighbours of no location (" + g_.statement_owner(n) + ")") + "); for (std::uint32_t " + i + " = " + p + "nb_first[" + v + "]; " + i + " < " +
                   p + "nb_first[" + v + " + 1]; ++" + i + ") { " + var + " = " + p + "nb[" + i + "]; " + body + " } }";
        }
        if (b == ir::builtin::hexside) {
            const std::string p = map_data(map_of_node(child(n, 0))), kinds = fresh("kinds"), count = fresh("n");
            return with_operands(n, 0, [&](const auto& a) {
                return "{ i64 " + kinds + "[" + set_capacity(n) + "]; const int " + count + " = " + p + "hexside(" + a[0] + ", " + a[1] +
                       ", " + kinds + "); for (int " + i + " = 0; " + i + " < " + count + "; ++" + i + ") { " + var + " = " + kinds +
                       "[" + i + "]; " + body + " } }";
            });
        }
        if (b == ir::builtin::opponents) {
            const std::string p = fresh("p");
            return "{ const i64 " + p + " = " + E(child(n, 0)) + "; for (i64 " + i + " = 1; " + i + " < s.np; ++" + i +
                   ") { " + var + " = (" + p + " + " + i + ") % s.np; " + body + " } }";
        }
    }
    if (nd.code == op::type_members) {
        const ir::type& t = rs_.types.at(nd.ref);
        std::string lo = "0", hi;
        switch (t.kind) {
            case type_kind::player: hi = "s.np"; break;
            case type_kind::enumeration: hi = std::to_string(rs_.enums.at(t.ref).members.size()); break;
            case type_kind::entity:
                lo = std::to_string(g_.kind_first.at(t.ref));
                hi = std::to_string(g_.kind_first.at(t.ref) + g_.kind_count.at(t.ref));
                break;
            case type_kind::node: hi = std::to_string(rs_.maps.at(t.ref).nodes.size()); break;
            default: refuse(n, "the members of " + ir::type_name(rs_, nd.ref));
        }
        return "for (i64 " + i + " = " + lo + "; " + i + " < " + hi + "; ++" + i + ") { " + var + " = " + i + "; " + body +
               " }";
    }
    refuse(n, std::string("this kind of set (") + ir::name_of(nd.code) + ")");
}

bool writer::stored_list(id n) const {
    const op c = N(n).code;
    return kind_of(n) == type_kind::list_of && (c == op::global || c == op::player_field || c == op::entity_field);
}

bool writer::players_set(id n) const {
    const id t = N(n).type;
    return t != ir::no_id && rs_.types[t].kind == type_kind::list_of && rs_.types[rs_.types[t].value].kind == type_kind::player;
}

// A zone instance named by zone-typed expression n.
std::string writer::Z(id n) {
    const ir::node& nd = N(n);
    if (nd.code == op::zone && kind_of(n) == type_kind::zone) return std::to_string(g_.zone_first.at(nd.ref));
    if (nd.code == op::index && N(child(n, 0)).code == op::zone) {
        const ir::zone& z = rs_.zones.at(N(child(n, 0)).ref);
        if (z.map != ir::no_id)  // per location
            return "(" + std::to_string(g_.zone_first.at(N(child(n, 0)).ref)) + " + location_check(" + where(n) + ", " +
                   E(child(n, 1)) + ", " + std::to_string(rs_.maps.at(z.map).nodes.size()) + "))";
        return "(" + std::to_string(g_.zone_first.at(N(child(n, 0)).ref)) + " + seat_check(s, " + where(n) + ", " +
               E(child(n, 1)) + ", \"zone of no player\"))";
    }
    return "zone_check(" + where(n) + ", " + E(n) + ")";
}

std::string writer::key_limit(id map_type) const {
    const ir::type& k = rs_.types.at(rs_.types.at(map_type).key);
    switch (k.kind) {
        case type_kind::player: return "s.np";
        case type_kind::enumeration: return std::to_string(rs_.enums.at(k.ref).members.size());
        case type_kind::boolean: return "2";
        case type_kind::entity: return std::to_string(g_.key_count(rs_.types.at(map_type).key));
        default: return std::to_string(1 << 30);  // as the interpreter: only player and entity keys are bounded
    }
}

// The address in s.v of an assignable expression (or of a map's first element).
std::string writer::A(id n) {
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::global: return std::to_string(g_.slots[nd.ref].offset);
        case op::player_field: {
            const auto& l = g_.slots[nd.ref];
            return "(" + std::to_string(l.offset) + " + seat_check(s, " + where(n) + ", " + E(child(n, 0)) + ", " +
                   quoted("slot " + rs_.slots[nd.ref].name + " of no player") + ") * " + std::to_string(l.width) + ")";
        }
        case op::entity_field: {
            const ir::slot& sl = rs_.slots[nd.ref];
            const auto& l = g_.slots[nd.ref];
            if (sl.scope == ir::slot_scope::per_node)
                return "(" + std::to_string(l.offset) + " + index_check(" + where(n) + ", " + E(child(n, 0)) + ", " +
                       std::to_string(rs_.maps.at(sl.map).nodes.size()) + ", " + quoted("slot " + sl.name + " of no location") +
                       ") * " + std::to_string(l.width) + ")";
            const std::uint32_t first = g_.kind_first.at(sl.entity_kind);
            return "(" + std::to_string(l.offset) + " + (index_check(" + where(n) + ", " + E(child(n, 0)) + " - " +
                   std::to_string(first) + ", " + std::to_string(g_.kind_count.at(sl.entity_kind)) + ", " +
                   quoted("slot " + sl.name + " of no " + rs_.entity_kinds.at(sl.entity_kind).name) + ")) * " +
                   std::to_string(l.width) + ")";
        }
        case op::index:
        {
            // an entity kind's keys are its instances, counted within the kind (engine::game::key_first)
            const std::int64_t first = g_.key_first(rs_.types.at(N(child(n, 0)).type).key);
            const std::string key = first == 0 ? E(child(n, 1)) : "(" + E(child(n, 1)) + " - " + std::to_string(first) + ")";
            return "(" + A(child(n, 0)) + " + index_check(" + where(n) + ", " + key + ", " + key_limit(N(child(n, 0)).type) +
                   ", \"map key out of range\"))";
        }
        default: refuse(n, std::string("assigning to ") + ir::name_of(nd.code));
    }
}

id writer::slot_of(id n) const {
    return N(n).code == op::index ? slot_of(child(n, 0)) : N(n).ref;
}

// A chain of one connective (`a or b or c …`) is written flat, one conversion to i64 for the whole
// chain: nested, each link converting back and forth, GCC's optimiser took 24 GB on GMT's 50-card
// chain (tests/rulesets/codegen-chains).
std::string writer::connective(id n, op code) {
    std::vector<id> terms;
    std::vector<id> todo{n};
    while (!todo.empty()) {
        const id t = todo.back();
        todo.pop_back();
        if (N(t).code == code) {
            todo.push_back(child(t, 1));  // pushed first: the left operand comes out first
            todo.push_back(child(t, 0));
        } else {
            terms.push_back(t);
        }
    }
    const char* sym = code == op::and_ ? " && " : " || ";
    std::string out = "i64(";
    for (std::size_t i = 0; i < terms.size(); ++i) out += (i ? sym : "") + ("(" + E(terms[i]) + ") != 0");
    return out + ")";
}

std::string writer::E(id n) {
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::absent: return "i64(0)";
        case op::const_int:
        case op::const_bool:
        case op::const_string:
        case op::const_member:
        case op::const_node: return num(nd.value);
        case op::const_entity: return nd.value < 0 ? "i64(-1)" : num(g_.entity_first.at(static_cast<std::size_t>(nd.value)));
        case op::option: return num(g_.option_value.at(nd.ref));
        case op::local: return "l" + std::to_string(nd.ref);
        case op::dice: {
            const ir::distribution& d = g_.dice.at(nd.ref);
            if (std::all_of(d.weights.begin(), d.weights.end(), [](std::uint64_t w) { return w == 1; }))
                return "(" + num(d.min) + " + static_cast<i64>(s.r.below(" + std::to_string(d.total) + "ULL)))";
            return "chance(s, " + num(d.min) + ", " + weights(d.weights) + ", " + std::to_string(d.weights.size()) + ", " +
                   std::to_string(d.total) + "ULL)";
        }
        case op::dice_count: {
            // the distribution of each count k (engine: game::dice_by_count), as weight tables
            const std::vector<ir::distribution>& by = g_.dice_by_count.at(nd.ref);
            std::vector<std::string> w{"nullptr"}, sizes{"0"}, totals{"1ULL"};
            for (std::size_t k = 1; k < by.size(); ++k) {
                w.push_back(weights(by[k].weights));
                sizes.push_back(std::to_string(by[k].weights.size()));
                totals.push_back(std::to_string(by[k].total) + "ULL");
            }
            const std::string tw = fresh("dcw"), tn = fresh("dcn"), tt = fresh("dct");
            write_array(consts_, "std::uint64_t* const", tw, w, "nullptr");
            write_array(consts_, "std::size_t", tn, sizes);
            write_array(consts_, "std::uint64_t", tt, totals);
            return "dice_count(s, " + at(n) + ", " + E(child(n, 0)) + ", " + std::to_string(by.size() - 1) + ", " +
                   num(rs_.dice_terms.at(nd.ref).low) + ", " + tw + ", " + tn + ", " + tt + ")";
        }
        case op::global:
        case op::player_field:
        case op::entity_field:
            if (kind_of(n) == type_kind::map_of) return "i64" + A(n);
            return "s.v[" + A(n) + "]";
        case op::index:
            if (kind_of(n) == type_kind::zone) return Z(n);
            return "s.v[" + A(n) + "]";
        case op::zone:  // a zone instance; a per-player zone's first (seat 0's)
            return "i64(" + std::to_string(g_.zone_first.at(nd.ref)) + ")";
        case op::attribute:
            return "attr(" + where(n) + ", " + E(child(n, 0)) + ", " + std::to_string(nd.ref) + ")";
        case op::node_attribute: {
            const id m = map_of_node(child(n, 0));
            const std::string p = map_data(m);
            return p + "values[" + p + "node_check(" + where(n) + ", " + E(child(n, 0)) + ", \"attribute of no location\") * " +
                   std::to_string(rs_.maps[m].attributes.size()) + " + " + std::to_string(nd.ref) + "]";
        }
        case op::roll: return with_operands(n, 0, [&](const auto& a) { return call_text("roll" + std::to_string(nd.ref), a); });
        case op::quantity: return with_operands(n, 0, [&](const auto& a) { return call_text("q" + std::to_string(nd.ref), a); });
        case op::decide:
            return with_operands(n, 0, [&](const auto& a) { return call_at("dec" + std::to_string(nd.ref), where(n), a); });
        case op::lookup:
            return with_operands(n, 0, [&](const auto& a) { return call_at("look" + std::to_string(nd.ref), where(n), padded(nd.ref, a)); });
        case op::builtin: return builtin(n);
        case op::neg: return "neg_ck(" + at(n) + ", " + E(child(n, 0)) + ")";
        case op::not_: return "i64(" + E(child(n, 0)) + " == 0)";
        case op::add:
        case op::sub:
        case op::mul: {
            const char* fn = nd.code == op::add ? "add_ck(" : nd.code == op::sub ? "sub_ck(" : "mul_ck(";
            return with_operands(n, 0, [&](const auto& a) { return fn + at(n) + ", " + a[0] + ", " + a[1] + ")"; });
        }
        case op::div:
        case op::mod: {
            const bool mod = nd.code == op::mod;
            return with_operands(n, 0, [&](const auto& a) {
                return "checked_div(" + at(n) + ", " + a[0] + ", " + a[1] + (mod ? ", true)" : ", false)");
            });
        }
        case op::eq:
        case op::ne: {
            const bool by_entity = N(child(n, 0)).code == op::const_entity || N(child(n, 1)).code == op::const_entity;
            const char* sym = nd.code == op::eq ? " == " : " != ";
            return with_operands(n, 0, [&](const auto& a) {
                if (by_entity) return "i64(entity_or_none(" + a[0] + ")" + sym + "entity_or_none(" + a[1] + "))";
                return "i64(" + a[0] + sym + a[1] + ")";
            });
        }
        case op::lt:
        case op::le:
        case op::gt:
        case op::ge: {
            const char* sym = nd.code == op::lt ? " < " : nd.code == op::le ? " <= " : nd.code == op::gt ? " > " : " >= ";
            return with_operands(n, 0, [&](const auto& a) { return "i64(" + a[0] + sym + a[1] + ")"; });
        }
        case op::in: {
            const bool by_entity = N(child(n, 0)).code == op::const_entity;
            if (kind_of(child(n, 1)) == type_kind::zone)
                return with_operands(n, 0, [&](const auto&) {
                    return "i64(zcontains(s, " + Z(child(n, 1)) + ", " + E(child(n, 0)) + ", " + (by_entity ? "true" : "false") + "))";
                });
            const std::string v = fresh("v"), x = fresh("x");
            const std::string test = by_entity ? "entity_or_none(" + x + ") == entity_or_none(" + v + ")" : x + " == " + v;
            return "([&]() -> i64 { const i64 " + v + " = " + E(child(n, 0)) + "; i64 " + x + " = 0; " +
                   for_set(child(n, 1), x, "if (" + test + ") return 1;") + " return 0; }())";
        }
        case op::and_:
        case op::or_: return connective(n, nd.code);
        case op::cond: return "(" + E(child(n, 0)) + " != 0 ? " + E(child(n, 1)) + " : " + E(child(n, 2)) + ")";
        case op::any:
        case op::all:
        case op::count:
        case op::sum:
        case op::min:
        case op::max: return aggregate(n);
        default: refuse(n, std::string("the expression ") + ir::name_of(nd.code));
    }
}

std::string writer::weights(const std::vector<std::uint64_t>& w) {
    const std::string name = fresh("weights");
    std::vector<std::string> items;
    for (std::uint64_t x : w) items.push_back(std::to_string(x) + "ULL");
    write_array(consts_, "std::uint64_t", name, items);
    return name;
}

std::string writer::aggregate(id n) {
    const ir::node& nd = N(n);
    const std::string var = "l" + std::to_string(nd.ref);
    const std::string body = E(child(n, 1));
    switch (nd.code) {
        case op::any: return "([&]() -> i64 { " + for_set(child(n, 0), var, "if (" + body + " != 0) return 1;") + " return 0; }())";
        case op::all: return "([&]() -> i64 { " + for_set(child(n, 0), var, "if (" + body + " == 0) return 0;") + " return 1; }())";
        case op::count:
            return "([&]() -> i64 { i64 acc = 0; " + for_set(child(n, 0), var, "acc += " + body + " != 0;") + " return acc; }())";
        case op::sum:
            return "([&]() -> i64 { i64 acc = 0; " + for_set(child(n, 0), var, "acc = add_ck(" + at(n) + ", acc, " + body + ");") +
                   " return acc; }())";
        default: {
            const char* pick = nd.code == op::min ? "std::min" : "std::max";
            return "([&]() -> i64 { i64 acc = 0; bool first = true; " +
                   for_set(child(n, 0), var,
                           "{ const i64 x = " + body + "; acc = first ? x : " + pick + "(acc, x); first = false; }") +
                   " return acc; }())";
        }
    }
}

std::string writer::builtin(id n) {
    const auto b = static_cast<ir::builtin>(N(n).ref);
    switch (b) {
        case ir::builtin::active_player: return "active_player(s)";
        case ir::builtin::count:
        case ir::builtin::size: {
            const id a = child(n, 0);
            if (kind_of(a) == type_kind::integer) return E(a);
            if (kind_of(a) == type_kind::zone) return "i64(s.zs[" + Z(a) + "])";
            const std::string x = fresh("x");
            return "([&]() -> i64 { i64 acc = 0, " + x + " = 0; " + for_set(a, x, "++acc; (void)" + x + ";") + " return acc; }())";
        }
        case ir::builtin::top:
            if (kind_of(child(n, 0)) == type_kind::zone) return "ztop(s, " + Z(child(n, 0)) + ")";
            refuse(n, "top of a set that is not a zone");
        case ir::builtin::min:
        case ir::builtin::max: {
            const char* f = b == ir::builtin::min ? "std::min" : "std::max";
            return with_operands(n, 0, [&](const auto& a) { return std::string(f) + "(" + a[0] + ", " + a[1] + ")"; });
        }
        case ir::builtin::abs: return "abs_ck(" + at(n) + ", " + E(child(n, 0)) + ")";
        case ir::builtin::ceil_div:
        case ir::builtin::floor_div: {
            const char* f = b == ir::builtin::ceil_div ? "ceil_div" : "floor_div";
            return with_operands(n, 0, [&](const auto& a) { return std::string(f) + "(" + at(n) + ", " + a[0] + ", " + a[1] + ")"; });
        }
        case ir::builtin::terrain: {
            const std::string p = map_data(map_of_node(child(n, 0)));
            return p + "terrain[" + p + "node_check(" + where(n) + ", " + E(child(n, 0)) + ", \"terrain of no location\")]";
        }
        case ir::builtin::adjacent: {
            const std::string p = map_data(map_of_node(child(n, 0)));
            return with_operands(n, 0, [&](const auto& a) {
                return "([&]() -> i64 { const i64 a = " + a[0] + ", c = " + a[1] + "; if (a < 0 || c < 0) return 0; for (std::uint32_t i = " +
                       p + "nb_first[a]; i < " + p + "nb_first[a + 1]; ++i) if (" + p + "nb[i] == c) return 1; return 0; }())";
            });
        }
        case ir::builtin::distance: {
            const std::string p = map_data(map_of_node(child(n, 0)));
            return with_operands(n, 0, [&](const auto& a) { return p + "distance(" + where(n) + ", " + a[0] + ", " + a[1] + ")"; });
        }
        case ir::builtin::edge_kind: {
            const std::string p = map_data(map_of_node(child(n, 0)));
            return with_operands(n, 0, [&](const auto& a) {
                return "([&]() -> i64 { const i64 a = " + a[0] + ", c = " + a[1] + "; if (a < 0 || c < 0) fail(" + where(n) +
                       ", \"edge to or from no location\"); for (std::uint32_t i = " + p + "ne_first[a]; i < " + p +
                       "ne_first[a + 1]; ++i) { const std::uint32_t e = " + p + "ne[i]; if (" + p + "joins(e, a, c) && " + p +
                       "ek_first[e] < " + p + "ek_first[e + 1]) return " + p + "ek[" + p + "ek_first[e]]; } fail(" + where(n) +
                       ", std::string(\"no edge of a known kind from \") + " + p + "names[a] + \" to \" + " + p + "names[c]); }())";
            });
        }
        case ir::builtin::odds:
            return with_operands(n, 0, [&](const auto& a) { return "odds_value(" + where(n) + ", " + a[0] + ", " + a[1] + ")"; });
        case ir::builtin::path_exists:
        case ir::builtin::path_length: return path_search(n);
        case ir::builtin::line_blocked: return line_blocked(n);
        default: refuse(n, std::string("the built-in ") + ir::name_of(b));
    }
}

}  // namespace wp::codegen
