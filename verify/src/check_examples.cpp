// The rulebook's worked examples, run from the start of a game against their stated outcome.
#include "checker.hpp"

namespace wp::verify {

std::string checker::owner_of(id n) const {
    const ir::source_pos& w = rs_.nodes.at(n).where;
    std::string best;
    std::uint32_t best_line = 0;
    auto consider = [&](const std::string& name, const ir::provenance& p) {
        if (p.where.file == w.file && p.where.line <= w.line && p.where.line >= best_line &&
            (p.where.end_line == 0 || p.where.end_line >= w.line)) {
            best = name;
            best_line = p.where.line;
        }
    };
    for (const ir::procedure& p : rs_.procedures) consider(p.name, p.prov);
    for (const ir::action& a : rs_.actions) consider(a.name, a.prov);
    for (const ir::rule& r : rs_.rules) consider(r.name, r.prov);
    for (const ir::block& b : rs_.blocks) consider(b.path, b.prov);
    return best.empty() ? "sequence" : best;
}

void checker::example_checks() {
    for (const detail::example_run& x : sym_.examples) {
        const ir::rule& rule = rs_.rules.at(x.rule);
        answer can = solve(x.facts, ctx_.bool_val(true), false);
        if (can.r == z3::unsat) {
            finding& f = add("example-failure", severity::error, rule.name,
                             "example `" + rule.name + "`: the situation it gives cannot happen under the rules");
            f.elements.push_back({"example", rule.name, rule.prov});
            f.proof = proof_kind::proved;
            continue;
        }
        // the numbers shown join the question (as v == v), so that slicing keeps what defines them
        z3::expr target = !x.expect;
        for (const auto& [label, v] : x.shown) target = target && v == v;
        answer a = solve(x.facts, target, true, x.shown);
        // Undecided, or a failure that rests on what the encoding approximates: the engine runs
        // the `given` in every case there is (each player count, each active player; the
        // options are the check's own unless they are free), and its verdict stands.
        auto failure = [&]() -> finding& {
            finding& f = add("example-failure", severity::error, rule.name,
                             "example `" + rule.name + "`: the rules do not produce the outcome it states");
            f.elements.push_back({"example", rule.name, rule.prov});
            return f;
        };
        if ((a.r == z3::unknown || (a.r == z3::sat && a.approximated)) && !sym_.free_options) {
            using verdict = detail::witness_replay::example_verdict;
            const verdict v = replay_.example_everywhere(x);
            if (v.k == verdict::kind::holds) continue;
            if (v.k == verdict::kind::fails) {
                finding& f = failure();
                f.witness = v.situation;
                f.witness.push_back(a.r == z3::unknown ? "decided by the engine: the solver could not decide it"
                                                       : "decided by the engine: the solver's answer rested on what the encoding approximates");
                f.replay = v.how;
                continue;
            }
        }
        if (a.r == z3::unknown) { unknown("example `" + rule.name + "`", {{"example", rule.name, rule.prov}}); continue; }
        if (a.r != z3::sat) continue;
        finding& f = failure();
        f.witness = a.witness;
        // A `given` whose loops the checker summarised (what they write forgotten) may fail only
        // in that summary: such a witness is not shown to be the rules' own outcome, and fails
        // nothing by default (the engine's run of the `given`, below, says what it gives).
        if (!x.exact) f.reach = reach_kind::not_shown;
        if (a.model) replay_later([this, run = &x, m = *a.model] { return replay_.example_fails(*run, m); });
    }
    chances_checks();
}

// `chances` (docs/language.md §7): the engine follows every cell's `given` through every die, at
// the fewest players, as the aid does; a cell it cannot follow exactly (an engine error, a
// decision, a shuffle, too many states) is a failure the aid would print as "—".
void checker::chances_checks() {
    for (std::size_t i = 0; i < rs_.rules.size(); ++i) {
        const ir::rule& rule = rs_.rules[i];
        if (rule.kind != ir::rule_kind::chances || rule.param_count < 1 || rule.value == ir::no_id) continue;
        const int players = std::max(1, static_cast<int>(rs_.min_players));
        const engine::game* g = replay_.game_for(players);
        if (!g) continue;
        const engine::chances_grid grid = engine::compute_chances(*g, static_cast<id>(i));
        for (std::size_t c = 0; c < grid.cells.size(); ++c) {
            if (grid.cells[c].error.empty()) continue;
            const std::size_t width = grid.columns.size();
            std::vector<std::string> where{rule.locals[0].name + " = " + sym_.value_text(rule.locals[0].type, grid.rows[c / width])};
            if (rule.param_count >= 2) where.push_back(rule.locals[1].name + " = " + sym_.value_text(rule.locals[1].type, grid.columns[c % width]));
            finding& f = add("example-failure", severity::error, rule.name,
                             "chances `" + rule.name + "`: the engine cannot follow the rules exactly for every cell");
            f.elements.push_back({"rule", rule.name, rule.prov});
            f.witness = where;
            f.witness.push_back("players = " + std::to_string(players));
            f.replay = "confirmed: the engine, running the `given` from the start of a game, stops (" + grid.cells[c].error + ")";
            break;  // one cell says it; the others would repeat it
        }
    }
}

}  // namespace wp::verify
