// Pass `typecheck`: every expression and statement checked against the declarations and turned
// into typed IR nodes (the flat node array is the typed tree: no second walk is needed).
// After typecheck: every name in a body is a local, a slot, a table index or an enum member;
// every node has its type. A node whose children failed is not reported again (error_type is
// compatible with everything). This file holds the constants and expressions;
// typecheck_statements.cpp the statements.
#include "context.hpp"

#include <algorithm>
#include <limits>

namespace wp::compiler::detail {

// ---------------------------------------------------------------- type relations

bool is_int(const context& cx, ir::id t) {
    if (t == error_type) return true;
    const auto k = cx.type_at(t).kind;
    return k == ir::type_kind::integer || k == ir::type_kind::range;
}

bool compatible(const context& cx, ir::id from, ir::id to) {
    if (from == error_type || to == error_type || from == to) return true;
    if (is_int(cx, from) && is_int(cx, to)) return true;
    const ir::type& a = cx.type_at(from);
    const ir::type& b = cx.type_at(to);
    if (a.kind != b.kind) return false;
    switch (a.kind) {
        case ir::type_kind::list_of: return compatible(cx, a.value, b.value);
        case ir::type_kind::map_of: return compatible(cx, a.key, b.key) && compatible(cx, a.value, b.value);
        case ir::type_kind::enumeration: case ir::type_kind::record: case ir::type_kind::entity: case ir::type_kind::zone:
        case ir::type_kind::node:
            return a.ref == b.ref;
        default: return true;
    }
}

namespace {

std::string member_list(const context& cx, ir::id e) {
    std::string s;
    const auto& ms = cx.rs.enums[e].members;
    for (std::size_t i = 0; i < ms.size() && i < 12; ++i) s += (i ? ", " : "") + ms[i].name;
    if (ms.size() > 12) s += ", …";
    return s;
}

}  // namespace

std::optional<std::int64_t> literal_int(const dsl::expr& e) {
    if (e.kind == dsl::expr_kind::integer) return e.value;
    if (e.kind == dsl::expr_kind::unary && e.text == "-" && e.args.size() == 1 && e.args[0].kind == dsl::expr_kind::integer &&
        e.args[0].value != std::numeric_limits<std::int64_t>::min())
        return -e.args[0].value;
    return std::nullopt;
}

void out_of_bounds(context& cx, const dsl::span& where, std::int64_t v, const ir::type& t, const std::string& what) {
    cx.sink.error(dsl::diag_kind::value_out_of_bounds, where,
                  what + " is " + std::to_string(v) + ", outside its range " + std::to_string(t.lo) + ".." +
                      std::to_string(t.hi));
}

// ---------------------------------------------------------------- constants

// `none`: no player, card, piece or location (docs/language.md §2), typed by where it stands.
static bool is_none(const dsl::expr& e) { return e.kind == dsl::expr_kind::name && e.text == "none"; }

static bool none_type(const context& cx, ir::id t) {
    if (t == ir::no_id || t == error_type) return false;
    const ir::type_kind k = cx.rs.types.at(t).kind;
    return k == ir::type_kind::player || k == ir::type_kind::entity || k == ir::type_kind::node;
}

std::optional<std::int64_t> constant(context& cx, const dsl::expr& e, ir::id want, const std::string& what) {
    if (want == error_type) return std::nullopt;
    const ir::type& t = cx.type_at(want);
    auto mismatch = [&](const std::string& expected) -> std::optional<std::int64_t> {
        cx.sink.error(dsl::diag_kind::type_mismatch, e.where, what + " must be " + expected);
        return std::nullopt;
    };
    switch (t.kind) {
        case ir::type_kind::boolean:
            if (e.kind != dsl::expr_kind::boolean) return mismatch("`true` or `false`");
            return e.value;
        case ir::type_kind::integer:
        case ir::type_kind::range: {
            const auto v = literal_int(e);
            if (!v) return mismatch("a whole number");
            if (t.kind == ir::type_kind::range && (*v < t.lo || *v > t.hi)) {
                out_of_bounds(cx, e.where, *v, t, what);
                return std::nullopt;
            }
            return *v;
        }
        case ir::type_kind::string:
            if (e.kind != dsl::expr_kind::string) return mismatch("a text in quotes");
            return cx.string_id(e.text);
        case ir::type_kind::enumeration: {
            if (e.kind != dsl::expr_kind::name) return mismatch("one of " + member_list(cx, t.ref));
            const auto& ms = cx.rs.enums[t.ref].members;
            for (std::size_t i = 0; i < ms.size(); ++i)
                if (ms[i].name == e.text) return static_cast<std::int64_t>(i);
            std::vector<std::string> names;
            for (const auto& m : ms) names.push_back(m.name);
            cx.unknown({e.text, e.where}, "member of `" + cx.rs.enums[t.ref].name + "`", names,
                       {{std::nullopt, "the members are " + member_list(cx, t.ref)}});
            return std::nullopt;
        }
        case ir::type_kind::player:
            if (is_none(e)) return -1;
            return mismatch("`none` (players are not named in the rules; their seats are given in play)");
        case ir::type_kind::entity: {
            if (e.kind != dsl::expr_kind::name) return mismatch("a " + cx.rs.entity_kinds[t.ref].name);
            if (is_none(e) && !cx.values.count(e.text)) return -1;
            auto it = cx.values.find(e.text);
            if (it == cx.values.end() || it->second.kind != sym::entity ||
                cx.rs.entities[it->second.index].kind != t.ref) {
                std::vector<std::string> names;
                const auto& k = cx.rs.entity_kinds[t.ref];
                for (std::uint32_t i = 0; i < k.entity_count; ++i) names.push_back(cx.rs.entities[k.first_entity + i].name);
                cx.unknown({e.text, e.where}, cx.rs.entity_kinds[t.ref].name, names);
                return std::nullopt;
            }
            return it->second.index;
        }
        case ir::type_kind::node: {
            const ir::map& m = cx.rs.maps[t.ref];
            std::string wanted = e.kind == dsl::expr_kind::name ? e.text : std::string();
            if (e.kind == dsl::expr_kind::integer && m.kind == ir::map_kind::hexgrid && e.value >= 0 && e.value <= 9999) {
                wanted = std::to_string(e.value);
                wanted.insert(0, 4 - wanted.size(), '0');
            }
            if (wanted.empty()) return mismatch("a location of map `" + m.name + "`");
            if (is_none(e) && !cx.values.count(e.text)) return -1;
            for (std::size_t i = 0; i < m.nodes.size(); ++i)
                if (m.nodes[i].name == wanted) return static_cast<std::int64_t>(i);
            std::vector<std::string> names;
            for (const auto& n : m.nodes) names.push_back(n.name);
            cx.unknown({wanted, e.where}, "location of map `" + m.name + "`:", names);
            return std::nullopt;
        }
        default: return mismatch("a constant of a simple type (" + cx.type_text(want) + " has no constants)");
    }
}

// ---------------------------------------------------------------- the body checker

body_checker::body_checker(context& cx, frame_info frame) : cx_(cx), frame_(frame) {
    // Parameters are the first locals and in scope from the start.
    for (std::size_t i = 0; i < frame_.params && i < frame_.locals->size(); ++i)
        scope_.emplace_back((*frame_.locals)[i].name, static_cast<ir::id>(i));
}

ir::id body_checker::bind(const std::string& name, ir::id type) {
    const auto id = static_cast<ir::id>(frame_.locals->size());
    frame_.locals->push_back({name, type});  // error_type only when the compile fails anyway
    scope_.emplace_back(name, id);
    return id;
}

void body_checker::push_scope() { marks_.push_back(scope_.size()); }

void body_checker::pop_scope() {
    scope_.resize(marks_.back());
    marks_.pop_back();
}

std::optional<ir::id> body_checker::lookup_local(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
        if (it->first == name) return it->second;
    return std::nullopt;
}

ir::id body_checker::emit(ir::op code, ir::id type, std::int64_t value, ir::id ref, const std::vector<ir::id>& kids,
                          const dsl::span& where) {
    ir::node n;
    n.code = code;
    n.type = type;
    n.value = value;
    n.ref = ref;
    n.first_child = static_cast<ir::id>(cx_.rs.children.size());
    n.child_count = static_cast<std::uint32_t>(kids.size());
    cx_.rs.children.insert(cx_.rs.children.end(), kids.begin(), kids.end());
    n.where = cx_.pos(where);
    n.layer = frame_.layer;
    cx_.rs.nodes.push_back(n);
    const auto at = static_cast<ir::id>(cx_.rs.nodes.size() - 1);
    if (code == ir::op::quantity || code == ir::op::decide || code == ir::op::roll || code == ir::op::builtin)
        cx_.call_spans[at] = where;
    return at;
}

ir::id body_checker::absent(const dsl::span& where) { return emit(ir::op::absent, cx_.t_void, 0, ir::no_id, {}, where); }

ir::id body_checker::and_all(const std::vector<ir::id>& conditions, const dsl::span& where) {
    if (conditions.empty()) return ir::no_id;
    ir::id acc = conditions.front();
    for (std::size_t i = 1; i < conditions.size(); ++i) acc = emit(ir::op::and_, cx_.t_bool, 0, ir::no_id, {acc, conditions[i]}, where);
    return acc;
}

ir::id body_checker::element_type(ir::id t) const {
    if (t == error_type) return error_type;
    const ir::type& x = cx_.type_at(t);
    if (x.kind == ir::type_kind::list_of) return x.value;
    if (x.kind == ir::type_kind::zone) {
        ir::type e;
        e.kind = ir::type_kind::entity;
        e.ref = x.ref;
        return cx_.intern(e);
    }
    return error_type;
}

bool body_checker::member_only(const dsl::expr& e) const {
    return e.kind == dsl::expr_kind::name && !lookup_local(e.text) && !cx_.values.count(e.text) &&
           cx_.members.count(e.text) > 0;
}

typed body_checker::expect(const dsl::expr& e, ir::id want, const char* role) {
    typed t = expr(e, want);
    if (!t.ok() || want == error_type) return t;
    if (!compatible(cx_, t.type, want)) {
        cx_.sink.error(dsl::diag_kind::type_mismatch, e.where,
                       std::string(role) + " must be " + cx_.type_text(want) + ", but this is " + cx_.type_text(t.type));
        return {};
    }
    return t;
}

typed body_checker::expr(const dsl::expr& e, ir::id expected) {
    switch (e.kind) {
        case dsl::expr_kind::none: return {absent(e.where), cx_.t_void};
        case dsl::expr_kind::integer: return {emit(ir::op::const_int, cx_.t_int, e.value, ir::no_id, {}, e.where), cx_.t_int};
        case dsl::expr_kind::boolean:
            return {emit(ir::op::const_bool, cx_.t_bool, e.value, ir::no_id, {}, e.where), cx_.t_bool};
        case dsl::expr_kind::string:
            return {emit(ir::op::const_string, cx_.t_string, cx_.string_id(e.text), ir::no_id, {}, e.where), cx_.t_string};
        case dsl::expr_kind::dice: {
            const dsl::dice_spec& d = e.dice;
            if (d.count < 1 || d.count > 1000 || d.low > d.high || d.high > 1000000 || d.low < -1000000) {
                cx_.sink.error(dsl::diag_kind::bad_dice, e.where, "this dice term is not something a table can roll");
                return {};
            }
            const auto ref = static_cast<ir::id>(cx_.rs.dice_terms.size());
            cx_.rs.dice_terms.push_back({d.count, d.low, d.high});
            const ir::id t = cx_.range_type(d.count * d.low, d.count * d.high, ir::overflow::none);
            return {emit(ir::op::dice, t, 0, ref, {}, e.where), t};
        }
        case dsl::expr_kind::name: return name_expr(e, expected);
        case dsl::expr_kind::option_ref: {
            auto it = cx_.option_names.find(e.text);
            if (it == cx_.option_names.end()) {
                std::vector<std::string> names;
                for (const auto& [n, s] : cx_.option_names) names.push_back(n);
                cx_.unknown({e.text, e.where}, "option", names);
                return {};
            }
            const ir::id t = cx_.rs.options[it->second.index].type;
            if (t == ir::no_id) return {};
            return {emit(ir::op::option, t, 0, it->second.index, {}, e.where), t};
        }
        case dsl::expr_kind::member: return member_expr(e);
        case dsl::expr_kind::index: return index_expr(e);
        case dsl::expr_kind::call: return call_expr(e, expected);
        case dsl::expr_kind::roll: {
            auto it = cx_.values.find(e.text);
            if (it == cx_.values.end()) {
                std::vector<std::string> rolls;
                for (const auto& [n, s] : cx_.values)
                    if (s.kind == sym::roll) rolls.push_back(n);
                cx_.unknown({e.text, e.where}, "roll", rolls);
                return {};
            }
            if (it->second.kind != sym::roll) {
                cx_.wrong_kind({e.text, e.where}, it->second, "a roll");
                return {};
            }
            const ir::roll& r = cx_.rs.rolls[it->second.index];
            std::vector<ir::id> kids;
            if (!args_for(e, r.name, r.locals, r.param_count, kids, e.where, e.args).ok()) return {};
            return {emit(ir::op::roll, cx_.t_int, 0, it->second.index, kids, e.where), cx_.t_int};
        }
        case dsl::expr_kind::unary: {
            if (e.args.empty()) return {};
            if (e.text == "not") {
                typed a = expect(e.args[0], cx_.t_bool, "the operand of `not`");
                if (!a.ok()) return {};
                return {emit(ir::op::not_, cx_.t_bool, 0, ir::no_id, {a.node}, e.where), cx_.t_bool};
            }
            typed a = expr(e.args[0]);
            if (!a.ok()) return {};
            if (!is_int(cx_, a.type)) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, e.args[0].where,
                               "`-` needs a number, but this is " + cx_.type_text(a.type));
                return {};
            }
            return {emit(ir::op::neg, cx_.t_int, 0, ir::no_id, {a.node}, e.where), cx_.t_int};
        }
        case dsl::expr_kind::binary: return binary_expr(e);
        case dsl::expr_kind::conditional: {
            if (e.args.size() != 3) return {};
            typed c = expect(e.args[0], cx_.t_bool, "the condition of `if … then … else`");
            typed a = expr(e.args[1], expected);
            typed b = expr(e.args[2], a.ok() ? a.type : expected);
            if (!c.ok() || !a.ok() || !b.ok()) return {};
            if (!compatible(cx_, b.type, a.type)) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, e.args[2].where,
                               "the two branches give different kinds of value: " + cx_.type_text(a.type) + " and " +
                                   cx_.type_text(b.type));
                return {};
            }
            const ir::id t = (is_int(cx_, a.type) && a.type != b.type) ? cx_.t_int : a.type;
            return {emit(ir::op::cond, t, 0, ir::no_id, {c.node, a.node, b.node}, e.where), t};
        }
        case dsl::expr_kind::aggregate: return aggregate_expr(e);
        case dsl::expr_kind::range: return range_expr(e, false);
        case dsl::expr_kind::dice_count: return dice_count_expr(e);
    }
    return {};
}

typed body_checker::name_expr(const dsl::expr& e, ir::id expected) {
    if (auto l = lookup_local(e.text)) {
        const ir::id t = (*frame_.locals)[*l].type;
        if (t == error_type) return {};  // its definition already failed
        return {emit(ir::op::local, t, 0, *l, {}, e.where), t};
    }
    // `none` of the expected player, card, piece or location type (a declared value of that name wins).
    if (is_none(e) && none_type(cx_, expected) && !cx_.values.count(e.text) && !member_only(e)) {
        const ir::type_kind k = cx_.type_at(expected).kind;
        const ir::op code = k == ir::type_kind::entity ? ir::op::const_entity : k == ir::type_kind::node ? ir::op::const_node : ir::op::const_int;
        return {emit(code, expected, -1, ir::no_id, {}, e.where), expected};
    }
    // An enum member of the expected type wins over other meanings of the name.
    if (expected != ir::no_id && expected != error_type && cx_.type_at(expected).kind == ir::type_kind::enumeration &&
        !cx_.values.count(e.text)) {
        const ir::id en = cx_.type_at(expected).ref;
        const auto& ms = cx_.rs.enums[en].members;
        for (std::size_t i = 0; i < ms.size(); ++i)
            if (ms[i].name == e.text)
                return {emit(ir::op::const_member, expected, static_cast<std::int64_t>(i), ir::no_id, {}, e.where), expected};
        if (!cx_.members.count(e.text) && !cx_.types.count(e.text) && e.text != "players" && e.text != "active_player") {
            std::vector<std::string> names;
            for (const auto& m : ms) names.push_back(m.name);
            cx_.unknown({e.text, e.where}, "member of `" + cx_.rs.enums[en].name + "`", names,
                        {{std::nullopt, "the members are " + member_list(cx_, en)}});
            return {};
        }
    }
    if (auto it = cx_.values.find(e.text); it != cx_.values.end()) {
        const symbol& s = it->second;
        switch (s.kind) {
            case sym::slot: {
                const ir::slot& sl = cx_.rs.slots[s.index];
                if (sl.type == error_type) return {};
                if (sl.scope != ir::slot_scope::global) {
                    const char* per = sl.scope == ir::slot_scope::per_player ? "per player" : "per card, piece or location";
                    const char* x = sl.scope == ir::slot_scope::per_player ? "p" : "x";
                    cx_.sink.error(dsl::diag_kind::type_mismatch, e.where,
                                   "`" + e.text + "` is kept " + per + ": write `" + x + "." + e.text + "` or `" + e.text +
                                       "[" + x + "]`",
                                   {{s.where, "`" + e.text + "` is declared here"}});
                    return {};
                }
                return {emit(ir::op::global, sl.type, 0, s.index, {}, e.where), sl.type};
            }
            case sym::entity: {
                ir::type t;
                t.kind = ir::type_kind::entity;
                t.ref = cx_.rs.entities[s.index].kind;
                const ir::id ty = cx_.intern(t);
                return {emit(ir::op::const_entity, ty, s.index, ir::no_id, {}, e.where), ty};
            }
            case sym::map_node: {
                const ir::id ty = cx_.rs.maps[s.extra].node_type;
                return {emit(ir::op::const_node, ty, s.index, ir::no_id, {}, e.where), ty};
            }
            case sym::zone: {
                const ir::zone& z = cx_.rs.zones[s.index];
                if (z.entity_kind == ir::no_id) return {};
                ir::type t;
                t.kind = ir::type_kind::zone;
                t.ref = z.entity_kind;
                ir::id ty = cx_.intern(t);
                if (z.per_player) ty = cx_.map_of(cx_.t_player, ty);
                else if (z.map != ir::no_id) ty = cx_.map_of(cx_.rs.maps[z.map].node_type, ty);
                return {emit(ir::op::zone, ty, 0, s.index, {}, e.where), ty};
            }
            case sym::derived: case sym::decision: case sym::table: {
                dsl::expr call = e;
                call.kind = dsl::expr_kind::call;
                return call_expr(call, expected);
            }
            case sym::roll:
                cx_.sink.error(dsl::diag_kind::wrong_kind_of_name, e.where,
                               "`" + e.text + "` is a roll: write `roll " + e.text + "` to roll it",
                               {{s.where, "`" + e.text + "` is declared here"}});
                return {};
            default: cx_.wrong_kind({e.text, e.where}, s, "a value"); return {};
        }
    }
    if (e.text == "players") {
        const ir::id t = cx_.list_of(cx_.t_player);
        return {emit(ir::op::builtin, t, 0, static_cast<ir::id>(ir::builtin::players), {}, e.where), t};
    }
    if (e.text == "active_player")
        return {emit(ir::op::builtin, cx_.t_player, 0, static_cast<ir::id>(ir::builtin::active_player), {}, e.where), cx_.t_player};
    // A unique enum member.
    const auto [b, end] = cx_.members.equal_range(e.text);
    if (b != end) {
        if (std::next(b) != end) {
            std::string enums;
            for (auto it = b; it != end; ++it) enums += (enums.empty() ? "`" : ", `") + cx_.rs.enums[it->second.first].name + "`";
            cx_.sink.error(dsl::diag_kind::wrong_kind_of_name, e.where,
                           "`" + e.text + "` is a member of several enums (" + enums +
                               "), and nothing here says which one is meant",
                           {{std::nullopt, "compare it with a value of the enum you mean, or rename one of the members"}});
            return {};
        }
        ir::type t;
        t.kind = ir::type_kind::enumeration;
        t.ref = b->second.first;
        const ir::id ty = cx_.intern(t);
        return {emit(ir::op::const_member, ty, b->second.second, ir::no_id, {}, e.where), ty};
    }
    // A type name as the collection of all its members.
    if (auto it = cx_.types.find(e.text); it != cx_.types.end()) {
        ir::id element = error_type;
        const symbol& s = it->second;
        ir::type t;
        if (s.kind == sym::enumeration) { t.kind = ir::type_kind::enumeration; t.ref = s.index; element = cx_.intern(t); }
        else if (s.kind == sym::entity_kind) { t.kind = ir::type_kind::entity; t.ref = s.index; element = cx_.intern(t); }
        else if (s.kind == sym::map) element = cx_.rs.maps[s.index].node_type;
        else if (s.kind == sym::builtin_type && s.index == cx_.t_player) {
            const ir::id lt = cx_.list_of(cx_.t_player);
            return {emit(ir::op::builtin, lt, 0, static_cast<ir::id>(ir::builtin::players), {}, e.where), lt};
        }
        if (element != error_type) {
            const ir::id lt = cx_.list_of(element);
            return {emit(ir::op::type_members, lt, 0, element, {}, e.where), lt};
        }
        cx_.wrong_kind({e.text, e.where}, s, "a value");
        return {};
    }
    if (is_none(e)) {
        cx_.sink.error(dsl::diag_kind::type_mismatch, e.where,
                       expected == ir::no_id || expected == error_type
                           ? "`none` of what? nothing here says whether it is no player, no card or piece, or no location"
                           : "`none` is no player, card, piece or location; this is " + cx_.type_text(expected),
                       {{std::nullopt, "compare it with, or give it to, a value of that type (`leader == none`, `home = none;`)"}});
        return {};
    }
    std::vector<std::string> candidates = cx_.value_names();
    for (const auto& [n, l] : scope_) candidates.push_back(n);
    for (const auto& [n, m] : cx_.members) candidates.push_back(n);
    candidates.push_back("players");
    candidates.push_back("active_player");
    cx_.unknown({e.text, e.where}, "name", candidates);
    return {};
}

typed body_checker::member_expr(const dsl::expr& e) {
    if (e.args.empty()) return {};
    typed base = expr(e.args[0]);
    if (!base.ok()) return {};
    const ir::type& t = cx_.type_at(base.type);
    const std::string& f = e.text;
    const dsl::name field{f, dsl::span{e.where.file, e.where.end - static_cast<std::uint32_t>(std::min<std::size_t>(f.size(), e.where.end)), e.where.end}};
    std::vector<std::string> candidates;
    auto slot_of = [&](ir::slot_scope scope, ir::id owner) -> std::optional<ir::id> {
        for (std::size_t i = 0; i < cx_.rs.slots.size(); ++i) {
            const ir::slot& s = cx_.rs.slots[i];
            if (s.scope != scope) continue;
            if (scope == ir::slot_scope::per_entity && s.entity_kind != owner) continue;
            if (scope == ir::slot_scope::per_node && s.map != owner) continue;
            candidates.push_back(s.name);
            if (s.name == f) return static_cast<ir::id>(i);
        }
        return std::nullopt;
    };
    auto slot_read = [&](ir::id s) -> typed {
        const ir::id ty = cx_.rs.slots[s].type;
        if (ty == error_type) return {};
        return {emit(ir::op::entity_field, ty, 0, s, {base.node}, e.where), ty};
    };
    switch (t.kind) {
        case ir::type_kind::player:
            if (auto s = slot_of(ir::slot_scope::per_player, ir::no_id)) {
                const ir::id ty = cx_.rs.slots[*s].type;
                if (ty == error_type) return {};
                return {emit(ir::op::player_field, ty, 0, *s, {base.node}, e.where), ty};
            }
            cx_.unknown(field, "per-player field", candidates);
            return {};
        case ir::type_kind::entity: {
            const ir::entity_kind& k = cx_.rs.entity_kinds[t.ref];
            if (k.record != ir::no_id) {
                const auto& fields = cx_.rs.records[k.record].fields;
                for (std::size_t i = 0; i < fields.size(); ++i) {
                    candidates.push_back(fields[i].name);
                    if (fields[i].name == f) {
                        if (fields[i].type == error_type) return {};
                        return {emit(ir::op::attribute, fields[i].type, 0, static_cast<ir::id>(i), {base.node}, e.where),
                                fields[i].type};
                    }
                }
            }
            if (auto s = slot_of(ir::slot_scope::per_entity, t.ref)) return slot_read(*s);
            cx_.unknown(field, "field of `" + k.name + "`", candidates);
            return {};
        }
        case ir::type_kind::node: {
            const ir::map& m = cx_.rs.maps[t.ref];
            for (std::size_t i = 0; i < m.attributes.size(); ++i) {
                candidates.push_back(m.attributes[i].name);
                if (m.attributes[i].name == f)
                    return {emit(ir::op::node_attribute, m.attributes[i].type, 0, static_cast<ir::id>(i), {base.node}, e.where),
                            m.attributes[i].type};
            }
            if (auto s = slot_of(ir::slot_scope::per_node, t.ref)) return slot_read(*s);
            if (f == "terrain" && m.terrain_enum != ir::no_id) {
                ir::type et;
                et.kind = ir::type_kind::enumeration;
                et.ref = m.terrain_enum;
                const ir::id ty = cx_.intern(et);
                return {emit(ir::op::builtin, ty, 0, static_cast<ir::id>(ir::builtin::terrain), {base.node}, e.where), ty};
            }
            cx_.unknown(field, "attribute of map `" + m.name + "`", candidates);
            return {};
        }
        case ir::type_kind::record: {
            const auto& fields = cx_.rs.records[t.ref].fields;
            for (std::size_t i = 0; i < fields.size(); ++i) {
                candidates.push_back(fields[i].name);
                if (fields[i].name == f)
                    return {emit(ir::op::record_field, fields[i].type, 0, static_cast<ir::id>(i), {base.node}, e.where),
                            fields[i].type};
            }
            cx_.unknown(field, "field of `" + cx_.rs.records[t.ref].name + "`", candidates);
            return {};
        }
        default:
            cx_.sink.error(dsl::diag_kind::type_mismatch, e.args[0].where,
                           "`." + f + "` reads a field of a player, card, piece, map location or record, but this is " +
                               cx_.type_text(base.type));
            return {};
    }
}

typed body_checker::index_expr(const dsl::expr& e) {
    if (e.args.size() != 2) return {};
    const dsl::expr& base = e.args[0];
    // `gold[p]`, `undisciplined[c]`: a per-player/per-entity/per-node field indexed by its owner.
    if (base.kind == dsl::expr_kind::name && !lookup_local(base.text)) {
        auto it = cx_.values.find(base.text);
        if (it != cx_.values.end() && it->second.kind == sym::slot) {
            const ir::slot& s = cx_.rs.slots[it->second.index];
            if (s.type == error_type) return {};
            if (s.scope != ir::slot_scope::global) {
                ir::id owner = cx_.t_player;
                ir::type t;
                if (s.scope == ir::slot_scope::per_entity) {
                    t.kind = ir::type_kind::entity;
                    t.ref = s.entity_kind;
                    owner = cx_.intern(t);
                } else if (s.scope == ir::slot_scope::per_node) {
                    owner = cx_.rs.maps[s.map].node_type;
                }
                typed k = expect(e.args[1], owner, ("the index of `" + base.text + "`").c_str());
                if (!k.ok()) return {};
                const ir::op code = s.scope == ir::slot_scope::per_player ? ir::op::player_field : ir::op::entity_field;
                return {emit(code, s.type, 0, it->second.index, {k.node}, e.where), s.type};
            }
        }
    }
    typed b = expr(base);
    if (!b.ok()) return {};
    const ir::type& t = cx_.type_at(b.type);
    if (t.kind != ir::type_kind::map_of) {
        cx_.sink.error(dsl::diag_kind::type_mismatch, base.where,
                       "`[…]` picks one value of something kept per player, per member or per card; this is " +
                           cx_.type_text(b.type));
        return {};
    }
    const ir::id key = t.key;
    const ir::id value = t.value;
    typed k = expect(e.args[1], key, "the index");
    if (!k.ok()) return {};
    return {emit(ir::op::index, value, 0, ir::no_id, {b.node, k.node}, e.where), value};
}

typed body_checker::args_for(const dsl::expr& e, const std::string& callee, const std::vector<ir::local>& params,
                             std::uint32_t count, std::vector<ir::id>& kids, const dsl::span& where,
                             const std::vector<dsl::expr>& args) {
    (void)e;
    if (args.size() != count) {
        std::string sig;
        for (std::uint32_t i = 0; i < count && i < params.size(); ++i)
            sig += (i ? ", " : "") + params[i].name + ": " + ir::type_name(cx_.rs, params[i].type);
        cx_.sink.error(dsl::diag_kind::wrong_arity, where,
                       "`" + callee + "` takes " + std::to_string(count) + (count == 1 ? " argument" : " arguments") +
                           (count ? " (" + sig + ")" : std::string()) + ", not " + std::to_string(args.size()));
        return {};
    }
    bool ok = true;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string role = "argument " + std::to_string(i + 1) + " of `" + callee + "` (" + params[i].name + ")";
        typed a = expect(args[i], params[i].type, role.c_str());
        if (!a.ok()) ok = false;
        kids.push_back(a.node);
    }
    return ok ? typed{ir::no_id, cx_.t_void} : typed{};
}

typed body_checker::call_expr(const dsl::expr& e, ir::id expected) {
    (void)expected;
    static const std::map<std::string, ir::builtin> builtins = {
        {"players", ir::builtin::players}, {"active_player", ir::builtin::active_player},
        {"opponents", ir::builtin::opponents}, {"count", ir::builtin::count}, {"size", ir::builtin::size},
        {"top", ir::builtin::top}, {"min", ir::builtin::min}, {"max", ir::builtin::max}, {"abs", ir::builtin::abs},
        {"ceil_div", ir::builtin::ceil_div}, {"floor_div", ir::builtin::floor_div}, {"odds", ir::builtin::odds},
        {"adjacent", ir::builtin::adjacent}, {"distance", ir::builtin::distance},
        {"neighbours", ir::builtin::neighbours}, {"edge_kind", ir::builtin::edge_kind},
        {"hexside", ir::builtin::hexside}, {"terrain", ir::builtin::terrain}, {"path_exists", ir::builtin::path_exists},
        {"line_blocked", ir::builtin::line_blocked}, {"path_length", ir::builtin::path_length}};
    if (auto b = builtins.find(e.text); b != builtins.end()) return builtin_call(e, b->second);
    if (e.text == "in_force" && !cx_.values.count(e.text)) return in_force_expr(e);
    const dsl::name callee{e.text, dsl::span{e.where.file, e.where.begin, e.where.begin + static_cast<std::uint32_t>(e.text.size())}};
    auto it = cx_.values.find(e.text);
    if (it == cx_.values.end()) {
        std::vector<std::string> names;
        for (const auto& [n, s] : cx_.values)
            if (s.kind == sym::derived || s.kind == sym::decision || s.kind == sym::table) names.push_back(n);
        for (const auto& [n, b] : builtins) names.push_back(n);
        cx_.unknown(callee, "quantity, predicate, decision or table", names);
        return {};
    }
    const symbol& s = it->second;
    std::vector<ir::id> kids;
    switch (s.kind) {
        case sym::derived: {
            const ir::derived& d = cx_.rs.quantities[s.index];
            if (!args_for(e, d.name, d.locals, d.param_count, kids, e.where, e.args).ok() || d.result == error_type) return {};
            return {emit(ir::op::quantity, d.result, 0, s.index, kids, e.where), d.result};
        }
        case sym::decision: {
            const ir::decision& d = cx_.rs.decisions[s.index];
            if (!args_for(e, d.name, d.params, static_cast<std::uint32_t>(d.params.size()), kids, e.where, e.args).ok() ||
                d.result == error_type)
                return {};
            return {emit(ir::op::decide, d.result, 0, s.index, kids, e.where), d.result};
        }
        case sym::table: {
            const ir::table& t = cx_.rs.tables[s.index];
            if (!args_for(e, t.name, t.locals, t.param_count, kids, e.where, e.args).ok()) return {};
            if (t.outcome_type == ir::no_id || t.outcome_type == error_type) {
                if (t.outcome_type == ir::no_id)
                    cx_.sink.error(dsl::diag_kind::type_mismatch, e.where,
                                   "table `" + t.name + "` has no outcomes (no labels or cell values) to use as a value",
                                   {{s.where, "use `resolve " + t.name + "(…);` to apply its effects"}});
                return {};
            }
            return {emit(ir::op::lookup, t.outcome_type, 0, s.index, kids, e.where), t.outcome_type};
        }
        case sym::roll:
            cx_.sink.error(dsl::diag_kind::wrong_kind_of_name, callee.where,
                           "`" + e.text + "` is a roll: write `roll " + e.text + "(…)` to roll it",
                           {{s.where, "`" + e.text + "` is declared here"}});
            return {};
        case sym::action:
            cx_.sink.error(dsl::diag_kind::wrong_kind_of_name, callee.where,
                           "`" + e.text + "` is an action; perform it with `do " + e.text + "(…);`",
                           {{s.where, "`" + e.text + "` is declared here"}});
            return {};
        default: cx_.wrong_kind(callee, s, "something with a value (a quantity, predicate, decision or table)"); return {};
    }
}

typed body_checker::builtin_call(const dsl::expr& e, ir::builtin b) {
    const std::string name = ir::name_of(b);
    auto arity = [&](std::size_t n) {
        if (e.args.size() == n) return true;
        cx_.sink.error(dsl::diag_kind::wrong_arity, e.where,
                       "`" + name + "` takes " + std::to_string(n) + (n == 1 ? " argument" : " arguments") + ", not " +
                           std::to_string(e.args.size()));
        return false;
    };
    auto done = [&](ir::id type, const std::vector<ir::id>& kids, std::int64_t value = 0) -> typed {
        if (type == error_type) return {};
        return {emit(ir::op::builtin, type, value, static_cast<ir::id>(b), kids, e.where), type};
    };
    auto node_arg = [&](const dsl::expr& a, ir::id same_map) -> typed {
        typed t = expr(a);
        if (!t.ok()) return {};
        if (cx_.type_at(t.type).kind != ir::type_kind::node || (same_map != ir::no_id && t.type != same_map)) {
            cx_.sink.error(dsl::diag_kind::type_mismatch, a.where,
                           "`" + name + "` needs " + (same_map != ir::no_id ? cx_.type_text(same_map) : std::string("a map location")) +
                               ", but this is " + cx_.type_text(t.type));
            return {};
        }
        return t;
    };
    // `n` arguments, the first two locations of one map.
    auto two_locations = [&](std::size_t n, typed& x, typed& y) {
        if (!arity(n)) return false;
        x = node_arg(e.args[0], ir::no_id);
        if (!x.ok()) return false;
        y = node_arg(e.args[1], x.type);
        return y.ok();
    };
    auto map_of_node = [&](ir::id node_type) -> const ir::map& { return cx_.rs.maps[cx_.type_at(node_type).ref]; };
    // The predicate of a map search (path_exists, path_length, line_blocked) and the extra
    // arguments it is given: `p` is a bare name (every parameter a location, `one` or `other`
    // of them) or a call `pred(_, …, x, …)` whose leading `_` stand for the locations (`one`
    // or `other` of them) and whose other arguments are typed against the parameters after
    // them and appended to `kids`. `forms` says what the forms are, for the messages.
    // no_id after reporting an error.
    auto search_predicate = [&](const dsl::expr& p, ir::id t, std::uint32_t one, std::uint32_t other, const std::string& forms,
                                std::vector<ir::id>& kids) -> ir::id {
        const std::string third = "the third argument of `" + name + "`";
        const bool call = p.kind == dsl::expr_kind::call;
        if (p.kind != dsl::expr_kind::name && !call) {
            cx_.sink.error(dsl::diag_kind::type_mismatch, p.where,
                           third + " names a predicate of " + forms + ", with `_` for the locations when it takes more (`pred(_, x)`)");
            return ir::no_id;
        }
        const dsl::name callee{p.text, dsl::span{p.where.file, p.where.begin, p.where.begin + static_cast<std::uint32_t>(p.text.size())}};
        auto it = cx_.values.find(p.text);
        if (it == cx_.values.end()) {
            std::vector<std::string> names;
            for (const auto& [n, sy] : cx_.values)
                if (sy.kind == sym::derived && cx_.rs.quantities[sy.index].predicate) names.push_back(n);
            cx_.unknown(callee, "predicate", names);
            return ir::no_id;
        }
        if (it->second.kind != sym::derived || !cx_.rs.quantities[it->second.index].predicate) {
            cx_.sink.error(dsl::diag_kind::type_mismatch, callee.where,
                           third + " names a predicate of " + forms + ", but `" + p.text + "` is not a predicate",
                           {{it->second.where, "`" + p.text + "` is declared here"}});
            return ir::no_id;
        }
        const ir::derived& q = cx_.rs.quantities[it->second.index];
        if (!call) {
            bool fits = q.param_count == one || q.param_count == other;
            for (std::uint32_t i = 0; fits && i < q.param_count; ++i) fits = compatible(cx_, t, q.locals[i].type);
            if (!fits) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, p.where,
                               third + " names a predicate of " + forms + "; give the other arguments of `" + p.text +
                                   "` after `_` for the locations (`" + p.text + "(_, …)`)",
                               {{it->second.where, "`" + p.text + "` is declared here"}});
                return ir::no_id;
            }
            return it->second.index;
        }
        auto placeholder = [](const dsl::expr& a) { return a.kind == dsl::expr_kind::name && a.text == "_"; };
        std::uint32_t places = 0;
        while (places < p.args.size() && placeholder(p.args[places])) ++places;
        for (std::size_t i = places; i < p.args.size(); ++i)
            if (placeholder(p.args[i])) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, p.args[i].where,
                               "`_` stands for a location the search supplies: the `_` come first, before the other arguments");
                return ir::no_id;
            }
        if (places != one && places != other) {
            cx_.sink.error(dsl::diag_kind::wrong_arity, p.where,
                           "in `" + name + "`, `" + p.text + "(…)` needs " + std::to_string(one) + " or " + std::to_string(other) +
                               " `_` first, for the locations the search supplies, not " + std::to_string(places));
            return ir::no_id;
        }
        if (p.args.size() != q.param_count) {
            std::string sig;
            for (std::uint32_t i = 0; i < q.param_count && i < q.locals.size(); ++i)
                sig += (i ? ", " : "") + q.locals[i].name + ": " + ir::type_name(cx_.rs, q.locals[i].type);
            cx_.sink.error(dsl::diag_kind::wrong_arity, p.where,
                           "`" + p.text + "` takes " + std::to_string(q.param_count) +
                               (q.param_count == 1 ? " argument" : " arguments") + " (" + sig + "), not " + std::to_string(p.args.size()),
                           {{it->second.where, "`" + p.text + "` is declared here"}});
            return ir::no_id;
        }
        bool ok = true;
        for (std::uint32_t i = 0; i < places; ++i)
            if (!compatible(cx_, t, q.locals[i].type)) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, p.args[i].where,
                               "`_` stands for " + cx_.type_text(t) + " here, but parameter `" + q.locals[i].name + "` of `" +
                                   p.text + "` is " + cx_.type_text(q.locals[i].type),
                               {{it->second.where, "`" + p.text + "` is declared here"}});
                return ir::no_id;
            }
        for (std::uint32_t i = places; i < q.param_count; ++i) {
            const std::string role = "argument " + std::to_string(i + 1) + " of `" + p.text + "` (" + q.locals[i].name + ")";
            typed a = expect(p.args[i], q.locals[i].type, role.c_str());
            if (!a.ok()) ok = false;
            kids.push_back(a.node);
        }
        return ok ? it->second.index : ir::no_id;
    };
    auto enum_type = [&](ir::id en) {
        ir::type t;
        t.kind = ir::type_kind::enumeration;
        t.ref = en;
        return cx_.intern(t);
    };
    switch (b) {
        case ir::builtin::players:
            if (!arity(0)) return {};
            return done(cx_.list_of(cx_.t_player), {});
        case ir::builtin::active_player:
            if (!arity(0)) return {};
            return done(cx_.t_player, {});
        case ir::builtin::opponents: {
            if (!arity(1)) return {};
            typed p = expect(e.args[0], cx_.t_player, "the argument of `opponents`");
            if (!p.ok()) return {};
            return done(cx_.list_of(cx_.t_player), {p.node});
        }
        case ir::builtin::count: case ir::builtin::size: case ir::builtin::top: {
            if (!arity(1)) return {};
            typed s = expr(e.args[0]);
            if (!s.ok()) return {};
            const ir::id el = element_type(s.type);
            const bool zone = cx_.type_at(s.type).kind == ir::type_kind::zone;
            if (el == error_type || (b == ir::builtin::top && !zone)) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, e.args[0].where,
                               "`" + name + "` needs " + (b == ir::builtin::top ? "a zone" : "a zone or a list") +
                                   ", but this is " + cx_.type_text(s.type));
                return {};
            }
            return done(b == ir::builtin::top ? el : cx_.t_int, {s.node});
        }
        case ir::builtin::min: case ir::builtin::max: case ir::builtin::ceil_div: case ir::builtin::floor_div:
        case ir::builtin::odds: {
            if (!arity(2)) return {};
            typed x = expect(e.args[0], cx_.t_int, ("argument 1 of `" + name + "`").c_str());
            typed y = expect(e.args[1], cx_.t_int, ("argument 2 of `" + name + "`").c_str());
            if (!x.ok() || !y.ok()) return {};
            return done(b == ir::builtin::odds ? cx_.t_odds : cx_.t_int, {x.node, y.node});
        }
        case ir::builtin::abs: {
            if (!arity(1)) return {};
            typed x = expect(e.args[0], cx_.t_int, "the argument of `abs`");
            if (!x.ok()) return {};
            return done(cx_.t_int, {x.node});
        }
        case ir::builtin::adjacent: case ir::builtin::distance: case ir::builtin::edge_kind: case ir::builtin::hexside: {
            typed x, y;
            if (!two_locations(2, x, y)) return {};
            const ir::map& m = map_of_node(x.type);
            if (b == ir::builtin::adjacent) return done(cx_.t_bool, {x.node, y.node});
            if (b == ir::builtin::distance) return done(cx_.t_int, {x.node, y.node});
            if (m.edge_enum == ir::no_id) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, e.where,
                               "map `" + m.name + "` gives its " + (m.kind == ir::map_kind::hexgrid ? "hexsides" : "edges") +
                                   " no kinds, so `" + name + "` has nothing to report");
                return {};
            }
            const ir::id et = enum_type(m.edge_enum);
            return done(b == ir::builtin::edge_kind ? et : cx_.list_of(et), {x.node, y.node});
        }
        case ir::builtin::neighbours: case ir::builtin::terrain: {
            if (!arity(1)) return {};
            typed x = node_arg(e.args[0], ir::no_id);
            if (!x.ok()) return {};
            const ir::map& m = map_of_node(x.type);
            if (b == ir::builtin::neighbours) return done(cx_.list_of(x.type), {x.node});
            if (m.terrain_enum == ir::no_id) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, e.where, "map `" + m.name + "` gives its locations no terrain");
                return {};
            }
            return done(enum_type(m.terrain_enum), {x.node});
        }
        case ir::builtin::path_exists:
        case ir::builtin::path_length: {
            // pred(h): the locations a path may enter; pred(from, to): the steps it may take
            typed x, y;
            if (!two_locations(3, x, y)) return {};
            std::vector<ir::id> kids{x.node, y.node};
            const ir::id pred = search_predicate(e.args[2], x.type, 1, 2,
                                                 "one " + cx_.type_text(x.type) +
                                                     " (the locations a path may enter) or of two (the steps it may take, from and to)",
                                                 kids);
            if (pred == ir::no_id) return {};
            return done(b == ir::builtin::path_length ? cx_.t_int : cx_.t_bool, kids, pred);
        }
        case ir::builtin::line_blocked: {
            // line_blocked(a, b, pred): pred(h) or pred(h, a, b), h a hex strictly between a and b.
            typed x, y;
            if (!two_locations(3, x, y)) return {};
            if (map_of_node(x.type).kind != ir::map_kind::hexgrid) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, e.args[0].where,
                               "`line_blocked` draws a line across a hex grid, but map `" + map_of_node(x.type).name +
                                   "` is a map of areas");
                return {};
            }
            std::vector<ir::id> kids{x.node, y.node};
            const ir::id pred = search_predicate(e.args[2], x.type, 1, 3,
                                                 "one " + cx_.type_text(x.type) +
                                                     " (a hex the line crosses), or of three (that hex, the line's start and its end)",
                                                 kids);
            if (pred == ir::no_id) return {};
            return done(cx_.t_bool, kids, pred);
        }
    }
    return {};
}

typed body_checker::binary_expr(const dsl::expr& e) {
    if (e.args.size() != 2) return {};
    const std::string& o = e.text;
    const dsl::expr& l = e.args[0];
    const dsl::expr& r = e.args[1];
    if (o == "and" || o == "or") {
        typed a = expect(l, cx_.t_bool, ("the left side of `" + o + "`").c_str());
        typed b = expect(r, cx_.t_bool, ("the right side of `" + o + "`").c_str());
        if (!a.ok() || !b.ok()) return {};
        return {emit(o == "and" ? ir::op::and_ : ir::op::or_, cx_.t_bool, 0, ir::no_id, {a.node, b.node}, e.where), cx_.t_bool};
    }
    if (o == "+" || o == "-" || o == "*" || o == "/" || o == "%" || o == "<" || o == "<=" || o == ">" || o == ">=") {
        typed a = expr(l);
        typed b = expr(r);
        if (!a.ok() || !b.ok()) return {};
        for (const auto* side : {&a, &b}) {
            if (!is_int(cx_, side->type)) {
                cx_.sink.error(dsl::diag_kind::type_mismatch, side == &a ? l.where : r.where,
                               "`" + o + "` works on numbers, but this is " + cx_.type_text(side->type));
                return {};
            }
        }
        static const std::map<std::string, ir::op> ops = {{"+", ir::op::add}, {"-", ir::op::sub}, {"*", ir::op::mul},
                                                          {"/", ir::op::div}, {"%", ir::op::mod}, {"<", ir::op::lt},
                                                          {"<=", ir::op::le}, {">", ir::op::gt}, {">=", ir::op::ge}};
        const ir::op code = ops.at(o);
        const bool comparison = code == ir::op::lt || code == ir::op::le || code == ir::op::gt || code == ir::op::ge;
        const ir::id t = comparison ? cx_.t_bool : cx_.t_int;
        return {emit(code, t, 0, ir::no_id, {a.node, b.node}, e.where), t};
    }
    if (o == "==" || o == "!=") {
        typed a, b;
        const auto typed_by_other = [&](const dsl::expr& x) { return member_only(x) || (is_none(x) && !lookup_local(x.text) && !cx_.values.count(x.text)); };
        if (typed_by_other(l) && !typed_by_other(r)) {
            b = expr(r);
            a = expr(l, b.ok() ? b.type : ir::no_id);
        } else {
            a = expr(l);
            b = expr(r, a.ok() ? a.type : ir::no_id);
        }
        if (!a.ok() || !b.ok()) return {};
        if (!compatible(cx_, b.type, a.type)) {
            cx_.sink.error(dsl::diag_kind::type_mismatch, e.where,
                           "`" + o + "` compares " + cx_.type_text(a.type) + " with " + cx_.type_text(b.type) +
                               "; they can never be equal");
            return {};
        }
        return {emit(o == "==" ? ir::op::eq : ir::op::ne, cx_.t_bool, 0, ir::no_id, {a.node, b.node}, e.where), cx_.t_bool};
    }
    if (o == "in") {
        typed b = expr(r);
        if (!b.ok()) return {};
        const ir::id el = element_type(b.type);
        if (el == error_type) {
            cx_.sink.error(dsl::diag_kind::type_mismatch, r.where,
                           "`in` looks for a value in a zone or a list, but this is " + cx_.type_text(b.type));
            return {};
        }
        typed a = expect(l, el, "the value looked for with `in`");
        if (!a.ok()) return {};
        return {emit(ir::op::in, cx_.t_bool, 0, ir::no_id, {a.node, b.node}, e.where), cx_.t_bool};
    }
    return {};
}

typed body_checker::aggregate_expr(const dsl::expr& e) {
    if (e.args.size() != 2) return {};
    typed s = expr(e.args[0]);
    if (!s.ok()) return {};
    const ir::id el = element_type(s.type);
    if (el == error_type) {
        cx_.sink.error(dsl::diag_kind::type_mismatch, e.args[0].where,
                       "`" + e.text + "(x in S : …)` goes through a zone or a list, but this is " + cx_.type_text(s.type));
        return {};
    }
    push_scope();
    const ir::id binder = bind(e.binder.text, el);
    const bool boolean = e.text == "any" || e.text == "all" || e.text == "count";
    typed body = expect(e.args[1], boolean ? cx_.t_bool : cx_.t_int,
                        boolean ? "the condition of an aggregate" : "the value of an aggregate");
    pop_scope();
    if (!body.ok()) return {};
    static const std::map<std::string, ir::op> ops = {{"any", ir::op::any}, {"all", ir::op::all}, {"count", ir::op::count},
                                                      {"sum", ir::op::sum}, {"min", ir::op::min}, {"max", ir::op::max}};
    const auto code = ops.find(e.text);
    if (code == ops.end()) return {};
    const ir::id t = (e.text == "any" || e.text == "all") ? cx_.t_bool : cx_.t_int;
    return {emit(code->second, t, 0, binder, {s.node, body.node}, e.where), t};
}

}  // namespace wp::compiler::detail
