// English of a scenario's deployment: the calls that place pieces read as what each player sets
// up and where ("the French player sets up in the French 5 August area: 11 French Regular
// Infantry units, …, Turenne"), never as the procedures that do it; the engine's preparations
// (marking distances) are not printed.
#include "english.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

namespace wp::docgen {

namespace {

bool type_is(const ir::ruleset& rs, ir::id t, std::initializer_list<ir::type_kind> kinds) {
    if (t >= rs.types.size()) return false;
    for (ir::type_kind k : kinds)
        if (rs.types[t].kind == k) return true;
    return false;
}

// Whether procedure `p`, or one it calls, lets someone choose.
bool makes_choice(const ir::ruleset& rs, ir::id p, std::set<ir::id>& seen) {
    if (p >= rs.procedures.size() || !seen.insert(p).second) return false;
    bool found = false;
    visit(rs, rs.procedures[p].body, [&](ir::id m) {
        const ir::node& y = rs.nodes[m];
        if (y.code == ir::op::choose_one || y.code == ir::op::choose_subset || y.code == ir::op::choose_order || y.code == ir::op::may)
            found = true;
        else if (y.code == ir::op::call && !found)
            found = makes_choice(rs, y.ref, seen);
    });
    return found;
}

// The parameters of procedure `p` that bound where a piece goes: a place (an enum value or a
// space) read in the condition of a choice of a space, here or in a procedure it passes it to.
std::vector<bool> where_params(const ir::ruleset& rs, ir::id p, std::map<ir::id, std::vector<bool>>& memo) {
    if (const auto it = memo.find(p); it != memo.end()) return it->second;
    const ir::procedure& pr = rs.procedures[p];
    std::vector<bool> out(pr.param_count, false);
    memo[p] = out;  // a procedure that calls itself adds nothing
    auto mark = [&](ir::id root) {
        visit(rs, root, [&](ir::id m) {
            const ir::node& y = rs.nodes[m];
            if (y.code == ir::op::local && y.ref < pr.param_count) out[y.ref] = true;
        });
    };
    visit(rs, pr.body, [&](ir::id m) {
        const ir::node& y = rs.nodes[m];
        const auto k = ir::children_of(rs, m);
        if (y.code == ir::op::choose_one && k.size() > 2 && y.ref < pr.locals.size() && type_is(rs, pr.locals[y.ref].type, {ir::type_kind::node}))
            mark(k[2]);
        if (y.code == ir::op::call && y.ref < rs.procedures.size()) {
            const std::vector<bool> inner = where_params(rs, y.ref, memo);
            for (std::size_t i = 0; i < inner.size() && i < k.size(); ++i)
                if (inner[i]) mark(k[i]);
        }
    });
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = out[i] && type_is(rs, pr.locals[i].type, {ir::type_kind::enumeration, ir::type_kind::node});
    memo[p] = out;
    return out;
}

// What procedure `p` places when no piece is passed to it: the kind of piece its loop goes through.
std::string placed_kind(const ir::ruleset& rs, ir::id p) {
    std::string kind;
    visit(rs, rs.procedures[p].body, [&](ir::id m) {
        const ir::node& y = rs.nodes[m];
        if (!kind.empty() || y.code != ir::op::for_each || y.child_count == 0) return;
        const ir::node& set = rs.nodes[ir::children_of(rs, m)[0]];
        if (set.code == ir::op::type_members && set.ref < rs.types.size() && rs.types[set.ref].kind == ir::type_kind::entity &&
            rs.types[set.ref].ref < rs.entity_kinds.size())
            kind = humanize(rs.entity_kinds[rs.types[set.ref].ref].name);
    });
    return kind;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The one statement of a block of one (`{ place_unit(u, h); }`), or the node itself.
ir::id only_statement(const ir::ruleset& rs, ir::id n) {
    while (n < rs.nodes.size() && rs.nodes[n].code == ir::op::seq && rs.nodes[n].child_count == 1) n = ir::children_of(rs, n)[0];
    return n;
}

void conjuncts(const ir::ruleset& rs, ir::id n, std::vector<ir::id>& out) {
    if (rs.nodes[n].code == ir::op::and_ && rs.nodes[n].child_count == 2) {
        for (ir::id k : ir::children_of(rs, n)) conjuncts(rs, k, out);
        return;
    }
    out.push_back(n);
}

bool reads_local(const ir::ruleset& rs, ir::id n, ir::id l) {
    bool found = false;
    visit(rs, n, [&](ir::id m) { found = found || (rs.nodes[m].code == ir::op::local && rs.nodes[m].ref == l); });
    return found;
}

// Whether procedure `p`, or one it calls, has a node `pred` holds for.
bool procedure_has(const ir::ruleset& rs, ir::id p, const std::function<bool(const ir::node&, ir::id)>& pred, std::set<ir::id>& seen) {
    if (p >= rs.procedures.size() || !seen.insert(p).second) return false;
    bool found = false;
    visit(rs, rs.procedures[p].body, [&](ir::id m) {
        if (found) return;
        const ir::node& y = rs.nodes[m];
        found = pred(y, m) || (y.code == ir::op::call && procedure_has(rs, y.ref, pred, seen));
    });
    return found;
}

// The value of a game value nothing ever sets (`outpost: hex = 2012`): its first value.
std::optional<std::int64_t> unset_global(const ir::ruleset& rs, ir::id g) {
    if (g >= rs.slots.size() || rs.slots[g].scope != ir::slot_scope::global) return std::nullopt;
    for (std::size_t m = 0; m < rs.nodes.size(); ++m) {
        const ir::op c = rs.nodes[m].code;
        if (sets_value(c) && rs.nodes[m].child_count > 0) {
            const ir::node& t = rs.nodes[ir::children_of(rs, static_cast<ir::id>(m))[0]];
            if (t.code == ir::op::global && t.ref == g) return std::nullopt;
        }
    }
    return rs.slots[g].initial;
}

// "hex 2012" for a hex numbered on the map, else its name ("Vienna").
std::string space_words(const ir::ruleset& rs, ir::id t, std::int64_t v) {
    const std::string name = constant_english(rs, t, v);
    const bool digits = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
    return digits ? role_noun(rs, t) + " " + name : name;
}

}  // namespace

std::vector<std::string> option_labels(const ir::option& o) {
    // "a, b, or c" / "a, b or c" / "a or b": one phrase per value, in order
    std::vector<std::string> parts;
    std::string rest = o.aid;
    for (std::size_t cut; (cut = rest.find(", ")) != std::string::npos;) {
        parts.push_back(rest.substr(0, cut));
        rest.erase(0, cut + 2);
    }
    if (rest.rfind("or ", 0) == 0) rest.erase(0, 3);
    else if (const std::size_t cut = rest.rfind(" or "); cut != std::string::npos) {
        parts.push_back(rest.substr(0, cut));
        rest.erase(0, cut + 4);
    }
    parts.push_back(rest);
    if (!o.aid.empty() && parts.size() == o.values.size() && std::none_of(parts.begin(), parts.end(), [](const std::string& x) { return x.empty(); }))
        return parts;
    return {};
}

std::string option_value_words(const ir::ruleset& rs, const ir::option& o, std::size_t index) {
    if (index >= o.values.size()) return "?";
    if (const auto labels = option_labels(o); !labels.empty()) return labels[index];
    std::string v = constant_english(rs, o.type, o.values[index]);
    const std::string name = humanize(o.name);
    return v.find(name) == std::string::npos && o.kind == ir::option_kind::named ? v + " " + name : v;
}

std::string english::player_words(std::string words) const {
    if (words == "you" || words.empty()) return words;
    // "bavarian player": a word that is a member of one of the game's enums in capitals
    // ("Bavarian") is written as the game writes it.
    std::string out;
    std::size_t start = 0;
    while (start <= words.size()) {
        const std::size_t end = std::min(words.find(' ', start), words.size());
        std::string word = words.substr(start, end - start);
        for (const ir::enum_def& e : rs_.enums)
            for (const ir::enum_member& m : e.members)
                for (const std::string& form : {m.name, m.label})
                    if (!form.empty() && std::isupper(static_cast<unsigned char>(form[0])) && lower(form) == lower(word)) word = form;
        out += (out.empty() ? "" : " ") + word;
        start = end + 1;
    }
    return out.rfind("the ", 0) == 0 || out.rfind("player ", 0) == 0 ? out : "the " + out;
}

std::optional<english::placing> english::placement(ir::id call) const {
    if (call >= rs_.nodes.size() || rs_.nodes[call].code != ir::op::call || rs_.nodes[call].ref >= rs_.procedures.size()) return std::nullopt;
    const ir::id p = rs_.nodes[call].ref;
    const ir::procedure& pr = rs_.procedures[p];
    std::set<ir::id> seen;
    if (!makes_choice(rs_, p, seen)) return std::nullopt;
    std::map<ir::id, std::vector<bool>> memo;
    const std::vector<bool> where = where_params(rs_, p, memo);
    const auto kids = ir::children_of(rs_, call);
    placing out;
    std::optional<std::int64_t> count;
    std::string names;
    bool piece = false;  // a piece passed by name: its name says what it is
    for (std::size_t i = 0; i < pr.param_count && i < kids.size(); ++i) {
        const ir::id t = pr.locals[i].type;
        if (type_is(rs_, t, {ir::type_kind::player})) {
            out.who = player_words(expr(kids[i]));
            continue;
        }
        if (where[i]) {
            out.where = expr(kids[i]);
            continue;
        }
        if (type_is(rs_, t, {ir::type_kind::integer, ir::type_kind::range})) {
            // `if five then 11 else 6` with `five` decided
            ir::id n = kids[i];
            while (rs_.nodes[n].code == ir::op::cond && rs_.nodes[n].child_count == 3) {
                const auto ck = ir::children_of(rs_, n);
                const auto c = static_value(rs_, ck[0], nullptr, &bound_, globals_);
                if (!c) break;
                n = *c ? ck[1] : ck[2];
            }
            if ((count = static_value(rs_, n, nullptr, &bound_, globals_))) continue;
        }
        piece = piece || type_is(rs_, t, {ir::type_kind::entity});
        names += (names.empty() ? "" : " ") + expr(kids[i]);
    }
    if (out.who.empty() && out.where.empty()) return std::nullopt;
    if (count && *count <= 0) return out;  // places nothing: said nowhere
    const std::string kind = piece ? "" : placed_kind(rs_, p);
    out.what = count ? std::to_string(*count) : "";
    if (!names.empty()) out.what += (out.what.empty() ? "" : " ") + names;
    if (!kind.empty()) out.what += (out.what.empty() ? "" : " ") + (count && *count == 1 ? kind : plural(kind));
    return out;
}

bool english::plumbing(ir::id call) const {
    if (call >= rs_.nodes.size() || rs_.nodes[call].code != ir::op::call || rs_.nodes[call].ref >= rs_.procedures.size()) return false;
    std::set<ir::id> seen;
    return rs_.procedures[rs_.nodes[call].ref].param_count == 0 && !makes_choice(rs_, rs_.nodes[call].ref, seen);
}

std::string english::placings_text(const std::vector<placing>& run) {
    std::string s;
    for (std::size_t i = 0; i < run.size();) {
        std::size_t j = i;
        std::string what;
        for (; j < run.size() && run[j].who == run[i].who && run[j].where == run[i].where; ++j)
            if (!run[j].what.empty()) what += (what.empty() ? "" : ", ") + run[j].what;
        if (!what.empty()) {
            const std::string who = run[i].who.empty() ? "set up" : run[i].who + (run[i].who == "you" ? " set up" : " sets up");
            s += (s.empty() ? "" : "; ") + who + (run[i].where.empty() ? "" : " " + run[i].where) + ": " + what;
        }
        i = j;
    }
    return s;
}

std::optional<std::string> english::placing_loop(ir::id n) const {
    if (expand_ <= 0 || n >= rs_.nodes.size() || rs_.nodes[n].code != ir::op::for_each) return std::nullopt;
    const ir::node& x = rs_.nodes[n];
    const auto kids = ir::children_of(rs_, n);
    if (kids.size() < 3 || rs_.nodes[kids[0]].code != ir::op::type_members || rs_.nodes[kids[1]].code != ir::op::absent) return std::nullopt;
    const ir::id kind_type = rs_.nodes[kids[0]].ref;
    if (!type_is(rs_, kind_type, {ir::type_kind::entity}) || rs_.types[kind_type].ref >= rs_.entity_kinds.size()) return std::nullopt;
    const ir::entity_kind& kind = rs_.entity_kinds[rs_.types[kind_type].ref];
    // for each u in unit { if <u's data> and not u.<placed> and <space>.<count> == 0 { place(u, <space>); } }
    const ir::id test = only_statement(rs_, kids[2]);
    const auto tk = ir::children_of(rs_, test);
    if (rs_.nodes[test].code != ir::op::if_ || tk.size() < 2 || (tk.size() > 2 && rs_.nodes[tk[2]].code != ir::op::absent)) return std::nullopt;
    const ir::id call = only_statement(rs_, tk[1]);
    if (rs_.nodes[call].code != ir::op::call || rs_.nodes[call].ref >= rs_.procedures.size()) return std::nullopt;
    const ir::id p = rs_.nodes[call].ref;
    const ir::procedure& pr = rs_.procedures[p];
    // The constants of the game a value here may stand for: what the options and the deployment
    // decide, and the game values nothing sets.
    local_values fixed = globals_ ? *globals_ : local_values{};
    visit(rs_, test, [&](ir::id m) {
        const ir::node& y = rs_.nodes[m];
        if (y.code == ir::op::global && y.child_count == 0 && !fixed.count(y.ref))
            if (const auto v = unset_global(rs_, y.ref)) fixed[y.ref] = *v;
    });
    // The call: the piece, and one space every argument else is decided.
    const auto ck = ir::children_of(rs_, call);
    std::optional<std::int64_t> space;
    ir::id space_type = ir::no_id;
    bool piece = false;
    for (std::size_t i = 0; i < ck.size() && i < pr.param_count; ++i) {
        const ir::node& a = rs_.nodes[ck[i]];
        if (a.code == ir::op::local && a.ref == x.ref) {
            piece = true;
            continue;
        }
        const auto v = static_value(rs_, ck[i], nullptr, &bound_, &fixed);
        if (!v) return std::nullopt;
        if (type_is(rs_, pr.locals[i].type, {ir::type_kind::node})) {
            if (space) return std::nullopt;
            space = v;
            space_type = pr.locals[i].type;
        }
    }
    if (!piece || !space) return std::nullopt;
    std::vector<ir::id> parts;
    conjuncts(rs_, tk[0], parts);
    std::vector<std::string> data;  // "Bavarian", "Cavalry"
    bool another = false;           // not one already placed
    std::string count_field;        // the space's count that the placing raises: one piece only
    std::vector<ir::id> picked;     // the conditions the piece's data decide
    for (ir::id c : parts) {
        const ir::node& y = rs_.nodes[c];
        const auto yk = ir::children_of(rs_, c);
        if (!reads_local(rs_, c, x.ref)) {
            // <space>.<count> == 0, where the call raises <count>
            if (y.code != ir::op::eq || yk.size() != 2 || rs_.nodes[yk[0]].code != ir::op::entity_field || rs_.nodes[yk[0]].child_count != 1)
                return std::nullopt;
            const auto zero = static_value(rs_, yk[1], nullptr, &bound_, &fixed);
            const auto where = static_value(rs_, ir::children_of(rs_, yk[0])[0], nullptr, &bound_, &fixed);
            if (!zero || *zero != 0 || !where || *where != *space) return std::nullopt;
            const ir::id f = rs_.nodes[yk[0]].ref;
            std::set<ir::id> seen;
            const bool raises = procedure_has(rs_, p, [&](const ir::node& z, ir::id m) {
                return z.code == ir::op::add_assign && z.child_count == 2 && rs_.nodes[ir::children_of(rs_, m)[0]].code == ir::op::entity_field &&
                       rs_.nodes[ir::children_of(rs_, m)[0]].ref == f;
            }, seen);
            if (!raises || f >= rs_.slots.size()) return std::nullopt;
            count_field = field_name(rs_.slots[f].name);
            continue;
        }
        // not u.<flag>, where the call sets the flag: a piece not placed yet
        if (y.code == ir::op::not_ && yk.size() == 1 && rs_.nodes[yk[0]].code == ir::op::entity_field && rs_.nodes[yk[0]].child_count == 1 &&
            rs_.nodes[ir::children_of(rs_, yk[0])[0]].code == ir::op::local && rs_.nodes[ir::children_of(rs_, yk[0])[0]].ref == x.ref) {
            const ir::id f = rs_.nodes[yk[0]].ref;
            std::set<ir::id> seen;
            const bool sets = procedure_has(rs_, p, [&](const ir::node& z, ir::id m) {
                if (z.code != ir::op::assign || z.child_count != 2) return false;
                const auto zk = ir::children_of(rs_, m);
                return rs_.nodes[zk[0]].code == ir::op::entity_field && rs_.nodes[zk[0]].ref == f && rs_.nodes[zk[1]].code == ir::op::const_bool &&
                       rs_.nodes[zk[1]].value != 0;
            }, seen);
            if (!sets) return std::nullopt;
            another = true;
            continue;
        }
        // u.<attribute> == <constant>: what the piece is
        if (y.code != ir::op::eq || yk.size() != 2) return std::nullopt;
        const int side = rs_.nodes[yk[0]].code == ir::op::attribute ? 0 : 1;
        const ir::node& a = rs_.nodes[yk[side]];
        if (a.code != ir::op::attribute || a.child_count != 1 || rs_.nodes[ir::children_of(rs_, yk[side])[0]].code != ir::op::local ||
            !static_value(rs_, yk[1 - side]))
            return std::nullopt;
        data.push_back(expr(yk[1 - side]));
        picked.push_back(c);
    }
    if (count_field.empty()) return std::nullopt;
    // Some piece's data must fit, or nothing is placed.
    bool any = false;
    for (std::int64_t m = kind.first_entity; m < kind.first_entity + kind.entity_count && !any; ++m) {
        local_values one = bound_;
        one[x.ref] = m;
        any = std::all_of(picked.begin(), picked.end(), [&](ir::id c) {
            const auto v = static_value(rs_, c, nullptr, &one, &fixed);
            return v && *v != 0;
        });
    }
    if (!any) return std::nullopt;
    std::string what;
    for (const std::string& d : data) what += d + " ";
    return std::string(another ? "one more " : "one ") + what + humanize(kind.name) + " starts in " + space_words(rs_, space_type, *space) +
           ", if it has no " + count_field;
}

std::optional<std::string> english::piece_data(ir::id n) const {
    if (expand_ <= 0 || n >= rs_.nodes.size() || rs_.nodes[n].code != ir::op::assign || rs_.nodes[n].child_count != 2) return std::nullopt;
    const auto kids = ir::children_of(rs_, n);
    const ir::node& t = rs_.nodes[kids[0]];
    if ((t.code != ir::op::entity_field && t.code != ir::op::attribute) || t.child_count != 1) return std::nullopt;
    if (expr(ir::children_of(rs_, kids[0])[0]) != "it") return std::nullopt;
    const auto v = static_value(rs_, kids[1], nullptr, &bound_, globals_);
    if (!v || t.type >= rs_.types.size()) return std::nullopt;
    const ir::type& ty = rs_.types[t.type];
    // a space: where the piece is
    if (ty.kind == ir::type_kind::node) return "it is in " + space_words(rs_, t.type, *v);
    if (ty.kind != ir::type_kind::enumeration) return std::nullopt;
    // a state in the game's words ("on the map", "waiting"): what the piece is; a name ("Imperial"): the field's value
    const std::string value = constant_english(rs_, t.type, *v);
    if (!value.empty() && std::islower(static_cast<unsigned char>(value[0]))) return "it is " + value;
    return expr(kids[0]) + " is " + value;
}

std::string states_folded(const std::string& clauses) {
    const std::string is = "it is ";
    std::string out;
    bool last_is = false;
    for (std::size_t start = 0; start <= clauses.size();) {
        std::size_t end = clauses.find("; ", start);
        if (end == std::string::npos) end = clauses.size();
        const std::string one = clauses.substr(start, end - start);
        const bool this_is = one.rfind(is, 0) == 0;
        if (this_is && last_is) out += ", " + one.substr(is.size());
        else out += (out.empty() ? "" : "; ") + one;
        last_is = this_is;
        start = end + 2;
    }
    return out;
}

}  // namespace wp::docgen
