// Machine-readable reports for CI: `check --format=sarif|json` on a ruleset that does not compile,
// the SARIF of accepted findings, and the SARIF log's structure (what a code-scanning upload reads).
#include "cli.hpp"
#include "source_dir.hpp"
#include "cli_runner.hpp"

#include "westphalia/dsl/sarif.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace wp;
using nlohmann::json;

namespace {

using outcome = test::cli_outcome;
const auto run = test::run_cli;

std::string source(const std::string& relative) { return std::string(WP_SOURCE_DIR) + "/" + relative; }

// The SARIF 2.1.0 structure a code-scanning upload needs: version and schema, each run's tool
// driver by name, each result's rule, level and message, and every location's file URI with a
// region of 1-based line and column; suppressions of a known kind with a justification.
void require_sarif(const json& j) {
    REQUIRE(j.is_object());
    CHECK(j.at("version") == "2.1.0");
    CHECK(j.at("$schema").get<std::string>().find("sarif-2.1.0") != std::string::npos);
    REQUIRE(j.at("runs").is_array());
    REQUIRE_FALSE(j.at("runs").empty());
    for (const json& run : j.at("runs")) {
        CHECK(run.at("tool").at("driver").at("name") == "westphalia");
        std::set<std::string> rule_ids;
        for (const json& rule : run.at("tool").at("driver").value("rules", json::array())) {
            CHECK(rule.at("id").is_string());
            rule_ids.insert(rule.at("id").get<std::string>());
        }
        REQUIRE(run.at("results").is_array());
        for (const json& r : run.at("results")) {
            CHECK(r.at("ruleId").is_string());
            // a log that lists its rules lists every rule a result names
            if (!rule_ids.empty()) CHECK(rule_ids.count(r.at("ruleId").get<std::string>()) == 1);
            const std::string level = r.at("level");
            CHECK((level == "error" || level == "warning" || level == "note" || level == "none"));
            CHECK(r.at("message").at("text").is_string());
            auto location = [](const json& l) {
                const json& p = l.at("physicalLocation");
                CHECK_FALSE(p.at("artifactLocation").at("uri").get<std::string>().empty());
                if (p.contains("region")) {
                    CHECK(p.at("region").at("startLine").get<int>() >= 1);
                    CHECK(p.at("region").value("startColumn", 1) >= 1);
                    if (p.at("region").contains("endLine"))
                        CHECK(p.at("region").at("endLine").get<int>() >= p.at("region").at("startLine").get<int>());
                }
            };
            for (const json& l : r.value("locations", json::array())) location(l);
            for (const json& l : r.value("relatedLocations", json::array())) location(l);
            for (const json& s : r.value("suppressions", json::array())) {
                const std::string kind = s.at("kind");
                CHECK((kind == "inSource" || kind == "external"));
                CHECK(s.at("justification").is_string());
                if (s.contains("location")) location(s.at("location"));
            }
        }
    }
}

const json& region_of(const json& result) { return result.at("locations").at(0).at("physicalLocation").at("region"); }

}  // namespace

TEST_CASE("check --format=sarif on a ruleset with a typo: a SARIF log of the diagnostics, exit 2", "[cli][sarif]") {
    const std::string typo = source("tests/golden/diagnostics/semantic/fail_unknown_roll.wph");
    const outcome r = run({"check", typo, "--format=sarif"});
    CHECK(r.code == cli::exit_bad_input);
    CHECK(r.err.empty());
    const json j = json::parse(r.out);
    require_sarif(j);
    const json& results = j.at("runs").at(0).at("results");
    REQUIRE(results.size() == 1);
    CHECK(results[0].at("level") == "error");
    CHECK(results[0].at("ruleId") == "unknown-name");
    CHECK(results[0].at("locations").at(0).at("physicalLocation").at("artifactLocation").at("uri") == "file://" + typo);
    CHECK(region_of(results[0]).at("startLine") == 2);
    CHECK(region_of(results[0]).at("startColumn") == 27);
    CHECK(region_of(results[0]).at("endColumn") == 39);
    CHECK(j.at("runs").at(0).at("automationDetails").at("id") == "westphalia-check/fail_unknown_roll");
}

TEST_CASE("check --format=sarif on a syntax error and on a missing ruleset", "[cli][sarif]") {
    const outcome syntax = run({"check", source("tests/golden/diagnostics/syntax/fail_zero_dice.wph"), "--format=sarif"});
    CHECK(syntax.code == cli::exit_bad_input);
    const json s = json::parse(syntax.out);
    require_sarif(s);
    REQUIRE_FALSE(s.at("runs").at(0).at("results").empty());
    CHECK(s.at("runs").at(0).at("results").at(0).at("level") == "error");
    CHECK(region_of(s.at("runs").at(0).at("results").at(0)).at("startLine").get<int>() >= 1);

    const outcome missing = run({"check", source("tests/no/such/ruleset"), "--format=sarif"});
    CHECK(missing.code == cli::exit_bad_input);
    const json m = json::parse(missing.out);
    require_sarif(m);
    REQUIRE(m.at("runs").at(0).at("results").size() == 1);
    CHECK(m.at("runs").at(0).at("results").at(0).at("ruleId") == "file-not-found");
}

TEST_CASE("check --format=sarif -o FILE: the log in the file, the diagnostics on standard error", "[cli][sarif]") {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("wp-sarif-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "check.sarif").string();
    const outcome r = run({"check", source("tests/golden/diagnostics/semantic/fail_unknown_roll.wph"), "--format=sarif", "-o", file});
    CHECK(r.code == cli::exit_bad_input);
    CHECK(r.out.empty());
    CHECK(r.err.find("error: unknown roll or quantity `campain_roll` [unknown-name]") != std::string::npos);
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    const json j = json::parse(text.str());
    require_sarif(j);
    CHECK(j.at("runs").at(0).at("results").size() == 1);
    std::filesystem::remove_all(dir);
}

TEST_CASE("check --format=json on a ruleset with a typo: the diagnostics as JSON, exit 2", "[cli]") {
    const outcome r = run({"check", source("tests/golden/diagnostics/semantic/fail_unknown_roll.wph"), "--format=json"});
    CHECK(r.code == cli::exit_bad_input);
    CHECK(r.err.empty());
    const json j = json::parse(r.out);
    REQUIRE(j.at("diagnostics").size() == 1);
    CHECK(j.at("diagnostics").at(0).at("kind") == "unknown-name");
    CHECK(j.at("diagnostics").at(0).at("severity") == "error");
    CHECK(j.at("diagnostics").at(0).at("location").at("line") == 2);
}

TEST_CASE("check --format=sarif: a finding's log and an accepted finding's suppression", "[cli][sarif]") {
    const outcome found = run({"check", source("tests/checker/dead-rule/second_siege_never_offered.wph"), "--format=sarif"});
    CHECK(found.code == cli::exit_clean);
    require_sarif(json::parse(found.out));

    const std::string accepted = source("tests/checker/accepted/army_strength_accepted.wph");
    const outcome r = run({"check", accepted, "--format=sarif"});
    CHECK(r.code == cli::exit_clean);
    const json j = json::parse(r.out);
    require_sarif(j);
    const json& results = j.at("runs").at(0).at("results");
    REQUIRE(results.size() == 1);
    CHECK(results[0].at("level") == "note");
    REQUIRE(results[0].at("suppressions").size() == 1);
    const json& s = results[0].at("suppressions").at(0);
    CHECK(s.at("kind") == "inSource");
    CHECK(s.at("justification").get<std::string>().rfind("the strength track is printed up to 20", 0) == 0);
    CHECK(s.at("location").at("physicalLocation").at("region").at("startLine") == 37);
}

TEST_CASE("check --format=sarif: an aid-drift finding names a rule the log lists", "[cli][sarif]") {
    const outcome r = run({"check", source("tests/checker/aid-drift/morale_modifier_aid_not_updated.wph"), "--format=sarif"});
    CHECK(r.code == 0);  // aid-drift is a warning
    const json j = json::parse(r.out);
    require_sarif(j);
    const json& results = j.at("runs").at(0).at("results");
    REQUIRE_FALSE(results.empty());
    CHECK(results[0].at("ruleId") == "aid-drift");
}

TEST_CASE("SARIF URIs: relative paths stay relative, absolute ones are file URIs, odd bytes escaped", "[sarif]") {
    CHECK(dsl::sarif_uri("rulesets/contractor-cards/base.wph") == "rulesets/contractor-cards/base.wph");
    CHECK(dsl::sarif_uri("/work/rules/base.wph") == "file:///work/rules/base.wph");
    CHECK(dsl::sarif_uri("my rules/100%.wph") == "my%20rules/100%25.wph");
    CHECK(dsl::sarif_uri("r\xc3\xa8gles.wph") == "r%C3%A8gles.wph");
}

TEST_CASE("JSON diagnostics beside a command's own output: one document on standard output", "[cli]") {
    const std::string cards = source("rulesets/contractor-cards");
    // The IR is the document; no diagnostics document before it.
    outcome r = run({"compile", cards, "--emit-ir=json", "--format=json"});
    CHECK(r.code == cli::exit_clean);
    CHECK(r.err.empty());
    CHECK(json::parse(r.out).contains("accepts"));
    // A game's account is the output; nothing of JSON is printed before it.
    r = run({"play", cards, "--format=json", "--seed", "1", "--quiet"});
    CHECK(r.code == cli::exit_clean);
    CHECK(r.out.rfind("contractor_cards: 2 players, seed 1", 0) == 0);
    CHECK(r.err.empty());
    r = run({"aid", cards, "--dump", "text", "--format=json"});
    CHECK(r.out.rfind("# Contractor Cards", 0) == 0);
    r = run({"coverage", cards, "--format=json"});
    CHECK(json::parse(r.out).contains("sections"));
    // Without output of its own, the diagnostics are the document, empty or not.
    r = run({"compile", cards, "--format=json"});
    CHECK(json::parse(r.out).at("diagnostics").empty());
    r = run({"compile", source("tests/golden/diagnostics/semantic/fail_unknown_roll.wph"), "--emit-ir=json", "--format=json"});
    CHECK(r.code == cli::exit_bad_input);
    CHECK(json::parse(r.out).at("diagnostics").size() == 1);
}

TEST_CASE("JSON output of a path that is not UTF-8: valid JSON with U+FFFD, not an internal error", "[cli]") {
    // A file name is any bytes; the JSON writers used to throw on them (exit 70).
    const std::filesystem::path folder = std::filesystem::temp_directory_path() / ("wp-json-\xff-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    const std::string typo = (folder / "typo\xff.wph").string();
    std::filesystem::copy_file(source("tests/golden/diagnostics/semantic/fail_unknown_roll.wph"), typo);
    outcome r = run({"compile", typo, "--format=json"});
    CHECK(r.code == cli::exit_bad_input);
    const json j = json::parse(r.out);
    CHECK(j.at("diagnostics").at(0).at("location").at("file").get<std::string>().find("typo\xEF\xBF\xBD.wph") != std::string::npos);
    r = run({"info", typo, "--format=json"});
    CHECK(r.code == cli::exit_bad_input);
    CHECK_NOTHROW(json::parse(r.out));
    // A game log's header names the ruleset's path.
    const std::string cards = (folder / "cards\xff").string();
    std::filesystem::copy(source("rulesets/contractor-cards"), cards, std::filesystem::copy_options::recursive);
    const std::string log = (folder / "game.jsonl").string();
    r = run({"play", cards, "--seed", "1", "--quiet", "--log", log});
    CHECK(r.code == cli::exit_clean);
    CHECK(r.err.empty());
    std::ifstream header(log);
    std::string first;
    std::getline(header, first);
    CHECK_NOTHROW(json::parse(first));
    std::filesystem::remove_all(folder);
}
