// English of statements: a statement sequence as one run of clauses ("make a renewal roll
// (1d10): on 6 or more you keep your post"), each statement by its template, and the readings
// that take several statements together (english_loops.cpp, english_setup.cpp,
// english_seating.cpp, english_bookkeeping.cpp hold the larger ones).
#include "english.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

namespace wp::docgen {

namespace {

const std::string minus = "\xE2\x88\x92";  // U+2212, the minus sign

}  // namespace

std::string english::body(ir::id n, std::vector<ir::id>* nested) const {
    const std::string s = statements(n, nested);
    return s.empty() ? "nothing" : s;
}

std::string english::statements(ir::id n, std::vector<ir::id>* nested, bool top) const {
    if (n >= rs_.nodes.size()) return "";
    if (rs_.nodes[n].code != ir::op::seq) return statement(n, nested);
    std::string s;
    // Where calls are expanded (a scenario's deployment), calls of one procedure in a row share
    // the arguments they agree on: "deploy units (french player, in the French 5 August area):
    // French Regular, Infantry, 11; French Regular, Cavalry, 10".
    std::vector<std::vector<std::string>> run;  // the arguments of each call in the run
    ir::id run_proc = ir::no_id;
    auto flush = [&] {
        if (run.empty()) return;
        const std::string name = humanize(rs_.procedures[run_proc].name);
        std::string one;
        if (run.size() == 1) {
            for (const std::string& a : run[0]) one += (one.empty() ? "" : ", ") + a;
            one = name + (one.empty() ? "" : " (" + one + ")");
        } else {
            std::vector<bool> shared(run[0].size(), true);
            for (std::size_t i = 0; i < run[0].size(); ++i)
                for (const auto& r : run) shared[i] = shared[i] && r[i] == run[0][i];
            std::string common, each;
            for (std::size_t i = 0; i < run[0].size(); ++i)
                if (shared[i]) common += (common.empty() ? "" : ", ") + run[0][i];
            for (const auto& r : run) {
                std::string v;
                for (std::size_t i = 0; i < r.size(); ++i)
                    if (!shared[i]) v += (v.empty() ? "" : ", ") + r[i];
                each += (each.empty() ? "" : "; ") + v;
            }
            one = name + (common.empty() ? "" : " (" + common + ")") + ": " + each;
        }
        s += (s.empty() ? "" : "; ") + one;
        run.clear();
    };
    // In a deployment, calls that place pieces read as what each player sets up (english_setup.cpp).
    std::vector<placing> places;
    auto flush_places = [&] {
        if (const std::string p = placings_text(places); !p.empty()) s += (s.empty() ? "" : "; ") + p;
        places.clear();
    };
    // In a deployment, the branch an `if` decided by the scenario takes is read in line, so its
    // placings join those around it ("14 Bavarian Infantry units, …, 5 Bavarian guns, von Mercy").
    std::vector<ir::id> children;
    std::function<void(ir::id)> in_line = [&](ir::id c) {
        const ir::node& y = rs_.nodes[c];
        const auto yk = ir::children_of(rs_, c);
        if (expand_ > 0 && y.code == ir::op::seq) {
            for (ir::id k : yk) in_line(k);
            return;
        }
        if (expand_ > 0 && y.code == ir::op::if_ && yk.size() >= 2)
            if (const auto known = static_value(rs_, yk[0], nullptr, &bound_, globals_)) {
                if (*known) in_line(yk[1]);
                else if (yk.size() > 2 && rs_.nodes[yk[2]].code != ir::op::absent) in_line(yk[2]);
                return;
            }
        children.push_back(c);
    };
    for (ir::id c : ir::children_of(rs_, n)) in_line(c);
    for (std::size_t ci = 0; ci < children.size(); ++ci) {
        const ir::id c = children[ci];
        if (ci + 1 < children.size())
            if (auto counted = counted_loop(c, children[ci + 1], nested)) {
                flush();
                flush_places();
                s += (s.empty() ? "" : "; ") + *counted;
                ++ci;
                continue;
            }
        if (top && nested && rs_.nodes[c].code == ir::op::block) {
            nested->push_back(rs_.nodes[c].ref);
            continue;
        }
        const std::string one = statement(c, nested);
        if (one.empty()) continue;
        const ir::node& x = rs_.nodes[c];
        if (expand_ > 0 && x.code == ir::op::call && x.ref < rs_.procedures.size() && one == humanize(rs_.procedures[x.ref].name) + args(c)) {
            if (plumbing(c)) continue;
            if (auto p = placement(c)) {
                flush();
                places.push_back(std::move(*p));
                continue;
            }
            flush_places();
            std::vector<std::string> a;
            for (ir::id k : ir::children_of(rs_, c))
                if (std::string e = expr(k); e != "you") a.push_back(std::move(e));  // as args() reads them
            if (!run.empty() && (run_proc != x.ref || run[0].size() != a.size())) flush();
            run_proc = x.ref;
            run.push_back(std::move(a));
            continue;
        }
        flush();
        flush_places();
        s += (s.empty() ? "" : "; ") + one;
    }
    flush();
    flush_places();
    return s;
}

std::optional<std::vector<std::pair<std::int64_t, ir::id>>> english::unrolled(ir::id n) const {
    if (expand_ <= 0 || n >= rs_.nodes.size() || rs_.nodes[n].code != ir::op::for_each) return std::nullopt;
    const ir::node& x = rs_.nodes[n];
    const auto kids = ir::children_of(rs_, n);
    if (kids.size() < 3 || rs_.nodes[kids[0]].code != ir::op::type_members || x.ref >= frame_.size()) return std::nullopt;
    if (rs_.nodes[kids[1]].code != ir::op::absent) return std::nullopt;
    const ir::id t = rs_.nodes[kids[0]].ref;
    if (t >= rs_.types.size()) return std::nullopt;
    const ir::type& ty = rs_.types[t];
    std::int64_t first = 0, count = 0;
    if (ty.kind == ir::type_kind::entity && ty.ref < rs_.entity_kinds.size()) {
        first = rs_.entity_kinds[ty.ref].first_entity;
        count = rs_.entity_kinds[ty.ref].entity_count;
    } else if (ty.kind == ir::type_kind::node && ty.ref < rs_.maps.size()) {
        count = static_cast<std::int64_t>(rs_.maps[ty.ref].nodes.size());
    } else {
        return std::nullopt;
    }
    // The body: `if` statements with no `else`, each decided by the member's data.
    std::vector<ir::id> ifs;
    ir::id body = kids[2];
    if (rs_.nodes[body].code == ir::op::seq) {
        const auto b = ir::children_of(rs_, body);
        ifs.assign(b.begin(), b.end());
    } else {
        ifs.push_back(body);
    }
    if (ifs.empty()) return std::nullopt;
    for (ir::id i : ifs) {
        const auto ik = ir::children_of(rs_, i);
        if (rs_.nodes[i].code != ir::op::if_ || ik.size() < 2 || (ik.size() > 2 && rs_.nodes[ik[2]].code != ir::op::absent)) return std::nullopt;
    }
    std::vector<std::pair<std::int64_t, ir::id>> out;
    local_values values = bound_;
    for (std::int64_t m = first; m < first + count; ++m) {
        values[x.ref] = m;
        for (ir::id i : ifs) {
            const auto ik = ir::children_of(rs_, i);
            const auto v = static_value(rs_, ik[0], nullptr, &values, globals_);
            if (!v) return std::nullopt;
            if (*v) out.emplace_back(m, ik[1]);
        }
    }
    return out;
}

std::string english::statement(ir::id n, std::vector<ir::id>* nested) const {
    if (n >= rs_.nodes.size()) return "?";
    const ir::node& x = rs_.nodes[n];
    const auto kids = ir::children_of(rs_, n);
    auto kid = [&](std::size_t i) { return i < kids.size() ? expr(kids[i]) : std::string("?"); };
    auto present = [&](std::size_t i) { return i < kids.size() && rs_.nodes[kids[i]].code != ir::op::absent; };
    auto sub = [&](std::size_t i) { return i < kids.size() ? body(kids[i], nested) : std::string("nothing"); };
    if (sets_value(x.code) && !kids.empty()) {
        const ir::node& target = rs_.nodes[kids[0]];
        if ((target.code == ir::op::global || target.code == ir::op::player_field || target.code == ir::op::entity_field) && bookkeeping(target.ref))
            return "";  // a counter kept to refuse a choice: the refusal says it (english_bookkeeping.cpp)
    }
    switch (x.code) {
        case ir::op::seq: return statements(n, nested);
        case ir::op::block: {
            if (x.ref >= rs_.blocks.size()) return "";
            const ir::block& b = rs_.blocks[x.ref];
            if (nested) {
                // Named here, printed as an entry of its own after this one — unless the chosen
                // options leave it nothing to do, in which case it is not printed at all.
                std::vector<ir::id> inner;
                if (!kids.empty() && statements(kids[0], &inner, true).empty() && inner.empty()) return "";
                nested->push_back(x.ref);
                if (b.name.empty()) return capitalised(b.word);
                const std::string name = humanize(b.name);
                // Phases and steps are numbered in the list below; the text names them alone.
                if (b.word == "phase" || b.word == "step") return capitalised(name);
                return name.find(b.word) != std::string::npos ? capitalised(name) : b.word + " " + capitalised(name);
            }
            return kids.empty() ? "" : statements(kids[0], nullptr);
        }
        case ir::op::let:
            // A value the options and the bound constants decide is read where it is used.
            if (!bound_.empty() && !kids.empty())
                if (const auto v = static_value(rs_, kids[0], nullptr, &bound_, globals_)) {
                    bound_[x.ref] = *v;
                    return "";
                }
            // `let r = roll renewal_roll(p)` reads "make a renewal roll (1d10)"; later uses of r
            // read "the renewal roll" (see name_local).
            if (!kids.empty() && rs_.nodes[kids[0]].code == ir::op::roll) return "make " + kid(0);
            // `let c = top(deck)` reads "the card is the top card of the deck".
            if (is_role(x.ref)) return local_name(x.ref) + " is " + kid(0);
            return local_name(x.ref) + " = " + kid(0);
        case ir::op::assign: {
            // `u.disrupted = true` reads "the unit is disrupted"; `campaign_on = false`,
            // "campaign on: no".
            if (auto s = piece_data(n)) return *s;  // "it is on the map"
            const ir::node& v = rs_.nodes[kids[1]];
            if (rs_.nodes[kids[0]].code == ir::op::global)
                if (const ir::card_event* e = event_of_flag(rs_, rs_.nodes[kids[0]].ref))
                    return event_card_name(rs_, *e) + "’s event " +
                           (v.code != ir::op::const_bool ? "is in force only if " + condition(kids[1])
                            : v.value                    ? "is in force"
                                                         : "ends");
            if (v.code == ir::op::const_bool) {
                if (auto phrase = flag_phrase(kids[0], v.value == 0)) return *phrase;
                const ir::node& t = rs_.nodes[kids[0]];
                if (t.type < rs_.types.size() && rs_.types[t.type].kind == ir::type_kind::boolean)
                    return kid(0) + (v.value != 0 ? ": yes" : ": no");
            }
            // A setup's starting value of a game value reads as a setup card says it: "year:
            // 1618", "initiative: the Imperial player".
            if (setup_ && expand_ == 0 && rs_.nodes[kids[0]].code == ir::op::global && rs_.nodes[kids[0]].child_count == 0 &&
                static_value(rs_, kids[1]))
                return kid(0) + ": " + kid(1);
            if (setup_ && expand_ == 0 && rs_.nodes[kids[0]].code == ir::op::global && rs_.nodes[kids[0]].child_count == 0 &&
                !seat_player(rs_.nodes[kids[0]].ref).empty())
                return "";  // set by the seating, which says who it is
            if (setup_ && expand_ == 0 && rs_.nodes[kids[0]].code == ir::op::global && rs_.nodes[kids[1]].code == ir::op::global &&
                !seat_player(rs_.nodes[kids[1]].ref).empty())
                return kid(0) + ": " + kid(1);
            // In a deployment, a game value set for the engine's own sake (`today = aug5_rows`)
            // is not printed; a player's part is: "the Bavarian player is the first player".
            if (expand_ > 0 && rs_.nodes[kids[0]].code == ir::op::global && kid(1) != "you") {
                const ir::id t = rs_.nodes[kids[0]].type;
                if (t < rs_.types.size() && rs_.types[t].kind == ir::type_kind::player) return player_words(kid(1)) + " is " + player_words(kid(0));
                if (static_value(rs_, kids[1], nullptr, &bound_, globals_) && t < rs_.types.size() &&
                    rs_.types[t].kind != ir::type_kind::boolean)
                    return "";
            }
            // `phasing = p` reads "you are phasing"; `imperial_player = p`, "you are the imperial player".
            if (kid(1) == "you" && rs_.nodes[kids[0]].code == ir::op::global) {
                const std::string name = kid(0);
                return "you are " + std::string(name.find("player") != std::string::npos ? "the " : "") + name;
            }
            // A stored list takes the members in the order they come: "turn order becomes the chosen players".
            {
                const ir::node& t = rs_.nodes[kids[0]];
                if (t.type < rs_.types.size() && rs_.types[t.type].kind == ir::type_kind::list_of)
                    return kid(0) + " becomes " + kid(1) + ", in that order";
            }
            return kid(0) + " = " + kid(1);
        }
        case ir::op::fix_roll: return kid(0) + " = " + kid(1);
        case ir::op::add_assign: case ir::op::sub_assign: {
            const ir::node& v = rs_.nodes[kids[1]];
            // In a deployment, an amount the data decide: "0508’s Imperial inf +10"; +0 says nothing.
            if (expand_ > 0 && !bound_.empty())
                if (const auto k = static_value(rs_, kids[1], nullptr, &bound_, globals_))
                    return *k == 0 ? "" : kid(0) + " " + signed_number(x.code == ir::op::add_assign ? *k : -*k);
            if (v.code == ir::op::const_int)
                return kid(0) + " " + (v.value == 0 ? "+0" : signed_number(x.code == ir::op::add_assign ? v.value : -v.value));
            return (x.code == ir::op::add_assign ? "add " + kid(1) + " to " : "take " + kid(1) + " from ") + kid(0);
        }
        case ir::op::if_: {
            // `if c.in_force { c.in_force = false; }` after a turn or phase (the compiler's): the
            // card's text says how long its event lasts, so the sequence says nothing here.
            if (!present(2) && rs_.nodes[kids[0]].code == ir::op::global)
                if (event_of_flag(rs_, rs_.nodes[kids[0]].ref)) {
                    const auto body = ir::children_of(rs_, kids[1]);
                    if (body.size() == 1 && rs_.nodes[body[0]].code == ir::op::assign) return "";
                }
            if (const auto known = static_value(rs_, kids[0], nullptr, &bound_, globals_)) {
                if (*known) return kids.size() > 1 ? statements(kids[1], nested) : "";
                return present(2) ? statements(kids[2], nested) : "";
            }
            if (!assumed_.empty() && std::find(assumed_.begin(), assumed_.end(), condition(kids[0])) != assumed_.end())
                return kids.size() > 1 ? statements(kids[1], nested) : "";
            // An `if` whose branches say nothing (they only keep bookkeeping) is not printed.
            if (kids.size() > 1 && statements(kids[1], nullptr).empty() && (!present(2) || statements(kids[2], nullptr).empty())) return "";
            // Right after a `may` that sets it: "if they do".
            if (chosen_flag_ != ir::no_id) {
                ir::id c = kids[0];
                for (bool more = true; more;) {  // `siege or defends_town` with the siege ruled out
                    more = false;
                    const ir::node& y = rs_.nodes[c];
                    const auto yk = ir::children_of(rs_, c);
                    if ((y.code == ir::op::or_ || y.code == ir::op::and_) && yk.size() == 2)
                        for (int side = 0; side < 2 && !more; ++side)
                            if (const auto v = static_value(rs_, yk[side], nullptr, &bound_, globals_);
                                v && (*v != 0) == (y.code == ir::op::and_)) {
                                c = yk[1 - side];
                                more = true;
                            }
                }
                if (rs_.nodes[c].code == ir::op::global && rs_.nodes[c].ref == chosen_flag_) {
                    chosen_flag_ = ir::no_id;
                    std::string s = "if they do: " + sub(1);
                    if (present(2)) s += "; otherwise " + sub(2);
                    return s;
                }
            }
            std::string s = "if " + condition(kids[0]) + ": " + sub(1);
            if (present(2)) s += "; otherwise " + sub(2);
            return s;
        }
        case ir::op::for_each: {
            // The plumbing of a setup or a deployment read as what it does (english_setup.cpp,
            // english_seating.cpp): "one more Bavarian Cavalry unit starts in hex 2012", "seat 1 plays …".
            if (auto s = placing_loop(n)) return *s;
            if (auto s = seating(n)) return *s;
            // A loop whose body says nothing (it only keeps bookkeeping) is not printed.
            if (kids.size() > 2 && statements(kids[2], nullptr).empty()) return "";
            // Where calls are expanded (a scenario's deployment), a loop over every piece or space
            // of a kind that acts on those its data picks reads member by member: "Tilly: …".
            if (const auto members = unrolled(n)) {
                // Members that get the same words share them: "0107, 0306: it is held; …".
                std::vector<std::pair<std::string, std::string>> groups;  // names, what
                for (const auto& [m, then] : *members) {
                    english one = *this;
                    one.bound_[x.ref] = m;
                    one.renamed_[x.ref] = "it";
                    const std::string what = states_folded(one.statements(then, nullptr));
                    if (what.empty()) continue;
                    const std::string name = constant_english(rs_, frame_[x.ref].type, m);
                    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& y) { return y.second == what; });
                    if (g == groups.end()) groups.emplace_back(name, what);
                    else g->first += ", " + name;
                }
                std::string out;
                for (const auto& [names, what] : groups) out += (out.empty() ? "" : "; ") + names + ": " + what;
                return out;
            }
            // for each c in pending { move c from pending to discard; } reads "move every card in
            // the pending to the discard".
            if (kids.size() > 2 && !present(1)) {
                ir::id only = kids[2];
                if (rs_.nodes[only].code == ir::op::seq && rs_.nodes[only].child_count == 1) only = ir::children_of(rs_, only)[0];
                const auto mk = ir::children_of(rs_, only);
                if (rs_.nodes[only].code == ir::op::move && mk.size() == 3 && rs_.nodes[mk[0]].code == ir::op::local &&
                    rs_.nodes[mk[0]].ref == x.ref && expr(mk[1]) == kid(0)) {
                    std::string what = "thing";
                    if (x.ref < frame_.size() && frame_[x.ref].type < rs_.types.size()) {
                        const ir::type& t = rs_.types[frame_[x.ref].type];
                        if (t.kind == ir::type_kind::entity && t.ref < rs_.entity_kinds.size()) what = humanize(rs_.entity_kinds[t.ref].name);
                    }
                    return "move every " + what + " in " + kid(0) + " to " + expr(mk[2]);
                }
            }
            const bool numbers = !kids.empty() && rs_.nodes[kids[0]].code == ir::op::range;
            if (numbers) {
                // for i in 1..3 { … } whose body never reads i: "3 times: …".
                const auto k = ir::children_of(rs_, kids[0]);
                bool read = false;
                if (kids.size() > 2)
                    visit(rs_, kids[2], [&](ir::id m) { read = read || (rs_.nodes[m].code == ir::op::local && rs_.nodes[m].ref == x.ref); });
                const auto lo = k.size() == 2 ? static_value(rs_, k[0]) : std::nullopt;
                const auto hi = k.size() == 2 ? static_value(rs_, k[1]) : std::nullopt;
                if (!read && lo && hi) return (*hi - *lo + 1 == 1 ? std::string("once") : std::to_string(*hi - *lo + 1) + " times") + ": " + sub(2);
                return "for every " + (is_role(x.ref) ? std::string("number") : local_name(x.ref)) + " " + range_words(kids[0]) + ": " + sub(2);
            }
            // The players in seat order: "each player in turn, starting with the first player".
            const bool seats = !kids.empty() && rs_.nodes[kids[0]].code == ir::op::builtin &&
                               rs_.nodes[kids[0]].ref == static_cast<ir::id>(ir::builtin::players);
            std::string s = seats ? "each " + local_kind(x.ref) + (secret_depth_ > 0 ? "" : " in turn") : "for every " + local_kind(x.ref) + among(kids[0]);
            if (present(1)) s += (seats ? ", starting with " : " starting with ") + kid(1);
            return s + ": " + sub(2);
        }
        case ir::op::repeat_until:
            // `repeat { … } until false`: the game's own loop, which only the end of the game stops.
            if (const auto v = static_value(rs_, kids[1]); v && !*v) return "repeat until the game ends: " + sub(0);
            return "repeat: " + sub(0) + "; until " + kid(1);
        case ir::op::while_:
            if (const auto v = static_value(rs_, kids[0]); v && *v) return "repeat until the game ends: " + sub(1);
            return "while " + condition(kids[0]) + ": " + sub(1);
        case ir::op::shuffle: return "shuffle " + kid(0);
        case ir::op::draw: return "draw " + kid(0) + " from " + kid(1) + " into " + kid(2);
        case ir::op::deal: return "deal " + kid(0) + " from " + kid(1) + " to " + kid(2);
        case ir::op::move: return "move " + kid(0) + " from " + kid(1) + " to " + kid(2);
        case ir::op::reshuffle:
            if (x.value == 1) return "move everything in " + kid(0) + " to " + kid(1) + ", together";
            return "shuffle " + kid(0) + " into " + kid(1);
        case ir::op::choose_one: case ir::op::choose_subset: case ir::op::choose_order: {
            std::string s = present(1) ? kid(1) + (kid(1) == "you" ? " choose " : " chooses ") : "choose ";
            if (x.code == ir::op::choose_one && !kids.empty() && rs_.nodes[kids[0]].code == ir::op::range) {
                s += "a number " + (is_role(x.ref) ? "" : local_name(x.ref) + " ") + range_words(kids[0]);
            } else {
                const std::string kind = local_kind(x.ref);
                const std::string one = is_role(x.ref) && roles_[x.ref].ordinal == 1 ? "an" + kind : with_article(kind);
                // A subset or an order binds a list, whose role is already plural ("cards").
                const bool list = x.ref < frame_.size() && frame_[x.ref].type < rs_.types.size() &&
                                  rs_.types[frame_[x.ref].type].kind == ir::type_kind::list_of;
                const std::string many = list && is_role(x.ref) ? kind : plural(kind);
                s += x.code == ir::op::choose_one ? one + " from "
                     : x.code == ir::op::choose_subset ? "some " + many + " from " : "the order of the " + many + " in ";
                s += kid(0);
            }
            if (x.code == ir::op::choose_subset && kids.size() > 4 && present(2)) {
                // An objective: "whose total is the largest not exceeding the bound" when the
                // condition bounds the objective itself (GMT §12.31), else the condition and the aim.
                const ir::node& c = rs_.nodes[kids[2]];
                const bool most = x.value == 1;
                const std::vector<ir::id> ck(rs_.children.begin() + c.first_child,
                                             rs_.children.begin() + c.first_child + c.child_count);
                const bool bounds = ck.size() == 2 && expr(ck[0]) == kid(4) &&
                                    ((most && (c.code == ir::op::le || c.code == ir::op::lt)) ||
                                     (!most && (c.code == ir::op::ge || c.code == ir::op::gt)));
                std::string aim = kid(4);
                if (aim.rfind("the ", 0) == 0) aim.erase(0, 4);
                if (bounds)
                    s += " whose " + aim + " is the " + (most ? "largest" : "smallest") +
                         (c.code == ir::op::le ? " not exceeding " : c.code == ir::op::lt ? " below "
                          : c.code == ir::op::ge ? " not below " : " above ") + expr(ck[1]);
                else
                    s += " where " + kid(2) + ", with the " + (most ? "largest " : "smallest ") + kid(4) + " possible";
                return s + ": " + sub(3);
            }
            if (present(2)) s += " where " + condition(kids[2]);
            return s + ": " + sub(3);
        }
        case ir::op::may: {
            const std::string label = x.value >= 0 && static_cast<std::size_t>(x.value) < rs_.strings.size()
                                          ? rs_.strings[static_cast<std::size_t>(x.value)] : "act";
            // In a deployment, a `may` that only sets a yes/no game value is the choice itself;
            // the `if` on the value after it reads "if they do".
            if (expand_ > 0 && present(1)) {
                ir::id only = kids[1];
                if (rs_.nodes[only].code == ir::op::seq && rs_.nodes[only].child_count == 1) only = ir::children_of(rs_, only)[0];
                const auto ok = ir::children_of(rs_, only);
                if (rs_.nodes[only].code == ir::op::assign && ok.size() == 2 && rs_.nodes[ok[0]].code == ir::op::global &&
                    rs_.nodes[ok[1]].code == ir::op::const_bool && rs_.nodes[ok[1]].value != 0) {
                    chosen_flag_ = rs_.nodes[ok[0]].ref;
                    return player_words(present(0) ? kid(0) : std::string("you")) + " may " + label;
                }
            }
            return (present(0) ? kid(0) : std::string("you")) + " may " + label + ": " + sub(1);
        }
        case ir::op::do_action: return (x.ref < rs_.actions.size() ? humanize(rs_.actions[x.ref].name) : "?") + args(n);
        case ir::op::resolve: return "roll on the " + (x.ref < rs_.tables.size() ? table_name(rs_.tables[x.ref].name) : "?");
        case ir::op::emit:
            if (!show_events_) return "";
            // The event's name says what happened; its arguments are the rule's own names.
            return "→ " + (x.ref < rs_.events.size() ? humanize(rs_.events[x.ref].name) : "?");
        case ir::op::call: {
            if (x.ref >= rs_.procedures.size()) return "?";
            if (const auto it = renamed_calls_.find(n); it != renamed_calls_.end()) return it->second;
            if (std::find(rs_.event_dispatchers.begin(), rs_.event_dispatchers.end(), x.ref) != rs_.event_dispatchers.end())
                return "the event of " + kid(0) + " happens (the card says what)";
            const ir::procedure& pr = rs_.procedures[x.ref];
            if (expand_ > 0 && pr.body != ir::no_id) {
                english inner(rs_, pr.locals);
                inner.scope_roles({pr.body});
                inner.expand_ = expand_ - 1;
                inner.globals_ = globals_;
                inner.show_events_ = show_events_;
                for (std::size_t i = 0; i < pr.param_count && i < kids.size(); ++i) {
                    if (const auto v = static_value(rs_, kids[i], nullptr, &bound_, globals_)) inner.bind(static_cast<ir::id>(i), *v);
                    else inner.name_local(static_cast<ir::id>(i), expr(kids[i]));
                }
                bool decided = false;
                visit(rs_, pr.body, [&](ir::id m) {
                    const ir::node& y = rs_.nodes[m];
                    if ((y.code == ir::op::if_ || y.code == ir::op::cond) && y.child_count > 0)
                        decided = decided || static_value(rs_, ir::children_of(rs_, m)[0], nullptr, &inner.bound_, globals_).has_value();
                });
                visit(rs_, pr.body, [&](ir::id m) { decided = decided || inner.unrolled(m).has_value(); });
                if (decided) return inner.statements(pr.body);
            }
            // the designer's words for what it does, in place of its name (docs/language.md §13)
            if (!pr.aid.empty()) return pr.aid;
            if (!ending_) ending_ = std::make_shared<const std::vector<bool>>(ir::procedures_ending_turn(rs_));
            return humanize(pr.name) + args(n) + (x.ref < ending_->size() && (*ending_)[x.ref] ? " (it can end the turn at once)" : "");
        }
        case ir::op::end_game: {
            const std::string reason = x.value >= 0 && static_cast<std::size_t>(x.value) < rs_.strings.size()
                                           ? humanize(rs_.strings[static_cast<std::size_t>(x.value)]) : "?";
            return std::string("the game ends") + (x.ref == 1 ? " at the end of the turn" : x.ref == 2 ? " at the end of the round" : "") +
                   " (" + reason + ")";
        }
        case ir::op::end_turn: return "the turn ends at once";
        // docs/language.md §5: said in plain words, never the block's keyword
        case ir::op::simultaneous:
        {
            // inside, a loop over the players is no longer "in turn"
            ++secret_depth_;
            const std::string inside = sub(0);
            --secret_depth_;
            return "all at once, in secret: " + inside;
        }
        case ir::op::reveal: return "then all reveal";
        default: return expr(n);
    }
}

}  // namespace wp::docgen
