// The interpreter (interp.hpp): chance. A chance event's value (a recorded result, a sample, or
// the state becomes a chance node), a probe's fixed dice, rolls with their modifiers, and table
// lookups with their keys, clamps and odds. Dice terms are read in expressions.cpp.
#include "interp.hpp"

namespace wp::engine {

// The value of a chance event with outcomes min + i weighted w[i]: a recorded result when
// replaying, a sample in sampled mode, else the state becomes a chance node.
std::int64_t interp::chance(std::int64_t min, const std::vector<std::uint64_t>& w, std::uint64_t total) {
    if (s.step_cursor_ < s.step_results_.size()) return s.step_results_[s.step_cursor_++];
    if (s.opt_.sampled_chance) {
        std::uint64_t x = s.rng_.below(total);
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (x < w[i]) return min + static_cast<std::int64_t>(i);
            x -= w[i];
        }
        return min + static_cast<std::int64_t>(w.size()) - 1;
    }
    s.options_.clear();
    s.weights_.clear();
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (w[i] == 0) continue;
        s.options_.push_back(min + static_cast<std::int64_t>(i));
        s.weights_.push_back(w[i]);
    }
    s.weight_total_ = total;
    s.pending_ = state::pending_kind::chance_roll;
    throw state::need_chance{};
}

// The first value given for `key` (a probe's dice), taken off the list.
std::optional<std::int64_t> interp::take_fixed(std::vector<std::pair<id, std::int64_t>>& fixed, id key) {
    for (auto it = fixed.begin(); it != fixed.end(); ++it) {
        if (it->first != key) continue;
        const std::int64_t v = it->second;
        fixed.erase(it);
        return v;
    }
    return std::nullopt;
}

std::int64_t interp::roll(id r, const std::int64_t* args, std::size_t count) {
    const id gi = g.group_of_roll[r];
    const std::int64_t v = rolled(r, args, count);
    const std::int64_t out = gi != ir::no_id && g.group_bounds[gi]
                                 ? bounded(gi, rs.rolls[r].expr, "roll", rs.rolls[r].name, v, args, count)
                                 : v;
    // Traced once: a statement replayed after a later chance event in it reads this roll's
    // result again from step_results_ (not the newest), and is not traced again.
    if (tracing() && s.step_cursor_ == s.step_results_.size()) [[unlikely]] {
        const ir::roll& ro = rs.rolls[r];
        std::string line = "roll " + ro.name +
                           (ro.param_count == 0 ? "" : args_text(ro.locals, args, std::min<std::size_t>(count, ro.param_count))) +
                           ": " + std::to_string(last_natural_);
        if (v != last_natural_) line += modifier_text_ + " = " + std::to_string(v);
        if (out != v) line += ", bounded to " + std::to_string(out);
        trace(line);
    }
    return out;
}

// The dice of roll r with its adding modifiers (then bounded by roll()).
std::int64_t interp::rolled(id r, const std::int64_t* args, std::size_t count) {
    const ir::roll& ro = rs.rolls[r];
    const std::int64_t mod = modifiers(g.group_of_roll[r], args, count);
    if (s.probing_) [[unlikely]] {
        if (const std::optional<std::int64_t> dice = take_fixed(s.fixed_rolls_, r)) {
            last_natural_ = *dice;
            return add_in(ro.expr, "roll", ro.name, *dice, mod);
        }
        for (const auto& [held, dice] : s.held_rolls_)
            if (held == r) {
                last_natural_ = dice;
                return add_in(ro.expr, "roll", ro.name, dice, mod);
            }
    }
    if (ro.linear && !ro.dist.weights.empty()) {
        add_in(ro.expr, "roll", ro.name, ro.dist.max, mod);  // every total of the roll, modified, is a 64-bit integer
        const std::int64_t v = chance(add_in(ro.expr, "roll", ro.name, ro.dist.min, mod), ro.dist.weights, ro.dist.total);
        last_natural_ = v - mod;  // no overflow: v - mod is a total of the dice
        return v;
    }
    const std::size_t mark = s.locals_.size();
    const std::uint32_t fb = push_region(std::max<std::size_t>(ro.locals.size(), count));
    for (std::size_t i = 0; i < count; ++i) s.locals_[fb + i] = args[i];
    // Kept for the trace: the dice expression may call quantities with modifiers of their own.
    std::string kept = tracing() ? modifier_text_ : std::string();
    const std::int64_t v = eval(ro.expr, fb);
    if (tracing()) [[unlikely]] modifier_text_ = std::move(kept);
    cut(s.locals_, mark);
    last_natural_ = v;
    return add_in(ro.expr, "roll", ro.name, v, mod);
}

// `(e)dM`: as many dice as the count says, one chance event for their total. The count's
// limits were checked by the compiler; a value outside them (a parameter given a value outside
// its type) stops the game here.
std::int64_t interp::dice_count(id n, std::uint32_t fb) {
    const ir::node& nd = N(n);
    const std::int64_t c = eval(child(n, 0), fb);
    const std::vector<ir::distribution>& by = g.dice_by_count.at(nd.ref);
    if (c < 0) fail(n, "a negative count of dice (" + std::to_string(c) + ") (" + g.statement_owner(n) + ")");
    if (static_cast<std::uint64_t>(c) >= by.size())
        fail(n, "a count of dice (" + std::to_string(c) + ") above its limit " + std::to_string(by.size() - 1) + " (" +
                    g.statement_owner(n) + ")");
    if (s.probing_) [[unlikely]] {
        if (const std::optional<std::int64_t> total = take_fixed(s.fixed_dice_, n)) return *total;
    }
    if (c == 0) return 0;
    const ir::distribution& d = by[static_cast<std::size_t>(c)];
    return chance(d.min, d.weights, d.total);
}

std::int32_t interp::map_key(const ir::key_map& km, std::int64_t k) {
    if (km.kind == ir::key_range_kind::member) {
        if (k < 0 || static_cast<std::size_t>(k) >= km.dense.size()) return -1;
        return km.dense[static_cast<std::size_t>(k)];
    }
    if (k < km.min) return km.below;
    if (k > km.max) return km.above;
    return km.dense[static_cast<std::size_t>(k - km.min)];
}

std::int64_t interp::clamp_key(const ir::table_key& key, std::int64_t k) {
    if (!key.has_clamp) return k;
    const std::int64_t lo = key.clamp_lo.open_lo ? std::numeric_limits<std::int64_t>::min() : key.clamp_lo.lo;
    const std::int64_t hi = key.clamp_hi.open_hi ? std::numeric_limits<std::int64_t>::max() : key.clamp_hi.hi;
    return std::clamp(k, lo, std::max(lo, hi));
}

// Odds: odds(a, b) is one value, the attacker a in the high 32 bits and the defender b in
// the low 32 (both signed). A table reads it on the odds scale ... 1-3 (-2), 1-2 (-1),
// 1-1 (0), 2-1 (1), 3-1 (2) ...: a >= b is floor(a/b)-1, a < b is 1-ceil(b/a) when rounded
// in favour of the defender (also without `round`); ceil(a/b)-1 and 1-floor(b/a) in favour
// of the attacker. A column `x-y` sits where its own ratio rounds for the defender
// (odds_below_all, in the header: 0 : b, below every column).

// odds(a, b): one value, the attacker in the high 32 bits and the defender in the low 32.
std::int64_t interp::odds_value(id n, std::uint32_t fb) {
    const std::int64_t a = eval(child(n, 0), fb);
    const std::int64_t d = eval(child(n, 1), fb);
    if (a < std::numeric_limits<std::int32_t>::min() || a > std::numeric_limits<std::int32_t>::max() ||
        d < std::numeric_limits<std::int32_t>::min() || d > std::numeric_limits<std::int32_t>::max())
        fail(n, "odds " + std::to_string(a) + ":" + std::to_string(d) + " are too large to read");
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(a) << 32) |
                                     static_cast<std::uint32_t>(static_cast<std::int32_t>(d)));
}

std::int64_t interp::odds_step(std::int64_t a, std::int64_t b, ir::rounding r) {
    const bool attacker = r == ir::rounding::attacker;
    if (a >= b) return (attacker ? (a + b - 1) / b : a / b) - 1;
    if (a == 0) return odds_below_all;  // 0 : b is below every column
    return 1 - (attacker ? b / a : (b + a - 1) / a);
}

std::string interp::odds_text(std::int64_t step) {
    if (step == odds_below_all) return "0-1";
    return step >= 0 ? std::to_string(step + 1) + "-1" : "1-" + std::to_string(1 - step);
}

// The step an odds key reads (after its clamps); the defender at least 1.
std::int64_t interp::odds_read(const ir::table_key& key, std::int64_t v) {
    std::int64_t step = odds_step(odds_attacker(v), odds_defender(v), key.round);
    if (key.has_clamp) {
        if (!key.clamp_lo.open_lo)
            step = std::max(step, odds_step(key.clamp_lo.lo, key.clamp_lo.hi, ir::rounding::defender));
        if (!key.clamp_hi.open_hi)
            step = std::min(step, odds_step(key.clamp_hi.lo, key.clamp_hi.hi, ir::rounding::defender));
    }
    return step;
}

// The row or column of odds value v on an odds axis (`ranges` the rows' or columns' keys).
template <class Key>
std::int32_t interp::odds_index(id n, const ir::table& tb, const ir::table_key& key, std::int64_t v, std::size_t count,
                                Key range, const char* what) const {
    const std::int64_t a = odds_attacker(v);
    const std::int64_t b = odds_defender(v);
    if (b <= 0 || a < 0)
        fail(n, "odds " + std::to_string(a) + ":" + std::to_string(b) + " for table " + tb.name +
                    ": the defender must be at least 1 and the attacker at least 0");
    if (ir::odds_fractional(tb, &key == &tb.keys[0] ? 0 : 1))
        return odds_index_fractional(n, tb, key, a, b, count, range, what);
    const std::int64_t step = odds_read(key, v);
    for (std::size_t i = 0; i < count; ++i) {
        const ir::key_range& k = range(i);
        if (odds_step(k.lo, k.hi, ir::rounding::defender) == step) return static_cast<std::int32_t>(i);
    }
    fail(n, std::string("no ") + what + " of table " + tb.name + " for odds " + std::to_string(a) + ":" +
                std::to_string(b) + " (read as " + odds_text(step) + ")",
         {"table-gap", tb.name, ""});
}

// The odds scale with fractional points: the whole ratios … 1-2, 1-1, 2-1 … and the axis's
// ratios that are not whole (`1-1.5`, `1.5-1`). For the defender, a:b reads the largest point
// at most a/b; for the attacker, the smallest at least a/b; then the clamp; then the row or
// column whose ratio is that point. Ratios compare exactly (p*q' against p'*q: every side is
// at most 2^31, the compiler keeps declared sides at most a million).
template <class Key>
std::int32_t interp::odds_index_fractional(id n, const ir::table& tb, const ir::table_key& key, std::int64_t a, std::int64_t b,
                                           std::size_t count, Key range, const char* what) const {
    using point = std::pair<std::int64_t, std::int64_t>;  // attacker : defender
    auto less = [](point x, point y) { return x.first * y.second < y.first * x.second; };
    const bool attacker = key.round == ir::rounding::attacker;
    const point r{a, b};
    bool below_all = a == 0;
    point read{1, 1};
    if (!below_all) {
        if (a >= b) read = {attacker ? (a + b - 1) / b : a / b, 1};
        else read = {1, attacker ? b / a : (b + a - 1) / a};
        auto consider = [&](const ir::key_range& k) {
            const point f{k.lo, k.hi};
            if (ir::odds_whole(k)) return;
            if (attacker ? (less(f, read) && !less(f, r)) : (less(read, f) && !less(r, f))) read = f;
        };
        for (std::size_t i = 0; i < count; ++i) consider(range(i));
        if (key.has_clamp && !key.clamp_lo.open_lo) consider(key.clamp_lo);
        if (key.has_clamp && !key.clamp_hi.open_hi) consider(key.clamp_hi);
    }
    if (key.has_clamp) {
        if (!key.clamp_lo.open_lo && (below_all || less(read, point{key.clamp_lo.lo, key.clamp_lo.hi}))) {
            read = {key.clamp_lo.lo, key.clamp_lo.hi};
            below_all = false;
        }
        if (!key.clamp_hi.open_hi && !below_all && less(point{key.clamp_hi.lo, key.clamp_hi.hi}, read))
            read = {key.clamp_hi.lo, key.clamp_hi.hi};
    }
    if (!below_all)
        for (std::size_t i = 0; i < count; ++i) {
            const ir::key_range& k = range(i);
            if (!less(read, point{k.lo, k.hi}) && !less(point{k.lo, k.hi}, read)) return static_cast<std::int32_t>(i);
        }
    fail(n, std::string("no ") + what + " of table " + tb.name + " for odds " + std::to_string(a) + ":" + std::to_string(b) +
                " (read as " + (below_all ? std::string("0-1") : ir::odds_point_text(read.first, read.second)) + ")",
         {"table-gap", tb.name, ""});
}

// The column `by` places right of col (left when negative): off the table, the end column
// with `shift … clamp`, else an engine error.
std::int32_t interp::shift_column(id n, const ir::table& tb, std::int32_t col, std::int64_t by) const {
    const auto last = static_cast<std::int64_t>(tb.columns.size()) - 1;
    const bool off = by < 0 ? by < -static_cast<std::int64_t>(col) : by > last - col;
    if (!off) return static_cast<std::int32_t>(col + by);
    if (tb.keys[1].shift_clamp) return by < 0 ? 0 : static_cast<std::int32_t>(last);
    fail(n, "no column of table " + tb.name + " for column " + tb.columns[static_cast<std::size_t>(col)].text + " shifted by " +
                std::to_string(by),
         {"table-gap", tb.name, ""});
}

// "table crt: row 5 "Defender retreats", column 2-1": the cell a statement consults.
void interp::trace_table(id t, const ir::table_cell* cell) const {
    const ir::table& tb = rs.tables[t];
    const std::size_t width = std::max<std::size_t>(1, tb.columns.size());
    const auto index = static_cast<std::size_t>(cell - tb.cells.data());
    const ir::table_row& row = tb.rows.at(index / width);
    std::string line = "table " + tb.name + ": row " + row.key.text;
    if (!row.label.empty()) line += " \"" + row.label + "\"";
    if (!tb.columns.empty()) line += ", column " + tb.columns.at(index % width).text;
    if (cell->has_outcome && tb.outcome_type != ir::no_id)  // the result, unless the row's label says it
        if (const std::string result = g.value_text(tb.outcome_type, cell->outcome); result != row.label) line += ": " + result;
    trace(line);
}

// Binds a table's arguments in a new region; returns the region and the cell.
// keys_out (when given) gets the key values (an odds key as its step), before the row and
// column are looked up.
std::pair<std::uint32_t, const ir::table_cell*> interp::table_cell(id n, id t, const std::int64_t* args, std::size_t count,
                                                                   std::vector<std::int64_t>* keys_out) {
    const ir::table& tb = rs.tables[t];
    const std::uint32_t fb = push_region(std::max<std::size_t>(tb.locals.size(), count));
    std::size_t a = 0;
    for (; a < tb.param_count && a < count; ++a) s.locals_[fb + a] = args[a];
    std::int64_t keys[2] = {0, 0};
    std::int64_t natural = 0;
    for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
        const ir::table_key& key = tb.keys[k];
        if (key.source == ir::key_source::key && key.var != ir::no_id && a < count) s.locals_[fb + key.var] = args[a++];
        if (key.source == ir::key_source::key && key.var != ir::no_id && key.expr == ir::no_id)
            keys[k] = s.locals_[fb + key.var];
        else
            keys[k] = eval(key.expr, fb);
        // the natural value: the dice key itself, or the roll's value before its modifiers
        if (k == 0 && !tb.natural_map.dense.empty()) natural = key.source == ir::key_source::dice ? keys[0] : last_natural_;
        if ((k == 0 ? tb.row_map : tb.column_map).kind != ir::key_range_kind::odds) keys[k] = clamp_key(key, keys[k]);
    }
    if (keys_out) {
        // as the rows and columns read them: an odds key as its step
        for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
            const bool odds = (k == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds;
            keys_out->push_back(odds && odds_defender(keys[k]) > 0 ? odds_read(tb.keys[k], keys[k]) : keys[k]);
        }
        if (!tb.natural_map.dense.empty()) {  // third: the natural roll
            if (keys_out->size() < 2) keys_out->push_back(0);
            keys_out->push_back(natural);
        }
    }
    std::int32_t row = 0;
    if (!tb.natural_map.dense.empty() && (row = map_key(tb.natural_map, natural)) >= 0) {
        // a natural row decides, whatever the modified total
    } else if (tb.row_map.kind == ir::key_range_kind::odds) {
        row = odds_index(n, tb, tb.keys[0], keys[0], tb.rows.size(),
                         [&](std::size_t i) -> const ir::key_range& { return tb.rows[i].key; }, "row");
    } else {
        row = map_key(tb.row_map, keys[0]);
        if (row < 0) fail(n, "no row of table " + tb.name + " for key " + std::to_string(keys[0]), {"table-gap", tb.name, ""});
    }
    std::int32_t col = 0;
    if (!tb.columns.empty()) {
        if (tb.column_map.kind == ir::key_range_kind::odds && tb.keys.size() > 1) {
            col = odds_index(n, tb, tb.keys[1], keys[1], tb.columns.size(),
                             [&](std::size_t i) -> const ir::key_range& { return tb.columns[i]; }, "column");
        } else {
            col = map_key(tb.column_map, keys[1]);
            if (col < 0) fail(n, "no column of table " + tb.name + " for key " + std::to_string(keys[1]), {"table-gap", tb.name, ""});
        }
        if (tb.keys.size() > 1 && tb.keys[1].shift != ir::no_id) col = shift_column(n, tb, col, eval(tb.keys[1].shift, fb));
    }
    if (!s.keys_read_.empty()) [[unlikely]] {
        s.keys_read_[g.table_key_first[t] + static_cast<std::uint32_t>(row)] = 1;
        if (!tb.columns.empty()) s.keys_read_[g.table_key_first[t] + tb.rows.size() + static_cast<std::uint32_t>(col)] = 1;
    }
    const std::size_t width = std::max<std::size_t>(1, tb.columns.size());
    return {fb, &tb.cells.at(static_cast<std::size_t>(row) * width + static_cast<std::size_t>(col))};
}

}  // namespace wp::engine
