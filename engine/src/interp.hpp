// The interpreter's declaration (private to the engine): `struct interp` works on one state,
// evaluating expressions recursively (they cannot suspend) and running statements from the
// state's explicit stack of frames (statement list + position, loop state), so execution stops
// at a decision or chance node and resumes in state::apply().
//
// Chance inside a statement: every statement evaluates all its expressions before it changes
// anything. When an expression needs a roll (or a bare dice term) and no result is known, the
// state becomes a chance node and the statement is not performed; apply() records the outcome
// and runs the statement again from its start, which now reads the recorded results in order.
//
// Its member functions live by concept (engine/README.md, "Where the interpreter lives"):
//   expressions.cpp  sets, storage addresses, the evaluator (compiled form and IR), builtins
//   statements.cpp   the frame machine: statement lists, blocks, loops, assignments, choices
//                    (their options), `may`, `do`, calls, end game
//   rules.cpp        rule groups (applicable, modifiers, define), quantities, triggers, legality
//   zones.cpp        zone contents: move, draw, deal, shuffle, reshuffle
//   maps.cpp         neighbours, hexsides, adjacency, distance, terrain, paths, line of sight
//   chance.cpp       chance nodes, rolls, table lookups and odds
// What is small and on the hot path (checked arithmetic, node access, locals regions, operand
// reads, binding a rule's arguments, one step of the top frame) is defined here, inline, as it
// was in one file before. A function declared `inline` below is defined in, and called only
// from, its own file: it keeps the inlining it had when every member was defined in the class
// (using it from another file is an error: "used but never defined").
#pragma once

#include "westphalia/engine/engine.hpp"

#include "compile.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wp::engine {

using ir::id;
using ir::op;

inline constexpr std::uint32_t npos = 0xFFFFFFFFu;

// Truncates a stack to n elements (inline: vector::resize is an out-of-line call, and the
// interpreter truncates its stacks on almost every step). Grows it like resize if n is larger.
template <class V>
inline void cut(V& v, std::size_t n) {
    if (n <= v.size()) [[likely]]
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(n), v.end());
    else
        v.resize(n);
}

struct interp {
    state& s;
    const game& g;
    const ir::ruleset& rs;

    explicit interp(state& st) : s(st), g(*st.g_), rs(*st.rs_) {}

    // Set while a statement whose value is a table's result (`r = combat_results(a, d)`) is
    // evaluated with a trace: the lookup is then in the account, as a statement's table is.
    bool trace_lookup = false;

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
    // A fault of the rules (engine_fault): its kind, subject and side; the node is `node`.
    [[noreturn]] void fail(id node, const std::string& what, engine_fault fault) const {
        fault.node = node;
        throw engine_error(g.position(node) + ": " + what, std::move(fault));
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

    std::int64_t entity_or_none(std::int64_t inst) const {
        if (inst < 0 || static_cast<std::size_t>(inst) >= g.instance_entity.size()) return -1;
        return g.instance_entity[static_cast<std::size_t>(inst)];
    }

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

    // Records that statement n wrote value cell a / zone instance z (when tracking changes); an
    // invariant that reads it is checked again inside a step only if the value differs.
    void changed_value(std::uint32_t a, id n, bool differs = true) {
        if (!s.opt_.track_changes) return;
        s.value_writer_[a] = n;
        s.value_time_[a] = ++s.change_clock_;
        if (differs && a < g.value_invariants.size()) s.invariants_changed_ |= g.value_invariants[a];
    }

    void changed_zone(std::size_t z, id n) {
        if (!s.opt_.track_changes) return;
        s.zone_writer_[z] = n;
        s.zone_time_[z] = ++s.change_clock_;
        if (z < g.zone_invariants.size()) s.invariants_changed_ |= g.zone_invariants[z];
    }

    // With state_options::check_in_steps: the invariants whose state changed since their last
    // check here, checked at `place` (a phase's start, a loop round's), inside a step, where the
    // checker assumes them (statements.cpp).
    enum class step_place : std::uint8_t { round_start, loop_end, phase_start };
    void invariants_in_step(id node, step_place where) {
        if (!s.opt_.check_in_steps) [[likely]] return;
        if (s.invariants_changed_ == 0) return;
        s.check_invariants_in_step(where == step_place::phase_start ? "the start of phase " + rs.blocks[N(node).ref].path
                                   : where == step_place::loop_end  ? "the end of the loop at " + g.position(node)
                                                                    : "the start of a round of the loop at " + g.position(node));
    }

    bool tracing() const { return s.opt_.trace && *s.opt_.trace; }
    void trace_block(id b) const;                                            // statements.cpp
    void trace_change(std::uint32_t a, id type, std::int64_t v, id stmt) const;

    void trace(const std::string& line) const {
        if (tracing()) (*s.opt_.trace)(line);
    }

    // ------------------------------------------------ expressions.cpp

    std::size_t push_set(id n, std::uint32_t fb);
    inline std::int64_t eval_zone(id n, std::uint32_t fb);
    inline std::size_t set_size(id n, std::uint32_t fb);
    inline std::uint32_t slot_addr(id n, id slot, std::int64_t index) const;
    std::uint32_t addr(id n, std::uint32_t fb);
    id slot_of(id n) const;
    std::size_t eval_args(id n, std::uint32_t fb, std::int64_t* out, std::uint32_t from = 0);
    [[gnu::noinline]] inline std::int64_t eval_call(id n, std::uint32_t fb);
    [[gnu::noinline]] inline std::int64_t call_with(id n, const std::int64_t* args, std::size_t c);

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

    [[noreturn, gnu::noinline]] void operand_failure(const game::compiled_node& c, unsigned i, std::uint32_t fb);
    inline std::int64_t zone_arg(id n, const game::compiled_node& c, unsigned i, std::uint32_t v, std::uint32_t fb);
    std::int64_t eval(id n, std::uint32_t fb);
    inline std::int64_t in_zone(id n, const game::compiled_node& c, std::uint32_t fb);
    inline std::int64_t zone_aggregate(id n, const game::compiled_node& c, std::uint32_t fb);
    inline std::int64_t table_quantity(id n, const game::compiled_node& c, std::uint32_t fb);
    [[gnu::noinline]] std::int64_t eval_node(id n, std::uint32_t fb);
    inline std::int64_t aggregate(id n, std::uint32_t fb);
    inline std::int64_t builtin(id n, std::uint32_t fb);

    // ------------------------------------------------ statements.cpp

    // Runs one statement of the top frame (or advances a loop frame).
    // Statement lists are most steps: they stay here, the loops and blocks out of line (a
    // small frame for the common path).
    void step() {
        const std::size_t fi = s.frames_.size() - 1;
        const state::frame& f = s.frames_[fi];
        if (f.kind == state::frame_kind::list) [[likely]] {
            if (f.pc >= f.aux_len) return pop();
            const id n = f.aux == npos ? f.node : g.flat_statements[f.aux + f.pc];
            if (!s.ran_.empty()) [[unlikely]] s.ran_[n] |= 1;
            return statement(fi, n, f.fb);
        }
        step_frame(fi);
    }

    void pop() {
        const state::frame f = s.frames_.back();
        s.frames_.pop_back();
        if (f.kind == state::frame_kind::for_each || f.kind == state::frame_kind::subset ||
            f.kind == state::frame_kind::order)
            cut(s.loop_store_, f.aux);
        if (f.mark != npos) cut(s.locals_, f.mark);
    }

    [[gnu::noinline]] void step_frame(std::size_t fi);
    std::int64_t active_player() const;
    std::int64_t looping_player() const;
    inline bool players_loop(id for_each) const;
    void push_frame(state::frame_kind k, id node, std::uint32_t fb, std::uint32_t mark = npos);
    void call(id body, std::size_t locals, const std::int64_t* args, std::size_t count);
    void store(id target, std::uint32_t fb, std::int64_t v, id stmt);
    void store_list(id target, std::uint32_t fb, id value, id stmt);
    std::string cause(id stmt) const;
    bool unseen_change(std::uint32_t address) const;
    void trace_reveal() const;
    void trace_shown(std::uint32_t address) const;
    void statement(std::size_t fi, id n, std::uint32_t fb);
    inline void await_choice(id node, std::uint32_t fb, std::int64_t player);
    void resolve_pending(int i);
    inline bool body_possible(id body, std::uint32_t fb);
    bool choose_options(id n, std::uint32_t fb, std::vector<std::int64_t>* out);
    void subset_answers(std::size_t fi, bool& in, bool& out);
    // The subsets satisfying a `choose subset`'s `where`, as bit masks (probes; `possible`).
    void subset_masks(id n, std::uint32_t fb, std::vector<std::int64_t>& out, bool first_only = false);
    static constexpr std::uint32_t max_subset_where = 16;  // elements a subset under `where` may have

    // ------------------------------------------------ rules.cpp

    std::size_t applicable(id gi, const std::int64_t* args, std::size_t count);
    std::int64_t modifiers(id gi, const std::int64_t* args, std::size_t count);
    void trace_table(id t, const ir::table_cell* cell) const;
    std::int64_t bounded(id gi, id n, const char* what, const std::string& name, std::int64_t v, const std::int64_t* args,
                         std::size_t count);
    std::int64_t decide(id n, id d, const std::int64_t* args, std::size_t count);
    bool action_legal(id a, const std::int64_t* args, std::size_t count);
    id first_do(id body) const;
    struct demand {
        bool required = false, forbidden = false;
    };
    demand demand_on(id d, std::uint32_t fb, bool fire_requires);
    bool body_required(id body, std::uint32_t fb);
    void note_skipped_demand(id n, id body, std::uint32_t fb);
    std::int64_t call_quantity(id q, const std::int64_t* args, std::size_t c);
    std::string args_text(const std::vector<ir::local>& params, const std::int64_t* args, std::size_t count) const;
    void emit(std::size_t fi, id n, std::uint32_t fb);

    // ------------------------------------------------ zones.cpp

    inline void zone_remove(id n, std::int64_t zi, std::int64_t inst);
    inline std::int64_t copy_in(std::int64_t zi, std::int64_t inst) const;
    inline void zone_add(id n, std::int64_t zi, std::int64_t inst);
    inline void zone_shuffle(id n, std::int64_t zi);
    inline std::string zone_text(std::int64_t zi) const;
    inline void zone_targets(id n, std::uint32_t fb, std::vector<std::int64_t>& out);
    void note_short_draw(id n, std::int64_t zi);
    bool passed_at(id n) const;
    void note_passed(engine_fault f);
    void zone_statement(std::size_t fi, id n, std::uint32_t fb);

    // ------------------------------------------------ maps.cpp

    static inline bool joins(const ir::map& m, const ir::map_edge& e, std::int64_t a, std::int64_t b);
    void map_set(id n, std::uint32_t fb, std::size_t start);
    std::int64_t map_builtin(id n, std::uint32_t fb);
    inline std::int64_t path_search(id n, std::uint32_t fb, bool length);
    inline std::int64_t line_blocked(id n, std::uint32_t fb);
    inline std::int64_t distance(id n, const ir::map& m, std::int64_t a, std::int64_t b) const;

    // ------------------------------------------------ chance.cpp

    std::int64_t chance(std::int64_t min, const std::vector<std::uint64_t>& w, std::uint64_t total);
    static std::optional<std::int64_t> take_fixed(std::vector<std::pair<id, std::int64_t>>& fixed, id key);
    std::int64_t roll(id r, const std::int64_t* args, std::size_t count);
    std::int64_t dice_count(id n, std::uint32_t fb);
    std::int64_t rolled(id r, const std::int64_t* args, std::size_t count);
    // The last roll's value before its modifiers (a table's natural rows read it).
    std::int64_t last_natural_ = 0;
    // With a trace: the adding modifiers of the last modifiers() call, " +1 veterans -2 woods".
    std::string modifier_text_;
    static std::int32_t map_key(const ir::key_map& km, std::int64_t k);
    static inline std::int64_t clamp_key(const ir::table_key& key, std::int64_t k);
    static constexpr std::int64_t odds_below_all = std::numeric_limits<std::int64_t>::min() / 4;
    static inline std::int64_t odds_step(std::int64_t a, std::int64_t b, ir::rounding r);
    static inline std::string odds_text(std::int64_t step);
    static std::int64_t odds_attacker(std::int64_t v) { return v >> 32; }
    static std::int64_t odds_defender(std::int64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v & 0xFFFFFFFF)); }
    static inline std::int64_t odds_read(const ir::table_key& key, std::int64_t v);
    template <class Key>
    std::int32_t odds_index(id n, const ir::table& tb, const ir::table_key& key, std::int64_t v, std::size_t count,
                            Key range, const char* what) const;
    std::pair<std::uint32_t, const ir::table_cell*> table_cell(id n, id t, const std::int64_t* args, std::size_t count,
                                                               std::vector<std::int64_t>* keys_out = nullptr);
    std::int64_t odds_value(id n, std::uint32_t fb);
    std::int32_t shift_column(id n, const ir::table& tb, std::int32_t col, std::int64_t by) const;
    // Axes with fractional points (`1.5-1`): the ratio read as an exact rational (chance.cpp).
    template <class Key>
    std::int32_t odds_index_fractional(id n, const ir::table& tb, const ir::table_key& key, std::int64_t a, std::int64_t b,
                                       std::size_t count, Key range, const char* what) const;
};

}  // namespace wp::engine
