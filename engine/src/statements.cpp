// The interpreter (interp.hpp): statements. The frame machine: one step of a loop or block
// frame (step_frame; a statement list steps in the header), one statement (`let`, assignments,
// `if`, loops, blocks, choices, `may`, `do`, calls, table `resolve`, `end game`, `end turn`,
// fixed rolls), whether a `choose` or `may` can start and the options a `choose` lists, and a
// pending decision or ownerless choice and its answer. Zone statements are in zones.cpp, events
// and their triggers in rules.cpp.
#include "interp.hpp"

namespace wp::engine {

std::int64_t interp::active_player() const {
    const std::int64_t p = looping_player();
    return p >= 0 ? p : s.pending_player_;
}

// The player a loop over players has reached, else -1: whose turn or phase the account names
// (the last player to decide, active_player's fallback, is not whose turn it is).
std::int64_t interp::looping_player() const {
    for (std::size_t i = s.frames_.size(); i-- > 0;) {
        const state::frame& f = s.frames_[i];
        if (f.kind != state::frame_kind::for_each || f.pc == 0) continue;
        const ir::node& nd = N(f.node);
        const id set = child(f.node, 0);
        const id t = N(set).type;
        if (t != ir::no_id && rs.types[t].kind == ir::type_kind::list_of &&
            rs.types[rs.types[t].value].kind == ir::type_kind::player)
            return s.locals_[f.fb + nd.ref];
    }
    return -1;
}

void interp::push_frame(state::frame_kind k, id node, std::uint32_t fb, std::uint32_t mark) {
    state::frame f;
    f.kind = k;
    f.node = node;
    f.fb = fb;
    f.mark = mark;
    f.aux = static_cast<std::uint32_t>(s.loop_store_.size());
    if (k == state::frame_kind::list) list_span(g, f);
    s.frames_.push_back(f);
}

void interp::store(id target, std::uint32_t fb, std::int64_t v, id stmt) {
    const std::uint32_t a = addr(target, fb);
    const id t = N(target).type;
    const ir::type& ty = rs.types.at(t);
    if (ty.kind == ir::type_kind::range) {
        if (v < ty.lo || v > ty.hi) {
            if (ty.policy == ir::overflow::clamp) {
                v = std::clamp(v, ty.lo, ty.hi);
            } else if (ty.policy == ir::overflow::error) {
                fail(stmt, "slot " + rs.slots[slot_of(target)].name + " would be " + std::to_string(v) +
                               ", outside " + std::to_string(ty.lo) + ".." + std::to_string(ty.hi) + " (" +
                               g.statement_owner(stmt) + ")",
                     {"bound-violation", rs.slots[slot_of(target)].name, v > ty.hi ? "above" : "below"});
            }
        }
    }
    if (N(target).code != op::index && rs.slots[slot_of(target)].flag && s.values_[a] != 0 && v == 0)
        fail(stmt, "flag " + rs.slots[slot_of(target)].name + " may not go back to false (" + g.statement_owner(stmt) + ")");
    const bool differs = s.values_[a] != v;
    if (tracing() && differs) [[unlikely]] trace_change(a, t, v, stmt);
    s.values_[a] = v;
    changed_value(a, stmt, differs);
}

// `list = value;`: the members of `value` as they are now, copied into the stored list.
void interp::store_list(id target, std::uint32_t fb, id value, id stmt) {
    const std::uint32_t a = addr(target, fb);
    const std::size_t start = push_set(value, fb);
    const std::size_t len = s.scratch_.size() - start;
    const std::uint32_t width = g.slots[slot_of(target)].width;
    if (len + 1 > width) {
        s.scratch_.resize(start);
        fail(stmt, "the list " + rs.slots[slot_of(target)].name + " would hold " + std::to_string(len) + " members, more than the " +
                       std::to_string(width - 1) + " its type has (a member twice?) (" + g.statement_owner(stmt) + ")",
             {"bound-violation", rs.slots[slot_of(target)].name, "above"});
    }
    std::int64_t* at = s.values_.data() + a;
    const bool same = at[0] == static_cast<std::int64_t>(len) && std::equal(at + 1, at + 1 + len, s.scratch_.begin() + static_cast<std::ptrdiff_t>(start));
    if (!same) {
        if (tracing()) [[unlikely]] {
            std::vector<std::int64_t> now{static_cast<std::int64_t>(len)};
            now.insert(now.end(), s.scratch_.begin() + static_cast<std::ptrdiff_t>(start), s.scratch_.end());
            bool own = false;
            const std::string place = g.value_place(a, own);
            if ((own || s.opt_.trace_verbose) && !unseen_change(a)) {
                const id type = N(target).type;
                trace(place + " " + g.list_text(type, at) + " \u2192 " + g.list_text(type, now.data()) + " (" + cause(stmt) + ")");
            }
        }
        at[0] = static_cast<std::int64_t>(len);
        std::copy(s.scratch_.begin() + static_cast<std::ptrdiff_t>(start), s.scratch_.end(), at + 1);
        for (std::uint32_t i = 0; i <= len; ++i) changed_value(a + i, stmt);
    }
    s.scratch_.resize(start);
}

// Whether the account as seat trace_viewer saw it leaves out a change to value a: another seat's
// hidden field, an entry of a map hidden from the viewer, or another seat's per-player field in a
// simultaneous block before its reveal.
bool interp::unseen_change(std::uint32_t a) const {
    const int viewer = s.opt_.trace_viewer;
    if (viewer < 0) return false;
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        const game::slot_layout& l = g.slots[sl];
        if (a < l.offset || a >= l.offset + l.copies * l.width) continue;
        if (rs.slots[sl].scope != ir::slot_scope::per_player)
            return s.hidden_copy(sl, (a - l.offset) / l.width) && !s.sees_entry(viewer, sl, (a - l.offset) % l.width);
        const int seat = static_cast<int>((a - l.offset) / l.width);
        return seat != viewer && (s.hidden_copy(sl, static_cast<std::uint32_t>(seat)) || s.in_secret());
    }
    return false;
}

// "all reveal what they decided", then, in the account as one seat saw it, what the others'
// per-player fields became while they were held back: "P2 plan[taxes] 0 → 2 (revealed)".
void interp::trace_reveal() const {
    trace("all reveal what they decided");
    const int viewer = s.opt_.trace_viewer;
    if (viewer < 0 || s.secret_base_.empty()) return;
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        if (slot.scope != ir::slot_scope::per_player) continue;
        const ir::type& t = rs.types[slot.type];
        if (t.kind == ir::type_kind::list_of) continue;
        const id vt = t.kind == ir::type_kind::map_of ? t.value : slot.type;
        const game::slot_layout& l = g.slots[sl];
        for (int c = 0; c < g.players(); ++c) {
            if (c == viewer || s.hidden_copy(sl, static_cast<std::uint32_t>(c))) continue;
            for (std::uint32_t k = 0; k < l.width; ++k) {
                const std::uint32_t a = l.offset + static_cast<std::uint32_t>(c) * l.width + k;
                if (s.secret_base_[a] == s.values_[a]) continue;
                bool own = false;
                trace(g.value_place(a, own) + " " + g.value_text(vt, s.secret_base_[a]) + " \u2192 " +
                      g.value_text(vt, s.values_[a]) + " (revealed)");
            }
        }
    }
}

// "phase 2: negotiations (P1)"; steps only in the verbose account.
void interp::trace_block(id b) const {
    const ir::block& blk = rs.blocks.at(b);
    if (blk.word != "phase" && !(blk.word == "step" && s.opt_.trace_verbose)) return;
    const std::string& number = g.block_number.at(b);
    // a player only inside a loop over players
    const std::int64_t p = looping_player();
    trace(blk.word + " " + (number.empty() ? "" : number + ": ") + (blk.name.empty() ? blk.path : blk.name) +
          (p < 0 ? "" : " (P" + std::to_string(p + 1) + ")"));
}

// What the account names as the cause of a statement's effect: the element holding it, a block
// by its own name ("pay_upkeep", "procedure offer_peace").
std::string interp::cause(id stmt) const {
    id b = ir::no_id;
    std::string why = g.statement_owner(stmt, &b);
    if (b != ir::no_id) why = rs.blocks[b].path.substr(rs.blocks[b].path.rfind('.') + 1);
    return why;
}

// "P2 gold 7 → 4 (pay_upkeep)": a player's own field by default, every value when verbose.
void interp::trace_change(std::uint32_t a, id type, std::int64_t v, id stmt) const {
    // a card's event in force or ended (docs/language.md, "Events on cards"): always told
    for (const ir::card_event& e : rs.card_events) {
        if (e.flag == ir::no_id || g.slots[e.flag].offset != a) continue;
        const ir::entity& c = rs.entities.at(e.card);
        trace((c.display.empty() ? c.name : c.display) + "’s event " + (v ? "is in force" : "ends") + " (" + cause(stmt) + ")");
        return;
    }
    if (v != 0 && s.values_[a] == 0) trace_shown(a);
    bool own = false;
    const std::string place = g.value_place(a, own);
    if (!own && !s.opt_.trace_verbose) return;
    if (unseen_change(a)) return;
    trace(place + " " + g.value_text(type, s.values_[a]) + " \u2192 " + g.value_text(type, v) + " (" + cause(stmt) + ")");
}

// Value a, a field some hidden field is shown `unless` (docs/language.md §2), is becoming true:
// in the account as seat trace_viewer saw it, the entries it shows that the seat could not see,
// as they stand: "East sp[Red] = 2 (shown)".
void interp::trace_shown(std::uint32_t a) const {
    const int viewer = s.opt_.trace_viewer;
    if (viewer < 0) return;
    for (id u = 0; u < rs.slots.size(); ++u) {
        const game::slot_layout& ul = g.slots[u];
        if (a < ul.offset || a >= ul.offset + ul.copies * ul.width) continue;
        const std::uint32_t c = (a - ul.offset) / ul.width;
        for (id sl = 0; sl < rs.slots.size(); ++sl) {
            const ir::slot& slot = rs.slots[sl];
            if (slot.hidden_unless != u || !s.hidden_copy(sl, c)) continue;
            const ir::type& t = rs.types[slot.type];
            if (t.kind == ir::type_kind::list_of) continue;
            const id vt = t.kind == ir::type_kind::map_of ? t.value : slot.type;
            const game::slot_layout& l = g.slots[sl];
            const bool per_player = slot.scope == ir::slot_scope::per_player;
            if (per_player && static_cast<int>(c) == viewer) continue;
            for (std::uint32_t k = 0; k < l.width; ++k) {
                if (!per_player && s.sees_entry(viewer, sl, k)) continue;
                const std::uint32_t at = l.offset + c * l.width + k;
                bool own = false;
                trace(g.value_place(at, own) + " = " + g.value_text(vt, s.values_[at]) + " (shown)");
            }
        }
        return;
    }
}

// Whether the first statement of `body` can be done: a `do` that is legal, a `choose`
// with at least one option. Other statements can always be done.
bool interp::body_possible(id body, std::uint32_t fb) {
    if (body == ir::no_id) return true;
    if (N(body).code == op::seq) {
        if (N(body).child_count == 0) return true;
        return body_possible(child(body, 0), fb);
    }
    const ir::node& nd = N(body);
    if (nd.code == op::do_action) {
        std::int64_t args[16];
        const std::size_t c = eval_args(body, fb, args);
        return action_legal(nd.ref, args, c);
    }
    if (nd.code == op::choose_one) return choose_options(body, fb, nullptr);
    if (nd.code == op::choose_subset && N(child(body, 2)).code != op::absent) {
        // some subset satisfies `where` (the first found ends the search, as the compiled engine's)
        const std::size_t fires_mark = s.fire_log_.size();
        std::vector<std::int64_t> masks;
        subset_masks(body, fb, masks, true);
        if (!masks.empty()) {  // as choose_options: the rules met count where the choice is listed
            for (std::size_t i = fires_mark; i < s.fire_log_.size(); ++i) --s.fires_[s.fire_log_[i]];
            cut(s.fire_log_, fires_mark);
        }
        return !masks.empty();
    }
    return true;
}

// `choose subset … where c [maximizing|minimizing e]`, at the step deciding element pc: may it be
// included (in), left out (out), and the subset still end legal? Every subset of the n elements
// is tried (n <= max_subset_where): legal ones satisfy c and, with an objective, have the best e of
// all those satisfying c. The decisions already made fix the low bits.
void interp::subset_answers(std::size_t fi, bool& in, bool& out) {
    const state::frame f = s.frames_[fi];
    const id where = child(f.node, 2);
    const std::int64_t goal = N(f.node).value;  // 0 none, 1 maximizing, 2 minimizing
    const id objective = goal != 0 ? child(f.node, 4) : ir::no_id;
    const std::uint32_t n = f.aux_len, pc = f.pc;
    const std::size_t chosen_at = f.aux + n, base = s.loop_store_.size();
    std::uint32_t prefix = 0;  // the answers given so far (elements 0..pc-1)
    for (std::size_t c = chosen_at, i = 0; c < base; ++c) {
        while (i < pc && s.loop_store_[f.aux + i] != s.loop_store_[c]) ++i;
        if (i < pc) prefix |= 1u << i++;
    }
    const std::int64_t slot = f.fb + N(f.node).ref;
    const std::int64_t saved = s.locals_[static_cast<std::size_t>(slot)];
    bool have_best = false;
    std::int64_t best = 0;
    const std::uint32_t fixed = pc >= 32 ? ~0u : (1u << pc) - 1;
    // Two passes: the best objective over every legal subset, then the answers that reach it.
    for (int pass = goal != 0 ? 0 : 1; pass < 2; ++pass) {
        for (std::uint64_t m = 0; m < (std::uint64_t{1} << n); ++m) {
            const auto mask = static_cast<std::uint32_t>(m);
            if (pass == 1 && ((mask & fixed) != prefix || (mask >> pc & 1 ? in : out))) continue;
            for (std::uint32_t i = 0; i < n; ++i)
                if (mask >> i & 1) {
                    const std::int64_t v = s.loop_store_[f.aux + i];
                    s.loop_store_.push_back(v);
                }
            const std::size_t len = s.loop_store_.size() - base;
            s.locals_[static_cast<std::size_t>(slot)] = (static_cast<std::int64_t>(base) << 24) | static_cast<std::int64_t>(len);
            bool legal = eval(where, f.fb) != 0;
            std::int64_t e = 0;
            if (legal && goal != 0) e = eval(objective, f.fb);
            cut(s.loop_store_, base);
            if (!legal) continue;
            if (pass == 0) {
                if (!have_best || (goal == 1 ? e > best : e < best)) best = e;
                have_best = true;
            } else if (goal == 0 || e == best) {
                (pc < n && (mask >> pc & 1) ? in : out) = true;
            }
        }
        if (pass == 0 && !have_best) break;
    }
    s.locals_[static_cast<std::size_t>(slot)] = saved;
}

// Every subset of a `choose subset`'s set that satisfies its `where` (all of them without one),
// as bit masks: what the checker's replay asks when it claims no subset is legal.
void interp::subset_masks(id n, std::uint32_t fb, std::vector<std::int64_t>& out, bool first_only) {
    const std::size_t start = push_set(child(n, 0), fb);
    std::vector<std::int64_t> elems;
    for (std::size_t i = start; i < s.scratch_.size(); ++i)
        if (std::find(elems.begin(), elems.end(), s.scratch_[i]) == elems.end()) elems.push_back(s.scratch_[i]);
    cut(s.scratch_, start);
    if (elems.size() > max_subset_where)
        fail(n, "a subset chosen under `where` from " + std::to_string(elems.size()) + " elements: at most " +
                    std::to_string(max_subset_where) + " are enumerated");
    const id where = child(n, 2);
    const std::size_t base = s.loop_store_.size();
    for (std::uint64_t m = 0; m < (std::uint64_t{1} << elems.size()); ++m) {
        for (std::size_t i = 0; i < elems.size(); ++i)
            if (m >> i & 1) s.loop_store_.push_back(elems[i]);
        s.locals_[fb + N(n).ref] = (static_cast<std::int64_t>(base) << 24) | static_cast<std::int64_t>(s.loop_store_.size() - base);
        const bool legal = N(where).code == op::absent || eval(where, fb) != 0;
        cut(s.loop_store_, base);
        if (legal) out.push_back(static_cast<std::int64_t>(m));
        if (legal && first_only) return;
    }
}

// The legal options of `choose` statement n, in set order, into *out (cleared first); with
// no `out`, only whether there is one. Returns whether there is at least one.
bool interp::choose_options(id n, std::uint32_t fb, std::vector<std::int64_t>* out) {
    const ir::node& nd = N(n);
    if (out) out->clear();
    const std::size_t start = push_set(child(n, 0), fb);
    const std::size_t end = s.scratch_.size();
    const id where = child(n, 2);
    const id body = child(n, 3);
    const std::size_t fires_mark = s.fire_log_.size();
    bool any = false;
    // By index: evaluating `where` and the body pushes above `end` (and may reallocate).
    for (std::size_t i = start; i < end; ++i) {
        const std::int64_t v = s.scratch_[i];
        if (out && std::find(out->begin(), out->end(), v) != out->end()) continue;
        s.locals_[fb + nd.ref] = v;
        if (N(where).code != op::absent && eval(where, fb) == 0) continue;
        if (!body_possible(body, fb)) continue;
        any = true;
        if (!out) break;
        out->push_back(v);
    }
    cut(s.scratch_, start);
    if (!out && any) {
        // Only asked whether the choice can be made (for an enclosing `may` or `choose`): it
        // can, so the rules met on the way decided nothing there; they count where the
        // choice itself is listed.
        for (std::size_t i = fires_mark; i < s.fire_log_.size(); ++i) --s.fires_[s.fire_log_[i]];
        cut(s.fire_log_, fires_mark);
    }
    return any;
}

void interp::step_frame(std::size_t fi) {
    const state::frame f = s.frames_[fi];
    switch (f.kind) {
        case state::frame_kind::list: return;  // stepped by step()
        case state::frame_kind::block: {
            const bool turn = g.block_is_turn[N(f.node).ref] != 0;
            if (f.pc == 0) {
                s.frames_[fi].pc = 1;
                if (turn) {
                    ++s.turns_;
                    if (tracing()) {
                        // The rules' own number for the turn (`numbered`), read only for the account.
                        const ir::id number = rs.blocks[N(f.node).ref].number;
                        s.turn_label_ = number == ir::no_id ? static_cast<std::int64_t>(s.turns_) : eval(number, f.fb);
                        trace("turn " + std::to_string(s.turn_label_) + (looping_player() < 0 ? "" : ": P" + std::to_string(looping_player() + 1)) +
                              " (" + rs.blocks[N(f.node).ref].path + ")");
                    }
                    for (std::size_t i = fi; i-- > 0;)
                        if (s.frames_[i].kind == state::frame_kind::for_each && players_loop(s.frames_[i].node)) {
                            s.frames_[i].round = true;
                            break;
                        }
                }
                push_frame(state::frame_kind::list, child(f.node, 0), f.fb);
                return;
            }
            pop();
            if (turn && s.end_at_ == 1) s.finish(s.pending_end_);
            return;
        }
        case state::frame_kind::while_: {
            if (eval(child(f.node, 0), f.fb) != 0) {
                invariants_in_step(f.node, step_place::round_start);
                push_frame(state::frame_kind::list, child(f.node, 1), f.fb);
            } else {
                invariants_in_step(f.node, step_place::loop_end);
                pop();
            }
            return;
        }
        case state::frame_kind::repeat: {
            if (f.pc == 0) {
                invariants_in_step(f.node, step_place::round_start);
                s.frames_[fi].pc = 1;
                push_frame(state::frame_kind::list, child(f.node, 0), f.fb);
                return;
            }
            if (eval(child(f.node, 1), f.fb) != 0) {
                invariants_in_step(f.node, step_place::loop_end);
                return pop();
            }
            invariants_in_step(f.node, step_place::round_start);
            push_frame(state::frame_kind::list, child(f.node, 0), f.fb);
            return;
        }
        case state::frame_kind::subset:
        case state::frame_kind::order: {
            const std::uint32_t n = f.aux_len;
            const std::uint32_t chosen_at = f.aux + n;
            const auto chosen = static_cast<std::uint32_t>(s.loop_store_.size()) - chosen_at;
            if (f.pc > n) return pop();
            const bool done = f.kind == state::frame_kind::subset ? f.pc == n : chosen == n;
            if (done) {
                // An empty set asks nothing: its one subset must still satisfy `where`.
                if (n == 0 && f.kind == state::frame_kind::subset && N(child(f.node, 2)).code != op::absent) {
                    bool in = false, out = false;
                    subset_answers(fi, in, out);
                    if (!out) fail(f.node, "a choice with no legal option", {"stuck-state", "", ""});
                }
                s.locals_[f.fb + N(f.node).ref] = (static_cast<std::int64_t>(chosen_at) << 24) | chosen;
                s.frames_[fi].pc = n + 1;
                push_frame(state::frame_kind::list, child(f.node, 3), f.fb);
                return;
            }
            std::vector<std::int64_t>& opts = s.options_;
            opts.clear();
            if (f.kind == state::frame_kind::subset && N(child(f.node, 2)).code != op::absent) {
                bool in = false, out = false;
                subset_answers(fi, in, out);
                if (in) opts.push_back(1);
                if (out) opts.push_back(0);
                if (opts.empty()) fail(f.node, "a choice with no legal option", {"stuck-state", "", ""});
            } else if (f.kind == state::frame_kind::subset) {
                opts.push_back(1);
                opts.push_back(0);
            } else {
                for (std::uint32_t i = 0; i < n; ++i) {
                    const std::int64_t v = s.loop_store_[f.aux + i];
                    if (std::find(s.loop_store_.begin() + chosen_at, s.loop_store_.end(), v) == s.loop_store_.end())
                        opts.push_back(v);
                }
                if (opts.size() == 1) {  // the last one takes the last place
                    s.loop_store_.push_back(opts[0]);
                    opts.clear();
                    ++s.frames_[fi].pc;
                    return;
                }
            }
            const id by = child(f.node, 1);
            const std::int64_t player = N(by).code == op::absent ? -1 : eval(by, f.fb);
            await_choice(f.node, f.fb, player);
            return;
        }
        case state::frame_kind::for_each: {
            if (f.pc >= f.aux_len) {
                invariants_in_step(f.node, step_place::loop_end);
                pop();
                if (s.end_at_ == 2 && (f.round || (!g.has_turns && players_loop(f.node)))) s.finish(s.pending_end_);
                return;
            }
            s.locals_[f.fb + N(f.node).ref] = s.loop_store_[f.aux + f.pc];
            invariants_in_step(f.node, step_place::round_start);
            s.frames_[fi].pc = f.pc + 1;
            push_frame(state::frame_kind::list, child(f.node, 2), f.fb);
            return;
        }
    }
}

bool interp::players_loop(id for_each) const {
    const id t = N(child(for_each, 0)).type;
    return t != ir::no_id && rs.types[t].kind == ir::type_kind::list_of &&
           rs.types[rs.types[t].value].kind == ir::type_kind::player;
}

// A new region for an element's locals with args bound; pushes its body.
void interp::call(id body, std::size_t locals, const std::int64_t* args, std::size_t count) {
    const auto mark = static_cast<std::uint32_t>(s.locals_.size());
    const std::uint32_t fb = push_region(std::max(locals, count));
    for (std::size_t i = 0; i < count; ++i) s.locals_[fb + i] = args[i];
    if (body == ir::no_id) {
        cut(s.locals_, mark);
        return;
    }
    push_frame(state::frame_kind::list, body, fb, mark);
}

void interp::statement(std::size_t fi, id n, std::uint32_t fb) {
    const ir::node& nd = N(n);
    auto advance = [&] { ++s.frames_[fi].pc; };
    switch (nd.code) {
        case op::seq:
            advance();
            push_frame(state::frame_kind::list, n, fb);
            return;
        case op::block:
            advance();
            if (s.opt_.check_in_steps && rs.blocks[nd.ref].word == "phase") invariants_in_step(n, step_place::phase_start);
            if (g.spliced(n)) {  // a phase or step whose statements follow it in the list
                if (tracing()) [[unlikely]] trace_block(nd.ref);
                return;
            }
            // Only a `turn` needs a frame of its own (its start is traced, its end may end the
            // game); phases and steps run as plain statement lists.
            push_frame(g.block_is_turn[nd.ref] ? state::frame_kind::block : state::frame_kind::list,
                       g.block_is_turn[nd.ref] ? n : child(n, 0), fb);
            return;
        case op::let: {
            trace_lookup = tracing() && N(child(n, 0)).code == op::lookup;
            const std::int64_t v = eval(child(n, 0), fb);
            trace_lookup = false;
            advance();
            s.locals_[fb + nd.ref] = v;
            return;
        }
        case op::assign:
        case op::add_assign:
        case op::sub_assign: {
            if (kind_of(child(n, 0)) == ir::type_kind::list_of) {  // only `=` (the compiler)
                store_list(child(n, 0), fb, child(n, 1), n);
                advance();
                return;
            }
            trace_lookup = tracing() && N(child(n, 1)).code == op::lookup;
            std::int64_t v = eval(child(n, 1), fb);
            trace_lookup = false;
            // coverage: bit 2, the assignment changed what it wrote (the checker's no-op check)
            const bool covered = !s.ran_.empty();
            const std::int64_t old = nd.code != op::assign || covered ? eval(child(n, 0), fb) : 0;
            if (nd.code != op::assign) v = nd.code == op::add_assign ? add_ck(n, old, v) : sub_ck(n, old, v);
            store(child(n, 0), fb, v, n);
            if (covered) [[unlikely]]
                if (eval(child(n, 0), fb) != old) s.ran_[n] |= 2;
            advance();
            return;
        }
        case op::if_: {
            const std::uint8_t known = g.if_condition[n];
            const bool c = known == game::condition_varies ? eval(child(n, 0), fb) != 0 : known == game::condition_true;
            advance();
            if (c) push_frame(state::frame_kind::list, child(n, 1), fb);
            else if (N(child(n, 2)).code != op::absent) push_frame(state::frame_kind::list, child(n, 2), fb);
            return;
        }
        case op::for_each: {
            const std::size_t start = push_set(child(n, 0), fb);
            const std::int64_t from = N(child(n, 1)).code != op::absent ? eval(child(n, 1), fb) : -1;
            advance();
            push_frame(state::frame_kind::for_each, n, fb);
            const std::size_t at = s.loop_store_.size();
            s.loop_store_.insert(s.loop_store_.end(), s.scratch_.begin() + static_cast<std::ptrdiff_t>(start), s.scratch_.end());
            s.frames_.back().aux_len = static_cast<std::uint32_t>(s.loop_store_.size() - at);
            cut(s.scratch_, start);
            if (N(child(n, 1)).code != op::absent) {
                const auto first = s.loop_store_.begin() + static_cast<std::ptrdiff_t>(at);
                const auto it = std::find(first, s.loop_store_.end(), from);
                if (it != s.loop_store_.end()) std::rotate(first, it, s.loop_store_.end());
            }
            return;
        }
        case op::while_:
            advance();
            push_frame(state::frame_kind::while_, n, fb);
            return;
        case op::repeat_until:
            advance();
            push_frame(state::frame_kind::repeat, n, fb);
            return;
        case op::shuffle:
        case op::draw:
        case op::deal:
        case op::move:
        case op::reshuffle: return zone_statement(fi, n, fb);
        case op::choose_one: {
            if (!choose_options(n, fb, &s.options_)) fail(n, "a choice with no legal option", {"stuck-state", "", ""});
            const id by = child(n, 1);
            const std::int64_t player = N(by).code == op::absent ? -1 : eval(by, fb);
            advance();
            await_choice(n, fb, player);
            return;
        }
        case op::choose_subset:
        case op::choose_order: {
            if (nd.code == op::choose_order && N(child(n, 2)).code != op::absent)
                fail(n, "choose-order with `where` is not supported by the engine");
            const std::size_t start = push_set(child(n, 0), fb);
            advance();
            push_frame(nd.code == op::choose_subset ? state::frame_kind::subset : state::frame_kind::order, n, fb);
            const auto at = static_cast<std::ptrdiff_t>(s.loop_store_.size());
            for (std::size_t i = start; i < s.scratch_.size(); ++i)
                if (std::find(s.loop_store_.begin() + at, s.loop_store_.end(), s.scratch_[i]) == s.loop_store_.end())
                    s.loop_store_.push_back(s.scratch_[i]);
            cut(s.scratch_, start);
            const std::size_t count = s.loop_store_.size() - static_cast<std::size_t>(at);
            if (count >= (1u << 24)) fail(n, "too many elements to choose from");
            if (nd.code == op::choose_subset && N(child(n, 2)).code != op::absent && count > max_subset_where)
                fail(n, "a subset chosen under `where` from " + std::to_string(count) + " elements: at most " +
                            std::to_string(max_subset_where) + " are enumerated");
            s.frames_.back().aux_len = static_cast<std::uint32_t>(count);
            return;
        }
        case op::may: {
            const id by = child(n, 0);
            std::int64_t player = N(by).code == op::absent ? active_player() : eval(by, fb);
            if (player < 0) fail(n, "`may` with no player to decide");
            const bool possible = body_possible(child(n, 1), fb);
            const bool required = possible && body_required(child(n, 1), fb);
            if (!possible && s.opt_.track_coverage) note_skipped_demand(n, child(n, 1), fb);
            advance();
            if (!possible) return;
            s.pending_node_ = n;
            s.pending_fb_ = fb;
            s.options_ = {1, 0};
            if (required) s.options_ = {1};
            s.pending_player_ = static_cast<int>(player);
            s.pending_ = state::pending_kind::decision;
            return;
        }
        case op::do_action: {
            std::int64_t args[16];
            const std::size_t c = eval_args(n, fb, args);
            if (!action_legal(nd.ref, args, c))
                fail(n, "action " + rs.actions[nd.ref].name + args_text(rs.actions[nd.ref].locals, args, c) + " is not legal",
                     {"unmet-obligation", rs.actions[nd.ref].name, ""});
            advance();
            call(rs.actions[nd.ref].body, rs.actions[nd.ref].locals.size(), args, c);
            return;
        }
        case op::call: {
            std::int64_t args[16];
            const std::size_t c = eval_args(n, fb, args);
            advance();
            call(rs.procedures[nd.ref].body, rs.procedures[nd.ref].locals.size(), args, c);
            return;
        }
        case op::resolve: {
            std::int64_t args[16];
            const std::size_t c = eval_args(n, fb, args);
            const auto mark = static_cast<std::uint32_t>(s.locals_.size());
            const auto [tfb, cell] = table_cell(n, nd.ref, args, c);
            if (tracing()) [[unlikely]] trace_table(nd.ref, cell);
            advance();
            if (cell->effects == ir::no_id) {
                cut(s.locals_, mark);
                return;
            }
            push_frame(state::frame_kind::list, cell->effects, tfb, mark);
            return;
        }
        case op::emit: return emit(fi, n, fb);
        case op::end_game: {
            advance();
            const bool named = nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs.strings.size();
            const std::string number = named ? std::string() : std::to_string(nd.value);
            const std::string& reason = named ? rs.strings[static_cast<std::size_t>(nd.value)] : number;
            if (nd.ref == 0) {
                s.finish(reason);
            } else if (s.end_at_ == 0) {
                s.end_at_ = static_cast<std::uint8_t>(nd.ref);
                s.pending_end_ = reason;
            }
            return;
        }
        case op::simultaneous:
            // docs/language.md §5: the values as the block begins are what other seats see of a
            // seat's per-player fields until the reveal (state::masked_for).
            advance();
            s.secret_base_ = s.values_;
            if (tracing()) [[unlikely]] trace("the players decide in secret (" + cause(n) + ")");
            push_frame(state::frame_kind::list, child(n, 0), fb);
            return;
        case op::reveal:
            advance();
            if (tracing()) [[unlikely]] trace_reveal();
            s.secret_base_.clear();
            return;
        case op::end_turn: {
            s.secret_base_.clear();  // the turn's secrets are shown as it ends
            // The frames above the innermost turn's are dropped (the rest of its statements, loops,
            // choices and procedure calls); the turn's frame ends at its next step, as at its end.
            std::size_t t = s.frames_.size();
            while (t-- > 0 && !(s.frames_[t].kind == state::frame_kind::block && g.block_is_turn[N(s.frames_[t].node).ref])) {
            }
            if (t == static_cast<std::size_t>(-1)) fail(n, "`end turn` outside a turn");
            if (tracing()) [[unlikely]] {
                trace("turn " + std::to_string(s.turn_label_) + " ends at once (" + cause(n) + ")");
            }
            while (s.frames_.size() > t + 1) pop();
            return;
        }
        case op::fix_roll: {
            // only an example's `given` fixes a roll, and only a probe runs one
            if (!s.probing_) fail(n, "a fixed roll outside an example");
            const id r = N(child(n, 0)).ref;
            const std::int64_t dice = eval(child(n, 1), fb);
            advance();
            auto it = std::find_if(s.held_rolls_.begin(), s.held_rolls_.end(), [&](const auto& h) { return h.first == r; });
            if (it == s.held_rolls_.end()) s.held_rolls_.emplace_back(r, dice);
            else it->second = dice;
            return;
        }
        default: fail(n, std::string("not a statement: ") + ir::name_of(nd.code));
    }
}

// Applies option i of the pending decision or ownerless choice.
// Suspends at a choice among `opts`: a decision of `player`, or, with no owner (player < 0),
// a uniformly random pick (a chance node, sampled at once when chance is sampled).
// The options are in s.options_.
void interp::await_choice(id node, std::uint32_t fb, std::int64_t player) {
    s.pending_node_ = node;
    s.pending_fb_ = fb;
    if (player < 0) {
        s.weights_.assign(s.options_.size(), 1);  // (sampled: no weights needed, but cheap)
        s.weight_total_ = s.options_.size();
        s.pending_player_ = -1;
        s.pending_ = state::pending_kind::chance_choice;
        if (s.opt_.sampled_chance) resolve_pending(static_cast<int>(s.rng_.below(s.options_.size())));
    } else {
        s.pending_player_ = static_cast<int>(player);
        s.pending_ = state::pending_kind::decision;
    }
}

void interp::resolve_pending(int i) {
    const id n = s.pending_node_;
    const std::uint32_t fb = s.pending_fb_;
    const std::int64_t v = s.options_.at(static_cast<std::size_t>(i));
    s.pending_ = state::pending_kind::none;
    s.options_.clear();
    s.weights_.clear();
    if (N(n).code == op::may) {
        if (v) push_frame(state::frame_kind::list, child(n, 1), fb);
        return;
    }
    if (N(n).code == op::choose_subset || N(n).code == op::choose_order) {
        // The subset/order frame waiting is on top: record the answer, move on.
        state::frame& f = s.frames_.back();
        if (N(n).code == op::choose_order) s.loop_store_.push_back(v);
        else if (v) s.loop_store_.push_back(s.loop_store_[f.aux + f.pc]);
        ++f.pc;
        return;
    }
    s.locals_[fb + N(n).ref] = v;
    push_frame(state::frame_kind::list, child(n, 3), fb);
}

}  // namespace wp::engine
