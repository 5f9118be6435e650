// The designer's queries (docs/language.md §9, docs/checker.md "Queries"): `assert always P`,
// `assert never P` and `reachable P`, each answered with a proof, a trace from setup, or unknown.
//
// A game of the checker's random play that answers a query is a trace from setup the engine
// played move by move: `westphalia play --players N --seed S` plays it again. Without one, the
// symbolic execution's places (every decision, phase start, loop round and end of the game) are
// asked: unsatisfiable everywhere is a proof over the checker's summary of play; satisfiable at
// a place reached from setup with nothing forgotten is a witness the engine replays there; only
// after a forgotten history it is "not shown reachable", and the answer is unknown.
#include "checker.hpp"
#include "replay.hpp"

#include <unordered_set>

namespace wp::verify {

void checker::query_checks() {
    // the places of each query, in the order the symbolic execution met them
    std::map<id, std::vector<std::pair<const detail::invariant_site*, const z3::expr*>>> by_rule;
    for (const detail::invariant_site& s : sym_.query_sites)
        for (const auto& [r, answered] : s.holds) by_rule[r].push_back({&s, &answered});
    const bool explored = !sequence_stopped_;
    const std::string given_invariants =
        std::any_of(rs_.rules.begin(), rs_.rules.end(), [](const ir::rule& r) { return r.kind == ir::rule_kind::invariant; })
            ? (opt_.prove_invariants ? ", given the invariants (proved by induction)" : ", given the invariants (assumed; `--checks invariants` proves them)")
            : "";
    for (id r = 0; r < rs_.rules.size(); ++r) {
        const ir::rule& rule = rs_.rules[r];
        if (!ir::is_query(rule.kind) || rule.value == ir::no_id) continue;
        const bool always = rule.kind == ir::rule_kind::assert_always, reach = rule.kind == ir::rule_kind::reachable;
        const std::string words = ir::query_words(rule.kind);
        const std::string title = words + " `" + rule.name + "`";
        query_answer qa{rule.name, words, "", "", rule.prov};
        const std::string happens = always ? "is false" : "is true";

        // 1. A game from setup: the engine played it, move by move.
        if (const auto it = query_played_.find(rule.name); it != query_played_.end()) {
            const played_answer& p = it->second;
            const std::string trace = game_trace(p.players, p.first);
            qa.verdict = reach ? "reached" : "fails";
            qa.how = "trace from setup: " + trace;
            if (!reach) {
                finding& f = add("query", severity::error, rule.name, title + " " + happens + " in a game from setup");
                f.elements.push_back(rule_elem(r));
                f.witness.push_back("trace from setup: " + trace);
                f.replay = "confirmed: the engine played this game from setup";
            }
            out_.answers.push_back(std::move(qa));
            continue;
        }

        // 2. The symbolic execution's places.
        const auto it = by_rule.find(r);
        std::size_t places = 0, undecided = 0;
        const detail::invariant_site* from_setup = nullptr;
        const detail::invariant_site* summary = nullptr;
        answer shown;
        if (explored && it != by_rule.end()) {
            // The places reached from setup first: one satisfiable there decides. Then the others,
            // where the first satisfiable one decides (unknown: nothing from setup is left to find).
            // A place whose facts extend those of a place found unsatisfiable for the same term
            // is unsatisfiable too (more facts), and needs no question.
            std::map<unsigned, std::unordered_set<const detail::fact_node*>> unsat_at;  // by term id
            auto implied_unsat = [&](const detail::invariant_site& s, const z3::expr& e) {
                const auto u = unsat_at.find(e.id());
                if (u == unsat_at.end()) return false;
                for (const detail::fact_node* f = s.facts.get(); f; f = f->prev.get())
                    if (u->second.count(f)) return true;
                return false;
            };
            for (const bool setup_pass : {true, false}) {
                for (const auto& [s, answered] : it->second) {
                    if (s->from_setup != setup_pass) continue;
                    ++places;
                    if (implied_unsat(*s, *answered)) continue;
                    answer a = solve_local_first(s->facts, *answered, true);
                    if (a.r == z3::unknown) {
                        ++undecided;
                        continue;
                    }
                    if (a.r != z3::sat) {
                        unsat_at[answered->id()].insert(s->facts.get());
                        continue;
                    }
                    if (s->from_setup) {
                        from_setup = s;
                    } else {
                        summary = s;
                    }
                    shown = std::move(a);
                    break;
                }
                if (from_setup || summary) break;
            }
        }
        const std::string where_met = from_setup ? from_setup->what : summary ? summary->what : "";
        if (from_setup) {
            // reached from setup with nothing forgotten: a witness the engine replays there
            qa.verdict = reach ? "reached" : "fails";
            qa.how = "the checker's witness from setup, at " + where_met;
            if (!reach) {
                finding& f = add("query", severity::error, rule.name, title + " " + happens + " at " + where_met + ", reached from setup");
                f.elements.push_back(rule_elem(r));
                f.witness = shown.witness;
                const detail::invariant_site* at = from_setup;
                if (shown.model) replay_later([this, at, r, m = *shown.model] { return replay_.query_answered(*at, r, m); });
            }
        } else if (summary || undecided > 0 || !explored) {
            // not shown either way: a state only the checker's summary allows, or a question undecided
            qa.verdict = "unknown";
            qa.how = !explored ? "the symbolic execution did not finish"
                     : summary ? std::string(always ? "false" : "true") + " at " + where_met +
                                     " in a state the checker cannot rule out (not shown reachable)"
                               : std::to_string(undecided) + " of its " + std::to_string(places) + " places were not decided";
            if (summary) {
                finding& f = add("unknown", severity::error, rule.name, title + " is not answered: " + qa.how);
                f.proof = proof_kind::unknown;
                f.elements.push_back(rule_elem(r));
                f.witness = shown.witness;
            } else {
                unknown("whether " + title + (reach ? " can happen" : " holds"), {rule_elem(r)});
            }
        } else {
            // unsatisfiable at every place: a proof over the checker's summary of play
            const std::string grounds =
                places == 0 ? "wherever the engine checks it, by the values alone" + given_invariants
                            : "at all " + std::to_string(places) +
                                  " places the engine checks it (decisions, phase starts, loop rounds, the end of the game)" +
                                  given_invariants;
            const std::string property = always ? "true " : "false ";
            if (reach) {
                qa.verdict = "never";
                qa.how = "proved " + property + grounds;
                finding& f = add("query", severity::error, rule.name, title + " can never happen: no play from setup reaches it");
                f.elements.push_back(rule_elem(r));
                f.proof = proof_kind::proved;
                f.because.push_back(property + grounds);
                if (query_games_ > 0) f.replay = "consistent: none of " + std::to_string(query_games_) + " random games reached it either";
            } else {
                qa.verdict = "holds";
                qa.how = "proved " + property + grounds +
                         (query_games_ > 0 ? "; none of " + std::to_string(query_games_) + " random games broke it" : "");
            }
        }
        out_.answers.push_back(std::move(qa));
    }
}

}  // namespace wp::verify
