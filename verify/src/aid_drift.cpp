// The numbers an element uses: its constants (and their negations), its dice, its tables' keys
// and results, the numbers in the names of the spaces and pieces it names, and those of what it
// reads, one reference deep (a quantity, a decision's rules, a table, a roll, a procedure it
// calls): the aid text of a rule often says what a helper of it computes.
#include "aid_drift.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>
#include <set>
#include <string>

namespace wp::verify::detail {

namespace {

const std::string minus_sign = "\xE2\x88\x92";  // U+2212, as the aid prints it

struct numbers {
    std::set<std::int64_t> values;                          // as signed, and their negations
    std::set<std::pair<std::int64_t, std::int64_t>> dice;  // (count, faces)
};

struct collector {
    const ir::ruleset& rs;
    numbers found;
    std::set<std::pair<int, ir::id>> seen;  // (what, id) of the elements read

    void number(std::int64_t v) {
        found.values.insert(v);
        found.values.insert(-v);
    }
    // The digits in a name ("Deploy5", "aug3_rows", hex "1101") are numbers the text may use.
    void name(const std::string& s) {
        for (std::size_t i = 0; i < s.size();) {
            if (!std::isdigit(static_cast<unsigned char>(s[i]))) {
                ++i;
                continue;
            }
            std::size_t e = i;
            while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
            if (e - i < 12) number(std::stoll(s.substr(i, e - i)));
            i = e;
        }
    }
    // The modifiers of a quantity or a roll are part of what it gives (`+1 to tax_yield`).
    void modifiers_of(ir::target_kind kind, ir::id target, int depth) {
        for (const ir::rule& r : rs.rules)
            if (r.kind == ir::rule_kind::modifier && r.target == kind && r.target_id == target) {
                node(r.amount, depth);
                node(r.guard, depth);
            }
    }
    void dice(const ir::dice_term& d) {
        found.dice.insert({d.count, d.high});
        number(d.count);
        number(d.high);
    }
    void roll(ir::id r, int depth) {
        if (r >= rs.rolls.size() || !seen.insert({0, r}).second) return;
        modifiers_of(ir::target_kind::roll, r, depth);
        for (const ir::signed_dice& t : rs.rolls[r].terms) dice(t.dice);
        number(rs.rolls[r].constant);
        node(rs.rolls[r].expr, depth);
    }
    void table(ir::id t, int depth) {
        if (t >= rs.tables.size() || !seen.insert({1, t}).second) return;
        const ir::table& tb = rs.tables[t];
        for (const ir::table_row& row : tb.rows) number(row.key.lo), number(row.key.hi);
        for (const ir::key_range& c : tb.columns) number(c.lo), number(c.hi);
        for (const ir::table_cell& c : tb.cells) {
            if (c.has_outcome) number(c.outcome);
            node(c.effects, depth);
        }
        for (const ir::table_key& k : tb.keys) node(k.expr, depth);
    }
    void node(ir::id n, int depth) {
        if (n >= rs.nodes.size()) return;
        const ir::node& x = rs.nodes[n];
        switch (x.code) {
            case ir::op::const_int: number(x.value); break;
            case ir::op::dice: if (x.ref < rs.dice_terms.size()) dice(rs.dice_terms[x.ref]); break;
            case ir::op::const_member:
                if (x.type < rs.types.size() && rs.types[x.type].kind == ir::type_kind::enumeration && rs.types[x.type].ref < rs.enums.size()) {
                    const auto& members = rs.enums[rs.types[x.type].ref].members;
                    if (x.value >= 0 && static_cast<std::size_t>(x.value) < members.size()) {
                        name(members[static_cast<std::size_t>(x.value)].name);
                        name(members[static_cast<std::size_t>(x.value)].label);
                    }
                }
                break;
            case ir::op::const_entity:
                if (x.value >= 0 && static_cast<std::size_t>(x.value) < rs.entities.size()) {
                    name(rs.entities[static_cast<std::size_t>(x.value)].name);
                    name(rs.entities[static_cast<std::size_t>(x.value)].display);
                }
                break;
            case ir::op::option:
                if (x.ref < rs.options.size())
                    for (std::int64_t v : rs.options[x.ref].values) number(v);
                break;
            default: break;
        }
        if (depth > 0) {
            switch (x.code) {
                case ir::op::roll: roll(x.ref, depth - 1); break;
                case ir::op::lookup: case ir::op::resolve: table(x.ref, depth - 1); break;
                case ir::op::quantity:
                    if (x.ref < rs.quantities.size() && seen.insert({2, x.ref}).second) {
                        node(rs.quantities[x.ref].expr, depth - 1);
                        modifiers_of(ir::target_kind::quantity, x.ref, depth - 1);
                    }
                    break;
                case ir::op::call:
                    if (x.ref < rs.procedures.size() && seen.insert({3, x.ref}).second) node(rs.procedures[x.ref].body, depth - 1);
                    break;
                case ir::op::do_action:
                    if (x.ref < rs.actions.size() && seen.insert({4, x.ref}).second) {
                        node(rs.actions[x.ref].guard, depth - 1);
                        node(rs.actions[x.ref].body, depth - 1);
                    }
                    break;
                case ir::op::decide:
                    if (seen.insert({5, x.ref}).second)
                        for (const ir::rule& r : rs.rules)
                            if (r.target == ir::target_kind::decision && r.target_id == x.ref) {
                                node(r.value, depth - 1);
                                node(r.guard, depth - 1);
                            }
                    break;
                default: break;
            }
        }
        for (ir::id k : ir::children_of(rs, n)) node(k, depth);
    }
};

// A number of an aid text: its value, whether it was written with a sign, and a die's faces.
struct said {
    std::int64_t value = 0;
    bool signed_ = false;
    std::int64_t faces = 0;  // "2d6": value 2, faces 6
    std::string text;
};

std::vector<said> numbers_in(const std::string& t) {
    std::vector<said> out;
    auto digit = [&](std::size_t i) { return i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); };
    for (std::size_t i = 0; i < t.size();) {
        if (!digit(i)) {
            ++i;
            continue;
        }
        std::size_t start = i, end = i;
        while (digit(end)) ++end;
        // a letter, a digit's neighbour or § before it makes it part of a name ("E12", "§5"), and
        // so does a capitalised word before it ("Deploy 1", "Phase 2")
        bool glued = start > 0 && (std::isalpha(static_cast<unsigned char>(t[start - 1])) || t[start - 1] == '.' ||
                                   t[start - 1] == '#' || (start >= 2 && t.compare(start - 2, 2, "\xC2\xA7") == 0));
        if (start >= 2 && t[start - 1] == ' ') {
            std::size_t w = start - 1;
            while (w > 0 && std::isalpha(static_cast<unsigned char>(t[w - 1]))) --w;
            if (w < start - 1 && std::isupper(static_cast<unsigned char>(t[w]))) glued = true;
        }
        said s;
        s.value = std::stoll(t.substr(start, std::min<std::size_t>(end - start, 15)));
        std::size_t from = start;
        if (start > 0 && (t[start - 1] == '+' || t[start - 1] == '-')) {
            s.signed_ = true;
            if (t[start - 1] == '-') s.value = -s.value;
            from = start - 1;
        } else if (start >= 3 && t.compare(start - 3, 3, minus_sign) == 0) {
            s.signed_ = true;
            s.value = -s.value;
            from = start - 3;
        }
        std::size_t next = end;
        if (next < t.size() && t[next] == 'd' && digit(next + 1)) {  // a die: "2d6"
            std::size_t f = next + 1;
            while (digit(f)) ++f;
            s.faces = std::stoll(t.substr(next + 1, std::min<std::size_t>(f - next - 1, 15)));
            next = f;
        }
        const bool letter_after = next < t.size() && std::isalpha(static_cast<unsigned char>(t[next]));
        // "5 August": a day of a month is a date, not a number of the rules
        static const char* const months[] = {"January", "February", "March", "April", "May", "June", "July",
                                             "August", "September", "October", "November", "December"};
        bool date = false;
        for (const char* m : months)
            if (t.compare(next, 1 + std::strlen(m), std::string(" ") + m) == 0) date = true;
        s.text = t.substr(from, next - from);
        if (!glued && !letter_after && !date) out.push_back(s);
        i = next;
    }
    return out;
}

// `c` holds the numbers of the element.
void check_one(const ir::ruleset& rs, const std::string& what, const std::string& name, const std::string& text,
               const ir::provenance& prov, const collector& c, const ir::rule* modifier, check_result& out) {
    std::optional<std::int64_t> amount;
    if (modifier && modifier->amount < rs.nodes.size() && rs.nodes[modifier->amount].code == ir::op::const_int)
        amount = modifier->mod == ir::modifier_kind::add ? rs.nodes[modifier->amount].value : std::optional<std::int64_t>{};
    for (const said& s : numbers_in(text)) {
        std::string problem;
        if (s.faces) {
            if (!c.found.dice.count({s.value, s.faces})) problem = "names the die " + s.text + ", which none of its rolls is";
        } else if (s.signed_ && amount) {
            if (s.value != *amount)
                problem = "says " + s.text + ", but the modifier adds " +
                          (*amount > 0 ? "+" + std::to_string(*amount) : *amount < 0 ? minus_sign + std::to_string(-*amount) : "0");
        } else if (!c.found.values.count(s.value)) {
            problem = "names " + s.text + ", a number " + name + " no longer uses";
        }
        if (problem.empty()) continue;
        finding f;
        f.kind = "aid-drift";
        f.level = severity::warning;
        f.subject = name;
        f.message = "the aid text of " + what + " `" + name + "` " + problem + " (the aid prints the text as written)";
        f.elements.push_back({"aid text", name, prov});
        f.proof = proof_kind::proved;
        out.findings.push_back(std::move(f));
    }
}

// How deep the numbers of what an element reads count as its own: a rule, what it reads, and
// what that reads.
constexpr int depth = 2;

// A hex number ("between 1101 and 1601") is a space's name, whatever the element reads.
collector with_spaces(const ir::ruleset& rs) {
    collector c{rs, {}, {}};
    for (const ir::map& m : rs.maps)
        for (const ir::map_node& n : m.nodes) c.name(n.name);
    return c;
}

collector of_nodes(const ir::ruleset& rs, std::initializer_list<ir::id> roots) {
    collector c = with_spaces(rs);
    for (ir::id r : roots) c.node(r, depth);
    return c;
}

}  // namespace

void aid_drift(const ir::ruleset& rs, check_result& out) {
    for (const ir::rule& r : rs.rules) {
        if (ir::runs_a_given(r.kind) || r.aid.empty()) continue;
        check_one(rs, std::string(ir::name_of(r.kind)), r.name, r.aid, r.prov, of_nodes(rs, {r.amount, r.value, r.guard, r.body}),
                  r.kind == ir::rule_kind::modifier ? &r : nullptr, out);
    }
    for (const ir::block& b : rs.blocks)
        if (!b.aid.empty()) check_one(rs, b.word, b.path, b.aid, b.prov, of_nodes(rs, {b.node}), nullptr, out);
    for (const ir::action& a : rs.actions)
        if (!a.aid.empty()) check_one(rs, "action", a.name, a.aid, a.prov, of_nodes(rs, {a.guard, a.body}), nullptr, out);
    for (const ir::procedure& p : rs.procedures)
        if (!p.aid.empty()) check_one(rs, "procedure", p.name, p.aid, p.prov, of_nodes(rs, {p.body}), nullptr, out);
    for (std::size_t i = 0; i < rs.quantities.size(); ++i) {
        const ir::derived& q = rs.quantities[i];
        if (q.aid.empty()) continue;
        collector c = of_nodes(rs, {q.expr});
        c.modifiers_of(ir::target_kind::quantity, static_cast<ir::id>(i), depth);
        check_one(rs, q.predicate ? "predicate" : "quantity", q.name, q.aid, q.prov, c, nullptr, out);
    }
    for (std::size_t i = 0; i < rs.rolls.size(); ++i) {
        if (rs.rolls[i].aid.empty()) continue;
        collector c = with_spaces(rs);
        c.roll(static_cast<ir::id>(i), depth);
        check_one(rs, "roll", rs.rolls[i].name, rs.rolls[i].aid, rs.rolls[i].prov, c, nullptr, out);
    }
    for (std::size_t i = 0; i < rs.tables.size(); ++i) {
        if (rs.tables[i].aid.empty()) continue;
        collector c = with_spaces(rs);
        c.table(static_cast<ir::id>(i), depth);
        check_one(rs, "table", rs.tables[i].name, rs.tables[i].aid, rs.tables[i].prov, c, nullptr, out);
    }
}

}  // namespace wp::verify::detail
