// The aid's rolls: each named roll with its modifiers and the tables that read it, a grid of
// totals for each roll of dice counted at run time, and the chance each compared roll reaches
// its threshold by net modifier.
#include "model_builder.hpp"

namespace wp::docgen::detail {

std::vector<ir::id> builder::tables_reading(ir::id roll) const {
    std::vector<ir::id> out;
    for (std::size_t t = 0; t < rs.tables.size(); ++t) {
        const ir::table& tb = rs.tables[t];
        if (tb.keys.empty() || tb.keys[0].source != ir::key_source::roll) continue;
        const ir::id e = tb.keys[0].expr;
        if (e < rs.nodes.size() && rs.nodes[e].code == ir::op::roll && rs.nodes[e].ref == roll && readings.in_play[t])
            out.push_back(static_cast<ir::id>(t));
    }
    return out;
}

// One line per modifier: "+1 when …", or the designer's own aid text.
void builder::modifier_lines(const std::vector<ir::id>& mods, int indent) {
    for (ir::id m : mods) {
        const ir::rule& r = rs.rules[m];
        if (!live(r)) continue;
        rich_text t;
        if (!r.aid.empty()) {
            t.push_back(text(r.aid));
        } else {
            const english en = speaker(r.locals, {r.amount, r.guard});
            const ir::node& a = rs.nodes[r.amount];
            if (r.mod != ir::modifier_kind::add) {
                t.push_back(bold(r.mod == ir::modifier_kind::set ? "becomes " : r.mod == ir::modifier_kind::at_most ? "at most " : "at least "));
                t.push_back(text(en.expr(r.amount)));
            } else if (a.code == ir::op::const_int) {
                t.push_back(bold(signed_number(a.value)));
            } else if (a.code == ir::op::neg) {
                t.push_back(text(en.expr(r.amount)));
            } else {
                t.push_back(bold("+ "));
                t.push_back(text(en.expr(r.amount)));
            }
            if (const std::string w = when(en, r.guard); !w.empty()) t.push_back(text(w));
        }
        t.push_back(source(r.prov));
        entry(std::move(t), indent, true);
    }
}

void builder::rolls() {
    if (rs.rolls.empty()) return;
    section("Rolls and their modifiers");
    for (std::size_t i = 0; i < rs.rolls.size(); ++i) {
        const ir::roll& r = rs.rolls[i];
        const auto id = static_cast<ir::id>(i);
        const auto mods = modifiers_of(rs, ir::target_kind::roll, id);
        rich_text t{bold(title_of(r.name) + ": ")};
        if (r.linear) t.push_back(span{dice_text(r), face::bold, false});
        else t.push_back(text(english(rs, r.locals).expr(r.expr)));
        if (!mods.empty()) t.push_back(text(" + modifiers"));
        std::string more;
        if (auto it = thresholds.find(id); it != thresholds.end()) {
            std::string needs;
            for (const threshold& th : it->second) needs += (needs.empty() ? "" : " or ") + threshold_text(th);
            more += "; the rules ask for " + needs;
        }
        for (ir::id tb : tables_reading(id)) more += "; read on the " + table_name(rs.tables[tb].name);
        if (!r.aid.empty()) more += "; " + r.aid;
        if (!more.empty()) t.push_back(text(more));
        t.push_back(source(r.prov));
        entry(std::move(t));
        modifier_lines(mods, 1);
    }
    success_odds();
    counted_odds_grids();
}

// A roll of dice counted at run time: one row per count, its totals, average and the
// chance of each threshold the rules compare it with (exact, before modifiers).
void builder::counted_odds_grids() {
    for (std::size_t i = 0; i < rs.rolls.size(); ++i) {
        const auto id = static_cast<ir::id>(i);
        const ir::roll& r = rs.rolls[i];
        if (r.linear) continue;
        const counted_odds odds = counted_distributions(rs, id);
        if (odds.by_count.empty()) continue;
        grid g;
        g.caption = "Odds of " + title_of(r.name) + " by the number of dice";
        g.anchor = anchors_text(r.prov);
        std::vector<threshold> ths;
        if (auto it = thresholds.find(id); it != thresholds.end()) ths = it->second;
        std::vector<cell> head{cell{{bold("Dice")}, align::left}, cell{{bold("Totals")}, align::left},
                               cell{{bold("Average")}, align::right}};
        for (const threshold& th : ths) head.push_back(cell{{bold(threshold_text(th))}, align::right});
        // the rows of each one-key table read with this roll (integer rows, no clamp)
        std::vector<const ir::table_row*> rows;
        for (ir::id tb : tables_reading(id)) {
            const ir::table& t = rs.tables[tb];
            if (t.keys.size() != 1 || t.keys[0].has_clamp || t.row_map.kind != ir::key_range_kind::integer) continue;
            for (const ir::table_row& row : t.rows) {
                rows.push_back(&row);
                head.push_back(cell{{bold(title_of(t.name) + " " + (row.label.empty() ? row.key.text : row.label))}, align::right});
            }
        }
        // every total's chance, when each count has few enough totals to list
        bool each = true;
        for (const auto& kd : odds.by_count) each = each && kd.second.weights.size() <= 13;
        if (each) head.push_back(cell{{bold("Each total")}, align::left});
        g.header.push_back(std::move(head));
        for (const auto& [k, d] : odds.by_count) {
            long double sum = 0;
            for (std::size_t w = 0; w < d.weights.size(); ++w)
                sum += static_cast<long double>(d.weights[w]) * static_cast<long double>(d.min + static_cast<std::int64_t>(w));
            char average[32];
            std::snprintf(average, sizeof average, "%.1Lf", sum / static_cast<long double>(d.total));
            std::vector<cell> row{cell{{text(number(k))}, align::left},
                                  cell{{text(d.min == d.max ? number(d.min) : range_text(d.min, d.max))}, align::left},
                                  cell{{text(average)}, align::right}};
            for (const threshold& th : ths) {
                chance c = chance_in(d, 0, threshold_range(th));
                if (th.code == ir::op::ne) c.ways = c.total - c.ways;
                row.push_back(cell{{text(percent_text(c))}, align::right});
            }
            for (const ir::table_row* tr : rows) row.push_back(cell{{text(percent_text(chance_in(d, 0, tr->key)))}, align::right});
            if (each) {
                std::string list;
                for (std::size_t w = 0; w < d.weights.size(); ++w)
                    list += (w ? ", " : "") + number(d.min + static_cast<std::int64_t>(w)) + ": " + percent_text({d.weights[w], d.total});
                row.push_back(cell{{text(list)}, align::left});
            }
            g.rows.push_back(std::move(row));
        }
        g.notes.push_back("The number of dice is " + english(rs, r.locals).expr(odds.count) + ".");
        if (!modifiers_of(rs, ir::target_kind::roll, id).empty()) g.notes.push_back("Before modifiers.");
        g.notes.push_back("Exact odds from the dice; percentages rounded to one decimal.");
        add(std::move(g));
    }
}

// One grid per span of net modifiers: the chance each compared roll reaches its threshold.
void builder::success_odds() {
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::pair<ir::id, threshold>>> by_span;
    std::map<std::pair<std::int64_t, std::int64_t>, std::set<std::string>> labels;
    for (const auto& [roll, list] : thresholds) {
        const ir::roll& r = rs.rolls[roll];
        if (r.dist.weights.empty()) continue;
        const bool modified = !modifiers_of(rs, ir::target_kind::roll, roll).empty();
        const modifier_span sp = modified ? odds_span(rs, roll) : modifier_span{0, 0, ""};
        for (const threshold& th : list) by_span[{sp.lo, sp.hi}].push_back({roll, th});
        if (modified) labels[{sp.lo, sp.hi}].insert(sp.label);
    }
    for (const auto& [range, list] : by_span) {
        grid g;
        g.caption = "Chance of success by net modifier";
        std::vector<cell> head{cell{{bold("Roll, needing")}, align::left}};
        for (std::int64_t m = range.first; m <= range.second; ++m)
            head.push_back(cell{{bold(range.first == range.second ? "Chance" : signed_number(m))}, align::right});
        g.header.push_back(std::move(head));
        std::string anchors;
        bool inexact = false;
        for (const auto& [roll, th] : list) {
            const ir::roll& r = rs.rolls[roll];
            std::vector<cell> row{cell{{text(title_of(r.name) + ", " + threshold_text(th)), muted(" " + anchors_text(r.prov))}, align::left}};
            const roll_bounds b = bounds_of(rs, roll);
            inexact = inexact || !b.exact;
            for (std::int64_t m = range.first; m <= range.second; ++m) {
                chance c = chance_in(r.dist, m, threshold_range(th), &b);
                if (th.code == ir::op::ne) c.ways = c.total - c.ways;  // the range is the one value it must not be
                row.push_back(cell{{text(percent_text(c))}, align::right});
            }
            g.rows.push_back(std::move(row));
        }
        std::string note = "Net modifier: the sum of every modifier that applies to the roll.";
        for (const std::string& l : labels[range])
            if (l != "net modifier") note += " With no other modifier it is the " + l + " (" + range_text(range.first, range.second) + ").";
        if (range.first != range.second) g.notes.push_back(note);
        g.notes.push_back("Exact odds from the dice; percentages rounded to one decimal.");
        if (inexact) g.notes.push_back(bounds_caveat);
        add(std::move(g));
    }
}

}  // namespace wp::docgen::detail
