// --color and NO_COLOR: colour only on a terminal in auto mode (never into a test's stream, a
// pipe or a file), on request with --color=always, before or after the command's name.
#include "account_writer.hpp"
#include "source_dir.hpp"
#include "cli.hpp"
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace wp;

namespace {

using outcome = test::cli_outcome;
const auto run = test::run_cli;

const std::string typo = std::string(WP_SOURCE_DIR) + "/tests/golden/diagnostics/semantic/fail_unknown_roll.wph";

}  // namespace

TEST_CASE("colour: auto colours a terminal only, and NO_COLOR (any non-empty value) turns it off", "[cli][color]") {
    CHECK(cli::use_color("auto", true, nullptr, "xterm-256color"));
    CHECK_FALSE(cli::use_color("auto", false, nullptr, "xterm-256color"));
    CHECK_FALSE(cli::use_color("auto", true, "1", "xterm"));
    CHECK_FALSE(cli::use_color("auto", true, "0", "xterm"));
    CHECK(cli::use_color("auto", true, "", "xterm"));  // set but empty: ignored, as no-color.org says
    CHECK_FALSE(cli::use_color("auto", true, nullptr, "dumb"));
    CHECK(cli::use_color("always", false, "1", "dumb"));
    CHECK_FALSE(cli::use_color("never", true, nullptr, "xterm"));
}

TEST_CASE("colour: always colours the diagnostics as compilers do, before or after the command", "[cli][color]") {
    for (const auto& args : {std::vector<std::string>{"--color=always", "compile", typo},
                             std::vector<std::string>{"compile", typo, "--color=always"},
                             std::vector<std::string>{"compile", typo, "--color", "always"}}) {
        const outcome r = run(args);
        CHECK(r.code == cli::exit_bad_input);
        CHECK(r.err.find("\033[1m" + typo + ":2:27:\033[0m \033[1;31merror:\033[0m unknown roll") != std::string::npos);
        CHECK(r.err.find("\033[1;32m^~~~~~~~~~~~\033[0m") != std::string::npos);
        CHECK(r.err.find("\033[1;36mnote:\033[0m did you mean `campaign_roll`?") != std::string::npos);
    }
}

TEST_CASE("auto and never: no colour into a stream that is not a terminal", "[cli][color]") {
    for (const auto& args : {std::vector<std::string>{"compile", typo}, std::vector<std::string>{"compile", typo, "--color=never"},
                             std::vector<std::string>{"--color=auto", "compile", typo}}) {
        const outcome r = run(args);
        CHECK(r.code == cli::exit_bad_input);
        CHECK(r.err.find('\033') == std::string::npos);
        CHECK(r.err.find(typo + ":2:27: error: unknown roll") != std::string::npos);
    }
}

TEST_CASE("colour: always colours the check report's severity words, never in json", "[cli][color]") {
    const std::string rules = std::string(WP_SOURCE_DIR) + "/tests/checker/dead-rule/second_siege_never_offered.wph";
    const outcome r = run({"check", rules, "--color=always"});
    CHECK(r.out.find("\033[1;35mwarning:\033[0m rule `one_siege_per_turn`") != std::string::npos);
    CHECK(r.out.find("\033[1;36mnote:\033[0m") != std::string::npos);
    const outcome j = run({"check", rules, "--color=always", "--format=json"});
    CHECK(j.out.find('\033') == std::string::npos);
}

TEST_CASE("colour: --color takes auto, always or never", "[cli][color]") {
    const outcome r = run({"compile", typo, "--color=sometimes"});
    CHECK(r.code == cli::exit_bad_input);
    CHECK(r.err.find("--color: sometimes not in {auto,always,never}") != std::string::npos);
}

TEST_CASE("colour: the game account is coloured by what each line is, with --color=always only", "[cli][color]") {
    const std::string hex = std::string(WP_SOURCE_DIR) + "/tests/rulesets/play-hex/game.wph";
    const outcome plain = run({"play", hex, "--agent", "first"});
    REQUIRE(plain.code == 0);
    CHECK(plain.out.find('\033') == std::string::npos);
    const outcome coloured = run({"--color=always", "play", hex, "--agent", "first"});
    REQUIRE(coloured.code == 0);
    CHECK(coloured.out.find("\033[1mturn 1: P1 (game.move)\033[0m\n") != std::string::npos);
    CHECK(coloured.out.find("\033[32mP1 (a unit, in turn move) chooses") != std::string::npos);
    CHECK(std::string(cli::account_colour("roll fire_roll: 4")) == "\033[36m");
    CHECK(std::string(cli::account_colour("P2 gold 9 \u2192 10 (income)")) == "\033[33m");
    CHECK(std::string(cli::account_colour("end: moved after 6 decisions")).empty());
}
