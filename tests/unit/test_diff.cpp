// `westphalia diff`'s outcome comparison and the errata obligations, through the library: a
// stack compared with itself changes nothing (the two encodings share every value they read),
// each changed subject of the obligations test ruleset is found with the right verdict, and
// findings are matched by kind and subject.
#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/verify/check.hpp"
#include "westphalia/verify/diff.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace fs = std::filesystem;

namespace {

wp::ir::ruleset compiled(const fs::path& folder, const std::string& upto = "") {
    wp::compiler::compile_options o;
    if (!upto.empty()) {
        o.upto_layer = upto;
        o.upto_keeps_options = true;
    }
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    auto rs = wp::compiler::compile_ruleset(folder, o, sources, sink);
    REQUIRE(rs);
    REQUIRE_FALSE(sink.has_errors());
    return *rs;
}

const fs::path root(WP_SOURCE_DIR);

}  // namespace

TEST_CASE("a stack compared with itself changes nothing", "[diff]") {
    for (const fs::path& folder : {root / "rulesets" / "contractor-cards", root / "tests" / "rulesets" / "all-constructs",
                                   root / "tests" / "rulesets" / "errata-obligations"}) {
        INFO(folder.string());
        const wp::ir::ruleset a = compiled(folder);
        const wp::ir::ruleset b = compiled(folder);
        const wp::verify::outcome_diff d = wp::verify::compare_outcomes(a, b);
        CHECK(d.subjects > 0);
        for (const auto& c : d.changes) FAIL_CHECK(c.what + " " + c.subject + ": " + c.message);
    }
}

TEST_CASE("every layer of the obligations ruleset changes what it says", "[diff]") {
    const fs::path folder = root / "tests" / "rulesets" / "errata-obligations";
    // layer -> the subjects it changes, and whether each change only fills gaps
    const std::map<std::string, std::map<std::string, bool>> expected{
        {"fills_gap", {{"decision wins", true}}},
        {"fixes_table", {{"table campaign_outcome", true}}},
        {"clarify_bad", {{"decision may_recruit", false}}},
        {"correct_bad", {{"table campaign_outcome", false}}},
        {"addition_bad", {{"roll campaign_roll", false}}},
    };
    const std::vector<std::string> order{"base", "fills_gap", "fixes_table", "clarify_bad", "correct_bad", "addition_bad"};
    for (std::size_t i = 1; i < order.size(); ++i) {
        INFO(order[i]);
        const wp::verify::outcome_diff d = wp::verify::compare_outcomes(compiled(folder, order[i - 1]), compiled(folder, order[i]));
        std::map<std::string, bool> got;
        for (const auto& c : d.changes) {
            got[c.what + " " + c.subject] = c.only_gaps;
            CHECK(c.witness.size() >= 2);  // the situation, then before and after
            CHECK(c.witness.back().rfind("after: ", 0) == 0);
        }
        CHECK(got == expected.at(order[i]));
    }
}

TEST_CASE("every change's witness replays confirmed through the engine of each stack", "[diff]") {
    // The obligations ruleset layer by layer, and Contractor Cards as printed against its full
    // stack: each subject the engine has a question for is confirmed (tables with odds keys and
    // states the engine cannot be set in give no line).
    std::vector<std::pair<wp::ir::ruleset, wp::ir::ruleset>> pairs;
    const fs::path obligations = root / "tests" / "rulesets" / "errata-obligations";
    const std::vector<std::string> order{"base", "fills_gap", "fixes_table", "clarify_bad", "correct_bad", "addition_bad"};
    for (std::size_t i = 1; i < order.size(); ++i) pairs.emplace_back(compiled(obligations, order[i - 1]), compiled(obligations, order[i]));
    const fs::path cc = root / "rulesets" / "contractor-cards";
    pairs.emplace_back(compiled(cc, "base"), compiled(cc));
    std::size_t replayed = 0;
    for (const auto& [from, to] : pairs) {
        const wp::verify::outcome_diff d = wp::verify::compare_outcomes(from, to);
        for (const auto& c : d.changes) {
            INFO(c.what << " " << c.subject << ": " << c.replay);
            REQUIRE_FALSE(c.replay.empty());
            CHECK(c.replay.rfind("confirmed: in the witness's situation the engine gives `", 0) == 0);
            ++replayed;
        }
    }
    CHECK(replayed == 5 + 9);
}

TEST_CASE("a change whose witness is not wanted is found the same, without one", "[diff]") {
    const fs::path folder = root / "tests" / "rulesets" / "errata-obligations";
    const wp::ir::ruleset before = compiled(folder, "fixes_table"), after = compiled(folder, "clarify_bad");
    const wp::verify::outcome_diff full = wp::verify::compare_outcomes(before, after);
    wp::verify::diff_options o;
    std::set<std::string> asked;
    o.wants_witness = [&](const std::string& what, const std::string& subject) {
        asked.insert(what + " " + subject);
        return false;
    };
    const wp::verify::outcome_diff bare = wp::verify::compare_outcomes(before, after, o);
    REQUIRE(bare.changes.size() == full.changes.size());
    for (std::size_t i = 0; i < bare.changes.size(); ++i) {
        CHECK(bare.changes[i].subject == full.changes[i].subject);
        CHECK(bare.changes[i].only_gaps == full.changes[i].only_gaps);
        CHECK(bare.changes[i].witness.empty());
        CHECK_FALSE(full.changes[i].witness.empty());
        CHECK(asked.count(bare.changes[i].what + " " + bare.changes[i].subject) == 1);
    }
    CHECK(bare.queries < full.queries);  // the smallest witness is a query of its own
}

TEST_CASE("errata obligations: each broken one is an error naming its block", "[diff]") {
    const fs::path folder = root / "tests" / "rulesets" / "errata-obligations";
    wp::verify::check_options o;
    o.sim_games = 0;
    o.compile_upto = [&](const std::string& layer) -> std::optional<wp::ir::ruleset> { return compiled(folder, layer); };
    const wp::verify::check_result r = wp::verify::check(compiled(folder), o);
    std::set<std::string> broken;
    for (const auto& f : r.findings)
        if (f.kind == "errata-obligation") {
            CHECK(f.level == wp::verify::severity::error);
            REQUIRE_FALSE(f.elements.empty());
            broken.insert(f.elements.front().role + " " + f.subject);
        }
    CHECK(broken == std::set<std::string>{"clarification may_recruit", "correction campaign_outcome", "addition campaign_roll"});

    // without a way to compile the stack before a layer there are no obligations to check
    o.compile_upto = nullptr;
    const wp::verify::check_result none = wp::verify::check(compiled(folder), o);
    for (const auto& f : none.findings) CHECK(f.kind != "errata-obligation");
}

TEST_CASE("findings are matched by kind and subject", "[diff]") {
    wp::verify::check_result a, b;
    auto f = [](const std::string& kind, const std::string& subject) {
        wp::verify::finding x;
        x.kind = kind;
        x.subject = subject;
        return x;
    };
    a.findings = {f("gap", "wins"), f("table-gap", "campaign_outcome"), f("dead-rule", "r")};
    b.findings = {f("table-gap", "campaign_outcome"), f("dead-rule", "r"), f("dead-rule", "r"), f("errata-obligation", "x")};
    const auto c = wp::verify::compare_findings(a, b);
    REQUIRE(c.appeared.size() == 2);
    CHECK(c.appeared[0].kind == "dead-rule");
    CHECK(c.appeared[1].kind == "errata-obligation");
    REQUIRE(c.disappeared.size() == 1);
    CHECK(c.disappeared[0].subject == "wins");
}

TEST_CASE("a layer comparison reports the outcomes a layer changes without declaring them, and only those", "[diff]") {
    // tests/rulesets/layer-compare: seven ways an exclusive layer changes the series' rules, two
    // of them silent (a define that wins by the layer's rank, a modifier on the series' roll).
    const fs::path folder = root / "tests" / "rulesets" / "layer-compare";
    const wp::ir::ruleset rs = compiled(folder);
    wp::verify::check_options o;
    o.checks = {"obligations"};
    o.compile_upto = [&](const std::string& layer) -> std::optional<wp::ir::ruleset> { return compiled(folder, layer); };
    o.compare = std::make_pair(std::string("series"), std::string("local"));
    const wp::verify::check_result r = wp::verify::check(rs, o);
    std::map<std::string, std::string> got;  // subject -> the rule the finding points at
    for (const auto& f : r.findings) {
        INFO(f.kind + " " + f.subject + ": " + f.message);
        CHECK(f.kind == "undeclared-change");
        CHECK(f.level == wp::verify::severity::warning);
        REQUIRE_FALSE(f.elements.empty());
        got[f.subject] = f.elements.front().name;
        CHECK(f.witness.size() >= 2);
        CHECK(f.replay.rfind("confirmed", 0) == 0);
    }
    CHECK(got == std::map<std::string, std::string>{{"may_forage", "forage_in_the_valley"}, {"attack", "river_crossing"}});

    // without --compare, nothing of the kind
    o.compare.reset();
    for (const auto& f : wp::verify::check(rs, o).findings) CHECK(f.kind != "undeclared-change");
}
