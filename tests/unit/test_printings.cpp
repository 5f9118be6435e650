// Two printings of one table compared on what is printed (westphalia/ir/printings.hpp): rows
// printed with different ranges are compared key by key, natural rows with natural rows, a key
// only one printing covers is "no row" or "no column" on the other side, and the outcomes only
// one printing gives are listed.
#include "westphalia/ir/printings.hpp"
#include "test_support.hpp"

namespace {

const wp::ir::table& named(const wp::ir::ruleset& rs, const std::string& name) {
    for (const wp::ir::table& t : rs.tables)
        if (t.name == name) return t;
    FAIL("no table " << name);
    return rs.tables.front();
}

wp::ir::ruleset compiled(const std::string& text) {
    wp::test::temp_ruleset dir({{"printings.wph", text}});
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;
    auto rs = wp::compiler::compile_ruleset(dir.root() / "printings.wph", {}, sources, sink);
    std::ostringstream out;
    wp::dsl::render(out, sources, sink.all(), wp::dsl::diag_format::gnu);
    INFO(out.str());
    REQUIRE(rs);
    return *rs;
}

const char* const header = R"(
enum end_reason { done }
enum result { Dd, NE, Dx, De }
roll leadership = 1d6;
)";
const char* const footer = "sequence game { end game done; }\n";

}  // namespace

TEST_CASE("printings: rows grouped differently are compared key by key", "[printings]") {
    const auto rs = compiled(std::string(header) + R"(
table fire : roll leadership {
  1-2 : Dd
  3-5 : NE
  6   : Dx
}
table map_fire printing of fire : roll leadership {
  1   : Dd
  2-3 : NE
  4-5 : NE
  6   : De
}
)" + footer);
    const auto& a = named(rs, "map_fire");
    const auto& b = named(rs, "fire");
    CHECK(a.printing_of == static_cast<wp::ir::id>(&b - rs.tables.data()));
    const auto d = wp::ir::compare_printings(rs, a, b);
    REQUIRE(d.cells.size() == 2);
    CHECK(d.cells[0].row == "2");
    CHECK(d.cells[0].a_text == "NE");
    CHECK(d.cells[0].b_text == "Dd");
    CHECK(d.cells[1].row == "6");
    CHECK(d.cells[1].a_text == "De");
    CHECK(d.cells[1].b_text == "Dx");
    CHECK(d.keys.empty());
    CHECK(d.only_a == std::vector<std::string>{"De"});
    CHECK(d.only_b == std::vector<std::string>{"Dx"});
}

TEST_CASE("printings: natural rows, a missing column and keys read differently", "[printings]") {
    const auto rs = compiled(std::string(header) + R"(
table crt(a: int, d: int) : roll leadership, odds(a, d) round defender clamp 1-1..3-1 {
  columns 1-1, 2-1, 3-1
  natural 1 : Dd, Dd, Dd
  ..3 : NE, Dx, Dd
  4+  : NE, NE, Dx
}
table map_crt(a: int, d: int) printing of crt : roll leadership, odds(a, d) round attacker clamp 1-1..2-1 {
  columns 1-1, 2-1
  natural 1 : Dd, NE
  ..3 : NE, Dx
  4+  : NE, NE
}
)" + footer);
    const auto d = wp::ir::compare_printings(rs, named(rs, "map_crt"), named(rs, "crt"));
    // natural 1 at 2-1; then the 3-1 column at each of the three rows
    REQUIRE(d.cells.size() == 4);
    CHECK(d.cells[0].row == "natural 1");
    CHECK(d.cells[0].column == "2-1");
    CHECK(d.cells[0].a_text == "NE");
    CHECK(d.cells[1].row == "natural 1");
    CHECK(d.cells[1].column == "3-1");
    CHECK(d.cells[1].a_text == "no column");
    CHECK(d.cells[2].row == "..3");
    CHECK(d.cells[3].row == "4+");
    CHECK(d.cells[3].b_text == "Dx");
    REQUIRE(d.keys.size() == 2);  // round, clamp
    CHECK(d.keys[0].find("round attacker") != std::string::npos);
    CHECK(d.keys[1].find("clamp 1-1..2-1") != std::string::npos);
}

TEST_CASE("printings: dice written twice are the same dice", "[printings]") {
    const auto rs = compiled(std::string(header) + R"(
table fire : roll 1d6 {
  1-3 : Dd
  4-6 : NE
}
table map_fire printing of fire : roll 1d6 {
  1-3 : Dd
  4-6 : NE
}
table aid_fire printing of fire : roll 2d6 {
  1-3 : Dd
  4-6 : NE
}
)" + footer);
    CHECK(wp::ir::compare_printings(rs, named(rs, "map_fire"), named(rs, "fire")).same());
    const auto d = wp::ir::compare_printings(rs, named(rs, "aid_fire"), named(rs, "fire"));
    REQUIRE(d.keys.size() == 1);
    CHECK(d.keys[0] == "the row key: `2d6` in `aid_fire`, `1d6` in `fire`");
}

TEST_CASE("printings: the same printing twice is the same", "[printings]") {
    const auto rs = compiled(std::string(header) + R"(
table fire : roll leadership {
  ..2 : Dd
  3+  : NE
}
table aid_fire printing of fire : roll leadership {
  ..1 : Dd
  2   : Dd
  3-6 : NE
  7+  : NE
}
)" + footer);
    CHECK(wp::ir::compare_printings(rs, named(rs, "aid_fire"), named(rs, "fire")).same());
}
