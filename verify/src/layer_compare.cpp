// Undeclared changes. An exclusive layer (a game's rules over a series' standard rules), an
// expansion or any layer above another may change what the rules below it decide; the changes
// it declares are its errata blocks (replace, refine, except, withdraw, amend, add) and the
// `overrides` its rules name. A rule of its own that wins over a lower rule only by the layer's
// rank (an exclusive layer's define, forbid, permit or require beats the base layer's) or that
// adds to a lower roll or quantity (a modifier accumulates) changes the lower rules silently:
// a reader of the standard rules alone would not know. Those subjects are compared, the two
// stacks over one free state (compare_outcomes, as `westphalia diff` does), and every change
// in a situation the lower stack decided is reported with its witness. A new subject, a gap
// the lower rules leave open and filled, and a trigger added to a lower event (triggers
// accumulate: the lower ones still fire) are what layers are for, and are not reported; so is a
// define where the lower ones were withdrawn (the errata block that withdrew them declares it).
#include "layer_compare.hpp"

#include "obligations.hpp"
#include "westphalia/verify/diff.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace wp::verify::detail {

namespace {

using ir::id;

std::set<std::string> layer_names(const ir::ruleset& rs) {
    std::set<std::string> out;
    for (const ir::layer& l : rs.layers) out.insert(l.name);
    return out;
}

// The rules of the upper stack that change the lower rules without a declaration, by subject.
std::map<std::string, std::vector<id>> undeclared_rules(const ir::ruleset& lower, const ir::ruleset& upper) {
    const std::set<std::string> below = layer_names(lower);
    auto is_new = [&](const ir::provenance& p) {
        return p.layer < upper.layers.size() && !below.count(upper.layers[p.layer].name);
    };
    // rules an errata block of the upper layers set or names
    std::set<id> by_errata;
    std::set<std::string> named;
    for (const ir::errata_op& op : upper.errata) {
        if (op.layer >= upper.layers.size() || below.count(upper.layers[op.layer].name)) continue;
        if (op.result_kind == ir::element_kind::rule && op.result != ir::no_id) by_errata.insert(op.result);
        if (!op.target.empty()) named.insert(op.target);
    }
    std::map<std::string, std::vector<id>> out;
    for (const ir::rule_group& g : upper.groups) {
        if (g.target == ir::target_kind::event) continue;  // triggers accumulate
        for (id r : g.rules) {
            const ir::rule& rule = upper.rules.at(r);
            if (!is_new(rule.prov) || by_errata.count(r) || named.count(rule.name)) continue;
            // Its edges over the lower rules that still stand: one it declares (`overrides`, an
            // event's precedence) makes it declared; one by the layer's rank alone is how a
            // define changes the lower value. A define with none (the lower ones withdrawn by an
            // errata block, or never there) decides where the lower stack is silent. A forbid,
            // permit or require changes the lower action's own `when`; a modifier adds to the
            // lower total.
            bool declared = false, by_rank = false;
            for (const ir::override_edge& e : g.edges) {
                if (e.higher != r || is_new(upper.rules.at(e.lower).prov)) continue;
                (e.reason == ir::override_reason::exclusive_layer ? by_rank : declared) = true;
            }
            if (declared || (rule.kind == ir::rule_kind::define && !by_rank)) continue;
            const std::string key = rule_subject(upper, rule);
            if (!key.empty()) out[key].push_back(r);
        }
    }
    return out;
}

}  // namespace

void undeclared_changes(const check_options& options, check_result& out) {
    if (!options.compare || !options.compile_upto) return;
    const std::string& lo = options.compare->first;
    const std::string& hi = options.compare->second;
    const std::optional<ir::ruleset> lower = options.compile_upto(lo);
    const std::optional<ir::ruleset> upper = options.compile_upto(hi);
    if (!lower || !upper) {
        out.approximations.push_back("the comparison of layer " + hi + " with the layers up to " + lo +
                                     " (a stack does not compile with these options)");
        return;
    }
    const std::map<std::string, std::vector<id>> silent = undeclared_rules(*lower, *upper);
    diff_options dopt;
    dopt.timeout_ms = options.timeout_ms;
    dopt.max_players = options.max_players;
    dopt.decided_witness = true;
    dopt.only = [&](const std::string& what, const std::string& subject) { return silent.count(what + " " + subject) > 0; };
    const outcome_diff d = compare_outcomes(*lower, *upper, dopt);
    out.stats["compare"].queries += d.queries;

    for (const outcome_change& c : d.changes) {
        if (c.change != "changed" || c.only_gaps) continue;  // a new subject, a gap filled
        const std::vector<id>& rules = silent.at(c.what + " " + c.subject);
        if (c.proof == proof_kind::unknown) {
            add_undecided_change(out, c, "whether the layers up to " + hi + " change " + c.what + " " + c.subject,
                                 "the solver could not decide whether the layers above `" + lo + "` change " + c.what + " `" +
                                     c.subject + "` within the limits (--timeout)");
            continue;
        }
        finding f;
        f.kind = "undeclared-change";
        f.level = severity::warning;
        f.subject = c.subject;
        std::string names;
        std::set<std::string> layers;
        for (id r : rules) {
            const ir::rule& rule = upper->rules.at(r);
            names += (names.empty() ? "`" : ", `") + rule.name + "`";
            layers.insert(upper->layers.at(rule.prov.layer).name);
            f.elements.push_back({"rule", rule.name, rule.prov});
        }
        std::string layer_list;
        for (const std::string& l : layers) layer_list += (layer_list.empty() ? "`" : ", `") + l + "`";
        const std::string where = c.what == "decision" ? " where the rules up to `" + lo + "` decide it"
                                                        : " of the rules up to `" + lo + "`";
        f.message = "layer " + layer_list + " changes " + c.what + " `" + c.subject + "`" + where +
                    ", without declaring it: " + (rules.size() == 1 ? "rule " : "rules ") + names +
                    " (no `overrides` of a rule below, no errata block)";
        for (const involved& e : c.elements)
            if (e.role != "rule" || std::none_of(f.elements.begin(), f.elements.end(), [&](const involved& x) {
                    return x.role == "rule" && x.name == e.name && x.prov == e.prov;
                }))
                f.elements.push_back(e);
        f.witness = c.witness;
        f.replay = c.replay;
        out.findings.push_back(std::move(f));
    }
}

}  // namespace wp::verify::detail
