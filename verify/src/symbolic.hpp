// The symbolic game: the ruleset's state as Z3 variables, expressions encoded over it, and a
// symbolic execution of the sequence of play that records, at every place a rule, table,
// decision or statement is used, the circumstances there (the path condition) and the
// encoded values the checks need. Loops are summarised by forgetting ("havocking") what their
// bodies write, so every recorded circumstance over-approximates the reachable ones: an
// unsatisfiable query is a proof of "never"; a satisfiable one gives a witness situation.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <z3++.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace wp::verify::detail {

using ir::id;

// Storage numbering, the same as the engine's (instances and zone instances), for up to
// `players` seats.
struct layout {
    int players = 0;
    struct slot_place { std::uint32_t offset = 0, width = 1, copies = 1; };
    std::vector<slot_place> slots;
    std::uint32_t value_count = 0;
    std::vector<std::uint32_t> kind_first, kind_count, entity_first;
    std::vector<id> instance_entity;
    std::vector<std::uint32_t> zone_first;
    std::vector<id> zone_instance_zone;
    // Per zone: the store value holding the count of its first instance, for a per-location zone
    // (one count per location, kept beside membership; docs/checker.md), else no_count.
    static constexpr std::uint32_t no_count = 0xFFFFFFFFu;
    std::vector<std::uint32_t> count_first;

    layout(const ir::ruleset& rs, int players);
    std::uint32_t instances() const { return static_cast<std::uint32_t>(instance_entity.size()); }
    std::uint32_t zone_instances() const { return static_cast<std::uint32_t>(zone_instance_zone.size()); }
    std::uint32_t key_width(const ir::ruleset& rs, id key_type) const;
    // The value of a map's first key: an entity kind's keys are its instances (engine::game::key_first).
    std::int64_t key_first(const ir::ruleset& rs, id key_type) const;
    std::uint32_t list_capacity(const ir::ruleset& rs, id element) const;
};

// A conjunct of a path condition, with what it stands for (for "why never" reasons).
struct fact {
    z3::expr e;
    std::string why;
};

// The conjuncts of a path condition, newest first, shared between the paths that have them.
struct fact_node {
    fact f;
    std::shared_ptr<const fact_node> prev;
    // A frame's start: a loop's round begins here, its state forgotten and the invariants
    // assumed in the facts above this one (the checker's try on the facts of the last frame).
    bool frame = false;
};
using fact_list = std::shared_ptr<const fact_node>;

// The state as Z3 terms.
struct store {
    std::vector<z3::expr> values;  // per layout value
    std::vector<z3::expr> loc;     // per instance: the zone instance holding it, -1 none
};

// A symbolic value: a scalar (Int or Bool), or a map (one element per key).
struct sv {
    z3::expr e;
    std::vector<z3::expr> elems;
    bool is_map = false;
    explicit sv(z3::expr x) : e(std::move(x)) {}
};

// One member of a finite set: its value, and when it is in the set.
struct member {
    z3::expr value;
    z3::expr in;
};

// An assignable place: the store index and when the target expression names it.
struct place {
    std::uint32_t index = 0;
    z3::expr when;
};

// A fresh variable the witness may show, with what it means and its default value.
struct variable {
    z3::expr var;
    std::string text;           // "P1 reputation", "campaign_roll dice", "Plague (card) is in"
    enum class show : std::uint8_t { value, zone, player, boolean, member, instance, node } as = show::value;
    id type = ir::no_id;        // for member/instance/node display
    std::int64_t preferred = 0; // the value a "smallest" witness keeps
    bool approximate = false;   // stands for a subterm the encoder cut (unfolding budget): any value
    id roll = ir::no_id;        // the dice of this roll (before modifiers)
    id dice = ir::no_id;        // the total of this dice term (a node)
    id kind = ir::no_id;        // a piece's place (show::zone): the kind of piece
    // When the value stands (" (after any number of rounds of the loop at …)"): one state value
    // is a variable again at each place that forgets it, and a witness that shows it twice
    // says which is which (a card cannot be in two zones at once).
    std::string when = {};
};

// A place in the sequence where something is used, with the circumstances there.
struct site {
    explicit site(z3::context& c) : pc(c) {}
    id node = ir::no_id;        // the statement or expression
    z3::expr pc;                // the path condition (a conjunction)
    fact_list facts;            // its conjuncts, labelled
    bool summarised = false;    // met in the summary of a recursion (explore_calls.cpp): asked last
    bool from_setup = false;    // nothing forgotten on the way from setup (a loop or a phase's start forgets)
};

struct rule_site : site {
    explicit rule_site(z3::context& c) : site(c), applies(c), guard(c), extra(c) {}
    id rule = ir::no_id;
    z3::expr applies;           // the rule's guard there, after overrides
    z3::expr guard;             // the guard alone
    z3::expr extra;             // what else holds there (the option considered), not in `facts`
    std::string extra_why;
};

// A store kept for a replay: its terms (the values, then the instances' zones) in chunks, each
// shared with the state kept before it where that holds the same terms. A big game keeps
// thousands of states that differ in a few values each: on the SPI game (4783 values and
// cards) whole copies doubled the checker's memory.
class kept_store {
public:
    static constexpr std::size_t chunk = 64;
    // previous: the state kept just before, whose chunks are shared where equal (may be null)
    kept_store(const store& st, const kept_store* previous);
    std::size_t value_count() const { return values_; }
    std::size_t loc_count() const { return size_ - values_; }
    const z3::expr& value(std::size_t i) const { return term(i); }
    const z3::expr& loc(std::size_t i) const { return term(values_ + i); }
    // Whether st holds exactly these terms.
    bool same(const store& st) const;

private:
    const z3::expr& term(std::size_t i) const { return (*chunks_.at(i / chunk))[i % chunk]; }
    std::vector<std::shared_ptr<const std::vector<z3::expr>>> chunks_;
    std::size_t values_ = 0, size_ = 0;
};

// What the engine needs to compute the same thing in a witness's situation (verify/src/
// replay.cpp): the state there, the element's locals or the arguments, and the variables made
// while encoding it (its dice among them).
struct replay_point {
    bool recorded = false;
    std::shared_ptr<const kept_store> st;  // shared with the points recorded in the same state
    std::vector<std::optional<z3::expr>> locals;
    std::size_t variables_from = 0, variables_to = 0;
};

struct table_site : site {
    using site::site;
    id table = ir::no_id;
    std::vector<z3::expr> keys;  // row key, column key
    replay_point replay;         // locals: the table's arguments
};

struct bound_site : site {
    using site::site;
    id slot = ir::no_id;
    id type = ir::no_id;             // the target's range type
    std::vector<z3::expr> out;       // per candidate place: when the new value leaves the range
    std::vector<z3::expr> value;     // the new value, per candidate
    std::vector<z3::expr> when;      // per candidate: when the assignment writes that place
    // With more than one candidate place: the new value written over the read at the place not
    // known (`c.pillage + 1` with `c.pillage` the `ite` over the places), the read the rules' own
    // conditions bound (`choose c … where c.pillage < 2`). A bound the path's facts give that read
    // then proves every place at once, with no question.
    std::optional<z3::expr> whole;
    replay_point replay;             // locals: the element's
};

struct choice_site : site {
    explicit choice_site(z3::context& c) : site(c), none_legal(c) {}
    z3::expr none_legal;  // no option of the choice is legal
    replay_point replay;  // locals: the element's
};

struct block_site : site {
    using site::site;
    id block = ir::no_id;
};

struct end_site : site {
    using site::site;
    std::string reason;
};

// One way out of an `if` or a `may` (the check for dead branches, check_reach.cpp): `node` is
// the branch's body, `facts` hold with its condition, `before` without it (the `if` is reached).
// An assignment, for the no-op check (check_reach.cpp): when it changes what it writes (after
// the clamp). Not recorded in a setup: restating a declared start is the set-up as printed.
struct effect_site : site {
    explicit effect_site(z3::context& c) : site(c), changes(c) {}
    id slot = ir::no_id;
    z3::expr changes;
};

// A statement play must carry out (check_unmet.cpp): a `do` the engines do not test before
// offering it, a `move` out of a zone, a `may` a `require` demands, a `draw` or `deal` (its zone
// must hold the cards it asks for). `unmet`: when it cannot be carried out there. The replay's
// locals: the action's arguments; for a move, the piece and the zone instance it is taken from;
// for a draw, the cards asked for and the zone instance.
struct obligation_site : site {
    enum class what { action, move, required, draw };
    explicit obligation_site(z3::context& c) : site(c), unmet(c) {}
    what kind = what::action;
    id subject = ir::no_id;  // the action, or the zone
    z3::expr unmet;
    replay_point replay;
};

struct branch_site : site {
    using site::site;
    id branch = ir::no_id;  // the `if` or `may` statement
    bool taken = true;      // the `then` (or the option taken), else the `else`
    fact_list before;
};

// A place where the invariants must hold: where the symbolic execution assumes them again (a
// phase's start, a loop's round, a call past the unrolling depth: the state just before, which
// is forgotten there) or where the engine checks them (a decision, the end of the game). Per
// invariant not settled there, its value in the state there.
struct invariant_site : site {
    using site::site;
    std::string what;                             // "the start of phase game.turn"
    std::vector<std::pair<id, z3::expr>> holds;   // per invariant rule; per query rule, its answer (query_sites)
    replay_point replay;
};

struct example_run {
    id rule = ir::no_id;
    fact_list facts;    // the given, executed (as facts)
    z3::expr pc;        // the given, executed
    z3::expr expect;    // the stated outcome, over the resulting state
    // The numbers the outcome compares (left sides of its comparisons), for the witness.
    std::vector<std::pair<std::string, z3::expr>> shown;
    std::vector<id> shown_nodes;         // those left sides
    replay_point start;                  // the initial state, and the dice met in the `given`
    std::optional<z3::expr> active;      // the active player the `given` reads, if it does
    bool exact = true;                   // nothing forgotten on the way (no loop summarised)
};

// A search over a map the rules make (path_exists, line_blocked), decided exactly but lazily.
// Its answer is a fresh Boolean; the predicate it asks is encoded up front at every location
// (or step) of the map, and a static fact ties the answer to them (no path or blocked line
// without some location that passes or blocks), so a question's slice holds all it reads.
// Which locations the search visits depends on the model: each question's solver is refined
// (checker::ask) with the search's exact answer at the model's endpoints until they agree.
struct map_search {
    explicit map_search(z3::context& c) : a(c), b(c), var(c) {}
    bool line = false;    // line_blocked; else path_exists
    bool steps = false;   // path_exists over a predicate of two locations (a step)
    id map = ir::no_id;
    z3::expr a, b;
    z3::expr var;                   // the answer: 0 or 1
    std::vector<z3::expr> at;       // per node: it passes (path) or blocks (line)
    std::vector<std::uint32_t> step_first;  // steps: node's first step in `step`
    std::vector<z3::expr> step;     // steps: per node and neighbour, in the map's order
};

// Z3's process-wide settings, which every solver reads when it is made: constructing one sets
// them, once, so a member declared before a class's context covers all its solvers.
struct z3_settings {
    z3_settings();
};
// Whether key value v falls in a row or column key (`scaled`: an odds axis with fractional
// points, its values odds_code(…, true)).
z3::expr key_in(z3::context& ctx, const ir::key_range& k, const z3::expr& v, bool scaled = false);
// Whether a natural row of tb covers the natural value (keys[2]); false without natural rows.
z3::expr natural_covers(z3::context& ctx, const ir::table& tb, const std::vector<z3::expr>& keys);
// A solver for one satisfiability question about the symbolic game. Its facts are mostly
// definitions (the value of a field after a step is the value before it plus something):
// eliminating them by substitution before the SMT core runs makes the question much smaller.
// `name_subterms`: Boolean subterms are named (Tseitin) before the SMT core sees them, for the
// questions with every option free (symbolic.cpp says why).
z3::solver one_shot_solver(z3::context& ctx, bool name_subterms = false);
// The step of odds lo:hi on the odds scale (1-2 is -1, 1-1 is 0, 2-1 is 1), rounded for the
// defender, as the engine places an odds row or column.
std::int64_t odds_step(std::int64_t lo, std::int64_t hi);
// An odds point lo:hi as an ordered integer: its step when not scaled; on an axis with
// fractional points (`1.5-1`), the step times odds_fine plus its place towards the next step
// (1.5-1 is half way from 1-1 to 2-1). The compiler keeps sides at most a million, so the
// points of one axis stay apart and in order.
inline constexpr std::int64_t odds_fine = std::int64_t{1} << 20;
std::int64_t odds_code(std::int64_t lo, std::int64_t hi, bool scaled);

class symbolic {
public:
    symbolic(z3::context& ctx, const ir::ruleset& rs, int players);

    // The domain: every state value free within its type, zones any arrangement, options as
    // selected, players within range, invariants assumed. Returns the facts that hold.
    store free_store(std::vector<fact>& facts);

    // Runs the main sequence from setup, recording sites.
    void explore();
    // Runs every example's `given` from the initial state.
    void run_examples();

    // Encodes expression `n` of an element whose locals are `locals` over store `st`.
    struct env {
        std::vector<std::optional<z3::expr>> locals;
        // A list local chosen by `choose subset`: its candidates, each in the list where `in` holds.
        std::vector<std::optional<std::vector<member>>> lists;
    };
    sv value(id n, env& e, const store& st);
    z3::expr boolean(id n, env& e, const store& st);
    z3::expr integer(id n, env& e, const store& st);

    // Rule guard for target arguments (bound as the rule's first locals), and the effective
    // condition of each rule of a group (its guard and no applicable overriding rule's).
    z3::expr rule_guard(id r, const std::vector<z3::expr>& args, const store& st);
    std::map<id, z3::expr> group_effective(id group, const std::vector<z3::expr>& args, const store& st,
                                           std::map<id, z3::expr>* guards = nullptr);

    // The constraints of fresh variables made since the last time the executor took them.
    z3::expr pending_side();
    // Encodes an operand evaluated only where c holds: the side constraints it adds (a table
    // cell that must exist, a divisor that must not be 0, the rules that define a decision)
    // bind only there, so a branch play never takes stops nothing.
    z3::expr guarded(const z3::expr& c, const std::function<z3::expr()>& encode);
    // Domain constraints on a scalar of type t.
    z3::expr in_type(const z3::expr& x, id type);
    // The same for a local bound to a seat or a card or piece (never -1, "none", there).
    z3::expr in_local_type(const z3::expr& x, id type);
    // The integer v as a term. Small ones are made once: the encoding asks for the same few
    // numbers hundreds of thousands of times, and Z3 makes each one anew (a tenth of the
    // exploration's time).
    z3::expr num(std::int64_t v);
    z3::expr fresh(const std::string& name, id type, const std::string& text, variable::show as, std::int64_t preferred);

    // Forgets the given store values and the places of the given kinds' instances (all when
    // null): fresh variables within their types, the invariants assumed again; facts added.
    void forget(store& st, const std::set<std::uint32_t>* values, const std::set<id>* kinds,
                std::vector<fact>& facts, const std::string& when, bool invariants = true);
    // Forgets everything, on a path that forgets its history too (a phase's start): the state is
    // then any state of the domain where the invariants hold, the same at every phase start. So
    // every such start shares one set of variables, made by the first (docs/checker.md, "How").
    // Sound because no question ever joins two paths: each question is one path's facts, and a
    // path that forgets its history keeps no fact about the state before. What st already holds
    // at one number on every way there (or as a small term over the number of players and the
    // value's own variable at the starts) is kept, and the invariants are assumed with it.
    void forget_history(store& st, std::vector<fact>& facts, const std::string& when);
    std::size_t kept_at_starts = 0;  // the values forget_history kept, over every phase start (WP_CHECK_DEBUG)
    // The invariants (those not in `unassumed`) over st, as facts.
    void assume_invariants(const store& st, std::vector<fact>& facts, const std::string& when);
    // The conjuncts of e, nested conjunctions flattened (an `all` over a set is one per member).
    static std::vector<z3::expr> conjuncts(const z3::expr& e);
    // Invariant rule r's value over st (the dice and values it needs constrained in it).
    z3::expr invariant_value(id r, const store& st);
    // Query rule r answered in st: an `assert always` false, an `assert never` or a `reachable`
    // true (the dice and values it needs constrained in it).
    z3::expr query_answered(id r, const store& st);
    // Rule r's property (its `value`) over st, negated or not, with the dice and values it needs
    // constrained in it.
    z3::expr property(id r, const store& st, bool negated);
    // The initial state of a game (initial values, every instance in its kind's first zone).
    store initial_store();
    // st kept for a replay point, shared with an earlier one of the same terms (the table
    // lookups met in one state keep one copy), else sharing the chunks it can with the last.
    std::shared_ptr<const kept_store> snapshot(const store& st);

    // Called for each rule consulted while encoding a roll, quantity or decision.
    std::function<void(id rule, const z3::expr& applies, const z3::expr& guard)> on_rule;
    // Called for each table looked up while encoding (a `lookup` expression).
    std::function<void(id table, id node, const std::vector<z3::expr>& keys, const replay_point& at)> on_table;
    // The active player where the expression is encoded (the innermost loop over players).
    std::optional<z3::expr> active;
    const std::map<id, z3::expr>* fixed_rolls = nullptr;  // while running an example's `given`
    bool free_options = false;  // options as variables over their values, not the chosen ones
    std::map<id, z3::expr> option_vars;

    z3::context& ctx;
    const ir::ruleset& rs;
    layout lay;
    std::vector<invariant_site> invariant_sites;
    // The designer's queries (`assert always|never`, `reachable`) at the places the invariants
    // must hold, from setup or not (each site's `holds`: per query, its answer there).
    std::vector<invariant_site> query_sites;
    bool record_queries = false;  // the check asks the queries
    std::set<id> queries_played;  // answered by random play before the exploration: not recorded
    // Record the invariants' obligations everywhere (the induction), not only from setup.
    bool prove_invariants = false;
    // Invariants not assumed (forget() leaves them out): those the check could not prove.
    std::set<id> unassumed;
    // The invariants' terms as forget() assumed them, kept alive: an obligation on the very same
    // term (nothing it reads changed since) holds without a question.
    std::vector<z3::expr> assumed_terms;
    std::unordered_set<unsigned> assumed_ids;
    std::vector<std::string> value_names;  // per store value: "P1 gold"
    std::vector<id> value_types;           // per store value: its scalar type
    struct stored_list { std::uint32_t capacity = 0; id element = ir::no_id; };
    std::map<std::uint32_t, stored_list> list_lengths_;  // a stored list's length cell
    z3::expr n_players;
    std::vector<variable> variables;     // every fresh variable, in creation order
    std::unordered_map<unsigned, std::size_t> variable_of;  // by the variable's term id (printing a term is slow)
    std::vector<z3::expr> side;          // constraints of fresh variables made while encoding
    // The conditions under which the operand being encoded is evaluated at all: the engine
    // evaluates one branch of `if … then … else` and the right operand of `and`/`or` only when
    // the left allows. A site recorded inside holds only where they do.
    std::vector<z3::expr> operand_guards;
    z3::expr operand_guard() const;
    std::set<std::string> approximations;
    std::vector<z3::expr> small_numbers_;  // num(v) for num_low <= v < num_low + size
    static constexpr std::int64_t num_low = -64, num_count = 4096;

    // The unfolding budget (check option --unfold-limit): an aggregate (any, all, count, sum,
    // min, max) whose unfolding would exceed this many instances (its set's size times the
    // estimated size of its body, nested aggregates multiplied) is encoded as a fresh value of
    // its type instead, recorded in `approximations` (0: no limit).
    std::uint64_t unfold_limit = 16384;
    // How many times a body that leads back to itself is unrolled before its deeper calls are
    // summarised (explore_calls.cpp, run_body).
    int unroll_depth = 0;
    std::set<std::string> recursion_summarised;  // the bodies whose deeper calls were summarised
    std::set<std::string> events_summarised;     // the card events run once as summaries
    // The estimated size of the encoding of expression n (instances, not counting what a
    // constant argument saves): aggregates multiply their set's size by their body's.
    std::uint64_t unfold_cost(id n);
    std::uint64_t set_size_estimate(id n);  // a set's size (a map's largest degree for neighbours)
    std::string set_text(id n);             // "freiburg", "neighbours(…)"
    // Records a cut: an approximation and a fresh variable of `type` that witnesses name.
    z3::expr cut_value(const std::string& what, id type);
    // Encoder statistics (for --stats): aggregates cut by the budget, cache hits.
    std::uint64_t cuts = 0, memo_hits = 0, memo_misses = 0;
    // forget() calls, and the fresh values and card places they made (--stats: where the
    // variables of a big state come from)
    std::uint64_t forgets = 0, forgotten = 0;
    // The check's time budget (--max-time) for explore() and the decisions' checks: past it the
    // rest of the sequence is not run and `stopped` is set; what was recorded before holds, but
    // the uses after it are missing, so no check may conclude anything from a use it does not see.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    bool stopped = false;
    // The deadline is also checked inside a statement, every few hundred encodings and forgotten
    // values: on a map of 2,025 hexes one statement (a forget, an aggregate over the map) took
    // minutes, and the check ran 320 s past its --max-time. Past it, tick() sets `stopped` and
    // throws out_of_time, which explore() catches; the statement's partial encoding is dropped.
    struct out_of_time {};
    void tick();
    // After out_of_time: the encoder's stacks as they are between statements.
    void abandon_statement();
    // The encodings the cache shares: estimated at least this many instances (smaller ones
    // are written again: cheap, and the term ids, so the solver's choices, stay as they were).
    std::uint64_t memo_threshold = 1024;
    std::vector<id> group_of_target[6];  // per target kind: group of each target

    // Whether path_exists / line_blocked are map searches (else any value: `westphalia diff`).
    bool map_searches = true;
    // The map searches made so far.
    std::vector<map_search> searches;
    // Lemmas that give every search the model answers wrongly its exact answer at the model's
    // endpoints, or more (on a small map the places reached from its start; on a larger one,
    // no path out of the region reached, from any place of it); each lemma a fact of the map,
    // sound in any question. None when the model agrees with every search it reads.
    std::vector<z3::expr> refine(const z3::model& m);

    // Recorded by explore() and run_examples().
    std::vector<rule_site> rule_sites;
    std::vector<table_site> table_sites;
    std::vector<bound_site> bound_sites;
    std::vector<choice_site> choice_sites;
    std::vector<block_site> block_sites;
    std::vector<end_site> end_sites;
    std::vector<branch_site> branch_sites;  // explore() only: an example's run is no place of play
    std::vector<effect_site> effect_sites;  // explore() only, outside the setup
    std::vector<obligation_site> obligation_sites;  // explore() only
    // explore() only: the bodies of `if`s not run because an option the condition reads makes it
    // false (what they use has no site here; free_options explores them)
    std::vector<id> skipped_ways;
    std::set<id> skipped_blocks_and_ends;  // the blocks and `end game`s those ways hold or call
    std::vector<example_run> examples;

    std::string position(const ir::source_pos& w) const;
    std::string node_position(id n) const;
    std::string value_text(id type, std::int64_t v) const;
    std::string zone_instance_text(std::int64_t zi) const;
    // Whether zone instance zi is one of the zones of `kind` (a per-player one: of a seat in a
    // game of `players`), where a piece of that kind can be.
    bool can_hold(id kind, std::int64_t zi, std::int64_t players) const;
    std::string instance_text(std::int64_t inst) const;

    std::vector<member> set_members(id n, env& e, const store& st);
    // A range of numbers `lo..hi` (node n): its ends, its members for those ends, and whether
    // x is one of them, and whether any is (the members' disjunctions, written as comparisons).
    const ir::type& range_element(id n) const;
    std::pair<z3::expr, z3::expr> range_ends(id n, env& e, const store& st);
    std::vector<member> range_members(id n, const z3::expr& lo, const z3::expr& hi);
    z3::expr in_range(id n, const z3::expr& lo, const z3::expr& hi, const z3::expr& x);
    z3::expr range_has_member(id n, const z3::expr& lo, const z3::expr& hi);
    std::vector<place> places(id target, env& e, const store& st);
    z3::expr zone_instance(id n, env& e, const store& st);
    // Per-location zone counts (docs/checker.md, "Per-location counts"): the count cell of zone
    // instance zi (a number) or any instance of per-location zone z (an index term), kept current
    // by the zone statements. count_cells(z) lists zone z's cells (none for other zones).
    std::vector<std::uint32_t> count_cells(id z) const;
    id zone_of(id n) const;  // the zone a zone-typed expression names (`stack[c]`, `deck`), else no_id
    z3::expr zone_count(id z, const z3::expr& zi, const store& st);
    // How many pieces of kind `kind` are in zone instance zi, counted from their locations
    // (any zone: one that keeps no counts has only this).
    z3::expr pieces_in(id kind, const z3::expr& zi, const store& st);
    // Moves `k` pieces from zone instance `from` to `into` in the counts (either may be any
    // instance of any zone; only per-location zones have counts); `all` moves every one of from's.
    void count_move(store& st, id from_zone, const z3::expr& from, id into_zone, const z3::expr& into,
                    const z3::expr& k, bool all);
    // Sets every count of zones of kind `kind` from membership (after a move the counts cannot follow).
    void count_resync(store& st, id kind);
    z3::expr table_key(id t, std::size_t k, env& te, const store& st, z3::expr* natural = nullptr);
    z3::expr odds_key(const ir::table& tb, std::size_t k, env& te, const store& st);
    z3::expr odds_key_fractional(const ir::table& tb, std::size_t k, env& te, const store& st);
    // A table's frame with its arguments bound, and its key values: the row key, the column key,
    // and for a table with natural rows a third, the roll before its modifiers (the column key
    // 0 when the table has one key); with a column shift a fourth, the shift (the third 0 when
    // there are no natural rows).
    struct table_binding {
        env frame;
        std::vector<z3::expr> keys;
        std::optional<z3::expr> natural;
    };
    // When row r is read for these keys (ignoring earlier rows): a natural row on the natural
    // value, another on the row key when no natural row covers the natural value.
    z3::expr row_reads(const ir::table& tb, std::size_t r, const std::vector<z3::expr>& keys);
    // When column c is read: its key covers keys[1], or with a shift (keys[3]) the column the
    // key covers, shifted, is c (the end columns take the overflow with `shift … clamp`).
    z3::expr column_reads(const ir::table& tb, std::size_t c, const std::vector<z3::expr>& keys);
    // The column the column key covers before any shift, -1 when none.
    z3::expr unshifted_column(const ir::table& tb, const std::vector<z3::expr>& keys);
    table_binding bind_table(id t, const std::vector<z3::expr>& args, const store& st);
    // Per cell (row-major): when the engine reads it (its row and column cover the keys and no
    // earlier cell does).
    std::vector<z3::expr> cell_selections(id t, const std::vector<z3::expr>& keys);

private:

    z3::expr bool_of(const z3::expr& x);
    z3::expr int_of(const z3::expr& x);
    const ir::node& N(id n) const { return rs.nodes.at(n); }
    id child(id n, std::uint32_t i) const { return rs.children.at(rs.nodes.at(n).first_child + i); }
    ir::type_kind kind_of(id n) const;

    sv slot_value(id slot, const z3::expr& index, const store& st);
    z3::expr instance_attribute(const z3::expr& inst, id kind, std::uint32_t field);
    // dice_out (when given) gets the roll's value before its modifiers (a table's natural rows).
    z3::expr roll_value(id r, const std::vector<z3::expr>& args, const store& st, const std::map<id, z3::expr>* fixed,
                        z3::expr* dice_out = nullptr);
    // v after the modifiers of `group` (adds, then a set, then caps, then floors).
    z3::expr modified(id group, z3::expr v, const std::vector<z3::expr>& args, const store& st);
    z3::expr seen_any(const std::vector<member>& ms, const member& upto);

    // The map is fixed data, read by a symbolic node through plain terms (equalities, `ite`s)
    // rather than Z3 arrays: a store chain of hundreds of hexsides made every path question on a
    // hex map spend its time on array axioms (a 40 s table question on SPI's map).
    // The edges that bear feature `kind` (both ways where the map reads them both ways), made once.
    const std::vector<std::pair<std::int64_t, std::int64_t>>& edges_bearing(id map, std::int64_t kind);
    // Whether an edge from x to y bears feature `kind`.
    z3::expr edge_has(id map, std::int64_t kind, const z3::expr& x, const z3::expr& y);
    // The kind edge_kind reads from x to y: the first edge's first kind, -1 where none.
    z3::expr edge_kind_at(id map, const z3::expr& x, const z3::expr& y);
    // A per-node value of a map, read at a symbolic node: the value of node i where node == i.
    z3::expr node_lookup(const std::vector<std::int64_t>& values, const z3::expr& node, std::int64_t otherwise);
    // A hex's cube coordinates (axis 0: x, 1: z), and an area map's distances (a * nodes + b, an
    // array made once per map).
    static std::int64_t hex_x(const ir::map_node& h);
    static std::int64_t hex_z(const ir::map_node& h);
    z3::expr cube_coordinate(id map, int axis, const z3::expr& node);
    z3::expr distance_table(id map);
    // path_exists / line_blocked at node n: a map_search (see above). `extra`: the arguments
    // the predicate takes after its locations (`pred(_, side)`), evaluated at the call.
    z3::expr map_search_value(id n, const z3::expr& a, const z3::expr& b, const std::vector<z3::expr>& extra, const store& st);
    // path_length at node n read from the fixed map: with known ends, the engine's breadth-first
    // count (its tests fixed where it reaches); else, with the predicate fixed at every location
    // (or step) of a map of at most max_distance_matrix locations, the table of every pair's
    // length selected by the ends. nullopt where a test is not fixed. `gaps`: the value may be
    // -1, a pair no path joins (play stops there).
    std::optional<z3::expr> path_length_exact(id n, const z3::expr& a, const z3::expr& b, const std::vector<z3::expr>& extra,
                                              const store& st, bool& gaps);
    // A predicate of locations only (not a line's ends) at every location or step, shared by
    // the searches over one store (a choice over 80 targets asks it 80 times); cleared when the
    // store changes. Empty where its encoding needed side conditions.
    struct place_values {
        std::vector<z3::expr> values;
        bool exact = true;
        std::vector<z3::expr> keep;  // the predicate's own arguments (part of the key, by id)
    };
    std::map<std::vector<unsigned>, place_values> search_places_;  // predicate, its arguments' ids
    // path_length where it is any value: one value per predicate, ends, arguments and state
    // (the terms' ids), so the same search read twice over one state (a choice's guard and its
    // options) is the same value. `keep` holds the key's terms, so their ids are not reused.
    struct held_length {
        std::vector<z3::expr> keep;
        z3::expr value;
    };
    std::map<std::vector<unsigned>, held_length> path_lengths_;
    // path_length's tables (path_length_exact): per map, form and the tests' fixed answers, the
    // array of every pair's length (a * nodes + b; -1 where no path) and whether it has a -1.
    std::map<std::vector<std::int64_t>, std::pair<z3::expr, bool>> path_tables_;
    // The cost of a line's predicate of three at one hex (encoded anew per line), or 1 where
    // places × that is past the unfolding budget (the line is then any value).
    std::uint64_t line_predicate_cost(id pred, std::uint64_t places);
    std::vector<unsigned> search_places_store_;
    // A path search's places reached from its start, exactly (reached_from): one Boolean per
    // place, shared by the searches from the same start over the same predicate's terms (a
    // choice of one of 80 targets), and the constraint that defines them. A model that reads
    // such a search wrong gets them as lemmas (refine), on maps of at most
    // max_exact_search_steps steps; beyond, a lemma at a time.
    struct reach_encoding {
        std::vector<z3::expr> keep;  // the start and the predicate's terms (the key, by id)
        std::vector<z3::expr> reached;
        z3::expr constraint;
    };
    std::map<std::vector<unsigned>, reach_encoding> reach_encodings_;
    const reach_encoding* reached_from(const map_search& s);
    z3::expr reaches(const map_search& s, const reach_encoding& r);
    static constexpr std::size_t max_exact_search_steps = 1000;
    static constexpr std::int64_t max_distance_matrix = 128;  // areas: 16 384 entries at most
    std::map<id, z3::expr> distance_tables_;
    std::map<std::pair<id, std::int64_t>, std::vector<std::pair<std::int64_t, std::int64_t>>> edges_bearing_;

    std::uint64_t counter_ = 0;
    // The state every phase start shares (forget_history), made by the first; the facts that
    // hold of it (ranges, zones, invariants), without their `when`.
    std::optional<store> history_free_;
    std::vector<fact> history_facts_;
    std::uint32_t ticks_ = 0;

    // The encoding proper (value() adds the cache and the budget's bookkeeping).
    sv value_uncached(id n, env& e, const store& st);
    // Whether encoding n has no effect besides its value (no fresh variables of its own, no
    // side constraints, no callbacks), so one (node, locals, store) may share its encoding.
    bool pure(id n);
    std::map<id, std::uint64_t> cost_memo_;
    std::map<id, bool> pure_memo_;
    std::set<id> busy_;  // quantities being estimated (recursion)
    // The cache: valid for one store (compared by its terms at every outermost call).
    int depth_ = 0;
    const store* memo_for_ = nullptr;
    std::vector<z3::expr> memo_store_;
    std::map<std::pair<id, std::vector<unsigned>>, sv> memo_;
    std::vector<z3::expr> memo_keep_;  // the locals the keys name (their ids stay theirs)
    // What is being encoded ("predicate entrenched_zone", "rule no_entry"), innermost last.
    std::vector<std::string> context_;
    std::vector<std::shared_ptr<const kept_store>> snapshots_;  // the last few, newest last
    std::vector<std::int64_t> initial_loc_;
    std::vector<std::int64_t> initial_values_;
    std::vector<int> value_seat_;  // per store value: the seat of a per-player value, else 0
    struct count_cell { id zone = ir::no_id; std::uint32_t zone_instance = 0, capacity = 0; };
    std::map<std::uint32_t, count_cell> count_cells_;  // per-location counts, by store value
    // Up to this many (locations × pieces), a forgotten count is tied to the pieces there;
    // above it, only the zone's counts' sum is (docs/checker.md, "Per-location counts").
    static constexpr std::uint64_t count_link_limit = 4096;
};

}  // namespace wp::verify::detail
