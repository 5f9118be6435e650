// The end of a game as `play` and `replay` print it.
#pragma once

#include "cli.hpp"

#include "westphalia/engine/log.hpp"

namespace wp::cli {

// "end: … after N decisions", "winners: …", then one line per player with every per-player
// state field: "P1: gold=12 reputation=3".
inline void print_summary(context& ctx, const engine::play_result& r) {
    ctx.out << "end: " << r.end_reason << " after " << r.decisions << " decisions\n";
    ctx.out << "winners:";
    if (r.winners.empty()) ctx.out << " none";
    for (int w : r.winners) ctx.out << " P" << w + 1;
    ctx.out << '\n';
    if (!r.final_state) return;
    for (int p = 0; p < r.final_state->the_game().players(); ++p) {
        const auto fields = engine::player_fields(*r.final_state, p);
        if (fields.empty()) continue;
        ctx.out << 'P' << p + 1 << ':';
        for (const auto& [name, value] : fields) ctx.out << ' ' << name << '=' << value;
        ctx.out << '\n';
    }
}

}  // namespace wp::cli
