// Invariants proved by induction: each must hold wherever the symbolic execution assumes it
// again (a phase's start, a loop's round, a call past the unrolling depth: in the state just
// before) and wherever the engine checks it (a decision, the end of the game), given every
// invariant assumed at the places before. One that fails or is undecided is not proved: the
// check runs again without assuming it (check(), checks.cpp).
#include "checker.hpp"

namespace wp::verify {

// An invariant a game of the random play broke (after a decision, or inside a step where the
// questions assume it): a trace from setup that the engine played, unless the check from setup
// (invariant_checks, run before) found it already. The invariant is not assumed in the next
// round (check(), checks.cpp), where these games are evidence again.
void checker::played_invariant_findings() {
    for (id r = 0; r < rs_.rules.size(); ++r) {
        const ir::rule& rule = rs_.rules[r];
        if (rule.kind != ir::rule_kind::invariant) continue;
        const auto it = played_violations_.find(rule.name);
        if (it == played_violations_.end()) continue;
        const played_violation& v = it->second;
        out_.unproved_invariants.insert(rule.name);
        // one finding an invariant: the symbolic one from setup says where (every value known)
        if (std::any_of(out_.findings.begin(), out_.findings.end(),
                        [&](const finding& g) { return g.kind == "invariant-violation" && g.subject == rule.name; }))
            continue;
        finding& f = add("invariant-violation", severity::error, rule.name,
                         "invariant `" + rule.name + "` is broken in a game from setup (" + std::to_string(v.broken.games) + " of " +
                             std::to_string(v.games) + " random games at " + std::to_string(v.players) + (v.players == 1 ? " player)" : " players)"));
        f.elements.push_back(rule_elem(r));
        f.witness.push_back("trace from setup: " + game_trace(v.players, v.broken.first));
        f.replay = "confirmed: the engine played this game from setup";
    }
}

void checker::invariant_checks() {
    std::map<id, std::vector<std::pair<const detail::invariant_site*, const z3::expr*>>> by_rule;
    for (const detail::invariant_site& s : sym_.invariant_sites)
        for (const auto& [r, holds] : s.holds) by_rule[r].push_back({&s, &holds});
    for (id r = 0; r < rs_.rules.size(); ++r) {
        const ir::rule& rule = rs_.rules[r];
        if (rule.kind != ir::rule_kind::invariant || rule.value == ir::no_id) continue;
        if (opt_.unassumed_invariants.count(rule.name)) continue;  // reported by the run that dropped it
        const auto it = by_rule.find(r);
        if (it == by_rule.end()) continue;  // settled everywhere without a question
        bool undecided = false;
        for (const auto& [s, holds] : it->second) {
            // a witness that rests on the summary of play (a warning, not shown reachable) gets
            // the quick search, as every other kind's (search_for): on Wallenstein one such
            // witness took 30 s of full search
            answer a = solve_local_first(s->facts, !*holds, true, {}, s->from_setup ? witness_search::all : witness_search::quick);
            if (a.r == z3::unknown) {
                undecided = true;
                continue;
            }
            if (a.r != z3::sat) continue;
            // Broken here. From setup with nothing forgotten on the way, a game reaches it; after
            // a phase's start or a loop's round, the state rests on the checker's summary of
            // the play before (any state the domain and the other invariants allow).
            const bool shown = s->from_setup;
            if (!shown && played_violations_.count(rule.name)) {
                // a game broke it: that trace from setup is the finding (played_invariant_findings)
                out_.unproved_invariants.insert(rule.name);
                undecided = false;
                break;
            }
            finding& f = add("invariant-violation", shown ? severity::error : severity::warning, rule.name,
                             shown ? "invariant `" + rule.name + "` can be broken: it is false at " + s->what
                                   : "invariant `" + rule.name + "` is not proved: it is false at " + s->what +
                                         " in a state the checker cannot rule out (not shown reachable)");
            f.elements.push_back(rule_elem(r));
            f.witness = a.witness;
            // a base case on constants (the setup's own numbers) has no value to show: say where
            if (f.witness.empty())
                f.witness.push_back("where: " + s->what + (shown ? ", every value as the setup leaves it" : ""));
            const detail::invariant_site* at = s;  // (a structured binding cannot be captured in C++20)
            if (a.model) replay_later([this, at, r, m = *a.model] { return replay_.invariant_broken(*at, r, m); });
            out_.unproved_invariants.insert(rule.name);
            undecided = false;
            break;
        }
        if (undecided) {
            unknown("whether invariant " + rule.name + " holds", {rule_elem(r)});
            out_.unproved_invariants.insert(rule.name);
        }
    }
}

}  // namespace wp::verify
