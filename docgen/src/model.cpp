// The aid model of a ruleset. Sections, in the order a player needs them at the table:
// sequence of play, rolls with their modifiers and odds, tables, actions and who may take them,
// cards, limits and tracked values, what happens when, end of game and victory, then options
// and the layers the rules come from. Every entry carries its rulebook anchors.
#include "model.hpp"

#include "readings.hpp"
#include "terrain_chart.hpp"

#include "english.hpp"
#include "odds.hpp"

#include "westphalia/ir/print.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <sstream>

namespace wp::docgen {

namespace {

span bold(std::string s) { return {std::move(s), face::bold, false}; }
span text(std::string s) { return {std::move(s), face::regular, false}; }
span muted(std::string s) { return {std::move(s), face::regular, true}; }

bool contains(const ir::ruleset& rs, ir::id root, ir::op code) {
    bool found = false;
    visit(rs, root, [&](ir::id n) { found = found || rs.nodes[n].code == code; });
    return found;
}

// "Renewal roll" for a table/roll name, title-like.
std::string title_of(const std::string& identifier) { return capitalised(humanize(identifier)); }

// A bound this far from the other end is the engine's bookkeeping (gold 0..100000), not a limit
// of the game: the aid says "0 or more".
constexpr std::int64_t bookkeeping_span = 5000;

// "0 to 13", "−3 to +3" (a scale through zero shows both signs), "0 or more".
std::string range_text(std::int64_t lo, std::int64_t hi) {
    if (hi - lo > bookkeeping_span) {
        if (lo >= -bookkeeping_span) return number(lo) + " or more";
        if (hi <= bookkeeping_span) return number(hi) + " or less";
        return "any number";
    }
    return number(lo) + " to " + (lo < 0 ? signed_number(hi) : number(hi));
}

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

// Under odds that leave out a `=`, cap or floor applying only sometimes (or by a value of play).
constexpr const char* bounds_caveat =
    "Odds before the modifiers that set or bound the roll only sometimes (listed with the roll): where one applies, "
    "the roll becomes or is held to its value.";

struct builder {
    const ir::ruleset& rs;
    document doc;
    std::map<ir::id, std::vector<threshold>> thresholds = roll_thresholds(rs);
    table_readings readings = readings_of(rs);
    std::map<ir::id, std::string> charted;  // define rules the terrain charts print whole
    // The procedures and quantities play reaches under the chosen options (see `reach`).
    std::vector<bool> reached_procedures, reached_quantities;
    // The game's yes/no values no play under the options sets, at their first value.
    local_values fixed_flags;

    // From every root of play (sequences, actions, tables, rolls, rules the options leave in),
    // the procedures and quantities it calls, not following a branch the options rule out: a
    // scenario's aid lists only its own victory conditions.
    void reach() {
        reached_procedures.assign(rs.procedures.size(), false);
        reached_quantities.assign(rs.quantities.size(), false);
        std::function<void(ir::id)> from = [&](ir::id n) {
            if (n >= rs.nodes.size()) return;
            const ir::node& x = rs.nodes[n];
            const auto kids = ir::children_of(rs, n);
            if ((x.code == ir::op::if_ || x.code == ir::op::cond) && kids.size() >= 2)
                if (const auto v = static_value(rs, kids[0])) {
                    from(*v ? kids[1] : kids.size() > 2 ? kids[2] : ir::no_id);
                    return;
                }
            if (x.code == ir::op::call && x.ref < rs.procedures.size() && !reached_procedures[x.ref]) {
                reached_procedures[x.ref] = true;
                from(rs.procedures[x.ref].body);
            }
            if (x.code == ir::op::quantity && x.ref < rs.quantities.size() && !reached_quantities[x.ref]) {
                reached_quantities[x.ref] = true;
                from(rs.quantities[x.ref].expr);
            }
            for (ir::id k : kids) from(k);
        };
        for (const ir::sequence& q : rs.sequences) from(q.body);
        for (const ir::action& a : rs.actions) {
            from(a.guard);
            from(a.body);
        }
        for (const ir::rule& r : rs.rules)
            if (live(r) && r.kind != ir::rule_kind::example)
                for (ir::id root : {r.guard, r.body, r.value, r.amount}) from(root);
        for (std::size_t t = 0; t < rs.tables.size(); ++t) {
            for (const ir::table_key& k : rs.tables[t].keys) {
                from(k.expr);
                from(k.shift);
            }
            for (const ir::table_cell& c : rs.tables[t].cells) from(c.effects);
        }
        for (const ir::roll& r : rs.rolls) from(r.expr);
        std::set<ir::id> set;
        std::function<void(ir::id)> sets = [&](ir::id n) {
            if (n >= rs.nodes.size()) return;
            const ir::node& x = rs.nodes[n];
            const auto kids = ir::children_of(rs, n);
            if ((x.code == ir::op::if_ || x.code == ir::op::cond) && kids.size() >= 2)
                if (const auto v = static_value(rs, kids[0])) {
                    sets(*v ? kids[1] : kids.size() > 2 ? kids[2] : ir::no_id);
                    return;
                }
            if ((x.code == ir::op::assign || x.code == ir::op::add_assign || x.code == ir::op::sub_assign) && !kids.empty() &&
                rs.nodes[kids[0]].code == ir::op::global)
                set.insert(rs.nodes[kids[0]].ref);
            for (ir::id k : kids) sets(k);
        };
        for (const ir::sequence& q : rs.sequences) sets(q.body);
        for (const ir::action& a : rs.actions) sets(a.body);
        for (const ir::rule& r : rs.rules)
            if (live(r) && r.kind != ir::rule_kind::example) sets(r.body);
        for (const ir::table& tb : rs.tables)
            for (const ir::table_cell& c : tb.cells) sets(c.effects);
        for (std::size_t p = 0; p < rs.procedures.size(); ++p)
            if (reached_procedures[p]) sets(rs.procedures[p].body);
        // Only yes/no values: the engine sets others itself (a table's last result).
        for (std::size_t g = 0; g < rs.slots.size(); ++g) {
            const ir::slot& sl = rs.slots[g];
            if (sl.scope == ir::slot_scope::global && !sl.counter && sl.type < rs.types.size() &&
                rs.types[sl.type].kind == ir::type_kind::boolean && !set.count(static_cast<ir::id>(g)))
                fixed_flags[static_cast<ir::id>(g)] = sl.initial;
        }
    }

    void add(block b) { doc.blocks.push_back(std::move(b)); }

    // A rule whose guard the chosen options make false never applies: the aid leaves it out.
    bool live(const ir::rule& r) const {
        if (r.guard == ir::no_id) return true;
        const auto v = static_value(rs, r.guard);
        return !v || *v != 0;
    }
    // " when <guard>", or nothing when the rule always applies (no guard, or one the chosen
    // options make true).
    std::string when(const english& en, ir::id guard) const {
        if (guard == ir::no_id) return "";
        if (const auto v = static_value(rs, guard); v && *v) return "";
        return " when " + en.condition(guard);
    }
    std::size_t dead_rules() const {
        std::size_t n = 0;
        for (const ir::rule& r : rs.rules) n += !live(r);
        return n;
    }
    void section(const std::string& title) { add(heading{1, title, ""}); }
    void entry(rich_text t, int indent = 0, bool small = false) { add(paragraph{std::move(t), indent, small}); }

    std::string layer_note(const ir::provenance& p) const {
        if (p.layer >= rs.layers.size() || rs.layers[p.layer].kind == ir::layer_kind::base) return "";
        return " [" + rs.layers[p.layer].name + "]";
    }
    // The muted tail of an entry: anchors and, when not the base layer, the layer.
    span source(const ir::provenance& p) const {
        const std::string a = anchors_text(p);
        const std::string l = layer_note(p);
        return muted((a.empty() ? "" : " " + a) + l);
    }

    // English for one element, with locals bound to rolls read as "the <roll>".
    english speaker(const std::vector<ir::local>& frame, const std::vector<ir::id>& roots) const {
        english en(rs, frame);
        std::vector<ir::id> scoped;
        for (ir::id root : roots)
            if (root != ir::no_id) scoped.push_back(root);
        en.scope_roles(scoped);
        for (ir::id root : roots)
            visit(rs, root, [&](ir::id n) {
                const ir::node& x = rs.nodes[n];
                const auto kids = ir::children_of(rs, n);
                if (x.code == ir::op::let && kids.size() == 1 && rs.nodes[kids[0]].code == ir::op::roll &&
                    rs.nodes[kids[0]].ref < rs.rolls.size())
                    en.name_local(x.ref, "the " + humanize(rs.rolls[rs.nodes[kids[0]].ref].name));
            });
        return en;
    }

    // ------------------------------------------------------------ header and footer

    void header_and_footer() {
        doc.title = rs.title.empty() ? title_of(rs.name) : rs.title;
        const std::string players = rs.min_players == rs.max_players
                                        ? std::to_string(rs.min_players)
                                        : std::to_string(rs.min_players) + "–" + std::to_string(rs.max_players);
        // One aid per scenario: the one it is made for is named under the title.
        std::string scenario;
        for (const ir::option& o : rs.options)
            if (o.name == "scenario" && o.selected_index < o.values.size())
                scenario = " · scenario " + constant_english(rs, o.type, o.values[o.selected_index]);
        doc.subtitle = "Player aid · " + players + " players" + scenario + " · every entry cites its rulebook section (§)";
        std::string layers;
        std::size_t errata_ops = 0;
        for (const ir::layer& l : rs.layers)
            layers += (layers.empty() ? "" : ", ") + l.name +
                      (l.kind == ir::layer_kind::base || l.name == ir::name_of(l.kind) ? "" : " (" + std::string(ir::name_of(l.kind)) + ")");
        errata_ops = rs.errata.size();
        std::string line = doc.title;
        line += " · layers: " + layers;
        if (!rs.upto.empty()) line += " (up to " + rs.upto + ")";
        std::set<std::string> editions;
        for (const ir::errata_op& e : rs.errata) {
            std::string t = e.title;
            // "… errata 2026, no. 3: subject" -> the edition "… errata 2026"
            if (auto cut = t.find(", no."); cut != std::string::npos) t = t.substr(0, cut);
            else if (auto colon = t.find(':'); colon != std::string::npos) t = t.substr(0, colon);
            editions.insert(t);
        }
        std::string errata;
        for (const std::string& e : editions) errata += (errata.empty() ? "" : "; ") + e;
        line += errata.empty() ? " · no errata" : " · errata: " + errata + " (" + std::to_string(errata_ops) + " changes)";
        doc.footer.push_back(line);
        // Only the options that differ from their defaults: the options section lists them all.
        std::string chosen;
        std::size_t declared = 0;
        for (const ir::option& o : rs.options) {
            if (o.values.empty()) continue;
            ++declared;
            if (o.selected_index == o.default_index) continue;
            chosen += (chosen.empty() ? "" : ", ") + humanize(o.name) + " = " + constant_english(rs, o.type, o.values.at(o.selected_index));
        }
        if (declared == 0) doc.footer.push_back("options: none declared");
        else if (chosen.empty()) doc.footer.push_back("options: all " + std::to_string(declared) + " at defaults");
        else doc.footer.push_back("options chosen: " + chosen + "; the other options at their defaults");
    }

    // ------------------------------------------------------------ sequence of play

    // A numbered list, as on a published aid: the phases and steps inside a turn or a setup are
    // "1. Fate", "2.1 Renewal", "2.1.1 Renegotiation"; a turn or the setup is named alone.
    static bool numbered(const ir::block& b) { return b.word == "phase" || b.word == "step"; }

    std::string block_title(const ir::block& b, const std::string& number) const {
        const std::string name = b.name.empty() ? capitalised(b.word) : capitalised(humanize(b.name));
        if (number.empty()) {
            // "turn contractor_turn" reads "Contractor turn", not "Turn Contractor turn".
            return b.name.empty() || humanize(b.name).find(b.word) != std::string::npos ? name : capitalised(b.word) + " · " + name;
        }
        return number + (number.find('.') == std::string::npos ? ". " : " ") + name;
    }

    void nested_blocks(const english& en, const std::vector<ir::id>& nested, int depth, const std::string& prefix) {
        int k = 0;  // a block the options leave empty is not printed, and takes no number
        for (ir::id n : nested) {
            const bool counted = numbered(rs.blocks[n]);
            const std::string number = counted ? (prefix.empty() ? "" : prefix + ".") + std::to_string(k + 1) : "";
            if (sequence_block(en, n, depth, number) && counted) ++k;
        }
    }

    // Whether it printed anything.
    bool sequence_block(const english& en, ir::id b, int depth, const std::string& number) {
        const ir::block& bl = rs.blocks[b];
        const auto kids = ir::children_of(rs, bl.node);
        std::vector<ir::id> nested;
        std::string what = kids.empty() ? "" : en.statements(kids[0], &nested, true);
        if (what.empty() && nested.empty()) return false;  // nothing happens here under the chosen options
        // The designer's own words stand for the block's statements (its nested blocks still follow).
        if (!bl.aid.empty()) what = bl.aid;
        rich_text t{bold(block_title(bl, number))};
        if (!what.empty()) t.push_back(text(": " + what));
        t.push_back(source(bl.prov));
        entry(std::move(t), depth);
        if (bl.word == "setup" && !kids.empty()) deployment(en, kids[0], depth + 1);
        nested_blocks(en, nested, depth + 1, number);
        return true;
    }

    // Whether option `o` decides anything in what `n` reaches through procedures and quantities.
    bool reads_option(ir::id n, ir::id o, std::set<ir::id>& seen) const {
        bool found = false;
        visit(rs, n, [&](ir::id m) {
            const ir::node& x = rs.nodes[m];
            if (found) return;
            if (x.code == ir::op::option && x.ref == o) found = true;
            else if (x.code == ir::op::call && x.ref < rs.procedures.size() && seen.insert(x.ref).second)
                found = reads_option(rs.procedures[x.ref].body, o, seen);
        });
        return found;
    }

    // A scenario's deployment: each call of the setup that the `scenario` option decides, read for
    // the chosen scenario, with the procedures its constants decide expanded ("deploy units
    // (Bavarian Army, Infantry, 14, aug3 line)") instead of the setup's "deploy"; and each call
    // that places pieces from their data, read piece by piece ("Tilly: …").
    void deployment(const english& en, ir::id body, int indent) {
        ir::id scenario = ir::no_id;
        for (std::size_t o = 0; o < rs.options.size(); ++o)
            if (rs.options[o].name == "scenario" && rs.options[o].selected_index < rs.options[o].values.size()) scenario = static_cast<ir::id>(o);
        if (scenario == ir::no_id) return;
        const ir::option& o = rs.options[scenario];
        std::vector<ir::id> statements{body};
        if (rs.nodes[body].code == ir::op::seq) {
            const auto kids = ir::children_of(rs, body);
            statements.assign(kids.begin(), kids.end());
        }
        english expanded = en;
        expanded.expand_calls(3);
        expanded.fix_globals(&fixed_flags);
        for (ir::id st : statements) {
            const ir::node& x = rs.nodes[st];
            std::set<ir::id> seen;
            if (x.code != ir::op::call || x.ref >= rs.procedures.size()) continue;
            // what the scenario decides, or what the pieces' and spaces' data place
            const std::string what = expanded.statements(st);
            if (what.empty() || (!reads_option(st, scenario, seen) && what == en.statements(st))) continue;
            entry({bold("Deployment, " + constant_english(rs, o.type, o.values[o.selected_index])), text(": " + what),
                   source(rs.procedures[x.ref].prov)}, indent);
        }
    }

    void sequence_of_play() {
        if (rs.sequences.empty()) return;
        section("Sequence of play");
        for (const ir::sequence& s : rs.sequences) {
            const english en = speaker(s.locals, {s.body});
            std::vector<ir::id> nested;
            const std::string top = en.statements(s.body, &nested, true);
            entry({bold(title_of(s.name)), text(": " + top), source(s.prov)});
            nested_blocks(en, nested, 1, "");
        }
    }

    // ------------------------------------------------------------ rolls, modifiers, odds

    std::vector<ir::id> tables_reading(ir::id roll) const {
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
    void modifier_lines(const std::vector<ir::id>& mods, int indent) {
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

    void rolls() {
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
    void counted_odds_grids() {
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
    void success_odds() {
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

    // ------------------------------------------------------------ tables

    // A row or column key: a member of an enum by its label ("Lower Palatinate", not the
    // rule language's Lower_Palatinate), else as printed.
    std::string key_words(const ir::table& tb, std::size_t axis, const ir::key_range& k, bool natural = false) const {
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

    std::string key_label(const ir::table& tb, std::size_t k) const {
        const ir::table_key& key = tb.keys[k];
        const ir::node& e = rs.nodes[key.expr];
        if (key.source == ir::key_source::roll && e.code == ir::op::roll && e.ref < rs.rolls.size()) {
            const ir::roll& r = rs.rolls[e.ref];
            return r.linear ? dice_text(r) + (modifiers_of(rs, ir::target_kind::roll, e.ref).empty() ? "" : " + mod.") : title_of(r.name);
        }
        if (key.var < tb.locals.size() && key.source == ir::key_source::key) return title_of(tb.locals[key.var].name);
        return english(rs, tb.locals).expr(key.expr);
    }

    std::string cell_result(const ir::table& tb, const ir::table_cell& c) const {
        if (!c.has_outcome) return "—";
        return constant_english(rs, tb.outcome_type, c.outcome);
    }

    void table_grid(ir::id t) {
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
            bool any_effects = false, any_label = false;
            for (std::size_t r = 0; r < tb.rows.size(); ++r) {
                any_effects = any_effects || tb.cells[r].effects != ir::no_id;
                any_label = any_label || !tb.rows[r].label.empty() || tb.cells[r].has_outcome;
            }
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
                    const std::string effect = c.effects == ir::no_id ? "" : en.statements(c.effects);
                    line.push_back(cell{{text(effect.empty() ? "—" : effect), muted(layer_note(row.prov))}, align::left});
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
        if (tb.standin != ir::no_id && tb.standin < rs.standins.size())
            g.notes.push_back("Stand-in data, not from the rulebook: " + rs.standins[tb.standin].why);
        if (!tb.aid.empty()) g.notes.push_back(tb.aid);
        add(std::move(g));
        if (tb.columns.empty()) table_odds(t);
    }

    // The chance of each row of a table read with a modified roll, by net modifier.
    void table_odds(ir::id t) {
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

    void tables() {
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
    void each_element(const std::function<void(const std::string&, const std::vector<ir::local>&, std::vector<ir::id>)>& f) const {
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
    std::vector<std::int64_t> tested_members(ir::id c, ir::id e, ir::id* rest = nullptr, std::set<ir::id>* used = nullptr) const {
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
    void results_key(ir::id t) {
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
            if (r.kind != ir::rule_kind::trigger && r.kind != ir::rule_kind::example && live(r))
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

    // ------------------------------------------------------------ zones of control and stacking

    // What every hex-and-counter aid summarises, from the ruleset's outline: its entries on zones
    // of control and stacking (their titles are the ruleset's own summaries, with their anchors),
    // and every entry of a chapter whose head entry is one (`7.0` takes `7.11`, `7.12`, …).
    void zones_and_stacking() {
        auto about = [](std::string title) {
            std::transform(title.begin(), title.end(), title.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            for (const char* w : {"zone of control", "zones of control", "stacking", "overstack"})
                if (title.find(w) != std::string::npos) return true;
            return false;
        };
        std::vector<std::string> chapters;  // "7." for a matched "7.0"
        std::vector<const ir::section*> picked;
        for (const ir::section& sec : rs.sections) {
            if (sec.status == ir::section_status::flavour) continue;
            const bool in_chapter = std::any_of(chapters.begin(), chapters.end(), [&](const std::string& c) { return sec.first.rfind(c, 0) == 0; });
            if (!about(sec.title) && !in_chapter) continue;
            picked.push_back(&sec);
            if (sec.first.size() > 2 && sec.first.compare(sec.first.size() - 2, 2, ".0") == 0)
                chapters.push_back(sec.first.substr(0, sec.first.size() - 1));
        }
        if (picked.empty()) return;
        section("Zones of control and stacking");
        for (const ir::section* sec : picked) {
            // "§L220-223", as every other anchor of the aid prints a range.
            std::string last = sec->last;
            while (!last.empty() && !std::isdigit(static_cast<unsigned char>(last[0])) && sec->first.find(last[0]) == 0) last.erase(0, 1);
            entry({text(sec->title), muted(" §" + sec->first + (last.empty() ? "" : "-" + last))}, 0, true);
        }
    }

    // ------------------------------------------------------------ actions and legality

    std::vector<ir::id> rules_on(ir::target_kind kind, ir::id target, std::initializer_list<ir::rule_kind> kinds) const {
        std::vector<ir::id> out;
        for (std::size_t i = 0; i < rs.rules.size(); ++i) {
            const ir::rule& r = rs.rules[i];
            if (r.target == kind && r.target_id == target && std::find(kinds.begin(), kinds.end(), r.kind) != kinds.end())
                out.push_back(static_cast<ir::id>(i));
        }
        return out;
    }

    // " (winner, high, low)": the parameters a reader needs by name; those the text calls by their
    // role ("the player") are left out.
    std::string params_text(const std::vector<ir::local>& locals, std::size_t count) const {
        return english(rs, locals).parameters(count, false);
    }
    // " (a player, another player, a card, a roll kind)": what an action is taken with.
    std::string typed_params(const std::vector<ir::local>& locals, std::size_t count) const {
        return english(rs, locals).parameters(count, true);
    }

    void actions() {
        if (rs.actions.empty()) return;
        section("Actions and who may take them");
        for (std::size_t i = 0; i < rs.actions.size(); ++i) {
            const ir::action& a = rs.actions[i];
            const english en = speaker(a.locals, {a.guard, a.body});
            rich_text t{bold(title_of(a.name)), text(typed_params(a.locals, a.param_count))};
            if (a.guard != ir::no_id) t.push_back(text(": allowed when " + en.expr(a.guard)));
            t.push_back(text(". Does: " + en.statements(a.body)));
            if (!a.aid.empty()) t.push_back(text(". " + capitalised(a.aid)));
            t.push_back(source(a.prov));
            entry(std::move(t));
            for (ir::id r : rules_on(ir::target_kind::action, static_cast<ir::id>(i),
                                     {ir::rule_kind::forbid, ir::rule_kind::permit, ir::rule_kind::require})) {
                const ir::rule& rule = rs.rules[r];
                if (!live(rule)) continue;
                const english ren = speaker(rule.locals, {rule.guard});
                const char* word = rule.kind == ir::rule_kind::forbid ? "Not allowed" : rule.kind == ir::rule_kind::permit ? "Allowed" : "Required";
                rich_text line{bold(word)};
                line.push_back(text(rule.aid.empty() ? (when(ren, rule.guard).empty() ? " always" : when(ren, rule.guard)) : ": " + rule.aid));
                line.push_back(source(rule.prov));
                entry(std::move(line), 1, true);
            }
        }
    }

    // ------------------------------------------------------------ cards and pieces

    std::string field_value(const ir::field& f, std::int64_t v) const {
        const ir::type& t = rs.types[f.type];
        if (t.kind == ir::type_kind::boolean) return v ? humanize(f.name) : "";
        if (t.kind == ir::type_kind::range || t.kind == ir::type_kind::integer)
            return humanize(f.name) + " " + (t.lo < 0 ? signed_number(v) : number(v));
        return humanize(f.name) + ": " + constant_english(rs, f.type, v);
    }

    void components() {
        for (std::size_t k = 0; k < rs.entity_kinds.size(); ++k) {
            const ir::entity_kind& kind = rs.entity_kinds[k];
            if (kind.entity_count == 0) continue;
            const ir::record* rec = kind.record < rs.records.size() ? &rs.records[kind.record] : nullptr;
            // Group by the record's first enumeration field (a card's type letter).
            std::size_t group_field = rec ? rec->fields.size() : 0;
            for (std::size_t f = 0; rec && f < rec->fields.size(); ++f)
                if (rs.types[rec->fields[f].type].kind == ir::type_kind::enumeration) {
                    group_field = f;
                    break;
                }
            std::vector<ir::id> order;
            std::int64_t total = 0;
            for (ir::id e = kind.first_entity; e < kind.first_entity + kind.entity_count; ++e) {
                order.push_back(e);
                total += rs.entities[e].count;
            }
            const bool grouped = rec && group_field < rec->fields.size();
            if (grouped)
                std::stable_sort(order.begin(), order.end(), [&](ir::id a, ir::id b) {
                    return rs.entities[a].values[group_field] < rs.entities[b].values[group_field];
                });
            grid g;
            // "Cards (82)" for a kind named `card`; "General pieces (2)" for `general`.
            const std::string noun = kind.pieces ? "pieces" : "cards";
            std::string name = humanize(kind.name);
            if (name + "s" == noun || name == noun) name = capitalised(noun);
            else if (name.find(noun.substr(0, noun.size() - 1)) == std::string::npos) name = capitalised(name) + " " + noun;
            else name = capitalised(name);
            g.caption = name + " (" + std::to_string(total) + ")";
            g.anchor = anchors_text(kind.prov) + layer_note(kind.prov);
            std::vector<cell> head;
            if (grouped) head.push_back(cell{{bold(capitalised(humanize(rec->fields[group_field].name)))}, align::left});
            head.push_back(cell{{bold("×")}, align::right});
            head.push_back(cell{{bold("Name")}, align::left});
            head.push_back(cell{{bold("Effect")}, align::left});
            g.header.push_back(std::move(head));
            // Cards of one type with the same effect share a row: "Pikemen ×3, Arquebusiers ×4".
            struct merged {
                std::int64_t group = -1;
                std::string effect;
                std::string names;
                std::int64_t count = 0;
            };
            std::vector<merged> lines;
            for (ir::id e : order) {
                const ir::entity& x = rs.entities[e];
                std::string effect;
                for (std::size_t f = 0; rec && f < rec->fields.size() && f < x.values.size(); ++f) {
                    if (grouped && f == group_field) continue;
                    const ir::field& fd = rec->fields[f];
                    if (fd.has_default && x.values[f] == fd.default_value) continue;
                    const std::string v = field_value(fd, x.values[f]);
                    if (!v.empty()) effect += (effect.empty() ? "" : ", ") + v;
                }
                const std::int64_t gv = grouped ? x.values[group_field] : -1;
                auto it = std::find_if(lines.begin(), lines.end(), [&](const merged& m) { return m.group == gv && m.effect == effect; });
                if (it == lines.end()) it = lines.insert(lines.end(), merged{gv, effect, "", 0});
                const std::string name = x.display.empty() ? humanize(x.name) : x.display;
                it->names += (it->names.empty() ? "" : ", ") + name + (x.count > 1 ? " ×" + std::to_string(x.count) : "");
                it->count += x.count;
            }
            std::int64_t previous = -1;
            for (const merged& m : lines) {
                std::vector<cell> row;
                if (grouped) {
                    std::string label;
                    if (m.group != previous) {
                        const ir::type& t = rs.types[rec->fields[group_field].type];
                        const ir::enum_member& mem = rs.enums[t.ref].members[static_cast<std::size_t>(m.group)];
                        label = mem.label.empty() ? mem.name : mem.label + " (" + mem.name + ")";
                    }
                    previous = m.group;
                    row.push_back(cell{{bold(label)}, align::left});
                }
                row.push_back(cell{{text(std::to_string(m.count))}, align::right});
                row.push_back(cell{{text(m.names)}, align::left});
                row.push_back(cell{{text(m.effect.empty() ? "—" : m.effect)}, align::left});
                g.rows.push_back(std::move(row));
            }
            if (kind.standin != ir::no_id && kind.standin < rs.standins.size())
                g.notes.push_back("Stand-in data, not from the rulebook: " + rs.standins[kind.standin].why);
            g.notes.push_back(grouped ? "×: copies in the game. Those of one " + humanize(rec->fields[group_field].name) +
                                            " with the same effect share a row."
                                      : "×: copies in the game.");
            add(std::move(g));
        }
    }

    void components_section() {
        bool any = false;
        for (const ir::entity_kind& k : rs.entity_kinds) any = any || k.entity_count > 0;
        if (!any && rs.maps.empty()) return;
        section(rs.maps.empty() ? "Cards and pieces" : "Cards, pieces and maps");
        components();
        maps();
    }

    // A map in a few lines: its spaces (with terrain), then its edges or hexsides by kind.
    void maps() {
        for (const ir::map& m : rs.maps) {
            const bool hexes = m.kind == ir::map_kind::hexgrid;
            rich_text t{bold(title_of(m.name)),
                        text(std::string(hexes ? " (hex grid, " : " (area map, ") + std::to_string(m.nodes.size()) + (hexes ? " hexes)" : " spaces)"))};
            if (m.standin != ir::no_id && m.standin < rs.standins.size()) t.push_back(text(" — stand-in data: " + rs.standins[m.standin].why));
            // Up to 40 spaces by name; a larger map by how many of each terrain.
            constexpr std::size_t listed = 40;
            std::string spaces;
            std::map<std::string, int> terrains;
            for (const ir::map_node& n : m.nodes) {
                std::string one = n.display.empty() ? n.name : n.display;
                std::string terrain = "no terrain";
                if (n.terrain >= 0 && m.terrain_enum < rs.enums.size() && static_cast<std::size_t>(n.terrain) < rs.enums[m.terrain_enum].members.size()) {
                    const ir::enum_member& e = rs.enums[m.terrain_enum].members[static_cast<std::size_t>(n.terrain)];
                    terrain = e.label.empty() ? e.name : e.label;
                    one += " (" + terrain + ")";
                }
                ++terrains[terrain];
                spaces += (spaces.empty() ? "" : ", ") + one;
            }
            if (m.nodes.size() > listed) {
                spaces.clear();
                for (const auto& [name, count] : terrains) spaces += (spaces.empty() ? "" : ", ") + name + " ×" + std::to_string(count);
            }
            if (!spaces.empty()) t.push_back(text(": " + spaces));
            std::map<std::string, int> kinds;
            for (const ir::map_edge& e : m.edges) {
                if (e.kinds.empty()) ++kinds["plain"];
                for (std::int64_t k : e.kinds)
                    if (m.edge_enum < rs.enums.size() && k >= 0 && static_cast<std::size_t>(k) < rs.enums[m.edge_enum].members.size()) {
                        const ir::enum_member& x = rs.enums[m.edge_enum].members[static_cast<std::size_t>(k)];
                        ++kinds[x.label.empty() ? x.name : x.label];
                    }
            }
            std::string edges;
            for (const auto& [k, count] : kinds) edges += (edges.empty() ? "" : ", ") + k + " ×" + std::to_string(count);
            if (!edges.empty()) t.push_back(text(std::string(hexes ? "; hexsides: " : "; connections: ") + edges));
            t.push_back(source(m.prov));
            entry(std::move(t), 0, true);
        }
    }

    // ------------------------------------------------------------ limits and tracked values

    void limits() {
        section("Limits");
        const std::size_t start = doc.blocks.size();
        for (const ir::type_alias& a : rs.aliases) {
            const ir::type& t = rs.types[a.type];
            if (t.kind != ir::type_kind::range) continue;
            // A bound the engine needs only for bookkeeping (0..100000) is not a limit of the game:
            // only the other end is printed ("never below 0").
            std::string words = range_text(t.lo, t.hi);
            if (t.hi - t.lo > bookkeeping_span && t.lo >= -bookkeeping_span) {
                words = t.policy == ir::overflow::clamp ? number(t.lo) + " or more; a loss below " + number(t.lo) + " stops at " + number(t.lo)
                      : t.policy == ir::overflow::error ? "never below " + number(t.lo) : words;
            } else if (t.hi - t.lo > bookkeeping_span && t.hi <= bookkeeping_span) {
                words = t.policy == ir::overflow::clamp ? number(t.hi) + " or less; a gain above " + number(t.hi) + " stops at " + number(t.hi)
                      : t.policy == ir::overflow::error ? "never above " + number(t.hi) : words;
            } else {
                words += t.policy == ir::overflow::clamp ? "; a change past either end stops at that end"
                       : t.policy == ir::overflow::error ? "; it may never go outside" : "";
            }
            entry({bold(title_of(a.name)), text(": " + words), source(a.prov)});
        }
        for (std::size_t q = 0; q < rs.quantities.size(); ++q) {
            if (!reached_quantities[q]) continue;  // only other options' rules read it
            const ir::derived& d = rs.quantities[q];
            const auto mods = modifiers_of(rs, ir::target_kind::quantity, static_cast<ir::id>(q));
            if (d.predicate || (mods.empty() && d.aid.empty())) continue;
            const english en = speaker(d.locals, {d.expr});
            // The designer's own text, when given, stands instead of the generated English (as for rules).
            rich_text t{bold(title_of(d.name) + params_text(d.locals, d.param_count)), text(": " + (d.aid.empty() ? en.expr(d.expr) : d.aid))};
            if (!mods.empty()) t.push_back(text(" + modifiers"));
            t.push_back(source(d.prov));
            entry(std::move(t));
            modifier_lines(mods, 1);
        }
        if (doc.blocks.size() == start) doc.blocks.pop_back();  // nothing to list: no heading
        // What the engine tracks (each player's fields, each piece's, the game's flags and
        // counters) and the invariants the checker proves are the rules' bookkeeping, not rules
        // a player applies: `westphalia info` lists them. The ranges above, which the rules
        // impose, stay.
    }

    // ------------------------------------------------------------ triggers, end of game, victory

    void trigger_entry(const ir::rule& r) {
        if (!live(r)) return;
        const english en = speaker(r.locals, {r.guard, r.body});
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
    bool is_victory(const ir::decision& d) const {
        return d.name == "wins" && d.params.size() == 1 && d.params[0].type < rs.types.size() &&
               rs.types[d.params[0].type].kind == ir::type_kind::player;
    }

    void end_and_victory() {
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
            entry({bold(title_of(p.name) + params_text(p.locals, p.param_count)), text(": " + en.statements(p.body)), source(p.prov)});
        }
        decisions(true);
    }

    void other_decisions() {
        bool any = false;
        for (const ir::decision& d : rs.decisions) any = any || !is_victory(d);
        if (!any) return;
        section("Decisions");
        decisions(false);
    }

    // One entry per decision, its rules in a run: "May exit: false always §6.0; true when … §17.33".
    // A decision whose every rule the terrain effects chart prints whole points to the chart.
    void decisions(bool victory) {
        for (std::size_t d = 0; d < rs.decisions.size(); ++d) {
            const ir::decision& dec = rs.decisions[d];
            if (is_victory(dec) != victory) continue;
            std::vector<ir::id> rules;
            for (ir::id r : rules_on(ir::target_kind::decision, static_cast<ir::id>(d), {ir::rule_kind::define}))
                if (live(rs.rules[r])) rules.push_back(r);
            rich_text t{bold(title_of(dec.name) + params_text(dec.params, dec.params.size()))};
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
                t.push_back(bold((i ? "; " : " ") + en.expr(rule.value)));
                t.push_back(text(rule.aid.empty() ? (when(en, rule.guard).empty() ? " always" : when(en, rule.guard)) : ": " + rule.aid));
                t.push_back(source(rule.prov));
            }
            if (rules.empty()) t.push_back(text(" no rule decides it under the chosen options"));
            entry(std::move(t));
        }
    }

    void triggers() {
        bool any = false;
        for (const ir::rule& r : rs.rules) any = any || (r.kind == ir::rule_kind::trigger && !contains(rs, r.body, ir::op::end_game));
        if (!any) return;
        section("What happens when");
        for (const ir::rule& r : rs.rules)
            if (r.kind == ir::rule_kind::trigger && !contains(rs, r.body, ir::op::end_game)) trigger_entry(r);
    }

    // ------------------------------------------------------------ options and sources

    // Options in one run of text, each with the value in force in bold: a player needs what is
    // in force, with the anchors of the passages it decides.
    void options_paragraph() {
        if (rs.options.empty()) return;
        rich_text t{bold("Options. ")};
        for (std::size_t i = 0; i < rs.options.size(); ++i) {
            const ir::option& o = rs.options[i];
            if (i) t.push_back(text("; "));
            t.push_back(text(title_of(o.name) + " "));
            if (o.values.empty()) { t.push_back(source(o.prov)); continue; }
            t.push_back(bold(constant_english(rs, o.type, o.values.at(o.selected_index))));
            // Only the value in force: `westphalia info` lists the alternatives.
            std::string note = o.selected_index == o.default_index ? "" : "chosen; default " + constant_english(rs, o.type, o.values.at(o.default_index));
            if (!o.aid.empty()) note += (note.empty() ? "" : "; ") + o.aid;
            if (!note.empty()) t.push_back(text(" (" + note + ")"));
            t.push_back(muted(" " + anchors_text(o.prov)));
        }
        t.push_back(text("."));
        std::string left;
        if (const std::size_t dead = dead_rules())
            left = std::to_string(dead) + " rule" + (dead == 1 ? "" : "s") + " for other values, and the steps they empty";
        for (const std::string& table : readings.left_out) left += (left.empty() ? "the " : "; the ") + table;
        if (!left.empty()) t.push_back(muted(" Left out: " + left + "."));
        entry(std::move(t), 0, true);
    }

    // Errata in one run per edition, grouped by kind: "Corrections: no. 1 when the game ends §…;
    // no. 2 …". The footer names the editions too; this says what each block changes and where.
    void errata_paragraphs() {
        struct item {
            ir::errata_kind kind;
            std::string subject;
            const ir::provenance* prov;
        };
        std::vector<std::pair<std::string, std::vector<item>>> editions;  // in the order they apply
        for (std::size_t i = 0; i < rs.errata.size(); ++i) {
            const ir::errata_op& e = rs.errata[i];
            if (i > 0 && rs.errata[i - 1].title == e.title && rs.errata[i - 1].layer == e.layer) continue;
            std::string edition = e.title, subject;
            if (auto cut = e.title.find(", no."); cut != std::string::npos) {
                edition = e.title.substr(0, cut);
                subject = e.title.substr(cut + 2);  // "no. 3: a tie …"
                // "no. 3" never breaks between its words (a no-break space), and reads "no. 3 a tie …".
                if (subject.rfind("no. ", 0) == 0) subject.replace(3, 1, "\u00a0");
                if (auto colon = subject.find(": "); colon != std::string::npos) subject.erase(colon, 1);
            } else if (auto colon = e.title.find(':'); colon != std::string::npos) {
                edition = e.title.substr(0, colon);
                subject = e.title.substr(colon + 2);
            }
            auto it = std::find_if(editions.begin(), editions.end(), [&](const auto& x) { return x.first == edition; });
            if (it == editions.end()) it = editions.insert(editions.end(), {edition, {}});
            it->second.push_back({e.kind, subject, &e.prov});
        }
        for (const auto& [edition, items] : editions) {
            rich_text t{bold(edition + ". ")};
            bool first_group = true;
            for (ir::errata_kind kind : {ir::errata_kind::correction, ir::errata_kind::addition, ir::errata_kind::clarification}) {
                bool first = true;
                for (const item& x : items) {
                    if (x.kind != kind) continue;
                    if (first) {
                        const std::string plural = capitalised(std::string(ir::name_of(kind))) + "s: ";
                        t.push_back(first_group ? bold(plural) : bold(" " + plural));
                        first_group = false;
                    } else {
                        t.push_back(text("; "));
                    }
                    first = false;
                    if (!x.subject.empty()) t.push_back(text(x.subject));
                    t.push_back(muted((x.subject.empty() ? "" : " ") + anchors_text(*x.prov)));
                }
                if (!first) t.push_back(text("."));
            }
            entry(std::move(t), 0, true);
        }
    }

    void options_and_sources() {
        section("Options, errata and data");
        options_paragraph();
        errata_paragraphs();
        if (!rs.missing_data.empty()) {
            rich_text t{bold("Missing from the rulebook: ")};
            for (std::size_t i = 0; i < rs.missing_data.size(); ++i) {
                const ir::missing& m = rs.missing_data[i];
                if (i) t.push_back(text("; "));
                t.push_back(text(humanize(m.name) + " — " + m.what));
                t.push_back(source(m.prov));
            }
            entry(std::move(t), 0, true);
        }
        for (const ir::standin& s : rs.standins)
            entry({bold("Stand-in data: "), text(std::string(ir::name_of(s.kind)) + " — " + s.why), source(s.prov)}, 0, true);
    }
};

}  // namespace

document build_document(const ir::ruleset& rs) {
    builder b{rs, {}, roll_thresholds(rs), readings_of(rs), {}, {}, {}, {}};
    b.reach();
    b.header_and_footer();
    b.sequence_of_play();
    b.rolls();
    b.tables();
    b.zones_and_stacking();
    b.actions();
    b.components_section();
    b.limits();
    b.end_and_victory();
    b.other_decisions();
    b.triggers();
    b.options_and_sources();
    return std::move(b.doc);
}

document test_page_document() {
    document doc;
    doc.title = "Character test page — Österreich, Lützen";
    doc.subtitle = "Every character the bundled games use, in each embedded font";
    doc.footer.push_back("Westphalia character test page");
    const std::string sample = "Österreich Lützen Würzburg Mähren — 3 × 4 ½ ≤ ≥ − ± § “quoted” ‘single’ …";
    doc.blocks.push_back(heading{1, "Regular, bold and mono", ""});
    doc.blocks.push_back(paragraph{{text(sample)}, 0, false});
    doc.blocks.push_back(paragraph{{span{sample, face::bold, false}}, 0, false});
    doc.blocks.push_back(paragraph{{span{sample, face::mono, false}}, 0, false});
    grid g;
    g.caption = "In a table";
    g.anchor = "§1.2";
    g.header.push_back({cell{{bold("Character")}, align::left}, cell{{bold("Sample")}, align::left}});
    const std::pair<const char*, const char*> rows[] = {
        {"O with umlaut", "Österreich"}, {"u with umlaut", "Lützen"}, {"em dash", "Breitenfeld — Lützen"},
        {"multiplication", "2 × 3"},     {"one half", "½ move"},    {"less or equal", "odds ≤ 1-2"},
    };
    for (const auto& [name, s] : rows) g.rows.push_back({cell{{text(name)}, align::left}, cell{{text(s)}, align::left}});
    doc.blocks.push_back(std::move(g));
    return doc;
}

std::string document_text(const document& doc) {
    std::ostringstream out;
    auto flat = [](const rich_text& t) {
        std::string s;
        for (const span& x : t) s += x.text;
        return s;
    };
    out << "# " << doc.title << "\n" << doc.subtitle << "\n";
    for (const block& b : doc.blocks) {
        if (const auto* h = std::get_if<heading>(&b)) {
            out << "\n" << (h->level == 1 ? "## " : "### ") << h->text << (h->anchor.empty() ? "" : "  " + h->anchor) << "\n";
        } else if (const auto* p = std::get_if<paragraph>(&b)) {
            out << std::string(static_cast<std::size_t>(p->indent) * 2, ' ') << flat(p->text) << "\n";
        } else if (const auto* g = std::get_if<grid>(&b)) {
            out << "[" << g->caption << (g->anchor.empty() ? "" : "  " + g->anchor) << "]\n";
            auto row_text = [&](const std::vector<cell>& row) {
                std::string s = "|";
                for (const cell& c : row) s += " " + flat(c.text) + " |";
                return s;
            };
            for (const auto& row : g->header) out << row_text(row) << "\n";
            for (const auto& row : g->rows) out << row_text(row) << "\n";
            for (const std::string& n : g->notes) out << "  note: " << n << "\n";
        }
    }
    out << "\n";
    for (const std::string& f : doc.footer) out << "footer: " << f << "\n";
    return out.str();
}

}  // namespace wp::docgen
