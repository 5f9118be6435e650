// Balance reports: the same report and chart whatever the threads, a chart that is one SVG
// document with a bar per cell and seat, and the baseline compared with itself changes nothing.
#include "balance.hpp"
#include "source_dir.hpp"
#include "cli_runner.hpp"

#include "westphalia/compiler/compile.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace wp;

namespace {

ir::ruleset contractor_cards() {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", {}, sources, sink);
    REQUIRE(rs.has_value());
    return *rs;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("balance: the report and the chart do not depend on the threads") {
    const ir::ruleset rs = contractor_cards();
    engine::sim_options o;
    o.games = 60;
    o.players = 3;
    o.threads = 1;
    const cli::balance_report one = *cli::run_balance(rs, o, {"end_after_exhaustions", "negative_contract"});
    o.threads = 2;
    const cli::balance_report two = *cli::run_balance(rs, o, {"end_after_exhaustions", "negative_contract"});
    REQUIRE(cli::balance_text(one) == cli::balance_text(two));
    REQUIRE(cli::balance_svg(one) == cli::balance_svg(two));
    REQUIRE(one.cells.size() == 3);         // the baseline and one other value of each option
    REQUIRE(one.comparisons.size() == 6);   // two cells, three seats
    const std::string svg = cli::balance_svg(one);
    REQUIRE(svg.rfind("<svg ", 0) == 0);
    REQUIRE(count(svg, "<svg") == 1);
    REQUIRE(svg.find("</svg>") != std::string::npos);
    REQUIRE(svg.find("baseline: end_after_exhaustions = 2") != std::string::npos);
}

TEST_CASE("balance: an option that changes nothing shows no change, and --plot writes the chart") {
    const auto dir = std::filesystem::temp_directory_path() / "wp_balance_test";
    std::filesystem::create_directories(dir);
    const std::string plot = (dir / "chart.svg").string();
    const auto r = test::run_cli({"balance", std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", "-n", "50",
                                  "--vary", "adversary_limit", "--plot", plot, "-j", "1"});
    REQUIRE(r.code == 0);
    REQUIRE(r.out.find("adversary_limit = one_per_opponent, P1: +0.000 [0.000, 0.000], p 1.000\n") != std::string::npos);
    std::ifstream in(plot);
    std::stringstream svg;
    svg << in.rdbuf();
    REQUIRE(svg.str().rfind("<svg ", 0) == 0);
    std::filesystem::remove_all(dir);
}

namespace {
void require_same_report(const engine::sim_report& merged, const engine::sim_report& whole) {
    REQUIRE(merged.games == whole.games);
    REQUIRE(merged.wins == whole.wins);
    REQUIRE(merged.mean_decisions == whole.mean_decisions);
    REQUIRE(merged.decision_percentiles == whole.decision_percentiles);
    REQUIRE(merged.end_reasons == whole.end_reasons);
    REQUIRE(merged.never_fired == whole.never_fired);
    REQUIRE(merged.statements_run == whole.statements_run);
    REQUIRE(merged.keys_read == whole.keys_read);
    REQUIRE(merged.rules.size() == whole.rules.size());
    for (std::size_t k = 0; k < merged.rules.size(); ++k) {
        REQUIRE(merged.rules[k].fires == whole.rules[k].fires);
        REQUIRE(merged.rules[k].games == whole.rules[k].games);
    }
}

// Fifty games at this many players, with the coverage the checker reads.
engine::sim_options fifty_games(int players) {
    engine::sim_options o;
    o.games = 50;
    o.players = players;
    o.coverage = true;
    return o;
}
}  // namespace

TEST_CASE("a simulation split into shares and merged is the simulation, also through the bytes --mpi sends") {
    const ir::ruleset rs = contractor_cards();
    const engine::sim_options o = fifty_games(3);
    const engine::sim_report whole = engine::simulate(rs, o);
    std::vector<engine::sim_part> parts;
    for (std::uint64_t rank = 0; rank < 4; ++rank)
        parts.push_back(cli::part_from_bytes(cli::part_bytes(engine::simulate_part(rs, o, rank, 4))));
    require_same_report(engine::merge_parts(rs, o, std::move(parts)), whole);
}

// The checker's evidence play grows batch by batch (checker::play_for_ways): games 0-19, then
// 20-49, merged, are the first 50 games of the seed.
TEST_CASE("a simulation played as consecutive ranges of games and merged is the simulation") {
    const ir::ruleset rs = contractor_cards();
    const engine::sim_options o = fifty_games(2);
    const engine::sim_report whole = engine::simulate(rs, o);
    std::vector<engine::sim_part> parts;
    parts.push_back(engine::simulate_range(rs, o, 0, 20));
    parts.push_back(engine::simulate_range(rs, o, 20, 30));
    REQUIRE(parts[1].indices.front() == 20);
    REQUIRE(parts[1].indices.back() == 49);
    require_same_report(engine::merge_parts(rs, o, std::move(parts)), whole);
}

TEST_CASE("mpi: a program built without MPI refuses --mpi and plays nothing") {
    const auto r = test::run_cli({"sim", std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", "-n", "5", "--mpi"});
    REQUIRE(r.code == 2);
    REQUIRE(r.err.find("built without MPI") != std::string::npos);
    REQUIRE(r.out.empty());
}
