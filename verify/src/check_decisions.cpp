// The checks of each rule group over the free domain: vacuous and shadowed rules, contradictions,
// ambiguities and gaps of total decisions.
#include "checker.hpp"

namespace wp::verify {

// Under the budget (--max-time): the encoder stops inside an encoding when it runs out (on a
// map of 2,025 hexes, encoding the rule groups over the free state took 190 s past a budget of
// 60 s), and each group not checked to its end is one `unknown` about its rules.
void checker::domain_checks() {
    sym_.deadline = budget_deadline();
    id done = 0;
    try {
        std::vector<fact> facts;
        const detail::store st = sym_.free_store(facts);
        // the store's variables can be shown in witnesses (the state a decision is taken in)
        for (std::size_t i = 0; i < sym_.variables.size(); ++i) index_[sym_.variables[i].var.id()] = i;
        fact_list base;
        for (const fact& f : facts) base = std::make_shared<const detail::fact_node>(detail::fact_node{f, base});
        const std::int64_t lo = std::max<std::int64_t>(1, rs_.min_players);
        base = std::make_shared<const detail::fact_node>(detail::fact_node{
            {sym_.n_players >= ctx_.int_val(lo) && sym_.n_players <= ctx_.int_val(sym_.lay.players),
             "the number of players is " + std::to_string(lo) + ".." + std::to_string(sym_.lay.players)},
            base});
        for (; done < rs_.groups.size(); ++done) group_checks(done, st, base);
    } catch (const detail::symbolic::out_of_time&) {
        sym_.abandon_statement();
        sym_.stopped = false;  // explore() looks at the clock itself
        out_.out_of_time = true;
        for (id g = done; g < rs_.groups.size(); ++g) {
            const ir::rule_group& gr = rs_.groups[g];
            if (gr.rules.empty()) continue;
            std::vector<involved> elems;
            for (id r : gr.rules) elems.push_back(rule_elem(r));
            ++out_.stats[kind_].skipped;
            unknown("the rules of " + target_name(gr) + " (whether each can apply, is shadowed, or contradicts another; gaps)", elems);
        }
    }
    sym_.deadline.reset();
}

const std::vector<ir::local>* checker::target_params(const ir::rule_group& gr) const {
    switch (gr.target) {
        case ir::target_kind::roll: return &rs_.rolls.at(gr.target_id).locals;
        case ir::target_kind::quantity: return &rs_.quantities.at(gr.target_id).locals;
        case ir::target_kind::decision: return &rs_.decisions.at(gr.target_id).params;
        case ir::target_kind::action: return &rs_.actions.at(gr.target_id).locals;
        case ir::target_kind::event: return &rs_.events.at(gr.target_id).params;
        default: return nullptr;
    }
}

std::size_t checker::target_param_count(const ir::rule_group& gr) const {
    switch (gr.target) {
        case ir::target_kind::roll: return rs_.rolls.at(gr.target_id).param_count;
        case ir::target_kind::quantity: return rs_.quantities.at(gr.target_id).param_count;
        case ir::target_kind::decision: return rs_.decisions.at(gr.target_id).params.size();
        case ir::target_kind::action: return rs_.actions.at(gr.target_id).param_count;
        case ir::target_kind::event: return rs_.events.at(gr.target_id).params.size();
        default: return 0;
    }
}

std::string checker::target_name(const ir::rule_group& gr) const {
    switch (gr.target) {
        case ir::target_kind::roll: return rs_.rolls.at(gr.target_id).name;
        case ir::target_kind::quantity: return rs_.quantities.at(gr.target_id).name;
        case ir::target_kind::decision: return rs_.decisions.at(gr.target_id).name;
        case ir::target_kind::action: return rs_.actions.at(gr.target_id).name;
        case ir::target_kind::event: return rs_.events.at(gr.target_id).name;
        default: return "?";
    }
}

bool checker::beats(const ir::rule_group& gr, id a, id b) const {
    std::vector<id> todo{a};
    std::set<id> seen;
    while (!todo.empty()) {
        const id x = todo.back();
        todo.pop_back();
        if (!seen.insert(x).second) continue;
        for (const ir::override_edge& e : gr.edges)
            if (e.higher == x) {
                if (e.lower == b) return true;
                todo.push_back(e.lower);
            }
    }
    return false;
}

z3::check_result checker::applies_under_other_options(id r, const std::vector<z3::expr>& args, const detail::store& st, const fact_list& facts) {
    if (rs_.options.empty()) return z3::unsat;
    sym_.free_options = true;
    z3::expr g = sym_.rule_guard(r, args, st);
    for (const z3::expr& x : sym_.side) g = g && x;
    sym_.side.clear();
    sym_.free_options = false;
    return solve(facts, g, false).r;
}

void checker::group_checks(id g, const detail::store& st, const fact_list& base) {
    const ir::rule_group& gr = rs_.groups.at(g);
    const std::vector<ir::local>* params = target_params(gr);
    const std::size_t count = target_param_count(gr);
    fact_list facts = base;
    std::vector<z3::expr> args;
    // The engine replays a witness here over the same store, with the arguments as locals.
    detail::replay_point at;
    at.recorded = true;
    at.st = sym_.snapshot(st);
    at.variables_from = sym_.variables.size();
    auto replay = [&](const answer& x, std::function<std::string(const detail::replay_point&, const z3::model&)> how) {
        if (!x.model) return;
        at.variables_to = sym_.variables.size();
        replay_later([at, m = *x.model, how = std::move(how)] { return how(at, m); });
    };
    auto both_apply = [this, g](id a, id b, detail::witness_replay::values v) {
        return [this, g, a, b, v](const detail::replay_point& p, const z3::model& m) { return replay_.both_apply(p, g, a, b, v, m); };
    };
    for (std::size_t i = 0; i < count && params; ++i) {
        const ir::local& l = params->at(i);
        z3::expr v = sym_.fresh(l.name, l.type, l.name, variable::show::value, 0);
        switch (rs_.types.at(l.type).kind) {
            case ir::type_kind::player: sym_.variables.back().as = variable::show::player; break;
            case ir::type_kind::entity: sym_.variables.back().as = variable::show::instance; break;
            case ir::type_kind::enumeration: sym_.variables.back().as = variable::show::member; break;
            default: break;
        }
        sym_.variables.back().preferred = -99;  // always show the arguments
        index_[v.id()] = sym_.variables.size() - 1;
        z3::expr dom = sym_.in_type(v, l.type);
        if (rs_.types.at(l.type).kind == ir::type_kind::player) dom = dom && v >= 0;
        if (rs_.types.at(l.type).kind == ir::type_kind::entity) dom = dom && v >= 0;
        facts = std::make_shared<const detail::fact_node>(detail::fact_node{{dom, "the range of `" + l.name + "`"}, facts});
        args.push_back(v);
        at.locals.emplace_back(v);
    }
    std::map<id, z3::expr> guards;
    std::map<id, z3::expr> applies = sym_.group_effective(g, args, st, &guards);
    z3::expr side = ctx_.bool_val(true);
    for (const z3::expr& s : sym_.side) side = side && s;
    sym_.side.clear();
    facts = std::make_shared<const detail::fact_node>(detail::fact_node{{side, "the possible dice and values"}, facts});
    const std::string target = target_name(gr);

    // vacuous and shadowed (a rule that fired in random play is neither)
    for (id r : gr.rules) {
        const ir::rule& rule = rs_.rules.at(r);
        if (rule.guard == ir::no_id || fired_.count(rule.name)) continue;
        answer a = solve(facts, guards.at(r), false);
        if (a.r == z3::unknown) { unknown("whether rule " + rule.name + " can apply", {rule_elem(r)}); continue; }
        if (a.r == z3::unsat) {
            const z3::check_result elsewhere = applies_under_other_options(r, args, st, facts);
            if (elsewhere == z3::unknown) {
                unknown("whether rule " + rule.name + " can apply under other options", {rule_elem(r)}, severity::warning);
                dead_.insert(r);  // nothing more is concluded about it (reach_checks)
                continue;
            }
            if (elsewhere == z3::sat) {
                dead_.insert(r);  // inactive under the chosen options: not a defect
                continue;
            }

            finding& f = add("dead-rule", severity::warning, rule.name,
                             "rule `" + rule.name + "` can never apply: its condition is impossible");
            f.elements.push_back(rule_elem(r));
            f.proof = proof_kind::proved;
            f.because = explain(facts, {{"the condition of `" + rule.name + "` (" + where(rule.prov) + ")", guards.at(r)}});
            dead_.insert(r);
            continue;
        }
        if (!gr.edges.empty()) {
            answer b = solve(facts, applies.at(r), false);
            if (b.r == z3::unknown) unknown("whether rule " + rule.name + " ever takes effect", {rule_elem(r)}, severity::warning);
            if (b.r == z3::unsat) {
                finding& f = add("dead-rule", severity::warning, rule.name,
                                 "rule `" + rule.name + "` never takes effect: whenever it applies, a rule that overrides it applies too");
                f.elements.push_back(rule_elem(r));
                for (const ir::override_edge& e : gr.edges)
                    if (e.lower == r) f.elements.push_back(rule_elem(e.higher));
                f.proof = proof_kind::proved;
                std::vector<std::pair<std::string, z3::expr>> extra{
                    {"the condition of `" + rule.name + "` (" + where(rule.prov) + ")", guards.at(r)}};
                for (const ir::override_edge& e : gr.edges)
                    if (e.lower == r)
                        extra.push_back({"`" + rs_.rules.at(e.higher).name + "` overrides it where it applies (" +
                                             where(rs_.rules.at(e.higher).prov) + ")",
                                         !guards.at(e.higher)});
                f.because = explain(facts, extra);
                dead_.insert(r);
            }
        }
    }

    // contradictions and ambiguities
    auto value_of = [&](id r) {
        const ir::rule& rule = rs_.rules.at(r);
        symbolic::env e;
        e.locals.resize(std::max(rule.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < rule.locals.size(); ++i) e.locals[i] = args[i];
        z3::expr v = sym_.integer(rule.kind == ir::rule_kind::modifier ? rule.amount : rule.value, e, st);
        z3::expr s = ctx_.bool_val(true);
        for (const z3::expr& x : sym_.side) s = s && x;
        sym_.side.clear();
        return std::make_pair(v, s);
    };
    for (std::size_t i = 0; i < gr.rules.size(); ++i)
        for (std::size_t j = i + 1; j < gr.rules.size(); ++j) {
            const id a = gr.rules[i], b = gr.rules[j];
            if (dead_.count(a) || dead_.count(b) || beats(gr, a, b) || beats(gr, b, a)) continue;
            const ir::rule& ra = rs_.rules.at(a);
            const ir::rule& rb = rs_.rules.at(b);
            // Two `=` modifiers that apply together must agree (the engines stop otherwise).
            const bool sets = ra.kind == ir::rule_kind::modifier && ra.mod == ir::modifier_kind::set &&
                              rb.kind == ir::rule_kind::modifier && rb.mod == ir::modifier_kind::set;
            const bool defines = (ra.kind == ir::rule_kind::define && rb.kind == ir::rule_kind::define) || sets;
            const bool legal = (ra.kind == ir::rule_kind::forbid && rb.kind == ir::rule_kind::require) ||
                               (ra.kind == ir::rule_kind::require && rb.kind == ir::rule_kind::forbid);
            const bool triggers = ra.kind == ir::rule_kind::trigger && rb.kind == ir::rule_kind::trigger;
            if (triggers) {
                // Two passages that end the game on the same event for different reasons:
                // whichever runs first decides, and the text does not say which.
                const std::set<std::string> ea = end_reasons(ra.body), eb = end_reasons(rb.body);
                if (ea.empty() || eb.empty() || ea == eb) continue;
                answer x = solve(facts, applies.at(a) && applies.at(b), true);
                if (x.r == z3::unknown) unknown("whether " + ra.name + " and " + rb.name + " both end the game", {rule_elem(a), rule_elem(b)});
                if (x.r != z3::sat) continue;
                finding& f = add("contradiction", severity::error, ra.name + " " + rb.name,
                                 "`" + ra.name + "` ends the game (" + joined(ea) + ") and `" + rb.name + "` ends it (" + joined(eb) +
                                     ") on the same `" + target + "`, and neither overrides the other");
                f.elements = {rule_elem(a), rule_elem(b)};
                f.witness = x.witness;
                replay(x, both_apply(a, b, detail::witness_replay::values::any));
                continue;
            }
            if (!defines && !legal) continue;
            const z3::expr both = applies.at(a) && applies.at(b);
            if (legal) {
                answer x = solve(facts, both, true);
                if (x.r == z3::unknown) unknown("whether " + ra.name + " and " + rb.name + " conflict", {rule_elem(a), rule_elem(b)});
                if (x.r != z3::sat) continue;
                // named by what each says, whichever was declared first
                const bool a_forbids = ra.kind == ir::rule_kind::forbid;
                const std::string& forbids = a_forbids ? ra.name : rb.name;
                const std::string& requires_it = a_forbids ? rb.name : ra.name;
                finding& f = add("contradiction", severity::error, ra.name + " " + rb.name,
                                 "`" + forbids + "` forbids " + target + " where `" + requires_it + "` requires it, and neither overrides the other");
                f.elements = {rule_elem(a), rule_elem(b)};
                f.witness = x.witness;
                replay(x, both_apply(a, b, detail::witness_replay::values::any));
                continue;
            }
            const auto [va, sa] = value_of(a);
            const auto [vb, sb] = value_of(b);
            answer x = solve(facts, both && sa && sb && va != vb, true, {{ra.name + " gives", va}, {rb.name + " gives", vb}});
            if (x.r == z3::unknown) {
                unknown("whether " + ra.name + " and " + rb.name + " disagree", {rule_elem(a), rule_elem(b)});
                continue;
            }
            if (x.r == z3::sat) {
                finding& f = add("contradiction", severity::error, ra.name + " " + rb.name,
                                 "`" + ra.name + "` and `" + rb.name + "` both " + (sets ? "set " : "decide ") + target +
                                     " with different values, and neither overrides the other");
                f.elements = {rule_elem(a), rule_elem(b)};
                f.witness = x.witness;
                replay(x, both_apply(a, b, detail::witness_replay::values::different));
                continue;
            }
            if (sets) continue;  // sets that agree are no ambiguity: the value is the same either way
            answer y = solve(facts, both && sa && sb, true);
            if (y.r == z3::unknown)
                unknown("whether " + ra.name + " and " + rb.name + " both apply", {rule_elem(a), rule_elem(b)}, severity::warning);
            if (y.r == z3::sat) {
                finding& f = add("ambiguity", severity::warning, ra.name + " " + rb.name,
                                 "`" + ra.name + "` and `" + rb.name + "` both decide " + target +
                                     " (with the same value) and neither overrides the other");
                f.elements = {rule_elem(a), rule_elem(b)};
                f.witness = y.witness;
                replay(y, both_apply(a, b, detail::witness_replay::values::same));
            }
        }

    // gaps in total decisions
    if (gr.target == ir::target_kind::decision && rs_.decisions.at(gr.target_id).total) {
        const ir::decision& d = rs_.decisions.at(gr.target_id);
        z3::expr none = ctx_.bool_val(true);
        for (id r : gr.rules)
            if (rs_.rules.at(r).kind == ir::rule_kind::define) none = none && !guards.at(r);
        answer x = solve(facts, none, true);
        if (x.r == z3::unknown) unknown("whether " + d.name + " is decided everywhere", {{"decision", d.name, d.prov}});
        if (x.r == z3::sat) {
            finding& f = add("gap", severity::error, d.name,
                             "decision `" + d.name + "` is declared total, but no rule decides it in this situation");
            f.elements.push_back({"decision", d.name, d.prov});
            for (id r : gr.rules) f.elements.push_back(rule_elem(r));
            f.witness = x.witness;
            // The witness is a state of the domain, any value of every field: a gap says the
            // engine can stop there, a claim about play, so it counts only once a game of the
            // checker's play meets it (label_reach, checks.cpp). SPI's `morale_row_of` has no
            // 3 August row for the French mercenaries, who never fight that day (§15.14, §17.12).
            f.reach = reach_kind::not_shown;
            replay(x, [this, g](const detail::replay_point& p, const z3::model& m) { return replay_.undecided(p, g, m); });
        }
    }
}

std::set<std::string> checker::end_reasons(id body) const {
    std::set<std::string> out;
    if (body == ir::no_id) return out;
    std::vector<id> todo{body};
    while (!todo.empty()) {
        const id n = todo.back();
        todo.pop_back();
        const ir::node& nd = rs_.nodes.at(n);
        if (nd.code == ir::op::end_game)
            out.insert(nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs_.strings.size() ? rs_.strings[static_cast<std::size_t>(nd.value)]
                                                                                                 : std::to_string(nd.value));
        for (id c : ir::children_of(rs_, n)) todo.push_back(c);
    }
    return out;
}

std::string checker::joined(const std::set<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

}  // namespace wp::verify
