// Agents and the game driver.
#include "westphalia/engine/engine.hpp"

#include <algorithm>

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

void note_invariant_violations(const state& s, std::vector<std::string>& seen, bool in_steps_only) {
    auto noted = [&](const std::string& name) {
        return std::any_of(seen.begin(), seen.end(), [&](const std::string& v) { return v.rfind(name + " ", 0) == 0; });
    };
    // inside a step first (state_options::check_in_steps): they happened before the decision's end
    for (const step_violation& v : s.in_step_violations())
        if (!noted(v.invariant))
            seen.push_back(v.invariant + " at " + v.place + " after decision " + std::to_string(v.decisions) +
                           (v.cause.empty() ? "" : " (last changed by " + v.cause + ")"));
    if (in_steps_only) return;
    for (const std::string& name : s.violated_invariants()) {
        if (noted(name)) continue;
        const std::string cause = s.last_change(name);
        seen.push_back(name + " after decision " + std::to_string(s.decisions()) +
                       (cause.empty() ? "" : " (last changed by " + cause + ")"));
    }
}

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
            if (options.check_invariants) note_invariant_violations(s, result.invariant_violations);
        }
        if (options.check_invariants) note_invariant_violations(s, result.invariant_violations);
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
