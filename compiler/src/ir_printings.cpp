// Two printings of one table compared on what is printed (westphalia/ir/printings.hpp). Each axis
// is cut into the keys both printings' rows (columns) bound, so rows printed with different
// ranges are compared key by key; the cuts are merged back where both printings keep one row.
#include "westphalia/ir/printings.hpp"
#include "westphalia/ir/print.hpp"

#include <algorithm>
#include <limits>
#include <set>

namespace wp::ir {

namespace {

const key_map& axis_map(const table& t, std::size_t k) { return k == 0 ? t.row_map : t.column_map; }

std::string kind_words(const ruleset& rs, const table& t, std::size_t k) {
    switch (axis_map(t, k).kind) {
        case key_range_kind::integer: return "numbers";
        case key_range_kind::odds: return "odds";
        case key_range_kind::member: return "members of " + type_name(rs, t.keys[k].type);
    }
    return "?";
}

// Structural equality of two expression or statement trees (positions aside): locals are
// compared by their place in each table's frame.
bool same_tree(const ruleset& rs, id x, id y) {
    if (x == no_id || y == no_id) return x == y;
    const node& a = rs.nodes[x];
    const node& b = rs.nodes[y];
    if (a.code != b.code || a.type != b.type || a.value != b.value || a.child_count != b.child_count) return false;
    // dice are compared by their faces: each written `1d6` has a dice term of its own
    const bool dice = (a.code == op::dice || a.code == op::dice_count) && a.ref < rs.dice_terms.size() && b.ref < rs.dice_terms.size();
    if (dice ? !(rs.dice_terms[a.ref] == rs.dice_terms[b.ref]) : a.ref != b.ref) return false;
    for (std::uint32_t i = 0; i < a.child_count; ++i)
        if (!same_tree(rs, rs.children[a.first_child + i], rs.children[b.first_child + i])) return false;
    return true;
}

bool same_range(const key_range& a, const key_range& b) {
    return a.kind == b.kind && a.lo == b.lo && a.hi == b.hi && a.open_lo == b.open_lo && a.open_hi == b.open_hi;
}

// One stretch of keys on an axis, with the row (column) of each printing that covers it.
struct piece {
    std::string text;
    int a = -1;
    int b = -1;
};

struct entry {
    int index;
    const key_range* key;
};

std::string range_text(std::int64_t lo, std::int64_t hi, bool open_lo, bool open_hi) {
    if (open_lo && open_hi) return "any key";
    if (open_lo) return ".." + std::to_string(hi);
    if (open_hi) return std::to_string(lo) + "+";
    return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
}

// Number keys: cut at every end either printing prints, then join neighbouring cuts that
// both printings cover with one row each.
std::vector<piece> integer_pieces(const std::vector<entry>& a, const std::vector<entry>& b, const std::string& prefix) {
    constexpr std::int64_t top = std::numeric_limits<std::int64_t>::max();
    std::set<std::int64_t> cuts;
    for (const auto* side : {&a, &b})
        for (const entry& e : *side) {
            if (!e.key->open_lo) cuts.insert(e.key->lo);
            if (!e.key->open_hi && e.key->hi < top) cuts.insert(e.key->hi + 1);
        }
    struct segment {
        std::int64_t lo, hi;
        bool open_lo, open_hi;
    };
    std::vector<segment> segments;
    if (cuts.empty()) {
        segments.push_back({0, 0, true, true});
    } else {
        if (*cuts.begin() > std::numeric_limits<std::int64_t>::min()) segments.push_back({0, *cuts.begin() - 1, true, false});
        for (auto it = cuts.begin(); it != cuts.end(); ++it) {
            const auto next = std::next(it);
            if (next == cuts.end()) segments.push_back({*it, 0, false, true});
            else segments.push_back({*it, *next - 1, false, false});
        }
    }
    auto cover = [](const std::vector<entry>& side, const segment& s) {
        const std::int64_t k = s.open_lo ? s.hi : s.lo;  // any key of the segment: no range ends inside one
        for (const entry& e : side)
            if ((e.key->open_lo || k >= e.key->lo) && (e.key->open_hi || k <= e.key->hi)) return e.index;
        return -1;
    };
    struct joined {
        segment s;
        int a, b;
    };
    std::vector<joined> runs;
    for (const segment& s : segments) {
        const int ia = cover(a, s), ib = cover(b, s);
        if (ia < 0 && ib < 0) continue;
        if (!runs.empty() && runs.back().a == ia && runs.back().b == ib && !runs.back().s.open_hi && runs.back().s.hi + 1 == s.lo) {
            runs.back().s.hi = s.hi;
            runs.back().s.open_hi = s.open_hi;
            continue;
        }
        runs.push_back({s, ia, ib});
    }
    std::vector<piece> out;
    for (const joined& r : runs) {
        const key_range whole{key_range_kind::integer, r.s.lo, r.s.hi, r.s.open_lo, r.s.open_hi, ""};
        std::string text = range_text(r.s.lo, r.s.hi, r.s.open_lo, r.s.open_hi);
        for (const auto* side : {&a, &b})
            for (const entry& e : *side)
                if (same_range(*e.key, whole)) text = e.key->text;
        out.push_back({prefix + text, r.a, r.b});
    }
    return out;
}

// Odds and enum members: points, matched by ratio (member); an open-ended odds key covers the
// points beyond it.
std::vector<piece> point_pieces(const std::vector<entry>& a, const std::vector<entry>& b, key_range_kind kind) {
    auto less = [&](const key_range& x, const key_range& y) {
        if (kind == key_range_kind::member) return x.lo < y.lo;
        // exact for the compiler's sides (at most 1000000); never an overflow for an IR file's
        return static_cast<long double>(x.lo) * static_cast<long double>(y.hi) <
               static_cast<long double>(y.lo) * static_cast<long double>(x.hi);
    };
    auto equal = [&](const key_range& x, const key_range& y) { return !less(x, y) && !less(y, x); };
    auto covers = [&](const key_range& r, const key_range& p) {
        if (r.open_lo) return !less(r, p);
        if (r.open_hi) return !less(p, r);
        return equal(r, p);
    };
    std::vector<const key_range*> points;
    for (const auto* side : {&a, &b})
        for (const entry& e : *side)
            if (std::none_of(points.begin(), points.end(), [&](const key_range* p) { return equal(*p, *e.key); }))
                points.push_back(e.key);
    std::stable_sort(points.begin(), points.end(), [&](const key_range* x, const key_range* y) { return less(*x, *y); });
    auto cover = [&](const std::vector<entry>& side, const key_range& p) {
        for (const entry& e : side)
            if (covers(*e.key, p)) return e.index;
        return -1;
    };
    std::vector<piece> out;
    for (const key_range* p : points) out.push_back({p->text, cover(a, *p), cover(b, *p)});
    return out;
}

std::vector<piece> pieces(const table& a, const table& b, std::size_t k, bool natural) {
    std::vector<entry> ea, eb;
    auto collect = [&](const table& t, std::vector<entry>& into) {
        if (k == 0) {
            for (std::size_t i = 0; i < t.rows.size(); ++i)
                if (t.rows[i].natural == natural) into.push_back({static_cast<int>(i), &t.rows[i].key});
        } else {
            for (std::size_t i = 0; i < t.columns.size(); ++i) into.push_back({static_cast<int>(i), &t.columns[i]});
        }
    };
    collect(a, ea);
    collect(b, eb);
    if (ea.empty() && eb.empty()) return {};
    const key_range_kind kind = natural ? key_range_kind::integer : axis_map(a, k).kind;
    if (kind == key_range_kind::integer) return integer_pieces(ea, eb, natural ? "natural " : "");
    return point_pieces(ea, eb, kind);
}

bool same_cell(const ruleset& rs, const table_cell& x, const table_cell& y) {
    return x.has_outcome == y.has_outcome && (!x.has_outcome || x.outcome == y.outcome) && same_tree(rs, x.effects, y.effects);
}

std::string cell_text(const ruleset& rs, const table& t, const table_cell& c) {
    std::string s;
    if (c.has_outcome) s = constant_text(rs, t.outcome_type, c.outcome);
    if (c.effects != no_id) s += (s.empty() ? "" : " ") + print_node(rs, c.effects, t.locals);
    return s.empty() ? "nothing" : s;
}

std::string clamp_text(const table_key& k) {
    return k.has_clamp ? "clamp " + k.clamp_lo.text + ".." + k.clamp_hi.text : "no clamp";
}

const char* round_text(rounding r) {
    switch (r) {
        case rounding::none: return "no round";
        case rounding::attacker: return "round attacker";
        case rounding::defender: return "round defender";
    }
    return "?";
}

}  // namespace

std::string printings_incomparable(const ruleset& rs, const table& a, const table& b) {
    if (a.keys.size() != b.keys.size())
        return "`" + a.name + "` has " + std::to_string(a.keys.size()) + (a.keys.size() == 1 ? " key" : " keys") + ", `" + b.name +
               "` " + std::to_string(b.keys.size());
    for (std::size_t k = 0; k < a.keys.size(); ++k) {
        const std::string ka = kind_words(rs, a, k), kb = kind_words(rs, b, k);
        if (ka != kb)
            return "the " + std::string(k == 0 ? "row" : "column") + " key of `" + a.name + "` is " + ka + ", of `" + b.name + "` " + kb;
    }
    if (a.outcome_type != b.outcome_type) {
        auto words = [&](const table& t) {
            return t.outcome_type == no_id ? std::string("no outcome") : "outcomes of type " + type_name(rs, t.outcome_type);
        };
        return "`" + a.name + "` has " + words(a) + ", `" + b.name + "` " + words(b);
    }
    return "";
}

printing_comparison compare_printings(const ruleset& rs, const table& a, const table& b) {
    printing_comparison out;
    // how each reads its keys
    for (std::size_t k = 0; k < a.keys.size() && k < b.keys.size(); ++k) {
        const table_key& x = a.keys[k];
        const table_key& y = b.keys[k];
        const std::string axis = k == 0 ? "the row key" : "the column key";
        if (x.source != y.source || !same_tree(rs, x.expr, y.expr))
            out.keys.push_back(axis + ": `" + print_node(rs, x.expr, a.locals) + "` in `" + a.name + "`, `" +
                               print_node(rs, y.expr, b.locals) + "` in `" + b.name + "`");
        if (x.round != y.round)
            out.keys.push_back(axis + ": " + round_text(x.round) + " in `" + a.name + "`, " + round_text(y.round) + " in `" + b.name + "`");
        if (x.has_clamp != y.has_clamp ||
            (x.has_clamp && (!same_range(x.clamp_lo, y.clamp_lo) || !same_range(x.clamp_hi, y.clamp_hi))))
            out.keys.push_back(axis + ": " + clamp_text(x) + " in `" + a.name + "`, " + clamp_text(y) + " in `" + b.name + "`");
        if (!same_tree(rs, x.shift, y.shift) || (x.shift != no_id && x.shift_clamp != y.shift_clamp)) {
            auto shift = [&](const table_key& s, const table& t) {
                return s.shift == no_id ? std::string("no shift")
                                        : "shift " + print_node(rs, s.shift, t.locals) + (s.shift_clamp ? " clamp" : "");
            };
            out.keys.push_back(axis + ": " + shift(x, a) + " in `" + a.name + "`, " + shift(y, b) + " in `" + b.name + "`");
        }
    }
    // cell by cell
    const std::vector<piece> columns = a.columns.empty() && b.columns.empty() ? std::vector<piece>{{"", 0, 0}} : pieces(a, b, 1, false);
    const std::size_t wa = std::max<std::size_t>(1, a.columns.size()), wb = std::max<std::size_t>(1, b.columns.size());
    for (const bool natural : {true, false}) {
        for (const piece& r : pieces(a, b, 0, natural)) {
            for (const piece& c : columns) {
                const table_cell* ca = r.a >= 0 && c.a >= 0 ? &a.cells.at(static_cast<std::size_t>(r.a) * wa + static_cast<std::size_t>(c.a)) : nullptr;
                const table_cell* cb = r.b >= 0 && c.b >= 0 ? &b.cells.at(static_cast<std::size_t>(r.b) * wb + static_cast<std::size_t>(c.b)) : nullptr;
                if (!ca && !cb) continue;
                if (ca && cb && same_cell(rs, *ca, *cb)) continue;
                auto missing = [&](const piece& row, int side) { return (side == 0 ? row.a : row.b) < 0 ? "no row" : "no column"; };
                printing_cell d;
                d.row = r.text;
                d.column = c.text;
                d.a_text = ca ? cell_text(rs, a, *ca) : missing(r, 0);
                d.b_text = cb ? cell_text(rs, b, *cb) : missing(r, 1);
                d.a_cell = ca;
                d.b_cell = cb;
                out.cells.push_back(std::move(d));
            }
        }
    }
    // outcomes one gives and the other never prints
    if (a.outcome_type == b.outcome_type && a.outcome_type != no_id) {
        std::set<std::int64_t> in_a, in_b;
        for (const table_cell& c : a.cells)
            if (c.has_outcome) in_a.insert(c.outcome);
        for (const table_cell& c : b.cells)
            if (c.has_outcome) in_b.insert(c.outcome);
        for (std::int64_t v : in_a)
            if (!in_b.count(v)) out.only_a.push_back(constant_text(rs, a.outcome_type, v));
        for (std::int64_t v : in_b)
            if (!in_a.count(v)) out.only_b.push_back(constant_text(rs, b.outcome_type, v));
    }
    return out;
}

}  // namespace wp::ir
