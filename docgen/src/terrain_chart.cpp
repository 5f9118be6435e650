// Where a rule tests for a member of the terrain enum, the chart says what the rule gives then:
// - a decision with a parameter of the enum: each define rule whose guard tests the member, its
//   value, with the guard's other conditions ("terrain cost 5 (cavalry), 2 (not cavalry)");
// - a predicate: a disjunct of its body that tests the member ("impassable");
// - a quantity: a `cond` whose condition tests the member, its `then` value ("ground strength:
//   … ÷ 2 rounded up").
// - a modifier of a roll or quantity whose guard tests the member ("terrain drm +1");
// - a predicate's `any` over a collection whose condition tests it ("entrenched zone (some of the
//   neighbours of the hex, with conditions)").
// - a `cond` in the `else` of one that tests only another member;
// - a quantifier beside other conditions in a predicate's disjunct ("hilltop (some of the
//   neighbours of the hex, with conditions)").
// - an `if` in a procedure's statements that tests it and calls one procedure ("straggle (with
//   conditions)").
// A test nested deeper (under a quantifier inside an `or`, an `if` that does more than one
// call) is not read: the rules' entries elsewhere in the aid say the rest.
#include "terrain_chart.hpp"

#include "english.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace wp::docgen {

namespace {

// A residual condition longer than this reads "(with conditions)": the rule's own entry has it.
constexpr std::size_t longest_condition = 60;

struct chart_builder {
    const ir::ruleset& rs;
    ir::id enum_id;
    // member -> (element title -> phrases), elements in the order met
    std::map<std::int64_t, std::vector<std::pair<std::string, std::vector<std::string>>>> effects;
    std::set<ir::id> whole_rules;  // define rules printed with every condition

    std::vector<ir::id> split(ir::id n, ir::op code) const {
        if (n >= rs.nodes.size()) return {};
        if (rs.nodes[n].code != code) return {n};
        std::vector<ir::id> out;
        for (ir::id k : ir::children_of(rs, n)) {
            auto more = split(k, code);
            out.insert(out.end(), more.begin(), more.end());
        }
        return out;
    }

    // The member a condition tests for (`x == Woods`, `Woods in hexside(a, b)`), if it is such a test.
    std::optional<std::int64_t> tested(ir::id c) const { return compared_member(rs, c, enum_id, {ir::op::eq, ir::op::in}); }

    // Conjuncts of `c`: the members tested and the English of the rest (empty when none).
    bool read_conjuncts(ir::id c, const english& en, std::vector<std::int64_t>& members, std::string& rest) const {
        members.clear();
        rest.clear();
        for (ir::id part : split(c, ir::op::and_)) {
            if (const auto m = tested(part)) {
                members.push_back(*m);
                continue;
            }
            if (const auto v = static_value(rs, part); v && *v) continue;  // true under the options
            if (const auto v = static_value(rs, part); v && !*v) return false;
            rest += (rest.empty() ? "" : " and ") + en.expr(part);
        }
        if (rest.size() > longest_condition) rest = "with conditions";
        // `x == Woods and x == Town` tests nothing a single terrain meets.
        return members.size() == 1;
    }

    // " (if the side is French)", " (with conditions)", or nothing.
    static std::string condition(const std::string& rest) {
        if (rest.empty()) return "";
        return rest == "with conditions" ? " (with conditions)" : " (if " + rest + ")";
    }

    void note(std::int64_t member, const std::string& title, const std::string& phrase) {
        auto& list = effects[member];
        auto it = std::find_if(list.begin(), list.end(), [&](const auto& x) { return x.first == title; });
        if (it == list.end()) it = list.insert(list.end(), {title, {}});
        if (std::find(it->second.begin(), it->second.end(), phrase) == it->second.end()) it->second.push_back(phrase);
    }

    void decisions() {
        for (std::size_t d = 0; d < rs.decisions.size(); ++d) {
            const ir::decision& dec = rs.decisions[d];
            const bool takes = std::any_of(dec.params.begin(), dec.params.end(), [&](const ir::local& p) {
                return p.type < rs.types.size() && rs.types[p.type].kind == ir::type_kind::enumeration && rs.types[p.type].ref == enum_id;
            });
            if (!takes) continue;
            for (std::size_t ri = 0; ri < rs.rules.size(); ++ri) {
                const ir::rule& r = rs.rules[ri];
                if (r.kind != ir::rule_kind::define || r.target != ir::target_kind::decision || r.target_id != d || r.guard == ir::no_id) continue;
                if (const auto g = static_value(rs, r.guard); g && !*g) continue;
                english en(rs, r.locals);
                en.scope_roles({r.guard, r.value});
                std::vector<std::int64_t> members;
                std::string rest;
                if (!read_conjuncts(r.guard, en, members, rest)) continue;
                note(members[0], humanize(dec.name), " " + en.expr(r.value) + (rest.empty() ? "" : " (" + rest + ")"));
                if (rest != "with conditions") whole_rules.insert(static_cast<ir::id>(ri));
            }
        }
    }

    // A one-key table keyed by the enum (Cuius Regio's terrain mp table): each row's result.
    void tables() {
        for (const ir::table& tb : rs.tables) {
            if (tb.keys.size() != 1 || !tb.columns.empty() || tb.keys[0].expr >= rs.nodes.size()) continue;
            const ir::id kt = rs.nodes[tb.keys[0].expr].type;
            if (kt >= rs.types.size() || rs.types[kt].kind != ir::type_kind::enumeration || rs.types[kt].ref != enum_id) continue;
            english en(rs, tb.locals);
            en.show_events(false);
            const auto& members = rs.enums[enum_id].members;
            for (std::size_t r = 0; r < tb.rows.size() && r < tb.cells.size(); ++r) {
                const auto m = std::find_if(members.begin(), members.end(), [&](const ir::enum_member& x) { return x.name == tb.rows[r].key.text; });
                if (m == members.end()) continue;
                const ir::table_cell& c = tb.cells[r];
                std::string what = c.has_outcome ? constant_english(rs, tb.outcome_type, c.outcome) : "";
                if (c.effects != ir::no_id) what += (what.empty() ? "" : "; ") + en.statements(c.effects);
                if (!what.empty()) note(m - members.begin(), humanize(tb.name), " " + what);
            }
        }
    }

    // A modifier whose guard tests the member: "terrain drm +1" (Cuius Regio's Hills).
    void modifiers() {
        for (const ir::rule& r : rs.rules) {
            if (r.kind != ir::rule_kind::modifier || r.guard == ir::no_id || r.amount == ir::no_id) continue;
            if (const auto g = static_value(rs, r.guard); g && !*g) continue;
            std::string target;
            if (r.target == ir::target_kind::roll && r.target_id < rs.rolls.size()) target = humanize(rs.rolls[r.target_id].name);
            else if (r.target == ir::target_kind::quantity && r.target_id < rs.quantities.size()) target = humanize(rs.quantities[r.target_id].name);
            else continue;
            english en(rs, r.locals);
            en.scope_roles({r.guard, r.amount});
            std::vector<std::int64_t> members;
            std::string rest;
            if (!read_conjuncts(r.guard, en, members, rest)) continue;
            const ir::node& a = rs.nodes[r.amount];
            const std::string amount = r.mod == ir::modifier_kind::set ? " becomes " + en.expr(r.amount)
                                     : r.mod == ir::modifier_kind::at_most ? " at most " + en.expr(r.amount)
                                     : r.mod == ir::modifier_kind::at_least ? " at least " + en.expr(r.amount)
                                     : a.code == ir::op::const_int ? " " + signed_number(a.value) : " + " + en.expr(r.amount);
            note(members[0], target, amount + condition(rest));
        }
    }

    // An `if` in a procedure's statements that tests the member and calls one procedure:
    // "straggle (with conditions)" (Cuius Regio's Hills, entered in a retreat).
    void procedures() {
        for (const ir::procedure& pr : rs.procedures) {
            if (pr.body == ir::no_id) continue;
            english en(rs, pr.locals);
            en.scope_roles({pr.body});
            visit(rs, pr.body, [&](ir::id n) {
                const ir::node& x = rs.nodes[n];
                const auto kids = ir::children_of(rs, n);
                if (x.code != ir::op::if_ || kids.size() < 2) return;
                ir::id then = kids[1];
                if (rs.nodes[then].code == ir::op::seq && rs.nodes[then].child_count == 1) then = ir::children_of(rs, then)[0];
                const ir::node& call = rs.nodes[then];
                if (call.code != ir::op::call || call.ref >= rs.procedures.size() ||
                    std::find(rs.event_dispatchers.begin(), rs.event_dispatchers.end(), call.ref) != rs.event_dispatchers.end())
                    return;
                std::vector<std::int64_t> members;
                std::string rest;
                if (!read_conjuncts(kids[0], en, members, rest) && !through_predicate(kids[0], members, rest)) return;
                // a procedure's own conditions are its bookkeeping (`sp(rt_cnt, s) > 0 and rt_owed`):
                // the chart says there are some; the rule's own entry says which
                if (!rest.empty()) rest = "with conditions";
                // the procedure by name, with the numbers it is given: "side pp gain 3"
                std::string what = humanize(rs.procedures[call.ref].name);
                for (ir::id a : ir::children_of(rs, then))
                    if (rs.nodes[a].code == ir::op::const_int) what += " " + number(rs.nodes[a].value);
                note(members[0], what, condition(rest));
            });
        }
    }

    // An `if`'s condition that tests the member through a predicate it calls (`a_on and
    // enters_hills(c, n)`, the predicate `terrain(n) == Hills and not Road in …`): the member,
    // and "with conditions" for whatever else either says.
    bool through_predicate(ir::id c, std::vector<std::int64_t>& members, std::string& rest) const {
        members.clear();
        rest.clear();
        bool other = false;
        for (ir::id part : split(c, ir::op::and_)) {
            const ir::node& x = rs.nodes[part];
            if (x.code == ir::op::quantity && x.ref < rs.quantities.size() && rs.quantities[x.ref].predicate &&
                rs.quantities[x.ref].expr != ir::no_id) {
                for (ir::id q : split(rs.quantities[x.ref].expr, ir::op::and_)) {
                    if (const auto m = tested(q)) members.push_back(*m);
                    else other = true;
                }
                continue;
            }
            if (const auto m = tested(part)) members.push_back(*m);
            else other = true;
        }
        if (other) rest = "with conditions";
        return members.size() == 1;
    }

    void quantities() {
        for (const ir::derived& q : rs.quantities) {
            if (q.expr == ir::no_id) continue;
            english en(rs, q.locals);
            en.scope_roles({q.expr});
            const std::string name = humanize(q.name);
            std::vector<std::int64_t> members;
            std::string rest;
            if (q.predicate) {
                for (ir::id part : split(q.expr, ir::op::or_)) {
                    if (read_conjuncts(part, en, members, rest)) {
                        note(members[0], name, condition(rest));
                        continue;
                    }
                    // A test under a quantifier: `any(n in neighbours(h) : terrain(n) == Entrenchment
                    // and …)` reads "entrenched zone (some of the neighbours of the hex, with conditions)";
                    // so does one under a quantifier beside other conditions (SPI's hilltop:
                    // `not h.slope and any(n in neighbours(h) : Slope in hexside(h, n))`).
                    const std::vector<ir::id> conjuncts = split(part, ir::op::and_);
                    ir::id quantifier = ir::no_id;
                    for (ir::id c : conjuncts)
                        if (rs.nodes[c].code == ir::op::any) quantifier = quantifier == ir::no_id ? c : ir::no_id - 1;
                    if (quantifier >= rs.nodes.size()) continue;
                    const auto kids = ir::children_of(rs, quantifier);
                    if (kids.size() != 2 || !read_conjuncts(kids[1], en, members, rest)) continue;
                    const std::string where = rs.nodes[kids[0]].code == ir::op::type_members ? "some other" : "some of " + en.expr(kids[0]);
                    note(members[0], name, " (" + where + (rest.empty() && conjuncts.size() == 1 ? "" : ", with conditions") + ")");
                }
                continue;
            }
            // Each `cond` of the body's sum: `(if Stream in hexside(a, b) then 2 else 0) + …`,
            // and each `cond` in the `else` of one (`if … then 3 else if Marsh … then 2 else 1`).
            for (ir::id part : split(q.expr, ir::op::add)) {
                for (ir::id c = part; rs.nodes[c].code == ir::op::cond;) {
                    const auto kids = ir::children_of(rs, c);
                    if (kids.size() != 3) break;
                    if (!read_conjuncts(kids[0], en, members, rest)) break;
                    note(members[0], name, ": " + en.expr(kids[1]) + condition(rest));
                    // the `else` is read for another member only when this tested the member alone
                    if (!rest.empty()) break;
                    c = kids[2];
                }
            }
        }
    }
};

}  // namespace

std::vector<grid> terrain_charts(const ir::ruleset& rs, std::map<ir::id, std::string>* charted) {
    std::vector<grid> out;
    std::set<ir::id> done;
    for (const ir::map& m : rs.maps) {
        for (const auto& [which, words] : {std::pair{m.terrain_enum, "Terrain"}, std::pair{m.edge_enum, m.kind == ir::map_kind::hexgrid ? "Hexside" : "Connection"}}) {
            const ir::id e = which;  // a plain variable: Clang 14 cannot capture a structured binding
            if (e >= rs.enums.size() || !done.insert(e).second) continue;
            chart_builder b{rs, e, {}, {}};
            b.tables();
            b.decisions();
            b.modifiers();
            b.quantities();
            b.procedures();
            if (b.effects.empty()) continue;
            grid g;
            g.caption = std::string(words) + " effects chart";
            if (charted)
                for (ir::id r : b.whole_rules) charted->emplace(r, humanize(std::string(words)) + " effects chart");
            g.anchor = anchors_text(rs.enums[e].prov);
            g.header.push_back({cell{{span{words, face::bold, false}}, align::left}, cell{{span{"Effects", face::bold, false}}, align::left}});
            const ir::id type = [&] {
                for (std::size_t t = 0; t < rs.types.size(); ++t)
                    if (rs.types[t].kind == ir::type_kind::enumeration && rs.types[t].ref == e) return static_cast<ir::id>(t);
                return ir::no_id;
            }();
            for (std::size_t member = 0; member < rs.enums[e].members.size(); ++member) {
                rich_text what;
                for (const auto& [title, phrases] : b.effects[static_cast<std::int64_t>(member)]) {
                    // "terrain cost 5 (cavalry), 2 (not cavalry)": the title once, its phrases after it.
                    std::string one = title;
                    for (std::size_t i = 0; i < phrases.size(); ++i) {
                        std::string p = phrases[i];
                        if (i > 0 && p.empty()) continue;  // unconditional as well: the title says it
                        if (i > 0) p = "," + (p.rfind(": ", 0) == 0 ? " " + p.substr(2) : p);
                        one += p;
                    }
                    what.push_back(span{(what.empty() ? "" : " · ") + one, face::regular, false});
                }
                if (what.empty()) what.push_back(span{"—", face::regular, true});
                g.rows.push_back({cell{{span{constant_english(rs, type, static_cast<std::int64_t>(member)), face::bold, false}}, align::left},
                                  cell{what, align::left}});
            }
            g.notes.push_back("From the rules that test for each " + std::string(words == std::string("Terrain") ? "terrain" : "feature") +
                              "; a test deeper inside a condition is in that rule's own entry.");
            out.push_back(std::move(g));
        }
    }
    return out;
}

}  // namespace wp::docgen
