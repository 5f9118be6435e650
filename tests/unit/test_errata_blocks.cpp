// Errata on the blocks of a procedure: `replace step P with B` and `insert before|after step P
// with B` — where the new block lands, which layer it belongs to, what the errata record says,
// that the engine runs the patched procedure, and the diagnostics of misuse.
#include "test_support.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

namespace fs = std::filesystem;
using namespace wp;

namespace {

using wp::test::temp_ruleset;

using compiled = wp::test::compiled_ruleset;

const char* const base_rules = R"(
state { score: 0..1000 error = 0  trail: 0..1000000 error = 0 }
event ping(p: player);
procedure note(d: int) { trail = trail * 10 + d; }
sequence game §L1 {
  setup { score = 0; }
  turn round §L1 {
    phase income §L2 {
      step collect §L2 { score += 1; note(1); }
      if score > 100 {
        step bonus §L3 { score += 100; }
      }
    }
    phase upkeep §L4 {
      step pay §L4 { score += 10; note(2); }
    }
  }
  end game done;
}
)";

std::unique_ptr<compiled> compile(const std::string& errata) {
    temp_ruleset folder({
        {"ruleset.wph", "ruleset t \"T\" {\n  players 1..2\n  outline \"outline.wph\"\n"
                        "  layer base : base { \"base.wph\" }\n  layer fix : errata { \"fix.wph\" }\n}\n"},
        {"outline.wph", "outline { §L1-9 \"All\" encoded }\n"},
        {"base.wph", base_rules},
        {"fix.wph", errata},
    });
    auto r = std::make_unique<compiled>();
    r->ir = compiler::compile_ruleset(folder.root(), {}, r->sources, r->sink);
    return r;
}

const ir::block* block_at(const ir::ruleset& rs, const std::string& path) {
    for (const ir::block& b : rs.blocks)
        if (b.path == path) return &b;
    return nullptr;
}

std::vector<std::string> paths(const ir::ruleset& rs) {
    std::vector<std::string> out;
    for (const ir::block& b : rs.blocks) out.push_back(b.path);
    return out;
}

// Runs the one-turn game (no decisions, no chance) and returns the digits `note` recorded.
std::int64_t trail_of(const ir::ruleset& rs) {
    const engine::game g(rs, 1);
    engine::state s(g, 1);
    REQUIRE(s.is_terminal());
    return s.slot_value("trail");
}

}  // namespace

TEST_CASE("errata blocks: replace and insert steps, in order, in the errata's layer", "[compiler][patch][errata-blocks]") {
    auto r = compile(R"(errata correction "sheet 1" §L2 {
  replace step game.round.income.collect with step collect §L2 { score += 2; note(3); }
  insert after step game.round.income.collect §L2 with step tithe §L2 { note(4); }
  insert before phase game.round.upkeep with phase muster §L4 { note(5); }
})");
    INFO(r->rendered());
    REQUIRE(r->ir);
    const ir::ruleset& rs = *r->ir;
    CHECK(paths(rs) == std::vector<std::string>{"game.setup", "game.round", "game.round.income",
                                                "game.round.income.collect", "game.round.income.tithe",
                                                "game.round.income.bonus", "game.round.muster", "game.round.upkeep",
                                                "game.round.upkeep.pay"});
    // The blocks an errata put in belong to its layer, with everything in them; the rest keeps the base.
    CHECK(block_at(rs, "game.round.income.collect")->prov.layer == 1);
    CHECK(block_at(rs, "game.round.income.tithe")->prov.layer == 1);
    CHECK(block_at(rs, "game.round.muster")->prov.layer == 1);
    CHECK(block_at(rs, "game.round.income")->prov.layer == 0);
    CHECK(block_at(rs, "game.round.upkeep.pay")->prov.layer == 0);
    const ir::node& collect = rs.nodes[block_at(rs, "game.round.income.collect")->node];
    CHECK(collect.layer == 1);
    CHECK(rs.nodes[rs.children[collect.first_child]].layer == 1);  // its statements too
    CHECK(rs.nodes[block_at(rs, "game.round.upkeep.pay")->node].layer == 0);
    // The sequence was last set by the errata layer.
    REQUIRE(rs.sequences.size() == 1);
    CHECK(rs.sequences[0].prov.layer == 1);
    // The errata record names the operation and the path, and points at the sequence.
    REQUIRE(rs.errata.size() == 3);
    CHECK(rs.errata[0].op == ir::errata_op_kind::replace_block);
    CHECK(rs.errata[0].target == "game.round.income.collect");
    CHECK(rs.errata[0].result_kind == ir::element_kind::sequence);
    CHECK(rs.errata[0].result == 0);
    CHECK(rs.errata[1].op == ir::errata_op_kind::insert_block);
    CHECK(std::string(ir::name_of(rs.errata[2].op)) == "insert-block");
    // The engine runs the patched procedure: collect (3), tithe (4), muster (5), pay (2).
    CHECK(trail_of(rs) == 3452);
    CHECK(rs.errata[0].prov.anchors.size() == 1);
}

TEST_CASE("errata blocks: without errata the base procedure runs", "[compiler][patch][errata-blocks]") {
    auto r = compile("errata clarification \"nothing\" §L1 { }\n");
    INFO(r->rendered());
    REQUIRE(r->ir);
    CHECK(trail_of(*r->ir) == 12);
}

TEST_CASE("errata blocks: a replaced block can be replaced again, and blocks of procedures too", "[compiler][patch][errata-blocks]") {
    auto r = compile(R"(errata correction "sheet 1" §L2 {
  replace step game.round.upkeep.pay with step pay { note(7); }
  replace step game.round.upkeep.pay with step pay_twice { note(8); note(8); }
  replace phase game.round.income with phase income { step inner { note(9); } }
  insert after step game.round.income.inner with step after_inner { note(6); }
})");
    INFO(r->rendered());
    REQUIRE(r->ir);
    const ir::ruleset& rs = *r->ir;
    CHECK(block_at(rs, "game.round.upkeep.pay") == nullptr);
    REQUIRE(block_at(rs, "game.round.upkeep.pay_twice"));
    CHECK(block_at(rs, "game.round.income.collect") == nullptr);  // gone with the phase replaced
    CHECK(block_at(rs, "game.round.income.inner")->prov.layer == 1);
    CHECK(trail_of(rs) == 9688);
}

TEST_CASE("errata blocks: misuse is reported", "[compiler][patch][errata-blocks]") {
    SECTION("an unknown path, with the nearest path suggested") {
        auto r = compile("errata correction \"s\" { replace step game.round.income.colect with step collect { } }\n");
        CHECK_FALSE(r->ir);
        CHECK(r->has(dsl::diag_kind::errata_target_missing));
        CHECK(r->rendered().find("did you mean `game.round.income.collect`?") != std::string::npos);
    }
    SECTION("the word does not match the block") {
        auto r = compile("errata correction \"s\" { replace phase game.round.income.collect with phase collect { } }\n");
        CHECK(r->has(dsl::diag_kind::wrong_kind_of_name));
        CHECK(r->rendered().find("is a step, not a phase") != std::string::npos);
    }
    SECTION("a step replaced by a phase") {
        auto r = compile("errata correction \"s\" { replace step game.round.upkeep.pay with phase pay { } }\n");
        CHECK(r->has(dsl::diag_kind::wrong_kind_of_name));
    }
    SECTION("an inserted block whose path is taken") {
        auto r = compile("errata correction \"s\" { insert after step game.round.upkeep.pay with step pay { } }\n");
        CHECK(r->has(dsl::diag_kind::duplicate_name));
    }
    SECTION("a path that does not start with a sequence or a procedure") {
        auto r = compile("errata correction \"s\" { insert after step ping.x with step y { } }\n");
        CHECK(r->has(dsl::diag_kind::wrong_kind_of_name));
        CHECK(r->rendered().find("`ping` is a") != std::string::npos);
    }
    SECTION("anchors inside an inserted block are checked against the outline") {
        auto r = compile("errata correction \"s\" { insert after step game.round.upkeep.pay with step y §L99 { } }\n");
        CHECK(r->has(dsl::diag_kind::unknown_anchor));
    }
    SECTION("blocks in procedures are found by the procedure's name") {
        auto r = compile("errata correction \"s\" { insert after step note.nothing with step y { } }\n");
        CHECK(r->has(dsl::diag_kind::errata_target_missing));
    }
}
