// The state and its interpreter. Expressions are evaluated recursively (they cannot suspend);
// statements run from an explicit stack of frames (statement list + position, loop state),
// so execution stops at a decision or chance node and resumes in apply().
//
// Chance inside a statement: every statement evaluates all its expressions before it changes
// anything. When an expression needs a roll (or a bare dice term) and no result is known, the
// state becomes a chance node and the statement is not performed; apply() records the outcome
// and runs the statement again from its start, which now reads the recorded results in order.
#include "westphalia/engine/engine.hpp"

#include "compile.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>

namespace wp::engine {

using ir::id;
using ir::op;

namespace {
constexpr std::uint32_t npos = 0xFFFFFFFFu;
}  // namespace

// Truncates a stack to n elements (inline: vector::resize is an out-of-line call, and the
// interpreter truncates its stacks on almost every step). Grows it like resize if n is larger.
template <class V>
inline void cut(V& v, std::size_t n) {
    if (n <= v.size()) [[likely]]
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(n), v.end());
    else
        v.resize(n);
}

// ------------------------------------------------------------------ the interpreter

struct interp {
    state& s;
    const game& g;
    const ir::ruleset& rs;

    explicit interp(state& st) : s(st), g(*st.g_), rs(*st.rs_) {}

    // A statement list frame keeps where its statements are (no IR read per step): aux is the
    // first in game::flat_statements (phases and steps spliced in) and aux_len their number; a
    // single statement has aux npos.
    static void list_span(const game& g, state::frame& f) {
        if (g.ruleset().nodes[f.node].code == op::seq) {
            f.aux = g.code[f.node].a;
            f.aux_len = g.code[f.node].b;
        } else {
            f.aux = npos;
            f.aux_len = 1;
        }
    }

    [[noreturn]] void fail(id node, const std::string& what) const {
        throw engine_error(g.position(node) + ": " + what);
    }

    // Checked int64 arithmetic: an overflow is an engine error at node n naming its statement,
    // worded as the compiled engine words it (codegen/src/prelude.hpp).
    [[noreturn, gnu::noinline, gnu::cold]] void overflow(id n, const std::string& what, const std::string& owner) const {
        fail(n, what + " is outside the 64-bit integers (" + owner + ")");
    }
    [[noreturn, gnu::noinline, gnu::cold]] void overflow(id n, const std::string& what) const {
        overflow(n, what, g.statement_owner(n));
    }
    // A quantity or roll adding its modifiers: named by its definition (`what name`).
    std::int64_t add_in(id n, const char* what, const std::string& name, std::int64_t a, std::int64_t b) const {
        std::int64_t r;
        if (__builtin_add_overflow(a, b, &r)) [[unlikely]]
            overflow(n, std::to_string(a) + " + " + std::to_string(b), what + (" " + name));
        return r;
    }
    std::int64_t add_ck(id n, std::int64_t a, std::int64_t b) const {
        std::int64_t r;
        if (__builtin_add_overflow(a, b, &r)) [[unlikely]]
            overflow(n, std::to_string(a) + " + " + std::to_string(b));
        return r;
    }
    std::int64_t sub_ck(id n, std::int64_t a, std::int64_t b) const {
        std::int64_t r;
        if (__builtin_sub_overflow(a, b, &r)) [[unlikely]]
            overflow(n, std::to_string(a) + " - " + std::to_string(b));
        return r;
    }
    std::int64_t mul_ck(id n, std::int64_t a, std::int64_t b) const {
        std::int64_t r;
        if (__builtin_mul_overflow(a, b, &r)) [[unlikely]]
            overflow(n, std::to_string(a) + " * " + std::to_string(b));
        return r;
    }
    std::int64_t neg_ck(id n, std::int64_t a) const {
        if (a == std::numeric_limits<std::int64_t>::min()) [[unlikely]]
            overflow(n, "-(" + std::to_string(a) + ")");
        return -a;
    }
    // a / d and a % d, d != 0: only the lowest value divided by -1 overflows (its remainder is 0)
    std::int64_t div_ck(id n, std::int64_t a, std::int64_t d, bool mod) const {
        if (d == -1 && a == std::numeric_limits<std::int64_t>::min()) [[unlikely]] {
            if (mod) return 0;
            overflow(n, std::to_string(a) + " / " + std::to_string(d));
        }
        return mod ? a % d : a / d;
    }

    const ir::node& N(id n) const { return rs.nodes[n]; }
    id child(id n, std::uint32_t i) const { return rs.children[rs.nodes[n].first_child + i]; }
    ir::type_kind kind_of(id n) const {
        const id t = rs.nodes[n].type;
        return t == ir::no_id ? ir::type_kind::void_ : rs.types[t].kind;
    }
    std::int64_t& L(std::uint32_t fb, id local) { return s.locals_[fb + local]; }

    // Drops the locals region at fb and every region above it.
    void drop_region(std::uint32_t fb) { cut(s.locals_, fb); }

    // A new locals region of `size` values; returns its base.
    std::uint32_t push_region(std::size_t size) {
        const auto base = static_cast<std::uint32_t>(s.locals_.size());
        s.locals_.resize(s.locals_.size() + size, -1);
        return base;
    }

    // ------------------------------------------------ chance

    // The value of a chance event with outcomes min + i weighted w[i]: a recorded result when
    // replaying, a sample in sampled mode, else the state becomes a chance node.
    std::int64_t chance(std::int64_t min, const std::vector<std::uint64_t>& w, std::uint64_t total) {
        if (s.step_cursor_ < s.step_results_.size()) return s.step_results_[s.step_cursor_++];
        if (s.opt_.sampled_chance) {
            std::uint64_t x = s.rng_.below(total);
            for (std::size_t i = 0; i < w.size(); ++i) {
                if (x < w[i]) return min + static_cast<std::int64_t>(i);
                x -= w[i];
            }
            return min + static_cast<std::int64_t>(w.size()) - 1;
        }
        s.options_.clear();
        s.weights_.clear();
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (w[i] == 0) continue;
            s.options_.push_back(min + static_cast<std::int64_t>(i));
            s.weights_.push_back(w[i]);
        }
        s.weight_total_ = total;
        s.pending_ = state::pending_kind::chance_roll;
        throw state::need_chance{};
    }

    // The first value given for `key` (a probe's dice), taken off the list.
    static std::optional<std::int64_t> take_fixed(std::vector<std::pair<id, std::int64_t>>& fixed, id key) {
        for (auto it = fixed.begin(); it != fixed.end(); ++it) {
            if (it->first != key) continue;
            const std::int64_t v = it->second;
            fixed.erase(it);
            return v;
        }
        return std::nullopt;
    }

    // ------------------------------------------------ sets

    // Pushes the elements of set expression `n` onto scratch; returns the start index.
    std::size_t push_set(id n, std::uint32_t fb) {
        const std::size_t start = s.scratch_.size();
        const ir::node& nd = N(n);
        const ir::type_kind k = kind_of(n);
        if (k == ir::type_kind::zone) {
            const std::int64_t zi = eval(n, fb);
            if (zi < 0) fail(n, "no zone");
            const auto z = static_cast<std::size_t>(zi);
            const std::int32_t* first = s.contents_.data() + g.zone_capacity_offset[z];
            s.scratch_.insert(s.scratch_.end(), first, first + s.zone_size_[z]);
            return start;
        }
        if (nd.code == op::builtin) {
            const auto b = static_cast<ir::builtin>(nd.ref);
            if (b == ir::builtin::players) {
                for (int p = 0; p < g.players(); ++p) s.scratch_.push_back(p);
                return start;
            }
            if (b == ir::builtin::opponents) {
                const std::int64_t p = eval(child(n, 0), fb);
                for (int i = 1; i < g.players(); ++i) s.scratch_.push_back((p + i) % g.players());
                return start;
            }
            if (b == ir::builtin::neighbours) {
                const std::int64_t v = eval(child(n, 0), fb);
                const ir::type& t = rs.types[rs.nodes[child(n, 0)].type];
                if (v < 0) fail(n, "neighbours of no location (" + g.statement_owner(n) + ")");
                for (id x : rs.maps.at(t.ref).nodes.at(static_cast<std::size_t>(v)).neighbours) s.scratch_.push_back(x);
                return start;
            }
            if (b == ir::builtin::hexside) {
                // The features of the hexsides (edges) between a and b; none when not adjacent.
                const std::int64_t a = eval(child(n, 0), fb);
                const std::int64_t c = eval(child(n, 1), fb);
                if (a < 0 || c < 0) return start;
                const id mi = rs.types[rs.nodes[child(n, 0)].type].ref;
                const ir::map& m = rs.maps.at(mi);
                for (std::uint32_t ei : g.node_edges.at(mi).at(static_cast<std::size_t>(a))) {
                    const ir::map_edge& e = m.edges[ei];
                    if (joins(m, e, a, c))
                        for (std::int64_t k : e.kinds)
                            if (std::find(s.scratch_.begin() + static_cast<std::ptrdiff_t>(start), s.scratch_.end(), k) ==
                                s.scratch_.end())
                                s.scratch_.push_back(k);
                }
                return start;
            }
        }
        if (nd.code == op::local && k == ir::type_kind::list_of) {
            // A list chosen by `choose subset|order`: a handle into the loop store.
            const std::int64_t h = s.locals_[fb + nd.ref];
            if (h < 0) fail(n, "no list chosen yet");
            const auto off = static_cast<std::size_t>(h >> 24);
            const auto len = static_cast<std::size_t>(h & 0xFFFFFF);
            for (std::size_t i = 0; i < len; ++i) s.scratch_.push_back(s.loop_store_[off + i]);
            return start;
        }
        if (nd.code == op::type_members) {
            const ir::type& t = rs.types.at(nd.ref);
            switch (t.kind) {
                case ir::type_kind::player:
                    for (int p = 0; p < g.players(); ++p) s.scratch_.push_back(p);
                    break;
                case ir::type_kind::enumeration:
                    for (std::size_t m = 0; m < rs.enums.at(t.ref).members.size(); ++m)
                        s.scratch_.push_back(static_cast<std::int64_t>(m));
                    break;
                case ir::type_kind::entity:
                    for (std::uint32_t i = 0; i < g.kind_count.at(t.ref); ++i) s.scratch_.push_back(g.kind_first[t.ref] + i);
                    break;
                case ir::type_kind::node:
                    for (std::size_t m = 0; m < rs.maps.at(t.ref).nodes.size(); ++m)
                        s.scratch_.push_back(static_cast<std::int64_t>(m));
                    break;
                default: fail(n, "cannot list the members of " + ir::type_name(rs, nd.ref));
            }
            return start;
        }
        fail(n, std::string("unsupported set expression ") + ir::name_of(nd.code));
    }

    // Whether edge e leads from a to b: a hexside or an undirected edge either way, a one-way
    // edge from its first area only.
    static bool joins(const ir::map& m, const ir::map_edge& e, std::int64_t a, std::int64_t b) {
        if (static_cast<std::int64_t>(e.a) == a && static_cast<std::int64_t>(e.b) == b) return true;
        return (m.kind == ir::map_kind::hexgrid || !e.directed) && static_cast<std::int64_t>(e.a) == b &&
               static_cast<std::int64_t>(e.b) == a;
    }

    // A zone instance named by an expression of zone type.
    std::int64_t eval_zone(id n, std::uint32_t fb) {
        const std::int64_t zi = eval(n, fb);
        if (zi < 0 || static_cast<std::size_t>(zi) >= s.zone_size_.size()) fail(n, "no zone");
        return zi;
    }

    std::size_t set_size(id n, std::uint32_t fb) {
        if (kind_of(n) == ir::type_kind::zone) return s.zone_size_[static_cast<std::size_t>(eval_zone(n, fb))];
        const std::size_t start = push_set(n, fb);
        const std::size_t size = s.scratch_.size() - start;
        cut(s.scratch_, start);
        return size;
    }

    // ------------------------------------------------ storage addresses

    std::uint32_t slot_addr(id n, id slot, std::int64_t index) const {
        const ir::slot& sl = rs.slots[slot];
        const game::slot_layout& l = g.slots[slot];
        std::int64_t copy = 0;
        switch (sl.scope) {
            case ir::slot_scope::global: break;
            case ir::slot_scope::per_player:
                if (index < 0 || index >= g.players()) fail(n, "slot " + sl.name + " of no player");
                copy = index;
                break;
            case ir::slot_scope::per_entity:
                if (index < 0) fail(n, "slot " + sl.name + " of no " + rs.entity_kinds.at(sl.entity_kind).name);
                copy = index - g.kind_first.at(sl.entity_kind);
                break;
            case ir::slot_scope::per_node:
                if (index < 0) fail(n, "slot " + sl.name + " of no location");
                copy = index;
                break;
        }
        return l.offset + static_cast<std::uint32_t>(copy) * l.width;
    }

    // The address in values_ of an assignable expression (or of a map's first element).
    std::uint32_t addr(id n, std::uint32_t fb) {
        const ir::node& nd = N(n);
        switch (nd.code) {
            case op::global: return slot_addr(n, nd.ref, 0);
            case op::player_field:
            case op::entity_field: return slot_addr(n, nd.ref, eval(child(n, 0), fb));
            case op::index: {
                const std::uint32_t base = addr(child(n, 0), fb);
                const std::int64_t k = eval(child(n, 1), fb);
                const ir::type& mt = rs.types[N(child(n, 0)).type];
                const std::int64_t width = static_cast<std::int64_t>(rs.types[mt.key].kind == ir::type_kind::player
                                                                          ? g.players()
                                                                          : 1 << 30);
                if (k < 0 || k >= width) fail(n, "map key out of range");
                return base + static_cast<std::uint32_t>(k);
            }
            default: fail(n, std::string("not assignable: ") + ir::name_of(nd.code));
        }
    }

    id slot_of(id n) const {
        const ir::node& nd = N(n);
        if (nd.code == op::index) return slot_of(child(n, 0));
        return nd.ref;
    }

    // ------------------------------------------------ rules

    // Counts a rule firing: at most once per statement run (one decision point, roll, event or
    // table row), however often its guard is evaluated there; undone if the statement is replayed
    // after a chance node.
    void fire(id r) {
        if (std::find(s.fire_log_.begin(), s.fire_log_.end(), r) != s.fire_log_.end()) return;
        ++s.fires_[r];
        s.fire_log_.push_back(r);
    }

    // A region for rule r's locals with the target's arguments in args[0..count).
    std::uint32_t bind_rule(id r, const std::int64_t* args, std::size_t count) {
        const ir::rule& rule = rs.rules[r];
        const std::uint32_t fb = push_region(std::max<std::size_t>(rule.locals.size(), count));
        for (std::size_t i = 0; i < count && i < rule.locals.size(); ++i) s.locals_[fb + i] = args[i];
        return fb;
    }

    // The rules of group `gi` that apply to the arguments and that no applicable higher rule
    // defeats (prioritised defaults), pushed in group order on the rule stack from the returned
    // index; the caller truncates the stack back to it.
    std::size_t applicable(id gi, const std::int64_t* args, std::size_t count) {
        auto& st = s.rule_stack_;
        const std::size_t start = st.size();
        if (gi == ir::no_id) return start;
        const ir::rule_group& gr = rs.groups[gi];
        for (id r : g.live_rules[gi]) {
            const ir::rule& rule = rs.rules[r];
            if (rule.guard == ir::no_id) {
                st.push_back(r);
                continue;
            }
            // The conjuncts that read only the arguments, from a table made once per game (when
            // they are false the rest of the guard is not evaluated, in whatever order it is written).
            const game::tabulated& table = g.guard_tables[r];
            if (!table.values.empty() && count >= table.sizes.size()) {
                std::size_t index = 0;
                bool inside = true;
                for (std::size_t i = 0; i < table.sizes.size(); ++i) {
                    const std::int64_t v = args[i] - table.bases[i];
                    inside = inside && v >= 0 && v < table.sizes[i];
                    index = index * static_cast<std::size_t>(table.sizes[i]) + static_cast<std::size_t>(v);
                }
                if (inside && table.values[index] == 0) continue;
                if (inside && g.guard_is_tabulated[r]) {
                    st.push_back(r);
                    continue;
                }
            }
            const std::size_t mark = s.locals_.size();
            const bool a = eval(rule.guard, bind_rule(r, args, count)) != 0;
            cut(s.locals_, mark);
            if (a) st.push_back(r);
        }
        if (gr.edges.empty()) return start;
        const std::size_t mid = st.size();
        for (std::size_t i = start; i < mid; ++i) {
            bool defeated = false;
            for (const ir::override_edge& e : gr.edges)
                if (e.lower == st[i])
                    for (std::size_t j = start; j < mid && !defeated; ++j) defeated = st[j] == e.higher;
            if (!defeated) st.push_back(st[i]);
        }
        std::copy(st.begin() + static_cast<std::ptrdiff_t>(mid), st.end(), st.begin() + static_cast<std::ptrdiff_t>(start));
        cut(st, start + (st.size() - mid));
        return start;
    }

    std::int64_t modifiers(id gi, const std::int64_t* args, std::size_t count) {
        const std::size_t start = applicable(gi, args, count);
        std::int64_t total = 0;
        for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
            const id r = s.rule_stack_[i];
            const ir::rule& rule = rs.rules[r];
            if (rule.kind != ir::rule_kind::modifier) continue;
            const std::size_t mark = s.locals_.size();
            total = add_ck(rule.amount, total, eval(rule.amount, bind_rule(r, args, count)));
            cut(s.locals_, mark);
            fire(r);
        }
        cut(s.rule_stack_, start);
        return total;
    }

    // Whether action a is legal for args: its guard or an applicable permit, and no applicable
    // forbid (each after overrides). Counts a forbid only where it removes an action that would
    // otherwise be legal, a permit only where it makes legal an action whose guard fails.
    bool action_legal(id a, const std::int64_t* args, std::size_t count) {
        const ir::action& act = rs.actions[a];
        const std::size_t mark = s.locals_.size();
        const std::uint32_t fb = push_region(std::max<std::size_t>(act.locals.size(), count));
        for (std::size_t i = 0; i < count; ++i) s.locals_[fb + i] = args[i];
        const bool guard = act.guard == ir::no_id || eval(act.guard, fb) != 0;
        cut(s.locals_, mark);
        const std::size_t start = applicable(g.group_of_action[a], args, count);
        bool forbidden = false, permitted = false;
        for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
            const ir::rule_kind k = rs.rules[s.rule_stack_[i]].kind;
            forbidden = forbidden || k == ir::rule_kind::forbid;
            permitted = permitted || k == ir::rule_kind::permit;
        }
        for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
            const id r = s.rule_stack_[i];
            const ir::rule_kind k = rs.rules[r].kind;
            if ((k == ir::rule_kind::forbid && (guard || permitted)) || (k == ir::rule_kind::permit && !guard && !forbidden))
                fire(r);
        }
        cut(s.rule_stack_, start);
        return (guard || permitted) && !forbidden;
    }

    // A decision's value: the applicable, undefeated `define` rules must agree (none is a gap,
    // two different values a contradiction: both engine errors).
    std::int64_t decide(id n, id d, const std::int64_t* args, std::size_t count) {
        const std::size_t start = applicable(g.group_of_decision[d], args, count);
        bool have = false;
        std::int64_t value = 0;
        id first = ir::no_id;
        for (std::size_t i = start; i < s.rule_stack_.size(); ++i) {
            const id r = s.rule_stack_[i];
            const ir::rule& rule = rs.rules[r];
            if (rule.kind != ir::rule_kind::define) continue;
            const std::size_t mark = s.locals_.size();
            const std::int64_t v = eval(rule.value, bind_rule(r, args, count));
            cut(s.locals_, mark);
            fire(r);
            if (have && v != value)
                fail(n, "rules " + rs.rules[first].name + " and " + rule.name + " contradict each other on " +
                            rs.decisions[d].name + args_text(rs.decisions[d].params, args, count));
            if (!have) first = r;
            have = true;
            value = v;
        }
        cut(s.rule_stack_, start);
        if (!have) fail(n, "no rule decides " + rs.decisions[d].name + args_text(rs.decisions[d].params, args, count));
        return value;
    }

    std::string args_text(const std::vector<ir::local>& params, const std::int64_t* args, std::size_t count) const {
        std::string t = "(";
        for (std::size_t i = 0; i < count; ++i)
            t += (i ? ", " : "") + g.value_text(i < params.size() ? params[i].type : ir::no_id, args[i]);
        return t + ")";
    }

    // ------------------------------------------------ rolls and tables

    std::int64_t roll(id r, const std::int64_t* args, std::size_t count) {
        const ir::roll& ro = rs.rolls[r];
        const std::int64_t mod = modifiers(g.group_of_roll[r], args, count);
        if (s.probing_) [[unlikely]] {
            if (const std::optional<std::int64_t> dice = take_fixed(s.fixed_rolls_, r)) return add_in(ro.expr, "roll", ro.name, *dice, mod);
            for (const auto& [held, dice] : s.held_rolls_)
                if (held == r) return add_in(ro.expr, "roll", ro.name, dice, mod);
        }
        if (ro.linear && !ro.dist.weights.empty()) {
            add_in(ro.expr, "roll", ro.name, ro.dist.max, mod);  // every total of the roll, modified, is a 64-bit integer
            return chance(add_in(ro.expr, "roll", ro.name, ro.dist.min, mod), ro.dist.weights, ro.dist.total);
        }
        const std::size_t mark = s.locals_.size();
        const std::uint32_t fb = push_region(std::max<std::size_t>(ro.locals.size(), count));
        for (std::size_t i = 0; i < count; ++i) s.locals_[fb + i] = args[i];
        const std::int64_t v = eval(ro.expr, fb);
        cut(s.locals_, mark);
        return add_in(ro.expr, "roll", ro.name, v, mod);
    }

    static std::int32_t map_key(const ir::key_map& km, std::int64_t k) {
        if (km.kind == ir::key_range_kind::member) {
            if (k < 0 || static_cast<std::size_t>(k) >= km.dense.size()) return -1;
            return km.dense[static_cast<std::size_t>(k)];
        }
        if (k < km.min) return km.below;
        if (k > km.max) return km.above;
        return km.dense[static_cast<std::size_t>(k - km.min)];
    }

    static std::int64_t clamp_key(const ir::table_key& key, std::int64_t k) {
        if (!key.has_clamp) return k;
        const std::int64_t lo = key.clamp_lo.open_lo ? std::numeric_limits<std::int64_t>::min() : key.clamp_lo.lo;
        const std::int64_t hi = key.clamp_hi.open_hi ? std::numeric_limits<std::int64_t>::max() : key.clamp_hi.hi;
        return std::clamp(k, lo, std::max(lo, hi));
    }

    // Odds: odds(a, b) is one value, the attacker a in the high 32 bits and the defender b in
    // the low 32 (both signed). A table reads it on the odds scale ... 1-3 (-2), 1-2 (-1),
    // 1-1 (0), 2-1 (1), 3-1 (2) ...: a >= b is floor(a/b)-1, a < b is 1-ceil(b/a) when rounded
    // in favour of the defender (also without `round`); ceil(a/b)-1 and 1-floor(b/a) in favour
    // of the attacker. A column `x-y` sits where its own ratio rounds for the defender.
    static constexpr std::int64_t odds_below_all = std::numeric_limits<std::int64_t>::min() / 4;

    static std::int64_t odds_step(std::int64_t a, std::int64_t b, ir::rounding r) {
        const bool attacker = r == ir::rounding::attacker;
        if (a >= b) return (attacker ? (a + b - 1) / b : a / b) - 1;
        if (a == 0) return odds_below_all;  // 0 : b is below every column
        return 1 - (attacker ? b / a : (b + a - 1) / a);
    }

    static std::string odds_text(std::int64_t step) {
        if (step == odds_below_all) return "0-1";
        return step >= 0 ? std::to_string(step + 1) + "-1" : "1-" + std::to_string(1 - step);
    }

    static std::int64_t odds_attacker(std::int64_t v) { return v >> 32; }
    static std::int64_t odds_defender(std::int64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v & 0xFFFFFFFF)); }

    // The step an odds key reads (after its clamps); the defender at least 1.
    static std::int64_t odds_read(const ir::table_key& key, std::int64_t v) {
        std::int64_t step = odds_step(odds_attacker(v), odds_defender(v), key.round);
        if (key.has_clamp) {
            if (!key.clamp_lo.open_lo)
                step = std::max(step, odds_step(key.clamp_lo.lo, key.clamp_lo.hi, ir::rounding::defender));
            if (!key.clamp_hi.open_hi)
                step = std::min(step, odds_step(key.clamp_hi.lo, key.clamp_hi.hi, ir::rounding::defender));
        }
        return step;
    }

    // The row or column of odds value v on an odds axis (`ranges` the rows' or columns' keys).
    template <class Key>
    std::int32_t odds_index(id n, const ir::table& tb, const ir::table_key& key, std::int64_t v, std::size_t count,
                            Key range, const char* what) const {
        const std::int64_t a = odds_attacker(v);
        const std::int64_t b = odds_defender(v);
        if (b <= 0 || a < 0)
            fail(n, "odds " + std::to_string(a) + ":" + std::to_string(b) + " for table " + tb.name +
                        ": the defender must be at least 1 and the attacker at least 0");
        const std::int64_t step = odds_read(key, v);
        for (std::size_t i = 0; i < count; ++i) {
            const ir::key_range& k = range(i);
            if (odds_step(k.lo, k.hi, ir::rounding::defender) == step) return static_cast<std::int32_t>(i);
        }
        fail(n, std::string("no ") + what + " of table " + tb.name + " for odds " + std::to_string(a) + ":" +
                    std::to_string(b) + " (read as " + odds_text(step) + ")");
    }

    // Binds a table's arguments in a new region; returns the region and the cell.
    // keys_out (when given) gets the key values (an odds key as its step), before the row and
    // column are looked up.
    std::pair<std::uint32_t, const ir::table_cell*> table_cell(id n, id t, const std::int64_t* args, std::size_t count,
                                                               std::vector<std::int64_t>* keys_out = nullptr) {
        const ir::table& tb = rs.tables[t];
        const std::uint32_t fb = push_region(std::max<std::size_t>(tb.locals.size(), count));
        std::size_t a = 0;
        for (; a < tb.param_count && a < count; ++a) s.locals_[fb + a] = args[a];
        std::int64_t keys[2] = {0, 0};
        for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
            const ir::table_key& key = tb.keys[k];
            if (key.source == ir::key_source::key && key.var != ir::no_id && a < count) s.locals_[fb + key.var] = args[a++];
            if (key.source == ir::key_source::key && key.var != ir::no_id && key.expr == ir::no_id)
                keys[k] = s.locals_[fb + key.var];
            else
                keys[k] = eval(key.expr, fb);
            if ((k == 0 ? tb.row_map : tb.column_map).kind != ir::key_range_kind::odds) keys[k] = clamp_key(key, keys[k]);
        }
        if (keys_out) {
            // as the rows and columns read them: an odds key as its step
            for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
                const bool odds = (k == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds;
                keys_out->push_back(odds && odds_defender(keys[k]) > 0 ? odds_read(tb.keys[k], keys[k]) : keys[k]);
            }
        }
        std::int32_t row = 0;
        if (tb.row_map.kind == ir::key_range_kind::odds) {
            row = odds_index(n, tb, tb.keys[0], keys[0], tb.rows.size(),
                             [&](std::size_t i) -> const ir::key_range& { return tb.rows[i].key; }, "row");
        } else {
            row = map_key(tb.row_map, keys[0]);
            if (row < 0) fail(n, "no row of table " + tb.name + " for key " + std::to_string(keys[0]));
        }
        std::int32_t col = 0;
        if (!tb.columns.empty()) {
            if (tb.column_map.kind == ir::key_range_kind::odds && tb.keys.size() > 1) {
                col = odds_index(n, tb, tb.keys[1], keys[1], tb.columns.size(),
                                 [&](std::size_t i) -> const ir::key_range& { return tb.columns[i]; }, "column");
            } else {
                col = map_key(tb.column_map, keys[1]);
                if (col < 0) fail(n, "no column of table " + tb.name + " for key " + std::to_string(keys[1]));
            }
        }
        if (!s.keys_read_.empty()) [[unlikely]] {
            s.keys_read_[g.table_key_first[t] + static_cast<std::uint32_t>(row)] = 1;
            if (!tb.columns.empty()) s.keys_read_[g.table_key_first[t] + tb.rows.size() + static_cast<std::uint32_t>(col)] = 1;
        }
        const std::size_t width = std::max<std::size_t>(1, tb.columns.size());
        return {fb, &tb.cells.at(static_cast<std::size_t>(row) * width + static_cast<std::size_t>(col))};
    }

    // ------------------------------------------------ expressions

    // Evaluates the arguments (children [from, count)) of node n into a small buffer.
    std::size_t eval_args(id n, std::uint32_t fb, std::int64_t* out, std::uint32_t from = 0) {
        const std::uint32_t c = N(n).child_count;
        if (c - from > 16) fail(n, "too many arguments");
        for (std::uint32_t i = from; i < c; ++i) out[i - from] = eval(child(n, i), fb);
        return c - from;
    }

    // Calls (rolls, quantities, decisions, table lookups): out of eval() so that its frame stays
    // small (each needs an argument buffer).
    [[gnu::noinline]] std::int64_t eval_call(id n, std::uint32_t fb) {
        std::int64_t args[16];
        const std::size_t c = eval_args(n, fb, args);
        return call_with(n, args, c);
    }

    [[gnu::noinline]] std::int64_t call_with(id n, const std::int64_t* args, std::size_t c) {
        const ir::node& nd = N(n);
        switch (nd.code) {
            case op::roll: return roll(nd.ref, args, c);
            case op::quantity: return call_quantity(nd.ref, args, c);
            case op::decide: return decide(n, nd.ref, args, c);
            case op::lookup: {
                const std::size_t mark = s.locals_.size();
                const ir::table_cell* cell = table_cell(n, nd.ref, args, c).second;
                cut(s.locals_, mark);
                if (!cell->has_outcome) fail(n, "table " + rs.tables[nd.ref].name + " gives no outcome here");
                return cell->outcome;
            }
            default: fail(n, std::string("not a call: ") + ir::name_of(nd.code));
        }
    }

    // Operand i of compiled node c, held in `v` (compile.hpp, xleaf).
    [[gnu::always_inline]] std::int64_t arg(const game::compiled_node& c, unsigned i, std::uint32_t v, std::uint32_t fb) {
        switch (static_cast<xleaf>((c.leaf >> (3 * i)) & 7u)) {
            case xleaf::local: return s.locals_[fb + v];
            case xleaf::constant: return static_cast<std::int32_t>(v);
            case xleaf::value: return s.values_[v];
            case xleaf::local_attribute: {
                const std::int64_t inst = s.locals_[fb + (v & 255u)];
                if (inst < 0 || static_cast<std::size_t>(inst) >= g.instance_entity.size()) [[unlikely]]
                    operand_failure(c, i, fb);
                return g.instance_attributes[static_cast<std::size_t>(inst) * g.attribute_stride + (v >> 8)];
            }
            case xleaf::local_player_value: {
                const std::int64_t p = s.locals_[fb + (v & 255u)];
                if (p < 0 || p >= g.players()) [[unlikely]]
                    operand_failure(c, i, fb);
                return s.values_[(v >> 8) + static_cast<std::uint32_t>(p)];
            }
            case xleaf::local_player_zone: {
                const std::int64_t p = s.locals_[fb + (v & 255u)];
                if (p < 0 || p >= g.players()) [[unlikely]]
                    operand_failure(c, i, fb);
                return static_cast<std::int64_t>(v >> 8) + p;
            }
            case xleaf::node: break;
        }
        return eval(v, fb);
    }

    // A two-level leaf operand (i) of compiled node c whose value is out of range: evaluates
    // the operand's IR node, which reports the error where the interpreter would.
    [[noreturn, gnu::noinline]] void operand_failure(const game::compiled_node& c, unsigned i, std::uint32_t fb) {
        const auto n = static_cast<id>(&c - g.code.data());
        eval_node(child(n, i), fb);
        fail(child(n, i), "operand out of range");
    }

    // Operand i of compiled node c (node n) as a zone instance; a bad one is reported at the
    // operand's own IR node, as eval_zone does.
    std::int64_t zone_arg(id n, const game::compiled_node& c, unsigned i, std::uint32_t v, std::uint32_t fb) {
        const std::int64_t zi = arg(c, i, v, fb);
        if (zi < 0 || static_cast<std::size_t>(zi) >= s.zone_size_.size()) [[unlikely]]
            fail(child(n, i), "no zone");
        return zi;
    }

    // The evaluator: runs the compiled form of node n (compile.hpp); what it does not
    // specialise goes to eval_node, the IR interpreter. Operands are evaluated left to right.
    std::int64_t eval(id n, std::uint32_t fb) {
        const game::compiled_node& c = g.code[n];
        switch (static_cast<xop>(c.code)) {
            case xop::local: return s.locals_[fb + static_cast<std::size_t>(c.imm)];
            case xop::constant: return c.imm;
            case xop::value_at: return s.values_[static_cast<std::size_t>(c.imm)];
            case xop::player_value: {
                const std::int64_t p = arg(c, 0, c.a, fb);
                if (p < 0 || p >= g.players()) [[unlikely]]
                    slot_addr(n, N(n).ref, p);  // fails
                const std::uint32_t a = static_cast<std::uint32_t>(c.imm) + static_cast<std::uint32_t>(p) * c.x;
                return c.flag ? a : s.values_[a];
            }
            case xop::entity_value: {
                const std::int64_t e = arg(c, 0, c.a, fb);
                if (e < 0) [[unlikely]]
                    slot_addr(n, N(n).ref, e);  // fails
                const std::uint32_t a =
                    static_cast<std::uint32_t>(c.imm) + static_cast<std::uint32_t>(e - static_cast<std::int64_t>(c.c)) * c.x;
                return c.flag ? a : s.values_[a];
            }
            case xop::attribute: {
                const std::int64_t inst = arg(c, 0, c.a, fb);
                if (inst < 0 || static_cast<std::size_t>(inst) >= g.instance_entity.size()) [[unlikely]]
                    fail(n, "attribute of no entity");
                return g.instance_attributes[static_cast<std::size_t>(inst) * g.attribute_stride + c.x];
            }
            case xop::index_value: {
                const std::int64_t base = arg(c, 0, c.a, fb);
                const std::int64_t k = arg(c, 1, c.b, fb);
                if (k < 0 || k >= static_cast<std::int64_t>(c.x)) [[unlikely]]
                    fail(n, "map key out of range");
                return s.values_[static_cast<std::uint32_t>(base) + static_cast<std::uint32_t>(k)];
            }
            case xop::index_zone: {
                const std::int64_t base = arg(c, 0, c.a, fb);
                const std::int64_t k = arg(c, 1, c.b, fb);
                if (k < 0 || k >= g.players()) [[unlikely]]
                    fail(n, "zone of no player");
                return base + k;
            }
            case xop::neg: return neg_ck(n, arg(c, 0, c.a, fb));
            case xop::not_: return arg(c, 0, c.a, fb) == 0;
            case xop::add: { const std::int64_t a = arg(c, 0, c.a, fb); return add_ck(n, a, arg(c, 1, c.b, fb)); }
            case xop::sub: { const std::int64_t a = arg(c, 0, c.a, fb); return sub_ck(n, a, arg(c, 1, c.b, fb)); }
            case xop::mul: { const std::int64_t a = arg(c, 0, c.a, fb); return mul_ck(n, a, arg(c, 1, c.b, fb)); }
            case xop::lt: { const std::int64_t a = arg(c, 0, c.a, fb); return a < arg(c, 1, c.b, fb); }
            case xop::le: { const std::int64_t a = arg(c, 0, c.a, fb); return a <= arg(c, 1, c.b, fb); }
            case xop::gt: { const std::int64_t a = arg(c, 0, c.a, fb); return a > arg(c, 1, c.b, fb); }
            case xop::ge: { const std::int64_t a = arg(c, 0, c.a, fb); return a >= arg(c, 1, c.b, fb); }
            case xop::eq: { const std::int64_t a = arg(c, 0, c.a, fb); return a == arg(c, 1, c.b, fb); }
            case xop::ne: { const std::int64_t a = arg(c, 0, c.a, fb); return a != arg(c, 1, c.b, fb); }
            case xop::eq_entity: {
                const std::int64_t a = entity_or_none(arg(c, 0, c.a, fb));
                return a == entity_or_none(arg(c, 1, c.b, fb));
            }
            case xop::ne_entity: {
                const std::int64_t a = entity_or_none(arg(c, 0, c.a, fb));
                return a != entity_or_none(arg(c, 1, c.b, fb));
            }
            case xop::and_: return arg(c, 0, c.a, fb) != 0 && arg(c, 1, c.b, fb) != 0;
            case xop::or_: return arg(c, 0, c.a, fb) != 0 || arg(c, 1, c.b, fb) != 0;
            case xop::cond: return arg(c, 0, c.a, fb) != 0 ? arg(c, 1, c.b, fb) : arg(c, 2, c.c, fb);
            case xop::same: return arg(c, 0, c.a, fb);
            case xop::in_zone: return in_zone(n, c, fb);
            case xop::zone_aggregate: return zone_aggregate(n, c, fb);
            case xop::zone_size: return s.zone_size_[static_cast<std::size_t>(zone_arg(n, c, 0, c.a, fb))];
            case xop::zone_top: {
                const auto z = static_cast<std::size_t>(zone_arg(n, c, 0, c.a, fb));
                return s.zone_size_[z] > 0 ? s.contents_[g.zone_capacity_offset[z] + s.zone_size_[z] - 1] : -1;
            }
            case xop::table_quantity: return table_quantity(n, c, fb);
            case xop::call: return eval_call(n, fb);
            case xop::generic: break;
        }
        return eval_node(n, fb);
    }

    std::int64_t in_zone(id n, const game::compiled_node& c, std::uint32_t fb) {
        const std::int64_t v = arg(c, 0, c.a, fb);
        const auto z = static_cast<std::size_t>(zone_arg(n, c, 1, c.b, fb));
        const std::int32_t* it = s.contents_.data() + g.zone_capacity_offset[z];
        const std::int32_t* end = it + s.zone_size_[z];
        if (c.flag) {
            const std::int64_t e = entity_or_none(v);
            for (; it != end; ++it)
                if (entity_or_none(*it) == e) return 1;
            return 0;
        }
        for (; it != end; ++it)
            if (*it == v) return 1;
        return 0;
    }

    // any/all/count/sum/min/max over a zone, read in place (an expression cannot change it).
    std::int64_t zone_aggregate(id n, const game::compiled_node& c, std::uint32_t fb) {
        const auto z = static_cast<std::size_t>(zone_arg(n, c, 0, c.a, fb));
        const std::uint32_t off = g.zone_capacity_offset[z];
        const std::uint32_t size = s.zone_size_[z];
        const auto code = static_cast<op>(c.flag);
        const std::size_t binder = fb + static_cast<std::size_t>(c.x);
        switch (code) {
            case op::any:
                for (std::uint32_t i = 0; i < size; ++i) {
                    s.locals_[binder] = s.contents_[off + i];
                    if (arg(c, 1, c.b, fb) != 0) return 1;
                }
                return 0;
            case op::all:
                for (std::uint32_t i = 0; i < size; ++i) {
                    s.locals_[binder] = s.contents_[off + i];
                    if (arg(c, 1, c.b, fb) == 0) return 0;
                }
                return 1;
            case op::count:
            case op::sum: {
                std::int64_t acc = 0;
                for (std::uint32_t i = 0; i < size; ++i) {
                    s.locals_[binder] = s.contents_[off + i];
                    const std::int64_t v = arg(c, 1, c.b, fb);
                    acc = code == op::count ? acc + (v != 0) : add_ck(n, acc, v);
                }
                return acc;
            }
            default: {
                std::int64_t acc = 0;
                for (std::uint32_t i = 0; i < size; ++i) {
                    s.locals_[binder] = s.contents_[off + i];
                    const std::int64_t v = arg(c, 1, c.b, fb);
                    acc = i == 0 ? v : code == op::min ? std::min(acc, v) : std::max(acc, v);
                }
                return acc;
            }
        }
    }

    // A quantity tabulated over its (one to three) parameters: a table index; outside the
    // table, the interpreter's call with the arguments already evaluated.
    std::int64_t table_quantity(id n, const game::compiled_node& c, std::uint32_t fb) {
        std::int64_t args[3];
        args[0] = arg(c, 0, c.a, fb);
        if (c.flag > 1) args[1] = arg(c, 1, c.b, fb);
        if (c.flag > 2) args[2] = arg(c, 2, c.c, fb);
        const game::tabulated& table = g.quantity_tables[c.x];
        std::size_t index = 0;
        for (std::size_t i = 0; i < c.flag; ++i) {
            const std::int64_t v = args[i] - table.bases[i];
            if (v < 0 || v >= table.sizes[i]) return call_with(n, args, c.flag);
            index = index * static_cast<std::size_t>(table.sizes[i]) + static_cast<std::size_t>(v);
        }
        return table.values[index];
    }

    [[gnu::noinline]] std::int64_t eval_node(id n, std::uint32_t fb) {
        const ir::node& nd = N(n);
        switch (nd.code) {
            case op::absent: return 0;
            case op::const_int:
            case op::const_bool:
            case op::const_string:
            case op::const_member:
            case op::const_node: return nd.value;
            case op::const_entity:
                return nd.value < 0 ? -1 : static_cast<std::int64_t>(g.entity_first.at(static_cast<std::size_t>(nd.value)));
            case op::dice: {
                if (s.probing_) [[unlikely]] {
                    if (const std::optional<std::int64_t> total = take_fixed(s.fixed_dice_, n)) return *total;
                }
                const ir::distribution& d = g.dice[nd.ref];
                return chance(d.min, d.weights, d.total);
            }
            case op::local: return s.locals_[fb + nd.ref];
            case op::global:
            case op::player_field:
            case op::entity_field: {
                const std::uint32_t a = addr(n, fb);
                return kind_of(n) == ir::type_kind::map_of ? a : s.values_[a];
            }
            case op::attribute: {
                const std::int64_t inst = eval(child(n, 0), fb);
                if (inst < 0 || static_cast<std::size_t>(inst) >= g.instance_entity.size()) fail(n, "attribute of no entity");
                return g.instance_attributes[static_cast<std::size_t>(inst) * g.attribute_stride + nd.ref];
            }
            case op::node_attribute: {
                const std::int64_t v = eval(child(n, 0), fb);
                const ir::type& t = rs.types[N(child(n, 0)).type];
                if (v < 0) fail(n, "attribute of no location");
                return rs.maps.at(t.ref).nodes.at(static_cast<std::size_t>(v)).values.at(nd.ref);
            }
            case op::zone: return g.zone_first.at(nd.ref);
            case op::index: {
                const ir::type& mt = rs.types[N(child(n, 0)).type];
                if (mt.kind == ir::type_kind::map_of && rs.types[mt.value].kind == ir::type_kind::zone) {
                    const std::int64_t base = eval(child(n, 0), fb);
                    const std::int64_t k = eval(child(n, 1), fb);
                    if (k < 0 || k >= g.players()) fail(n, "zone of no player");
                    return base + k;
                }
                return s.values_[addr(n, fb)];
            }
            case op::option: return g.option_value.at(nd.ref);
            case op::roll:
            case op::quantity:
            case op::decide:
            case op::lookup: return eval_call(n, fb);
            case op::builtin: return builtin(n, fb);
            case op::neg: return neg_ck(n, eval(child(n, 0), fb));
            case op::not_: return eval(child(n, 0), fb) == 0;
            case op::add: { const std::int64_t a = eval(child(n, 0), fb); return add_ck(n, a, eval(child(n, 1), fb)); }
            case op::sub: { const std::int64_t a = eval(child(n, 0), fb); return sub_ck(n, a, eval(child(n, 1), fb)); }
            case op::mul: { const std::int64_t a = eval(child(n, 0), fb); return mul_ck(n, a, eval(child(n, 1), fb)); }
            case op::div:
            case op::mod: {
                const std::int64_t a = eval(child(n, 0), fb);
                const std::int64_t b = eval(child(n, 1), fb);
                if (b == 0) fail(n, "division by zero");
                return div_ck(n, a, b, nd.code == op::mod);
            }
            case op::eq:
            case op::ne: {
                std::int64_t a = eval(child(n, 0), fb);
                std::int64_t b = eval(child(n, 1), fb);
                // A card named in the rules stands for every copy of it.
                if (N(child(n, 0)).code == op::const_entity || N(child(n, 1)).code == op::const_entity) {
                    a = entity_or_none(a);
                    b = entity_or_none(b);
                }
                return nd.code == op::eq ? a == b : a != b;
            }
            case op::lt: return eval(child(n, 0), fb) < eval(child(n, 1), fb);
            case op::le: return eval(child(n, 0), fb) <= eval(child(n, 1), fb);
            case op::gt: return eval(child(n, 0), fb) > eval(child(n, 1), fb);
            case op::ge: return eval(child(n, 0), fb) >= eval(child(n, 1), fb);
            case op::in: {
                const std::int64_t v = eval(child(n, 0), fb);
                const bool by_entity = N(child(n, 0)).code == op::const_entity;
                if (kind_of(child(n, 1)) == ir::type_kind::zone) {
                    const auto z = static_cast<std::size_t>(eval_zone(child(n, 1), fb));
                    const std::int32_t* c = s.contents_.data() + g.zone_capacity_offset[z];
                    for (std::uint32_t i = 0; i < s.zone_size_[z]; ++i)
                        if (by_entity ? entity_or_none(c[i]) == entity_or_none(v) : c[i] == v) return 1;
                    return 0;
                }
                const std::size_t start = push_set(child(n, 1), fb);
                bool found = false;
                for (std::size_t i = start; i < s.scratch_.size() && !found; ++i)
                    found = by_entity ? entity_or_none(s.scratch_[i]) == entity_or_none(v) : s.scratch_[i] == v;
                cut(s.scratch_, start);
                return found;
            }
            case op::and_: return eval(child(n, 0), fb) != 0 && eval(child(n, 1), fb) != 0;
            case op::or_: return eval(child(n, 0), fb) != 0 || eval(child(n, 1), fb) != 0;
            case op::cond: return eval(child(n, 0), fb) != 0 ? eval(child(n, 1), fb) : eval(child(n, 2), fb);
            case op::any:
            case op::all:
            case op::count:
            case op::sum:
            case op::min:
            case op::max: return aggregate(n, fb);
            default: fail(n, std::string("not an expression: ") + ir::name_of(nd.code));
        }
    }

    std::int64_t entity_or_none(std::int64_t inst) const {
        if (inst < 0 || static_cast<std::size_t>(inst) >= g.instance_entity.size()) return -1;
        return g.instance_entity[static_cast<std::size_t>(inst)];
    }

    std::int64_t aggregate(id n, std::uint32_t fb) {
        const ir::node& nd = N(n);
        // A zone is read in place (an expression cannot change it); other sets go on scratch.
        const bool zone = kind_of(child(n, 0)) == ir::type_kind::zone;
        std::size_t start = 0, end = 0;
        const std::int32_t* contents = nullptr;
        if (zone) {
            const auto z = static_cast<std::size_t>(eval_zone(child(n, 0), fb));
            contents = s.contents_.data() + g.zone_capacity_offset[z];
            end = s.zone_size_[z];
        } else {
            start = push_set(child(n, 0), fb);
            end = s.scratch_.size();
        }
        std::int64_t acc = nd.code == op::all ? 1 : 0;
        bool first = true;
        for (std::size_t i = start; i < end; ++i) {
            s.locals_[fb + nd.ref] = zone ? contents[i] : s.scratch_[i];
            const std::int64_t v = eval(child(n, 1), fb);
            switch (nd.code) {
                case op::any: if (v) acc = 1; break;
                case op::all: if (!v) acc = 0; break;
                case op::count: acc += v != 0; break;
                case op::sum: acc = add_ck(n, acc, v); break;
                case op::min: acc = first ? v : std::min(acc, v); break;
                case op::max: acc = first ? v : std::max(acc, v); break;
                default: break;
            }
            first = false;
            if ((nd.code == op::any && acc) || (nd.code == op::all && !acc)) break;
        }
        if (!zone) cut(s.scratch_, start);
        return acc;
    }

    std::int64_t builtin(id n, std::uint32_t fb) {
        const ir::node& nd = N(n);
        const auto b = static_cast<ir::builtin>(nd.ref);
        switch (b) {
            case ir::builtin::count:
            case ir::builtin::size: {
                const id arg = child(n, 0);
                if (kind_of(arg) == ir::type_kind::integer) return eval(arg, fb);
                return static_cast<std::int64_t>(set_size(arg, fb));
            }
            case ir::builtin::top: {
                if (kind_of(child(n, 0)) == ir::type_kind::zone) {
                    const auto z = static_cast<std::size_t>(eval_zone(child(n, 0), fb));
                    return s.zone_size_[z] > 0 ? s.contents_[g.zone_capacity_offset[z] + s.zone_size_[z] - 1] : -1;
                }
                const std::size_t start = push_set(child(n, 0), fb);
                const std::int64_t v = s.scratch_.size() > start ? s.scratch_.back() : -1;
                cut(s.scratch_, start);
                return v;
            }
            case ir::builtin::active_player: return active_player();
            case ir::builtin::min: return std::min(eval(child(n, 0), fb), eval(child(n, 1), fb));
            case ir::builtin::max: return std::max(eval(child(n, 0), fb), eval(child(n, 1), fb));
            case ir::builtin::abs: {
                const std::int64_t v = eval(child(n, 0), fb);
                if (v == std::numeric_limits<std::int64_t>::min()) [[unlikely]]
                    overflow(n, "abs(" + std::to_string(v) + ")");
                return v < 0 ? -v : v;
            }
            case ir::builtin::ceil_div:
            case ir::builtin::floor_div: {
                const std::int64_t a = eval(child(n, 0), fb);
                const std::int64_t d = eval(child(n, 1), fb);
                if (d == 0) fail(n, "division by zero");
                std::int64_t q = div_ck(n, a, d, false);
                const bool inexact = q * d != a;
                if (b == ir::builtin::floor_div && inexact && ((a < 0) != (d < 0))) --q;
                if (b == ir::builtin::ceil_div && inexact && ((a < 0) == (d < 0))) ++q;
                return q;
            }
            case ir::builtin::adjacent: {
                const std::int64_t a = eval(child(n, 0), fb);
                const std::int64_t c = eval(child(n, 1), fb);
                const ir::type& t = rs.types[N(child(n, 0)).type];
                if (a < 0 || c < 0) return 0;
                const auto& nb = rs.maps.at(t.ref).nodes.at(static_cast<std::size_t>(a)).neighbours;
                return std::find(nb.begin(), nb.end(), static_cast<id>(c)) != nb.end();
            }
            case ir::builtin::distance: {
                const std::int64_t a = eval(child(n, 0), fb);
                const std::int64_t c = eval(child(n, 1), fb);
                if (a < 0 || c < 0) fail(n, "distance to no location");
                return distance(n, rs.maps.at(rs.types[N(child(n, 0)).type].ref), a, c);
            }
            case ir::builtin::terrain: {
                const std::int64_t v = eval(child(n, 0), fb);
                const ir::type& t = rs.types[N(child(n, 0)).type];
                if (v < 0) fail(n, "terrain of no location");
                return rs.maps.at(t.ref).nodes.at(static_cast<std::size_t>(v)).terrain;
            }
            case ir::builtin::odds: {
                const std::int64_t a = eval(child(n, 0), fb);
                const std::int64_t d = eval(child(n, 1), fb);
                if (a < std::numeric_limits<std::int32_t>::min() || a > std::numeric_limits<std::int32_t>::max() ||
                    d < std::numeric_limits<std::int32_t>::min() || d > std::numeric_limits<std::int32_t>::max())
                    fail(n, "odds " + std::to_string(a) + ":" + std::to_string(d) + " are too large to read");
                return static_cast<std::int64_t>((static_cast<std::uint64_t>(a) << 32) |
                                                 static_cast<std::uint32_t>(static_cast<std::int32_t>(d)));
            }
            case ir::builtin::edge_kind: {
                const std::int64_t a = eval(child(n, 0), fb);
                const std::int64_t c = eval(child(n, 1), fb);
                if (a < 0 || c < 0) fail(n, "edge to or from no location");
                const id mi = rs.types[N(child(n, 0)).type].ref;
                const ir::map& m = rs.maps.at(mi);
                for (std::uint32_t ei : g.node_edges.at(mi).at(static_cast<std::size_t>(a))) {
                    const ir::map_edge& e = m.edges[ei];
                    if (joins(m, e, a, c) && !e.kinds.empty()) return e.kinds.front();
                }
                fail(n, "no edge of a known kind from " + m.nodes.at(static_cast<std::size_t>(a)).name + " to " +
                            m.nodes.at(static_cast<std::size_t>(c)).name);
            }
            case ir::builtin::path_exists: return path_exists(n, fb);
            case ir::builtin::line_blocked: return line_blocked(n, fb);
            default: fail(n, std::string("built-in ") + ir::name_of(b) + " is not supported by the engine yet");
        }
    }

    // Calls quantity or predicate q with its arguments (tabulated values where there are).
    std::int64_t call_quantity(id q, const std::int64_t* args, std::size_t c) {
        // The tables are made after the rules are prepared, which may already call quantities.
        if (q < g.quantity_tables.size() && !g.quantity_tables[q].values.empty()) {
            const game::tabulated& table = g.quantity_tables[q];
            std::size_t index = 0;
            bool inside = true;
            for (std::size_t i = 0; i < c; ++i) {
                const std::int64_t v = args[i] - table.bases[i];
                inside = inside && v >= 0 && v < table.sizes[i];
                index = index * static_cast<std::size_t>(table.sizes[i]) + static_cast<std::size_t>(v);
            }
            if (inside) return table.values[index];
        }
        const ir::derived& d = rs.quantities[q];
        const std::size_t mark = s.locals_.size();
        const std::uint32_t qfb = push_region(std::max<std::size_t>(d.locals.size(), c));
        for (std::size_t i = 0; i < c; ++i) s.locals_[qfb + i] = args[i];
        std::int64_t v = eval(d.expr, qfb);
        cut(s.locals_, mark);
        if (!d.predicate) v = add_in(d.expr, "quantity", d.name, v, modifiers(g.group_of_quantity[q], args, c));
        return v;
    }

    // path_exists(a, b, pred): a path of adjacent locations from a to b whose every location
    // after a (b included) satisfies pred(h), or whose every step satisfies pred(from, to).
    // From a to a itself: true.
    std::int64_t path_exists(id n, std::uint32_t fb) {
        const std::int64_t a = eval(child(n, 0), fb);
        const std::int64_t b = eval(child(n, 1), fb);
        if (a < 0 || b < 0) return 0;
        if (a == b) return 1;
        const ir::map& m = rs.maps.at(rs.types[N(child(n, 0)).type].ref);
        const auto pred = static_cast<id>(N(n).value);
        const bool steps = rs.quantities[pred].param_count == 2;
        std::vector<std::uint8_t> seen(m.nodes.size(), 0);  // 1 queued, 2 refused by pred(h)
        std::vector<id> queue{static_cast<id>(a)};
        seen[static_cast<std::size_t>(a)] = 1;
        for (std::size_t i = 0; i < queue.size(); ++i)
            for (id nb : m.nodes[queue[i]].neighbours) {
                if (seen[nb]) continue;
                const std::int64_t args[2] = {steps ? static_cast<std::int64_t>(queue[i]) : static_cast<std::int64_t>(nb),
                                              static_cast<std::int64_t>(nb)};
                if (!call_quantity(pred, steps ? args : args + 1, steps ? 2 : 1)) {
                    if (!steps) seen[nb] = 2;  // a step refused from here may be taken from elsewhere
                    continue;
                }
                if (static_cast<std::int64_t>(nb) == b) return 1;
                seen[nb] = 1;
                queue.push_back(nb);
            }
        return 0;
    }

    // line_blocked(a, b, pred) on a hex grid: the straight line from the centre of a to the
    // centre of b is sampled at the N+1 points i/N of the way (N the distance), each rounded to
    // a hex twice, nudged a hair to either side of the line. Where both roundings agree the line
    // crosses that hex's interior: it blocks when pred holds for it. Where they differ the point
    // lies on the hexside between the two: the line is blocked there only when pred holds for
    // both. a and b never block. Exact: cube coordinates scaled by 16N, nudges of (1, 2, -3).
    std::int64_t line_blocked(id n, std::uint32_t fb) {
        const std::int64_t a = eval(child(n, 0), fb);
        const std::int64_t b = eval(child(n, 1), fb);
        if (a < 0 || b < 0) fail(n, "a line to or from no location");
        const ir::map& m = rs.maps.at(rs.types[N(child(n, 0)).type].ref);
        const auto pred = static_cast<id>(N(n).value);
        const bool three = rs.quantities[pred].param_count == 3;
        const ir::map_node& p = m.nodes.at(static_cast<std::size_t>(a));
        const ir::map_node& q = m.nodes.at(static_cast<std::size_t>(b));
        auto cube = [](std::int64_t col, std::int64_t row, std::int64_t c[3]) {
            c[0] = col;
            c[2] = row - (col + (col & 1)) / 2;
            c[1] = -c[0] - c[2];
        };
        std::int64_t ca[3], cb[3];
        cube(p.col, p.row, ca);
        cube(q.col, q.row, cb);
        const std::int64_t len = (std::abs(ca[0] - cb[0]) + std::abs(ca[1] - cb[1]) + std::abs(ca[2] - cb[2])) / 2;
        if (len <= 1) return 0;
        const std::int64_t scale = 16 * len;
        auto hex_at = [&](std::int64_t x, std::int64_t z) -> std::int64_t {
            const std::int64_t col = x, row = z + (col + (col & 1)) / 2;
            for (std::size_t i = 0; i < m.nodes.size(); ++i)
                if (m.nodes[i].col == col && m.nodes[i].row == row) return static_cast<std::int64_t>(i);
            return -1;  // off the map: blocks nothing
        };
        auto blocks = [&](std::int64_t h) -> bool {
            if (h < 0 || h == a || h == b) return false;
            const std::int64_t args[3] = {h, a, b};
            return call_quantity(pred, args, three ? 3 : 1) != 0;
        };
        // Rounds the point v / scale (cube, v summing to 0) to the nearest hex.
        auto round_cube = [&](const std::int64_t v[3], std::int64_t out[3]) {
            std::int64_t diff[3];
            for (int k = 0; k < 3; ++k) {
                const std::int64_t twice = 2 * v[k] + scale;  // floor((2v + s) / 2s) = round(v / s)
                std::int64_t r = twice / (2 * scale);
                if (twice % (2 * scale) != 0 && twice < 0) --r;
                out[k] = r;
                diff[k] = std::abs(r * scale - v[k]);
            }
            if (diff[0] > diff[1] && diff[0] > diff[2]) out[0] = -out[1] - out[2];
            else if (diff[1] > diff[2]) out[1] = -out[0] - out[2];
            else out[2] = -out[0] - out[1];
        };
        static constexpr std::int64_t nudge[3] = {1, 2, -3};
        for (std::int64_t i = 1; i < len; ++i) {
            std::int64_t plus[3], minus[3], hp[3], hm[3];
            for (int k = 0; k < 3; ++k) {
                const std::int64_t v = ca[k] * scale + (cb[k] - ca[k]) * 16 * i;
                plus[k] = v + nudge[k];
                minus[k] = v - nudge[k];
            }
            round_cube(plus, hp);
            round_cube(minus, hm);
            const std::int64_t h1 = hex_at(hp[0], hp[2]);
            if (hp[0] == hm[0] && hp[2] == hm[2]) {
                if (blocks(h1)) return 1;
            } else if (blocks(h1) && blocks(hex_at(hm[0], hm[2]))) {
                return 1;
            }
        }
        return 0;
    }

    std::int64_t distance(id n, const ir::map& m, std::int64_t a, std::int64_t b) const {
        const std::int64_t d = ir::map_distance(m, a, b);
        if (d < 0)
            fail(n, "no path from " + m.nodes[static_cast<std::size_t>(a)].name + " to " +
                        m.nodes[static_cast<std::size_t>(b)].name);
        return d;
    }

    std::int64_t active_player() const {
        for (std::size_t i = s.frames_.size(); i-- > 0;) {
            const state::frame& f = s.frames_[i];
            if (f.kind != state::frame_kind::for_each || f.pc == 0) continue;
            const ir::node& nd = N(f.node);
            const id set = child(f.node, 0);
            const id t = N(set).type;
            if (t != ir::no_id && rs.types[t].kind == ir::type_kind::list_of &&
                rs.types[rs.types[t].value].kind == ir::type_kind::player)
                return s.locals_[f.fb + nd.ref];
        }
        return s.pending_player_;
    }

    // ------------------------------------------------ zones

    // Records that statement n changed value cell a / zone instance z (when tracking changes).
    void changed_value(std::uint32_t a, id n) {
        if (!s.opt_.track_changes) return;
        s.value_writer_[a] = n;
        s.value_time_[a] = ++s.change_clock_;
    }
    void changed_zone(std::size_t z, id n) {
        if (!s.opt_.track_changes) return;
        s.zone_writer_[z] = n;
        s.zone_time_[z] = ++s.change_clock_;
    }

    void zone_remove(id n, std::int64_t zi, std::int64_t inst) {
        const auto z = static_cast<std::size_t>(zi);
        changed_zone(z, n);
        const std::uint32_t off = g.zone_capacity_offset[z];
        std::uint32_t& size = s.zone_size_[z];
        for (std::uint32_t i = size; i-- > 0;) {
            if (s.contents_[off + i] == inst) {
                for (std::uint32_t j = i; j + 1 < size; ++j) s.contents_[off + j] = s.contents_[off + j + 1];
                --size;
                return;
            }
        }
        fail(n, g.instance_text(inst) + " is not in " + zone_text(zi));
    }

    // The topmost copy of inst's entity in zone zi (inst itself when there is none).
    std::int64_t copy_in(std::int64_t zi, std::int64_t inst) const {
        const auto z = static_cast<std::size_t>(zi);
        const std::uint32_t off = g.zone_capacity_offset[z];
        for (std::uint32_t i = s.zone_size_[z]; i-- > 0;)
            if (entity_or_none(s.contents_[off + i]) == entity_or_none(inst)) return s.contents_[off + i];
        return inst;
    }

    void zone_add(id n, std::int64_t zi, std::int64_t inst) {
        const auto z = static_cast<std::size_t>(zi);
        const ir::zone& zone = rs.zones[g.zone_instance_zone[z]];
        if (inst < 0 || g.instance_entity.at(static_cast<std::size_t>(inst)) >= rs.entities.size() ||
            rs.entities[g.instance_entity[static_cast<std::size_t>(inst)]].kind != zone.entity_kind)
            fail(n, "cannot put " + g.instance_text(inst) + " in " + zone_text(zi));
        s.contents_[g.zone_capacity_offset[z] + s.zone_size_[z]++] = static_cast<std::int32_t>(inst);
        changed_zone(z, n);
    }

    void zone_shuffle(id n, std::int64_t zi) {
        const auto z = static_cast<std::size_t>(zi);
        changed_zone(z, n);
        const std::uint32_t off = g.zone_capacity_offset[z];
        for (std::uint32_t i = s.zone_size_[z]; i > 1; --i) {
            const auto j = static_cast<std::uint32_t>(s.rng_.below(i));
            std::swap(s.contents_[off + i - 1], s.contents_[off + j]);
        }
    }

    std::string zone_text(std::int64_t zi) const {
        const auto z = static_cast<std::size_t>(zi);
        const id zone = g.zone_instance_zone.at(z);
        std::string t = rs.zones[zone].name;
        if (rs.zones[zone].per_player) t += "[P" + std::to_string(zi - g.zone_first[zone] + 1) + "]";
        return t;
    }

    // The zone instances an expression names: one, or each player's for a per-player zone.
    void zone_targets(id n, std::uint32_t fb, std::vector<std::int64_t>& out) {
        out.clear();
        if (kind_of(n) == ir::type_kind::map_of) {
            const std::int64_t base = eval(n, fb);
            for (int p = 0; p < g.players(); ++p) out.push_back(base + p);
        } else {
            out.push_back(eval(n, fb));
        }
    }

    // ------------------------------------------------ statements

    bool tracing() const { return s.opt_.trace && *s.opt_.trace; }
    void trace(const std::string& line) const {
        if (tracing()) (*s.opt_.trace)(line);
    }

    void push_frame(state::frame_kind k, id node, std::uint32_t fb, std::uint32_t mark = npos) {
        state::frame f;
        f.kind = k;
        f.node = node;
        f.fb = fb;
        f.mark = mark;
        f.aux = static_cast<std::uint32_t>(s.loop_store_.size());
        if (k == state::frame_kind::list) list_span(g, f);
        s.frames_.push_back(f);
    }


    void store(id target, std::uint32_t fb, std::int64_t v, id stmt) {
        const std::uint32_t a = addr(target, fb);
        const id t = N(target).type;
        const ir::type& ty = rs.types.at(t);
        if (ty.kind == ir::type_kind::range) {
            if (v < ty.lo || v > ty.hi) {
                if (ty.policy == ir::overflow::clamp) {
                    v = std::clamp(v, ty.lo, ty.hi);
                } else if (ty.policy == ir::overflow::error) {
                    fail(stmt, "slot " + rs.slots[slot_of(target)].name + " would be " + std::to_string(v) +
                                   ", outside " + std::to_string(ty.lo) + ".." + std::to_string(ty.hi) + " (" +
                                   g.statement_owner(stmt) + ")");
                }
            }
        }
        if (N(target).code != op::index && rs.slots[slot_of(target)].flag && s.values_[a] != 0 && v == 0)
            fail(stmt, "flag " + rs.slots[slot_of(target)].name + " may not go back to false (" + g.statement_owner(stmt) + ")");
        s.values_[a] = v;
        changed_value(a, stmt);
    }


    // Whether the first statement of `body` can be done: a `do` that is legal, a `choose`
    // with at least one option. Other statements can always be done.
    bool body_possible(id body, std::uint32_t fb) {
        if (body == ir::no_id) return true;
        if (N(body).code == op::seq) {
            if (N(body).child_count == 0) return true;
            return body_possible(child(body, 0), fb);
        }
        const ir::node& nd = N(body);
        if (nd.code == op::do_action) {
            std::int64_t args[16];
            const std::size_t c = eval_args(body, fb, args);
            return action_legal(nd.ref, args, c);
        }
        if (nd.code == op::choose_one) return choose_options(body, fb, nullptr);
        return true;
    }

    // Whether the first statement of `body` is a `do` that a `require` rule demands.
    bool body_required(id body, std::uint32_t fb) {
        if (body == ir::no_id) return false;
        if (N(body).code == op::seq) return N(body).child_count > 0 && body_required(child(body, 0), fb);
        if (N(body).code != op::do_action) return false;
        std::int64_t args[16];
        const std::size_t c = eval_args(body, fb, args);
        const std::size_t start = applicable(g.group_of_action[N(body).ref], args, c);
        bool required = false;
        for (std::size_t i = start; i < s.rule_stack_.size(); ++i)
            if (rs.rules[s.rule_stack_[i]].kind == ir::rule_kind::require) {
                required = true;
                fire(s.rule_stack_[i]);  // it takes "no" away from the `may`
            }
        cut(s.rule_stack_, start);
        return required;
    }

    // The legal options of `choose` statement n, in set order, into *out (cleared first); with
    // no `out`, only whether there is one. Returns whether there is at least one.
    bool choose_options(id n, std::uint32_t fb, std::vector<std::int64_t>* out) {
        const ir::node& nd = N(n);
        if (out) out->clear();
        const std::size_t start = push_set(child(n, 0), fb);
        const std::size_t end = s.scratch_.size();
        const id where = child(n, 2);
        const id body = child(n, 3);
        const std::size_t fires_mark = s.fire_log_.size();
        bool any = false;
        // By index: evaluating `where` and the body pushes above `end` (and may reallocate).
        for (std::size_t i = start; i < end; ++i) {
            const std::int64_t v = s.scratch_[i];
            if (out && std::find(out->begin(), out->end(), v) != out->end()) continue;
            s.locals_[fb + nd.ref] = v;
            if (N(where).code != op::absent && eval(where, fb) == 0) continue;
            if (!body_possible(body, fb)) continue;
            any = true;
            if (!out) break;
            out->push_back(v);
        }
        cut(s.scratch_, start);
        if (!out && any) {
            // Only asked whether the choice can be made (for an enclosing `may` or `choose`): it
            // can, so the rules met on the way decided nothing there; they count where the
            // choice itself is listed.
            for (std::size_t i = fires_mark; i < s.fire_log_.size(); ++i) --s.fires_[s.fire_log_[i]];
            cut(s.fire_log_, fires_mark);
        }
        return any;
    }

    // Runs one statement of the top frame (or advances a loop frame).
    // Statement lists are most steps: they stay here, the loops and blocks out of line (a
    // small frame for the common path).
    void step() {
        const std::size_t fi = s.frames_.size() - 1;
        const state::frame& f = s.frames_[fi];
        if (f.kind == state::frame_kind::list) [[likely]] {
            if (f.pc >= f.aux_len) return pop();
            const id n = f.aux == npos ? f.node : g.flat_statements[f.aux + f.pc];
            if (!s.ran_.empty()) [[unlikely]] s.ran_[n] = 1;
            return statement(fi, n, f.fb);
        }
        step_frame(fi);
    }

    [[gnu::noinline]] void step_frame(std::size_t fi) {
        const state::frame f = s.frames_[fi];
        switch (f.kind) {
            case state::frame_kind::list: return;  // stepped by step()
            case state::frame_kind::block: {
                const bool turn = g.block_is_turn[N(f.node).ref] != 0;
                if (f.pc == 0) {
                    s.frames_[fi].pc = 1;
                    if (turn) {
                        if (tracing())
                            trace("turn " + rs.blocks[N(f.node).ref].path + " (player " + std::to_string(active_player() + 1) +
                                  ")");
                        for (std::size_t i = fi; i-- > 0;)
                            if (s.frames_[i].kind == state::frame_kind::for_each && players_loop(s.frames_[i].node)) {
                                s.frames_[i].round = true;
                                break;
                            }
                    }
                    push_frame(state::frame_kind::list, child(f.node, 0), f.fb);
                    return;
                }
                pop();
                if (turn && s.end_at_ == 1) s.finish(s.pending_end_);
                return;
            }
            case state::frame_kind::while_: {
                if (eval(child(f.node, 0), f.fb) != 0) {
                    push_frame(state::frame_kind::list, child(f.node, 1), f.fb);
                } else {
                    pop();
                }
                return;
            }
            case state::frame_kind::repeat: {
                if (f.pc == 0) {
                    s.frames_[fi].pc = 1;
                    push_frame(state::frame_kind::list, child(f.node, 0), f.fb);
                    return;
                }
                if (eval(child(f.node, 1), f.fb) != 0) return pop();
                push_frame(state::frame_kind::list, child(f.node, 0), f.fb);
                return;
            }
            case state::frame_kind::subset:
            case state::frame_kind::order: {
                const std::uint32_t n = f.aux_len;
                const std::uint32_t chosen_at = f.aux + n;
                const auto chosen = static_cast<std::uint32_t>(s.loop_store_.size()) - chosen_at;
                if (f.pc > n) return pop();
                const bool done = f.kind == state::frame_kind::subset ? f.pc == n : chosen == n;
                if (done) {
                    s.locals_[f.fb + N(f.node).ref] = (static_cast<std::int64_t>(chosen_at) << 24) | chosen;
                    s.frames_[fi].pc = n + 1;
                    push_frame(state::frame_kind::list, child(f.node, 3), f.fb);
                    return;
                }
                std::vector<std::int64_t>& opts = s.options_;
                opts.clear();
                if (f.kind == state::frame_kind::subset) {
                    opts.push_back(1);
                    opts.push_back(0);
                } else {
                    for (std::uint32_t i = 0; i < n; ++i) {
                        const std::int64_t v = s.loop_store_[f.aux + i];
                        if (std::find(s.loop_store_.begin() + chosen_at, s.loop_store_.end(), v) == s.loop_store_.end())
                            opts.push_back(v);
                    }
                    if (opts.size() == 1) {  // the last one takes the last place
                        s.loop_store_.push_back(opts[0]);
                        opts.clear();
                        ++s.frames_[fi].pc;
                        return;
                    }
                }
                const id by = child(f.node, 1);
                const std::int64_t player = N(by).code == op::absent ? -1 : eval(by, f.fb);
                await_choice(f.node, f.fb, player);
                return;
            }
            case state::frame_kind::for_each: {
                if (f.pc >= f.aux_len) {
                    pop();
                    if (s.end_at_ == 2 && (f.round || (!g.has_turns && players_loop(f.node)))) s.finish(s.pending_end_);
                    return;
                }
                s.locals_[f.fb + N(f.node).ref] = s.loop_store_[f.aux + f.pc];
                s.frames_[fi].pc = f.pc + 1;
                push_frame(state::frame_kind::list, child(f.node, 2), f.fb);
                return;
            }
        }
    }

    bool players_loop(id for_each) const {
        const id t = N(child(for_each, 0)).type;
        return t != ir::no_id && rs.types[t].kind == ir::type_kind::list_of &&
               rs.types[rs.types[t].value].kind == ir::type_kind::player;
    }

    void pop() {
        const state::frame f = s.frames_.back();
        s.frames_.pop_back();
        if (f.kind == state::frame_kind::for_each || f.kind == state::frame_kind::subset ||
            f.kind == state::frame_kind::order)
            cut(s.loop_store_, f.aux);
        if (f.mark != npos) cut(s.locals_, f.mark);
    }

    // A new region for an element's locals with args bound; pushes its body.
    void call(id body, std::size_t locals, const std::int64_t* args, std::size_t count) {
        const auto mark = static_cast<std::uint32_t>(s.locals_.size());
        const std::uint32_t fb = push_region(std::max(locals, count));
        for (std::size_t i = 0; i < count; ++i) s.locals_[fb + i] = args[i];
        if (body == ir::no_id) {
            cut(s.locals_, mark);
            return;
        }
        push_frame(state::frame_kind::list, body, fb, mark);
    }

    void statement(std::size_t fi, id n, std::uint32_t fb) {
        const ir::node& nd = N(n);
        auto advance = [&] { ++s.frames_[fi].pc; };
        switch (nd.code) {
            case op::seq:
                advance();
                push_frame(state::frame_kind::list, n, fb);
                return;
            case op::block:
                advance();
                // Only a `turn` needs a frame of its own (its start is traced, its end may end the
                // game); phases and steps run as plain statement lists.
                push_frame(g.block_is_turn[nd.ref] ? state::frame_kind::block : state::frame_kind::list,
                           g.block_is_turn[nd.ref] ? n : child(n, 0), fb);
                return;
            case op::let: {
                const std::int64_t v = eval(child(n, 0), fb);
                advance();
                s.locals_[fb + nd.ref] = v;
                return;
            }
            case op::assign:
            case op::add_assign:
            case op::sub_assign: {
                std::int64_t v = eval(child(n, 1), fb);
                if (nd.code != op::assign) {
                    const std::int64_t old = eval(child(n, 0), fb);
                    v = nd.code == op::add_assign ? add_ck(n, old, v) : sub_ck(n, old, v);
                }
                store(child(n, 0), fb, v, n);
                advance();
                return;
            }
            case op::if_: {
                const std::uint8_t known = g.if_condition[n];
                const bool c = known == game::condition_varies ? eval(child(n, 0), fb) != 0 : known == game::condition_true;
                advance();
                if (c) push_frame(state::frame_kind::list, child(n, 1), fb);
                else if (N(child(n, 2)).code != op::absent) push_frame(state::frame_kind::list, child(n, 2), fb);
                return;
            }
            case op::for_each: {
                const std::size_t start = push_set(child(n, 0), fb);
                const std::int64_t from = N(child(n, 1)).code != op::absent ? eval(child(n, 1), fb) : -1;
                advance();
                push_frame(state::frame_kind::for_each, n, fb);
                const std::size_t at = s.loop_store_.size();
                s.loop_store_.insert(s.loop_store_.end(), s.scratch_.begin() + static_cast<std::ptrdiff_t>(start), s.scratch_.end());
                s.frames_.back().aux_len = static_cast<std::uint32_t>(s.loop_store_.size() - at);
                cut(s.scratch_, start);
                if (N(child(n, 1)).code != op::absent) {
                    const auto first = s.loop_store_.begin() + static_cast<std::ptrdiff_t>(at);
                    const auto it = std::find(first, s.loop_store_.end(), from);
                    if (it != s.loop_store_.end()) std::rotate(first, it, s.loop_store_.end());
                }
                return;
            }
            case op::while_:
                advance();
                push_frame(state::frame_kind::while_, n, fb);
                return;
            case op::repeat_until:
                advance();
                push_frame(state::frame_kind::repeat, n, fb);
                return;
            case op::shuffle: {
                zone_targets(child(n, 0), fb, s.targets_);
                advance();
                for (std::int64_t z : s.targets_) zone_shuffle(n, z);
                return;
            }
            case op::draw:
            case op::deal: {
                const std::int64_t count = eval(child(n, 0), fb);
                const std::int64_t from = eval(child(n, 1), fb);
                zone_targets(child(n, 2), fb, s.targets_);
                const std::vector<std::int64_t>& to = s.targets_;
                advance();
                for (std::int64_t i = 0; i < count; ++i)
                    for (std::int64_t z : to) {
                        const auto fz = static_cast<std::size_t>(from);
                        if (s.zone_size_[fz] == 0) return;
                        const std::int64_t top = s.contents_[g.zone_capacity_offset[fz] + s.zone_size_[fz] - 1];
                        zone_remove(n, from, top);
                        zone_add(n, z, top);
                    }
                return;
            }
            case op::move: {
                std::int64_t e = eval(child(n, 0), fb);
                const std::int64_t from = eval(child(n, 1), fb);
                const std::int64_t to = eval(child(n, 2), fb);
                if (N(child(n, 0)).code == op::const_entity) e = copy_in(from, e);
                advance();
                zone_remove(n, from, e);
                zone_add(n, to, e);
                return;
            }
            case op::reshuffle: {
                const std::int64_t from = eval(child(n, 0), fb);
                const std::int64_t into = eval(child(n, 1), fb);
                advance();
                const auto fz = static_cast<std::size_t>(from);
                while (s.zone_size_[fz] > 0) {
                    const std::int64_t top = s.contents_[g.zone_capacity_offset[fz] + s.zone_size_[fz] - 1];
                    zone_remove(n, from, top);
                    zone_add(n, into, top);
                }
                zone_shuffle(n, into);
                return;
            }
            case op::choose_one: {
                if (!choose_options(n, fb, &s.options_)) fail(n, "a choice with no legal option");
                const id by = child(n, 1);
                const std::int64_t player = N(by).code == op::absent ? -1 : eval(by, fb);
                advance();
                await_choice(n, fb, player);
                return;
            }
            case op::choose_subset:
            case op::choose_order: {
                if (N(child(n, 2)).code != op::absent)
                    fail(n, std::string(ir::name_of(nd.code)) + " with `where` is not supported by the engine yet");
                const std::size_t start = push_set(child(n, 0), fb);
                advance();
                push_frame(nd.code == op::choose_subset ? state::frame_kind::subset : state::frame_kind::order, n, fb);
                const auto at = static_cast<std::ptrdiff_t>(s.loop_store_.size());
                for (std::size_t i = start; i < s.scratch_.size(); ++i)
                    if (std::find(s.loop_store_.begin() + at, s.loop_store_.end(), s.scratch_[i]) == s.loop_store_.end())
                        s.loop_store_.push_back(s.scratch_[i]);
                cut(s.scratch_, start);
                const std::size_t count = s.loop_store_.size() - static_cast<std::size_t>(at);
                if (count >= (1u << 24)) fail(n, "too many elements to choose from");
                s.frames_.back().aux_len = static_cast<std::uint32_t>(count);
                return;
            }
            case op::may: {
                const id by = child(n, 0);
                std::int64_t player = N(by).code == op::absent ? active_player() : eval(by, fb);
                if (player < 0) fail(n, "`may` with no player to decide");
                const bool possible = body_possible(child(n, 1), fb);
                const bool required = possible && body_required(child(n, 1), fb);
                advance();
                if (!possible) return;
                s.pending_node_ = n;
                s.pending_fb_ = fb;
                s.options_ = {1, 0};
                if (required) s.options_ = {1};
                s.pending_player_ = static_cast<int>(player);
                s.pending_ = state::pending_kind::decision;
                return;
            }
            case op::do_action: {
                std::int64_t args[16];
                const std::size_t c = eval_args(n, fb, args);
                if (!action_legal(nd.ref, args, c))
                    fail(n, "action " + rs.actions[nd.ref].name + args_text(rs.actions[nd.ref].locals, args, c) +
                                " is not legal");
                advance();
                call(rs.actions[nd.ref].body, rs.actions[nd.ref].locals.size(), args, c);
                return;
            }
            case op::call: {
                std::int64_t args[16];
                const std::size_t c = eval_args(n, fb, args);
                advance();
                call(rs.procedures[nd.ref].body, rs.procedures[nd.ref].locals.size(), args, c);
                return;
            }
            case op::resolve: {
                std::int64_t args[16];
                const std::size_t c = eval_args(n, fb, args);
                const auto mark = static_cast<std::uint32_t>(s.locals_.size());
                const auto [tfb, cell] = table_cell(n, nd.ref, args, c);
                advance();
                if (cell->effects == ir::no_id) {
                    cut(s.locals_, mark);
                    return;
                }
                push_frame(state::frame_kind::list, cell->effects, tfb, mark);
                return;
            }
            case op::emit: {
                std::int64_t args[16];
                const std::size_t c = eval_args(n, fb, args);
                const std::size_t start = applicable(g.group_of_event[nd.ref], args, c);
                advance();
                if (tracing()) trace("event " + rs.events[nd.ref].name + args_text(rs.events[nd.ref].params, args, c));
                // Pushed last first, so that the triggers run in group order.
                for (std::size_t i = s.rule_stack_.size(); i-- > start;) {
                    const id r = s.rule_stack_[i];
                    if (rs.rules[r].kind != ir::rule_kind::trigger) continue;
                    fire(r);
                    call(rs.rules[r].body, rs.rules[r].locals.size(), args, c);
                }
                cut(s.rule_stack_, start);
                return;
            }
            case op::end_game: {
                advance();
                const bool named = nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs.strings.size();
                const std::string number = named ? std::string() : std::to_string(nd.value);
                const std::string& reason = named ? rs.strings[static_cast<std::size_t>(nd.value)] : number;
                if (nd.ref == 0) {
                    s.finish(reason);
                } else if (s.end_at_ == 0) {
                    s.end_at_ = static_cast<std::uint8_t>(nd.ref);
                    s.pending_end_ = reason;
                }
                return;
            }
            case op::fix_roll: {
                // only an example's `given` fixes a roll, and only a probe runs one
                if (!s.probing_) fail(n, "a fixed roll outside an example");
                const id r = N(child(n, 0)).ref;
                const std::int64_t dice = eval(child(n, 1), fb);
                advance();
                auto it = std::find_if(s.held_rolls_.begin(), s.held_rolls_.end(), [&](const auto& h) { return h.first == r; });
                if (it == s.held_rolls_.end()) s.held_rolls_.emplace_back(r, dice);
                else it->second = dice;
                return;
            }
            default: fail(n, std::string("not a statement: ") + ir::name_of(nd.code));
        }
    }

    // Applies option i of the pending decision or ownerless choice.
    // Suspends at a choice among `opts`: a decision of `player`, or, with no owner (player < 0),
    // a uniformly random pick (a chance node, sampled at once when chance is sampled).
    // The options are in s.options_.
    void await_choice(id node, std::uint32_t fb, std::int64_t player) {
        s.pending_node_ = node;
        s.pending_fb_ = fb;
        if (player < 0) {
            s.weights_.assign(s.options_.size(), 1);  // (sampled: no weights needed, but cheap)
            s.weight_total_ = s.options_.size();
            s.pending_player_ = -1;
            s.pending_ = state::pending_kind::chance_choice;
            if (s.opt_.sampled_chance) resolve_pending(static_cast<int>(s.rng_.below(s.options_.size())));
        } else {
            s.pending_player_ = static_cast<int>(player);
            s.pending_ = state::pending_kind::decision;
        }
    }

    void resolve_pending(int i) {
        const id n = s.pending_node_;
        const std::uint32_t fb = s.pending_fb_;
        const std::int64_t v = s.options_.at(static_cast<std::size_t>(i));
        s.pending_ = state::pending_kind::none;
        s.options_.clear();
        s.weights_.clear();
        if (N(n).code == op::may) {
            if (v) push_frame(state::frame_kind::list, child(n, 1), fb);
            return;
        }
        if (N(n).code == op::choose_subset || N(n).code == op::choose_order) {
            // The subset/order frame waiting is on top: record the answer, move on.
            state::frame& f = s.frames_.back();
            if (N(n).code == op::choose_order) s.loop_store_.push_back(v);
            else if (v) s.loop_store_.push_back(s.loop_store_[f.aux + f.pc]);
            ++f.pc;
            return;
        }
        s.locals_[fb + N(n).ref] = v;
        push_frame(state::frame_kind::list, child(n, 3), fb);
    }
};

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
    run();
}

// The initial values, and every entity in the first zone declared for its kind.
void state::set_up_storage() {
    const game& g = *g_;
    const ir::ruleset& rs = *rs_;
    values_.assign(g.value_count, 0);
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        std::int64_t init = slot.initial;
        const ir::type& t = rs.types[slot.type];
        if (t.kind == ir::type_kind::entity && init >= 0) init = g.entity_first.at(static_cast<std::size_t>(init));
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
    return out;
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

std::vector<std::string> state::violated_invariants() const {
    std::vector<std::string> out;
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
    for (const ir::rule& r : rs_->rules) {
        if (r.kind != ir::rule_kind::invariant || r.value == ir::no_id) continue;
        const std::uint32_t fb = in.push_region(r.locals.size());
        bool holds = true;
        try {
            holds = in.eval(r.value, fb) != 0;
        } catch (const need_chance&) {
            // an invariant that rolls a die has no value here: not reported
        } catch (...) {
            self.options_.swap(options);
            self.weights_.swap(weights);
            self.pending_ = pending;
            throw;
        }
        if (!holds) out.push_back(r.name);
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

std::vector<std::int64_t> state::zone_contents(const std::string& zone, int player) const {
    for (id z = 0; z < rs_->zones.size(); ++z) {
        if (rs_->zones[z].name != zone) continue;
        const std::size_t zi = g_->zone_first[z] + (rs_->zones[z].per_player ? static_cast<std::size_t>(player) : 0);
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
            for (std::uint32_t k = 0; k < l.width; ++k)
                out << ' ' << g_->value_text(vt, values_[l.offset + static_cast<std::uint32_t>(c) * l.width + k]);
            out << '\n';
        }
    }
    for (std::size_t zi = 0; zi < zone_size_.size(); ++zi) {
        const id z = g_->zone_instance_zone[zi];
        const ir::zone& zone = rs.zones[z];
        const int owner = zone.per_player ? static_cast<int>(zi - g_->zone_first[z]) : -1;
        out << zone.name;
        if (zone.per_player) out << "[P" << owner + 1 << "]";
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
        const id expr = r.kind == ir::rule_kind::define || r.kind == ir::rule_kind::invariant ? r.value
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

probe::outcome probe::cell(ir::id table, const std::vector<std::int64_t>& keys) {
    return attempt([&](outcome& o) {
        const ir::table& tb = g_->ruleset().tables.at(table);
        if (tb.row_map.kind == ir::key_range_kind::odds || (!tb.columns.empty() && tb.column_map.kind == ir::key_range_kind::odds))
            throw engine_error("probe: table " + tb.name + " has an odds key");
        if (keys.empty() || (!tb.columns.empty() && keys.size() < 2)) throw engine_error("probe: too few keys for table " + tb.name);
        const std::int32_t row = interp::map_key(tb.row_map, keys[0]);
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
