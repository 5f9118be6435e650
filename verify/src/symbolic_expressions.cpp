// The encoding of IR expressions into Z3 terms, with the operand guards and the cache of values.
#include "symbolic.hpp"

#include "terms.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wp::verify::detail {

using ir::op;

// ---------------------------------------------------------------- expressions

z3::expr symbolic::boolean(id n, env& e, const store& st) { return bool_of(value(n, e, st).e); }
z3::expr symbolic::integer(id n, env& e, const store& st) { return int_of(value(n, e, st).e); }

z3::expr symbolic::operand_guard() const {
    if (operand_guards.empty()) return ctx.bool_val(true);
    z3::expr_vector v(ctx);
    for (const z3::expr& g : operand_guards) v.push_back(g);
    return z3::mk_and(v);
}

void symbolic::tick() {
    if (!deadline || ++ticks_ % 256 != 0) return;
    if (std::chrono::steady_clock::now() <= *deadline) return;
    stopped = true;
    throw out_of_time{};
}

void symbolic::abandon_statement() {
    context_.clear();
    operand_guards.clear();
    side.clear();
    busy_.clear();
    active.reset();
    memo_.clear();
    memo_keep_.clear();
    memo_store_.clear();
    memo_for_ = nullptr;
    search_places_.clear();
    search_places_store_.clear();
}

z3::expr symbolic::guarded(const z3::expr& c, const std::function<z3::expr()>& encode) {
    const std::size_t before = side.size();
    operand_guards.push_back(c);
    z3::expr v = encode();
    operand_guards.pop_back();
    if (side.size() > before) {
        z3::expr_vector mine(ctx);
        for (std::size_t i = before; i < side.size(); ++i) mine.push_back(side[i]);
        side.erase(side.begin() + static_cast<std::ptrdiff_t>(before), side.end());
        side.push_back(c.is_true() ? z3::mk_and(mine) : z3::implies(c, z3::mk_and(mine)));
    }
    return v;
}


sv symbolic::value_uncached(id n, env& e, const store& st) {
    const ir::node& nd = N(n);
    auto kid = [&](std::uint32_t i) { return child(n, i); };
    auto I = [&](std::uint32_t i) { return integer(kid(i), e, st); };
    auto B = [&](std::uint32_t i) { return boolean(kid(i), e, st); };
    // Both operands, left first: the order fresh variables are made in must not depend on the
    // compiler's order of evaluating function arguments (witnesses list them in that order).
    auto I2 = [&]() {
        z3::expr a = I(0);
        z3::expr b = I(1);
        return std::make_pair(a, b);
    };
    auto args_of = [&](std::uint32_t from) {
        std::vector<z3::expr> a;
        for (std::uint32_t i = from; i < nd.child_count; ++i) a.push_back(I(i));
        return a;
    };
    auto opaque = [&](const std::string& why) {
        approximations.insert(why);
        z3::expr v = fresh("opaque", nd.type, why, variable::show::value, 0);
        side.push_back(in_type(v, nd.type));
        return sv(kind_of(n) == ir::type_kind::boolean ? bool_of(v) : v);
    };
    switch (nd.code) {
        case op::absent: return sv(num(0));
        case op::const_int:
        case op::const_string:
        case op::const_member:
        case op::const_node: return sv(num(nd.value));
        case op::const_bool: return sv(ctx.bool_val(nd.value != 0));
        case op::const_entity:
            return sv(num(nd.value < 0 ? -1 : static_cast<std::int64_t>(lay.entity_first.at(static_cast<std::size_t>(nd.value)))));
        case op::dice: {
            const ir::dice_term& d = rs.dice_terms.at(nd.ref);
            z3::expr v = fresh("dice", ir::no_id, "dice " + std::to_string(d.count) + "d at " + node_position(n),
                               variable::show::value, d.count * d.low);
            variables.back().dice = n;
            side.push_back(v >= num(d.count * d.low) && v <= num(d.count * d.high));
            return sv(v);
        }
        case op::dice_count: {
            // k dice of faces lo..hi can total exactly the numbers k*lo .. k*hi: one total in that
            // interval is exact (the count k from its own encoding)
            const ir::dice_term& d = rs.dice_terms.at(nd.ref);
            const z3::expr k = I(0);
            z3::expr v = fresh("dice", ir::no_id, "dice (counted) at " + node_position(n), variable::show::value, nd.value * d.low);
            variables.back().dice = n;
            side.push_back(v >= k * num(d.low) && v <= k * num(d.high));
            return sv(v);
        }
        case op::local: {
            if (nd.ref < e.locals.size() && e.locals[nd.ref]) {
                const z3::expr& v = *e.locals[nd.ref];
                return sv(kind_of(n) == ir::type_kind::boolean ? bool_of(v) : v);
            }
            return opaque("a local with no value the checker knows");
        }
        case op::global: return slot_value(nd.ref, num(0), st);
        case op::player_field:
        case op::entity_field: return slot_value(nd.ref, I(0), st);
        case op::attribute: {
            const id t = N(kid(0)).type;
            if (t == ir::no_id || rs.types.at(t).kind != ir::type_kind::entity) return opaque("an attribute of a non-entity");
            return sv(instance_attribute(I(0), rs.types.at(t).ref, static_cast<std::uint32_t>(nd.ref)));
        }
        case op::node_attribute: {
            const z3::expr v = I(0);
            const ir::map& m = rs.maps.at(rs.types.at(N(kid(0)).type).ref);
            // Fixed map data: one `ite` per distinct value (a terrain has a handful), not one per node.
            std::vector<std::int64_t> values;
            values.reserve(m.nodes.size());
            for (const ir::map_node& x : m.nodes) values.push_back(x.values.at(nd.ref));
            const z3::expr acc = node_lookup(values, v, 0);
            return sv(kind_of(n) == ir::type_kind::boolean ? bool_of(acc) : acc);
        }
        case op::zone: {
            const ir::zone& z = rs.zones.at(nd.ref);
            if (!z.per_player && z.map == ir::no_id) return sv(num(static_cast<std::int64_t>(lay.zone_first.at(nd.ref))));
            sv out(num(0));
            out.is_map = true;
            const int copies = static_cast<int>(ir::zone_instance_count(rs, z, lay.players));
            for (int s = 0; s < copies; ++s)
                out.elems.push_back(num(static_cast<std::int64_t>(lay.zone_first.at(nd.ref) + s)));
            return out;
        }
        case op::index: {
            sv m = value(kid(0), e, st);
            const z3::expr key = I(1);
            if (!m.is_map || m.elems.empty()) return opaque("an index into something that is not a map");
            const ir::type& mt = rs.types.at(N(kid(0)).type);
            const std::int64_t first = mt.kind == ir::type_kind::map_of ? lay.key_first(rs, mt.key) : 0;
            if (const auto k = terms::number(key); k && *k >= first && static_cast<std::size_t>(*k - first) < m.elems.size())
                return sv(m.elems[static_cast<std::size_t>(*k - first)]);
            z3::expr acc = m.elems.front();
            for (std::size_t k = 1; k < m.elems.size(); ++k)
                acc = z3::ite(key == num(first + static_cast<std::int64_t>(k)), m.elems[k], acc);
            return sv(acc);
        }
        case op::option: {
            const ir::option& o = rs.options.at(nd.ref);
            if (free_options && !o.values.empty()) {
                auto it = option_vars.find(nd.ref);
                if (it == option_vars.end()) {
                    z3::expr v = fresh("option", o.type, "option " + o.name, variable::show::value, o.values.at(o.default_index));
                    it = option_vars.emplace(nd.ref, v).first;
                }
                z3::expr_vector one(ctx);
                for (std::int64_t x : o.values) one.push_back(it->second == num(x));
                side.push_back(z3::mk_or(one));
                return sv(kind_of(n) == ir::type_kind::boolean ? bool_of(it->second) : it->second);
            }
            const std::int64_t v = o.values.empty() ? 0 : o.values.at(o.selected_index);
            return sv(kind_of(n) == ir::type_kind::boolean ? ctx.bool_val(v != 0) : num(v));
        }
        case op::roll: return sv(roll_value(nd.ref, args_of(0), st, fixed_rolls));
        case op::quantity: {
            const ir::derived& q = rs.quantities.at(nd.ref);
            std::vector<z3::expr> a = args_of(0);
            context_.push_back((q.predicate ? "predicate " : "quantity ") + q.name);
            struct pop { std::vector<std::string>& c; ~pop() { c.pop_back(); } } popper{context_};
            env qe;
            qe.locals.resize(std::max(q.locals.size(), a.size()));
            for (std::size_t i = 0; i < a.size() && i < q.locals.size(); ++i) qe.locals[i] = a[i];
            if (q.predicate) return sv(boolean(q.expr, qe, st));
            z3::expr v = integer(q.expr, qe, st);
            const id group = group_of_target[static_cast<int>(ir::target_kind::quantity)].at(nd.ref);
            return sv(modified(group, v, a, st));
        }
        case op::decide: {
            const ir::decision& d = rs.decisions.at(nd.ref);
            std::vector<z3::expr> a = args_of(0);
            z3::expr v = fresh("decision", d.result, "decision " + d.name, variable::show::value, 0);
            side.push_back(in_type(v, d.result));
            const id group = group_of_target[static_cast<int>(ir::target_kind::decision)].at(nd.ref);
            std::vector<z3::expr> defined;
            const std::map<id, z3::expr> eff = group_effective(group, a, st);
            for (const auto& [rule, applies] : eff) {
                const ir::rule& r = rs.rules.at(rule);
                if (r.kind != ir::rule_kind::define || r.value == ir::no_id) continue;
                env re;
                re.locals.resize(std::max(r.locals.size(), a.size()));
                for (std::size_t i = 0; i < a.size() && i < r.locals.size(); ++i) re.locals[i] = a[i];
                defined.push_back(z3::implies(applies, v == integer(r.value, re, st)));
            }
            // recorded before the rules' values constrain the decision (they may disagree)
            if (on_rule)
                for (const auto& [rule, applies] : eff) on_rule(rule, applies, rule_guard(rule, a, st));
            for (const z3::expr& d : defined) side.push_back(d);
            return sv(rs.types.at(d.result).kind == ir::type_kind::boolean ? bool_of(v) : v);
        }
        case op::lookup: {
            const ir::table& tb = rs.tables.at(nd.ref);
            if (tb.outcome_type == ir::no_id) return opaque("a table with no outcome looked up");
            replay_point rp;
            rp.variables_from = variables.size();
            const std::vector<z3::expr> a = args_of(0);
            table_binding b = bind_table(nd.ref, a, st);
            if (on_table) {
                rp.recorded = true;
                rp.st = snapshot(st);
                rp.locals.assign(a.begin(), a.end());
                rp.variables_to = variables.size();
                on_table(nd.ref, n, b.keys, rp);
            }
            z3::expr v = fresh("outcome", tb.outcome_type, "outcome of " + tb.name, variable::show::value, 0);
            // the cell the engine reads gives the outcome; with none, the engine stops, so play
            // goes on only where one does
            z3::expr_vector cases(ctx);
            const std::vector<z3::expr> sel = cell_selections(nd.ref, b.keys);
            for (std::size_t i = 0; i < sel.size(); ++i)
                if (tb.cells[i].has_outcome) cases.push_back(sel[i] && v == num(tb.cells[i].outcome));
            side.push_back(cases.empty() ? ctx.bool_val(false) : z3::mk_or(cases));
            return sv(rs.types.at(tb.outcome_type).kind == ir::type_kind::boolean ? bool_of(v) : v);
        }
        case op::builtin: {
            const auto b = static_cast<ir::builtin>(nd.ref);
            switch (b) {
                case ir::builtin::count:
                case ir::builtin::size: {
                    if (kind_of(kid(0)) == ir::type_kind::integer) return sv(I(0));
                    // a per-location zone's count: one value, kept by the zone statements
                    if (const id z = zone_of(kid(0)); z != ir::no_id && !count_cells(z).empty())
                        return sv(zone_count(z, zone_instance(kid(0), e, st), st));
                    z3::expr acc = num(0);
                    for (const member& m : set_members(kid(0), e, st)) acc = terms::add(acc, terms::ite(m.in, num(1), num(0)));
                    return sv(acc);
                }
                case ir::builtin::top: {
                    const std::vector<member> ms = set_members(kid(0), e, st);
                    z3::expr t = fresh("top", N(n).type, "the top card at " + node_position(n), variable::show::instance, -1);
                    z3::expr_vector cases(ctx);
                    z3::expr_vector any(ctx);
                    for (const member& m : ms) {
                        cases.push_back(t == m.value && m.in);
                        any.push_back(m.in);
                    }
                    cases.push_back(t == -1 && !(any.empty() ? ctx.bool_val(false) : z3::mk_or(any)));
                    side.push_back(z3::mk_or(cases));
                    approximations.insert("the order of cards in a zone (`top` is any card of it)");
                    return sv(t);
                }
                case ir::builtin::active_player: {
                    if (active) return sv(*active);
                    z3::expr p = fresh("active", ir::no_id, "the active player", variable::show::player, 0);
                    side.push_back(p >= 0 && p < n_players);
                    active = p;
                    return sv(p);
                }
                case ir::builtin::min: { auto [a, b] = I2(); return sv(z3::ite(a < b, a, b)); }
                case ir::builtin::max: { auto [a, b] = I2(); return sv(z3::ite(a > b, a, b)); }
                case ir::builtin::abs: { const z3::expr a = I(0); return sv(z3::ite(a < 0, -a, a)); }
                case ir::builtin::ceil_div:
                case ir::builtin::floor_div: {
                    const auto [a, d] = I2();
                    // Z3's div is Euclidean: it agrees with floor division for a positive divisor.
                    if (b == ir::builtin::floor_div) return sv(z3::ite(d > 0, a / d, -((-a) / d)));
                    return sv(z3::ite(d > 0, -((-a) / d), a / d));
                }
                case ir::builtin::adjacent: {
                    const auto [a, c] = I2();
                    const ir::map& m = rs.maps.at(rs.types.at(N(kid(0)).type).ref);
                    // a known node on either side: the few edges from it (the same formula)
                    const auto ka = terms::number(a), kc = terms::number(c);
                    if (ka || kc) {
                        z3::expr_vector near(ctx);
                        for (std::size_t x = 0; x < m.nodes.size(); ++x) {
                            if (ka && static_cast<std::int64_t>(x) != *ka) continue;
                            for (id y : m.nodes[x].neighbours) {
                                if (kc && static_cast<std::int64_t>(y) != *kc) continue;
                                if (ka && kc) return sv(ctx.bool_val(true));
                                near.push_back(ka ? c == num(static_cast<std::int64_t>(y))
                                                  : a == num(static_cast<std::int64_t>(x)));
                            }
                        }
                        return sv(near.empty() ? ctx.bool_val(false) : z3::mk_or(near));
                    }
                    z3::expr_vector pairs(ctx);
                    for (std::size_t x = 0; x < m.nodes.size(); ++x)
                        for (id y : m.nodes[x].neighbours)
                            pairs.push_back(a == num(static_cast<std::int64_t>(x)) && c == num(static_cast<std::int64_t>(y)));
                    return sv(pairs.empty() ? ctx.bool_val(false) : z3::mk_or(pairs));
                }
                case ir::builtin::edge_kind: {
                    // the first kind of the first edge from a to b; with none the engine stops
                    const auto [x, y] = I2();
                    const id map = rs.types.at(N(kid(0)).type).ref;
                    const z3::expr v = edge_kind_at(map, x, y);
                    side.push_back(v != -1);
                    return sv(v);
                }
                case ir::builtin::odds: {
                    // as the engine holds it: the attacker in the high 32 bits, the defender low
                    const auto [a, d] = I2();
                    return sv(a * num(static_cast<std::int64_t>(1) << 32) + d);
                }
                case ir::builtin::terrain: {
                    const ir::map& m = rs.maps.at(rs.types.at(N(kid(0)).type).ref);
                    std::vector<std::int64_t> terrain;
                    for (const ir::map_node& x : m.nodes) terrain.push_back(x.terrain);
                    return sv(node_lookup(terrain, I(0), -1));
                }
                case ir::builtin::distance: {
                    // between two known nodes (a worked example's hexes): the map's own count
                    const auto [a, c] = I2();
                    const ir::map& m = rs.maps.at(rs.types.at(N(kid(0)).type).ref);
                    const auto ka = terms::number(a), kc = terms::number(c);
                    const auto inside = [&](std::int64_t k) { return k >= 0 && static_cast<std::size_t>(k) < m.nodes.size(); };
                    if (ka && kc && inside(*ka) && inside(*kc)) {
                        const std::int64_t d = ir::map_distance(m, *ka, *kc);
                        if (d >= 0) return sv(num(d));
                    }
                    // The map is fixed data: the distance between any two of its nodes is exact.
                    // (No location, -1, reads as some node: the engine stops there if it ever
                    // evaluates it, which an `and` before it may prevent, so nothing is assumed.)
                    const auto n = static_cast<std::int64_t>(m.nodes.size());
                    const id map = rs.types.at(N(kid(0)).type).ref;
                    if (m.kind == ir::map_kind::hexgrid) {
                        // cube coordinates (ir::map_distance): the largest of |dx|, |dz|, |dx + dz|
                        auto coordinate = [&](const z3::expr& node, const std::optional<std::int64_t>& known, int axis) {
                            if (known) return num(axis == 0 ? hex_x(m.nodes[static_cast<std::size_t>(*known)])
                                                            : hex_z(m.nodes[static_cast<std::size_t>(*known)]));
                            return cube_coordinate(map, axis, node);
                        };
                        const z3::expr dx = coordinate(a, ka, 0) - coordinate(c, kc, 0);
                        const z3::expr dz = coordinate(a, ka, 1) - coordinate(c, kc, 1);
                        const z3::expr ax = z3::ite(dx >= 0, dx, -dx), az = z3::ite(dz >= 0, dz, -dz);
                        const z3::expr ay = z3::ite(dx + dz >= 0, dx + dz, -(dx + dz));
                        const z3::expr m1 = z3::ite(ax >= az, ax, az);
                        return sv(z3::ite(m1 >= ay, m1, ay));
                    }
                    if (n <= max_distance_matrix) {  // an area map: its matrix of shortest paths
                        // (-1 where no path joins them, as the engine reads it)
                        return sv(z3::select(distance_table(map), a * num(n) + c));
                    }
                    return opaque("the built-in `distance` on an area map of more than " + std::to_string(max_distance_matrix) + " areas");
                }
                case ir::builtin::path_exists:
                case ir::builtin::line_blocked: {
                    if (!map_searches) return opaque(std::string("the built-in `") + ir::name_of(b) + "`");
                    const auto [a, c] = I2();
                    return sv(map_search_value(n, a, c, args_of(2), st));
                }
                case ir::builtin::path_length: {
                    // exact when the search is fixed (known ends, arguments and predicate values:
                    // the map is data); else any value, listed as approximated
                    const auto [a, c] = I2();
                    const std::vector<z3::expr> extra = args_of(2);
                    bool gaps = false;
                    const std::optional<z3::expr> exact = path_length_exact(n, a, c, extra, st, gaps);
                    if (exact && !gaps) return sv(*exact);
                    // with no path (-1 in the table) play stops: any value there
                    const std::string why = exact ? "the built-in `path_length` between locations no path joins (play stops there)"
                                                  : "the built-in `path_length` (its predicate's answers not fixed, or ends that vary on a map of over " +
                                                        std::to_string(max_distance_matrix) + " locations)";
                    approximations.insert(why);
                    std::vector<z3::expr> keep{a, c};
                    for (const z3::expr& x : extra) keep.push_back(x);
                    for (const z3::expr& x : st.values) keep.push_back(x);
                    for (const z3::expr& x : st.loc) keep.push_back(x);
                    std::vector<unsigned> key{static_cast<unsigned>(nd.value), static_cast<unsigned>(extra.size())};
                    for (const z3::expr& x : keep) key.push_back(x.id());
                    auto it = path_lengths_.find(key);
                    if (it == path_lengths_.end())
                        it = path_lengths_.emplace(key, held_length{std::move(keep), fresh("opaque", nd.type, why, variable::show::value, 0)}).first;
                    const z3::expr v = it->second.value;
                    // what holds of any length play reaches (with no path, play stops)
                    side.push_back(v >= 0 && z3::implies(a == c, v == 0) && z3::implies(a != c, v >= 1));
                    if (exact) return sv(terms::number(*exact) ? v : z3::ite(*exact >= 0, *exact, v));
                    return sv(v);
                }
                default: return opaque(std::string("the built-in `") + ir::name_of(b) + "`");
            }
        }
        case op::neg: return sv(-I(0));
        case op::not_: return sv(terms::not_(B(0)));
        case op::add: { auto [a, b] = I2(); return sv(a + b); }
        case op::sub: { auto [a, b] = I2(); return sv(a - b); }
        case op::mul: { auto [a, b] = I2(); return sv(a * b); }
        case op::div:
        case op::mod: {
            const auto [a, d] = I2();
            // two known numbers (a worked example's): the engine's own answer, so the solver
            // never sees a division it might leave undecided
            if (const auto ka = terms::number(a), kd = terms::number(d); ka && kd && *kd != 0 && !(*kd == -1 && *ka == std::numeric_limits<std::int64_t>::min()))
                return sv(num(nd.code == op::div ? *ka / *kd : *ka % *kd));
            side.push_back(d != 0);
            // The engine divides as C++ does (truncating); Z3's div is Euclidean.
            // |d| by hand: z3::abs of Z3 4.8.12 makes its comparison, then `-d` (an API call
            // that releases the comparison) before the `ite` that uses it, when the compiler
            // evaluates arguments left to right (Clang): the term is freed and reused.
            const z3::expr abs_d = z3::ite(d >= 0, d, -d);
            const z3::expr q = z3::ite(a >= 0, a / abs_d, -((-a) / abs_d));
            const z3::expr tq = z3::ite(d > 0, q, -q);
            return sv(nd.code == op::div ? tq : a - d * tq);
        }
        case op::eq:
        case op::ne: {
            const id l = kid(0), r = kid(1);
            z3::expr a = value(l, e, st).e, c = value(r, e, st).e;
            if (a.is_bool() != c.is_bool()) { a = int_of(a); c = int_of(c); }
            // A card named in the rules stands for every copy of it.
            if (N(l).code == op::const_entity || N(r).code == op::const_entity) {
                const id named = N(l).code == op::const_entity ? l : r;
                const z3::expr other = N(l).code == op::const_entity ? c : a;
                const std::int64_t ent = N(named).value;
                z3::expr same = ctx.bool_val(false);
                if (ent >= 0) {
                    const std::int64_t lo = lay.entity_first.at(static_cast<std::size_t>(ent));
                    same = terms::and_(terms::ge(other, num(lo)), terms::lt(other, num(lo + rs.entities.at(static_cast<std::size_t>(ent)).count)));
                } else {
                    same = terms::lt(other, num(0));
                }
                return sv(nd.code == op::eq ? same : terms::not_(same));
            }
            return sv(nd.code == op::eq ? terms::eq(a, c) : terms::ne(a, c));
        }
        case op::lt: { auto [a, b] = I2(); return sv(terms::lt(a, b)); }
        case op::le: { auto [a, b] = I2(); return sv(terms::le(a, b)); }
        case op::gt: { auto [a, b] = I2(); return sv(terms::gt(a, b)); }
        case op::ge: { auto [a, b] = I2(); return sv(terms::ge(a, b)); }
        case op::in: {
            const z3::expr v = I(0);
            const bool by_entity = N(kid(0)).code == op::const_entity;
            z3::expr_vector any(ctx);
            for (const member& m : set_members(kid(1), e, st)) {
                if (by_entity) {
                    const std::int64_t ent = N(kid(0)).value;
                    const std::int64_t lo = lay.entity_first.at(static_cast<std::size_t>(ent));
                    any.push_back(terms::and_(m.in, terms::and_(terms::ge(m.value, num(lo)),
                                                                terms::lt(m.value, num(lo + rs.entities.at(static_cast<std::size_t>(ent)).count)))));
                } else {
                    any.push_back(terms::and_(m.in, terms::eq(m.value, v)));
                }
            }
            return sv(any.empty() ? ctx.bool_val(false) : z3::mk_or(any));
        }
        case op::and_: {
            const z3::expr a = B(0);
            return sv(terms::and_(a, guarded(a, [&] { return B(1); })));
        }
        case op::or_: {
            const z3::expr a = B(0);
            return sv(terms::or_(a, guarded(!a, [&] { return B(1); })));
        }
        case op::cond: {
            const z3::expr c = B(0);
            z3::expr a = guarded(c, [&] { return value(kid(1), e, st).e; });
            z3::expr d = guarded(!c, [&] { return value(kid(2), e, st).e; });
            if (a.is_bool() != d.is_bool()) { a = int_of(a); d = int_of(d); }
            return sv(terms::ite(c, a, d));
        }
        case op::any:
        case op::all:
        case op::count:
        case op::sum:
        case op::min:
        case op::max: {
            const std::vector<member> ms = set_members(kid(0), e, st);
            // The budget: an unfolding past the limit becomes any value of the aggregate's type
            // (an over-approximation: "never" stays a proof, a witness may rest on it).
            const std::uint64_t body = std::max<std::uint64_t>(1, unfold_cost(kid(1)));
            const std::uint64_t size = ms.size();
            if (unfold_limit > 0 && size > 0 &&
                (body > unfold_limit || size * body > unfold_limit)) {
                std::string what = std::string("aggregate `") + ir::name_of(nd.code) + "` over " + set_text(kid(0)) + " (" +
                                   std::to_string(size) + (body > 1 ? " × " + std::to_string(body) : "") + ")";
                what += context_.empty() ? " at " + node_position(n) : " in " + context_.back();
                const z3::expr v = cut_value(what, nd.type);
                if (nd.code == op::any || nd.code == op::all) {
                    side.push_back(v >= 0 && v <= 1);
                    return sv(bool_of(v));
                }
                if (nd.code == op::count) side.push_back(v >= 0 && v <= num(static_cast<std::int64_t>(size)));
                return sv(v);
            }
            if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
            const std::optional<z3::expr> saved = e.locals[nd.ref];
            z3::expr_vector parts(ctx);  // any, all: the members' terms not known false (true)
            bool decided = false;        // any: one is known true; all: one is known false
            z3::expr acc = num(0);
            bool first = true;
            for (const member& m : ms) {
                e.locals[nd.ref] = m.value;
                sv body = value(kid(1), e, st);
                switch (nd.code) {
                    case op::any:
                    case op::all: {
                        const bool any = nd.code == op::any;
                        const z3::expr t = any ? terms::and_(m.in, bool_of(body.e)) : terms::implies(m.in, bool_of(body.e));
                        const std::optional<bool> known = terms::truth(t);
                        if (!known) parts.push_back(t);
                        else if (*known == any) decided = true;
                        break;
                    }
                    case op::count: acc = terms::add(acc, terms::ite(terms::and_(m.in, bool_of(body.e)), num(1), num(0))); break;
                    case op::sum: acc = terms::add(acc, terms::ite(m.in, int_of(body.e), num(0))); break;
                    case op::min:
                    case op::max: {
                        const z3::expr v = int_of(body.e);
                        if (first) {
                            acc = terms::ite(m.in, v, num(0));
                        } else {
                            // an element not yet seen (all before absent) or better than the best so far
                            const z3::expr better = nd.code == op::min ? terms::lt(v, acc) : terms::gt(v, acc);
                            acc = terms::ite(terms::and_(m.in, terms::or_(better, terms::not_(seen_any(ms, m)))), v, acc);
                        }
                        first = false;
                        break;
                    }
                    default: break;
                }
            }
            e.locals[nd.ref] = saved;
            if (nd.code == op::any) return sv(decided ? ctx.bool_val(true) : parts.empty() ? ctx.bool_val(false) : z3::mk_or(parts));
            if (nd.code == op::all) return sv(decided ? ctx.bool_val(false) : parts.empty() ? ctx.bool_val(true) : z3::mk_and(parts));
            return sv(acc);
        }
        default: return opaque(std::string("the expression `") + ir::name_of(nd.code) + "`");
    }
}

}  // namespace wp::verify::detail
