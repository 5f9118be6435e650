// The engine's compiled expressions (engine/src/compile.hpp): made once per game, one per IR
// node; operands evaluated left to right; errors still name the IR node where they happen.
#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace wp;

namespace {

ir::ruleset compile_path(const std::string& path) {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    auto rs = compiler::compile_ruleset(path, compiler::compile_options{}, sources, sink);
    REQUIRE(rs.has_value());
    return *rs;
}

// A one-file ruleset written to a temporary folder (removed when the test ends).
struct temp_ruleset {
    std::filesystem::path dir;
    std::filesystem::path file;
    temp_ruleset(const std::string& name, const std::string& text) {
        dir = std::filesystem::temp_directory_path() /
              ("wp-engine-compiled-" + name + "-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        std::filesystem::create_directories(dir);
        file = dir / (name + ".wph");
        std::ofstream(file) << text;
    }
    ~temp_ruleset() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

const char* const no_player = R"(enum end_reason { done }
state {
  leader: player
  seen: 0..10 error = 0
}
state per player { gold: 0..10 error = 0 }
sequence game {
  seen = 1;
  seen = leader.gold + 1;
  end game done;
}
)";

const char* const rolls_and_zones = R"(enum end_reason { done }
record face { points: 0..9 error = 0 }
cards token of face {
  one "One" { points = 1 } x2
}
zone pile : ordered hidden of token
zone tray : per player public of token
state { leader: player  chip: token  seen: 0..10 error = 0 }
roll small() = 1d2;
roll big() = 1d6;
sequence game {
  seen = roll small() + roll big();
  seen = size(tray[leader]);
  end game done;
}
)";

const char* const no_entity = R"(enum end_reason { done }
record face { points: 0..9 error = 0 }
cards token of face {
  one "One" { points = 1 } x2
}
zone pile : ordered hidden of token
state { chip: token  seen: 0..10 error = 0 }
sequence game {
  seen = size(pile) + top(pile).points;
  seen = chip.points;
  end game done;
}
)";

// Operands read in place through a local (compile.hpp: local_attribute, local_player_value,
// local_player_zone), each with a value out of range; `{}` is replaced by the expression.
const char* const through_locals = R"(enum end_reason { done }
record face { points: 0..9 error = 0 }
cards token of face {
  one "One" { points = 1 } x2
}
zone pile : ordered hidden of token
zone tray : per player public of token
state { leader: player  chip: token  seen: 0..10 error = 0 }
state per player { gold: 0..10 error = 0 }
sequence game {
  let q = leader;
  let c = chip;
  seen = 1 + {};
  end game done;
}
)";

std::string with(const std::string& text, const std::string& expr) {
    std::string t = text;
    t.replace(t.find("{}"), 2, expr);
    return t;
}

engine::state_options explicit_chance() {
    engine::state_options o;
    o.sampled_chance = false;
    return o;
}

}  // namespace

TEST_CASE("engine: every IR node has a compiled form; reads of state and locals are specialised", "[engine][contractor]") {
    const engine::game g(compile_path(std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards"), 2);
    const ir::ruleset& rs = g.ruleset();
    REQUIRE(g.code.size() == rs.nodes.size());
    std::size_t specialised = 0, read_in_place = 0, through_local = 0;
    for (std::size_t n = 0; n < rs.nodes.size(); ++n) {
        const ir::op o = rs.nodes[n].code;
        // 0 is `generic` (the IR interpreter): none of these may fall back to it.
        if (o == ir::op::local || o == ir::op::const_int || o == ir::op::const_member || o == ir::op::global ||
            o == ir::op::player_field || o == ir::op::attribute || o == ir::op::add || o == ir::op::and_ ||
            o == ir::op::eq || o == ir::op::quantity || o == ir::op::roll) {
            CHECK(g.code[n].code != 0);
            ++specialised;
        }
        if (g.code[n].leaf != 0) ++read_in_place;
        for (unsigned i = 0; i < 3; ++i)
            if (((g.code[n].leaf >> (3 * i)) & 7u) >= 4) ++through_local;
    }
    CHECK(specialised > 100);
    CHECK(read_in_place > 100);  // `p.gold`, `c.kind == S`, `card_value(c, k)`: leaf operands
    CHECK(through_local > 20);   // `c.kind`, `p.gold`, `hand[q]` read through their local
}

TEST_CASE("engine: compiled operands are evaluated left to right", "[engine]") {
    const temp_ruleset t("rolls", rolls_and_zones);
    const engine::game g(compile_path(t.file.string()), 2);
    engine::state s(g, 1, explicit_chance());
    REQUIRE(s.is_chance_node());
    CHECK(s.chance_outcomes().size() == 2);  // roll small() (1d2), the left operand, first
    s.apply(1);
    REQUIRE(s.is_chance_node());
    CHECK(s.chance_outcomes().size() == 6);  // then roll big()
}

TEST_CASE("engine: errors in compiled expressions name the node and the value", "[engine]") {
    SECTION("a per-player slot of no player") {
        const temp_ruleset t("noplayer", no_player);
        const engine::game g(compile_path(t.file.string()), 2);
        CHECK_THROWS_WITH(engine::state(g, 1), Catch::Contains("noplayer.wph:9:10: slot gold of no player"));
    }
    SECTION("a per-player zone of no player") {
        const temp_ruleset t("zones", rolls_and_zones);
        const engine::game g(compile_path(t.file.string()), 2);
        engine::state_options sampled;
        sampled.sampled_chance = true;  // past the two rolls
        CHECK_THROWS_WITH(engine::state(g, 1, sampled), Catch::Contains("zones.wph:13:15: zone of no player"));
    }
    SECTION("through a local: an attribute of no entity") {
        const temp_ruleset t("localattr", with(through_locals, "c.points"));
        const engine::game g(compile_path(t.file.string()), 2);
        CHECK_THROWS_WITH(engine::state(g, 1), Catch::Contains("localattr.wph:13:14: attribute of no entity"));
    }
    SECTION("through a local: a per-player slot of no player") {
        const temp_ruleset t("localslot", with(through_locals, "q.gold"));
        const engine::game g(compile_path(t.file.string()), 2);
        CHECK_THROWS_WITH(engine::state(g, 1), Catch::Contains("localslot.wph:13:14: slot gold of no player"));
    }
    SECTION("through a local: a per-player zone of no player") {
        const temp_ruleset t("localzone", with(through_locals, "size(tray[q])"));
        const engine::game g(compile_path(t.file.string()), 2);
        CHECK_THROWS_WITH(engine::state(g, 1), Catch::Contains("localzone.wph:13:19: zone of no player"));
    }
    SECTION("an attribute of no entity") {
        const temp_ruleset t("noentity", no_entity);
        const engine::game g(compile_path(t.file.string()), 2);
        CHECK_THROWS_WITH(engine::state(g, 1), Catch::Contains("noentity.wph:10:10: attribute of no entity"));
    }
}
