// Bookkeeping the aid leaves out: a game value that only the conditions of `forbid`, `permit`
// and `require` rules read, set only to constants or by constant steps, is a counter kept to say
// when a choice is refused (Contractor Cards' `adversaries_played`). The refusal is printed, in
// words that name the counter ("Not allowed when your adversaries played is 1 or more"); the
// statements that keep it are not ("the other player's adversaries played = 0", "your
// adversaries played +1").
#include "english.hpp"

#include <set>

namespace wp::docgen {

namespace {

bool names_value(ir::op c) { return c == ir::op::global || c == ir::op::player_field || c == ir::op::entity_field; }

}  // namespace

bool english::bookkeeping(ir::id slot) const {
    if (!bookkeeping_) {
        std::set<ir::id> in_conditions;  // nodes under the condition of a forbid, permit or require rule
        for (const ir::rule& r : rs_.rules)
            if (r.kind == ir::rule_kind::forbid || r.kind == ir::rule_kind::permit || r.kind == ir::rule_kind::require)
                visit(rs_, r.guard, [&](ir::id m) { in_conditions.insert(m); });
        std::set<ir::id> targets;  // the value each statement sets (not a read of it)
        for (std::size_t m = 0; m < rs_.nodes.size(); ++m)
            if (sets_value(rs_.nodes[m].code) && rs_.nodes[m].child_count > 0) targets.insert(ir::children_of(rs_, static_cast<ir::id>(m))[0]);
        std::map<ir::id, bool> only;  // slot -> read only in those conditions, and counted
        // A value set to other than a constant is spent or measured (SPI's `mp_left -= step_cost`),
        // not counted: what it is set to is a rule a player needs.
        for (std::size_t m = 0; m < rs_.nodes.size(); ++m)
            if (sets_value(rs_.nodes[m].code) && rs_.nodes[m].child_count == 2) {
                const auto k = ir::children_of(rs_, static_cast<ir::id>(m));
                const ir::op v = rs_.nodes[k[1]].code;
                if (names_value(rs_.nodes[k[0]].code) && v != ir::op::const_int && v != ir::op::const_bool) only[rs_.nodes[k[0]].ref] = false;
            }
        for (std::size_t m = 0; m < rs_.nodes.size(); ++m) {
            const ir::node& x = rs_.nodes[m];
            if (!names_value(x.code) || targets.count(static_cast<ir::id>(m))) continue;
            const bool condition = in_conditions.count(static_cast<ir::id>(m)) > 0;
            const auto [it, fresh] = only.emplace(x.ref, condition);
            if (!fresh) it->second = it->second && condition;
        }
        auto found = std::make_shared<std::set<ir::id>>();
        for (const auto& [s, yes] : only)
            if (yes) found->insert(s);
        bookkeeping_ = std::move(found);
    }
    return bookkeeping_->count(slot) > 0;
}

}  // namespace wp::docgen
