// check --cache: the proofs of one run answer the same questions in the next, the report is the
// same byte for byte, and a file that is not a cache is never trusted.
#include "cli.hpp"
#include "source_dir.hpp"
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace wp;
namespace fs = std::filesystem;

namespace {

using outcome = test::cli_outcome;
const auto run = test::run_cli;

const std::string odds = std::string(WP_SOURCE_DIR) + "/tests/rulesets/tables-odds/battle_odds.wph";

// the `cache:` line of --stats
std::string cache_line(const std::string& report) {
    std::istringstream in(report);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("  cache:", 0) == 0) return line;
    return "";
}

struct folder {
    fs::path path = fs::temp_directory_path() / ("wp-proof-cache-" + std::to_string(::getpid()));
    folder() { fs::remove_all(path); }
    ~folder() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("check --cache: the second run answers from the first's proofs, with the same report", "[cli][cache]") {
    folder dir;
    const std::string cache = dir.path.string();
    const outcome plain = run({"check", odds});
    const outcome cold = run({"check", odds, "--cache-dir", cache});
    REQUIRE(fs::exists(dir.path / "battle_odds.proofs"));
    const outcome warm = run({"check", odds, "--cache-dir", cache});
    CHECK(cold.out == plain.out);
    CHECK(warm.out == plain.out);
    CHECK(warm.code == plain.code);
    CHECK(warm.err.empty());
    const outcome stats = run({"check", odds, "--cache-dir", cache, "--stats"});
    CHECK(cache_line(stats.out) == "  cache: 6 queries answered from it, 6 proofs kept for the next run");
}

TEST_CASE("check --cache: a file that is not a cache is ignored with a warning, and rewritten", "[cli][cache]") {
    folder dir;
    const std::string cache = dir.path.string();
    const outcome plain = run({"check", odds});
    run({"check", odds, "--cache-dir", cache});
    const fs::path file = dir.path / "battle_odds.proofs";
    std::string text;
    {
        std::ifstream in(file);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    SECTION("a key that is not one") {
        std::ofstream(file) << text << "not a key\n";
        const outcome r = run({"check", odds, "--cache-dir", cache, "--stats"});
        CHECK(r.err.find("warning: " + file.string() + ":8: not a proof's key; the cache is ignored") != std::string::npos);
        CHECK(cache_line(r.out).rfind("  cache: 0 queries answered", 0) == 0);
    }
    SECTION("another program's file") {
        std::ofstream(file) << "something else\n" << text.substr(text.find('\n') + 1);
        const outcome r = run({"check", odds, "--cache-dir", cache, "--stats"});
        CHECK(r.err.find("not a proof cache of this version") != std::string::npos);
        CHECK(cache_line(r.out).rfind("  cache: 0 queries answered", 0) == 0);
    }
    // rewritten: the next run answers from it again, and says nothing
    const outcome again = run({"check", odds, "--cache-dir", cache});
    CHECK(again.err.empty());
    CHECK(again.out == plain.out);
    const outcome stats = run({"check", odds, "--cache-dir", cache, "--stats"});
    CHECK(cache_line(stats.out).rfind("  cache: 6 queries answered", 0) == 0);
}

TEST_CASE("check --cache: a proof kept under another question's key is not taken for it", "[cli][cache]") {
    // A key that is well formed but of no question of this ruleset answers nothing.
    folder dir;
    fs::create_directories(dir.path);
    std::ofstream(dir.path / "battle_odds.proofs") << "westphalia proof cache 1\n" << std::string(64, 'a') << '\n';
    const outcome r = run({"check", odds, "--cache-dir", dir.path.string(), "--stats"});
    CHECK(r.err.empty());
    CHECK(cache_line(r.out) == "  cache: 0 queries answered from it, 6 proofs kept for the next run");
}

TEST_CASE("check --cache: a proof that needed the map searches' lemmas is not kept", "[cli][cache]") {
    // Such a proof rests on the map's data, which a question's key does not describe: an errata
    // to the map keeps the key. Of this ruleset's three proofs, two needed lemmas about
    // path_exists (kept before the fix: "3 proofs kept").
    folder dir;
    const std::string supply = std::string(WP_SOURCE_DIR) + "/tests/checker/dead-branch/supply_path_around_marsh.wph";
    const outcome r = run({"check", supply, "--cache-dir", dir.path.string(), "--stats"});
    CHECK(cache_line(r.out) == "  cache: 0 queries answered from it, 1 proofs kept for the next run");
}
