// check_integrity(): every index of an IR against its table, the node graph's shape and
// each op's arity. Run on every IR read from JSON, so consumers can index without checks.
#include "westphalia/ir/printings.hpp"
#include "westphalia/ir/ir.hpp"

#include "ir_cycles.hpp"
#include "ir_tested_dos.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>

namespace wp::ir {

namespace {

struct problem {
    std::string message;
};

// The deepest node tree accepted: the consumers (engine, translator, checker) walk trees
// recursively. A compiled ruleset stays far below it (expressions are at most
// dsl::max_expression_depth deep, blocks dsl::max_nesting).
constexpr std::uint32_t max_node_depth = 4096;
// Likewise for types (`list of`, `->`), which the source nests at most dsl::max_nesting deep.
constexpr std::uint32_t max_type_depth = 1024;

struct checker {
    const ruleset& rs;

    [[noreturn]] void fail(const std::string& path, const std::string& what) const { throw problem{path + ": " + what}; }

    template <class Table>
    void index(const std::string& path, id i, const Table& table, const char* what, bool optional = false) const {
        if (i == no_id) {
            if (!optional) fail(path, std::string("no ") + what + " given");
            return;
        }
        if (i >= table.size())
            fail(path, std::string(what) + " " + std::to_string(i) + " does not exist (there are " +
                           std::to_string(table.size()) + ")");
    }

    void type_id(const std::string& path, id t, bool optional = false) const { index(path, t, rs.types, "type", optional); }

    // A constant of type `t` in the encoding of ir.hpp (members, entities, nodes and strings exist).
    void constant(const std::string& path, id t, std::int64_t v) const {
        if (t >= rs.types.size()) return;  // the type itself is reported elsewhere
        const type& x = rs.types[t];
        auto fits = [&](std::int64_t lo, std::int64_t hi) {
            if (v < lo || v > hi)
                fail(path, "the value " + std::to_string(v) + " is not a " + type_name(rs, t) + " (" + std::to_string(lo) +
                               ".." + std::to_string(hi) + ")");
        };
        auto size = [](std::size_t n) { return static_cast<std::int64_t>(n) - 1; };
        switch (x.kind) {
            case type_kind::boolean: fits(0, 1); break;
            case type_kind::range: fits(x.lo, x.hi); break;
            case type_kind::string: fits(0, size(rs.strings.size())); break;
            case type_kind::enumeration:
                if (x.ref < rs.enums.size()) fits(0, size(rs.enums[x.ref].members.size()));
                break;
            case type_kind::entity: fits(-1, size(rs.entities.size())); break;
            case type_kind::node:
                if (x.ref < rs.maps.size()) fits(-1, size(rs.maps[x.ref].nodes.size()));
                break;
            case type_kind::player: fits(-1, std::numeric_limits<std::int64_t>::max()); break;
            case type_kind::map_of: constant(path, x.value, v); break;
            default: break;
        }
    }

    void prov(const std::string& path, const provenance& p) const {
        index(path + ".where.file", p.where.file, rs.files, "file", true);
        index(path + ".layer", p.layer, rs.layers, "layer", true);
        for (std::size_t i = 0; i < p.anchors.size(); ++i)
            index(path + ".anchors[" + std::to_string(i) + "].section", p.anchors[i].section, rs.sections, "section",
                  true);
    }

    void locals(const std::string& path, const std::vector<local>& ls, std::uint32_t params) const {
        for (std::size_t i = 0; i < ls.size(); ++i) type_id(path + ".locals[" + std::to_string(i) + "].type", ls[i].type);
        if (params > ls.size()) fail(path + ".param_count", "more parameters than locals");
    }

    // Arity of each op: exact count, or -1 when it varies.
    static int arity(op o) {
        switch (o) {
            case op::absent: case op::const_int: case op::const_bool: case op::const_string: case op::const_member:
            case op::const_entity: case op::const_node: case op::dice: case op::local: case op::global:
            case op::zone: case op::option: case op::type_members: case op::end_turn:
            case op::reveal:
                return 0;
            case op::player_field: case op::entity_field: case op::attribute: case op::record_field:
            case op::node_attribute: case op::neg: case op::not_: case op::block: case op::let: case op::shuffle:
                return 1;
            case op::dice_count: case op::simultaneous:
                return 1;
            case op::range:
                return 2;
            case op::index: case op::add: case op::sub: case op::mul: case op::div: case op::mod: case op::eq:
            case op::ne: case op::lt: case op::le: case op::gt: case op::ge: case op::in: case op::and_:
            case op::or_: case op::any: case op::all: case op::count: case op::sum: case op::min: case op::max:
            case op::assign: case op::add_assign: case op::sub_assign: case op::fix_roll: case op::repeat_until:
            case op::while_: case op::reshuffle: case op::may:
                return 2;
            case op::cond: case op::if_: case op::for_each: case op::draw: case op::deal: case op::move:
                return 3;
            case op::choose_one: case op::choose_order:
                return 4;
            case op::choose_subset:  // a fifth child, the objective, with value 1 or 2
                return -1;
            case op::roll: case op::quantity: case op::decide: case op::lookup: case op::builtin: case op::seq:
            case op::do_action: case op::resolve: case op::emit: case op::call: case op::end_game:
                return -1;
        }
        return -1;
    }

    // Every node on its own: children before the parent, refs in their tables.
    void nodes() const {
        std::vector<std::uint32_t> height(rs.nodes.size(), 1);
        for (std::size_t n = 0; n < rs.nodes.size(); ++n) {
            const node& x = rs.nodes[n];
            const std::string path = "nodes[" + std::to_string(n) + "]";
            type_id(path + ".type", x.type);
            index(path + ".where.file", x.where.file, rs.files, "file", true);
            index(path + ".layer", x.layer, rs.layers, "layer", true);
            if (x.first_child > rs.children.size() || x.child_count > rs.children.size() - x.first_child)
                fail(path, "its children run past the end of `children`");
            for (std::uint32_t c = 0; c < x.child_count; ++c) {
                const id child = rs.children[x.first_child + c];
                if (child >= n) fail(path, "child " + std::to_string(child) + " does not come before its parent");
                height[n] = std::max(height[n], height[child] + 1);
            }
            if (height[n] > max_node_depth)
                fail(path, "its tree is more than " + std::to_string(max_node_depth) + " nodes deep");
            if (x.code == op::choose_subset &&
                !((x.value == 0 && x.child_count == 4) || ((x.value == 1 || x.value == 2) && x.child_count == 5)))
                fail(path, "`choose-subset` takes 4 children (value 0) or 5 with an objective (value 1 or 2)");
            if ((x.code == op::choose_one || x.code == op::choose_order) && x.value != 0)
                fail(path + ".value", "only `choose-subset` has an objective");
            const int want = arity(x.code);
            if (want >= 0 && x.child_count != static_cast<std::uint32_t>(want))
                fail(path, std::string("`") + name_of(x.code) + "` takes " + std::to_string(want) + " children, not " +
                               std::to_string(x.child_count));
            auto params = [&](std::uint32_t expected) {
                if (x.child_count != expected)
                    fail(path, "passes " + std::to_string(x.child_count) + " arguments where " +
                                   std::to_string(expected) + " are declared");
            };
            auto string_value = [&] {
                if (x.value < 0 || static_cast<std::uint64_t>(x.value) >= rs.strings.size())
                    fail(path + ".value", "string " + std::to_string(x.value) + " does not exist");
            };
            const std::string ref = path + ".ref";
            switch (x.code) {
                case op::const_string: case op::may: string_value(); break;
                case op::const_bool: case op::const_member: case op::const_entity: case op::const_node:
                    constant(path + ".value", x.type, x.value);
                    break;
                case op::end_game:
                    string_value();
                    if (x.ref > 2) fail(ref, "end-game timing must be 0, 1 or 2");
                    break;
                case op::dice: index(ref, x.ref, rs.dice_terms, "dice term"); break;
                case op::dice_count: {
                    index(ref, x.ref, rs.dice_terms, "dice term");
                    const dice_term& d = rs.dice_terms[x.ref];
                    if (x.value < 0 || x.value > d.count) fail(path + ".value", "the lower limit of a dice count must be 0 up to its upper limit");
                    if (d.low > d.high) fail(ref, "a dice term with no faces");
                    // every count's outcomes listable, as the compiler requires (the engine lists them)
                    const auto faces = static_cast<std::uint64_t>(d.high - d.low + 1);
                    std::uint64_t total = 1;
                    for (std::int64_t k = 0; k < d.count; ++k) {
                        if (k >= 1000 || (faces > 1 && total > (std::uint64_t{1} << 62) / faces))
                            fail(ref, "a counted dice term of up to " + std::to_string(d.count) + " dice has too many outcomes to list");
                        total *= faces;
                    }
                    break;
                }
                case op::range:
                    if (x.type >= rs.types.size() || rs.types[x.type].kind != type_kind::list_of)
                        fail(path + ".type", "a range is a list of numbers");
                    if (const id el = rs.types[x.type].value; el >= rs.types.size() || rs.types[el].kind != type_kind::range ||
                                                              rs.types[el].lo > rs.types[el].hi || rs.types[el].hi - rs.types[el].lo >= 10000)
                        fail(path + ".type", "a range's numbers are a bounded span of at most 10000");
                    break;
                case op::global: case op::player_field: case op::entity_field: slot_read(path, x); break;
                case op::zone: {
                    index(ref, x.ref, rs.zones, "zone");
                    // one zone (of its entity kind), or one per player: map_of(player, zone)
                    const zone& z = rs.zones[x.ref];
                    const type* t = x.type < rs.types.size() ? &rs.types[x.type] : nullptr;
                    if (t && z.per_player)
                        t = t->kind == type_kind::map_of && kind_of(t->key) == type_kind::player ? &rs.types[t->value] : nullptr;
                    else if (t && z.map != no_id)  // one per location: map_of(the map's node type, zone)
                        t = t->kind == type_kind::map_of && z.map < rs.maps.size() && t->key == rs.maps[z.map].node_type
                                ? &rs.types[t->value] : nullptr;
                    if (!t || t->kind != type_kind::zone || t->ref != z.entity_kind)
                        fail(path + ".type", "not the type of zone " + std::to_string(x.ref) + " `" + z.name + "`");
                    break;
                }
                case op::option: index(ref, x.ref, rs.options, "option"); break;
                case op::type_members: index(ref, x.ref, rs.types, "type"); break;
                case op::roll: index(ref, x.ref, rs.rolls, "roll"); params(rs.rolls[x.ref].param_count); break;
                case op::quantity:
                    index(ref, x.ref, rs.quantities, "quantity");
                    params(rs.quantities[x.ref].param_count);
                    break;
                case op::decide:
                    index(ref, x.ref, rs.decisions, "decision");
                    params(static_cast<std::uint32_t>(rs.decisions[x.ref].params.size()));
                    break;
                case op::lookup: case op::resolve:
                    index(ref, x.ref, rs.tables, "table");
                    params(rs.tables[x.ref].param_count);
                    break;
                case op::builtin:
                    if (x.ref > static_cast<id>(last_builtin)) fail(ref, "unknown built-in");
                    if (is_map_search(static_cast<builtin>(x.ref)) &&
                        (x.value < 0 || static_cast<std::uint64_t>(x.value) >= rs.quantities.size()))
                        fail(path + ".value", std::string(name_of(static_cast<builtin>(x.ref))) + " names no predicate");
                    break;
                case op::block: index(ref, x.ref, rs.blocks, "block"); break;
                case op::do_action:
                    index(ref, x.ref, rs.actions, "action");
                    params(rs.actions[x.ref].param_count);
                    break;
                case op::emit:
                    index(ref, x.ref, rs.events, "event");
                    params(static_cast<std::uint32_t>(rs.events[x.ref].params.size()));
                    break;
                case op::call:
                    index(ref, x.ref, rs.procedures, "procedure");
                    params(rs.procedures[x.ref].param_count);
                    break;
                case op::attribute: case op::record_field: case op::node_attribute: {
                    // The field must exist in the record/map of the child's type.
                    const node& child = rs.nodes[rs.children[x.first_child]];
                    const type& t = rs.types[child.type];
                    std::size_t count = 0;
                    if (x.code == op::attribute && t.kind == type_kind::entity && t.ref < rs.entity_kinds.size() &&
                        rs.entity_kinds[t.ref].record < rs.records.size())
                        count = rs.records[rs.entity_kinds[t.ref].record].fields.size();
                    else if (x.code == op::record_field && t.kind == type_kind::record && t.ref < rs.records.size())
                        count = rs.records[t.ref].fields.size();
                    else if (x.code == op::node_attribute && t.kind == type_kind::node && t.ref < rs.maps.size())
                        count = rs.maps[t.ref].attributes.size();
                    else
                        fail(path, std::string("`") + name_of(x.code) + "` of a value of the wrong type");
                    if (x.ref >= count) fail(ref, "field " + std::to_string(x.ref) + " does not exist");
                    break;
                }
                default: break;
            }
            shape(path, x);
        }
    }

    type_kind kind_of(id t) const { return t < rs.types.size() ? rs.types[t].kind : type_kind::error; }
    const node& kid(const node& x, std::uint32_t c) const { return rs.nodes[rs.children[x.first_child + c]]; }

    // A slot read names a slot of its own scope, of the entity kind or map of its operand, and
    // has the slot's type (the engine and the translator address values from these).
    void slot_read(const std::string& path, const node& x) const {
        index(path + ".ref", x.ref, rs.slots, "slot");
        const slot& s = rs.slots[x.ref];
        const char* wrong = nullptr;
        if (x.code == op::global && s.scope != slot_scope::global) wrong = "a global read of a slot that is not global";
        if (x.code == op::player_field &&
            (s.scope != slot_scope::per_player || kind_of(kid(x, 0).type) != type_kind::player))
            wrong = "a per-player read of a slot that is not per player, or of something that is not a player";
        if (x.code == op::entity_field) {
            const type_kind k = kind_of(kid(x, 0).type);
            const id of = k == type_kind::entity || k == type_kind::node ? rs.types[kid(x, 0).type].ref : no_id;
            const bool ok = (s.scope == slot_scope::per_entity && k == type_kind::entity && of == s.entity_kind) ||
                            (s.scope == slot_scope::per_node && k == type_kind::node && of == s.map);
            if (!ok) wrong = "reads a slot that is not a field of its operand's entity kind or map";
        }
        if (wrong) fail(path, std::string(wrong) + " (slot " + std::to_string(x.ref) + " `" + s.name + "`)");
        if (s.type < rs.types.size() && x.type != s.type)  // (a slot's own type is checked with the slots)
            fail(path + ".type", "type " + std::to_string(x.type) + " differs from its slot's type " + std::to_string(s.type));
    }

    // What the consumers assume of an op's type and its children's types.
    void shape(const std::string& path, const node& x) const {
        const type_kind own = kind_of(x.type);
        auto need = [&](bool ok, const std::string& what) {
            if (!ok) fail(path, std::string("`") + name_of(x.code) + "` " + what);
        };
        auto is_set = [&](std::uint32_t c) {
            const type_kind k = kind_of(kid(x, c).type);
            return k == type_kind::list_of || k == type_kind::zone;
        };
        switch (x.code) {
            case op::const_bool: need(own == type_kind::boolean, "must have a bool type"); break;
            case op::const_string: need(own == type_kind::string, "must have the string type"); break;
            case op::const_member: need(own == type_kind::enumeration, "must have an enum type"); break;
            case op::const_entity: need(own == type_kind::entity, "must have an entity type"); break;
            case op::const_node: need(own == type_kind::node, "must have a map-location type"); break;
            case op::index: need(kind_of(kid(x, 0).type) == type_kind::map_of, "must index a map_of value"); break;
            case op::assign: case op::add_assign: case op::sub_assign: {
                const node* t = &kid(x, 0);
                while (t->code == op::index) t = &kid(*t, 0);
                need(t->code == op::global || t->code == op::player_field || t->code == op::entity_field,
                     "must assign to a slot (or an element of one)");
                break;
            }
            case op::for_each: case op::choose_one: case op::choose_subset: case op::choose_order: case op::any:
            case op::all: case op::count: case op::sum: case op::min: case op::max:
                need(is_set(0), "must go over a list or a zone");
                break;
            case op::builtin: builtin_shape(path, x); break;
            case op::seq:
                for (std::uint32_t c = 0; c < x.child_count; ++c)
                    if (kid(x, c).code < op::seq)
                        fail(path, "child " + std::to_string(c) + " of a statement list is an expression (`" +
                                       name_of(kid(x, c).code) + "`), not a statement");
                break;
            default: break;
        }
    }

    void builtin_shape(const std::string& path, const node& x) const {
        const auto b = static_cast<builtin>(x.ref);
        std::uint32_t want = 0;
        switch (b) {
            case builtin::players: case builtin::active_player: want = 0; break;
            case builtin::opponents: case builtin::count: case builtin::size: case builtin::top: case builtin::abs:
            case builtin::neighbours: case builtin::terrain:
                want = 1;
                break;
            default: want = 2; break;
        }
        // a map search: a, b, then the predicate's arguments after its locations
        const std::uint32_t extra = is_map_search(b) && x.child_count > 2 ? x.child_count - 2 : 0;
        if (x.child_count != want + extra)
            fail(path, std::string("`") + name_of(b) + "` takes " + std::to_string(want) + " arguments, not " +
                           std::to_string(x.child_count));
        switch (b) {
            case builtin::adjacent: case builtin::distance: case builtin::edge_kind: case builtin::hexside:
            case builtin::neighbours: case builtin::terrain: case builtin::path_exists: case builtin::line_blocked:
            case builtin::path_length: {
                const id t = kid(x, 0).type;
                if (kind_of(t) != type_kind::node || (want == 2 && kid(x, 1).type != t))
                    fail(path, std::string("`") + name_of(b) + "` takes map locations (of one map)");
                const map& m = rs.maps[rs.types[t].ref];
                if (b == builtin::terrain && m.terrain_enum == no_id) fail(path, "`terrain` of a map without terrain");
                if ((b == builtin::edge_kind || b == builtin::hexside) && m.edge_enum == no_id)
                    fail(path, std::string("`") + name_of(b) + "` on a map without edge kinds");
                if (b == builtin::line_blocked && m.kind != map_kind::hexgrid) fail(path, "`line_blocked` on a map of areas");
                if (is_map_search(b)) {
                    // pred(locations…, extra…): one or two locations for a path, one or three for a line
                    const derived& p = rs.quantities[static_cast<std::size_t>(x.value)];
                    const std::uint32_t other = b == builtin::line_blocked ? 3 : 2;
                    const std::uint32_t places = p.param_count >= extra ? p.param_count - extra : 0;
                    if (!p.predicate || (places != 1 && places != other) || p.param_count > p.locals.size())
                        fail(path + ".value", std::string("`") + name_of(b) + "` names a predicate that does not fit");
                    for (std::uint32_t i = 0; i < places; ++i)
                        if (p.locals[i].type != t)
                            fail(path + ".value", std::string("`") + name_of(b) + "` names a predicate over other values");
                    auto number = [](type_kind k) { return k == type_kind::integer || k == type_kind::range; };
                    for (std::uint32_t i = 0; i < extra && places + i < p.param_count; ++i) {
                        const type_kind given = kind_of(kid(x, 2 + i).type), wanted = kind_of(p.locals[places + i].type);
                        if (given != wanted && !(number(given) && number(wanted)))
                            fail(path, std::string("`") + name_of(b) + "` gives its predicate an argument of another kind");
                    }
                }
                break;
            }
            default: break;
        }
    }

    // A node tree belonging to one frame: every local it names exists in the frame.
    void tree(const std::string& path, id root, const std::vector<local>& frame, bool optional = true) const {
        index(path, root, rs.nodes, "node", optional);
        if (root == no_id) return;
        std::vector<id> stack{root};
        std::set<id> numbers_walked;
        while (!stack.empty()) {
            const id n = stack.back();
            stack.pop_back();
            const node& x = rs.nodes[n];
            switch (x.code) {
                case op::local: case op::let: case op::for_each: case op::choose_one: case op::choose_subset:
                case op::choose_order: case op::any: case op::all: case op::count: case op::sum: case op::min:
                case op::max:
                    if (x.ref >= frame.size())
                        fail(path, "node " + std::to_string(n) + " uses local " + std::to_string(x.ref) +
                                       " but the frame has " + std::to_string(frame.size()));
                    if (x.code == op::local && x.type != frame[x.ref].type)
                        fail(path, "node " + std::to_string(n) + " reads local " + std::to_string(x.ref) +
                                       " as type " + std::to_string(x.type) + ", not its type " +
                                       std::to_string(frame[x.ref].type));
                    break;
                case op::block:  // a numbered turn's number is read in the turn's frame (once: no cycle)
                    if (x.ref < rs.blocks.size() && rs.blocks[x.ref].number != no_id && numbers_walked.insert(x.ref).second)
                        stack.push_back(rs.blocks[x.ref].number);
                    break;
                default: break;
            }
            for (std::uint32_t c = 0; c < x.child_count; ++c) stack.push_back(rs.children[x.first_child + c]);
        }
    }

    void types() const {
        std::vector<std::uint32_t> height(rs.types.size(), 1);
        for (std::size_t i = 0; i < rs.types.size(); ++i) {
            const type& t = rs.types[i];
            const std::string path = "types[" + std::to_string(i) + "]";
            auto earlier = [&](const char* what, id other) {
                if (other == no_id || other >= i) fail(path + "." + what, "must name an earlier type");
                height[i] = std::max(height[i], height[other] + 1);
                if (height[i] > max_type_depth)
                    fail(path, "it nests more than " + std::to_string(max_type_depth) + " types deep");
            };
            switch (t.kind) {
                case type_kind::range:
                    if (t.lo > t.hi) fail(path, "empty range");
                    break;
                case type_kind::enumeration: index(path + ".ref", t.ref, rs.enums, "enum"); break;
                case type_kind::record: index(path + ".ref", t.ref, rs.records, "record"); break;
                case type_kind::entity: case type_kind::zone:
                    index(path + ".ref", t.ref, rs.entity_kinds, "entity kind");
                    break;
                case type_kind::node: index(path + ".ref", t.ref, rs.maps, "map"); break;
                case type_kind::map_of: earlier("key", t.key); earlier("value", t.value); break;
                case type_kind::list_of: earlier("value", t.value); break;
                default: break;
            }
        }
    }

    void element(const std::string& path, element_kind k, id e) const {
        switch (k) {
            case element_kind::none: break;
            case element_kind::enumeration: index(path, e, rs.enums, "enum"); break;
            case element_kind::alias: index(path, e, rs.aliases, "type"); break;
            case element_kind::record: index(path, e, rs.records, "record"); break;
            case element_kind::slot: index(path, e, rs.slots, "slot"); break;
            case element_kind::entity_kind: index(path, e, rs.entity_kinds, "entity kind"); break;
            case element_kind::entity: index(path, e, rs.entities, "entity"); break;
            case element_kind::zone: index(path, e, rs.zones, "zone"); break;
            case element_kind::map: index(path, e, rs.maps, "map"); break;
            case element_kind::roll: index(path, e, rs.rolls, "roll"); break;
            case element_kind::derived: index(path, e, rs.quantities, "quantity"); break;
            case element_kind::decision: index(path, e, rs.decisions, "decision"); break;
            case element_kind::action: index(path, e, rs.actions, "action"); break;
            case element_kind::event: index(path, e, rs.events, "event"); break;
            case element_kind::procedure: index(path, e, rs.procedures, "procedure"); break;
            case element_kind::sequence: index(path, e, rs.sequences, "sequence"); break;
            case element_kind::table: index(path, e, rs.tables, "table"); break;
            case element_kind::option: index(path, e, rs.options, "option"); break;
            case element_kind::missing: index(path, e, rs.missing_data, "missing-data declaration"); break;
            case element_kind::rule: index(path, e, rs.rules, "rule"); break;
        }
    }

    // A mark's field is a field of the record of the entity it marks (marks on other elements name none).
    void marked_field(const std::string& path, element_kind kind, id e, const std::string& field) const {
        if (field.empty()) return;
        if (kind != element_kind::entity || e >= rs.entities.size()) return fail(path, "a field on an element that is not an entity");
        const id k = rs.entities[e].kind;
        const id r = k < rs.entity_kinds.size() ? rs.entity_kinds[k].record : no_id;
        if (r >= rs.records.size()) return fail(path, "the entity's kind has no record");
        const auto& fs = rs.records[r].fields;
        if (std::none_of(fs.begin(), fs.end(), [&](const ir::field& f) { return f.name == field; }))
            fail(path, "`" + field + "` is not a field of `" + rs.records[r].name + "`");
    }

    // An odds key a-b is read by dividing by a or b: a >= 0, b >= 1.
    void key_range_ok(const std::string& path, const key_range& k) const {
        if (k.kind == key_range_kind::odds && (k.lo < 0 || k.hi < 1))
            fail(path, "odds " + std::to_string(k.lo) + "-" + std::to_string(k.hi) + " (the defender's side must be at least 1)");
    }

    void key_map_ok(const std::string& path, const key_map& m, std::size_t size) const {
        for (std::int32_t r : m.dense)
            if (r < -1 || r >= static_cast<std::int64_t>(size)) fail(path + ".dense", "names a row or column that does not exist");
        if (m.below < -1 || m.below >= static_cast<std::int64_t>(size)) fail(path + ".below", "no such row or column");
        if (m.above < -1 || m.above >= static_cast<std::int64_t>(size)) fail(path + ".above", "no such row or column");
        if (m.kind == key_range_kind::integer && !m.dense.empty() &&
            (m.max < m.min || static_cast<std::uint64_t>(m.max) - static_cast<std::uint64_t>(m.min) + 1 != m.dense.size()))
            fail(path, "dense holds " + std::to_string(m.dense.size()) + " entries for keys " + std::to_string(m.min) +
                           ".." + std::to_string(m.max));
    }

    // No predicate, quantity, decision or roll calls itself (the compiler's recursive-definition).
    void recursion() const {
        const auto cycles = value_cycles(rs);
        if (cycles.empty()) return;
        const value_def first = cycles[0][0].from;
        const char* table = first.k == value_def::kind::quantity ? "derived"
                            : first.k == value_def::kind::decision ? "decisions"
                                                                   : "rolls";
        std::string path;
        for (const value_call& c : cycles[0]) path += describe(rs, c.from) + " → ";
        path += describe(rs, first);
        fail(std::string(table) + "[" + std::to_string(first.index) + "]",
             "the " + describe(rs, first) + " calls itself (" + path + "): only procedures, triggers and tables may recurse");
    }

    // Every `end turn` has a `turn` around it (the compiler's end-turn-outside-turn): in the sequence
    // directly, in a procedure through its callers; never in an action, rule or table row.
    void turn_endings() const {
        const std::vector<bool> ending = procedures_ending_turn(rs);
        auto none = [&](const std::string& path, id root) {
            const std::vector<id> exits = turn_exits(rs, root, ending);
            if (!exits.empty())
                fail(path, "node " + std::to_string(exits[0]) + " ends a turn (`end turn`, or a call of a procedure that does) with no `turn` block around it");
        };
        for (std::size_t i = 0; i < rs.sequences.size(); ++i) none("sequences[" + std::to_string(i) + "].body", rs.sequences[i].body);
        for (std::size_t i = 0; i < rs.actions.size(); ++i) none("actions[" + std::to_string(i) + "].body", rs.actions[i].body);
        for (std::size_t i = 0; i < rs.rules.size(); ++i) none("rules[" + std::to_string(i) + "].body", rs.rules[i].body);
        for (std::size_t i = 0; i < rs.tables.size(); ++i)
            for (std::size_t c = 0; c < rs.tables[i].cells.size(); ++c)
                none("tables[" + std::to_string(i) + "].cells[" + std::to_string(c) + "].effects", rs.tables[i].cells[c].effects);
    }

    // No dice in the arguments of a `do` the engines test first (the compiler's roll-in-tested-do):
    // the engines would roll them to test the action and again to do it.
    void tested_dos() const {
        const std::vector<tested_do_dice> found = dice_in_tested_dos(rs);
        if (found.empty()) return;
        fail("nodes[" + std::to_string(found[0].act) + "]",
             "a `do` the engines test before offering it (the first statement of node " + std::to_string(found[0].offer) +
                 ") rolls dice in its arguments (node " + std::to_string(found[0].dice) + "): the test and the action would roll apart");
    }

    // Every `reveal` stands directly in a `simultaneous` block's statement list, one in each; only
    // per-player fields are hidden (the compiler's reveal-outside-simultaneous, misplaced-simultaneous
    // and hidden-field).
    void secrets() const {
        std::size_t blocks = 0, reveals = 0;
        for (std::size_t n = 0; n < rs.nodes.size(); ++n) {
            const node& x = rs.nodes[n];
            if (x.code == op::reveal) ++reveals;
            if (x.code != op::simultaneous) continue;
            ++blocks;
            const auto kids = children_of(rs, static_cast<id>(n));
            std::size_t mine = 0;
            if (kids.size() == 1 && rs.nodes[kids[0]].code == op::seq)
                for (id c : children_of(rs, kids[0])) mine += rs.nodes[c].code == op::reveal;
            if (mine != 1) fail("nodes[" + std::to_string(n) + "]", "a simultaneous block without exactly one reveal in its statements");
        }
        if (reveals != blocks) fail("nodes", "a reveal outside a simultaneous block");
        for (std::size_t i = 0; i < rs.slots.size(); ++i) hidden(i);
    }

    // A hidden field is per player, a map keyed by player, or a map keyed by its hidden_by's enum.
    void hidden(std::size_t i) const {
        const slot& s = rs.slots[i];
        const std::string path = "slots[" + std::to_string(i) + "]";
        if (s.hidden_if != no_id) {
            index(path + ".hidden_if", s.hidden_if, rs.options, "option", false);
            if (rs.options[s.hidden_if].kind != option_kind::boolean) fail(path + ".hidden_if", "names an option that is not bool");
            if (!s.hidden) fail(path + ".hidden_if", "on a field that is not hidden");
        }
        if (s.hidden_unless != no_id) {
            index(path + ".hidden_unless", s.hidden_unless, rs.slots, "slot", false);
            const slot& u = rs.slots[s.hidden_unless];
            if (!s.hidden || u.hidden || rs.types[u.type].kind != type_kind::boolean || u.scope != s.scope ||
                u.entity_kind != s.entity_kind || u.map != s.map)
                fail(path + ".hidden_unless", "names a slot that is not a bool field held per the same thing, or it is hidden, or this one is not");
        }
        if (s.hidden_by != no_id) {
            index(path + ".hidden_by", s.hidden_by, rs.slots, "slot", false);
            const slot& by = rs.slots[s.hidden_by];
            const type& t = rs.types[s.type];
            if (!s.hidden || s.scope == slot_scope::per_player || by.scope != slot_scope::per_player ||
                rs.types[by.type].kind != type_kind::enumeration || t.kind != type_kind::map_of || t.key != by.type)
                fail(path + ".hidden_by", "a hidden field `by` a per-player enum field is a map keyed by that enum, and no "
                                          "player's own");
            return;
        }
        if (!s.hidden || s.scope == slot_scope::per_player) return;
        const type& t = rs.types[s.type];
        if (t.kind != type_kind::map_of || rs.types[t.key].kind != type_kind::player)
            fail(path + ".hidden", "only a per-player field, a map keyed by player, or one hidden by a per-player field can be hidden");
    }

    void run() const {
        if (rs.min_players < 0 || rs.max_players < rs.min_players)
            fail("min_players", "the players must be N..M with 0 <= N <= M (found " + std::to_string(rs.min_players) + ".." +
                                    std::to_string(rs.max_players) + ")");
        for (std::size_t i = 0; i < rs.checker.size(); ++i) {
            const checker_setting& c = rs.checker[i];
            const std::string path = "checker[" + std::to_string(i) + "]";
            const bool stage = c.name == "tables_with_bounds" || c.name == "choices_with_bounds";
            if (c.name != "unfold_limit" && c.name != "unroll_depth" && c.name != "evidence_games" && c.name != "resource_limit" && !stage)
                fail(path + ".name",
                     "a checker setting is unfold_limit, unroll_depth, evidence_games, resource_limit, tables_with_bounds or "
                     "choices_with_bounds (found `" + c.name + "`)");
            if (c.value < 0 || (c.name == "unroll_depth" && c.value > 64) || (c.name == "evidence_games" && c.value > max_evidence_games) ||
                (c.name == "resource_limit" && c.value > max_resource_limit) || (stage && c.value > 1))
                fail(path + ".value", "out of range (found " + std::to_string(c.value) + ")");
            for (std::size_t j = 0; j < i; ++j)
                if (rs.checker[j].name == c.name) fail(path + ".name", "`" + c.name + "` is set twice");
        }
        for (std::size_t i = 0; i < rs.layers.size(); ++i) {
            const std::string path = "layers[" + std::to_string(i) + "]";
            for (id f : rs.layers[i].files) index(path + ".files", f, rs.files, "file");
            prov(path + ".prov", rs.layers[i].prov);
        }
        for (std::size_t i = 0; i < rs.sections.size(); ++i) prov("sections[" + std::to_string(i) + "].prov", rs.sections[i].prov);
        for (std::size_t i = 0; i < rs.dice_terms.size(); ++i) {
            // what the engine's distributions (game.cpp) can be built from
            const dice_term& d = rs.dice_terms[i];
            constexpr std::int64_t far = 1'000'000'000'000;
            if (d.count < 1 || d.count > 10'000 || d.low > d.high || d.low < -far || d.high > far || d.high - d.low >= 1'000'000)
                fail("dice_terms[" + std::to_string(i) + "]", "not 1..10000 dice of 1..1000000 faces (" + std::to_string(d.count) +
                                                                  "d[" + std::to_string(d.low) + ".." + std::to_string(d.high) + "])");
        }
        types();
        nodes();
        // A turn's number is an int expression that rolls nothing (docs/language.md, "Numbering
        // the turns"); checked before the trees, which walk into it from the turn's node.
        for (std::size_t i = 0; i < rs.blocks.size(); ++i) {
            const id e = rs.blocks[i].number;
            if (e == no_id) continue;
            const std::string path = "blocks[" + std::to_string(i) + "].number";
            index(path, e, rs.nodes, "node");
            if (rs.blocks[i].word != "turn") fail(path, "only a turn is numbered");
            const type_kind k = kind_of(rs.nodes[e].type);
            if (k != type_kind::integer && k != type_kind::range) fail(path, "a turn's number is not an int");
            if (chance_in(rs, e, true) != no_id) fail(path, "a turn's number rolls dice");
        }
        for (std::size_t i = 0; i < rs.enums.size(); ++i) prov("enums[" + std::to_string(i) + "].prov", rs.enums[i].prov);
        for (std::size_t i = 0; i < rs.aliases.size(); ++i) {
            const std::string path = "aliases[" + std::to_string(i) + "]";
            type_id(path + ".type", rs.aliases[i].type);
            prov(path + ".prov", rs.aliases[i].prov);
        }
        for (std::size_t i = 0; i < rs.records.size(); ++i) {
            const std::string path = "records[" + std::to_string(i) + "]";
            for (std::size_t f = 0; f < rs.records[i].fields.size(); ++f) {
                const field& fd = rs.records[i].fields[f];
                type_id(path + ".fields[" + std::to_string(f) + "].type", fd.type);
                if (fd.has_default) constant(path + ".fields[" + std::to_string(f) + "].default", fd.type, fd.default_value);
                prov(path + ".fields[" + std::to_string(f) + "].prov", rs.records[i].fields[f].prov);
            }
            prov(path + ".prov", rs.records[i].prov);
        }
        for (std::size_t i = 0; i < rs.slots.size(); ++i) {
            const std::string path = "slots[" + std::to_string(i) + "]";
            const slot& s = rs.slots[i];
            type_id(path + ".type", s.type);
            index(path + ".entity_kind", s.entity_kind, rs.entity_kinds, "entity kind", s.scope != slot_scope::per_entity);
            index(path + ".map", s.map, rs.maps, "map", s.scope != slot_scope::per_node);
            constant(path + ".initial", s.type, s.initial);
            prov(path + ".prov", s.prov);
        }
        for (std::size_t i = 0; i < rs.entity_kinds.size(); ++i) {
            const std::string path = "entity_kinds[" + std::to_string(i) + "]";
            const entity_kind& k = rs.entity_kinds[i];
            index(path + ".record", k.record, rs.records, "record");
            if (k.first_entity > rs.entities.size() || k.entity_count > rs.entities.size() - k.first_entity)
                fail(path, "its entities run past the end of `entities`");
            index(path + ".standin", k.standin, rs.standins, "stand-in", true);
            prov(path + ".prov", k.prov);
        }
        for (std::size_t i = 0; i < rs.entities.size(); ++i) {
            const std::string path = "entities[" + std::to_string(i) + "]";
            const entity& e = rs.entities[i];
            index(path + ".kind", e.kind, rs.entity_kinds, "entity kind");
            const entity_kind& k = rs.entity_kinds[e.kind];
            if (i < k.first_entity || i - k.first_entity >= k.entity_count)
                fail(path + ".kind", "entity " + std::to_string(i) + " is not among its kind's entities");
            const record& r = rs.records[k.record];
            if (e.values.size() != r.fields.size())
                fail(path + ".values", "holds " + std::to_string(e.values.size()) + " values for " +
                                           std::to_string(r.fields.size()) + " fields");
            for (std::size_t f = 0; f < r.fields.size(); ++f)
                constant(path + ".values[" + std::to_string(f) + "]", r.fields[f].type, e.values[f]);
            prov(path + ".prov", e.prov);
        }
        for (std::size_t i = 0; i < rs.zones.size(); ++i) {
            const std::string path = "zones[" + std::to_string(i) + "]";
            index(path + ".entity_kind", rs.zones[i].entity_kind, rs.entity_kinds, "entity kind");
            if (rs.zones[i].map != no_id) {
                index(path + ".map", rs.zones[i].map, rs.maps, "map");
                if (rs.zones[i].per_player) fail(path + ".map", "a zone is per player or per location, not both");
            }
            prov(path + ".prov", rs.zones[i].prov);
        }
        for (std::size_t i = 0; i < rs.maps.size(); ++i) {
            const std::string path = "maps[" + std::to_string(i) + "]";
            const map& m = rs.maps[i];
            type_id(path + ".node_type", m.node_type);
            index(path + ".terrain_enum", m.terrain_enum, rs.enums, "enum", true);
            index(path + ".edge_enum", m.edge_enum, rs.enums, "enum", true);
            index(path + ".standin", m.standin, rs.standins, "stand-in", true);
            for (std::size_t a = 0; a < m.attributes.size(); ++a)
                type_id(path + ".attributes[" + std::to_string(a) + "].type", m.attributes[a].type);
            const std::size_t terrains = m.terrain_enum == no_id ? 0 : rs.enums[m.terrain_enum].members.size();
            const std::size_t kinds = m.edge_enum == no_id ? 0 : rs.enums[m.edge_enum].members.size();
            for (std::size_t n = 0; n < m.nodes.size(); ++n) {
                const std::string np = path + ".nodes[" + std::to_string(n) + "]";
                const map_node& x = m.nodes[n];
                if (x.terrain < -1 || x.terrain >= static_cast<std::int64_t>(terrains)) fail(np + ".terrain", "no such terrain");
                if (x.values.size() != m.attributes.size()) fail(np + ".values", "one value per attribute expected");
                for (std::size_t a = 0; a < x.values.size(); ++a)
                    constant(np + ".values[" + std::to_string(a) + "]", m.attributes[a].type, x.values[a]);
                for (id nb : x.neighbours) index(np + ".neighbours", nb, m.nodes, "node");
                prov(np + ".prov", x.prov);
            }
            for (std::size_t e = 0; e < m.edges.size(); ++e) {
                const std::string ep = path + ".edges[" + std::to_string(e) + "]";
                index(ep + ".a", m.edges[e].a, m.nodes, "node");
                index(ep + ".b", m.edges[e].b, m.nodes, "node");
                for (std::int64_t k : m.edges[e].kinds)
                    if (k < 0 || k >= static_cast<std::int64_t>(kinds)) fail(ep + ".kinds", "no such edge kind");
                prov(ep + ".prov", m.edges[e].prov);
            }
            prov(path + ".prov", m.prov);
        }
        for (std::size_t i = 0; i < rs.rolls.size(); ++i) {
            const std::string path = "rolls[" + std::to_string(i) + "]";
            const roll& r = rs.rolls[i];
            locals(path, r.locals, r.param_count);
            tree(path + ".expr", r.expr, r.locals, false);
            const distribution& d = r.dist;
            if (!d.weights.empty() &&
                (d.max < d.min || static_cast<std::uint64_t>(d.max) - static_cast<std::uint64_t>(d.min) + 1 != d.weights.size()))
                fail(path + ".distribution", "one weight per total from min to max expected");
            prov(path + ".prov", r.prov);
        }
        for (std::size_t i = 0; i < rs.quantities.size(); ++i) {
            const std::string path = "derived[" + std::to_string(i) + "]";
            const derived& d = rs.quantities[i];
            locals(path, d.locals, d.param_count);
            type_id(path + ".result", d.result);
            tree(path + ".expr", d.expr, d.locals, false);
            prov(path + ".prov", d.prov);
        }
        for (std::size_t i = 0; i < rs.decisions.size(); ++i) {
            const std::string path = "decisions[" + std::to_string(i) + "]";
            locals(path, rs.decisions[i].params, 0);
            type_id(path + ".result", rs.decisions[i].result);
            prov(path + ".prov", rs.decisions[i].prov);
        }
        for (std::size_t i = 0; i < rs.actions.size(); ++i) {
            const std::string path = "actions[" + std::to_string(i) + "]";
            const action& a = rs.actions[i];
            locals(path, a.locals, a.param_count);
            tree(path + ".guard", a.guard, a.locals);
            tree(path + ".body", a.body, a.locals);
            prov(path + ".prov", a.prov);
        }
        for (std::size_t i = 0; i < rs.events.size(); ++i) {
            locals("events[" + std::to_string(i) + "]", rs.events[i].params, 0);
            prov("events[" + std::to_string(i) + "].prov", rs.events[i].prov);
        }
        for (std::size_t i = 0; i < rs.procedures.size(); ++i) {
            const std::string path = "procedures[" + std::to_string(i) + "]";
            const procedure& p = rs.procedures[i];
            locals(path, p.locals, p.param_count);
            tree(path + ".body", p.body, p.locals, false);
            prov(path + ".prov", p.prov);
        }
        for (std::size_t i = 0; i < rs.sequences.size(); ++i) {
            const std::string path = "sequences[" + std::to_string(i) + "]";
            const sequence& s = rs.sequences[i];
            locals(path, s.locals, 0);
            tree(path + ".body", s.body, s.locals, false);
            prov(path + ".prov", s.prov);
        }
        for (std::size_t i = 0; i < rs.blocks.size(); ++i) {
            const std::string path = "blocks[" + std::to_string(i) + "]";
            index(path + ".parent", rs.blocks[i].parent, rs.blocks, "block", true);
            index(path + ".node", rs.blocks[i].node, rs.nodes, "node");
            prov(path + ".prov", rs.blocks[i].prov);
        }
        for (std::size_t i = 0; i < rs.tables.size(); ++i) {
            const std::string path = "tables[" + std::to_string(i) + "]";
            const table& t = rs.tables[i];
            locals(path, t.locals, t.param_count);
            if (t.keys.empty() || t.keys.size() > 2) fail(path + ".keys", "a table has one or two keys");
            index(path + ".printing_of", t.printing_of, rs.tables, "table", true);
            for (std::size_t k = 0; k < t.keys.size(); ++k) {
                const std::string kp = path + ".keys[" + std::to_string(k) + "]";
                tree(kp + ".expr", t.keys[k].expr, t.locals, false);
                tree(kp + ".shift", t.keys[k].shift, t.locals, true);
                if (t.keys[k].shift != no_id && (k != 1 || t.columns.size() < 2))
                    fail(kp + ".shift", "a shift with no column to shift into");
                index(kp + ".var", t.keys[k].var, t.locals, "local", true);
                type_id(kp + ".type", t.keys[k].type);
                if (t.keys[k].has_clamp) {
                    key_range_ok(kp + ".clamp_lo", t.keys[k].clamp_lo);
                    key_range_ok(kp + ".clamp_hi", t.keys[k].clamp_hi);
                }
                prov(kp + ".prov", t.keys[k].prov);
            }
            const std::size_t columns = std::max<std::size_t>(1, t.columns.size());
            if (t.cells.size() != t.rows.size() * columns)
                fail(path + ".cells", "holds " + std::to_string(t.cells.size()) + " cells for " +
                                          std::to_string(t.rows.size()) + " rows of " + std::to_string(columns));
            for (std::size_t c = 0; c < t.cells.size(); ++c) {
                const std::string cp = path + ".cells[" + std::to_string(c) + "]";
                tree(cp + ".effects", t.cells[c].effects, t.locals);
                if (t.cells[c].has_outcome && t.outcome_type == no_id) fail(cp, "an outcome in a table without outcomes");
                if (t.cells[c].has_outcome) constant(cp + ".outcome", t.outcome_type, t.cells[c].outcome);
                prov(cp + ".prov", t.cells[c].prov);
            }
            for (std::size_t r = 0; r < t.rows.size(); ++r) {
                prov(path + ".rows[" + std::to_string(r) + "].prov", t.rows[r].prov);
                key_range_ok(path + ".rows[" + std::to_string(r) + "].key", t.rows[r].key);
            }
            for (std::size_t c = 0; c < t.columns.size(); ++c)
                key_range_ok(path + ".columns[" + std::to_string(c) + "]", t.columns[c]);
            key_map_ok(path + ".row_map", t.row_map, t.rows.size());
            key_map_ok(path + ".column_map", t.column_map, t.columns.size());
            key_map_ok(path + ".natural_map", t.natural_map, t.rows.size());
            for (std::size_t r = 0; r < t.rows.size(); ++r) {
                if (!t.rows[r].natural) continue;
                const std::string rp = path + ".rows[" + std::to_string(r) + "]";
                if (t.keys.empty() || t.keys[0].source == key_source::key || t.rows[r].key.kind != key_range_kind::integer)
                    fail(rp, "a natural row on a key that is not a roll");
                for (std::int32_t d : t.row_map.dense)
                    if (d == static_cast<std::int32_t>(r)) fail(rp, "a natural row in the map of the modified roll");
                if (t.row_map.below == static_cast<std::int32_t>(r) || t.row_map.above == static_cast<std::int32_t>(r))
                    fail(rp, "a natural row in the map of the modified roll");
            }
            for (std::int32_t d : t.natural_map.dense)
                if (d >= 0 && static_cast<std::size_t>(d) < t.rows.size() && !t.rows[static_cast<std::size_t>(d)].natural)
                    fail(path + ".natural_map", "names a row that is not natural");
            type_id(path + ".outcome_type", t.outcome_type, true);
            index(path + ".standin", t.standin, rs.standins, "stand-in", true);
            prov(path + ".prov", t.prov);
        }
        // two printings of one table (ir/printings.hpp): once every table's axes are known good
        for (std::size_t i = 0; i < rs.tables.size(); ++i) {
            const table& t = rs.tables[i];
            if (t.printing_of == no_id) continue;
            const std::string path = "tables[" + std::to_string(i) + "].printing_of";
            if (t.printing_of == i) fail(path, "a table is not a printing of itself");
            const table& o = rs.tables[t.printing_of];
            if (o.printing_of != no_id) fail(path, "names a table that is itself a printing of another");
            if (const std::string why = printings_incomparable(rs, t, o); !why.empty()) fail(path, "not comparable: " + why);
        }
        for (std::size_t i = 0; i < rs.options.size(); ++i) {
            const std::string path = "options[" + std::to_string(i) + "]";
            const option& o = rs.options[i];
            type_id(path + ".type", o.type);
            index(path + ".enum", o.enum_id, rs.enums, "enum", o.kind != option_kind::named);
            if (o.values.empty()) fail(path + ".values", "an option needs at least one value");
            for (std::size_t v = 0; v < o.values.size(); ++v)
                constant(path + ".values[" + std::to_string(v) + "]", o.type, o.values[v]);
            if (o.default_index >= o.values.size()) fail(path + ".default_index", "not one of the values");
            if (o.selected_index >= o.values.size()) fail(path + ".selected_index", "not one of the values");
            prov(path + ".prov", o.prov);
        }
        for (std::size_t i = 0; i < rs.missing_data.size(); ++i) {
            const std::string path = "missing_data[" + std::to_string(i) + "]";
            const missing& m = rs.missing_data[i];
            prov(path + ".prov", m.prov);
            if (m.kind != element_kind::none) element(path + ".element", m.kind, m.element);
            marked_field(path + ".field", m.kind, m.element, m.field);
        }
        for (std::size_t i = 0; i < rs.accepts.size(); ++i) {
            const std::string path = "accepts[" + std::to_string(i) + "]";
            if (std::find_if(std::begin(finding_kinds), std::end(finding_kinds), [&](const char* k) { return rs.accepts[i].kind == k; }) ==
                std::end(finding_kinds))
                fail(path + ".kind", "`" + rs.accepts[i].kind + "` is not a kind of finding");
            const std::string& side = rs.accepts[i].side;
            if (!side.empty() && (rs.accepts[i].kind != "bound-violation" || (side != "above" && side != "below")))
                fail(path + ".side", "a side is `above` or `below`, of a bound-violation only (found `" + side + "`)");
            prov(path + ".prov", rs.accepts[i].prov);
        }
        for (std::size_t i = 0; i < rs.standins.size(); ++i) {
            const std::string path = "standins[" + std::to_string(i) + "]";
            element(path + ".element", rs.standins[i].kind, rs.standins[i].element);
            prov(path + ".prov", rs.standins[i].prov);
            marked_field(path + ".field", rs.standins[i].kind, rs.standins[i].element, rs.standins[i].field);
        }
        for (std::size_t i = 0; i < rs.rules.size(); ++i) {
            const std::string path = "rules[" + std::to_string(i) + "]";
            const rule& r = rs.rules[i];
            switch (r.target) {
                case target_kind::none: break;
                case target_kind::roll: index(path + ".target_id", r.target_id, rs.rolls, "roll"); break;
                case target_kind::quantity: index(path + ".target_id", r.target_id, rs.quantities, "quantity"); break;
                case target_kind::decision: index(path + ".target_id", r.target_id, rs.decisions, "decision"); break;
                case target_kind::action: index(path + ".target_id", r.target_id, rs.actions, "action"); break;
                case target_kind::event: index(path + ".target_id", r.target_id, rs.events, "event"); break;
            }
            locals(path, r.locals, r.param_count);
            tree(path + ".amount", r.amount, r.locals);
            if (r.mod != modifier_kind::add && r.kind != rule_kind::modifier)
                fail(path + ".modifier", "only a modifier sets or bounds a value");
            if (is_query(r.kind) && (r.target != target_kind::none || r.value == no_id || r.guard != no_id || r.body != no_id))
                fail(path + ".kind", "a query has a property and nothing else: no target, guard or body");
            if (r.kind == rule_kind::chances && (r.target != target_kind::none || r.value == no_id || r.guard != no_id ||
                                                 r.param_count < 1 || r.param_count > 2))
                fail(path + ".kind", "`chances` has one or two parameters, a condition and no target or guard");
            tree(path + ".value", r.value, r.locals);
            tree(path + ".guard", r.guard, r.locals);
            tree(path + ".body", r.body, r.locals);
            for (id o : r.overrides) index(path + ".overrides", o, rs.rules, "rule");
            index(path + ".group", r.group, rs.groups, "rule group", true);
            prov(path + ".prov", r.prov);
        }
        for (std::size_t i = 0; i < rs.groups.size(); ++i) {
            const std::string path = "groups[" + std::to_string(i) + "]";
            const rule_group& g = rs.groups[i];
            switch (g.target) {
                case target_kind::none: break;
                case target_kind::roll: index(path + ".target_id", g.target_id, rs.rolls, "roll"); break;
                case target_kind::quantity: index(path + ".target_id", g.target_id, rs.quantities, "quantity"); break;
                case target_kind::decision: index(path + ".target_id", g.target_id, rs.decisions, "decision"); break;
                case target_kind::action: index(path + ".target_id", g.target_id, rs.actions, "action"); break;
                case target_kind::event: index(path + ".target_id", g.target_id, rs.events, "event"); break;
            }
            for (id r : g.rules)
                if (r < rs.rules.size() && (rs.rules[r].target != g.target || rs.rules[r].target_id != g.target_id))
                    fail(path + ".rules", "rule " + std::to_string(r) + " is aimed elsewhere than the group");
            for (id r : rs.groups[i].rules) index(path + ".rules", r, rs.rules, "rule");
            for (const override_edge& e : rs.groups[i].edges) {
                index(path + ".edges", e.higher, rs.rules, "rule");
                index(path + ".edges", e.lower, rs.rules, "rule");
            }
        }
        for (std::size_t i = 0; i < rs.card_events.size(); ++i) {
            const std::string path = "card_events[" + std::to_string(i) + "]";
            const card_event& e = rs.card_events[i];
            index(path + ".card", e.card, rs.entities, "entity");
            index(path + ".procedure", e.procedure, rs.procedures, "procedure");
            if ((e.flag == no_id) != (e.duration == event_duration::once))
                fail(path + ".flag", "an event has an in-force slot exactly when it lasts");
            if (e.flag != no_id) index(path + ".flag", e.flag, rs.slots, "slot");
            for (id r : e.lifts) index(path + ".lifts", r, rs.rules, "rule");
            for (id r : e.rules) index(path + ".rules", r, rs.rules, "rule");
            prov(path + ".prov", e.prov);
        }
        for (id d : rs.event_dispatchers) index("event_dispatchers", d, rs.procedures, "procedure");
        if (rs.events_outrank.size() > 1) fail("events_outrank", "at most one `events outrank rules`");
        for (const event_precedence& x : rs.events_outrank) {
            for (id c : x.except) index("events_outrank.except", c, rs.entities, "entity");
            prov("events_outrank.prov", x.prov);
        }
        for (std::size_t i = 0; i < rs.errata.size(); ++i) {
            const std::string path = "errata[" + std::to_string(i) + "]";
            index(path + ".layer", rs.errata[i].layer, rs.layers, "layer");
            element(path + ".result", rs.errata[i].result_kind, rs.errata[i].result);
            prov(path + ".prov", rs.errata[i].prov);
        }
        recursion();
        turn_endings();
        tested_dos();
        secrets();
    }
};

}  // namespace

std::string check_integrity(const ruleset& rs) {
    try {
        checker{rs}.run();
    } catch (const problem& p) {
        return p.message;
    }
    return {};
}

}  // namespace wp::ir
