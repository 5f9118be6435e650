// Simulation: many seeded games on several threads, merged in game order.
#include "westphalia/engine/sim.hpp"
#include "westphalia/engine/search_agents.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <thread>

namespace wp::engine {

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index) {
    rng r{seed + index * 0x9E3779B97F4A7C15ull};
    return r.next();
}

namespace {

// What one game leaves for the report (fire counts are summed per thread: integer sums do not
// depend on the order).
using game_outcome = sim_game;

struct thread_totals {
    std::vector<std::uint64_t> fires;
    std::vector<std::uint64_t> games;
    std::vector<std::uint8_t> ran, keys;  // sim_options::coverage: merged over the games
};

// The queries this state answers for the first time in the game, with the decisions made.
void note_queries(const state& s, std::size_t queries, std::vector<std::pair<std::uint32_t, std::uint64_t>>& seen) {
    if (seen.size() >= queries) return;  // every one answered in this game
    std::uint64_t answered = 0;  // not evaluated again in this game
    for (const auto& h : seen)
        if (h.first < 64) answered |= 1ull << h.first;
    for (const std::uint32_t k : s.query_hits(answered))
        if (std::none_of(seen.begin(), seen.end(), [&](const auto& h) { return h.first == k; })) seen.emplace_back(k, s.decisions());
}

// The same game as play_game(rs, players, seed, {agent}, options), on a shared `game`.
game_outcome play_one(const game& g, std::uint64_t seed, const std::vector<std::unique_ptr<agent>>& agents,
                      const sim_options& o, thread_totals& totals) {
    game_outcome out;
    const auto queries = static_cast<std::size_t>(std::count_if(g.ruleset().rules.begin(), g.ruleset().rules.end(), [](const ir::rule& r) {
        return ir::is_query(r.kind) && r.value != ir::no_id;
    }));
    const bool has_queries = queries > 0;
    std::vector<std::uint64_t> fires;
    std::unique_ptr<state> sp;
    // A game the rules stop before its first decision (in the state's constructor without
    // deferred_start) leaves no firings, as the compiled engine's (codegen/src/driver.hpp); what
    // it met (faults passed, coverage) is kept for the checker.
    bool started = false;
    try {
        state_options so;
        so.sampled_chance = true;
        so.track_changes = o.check_invariants;
        so.check_in_steps = o.check_invariants && o.check_in_steps;
        so.deadline = o.deadline;
        so.track_coverage = o.coverage;
        so.deferred_start = true;  // a game the rules stop before its first decision keeps what it met
        rng agent_rng{seed ^ 0xA5A5A5A5DEADBEEFull};
        sp = std::make_unique<state>(g, seed, so);
        state& s = *sp;
        s.start();
        started = true;
        while (!s.is_terminal()) {
            if (s.is_chance_node()) {
                s.apply_sampled();
                continue;
            }
            if (s.decisions() >= o.max_decisions) break;
            if (o.deadline && (s.decisions() & 255) == 0 && std::chrono::steady_clock::now() > *o.deadline) {
                out.end_reason = "deadline";
                break;
            }
            const int seat = s.current_player();
            s.apply(agents[static_cast<std::size_t>(seat) % agents.size()]->act(seat_view(s, seat), agent_rng));
            if (o.check_invariants) {
                note_invariant_violations(s, out.violations);
                if (has_queries) note_queries(s, queries, out.query_hits);
            }
        }
        if (o.check_invariants) {
            note_invariant_violations(s, out.violations);
            if (has_queries) note_queries(s, queries, out.query_hits);
        }
        out.end_reason = s.is_terminal() ? s.end_reason() : out.end_reason == "deadline" ? "deadline" : "decision limit";
        out.decisions = s.decisions();
        fires = s.rule_fires();
        if (s.is_terminal()) out.winners = s.winners(&fires);
    } catch (const std::exception& e) {
        out.error = e.what();
        if (const auto* fault = dynamic_cast<const engine_error*>(&e)) out.fault = fault->fault;
        if (started) {
            out.decisions = sp->decisions();
            fires = sp->rule_fires();
            if (o.check_invariants) note_invariant_violations(*sp, out.violations, true);  // the state may be half-changed
        }
    }
    if (sp) {
        out.faults_passed = sp->faults_passed();
        merge_coverage(totals.ran, sp->statements_run());
        merge_coverage(totals.keys, sp->keys_read());
    }
    for (std::size_t r = 0; r < fires.size() && r < totals.fires.size(); ++r) {
        totals.fires[r] += fires[r];
        if (fires[r] > 0) ++totals.games[r];
    }
    return out;
}

}  // namespace

void merge_coverage(std::vector<std::uint8_t>& into, const std::vector<std::uint8_t>& from) {
    if (into.size() < from.size()) into.resize(from.size(), 0);
    for (std::size_t i = 0; i < from.size(); ++i) into[i] |= from[i];
}

namespace {

// Plays the games of these indices (ascending) as one part.
sim_part play_indices(const ir::ruleset& rs, const sim_options& o, std::vector<std::uint64_t> indices) {
    const game g(rs, o.players, o.options);  // throws on an unknown option
    sim_part part;
    part.indices = std::move(indices);
    const std::uint64_t n = part.indices.size();
    const std::size_t rule_count = rs.rules.size();
    const unsigned threads = static_cast<unsigned>(
        std::max<std::uint64_t>(1, std::min<std::uint64_t>(o.threads == 0 ? 1 : o.threads, std::max<std::uint64_t>(n, 1))));

    std::vector<std::string> seat_names(static_cast<std::size_t>(std::max(o.players, 1)), o.agent);
    for (std::size_t p = 0; p < o.seat_agents.size() && p < seat_names.size(); ++p)
        if (!o.seat_agents[p].empty()) seat_names[p] = o.seat_agents[p];
    for (const std::string& name : seat_names) make_agent(name);  // a bad name throws here, not on a worker
    part.outcomes.resize(n);
    std::vector<thread_totals> totals(threads, thread_totals{std::vector<std::uint64_t>(rule_count, 0),
                                                             std::vector<std::uint64_t>(rule_count, 0), {}, {}});
    std::atomic<std::uint64_t> next{0};
    std::atomic<std::uint64_t> done{0};
    auto work = [&](unsigned t) {
        std::vector<std::unique_ptr<agent>> agents;
        for (const std::string& name : seat_names) agents.push_back(make_agent(name));
        for (std::uint64_t k = next++; k < n; k = next++) {
            if (o.deadline && std::chrono::steady_clock::now() > *o.deadline)
                part.outcomes[k].end_reason = "deadline";  // not played
            else
                part.outcomes[k] = play_one(g, game_seed(o.seed, part.indices[k]), agents, o, totals[t]);
            ++done;
        }
    };
    std::vector<std::thread> pool;
    if (o.progress) {
        // Every game on the workers; the calling thread reports progress.
        for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
        while (done.load() < n) {
            o.progress(done.load(), n);
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    } else {
        for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
        work(0);
    }
    for (std::thread& t : pool) t.join();
    if (o.progress) o.progress(n, n);
    part.fires.assign(rule_count, 0);
    part.fired_games.assign(rule_count, 0);
    for (const thread_totals& t : totals) {
        for (std::size_t k = 0; k < rule_count; ++k) {
            part.fires[k] += t.fires[k];
            part.fired_games[k] += t.games[k];
        }
        merge_coverage(part.ran, t.ran);
        merge_coverage(part.keys, t.keys);
    }
    if (o.coverage) part.table_key_first = g.table_key_first;
    return part;
}

}  // namespace

sim_part simulate_part(const ir::ruleset& rs, const sim_options& o, std::uint64_t rank, std::uint64_t ranks) {
    ranks = std::max<std::uint64_t>(ranks, 1);
    std::vector<std::uint64_t> indices;
    for (std::uint64_t i = rank; i < o.games; i += ranks) indices.push_back(i);
    return play_indices(rs, o, std::move(indices));
}

sim_part simulate_range(const ir::ruleset& rs, const sim_options& o, std::uint64_t first, std::uint64_t count) {
    std::vector<std::uint64_t> indices;
    indices.reserve(count);
    for (std::uint64_t i = first; i < first + count; ++i) indices.push_back(i);
    return play_indices(rs, o, std::move(indices));
}

sim_report merge_parts(const ir::ruleset& rs, const sim_options& o, std::vector<sim_part> parts) {
    // Every game's outcome in game order, whichever part played it: the report is the same for
    // any split (integer sums; the means summed in game order by summarise).
    std::vector<game_outcome> outcomes(o.games);
    const std::size_t rule_count = rs.rules.size();
    std::vector<std::uint64_t> fires(rule_count, 0), fired_games(rule_count, 0);
    std::vector<std::uint8_t> ran, keys;
    std::vector<std::uint32_t> table_key_first;
    for (sim_part& p : parts) {
        if (table_key_first.empty()) table_key_first = p.table_key_first;
        for (std::size_t k = 0; k < p.indices.size() && k < p.outcomes.size(); ++k)
            if (p.indices[k] < outcomes.size()) outcomes[p.indices[k]] = std::move(p.outcomes[k]);
        for (std::size_t k = 0; k < rule_count && k < p.fires.size() && k < p.fired_games.size(); ++k) {
            fires[k] += p.fires[k];
            fired_games[k] += p.fired_games[k];
        }
        merge_coverage(ran, p.ran);
        merge_coverage(keys, p.keys);
    }
    sim_report r = summarise(rs, o, outcomes);
    if (o.keep_outcomes) r.outcomes = std::move(outcomes);
    for (std::size_t k = 0; k < rule_count; ++k) {
        const ir::rule& rule = rs.rules[k];
        if (!ir::plays(rule.kind)) continue;
        sim_rule sr{rule.name, ir::name_of(rule.kind), fires[k], fired_games[k]};
        if (sr.fires == 0) r.never_fired.push_back(sr.name);
        r.rules.push_back(std::move(sr));
    }
    if (o.coverage) {
        r.statements_run = std::move(ran);
        r.keys_read = std::move(keys);
        r.table_key_first = std::move(table_key_first);
    }
    return r;
}

sim_report simulate(const ir::ruleset& rs, const sim_options& o) {
    std::vector<sim_part> parts;
    parts.push_back(simulate_part(rs, o, 0, 1));
    return merge_parts(rs, o, std::move(parts));
}

std::string agents_text(const sim_options& o) {
    bool same = true;
    for (const std::string& a : o.seat_agents) same = same && (a.empty() || a == o.agent);
    if (same) return o.agent;
    std::string text;
    for (int p = 0; p < o.players; ++p) {
        const auto i = static_cast<std::size_t>(p);
        text += (p ? ", P" : "P") + std::to_string(p + 1) + " " +
                (i < o.seat_agents.size() && !o.seat_agents[i].empty() ? o.seat_agents[i] : o.agent);
    }
    return text;
}

namespace {

// Counts a game that met fault f, first met in `first` when no game before met it.
void note_fault(sim_report& r, const engine_fault& f, const sim_message& first, const std::string& message = "") {
    auto at = std::find_if(r.faults.begin(), r.faults.end(), [&](const sim_fault& x) {
        return x.fault.kind == f.kind && x.fault.subject == f.subject && x.fault.side == f.side && x.fault.node == f.node;
    });
    if (at == r.faults.end()) at = r.faults.insert(r.faults.end(), {f, 0, first, message});
    ++at->games;
}

}  // namespace

sim_report summarise(const ir::ruleset& rs, const sim_options& o, const std::vector<sim_game>& outcomes, std::uint64_t first) {
    const std::uint64_t n = outcomes.size();
    // outcomes[i] is game first + i, with that game's own seed
    auto message = [&](std::uint64_t i, std::string text) { return sim_message{first + i, game_seed(o.seed, first + i), std::move(text)}; };
    sim_report r;
    r.ruleset = rs.name;
    r.with = ir::expansions_applied(rs);
    r.players = o.players;
    r.seed = o.seed;
    r.agent = agents_text(o);
    r.invariants_checked = o.check_invariants;
    r.games = n;
    r.wins.assign(static_cast<std::size_t>(std::max(o.players, 0)), 0.0);
    std::vector<std::uint64_t> lengths;
    lengths.reserve(n);
    double length_sum = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const game_outcome& go = outcomes[i];
        for (const std::string& v : go.violations) {
            ++r.invariant_violations;
            const sim_message m = message(i, v);
            if (r.first_violations.size() < o.max_messages) r.first_violations.push_back(m);
            const std::string name = v.substr(0, v.find(' '));  // a violation's text starts with its invariant's name
            auto it = std::find_if(r.broken_invariants.begin(), r.broken_invariants.end(), [&](const sim_invariant& b) { return b.name == name; });
            if (it == r.broken_invariants.end()) it = r.broken_invariants.insert(it, {name, 0, m});
            ++it->games;
        }
        for (const auto& [f, decisions] : go.faults_passed) note_fault(r, f, message(i, "after decision " + std::to_string(decisions)));
        if (!go.error.empty()) {
            ++r.engine_errors;
            ++r.end_reasons["engine error"];
            if (r.first_errors.size() < o.max_messages) r.first_errors.push_back(message(i, go.error));
            if (!go.fault.kind.empty())
                note_fault(r, go.fault, message(i, "after decision " + std::to_string(go.decisions)), go.error);
            continue;
        }
        ++r.finished;
        ++r.end_reasons[go.end_reason];
        lengths.push_back(go.decisions);
        length_sum += static_cast<double>(go.decisions);
        if (go.winners.empty()) {
            ++r.games_without_winner;
        } else {
            const double share = 1.0 / static_cast<double>(go.winners.size());
            for (int w : go.winners)
                if (w >= 0 && static_cast<std::size_t>(w) < r.wins.size()) r.wins[static_cast<std::size_t>(w)] += share;
        }
    }
    // the designer's queries, counted where the invariants are checked (after every decision, at the end)
    if (o.check_invariants) {
        for (const ir::rule& rule : rs.rules)
            if (ir::is_query(rule.kind) && rule.value != ir::no_id) r.queries.push_back({rule.name, ir::query_words(rule.kind), 0, std::nullopt});
        for (std::uint64_t i = 0; i < n; ++i)
            for (const auto& [k, d] : outcomes[i].query_hits) {
                if (k >= r.queries.size()) continue;
                sim_query& q = r.queries[k];
                ++q.games;
                if (!q.first) q.first = message(i, "after decision " + std::to_string(d));
            }
    }
    for (double w : r.wins)
        r.win_intervals.push_back(wilson(w, static_cast<double>(r.finished), 0.05 / static_cast<double>(r.wins.size())));
    if (!lengths.empty()) {
        r.mean_decisions = length_sum / static_cast<double>(lengths.size());
        std::sort(lengths.begin(), lengths.end());
        r.min_decisions = lengths.front();
        r.max_decisions = lengths.back();
        for (int p : {5, 25, 50, 75, 95}) {
            // Nearest rank: the smallest length with at least p% of the games at or below it.
            const std::size_t m = lengths.size();
            std::size_t rank = (static_cast<std::size_t>(p) * m + 99) / 100;
            rank = std::clamp<std::size_t>(rank, 1, m);
            r.decision_percentiles[p] = lengths[rank - 1];
        }
    }
    return r;
}

}  // namespace wp::engine
