// Agents and the game driver.
#include "westphalia/engine/engine.hpp"

namespace wp::engine {

const state& seat_view::seen() const {
    if (!s_->the_game().has_hidden) return *s_;
    if (!copy_) copy_ = std::make_unique<state>(s_->masked_for(seat_));
    return *copy_;
}

int random_agent::act(const seat_view& v, rng& r) {
    const std::size_t n = v.num_actions();
    return n == 0 ? 0 : static_cast<int>(r.below(n));
}

namespace {

void note_violations(const state& s, std::vector<std::string>& seen) {
    for (const std::string& name : s.violated_invariants()) {
        bool known = false;
        for (const std::string& v : seen) known = known || v.rfind(name + " ", 0) == 0;
        if (known) continue;
        const std::string cause = s.last_change(name);
        seen.push_back(name + " after decision " + std::to_string(s.decisions()) +
                       (cause.empty() ? "" : " (last changed by " + cause + ")"));
    }
}

}  // namespace

play_result play_game(const ir::ruleset& rs, int players, std::uint64_t seed, const std::vector<agent*>& agents,
                      const play_options& options) {
    play_result result;
    try {
        auto g = std::make_shared<const game>(rs, players, options.options);
        result.the_game = g;
        state_options so;
        so.sampled_chance = options.sampled_chance;
        so.trace = options.trace;
        so.trace_verbose = options.trace_verbose;
        so.track_changes = options.check_invariants;
        // The state's generator and the agents' generator are separate streams of one seed.
        rng agent_rng{seed ^ 0xA5A5A5A5DEADBEEFull};
        result.final_state = std::make_unique<state>(*g, seed, so);
        state& s = *result.final_state;
        while (!s.is_terminal()) {
            if (s.is_chance_node()) {
                s.apply_sampled();
                continue;
            }
            if (s.decisions() >= options.max_decisions) break;
            const int seat = s.current_player();
            agent* a = agents.empty() ? nullptr
                                      : agents[agents.size() == 1 ? 0 : static_cast<std::size_t>(seat) % agents.size()];
            int choice = 0;
            if (a) choice = a->act(seat_view(s, seat), agent_rng);
            result.actions.push_back(choice);
            s.apply(choice);
            if (options.check_invariants) note_violations(s, result.invariant_violations);
        }
        if (options.check_invariants) note_violations(s, result.invariant_violations);
        result.end_reason = s.is_terminal() ? s.end_reason() : "decision limit";
        result.decisions = s.decisions();
        result.rule_fires = s.rule_fires();
        if (s.is_terminal()) result.winners = s.winners(&result.rule_fires);
    } catch (const engine_error& e) {
        result.error = e.what();
        if (result.final_state) {
            result.decisions = result.final_state->decisions();
            result.rule_fires = result.final_state->rule_fires();
        }
    }
    return result;
}

}  // namespace wp::engine
