// The agents that look ahead: greedy (one ply) and Monte Carlo tree search, and the computer
// agents by name.
#include "westphalia/engine/search_agents.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace wp::engine {

state state::lookahead(std::uint64_t seed) const {
    state copy(*this);
    copy.rng_.s = seed;
    copy.opt_.sampled_chance = true;
    copy.opt_.trace = nullptr;
    copy.opt_.track_changes = false;
    copy.opt_.check_in_steps = false;
    copy.opt_.track_coverage = false;
    copy.opt_.deadline.reset();
    copy.ran_.clear();
    copy.keys_read_.clear();
    copy.value_writer_.clear();
    copy.value_time_.clear();
    copy.zone_writer_.clear();
    copy.zone_time_.clear();
    return copy;
}

namespace {

// Runs a look-ahead copy through any chance nodes to the next decision or the end.
void settle(state& s) {
    while (!s.is_terminal() && s.is_chance_node()) s.apply_sampled();
}

}  // namespace

std::vector<double> seat_values(const state& s) {
    std::vector<double> values(static_cast<std::size_t>(s.the_game().players()), 0.0);
    std::vector<int> winners;
    try {
        winners = s.winners();
    } catch (const engine_error&) {
        return values;  // the rules cannot say who is ahead here
    }
    for (int w : winners)
        if (w >= 0 && static_cast<std::size_t>(w) < values.size())
            values[static_cast<std::size_t>(w)] = 1.0 / static_cast<double>(winners.size());
    return values;
}

// ------------------------------------------------------------------ greedy

int greedy_agent::act(const seat_view& v, rng& r) {
    const std::size_t n = v.num_actions();
    if (n <= 1) return 0;
    const state& s = v.seen();
    const auto me = static_cast<std::size_t>(s.current_player());
    const std::uint64_t dice = r.next();  // the same dice after every action: a fair comparison
    double best = -1;
    std::vector<int> best_actions;
    for (std::size_t a = 0; a < n; ++a) {
        double value = -1;  // an action the engine refuses is the worst
        try {
            state x = s.lookahead(dice);
            x.apply(static_cast<int>(a));
            settle(x);
            value = seat_values(x)[me];
        } catch (const engine_error&) {
        }
        if (value > best) {
            best = value;
            best_actions.clear();
        }
        if (value == best) best_actions.push_back(static_cast<int>(a));
    }
    return best_actions[r.below(best_actions.size())];
}

// ------------------------------------------------------------------ toward a field's side

int toward_agent::act(const seat_view& v, rng& r) {
    const std::size_t n = v.num_actions();
    const state& s = v.seen();
    if (slot_ == ir::no_id) {
        const ir::ruleset& rs = s.the_game().ruleset();
        for (ir::id i = 0; i < rs.slots.size() && slot_ == ir::no_id; ++i)
            if (rs.slots[i].name == field_) slot_ = i;
        if (slot_ == ir::no_id) throw engine_error("the agent toward:" + field_ + " names no field of " + rs.name);
    }
    if (n <= 1) return 0;
    if (r.below(4) == 0) return static_cast<int>(r.below(n));
    const std::uint64_t dice = r.next();  // the same dice after every action: a fair comparison
    // the score: how far toward the side the field is (the value itself, negated for below);
    // an action that takes it out of range scores above every value
    auto score = [&](std::int64_t x) { return below_ ? -static_cast<double>(x) : static_cast<double>(x); };
    double best = -std::numeric_limits<double>::infinity();
    std::vector<int> best_actions;
    for (std::size_t a = 0; a < n; ++a) {
        double value = -std::numeric_limits<double>::infinity();  // another error is the worst
        try {
            state x = s.lookahead(dice);
            x.apply(static_cast<int>(a));
            settle(x);
            value = score(x.slot_extreme(slot_, below_));
        } catch (const engine_error& e) {
            if (e.fault.kind == "bound-violation" && e.fault.subject == field_ && e.fault.side == (below_ ? "below" : "above"))
                value = std::numeric_limits<double>::max();
        }
        if (value > best) {
            best = value;
            best_actions.clear();
        }
        if (value == best) best_actions.push_back(static_cast<int>(a));
    }
    return best_actions[r.below(best_actions.size())];
}

// ------------------------------------------------------------------ Monte Carlo tree search

std::uint32_t mcts_agent::add_node(int player, std::uint32_t actions) {
    node n;
    n.player = player;
    n.actions = actions;
    n.first_edge = static_cast<std::uint32_t>(edges_.size());
    edges_.resize(edges_.size() + actions);
    nodes_.push_back(n);
    return static_cast<std::uint32_t>(nodes_.size() - 1);
}

std::uint32_t mcts_agent::select(const node& n, rng& r) const {
    // An action never tried first (one of them at random), then the upper confidence bound.
    std::uint32_t untried = 0;
    for (std::uint32_t a = 0; a < n.actions; ++a) untried += edges_[n.first_edge + a].visits == 0;
    if (untried > 0) {
        std::uint64_t k = r.below(untried);
        for (std::uint32_t a = 0; a < n.actions; ++a)
            if (edges_[n.first_edge + a].visits == 0 && k-- == 0) return a;
    }
    const double log_n = std::log(static_cast<double>(std::max<std::uint32_t>(n.visits, 1)));
    double best = -std::numeric_limits<double>::infinity();
    std::uint32_t choice = 0;
    for (std::uint32_t a = 0; a < n.actions; ++a) {
        const edge& e = edges_[n.first_edge + a];
        const double visits = static_cast<double>(e.visits);
        const double score = e.value / visits + std::sqrt(2.0 * log_n / visits);
        if (score > best) {
            best = score;
            choice = a;
        }
    }
    return choice;
}

int mcts_agent::act(const seat_view& v, rng& r) {
    const std::size_t n = v.num_actions();
    if (n <= 1) return 0;
    const state& s = v.seen();
    nodes_.clear();
    edges_.clear();
    add_node(s.current_player(), static_cast<std::uint32_t>(n));
    std::vector<std::pair<std::uint32_t, std::uint32_t>> path;  // (node, action)
    for (std::uint32_t it = 0; it < iterations_; ++it) {
        rng playout{r.next()};
        path.clear();
        std::vector<double> values;
        try {
            state x = s.lookahead(playout.next());
            std::uint32_t at = 0;
            // Down the tree while the dice lead where the node's first visit went.
            while (true) {
                const std::uint32_t a = select(nodes_[at], playout);
                path.emplace_back(at, a);
                x.apply(static_cast<int>(a));
                settle(x);
                const std::uint32_t e = nodes_[at].first_edge + a;
                if (x.is_terminal()) break;
                if (edges_[e].child < 0) {
                    const std::uint32_t child = add_node(x.current_player(), static_cast<std::uint32_t>(x.num_actions()));
                    edges_[e].child = static_cast<std::int32_t>(child);
                    break;
                }
                at = static_cast<std::uint32_t>(edges_[e].child);
                if (x.current_player() != nodes_[at].player || x.num_actions() != nodes_[at].actions) break;
            }
            // Then random play.
            for (std::uint32_t d = 0; !x.is_terminal() && (depth_ == 0 || d < depth_); ++d) {
                x.apply(static_cast<int>(playout.below(std::max<std::size_t>(x.num_actions(), 1))));
                settle(x);
            }
            values = seat_values(x);
        } catch (const engine_error&) {
            values.assign(static_cast<std::size_t>(s.the_game().players()), 0.0);  // the rules broke: worth nothing
        }
        for (const auto& [at, a] : path) {
            node& nd = nodes_[at];
            edge& e = edges_[nd.first_edge + a];
            ++nd.visits;
            ++e.visits;
            e.value += values[static_cast<std::size_t>(nd.player)];
        }
    }
    // The most visited action; between equals the better valued, then one at random (never
    // the first by habit: when nothing separates the actions, that would play first-legal).
    const node& root = nodes_[0];
    std::vector<std::uint32_t> best{0};
    for (std::uint32_t a = 1; a < root.actions; ++a) {
        const edge& e = edges_[root.first_edge + a];
        const edge& c = edges_[root.first_edge + best[0]];
        if (e.visits > c.visits || (e.visits == c.visits && e.value > c.value)) best.assign(1, a);
        else if (e.visits == c.visits && e.value == c.value) best.push_back(a);
    }
    return static_cast<int>(best[r.below(best.size())]);
}

// ------------------------------------------------------------------ by name

namespace {

// A whole number from..to written in decimal digits only.
std::optional<std::uint32_t> whole(const std::string& text, std::uint32_t from, std::uint32_t to) {
    if (text.empty() || text.size() > 9) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (v < from || v > to) return std::nullopt;
    return static_cast<std::uint32_t>(v);
}

struct mcts_spec {
    std::uint32_t iterations = 0, depth = default_rollout_depth;
};

std::optional<mcts_spec> parse_mcts(const std::string& name) {
    if (name.rfind("mcts:", 0) != 0) return std::nullopt;
    const std::string rest = name.substr(5);
    const std::size_t colon = rest.find(':');
    const auto iterations = whole(rest.substr(0, colon), 1, 1'000'000);
    if (!iterations) return std::nullopt;
    mcts_spec spec;
    spec.iterations = *iterations;
    if (colon != std::string::npos) {
        const auto depth = whole(rest.substr(colon + 1), 0, 1'000'000);
        if (!depth) return std::nullopt;
        spec.depth = *depth;
    }
    return spec;
}

// `toward:FIELD:below` or `toward:FIELD:above`: the field and whether below.
std::optional<std::pair<std::string, bool>> parse_toward(const std::string& name) {
    if (name.rfind("toward:", 0) != 0) return std::nullopt;
    const std::size_t colon = name.rfind(':');
    if (colon <= 7) return std::nullopt;
    const std::string field = name.substr(7, colon - 7), side = name.substr(colon + 1);
    if (field.empty() || field.find(':') != std::string::npos || (side != "below" && side != "above")) return std::nullopt;
    return std::make_pair(field, side == "below");
}

}  // namespace

std::string agent_problem(const std::string& name) {
    if (name == "random" || name == "first" || name == "greedy" || parse_mcts(name) || parse_toward(name)) return {};
    if (name.rfind("toward", 0) == 0)
        return "`" + name + "` is not a toward agent: toward:FIELD:below or toward:FIELD:above";
    if (name.rfind("mcts", 0) == 0)
        return "`" + name + "` is not an MCTS agent: mcts:ITERATIONS (1 to 1000000) or mcts:ITERATIONS:DEPTH "
               "(DEPTH 0 to 1000000 decisions per playout, 0 to the end; default " +
               std::to_string(default_rollout_depth) + ")";
    return "`" + name + "` is not an agent: random, first, greedy, mcts:ITERATIONS[:DEPTH] or toward:FIELD:below|above";
}

std::string agent_problem(const std::string& name, const ir::ruleset& rs) {
    const auto aim = parse_toward(name);
    if (!aim) return agent_problem(name);
    for (const ir::slot& sl : rs.slots)
        if (sl.name == aim->first) return {};
    return "`" + name + "` names no field of " + rs.name;
}

std::unique_ptr<agent> make_agent(const std::string& name) {
    if (name == "random") return std::make_unique<random_agent>();
    if (name == "first") return std::make_unique<first_legal_agent>();
    if (name == "greedy") return std::make_unique<greedy_agent>();
    if (const auto spec = parse_mcts(name)) return std::make_unique<mcts_agent>(spec->iterations, spec->depth);
    if (const auto aim = parse_toward(name)) return std::make_unique<toward_agent>(aim->first, aim->second);
    throw std::invalid_argument(agent_problem(name));
}

}  // namespace wp::engine
