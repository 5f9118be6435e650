// Bound violations of assignments, and mandatory choices that can face no legal option.
#include "accepts.hpp"
#include "checker.hpp"
#include "finding_texts.hpp"

namespace wp::verify {

namespace {

// x == j for a number j, as the explorer writes a choice's option (either side), or nothing.
std::optional<std::int64_t> equation_of(const z3::expr& e, unsigned x) {
    if (!e.is_eq() || e.num_args() != 2) return std::nullopt;
    for (int side : {0, 1}) {
        const z3::expr a = e.arg(side), b = e.arg(1 - side);
        std::int64_t j = 0;
        if (a.id() == x && b.is_numeral_i64(j)) return j;
    }
    return std::nullopt;
}

// What a fact says where x == k, without the solver: the options of a disjunction whose own
// condition names another value of x are dropped; the one left, a conjunction, gives its
// parts (x == k itself aside). Anything else says nothing here.
std::vector<z3::expr> where_equal(const z3::expr& fact, unsigned x, std::int64_t k) {
    if (!fact.is_or()) return {};
    std::optional<z3::expr> left;
    for (unsigned i = 0; i < fact.num_args(); ++i) {
        const z3::expr d = fact.arg(i);
        bool other = false;
        std::vector<z3::expr> todo{d};
        while (!todo.empty() && !other) {
            const z3::expr c = todo.back();
            todo.pop_back();
            if (c.is_and())
                for (unsigned a = 0; a < c.num_args(); ++a) todo.push_back(c.arg(a));
            const std::optional<std::int64_t> j = equation_of(c, x);
            other = j && *j != k;
        }
        if (other) continue;
        if (left) return {};  // two options left: no single condition
        left = d;
    }
    std::vector<z3::expr> parts;
    if (!left) return parts;
    std::vector<z3::expr> todo{*left};  // conjunctions inside it flattened
    while (!todo.empty()) {
        const z3::expr part = todo.back();
        todo.pop_back();
        if (part.is_and())
            for (unsigned c = part.num_args(); c-- > 0;) todo.push_back(part.arg(c));
        else if (!equation_of(part, x))
            parts.push_back(part);
    }
    return parts;
}

}  // namespace

std::optional<detail::interval> checker::interval_of(const fact_list& facts, const z3::expr& term,
                                                     const std::optional<z3::expr>& where) {
    const fact_index& ix = index_of(facts);
    detail::interval_bounds bounds;
    const std::vector<unsigned> vars = variables_of(term);
    mine_.clear();
    for (unsigned v : vars) mine_.mark(v);
    auto only_mine = [&](const std::vector<unsigned>& cv) {
        return std::all_of(cv.begin(), cv.end(), [&](unsigned v) { return mine_.has(v); });
    };
    learnt_.clear();
    for (unsigned var : vars) {
        auto it = ix.by_var.find(var);
        if (it == ix.by_var.end()) return std::nullopt;
        // the facts over the term's own variables alone: on one of them, or on a part of it
        for (unsigned c : it->second) {
            if (learnt_.has(c) || !only_mine(conjuncts_[c].vars)) continue;
            learnt_.mark(c);
            bounds.learn(conjuncts_[c].e);
        }
    }
    // `where`, x == k: the facts on x that name the term's variables, read there
    if (where) {
        const z3::expr& w = *where;
        std::optional<std::int64_t> k;
        std::optional<unsigned> x;
        if (w.is_eq() && w.num_args() == 2)
            for (int side : {0, 1})
                if (w.arg(side).is_const() && !w.arg(side).is_numeral() && (k = equation_of(w, w.arg(side).id()))) {
                    x = w.arg(side).id();
                    break;
                }
        auto it = x ? ix.by_var.find(*x) : ix.by_var.end();
        if (it == ix.by_var.end()) return bounds.of(term);
        for (unsigned c : it->second) {
            if (learnt_.has(c)) continue;
            const std::vector<unsigned>& cv = conjuncts_[c].vars;
            if (std::none_of(cv.begin(), cv.end(), [&](unsigned v) { return mine_.has(v); })) continue;
            for (const z3::expr& part : where_equal(conjuncts_[c].e, *x, *k))
                if (only_mine(variables_of(part))) bounds.learn(part);
        }
    }
    return bounds.of(term);
}

bool checker::stays_in_range(const detail::bound_site& s) {
    const ir::type& t = rs_.types.at(s.type);
    if (t.kind != ir::type_kind::range) return false;
    auto within = [&](const std::optional<detail::interval>& x) { return x && x->lo >= t.lo && x->hi <= t.hi; };
    if (s.whole && within(interval_of(s.facts, *s.whole))) return true;
    for (std::size_t k = 0; k < s.value.size(); ++k) {
        if (within(interval_of(s.facts, s.value[k]))) continue;
        // a place the assignment writes when its chosen location is that place: the facts there
        if (s.value.size() > 1 && within(interval_of(s.facts, s.value[k], s.when[k]))) continue;
        return false;
    }
    return true;
}

void checker::bound_checks() {
    // the places met in a recursion's summary last: their witnesses rest on it
    std::vector<const detail::bound_site*> order;
    for (const detail::bound_site& s : sym_.bound_sites) order.push_back(&s);
    std::stable_partition(order.begin(), order.end(), [](const detail::bound_site* s) { return !s->summarised; });
    std::set<id> reported;
    // An assignment undecided at one use in the sequence (a per-hex count over the map) is
    // most often undecided at its other uses too, each taking as long: those are asked after
    // every other assignment had its questions, so that a budget is spent on all of them
    // first. The assignment is `unknown` unless one of them shows a violation. (Below, in
    // ask_bound, a "place" is a location the assignment may write: a hex, a seat.)
    std::map<id, std::pair<const detail::bound_site*, range_side>> undecided;
    std::vector<const detail::bound_site*> later;
    auto check = [&](const detail::bound_site& s) {
        const slow_check_timer timing{debug_, "bound " + rs_.slots.at(s.slot).name + " at " + sym_.node_position(s.node)};
        // Past the budget even this needs no more time (indexing a long path's facts is most of
        // a bound's cost): the question below is then not asked, and is an `unknown`.
        if (budget_left_ms() >= 1.0 && stays_in_range(s)) return;
        range_side side = range_side::either;
        const z3::check_result r = bound_site_checked(s, side);
        if (r == z3::sat) {
            reported.insert(s.node);
            undecided.erase(s.node);
        } else if (r == z3::unknown) {
            undecided.try_emplace(s.node, &s, side);
        }
    };
    for (const detail::bound_site* sp : order) {
        if (reported.count(sp->node)) continue;
        if (undecided.count(sp->node)) later.push_back(sp);
        else check(*sp);
    }
    for (const detail::bound_site* sp : later)
        if (!reported.count(sp->node)) check(*sp);
    for (const auto& [node, first] : undecided) {
        const auto& [s, side] = first;
        const ir::slot& sl = rs_.slots.at(s->slot);
        const std::string where = side == range_side::above   ? " (above its range)"
                                  : side == range_side::below ? " (below its range)"
                                                              : "";
        const std::string asked_side = side == range_side::above ? "above" : side == range_side::below ? "below" : "";
        unknown("whether `" + sl.name + "` stays in range" + where, {{"field", sl.name, sl.prov}}, severity::error,
                {"bound-violation", sl.name, asked_side});
    }
}

z3::check_result checker::bound_site_checked(const detail::bound_site& s, range_side& undecided) {
    const std::optional<range_side> accepted = accepted_bound(rs_.slots.at(s.slot).name);
    if (accepted && *accepted != range_side::either) {
        // Accepted on one side only: the other side is asked as any field's is, so a real
        // defect there is not taken for the accepted one (an accepted overflow of gold
        // hid a gold that could go negative).
        const range_side other = *accepted == range_side::above ? range_side::below : range_side::above;
        const z3::check_result real = ask_bound(s, other, false);
        const z3::check_result expected = ask_bound(s, *accepted, true);
        if (real == z3::sat || expected == z3::sat) return z3::sat;
        if (real == z3::unknown || expected == z3::unknown) {
            undecided = real != z3::unknown ? *accepted : expected != z3::unknown ? other : range_side::either;
            return z3::unknown;
        }
        return z3::unsat;
    }
    undecided = range_side::either;
    return ask_bound(s, range_side::either, accepted.has_value());
}

z3::check_result checker::ask_bound(const detail::bound_site& s, range_side side, bool accepted) {
    const ir::type& t = rs_.types.at(s.type);
    auto beyond = [&](std::size_t k) {
        if (side == range_side::either) return s.out[k];
        const z3::expr past = side == range_side::above ? s.value[k] > sym_.num(t.hi) : s.value[k] < sym_.num(t.lo);
        return s.when[k] && past;
    };
    // One question for every place the assignment may write. Its witness is made smallest
    // over all of them, so it shows the place that needs the fewest changes (seat P1
    // before P6), without a question per place.
    z3::expr_vector any(ctx_);
    for (std::size_t k = 0; k < s.out.size(); ++k) any.push_back(beyond(k));
    // A field whose violation the ruleset accepts is expected to have one: the quick tries,
    // which only ever prove "never", are skipped there, and so is the witness's search.
    const witness_search search = accepted ? witness_search::accepted : search_for("bound-violation", rs_.slots.at(s.slot).name, s);
    answer found = accepted ? solve(s.facts, z3::mk_or(any), true, {}, search)
                            : solve_local_first(s.facts, z3::mk_or(any), true, {}, search);
    if (found.r == z3::unsat) return z3::unsat;
    if (found.r == z3::sat && found.model) {
        // (the model holds the question, so one place is out of range in it)
        for (std::size_t k = 0; k < s.out.size(); ++k)
            if (found.model->eval(beyond(k), true).is_true()) {
                found.witness.insert(found.witness.begin(), value_line("the new value", s.value[k], *found.model));
                report_bound(s, k, found);
                return z3::sat;
            }
    }
    // Undecided over all of them: each place is asked alone, after a chunk of 16 places
    // together when there are many. (On SPI a per-hex count's question over all 484 hexes is
    // undecided in 4-6 s, one hex's is proved in about 90 ms, a chunk's in about 850 ms.)
    constexpr std::size_t chunk = 16;
    std::size_t proved = 0;
    auto ended = [&](z3::check_result r) {  // WP_CHECK_DEBUG: what asking each place alone gave
        if (debug_)
            std::fprintf(stderr, "  bound %s: %zu places undecided together, %zu proved alone, then %s\n",
                         rs_.slots.at(s.slot).name.c_str(), s.out.size(), proved,
                         r == z3::sat ? "a violation" : r == z3::unsat ? "no more places" : "one undecided");
        return r;
    };
    std::size_t chunk_end = 0;  // places before it are proved by their chunk's question
    for (std::size_t k = 0; k < s.out.size(); ++k) {
        if (k >= chunk_end && s.out.size() > 2 * chunk) {
            const std::size_t end = std::min(s.out.size(), k + chunk);
            z3::expr_vector part(ctx_);
            for (std::size_t j = k; j < end; ++j) part.push_back(beyond(j));
            const z3::expr q = z3::mk_or(part);
            if ((accepted ? solve(s.facts, q, false) : solve_local_first(s.facts, q, false)).r == z3::unsat) {
                proved += end - k;
                k = end - 1;
                continue;
            }
            chunk_end = end;
        }
        const std::vector<std::pair<std::string, z3::expr>> extra{{"the new value", s.value[k]}};
        // a place alone is most often proved by the facts next to it (the choice's own
        // condition on the place it picked): the quick tries first, unless a violation is expected
        answer a = accepted ? solve(s.facts, beyond(k), true, extra, search)
                            : solve_local_first(s.facts, beyond(k), true, extra, search);
        if (a.r == z3::unknown) return ended(z3::unknown);
        if (a.r != z3::sat) {
            ++proved;
            continue;
        }
        report_bound(s, k, a);
        return ended(z3::sat);
    }
    return ended(z3::unsat);
}

void checker::report_bound(const detail::bound_site& s, std::size_t k, const answer& a) {
    const ir::slot& sl = rs_.slots.at(s.slot);
    const ir::type& t = rs_.types.at(s.type);
    // the side the witness's new value leaves the range by (a question without a model: either)
    std::string side;
    if (a.model) side = a.model->eval(s.value[k] > sym_.num(t.hi), true).is_true() ? "above" : "below";
    finding& f = add("bound-violation", severity::error, sl.name, detail::bound_message(sl.name, side, std::pair{t.lo, t.hi}));
    f.side = side;
    f.reach = reach_of(s);
    f.elements.push_back({"statement", "assignment to " + sl.name, statement_prov(s.node)});
    f.elements.push_back({"field", sl.name, sl.prov});
    f.witness = a.witness;
    if (a.model) replay_later([this, site = &s, k, m = *a.model] { return replay_.bound_violation(*site, k, m); });
}

std::optional<checker::range_side> checker::accepted_bound(const std::string& field) const {
    std::optional<range_side> out;
    for (const ir::accepted_finding& a : rs_.accepts) {
        if (a.kind != "bound-violation" || a.subject != field) continue;
        const range_side side = a.side == "above" ? range_side::above : a.side == "below" ? range_side::below : range_side::either;
        // two accepts of the two sides, or one of either side: every violation is accepted
        out = out && *out != side ? range_side::either : side;
    }
    return out;
}

void checker::choice_checks() {
    std::set<id> reported, undecided;
    for (const detail::choice_site& s : sym_.choice_sites) {
        if (reported.count(s.node)) continue;
        const bool accepted = detail::accepted_before(rs_, "stuck-state", owner_of(s.node));
        // the quick search where the witness rests on the summary of play, as a bound's (SPI's five
        // stuck choices, all of them there, took 45 s of full search)
        answer a = solve(s.facts, s.none_legal, true, {},
                         accepted ? witness_search::accepted : search_for("stuck-state", owner_of(s.node), s));
        if (a.r == z3::unknown) {
            // said once for the choice; its other places may still show it stuck
            if (undecided.insert(s.node).second)
                unknown("whether the choice at " + sym_.node_position(s.node) + " always has an option",
                        {{"statement", "choose", statement_prov(s.node)}}, severity::error, {"stuck-state", owner_of(s.node), ""});
            continue;
        }
        if (a.r != z3::sat) continue;
        finding& f = add("stuck-state", severity::error, owner_of(s.node), detail::stuck_message());
        f.reach = reach_of(s);
        f.elements.push_back({"statement", "choose", statement_prov(s.node)});
        f.witness = a.witness;
        if (a.model) replay_later([this, site = &s, m = *a.model] { return replay_.stuck_choice(*site, m); });
        reported.insert(s.node);
    }
}

}  // namespace wp::verify
