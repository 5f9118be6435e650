// Public syntax tree of the rule language: what the parser produces and the compiler reads.
// Every node keeps its span (file id + byte offsets); no Boost type appears here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace wp::dsl {

// A byte range in one source file (file ids come from source_manager).
struct span {
    std::uint32_t file = 0;
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
};

struct name {
    std::string text;
    span where;
};

// §9.14, §L52, §L52-54: `first` is "L52", `last` is "L54" or empty for a single section.
struct anchor {
    std::string first;
    std::string last;
    span where;
};
using anchor_list = std::vector<anchor>;

// NdM is {N, 1, M}; Nd[lo..hi] is {N, lo, hi}.
struct dice_spec {
    std::int64_t count = 1;
    std::int64_t low = 1;
    std::int64_t high = 6;
};

// ---------------------------------------------------------------- expressions

enum class expr_kind : std::uint8_t {
    none,        // an absent optional operand (statement operand slots)
    integer,     // value
    boolean,     // value (0 or 1)
    string,      // text
    dice,        // dice
    name,        // text
    option_ref,  // option.text
    member,      // args[0] . text
    index,       // args[0] [ args[1] ]
    call,        // text ( args... )       built-in or declared function/decision/table/quantity
    roll,        // roll text ( args... )  rolling a declared roll with its modifiers
    unary,       // text in {"-", "not"}; args[0]
    binary,      // text in {"+","-","*","/","%","==","!=","<","<=",">",">=","in","and","or"}; args[0], args[1]
    conditional, // if args[0] then args[1] else args[2]
    aggregate,   // text in {"any","all","count","sum","min","max"} ( binder in args[0] : args[1] )
    range,       // args[0] .. args[1]: the integers between, as a set (only where a set is read)
    dice_count,  // (args[0])dM: args[0] dice with faces dice.low..dice.high (dice.count unused); text "dM"
};

struct expr {
    expr_kind kind = expr_kind::none;
    span where;
    std::string text;
    std::int64_t value = 0;
    dice_spec dice;
    name binder;  // aggregate variable
    std::vector<expr> args;
    std::uint32_t height = 1;  // levels of the tree from here down (set by the parser, which bounds it)
};

// ---------------------------------------------------------------- types

enum class overflow_policy : std::uint8_t { unspecified, clamp, error };

enum class type_kind : std::uint8_t {
    named,    // bool, int, player, an enum, record, entity kind, map node kind or type alias: `id`
    range,    // lo..hi with policy
    map_of,   // args[0] -> args[1]
    list_of,  // list of args[0]
    flag,     // once-per-game flag
    counter,  // turn/phase counter
};

struct type_expr {
    type_kind kind = type_kind::named;
    span where;
    name id;
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    overflow_policy policy = overflow_policy::unspecified;
    std::vector<type_expr> args;
};

struct param {
    name id;
    type_expr type;
};

// ---------------------------------------------------------------- statements

enum class stmt_kind : std::uint8_t {
    block,          // word in {"setup","turn","phase","step"}; id (may be empty for setup/turn); anchors; body
    let,            // let id = exprs[0]
    assign,         // exprs[0] word exprs[1]; word in {"=","+=","-="}
    if_else,        // if exprs[0] body else else_body (an `else if` is one if_else in else_body)
    for_each,       // for each id in exprs[0] [from exprs[1]] body
    repeat_until,   // repeat body until exprs[0]
    while_loop,     // while exprs[0] body
    shuffle,        // shuffle exprs[0]
    draw,           // draw exprs[0] from exprs[1] to exprs[2]
    deal,           // deal exprs[0] from exprs[1] to exprs[2]
    move,           // move exprs[0] from exprs[1] to exprs[2]
    reshuffle,      // reshuffle exprs[0] into exprs[1]
    choose,         // word in {"one","subset","order"}; id; exprs = {set, by|none, where|none[, objective]}; body;
                    // goal: "maximizing"/"minimizing" when an objective follows `where`
    may,            // may [by exprs[0]|none] word(label) body
    do_action,      // do id(exprs...)
    resolve,        // resolve id(exprs...)
    emit,           // emit id(exprs...)
    call,           // id(exprs...) — a declared procedure
    end_game,       // end game id [at end of word]; word in {"", "turn", "round"}
    end_turn,       // end turn — the innermost enclosing `turn` block ends at once
    play_event,     // play event of exprs[0] by exprs[1]
    cancel_event,   // cancel event of exprs[0]
    simultaneous,   // simultaneous anchors body — the players decide in secret until its `reveal`
    reveal,         // reveal — what was decided in the enclosing simultaneous block is shown
    move_all,       // move all from exprs[0] to exprs[1] — a stack moving as one
};

struct stmt {
    stmt_kind kind = stmt_kind::block;
    span where;
    std::string word;
    std::string goal;  // choose: "maximizing" or "minimizing" (exprs[3] is the objective), else empty
    name id;
    anchor_list anchors;
    std::string aid;  // block: the designer's text for the player aid (`phase x aid "…" { … }`)
    std::vector<expr> exprs;
    std::vector<stmt> body;
    std::vector<stmt> else_body;
};

// ---------------------------------------------------------------- declarations

struct decl;

struct ruleset_layer {
    name id;
    name kind;  // base | exclusive | errata | options | expansion
    std::vector<name> after;  // an expansion's declared order: `after court, cards`
    std::vector<name> files;  // text is the path as written
    span where;
};

// A manifest's setting of the checker: `unfold limit N` (name "unfold_limit"), `unroll depth N`
// ("unroll_depth"), `evidence games N` ("evidence_games") or `resource limit N`
// ("resource_limit"); the command line's --unfold-limit / --unroll-depth / --evidence-games /
// --rlimit override it. `bounds part with tables, choices` gives "tables_with_bounds" and
// "choices_with_bounds", value 1 (docs/language.md §11).
struct checker_setting {
    std::string name;
    std::int64_t value = 0;
    span where;
};

struct ruleset_decl {  // the manifest
    name id;
    std::string title;
    std::string source;
    std::string sha256;
    std::int64_t min_players = 0;
    std::int64_t max_players = 0;
    std::string outline;
    std::vector<ruleset_layer> layers;
    std::vector<checker_setting> checker;
    span where;
};

struct outline_entry {
    anchor section;
    std::string title;
    name status;  // encoded | flavour | missing-data
    span where;
};

struct outline_decl {
    std::vector<outline_entry> entries;
    span where;
};

struct enum_member {
    name id;
    std::optional<std::string> label;
};

struct enum_decl {
    name id;
    anchor_list anchors;
    std::vector<enum_member> members;
    std::optional<std::string> aid;
    span where;
};

struct type_decl {
    name id;
    anchor_list anchors;
    type_expr type;
    span where;
};

struct field_decl {
    bool hidden = false;  // `hidden name: T`: seen only by its own player (state per player)
    std::optional<name> hidden_by;  // `hidden by camp`: each entry seen by the players whose camp is its key
    std::optional<name> hidden_if;  // `hidden if option.fog`: hidden only when that bool option is on
    std::optional<name> hidden_unless;  // `hidden ... unless revealed`: shown to all while that bool field is true
    name id;
    type_expr type;
    std::optional<expr> init;
    anchor_list anchors;
    span where;
};

struct record_decl {
    name id;
    anchor_list anchors;
    std::vector<field_decl> fields;
    span where;
};

// state { } is global; state per player { }; state per <entity kind> { }.
struct state_decl {
    std::optional<name> per;
    anchor_list anchors;
    std::vector<field_decl> fields;
    span where;
};

// `standin "why"` or `missing "why"` on one card or piece, or on one of its values
// (docs/language.md §14). The grammar keeps marks wherever they may be written by mistake so that
// the compiler can say where they belong.
struct data_mark {
    bool missing = false;  // `missing` rather than `standin`
    std::string why;
    span where;
};

struct field_value {
    name field;
    expr value;
    std::vector<data_mark> marks;
};

struct entity_entry {
    name id;
    std::string display;
    std::vector<data_mark> marks;       // after the display name, where they belong
    std::vector<field_value> values;
    std::int64_t count = 1;
    anchor_list anchors;
    std::vector<data_mark> late_marks;  // after the values or the count: misplaced
    span where;
};

struct entities_decl {
    bool pieces = false;  // `pieces` rather than `cards`
    name id;              // the entity kind it declares
    name record;          // its attribute record
    anchor_list anchors;
    std::optional<std::string> standin;
    std::vector<entity_entry> entries;
    span where;
};

enum class visibility : std::uint8_t { public_, hidden, owner };

struct zone_decl {
    name id;
    bool per_player = false;
    std::optional<name> per;  // `per <map or location type>`: one zone per location
    bool ordered = false;
    visibility vis = visibility::public_;
    name of;
    anchor_list anchors;
    span where;
};

struct map_node {
    name id;  // an area name, or a hex number kept as written ("0101")
    std::string display;
    std::optional<name> terrain;
    std::vector<field_value> values;
    span where;
};

struct map_edge {
    name a;
    name b;
    bool directed = false;  // `->` rather than `--`; hexsides are never directed
    std::vector<name> kinds;
    span where;
};

struct map_decl {
    name id;
    name kind;  // areas | hexgrid
    anchor_list anchors;
    std::optional<std::string> standin;
    std::vector<map_node> nodes;
    std::vector<map_edge> edges;  // `edge` in areas, `hexside` in hexgrid
    span where;
};

struct roll_decl {
    name id;
    std::vector<param> params;
    anchor_list anchors;
    expr dice;
    std::optional<std::string> aid;
    span where;
};

struct derived_decl {
    bool predicate = false;  // `predicate` (bool) rather than `quantity`
    name id;
    std::vector<param> params;
    std::optional<type_expr> result;  // absent for predicates
    anchor_list anchors;
    expr value;
    std::optional<std::string> aid;
    span where;
};

struct decision_decl {
    name id;
    std::vector<param> params;
    type_expr result;
    bool total = false;
    anchor_list anchors;
    span where;
};

struct action_decl {
    name id;
    std::vector<param> params;
    anchor_list anchors;
    std::optional<expr> guard;
    std::vector<stmt> body;
    std::optional<std::string> aid;
    span where;
};

// `event e(params);` (an event for `trigger` rules), `event of CARD … { … }` (a card's event,
// of_card: id is the card) or `events outrank rules … except …;` (outrank: names the exceptions).
struct event_decl {
    name id;
    std::vector<param> params;
    anchor_list anchors;
    span where;
    bool of_card = false;
    bool outrank = false;
    std::optional<std::string> title;
    std::optional<name> player;   // `by p`
    std::string lasts;            // "", "phase" or "turn"
    bool until_cancelled = false; // `lasts until cancelled`
    std::vector<name> names;      // of_card: `lifts`; outrank: `except`
    std::vector<stmt> body;
    std::optional<std::string> aid;
};

struct procedure_decl {
    name id;
    std::vector<param> params;
    anchor_list anchors;
    std::vector<stmt> body;
    std::optional<std::string> aid;  // what the aid says where the procedure is used
    span where;
};

struct sequence_decl {
    name id;
    anchor_list anchors;
    std::vector<stmt> body;
    span where;
};

struct option_decl {
    name id;
    anchor_list anchors;
    bool is_bool = false;
    std::vector<expr> values;  // names or integers; empty when is_bool
    expr default_value;
    std::optional<std::string> aid;
    span where;
};

struct missing_decl {
    name id;
    anchor_list anchors;
    std::string what;
    span where;
};

// A checker finding the designers accept, with their reason: `accept bound-violation "gold"
// §L7-8 "…";`. The checker still reports it, marked accepted, and it fails no CI run.
struct accept_decl {
    name kind;            // a finding kind: bound-violation, dead-rule, …
    std::string subject;  // the finding's subject, or the name of an element it involves
    name side;            // `above` | `below` (bound-violation only), empty: either side
    std::optional<name> upto;  // `upto L`: only while the checked stack ends at layer L (or below it)
    std::optional<name> if_option;  // `if option.O`: only in games where that bool option is on
    anchor_list anchors;
    std::string reason;
    span where;
};

// -- tables

enum class table_key_kind : std::uint8_t { roll, dice, key };

struct table_key {
    table_key_kind kind = table_key_kind::roll;
    expr source;        // roll: expr_kind::roll; dice: a dice expression; key: the key expression
    name var;           // key: the bound name (`key t: terrain`)
    std::optional<type_expr> type;
    std::optional<name> rounding;  // odds keys: attacker | defender
    std::optional<std::string> clamp_lo;  // `clamp 1-5..6-1`, `clamp ..2`
    std::optional<std::string> clamp_hi;
    std::optional<expr> shift;  // `shift e`: the column read moves e columns to the right
    bool shift_clamp = false;   // `shift e clamp`: off the table reads the end column
    span where;
};

enum class key_kind : std::uint8_t {
    exact,     // 3
    range,     // 1-2
    at_least,  // 9+
    at_most,   // ..5
    odds,      // 3-1 in an odds column list
    value,     // an enum member or plain name
};

struct key_range {
    key_kind kind = key_kind::exact;
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    bool decimal = false;  // `1.5-1`: written with a decimal point; lo:hi is the ratio in lowest terms
    name value;  // key_kind::value
    std::string text;  // as written
    span where;
};

struct table_cell {
    std::optional<expr> outcome;  // name, string or integer
    std::vector<stmt> effects;
    span where;
};

struct table_row {
    bool natural = false;  // `natural 1 : …`: keyed on the roll before its modifiers
    key_range key;
    std::optional<std::string> label;
    std::vector<table_cell> cells;
    anchor_list anchors;
    span where;
};

struct table_decl {
    name id;
    std::vector<param> params;
    anchor_list anchors;
    std::optional<name> printing_of;   // `printing of t`: another printing of table t (compared, not played)
    std::vector<table_key> keys;       // one (rows) or two (rows, columns)
    std::vector<key_range> columns;    // `columns …`; empty for one-key tables
    std::vector<table_row> rows;
    std::optional<std::string> standin;
    std::optional<std::string> aid;
    span where;
};

// -- rules

// The last three are a designer's queries about play (docs/language.md §9): claims the checker
// answers and the simulator counts, never rules of play. Same order as ir::rule_kind.
enum class rule_kind : std::uint8_t {
    modifier, define, forbid, permit, require, trigger, invariant, example, assert_always, assert_never, reachable,
    chances  // odds computed from the rules (docs/language.md §7)
};
// What a modifier does to its target: add its amount, set the value to it, cap or floor the value.
enum class modifier_kind : std::uint8_t { add, set, at_most, at_least };

struct rule_decl {
    rule_kind kind = rule_kind::modifier;
    name id;
    anchor_list anchors;
    std::vector<name> overrides;
    std::optional<name> during;     // `during c`: a rule of card c's event
    name target;                    // modifier: roll/quantity; define: decision; forbid/permit/require: action; trigger: event
    std::vector<name> target_args;  // define/forbid/permit/require/trigger: binders for the target's parameters
    expr amount;                    // modifier: the signed term (add), or the value set / bound
    modifier_kind mod = modifier_kind::add;
    expr value;                     // define: the value; invariant: the property; example: expect
    std::optional<expr> guard;      // `when`
    std::vector<stmt> body;         // trigger: effects; example, chances: given
    std::vector<param> params;      // chances: the rows, then the columns
    std::optional<std::string> aid;
    span where;
};

// -- errata

enum class errata_kind : std::uint8_t { correction, clarification, addition };
// replace_block and insert_block act on a named block (setup, turn, phase, step) of a sequence
// or procedure, found by its dotted path (`game.contractor_turn.upkeep.back_pay`).
enum class errata_op_kind : std::uint8_t { replace, refine, except, withdraw, amend, add, replace_block, insert_block };

struct errata_op {
    errata_op_kind kind = errata_op_kind::add;
    name target;                    // the rule or table it changes (empty for add); a block's path
    anchor_list anchors;
    std::optional<expr> guard;      // refine
    std::vector<decl> replacement;  // replace/except/add: exactly one declaration
    std::optional<table_row> row;   // amend
    std::string block_word;         // replace_block/insert_block: the target's word (setup|turn|phase|step)
    std::string decl_word;          // replace/withdraw: the word before the name (rule, table, map, pieces, …)
    std::string position;           // insert_block: "before" or "after" the target
    std::vector<stmt> block;        // replace_block/insert_block: exactly one block statement
    span where;
};

struct errata_decl {
    errata_kind kind = errata_kind::correction;
    std::string title;
    anchor_list anchors;
    std::vector<errata_op> ops;
    span where;
};

struct decl {
    std::variant<ruleset_decl, outline_decl, enum_decl, type_decl, record_decl, state_decl, entities_decl,
                 zone_decl, map_decl, roll_decl, derived_decl, decision_decl, action_decl, event_decl,
                 procedure_decl, sequence_decl, option_decl, missing_decl, accept_decl, table_decl, rule_decl, errata_decl>
        node;
};

struct file {
    std::uint32_t id = 0;
    std::vector<decl> decls;
};

}  // namespace wp::dsl
