// The aid's section of odds computed from the rules (docs/language.md §7, `chances`): each grid's
// cells come from the engine, which plays the rule's `given` through every die it rolls.
#include "model_builder.hpp"

#include "westphalia/engine/engine.hpp"

#include <cstdio>
#include <memory>

namespace wp::docgen::detail {

namespace {

// "27.8%", "63.0%", "<0.1%", ">99.9%", "0%", "100%" (percent_text's words for a chance known as a
// fraction; here one decimal always, as the chance is a sum of products).
std::string chance_text(double p) {
    const double pc = 100.0 * p;
    if (pc < 1e-9) return "0%";
    if (pc > 100.0 - 1e-9) return "100%";
    if (pc < 0.05) return "<0.1%";
    if (pc > 99.95) return ">99.9%";
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", pc);
    return buffer;
}

// The stand-in tables and maps a rule's `given` and condition read, through the procedures,
// quantities, rolls and tables they use: the page says its odds rest on them.
std::set<std::string> standins_read(const ir::ruleset& rs, const ir::rule& r) {
    std::set<std::string> out;
    std::vector<ir::id> todo{r.body, r.value};
    std::set<std::pair<int, ir::id>> seen;  // (kind of element, id) entered once
    auto enter = [&](int kind, ir::id id) { return seen.insert({kind, id}).second; };
    while (!todo.empty()) {
        const ir::id n = todo.back();
        todo.pop_back();
        if (n == ir::no_id || n >= rs.nodes.size()) continue;
        const ir::node& nd = rs.nodes[n];
        for (const ir::id k : ir::children_of(rs, n)) todo.push_back(k);
        switch (nd.code) {
            case ir::op::call:
                if (nd.ref < rs.procedures.size() && enter(0, nd.ref)) todo.push_back(rs.procedures[nd.ref].body);
                break;
            case ir::op::quantity:
                if (nd.ref < rs.quantities.size() && enter(1, nd.ref)) todo.push_back(rs.quantities[nd.ref].expr);
                break;
            case ir::op::roll:
                if (nd.ref < rs.rolls.size() && enter(2, nd.ref)) todo.push_back(rs.rolls[nd.ref].expr);
                break;
            case ir::op::lookup:
            case ir::op::resolve:
                if (nd.ref < rs.tables.size() && enter(3, nd.ref)) {
                    const ir::table& tb = rs.tables[nd.ref];
                    if (tb.standin != ir::no_id && tb.standin < rs.standins.size())
                        out.insert(title_of(tb.name) + " (" + rs.standins[tb.standin].why + ")");
                    for (const ir::table_cell& c : tb.cells) todo.push_back(c.effects);
                    for (const ir::table_key& k : tb.keys) todo.push_back(k.expr);
                }
                break;
            default: break;
        }
    }
    return out;
}

}  // namespace

void builder::chances() {
    std::unique_ptr<engine::game> g;
    bool any = false;
    for (std::size_t i = 0; i < rs.rules.size(); ++i) {
        const ir::rule& r = rs.rules[i];
        if (r.kind != ir::rule_kind::chances || r.param_count < 1 || r.value == ir::no_id) continue;
        if (!any) {
            section("Odds from the rules");
            any = true;
        }
        if (!g) g = std::make_unique<engine::game>(rs, std::max<int>(1, static_cast<int>(rs.min_players)));
        const engine::chances_grid cells = engine::compute_chances(*g, static_cast<ir::id>(i));
        const english en(rs, r.locals);
        grid out;
        out.caption = !r.aid.empty() ? r.aid : "Chance that " + en.condition(r.value);
        out.anchor = anchors_text(r.prov) + layer_note(r.prov);
        const ir::local& row = r.locals[0];
        const bool two = r.param_count >= 2;
        std::vector<cell> head{cell{{bold(capitalised(humanize(row.name)) + (two ? " \\ " + humanize(r.locals[1].name) : ""))}, align::left}};
        if (two)
            for (const std::int64_t c : cells.columns) head.push_back(cell{{bold(constant_english(rs, r.locals[1].type, c))}, align::right});
        else
            head.push_back(cell{{bold("Chance")}, align::right});
        out.header.push_back(std::move(head));
        std::set<std::string> errors;
        for (std::size_t y = 0; y < cells.rows.size(); ++y) {
            std::vector<cell> line{cell{{bold(constant_english(rs, row.type, cells.rows[y]))}, align::left}};
            for (std::size_t x = 0; x < cells.columns.size(); ++x) {
                const engine::chances_grid::cell& c = cells.cells[y * cells.columns.size() + x];
                if (!c.error.empty()) errors.insert(c.error);
                line.push_back(cell{{text(c.error.empty() ? chance_text(c.chance) : "—")}, align::right});
            }
            out.rows.push_back(std::move(line));
        }
        out.notes.push_back("Exact odds, computed from the rules through every die they roll, as a game begins.");
        for (const std::string& s : standins_read(rs, r)) out.notes.push_back("Rests on stand-in data, not from the rulebook: " + s + ".");
        for (const std::string& e : errors) out.notes.push_back("— the rules cannot be followed exactly here: " + e);
        add(std::move(out));
    }
}

}  // namespace wp::docgen::detail
