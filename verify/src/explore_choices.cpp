// What the engines offer before a decision: an action's legality, a choice's options (within
// the unfolding budget), and `choose subset`, written out subset by subset.
#include "explore_impl.hpp"
#include "terms.hpp"

namespace wp::verify::detail {

// Whether action a may be done with args: its guard or an applicable permit, and no
// applicable forbid. Records every legality rule consulted, unless `record` is false (a
// second reading of a test already recorded).
z3::expr exec_impl::action_legal(id a, const std::vector<z3::expr>& args, const path& p, const z3::expr& extra, id n, bool record) {
    const ir::action& act = rs.actions.at(a);
    z3::expr guard = ctx.bool_val(true);
    if (act.guard != ir::no_id) {
        env e;
        e.locals.resize(std::max(act.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < act.locals.size(); ++i) e.locals[i] = args[i];
        guard = S.boolean(act.guard, e, p.st);
    }
    std::map<id, z3::expr> guards;
    const id group = S.group_of_target[static_cast<int>(ir::target_kind::action)].at(a);
    z3::expr permitted = ctx.bool_val(false), forbidden = ctx.bool_val(false);
    for (const auto& [r, applies] : S.group_effective(group, args, p.st, &guards)) {
        const ir::rule_kind k = rs.rules.at(r).kind;
        if (k == ir::rule_kind::forbid) forbidden = terms::or_(forbidden, applies);
        if (k == ir::rule_kind::permit) permitted = terms::or_(permitted, applies);
        if (record) record_rule(p, r, extra, applies, guards.at(r), n);
    }
    return terms::and_(terms::or_(guard, permitted), terms::not_(forbidden));
}

std::vector<z3::expr> exec_impl::args_of(id n, env& e, const store& st, std::uint32_t from) {
    std::vector<z3::expr> a;
    for (std::uint32_t i = from; i < N(n).child_count; ++i) a.push_back(S.integer(child(n, i), e, st));
    return a;
}

// The engine's test before offering a `may` or an option of a `choose`: the body's first
// statement can be done (a legal `do`, a `choose` with a legal option).
z3::expr exec_impl::possible(id body, env& e, const path& p, const z3::expr& extra) {
    if (body == ir::no_id) return ctx.bool_val(true);
    const ir::node& nd = N(body);
    if (nd.code == op::seq) return nd.child_count == 0 ? ctx.bool_val(true) : possible(child(body, 0), e, p, extra);
    if (nd.code == op::do_action) return action_legal(nd.ref, args_of(body, e, p.st), p, extra, body);
    if (nd.code == op::choose_one) return options(body, e, p, extra).second;
    if (nd.code == op::choose_subset && N(child(body, 2)).code != op::absent) return some_subset(body, e, p);
    return ctx.bool_val(true);
}

// Whether some subset of a `choose subset`'s candidates satisfies its `where` (as the engines
// ask before a `may` whose body is the choice): every subset written out, as subset() does;
// over more candidates, any value (a cut, reported).
z3::expr exec_impl::some_subset(id n, env& e, const path& p) {
    const std::vector<member> ms = S.set_members(child(n, 0), e, p.st);
    if (ms.size() > max_subset_candidates) {
        const z3::expr some = S.cut_value("whether some subset of " + S.set_text(child(n, 0)) + " (" + std::to_string(ms.size()) +
                                              " candidates) satisfies the condition at " + at(n),
                                          ir::no_id);
        S.side.push_back(some >= 0 && some <= 1);
        return some == 1;
    }
    z3::expr_vector any(ctx);
    each_subset(ms, N(n).ref, e, [&](std::size_t, const z3::expr& valid) {
        any.push_back(terms::and_(valid, S.boolean(child(n, 2), e, p.st)));
    });
    return z3::mk_or(any);
}

// Binds list local `var` to each subset of the candidates ms in turn (bit i of m: candidate
// i) and calls f(m, when that subset's candidates are all in the set); restores the local.
void exec_impl::each_subset(const std::vector<member>& ms, std::uint32_t var, env& e,
                            const std::function<void(std::size_t, const z3::expr&)>& f) {
    if (var >= e.lists.size()) e.lists.resize(var + 1);
    const std::optional<std::vector<member>> saved = e.lists[var];
    for (std::size_t m = 0; m < (std::size_t{1} << ms.size()); ++m) {
        std::vector<member> alt;
        z3::expr valid = ctx.bool_val(true);
        for (std::size_t i = 0; i < ms.size(); ++i) {
            const bool take = (m >> i) & 1;
            alt.push_back({ms[i].value, take ? ms[i].in : ctx.bool_val(false)});
            if (take) valid = terms::and_(valid, ms[i].in);
        }
        e.lists[var] = alt;
        f(m, valid);
    }
    e.lists[var] = saved;
}

// The estimated size of `possible(body)` (the unfolding budget).
std::uint64_t exec_impl::legality_cost(id body) {
    if (body == ir::no_id) return 0;
    const ir::node& nd = N(body);
    if (nd.code == op::seq) return nd.child_count == 0 ? 0 : legality_cost(child(body, 0));
    if (nd.code == op::do_action) {
        std::uint64_t c = S.unfold_cost(rs.actions.at(nd.ref).guard);
        const id group = S.group_of_target[static_cast<int>(ir::target_kind::action)].at(nd.ref);
        if (group != ir::no_id)
            for (id r : rs.groups.at(group).rules) c += S.unfold_cost(rs.rules.at(r).guard);
        return c;
    }
    if (nd.code == op::choose_one) {
        const std::uint64_t each = S.unfold_cost(child(body, 2)) + legality_cost(child(body, 3));
        return S.set_size_estimate(child(body, 0)) * std::max<std::uint64_t>(1, each);
    }
    return 0;
}

// The options of a choice: each member with when it is a legal option; and whether any is.
// A choice of a number in `lo..hi` also sets *span: its ends, and the few numbers whose option
// needs more than lying between them (a `where` or a body that can't always start). "A legal
// option is chosen" is then a few comparisons, not one disjunct per number of the type's span
// (401 for a strength), and where every number is an option, so is whether any is.
std::pair<std::vector<member>, z3::expr> exec_impl::options(id n, env& e, const path& p, const z3::expr& extra,
                                                            std::optional<range_options>* span) {
    const id set = child(n, 0), where = child(n, 2), body = child(n, 3);
    const std::uint32_t var = N(n).ref;
    std::optional<std::pair<z3::expr, z3::expr>> ends;
    if (N(set).code == op::range) ends = S.range_ends(set, e, p.st);
    std::vector<member> ms = ends ? S.range_members(set, ends->first, ends->second) : S.set_members(set, e, p.st);
    if (span) span->reset();
    std::vector<member> out;
    z3::expr_vector any(ctx);
    // The unfolding budget: legality over a large set of options is not written out; any
    // member of the set may be chosen, and whether one is legal is any value.
    const std::uint64_t each = std::max<std::uint64_t>(1, S.unfold_cost(where) + legality_cost(body));
    if (S.unfold_limit > 0 && ms.size() > 1 && (each > S.unfold_limit || ms.size() * each > S.unfold_limit)) {
        const z3::expr some = S.cut_value("the legality of the options of a choice over " + S.set_text(set) + " (" +
                                              std::to_string(ms.size()) + (each > 1 ? " × " + std::to_string(each) : "") +
                                              ") at " + at(n),
                                          ir::no_id);
        S.side.push_back(some >= 0 && some <= 1);
        if (ends) {
            if (span) *span = range_options{ends->first, ends->second, {}};
            return {ms, (some == 1) && S.range_has_member(set, ends->first, ends->second)};
        }
        z3::expr_vector in(ctx);
        for (const member& m : ms) in.push_back(m.in);
        return {ms, in.empty() ? ctx.bool_val(false) : (some == 1) && z3::mk_or(in)};
    }
    if (var >= e.locals.size()) e.locals.resize(var + 1);
    const std::optional<z3::expr> saved = e.locals[var];
    std::vector<member> odd;  // the numbers whose option is more than lying between the ends
    for (const member& m : ms) {
        e.locals[var] = m.value;
        z3::expr ok = m.in;
        if (N(where).code != op::absent) ok = terms::and_(ok, S.boolean(where, e, p.st));
        ok = terms::and_(ok, possible(body, e, p, terms::and_(extra, ok)));
        if (ends && !z3::eq(ok, m.in)) odd.push_back({m.value, ok});
        out.push_back({m.value, ok});
        any.push_back(ok);
    }
    e.locals[var] = saved;
    if (ends && odd.size() * 4 <= ms.size()) {
        const bool every = odd.empty();
        if (span) *span = range_options{ends->first, ends->second, std::move(odd)};
        if (every) return {out, S.range_has_member(set, ends->first, ends->second)};
    }
    return {out, any.empty() ? ctx.bool_val(false) : z3::mk_or(any)};
}

// That x is a legal option of a choice of a number (options() gave `span`): between the ends,
// and where a number needs more, that too.
z3::expr exec_impl::chosen_in(id set, const range_options& span, const z3::expr& x) {
    z3::expr legal = S.in_range(set, span.lo, span.hi, x);
    for (const member& m : span.odd) legal = terms::and_(legal, z3::implies(x == m.value, m.in));
    return legal;
}

// `choose subset xs of S [where c [maximizing|minimizing e]]`, exactly: one Boolean per
// candidate says whether the chosen list holds it; every subset of the candidates (at most
// max_subset_candidates of them) is written out once to say which subsets are legal (c holds;
// with an objective, e is the best of all legal subsets: a fresh `best` bounded by every legal
// subset's e and reached by one), so the chosen one is legal, and none is where the engines
// stop with "a choice with no legal option" (a stuck-state). The body runs with the list.
// False (nothing done) past the limit: the caller forgets the body's effects instead.
bool exec_impl::subset(id n, env& e, path& p) {
    const ir::node& nd = N(n);
    const id where = child(n, 2);
    const std::int64_t goal = nd.value;
    std::vector<member> ms = S.set_members(child(n, 0), e, p.st);
    if (ms.size() > max_subset_candidates) return false;
    note_invariants(p, n, "the decision at " + at(n));
    choice_site cs(ctx);
    cs.replay.recorded = true;
    cs.replay.st = S.snapshot(p.st);
    cs.replay.locals = e.locals;
    cs.replay.variables_from = S.variables.size();
    const std::uint32_t var = nd.ref;
    if (var >= e.lists.size()) e.lists.resize(var + 1);
    const std::optional<std::vector<member>> saved = e.lists[var];
    const std::size_t n_subsets = std::size_t{1} << ms.size();
    std::vector<z3::expr> legal, aim;  // per subset (bit i: candidate i)
    z3::expr_vector any(ctx);
    each_subset(ms, var, e, [&](std::size_t, const z3::expr& valid) {
        z3::expr ok = valid;
        if (N(where).code != op::absent) ok = terms::and_(ok, S.boolean(where, e, p.st));
        legal.push_back(ok);
        aim.push_back(goal != 0 ? S.integer(child(n, 4), e, p.st) : S.num(0));
        any.push_back(ok);
    });
    cs.replay.variables_to = S.variables.size();
    drain(p, n);
    cs.node = n;
    cs.pc = p.pc;
    cs.facts = p.facts;
    cs.from_setup = p.from_setup;
    cs.none_legal = !z3::mk_or(any);
    S.choice_sites.push_back(std::move(cs));
    // the chosen subset: a Boolean per candidate, and the subset it spells is legal (and best)
    std::vector<member> chosen;
    z3::expr_vector is(ctx);
    std::vector<z3::expr> picks;
    for (std::size_t i = 0; i < ms.size(); ++i) {
        z3::expr b = ctx.bool_const(("subset" + std::to_string(n) + "_" + std::to_string(i) + "_" + std::to_string(S.variables.size())).c_str());
        S.variables.push_back({b, "whether the subset chosen at " + at(n) + " holds candidate " + std::to_string(i + 1),
                               variable::show::boolean, ir::no_id, 0});
        picks.push_back(b);
        chosen.push_back({ms[i].value, b});
    }
    std::optional<z3::expr> best;
    if (goal != 0) {
        best = S.fresh("best", ir::no_id, "the best objective of the subsets legal at " + at(n), variable::show::value, 0);
        z3::expr_vector bounds(ctx);
        z3::expr_vector reached(ctx);
        for (std::size_t m = 0; m < n_subsets; ++m) {
            bounds.push_back(z3::implies(legal[m], goal == 1 ? aim[m] <= *best : aim[m] >= *best));
            reached.push_back(legal[m] && aim[m] == *best);
        }
        add_fact(p, z3::mk_and(bounds) && z3::implies(z3::mk_or(any), z3::mk_or(reached)),
                 "the best objective of the subsets legal at " + at(n));
    }
    for (std::size_t m = 0; m < n_subsets; ++m) {
        z3::expr spelled = ctx.bool_val(true);
        for (std::size_t i = 0; i < ms.size(); ++i) spelled = spelled && (((m >> i) & 1) ? picks[i] : !picks[i]);
        is.push_back(spelled && legal[m] && (best ? aim[m] == *best : ctx.bool_val(true)));
    }
    add_fact(p, z3::mk_or(is), "a legal subset is chosen at " + at(n));
    e.lists[var] = chosen;
    run(child(n, 3), e, p);
    e.lists[var] = saved;
    return true;
}

}  // namespace wp::verify::detail
