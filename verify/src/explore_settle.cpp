// What a summarised `for each` leaves known after it (docs/checker.md, "How", step 2): the
// fields its body sets to a constant for its element, and the numbers it adds its elements'
// values to. The summary itself (forget, one round from any state) is in explore_statements.cpp.
#include "explore_impl.hpp"

#include <functional>
#include <set>

namespace wp::verify::detail {

// Whether statement stmt may write any cell of a slot.
bool exec_impl::writes_slot(id stmt, const layout::slot_place& sp) {
    const writes& ws = writes_of(stmt);
    const auto it = ws.values.lower_bound(sp.offset);
    return it != ws.values.end() && *it < sp.offset + sp.copies * sp.width;
}

// Whether the body's top-level statement i is the only one that may write the slot.
bool exec_impl::only_writer(id body, std::uint32_t i, const layout::slot_place& sp) {
    for (std::uint32_t j = 0; j < N(body).child_count; ++j)
        if (j != i && writes_slot(child(body, j), sp)) return false;
    return true;
}

// Whether `target` is a field of the loop's own element (local var).
bool exec_impl::own_field(id target, std::uint32_t var) {
    const ir::node& t = N(target);
    return (t.code == op::player_field || t.code == op::entity_field) && N(child(target, 0)).code == op::local &&
           N(child(target, 0)).ref == var;
}

// For every member visited, its own field `target` becomes now(was, v): was its value before the
// loop, v the statement's `value` for that member, read before the loop. A member not in the set
// keeps its value from before the loop. Returns the places written.
std::set<std::uint32_t> exec_impl::settle_own(std::uint32_t var, id target, id value, const std::vector<member>& ms,
                                               const store& before, env& e, path& p,
                                               const std::function<z3::expr(const z3::expr&, const z3::expr&)>& now) {
    if (var >= e.locals.size()) e.locals.resize(var + 1);
    const std::optional<z3::expr> saved = e.locals[var];
    std::set<std::uint32_t> settled;  // written for an earlier member: its value stands
    for (const member& m : ms) {
        if (m.in.is_false()) continue;
        e.locals[var] = m.value;
        const z3::expr v = S.integer(value, e, before);
        for (const place& pl : S.places(target, e, p.st)) {
            if (pl.index >= before.values.size() || fold_.is_false(pl.when)) continue;
            const z3::expr set_here = (m.in && pl.when).simplify();
            const z3::expr was = before.values[pl.index];
            const z3::expr to = now(was, v);
            const z3::expr other = settled.count(pl.index) ? p.st.values[pl.index] : was;
            p.st.values[pl.index] = fold_.is_true(set_here) ? to : z3::ite(set_here, to, other);
            settled.insert(pl.index);
        }
    }
    e.locals[var] = saved;
    return settled;
}

// After a summarised `for each`: a field the body sets to a constant for the loop's own element
// (`p.bid_pay = 0;` among the body's top-level statements), and that nothing else in the body
// writes, holds that constant for every member the loop visited; a member that was not in the
// set keeps its value from before the loop. Every round runs the body's top level to its end:
// a round that ends the turn leaves on a path of its own (turn_ends_), and this path is the
// rounds that did not. Without this, a phase that clears a field for every player left it
// any value (Wallenstein's bids, paid and cleared in fix_order before the actions are done).
void exec_impl::settle_fields(id n, const std::vector<member>& ms, id body, const store& before, env& e, path& p) {
    if (no_frames_ || examples_ || body == ir::no_id || N(body).code != op::seq) return;
    const id var = N(n).ref;
    for (std::uint32_t i = 0; i < N(body).child_count; ++i) {
        const id c = child(body, i);
        if (N(c).code != op::assign) continue;
        const id target = child(c, 0), value = child(c, 1);
        if (!own_field(target, var)) continue;
        const ir::node& v = N(value);
        if (v.code != op::const_int && v.code != op::const_bool && v.code != op::const_member && v.code != op::const_entity) continue;
        const layout::slot_place& sp = S.lay.slots.at(N(target).ref);
        if (sp.width != 1 || !only_writer(body, i, sp)) continue;
        settle_own(var, target, value, ms, before, e, p, [](const z3::expr&, const z3::expr& k) { return k; });
        drain(p, n);
    }
}

// After a summarised `for each`: a number the body adds to (or takes from) at its top level, a
// value of the game's (`total += c.markers;`) or the loop's element's own field (`q.casting +=
// q.tray_cubes;`), by a value that reads only the element's own fields not written before that
// statement in the round (and written after it only as the element's own), the values the body
// never writes and constants, and that nothing else in the body writes. A value of the game's
// ends at its value before the loop plus (minus) that value of every member visited; an own field
// at its value before the loop plus (minus) its member's. Each is read as it was before the loop:
// no other round writes an element's own field, and this one not before the sum reads it.
// Without this, a loop that gathers what settle_fields clears (the year's end puts every county's
// markers back into the supply; a battle's cubes from the tray back into the hand) left the
// total any value and the invariant that they add up false in a state no game reaches
// (Wallenstein's marker_supply and cubes_add_up). Not for a clamped number: each step's clamp
// counts there.
void exec_impl::settle_sums(id n, const std::vector<member>& ms, id body, const store& before, env& e, path& p) {
    if (no_frames_ || examples_ || body == ir::no_id || N(body).code != op::seq) return;
    const id var = N(n).ref;
    for (std::uint32_t i = 0; i < N(body).child_count; ++i) {
        const id c = child(body, i);
        if (N(c).code != op::add_assign && N(c).code != op::sub_assign) continue;
        const bool adds = N(c).code == op::add_assign;
        const id target = child(c, 0), value = child(c, 1);
        const ir::node& t = N(target);
        const bool own = own_field(target, var);
        if (t.code != op::global && !own) continue;
        const id type = t.type;
        const bool range = type != ir::no_id && rs.types.at(type).kind == ir::type_kind::range;
        if (range && rs.types.at(type).policy == ir::overflow::clamp) continue;
        const layout::slot_place& sp = S.lay.slots.at(t.ref);
        if (sp.width != 1 || (!own && sp.copies != 1)) continue;
        if (!only_writer(body, i, sp) || !reads_own_start(value, body, i, var)) continue;
        std::set<std::uint32_t> settled;
        if (own) {
            settled = settle_own(var, target, value, ms, before, e, p,
                                 [&](const z3::expr& was, const z3::expr& v) { return adds ? was + v : was - v; });
        } else {
            if (var >= e.locals.size()) e.locals.resize(var + 1);
            const std::optional<z3::expr> saved = e.locals[var];
            z3::expr total = before.values.at(sp.offset);
            for (const member& m : ms) {
                if (m.in.is_false()) continue;
                e.locals[var] = m.value;
                const z3::expr v = S.integer(value, e, before);
                const z3::expr step = m.in.is_true() ? v : z3::ite(m.in, v, S.num(0));
                total = adds ? total + step : total - step;
            }
            e.locals[var] = saved;
            p.st.values[sp.offset] = total.simplify();
        }
        drain(p, n);
        // the engine stops with an error at a round out of range: the game goes on only within it
        if (range && rs.types.at(type).policy == ir::overflow::error) {
            z3::expr_vector ok(ctx);
            if (!own) ok.push_back(S.in_type(p.st.values[sp.offset], type));
            for (std::uint32_t k : settled) ok.push_back(S.in_type(p.st.values[k], type));
            if (!ok.empty()) add_fact(p, z3::mk_and(ok), "the value stays in range at " + at(c));
        }
    }
}

// Whether expression x reads, in round `at` of a loop over local `var` with this body, only what
// it was at the loop's start: constants and options, the loop's element, values the body never
// writes, and the element's own fields that no statement of the body before `at` (nor `at`
// itself) writes and later ones write only as the element's own.
bool exec_impl::reads_own_start(id x, id body, std::uint32_t at, std::uint32_t var) {
    const ir::node& nd = N(x);
    auto written_by = [&](std::uint32_t j, const layout::slot_place& sp) { return writes_slot(child(body, j), sp); };
    switch (nd.code) {
        case op::const_int:
        case op::const_bool:
        case op::const_member:
        case op::const_entity:
        case op::option: return true;
        case op::local: return nd.ref == var;
        case op::global: {
            const layout::slot_place& sp = S.lay.slots.at(nd.ref);
            for (std::uint32_t j = 0; j < N(body).child_count; ++j)
                if (written_by(j, sp)) return false;
            return true;
        }
        case op::player_field:
        case op::entity_field: {
            const id owner = child(x, 0);
            if (N(owner).code != op::local || N(owner).ref != var) return false;
            const layout::slot_place& sp = S.lay.slots.at(nd.ref);
            for (std::uint32_t j = 0; j < N(body).child_count; ++j) {
                if (!written_by(j, sp)) continue;
                if (j <= at) return false;
                // a later write only to the element's own field
                const id w = child(body, j);
                const ir::node& wn = N(w);
                if (wn.code != op::assign && wn.code != op::add_assign && wn.code != op::sub_assign) return false;
                const id t = child(w, 0);
                if (N(t).code != nd.code || N(t).ref != nd.ref || N(child(t, 0)).code != op::local || N(child(t, 0)).ref != var)
                    return false;
            }
            return true;
        }
        case op::neg:
        case op::not_:
        case op::add:
        case op::sub:
        case op::mul:
        case op::eq:
        case op::ne:
        case op::lt:
        case op::le:
        case op::gt:
        case op::ge:
        case op::and_:
        case op::or_:
        case op::cond:
            for (std::uint32_t k = 0; k < nd.child_count; ++k)
                if (!reads_own_start(child(x, k), body, at, var)) return false;
            return true;
        default: return false;
    }
}

}  // namespace wp::verify::detail
