// The interpreter (interp.hpp): rules and legality. Which rules of a group apply (guards,
// overrides), the rules applied: modifiers (quantities and rolls), `define` (decisions), triggers
// (events), forbid/permit (actions' legality) and require (a `may` that cannot be declined);
// quantities, whose modifiers these are. Whether a `choose` or a `may` can start (the options a
// choice lists) is in statements.cpp, as the compiled engine's writer has it.
#include "interp.hpp"

namespace wp::engine {

// The rules of group `gi` that apply to the arguments and that no applicable higher rule
// defeats (prioritised defaults), pushed in group order on the rule stack from the returned
// index; the caller truncates the stack back to it.
std::size_t interp::applicable(id gi, const std::int64_t* args, std::size_t count) {
    auto& st = s.rule_stack_;
    const std::size_t start = st.size();
    if (gi == ir::no_id) return start;
    const ir::rule_group& gr = rs.groups[gi];
    for (id r : g.live_rules[gi]) {
        const ir::rule& rule = rs.rules[r];
        if (rule.guard == ir::no_id) {
            st.push_back(r);
            continue;
        }
        // The conjuncts that read only the arguments, from a table made once per game (when
        // they are false the rest of the guard is not evaluated, in whatever order it is written).
        const game::tabulated& table = g.guard_tables[r];
        if (!table.values.empty() && count >= table.sizes.size()) {
            std::size_t index = 0;
            bool inside = true;
            for (std::size_t i = 0; i < table.sizes.size(); ++i) {
                const std::int64_t v = args[i] - table.bases[i];
                inside = inside && v >= 0 && v < table.sizes[i];
                index = index * static_cast<std::size_t>(table.sizes[i]) + static_cast<std::size_t>(v);
            }
            if (inside && table.values[index] == 0) continue;
            if (inside && g.guard_is_tabulated[r]) {
                st.push_back(r);
                continue;
            }
        }
        const std::size_t mark = s.locals_.size();
        const bool a = eval(rule.guard, bind_rule(r, args, count)) != 0;
        cut(s.locals_, mark);
        if (a) st.push_back(r);
    }
    if (gr.edges.empty()) return start;
    const std::size_t mid = st.size();
    for (std::size_t i = start; i < mid; ++i) {
        bool defeated = false;
        for (const ir::override_edge& e : gr.edges)
            if (e.lower == st[i])
                for (std::size_t j = start; j < mid && !defeated; ++j) defeated = st[j] == e.higher;
        if (!defeated) st.push_back(st[i]);
    }
    std::copy(st.begin() + static_cast<std::ptrdiff_t>(mid), st.end(), st.begin() + static_cast<std::ptrdiff_t>(start));
    cut(st, start + (st.size() - mid));
    return start;
}

std::int64_t interp::modifiers(id gi, const std::int64_t* args, std::size_t count) {
    const std::size_t start = applicable(gi, args, count);
    std::int64_t total = 0;
    std::string text;  // for the trace: each rule's amount (a nested call sets its own first)
    for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
        const id r = s.rule_stack_[i];
        const ir::rule& rule = rs.rules[r];
        if (rule.kind != ir::rule_kind::modifier || rule.mod != ir::modifier_kind::add) continue;
        const std::size_t mark = s.locals_.size();
        const std::int64_t amount = eval(rule.amount, bind_rule(r, args, count));
        total = add_ck(rule.amount, total, amount);
        cut(s.locals_, mark);
        fire(r);
        if (tracing() && amount != 0) [[unlikely]]
            text += (amount > 0 ? " +" : " ") + std::to_string(amount) + " " + rule.name;
    }
    cut(s.rule_stack_, start);
    if (tracing()) [[unlikely]] modifier_text_ = std::move(text);
    return total;
}

// The value v of a roll or quantity (its adds summed in) after the modifiers that set, cap or
// floor it (docs/language.md §9): a set replaces v (applicable sets must agree), then the
// smallest cap and the largest floor bound it. Only groups holding such modifiers get here.
std::int64_t interp::bounded(id gi, id n, const char* what, const std::string& name, std::int64_t v,
                             const std::int64_t* args, std::size_t count) {
    const std::size_t start = applicable(gi, args, count);
    bool set = false, capped = false, floored = false;
    std::int64_t to = 0, cap = 0, floor = 0;
    id setter = ir::no_id;
    for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
        const id r = s.rule_stack_[i];
        const ir::rule& rule = rs.rules[r];
        if (rule.kind != ir::rule_kind::modifier || rule.mod == ir::modifier_kind::add) continue;
        const std::size_t mark = s.locals_.size();
        const std::int64_t k = eval(rule.amount, bind_rule(r, args, count));
        cut(s.locals_, mark);
        fire(r);
        switch (rule.mod) {
            case ir::modifier_kind::set:
                if (set && k != to)
                    fail(n, "modifiers " + rs.rules[setter].name + " and " + rule.name + " set " + what + " " + name +
                                " to different values (" + std::to_string(to) + " and " + std::to_string(k) + ")");
                set = true, to = k, setter = r;
                break;
            case ir::modifier_kind::at_most: cap = capped ? std::min(cap, k) : k, capped = true; break;
            case ir::modifier_kind::at_least: floor = floored ? std::max(floor, k) : k, floored = true; break;
            case ir::modifier_kind::add: break;
        }
    }
    cut(s.rule_stack_, start);
    if (set) v = to;
    if (capped) v = std::min(v, cap);
    if (floored) v = std::max(v, floor);
    return v;
}

// Whether action a is legal for args: its guard or an applicable permit, and no applicable
// forbid (each after overrides). Counts a forbid only where it removes an action that would
// otherwise be legal, a permit only where it makes legal an action whose guard fails.
bool interp::action_legal(id a, const std::int64_t* args, std::size_t count) {
    const ir::action& act = rs.actions[a];
    const std::size_t mark = s.locals_.size();
    const std::uint32_t fb = push_region(std::max<std::size_t>(act.locals.size(), count));
    for (std::size_t i = 0; i < count; ++i) s.locals_[fb + i] = args[i];
    const bool guard = act.guard == ir::no_id || eval(act.guard, fb) != 0;
    cut(s.locals_, mark);
    const std::size_t start = applicable(g.group_of_action[a], args, count);
    bool forbidden = false, permitted = false;
    for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
        const ir::rule_kind k = rs.rules[s.rule_stack_[i]].kind;
        forbidden = forbidden || k == ir::rule_kind::forbid;
        permitted = permitted || k == ir::rule_kind::permit;
    }
    for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
        const id r = s.rule_stack_[i];
        const ir::rule_kind k = rs.rules[r].kind;
        if ((k == ir::rule_kind::forbid && (guard || permitted)) || (k == ir::rule_kind::permit && !guard && !forbidden))
            fire(r);
    }
    cut(s.rule_stack_, start);
    return (guard || permitted) && !forbidden;
}

// A decision's value: the applicable, undefeated `define` rules must agree (none is a gap,
// two different values a contradiction: both engine errors).
std::int64_t interp::decide(id n, id d, const std::int64_t* args, std::size_t count) {
    const std::size_t start = applicable(g.group_of_decision[d], args, count);
    bool have = false;
    std::int64_t value = 0;
    id first = ir::no_id;
    for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
        const id r = s.rule_stack_[i];
        const ir::rule& rule = rs.rules[r];
        if (rule.kind != ir::rule_kind::define) continue;
        const std::size_t mark = s.locals_.size();
        const std::int64_t v = eval(rule.value, bind_rule(r, args, count));
        cut(s.locals_, mark);
        fire(r);
        if (have && v != value)
            fail(n, "rules " + rs.rules[first].name + " and " + rule.name + " contradict each other on " +
                        rs.decisions[d].name + args_text(rs.decisions[d].params, args, count),
                 {"contradiction", rs.rules[first].name + " " + rule.name, ""});
        if (!have) first = r;
        have = true;
        value = v;
    }
    cut(s.rule_stack_, start);
    if (!have) fail(n, "no rule decides " + rs.decisions[d].name + args_text(rs.decisions[d].params, args, count), {"gap", rs.decisions[d].name, ""});
    return value;
}

std::string interp::args_text(const std::vector<ir::local>& params, const std::int64_t* args, std::size_t count) const {
    std::string t = "(";
    for (std::size_t i = 0; i < count; ++i)
        t += (i ? ", " : "") + g.value_text(i < params.size() ? params[i].type : ir::no_id, args[i]);
    return t + ")";
}

// Calls quantity or predicate q with its arguments (tabulated values where there are).
std::int64_t interp::call_quantity(id q, const std::int64_t* args, std::size_t c) {
    // The tables are made after the rules are prepared, which may already call quantities.
    if (q < g.quantity_tables.size() && !g.quantity_tables[q].values.empty()) {
        const game::tabulated& table = g.quantity_tables[q];
        std::size_t index = 0;
        bool inside = true;
        for (std::size_t i = 0; i < c; ++i) {
            const std::int64_t v = args[i] - table.bases[i];
            inside = inside && v >= 0 && v < table.sizes[i];
            index = index * static_cast<std::size_t>(table.sizes[i]) + static_cast<std::size_t>(v);
        }
        if (inside) return table.values[index];
    }
    const ir::derived& d = rs.quantities[q];
    const std::size_t mark = s.locals_.size();
    const std::uint32_t qfb = push_region(std::max<std::size_t>(d.locals.size(), c));
    for (std::size_t i = 0; i < c; ++i) s.locals_[qfb + i] = args[i];
    std::int64_t v = eval(d.expr, qfb);
    cut(s.locals_, mark);
    if (!d.predicate) v = add_in(d.expr, "quantity", d.name, v, modifiers(g.group_of_quantity[q], args, c));
    if (!d.predicate && g.group_of_quantity[q] != ir::no_id && g.group_bounds[g.group_of_quantity[q]]) [[unlikely]]
        v = bounded(g.group_of_quantity[q], d.expr, "quantity", d.name, v, args, c);
    return v;
}

// The `do` that `body` starts with, or no_id when it starts with anything else.
id interp::first_do(id body) const {
    while (body != ir::no_id && N(body).code == op::seq) body = N(body).child_count > 0 ? child(body, 0) : ir::no_id;
    return body != ir::no_id && N(body).code == op::do_action ? body : ir::no_id;
}

// The rules that apply to the action of `do` node d, read with its arguments: whether a
// `require` demands it and whether a `forbid` applies. With fire_requires the require rules
// fire (a `may` they demand loses its "no").
interp::demand interp::demand_on(id d, std::uint32_t fb, bool fire_requires) {
    std::int64_t args[16];
    const std::size_t c = eval_args(d, fb, args);
    const std::size_t start = applicable(g.group_of_action[N(d).ref], args, c);
    demand out;
    for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
        const ir::rule_kind k = rs.rules[s.rule_stack_[i]].kind;
        out.forbidden = out.forbidden || k == ir::rule_kind::forbid;
        if (k != ir::rule_kind::require) continue;
        out.required = true;
        if (fire_requires) fire(s.rule_stack_[i]);
    }
    cut(s.rule_stack_, start);
    return out;
}

// Whether the first statement of `body` is a `do` that a `require` rule demands.
bool interp::body_required(id body, std::uint32_t fb) {
    const id d = first_do(body);
    return d != ir::no_id && demand_on(d, fb, true).required;
}

// A `may` whose action is not legal, skipped: where a `require` demands that action and no
// `forbid` applies, the rule's "must" goes undone, a fault play passes that the checker reports
// as an unmet obligation, this game its trace. Nothing fires: the question is asked only for
// the checker's evidence play.
void interp::note_skipped_demand(id n, id body, std::uint32_t fb) {
    const id d = first_do(body);
    if (d == ir::no_id || passed_at(n)) return;
    const demand dm = demand_on(d, fb, false);
    if (dm.required && !dm.forbidden) note_passed({"unmet-obligation", rs.actions[N(d).ref].name, "", n});
}

// An event: its triggers that apply run in rule-group order (statement() sends `emit` here).
void interp::emit(std::size_t fi, id n, std::uint32_t fb) {
    const ir::node& nd = N(n);
    std::int64_t args[16];
    const std::size_t c = eval_args(n, fb, args);
    const std::size_t start = applicable(g.group_of_event[nd.ref], args, c);
    ++s.frames_[fi].pc;
    if (tracing()) trace("event " + rs.events[nd.ref].name + args_text(rs.events[nd.ref].params, args, c));
    // Pushed last first, so that the triggers run in group order.
    for (std::size_t i = s.rule_stack_.size(); i-- > start;) {
        const id r = s.rule_stack_[i];
        if (rs.rules[r].kind != ir::rule_kind::trigger) continue;
        fire(r);
        call(rs.rules[r].body, rs.rules[r].locals.size(), args, c);
    }
    cut(s.rule_stack_, start);
}

}  // namespace wp::engine
