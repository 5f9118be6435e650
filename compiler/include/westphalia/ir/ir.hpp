// The Westphalia IR: one compiled ruleset, typed, resolved and flat. Every name is an index
// into a table of this struct; expressions and statements are nodes of one flat array.
// Read by the engine, the checker and the aid generator; serialised by ir/json.hpp.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace wp::ir {

// An index into one of the tables of `ruleset` (which table is fixed by the field).
using id = std::uint32_t;
inline constexpr id no_id = 0xFFFFFFFFu;

inline constexpr int schema_version = 6;  // 2: accepted findings (`accepts`); 3: round 2a (ranges, counted dice, natural rows, shifts, fractional odds, subset objectives, set/cap modifiers); 4: aid texts of blocks; 5: stand-in and missing marks on one entity or one of its fields, the op end-turn; 6: simultaneous and reveal, hidden per-player fields, zones per map location (zones[].map), `move all` (reshuffle with value 1); optional card events (card_events, event_dispatchers, events_outrank); since 6, without a new version: procedures' aid texts (procedures[].aid, written only when set, so an IR without one is as before); a table's `printing of` (tables[].printing_of, likewise); fields hidden entry by entry and by option (slots[].hidden_by, slots[].hidden_if, likewise); shown while a field is set (slots[].hidden_unless, likewise)

// ---------------------------------------------------------------- provenance

// A position in `ruleset::files[file]`; lines and columns 1-based, columns in code points.
struct source_pos {
    id file = no_id;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::uint32_t end_line = 0;
    std::uint32_t end_column = 0;
    bool operator==(const source_pos&) const = default;
};

// A cited rulebook section (`§L52-54` is {"L52", "L54"}) and the outline section holding it.
struct anchor {
    std::string first;
    std::string last;  // empty for a single section
    id section = no_id;  // index into ruleset::sections
    bool operator==(const anchor&) const = default;
};

// Where an element comes from: file position, the rulebook sections it cites, and the layer
// (index into ruleset::layers) that last set it.
struct provenance {
    source_pos where;
    std::vector<anchor> anchors;
    id layer = no_id;
    bool operator==(const provenance&) const = default;
};

// ---------------------------------------------------------------- metadata

enum class layer_kind : std::uint8_t { base, exclusive, errata, options, expansion };

struct layer {
    std::string name;
    layer_kind kind = layer_kind::base;
    std::vector<id> files;  // indices into ruleset::files
    provenance prov;        // the manifest line
};

// An expansion the manifest declares, selected (`--with`) or not: selected ones are also layers.
struct expansion {
    std::string name;
    std::vector<std::string> after;  // the expansions it is declared to come after
    std::vector<std::string> files;  // as the manifest writes them
    bool selected = false;
    bool operator==(const expansion&) const = default;
};

enum class section_status : std::uint8_t { encoded, flavour, missing_data, pending };

// An outline entry: a section number or line (`9.14`, `L52`) or a range.
struct section {
    std::string first;
    std::string last;  // empty for a single section
    std::string title;
    section_status status = section_status::encoded;
    provenance prov;
};

// ---------------------------------------------------------------- types

enum class type_kind : std::uint8_t {
    error,        // never in a compiled IR
    void_,        // statements
    boolean,
    integer,      // unbounded (intermediate values)
    range,        // lo..hi with an overflow policy
    string,       // outcome labels
    enumeration,  // ref: enum
    record,       // ref: record
    entity,       // ref: entity kind
    player,
    zone,         // one zone instance holding entities of kind `ref`
    node,         // a node of map `ref`
    map_of,       // one `value` per member of `key` (type ids)
    list_of,      // a set/list of `value`
    odds,         // an odds ratio (attacker, defender); only as a table key
};

enum class overflow : std::uint8_t { none, clamp, error };

struct type {
    type_kind kind = type_kind::error;
    std::int64_t lo = 0;  // range
    std::int64_t hi = 0;
    overflow policy = overflow::none;  // range
    id ref = no_id;
    id key = no_id;    // map_of
    id value = no_id;  // map_of, list_of
    bool operator==(const type&) const = default;
};

struct enum_member {
    std::string name;
    std::string label;  // display label, may be empty
};

struct enum_def {
    std::string name;
    std::vector<enum_member> members;
    std::string aid;
    bool synthesised = false;  // made by the compiler for an option with named values
    provenance prov;
};

// `type reputation = -3..3 clamp`
struct type_alias {
    std::string name;
    id type = no_id;
    provenance prov;
};

struct field {
    std::string name;
    id type = no_id;
    bool has_default = false;
    std::int64_t default_value = 0;  // a constant (see `constant encoding` below)
    provenance prov;
};

struct record {
    std::string name;
    std::vector<field> fields;
    provenance prov;
};

// Constant encoding used by every int64 "value" in this IR, by type: bool 0/1; integer and
// range the number; enumeration the member index; entity the entity id (ruleset::entities);
// node the node index in its map; player the seat index; string an index into
// ruleset::strings; -1 means "none" for entity, node and player.

// ---------------------------------------------------------------- state

enum class slot_scope : std::uint8_t { global, per_player, per_entity, per_node };

struct slot {
    std::string name;
    slot_scope scope = slot_scope::global;
    id entity_kind = no_id;  // per_entity
    id map = no_id;          // per_node: one value per node of this map
    id type = no_id;
    std::int64_t initial = 0;  // for map_of types: the value of every element
    bool flag = false;         // once-per-game flag: may only go from false to true
    bool counter = false;      // turn/phase counter: 1..100000 error, starts at 1
    bool hidden = false;       // per player: seen only by its own player (docs/language.md §2);
                               // a map keyed by player or by hidden_by's type: each entry by its own
    id hidden_by = no_id;      // a per-player enum slot: entry k is seen by the players holding k
    id hidden_if = no_id;      // a bool option: hidden only in games where it is on
    id hidden_unless = no_id;  // a bool slot of the same block: shown to all while its copy is true
    provenance prov;
};

// ---------------------------------------------------------------- components

struct entity_kind {
    std::string name;
    bool pieces = false;  // `pieces` rather than `cards`
    id record = no_id;
    id first_entity = 0;  // entities [first_entity, first_entity + entity_count)
    std::uint32_t entity_count = 0;
    id standin = no_id;  // index into ruleset::standins, if the data is ours
    provenance prov;
};

struct entity {
    std::string name;
    std::string display;
    id kind = no_id;
    std::int64_t count = 1;             // copies in the game
    std::vector<std::int64_t> values;   // one per field of the kind's record (defaults filled in)
    provenance prov;
};

enum class visibility : std::uint8_t { public_, hidden, owner };

struct zone {
    std::string name;
    bool per_player = false;
    id map = no_id;  // per location: one instance per node of this map (type map_of(node, zone))
    bool ordered = false;
    visibility vis = visibility::public_;
    id entity_kind = no_id;
    provenance prov;
};

// ---------------------------------------------------------------- maps

enum class map_kind : std::uint8_t { areas, hexgrid };

struct map_attribute {
    std::string name;
    id type = no_id;  // boolean, integer or enumeration
};

struct map_node {
    std::string name;  // area name, or the hex number as written ("0101")
    std::string display;
    std::int64_t terrain = -1;  // member of map::terrain_enum, -1 none
    std::int32_t col = 0;       // hexgrid: first two digits
    std::int32_t row = 0;       // hexgrid: last two digits
    std::vector<std::int64_t> values;   // one per map::attributes (false/0 when not given)
    std::vector<id> neighbours;         // adjacent nodes (edges both ways for `--`; hex geometry)
    provenance prov;
};

struct map_edge {
    id a = no_id;
    id b = no_id;
    bool directed = false;
    std::vector<std::int64_t> kinds;  // members of map::edge_enum
    provenance prov;
};

struct map {
    std::string name;
    map_kind kind = map_kind::areas;
    id node_type = no_id;     // the type of this map's nodes
    id terrain_enum = no_id;  // enum of node terrains, if any
    id edge_enum = no_id;     // enum of edge kinds / hexside features, if any
    std::vector<map_attribute> attributes;
    std::vector<map_node> nodes;
    std::vector<map_edge> edges;  // edges (areas) or hexsides (hexgrid)
    id standin = no_id;
    provenance prov;
};

// ---------------------------------------------------------------- callables

// A local variable of one element's frame: parameters first, then let/loop/binder names.
struct local {
    std::string name;
    id type = no_id;
};

struct dice_term {
    std::int64_t count = 1;
    std::int64_t low = 1;
    std::int64_t high = 6;
    bool operator==(const dice_term&) const = default;
};

// The exact distribution of a sum of dice terms plus a constant: weights[i] ways to total
// min + i, out of `total` equally likely outcomes. Empty when the dice are too many to list.
struct distribution {
    std::int64_t min = 0;
    std::int64_t max = 0;
    std::vector<std::uint64_t> weights;
    std::uint64_t total = 0;
};

struct signed_dice {
    dice_term dice;
    bool negative = false;
};

struct roll {
    std::string name;
    std::uint32_t param_count = 0;  // the first locals
    std::vector<local> locals;
    id expr = no_id;         // the dice expression (node)
    bool linear = false;     // a sum of dice terms and a constant: the fields below are exact
    std::vector<signed_dice> terms;
    std::int64_t constant = 0;
    distribution dist;
    std::string aid;
    provenance prov;
};

// A quantity (`quantity hand_limit(p) : int = 7`) or predicate; modifiers may target quantities.
struct derived {
    std::string name;
    bool predicate = false;
    std::uint32_t param_count = 0;
    std::vector<local> locals;
    id result = no_id;  // type
    id expr = no_id;
    std::string aid;
    provenance prov;
};

struct decision {
    std::string name;
    std::vector<local> params;
    id result = no_id;
    bool total = false;
    provenance prov;
};

struct action {
    std::string name;
    std::uint32_t param_count = 0;
    std::vector<local> locals;
    id guard = no_id;  // node, no_id when absent
    id body = no_id;   // node (a statement sequence)
    std::string aid;
    provenance prov;
};

struct event {
    std::string name;
    std::vector<local> params;
    provenance prov;
};

struct procedure {
    std::string name;
    std::uint32_t param_count = 0;
    std::vector<local> locals;
    id body = no_id;
    provenance prov;
    std::string aid;  // the designer's text for the player aid, read where the procedure is called
};

struct sequence {
    std::string name;
    std::vector<local> locals;
    id body = no_id;
    provenance prov;
};

// A card's event (docs/language.md, "Events on cards"). Its block is procedure `procedure`
// (one parameter: the player who plays it), run by the card kind's dispatching procedure (one of
// ruleset::event_dispatchers), which first sets `flag` (a global Boolean slot) for a lasting
// event. The compiler ends the events lasting a turn or a phase after each such block.
enum class event_duration : std::uint8_t { once, phase, turn, until_cancelled };

struct card_event {
    id card = no_id;       // the entity
    std::string title;     // as declared, may be empty
    id procedure = no_id;  // its block
    event_duration duration = event_duration::once;
    id flag = no_id;       // its in-force slot (no_id: at once)
    std::vector<id> lifts;  // invariants not required while it is in force (their value reads `flag or …`)
    std::vector<id> rules;  // the rules `during` it (their guards read `flag and …`)
    std::string aid;
    provenance prov;
};

// `events outrank rules … except …`: the rules during an event override the other rules of their
// target (override_reason::event), but for the excepted cards', which those rules override.
struct event_precedence {
    std::vector<id> except;  // entities
    provenance prov;
};

// A named part of a procedure (setup, turn, phase, step): a stable name errata can target.
struct block {
    std::string word;  // setup | turn | phase | step
    std::string name;  // may be empty for setup/turn
    std::string path;  // dotted from the sequence: "game.fate"
    id parent = no_id; // enclosing block
    id node = no_id;   // the block's statement node
    std::string aid;   // the designer's text for the player aid, instead of the generated English
    id number = no_id; // a turn's `numbered e`: the int expression the account names the turn by
    provenance prov;
};

// ---------------------------------------------------------------- tables

enum class key_source : std::uint8_t { roll, dice, key };
enum class rounding : std::uint8_t { none, attacker, defender };

// One row or column key, normalised: integer keys as lo..hi with open ends marked; odds as
// attacker lo : defender hi; enum values as the member index in lo (= hi).
enum class key_range_kind : std::uint8_t { integer, odds, member };

struct key_range {
    key_range_kind kind = key_range_kind::integer;
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    bool open_lo = false;  // `..5`: every key up to hi
    bool open_hi = false;  // `9+`: every key from lo
    std::string text;      // as printed
    bool operator==(const key_range&) const = default;
};

// Maps a key value to a row/column index. Integer axes: dense[k - min] for min <= k <= max,
// below/above for keys outside; -1 where no row covers the key. Member axes: dense[member].
// Odds axes: empty dense; compare the ratio with the ranges in order.
struct key_map {
    key_range_kind kind = key_range_kind::integer;
    std::int64_t min = 0;
    std::int64_t max = -1;
    std::vector<std::int32_t> dense;
    std::int32_t below = -1;
    std::int32_t above = -1;
};

struct table_key {
    key_source source = key_source::roll;
    id expr = no_id;   // node: the roll, dice or key expression
    id var = no_id;    // key: the local bound to the key
    id type = no_id;   // the key's type
    rounding round = rounding::none;
    bool has_clamp = false;
    key_range clamp_lo;
    key_range clamp_hi;
    id shift = no_id;          // node (int): the column key only; the column read moves this many to the right
    bool shift_clamp = false;  // a shifted column off the table reads the end column (else an engine error)
    provenance prov;
};

struct table_row {
    bool natural = false;  // keyed on the roll before its modifiers (`natural 1`); read before the others
    key_range key;
    std::string label;
    provenance prov;
};

struct table_cell {
    bool has_outcome = false;
    std::int64_t outcome = 0;  // constant of table::outcome_type
    id effects = no_id;        // node (statement sequence), no_id when none
    provenance prov;
};

struct table {
    std::string name;
    std::uint32_t param_count = 0;
    std::vector<local> locals;
    std::vector<table_key> keys;     // one (rows) or two (rows, columns)
    std::vector<table_row> rows;
    std::vector<key_range> columns;  // empty for one-key tables
    std::vector<table_cell> cells;   // rows.size() * max(1, columns.size()), row-major
    key_map row_map;      // the rows that are not natural, on the modified roll
    key_map column_map;
    key_map natural_map;  // the natural rows (indices into rows), on the unmodified roll; empty dense when none
    id outcome_type = no_id;         // enumeration, string or integer; no_id when no outcome
    id printing_of = no_id;          // `printing of t`: another printing of table t (ir/printings.hpp compares them)
    id standin = no_id;
    std::string aid;
    provenance prov;
};

// ---------------------------------------------------------------- options, missing data

enum class option_kind : std::uint8_t { boolean, integer, named };

struct option {
    std::string name;
    option_kind kind = option_kind::boolean;
    id type = no_id;
    id enum_id = no_id;                // named: the synthesised enum of its values
    std::vector<std::int64_t> values;  // constants of `type`
    std::uint32_t default_index = 0;
    std::uint32_t selected_index = 0;  // after --option
    std::string aid;
    provenance prov;
};

enum class element_kind : std::uint8_t {
    none, enumeration, alias, record, slot, entity_kind, entity, zone, map, roll, derived, decision,
    action, event, procedure, sequence, table, option, missing, rule,
};

// A `missing` declaration, or a `missing "why"` mark on one entity (`element`) or one of its
// fields (`field`, else empty); a declaration has kind none.
struct missing {
    std::string name;
    std::string what;
    provenance prov;
    element_kind kind = element_kind::none;
    id element = no_id;
    std::string field;
};

// A checker finding accepted with a reason (`accept`): reported, marked accepted, not an error.
struct accepted_finding {
    std::string kind;     // one of `finding_kinds`
    std::string subject;  // the finding's subject, or the name of an element it involves
    std::string reason;
    provenance prov;
    std::string side;     // bound-violation: "above" or "below" its range only; empty: either
};

// The kinds of checker finding (DESIGN.md §5), as reports and `accept` name them.
inline constexpr const char* finding_kinds[] = {
    "contradiction", "ambiguity",   "gap",         "table-gap",     "table-overlap", "dead-rule",         "dead-cell",
    "dead-branch",   "no-op",           "bound-violation", "unreachable", "stuck-state", "example-failure", "errata-obligation", "unknown",
    "invariant-violation", "unmet-obligation", "undeclared-change", "table-mismatch", "aid-drift", "hidden-leak",
};

struct standin {
    element_kind kind = element_kind::none;
    id element = no_id;
    std::string why;
    provenance prov;
    std::string field;  // one field of an entity, else empty (the whole element)
};

// ---------------------------------------------------------------- rules

// assert_always, assert_never and reachable are a designer's queries (docs/language.md §9):
// answered by the checker, counted by the simulator, never assumed or enforced by play.
enum class rule_kind : std::uint8_t {
    modifier, define, forbid, permit, require, trigger, invariant, example, assert_always, assert_never, reachable,
    chances  // odds computed from the rules: a grid for the aid (locals: its parameters)
};
// A query: a claim about play to answer, not a rule of it.
inline bool is_query(rule_kind k) {
    return k == rule_kind::assert_always || k == rule_kind::assert_never || k == rule_kind::reachable;
}
// A query's words as the source writes them: "assert always", "assert never", "reachable".
inline const char* query_words(rule_kind k) {
    return k == rule_kind::assert_always ? "assert always" : k == rule_kind::assert_never ? "assert never" : "reachable";
}
// A rule that takes part in play (fires, decides, allows): not an invariant, example or query.
// An example or `chances`: a `given` run outside play (from the values a game starts with).
inline bool runs_a_given(rule_kind k) { return k == rule_kind::example || k == rule_kind::chances; }
inline bool plays(rule_kind k) { return k != rule_kind::invariant && !runs_a_given(k) && !is_query(k); }
enum class target_kind : std::uint8_t { none, roll, quantity, decision, action, event };
// A modifier's effect (docs/language.md §9): the adds sum onto the target's value, then a set
// replaces it, then caps (at_most) and floors (at_least) bound it.
enum class modifier_kind : std::uint8_t { add, set, at_most, at_least };

struct rule {
    std::string name;
    rule_kind kind = rule_kind::modifier;
    target_kind target = target_kind::none;
    id target_id = no_id;
    std::vector<local> locals;      // the target's parameters (bound by target args) first
    std::uint32_t param_count = 0;
    id amount = no_id;  // modifier: the signed term (add), the value set, the cap or the floor
    modifier_kind mod = modifier_kind::add;
    id value = no_id;   // define: value; invariant, query: property; example: expectation
    id guard = no_id;   // `when` (refinements AND-ed in), no_id when always
    id body = no_id;    // trigger: effects; example: given
    std::vector<id> overrides;  // rules this one beats
    id group = no_id;   // index into ruleset::groups (no_id for invariants and examples)
    std::string aid;
    provenance prov;
};

// An override edge: `higher` wins over `lower` where both apply.
enum class override_reason : std::uint8_t { declared, exception, exclusive_layer, event };

struct override_edge {
    id higher = no_id;
    id lower = no_id;
    override_reason reason = override_reason::declared;
    bool operator==(const override_edge&) const = default;
};

// All rules contributing to one roll/quantity/decision/action/event, with their override order.
struct rule_group {
    target_kind target = target_kind::none;
    id target_id = no_id;
    std::vector<id> rules;
    std::vector<override_edge> edges;
};

enum class errata_kind : std::uint8_t { correction, clarification, addition };
// replace_block / insert_block: a named block of a sequence or procedure (target: its path).
enum class errata_op_kind : std::uint8_t { replace, refine, except, withdraw, amend, add, replace_block, insert_block };

// One applied errata operation, for `westphalia diff` and the aid's errata notes.
struct errata_op {
    id layer = no_id;
    errata_kind kind = errata_kind::correction;
    std::string title;        // of the errata block
    errata_op_kind op = errata_op_kind::add;
    std::string target;       // the name it changes (empty for add)
    element_kind result_kind = element_kind::none;  // the element it set (none for withdraw)
    id result = no_id;
    provenance prov;
};

// ---------------------------------------------------------------- nodes

enum class op : std::uint8_t {
    // expressions
    absent,         // an optional operand that is not there
    const_int,      // value
    const_bool,     // value
    const_string,   // value: index into strings
    const_member,   // value: member index (type: the enum)
    const_entity,   // value: entity id
    const_node,     // value: node index (type: node of the map)
    dice,           // ref: index into dice_terms
    local,          // ref: local index in the enclosing element's frame
    global,         // ref: slot (global scope)
    player_field,   // ref: slot (per player); child: player
    entity_field,   // ref: slot (per entity or per node); child: the entity or map node
    attribute,      // ref: field index of the entity kind's record; child: entity
    record_field,   // ref: field index; child: a record value
    node_attribute, // ref: attribute index; child: map node
    zone,           // ref: zone (a per-player zone has type map_of(player, zone), a per-location
                    // zone map_of(node, zone))
    index,          // children: map_of value, key
    option,         // ref: option
    type_members,   // every member/entity/node of type `ref` as a list (`all(t in trait: …)`)
    roll,           // ref: roll; children: args
    quantity,       // ref: derived; children: args (quantities and predicates)
    decide,         // ref: decision; children: args
    lookup,         // ref: table; children: args — the outcome, without effects
    builtin,        // ref: builtin code; children: args (map searches: value = predicate id, see is_map_search)
    neg, not_,
    add, sub, mul, div, mod,
    eq, ne, lt, le, gt, ge, in,
    and_, or_,
    cond,           // children: condition, then, else
    any, all, count, sum, min, max,  // ref: binder local; children: set, body
    // statements
    seq,            // children: statements
    block,          // ref: block; child: seq
    let,            // ref: local; child: value
    assign, add_assign, sub_assign,  // children: target, value
    fix_roll,       // example given: children: roll node, value
    if_,            // children: condition, then seq, else seq (absent when none)
    for_each,       // ref: local; children: set, from (absent), body
    repeat_until,   // children: body, condition
    while_,         // children: condition, body
    shuffle,        // children: zone
    draw, deal,     // children: count, from, to
    move,           // children: entity, from, to
    reshuffle,      // children: from, into; value 1: `move all from … to …` (every entity of `from`,
                    // in its order, onto `into`, no shuffle: a stack moving as one)
    choose_one, choose_subset, choose_order,  // ref: local; children: set, by, where, body
                                              // choose_subset: value 1 (maximizing) or 2 (minimizing),
                                              // with a fifth child, the objective; else value 0
    may,            // value: label string; children: by, body
    do_action,      // ref: action; children: args
    resolve,        // ref: table; children: args
    emit,           // ref: event; children: args
    call,           // ref: procedure; children: args
    end_game,       // value: reason string; ref: 0 now, 1 at end of turn, 2 at end of round
    // expressions added later (kept at the end so earlier codes keep their numbers)
    range,          // children: lo, hi — the integers lo..hi as a set (type: list of the element type)
    dice_count,     // ref: dice term (count = the count's upper limit; low, high: the faces);
                    // value: the count's lower limit; child: the count
    // statements added later
    end_turn,       // no children: the innermost enclosing `turn` block ends at once
    simultaneous,   // child: seq — the players decide in secret until its reveal (docs/language.md §5)
    reveal,         // no children: what was decided in the enclosing simultaneous block is shown
};

enum class builtin : std::uint8_t {
    players, active_player, opponents, count, size, top, min, max, abs, ceil_div, floor_div, odds,
    adjacent, distance, neighbours, edge_kind, hexside, terrain, path_exists, line_blocked,
    path_length,  // added later (kept at the end so earlier codes keep their numbers)
};
inline constexpr builtin last_builtin = builtin::path_length;

// The map searches: path_exists, path_length and line_blocked call the predicate their node's
// value names at each location (or step) they try. Their children are a, b, then the extra
// arguments given to the predicate after the locations (`pred(_, side)`), evaluated once.
inline constexpr bool is_map_search(builtin b) {
    return b == builtin::path_exists || b == builtin::path_length || b == builtin::line_blocked;
}

struct node {
    op code = op::absent;
    id type = no_id;
    std::int64_t value = 0;
    id ref = no_id;
    id first_child = 0;  // children are ruleset::children[first_child, first_child + child_count)
    std::uint32_t child_count = 0;
    source_pos where;
    id layer = no_id;
    bool operator==(const node&) const = default;
};

// ---------------------------------------------------------------- the ruleset

struct selected_option {
    std::string name;
    std::string value;
};

// The manifest's settings of the checker (`unfold limit N`, `unroll depth N`, `evidence games
// N`, `resource limit N`): the defaults of `check --unfold-limit`, `--unroll-depth`,
// `--evidence-games` and `--rlimit` for this ruleset; and `bounds part with tables, choices`
// (1: the stage's questions are asked in the bounds' part of the check). Nothing else reads them.
struct checker_setting {
    std::string name;  // unfold_limit | unroll_depth | evidence_games | resource_limit | tables_with_bounds | choices_with_bounds
    std::int64_t value = 0;
    bool operator==(const checker_setting&) const = default;
};

// The most random games per player count the checker may be told to play (`evidence games N`).
inline constexpr std::int64_t max_evidence_games = 100000;
// The largest resource limit per solver question (`resource limit N`, Z3's unsigned count).
inline constexpr std::int64_t max_resource_limit = 4294967295;

struct ruleset {
    // metadata
    std::string name;  // the manifest's ruleset id
    std::string title;
    std::string source;
    std::string sha256;
    std::int64_t min_players = 0;
    std::int64_t max_players = 0;
    std::vector<std::string> files;   // [0] the manifest, then the outline, then layer files
    std::vector<layer> layers;        // the stack as compiled (up to --upto)
    std::string upto;                 // the --upto layer, empty for the whole stack
    std::vector<expansion> expansions;  // every declared expansion (none: written nowhere in the JSON)
    std::vector<selected_option> selected_options;  // --option values given
    std::vector<checker_setting> checker;  // the manifest's settings of the checker (none: written nowhere in the JSON)
    std::vector<section> sections;

    // tables
    std::vector<type> types;
    std::vector<enum_def> enums;
    std::vector<type_alias> aliases;
    std::vector<record> records;
    std::vector<slot> slots;
    std::vector<entity_kind> entity_kinds;
    std::vector<entity> entities;
    std::vector<zone> zones;
    std::vector<map> maps;
    std::vector<roll> rolls;
    std::vector<derived> quantities;  // quantities and predicates
    std::vector<decision> decisions;
    std::vector<action> actions;
    std::vector<event> events;
    std::vector<procedure> procedures;
    std::vector<sequence> sequences;
    std::vector<block> blocks;
    std::vector<card_event> card_events;     // written only when there are some
    std::vector<id> event_dispatchers;       // procedures; written only when there are some
    std::vector<event_precedence> events_outrank;  // `events outrank rules`: none or one
    std::vector<table> tables;
    std::vector<option> options;
    std::vector<missing> missing_data;
    std::vector<accepted_finding> accepts;
    std::vector<standin> standins;
    std::vector<rule> rules;
    std::vector<rule_group> groups;
    std::vector<errata_op> errata;

    // expression and statement storage
    std::vector<node> nodes;
    std::vector<id> children;
    std::vector<dice_term> dice_terms;
    std::vector<std::string> strings;
};

// Names of enumerators as written in JSON and the text dump.
const char* name_of(layer_kind k);
const char* name_of(section_status s);
const char* name_of(type_kind k);
const char* name_of(overflow o);
const char* name_of(slot_scope s);
const char* name_of(visibility v);
const char* name_of(map_kind k);
const char* name_of(key_source k);
const char* name_of(rounding r);
const char* name_of(key_range_kind k);
const char* name_of(option_kind k);
const char* name_of(element_kind k);
const char* name_of(rule_kind k);
const char* name_of(target_kind k);
const char* name_of(override_reason r);
const char* name_of(event_duration d);
// The expansions applied (`--with`), in the manifest's order: "leaders, court", or "".
std::string expansions_applied(const ruleset& rs);
const char* name_of(errata_kind k);
const char* name_of(errata_op_kind k);
const char* name_of(op o);
const char* name_of(builtin b);

// A readable spelling of type `t` ("0..9 error", "map trait -> bool", "card").
std::string type_name(const ruleset& rs, id t);

// Checks every index against its table, the node graph's shape (children come before their
// parent; each op has its arity; locals exist in the enclosing frame) and table dimensions.
// Returns the first problem, as "rules[3].guard: node 812 does not exist", or "" when sound.
std::string check_integrity(const ruleset& rs);

// `end turn;` and the procedures it reaches. A procedure "ends the turn" when running it can end
// the turn around its call: it has an `end turn` outside any `turn` block of its own, or calls
// (outside one) a procedure that ends the turn. One flag per procedure.
std::vector<bool> procedures_ending_turn(const ruleset& rs);
// The statements under `root` that end the turn around it: each `end turn` and each call of a
// procedure that ends the turn (`ending`, from procedures_ending_turn) that no `turn` block
// under `root` encloses, in the order they are written.
std::vector<id> turn_exits(const ruleset& rs, id root, const std::vector<bool>& ending);

// The children of node `n` (ids into ruleset::nodes).
std::span<const id> children_of(const ruleset& rs, id n);

// The distance between nodes a and b of map m, as the rules count it: hexes crossed on a hex
// grid (columns "CC", rows "RR", odd columns half a hex higher), fewest edges on an area map;
// -1 when no path joins them. Shared by the engine and the checker.
std::int64_t map_distance(const map& m, std::int64_t a, std::int64_t b);

// One step of the straight line between the centres of two hexes (line_blocked): the hex the
// line crosses, or, where it runs along a hexside, the two hexes beside it (`second` then is
// not `no_step`). -1 is a point off the map. Shared by the engine and the checker.
struct line_step {
    static constexpr std::int64_t no_step = -2;
    std::int64_t first = -1;
    std::int64_t second = no_step;
};
// The steps strictly between hexes a and b of hex grid m, in order from a: the line is sampled
// at the points i/N of the way (N the distance, 0 < i < N), each rounded to a hex twice, nudged
// a hair to either side of the line; where the roundings differ the point is on a hexside.
// Exact: cube coordinates scaled by 16N, nudges of (1, 2, -3).
std::vector<line_step> line_steps(const map& m, std::int64_t a, std::int64_t b);
// Odds ratios (key_range_kind::odds, attacker lo : defender hi). A ratio is whole when it is a
// point of the standard scale (… 1-2, 1-1, 2-1 …: one side divides the other); the others
// (`1.5-1`, `1-1.5`) are fractional points, added to the scale of the axis that declares them.
bool odds_whole(const key_range& k);
// Whether axis 0 (rows) or 1 (columns) of t, or the clamp of its key, has a fractional point.
bool odds_fractional(const table& t, std::size_t axis);
// "3-1", "1-2", "1.5-1", "1-1.5", "7-3": a ratio as a rulebook prints it.
std::string odds_point_text(std::int64_t a, std::int64_t b);

// How many instances zone z has: one, one per seat (`per player`) or one per location of its
// map (`per city`). Instance i of a per-player zone is seat i's; of a per-location zone, node i's.
inline std::size_t zone_instance_count(const ruleset& rs, const zone& z, int players) {
    if (z.per_player) return static_cast<std::size_t>(players);
    if (z.map != no_id && z.map < rs.maps.size()) return rs.maps[z.map].nodes.size();
    return 1;
}
// The suffix naming instance i of zone z in messages and views: "[P2]", "[prague]", or "".
inline std::string zone_instance_suffix(const ruleset& rs, const zone& z, std::size_t i) {
    if (z.per_player) return "[P" + std::to_string(i + 1) + "]";
    if (z.map != no_id && z.map < rs.maps.size() && i < rs.maps[z.map].nodes.size())
        return "[" + rs.maps[z.map].nodes[i].name + "]";
    return "";
}

}  // namespace wp::ir
