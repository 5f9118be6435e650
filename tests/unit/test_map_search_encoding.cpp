// How the checker decides a search over the map from a place a choice picks: exact before
// too, but learnt a lemma at a time, so that the solver needed a round per start and target
// (docs/checker.md, "Searches over the map"; docs/performance.md, nineteenth session). The
// count here is the checker's work, not the clock.
#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/verify/check.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

wp::verify::check_result check_bounds(const std::string& file) {
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    const auto rs = wp::compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/" + file, {}, sources, sink);
    REQUIRE(rs);
    wp::verify::check_options co;
    co.timeout_ms = 120000;  // the clock must not decide anything here
    co.checks = {"bounds"};
    co.sim_games = 0;  // the solver's answer, not a game's
    co.jobs = 1;
    return wp::verify::check(*rs, co);
}

}  // namespace

// 64 searches, one per target, all from the chosen city. At cdcbd39 each model the solver
// found moved the city or the target, and the bound took 6,534 lemmas (12.9 s). Now a model
// that reads one of them wrong gets the places reached from its start, exactly, for all 64 at
// once: 386 lemmas (each such set counts 65: the places reached and each search's answer).
TEST_CASE("a search from a chosen place is decided without learning the map model by model", "[verify][maps]") {
    const wp::verify::check_result r = check_bounds("tests/rulesets/check-limits/muster_along_roads.wph");
    REQUIRE(r.encoder.count("search lemmas"));
    CHECK(r.encoder.at("search lemmas") < 1000);
    bool violation = false;
    for (const auto& f : r.findings) violation = violation || (f.kind == "bound-violation" && f.subject == "strength");
    CHECK(violation);
}
