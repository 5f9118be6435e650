// The state (engine.hpp): its storage and set-up, the play loop (run, apply, legal actions,
// chance outcomes), what it reports (winners, invariants, views, changes), the preparations made
// once per game with the interpreter (live rules, tabulated quantities and guards), and probes.
// The interpreter that runs a state is `struct interp` (interp.hpp), its parts in
// expressions.cpp, statements.cpp, rules.cpp, zones.cpp, maps.cpp and chance.cpp.
#include "westphalia/engine/engine.hpp"

#include "interp.hpp"

#include <algorithm>
#include <limits>
#include <chrono>
#include <sstream>

namespace wp::engine {

// ------------------------------------------------------------------ state

state::state(const game& g, std::uint64_t seed, state_options options)
    : g_(&g), rs_(&g.ruleset()), opt_(options) {
    rng_.s = seed;
    const ir::ruleset& rs = *rs_;
    set_up_storage();
    fires_.assign(rs.rules.size(), 0);
    if (opt_.track_coverage) {
        ran_.assign(rs.nodes.size(), 0);
        keys_read_.assign(g.table_key_first.back(), 0);
    }
    // Room for the stacks up front, so that the play loop does not grow them step by step.
    locals_.reserve(256);
    loop_store_.reserve(256);
    scratch_.reserve(256);
    frames_.reserve(64);
    rule_stack_.reserve(64);
    fire_log_.reserve(64);
    options_.reserve(32);
    weights_.reserve(32);
    targets_.reserve(16);
    end_reason_.reserve(64);
    pending_end_.reserve(64);
    if (opt_.track_changes) {
        value_writer_.assign(values_.size(), ir::no_id);
        value_time_.assign(values_.size(), 0);
        zone_writer_.assign(zone_size_.size(), ir::no_id);
        zone_time_.assign(zone_size_.size(), 0);
    }
    const ir::sequence& seq = rs.sequences[g.main_sequence];
    locals_.assign(seq.locals.size(), -1);
    frame f;
    f.node = seq.body;
    f.mark = npos;
    interp::list_span(g, f);
    frames_.push_back(f);
    if (!opt_.deferred_start) run();
}

// The initial values, and every entity in the first zone declared for its kind.
void state::set_up_storage() {
    const game& g = *g_;
    const ir::ruleset& rs = *rs_;
    values_.assign(g.value_count, 0);
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        const std::int64_t init = g.initial_value(sl);
        const game::slot_layout& l = g.slots[sl];
        const std::uint32_t copies =
            sl + 1 < rs.slots.size() ? (g.slots[sl + 1].offset - l.offset) / l.width : (g.value_count - l.offset) / l.width;
        for (std::uint32_t i = 0; i < copies * l.width; ++i) values_[l.offset + i] = init;
    }
    contents_.assign(g.contents_size, -1);
    zone_size_.assign(g.zone_instance_zone.size(), 0);
    for (id k = 0; k < rs.entity_kinds.size(); ++k) {
        for (id z = 0; z < rs.zones.size(); ++z) {
            if (rs.zones[z].entity_kind != k) continue;
            const std::uint32_t zi = g.zone_first[z];
            for (std::uint32_t i = 0; i < g.kind_count[k]; ++i)
                contents_[g.zone_capacity_offset[zi] + zone_size_[zi]++] = static_cast<std::int32_t>(g.kind_first[k] + i);
            break;
        }
    }
}

state::state(const game& g, unstarted) : g_(&g), rs_(&g.ruleset()) {
    values_.assign(g.value_count, 0);
    contents_.assign(g.contents_size, -1);
    zone_size_.assign(g.zone_instance_zone.size(), 0);
    fires_.assign(rs_->rules.size(), 0);
}

namespace {

// Whether expression n reads nothing but its element's first `params` locals, entity
// attributes, constants, options and tabulable quantities (so its value depends on those
// parameters alone). `pure` holds the quantities found so: 1 yes, 0 no, 2 being looked at.
bool reads_only_parameters(const ir::ruleset& rs, id n, std::uint32_t params, std::vector<std::uint8_t>& pure,
                           const game& g);

bool quantity_is_pure(const ir::ruleset& rs, id q, std::vector<std::uint8_t>& pure, const game& g) {
    if (pure[q] != 3) return pure[q] == 1;
    pure[q] = 2;  // a cycle through here is not pure
    const bool modified = g.group_of_quantity[q] != ir::no_id && !g.live_rules[g.group_of_quantity[q]].empty();
    const ir::derived& d = rs.quantities[q];
    const bool p = !modified && reads_only_parameters(rs, d.expr, d.param_count, pure, g);
    pure[q] = p ? 1 : 0;
    return p;
}

bool reads_only_parameters(const ir::ruleset& rs, id n, std::uint32_t params, std::vector<std::uint8_t>& pure,
                           const game& g) {
    if (n == ir::no_id) return true;
    const ir::node& nd = rs.nodes[n];
    auto children = [&] {
        for (std::uint32_t i = 0; i < nd.child_count; ++i)
            if (!reads_only_parameters(rs, rs.children[nd.first_child + i], params, pure, g)) return false;
        return true;
    };
    switch (nd.code) {
        case op::absent:
        case op::const_int:
        case op::const_bool:
        case op::const_string:
        case op::const_member:
        case op::const_entity:
        case op::const_node:
        case op::option: return true;
        case op::local: return nd.ref < params;
        case op::attribute:
        case op::neg:
        case op::not_:
        case op::add:
        case op::sub:
        case op::mul:
        case op::div:
        case op::mod:
        case op::eq:
        case op::ne:
        case op::lt:
        case op::le:
        case op::gt:
        case op::ge:
        case op::and_:
        case op::or_:
        case op::cond: return children();
        case op::quantity: return quantity_is_pure(rs, nd.ref, pure, g) && children();
        case op::builtin: {
            const auto b = static_cast<ir::builtin>(nd.ref);
            const bool arithmetic = b == ir::builtin::min || b == ir::builtin::max || b == ir::builtin::abs ||
                                    b == ir::builtin::ceil_div || b == ir::builtin::floor_div;
            return arithmetic && children();
        }
        default: return false;
    }
}

}  // namespace

void prepare_rules(game& g) {
    const ir::ruleset& rs = g.ruleset();
    g.live_rules.clear();
    for (const ir::rule_group& gr : rs.groups) g.live_rules.push_back(gr.rules);  // until pruned below
    std::vector<std::uint8_t> pure(rs.quantities.size(), 3);
    state scratch(g, state::unstarted{});
    interp in(scratch);
    // A conjunct of the guard that reads no parameter and no state (options and constants only)
    // and is false under the chosen options makes the rule dead for the whole game.
    auto dead = [&](const ir::rule& r) {
        if (r.guard == ir::no_id) return false;
        std::vector<id> conjuncts{r.guard};
        while (!conjuncts.empty()) {
            const id c = conjuncts.back();
            conjuncts.pop_back();
            if (rs.nodes[c].code == op::and_) {
                conjuncts.push_back(rs.children[rs.nodes[c].first_child]);
                conjuncts.push_back(rs.children[rs.nodes[c].first_child + 1]);
                continue;
            }
            if (!reads_only_parameters(rs, c, 0, pure, g)) continue;
            try {
                const std::uint32_t fb = in.push_region(r.locals.size());
                const bool holds = in.eval(c, fb) != 0;
                scratch.locals_.resize(fb);
                if (!holds) return true;
            } catch (const engine_error&) {
                scratch.locals_.resize(0);  // left to the interpreter, which reports it
            }
        }
        return false;
    };
    std::vector<std::vector<id>> live(rs.groups.size());
    for (id gi = 0; gi < rs.groups.size(); ++gi)
        for (id r : rs.groups[gi].rules)
            if (!dead(rs.rules[r])) live[gi].push_back(r);
    g.live_rules = std::move(live);

    // `if` statements whose condition the options decide (errata that read an option).
    g.if_condition.assign(rs.nodes.size(), game::condition_varies);
    for (id n = 0; n < rs.nodes.size(); ++n) {
        if (rs.nodes[n].code != op::if_) continue;
        const id c = rs.children[rs.nodes[n].first_child];
        if (!reads_only_parameters(rs, c, 0, pure, g)) {
            ir::rule no_locals;
            no_locals.guard = c;
            if (dead(no_locals)) g.if_condition[n] = game::condition_false;  // a conjunct is false
            continue;
        }
        try {
            const std::uint32_t fb = in.push_region(0);
            g.if_condition[n] = in.eval(c, fb) != 0 ? game::condition_true : game::condition_false;
            scratch.locals_.resize(fb);
        } catch (const engine_error&) {
            scratch.locals_.resize(0);
        }
    }
}

namespace {

// Tabulates `value` (an evaluation in a region holding the parameters) over every combination of
// the first `params` locals' values; false when a parameter's type is not small and finite, the
// table would be too big, or some combination fails (left to the interpreter, which reports it).
template <class Value>
bool tabulate(const game& g, interp& in, const std::vector<ir::local>& locals, std::uint32_t params,
              Value value, game::tabulated& t) {
    const ir::ruleset& rs = g.ruleset();
    constexpr std::int64_t max_cells = 1 << 16;
    if (params == 0 || params > 16 || params > locals.size()) return false;
    std::int64_t cells = 1;
    for (std::uint32_t i = 0; i < params && cells <= max_cells; ++i) {
        const ir::type& ty = rs.types.at(locals[i].type);
        std::int64_t base = 0, size = 0;
        switch (ty.kind) {
            case ir::type_kind::entity:
                base = g.kind_first.at(ty.ref);
                size = g.kind_count.at(ty.ref);
                break;
            case ir::type_kind::enumeration: size = static_cast<std::int64_t>(rs.enums.at(ty.ref).members.size()); break;
            case ir::type_kind::boolean: size = 2; break;
            case ir::type_kind::player: size = g.players(); break;
            default: size = max_cells + 1; break;  // not a small finite type
        }
        t.bases.push_back(base);
        t.sizes.push_back(size);
        cells *= std::max<std::int64_t>(size, 1);
    }
    if (cells > max_cells || cells == 0) return false;
    try {
        for (std::int64_t cell = 0; cell < cells; ++cell) {
            const std::uint32_t fb = in.push_region(locals.size());
            std::int64_t rest = cell;
            for (std::size_t i = params; i-- > 0;) {
                in.L(fb, static_cast<id>(i)) = t.bases[i] + rest % t.sizes[i];
                rest /= t.sizes[i];
            }
            t.values.push_back(value(fb));
            in.drop_region(fb);
        }
    } catch (const engine_error&) {
        return false;
    }
    return true;
}

}  // namespace

void tabulate_quantities(game& g) {
    const ir::ruleset& rs = g.ruleset();
    g.quantity_tables.assign(rs.quantities.size(), {});
    std::vector<std::uint8_t> pure(rs.quantities.size(), 3);
    state scratch(g, state::unstarted{});
    interp in(scratch);
    for (id q = 0; q < rs.quantities.size(); ++q) {
        const ir::derived& d = rs.quantities[q];
        if (!quantity_is_pure(rs, q, pure, g)) continue;
        game::tabulated t;
        if (tabulate(g, in, d.locals, d.param_count, [&](std::uint32_t fb) { return in.eval(d.expr, fb); }, t))
            g.quantity_tables[q] = std::move(t);
    }
    // Rule guards: the conjuncts that read only the target's arguments, tabulated together.
    g.guard_tables.assign(rs.rules.size(), {});
    g.guard_is_tabulated.assign(rs.rules.size(), 0);
    for (id r = 0; r < rs.rules.size(); ++r) {
        const ir::rule& rule = rs.rules[r];
        if (rule.guard == ir::no_id || rule.group == ir::no_id) continue;
        std::vector<id> conjuncts{rule.guard}, fixed;
        bool all_fixed = true;
        while (!conjuncts.empty()) {
            const id c = conjuncts.back();
            conjuncts.pop_back();
            if (rs.nodes[c].code == op::and_) {
                conjuncts.push_back(rs.children[rs.nodes[c].first_child]);
                conjuncts.push_back(rs.children[rs.nodes[c].first_child + 1]);
            } else if (reads_only_parameters(rs, c, rule.param_count, pure, g)) {
                fixed.push_back(c);
            } else {
                all_fixed = false;
            }
        }
        if (fixed.empty()) continue;
        auto holds = [&](std::uint32_t fb) -> std::int64_t {
            for (id c : fixed)
                if (in.eval(c, fb) == 0) return 0;
            return 1;
        };
        game::tabulated t;
        if (!tabulate(g, in, rule.locals, rule.param_count, holds, t)) continue;
        g.guard_tables[r] = std::move(t);
        g.guard_is_tabulated[r] = all_fixed;
    }
}

void state::finish(const std::string& reason) {
    pending_ = pending_kind::terminal;
    end_reason_ = reason;
    secret_base_.clear();  // the game's end shows everything
    if (opt_.trace && *opt_.trace) (*opt_.trace)("end of game: " + reason);
}

void state::step() { interp(*this).step(); }

void state::run() {
    while (pending_ == pending_kind::none) {
        if (frames_.empty()) {
            finish("sequence finished");
            return;
        }
        const std::size_t locals_mark = locals_.size();
        const std::size_t loop_mark = loop_store_.size();
        step_cursor_ = 0;
        if (++quiet_steps_ > 50'000'000)
            throw engine_error("no decision, chance node or end in 50000000 steps: an endless loop in the rules?");
        if (opt_.deadline && (quiet_steps_ & 0xFFFF) == 0 && std::chrono::steady_clock::now() > *opt_.deadline)
            throw engine_error("the time budget ran out in the middle of a game");
        try {
            step();
        } catch (const need_chance&) {
            quiet_steps_ = 0;
            rule_stack_.clear();
            for (ir::id r : fire_log_) --fires_[r];
            fire_log_.clear();
            locals_.resize(locals_mark);
            loop_store_.resize(loop_mark);
            scratch_.clear();
            return;
        }
        step_results_.clear();
        fire_log_.clear();
        if (pending_ != pending_kind::none) quiet_steps_ = 0;
    }
}

int state::current_player() const {
    switch (pending_) {
        case pending_kind::decision: return pending_player_;
        case pending_kind::terminal: return -2;
        default: return -1;
    }
}

std::vector<action_info> state::legal_actions() const {
    std::vector<action_info> out;
    if (pending_ == pending_kind::terminal) return out;
    if (is_chance_node()) {
        for (std::size_t i = 0; i < options_.size(); ++i) out.push_back({static_cast<int>(i), chance_outcomes()[i].text});
        return out;
    }
    const ir::ruleset& rs = *rs_;
    const ir::node& nd = rs.nodes[pending_node_];
    if (nd.code == ir::op::may) {
        const std::string label = nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs.strings.size()
                                      ? rs.strings[static_cast<std::size_t>(nd.value)]
                                      : "";
        for (std::size_t i = 0; i < options_.size(); ++i)
            out.push_back({static_cast<int>(i), options_[i] ? "yes: " + label : "no: do not " + label});
        return out;
    }
    const id set = rs.children[nd.first_child];
    const id set_type = rs.nodes[set].type;
    id elem_type = ir::no_id;
    if (set_type != ir::no_id) {
        const ir::type& t = rs.types[set_type];
        if (t.kind == ir::type_kind::zone) {
            for (id i = 0; i < rs.types.size(); ++i)
                if (rs.types[i].kind == ir::type_kind::entity && rs.types[i].ref == t.ref) elem_type = i;
        } else if (t.kind == ir::type_kind::list_of) {
            elem_type = t.value;
        }
    }
    if (nd.code == ir::op::choose_subset) {
        const frame& f = frames_.back();
        const std::string item = g_->value_text(elem_type, loop_store_[f.aux + f.pc]);
        for (std::size_t i = 0; i < options_.size(); ++i)
            out.push_back({static_cast<int>(i), (options_[i] ? "include " : "leave out ") + item});
        return out;
    }
    for (std::size_t i = 0; i < options_.size(); ++i)
        out.push_back({static_cast<int>(i), g_->value_text(elem_type, options_[i])});
    if (elem_type != ir::no_id && rs.types[elem_type].kind == ir::type_kind::entity) name_pieces_apart(elem_type, out);
    return out;
}

// Pieces of one name standing in different places are different choices to a player (which
// French Militia joins the new leader?): their options say where each stands, "French Militia at
// Koln". Pieces of one name in one place stay one text, so a prompt lists them once (x2).
void state::name_pieces_apart(ir::id elem_type, std::vector<action_info>& out) const {
    std::vector<std::size_t> order(out.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return out[a].text < out[b].text; });
    for (std::size_t first = 0; first < order.size();) {
        std::size_t last = first + 1;
        while (last < order.size() && out[order[last]].text == out[order[first]].text) ++last;
        if (last - first > 1) {  // one name, several pieces: where does each stand?
            std::vector<std::string> place;
            for (std::size_t k = first; k < last; ++k) place.push_back(piece_place(elem_type, options_[order[k]]));
            if (std::any_of(place.begin(), place.end(), [&](const std::string& p) { return p != place[0]; }))
                for (std::size_t k = first; k < last; ++k)
                    out[order[k]].text += place[k - first].empty() ? " (not on the map)" : " at " + place[k - first];
        }
        first = last;
    }
}

std::vector<chance_outcome> state::chance_outcomes() const {
    std::vector<chance_outcome> out;
    if (!is_chance_node()) return out;
    for (std::size_t i = 0; i < options_.size(); ++i) {
        chance_outcome o;
        o.value = options_[i];
        o.weight = weights_[i];
        o.total = weight_total_;
        o.probability = static_cast<double>(o.weight) / static_cast<double>(o.total);
        o.text = pending_ == pending_kind::chance_roll ? std::to_string(o.value) : "pick " + std::to_string(o.value);
        out.push_back(o);
    }
    return out;
}

void state::apply(int action) {
    if (pending_ == pending_kind::terminal) throw engine_error("the game is over");
    if (action < 0 || static_cast<std::size_t>(action) >= options_.size())
        throw engine_error("action " + std::to_string(action) + " is not one of the " + std::to_string(options_.size()) +
                           " legal actions");
    if (pending_ == pending_kind::chance_roll) {
        step_results_.push_back(options_[static_cast<std::size_t>(action)]);
        pending_ = pending_kind::none;
        options_.clear();
        weights_.clear();
    } else {
        if (pending_ == pending_kind::decision) ++decisions_;
        interp(*this).resolve_pending(action);
    }
    run();
}

int state::apply_sampled() {
    if (!is_chance_node()) throw engine_error("not a chance node");
    std::uint64_t x = rng_.below(weight_total_);
    for (std::size_t i = 0; i < weights_.size(); ++i) {
        if (x < weights_[i]) {
            apply(static_cast<int>(i));
            return static_cast<int>(i);
        }
        x -= weights_[i];
    }
    apply(static_cast<int>(weights_.size()) - 1);
    return static_cast<int>(weights_.size()) - 1;
}

std::vector<int> state::winners(std::vector<std::uint64_t>* fires) const {
    std::vector<int> out;
    if (g_->wins_decision == ir::no_id) return out;
    state copy(*this);
    interp in(copy);
    for (int p = 0; p < g_->players(); ++p) {
        const std::int64_t arg = p;
        copy.fire_log_.clear();  // each seat's `wins` is a decision of its own
        if (in.decide(ir::no_id, g_->wins_decision, &arg, 1)) out.push_back(p);
    }
    if (fires)
        for (std::size_t r = 0; r < fires->size() && r < copy.fires_.size(); ++r) (*fires)[r] += copy.fires_[r] - fires_[r];
    return out;
}

template <class Select, class Visit>
void state::evaluate_claims(const Select& select, const Visit& visit, std::uint64_t skip) const {
    // Evaluated on this state's own stacks, left as they were found (no copy: this runs after
    // every decision of a simulation). Expressions change nothing else but the fire counts, the
    // generator (a die in sampled mode) or the pending node (a die otherwise); those are put back.
    state& self = const_cast<state&>(*this);
    const std::size_t locals = locals_.size(), scratch = scratch_.size(), rules = rule_stack_.size();
    const std::size_t fired = fire_log_.size();
    const rng generator = rng_;
    const pending_kind pending = pending_;
    std::vector<std::int64_t> options;
    std::vector<std::uint64_t> weights;
    options.swap(self.options_);
    weights.swap(self.weights_);
    const std::uint64_t weight_total = weight_total_;
    interp in(self);
    std::uint32_t k = 0;  // the rule's index among those selected
    for (const ir::rule& r : rs_->rules) {
        if (!select(r) || r.value == ir::no_id) continue;
        const std::uint32_t index = k++;
        if (index < 64 && (skip >> index & 1)) continue;
        const std::uint32_t fb = in.push_region(r.locals.size());
        bool holds = true;
        try {
            holds = in.eval(r.value, fb) != 0;
        } catch (const need_chance&) {
            // a claim that rolls a die has no value here: not reported
            self.locals_.resize(locals);
            self.scratch_.resize(scratch);
            self.rule_stack_.resize(rules);
            continue;
        } catch (...) {
            self.options_.swap(options);
            self.weights_.swap(weights);
            self.pending_ = pending;
            throw;
        }
        visit(r, index, holds);
        self.locals_.resize(locals);
        self.scratch_.resize(scratch);
        self.rule_stack_.resize(rules);
    }
    for (std::size_t i = fired; i < fire_log_.size(); ++i) --self.fires_[fire_log_[i]];
    self.fire_log_.resize(fired);
    self.rng_ = generator;
    self.pending_ = pending;
    self.options_.swap(options);
    self.weights_.swap(weights);
    self.weight_total_ = weight_total;
}

std::vector<std::string> state::violated_invariants() const {
    std::vector<std::string> out;
    evaluate_claims([](const ir::rule& r) { return r.kind == ir::rule_kind::invariant; },
                    [&](const ir::rule& r, std::uint32_t, bool holds) {
                        if (!holds) out.push_back(r.name);
                    });
    return out;
}

void state::check_invariants_in_step(const std::string& place) {
    const std::uint64_t changed = invariants_changed_;
    invariants_changed_ = 0;
    // evaluate_claims skips the first 64 whose bit is set: those whose state has not changed
    evaluate_claims([](const ir::rule& r) { return r.kind == ir::rule_kind::invariant; },
                    [&](const ir::rule& r, std::uint32_t k, bool holds) {
                        if (holds) return;
                        const bool known = k < 64 ? (invariants_broken_in_step_ >> k & 1) != 0
                                                  : std::any_of(step_violations_.begin(), step_violations_.end(),
                                                                [&](const step_violation& v) { return v.invariant == r.name; });
                        if (known) return;
                        if (k < 64) invariants_broken_in_step_ |= 1ull << k;
                        step_violations_.push_back({r.name, place, decisions_, last_change(r.name)});
                    },
                    ~changed);
}

std::vector<std::uint32_t> state::query_hits(std::uint64_t skip) const {
    std::vector<std::uint32_t> out;
    evaluate_claims([](const ir::rule& r) { return ir::is_query(r.kind); },
                    [&](const ir::rule& r, std::uint32_t k, bool holds) {
                        if (holds != (r.kind == ir::rule_kind::assert_always)) out.push_back(k);
                    },
                    skip);
    return out;
}

std::string state::last_change(const std::string& invariant) const {
    if (!opt_.track_changes) return "";
    const ir::rule* rule = nullptr;
    std::size_t k = 0;
    for (const ir::rule& r : rs_->rules) {
        if (r.kind != ir::rule_kind::invariant) continue;
        if (r.name == invariant) {
            rule = &r;
            break;
        }
        ++k;
    }
    if (!rule || k >= g_->invariant_reads.size()) return "";
    id writer = ir::no_id;
    std::uint64_t latest = 0;
    const game::state_reads& reads = g_->invariant_reads[k];
    for (const auto& [first, end] : reads.values)
        for (std::uint32_t a = first; a < end; ++a)
            if (value_time_[a] > latest) {
                latest = value_time_[a];
                writer = value_writer_[a];
            }
    for (const auto& [first, end] : reads.zones)
        for (std::uint32_t z = first; z < end; ++z)
            if (zone_time_[z] > latest) {
                latest = zone_time_[z];
                writer = zone_writer_[z];
            }
    if (writer == ir::no_id) return "";
    return g_->statement_owner(writer) + " at " + g_->position(writer);
}

std::int64_t state::slot_value(const std::string& slot, int index, int key) const {
    for (id sl = 0; sl < rs_->slots.size(); ++sl) {
        if (rs_->slots[sl].name != slot) continue;
        const game::slot_layout& l = g_->slots[sl];
        std::int64_t copy = index;
        if (rs_->slots[sl].scope == ir::slot_scope::per_entity) copy -= g_->kind_first.at(rs_->slots[sl].entity_kind);
        return values_.at(l.offset + static_cast<std::size_t>(copy) * l.width + static_cast<std::size_t>(key));
    }
    throw engine_error("no slot named " + slot);
}

std::int64_t state::slot_extreme(id slot, bool lowest) const {
    const game::slot_layout& l = g_->slots.at(slot);
    std::int64_t out = lowest ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = 0; i < static_cast<std::size_t>(l.copies) * l.width; ++i) {
        const std::int64_t v = values_.at(l.offset + i);
        out = lowest ? std::min(out, v) : std::max(out, v);
    }
    return out;
}

std::vector<std::int64_t> state::zone_contents(const std::string& zone, int player) const {
    for (id z = 0; z < rs_->zones.size(); ++z) {
        if (rs_->zones[z].name != zone) continue;
        const std::size_t zi = g_->zone_first[z] + (rs_->zones[z].per_player || rs_->zones[z].map != ir::no_id ? static_cast<std::size_t>(player) : 0);
        std::vector<std::int64_t> out;
        for (std::uint32_t i = 0; i < zone_size_.at(zi); ++i) out.push_back(contents_[g_->zone_capacity_offset[zi] + i]);
        return out;
    }
    throw engine_error("no zone named " + zone);
}

std::string state::view(int viewer) const {
    const ir::ruleset& rs = *rs_;
    std::ostringstream out;
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        if (slot.scope == ir::slot_scope::per_entity || slot.scope == ir::slot_scope::per_node) continue;
        const game::slot_layout& l = g_->slots[sl];
        const ir::type& t = rs.types[slot.type];
        const id vt = t.kind == ir::type_kind::map_of ? t.value : slot.type;
        const int copies = slot.scope == ir::slot_scope::per_player ? g_->players() : 1;
        for (int c = 0; c < copies; ++c) {
            out << slot.name;
            if (slot.scope == ir::slot_scope::per_player) out << "[P" << c + 1 << "]";
            out << " =";
            if (slot.scope == ir::slot_scope::per_player && viewer >= 0 && c != viewer && hidden_copy(sl, static_cast<std::uint32_t>(c))) {
                out << " (hidden)\n";
                continue;
            }
            if (t.kind == ir::type_kind::list_of) {
                out << ' ' << g_->list_text(slot.type, values_.data() + l.offset + static_cast<std::uint32_t>(c) * l.width) << '\n';
                continue;
            }
            for (std::uint32_t k = 0; k < l.width; ++k) {
                const bool unseen = slot.scope != ir::slot_scope::per_player && viewer >= 0 &&
                                    hidden_copy(sl, static_cast<std::uint32_t>(c)) && !sees_entry(viewer, sl, k);
                out << ' ' << (unseen ? "(hidden)" : g_->value_text(vt, values_[l.offset + static_cast<std::uint32_t>(c) * l.width + k]));
            }
            out << '\n';
        }
    }
    for (std::size_t zi = 0; zi < zone_size_.size(); ++zi) {
        const id z = g_->zone_instance_zone[zi];
        const ir::zone& zone = rs.zones[z];
        const int owner = zone.per_player ? static_cast<int>(zi - g_->zone_first[z]) : -1;
        out << zone.name << ir::zone_instance_suffix(rs, zone, zi - g_->zone_first[z]);
        const bool visible = viewer < 0 || zone.vis == ir::visibility::public_ ||
                             (zone.vis == ir::visibility::owner && owner == viewer);
        out << " (" << zone_size_[zi] << ")";
        if (visible)
            for (std::uint32_t i = 0; i < zone_size_[zi]; ++i)
                out << (i ? ", " : ": ") << g_->instance_text(contents_[g_->zone_capacity_offset[zi] + i]);
        out << '\n';
    }
    return out.str();
}

// ------------------------------------------------------------------ a seat's view

namespace {

// The zone instances whose contents seat `seat` cannot see: hidden zones, other seats' owner zones.
std::vector<std::uint32_t> unseen_zones(const game& g, int seat) {
    std::vector<std::uint32_t> out;
    const ir::ruleset& rs = g.ruleset();
    for (std::uint32_t zi = 0; zi < g.zone_instance_zone.size(); ++zi) {
        const id z = g.zone_instance_zone[zi];
        const ir::zone& zone = rs.zones[z];
        const int owner = zone.per_player ? static_cast<int>(zi - g.zone_first[z]) : -1;
        if (zone.vis == ir::visibility::hidden || (zone.vis == ir::visibility::owner && owner != seat)) out.push_back(zi);
    }
    return out;
}

// Calls f(slot, value index) for each entry seat `seat` is not shown of a field that no player owns,
// hidden entry by entry (`hidden by F`, or a map keyed by player).
template <class F>
void unseen_entries(const state& s, int seat, F f) {
    const game& g = s.the_game();
    const ir::ruleset& rs = g.ruleset();
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        if (!g.slot_hidden[sl] || rs.slots[sl].scope == ir::slot_scope::per_player) continue;
        const game::slot_layout& l = g.slots[sl];
        for (std::uint32_t k = 0; k < l.width; ++k) {
            if (s.sees_entry(seat, sl, k)) continue;
            for (std::uint32_t c = 0; c < l.copies; ++c)
                if (s.hidden_copy(sl, c)) f(sl, l.offset + c * l.width + k);
        }
    }
}

// Calls f(slot, first value index, width, seat) for each per-player field copy of a seat other than `seat`.
template <class F>
void other_seats_fields(const game& g, int seat, F f) {
    const ir::ruleset& rs = g.ruleset();
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        if (rs.slots[sl].scope != ir::slot_scope::per_player) continue;
        const game::slot_layout& l = g.slots[sl];
        for (int c = 0; c < g.players(); ++c)
            if (c != seat) f(sl, l.offset + static_cast<std::uint32_t>(c) * l.width, l.width, static_cast<std::uint32_t>(c));
    }
}

}  // namespace

state state::masked_for(int seat) const {
    state m = lookahead(0);  // no trace, tracking or deadline
    m.rng_.s = 0;
    m.opt_.sampled_chance = opt_.sampled_chance;
    const game& g = *g_;
    other_seats_fields(g, seat, [&](id sl, std::uint32_t at, std::uint32_t width, std::uint32_t c) {
        if (hidden_copy(sl, c)) {  // its initial value, as set_up_storage gives it
            const std::int64_t init = g.initial_value(sl);
            for (std::uint32_t k = 0; k < width; ++k) m.values_[at + k] = init;
        } else if (!secret_base_.empty()) {  // before the reveal: as the simultaneous block began
            for (std::uint32_t k = 0; k < width; ++k) m.values_[at + k] = secret_base_[at + k];
        }
    });
    unseen_entries(*this, seat, [&](id sl, std::uint32_t at) { m.values_[at] = g.initial_value(sl); });
    const std::vector<std::uint32_t> zones = unseen_zones(g, seat);
    std::vector<std::int32_t> cards;
    for (std::uint32_t zi : zones)
        for (std::uint32_t i = 0; i < zone_size_[zi]; ++i) cards.push_back(contents_[g.zone_capacity_offset[zi] + i]);
    std::sort(cards.begin(), cards.end());
    std::size_t next = 0;
    for (std::uint32_t zi : zones)
        for (std::uint32_t i = 0; i < zone_size_[zi]; ++i) m.contents_[g.zone_capacity_offset[zi] + i] = cards[next++];
    return m;
}

bool state::hidden_copy(id sl, std::uint32_t c) const {
    if (!g_->slot_hidden[sl]) return false;
    const id u = rs_->slots[sl].hidden_unless;
    if (u == ir::no_id) return true;
    const game::slot_layout& ul = g_->slots[u];
    const std::uint32_t at = ul.offset + c * ul.width;
    // a player's own F inside a simultaneous block: as the block began, as the other seats see it
    const bool as_begun = rs_->slots[u].scope == ir::slot_scope::per_player && !secret_base_.empty();
    return (as_begun ? secret_base_[at] : values_[at]) == 0;
}

bool state::sees_entry(int seat, id sl, std::uint32_t k) const {
    const ir::slot& slot = rs_->slots[sl];
    if (slot.hidden_by == ir::no_id) return static_cast<std::int64_t>(k) == seat;  // a map keyed by player
    const game::slot_layout& by = g_->slots[slot.hidden_by];
    const std::int64_t held = values_[by.offset + static_cast<std::uint32_t>(seat) * by.width];
    return held - g_->key_first(rs_->types[slot.type].key) == static_cast<std::int64_t>(k);
}

state state::resample_hidden(int seat, std::uint64_t seed) const {
    state x(*this);
    rng r{seed};
    const ir::ruleset& rs = *rs_;
    const game& g = *g_;
    auto random_value = [&](id type, std::int64_t& v) {
        const ir::type& t = rs.types[type];
        if (t.kind == ir::type_kind::range) v = t.lo + static_cast<std::int64_t>(r.below(static_cast<std::uint64_t>(t.hi - t.lo + 1)));
        else if (t.kind == ir::type_kind::boolean) v = static_cast<std::int64_t>(r.below(2));
        else if (t.kind == ir::type_kind::enumeration) v = static_cast<std::int64_t>(r.below(rs.enums[t.ref].members.size()));
        else if (t.kind == ir::type_kind::entity) {  // none, or any instance of the kind
            const std::uint64_t pick = r.below(std::uint64_t{g.kind_count.at(t.ref)} + 1);
            v = pick == 0 ? -1 : static_cast<std::int64_t>(g.kind_first.at(t.ref) + pick - 1);
        }
    };
    other_seats_fields(g, seat, [&](id sl, std::uint32_t at, std::uint32_t width, std::uint32_t c) {
        const ir::slot& slot = rs.slots[sl];
        if (!hidden_copy(sl, c) && secret_base_.empty()) return;
        const ir::type& t = rs.types[slot.type];
        if (t.kind == ir::type_kind::list_of) return;
        const id vt = t.kind == ir::type_kind::map_of ? t.value : slot.type;
        for (std::uint32_t k = 0; k < width; ++k) random_value(vt, x.values_[at + k]);
    });
    unseen_entries(*this, seat, [&](id sl, std::uint32_t at) { random_value(rs.types[rs.slots[sl].type].value, x.values_[at]); });
    const std::vector<std::uint32_t> zones = unseen_zones(g, seat);
    std::vector<std::int32_t> cards;
    for (std::uint32_t zi : zones)
        for (std::uint32_t i = 0; i < zone_size_[zi]; ++i) cards.push_back(contents_[g.zone_capacity_offset[zi] + i]);
    for (std::size_t i = cards.size(); i > 1; --i) std::swap(cards[i - 1], cards[r.below(i)]);
    std::size_t next = 0;
    for (std::uint32_t zi : zones)
        for (std::uint32_t i = 0; i < zone_size_[zi]; ++i) x.contents_[g.zone_capacity_offset[zi] + i] = cards[next++];
    return x;
}

// ------------------------------------------------------------------ probe

probe::probe(const game& g) : g_(&g), s_(new state(g, state::unstarted{})) {
    s_->probing_ = true;
    // Every element's locals fit in a region this big, whatever locals the caller gives.
    for (const ir::node& nd : g.ruleset().nodes)
        if (nd.code == op::local || nd.code == op::let || nd.code == op::choose_one || nd.code == op::for_each)
            region_ = std::max<std::size_t>(region_, std::size_t{nd.ref} + 1);
}

std::uint32_t probe::region(const std::vector<std::int64_t>& locals) {
    interp in(*s_);
    const std::uint32_t fb = in.push_region(std::max(region_, locals.size()));
    std::copy(locals.begin(), locals.end(), s_->locals_.begin() + fb);
    return fb;
}

void probe::set_value(std::uint32_t index, std::int64_t v) { s_->values_.at(index) = v; }

void probe::put(std::uint32_t zone, std::int64_t instance) {
    const game& g = *g_;
    const std::uint32_t end = zone + 1 < g.zone_capacity_offset.size() ? g.zone_capacity_offset[zone + 1] : g.contents_size;
    std::uint32_t& size = s_->zone_size_.at(zone);
    if (instance < 0 || static_cast<std::size_t>(instance) >= g.instance_entity.size() ||
        g.zone_capacity_offset[zone] + size >= end)
        throw engine_error("probe: cannot put instance " + std::to_string(instance) + " in zone instance " + std::to_string(zone));
    s_->contents_[g.zone_capacity_offset[zone] + size++] = static_cast<std::int32_t>(instance);
}

probe::outcome probe::attempt(const std::function<void(outcome&)>& body) {
    outcome o;
    const std::size_t mark = s_->locals_.size();
    const std::size_t rules_mark = s_->rule_stack_.size();
    try {
        body(o);
    } catch (const engine_error& e) {
        o.error = e.what();
    } catch (const state::need_chance&) {
        o.error = "a roll or dice term whose result was not given";
    }
    cut(s_->locals_, mark);
    cut(s_->rule_stack_, rules_mark);
    return o;
}

probe::outcome probe::read_table(ir::id table, ir::id at, const std::vector<std::int64_t>& args) {
    return attempt([&](outcome& o) { interp(*s_).table_cell(at, table, args.data(), args.size(), &o.values); });
}

probe::outcome probe::assign(ir::id statement, const std::vector<std::int64_t>& locals) {
    return attempt([&](outcome& o) {
        interp in(*s_);
        const std::uint32_t fb = region(locals);
        const ir::op code = in.N(statement).code;
        if (code != op::assign && code != op::add_assign && code != op::sub_assign)
            throw engine_error(g_->position(statement) + ": not an assignment");
        std::int64_t v = in.eval(in.child(statement, 1), fb);
        if (code != op::assign) {
            const std::int64_t old = in.eval(in.child(statement, 0), fb);
            v = code == op::add_assign ? old + v : old - v;
        }
        o.values.push_back(v);
        in.store(in.child(statement, 0), fb, v, statement);
    });
}

probe::outcome probe::options(ir::id choice, const std::vector<std::int64_t>& locals) {
    return attempt([&](outcome& o) {
        interp in(*s_);
        const std::uint32_t fb = region(locals);
        if (in.N(choice).code == op::choose_subset) {
            // the subsets satisfying `where`, each as a bit mask over the set's elements in order
            in.subset_masks(choice, fb, o.values);
            return;
        }
        if (in.N(choice).code != op::choose_one) throw engine_error(g_->position(choice) + ": not a choice of one");
        in.choose_options(choice, fb, &o.values);
    });
}

probe::outcome probe::applicable(ir::id group, const std::vector<std::int64_t>& args) {
    return attempt([&](outcome& o) {
        if (group >= g_->live_rules.size()) throw engine_error("probe: no rule group " + std::to_string(group));
        interp in(*s_);
        const std::size_t start = in.applicable(group, args.data(), args.size());
        o.values.assign(s_->rule_stack_.begin() + static_cast<std::ptrdiff_t>(start), s_->rule_stack_.end());
    });
}

probe::outcome probe::value(ir::id rule, const std::vector<std::int64_t>& args) {
    return attempt([&](outcome& o) {
        const ir::rule& r = g_->ruleset().rules.at(rule);
        const id expr = r.kind == ir::rule_kind::define || r.kind == ir::rule_kind::invariant || ir::is_query(r.kind) ? r.value
                        : r.kind == ir::rule_kind::modifier                                     ? r.amount
                                                                                                : ir::no_id;
        if (expr == ir::no_id) throw engine_error("probe: rule " + r.name + " gives no value");
        interp in(*s_);
        o.values.push_back(in.eval(expr, in.bind_rule(rule, args.data(), args.size())));
    });
}

probe::outcome probe::quantity(ir::id quantity, const std::vector<std::int64_t>& args) {
    return attempt([&](outcome& o) {
        if (quantity >= g_->ruleset().quantities.size()) throw engine_error("probe: no quantity " + std::to_string(quantity));
        o.values.push_back(interp(*s_).call_quantity(quantity, args.data(), args.size()));
    });
}

probe::outcome probe::legal(ir::id action, const std::vector<std::int64_t>& args) {
    return attempt([&](outcome& o) {
        if (action >= g_->ruleset().actions.size()) throw engine_error("probe: no action " + std::to_string(action));
        interp in(*s_);
        o.values.push_back(in.action_legal(action, args.data(), args.size()) ? 1 : 0);
        const std::size_t start = in.applicable(g_->group_of_action[action], args.data(), args.size());
        bool required = false;
        for (std::size_t i = start; i < s_->rule_stack_.size(); ++i)
            required = required || g_->ruleset().rules[s_->rule_stack_[i]].kind == ir::rule_kind::require;
        o.values.push_back(required ? 1 : 0);
    });
}

probe::outcome probe::holds(ir::id zone, std::int64_t index, std::int64_t instance) {
    return attempt([&](outcome& o) {
        const ir::ruleset& rs = g_->ruleset();
        if (zone >= rs.zones.size()) throw engine_error("probe: no zone " + std::to_string(zone));
        const auto count = static_cast<std::int64_t>(ir::zone_instance_count(rs, rs.zones[zone], g_->players()));
        if (index < 0 || index >= count) throw engine_error("probe: no instance " + std::to_string(index) + " of zone " + rs.zones[zone].name);
        const std::size_t zi = g_->zone_first.at(zone) + static_cast<std::size_t>(index);
        const std::uint32_t off = g_->zone_capacity_offset[zi];
        bool in = false;
        for (std::uint32_t i = 0; i < s_->zone_size_[zi]; ++i) in = in || s_->contents_[off + i] == instance;
        o.values.push_back(in ? 1 : 0);
    });
}

probe::outcome probe::cell(ir::id table, const std::vector<std::int64_t>& keys) {
    return attempt([&](outcome& o) {
        const ir::table& tb = g_->ruleset().tables.at(table);
        if (tb.row_map.kind == ir::key_range_kind::odds || (!tb.columns.empty() && tb.column_map.kind == ir::key_range_kind::odds))
            throw engine_error("probe: table " + tb.name + " has an odds key");
        if (keys.empty() || (!tb.columns.empty() && keys.size() < 2)) throw engine_error("probe: too few keys for table " + tb.name);
        // keys: the row key, the column key (0 without columns), the natural roll (natural rows)
        std::int32_t row = !tb.natural_map.dense.empty() && keys.size() > 2 ? interp::map_key(tb.natural_map, keys[2]) : -1;
        if (row < 0) row = interp::map_key(tb.row_map, keys[0]);
        if (row < 0) throw engine_error("no row of table " + tb.name + " for key " + std::to_string(keys[0]));
        std::int32_t col = 0;
        if (!tb.columns.empty()) {
            col = interp::map_key(tb.column_map, keys[1]);
            if (col < 0) throw engine_error("no column of table " + tb.name + " for key " + std::to_string(keys[1]));
        }
        o.values = {row, col};
    });
}

void probe::start() { s_->set_up_storage(); }

probe::outcome probe::example(ir::id rule, int active_player, const std::vector<ir::id>& shown) {
    return attempt([&](outcome& o) {
        const ir::rule& r = g_->ruleset().rules.at(rule);
        if (r.kind != ir::rule_kind::example) throw engine_error("probe: rule " + r.name + " is not an example");
        interp in(*s_);
        s_->pending_player_ = active_player;  // what active_player() reads outside a loop over the players
        const std::uint32_t fb = region(std::vector<std::int64_t>(r.locals.size(), -1));
        const std::size_t depth = s_->frames_.size();
        if (r.body != ir::no_id) in.push_frame(state::frame_kind::list, r.body, fb);
        for (std::uint64_t steps = 0; s_->frames_.size() > depth; ++steps) {
            if (s_->pending_ == state::pending_kind::terminal) break;
            if (s_->pending_ != state::pending_kind::none)
                throw engine_error("the example's `given` asks for a decision, which an example cannot answer");
            if (steps > 1'000'000) throw engine_error("the example's `given` does not finish");
            in.step();
        }
        s_->frames_.resize(depth);
        o.values.push_back(r.value == ir::no_id ? 1 : in.eval(r.value, fb) != 0);
        for (const ir::id n : shown) o.values.push_back(in.eval(n, fb));
    });
}

}  // namespace wp::engine
