// The symbolic execution's state and steps (exec_impl), private to the explore*.cpp files: the
// declaration here, the member functions defined by concept in the files each section names;
// symbolic::explore() and symbolic::run_examples() (explore.cpp) run it.
#pragma once

#include "folding.hpp"
#include "symbolic.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace wp::verify::detail {

using ir::op;

// What a statement may change: store values, the places of instances of some kinds.
struct writes {
    std::set<std::uint32_t> values;
    std::set<id> kinds;
};

struct exec_impl {
    symbolic& S;
    z3::context& ctx;
    const ir::ruleset& rs;
    std::map<id, writes> memo_;
    std::set<id> in_progress_;

    struct path {
        store st;
        fact_list facts;
        z3::expr pc;
        bool dead = false;
        std::map<id, z3::expr> fixed;
        int depth = 0;
        bool from_setup = true;  // nothing forgotten on the way from the initial state
    };
    using env = symbolic::env;

    explicit exec_impl(symbolic& s) : S(s), ctx(s.ctx), rs(s.rs) {}

    const ir::node& N(id n) const { return rs.nodes.at(n); }
    id child(id n, std::uint32_t i) const { return rs.children.at(rs.nodes.at(n).first_child + i); }
    std::string at(id n) const { return S.node_position(n); }

    // ------------------------------------------------------------ writes and takes (explore_writes.cpp)

    id kind_of_zone_node(id n) const;
    id zone_of_node(id n) const;

    id slot_of(id n) const { return N(n).code == op::index ? slot_of(child(n, 0)) : N(n).ref; }

    void add_slot(writes& w, id slot);
    void merge_into(writes& w, const writes& o);

    std::map<id, bool> reads_option_memo_;
    bool reads_option(id n);
    std::set<id> blocks_walked_;
    void note_blocks_and_ends(id n);

    const writes& writes_of(id n);
    void collect(id n, writes& w);

    // WP_CHECK_NO_LOOP_FRAMES=1: loops forget where every piece they may move is (to measure
    // what keeping the pieces they cannot move costs)
    const bool no_frames_ = std::getenv("WP_CHECK_NO_LOOP_FRAMES") != nullptr;
    // Draws and deals encoded so far: each one's choice of cards is its own (a draw met twice
    // on one path, in two calls, takes its own cards each time).
    std::uint64_t draws_ = 0;
    // WP_CHECK_NO_DRAW_COUNTS=1: a draw or deal moves any number of cards (to measure what
    // following the number costs)
    const bool no_draw_counts_ = std::getenv("WP_CHECK_NO_DRAW_COUNTS") != nullptr;

    id loop_piece_kind(id set) const;
    bool moves_only_local(id n, std::uint32_t var, id kind);
    bool straight(id n) const;  // only assignments, `let`s, `if`s and `move`s
    bool writes_slot_only_local(id n, const std::set<std::uint32_t>& vars, id slot, int depth = 0);
    void keep_own_fields(path& b, const path& p, id set, id body, std::uint32_t var, bool seats, const z3::expr& x, const writes& w, id n);

    // The zones a statement may take pieces from (a move's, draw's or deal's source, what a
    // reshuffle empties), or put pieces into (their destinations), through the actions,
    // procedures, table effects and triggers it runs; `any` when one is not known (a zone that
    // is no named zone, a card's event).
    struct takes {
        std::set<id> zones;
        bool any = false;
    };
    std::map<id, takes> takes_memo_[2];
    std::set<id> takes_in_progress_[2];

    const takes& takes_of(id n) { return zones_used(n, false); }
    const takes& puts_of(id n) { return zones_used(n, true); }
    const takes& zones_used(id n, bool into);
    void collect_takes(id n, takes& t, bool into);

    // ------------------------------------------------------------ paths and facts (explore_paths.cpp)

    // Whether a new fact is already settled by the constants in it. Only that is asked: the fact
    // is kept as it is (a simplified copy would cost a walk of its whole term, most of which the
    // state shares with every other fact; the folding remembers what it has seen).
    constant_folding fold_{ctx};

    bool add_fact(path& p, const z3::expr& e, const std::string& why, bool frame = false);
    void add_frame(path& p, const std::vector<fact>& facts);
    z3::expr since(const fact_list& from, const fact_list& base);

    // Encoding is done for the innermost path being run: rules consulted are recorded there.
    path* cur_ = nullptr;
    id cur_node_ = ir::no_id;
    struct current {
        exec_impl& x;
        path* saved;
        id saved_node;
        current(exec_impl& xx, path& p, id n) : x(xx), saved(xx.cur_), saved_node(xx.cur_node_) {
            x.cur_ = &p;
            x.cur_node_ = n;
        }
        ~current() {
            x.cur_ = saved;
            x.cur_node_ = saved_node;
        }
    };

    void drain(path& p, id n);
    // A loop's head, when forget() is asked for it: the state and the facts the forgetting made.
    struct loop_head {
        store st;
        std::vector<fact> facts;
    };
    void forget(path& p, const writes& w, id n, loop_head* head = nullptr);
    void forget_call(path& p, const writes& w, id n);
    void leave_loop(path& p, const writes& w, const loop_head& head, id n);
    void keep_untaken(path& b, const path& p, id body, const writes& w, id n, loop_head& head);
    void merge(path& p, path& t, path& f, const z3::expr& c, id n);
    void branch(path& p, const z3::expr& c, const std::string& why, id n, const std::function<void(path&)>& then_fn,
                const std::function<void(path&)>& else_fn);
    path any_state(const path& from, const std::string& when);
    void restart(path& p, const std::string& if_dead);
    void forget_all(path& p, const std::string& when, bool invariants);

    // ------------------------------------------------------------ sites for the checks (explore_sites.cpp)

    void note_invariants(path& p, id n, const std::string& what);
    invariant_site placed(invariant_site site, const path& p, id n, const std::string& what);
    void note_queries(path& p, id n, const std::string& what);
    std::set<std::tuple<const fact_node*, id, unsigned>> queried_;
    // some query is left to ask (not answered by random play)
    const bool has_queries_ = [this] {
        for (id r = 0; r < rs.rules.size(); ++r)
            if (ir::is_query(rs.rules[r].kind) && rs.rules[r].value != ir::no_id && !S.queries_played.count(r)) return true;
        return false;
    }();
    bool examples_ = false;
    std::set<std::pair<const fact_node*, unsigned>> noted_;
    const bool has_invariants_ = std::any_of(rs.rules.begin(), rs.rules.end(), [](const ir::rule& r) {
        return r.kind == ir::rule_kind::invariant && r.value != ir::no_id;
    });

    int in_setup_ = 0;  // inside the sequence's setup (no effect_site there)

    static void set_place(site& s, const path& p, id n);
    void note_branch(const path& before, const path& side, id n, id body, bool taken);
    id first_do(id body) const;

    // The `do` statements the engines test before offering them: any other is an obligation.
    const std::set<id> tested_dos_ = [this] {
        std::set<id> out;
        for (id n = 0; n < rs.nodes.size(); ++n) {
            const op c = rs.nodes[n].code;
            const id body = c == op::may ? child(n, 1) : c == op::choose_one ? child(n, 3) : ir::no_id;
            if (const id d = first_do(body); d != ir::no_id) out.insert(d);
        }
        return out;
    }();
    const bool has_require_ = std::any_of(rs.rules.begin(), rs.rules.end(), [](const ir::rule& r) { return r.kind == ir::rule_kind::require; });

    void note_obligation(const path& p, id n, obligation_site::what kind, id subject, const z3::expr& unmet,
                         const std::vector<z3::expr>& args, std::size_t variables_from);
    void note_demanded(path& p, id n, id body, env& e);
    void record_rule(const path& p, id r, const z3::expr& extra, const z3::expr& applies, const z3::expr& guard, id n,
                     const std::string& extra_why = "the option considered");

    // ------------------------------------------------------------ legality and choices (explore_choices.cpp)

    z3::expr action_legal(id a, const std::vector<z3::expr>& args, const path& p, const z3::expr& extra, id n, bool record = true);
    std::vector<z3::expr> args_of(id n, env& e, const store& st, std::uint32_t from = 0);
    z3::expr possible(id body, env& e, const path& p, const z3::expr& extra);
    z3::expr some_subset(id n, env& e, const path& p);
    void each_subset(const std::vector<member>& ms, std::uint32_t var, env& e,
                     const std::function<void(std::size_t, const z3::expr&)>& f);
    std::uint64_t legality_cost(id body);
    // A choice of a number in lo..hi: its ends, and the options that need more than lying
    // between them, each with its condition (options()).
    struct range_options {
        z3::expr lo, hi;
        std::vector<member> odd;
    };
    std::pair<std::vector<member>, z3::expr> options(id n, env& e, const path& p, const z3::expr& extra,
                                                     std::optional<range_options>* span = nullptr);
    z3::expr chosen_in(id set, const range_options& span, const z3::expr& x);
    // The most candidates a `choose subset` is written out for (subset(), some_subset()).
    static constexpr std::size_t max_subset_candidates = 10;
    bool subset(id n, env& e, path& p);

    // ------------------------------------------------------------ calls, summaries, turn ends (explore_calls.cpp)

    // `end turn;` leaves the innermost turn being run: the path, as it is there, waits in that
    // turn's list and joins the path that ran the turn to its end; the rest of the turn runs on
    // with the path dead (what it reaches there is never reached that way). A summary's run has
    // no turn around it (nullptr): its exits are the caller's, taken where the call only forgets.
    std::vector<std::vector<path>*> turn_ends_;
    const std::vector<bool> ending_ = ir::procedures_ending_turn(rs);
    std::set<id> ending_bodies_ = [this] {
        std::set<id> out;
        for (std::size_t i = 0; i < rs.procedures.size(); ++i)
            if (ending_[i] && rs.procedures[i].body != ir::no_id) out.insert(rs.procedures[i].body);
        return out;
    }();

    void end_turn_here(const path& p) {
        if (!turn_ends_.empty() && turn_ends_.back() && !p.dead) turn_ends_.back()->push_back(p);
    }

    void join_turn_end(path& p, path& q, const fact_list& base, const z3::expr& base_pc, int depth, id turn);

    // Bodies being run, with how many of their activations are open. A body that leads back to
    // itself (a procedure, action, trigger or table) is unrolled S.unroll_depth times; a call
    // past that depth forgets what the body writes (any values of their types, the invariants
    // assumed). Its deeper activations are still checked: once per body, the body is run from
    // any state the domain allows with any arguments (summary()), so every use in it is seen
    // with circumstances that cover every activation's. Witnesses resting on that run say so.
    std::map<id, int> active_;
    std::set<id> summarised_;
    bool summary_args_ = false;  // the next resolve() is a summary's: any arguments

    std::vector<z3::expr> any_arguments(const std::vector<ir::local>& locals, std::size_t count, path& p, id n);
    void summary(id key, id n, const path& from, const std::string& what, const std::function<void(path&)>& run_it,
                 bool recursion = true, const path* start = nullptr);
    // The card kinds' event dispatchers: a call of one plays an event (play_event).
    const std::set<id> dispatchers_{rs.event_dispatchers.begin(), rs.event_dispatchers.end()};
    void play_event(id n, const std::vector<z3::expr>& a, path& p);
    void run_body(id body, const std::vector<ir::local>& locals, std::vector<z3::expr> args, path& p, id n,
                  const std::string& what);
    void start_phase(path& p, env& e, const std::string& name);
    static bool small_term(const z3::expr& e, std::size_t limit);
    void resolve(id n, env& e, path& p);

    // ------------------------------------------------------------ statements (explore_statements.cpp)

    void assign_list(id n, env& e, path& p);
    void assign(id n, env& e, path& p);
    void move_counts(path& p, id kind, id zf, const z3::expr& from, id zt, const z3::expr& to, bool all);
    void move_instances(path& p, id kind, const std::function<z3::expr(std::uint32_t, const z3::expr&)>& new_loc);
    static bool unrolls(const std::vector<member>& ms);
    bool unrolls_in_setup(id set, const std::vector<member>& ms, id body, const path& p);
    void run_rounds(id n, const std::vector<member>& ms, id body, bool seats, env& e, path& p);
    void settle_fields(id n, const std::vector<member>& ms, id body, const store& before, env& e, path& p);
    void settle_sums(id n, const std::vector<member>& ms, id body, const store& before, env& e, path& p);
    bool reads_own_start(id x, id body, std::uint32_t at, std::uint32_t var);
    bool writes_slot(id stmt, const layout::slot_place& sp);
    bool only_writer(id body, std::uint32_t i, const layout::slot_place& sp);
    bool own_field(id target, std::uint32_t var);
    std::set<std::uint32_t> settle_own(std::uint32_t var, id target, id value, const std::vector<member>& ms, const store& before, env& e,
                                       path& p, const std::function<z3::expr(const z3::expr&, const z3::expr&)>& now);
    bool loop_known(id n, id cond, id body, bool is_while, env& e, path& p);  // an example's loop, round by round

    // ------------------------------------------------------------ fields every round sets back (explore_restore.cpp)

    // The cells of one field a statement may leave other than a constant, each named by the
    // local that names it in the writes (a global's one cell: a key of its own).
    using away_cells = std::set<std::uint32_t>;
    std::optional<away_cells> restore_flow(id n, id slot, const z3::expr& c, away_cells away);
    bool constant_is(const ir::node& v, const z3::expr& c) const;
    bool ends_turn_within(id n);
    std::optional<writes> forgotten_by_rounds(id body, const writes& w, const store& st);
    std::map<std::tuple<id, id, unsigned>, bool> restores_memo_;  // a body run alone sets back what it changes
    std::map<id, bool> ends_turn_memo_;
    void run(id n, env& e, path& p);
};

}  // namespace wp::verify::detail
