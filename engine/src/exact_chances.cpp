// Odds computed from the rules (docs/language.md §7, `chances`): a `given` run through every
// result of every roll it makes, each branch weighted by its chance. Branches that reach the
// same state (values, zones, the frames still to run and their locals) are merged, so a tower of
// a dozen cubes, one die each, is a few hundred states a step rather than 6^12 runs.
#include "interp.hpp"

#include <unordered_map>

namespace wp::engine {

namespace {

template <class V>
void put_all(std::string& key, const V& v) {
    const std::size_t n = v.size();
    key.append(reinterpret_cast<const char*>(&n), sizeof n);
    if (n) key.append(reinterpret_cast<const char*>(v.data()), n * sizeof(v[0]));
}

template <class T>
void put_one(std::string& key, const T& v) {
    key.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

double probe::chance_of(ir::id rule, const std::vector<std::int64_t>& args, std::size_t most_states) {
    const ir::rule& r = g_->ruleset().rules.at(rule);
    if (r.kind != ir::rule_kind::chances) throw engine_error("probe: rule " + r.name + " is not `chances`");
    state& start = *s_;
    start.pending_player_ = 0;  // P1 is the active player outside a loop over the players
    start.exact_ = true;
    std::vector<std::int64_t> locals(std::max<std::size_t>(r.locals.size(), args.size()), -1);
    std::copy(args.begin(), args.end(), locals.begin());
    const std::uint32_t fb = region(locals);
    const std::size_t depth = start.frames_.size();
    const std::size_t rules_mark = start.rule_stack_.size();
    if (r.body != ir::no_id) interp(start).push_frame(state::frame_kind::list, r.body, fb);

    // Runs s to its next chance node (true) or to the end of the `given` (false).
    auto advance = [&](state& s) {
        for (std::uint64_t steps = 0;; ++steps) {
            if (s.pending_ == state::pending_kind::terminal) return false;
            if (s.pending_ == state::pending_kind::decision)
                throw engine_error("the `given` asks for a decision, which `chances` cannot answer");
            if (s.pending_ != state::pending_kind::none) return true;
            if (s.frames_.size() <= depth) return false;
            if (steps > 10'000'000) throw engine_error("the `given` does not finish");
            const std::size_t locals_mark = s.locals_.size(), loop_mark = s.loop_store_.size();
            s.step_cursor_ = 0;
            try {
                interp(s).step();
            } catch (const state::need_chance&) {
                // as state::run(): the step runs again from its start with the result chosen
                cut(s.rule_stack_, rules_mark);
                for (ir::id f : s.fire_log_) --s.fires_[f];
                s.fire_log_.clear();
                cut(s.locals_, locals_mark);
                cut(s.loop_store_, loop_mark);
                s.scratch_.clear();
                return true;
            }
            s.step_results_.clear();
            s.fire_log_.clear();
        }
    };
    auto merge_key = [](const state& s) {
        std::string key;
        put_all(key, s.values_);
        put_all(key, s.contents_);
        put_all(key, s.zone_size_);
        put_all(key, s.locals_);
        put_all(key, s.loop_store_);
        put_all(key, s.step_results_);
        put_all(key, s.scratch_);
        put_all(key, s.targets_);
        put_all(key, s.rule_stack_);
        put_all(key, s.held_rolls_);
        put_all(key, s.secret_base_);
        put_one(key, s.end_at_);
        put_one(key, s.pending_);
        for (const state::frame& f : s.frames_) {
            put_one(key, f.node);
            put_one(key, f.pc);
            put_one(key, f.fb);
            put_one(key, f.mark);
            put_one(key, f.aux);
            put_one(key, f.aux_len);
            put_one(key, f.kind);
            put_one(key, f.round);
        }
        return key;
    };

    // The probe as it was, whether the `given` was followed to its end or not.
    auto restore = [&] {
        start.frames_.resize(depth);
        cut(start.rule_stack_, rules_mark);
        cut(start.locals_, fb);
        start.exact_ = false;
    };
    double holds = 0;
    struct branch {
        state s;
        double weight;
    };
    std::vector<branch> now;
    now.push_back({start, 1.0});
    try {
        while (!now.empty()) {
            std::vector<branch> next;
            std::unordered_map<std::string, std::size_t> seen;
            for (branch& b : now) {
                if (!advance(b.s)) {
                    b.s.frames_.resize(std::min(b.s.frames_.size(), depth));
                    if (interp(b.s).eval(r.value, fb) != 0) holds += b.weight;
                    continue;
                }
                const std::vector<std::int64_t> options = b.s.options_;
                const std::vector<std::uint64_t> weights = b.s.weights_;
                const double total = static_cast<double>(b.s.weight_total_);
                const bool roll = b.s.pending_ == state::pending_kind::chance_roll;
                for (std::size_t i = 0; i < options.size(); ++i) {
                    branch c{b.s, b.weight * static_cast<double>(weights[i]) / total};
                    if (roll) {
                        c.s.step_results_.push_back(options[i]);
                        c.s.pending_ = state::pending_kind::none;
                        c.s.options_.clear();
                        c.s.weights_.clear();
                    } else {
                        interp(c.s).resolve_pending(static_cast<int>(i));
                    }
                    std::string key = merge_key(c.s);
                    if (auto it = seen.find(key); it != seen.end()) {
                        next[it->second].weight += c.weight;
                        continue;
                    }
                    seen.emplace(std::move(key), next.size());
                    next.push_back(std::move(c));
                    if (next.size() > most_states)
                        throw engine_error("more than " + std::to_string(most_states) +
                                           " different states at once: too many to follow exactly");
                }
            }
            now = std::move(next);
        }
    } catch (...) {
        restore();
        throw;
    }
    restore();
    return holds;
}

chances_grid compute_chances(const game& g, ir::id rule) {
    const ir::ruleset& rs = g.ruleset();
    const ir::rule& r = rs.rules.at(rule);
    chances_grid out;
    auto values = [&](ir::id type) {
        std::vector<std::int64_t> v;
        const ir::type& t = rs.types.at(type);
        if (t.kind == ir::type_kind::range)
            for (std::int64_t x = t.lo; x <= t.hi; ++x) v.push_back(x);
        else if (t.kind == ir::type_kind::enumeration)
            for (std::size_t x = 0; x < rs.enums.at(t.ref).members.size(); ++x) v.push_back(static_cast<std::int64_t>(x));
        else if (t.kind == ir::type_kind::boolean)
            v = {0, 1};
        return v;
    };
    if (r.param_count >= 1) out.rows = values(r.locals[0].type);
    out.columns = r.param_count >= 2 ? values(r.locals[1].type) : std::vector<std::int64_t>{0};
    for (const std::int64_t row : out.rows)
        for (const std::int64_t column : out.columns) {
            chances_grid::cell c;
            try {
                probe p(g);
                p.start();
                std::vector<std::int64_t> args{row};
                if (r.param_count >= 2) args.push_back(column);
                c.chance = p.chance_of(rule, args);
            } catch (const engine_error& e) {
                c.error = e.what();
            }
            out.cells.push_back(std::move(c));
        }
    return out;
}

}  // namespace wp::engine
