// The Westphalia engine: plays a game from its IR. An OpenSpiel-style `state` (terminal,
// chance or decision node; legal actions; chance outcomes with exact weights; apply one
// action) over flat storage, interpreting the IR's statement nodes with an explicit
// continuation stack so that execution suspends at every decision and chance node.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <optional>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace wp::engine {

class game;
// Fill game::live_rules and game::quantity_tables (state.cpp: they evaluate with the interpreter).
void prepare_rules(game& g);
void tabulate_quantities(game& g);
// The exact distribution of the sum of a dice term's dice.
ir::distribution dice_distribution(const ir::dice_term& d);

// A rule the game cannot follow: an `error` overflow, a table key no row covers, an illegal
// `do`, a decision no rule decides. The message names the element and the source position.
//
// An error that is a fault of the rules says which, in the checker's words, so that a finding
// can be matched to a game that met it (the checker's evidence games give it a trace from
// setup): the kind of finding ("table-gap", "bound-violation", "gap", "contradiction",
// "stuck-state"), its subject (the table, the field, the decision, the two rules), the side of
// a field's range it leaves ("above", "below"), and the IR node where play met it. Other
// errors (a bad probe, a time budget) have no kind.
struct engine_fault {
    std::string kind, subject, side;
    ir::id node = ir::no_id;
};

class engine_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
    engine_error(const std::string& what, engine_fault f) : std::runtime_error(what), fault(std::move(f)) {}
    engine_fault fault;
};

// The engine's generator: splitmix64, one 64-bit word of state (a seed gives a byte-identical
// game on every platform).
struct rng {
    std::uint64_t s = 0;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n), n > 0 (rejection sampling: no modulo bias).
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t limit = ~0ull - (~0ull % n);
        std::uint64_t x = next();
        while (x >= limit) x = next();
        return x % n;
    }
};

// Everything fixed for one game: the IR, the number of players and the storage layout.
// Shared (read-only) by every state of the game.
class game {
public:
    // `options`: name=value pairs overriding the IR's selected option values (as written in the
    // rule language: `2`, `true`, `one_total`). Throws engine_error on an unknown name or value.
    game(ir::ruleset rs, int players, const std::map<std::string, std::string>& options = {});

    const ir::ruleset& ruleset() const { return rs_; }
    int players() const { return players_; }
    // A `K -> V` map keeps key_count(K) values, the i-th for the key whose value is
    // key_first(K) + i: an entity kind's keys are its instances, counted within the kind.
    std::uint32_t key_count(ir::id key_type) const;
    std::int64_t key_first(ir::id key_type) const;
    // State field `slot`'s initial value as stored: a card's or piece's is its first instance (so
    // is a map's whose values are cards or pieces).
    std::int64_t initial_value(ir::id slot) const;

    // Layout (public for the state's interpreter and for tests).
    struct slot_layout { std::uint32_t offset = 0; std::uint32_t width = 1; std::uint32_t copies = 1; };
    std::vector<slot_layout> slots;           // per ruleset::slots
    std::uint32_t value_count = 0;
    std::vector<std::uint32_t> kind_first;    // first instance of each entity kind
    std::vector<std::uint32_t> kind_count;    // instances of each kind
    std::vector<std::uint32_t> entity_first;  // first instance of each entity
    std::vector<ir::id> instance_entity;      // instance -> entity
    std::vector<std::uint32_t> zone_first;    // first zone instance of each zone
    std::vector<ir::id> zone_instance_zone;   // zone instance -> zone
    std::vector<std::uint32_t> zone_capacity_offset;  // zone instance -> offset in contents
    std::uint32_t contents_size = 0;
    std::vector<std::int64_t> option_value;   // per ruleset::options
    std::vector<ir::id> group_of_roll, group_of_quantity, group_of_decision, group_of_action, group_of_event;
    // Per rule group: 1 when it holds a modifier that sets, caps or floors (applied after the adds).
    std::vector<std::uint8_t> group_bounds;
    ir::id main_sequence = ir::no_id;
    ir::id wins_decision = ir::no_id;         // `decision wins(p: player) : bool`, if declared

    // Precomputed so that the interpreter looks nothing up by name and builds nothing per step.
    std::uint32_t attribute_stride = 0;       // record fields per entity instance
    std::vector<std::int64_t> instance_attributes;  // instance * stride + field -> value
    std::vector<ir::distribution> dice;       // per ruleset::dice_terms: the exact distribution
    // Per ruleset::dice_terms used by a `(e)dM` node: the distribution of k dice, k = 0..count.
    std::vector<std::vector<ir::distribution>> dice_by_count;
    std::vector<std::uint8_t> block_is_turn;  // per ruleset::blocks: a `turn` block
    // Per ruleset::blocks: a phase's or step's number within its turn for the account ("2",
    // "2.1": its place among the blocks of its parent, after the parent's number); empty for a
    // setup or turn.
    std::vector<std::string> block_number;
    // Per ruleset::tables: where its rows, then its columns, start among all tables' keys
    // (state::keys_read); the last entry is the number of keys.
    std::vector<std::uint32_t> table_key_first;
    bool has_turns = false;
    // Whether anything is ever hidden from a seat: a `hidden` or `owner` zone, a hidden field, a
    // `simultaneous` block. Without, a seat's view is the state itself (seat_view: no copy).
    bool has_hidden = false;
    // Per ruleset::slots: hidden in this game (a field hidden `if option.O` only while O is on).
    std::vector<std::uint8_t> slot_hidden;
    // A quantity or predicate that reads only its parameters (entity attributes, constants,
    // options, other such quantities) and has no modifier is tabulated over its parameters'
    // values: quantity -> table (empty when not tabulated); parameter i takes the values
    // bases[i] .. bases[i] + sizes[i] - 1, and the table is indexed in row-major order.
    struct tabulated {
        std::vector<std::int64_t> values;
        std::vector<std::int64_t> bases, sizes;
    };
    std::vector<tabulated> quantity_tables;
    // Per map, per node: the indices of the map's edges (hexsides) that touch it, so that
    // hexside(a, b) and edge_kind(a, b) read a node's few edges, not the whole map's.
    std::vector<std::vector<std::vector<std::uint32_t>>> node_edges;
    // Per ruleset::rules: the conjuncts of its guard that read only the target's arguments (and
    // options, constants, attributes), tabulated over the arguments like a quantity (empty when
    // none or not tabulable); guard_is_tabulated when that is the whole guard.
    std::vector<tabulated> guard_tables;
    std::vector<std::uint8_t> guard_is_tabulated;
    // Per ruleset::groups: its rules minus those whose guard is false under the chosen options
    // whatever the state (a conjunct reading only options and constants is false), in group order.
    std::vector<std::vector<ir::id>> live_rules;
    // Per ruleset::nodes: for an `if` statement whose condition the options decide (it reads
    // only options and constants, or one such conjunct is false), its value; else varies.
    static constexpr std::uint8_t condition_false = 0, condition_true = 1, condition_varies = 2;
    std::vector<std::uint8_t> if_condition;
    // What each invariant (in ruleset order, invariants only) reads: ranges [first, end) of value
    // cells and of zone instances, through the quantities and predicates it calls.
    struct state_reads {
        std::vector<std::pair<std::uint32_t, std::uint32_t>> values, zones;
    };
    std::vector<state_reads> invariant_reads;
    // Per value cell and per zone instance: bit k when the k-th invariant reads it (of the first
    // 64; the others are always read as changed). An in-step check (state_options::
    // check_in_steps) evaluates only the invariants whose state changed since their last check.
    std::vector<std::uint64_t> value_invariants, zone_invariants;
    // Per ruleset::nodes: the expression prepared for the evaluator (engine/src/compile.hpp):
    // an operation specialised by the node's types and the layout, children and addresses
    // resolved, so evaluation reads no IR node on its common paths.
    struct compiled_node {
        std::uint8_t code = 0;  // xop
        std::uint8_t flag = 0;
        std::uint16_t leaf = 0;  // operands a, b, c read in place: 3 bits each (xleaf)
        std::uint32_t a = 0, b = 0, c = 0, x = 0;
        std::int64_t imm = 0;
    };
    std::vector<compiled_node> code;
    // Statement lists with the `phase` and `step` blocks (and nested lists) in them spliced in,
    // so that they run without a frame of their own: a `seq` node's list is
    // flat_statements[code[seq].a, code[seq].a + code[seq].b).
    std::vector<ir::id> flat_statements;
    // Whether block node n is spliced into its list (it then runs as a header only).
    bool spliced(ir::id n) const;

    std::string position(ir::id node) const;  // "base/rules.wph:12:3"
    // The named element whose text holds statement `node` ("rule drain", "phase game.fate",
    // "sequence game"), for error messages.
    // `block`, when given, receives the block that is that element (ir::no_id for another kind).
    std::string statement_owner(ir::id node, ir::id* block = nullptr) const;
    std::string value_text(ir::id type, std::int64_t v) const;
    std::string instance_text(std::int64_t instance) const;
    static std::string node_text(const ir::map_node& n);
    // A state value's place in words, for the account: "P2 gold", "bav_foot#1 at",
    // "arms[Pikemen] of P1", "game_turn"; and whether it is a player's own field.
    std::string value_place(std::uint32_t address, bool& players_own) const;
    // A stored list (docs/language.md §2) at `at`: its length, then its members. "[P2, P1]".
    std::string list_text(ir::id list_type, const std::int64_t* at) const;
    // The most members a stored list of `element` can hold: the members the type has.
    std::uint32_t list_capacity(ir::id element) const;

private:
    ir::ruleset rs_;
    int players_ = 0;

    void find_invariant_reads();
    void number_blocks();
    void collect_reads(ir::id n, std::vector<std::uint8_t>& seen_slot, std::vector<std::uint8_t>& seen_zone,
                       std::vector<std::uint8_t>& seen_call) const;
};

struct action_info {
    int id = 0;
    std::string text;
};

struct chance_outcome {
    std::int64_t value = 0;     // the total rolled (rolls, dice), or the chosen element
    std::uint64_t weight = 0;   // ways to get it
    std::uint64_t total = 0;    // out of
    double probability = 0;
    std::string text;
};

struct state_options {
    // Resolve rolls and ownerless choices with the state's generator inside apply(), never
    // stopping at a chance node. Shuffles always use the generator.
    bool sampled_chance = false;
    // Called with one readable line per turn, emitted event and game end (not copied state:
    // the function must outlive the states).
    const std::function<void(const std::string&)>* trace = nullptr;
    // The trace's detail: every step's start and every state change, where the default is the
    // phases and the players' own fields (docs/play-testing.md, "The account").
    bool trace_verbose = false;
    // The account as seat `viewer` saw it (`replay --as`; -1: everything): no change to another
    // seat's hidden field, nor to another seat's per-player fields inside a simultaneous block
    // before its reveal.
    int trace_viewer = -1;
    // Record which statement last changed each value and zone, so that last_change() can name
    // what broke an invariant (a little slower).
    bool track_changes = false;
    // Record which statements ran and which table rows and columns were read (statements_run(),
    // keys_read()): what play shows reachable, which the checker then need not prove.
    bool track_coverage = false;
    // Past this moment a game stops with an engine error, even between decisions (the checker's
    // evidence play keeps to --max-time when the rules loop without end).
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // The constructor sets the game up but runs none of its rules; start() runs them. A caller
    // that reads what play met (faults_passed, coverage) keeps the state when the rules stop
    // with an engine error before the first decision.
    bool deferred_start = false;
    // Check the invariants also inside a step, where the checker assumes them (docs/checker.md,
    // "Invariants"): at each phase's start and at the start of each round of a loop (and where
    // it ends), besides after each decision. Needs track_changes; in_step_violations() lists
    // what broke.
    bool check_in_steps = false;
};

class state;
// Appends to `seen` each invariant that state s breaks, not named there yet: "name after decision
// N (last changed by …)", or "name at <place> after decision N (…)" for one broken inside a step
// first (state_options::check_in_steps; only those with in_steps_only, for a game stopped by an
// engine error). The simulator's and play_game's account of violations.
void note_invariant_violations(const state& s, std::vector<std::string>& seen, bool in_steps_only = false);

// An invariant found false inside a step (state_options::check_in_steps): the first place of
// each invariant in the game.
struct step_violation {
    std::string invariant;
    std::string place;   // "the start of phase game.march", "a round of the loop at f.wph:12:7"
    std::uint64_t decisions = 0;  // made by then
    std::string cause;   // state::last_change's text
};

class state {
public:
    // The game's start, executed up to its first decision or chance node (with
    // state_options::deferred_start, by start()).
    state(const game& g, std::uint64_t seed, state_options options = {});
    void start() { run(); }

    bool is_terminal() const { return pending_ == pending_kind::terminal; }
    bool is_chance_node() const { return pending_ == pending_kind::chance_roll || pending_ == pending_kind::chance_choice; }
    // The seat deciding, or -1 at a chance node, -2 when terminal.
    int current_player() const;
    std::vector<action_info> legal_actions() const;
    std::size_t num_actions() const { return options_.size(); }
    std::vector<chance_outcome> chance_outcomes() const;
    // Applies the i-th legal action (decision node) or chance outcome (chance node), then runs
    // to the next decision or chance node or the end. Throws engine_error.
    void apply(int action);
    // At a chance node: picks an outcome with the state's generator and applies it; returns
    // the index of the outcome applied.
    int apply_sampled();
    // A copy for an agent's look-ahead: chance sampled, its generator reseeded with `seed` (its
    // dice are not the game's own), and no trace, change or coverage tracking, or deadline
    // (src/search_agents.cpp).
    state lookahead(std::uint64_t seed) const;
    // What taking legal action `action` leads to, up to the next decision or the end, on a
    // lookahead copy (dice of its own, `seed`): the account's lines and the rules that fired on
    // the way (the human seat's `?N`; src/preview.cpp).
    struct preview_result {
        std::vector<std::string> account;
        std::vector<ir::id> rules;  // in the order of the ruleset
        std::string error;          // an engine error met on the way
    };
    preview_result preview(int action, std::uint64_t seed) const;

    const std::string& end_reason() const { return end_reason_; }
    // The seats the `wins` decision holds for (empty when the ruleset has none). The define
    // rules used are added to *fires when given.
    std::vector<int> winners(std::vector<std::uint64_t>* fires = nullptr) const;
    // Per-rule counts of firing, once per point where the rule changed or decided something:
    // a trigger once per run, a modifier once per roll (or quantity evaluation) it is added to,
    // a define once per decision it decides, a forbid once per decision point (choose, may, do)
    // where it removes an option that would otherwise be legal, a permit once per decision point
    // where it makes legal an option whose guard fails, a require once per `may` it makes
    // mandatory. Several evaluations within one statement count once.
    const std::vector<std::uint64_t>& rule_fires() const { return fires_; }
    // With state_options::track_coverage (else empty): per ruleset::nodes, bit 1 when the
    // statement started, bit 2 when an assignment changed what it wrote; per table key (game::table_key_first), 1 when that row or column was read.
    const std::vector<std::uint8_t>& statements_run() const { return ran_; }
    const std::vector<std::uint8_t>& keys_read() const { return keys_read_; }
    // With track_coverage (else empty): the faults of the rules play met and went on past, each
    // the first time, with the decisions made by then: a `draw` or `deal` that came short (its
    // zone ran out; the kind "unmet-obligation", the zone as subject), and a `may` skipped
    // though a `require` demands its action and no `forbid` applies (the action as subject).
    const std::vector<std::pair<engine_fault, std::uint64_t>>& faults_passed() const { return faults_passed_; }
    std::uint64_t decisions() const { return decisions_; }
    // The `turn` blocks started so far (the account numbers them).
    std::uint64_t turns() const { return turns_; }
    // The names of the ruleset's invariants that do not hold in this state.
    std::vector<std::string> violated_invariants() const;
    // The designer's queries (docs/language.md §9) answered by this state, by their index among
    // the queries in rule order: an `assert always` whose property is false, an `assert never`
    // or a `reachable` whose property is true. Those of the first 64 whose bit is set in `skip`
    // (answered already in this game) are not evaluated.
    std::vector<std::uint32_t> query_hits(std::uint64_t skip = 0) const;
    // The statement that last changed the state an invariant reads: "rule lost_all_units at
    // base/rules.wph:150:3" (the rule, action, procedure, table or step whose text holds it, and
    // its position); empty when not tracked (state_options::track_changes) or unchanged since setup.
    std::string last_change(const std::string& invariant) const;
    // With state_options::check_in_steps: the invariants found false inside a step so far, the
    // first place of each.
    const std::vector<step_violation>& in_step_violations() const { return step_violations_; }

    // Reading state, for tests and tools.
    std::int64_t slot_value(const std::string& slot, int index = 0, int key = 0) const;
    std::vector<std::int64_t> zone_contents(const std::string& zone, int player = 0) const;  // instances
    // The lowest (or highest) value a field of one value per place (a player's, an entity's, a
    // map's key) holds anywhere now: the `toward` agent's measure (src/search_agents.cpp).
    std::int64_t slot_extreme(ir::id slot, bool lowest) const;
    ir::id entity_of(std::int64_t instance) const { return g_->instance_entity.at(static_cast<std::size_t>(instance)); }
    // A per-entity state field (`state per unit { at: hex }`) of one entity instance: slot is an
    // index into ruleset::slots of scope per_entity, instance one of that kind's instances
    // (src/inspect.cpp). Throws engine_error otherwise.
    std::int64_t entity_field(ir::id slot, std::int64_t instance) const;
    // Where a piece stands: its kind's first field of a map's node, as text ("Koln"), or "" when
    // its kind has none or it stands nowhere (src/inspect.cpp).
    std::string piece_place(ir::id entity_type, std::int64_t instance) const;
    // At a decision node of a `choose` (one, order or subset): the type of the elements chosen
    // among (a node of a map, an entity kind, player, enum…); ir::no_id at a `may`, a chance
    // node or the end. option_values(): a `choose`'s options as values, in legal_actions()
    // order (empty at a subset step: its actions are include, leave out). subset_item(): the
    // element a subset step decides on (action 0 includes it, 1 leaves it out), else -1.
    // (src/inspect.cpp)
    ir::id option_type() const;
    // The statement (choose or may) whose decision waits; no_id at a chance node or the end.
    ir::id decision_node() const { return is_chance_node() || is_terminal() ? ir::no_id : pending_node_; }
    std::vector<std::int64_t> option_values() const;
    std::int64_t subset_item() const;
    // What the decision waiting is, in a few words for an account or a prompt: "a card, in
    // procedure play_card", "a hex, in step game.movement", "in rule forced_march" (a `may`: its
    // options say the rest). Empty at a chance node or the end.
    std::string decision_context() const;
    // Whom the decision is about: "for Bavarian 6-3" (the member the innermost loop around it
    // has reached) or "move_unit(French 4-3)" (its procedure's arguments other than players).
    std::string decision_subject() const;
    // The name of the local the waiting `choose` binds ("infantry taken"), or empty.
    std::string chosen_name() const;

    // What seat `viewer` sees (-1: everything): state values and zones, hidden zones (and
    // `owner` zones of other seats) as card counts only, other seats' hidden fields as `(hidden)`.
    std::string view(int viewer) const;
    // Inside a `simultaneous` block, before its `reveal` (docs/language.md §5).
    bool in_secret() const { return !secret_base_.empty(); }
    // The state as seat `seat` may know it (docs/language.md §5, "A seat's view"): the cards it
    // cannot see (hidden zones, other seats' owner zones) sorted and dealt back into those zones in
    // zone order, each keeping its size; other seats' hidden fields at their initial values; inside
    // a simultaneous block before its reveal, other seats' per-player fields as at the block's start;
    // the generator cleared (future dice and shuffles are no one's to see); no trace or tracking.
    // Equal for two states that differ only in what `seat` cannot see.
    state masked_for(int seat) const;
    // A state seat `seat` cannot tell from this one (its view is equal): the cards it cannot see
    // shuffled among the zones it cannot see (each keeping its size), other seats' hidden fields,
    // and inside a simultaneous block other seats' per-player fields, given random values of their
    // types (ranges, bools and enums), all drawn from `seed`. For tests of what agents depend on.
    state resample_hidden(int seat, std::uint64_t seed) const;
    // Whether seat `seat` is shown entry k of slot sl, a field no player owns whose entries are
    // hidden one by one (`hidden by F`, or a map keyed by player; docs/language.md §2).
    bool sees_entry(int seat, ir::id sl, std::uint32_t k) const;
    // Whether copy c of slot sl (a player's, an entity's, a location's; 0 for a global field) is
    // hidden now: hidden in this game, and not shown by its `unless` field (docs/language.md §2).
    bool hidden_copy(ir::id sl, std::uint32_t c) const;
    const game& the_game() const { return *g_; }

private:
    // legal_actions(): same-named pieces in different places told apart by where they stand
    void name_pieces_apart(ir::id elem_type, std::vector<action_info>& out) const;
    // Evaluates the selected rules' properties (invariants, queries) in this state, leaving it as
    // found; visit gets each rule, its index among those selected, and whether it holds (a
    // property that rolls a die is skipped).
    // (A template, defined and used in state.cpp only: it runs after every decision of a
    // simulation, where a call through std::function per rule cost 6% of Contractor Cards' sim.)
    template <class Select, class Visit>
    void evaluate_claims(const Select& select, const Visit& visit, std::uint64_t skip = 0) const;
    // state_options::check_in_steps: the invariants whose state changed since their last check
    // here, evaluated at `place` inside a step; the first break of each is recorded.
    void check_invariants_in_step(const std::string& place);

    enum class pending_kind : std::uint8_t { none, decision, chance_roll, chance_choice, terminal };
    enum class frame_kind : std::uint8_t { list, for_each, while_, repeat, block, subset, order };
    // 32 bytes, aligned: frames are pushed and read on every step.
    struct alignas(32) frame {
        ir::id node = ir::no_id;
        std::uint32_t pc = 0;
        std::uint32_t fb = 0;    // locals base
        std::uint32_t mark = 0;  // locals size to restore on pop (npos: none)
        std::uint32_t aux = 0;   // loop store offset (for_each)
        std::uint32_t aux_len = 0;
        frame_kind kind = frame_kind::list;
        bool round = false;      // a loop over the players whose body holds a turn
    };
    struct need_chance {};
    const frame* region_body() const;  // src/inspect.cpp

    const game* g_;
    const ir::ruleset* rs_;
    state_options opt_;
    rng rng_;
    std::vector<std::int64_t> values_;
    // Inside a `simultaneous` block before its reveal: the values as the block began (what other
    // seats see of a seat's per-player fields); empty otherwise.
    std::vector<std::int64_t> secret_base_;
    std::vector<std::int32_t> contents_;
    std::vector<std::uint32_t> zone_size_;
    std::vector<std::int64_t> locals_;
    std::vector<std::int64_t> loop_store_;
    std::vector<frame> frames_;
    std::vector<std::uint64_t> fires_;
    std::vector<ir::id> fire_log_;  // fires of the statement being run
    std::vector<std::uint8_t> ran_, keys_read_;  // state_options::track_coverage
    std::vector<std::int64_t> scratch_;  // set elements being iterated (a stack)
    std::vector<std::int64_t> targets_;  // zone instances a statement acts on
    std::vector<ir::id> rule_stack_;     // applicable rules being used (a stack)

    pending_kind pending_ = pending_kind::none;
    ir::id pending_node_ = ir::no_id;    // the choose/may statement waiting
    std::uint32_t pending_fb_ = 0;
    int pending_player_ = -1;
    std::vector<std::int64_t> options_;  // decision: option values; may: 1 (yes), 0 (no)
    std::vector<std::uint64_t> weights_; // chance_roll: weight of each option
    std::uint64_t weight_total_ = 0;
    std::vector<std::int64_t> step_results_;  // chance results of the step being replayed
    std::size_t step_cursor_ = 0;
    std::uint8_t end_at_ = 0;                 // 1: end at end of turn, 2: of round
    std::string pending_end_;
    std::string end_reason_;
    std::uint64_t decisions_ = 0;
    std::vector<std::pair<engine_fault, std::uint64_t>> faults_passed_;
    std::uint64_t turns_ = 0;
    std::int64_t turn_label_ = 0;    // the number the account gave the latest turn (`numbered`, else turns_)
    std::uint64_t quiet_steps_ = 0;  // steps since the last decision or chance node
    // With track_changes: the statement that last changed each value / zone instance, and when.
    std::vector<ir::id> value_writer_, zone_writer_;
    std::vector<std::uint64_t> value_time_, zone_time_;
    std::uint64_t change_clock_ = 0;
    // With check_in_steps: the invariants (bit k, of the first 64) whose state changed since
    // their last in-step check, those found broken in a step already, and what broke.
    std::uint64_t invariants_changed_ = ~0ull, invariants_broken_in_step_ = 0;
    std::vector<step_violation> step_violations_;
    // A probe (probing_; never in play): its given dice, per roll (before modifiers) and per
    // dice term node, in the order they are used; and the rolls an example's `given` fixes
    // (`roll r = 9;`), for every later use until fixed again.
    bool probing_ = false;
    bool exact_ = false;  // probe::chance_of: a shuffle is an error (it has no exact odds here)
    std::vector<std::pair<ir::id, std::int64_t>> fixed_rolls_, fixed_dice_;
    std::vector<std::pair<ir::id, std::int64_t>> held_rolls_;

    friend struct interp;
    friend class probe;
    friend void tabulate_quantities(game& g);
    friend void prepare_rules(game& g);
    struct unstarted {};
    state(const game& g, unstarted);  // storage only, for evaluating expressions
    void set_up_storage();             // the initial values and zones
    void run();
    void step();
    void finish(const std::string& reason);
};

// ---------------------------------------------------------------- probes

// A situation built value by value, on which the engine computes what the rules give there:
// the checker replays its witnesses on it (a table's keys, an assignment's new value) to see
// whether the engine agrees with its encoding of the rules. Not a game position: no sequence
// runs, and every roll and dice term it needs is given, never drawn (src/state.cpp).
class probe {
public:
    // Every value 0 and every zone empty.
    explicit probe(const game& g);
    // The values and zones a game starts with (before its setup runs).
    void start();
    probe(const probe&) = delete;
    probe& operator=(const probe&) = delete;

    // Value `index` of the game's layout (game::slots: offset + copy * width + key).
    void set_value(std::uint32_t index, std::int64_t v);
    // Puts entity instance `instance` on top of zone instance `zone`.
    void put(std::uint32_t zone, std::int64_t instance);
    // The dice of the next use of a roll (its modifiers are the engine's own), or the total of
    // the next use of a dice term (a node of op::dice).
    void fix_roll(ir::id roll, std::int64_t dice) { s_->fixed_rolls_.emplace_back(roll, dice); }
    void fix_dice(ir::id node, std::int64_t total) { s_->fixed_dice_.emplace_back(node, total); }

    // What the engine makes of something: the numbers, or the error it stops with (a key no
    // row covers, a value out of range, a roll whose dice were not given).
    struct outcome {
        std::vector<std::int64_t> values;
        std::string error;
    };
    // Table `table` consulted by the statement or expression `at` with these arguments (the
    // table's parameters, then keys given as arguments): the row and column key values, the
    // keys read after their clamps.
    outcome read_table(ir::id table, ir::id at, const std::vector<std::int64_t>& args);
    // Assignment statement `statement` (=, +=, -=) with its element's locals: the new value,
    // before any clamp; the error when the engine refuses it.
    outcome assign(ir::id statement, const std::vector<std::int64_t>& locals);
    // The legal options of `choose` statement `choice` with its element's locals, as values.
    outcome options(ir::id choice, const std::vector<std::int64_t>& locals);
    // The rules of group `group` (ruleset::groups) that apply to the target's arguments and
    // that no applicable overriding rule defeats, in group order, as rule ids.
    outcome applicable(ir::id group, const std::vector<std::int64_t>& args);
    // The value `define` rule `rule` gives for the target's arguments (a `modifier`: its amount;
    // an `invariant`: 1 where it holds, 0 where not).
    outcome value(ir::id rule, const std::vector<std::int64_t>& args);
    // Quantity or predicate `quantity` with these arguments, its modifiers added.
    outcome quantity(ir::id quantity, const std::vector<std::int64_t>& args);
    // Whether action `action` may be done with these arguments (1 or 0), then whether an
    // applicable `require` rule demands it (1 or 0).
    outcome legal(ir::id action, const std::vector<std::int64_t>& args);
    // Whether instance `index` of zone `zone` (a seat's, a location's; 0 for a single zone)
    // holds card or piece `instance` (1 or 0).
    outcome holds(ir::id zone, std::int64_t index, std::int64_t instance);
    // The cell of table `table` its rows and columns give for these keys, as they read them
    // (after any clamp; not odds keys): the row, then the column (0 without columns).
    outcome cell(ir::id table, const std::vector<std::int64_t>& keys);
    // Runs `example` rule `rule`'s `given` here (the rolls it fixes held for every later use;
    // `active_player` the seat it reads as active), then evaluates its stated outcome and the
    // expressions `shown` in its locals: the outcome (1 or 0), then their values. A `given`
    // that would need a decision, or a roll neither fixed nor given, is an error.
    outcome example(ir::id rule, int active_player, const std::vector<ir::id>& shown);
    // Runs `chances` rule `rule`'s `given` here with its parameters `args` (P1 active), following
    // every roll, dice term and ownerless choice through each of its results with its weight
    // and merging the branches that reach the same state: the exact chance that its condition
    // then holds. Throws engine_error where the rules cannot be followed exactly (an engine
    // error, a decision, a shuffle, more than `most_states` states at once). src/exact_chances.cpp
    double chance_of(ir::id rule, const std::vector<std::int64_t>& args, std::size_t most_states = 200'000);

private:
    // A locals region holding `locals`, room for any element's; returns its base.
    std::uint32_t region(const std::vector<std::int64_t>& locals);
    // Runs body, the engine's error (or a chance it would need) as the outcome's error; the
    // locals regions and rules pushed are dropped.
    outcome attempt(const std::function<void(outcome&)>& body);

    const game* g_;
    std::unique_ptr<state> s_;
    std::size_t region_ = 1;
};

// A `chances` rule's grid (docs/language.md §7): for each value of its parameters (the rows, then
// the columns), the exact chance that its condition holds once its `given` has run from the
// values a game of g's players starts with (probe::chance_of). A cell the rules cannot follow
// exactly keeps the engine's reason instead. src/exact_chances.cpp
struct chances_grid {
    std::vector<std::int64_t> rows, columns;  // the parameters' values (one parameter: columns {0})
    struct cell {
        double chance = 0;
        std::string error;
    };
    std::vector<cell> cells;  // row by row
};
chances_grid compute_chances(const game& g, ir::id rule);

// ---------------------------------------------------------------- agents and the driver

// What the deciding seat is handed at its decision (docs/language.md §5, "A seat's view"): its own
// options, read from the game, and the state as it may know it, masked (state::masked_for) on
// first use when the game hides anything, else the game's own state (no copy). An agent never
// sees the state itself.
class seat_view {
public:
    // `s` at a decision node of `seat`; it must outlive the view.
    seat_view(const state& s, int seat) : s_(&s), seat_(seat) {}
    int seat() const { return seat_; }
    // The seat's own legal options: its to know, whatever else is hidden.
    std::size_t num_actions() const { return s_->num_actions(); }
    std::vector<action_info> legal_actions() const { return s_->legal_actions(); }
    // The decisions taken so far in the game (public).
    std::uint64_t decisions() const { return s_->decisions(); }
    // The state as the seat may know it.
    const state& seen() const;
    // Whether seen() is a masked copy (the game hides something).
    bool masked() const { return s_->the_game().has_hidden; }

private:
    const state* s_;
    int seat_;
    mutable std::unique_ptr<state> copy_;
};

class agent {
public:
    virtual ~agent() = default;
    // Index of the legal action to take at the decision `v` is the view of.
    virtual int act(const seat_view& v, rng& r) = 0;
    // A game resumed from its log (`play --resume`): `action` was taken at `v` for this agent's
    // seat before. The default asks act() again and drops its answer, so that the generator is
    // where it was when the game was saved; an agent that draws nothing may do nothing.
    virtual void observe(const seat_view& v, int action, rng& r) {
        (void)action;
        act(v, r);
    }
};

class random_agent : public agent {
public:
    int act(const seat_view& v, rng& r) override;
};

class first_legal_agent : public agent {
public:
    int act(const seat_view&, rng&) override { return 0; }
    void observe(const seat_view&, int, rng&) override {}
};

// Plays the given action indices in order (then the first legal action): replays a game
// from its play_result::actions and the same seed.
class scripted_agent : public agent {
public:
    explicit scripted_agent(std::vector<int> actions) : actions_(std::move(actions)) {}
    int act(const seat_view&, rng&) override { return next_ < actions_.size() ? actions_[next_++] : 0; }

private:
    std::vector<int> actions_;
    std::size_t next_ = 0;
};

struct play_options {
    std::map<std::string, std::string> options;  // --option name=value
    bool sampled_chance = true;                  // false: the driver samples each chance node
    std::uint64_t max_decisions = 1'000'000;     // stop ("decision limit") beyond this
    bool check_invariants = false;               // after every decision and at the end
    const std::function<void(const std::string&)>* trace = nullptr;
    bool trace_verbose = false;  // state_options::trace_verbose
    // play_logged only: a log (already checked by replay_log) whose steps are played first, the
    // agents observing their seats' logged decisions, before the agents go on (`play --resume`).
    const std::string* resume = nullptr;
    std::string resume_note;  // the account's line when the resumed steps are done (default "resumed after N decisions")
    // play_logged only: the account as this seat may know it (state_options::trace_viewer, as
    // `replay --as`): another seat's decisions before a reveal and its hidden fields left out,
    // and no designer query answered (a query reads the whole state). -1: everything.
    int viewer = -1;
};

struct play_result {
    std::shared_ptr<const game> the_game;
    std::unique_ptr<state> final_state;
    std::string end_reason;
    std::vector<int> winners;
    std::uint64_t decisions = 0;
    std::vector<int> actions;               // every decision's action index, in order
    std::vector<std::uint64_t> rule_fires;  // per ruleset::rules
    std::vector<std::string> invariant_violations;  // "name after decision N", first of each
    // `play` and `replay`: one line per designer's query, in rule order ("reachable
    // deck_out_twice: is reached after decision 431", "…: not answered in this game").
    std::vector<std::string> queries;
    std::string error;                      // an engine_error's message; empty when none
};

// Plays one game: agents[seat] decides for each seat (a single agent plays every seat).
play_result play_game(const ir::ruleset& rs, int players, std::uint64_t seed, const std::vector<agent*>& agents,
                      const play_options& options = {});

}  // namespace wp::engine
