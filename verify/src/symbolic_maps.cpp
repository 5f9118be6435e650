// The symbolic encoding of map data: hexside kinds, distances, and the map searches
// (path_exists, line_blocked, reach) over fixed data, with the lemmas that refine them.
#include "symbolic.hpp"

#include "terms.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace wp::verify::detail {

namespace {

// While a map search evaluates its predicate at every location, the rules and tables that reads
// are not recorded as used (play visits only some locations); recording resumes on leaving.
struct recording_paused {
    symbolic& s;
    decltype(symbolic::on_rule) rule;
    decltype(symbolic::on_table) table;
    explicit recording_paused(symbolic& x) : s(x), rule(std::move(x.on_rule)), table(std::move(x.on_table)) {
        s.on_rule = nullptr;
        s.on_table = nullptr;
    }
    recording_paused(const recording_paused&) = delete;
    recording_paused& operator=(const recording_paused&) = delete;
    ~recording_paused() {
        s.on_rule = std::move(rule);
        s.on_table = std::move(table);
    }
};

// The predicate a path search reads, by its terms' ids (with the map and its form): searches
// over one store with the same predicate and arguments share them.
std::vector<unsigned> predicate_key(const map_search& s) {
    std::vector<unsigned> ids{static_cast<unsigned>(s.map), s.steps ? 1u : 0u};
    for (const z3::expr& x : s.steps ? s.step : s.at) ids.push_back(x.id());
    return ids;
}

}  // namespace

using ir::op;

// ---------------------------------------------------------------- map data

const std::vector<std::pair<std::int64_t, std::int64_t>>& symbolic::edges_bearing(id map, std::int64_t kind) {
    const auto key = std::make_pair(map, kind);
    if (auto it = edges_bearing_.find(key); it != edges_bearing_.end()) return it->second;
    const ir::map& m = rs.maps.at(map);
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (const ir::map_edge& ed : m.edges) {
        if (std::find(ed.kinds.begin(), ed.kinds.end(), kind) == ed.kinds.end()) continue;
        const auto a = static_cast<std::int64_t>(ed.a), b = static_cast<std::int64_t>(ed.b);
        if (seen.insert({a, b}).second) out.push_back({a, b});
        if ((m.kind == ir::map_kind::hexgrid || !ed.directed) && seen.insert({b, a}).second) out.push_back({b, a});
    }
    return edges_bearing_.emplace(key, std::move(out)).first->second;
}

z3::expr symbolic::edge_has(id map, std::int64_t kind, const z3::expr& x, const z3::expr& y) {
    const auto kx = terms::number(x), ky = terms::number(y);
    z3::expr_vector any(ctx);
    for (const auto& [a, b] : edges_bearing(map, kind)) {
        if ((kx && *kx != a) || (ky && *ky != b)) continue;
        if (kx && ky) return ctx.bool_val(true);
        any.push_back(kx ? y == num(b) : ky ? x == num(a) : x == num(a) && y == num(b));
    }
    return any.empty() ? ctx.bool_val(false) : z3::mk_or(any);
}

z3::expr symbolic::edge_kind_at(id map, const z3::expr& x, const z3::expr& y) {
    const ir::map& m = rs.maps.at(map);
    const auto kx = terms::number(x), ky = terms::number(y);
    // the first edge from x to y is read: built from the last, so the first is outermost
    z3::expr acc = num(-1);
    for (std::size_t i = m.edges.size(); i-- > 0;) {
        const ir::map_edge& ed = m.edges[i];
        if (ed.kinds.empty()) continue;
        const auto a = static_cast<std::int64_t>(ed.a), b = static_cast<std::int64_t>(ed.b);
        const z3::expr v = num(ed.kinds.front());
        auto at = [&](std::int64_t p, std::int64_t q) -> std::optional<z3::expr> {
            if ((kx && *kx != p) || (ky && *ky != q)) return std::nullopt;
            if (kx && ky) return ctx.bool_val(true);
            return kx ? y == num(q) : ky ? x == num(p) : x == num(p) && y == num(q);
        };
        // of one edge, its own direction a to b is read before the reverse b to a
        if (m.kind == ir::map_kind::hexgrid || !ed.directed)
            if (const auto c = at(b, a)) acc = c->is_true() ? v : z3::ite(*c, v, acc);
        if (const auto c = at(a, b)) acc = c->is_true() ? v : z3::ite(*c, v, acc);
    }
    return acc;
}

z3::expr symbolic::node_lookup(const std::vector<std::int64_t>& values, const z3::expr& node, std::int64_t otherwise) {
    if (const auto k = terms::number(node))
        return num(*k >= 0 && static_cast<std::size_t>(*k) < values.size() ? values[static_cast<std::size_t>(*k)] : otherwise);
    // grouped by value: one `ite` per distinct value, on the nodes that have it
    std::map<std::int64_t, z3::expr_vector> by_value;
    for (std::size_t i = 0; i < values.size(); ++i)
        by_value.try_emplace(values[i], ctx).first->second.push_back(node == num(static_cast<std::int64_t>(i)));
    z3::expr acc = num(otherwise);
    for (auto& [v, where] : by_value) acc = z3::ite(z3::mk_or(where), num(v), acc);
    return acc;
}

std::int64_t symbolic::hex_x(const ir::map_node& h) { return h.col; }
std::int64_t symbolic::hex_z(const ir::map_node& h) { return h.row - (h.col + (h.col & 1)) / 2; }

z3::expr symbolic::cube_coordinate(id map, int axis, const z3::expr& node) {
    const ir::map& m = rs.maps.at(map);
    std::vector<std::int64_t> values;
    for (const ir::map_node& h : m.nodes) values.push_back(axis == 0 ? hex_x(h) : hex_z(h));
    return node_lookup(values, node, 0);
}

z3::expr symbolic::distance_table(id map) {
    if (auto it = distance_tables_.find(map); it != distance_tables_.end()) return it->second;
    const ir::map& m = rs.maps.at(map);
    const auto n = static_cast<std::int64_t>(m.nodes.size());
    z3::expr table = z3::const_array(ctx.int_sort(), num(-1));
    for (std::int64_t a = 0; a < n; ++a)
        for (std::int64_t b = 0; b < n; ++b) table = z3::store(table, num(a * n + b), num(ir::map_distance(m, a, b)));
    distance_tables_.emplace(map, table);
    return table;
}

std::optional<z3::expr> symbolic::path_length_exact(id n, const z3::expr& a, const z3::expr& b, const std::vector<z3::expr>& extra,
                                                    const store& st, bool& gaps) {
    gaps = false;
    const ir::node& nd = N(n);
    const id map = rs.types.at(N(child(n, 0)).type).ref;
    const ir::map& m = rs.maps.at(map);
    const ir::derived& pred = rs.quantities.at(static_cast<id>(nd.value));
    const auto nodes = static_cast<std::int64_t>(m.nodes.size());
    const auto ka = terms::number(a), kb = terms::number(b);
    const bool known = ka && kb && *ka >= 0 && *kb >= 0 && *ka < nodes && *kb < nodes;
    if (known && *ka == *kb) return num(0);
    if (!known && nodes > max_distance_matrix) return std::nullopt;
    // (arguments that are not constants leave the predicate's values open: nothing is fixed)
    const bool steps = pred.param_count == 2 + extra.size();
    // the predicate as play evaluates it, with no rule or table recorded as used (as a search)
    const std::size_t side_before = side.size();
    const recording_paused paused{*this};
    bool fixed = true;
    auto passes = [&](std::int64_t from, std::int64_t to) {
        env pe;
        std::vector<z3::expr> args;
        if (steps) args.push_back(num(from));
        args.push_back(num(to));
        for (const z3::expr& x : extra) args.push_back(x);
        pe.locals.resize(std::max<std::size_t>(pred.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size(); ++i) pe.locals[i] = args[i];
        context_.push_back("predicate " + pred.name);
        const z3::expr v = boolean(pred.expr, pe, st).simplify();
        context_.pop_back();
        const auto t = terms::truth(v);
        if (!t) fixed = false;
        return t.value_or(false);
    };
    // The engine's breadth-first search (interp::path_search) from `from`, its tests read by
    // `ok(from, k)` (the k-th neighbour); the steps to each location, -1 where none leads.
    auto search = [&](std::size_t from, const auto& ok, std::int64_t until) {
        std::vector<std::int64_t> depth(m.nodes.size(), -1);
        std::vector<std::uint8_t> refused(m.nodes.size(), 0);
        std::vector<std::size_t> queue{from};
        depth[from] = 0;
        for (std::size_t i = 0; i < queue.size() && fixed; ++i)
            for (std::size_t k = 0; k < m.nodes[queue[i]].neighbours.size(); ++k) {
                const id nb = m.nodes[queue[i]].neighbours[k];
                if (depth[nb] >= 0 || refused[nb]) continue;
                if (!ok(queue[i], k)) {
                    if (!fixed) return depth;
                    if (!steps) refused[nb] = 1;
                    continue;
                }
                depth[nb] = depth[queue[i]] + 1;
                if (static_cast<std::int64_t>(nb) == until) return depth;
                queue.push_back(nb);
            }
        return depth;
    };
    std::optional<z3::expr> result;
    if (known) {
        // the tests where the search reaches, stopped at the first that is not fixed
        const auto depth = search(static_cast<std::size_t>(*ka),
                                  [&](std::size_t x, std::size_t k) {
                                      return passes(static_cast<std::int64_t>(x), m.nodes[x].neighbours[k]);
                                  },
                                  *kb);
        gaps = depth[static_cast<std::size_t>(*kb)] < 0;
        result = num(depth[static_cast<std::size_t>(*kb)]);
    } else {
        // every test, then the table of every pair's length (made once for these tests)
        std::vector<std::int64_t> key{static_cast<std::int64_t>(map), steps ? 1 : 0};
        std::vector<std::uint32_t> first;
        for (std::int64_t h = 0; h < nodes && fixed; ++h) {
            first.push_back(static_cast<std::uint32_t>(key.size() - 2));
            const auto& nbs = m.nodes[static_cast<std::size_t>(h)].neighbours;
            if (!steps) { key.push_back(passes(h, h) ? 1 : 0); continue; }
            for (id nb : nbs) key.push_back(passes(h, nb) ? 1 : 0);
        }
        if (fixed) {
            auto it = path_tables_.find(key);
            if (it == path_tables_.end()) {
                auto ok = [&](std::size_t x, std::size_t k) {
                    return key[2 + (steps ? first[x] + k : m.nodes[x].neighbours[k])] != 0;
                };
                z3::expr table = z3::const_array(ctx.int_sort(), num(-1));
                bool holes = false;
                for (std::int64_t x = 0; x < nodes; ++x) {
                    const auto depth = search(static_cast<std::size_t>(x), ok, -1);
                    for (std::int64_t y = 0; y < nodes; ++y) {
                        if (depth[static_cast<std::size_t>(y)] < 0) holes = true;
                        else table = z3::store(table, num(x * nodes + y), num(depth[static_cast<std::size_t>(y)]));
                    }
                }
                it = path_tables_.emplace(key, std::make_pair(table, holes)).first;
            }
            gaps = it->second.second;
            result = z3::select(it->second.first, a * num(nodes) + b);
        }
    }
    const bool clean = side.size() == side_before;
    side.erase(side.begin() + static_cast<std::ptrdiff_t>(side_before), side.end());
    if (!fixed || !clean) return std::nullopt;
    return result;
}

z3::expr symbolic::map_search_value(id n, const z3::expr& a, const z3::expr& b, const std::vector<z3::expr>& extra, const store& st) {
    const ir::node& nd = N(n);
    const bool line = static_cast<ir::builtin>(nd.ref) == ir::builtin::line_blocked;
    const id map = rs.types.at(N(child(n, 0)).type).ref;
    const ir::map& m = rs.maps.at(map);
    const ir::derived& pred = rs.quantities.at(static_cast<id>(nd.value));
    // the number of location parameters: the predicate's own arguments follow them
    const std::size_t places = pred.param_count - extra.size();
    const std::string what = std::string(line ? "line_blocked" : "path_exists") + "(…, " + pred.name + (extra.empty() ? "" : "(_, …)") + ")";
    // The predicate at one location (or step), encoded as play would evaluate it there. Its
    // rules and tables are not recorded as used here (play visits only some locations); an
    // encoding that needs side constraints (a cell that must exist) is left as any value.
    const std::size_t side_before = side.size();
    const recording_paused paused{*this};
    auto call = [&](std::vector<z3::expr> args) {
        for (const z3::expr& x : extra) args.push_back(x);
        env pe;
        pe.locals.resize(std::max<std::size_t>(pred.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < pe.locals.size(); ++i) pe.locals[i] = args[i];
        context_.push_back("predicate " + pred.name);
        z3::expr v = boolean(pred.expr, pe, st);
        context_.pop_back();
        return v;
    };
    const auto nodes = static_cast<std::int64_t>(m.nodes.size());
    const auto ka = terms::number(a), kb = terms::number(b);
    auto known = [&](const std::optional<std::int64_t>& k) { return k && *k >= 0 && *k < nodes; };
    std::size_t count = 0;  // steps
    map_search s(ctx);
    s.line = line;
    s.map = map;
    s.a = a;
    s.b = b;
    if (line && places == 3 && !(known(ka) && known(kb)) &&
        line_predicate_cost(static_cast<id>(nd.value), static_cast<std::uint64_t>(nodes)) > 1) {
        // encoded anew at every hex for each line: past the unfolding budget, any value
        const std::uint64_t body = std::max<std::uint64_t>(1, unfold_cost(pred.expr));
        approximations.insert("`" + what + "` over the line's ends (" + std::to_string(nodes) + " × " + std::to_string(body) +
                              "): any value (--unfold-limit " + std::to_string(unfold_limit) + ")");
        z3::expr v = fresh("opaque", nd.type, what, variable::show::value, 0);
        side.push_back(in_type(v, nd.type));
        return bool_of(v);
    }
    if (line) {
        const bool three = places == 3;
        // a line between two known hexes: its steps are known, the answer is a formula
        if (known(ka) && known(kb)) {
            auto blocks = [&](std::int64_t h) {
                if (h < 0 || h == *ka || h == *kb) return ctx.bool_val(false);
                return three ? call({num(h), a, b}) : call({num(h)});
            };
            z3::expr_vector any(ctx);
            for (const ir::line_step& stp : ir::line_steps(m, *ka, *kb))
                any.push_back(stp.second == ir::line_step::no_step ? blocks(stp.first) : blocks(stp.first) && blocks(stp.second));
            if (side.size() == side_before) return any.empty() ? ctx.bool_val(false) : z3::mk_or(any);
        } else if (three) {
            for (std::int64_t h = 0; h < nodes; ++h)
                s.at.push_back(terms::ne(a, num(h)) && terms::ne(b, num(h)) && call({num(h), a, b}));
        }
    } else {
        s.steps = places == 2;
        for (std::int64_t h = 0; h < nodes && s.steps; ++h) {
            s.step_first.push_back(static_cast<std::uint32_t>(count));
            count += m.nodes[static_cast<std::size_t>(h)].neighbours.size();
        }
    }
    if (!line || places == 1) {
        // the predicate reads only its locations (and its own arguments): the same terms for
        // every search on this store with the same predicate and arguments
        std::vector<unsigned> ids;
        ids.reserve(st.values.size() + st.loc.size());
        for (const z3::expr& x : st.values) ids.push_back(x.id());
        for (const z3::expr& x : st.loc) ids.push_back(x.id());
        if (ids != search_places_store_) {
            search_places_.clear();
            search_places_store_ = std::move(ids);
        }
        std::vector<unsigned> key{static_cast<unsigned>(nd.value)};
        for (const z3::expr& x : extra) key.push_back(x.id());
        auto it = search_places_.find(key);
        if (it == search_places_.end()) {
            place_values pv;
            pv.keep = extra;  // the arguments' ids stay theirs while the entry lives
            for (std::int64_t h = 0; h < nodes; ++h) {
                if (!s.steps) { pv.values.push_back(call({num(h)})); continue; }
                for (id nb : m.nodes[static_cast<std::size_t>(h)].neighbours) pv.values.push_back(call({num(h), num(nb)}));
            }
            pv.exact = side.size() == side_before;
            it = search_places_.emplace(std::move(key), std::move(pv)).first;
        }
        if (!it->second.exact) side.push_back(ctx.bool_val(true));  // falls back below
        for (std::size_t i = 0; i < it->second.values.size(); ++i) {
            const z3::expr& v = it->second.values[i];
            if (s.steps) s.step.push_back(v);
            else if (line) s.at.push_back(terms::ne(a, num(static_cast<std::int64_t>(i))) && terms::ne(b, num(static_cast<std::int64_t>(i))) && v);
            else s.at.push_back(v);
        }
    }
    if (side.size() != side_before) {
        side.erase(side.begin() + static_cast<std::ptrdiff_t>(side_before), side.end());
        approximations.insert("`" + what + "` whose predicate needs conditions of its own (a table cell, a decision's rules)");
        z3::expr v = fresh("opaque", nd.type, what, variable::show::value, 0);
        side.push_back(in_type(v, nd.type));
        return bool_of(v);
    }
    s.var = fresh("search", nd.type, what, variable::show::boolean, 0);
    side.push_back(in_type(s.var, nd.type));
    const z3::expr result = bool_of(s.var);
    // What holds whatever the route: these tie the answer to every location it may read.
    z3::expr_vector some(ctx);
    for (const z3::expr& x : s.at) some.push_back(x);
    for (const z3::expr& x : s.step) some.push_back(x);
    const z3::expr any_passes = some.empty() ? ctx.bool_val(false) : z3::mk_or(some);
    if (line) {
        side.push_back(z3::implies(result, any_passes));  // blocked: some hex on it blocks
    } else {
        const z3::expr nowhere = a < 0 || b < 0;
        side.push_back(z3::implies(nowhere, !result));
        side.push_back(z3::implies(!nowhere && a == b, result));
        side.push_back(z3::implies(result && a != b, any_passes));  // b itself passes, or a step to it
    }
    searches.push_back(std::move(s));
    return result;
}

// The least set of places that holds the start and every place a passing step from one of them
// leads to: closed (a place reached passes its steps on), and each place but the start reached
// only through a passing step from a place of lower rank, so that no ring of places holds
// itself up. The engine's breadth-first search visits exactly these. Where the solver had to
// learn them model by model (symbolic::refine), a choice of one of 80 targets from a chosen
// start took Cuius Regio's muster 160 rounds and ran out of them (docs/performance.md,
// nineteenth session).
const symbolic::reach_encoding* symbolic::reached_from(const map_search& s) {
    const ir::map& m = rs.maps.at(s.map);
    const std::size_t nodes = m.nodes.size();
    std::size_t steps = 0;
    for (const ir::map_node& nd : m.nodes) steps += nd.neighbours.size();
    if (steps > max_exact_search_steps) return nullptr;
    auto passes = [&](std::size_t from, std::size_t k) -> const z3::expr& {
        return s.steps ? s.step[s.step_first[from] + k] : s.at[m.nodes[from].neighbours[k]];
    };
    std::vector<unsigned> key = predicate_key(s);
    key.push_back(s.a.id());
    if (auto it = reach_encodings_.find(key); it != reach_encodings_.end()) return &it->second;
    reach_encoding r{{s.a}, {}, ctx.bool_val(true)};
    for (const z3::expr& x : s.steps ? s.step : s.at) r.keep.push_back(x);
    std::vector<z3::expr> rank;
    const std::string tag = std::to_string(++counter_);
    for (std::size_t x = 0; x < nodes; ++x) {
        r.reached.push_back(ctx.bool_const(("reached#" + tag + "_" + std::to_string(x)).c_str()));
        rank.push_back(ctx.int_const(("rank#" + tag + "_" + std::to_string(x)).c_str()));
    }
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> into(nodes);  // (from, its k-th step)
    for (std::size_t y = 0; y < nodes; ++y)
        for (std::size_t k = 0; k < m.nodes[y].neighbours.size(); ++k) into.at(m.nodes[y].neighbours[k]).push_back({y, k});
    z3::expr_vector cs(ctx);
    for (std::size_t x = 0; x < nodes; ++x) {
        const z3::expr start = terms::eq(s.a, num(static_cast<std::int64_t>(x)));
        if (!start.is_false()) cs.push_back(z3::implies(start, r.reached[x]));
        for (std::size_t k = 0; k < m.nodes[x].neighbours.size(); ++k)
            cs.push_back(z3::implies(r.reached[x] && passes(x, k), r.reached[m.nodes[x].neighbours[k]]));
        z3::expr_vector why(ctx);
        if (!start.is_false()) why.push_back(start);
        for (const auto& [y, k] : into[x]) why.push_back(r.reached[y] && passes(y, k) && rank[y] < rank[x]);
        cs.push_back(z3::implies(r.reached[x], why.empty() ? ctx.bool_val(false) : z3::mk_or(why)));
    }
    r.constraint = z3::mk_and(cs);
    return &reach_encodings_.emplace(std::move(key), std::move(r)).first->second;
}

// That the search's answer is whether its end is among the places reached (r, reached_from).
z3::expr symbolic::reaches(const map_search& s, const reach_encoding& r) {
    const auto kb = terms::number(s.b);
    z3::expr_vector at_b(ctx);
    for (std::size_t x = 0; x < r.reached.size(); ++x)
        if (!kb || *kb == static_cast<std::int64_t>(x)) at_b.push_back(terms::and_(terms::eq(s.b, num(static_cast<std::int64_t>(x))), r.reached[x]));
    const z3::expr somewhere = s.a >= 0 && s.b >= 0;
    return (s.var != 0) == (somewhere && (at_b.empty() ? ctx.bool_val(false) : z3::mk_or(at_b)));
}

std::vector<z3::expr> symbolic::refine(const z3::model& m) {
    std::vector<z3::expr> lemmas;
    auto value = [&](const z3::expr& e) -> std::optional<std::int64_t> {
        const z3::expr v = m.eval(e, true);
        std::int64_t k = 0;
        if (v.is_numeral() && v.is_numeral_i64(k)) return k;
        return std::nullopt;
    };
    auto holds = [&](const z3::expr& e) { return m.eval(e, true).is_true(); };
    // Searches over the same predicate's terms (a choice of one of 80 targets: a search per
    // target, from the same chosen start): what a lemma says of one holds for each of them.
    // Grouped only once a model reads a search wrong (most models read every one right).
    std::map<std::vector<unsigned>, std::vector<std::size_t>> alike;
    auto siblings = [&](const std::vector<unsigned>& pred) -> const std::vector<std::size_t>& {
        if (alike.empty())
            for (std::size_t i = 0; i < searches.size(); ++i)
                if (!searches[i].line && m.has_interp(searches[i].var.decl())) alike[predicate_key(searches[i])].push_back(i);
        return alike.at(pred);
    };
    std::set<std::pair<std::vector<unsigned>, unsigned>> encoded;       // (predicate, start's id): places reached given
    std::set<std::pair<std::vector<unsigned>, std::int64_t>> closed;  // (predicate, start) whose region is said
    for (const map_search& s : searches) {
        if (!m.has_interp(s.var.decl())) continue;  // not in this question
        const bool said = value(s.var).value_or(0) != 0;
        const auto va = value(s.a), vb = value(s.b);
        const ir::map& mp = rs.maps.at(s.map);
        const auto nodes = static_cast<std::int64_t>(mp.nodes.size());
        if (!va || !vb || *va < 0 || *vb < 0 || *va >= nodes || *vb >= nodes) continue;  // fixed statically, or play stops
        const z3::expr here = s.a == ctx.int_val(*va) && s.b == ctx.int_val(*vb);
        const z3::expr result = s.var != 0;
        if (s.line) {
            z3::expr_vector any(ctx);
            bool blocked = false;
            auto blocks = [&](std::int64_t h) { return h < 0 ? ctx.bool_val(false) : s.at[static_cast<std::size_t>(h)]; };
            for (const ir::line_step& stp : ir::line_steps(mp, *va, *vb)) {
                const z3::expr e = stp.second == ir::line_step::no_step ? blocks(stp.first) : blocks(stp.first) && blocks(stp.second);
                blocked = blocked || holds(e);
                any.push_back(e);
            }
            if (blocked != said)
                lemmas.push_back(z3::implies(here, result == (any.empty() ? ctx.bool_val(false) : z3::mk_or(any))));
            continue;
        }
        if (*va == *vb) continue;  // fixed statically
        // The engine's breadth-first search, reading the predicate as the model has it.
        auto passes = [&](std::size_t from, std::size_t k) -> const z3::expr& {
            return s.steps ? s.step[s.step_first[from] + k] : s.at[mp.nodes[from].neighbours[k]];
        };
        std::vector<std::int64_t> came(mp.nodes.size(), -2);  // -2 unseen; else the node before
        std::vector<std::size_t> via(mp.nodes.size(), 0);     // the neighbour index taken
        std::vector<std::size_t> queue{static_cast<std::size_t>(*va)};
        came[queue[0]] = -1;
        bool found = false;
        for (std::size_t i = 0; i < queue.size() && !found; ++i)
            for (std::size_t k = 0; k < mp.nodes[queue[i]].neighbours.size(); ++k) {
                const id nb = mp.nodes[queue[i]].neighbours[k];
                if (came[nb] != -2 || !holds(passes(queue[i], k))) continue;
                came[nb] = static_cast<std::int64_t>(queue[i]);
                via[nb] = k;
                if (static_cast<std::int64_t>(nb) == *vb) { found = true; break; }
                queue.push_back(nb);
            }
        if (found == said) continue;
        const std::vector<unsigned> pred = predicate_key(s);
        if (const reach_encoding* r = reached_from(s)) {
            // On a small map, the places reached from this start, exactly, for every search
            // from it over the same predicate: no more rounds for any of them.
            if (!encoded.insert({pred, s.a.id()}).second) continue;
            lemmas.push_back(r->constraint);
            for (std::size_t j : siblings(pred))
                if (z3::eq(searches[j].a, s.a)) lemmas.push_back(reaches(searches[j], *r));
            continue;
        }
        z3::expr_vector parts(ctx);
        if (found) {  // this route makes a path wherever it passes
            for (auto x = static_cast<std::size_t>(*vb); came[x] >= 0; x = static_cast<std::size_t>(came[x]))
                parts.push_back(passes(static_cast<std::size_t>(came[x]), via[x]));
            lemmas.push_back(z3::implies(here && z3::mk_and(parts), result));
        } else {
            // No path out of the places reached unless one of the ways out of them passes: from
            // any of them (not only a) to any place outside (not only b), for every search over
            // the same predicate. Otherwise the solver's next model moves a or b, or takes the
            // next target's search, and each costs a round (Cuius Regio's muster: 158 rounds,
            // 30 lemmas each, a start at a time).
            for (std::size_t x : queue)
                for (std::size_t k = 0; k < mp.nodes[x].neighbours.size(); ++k)
                    if (came[mp.nodes[x].neighbours[k]] == -2) parts.push_back(passes(x, k));
            const z3::expr out = parts.empty() ? ctx.bool_val(false) : z3::mk_or(parts);
            if (!closed.insert({pred, *va}).second) continue;
            auto in_region = [&](const z3::expr& x) {
                if (const auto k = terms::number(x)) return ctx.bool_val(*k >= 0 && *k < nodes && came[static_cast<std::size_t>(*k)] != -2);
                z3::expr_vector any(ctx);
                for (std::size_t r : queue) any.push_back(x == ctx.int_val(static_cast<std::int64_t>(r)));
                return z3::mk_or(any);
            };
            for (std::size_t j : siblings(pred)) {
                const map_search& t = searches[j];
                const z3::expr from = in_region(t.a), to = in_region(t.b);
                if (from.is_false() || to.is_true()) continue;
                lemmas.push_back(z3::implies(from && !to && t.var != 0, out));
            }
        }
    }
    return lemmas;
}

}  // namespace wp::verify::detail
