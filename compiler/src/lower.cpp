// Pass `lower`: assembles the IR. Checks every body through typecheck, builds tables as dense
// arrays with key maps, rolls with exact distributions, rules with their targets and guards
// (refinements AND-ed in), rule groups with override edges (cycles are errors), and the errata
// record. After lower: the IR is complete and check_integrity() holds.
#include "westphalia/ir/printings.hpp"
#include "context.hpp"
#include "ir_cycles.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <set>

namespace wp::compiler::detail {

namespace {

struct lowerer {
    context& cx;

    frame_info frame(std::vector<ir::local>& locals, std::size_t params, ir::id layer, bool example = false) {
        frame_info f;
        f.locals = &locals;
        f.params = params;
        f.layer = layer;
        f.example = example;
        return f;
    }

    ir::id guard_with_refinements(const placed_decl& p, std::vector<ir::local>& locals, std::size_t params,
                                  const std::optional<dsl::expr>& guard, const dsl::span& where, bool& ok) {
        std::vector<ir::id> parts;
        if (guard) {
            body_checker b(cx, frame(locals, params, p.text_layer));
            typed g = b.expect(*guard, cx.t_bool, "the condition (`when`)");
            if (!g.ok()) ok = false;
            else parts.push_back(g.node);
        }
        for (const refinement& r : p.refinements) {
            body_checker b(cx, frame(locals, params, r.layer));
            typed g = b.expect(*r.guard, cx.t_bool, "the refined condition");
            if (!g.ok()) ok = false;
            else parts.push_back(g.node);
        }
        if (!ok || parts.empty()) return ir::no_id;
        body_checker b(cx, frame(locals, params, p.layer));
        return b.and_all(parts, where);
    }

    // ------------------------------------------------------------ rolls

    // A roll that is a sum of dice terms and constants gets its exact distribution.
    bool linear_terms(const dsl::expr& e, bool negative, ir::roll& r) {
        switch (e.kind) {
            case dsl::expr_kind::dice:
                r.terms.push_back({{e.dice.count, e.dice.low, e.dice.high}, negative});
                return true;
            case dsl::expr_kind::integer:
                r.constant += negative ? -e.value : e.value;
                return true;
            case dsl::expr_kind::unary:
                return e.text == "-" && e.args.size() == 1 && linear_terms(e.args[0], !negative, r);
            case dsl::expr_kind::binary:
                if (e.args.size() != 2 || (e.text != "+" && e.text != "-")) return false;
                return linear_terms(e.args[0], negative, r) && linear_terms(e.args[1], e.text == "-" ? !negative : negative, r);
            default: return false;
        }
    }

    void distribution(ir::roll& r) {
        ir::distribution& d = r.dist;
        d.min = d.max = r.constant;
        std::uint64_t total = 1;
        bool listable = true;
        for (const ir::signed_dice& t : r.terms) {
            const std::int64_t lo = t.dice.count * t.dice.low, hi = t.dice.count * t.dice.high;
            d.min += t.negative ? -hi : lo;
            d.max += t.negative ? -lo : hi;
            const auto faces = static_cast<std::uint64_t>(t.dice.high - t.dice.low + 1);
            for (std::int64_t i = 0; i < t.dice.count && listable; ++i) {
                if (total > (std::uint64_t{1} << 62) / faces) listable = false;
                else total *= faces;
            }
        }
        if (!listable || d.max - d.min > 1'000'000) return;
        // Convolution, one die at a time.
        std::vector<std::uint64_t> w{1};
        std::int64_t lo = r.constant;
        for (const ir::signed_dice& t : r.terms) {
            for (std::int64_t i = 0; i < t.dice.count; ++i) {
                const std::int64_t faces = t.dice.high - t.dice.low + 1;
                std::vector<std::uint64_t> next(w.size() + static_cast<std::size_t>(faces) - 1, 0);
                for (std::size_t a = 0; a < w.size(); ++a)
                    for (std::int64_t f = 0; f < faces; ++f) {
                        // A negated die adds -high .. -low: face index reversed.
                        const std::size_t at = a + static_cast<std::size_t>(t.negative ? faces - 1 - f : f);
                        next[at] += w[a];
                    }
                w = std::move(next);
                lo += t.negative ? -t.dice.high : t.dice.low;
            }
        }
        d.weights = std::move(w);
        d.total = total;
        d.min = lo;
        d.max = lo + static_cast<std::int64_t>(d.weights.size()) - 1;
    }

    void rolls() {
        for (std::size_t i = 0; i < cx.rs.rolls.size(); ++i) {
            ir::roll& r = cx.rs.rolls[i];
            const placed_decl& p = *cx.roll_src[i];
            const auto& d = std::get<dsl::roll_decl>(p.d->node);
            body_checker b(cx, frame(r.locals, r.param_count, p.text_layer));
            typed t = b.expect(d.dice, cx.t_int, "a roll");
            if (!t.ok()) continue;
            r.expr = t.node;
            ir::roll probe;
            if (linear_terms(d.dice, false, probe) && !probe.terms.empty()) {
                r.linear = true;
                r.terms = probe.terms;
                r.constant = probe.constant;
                distribution(r);
            }
        }
    }

    // ------------------------------------------------------------ quantities, actions, procedures, sequences

    void quantities() {
        for (std::size_t i = 0; i < cx.rs.quantities.size(); ++i) {
            ir::derived& q = cx.rs.quantities[i];
            const placed_decl& p = *cx.derived_src[i];
            const auto& d = std::get<dsl::derived_decl>(p.d->node);
            if (q.result == error_type) continue;
            body_checker b(cx, frame(q.locals, q.param_count, p.text_layer));
            typed t = b.expect(d.value, q.result, q.predicate ? "a predicate" : "the value of the quantity");
            if (t.ok()) q.expr = t.node;
        }
    }

    void actions() {
        for (std::size_t i = 0; i < cx.rs.actions.size(); ++i) {
            ir::action& a = cx.rs.actions[i];
            const placed_decl& p = *cx.action_src[i];
            const auto& d = std::get<dsl::action_decl>(p.d->node);
            bool ok = true;
            a.guard = guard_with_refinements(p, a.locals, a.param_count, d.guard, d.where, ok);
            body_checker b(cx, frame(a.locals, a.param_count, p.text_layer));
            b.path_prefix = a.name;
            a.body = b.stmts(d.body, d.where);
        }
    }

    void procedures() {
        for (std::size_t i = 0; i < cx.rs.procedures.size(); ++i) {
            ir::procedure& x = cx.rs.procedures[i];
            const placed_decl& p = *cx.procedure_src[i];
            const auto& d = std::get<dsl::procedure_decl>(p.d->node);
            frame_info f = frame(x.locals, x.param_count, p.text_layer);
            f.secret = true;
            body_checker b(cx, f);
            b.path_prefix = x.name;
            x.body = b.stmts(d.body, d.where);
        }
    }

    void sequences() {
        for (std::size_t i = 0; i < cx.rs.sequences.size(); ++i) {
            ir::sequence& x = cx.rs.sequences[i];
            const placed_decl& p = *cx.sequence_src[i];
            const auto& d = std::get<dsl::sequence_decl>(p.d->node);
            frame_info f = frame(x.locals, 0, p.text_layer);
            f.secret = true;
            body_checker b(cx, f);
            b.path_prefix = x.name;
            x.body = b.stmts(d.body, d.where);
        }
    }

    // ------------------------------------------------------------ tables

    static const std::vector<const dsl::table_row*> rows_of(const placed_decl& p, const dsl::table_decl& t) {
        if (p.amended) return p.amended_rows;
        std::vector<const dsl::table_row*> rows;
        for (const dsl::table_row& r : t.rows) rows.push_back(&r);
        return rows;
    }

    // The outcome type of each table, before any body can look a table up.
    void table_outcomes() {
        for (std::size_t i = 0; i < cx.rs.tables.size(); ++i) {
            ir::table& t = cx.rs.tables[i];
            const placed_decl& p = *cx.table_src[i];
            const auto& d = std::get<dsl::table_decl>(p.d->node);
            ir::id type = ir::no_id;
            const dsl::span* first = nullptr;
            bool failed = false;
            auto settle = [&](ir::id found, const dsl::span& where) {
                if (found == error_type) {
                    failed = true;
                    return;
                }
                if (type == ir::no_id) {
                    type = found;
                    first = &where;
                } else if (!compatible(cx, found, type) || (found != type && !(is_int(cx, found) && is_int(cx, type)))) {
                    cx.sink.error(dsl::diag_kind::type_mismatch, where,
                                  "the outcomes of table `" + t.name + "` must all be of one kind: this is " +
                                      cx.type_text(found) + ", an earlier one is " + cx.type_text(type),
                                  {{*first, "the first outcome is here"}});
                    failed = true;
                }
            };
            const bool two_keys = d.keys.size() == 2;
            for (const dsl::table_row* row : rows_of(p, d)) {
                bool cell_outcome = false;
                for (const dsl::table_cell& c : row->cells) {
                    if (!c.outcome) continue;
                    cell_outcome = true;
                    const dsl::expr& o = *c.outcome;
                    if (o.kind == dsl::expr_kind::string) settle(cx.t_string, o.where);
                    else if (o.kind == dsl::expr_kind::integer || o.kind == dsl::expr_kind::unary) settle(cx.t_int, o.where);
                    else if (o.kind == dsl::expr_kind::name) {
                        const auto [b, e] = cx.members.equal_range(o.text);
                        if (b == e) {
                            std::vector<std::string> names;
                            for (const auto& [n, m] : cx.members) names.push_back(n);
                            cx.unknown({o.text, o.where}, "outcome", names,
                                       {{std::nullopt, "a named outcome is a member of an enum; for free text use quotes"}});
                            settle(error_type, o.where);
                        } else if (type != ir::no_id && cx.type_at(type).kind == ir::type_kind::enumeration) {
                            // Prefer the enum the earlier outcomes use.
                            bool found = false;
                            for (auto it = b; it != e; ++it) found = found || it->second.first == cx.type_at(type).ref;
                            if (!found) {
                                ir::type et;
                                et.kind = ir::type_kind::enumeration;
                                et.ref = b->second.first;
                                settle(cx.intern(et), o.where);
                            }
                        } else if (std::next(b) != e) {
                            cx.sink.error(dsl::diag_kind::wrong_kind_of_name, o.where,
                                          "`" + o.text + "` is a member of several enums; this table cannot tell which");
                            settle(error_type, o.where);
                        } else {
                            ir::type et;
                            et.kind = ir::type_kind::enumeration;
                            et.ref = b->second.first;
                            settle(cx.intern(et), o.where);
                        }
                    }
                }
                if (!cell_outcome && !two_keys && row->label) settle(cx.t_string, row->where);
            }
            t.outcome_type = failed ? error_type : type;
        }
    }

    ir::key_range_kind axis_kind(ir::id type, const dsl::span& where, const std::string& table) {
        if (type == error_type) return ir::key_range_kind::integer;
        if (is_int(cx, type)) return ir::key_range_kind::integer;
        const auto k = cx.type_at(type).kind;
        if (k == ir::type_kind::enumeration) return ir::key_range_kind::member;
        if (k == ir::type_kind::odds) return ir::key_range_kind::odds;
        cx.sink.error(dsl::diag_kind::bad_table, where,
                      "the key of table `" + table + "` must be a number, an enum value or odds, not " + cx.type_text(type));
        return ir::key_range_kind::integer;
    }

    std::optional<ir::key_range> key_of(const dsl::key_range& k, ir::key_range_kind axis, ir::id type, const std::string& table) {
        ir::key_range x;
        x.kind = axis;
        x.text = k.text;
        auto bad = [&](const std::string& why) -> std::optional<ir::key_range> {
            cx.sink.error(dsl::diag_kind::bad_table, k.where, "`" + k.text + "` " + why + " in table `" + table + "`");
            return std::nullopt;
        };
        switch (axis) {
            case ir::key_range_kind::integer:
                switch (k.kind) {
                    case dsl::key_kind::exact: x.lo = x.hi = k.lo; return x;
                    case dsl::key_kind::range:
                        if (k.decimal) return bad("has a decimal point, but the key is a whole number");
                        if (k.lo > k.hi) return bad("is a range whose start is above its end");
                        x.lo = k.lo;
                        x.hi = k.hi;
                        return x;
                    case dsl::key_kind::at_least: x.lo = k.lo; x.hi = k.lo; x.open_hi = true; return x;
                    case dsl::key_kind::at_most: x.lo = k.hi; x.hi = k.hi; x.open_lo = true; return x;
                    case dsl::key_kind::odds: x.lo = k.lo; x.hi = k.hi; return x;  // not reached: odds only on odds keys
                    case dsl::key_kind::value: return bad("is a name, but the key is a number");
                }
                break;
            case ir::key_range_kind::odds:
                if (k.kind != dsl::key_kind::odds && k.kind != dsl::key_kind::range) return bad("is not an odds ratio (`3-1`)");
                if (k.decimal) {
                    // at most three decimal places on either side (`1.125-1`), as for a clamp's ends
                    std::size_t places = 0;
                    bool after = false;
                    for (char ch : k.text) {
                        if (ch == '.') {
                            after = true;
                            places = 0;
                        } else if (ch >= '0' && ch <= '9') {
                            places += after ? 1 : 0;
                        } else {
                            after = false;
                        }
                        if (places > 3) return bad("is an odds ratio with more than three decimal places");
                    }
                }
                if (k.lo < 1 || k.hi < 1) return bad("is not an odds ratio (both sides at least 1)");
                if (k.lo > 1000000 || k.hi > 1000000) return bad("is an odds ratio with a side above 1000000");
                x.lo = k.lo;
                x.hi = k.hi;
                return x;
            case ir::key_range_kind::member: {
                if (k.kind != dsl::key_kind::value) return bad("is not a member of the key's enum");
                const ir::id en = cx.type_at(type).ref;
                const auto& ms = cx.rs.enums[en].members;
                for (std::size_t i = 0; i < ms.size(); ++i)
                    if (ms[i].name == k.value.text) {
                        x.lo = x.hi = static_cast<std::int64_t>(i);
                        return x;
                    }
                std::vector<std::string> names;
                for (const auto& m : ms) names.push_back(m.name);
                cx.unknown(k.value, "member of `" + cx.rs.enums[en].name + "`", names);
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    std::optional<ir::key_range> clamp_end(const std::string& text, ir::key_range_kind axis, const dsl::span& where,
                                           const std::string& table) {
        ir::key_range x;
        x.kind = axis;
        x.text = text;
        auto number = [](const std::string& s, std::size_t from, std::size_t to) -> std::optional<std::int64_t> {
            if (from >= to || to - from > 15) return std::nullopt;
            std::size_t i = from;
            bool neg = false;
            if (s[i] == '-') {
                neg = true;
                ++i;
            }
            if (i >= to) return std::nullopt;
            std::int64_t v = 0;
            for (; i < to; ++i) {
                if (s[i] < '0' || s[i] > '9') return std::nullopt;
                v = v * 10 + (s[i] - '0');
            }
            return neg ? -v : v;
        };
        // `1.5`: n / 10^places (at most three places)
        auto decimal = [&](const std::string& s, std::size_t from, std::size_t to) -> std::optional<std::pair<std::int64_t, std::int64_t>> {
            const std::size_t point = s.find('.', from);
            if (point == std::string::npos || point >= to) {
                auto v = number(s, from, to);
                return v ? std::optional(std::make_pair(*v, std::int64_t{1})) : std::nullopt;
            }
            if (to - point - 1 > 3 || to - point - 1 == 0) return std::nullopt;
            auto whole = number(s, from, point);
            auto frac = number(s, point + 1, to);
            if (!whole || !frac || *whole < 0) return std::nullopt;
            std::int64_t den = 1;
            for (std::size_t i = point + 1; i < to; ++i) den *= 10;
            return std::make_pair(*whole * den + *frac, den);
        };
        if (axis == ir::key_range_kind::odds) {
            const auto dash = text.find('-', 1);
            auto a = dash == std::string::npos ? std::nullopt : decimal(text, 0, dash);
            auto d = dash == std::string::npos ? std::nullopt : decimal(text, dash + 1, text.size());
            if (a && d && a->first >= 1 && d->first >= 1) {
                auto [lo, hi] = lowest_terms(a->first * d->second, d->first * a->second);
                if (lo <= 1000000 && hi <= 1000000) {
                    x.lo = lo;
                    x.hi = hi;
                    return x;
                }
            }
        } else if (axis == ir::key_range_kind::integer) {
            if (auto v = number(text, 0, text.size())) {
                x.lo = x.hi = *v;
                return x;
            }
        }
        cx.sink.error(dsl::diag_kind::bad_table, where, "`clamp " + text + "` is not a key of table `" + table + "`");
        return std::nullopt;
    }

    // ids[i] is the row (column) index keys[i] maps to; empty for 0, 1, 2, …
    ir::key_map key_map_of(const std::vector<ir::key_range>& keys, ir::key_range_kind axis, ir::id type,
                           const dsl::span& where, const std::string& table, const std::vector<std::int32_t>& ids = {}) {
        auto id_of = [&](std::size_t r) { return ids.empty() ? static_cast<std::int32_t>(r) : ids[r]; };
        ir::key_map m;
        m.kind = axis;
        if (axis == ir::key_range_kind::odds || keys.empty()) return m;
        if (axis == ir::key_range_kind::member) {
            const std::size_t n = cx.rs.enums[cx.type_at(type).ref].members.size();
            m.min = 0;
            m.max = static_cast<std::int64_t>(n) - 1;
            m.dense.assign(n, -1);
            for (std::size_t r = 0; r < keys.size(); ++r) {
                auto& slot = m.dense[static_cast<std::size_t>(keys[r].lo)];
                if (slot < 0) slot = id_of(r);
            }
            return m;
        }
        std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
        for (const ir::key_range& k : keys) {
            lo = std::min({lo, k.lo, k.hi});
            hi = std::max({hi, k.lo, k.hi});
        }
        if (static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) > 100000) {
            cx.sink.error(dsl::diag_kind::bad_table, where,
                          "the rows of table `" + table + "` span " + std::to_string(lo) + ".." + std::to_string(hi) +
                              "; a table key may span at most 100000 values");
            return m;
        }
        m.min = lo;
        m.max = hi;
        m.dense.assign(static_cast<std::size_t>(hi - lo + 1), -1);
        for (std::size_t r = 0; r < keys.size(); ++r) {
            const ir::key_range& k = keys[r];
            const std::int64_t from = k.open_lo ? lo : k.lo;
            const std::int64_t to = k.open_hi ? hi : k.hi;
            for (std::int64_t v = from; v <= to; ++v) {
                auto& slot = m.dense[static_cast<std::size_t>(v - lo)];
                if (slot < 0) slot = id_of(r);  // overlaps: the first row wins (the checker reports them)
            }
            if (k.open_lo && m.below < 0) m.below = id_of(r);
            if (k.open_hi && m.above < 0) m.above = id_of(r);
        }
        return m;
    }

    static std::pair<std::int64_t, std::int64_t> lowest_terms(std::int64_t a, std::int64_t b) {
        const std::int64_t g = std::gcd(a, b);
        return g > 1 ? std::make_pair(a / g, b / g) : std::make_pair(a, b);
    }

    // An odds ratio is one point of the scale: `1.5-1` and `3-2` (or `2-1` twice) are one column.
    bool odds_unique(const dsl::key_range& written, const ir::key_range& k, const std::vector<ir::key_range>& earlier,
                     const char* what, const std::string& table) {
        for (const ir::key_range& e : earlier)
            if (lowest_terms(e.lo, e.hi) == lowest_terms(k.lo, k.hi)) {
                cx.sink.error(dsl::diag_kind::bad_table, written.where,
                              std::string("the odds ") + what + " `" + written.text + "` of table `" + table + "` repeats `" +
                                  e.text + "`: both are the ratio " + std::to_string(k.lo) + ":" + std::to_string(k.hi));
                return false;
            }
        return true;
    }

    // A shift moves the column read: it needs a column key and a column to move to.
    bool shift_ok(const dsl::table_decl& d, const ir::table& t) {
        for (std::size_t k = 0; k < d.keys.size(); ++k) {
            if (!d.keys[k].shift) continue;
            const dsl::span& at = d.keys[k].shift->where;
            if (d.keys.size() < 2) {
                cx.sink.error(dsl::diag_kind::bad_table, at,
                              "a shift with no column to shift into: table `" + t.name + "` has one key (a shift moves the column key)");
                return false;
            }
            if (k == 0) {
                cx.sink.error(dsl::diag_kind::bad_table, at, "a shift moves the column key (the second key of `" + t.name + "`), not the row key");
                return false;
            }
            if (d.columns.size() < 2) {
                cx.sink.error(dsl::diag_kind::bad_table, at,
                              "a shift with no column to shift into: table `" + t.name + "` has " + std::to_string(d.columns.size()) +
                                  (d.columns.size() == 1 ? " column" : " columns"));
                return false;
            }
            // a constant shift of at least the columns there are never lands on one
            const ir::id sh = t.keys[k].shift;
            if (sh == ir::no_id || t.keys[k].shift_clamp) continue;
            const ir::node& n = cx.rs.nodes[sh];
            std::optional<std::int64_t> c;
            if (n.code == ir::op::const_int) c = n.value;
            if (c && (*c >= static_cast<std::int64_t>(d.columns.size()) || *c <= -static_cast<std::int64_t>(d.columns.size()))) {
                cx.sink.error(dsl::diag_kind::bad_table, at,
                              "a shift with no column to shift into: " + std::to_string(*c) + " columns from any of the " +
                                  std::to_string(d.columns.size()) + " columns of `" + t.name + "` is off the table");
                return false;
            }
        }
        return true;
    }

    // A natural row needs a row key that is a roll, and a value its dice can show.
    bool natural_ok(const dsl::table_decl& d, const ir::table_key& key, const dsl::table_row& row, ir::key_range_kind axis,
                    const std::string& table) {
        const dsl::table_key& k = d.keys[0];
        if (k.kind == dsl::table_key_kind::key || axis != ir::key_range_kind::integer) {
            cx.sink.error(dsl::diag_kind::bad_table, row.where,
                          "the row `natural " + row.key.text + "` of table `" + table +
                              "` needs a row key that is a roll (`roll r(args)` or `roll 1d6`)");
            return false;
        }
        // the dice's own values: the named roll's distribution, or the dice written as the key
        ir::roll probe;
        const ir::distribution* dist = nullptr;
        std::string what;
        if (k.kind == dsl::table_key_kind::roll) {
            if (key.expr != ir::no_id && cx.rs.nodes[key.expr].code == ir::op::roll) {
                const ir::roll& ro = cx.rs.rolls[cx.rs.nodes[key.expr].ref];
                dist = &ro.dist;
                what = "roll `" + ro.name + "`";
            }
        } else if (linear_terms(k.source, false, probe) && !probe.terms.empty()) {
            distribution(probe);
            dist = &probe.dist;
            what = "the table's dice";
        }
        if (!dist || dist->weights.empty()) return true;  // the checker asks which values it shows
        const std::int64_t lo = row.key.kind == dsl::key_kind::at_most ? std::numeric_limits<std::int64_t>::min() : row.key.lo;
        const std::int64_t hi = row.key.kind == dsl::key_kind::at_least ? std::numeric_limits<std::int64_t>::max() : row.key.hi;
        for (std::size_t i = 0; i < dist->weights.size(); ++i) {
            const std::int64_t v = dist->min + static_cast<std::int64_t>(i);
            if (dist->weights[i] != 0 && v >= lo && v <= hi) return true;
        }
        cx.sink.error(dsl::diag_kind::bad_table, row.key.where,
                      "no roll of " + what + " shows a natural `" + row.key.text + "` (it shows " + std::to_string(dist->min) +
                          ".." + std::to_string(dist->max) + ")");
        return false;
    }

    void tables() {
        for (std::size_t i = 0; i < cx.rs.tables.size(); ++i) {
            ir::table& t = cx.rs.tables[i];
            const placed_decl& p = *cx.table_src[i];
            const auto& d = std::get<dsl::table_decl>(p.d->node);
            const std::size_t params = d.params.size();
            std::size_t next_var = params;
            std::vector<ir::key_range_kind> axes;
            std::vector<ir::id> axis_types;
            bool ok = true;
            for (const dsl::table_key& k : d.keys) {
                ir::table_key key;
                key.prov = cx.prov(k.where, {}, p.layer);
                body_checker b(cx, frame(t.locals, t.param_count, p.text_layer));
                typed src;
                if (k.kind == dsl::table_key_kind::key && !k.var.text.empty()) {
                    key.source = ir::key_source::key;
                    key.var = static_cast<ir::id>(next_var++);
                    dsl::expr var;
                    var.kind = dsl::expr_kind::name;
                    var.text = k.var.text;
                    var.where = k.var.where;
                    src = b.expr(var);
                } else {
                    key.source = k.kind == dsl::table_key_kind::roll   ? ir::key_source::roll
                                 : k.kind == dsl::table_key_kind::dice ? ir::key_source::dice
                                                                       : ir::key_source::key;
                    src = b.expr(k.source);
                }
                if (!src.ok()) {
                    ok = false;
                    axes.push_back(ir::key_range_kind::integer);
                    axis_types.push_back(error_type);
                    t.keys.push_back(std::move(key));
                    continue;
                }
                key.expr = src.node;
                key.type = src.type;
                const ir::key_range_kind axis = axis_kind(src.type, k.where, t.name);
                axes.push_back(axis);
                axis_types.push_back(src.type);
                if (k.rounding) {
                    if (axis != ir::key_range_kind::odds) {
                        cx.sink.error(dsl::diag_kind::bad_table, k.rounding->where, "`round` applies to an odds key only");
                    } else if (k.rounding->text == "attacker") {
                        key.round = ir::rounding::attacker;
                    } else if (k.rounding->text == "defender") {
                        key.round = ir::rounding::defender;
                    } else {
                        cx.sink.error(dsl::diag_kind::bad_table, k.rounding->where,
                                      "odds round in favour of the `attacker` or the `defender`, not `" + k.rounding->text + "`");
                    }
                }
                if (k.clamp_lo || k.clamp_hi) {
                    key.has_clamp = true;
                    if (axis == ir::key_range_kind::member) {
                        cx.sink.error(dsl::diag_kind::bad_table, k.where, "`clamp` applies to number and odds keys only");
                    } else {
                        if (k.clamp_lo) {
                            if (auto c = clamp_end(*k.clamp_lo, axis, k.where, t.name)) key.clamp_lo = *c;
                        } else {
                            key.clamp_lo.kind = axis;
                            key.clamp_lo.open_lo = true;
                        }
                        if (k.clamp_hi) {
                            if (auto c = clamp_end(*k.clamp_hi, axis, k.where, t.name)) key.clamp_hi = *c;
                        } else {
                            key.clamp_hi.kind = axis;
                            key.clamp_hi.open_hi = true;
                        }
                    }
                }
                if (k.shift) {
                    typed sh = b.expect(*k.shift, cx.t_int, "a column shift");
                    if (!sh.ok()) ok = false;
                    else key.shift = sh.node;
                    key.shift_clamp = k.shift_clamp;
                }
                t.keys.push_back(std::move(key));
            }
            if (!ok) continue;
            const bool two = d.keys.size() == 2;
            if (!shift_ok(d, t)) continue;
            if (d.keys.empty() || d.keys.size() > 2) continue;
            if (two && d.columns.empty()) {
                cx.sink.error(dsl::diag_kind::bad_table, d.id.where,
                              "table `" + t.name + "` has two keys but no `columns` line");
                continue;
            }
            if (!two && !d.columns.empty()) {
                cx.sink.error(dsl::diag_kind::bad_table, d.id.where,
                              "table `" + t.name + "` has one key, so it takes no `columns` line");
                continue;
            }
            for (std::size_t c = 0; c < d.columns.size(); ++c) {
                if (auto k = key_of(d.columns[c], axes[1], axis_types[1], t.name)) {
                    if (axes[1] == ir::key_range_kind::odds && !odds_unique(d.columns[c], *k, t.columns, "column", t.name)) ok = false;
                    t.columns.push_back(*k);
                } else {
                    ok = false;
                }
            }
            const std::size_t columns = std::max<std::size_t>(1, t.columns.size());
            const auto rows = rows_of(p, d);
            for (std::size_t r = 0; r < rows.size(); ++r) {
                const dsl::table_row& row = *rows[r];
                const ir::id row_layer = p.amended ? p.row_layers[r] : p.text_layer;
                auto key = key_of(row.key, axes[0], axis_types[0], t.name);
                if (!key) {
                    ok = false;
                    continue;
                }
                if (row.natural && !natural_ok(d, t.keys[0], row, axes[0], t.name)) {
                    ok = false;
                    continue;
                }
                if (axes[0] == ir::key_range_kind::odds) {
                    std::vector<ir::key_range> earlier;
                    for (const ir::table_row& e : t.rows) earlier.push_back(e.key);
                    if (!odds_unique(row.key, *key, earlier, "row", t.name)) {
                        ok = false;
                        continue;
                    }
                }
                ir::table_row x;
                x.natural = row.natural;
                x.key = *key;
                x.label = row.label.value_or("");
                x.prov = cx.prov(row.where, row.anchors, row_layer);
                if (row.cells.size() > columns || (two && row.cells.size() != columns)) {
                    cx.sink.error(dsl::diag_kind::bad_table, row.where,
                                  "the row `" + row.key.text + "` of table `" + t.name + "` has " +
                                      std::to_string(row.cells.size()) + " cells for " + std::to_string(columns) +
                                      (columns == 1 ? " column" : " columns"));
                    ok = false;
                    continue;
                }
                t.rows.push_back(std::move(x));
                for (std::size_t c = 0; c < columns; ++c) {
                    ir::table_cell cell;
                    const dsl::table_cell* src = c < row.cells.size() ? &row.cells[c] : nullptr;
                    cell.prov = cx.prov(src ? src->where : row.where, {}, row_layer);
                    if (src && src->outcome && t.outcome_type != error_type && t.outcome_type != ir::no_id) {
                        if (auto v = constant(cx, *src->outcome, t.outcome_type, "the outcome")) {
                            cell.has_outcome = true;
                            cell.outcome = *v;
                        } else {
                            ok = false;
                        }
                    } else if (!two && row.label && t.outcome_type == cx.t_string) {
                        cell.has_outcome = true;
                        cell.outcome = cx.string_id(*row.label);
                    }
                    if (src && !src->effects.empty()) {
                        body_checker b(cx, frame(t.locals, t.param_count, row_layer));
                        b.path_prefix = t.name;
                        cell.effects = b.stmts(src->effects, src->where);
                        if (cell.effects == ir::no_id) ok = false;
                    }
                    t.cells.push_back(std::move(cell));
                }
            }
            if (!ok) continue;
            std::vector<ir::key_range> row_keys, natural_keys;
            std::vector<std::int32_t> row_ids, natural_ids;
            for (std::size_t r = 0; r < t.rows.size(); ++r) {
                (t.rows[r].natural ? natural_keys : row_keys).push_back(t.rows[r].key);
                (t.rows[r].natural ? natural_ids : row_ids).push_back(static_cast<std::int32_t>(r));
            }
            t.row_map = key_map_of(row_keys, axes[0], axis_types[0], d.id.where, t.name, row_ids);
            if (!natural_keys.empty())
                t.natural_map = key_map_of(natural_keys, ir::key_range_kind::integer, cx.t_int, d.id.where, t.name, natural_ids);
            if (two) t.column_map = key_map_of(t.columns, axes[1], axis_types[1], d.id.where, t.name);
        }
    }

    // ------------------------------------------------------------ rules

    struct target_info {
        ir::target_kind kind = ir::target_kind::none;
        ir::id id = ir::no_id;
        std::vector<ir::local> params;
    };

    std::optional<target_info> rule_target(const dsl::rule_decl& d) {
        target_info t;
        if (!ir::plays(static_cast<ir::rule_kind>(d.kind))) return t;  // invariants, examples, queries: no target
        auto it = cx.values.find(d.target.text);
        if (auto alias = cx.patched.aliases.find(d.target.text); it == cx.values.end() && alias != cx.patched.aliases.end())
            it = cx.values.find(alias->second);
        const char* wanted = nullptr;
        sym want1 = sym::roll, want2 = sym::roll;
        switch (d.kind) {
            case dsl::rule_kind::modifier: wanted = "a roll or a quantity"; want1 = sym::roll; want2 = sym::derived; break;
            case dsl::rule_kind::define: wanted = "a decision"; want1 = want2 = sym::decision; break;
            case dsl::rule_kind::trigger: wanted = "an event"; want1 = want2 = sym::event; break;
            default: wanted = "an action"; want1 = want2 = sym::action; break;
        }
        if (it == cx.values.end()) {
            if (auto type = cx.types.find(d.target.text); type != cx.types.end()) {
                // A type name (an enum, a record…): the designer aimed the rule at the wrong thing.
                cx.sink.error(dsl::diag_kind::bad_rule_target, d.target.where,
                              std::string("a `") + rule_word(d.kind) + "` rule applies to " + wanted + ", but `" +
                                  d.target.text + "` is " + article(sym_word(type->second.kind)) + " " +
                                  sym_word(type->second.kind),
                              {{type->second.where, "`" + d.target.text + "` is declared here"}});
                return std::nullopt;
            }
            std::vector<std::string> names;
            for (const auto& [n, s] : cx.values)
                if (s.kind == want1 || s.kind == want2) names.push_back(n);
            std::string what = d.kind == dsl::rule_kind::modifier ? "roll or quantity"
                               : d.kind == dsl::rule_kind::define ? "decision"
                               : d.kind == dsl::rule_kind::trigger ? "event"
                                                                   : "action";
            cx.unknown(d.target, what, names);
            return std::nullopt;
        }
        const symbol& s = it->second;
        const bool fits = (s.kind == want1 || s.kind == want2) &&
                          !(s.kind == sym::derived && cx.rs.quantities[s.index].predicate);
        if (!fits) {
            std::vector<dsl::diag_note> notes{{s.where, "`" + d.target.text + "` is declared here"}};
            if (s.kind == sym::table && d.kind == dsl::rule_kind::modifier) {
                const ir::table& tb = cx.rs.tables[s.index];
                if (!tb.keys.empty() && tb.keys[0].source == ir::key_source::roll && tb.keys[0].expr != ir::no_id) {
                    const ir::node& n = cx.rs.nodes[tb.keys[0].expr];
                    notes.push_back({std::nullopt, "the table reads the roll `" + cx.rs.rolls[n.ref].name +
                                                       "`; aim the modifier at that roll"});
                }
            }
            const std::string kind_word = s.kind == sym::derived && cx.rs.quantities[s.index].predicate ? "predicate" : sym_word(s.kind);
            cx.sink.error(dsl::diag_kind::bad_rule_target, d.target.where,
                          std::string("a `") + rule_word(d.kind) + "` rule applies to " + wanted + ", but `" + d.target.text +
                              "` is " + article(kind_word) + " " + kind_word,
                          std::move(notes));
            return std::nullopt;
        }
        switch (s.kind) {
            case sym::roll:
                t.kind = ir::target_kind::roll;
                t.params.assign(cx.rs.rolls[s.index].locals.begin(),
                                cx.rs.rolls[s.index].locals.begin() + cx.rs.rolls[s.index].param_count);
                break;
            case sym::derived:
                t.kind = ir::target_kind::quantity;
                t.params.assign(cx.rs.quantities[s.index].locals.begin(),
                                cx.rs.quantities[s.index].locals.begin() + cx.rs.quantities[s.index].param_count);
                break;
            case sym::decision: t.kind = ir::target_kind::decision; t.params = cx.rs.decisions[s.index].params; break;
            case sym::action:
                t.kind = ir::target_kind::action;
                t.params.assign(cx.rs.actions[s.index].locals.begin(),
                                cx.rs.actions[s.index].locals.begin() + cx.rs.actions[s.index].param_count);
                break;
            case sym::event: t.kind = ir::target_kind::event; t.params = cx.rs.events[s.index].params; break;
            default: break;
        }
        t.id = s.index;
        return t;
    }

    static const char* rule_word(dsl::rule_kind k) { return ir::name_of(static_cast<ir::rule_kind>(k)); }

    // `chances`' parameters are its grid's rows and columns: one or two, each of a range or an
    // enum type small enough to print (docs/language.md §7).
    bool chances_params(const dsl::rule_decl& d, ir::rule& r) {
        static constexpr std::int64_t most[2] = {40, 16};
        if (d.params.empty() || d.params.size() > 2) {
            cx.sink.error(dsl::diag_kind::wrong_arity, d.id.where,
                          "`chances` has one parameter (the rows of its grid) or two (rows and columns), not " +
                              std::to_string(d.params.size()));
            return false;
        }
        bool ok = true;
        std::map<std::string, dsl::span> seen;
        for (std::size_t a = 0; a < d.params.size(); ++a) {
            const dsl::param& p = d.params[a];
            if (auto [it, fresh] = seen.emplace(p.id.text, p.id.where); !fresh) {
                cx.sink.error(dsl::diag_kind::duplicate_name, p.id.where, "two parameters are named `" + p.id.text + "`",
                              {{it->second, "the first is here"}});
                ok = false;
            }
            const ir::id t = resolve_type(cx, p.type);
            r.locals.push_back({p.id.text, t});
            if (t == error_type || t >= cx.rs.types.size()) {
                ok = false;
                continue;
            }
            const ir::type& ty = cx.rs.types[t];
            std::int64_t n = -1;
            if (ty.kind == ir::type_kind::range) n = ty.hi - ty.lo + 1;
            else if (ty.kind == ir::type_kind::enumeration) n = static_cast<std::int64_t>(cx.rs.enums[ty.ref].members.size());
            else if (ty.kind == ir::type_kind::boolean) n = 2;
            if (n < 0) {
                cx.sink.error(dsl::diag_kind::type_mismatch, p.id.where,
                              "a parameter of `chances` names the rows or columns of a grid: a range (`1..8`), an enum or "
                              "`bool`, not " + cx.type_text(t));
                ok = false;
            } else if (n > most[a]) {
                cx.sink.error(dsl::diag_kind::value_out_of_bounds, p.id.where,
                              std::string("a grid of `chances` has at most ") + std::to_string(most[a]) +
                                  (a == 0 ? " rows" : " columns") + "; `" + p.id.text + "` has " + std::to_string(n) + " values");
                ok = false;
            }
        }
        return ok;
    }

    void rules() {
        for (std::size_t i = 0; i < cx.rs.rules.size(); ++i) {
            ir::rule& r = cx.rs.rules[i];
            const placed_decl& p = *cx.rule_src[i];
            const auto& d = std::get<dsl::rule_decl>(p.d->node);
            auto target = rule_target(d);
            if (!target) continue;
            r.target = target->kind;
            r.target_id = target->id;
            // The target's parameters, named by the rule's binders or by the target's own names.
            if (!d.target_args.empty() && d.target_args.size() != target->params.size()) {
                std::string sig;
                for (std::size_t a = 0; a < target->params.size(); ++a)
                    sig += (a ? ", " : "") + target->params[a].name + ": " + ir::type_name(cx.rs, target->params[a].type);
                cx.sink.error(dsl::diag_kind::wrong_arity, d.target.where,
                              "`" + d.target.text + "` has " + std::to_string(target->params.size()) +
                                  (target->params.size() == 1 ? " parameter (" : " parameters (") + sig +
                                  "); name each of them, or none to use these names");
                continue;
            }
            for (std::size_t a = 0; a < target->params.size(); ++a) {
                ir::local l = target->params[a];
                if (!d.target_args.empty()) l.name = d.target_args[a].text;
                r.locals.push_back(std::move(l));
            }
            if (d.kind == dsl::rule_kind::chances && !chances_params(d, r)) continue;
            r.param_count = static_cast<std::uint32_t>(r.locals.size());
            bool ok = true;
            r.guard = guard_with_refinements(p, r.locals, r.param_count, d.guard, d.where, ok);
            body_checker b(cx, frame(r.locals, r.param_count, p.text_layer, ir::runs_a_given(r.kind)));
            if (d.during && ir::is_query(r.kind)) {
                cx.sink.error(dsl::diag_kind::bad_rule_target, d.during->where,
                              "a query asks about the whole of play: it is not part of a card's event");
                continue;
            }
            if (d.during) during(i, d, b);
            b.path_prefix = r.name;
            switch (d.kind) {
                case dsl::rule_kind::modifier: {
                    r.mod = static_cast<ir::modifier_kind>(d.mod);
                    // Adding to, setting or bounding a value needs a number: a quantity of an enum,
                    // a seat or a card has no `+ 1`, no maximum.
                    if (r.target == ir::target_kind::quantity) {
                        const ir::derived& q = cx.rs.quantities[r.target_id];
                        // A quantity whose type did not resolve has had its error already
                        // (and `error_type` indexes no type: a fuzzer's crash, CI of stop 38).
                        const bool unresolved = q.result == error_type;
                        const ir::type_kind k = q.result < cx.rs.types.size() ? cx.rs.types[q.result].kind : ir::type_kind::error;
                        if (!unresolved && k != ir::type_kind::integer && k != ir::type_kind::range) {
                            const char* what = d.mod == dsl::modifier_kind::set        ? "set"
                                               : d.mod == dsl::modifier_kind::at_most  ? "capped (`at most`)"
                                               : d.mod == dsl::modifier_kind::at_least ? "floored (`at least`)"
                                                                                       : "added to";
                            cx.sink.error(dsl::diag_kind::bad_rule_target, d.target.where,
                                          "a modifier's target is " + std::string(what) + " as a number, but `" +
                                              d.target.text + "` is " + cx.type_text(q.result));
                            break;
                        }
                    }
                    typed a = b.expect(d.amount, cx.t_int, "the amount of a modifier");
                    if (a.ok()) r.amount = a.node;
                    break;
                }
                case dsl::rule_kind::define: {
                    const ir::id want = cx.rs.decisions[r.target_id].result;
                    typed v = b.expect(d.value, want, "the defined value");
                    if (v.ok()) r.value = v.node;
                    break;
                }
                case dsl::rule_kind::trigger: r.body = b.stmts(d.body, d.where); break;
                case dsl::rule_kind::invariant: {
                    typed v = b.expect(d.value, cx.t_bool, "an invariant");
                    if (v.ok()) r.value = v.node;
                    break;
                }
                case dsl::rule_kind::assert_always:
                case dsl::rule_kind::assert_never:
                case dsl::rule_kind::reachable: {
                    typed v = b.expect(d.value, cx.t_bool, "the property of a query");
                    if (v.ok()) r.value = v.node;
                    break;
                }
                case dsl::rule_kind::chances:  // a `given` and a condition, as an example's
                case dsl::rule_kind::example: {
                    b.push_scope();
                    r.body = b.stmts(d.body, d.where, true);
                    typed v = b.expect(d.value, cx.t_bool,
                                       d.kind == dsl::rule_kind::chances ? "the condition of `chances`" : "the expected outcome of an example");
                    b.pop_scope();
                    if (v.ok()) r.value = v.node;
                    break;
                }
                default: break;  // forbid / permit / require: the guard is the rule
            }
        }
        overrides();
    }

    // ------------------------------------------------------------ card events

    // Rule i is `during` a card's event: it applies only while the event is in force.
    std::map<ir::id, const card_event_plan*> during_;
    void during(std::size_t i, const dsl::rule_decl& d, body_checker& b) {
        ir::rule& r = cx.rs.rules[i];
        const card_event_plan* c = card_event_of(cx.patched, d.during->text);
        if (!c) {
            std::vector<std::string> names;
            for (const card_event_plan& x : cx.patched.card_events) names.push_back(x.decl->id.text);
            cx.unknown(*d.during, "card with an event", names);
            return;
        }
        if (c->flag.empty()) {
            cx.sink.error(dsl::diag_kind::event_never_in_force, d.during->where,
                          "rule `" + r.name + "` is during `" + c->decl->id.text +
                              "`'s event, which happens at once and is never in force, so the rule would never apply",
                          {{c->decl->id.where, "give the event a duration here: `lasts phase`, `lasts turn` or `lasts until cancelled`"}});
            return;
        }
        dsl::expr flag;
        flag.kind = dsl::expr_kind::name;
        flag.text = c->flag;
        flag.where = d.during->where;
        const typed f = b.expect(flag, cx.t_bool, "an event in force");
        if (!f.ok()) return;
        r.guard = r.guard == ir::no_id ? f.node : b.and_all({f.node, r.guard}, d.during->where);
        during_[static_cast<ir::id>(i)] = c;
    }

    // The IR's table of card events, its dispatchers and precedence; `lifts` rewrites each
    // invariant it names to `in force or …`.
    void card_events() {
        auto value = [&](const std::string& name, sym kind) {
            auto it = cx.values.find(name);
            return it != cx.values.end() && it->second.kind == kind ? it->second.index : ir::no_id;
        };
        for (const card_event_plan& c : cx.patched.card_events) {
            ir::card_event e;
            e.card = value(c.decl->id.text, sym::entity);
            e.title = c.decl->title.value_or("");
            e.procedure = value(c.procedure, sym::procedure);
            e.duration = c.decl->until_cancelled    ? ir::event_duration::until_cancelled
                         : c.decl->lasts == "turn"  ? ir::event_duration::turn
                         : c.decl->lasts == "phase" ? ir::event_duration::phase
                                                    : ir::event_duration::once;
            if (!c.flag.empty()) e.flag = value(c.flag, sym::slot);
            e.aid = c.decl->aid.value_or("");
            e.prov = cx.prov(c.decl->where, c.decl->anchors, c.layer);
            for (const dsl::name& n : c.decl->names) {
                auto r = rule_named(n);
                if (!r) continue;
                ir::rule& inv = cx.rs.rules[*r];
                if (inv.kind != ir::rule_kind::invariant) {
                    cx.sink.error(dsl::diag_kind::bad_rule_target, n.where,
                                  "an event lifts invariants only, but `" + n.text + "` is " + article(ir::name_of(inv.kind)) + " " +
                                      ir::name_of(inv.kind) + " rule");
                    continue;
                }
                if (c.flag.empty()) {
                    cx.sink.error(dsl::diag_kind::event_never_in_force, n.where,
                                  "`" + c.decl->id.text + "`'s event happens at once and is never in force, so it can't lift invariant `" +
                                      n.text + "`",
                                  {{c.decl->id.where, "give the event a duration here: `lasts phase`, `lasts turn` or `lasts until cancelled`"}});
                    continue;
                }
                if (inv.value != ir::no_id && e.flag != ir::no_id) {
                    body_checker b(cx, frame(inv.locals, inv.param_count, c.layer));
                    dsl::expr flag;
                    flag.kind = dsl::expr_kind::name;
                    flag.text = c.flag;
                    flag.where = n.where;
                    const typed f = b.expect(flag, cx.t_bool, "an event in force");
                    if (f.ok()) {
                        ir::node o;
                        o.code = ir::op::or_;
                        o.type = cx.t_bool;
                        o.first_child = static_cast<ir::id>(cx.rs.children.size());
                        o.child_count = 2;
                        o.where = cx.rs.nodes[f.node].where;
                        o.layer = cx.rs.nodes[inv.value].layer;
                        cx.rs.children.push_back(f.node);
                        cx.rs.children.push_back(inv.value);
                        inv.value = static_cast<ir::id>(cx.rs.nodes.size());
                        cx.rs.nodes.push_back(o);
                    }
                }
                e.lifts.push_back(*r);
            }
            for (const auto& [rule, plan] : during_)
                if (plan == &c) e.rules.push_back(rule);
            cx.rs.card_events.push_back(std::move(e));
        }
        for (const auto& [kind, name] : cx.patched.event_dispatchers)
            if (const ir::id d = value(name, sym::procedure); d != ir::no_id) cx.rs.event_dispatchers.push_back(d);
        if (const dsl::event_decl* o = cx.patched.outrank) {
            ir::event_precedence x;
            x.prov = cx.prov(o->where, o->anchors, cx.patched.outrank_layer);
            for (const dsl::name& n : o->names) {
                if (!card_event_of(cx.patched, n.text)) {
                    std::vector<std::string> names;
                    for (const card_event_plan& c : cx.patched.card_events) names.push_back(c.decl->id.text);
                    cx.unknown(n, "card with an event", names);
                    continue;
                }
                x.except.push_back(value(n.text, sym::entity));
            }
            cx.rs.events_outrank.push_back(std::move(x));
        }
    }

    std::optional<ir::id> rule_named(const dsl::name& n) {
        auto it = cx.values.find(n.text);
        if (auto alias = cx.patched.aliases.find(n.text); it == cx.values.end() && alias != cx.patched.aliases.end())
            it = cx.values.find(alias->second);
        if (it == cx.values.end()) {
            if (cx.patched.withdrawn.count(n.text)) return std::nullopt;  // orphan-exception already reported
            std::vector<std::string> names;
            for (const auto& [name, s] : cx.values)
                if (s.kind == sym::rule) names.push_back(name);
            cx.unknown(n, "rule", names);
            return std::nullopt;
        }
        if (it->second.kind != sym::rule) {
            cx.wrong_kind(n, it->second, "a rule");
            return std::nullopt;
        }
        return it->second.index;
    }

    void overrides() {
        // Groups by target.
        std::map<std::pair<int, ir::id>, ir::id> group_of;
        for (std::size_t i = 0; i < cx.rs.rules.size(); ++i) {
            ir::rule& r = cx.rs.rules[i];
            if (r.target == ir::target_kind::none || r.target_id == ir::no_id) continue;
            const auto key = std::make_pair(static_cast<int>(r.target), r.target_id);
            auto [it, fresh] = group_of.emplace(key, static_cast<ir::id>(cx.rs.groups.size()));
            if (fresh) {
                ir::rule_group g;
                g.target = r.target;
                g.target_id = r.target_id;
                cx.rs.groups.push_back(std::move(g));
            }
            r.group = it->second;
            cx.rs.groups[it->second].rules.push_back(static_cast<ir::id>(i));
        }
        // Edges: declared, exceptions (errata `except`), exclusive-layer precedence.
        // Rules whose target failed are left out silently (their error is reported).
        auto target_failed = [&](const ir::rule& x) {
            return x.target == ir::target_kind::none && ir::plays(x.kind);
        };
        auto add_edge = [&](ir::id higher, ir::id lower, ir::override_reason why, const dsl::span& where) {
            ir::rule& h = cx.rs.rules[higher];
            const ir::rule& l = cx.rs.rules[lower];
            if (target_failed(h) || target_failed(l)) return;
            if (higher == lower) {
                cx.sink.error(dsl::diag_kind::override_cycle, where, "rule `" + h.name + "` overrides itself");
                return;
            }
            if (h.group == ir::no_id || h.group != l.group) {
                auto what = [&](const ir::rule& x) {
                    if (x.target == ir::target_kind::none)
                        return "is " + std::string(article(ir::name_of(x.kind))) + " " + ir::name_of(x.kind) + " (it applies to nothing)";
                    return std::string("applies to ") + ir::name_of(x.target) + " `" + target_name(x) + "`";
                };
                cx.sink.error(dsl::diag_kind::bad_rule_target, where,
                              "`" + h.name + "` " + what(h) + " but `" + l.name + "` " + what(l) +
                                  ": an override only ranks rules that apply to the same thing");
                return;
            }
            if (std::find(h.overrides.begin(), h.overrides.end(), lower) == h.overrides.end()) h.overrides.push_back(lower);
            ir::override_edge e{higher, lower, why};
            auto& edges = cx.rs.groups[h.group].edges;
            if (std::find(edges.begin(), edges.end(), e) == edges.end()) edges.push_back(e);
        };
        std::map<ir::id, dsl::span> edge_site;
        for (std::size_t i = 0; i < cx.rs.rules.size(); ++i) {
            const placed_decl& p = *cx.rule_src[i];
            const auto& d = std::get<dsl::rule_decl>(p.d->node);
            for (const dsl::name& o : d.overrides)
                if (auto l = rule_named(o)) add_edge(static_cast<ir::id>(i), *l, ir::override_reason::declared, o.where);
            for (const exception_edge& e : p.exceptions)
                if (auto l = rule_named({e.over, e.where})) add_edge(static_cast<ir::id>(i), *l, ir::override_reason::exception, e.where);
            edge_site[static_cast<ir::id>(i)] = d.id.where;
        }
        // A define/forbid/permit/require rule introduced by an exclusive layer overrides the rules of
        // the same target introduced by base layers.
        auto legality = [](ir::rule_kind k) {
            return k == ir::rule_kind::define || k == ir::rule_kind::forbid || k == ir::rule_kind::permit ||
                   k == ir::rule_kind::require;
        };
        for (const ir::rule_group& g : std::vector<ir::rule_group>(cx.rs.groups)) {
            for (ir::id h : g.rules) {
                const placed_decl& hp = *cx.rule_src[h];
                if (cx.rs.layers[hp.origin_layer].kind != ir::layer_kind::exclusive || !legality(cx.rs.rules[h].kind)) continue;
                for (ir::id l : g.rules) {
                    const placed_decl& lp = *cx.rule_src[l];
                    if (cx.rs.layers[lp.origin_layer].kind != ir::layer_kind::base || !legality(cx.rs.rules[l].kind)) continue;
                    add_edge(h, l, ir::override_reason::exclusive_layer, edge_site[h]);
                }
            }
        }
        // `events outrank rules`: a rule during an event over the other rules of its target, the
        // other way round for the excepted cards.
        if (const dsl::event_decl* o = cx.patched.outrank) {
            for (const ir::rule_group& g : std::vector<ir::rule_group>(cx.rs.groups)) {
                for (ir::id h : g.rules) {
                    auto e = during_.find(h);
                    if (e == during_.end()) continue;
                    const bool excepted = std::any_of(o->names.begin(), o->names.end(),
                                                      [&](const dsl::name& n) { return n.text == e->second->decl->id.text; });
                    for (ir::id l : g.rules) {
                        if (during_.count(l)) continue;
                        if (excepted) add_edge(l, h, ir::override_reason::event, edge_site[l]);
                        else add_edge(h, l, ir::override_reason::event, edge_site[h]);
                    }
                }
            }
        }
        cycles();
    }

    std::string target_name(const ir::rule& r) const {
        switch (r.target) {
            case ir::target_kind::roll: return cx.rs.rolls[r.target_id].name;
            case ir::target_kind::quantity: return cx.rs.quantities[r.target_id].name;
            case ir::target_kind::decision: return cx.rs.decisions[r.target_id].name;
            case ir::target_kind::action: return cx.rs.actions[r.target_id].name;
            case ir::target_kind::event: return cx.rs.events[r.target_id].name;
            case ir::target_kind::none: break;
        }
        return "";
    }

    // Reports every cycle of the override order once, naming its rules in order.
    void cycles() {
        const std::size_t n = cx.rs.rules.size();
        std::vector<int> state(n, 0);  // 0 new, 1 on the stack, 2 done
        std::vector<ir::id> stack;
        std::set<std::set<ir::id>> reported;
        std::function<void(ir::id)> visit = [&](ir::id r) {
            state[r] = 1;
            stack.push_back(r);
            for (ir::id next : cx.rs.rules[r].overrides) {
                if (state[next] == 1) {
                    const auto from = std::find(stack.begin(), stack.end(), next);
                    std::vector<ir::id> cycle(from, stack.end());
                    std::set<ir::id> members(cycle.begin(), cycle.end());
                    if (!reported.insert(members).second) continue;
                    std::string path;
                    for (ir::id c : cycle) path += "`" + cx.rs.rules[c].name + "` → ";
                    path += "`" + cx.rs.rules[next].name + "`";
                    const ir::id first = *std::min_element(cycle.begin(), cycle.end());
                    std::vector<dsl::diag_note> notes;
                    for (ir::id c : cycle) {
                        const auto& d = std::get<dsl::rule_decl>(cx.rule_src[c]->d->node);
                        if (c != first) notes.push_back({d.id.where, "`" + cx.rs.rules[c].name + "` is declared here"});
                    }
                    notes.push_back({std::nullopt, "overrides must form a strict order: remove one of them"});
                    const auto& d = std::get<dsl::rule_decl>(cx.rule_src[first]->d->node);
                    cx.sink.error(dsl::diag_kind::override_cycle, d.id.where,
                                  "these rules override each other in a cycle: " + path, std::move(notes));
                } else if (state[next] == 0) {
                    visit(next);
                }
            }
            stack.pop_back();
            state[r] = 2;
        };
        for (std::size_t r = 0; r < n; ++r)
            if (state[r] == 0) visit(static_cast<ir::id>(r));
    }

    // ------------------------------------------------------------ errata record

    void errata() {
        std::map<const dsl::decl*, std::pair<ir::element_kind, ir::id>> element_of;
        auto note = [&](const std::vector<const placed_decl*>& src, ir::element_kind k) {
            for (std::size_t i = 0; i < src.size(); ++i) element_of[src[i]->d] = {k, static_cast<ir::id>(i)};
        };
        note(cx.alias_src, ir::element_kind::alias);
        note(cx.record_src, ir::element_kind::record);
        note(cx.entity_kind_src, ir::element_kind::entity_kind);
        note(cx.zone_src, ir::element_kind::zone);
        note(cx.map_src, ir::element_kind::map);
        note(cx.roll_src, ir::element_kind::roll);
        note(cx.derived_src, ir::element_kind::derived);
        note(cx.decision_src, ir::element_kind::decision);
        note(cx.action_src, ir::element_kind::action);
        note(cx.event_src, ir::element_kind::event);
        note(cx.procedure_src, ir::element_kind::procedure);
        note(cx.sequence_src, ir::element_kind::sequence);
        note(cx.table_src, ir::element_kind::table);
        note(cx.option_src, ir::element_kind::option);
        note(cx.missing_src, ir::element_kind::missing);
        note(cx.rule_src, ir::element_kind::rule);
        for (const applied_errata& a : cx.patched.errata) {
            ir::errata_op x;
            x.layer = a.layer;
            x.kind = static_cast<ir::errata_kind>(a.block->kind);
            x.title = a.block->title;
            x.op = static_cast<ir::errata_op_kind>(a.op->kind);
            x.target = a.op->target.text;
            dsl::anchor_list anchors = a.block->anchors;
            anchors.insert(anchors.end(), a.op->anchors.begin(), a.op->anchors.end());
            x.prov = cx.prov(a.op->where, anchors, a.layer);
            if (a.result) {
                if (auto it = element_of.find(a.result); it != element_of.end()) {
                    x.result_kind = it->second.first;
                    x.result = it->second.second;
                } else if (const auto* e = std::get_if<dsl::enum_decl>(&a.result->node)) {
                    if (auto t = cx.types.find(e->id.text); t != cx.types.end() && t->second.kind == sym::enumeration) {
                        x.result_kind = ir::element_kind::enumeration;
                        x.result = t->second.index;
                    }
                }
            }
            cx.rs.errata.push_back(std::move(x));
        }
    }

    // `printing of t` (docs/language.md §8, "Two printings of one table"): t a table, not this one,
    // not itself a printing, and comparable with this one. After tables(): the axes' kinds are known.
    void printings() {
        for (std::size_t i = 0; i < cx.rs.tables.size(); ++i) {
            const placed_decl& p = *cx.table_src[i];
            const auto& d = std::get<dsl::table_decl>(p.d->node);
            if (!d.printing_of) continue;
            const dsl::name& of = *d.printing_of;
            ir::table& t = cx.rs.tables[i];
            auto it = cx.values.find(of.text);
            if (it == cx.values.end()) {
                std::vector<std::string> names;
                for (const auto& [n, s] : cx.values)
                    if (s.kind == sym::table) names.push_back(n);
                cx.unknown(of, "table", names);
                continue;
            }
            if (it->second.kind != sym::table) {
                cx.wrong_kind(of, it->second, "a table");
                continue;
            }
            const ir::id other = it->second.index;
            const ir::table& o = cx.rs.tables[other];
            if (other == i) {
                cx.sink.error(dsl::diag_kind::bad_table, of.where, "table `" + t.name + "` cannot be a printing of itself");
                continue;
            }
            const auto& od = std::get<dsl::table_decl>(cx.table_src[other]->d->node);
            if (od.printing_of) {
                cx.sink.error(dsl::diag_kind::bad_table, of.where,
                              "`" + o.name + "` is itself a printing of `" + od.printing_of->text + "`: name that table",
                              {{od.printing_of->where, "`" + o.name + "` is marked here"}});
                continue;
            }
            if (const std::string why = ir::printings_incomparable(cx.rs, t, o); !why.empty()) {
                cx.sink.error(dsl::diag_kind::bad_table, of.where,
                              "table `" + t.name + "` cannot be compared as a printing of `" + o.name + "`: " + why,
                              {{od.id.where, "`" + o.name + "` is declared here"}});
                continue;
            }
            t.printing_of = other;
        }
    }

    void run() {
        table_outcomes();
        rolls();
        quantities();
        actions();
        procedures();
        sequences();
        tables();
        printings();
        rules();
        card_events();
        errata();
    }
};

}  // namespace

void lower_bodies(context& cx) {
    lowerer l{cx, {}};
    l.run();
}

// A predicate, quantity, decision or roll that calls itself, directly or through others, would
// be unfolded without end by the engine and the checker: one error per cycle, at the definition
// written first, with a note at each call. (Procedures, triggers and tables may recurse.)
void recursive_definitions(context& cx) {
    auto declared = [&](ir::value_def d) -> dsl::span {
        switch (d.k) {
            case ir::value_def::kind::quantity: return std::get<dsl::derived_decl>(cx.derived_src[d.index]->d->node).id.where;
            case ir::value_def::kind::decision: return std::get<dsl::decision_decl>(cx.decision_src[d.index]->d->node).id.where;
            case ir::value_def::kind::roll: return std::get<dsl::roll_decl>(cx.roll_src[d.index]->d->node).id.where;
        }
        return {};
    };
    auto name = [&](ir::value_def d) {
        switch (d.k) {
            case ir::value_def::kind::quantity: return cx.rs.quantities[d.index].name;
            case ir::value_def::kind::decision: return cx.rs.decisions[d.index].name;
            case ir::value_def::kind::roll: return cx.rs.rolls[d.index].name;
        }
        return std::string();
    };
    for (std::vector<ir::value_call> cycle : ir::value_cycles(cx.rs)) {
        // Start the cycle at the definition that comes first in the files.
        const auto first = std::min_element(cycle.begin(), cycle.end(), [&](const ir::value_call& a, const ir::value_call& b) {
            const dsl::span x = declared(a.from), y = declared(b.from);
            return std::tie(x.file, x.begin) < std::tie(y.file, y.begin);
        });
        std::rotate(cycle.begin(), first, cycle.end());
        std::string message;
        if (cycle.size() == 1) {
            message = "the " + ir::describe(cx.rs, cycle[0].from) + " calls itself";
        } else {
            message = "these definitions call each other in a cycle: ";
            for (const ir::value_call& c : cycle) message += ir::describe(cx.rs, c.from) + " → ";
            message += ir::describe(cx.rs, cycle[0].from);
        }
        std::vector<dsl::diag_note> notes;
        for (const ir::value_call& c : cycle) {
            std::optional<dsl::span> at;
            if (auto it = cx.call_spans.find(c.call); it != cx.call_spans.end()) at = it->second;
            notes.push_back({at, "`" + name(c.from) + "` calls `" + name(c.to) + "` here"});
        }
        notes.push_back({std::nullopt,
                         "predicates, quantities, decisions and rolls may not call themselves, directly or through "
                         "others: the engine and the checker would unfold them without end"});
        cx.sink.error(dsl::diag_kind::recursive_definition, declared(cycle[0].from), message, std::move(notes));
    }
}

// `end turn;` ends the innermost `turn` block around it, so one must be there when it runs: in the
// sequence, an `end turn` outside every `turn` block, or a call there of a procedure that can end
// the turn (ir::procedures_ending_turn), is an error; actions, rules (triggers, examples) and table
// rows run wherever they are used and may not end a turn at all. A procedure that ends the turn
// is itself checked at its calls. Each error points at the statement, with notes down the calls
// to the `end turn` a procedure reaches.
void turn_endings(context& cx) {
    const ir::ruleset& rs = cx.rs;
    const std::vector<bool> ending = ir::procedures_ending_turn(rs);
    auto span_of = [&](ir::id n) -> std::optional<dsl::span> {
        if (auto it = cx.statement_spans.find(n); it != cx.statement_spans.end()) return it->second;
        return std::nullopt;
    };
    // From a call of a procedure that ends the turn down to the `end turn` it reaches.
    auto chain = [&](ir::id call, std::vector<dsl::diag_note>& notes) {
        std::vector<bool> seen(rs.procedures.size(), false);
        for (ir::id n = call; rs.nodes[n].code == ir::op::call;) {
            const ir::id p = rs.nodes[n].ref;
            if (seen[p]) break;
            seen[p] = true;
            const std::vector<ir::id> exits = ir::turn_exits(rs, rs.procedures[p].body, ending);
            if (exits.empty()) break;
            n = exits.front();
            const std::string who = "`" + rs.procedures[p].name + "`";
            notes.push_back({span_of(n), rs.nodes[n].code == ir::op::end_turn
                                             ? who + " ends the turn here"
                                             : who + " calls `" + rs.procedures[rs.nodes[n].ref].name + "` here, which can end the turn"});
        }
    };
    auto report = [&](ir::id root, const std::string& where_run, bool sequence, const std::string& why = {}) {
        for (ir::id n : ir::turn_exits(rs, root, ending)) {
            const std::optional<dsl::span> at = span_of(n);
            if (!at) continue;
            const bool call = rs.nodes[n].code == ir::op::call;
            const std::string what = call ? "procedure `" + rs.procedures[rs.nodes[n].ref].name + "` can end the turn, but this call"
                                          : "`end turn`";
            std::vector<dsl::diag_note> notes;
            if (call) chain(n, notes);
            if (sequence) {
                notes.push_back({std::nullopt, "`end turn;` ends the innermost `turn { … }` block around it: put it (or the call) inside the turn it ends"});
                cx.sink.error(dsl::diag_kind::misplaced_end_turn, *at, what + " is not inside a `turn` block: there is no turn to end",
                              std::move(notes));
            } else {
                notes.push_back({std::nullopt, "only the sequence of play and procedures may end a turn: " + why});
                cx.sink.error(dsl::diag_kind::misplaced_end_turn, *at, what + " is in " + where_run, std::move(notes));
            }
        }
    };
    for (const ir::sequence& q : rs.sequences) report(q.body, "the sequence", true);
    for (const ir::action& a : rs.actions)
        report(a.body, "action `" + a.name + "`", false, "an action runs wherever it is done, with no turn of its own");
    for (const ir::rule& r : rs.rules)
        report(r.body, std::string(ir::name_of(r.kind)) + " `" + r.name + "`", false,
               r.kind == ir::rule_kind::example   ? "an example's `given` sets up one situation, outside any turn"
               : r.kind == ir::rule_kind::chances ? "the `given` of `chances` sets up one situation, outside any turn"
                                                  : "a trigger runs wherever its event is raised, with no turn of its own");
    for (const ir::table& t : rs.tables)
        for (const ir::table_cell& c : t.cells)
            report(c.effects, "a row of table `" + t.name + "`", false, "a table's rows run wherever it is resolved, with no turn of their own");
}

}  // namespace wp::compiler::detail

namespace wp::compiler {

std::optional<ir::ruleset> lower_ruleset(const loaded_ruleset& loaded, const outline_index& outline,
                                         const patched_ruleset& patched, const compile_options& options,
                                         const dsl::source_manager& sources, dsl::diagnostic_sink& sink) {
    detail::context cx(loaded, outline, patched, options, sources, sink);
    detail::resolve(cx);
    detail::lower_bodies(cx);
    if (sink.has_errors()) return std::nullopt;
    detail::recursive_definitions(cx);
    detail::turn_endings(cx);
    detail::rolls_in_tested_dos(cx);
    if (sink.has_errors()) return std::nullopt;
    std::string problem = ir::check_integrity(cx.rs);
    if (!problem.empty()) {
        sink.error(dsl::diag_kind::ir_invalid, "internal error: the compiler built an inconsistent IR (" + problem +
                                                   "); please report this with the ruleset");
        return std::nullopt;
    }
    return std::move(cx.rs);
}

}  // namespace wp::compiler
