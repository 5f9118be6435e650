// The translation's writer (translate.hpp): one C++ function per IR element, C++ text per
// expression and statement. Its members are defined by concept: expressions.cpp (chance, sets,
// storage, expressions), maps.cpp (map data, paths, line of sight, odds), elements.cpp (rule
// groups and the elements' functions), statements.cpp, and translate.cpp (the file: layout,
// data, start-up and play).
#pragma once

#include "westphalia/codegen/translate.hpp"
#include "westphalia/engine/engine.hpp"

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace wp::codegen {

using ir::id;
using ir::op;
using ir::type_kind;

// A C++ string literal of s.
std::string quoted(const std::string& s);
// A C++ i64 literal of v.
std::string num(std::int64_t v);
// The decimal text of each value (the most negative one spelt so that C++ reads it).
std::vector<std::string> numbers(const std::vector<std::int64_t>& values);
// Writes `static const <type> <name>[] = {...};` from the elements' texts; `none` stands for an
// empty list (C++ has no empty arrays).
void write_array(std::ostream& out, const std::string& type, const std::string& name, const std::vector<std::string>& items,
                 const std::string& none = "0");

class writer {
public:
    writer(const ir::ruleset& rs, const engine::game& g, const translate_options& o) : rs_(rs), g_(g), o_(o) {
        for (const ir::table& t : rs.tables) natural_rows_ = natural_rows_ || !t.natural_map.dense.empty();
        ending_ = ir::procedures_ending_turn(rs);
    }

    std::string run();

private:
    const ir::ruleset& rs_;
    const engine::game& g_;
    const translate_options& o_;
    std::ostringstream consts_;  // arrays the functions use (dice weights, key maps)
    std::ostringstream protos_;
    std::ostringstream fns_;
    int tmp_ = 0;
    std::vector<std::int8_t> chance_node_;   // per node: -1 unknown, 0/1
    std::vector<std::int8_t> chance_quantity_;
    std::vector<std::string> round_flags_;   // enclosing loops over the players (for `turn`)
    bool in_sequence_ = false;               // translating the main sequence
    std::vector<bool> ending_;               // per procedure: it can end the turn (ir::procedures_ending_turn)
    std::vector<std::string> turn_ends_;     // enclosing turns of the sequence: the label an `end turn` jumps to
    std::vector<std::uint8_t> map_emitted_;  // per map: its data arrays are written
    std::vector<std::size_t> table_arity_;   // per table: the arguments res<t> and look<t> take
    bool natural_rows_ = false;              // some table has natural rows: rolls keep s.natural

    // A name of the generated code's own: the `_` keeps it from ever spelling a name the
    // prelude declares (loop counter 64 of stem "i" was the type `i64`).
    std::string fresh(const char* stem) { return stem + ("_" + std::to_string(tmp_++)); }

    const ir::node& N(id n) const { return rs_.nodes[n]; }
    id child(id n, std::uint32_t i) const { return rs_.children[rs_.nodes[n].first_child + i]; }
    type_kind kind_of(id n) const {
        const id t = rs_.nodes[n].type;
        return t == ir::no_id ? type_kind::void_ : rs_.types[t].kind;
    }
    std::string where(id n) const { return quoted(g_.position(n)); }
    // The statement n belongs to, for messages (game::statement_owner), then `where` and it: the
    // first arguments of the checked arithmetic of the prelude.
    std::string owner(id n) const { return quoted(g_.statement_owner(n)); }
    std::string at(id n) const { return where(n) + ", " + owner(n); }

    [[noreturn]] void refuse(id n, const std::string& what) const {
        throw unsupported("the compiled engine does not translate " + what + " yet",
                          n < rs_.nodes.size() ? rs_.nodes[n].where : ir::source_pos{});
    }

    // ------------------------------------------------ expressions (expressions.cpp)

    bool chancy_quantity(id q);

    bool chancy_group(id gi);

    // Whether evaluating n may draw from the generator (its order then matters).
    bool chancy(id n);

    // Operands of n in order; when two or more may draw, they are computed into temporaries
    // first (C++ leaves the order of operands open), and `make` builds the result from names.
    std::string with_operands(id n, std::uint32_t from, const std::function<std::string(const std::vector<std::string>&)>& make);

    // A table's arguments, padded to what its functions take (a use giving fewer leaves the
    // keys to their expressions, as the interpreter does).
    std::vector<std::string> padded(id table, std::vector<std::string> args) const;

    // A call that names its call site (for the engine's error messages).
    static std::string call_at(const std::string& fn, const std::string& at, const std::vector<std::string>& args);

    // C++ text of value v (an expression) of IR type `type`, as the engine writes it (game::value_text).
    std::string text_code(id type, const std::string& v);

    // "(P1, Pikemen)": the arguments of a call, as the engine's messages show them.
    std::string args_text_code(const std::vector<ir::local>& params, const std::vector<std::string>& args);

    static std::string call_text(const std::string& fn, const std::vector<std::string>& args);

    // How many distinct values of type t there can be in a set (a list's elements).
    std::string type_capacity(id n, id t) const;

    // The number of elements set expression n can hold at most.
    std::string set_capacity(id n) const;
    bool stored_list(id n) const;  // a state field of type `list of T`
    void store_list(id stmt, id target, id value, std::string& o, int in);

    // A loop over the elements of set expression n, each assigned to `var` before `body` runs.
    std::string for_set(id n, const std::string& var, const std::string& body);

    bool players_set(id n) const;

    // A zone instance named by zone-typed expression n.
    std::string Z(id n);

    std::string key_limit(id map_type) const;

    // The address in s.v of an assignable expression (or of a map's first element).
    std::string A(id n);

    id slot_of(id n) const;

    std::string E(id n);
    std::string connective(id n, op code);  // a flat chain of `and` or of `or`

    std::string weights(const std::vector<std::uint64_t>& w);

    std::string aggregate(id n);

    std::string builtin(id n);


    // ------------------------------------------------ maps (maps.cpp)

    // The map whose nodes expression n holds.
    id map_of_node(id n) const;

    // The arrays of map m (written once): "m<m>_" is their prefix. Terrain, attributes, names,
    // neighbours and the edges touching each node (CSR), the edges' ends, direction and kinds,
    // columns and rows, and on an area map the distances.
    std::string map_data(id m);

    // path_exists(a, b, pred) and path_length (interp::path_search): breadth first from a, each
    // step's target (or each step) allowed by pred; path_length counts the steps.
    std::string path_search(id n);

    // line_blocked(a, b, pred) on a hex grid (interp::line_blocked, the same arithmetic).
    std::string line_blocked(id n);

    // The odds scale (interp::odds_step): a >= b is floor(a/b)-1 (ceil when rounded for the
    // attacker), a < b is 1-ceil(b/a) (floor for the attacker); 0 : b below every column.
    static std::int64_t odds_step(std::int64_t a, std::int64_t b, ir::rounding r);

    // The row or column index an odds key k reads, or an engine error (interp::odds_index).
    std::string odds_index(const ir::table& tb, const ir::table_key& key, const std::vector<ir::key_range>& ranges,
                           const std::string& k, const char* what);
    std::string odds_index_fractional(const ir::table& tb, const ir::table_key& key, const std::vector<ir::key_range>& ranges,
                                      const std::string& k, const char* what);


    // ------------------------------------------------ elements (elements.cpp)

    // Code that sets, for each live rule of group gi, whether it applies to the arguments and no
    // applicable overriding rule defeats it (`names` gets the flags, in group order).
    std::string applicable(id gi, const std::vector<std::string>& args, std::vector<std::pair<id, std::string>>& names);

    // Parameters "i64 a0, i64 a1" and their names.
    static std::string params(std::size_t count, std::vector<std::string>* names = nullptr);

    // The locals of an element: parameters bound to the arguments, the rest -1.
    static std::string locals(std::size_t count, std::size_t bound);

    void function(const std::string& signature, const std::string& body);

    std::size_t group_arity(id gi) const;

    void rule_functions(id r, std::size_t arity);

    // mods<g>: the sum of the applicable modifiers of group gi, their guards first.
    void modifier_function(id gi);
    // bnd<g>: a value after the group's modifiers that set, cap or floor it (only groups with some).
    bool has_bounds(id gi) const;
    void bound_function(id gi, const std::string& what);
    std::string bound_call(id gi, const std::string& at_text, const std::string& v, const std::vector<std::string>& args) const;

    std::string mods_call(id gi, const std::vector<std::string>& args) const;

    void quantity_function(id q);

    void roll_function(id r);

    void decision_function(id d);

    void action_functions(id a);

    void event_function(id e);

    void procedure_function(id p);

    // A key map (ir::key_map) as code: the row or column index of key k, -1 when none.
    std::string key_index(id table_node, const ir::key_map& km, const std::string& k);

    // res<t> (the effects of the cell the keys give) and look<t> (its outcome).
    void table_functions(id t);


    // ------------------------------------------------ statements (statements.cpp)

    static std::string pad(int indent);

    // Whether the first statement of `body` can be done (engine: body_possible).
    std::string possible(id body);

    // Whether the first statement of `body` is a `do` a `require` rule demands (body_required).
    std::string required(id body);

    void store(id stmt, id target, const std::string& value, std::string& o, int in);

    // Lines that set `pick` to one of `count` options: drawn when `player` is none (an ownerless
    // choice), else the agent's, after the decision limit (which ends the game).
    static std::string pick(const std::string& pad, const std::string& player, const std::string& count);

    // The zone instances a statement acts on: one, or each seat's for a per-player zone.
    std::string each_target(id n, const std::string& var, const std::string& body);

    void statement(id n, std::string& o, int in);

    void for_each(id n, std::string& o, int in);

    // `choose subset` (a yes or no per element, in order) and `choose order` (the next element
    // among those left, the last one without a decision), as the interpreter's frames step them.
    void choose_list(id n, std::string& o, int in);
    void subset_where(id n, std::string& o, int in, const std::string& player);

    void choose(id n, std::string& o, int in);

};

}  // namespace wp::codegen
