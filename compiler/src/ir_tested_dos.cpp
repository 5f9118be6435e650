#include "ir_tested_dos.hpp"

namespace wp::ir {

namespace {

// Child i of node n, or no_id when n has no such child.
id child_at(const ruleset& rs, id n, std::uint32_t i) {
    const node& nd = rs.nodes[n];
    if (i >= nd.child_count || nd.first_child + i >= rs.children.size()) return no_id;
    const id c = rs.children[nd.first_child + i];
    return c < rs.nodes.size() ? c : no_id;
}

// The `do` a body starts with (through nested sequences), or none.
id first_do(const ruleset& rs, id body) {
    for (std::size_t depth = 0; body != no_id && rs.nodes[body].code == op::seq && depth < rs.nodes.size(); ++depth)
        body = child_at(rs, body, 0);
    return body != no_id && rs.nodes[body].code == op::do_action ? body : no_id;
}

}  // namespace

id chance_in(const ruleset& rs, id n, bool through_quantities) {
    if (n >= rs.nodes.size()) return no_id;
    std::vector<id> todo{n};
    std::vector<bool> entered(through_quantities ? rs.quantities.size() : 0, false);
    while (!todo.empty() && todo.size() <= rs.nodes.size()) {
        const id x = todo.back();
        todo.pop_back();
        const node& nd = rs.nodes[x];
        if (nd.code == op::roll || nd.code == op::dice || nd.code == op::dice_count) return x;
        if (through_quantities && nd.code == op::quantity && nd.ref < entered.size() && !entered[nd.ref]) {
            entered[nd.ref] = true;
            if (const id e = rs.quantities[nd.ref].expr; e < rs.nodes.size()) todo.push_back(e);
        }
        for (std::uint32_t i = nd.child_count; i-- > 0;)
            if (const id c = child_at(rs, x, i); c != no_id) todo.push_back(c);
    }
    return no_id;
}

std::vector<tested_do_dice> dice_in_tested_dos(const ruleset& rs) {
    std::vector<tested_do_dice> out;
    for (id n = 0; n < rs.nodes.size(); ++n) {
        const op code = rs.nodes[n].code;
        if (code != op::may && code != op::choose_one) continue;
        const id act = first_do(rs, child_at(rs, n, code == op::may ? 1 : 3));
        if (act == no_id) continue;
        for (std::uint32_t i = 0; i < rs.nodes[act].child_count; ++i) {
            const id arg = child_at(rs, act, i);
            if (const id d = arg == no_id ? no_id : chance_in(rs, arg); d != no_id) {
                out.push_back({n, act, d});
                break;
            }
        }
    }
    return out;
}

}  // namespace wp::ir
