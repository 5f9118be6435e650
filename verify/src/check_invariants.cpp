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
        const auto& places = it->second;
        // a witness that rests on the summary of play (a warning, not shown reachable) gets the
        // quick search, as every other kind's (search_for): on Wallenstein one such witness took
        // 30 s of full search
        auto ask_at = [&](std::size_t i) {
            const auto& [s, holds] = places[i];
            const auto t0 = std::chrono::steady_clock::now();
            answer a = solve_local_first(s->facts, !*holds, true, {}, s->from_setup ? witness_search::all : witness_search::quick);
            if (debug_)
                std::fprintf(stderr, "  invariant %s at %s%s: %s, %.0f ms\n", rule.name.c_str(), s->what.c_str(), rlimit_cap_ ? " (capped)" : "",
                             a.r == z3::sat ? "broken" : a.r == z3::unsat ? "holds" : "undecided",
                             std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            return a;
        };
        // Broken at place i: from setup with nothing forgotten on the way, a game reaches it;
        // after a phase's start or a loop's round, the state rests on the checker's summary of
        // the play before (any state the domain and the other invariants allow).
        auto broken_at = [&](std::size_t i, answer& a) {
            const detail::invariant_site* at = places[i].first;
            out_.unproved_invariants.insert(rule.name);
            const bool shown = at->from_setup;
            // a game broke it: that trace from setup is the finding (played_invariant_findings)
            if (!shown && played_violations_.count(rule.name)) return;
            finding& f = add("invariant-violation", shown ? severity::error : severity::warning, rule.name,
                             shown ? "invariant `" + rule.name + "` can be broken: it is false at " + at->what
                                   : "invariant `" + rule.name + "` is not proved: it is false at " + at->what +
                                         " in a state the checker cannot rule out (not shown reachable)");
            f.elements.push_back(rule_elem(r));
            f.witness = a.witness;
            // a base case on constants (the setup's own numbers) has no value to show: say where
            if (f.witness.empty()) f.witness.push_back("where: " + at->what + (shown ? ", every value as the setup leaves it" : ""));
            if (a.model) replay_later([this, at, r, m = *a.model] { return replay_.invariant_broken(*at, r, m); });
        };
        // Two rounds (first_sat_of): every place capped first, then the places that ran out, in
        // full. Undecided at one place in full, the invariant is not proved whatever the other
        // places say: the full questions of the places after it are left (on Wallenstein each
        // took 20-30 s), and only a violation there that the capped round could not find is lost
        // (then the finding is `unknown`, not `invariant-violation`).
        const bool undecided = first_sat_of(places.size(), [&](std::size_t i) {
            answer a = ask_at(i);
            if (a.r == z3::sat) broken_at(i, a);
            return a.r;
        }, true) == z3::unknown;
        if (undecided) {
            unknown("whether invariant " + rule.name + " holds", {rule_elem(r)});
            out_.unproved_invariants.insert(rule.name);
        }
    }
}

}  // namespace wp::verify
