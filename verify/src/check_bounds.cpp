// Bound violations of assignments, and mandatory choices that can face no legal option.
#include "checker.hpp"

namespace wp::verify {

bool checker::stays_in_range(const detail::bound_site& s) {
    const ir::type& t = rs_.types.at(s.type);
    if (t.kind != ir::type_kind::range) return false;
    const fact_index& ix = index_of(s.facts);
    for (const z3::expr& v : s.value) {
        detail::interval_bounds bounds;
        for (unsigned var : variables_of(v)) {
            auto it = ix.by_var.find(var);
            if (it == ix.by_var.end()) return false;
            for (unsigned c : it->second)
                if (conjuncts_[c].vars.size() == 1) bounds.learn(conjuncts_[c].e);
        }
        const std::optional<detail::interval> x = bounds.of(v);
        if (!x || x->lo < t.lo || x->hi > t.hi) return false;
    }
    return true;
}

void checker::bound_checks() {
    std::set<id> reported;
    // the places met in a recursion's summary last: their witnesses rest on it
    std::vector<const detail::bound_site*> order;
    for (const detail::bound_site& s : sym_.bound_sites) order.push_back(&s);
    std::stable_partition(order.begin(), order.end(), [](const detail::bound_site* s) { return !s->summarised; });
    for (const detail::bound_site* sp : order) {
        const detail::bound_site& s = *sp;
        if (reported.count(s.node)) continue;
        // Past the budget even this needs no more time (indexing a long path's facts is most of
        // a bound's cost): the question below is then not asked, and is an `unknown`.
        if (budget_left_ms() >= 1.0 && stays_in_range(s)) continue;
        // One question for every place the assignment may write. Its witness is made smallest
        // over all of them, so it shows the place that needs the fewest changes (seat P1
        // before P6), without a question per place.
        z3::expr_vector any(ctx_);
        for (const z3::expr& o : s.out) any.push_back(o);
        // A field whose violation the ruleset accepts is expected to have one: the quick tries,
        // which only ever prove "never", are skipped there.
        const bool accepted = accepted_bound(rs_.slots.at(s.slot).name);
        answer found = accepted ? solve(s.facts, z3::mk_or(any), true, {}, witness_search::near)
                                : solve_local_first(s.facts, z3::mk_or(any), true);
        if (found.r == z3::unsat) continue;
        if (found.r == z3::sat && found.model) {
            // (the model holds the question, so one place is out of range in it)
            for (std::size_t k = 0; k < s.out.size(); ++k)
                if (found.model->eval(s.out[k], true).is_true()) {
                    found.witness.insert(found.witness.begin(), value_line("the new value", s.value[k], *found.model));
                    report_bound(s, k, found);
                    reported.insert(s.node);
                    break;
                }
        }
        if (reported.count(s.node)) continue;
        // Undecided over all of them: each place is asked alone.
        const ir::slot& sl = rs_.slots.at(s.slot);
        for (std::size_t k = 0; k < s.out.size(); ++k) {
            const std::vector<std::pair<std::string, z3::expr>> extra{{"the new value", s.value[k]}};
            answer a = solve(s.facts, s.out[k], true, extra, accepted ? witness_search::near : witness_search::all);
            if (a.r == z3::unknown) {
                unknown("whether `" + sl.name + "` stays in range", {{"field", sl.name, sl.prov}});
                break;
            }
            if (a.r != z3::sat) continue;
            report_bound(s, k, a);
            reported.insert(s.node);
            break;
        }
    }
}

void checker::report_bound(const detail::bound_site& s, std::size_t k, const answer& a) {
    const ir::slot& sl = rs_.slots.at(s.slot);
    const ir::type& t = rs_.types.at(s.type);
    finding& f = add("bound-violation", severity::error, sl.name,
                     "this can take `" + sl.name + "` outside " + std::to_string(t.lo) + ".." + std::to_string(t.hi) +
                         ", and its type has no clamp");
    f.elements.push_back({"statement", "assignment to " + sl.name, statement_prov(s.node)});
    f.elements.push_back({"field", sl.name, sl.prov});
    f.witness = a.witness;
    if (a.model) replay_later([this, site = &s, k, m = *a.model] { return replay_.bound_violation(*site, k, m); });
}

bool checker::accepted_bound(const std::string& field) const {
    return std::any_of(rs_.accepts.begin(), rs_.accepts.end(),
                       [&](const ir::accepted_finding& a) { return a.kind == "bound-violation" && a.subject == field; });
}

void checker::choice_checks() {
    std::set<id> reported;
    for (const detail::choice_site& s : sym_.choice_sites) {
        if (reported.count(s.node)) continue;
        answer a = solve(s.facts, s.none_legal, true);
        if (a.r == z3::unknown) { unknown("whether the choice at " + sym_.node_position(s.node) + " always has an option", {}); continue; }
        if (a.r != z3::sat) continue;
        finding& f = add("stuck-state", severity::error, owner_of(s.node),
                         "a mandatory choice can face no legal option: the game cannot go on");
        f.elements.push_back({"statement", "choose", statement_prov(s.node)});
        f.witness = a.witness;
        if (a.model) replay_later([this, site = &s, m = *a.model] { return replay_.stuck_choice(*site, m); });
        reported.insert(s.node);
    }
}

}  // namespace wp::verify
