// Exact odds: sums over the roll's distribution (weights out of `total`), no floating point
// until the percentage is printed.
#include "odds.hpp"

#include "english.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

namespace wp::docgen {

std::string percent_text(chance c) {
    if (c.total == 0) return "?";
    if (c.ways == 0) return "0%";
    if (c.ways >= c.total) return "100%";
    if ((c.ways * 100) % c.total == 0) return std::to_string(c.ways * 100 / c.total) + "%";
    const double p = 100.0 * static_cast<double>(c.ways) / static_cast<double>(c.total);
    if (p < 0.05) return "<0.1%";
    if (p > 99.95) return ">99.9%";
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", p);
    return buffer;
}

chance chance_in(const ir::distribution& d, std::int64_t shift, const ir::key_range& key, const roll_bounds* b) {
    chance c{0, d.total};
    for (std::size_t i = 0; i < d.weights.size(); ++i) {
        std::int64_t v = d.min + static_cast<std::int64_t>(i) + shift;
        if (b && b->has_hi) v = std::min(v, b->hi);  // caps, then floors (docs/language.md §9)
        if (b && b->has_lo) v = std::max(v, b->lo);
        const bool above_lo = key.open_lo || v >= key.lo;
        const bool below_hi = key.open_hi || v <= key.hi;
        if (above_lo && below_hi) c.ways += d.weights[i];
    }
    return c;
}

namespace {

struct signed_term {
    std::int64_t count = 0, low = 1, high = 6;
    bool negative = false;
};

// The terms of a sum of dice and whole numbers: false when `n` is something else. The one
// counted term goes to *counted (a second is "something else").
bool sum_terms(const ir::ruleset& rs, ir::id n, bool negative, std::vector<signed_term>& fixed, std::int64_t& constant,
               ir::id& counted, bool& counted_negative) {
    const ir::node& x = rs.nodes.at(n);
    const auto kids = ir::children_of(rs, n);
    switch (x.code) {
        case ir::op::const_int: constant += negative ? -x.value : x.value; return true;
        case ir::op::dice: {
            const ir::dice_term& d = rs.dice_terms.at(x.ref);
            fixed.push_back({d.count, d.low, d.high, negative});
            return true;
        }
        case ir::op::dice_count:
            if (counted != ir::no_id) return false;
            counted = n;
            counted_negative = negative;
            return true;
        case ir::op::neg: return sum_terms(rs, kids[0], !negative, fixed, constant, counted, counted_negative);
        case ir::op::add:
        case ir::op::sub:
            return sum_terms(rs, kids[0], negative, fixed, constant, counted, counted_negative) &&
                   sum_terms(rs, kids[1], x.code == ir::op::sub ? !negative : negative, fixed, constant, counted, counted_negative);
        default: return false;
    }
}

// Adds `t` (its dice one at a time) to the distribution d; false past 2^62 outcomes.
bool convolve(ir::distribution& d, const signed_term& t) {
    const auto faces = static_cast<std::uint64_t>(t.high - t.low + 1);
    for (std::int64_t i = 0; i < t.count; ++i) {
        if (d.total > (std::uint64_t{1} << 62) / faces) return false;
        std::vector<std::uint64_t> next(d.weights.size() + faces - 1, 0);
        for (std::size_t a = 0; a < d.weights.size(); ++a)
            for (std::uint64_t f = 0; f < faces; ++f) next[a + (t.negative ? faces - 1 - f : f)] += d.weights[a];
        d.weights = std::move(next);
        d.total *= faces;
        d.min += t.negative ? -t.high : t.low;
    }
    d.max = d.min + static_cast<std::int64_t>(d.weights.size()) - 1;
    return true;
}

}  // namespace

counted_odds counted_distributions(const ir::ruleset& rs, ir::id roll) {
    counted_odds out;
    const ir::roll& r = rs.rolls.at(roll);
    std::vector<signed_term> fixed;
    std::int64_t constant = 0;
    ir::id counted = ir::no_id;
    bool negative = false;
    if (r.expr == ir::no_id || !sum_terms(rs, r.expr, false, fixed, constant, counted, negative) || counted == ir::no_id) return out;
    const ir::node& c = rs.nodes[counted];
    const ir::dice_term& d = rs.dice_terms.at(c.ref);
    out.count = ir::children_of(rs, counted)[0];
    for (std::int64_t k = c.value; k <= d.count; ++k) {
        ir::distribution dist;
        dist.weights = {1};
        dist.total = 1;
        dist.min = dist.max = constant;
        bool ok = convolve(dist, {k, d.low, d.high, negative});
        for (const signed_term& t : fixed) ok = ok && convolve(dist, t);
        if (!ok || dist.total > (std::uint64_t{1} << 56)) {  // percentages multiply the ways by 100
            out.by_count.clear();
            return out;
        }
        out.by_count.emplace_back(k, std::move(dist));
    }
    return out;
}

namespace {
bool in_key(const ir::key_range& key, std::int64_t v) { return (key.open_lo || v >= key.lo) && (key.open_hi || v <= key.hi); }
}  // namespace

chance row_chance(const ir::distribution& d, std::int64_t shift, const ir::table& tb, std::size_t r, const roll_bounds* b) {
    const ir::table_row& row = tb.rows.at(r);
    if (row.natural) return chance_in(d, 0, row.key);  // the dice before any modifier or bound
    chance c{0, d.total};
    for (std::size_t i = 0; i < d.weights.size(); ++i) {
        const std::int64_t v = d.min + static_cast<std::int64_t>(i);
        bool natural = false;
        for (const ir::table_row& n : tb.rows) natural = natural || (n.natural && in_key(n.key, v));
        std::int64_t x = v + shift;
        if (b && b->has_hi) x = std::min(x, b->hi);  // caps, then floors (docs/language.md §9)
        if (b && b->has_lo) x = std::max(x, b->lo);
        if (!natural && in_key(row.key, x)) c.ways += d.weights[i];
    }
    return c;
}

ir::key_range threshold_range(const threshold& t) {
    ir::key_range k;
    switch (t.code) {
        case ir::op::ge: k.lo = t.value; k.open_hi = true; break;
        case ir::op::gt: k.lo = t.value + 1; k.open_hi = true; break;
        case ir::op::le: k.hi = t.value; k.open_lo = true; break;
        case ir::op::lt: k.hi = t.value - 1; k.open_lo = true; break;
        default: k.lo = k.hi = t.value; break;
    }
    return k;
}

std::string threshold_text(const threshold& t) {
    switch (t.code) {
        case ir::op::ge: return number(t.value) + " or more";
        case ir::op::gt: return "more than " + number(t.value);
        case ir::op::le: return number(t.value) + " or less";
        case ir::op::lt: return "less than " + number(t.value);
        case ir::op::ne: return "not " + number(t.value);
        default: return "exactly " + number(t.value);
    }
}

namespace {

// Every node reachable from `root` (one element's tree).
std::vector<ir::id> tree(const ir::ruleset& rs, ir::id root) {
    std::vector<ir::id> out, stack;
    if (root < rs.nodes.size()) stack.push_back(root);
    while (!stack.empty()) {
        const ir::id n = stack.back();
        stack.pop_back();
        out.push_back(n);
        for (ir::id c : ir::children_of(rs, n)) stack.push_back(c);
    }
    return out;
}

ir::op mirrored(ir::op o) {
    switch (o) {
        case ir::op::ge: return ir::op::le;
        case ir::op::gt: return ir::op::lt;
        case ir::op::le: return ir::op::ge;
        case ir::op::lt: return ir::op::gt;
        default: return o;
    }
}

bool is_comparison(ir::op o) {
    return o == ir::op::ge || o == ir::op::gt || o == ir::op::le || o == ir::op::lt || o == ir::op::eq || o == ir::op::ne;
}

// Thresholds within one element: its `let x = roll …` locals and direct `roll … >= c`.
void scan(const ir::ruleset& rs, const std::vector<ir::id>& roots, std::map<ir::id, std::set<threshold>>& found) {
    std::vector<ir::id> nodes;
    for (ir::id r : roots) {
        auto t = tree(rs, r);
        nodes.insert(nodes.end(), t.begin(), t.end());
    }
    std::map<ir::id, ir::id> roll_of_local;
    for (ir::id n : nodes) {
        const ir::node& x = rs.nodes[n];
        const auto kids = ir::children_of(rs, n);
        if (x.code == ir::op::let && kids.size() == 1 && rs.nodes[kids[0]].code == ir::op::roll) roll_of_local[x.ref] = rs.nodes[kids[0]].ref;
    }
    auto roll_behind = [&](ir::id n) -> ir::id {
        const ir::node& x = rs.nodes[n];
        if (x.code == ir::op::roll) return x.ref;
        if (x.code == ir::op::local) {
            if (auto it = roll_of_local.find(x.ref); it != roll_of_local.end()) return it->second;
        }
        return ir::no_id;
    };
    for (ir::id n : nodes) {
        const ir::node& x = rs.nodes[n];
        const auto kids = ir::children_of(rs, n);
        if (!is_comparison(x.code) || kids.size() != 2) continue;
        for (int side = 0; side < 2; ++side) {
            const ir::id roll = roll_behind(kids[static_cast<std::size_t>(side)]);
            const ir::node& other = rs.nodes[kids[static_cast<std::size_t>(1 - side)]];
            if (roll == ir::no_id || other.code != ir::op::const_int) continue;
            found[roll].insert(threshold{side == 0 ? x.code : mirrored(x.code), other.value});
        }
    }
}

}  // namespace

std::map<ir::id, std::vector<threshold>> roll_thresholds(const ir::ruleset& rs) {
    std::map<ir::id, std::set<threshold>> found;
    for (const ir::sequence& s : rs.sequences) scan(rs, {s.body}, found);
    for (const ir::procedure& p : rs.procedures) scan(rs, {p.body}, found);
    for (const ir::action& a : rs.actions) scan(rs, {a.guard, a.body}, found);
    // A worked example states an outcome, a query asks about play: neither sets a threshold the
    // rules ask a roll to reach.
    for (const ir::rule& r : rs.rules)
        if (!ir::runs_a_given(r.kind) && !ir::is_query(r.kind)) scan(rs, {r.guard, r.body, r.value}, found);
    for (const ir::derived& d : rs.quantities) scan(rs, {d.expr}, found);
    std::map<ir::id, std::vector<threshold>> out;
    for (auto& [roll, set] : found) out[roll].assign(set.begin(), set.end());
    return out;
}

std::vector<ir::id> modifiers_of(const ir::ruleset& rs, ir::target_kind kind, ir::id target) {
    std::vector<ir::id> out;
    for (std::size_t i = 0; i < rs.rules.size(); ++i) {
        const ir::rule& r = rs.rules[i];
        if (r.kind == ir::rule_kind::modifier && r.target == kind && r.target_id == target) out.push_back(static_cast<ir::id>(i));
    }
    return out;
}

roll_bounds bounds_of(const ir::ruleset& rs, ir::id roll) {
    roll_bounds b;
    for (ir::id r : modifiers_of(rs, ir::target_kind::roll, roll)) {
        const ir::rule& m = rs.rules[r];
        if (m.mod == ir::modifier_kind::add) continue;
        const ir::node* amount = m.amount < rs.nodes.size() ? &rs.nodes[m.amount] : nullptr;
        if (m.mod == ir::modifier_kind::set || m.guard != ir::no_id || !amount || amount->code != ir::op::const_int) {
            b.exact = false;
            continue;
        }
        if (m.mod == ir::modifier_kind::at_most) b.hi = b.has_hi ? std::min(b.hi, amount->value) : amount->value, b.has_hi = true;
        else b.lo = b.has_lo ? std::max(b.lo, amount->value) : amount->value, b.has_lo = true;
    }
    return b;
}

modifier_span odds_span(const ir::ruleset& rs, ir::id roll) {
    modifier_span span{-3, 3, "net modifier"};
    int bounded = 0;
    for (ir::id r : modifiers_of(rs, ir::target_kind::roll, roll)) {
        if (rs.rules[r].mod != ir::modifier_kind::add) continue;
        const ir::node& amount = rs.nodes[rs.rules[r].amount];
        if (amount.code != ir::op::player_field && amount.code != ir::op::entity_field && amount.code != ir::op::global) continue;
        if (amount.type >= rs.types.size() || rs.types[amount.type].kind != ir::type_kind::range) continue;
        const ir::type& t = rs.types[amount.type];
        if (t.hi - t.lo > 12 || t.lo >= 0) continue;  // a signed scale like reputation, not a count
        ++bounded;
        span = {t.lo, t.hi, amount.ref < rs.slots.size() ? humanize(rs.slots[amount.ref].name) : "modifier"};
    }
    if (bounded == 1) return span;
    // Otherwise the net modifiers that can occur, when every modifier's values are known: a
    // constant (or 0 when its guard does not hold), or a value of a range type. The grid then
    // has no column no play reaches (SPI's morale roll: −1 or 0, not −3..+3).
    std::int64_t lo = 0, hi = 0;
    for (ir::id r : modifiers_of(rs, ir::target_kind::roll, roll)) {
        const ir::rule& rule = rs.rules[r];
        if (rule.mod != ir::modifier_kind::add) return {-3, 3, "net modifier"};
        const auto guard = rule.guard == ir::no_id ? std::optional<std::int64_t>(1) : static_value(rs, rule.guard);
        if (guard && !*guard) continue;  // never applies under the chosen options
        const bool sometimes = !guard;   // a guard of the game state: 0 when it does not hold
        std::int64_t a = 0, b = 0;
        if (const auto v = static_value(rs, rule.amount)) {
            a = b = *v;
        } else {
            const ir::node& amount = rs.nodes[rule.amount];
            if (amount.type >= rs.types.size() || rs.types[amount.type].kind != ir::type_kind::range) return {-3, 3, "net modifier"};
            a = rs.types[amount.type].lo;
            b = rs.types[amount.type].hi;
        }
        if (sometimes) {
            a = std::min<std::int64_t>(a, 0);
            b = std::max<std::int64_t>(b, 0);
        }
        lo += a;
        hi += b;
    }
    if (hi - lo > 12) return {-3, 3, "net modifier"};
    return {lo, hi, "net modifier"};
}

}  // namespace wp::docgen
