// What a statement may write and where it may take pieces from, read from the IR alone and
// memoised per node: the loops forget what their bodies write and keep what no round takes.
#include "explore_impl.hpp"

#include <algorithm>

namespace wp::verify::detail {

// The statements that hold statements: the walks below go into them.
static bool nests_statements(op code) {
    switch (code) {
        case op::seq:
        case op::block:
        case op::if_:
        case op::for_each:
        case op::while_:
        case op::repeat_until:
        case op::choose_one:
        case op::choose_subset:
        case op::choose_order:
        case op::may:
        case op::simultaneous:
            return true;
        default: return false;
    }
}

id exec_impl::kind_of_zone_node(id n) const {
    id t = N(n).type;
    if (t == ir::no_id) return ir::no_id;
    if (rs.types.at(t).kind == ir::type_kind::map_of) t = rs.types.at(t).value;
    if (t == ir::no_id || rs.types.at(t).kind != ir::type_kind::zone) return ir::no_id;
    return rs.types.at(t).ref;
}

// The zone a zone expression names (`hand[p]`: hand), or none (a location's zone read otherwise).
id exec_impl::zone_of_node(id n) const {
    if (N(n).code == op::zone) return N(n).ref;
    return N(n).code == op::index && N(n).child_count > 0 ? zone_of_node(child(n, 0)) : ir::no_id;
}

void exec_impl::add_slot(writes& w, id slot) {
    const layout::slot_place& p = S.lay.slots.at(slot);
    for (std::uint32_t i = 0; i < p.width * p.copies; ++i) w.values.insert(p.offset + i);
}

void exec_impl::merge_into(writes& w, const writes& o) {
    w.values.insert(o.values.begin(), o.values.end());
    w.kinds.insert(o.kinds.begin(), o.kinds.end());
}

// Whether expression n reads an option, directly or through a quantity or predicate.
bool exec_impl::reads_option(id n) {
    if (n == ir::no_id) return false;
    if (auto it = reads_option_memo_.find(n); it != reads_option_memo_.end()) return it->second;
    reads_option_memo_[n] = false;  // a recursive quantity adds nothing the first visit misses
    const ir::node& nd = N(n);
    bool r = nd.code == op::option;
    if (!r && nd.code == op::quantity) r = reads_option(rs.quantities.at(nd.ref).expr);
    for (std::uint32_t i = 0; !r && i < nd.child_count; ++i) r = reads_option(child(n, i));
    return reads_option_memo_[n] = r;
}

// The blocks and `end game`s statement n holds or calls, into S.skipped_blocks_and_ends: the
// reach checks ask those of a skipped way under the other options (see skipped_ways).
void exec_impl::note_blocks_and_ends(id n) {
    if (n == ir::no_id || !blocks_walked_.insert(n).second) return;
    const ir::node& nd = N(n);
    if (nd.code == op::block || nd.code == op::end_game) S.skipped_blocks_and_ends.insert(n);
    if (nd.code == op::call) note_blocks_and_ends(rs.procedures.at(nd.ref).body);
    if (nd.code == op::do_action) note_blocks_and_ends(rs.actions.at(nd.ref).body);
    for (std::uint32_t i = 0; i < nd.child_count; ++i) note_blocks_and_ends(child(n, i));
}

const writes& exec_impl::writes_of(id n) {
    if (auto it = memo_.find(n); it != memo_.end() && !in_progress_.count(n)) return it->second;
    writes& w = memo_[n];
    if (in_progress_.count(n)) return w;
    in_progress_.insert(n);
    writes acc;
    collect(n, acc);
    memo_[n] = acc;
    in_progress_.erase(n);
    return memo_[n];
}

void exec_impl::collect(id n, writes& w) {
    if (n == ir::no_id) return;
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::assign:
        case op::add_assign:
        case op::sub_assign: add_slot(w, slot_of(child(n, 0))); break;
        case op::move: {
            const id t = N(child(n, 0)).type;
            if (t != ir::no_id && rs.types.at(t).kind == ir::type_kind::entity) w.kinds.insert(rs.types.at(t).ref);
            break;
        }
        case op::draw:
        case op::deal:
        case op::reshuffle: {
            const id k = kind_of_zone_node(child(n, nd.code == op::reshuffle ? 0 : 1));
            if (k != ir::no_id) w.kinds.insert(k);
            break;
        }
        case op::do_action: merge_into(w, writes_of(rs.actions.at(nd.ref).body)); break;
        case op::call: merge_into(w, writes_of(rs.procedures.at(nd.ref).body)); break;
        case op::resolve:
            for (const ir::table_cell& c : rs.tables.at(nd.ref).cells)
                if (c.effects != ir::no_id) merge_into(w, writes_of(c.effects));
            break;
        case op::emit:
            for (id r = 0; r < rs.rules.size(); ++r) {
                const ir::rule& rule = rs.rules[r];
                if (rule.kind == ir::rule_kind::trigger && rule.target == ir::target_kind::event &&
                    rule.target_id == nd.ref && rule.body != ir::no_id)
                    merge_into(w, writes_of(rule.body));
            }
            break;
        default: break;
    }
    // statements nest in statements; expressions never write
    if (nests_statements(nd.code))
        for (std::uint32_t i = 0; i < nd.child_count; ++i) collect(child(n, i), w);
}

// The kind of piece a loop over `set` visits, each once, when the set is one of distinct
// pieces: a zone, every piece of a kind, a chosen subset (a list local). A stored list may
// hold a piece twice: none.
id exec_impl::loop_piece_kind(id set) const {
    const ir::node& nd = N(set);
    if (nd.type == ir::no_id) return ir::no_id;
    const ir::type& t = rs.types.at(nd.type);
    if (t.kind == ir::type_kind::zone) return t.ref;
    if (nd.code == op::type_members) {
        const ir::type& m = rs.types.at(nd.ref);
        return m.kind == ir::type_kind::entity ? m.ref : ir::no_id;
    }
    if (nd.code == op::local && t.kind == ir::type_kind::list_of && t.value != ir::no_id &&
        rs.types.at(t.value).kind == ir::type_kind::entity)
        return rs.types.at(t.value).ref;
    return ir::no_id;
}

// Whether the only statements in n that move pieces of `kind` are `move`s of local `var`
// (the loop's own piece): then a round never moves the piece of another round.
bool exec_impl::moves_only_local(id n, std::uint32_t var, id kind) {
    if (n == ir::no_id) return true;
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::move: {
            const ir::node& what = N(child(n, 0));
            const bool same_kind = what.type != ir::no_id && rs.types.at(what.type).kind == ir::type_kind::entity &&
                                   rs.types.at(what.type).ref == kind;
            return !same_kind || (what.code == op::local && what.ref == var);
        }
        case op::draw:
        case op::deal:
        case op::reshuffle:
        case op::do_action:
        case op::call:
        case op::resolve:
        case op::emit: return !writes_of(n).kinds.count(kind);
        default:
            if (nests_statements(nd.code))
                for (std::uint32_t i = 0; i < nd.child_count; ++i)
                    if (!moves_only_local(child(n, i), var, kind)) return false;
            return true;
    }
}

// Whether statement n holds only assignments, `let`s, `if`s and `move`s: no loop, decision,
// call, draw, table or event, so that running it once per element costs a few terms a round.
bool exec_impl::straight(id n) const {
    if (n == ir::no_id) return true;
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::absent:
        case op::let:
        case op::assign:
        case op::add_assign:
        case op::sub_assign:
        case op::move: return true;
        case op::seq:
            for (std::uint32_t i = 0; i < nd.child_count; ++i)
                if (!straight(child(n, i))) return false;
            return true;
        case op::if_: return straight(child(n, 1)) && straight(child(n, 2));
        default: return false;
    }
}

// Whether every write of `slot` in n names the seat or piece one of `vars` holds (a loop's own
// element, or a parameter it is passed to): then a round of the loop writes no other round's
// copy of the field. A call passes the element on through the parameters it binds to it; a
// table's effects, a trigger, or a call that writes the field otherwise, say no.
bool exec_impl::writes_slot_only_local(id n, const std::set<std::uint32_t>& vars, id slot, int depth) {
    if (n == ir::no_id) return true;
    const ir::node& nd = N(n);
    const std::uint32_t first = S.lay.slots.at(slot).offset;
    auto names_own = [&](id target) {
        while (N(target).code == op::index) target = child(target, 0);
        const ir::node& t = N(target);
        if (t.code != op::player_field && t.code != op::entity_field) return false;
        const ir::node& whose = N(child(target, 0));
        return whose.code == op::local && vars.count(whose.ref) > 0;
    };
    auto callee = [&](id body) {
        if (!writes_of(body).values.count(first)) return true;
        std::set<std::uint32_t> bound;
        for (std::uint32_t i = 0; i < nd.child_count; ++i)
            if (N(child(n, i)).code == op::local && vars.count(N(child(n, i)).ref)) bound.insert(i);
        constexpr int deepest = 8;  // a recursion, or calls nested past reason: say no
        return !bound.empty() && depth < deepest && writes_slot_only_local(body, bound, slot, depth + 1);
    };
    switch (nd.code) {
        case op::assign:
        case op::add_assign:
        case op::sub_assign: return slot_of(child(n, 0)) != slot || names_own(child(n, 0));
        case op::call: return callee(rs.procedures.at(nd.ref).body);
        case op::do_action: return callee(rs.actions.at(nd.ref).body);
        case op::resolve:
        case op::emit: return !writes_of(n).values.count(first);
        default:
            if (nests_statements(nd.code))
                for (std::uint32_t i = 0; i < nd.child_count; ++i)
                    if (!writes_slot_only_local(child(n, i), vars, slot, depth)) return false;
            return true;
    }
}

const exec_impl::takes& exec_impl::zones_used(id n, bool into) {
    std::map<id, takes>& memo = takes_memo_[into ? 1 : 0];
    std::set<id>& in_progress = takes_in_progress_[into ? 1 : 0];
    if (auto it = memo.find(n); it != memo.end() && !in_progress.count(n)) return it->second;
    takes& t = memo[n];
    if (in_progress.count(n)) return t;  // a recursion: its own zones are added where it started
    in_progress.insert(n);
    takes acc;
    collect_takes(n, acc, into);
    memo[n] = acc;
    in_progress.erase(n);
    return memo[n];
}

void exec_impl::collect_takes(id n, takes& t, bool into) {
    if (n == ir::no_id) return;
    const ir::node& nd = N(n);
    auto named = [&](id z) {
        const id zone = zone_of_node(z);
        if (zone == ir::no_id) t.any = true;
        else t.zones.insert(zone);
    };
    auto merge = [&](id body) {
        const takes& o = zones_used(body, into);
        t.zones.insert(o.zones.begin(), o.zones.end());
        t.any = t.any || o.any;
    };
    switch (nd.code) {
        case op::move:
        case op::draw:
        case op::deal: named(child(n, into ? 2 : 1)); break;
        case op::reshuffle: named(child(n, into ? 1 : 0)); break;
        case op::do_action: merge(rs.actions.at(nd.ref).body); break;
        case op::call:
            if (std::find(rs.event_dispatchers.begin(), rs.event_dispatchers.end(), nd.ref) != rs.event_dispatchers.end()) t.any = true;
            else merge(rs.procedures.at(nd.ref).body);
            break;
        case op::resolve:
            for (const ir::table_cell& c : rs.tables.at(nd.ref).cells)
                if (c.effects != ir::no_id) merge(c.effects);
            break;
        case op::emit:
            for (const ir::rule& rule : rs.rules)
                if (rule.kind == ir::rule_kind::trigger && rule.target == ir::target_kind::event && rule.target_id == nd.ref &&
                    rule.body != ir::no_id)
                    merge(rule.body);
            break;
        default:
            if (nests_statements(nd.code))
                for (std::uint32_t i = 0; i < nd.child_count; ++i) collect_takes(child(n, i), t, into);
            break;
    }
}

}  // namespace wp::verify::detail
