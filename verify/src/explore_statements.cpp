// The statements: assignments, moves, and run(), which executes every kind of statement on a
// path (its loops, branches, decisions, draws and game ends).
#include "explore_impl.hpp"
#include "terms.hpp"

#include <chrono>

namespace wp::verify::detail {

// `list = value;` (engine: interp::store_list): the members of value, packed in order. A
// member's position is the number of members present before it.
void exec_impl::assign_list(id n, env& e, path& p) {
    const id target = child(n, 0);
    std::vector<place> places = S.places(target, e, p.st);
    const std::vector<member> members = S.set_members(child(n, 1), e, p.st);
    drain(p, n);
    const std::uint32_t width = S.lay.slots.at(slot_of(target)).width;
    std::vector<z3::expr> cells(width, S.num(0));
    z3::expr before = S.num(0);
    std::vector<z3::expr> position;
    for (const member& m : members) {
        position.push_back(before);
        before = before + z3::ite(m.in, S.num(1), S.num(0));
    }
    cells[0] = before.simplify();
    for (std::uint32_t j = 1; j < width; ++j)
        for (std::size_t i = members.size(); i-- > 0;)
            cells[j] = z3::ite(members[i].in && position[i] == S.num(j - 1), members[i].value, cells[j]);
    for (const place& pl : places)
        for (std::uint32_t k = 0; k < width; ++k) {
            const z3::expr old = p.st.values.at(pl.index + k);
            p.st.values[pl.index + k] = fold_.is_true(pl.when) ? cells[k] : z3::ite(pl.when, cells[k], old);
        }
    // the sets a list is given from hold distinct members: it always fits (the engine checks)
    add_fact(p, cells[0] <= S.num(width - 1), "the list fits at " + at(n));
}

void exec_impl::assign(id n, env& e, path& p) {
    const ir::node& nd = N(n);
    const id target = child(n, 0);
    const id target_type = N(target).type;
    if (target_type != ir::no_id && S.rs.types.at(target_type).kind == ir::type_kind::list_of) return assign_list(n, e, p);
    const std::size_t variables_from = S.variables.size();
    std::vector<place> places = S.places(target, e, p.st);
    z3::expr v = S.integer(child(n, 1), e, p.st);
    const id type = N(target).type;
    const ir::type* rt = type != ir::no_id && S.rs.types.at(type).kind == ir::type_kind::range ? &S.rs.types.at(type) : nullptr;
    // the target read where it is (bound_site::whole), in the state v was computed in
    std::optional<z3::expr> read;
    if (rt && rt->policy == ir::overflow::error && places.size() > 1) read = S.integer(target, e, p.st);
    drain(p, n);
    bound_site bs(ctx);
    set_place(bs, p, n);
    bs.slot = slot_of(target);
    bs.type = type;
    if (rt && rt->policy == ir::overflow::error) {
        bs.replay.recorded = true;
        bs.replay.st = S.snapshot(p.st);
        bs.replay.locals = e.locals;
        bs.replay.variables_from = variables_from;
        bs.replay.variables_to = S.variables.size();
    }
    if (read) bs.whole = nd.code == op::assign ? v : nd.code == op::add_assign ? *read + v : *read - v;
    z3::expr_vector changes(ctx);
    for (place& pl : places) {
        const z3::expr old = p.st.values.at(pl.index);
        z3::expr nv = nd.code == op::assign ? v : nd.code == op::add_assign ? old + v : old - v;
        if (rt) {
            const z3::expr lo = S.num(rt->lo), hi = S.num(rt->hi);
            if (rt->policy == ir::overflow::error) {
                bs.out.push_back(pl.when && (nv < lo || nv > hi));
                bs.value.push_back(nv);
                bs.when.push_back(pl.when);
            }
            if (rt->policy == ir::overflow::clamp) nv = z3::ite(nv < lo, lo, z3::ite(nv > hi, hi, nv));
        }
        changes.push_back(pl.when && nv != old);
        p.st.values[pl.index] = fold_.is_true(pl.when) ? nv : z3::ite(pl.when, nv, old);
    }
    // `+= 0` is a designer's explicit "no effect" (a table cell's), not a rule that fails
    const bool says_nothing = nd.code != op::assign && N(child(n, 1)).code == op::const_int && N(child(n, 1)).value == 0;
    if (!examples_ && !p.dead && in_setup_ == 0 && !says_nothing && !changes.empty()) {
        effect_site es(ctx);
        set_place(es, p, n);  // the facts before the assignment, as the bound site
        es.slot = bs.slot;
        es.changes = z3::mk_or(changes);
        S.effect_sites.push_back(std::move(es));
    }
    if (!bs.out.empty()) S.bound_sites.push_back(std::move(bs));
    if (rt && rt->policy == ir::overflow::error) {
        // the engine stops with an error otherwise: the game goes on only within range
        z3::expr_vector ok(ctx);
        for (const place& pl : places) ok.push_back(z3::implies(pl.when, S.in_type(p.st.values[pl.index], type)));
        if (!ok.empty()) add_fact(p, z3::mk_and(ok), "the value stays in range at " + at(n));
    }
}

// The per-location counts follow a move of one piece (all: of every piece of `from`) from
// the zone node `zf` names to the one `zt` names; counted again from membership where a zone
// is not named by its declaration.
void exec_impl::move_counts(path& p, id kind, id zf, const z3::expr& from, id zt, const z3::expr& to, bool all) {
    if (kind == ir::no_id) return;
    const id a = S.zone_of(zf), b = S.zone_of(zt);
    if (a == ir::no_id || b == ir::no_id) {
        S.count_resync(p.st, kind);
        return;
    }
    if (S.count_cells(a).empty() && S.count_cells(b).empty()) return;
    S.count_move(p.st, a, from, b, to, S.num(1), all);
}

void exec_impl::move_instances(path& p, id kind, const std::function<z3::expr(std::uint32_t, const z3::expr&)>& new_loc) {
    if (kind == ir::no_id || kind >= S.lay.kind_first.size()) return;
    for (std::uint32_t i = 0; i < S.lay.kind_count[kind]; ++i) {
        const std::uint32_t inst = S.lay.kind_first[kind] + i;
        p.st.loc[inst] = new_loc(inst, p.st.loc[inst]);
    }
}

// Whether a loop over these members can run round by round: each member known, and known
// to be in the set or not, and not so many that the path grows past reason.
bool exec_impl::unrolls(const std::vector<member>& ms) {
    constexpr std::size_t most_rounds = 4096;
    if (ms.size() > most_rounds) return false;
    return std::all_of(ms.begin(), ms.end(), [](const member& m) {
        return (m.in.is_true() || m.in.is_false()) && terms::number(m.value).has_value();
    });
}

// A loop of the setup, on the path from the game's start (nothing forgotten yet), over at
// most 64 members each known (a seat may be in play or not), whose body is plain statements
// (straight): run round by round as the engine runs it, so the setup's state stays exact.
// Summarised, such a loop forgot what it wrote: on Wallenstein, which county cards the setup
// sets aside with three players, so the draft could give out a county out of play. Only over
// every member of a type or the seats, in the engine's order: a zone's order is not followed
// (`top` is any card), nor the opponents' (clockwise from the player), and a round that counts
// (`if n > 0 { …; n -= 1; }`) would then pick other pieces than the engine does.
bool exec_impl::unrolls_in_setup(id set, const std::vector<member>& ms, id body, const path& p) {
    constexpr std::size_t most_rounds = 64;
    if (examples_ || no_frames_ || in_setup_ == 0 || !p.from_setup || p.dead || ms.empty() || ms.size() > most_rounds) return false;
    const ir::node& sn = N(set);
    const bool ordered = sn.code == op::type_members || (sn.code == op::builtin && sn.ref == static_cast<id>(ir::builtin::players));
    if (!ordered) return false;
    const bool known = std::all_of(ms.begin(), ms.end(), [](const member& m) { return terms::number(m.value).has_value(); });
    return known && straight(body);
}

// The rounds of loop n one by one, over the members as they are at its start (the engine's
// order and snapshot): a member that may or may not be in the set runs under that condition.
// The invariants are noted where the engine checks them: before the loop and after each round.
void exec_impl::run_rounds(id n, const std::vector<member>& ms, id body, bool seats, env& e, path& p) {
    const ir::node& nd = N(n);
    if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
    const std::optional<z3::expr> saved = e.locals[nd.ref], saved_active = S.active;
    note_invariants(p, n, "the statement at " + at(n));
    for (const member& m : ms) {
        if (m.in.is_false()) continue;
        e.locals[nd.ref] = m.value;
        if (seats) S.active = m.value;
        if (m.in.is_true()) run(body, e, p);
        else branch(p, m.in, "the member of the loop at " + at(n) + " is in its set", n,
                    [&](path& t) { run(body, e, t); }, {});
        note_invariants(p, n, "the end of a round of the loop at " + at(n));
    }
    e.locals[nd.ref] = saved;
    S.active = saved_active;
}

// An example's `given` is one situation from the start of a game: a `while` or `repeat … until`
// whose condition is known there runs round by round, as the engine runs it, not forgetting what
// it writes, for as long as the condition stays known. Whether it finished that way; if not, p is
// where the known rounds left it and the caller summarises the rest from there (the summary's
// state at the loop's end may be any its rounds write, so it covers ending at once too).
// A round the known situation rules out is not run, as an `if`'s way out is not (explore.cpp).
bool exec_impl::loop_known(id n, id cond, id body, bool is_while, env& e, path& p) {
    constexpr int max_rounds = 10'000;  // a loop that never ends is summarised past this
    for (int round = 0; round < max_rounds && !S.stopped; ++round) {
        if (!is_while) run(body, e, p);
        const z3::expr c = S.boolean(cond, e, p.st);
        drain(p, n);
        // a `while` goes on while c holds; a `repeat` ends once it holds
        if (is_while ? fold_.is_false(c) : fold_.is_true(c)) return true;
        if (!(is_while ? fold_.is_true(c) : fold_.is_false(c))) return false;
        if (is_while) run(body, e, p);
    }
    return false;
}

// Dead paths are run too: what they reach is recorded with a false path condition, so
// the checks can say why it is never reached.
void exec_impl::run(id n, env& e, path& p) {
    if (n == ir::no_id || S.stopped) return;
    if (S.deadline && std::chrono::steady_clock::now() > *S.deadline) {
        S.stopped = true;
        return;
    }
    current here(*this, p, n);
    const ir::node& nd = N(n);
    switch (nd.code) {
        case op::seq:
            for (std::uint32_t i = 0; i < nd.child_count; ++i) run(child(n, i), e, p);
            return;
        case op::block: {
            block_site b(ctx);
            b.node = n;
            b.pc = p.pc;
            b.facts = p.facts;
            b.block = nd.ref;
            S.block_sites.push_back(std::move(b));
            // Each phase is checked from any state the declared domain allows (ranges,
            // zones, invariants), not from what the phases before it did: a sound summary
            // that keeps every query about one phase small.
            if (rs.blocks.at(nd.ref).word == "phase") start_phase(p, e, rs.blocks.at(nd.ref).path);
            if (rs.blocks.at(nd.ref).word != "turn") {
                const bool setup = rs.blocks.at(nd.ref).word == "setup";
                in_setup_ += setup ? 1 : 0;
                for (std::uint32_t i = 0; i < nd.child_count; ++i) run(child(n, i), e, p);
                in_setup_ -= setup ? 1 : 0;
                return;
            }
            // a turn: the paths an `end turn` took out of it join at its end
            const fact_list base = p.facts;
            const z3::expr base_pc = p.pc;
            const int depth = p.depth;
            std::vector<path> ended;
            turn_ends_.push_back(&ended);
            for (std::uint32_t i = 0; i < nd.child_count; ++i) run(child(n, i), e, p);
            turn_ends_.pop_back();
            for (path& q : ended) join_turn_end(p, q, base, base_pc, depth, n);
            return;
        }
        case op::let: {
            sv v = S.value(child(n, 0), e, p.st);
            drain(p, n);
            if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
            if (!v.is_map) e.locals[nd.ref] = v.e.is_bool() ? z3::ite(v.e, S.num(1), S.num(0)) : v.e;
            return;
        }
        case op::assign:
        case op::add_assign:
        case op::sub_assign: assign(n, e, p); return;
        case op::if_: {
            const z3::expr c = S.boolean(child(n, 0), e, p.st);
            drain(p, n);
            const id then_ = child(n, 1), else_ = child(n, 2);
            // A way an option closes is not run (see skipped_ways): its questions all had a
            // false fact, and asking them cost GMT's check as much as the rest (19.8's
            // guarded second activation). The way is still noted, for the dead-branch check.
            const bool option_closed = !S.free_options && reads_option(child(n, 0));
            auto way = [&](path& w, id body, bool taken) {
                note_branch(p, w, n, body, taken);
                if (option_closed && w.dead && (taken ? fold_.is_false(c) : fold_.is_true(c))) {
                    S.skipped_ways.push_back(body);
                    note_blocks_and_ends(body);
                    return;
                }
                run(body, e, w);
            };
            branch(p, c, "the `if` at " + at(n) + " holds", n, [&](path& t) { way(t, then_, true); },
                   N(else_).code == op::absent ? std::function<void(path&)>() : [&](path& f) { way(f, else_, false); });
            return;
        }
        case op::for_each: {
            const id set = child(n, 0), body = child(n, 2);
            std::vector<member> ms = S.set_members(set, e, p.st);
            drain(p, n);
            // (a field every round sets back to its constant is kept: explore_restore.cpp)
            const std::optional<writes> kept = forgotten_by_rounds(body, writes_of(body), p.st);
            const writes& w = kept ? *kept : writes_of(body);
            // the type of the loop's variable: a list's element type (none for a zone)
            const ir::type& set_type = rs.types.at(N(set).type);
            const id elem_type = set_type.kind == ir::type_kind::list_of ? set_type.value : ir::no_id;
            const bool seats = elem_type != ir::no_id && rs.types.at(elem_type).kind == ir::type_kind::player;
            // An example's `given` is one situation from the start of a game: a loop over
            // members known there runs round by round, not forgetting what it writes. So does a
            // short loop of plain statements in the setup, on the path from the game's start.
            if ((examples_ && unrolls(ms)) || unrolls_in_setup(set, ms, body, p)) {
                run_rounds(n, ms, body, seats, e, p);
                return;
            }
            if (!ms.empty()) {
                const std::vector<member> at_start = ms;
                path b = p;
                loop_head head;
                forget(b, w, n, &head);
                keep_untaken(b, p, body, w, n, head);
                // the members as they are at the start of this round, encoded on the round's
                // path: a rule or table consulted there has the facts of the round's start
                {
                    current in_round(*this, b, n);
                    ms = S.set_members(set, e, b.st);
                }
                drain(b, n);
                z3::expr x = S.fresh("each", elem_type, "the element of the loop at " + at(n), variable::show::value, 0);
                z3::expr_vector which(ctx);
                for (const member& m : ms) which.push_back(x == m.value && m.in);
                add_fact(b, z3::mk_or(which), "an element of the loop at " + at(n));
                // The loop visits each piece once and its rounds move only their own piece:
                // this round's piece is where it was before the loop (the forgetting above
                // lost that). Else a `move x from Z` of the loop's piece would be unmet in
                // states no game holds.
                if (const id kind = loop_piece_kind(set);
                    !no_frames_ && kind != ir::no_id && w.kinds.count(kind) && kind < S.lay.kind_first.size() && moves_only_local(body, nd.ref, kind)) {
                    z3::expr_vector kept(ctx);
                    for (std::uint32_t i = 0; i < S.lay.kind_count[kind]; ++i) {
                        const std::uint32_t k = S.lay.kind_first[kind] + i;
                        if (!z3::eq(b.st.loc[k], p.st.loc[k])) kept.push_back(z3::implies(x == S.num(k), b.st.loc[k] == p.st.loc[k]));
                    }
                    if (!kept.empty()) add_fact(b, z3::mk_and(kept), "the piece of the loop at " + at(n) + " is where it was before the loop");
                }
                keep_own_fields(b, p, set, body, nd.ref, seats, x, w, n);
                if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
                const std::optional<z3::expr> saved = e.locals[nd.ref], saved_active = S.active;
                e.locals[nd.ref] = x;
                if (seats) S.active = x;
                run(body, e, b);
                note_invariants(b, n, "the end of a round of the loop at " + at(n));
                e.locals[nd.ref] = saved;
                S.active = saved_active;
                const store before = p.st;
                leave_loop(p, w, head, n);
                settle_fields(n, at_start, body, before, e, p);
                settle_sums(n, at_start, body, before, e, p);
                return;
            }
            forget(p, w, n);
            return;
        }
        case op::while_:
        case op::repeat_until: {
            const bool is_while = nd.code == op::while_;
            const id cond = child(n, is_while ? 0 : 1), body = child(n, is_while ? 1 : 0);
            if (examples_ && loop_known(n, cond, body, is_while, e, p)) return;
            const std::optional<writes> kept = forgotten_by_rounds(body, writes_of(body), p.st);
            const writes& w = kept ? *kept : writes_of(body);
            path b = p;
            loop_head head;
            forget(b, w, n, &head);
            keep_untaken(b, p, body, w, n, head);
            if (is_while) {
                current in_round(*this, b, n);  // as a for-each's members above
                const z3::expr c = S.boolean(cond, e, b.st);
                drain(b, n);
                add_fact(b, c, "the loop condition at " + at(n) + " holds");
            }
            run(body, e, b);
            note_invariants(b, n, "the end of a round of the loop at " + at(n));
            leave_loop(p, w, head, n);
            const z3::expr c = S.boolean(cond, e, p.st);
            drain(p, n);
            add_fact(p, is_while ? !c : c, "the loop at " + at(n) + " has ended");
            return;
        }
        case op::shuffle: return;  // the order of a zone is not modelled
        case op::draw:
        case op::deal: {
            const std::size_t variables_from = S.variables.size();
            const z3::expr count = S.integer(child(n, 0), e, p.st);
            const z3::expr from = S.zone_instance(child(n, 1), e, p.st);
            sv to = S.value(child(n, 2), e, p.st);
            drain(p, n);
            const id kind = kind_of_zone_node(child(n, 1));
            // the cards asked for: `count` to each zone given to (each seat in play's, for
            // a per-player zone), as the engines draw them; fewer in `from` is a short draw
            z3::expr asked = count;
            if (to.is_map) {
                asked = S.num(0);
                for (std::size_t s = 0; s < to.elems.size(); ++s)
                    asked = terms::add(asked, terms::ite(S.n_players > static_cast<int>(s), count, S.num(0)));
            }
            const z3::expr available = S.pieces_in(kind, from, p.st);
            if (kind != ir::no_id) {
                note_obligation(p, n, obligation_site::what::draw, zone_of_node(child(n, 1)),
                                terms::lt(available, asked), {asked, from}, variables_from);
            }
            S.approximations.insert("which cards a draw or deal takes (any cards of the zone)");
            // Which cards go is not followed, but how many is: as many as asked, or all of `from`
            // when it runs short, and at most `count` to each seat of a deal. Before 2026-12-06
            // any number went, and a deal of 3 could fill a hand with the whole deck.
            z3::expr taken_n = S.num(0);
            std::vector<z3::expr> seat_n(to.is_map ? to.elems.size() : 0, S.num(0));
            move_instances(p, kind, [&](std::uint32_t inst, const z3::expr& old) {
                z3::expr moved = ctx.bool_const(("drawn" + std::to_string(inst) + "_" + std::to_string(n) + "_" + std::to_string(draws_)).c_str());
                z3::expr dest = to.e;
                const z3::expr taken = moved && old == from;
                taken_n = terms::add(taken_n, terms::ite(taken, S.num(1), S.num(0)));
                if (to.is_map) {
                    dest = S.fresh("dealt", ir::no_id, "where a dealt card went", variable::show::zone, -1);
                    z3::expr_vector opts(ctx);
                    for (std::size_t s = 0; s < to.elems.size(); ++s) {
                        opts.push_back(dest == to.elems[s] && S.n_players > static_cast<int>(s));
                        seat_n[s] = terms::add(seat_n[s], terms::ite(taken && dest == to.elems[s], S.num(1), S.num(0)));
                    }
                    S.side.push_back(z3::mk_or(opts));
                }
                return z3::ite(taken, dest, old);
            });
            ++draws_;
            if (kind != ir::no_id && !no_draw_counts_) {
                const z3::expr wanted = terms::ite(asked < 0, S.num(0), asked);
                S.side.push_back(taken_n == terms::ite(available < wanted, available, wanted));
                for (const z3::expr& k : seat_n) S.side.push_back(k <= terms::ite(count < 0, S.num(0), count));
            }
            drain(p, n);
            S.count_resync(p.st, kind);  // which cards went is not followed: the counts are read again
            return;
        }
        case op::move: {
            const id what = child(n, 0);
            const z3::expr from = S.zone_instance(child(n, 1), e, p.st);
            const z3::expr to = S.zone_instance(child(n, 2), e, p.st);
            z3::expr inst = S.integer(what, e, p.st);
            const id t = N(what).type;
            const id kind = t != ir::no_id && rs.types.at(t).kind == ir::type_kind::entity ? rs.types.at(t).ref : ir::no_id;
            std::optional<z3::expr> no_copy_here;  // a named card of several copies: none is in the zone
            if (N(what).code == op::const_entity && N(what).value >= 0) {
                // a named card stands for any copy of it in the zone
                const ir::entity& en = rs.entities.at(static_cast<std::size_t>(N(what).value));
                if (en.count > 1) {
                    const std::int64_t lo = S.lay.entity_first.at(static_cast<std::size_t>(N(what).value));
                    inst = S.fresh("copy", t, "the copy moved at " + at(n), variable::show::instance, lo);
                    S.side.push_back(inst >= S.num(lo) && inst < S.num(lo + en.count));
                    z3::expr_vector copies(ctx);
                    for (std::int64_t c = 0; c < en.count; ++c) copies.push_back(p.st.loc.at(static_cast<std::size_t>(lo + c)) == from);
                    no_copy_here = !z3::mk_or(copies);
                }
            }
            drain(p, n);
            z3::expr_vector here(ctx);
            if (kind != ir::no_id)
                for (std::uint32_t i = 0; i < S.lay.kind_count[kind]; ++i) {
                    const std::uint32_t k = S.lay.kind_first[kind] + i;
                    here.push_back(inst == S.num(static_cast<std::int64_t>(k)) && p.st.loc[k] == from);
                }
            if (!here.empty()) {
                note_obligation(p, n, obligation_site::what::move, zone_of_node(child(n, 1)),
                                no_copy_here ? *no_copy_here : terms::not_(z3::mk_or(here)), {inst, from}, S.variables.size());
                add_fact(p, z3::mk_or(here), "the card moved at " + at(n) + " is where it is taken from");
            }
            move_instances(p, kind, [&](std::uint32_t k, const z3::expr& old) {
                return z3::ite(inst == S.num(static_cast<std::int64_t>(k)), to, old);
            });
            move_counts(p, kind, child(n, 1), from, child(n, 2), to, false);
            return;
        }
        case op::reshuffle: {
            const z3::expr from = S.zone_instance(child(n, 0), e, p.st);
            const z3::expr into = S.zone_instance(child(n, 1), e, p.st);
            drain(p, n);
            // (also `move all from … to …`, value 1: the same in membership, the order not modelled)
            move_counts(p, kind_of_zone_node(child(n, 0)), child(n, 0), from, child(n, 1), into, true);
            move_instances(p, kind_of_zone_node(child(n, 0)),
                           [&](std::uint32_t, const z3::expr& old) { return z3::ite(old == from, into, old); });
            return;
        }
        case op::choose_one: {
            note_invariants(p, n, "the decision at " + at(n));
            const z3::expr extra = ctx.bool_val(true);
            choice_site cs(ctx);
            cs.replay.recorded = true;
            cs.replay.st = S.snapshot(p.st);
            cs.replay.locals = e.locals;
            cs.replay.variables_from = S.variables.size();
            std::optional<range_options> span;
            auto [opts, any] = options(n, e, p, extra, &span);
            cs.replay.variables_to = S.variables.size();
            drain(p, n);
            cs.node = n;
            cs.pc = p.pc;
            cs.facts = p.facts;
            cs.from_setup = p.from_setup;
            cs.none_legal = !any;
            S.choice_sites.push_back(std::move(cs));
            const id set = child(n, 0);
            id elem_type = ir::no_id;
            if (N(set).type != ir::no_id) {
                const ir::type& st = rs.types.at(N(set).type);
                if (st.kind == ir::type_kind::list_of) elem_type = st.value;
            }
            z3::expr x = S.fresh("chosen", elem_type, "the choice at " + at(n), variable::show::value, 0);
            if (span) {
                add_fact(p, chosen_in(set, *span, x), "a legal option is chosen at " + at(n));
            } else {
                z3::expr_vector which(ctx);
                for (const member& m : opts) which.push_back(x == m.value && m.in);
                add_fact(p, which.empty() ? ctx.bool_val(false) : z3::mk_or(which), "a legal option is chosen at " + at(n));
            }
            if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
            e.locals[nd.ref] = x;
            run(child(n, 3), e, p);
            return;
        }
        case op::choose_subset:
            if (subset(n, e, p)) return;
            [[fallthrough]];
        case op::choose_order: {
            S.approximations.insert("choices of subsets and orders (their effects are forgotten)");
            forget(p, writes_of(child(n, 3)), n);
            return;
        }
        case op::may: {
            note_invariants(p, n, "the decision at " + at(n));
            const id body = child(n, 1);
            const z3::expr poss = possible(body, e, p, ctx.bool_val(true));
            drain(p, n);
            note_demanded(p, n, body, e);
            z3::expr yes = ctx.bool_const(("may" + std::to_string(n) + "_" + std::to_string(S.variables.size())).c_str());
            S.variables.push_back({yes, "the answer at " + at(n) + " (" + rs.strings.at(static_cast<std::size_t>(nd.value)) + ")",
                                   variable::show::boolean, ir::no_id, 0});
            branch(p, yes && poss, "the player takes the option at " + at(n), n,
                   [&](path& t) {
                       note_branch(p, t, n, body, true);
                       run(body, e, t);
                   },
                   {});
            return;
        }
        case op::do_action: {
            const std::size_t from = S.variables.size();
            std::vector<z3::expr> a = args_of(n, e, p.st);
            const z3::expr legal = action_legal(nd.ref, a, p, ctx.bool_val(true), n);
            drain(p, n);
            if (!tested_dos_.count(n)) note_obligation(p, n, obligation_site::what::action, nd.ref, terms::not_(legal), a, from);
            add_fact(p, legal, "the action at " + at(n) + " is legal");
            const ir::action& act = rs.actions.at(nd.ref);
            run_body(act.body, act.locals, a, p, n, "action `" + act.name + "`");
            return;
        }
        case op::call: {
            std::vector<z3::expr> a = args_of(n, e, p.st);
            drain(p, n);
            // an example that plays a named card's event runs that event, as the engine does
            const bool named_card = examples_ && !a.empty() && a[0].simplify().is_numeral();
            if (dispatchers_.count(nd.ref) && !named_card) return play_event(n, a, p);
            const ir::procedure& pr = rs.procedures.at(nd.ref);
            run_body(pr.body, pr.locals, a, p, n, "procedure `" + pr.name + "`");
            return;
        }
        case op::resolve: resolve(n, e, p); return;
        case op::emit: {
            std::vector<z3::expr> a = args_of(n, e, p.st);
            drain(p, n);
            const id group = S.group_of_target[static_cast<int>(ir::target_kind::event)].at(nd.ref);
            if (group == ir::no_id) return;
            std::map<id, z3::expr> guards;
            std::map<id, z3::expr> eff = S.group_effective(group, a, p.st, &guards);
            drain(p, n);
            for (id r : rs.groups.at(group).rules) {
                const ir::rule& rule = rs.rules.at(r);
                if (rule.kind != ir::rule_kind::trigger) continue;
                record_rule(p, r, ctx.bool_val(true), eff.at(r), guards.at(r), n);
                branch(p, eff.at(r), "trigger `" + rule.name + "` fires at " + at(n), n,
                       [&](path& t) { run_body(rule.body, rule.locals, a, t, n, "trigger `" + rule.name + "`"); }, {});
            }
            return;
        }
        case op::end_game: {
            note_invariants(p, n, "the end of the game at " + at(n));
            end_site es(ctx);
            es.node = n;
            es.pc = p.pc;
            es.facts = p.facts;
            es.reason = nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs.strings.size()
                            ? rs.strings[static_cast<std::size_t>(nd.value)]
                            : std::to_string(nd.value);
            S.end_sites.push_back(std::move(es));
            if (nd.ref == 0) {
                p.dead = true;
                p.pc = ctx.bool_val(false);
            }
            return;
        }
        case op::simultaneous:
            // docs/language.md §5: for the checker the players' secret choices are their
            // choices in the block's order, with no information between them but the state
            // (every outcome of secret play is one of open play); the reveal does nothing.
            run(child(n, 0), e, p);
            return;
        case op::reveal: return;
        case op::end_turn:
            end_turn_here(p);
            p.dead = true;
            p.pc = ctx.bool_val(false);
            return;
        case op::fix_roll: {
            const id roll = child(n, 0);
            z3::expr v = S.integer(child(n, 1), e, p.st);
            drain(p, n);
            p.fixed.insert_or_assign(N(roll).ref, v);
            return;
        }
        default: return;
    }
}

}  // namespace wp::verify::detail
