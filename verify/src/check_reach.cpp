// Reachability: random play as evidence, then rules that never apply where they are used, and
// blocks and game ends never reached (under these options, or under none).
#include "checker.hpp"
#include "traces.hpp"

#include <set>

namespace wp::verify {

bool checker::played_under_other_options(id node) {
    if (rs_.options.empty()) return false;
    if (!played_elsewhere_) play_other_options();
    return started(run_elsewhere_, node);
}

bool checker::fired_under_other_options(const std::string& name) {
    if (rs_.options.empty()) return false;
    if (!played_elsewhere_) play_other_options();
    return fired_elsewhere_.count(name) > 0;
}

bool checker::explore_free_options() {
    if (!free_ && !free_stopped_ && budget_left_ms() >= 1.0) {
        free_ = std::make_unique<symbolic>(ctx_, rs_, sym_.lay.players);
        free_->free_options = true;
        free_->unfold_limit = sym_.unfold_limit;
        free_->unroll_depth = sym_.unroll_depth;
        free_->unassumed = sym_.unassumed;
        free_->deadline = budget_deadline();
        free_->explore();
        free_->deadline.reset();
        if (free_->stopped) {
            free_stopped_ = true;
            free_.reset();
        }
    }
    if (free_) return true;
    free_stopped_ = true;
    out_.out_of_time = true;
    ++out_.stats[kind_].skipped;
    return false;
}

z3::check_result checker::applies_in_play_under_other_options(id r) {
    if (rs_.options.empty()) return z3::unsat;
    if (fired_under_other_options(rs_.rules.at(r).name)) return z3::sat;
    if (!explore_free_options()) return z3::unknown;
    const free_options_question named(*this);
    // one question per path, as the reach check asks under these options
    std::vector<std::pair<const detail::rule_site*, z3::expr_vector>> places;
    for (const detail::rule_site& s : free_->rule_sites) {
        if (s.rule != r) continue;
        auto at = std::find_if(places.begin(), places.end(), [&](const auto& x) { return x.first->facts == s.facts; });
        if (at == places.end()) at = places.insert(places.end(), {&s, z3::expr_vector(ctx_)});
        at->second.push_back(s.extra && s.applies);
    }
    return any_place_sat(places.size(), [&](std::size_t i) { return solve_local_first(places[i].first->facts, z3::mk_or(places[i].second)); });
}

checker::used_elsewhere checker::rule_used_under_other_options(id r) {
    if (rs_.options.empty()) return used_elsewhere::never_used;
    if (fired_under_other_options(rs_.rules.at(r).name)) return used_elsewhere::applies;
    if (!explore_free_options()) return used_elsewhere::undecided;
    if (std::none_of(free_->rule_sites.begin(), free_->rule_sites.end(), [&](const detail::rule_site& s) { return s.rule == r; }))
        return used_elsewhere::never_used;
    const z3::check_result a = applies_in_play_under_other_options(r);
    return a == z3::sat ? used_elsewhere::applies : a == z3::unknown ? used_elsewhere::undecided : used_elsewhere::never_applies;
}

z3::check_result checker::reachable_under_other_options(id node) {
    if (rs_.options.empty()) return z3::unsat;
    if (played_under_other_options(node)) return z3::sat;
    if (!explore_free_options()) return z3::unknown;
    const free_options_question named(*this);
    std::vector<const detail::fact_list*> at;  // the node's places: its blocks', ends' and tables' sites
    auto collect = [&](const auto& sites) {
        for (const auto& s : sites)
            if (s.node == node) at.push_back(&s.facts);
    };
    collect(free_->block_sites);
    collect(free_->end_sites);
    collect(free_->table_sites);
    return any_place_sat(at.size(), [&](std::size_t i) { return solve_local_first(*at[i], ctx_.bool_val(true)); });
}

z3::check_result checker::branch_taken_under_other_options(id branch, bool taken) {
    if (rs_.options.empty()) return z3::unsat;
    if (!explore_free_options()) return z3::unknown;
    const free_options_question named(*this);
    std::vector<const detail::branch_site*> at;
    for (const detail::branch_site& s : free_->branch_sites)
        if (s.branch == branch && s.taken == taken) at.push_back(&s);
    return any_place_sat(at.size(), [&](std::size_t i) { return solve_local_first(at[i]->facts, ctx_.bool_val(true)); });
}

void checker::play_other_options() {
    played_elsewhere_ = true;
    if (sim_games_ == 0 || rs_.sequences.empty()) return;
    const int lo = static_cast<int>(std::max<std::int64_t>(1, rs_.min_players));
    std::set<int> counts{lo, std::max(lo, sym_.lay.players)};
    for (std::size_t o = 0; o < rs_.options.size(); ++o) {
        for (std::uint32_t v = 0; v < rs_.options[o].values.size(); ++v) {
            if (v == rs_.options[o].selected_index || budget_left_ms() < 1.0) continue;
            ir::ruleset variant = rs_;
            variant.options[o].selected_index = v;
            for (int players : counts)
                if (const auto r = evidence_games(variant, players, std::max<std::uint64_t>(1, sim_games_ / 10)); r && evidence_usable(*r)) {
                    engine::merge_coverage(run_elsewhere_, r->statements_run);
                    engine::merge_coverage(keys_read_elsewhere_, r->keys_read);
                    table_key_first_elsewhere_ = r->table_key_first;
                    for (const engine::sim_rule& x : r->rules)
                        if (x.fires > 0) fired_elsewhere_.insert(x.name);
                }
        }
    }
}

engine::sim_options checker::evidence_options(int players, std::uint64_t games, std::uint64_t seed) {
    engine::sim_options so;
    so.games = games;
    so.players = players;
    so.seed = seed;
    so.check_invariants = true;
    so.check_in_steps = true;
    so.max_decisions = 100000;
    so.coverage = true;
    return so;
}

std::optional<engine::sim_report> checker::evidence_games(const ir::ruleset& rs, int players, std::uint64_t games,
                                                          std::uint64_t seed,
                                                          std::optional<std::chrono::steady_clock::time_point> deadline) const {
    engine::sim_options so = evidence_options(players, games, seed);
    // the evidence play is part of the check's budget (--max-time)
    so.deadline = deadline ? deadline : budget_deadline();
    try {
        return engine::simulate(rs, so);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

bool checker::evidence_usable(const engine::sim_report& r) const {
    return std::all_of(r.broken_invariants.begin(), r.broken_invariants.end(),
                       [&](const engine::sim_invariant& b) { return opt_.unassumed_invariants.count(b.name) > 0; });
}

void checker::play_evidence() {
    if (sim_games_ == 0 || rs_.sequences.empty()) return;
    const int lo = static_cast<int>(std::max<std::int64_t>(1, rs_.min_players));
    // its share of the budget, from the check's start (the games met by then are evidence)
    std::optional<std::chrono::steady_clock::time_point> until;
    if (opt_.max_seconds > 0)
        until = started_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(opt_.max_seconds * check_options::evidence_share));
    for (int players = lo; players <= sym_.lay.players; ++players) {
        const std::optional<engine::sim_report> played = evidence_games(rs_, players, sim_games_, 1, until);
        if (!played) continue;
        note_broken_invariants(*played, players);
        if (evidence_usable(*played)) {
            const engine::sim_report& r = *played;
            for (const engine::sim_rule& x : r.rules)
                if (x.fires > 0) fired_.insert(x.name);
            for (const auto& [reason, n] : r.end_reasons)
                if (n > 0) ended_.insert(reason);
            engine::merge_coverage(statements_run_, r.statements_run);
            engine::merge_coverage(keys_read_, r.keys_read);
            table_key_first_ = r.table_key_first;
            played_ += r.games;
            for (const engine::sim_query& q : r.queries)
                if (q.first && !query_played_.count(q.name)) query_played_[q.name] = {players, *q.first};
            query_games_ += r.games;
            note_faults(r, players);
        }
    }
    // A query no game answered: nine times the games again, seeded apart, for a trace before the
    // proofs (a fixed number, so the report is the same on any machine). Only the queries read them.
    const bool open = std::any_of(rs_.rules.begin(), rs_.rules.end(), [&](const ir::rule& r) {
        return ir::is_query(r.kind) && r.value != ir::no_id && !query_played_.count(r.name);
    });
    if (!open || !wanted("queries")) return;
    for (int players = lo; players <= sym_.lay.players; ++players)
        if (const std::optional<engine::sim_report> more = evidence_games(rs_, players, 9 * sim_games_, 2, until); more && evidence_usable(*more)) {
            for (const engine::sim_query& q : more->queries)
                if (q.first && !query_played_.count(q.name)) query_played_[q.name] = {players, *q.first};
            query_games_ += more->games;
        }
}

void checker::note_broken_invariants(const engine::sim_report& r, int players) {
    for (const engine::sim_invariant& b : r.broken_invariants)
        if (!opt_.unassumed_invariants.count(b.name) && !played_violations_.count(b.name))
            played_violations_[b.name] = {players, b, r.games};
}

void checker::play_for_ways() {
    if (sim_games_ == 0 || sim_games_cap_ <= sim_games_ || rs_.sequences.empty() || played_ == 0) return;
    // the ways and assignments random play has not yet shown
    // (as branch_checks and effect_checks filter them: only what they would ask)
    std::set<id> ways, effects;
    for (const detail::branch_site& s : sym_.branch_sites) {
        if (ways.count(s.node) || started(statements_run_, s.node)) continue;
        const ir::node& bn = rs_.nodes.at(s.node);
        if (bn.code == ir::op::seq && bn.child_count == 0) continue;
        if (holds_block_or_end(s.node) || ends_lasting_event(s.branch) || played_under_other_options(s.node)) continue;
        ways.insert(s.node);
    }
    for (const detail::effect_site& s : sym_.effect_sites) {
        if (effects.count(s.node) || (s.node < statements_run_.size() && (statements_run_[s.node] & 2) != 0)) continue;
        if (!rs_.options.empty()) {
            if (!played_elsewhere_) play_other_options();
            if (s.node < run_elsewhere_.size() && (run_elsewhere_[s.node] & 2) != 0) continue;
        }
        effects.insert(s.node);
    }
    auto open = [&] {
        std::size_t n = 0;
        for (id w : ways) n += started(statements_run_, w) ? 0 : 1;
        for (id e : effects) n += e < statements_run_.size() && (statements_run_[e] & 2) != 0 ? 0 : 1;
        return n;
    };
    std::size_t left = open();
    if (left == 0) return;
    // at most a fifth of what is left of the budget
    std::optional<std::chrono::steady_clock::time_point> until = budget_deadline();
    if (until) until = std::chrono::steady_clock::now() + (*until - std::chrono::steady_clock::now()) / 5;
    const int lo = static_cast<int>(std::max<std::int64_t>(1, rs_.min_players));
    for (int players = lo; players <= sym_.lay.players && left > 0; ++players) {
        // the games after those play_evidence played (seed 1): games sim_games_, sim_games_ + 1, ...
        engine::sim_options so = evidence_options(players, sim_games_, 1);
        so.deadline = until;
        for (std::uint64_t first = sim_games_; first + sim_games_ <= sim_games_cap_; first += sim_games_) {
            if (until && std::chrono::steady_clock::now() > *until) return;
            engine::sim_part part;
            try {
                part = engine::simulate_range(rs_, so, first, sim_games_);
            } catch (const std::exception&) {
                break;  // the engine cannot set up the game at this many players
            }
            engine::sim_report batch = engine::summarise(rs_, so, part.outcomes, first);
            batch.games += first;  // "N of M games": M every game at this count (a fault or broken
                                   // invariant new here, none of the games before met)
            // games that broke an invariant the questions assume are no evidence for them; but
            // they are games from setup, and the broken invariant is a finding of its own
            // (played_invariant_findings, and the run again without it)
            if (!evidence_usable(batch)) {
                note_broken_invariants(batch, players);
                break;
            }
            // what they met gives the findings traces from setup (label_reach), as the first hundred's
            note_faults(batch, players);
            engine::merge_coverage(statements_run_, part.ran);
            played_ += static_cast<std::uint64_t>(std::count_if(part.outcomes.begin(), part.outcomes.end(),
                                                                [](const engine::sim_game& g) { return g.end_reason != "deadline"; }));
            const std::size_t now = open();
            if (debug_)
                std::fprintf(stderr, "play for ways: %d players, games %llu-%llu, %zu ways and effects not shown\n", players,
                             static_cast<unsigned long long>(first), static_cast<unsigned long long>(first + sim_games_ - 1), now);
            // a hundred games that showed nothing new: what is left is rare or dead, and asked
            if (now == left || now == 0) break;
            left = now;
        }
    }
}

std::string checker::game_trace(int players, const engine::sim_message& first) const {
    return detail::game_trace(rs_, players, first);
}

void checker::note_faults(const engine::sim_report& r, int players) { detail::note_faults(rs_, r, players, "", out_); }

bool checker::started(const std::vector<std::uint8_t>& ran, id n) const {
    while (n != ir::no_id && (rs_.nodes.at(n).code == ir::op::block || rs_.nodes.at(n).code == ir::op::seq)) {
        const ir::node& nd = rs_.nodes.at(n);
        if (nd.child_count == 0) return false;
        n = rs_.children.at(nd.first_child);
    }
    return n != ir::no_id && n < ran.size() && ran[n] != 0;
}

namespace {

bool read_in(const std::vector<std::uint8_t>& read, const std::vector<std::uint32_t>& first, id t, std::size_t i) {
    if (read.empty() || t + 1 >= first.size()) return false;
    const std::size_t k = first[t] + i;
    return k < first[t + 1] && k < read.size() && read[k] != 0;
}

}  // namespace

bool checker::played_key(id t, std::size_t i) const { return read_in(keys_read_, table_key_first_, t, i); }

bool checker::played_key_under_other_options(id t, std::size_t i) {
    if (rs_.options.empty()) return false;
    if (!played_elsewhere_) play_other_options();
    return read_in(keys_read_elsewhere_, table_key_first_elsewhere_, t, i);
}

namespace {
// for WP_CHECK_DEBUG's timings
double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

void checker::reach_checks() {
    std::map<id, std::vector<const detail::rule_site*>> by_rule;
    for (const detail::rule_site& s : sym_.rule_sites) by_rule[s.rule].push_back(&s);
    for (id g = 0; g < rs_.groups.size(); ++g) {
        const ir::rule_group& gr = rs_.groups.at(g);
        for (id r : gr.rules) {
            if (dead_.count(r)) continue;
            const ir::rule& rule = rs_.rules.at(r);
            auto it = by_rule.find(r);
            if (it == by_rule.end()) {
                // decisions and quantities may be consulted outside the sequence (the winner)
                if (gr.target == ir::target_kind::decision || gr.target == ir::target_kind::quantity) continue;
                // used, perhaps, only where an option closes the way (sym_.skipped_ways): asked
                // under the other options, where nothing is skipped
                if (!sym_.skipped_ways.empty()) {
                    const used_elsewhere u = rule_used_under_other_options(r);
                    if (u == used_elsewhere::applies) continue;
                    if (u == used_elsewhere::undecided) {
                        unknown("whether rule " + rule.name + " applies in play under other options", {rule_elem(r)},
                                severity::warning);
                        continue;
                    }
                    if (u == used_elsewhere::never_applies) {
                        finding& f = add("dead-rule", severity::warning, rule.name,
                                         "rule `" + rule.name + "` never applies in play: only ways an option closes use `" +
                                             target_name(gr) + "`, and under no option does its condition hold there");
                        f.elements.push_back(rule_elem(r));
                        f.proof = proof_kind::proved;
                        if (played_) f.replay = "confirmed: it did not fire in " + std::to_string(played_) + " random games either";
                        std::vector<const detail::rule_site*> firsts;
                        for (const detail::rule_site& s : free_->rule_sites)
                            if (s.rule == r && std::none_of(firsts.begin(), firsts.end(), [&](const auto* x) { return x->facts == s.facts; }))
                                firsts.push_back(&s);
                        because_at_sites(f, firsts, [&](const detail::site& s) {
                            const auto& rs = static_cast<const detail::rule_site&>(s);
                            return std::vector<std::pair<std::string, z3::expr>>{
                                {"the condition of `" + rule.name + "` (" + where(rule.prov) + ")", rs.extra && rs.applies}};
                        });
                        continue;
                    }
                }
                finding& f = add("dead-rule", severity::warning, rule.name,
                                 "rule `" + rule.name + "` is never used: nothing in the sequence of play uses `" +
                                     target_name(gr) + "`");
                f.elements.push_back(rule_elem(r));
                f.proof = proof_kind::proved;
                continue;
            }
            if (fired_.count(rule.name) || fired_under_other_options(rule.name)) continue;
            // one question per place and circumstances: the options considered there, together
            // in the order the sequence reaches them (not by address: reports must not vary)
            std::vector<std::pair<const detail::fact_node*, std::vector<const detail::rule_site*>>> places;
            for (const detail::rule_site* s : it->second) {
                auto at = std::find_if(places.begin(), places.end(), [&](const auto& x) { return x.first == s->facts.get(); });
                if (at == places.end()) places.push_back({s->facts.get(), {s}});
                else at->second.push_back(s);
            }
            if (debug_)
                std::fprintf(stderr, "reach: proving %s over %zu places\n", rule.name.c_str(), places.size());
            bool reached = false, undecided = false;
            std::vector<std::pair<const detail::rule_site*, z3::expr>> questions;
            for (const auto& [facts, sites] : places) {
                z3::expr_vector any(ctx_);
                for (const detail::rule_site* s : sites) any.push_back(s->extra && s->applies);
                questions.push_back({sites.front(), z3::mk_or(any)});
            }
            const z3::check_result a = first_sat_of(questions.size(), [&](std::size_t i) {
                return solve_local_first(questions[i].first->facts, questions[i].second);
            });
            reached = a == z3::sat;
            undecided = a == z3::unknown;
            if (reached) continue;
            if (undecided) {
                unknown("whether rule " + rule.name + " is ever reached", {rule_elem(r)}, severity::warning);
                continue;
            }
            // never under these options: under another value (a scenario's own rule) it is not dead
            const z3::check_result elsewhere = applies_in_play_under_other_options(r);
            if (elsewhere == z3::sat) continue;
            if (elsewhere == z3::unknown) {
                unknown("whether rule " + rule.name + " applies in play under other options", {rule_elem(r)}, severity::warning);
                continue;
            }
            finding& f = add("dead-rule", severity::warning, rule.name,
                             "rule `" + rule.name + "` never applies in play: wherever the sequence uses `" + target_name(gr) +
                                 "`, its condition is false");
            f.elements.push_back(rule_elem(r));
            f.proof = proof_kind::proved;
            if (played_) f.replay = "confirmed: it did not fire in " + std::to_string(played_) + " random games either";
            std::vector<const detail::rule_site*> firsts;
            std::map<const detail::site*, z3::expr> question_of;
            for (const auto& [s, q] : questions) {
                firsts.push_back(s);
                question_of.emplace(s, q);
            }
            because_at_sites(f, firsts, [&](const detail::site& s) {
                return std::vector<std::pair<std::string, z3::expr>>{
                    {"the condition of `" + rule.name + "` (" + where(rule.prov) + ")", question_of.at(&s)}};
            });
        }
    }
    // blocks
    std::map<id, std::vector<const detail::block_site*>> by_block;
    for (const detail::block_site& s : sym_.block_sites) by_block[s.block].push_back(&s);
    // a block only ways an option closes lead to: its sites with the options free, asked only
    // under the other options (under these, it is never met)
    std::set<id> elsewhere_only;
    for (id b = 0; b < rs_.blocks.size(); ++b)
        if (!by_block.count(b) && only_in_skipped_ways(rs_.blocks[b].node)) {
            if (!explore_free_options()) {
                const ir::block& bl = rs_.blocks[b];
                unknown("whether " + bl.word + " `" + bl.path + "` is reached under other options", {{"block", bl.path, bl.prov}},
                        severity::warning);
                continue;
            }
            for (const detail::block_site& s : free_->block_sites)
                if (s.block == b) by_block[b].push_back(&s);
            elsewhere_only.insert(b);
        }
    for (id b = 0; b < rs_.blocks.size(); ++b) {
        const ir::block& bl = rs_.blocks[b];
        auto it = by_block.find(b);
        if (it == by_block.end()) continue;  // in a procedure the sequence never calls
        // seen in play, under these options or (then it is no finding either way) others
        if (started(statements_run_, bl.node) || played_under_other_options(bl.node)) continue;
        const std::vector<const detail::block_site*>& places = it->second;
        const z3::check_result here = elsewhere_only.count(b) ? z3::unsat : any_place_sat(places.size(), [&](std::size_t i) {
            return solve_local_first(places[i]->facts, ctx_.bool_val(true));
        });
        if (here == z3::sat) continue;
        if (here == z3::unknown) {
            unknown("whether " + bl.word + " `" + bl.path + "` is ever reached", {{"block", bl.path, bl.prov}}, severity::warning);
            continue;
        }
        const z3::check_result elsewhere = reachable_under_other_options(it->second.front()->node);
        if (elsewhere == z3::unknown) {
            unknown("whether " + bl.word + " `" + bl.path + "` is reached under other options", {{"block", bl.path, bl.prov}},
                    severity::warning);
            continue;
        }
        if (elsewhere == z3::sat) continue;
        finding& f = add("unreachable", severity::warning, bl.path,
                         bl.word + " `" + bl.path + "` is never reached: the circumstances around it can never hold");
        f.elements.push_back({"block", bl.path, bl.prov});
        f.proof = proof_kind::proved;
        if (played_) f.replay = "confirmed: none of " + std::to_string(played_) + " random games reached it either";
        because_at_sites(f, it->second, [](const detail::site&) { return std::vector<std::pair<std::string, z3::expr>>{}; });
    }
    if (!no_branches_) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::uint64_t q0 = out_.stats[kind_].queries;
        play_for_ways();
        branch_checks();
        const auto t1 = std::chrono::steady_clock::now();
        const std::uint64_t q1 = out_.stats[kind_].queries;
        effect_checks();
        if (debug_)
            std::fprintf(stderr, "reach: dead branches %llu queries %.0f ms, no-op effects %llu queries %.0f ms\n",
                         static_cast<unsigned long long>(q1 - q0), ms_between(t0, t1),
                         static_cast<unsigned long long>(out_.stats[kind_].queries - q1), ms_between(t1, std::chrono::steady_clock::now()));
    }
    // game ends
    std::map<std::string, std::vector<const detail::end_site*>> by_reason;
    for (const detail::end_site& s : sym_.end_sites) by_reason[s.reason].push_back(&s);
    // a reason only ways an option closes lead to: its sites with the options free, asked only
    // under the other options
    // (and one that other `end game`s with its reason share: reached under other options there,
    // the reason is no finding)
    std::set<std::string> ends_elsewhere_only, ended_elsewhere;
    for (id n : sym_.skipped_blocks_and_ends) {
        const ir::node& nd = rs_.nodes.at(n);
        if (nd.code != ir::op::end_game) continue;
        if (std::any_of(sym_.end_sites.begin(), sym_.end_sites.end(), [&](const auto& x) { return x.node == n; })) continue;
        const std::string reason = nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs_.strings.size()
                                       ? rs_.strings[static_cast<std::size_t>(nd.value)]
                                       : std::to_string(nd.value);
        if (played_under_other_options(n)) {
            ended_elsewhere.insert(reason);
            continue;
        }
        const bool shared = by_reason.count(reason) > 0;
        if (!explore_free_options()) {
            unknown("whether the game can end with `" + reason + "` under other options",
                    {{"statement", "end game " + reason, statement_prov(n)}}, severity::warning);
            ended_elsewhere.insert(reason);  // asked no further: the unknown stands for it
            continue;
        }
        for (const detail::end_site& s : free_->end_sites)
            if (s.node == n) {
                by_reason[s.reason].push_back(&s);
                if (!shared) ends_elsewhere_only.insert(s.reason);
            }
    }
    for (const auto& [reason, sites] : by_reason) {
        if (ended_.count(reason) || ended_elsewhere.count(reason)) continue;
        if (std::any_of(sites.begin(), sites.end(), [&](const auto* s) { return played_under_other_options(s->node); })) continue;
        const std::vector<const detail::end_site*>& places = sites;  // a structured binding: no capture before C++20 in Clang 14
        const z3::check_result here = ends_elsewhere_only.count(reason) ? z3::unsat : any_place_sat(places.size(), [&](std::size_t i) {
            return solve_local_first(places[i]->facts, ctx_.bool_val(true));
        });
        if (here == z3::sat) continue;
        if (here == z3::unknown) {
            unknown("whether the game can end with `" + reason + "`",
                    {{"statement", "end game " + reason, statement_prov(sites.front()->node)}}, severity::warning);
            continue;
        }
        bool elsewhere = false, undecided = false;
        for (const auto* s : sites) {
            if (elsewhere) break;
            const z3::check_result a = reachable_under_other_options(s->node);
            elsewhere = a == z3::sat;
            undecided = undecided || a == z3::unknown;
        }
        if (elsewhere) continue;
        if (undecided) {
            unknown("whether the game can end with `" + reason + "` under other options",
                    {{"statement", "end game " + reason, statement_prov(sites.front()->node)}}, severity::warning);
            continue;
        }
        finding& f = add("unreachable", severity::warning, reason, "the game can never end with `" + reason + "`");
        for (const auto* s : sites) f.elements.push_back({"statement", "end game " + reason, statement_prov(s->node)});
        f.proof = proof_kind::proved;
        if (played_) f.replay = "confirmed: none of " + std::to_string(played_) + " random games ended so either";
        because_at_sites(f, sites, [](const detail::site&) { return std::vector<std::pair<std::string, z3::expr>>{}; });
    }
}

// A block or `end game` the exploration met only inside ways an option closes (never run there,
// so without a site), and random play under the other options never reached either.
bool checker::only_in_skipped_ways(id node) {
    if (!sym_.skipped_blocks_and_ends.count(node)) return false;
    const auto met = [&](const auto& sites) { return std::any_of(sites.begin(), sites.end(), [&](const auto& s) { return s.node == node; }); };
    if (met(sym_.block_sites) || met(sym_.end_sites)) return false;
    return !played_under_other_options(node);
}

bool checker::holds_block_or_end(id n) const {
    const ir::node& nd = rs_.nodes.at(n);
    if (nd.code == ir::op::block || nd.code == ir::op::end_game) return true;
    for (std::uint32_t i = 0; i < nd.child_count; ++i) {
        const id c = rs_.children.at(nd.first_child + i);
        if (c != ir::no_id && holds_block_or_end(c)) return true;
    }
    return false;
}

// The `if` the compiler puts after a phase or turn block to end the card events lasting it
// (`if flag { flag = false; }`, compiler/src/card_events.cpp): after most blocks no such event can
// be in force, and a dead-branch finding there would point at a statement no designer wrote.
bool checker::ends_lasting_event(id n) const {
    const ir::node& nd = rs_.nodes.at(n);
    if (nd.code != ir::op::if_ || nd.child_count < 2) return false;
    const ir::node& cond = rs_.nodes.at(rs_.children.at(nd.first_child));
    const id body = rs_.children.at(nd.first_child + 1);
    if (cond.code != ir::op::global || body == ir::no_id) return false;
    const ir::node& b = rs_.nodes.at(body);
    if (b.code != ir::op::seq || b.child_count != 1) return false;
    const ir::node& a = rs_.nodes.at(rs_.children.at(b.first_child));
    if (a.code != ir::op::assign) return false;
    const ir::node& target = rs_.nodes.at(rs_.children.at(a.first_child));
    if (target.code != ir::op::global || target.ref != cond.ref) return false;
    return std::any_of(rs_.card_events.begin(), rs_.card_events.end(), [&](const ir::card_event& ev) { return ev.flag == cond.ref; });
}

// Dead branches (issue 23): a way out of an `if` or a `may` that no state where the statement
// is met can take, under these options or any other. One question per way and place, asked only
// for what random play never ran; a way whose statement itself is never met is left to what
// encloses it (a dead rule, an unreachable block, an outer dead branch), so one cause is one finding.
void checker::branch_checks() {
    // the ways in the order the sequence meets them (not by address: reports must not vary)
    std::vector<std::pair<std::pair<id, bool>, std::vector<const detail::branch_site*>>> ways;
    for (const detail::branch_site& s : sym_.branch_sites) {
        const std::pair<id, bool> key{s.branch, s.taken};
        auto at = std::find_if(ways.begin(), ways.end(), [&](const auto& w) { return w.first == key; });
        if (at == ways.end()) at = ways.insert(ways.end(), {key, {}});
        at->second.push_back(&s);
    }
    auto any_sat = [&](const std::vector<const detail::branch_site*>& sites, bool before) {
        return first_sat_of(sites.size(), [&](std::size_t i) {
            return solve_local_first(before ? sites[i]->before : sites[i]->facts, ctx_.bool_val(true));
        });
    };
    for (const auto& [key, sites] : ways) {
        const auto [n, taken] = key;
        const id body = sites.front()->node;
        const ir::node& bn = rs_.nodes.at(body);
        if (bn.code == ir::op::seq && bn.child_count == 0) continue;  // an empty branch does nothing to miss
        if (started(statements_run_, body) || played_under_other_options(body)) continue;
        if (holds_block_or_end(body)) continue;  // the unreachable check names that phase, step or end
        if (ends_lasting_event(n)) continue;     // the compiler's, not the designer's: nothing to fix
        const bool is_may = rs_.nodes.at(n).code == ir::op::may;
        const std::string way = is_may ? "the option offered at " + sym_.node_position(n) + " can be taken"
                                       : "the `if` at " + sym_.node_position(n) + (taken ? " can hold" : " can fail");
        const std::vector<involved> elems{{"statement", is_may ? "may" : "if", statement_prov(n)}};
        const auto t0 = std::chrono::steady_clock::now();
        const z3::check_result here = any_sat(sites, false);
        if (debug_)
            std::fprintf(stderr, "  branch %s %s: %zu sites, %s, %.0f ms\n", sym_.node_position(n).c_str(),
                         taken ? "taken" : "not taken", sites.size(), here == z3::sat ? "sat" : here == z3::unsat ? "unsat" : "unknown",
                         ms_between(t0, std::chrono::steady_clock::now()));
        if (here == z3::sat) continue;
        const asked_finding asked{"dead-branch", owner_of(n), ""};
        if (here == z3::unknown) {
            unknown("whether " + way, elems, severity::warning, asked);
            continue;
        }
        const z3::check_result met = any_sat(sites, true);
        if (met == z3::unsat) continue;  // what encloses it is never reached
        if (met == z3::unknown) {
            unknown("whether " + way, elems, severity::warning, asked);
            continue;
        }
        const z3::check_result elsewhere = branch_taken_under_other_options(n, taken);
        if (elsewhere == z3::sat) continue;
        if (elsewhere == z3::unknown) {
            unknown("whether " + way + " under other options", elems, severity::warning, asked);
            continue;
        }
        const std::string message = is_may ? "this option can never be taken: what it does is never possible where it is offered"
                                    : taken ? "this `if` never holds where the sequence meets it: what it guards never runs"
                                            : "this `if` always holds where the sequence meets it: its `else` never runs";
        finding& f = add("dead-branch", severity::warning, owner_of(n), message);
        f.elements = elems;
        f.proof = proof_kind::proved;
        if (played_) f.replay = "confirmed: none of " + std::to_string(played_) + " random games took it either";
        because_at_sites(f, sites, [](const detail::site&) { return std::vector<std::pair<std::string, z3::expr>>{}; });
    }
}

// No-op effects (issue 23): an assignment that, wherever play runs it, writes the value already
// there (a flag set where it is always set, a change a clamp always absorbs), under these options
// or any other. An assignment some random game saw change its value is never asked; one never
// run is left to what encloses it, as for dead branches. Setups are not asked (explore_statements.cpp).
void checker::effect_checks() {
    std::vector<std::pair<id, std::vector<const detail::effect_site*>>> effects;  // in the order met
    for (const detail::effect_site& s : sym_.effect_sites) {
        auto at = std::find_if(effects.begin(), effects.end(), [&](const auto& x) { return x.first == s.node; });
        if (at == effects.end()) at = effects.insert(effects.end(), {s.node, {}});
        at->second.push_back(&s);
    }
    auto changed_in_play = [](const std::vector<std::uint8_t>& ran, id n) { return n < ran.size() && (ran[n] & 2) != 0; };
    for (const auto& [n, sites] : effects) {
        if (changed_in_play(statements_run_, n)) continue;
        // a change seen in a game under other options already rules the finding out (it asks for no
        // change under any options): those games are played for the dead branches anyway
        if (!rs_.options.empty()) {
            if (!played_elsewhere_) play_other_options();
            if (changed_in_play(run_elsewhere_, n)) continue;
        }
        const std::string field = rs_.slots.at(sites.front()->slot).name;
        const std::vector<involved> elems{{"statement", "assignment to " + field, statement_prov(n)}};
        const auto t0 = std::chrono::steady_clock::now();
        std::size_t asked = 0;
        const std::vector<const detail::effect_site*>& places = sites;  // a structured binding: no capture before C++20 in Clang 14
        const z3::check_result c = first_sat_of(places.size(), [&](std::size_t i) {
            ++asked;
            return solve_local_first(places[i]->facts, places[i]->changes);
        });
        const bool changes = c == z3::sat, undecided = c == z3::unknown;
        if (debug_)
            std::fprintf(stderr, "  effect %s at %s: %zu of %zu sites, %s, %.0f ms\n", field.c_str(), sym_.node_position(n).c_str(),
                         asked, sites.size(), changes ? "changes" : undecided ? "undecided" : "never",
                         ms_between(t0, std::chrono::steady_clock::now()));
        if (changes) continue;
        if (undecided) {
            unknown("whether the assignment to " + field + " at " + sym_.node_position(n) + " ever changes it", elems,
                    severity::warning, {"no-op", field, ""});
            continue;
        }
        const z3::check_result met =
            any_place_sat(places.size(), [&](std::size_t i) { return solve_local_first(places[i]->facts, ctx_.bool_val(true)); });
        if (met != z3::sat) {
            if (met == z3::unknown) unknown("whether the assignment to " + field + " at " + sym_.node_position(n) + " is ever run", elems,
                                   severity::warning);
            continue;
        }
        if (!rs_.options.empty()) {
            if (!explore_free_options()) {
                unknown("whether the assignment to " + field + " at " + sym_.node_position(n) + " changes it under other options",
                        elems, severity::warning, {"no-op", field, ""});
                continue;
            }
            const free_options_question named(*this);
            std::vector<const detail::effect_site*> at;
            for (const detail::effect_site& s : free_->effect_sites)
                if (s.node == n) at.push_back(&s);
            const z3::check_result elsewhere =
                any_place_sat(at.size(), [&](std::size_t i) { return solve_local_first(at[i]->facts, at[i]->changes); });
            if (elsewhere == z3::sat) continue;
            if (elsewhere == z3::unknown) {
                unknown("whether the assignment to " + field + " at " + sym_.node_position(n) + " changes it under other options",
                        elems, severity::warning, {"no-op", field, ""});
                continue;
            }
        }
        finding& f = add("no-op", severity::warning, field,
                         "this never changes `" + field + "`: wherever play runs it, the value it writes is the value already there");
        f.elements = elems;
        f.elements.push_back({"field", field, rs_.slots.at(sites.front()->slot).prov});
        f.proof = proof_kind::proved;
        if (played_) f.replay = "confirmed: it changed nothing in " + std::to_string(played_) + " random games either";
        std::map<const detail::site*, z3::expr> changes_at;
        for (const detail::effect_site* s : sites) changes_at.emplace(s, s->changes);
        because_at_sites(f, sites, [&](const detail::site& s) {
            return std::vector<std::pair<std::string, z3::expr>>{{"`" + field + "` takes a new value there", changes_at.at(&s)}};
        });
    }
}

}  // namespace wp::verify
