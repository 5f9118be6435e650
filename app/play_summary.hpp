// The end of a game as `play` and `replay` print it.
#pragma once

#include "cli.hpp"

#include <ostream>

#include "westphalia/engine/log.hpp"

namespace wp::cli {

// The account's first line, printed even with --quiet so that every game can be played
// again: "contractor_cards: 2 players, seed 3, random agents" ("agents P1 human, P2 random"
// when the seats differ).
inline void print_game_header(std::ostream& out, const std::string& ruleset, int players, std::uint64_t seed,
                              const std::vector<std::string>& agents) {
    out << ruleset << ": " << players << " players, seed " << seed << ", ";
    if (agents.size() <= 1) {
        out << (agents.empty() ? "random" : agents[0]) << " agents\n";
        return;
    }
    out << "agents";
    for (std::size_t p = 0; p < agents.size(); ++p) out << (p ? ", P" : " P") << p + 1 << ' ' << agents[p];
    out << '\n';
}

// "end: … after N decisions", "winners: …", then one line per player with every per-player
// state field: "P1: gold=12 reputation=3".
// `viewer` >= 0: as that seat sees it (other seats' hidden fields left out).
inline void print_summary(std::ostream& out, const engine::play_result& r, int viewer = -1) {
    out << "end: " << r.end_reason << " after " << r.decisions << " decisions\n";
    out << "winners:";
    if (r.winners.empty()) out << " none";
    for (int w : r.winners) out << " P" << w + 1;
    out << '\n';
    if (!r.invariant_violations.empty()) {
        out << "invariants broken:\n";
        for (const std::string& v : r.invariant_violations) out << "  " << v << '\n';
    }
    if (!r.queries.empty() && viewer < 0) {  // a seat's own view: a query may read what it cannot see
        out << "queries:\n";
        for (const std::string& q : r.queries) out << "  " << q << '\n';
    }
    if (!r.final_state) return;
    for (int p = 0; p < r.final_state->the_game().players(); ++p) {
        const auto fields = engine::player_fields(*r.final_state, p, viewer);
        if (fields.empty()) continue;
        out << 'P' << p + 1 << ':';
        for (const auto& [name, value] : fields) out << ' ' << name << '=' << value;
        out << '\n';
    }
}

}  // namespace wp::cli
