// Unmet obligations (issue 23; docs/checker.md, "Unmet obligations"): a statement play must
// carry out, met in a state where it cannot. A `do` the engines do not test before offering
// it, whose action is not legal there; a `move` of a piece that is not in the zone it is taken
// from (both stop the engines); a `may` a `require` demands, whose action is not legal where no
// `forbid` applies (the engines skip it, and the rule's "must" is not done); a `draw` or `deal`
// that asks for more cards than its zone holds (the engines stop at its last card).
#include "accepts.hpp"
#include "checker.hpp"
#include "finding_texts.hpp"

namespace wp::verify {

void checker::obligation_checks() {
    if (no_obligations_) return;
    // each statement once, in the order the sequence meets it; its places met from setup first
    std::vector<std::pair<id, std::vector<const detail::obligation_site*>>> statements;
    for (const detail::obligation_site& s : sym_.obligation_sites) {
        auto at = std::find_if(statements.begin(), statements.end(), [&](const auto& x) { return x.first == s.node; });
        if (at == statements.end()) at = statements.insert(statements.end(), {s.node, {}});
        at->second.push_back(&s);
    }
    for (auto& [n, sites] : statements) {
        std::stable_sort(sites.begin(), sites.end(), [](const detail::obligation_site* a, const detail::obligation_site* b) {
            return a->from_setup > b->from_setup || (a->from_setup == b->from_setup && a->summarised < b->summarised);
        });
        const detail::obligation_site& first = *sites.front();
        using what = detail::obligation_site::what;
        const bool zone = first.kind == what::move || first.kind == what::draw;
        const std::string subject = zone ? (first.subject == ir::no_id ? std::string("a zone") : rs_.zones.at(first.subject).name)
                                         : rs_.actions.at(first.subject).name;
        const std::string statement = first.kind == what::move       ? "move"
                                      : first.kind == what::required ? "may"
                                      : first.kind == what::draw     ? (rs_.nodes.at(n).code == ir::op::deal ? "deal" : "draw")
                                                                     : "do";
        const std::string question = first.kind == what::move     ? "whether the piece moved at " + sym_.node_position(n) + " is always in " + subject
                                     : first.kind == what::draw   ? "whether `" + subject + "` always holds the cards the " + statement + " at " + sym_.node_position(n) + " takes"
                                     : first.kind == what::action ? "whether `" + subject + "` is legal wherever " + sym_.node_position(n) + " does it"
                                                                  : "whether `" + subject + "` is legal wherever a `require` demands it at " + sym_.node_position(n);
        const bool accepted = detail::accepted_before(rs_, "unmet-obligation", subject);
        for (const detail::obligation_site* s : sites) {
            answer a = solve(s->facts, s->unmet, true, {}, accepted ? witness_search::accepted : search_for("unmet-obligation", subject, *s));
            if (a.r == z3::unknown) {
                unknown(question, {{"statement", statement, statement_prov(n)}}, severity::error, {"unmet-obligation", subject, ""});
                break;
            }
            if (a.r != z3::sat) continue;
            finding& f = add("unmet-obligation", severity::error, subject, detail::unmet_message(statement, subject));
            f.reach = reach_of(*s);
            f.elements.push_back({"statement", statement, statement_prov(n)});
            if (!zone) f.elements.push_back({"action", subject, rs_.actions.at(s->subject).prov});
            else if (s->subject != ir::no_id) f.elements.push_back({"zone", subject, rs_.zones.at(s->subject).prov});
            f.witness = a.witness;
            if (a.model)
                replay_later([this, s, zone, m = *a.model] {
                    return s->kind == what::draw ? replay_.short_draw(*s, m) : zone ? replay_.unmet_move(*s, m) : replay_.unmet_action(*s, m);
                });
            break;
        }
    }
}

}  // namespace wp::verify
