// Agents that look ahead with the engine: a one-ply greedy agent and Monte Carlo tree search,
// both judging a position by the rules' own `wins` decision. Both are seeded only by the
// generator the driver hands them (play_game, the simulator): the same game seed gives the same
// choices on every run and every thread count. Both search from their seat's view (seat_view:
// hidden cards dealt in a fixed order, other seats' hidden fields and secret plans as their
// fixed stand-ins), never from the state itself.
#pragma once

#include "westphalia/engine/engine.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wp::engine {

// What a position is worth to each seat: 1/k to each of its k winners by the `wins` decision
// (at the end, or as if the game ended now), 0 to the others; 0 to every seat when nobody wins,
// when the ruleset has no `wins` decision, or when the decision stops with an engine error.
std::vector<double> seat_values(const state& s);

// Tries every legal action once on a copy (the same dice for each) and takes one of those after
// which its seat is worth the most (seat_values); a tie is broken by the generator.
class greedy_agent : public agent {
public:
    int act(const seat_view& v, rng& r) override;
};

// Play aimed at a field's side: `toward:FIELD:below` (or `:above`). One ply ahead, like greedy,
// it takes the action after which the field is lowest (highest) anywhere, or that makes the
// engine stop with that field out of its range; one decision in four it takes any action at
// random, so that play still goes everywhere. The checker plays it to find a game from setup
// for a bound violation random play does not meet (docs/checker.md). A field the ruleset does
// not have is an engine error at the first decision.
class toward_agent : public agent {
public:
    toward_agent(std::string field, bool below) : field_(std::move(field)), below_(below) {}
    int act(const seat_view& v, rng& r) override;

private:
    std::string field_;
    bool below_;
    ir::id slot_ = ir::no_id;
};

// UCT over the engine's states: `iterations` playouts per decision, each from a copy of the
// state with dice of its own. The tree is open-loop (a node is a sequence of actions); where the
// dice lead to a different decision than the node recorded, the playout leaves the tree. A
// playout plays random actions for at most `rollout_depth` decisions (0: to the end) and scores
// the position it reaches with seat_values. Each node's seat picks the action maximising its
// own mean value plus sqrt(2 ln N / n). The action played is the root's most visited (ties: the
// better valued, then one drawn by the generator). A decision with one legal action is taken without search.
class mcts_agent : public agent {
public:
    mcts_agent(std::uint32_t iterations, std::uint32_t rollout_depth) : iterations_(iterations), depth_(rollout_depth) {}
    int act(const seat_view& v, rng& r) override;

private:
    struct node {
        int player = 0;
        std::uint32_t actions = 0;
        std::uint32_t first_edge = 0;
        std::uint32_t visits = 0;
    };
    struct edge {
        std::int32_t child = -1;
        std::uint32_t visits = 0;
        double value = 0;  // summed over the visits, for the seat of the edge's node
    };
    std::uint32_t add_node(int player, std::uint32_t actions);
    std::uint32_t select(const node& n, rng& r) const;

    std::uint32_t iterations_;
    std::uint32_t depth_;
    std::vector<node> nodes_;
    std::vector<edge> edges_;
};

// The computer agents by name: `random`, `first`, `greedy`, `mcts:ITERATIONS` or
// `mcts:ITERATIONS:DEPTH` (ITERATIONS 1..1000000, DEPTH 0..1000000, default 100).
// agent_problem() explains why a name is not one of them (empty when it is); make_agent()
// builds one (std::invalid_argument on a bad name).
std::string agent_problem(const std::string& name);
// The same, and a `toward` agent's field must be one of rs's.
std::string agent_problem(const std::string& name, const ir::ruleset& rs);
std::unique_ptr<agent> make_agent(const std::string& name);
inline constexpr std::uint32_t default_rollout_depth = 100;

}  // namespace wp::engine
