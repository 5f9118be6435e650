// Rolls in the arguments of a `do` the engines test (docs/language.md, "Actions"): the first
// statement of a `may`'s body or of a `choose`'s body is tested before it is offered, and the test
// evaluates the action's arguments; doing it evaluates them again. A die rolled there is rolled
// twice, and the action done need not be the one tested (legal at the test, not legal when done:
// the engines stop). The compiler rejects it; a `let` before the `may` rolls once.
#include "context.hpp"

namespace wp::compiler::detail {

namespace {

using ir::op;

// The `do` a body starts with (through nested sequences), or none.
ir::id first_do(const ir::ruleset& rs, ir::id body) {
    while (body != ir::no_id && rs.nodes[body].code == op::seq) {
        if (rs.nodes[body].child_count == 0) return ir::no_id;
        body = rs.children[rs.nodes[body].first_child];
    }
    return body != ir::no_id && rs.nodes[body].code == op::do_action ? body : ir::no_id;
}

// The first roll or dice term in expression n, or none.
ir::id chance_in(const ir::ruleset& rs, ir::id n) {
    const ir::node& nd = rs.nodes[n];
    if (nd.code == op::roll || nd.code == op::dice || nd.code == op::dice_count) return n;
    for (std::uint32_t i = 0; i < nd.child_count; ++i)
        if (const ir::id c = chance_in(rs, rs.children[nd.first_child + i]); c != ir::no_id) return c;
    return ir::no_id;
}

}  // namespace

void rolls_in_tested_dos(context& cx) {
    const ir::ruleset& rs = cx.rs;
    for (ir::id n = 0; n < rs.nodes.size(); ++n) {
        const ir::node& nd = rs.nodes[n];
        const bool may = nd.code == op::may, choose = nd.code == op::choose_one;
        if ((!may && !choose) || nd.child_count < (may ? 2u : 4u)) continue;
        const ir::id d = first_do(rs, rs.children[nd.first_child + (may ? 1 : 3)]);
        if (d == ir::no_id) continue;
        const ir::node& dn = rs.nodes[d];
        for (std::uint32_t i = 0; i < dn.child_count; ++i) {
            const ir::id c = chance_in(rs, rs.children[dn.first_child + i]);
            if (c == ir::no_id) continue;
            std::optional<dsl::span> at;
            if (auto it = cx.call_spans.find(c); it != cx.call_spans.end()) at = it->second;
            else if (auto st = cx.statement_spans.find(d); st != cx.statement_spans.end()) at = st->second;
            if (!at) continue;
            std::vector<dsl::diag_note> notes;
            notes.push_back({std::nullopt, std::string("the engines test the first `do` of a `") + (may ? "may" : "choose") +
                                               "` before offering it, and evaluate its arguments to test it and again to do it: "
                                               "roll the dice once with `let` before the `" + (may ? "may" : "choose") + "`"});
            cx.sink.error(dsl::diag_kind::roll_in_tested_do, *at,
                          "dice are rolled in the arguments of `do " + rs.actions.at(dn.ref).name +
                              "`, which is tested before it is offered: the test and the action would roll apart",
                          std::move(notes));
            break;
        }
    }
}

}  // namespace wp::compiler::detail
