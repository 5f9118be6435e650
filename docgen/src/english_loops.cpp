// English of a counted `while`: `round_no = 0; while round_no < 6 { round_no += 1; … }` is the
// rule language's way to number rounds, and reads as a player counts them: "for round no from 1
// to 6: …" (GMT's action phase), never as the counter's bookkeeping ("round no = 0; while round
// no is less than 6: round no +1; …").
#include "english.hpp"

namespace wp::docgen {

namespace {

// The game value or local a node names, as (code, ref); nothing for anything else.
std::optional<std::pair<ir::op, ir::id>> counter(const ir::ruleset& rs, ir::id n) {
    const ir::node& x = rs.nodes[n];
    if ((x.code == ir::op::global || x.code == ir::op::local) && x.child_count == 0) return std::make_pair(x.code, x.ref);
    return std::nullopt;
}

}  // namespace

std::optional<std::string> english::counted_loop(ir::id start, ir::id loop, std::vector<ir::id>* nested) const {
    if (start >= rs_.nodes.size() || loop >= rs_.nodes.size()) return std::nullopt;
    const ir::node& set = rs_.nodes[start];
    const ir::node& w = rs_.nodes[loop];
    if (set.code != ir::op::assign || set.child_count != 2 || w.code != ir::op::while_ || w.child_count != 2) return std::nullopt;
    const auto sk = ir::children_of(rs_, start);
    const auto wk = ir::children_of(rs_, loop);
    const auto v = counter(rs_, sk[0]);
    const auto from = static_value(rs_, sk[1]);
    if (!v || !from) return std::nullopt;
    // while v < to
    const ir::node& test = rs_.nodes[wk[0]];
    if (test.code != ir::op::lt || test.child_count != 2) return std::nullopt;
    const auto tk = ir::children_of(rs_, wk[0]);
    const auto to = static_value(rs_, tk[1]);
    if (counter(rs_, tk[0]) != v || !to || *to <= *from) return std::nullopt;
    // { v += 1; rest }
    const ir::id body = wk[1];
    if (rs_.nodes[body].code != ir::op::seq || rs_.nodes[body].child_count < 2) return std::nullopt;
    const auto bk = ir::children_of(rs_, body);
    const ir::node& step = rs_.nodes[bk[0]];
    if (step.code != ir::op::add_assign || step.child_count != 2) return std::nullopt;
    const auto stk = ir::children_of(rs_, bk[0]);
    if (counter(rs_, stk[0]) != v || static_value(rs_, stk[1]) != std::optional<std::int64_t>(1)) return std::nullopt;
    // Nothing else in the loop may set the counter: then it runs exactly to − from times.
    bool other = false;
    for (std::size_t i = 1; i < bk.size(); ++i)
        visit(rs_, bk[i], [&](ir::id m) {
            const ir::node& y = rs_.nodes[m];
            if (sets_value(y.code) && y.child_count > 0 &&
                counter(rs_, ir::children_of(rs_, m)[0]) == v)
                other = true;
        });
    if (other) return std::nullopt;
    std::string rest;
    for (std::size_t i = 1; i < bk.size(); ++i)
        if (const std::string one = statement(bk[i], nested); !one.empty()) rest += (rest.empty() ? "" : "; ") + one;
    return "for " + expr(sk[0]) + " from " + number(*from + 1) + " to " + number(*to) + ": " + (rest.empty() ? "nothing" : rest);
}

}  // namespace wp::docgen
