// value_cycles(): the call graph of predicates, quantities, decisions and rolls, searched for
// cycles without recursion (a generated IR may chain thousands of definitions).
#include "ir_cycles.hpp"

#include <algorithm>
#include <set>

namespace wp::ir {

namespace {

struct edge {
    std::size_t to;
    id call;
};

}  // namespace

std::string describe(const ruleset& rs, value_def d) {
    switch (d.k) {
        case value_def::kind::quantity: {
            const derived& q = rs.quantities[d.index];
            return std::string(q.predicate ? "predicate `" : "quantity `") + q.name + "`";
        }
        case value_def::kind::decision: return "decision `" + rs.decisions[d.index].name + "`";
        case value_def::kind::roll: return "roll `" + rs.rolls[d.index].name + "`";
    }
    return "?";
}

std::vector<std::vector<value_call>> value_cycles(const ruleset& rs) {
    const std::size_t nq = rs.quantities.size(), nd = rs.decisions.size(), nr = rs.rolls.size();
    const std::size_t n = nq + nd + nr;
    auto def_of = [&](std::size_t v) {
        if (v < nq) return value_def{value_def::kind::quantity, static_cast<id>(v)};
        if (v < nq + nd) return value_def{value_def::kind::decision, static_cast<id>(v - nq)};
        return value_def{value_def::kind::roll, static_cast<id>(v - nq - nd)};
    };

    // The calls made while evaluating each definition: its own tree and the trees of the
    // modifiers and definitions aimed at it (their guards included).
    std::vector<std::vector<id>> roots(n);
    for (std::size_t i = 0; i < nq; ++i) roots[i].push_back(rs.quantities[i].expr);
    for (std::size_t i = 0; i < nr; ++i) roots[nq + nd + i].push_back(rs.rolls[i].expr);
    for (const rule& r : rs.rules) {
        if (r.kind != rule_kind::modifier && r.kind != rule_kind::define) continue;
        std::size_t v = n;
        if (r.target == target_kind::quantity && r.target_id < nq) v = r.target_id;
        if (r.target == target_kind::decision && r.target_id < nd) v = nq + r.target_id;
        if (r.target == target_kind::roll && r.target_id < nr) v = nq + nd + r.target_id;
        if (v == n) continue;
        for (id t : {r.amount, r.value, r.guard}) roots[v].push_back(t);
    }
    std::vector<std::vector<edge>> calls(n);
    std::vector<std::size_t> seen(rs.nodes.size(), 0);  // the definition (+1) that last walked a node
    std::vector<id> work;
    for (std::size_t v = 0; v < n; ++v) {
        for (id root : roots[v]) {
            if (root < rs.nodes.size()) work.push_back(root);
            while (!work.empty()) {
                const id x = work.back();
                work.pop_back();
                if (seen[x] == v + 1) continue;
                seen[x] = v + 1;
                const node& nx = rs.nodes[x];
                std::size_t to = n;
                if (nx.code == op::quantity && nx.ref < nq) to = nx.ref;
                if (nx.code == op::decide && nx.ref < nd) to = nq + nx.ref;
                if (nx.code == op::roll && nx.ref < nr) to = nq + nd + nx.ref;
                // a map search evaluates the predicate it names at each step
                if (nx.code == op::builtin && nx.ref <= static_cast<id>(last_builtin) && is_map_search(static_cast<builtin>(nx.ref)) &&
                    nx.value >= 0 && static_cast<std::uint64_t>(nx.value) < nq)
                    to = static_cast<std::size_t>(nx.value);
                if (to != n) calls[v].push_back({to, x});
                if (nx.first_child > rs.children.size() || nx.child_count > rs.children.size() - nx.first_child)
                    continue;
                for (std::uint32_t c = 0; c < nx.child_count; ++c) {
                    const id child = rs.children[nx.first_child + c];
                    if (child < rs.nodes.size()) work.push_back(child);
                }
            }
        }
    }

    // Depth-first search with an explicit stack; a call to a definition on the stack closes a cycle.
    std::vector<std::vector<value_call>> cycles;
    std::set<std::set<std::size_t>> reported;
    std::vector<int> state(n, 0);  // 0 new, 1 on the stack, 2 done
    struct frame {
        std::size_t v;
        std::size_t next = 0;  // the next call to follow; the one being followed is next - 1
    };
    std::vector<frame> stack;
    for (std::size_t start = 0; start < n; ++start) {
        if (state[start] != 0) continue;
        stack.push_back({start});
        state[start] = 1;
        while (!stack.empty()) {
            frame& f = stack.back();
            if (f.next == calls[f.v].size()) {
                state[f.v] = 2;
                stack.pop_back();
                continue;
            }
            const edge e = calls[f.v][f.next++];
            if (state[e.to] == 0) {
                state[e.to] = 1;
                stack.push_back({e.to});
            } else if (state[e.to] == 1) {
                std::size_t k = stack.size();
                while (k > 0 && stack[k - 1].v != e.to) --k;
                std::vector<value_call> cycle;
                std::set<std::size_t> members;
                for (std::size_t i = k - 1; i < stack.size(); ++i) {
                    const edge& taken = calls[stack[i].v][stack[i].next - 1];
                    cycle.push_back({def_of(stack[i].v), def_of(taken.to), taken.call});
                    members.insert(stack[i].v);
                }
                if (reported.insert(members).second) cycles.push_back(std::move(cycle));
            }
        }
    }
    return cycles;
}

}  // namespace wp::ir
