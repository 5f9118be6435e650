// The compiled engine's writer: statements (writer.hpp).
#include "writer.hpp"

#include <algorithm>

namespace wp::codegen {

std::string writer::pad(int indent) {
    return std::string(static_cast<std::size_t>(indent) * 4, ' ');
}

// Whether the first statement of `body` can be done (engine: body_possible).
std::string writer::possible(id body) {
    if (body == ir::no_id) return "true";
    const ir::node& nd = N(body);
    if (nd.code == op::seq) return nd.child_count == 0 ? "true" : possible(child(body, 0));
    if (nd.code == op::do_action)
        return with_operands(body, 0, [&](const auto& a) { return "i64(" + call_text("legal" + std::to_string(nd.ref), a) + ")"; }) + " != 0";
    if (nd.code == op::choose_one) {
        const std::string var = "l" + std::to_string(nd.ref);
        const id w = child(body, 2);
        const std::string test = (N(w).code == op::absent ? std::string("true") : E(w) + " != 0") + " && (" + possible(child(body, 3)) + ")";
        // only asked whether the choice can be made: when it can, the rules met on the way
        // count where the choice itself is listed (interp::choose_options)
        return "([&]() -> bool { const std::uint32_t mark = s.fire_log_size; " +
               for_set(child(body, 0), var, "if (" + test + ") { undo_fires(s, mark); return true; }") + " return false; }())";
    }
    if (nd.code == op::choose_subset && N(child(body, 2)).code != op::absent) {
        // some subset satisfies `where`, the first found ending the search (interp::body_possible)
        const std::string var = "l" + std::to_string(nd.ref), w = where(body);
        return "([&]() -> bool { const std::uint32_t fires_at = s.fire_log_size; const std::uint32_t mark = s.list_top; { i64 x = 0; " +
               for_set(child(body, 0), "x", "if (!in_list(s, mark, x)) push_list(s, " + w + ", x);") +
               " } const std::uint32_t count = s.list_top - mark; if (count > 16) fail(" + w +
               ", \"a subset chosen under `where` from \" + std::to_string(count) + \" elements: at most 16 are enumerated\"); "
               "bool any = false; for (std::uint64_t m = 0; m < (std::uint64_t{1} << count) && !any; ++m) { const std::uint32_t top = "
               "s.list_top; for (std::uint32_t k = 0; k < count; ++k) if (m >> k & 1) push_list(s, " + w +
               ", s.list_store[mark + k]); " + var + " = static_cast<i64>(top) << 24 | static_cast<i64>(s.list_top - top); any = " +
               E(child(body, 2)) + " != 0; s.list_top = top; } s.list_top = mark; if (any) undo_fires(s, fires_at); return any; }())";
    }
    return "true";
}

// Whether the first statement of `body` is a `do` a `require` rule demands (body_required).
std::string writer::required(id body) {
    if (body == ir::no_id) return "false";
    const ir::node& nd = N(body);
    if (nd.code == op::seq) return nd.child_count == 0 ? "false" : required(child(body, 0));
    if (nd.code != op::do_action) return "false";
    return with_operands(body, 0, [&](const auto& a) { return "i64(" + call_text("req" + std::to_string(nd.ref), a) + ")"; }) + " != 0";
}

void writer::store(id stmt, id target, const std::string& value, std::string& o, int in) {
    const ir::type& ty = rs_.types.at(N(target).type);
    const id slot = slot_of(target);
    o += pad(in) + "{\n" + pad(in + 1) + "i64 v = " + value + ";\n";
    if (ty.kind == type_kind::range && ty.policy != ir::overflow::none) {
        o += pad(in + 1) + "if (v < " + num(ty.lo) + " || v > " + num(ty.hi) + ") ";
        if (ty.policy == ir::overflow::clamp)
            o += "v = std::clamp(v, " + num(ty.lo) + ", " + num(ty.hi) + ");\n";
        else
            o += "fail_fault(" + where(stmt) + ", " + quoted("slot " + rs_.slots[slot].name + " would be ") + " + std::to_string(v) + " +
                 quoted(", outside " + std::to_string(ty.lo) + ".." + std::to_string(ty.hi) + " (" + g_.statement_owner(stmt) + ")") +
                 ", \"bound-violation\", " + quoted(rs_.slots[slot].name) + ", v > " + num(ty.hi) + " ? \"above\" : \"below\");\n";
    }
    o += pad(in + 1) + "const std::size_t at = " + A(target) + ";\n";
    if (N(target).code != op::index && rs_.slots[slot].flag)
        o += pad(in + 1) + "if (s.v[at] != 0 && v == 0) fail(" + where(stmt) + ", " +
             quoted("flag " + rs_.slots[slot].name + " may not go back to false (" + g_.statement_owner(stmt) + ")") + ");\n";
    o += pad(in + 1) + "s.v[at] = v;\n" + pad(in) + "}\n";
}

// `list = value;` (engine: interp::store_list): the members of value copied in, at most as many as
// the element type has (the players in this game for a list of players).
void writer::store_list(id stmt, id target, id value, std::string& o, int in) {
    const id slot = slot_of(target);
    const ir::type& element = rs_.types.at(rs_.types.at(N(target).type).value);
    const std::string room = element.kind == type_kind::player ? "s.np" : std::to_string(g_.slots[slot].width - 1);
    const std::string P = pad(in + 1);
    o += pad(in) + "{\n" + P + "const std::size_t at = " + A(target) + ";\n" + P + "i64 buf[" + set_capacity(value) + "];\n" + P +
         "i64 count = 0;\n" + P + "i64 x = 0;\n" + P + for_set(value, "x", "buf[count++] = x;") + "\n" + P + "if (count > " +
         room + ") fail_fault(" + where(stmt) + ", " + quoted("the list " + rs_.slots[slot].name + " would hold ") +
         " + std::to_string(count) + " + quoted(" members, more than the ") + " + std::to_string(" + room + ") + " +
         quoted(" its type has (a member twice?) (" + g_.statement_owner(stmt) + ")") + ", \"bound-violation\", " +
         quoted(rs_.slots[slot].name) + ", \"above\");\n" + P +
         "s.v[at] = count;\n" + P + "std::copy(buf, buf + count, s.v + at + 1);\n" + pad(in) + "}\n";
}

// The zone instances a statement acts on: one, or each seat's for a per-player zone.
std::string writer::each_target(id n, const std::string& var, const std::string& body) {
    if (kind_of(n) == type_kind::map_of) {
        const std::string base = fresh("base"), p = fresh("p");
        const ir::type& t = rs_.types[N(n).type];
        // each seat's, or each location's for a per-location zone
        const std::string limit = rs_.types[t.key].kind == type_kind::node
                                      ? std::to_string(rs_.maps.at(rs_.types[t.key].ref).nodes.size())
                                      : std::string("s.np");
        return "{ const i64 " + base + " = " + E(n) + "; for (i64 " + p + " = 0; " + p + " < " + limit + "; ++" + p + ") { const i64 " +
               var + " = " + base + " + " + p + "; " + body + " } }";
    }
    return "{ const i64 " + var + " = " + Z(n) + "; " + body + " }";
}

void writer::statement(id n, std::string& o, int in) {
    const ir::node& nd = N(n);
    const std::string P = pad(in);
    // each statement is one step of the interpreter: a rule fires at most once in it
    if (nd.code != op::seq && nd.code != op::block) o += P + "next_step(s);\n";
    switch (nd.code) {
        case op::seq:
            for (std::uint32_t i = 0; i < nd.child_count; ++i) statement(child(n, i), o, in);
            return;
        case op::block: {
            if (!g_.block_is_turn[nd.ref]) return statement(child(n, 0), o, in);
            // The round a turn belongs to is the loop over the players around it; the
            // translation finds it in the same function only.
            if (!in_sequence_) refuse(n, "a turn outside the main sequence");
            o += P + "{  // turn " + rs_.blocks[nd.ref].path + "\n";
            if (!round_flags_.empty()) o += P + "    " + round_flags_.back() + " = true;\n";
            if (ir::turn_exits(rs_, child(n, 0), ending_).empty()) {
                statement(child(n, 0), o, in + 1);
            } else {
                // `end turn` jumps past the turn's statements, leaving the loops and choices it
                // is in: the seat they made active and the lists they made go with them.
                const std::string label = fresh("turn_end"), active = fresh("turn_active"), lists = fresh("turn_lists");
                o += P + "    const i64 " + active + " = s.active;\n" + P + "    const std::uint32_t " + lists + " = s.list_top;\n";
                o += P + "    {\n";
                turn_ends_.push_back(label);
                statement(child(n, 0), o, in + 2);
                turn_ends_.pop_back();
                o += P + "    }\n" + P + "    " + label + ": __attribute__((unused));\n";  // (unused where a known `if` drops the jump)
                o += P + "    s.active = " + active + ";\n" + P + "    s.list_top = " + lists + ";\n" + P + "    s.turn_ends = false;\n";
            }
            o += P + "    if (s.end_at == 1) { finish(s, s.pending_end); return; }\n" + P + "}\n";
            return;
        }
        case op::let: o += P + "l" + std::to_string(nd.ref) + " = " + E(child(n, 0)) + ";\n"; return;
        case op::assign:
            if (kind_of(child(n, 0)) == type_kind::list_of) return store_list(n, child(n, 0), child(n, 1), o, in);
            store(n, child(n, 0), E(child(n, 1)), o, in);
            return;
        case op::add_assign:
        case op::sub_assign: {
            // the value first, then the old value (the interpreter's order)
            const std::string v = fresh("d");
            o += P + "{\n" + P + "    const i64 " + v + " = " + E(child(n, 1)) + ";\n";
            store(n, child(n, 0), std::string(nd.code == op::add_assign ? "add_ck(" : "sub_ck(") + at(n) + ", " + E(child(n, 0)) + ", " + v + ")",
                  o, in + 1);
            o += P + "}\n";
            return;
        }
        case op::if_: {
            const std::uint8_t known = g_.if_condition[n];
            const bool has_else = N(child(n, 2)).code != op::absent;
            if (known != engine::game::condition_varies) {
                if (known == engine::game::condition_true) statement(child(n, 1), o, in);
                else if (has_else) statement(child(n, 2), o, in);
                return;
            }
            o += P + "if (" + E(child(n, 0)) + " != 0) {\n";
            statement(child(n, 1), o, in + 1);
            if (has_else) {
                o += P + "} else {\n";
                statement(child(n, 2), o, in + 1);
            }
            o += P + "}\n";
            return;
        }
        case op::for_each: return for_each(n, o, in);
        case op::while_:
            o += P + "while ((next_step(s), " + E(child(n, 0)) + " != 0)) {\n";
            statement(child(n, 1), o, in + 1);
            o += P + "}\n";
            return;
        case op::repeat_until:
            o += P + "do {\n";
            statement(child(n, 0), o, in + 1);
            o += P + "} while ((next_step(s), " + E(child(n, 1)) + " == 0));\n";
            return;
        case op::shuffle: o += P + each_target(child(n, 0), "z", "zshuffle(s, z);") + "\n"; return;
        case op::draw:
        case op::deal: {
            const std::string w = where(n);
            o += P + "{\n" + P + "    const i64 count = " + E(child(n, 0)) + ";\n" + P + "    const i64 from = " + Z(child(n, 1)) +
                 ";\n" + P + "    bool empty = false;\n" + P + "    for (i64 i = 0; i < count && !empty; ++i) " +
                 each_target(child(n, 2), "to",
                             "if (s.zs[from] == 0) { empty = true; break; } const i64 top = ztop(s, from); zremove(s, " +
                                 w + ", from, top); zadd(s, " + w + ", to, top);") +
                 "\n" + P + "}\n";
            return;
        }
        case op::move: {
            const std::string w = where(n);
            o += P + "{\n" + P + "    i64 e = " + E(child(n, 0)) + ";\n" + P + "    const i64 from = " + Z(child(n, 1)) + ";\n" + P +
                 "    const i64 to = " + Z(child(n, 2)) + ";\n";
            if (N(child(n, 0)).code == op::const_entity) o += P + "    e = copy_in(s, from, e);\n";
            o += P + "    zremove(s, " + w + ", from, e);\n" + P + "    zadd(s, " + w + ", to, e);\n" + P + "}\n";
            return;
        }
        case op::reshuffle: {
            const std::string w = where(n);
            if (nd.value == 1) {  // `move all from … to …`
                o += P + "zmove_all(s, " + w + ", " + Z(child(n, 0)) + ", " + Z(child(n, 1)) + ");\n";
                return;
            }
            o += P + "{\n" + P + "    const i64 from = " + Z(child(n, 0)) + ";\n" + P + "    const i64 into = " + Z(child(n, 1)) + ";\n" +
                 P + "    while (s.zs[from] > 0) { const i64 top = ztop(s, from); zremove(s, " + w + ", from, top); zadd(s, " + w +
                 ", into, top); }\n" + P + "    zshuffle(s, into);\n" + P + "}\n";
            return;
        }
        case op::choose_one: return choose(n, o, in);
        case op::choose_subset:
        case op::choose_order: return choose_list(n, o, in);
        case op::may: {
            const id by = child(n, 0);
            o += P + "{\n" + P + "    const i64 player = " + (N(by).code == op::absent ? std::string("active_player(s)") : E(by)) + ";\n";
            o += P + "    if (player < 0) fail(" + where(n) + ", \"`may` with no player to decide\");\n";
            o += P + "    const bool possible = " + possible(child(n, 1)) + ";\n";
            o += P + "    if (possible) {\n" + P + "        const bool required = " + required(child(n, 1)) + ";\n";
            o += P + "        if (!decision_allowed(s)) return;\n";
            o += P + "        if (decide(s, player, required ? 1 : 2) == 0) {\n";
            statement(child(n, 1), o, in + 3);
            o += P + "        }\n" + P + "    }\n" + P + "}\n";
            return;
        }
        case op::do_action: {
            const ir::action& act = rs_.actions[nd.ref];
            std::vector<std::string> names;
            o += P + "{\n";
            for (std::uint32_t i = 0; i < nd.child_count; ++i) {
                names.push_back(fresh("x"));
                o += P + "    const i64 " + names.back() + " = " + E(child(n, i)) + ";\n";
            }
            const std::vector<ir::local> params(act.locals.begin(), act.locals.begin() + std::min<std::size_t>(act.locals.size(), names.size()));
            o += P + "    if (!" + call_text("legal" + std::to_string(nd.ref), names) + ") fail_fault(" + where(n) + ", " +
                 quoted("action " + act.name) + " + " + args_text_code(params, names) + " + \" is not legal\", \"unmet-obligation\", " +
                 quoted(act.name) + ", \"\");\n";
            o += P + "    " + call_text("act" + std::to_string(nd.ref), names) + ";\n" + P + "    if (s.done) return;\n" + P + "}\n";
            return;
        }
        case op::call:
        case op::resolve:
        case op::emit: {
            const char* stem = nd.code == op::call ? "proc" : nd.code == op::resolve ? "res" : "emit";
            std::vector<std::string> names;
            o += P + "{\n";
            for (std::uint32_t i = 0; i < nd.child_count; ++i) {
                names.push_back(fresh("x"));
                o += P + "    const i64 " + names.back() + " = " + E(child(n, i)) + ";\n";
            }
            const std::string call = nd.code == op::resolve ? call_at(stem + std::to_string(nd.ref), where(n), padded(nd.ref, names))
                                                            : call_text(stem + std::to_string(nd.ref), names);
            o += P + "    " + call + ";\n" + P + "    if (s.done) return;\n";
            if (nd.code == op::call && ending_[nd.ref])  // the procedure ended the turn: on to its end
                o += P + "    if (s.turn_ends) " + (turn_ends_.empty() ? std::string("return;") : "goto " + turn_ends_.back() + ";") + "\n";
            o += P + "}\n";
            return;
        }
        case op::simultaneous:
            // The compiled engine plays random agents only, which read nothing but their options:
            // the block is its statements, the reveal nothing (docs/language.md §5).
            o += P + "// simultaneous: the players decide in secret until the reveal\n";
            statement(child(n, 0), o, in);
            return;
        case op::reveal: o += P + "// reveal\n"; return;
        case op::end_turn:
            // in the sequence, to the end of the innermost turn; in a procedure, back to its caller
            if (!turn_ends_.empty()) o += P + "goto " + turn_ends_.back() + ";\n";
            else o += P + "s.turn_ends = true;\n" + P + "return;\n";
            return;
        case op::end_game: {
            const bool named = nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs_.strings.size();
            const std::string reason = quoted(named ? rs_.strings[static_cast<std::size_t>(nd.value)] : std::to_string(nd.value));
            if (nd.ref == 0) {
                o += P + "finish(s, " + reason + ");\n" + P + "return;\n";
            } else {
                o += P + "if (s.end_at == 0) { s.end_at = " + std::to_string(nd.ref) + "; s.pending_end = " + reason + "; }\n";
            }
            return;
        }
        default: refuse(n, std::string("the statement ") + ir::name_of(nd.code));
    }
}

void writer::for_each(id n, std::string& o, int in) {
    const ir::node& nd = N(n);
    const std::string P = pad(in);
    const std::string items = fresh("items"), count = fresh("n"), x = fresh("x");
    const bool players = players_set(child(n, 0));
    o += P + "{\n" + P + "    i64 " + items + "[" + set_capacity(child(n, 0)) + "];\n" + P + "    std::size_t " + count + " = 0;\n";
    o += P + "    { i64 " + x + " = 0; " + for_set(child(n, 0), x, items + "[" + count + "++] = " + x + ";") + " }\n";
    if (N(child(n, 1)).code != op::absent) {
        o += P + "    { const i64 from = " + E(child(n, 1)) + "; i64* at = std::find(" + items + ", " + items + " + " + count +
             ", from); if (at != " + items + " + " + count + ") std::rotate(" + items + ", at, " + items + " + " + count + "); }\n";
    }
    std::string round;
    if (players) {
        round = fresh("round");
        o += P + "    [[maybe_unused]] bool " + round + " = false;\n" + P + "    const i64 saved_active = s.active;\n";
        round_flags_.push_back(round);
    }
    const std::string i = fresh("i");
    o += P + "    for (std::size_t " + i + " = 0; " + i + " < " + count + "; ++" + i + ") {\n";
    o += P + "        l" + std::to_string(nd.ref) + " = " + items + "[" + i + "];\n";
    if (players) o += P + "        s.active = l" + std::to_string(nd.ref) + ";\n";
    statement(child(n, 2), o, in + 2);
    o += P + "    }\n";
    if (players) {
        round_flags_.pop_back();
        o += P + "    s.active = saved_active;\n";
        const std::string ended = g_.has_turns ? round : "true";
        o += P + "    if (s.end_at == 2 && " + ended + ") { finish(s, s.pending_end); return; }\n";
    }
    o += P + "}\n";
}

// `choose subset` (a yes or no per element, in order) and `choose order` (the next element
// among those left, the last one without a decision), as the interpreter's frames step them.
std::string writer::pick(const std::string& P, const std::string& player, const std::string& count) {
    return P + "std::size_t pick = 0;\n" + P + "if (const i64 player = " + player + "; player < 0) {\n" + P +
           "    pick = static_cast<std::size_t>(s.r.below(" + count + "));\n" + P + "    s.pending_player = -1;\n" + P + "} else {\n" + P +
           "    if (!decision_allowed(s)) return;\n" + P + "    pick = static_cast<std::size_t>(decide(s, player, " + count + "));\n" + P +
           "}\n";
}

void writer::choose_list(id n, std::string& o, int in) {
    const ir::node& nd = N(n);
    const std::string P = pad(in);
    const bool subset = nd.code == op::choose_subset;
    if (!subset && N(child(n, 2)).code != op::absent) refuse(n, std::string(ir::name_of(nd.code)) + " with `where`");
    const id by = child(n, 1);
    const std::string player = N(by).code == op::absent ? std::string("-1") : E(by);
    const std::string w = where(n);
    o += P + "{\n" + P + "    const std::uint32_t mark = s.list_top;\n";
    o += P + "    { i64 x = 0; " + for_set(child(n, 0), "x", "if (!in_list(s, mark, x)) push_list(s, " + w + ", x);") + " }\n";
    o += P + "    const std::uint32_t count = s.list_top - mark, chosen_at = s.list_top;\n";
    if (subset && N(child(n, 2)).code != op::absent) {
        subset_where(n, o, in + 1, player);
    } else if (subset) {
        o += P + "    for (std::uint32_t i = 0; i < count; ++i) {\n" + pick(P + "        ", player, "2");
        o += P + "        if (pick == 0) push_list(s, " + w + ", s.list_store[mark + i]);\n" + P + "    }\n";
    } else {
        o += P + "    while (s.list_top - chosen_at < count) {\n" + P + "        i64 left[" + set_capacity(child(n, 0)) + "];\n" + P +
             "        std::size_t left_count = 0;\n" + P + "        for (std::uint32_t i = 0; i < count; ++i)\n" + P +
             "            if (!in_list(s, chosen_at, s.list_store[mark + i])) left[left_count++] = s.list_store[mark + i];\n" + P +
             "        if (left_count == 1) {\n" + P + "            push_list(s, " + w + ", left[0]);\n" + P + "            continue;\n" + P +
             "        }\n" + pick(P + "        ", player, "left_count");
        o += P + "        push_list(s, " + w + ", left[pick]);\n" + P + "    }\n";
    }
    o += P + "    l" + std::to_string(nd.ref) + " = static_cast<i64>(chosen_at) << 24 | static_cast<i64>(s.list_top - chosen_at);\n";
    statement(child(n, 3), o, in + 1);
    o += P + "    s.list_top = mark;\n" + P + "}\n";
}

// `choose subset … where c [maximizing|minimizing e]`, as the interpreter's subset_answers: at each
// element, every subset is tried (at most 16 elements); the answers offered are those that some
// legal subset (satisfying c, with the best e when there is an objective) agrees with, given the
// answers already made (the low bits of `taken`).
void writer::subset_where(id n, std::string& o, int in, const std::string& player) {
    const ir::node& nd = N(n);
    const std::string P = pad(in), w = where(n), var = "l" + std::to_string(nd.ref);
    const std::int64_t goal = nd.value;
    o += P + "if (count > 16) fail(" + w + ", \"a subset chosen under `where` from \" + std::to_string(count) + \" elements: at most 16 are enumerated\");\n";
    o += P + "std::uint32_t taken = 0;\n";
    o += P + "for (std::uint32_t i = 0; i < count || (count == 0 && i == 0); ++i) {\n";
    o += P + "    bool can_in = false, can_out = false, have_best = false;\n" + P + "    i64 best = 0;\n";
    o += P + "    const std::uint32_t fixed = (1u << i) - 1;\n";
    o += P + "    for (int pass = " + std::string(goal != 0 ? "0" : "1") + "; pass < 2; ++pass) {\n";
    o += P + "        for (std::uint64_t m = 0; m < (std::uint64_t{1} << count); ++m) {\n";
    o += P + "            const auto mask = static_cast<std::uint32_t>(m);\n";
    o += P + "            const bool bit = i < count && (mask >> i & 1);\n";
    o += P + "            if (pass == 1 && ((mask & fixed) != taken || (bit ? can_in : can_out))) continue;\n";
    o += P + "            const std::uint32_t top = s.list_top;\n";
    o += P + "            for (std::uint32_t k = 0; k < count; ++k)\n" + P + "                if (mask >> k & 1) push_list(s, " + w + ", s.list_store[mark + k]);\n";
    o += P + "            " + var + " = static_cast<i64>(top) << 24 | static_cast<i64>(s.list_top - top);\n";
    o += P + "            const bool legal = " + E(child(n, 2)) + " != 0;\n";
    o += P + "            i64 e = 0;\n";
    if (goal != 0) o += P + "            if (legal) e = " + E(child(n, 4)) + ";\n";
    o += P + "            s.list_top = top;\n" + P + "            if (!legal) continue;\n";
    o += P + "            if (pass == 0) {\n" + P + "                if (!have_best || e " + (goal == 1 ? ">" : "<") + " best) best = e;\n" + P +
         "                have_best = true;\n" + P + "            } else if (e == best) {\n" + P +
         "                (bit ? can_in : can_out) = true;\n" + P + "            }\n";
    o += P + "        }\n" + P + "        if (pass == 0 && !have_best) break;\n" + P + "    }\n";
    o += P + "    if (count == 0) {\n" + P + "        if (!can_out) fail_fault(" + w + ", \"a choice with no legal option\", \"stuck-state\", \"\", \"\");\n" + P + "        break;\n" + P + "    }\n";
    o += P + "    i64 answers[2];\n" + P + "    std::size_t answer_count = 0;\n";
    o += P + "    if (can_in) answers[answer_count++] = 1;\n" + P + "    if (can_out) answers[answer_count++] = 0;\n";
    o += P + "    if (answer_count == 0) fail_fault(" + w + ", \"a choice with no legal option\", \"stuck-state\", \"\", \"\");\n";
    o += pick(P + "    ", player, "answer_count");
    o += P + "    if (answers[pick] == 1) {\n" + P + "        push_list(s, " + w + ", s.list_store[mark + i]);\n" + P +
         "        taken |= 1u << i;\n" + P + "    }\n";
    o += P + "}\n";
}

void writer::choose(id n, std::string& o, int in) {
    const ir::node& nd = N(n);
    const std::string P = pad(in);
    const std::string var = "l" + std::to_string(nd.ref);
    const id w = child(n, 2);
    o += P + "{\n" + P + "    i64 options[" + set_capacity(child(n, 0)) + "];\n" + P + "    std::size_t count = 0;\n";
    const std::string test = (N(w).code == op::absent ? std::string("true") : E(w) + " != 0") + " && (" + possible(child(n, 3)) + ")";
    o += P + "    " + for_set(child(n, 0), var, "if (" + test + ") options[count++] = " + var + ";") + "\n";
    o += P + "    if (count == 0) fail_fault(" + where(n) + ", \"a choice with no legal option\", \"stuck-state\", \"\", \"\");\n";
    const id by = child(n, 1);
    o += pick(P + "    ", N(by).code == op::absent ? std::string("-1") : E(by), "count");
    o += P + "    " + var + " = options[pick];\n";
    statement(child(n, 3), o, in + 1);
    o += P + "}\n";
}

}  // namespace wp::codegen
