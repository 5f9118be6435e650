// The unfolding budget: what encoding an expression would cost before it is encoded, and the
// cache of what was encoded.
#include "symbolic.hpp"

#include "terms.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace wp::verify::detail {

using ir::op;

// ---------------------------------------------------------------- the unfolding budget and the cache

namespace {
std::uint64_t add_sat(std::uint64_t a, std::uint64_t b) {
    return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}
std::uint64_t mul_sat(std::uint64_t a, std::uint64_t b) {
    if (a == 0 || b == 0) return 0;
    return a > std::numeric_limits<std::uint64_t>::max() / b ? std::numeric_limits<std::uint64_t>::max() : a * b;
}
}  // namespace

std::uint64_t symbolic::line_predicate_cost(id pred, std::uint64_t places) {
    if (busy_.count(pred)) return 1;
    busy_.insert(pred);
    const std::uint64_t body = std::max<std::uint64_t>(1, unfold_cost(rs.quantities.at(pred).expr));
    busy_.erase(pred);
    // past the budget the search is any value, which costs one
    return unfold_limit != 0 && mul_sat(places, body) > unfold_limit ? 1 : body;
}

z3::expr symbolic::cut_value(const std::string& what, id type) {
    ++cuts;
    approximations.insert(what + ": any value (--unfold-limit " + std::to_string(unfold_limit) + ")");
    z3::expr v = fresh("cut", type, "~ " + what, variable::show::value, 0);
    variables.back().approximate = true;
    return v;
}

std::uint64_t symbolic::set_size_estimate(id n) {
    const ir::node& nd = N(n);
    if (kind_of(n) == ir::type_kind::zone) {
        const id kind = rs.types.at(nd.type).ref;
        return kind < lay.kind_count.size() ? lay.kind_count[kind] : 1;
    }
    if (nd.code == op::builtin) {
        switch (static_cast<ir::builtin>(nd.ref)) {
            case ir::builtin::players:
            case ir::builtin::opponents: return static_cast<std::uint64_t>(lay.players);
            case ir::builtin::neighbours: {
                // a known node has its few neighbours (a node bound by an enclosing aggregate is
                // known in each instance); the estimate is the map's largest degree
                const ir::map& m = rs.maps.at(rs.types.at(N(child(n, 0)).type).ref);
                std::uint64_t most = 1;
                for (const ir::map_node& x : m.nodes) most = std::max<std::uint64_t>(most, x.neighbours.size());
                return most;
            }
            case ir::builtin::hexside: {
                const ir::map& m = rs.maps.at(rs.types.at(N(child(n, 0)).type).ref);
                std::set<std::int64_t> kinds;
                for (const ir::map_edge& ed : m.edges) kinds.insert(ed.kinds.begin(), ed.kinds.end());
                return std::max<std::uint64_t>(1, kinds.size());
            }
            default: return 1;
        }
    }
    if (nd.code == op::range) {
        const ir::type& el = rs.types.at(rs.types.at(nd.type).value);
        return static_cast<std::uint64_t>(std::max<std::int64_t>(1, el.hi - el.lo + 1));
    }
    if (nd.code == op::type_members) {
        const ir::type& t = rs.types.at(nd.ref);
        switch (t.kind) {
            case ir::type_kind::player: return static_cast<std::uint64_t>(lay.players);
            case ir::type_kind::enumeration: return rs.enums.at(t.ref).members.size();
            case ir::type_kind::entity: return lay.kind_count.at(t.ref);
            case ir::type_kind::node: return rs.maps.at(t.ref).nodes.size();
            default: return 1;
        }
    }
    return 1;
}

std::string symbolic::set_text(id n) {
    const ir::node& nd = N(n);
    if (nd.code == op::type_members) {
        const ir::type& t = rs.types.at(nd.ref);
        switch (t.kind) {
            case ir::type_kind::player: return "the players";
            case ir::type_kind::enumeration: return rs.enums.at(t.ref).name;
            case ir::type_kind::entity: return rs.entity_kinds.at(t.ref).name;
            case ir::type_kind::node: return rs.maps.at(t.ref).name;
            default: break;
        }
    }
    if (nd.code == op::zone) return rs.zones.at(nd.ref).name;
    if (nd.code == op::range) return "a range of numbers";
    if (nd.code == op::index && N(child(n, 0)).code == op::zone) return rs.zones.at(N(child(n, 0)).ref).name;
    if (nd.code == op::builtin) return std::string(ir::name_of(static_cast<ir::builtin>(nd.ref))) + "(…)";
    if (nd.code == op::entity_field || nd.code == op::global || nd.code == op::player_field) return rs.slots.at(nd.ref).name;
    return std::string("`") + ir::name_of(nd.code) + "`";
}

// The instances an encoding unfolds: one per member of a set an aggregate (or `count`, `size`,
// `in`) ranges over, times the instances of the body (a body with no aggregate is one); a call
// counts its definition and rules; a search over a map (path_exists, line_blocked) its nodes.
std::uint64_t symbolic::unfold_cost(id n) {
    if (n == ir::no_id) return 0;
    if (auto it = cost_memo_.find(n); it != cost_memo_.end()) return it->second;
    const ir::node& nd = N(n);
    std::uint64_t c = 0;
    auto children = [&](std::uint32_t from) {
        std::uint64_t sum = 0;
        for (std::uint32_t i = from; i < nd.child_count; ++i) sum = add_sat(sum, unfold_cost(child(n, i)));
        return sum;
    };
    auto rules = [&](id group) {
        std::uint64_t sum = 0;
        if (group == ir::no_id) return sum;
        for (id r : rs.groups.at(group).rules) {
            const ir::rule& rule = rs.rules.at(r);
            sum = add_sat(sum, unfold_cost(rule.guard));
            if (rule.kind == ir::rule_kind::modifier) sum = add_sat(sum, unfold_cost(rule.amount));
            if (rule.kind == ir::rule_kind::define) sum = add_sat(sum, unfold_cost(rule.value));
        }
        return sum;
    };
    switch (nd.code) {
        case op::any:
        case op::all:
        case op::count:
        case op::sum:
        case op::min:
        case op::max:
            c = add_sat(unfold_cost(child(n, 0)),
                        mul_sat(set_size_estimate(child(n, 0)), std::max<std::uint64_t>(1, unfold_cost(child(n, 1)))));
            break;
        case op::in: {
            // A named element (a constant, or a local: a choice's or an aggregate's variable, an
            // argument) in a zone or a kind's members, whose values are numbers: each comparison
            // folds to false but the one of the element itself. Anything else (a computed element,
            // or a set of locations found here, as the neighbours of a hex not known) compares
            // with every member.
            const op elem = N(child(n, 0)).code;
            const bool named = elem == op::local || elem == op::const_entity || elem == op::const_node ||
                               elem == op::const_int || elem == op::const_member;
            const ir::node& set = N(child(n, 1));
            const bool numbered = set.code == op::type_members ||
                                  (set.type != ir::no_id && rs.types.at(set.type).kind == ir::type_kind::zone);
            c = add_sat(children(0), named && numbered ? 1 : set_size_estimate(child(n, 1)));
            break;
        }
        case op::quantity: {
            c = children(0);
            if (busy_.count(nd.ref)) break;  // recursion: counted once
            busy_.insert(nd.ref);
            const ir::derived& q = rs.quantities.at(nd.ref);
            c = add_sat(c, unfold_cost(q.expr));
            if (!q.predicate) c = add_sat(c, rules(group_of_target[static_cast<int>(ir::target_kind::quantity)].at(nd.ref)));
            busy_.erase(nd.ref);
            break;
        }
        case op::decide:
            c = add_sat(children(0), rules(group_of_target[static_cast<int>(ir::target_kind::decision)].at(nd.ref)));
            break;
        case op::roll: {
            const ir::roll& ro = rs.rolls.at(nd.ref);
            c = add_sat(children(0), rules(group_of_target[static_cast<int>(ir::target_kind::roll)].at(nd.ref)));
            if (!(ro.linear && !ro.dist.weights.empty())) c = add_sat(c, unfold_cost(ro.expr));
            break;
        }
        case op::builtin:
            c = children(0);
            switch (static_cast<ir::builtin>(nd.ref)) {
                case ir::builtin::count:
                case ir::builtin::size:
                case ir::builtin::top: c = add_sat(c, set_size_estimate(child(n, 0))); break;
                case ir::builtin::path_exists:
                case ir::builtin::path_length:
                case ir::builtin::line_blocked: {
                    // the predicate at every location (every step for a predicate of two)
                    const id t = nd.child_count > 0 ? N(child(n, 0)).type : ir::no_id;
                    if (t == ir::no_id || rs.types.at(t).kind != ir::type_kind::node) break;
                    const ir::map& m = rs.maps.at(rs.types.at(t).ref);
                    const ir::derived& pred = rs.quantities.at(static_cast<id>(nd.value));
                    const std::uint64_t places = m.nodes.size();
                    // a predicate of locations only is encoded once per state, shared by
                    // every search there: a search costs one per location (as any value did);
                    // a line's predicate of three (the line's ends), or one given arguments of
                    // its own that are not constants (they may differ from search to search),
                    // is encoded anew for each
                    bool varying = false;
                    for (std::uint32_t i = 2; i < nd.child_count; ++i) {
                        const ir::op k = N(child(n, i)).code;
                        varying = varying || !(k == op::const_int || k == op::const_bool || k == op::const_member ||
                                               k == op::const_node || k == op::const_entity || k == op::const_string);
                    }
                    const bool own = pred.param_count == 3 + (nd.child_count - 2) || varying;
                    const std::uint64_t body = own ? line_predicate_cost(static_cast<id>(nd.value), places) : 1;
                    c = add_sat(c, mul_sat(places, body));
                    break;
                }
                default: break;
            }
            break;
        default: c = children(0); break;
    }
    // memoised even under a quantity being estimated (a recursive call counts once: an
    // estimate), so shared predicates are estimated once, not once per path to them
    cost_memo_.emplace(n, c);
    return c;
}

bool symbolic::pure(id n) {
    if (n == ir::no_id) return true;
    if (auto it = pure_memo_.find(n); it != pure_memo_.end()) return it->second;
    const ir::node& nd = N(n);
    bool p = true;
    switch (nd.code) {
        case op::dice:
        case op::decide:
        case op::lookup:
        case op::roll:
        case op::div:
        case op::mod:
        case op::option:
        case op::record_field:
            p = false;
            break;
        case op::builtin:
            switch (static_cast<ir::builtin>(nd.ref)) {
                case ir::builtin::players:
                case ir::builtin::opponents:
                case ir::builtin::count:
                case ir::builtin::size:
                case ir::builtin::min:
                case ir::builtin::max:
                case ir::builtin::abs:
                case ir::builtin::ceil_div:
                case ir::builtin::floor_div:
                case ir::builtin::odds:
                case ir::builtin::adjacent:
                case ir::builtin::neighbours:
                case ir::builtin::hexside:
                case ir::builtin::terrain: break;
                default: p = false; break;  // fresh values, side constraints
            }
            break;
        case op::quantity: {
            const ir::derived& q = rs.quantities.at(nd.ref);
            const id group = group_of_target[static_cast<int>(ir::target_kind::quantity)].at(nd.ref);
            if (!q.predicate && group != ir::no_id && !rs.groups.at(group).rules.empty()) p = false;  // on_rule
            else if (busy_.count(nd.ref)) p = false;                                                 // recursion
            else {
                busy_.insert(nd.ref);
                p = pure(q.expr);
                busy_.erase(nd.ref);
            }
            break;
        }
        case op::absent: case op::const_int: case op::const_bool: case op::const_string: case op::const_member:
        case op::const_entity: case op::const_node: case op::local: case op::global: case op::player_field:
        case op::entity_field: case op::attribute: case op::node_attribute: case op::zone: case op::index:
        case op::type_members: case op::neg: case op::not_: case op::add: case op::sub: case op::mul:
        case op::eq: case op::ne: case op::lt: case op::le: case op::gt: case op::ge: case op::in:
        case op::and_: case op::or_: case op::cond: case op::any: case op::all: case op::count: case op::sum:
        case op::min: case op::max: case op::range:
            break;
        default: p = false; break;
    }
    for (std::uint32_t i = 0; p && i < nd.child_count; ++i) p = pure(child(n, i));
    pure_memo_.emplace(n, p);  // impure through recursion only: a conservative answer
    return p;
}

sv symbolic::value(id n, env& e, const store& st) {
    tick();
    if (depth_ == 0 && !memo_.empty()) {
        // the cache holds for one store: the same terms (an explored store is changed in place)
        bool same = memo_store_.size() == st.values.size() + st.loc.size();
        for (std::size_t i = 0; same && i < st.values.size(); ++i) same = z3::eq(memo_store_[i], st.values[i]);
        for (std::size_t i = 0; same && i < st.loc.size(); ++i) same = z3::eq(memo_store_[st.values.size() + i], st.loc[i]);
        if (!same) {
            memo_.clear();
            memo_keep_.clear();
            memo_store_.clear();
        }
    }
    if (depth_ == 0) memo_for_ = &st;
    struct depth_guard {
        int& d;
        explicit depth_guard(int& x) : d(x) { ++d; }
        ~depth_guard() { --d; }
    } guard(depth_);
    // Only encodings big enough to matter are shared (a small one is cheap to write again, and
    // keeping its terms alive would change the term ids, so the solver's choices, of rulesets
    // that never needed the cache).
    const op code = N(n).code;
    const bool worth = code == op::any || code == op::all || code == op::count || code == op::sum || code == op::min ||
                       code == op::max || code == op::quantity;
    if (!worth || memo_for_ != &st || unfold_cost(n) < memo_threshold || !pure(n)) return value_uncached(n, e, st);
    if (memo_.empty() && memo_store_.empty()) {
        memo_store_.reserve(st.values.size() + st.loc.size());
        for (const z3::expr& x : st.values) memo_store_.push_back(x);
        for (const z3::expr& x : st.loc) memo_store_.push_back(x);
    }
    std::pair<id, std::vector<unsigned>> key{n, {}};
    key.second.reserve(e.locals.size());
    for (const auto& l : e.locals) key.second.push_back(l ? l->id() + 1 : 0);
    if (auto it = memo_.find(key); it != memo_.end()) {
        ++memo_hits;
        return it->second;
    }
    ++memo_misses;
    sv v = value_uncached(n, e, st);
    memo_.emplace(std::move(key), v);
    // the key holds the locals' term ids: keep the terms alive so no id is reused meanwhile
    for (const auto& l : e.locals)
        if (l) memo_keep_.push_back(*l);
    return v;
}

z3::expr symbolic::seen_any(const std::vector<member>& ms, const member& upto) {
    z3::expr_vector before(ctx);
    for (const member& m : ms) {
        if (z3::eq(m.value, upto.value) && z3::eq(m.in, upto.in)) break;
        before.push_back(m.in);
    }
    return before.empty() ? ctx.bool_val(false) : z3::mk_or(before);
}

}  // namespace wp::verify::detail
