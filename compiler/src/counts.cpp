// Type checking of numbers counted at run time (body_checker, context.hpp): an integer range
// `lo..hi` read as a set, and dice counted by an expression `(e)dM`. Both need limits the
// compiler can see on their integer operands, so every consumer works over a known span.
#include "context.hpp"

#include <algorithm>
#include <limits>
#include <optional>

namespace wp::compiler::detail {

namespace {

// What the compiler can see of an integer expression's values: each end, when known.
struct limits {
    std::optional<std::int64_t> lo, hi;
};

__extension__ typedef __int128 wide;  // products of two 64-bit limits
constexpr std::int64_t far = std::int64_t{1} << 60;  // beyond this a limit is treated as none

std::optional<std::int64_t> tame(wide v) {
    if (v < -far || v > far) return std::nullopt;
    return static_cast<std::int64_t>(v);
}

// The most elements set expression n can hold, when the compiler can see it: a zone holds at
// most every copy of its kind, the players at most the ruleset's seats, a range its span.
std::optional<std::int64_t> set_bound(const context& cx, ir::id n) {
    const ir::node& nd = cx.rs.nodes[n];
    if (nd.type >= cx.rs.types.size()) return std::nullopt;
    const ir::type& t = cx.type_at(nd.type);
    if (t.kind == ir::type_kind::zone && t.ref < cx.rs.entity_kinds.size()) {
        const ir::entity_kind& k = cx.rs.entity_kinds[t.ref];
        if (k.entity_count == 0) return std::nullopt;  // not laid out yet: no limit claimed
        std::int64_t copies = 0;
        for (std::uint32_t i = 0; i < k.entity_count && k.first_entity + i < cx.rs.entities.size(); ++i)
            copies += cx.rs.entities[k.first_entity + i].count;
        return copies;
    }
    if (t.kind != ir::type_kind::list_of || t.value >= cx.rs.types.size()) return std::nullopt;
    const ir::type& el = cx.type_at(t.value);
    if (nd.code == ir::op::range && el.kind == ir::type_kind::range) return el.hi - el.lo + 1;
    if (el.kind == ir::type_kind::player && cx.rs.max_players > 0 &&
        (nd.code == ir::op::builtin || nd.code == ir::op::type_members))
        return cx.rs.max_players;
    return std::nullopt;
}

// The limits of node n: constants, bounded types, and min/max/+/-/*/neg/abs/if of those.
limits limits_of(const context& cx, ir::id n) {
    const ir::node& nd = cx.rs.nodes[n];
    auto kid = [&](std::uint32_t i) { return limits_of(cx, cx.rs.children[nd.first_child + i]); };
    limits out;
    if (nd.type < cx.rs.types.size()) {
        const ir::type& t = cx.type_at(nd.type);
        if (t.kind == ir::type_kind::range) out = {t.lo, t.hi};
        if (t.kind == ir::type_kind::boolean) out = {0, 1};
    }
    auto both = [](const std::optional<std::int64_t>& a, const std::optional<std::int64_t>& b, auto f) -> std::optional<std::int64_t> {
        if (!a || !b) return std::nullopt;
        return f(*a, *b);
    };
    auto either = [](const std::optional<std::int64_t>& a, const std::optional<std::int64_t>& b, auto f) -> std::optional<std::int64_t> {
        if (a && b) return f(*a, *b);
        return a ? a : b;
    };
    auto lesser = [](std::int64_t a, std::int64_t b) { return std::min(a, b); };
    auto greater = [](std::int64_t a, std::int64_t b) { return std::max(a, b); };
    switch (nd.code) {
        case ir::op::const_int: return {tame(nd.value), tame(nd.value)};
        case ir::op::builtin: {
            const auto b = static_cast<ir::builtin>(nd.ref);
            if ((b == ir::builtin::min || b == ir::builtin::max) && nd.child_count == 2) {
                const limits a = kid(0), c = kid(1);
                if (b == ir::builtin::min) return {both(a.lo, c.lo, lesser), either(a.hi, c.hi, lesser)};
                return {either(a.lo, c.lo, greater), both(a.hi, c.hi, greater)};
            }
            if ((b == ir::builtin::count || b == ir::builtin::size) && nd.child_count == 1) {
                if (const auto most = set_bound(cx, cx.rs.children[nd.first_child])) return {0, most};
                return {0, std::nullopt};
            }
            if (b == ir::builtin::abs && nd.child_count == 1) {
                const limits a = kid(0);
                limits r{0, std::nullopt};
                if (a.lo && a.hi) r.hi = tame(std::max(*a.hi < 0 ? -wide(*a.hi) : wide(*a.hi), *a.lo < 0 ? -wide(*a.lo) : wide(*a.lo)));
                if (a.lo && *a.lo >= 0) r.lo = a.lo;
                return r;
            }
            return out;
        }
        case ir::op::neg: {
            const limits a = kid(0);
            return {a.hi ? tame(-wide(*a.hi)) : std::nullopt, a.lo ? tame(-wide(*a.lo)) : std::nullopt};
        }
        case ir::op::add:
        case ir::op::sub: {
            const limits a = kid(0), c = kid(1);
            const bool add = nd.code == ir::op::add;
            limits r;
            const auto& clo = add ? c.lo : c.hi;
            const auto& chi = add ? c.hi : c.lo;
            if (a.lo && clo) r.lo = tame(add ? wide(*a.lo) + *clo : wide(*a.lo) - *clo);
            if (a.hi && chi) r.hi = tame(add ? wide(*a.hi) + *chi : wide(*a.hi) - *chi);
            return r;
        }
        case ir::op::mul: {
            const limits a = kid(0), c = kid(1);
            if (!a.lo || !a.hi || !c.lo || !c.hi) return out;
            const wide p[4] = {wide(*a.lo) * *c.lo, wide(*a.lo) * *c.hi, wide(*a.hi) * *c.lo, wide(*a.hi) * *c.hi};
            return {tame(*std::min_element(p, p + 4)), tame(*std::max_element(p, p + 4))};
        }
        case ir::op::count:
            if (const auto most = set_bound(cx, cx.rs.children[nd.first_child])) return {0, most};
            return {0, std::nullopt};
        case ir::op::cond: {
            const limits a = kid(1), c = kid(2);
            return {both(a.lo, c.lo, lesser), both(a.hi, c.hi, greater)};
        }
        default: return out;
    }
}

}  // namespace

typed body_checker::range_expr(const dsl::expr& e, bool choice) {
    if (e.args.size() != 2) return {};
    typed lo = expect(e.args[0], cx_.t_int, "the low end of a range");
    typed hi = expect(e.args[1], cx_.t_int, "the high end of a range");
    if (!lo.ok() || !hi.ok()) return {};
    const limits l = limits_of(cx_, lo.node), h = limits_of(cx_, hi.node);
    bool ok = true;
    if (!l.lo) {
        cx_.sink.error(dsl::diag_kind::type_mismatch, e.args[0].where,
                       "the low end of a range needs a lower limit the compiler can see: give it a bounded type or write `max(e, N)`");
        ok = false;
    }
    if (!h.hi) {
        cx_.sink.error(dsl::diag_kind::type_mismatch, e.args[1].where,
                       "the high end of a range needs an upper limit the compiler can see: give it a bounded type or write `min(e, N)`");
        ok = false;
    }
    if (!ok) return {};
    const bool constant = cx_.rs.nodes[lo.node].code == ir::op::const_int && cx_.rs.nodes[hi.node].code == ir::op::const_int;
    if (*l.lo > *h.hi) {
        const std::string why = constant ? " (" + std::to_string(*l.lo) + " is above " + std::to_string(*h.hi) + ")"
                                         : " (its low end is at least " + std::to_string(*l.lo) + ", its high end at most " +
                                                    std::to_string(*h.hi) + ")";
        cx_.sink.error(dsl::diag_kind::bad_range, e.where,
                       (choice ? std::string("a choice of a number from an empty range") : std::string("an empty range")) + why);
        return {};
    }
    if (wide(*h.hi) - *l.lo >= 10000) {
        cx_.sink.error(dsl::diag_kind::bad_range, e.where,
                       "this range can hold " + (wide(*h.hi) - *l.lo < far ? std::to_string(*h.hi - *l.lo + 1) : std::string("too many")) + " numbers (from " + std::to_string(*l.lo) +
                           " to " + std::to_string(*h.hi) + "); a range holds at most 10000");
        return {};
    }
    const ir::id el = cx_.range_type(*l.lo, *h.hi, ir::overflow::none);
    const ir::id t = cx_.list_of(el);
    return {emit(ir::op::range, t, 0, ir::no_id, {lo.node, hi.node}, e.where), t};
}

typed body_checker::dice_count_expr(const dsl::expr& e) {
    if (e.args.size() != 1) return {};
    const dsl::dice_spec& d = e.dice;
    if (d.low > d.high || d.high > 1000000 || d.low < -1000000) {
        cx_.sink.error(dsl::diag_kind::bad_dice, e.where, "this dice term is not something a table can roll");
        return {};
    }
    typed count = expect(e.args[0], cx_.t_int, "the count of dice");
    if (!count.ok()) return {};
    const limits c = limits_of(cx_, count.node);
    if (!c.lo || *c.lo < 0) {
        cx_.sink.error(dsl::diag_kind::bad_dice, e.args[0].where,
                       "a count of dice that can be negative (its lowest value is " + (c.lo ? std::to_string(*c.lo) : std::string("not limited")) +
                           "): give it a type from 0 or write `max(e, 0)`");
        return {};
    }
    if (c.hi && *c.hi == 0) {
        cx_.sink.error(dsl::diag_kind::bad_dice, e.args[0].where, "a count of dice that is always 0: this rolls nothing");
        return {};
    }
    if (!c.hi) {
        cx_.sink.error(dsl::diag_kind::bad_dice, e.args[0].where,
                       "a count of dice with no upper limit the compiler can see: give it a bounded type or write `min(e, N)`");
        return {};
    }
    // Every outcome must stay listable (the engine's chance nodes and the aid's odds are exact).
    const auto faces = static_cast<std::uint64_t>(d.high - d.low + 1);
    std::uint64_t total = 1;
    std::int64_t most = 0;
    while (most < 1000 && (faces == 1 || total <= (std::uint64_t{1} << 62) / faces)) {
        total *= faces;
        ++most;
    }
    if (*c.hi > most) {
        cx_.sink.error(dsl::diag_kind::bad_dice, e.args[0].where,
                       "up to " + std::to_string(*c.hi) + " dice: too many to list their outcomes exactly (at most " +
                           std::to_string(most) + " of these); write `min(e, " + std::to_string(most) + ")` or a smaller type");
        return {};
    }
    const auto ref = static_cast<ir::id>(cx_.rs.dice_terms.size());
    cx_.rs.dice_terms.push_back({*c.hi, d.low, d.high});
    const std::int64_t lo = std::min(*c.lo * d.low, *c.hi * d.low), hi = std::max(*c.lo * d.high, *c.hi * d.high);
    const ir::id t = cx_.range_type(lo, hi, ir::overflow::none);
    return {emit(ir::op::dice_count, t, *c.lo, ref, {count.node}, e.where), t};
}

}  // namespace wp::compiler::detail
