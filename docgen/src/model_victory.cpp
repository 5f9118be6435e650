// How the game ends and what happens when: the end of game and victory, the other decisions
// the rules take, and the triggers.
#include "model_builder.hpp"

#include <algorithm>

namespace wp::docgen::detail {

namespace {

bool contains(const ir::ruleset& rs, ir::id root, ir::op code) {
    bool found = false;
    visit(rs, root, [&](ir::id n) { found = found || rs.nodes[n].code == code; });
    return found;
}

}  // namespace

void builder::trigger_entry(const ir::rule& r) {
    if (!live(r)) return;
    english en = speaker(r.locals, {r.guard, r.body});
    en.assume(r.guard);  // "when X: if X: …" reads "when X: …"
    const std::string event = r.target_id < rs.events.size() ? humanize(rs.events[r.target_id].name) : "?";
    rich_text t{bold("When " + event + params_text(r.locals, r.param_count))};
    if (const std::string w = when(en, r.guard); !w.empty()) t.push_back(text(" and" + w.substr(5)));
    t.push_back(text(": " + (r.aid.empty() ? en.statements(r.body) : r.aid)));
    if (!r.overrides.empty()) {
        std::string o;
        for (ir::id x : r.overrides) o += (o.empty() ? "" : ", ") + humanize(rs.rules[x].name);
        t.push_back(text(" (instead of " + o + ")"));
    }
    t.push_back(source(r.prov));
    entry(std::move(t));
}

// The engine's convention (engine/src/game.cpp): a decision `wins(p: player)` names the
// winners when the game ends.
bool builder::is_victory(const ir::decision& d) const {
    return d.name == "wins" && d.params.size() == 1 && d.params[0].type < rs.types.size() &&
           rs.types[d.params[0].type].kind == ir::type_kind::player;
}

void builder::end_and_victory() {
    bool any = false;
    for (const ir::rule& r : rs.rules) any = any || (r.kind == ir::rule_kind::trigger && contains(rs, r.body, ir::op::end_game));
    for (const ir::decision& d : rs.decisions) any = any || is_victory(d);
    for (std::size_t p = 0; p < rs.procedures.size(); ++p)
        any = any || (reached_procedures[p] && rs.procedures[p].body != ir::no_id && contains(rs, rs.procedures[p].body, ir::op::end_game));
    if (!any) return;
    section("End of the game and victory");
    for (const ir::rule& r : rs.rules)
        if (r.kind == ir::rule_kind::trigger && contains(rs, r.body, ir::op::end_game)) trigger_entry(r);
    // Procedures that end the game hold the victory conditions of games that read them at the
    // end (a scenario's levels of victory): each in English, with its anchors.
    for (std::size_t pi = 0; pi < rs.procedures.size(); ++pi) {
        const ir::procedure& p = rs.procedures[pi];
        if (!reached_procedures[pi] || p.body == ir::no_id || !contains(rs, p.body, ir::op::end_game)) continue;
        const english en = speaker(p.locals, {p.body});
        // the designer's aid text, where there is one, says it in the players' words
        rich_text t;
        t.push_back(bold(title_of(p.name) + params_text(p.locals, p.param_count)));
        t.push_back(text(": " + (p.aid.empty() ? en.statements(p.body) : p.aid)));
        t.push_back(source(p.prov));
        entry(std::move(t));
    }
    decisions(true);
}

void builder::other_decisions() {
    bool any = false;
    for (const ir::decision& d : rs.decisions) any = any || !is_victory(d);
    if (!any) return;
    section("Decisions");
    decisions(false);
}

// One entry per decision, its rules in a run: "May exit: false always §6.0; true when … §17.33".
// A decision whose every rule the terrain effects chart prints whole points to the chart.
void builder::decisions(bool victory) {
    for (std::size_t d = 0; d < rs.decisions.size(); ++d) {
        const ir::decision& dec = rs.decisions[d];
        if (is_victory(dec) != victory) continue;
        std::vector<ir::id> rules;
        for (ir::id r : rules_on(ir::target_kind::decision, static_cast<ir::id>(d), {ir::rule_kind::define}))
            if (live(rs.rules[r])) rules.push_back(r);
        // "Morale row of" with its parameter left out (a role) reads "Morale row of the army".
        std::string title = title_of(dec.name) + params_text(dec.params, dec.params.size());
        if (title.size() > 3 && title.compare(title.size() - 3, 3, " of") == 0 && !dec.params.empty())
            title += " the " + role_noun(rs, dec.params[0].type);
        // The rules' `wins(p) = true when …` reads "Victory: you win when …", not "Wins: true when …".
        if (victory) title = "Victory";
        rich_text t{bold(title)};
        std::string chart;
        for (ir::id r : rules) {
            const auto it = charted.find(r);
            chart = it == charted.end() || (!chart.empty() && chart != it->second) ? "-" : it->second;
            if (chart == "-") break;
        }
        if (!rules.empty() && chart != "-") {
            t.push_back(text(": by terrain, in the " + chart));
            t.push_back(source(dec.prov));
            entry(std::move(t));
            continue;
        }
        t.push_back(text(":"));
        for (std::size_t i = 0; i < rules.size(); ++i) {
            const ir::rule& rule = rs.rules[rules[i]];
            const english en = speaker(rule.locals, {rule.value, rule.guard});
            std::string value = en.expr(rule.value);
            std::string condition = when(en, rule.guard);
            std::string always = " always";
            if (victory && rule.value < rs.nodes.size() && rs.nodes[rule.value].code == ir::op::const_bool) {
                value = rs.nodes[rule.value].value ? "you win" : "you do not win";
            } else if (victory) {  // `wins(p) = score >= …`: "you win when score ≥ …"
                value = "you win when " + en.condition(rule.value);
                always = "";
                if (!condition.empty()) condition = ", if" + condition.substr(5);
            }
            t.push_back(bold((i ? "; " : " ") + value));
            t.push_back(text(rule.aid.empty() ? (condition.empty() ? always : condition) : ": " + rule.aid));
            // rules in a row that cite the same sections in the same layer cite them once, after the last
            if (i + 1 == rules.size() || source(rs.rules[rules[i + 1]].prov).text != source(rule.prov).text) t.push_back(source(rule.prov));
        }
        if (rules.empty()) t.push_back(text(" no rule decides it under the chosen options"));
        entry(std::move(t));
    }
}

void builder::triggers() {
    bool any = false;
    for (const ir::rule& r : rs.rules) any = any || (r.kind == ir::rule_kind::trigger && !contains(rs, r.body, ir::op::end_game));
    if (!any) return;
    section("What happens when");
    // Triggers of one layer that do the same under the same condition share one entry: "When army
    // demoralized, unit eliminated or movement begins, and day collapsed: fighting stops".
    struct folded {
        std::vector<std::string> events;
        std::string rest;
        ir::provenance prov;
    };
    std::vector<folded> entries;
    for (const ir::rule& r : rs.rules) {
        if (r.kind != ir::rule_kind::trigger || contains(rs, r.body, ir::op::end_game) || !live(r)) continue;
        english en = speaker(r.locals, {r.guard, r.body});
        en.assume(r.guard);
        std::string event = r.target_id < rs.events.size() ? humanize(rs.events[r.target_id].name) : "?";
        event += params_text(r.locals, r.param_count);
        std::string rest;
        if (const std::string w = when(en, r.guard); !w.empty()) rest += " and" + w.substr(5);
        rest += ": " + (r.aid.empty() ? en.statements(r.body) : r.aid);
        if (!r.overrides.empty()) {
            std::string o;
            for (ir::id x : r.overrides) o += (o.empty() ? "" : ", ") + humanize(rs.rules[x].name);
            rest += " (instead of " + o + ")";
        }
        auto same = std::find_if(entries.begin(), entries.end(), [&](const folded& f) {
            return f.rest == rest && f.prov.layer == r.prov.layer;
        });
        if (same == entries.end()) {
            entries.push_back({{event}, rest, r.prov});
            continue;
        }
        same->events.push_back(event);
        same->prov.anchors.insert(same->prov.anchors.end(), r.prov.anchors.begin(), r.prov.anchors.end());
    }
    for (const folded& f : entries) {
        std::string events;
        for (std::size_t i = 0; i < f.events.size(); ++i)
            events += (i == 0 ? "" : i + 1 == f.events.size() ? " or " : ", ") + f.events[i];
        // "…, and day collapsed": the condition holds for every event listed
        std::string rest = f.rest;
        if (f.events.size() > 1 && rest.rfind(" and ", 0) == 0) rest.insert(0, ",");
        entry({bold("When " + events), text(rest), source(f.prov)});
    }
}

}  // namespace wp::docgen::detail
