// Outcome by outcome comparison of two stacks of one ruleset. Both stacks are encoded in one Z3
// context over one free state: state values and card places of the new stack are the old
// stack's variables of the same name, and the values a rule reads that are not state (dice, a
// decision or table outcome read inside a guard) are paired by what they stand for, so the
// same situation is asked of both. A subject changed where the two encodings differ.
#include "westphalia/verify/diff.hpp"

#include "replay.hpp"
#include "symbolic.hpp"
#include "watchdog.hpp"

#include "westphalia/ir/print.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

namespace wp::verify {

namespace {

using detail::fact;
using detail::store;
using detail::symbolic;
using detail::variable;
using ir::id;
using ir::op;

// A subject of one stack: what it is and where its rules are.
struct subject {
    std::string what, name;
    id index = ir::no_id;
    id group = ir::no_id;
    ir::provenance prov;
};

std::string key_of(const std::string& what, const std::string& name) { return what + " " + name; }

std::map<std::string, subject> subjects_of(const ir::ruleset& rs) {
    std::map<std::string, subject> out;
    std::map<std::pair<int, id>, id> group;
    for (id g = 0; g < rs.groups.size(); ++g) group[{static_cast<int>(rs.groups[g].target), rs.groups[g].target_id}] = g;
    auto group_of = [&](ir::target_kind k, id i) {
        auto it = group.find({static_cast<int>(k), i});
        return it == group.end() ? ir::no_id : it->second;
    };
    for (id i = 0; i < rs.decisions.size(); ++i)
        out[key_of("decision", rs.decisions[i].name)] = {"decision", rs.decisions[i].name, i, group_of(ir::target_kind::decision, i), rs.decisions[i].prov};
    for (id i = 0; i < rs.rolls.size(); ++i)
        if (const id g = group_of(ir::target_kind::roll, i); g != ir::no_id)
            out[key_of("roll", rs.rolls[i].name)] = {"roll", rs.rolls[i].name, i, g, rs.rolls[i].prov};
    for (id i = 0; i < rs.quantities.size(); ++i) {
        const std::string what = rs.quantities[i].predicate ? "predicate" : "quantity";
        out[key_of(what, rs.quantities[i].name)] = {what, rs.quantities[i].name, i, group_of(ir::target_kind::quantity, i), rs.quantities[i].prov};
    }
    for (id i = 0; i < rs.actions.size(); ++i)
        out[key_of("action", rs.actions[i].name)] = {"action", rs.actions[i].name, i, group_of(ir::target_kind::action, i), rs.actions[i].prov};
    for (id i = 0; i < rs.events.size(); ++i)
        out[key_of("event", rs.events[i].name)] = {"event", rs.events[i].name, i, group_of(ir::target_kind::event, i), rs.events[i].prov};
    for (id i = 0; i < rs.tables.size(); ++i) out[key_of("table", rs.tables[i].name)] = {"table", rs.tables[i].name, i, ir::no_id, rs.tables[i].prov};
    return out;
}

const std::vector<ir::local>& params_of(const ir::ruleset& rs, const subject& s, std::size_t& count) {
    static const std::vector<ir::local> none;
    if (s.what == "decision") { count = rs.decisions[s.index].params.size(); return rs.decisions[s.index].params; }
    if (s.what == "roll") { count = rs.rolls[s.index].param_count; return rs.rolls[s.index].locals; }
    if (s.what == "quantity" || s.what == "predicate") { count = rs.quantities[s.index].param_count; return rs.quantities[s.index].locals; }
    if (s.what == "action") { count = rs.actions[s.index].param_count; return rs.actions[s.index].locals; }
    if (s.what == "event") { count = rs.events[s.index].params.size(); return rs.events[s.index].params; }
    count = 0;
    return none;
}

// Calls f(node) for every node under n.
void walk(const ir::ruleset& rs, id n, const std::function<void(const ir::node&)>& f) {
    if (n == ir::no_id || n >= rs.nodes.size()) return;
    f(rs.nodes[n]);
    for (id c : ir::children_of(rs, n)) walk(rs, c, f);
}

// The subjects a subject's definition reads directly (decide, lookup, roll, quantity).
std::set<std::string> reads(const ir::ruleset& rs, const subject& s) {
    std::set<std::string> out;
    auto note = [&](const ir::node& nd) {
        switch (nd.code) {
            case op::decide: out.insert(key_of("decision", rs.decisions.at(nd.ref).name)); break;
            case op::lookup:
            case op::resolve: out.insert(key_of("table", rs.tables.at(nd.ref).name)); break;
            case op::roll: out.insert(key_of("roll", rs.rolls.at(nd.ref).name)); break;
            case op::quantity: {
                const ir::derived& q = rs.quantities.at(nd.ref);
                out.insert(key_of(q.predicate ? "predicate" : "quantity", q.name));
                break;
            }
            default: break;
        }
    };
    if (s.group != ir::no_id)
        for (id r : rs.groups[s.group].rules) {
            const ir::rule& rule = rs.rules[r];
            for (id n : {rule.guard, rule.value, rule.amount, rule.body}) walk(rs, n, note);
        }
    if (s.what == "quantity" || s.what == "predicate") walk(rs, rs.quantities[s.index].expr, note);
    if (s.what == "roll") walk(rs, rs.rolls[s.index].expr, note);
    if (s.what == "action") walk(rs, rs.actions[s.index].guard, note);
    if (s.what == "table") {
        const ir::table& tb = rs.tables[s.index];
        for (const ir::table_key& k : tb.keys) {
            walk(rs, k.expr, note);
            walk(rs, k.shift, note);
        }
        for (const ir::table_cell& c : tb.cells) walk(rs, c.effects, note);
    }
    return out;
}

// One stack's encoding of one subject: its outcome as terms.
struct encoded {
    z3::expr decided;  // a rule decides it (decisions), a row covers the key (tables); else true
    z3::expr value;    // the value, the legality, the cell (tables: its index) …
    z3::expr extra;    // required (actions), effects' identity (tables); else 0
    std::vector<std::pair<std::string, z3::expr>> fires;  // events: per trigger, when it fires
    std::vector<z3::expr> cells;                          // tables: per cell, when it is read
    std::map<std::string, z3::expr> guards;               // by rule name: the guard here
    std::vector<std::string> rule_names;
};

class differ {
public:
    differ(const ir::ruleset& from, const ir::ruleset& to, const diff_options& opt, outcome_diff& out)
        : from_(from), to_(to), opt_(opt), out_(out), a_(ctx_, from, players(from, to, opt)), b_(ctx_, to, players(from, to, opt)) {}

    void run() {
        // Two stacks' terms, one mapped onto the other: a map search's lemmas would have to be
        // mapped too, so here a search stays any value (listed as approximated).
        a_.map_searches = b_.map_searches = false;
        // One free state: the new stack's state variables are the old stack's of the same name.
        std::vector<fact> fa, fb;
        sa_ = std::make_unique<store>(a_.free_store(fa));
        const std::size_t a_state = a_.variables.size();
        sb_ = std::make_unique<store>(b_.free_store(fb));
        std::map<std::string, std::size_t> a_by_text;
        for (std::size_t i = 1; i < a_state; ++i) a_by_text.emplace(a_.variables[i].text, i);
        z3::expr_vector src(ctx_), dst(ctx_);
        for (std::size_t i = 1; i < b_.variables.size(); ++i)
            if (auto it = a_by_text.find(b_.variables[i].text); it != a_by_text.end()) {
                src.push_back(b_.variables[i].var);
                dst.push_back(a_.variables[it->second].var);
            }
        state_src_ = std::make_unique<z3::expr_vector>(src);
        state_dst_ = std::make_unique<z3::expr_vector>(dst);
        point_a_.recorded = true;
        point_a_.st = std::make_shared<const detail::kept_store>(*sa_, nullptr);
        store shared = *sb_;
        for (z3::expr& v : shared.values) v = subst(v, src, dst);
        for (z3::expr& l : shared.loc) l = subst(l, src, dst);
        point_b_.recorded = true;
        point_b_.st = std::make_shared<const detail::kept_store>(shared, nullptr);
        domain_ = std::make_unique<z3::expr>(ctx_.bool_val(true));
        for (const fact& f : fa) *domain_ = *domain_ && f.e;
        for (const fact& f : fb) *domain_ = *domain_ && subst(f.e, src, dst);
        const std::int64_t lo = std::max<std::int64_t>(1, std::max(from_.min_players, to_.min_players));
        *domain_ = *domain_ && a_.n_players >= ctx_.int_val(lo) && a_.n_players <= ctx_.int_val(a_.lay.players);

        const auto sa = subjects_of(from_);
        const auto sb = subjects_of(to_);
        auto asked = [&](const subject& s) { return !opt_.only || opt_.only(s.what, s.name); };
        // A roll is a subject where modifiers apply to it; one that gains its first modifier
        // or loses its last is compared with its bare dice on the other side (total 0).
        auto bare_roll = [](const ir::ruleset& rs, const subject& s) -> std::optional<subject> {
            if (s.what != "roll") return std::nullopt;
            for (id i = 0; i < rs.rolls.size(); ++i)
                if (rs.rolls[i].name == s.name) return subject{"roll", s.name, i, ir::no_id, rs.rolls[i].prov};
            return std::nullopt;
        };
        for (const auto& [key, s] : sb) {
            if (!asked(s)) continue;
            auto it = sa.find(key);
            ++out_.subjects;
            if (it == sa.end())
                if (const std::optional<subject> bare = bare_roll(from_, s)) {
                    compare(*bare, s);
                    continue;
                }
            if (it == sa.end()) {
                outcome_change c;
                c.what = s.what;
                c.subject = s.name;
                c.change = "added";
                c.message = s.what + " `" + s.name + "` is new";
                c.elements.push_back({s.what, s.name, s.prov});
                if (s.group != ir::no_id)
                    for (id r : to_.groups[s.group].rules) c.elements.push_back({"rule", to_.rules[r].name, to_.rules[r].prov});
                out_.changes.push_back(std::move(c));
                continue;
            }
            compare(it->second, s);
        }
        for (const auto& [key, s] : sa)
            if (!sb.count(key) && asked(s)) {
                ++out_.subjects;
                if (const std::optional<subject> bare = bare_roll(to_, s)) {
                    compare(s, *bare);
                    continue;
                }
                outcome_change c;
                c.what = s.what;
                c.subject = s.name;
                c.change = "removed";
                c.message = s.what + " `" + s.name + "` is no longer in the rules";
                c.elements.push_back({s.what, s.name, s.prov});
                out_.changes.push_back(std::move(c));
            }
    }

private:
    static int players(const ir::ruleset& a, const ir::ruleset& b, const diff_options& opt) {
        std::int64_t most = std::min(a.max_players > 0 ? a.max_players : 4, b.max_players > 0 ? b.max_players : 4);
        most = opt.max_players > 0 ? std::min<std::int64_t>(most, opt.max_players) : std::min<std::int64_t>(most, 6);
        return static_cast<int>(std::max<std::int64_t>(most, std::max<std::int64_t>(1, std::max(a.min_players, b.min_players))));
    }

    static z3::expr subst(const z3::expr& e, const z3::expr_vector& src, const z3::expr_vector& dst) {
        if (src.empty()) return e;
        z3::expr x = e;
        return x.substitute(src, dst);
    }

    // ---- encoding

    z3::expr take_side(symbolic& S) {
        z3::expr s = ctx_.bool_val(true);
        for (const z3::expr& x : S.side) s = s && x;
        S.side.clear();
        return s;
    }

    static symbolic::env frame(const ir::rule& r, const std::vector<z3::expr>& args) {
        symbolic::env e;
        e.locals.resize(std::max(r.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < r.locals.size(); ++i) e.locals[i] = args[i];
        return e;
    }

    encoded encode(symbolic& S, const ir::ruleset& rs, const store& st, const subject& s, const std::vector<z3::expr>& args,
                   const std::vector<z3::expr>& keys) {
        encoded en{ctx_.bool_val(true), ctx_.int_val(0), ctx_.int_val(0), {}, {}, {}, {}};
        std::map<id, z3::expr> guards;
        std::map<id, z3::expr> eff;
        if (s.group != ir::no_id) {
            eff = S.group_effective(s.group, args, st, &guards);
            for (const auto& [r, g] : guards) {
                en.guards.emplace(rs.rules[r].name, g);
                en.rule_names.push_back(rs.rules[r].name);
            }
        }
        if (s.what == "decision") {
            z3::expr decided = ctx_.bool_val(false);
            z3::expr value = ctx_.int_val(0);
            // the first applicable rule in the group's order gives the value
            static const std::vector<id> no_rules;
            const auto& rules = s.group == ir::no_id ? no_rules : rs.groups[s.group].rules;
            for (auto it = rules.rbegin(); it != rules.rend(); ++it) {
                const ir::rule& r = rs.rules[*it];
                if (r.kind != ir::rule_kind::define || r.value == ir::no_id) continue;
                symbolic::env e = frame(r, args);
                value = z3::ite(eff.at(*it), S.integer(r.value, e, st), value);
                decided = decided || eff.at(*it);
            }
            en.decided = decided;
            en.value = value;
        } else if (s.what == "roll" || s.what == "quantity" || s.what == "predicate") {
            z3::expr v = ctx_.int_val(0);
            if (s.what != "roll") {
                const ir::derived& q = rs.quantities[s.index];
                symbolic::env e;
                e.locals.resize(std::max(q.locals.size(), args.size()));
                for (std::size_t i = 0; i < args.size() && i < q.locals.size(); ++i) e.locals[i] = args[i];
                v = q.predicate ? z3::ite(S.boolean(q.expr, e, st), ctx_.int_val(1), ctx_.int_val(0)) : S.integer(q.expr, e, st);
            }
            // the engines' order (docs/language.md §9): adds, then a set, caps, floors. A roll's
            // value here is its modifiers' total without the dice, so its bounds are left out.
            std::vector<std::pair<z3::expr, z3::expr>> sets, caps, floors;
            for (const auto& [r, applies] : eff) {
                const ir::rule& m = rs.rules[r];
                if (m.kind != ir::rule_kind::modifier || m.amount == ir::no_id) continue;
                symbolic::env e = frame(m, args);
                const z3::expr k = S.integer(m.amount, e, st);
                if (m.mod == ir::modifier_kind::add) v = v + z3::ite(applies, k, ctx_.int_val(0));
                else (m.mod == ir::modifier_kind::set ? sets : m.mod == ir::modifier_kind::at_most ? caps : floors).emplace_back(applies, k);
            }
            if (s.what != "roll") {
                for (auto it = sets.rbegin(); it != sets.rend(); ++it) v = z3::ite(it->first, it->second, v);
                for (const auto& [applies, k] : caps) v = z3::ite(applies && v > k, k, v);
                for (const auto& [applies, k] : floors) v = z3::ite(applies && v < k, k, v);
            }
            en.value = v;
        } else if (s.what == "action") {
            const ir::action& act = rs.actions[s.index];
            z3::expr guard = ctx_.bool_val(true);
            if (act.guard != ir::no_id) {
                symbolic::env e;
                e.locals.resize(std::max(act.locals.size(), args.size()));
                for (std::size_t i = 0; i < args.size() && i < act.locals.size(); ++i) e.locals[i] = args[i];
                guard = S.boolean(act.guard, e, st);
            }
            z3::expr permitted = ctx_.bool_val(false), forbidden = ctx_.bool_val(false), required = ctx_.bool_val(false);
            for (const auto& [r, applies] : eff) {
                const ir::rule_kind k = rs.rules[r].kind;
                if (k == ir::rule_kind::forbid) forbidden = forbidden || applies;
                if (k == ir::rule_kind::permit) permitted = permitted || applies;
                if (k == ir::rule_kind::require) required = required || applies;
            }
            en.value = z3::ite((guard || permitted) && !forbidden, ctx_.int_val(1), ctx_.int_val(0));
            en.extra = z3::ite(required, ctx_.int_val(1), ctx_.int_val(0));
        } else if (s.what == "event") {
            for (const auto& [r, applies] : eff)
                if (rs.rules[r].kind == ir::rule_kind::trigger) en.fires.push_back({rs.rules[r].name, applies});
        } else if (s.what == "table") {
            const ir::table& tb = rs.tables[s.index];
            en.cells = S.cell_selections(s.index, keys);
            z3::expr covered = ctx_.bool_val(false), value = ctx_.int_val(0), effects = ctx_.int_val(0);
            for (std::size_t i = en.cells.size(); i-- > 0;) {
                const ir::table_cell& c = tb.cells.at(i);
                covered = covered || en.cells[i];
                value = z3::ite(en.cells[i], ctx_.int_val(c.has_outcome ? c.outcome : 0), value);
                effects = z3::ite(en.cells[i], ctx_.int_val(effects_id(rs, tb, c)), effects);
            }
            en.decided = covered;
            en.value = value;
            en.extra = effects;
        }
        return en;
    }

    // Cells' effects as printed, numbered across both stacks: equal text, equal number.
    std::int64_t effects_id(const ir::ruleset& rs, const ir::table& tb, const ir::table_cell& c) {
        const std::string text = c.effects == ir::no_id ? "" : ir::print_node(rs, c.effects, tb.locals);
        return effects_ids_.emplace(text, static_cast<std::int64_t>(effects_ids_.size())).first->second;
    }

    // ---- comparing

    void compare(const subject& sa, const subject& sb) {
        std::size_t na = 0, nb = 0;
        const auto& pa = params_of(from_, sa, na);
        const auto& pb = params_of(to_, sb, nb);
        const std::size_t a0 = a_.variables.size(), b0 = b_.variables.size();
        std::vector<z3::expr> args, keys;
        z3::expr dom = *domain_;
        for (std::size_t i = 0; i < na; ++i) {
            const ir::local& l = pa.at(i);
            z3::expr v = a_.fresh(l.name, l.type, l.name, variable::show::value, 0);
            switch (from_.types.at(l.type).kind) {
                case ir::type_kind::player: a_.variables.back().as = variable::show::player; dom = dom && v >= 0; break;
                case ir::type_kind::entity: a_.variables.back().as = variable::show::instance; dom = dom && v >= 0; break;
                case ir::type_kind::enumeration: a_.variables.back().as = variable::show::member; break;
                default: break;
            }
            a_.variables.back().preferred = -99;  // always shown
            dom = dom && a_.in_type(v, l.type);
            args.push_back(v);
        }
        if (sa.what == "table") {
            const ir::table& tb = from_.tables[sa.index];
            for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
                const id t = tb.keys[k].type;
                z3::expr v = a_.fresh("key", t, std::string(k == 0 ? "row" : "column") + " key of " + tb.name, variable::show::value, 0);
                if (t != ir::no_id && from_.types.at(t).kind == ir::type_kind::enumeration) {
                    a_.variables.back().as = variable::show::member;
                    dom = dom && a_.in_type(v, t);
                }
                a_.variables.back().preferred = -99;
                keys.push_back(v);
            }
            // natural rows read the roll before its modifiers: a key of its own
            if (!tb.natural_map.dense.empty() || !to_.tables[sb.index].natural_map.dense.empty()) {
                if (keys.size() < 2) keys.push_back(ctx_.int_val(0));
                keys.push_back(a_.fresh("key", ir::no_id, "natural roll of " + tb.name, variable::show::value, 0));
                a_.variables.back().preferred = -99;
            }
            // a column shift moves the column read: a value of its own
            auto shifted = [](const ir::table& t) { return t.keys.size() > 1 && t.keys[1].shift != ir::no_id; };
            if (shifted(tb) || shifted(to_.tables[sb.index])) {
                while (keys.size() < 3) keys.push_back(ctx_.int_val(0));
                keys.push_back(a_.fresh("key", ir::no_id, "column shift of " + tb.name, variable::show::value, 0));
                a_.variables.back().preferred = -99;
            }
        }
        if (na != nb || (sa.what == "table" && to_.tables[sb.index].keys.size() != from_.tables[sa.index].keys.size())) {
            outcome_change c = base_change(sa, sb);
            c.message = sa.what + " `" + sa.name + "` takes different parameters";
            out_.changes.push_back(std::move(c));
            return;
        }
        (void)pb;
        encoded ea = encode(a_, from_, *sa_, sa, args, keys);
        const z3::expr side_a = take_side(a_);
        encoded eb = encode(b_, to_, *sb_, sb, args, keys);
        const z3::expr side_b_raw = take_side(b_);
        // pair the other values the two encodings read, by what they stand for
        z3::expr_vector src(ctx_), dst(ctx_);
        for (unsigned i = 0; i < state_src_->size(); ++i) {
            src.push_back((*state_src_)[i]);
            dst.push_back((*state_dst_)[i]);
        }
        std::map<std::string, std::vector<std::size_t>> a_vars;
        for (std::size_t i = a0; i < a_.variables.size(); ++i) a_vars[a_.variables[i].text].push_back(i);
        std::map<std::string, std::size_t> used;
        for (std::size_t i = b0; i < b_.variables.size(); ++i) {
            const std::string& t = b_.variables[i].text;
            auto it = a_vars.find(t);
            std::size_t& u = used[t];
            if (it == a_vars.end() || u >= it->second.size()) continue;
            src.push_back(b_.variables[i].var);
            dst.push_back(a_.variables[it->second[u++]].var);
        }
        auto S = [&](const z3::expr& e) { return subst(e, src, dst); };
        const z3::expr side_b = S(side_b_raw);
        const z3::expr world = dom && side_a && side_b;

        z3::expr changed = ctx_.bool_val(false);
        z3::expr common = ctx_.bool_val(false);  // events: a trigger of both stacks fires differently
        if (sa.what == "event") {
            std::map<std::string, z3::expr> fa, fb;
            for (const auto& [n, e] : ea.fires) fa.emplace(n, e);
            for (const auto& [n, e] : eb.fires) fb.emplace(n, S(e));
            for (const auto& [n, e] : fa) common = common || (fb.count(n) ? e != fb.at(n) : e);
            changed = common;
            for (const auto& [n, e] : fb)
                if (!fa.count(n)) changed = changed || e;
        } else {
            const z3::expr db = S(eb.decided), vb = S(eb.value), xb = S(eb.extra);
            changed = ea.decided != db || (ea.decided && (ea.value != vb || ea.extra != xb));
        }
        auto print_outcome = [&](const z3::model& m, const encoded& en, const ir::ruleset& rs, const subject& s, bool new_side) {
            auto ev = [&](const z3::expr& e) {
                z3::expr x = m.eval(new_side ? S(e) : e, true);
                std::int64_t v = 0;
                if (x.is_true()) return std::int64_t{1};
                if (x.is_false()) return std::int64_t{0};
                return x.is_numeral_i64(v) ? v : std::int64_t{0};
            };
            symbolic& sym = new_side ? b_ : a_;
            if (s.what == "decision") {
                if (!ev(en.decided)) return std::string("undecided");
                return sym.value_text(rs.decisions[s.index].result, ev(en.value));
            }
            if (s.what == "predicate") return std::string(ev(en.value) ? "true" : "false");
            if (s.what == "roll") return "modifiers total " + std::to_string(ev(en.value));
            if (s.what == "quantity") return std::to_string(ev(en.value));
            if (s.what == "action") return std::string(ev(en.value) ? "legal" : "not legal") + (ev(en.extra) ? ", required" : "");
            if (s.what == "event") {
                std::string t;
                for (const auto& [n, e] : en.fires)
                    if (ev(e)) t += (t.empty() ? "" : ", ") + n;
                return t.empty() ? std::string("no trigger fires") : "fires " + t;
            }
            for (std::size_t i = 0; i < en.cells.size(); ++i)
                if (ev(en.cells[i])) return cell_text(rs, sym, rs.tables[s.index], i);
            return std::string("no row");
        };

        ++out_.queries;
        z3::solver s = detail::one_shot_solver(ctx_);
        s.add(world && changed);
        const z3::check_result r = dog_.check(s, opt_.timeout_ms);
        if (r == z3::unsat) return;
        outcome_change c = base_change(sa, sb);
        if (r == z3::unknown) {
            c.proof = proof_kind::unknown;
            c.message = "the solver could not decide whether " + sa.what + " `" + sa.name + "` changed (--timeout)";
            out_.changes.push_back(std::move(c));
            return;
        }
        // the witness shows what the outcomes read, not the whole domain
        const z3::expr near = changed && side_a && side_b;
        if (!opt_.wants_witness || opt_.wants_witness(sa.what, sa.name)) {
            z3::model m = smallest(world && changed, near, s.get_model());
            c.witness = witness(near, m);
            const std::string before = print_outcome(m, ea, from_, sa, false), after = print_outcome(m, eb, to_, sb, true);
            c.witness.push_back("before: " + before);
            c.witness.push_back("after: " + after);
            c.replay = replay(m, sa, sb, args, keys, before, after);
        }
        c.message = sa.what + " `" + sa.name + "` has a different outcome";
        // only gaps: nowhere did the old stack decide and the new one differ
        if (sa.what == "decision" || sa.what == "table") {
            ++out_.queries;
            z3::solver g = detail::one_shot_solver(ctx_);
                g.add(world && changed && ea.decided);
            const z3::check_result gr = dog_.check(g, opt_.timeout_ms);
            c.only_gaps = gr == z3::unsat;
            if (c.only_gaps) c.message += " only where it was undecided before (a gap filled)";
            // the witness where the old stack decided, when the caller judges those changes
            if (gr == z3::sat && opt_.decided_witness && !c.witness.empty()) {
                const z3::expr there = ea.decided;
                z3::model m = smallest(world && changed && there, near && there, g.get_model());
                c.witness = witness(near && there, m);
                const std::string before = print_outcome(m, ea, from_, sa, false), after = print_outcome(m, eb, to_, sb, true);
                c.witness.push_back("before: " + before);
                c.witness.push_back("after: " + after);
                c.replay = replay(m, sa, sb, args, keys, before, after);
            }
        }
        if (sa.what == "event") {
            ++out_.queries;
            z3::solver g = detail::one_shot_solver(ctx_);
                g.add(world && common);
            c.only_gaps = dog_.check(g, opt_.timeout_ms) == z3::unsat;
            if (c.only_gaps) c.message = "event `" + sa.name + "` has new triggers (the old ones fire as before)";
        }
        // the scope the caller expects the change in
        for (const change_scope& sc : opt_.scopes) {
            if (sc.what != sa.what || sc.subject != sa.name) continue;
            if (sc.rules.empty() && sc.rows.empty()) break;
            z3::expr inside = ctx_.bool_val(false);
            for (const std::string& n : sc.rules) {
                if (auto it = ea.guards.find(n); it != ea.guards.end()) inside = inside || it->second;
                if (auto it = eb.guards.find(n); it != eb.guards.end()) inside = inside || S(it->second);
            }
            for (const ir::key_range& k : sc.rows)
                if (!keys.empty()) inside = inside || detail::key_in(ctx_, k, keys[0]);
            ++out_.queries;
            z3::solver o = detail::one_shot_solver(ctx_);
                o.add(world && changed && !inside);
            if (dog_.check(o, opt_.timeout_ms) == z3::sat) {
                c.outside_scope = true;
                z3::model mo = smallest(world && changed && !inside, near && !inside, o.get_model());
                c.outside_witness = witness(near && !inside, mo);
                const std::string before = print_outcome(mo, ea, from_, sa, false), after = print_outcome(mo, eb, to_, sb, true);
                c.outside_witness.push_back("before: " + before);
                c.outside_witness.push_back("after: " + after);
                c.outside_replay = replay(mo, sa, sb, args, keys, before, after);
            }
            break;
        }
        out_.changes.push_back(std::move(c));
    }

    // A table cell as the witness prints it: its row and column, outcome and effects.
    static std::string cell_text(const ir::ruleset& rs, const symbolic& sym, const ir::table& tb, std::size_t i) {
        const std::size_t width = std::max<std::size_t>(1, tb.columns.size());
        std::string t = "row " + tb.rows[i / width].key.text;
        if (!tb.columns.empty()) t += ", column " + tb.columns[i % width].text;
        const ir::table_cell& c = tb.cells[i];
        if (c.has_outcome) t += ": " + sym.value_text(tb.outcome_type, c.outcome);
        if (c.effects != ir::no_id) t += " " + ir::print_node(rs, c.effects, tb.locals);
        return t;
    }

    // ---- replaying a witness through the engine, before and after

    // What the engine gives for subject s in the probe's situation, in the words of the
    // witness's "before:" and "after:" lines; nothing for a subject it has no question for.
    // An error of the engine's is thrown (the probe's outcome error).
    static std::optional<std::string> engine_outcome(engine::probe& p, const ir::ruleset& rs, const symbolic& sym, const subject& s,
                                                     const std::vector<std::int64_t>& args, const std::vector<std::int64_t>& keys) {
        auto check = [](const engine::probe::outcome& o) {
            if (!o.error.empty()) throw std::runtime_error(o.error);
            return o.values;
        };
        if (s.what == "table") {
            const ir::table& tb = rs.tables[s.index];
            if (tb.row_map.kind == ir::key_range_kind::odds || (!tb.columns.empty() && tb.column_map.kind == ir::key_range_kind::odds))
                return std::nullopt;  // the diff reads an odds key as its step; the engine reads the odds
            if (tb.keys.size() > 1 && tb.keys[1].shift != ir::no_id) return std::nullopt;  // the probe reads no shift
            const engine::probe::outcome o = p.cell(static_cast<id>(s.index), keys);
            if (!o.error.empty()) return std::string("no row");
            const std::size_t width = std::max<std::size_t>(1, tb.columns.size());
            return cell_text(rs, sym, tb, static_cast<std::size_t>(o.values.at(0)) * width + static_cast<std::size_t>(o.values.at(1)));
        }
        if (s.what == "quantity") return std::to_string(check(p.quantity(static_cast<id>(s.index), args)).at(0));
        if (s.what == "predicate") return std::string(check(p.quantity(static_cast<id>(s.index), args)).at(0) ? "true" : "false");
        if (s.what == "action") {
            const std::vector<std::int64_t> v = check(p.legal(static_cast<id>(s.index), args));
            return std::string(v.at(0) ? "legal" : "not legal") + (v.at(1) ? ", required" : "");
        }
        if (s.what != "decision" && s.what != "roll" && s.what != "event") return std::nullopt;
        std::vector<std::int64_t> applying;
        if (s.group != ir::no_id) applying = check(p.applicable(s.group, args));
        if (s.what == "decision") {
            // the first applicable `define` in the group's order, as the diff encodes it
            for (std::int64_t r : applying)
                if (rs.rules.at(static_cast<id>(r)).kind == ir::rule_kind::define)
                    return sym.value_text(rs.decisions[s.index].result, check(p.value(static_cast<id>(r), args)).at(0));
            return std::string("undecided");
        }
        if (s.what == "roll") {
            std::int64_t total = 0;
            for (std::int64_t r : applying)
                if (rs.rules.at(static_cast<id>(r)).kind == ir::rule_kind::modifier && rs.rules.at(static_cast<id>(r)).amount != ir::no_id &&
                    rs.rules.at(static_cast<id>(r)).mod == ir::modifier_kind::add)
                    total += check(p.value(static_cast<id>(r), args)).at(0);
            return "modifiers total " + std::to_string(total);
        }
        std::sort(applying.begin(), applying.end());  // the diff lists the triggers by rule
        std::string t;
        for (std::int64_t r : applying)
            if (rs.rules.at(static_cast<id>(r)).kind == ir::rule_kind::trigger) t += (t.empty() ? "" : ", ") + rs.rules.at(static_cast<id>(r)).name;
        return t.empty() ? std::string("no trigger fires") : "fires " + t;
    }

    // The report's replay line for a change's witness: the engine set in the witness's situation
    // under each stack computes the subject's outcome; it confirms the witness when both agree
    // with its "before:" and "after:" lines. Empty when the engine cannot be set there (a number
    // of players the game does not have) or has no question for the subject.
    std::string replay(const z3::model& m, const subject& sa, const subject& sb, const std::vector<z3::expr>& args,
                       const std::vector<z3::expr>& keys, const std::string& before, const std::string& after) {
        std::vector<std::int64_t> a, k;
        for (const z3::expr& x : args) a.push_back(detail::witness_replay::number(m, x).value_or(-1));
        for (const z3::expr& x : keys) k.push_back(detail::witness_replay::number(m, x).value_or(0));
        std::optional<std::string> got_before, got_after;
        std::string failed;
        auto run = [&](detail::witness_replay& r, const detail::replay_point& at, const ir::ruleset& rs, const symbolic& sym,
                       const subject& s, std::optional<std::string>& got) {
            return r.replayed(at, m, [&](engine::probe& p) {
                try {
                    got = engine_outcome(p, rs, sym, s, a, k);
                } catch (const std::exception& e) {
                    failed = e.what();
                }
                return std::string("set");
            });
        };
        const std::string ra = run(replay_a_, point_a_, from_, a_, sa, got_before);
        if (ra != "set") return ra;  // not set up (empty), or the engine refused the state
        const std::string rb = run(replay_b_, point_b_, to_, b_, sb, got_after);
        if (rb != "set") return rb;
        if (!failed.empty()) return "not confirmed: in the witness's situation the engine stops: " + failed;
        if (!got_before || !got_after) return "";
        const std::string gave = "in the witness's situation the engine gives `" + *got_before + "` before and `" + *got_after + "` after";
        if (*got_before == before && *got_after == after) return "confirmed: " + gave;
        return "not confirmed: " + gave + ", not `" + before + "` and `" + after + "`";
    }

    outcome_change base_change(const subject& sa, const subject& sb) const {
        outcome_change c;
        c.what = sa.what;
        c.subject = sa.name;
        c.change = "changed";
        c.elements.push_back({sa.what, sb.name, sb.prov});
        if (sb.group != ir::no_id)
            for (id r : to_.groups[sb.group].rules) c.elements.push_back({"rule", to_.rules[r].name, to_.rules[r].prov});
        return c;
    }

    // The model with as many shown values as possible at their usual value.
    z3::model smallest(const z3::expr& q, const z3::expr& near, z3::model m) {
        z3::optimize o(ctx_);
        o.add(q);
        for (const variable* v : shown(near)) {
            if (v->preferred == -99) continue;
            if (v->var.is_bool()) o.add_soft(!v->var, 1);
            else o.add_soft(v->var == ctx_.int_val(v->preferred), 1);
        }
        ++out_.queries;
        if (dog_.check(o, opt_.timeout_ms) == z3::sat) return o.get_model();
        return m;
    }

    // The variables of the old stack (or the new one's that have no partner) a query mentions.
    std::vector<const variable*> shown(const z3::expr& q) {
        std::vector<const variable*> out;
        std::set<unsigned> seen;
        std::vector<z3::expr> todo{q};
        std::vector<std::pair<std::size_t, const variable*>> found;
        while (!todo.empty()) {
            z3::expr e = todo.back();
            todo.pop_back();
            if (!seen.insert(e.id()).second) continue;
            if (!e.is_app()) continue;
            if (e.num_args() == 0 && e.decl().decl_kind() == Z3_OP_UNINTERPRETED) {
                const unsigned n = e.id();
                if (auto it = a_.variable_of.find(n); it != a_.variable_of.end()) found.push_back({it->second, &a_.variables[it->second]});
                else if (auto jt = b_.variable_of.find(n); jt != b_.variable_of.end())
                    found.push_back({1000000 + jt->second, &b_.variables[jt->second]});
                else if (z3::eq(e, a_.n_players)) found.push_back({0, &a_.variables[0]});
                continue;
            }
            for (unsigned i = 0; i < e.num_args(); ++i) todo.push_back(e.arg(i));
        }
        std::sort(found.begin(), found.end());
        for (const auto& f : found) out.push_back(f.second);
        return out;
    }

    std::vector<std::string> witness(const z3::expr& q, const z3::model& m) {
        std::vector<std::string> lines;
        std::set<std::string> done;
        std::int64_t players = a_.lay.players;
        if (!m.eval(a_.n_players, true).is_numeral_i64(players)) players = a_.lay.players;
        for (const variable* v : shown(q)) {
            const z3::expr x = m.eval(v->var, true);
            std::string line;
            if (v->var.is_bool()) {
                if (!x.is_true()) continue;
                line = v->text + ": yes";
            } else {
                std::int64_t n = 0;
                if (!x.is_numeral_i64(n)) continue;
                if (n == v->preferred && v->text != "players") continue;
                switch (v->as) {
                    case variable::show::zone:
                        // a place the piece cannot be: forgotten on a branch not taken (witnesses.cpp)
                        if (v->kind != ir::no_id && !a_.can_hold(v->kind, n, players)) continue;
                        line = v->text + " is in " + a_.zone_instance_text(n);
                        break;
                    case variable::show::boolean: line = v->text + " = " + (n ? "true" : "false"); break;
                    case variable::show::player: line = v->text + " = " + (n < 0 ? "none" : "P" + std::to_string(n + 1)); break;
                    case variable::show::instance: line = v->text + " = " + a_.instance_text(n); break;
                    default: line = v->text + " = " + a_.value_text(v->type, n); break;
                }
            }
            if (done.insert(line).second) lines.push_back(line);
        }
        return lines;
    }

    detail::z3_settings settings_;  // before the context and its solvers
    z3::context ctx_;
    detail::watchdog dog_{ctx_};  // declared after the context it interrupts, destroyed before it
    const ir::ruleset& from_;
    const ir::ruleset& to_;
    const diff_options& opt_;
    outcome_diff& out_;
    symbolic a_, b_;
    std::unique_ptr<store> sa_, sb_;
    std::unique_ptr<z3::expr_vector> state_src_, state_dst_;
    std::unique_ptr<z3::expr> domain_;
    std::map<std::string, std::int64_t> effects_ids_;
    // the witnesses' replays: each stack's engine, set in the free state (the new stack's as the
    // old stack's variables, as the questions pair them)
    detail::witness_replay replay_a_{a_}, replay_b_{b_};
    detail::replay_point point_a_, point_b_;
};

}  // namespace

outcome_diff compare_outcomes(const ir::ruleset& from, const ir::ruleset& to, const diff_options& options) {
    outcome_diff out;
    const auto t0 = std::chrono::steady_clock::now();
    differ d(from, to, options, out);
    d.run();
    out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

std::vector<std::string> dependents(const ir::ruleset& rs, const std::string& subject_key) {
    const auto all = subjects_of(rs);
    std::map<std::string, std::set<std::string>> readers;  // by subject read
    for (const auto& [key, s] : all)
        for (const std::string& r : reads(rs, s)) readers[r].insert(key);
    std::vector<std::string> out;
    std::set<std::string> seen{subject_key};
    std::vector<std::string> todo{subject_key};
    while (!todo.empty()) {
        const std::string k = todo.back();
        todo.pop_back();
        for (const std::string& r : readers[k])
            if (seen.insert(r).second) {
                out.push_back(r);
                todo.push_back(r);
            }
    }
    std::sort(out.begin(), out.end());
    return out;
}

finding_changes compare_findings(const check_result& from, const check_result& to) {
    finding_changes out;
    auto key = [](const finding& f) { return f.kind + "\n" + f.subject; };
    std::map<std::string, int> a, b;
    for (const finding& f : from.findings) ++a[key(f)];
    for (const finding& f : to.findings) ++b[key(f)];
    std::map<std::string, int> seen;
    for (const finding& f : to.findings)
        if (++seen[key(f)] > a[key(f)]) out.appeared.push_back(f);
    seen.clear();
    for (const finding& f : from.findings)
        if (++seen[key(f)] > b[key(f)]) out.disappeared.push_back(f);
    return out;
}

}  // namespace wp::verify
