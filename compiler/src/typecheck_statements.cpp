// Statements: each element's statements checked and emitted as typed nodes (the expressions
// they hold go through typecheck.cpp). Split from typecheck.cpp by concept.
#include "context.hpp"
#include "ir_tested_dos.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace wp::compiler::detail {

ir::id body_checker::stmts(const std::vector<dsl::stmt>& body, const dsl::span& where, bool keep_scope) {
    if (!keep_scope) push_scope();
    std::vector<ir::id> kids;
    bool ok = true;
    for (const dsl::stmt& s : body) {
        const ir::id n = stmt(s);
        if (n == ir::no_id) ok = false;
        else kids.push_back(n);
    }
    if (!keep_scope) pop_scope();
    if (!ok) return ir::no_id;
    return emit(ir::op::seq, cx_.t_void, 0, ir::no_id, kids, where);
}

namespace {
const char* zone_role(int i) { return i == 0 ? "the zone to take from" : "the zone to put into"; }
}  // namespace

ir::id body_checker::stmt(const dsl::stmt& s) {
    auto zone_expr = [&](const dsl::expr& e, const char* role, bool per_player = false) -> typed {
        typed z = expr(e);
        if (!z.ok()) return {};
        const ir::type& t = cx_.type_at(z.type);
        const bool is_zone = t.kind == ir::type_kind::zone;
        const bool is_per_player = t.kind == ir::type_kind::map_of && t.key == cx_.t_player &&
                                   cx_.type_at(t.value).kind == ir::type_kind::zone;
        if (per_player ? !is_per_player : !is_zone) {
            std::string msg = std::string(role) + " must be " + (per_player ? "a per-player zone (such as `hand`)" : "a zone") +
                              ", but this is " + cx_.type_text(z.type);
            if (!per_player && is_per_player) msg += "; pick one player's zone with `[p]`";
            else if (!per_player && t.kind == ir::type_kind::map_of && cx_.type_at(t.value).kind == ir::type_kind::zone)
                msg += "; pick one location's zone with `[c]`";
            cx_.sink.error(dsl::diag_kind::type_mismatch, e.where, msg);
            return {};
        }
        return z;
    };
    auto zone_kind = [&](ir::id t) {
        const ir::type& x = cx_.type_at(t);
        return x.kind == ir::type_kind::map_of ? cx_.type_at(x.value).ref : x.ref;
    };
    auto same_kind = [&](const typed& a, const typed& b, const dsl::expr& where) {
        if (zone_kind(a.type) == zone_kind(b.type)) return true;
        cx_.sink.error(dsl::diag_kind::type_mismatch, where.where,
                       "this zone holds " + cx_.rs.entity_kinds[zone_kind(b.type)].name + " but the other holds " +
                           cx_.rs.entity_kinds[zone_kind(a.type)].name);
        return false;
    };
    auto player_or_absent = [&](const dsl::expr& e, const char* role) -> typed {
        if (e.kind == dsl::expr_kind::none) return {absent(e.where), cx_.t_void};
        return expect(e, cx_.t_player, role);
    };
    auto invoke = [&](sym want, const char* word, ir::op code) -> ir::id {
        auto it = cx_.values.find(s.id.text);
        if (it == cx_.values.end()) {
            std::vector<std::string> names;
            for (const auto& [n, x] : cx_.values)
                if (x.kind == want) names.push_back(n);
            cx_.unknown(s.id, word, names);
            return ir::no_id;
        }
        if (it->second.kind != want) {
            std::string hint;
            if (it->second.kind == sym::action) hint = "; perform an action with `do " + s.id.text + "(…);`";
            else if (it->second.kind == sym::table) hint = "; roll on a table with `resolve " + s.id.text + "(…);`";
            else if (it->second.kind == sym::event) hint = "; raise an event with `emit " + s.id.text + "(…);`";
            else if (it->second.kind == sym::procedure) hint = "; run a procedure with `" + s.id.text + "(…);`";
            cx_.sink.error(dsl::diag_kind::wrong_kind_of_name, s.id.where,
                           "`" + s.id.text + "` is a " + sym_word(it->second.kind) + ", not " + (want == sym::action ? "an " : "a ") +
                               word + hint,
                           {{it->second.where, "`" + s.id.text + "` is declared here"}});
            return ir::no_id;
        }
        const ir::id index = it->second.index;
        const std::vector<ir::local>* params = nullptr;
        std::uint32_t count = 0;
        switch (want) {
            case sym::action: params = &cx_.rs.actions[index].locals; count = cx_.rs.actions[index].param_count; break;
            case sym::table: params = &cx_.rs.tables[index].locals; count = cx_.rs.tables[index].param_count; break;
            case sym::event:
                params = &cx_.rs.events[index].params;
                count = static_cast<std::uint32_t>(params->size());
                break;
            default:
                params = &cx_.rs.procedures[index].locals;
                count = cx_.rs.procedures[index].param_count;
                break;
        }
        std::vector<ir::id> kids;
        dsl::expr fake;
        if (!args_for(fake, s.id.text, *params, count, kids, s.where, s.exprs).ok()) return ir::no_id;
        return emit(code, cx_.t_void, 0, index, kids, s.where);
    };
    switch (s.kind) {
        case dsl::stmt_kind::block: {
            ir::block b;
            b.word = s.word;
            b.name = s.id.text;
            b.aid = s.aid;
            b.path = path_prefix + "." + (s.id.text.empty() ? s.word : s.id.text);
            b.parent = current_block_;
            // A block an errata replaced or inserted belongs, with all it holds, to the errata's layer.
            const ir::id saved_layer = frame_.layer;
            if (auto it = cx_.patched.block_layers.find(b.path); it != cx_.patched.block_layers.end())
                frame_.layer = it->second;
            b.prov = cx_.prov(s.where, s.anchors, frame_.layer);
            if (!s.exprs.empty()) b.number = turn_number(s);
            const auto id = static_cast<ir::id>(cx_.rs.blocks.size());
            cx_.rs.blocks.push_back(std::move(b));
            const std::string saved_prefix = path_prefix;
            const ir::id saved_block = current_block_;
            path_prefix = cx_.rs.blocks[id].path;
            current_block_ = id;
            const ir::id body = stmts(s.body, s.where);
            path_prefix = saved_prefix;
            current_block_ = saved_block;
            if (body == ir::no_id) {
                frame_.layer = saved_layer;
                return ir::no_id;
            }
            const ir::id n = emit(ir::op::block, cx_.t_void, 0, id, {body}, s.where);
            frame_.layer = saved_layer;
            cx_.rs.blocks[id].node = n;
            return n;
        }
        case dsl::stmt_kind::let: {
            if (s.exprs.empty()) return ir::no_id;
            typed v = expr(s.exprs[0]);
            if (!v.ok()) {
                bind(s.id.text, error_type);  // later uses are not reported again
                return ir::no_id;
            }
            if (v.type == cx_.t_void) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, s.exprs[0].where, "this has no value to name");
                bind(s.id.text, error_type);
                return ir::no_id;
            }
            const ir::id local = bind(s.id.text, v.type);
            return emit(ir::op::let, cx_.t_void, 0, local, {v.node}, s.where);
        }
        case dsl::stmt_kind::assign: return lvalue_assign(s);
        case dsl::stmt_kind::if_else: {
            typed c = expect(s.exprs[0], cx_.t_bool, "the condition of `if`");
            const ir::id then_body = stmts(s.body, s.where);
            ir::id else_body = ir::no_id;
            if (!s.else_body.empty()) else_body = stmts(s.else_body, s.else_body.front().where);
            if (!c.ok() || then_body == ir::no_id || (!s.else_body.empty() && else_body == ir::no_id)) return ir::no_id;
            if (s.else_body.empty()) else_body = absent(s.where);
            return emit(ir::op::if_, cx_.t_void, 0, ir::no_id, {c.node, then_body, else_body}, s.where);
        }
        case dsl::stmt_kind::for_each: {
            typed set = expr(s.exprs[0]);
            ir::id el = error_type;
            if (set.ok()) {
                el = element_type(set.type);
                if (el == error_type) {
                    cx_.sink.error(dsl::diag_kind::type_mismatch, s.exprs[0].where,
                                   "`for each` goes through a zone or a list, but this is " + cx_.type_text(set.type));
                    set = {};
                }
            }
            typed from{absent(s.where), cx_.t_void};
            if (s.exprs.size() > 1 && s.exprs[1].kind != dsl::expr_kind::none)
                from = expect(s.exprs[1], el, "the start of the turn order (`from`)");
            push_scope();
            const ir::id var = bind(s.id.text, el);
            const ir::id body = stmts(s.body, s.where);
            pop_scope();
            if (!set.ok() || !from.ok() || body == ir::no_id) return ir::no_id;
            return emit(ir::op::for_each, cx_.t_void, 0, var, {set.node, from.node, body}, s.where);
        }
        case dsl::stmt_kind::repeat_until: {
            const ir::id body = stmts(s.body, s.where);
            typed c = expect(s.exprs[0], cx_.t_bool, "the condition of `until`");
            if (body == ir::no_id || !c.ok()) return ir::no_id;
            return emit(ir::op::repeat_until, cx_.t_void, 0, ir::no_id, {body, c.node}, s.where);
        }
        case dsl::stmt_kind::while_loop: {
            typed c = expect(s.exprs[0], cx_.t_bool, "the condition of `while`");
            const ir::id body = stmts(s.body, s.where);
            if (body == ir::no_id || !c.ok()) return ir::no_id;
            return emit(ir::op::while_, cx_.t_void, 0, ir::no_id, {c.node, body}, s.where);
        }
        case dsl::stmt_kind::shuffle: {
            typed z = zone_expr(s.exprs[0], "the zone to shuffle");
            if (!z.ok()) return ir::no_id;
            return emit(ir::op::shuffle, cx_.t_void, 0, ir::no_id, {z.node}, s.where);
        }
        case dsl::stmt_kind::draw:
        case dsl::stmt_kind::deal:
        case dsl::stmt_kind::move: {
            if (s.exprs.size() != 3) return ir::no_id;
            const bool deal = s.kind == dsl::stmt_kind::deal;
            typed z1 = zone_expr(s.exprs[1], zone_role(0));
            typed z2 = zone_expr(s.exprs[2], zone_role(1), deal);
            typed what;
            if (s.kind == dsl::stmt_kind::move) {
                ir::id el = error_type;
                if (z1.ok()) el = element_type(z1.type);
                what = expect(s.exprs[0], el, "the card or piece to move");
            } else {
                what = expect(s.exprs[0], cx_.t_int, deal ? "the number of cards dealt" : "the number of cards drawn");
            }
            if (!z1.ok() || !z2.ok() || !what.ok() || !same_kind(z1, z2, s.exprs[2])) return ir::no_id;
            const ir::op code = deal ? ir::op::deal : s.kind == dsl::stmt_kind::draw ? ir::op::draw : ir::op::move;
            return emit(code, cx_.t_void, 0, ir::no_id, {what.node, z1.node, z2.node}, s.where);
        }
        case dsl::stmt_kind::reshuffle: {
            typed z1 = zone_expr(s.exprs[0], zone_role(0));
            typed z2 = zone_expr(s.exprs[1], zone_role(1));
            if (!z1.ok() || !z2.ok() || !same_kind(z1, z2, s.exprs[1])) return ir::no_id;
            return emit(ir::op::reshuffle, cx_.t_void, 0, ir::no_id, {z1.node, z2.node}, s.where);
        }
        case dsl::stmt_kind::move_all: {  // a stack moving as one: reshuffle's node, value 1, no shuffle
            if (s.exprs.size() != 2) return ir::no_id;
            typed z1 = zone_expr(s.exprs[0], zone_role(0));
            typed z2 = zone_expr(s.exprs[1], zone_role(1));
            if (!z1.ok() || !z2.ok() || !same_kind(z1, z2, s.exprs[1])) return ir::no_id;
            return emit(ir::op::reshuffle, cx_.t_void, 1, ir::no_id, {z1.node, z2.node}, s.where);
        }
        case dsl::stmt_kind::choose: {
            if (s.exprs.size() != 3 && s.exprs.size() != 4) return ir::no_id;
            const bool one_of = s.word == "one" || s.word.empty();
            if (!one_of && s.exprs[0].kind == dsl::expr_kind::range) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, s.exprs[0].where,
                               "`choose " + s.word + "` picks from a zone or a list; a range `lo..hi` is only for choosing one number");
                return ir::no_id;
            }
            typed set = s.exprs[0].kind == dsl::expr_kind::range ? range_expr(s.exprs[0], true) : expr(s.exprs[0]);
            ir::id el = error_type;
            if (set.ok()) {
                el = element_type(set.type);
                if (el == error_type) {
                    cx_.sink.error(dsl::diag_kind::type_mismatch, s.exprs[0].where,
                                   "`choose` picks from a zone or a list, but this is " + cx_.type_text(set.type));
                    set = {};
                }
            }
            typed by = player_or_absent(s.exprs[1], "the player who chooses (`by`)");
            const bool one = s.word == "one" || s.word.empty();
            push_scope();
            const ir::id var = bind(s.id.text, one ? el : cx_.list_of(el));
            typed where{absent(s.where), cx_.t_void};
            bool shape_ok = true;
            if (s.exprs[2].kind != dsl::expr_kind::none) {
                // An order under a condition would need every permutation enumerated: not offered.
                if (s.word == "order") {
                    cx_.sink.error(dsl::diag_kind::wrong_kind_of_name, s.exprs[2].where,
                                   "`choose order` takes no `where`: only `choose one` and `choose subset` are chosen "
                                   "under a condition");
                    shape_ok = false;
                } else {
                    where = expect(s.exprs[2], cx_.t_bool, "the condition of `where`");
                }
            }
            // `maximizing|minimizing e`: among the subsets satisfying `where`, only the best are legal.
            typed goal{};
            std::int64_t goal_code = 0;
            if (s.exprs.size() == 4) {
                if (s.word != "subset") {
                    cx_.sink.error(dsl::diag_kind::wrong_kind_of_name, s.exprs[3].where,
                                   "`" + s.goal + "` is an objective of `choose subset` only: a single choice is "
                                   "narrowed by its `where` alone");
                    shape_ok = false;
                } else {
                    goal = expect(s.exprs[3], cx_.t_int, "the objective of a subset choice");
                    goal_code = s.goal == "maximizing" ? 1 : 2;
                }
            }
            const ir::id body = stmts(s.body, s.where);
            pop_scope();
            if (!shape_ok || !set.ok() || !by.ok() || !where.ok() || body == ir::no_id) return ir::no_id;
            if (goal_code != 0 && !goal.ok()) return ir::no_id;
            const ir::op code = one ? ir::op::choose_one : s.word == "subset" ? ir::op::choose_subset : ir::op::choose_order;
            if (goal_code != 0)
                return emit(code, cx_.t_void, goal_code, var, {set.node, by.node, where.node, body, goal.node}, s.where);
            return emit(code, cx_.t_void, 0, var, {set.node, by.node, where.node, body}, s.where);
        }
        case dsl::stmt_kind::may: {
            typed by = s.exprs.empty() ? typed{absent(s.where), cx_.t_void} : player_or_absent(s.exprs[0], "the player who may act (`by`)");
            const ir::id body = stmts(s.body, s.where);
            if (!by.ok() || body == ir::no_id) return ir::no_id;
            return emit(ir::op::may, cx_.t_void, cx_.string_id(s.word), ir::no_id, {by.node, body}, s.where);
        }
        case dsl::stmt_kind::do_action: {
            const ir::id n = invoke(sym::action, "action", ir::op::do_action);
            if (n != ir::no_id) cx_.statement_spans[n] = s.where;  // rolls_in_tested_dos() may point here
            return n;
        }
        case dsl::stmt_kind::resolve: return invoke(sym::table, "table", ir::op::resolve);
        case dsl::stmt_kind::emit: return invoke(sym::event, "event", ir::op::emit);
        case dsl::stmt_kind::call: {
            const ir::id n = invoke(sym::procedure, "procedure", ir::op::call);
            if (n != ir::no_id) cx_.statement_spans[n] = s.id.where;  // turn_endings() may point here (at the name)
            return n;
        }
        case dsl::stmt_kind::end_game: {
            const ir::id when = s.word == "turn" ? 1 : s.word == "round" ? 2 : 0;
            return emit(ir::op::end_game, cx_.t_void, cx_.string_id(s.id.text), when, {}, s.where);
        }
        case dsl::stmt_kind::play_event: return play_event_stmt(s);
        case dsl::stmt_kind::cancel_event: return cancel_event_stmt(s);
        case dsl::stmt_kind::simultaneous: {
            // docs/language.md §5: only the sequence and procedures, never nested, one reveal in it
            bool ok = true;
            if (!frame_.secret) {
                cx_.sink.error(dsl::diag_kind::misplaced_simultaneous, s.where,
                               "a `simultaneous` block stands only in the sequence or a procedure, where players decide "
                               "(actions, rules and table rows run wherever they are used)");
                ok = false;
            } else if (in_simultaneous_) {
                cx_.sink.error(dsl::diag_kind::misplaced_simultaneous, s.where,
                               "a `simultaneous` block inside another: the inner one would reveal the outer one's secrets");
                ok = false;
            }
            std::vector<const dsl::stmt*> mine;
            for (const dsl::stmt& x : s.body)
                if (x.kind == dsl::stmt_kind::reveal) mine.push_back(&x);
            if (ok && mine.size() != 1) {
                std::vector<dsl::diag_note> notes;
                for (std::size_t i = 1; i < mine.size(); ++i) notes.push_back({mine[i]->where, "another `reveal;` here"});
                cx_.sink.error(dsl::diag_kind::misplaced_simultaneous, s.where,
                               mine.empty() ? "this `simultaneous` block has no `reveal;` among its own statements: "
                                              "what the players decide in it would never be shown"
                                            : "this `simultaneous` block has more than one `reveal;`",
                               std::move(notes));
                ok = false;
            }
            const bool saved = in_simultaneous_;
            const std::vector<const dsl::stmt*> saved_reveals = reveals_;
            in_simultaneous_ = true;
            reveals_ = mine;
            const ir::id body = stmts(s.body, s.where);
            in_simultaneous_ = saved;
            reveals_ = saved_reveals;
            if (!ok || body == ir::no_id) return ir::no_id;
            return emit(ir::op::simultaneous, cx_.t_void, 0, ir::no_id, {body}, s.where);
        }
        case dsl::stmt_kind::reveal: {
            if (std::find(reveals_.begin(), reveals_.end(), &s) == reveals_.end()) {
                cx_.sink.error(dsl::diag_kind::reveal_outside_simultaneous, s.where,
                               in_simultaneous_ ? "`reveal;` stands directly in its `simultaneous` block, not inside an "
                                                  "`if`, a loop or a choice there, so that it always runs"
                                                : "`reveal;` outside a `simultaneous` block: there is nothing secret to show");
                return ir::no_id;
            }
            return emit(ir::op::reveal, cx_.t_void, 0, ir::no_id, {}, s.where);
        }
        case dsl::stmt_kind::end_turn: {
            // whether a `turn` is around it is checked over the whole ruleset (turn_endings)
            const ir::id n = emit(ir::op::end_turn, cx_.t_void, 0, ir::no_id, {}, s.where);
            cx_.statement_spans[n] = s.where;
            return n;
        }
    }
    return ir::no_id;
}

// `turn NAME numbered e`: the int the account names the turn by, read where the turn begins
// (docs/language.md, "Numbering the turns"). Reading it must change nothing, so it rolls no dice.
ir::id body_checker::turn_number(const dsl::stmt& s) {
    const dsl::expr& e = s.exprs.front();
    if (s.word != "turn") {
        cx_.sink.error(dsl::diag_kind::bad_numbered, e.where,
                       "only a `turn` is numbered: a `" + s.word + "` block has no number of its own");
        return ir::no_id;
    }
    const typed v = expect(e, cx_.t_int, "a turn's number");
    if (!v.ok()) return ir::no_id;
    if (ir::chance_in(cx_.rs, v.node, true) != ir::no_id) {
        cx_.sink.error(dsl::diag_kind::bad_numbered, e.where,
                       "a turn's number rolls dice here: the account reads it, and reading it must change nothing in the game");
        return ir::no_id;
    }
    return v.node;
}

ir::id body_checker::lvalue_assign(const dsl::stmt& s) {
    if (s.exprs.size() != 2) return ir::no_id;
    const dsl::expr& lhs = s.exprs[0];
    const dsl::expr& rhs = s.exprs[1];
    // `roll r(args) = 9;` fixes a roll in an example's `given`.
    if (lhs.kind == dsl::expr_kind::roll) {
        if (!frame_.example || s.word != "=") {
            cx_.sink.error(dsl::diag_kind::not_assignable, lhs.where,
                           "a roll can only be fixed (`roll r = 9;`) in the `given` part of an example");
            return ir::no_id;
        }
        typed r = expr(lhs);
        typed v = expect(rhs, cx_.t_int, "the fixed result of the roll");
        if (!r.ok() || !v.ok()) return ir::no_id;
        return emit(ir::op::fix_roll, cx_.t_void, 0, ir::no_id, {r.node, v.node}, s.where);
    }
    typed target = expr(lhs);
    if (!target.ok()) {
        expr(rhs);  // still check the right side
        return ir::no_id;
    }
    // What is being changed: state (a slot, or one element of a slot's per-member map).
    ir::id root = target.node;
    while (cx_.rs.nodes[root].code == ir::op::index) root = cx_.rs.children[cx_.rs.nodes[root].first_child];
    const ir::node& r = cx_.rs.nodes[root];
    const bool state = r.code == ir::op::global || r.code == ir::op::player_field || r.code == ir::op::entity_field;
    if (!state) {
        std::string why = "only state can change";
        if (r.code == ir::op::local) why = "`" + (*frame_.locals)[r.ref].name + "` is a name for a value, not state";
        else if (r.code == ir::op::attribute) why = "card and piece attributes are fixed; keep what changes in a `state per …` field";
        else if (r.code == ir::op::option) why = "options are chosen before the game";
        cx_.sink.error(dsl::diag_kind::not_assignable, lhs.where, "this cannot be assigned: " + why);
        return ir::no_id;
    }
    const ir::slot& slot = cx_.rs.slots[r.ref];
    if (slot.flag && (s.word != "=" || rhs.kind != dsl::expr_kind::boolean || rhs.value != 1)) {
        cx_.sink.error(dsl::diag_kind::not_assignable, s.where,
                       "`" + slot.name + "` is a once-per-game flag: it can only be set with `" + slot.name + " = true;`");
        return ir::no_id;
    }
    if (s.word != "=" && !is_int(cx_, target.type)) {
        cx_.sink.error(dsl::diag_kind::type_mismatch, lhs.where,
                       "`" + s.word + "` changes a number, but this is " + cx_.type_text(target.type));
        return ir::no_id;
    }
    typed value = expect(rhs, s.word == "=" ? target.type : cx_.t_int, "the new value");
    if (!value.ok()) return ir::no_id;
    if (s.word == "=" && target.type != error_type && cx_.type_at(target.type).kind == ir::type_kind::range) {
        if (auto v = literal_int(rhs)) {
            const ir::type& t = cx_.type_at(target.type);
            if (*v < t.lo || *v > t.hi) {
                out_of_bounds(cx_, rhs.where, *v, t, "the value given to `" + slot.name + "`");
                return ir::no_id;
            }
        }
    }
    const ir::op code = s.word == "+=" ? ir::op::add_assign : s.word == "-=" ? ir::op::sub_assign : ir::op::assign;
    return emit(code, cx_.t_void, 0, ir::no_id, {target.node, value.node}, s.where);
}

}  // namespace wp::compiler::detail
