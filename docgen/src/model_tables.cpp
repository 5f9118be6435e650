// The aid's tables: each table as a grid (with the chance of each row when its roll is exact),
// the chance of each row by net modifier, the terrain charts, and a key to an outcome table's
// results from what the rules do with each.
#include "westphalia/ir/printings.hpp"
#include "model_builder.hpp"

#include "terrain_chart.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace wp::docgen::detail {

namespace {

// A row or column key as a wargamer reads it: "≤2" for an open low end ("..2" in the rules).
std::string key_text(const ir::key_range& k, bool natural = false) {
    const std::string prefix = natural ? "natural " : "";
    if (k.kind == ir::key_range_kind::integer && k.open_lo && !k.open_hi) return prefix + "≤" + number(k.hi);
    return prefix + k.text;
}

// The named roll of a two-key table's rows, with natural rows or a column shift, when it has an
// exact distribution (the aid prints the chance of each row), else null.
const ir::distribution* grid_roll(const ir::table& tb, const ir::ruleset& rs) {
    if (tb.keys.size() < 2 || tb.keys[0].expr == ir::no_id) return nullptr;
    // where the chance is not plain from the rows: natural rows read first, or a shift
    if (tb.natural_map.dense.empty() && tb.keys[1].shift == ir::no_id) return nullptr;
    const ir::node& e = rs.nodes[tb.keys[0].expr];
    if (tb.keys[0].source != ir::key_source::roll || e.code != ir::op::roll || e.ref >= rs.rolls.size()) return nullptr;
    const ir::distribution& d = rs.rolls[e.ref].dist;
    return d.weights.empty() || tb.row_map.kind != ir::key_range_kind::integer ? nullptr : &d;
}

// The chance of row r with no modifier, the row key's clamp applied (natural rows first).
chance clamped_row_chance(const ir::distribution& d, const ir::table& tb, std::size_t r) {
    const ir::table_key& key = tb.keys[0];
    if (!key.has_clamp || tb.rows[r].natural) return row_chance(d, 0, tb, r);
    chance c{0, d.total};
    for (std::size_t i = 0; i < d.weights.size(); ++i) {
        std::int64_t v = d.min + static_cast<std::int64_t>(i);
        bool natural = false;
        for (const ir::table_row& n : tb.rows)
            natural = natural || (n.natural && (n.key.open_lo || v >= n.key.lo) && (n.key.open_hi || v <= n.key.hi));
        if (natural) continue;
        if (!key.clamp_lo.open_lo) v = std::max(v, key.clamp_lo.lo);
        if (!key.clamp_hi.open_hi) v = std::min(v, key.clamp_hi.hi);
        const ir::key_range& k = tb.rows[r].key;
        if ((k.open_lo || v >= k.lo) && (k.open_hi || v <= k.hi)) c.ways += d.weights[i];
    }
    return c;
}

}  // namespace

// A row or column key: a member of an enum by its label ("Lower Palatinate", not the
// rule language's Lower_Palatinate), else as printed.
std::string builder::key_words(const ir::table& tb, std::size_t axis, const ir::key_range& k, bool natural) const {
    if (k.kind == ir::key_range_kind::member && axis < tb.keys.size() && tb.keys[axis].expr < rs.nodes.size()) {
        const ir::id t = rs.nodes[tb.keys[axis].expr].type;
        if (t < rs.types.size() && rs.types[t].kind == ir::type_kind::enumeration && rs.types[t].ref < rs.enums.size()) {
            const auto& members = rs.enums[rs.types[t].ref].members;
            for (std::size_t m = 0; m < members.size(); ++m)
                if (members[m].name == k.text) return (natural ? "natural " : "") + constant_english(rs, t, static_cast<std::int64_t>(m));
        }
    }
    return key_text(k, natural);
}

// Whether statements `n` only set game values to constants (or are nothing).
bool builder::stores_constants(ir::id n) const {
    if (n == ir::no_id || n >= rs.nodes.size()) return true;
    const ir::node& x = rs.nodes[n];
    const auto kids = ir::children_of(rs, n);
    if (x.code == ir::op::seq) return std::all_of(kids.begin(), kids.end(), [&](ir::id k) { return stores_constants(k); });
    if (x.code != ir::op::assign || kids.size() != 2 || rs.nodes[kids[0]].code != ir::op::global) return false;
    const ir::op v = rs.nodes[kids[1]].code;
    return v == ir::op::const_int || v == ir::op::const_bool || v == ir::op::const_member;
}

std::string builder::key_label(const ir::table& tb, std::size_t k) const {
    const ir::table_key& key = tb.keys[k];
    const ir::node& e = rs.nodes[key.expr];
    if (key.source == ir::key_source::roll && e.code == ir::op::roll && e.ref < rs.rolls.size()) {
        const ir::roll& r = rs.rolls[e.ref];
        return r.linear ? dice_text(r) + (modifiers_of(rs, ir::target_kind::roll, e.ref).empty() ? "" : " + mod.") : title_of(r.name);
    }
    if (key.var < tb.locals.size() && key.source == ir::key_source::key) {
        // A one-letter key (`key t: terrain`) is the rules' shorthand: it reads as what it ranges over.
        const ir::local& l = tb.locals[key.var];
        const ir::type_kind kind = l.type < rs.types.size() ? rs.types[l.type].kind : ir::type_kind::error;
        const bool named_by_type = kind == ir::type_kind::enumeration || kind == ir::type_kind::entity || kind == ir::type_kind::node ||
                                   kind == ir::type_kind::player || kind == ir::type_kind::record;
        return l.name.size() == 1 && named_by_type ? capitalised(role_noun(rs, l.type)) : title_of(l.name);
    }
    // `odds(a, d)` of one-letter parameters: "Odds", not "the odds a to d".
    if (e.code == ir::op::builtin && e.ref == static_cast<ir::id>(ir::builtin::odds)) {
        bool shorthand = false;
        for (ir::id k : ir::children_of(rs, key.expr))
            shorthand = shorthand || (rs.nodes[k].code == ir::op::local && rs.nodes[k].ref < tb.locals.size() && tb.locals[rs.nodes[k].ref].name.size() == 1);
        if (shorthand) return "Odds";
    }
    return english(rs, tb.locals).expr(key.expr);
}

namespace {

std::string lowered(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

// "the game ends (decisive bavarian)" in the row labelled "Decisive Bavarian Victory" says the
// label again: "the game ends". Each word of the reason must begin a word of the label, or the
// other way round ("drawn", "Draw").
static std::string without_repeated_reason(const std::string& effect, const std::string& label) {
    const std::string mark = "the game ends (";
    const std::size_t at = effect.find(mark);
    if (label.empty() || at == std::string::npos) return effect;
    const std::size_t open = at + mark.size() - 1, close = effect.find(')', open);
    if (close == std::string::npos) return effect;
    std::istringstream reason(lowered(effect.substr(open + 1, close - open - 1)));
    std::vector<std::string> label_words;
    {
        std::istringstream l(lowered(label));
        for (std::string w; l >> w;) label_words.push_back(w);
    }
    bool all = true;
    for (std::string w; reason >> w;)
        all = all && std::any_of(label_words.begin(), label_words.end(),
                                 [&](const std::string& l) { return l.rfind(w, 0) == 0 || w.rfind(l, 0) == 0; });
    return all ? effect.substr(0, open - 1) + effect.substr(close + 1) : effect;
}

std::string builder::cell_result(const ir::table& tb, const ir::table_cell& c) const {
    if (!c.has_outcome) return "—";
    return constant_english(rs, tb.outcome_type, c.outcome);
}

void builder::table_grid(ir::id t) {
    const ir::table& tb = rs.tables[t];
    if (tb.keys.empty()) return;
    english en(rs, tb.locals);
    en.show_events(false);
    grid g;
    g.caption = capitalised(table_name(tb.name));
    // Which reading of a chart this is, when an option picks it ("charts = rules folder").
    if (!readings.reading[t].empty()) g.caption += " (" + readings.reading[t] + ")";
    g.anchor = anchors_text(tb.prov) + layer_note(tb.prov);
    const std::size_t ncols = std::max<std::size_t>(1, tb.columns.size());
    if (!tb.columns.empty()) {
        // A two-key grid: rows by the first key, columns by the second.
        std::vector<cell> head{cell{{bold(key_label(tb, 0) + " \\ " + (tb.keys.size() > 1 ? key_label(tb, 1) : ""))}, align::left}};
        for (const ir::key_range& c : tb.columns) head.push_back(cell{{bold(key_words(tb, 1, c))}, align::centre});
        // the chance of each row of its roll (no modifier), exact
        const ir::distribution* dist = grid_roll(tb, rs);
        if (dist) head.push_back(cell{{bold("Chance")}, align::right});
        g.header.push_back(std::move(head));
        for (std::size_t r = 0; r < tb.rows.size(); ++r) {
            std::vector<cell> row{cell{{bold(key_words(tb, 0, tb.rows[r].key, tb.rows[r].natural))}, align::left}};
            for (std::size_t c = 0; c < ncols; ++c) {
                const ir::table_cell& x = tb.cells[r * ncols + c];
                rich_text content{text(cell_result(tb, x))};
                if (x.effects != ir::no_id) content.push_back(text(": " + en.statements(x.effects)));
                row.push_back(cell{std::move(content), align::centre});
            }
            if (dist) row.push_back(cell{{text(percent_text(clamped_row_chance(*dist, tb, r)))}, align::right});
            g.rows.push_back(std::move(row));
        }
        if (tb.keys.size() > 1 && tb.keys[1].shift != ir::no_id) {
            g.notes.push_back("The column read moves " + en.expr(tb.keys[1].shift) +
                              " columns to the right (left when negative), after the column is found" +
                              (tb.keys[1].shift_clamp ? "; past either end, the end column." : "; past either end there is no column."));
        }
        if (dist) g.notes.push_back("Chance: of each row with no modifier, whatever the column.");
    } else {
        const ir::node& e = rs.nodes[tb.keys[0].expr];
        const ir::roll* roll = tb.keys[0].source == ir::key_source::roll && e.code == ir::op::roll && e.ref < rs.rolls.size()
                                   ? &rs.rolls[e.ref] : nullptr;
        const bool odds_column = roll && !roll->dist.weights.empty() && modifiers_of(rs, ir::target_kind::roll, e.ref).empty() &&
                                 tb.row_map.kind == ir::key_range_kind::integer;
        bool any_effects = false, any_label = false, every_label = true, only_stores = true;
        for (std::size_t r = 0; r < tb.rows.size(); ++r) {
            any_effects = any_effects || tb.cells[r].effects != ir::no_id;
            any_label = any_label || !tb.rows[r].label.empty() || tb.cells[r].has_outcome;
            every_label = every_label && !tb.rows[r].label.empty();
            only_stores = only_stores && stores_constants(tb.cells[r].effects);
        }
        // Rows that each say their result in words ("Attacking army disbands", "-6") and whose
        // effects only store constants for the rules to read later (Cuius Regio's `b_auto = 1;
        // b_oddsmod = 0`): the words are the result, the stores the engine's encoding of them.
        if (every_label && only_stores) any_effects = false;
        const bool one_layer = std::all_of(tb.rows.begin(), tb.rows.end(), [&](const ir::table_row& x) { return layer_note(x.prov) == layer_note(tb.prov); });
        std::vector<cell> head{cell{{bold(key_label(tb, 0))}, align::left}};
        if (any_label) head.push_back(cell{{bold("Result")}, align::left});
        if (any_effects) head.push_back(cell{{bold("Effect")}, align::left});
        if (odds_column) head.push_back(cell{{bold("Chance")}, align::right});
        g.header.push_back(std::move(head));
        for (std::size_t r = 0; r < tb.rows.size(); ++r) {
            const ir::table_row& row = tb.rows[r];
            const ir::table_cell& c = tb.cells[r];
            std::vector<cell> line{cell{{bold(key_words(tb, 0, row.key, row.natural))}, align::left}};
            if (any_label) line.push_back(cell{{text(!row.label.empty() ? row.label : cell_result(tb, c))}, align::left});
            if (any_effects) {
                const std::string effect = c.effects == ir::no_id ? "" : without_repeated_reason(en.statements(c.effects), row.label);
                // the layer of the rows is said once, in the caption, when every row is of the
                // table's own (an errata that amends one row still marks that row)
                const std::string layer = layer_note(row.prov);
                line.push_back(cell{{text(effect.empty() ? "—" : effect), muted(one_layer ? "" : layer)}, align::left});
            }
            if (odds_column) line.push_back(cell{{text(percent_text(row_chance(roll->dist, 0, tb, r)))}, align::right});
            g.rows.push_back(std::move(line));
        }
    }
    for (std::size_t k = 0; k < tb.keys.size(); ++k) {
        const ir::table_key& key = tb.keys[k];
        if (key.has_clamp && !key.clamp_lo.open_lo && !key.clamp_hi.open_hi)
            g.notes.push_back("Keys below " + key.clamp_lo.text + " are read as " + key.clamp_lo.text + ", above " +
                              key.clamp_hi.text + " as " + key.clamp_hi.text + ".");
        else if (key.has_clamp && !key.clamp_lo.open_lo)
            g.notes.push_back("Keys below " + key.clamp_lo.text + " are read as " + key.clamp_lo.text + ".");
        else if (key.has_clamp && !key.clamp_hi.open_hi)
            g.notes.push_back("Keys above " + key.clamp_hi.text + " are read as " + key.clamp_hi.text + ".");
        // the engine reads odds in favour of the defender unless told otherwise
        const bool odds_axis = (k == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds;
        if (key.round == ir::rounding::defender || (odds_axis && key.round == ir::rounding::none))
            g.notes.push_back("Odds are rounded in favour of the defender.");
        if (key.round == ir::rounding::attacker) g.notes.push_back("Odds are rounded in favour of the attacker.");
        if (ir::odds_fractional(tb, k))
            g.notes.push_back(std::string("Fractional odds are points of the scale: a ratio reads the ") +
                              (key.round == ir::rounding::attacker ? "smallest point at or above it."
                                                                   : "largest point at or below it."));
    }
    if (tb.standin != ir::no_id && tb.standin < rs.standins.size()) {
        g.notes.push_back("Stand-in data, not from the rulebook: " + rs.standins[tb.standin].why);
        standins_noted.insert(tb.standin);
    }
    printing_notes(t, g);
    if (!tb.aid.empty()) g.notes.push_back(tb.aid);
    add(std::move(g));
    if (tb.columns.empty()) table_odds(t);
}

// The other printings of this table (`printing of`, either way), and where they differ from
// it: a player holding the other printing should know which cells to read from this one.
void builder::printing_notes(ir::id t, grid& g) const {
    const ir::table& tb = rs.tables[t];
    for (std::size_t u = 0; u < rs.tables.size(); ++u) {
        const ir::table& other = rs.tables[u];
        if (u == t || (tb.printing_of != u && other.printing_of != t)) continue;
        const ir::printing_comparison d = ir::compare_printings(rs, tb, other);
        std::string note = "Also printed as the " + table_name(other.name) + " (" + anchors_text(other.prov) + layer_note(other.prov) + ")";
        if (d.same()) {
            g.notes.push_back(note + ", the same.");
            continue;
        }
        note += ", which differs:";
        // cells grouped by what each printing reads; a column (row) one printing lacks said once
        std::vector<std::pair<std::string, std::vector<std::string>>> groups;
        std::vector<std::string> lacks;
        for (const ir::printing_cell& c : d.cells) {
            const bool here = !c.a_cell, there = !c.b_cell;  // a key one printing has no cell for
            if (here || there) {
                const bool column = (here ? c.a_text : c.b_text) == "no column";
                const std::string lack = "no " + (column ? c.column + " column" : "row " + c.row) + (here ? " here" : " there");
                if (std::find(lacks.begin(), lacks.end(), lack) == lacks.end()) lacks.push_back(lack);
                continue;
            }
            // the results as the grids print them (the key's symbols), effects as the rules
            auto shown = [&](const ir::table& owner, const ir::table_cell* x, const std::string& text) {
                return x && x->effects == ir::no_id ? cell_result(owner, *x) : text;
            };
            const std::string what = shown(tb, c.a_cell, c.a_text) + " here, " + shown(other, c.b_cell, c.b_text) + " there";
            auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == what; });
            if (it == groups.end()) it = groups.insert(groups.end(), {what, {}});
            it->second.push_back("row " + c.row + (c.column.empty() ? "" : " at " + c.column));
        }
        std::vector<std::string> parts;
        for (const auto& [what, where] : groups) {
            std::string part = what + " (";
            for (std::size_t i = 0; i < where.size(); ++i) part += (i ? ", " : "") + where[i];
            parts.push_back(part + ")");
        }
        for (const std::string& l : lacks) parts.push_back(l);
        for (std::size_t i = 0; i < parts.size(); ++i) note += (i ? "; " : " ") + parts[i];
        for (const std::string& k : d.keys) note += "; " + k;
        g.notes.push_back(note + ".");
    }
}

// The chance of each row of a table read with a modified roll, by net modifier.
void builder::table_odds(ir::id t) {
    const ir::table& tb = rs.tables[t];
    const ir::node& e = rs.nodes[tb.keys[0].expr];
    if (tb.keys[0].source != ir::key_source::roll || e.code != ir::op::roll || e.ref >= rs.rolls.size()) return;
    const ir::roll& roll = rs.rolls[e.ref];
    if (roll.dist.weights.empty() || modifiers_of(rs, ir::target_kind::roll, e.ref).empty() ||
        tb.row_map.kind != ir::key_range_kind::integer)
        return;
    const modifier_span sp = odds_span(rs, e.ref);
    const roll_bounds b = bounds_of(rs, e.ref);
    grid g;
    g.caption = title_of(tb.name) + ": chance of each result by net modifier";
    std::vector<cell> head{cell{{bold("Result")}, align::left}};
    for (std::int64_t m = sp.lo; m <= sp.hi; ++m) head.push_back(cell{{bold(signed_number(m))}, align::right});
    g.header.push_back(std::move(head));
    std::vector<chance> covered(static_cast<std::size_t>(sp.hi - sp.lo + 1), chance{0, roll.dist.total});
    for (std::size_t r = 0; r < tb.rows.size(); ++r) {
        const ir::table_row& row = tb.rows[r];
        std::vector<cell> line{cell{{bold(key_words(tb, 0, row.key, row.natural)), text(row.label.empty() ? "" : " " + row.label)}, align::left}};
        for (std::int64_t m = sp.lo; m <= sp.hi; ++m) {
            const chance c = row_chance(roll.dist, m, tb, r, &b);
            covered[static_cast<std::size_t>(m - sp.lo)].ways += c.ways;
            line.push_back(cell{{text(percent_text(c))}, align::right});
        }
        g.rows.push_back(std::move(line));
    }
    bool gap = false;
    for (const chance& c : covered) gap = gap || c.ways != c.total;
    if (gap) {
        std::vector<cell> line{cell{{text("no row (a gap in the table)")}, align::left}};
        for (const chance& c : covered) line.push_back(cell{{text(percent_text(chance{c.total - c.ways, c.total}))}, align::right});
        g.rows.push_back(std::move(line));
    }
    g.notes.push_back("Net modifier: the sum of every modifier to the " + humanize(roll.name) + ".");
    if (b.has_lo || b.has_hi)
        g.notes.push_back("The modified roll is held " + std::string(b.has_lo ? "at least " + number(b.lo) : "") +
                          (b.has_lo && b.has_hi ? " and " : "") + (b.has_hi ? "at most " + number(b.hi) : "") + ".");
    if (!b.exact) g.notes.push_back(bounds_caveat);
    if (!tb.natural_map.dense.empty())
        g.notes.push_back("A natural roll is the dice before any modifier; its rows are read first.");
    add(std::move(g));
}

void builder::tables() {
    std::vector<grid> charts = terrain_charts(rs, &charted);
    if (rs.tables.empty() && charts.empty()) return;
    section("Tables");
    for (grid& g : charts) add(std::move(g));
    // A key to an enum's results follows the table in play that shows the most of them.
    std::map<ir::id, std::pair<std::size_t, ir::id>> widest;  // outcome type -> (results shown, table)
    for (std::size_t t = 0; t < rs.tables.size(); ++t) {
        if (!readings.in_play[t]) continue;
        std::set<std::int64_t> shown;
        for (const ir::table_cell& c : rs.tables[t].cells)
            if (c.has_outcome) shown.insert(c.outcome);
        auto& w = widest[rs.tables[t].outcome_type];
        if (shown.size() > w.first) w = {shown.size(), static_cast<ir::id>(t)};
    }
    for (std::size_t t = 0; t < rs.tables.size(); ++t) {
        if (!readings.in_play[t]) continue;
        table_grid(static_cast<ir::id>(t));
        if (widest[rs.tables[t].outcome_type].second == t) results_key(static_cast<ir::id>(t));
    }
}

// Every element with its frame and the roots of its nodes: where the rules say what a value does.
// `f(title, frame, roots)`.
void builder::each_element(const std::function<void(const std::string&, const std::vector<ir::local>&, std::vector<ir::id>)>& f) const {
    for (const ir::sequence& x : rs.sequences) f(title_of(x.name), x.locals, {x.body});
    for (const ir::procedure& x : rs.procedures) f(title_of(x.name), x.locals, {x.body});
    for (const ir::action& x : rs.actions) f(title_of(x.name), x.locals, {x.guard, x.body});
    for (const ir::rule& x : rs.rules)
        if (x.kind == ir::rule_kind::trigger && live(x) && x.target_id < rs.events.size())
            f("When " + humanize(rs.events[x.target_id].name), x.locals, {x.guard, x.body});
}

// The members of enum `e` that condition `c` tests for (`r == Dd or r == Dx`), or none when it
// tests anything else. `r == Dd and more` tests Dd, with `more` left in `rest`.
// The comparisons it reads are added to `used`.
std::vector<std::int64_t> builder::tested_members(ir::id c, ir::id e, ir::id* rest, std::set<ir::id>* used) const {
    const ir::node& x = rs.nodes[c];
    const auto kids = ir::children_of(rs, c);
    if (rest && x.code == ir::op::and_ && kids.size() == 2) {
        // the test on either side: `r == Dd and more`, `a_on and (res == AttRout or …)`
        auto a = tested_members(kids[0], e, nullptr, used);
        if (!a.empty()) {
            *rest = kids[1];
            return a;
        }
        a = tested_members(kids[1], e, nullptr, used);
        if (!a.empty()) *rest = kids[0];
        return a;
    }
    if (x.code == ir::op::or_ && kids.size() == 2) {
        std::set<ir::id> inner;
        auto a = tested_members(kids[0], e, nullptr, &inner), b = tested_members(kids[1], e, nullptr, &inner);
        if (a.empty() || b.empty()) return {};
        if (used) used->insert(inner.begin(), inner.end());
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }
    if (const auto m = compared_member(rs, c, e, {ir::op::eq})) {
        if (used) used->insert(c);
        return {*m};
    }
    return {};
}

// A key to a table's results, from what each one does: for an outcome-only table (no effects
// in its cells) of an enum, every `if r == Ad { … }` in the rules, in the English of its rule.
// Printed once per enum, after the first table that shows it.
void builder::results_key(ir::id t) {
    const ir::table& tb = rs.tables[t];
    if (tb.outcome_type >= rs.types.size() || rs.types[tb.outcome_type].kind != ir::type_kind::enumeration) return;
    for (const ir::table_cell& c : tb.cells)
        if (c.effects != ir::no_id) return;  // the table's own Effect column says it
    const ir::id e = rs.types[tb.outcome_type].ref;
    // Per result: where the rules test for it, and what they do then.
    std::map<std::int64_t, std::vector<std::pair<std::string, std::string>>> does;
    std::set<ir::id> explained_tests;  // the comparisons the key explains
    each_element([&](const std::string& title, const std::vector<ir::local>& frame, std::vector<ir::id> roots) {
        std::erase(roots, ir::no_id);
        english en = speaker(frame, roots);
        en.show_events(false);
        for (ir::id root : roots)
            visit(rs, root, [&](ir::id n) {
                if (rs.nodes[n].code != ir::op::if_) return;
                const auto kids = ir::children_of(rs, n);
                if (kids.size() < 2) return;
                auto note = [&](std::int64_t m, const std::string& what) {
                    if (what.empty()) return;
                    auto& list = does[m];
                    auto it = std::find_if(list.begin(), list.end(), [&](const auto& x) { return x.first == title; });
                    if (it == list.end()) list.emplace_back(title, what);
                    else it->second += "; " + what;
                };
                ir::id rest = ir::no_id;
                const auto members = tested_members(kids[0], e, &rest, &explained_tests);
                if (members.empty()) return;
                std::string what = en.statements(kids[1]);
                if (rest != ir::no_id && !what.empty()) what = "if " + en.expr(rest) + ": " + what;
                for (std::int64_t m : members) note(m, what);
                // Of a two-result enum, the other result takes the `else` (Succeeds / Fails).
                const bool pure = rest == ir::no_id && rs.enums[e].members.size() == 2 && members.size() == 1;
                if (pure && kids.size() > 2 && rs.nodes[kids[2]].code != ir::op::absent) note(1 - members[0], en.statements(kids[2]));
            });
    });
    std::set<std::int64_t> shown;
    for (std::size_t u = 0; u < rs.tables.size(); ++u)
        if (readings.in_play[u] && rs.tables[u].outcome_type == tb.outcome_type)
            for (const ir::table_cell& c : rs.tables[u].cells)
                if (c.has_outcome) shown.insert(c.outcome);
    // A key the rules' tests explain less than half of would mislead: leave it to the rules.
    std::size_t explained = 0;
    for (std::int64_t m : shown) explained += does.count(m);
    if (explained * 2 < shown.size() || explained == 0) return;
    // A result no rule outside the tables ever names does nothing. A test the key does not
    // explain (inside a predicate, a `!=`) would make it a partial picture: no key then.
    std::set<std::int64_t> named;
    bool partial = false;
    each_element([&](const std::string&, const std::vector<ir::local>&, std::vector<ir::id> roots) {
        for (ir::id root : roots)
            visit(rs, root, [&](ir::id n) {
                const ir::node& x = rs.nodes[n];
                if (x.code == ir::op::const_member && x.type == tb.outcome_type) named.insert(x.value);
                if (compared_member(rs, n, e, {ir::op::eq, ir::op::ne}) && !explained_tests.count(n)) partial = true;
            });
    });
    auto compares = [&](ir::id root) {
        if (root != ir::no_id) visit(rs, root, [&](ir::id n) { partial = partial || compared_member(rs, n, e, {ir::op::eq, ir::op::ne}).has_value(); });
    };
    for (const ir::derived& q : rs.quantities) compares(q.expr);
    for (const ir::rule& r : rs.rules)
        if (r.kind != ir::rule_kind::trigger && !ir::runs_a_given(r.kind) && !ir::is_query(r.kind) && live(r))
            for (ir::id root : {r.amount, r.value, r.guard, r.body}) compares(root);
    if (partial) return;
    grid g;
    g.caption = "Key to the " + table_name(rs.tables[t].name);
    g.header.push_back({cell{{bold("Result")}, align::left}, cell{{bold("What it does")}, align::left}});
    for (std::int64_t m : shown) {
        // "Apply result: for every unit: …. Bombard: if …: disrupt (the unit)."
        rich_text what;
        for (const auto& [where, w] : does[m]) {
            what.push_back(muted((what.empty() ? "" : " ") + where + ": "));
            what.push_back(text(w + "."));
        }
        if (what.empty()) what.push_back(text(named.count(m) ? "—" : "No effect."));
        g.rows.push_back({cell{{bold(constant_english(rs, tb.outcome_type, m))}, align::left}, cell{what, align::left}});
    }
    add(std::move(g));
}

}  // namespace wp::docgen::detail
