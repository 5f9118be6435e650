// The IR's JSON form: an exact round trip of the all-constructs ruleset, and thorough
// validation of IR files that are wrong (never a crash, always a clear message).
#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/ir/json.hpp"
#include "westphalia/ir/print.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <limits>
#include <sstream>

namespace {

const wp::ir::ruleset& all_constructs_ir() {
    static const wp::ir::ruleset rs = [] {
        wp::dsl::source_manager sources;
        wp::dsl::diagnostic_sink sink;
        auto ir = wp::compiler::compile_ruleset(std::filesystem::path(WP_SOURCE_DIR) / "tests" / "rulesets" / "all-constructs",
                                                {}, sources, sink);
        if (!ir) {
            std::ostringstream out;
            wp::dsl::render(out, sources, sink.all(), wp::dsl::diag_format::gnu);
            FAIL("all-constructs does not compile:\n" << out.str());
        }
        return *ir;
    }();
    return rs;
}

// Reads `j` and expects failure with a message containing `needle`.
void expect_invalid(const nlohmann::json& j, const std::string& needle,
                    wp::dsl::diag_kind kind = wp::dsl::diag_kind::ir_invalid) {
    wp::ir::read_error error;
    const auto rs = wp::ir::from_json(j, error);
    CHECK_FALSE(rs.has_value());
    CHECK(error.kind == kind);
    INFO("message: " << error.message);
    CHECK(error.message.find(needle) != std::string::npos);
}

}  // namespace

TEST_CASE("ir json: round trip of the all-constructs ruleset is exact", "[ir][json]") {
    const auto& rs = all_constructs_ir();
    const nlohmann::json once = wp::ir::to_json(rs);
    CHECK(once["schema"] == "westphalia-ir");
    CHECK(once["version"] == wp::ir::schema_version);
    wp::ir::read_error error;
    const auto back = wp::ir::from_json(once, error);
    INFO(error.message);
    REQUIRE(back);
    CHECK(wp::ir::to_json(*back) == once);
    // Through text as well, and the text dump agrees.
    const auto again = wp::ir::from_json_text(wp::ir::to_json_text(rs), error);
    REQUIRE(again);
    std::ostringstream a, b;
    wp::ir::print(a, rs);
    wp::ir::print(b, *again);
    CHECK(a.str() == b.str());
}

TEST_CASE("ir json: an empty ruleset round-trips", "[ir][json]") {
    wp::ir::ruleset rs;
    rs.name = "empty";
    wp::ir::read_error error;
    const auto back = wp::ir::from_json(wp::ir::to_json(rs), error);
    REQUIRE(back);
    CHECK(back->name == "empty");
    CHECK(wp::ir::to_json(*back) == wp::ir::to_json(rs));
}

TEST_CASE("ir json: schema and version", "[ir][json]") {
    nlohmann::json j = wp::ir::to_json(all_constructs_ir());
    SECTION("another version") {
        j["version"] = wp::ir::schema_version + 1;
        expect_invalid(j, "schema version " + std::to_string(wp::ir::schema_version + 1), wp::dsl::diag_kind::ir_version);
    }
    SECTION("no schema") {
        j.erase("schema");
        expect_invalid(j, "not a Westphalia IR file");
    }
    SECTION("not an object") { expect_invalid(nlohmann::json::array(), "expected a JSON object"); }
}

TEST_CASE("ir json: missing fields, wrong types and unknown fields", "[ir][json]") {
    nlohmann::json j = wp::ir::to_json(all_constructs_ir());
    SECTION("missing") {
        j["rules"][0].erase("guard");
        expect_invalid(j, "rules[0]: missing field `guard`");
    }
    SECTION("wrong type") {
        j["rules"][1]["name"] = 3;
        expect_invalid(j, "rules[1].name: expected a string, found an integer");
    }
    SECTION("wrong enumerator") {
        j["rules"][0]["kind"] = "modifer";
        expect_invalid(j, "rules[0].kind: `modifer` is not one of modifier");
    }
    SECTION("unknown field") {
        j["tables"][0]["colour"] = "red";
        expect_invalid(j, "tables[0]: unknown field `colour`");
    }
    SECTION("negative index") {
        j["nodes"][3]["ref"] = -1;
        expect_invalid(j, "nodes[3].ref: a negative number");
    }
    SECTION("fractional number") {
        j["min_players"] = 2.5;
        expect_invalid(j, "min_players: expected an integer, found a fractional number");
    }
    SECTION("a number too large") {
        j["rules"][0]["group"] = 5000000000ull;
        expect_invalid(j, "rules[0].group: number out of range");
    }
}

TEST_CASE("ir json: indices out of range", "[ir][json]") {
    nlohmann::json j = wp::ir::to_json(all_constructs_ir());
    const auto nodes = j["nodes"].size();
    SECTION("a rule's guard") {
        j["rules"][1]["guard"] = nodes + 10;
        expect_invalid(j, "rules[1].guard: node " + std::to_string(nodes + 10) + " does not exist");
    }
    SECTION("a type reference") {
        j["slots"][0]["type"] = 99999;
        expect_invalid(j, "slots[0].type: type 99999 does not exist");
    }
    SECTION("a child after its parent") {
        // Point the first child of the last node at the last node itself: a cycle.
        for (std::size_t n = nodes; n-- > 0;) {
            if (j["nodes"][n]["child_count"].get<int>() > 0) {
                const auto first = j["nodes"][n]["first_child"].get<std::size_t>();
                j["children"][first] = n;
                expect_invalid(j, "does not come before its parent");
                break;
            }
        }
    }
    SECTION("children past the end") {
        j["nodes"][nodes - 1]["first_child"] = j["children"].size() + 5;
        j["nodes"][nodes - 1]["child_count"] = 1;
        expect_invalid(j, "children run past the end");
    }
    SECTION("an op with the wrong arity") {
        for (std::size_t n = 0; n < nodes; ++n) {
            if (j["nodes"][n]["op"] == "not") {
                j["nodes"][n]["child_count"] = 0;
                expect_invalid(j, "`not` takes 1 children, not 0");
                break;
            }
        }
    }
    SECTION("a local outside its frame") {
        for (std::size_t n = 0; n < nodes; ++n) {
            if (j["nodes"][n]["op"] == "local") {
                j["nodes"][n]["ref"] = 77;
                expect_invalid(j, "uses local 77");
                break;
            }
        }
    }
    SECTION("a table with too few cells") {
        j["tables"][1]["cells"].erase(0);
        expect_invalid(j, "tables[1].cells: holds 23 cells for 6 rows of 4");
    }
    SECTION("a key map naming a missing row") {
        j["tables"][0]["row_map"]["dense"][0] = 40;
        expect_invalid(j, "tables[0].row_map.dense");
    }
    SECTION("an anchor's section") {
        j["rules"][0]["prov"]["anchors"][0]["section"] = 500;
        expect_invalid(j, "rules[0].prov.anchors[0].section: section 500 does not exist");
    }
    SECTION("an option's default") {
        j["options"][0]["default_index"] = 9;
        expect_invalid(j, "options[0].default_index: not one of the values");
    }
    SECTION("entity values against the record") {
        j["entities"][0]["values"].erase(0);
        expect_invalid(j, "entities[0].values: holds 2 values for 3 fields");
    }
    SECTION("a constant that is not of its type") {
        j["entities"][0]["values"][0] = 7;  // arm has 3 members
        expect_invalid(j, "entities[0].values[0]: the value 7 is not a arm");
    }
    SECTION("a slot's initial value outside its range") {
        j["slots"][0]["initial"] = 9;
        expect_invalid(j, "slots[0].initial: the value 9");
    }
    SECTION("a member constant out of its enum") {
        for (std::size_t n = 0; n < nodes; ++n) {
            if (j["nodes"][n]["op"] == "const-member") {
                j["nodes"][n]["value"] = 40;
                expect_invalid(j, "the value 40");
                break;
            }
        }
    }
    SECTION("extreme key map bounds") {
        j["tables"][0]["row_map"]["min"] = std::numeric_limits<std::int64_t>::min();
        j["tables"][0]["row_map"]["max"] = std::numeric_limits<std::int64_t>::max();
        expect_invalid(j, "tables[0].row_map: dense holds");
    }
    SECTION("an override edge") {
        j["groups"][1]["edges"][0]["lower"] = 1000;
        expect_invalid(j, "groups[1].edges: rule 1000 does not exist");
    }
}

// What the engine, the translator and the checker assume beyond indices (they would crash or
// loop on it): the robustness reproducers of issue 32, reduced to one change each.
TEST_CASE("ir json: inconsistent but in range", "[ir][json]") {
    nlohmann::json j = wp::ir::to_json(all_constructs_ir());
    const auto nodes = j["nodes"].size();
    auto first = [&](const char* op) {
        for (std::size_t n = 0; n < nodes; ++n)
            if (j["nodes"][n]["op"] == op) return n;
        FAIL("no `" << op << "` node in all-constructs");
        return std::size_t{0};
    };
    SECTION("a global read of a per-player slot") {
        const std::size_t n = first("player-field");
        j["nodes"][n]["op"] = "global";
        j["nodes"][n]["child_count"] = 0;
        expect_invalid(j, "a global read of a slot that is not global");
    }
    SECTION("a slot read of another type") {
        const std::size_t n = first("global");
        j["nodes"][n]["type"] = 0;
        expect_invalid(j, "differs from its slot's type");
    }
    SECTION("an assignment to a constant") {
        const std::size_t n = first("assign");
        const std::size_t c = first("const-int");
        j["children"][j["nodes"][n]["first_child"].get<std::size_t>()] = c;
        expect_invalid(j, "must assign to a slot");
    }
    SECTION("a checker setting the manifest cannot write") {
        j["checker"] = nlohmann::json::array({{{"name", "unfold"}, {"value", 1}}});
        expect_invalid(j, "a checker setting is unfold_limit, unroll_depth, evidence_games, resource_limit, tables_with_bounds or choices_with_bounds");
        j["checker"] = nlohmann::json::array({{{"name", "unroll_depth"}, {"value", 65}}});
        expect_invalid(j, "checker[0].value");
        j["checker"] = nlohmann::json::array({{{"name", "evidence_games"}, {"value", 100001}}});
        expect_invalid(j, "checker[0].value");
        j["checker"] = nlohmann::json::array({{{"name", "resource_limit"}, {"value", 4294967296ll}}});
        expect_invalid(j, "checker[0].value");
        j["checker"] = nlohmann::json::array({{{"name", "tables_with_bounds"}, {"value", 2}}});  // `bounds part with tables` is 1
        expect_invalid(j, "checker[0].value");
    }
    SECTION("min_players above max_players") {
        j["min_players"] = 2147483648ll;
        expect_invalid(j, "min_players: the players must be N..M");
    }
    SECTION("a quantity that calls itself") {
        const std::size_t n = first("quantity");
        const auto q = j["nodes"][n]["ref"].get<std::size_t>();
        j["quantities"][q]["expr"] = n;
        expect_invalid(j, "calls itself");
    }
    SECTION("a tree too deep for the consumers") {
        // 5000 nested `not`s over the last node (the validator reads every node, reached or not)
        nlohmann::json below = nodes - 1;
        nlohmann::json x = j["nodes"][first("not")];
        for (int i = 0; i < 5000; ++i) {
            j["children"].push_back(below);
            x["first_child"] = j["children"].size() - 1;
            j["nodes"].push_back(x);
            below = j["nodes"].size() - 1;
        }
        expect_invalid(j, "nodes deep");
    }
    SECTION("a dice term with no faces") {
        j["dice_terms"][0]["high"] = j["dice_terms"][0]["low"].get<std::int64_t>() - 2;
        expect_invalid(j, "dice_terms[0]: not 1..10000 dice");
    }
    SECTION("a rule group aimed at a missing target") {
        j["groups"][0]["target_id"] = 99;
        expect_invalid(j, "groups[0].target_id");
    }
    SECTION("an odds clamp against no defenders") {
        for (auto& t : j["tables"])
            for (auto& k : t["keys"])
                if (k["has_clamp"] == true) k["clamp_lo"]["hi"] = 0;
        expect_invalid(j, "the defender's side must be at least 1");
    }
    SECTION("types nested too deep") {
        nlohmann::json t = j["types"][0];
        t["kind"] = "list";
        for (int i = 0; i < 1100; ++i) {
            t["value"] = j["types"].size() - 1;
            j["types"].push_back(t);
        }
        expect_invalid(j, "types deep");
    }
}

TEST_CASE("ir json: malformed text", "[ir][json]") {
    wp::ir::read_error error;
    CHECK_FALSE(wp::ir::from_json_text("{\"schema\": ", error));
    CHECK(error.kind == wp::dsl::diag_kind::ir_invalid);
    CHECK(error.message.find("not valid JSON") != std::string::npos);
    CHECK_FALSE(wp::ir::from_json_text("", error));
    const std::string deep(100000, '[');
    CHECK_FALSE(wp::ir::from_json_text(deep, error));
    CHECK_FALSE(wp::ir::from_json_text(std::string(50000, '[') + std::string(50000, ']'), error));
}

TEST_CASE("ir json: every field of every table is checked (fuzz by deletion)", "[ir][json]") {
    // Removing any one field of the first element of each table must give a clear error.
    const nlohmann::json j = wp::ir::to_json(all_constructs_ir());
    std::size_t tried = 0;
    for (const auto& [table, value] : j.items()) {
        if (!value.is_array() || value.empty() || !value[0].is_object()) continue;
        for (const auto& [field, ignored] : value[0].items()) {
            nlohmann::json broken = j;
            broken[table][0].erase(field);
            wp::ir::read_error error;
            // a field written only when set may be left out (ir_json.cpp's `?` keys)
            if (table == "procedures" && field == "aid") {
                CHECK(wp::ir::from_json(broken, error));
                continue;
            }
            CHECK_FALSE(wp::ir::from_json(broken, error));
            CHECK(error.message.find("missing field `" + field + "`") != std::string::npos);
            ++tried;
        }
    }
    CHECK(tried > 100);
}

TEST_CASE("ir json: path_length and a predicate's own arguments round-trip and are validated", "[ir][json][maps]") {
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    const auto rs = wp::compiler::compile_ruleset(std::filesystem::path(WP_SOURCE_DIR) / "tests" / "rulesets" / "engine-paths" / "lengths.wph",
                                                  {}, sources, sink);
    REQUIRE(rs);
    const nlohmann::json once = wp::ir::to_json(*rs);
    wp::ir::read_error error;
    const auto back = wp::ir::from_json(once, error);
    INFO(error.message);
    REQUIRE(back);
    CHECK(wp::ir::to_json(*back) == once);
    // the text dump writes the arguments back with `_` for the locations
    std::ostringstream text;
    wp::ir::print(text, *back);
    CHECK(text.str().find("path_length(h0101, h0103, passable(_, 0))") != std::string::npos);
    CHECK(text.str().find("path_length(h0101, h0103, stepping(_, _, false))") != std::string::npos);
    CHECK(text.str().find("line_blocked(h0101, h0103, woods_unless(_, true))") != std::string::npos);
    // a search whose arguments do not fit its predicate is refused
    wp::ir::id search = wp::ir::no_id;
    for (wp::ir::id i = 0; i < rs->nodes.size(); ++i)
        if (rs->nodes[i].code == wp::ir::op::builtin && rs->nodes[i].ref == static_cast<wp::ir::id>(wp::ir::builtin::path_length) &&
            rs->nodes[i].child_count == 3)
            search = i;
    REQUIRE(search != wp::ir::no_id);
    wp::ir::id clear = wp::ir::no_id;
    for (wp::ir::id i = 0; i < rs->quantities.size(); ++i)
        if (rs->quantities[i].name == "clear") clear = i;
    REQUIRE(clear != wp::ir::no_id);
    nlohmann::json j = once;
    j["nodes"][search]["value"] = clear;  // clear(h) given one more argument
    expect_invalid(j, "names a predicate that does not fit");
    j = once;
    j["nodes"][search]["ref"] = static_cast<int>(wp::ir::last_builtin) + 1;
    expect_invalid(j, "unknown built-in");
}

TEST_CASE("ir json: the manifest's checker budgets round-trip, and are written only when set", "[ir][json]") {
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    const auto rs = wp::compiler::compile_ruleset(
        std::filesystem::path(WP_SOURCE_DIR) / "tests" / "rulesets" / "check-unfold" / "budget_in_manifest", {}, sources, sink);
    REQUIRE(rs);
    REQUIRE(rs->checker.size() == 1);
    CHECK(rs->checker[0].name == "unfold_limit");
    CHECK(rs->checker[0].value == 0);
    const nlohmann::json j = wp::ir::to_json(*rs);
    CHECK(j.contains("checker"));
    wp::ir::read_error error;
    const auto back = wp::ir::from_json(j, error);
    INFO(error.message);
    REQUIRE(back);
    CHECK(back->checker == rs->checker);
    CHECK_FALSE(wp::ir::to_json(all_constructs_ir()).contains("checker"));
}

TEST_CASE("ir json: a designer's queries round-trip, and a query with a guard is invalid", "[ir][json]") {
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    const auto rs = wp::compiler::compile_ruleset(
        std::filesystem::path(WP_SOURCE_DIR) / "tests" / "rulesets" / "queries" / "siege_claims.wph", {}, sources, sink);
    REQUIRE(rs);
    std::vector<std::string> kinds;
    for (const wp::ir::rule& r : rs->rules)
        if (wp::ir::is_query(r.kind)) kinds.push_back(wp::ir::name_of(r.kind));
    CHECK(kinds == std::vector<std::string>{"assert-always", "assert-never", "reachable", "reachable"});
    nlohmann::json j = wp::ir::to_json(*rs);
    wp::ir::read_error error;
    const auto back = wp::ir::from_json(j, error);
    INFO(error.message);
    REQUIRE(back);
    CHECK(wp::ir::to_json(*back) == j);
    // a query is a property and nothing else: give one the invariant's property as a guard
    std::size_t q = 0;
    while (!wp::ir::is_query(rs->rules[q].kind)) ++q;
    j["rules"][q]["guard"] = j["rules"][q]["value"];
    expect_invalid(j, "a query has a property and nothing else");
}

TEST_CASE("ir json: a turn's number round-trips, and a number that is no int, rolls or numbers a phase is invalid",
          "[ir][json]") {
    nlohmann::json j = wp::ir::to_json(all_constructs_ir());
    std::size_t turn = j["blocks"].size(), phase = j["blocks"].size();
    for (std::size_t b = 0; b < j["blocks"].size(); ++b) {
        if (j["blocks"][b].contains("number")) turn = b;
        else if (j["blocks"][b]["word"] == "phase" && phase == j["blocks"].size()) phase = b;
    }
    REQUIRE(turn < j["blocks"].size());  // all-constructs numbers its turn (`numbered turn + 1`)
    REQUIRE(phase < j["blocks"].size());
    auto first = [&](const char* op) {
        for (std::size_t n = 0; n < j["nodes"].size(); ++n)
            if (j["nodes"][n]["op"] == op) return n;
        FAIL("no `" << op << "` node in all-constructs");
        return std::size_t{0};
    };
    SECTION("out of range") {
        j["blocks"][turn]["number"] = j["nodes"].size();
        expect_invalid(j, "blocks[" + std::to_string(turn) + "].number");
    }
    SECTION("a number on a phase") {
        j["blocks"][phase]["number"] = j["blocks"][turn]["number"];
        expect_invalid(j, "only a turn is numbered");
    }
    SECTION("a true/false") {
        j["blocks"][turn]["number"] = first("const-bool");
        expect_invalid(j, "a turn's number is not an int");
    }
    SECTION("a roll") {
        j["blocks"][turn]["number"] = first("roll");
        expect_invalid(j, "a turn's number rolls dice");
    }
}
