// The compiled engine's writer: maps (their data, path_exists, path_length, line_blocked) and odds (writer.hpp).
#include "writer.hpp"

#include <algorithm>
#include <limits>

namespace wp::codegen {

// The map whose nodes expression n holds.
id writer::map_of_node(id n) const {
    const id t = N(n).type;
    if (t == ir::no_id || rs_.types[t].kind != type_kind::node) refuse(n, "a map function on something that is not a location");
    return rs_.types[t].ref;
}

// The arrays of map m (written once): "m<m>_" is their prefix. Terrain, attributes, names,
// neighbours and the edges touching each node (CSR), the edges' ends, direction and kinds,
// columns and rows, and on an area map the distances.
std::string writer::map_data(id m) {
    const std::string p = "m" + std::to_string(m) + "_";
    if (map_emitted_[m]) return p;
    map_emitted_[m] = 1;
    const ir::map& mp = rs_.maps[m];
    const std::size_t nodes = mp.nodes.size();
    auto list = [&](const std::string& type, const std::string& name, const std::vector<std::int64_t>& v) {
        write_array(consts_, type, p + name, numbers(v));
    };
    std::vector<std::int64_t> terrain, values, nb_first{0}, nb, ne_first{0}, ne, col, row;
    for (std::size_t i = 0; i < nodes; ++i) {
        const ir::map_node& nd = mp.nodes[i];
        terrain.push_back(nd.terrain);
        for (std::size_t k = 0; k < mp.attributes.size(); ++k) values.push_back(k < nd.values.size() ? nd.values[k] : 0);
        for (id x : nd.neighbours) nb.push_back(x);
        nb_first.push_back(static_cast<std::int64_t>(nb.size()));
        for (std::uint32_t e : g_.node_edges.at(m).at(i)) ne.push_back(e);
        ne_first.push_back(static_cast<std::int64_t>(ne.size()));
        col.push_back(nd.col);
        row.push_back(nd.row);
    }
    std::vector<std::int64_t> ea, eb, edir, ek_first{0}, ek;
    for (const ir::map_edge& e : mp.edges) {
        ea.push_back(e.a);
        eb.push_back(e.b);
        edir.push_back(e.directed);
        for (std::int64_t k : e.kinds) ek.push_back(k);
        ek_first.push_back(static_cast<std::int64_t>(ek.size()));
    }
    consts_ << "inline constexpr i64 " << p << "nodes = " << nodes << ";\n";
    consts_ << "inline constexpr bool " << p << "hexgrid = " << (mp.kind == ir::map_kind::hexgrid ? "true" : "false") << ";\n";
    list("i64", "terrain", terrain);
    list("i64", "values", values);
    list("std::uint32_t", "nb_first", nb_first);
    list("std::uint32_t", "nb", nb);
    list("std::uint32_t", "ne_first", ne_first);
    list("std::uint32_t", "ne", ne);
    list("std::int32_t", "col", col);
    list("std::int32_t", "row", row);
    list("std::int32_t", "ea", ea);
    list("std::int32_t", "eb", eb);
    list("bool", "edir", edir);
    list("std::uint32_t", "ek_first", ek_first);
    list("i64", "ek", ek);
    std::vector<std::string> names;
    for (const ir::map_node& nd : mp.nodes) names.push_back(quoted(nd.name));
    write_array(consts_, "char* const", p + "names", names, "nullptr");
    if (mp.kind != ir::map_kind::hexgrid) {
        if (nodes > 1024) throw unsupported("the compiled engine does not translate an area map of more than 1024 areas yet", mp.prov.where);
        std::vector<std::int64_t> dist;
        for (std::size_t a = 0; a < nodes; ++a)
            for (std::size_t b = 0; b < nodes; ++b) dist.push_back(ir::map_distance(mp, static_cast<std::int64_t>(a), static_cast<std::int64_t>(b)));
        list("std::int32_t", "dist", dist);
    }
    // Whether edge e leads from a to b (interp::joins).
    consts_ << "[[gnu::always_inline]] inline bool " << p << "joins(std::uint32_t e, i64 a, i64 b) {\n"
            << "    if (" << p << "ea[e] == a && " << p << "eb[e] == b) return true;\n"
            << "    return (" << p << "hexgrid || !" << p << "edir[e]) && " << p << "ea[e] == b && " << p << "eb[e] == a;\n}\n";
    // The features of the edges from a to b, each once, in order (hexside(a, b)); their number.
    consts_ << "inline int " << p << "hexside(i64 a, i64 b, i64* out) {\n    int n = 0;\n    if (a < 0 || b < 0) return 0;\n"
            << "    for (std::uint32_t i = " << p << "ne_first[a]; i < " << p << "ne_first[a + 1]; ++i) {\n"
            << "        const std::uint32_t e = " << p << "ne[i];\n        if (!" << p << "joins(e, a, b)) continue;\n"
            << "        for (std::uint32_t k = " << p << "ek_first[e]; k < " << p << "ek_first[e + 1]; ++k) {\n"
            << "            bool seen = false;\n            for (int j = 0; j < n; ++j) seen = seen || out[j] == " << p << "ek[k];\n"
            << "            if (!seen) out[n++] = " << p << "ek[k];\n        }\n    }\n    return n;\n}\n";
    consts_ << "inline i64 " << p << "node_check(const char* where, i64 v, const char* what) {\n"
            << "    if (v < 0 || v >= " << p << "nodes) [[unlikely]]\n        fail(where, what);\n    return v;\n}\n";
    consts_ << "inline i64 " << p << "distance(const char* where, i64 a, i64 b) {\n"
            << "    if (a < 0 || b < 0) fail(where, \"distance to no location\");\n";
    if (mp.kind == ir::map_kind::hexgrid)
        consts_ << "    const i64 x1 = " << p << "col[a], z1 = " << p << "row[a] - (" << p << "col[a] + (" << p << "col[a] & 1)) / 2;\n"
                << "    const i64 x2 = " << p << "col[b], z2 = " << p << "row[b] - (" << p << "col[b] + (" << p << "col[b] & 1)) / 2;\n"
                << "    const i64 dx = x1 - x2, dz = z1 - z2, dy = -dx - dz;\n"
                << "    return ((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) + (dz < 0 ? -dz : dz)) / 2;\n}\n";
    else
        consts_ << "    const i64 d = " << p << "dist[a * " << p << "nodes + b];\n"
                << "    if (d < 0) fail(where, std::string(\"no path from \") + " << p << "names[a] + \" to \" + " << p << "names[b]);\n"
                << "    return d;\n}\n";
    return p;
}

// path_exists(a, b, pred) and path_length (interp::path_search): breadth first from a, each
// step's target (or each step) allowed by pred, given the extra arguments x0, x1, … after the
// locations; path_length counts the steps (depth) and stops the game when there is no path.
std::string writer::path_search(id n) {
    const id m = map_of_node(child(n, 0));
    const std::string p = map_data(m);
    const auto pred = static_cast<id>(N(n).value);
    const bool length = static_cast<ir::builtin>(N(n).ref) == ir::builtin::path_length;
    const std::uint32_t extra = N(n).child_count - 2;
    const bool steps = rs_.quantities.at(pred).param_count == 2 + extra;
    const std::string fn = "path" + std::to_string(n);
    std::string params, pass;
    for (std::uint32_t i = 0; i < extra; ++i) {
        params += ", i64 x" + std::to_string(i);
        pass += ", x" + std::to_string(i);
    }
    const std::string call = steps ? "q" + std::to_string(pred) + "(s, static_cast<i64>(queue[i]), static_cast<i64>(nb)" + pass + ")"
                                   : "q" + std::to_string(pred) + "(s, static_cast<i64>(nb)" + pass + ")";
    const std::string size = std::to_string(std::max<std::size_t>(1, rs_.maps[m].nodes.size()));
    const std::string owner_text = g_.statement_owner(n);
    std::string body;
    if (length)
        body += "    if (a < 0 || b < 0) fail(where, " + quoted("a path to or from no location (" + owner_text + ")") +
                ");\n    if (a == b) return 0;\n";
    else
        body += "    if (a < 0 || b < 0) return 0;\n    if (a == b) return 1;\n";
    body += "    std::uint8_t seen[" + size + "] = {};\n    std::uint32_t queue[" + size + "];\n";
    if (length) body += "    std::uint32_t depth[" + size + "];\n    depth[0] = 0;\n";
    body += "    std::size_t size = 0;\n    queue[size++] = static_cast<std::uint32_t>(a);\n    seen[a] = 1;\n"
            "    for (std::size_t i = 0; i < size; ++i)\n"
            "        for (std::uint32_t j = " + p + "nb_first[queue[i]]; j < " + p + "nb_first[queue[i] + 1]; ++j) {\n"
            "            const std::uint32_t nb = " + p + "nb[j];\n            if (seen[nb]) continue;\n"
            "            if (!" + call + ") {\n" + (steps ? "" : "                seen[nb] = 2;\n") + "                continue;\n            }\n"
            "            if (static_cast<i64>(nb) == b) return " + (length ? "static_cast<i64>(depth[i]) + 1" : "1") + ";\n"
            "            seen[nb] = 1;\n";
    if (length) body += "            depth[size] = depth[i] + 1;\n";
    body += "            queue[size++] = nb;\n        }\n";
    if (length)
        body += "    fail(where, std::string(\"no path from \") + " + p + "names[a] + \" to \" + " + p + "names[b] + " +
                quoted(" (" + owner_text + "): test path_exists first") + ");\n";
    else
        body += "    return 0;\n";
    function("i64 " + fn + "(S& s, [[maybe_unused]] const char* where, i64 a, i64 b" + params + ")", body);
    return with_operands(n, 0, [&](const auto& a) {
        std::string t = fn + "(s, " + where(n);
        for (const std::string& x : a) t += ", " + x;
        return t + ")";
    });
}

// line_blocked(a, b, pred) on a hex grid (interp::line_blocked, the same arithmetic).
std::string writer::line_blocked(id n) {
    const id m = map_of_node(child(n, 0));
    const std::string p = map_data(m);
    const auto pred = static_cast<id>(N(n).value);
    const std::uint32_t extra = N(n).child_count - 2;
    const bool three = rs_.quantities.at(pred).param_count == 3 + extra;
    const std::string fn = "line" + std::to_string(n);
    std::string params, pass;
    for (std::uint32_t i = 0; i < extra; ++i) {
        params += ", i64 x" + std::to_string(i);
        pass += ", x" + std::to_string(i);
    }
    const std::string call = three ? "q" + std::to_string(pred) + "(s, h, a, b" + pass + ")" : "q" + std::to_string(pred) + "(s, h" + pass + ")";
    function("i64 " + fn + "(S& s, const char* where, i64 a, i64 b" + params + ")",
             "    if (a < 0 || b < 0) fail(where, \"a line to or from no location\");\n"
             "    auto cube = [](i64 col, i64 row, i64 c[3]) { c[0] = col; c[2] = row - (col + (col & 1)) / 2; c[1] = -c[0] - c[2]; };\n"
             "    i64 ca[3], cb[3];\n    cube(" + p + "col[a], " + p + "row[a], ca);\n    cube(" + p + "col[b], " + p + "row[b], cb);\n"
             "    auto absolute = [](i64 v) { return v < 0 ? -v : v; };\n"
             "    const i64 len = (absolute(ca[0] - cb[0]) + absolute(ca[1] - cb[1]) + absolute(ca[2] - cb[2])) / 2;\n"
             "    if (len <= 1) return 0;\n    const i64 scale = 16 * len;\n"
             "    auto hex_at = [](i64 x, i64 z) -> i64 {\n        const i64 col = x, row = z + (col + (col & 1)) / 2;\n"
             "        for (i64 i = 0; i < " + p + "nodes; ++i)\n            if (" + p + "col[i] == col && " + p + "row[i] == row) return i;\n"
             "        return -1;\n    };\n"
             "    auto blocks = [&](i64 h) -> bool { return h >= 0 && h != a && h != b && " + call + " != 0; };\n"
             "    auto round_cube = [&](const i64 v[3], i64 out[3]) {\n        i64 diff[3];\n        for (int k = 0; k < 3; ++k) {\n"
             "            const i64 twice = 2 * v[k] + scale;\n            i64 r = twice / (2 * scale);\n"
             "            if (twice % (2 * scale) != 0 && twice < 0) --r;\n            out[k] = r;\n            diff[k] = absolute(r * scale - v[k]);\n        }\n"
             "        if (diff[0] > diff[1] && diff[0] > diff[2]) out[0] = -out[1] - out[2];\n"
             "        else if (diff[1] > diff[2]) out[1] = -out[0] - out[2];\n        else out[2] = -out[0] - out[1];\n    };\n"
             "    static constexpr i64 nudge[3] = {1, 2, -3};\n"
             "    for (i64 i = 1; i < len; ++i) {\n        i64 plus[3], minus[3], hp[3], hm[3];\n"
             "        for (int k = 0; k < 3; ++k) {\n            const i64 v = ca[k] * scale + (cb[k] - ca[k]) * 16 * i;\n"
             "            plus[k] = v + nudge[k];\n            minus[k] = v - nudge[k];\n        }\n"
             "        round_cube(plus, hp);\n        round_cube(minus, hm);\n        const i64 h1 = hex_at(hp[0], hp[2]);\n"
             "        if (hp[0] == hm[0] && hp[2] == hm[2]) {\n            if (blocks(h1)) return 1;\n"
             "        } else if (blocks(h1) && blocks(hex_at(hm[0], hm[2]))) {\n            return 1;\n        }\n    }\n    return 0;\n");
    return with_operands(n, 0, [&](const auto& a) {
        std::string t = fn + "(s, " + where(n);
        for (const std::string& x : a) t += ", " + x;
        return t + ")";
    });
}

// The odds scale (interp::odds_step): a >= b is floor(a/b)-1 (ceil when rounded for the
// attacker), a < b is 1-ceil(b/a) (floor for the attacker); 0 : b below every column.
std::int64_t writer::odds_step(std::int64_t a, std::int64_t b, ir::rounding r) {
    const bool attacker = r == ir::rounding::attacker;
    if (a >= b) return (attacker ? (a + b - 1) / b : a / b) - 1;
    if (a == 0) return std::numeric_limits<std::int64_t>::min() / 4;
    return 1 - (attacker ? b / a : (b + a - 1) / a);
}

// The row or column index an odds key k reads, or an engine error (interp::odds_index).
std::string writer::odds_index(const ir::table& tb, const ir::table_key& key, const std::vector<ir::key_range>& ranges,
                       const std::string& k, const char* what) {
    if (ir::odds_fractional(tb, &key == &tb.keys[0] ? 0 : 1)) return odds_index_fractional(tb, key, ranges, k, what);
    const std::string steps = fresh("steps");
    std::vector<std::int64_t> at;
    for (const ir::key_range& r : ranges) at.push_back(odds_step(r.lo, r.hi, ir::rounding::defender));
    write_array(consts_, "i64", steps, numbers(at));
    std::string clamp;
    if (key.has_clamp) {
        if (!key.clamp_lo.open_lo)
            clamp += " step = std::max(step, " + num(odds_step(key.clamp_lo.lo, key.clamp_lo.hi, ir::rounding::defender)) + ");";
        if (!key.clamp_hi.open_hi)
            clamp += " step = std::min(step, " + num(odds_step(key.clamp_hi.lo, key.clamp_hi.hi, ir::rounding::defender)) + ");";
    }
    const std::string round = key.round == ir::rounding::attacker ? "true" : "false";
    return "([&]() -> std::int32_t { const i64 a = " + k + " >> 32, b = static_cast<std::int32_t>(static_cast<std::uint32_t>(" + k +
           " & 0xFFFFFFFF)); if (b <= 0 || a < 0) fail(where, \"odds \" + std::to_string(a) + \":\" + std::to_string(b) + " +
           quoted(" for table " + tb.name + ": the defender must be at least 1 and the attacker at least 0") +
           "); i64 step = odds_step(a, b, " + round + ");" + clamp + " for (std::int32_t i = 0; i < " + std::to_string(ranges.size()) +
           "; ++i) if (" + steps + "[i] == step) return i; fail_fault(where, " + quoted(std::string("no ") + what + " of table " + tb.name + " for odds ") +
           " + std::to_string(a) + \":\" + std::to_string(b) + \" (read as \" + odds_text(step) + \")\", \"table-gap\", " + quoted(tb.name) +
           ", \"\"); }())";
}

// An axis with fractional points (interp::odds_index_fractional): the ratio read as an exact
// rational on the whole scale plus the axis's fractional points, clamped, then matched.
std::string writer::odds_index_fractional(const ir::table& tb, const ir::table_key& key, const std::vector<ir::key_range>& ranges,
                                          const std::string& k, const char* what) {
    std::vector<std::int64_t> fp, fq, cp, cq;
    std::vector<std::string> texts;
    auto fraction = [&](const ir::key_range& r) {
        if (ir::odds_whole(r)) return;
        fp.push_back(r.lo);
        fq.push_back(r.hi);
        texts.push_back(quoted(ir::odds_point_text(r.lo, r.hi)));
    };
    for (const ir::key_range& r : ranges) {
        fraction(r);
        cp.push_back(r.lo);
        cq.push_back(r.hi);
    }
    const bool lo = key.has_clamp && !key.clamp_lo.open_lo, hi = key.has_clamp && !key.clamp_hi.open_hi;
    if (lo) fraction(key.clamp_lo);
    if (hi) fraction(key.clamp_hi);
    const std::string pn = fresh("odds_p"), qn = fresh("odds_q"), tn = fresh("odds_text"), cpn = fresh("col_p"), cqn = fresh("col_q");
    write_array(consts_, "i64", pn, numbers(fp));
    write_array(consts_, "i64", qn, numbers(fq));
    write_array(consts_, "i64", cpn, numbers(cp));
    write_array(consts_, "i64", cqn, numbers(cq));
    std::string text_list;
    for (const std::string& t : texts) text_list += (text_list.empty() ? "" : ", ") + t;
    consts_ << "static const char* const " << tn << "[] = {" << (text_list.empty() ? "\"\"" : text_list) << "};\n";
    const bool attacker = key.round == ir::rounding::attacker;
    // the text index of a clamp end: its place among the fractional points, or -1 when whole
    auto text_index = [&](const ir::key_range& r) -> std::string {
        if (ir::odds_whole(r)) return "-1";
        for (std::size_t i = 0; i < fp.size(); ++i)
            if (fp[i] == r.lo && fq[i] == r.hi) return std::to_string(i);
        return "-1";
    };
    std::string body = "([&]() -> std::int32_t { const i64 a = " + k + " >> 32, b = static_cast<std::int32_t>(static_cast<std::uint32_t>(" + k +
                       " & 0xFFFFFFFF)); if (b <= 0 || a < 0) fail(where, \"odds \" + std::to_string(a) + \":\" + std::to_string(b) + " +
                       quoted(" for table " + tb.name + ": the defender must be at least 1 and the attacker at least 0") + ");";
    body += " i64 p = 1, q = 1; int ti = -1; bool below = a == 0;";
    body += " if (!below) { if (a >= b) { p = " + std::string(attacker ? "(a + b - 1) / b" : "a / b") + "; q = 1; } else { p = 1; q = " +
            (attacker ? "b / a" : "(b + a - 1) / a") + "; }";
    body += " for (int i = 0; i < " + std::to_string(fp.size()) + "; ++i) if (" +
            (attacker ? pn + "[i] * q < p * " + qn + "[i] && !(" + pn + "[i] * b < a * " + qn + "[i])"
                      : "p * " + qn + "[i] < " + pn + "[i] * q && !(a * " + qn + "[i] < " + pn + "[i] * b)") +
            ") { p = " + pn + "[i]; q = " + qn + "[i]; ti = i; } }";
    if (lo)
        body += " if (below || p * " + num(key.clamp_lo.hi) + " < " + num(key.clamp_lo.lo) + " * q) { p = " + num(key.clamp_lo.lo) +
                "; q = " + num(key.clamp_lo.hi) + "; ti = " + text_index(key.clamp_lo) + "; below = false; }";
    if (hi)
        body += " if (!below && " + num(key.clamp_hi.lo) + " * q < p * " + num(key.clamp_hi.hi) + ") { p = " + num(key.clamp_hi.lo) +
                "; q = " + num(key.clamp_hi.hi) + "; ti = " + text_index(key.clamp_hi) + "; }";
    body += " if (!below) for (std::int32_t i = 0; i < " + std::to_string(ranges.size()) + "; ++i) if (p * " + cqn + "[i] == " + cpn +
            "[i] * q) return i;";
    body += " fail_fault(where, " + quoted(std::string("no ") + what + " of table " + tb.name + " for odds ") +
            " + std::to_string(a) + \":\" + std::to_string(b) + \" (read as \" + (below ? std::string(\"0-1\") : ti >= 0 ? std::string(" + tn +
            "[ti]) : q == 1 ? std::to_string(p) + \"-1\" : \"1-\" + std::to_string(q)) + \")\", \"table-gap\", " + quoted(tb.name) +
            ", \"\"); }())";
    return body;
}

}  // namespace wp::codegen
