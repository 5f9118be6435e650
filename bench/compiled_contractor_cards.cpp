// The generated game (contractor_cards_compiled.cpp, in the build folder) behind a small API.
#include "compiled_contractor_cards.hpp"

#include "contractor_cards_compiled.cpp"

namespace wp::bench {

static_assert(wp_contractor_cards::WP_MAXP <= compiled_max_players);

compiled_outcome play_compiled_contractor_cards(std::uint64_t seed, std::uint64_t agent_seed, int players,
                                                std::uint32_t gold_slot, std::uint64_t max_decisions) {
    static wp_contractor_cards::game_state state;
    const wp_contractor_cards::outcome o = wp_contractor_cards::play(state, players, seed, agent_seed, max_decisions);
    compiled_outcome out;
    out.decisions = o.decisions;
    out.end_reason = o.end_reason;
    out.error = o.error;
    out.winners = o.winners;
    for (int p = 0; p < players && p < compiled_max_players; ++p) out.gold[p] = state.value(gold_slot, p);
    return out;
}

}  // namespace wp::bench
