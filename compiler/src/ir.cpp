// Enumerator spellings and small helpers of the IR.
#include "westphalia/ir/ir.hpp"

#include "ir_names.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace wp::ir {

#define WP_NAME_OF(E) \
    const char* name_of(E e) { return detail::spell(e).data(); }
WP_NAME_OF(layer_kind)
WP_NAME_OF(section_status)
WP_NAME_OF(type_kind)
WP_NAME_OF(overflow)
WP_NAME_OF(slot_scope)
WP_NAME_OF(visibility)
WP_NAME_OF(map_kind)
WP_NAME_OF(key_source)
WP_NAME_OF(rounding)
WP_NAME_OF(key_range_kind)
WP_NAME_OF(option_kind)
WP_NAME_OF(element_kind)
WP_NAME_OF(rule_kind)
WP_NAME_OF(target_kind)
WP_NAME_OF(override_reason)
WP_NAME_OF(event_duration)

std::string expansions_applied(const ruleset& rs) {
    std::string out;
    for (const expansion& e : rs.expansions)
        if (e.selected) out += (out.empty() ? "" : ", ") + e.name;
    return out;
}
WP_NAME_OF(errata_kind)
WP_NAME_OF(errata_op_kind)
WP_NAME_OF(op)
WP_NAME_OF(builtin)
#undef WP_NAME_OF

std::span<const id> children_of(const ruleset& rs, id n) {
    if (n >= rs.nodes.size()) return {};
    const node& x = rs.nodes[n];
    if (x.first_child > rs.children.size() || x.child_count > rs.children.size() - x.first_child) return {};
    return {rs.children.data() + x.first_child, x.child_count};
}

std::vector<id> turn_exits(const ruleset& rs, id root, const std::vector<bool>& ending) {
    std::vector<id> out;
    if (root >= rs.nodes.size()) return out;
    std::vector<id> todo{root};
    while (!todo.empty()) {
        const id n = todo.back();
        todo.pop_back();
        const node& x = rs.nodes[n];
        if (x.code == op::end_turn) out.push_back(n);
        if (x.code == op::call && x.ref < ending.size() && ending[x.ref]) out.push_back(n);
        // a `turn` of its own ends there (expressions hold no statements: not searched)
        if (x.code == op::block && x.ref < rs.blocks.size() && rs.blocks[x.ref].word == "turn") continue;
        if (x.code < op::seq || x.code == op::range || x.code == op::dice_count) continue;
        const std::span<const id> kids = children_of(rs, n);
        for (std::size_t i = kids.size(); i-- > 0;)
            if (kids[i] < n) todo.push_back(kids[i]);  // children come first (a malformed IR stops here)
    }
    return out;
}

std::vector<bool> procedures_ending_turn(const ruleset& rs) {
    std::vector<bool> ending(rs.procedures.size(), false);
    if (std::none_of(rs.nodes.begin(), rs.nodes.end(), [](const node& x) { return x.code == op::end_turn; })) return ending;
    // to a fixed point: a procedure ends the turn when its body has an exit, given those known
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t p = 0; p < rs.procedures.size(); ++p)
            if (!ending[p] && !turn_exits(rs, rs.procedures[p].body, ending).empty()) ending[p] = changed = true;
    }
    return ending;
}

bool odds_whole(const key_range& k) {
    if (k.kind != key_range_kind::odds || k.lo <= 0 || k.hi <= 0) return true;
    return k.lo % k.hi == 0 || k.hi % k.lo == 0;
}

bool odds_fractional(const table& t, std::size_t axis) {
    if (axis >= t.keys.size()) return false;
    const key_map& m = axis == 0 ? t.row_map : t.column_map;
    if (m.kind != key_range_kind::odds) return false;
    const table_key& key = t.keys[axis];
    if (key.has_clamp && ((!key.clamp_lo.open_lo && !odds_whole(key.clamp_lo)) || (!key.clamp_hi.open_hi && !odds_whole(key.clamp_hi))))
        return true;
    if (axis == 0) {
        for (const table_row& r : t.rows)
            if (!odds_whole(r.key)) return true;
    } else {
        for (const key_range& c : t.columns)
            if (!odds_whole(c)) return true;
    }
    return false;
}

std::string odds_point_text(std::int64_t a, std::int64_t b) {
    if (a <= 0 || b <= 0) return std::to_string(a) + "-" + std::to_string(b);
    const std::int64_t g = std::gcd(a, b);
    a /= g;
    b /= g;
    // n/d as a decimal of at most three places, when it is one
    auto decimal = [](std::int64_t n, std::int64_t d) -> std::string {
        for (std::int64_t scale = 1, places = 0; places <= 3; scale *= 10, ++places) {
            if (n > std::numeric_limits<std::int64_t>::max() / scale / 10) break;
            if ((n * scale) % d != 0) continue;
            std::string digits = std::to_string(n * scale / d);
            if (places == 0) return digits;
            while (digits.size() <= static_cast<std::size_t>(places)) digits.insert(0, "0");
            digits.insert(digits.size() - static_cast<std::size_t>(places), ".");
            return digits;
        }
        return {};
    };
    if (a >= b) {
        const std::string x = decimal(a, b);
        return x.empty() ? std::to_string(a) + "-" + std::to_string(b) : x + "-1";
    }
    const std::string x = decimal(b, a);
    return x.empty() ? std::to_string(a) + "-" + std::to_string(b) : "1-" + x;
}

std::int64_t map_distance(const map& m, std::int64_t a, std::int64_t b) {
    if (m.kind == map_kind::hexgrid) {
        // cube coordinates: x = col, z = row - (col + (col & 1)) / 2
        const map_node& p = m.nodes.at(static_cast<std::size_t>(a));
        const map_node& q = m.nodes.at(static_cast<std::size_t>(b));
        auto cube = [](const map_node& h, std::int64_t& x, std::int64_t& z) {
            x = h.col;
            z = h.row - (h.col + (h.col & 1)) / 2;
        };
        std::int64_t x1 = 0, z1 = 0, x2 = 0, z2 = 0;
        cube(p, x1, z1);
        cube(q, x2, z2);
        const std::int64_t dx = x1 - x2, dz = z1 - z2, dy = -dx - dz;
        return (std::abs(dx) + std::abs(dy) + std::abs(dz)) / 2;
    }
    std::vector<std::int64_t> dist(m.nodes.size(), -1);
    std::vector<id> queue{static_cast<id>(a)};
    dist.at(static_cast<std::size_t>(a)) = 0;
    for (std::size_t i = 0; i < queue.size(); ++i)
        for (id nb : m.nodes[queue[i]].neighbours)
            if (dist[nb] < 0) {
                dist[nb] = dist[queue[i]] + 1;
                queue.push_back(nb);
            }
    return dist.at(static_cast<std::size_t>(b));
}

std::vector<line_step> line_steps(const map& m, std::int64_t a, std::int64_t b) {
    const map_node& p = m.nodes.at(static_cast<std::size_t>(a));
    const map_node& q = m.nodes.at(static_cast<std::size_t>(b));
    auto cube = [](std::int64_t col, std::int64_t row, std::int64_t c[3]) {
        c[0] = col;
        c[2] = row - (col + (col & 1)) / 2;
        c[1] = -c[0] - c[2];
    };
    std::int64_t ca[3], cb[3];
    cube(p.col, p.row, ca);
    cube(q.col, q.row, cb);
    const std::int64_t len = (std::abs(ca[0] - cb[0]) + std::abs(ca[1] - cb[1]) + std::abs(ca[2] - cb[2])) / 2;
    std::vector<line_step> out;
    if (len <= 1) return out;
    const std::int64_t scale = 16 * len;
    auto hex_at = [&](std::int64_t x, std::int64_t z) -> std::int64_t {
        const std::int64_t col = x, row = z + (col + (col & 1)) / 2;
        for (std::size_t i = 0; i < m.nodes.size(); ++i)
            if (m.nodes[i].col == col && m.nodes[i].row == row) return static_cast<std::int64_t>(i);
        return -1;  // off the map
    };
    // Rounds the point v / scale (cube, v summing to 0) to the nearest hex.
    auto round_cube = [&](const std::int64_t v[3], std::int64_t r[3]) {
        std::int64_t diff[3];
        for (int k = 0; k < 3; ++k) {
            const std::int64_t twice = 2 * v[k] + scale;  // floor((2v + s) / 2s) = round(v / s)
            std::int64_t x = twice / (2 * scale);
            if (twice % (2 * scale) != 0 && twice < 0) --x;
            r[k] = x;
            diff[k] = std::abs(x * scale - v[k]);
        }
        if (diff[0] > diff[1] && diff[0] > diff[2]) r[0] = -r[1] - r[2];
        else if (diff[1] > diff[2]) r[1] = -r[0] - r[2];
        else r[2] = -r[0] - r[1];
    };
    static constexpr std::int64_t nudge[3] = {1, 2, -3};
    for (std::int64_t i = 1; i < len; ++i) {
        std::int64_t plus[3], minus[3], hp[3], hm[3];
        for (int k = 0; k < 3; ++k) {
            const std::int64_t v = ca[k] * scale + (cb[k] - ca[k]) * 16 * i;
            plus[k] = v + nudge[k];
            minus[k] = v - nudge[k];
        }
        round_cube(plus, hp);
        round_cube(minus, hm);
        line_step st;
        st.first = hex_at(hp[0], hp[2]);
        if (hp[0] != hm[0] || hp[2] != hm[2]) st.second = hex_at(hm[0], hm[2]);
        out.push_back(st);
    }
    return out;
}

std::string type_name(const ruleset& rs, id t) {
    if (t >= rs.types.size()) return "?";
    const type& x = rs.types[t];
    auto named = [](const auto& table, id i) -> std::string { return i < table.size() ? table[i].name : "?"; };
    switch (x.kind) {
        case type_kind::error: return "<error>";
        case type_kind::void_: return "void";
        case type_kind::boolean: return "bool";
        case type_kind::integer: return "int";
        case type_kind::range: {
            std::string s = std::to_string(x.lo) + ".." + std::to_string(x.hi);
            if (x.policy != overflow::none) s += std::string(" ") + name_of(x.policy);
            return s;
        }
        case type_kind::string: return "text";
        case type_kind::enumeration: return named(rs.enums, x.ref);
        case type_kind::record: return named(rs.records, x.ref);
        case type_kind::entity: return named(rs.entity_kinds, x.ref);
        case type_kind::player: return "player";
        case type_kind::zone: return "zone of " + named(rs.entity_kinds, x.ref);
        case type_kind::node: return x.ref < rs.maps.size() ? "node of " + rs.maps[x.ref].name : "node of ?";
        case type_kind::map_of: return type_name(rs, x.key) + " -> " + type_name(rs, x.value);
        case type_kind::list_of: return "list of " + type_name(rs, x.value);
        case type_kind::odds: return "odds";
    }
    return "?";
}

}  // namespace wp::ir
