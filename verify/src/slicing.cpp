// Asking a question of the checker: the facts it needs (its slice), quick tries on the facts near
// it, the satisfiability of the independent groups of facts left, and unsat cores as reasons.
#include "checker.hpp"
#include "var_partition.hpp"

#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace wp::verify {

void checker::flatten(const z3::expr& e, std::vector<z3::expr>& out) {
    if (e.is_app() && e.decl().decl_kind() == Z3_OP_AND) {
        for (unsigned i = 0; i < e.num_args(); ++i) flatten(e.arg(i), out);
        return;
    }
    if (e.is_true()) return;
    out.push_back(e);
}

std::vector<unsigned> checker::variables_of(const z3::expr& e) {
    const std::vector<z3::expr> consts = constants(e);
    std::vector<unsigned> ids;
    for (const z3::expr& c : consts) {
        if (players_pin_ && c.id() == players_id_) continue;  // a constant here (players_pin_)
        ids.push_back(c.id());
        variable_of_id_.try_emplace(c.id(), c);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

const std::vector<unsigned>& checker::conjuncts_of(const fact_list& node) {
    const detail::fact_node* f = node.get();
    auto it = fact_conjuncts_.find(f);
    if (it != fact_conjuncts_.end()) return it->second;
    keep_alive_.push_back(node);  // the cache is keyed by address: the node must not be reused
    std::vector<z3::expr> parts;
    flatten(f->f.e, parts);
    std::vector<unsigned> idx;
    for (const z3::expr& p : parts) {
        auto known = conjunct_index_.find(p.id());
        if (known == conjunct_index_.end()) {
            known = conjunct_index_.emplace(p.id(), static_cast<unsigned>(conjuncts_.size())).first;
            conjuncts_.push_back({p, variables_of(p)});
        }
        idx.push_back(known->second);
    }
    return fact_conjuncts_.emplace(f, std::move(idx)).first->second;
}

const checker::fact_index& checker::index_of(const fact_list& facts) {
    if (last_index_.keep == facts && last_index_.head == facts.get()) return last_index_;
    fact_index x;
    x.head = facts.get();
    x.keep = facts;
    std::unordered_set<unsigned> seen;
    for (fact_list f = facts; f; f = f->prev)
        for (unsigned c : conjuncts_of(f))
            if (seen.insert(c).second) x.all.push_back(c);
    for (unsigned c : x.all)
        for (unsigned v : conjuncts_[c].vars) x.by_var[v].push_back(c);
    last_index_ = std::move(x);
    return last_index_;
}

checker::sliced checker::slice(const fact_list& facts, const z3::expr& target) {
    const std::vector<unsigned>& all = index_of(facts).all;  // slice asks for no other index
    std::vector<z3::expr> tparts;
    flatten(target, tparts);
    detail::var_partition classes;
    for (unsigned c : all) classes.unite(conjuncts_[c].vars);
    std::vector<std::vector<unsigned>> tvars;
    for (const z3::expr& t : tparts) {
        tvars.push_back(variables_of(t));
        classes.unite(tvars.back());
    }
    std::unordered_set<unsigned> relevant;
    for (const auto& vs : tvars)
        for (unsigned v : vs) relevant.insert(classes.root(v));
    z3::expr_vector chosen(ctx_);
    std::map<unsigned, std::vector<unsigned>> others;
    // On a path already known satisfiable, every independent group is too
    const bool path_sat = known_sat_.count(facts.get()) > 0;
    for (unsigned c : all) {
        const conjunct& cj = conjuncts_[c];
        if (cj.vars.empty() || relevant.count(classes.root(cj.vars[0]))) chosen.push_back(cj.e);
        else if (!path_sat) others[classes.root(cj.vars[0])].push_back(c);
    }
    for (const z3::expr& t : tparts) chosen.push_back(t);
    sliced out{chosen.empty() ? ctx_.bool_val(true) : z3::mk_and(chosen), {}};
    for (auto& [root, group] : others) {
        std::sort(group.begin(), group.end());
        out.groups.push_back(std::move(group));
    }
    return out;
}

z3::check_result checker::groups_hold(const std::vector<std::vector<unsigned>>& groups) {
    // The small groups not known yet are asked together first: they share no variable, so
    // together they hold exactly when each does, and setting a question up costs far more
    // than solving a few facts. Only when that fails is each asked alone.
    std::vector<const std::vector<unsigned>*> fresh;
    for (const std::vector<unsigned>& group : groups)
        if (group.size() <= small_group && !group_sat_.count(group)) fresh.push_back(&group);
    if (fresh.size() > 1) {
        z3::solver s = one_shot_solver();
        for (const std::vector<unsigned>* g : fresh)
            for (unsigned c : *g) s.add(conjuncts_[c].e);
        ++out_.stats[kind_].queries;
        dump(s);
        purpose_ = "small groups";
        if (ask(s) == z3::sat) {
            const z3::model m = s.get_model();
            for (const std::vector<unsigned>* g : fresh) {
                group_sat_.emplace(*g, z3::sat);
                if (!no_hints_) group_model_.emplace(*g, m);
            }
            remember(m);
        }
        purpose_ = "other";
    }
    bool undecided = false;
    for (const std::vector<unsigned>& group : groups) {
        auto it = group_sat_.find(group);
        if (it == group_sat_.end() && !no_hints_ && !hints_.empty()) {
            std::unordered_map<unsigned, std::vector<unsigned>> by_var;
            for (unsigned c : group)
                for (unsigned v : conjuncts_[c].vars) by_var[v].push_back(c);
            // A large group is mostly another's that held, a few facts more or other: that
            // group's model, one model of nearly all these facts, is the hint to start from
            // (the values of every model found since, mixed, mostly break some of them).
            const values preferred = group.size() > small_group ? nearest_group_values(group, by_var) : values{};
            // (Where it fails, the mixed values are tried as before: a try costs little beside
            // asking a group of thousands of facts.)
            if (holds_near_hints(group, ctx_.bool_val(true), &by_var, 1, preferred) ||
                (!preferred.empty() && holds_near_hints(group, ctx_.bool_val(true), &by_var, 1, {}))) {
                it = group_sat_.emplace(group, z3::sat).first;
                group_model_.emplace(group, *last_hinted_);
            }
        }
        // a huge group is asked with the larger limit, except in the capped first round
        const bool larger_limit = group.size() > huge_group && rlimit_ && !rlimit_cap_;
        // a large group inside one that holds, or holding one undecided (large_groups.hpp)
        if (it == group_sat_.end() && group.size() > small_group) {
            const detail::large_groups::verdict known = large_groups_.of(group, larger_limit);
            if (known.inside_held) {
                it = group_sat_.emplace(group, z3::sat).first;
                const auto m = group_model_.find(large_groups_.held(*known.inside_held));
                if (m != group_model_.end()) group_model_.emplace(group, m->second);
            } else if (known.undecided) {
                if (debug_) std::fprintf(stderr, "  group of %zu facts holds an undecided one: not asked\n", group.size());
                undecided = true;
                continue;
            }
        }
        if (it == group_sat_.end()) {
            z3::solver s = one_shot_solver();
            if (larger_limit) {
                z3::params p(ctx_);
                p.set("rlimit", static_cast<unsigned>(std::min<std::uint64_t>(std::uint64_t{rlimit_} * huge_group_rlimit_factor,
                                                                             std::numeric_limits<unsigned>::max())));
                s.set(p);
            }
            for (unsigned c : group) s.add(conjuncts_[c].e);
            ++out_.stats[kind_].queries;
            dump(s);
            purpose_ = "group";
            struct reset {
                double& factor;
                ~reset() { factor = 1; }
            } after{timeout_factor_};
            if (larger_limit) timeout_factor_ = huge_group_rlimit_factor;
            const z3::check_result r = ask(s);
            purpose_ = "other";
            if (debug_ && r == z3::unknown) {
                std::string first = conjuncts_[group.front()].e.to_string();
                if (first.size() > 300) first = first.substr(0, 300) + "...";
                std::fprintf(stderr, "  group undecided: %zu conjuncts, %zu variables in the first: %s\n", group.size(),
                             conjuncts_[group.front()].vars.size(), first.c_str());
            }
            // undecided under a capped round (first_sat_of) is not this group's answer
            if (r == z3::unknown && rlimit_cap_) {
                undecided = true;
                continue;
            }
            it = group_sat_.emplace(group, r).first;
            if (group.size() > small_group && r == z3::sat) large_groups_.add_held(group);
            if (group.size() > small_group && r == z3::unknown)
                large_groups_.add_undecided(group, larger_limit);
            if (it->second == z3::sat) {
                remember(s.get_model());
                if (!no_hints_) group_model_.emplace(group, s.get_model());
            }
        }
        if (it->second == z3::unsat) return z3::unsat;
        if (it->second == z3::unknown) undecided = true;
    }
    return undecided ? z3::unknown : z3::sat;
}

void checker::remember(const z3::model& m) {
    if (no_hints_) return;
    for (unsigned i = 0; i < m.num_consts(); ++i) {
        const z3::func_decl d = m.get_const_decl(i);
        const z3::expr v = d();
        hints_.insert_or_assign(v.id(), std::pair<z3::expr, z3::expr>{v, m.get_const_interp(d)});
    }
}

bool checker::holds_near_hints(const std::vector<unsigned>& conjuncts, const z3::expr& target,
                               const std::unordered_map<unsigned, std::vector<unsigned>>* by_var, int max_radius,
                               const values& preferred) {
    if (no_hints_ || (hints_.empty() && preferred.empty()) || spent()) return false;
    // every variable of the facts with a value to fix it at, once
    std::vector<std::pair<unsigned, z3::expr>> pins;  // variable, equation
    z3::model hinted(ctx_);
    auto pin = [&](unsigned v) {
        auto h = preferred.find(v);
        if (h == preferred.end()) {
            h = hints_.find(v);
            if (h == hints_.end()) return;
        }
        z3::func_decl d = h->second.first.decl();
        z3::expr value = h->second.second;
        hinted.add_const_interp(d, value);
        pins.emplace_back(v, h->second.first == h->second.second);
    };
    if (by_var) {
        for (const auto& [v, cs] : *by_var) pin(v);
    } else {
        std::unordered_set<unsigned> seen;
        for (unsigned c : conjuncts)
            for (unsigned v : conjuncts_[c].vars)
                if (seen.insert(v).second) pin(v);
    }
    if (pins.empty()) return false;  // nothing to gain over the question itself
    // how many facts away each variable is from the target's and from those of the facts the
    // hinted values break (0: their own), up to max_radius
    std::unordered_map<unsigned, int> distance;
    std::vector<unsigned> frontier;
    auto loosen = [&](const std::vector<unsigned>& vars) {
        for (unsigned v : vars)
            if (distance.emplace(v, 0).second) frontier.push_back(v);
    };
    const std::vector<unsigned> target_vars = variables_of(target);
    loosen(target_vars);
    // A fact the hinted values already make true, none of whose variables a try frees, holds in
    // the try's model whatever the solver picks: it is left out of the try (on GMT most of a
    // path's facts: the solver no longer reads their terms to find the same values again).
    std::vector<bool> holds_pinned(conjuncts.size());
    for (std::size_t i = 0; i < conjuncts.size(); ++i) {
        const z3::expr value = hinted.eval(conjuncts_[conjuncts[i]].e, false);
        if (value.is_false()) loosen(conjuncts_[conjuncts[i]].vars);
        holds_pinned[i] = value.is_true();
    }
    std::vector<bool> scanned;  // each fact's variables are read once, however many it holds
    for (int step = 1; step <= max_radius && by_var && !frontier.empty(); ++step) {
        std::vector<unsigned> next;
        for (unsigned v : frontier) {
            auto it = by_var->find(v);
            if (it == by_var->end()) continue;
            for (unsigned c : it->second) {
                if (c >= scanned.size()) scanned.resize(conjuncts_.size());
                if (scanned[c]) continue;
                scanned[c] = true;
                for (unsigned w : conjuncts_[c].vars)
                    if (distance.emplace(w, step).second) next.push_back(w);
            }
        }
        frontier = std::move(next);
    }
    auto far = [&](unsigned v, int radius) {
        auto d = distance.find(v);
        return d == distance.end() || d->second > radius;
    };
    bool tried = false;
    for (int radius = 0; radius <= max_radius; ++radius) {
        std::size_t pinned = 0;
        bool freed = !tried;  // a radius that frees no variable more than the one before is not tried
        for (const auto& [v, eq] : pins) {
            if (far(v, radius)) ++pinned;
            else if (radius > 0 && distance.at(v) == radius) freed = true;
        }
        if (pinned == 0) return false;
        if (!freed) continue;
        tried = true;
        z3::solver s = one_shot_solver();
        limit(s, quick_rlimit);
        std::unordered_set<unsigned> read(target_vars.begin(), target_vars.end());
        for (std::size_t i = 0; i < conjuncts.size(); ++i) {
            const conjunct& c = conjuncts_[conjuncts[i]];
            if (holds_pinned[i] && std::all_of(c.vars.begin(), c.vars.end(), [&](unsigned v) { return far(v, radius); }))
                continue;
            s.add(c.e);
            read.insert(c.vars.begin(), c.vars.end());
        }
        s.add(target);
        for (const auto& [v, eq] : pins)
            if (far(v, radius) && read.count(v)) s.add(eq);
        ++out_.stats[kind_].queries;
        dump(s);
        purpose_ = "hinted" + std::to_string(radius);
        z3::check_result r = z3::unknown;
        {
            struct reset {
                bool& on;
                ~reset() { on = false; }
            } after{hinted_};
            hinted_ = true;
            r = ask(s);
        }
        purpose_ = "other";
        if (r == z3::sat) {
            ++out_.hinted_answers;
            last_hinted_ = s.get_model();
            // the facts left out hold at the pinned values: the model holds them too
            for (const auto& [v, eq] : pins) {
                z3::func_decl d = variable_of_id_.at(v).decl();
                if (!far(v, radius) || last_hinted_->has_interp(d)) continue;
                z3::expr value = hinted.get_const_interp(d);
                last_hinted_->add_const_interp(d, value);
            }
            remember(*last_hinted_);
            return true;
        }
        if (spent()) return false;
    }
    return false;
}

std::vector<std::vector<unsigned>> checker::groups_of(const fact_index& ix) {
    detail::var_partition classes;
    for (unsigned c : ix.all) classes.unite(conjuncts_[c].vars);
    std::map<unsigned, std::vector<unsigned>> groups;
    for (unsigned c : ix.all)
        if (!conjuncts_[c].vars.empty()) groups[classes.root(conjuncts_[c].vars[0])].push_back(c);
    std::vector<std::vector<unsigned>> out;
    for (auto& [root, group] : groups) {
        std::sort(group.begin(), group.end());
        out.push_back(std::move(group));
    }
    return out;
}

checker::values checker::nearest_group_values(const std::vector<unsigned>& group,
                                              const std::unordered_map<unsigned, std::vector<unsigned>>& by_var) {
    values out;
    const auto* near = detail::nearest_group(group_model_, group, small_group);
    if (!near) return out;
    const z3::model& m = near->second;
    for (const auto& [v, cs] : by_var) {
        const z3::expr& x = variable_of_id_.at(v);
        const z3::func_decl d = x.decl();
        if (m.has_interp(d)) out.emplace(v, std::pair<z3::expr, z3::expr>{x, m.get_const_interp(d)});
    }
    return out;
}

checker::values checker::path_values(const std::vector<std::vector<unsigned>>& groups) {
    values out;
    for (const std::vector<unsigned>& group : groups) {
        auto m = group_model_.find(group);
        if (m == group_model_.end()) continue;
        for (unsigned c : group)
            for (unsigned v : conjuncts_[c].vars) {
                if (out.count(v)) continue;
                const z3::expr& x = variable_of_id_.at(v);
                const z3::func_decl d = x.decl();
                if (m->second.has_interp(d)) out.emplace(v, std::pair<z3::expr, z3::expr>{x, m->second.get_const_interp(d)});
            }
    }
    return out;
}

bool checker::implied_on_known_path(const fact_list& facts, const z3::expr& target) {
    if (!facts || !known_sat_.count(facts.get()) || spent()) return false;
    ++out_.stats[kind_].queries;
    z3::solver s = one_shot_solver();
    limit(s, quick_rlimit);
    s.add(neighbourhood(facts, !target, 2));
    dump(s);
    purpose_ = "implied2";
    const z3::check_result r = ask(s);
    purpose_ = "other";
    if (r != z3::unsat) return false;
    ++out_.implied_answers;
    return true;
}

void checker::mark_satisfiable(const fact_list& facts) {
    if (!facts || known_sat_.count(facts.get())) return;
    keep_alive_.push_back(facts);  // keyed by address: the node must not be reused
    for (const detail::fact_node* f = facts.get(); f && known_sat_.insert(f).second; f = f->prev.get()) {}
}

bool checker::frame_proof(const fact_list& facts, const z3::expr& target) {
    if (spent()) return false;
    const std::optional<z3::expr> frame = last_frame(facts, target);
    if (!frame) return false;
    ++out_.stats[kind_].queries;
    z3::solver s = one_shot_solver();
    limit(s, frame_rlimit);
    s.add(*frame);
    dump(s);
    purpose_ = "frame";
    const z3::check_result r = ask(s);
    purpose_ = "other";
    if (r == z3::unknown && kind_ == "invariants") return element_split_proof(*frame);
    return r == z3::unsat;
}

// The terms compared with numbers in q (a store index read at a symbolic piece, as `c == 17`
// in every `ite` of a county's field read at `c`), each with the numbers, by the term's id.
std::unordered_map<unsigned, std::pair<z3::expr, std::set<std::int64_t>>> checker::compared_terms(const z3::expr& q) {
    std::unordered_map<unsigned, std::pair<z3::expr, std::set<std::int64_t>>> compared;
    std::unordered_set<unsigned> seen;
    std::vector<z3::expr> todo{q};
    while (!todo.empty()) {
        const z3::expr e = todo.back();
        todo.pop_back();
        if (!e.is_app() || !seen.insert(e.id()).second) continue;
        if (e.decl().decl_kind() == Z3_OP_EQ && e.num_args() == 2) {
            const z3::expr a = e.arg(0), b = e.arg(1);
            std::int64_t v = 0;
            if (a.is_int() && b.is_numeral_i64(v) && !a.is_numeral()) compared.try_emplace(a.id(), a, std::set<std::int64_t>{}).first->second.second.insert(v);
            else if (b.is_int() && a.is_numeral_i64(v) && !b.is_numeral()) compared.try_emplace(b.id(), b, std::set<std::int64_t>{}).first->second.second.insert(v);
        }
        for (unsigned i = 0; i < e.num_args(); ++i) todo.push_back(e.arg(i));
    }
    return compared;
}

bool checker::split_cases(const z3::expr& q, const std::vector<z3::expr>& cases) {
    for (const z3::expr& c : cases) {
        if (spent()) return false;
        ++out_.stats[kind_].queries;
        z3::solver s = one_shot_solver();
        limit(s, split_rlimit);
        s.add(q);
        s.add(c);
        dump(s);
        purpose_ = "split";
        const z3::check_result r = ask(s);
        purpose_ = "other";
        if (r != z3::unsat) return false;
    }
    return true;
}

bool checker::element_split_proof(const z3::expr& q) {
    // the piece or seat a round works on: a loop's element, a pile's top card, a choice
    static const std::string picked[] = {"the element of the loop at ", "the top card at ", "the choice at "};
    std::optional<std::size_t> newest;
    for (unsigned v : variables_of(q)) {
        const auto it = sym_.variable_of.find(v);
        if (it == sym_.variable_of.end()) continue;
        const std::string& text = sym_.variables[it->second].text;
        if (std::none_of(std::begin(picked), std::end(picked), [&](const std::string& w) { return text.rfind(w, 0) == 0; })) continue;
        if (!newest || it->second > *newest) newest = it->second;
    }
    // Or the term most often compared with numbers, when more often than the piece: a piece
    // named by a field or a parameter, not a variable of its own (Wallenstein's county of the
    // card a player put in an action box, `k.land`, whose fields an action reads and writes
    // through an `ite` over the 45, in a round of a loop over the seats).
    const auto compared = compared_terms(q);
    const std::pair<z3::expr, std::set<std::int64_t>>* most = nullptr;
    for (const auto& [key, c] : compared)
        if (!most || c.second.size() > most->second.size() || (c.second.size() == most->second.size() && c.first.id() < most->first.id()))
            most = &c;
    std::size_t piece_compared = 0;
    if (newest)
        if (auto it = compared.find(sym_.variables[*newest].var.id()); it != compared.end()) piece_compared = it->second.second.size();
    std::vector<z3::expr> cases;
    if (most && most->second.size() >= 3 && most->second.size() <= 128 && most->second.size() > piece_compared) {
        // each number it is compared with, then every other value
        z3::expr_vector other(ctx_);
        for (std::int64_t v : most->second) {
            cases.push_back(most->first == ctx_.int_val(v));
            other.push_back(most->first != ctx_.int_val(v));
        }
        cases.push_back(z3::mk_and(other));
    } else if (newest) {
        const z3::expr x = sym_.variables[*newest].var;
        const id type = sym_.variables[*newest].type;
        if (type == ir::no_id) return false;
        const ir::type& t = rs_.types.at(type);
        std::int64_t first = 0, count = 0;
        if (t.kind == ir::type_kind::player) count = sym_.lay.players;
        else if (t.kind == ir::type_kind::entity && t.ref < sym_.lay.kind_first.size()) {
            first = sym_.lay.kind_first[t.ref];
            count = sym_.lay.kind_count[t.ref];
        } else
            return false;
        // each value of the type, then every other value (a pile's top card is -1 when it is
        // empty): the cases cover every model of q
        for (std::int64_t v = first; v < first + count; ++v) cases.push_back(x == ctx_.int_val(v));
        cases.push_back(x < ctx_.int_val(first) || x >= ctx_.int_val(first + count));
    } else
        return false;
    return split_cases(q, cases);
}

std::optional<z3::expr> checker::last_frame(const fact_list& facts, const z3::expr& target) {
    std::vector<unsigned> chosen;
    bool framed = false;
    for (fact_list f = facts; f && !framed; f = f->prev) {
        framed = f->frame;
        const std::vector<unsigned>& cs = conjuncts_of(f);
        chosen.insert(chosen.end(), cs.begin(), cs.end());
    }
    if (!framed) return std::nullopt;
    const fact_index& ix = index_of(facts);
    if (chosen.size() >= ix.all.size()) return std::nullopt;  // the frame is the whole path
    std::vector<unsigned> vars = variables_of(target);
    for (unsigned c : chosen) vars.insert(vars.end(), conjuncts_[c].vars.begin(), conjuncts_[c].vars.end());
    mine_.clear();
    for (unsigned v : vars) mine_.mark(v);
    learnt_.clear();
    for (unsigned c : chosen) learnt_.mark(c);
    // the older facts over those variables alone
    for (unsigned v : vars) {
        auto it = ix.by_var.find(v);
        if (it == ix.by_var.end()) continue;
        for (unsigned c : it->second) {
            if (learnt_.has(c)) continue;
            const std::vector<unsigned>& cv = conjuncts_[c].vars;
            if (!std::all_of(cv.begin(), cv.end(), [&](unsigned w) { return mine_.has(w); })) continue;
            learnt_.mark(c);
            chosen.push_back(c);
        }
    }
    z3::expr_vector v(ctx_);
    for (unsigned c : chosen) v.push_back(conjuncts_[c].e);
    v.push_back(target);
    return z3::mk_and(v);
}

z3::expr checker::neighbourhood(const fact_list& facts, const z3::expr& target, int radius) {
    const fact_index& ix = index_of(facts);
    const std::vector<unsigned>& all = ix.all;
    const auto& by_var = ix.by_var;
    std::unordered_set<unsigned> vars_seen;
    std::vector<unsigned> frontier = variables_of(target);
    vars_seen.insert(frontier.begin(), frontier.end());
    std::set<unsigned> chosen;
    for (unsigned c : all)
        if (conjuncts_[c].vars.empty()) chosen.insert(c);
    for (int step = 0; step < radius && !frontier.empty(); ++step) {
        std::vector<unsigned> next;
        for (unsigned v : frontier) {
            auto it = by_var.find(v);
            if (it == by_var.end()) continue;
            for (unsigned c : it->second) {
                if (!chosen.insert(c).second) continue;
                for (unsigned w : conjuncts_[c].vars)
                    if (vars_seen.insert(w).second) next.push_back(w);
            }
        }
        frontier = std::move(next);
    }
    z3::expr_vector v(ctx_);
    for (unsigned c : chosen) v.push_back(conjuncts_[c].e);
    v.push_back(target);
    return z3::mk_and(v);
}

bool checker::general_proof(const z3::expr& target) {
    // Not a stuck choice's question: its target is every option's legality denied, and each
    // legality cut below the top levels is a fresh constant that can be false, so the cut target
    // always holds (GMT: 157 tries, 4-20 s, none a proof; SPI: 9, none).
    if (no_general_ || kind_ == "choices") return false;
    if (general_tried_ && z3::eq(*general_tried_, target)) return false;  // tried just before
    general_tried_ = target;
    if (!detail::larger_than(target, general_threshold)) return false;
    const detail::generalization g = detail::generalize(target, general_depth, general_budget, general_counter_);
    if (g.replaced == 0) return false;
    ++out_.stats[kind_].queries;
    z3::solver s = one_shot_solver();
    limit(s, quick_rlimit);  // bounded like the quick tries below, for the same reason
    s.add(g.e);
    dump(s);
    purpose_ = "general";
    const z3::check_result r = ask(s);
    purpose_ = "other";
    if (r == z3::unsat) ++out_.general_proofs;
    return r == z3::unsat;
}

checker::answer checker::solve_local_first(const fact_list& facts, const z3::expr& target, bool show, const std::vector<std::pair<std::string, z3::expr>>& extra,
                                           witness_search search) {
    if (spent()) return {};
    struct reset {
        bool& on;
        ~reset() { on = false; }
    } after{hints_tried_};
    // The dead branches' and no-op effects' questions mostly hold, and a hint, or a path known to
    // hold that implies the question, shows it: tried before the tries that can only prove a
    // question never holds (its top levels, the quick tries). The hints first: their models are
    // kept as hints for the questions after (asked first, the implication left GMT's
    // `coi_grace` at base/conflict_of_interest.wph:101 without the model that had answered it in
    // 0.7 s: undecided in 62 s). The implication, one small question, where the hints fail on a
    // path of 9,000 facts (GMT's `coi_pending = false` inside the `if` that tests it: undecided
    // in 30-40 s before).
    if (kind_ == "reach" && !show && !target.is_true()) {
        if (holds_at_path_hints(facts, target) || implied_on_known_path(facts, target)) {
            answer a;
            a.r = z3::sat;
            return a;
        }
        hints_tried_ = true;
    }
    if (general_proof(target)) {
        answer a;
        a.r = z3::unsat;
        return a;
    }
    // An invariant's obligation in the induction mostly holds by the invariants assumed at the
    // last loop round's start: the facts since then decide it. On Contractor Cards they prove 107
    // of the first round's 119, in less time than the quick tries took to prove 95
    // (docs/performance.md, fourteenth session).
    if (kind_ == "invariants" && frame_proof(facts, target)) {
        answer a;
        a.r = z3::unsat;
        return a;
    }
    // One quick try on the facts two steps from the question, bounded by Z3's resource count
    // rather than the clock: the answer (and so every later query and witness) must not depend
    // on how busy the machine is. (A second try six steps out, after this one held, held too in
    // 138 of 138 such tries measured: the corpus, Contractor Cards, Wallenstein's printed rules
    // and SPI's; on Contractor Cards' `--upto base` they took 0.6 s of the bounds part.) The
    // try's solver is gone before the question: its terms freed, so the ids that the
    // witnesses' models follow do not depend on it.
    const z3::check_result r = [&] {
        ++out_.stats[kind_].queries;
        z3::solver s = one_shot_solver();
        limit(s, quick_rlimit);
        s.add(neighbourhood(facts, target, 2));
        dump(s);
        purpose_ = "quick2";
        const z3::check_result found = ask(s);
        purpose_ = "other";
        return found;
    }();
    if (r == z3::unsat) {
        answer a;
        a.r = z3::unsat;
        return a;
    }
    const bool hard = r == z3::unknown;  // out of its resources on the small neighbourhood
    // (Not after a neighbourhood that holds: a bound that can be broken mostly is, and a try
    // that says nothing would change the witness the solver finds next.)
    if (hard && kind_ == "bounds" && frame_proof(facts, target)) {
        answer a;
        a.r = z3::unsat;
        return a;
    }
    return solve(facts, target, show, extra, search);
}

bool checker::holds_at_path_hints(const fact_list& facts, const z3::expr& target) {
    // a question along a path asked before: the earlier model, but near the target
    const fact_index& ix = index_of(facts);
    const std::vector<std::vector<unsigned>> groups = groups_of(ix);
    if (!holds_near_hints(ix.all, target, &ix.by_var, 3, path_values(groups))) return false;
    // the model holds every fact of the path: one of each of its groups
    for (const std::vector<unsigned>& g : groups) {
        group_sat_.emplace(g, z3::sat);
        group_model_.emplace(g, *last_hinted_);
    }
    mark_satisfiable(facts);
    return true;
}

z3::check_result checker::solve_local_first(const fact_list& facts, const z3::expr& target) {
    return solve_local_first(facts, target, false).r;
}

checker::answer checker::solve(const fact_list& facts, const z3::expr& target, bool show, const std::vector<std::pair<std::string, z3::expr>>& extra, witness_search search) {
    answer a;
    if (spent()) return a;
    if (general_proof(target)) {
        a.r = z3::unsat;
        return a;
    }
    // Not the bounds' questions (a part of their own, checker.md step 11): a value out of its
    // range mostly cannot be, and a try at a question that cannot hold is wasted.
    if (!show && !target.is_true() && kind_ != "bounds" && !hints_tried_ && holds_at_path_hints(facts, target)) {
        a.r = z3::sat;
        return a;
    }
    const sliced sl = slice(facts, target);
    const z3::expr& q = sl.question;
    ++out_.stats[kind_].queries;
    const auto t0 = std::chrono::steady_clock::now();
    purpose_ = show ? "full+witness" : "full";
    z3::solver s = one_shot_solver();
    s.add(q);
    dump(s);
    a.r = ask(s);
    std::optional<z3::model> found;
    if (a.r == z3::sat) found = s.get_model();
    // An invariant's question undecided: asked again of Z3's own default solver, within the
    // same limit. Our preprocessing (one_shot_solver) is cheaper on most questions, but on
    // Wallenstein's rounds of a player's actions the default needed 15-19 million steps against
    // 45-68 million (docs/performance.md, eighteenth session). Only the invariants' questions
    // asked in full pay the second try (not first_sat_of's capped round, whose undecided places
    // are asked in full after it): few, and a proof is what the induction is run for.
    if (a.r == z3::unknown && kind_ == "invariants" && !rlimit_cap_ && !spent()) {
        z3::solver d(ctx_);
        configure(d);
        d.add(q);
        dump(d);
        purpose_ = show ? "default+witness" : "default";
        a.r = ask(d);
        if (a.r == z3::sat) found = d.get_model();
    }
    if (a.r == z3::unknown && show && !spent()) {
        // Undecided: a model may still be near the usual values, where the solver did not look
        // (Wallenstein's `thalers` above its range: 18 s undecided, then found in six rounds
        // of 0.2 s at most).
        auto [r, m] = near_usual(q);
        a.r = r;
        found = std::move(m);
    }
    if (found) remember(*found);
    purpose_ = "other";
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (debug_ && ms > 200) std::fprintf(stderr, "  slow %s query: %.0f ms (%s)\n", kind_.c_str(), ms,
                                         a.r == z3::sat ? "sat" : a.r == z3::unsat ? "unsat" : "unknown");
    // The facts that share nothing with the question matter only when it can hold: asked after
    // it (a question that cannot hold on its own slice needs them not at all), and once per path.
    if (a.r == z3::sat && !sl.groups.empty()) {
        const auto tg = std::chrono::steady_clock::now();
        const z3::check_result rest = groups_hold(sl.groups);
        if (debug_) std::fprintf(stderr, "  groups %s: %zu, %.0f ms\n", kind_.c_str(), sl.groups.size(), std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - tg).count());
        if (rest != z3::sat) {
            a.r = rest;
            return a;
        }
    }
    if (a.r == z3::sat) mark_satisfiable(facts);
    if (a.r == z3::sat && show) {
        // the answer rests on every fact of the path (the slice's and the independent
        // groups'), so an approximation anywhere in them is named
        for (; approx_scanned_ < sym_.variables.size(); ++approx_scanned_) {
            const detail::variable& v = sym_.variables[approx_scanned_];
            if (v.approximate) approx_.emplace(v.var.id(), v.text.substr(2));
        }
        std::set<std::string> cut;
        auto note = [&](const std::vector<unsigned>& vars) {
            for (unsigned v : vars)
                if (auto it = approx_.find(v); it != approx_.end()) cut.insert(it->second);
        };
        if (!approx_.empty()) {
            for (fact_list f = facts; f; f = f->prev)
                for (unsigned c : conjuncts_of(f)) note(conjuncts_[c].vars);
            note(variables_of(target));
        }
        // the witness shows the values near the question (its variables and those one
        // fact away), kept at their usual values where possible
        const std::vector<unsigned> near = variables_of(neighbourhood(facts, target, 1));
        a.model = found;
        const auto tw = std::chrono::steady_clock::now();
        a.witness = witness(q, *a.model, extra, std::set<unsigned>(near.begin(), near.end()), search);
        if (debug_) std::fprintf(stderr, "  witness %s: %.0f ms\n", kind_.c_str(), std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - tw).count());
        a.approximated = !cut.empty();
        for (const std::string& c : cut)
            a.witness.push_back("approximate: rests on " + c + ", encoded as any value (it may not happen in play)");
    }
    return a;
}

std::vector<std::string> checker::explain(const fact_list& facts, const std::vector<std::pair<std::string, z3::expr>>& extra) {
    if (spent()) return {};
    ++out_.stats[kind_].queries;
    z3::solver s(ctx_);
    configure(s);
    z3::params p(ctx_);
    p.set("core.minimize", true);
    s.set(p);
    std::vector<std::string> why;
    std::size_t k = 0;
    auto track = [&](const z3::expr& e, const std::string& w) {
        const z3::expr lit = ctx_.bool_const(("why" + std::to_string(k++)).c_str());
        s.add(z3::implies(lit, e));
        why.push_back(w);
        return lit;
    };
    z3::expr_vector lits(ctx_);
    for (const auto& [w, e] : extra) lits.push_back(track(e, w));
    for (const detail::fact_node* f = facts.get(); f; f = f->prev.get()) lits.push_back(track(f->f.e, f->f.why));
    std::vector<std::string> out;
    if (ask(s, lits) != z3::unsat) return out;
    // In the order the reasons were given (the question's own conditions first, then the
    // facts from the nearest back): the core's own order follows Z3's term ids, which
    // depend on every query asked before.
    std::vector<std::size_t> used;
    for (const z3::expr& c : s.unsat_core()) used.push_back(std::stoul(c.decl().name().str().substr(3)));
    std::sort(used.begin(), used.end());
    std::set<std::string> seen;
    for (std::size_t i : used)
        if (seen.insert(why.at(i)).second) out.push_back(why.at(i));
    return out;
}

}  // namespace wp::verify
