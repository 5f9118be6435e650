// Witnesses: a satisfying model shown as the values near the question, moved towards the usual
// values (the fewest changes, or few where the fewest cost too much).
#include "checker.hpp"

#include <chrono>
#include <cstdio>
#include <map>

namespace wp::verify {

std::vector<z3::expr> checker::constants(const z3::expr& e) {
    const Z3_context c = ctx_;
    walked_.clear();
    std::vector<z3::expr> out;
    std::vector<Z3_ast> todo{e};
    while (!todo.empty()) {
        const Z3_ast a = todo.back();
        todo.pop_back();
        const unsigned id = Z3_get_ast_id(c, a);
        if (!walked_.mark(id)) continue;
        switch (Z3_get_ast_kind(c, a)) {
            case Z3_APP_AST: {
                const Z3_app app = Z3_to_app(c, a);
                const unsigned n = Z3_get_app_num_args(c, app);
                if (n == 0 && Z3_get_decl_kind(c, Z3_get_app_decl(c, app)) == Z3_OP_UNINTERPRETED) {
                    out.push_back(z3::expr(ctx_, a));
                    break;
                }
                for (unsigned i = n; i-- > 0;) todo.push_back(Z3_get_app_arg(c, app, i));
                break;
            }
            case Z3_QUANTIFIER_AST: todo.push_back(Z3_get_quantifier_body(c, a)); break;
            default: break;
        }
    }
    return out;
}

std::string checker::value_line(const std::string& text, const z3::expr& e, z3::model& m) {
    const z3::expr v = m.eval(e, true);
    std::int64_t x = 0;
    return text + " = " + (v.is_numeral_i64(x) ? std::to_string(x) : v.to_string());
}

namespace {

// "Pikemen (copy 1 of 3)", "Pikemen (copy 3 of 3)" as "Pikemen (copies 1, 3 of 3)": the copies of
// one card named together where they follow one another (symbolic::instance_text names them so).
std::vector<std::string> copies_together(const std::vector<std::string>& pieces) {
    std::vector<std::string> out;
    std::string name, of, numbers;
    int count = 0;
    auto flush = [&] {
        if (count == 1) out.push_back(name + " (copy " + numbers + " of " + of + ")");
        else if (count > 1) out.push_back(name + " (copies " + numbers + " of " + of + ")");
        count = 0;
    };
    for (const std::string& p : pieces) {
        const std::size_t open = p.rfind(" (copy ");
        const std::size_t mid = open == std::string::npos ? open : p.find(" of ", open);
        if (open == std::string::npos || mid == std::string::npos || p.back() != ')') {
            flush();
            out.push_back(p);
            continue;
        }
        const std::string n = p.substr(0, open), k = p.substr(open + 7, mid - open - 7), total = p.substr(mid + 4, p.size() - mid - 5);
        if (count > 0 && n == name && total == of) {
            numbers += ", " + k;
            ++count;
            continue;
        }
        flush();
        name = n;
        of = total;
        numbers = k;
        count = 1;
    }
    flush();
    return out;
}

}  // namespace

std::vector<std::string> checker::witness(const z3::expr& q, z3::model& m, const std::vector<std::pair<std::string, z3::expr>>& extra, const std::set<unsigned>& near, witness_search search) {
    auto unsearched = [&](const char* why) {
        std::vector<std::string> lines;
        for (const auto& [text, e] : extra) lines.push_back(value_line(text, e, m));
        lines.push_back(why);
        return lines;
    };
    if (search == witness_search::accepted) return unsearched(accepted_witness_line);
    std::vector<z3::expr> vars;
    const std::vector<z3::expr> all = constants(q);
    for (const z3::expr& v : all)
        if (near.count(v.id()) || (z3::eq(v, sym_.n_players) && !players_pin_)) vars.push_back(v);  // a fixed count goes untold
    // the smallest witness: as many values as possible at their usual (initial) value
    std::vector<std::size_t> known;
    std::vector<z3::expr> usual;
    for (const z3::expr& v : vars) {
        auto it = index_.find(v.id());
        if (it == index_.end()) continue;
        const variable& var = sym_.variables[it->second];
        known.push_back(it->second);
        usual.push_back(usual_value(var));
    }
    // a small witness is cheap to make (the optimiser's), and says more than the game alone
    if (search == witness_search::played && usual.size() > exact_witness_limit) return unsearched(played_witness_line);
    const auto t0 = std::chrono::steady_clock::now();
    fewest_changes(q, usual, m, search == witness_search::quick);
    const auto t1 = std::chrono::steady_clock::now();
    fewest_players(q, all, vars, usual, m);
    if (debug_)
        std::fprintf(stderr, "    witness: %zu values, changes %.0f ms, players %.0f ms\n", usual.size(),
                     std::chrono::duration<double, std::milli>(t1 - t0).count(),
                     std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count());
    std::vector<std::string> lines;
    for (const auto& [text, e] : extra) lines.push_back(value_line(text, e, m));
    std::sort(known.begin(), known.end());
    std::int64_t players = sym_.lay.players;
    if (!m.eval(sym_.n_players, true).is_numeral_i64(players)) players = sym_.lay.players;
    // One line per value shown: (the element, its line, when it stands, its zone for a piece).
    struct shown_value {
        std::string element, line, when, zone;
    };
    std::vector<shown_value> shown;
    std::set<std::string> done;
    for (std::size_t i : known) {
        const variable& var = sym_.variables[i];
        const z3::expr v = m.eval(var.var, true);
        std::string line, zone;
        if (var.var.is_bool()) {
            if (v.is_true()) line = var.text + ": yes";
            else continue;
        } else {
            std::int64_t x = 0;
            if (!v.is_numeral_i64(x)) continue;
            if (x == var.preferred && var.text != "players") continue;
            switch (var.as) {
                case variable::show::zone:
                    // A place outside the piece's zones is a value the witness's way never reads:
                    // the piece's place forgotten on the branch not taken (its zones are a fact of
                    // that branch only). Not shown.
                    if (var.kind != ir::no_id && !sym_.can_hold(var.kind, x, players)) continue;
                    zone = sym_.zone_instance_text(x);
                    line = var.text + " is in " + zone;
                    break;
                case variable::show::boolean: line = var.text + " = " + (x ? "true" : "false"); break;
                case variable::show::player: line = var.text + " = " + (x < 0 ? "none" : "P" + std::to_string(x + 1)); break;
                case variable::show::instance: line = var.text + " = " + sym_.instance_text(x); break;
                default: line = var.text + " = " + sym_.value_text(var.type, x); break;
            }
        }
        if (done.insert(line).second) shown.push_back({var.text, line, var.when, zone});
    }
    // An element shown with two values (a card in two zones) is the same state value at two
    // places of the way: each line says where it stands.
    std::map<std::string, int> lines_of;
    for (const shown_value& s : shown) ++lines_of[s.element];
    // pieces away from their starting zone: (zone, piece) per line of `lines` that says so
    std::vector<std::pair<std::size_t, std::pair<std::string, std::string>>> placed;
    for (const shown_value& s : shown) {
        const std::string when = lines_of[s.element] > 1 ? s.when : "";
        if (!s.zone.empty()) placed.push_back({lines.size(), {s.zone + when, s.element}});
        lines.push_back(s.line + when);
    }
    if (placed.size() <= witness_piece_lines) return lines;
    // Many pieces moved (a deck run out has every card elsewhere): one line per zone, in the
    // order the zones first come, where the first of those lines was.
    std::vector<std::string> zones;
    std::map<std::string, std::vector<std::string>> in_zone;
    for (const auto& [at, zp] : placed) {
        if (!in_zone.count(zp.first)) zones.push_back(zp.first);
        in_zone[zp.first].push_back(zp.second);
    }
    std::vector<std::string> grouped;
    std::size_t next = 0;
    for (std::size_t l = 0; l < lines.size(); ++l) {
        if (next < placed.size() && placed[next].first == l) {
            if (next == 0)
                for (const std::string& z : zones) {
                    std::string g = "in " + z + " (" + std::to_string(in_zone[z].size()) + "): ";
                    const std::vector<std::string> names = copies_together(in_zone[z]);
                    for (std::size_t k = 0; k < names.size(); ++k) g += (k ? ", " : "") + names[k];
                    grouped.push_back(std::move(g));
                }
            ++next;
            continue;
        }
        grouped.push_back(lines[l]);
    }
    return grouped;
}

void checker::fewest_players(const z3::expr& q, const std::vector<z3::expr>& all, const std::vector<z3::expr>& shown_vars,
                             const std::vector<z3::expr>& usual, z3::model& m) {
    if (std::none_of(shown_vars.begin(), shown_vars.end(), [&](const z3::expr& v) { return z3::eq(v, sym_.n_players); })) return;
    std::int64_t now = 0;
    const std::int64_t fewest = std::max<std::int64_t>(1, sym_.rs.min_players);
    if (!m.eval(sym_.n_players, true).is_numeral_i64(now) || now <= fewest) return;
    z3::solver s(ctx_);
    configure(s);
    limit(s, descent_rlimit);  // each question small, as the descent's: one that runs out keeps the witness found
    s.add(q);
    for (const z3::expr& u : usual)
        if (m.eval(u, true).is_true()) s.add(u);
    for (std::int64_t k = fewest; k < now; ++k) {
        s.push();
        s.add(sym_.n_players == ctx_.int_val(k));
        ++out_.stats[kind_].queries;
        const z3::check_result r = ask(s);
        if (r == z3::sat) {
            const z3::model found = s.get_model();
            z3::model merged(ctx_);  // q's constants from the new model, the rest as they were
            for (const z3::expr& c : all) {
                z3::func_decl d = c.decl();
                z3::expr v = found.eval(c, true);
                merged.add_const_interp(d, v);
            }
            m = merged;
            return;
        }
        s.pop();
        if (r == z3::unknown) return;
    }
}

std::pair<std::vector<z3::expr>, std::unordered_map<unsigned, std::size_t>> checker::assume_usual(z3::solver& s, const std::vector<z3::expr>& usual) {
    std::pair<std::vector<z3::expr>, std::unordered_map<unsigned, std::size_t>> out;
    auto& [flags, flag_of] = out;
    for (std::size_t i = 0; i < usual.size(); ++i) {
        flags.push_back(ctx_.bool_const(("usual!" + std::to_string(i)).c_str()));
        flag_of.emplace(flags.back().id(), i);
        s.add(z3::implies(flags.back(), usual[i]));
    }
    return out;
}

std::pair<z3::check_result, std::optional<z3::model>> checker::near_usual(const z3::expr& q) {
    std::vector<z3::expr> usual;
    for (const z3::expr& v : constants(q))
        if (auto it = index_.find(v.id()); it != index_.end()) usual.push_back(usual_value(sym_.variables[it->second]));
    // Past a few thousand values the rounds ran out on every question tried (SPI: 3,300 to 6,000),
    // and a huge question may keep Z3 past the budget's interrupt (Cuius Regio).
    if (usual.size() > usual_values_limit) return {z3::unknown, std::nullopt};
    z3::solver s(ctx_);
    configure(s);
    limit(s, usual_round_rlimit);
    s.add(q);
    const auto assumed_usual = assume_usual(s, usual);
    const std::vector<z3::expr>& flags = assumed_usual.first;
    const std::unordered_map<unsigned, std::size_t>& flag_of = assumed_usual.second;
    std::vector<char> kept(flags.size(), 1);
    const std::string asked_for = purpose_;
    purpose_ = "usual";
    std::pair<z3::check_result, std::optional<z3::model>> out{z3::unknown, std::nullopt};
    for (int round = 0; round < usual_rounds && !spent(); ++round) {
        z3::expr_vector assumed(ctx_);
        for (std::size_t i = 0; i < flags.size(); ++i)
            if (kept[i]) assumed.push_back(flags[i]);
        ++out_.stats[kind_].queries;
        const z3::check_result r = ask(s, assumed);
        if (debug_) std::fprintf(stderr, "  near usual, round %d: %u values kept usual, %s\n", round, assumed.size(), r == z3::sat ? "sat" : r == z3::unsat ? "unsat" : "unknown");
        if (r == z3::sat) out = {z3::sat, s.get_model()};
        if (r != z3::unsat) break;
        const z3::expr_vector core = s.unsat_core();
        std::size_t dropped = 0;
        for (unsigned c = 0; c < core.size(); ++c)
            if (auto it = flag_of.find(core[c].id()); it != flag_of.end() && kept[it->second]) {
                kept[it->second] = 0;
                ++dropped;
            }
        if (dropped == 0) {  // no usual value in the core: q cannot hold at all
            out.first = z3::unsat;
            break;
        }
    }
    purpose_ = asked_for;
    return out;
}

void checker::fewest_changes(const z3::expr& q, const std::vector<z3::expr>& usual, z3::model& m, bool quick) {
    if (usual.size() > exact_witness_limit) {
        few_changes(q, usual, m, quick);
        return;
    }
    z3::optimize o(ctx_);
    // The query's resource limit, as every other query's; quick: the cores' questions' limit
    // (Wallenstein's `--upto base` spent 37 s of the choices stage on one summary-based
    // obligation's witness among 90 values at the full limit).
    if (const unsigned cap = quick ? capped_rlimit(quick_cores_rlimit) : rlimit_) {
        z3::params p(ctx_);
        p.set("rlimit", cap);
        o.set(p);
    }
    if (players_pin_) o.add(*players_pin_);
    o.add(q);
    for (const z3::expr& u : usual) o.add_soft(u, 1);
    ++out_.stats[kind_].queries;
    // The search for the smallest witness has the query's own limit: a shorter one made
    // the witness depend on how busy the machine was.
    if (ask(o) == z3::sat) m = o.get_model();
}

void checker::few_changes(const z3::expr& q, const std::vector<z3::expr>& usual, z3::model& m, bool quick) {
    z3::solver s(ctx_);
    configure(s);
    if (quick) {
        // the cores' questions too have a smaller limit: one that runs out keeps the model given
        // (two of SPI's summary-based bound witnesses spent 12 and 11 s of the bounds part's
        // budget on cores questions that ran out of the full limit, and showed the model given)
        limit(s, quick_cores_rlimit);
    }
    s.add(q);
    const auto assumed_usual = assume_usual(s, usual);
    const std::vector<z3::expr>& flags = assumed_usual.first;
    const std::unordered_map<unsigned, std::size_t>& flag_of = assumed_usual.second;
    std::vector<char> kept(usual.size(), 1);
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t q0 = out_.stats[kind_].queries;
    auto holds = [&] {
        z3::expr_vector assumed(ctx_);
        for (std::size_t i = 0; i < usual.size(); ++i)
            if (kept[i]) assumed.push_back(flags[i]);
        ++out_.stats[kind_].queries;
        return ask(s, assumed);
    };
    std::vector<std::size_t> given_up;
    for (z3::check_result r = holds(); r != z3::sat; r = holds()) {
        if (r == z3::unknown) return;
        const z3::expr_vector core = s.unsat_core();
        std::size_t dropped = 0;
        for (unsigned c = 0; c < core.size(); ++c)
            if (auto it = flag_of.find(core[c].id()); it != flag_of.end() && kept[it->second]) {
                kept[it->second] = 0;
                given_up.push_back(it->second);
                ++dropped;
            }
        if (dropped == 0) return;  // the question itself cannot hold: keep the model given
    }
    auto lap = [&](const char* step) {
        if (!debug_) return;
        std::fprintf(stderr, "    few_changes %s: %zu given up of %zu, %llu questions, %.0f ms\n", step, given_up.size(), usual.size(),
                     static_cast<unsigned long long>(out_.stats[kind_].queries - q0),
                     std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    };
    std::sort(given_up.begin(), given_up.end());
    // The values given up that the model just found keeps at their usual value are taken
    // back without a question (that model holds them all); only the others are searched.
    {
        const z3::model found = s.get_model();
        std::vector<std::size_t> changed;
        for (std::size_t i : given_up) {
            if (found.eval(usual[i], true).is_true()) kept[i] = 1;
            else changed.push_back(i);
        }
        given_up = std::move(changed);
    }
    // Take back all of a set together when it can be. When it cannot, the core names the values
    // of the set that conflict with those kept: the others are taken back first, then the
    // conflicting ones by halves (one alone conflicts for good, since the values kept only
    // grow). A model found on the way also takes back, without a question, every value it keeps
    // at its usual one. Halving by position instead asked about two questions for each value
    // that must change: on Contractor Cards' `--upto base`, the table gap's witness took 99
    // questions and 8.2 s to take back, now 27 and 1.5 s.
    // Quick: at most take_back_questions of them, and no descent after (GMT's `steps`
    // witness; Contractor Cards' `move end_of_war from reserve` took 165 questions, 6 s, before
    // the cap).
    bool undecided = false;
    std::size_t asked = 0;
    std::function<void(std::vector<std::size_t>)> take_back = [&](std::vector<std::size_t> open) {
        std::erase_if(open, [&](std::size_t i) { return kept[i] != 0; });
        if (open.empty() || undecided || (quick && asked >= take_back_questions)) return;
        ++asked;
        for (std::size_t i : open) kept[i] = 1;
        const z3::check_result r = holds();
        if (r == z3::sat) {
            const z3::model found = s.get_model();
            for (std::size_t i : given_up)
                if (!kept[i] && found.eval(usual[i], true).is_true()) kept[i] = 1;
            return;
        }
        for (std::size_t i : open) kept[i] = 0;
        if (r == z3::unknown) { undecided = true; return; }
        if (open.size() == 1) return;
        std::unordered_set<std::size_t> in_core;
        const z3::expr_vector core = s.unsat_core();
        for (unsigned c = 0; c < core.size(); ++c)
            if (auto it = flag_of.find(core[c].id()); it != flag_of.end()) in_core.insert(it->second);
        std::vector<std::size_t> conflicting, rest;
        for (std::size_t i : open) (in_core.count(i) ? conflicting : rest).push_back(i);
        if (conflicting.empty()) return;  // the values kept alone conflict: nothing more can be
        take_back(rest);
        if (conflicting.size() == 1) return;  // that one conflicts with what is kept, which only grows
        const std::size_t mid = conflicting.size() / 2;
        take_back({conflicting.begin(), conflicting.begin() + static_cast<std::ptrdiff_t>(mid)});
        take_back({conflicting.begin() + static_cast<std::ptrdiff_t>(mid), conflicting.end()});
    };
    lap("cores");
    if (quick) {
        // each take-back question gets a small limit of its own (GMT's `steps` witness: 53
        // questions of about 330 ms each); one that runs out keeps what was taken back so far
        limit(s, quick_take_back_rlimit);
    }
    take_back(given_up);
    lap("taken back");
    if (holds() != z3::sat) return;
    m = s.get_model();
    if (quick) return;  // one change at a time from there is dozens of questions more
    // At most one change fewer, until that cannot be (the greedy model makes the first bound
    // small, so this takes a question or two). The last of them, that no witness has fewer
    // changes, can be the hardest question of a whole stage (on Contractor Cards' `--upto base`
    // a table gap's ran out of the default 40,000,000 after 10.6 s): each gets a smaller limit of
    // Z3's resource count, never time, so the witness is the same on any machine, and one that
    // runs out keeps the witness found so far.
    limit(s, descent_rlimit);
    z3::expr_vector changed(ctx_);
    for (const z3::expr& u : usual) changed.push_back(!u);
    for (;;) {
        int count = 0;
        for (const z3::expr& u : usual) count += m.eval(u, true).is_false() ? 1 : 0;
        if (count == 0) return;
        s.add(z3::atmost(changed, static_cast<unsigned>(count - 1)));
        ++out_.stats[kind_].queries;
        if (ask(s) != z3::sat) {
            lap("fewest");
            return;
        }
        m = s.get_model();
    }
}

}  // namespace wp::verify
