#include "accepts.hpp"

#include <algorithm>

namespace wp::verify::detail {

namespace {

bool matches(const ir::accepted_finding& a, const finding& f) {
    // An undecided question is covered by the accept of the finding it would have given:
    // found or not, the ruleset has said that finding is expected there.
    const bool asked = f.kind == "unknown" && !f.asked_kind.empty() && a.kind != "unknown";
    const std::string& kind = asked ? f.asked_kind : f.kind;
    const std::string& subject = asked ? f.asked_subject : f.subject;
    if (kind != a.kind) return false;
    // `accept bound-violation "gold" above`: the field may overflow, never go below its range
    // (an undecided bound with neither side decided is not covered by an accept of one side)
    if (!a.side.empty() && f.side != a.side) return false;
    // "campaign_outcome 9+" is accepted by "campaign_outcome" as well as by itself.
    if (subject == a.subject || subject.rfind(a.subject + " ", 0) == 0) return true;
    for (const involved& e : f.elements)
        if (e.name == a.subject) return true;
    return false;
}

// The accept as written: `bound-violation "gold" above`.
std::string accept_text(const ir::accepted_finding& a) {
    return a.kind + " \"" + a.subject + "\"" + (a.side.empty() ? "" : " " + a.side);
}

}  // namespace

bool accepted_before(const ir::ruleset& rs, const std::string& kind, const std::string& subject) {
    finding f;
    f.kind = kind;
    f.subject = subject;
    return std::any_of(rs.accepts.begin(), rs.accepts.end(), [&](const ir::accepted_finding& a) { return a.side.empty() && matches(a, f); });
}

bool accepted(const ir::ruleset& rs, const finding& f) {
    return std::any_of(rs.accepts.begin(), rs.accepts.end(), [&](const ir::accepted_finding& a) { return matches(a, f); });
}

void apply_accepts(const ir::ruleset& rs, check_result& out) {
    std::vector<finding> stale;
    for (const ir::accepted_finding& a : rs.accepts) {
        bool used = false;
        for (finding& f : out.findings) {
            if (!matches(a, f)) continue;
            used = true;
            if (f.accepted) continue;  // the first accept that names it gives the reason
            f.accepted = true;
            f.accepted_reason = a.reason;
            f.elements.push_back({"accept", accept_text(a), a.prov});
        }
        // Stale only when every check ran to its end and decided every question: one not run,
        // cut short by --max-time, or a question left undecided (an `unknown`) may have left
        // out the finding it names.
        const bool undecided = std::any_of(out.findings.begin(), out.findings.end(), [](const finding& f) { return f.kind == "unknown"; });
        if (used || !out.only.empty() || out.out_of_time || undecided) continue;
        finding s;
        s.kind = "stale-accept";
        s.level = severity::warning;
        s.subject = a.subject;
        const std::string side = a.side.empty() ? "" : " (" + a.side + " its range)";
        s.message = "the ruleset accepts a " + a.kind + " finding about `" + a.subject + "`" + side +
                    ", but the checker found none: remove the accept";
        s.elements.push_back({"accept", accept_text(a), a.prov});
        s.proof = proof_kind::proved;
        s.because.push_back("no " + a.kind + " finding of this run" + side + " has `" + a.subject + "` as its subject or involves it");
        stale.push_back(std::move(s));
    }
    for (finding& s : stale) out.findings.push_back(std::move(s));
}

}  // namespace wp::verify::detail
