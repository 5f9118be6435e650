// Paths and their facts: adding a fact, branching and merging, forgetting what a loop writes
// (and what a loop keeps), and starting again from any state the domain allows.
#include "explore_impl.hpp"
#include "terms.hpp"

namespace wp::verify::detail {

// frame: the fact starts a loop round's facts (fact_node::frame). False when the fact is
// true by folding and so not added.
bool exec_impl::add_fact(path& p, const z3::expr& e, const std::string& why, bool frame) {
    if (fold_.is_true(e)) return false;
    p.facts = std::make_shared<const fact_node>(fact_node{{e, why}, p.facts, frame});
    p.pc = p.pc && e;
    if (fold_.is_false(e)) p.dead = true;  // remembered: no second walk
    return true;
}

// The facts of a loop round's start, the first one marked (fact_node::frame).
void exec_impl::add_frame(path& p, const std::vector<fact>& facts) {
    bool first = true;
    for (const fact& f : facts)
        if (add_fact(p, f.e, f.why, first)) first = false;
}

// The conjunction of the facts of `from` added since `base` (a fact list it extends).
z3::expr exec_impl::since(const fact_list& from, const fact_list& base) {
    z3::expr_vector v(ctx);
    for (const fact_node* f = from.get(); f && f != base.get(); f = f->prev.get()) v.push_back(f->f.e);
    return v.empty() ? ctx.bool_val(true) : z3::mk_and(v);
}

// Moves the constraints of fresh variables made while encoding into the path.
void exec_impl::drain(path& p, id n) {
    if (S.side.empty()) return;
    z3::expr_vector all(ctx);
    for (const z3::expr& s : S.side) all.push_back(s);
    S.side.clear();
    add_fact(p, z3::mk_and(all), "the possible dice and values at " + at(n));
}

// A call a summary stands for: the invariants must hold at it, since the summary assumes them
// at its start, even where the call writes nothing (and forget notes nothing); then it forgets
// what the body writes.
void exec_impl::forget_call(path& p, const writes& w, id n) {
    if (w.values.empty() && w.kinds.empty()) note_invariants(p, n, "the statement at " + at(n));
    forget(p, w, n);
}

// Forgets what w writes; the invariants are assumed again, so they must hold just before.
void exec_impl::forget(path& p, const writes& w, id n, loop_head* head) {
    if (w.values.empty() && w.kinds.empty()) return;
    note_invariants(p, n, "the statement at " + at(n));
    p.from_setup = false;
    std::vector<fact> nf;
    S.forget(p.st, &w.values, &w.kinds, nf, " (after any number of rounds of the loop at " + at(n) + ")", true);
    add_frame(p, nf);
    if (head) *head = {p.st, std::move(nf)};
}

// The state after a loop is one its head allows, as the start of a round is (the loop ends
// where a next round would start): so p, still at the loop's entry, leaves with the very
// variables and facts of the head its rounds started from, not a second set of its own.
// Sound as any path's facts are: no question joins p with a round's path. On SPI this halved
// what loops forget (deploying 54 units, say, forgot 2,139 values twice).
void exec_impl::leave_loop(path& p, const writes& w, const loop_head& head, id n) {
    if (w.values.empty() && w.kinds.empty()) return;
    note_invariants(p, n, "the statement at " + at(n));
    p.from_setup = false;
    p.st = head.st;
    add_frame(p, head.facts);
}

// At the head of a loop whose rounds were forgotten (b, from p before the loop): a piece in
// a zone that no round takes pieces from is still where it was (a card window's loop plays
// cards from the hands, and the employer card in its slot stays there); and a piece in a zone
// that no round puts pieces into was there before the loop (it never left: it could not have
// come back), so a loop that only shifts cards between the piles leaves the hands as they were.
// The facts join the head's, so the state after the loop keeps them too.
void exec_impl::keep_untaken(path& b, const path& p, id body, const writes& w, id n, loop_head& head) {
    if (w.kinds.empty() || no_frames_) return;
    const takes& taken = takes_of(body);
    const takes& put = puts_of(body);
    if (taken.any && put.any) return;
    using ranges = std::vector<std::pair<std::int64_t, std::int64_t>>;  // zone instances [first, end)
    auto zones_not_in = [&](id kind, const takes& used) {
        ranges out;
        if (used.any) return out;
        for (id z = 0; z < rs.zones.size(); ++z) {
            if (rs.zones[z].entity_kind != kind || used.zones.count(z)) continue;
            const std::int64_t first = S.lay.zone_first.at(z);
            const std::int64_t end = z + 1 < S.lay.zone_first.size() ? S.lay.zone_first[z + 1] : S.lay.zone_instances();
            out.emplace_back(first, end);
        }
        return out;
    };
    auto within = [&](const z3::expr& loc, const ranges& rs_) {
        z3::expr_vector in(ctx);
        for (const auto& [first, end] : rs_) in.push_back(loc >= S.num(first) && loc < S.num(end));
        return z3::mk_or(in);
    };
    z3::expr_vector kept(ctx);
    for (const id kind : w.kinds) {
        if (kind >= S.lay.kind_first.size()) continue;
        const ranges untaken = zones_not_in(kind, taken), unput = zones_not_in(kind, put);
        if (untaken.empty() && unput.empty()) continue;
        for (std::uint32_t i = 0; i < S.lay.kind_count[kind]; ++i) {
            const std::uint32_t k = S.lay.kind_first[kind] + i;
            if (z3::eq(b.st.loc[k], p.st.loc[k])) continue;
            if (!untaken.empty()) kept.push_back(z3::implies(within(p.st.loc[k], untaken), b.st.loc[k] == p.st.loc[k]));
            if (!unput.empty()) kept.push_back(z3::implies(within(b.st.loc[k], unput), b.st.loc[k] == p.st.loc[k]));
        }
    }
    if (kept.empty()) return;
    const fact f{z3::mk_and(kept), "the pieces in zones the loop at " + at(n) + " never takes from stay there, and none enter the zones it never puts into"};
    add_fact(b, f.e, f.why);
    head.facts.push_back(f);
}

// At the start of a round of a loop over seats or pieces, each visited once (`set`), with x
// the round's element: a field whose every write in the body names the round's own element
// (writes_slot_only_local) still holds, for x, its value from before the loop, since the
// rounds before this one wrote only their own elements' copies (the forgetting above lost
// that). Else `p.casting += 7` over the players reads any value the invariants allow.
// On the round's path only: after the loop every element's copy may have been written.
void exec_impl::keep_own_fields(path& b, const path& p, id set, id body, std::uint32_t var, bool seats,
                                const z3::expr& x, const writes& w, id n) {
    if (w.values.empty() || no_frames_) return;
    const ir::node& sn = N(set);
    const bool all_seats = seats && sn.code == op::builtin &&
                           (sn.ref == static_cast<id>(ir::builtin::players) || sn.ref == static_cast<id>(ir::builtin::opponents));
    const id kind = seats ? ir::no_id : loop_piece_kind(set);
    if (!all_seats && kind == ir::no_id) return;
    z3::expr_vector kept(ctx);
    for (id slot = 0; slot < rs.slots.size(); ++slot) {
        const ir::slot& sl = rs.slots[slot];
        const bool own_scope = all_seats ? sl.scope == ir::slot_scope::per_player
                                         : sl.scope == ir::slot_scope::per_entity && sl.entity_kind == kind;
        const layout::slot_place& at_ = S.lay.slots.at(slot);
        if (!own_scope || !w.values.count(at_.offset) || !writes_slot_only_local(body, {var}, slot)) continue;
        const std::int64_t base = all_seats ? 0 : S.lay.kind_first.at(kind);
        for (std::uint32_t c = 0; c < at_.copies; ++c) {
            z3::expr_vector same(ctx);
            for (std::uint32_t k = 0; k < at_.width; ++k) {
                const std::uint32_t i = at_.offset + c * at_.width + k;
                if (!z3::eq(b.st.values[i], p.st.values[i])) same.push_back(b.st.values[i] == p.st.values[i]);
            }
            if (!same.empty()) kept.push_back(z3::implies(x == S.num(base + c), z3::mk_and(same)));
        }
    }
    if (!kept.empty()) add_fact(b, z3::mk_and(kept), "the fields of the element of the loop at " + at(n) + " are as before the loop");
}

void exec_impl::merge(path& p, path& t, path& f, const z3::expr& c, id n) {
    if (t.dead && f.dead) {
        p = std::move(t);
        return;
    }
    if (t.dead) { p = std::move(f); return; }
    if (f.dead) { p = std::move(t); return; }
    const z3::expr T = since(t.facts, p.facts);
    const z3::expr F = since(f.facts, p.facts);
    for (std::size_t i = 0; i < p.st.values.size(); ++i) {
        p.st.values[i] = z3::eq(t.st.values[i], f.st.values[i]) ? t.st.values[i]
                                                               : z3::ite(c, t.st.values[i], f.st.values[i]);
    }
    for (std::size_t i = 0; i < p.st.loc.size(); ++i)
        p.st.loc[i] = z3::eq(t.st.loc[i], f.st.loc[i]) ? t.st.loc[i] : z3::ite(c, t.st.loc[i], f.st.loc[i]);
    // Either branch's facts hold. Not simplified: this disjunction holds the whole of both
    // branches, and simplifying it again at every enclosing merge cost most of the time of
    // a big ruleset's exploration. Only the plain case (no fact but the condition on either
    // side, always true) is left out.
    const bool plain = t.facts && f.facts && t.facts->prev == p.facts && f.facts->prev == p.facts &&
                       z3::eq(t.facts->f.e, c) && z3::eq(f.facts->f.e, !c);
    if (plain) return;
    p.facts = std::make_shared<const fact_node>(fact_node{{T || F, "either way through " + at(n)}, p.facts});
    p.pc = p.pc && (T || F);
}

void exec_impl::branch(path& p, const z3::expr& c, const std::string& why, id n, const std::function<void(path&)>& then_fn,
                       const std::function<void(path&)>& else_fn) {
    // An example's run records nothing a dead way reaches (its sites could never be met), and
    // running it anyway cost GMT's set-up examples most of their time and memory: every
    // `place` loop's body, ruled out by its known condition, kept a state and a bound per unit.
    path t = p;
    add_fact(t, c, why);
    if (!(examples_ && t.dead)) then_fn(t);
    path f = p;
    add_fact(f, !c, "not: " + why);
    if (else_fn && !(examples_ && f.dead)) else_fn(f);
    merge(p, t, f, c, n);
}

// The path a summary starts on: from any state the domain allows, whether or not the call at
// `from` is reached, the invariants assumed. Under the induction (--checks invariants) too:
// every activation the summary stands for starts at a call past the unrolling depth, or a card
// event's play, where the invariants are an obligation (forget_call). Not assuming them there
// left Contractor Cards' three invariants about cards unproved: the trait table's summarised
// reroll started from cards anywhere, though it moves none.
exec_impl::path exec_impl::any_state(const path& from, const std::string& when) {
    path q = from;
    restart(q, "");
    forget_all(q, when, true);
    return q;
}

// A path that forgets its history: no facts but, if it was dead and `if_dead` says why, that
// it is not reached, and the number of players (the state is forgotten by forget_all, after
// what the caller adds about its locals).
void exec_impl::restart(path& p, const std::string& if_dead) {
    const bool dead = p.dead;
    p.facts = nullptr;
    p.pc = ctx.bool_val(true);
    p.dead = false;
    p.from_setup = false;
    if (dead && !if_dead.empty()) add_fact(p, ctx.bool_val(false), if_dead);
    const std::int64_t lo = std::max<std::int64_t>(1, rs.min_players);
    add_fact(p, S.n_players >= S.num(lo) && S.n_players <= S.num(S.lay.players), "the number of players");
}

// Every value and every card's place any within the domain (the invariants assumed or not).
void exec_impl::forget_all(path& p, const std::string& when, bool invariants) {
    std::vector<fact> nf;
    S.forget(p.st, nullptr, nullptr, nf, when, invariants);
    for (const fact& f : nf) add_fact(p, f.e, f.why);
}

}  // namespace wp::verify::detail
