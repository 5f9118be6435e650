// The aid model of a ruleset. Sections, in the order a player needs them at the table:
// sequence of play, rolls with their modifiers and odds, tables, actions and who may take them,
// cards, limits and tracked values, what happens when, end of game and victory, then options
// and the layers the rules come from. Every entry carries its rulebook anchors.
// This file: the entry point, what play reaches under the chosen options, the phrasing every
// section shares, the header and footer, options and sources, the test page and the text dump.
// The builder is declared in model_builder.hpp; its other sections are in model_*.cpp.
#include "model_builder.hpp"

#include "westphalia/ir/print.hpp"

#include <algorithm>
#include <sstream>

namespace wp::docgen {

namespace detail {

// From every root of play (sequences, actions, tables, rolls, rules the options leave in),
// the procedures and quantities it calls, not following a branch the options rule out: a
// scenario's aid lists only its own victory conditions.
void builder::reach() {
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
        if (live(r) && !ir::runs_a_given(r.kind) && !ir::is_query(r.kind))
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
    std::map<ir::id, std::set<std::optional<std::int64_t>>> values;  // what each global is set to (nothing: varies)
    const local_values* known = nullptr;  // the second time: the yes/no values no play sets
    std::function<void(ir::id)> sets = [&](ir::id n) {
        if (n >= rs.nodes.size()) return;
        const ir::node& x = rs.nodes[n];
        const auto kids = ir::children_of(rs, n);
        if ((x.code == ir::op::if_ || x.code == ir::op::cond) && kids.size() >= 2)
            if (const auto v = static_value(rs, kids[0], nullptr, nullptr, known)) {
                sets(*v ? kids[1] : kids.size() > 2 ? kids[2] : ir::no_id);
                return;
            }
        if ((x.code == ir::op::assign || x.code == ir::op::add_assign || x.code == ir::op::sub_assign) && !kids.empty() &&
            rs.nodes[kids[0]].code == ir::op::global) {
            set.insert(rs.nodes[kids[0]].ref);
            values[rs.nodes[kids[0]].ref].insert(x.code == ir::op::assign ? static_value(rs, kids[1]) : std::nullopt);
        }
        for (ir::id k : kids) sets(k);
    };
    auto walk = [&] {
        for (const ir::sequence& q : rs.sequences) sets(q.body);
        for (const ir::action& a : rs.actions) sets(a.body);
        for (const ir::rule& r : rs.rules)
            if (live(r) && !ir::runs_a_given(r.kind) && !ir::is_query(r.kind)) sets(r.body);
        for (const ir::table& tb : rs.tables)
            for (const ir::table_cell& c : tb.cells) sets(c.effects);
        for (std::size_t p = 0; p < rs.procedures.size(); ++p)
            if (reached_procedures[p]) sets(rs.procedures[p].body);
    };
    walk();
    // Only yes/no values: the engine sets others itself (a table's last result).
    for (std::size_t g = 0; g < rs.slots.size(); ++g) {
        const ir::slot& sl = rs.slots[g];
        if (sl.scope == ir::slot_scope::global && !sl.counter && sl.type < rs.types.size() &&
            rs.types[sl.type].kind == ir::type_kind::boolean && !set.count(static_cast<ir::id>(g)))
            fixed_flags[static_cast<ir::id>(g)] = sl.initial;
    }
    // Again, with those decided (SPI's `siege or defends_town` outside the siege within the
    // campaign): what the enum values below are set to.
    values.clear();
    known = &fixed_flags;
    walk();
    // A value of an enum that the setup sets, whatever happens, and that nothing else under the
    // options sets to another value (SPI's `today` in a one-day scenario) keeps it in play: a rule
    // on another value never applies ("Morale row of" lists only the rows of 5 August).
    std::set<ir::id> walked;
    std::function<void(ir::id)> setup_sets = [&](ir::id n) {
        if (n >= rs.nodes.size()) return;
        const ir::node& x = rs.nodes[n];
        const auto kids = ir::children_of(rs, n);
        switch (x.code) {
            case ir::op::seq:
                for (ir::id k : kids) setup_sets(k);
                return;
            case ir::op::block:
                if (!kids.empty()) setup_sets(kids[0]);
                return;
            case ir::op::if_:
                if (kids.size() >= 2)
                    if (const auto v = static_value(rs, kids[0], nullptr, nullptr, &fixed_flags))
                        setup_sets(*v ? kids[1] : kids.size() > 2 ? kids[2] : ir::no_id);
                return;
            case ir::op::call:
                if (x.ref < rs.procedures.size() && walked.insert(x.ref).second) setup_sets(rs.procedures[x.ref].body);
                return;
            case ir::op::assign: {
                if (kids.size() != 2 || rs.nodes[kids[0]].code != ir::op::global) return;
                const ir::id g = rs.nodes[kids[0]].ref;
                const ir::id t = rs.nodes[kids[0]].type;
                const auto v = static_value(rs, kids[1]);
                if (v && t < rs.types.size() && rs.types[t].kind == ir::type_kind::enumeration && values[g].size() == 1 && *values[g].begin() == v)
                    settled[g] = *v;
                return;
            }
            default: return;  // a loop, a choice, a `may`: not whatever happens
        }
    };
    for (const ir::block& b : rs.blocks)
        if (b.word == "setup") setup_sets(b.node);
}

// A rule whose guard the chosen options make false never applies: the aid leaves it out.
bool builder::live(const ir::rule& r) const {
    if (r.guard == ir::no_id) return true;
    const auto v = static_value(rs, r.guard, nullptr, nullptr, &settled);
    return !v || *v != 0;
}

// " when <guard>", or nothing when the rule always applies (no guard, or one the chosen
// options make true).
std::string builder::when(const english& en, ir::id guard) const {
    if (guard == ir::no_id) return "";
    if (const auto v = static_value(rs, guard, nullptr, nullptr, &settled); v && *v) return "";
    return " when " + en.condition(guard);
}

std::size_t builder::dead_rules() const {
    std::size_t n = 0;
    for (const ir::rule& r : rs.rules) n += !live(r);
    return n;
}

std::string builder::layer_note(const ir::provenance& p) const {
    if (p.layer >= rs.layers.size() || rs.layers[p.layer].kind == ir::layer_kind::base) return "";
    return " [" + rs.layers[p.layer].name + "]";
}

// The muted tail of an entry: anchors and, when not the base layer, the layer.
span builder::source(const ir::provenance& p) const {
    const std::string a = anchors_text(p);
    const std::string l = layer_note(p);
    return muted((a.empty() ? "" : " " + a) + l);
}

// English for one element, with locals bound to rolls read as "the <roll>".
english builder::speaker(const std::vector<ir::local>& frame, const std::vector<ir::id>& roots) const {
    english en(rs, frame);
    en.fix_globals(&settled);
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

void builder::header_and_footer() {
    doc.title = rs.title.empty() ? title_of(rs.name) : rs.title;
    const std::string players = rs.min_players == rs.max_players
                                    ? std::to_string(rs.min_players)
                                    : std::to_string(rs.min_players) + "–" + std::to_string(rs.max_players);
    // One aid per scenario: the one it is made for is named under the title.
    std::string scenario;
    for (const ir::option& o : rs.options)
        if (o.name == "scenario" && o.selected_index < o.values.size())
            scenario = " · " + option_value_words(rs, o, o.selected_index);
    doc.subtitle = "Player aid · " + players + " players" + scenario + " · every entry cites its rulebook section (§)";
    std::string layers;
    std::size_t errata_ops = 0;
    for (const ir::layer& l : rs.layers)
        layers += (layers.empty() ? "" : ", ") + l.name +
                  (l.kind == ir::layer_kind::base || l.name == ir::name_of(l.kind) ? "" : " (" + std::string(ir::name_of(l.kind)) + ")");
    std::string line = doc.title;
    line += " · layers: " + layers;
    if (!rs.upto.empty()) line += " (up to " + rs.upto + ")";
    // The expansions the aid is made for (an expansion's block operations are not errata).
    if (!rs.expansions.empty()) {
        std::string with;
        for (const ir::layer& l : rs.layers)
            if (l.kind == ir::layer_kind::expansion) with += (with.empty() ? "" : ", ") + l.name;
        line += with.empty() ? " · no expansion" : " · expansions: " + with;
    }
    std::set<std::string> editions;
    for (const ir::errata_op& e : rs.errata) {
        if (from_expansion(e) || from_exclusive(e)) continue;
        ++errata_ops;
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
        const std::vector<std::string> labels = option_labels(o);
        chosen += (chosen.empty() ? "" : ", ") + humanize(o.name) + " = " +
                  (labels.empty() ? constant_english(rs, o.type, o.values.at(o.selected_index)) : labels.at(o.selected_index));
    }
    if (declared == 0) doc.footer.push_back("options: none declared");
    else if (chosen.empty()) doc.footer.push_back("options: all " + std::to_string(declared) + " at defaults");
    else doc.footer.push_back("options chosen: " + chosen + "; the other options at their defaults");
}

// ------------------------------------------------------------ options and sources

// Options in one run of text, each with the value in force in bold: a player needs what is
// in force, with the anchors of the passages it decides.
void builder::options_paragraph() {
    if (rs.options.empty()) return;
    rich_text t{bold("Options. ")};
    // The scenario first, as under the title (the aid is made for it); then in declaration order.
    std::vector<const ir::option*> order;
    for (const ir::option& o : rs.options)
        if (o.name == "scenario") order.push_back(&o);
    for (const ir::option& o : rs.options)
        if (o.name != "scenario") order.push_back(&o);
    for (std::size_t i = 0; i < order.size(); ++i) {
        const ir::option& o = *order[i];
        if (i) t.push_back(text("; "));
        t.push_back(text(title_of(o.name) + " "));
        if (o.values.empty()) { t.push_back(source(o.prov)); continue; }
        // An aid text that names each value gives the values their words ("5 August"), and is not
        // repeated.
        const std::vector<std::string> labels = option_labels(o);
        auto value = [&](std::size_t i) { return labels.empty() ? constant_english(rs, o.type, o.values.at(i)) : labels.at(i); };
        t.push_back(bold(value(o.selected_index)));
        // Only the value in force: `westphalia info` lists the alternatives.
        std::string note = o.selected_index == o.default_index ? "" : "chosen; default " + value(o.default_index);
        if (!o.aid.empty() && labels.empty()) note += (note.empty() ? "" : "; ") + o.aid;
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
void builder::errata_paragraphs() {
    struct item {
        ir::errata_kind kind;
        std::string subject;
        const ir::provenance* prov;
    };
    std::vector<std::pair<std::string, std::vector<item>>> editions;  // in the order they apply
    for (std::size_t i = 0; i < rs.errata.size(); ++i) {
        const ir::errata_op& e = rs.errata[i];
        if (from_exclusive(e)) continue;  // a game's own rules in place of the series' stand-ins
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

void builder::options_and_sources() {
    section("Options, errata and data");
    options_paragraph();
    errata_paragraphs();
    // Marks on one card or piece are noted under its list (model_components.cpp).
    const auto declared = [](const ir::missing& m) { return m.kind == ir::element_kind::none; };
    if (std::any_of(rs.missing_data.begin(), rs.missing_data.end(), declared)) {
        rich_text t{bold("Missing from the rulebook: ")};
        bool first = true;
        for (const ir::missing& m : rs.missing_data) {
            if (!declared(m)) continue;
            if (!std::exchange(first, false)) t.push_back(text("; "));
            t.push_back(text(humanize(m.name) + " — " + m.what));
            t.push_back(source(m.prov));
        }
        entry(std::move(t), 0, true);
    }
    for (std::size_t i = 0; i < rs.standins.size(); ++i)
        if (const ir::standin& s = rs.standins[i]; s.kind != ir::element_kind::entity && !standins_noted.count(static_cast<ir::id>(i)))
            entry({bold("Stand-in data: "), text(std::string(ir::name_of(s.kind)) + " — " + s.why), source(s.prov)}, 0, true);
}

}  // namespace detail

using detail::bold;
using detail::builder;
using detail::text;

document build_document(const ir::ruleset& rs) {
    builder b{rs, {}, roll_thresholds(rs), readings_of(rs), {}, {}, {}, {}, {}, {}};
    b.reach();
    b.header_and_footer();
    b.sequence_of_play();
    b.rolls();
    b.tables();
    b.chances();
    b.zones_and_stacking();
    b.actions();
    b.components_section();
    b.secrets();
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
