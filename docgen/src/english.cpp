// English templates over IR nodes: names, constants and expressions (statements are in
// english_statements.cpp). Each op has one template; operators become words only where the
// words read better than the symbol (≥ stays ≥: wargamers read DRM charts).
#include "english.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

namespace wp::docgen {

namespace {

const std::string minus = "\xE2\x88\x92";  // U+2212, the minus sign

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

}  // namespace

std::string humanize(const std::string& identifier) {
    std::string out;
    for (std::size_t i = 0; i < identifier.size(); ++i) {
        const char c = identifier[i];
        if (c == '_') {
            if (!out.empty() && out.back() != ' ') out += ' ';
            continue;
        }
        // A camel-case boundary: "EmploymentRoll" -> "employment roll" (not inside "AB").
        if (is_upper(c) && i > 0 && is_lower(identifier[i - 1])) out += ' ';
        const bool acronym = is_upper(c) && (i + 1 >= identifier.size() || !is_lower(identifier[i + 1])) &&
                             (i == 0 || !is_lower(identifier[i - 1]));
        out += acronym ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    // A word of two to four letters with no vowel is an abbreviation the rulebook prints in
    // capitals: "mp" -> "MP", "drm" -> "DRM", "crt" -> "CRT" ("cf full", "lr" of a leader).
    for (std::size_t start = 0; start < out.size();) {
        std::size_t end = out.find(' ', start);
        if (end == std::string::npos) end = out.size();
        const std::size_t n = end - start;
        bool abbreviation = n >= 2 && n <= 4;
        for (std::size_t k = start; abbreviation && k < end; ++k)
            abbreviation = is_lower(out[k]) && std::string("aeiouy").find(out[k]) == std::string::npos;
        if (abbreviation)
            for (std::size_t k = start; k < end; ++k) out[k] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[k])));
        start = end + 1;
    }
    return out;
}

std::string field_name(const std::string& identifier) {
    std::string out = humanize(identifier);
    if (out.size() > 2 && is_lower(out[0]) && out[1] == ' ') out.erase(0, 2);
    return out;
}

std::string with_article(const std::string& noun) {
    bool vowel = !noun.empty() && std::string("aeiouAEIOU").find(noun[0]) != std::string::npos;
    // A vowel letter with a consonant sound: "a unit", "a European", "a one-step loss".
    for (const char* y : {"uni", "Uni", "use", "usu", "eu", "Eu", "one", "One"})
        if (noun.rfind(y, 0) == 0) vowel = false;
    return (vowel ? "an " : "a ") + noun;
}

std::string capitalised(std::string text) {
    if (!text.empty() && is_lower(text[0])) text[0] = static_cast<char>(text[0] - 'a' + 'A');
    return text;
}

std::string anchors_text(const ir::provenance& p) {
    std::string s;
    std::vector<std::string> seen;
    for (const ir::anchor& a : p.anchors) {
        const std::string one = "§" + a.first + (a.last.empty() ? "" : "-" + a.last);
        if (std::find(seen.begin(), seen.end(), one) != seen.end()) continue;
        seen.push_back(one);
        s += (s.empty() ? "" : " ") + one;
    }
    return s;
}

std::string table_name(const std::string& identifier) {
    const std::string name = humanize(identifier);
    return name.size() >= 5 && name.compare(name.size() - 5, 5, "table") == 0 ? name : name + " table";
}

std::string number(std::int64_t v) { return v < 0 ? minus + std::to_string(-v) : std::to_string(v); }

std::string signed_number(std::int64_t v) { return v > 0 ? "+" + std::to_string(v) : number(v); }

std::string constant_english(const ir::ruleset& rs, ir::id t, std::int64_t v) {
    if (t >= rs.types.size()) return number(v);
    const ir::type& x = rs.types[t];
    const auto i = static_cast<std::size_t>(v);
    switch (x.kind) {
        case ir::type_kind::boolean: return v ? "yes" : "no";
        case ir::type_kind::string: return v >= 0 && i < rs.strings.size() ? "“" + rs.strings[i] + "”" : "?";
        case ir::type_kind::enumeration:
            if (x.ref < rs.enums.size() && v >= 0 && i < rs.enums[x.ref].members.size()) {
                const ir::enum_member& m = rs.enums[x.ref].members[i];
                if (!m.label.empty()) return m.label;
                // A member's own name keeps its capitals ("Lower Palatinate"); only `_` becomes a space.
                std::string spaced = m.name;
                std::replace(spaced.begin(), spaced.end(), '_', ' ');
                return spaced;
            }
            return "?";
        case ir::type_kind::entity:
            if (v >= 0 && i < rs.entities.size()) return rs.entities[i].display.empty() ? humanize(rs.entities[i].name) : rs.entities[i].display;
            return "none";
        case ir::type_kind::node:
            if (x.ref < rs.maps.size() && v >= 0 && i < rs.maps[x.ref].nodes.size()) {
                const ir::map_node& n = rs.maps[x.ref].nodes[i];
                return n.display.empty() ? n.name : n.display;
            }
            return "none";
        case ir::type_kind::player: return v < 0 ? "nobody" : "player " + std::to_string(v + 1);
        default: return number(v);
    }
}

std::string role_noun(const ir::ruleset& rs, ir::id t) {
    if (t >= rs.types.size()) return "thing";
    const ir::type& x = rs.types[t];
    switch (x.kind) {
        case ir::type_kind::player: return "player";
        case ir::type_kind::entity: return x.ref < rs.entity_kinds.size() ? humanize(rs.entity_kinds[x.ref].name) : "piece";
        case ir::type_kind::enumeration: return x.ref < rs.enums.size() ? humanize(rs.enums[x.ref].name) : "value";
        case ir::type_kind::record: return x.ref < rs.records.size() ? humanize(rs.records[x.ref].name) : "entry";
        case ir::type_kind::node: return x.ref < rs.maps.size() && rs.maps[x.ref].kind == ir::map_kind::hexgrid ? "hex" : "space";
        case ir::type_kind::zone: return "zone";
        case ir::type_kind::boolean: return "condition";
        case ir::type_kind::string: return "text";
        case ir::type_kind::odds: return "odds";
        case ir::type_kind::list_of: case ir::type_kind::map_of: return "list";
        default: return "number";
    }
}

std::string plural(const std::string& noun) {
    auto ends = [&](const std::string& tail) { return noun.size() >= tail.size() && noun.compare(noun.size() - tail.size(), tail.size(), tail) == 0; };
    if (noun.empty() || ends("odds")) return noun;
    if (ends("s") || ends("x") || ends("ch") || ends("sh")) return noun + "es";
    if (ends("y") && noun.size() > 1 && std::string("aeiou").find(noun[noun.size() - 2]) == std::string::npos)
        return noun.substr(0, noun.size() - 1) + "ies";
    return noun + "s";
}

std::string dice_text(const ir::roll& r) {
    std::string s;
    for (const ir::signed_dice& t : r.terms) {
        if (!s.empty()) s += t.negative ? " " + minus + " " : " + ";
        else if (t.negative) s += minus;
        s += std::to_string(t.dice.count) + "d";
        // A die numbered from another value than 1 is named by its sides and read range, as
        // players say it: GMT's ten-sider "1d10 (0–9)", not the rule language's "1d[0..9]".
        s += t.dice.low == 1 ? std::to_string(t.dice.high)
                             : std::to_string(t.dice.high - t.dice.low + 1) + " (" + (t.dice.count > 1 ? "each " : "") +
                                   number(t.dice.low) + "–" + number(t.dice.high) + ")";
    }
    if (r.constant != 0 || s.empty()) s += s.empty() ? number(r.constant) : (r.constant > 0 ? " + " : " " + minus + " ") + std::to_string(r.constant < 0 ? -r.constant : r.constant);
    return s;
}

// ---------------------------------------------------------------- static values

std::optional<std::int64_t> static_value(const ir::ruleset& rs, ir::id n, const option_choice* chosen, const local_values* locals,
                                         const local_values* globals) {
    if (n >= rs.nodes.size()) return std::nullopt;
    const ir::node& x = rs.nodes[n];
    const auto kids = ir::children_of(rs, n);
    auto kid = [&](std::size_t i) { return i < kids.size() ? static_value(rs, kids[i], chosen, locals, globals) : std::nullopt; };
    switch (x.code) {
        case ir::op::global: {
            if (!globals || !kids.empty()) return std::nullopt;
            const auto it = globals->find(x.ref);
            return it == globals->end() ? std::nullopt : std::optional<std::int64_t>(it->second);
        }
        case ir::op::attribute: case ir::op::node_attribute: {
            // A field of a constant piece or space: its data ("Tilly's start" is 0508).
            if (kids.size() != 1) return std::nullopt;
            const auto owner = kid(0);
            const ir::id t = rs.nodes[kids[0]].type;
            if (!owner || *owner < 0 || t >= rs.types.size()) return std::nullopt;
            const auto i = static_cast<std::size_t>(*owner);
            if (x.code == ir::op::attribute && rs.types[t].kind == ir::type_kind::entity && i < rs.entities.size() &&
                x.ref < rs.entities[i].values.size())
                return rs.entities[i].values[x.ref];
            if (x.code == ir::op::node_attribute && rs.types[t].kind == ir::type_kind::node && rs.types[t].ref < rs.maps.size() &&
                i < rs.maps[rs.types[t].ref].nodes.size() && x.ref < rs.maps[rs.types[t].ref].nodes[i].values.size())
                return rs.maps[rs.types[t].ref].nodes[i].values[x.ref];
            return std::nullopt;
        }
        case ir::op::local: {
            if (!locals) return std::nullopt;
            const auto it = locals->find(x.ref);
            return it == locals->end() ? std::nullopt : std::optional<std::int64_t>(it->second);
        }
        case ir::op::const_int: case ir::op::const_bool: case ir::op::const_member: return x.value;
        case ir::op::option: {
            if (x.ref >= rs.options.size()) return std::nullopt;
            const ir::option& o = rs.options[x.ref];
            std::size_t index = o.selected_index;
            if (chosen)
                if (auto it = chosen->find(x.ref); it != chosen->end()) index = it->second;
            if (index >= o.values.size()) return std::nullopt;
            return o.values[index];
        }
        case ir::op::quantity: {
            // A predicate of no parameters (`siege_rules()`) is as static as its body.
            if (!kids.empty() || x.ref >= rs.quantities.size() || !rs.quantities[x.ref].predicate) return std::nullopt;
            return static_value(rs, rs.quantities[x.ref].expr, chosen);
        }
        case ir::op::not_: {
            const auto a = kid(0);
            return a ? std::optional<std::int64_t>(!*a) : std::nullopt;
        }
        case ir::op::and_: {
            const auto a = kid(0), b = kid(1);
            if ((a && !*a) || (b && !*b)) return 0;
            if (a && b) return 1;
            return std::nullopt;
        }
        case ir::op::or_: {
            const auto a = kid(0), b = kid(1);
            if ((a && *a) || (b && *b)) return 1;
            if (a && b) return 0;
            return std::nullopt;
        }
        case ir::op::eq: case ir::op::ne: case ir::op::lt: case ir::op::le: case ir::op::gt: case ir::op::ge: {
            const auto a = kid(0), b = kid(1);
            if (!a || !b) return std::nullopt;
            switch (x.code) {
                case ir::op::eq: return *a == *b;
                case ir::op::ne: return *a != *b;
                case ir::op::lt: return *a < *b;
                case ir::op::le: return *a <= *b;
                case ir::op::gt: return *a > *b;
                default: return *a >= *b;
            }
        }
        default: return std::nullopt;
    }
}

// ---------------------------------------------------------------- expressions

std::string english::range_words(ir::id range) const {
    const auto kids = ir::children_of(rs_, range);
    if (kids.size() != 2) return "?";
    return "from " + expr(kids[0]) + " to " + expr(kids[1]);
}

namespace {

// "u", "c2", "cs": the rule language's shorthand for a bound value (a letter, perhaps numbered,
// or a letter and an `s` for a list of them).
bool shorthand(const std::string& name) {
    if (name.empty() || !is_lower(name[0])) return false;
    if (name.size() == 2 && name[1] == 's') return true;
    return std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

const char* const ordinal_words[] = {"", "other", "third", "fourth", "fifth", "sixth"};

std::string ordinal_word(int k) {
    return k < 6 ? ordinal_words[k] : std::to_string(k + 1) + "th";
}

}  // namespace

english::english(const ir::ruleset& rs, const std::vector<ir::local>& frame) : rs_(rs), frame_(frame) {
    // One ordinal per distinct name of a role: every `c` of an element is "the card" (each binder
    // starts a new local, but the reader sees one card at a time); a `d` beside it is "the other card".
    std::map<std::string, std::vector<std::string>> names_of;  // role noun -> short names, in order
    roles_.resize(frame.size());
    for (std::size_t l = 0; l < frame.size(); ++l) {
        if (!shorthand(frame[l].name) || frame[l].type >= rs.types.size()) continue;
        // A number or a flag has no role a reader would name ("the number"): `n` stays `n`.
        const ir::type& t = rs.types[frame[l].type];
        if (t.kind == ir::type_kind::integer || t.kind == ir::type_kind::range || t.kind == ir::type_kind::boolean) continue;
        // A chosen list (`choose order of cs in army`) is named by what it holds: "the cards".
        const std::string noun = t.kind == ir::type_kind::list_of ? plural(role_noun(rs, t.value)) : role_noun(rs, frame[l].type);
        auto& names = names_of[noun];
        auto it = std::find(names.begin(), names.end(), frame[l].name);
        if (it == names.end()) it = names.insert(names.end(), frame[l].name);
        roles_[l] = {noun, static_cast<int>(it - names.begin()), false};
        roles_[l].you = roles_[l].ordinal == 0 && noun == "player";  // until scope_roles knows better
    }
}

void visit(const ir::ruleset& rs, ir::id root, const std::function<void(ir::id)>& f) {
    if (root >= rs.nodes.size()) return;
    f(root);
    for (ir::id c : ir::children_of(rs, root)) visit(rs, c, f);
}

std::optional<std::int64_t> compared_member(const ir::ruleset& rs, ir::id c, ir::id e, std::initializer_list<ir::op> ops) {
    if (c >= rs.nodes.size()) return std::nullopt;
    const ir::node& x = rs.nodes[c];
    const auto kids = ir::children_of(rs, c);
    if (kids.size() != 2 || std::find(ops.begin(), ops.end(), x.code) == ops.end()) return std::nullopt;
    auto of_enum = [&](const ir::node& k) {
        return k.code == ir::op::const_member && k.type < rs.types.size() && rs.types[k.type].kind == ir::type_kind::enumeration &&
               rs.types[k.type].ref == e;
    };
    if (x.code == ir::op::in) return of_enum(rs.nodes[kids[0]]) ? std::optional<std::int64_t>(rs.nodes[kids[0]].value) : std::nullopt;
    for (int side = 0; side < 2; ++side)
        if (of_enum(rs.nodes[kids[side]]) && rs.nodes[kids[1 - side]].code != ir::op::const_member) return rs.nodes[kids[side]].value;
    return std::nullopt;
}

std::string english::among(ir::id collection) const {
    // "every unit" needs no "in every unit": the binder already says "unit".
    if (collection < rs_.nodes.size() && rs_.nodes[collection].code == ir::op::type_members) return "";
    return " in " + expr(collection);
}

void english::scope_roles(const std::vector<ir::id>& roots) {
    // Locals no binder in `roots` binds are the element's parameters: in scope throughout.
    std::vector<bool> bound(frame_.size(), false);
    for (ir::id r : roots)
        visit(rs_, r, [&](ir::id n) {
            const ir::op c = rs_.nodes[n].code;
            const bool binder = c == ir::op::let || c == ir::op::for_each || c == ir::op::choose_one || c == ir::op::choose_subset ||
                                c == ir::op::choose_order || c == ir::op::any || c == ir::op::all || c == ir::op::count ||
                                c == ir::op::sum || c == ir::op::min || c == ir::op::max;
            if (binder && rs_.nodes[n].ref < bound.size()) bound[rs_.nodes[n].ref] = true;
        });
    std::vector<ir::id> active;  // role locals in scope, outermost first
    auto ordinal_for = [&](ir::id l) {
        std::vector<std::string> names;  // distinct names of this role in scope, other than l's own
        for (ir::id a : active)
            if (roles_[a].noun == roles_[l].noun && frame_[a].name != frame_[l].name &&
                std::find(names.begin(), names.end(), frame_[a].name) == names.end())
                names.push_back(frame_[a].name);
        return static_cast<int>(names.size());
    };
    auto speaks_to = [&](ir::id l) { roles_[l].you = roles_[l].ordinal == 0 && roles_[l].noun == "player"; };
    for (std::size_t l = 0; l < frame_.size(); ++l) roles_[l].you = false;
    for (std::size_t l = 0; l < frame_.size(); ++l)
        if (!bound[l] && is_role(static_cast<ir::id>(l))) {
            roles_[l].ordinal = ordinal_for(static_cast<ir::id>(l));
            speaks_to(static_cast<ir::id>(l));
            active.push_back(static_cast<ir::id>(l));
        }
    std::function<void(ir::id)> walk = [&](ir::id n) {
        if (n >= rs_.nodes.size()) return;
        const ir::node& x = rs_.nodes[n];
        const std::size_t depth = active.size();
        const auto kids = ir::children_of(rs_, n);
        if (x.code == ir::op::seq) {
            // A `let` is in scope for the rest of its sequence.
            for (ir::id k : kids) {
                walk(k);
                const ir::node& c = rs_.nodes[k];
                if (c.code == ir::op::let && is_role(c.ref)) {
                    roles_[c.ref].ordinal = ordinal_for(c.ref);
                    active.push_back(c.ref);
                }
            }
        } else {
            const bool binder = x.code == ir::op::for_each || x.code == ir::op::choose_one || x.code == ir::op::choose_subset ||
                                x.code == ir::op::choose_order || x.code == ir::op::any || x.code == ir::op::all ||
                                x.code == ir::op::count || x.code == ir::op::sum || x.code == ir::op::min || x.code == ir::op::max;
            if (binder && is_role(x.ref)) {
                roles_[x.ref].ordinal = ordinal_for(x.ref);
                if (x.code == ir::op::for_each) speaks_to(x.ref);
                active.push_back(x.ref);
            }
            for (ir::id k : kids) walk(k);
        }
        active.resize(depth);
    };
    for (ir::id r : roots) walk(r);
}

std::string english::local_name(ir::id l) const {
    if (auto it = renamed_.find(l); it != renamed_.end()) return it->second;
    if (is_role(l)) {
        if (roles_[l].you) return "you";
        // A list is what a choice picked: "the chosen cards", apart from "the players" (all of them).
        const bool list = frame_[l].type < rs_.types.size() && rs_.types[frame_[l].type].kind == ir::type_kind::list_of;
        return (list ? "the chosen " : "the ") + local_kind(l);
    }
    return l < frame_.size() ? humanize(frame_[l].name) : "?";
}

std::string english::local_kind(ir::id l) const {
    if (is_role(l)) return roles_[l].ordinal == 0 ? roles_[l].noun : ordinal_word(roles_[l].ordinal) + " " + roles_[l].noun;
    return l < frame_.size() ? humanize(frame_[l].name) : "?";
}

std::string english::parameters(std::size_t count, bool typed) const {
    std::string s;
    for (std::size_t i = 0; i < count && i < frame_.size(); ++i) {
        std::string one;
        if (is_role(static_cast<ir::id>(i))) {
            if (!typed) continue;
            const std::string kind = local_kind(static_cast<ir::id>(i));
            one = roles_[i].ordinal == 1 ? "an" + kind : with_article(kind);  // "another player"
        } else {
            one = humanize(frame_[i].name);
            if (typed) one += ": " + role_noun(rs_, frame_[i].type);
        }
        s += (s.empty() ? "" : ", ") + one;
    }
    return s.empty() ? "" : " (" + s + ")";
}

std::string english::args(ir::id n, std::size_t from) const {
    const auto kids = ir::children_of(rs_, n);
    std::string s;
    for (std::size_t i = from; i < kids.size(); ++i) {
        const std::string one = expr(kids[i]);
        if (one == "you") continue;  // "card window (Renewal Roll)": whose turn it is goes without saying
        s += (s.empty() ? "" : ", ") + one;
    }
    return s.empty() ? "" : " (" + s + ")";
}

// "p's gold" for a local owner, "the X's gold" otherwise.
std::string english::owner_field(ir::id owner_node, const std::string& field) const {
    const std::string owner = expr(owner_node);
    if (owner == "you") return "your " + field;
    if (owner == "it") return "its " + field;
    return owner + (owner.empty() || owner.back() == 's' ? "’ " : "’s ") + field;
}

// The card whose event's in-force value slot `s` is (docs/language.md, "Events on cards").
const ir::card_event* event_of_flag(const ir::ruleset& rs, ir::id s) {
    for (const ir::card_event& e : rs.card_events)
        if (e.flag == s && s != ir::no_id) return &e;
    return nullptr;
}

std::string event_card_name(const ir::ruleset& rs, const ir::card_event& e) {
    if (e.card >= rs.entities.size()) return "?";
    const ir::entity& c = rs.entities[e.card];
    return c.display.empty() ? humanize(c.name) : c.display;
}

std::optional<std::string> english::flag_phrase(ir::id n, bool negate) const {
    if (n >= rs_.nodes.size()) return std::nullopt;
    const ir::node& x = rs_.nodes[n];
    const bool not_node = x.code == ir::op::not_ && x.child_count == 1;
    const bool negated = not_node != negate;
    const ir::id field_node = not_node ? ir::children_of(rs_, n)[0] : n;
    const ir::node& f = rs_.nodes[field_node];
    if (f.code == ir::op::global)
        if (const ir::card_event* e = event_of_flag(rs_, f.ref))
            return event_card_name(rs_, *e) + "’s event is " + (negated ? "not " : "") + "in force";
    const bool field = f.code == ir::op::player_field || f.code == ir::op::entity_field || f.code == ir::op::attribute ||
                       f.code == ir::op::record_field || f.code == ir::op::node_attribute;
    const bool flag = f.type < rs_.types.size() && rs_.types[f.type].kind == ir::type_kind::boolean;
    if (!field || !flag || f.child_count != 1) return std::nullopt;
    // "your employed" reads "you are employed"; "the unit’s disrupted", "the unit is disrupted".
    const std::string owner = expr(ir::children_of(rs_, field_node)[0]);
    const std::string whole = expr(field_node);
    const std::string prefix = owner == "you" ? "your " : owner == "it" ? "its " : owner + (owner.empty() || owner.back() == 's' ? "’ " : "’s ");
    if (whole.rfind(prefix, 0) != 0) return std::nullopt;
    const std::string name = whole.substr(prefix.size());
    // A field that is already a verb phrase ("had undisciplined", "can move") takes no "is".
    for (const char* verb : {"had ", "has ", "have ", "is ", "can ", "may ", "must "})
        if (name.rfind(verb, 0) == 0) return owner + (negated ? " not " : " ") + name;
    const std::string be = owner == "you" ? " are " : " is ";
    return owner + be + (negated ? "not " : "") + name;
}

void english::assume(ir::id guard) {
    if (guard >= rs_.nodes.size()) return;
    if (rs_.nodes[guard].code == ir::op::and_) {
        for (ir::id c : ir::children_of(rs_, guard)) assume(c);
        return;
    }
    assumed_.push_back(condition(guard));
}

std::string english::condition(ir::id n) const {
    if (auto phrase = flag_phrase(n)) return *phrase;
    return expr(n);
}

std::string english::operand(ir::id n, ir::op parent) const {
    const ir::op code = rs_.nodes[n].code;
    bool mixed_logic = (parent == ir::op::and_ && code == ir::op::or_) || (parent == ir::op::or_ && code == ir::op::and_);
    if (mixed_logic) {
        // `a or <false option>` prints as `a` alone: no parentheses needed.
        const auto kids = ir::children_of(rs_, n);
        if (kids.size() == 2 && (static_value(rs_, kids[0]) || static_value(rs_, kids[1]))) mixed_logic = false;
    }
    const bool arithmetic_in_product = (parent == ir::op::mul || parent == ir::op::div || parent == ir::op::sub || parent == ir::op::neg) &&
                                       (code == ir::op::add || code == ir::op::sub);
    const bool logic_under_not = parent == ir::op::not_ && (code == ir::op::and_ || code == ir::op::or_);
    const bool logic = parent == ir::op::and_ || parent == ir::op::or_;
    const std::string s = logic ? condition(n) : expr(n);
    return mixed_logic || arithmetic_in_product || logic_under_not ? "(" + s + ")" : s;
}

bool english::is_zero_size(ir::id n) const {
    const ir::node& x = rs_.nodes[n];
    return x.code == ir::op::const_int && x.value == 0;
}

std::string english::comparison(ir::op code, ir::id left, ir::id right) const {
    const ir::node& l = rs_.nodes[left];
    const ir::node& r = rs_.nodes[right];
    // "the deck is empty" for size(z) == 0.
    if (l.code == ir::op::builtin && (l.ref == static_cast<ir::id>(ir::builtin::size) || l.ref == static_cast<ir::id>(ir::builtin::count)) &&
        is_zero_size(right) && l.child_count == 1) {
        const std::string what = expr(ir::children_of(rs_, left)[0]);
        if (code == ir::op::eq || code == ir::op::le) return what + " is empty";
        if (code == ir::op::gt || code == ir::op::ne) return what + " is not empty";
    }
    const std::string a = expr(left), b = expr(right);
    if (a == "you" && (code == ir::op::eq || code == ir::op::ne)) return "you are " + std::string(code == ir::op::ne ? "not " : "") + b;
    const bool number_on_right = r.code == ir::op::const_int ||
                                 (r.code == ir::op::option && r.type < rs_.types.size() && static_value(rs_, right) &&
                                  (rs_.types[r.type].kind == ir::type_kind::integer || rs_.types[r.type].kind == ir::type_kind::range));
    if (number_on_right) {
        switch (code) {
            case ir::op::ge: return a + " is " + b + " or more";
            case ir::op::le: return a + " is " + b + " or less";
            case ir::op::gt: return a + " is more than " + b;
            case ir::op::lt: return a + " is less than " + b;
            default: break;
        }
    }
    switch (code) {
        case ir::op::eq: return a + " is " + b;
        case ir::op::ne: return a + " is not " + b;
        case ir::op::lt: return a + " < " + b;
        case ir::op::le: return a + " ≤ " + b;
        case ir::op::gt: return a + " > " + b;
        case ir::op::ge: return a + " ≥ " + b;
        case ir::op::in: return a + " is in " + b;
        default: return a + " ? " + b;
    }
}

std::string english::expr(ir::id n) const {
    if (n >= rs_.nodes.size()) return "?";
    const ir::node& x = rs_.nodes[n];
    const auto kids = ir::children_of(rs_, n);
    auto kid = [&](std::size_t i) { return i < kids.size() ? expr(kids[i]) : std::string("?"); };
    auto named = [&](const auto& table) { return x.ref < table.size() ? humanize(table[x.ref].name) : std::string("?"); };
    switch (x.code) {
        case ir::op::absent: return "";
        case ir::op::const_int:
            if (x.type < rs_.types.size() && rs_.types[x.type].kind == ir::type_kind::player) return "no one";  // `none`
            return number(x.value);
        case ir::op::const_bool: return x.value ? "true" : "false";
        case ir::op::const_string:
            return x.value >= 0 && static_cast<std::size_t>(x.value) < rs_.strings.size() ? "“" + rs_.strings[static_cast<std::size_t>(x.value)] + "”" : "?";
        case ir::op::const_member: case ir::op::const_entity: case ir::op::const_node: return constant_english(rs_, x.type, x.value);
        case ir::op::dice: {
            if (x.ref >= rs_.dice_terms.size()) return "?";
            const ir::dice_term& d = rs_.dice_terms[x.ref];
            return std::to_string(d.count) + "d" + (d.low == 1 ? std::to_string(d.high) : "[" + std::to_string(d.low) + ".." + std::to_string(d.high) + "]");
        }
        case ir::op::dice_count: {
            if (x.ref >= rs_.dice_terms.size()) return "?";
            const ir::dice_term& d = rs_.dice_terms[x.ref];
            return "as many " + (d.low == 1 ? "d" + std::to_string(d.high) : "d[" + std::to_string(d.low) + ".." + std::to_string(d.high) + "]") +
                   " as " + kid(0);
        }
        case ir::op::range: return "the numbers from " + kid(0) + " to " + kid(1);
        case ir::op::local:
            if (renamed_.count(x.ref)) return local_name(x.ref);
            if (const auto it = bound_.find(x.ref); it != bound_.end() && x.ref < frame_.size())
                return constant_english(rs_, frame_[x.ref].type, it->second);
            return local_name(x.ref);
        case ir::op::global:
            if (const ir::card_event* e = event_of_flag(rs_, x.ref)) return event_card_name(rs_, *e) + "’s event is in force";
            if (x.type < rs_.types.size() && rs_.types[x.type].kind == ir::type_kind::player)
                if (std::string seat = seat_player(x.ref); !seat.empty()) return seat;
            return named(rs_.slots);
        case ir::op::player_field: case ir::op::entity_field: {
            const std::string field = x.ref < rs_.slots.size() ? field_name(rs_.slots[x.ref].name) : "?";
            return kids.empty() ? field : owner_field(kids[0], field);
        }
        case ir::op::attribute: case ir::op::record_field: case ir::op::node_attribute: {
            if (kids.empty()) return "?";
            if (!bound_.empty() && x.code != ir::op::record_field)
                if (const auto v = static_value(rs_, n, nullptr, &bound_, globals_)) return constant_english(rs_, x.type, *v);
            std::string field = "?";
            const ir::id t = rs_.nodes[kids[0]].type;
            if (t < rs_.types.size()) {
                const ir::type& ty = rs_.types[t];
                if (x.code == ir::op::attribute && ty.kind == ir::type_kind::entity && ty.ref < rs_.entity_kinds.size()) {
                    const ir::id r = rs_.entity_kinds[ty.ref].record;
                    if (r < rs_.records.size() && x.ref < rs_.records[r].fields.size()) field = field_name(rs_.records[r].fields[x.ref].name);
                } else if (x.code == ir::op::record_field && ty.kind == ir::type_kind::record && ty.ref < rs_.records.size() &&
                           x.ref < rs_.records[ty.ref].fields.size()) {
                    field = field_name(rs_.records[ty.ref].fields[x.ref].name);
                } else if (x.code == ir::op::node_attribute && ty.kind == ir::type_kind::node && ty.ref < rs_.maps.size() &&
                           x.ref < rs_.maps[ty.ref].attributes.size()) {
                    field = humanize(rs_.maps[ty.ref].attributes[x.ref].name);
                }
            }
            return owner_field(kids[0], field);
        }
        case ir::op::zone:
            // A per-player zone without a player (`deal 5 from deck to hand`) is every player's.
            if (x.ref < rs_.zones.size() && rs_.zones[x.ref].per_player) return "each player’s " + named(rs_.zones);
            // A per-location zone without a location is the one in every location.
            if (x.ref < rs_.zones.size() && rs_.zones[x.ref].map != ir::no_id) return "the " + named(rs_.zones) + " in every location";
            return "the " + named(rs_.zones);
        case ir::op::index: {
            if (kids.size() < 2) return "?";
            const ir::node& base = rs_.nodes[kids[0]];
            // hand[p] -> "p's hand"; p.traits[Etiquette] -> "p's Etiquette traits".
            // stack[c] -> "the stack in c" (one zone per location)
            if (base.code == ir::op::zone && base.ref < rs_.zones.size() && rs_.zones[base.ref].map != ir::no_id)
                return "the " + humanize(rs_.zones[base.ref].name) + " in " + kid(1);
            if (base.code == ir::op::zone) return owner_field(kids[1], base.ref < rs_.zones.size() ? humanize(rs_.zones[base.ref].name) : "?");
            if (base.code == ir::op::player_field || base.code == ir::op::entity_field) {
                const auto owner = ir::children_of(rs_, kids[0]);
                const std::string field = base.ref < rs_.slots.size() ? humanize(rs_.slots[base.ref].name) : "?";
                // p.traits[Etiquette] reads "your Etiquette traits"; an index that is itself a
                // thing named with "the" reads after the field: "your money used for the card".
                const std::string index = kid(1);
                const ir::id key_type = rs_.nodes[kids[1]].type;
                const bool card_key = key_type < rs_.types.size() && rs_.types[key_type].kind == ir::type_kind::entity;
                // a card or piece reads after the field too: "Pappenheim's dislikes for Blue"
                if (!owner.empty() && (card_key || index.rfind("the ", 0) == 0 || index == "you"))
                    return owner_field(owner[0], field) + " for " + index;
                if (!owner.empty()) return owner_field(owner[0], index + " " + field);
            }
            return kid(0) + " [" + kid(1) + "]";
        }
        case ir::op::option: {
            // The aid is made for one choice of options: print the chosen value itself.
            if (const auto v = static_value(rs_, n)) return constant_english(rs_, x.type, *v);
            return "option “" + (x.ref < rs_.options.size() ? rs_.options[x.ref].name : std::string("?")) + "”";
        }
        case ir::op::type_members: return "every " + role_noun(rs_, x.ref);
        case ir::op::roll: {
            if (x.ref >= rs_.rolls.size()) return "?";
            const ir::roll& r = rs_.rolls[x.ref];
            return with_article(humanize(r.name)) + (r.linear ? " (" + dice_text(r) + ")" : "");
        }
        case ir::op::quantity: case ir::op::lookup: case ir::op::decide: {
            const std::string name = x.code == ir::op::quantity ? named(rs_.quantities)
                                   : x.code == ir::op::lookup   ? named(rs_.tables)
                                                                : named(rs_.decisions);
            // hand_limit(p) -> "p's hand limit" when the only argument is a player.
            const bool predicate = x.code == ir::op::quantity && x.ref < rs_.quantities.size() && rs_.quantities[x.ref].predicate;
            if (!predicate && kids.size() == 1 && rs_.nodes[kids[0]].type < rs_.types.size() &&
                rs_.types[rs_.nodes[kids[0]].type].kind == ir::type_kind::player)
                return owner_field(kids[0], name);
            return name + args(n);
        }
        case ir::op::builtin: {
            const auto b = static_cast<ir::builtin>(x.ref);
            switch (b) {
                case ir::builtin::players: return "the players";
                case ir::builtin::active_player: return "the active player";
                case ir::builtin::opponents: return kids.empty() ? "the opponents" : owner_field(kids[0], "opponents");
                case ir::builtin::count: case ir::builtin::size: return "the number in " + kid(0);
                case ir::builtin::top: return "the top card of " + kid(0);
                case ir::builtin::min: return "the smaller of " + kid(0) + " and " + kid(1);
                case ir::builtin::max: return "the larger of " + kid(0) + " and " + kid(1);
                case ir::builtin::abs: return "the size of " + kid(0);
                case ir::builtin::ceil_div: return kid(0) + " ÷ " + kid(1) + " rounded up";
                case ir::builtin::floor_div: return kid(0) + " ÷ " + kid(1) + " rounded down";
                case ir::builtin::odds: return "the odds " + kid(0) + " to " + kid(1);
                case ir::builtin::adjacent: return kid(0) + " is next to " + kid(1);
                case ir::builtin::distance: return "the distance from " + kid(0) + " to " + kid(1);
                case ir::builtin::neighbours: return "the neighbours of " + kid(0);
                case ir::builtin::edge_kind: return "the kind of edge between " + kid(0) + " and " + kid(1);
                case ir::builtin::hexside: return "the hexside between " + kid(0) + " and " + kid(1);
                case ir::builtin::terrain: return "the terrain of " + kid(0);
                case ir::builtin::path_exists:
                case ir::builtin::path_length:
                case ir::builtin::line_blocked: {
                    const bool named = x.value >= 0 && static_cast<std::size_t>(x.value) < rs_.quantities.size();
                    const std::string via = named ? humanize(rs_.quantities[static_cast<std::size_t>(x.value)].name) : "?";
                    // the predicate's own arguments (`open_to(_, side)`): "open to (the side)", as a call reads
                    std::string with;
                    for (std::size_t i = 2; i < kids.size(); ++i) with += (i == 2 ? " (" : ", ") + kid(i) + (i + 1 == kids.size() ? ")" : "");
                    const std::size_t extra = kids.size() > 2 ? kids.size() - 2 : 0;
                    const std::uint32_t params = named ? rs_.quantities[static_cast<std::size_t>(x.value)].param_count : 0;
                    if (b == ir::builtin::line_blocked) {
                        if (extra) return "the line from " + kid(0) + " to " + kid(1) + " is blocked by hexes that are " + via + with;
                        return "the line from " + kid(0) + " to " + kid(1) + " is blocked by " + via + " hexes";
                    }
                    const bool steps = params == 2 + extra;
                    std::string route;
                    if (extra) route = steps ? " by steps that are " + via + with : " through spaces that are " + via + with;
                    else route = steps ? " by " + via + " steps" : " through " + via + " spaces";
                    if (b == ir::builtin::path_length)
                        return "the number of steps of the shortest path from " + kid(0) + " to " + kid(1) + route;
                    return "a path leads from " + kid(0) + " to " + kid(1) + route;
                }
            }
            return "?";
        }
        case ir::op::neg: return minus + operand(kids[0], ir::op::neg);
        case ir::op::not_:
            if (auto phrase = flag_phrase(n)) return *phrase;  // "the unit is not disrupted"
            return "not " + operand(kids[0], ir::op::not_);
        case ir::op::add: {
            // a + -3 reads "a − 3"
            const ir::node& r = rs_.nodes[kids[1]];
            if (r.code == ir::op::const_int && r.value < 0) return kid(0) + " " + minus + " " + std::to_string(-r.value);
            return kid(0) + " + " + kid(1);
        }
        case ir::op::sub: return kid(0) + " " + minus + " " + operand(kids[1], ir::op::sub);
        case ir::op::mul: return operand(kids[0], ir::op::mul) + " × " + operand(kids[1], ir::op::mul);
        case ir::op::div: return operand(kids[0], ir::op::div) + " ÷ " + operand(kids[1], ir::op::div);
        case ir::op::mod: return "the remainder of " + kid(0) + " ÷ " + kid(1);
        case ir::op::eq: case ir::op::ne: case ir::op::lt: case ir::op::le: case ir::op::gt: case ir::op::ge: case ir::op::in:
            return comparison(x.code, kids[0], kids[1]);
        case ir::op::and_: {
            // An operand the chosen options make true says nothing: leave it out.
            const auto a = static_value(rs_, kids[0], nullptr, nullptr, globals_), b = static_value(rs_, kids[1], nullptr, nullptr, globals_);
            if (a && *a) return expr(kids[1]);
            if (b && *b) return expr(kids[0]);
            return operand(kids[0], ir::op::and_) + " and " + operand(kids[1], ir::op::and_);
        }
        case ir::op::or_: {
            // An operand the chosen options make false says nothing either.
            const auto a = static_value(rs_, kids[0], nullptr, nullptr, globals_), b = static_value(rs_, kids[1], nullptr, nullptr, globals_);
            if (a && !*a) return expr(kids[1]);
            if (b && !*b) return expr(kids[0]);
            return operand(kids[0], ir::op::or_) + " or " + operand(kids[1], ir::op::or_);
        }
        case ir::op::cond:
            if (const auto v = static_value(rs_, kids[0], nullptr, &bound_, globals_)) return *v ? kid(1) : kid(2);
            return "if " + condition(kids[0]) + " then " + kid(1) + ", else " + kid(2);
        case ir::op::any: {
            // any(c in hand[p] : c.kind == E) reads "p's hand holds an Employer".
            const ir::node& b = rs_.nodes[kids[1]];
            if (b.code == ir::op::eq) {
                const auto bk = ir::children_of(rs_, kids[1]);
                const ir::node& l = rs_.nodes[bk[0]];
                const auto lk = ir::children_of(rs_, bk[0]);
                const ir::node& r = rs_.nodes[bk[1]];
                if (l.code == ir::op::attribute && lk.size() == 1 && rs_.nodes[lk[0]].code == ir::op::local &&
                    rs_.nodes[lk[0]].ref == x.ref && (r.code == ir::op::const_member || r.code == ir::op::const_entity))
                    return kid(0) + " holds " + with_article(expr(bk[1]));
            }
            return "some " + local_kind(x.ref) + among(kids[0]) + " where " + condition(kids[1]);
        }
        case ir::op::all: return "for every " + local_kind(x.ref) + among(kids[0]) + ", " + condition(kids[1]);
        case ir::op::count: return "the number of " + plural(local_kind(x.ref)) + among(kids[0]) + " where " + condition(kids[1]);
        case ir::op::sum: {
            // sum(c in pending : c.contract_mod) reads "the total contract mod of the cards in the pending".
            const ir::node& b = rs_.nodes[kids[1]];
            const auto bk = ir::children_of(rs_, kids[1]);
            if (b.code == ir::op::attribute && bk.size() == 1 && rs_.nodes[bk[0]].code == ir::op::local && rs_.nodes[bk[0]].ref == x.ref) {
                const std::string whole = expr(kids[1]);
                // "the card’s contract mod" -> "contract mod"
                const std::string owner_mark = "’s ";
                const std::size_t owner = whole.find(owner_mark);
                const std::string field = owner != std::string::npos ? whole.substr(owner + owner_mark.size()) : whole.substr(whole.find(' ') + 1);
                std::string things = "cards";
                if (x.ref < frame_.size() && frame_[x.ref].type < rs_.types.size()) {
                    const ir::type& t = rs_.types[frame_[x.ref].type];
                    if (t.kind == ir::type_kind::entity && t.ref < rs_.entity_kinds.size()) things = plural(humanize(rs_.entity_kinds[t.ref].name));
                }
                return "the total " + field + " of the " + things + " in " + kid(0);
            }
            // sum(c in z : if cond then v else 0) reads "the total of v over every card in z where cond".
            if (b.code == ir::op::cond && bk.size() == 3 && is_zero_size(bk[2]))
                return "the total of " + expr(bk[1]) + " over every " + local_kind(x.ref) + among(kids[0]) + " where " + expr(bk[0]);
            return "the total of " + kid(1) + " over every " + local_kind(x.ref) + among(kids[0]);
        }
        case ir::op::min: return "the least " + kid(1) + " of any " + local_kind(x.ref) + among(kids[0]);
        case ir::op::max: return "the greatest " + kid(1) + " of any " + local_kind(x.ref) + among(kids[0]);
        default: return statement(n, nullptr);
    }
}

// ---------------------------------------------------------------- statements

}  // namespace wp::docgen
