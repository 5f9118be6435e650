// The checker: its run over the stages, the solver's limits and budget, and the findings it adds.
#include "checker.hpp"

namespace wp::verify {

std::string anchors_text(const ir::provenance& p) {
    std::string s;
    for (const ir::anchor& a : p.anchors) s += (s.empty() ? "§" : " §") + a.first + (a.last.empty() ? "" : "-" + a.last);
    return s;
}

void checker::run() {
    // reach needs the decisions' verdicts (a rule impossible in the domain is not asked again)
    const bool decisions = wanted("decisions") || wanted("reach");
    // the games' faults give the findings of the bounds and choices their traces from setup
    // and an invariant a game breaks is a finding of its own (played_invariant_findings)
    if (opt_.play_evidence && (decisions || wanted("tables") || wanted("queries") || wanted("bounds") || wanted("choices") || wanted("invariants")))
        timed("play", [&] { play_evidence(); });
    if (decisions) timed("decisions", [&] { domain_checks(); });
    // a query a game from setup answered needs no place of the exploration
    for (id r = 0; r < rs_.rules.size(); ++r)
        if (ir::is_query(rs_.rules[r].kind) && query_played_.count(rs_.rules[r].name)) sym_.queries_played.insert(r);
    const bool sequence =
        wanted("tables") || wanted("bounds") || wanted("choices") || wanted("reach") || wanted("invariants") || wanted("queries");
    timed("explore", [&] {
        if (sequence) {
            sym_.deadline = budget_deadline();
            sym_.explore();
            sym_.deadline.reset();
            sequence_stopped_ = sym_.stopped;
            sym_.stopped = false;
        }
        if (sequence_stopped_) {
            out_.out_of_time = true;
            unknown("the checks over the sequence of play (tables, bounds, choices, reach, invariants, queries): its symbolic execution did not finish", {});
        }
        if (wanted("examples")) sym_.run_examples();
    });
    if (debug_) {
        std::size_t longest = 0;
        for (const auto& s : sym_.rule_sites) {
            std::size_t n = 0;
            for (const detail::fact_node* f = s.facts.get(); f; f = f->prev.get()) ++n;
            longest = std::max(longest, n);
        }
        std::fprintf(stderr, "explore: %zu rule sites, %zu table, %zu bound, %zu choice, %zu block, %zu end; %zu variables; longest path %zu facts; %zu values kept at phase starts; %.0f ms\n",
                     sym_.rule_sites.size(), sym_.table_sites.size(), sym_.bound_sites.size(), sym_.choice_sites.size(),
                     sym_.block_sites.size(), sym_.end_sites.size(), sym_.variables.size(), longest, sym_.kept_at_starts,
                     out_.stats["explore"].milliseconds);
    }
    index_.clear();
    for (std::size_t i = 0; i < sym_.variables.size(); ++i) index_[sym_.variables[i].var.id()] = i;
    // The cheap checks first, so that a time budget (--max-time) is spent on them before
    // the reachability proofs, which take most of it; the report keeps the order below.
    if (wanted("examples")) timed("examples", [&] { example_checks(); });
    // A sequence not run to its end leaves uses unseen: nothing is concluded from it.
    if (wanted("tables")) timed("tables", [&] {
        printing_checks();
        if (!sequence_stopped_) table_checks();
    });
    if (wanted("bounds") && !sequence_stopped_) timed("bounds", [&] { bound_checks(); });
    if (wanted("choices") && !sequence_stopped_) timed("choices", [&] {
        choice_checks();
        obligation_checks();
    });
    if (wanted("reach") && !sequence_stopped_) timed("reach", [&] { reach_checks(); });
    if (wanted("invariants") && !sequence_stopped_) timed("invariants", [&] { invariant_checks(); });
    if (!played_violations_.empty()) {
        kind_ = "invariants";  // listed with the invariants' findings
        played_invariant_findings();
    }
    const bool has_queries = std::any_of(rs_.rules.begin(), rs_.rules.end(), [](const ir::rule& r) { return ir::is_query(r.kind); });
    if (wanted("queries") && has_queries) timed("queries", [&] { query_checks(); });
    for (auto& [i, replay] : replays_) out_.findings.at(i).replay = replay();
    replays_.clear();
    // the report's order of the stages (the checks run in another order, see above)
    static const std::vector<std::string> report_order{"decisions", "explore", "reach",      "tables",
                                                       "bounds",    "choices", "examples", "invariants", "queries"};
    for (const std::string& k : stage_of_)
        ranks_.push_back(static_cast<std::size_t>(std::find(report_order.begin(), report_order.end(), k) - report_order.begin()));
    for (const std::string& a : sym_.approximations) out_.approximations.push_back(a);
    const bool explored =
        wanted("tables") || wanted("bounds") || wanted("choices") || wanted("reach") || wanted("invariants") || wanted("queries");
    if (explored && !opt_.prove_invariants && std::any_of(rs_.rules.begin(), rs_.rules.end(), [&](const ir::rule& r) {
            return r.kind == ir::rule_kind::invariant && !opt_.unassumed_invariants.count(r.name);
        }))
        out_.approximations.push_back("the invariants, checked from setup and assumed after it (`--checks invariants` proves them by induction)");
    out_.encoder["cut"] = sym_.cuts;
    out_.encoder["shared"] = sym_.memo_hits;
    out_.encoder["cached"] = sym_.memo_misses;
    out_.encoder["variables"] = sym_.variables.size();
    out_.encoder["forgets"] = sym_.forgets;
    out_.encoder["forgotten values"] = sym_.forgotten;
    if (!sym_.searches.empty()) {
        out_.encoder["map searches"] = sym_.searches.size();
        out_.encoder["search lemmas"] = search_lemmas_;
    }
}

int checker::players_for(const ir::ruleset& rs, const check_options& opt) {
    int most = rs.max_players > 0 ? static_cast<int>(rs.max_players) : 4;
    if (opt.max_players > 0) most = std::min(most, opt.max_players);
    else most = std::min(most, 6);
    return std::max(most, static_cast<int>(std::max<std::int64_t>(1, rs.min_players)));
}

void checker::timed(const std::string& kind, const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    if (opt_.progress) opt_.progress(kind);
    kind_ = kind;
    f();
    out_.stats[kind].milliseconds +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (debug_) {
        std::fprintf(stderr, "%s: %llu queries, %.0f ms (%.0f ms in the solver)\n", kind.c_str(),
                     static_cast<unsigned long long>(out_.stats[kind].queries), out_.stats[kind].milliseconds, solver_ms_);
        for (const auto& [k, v] : by_purpose_) std::fprintf(stderr, "  %-20s %5zu queries %8.0f ms\n", k.c_str(), v.first, v.second);
    }
    solver_ms_ = 0;
    by_purpose_.clear();
}

void checker::dump(z3::solver& s) {
    if (opt_.dump_smt_dir.empty()) return;
    std::filesystem::create_directories(opt_.dump_smt_dir);
    char name[64];
    std::snprintf(name, sizeof name, "%05zu-%s.smt2", ++dumped_, kind_.c_str());
    std::ofstream(std::filesystem::path(opt_.dump_smt_dir) / name) << s.to_smt2();
    if (dumped_ == 1) {  // what the store's variables stand for: `v63#…` is value 63's
        std::ofstream names(std::filesystem::path(opt_.dump_smt_dir) / "values.txt");
        for (std::size_t i = 0; i < sym_.value_names.size(); ++i) names << 'v' << i << ' ' << sym_.value_names[i] << '\n';
    }
    // WP_CHECK_DEBUG names each file where it is written, among the questions' own lines
    if (debug_) std::fprintf(stderr, "  dumped %s\n", name);
}

double checker::budget_left_ms() const {
    if (opt_.max_seconds <= 0) return std::numeric_limits<double>::infinity();
    return opt_.max_seconds * 1000.0 -
           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
}

std::optional<std::chrono::steady_clock::time_point> checker::budget_deadline() const {
    if (opt_.max_seconds <= 0) return std::nullopt;
    return started_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(opt_.max_seconds));
}

bool checker::spent() {
    if (budget_left_ms() >= 1.0) return false;
    out_.out_of_time = true;
    ++out_.stats[kind_].skipped;
    return true;
}

void checker::configure(z3::solver& s) {
    if (players_pin_) s.add(*players_pin_);
    unsigned limit = rlimit_;
    if (rlimit_cap_) limit = limit ? std::min(limit, rlimit_cap_) : rlimit_cap_;
    if (!limit) return;
    z3::params p(ctx_);
    p.set("rlimit", limit);
    s.set(p);
}

void checker::limit(z3::solver& s, unsigned cap) {
    z3::params p(ctx_);
    p.set("rlimit", capped_rlimit(cap));
    s.set(p);
}

z3::check_result checker::first_sat_of(std::size_t n, const std::function<z3::check_result(std::size_t)>& ask_at,
                                       bool stop_when_undecided) {
    // Past the budget, the places left are not asked (one question counted not asked, not one
    // per place: SPI's report once counted 538,554).
    std::vector<std::size_t> hard;
    if (n > 1 && (!rlimit_ || rlimit_ > round_rlimit)) {
        rlimit_cap_ = round_rlimit;
        for (std::size_t i = 0; i < n; ++i) {
            if (spent()) {
                rlimit_cap_ = 0;
                return z3::unknown;
            }
            const z3::check_result a = ask_at(i);
            if (a == z3::sat) {
                rlimit_cap_ = 0;
                return z3::sat;
            }
            if (a == z3::unknown) hard.push_back(i);
        }
        rlimit_cap_ = 0;
    } else {
        for (std::size_t i = 0; i < n; ++i) hard.push_back(i);
    }
    bool undecided = false;
    for (std::size_t i : hard) {
        if (spent()) return z3::unknown;
        const z3::check_result a = ask_at(i);
        if (a == z3::sat) return z3::sat;
        if (a == z3::unknown && stop_when_undecided) return z3::unknown;
        undecided = undecided || a == z3::unknown;
    }
    return undecided ? z3::unknown : z3::unsat;
}

z3::check_result checker::any_place_sat(std::size_t n, const std::function<z3::check_result(std::size_t)>& ask_at) {
    bool undecided = false;
    for (std::size_t i = 0; i < n; ++i) {
        if (spent()) return z3::unknown;
        const z3::check_result a = ask_at(i);
        if (a == z3::sat) return z3::sat;
        undecided = undecided || a == z3::unknown;
    }
    return undecided ? z3::unknown : z3::unsat;
}

z3::solver checker::one_shot_solver() {
    z3::solver s = detail::one_shot_solver(ctx_, name_subterms_);
    configure(s);
    return s;
}

involved checker::rule_elem(id r) const {
    const ir::rule& rule = rs_.rules.at(r);
    return {"rule", rule.name, rule.prov};
}

std::string checker::where(const ir::provenance& p) const {
    std::string s = sym_.position(p.where);
    const std::string a = anchors_text(p);
    return a.empty() ? s : s + " " + a;
}

finding& checker::add(const std::string& kind, severity level, const std::string& subject, const std::string& message) {
    finding f;
    f.kind = kind;
    f.level = level;
    f.subject = subject;
    f.message = message;
    out_.findings.push_back(std::move(f));
    stage_of_.push_back(kind_);
    return out_.findings.back();
}

void checker::unknown(const std::string& what, const std::vector<involved>& elems, severity level, const asked_finding& asked) {
    finding& f = add("unknown", level, what,
                     out_.out_of_time ? "not decided: the check's time budget (--max-time) ran out before deciding " + what
                                      : "the solver could not decide " + what + " within the limits (--timeout, --rlimit)");
    f.proof = proof_kind::unknown;
    f.elements = elems;
    f.asked_kind = asked.kind;
    f.asked_subject = asked.subject;
    f.side = asked.side;
}

ir::provenance checker::statement_prov(id n) const {
    ir::provenance p;
    if (n != ir::no_id) {
        p.where = rs_.nodes.at(n).where;
        p.layer = rs_.nodes.at(n).layer;
    }
    return p;
}

}  // namespace wp::verify
