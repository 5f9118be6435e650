// Fields a loop's every round leaves as it found them (docs/checker.md, "How", step 2): a flag a
// procedure sets for its own argument and clears again before it returns (Wallenstein's
// `unsettled`, true while a county's armies are in the tower for its fight). A summarised loop
// forgets what its body writes; such a field, the same constant in every cell where the loop
// starts, is that constant at the start of every round and after the loop, and is kept there.
// Read from the IR alone, without the solver: which writes set which cell back, path by path.
#include "explore_impl.hpp"

namespace wp::verify::detail {

namespace {
// The key of a write's cell when the write names it by a local (`to.unsettled`: the local `to`),
// or the slot's one cell (a global); none when the cell is named otherwise (`k.land.unsettled`).
constexpr std::uint32_t the_global = 0xFFFFFFFFu;
}  // namespace

// The cells of `slot` that statement n may leave other than c, each named by its local, given
// those in `away` on entry (every other cell holds c); none when a cell it changes is not named
// by a local it can follow (a write through an expression, a local rebound while its cell is
// away, a turn ended with a cell away, a call that does not set back what it changes).
std::optional<exec_impl::away_cells> exec_impl::restore_flow(id n, id slot, const z3::expr& c, away_cells away) {
    if (n == ir::no_id) return away;
    const layout::slot_place& sp = S.lay.slots.at(slot);
    const ir::node& nd = N(n);
    if (nd.code == op::end_turn) return away.empty() ? std::optional<away_cells>(away) : std::nullopt;
    if (nd.code == op::call && !away.empty() && ending_.at(nd.ref)) return std::nullopt;
    if (nd.code == op::let || nd.code == op::for_each || nd.code == op::choose_one) {
        // a local bound again while its cell is away: the cell is lost from view
        if (away.count(nd.ref)) return std::nullopt;
    }
    if (!writes_slot(n, sp) && (away.empty() || !ends_turn_within(n))) return away;
    // a body run on its own (a procedure, action, table cell or trigger) sets back, before it
    // returns, every cell it changes: then it leaves every cell as it found it
    auto neutral = [&](id body) {
        const auto key = std::make_tuple(body, slot, c.id());
        if (auto it = restores_memo_.find(key); it != restores_memo_.end()) return it->second;
        restores_memo_[key] = false;  // a body that leads back to itself: not followed
        const std::optional<away_cells> r = restore_flow(body, slot, c, {});
        return restores_memo_[key] = r && r->empty();
    };
    switch (nd.code) {
        case op::seq:
        case op::block:
        case op::simultaneous:
            for (std::uint32_t i = 0; i < nd.child_count; ++i) {
                const std::optional<away_cells> r = restore_flow(child(n, i), slot, c, std::move(away));
                if (!r) return std::nullopt;
                away = *r;
            }
            return away;
        case op::assign:
        case op::add_assign:
        case op::sub_assign: {
            const id target = child(n, 0);
            if (slot_of(target) != slot) return away;
            const ir::node& t = N(target);
            std::optional<std::uint32_t> key;
            if (t.code == op::global) key = the_global;
            else if ((t.code == op::player_field || t.code == op::entity_field) && sp.width == 1 &&
                     N(child(target, 0)).code == op::local)
                key = N(child(target, 0)).ref;
            const ir::node& v = N(child(n, 1));
            const bool sets_back = nd.code == op::assign && constant_is(v, c);
            if (sets_back) {
                if (key) away.erase(*key);
                return away;
            }
            if (!key) return std::nullopt;
            away.insert(*key);
            return away;
        }
        case op::if_: {
            const std::optional<away_cells> a = restore_flow(child(n, 1), slot, c, away);
            const std::optional<away_cells> b = restore_flow(child(n, 2), slot, c, away);
            if (!a || !b) return std::nullopt;
            away_cells out = *a;
            out.insert(b->begin(), b->end());
            return out;
        }
        case op::for_each:
        case op::while_:
        case op::repeat_until: {
            const id body = nd.code == op::for_each ? child(n, 2) : nd.code == op::while_ ? child(n, 1) : child(n, 0);
            // any number of rounds: until what a round may leave away stops growing
            away_cells cur = away;
            for (;;) {
                const std::optional<away_cells> r = restore_flow(body, slot, c, cur);
                if (!r) return std::nullopt;
                const std::size_t before = cur.size();
                cur.insert(r->begin(), r->end());
                if (cur.size() == before) break;
            }
            if (nd.code == op::for_each && cur.count(nd.ref)) return std::nullopt;  // the element's cell, left away
            return cur;
        }
        case op::choose_one:
        case op::may: {
            // the body, or not (no option taken)
            const std::optional<away_cells> r = restore_flow(child(n, nd.code == op::may ? 1 : 3), slot, c, away);
            if (!r) return std::nullopt;
            if (nd.code == op::choose_one && r->count(nd.ref)) return std::nullopt;
            away.insert(r->begin(), r->end());
            return away;
        }
        case op::call: return neutral(rs.procedures.at(nd.ref).body) ? std::optional<away_cells>(away) : std::nullopt;
        case op::do_action: return neutral(rs.actions.at(nd.ref).body) ? std::optional<away_cells>(away) : std::nullopt;
        case op::resolve:
            for (const ir::table_cell& tc : rs.tables.at(nd.ref).cells)
                if (tc.effects != ir::no_id && !neutral(tc.effects)) return std::nullopt;
            return away;
        case op::emit:
            for (const ir::rule& rule : rs.rules)
                if (rule.kind == ir::rule_kind::trigger && rule.target == ir::target_kind::event && rule.target_id == nd.ref &&
                    rule.body != ir::no_id && !neutral(rule.body))
                    return std::nullopt;
            return away;
        default:
            // any other statement: one that writes the slot is not followed; one that ends the
            // turn deeper in, while a cell is away, was said above or below
            if (writes_slot(n, sp)) return std::nullopt;
            for (std::uint32_t i = 0; i < nd.child_count; ++i)
                if (!restore_flow(child(n, i), slot, c, away)) return std::nullopt;
            return away;
    }
}

// Whether statement n may end the turn it runs in (`end turn`, or a procedure that does).
bool exec_impl::ends_turn_within(id n) {
    if (n == ir::no_id) return false;
    if (auto it = ends_turn_memo_.find(n); it != ends_turn_memo_.end()) return it->second;
    const ir::node& nd = N(n);
    bool r = nd.code == op::end_turn || (nd.code == op::call && ending_.at(nd.ref));
    for (std::uint32_t i = 0; !r && i < nd.child_count; ++i) r = ends_turn_within(child(n, i));
    return ends_turn_memo_[n] = r;
}

bool exec_impl::constant_is(const ir::node& v, const z3::expr& c) const {
    switch (v.code) {
        case op::const_bool:  // the store holds a Boolean field as 0 or 1, or as a Boolean
            if (c.is_bool()) return v.value != 0 ? c.is_true() : c.is_false();
            [[fallthrough]];
        case op::const_int:
        case op::const_member: {
            std::int64_t k = 0;
            return c.is_int() && c.is_numeral_i64(k) && k == (v.code == op::const_bool ? (v.value != 0 ? 1 : 0) : v.value);
        }
        default: return false;
    }
}

// What a summarised loop forgets: what its body writes (w), less the fields that are one
// constant in every cell at the loop's entry (st) and that every round sets back to it. Only
// in the induction (S.prove_invariants), where the invariants are asked at every round: in the
// default check, which assumes them after the setup, keeping Wallenstein's `unsettled` made
// its bounds part 60% slower (one deployment's question over 45 counties undecided together,
// 0.6 s before, 29 s after) and changed no finding (docs/performance.md, twenty-second session).
// None when every written value is forgotten (no copy of w: the default check meets every loop
// of the sequence here).
std::optional<writes> exec_impl::forgotten_by_rounds(id body, const writes& w, const store& st) {
    if (!S.prove_invariants || no_frames_ || w.values.empty()) return std::nullopt;
    std::optional<writes> out;
    for (id slot = 0; slot < rs.slots.size(); ++slot) {
        const layout::slot_place& sp = S.lay.slots.at(slot);
        if (sp.width != 1 || !w.values.count(sp.offset)) continue;
        const z3::expr c = st.values.at(sp.offset);
        if (!(c.is_true() || c.is_false() || (c.is_int() && c.is_numeral()))) continue;
        bool same = true;
        for (std::uint32_t i = 1; i < sp.copies && same; ++i) same = z3::eq(st.values.at(sp.offset + i), c);
        if (!same) continue;
        const std::optional<away_cells> r = restore_flow(body, slot, c, {});
        if (!r || !r->empty()) continue;
        if (!out) out = w;
        for (std::uint32_t i = 0; i < sp.copies; ++i) out->values.erase(sp.offset + i);
    }
    return out;
}

}  // namespace wp::verify::detail
