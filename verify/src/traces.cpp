// Games from setup that meet a finding: the faults of the checker's games, and aimed play.
#include "traces.hpp"

#include "accepts.hpp"

#include <algorithm>
#include <set>

namespace wp::verify::detail {

std::string game_trace(const ir::ruleset& rs, int players, const engine::sim_message& first, const std::string& agent) {
    const bool as_default = std::all_of(rs.options.begin(), rs.options.end(),
                                        [](const ir::option& o) { return o.selected_index == o.default_index; });
    // The stack the game was played on: `play` needs the same cut and expansions to play it again.
    std::string stack = rs.upto.empty() ? "" : " --upto " + rs.upto;
    std::string with;
    for (const ir::expansion& e : rs.expansions)
        if (e.selected) with += (with.empty() ? "" : ",") + e.name;
    if (!with.empty()) stack += " --with " + with;
    return "game " + std::to_string(first.game) + " of the checker's " + (agent.empty() ? "random" : agent) + " play, " +
           first.text + ": `westphalia play" + stack + " --players " + std::to_string(players) + " --seed " +
           std::to_string(first.seed) + (agent.empty() ? "" : " --agent " + agent) + "` plays it again" +
           (as_default ? "" : ", with the options as checked");
}

void note_faults(const ir::ruleset& rs, const engine::sim_report& r, int players, const std::string& agent,
                 check_result& out) {
    for (const engine::sim_fault& x : r.faults) {
        ir::provenance at;
        if (x.fault.node < rs.nodes.size()) {
            at.where = rs.nodes[x.fault.node].where;
            at.layer = rs.nodes[x.fault.node].layer;
        }
        const bool known = std::any_of(out.faults.begin(), out.faults.end(), [&](const fault_met& m) {
            return m.kind == x.fault.kind && m.subject == x.fault.subject && m.side == x.fault.side && m.at.where == at.where;
        });
        if (known) continue;
        const std::string trace = game_trace(rs, players, x.first, agent) + " (" + std::to_string(x.games) + " of " +
                                  std::to_string(r.games) + " games met it)";
        out.faults.push_back({x.fault.kind, x.fault.subject, x.fault.side, at, players, x.first.game, x.first.seed, x.games,
                              r.games, x.first.text, trace, x.message});
    }
}

void aimed_play(const ir::ruleset& rs, const check_options& options,
                std::optional<std::chrono::steady_clock::time_point> deadline, check_result& out) {
    const std::uint64_t games = sim_games_for(rs, options);
    if (games == 0 || rs.sequences.empty()) return;
    std::set<std::pair<std::string, std::string>> aims;  // field, side
    // (not at a violation the ruleset accepts: as its witness, not searched for; on Contractor
    // Cards' full stack its four accepted bounds' aims took 1.1 s after both parts, for nothing)
    for (const finding& f : out.findings)
        if (f.kind == "bound-violation" && f.reach == reach_kind::not_shown && !f.side.empty() && !accepted(rs, f))
            aims.insert({f.subject, f.side});
    const int fewest = static_cast<int>(std::max<std::int64_t>(1, rs.min_players));
    for (const auto& [field, side] : aims) {
        const std::string agent = "toward:" + field + ":" + side;
        // at most 20 s an aim, within the check's budget: a big game's look-ahead is dear
        auto stop = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        if (deadline) stop = std::min(stop, *deadline);
        for (int players : std::set<int>{fewest, std::max(fewest, out.players_checked)}) {
            if (std::chrono::steady_clock::now() > stop) break;
            engine::sim_options so;
            so.games = games;
            so.players = players;
            so.seed = 3;  // apart from the random play's seeds (1, and 2 for the queries)
            // the parts' threads are free again: the games are merged in game order, so the
            // faults met are the same on any number of threads (the deadline aside)
            so.threads = options.threads();
            so.agent = agent;
            so.check_invariants = false;
            so.max_decisions = 100000;
            so.deadline = stop;
            try {
                note_faults(rs, engine::simulate(rs, so), players, agent, out);
            } catch (const std::exception&) {
                // a game that cannot be set up gives no trace
            }
        }
    }
}

}  // namespace wp::verify::detail
