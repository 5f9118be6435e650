// The symbolic encoding of rolls and their modifiers, and of tables: keys, odds steps, which
// row and column a key reads.
#include "symbolic.hpp"

#include "terms.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace wp::verify::detail {

using ir::op;

// ---------------------------------------------------------------- rolls and tables

z3::expr symbolic::roll_value(id r, const std::vector<z3::expr>& args, const store& st,
                              const std::map<id, z3::expr>* fixed, z3::expr* dice_out) {
    const ir::roll& ro = rs.rolls.at(r);
    z3::expr dice = num(0);
    if (fixed && fixed->count(r)) {
        dice = fixed->at(r);
    } else if (ro.linear && !ro.dist.weights.empty()) {
        dice = fresh(ro.name, ir::no_id, ro.name + " (dice)", variable::show::value, ro.dist.min);
        variables.back().roll = r;
        z3::expr dom = dice >= num(ro.dist.min) && dice <= num(ro.dist.max);
        for (std::size_t i = 0; i < ro.dist.weights.size(); ++i)
            if (ro.dist.weights[i] == 0) dom = dom && dice != num(ro.dist.min + static_cast<std::int64_t>(i));
        side.push_back(dom);
    } else {
        env e;
        e.locals.resize(std::max(ro.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < ro.locals.size(); ++i) e.locals[i] = args[i];
        dice = integer(ro.expr, e, st);
    }
    if (dice_out) *dice_out = dice;
    const id group = group_of_target[static_cast<int>(ir::target_kind::roll)].at(r);
    return modified(group, dice, args, st);
}

// The value v of a roll or quantity after the modifiers of its group, as the engines apply them
// (docs/language.md §9): the adds summed in, then a set (where sets disagree the engines stop:
// that is the checker's contradiction; here the first applicable one is taken), then the
// smallest applicable cap, then the largest applicable floor.
z3::expr symbolic::modified(id group, z3::expr v, const std::vector<z3::expr>& args, const store& st) {
    const std::map<id, z3::expr> eff = group_effective(group, args, st);
    auto amount = [&](const ir::rule& m) {
        env e;
        e.locals.resize(std::max(m.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < m.locals.size(); ++i) e.locals[i] = args[i];
        return integer(m.amount, e, st);
    };
    std::vector<std::pair<z3::expr, z3::expr>> sets, caps, floors;  // (applies, amount)
    for (const auto& [rule, applies] : eff) {
        const ir::rule& m = rs.rules.at(rule);
        if (m.kind != ir::rule_kind::modifier || m.amount == ir::no_id) continue;
        switch (m.mod) {
            case ir::modifier_kind::add: v = v + z3::ite(applies, amount(m), num(0)); break;
            case ir::modifier_kind::set: sets.emplace_back(applies, amount(m)); break;
            case ir::modifier_kind::at_most: caps.emplace_back(applies, amount(m)); break;
            case ir::modifier_kind::at_least: floors.emplace_back(applies, amount(m)); break;
        }
        if (on_rule) on_rule(rule, applies, rule_guard(rule, args, st));
    }
    for (auto it = sets.rbegin(); it != sets.rend(); ++it) v = z3::ite(it->first, it->second, v);
    for (const auto& [applies, k] : caps) v = z3::ite(applies && v > k, k, v);
    for (const auto& [applies, k] : floors) v = z3::ite(applies && v < k, k, v);
    return v;
}

z3::expr symbolic::table_key(id t, std::size_t k, env& te, const store& st, z3::expr* natural) {
    const ir::table& tb = rs.tables.at(t);
    const ir::table_key& key = tb.keys.at(k);
    z3::expr v = num(0);
    if (natural && key.source == ir::key_source::roll && key.expr != ir::no_id && N(key.expr).code == op::roll) {
        // one roll gives both: the dice, and the dice with the modifiers
        std::vector<z3::expr> args;
        for (std::uint32_t i = 0; i < N(key.expr).child_count; ++i) args.push_back(integer(child(key.expr, i), te, st));
        v = roll_value(N(key.expr).ref, args, st, fixed_rolls, natural);
    } else if (key.source == ir::key_source::key && key.var != ir::no_id && key.expr == ir::no_id) {
        v = te.locals.at(key.var) ? *te.locals.at(key.var) : num(0);
    } else {
        v = integer(key.expr, te, st);
        if (natural) *natural = v;  // dice written as the key have no modifiers
    }
    const ir::key_map& axis = k == 0 ? tb.row_map : tb.column_map;
    if (axis.kind == ir::key_range_kind::odds) return odds_key(tb, k, te, st);
    if (key.has_clamp) {
        if (!key.clamp_lo.open_lo) {
            const z3::expr lo = num(key.clamp_lo.lo);
            v = z3::ite(v < lo, lo, v);
        }
        if (!key.clamp_hi.open_hi) {
            const z3::expr hi = num(key.clamp_hi.open_lo || key.clamp_lo.open_lo ? key.clamp_hi.hi
                                                                                         : std::max(key.clamp_lo.lo, key.clamp_hi.hi));
            v = z3::ite(v > hi, hi, v);
        }
    }
    return v;
}

// An odds key is encoded as its step on the odds scale (odds_step: 1-2 is -1, 1-1 is 0, 2-1 is
// 1 ...), exactly as the engine reads it: for `odds(a, b)` written as the key, "the ratio reads
// at most step k" is linear in a and b for each constant k, so the step is a chain of those
// tests over the steps the table's columns and clamp name (one below and one above them stand
// for every ratio beyond). Any other expression of odds type is an approximation.
z3::expr symbolic::odds_key(const ir::table& tb, std::size_t k, env& te, const store& st) {
    if (ir::odds_fractional(tb, k)) return odds_key_fractional(tb, k, te, st);
    const ir::table_key& key = tb.keys.at(k);
    std::vector<std::int64_t> steps;
    if (k == 0)
        for (const ir::table_row& r : tb.rows) steps.push_back(odds_step(r.key.lo, r.key.hi));
    else
        for (const ir::key_range& c : tb.columns) steps.push_back(odds_step(c.lo, c.hi));
    if (key.has_clamp && !key.clamp_lo.open_lo) steps.push_back(odds_step(key.clamp_lo.lo, key.clamp_lo.hi));
    if (key.has_clamp && !key.clamp_hi.open_hi) steps.push_back(odds_step(key.clamp_hi.lo, key.clamp_hi.hi));
    if (steps.empty()) steps.push_back(0);
    const std::int64_t lo = *std::min_element(steps.begin(), steps.end()) - 1;
    const std::int64_t hi = *std::max_element(steps.begin(), steps.end()) + 1;
    z3::expr v = num(0);
    const bool direct = key.expr != ir::no_id && N(key.expr).code == op::builtin &&
                        static_cast<ir::builtin>(N(key.expr).ref) == ir::builtin::odds && N(key.expr).child_count == 2;
    if (!direct) {
        approximations.insert("odds keys not written as `odds(a, b)` (table " + tb.name + ")");
        v = key.source == ir::key_source::key && key.var != ir::no_id && key.expr == ir::no_id && te.locals.at(key.var)
                ? *te.locals.at(key.var)
                : integer(key.expr, te, st);
    } else {
        const z3::expr a = integer(child(key.expr, 0), te, st);
        const z3::expr b = integer(child(key.expr, 1), te, st);
        // the engine stops on a defender below 1 or an attacker below 0
        side.push_back(b >= 1 && a >= 0);
        const bool attacker = key.round == ir::rounding::attacker;
        auto at_most = [&](std::int64_t s) -> z3::expr {
            if (s >= 0) return attacker ? a <= num(s + 1) * b : a < num(s + 2) * b;
            const std::int64_t n = 1 - s;
            return attacker ? b >= num(n) * a : b > num(n - 1) * a;
        };
        v = num(hi);
        for (std::int64_t s = hi - 1; s >= lo; --s) v = z3::ite(at_most(s), num(s), v);
    }
    if (key.has_clamp) {
        if (!key.clamp_lo.open_lo) {
            const z3::expr c = num(odds_step(key.clamp_lo.lo, key.clamp_lo.hi));
            v = z3::ite(v < c, c, v);
        }
        if (!key.clamp_hi.open_hi) {
            const z3::expr c = num(odds_step(key.clamp_hi.lo, key.clamp_hi.hi));
            v = z3::ite(v > c, c, v);
        }
    }
    return v;
}

// An odds key on an axis with fractional points, as its code (odds_code, scaled): the points
// are the whole steps around the axis's ratios and its fractional ratios, in order. For the
// defender the ratio reads at most point i when a/b is below point i+1; for the attacker,
// when a/b is at most point i: both linear in a and b (a*q against p*b).
z3::expr symbolic::odds_key_fractional(const ir::table& tb, std::size_t k, env& te, const store& st) {
    const ir::table_key& key = tb.keys.at(k);
    std::vector<ir::key_range> declared;
    if (k == 0)
        for (const ir::table_row& r : tb.rows) declared.push_back(r.key);
    else
        declared = tb.columns;
    const bool lo_clamp = key.has_clamp && !key.clamp_lo.open_lo, hi_clamp = key.has_clamp && !key.clamp_hi.open_hi;
    if (lo_clamp) declared.push_back(key.clamp_lo);
    if (hi_clamp) declared.push_back(key.clamp_hi);
    std::int64_t lo = 0, hi = 0;
    bool first = true;
    for (const ir::key_range& r : declared) {
        const std::int64_t s = odds_step(r.lo, r.hi);
        lo = first ? s : std::min(lo, s);
        hi = first ? s : std::max(hi, s);
        first = false;
    }
    --lo;  // one step below and one above stand for every ratio beyond
    ++hi;
    using point = std::pair<std::int64_t, std::int64_t>;
    std::vector<point> points;
    for (std::int64_t s = lo; s <= hi; ++s) points.push_back(s >= 0 ? point{s + 1, 1} : point{1, 1 - s});
    for (const ir::key_range& r : declared)
        if (!ir::odds_whole(r)) points.push_back({r.lo, r.hi});
    std::sort(points.begin(), points.end(), [](point x, point y) { return x.first * y.second < y.first * x.second; });
    points.erase(std::unique(points.begin(), points.end(), [](point x, point y) { return x.first * y.second == y.first * x.second; }),
                 points.end());
    auto code = [](point p) { return odds_code(p.first, p.second, true); };
    // two ratios closer than 1/odds_fine of a step share a code: the encoding cannot tell them apart
    for (std::size_t i = 0; i + 1 < points.size(); ++i)
        if (code(points[i]) == code(points[i + 1]))
            approximations.insert("odds " + ir::odds_point_text(points[i].first, points[i].second) + " and " +
                                  ir::odds_point_text(points[i + 1].first, points[i + 1].second) + " closer than the checker reads (table " +
                                  tb.name + ")");
    z3::expr v = num(0);
    const bool direct = key.expr != ir::no_id && N(key.expr).code == op::builtin &&
                        static_cast<ir::builtin>(N(key.expr).ref) == ir::builtin::odds && N(key.expr).child_count == 2;
    if (!direct) {
        // the value of an odds expression is not its point on this scale: no exact encoding
        approximations.insert("odds keys not written as `odds(a, b)` (table " + tb.name + ")");
        v = fresh("odds", ir::no_id, "odds of " + tb.name, variable::show::value, 0);
    } else {
        const z3::expr a = integer(child(key.expr, 0), te, st);
        const z3::expr b = integer(child(key.expr, 1), te, st);
        side.push_back(b >= 1 && a >= 0);
        const bool attacker = key.round == ir::rounding::attacker;
        v = num(code(points.back()));
        for (std::size_t i = points.size() - 1; i-- > 0;) {
            const point at = attacker ? points[i] : points[i + 1];
            const z3::expr test = attacker ? a * num(at.second) <= num(at.first) * b : a * num(at.second) < num(at.first) * b;
            v = z3::ite(test, num(code(points[i])), v);
        }
    }
    if (lo_clamp) {
        const z3::expr c = num(odds_code(key.clamp_lo.lo, key.clamp_lo.hi, true));
        v = z3::ite(v < c, c, v);
    }
    if (hi_clamp) {
        const z3::expr c = num(odds_code(key.clamp_hi.lo, key.clamp_hi.hi, true));
        v = z3::ite(v > c, c, v);
    }
    return v;
}


std::int64_t odds_code(std::int64_t a, std::int64_t b, bool scaled) {
    if (!scaled || a <= 0 || b <= 0) return odds_step(a, b);
    if (a >= b) {
        const std::int64_t n = a / b;
        return (n - 1) * odds_fine + (a - n * b) * odds_fine / b;
    }
    const std::int64_t n = b / a;  // 1 : n + rem/a, between the steps 1-n and -n
    return (1 - n) * odds_fine - (b - n * a) * odds_fine / a;
}

std::int64_t odds_step(std::int64_t a, std::int64_t b) {
    if (b <= 0) return 0;
    if (a >= b) return a / b - 1;
    if (a <= 0) return std::numeric_limits<std::int32_t>::min();
    return 1 - (b + a - 1) / a;
}

symbolic::table_binding symbolic::bind_table(id t, const std::vector<z3::expr>& args, const store& st) {
    const ir::table& tb = rs.tables.at(t);
    table_binding b;
    b.frame.locals.resize(std::max(tb.locals.size(), args.size()));
    std::size_t ai = 0;
    for (; ai < tb.param_count && ai < args.size(); ++ai) b.frame.locals[ai] = args[ai];
    for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
        const ir::table_key& key = tb.keys[k];
        if (key.source == ir::key_source::key && key.var != ir::no_id && ai < args.size()) b.frame.locals[key.var] = args[ai++];
        if (k == 0 && !tb.natural_map.dense.empty()) {
            z3::expr natural = num(0);
            b.keys.push_back(table_key(t, k, b.frame, st, &natural));
            b.natural = natural;
        } else {
            b.keys.push_back(table_key(t, k, b.frame, st));
        }
    }
    if (b.natural) {
        if (b.keys.size() < 2) b.keys.push_back(num(0));
        b.keys.push_back(*b.natural);
    }
    if (tb.keys.size() > 1 && tb.keys[1].shift != ir::no_id) {  // fourth: the column shift
        if (b.keys.size() < 3) b.keys.push_back(num(0));
        b.keys.push_back(integer(tb.keys[1].shift, b.frame, st));
    }
    return b;
}

z3::expr natural_covers(z3::context& ctx, const ir::table& tb, const std::vector<z3::expr>& keys) {
    z3::expr any = ctx.bool_val(false);
    if (tb.natural_map.dense.empty()) return any;
    for (const ir::table_row& row : tb.rows)
        if (row.natural) any = any || key_in(ctx, row.key, keys.at(2));
    return any;
}

z3::expr symbolic::row_reads(const ir::table& tb, std::size_t r, const std::vector<z3::expr>& keys) {
    const ir::table_row& row = tb.rows.at(r);
    if (row.natural) return key_in(ctx, row.key, keys.at(2));
    const z3::expr in_row = key_in(ctx, row.key, keys.at(0), ir::odds_fractional(tb, 0));
    return tb.natural_map.dense.empty() ? in_row : in_row && !natural_covers(ctx, tb, keys);
}

z3::expr symbolic::unshifted_column(const ir::table& tb, const std::vector<z3::expr>& keys) {
    z3::expr idx = num(-1);
    for (std::size_t c = tb.columns.size(); c-- > 0;)  // the first column covering the key
        idx = z3::ite(key_in(ctx, tb.columns[c], keys.at(1), ir::odds_fractional(tb, 1)), num(static_cast<std::int64_t>(c)), idx);
    return idx;
}

z3::expr symbolic::column_reads(const ir::table& tb, std::size_t c, const std::vector<z3::expr>& keys) {
    if (tb.keys.size() < 2 || tb.keys[1].shift == ir::no_id || keys.size() < 4)
        return key_in(ctx, tb.columns.at(c), keys.at(1), ir::odds_fractional(tb, 1));
    const z3::expr idx = unshifted_column(tb, keys);
    const z3::expr at = idx + keys[3];
    const auto last = static_cast<std::int64_t>(tb.columns.size()) - 1;
    const auto here = static_cast<std::int64_t>(c);
    z3::expr lands = at == num(here);
    if (tb.keys[1].shift_clamp && here == 0) lands = at <= num(0);
    if (tb.keys[1].shift_clamp && here == last) lands = here == 0 ? ctx.bool_val(true) : at >= num(last);
    return idx >= 0 && lands;
}

std::vector<z3::expr> symbolic::cell_selections(id t, const std::vector<z3::expr>& keys) {
    const ir::table& tb = rs.tables.at(t);
    const std::size_t width = std::max<std::size_t>(1, tb.columns.size());
    std::vector<z3::expr> out;
    z3::expr earlier = ctx.bool_val(false);
    for (std::size_t r = 0; r < tb.rows.size(); ++r) {
        const z3::expr in_row = row_reads(tb, r, keys);
        for (std::size_t c = 0; c < width; ++c) {
            z3::expr sel = in_row;
            if (!tb.columns.empty()) sel = sel && column_reads(tb, c, keys);
            out.push_back(sel && !earlier);
            earlier = earlier || sel;
        }
    }
    return out;
}


z3::expr key_in(z3::context& ctx, const ir::key_range& k, const z3::expr& v, bool scaled) {
    switch (k.kind) {
        case ir::key_range_kind::member: return v == ctx.int_val(k.lo);
        case ir::key_range_kind::odds: return v == ctx.int_val(odds_code(k.lo, k.hi, scaled));
        case ir::key_range_kind::integer: {
            z3::expr c = ctx.bool_val(true);
            if (!k.open_lo) c = c && v >= ctx.int_val(k.lo);
            if (!k.open_hi) c = c && v <= ctx.int_val(k.hi);
            return c;
        }
    }
    return ctx.bool_val(false);
}

}  // namespace wp::verify::detail
