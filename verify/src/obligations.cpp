// Errata obligations. Each errata layer is compared with the stack just before it, subject by
// subject (compare_outcomes), under the options of the check; each changed subject is then
// judged by the blocks of the layer that touch it:
//   - a `correction` may change the subjects its operations touch — only where the rules it
//     replaces, refines, excepts, withdraws or adds apply, or in the table rows it amends —
//     and the subjects that read them (a decision that looks up a corrected table);
//   - an `addition` may add new subjects and new triggers, and change a decision or table only
//     where the old stack decided nothing (a gap);
//   - a `clarification` may change nothing.
// The layer is compiled as a whole, so a subject touched by two blocks is judged by the most
// permissive of them (correction, then addition); a change no block explains is the layer's.
// Sequence patches (replace/insert of a phase or step) are left to `westphalia diff --sim`.
#include "obligations.hpp"

#include "westphalia/verify/diff.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace wp::verify::detail {

std::string rule_subject(const ir::ruleset& rs, const ir::rule& r) {
    switch (r.target) {
        case ir::target_kind::decision: return "decision " + rs.decisions.at(r.target_id).name;
        case ir::target_kind::roll: return "roll " + rs.rolls.at(r.target_id).name;
        case ir::target_kind::quantity: {
            const ir::derived& q = rs.quantities.at(r.target_id);
            return (q.predicate ? "predicate " : "quantity ") + q.name;
        }
        case ir::target_kind::action: return "action " + rs.actions.at(r.target_id).name;
        case ir::target_kind::event: return "event " + rs.events.at(r.target_id).name;
        default: return "";
    }
}

void add_undecided_change(check_result& out, const outcome_change& c, std::string subject, std::string message) {
    finding f;
    f.kind = "unknown";
    f.level = severity::error;
    f.subject = std::move(subject);
    f.message = std::move(message);
    f.proof = proof_kind::unknown;
    f.elements = c.elements;
    out.findings.push_back(std::move(f));
}

namespace {

using ir::id;

std::string element_subject(const ir::ruleset& rs, ir::element_kind k, id i) {
    switch (k) {
        case ir::element_kind::rule: return rule_subject(rs, rs.rules.at(i));
        case ir::element_kind::decision: return "decision " + rs.decisions.at(i).name;
        case ir::element_kind::roll: return "roll " + rs.rolls.at(i).name;
        case ir::element_kind::derived: return (rs.quantities.at(i).predicate ? "predicate " : "quantity ") + rs.quantities.at(i).name;
        case ir::element_kind::action: return "action " + rs.actions.at(i).name;
        case ir::element_kind::event: return "event " + rs.events.at(i).name;
        case ir::element_kind::table: return "table " + rs.tables.at(i).name;
        default: return "";
    }
}

const ir::rule* rule_named(const ir::ruleset& rs, const std::string& name) {
    for (const ir::rule& r : rs.rules)
        if (r.name == name) return &r;
    return nullptr;
}

// One errata block of the layer: its kind, title, where it is, and what it touches.
struct block {
    ir::errata_kind kind = ir::errata_kind::correction;
    std::string title;
    ir::provenance prov;
    std::set<std::string> touched;                       // subject keys
    std::map<std::string, std::vector<std::string>> rules;  // per subject: the rules touched
    std::map<std::string, std::vector<ir::key_range>> rows;  // per table: the rows amended
    std::map<std::string, ir::provenance> op_at;             // per subject: the first operation on it
};

std::vector<block> blocks_of(const ir::ruleset& before, const ir::ruleset& after, id layer) {
    std::vector<block> out;
    for (const ir::errata_op& op : after.errata) {
        if (op.layer != layer) continue;
        if (out.empty() || out.back().title != op.title || out.back().kind != op.kind) {
            out.push_back({});
            out.back().kind = op.kind;
            out.back().title = op.title;
            out.back().prov = op.prov;
        }
        block& b = out.back();
        auto touch = [&](const std::string& subject, const std::string& rule) {
            if (subject.empty()) return;
            b.touched.insert(subject);
            b.op_at.emplace(subject, op.prov);
            if (!rule.empty()) b.rules[subject].push_back(rule);
        };
        switch (op.op) {
            case ir::errata_op_kind::replace:
            case ir::errata_op_kind::refine:
            case ir::errata_op_kind::except:
            case ir::errata_op_kind::withdraw:
            case ir::errata_op_kind::add:
                if (op.op != ir::errata_op_kind::add)
                    if (const ir::rule* r = rule_named(before, op.target)) touch(rule_subject(before, *r), r->name);
                if (op.result_kind == ir::element_kind::rule && op.result < after.rules.size())
                    touch(rule_subject(after, after.rules[op.result]), after.rules[op.result].name);
                else if (op.result != ir::no_id)
                    touch(element_subject(after, op.result_kind, op.result), "");
                break;
            case ir::errata_op_kind::amend: {
                if (op.result_kind != ir::element_kind::table || op.result >= after.tables.size()) break;
                const ir::table& tb = after.tables[op.result];
                const std::string key = "table " + tb.name;
                b.touched.insert(key);
                b.op_at.emplace(key, op.prov);
                for (const ir::table_row& row : tb.rows)
                    if (row.prov.where.file == op.prov.where.file && row.prov.where.line == op.prov.where.line)
                        b.rows[key].push_back(row.key);
                break;
            }
            case ir::errata_op_kind::replace_block:
            case ir::errata_op_kind::insert_block: break;
        }
    }
    return out;
}

const char* kind_word(ir::errata_kind k) {
    switch (k) {
        case ir::errata_kind::correction: return "correction";
        case ir::errata_kind::clarification: return "clarification";
        case ir::errata_kind::addition: return "addition";
    }
    return "errata";
}

}  // namespace

void errata_obligations(const ir::ruleset& rs, const check_options& options, check_result& out) {
    if (!options.compile_upto) return;
    for (id li = 1; li < rs.layers.size(); ++li) {
        if (rs.layers[li].kind != ir::layer_kind::errata) continue;
        const std::optional<ir::ruleset> before = options.compile_upto(rs.layers[li - 1].name);
        const std::optional<ir::ruleset> after = options.compile_upto(rs.layers[li].name);
        if (!before || !after) {
            out.approximations.push_back("errata obligations of layer " + rs.layers[li].name +
                                         " (the stack before it does not compile with these options)");
            continue;
        }
        const std::vector<block> blocks = blocks_of(*before, *after, li);
        // the situations each subject may change in: the corrections' rules and rows
        diff_options dopt;
        dopt.timeout_ms = options.timeout_ms;
        dopt.max_players = options.max_players;
        dopt.decided_witness = true;  // an addition's change is reported where the rules before it decided
        std::map<std::string, change_scope> scopes;
        for (const block& b : blocks) {
            if (b.kind != ir::errata_kind::correction) continue;
            for (const std::string& key : b.touched) {
                change_scope& sc = scopes[key];
                const auto sp = key.find(' ');
                sc.what = key.substr(0, sp);
                sc.subject = key.substr(sp + 1);
                if (auto it = b.rules.find(key); it != b.rules.end()) sc.rules.insert(sc.rules.end(), it->second.begin(), it->second.end());
                if (auto it = b.rows.find(key); it != b.rows.end()) sc.rows.insert(sc.rows.end(), it->second.begin(), it->second.end());
            }
        }
        for (auto& [key, sc] : scopes) dopt.scopes.push_back(sc);

        // what each block reaches: its subjects and the subjects that read them
        std::vector<std::set<std::string>> reach(blocks.size());
        for (std::size_t i = 0; i < blocks.size(); ++i)
            for (const std::string& key : blocks[i].touched) {
                reach[i].insert(key);
                for (const ir::ruleset* x : {&*before, &*after})
                    for (const std::string& r : dependents(*x, key)) reach[i].insert(r);
            }
        // A subject a correction reaches may change freely (a direct one: inside its scope, whose
        // own witness is asked apart): no finding, so no witness, for such a change.
        dopt.wants_witness = [&](const std::string& what, const std::string& subject) {
            const std::string key = what + " " + subject;
            for (std::size_t i = 0; i < blocks.size(); ++i)
                if (blocks[i].kind == ir::errata_kind::correction && reach[i].count(key)) return false;
            return true;
        };
        const outcome_diff d = compare_outcomes(*before, *after, dopt);
        out.stats["obligations"].queries += d.queries;

        for (const outcome_change& c : d.changes) {
            const std::string key = c.what + " " + c.subject;
            std::vector<std::size_t> direct, reaching;
            for (std::size_t i = 0; i < blocks.size(); ++i) {
                if (blocks[i].touched.count(key)) direct.push_back(i);
                if (reach[i].count(key)) reaching.push_back(i);
            }
            auto any_kind = [&](const std::vector<std::size_t>& v, ir::errata_kind k) {
                return std::any_of(v.begin(), v.end(), [&](std::size_t i) { return blocks[i].kind == k; });
            };
            std::vector<std::size_t> blame;
            std::string why;
            std::vector<std::string> witness = c.witness;
            std::string replay = c.replay;
            if (any_kind(direct, ir::errata_kind::correction)) {
                if (!c.outside_scope) continue;
                for (std::size_t i : direct)
                    if (blocks[i].kind == ir::errata_kind::correction) blame.push_back(i);
                why = "changes " + c.what + " `" + c.subject + "` outside the rules and rows it touches";
                witness = c.outside_witness;
                replay = c.outside_replay;
            } else if (any_kind(reaching, ir::errata_kind::correction)) {
                continue;
            } else if (any_kind(reaching, ir::errata_kind::addition)) {
                if (c.change == "added" || c.only_gaps) continue;
                for (std::size_t i : reaching)
                    if (blocks[i].kind == ir::errata_kind::addition) blame.push_back(i);
                why = c.change == "removed" ? "removes " + c.what + " `" + c.subject + "`"
                                            : "changes an outcome of " + c.what + " `" + c.subject +
                                                  "` that the rules before it decided; an addition may only fill gaps or add decisions";
            } else if (!reaching.empty()) {
                blame = reaching;
                why = "changes an outcome of " + c.what + " `" + c.subject + "`; a clarification must change no outcome";
            } else {
                why = "changes an outcome of " + c.what + " `" + c.subject + "`, which none of its operations touches";
            }
            if (c.proof == proof_kind::unknown) {
                add_undecided_change(out, c, "whether layer " + rs.layers[li].name + " keeps its obligations on " + c.subject,
                                     "the solver could not decide whether " + c.what + " `" + c.subject + "` changed in layer `" +
                                         rs.layers[li].name + "` within the limits (--timeout)");
                continue;
            }
            finding f;
            f.kind = "errata-obligation";
            f.level = severity::error;
            f.subject = c.subject;
            if (blame.empty()) {
                f.message = "errata layer `" + rs.layers[li].name + "` " + why;
                f.elements.push_back({"layer", rs.layers[li].name, rs.layers[li].prov});
            } else {
                const block& b = blocks[blame.front()];
                f.message = std::string(kind_word(b.kind)) + " \"" + b.title + "\" " + why;
                // each block at its operation on the subject (or its first one)
                for (std::size_t i : blame) {
                    const auto at = blocks[i].op_at.find(key);
                    f.elements.push_back({kind_word(blocks[i].kind), blocks[i].title, at == blocks[i].op_at.end() ? blocks[i].prov : at->second});
                }
            }
            for (const involved& e : c.elements) f.elements.push_back(e);
            f.witness = witness;
            f.replay = replay;
            out.findings.push_back(std::move(f));
        }
    }
}

}  // namespace wp::verify::detail
