// Rolls in the arguments of a `do` the engines test (docs/language.md §6, "A `do` tested before
// it is offered"): the first statement of a `may`'s body or of a `choose`'s body is tested before
// it is offered, and the test evaluates the action's arguments; doing it evaluates them again. A
// die rolled there is rolled twice, and the action done need not be the one tested (legal at the
// test, not legal when done: the engines stop). The compiler rejects it; a `let` rolls once.
#include "context.hpp"
#include "ir_tested_dos.hpp"

namespace wp::compiler::detail {

void rolls_in_tested_dos(context& cx) {
    const ir::ruleset& rs = cx.rs;
    for (const ir::tested_do_dice& t : ir::dice_in_tested_dos(rs)) {
        std::optional<dsl::span> at;
        if (auto it = cx.call_spans.find(t.dice); it != cx.call_spans.end()) at = it->second;  // a roll: its call
        else if (auto st = cx.statement_spans.find(t.act); st != cx.statement_spans.end()) at = st->second;
        if (!at) continue;
        const std::string offer = rs.nodes[t.offer].code == ir::op::may ? "may" : "choose";
        std::vector<dsl::diag_note> notes;
        notes.push_back({std::nullopt, "the engines test the first `do` of a `" + offer +
                                           "` before offering it, and evaluate its arguments to test it and again to do it: "
                                           "roll the dice once with `let` before the `" + offer + "`"});
        cx.sink.error(dsl::diag_kind::roll_in_tested_do, *at,
                      "dice are rolled in the arguments of `do " + rs.actions.at(rs.nodes[t.act].ref).name +
                          "`, which is tested before it is offered: the test and the action would roll apart",
                      std::move(notes));
    }
}

}  // namespace wp::compiler::detail
