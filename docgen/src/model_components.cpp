// The aid's components and what may be done with them: zones of control and stacking, actions
// and who may take them, cards and pieces, maps, and the limits of tracked values.
#include "model_builder.hpp"

#include <algorithm>
#include <cctype>

namespace wp::docgen::detail {

// ------------------------------------------------------------ zones of control and stacking

// What every hex-and-counter aid summarises, from the ruleset's outline: its entries on zones
// of control and stacking (their titles are the ruleset's own summaries, with their anchors),
// and every entry of a chapter whose head entry is one (`7.0` takes `7.11`, `7.12`, …).
void builder::zones_and_stacking() {
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

std::vector<ir::id> builder::rules_on(ir::target_kind kind, ir::id target, std::initializer_list<ir::rule_kind> kinds) const {
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
std::string builder::params_text(const std::vector<ir::local>& locals, std::size_t count) const {
    return english(rs, locals).parameters(count, false);
}

// " (a player, another player, a card, a roll kind)": what an action is taken with.
std::string builder::typed_params(const std::vector<ir::local>& locals, std::size_t count) const {
    return english(rs, locals).parameters(count, true);
}

void builder::actions() {
    if (rs.actions.empty()) return;
    section("Actions and who may take them");
    for (std::size_t i = 0; i < rs.actions.size(); ++i) {
        const ir::action& a = rs.actions[i];
        const english en = speaker(a.locals, {a.guard, a.body});
        rich_text t{bold(title_of(a.name)), text(typed_params(a.locals, a.param_count))};
        if (a.guard != ir::no_id) t.push_back(text(": allowed when " + en.expr(a.guard)));
        // The designer's phrase, where there is one, says what the action does in place of
        // the template's reading of its body (issue 30); a body that only signals reads as nothing.
        const std::string does = a.aid.empty() ? en.statements(a.body) : a.aid;
        if (!does.empty()) t.push_back(text(". Does: " + does));
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

std::string builder::field_value(const ir::field& f, std::int64_t v) const {
    const ir::type& t = rs.types[f.type];
    if (t.kind == ir::type_kind::boolean) return v ? humanize(f.name) : "";
    if (t.kind == ir::type_kind::range || t.kind == ir::type_kind::integer)
        return humanize(f.name) + " " + (t.lo < 0 ? signed_number(v) : number(v));
    return humanize(f.name) + ": " + constant_english(rs, f.type, v);
}

namespace {

bool within(const ir::entity_kind& kind, ir::element_kind k, ir::id e) {
    return k == ir::element_kind::entity && e >= kind.first_entity && e < kind.first_entity + kind.entity_count;
}

}  // namespace

// "†" after a card or piece with stand-in values, "*" after one whose data the rulebook lacks
// (docs/language.md §14); the notes under the list say which values and why.
std::string builder::entity_mark_signs(ir::id e) const {
    std::string signs;
    for (const ir::standin& s : rs.standins)
        if (s.kind == ir::element_kind::entity && s.element == e) signs = "†";
    for (const ir::missing& m : rs.missing_data)
        if (m.kind == ir::element_kind::entity && m.element == e) signs += "*";
    return signs;
}

void builder::entity_mark_notes(const ir::entity_kind& kind, std::vector<std::string>& notes) const {
    const auto named = [&](ir::id e, const std::string& field) {
        const ir::entity& x = rs.entities[e];
        return (x.display.empty() ? humanize(x.name) : x.display) + (field.empty() ? "" : " (" + humanize(field) + ")");
    };
    std::string standins, missing;
    for (const ir::standin& s : rs.standins)
        if (within(kind, s.kind, s.element))
            standins += (standins.empty() ? "" : "; ") + named(s.element, s.field) + ": " + s.why;
    for (const ir::missing& m : rs.missing_data)
        if (within(kind, m.kind, m.element))
            missing += (missing.empty() ? "" : "; ") + named(m.element, m.field) + ": " + m.what;
    if (!standins.empty()) notes.push_back("† Stand-in data, not from the rulebook: " + standins + ".");
    if (!missing.empty()) notes.push_back("* Not in the rulebook; the values shown are placeholders: " + missing + ".");
}

// "Event, lasts the turn, lifts no mixed stacks: …; while in force: english aid raised" for a
// card with an event (docs/language.md, "Events on cards"); empty for one without.
std::string builder::card_event_text(ir::id card) const {
    for (const ir::card_event& ev : rs.card_events) {
        if (ev.card != card || ev.procedure >= rs.procedures.size()) continue;
        const ir::procedure& pr = rs.procedures[ev.procedure];
        std::string head = "Event";
        if (!ev.title.empty()) head += " “" + ev.title + "”";
        switch (ev.duration) {
            case ir::event_duration::once: break;
            case ir::event_duration::phase: head += ", lasts the phase"; break;
            case ir::event_duration::turn: head += ", lasts the turn"; break;
            case ir::event_duration::until_cancelled: head += ", lasts until cancelled"; break;
        }
        std::string lifts;
        for (ir::id r : ev.lifts) lifts += (lifts.empty() ? "" : ", ") + humanize(rs.rules[r].name);
        if (!lifts.empty()) head += ", lifts " + lifts;
        std::string what = ev.aid;
        if (what.empty() && pr.body != ir::no_id) {
            english en(rs, pr.locals);
            en.scope_roles({pr.body});
            what = en.statements(pr.body);
        }
        std::string text = head + ": " + (what.empty() ? "nothing at once" : what);
        std::string rules;
        for (ir::id r : ev.rules) rules += (rules.empty() ? "" : ", ") + humanize(rs.rules[r].name);
        if (!rules.empty()) text += "; while in force: " + rules;
        const std::string where = anchors_text(ev.prov);
        return text + (where.empty() ? "" : " (" + where + ")");
    }
    return {};
}

void builder::components() {
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
        // And by a second one, named beside the first where it changes (GMT's cards by side,
        // then by their group): it leaves the Effect column, which is the narrow one.
        std::size_t sub_field = rec ? rec->fields.size() : 0;
        for (std::size_t f = group_field + 1; rec && f < rec->fields.size(); ++f)
            if (rs.types[rec->fields[f].type].kind == ir::type_kind::enumeration) {
                sub_field = f;
                break;
            }
        std::vector<ir::id> order;
        std::int64_t total = 0;
        for (ir::id e = kind.first_entity; e < kind.first_entity + kind.entity_count; ++e) {
            order.push_back(e);
            total += rs.entities[e].count;
        }
        const bool grouped = rec && group_field < rec->fields.size();
        const bool sub_grouped = grouped && sub_field < rec->fields.size();
        auto group_key = [&](ir::id e) {
            const ir::entity& x = rs.entities[e];
            return std::make_pair(x.values[group_field], sub_grouped ? x.values[sub_field] : std::int64_t{-1});
        };
        if (grouped)
            std::stable_sort(order.begin(), order.end(), [&](ir::id a, ir::id b) { return group_key(a) < group_key(b); });
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
        if (grouped)
            head.push_back(cell{{bold(capitalised(humanize(rec->fields[group_field].name)) +
                                      (sub_grouped ? ", " + humanize(rec->fields[sub_field].name) : ""))},
                                align::left});
        head.push_back(cell{{bold("×")}, align::right});
        head.push_back(cell{{bold("Name")}, align::left});
        head.push_back(cell{{bold("Effect")}, align::left});
        g.header.push_back(std::move(head));
        // Cards of one type with the same effect share a row: "Pikemen ×3, Arquebusiers ×4".
        struct merged {
            std::pair<std::int64_t, std::int64_t> group{-1, -1};
            std::string effect;
            std::string names;
            std::int64_t count = 0;
        };
        std::vector<merged> lines;
        // In a kind where some cards have an event, a card without one says so: the card manifest
        // a player checks against the deck (GMT's cards whose events the rulebook does not give).
        const bool some_events = std::any_of(rs.card_events.begin(), rs.card_events.end(), [&](const ir::card_event& ev) {
            return ev.card >= kind.first_entity && ev.card < kind.first_entity + kind.entity_count;
        });
        for (ir::id e : order) {
            const ir::entity& x = rs.entities[e];
            std::string effect;
            for (std::size_t f = 0; rec && f < rec->fields.size() && f < x.values.size(); ++f) {
                if (grouped && (f == group_field || (sub_grouped && f == sub_field))) continue;
                const ir::field& fd = rec->fields[f];
                if (fd.has_default && x.values[f] == fd.default_value) continue;
                // A field that names what the card's own name says (Wallenstein's county card
                // "Altmark", land: Altmark) tells the reader nothing.
                const ir::type& ft = rs.types[fd.type];
                if (ft.kind != ir::type_kind::boolean && ft.kind != ir::type_kind::range && ft.kind != ir::type_kind::integer &&
                    constant_english(rs, fd.type, x.values[f]) == (x.display.empty() ? humanize(x.name) : x.display))
                    continue;
                const std::string v = field_value(fd, x.values[f]);
                if (!v.empty()) effect += (effect.empty() ? "" : ", ") + v;
            }
            if (const std::string ev = card_event_text(e); !ev.empty()) effect += (effect.empty() ? "" : ". ") + ev;
            else if (some_events) effect += (effect.empty() ? "" : ". ") + std::string("No event in these rules");
            const std::pair<std::int64_t, std::int64_t> gv = grouped ? group_key(e) : std::make_pair(std::int64_t{-1}, std::int64_t{-1});
            auto it = std::find_if(lines.begin(), lines.end(), [&](const merged& m) { return m.group == gv && m.effect == effect; });
            if (it == lines.end()) it = lines.insert(lines.end(), merged{gv, effect, "", 0});
            const std::string name = x.display.empty() ? humanize(x.name) : x.display;
            it->names += (it->names.empty() ? "" : ", ") + name + entity_mark_signs(e) +
                         (x.count > 1 ? " ×" + std::to_string(x.count) : "");
            it->count += x.count;
        }
        // The name beside the label is what the card prints ("Employer (E)"), unless it is the
        // rules' identifier ("BuildPalace"), which the label replaces.
        auto member_label = [&](std::size_t field, std::int64_t v) {
            const ir::type& t = rs.types[rec->fields[field].type];
            const ir::enum_member& mem = rs.enums[t.ref].members[static_cast<std::size_t>(v)];
            if (field == sub_field && !mem.label.empty()) return mem.label;  // beside the first: its label alone
            const bool identifier = std::any_of(mem.name.begin() + (mem.name.empty() ? 0 : 1), mem.name.end(), [](char c) {
                return c == '_' || std::isupper(static_cast<unsigned char>(c));
            });
            return mem.label.empty() ? mem.name : identifier && mem.name.size() > 3 ? mem.label : mem.label + " (" + mem.name + ")";
        };
        std::pair<std::int64_t, std::int64_t> previous{-1, -1};
        for (const merged& m : lines) {
            std::vector<cell> row;
            if (grouped) {
                std::string label;
                if (m.group.first != previous.first) label = member_label(group_field, m.group.first);
                if (sub_grouped && m.group != previous) {
                    // not the same word twice in one cell (SPI's Bavarian side and its Bavarian army)
                    const std::string sub = member_label(sub_field, m.group.second);
                    if (sub != label) label += (label.empty() ? "" : ", ") + sub;
                }
                previous = m.group;
                row.push_back(cell{{bold(label)}, align::left});
            }
            row.push_back(cell{{text(std::to_string(m.count))}, align::right});
            row.push_back(cell{{text(m.names)}, align::left});
            row.push_back(cell{{text(m.effect.empty() ? "—" : m.effect)}, align::left});
            g.rows.push_back(std::move(row));
        }
        if (kind.standin != ir::no_id && kind.standin < rs.standins.size()) {
            g.notes.push_back("Stand-in data, not from the rulebook: " + rs.standins[kind.standin].why);
            standins_noted.insert(kind.standin);
        }
        entity_mark_notes(kind, g.notes);
        for (const ir::event_precedence& o : rs.events_outrank) {
            if (!some_events) continue;
            std::string except;
            for (ir::id c : o.except)
                if (c < rs.entities.size())
                    except += (except.empty() ? "" : ", ") + (rs.entities[c].display.empty() ? humanize(rs.entities[c].name) : rs.entities[c].display);
            const std::string where = anchors_text(o.prov);
            g.notes.push_back("A card’s event takes precedence over the rules" + (where.empty() ? "" : " (" + where + ")") +
                              (except.empty() ? std::string(".") : ", except on " + except + ", where the rules win."));
        }
        g.notes.push_back(grouped ? "×: copies in the game. Those of one " + humanize(rec->fields[group_field].name) +
                                        " with the same effect share a row."
                                  : "×: copies in the game.");
        add(std::move(g));
    }
}

void builder::components_section() {
    bool any = false;
    for (const ir::entity_kind& k : rs.entity_kinds) any = any || k.entity_count > 0;
    if (!any && rs.maps.empty()) return;
    section(rs.maps.empty() ? "Cards and pieces" : "Cards, pieces and maps");
    components();
    maps();
}

// Hidden fields (docs/language.md §2): what each player, or each side, keeps from the others.
void builder::secrets() {
    // A field hidden `if option.O` is secret only in the games where O is on: the aid's.
    auto secret = [&](const ir::slot& s) {
        if (!s.hidden || s.hidden_if == ir::no_id) return s.hidden;
        const ir::option& o = rs.options[s.hidden_if];
        return o.selected_index < o.values.size() && o.values[o.selected_index] != 0;
    };
    bool any = false;
    for (const ir::slot& s : rs.slots) any = any || secret(s);
    if (!any) return;
    section("Secret information");
    // Fields kept the same way share an entry ("Inf, Cav, Art, Fat: each side's entry …"): Cuius
    // Regio's fog hides sixteen fields in four ways.
    struct kept {
        std::string names, what;
        std::vector<ir::provenance> provs;
    };
    std::vector<kept> entries;
    for (const ir::slot& s : rs.slots) {
        if (!secret(s)) continue;
        std::string what;
        if (s.scope == ir::slot_scope::per_player) {
            what = "each player's own is seen by that player alone, never by the others";
        } else {
            const std::string where = s.scope == ir::slot_scope::per_entity ? " of each " + humanize(rs.entity_kinds[s.entity_kind].name)
                                      : s.scope == ir::slot_scope::per_node ? " in each space of " + humanize(rs.maps[s.map].name)
                                                                            : "";
            if (s.hidden_by == ir::no_id) {
                what = "each player's entry" + where + " is seen by that player alone";
            } else {
                const ir::type& key = rs.types[rs.slots[s.hidden_by].type];
                const std::string k = humanize(rs.enums[key.ref].name);
                what = "each " + k + "'s entry" + where + " is seen only by the players whose " + humanize(rs.slots[s.hidden_by].name) +
                       " is that " + k + "; the others see none of it";
            }
        }
        if (s.hidden_unless != ir::no_id) {  // shown while a field of the same copy is set
            const std::string shown = humanize(rs.slots[s.hidden_unless].name);
            if (s.scope == ir::slot_scope::per_player)
                what = "each player's own is seen by that player alone, and by everyone while that player's " + shown + " is set";
            else
                what += ", except while " + std::string(s.scope == ir::slot_scope::global ? "the" : "its") + " " + shown + " is set";
        }
        if (s.hidden_if != ir::no_id) what += " (option " + humanize(rs.options[s.hidden_if].name) + ")";
        auto same = std::find_if(entries.begin(), entries.end(), [&](const kept& k) { return k.what == what; });
        if (same == entries.end()) {
            entries.push_back({title_of(s.name), what, {s.prov}});
            continue;
        }
        same->names += ", " + title_of(s.name);
        // one source per distinct set of anchors (the fields of one block share theirs)
        if (std::none_of(same->provs.begin(), same->provs.end(), [&](const ir::provenance& p) { return anchors_text(p) == anchors_text(s.prov); }))
            same->provs.push_back(s.prov);
    }
    for (const kept& k : entries) {
        rich_text t{bold(k.names + ": "), text(k.what)};
        for (const ir::provenance& p : k.provs) t.push_back(source(p));
        entry(t);
    }
}

// A map in a few lines: its spaces (with terrain), then its edges or hexsides by kind.
void builder::maps() {
    for (const ir::map& m : rs.maps) {
        const bool hexes = m.kind == ir::map_kind::hexgrid;
        rich_text t{bold(title_of(m.name)),
                    text(std::string(hexes ? " (hex grid, " : " (area map, ") + std::to_string(m.nodes.size()) + (hexes ? " hexes)" : " spaces)"))};
        if (m.standin != ir::no_id && m.standin < rs.standins.size()) {
            t.push_back(text(" — stand-in data: " + rs.standins[m.standin].why));
            standins_noted.insert(m.standin);
        }
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

void builder::limits() {
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

}  // namespace wp::docgen::detail
