// The interpreter (interp.hpp): maps. Neighbours and hexsides (as sets), adjacency, distance,
// terrain, edge kinds, path_exists and path_length (breadth-first) and line_blocked (line of sight on a hex
// grid). A location's attributes are read in expressions.cpp.
#include "interp.hpp"

#include <cstdlib>

namespace wp::engine {

// Whether edge e leads from a to b: a hexside or an undirected edge either way, a one-way
// edge from its first area only.
bool interp::joins(const ir::map& m, const ir::map_edge& e, std::int64_t a, std::int64_t b) {
    if (static_cast<std::int64_t>(e.a) == a && static_cast<std::int64_t>(e.b) == b) return true;
    return (m.kind == ir::map_kind::hexgrid || !e.directed) && static_cast<std::int64_t>(e.a) == b &&
           static_cast<std::int64_t>(e.b) == a;
}

// A set of locations or features on scratch (from push_set, whose elements begin at `start`):
// the neighbours of a location, or the features of the hexsides between two.
void interp::map_set(id n, std::uint32_t fb, std::size_t start) {
    const auto b = static_cast<ir::builtin>(N(n).ref);
    if (b == ir::builtin::neighbours) {
        const std::int64_t v = eval(child(n, 0), fb);
        const ir::type& t = rs.types[rs.nodes[child(n, 0)].type];
        if (v < 0) fail(n, "neighbours of no location (" + g.statement_owner(n) + ")");
        for (id x : rs.maps.at(t.ref).nodes.at(static_cast<std::size_t>(v)).neighbours) s.scratch_.push_back(x);
        return;
    }
    if (b == ir::builtin::hexside) {
        // The features of the hexsides (edges) between a and b; none when not adjacent.
        const std::int64_t a = eval(child(n, 0), fb);
        const std::int64_t c = eval(child(n, 1), fb);
        if (a < 0 || c < 0) return;
        const id mi = rs.types[rs.nodes[child(n, 0)].type].ref;
        const ir::map& m = rs.maps.at(mi);
        for (std::uint32_t ei : g.node_edges.at(mi).at(static_cast<std::size_t>(a))) {
            const ir::map_edge& e = m.edges[ei];
            if (joins(m, e, a, c))
                for (std::int64_t k : e.kinds)
                    if (std::find(s.scratch_.begin() + static_cast<std::ptrdiff_t>(start), s.scratch_.end(), k) ==
                        s.scratch_.end())
                        s.scratch_.push_back(k);
        }
    }
}

// The map builtins that give one value (builtin() sends them here).
std::int64_t interp::map_builtin(id n, std::uint32_t fb) {
    const auto b = static_cast<ir::builtin>(N(n).ref);
    switch (b) {
        case ir::builtin::adjacent: {
            const std::int64_t a = eval(child(n, 0), fb);
            const std::int64_t c = eval(child(n, 1), fb);
            const ir::type& t = rs.types[N(child(n, 0)).type];
            if (a < 0 || c < 0) return 0;
            const auto& nb = rs.maps.at(t.ref).nodes.at(static_cast<std::size_t>(a)).neighbours;
            return std::find(nb.begin(), nb.end(), static_cast<id>(c)) != nb.end();
        }
        case ir::builtin::distance: {
            const std::int64_t a = eval(child(n, 0), fb);
            const std::int64_t c = eval(child(n, 1), fb);
            if (a < 0 || c < 0) fail(n, "distance to no location");
            return distance(n, rs.maps.at(rs.types[N(child(n, 0)).type].ref), a, c);
        }
        case ir::builtin::terrain: {
            const std::int64_t v = eval(child(n, 0), fb);
            const ir::type& t = rs.types[N(child(n, 0)).type];
            if (v < 0) fail(n, "terrain of no location");
            return rs.maps.at(t.ref).nodes.at(static_cast<std::size_t>(v)).terrain;
        }
        case ir::builtin::edge_kind: {
            const std::int64_t a = eval(child(n, 0), fb);
            const std::int64_t c = eval(child(n, 1), fb);
            if (a < 0 || c < 0) fail(n, "edge to or from no location");
            const id mi = rs.types[N(child(n, 0)).type].ref;
            const ir::map& m = rs.maps.at(mi);
            for (std::uint32_t ei : g.node_edges.at(mi).at(static_cast<std::size_t>(a))) {
                const ir::map_edge& e = m.edges[ei];
                if (joins(m, e, a, c) && !e.kinds.empty()) return e.kinds.front();
            }
            fail(n, "no edge of a known kind from " + m.nodes.at(static_cast<std::size_t>(a)).name + " to " +
                        m.nodes.at(static_cast<std::size_t>(c)).name);
        }
        case ir::builtin::path_exists: return path_search(n, fb, false);
        case ir::builtin::path_length: return path_search(n, fb, true);
        case ir::builtin::line_blocked: return line_blocked(n, fb);
        default: break;
    }
    fail(n, std::string("built-in ") + ir::name_of(b) + " is not a map function");
}

// path_exists(a, b, pred): a path of adjacent locations from a to b whose every location
// after a (b included) satisfies pred(h), or whose every step satisfies pred(from, to).
// From a to a itself: true. path_length (length): the number of steps of the shortest such
// path, breadth first (a location is first queued at its least number of steps); no path is
// an error. The predicate's extra arguments (children after a and b) are evaluated once,
// before the search, and follow the locations in each call.
std::int64_t interp::path_search(id n, std::uint32_t fb, bool length) {
    const std::int64_t a = eval(child(n, 0), fb);
    const std::int64_t b = eval(child(n, 1), fb);
    std::int64_t args[16];
    const auto pred = static_cast<id>(N(n).value);
    const std::uint32_t extra = N(n).child_count - 2;
    const bool steps = rs.quantities[pred].param_count == 2 + extra;
    const std::size_t places = steps ? 2 : 1;
    if (places + extra > 16) fail(n, "too many arguments");
    for (std::uint32_t i = 0; i < extra; ++i) args[places + i] = eval(child(n, 2 + i), fb);
    const ir::map& m = rs.maps.at(rs.types[N(child(n, 0)).type].ref);
    if (a < 0 || b < 0) {
        if (length) fail(n, "a path to or from no location (" + g.statement_owner(n) + ")");
        return 0;
    }
    if (a == b) return length ? 0 : 1;
    std::vector<std::uint8_t> seen(m.nodes.size(), 0);  // 1 queued, 2 refused by pred(h)
    std::vector<id> queue{static_cast<id>(a)};
    std::vector<std::uint32_t> depth;  // path_length: the steps to each queued location
    if (length) depth.push_back(0);
    seen[static_cast<std::size_t>(a)] = 1;
    for (std::size_t i = 0; i < queue.size(); ++i)
        for (id nb : m.nodes[queue[i]].neighbours) {
            if (seen[nb]) continue;
            if (steps) args[0] = static_cast<std::int64_t>(queue[i]);
            args[places - 1] = static_cast<std::int64_t>(nb);
            if (!call_quantity(pred, args, places + extra)) {
                if (!steps) seen[nb] = 2;  // a step refused from here may be taken from elsewhere
                continue;
            }
            if (static_cast<std::int64_t>(nb) == b) return length ? static_cast<std::int64_t>(depth[i]) + 1 : 1;
            seen[nb] = 1;
            queue.push_back(nb);
            if (length) depth.push_back(depth[i] + 1);
        }
    if (length)
        fail(n, "no path from " + m.nodes[static_cast<std::size_t>(a)].name + " to " + m.nodes[static_cast<std::size_t>(b)].name +
                    " (" + g.statement_owner(n) + "): test path_exists first");
    return 0;
}

// line_blocked(a, b, pred) on a hex grid: the straight line from the centre of a to the
// centre of b (ir::line_steps). Where it crosses a hex's interior, it is blocked when pred
// holds for that hex; where it runs along a hexside, only when pred holds for both hexes
// beside it. a and b never block, nor does a point off the map.
std::int64_t interp::line_blocked(id n, std::uint32_t fb) {
    const std::int64_t a = eval(child(n, 0), fb);
    const std::int64_t b = eval(child(n, 1), fb);
    if (a < 0 || b < 0) fail(n, "a line to or from no location");
    const ir::map& m = rs.maps.at(rs.types[N(child(n, 0)).type].ref);
    const auto pred = static_cast<id>(N(n).value);
    const std::uint32_t extra = N(n).child_count - 2;
    const bool three = rs.quantities[pred].param_count == 3 + extra;
    const std::size_t places = three ? 3 : 1;
    std::int64_t args[16] = {0, a, b};
    if (places + extra > 16) fail(n, "too many arguments");
    for (std::uint32_t i = 0; i < extra; ++i) args[places + i] = eval(child(n, 2 + i), fb);
    auto blocks = [&](std::int64_t h) -> bool {
        if (h < 0 || h == a || h == b) return false;
        args[0] = h;
        return call_quantity(pred, args, places + extra) != 0;
    };
    for (const ir::line_step& st : ir::line_steps(m, a, b)) {
        if (st.second == ir::line_step::no_step) {
            if (blocks(st.first)) return 1;
        } else if (blocks(st.first) && blocks(st.second)) {
            return 1;
        }
    }
    return 0;
}

std::int64_t interp::distance(id n, const ir::map& m, std::int64_t a, std::int64_t b) const {
    const std::int64_t d = ir::map_distance(m, a, b);
    if (d < 0)
        fail(n, "no path from " + m.nodes[static_cast<std::size_t>(a)].name + " to " +
                    m.nodes[static_cast<std::size_t>(b)].name);
    return d;
}

}  // namespace wp::engine
