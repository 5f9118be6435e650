// State shared by resolve, typecheck and lower: the IR being built, the symbol tables and the
// helpers that turn spans and anchors into provenance. Private to wp_compiler.
#pragma once

#include "westphalia/compiler/passes.hpp"

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace wp::compiler::detail {

// The type of an expression that already failed: compatible with everything, never reported on.
inline constexpr ir::id error_type = ir::no_id - 1;

enum class sym : std::uint8_t {
    // the type namespace
    enumeration, alias, record, entity_kind, map, builtin_type,
    // the value namespace
    slot, entity, map_node, zone, roll, derived, decision, action, event, procedure, sequence, table, rule, missing,
    // the option namespace (`option.x`)
    option,
};

const char* sym_word(sym k);  // "roll", "table", … for messages
const char* article(std::string_view word);  // "a" or "an" before `word`

struct symbol {
    sym kind = sym::slot;
    ir::id index = ir::no_id;  // into the IR table of its kind (builtin_type: the type id)
    dsl::span where;           // the declaring name
    const placed_decl* decl = nullptr;
    ir::id extra = ir::no_id;  // map_node: the map
};

// One element whose expressions still have to be checked, with the declaration it comes from.
struct pending {
    const placed_decl* p = nullptr;
};

struct context {
    const loaded_ruleset& loaded;
    const outline_index& outline;
    const patched_ruleset& patched;
    const compile_options& options;
    const dsl::source_manager& sources;
    dsl::diagnostic_sink& sink;

    ir::ruleset rs;

    std::map<std::string, symbol> types;
    std::map<std::string, symbol> values;
    std::map<std::string, symbol> option_names;
    std::multimap<std::string, std::pair<ir::id, ir::id>> members;  // member name -> (enum, index)
    std::map<std::uint32_t, ir::id> file_of_source;

    // The declarations behind each IR table entry (same index).
    std::vector<const placed_decl*> alias_src, record_src, entity_kind_src, zone_src, map_src, roll_src, derived_src,
        decision_src, action_src, event_src, procedure_src, sequence_src, table_src, option_src, missing_src, rule_src;
    std::vector<const dsl::field_decl*> slot_fields;  // the field declaring each slot
    std::vector<const placed_decl*> slot_src;
    // Where each call of a quantity, decision or roll (or a predicate named by a built-in) is
    // written, by IR node: recursive_definitions() points at them.
    std::map<ir::id, dsl::span> call_spans;
    // Where each `end turn`, each call of a procedure and each `do` is written, by IR node:
    // turn_endings() and rolls_in_tested_dos() point at them.
    std::map<ir::id, dsl::span> statement_spans;

    ir::id t_void = 0, t_bool = 0, t_int = 0, t_string = 0, t_player = 0, t_odds = 0;

    context(const loaded_ruleset& l, const outline_index& o, const patched_ruleset& p, const compile_options& opt,
            const dsl::source_manager& s, dsl::diagnostic_sink& k)
        : loaded(l), outline(o), patched(p), options(opt), sources(s), sink(k) {}

    // Types are interned: equal types share one id.
    ir::id intern(const ir::type& t);
    ir::id range_type(std::int64_t lo, std::int64_t hi, ir::overflow policy);
    ir::id list_of(ir::id element);
    ir::id map_of(ir::id key, ir::id value);
    const ir::type& type_at(ir::id t) const { return rs.types[t]; }
    std::string type_text(ir::id t) const;  // for messages; "something" for error_type

    ir::id file_id(std::uint32_t source);
    ir::source_pos pos(const dsl::span& s);
    std::vector<ir::anchor> anchors(const dsl::anchor_list& as);
    ir::provenance prov(const dsl::span& s, const dsl::anchor_list& as, ir::id layer);
    ir::id string_id(const std::string& s);

    // Diagnostics.
    void unknown(const dsl::name& n, const std::string& what, const std::vector<std::string>& candidates,
                 std::vector<dsl::diag_note> extra = {});
    void wrong_kind(const dsl::name& n, const symbol& found, const std::string& wanted);

    // Declares `n` in `table`; duplicate-name (with a note at the first) when taken.
    bool declare(std::map<std::string, symbol>& table, const dsl::name& n, symbol s);

    std::vector<std::string> type_names() const;
    std::vector<std::string> value_names() const;

private:
    std::map<std::tuple<int, std::int64_t, std::int64_t, int, ir::id, ir::id, ir::id>, ir::id> type_ids_;
    std::map<std::string, ir::id> string_ids_;
};

// ---- resolve.cpp
// Declares every declaration in force, resolves types and builds the IR's declaration tables
// (names, parameters, result types, constant data). Bodies stay for typecheck.
void resolve(context& cx);
ir::id resolve_type(context& cx, const dsl::type_expr& t, bool state_field = false, bool* flag = nullptr,
                    bool* counter = nullptr);
ir::id resolve_alias(context& cx, ir::id index);

// ---- typecheck.cpp
// An integer literal, negated or not; and the error for one outside a range.
std::optional<std::int64_t> literal_int(const dsl::expr& e);
void out_of_bounds(context& cx, const dsl::span& where, std::int64_t v, const ir::type& t, const std::string& what);
// A constant of type `want` (literals, negated integers, enum members, entities, map nodes,
// booleans), or nothing after reporting. Checks declared ranges (out-of-bounds).
std::optional<std::int64_t> constant(context& cx, const dsl::expr& e, ir::id want, const std::string& what);

// Checks the expressions and statements of one element and emits its typed nodes.
class body_checker;
struct frame_info {
    std::vector<ir::local>* locals = nullptr;
    std::size_t params = 0;  // the first locals, in scope from the start
    ir::id layer = ir::no_id;
    bool example = false;  // `given` may fix rolls
    bool secret = false;   // a sequence or procedure: `simultaneous` may stand in it
};

struct typed {
    ir::id node = ir::no_id;
    ir::id type = error_type;
    bool ok() const { return type != error_type; }
};

class body_checker {
public:
    body_checker(context& cx, frame_info frame);
    // A new local visible until the matching pop_scope.
    ir::id bind(const std::string& name, ir::id type);
    void push_scope();
    void pop_scope();

    typed expr(const dsl::expr& e, ir::id expected = ir::no_id);
    // An expression that must have type `want` (type-mismatch otherwise).
    typed expect(const dsl::expr& e, ir::id want, const char* role);
    // A statement sequence; with keep_scope its `let` names stay visible afterwards (examples).
    ir::id stmts(const std::vector<dsl::stmt>& body, const dsl::span& where, bool keep_scope = false);
    ir::id and_all(const std::vector<ir::id>& conditions, const dsl::span& where);
    ir::id absent(const dsl::span& where);

    // The current block (for nested block paths) and the enclosing sequence's name.
    std::string path_prefix;
    // Inside a `simultaneous` block; the `reveal;` statements standing directly in it.
    bool in_simultaneous_ = false;
    std::vector<const dsl::stmt*> reveals_;

private:
    friend struct stmt_helper;
    context& cx_;
    frame_info frame_;
    std::vector<std::pair<std::string, ir::id>> scope_;
    std::vector<std::size_t> marks_;
    ir::id current_block_ = ir::no_id;

    ir::id emit(ir::op code, ir::id type, std::int64_t value, ir::id ref, const std::vector<ir::id>& kids,
                const dsl::span& where);
    std::optional<ir::id> lookup_local(const std::string& name) const;
    typed name_expr(const dsl::expr& e, ir::id expected);
    typed member_expr(const dsl::expr& e);
    typed index_expr(const dsl::expr& e);
    typed call_expr(const dsl::expr& e, ir::id expected);
    typed builtin_call(const dsl::expr& e, ir::builtin b);
    typed args_for(const dsl::expr& e, const std::string& callee, const std::vector<ir::local>& params,
                   std::uint32_t count, std::vector<ir::id>& kids, const dsl::span& where,
                   const std::vector<dsl::expr>& args);
    typed binary_expr(const dsl::expr& e);
    typed aggregate_expr(const dsl::expr& e);
    // counts.cpp: `lo..hi` as a set (`choice`: of `choose`, for its message) and `(e)dM`.
    typed range_expr(const dsl::expr& e, bool choice);
    typed dice_count_expr(const dsl::expr& e);
    ir::id element_type(ir::id collection) const;  // of a list or zone, error_type otherwise
    ir::id stmt(const dsl::stmt& s);
    ir::id lvalue_assign(const dsl::stmt& s);
    ir::id turn_number(const dsl::stmt& s);  // a block's `numbered e`, or no_id after reporting
    // card_event_checks.cpp: `play event of`, `cancel event of`, `in_force`
    ir::id card_kind_of(const typed& c, const dsl::expr& e, const char* what);
    std::vector<std::pair<ir::id, ir::id>> in_force_flags(const typed& c, const dsl::expr& e, const char* what);
    typed in_force_expr(const dsl::expr& e);
    ir::id play_event_stmt(const dsl::stmt& s);
    ir::id cancel_event_stmt(const dsl::stmt& s);
    bool member_only(const dsl::expr& e) const;
};

// Type relations.
bool is_int(const context& cx, ir::id t);
bool compatible(const context& cx, ir::id from, ir::id to);

// ---- lower.cpp
void lower_bodies(context& cx);
void recursive_definitions(context& cx);  // after lower_bodies: no cycle of value definitions
void turn_endings(context& cx);           // after lower_bodies: every `end turn` has a `turn` around it
void rolls_in_tested_dos(context& cx);    // after lower_bodies: no dice in a `do` the engines test first

}  // namespace wp::compiler::detail
