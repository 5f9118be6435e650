// IR -> C++ (translate.hpp). Every element becomes a function: quantities, rolls, decisions,
// the rule groups' guards and amounts, actions (legality and body), events, procedures, tables
// and the main sequence. Statements become C++ statements; a decision or a chance draw is a
// call in place (the random agent and the generator are in the state), so nothing suspends and
// no frame is kept. The layout is the engine's (engine::game) for the ruleset's largest number
// of players; a game with fewer seats uses the first copies.
//
// The generated code follows the interpreter's order of evaluation wherever it can matter:
// chance draws happen in the same order (operands left to right, a roll's modifiers before its
// dice, a rule group's guards before its amounts), so a seed plays the same game.
#include "westphalia/codegen/translate.hpp"

#include "prelude.hpp"

#include "westphalia/engine/engine.hpp"
#include "westphalia/ir/print.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <sstream>

namespace wp::codegen {

namespace {

using ir::id;
using ir::op;
using ir::type_kind;

std::string quoted(const std::string& s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (c == '\n') {
            o += "\\n";
            continue;
        }
        o += c;
    }
    return o + "\"";
}

std::string num(std::int64_t v) {
    if (v == std::numeric_limits<std::int64_t>::min()) return "(-9223372036854775807LL - 1)";
    return "i64(" + std::to_string(v) + "LL)";
}

class writer {
public:
    writer(const ir::ruleset& rs, const engine::game& g, const translate_options& o) : rs_(rs), g_(g), o_(o) {}

    std::string run();

private:
    const ir::ruleset& rs_;
    const engine::game& g_;
    const translate_options& o_;
    std::ostringstream consts_;  // arrays the functions use (dice weights, key maps)
    std::ostringstream protos_;
    std::ostringstream fns_;
    int tmp_ = 0;
    std::vector<std::int8_t> chance_node_;   // per node: -1 unknown, 0/1
    std::vector<std::int8_t> chance_quantity_;
    std::vector<std::string> round_flags_;   // enclosing loops over the players (for `turn`)
    bool in_sequence_ = false;               // translating the main sequence
    std::vector<std::uint8_t> map_emitted_;  // per map: its data arrays are written
    std::vector<std::size_t> table_arity_;   // per table: the arguments res<t> and look<t> take

    std::string fresh(const char* stem) { return stem + std::to_string(tmp_++); }

    const ir::node& N(id n) const { return rs_.nodes[n]; }
    id child(id n, std::uint32_t i) const { return rs_.children[rs_.nodes[n].first_child + i]; }
    type_kind kind_of(id n) const {
        const id t = rs_.nodes[n].type;
        return t == ir::no_id ? type_kind::void_ : rs_.types[t].kind;
    }
    std::string where(id n) const { return quoted(g_.position(n)); }

    [[noreturn]] void refuse(id n, const std::string& what) const {
        throw unsupported("the compiled engine does not translate " + what + " yet",
                          n < rs_.nodes.size() ? rs_.nodes[n].where : ir::source_pos{});
    }

    // ------------------------------------------------ chance

    bool chancy_quantity(id q) {
        if (chance_quantity_[q] >= 0) return chance_quantity_[q] != 0;
        chance_quantity_[q] = 0;  // recursion: assume none while looking
        bool c = chancy(rs_.quantities[q].expr) || chancy_group(g_.group_of_quantity[q]);
        chance_quantity_[q] = c;
        return c;
    }

    bool chancy_group(id gi) {
        if (gi == ir::no_id) return false;
        for (id r : g_.live_rules[gi]) {
            const ir::rule& rule = rs_.rules[r];
            if (chancy(rule.guard) || chancy(rule.amount) || chancy(rule.value)) return true;
        }
        return false;
    }

    // Whether evaluating n may draw from the generator (its order then matters).
    bool chancy(id n) {
        if (n == ir::no_id) return false;
        if (chance_node_[n] >= 0) return chance_node_[n] != 0;
        bool c = false;
        switch (N(n).code) {
            case op::dice:
            case op::roll:
            case op::lookup: c = true; break;
            case op::quantity: c = chancy_quantity(N(n).ref); break;
            case op::decide: c = chancy_group(g_.group_of_decision[N(n).ref]); break;
            default: break;
        }
        for (std::uint32_t i = 0; i < N(n).child_count && !c; ++i) c = chancy(child(n, i));
        chance_node_[n] = c;
        return c;
    }

    // Operands of n in order; when two or more may draw, they are computed into temporaries
    // first (C++ leaves the order of operands open), and `make` builds the result from names.
    std::string with_operands(id n, std::uint32_t from, const std::function<std::string(const std::vector<std::string>&)>& make) {
        std::vector<std::string> ops;
        int drawing = 0;
        for (std::uint32_t i = from; i < N(n).child_count; ++i) drawing += chancy(child(n, i));
        for (std::uint32_t i = from; i < N(n).child_count; ++i) ops.push_back(E(child(n, i)));
        if (drawing < 2) return make(ops);
        std::string code = "([&]() -> i64 { ";
        std::vector<std::string> names;
        for (const std::string& e : ops) {
            names.push_back(fresh("t"));
            code += "const i64 " + names.back() + " = " + e + "; ";
        }
        return code + "return " + make(names) + "; }())";
    }

    // A table's arguments, padded to what its functions take (a use giving fewer leaves the
    // keys to their expressions, as the interpreter does).
    std::vector<std::string> padded(id table, std::vector<std::string> args) const {
        while (args.size() < table_arity_.at(table)) args.push_back("i64(0)");
        return args;
    }

    // A call that names its call site (for the engine's error messages).
    static std::string call_at(const std::string& fn, const std::string& at, const std::vector<std::string>& args) {
        std::string t = fn + "(s, " + at;
        for (const std::string& a : args) t += ", " + a;
        return t + ")";
    }

    // C++ text of value v (an expression) of IR type `type`, as the engine writes it (game::value_text).
    std::string text_code(id type, const std::string& v) {
        if (type == ir::no_id) return "std::to_string(" + v + ")";
        const ir::type& t = rs_.types.at(type);
        switch (t.kind) {
            case type_kind::player: return "(" + v + " < 0 ? std::string(\"none\") : \"P\" + std::to_string(" + v + " + 1))";
            case type_kind::entity: return "std::string(instance_text(" + v + "))";
            case type_kind::boolean: return "std::string(" + v + " ? \"true\" : \"false\")";
            case type_kind::enumeration:
            case type_kind::string:
            case type_kind::node: {
                std::vector<std::string> names;
                if (t.kind == type_kind::enumeration)
                    for (const ir::enum_member& m : rs_.enums.at(t.ref).members) names.push_back(m.name);
                else if (t.kind == type_kind::string)
                    names = rs_.strings;
                else
                    for (const ir::map_node& m : rs_.maps.at(t.ref).nodes) names.push_back(m.name);
                const std::string table = fresh("names");
                consts_ << "static const char* const " << table << "[] = {";
                for (std::size_t i = 0; i < names.size(); ++i) consts_ << (i ? ", " : "") << quoted(names[i]);
                if (names.empty()) consts_ << "nullptr";
                consts_ << "};\n";
                return "(" + v + " >= 0 && " + v + " < " + std::to_string(names.size()) + " ? std::string(" + table + "[" + v +
                       "]) : " + (t.kind == type_kind::node ? std::string("std::string(\"none\")") : "std::to_string(" + v + ")") + ")";
            }
            default: return "std::to_string(" + v + ")";
        }
    }

    // "(P1, Pikemen)": the arguments of a call, as the engine's messages show them.
    std::string args_text_code(const std::vector<ir::local>& params, const std::vector<std::string>& args) {
        std::string t = "std::string(\"(\")";
        for (std::size_t i = 0; i < args.size(); ++i)
            t += std::string(i ? " + \", \"" : "") + " + " + text_code(i < params.size() ? params[i].type : ir::no_id, args[i]);
        return t + " + \")\"";
    }

    static std::string call_text(const std::string& fn, const std::vector<std::string>& args) {
        std::string t = fn + "(s";
        for (const std::string& a : args) t += ", " + a;
        return t + ")";
    }

    // ------------------------------------------------ maps

    // The map whose nodes expression n holds.
    id map_of_node(id n) const {
        const id t = N(n).type;
        if (t == ir::no_id || rs_.types[t].kind != type_kind::node) refuse(n, "a map function on something that is not a location");
        return rs_.types[t].ref;
    }

    // The arrays of map m (written once): "m<m>_" is their prefix. Terrain, attributes, names,
    // neighbours and the edges touching each node (CSR), the edges' ends, direction and kinds,
    // columns and rows, and on an area map the distances.
    std::string map_data(id m) {
        const std::string p = "m" + std::to_string(m) + "_";
        if (map_emitted_[m]) return p;
        map_emitted_[m] = 1;
        const ir::map& mp = rs_.maps[m];
        const std::size_t nodes = mp.nodes.size();
        auto list = [&](const std::string& type, const std::string& name, const std::vector<std::int64_t>& v) {
            consts_ << "static const " << type << " " << p << name << "[] = {";
            for (std::size_t i = 0; i < v.size(); ++i) consts_ << (i ? (i % 20 ? ", " : ",\n    ") : "") << v[i];
            if (v.empty()) consts_ << "0";
            consts_ << "};\n";
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
        consts_ << "static const char* const " << p << "names[] = {";
        for (std::size_t i = 0; i < nodes; ++i) consts_ << (i ? (i % 12 ? ", " : ",\n    ") : "") << quoted(mp.nodes[i].name);
        if (nodes == 0) consts_ << "nullptr";
        consts_ << "};\n";
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

    // path_exists(a, b, pred) (interp::path_exists): breadth first from a, each step's target
    // (or each step) allowed by pred.
    std::string path_exists(id n) {
        const id m = map_of_node(child(n, 0));
        const std::string p = map_data(m);
        const auto pred = static_cast<id>(N(n).value);
        const bool steps = rs_.quantities.at(pred).param_count == 2;
        const std::string fn = "path" + std::to_string(n);
        const std::string call = steps ? "q" + std::to_string(pred) + "(s, static_cast<i64>(queue[i]), static_cast<i64>(nb))"
                                       : "q" + std::to_string(pred) + "(s, static_cast<i64>(nb))";
        function("i64 " + fn + "(S& s, i64 a, i64 b)",
                 "    if (a < 0 || b < 0) return 0;\n    if (a == b) return 1;\n"
                 "    std::uint8_t seen[" + std::to_string(std::max<std::size_t>(1, rs_.maps[m].nodes.size())) + "] = {};\n"
                 "    std::uint32_t queue[" + std::to_string(std::max<std::size_t>(1, rs_.maps[m].nodes.size())) + "];\n"
                 "    std::size_t size = 0;\n    queue[size++] = static_cast<std::uint32_t>(a);\n    seen[a] = 1;\n"
                 "    for (std::size_t i = 0; i < size; ++i)\n"
                 "        for (std::uint32_t j = " + p + "nb_first[queue[i]]; j < " + p + "nb_first[queue[i] + 1]; ++j) {\n"
                 "            const std::uint32_t nb = " + p + "nb[j];\n            if (seen[nb]) continue;\n"
                 "            if (!" + call + ") {\n" + (steps ? "" : "                seen[nb] = 2;\n") + "                continue;\n            }\n"
                 "            if (static_cast<i64>(nb) == b) return 1;\n            seen[nb] = 1;\n            queue[size++] = nb;\n        }\n"
                 "    return 0;\n");
        return with_operands(n, 0, [&](const auto& a) { return fn + "(s, " + a[0] + ", " + a[1] + ")"; });
    }

    // line_blocked(a, b, pred) on a hex grid (interp::line_blocked, the same arithmetic).
    std::string line_blocked(id n) {
        const id m = map_of_node(child(n, 0));
        const std::string p = map_data(m);
        const auto pred = static_cast<id>(N(n).value);
        const bool three = rs_.quantities.at(pred).param_count == 3;
        const std::string fn = "line" + std::to_string(n);
        const std::string call = three ? "q" + std::to_string(pred) + "(s, h, a, b)" : "q" + std::to_string(pred) + "(s, h)";
        function("i64 " + fn + "(S& s, const char* where, i64 a, i64 b)",
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
        return with_operands(n, 0, [&](const auto& a) { return fn + "(s, " + where(n) + ", " + a[0] + ", " + a[1] + ")"; });
    }

    // ------------------------------------------------ sets

    // How many distinct values of type t there can be in a set (a list's elements).
    std::string type_capacity(id n, id t) const {
        const ir::type& ty = rs_.types.at(t);
        switch (ty.kind) {
            case type_kind::player: return "WP_MAXP";
            case type_kind::enumeration: return std::to_string(std::max<std::size_t>(1, rs_.enums.at(ty.ref).members.size()));
            case type_kind::entity: return std::to_string(std::max<std::uint32_t>(1, g_.kind_count.at(ty.ref)));
            case type_kind::node: return std::to_string(std::max<std::size_t>(1, rs_.maps.at(ty.ref).nodes.size()));
            default: refuse(n, "a list of " + ir::type_name(rs_, t));
        }
    }

    // The number of elements set expression n can hold at most.
    std::string set_capacity(id n) const {
        const ir::node& nd = N(n);
        if (nd.code == op::local && kind_of(n) == type_kind::list_of) return type_capacity(n, rs_.types[nd.type].value);
        if (kind_of(n) == type_kind::zone) {
            const id kind = rs_.types[nd.type].ref;
            return std::to_string(std::max<std::uint32_t>(1, g_.kind_count.at(kind)));
        }
        if (nd.code == op::builtin) {
            const auto b = static_cast<ir::builtin>(nd.ref);
            if (b == ir::builtin::neighbours || b == ir::builtin::hexside) {
                const ir::map& m = rs_.maps.at(map_of_node(child(n, 0)));
                std::size_t most = 1;
                if (b == ir::builtin::neighbours)
                    for (const ir::map_node& x : m.nodes) most = std::max(most, x.neighbours.size());
                else
                    for (const ir::map_edge& e : m.edges) most += e.kinds.size();
                return std::to_string(most);
            }
            return "WP_MAXP";
        }
        if (nd.code == op::type_members) {
            const ir::type& t = rs_.types.at(nd.ref);
            switch (t.kind) {
                case type_kind::player: return "WP_MAXP";
                case type_kind::enumeration: return std::to_string(std::max<std::size_t>(1, rs_.enums.at(t.ref).members.size()));
                case type_kind::entity: return std::to_string(std::max<std::uint32_t>(1, g_.kind_count.at(t.ref)));
                case type_kind::node: return std::to_string(std::max<std::size_t>(1, rs_.maps.at(t.ref).nodes.size()));
                default: break;
            }
        }
        refuse(n, std::string("this kind of set (") + ir::name_of(nd.code) + ")");
    }

    // A loop over the elements of set expression n, each assigned to `var` before `body` runs.
    std::string for_set(id n, const std::string& var, const std::string& body) {
        const ir::node& nd = N(n);
        if (kind_of(n) == type_kind::zone) {
            const std::string z = fresh("z"), it = fresh("it"), size = fresh("n"), i = fresh("i");
            return "{ const i64 " + z + " = " + Z(n) + "; const std::int32_t* " + it + " = s.c + zone_offset[" + z +
                   "]; const std::uint32_t " + size + " = s.zs[" + z + "]; for (std::uint32_t " + i + " = 0; " + i + " < " +
                   size + "; ++" + i + ") { " + var + " = " + it + "[" + i + "]; " + body + " } }";
        }
        const std::string i = fresh("i");
        if (nd.code == op::local && kind_of(n) == type_kind::list_of) {
            const std::string h = fresh("h");
            return "{ const i64 " + h + " = l" + std::to_string(nd.ref) + "; if (" + h + " < 0) fail(" + where(n) +
                   ", \"no list chosen yet\"); for (i64 " + i + " = 0; " + i + " < (" + h + " & 0xFFFFFF); ++" + i + ") { " + var +
                   " = s.list_store[(" + h + " >> 24) + " + i + "]; " + body + " } }";
        }
        if (nd.code == op::builtin) {
            const auto b = static_cast<ir::builtin>(nd.ref);
            if (b == ir::builtin::players)
                return "for (i64 " + i + " = 0; " + i + " < s.np; ++" + i + ") { " + var + " = " + i + "; " + body + " }";
            if (b == ir::builtin::neighbours) {
                const std::string p = map_data(map_of_node(child(n, 0))), v = fresh("v");
                return "{ const i64 " + v + " = " + p + "node_check(" + where(n) + ", " + E(child(n, 0)) +
                       ", \"neighbours of no location\"); for (std::uint32_t " + i + " = " + p + "nb_first[" + v + "]; " + i + " < " +
                       p + "nb_first[" + v + " + 1]; ++" + i + ") { " + var + " = " + p + "nb[" + i + "]; " + body + " } }";
            }
            if (b == ir::builtin::hexside) {
                const std::string p = map_data(map_of_node(child(n, 0))), kinds = fresh("kinds"), count = fresh("n");
                return with_operands(n, 0, [&](const auto& a) {
                    return "{ i64 " + kinds + "[" + set_capacity(n) + "]; const int " + count + " = " + p + "hexside(" + a[0] + ", " + a[1] +
                           ", " + kinds + "); for (int " + i + " = 0; " + i + " < " + count + "; ++" + i + ") { " + var + " = " + kinds +
                           "[" + i + "]; " + body + " } }";
                });
            }
            if (b == ir::builtin::opponents) {
                const std::string p = fresh("p");
                return "{ const i64 " + p + " = " + E(child(n, 0)) + "; for (i64 " + i + " = 1; " + i + " < s.np; ++" + i +
                       ") { " + var + " = (" + p + " + " + i + ") % s.np; " + body + " } }";
            }
        }
        if (nd.code == op::type_members) {
            const ir::type& t = rs_.types.at(nd.ref);
            std::string lo = "0", hi;
            switch (t.kind) {
                case type_kind::player: hi = "s.np"; break;
                case type_kind::enumeration: hi = std::to_string(rs_.enums.at(t.ref).members.size()); break;
                case type_kind::entity:
                    lo = std::to_string(g_.kind_first.at(t.ref));
                    hi = std::to_string(g_.kind_first.at(t.ref) + g_.kind_count.at(t.ref));
                    break;
                case type_kind::node: hi = std::to_string(rs_.maps.at(t.ref).nodes.size()); break;
                default: refuse(n, "the members of " + ir::type_name(rs_, nd.ref));
            }
            return "for (i64 " + i + " = " + lo + "; " + i + " < " + hi + "; ++" + i + ") { " + var + " = " + i + "; " + body +
                   " }";
        }
        refuse(n, std::string("this kind of set (") + ir::name_of(nd.code) + ")");
    }

    bool players_set(id n) const {
        const id t = N(n).type;
        return t != ir::no_id && rs_.types[t].kind == type_kind::list_of && rs_.types[rs_.types[t].value].kind == type_kind::player;
    }

    // ------------------------------------------------ storage

    // A zone instance named by zone-typed expression n.
    std::string Z(id n) {
        const ir::node& nd = N(n);
        if (nd.code == op::zone && kind_of(n) == type_kind::zone) return std::to_string(g_.zone_first.at(nd.ref));
        if (nd.code == op::index && N(child(n, 0)).code == op::zone)
            return "(" + std::to_string(g_.zone_first.at(N(child(n, 0)).ref)) + " + seat_check(s, " + where(n) + ", " +
                   E(child(n, 1)) + ", \"zone of no player\"))";
        return "zone_check(" + where(n) + ", " + E(n) + ")";
    }

    std::string key_limit(id map_type) const {
        const ir::type& k = rs_.types.at(rs_.types.at(map_type).key);
        switch (k.kind) {
            case type_kind::player: return "s.np";
            case type_kind::enumeration: return std::to_string(rs_.enums.at(k.ref).members.size());
            case type_kind::boolean: return "2";
            default: return std::to_string(g_.slots.empty() ? 0 : 1 << 30);
        }
    }

    // The address in s.v of an assignable expression (or of a map's first element).
    std::string A(id n) {
        const ir::node& nd = N(n);
        switch (nd.code) {
            case op::global: return std::to_string(g_.slots[nd.ref].offset);
            case op::player_field: {
                const auto& l = g_.slots[nd.ref];
                return "(" + std::to_string(l.offset) + " + seat_check(s, " + where(n) + ", " + E(child(n, 0)) + ", " +
                       quoted("slot " + rs_.slots[nd.ref].name + " of no player") + ") * " + std::to_string(l.width) + ")";
            }
            case op::entity_field: {
                const ir::slot& sl = rs_.slots[nd.ref];
                const auto& l = g_.slots[nd.ref];
                if (sl.scope == ir::slot_scope::per_node)
                    return "(" + std::to_string(l.offset) + " + index_check(" + where(n) + ", " + E(child(n, 0)) + ", " +
                           std::to_string(rs_.maps.at(sl.map).nodes.size()) + ", " + quoted("slot " + sl.name + " of no location") +
                           ") * " + std::to_string(l.width) + ")";
                const std::uint32_t first = g_.kind_first.at(sl.entity_kind);
                return "(" + std::to_string(l.offset) + " + (index_check(" + where(n) + ", " + E(child(n, 0)) + " - " +
                       std::to_string(first) + ", " + std::to_string(g_.kind_count.at(sl.entity_kind)) + ", " +
                       quoted("slot " + sl.name + " of no " + rs_.entity_kinds.at(sl.entity_kind).name) + ")) * " +
                       std::to_string(l.width) + ")";
            }
            case op::index:
                return "(" + A(child(n, 0)) + " + index_check(" + where(n) + ", " + E(child(n, 1)) + ", " +
                       key_limit(N(child(n, 0)).type) + ", \"map key out of range\"))";
            default: refuse(n, std::string("assigning to ") + ir::name_of(nd.code));
        }
    }

    id slot_of(id n) const { return N(n).code == op::index ? slot_of(child(n, 0)) : N(n).ref; }

    // ------------------------------------------------ expressions

    std::string E(id n) {
        const ir::node& nd = N(n);
        switch (nd.code) {
            case op::absent: return "i64(0)";
            case op::const_int:
            case op::const_bool:
            case op::const_string:
            case op::const_member:
            case op::const_node: return num(nd.value);
            case op::const_entity: return nd.value < 0 ? "i64(-1)" : num(g_.entity_first.at(static_cast<std::size_t>(nd.value)));
            case op::option: return num(g_.option_value.at(nd.ref));
            case op::local: return "l" + std::to_string(nd.ref);
            case op::dice: {
                const ir::distribution& d = g_.dice.at(nd.ref);
                if (std::all_of(d.weights.begin(), d.weights.end(), [](std::uint64_t w) { return w == 1; }))
                    return "(" + num(d.min) + " + static_cast<i64>(s.r.below(" + std::to_string(d.total) + "ULL)))";
                return "chance(s, " + num(d.min) + ", " + weights(d.weights) + ", " + std::to_string(d.weights.size()) + ", " +
                       std::to_string(d.total) + "ULL)";
            }
            case op::global:
            case op::player_field:
            case op::entity_field:
                if (kind_of(n) == type_kind::map_of) return "i64" + A(n);
                return "s.v[" + A(n) + "]";
            case op::index:
                if (kind_of(n) == type_kind::zone) return Z(n);
                return "s.v[" + A(n) + "]";
            case op::zone:
                if (kind_of(n) == type_kind::zone) return "i64(" + std::to_string(g_.zone_first.at(nd.ref)) + ")";
                return "i64(" + std::to_string(g_.zone_first.at(nd.ref)) + ")";  // a per-player zone: its first
            case op::attribute:
                return "attr(" + where(n) + ", " + E(child(n, 0)) + ", " + std::to_string(nd.ref) + ")";
            case op::node_attribute: {
                const id m = map_of_node(child(n, 0));
                const std::string p = map_data(m);
                return p + "values[" + p + "node_check(" + where(n) + ", " + E(child(n, 0)) + ", \"attribute of no location\") * " +
                       std::to_string(rs_.maps[m].attributes.size()) + " + " + std::to_string(nd.ref) + "]";
            }
            case op::roll: return with_operands(n, 0, [&](const auto& a) { return call_text("roll" + std::to_string(nd.ref), a); });
            case op::quantity: return with_operands(n, 0, [&](const auto& a) { return call_text("q" + std::to_string(nd.ref), a); });
            case op::decide:
                return with_operands(n, 0, [&](const auto& a) { return call_at("dec" + std::to_string(nd.ref), where(n), a); });
            case op::lookup:
                return with_operands(n, 0, [&](const auto& a) { return call_at("look" + std::to_string(nd.ref), where(n), padded(nd.ref, a)); });
            case op::builtin: return builtin(n);
            case op::neg: return "(-" + E(child(n, 0)) + ")";
            case op::not_: return "i64(" + E(child(n, 0)) + " == 0)";
            case op::add:
            case op::sub:
            case op::mul: {
                const char* sym = nd.code == op::add ? " + " : nd.code == op::sub ? " - " : " * ";
                return with_operands(n, 0, [&](const auto& a) { return "(" + a[0] + sym + a[1] + ")"; });
            }
            case op::div:
            case op::mod: {
                const bool mod = nd.code == op::mod;
                return with_operands(n, 0, [&](const auto& a) {
                    return "checked_div(" + where(n) + ", " + a[0] + ", " + a[1] + (mod ? ", true)" : ", false)");
                });
            }
            case op::eq:
            case op::ne: {
                const bool by_entity = N(child(n, 0)).code == op::const_entity || N(child(n, 1)).code == op::const_entity;
                const char* sym = nd.code == op::eq ? " == " : " != ";
                return with_operands(n, 0, [&](const auto& a) {
                    if (by_entity) return "i64(entity_or_none(" + a[0] + ")" + sym + "entity_or_none(" + a[1] + "))";
                    return "i64(" + a[0] + sym + a[1] + ")";
                });
            }
            case op::lt:
            case op::le:
            case op::gt:
            case op::ge: {
                const char* sym = nd.code == op::lt ? " < " : nd.code == op::le ? " <= " : nd.code == op::gt ? " > " : " >= ";
                return with_operands(n, 0, [&](const auto& a) { return "i64(" + a[0] + sym + a[1] + ")"; });
            }
            case op::in: {
                const bool by_entity = N(child(n, 0)).code == op::const_entity;
                if (kind_of(child(n, 1)) == type_kind::zone)
                    return with_operands(n, 0, [&](const auto&) {
                        return "i64(zcontains(s, " + Z(child(n, 1)) + ", " + E(child(n, 0)) + ", " + (by_entity ? "true" : "false") + "))";
                    });
                const std::string v = fresh("v"), x = fresh("x");
                const std::string test = by_entity ? "entity_or_none(" + x + ") == entity_or_none(" + v + ")" : x + " == " + v;
                return "([&]() -> i64 { const i64 " + v + " = " + E(child(n, 0)) + "; i64 " + x + " = 0; " +
                       for_set(child(n, 1), x, "if (" + test + ") return 1;") + " return 0; }())";
            }
            case op::and_: return "i64(" + E(child(n, 0)) + " != 0 && " + E(child(n, 1)) + " != 0)";
            case op::or_: return "i64(" + E(child(n, 0)) + " != 0 || " + E(child(n, 1)) + " != 0)";
            case op::cond: return "(" + E(child(n, 0)) + " != 0 ? " + E(child(n, 1)) + " : " + E(child(n, 2)) + ")";
            case op::any:
            case op::all:
            case op::count:
            case op::sum:
            case op::min:
            case op::max: return aggregate(n);
            default: refuse(n, std::string("the expression ") + ir::name_of(nd.code));
        }
    }

    std::string weights(const std::vector<std::uint64_t>& w) {
        const std::string name = fresh("weights");
        consts_ << "static const std::uint64_t " << name << "[] = {";
        for (std::size_t i = 0; i < w.size(); ++i) consts_ << (i ? ", " : "") << w[i] << "ULL";
        consts_ << "};\n";
        return name;
    }

    std::string aggregate(id n) {
        const ir::node& nd = N(n);
        const std::string var = "l" + std::to_string(nd.ref);
        const std::string body = E(child(n, 1));
        switch (nd.code) {
            case op::any: return "([&]() -> i64 { " + for_set(child(n, 0), var, "if (" + body + " != 0) return 1;") + " return 0; }())";
            case op::all: return "([&]() -> i64 { " + for_set(child(n, 0), var, "if (" + body + " == 0) return 0;") + " return 1; }())";
            case op::count:
                return "([&]() -> i64 { i64 acc = 0; " + for_set(child(n, 0), var, "acc += " + body + " != 0;") + " return acc; }())";
            case op::sum: return "([&]() -> i64 { i64 acc = 0; " + for_set(child(n, 0), var, "acc += " + body + ";") + " return acc; }())";
            default: {
                const char* pick = nd.code == op::min ? "std::min" : "std::max";
                return "([&]() -> i64 { i64 acc = 0; bool first = true; " +
                       for_set(child(n, 0), var,
                               "{ const i64 x = " + body + "; acc = first ? x : " + pick + "(acc, x); first = false; }") +
                       " return acc; }())";
            }
        }
    }

    std::string builtin(id n) {
        const auto b = static_cast<ir::builtin>(N(n).ref);
        switch (b) {
            case ir::builtin::active_player: return "active_player(s)";
            case ir::builtin::count:
            case ir::builtin::size: {
                const id a = child(n, 0);
                if (kind_of(a) == type_kind::integer) return E(a);
                if (kind_of(a) == type_kind::zone) return "i64(s.zs[" + Z(a) + "])";
                const std::string x = fresh("x");
                return "([&]() -> i64 { i64 acc = 0, " + x + " = 0; " + for_set(a, x, "++acc; (void)" + x + ";") + " return acc; }())";
            }
            case ir::builtin::top:
                if (kind_of(child(n, 0)) == type_kind::zone) return "ztop(s, " + Z(child(n, 0)) + ")";
                refuse(n, "top of a set that is not a zone");
            case ir::builtin::min:
            case ir::builtin::max: {
                const char* f = b == ir::builtin::min ? "std::min" : "std::max";
                return with_operands(n, 0, [&](const auto& a) { return std::string(f) + "(" + a[0] + ", " + a[1] + ")"; });
            }
            case ir::builtin::abs: return "([&]() -> i64 { const i64 x = " + E(child(n, 0)) + "; return x < 0 ? -x : x; }())";
            case ir::builtin::ceil_div:
            case ir::builtin::floor_div: {
                const char* f = b == ir::builtin::ceil_div ? "ceil_div" : "floor_div";
                return with_operands(n, 0, [&](const auto& a) { return std::string(f) + "(" + where(n) + ", " + a[0] + ", " + a[1] + ")"; });
            }
            case ir::builtin::terrain: {
                const std::string p = map_data(map_of_node(child(n, 0)));
                return p + "terrain[" + p + "node_check(" + where(n) + ", " + E(child(n, 0)) + ", \"terrain of no location\")]";
            }
            case ir::builtin::adjacent: {
                const std::string p = map_data(map_of_node(child(n, 0)));
                return with_operands(n, 0, [&](const auto& a) {
                    return "([&]() -> i64 { const i64 a = " + a[0] + ", c = " + a[1] + "; if (a < 0 || c < 0) return 0; for (std::uint32_t i = " +
                           p + "nb_first[a]; i < " + p + "nb_first[a + 1]; ++i) if (" + p + "nb[i] == c) return 1; return 0; }())";
                });
            }
            case ir::builtin::distance: {
                const std::string p = map_data(map_of_node(child(n, 0)));
                return with_operands(n, 0, [&](const auto& a) { return p + "distance(" + where(n) + ", " + a[0] + ", " + a[1] + ")"; });
            }
            case ir::builtin::edge_kind: {
                const std::string p = map_data(map_of_node(child(n, 0)));
                return with_operands(n, 0, [&](const auto& a) {
                    return "([&]() -> i64 { const i64 a = " + a[0] + ", c = " + a[1] + "; if (a < 0 || c < 0) fail(" + where(n) +
                           ", \"edge to or from no location\"); for (std::uint32_t i = " + p + "ne_first[a]; i < " + p +
                           "ne_first[a + 1]; ++i) { const std::uint32_t e = " + p + "ne[i]; if (" + p + "joins(e, a, c) && " + p +
                           "ek_first[e] < " + p + "ek_first[e + 1]) return " + p + "ek[" + p + "ek_first[e]]; } fail(" + where(n) +
                           ", std::string(\"no edge of a known kind from \") + " + p + "names[a] + \" to \" + " + p + "names[c]); }())";
                });
            }
            case ir::builtin::odds:
                return with_operands(n, 0, [&](const auto& a) { return "odds_value(" + where(n) + ", " + a[0] + ", " + a[1] + ")"; });
            case ir::builtin::path_exists: return path_exists(n);
            case ir::builtin::line_blocked: return line_blocked(n);
            default: refuse(n, std::string("the built-in ") + ir::name_of(b));
        }
    }

    // ------------------------------------------------ rule groups

    // Code that sets, for each live rule of group gi, whether it applies to the arguments and no
    // applicable overriding rule defeats it (`names` gets the flags, in group order).
    std::string applicable(id gi, const std::vector<std::string>& args, std::vector<std::pair<id, std::string>>& names) {
        std::string code;
        const std::vector<id>& live = g_.live_rules[gi];
        std::vector<std::string> applies;
        for (id r : live) {
            applies.push_back(fresh("ok"));
            const std::string guard = rs_.rules[r].guard == ir::no_id ? "true" : call_text("rg" + std::to_string(r), args);
            code += "[[maybe_unused]] const bool " + applies.back() + " = " + guard + "; ";
        }
        for (std::size_t i = 0; i < live.size(); ++i) {
            std::string defeated;
            for (const ir::override_edge& e : rs_.groups[gi].edges) {
                if (e.lower != live[i]) continue;
                const auto h = std::find(live.begin(), live.end(), e.higher);
                if (h != live.end()) defeated += " || " + applies[static_cast<std::size_t>(h - live.begin())];
            }
            if (defeated.empty()) {
                names.emplace_back(live[i], applies[i]);
            } else {
                const std::string u = fresh("u");
                code += "[[maybe_unused]] const bool " + u + " = " + applies[i] + " && !(false" + defeated + "); ";
                names.emplace_back(live[i], u);
            }
        }
        return code;
    }

    // Parameters "i64 a0, i64 a1" and their names.
    static std::string params(std::size_t count, std::vector<std::string>* names = nullptr) {
        std::string p;
        for (std::size_t i = 0; i < count; ++i) {
            p += ", [[maybe_unused]] i64 a" + std::to_string(i);
            if (names) names->push_back("a" + std::to_string(i));
        }
        return p;
    }

    // The locals of an element: parameters bound to the arguments, the rest -1.
    static std::string locals(std::size_t count, std::size_t bound) {
        std::string code;
        for (std::size_t i = 0; i < count; ++i)
            code += "[[maybe_unused]] i64 l" + std::to_string(i) + " = " + (i < bound ? "a" + std::to_string(i) : "-1") + "; ";
        return code;
    }

    void function(const std::string& signature, const std::string& body) {
        // every function takes the state; some do not read it
        std::string sig = signature;
        const std::size_t at = sig.find("(S& s");
        if (at != std::string::npos) sig.replace(at, 5, "([[maybe_unused]] S& s");
        protos_ << "[[maybe_unused]] static " << sig << ";\n";
        fns_ << "static " << sig << " {\n" << body << "}\n\n";
    }

    std::size_t group_arity(id gi) const {
        const ir::rule_group& gr = rs_.groups[gi];
        switch (gr.target) {
            case ir::target_kind::roll: return rs_.rolls[gr.target_id].param_count;
            case ir::target_kind::quantity: return rs_.quantities[gr.target_id].param_count;
            case ir::target_kind::decision: return rs_.decisions[gr.target_id].params.size();
            case ir::target_kind::action: return rs_.actions[gr.target_id].param_count;
            case ir::target_kind::event: return rs_.events[gr.target_id].params.size();
            case ir::target_kind::none: return 0;
        }
        return 0;
    }

    void rule_functions(id r, std::size_t arity) {
        const ir::rule& rule = rs_.rules[r];
        const std::string head = locals(std::max(rule.locals.size(), arity), std::min(rule.locals.size(), arity));
        const std::string ps = params(arity);
        if (rule.guard != ir::no_id)
            function("bool rg" + std::to_string(r) + "(S& s" + ps + ")", "    " + head + "\n    return " + E(rule.guard) + " != 0;\n");
        if (rule.kind == ir::rule_kind::modifier && rule.amount != ir::no_id)
            function("i64 ra" + std::to_string(r) + "(S& s" + ps + ")", "    " + head + "\n    return " + E(rule.amount) + ";\n");
        if (rule.kind == ir::rule_kind::define && rule.value != ir::no_id)
            function("i64 rv" + std::to_string(r) + "(S& s" + ps + ")", "    " + head + "\n    return " + E(rule.value) + ";\n");
        if (rule.kind == ir::rule_kind::trigger) {
            std::string body = "    " + head + "\n";
            if (rule.body != ir::no_id) statement(rule.body, body, 1);
            function("void rt" + std::to_string(r) + "(S& s" + ps + ")", body);
        }
    }

    // mods<g>: the sum of the applicable modifiers of group gi, their guards first.
    void modifier_function(id gi) {
        std::vector<std::string> args;
        const std::string ps = params(group_arity(gi), &args);
        std::vector<std::pair<id, std::string>> names;
        std::string body = "    " + applicable(gi, args, names) + "\n    i64 total = 0;\n";
        for (const auto& [r, flag] : names)
            if (rs_.rules[r].kind == ir::rule_kind::modifier)
                body += "    if (" + flag + ") { total += " + call_text("ra" + std::to_string(r), args) + "; fire(s, " + std::to_string(r) + "); }\n";
        function("i64 mods" + std::to_string(gi) + "(S& s" + ps + ")", body + "    return total;\n");
    }

    std::string mods_call(id gi, const std::vector<std::string>& args) const {
        if (gi == ir::no_id) return "i64(0)";
        return call_text("mods" + std::to_string(gi), args);
    }

    // ------------------------------------------------ elements

    void quantity_function(id q) {
        const ir::derived& d = rs_.quantities[q];
        std::vector<std::string> args;
        const std::string ps = params(d.param_count, &args);
        std::string body;
        const engine::game::tabulated& table = g_.quantity_tables[q];
        if (!table.values.empty() && table.sizes.size() == d.param_count) {
            // tabulated by the engine (it reads only its parameters): a table index inside it
            const std::string name = fresh("table");
            consts_ << "static const i64 " << name << "[] = {";
            for (std::size_t i = 0; i < table.values.size(); ++i) consts_ << (i ? ", " : "") << num(table.values[i]);
            consts_ << "};\n";
            std::string inside = "true", index = "0";
            for (std::size_t i = 0; i < table.sizes.size(); ++i) {
                const std::string v = "(a" + std::to_string(i) + " - " + num(table.bases[i]) + ")";
                inside += " && " + v + " >= 0 && " + v + " < " + num(table.sizes[i]);
                index = "(" + index + ") * " + num(table.sizes[i]) + " + " + v;
            }
            body += "    if (" + inside + ") return " + name + "[" + index + "];\n";
        }
        body += "    " + locals(std::max<std::size_t>(d.locals.size(), d.param_count), d.param_count) + "\n";
        body += "    const i64 v = " + E(d.expr) + ";\n";
        if (!d.predicate && g_.group_of_quantity[q] != ir::no_id)
            body += "    return v + " + mods_call(g_.group_of_quantity[q], args) + ";\n";
        else
            body += "    return v;\n";
        function("i64 q" + std::to_string(q) + "(S& s" + ps + ")", body);
    }

    void roll_function(id r) {
        const ir::roll& ro = rs_.rolls[r];
        std::vector<std::string> args;
        const std::string ps = params(ro.param_count, &args);
        std::string body = "    const i64 mod = " + mods_call(g_.group_of_roll[r], args) + ";\n";
        if (ro.linear && !ro.dist.weights.empty()) {
            const bool uniform = std::all_of(ro.dist.weights.begin(), ro.dist.weights.end(), [](std::uint64_t w) { return w == 1; });
            if (uniform)
                body += "    return " + num(ro.dist.min) + " + mod + static_cast<i64>(s.r.below(" + std::to_string(ro.dist.total) + "ULL));\n";
            else
                body += "    return chance(s, " + num(ro.dist.min) + " + mod, " + weights(ro.dist.weights) + ", " +
                        std::to_string(ro.dist.weights.size()) + ", " + std::to_string(ro.dist.total) + "ULL);\n";
        } else {
            body += "    " + locals(std::max<std::size_t>(ro.locals.size(), ro.param_count), ro.param_count) + "\n";
            body += "    return " + E(ro.expr) + " + mod;\n";
        }
        function("i64 roll" + std::to_string(r) + "(S& s" + ps + ")", body);
    }

    void decision_function(id d) {
        const ir::decision& dec = rs_.decisions[d];
        std::vector<std::string> args;
        const std::string ps = params(dec.params.size(), &args);
        const id gi = g_.group_of_decision[d];
        std::string body;
        const std::string on = args_text_code(dec.params, args);
        if (gi != ir::no_id) {
            std::vector<std::pair<id, std::string>> names;
            body += "    " + applicable(gi, args, names) + "\n    bool have = false;\n    i64 value = 0;\n    const char* first = \"\";\n";
            for (const auto& [r, flag] : names) {
                if (rs_.rules[r].kind != ir::rule_kind::define) continue;
                body += "    if (" + flag + ") { const i64 v = " + call_text("rv" + std::to_string(r), args) + "; fire(s, " +
                        std::to_string(r) + "); if (have && v != value) fail(where, std::string(\"rules \") + first + " +
                        quoted(" and " + rs_.rules[r].name + " contradict each other on " + dec.name) + " + " + on +
                        "); if (!have) first = " + quoted(rs_.rules[r].name) + "; have = true; value = v; }\n";
            }
            body += "    if (!have) fail(where, " + quoted("no rule decides " + dec.name) + " + " + on + ");\n    return value;\n";
        } else {
            body = "    fail(where, " + quoted("no rule decides " + dec.name) + " + " + on + ");\n";
        }
        function("i64 dec" + std::to_string(d) + "(S& s, const char* where" + ps + ")", body);
    }

    void action_functions(id a) {
        const ir::action& act = rs_.actions[a];
        std::vector<std::string> args;
        const std::string ps = params(act.param_count, &args);
        const std::string head = locals(std::max<std::size_t>(act.locals.size(), act.param_count), act.param_count);
        const id gi = g_.group_of_action[a];
        // legal<a>: its guard or an applicable permit, and no applicable forbid
        std::string legal = "    " + head + "\n    const bool guard = " +
                            (act.guard == ir::no_id ? std::string("true") : E(act.guard) + " != 0") + ";\n";
        std::string forbidden = "false", permitted = "false", required = "false";
        std::vector<std::pair<id, std::string>> fire_names;
        if (gi != ir::no_id) {
            std::vector<std::pair<id, std::string>>& names = fire_names;
            legal += "    " + applicable(gi, args, names) + "\n";
            for (const auto& [r, flag] : names) {
                if (rs_.rules[r].kind == ir::rule_kind::forbid) forbidden += " || " + flag;
                if (rs_.rules[r].kind == ir::rule_kind::permit) permitted += " || " + flag;
            }
            std::vector<std::pair<id, std::string>> rnames;
            std::string req = "    " + applicable(gi, args, rnames) + "\n";
            for (const auto& [r, flag] : rnames)
                if (rs_.rules[r].kind == ir::rule_kind::require) {
                    required += " || " + flag;
                    req += "    if (" + flag + ") fire(s, " + std::to_string(r) + ");  // it takes \"no\" away from the `may`\n";
                }
            function("bool req" + std::to_string(a) + "(S& s" + ps + ")", req + "    return " + required + ";\n");
        } else {
            function("bool req" + std::to_string(a) + "(S& s" + ps + ")", "    (void)s;\n    return false;\n");
        }
        if (gi != ir::no_id) {
            // a forbid counts where it removes an option that would be legal, a permit where it
            // makes legal one whose guard fails (interp::action_legal)
            legal += "    const bool forbidden = " + forbidden + ", permitted = " + permitted + ";\n";
            legal += "    if (s.count_fires) {\n";
            for (const auto& [r, flag] : fire_names) {
                if (rs_.rules[r].kind == ir::rule_kind::forbid)
                    legal += "        if (" + flag + " && (guard || permitted)) fire(s, " + std::to_string(r) + ");\n";
                if (rs_.rules[r].kind == ir::rule_kind::permit)
                    legal += "        if (" + flag + " && !guard && !forbidden) fire(s, " + std::to_string(r) + ");\n";
            }
            legal += "    }\n    return (guard || permitted) && !forbidden;\n";
        } else {
            legal += "    return guard;\n";
        }
        function("bool legal" + std::to_string(a) + "(S& s" + ps + ")", legal);
        std::string body = "    " + head + "\n";
        if (act.body != ir::no_id) statement(act.body, body, 1);
        function("void act" + std::to_string(a) + "(S& s" + ps + ")", body);
    }

    void event_function(id e) {
        const ir::event& ev = rs_.events[e];
        std::vector<std::string> args;
        const std::string ps = params(ev.params.size(), &args);
        const id gi = g_.group_of_event[e];
        std::string body;
        if (gi != ir::no_id) {
            std::vector<std::pair<id, std::string>> names;
            body += "    " + applicable(gi, args, names) + "\n";
            // every applicable trigger counts when the event is emitted, before any runs
            for (const auto& [r, flag] : names)
                if (rs_.rules[r].kind == ir::rule_kind::trigger) body += "    if (" + flag + ") fire(s, " + std::to_string(r) + ");\n";
            for (const auto& [r, flag] : names)
                if (rs_.rules[r].kind == ir::rule_kind::trigger)
                    body += "    if (" + flag + ") { " + call_text("rt" + std::to_string(r), args) + "; if (s.done) return; }\n";
        }
        if (body.empty()) body = "    (void)s;\n";
        function("void emit" + std::to_string(e) + "(S& s" + ps + ")", body);
    }

    void procedure_function(id p) {
        const ir::procedure& pr = rs_.procedures[p];
        const std::string ps = params(pr.param_count);
        std::string body = "    " + locals(std::max<std::size_t>(pr.locals.size(), pr.param_count), pr.param_count) + "\n";
        if (pr.body != ir::no_id) statement(pr.body, body, 1);
        function("void proc" + std::to_string(p) + "(S& s" + ps + ")", body);
    }

    // A key map (ir::key_map) as code: the row or column index of key k, -1 when none.
    std::string key_index(id table_node, const ir::key_map& km, const std::string& k) {
        if (km.kind == ir::key_range_kind::odds) refuse(table_node, "odds tables");
        const std::string name = fresh("keys");
        consts_ << "static const std::int32_t " << name << "[] = {";
        for (std::size_t i = 0; i < km.dense.size(); ++i) consts_ << (i ? ", " : "") << km.dense[i];
        if (km.dense.empty()) consts_ << "-1";
        consts_ << "};\n";
        if (km.kind == ir::key_range_kind::member)
            return "(" + k + " < 0 || " + k + " >= " + std::to_string(km.dense.size()) + " ? -1 : " + name + "[" + k + "])";
        return "(" + k + " < " + num(km.min) + " ? " + std::to_string(km.below) + " : " + k + " > " + num(km.max) + " ? " +
               std::to_string(km.above) + " : " + name + "[" + k + " - " + num(km.min) + "])";
    }

    // The odds scale (interp::odds_step): a >= b is floor(a/b)-1 (ceil when rounded for the
    // attacker), a < b is 1-ceil(b/a) (floor for the attacker); 0 : b below every column.
    static std::int64_t odds_step(std::int64_t a, std::int64_t b, ir::rounding r) {
        const bool attacker = r == ir::rounding::attacker;
        if (a >= b) return (attacker ? (a + b - 1) / b : a / b) - 1;
        if (a == 0) return std::numeric_limits<std::int64_t>::min() / 4;
        return 1 - (attacker ? b / a : (b + a - 1) / a);
    }

    // The row or column index an odds key k reads, or an engine error (interp::odds_index).
    std::string odds_index(const ir::table& tb, const ir::table_key& key, const std::vector<ir::key_range>& ranges,
                           const std::string& k, const char* what) {
        const std::string steps = fresh("steps");
        consts_ << "static const i64 " << steps << "[] = {";
        for (std::size_t i = 0; i < ranges.size(); ++i)
            consts_ << (i ? ", " : "") << num(odds_step(ranges[i].lo, ranges[i].hi, ir::rounding::defender));
        if (ranges.empty()) consts_ << "0";
        consts_ << "};\n";
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
               "; ++i) if (" + steps + "[i] == step) return i; fail(where, " + quoted(std::string("no ") + what + " of table " + tb.name + " for odds ") +
               " + std::to_string(a) + \":\" + std::to_string(b) + \" (read as \" + odds_text(step) + \")\"); }())";
    }

    // res<t> (the effects of the cell the keys give) and look<t> (its outcome).
    void table_functions(id t) {
        const ir::table& tb = rs_.tables[t];
        const id at = tb.keys.empty() ? ir::no_id : tb.keys[0].expr;
        // as many arguments as its uses give (the table's parameters, perhaps then keys)
        const std::size_t arity = table_arity_[t];
        const std::string ps = params(arity);
        std::string head = "    " + locals(std::max<std::size_t>(tb.locals.size(), arity), tb.param_count) + "\n";
        std::size_t a = tb.param_count;
        for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
            const ir::table_key& key = tb.keys[k];
            const std::string kv = "k" + std::to_string(k);
            if (key.source == ir::key_source::key && key.var != ir::no_id && a < arity)
                head += "    l" + std::to_string(key.var) + " = a" + std::to_string(a++) + ";\n";
            const std::string value = key.source == ir::key_source::key && key.var != ir::no_id && key.expr == ir::no_id
                                          ? "l" + std::to_string(key.var)
                                          : E(key.expr);
            head += "    i64 " + kv + " = " + value + ";\n";
            const bool odds = (k == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds;
            if (key.has_clamp && !odds) {
                const std::string lo = key.clamp_lo.open_lo ? "std::numeric_limits<i64>::min()" : num(key.clamp_lo.lo);
                const std::string hi = key.clamp_hi.open_hi ? "std::numeric_limits<i64>::max()" : num(key.clamp_hi.hi);
                head += "    " + kv + " = std::clamp(" + kv + ", " + lo + ", std::max(" + lo + ", " + hi + "));\n";
            }
        }
        const std::string pos = "where";  // the statement or expression that reads the table
        if (tb.row_map.kind == ir::key_range_kind::odds) {
            std::vector<ir::key_range> ranges;
            for (const ir::table_row& r : tb.rows) ranges.push_back(r.key);
            head += "    const std::int32_t row = " + odds_index(tb, tb.keys.at(0), ranges, "k0", "row") + ";\n";
        } else {
            head += "    const std::int32_t row = " + key_index(at, tb.row_map, "k0") + ";\n";
            head += "    if (row < 0) fail(" + pos + ", " + quoted("no row of table " + tb.name + " for key ") + " + std::to_string(k0));\n";
        }
        if (!tb.columns.empty()) {
            if (tb.column_map.kind == ir::key_range_kind::odds && tb.keys.size() > 1) {
                head += "    const std::int32_t col = " + odds_index(tb, tb.keys[1], tb.columns, "k1", "column") + ";\n";
            } else {
                head += "    const std::int32_t col = " + key_index(at, tb.column_map, "k1") + ";\n";
                head += "    if (col < 0) fail(" + pos + ", " + quoted("no column of table " + tb.name + " for key ") + " + std::to_string(k1));\n";
            }
            head += "    const std::size_t cell = static_cast<std::size_t>(row) * " + std::to_string(tb.columns.size()) + " + static_cast<std::size_t>(col);\n";
        } else {
            head += "    const std::size_t cell = static_cast<std::size_t>(row);\n";
        }
        std::string res = head + "    switch (cell) {\n";
        for (std::size_t c = 0; c < tb.cells.size(); ++c) {
            if (tb.cells[c].effects == ir::no_id) continue;
            std::string effects;
            statement(tb.cells[c].effects, effects, 3);
            res += "        case " + std::to_string(c) + ": {\n" + effects + "            return;\n        }\n";
        }
        res += "        default: return;\n    }\n";
        function("void res" + std::to_string(t) + "(S& s, const char* where" + ps + ")", res);
        std::string look = head + "    static const i64 outcome[] = {";
        std::string has = "    static const bool has[] = {";
        for (std::size_t c = 0; c < tb.cells.size(); ++c) {
            look += (c ? ", " : "") + num(tb.cells[c].outcome);
            has += std::string(c ? ", " : "") + (tb.cells[c].has_outcome ? "true" : "false");
        }
        if (tb.cells.empty()) {
            look += "0";
            has += "false";
        }
        look += "};\n" + has + "};\n";
        look += "    if (!has[cell]) fail(" + pos + ", " + quoted("table " + tb.name + " gives no outcome here") + ");\n";
        look += "    return outcome[cell];\n";
        function("i64 look" + std::to_string(t) + "(S& s, const char* where" + ps + ")", look);
    }

    // ------------------------------------------------ statements

    static std::string pad(int indent) { return std::string(static_cast<std::size_t>(indent) * 4, ' '); }

    // Whether the first statement of `body` can be done (engine: body_possible).
    std::string possible(id body) {
        if (body == ir::no_id) return "true";
        const ir::node& nd = N(body);
        if (nd.code == op::seq) return nd.child_count == 0 ? "true" : possible(child(body, 0));
        if (nd.code == op::do_action)
            return with_operands(body, 0, [&](const auto& a) { return "i64(" + call_text("legal" + std::to_string(nd.ref), a) + ")"; }) + " != 0";
        if (nd.code == op::choose_one) {
            const std::string var = "l" + std::to_string(nd.ref);
            const id w = child(body, 2);
            const std::string test = (N(w).code == op::absent ? std::string("true") : E(w) + " != 0") + " && (" + possible(child(body, 3)) + ")";
            // only asked whether the choice can be made: when it can, the rules met on the way
            // count where the choice itself is listed (interp::choose_options)
            return "([&]() -> bool { const std::uint32_t mark = s.fire_log_size; " +
                   for_set(child(body, 0), var, "if (" + test + ") { undo_fires(s, mark); return true; }") + " return false; }())";
        }
        return "true";
    }

    // Whether the first statement of `body` is a `do` a `require` rule demands (body_required).
    std::string required(id body) {
        if (body == ir::no_id) return "false";
        const ir::node& nd = N(body);
        if (nd.code == op::seq) return nd.child_count == 0 ? "false" : required(child(body, 0));
        if (nd.code != op::do_action) return "false";
        return with_operands(body, 0, [&](const auto& a) { return "i64(" + call_text("req" + std::to_string(nd.ref), a) + ")"; }) + " != 0";
    }

    std::string statement_owner(id n) const { return g_.statement_owner(n); }

    void store(id stmt, id target, const std::string& value, std::string& o, int in) {
        const ir::type& ty = rs_.types.at(N(target).type);
        const id slot = slot_of(target);
        o += pad(in) + "{\n" + pad(in + 1) + "i64 v = " + value + ";\n";
        if (ty.kind == type_kind::range && ty.policy != ir::overflow::none) {
            o += pad(in + 1) + "if (v < " + num(ty.lo) + " || v > " + num(ty.hi) + ") ";
            if (ty.policy == ir::overflow::clamp)
                o += "v = std::clamp(v, " + num(ty.lo) + ", " + num(ty.hi) + ");\n";
            else
                o += "fail(" + where(stmt) + ", " + quoted("slot " + rs_.slots[slot].name + " would be ") + " + std::to_string(v) + " +
                     quoted(", outside " + std::to_string(ty.lo) + ".." + std::to_string(ty.hi) + " (" + statement_owner(stmt) + ")") + ");\n";
        }
        o += pad(in + 1) + "const std::size_t at = " + A(target) + ";\n";
        if (N(target).code != op::index && rs_.slots[slot].flag)
            o += pad(in + 1) + "if (s.v[at] != 0 && v == 0) fail(" + where(stmt) + ", " +
                 quoted("flag " + rs_.slots[slot].name + " may not go back to false (" + statement_owner(stmt) + ")") + ");\n";
        o += pad(in + 1) + "s.v[at] = v;\n" + pad(in) + "}\n";
    }

    // The zone instances a statement acts on: one, or each seat's for a per-player zone.
    std::string each_target(id n, const std::string& var, const std::string& body) {
        if (kind_of(n) == type_kind::map_of) {
            const std::string base = fresh("base"), p = fresh("p");
            return "{ const i64 " + base + " = " + E(n) + "; for (i64 " + p + " = 0; " + p + " < s.np; ++" + p + ") { const i64 " +
                   var + " = " + base + " + " + p + "; " + body + " } }";
        }
        return "{ const i64 " + var + " = " + Z(n) + "; " + body + " }";
    }

    void statement(id n, std::string& o, int in) {
        const ir::node& nd = N(n);
        const std::string P = pad(in);
        // each statement is one step of the interpreter: a rule fires at most once in it
        if (nd.code != op::seq && nd.code != op::block) o += P + "next_step(s);\n";
        switch (nd.code) {
            case op::seq:
                for (std::uint32_t i = 0; i < nd.child_count; ++i) statement(child(n, i), o, in);
                return;
            case op::block: {
                if (!g_.block_is_turn[nd.ref]) return statement(child(n, 0), o, in);
                // The round a turn belongs to is the loop over the players around it; the
                // translation finds it in the same function only.
                if (!in_sequence_) refuse(n, "a turn outside the main sequence");
                o += P + "{  // turn " + rs_.blocks[nd.ref].path + "\n";
                if (!round_flags_.empty()) o += P + "    " + round_flags_.back() + " = true;\n";
                statement(child(n, 0), o, in + 1);
                o += P + "    if (s.end_at == 1) { finish(s, s.pending_end); return; }\n" + P + "}\n";
                return;
            }
            case op::let: o += P + "l" + std::to_string(nd.ref) + " = " + E(child(n, 0)) + ";\n"; return;
            case op::assign: store(n, child(n, 0), E(child(n, 1)), o, in); return;
            case op::add_assign:
            case op::sub_assign: {
                // the value first, then the old value (the interpreter's order)
                const std::string v = fresh("d");
                o += P + "{\n" + P + "    const i64 " + v + " = " + E(child(n, 1)) + ";\n";
                store(n, child(n, 0), E(child(n, 0)) + (nd.code == op::add_assign ? " + " : " - ") + v, o, in + 1);
                o += P + "}\n";
                return;
            }
            case op::if_: {
                const std::uint8_t known = g_.if_condition[n];
                const bool has_else = N(child(n, 2)).code != op::absent;
                if (known != engine::game::condition_varies) {
                    if (known == engine::game::condition_true) statement(child(n, 1), o, in);
                    else if (has_else) statement(child(n, 2), o, in);
                    return;
                }
                o += P + "if (" + E(child(n, 0)) + " != 0) {\n";
                statement(child(n, 1), o, in + 1);
                if (has_else) {
                    o += P + "} else {\n";
                    statement(child(n, 2), o, in + 1);
                }
                o += P + "}\n";
                return;
            }
            case op::for_each: return for_each(n, o, in);
            case op::while_:
                o += P + "while ((next_step(s), " + E(child(n, 0)) + " != 0)) {\n";
                statement(child(n, 1), o, in + 1);
                o += P + "}\n";
                return;
            case op::repeat_until:
                o += P + "do {\n";
                statement(child(n, 0), o, in + 1);
                o += P + "} while ((next_step(s), " + E(child(n, 1)) + " == 0));\n";
                return;
            case op::shuffle: o += P + each_target(child(n, 0), "z", "zshuffle(s, z);") + "\n"; return;
            case op::draw:
            case op::deal: {
                const std::string w = where(n);
                o += P + "{\n" + P + "    const i64 count = " + E(child(n, 0)) + ";\n" + P + "    const i64 from = " + Z(child(n, 1)) +
                     ";\n" + P + "    bool empty = false;\n" + P + "    for (i64 i = 0; i < count && !empty; ++i) " +
                     each_target(child(n, 2), "to",
                                 "if (empty || s.zs[from] == 0) { empty = true; break; } const i64 top = ztop(s, from); zremove(s, " +
                                     w + ", from, top); zadd(s, " + w + ", to, top);") +
                     "\n" + P + "}\n";
                return;
            }
            case op::move: {
                const std::string w = where(n);
                o += P + "{\n" + P + "    i64 e = " + E(child(n, 0)) + ";\n" + P + "    const i64 from = " + Z(child(n, 1)) + ";\n" + P +
                     "    const i64 to = " + Z(child(n, 2)) + ";\n";
                if (N(child(n, 0)).code == op::const_entity) o += P + "    e = copy_in(s, from, e);\n";
                o += P + "    zremove(s, " + w + ", from, e);\n" + P + "    zadd(s, " + w + ", to, e);\n" + P + "}\n";
                return;
            }
            case op::reshuffle: {
                const std::string w = where(n);
                o += P + "{\n" + P + "    const i64 from = " + Z(child(n, 0)) + ";\n" + P + "    const i64 into = " + Z(child(n, 1)) + ";\n" +
                     P + "    while (s.zs[from] > 0) { const i64 top = ztop(s, from); zremove(s, " + w + ", from, top); zadd(s, " + w +
                     ", into, top); }\n" + P + "    zshuffle(s, into);\n" + P + "}\n";
                return;
            }
            case op::choose_one: return choose(n, o, in);
            case op::choose_subset:
            case op::choose_order: return choose_list(n, o, in);
            case op::may: {
                const id by = child(n, 0);
                o += P + "{\n" + P + "    const i64 player = " + (N(by).code == op::absent ? std::string("active_player(s)") : E(by)) + ";\n";
                o += P + "    if (player < 0) fail(" + where(n) + ", \"`may` with no player to decide\");\n";
                o += P + "    const bool possible = " + possible(child(n, 1)) + ";\n";
                o += P + "    if (possible) {\n" + P + "        const bool required = " + required(child(n, 1)) + ";\n";
                o += P + "        if (!decision_allowed(s)) return;\n";
                o += P + "        if (decide(s, player, required ? 1 : 2) == 0) {\n";
                statement(child(n, 1), o, in + 3);
                o += P + "        }\n" + P + "    }\n" + P + "}\n";
                return;
            }
            case op::do_action: {
                const ir::action& act = rs_.actions[nd.ref];
                std::vector<std::string> names;
                o += P + "{\n";
                for (std::uint32_t i = 0; i < nd.child_count; ++i) {
                    names.push_back(fresh("x"));
                    o += P + "    const i64 " + names.back() + " = " + E(child(n, i)) + ";\n";
                }
                const std::vector<ir::local> params(act.locals.begin(), act.locals.begin() + std::min<std::size_t>(act.locals.size(), names.size()));
                o += P + "    if (!" + call_text("legal" + std::to_string(nd.ref), names) + ") fail(" + where(n) + ", " +
                     quoted("action " + act.name) + " + " + args_text_code(params, names) + " + \" is not legal\");\n";
                o += P + "    " + call_text("act" + std::to_string(nd.ref), names) + ";\n" + P + "    if (s.done) return;\n" + P + "}\n";
                return;
            }
            case op::call:
            case op::resolve:
            case op::emit: {
                const char* stem = nd.code == op::call ? "proc" : nd.code == op::resolve ? "res" : "emit";
                std::vector<std::string> names;
                o += P + "{\n";
                for (std::uint32_t i = 0; i < nd.child_count; ++i) {
                    names.push_back(fresh("x"));
                    o += P + "    const i64 " + names.back() + " = " + E(child(n, i)) + ";\n";
                }
                const std::string call = nd.code == op::resolve ? call_at(stem + std::to_string(nd.ref), where(n), padded(nd.ref, names))
                                                                : call_text(stem + std::to_string(nd.ref), names);
                o += P + "    " + call + ";\n" + P + "    if (s.done) return;\n" + P + "}\n";
                return;
            }
            case op::end_game: {
                const bool named = nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs_.strings.size();
                const std::string reason = quoted(named ? rs_.strings[static_cast<std::size_t>(nd.value)] : std::to_string(nd.value));
                if (nd.ref == 0) {
                    o += P + "finish(s, " + reason + ");\n" + P + "return;\n";
                } else {
                    o += P + "if (s.end_at == 0) { s.end_at = " + std::to_string(nd.ref) + "; s.pending_end = " + reason + "; }\n";
                }
                return;
            }
            default: refuse(n, std::string("the statement ") + ir::name_of(nd.code));
        }
    }

    void for_each(id n, std::string& o, int in) {
        const ir::node& nd = N(n);
        const std::string P = pad(in);
        const std::string items = fresh("items"), count = fresh("n"), x = fresh("x");
        const bool players = players_set(child(n, 0));
        o += P + "{\n" + P + "    i64 " + items + "[" + set_capacity(child(n, 0)) + "];\n" + P + "    std::size_t " + count + " = 0;\n";
        o += P + "    { i64 " + x + " = 0; " + for_set(child(n, 0), x, items + "[" + count + "++] = " + x + ";") + " }\n";
        if (N(child(n, 1)).code != op::absent) {
            o += P + "    { const i64 from = " + E(child(n, 1)) + "; i64* at = std::find(" + items + ", " + items + " + " + count +
                 ", from); if (at != " + items + " + " + count + ") std::rotate(" + items + ", at, " + items + " + " + count + "); }\n";
        }
        std::string round;
        if (players) {
            round = fresh("round");
            o += P + "    [[maybe_unused]] bool " + round + " = false;\n" + P + "    const i64 saved_active = s.active;\n";
            round_flags_.push_back(round);
        }
        const std::string i = fresh("i");
        o += P + "    for (std::size_t " + i + " = 0; " + i + " < " + count + "; ++" + i + ") {\n";
        o += P + "        l" + std::to_string(nd.ref) + " = " + items + "[" + i + "];\n";
        if (players) o += P + "        s.active = l" + std::to_string(nd.ref) + ";\n";
        statement(child(n, 2), o, in + 2);
        o += P + "    }\n";
        if (players) {
            round_flags_.pop_back();
            o += P + "    s.active = saved_active;\n";
            const std::string ended = g_.has_turns ? round : "true";
            o += P + "    if (s.end_at == 2 && " + ended + ") { finish(s, s.pending_end); return; }\n";
        }
        o += P + "}\n";
    }

    // `choose subset` (a yes or no per element, in order) and `choose order` (the next element
    // among those left, the last one without a decision), as the interpreter's frames step them.
    void choose_list(id n, std::string& o, int in) {
        const ir::node& nd = N(n);
        const std::string P = pad(in);
        if (N(child(n, 2)).code != op::absent) refuse(n, std::string(ir::name_of(nd.code)) + " with `where`");
        const bool subset = nd.code == op::choose_subset;
        const id by = child(n, 1);
        const std::string player = N(by).code == op::absent ? std::string("-1") : E(by);
        const std::string w = where(n);
        o += P + "{\n" + P + "    const std::uint32_t mark = s.list_top;\n";
        o += P + "    { i64 x = 0; " + for_set(child(n, 0), "x", "if (!in_list(s, mark, x)) push_list(s, " + w + ", x);") + " }\n";
        o += P + "    const std::uint32_t count = s.list_top - mark, chosen_at = s.list_top;\n";
        const std::string pick = "        std::size_t pick = 0;\n" + P + "        const i64 player = " + player + ";\n" + P +
                                 "        if (player < 0) {\n" + P + "            pick = static_cast<std::size_t>(s.r.below(NOPTIONS));\n" + P +
                                 "            s.pending_player = -1;\n" + P + "        } else {\n" + P +
                                 "            if (!decision_allowed(s)) return;\n" + P +
                                 "            pick = static_cast<std::size_t>(decide(s, player, NOPTIONS));\n" + P + "        }\n";
        auto with_options = [&](const std::string& count_text) {
            std::string t = pick;
            for (std::size_t at = t.find("NOPTIONS"); at != std::string::npos; at = t.find("NOPTIONS")) t.replace(at, 8, count_text);
            return P + t;
        };
        if (subset) {
            o += P + "    for (std::uint32_t i = 0; i < count; ++i) {\n" + with_options("2");
            o += P + "        if (pick == 0) push_list(s, " + w + ", s.list_store[mark + i]);\n" + P + "    }\n";
        } else {
            o += P + "    while (s.list_top - chosen_at < count) {\n" + P + "        i64 left[" + set_capacity(child(n, 0)) + "];\n" + P +
                 "        std::size_t left_count = 0;\n" + P + "        for (std::uint32_t i = 0; i < count; ++i)\n" + P +
                 "            if (!in_list(s, chosen_at, s.list_store[mark + i])) left[left_count++] = s.list_store[mark + i];\n" + P +
                 "        if (left_count == 1) {\n" + P + "            push_list(s, " + w + ", left[0]);\n" + P + "            continue;\n" + P +
                 "        }\n" + with_options("left_count");
            o += P + "        push_list(s, " + w + ", left[pick]);\n" + P + "    }\n";
        }
        o += P + "    l" + std::to_string(nd.ref) + " = static_cast<i64>(chosen_at) << 24 | static_cast<i64>(s.list_top - chosen_at);\n";
        statement(child(n, 3), o, in + 1);
        o += P + "    s.list_top = mark;\n" + P + "}\n";
    }

    void choose(id n, std::string& o, int in) {
        const ir::node& nd = N(n);
        const std::string P = pad(in);
        const std::string var = "l" + std::to_string(nd.ref);
        const id w = child(n, 2);
        o += P + "{\n" + P + "    i64 options[" + set_capacity(child(n, 0)) + "];\n" + P + "    std::size_t count = 0;\n";
        const std::string test = (N(w).code == op::absent ? std::string("true") : E(w) + " != 0") + " && (" + possible(child(n, 3)) + ")";
        o += P + "    " + for_set(child(n, 0), var, "if (" + test + ") options[count++] = " + var + ";") + "\n";
        o += P + "    if (count == 0) fail(" + where(n) + ", \"a choice with no legal option\");\n";
        const id by = child(n, 1);
        o += P + "    const i64 player = " + (N(by).code == op::absent ? std::string("-1") : E(by)) + ";\n";
        o += P + "    std::size_t pick = 0;\n";
        o += P + "    if (player < 0) {\n" + P + "        pick = static_cast<std::size_t>(s.r.below(count));\n" + P +
             "        s.pending_player = -1;\n" + P + "    } else {\n" + P + "        if (!decision_allowed(s)) return;\n" + P +
             "        pick = static_cast<std::size_t>(decide(s, player, count));\n" + P + "    }\n";
        o += P + "    " + var + " = options[pick];\n";
        statement(child(n, 3), o, in + 1);
        o += P + "}\n";
    }
};

std::string writer::run() {
    chance_node_.assign(rs_.nodes.size(), -1);
    chance_quantity_.assign(rs_.quantities.size(), -1);
    map_emitted_.assign(rs_.maps.size(), 0);
    table_arity_.assign(rs_.tables.size(), 0);
    for (id t = 0; t < rs_.tables.size(); ++t) {
        table_arity_[t] = rs_.tables[t].param_count;
        for (const ir::node& nd : rs_.nodes)
            if ((nd.code == op::resolve || nd.code == op::lookup) && nd.ref == t)
                table_arity_[t] = std::max<std::size_t>(table_arity_[t], nd.child_count);
    }

    // Elements, in IR order (prototypes make the order free).
    for (id gi = 0; gi < rs_.groups.size(); ++gi) {
        const std::size_t arity = group_arity(gi);
        for (id r : g_.live_rules[gi]) rule_functions(r, arity);
        if (rs_.groups[gi].target == ir::target_kind::roll || rs_.groups[gi].target == ir::target_kind::quantity)
            modifier_function(gi);
    }
    for (id q = 0; q < rs_.quantities.size(); ++q) quantity_function(q);
    for (id r = 0; r < rs_.rolls.size(); ++r) roll_function(r);
    for (id d = 0; d < rs_.decisions.size(); ++d) decision_function(d);
    for (id a = 0; a < rs_.actions.size(); ++a) action_functions(a);
    for (id e = 0; e < rs_.events.size(); ++e) event_function(e);
    for (id p = 0; p < rs_.procedures.size(); ++p) procedure_function(p);
    for (id t = 0; t < rs_.tables.size(); ++t) table_functions(t);
    // Invariants: each a predicate; check_invariants puts the generator back (a die in an
    // invariant draws nothing from the game's, as in the interpreter).
    std::vector<std::string> invariant_names;
    {
        std::string check = "    const rng saved = s.r;\n    const bool counting = s.count_fires;\n    s.count_fires = false;\n";
        for (id r = 0; r < rs_.rules.size(); ++r) {
            const ir::rule& rule = rs_.rules[r];
            if (rule.kind != ir::rule_kind::invariant || rule.value == ir::no_id) continue;
            if (invariant_names.size() == 64) refuse(rule.value, "more than 64 invariants");
            function("bool inv" + std::to_string(r) + "(S& s)",
                     "    " + locals(rule.locals.size(), 0) + "\n    return " + E(rule.value) + " != 0;\n");
            check += "    if (!inv" + std::to_string(r) + "(s)) broken(s, " + std::to_string(invariant_names.size()) + ");\n";
            invariant_names.push_back(rule.name);
        }
        fns_ << "static void check_invariants([[maybe_unused]] S& s) {\n" << check << "    s.r = saved;\n    s.count_fires = counting;\n}\n\n";
    }
    const ir::sequence& seq = rs_.sequences[g_.main_sequence];
    {
        std::string body = "    " + locals(seq.locals.size(), 0) + "\n";
        in_sequence_ = true;
        statement(seq.body, body, 1);
        in_sequence_ = false;
        function("void play_sequence(S& s)", body);
    }

    // Layout and data.
    const auto instances = static_cast<std::uint32_t>(g_.instance_entity.size());
    const auto zones = static_cast<std::uint32_t>(g_.zone_instance_zone.size());
    std::ostringstream out;
    out << "// Generated by `westphalia translate` from ruleset " << rs_.name << " (" << rs_.title << ").\n"
        << "// The compiled engine: do not edit; translate the ruleset again instead.\n"
        << "#include <algorithm>\n#include <cstdint>\n#include <cstring>\n#include <limits>\n#include <stdexcept>\n#include <string>\n\n"
        << "namespace " << o_.name_space << " {\n\nusing i64 = std::int64_t;\n\n";
    out << "inline constexpr int WP_MAXP = " << g_.players() << ";\n"
        << "inline constexpr std::uint32_t WP_VALUES = " << std::max<std::uint32_t>(1, g_.value_count) << ";\n"
        << "inline constexpr std::uint32_t WP_CONTENTS = " << std::max<std::uint32_t>(1, g_.contents_size) << ";\n"
        << "inline constexpr i64 WP_ZONES = " << std::max<std::uint32_t>(1, zones) << ";\n"
        << "inline constexpr i64 WP_INSTANCES = " << instances << ";\n"
        << "inline constexpr std::uint32_t WP_LIST_CAP = 16384;\n"
        << "inline constexpr std::uint32_t WP_RULES = " << std::max<std::size_t>(1, rs_.rules.size()) << ";\n"
        << "inline constexpr std::uint32_t WP_STRIDE = " << std::max<std::uint32_t>(1, g_.attribute_stride) << ";\n";
    auto array = [&](const char* type, const char* name, std::size_t n, const std::function<std::int64_t(std::size_t)>& at) {
        out << "static const " << type << " " << name << "[] = {";
        for (std::size_t i = 0; i < n; ++i) out << (i ? (i % 16 ? ", " : ",\n    ") : "") << at(i);
        if (n == 0) out << "0";
        out << "};\n";
    };
    array("std::uint32_t", "zone_offset", zones, [&](std::size_t i) { return g_.zone_capacity_offset[i]; });
    array("std::int32_t", "zone_kind", zones,
          [&](std::size_t i) { return static_cast<std::int64_t>(rs_.zones[g_.zone_instance_zone[i]].entity_kind); });
    array("std::int32_t", "instance_entity", instances, [&](std::size_t i) { return g_.instance_entity[i]; });
    array("std::int32_t", "instance_kind", instances,
          [&](std::size_t i) { return static_cast<std::int64_t>(rs_.entities[g_.instance_entity[i]].kind); });
    out << "static const i64 instance_attributes[] = {";
    for (std::size_t i = 0; i < g_.instance_attributes.size(); ++i) out << (i ? (i % 16 ? ", " : ",\n    ") : "") << num(g_.instance_attributes[i]);
    if (g_.instance_attributes.empty()) out << "0";
    out << "};\n";
    array("std::uint32_t", "zone_first_of", rs_.zones.size(), [&](std::size_t i) { return g_.zone_first[i]; });
    out << "static const char* const instance_names[] = {";
    for (std::uint32_t i = 0; i < instances; ++i) out << (i ? (i % 8 ? ", " : ",\n    ") : "") << quoted(g_.instance_text(i));
    if (instances == 0) out << "nullptr";
    out << "};\nstatic const char* const zone_names[] = {";
    for (std::uint32_t z = 0; z < zones; ++z) {
        const id zone = g_.zone_instance_zone[z];
        std::string name = rs_.zones[zone].name;
        if (rs_.zones[zone].per_player) name += "[P" + std::to_string(z - g_.zone_first[zone] + 1) + "]";
        out << (z ? (z % 8 ? ", " : ",\n    ") : "") << quoted(name);
    }
    if (zones == 0) out << "nullptr";
    out << "};\n";
    array("std::uint32_t", "slot_offset", rs_.slots.size(), [&](std::size_t i) { return g_.slots[i].offset; });
    array("std::uint32_t", "slot_width", rs_.slots.size(), [&](std::size_t i) { return g_.slots[i].width; });
    out << prelude;
    out << R"CPP(
[[gnu::always_inline]] inline i64 attr(const char* where, i64 inst, unsigned field) {
    if (inst < 0 || inst >= WP_INSTANCES) [[unlikely]]
        fail(where, "attribute of no entity");
    return instance_attributes[static_cast<std::size_t>(inst) * WP_STRIDE + field];
}

inline i64 odds_step(i64 a, i64 b, bool attacker) {
    if (a >= b) return (attacker ? (a + b - 1) / b : a / b) - 1;
    if (a == 0) return std::numeric_limits<i64>::min() / 4;
    return 1 - (attacker ? b / a : (b + a - 1) / a);
}

inline std::string odds_text(i64 step) {
    if (step == std::numeric_limits<i64>::min() / 4) return "0-1";
    return step >= 0 ? std::to_string(step + 1) + "-1" : "1-" + std::to_string(1 - step);
}

// odds(a, d): the attacker in the high 32 bits, the defender in the low 32 (both signed).
inline i64 odds_value(const char* where, i64 a, i64 d) {
    if (a < std::numeric_limits<std::int32_t>::min() || a > std::numeric_limits<std::int32_t>::max() ||
        d < std::numeric_limits<std::int32_t>::min() || d > std::numeric_limits<std::int32_t>::max())
        fail(where, "odds " + std::to_string(a) + ":" + std::to_string(d) + " are too large to read");
    return static_cast<i64>((static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(static_cast<std::int32_t>(d)));
}

[[gnu::always_inline]] inline i64 index_check(const char* where, i64 i, i64 n, const char* what) {
    if (i < 0 || i >= n) [[unlikely]]
        fail(where, what);
    return i;
}
)CPP";
    out << "\n" << consts_.str() << "\n" << protos_.str() << "\n" << fns_.str();

    // Storage at the start: the initial values, every card in the first zone of its kind.
    out << "static void set_up(S& s, int players) {\n";
    for (id sl = 0; sl < rs_.slots.size(); ++sl) {
        const ir::slot& slot = rs_.slots[sl];
        std::int64_t init = slot.initial;
        if (rs_.types[slot.type].kind == type_kind::entity && init >= 0) init = g_.entity_first.at(static_cast<std::size_t>(init));
        const std::uint32_t end = sl + 1 < rs_.slots.size() ? g_.slots[sl + 1].offset : g_.value_count;
        out << "    std::fill(s.v + " << g_.slots[sl].offset << ", s.v + " << end << ", " << num(init) << ");\n";
    }
    out << "    std::fill(s.c, s.c + WP_CONTENTS, -1);\n    std::fill(s.zs, s.zs + WP_ZONES, 0u);\n";
    for (id k = 0; k < rs_.entity_kinds.size(); ++k)
        for (id z = 0; z < rs_.zones.size(); ++z) {
            if (rs_.zones[z].entity_kind != k) continue;
            const std::uint32_t zi = g_.zone_first[z];
            out << "    for (std::uint32_t i = 0; i < " << g_.kind_count[k] << "; ++i) s.c[" << g_.zone_capacity_offset[zi]
                << " + s.zs[" << zi << "]++] = static_cast<std::int32_t>(" << g_.kind_first[k] << " + i);\n";
            break;
        }
    out << "    s.np = players;\n    s.decisions = 0;\n    s.done = s.limit = false;\n    s.end_at = 0;\n"
        << "    s.end_reason = s.pending_end = \"\";\n    s.active = s.pending_player = -1;\n"
        << "    s.broken = 0;\n    s.broken_count = 0;\n    s.list_top = 0;\n    s.reached_decision = false;\n"
        << "    if (s.count_fires) {\n        std::fill(s.fires, s.fires + WP_RULES, 0ull);\n        std::fill(s.fire_stamp, s.fire_stamp + WP_RULES, 0ull);\n"
        << "        s.step = 1;\n        s.fire_log_size = 0;\n    }\n}\n\n";
    out << "inline constexpr int invariant_count = " << invariant_names.size() << ";\n";
    out << "static const char* const invariant_names[] = {";
    for (std::size_t i = 0; i < invariant_names.size(); ++i) out << (i ? ", " : "") << quoted(invariant_names[i]);
    if (invariant_names.empty()) out << "nullptr";
    out << "};\n\n";

    out << "struct outcome {\n    std::uint64_t decisions = 0;\n    const char* end_reason = \"\";  // or \"decision limit\", \"engine error\"\n"
        << "    std::string error;  // the engine error's message\n    std::uint32_t winners = 0;  // bit p: seat p wins\n};\n\n";
    out << "inline constexpr int min_players = " << rs_.min_players << ", max_players = " << g_.players() << ";\n\n";
    out << "// One game with the engine's random agents (engine::play_game, the simulator), or with every\n"
        << "// seat taking the first legal option; with check, the invariants after every decision and at\n"
        << "// the end (s.broken_*); with count_fires, how often each rule fired (s.fires, per IR rule).\n"
        << "inline outcome play(game_state& s, int players, std::uint64_t seed, std::uint64_t agent_seed, std::uint64_t max_decisions,\n"
        << "                    bool check = false, bool first_agent = false, bool count_fires = false) {\n"
        << "    outcome o;\n    if (players < 1 || players > WP_MAXP) {\n        o.end_reason = \"engine error\";\n"
        << "        o.error = \"this game is for \" + std::to_string(min_players) + \"..\" + std::to_string(max_players) + \" players\";\n"
        << "        return o;\n    }\n"
        << "    s.count_fires = count_fires;\n    set_up(s, players);\n    s.r.s = seed;\n    s.ar.s = agent_seed;\n    s.max_decisions = max_decisions;\n"
        << "    s.check_invariants = check;\n    s.first_agent = first_agent;\n"
        << "    try {\n        play_sequence(s);\n        if (!s.done) finish(s, \"sequence finished\");\n"
        << "        if (check) check_invariants(s);\n"
        << "        o.decisions = s.decisions;\n        if (s.limit) {\n            o.end_reason = \"decision limit\";\n            return o;\n        }\n"
        << "        o.end_reason = s.end_reason;\n";
    if (g_.wins_decision != ir::no_id)
        out << "        for (int p = 0; p < s.np; ++p)\n            if ((next_step(s), dec" << g_.wins_decision << "(s, \"?\", p)) != 0) o.winners |= 1u << p;\n";
    out << "    } catch (const engine_error& e) {\n        o.decisions = s.decisions;\n        o.end_reason = \"engine error\";\n"
        << "        o.error = e.what();\n    }\n    return o;\n}\n\n}  // namespace " << o_.name_space << "\n";
    return out.str();
}

}  // namespace

std::string translate(const ir::ruleset& rs, const translate_options& options) {
    const int players = static_cast<int>(rs.max_players > 0 ? std::min<std::int64_t>(rs.max_players, 32) : 8);
    const engine::game g(rs, players, options.options);
    return writer(g.ruleset(), g, options).run();
}

}  // namespace wp::codegen
