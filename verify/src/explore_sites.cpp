// The sites the checks ask about, noted where the execution meets them: the invariants and
// queries where they must hold, the ways out of a branch, obligations, the rules consulted.
#include "explore_impl.hpp"
#include "terms.hpp"

namespace wp::verify::detail {

// The invariants' obligation at a place where they must hold (see invariant_site): each
// invariant's value in the state there, unless it is the very term assumed earlier or
// constant folding settles it. Nothing is recorded on a path already dead.
void exec_impl::note_invariants(path& p, id n, const std::string& what) {
    if (examples_ || p.dead) return;
    if (S.record_queries && has_queries_) note_queries(p, n, what);
    if (!has_invariants_) return;
    // Without the induction (S.prove_invariants), only the places play reaches from setup with
    // nothing forgotten: the base case, cheap and exact.
    if (!p.from_setup && !S.prove_invariants) return;
    invariant_site site(ctx);
    for (id r = 0; r < rs.rules.size(); ++r) {
        const ir::rule& rule = rs.rules[r];
        if (rule.kind != ir::rule_kind::invariant || rule.value == ir::no_id || S.unassumed.count(r)) continue;
        // Only the conjuncts that changed since an assumption (one per piece of an `all`
        // over the pieces, say): the others were assumed as they are.
        z3::expr_vector open(ctx);
        for (const z3::expr& c : S.conjuncts(S.invariant_value(r, p.st)))
            if (!S.assumed_ids.count(c.id()) && !fold_.is_true(c)) open.push_back(c);
        if (open.empty()) continue;
        site.holds.emplace_back(r, open.size() == 1 ? open[0] : z3::mk_and(open));
    }
    if (site.holds.empty()) return;
    // the same question on the same path (a loop's start, met again at its end) is asked once
    std::vector<std::pair<id, z3::expr>> fresh;
    for (auto& h : site.holds)
        if (noted_.insert({p.facts.get(), h.second.id()}).second) fresh.push_back(std::move(h));
    if (fresh.empty()) return;
    site.holds = std::move(fresh);
    S.invariant_sites.push_back(placed(std::move(site), p, n, what));
}

// site, at statement n of path p, with what the question and its replay need of the path
invariant_site exec_impl::placed(invariant_site site, const path& p, id n, const std::string& what) {
    site.node = n;
    site.pc = p.pc;
    site.facts = p.facts;
    site.what = what;
    site.from_setup = p.from_setup;
    site.replay.recorded = true;
    site.replay.st = S.snapshot(p.st);
    site.replay.variables_from = site.replay.variables_to = S.variables.size();
    return site;
}

// The designer's queries where the invariants must hold (decisions, phase starts, loop rounds,
// the end), from setup or after a forgotten history: each answer not settled false by folding.
void exec_impl::note_queries(path& p, id n, const std::string& what) {
    invariant_site site(ctx);
    for (id r = 0; r < rs.rules.size(); ++r) {
        const ir::rule& rule = rs.rules[r];
        if (!ir::is_query(rule.kind) || rule.value == ir::no_id || S.queries_played.count(r)) continue;
        z3::expr answered = S.query_answered(r, p.st);
        if (fold_.is_false(answered)) continue;
        // the same question of the same query on the same path (a loop's start, met again at its end) is asked once
        if (!queried_.insert({p.facts.get(), r, answered.id()}).second) continue;
        site.holds.emplace_back(r, std::move(answered));
    }
    if (site.holds.empty()) return;
    S.query_sites.push_back(placed(std::move(site), p, n, what));
}

// A site at node n with the circumstances of path p.
void exec_impl::set_place(site& s, const path& p, id n) {
    s.node = n;
    s.pc = p.pc;
    s.facts = p.facts;
    s.from_setup = p.from_setup;
}

// A way out of an `if` or `may` taken from path `before` (see branch_site); not from a dead
// path (nothing there is reached) nor in an example's run. A way its condition folds to
// false is recorded: that is the finding.
void exec_impl::note_branch(const path& before, const path& side, id n, id body, bool taken) {
    if (examples_ || before.dead) return;
    branch_site b(ctx);
    set_place(b, side, body);
    b.before = before.facts;
    b.branch = n;
    b.taken = taken;
    S.branch_sites.push_back(std::move(b));
}

// The first statement of a body when it is a `do` (what the engines test before offering a
// `may` or an option of a `choose`); else none.
id exec_impl::first_do(id body) const {
    if (body == ir::no_id) return ir::no_id;
    const ir::node& nd = N(body);
    if (nd.code == op::seq) return nd.child_count == 0 ? ir::no_id : first_do(child(body, 0));
    return nd.code == op::do_action ? body : ir::no_id;
}

// A statement play must carry out, met on path p: `unmet` says when it cannot be (see
// obligation_site); not from a dead path nor in an example's run. `args`: the action's
// arguments, made from the variables at `variables_from` on (for the replay).
void exec_impl::note_obligation(const path& p, id n, obligation_site::what kind, id subject, const z3::expr& unmet,
                                const std::vector<z3::expr>& args, std::size_t variables_from) {
    if (examples_ || p.dead || fold_.is_false(unmet)) return;
    obligation_site o(ctx);
    set_place(o, p, n);
    o.kind = kind;
    o.subject = subject;
    o.unmet = unmet;
    o.replay.recorded = true;
    o.replay.st = S.snapshot(p.st);
    for (const z3::expr& a : args) o.replay.locals.emplace_back(a);
    o.replay.variables_from = variables_from;
    o.replay.variables_to = S.variables.size();
    S.obligation_sites.push_back(std::move(o));
}

// A `may` whose body starts with a `do` that a `require` rule demands there: the engines
// offer it as the only answer, or skip it when the action is not legal. Notes when it is
// skipped though demanded, where no `forbid` applies (a forbid against a require is a
// contradiction, reported as such). The action's legality and its demand are read of the
// same arguments, and what encoding them needs (a die's faces, an approximated value's
// range) joins the path before the site is noted: a `do spend(p, roll r(p))` once had a
// demand for a face the die never shows "unmet" with an 8 on a six-sided die (the compiler
// now rejects dice there: roll-in-tested-do).
void exec_impl::note_demanded(path& p, id n, id body, env& e) {
    const id d = first_do(body);
    if (!has_require_ || d == ir::no_id) return;
    const id group = S.group_of_target[static_cast<int>(ir::target_kind::action)].at(N(d).ref);
    if (group == ir::no_id) return;
    const std::size_t from = S.variables.size();
    const std::vector<z3::expr> args = args_of(d, e, p.st);
    const z3::expr legal = action_legal(N(d).ref, args, p, ctx.bool_val(true), d, false);
    z3::expr required = ctx.bool_val(false), forbidden = ctx.bool_val(false);
    for (const auto& [r, applies] : S.group_effective(group, args, p.st, nullptr)) {
        const ir::rule_kind k = rs.rules.at(r).kind;
        if (k == ir::rule_kind::require) required = terms::or_(required, applies);
        if (k == ir::rule_kind::forbid) forbidden = terms::or_(forbidden, applies);
    }
    drain(p, n);
    if (fold_.is_false(required)) return;
    note_obligation(p, n, obligation_site::what::required, N(d).ref,
                    terms::and_(required, terms::and_(terms::not_(forbidden), terms::not_(legal))), args, from);
}

void exec_impl::record_rule(const path& p, id r, const z3::expr& extra, const z3::expr& applies, const z3::expr& guard, id n,
                            const std::string& extra_why) {
    rule_site s(ctx);
    s.node = n;
    s.pc = terms::and_(p.pc, extra);
    s.facts = p.facts;
    s.extra = extra;
    s.extra_why = extra_why + " at " + at(n);
    s.rule = r;
    s.applies = applies;
    s.guard = guard;
    S.rule_sites.push_back(std::move(s));
}

}  // namespace wp::verify::detail
