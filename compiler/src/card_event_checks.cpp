// Typecheck of the statements and the expression of card events (docs/language.md, "Events on
// cards"): `play event of c by p;` calls the card kind's dispatching procedure, `cancel event of
// c;` and `in_force(c)` write and read the events' in-force state values (plan_card_events made
// them all).
#include "context.hpp"

namespace wp::compiler::detail {

// The card kind of a typed card expression, or no_id after reporting.
ir::id body_checker::card_kind_of(const typed& c, const dsl::expr& e, const char* what) {
    if (!c.ok()) return ir::no_id;
    const ir::type& t = cx_.type_at(c.type);
    if (t.kind != ir::type_kind::entity || cx_.rs.entity_kinds[t.ref].pieces) {
        cx_.sink.error(dsl::diag_kind::type_mismatch, e.where,
                       std::string(what) + " needs a card, but this is " + cx_.type_text(c.type));
        return ir::no_id;
    }
    return t.ref;
}

// The in-force state values of card `e` (one, when it names a card; else every lasting event of
// its kind, each with the test that `c` is that card), or nothing after reporting.
std::vector<std::pair<ir::id, ir::id>> body_checker::in_force_flags(const typed& c, const dsl::expr& e, const char* what) {
    std::vector<std::pair<ir::id, ir::id>> out;  // (slot, test node or no_id)
    const ir::id kind = card_kind_of(c, e, what);
    if (kind == ir::no_id) return out;
    auto slot_of = [&](const card_event_plan& p) {
        auto it = cx_.values.find(p.flag);
        return it != cx_.values.end() && it->second.kind == sym::slot ? it->second.index : ir::no_id;
    };
    if (e.kind == dsl::expr_kind::name && !lookup_local(e.text) && cx_.rs.nodes[c.node].code == ir::op::const_entity) {
        const card_event_plan* p = card_event_of(cx_.patched, e.text);
        if (!p) {
            cx_.sink.error(dsl::diag_kind::event_never_in_force, e.where,
                           std::string(what) + ": card `" + e.text + "` has no event, so it is never in force");
            return out;
        }
        if (p->flag.empty()) {
            cx_.sink.error(dsl::diag_kind::event_never_in_force, e.where,
                           std::string(what) + ": `" + e.text + "`'s event happens at once and is never in force",
                           {{p->decl->id.where, "give it a duration here: `lasts phase`, `lasts turn` or `lasts until cancelled`"}});
            return out;
        }
        if (const ir::id s = slot_of(*p); s != ir::no_id) out.push_back({s, ir::no_id});
        return out;
    }
    const std::string& kind_name = cx_.rs.entity_kinds[kind].name;
    for (const card_event_plan& p : cx_.patched.card_events) {
        if (p.kind != kind_name || p.flag.empty()) continue;
        const ir::id s = slot_of(p);
        auto card = cx_.values.find(p.decl->id.text);
        if (s == ir::no_id || card == cx_.values.end() || card->second.kind != sym::entity) continue;
        // each test reads the card again: a node has one parent
        const ir::id read = out.empty() ? c.node : expr(e).node;
        const ir::id k = emit(ir::op::const_entity, c.type, card->second.index, ir::no_id, {}, e.where);
        out.push_back({s, emit(ir::op::eq, cx_.t_bool, 0, ir::no_id, {read, k}, e.where)});
    }
    if (out.empty())
        cx_.sink.error(dsl::diag_kind::event_never_in_force, e.where,
                       std::string(what) + ": no card of `" + kind_name + "` has an event that lasts, so none is ever in force");
    return out;
}

// `in_force(c)`: its state value, or for a card not named, whether it is a card whose event is.
typed body_checker::in_force_expr(const dsl::expr& e) {
    if (e.args.size() != 1) {
        cx_.sink.error(dsl::diag_kind::wrong_arity, e.where, "`in_force` takes one card");
        return {};
    }
    const typed c = expr(e.args[0]);
    const auto flags = in_force_flags(c, e.args[0], "`in_force`");
    if (flags.empty()) return {};
    ir::id out = ir::no_id;
    for (const auto& [slot, test] : flags) {
        ir::id v = emit(ir::op::global, cx_.t_bool, 0, slot, {}, e.where);
        if (test != ir::no_id) v = emit(ir::op::and_, cx_.t_bool, 0, ir::no_id, {test, v}, e.where);
        out = out == ir::no_id ? v : emit(ir::op::or_, cx_.t_bool, 0, ir::no_id, {out, v}, e.where);
    }
    return {out, cx_.t_bool};
}

// `play event of c by p;`: the card kind's dispatcher; nothing when no card of the kind has one.
ir::id body_checker::play_event_stmt(const dsl::stmt& s) {
    if (s.exprs.size() != 2) return ir::no_id;
    const typed c = expr(s.exprs[0]);
    const typed p = expect(s.exprs[1], cx_.t_player, "the player who plays the event");
    const ir::id kind = card_kind_of(c, s.exprs[0], "`play event of`");
    if (kind == ir::no_id || !p.ok()) return ir::no_id;
    const auto d = cx_.patched.event_dispatchers.find(cx_.rs.entity_kinds[kind].name);
    if (d == cx_.patched.event_dispatchers.end()) return emit(ir::op::seq, cx_.t_void, 0, ir::no_id, {}, s.where);
    const auto it = cx_.values.find(d->second);
    if (it == cx_.values.end() || it->second.kind != sym::procedure) return ir::no_id;
    const ir::id n = emit(ir::op::call, cx_.t_void, 0, it->second.index, {c.node, p.node}, s.where);
    cx_.statement_spans[n] = s.where;
    return n;
}

// `cancel event of c;`: its state value false (for a card not named, each lasting event's value
// stays only where `c` is another card).
ir::id body_checker::cancel_event_stmt(const dsl::stmt& s) {
    if (s.exprs.size() != 1) return ir::no_id;
    const typed c = expr(s.exprs[0]);
    const auto flags = in_force_flags(c, s.exprs[0], "`cancel event of`");
    if (flags.empty()) return ir::no_id;
    std::vector<ir::id> out;
    for (const auto& [slot, test] : flags) {
        const ir::id target = emit(ir::op::global, cx_.t_bool, 0, slot, {}, s.where);
        ir::id v = emit(ir::op::const_bool, cx_.t_bool, 0, ir::no_id, {}, s.where);
        if (test != ir::no_id) {
            const ir::id old = emit(ir::op::global, cx_.t_bool, 0, slot, {}, s.where);
            const ir::id other = emit(ir::op::not_, cx_.t_bool, 0, ir::no_id, {test}, s.where);
            v = emit(ir::op::and_, cx_.t_bool, 0, ir::no_id, {old, other}, s.where);
        }
        out.push_back(emit(ir::op::assign, cx_.t_void, 0, ir::no_id, {target, v}, s.where));
    }
    return out.size() == 1 ? out[0] : emit(ir::op::seq, cx_.t_void, 0, ir::no_id, out, s.where);
}

}  // namespace wp::compiler::detail
