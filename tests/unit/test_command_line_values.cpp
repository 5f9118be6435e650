// Command-line values the goldens cannot spell (an empty argument) and the play script's UTF-8
// check, run through the command line in-process.
#include "cli.hpp"
#include "source_dir.hpp"
#include "cli_runner.hpp"
#include "script_text.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace wp;

namespace {

using outcome = test::cli_outcome;
const auto run = test::run_cli;

const std::string rules = std::string(WP_SOURCE_DIR) + "/tests/golden/cli/own_input.wph";

}  // namespace

TEST_CASE("an empty --seed is a usage error, not seed 0", "[cli]") {
    for (const char* command : {"play", "sim"}) {
        const outcome r = run({command, rules, "--seed", ""});
        CHECK(r.code == cli::exit_bad_input);
        CHECK(r.err.find("--seed: a number is needed") != std::string::npos);
    }
}

TEST_CASE("numbers with a sign, a base or spaces are refused", "[cli]") {
    for (const char* seed : {"+5", "0x10", " 5", "5 ", "1e3", "-0"}) {
        const outcome r = run({"play", rules, "--seed", seed, "--quiet"});
        CHECK(r.code == cli::exit_bad_input);
        CHECK(r.err.find("--seed:") != std::string::npos);
    }
    CHECK(run({"play", rules, "--seed", "0", "--quiet"}).code == cli::exit_clean);
}

TEST_CASE("the UTF-8 check finds the first bad byte", "[cli]") {
    CHECK(cli::first_invalid_utf8("plain") == std::string::npos);
    CHECK(cli::first_invalid_utf8("Österreich — ½ 🎲") == std::string::npos);
    CHECK(cli::first_invalid_utf8("ab\xff") == 2);
    CHECK(cli::first_invalid_utf8("\xc3") == 0);                 // truncated
    CHECK(cli::first_invalid_utf8("x\xc0\x80") == 1);            // overlong NUL
    CHECK(cli::first_invalid_utf8("\xed\xa0\x80") == 0);         // a surrogate
    CHECK(cli::first_invalid_utf8("\xf4\x90\x80\x80") == 0);     // past U+10FFFF
    CHECK(cli::first_invalid_utf8("ok\xe2\x28\xa1") == 2);       // a bad continuation byte
}
