// The parser: one example of every construct in docs/language.md, checked on the syntax tree,
// plus UTF-8, keyword boundaries and every syntax-level diagnostic.
#include "westphalia/dsl/ast_dump.hpp"
#include "westphalia/dsl/parser.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

namespace {

using namespace wp::dsl;

struct parsed {
    source_manager sources;
    diagnostic_sink sink;
    std::optional<file> tree;
    std::uint32_t id = 0;
};

std::unique_ptr<parsed> run(const std::string& text) {
    auto p = std::make_unique<parsed>();
    p->id = p->sources.add("test.wph", text);
    p->tree = parse(p->sources, p->id, p->sink);
    return p;
}

// Parses text that must be valid; returns its declarations.
const std::vector<decl>& ok(const std::unique_ptr<parsed>& p) {
    if (!p->tree) {
        for (const auto& d : p->sink.all()) FAIL_CHECK(d.message << " at byte " << (d.where ? d.where->begin : 0));
    }
    REQUIRE(p->tree);
    CHECK(p->sink.all().empty());
    return p->tree->decls;
}

template <typename T>
T only(const std::unique_ptr<parsed>& p) {
    const auto& decls = ok(p);
    REQUIRE(decls.size() == 1);
    REQUIRE(std::holds_alternative<T>(decls[0].node));
    return std::get<T>(decls[0].node);
}

// The single diagnostic of a failing parse.
diagnostic fails(const std::unique_ptr<parsed>& p) {
    CHECK_FALSE(p->tree);
    REQUIRE(p->sink.all().size() == 1);
    return p->sink.all().front();
}

std::string dump_of(const std::unique_ptr<parsed>& p) {
    std::ostringstream out;
    dump(out, *p->tree, p->sources);
    return out.str();
}

// Compact rendering of expressions for assertions (independent of ast_dump's format).
std::string sx(const expr& e) {
    auto args = [&](std::size_t from = 0) {
        std::string s;
        for (std::size_t i = from; i < e.args.size(); ++i) s += " " + sx(e.args[i]);
        return s;
    };
    switch (e.kind) {
        case expr_kind::none: return "_";
        case expr_kind::integer: return std::to_string(e.value);
        case expr_kind::boolean: return e.value ? "true" : "false";
        case expr_kind::string: return "\"" + e.text + "\"";
        case expr_kind::dice:
            return std::to_string(e.dice.count) + "d[" + std::to_string(e.dice.low) + ".." + std::to_string(e.dice.high) + "]";
        case expr_kind::name: return e.text;
        case expr_kind::option_ref: return "option." + e.text;
        case expr_kind::member: return "(." + args() + " " + e.text + ")";
        case expr_kind::index: return "([]" + args() + ")";
        case expr_kind::call: return "(" + e.text + args() + ")";
        case expr_kind::roll: return "(roll " + e.text + args() + ")";
        case expr_kind::unary:
        case expr_kind::binary: return "(" + e.text + args() + ")";
        case expr_kind::conditional: return "(if" + args() + ")";
        case expr_kind::aggregate: return "(" + e.text + " " + e.binder.text + args() + ")";
        case expr_kind::range: return "(.." + args() + ")";
        case expr_kind::dice_count: return "(dice" + args() + " " + std::to_string(e.dice.low) + ".." + std::to_string(e.dice.high) + ")";
    }
    return "?";
}

std::string text_at(const std::unique_ptr<parsed>& p, span s) {
    return p->sources.get(p->id).text.substr(s.begin, s.end - s.begin);
}

// The expression of `roll r = <text>;`.
expr expression(const std::string& text) {
    auto p = run("roll r = " + text + ";");
    return only<roll_decl>(p).dice;
}

}  // namespace

// ------------------------------------------------------------------ lexical

TEST_CASE("an empty file or one with only comments has no declarations", "[parser]") {
    CHECK(ok(run("")).empty());
    CHECK(ok(run("  // nothing here\n\n// see errata 2009\n")).empty());
}

TEST_CASE("UTF-8 names and strings", "[parser]") {
    auto p = run("enum land { Österreich \"Österreich\", Böhmen }\nmap m : areas { area lützen \"Lützen\" }");
    const auto& decls = ok(p);
    const auto& e = std::get<enum_decl>(decls[0].node);
    REQUIRE(e.members.size() == 2);
    CHECK(e.members[0].id.text == "Österreich");
    CHECK(e.members[0].label == std::optional<std::string>("Österreich"));
    CHECK(e.members[1].id.text == "Böhmen");
    const auto& m = std::get<map_decl>(decls[1].node);
    CHECK(m.nodes[0].id.text == "lützen");
    CHECK(m.nodes[0].display == "Lützen");
    CHECK(text_at(p, m.nodes[0].id.where) == "lützen");
}

TEST_CASE("keywords are whole words: keyword-prefixed names are names", "[parser]") {
    auto p = run("roll rolls = 1d6;\nstate { cardsx: int = 0 count: int = 1 }\n"
                 "action a { rolls = roll rolls; cardsx += 1; turnover = 2; }");
    const auto& decls = ok(p);
    CHECK(std::get<roll_decl>(decls[0].node).id.text == "rolls");
    const auto& st = std::get<state_decl>(decls[1].node);
    CHECK(st.fields[0].id.text == "cardsx");
    CHECK(st.fields[1].id.text == "count");
    const auto& a = std::get<action_decl>(decls[2].node);
    REQUIRE(a.body.size() == 3);
    CHECK(a.body[0].kind == stmt_kind::assign);
    CHECK(sx(a.body[0].exprs[0]) == "rolls");
    CHECK(sx(a.body[0].exprs[1]) == "(roll rolls)");
    CHECK(sx(a.body[1].exprs[0]) == "cardsx");
    CHECK(sx(a.body[2].exprs[0]) == "turnover");
}

TEST_CASE("strings with escapes", "[parser]") {
    const auto m = only<missing_decl>(run(R"(missing x "a \"quoted\" back\\slash";)"));
    CHECK(m.what == "a \"quoted\" back\\slash");
}

TEST_CASE("anchors: sections, lines, ranges, en dash, several", "[parser]") {
    auto p = run("event e §9.14 §L52 §L52-54 §14.2-14.4 §14.2\xE2\x80\x93" "14.4;");
    const auto e = only<event_decl>(p);
    REQUIRE(e.anchors.size() == 5);
    CHECK(e.anchors[0].first == "9.14");
    CHECK(e.anchors[0].last.empty());
    CHECK(e.anchors[1].first == "L52");
    CHECK(e.anchors[2].first == "L52");
    CHECK(e.anchors[2].last == "54");
    CHECK(e.anchors[3].first == "14.2");
    CHECK(e.anchors[3].last == "14.4");
    CHECK(e.anchors[4].first == "14.2");
    CHECK(e.anchors[4].last == "14.4");
    CHECK(text_at(p, e.anchors[2].where) == "§L52-54");
}

TEST_CASE("spans carry the file id and byte offsets", "[parser]") {
    source_manager sources;
    diagnostic_sink sink;
    sources.add("other.wph", "");
    const auto id = sources.add("x.wph", "\n  roll r = 1d6 + 2;");
    auto f = parse(sources, id, sink);
    REQUIRE(f);
    CHECK(f->id == id);
    const auto& r = std::get<roll_decl>(f->decls[0].node);
    CHECK(r.where.file == id);
    CHECK(r.where.begin == 3);
    CHECK(r.where.end == 20);
    CHECK(r.id.where.file == id);
    CHECK(r.dice.where.file == id);
    CHECK(r.dice.args[0].where.file == id);
    CHECK(sources.get(id).text.substr(r.dice.where.begin, r.dice.where.end - r.dice.where.begin) == "1d6 + 2");
}

TEST_CASE("spans of expressions, statements and cells cover their text", "[parser]") {
    auto p = run("action a { draw n from deck to hand[p]; p.gold += f(1, 2) * 3; }\n"
                 "table t : key k: int {\n  1 \"one\" { x = 1; }\n  2 : A { y = 2 }, \"B\"\n}");
    const auto& d = ok(p);
    const auto& a = std::get<action_decl>(d[0].node);
    CHECK(text_at(p, a.body[0].where) == "draw n from deck to hand[p];");
    CHECK(text_at(p, a.body[0].exprs[2].where) == "hand[p]");
    CHECK(text_at(p, a.body[1].exprs[0].where) == "p.gold");
    CHECK(text_at(p, a.body[1].exprs[1].where) == "f(1, 2) * 3");
    CHECK(text_at(p, a.body[1].exprs[1].args[0].where) == "f(1, 2)");
    const auto& t = std::get<table_decl>(d[1].node);
    CHECK(text_at(p, t.rows[0].where) == "1 \"one\" { x = 1; }");
    CHECK(text_at(p, t.rows[0].cells[0].where) == "{ x = 1; }");
    CHECK(text_at(p, t.rows[1].cells[0].where) == "A { y = 2 }");
    CHECK(text_at(p, t.rows[1].cells[1].where) == "\"B\"");
    CHECK(text_at(p, t.rows[0].key.where) == "1");
}

// ------------------------------------------------------------------ 1. outline

TEST_CASE("outline", "[parser]") {
    const auto o = only<outline_decl>(run(R"(outline {
  §L1-8     "Players, theme and components"       flavour
  §L12-15   "Setup"                               encoded
  §9.14     "Line of sight"                       missing-data
})"));
    REQUIRE(o.entries.size() == 3);
    CHECK(o.entries[0].section.first == "L1");
    CHECK(o.entries[0].section.last == "8");
    CHECK(o.entries[0].title == "Players, theme and components");
    CHECK(o.entries[0].status.text == "flavour");
    CHECK(o.entries[1].status.text == "encoded");
    CHECK(o.entries[2].section.first == "9.14");
    CHECK(o.entries[2].status.text == "missing-data");
}

// ------------------------------------------------------------------ 2. types and state

TEST_CASE("enum with anchors and labels", "[parser]") {
    const auto e = only<enum_decl>(run("enum arm §L24-34 { Infantry \"I\", Cavalry \"C\", Artillery } aid \"Arms.\""));
    CHECK(e.id.text == "arm");
    REQUIRE(e.anchors.size() == 1);
    REQUIRE(e.members.size() == 3);
    CHECK(e.members[0].label == std::optional<std::string>("I"));
    CHECK_FALSE(e.members[2].label);
    CHECK(e.aid == std::optional<std::string>("Arms."));
}

TEST_CASE("type aliases: ranges with policies, maps, lists, names", "[parser]") {
    auto p = run("type reputation §L40-41 = -3..3 clamp\ntype gold = 0..100000 error\ntype plain = 1..6\n"
                 "type table_of = trait -> 0..13 error;\ntype hand = list of card\ntype b = bool");
    const auto& d = ok(p);
    REQUIRE(d.size() == 6);
    const auto& t0 = std::get<type_decl>(d[0].node);
    CHECK(t0.type.kind == type_kind::range);
    CHECK(t0.type.lo == -3);
    CHECK(t0.type.hi == 3);
    CHECK(t0.type.policy == overflow_policy::clamp);
    CHECK(std::get<type_decl>(d[1].node).type.policy == overflow_policy::error);
    CHECK(std::get<type_decl>(d[2].node).type.policy == overflow_policy::unspecified);
    const auto& t3 = std::get<type_decl>(d[3].node).type;
    CHECK(t3.kind == type_kind::map_of);
    REQUIRE(t3.args.size() == 2);
    CHECK(t3.args[0].id.text == "trait");
    CHECK(t3.args[1].hi == 13);
    const auto& t4 = std::get<type_decl>(d[4].node).type;
    CHECK(t4.kind == type_kind::list_of);
    CHECK(t4.args[0].id.text == "card");
    CHECK(std::get<type_decl>(d[5].node).type.id.text == "bool");
}

TEST_CASE("record with fields and defaults", "[parser]") {
    const auto r = only<record_decl>(run("record unit_face { arm: arm, strength: 0..9 error = 0 }"));
    REQUIRE(r.fields.size() == 2);
    CHECK(r.fields[0].type.id.text == "arm");
    CHECK_FALSE(r.fields[0].init);
    REQUIRE(r.fields[1].init);
    CHECK(r.fields[1].init->value == 0);
}

TEST_CASE("state: global, per player, per entity; flag and counter", "[parser]") {
    auto p = run(R"(state §L15 {
  deck_exhaustions: 0..2 error = 0
  winner_found: bool = false
  used_1648: flag
  turn: counter
}
state per player {
  reputation: reputation = -1                §L37
  traits: trait -> 0..13 error = 0
}
state per card { undisciplined: bool = false })");
    const auto& d = ok(p);
    REQUIRE(d.size() == 3);
    const auto& g = std::get<state_decl>(d[0].node);
    CHECK_FALSE(g.per);
    REQUIRE(g.fields.size() == 4);
    CHECK(g.fields[1].init->kind == expr_kind::boolean);
    CHECK(g.fields[2].type.kind == type_kind::flag);
    CHECK(g.fields[3].type.kind == type_kind::counter);
    const auto& pp = std::get<state_decl>(d[1].node);
    REQUIRE(pp.per);
    CHECK(pp.per->text == "player");
    CHECK(pp.fields[0].init->value == -1);
    REQUIRE(pp.fields[0].anchors.size() == 1);
    CHECK(pp.fields[0].anchors[0].first == "L37");
    CHECK(pp.fields[1].type.kind == type_kind::map_of);
    CHECK(std::get<state_decl>(d[2].node).per->text == "card");
}

TEST_CASE("hidden fields: a player's own, and entries hidden by side or by player", "[parser][secrets]") {
    // docs/language.md §2: `hidden [by F] [if option.O] name: T`; a field named `hidden` or `by` stays one
    auto p = run(R"(state per player { hidden reserves: 0..20 = 0, hidden: bool = false, hidden by: bool = false }
state per hex {
  hidden by camp if option.fog_of_war inf: side -> 0..400 = 0
  hidden by camp cav: side -> 0..400 = 0
}
state { hidden if option.fog scouts: player -> 0..3 = 0 })");
    const auto& d = ok(p);
    REQUIRE(d.size() == 3);
    const auto& pp = std::get<state_decl>(d[0].node).fields;
    REQUIRE(pp.size() == 3);
    CHECK(pp[0].hidden);
    CHECK_FALSE(pp[0].hidden_by);
    CHECK_FALSE(pp[1].hidden);
    CHECK(pp[1].id.text == "hidden");
    CHECK(pp[2].hidden);
    CHECK(pp[2].id.text == "by");
    CHECK_FALSE(pp[2].hidden_by);
    const auto& hex = std::get<state_decl>(d[1].node).fields;
    REQUIRE(hex.size() == 2);
    CHECK(hex[0].hidden);
    REQUIRE(hex[0].hidden_by);
    CHECK(hex[0].hidden_by->text == "camp");
    REQUIRE(hex[0].hidden_if);
    CHECK(hex[0].hidden_if->text == "fog_of_war");
    CHECK(hex[0].id.text == "inf");
    CHECK(hex[0].type.kind == type_kind::map_of);
    CHECK_FALSE(hex[1].hidden_if);
    const auto& g = std::get<state_decl>(d[2].node).fields;
    REQUIRE(g.size() == 1);
    CHECK_FALSE(g[0].hidden_by);
    REQUIRE(g[0].hidden_if);
    CHECK(g[0].hidden_if->text == "fog");
    CHECK(g[0].id.text == "scouts");
    CHECK_FALSE(g[0].hidden_unless);
}

TEST_CASE("parser: `hidden ... unless F` names the field that shows it; a field named `unless` stays one", "[parser]") {
    // docs/language.md §2, "Shown while a field is set"
    auto p = run(R"(state per hex {
  in_battle: bool = false
  hidden by camp if option.fog_of_war unless in_battle inf: side -> 0..400 = 0
  hidden unless: bool = false
  hidden by camp unless in_battle cav: side -> 0..400 = 0
})");
    const auto& d = ok(p);
    const auto& hex = std::get<state_decl>(d[0].node).fields;
    REQUIRE(hex.size() == 4);
    REQUIRE(hex[1].hidden_unless);
    CHECK(hex[1].hidden_unless->text == "in_battle");
    CHECK(hex[1].hidden_if->text == "fog_of_war");
    CHECK(hex[1].id.text == "inf");
    CHECK(hex[2].hidden);
    CHECK(hex[2].id.text == "unless");
    CHECK_FALSE(hex[2].hidden_unless);
    REQUIRE(hex[3].hidden_unless);
    CHECK_FALSE(hex[3].hidden_if);
    CHECK(hex[3].hidden_by->text == "camp");
}

// ------------------------------------------------------------------ 3. components

TEST_CASE("cards and pieces", "[parser]") {
    auto p = run(R"(cards card of card_face §L126-181 {
  spanish_ruler "Spanish Ruler of Netherlands" { kind = Employer } x1
  pikemen       "Pikemen"                      { kind = Infantry } x3
  retainer      "Retainer"                     { kind = Negotiations, renewal = 2 }
}
pieces leader of leader_data §11.1 standin "our own ratings" {
  tilly "Tilly" { rating = 2, side = Imperial } §11.2
})");
    const auto& d = ok(p);
    const auto& c = std::get<entities_decl>(d[0].node);
    CHECK_FALSE(c.pieces);
    CHECK(c.id.text == "card");
    CHECK(c.record.text == "card_face");
    REQUIRE(c.entries.size() == 3);
    CHECK(c.entries[0].display == "Spanish Ruler of Netherlands");
    CHECK(c.entries[0].count == 1);
    CHECK(c.entries[1].count == 3);
    CHECK(c.entries[2].count == 1);
    REQUIRE(c.entries[2].values.size() == 2);
    CHECK(c.entries[2].values[1].field.text == "renewal");
    CHECK(c.entries[2].values[1].value.value == 2);
    const auto& pc = std::get<entities_decl>(d[1].node);
    CHECK(pc.pieces);
    CHECK(pc.standin == std::optional<std::string>("our own ratings"));
    CHECK(pc.entries[0].anchors.size() == 1);
}

TEST_CASE("zones", "[parser]") {
    auto p = run("zone deck : ordered hidden of card §L10\nzone discard : public of card;\n"
                 "zone hand : per player owner of card\nzone pool : of card");
    const auto& d = ok(p);
    const auto& deck = std::get<zone_decl>(d[0].node);
    CHECK(deck.ordered);
    CHECK(deck.vis == visibility::hidden);
    CHECK(deck.of.text == "card");
    CHECK(deck.anchors.size() == 1);
    CHECK(std::get<zone_decl>(d[1].node).vis == visibility::public_);
    const auto& hand = std::get<zone_decl>(d[2].node);
    CHECK(hand.per_player);
    CHECK(hand.vis == visibility::owner);
    CHECK_FALSE(hand.ordered);
    CHECK(std::get<zone_decl>(d[3].node).vis == visibility::public_);
}

// ------------------------------------------------------------------ 4. maps

TEST_CASE("area maps and hex grids", "[parser]") {
    auto p = run(R"(map germany : areas §3.0 {
  area bohemia "Böhmen" { region = east }
  area saxony  "Sachsen"
  edge bohemia -- saxony : pathway
  edge denmark -> holstein : sea
}
map freiburg : hexgrid standin "our invented map" {
  hex 0101 : Clear
  hex 0102 : Woods { hilltop = true }
  hexside 0101 0102 : River
  hexside 0102 0103 : Stream, Bridge
})");
    const auto& d = ok(p);
    const auto& g = std::get<map_decl>(d[0].node);
    CHECK(g.kind.text == "areas");
    REQUIRE(g.nodes.size() == 2);
    CHECK(g.nodes[0].display == "Böhmen");
    CHECK(g.nodes[0].values[0].field.text == "region");
    REQUIRE(g.edges.size() == 2);
    CHECK_FALSE(g.edges[0].directed);
    CHECK(g.edges[1].directed);
    CHECK(g.edges[1].kinds[0].text == "sea");
    const auto& h = std::get<map_decl>(d[1].node);
    CHECK(h.kind.text == "hexgrid");
    CHECK(h.standin == std::optional<std::string>("our invented map"));
    CHECK(h.nodes[0].id.text == "0101");
    REQUIRE(h.nodes[0].terrain);
    CHECK(h.nodes[0].terrain->text == "Clear");
    CHECK(h.nodes[1].values[0].value.kind == expr_kind::boolean);
    CHECK(h.edges[0].a.text == "0101");
    CHECK(h.edges[0].b.text == "0102");
    REQUIRE(h.edges[1].kinds.size() == 2);
    CHECK(h.edges[1].kinds[1].text == "Bridge");
}

// ------------------------------------------------------------------ 5. sequence and statements

TEST_CASE("sequence with setup, named blocks and loops", "[parser]") {
    auto p = run(R"(sequence game §L43-50 {
  setup §L12-15 {
    shuffle deck;
    deal 5 from deck to hand;
    for each p in players { p.gold = roll starting_gold; }
  }
  repeat {
    for each p in players from first_player {
      turn {
        phase fate §L52-54 {
          let n = roll draw_roll(p);
          draw n from deck to hand[p];
        }
        step tidy { }
      }
    }
  } until game_over;
})");
    const auto s = only<sequence_decl>(p);
    CHECK(s.id.text == "game");
    REQUIRE(s.body.size() == 2);
    const auto& setup = s.body[0];
    CHECK(setup.kind == stmt_kind::block);
    CHECK(setup.word == "setup");
    CHECK(setup.id.text.empty());
    CHECK(setup.anchors.size() == 1);
    REQUIRE(setup.body.size() == 3);
    CHECK(setup.body[0].kind == stmt_kind::shuffle);
    CHECK(sx(setup.body[0].exprs[0]) == "deck");
    CHECK(setup.body[1].kind == stmt_kind::deal);
    CHECK(sx(setup.body[1].exprs[0]) == "5");
    CHECK(sx(setup.body[1].exprs[1]) == "deck");
    CHECK(sx(setup.body[1].exprs[2]) == "hand");
    const auto& loop = setup.body[2];
    CHECK(loop.kind == stmt_kind::for_each);
    CHECK(loop.id.text == "p");
    REQUIRE(loop.exprs.size() == 1);
    CHECK(loop.body[0].kind == stmt_kind::assign);
    CHECK(loop.body[0].word == "=");
    CHECK(sx(loop.body[0].exprs[0]) == "(. p gold)");
    CHECK(sx(loop.body[0].exprs[1]) == "(roll starting_gold)");
    const auto& rep = s.body[1];
    CHECK(rep.kind == stmt_kind::repeat_until);
    CHECK(sx(rep.exprs[0]) == "game_over");
    const auto& each = rep.body[0];
    REQUIRE(each.exprs.size() == 2);
    CHECK(sx(each.exprs[1]) == "first_player");
    const auto& turn = each.body[0];
    CHECK(turn.word == "turn");
    const auto& fate = turn.body[0];
    CHECK(fate.word == "phase");
    CHECK(fate.id.text == "fate");
    CHECK(fate.anchors[0].last == "54");
    CHECK(fate.body[0].kind == stmt_kind::let);
    CHECK(fate.body[0].id.text == "n");
    CHECK(sx(fate.body[0].exprs[0]) == "(roll draw_roll p)");
    CHECK(fate.body[1].kind == stmt_kind::draw);
    CHECK(sx(fate.body[1].exprs[2]) == "([] hand p)");
    CHECK(turn.body[1].word == "step");
    CHECK(turn.body[1].id.text == "tidy");
    // the dump shows statements with line:col
    const std::string d = dump_of(p);
    CHECK(d.find("sequence game §L43-50 @1:1") != std::string::npos);
    CHECK(d.find("shuffle deck @3:5") != std::string::npos);
}

TEST_CASE("every statement kind", "[parser]") {
    auto p = run(R"(procedure all_statements(p: player, n: int) §L1 {
  let x = 1;
  x = 2; x += 3; reputation[p] -= 1; p.gold = 0;
  if n > 0 { emit lost(p); } else if n < 0 { do seek(p, c); } else { resolve campaign_outcome(p); }
  if a { }
  while n > 0 { n -= 1; }
  shuffle deck;
  draw 2 from deck to hand[p];
  deal 5 from deck to hand;
  move c from hand[p] to discard;
  reshuffle discard into deck;
  choose c in army[p] by p where c.strength > 1 { move c from army[p] to discard; }
  choose one_of in army[p] { }
  choose subset cs of army[p] by p where count(cs) <= 2 { }
  choose order os of army[p] by p { }
  may by p "pay one gold" { p.gold -= 1; }
  may "look" { }
  lose_units(p, 1d6 + 2);
  end game exhausted;
  end game deck_out at end of round;
  end game deck_out2 at end of turn;
})");
    const auto pr = only<procedure_decl>(p);
    CHECK(pr.params.size() == 2);
    const auto& b = pr.body;
    REQUIRE(b.size() == 23);
    CHECK(b[0].kind == stmt_kind::let);
    for (int i = 1; i <= 4; ++i) CHECK(b[static_cast<std::size_t>(i)].kind == stmt_kind::assign);
    CHECK(b[2].word == "+=");
    CHECK(b[3].word == "-=");
    CHECK(sx(b[3].exprs[0]) == "([] reputation p)");
    // if / else if / else
    const auto& iff = b[5];
    CHECK(iff.kind == stmt_kind::if_else);
    CHECK(sx(iff.exprs[0]) == "(> n 0)");
    CHECK(iff.body[0].kind == stmt_kind::emit);
    CHECK(iff.body[0].id.text == "lost");
    REQUIRE(iff.else_body.size() == 1);
    const auto& elif = iff.else_body[0];
    CHECK(elif.kind == stmt_kind::if_else);
    CHECK(elif.body[0].kind == stmt_kind::do_action);
    CHECK(elif.body[0].id.text == "seek");
    CHECK(elif.body[0].exprs.size() == 2);
    CHECK(elif.else_body[0].kind == stmt_kind::resolve);
    CHECK(elif.else_body[0].id.text == "campaign_outcome");
    CHECK(b[6].else_body.empty());
    CHECK(b[7].kind == stmt_kind::while_loop);
    CHECK(b[8].kind == stmt_kind::shuffle);
    CHECK(b[9].kind == stmt_kind::draw);
    CHECK(b[10].kind == stmt_kind::deal);
    CHECK(b[11].kind == stmt_kind::move);
    CHECK(b[12].kind == stmt_kind::reshuffle);
    CHECK(sx(b[12].exprs[1]) == "deck");
    // choose: exprs = {set, by|none, where|none}
    const auto& ch = b[13];
    CHECK(ch.kind == stmt_kind::choose);
    CHECK(ch.word == "one");
    CHECK(ch.id.text == "c");
    REQUIRE(ch.exprs.size() == 3);
    CHECK(sx(ch.exprs[1]) == "p");
    CHECK(sx(ch.exprs[2]) == "(> (. c strength) 1)");
    CHECK(b[14].word == "one");
    CHECK(b[14].exprs[1].kind == expr_kind::none);
    CHECK(b[14].exprs[2].kind == expr_kind::none);
    CHECK(b[15].word == "subset");
    CHECK(b[15].id.text == "cs");
    CHECK(b[16].word == "order");
    CHECK(b[16].exprs[2].kind == expr_kind::none);
    // may [by p] "what"
    CHECK(b[17].kind == stmt_kind::may);
    CHECK(sx(b[17].exprs[0]) == "p");
    CHECK(b[17].word == "pay one gold");
    CHECK(b[18].exprs[0].kind == expr_kind::none);
    // procedure call
    CHECK(b[19].kind == stmt_kind::call);
    CHECK(b[19].id.text == "lose_units");
    CHECK(sx(b[19].exprs[1]) == "(+ 1d[1..6] 2)");
    // end game
    CHECK(b[20].kind == stmt_kind::end_game);
    CHECK(b[20].id.text == "exhausted");
    CHECK(b[20].word.empty());
    CHECK(b[21].word == "round");
    CHECK(b[22].word == "turn");
}

TEST_CASE("action with a guard", "[parser]") {
    const auto a = only<action_decl>(run(R"(action seek_employment(p: player, c: card) §L56-57
  when c in hand[p] and c.kind == Employer and not p.employed {
  move c from hand[p] to employer_slot[p];
} aid "Hire a contractor.")"));
    CHECK(a.params[1].type.id.text == "card");
    REQUIRE(a.guard);
    CHECK(sx(*a.guard) == "(and (and (in c ([] hand p)) (== (. c kind) Employer)) (not (. p employed)))");
    CHECK(a.body[0].kind == stmt_kind::move);
    CHECK(a.aid == std::optional<std::string>("Hire a contractor."));
}

// ------------------------------------------------------------------ 7. chance

TEST_CASE("rolls and dice", "[parser]") {
    auto p = run(R"(roll starting_gold §L15 = 2d6;
roll draw_roll(p: player) §L52 = 1d6;
roll revenue_roll(p: player) §L70-72 = 1d3 - 1;
roll loot(p: player) = 1d[0..9] aid "A d10 read 0-9.";)");
    const auto& d = ok(p);
    const auto& r0 = std::get<roll_decl>(d[0].node);
    CHECK(r0.params.empty());
    CHECK(r0.dice.kind == expr_kind::dice);
    CHECK(r0.dice.dice.count == 2);
    CHECK(r0.dice.dice.low == 1);
    CHECK(r0.dice.dice.high == 6);
    const auto& r2 = std::get<roll_decl>(d[2].node);
    CHECK(sx(r2.dice) == "(- 1d[1..3] 1)");
    const auto& r3 = std::get<roll_decl>(d[3].node);
    CHECK(r3.dice.dice.low == 0);
    CHECK(r3.dice.dice.high == 9);
    CHECK(r3.aid);
}

// ------------------------------------------------------------------ expressions

TEST_CASE("expression precedence and associativity", "[parser]") {
    CHECK(sx(expression("a or b and not c == d + e * -f")) == "(or a (and b (not (== c (+ d (* e (- f)))))))");
    CHECK(sx(expression("1 - 2 - 3")) == "(- (- 1 2) 3)");
    CHECK(sx(expression("a / b % c * d")) == "(* (% (/ a b) c) d)");
    CHECK(sx(expression("(1 + 2) * 3")) == "(* (+ 1 2) 3)");
    CHECK(sx(expression("a != b")) == "(!= a b)");
    CHECK(sx(expression("a < b")) == "(< a b)");
    CHECK(sx(expression("a <= b")) == "(<= a b)");
    CHECK(sx(expression("a > b")) == "(> a b)");
    CHECK(sx(expression("a >= -3")) == "(>= a -3)");
    CHECK(sx(expression("Bridge in hexside(a, b)")) == "(in Bridge (hexside a b))");
    CHECK(sx(expression("not not x")) == "(not (not x))");
    CHECK(sx(expression("-(a)")) == "(- a)");
}

TEST_CASE("primary expressions", "[parser]") {
    CHECK(expression("42").value == 42);
    CHECK(expression("-3").value == -3);
    CHECK(expression("true").kind == expr_kind::boolean);
    CHECK(expression("false").value == 0);
    CHECK(expression("\"Great Victory\"").text == "Great Victory");
    CHECK(sx(expression("option.end_timing")) == "option.end_timing");
    CHECK(expression("option.end_timing").kind == expr_kind::option_ref);
    CHECK(sx(expression("roll campaign_roll(p)")) == "(roll campaign_roll p)");
    CHECK(sx(expression("roll starting_gold")) == "(roll starting_gold)");
    CHECK(sx(expression("if a then 1 else 2")) == "(if a 1 2)");
    CHECK(sx(expression("p.traits[Strategy]")) == "([] (. p traits) Strategy)");
    CHECK(sx(expression("a.b.c")) == "(. (. a b) c)");
    CHECK(sx(expression("ceil_div(a, floor_div(b, 2))")) == "(ceil_div a (floor_div b 2))");
    CHECK(sx(expression("odds(attack, defence)")) == "(odds attack defence)");
    CHECK(sx(expression("active_player")) == "active_player");
    CHECK(sx(expression("top(deck)")) == "(top deck)");
    CHECK(sx(expression("1d6+2")) == "(+ 1d[1..6] 2)");
    CHECK(sx(expression("1d3-1")) == "(- 1d[1..3] 1)");
}

TEST_CASE("aggregates and the built-in count/min/max calls", "[parser]") {
    CHECK(sx(expression("any(u in army[p] : u.arm == Infantry)")) == "(any u ([] army p) (== (. u arm) Infantry))");
    CHECK(sx(expression("all(p in players : reputation[p] >= -3)")) == "(all p players (>= ([] reputation p) -3))");
    CHECK(sx(expression("count(u in army[p] : u.undisciplined)")) == "(count u ([] army p) (. u undisciplined))");
    CHECK(sx(expression("sum(u in army[p] : u.strength)")) == "(sum u ([] army p) (. u strength))");
    CHECK(sx(expression("min(u in army[p] : u.strength)")) == "(min u ([] army p) (. u strength))");
    CHECK(sx(expression("max(u in army[p] : u.strength)")) == "(max u ([] army p) (. u strength))");
    CHECK(sx(expression("count(army[p])")) == "(count ([] army p))");
    CHECK(sx(expression("min(a, b)")) == "(min a b)");
    CHECK(sx(expression("max(a, b)")) == "(max a b)");
    const auto agg = expression("any(u in army[p] : u.undisciplined)");
    CHECK(agg.kind == expr_kind::aggregate);
    CHECK(agg.binder.text == "u");
}

// ------------------------------------------------------------------ 8. tables

TEST_CASE("table keyed by a roll with range rows", "[parser]") {
    const auto t = only<table_decl>(run(R"(table campaign_outcome(p: player) §L84-92 : roll campaign_roll(p) {
  1-2 "Terrible Defeat" { reputation[p] -= 2; lose_units(p, 1d6 + 2); }
  3   "Loss"            { reputation[p] -= 1; }
  9+  "Great Victory"   { reputation[p] += 2; }
  ..0 "Rout"            { }
} aid "Campaign results.")"));
    REQUIRE(t.keys.size() == 1);
    CHECK(t.keys[0].kind == table_key_kind::roll);
    CHECK(sx(t.keys[0].source) == "(roll campaign_roll p)");
    CHECK(t.columns.empty());
    REQUIRE(t.rows.size() == 4);
    CHECK(t.rows[0].key.kind == key_kind::range);
    CHECK(t.rows[0].key.lo == 1);
    CHECK(t.rows[0].key.hi == 2);
    CHECK(t.rows[0].key.text == "1-2");
    CHECK(t.rows[0].label == std::optional<std::string>("Terrible Defeat"));
    REQUIRE(t.rows[0].cells.size() == 1);
    CHECK_FALSE(t.rows[0].cells[0].outcome);
    CHECK(t.rows[0].cells[0].effects.size() == 2);
    CHECK(t.rows[0].cells[0].effects[1].kind == stmt_kind::call);
    CHECK(t.rows[1].key.kind == key_kind::exact);
    CHECK(t.rows[1].key.lo == 3);
    CHECK(t.rows[2].key.kind == key_kind::at_least);
    CHECK(t.rows[2].key.lo == 9);
    CHECK(t.rows[3].key.kind == key_kind::at_most);
    CHECK(t.rows[3].key.hi == 0);
    CHECK(t.aid);
}

TEST_CASE("two-dimensional table with odds columns", "[parser]") {
    const auto t = only<table_decl>(run(R"(table crt §7.6 : roll 1d6, odds(attack, defence) round defender clamp 1-5..6-1 {
  columns 1-5, 1-4, 1-3, 1-2, 1-1, 2-1, 3-1, 4-1, 5-1, 6-1
  1 : Ae, Ae, Ae, Ar, Ar, Dr, Dr, De, De, De
  2 : Ae, Ae, Ar, Ar, Dr, Dr, De, De, De, "Ex" { eliminate(d); };
})"));
    REQUIRE(t.keys.size() == 2);
    CHECK(t.keys[0].kind == table_key_kind::dice);
    CHECK(t.keys[0].source.dice.high == 6);
    CHECK(t.keys[1].kind == table_key_kind::key);
    CHECK(sx(t.keys[1].source) == "(odds attack defence)");
    REQUIRE(t.keys[1].rounding);
    CHECK(t.keys[1].rounding->text == "defender");
    CHECK(t.keys[1].clamp_lo == std::optional<std::string>("1-5"));
    CHECK(t.keys[1].clamp_hi == std::optional<std::string>("6-1"));
    REQUIRE(t.columns.size() == 10);
    CHECK(t.columns[0].kind == key_kind::odds);
    CHECK(t.columns[0].lo == 1);
    CHECK(t.columns[0].hi == 5);
    CHECK(t.columns[9].text == "6-1");
    REQUIRE(t.rows.size() == 2);
    REQUIRE(t.rows[0].cells.size() == 10);
    CHECK(sx(*t.rows[0].cells[0].outcome) == "Ae");
    const auto& last = t.rows[1].cells[9];
    CHECK(last.outcome->kind == expr_kind::string);
    CHECK(last.effects.size() == 1);
}

TEST_CASE("natural rows, fractional odds and a column shift", "[parser]") {
    const auto n = only<table_decl>(run(R"(table check : roll leadership(l) {
  natural 1 "Fails" {}
  natural 9+ "Taken" {}
  ..3 "Fails" {}
  4+ "Succeeds" {}
})"));
    REQUIRE(n.rows.size() == 4);
    CHECK(n.rows[0].natural);
    CHECK(n.rows[0].key.lo == 1);
    CHECK(n.rows[1].natural);
    CHECK(n.rows[1].key.kind == key_kind::at_least);
    CHECK_FALSE(n.rows[2].natural);
    const auto o = only<table_decl>(run(R"(table m(a: int, d: int) : odds(a, d) clamp 1-5..1.5-1 {
  1-1.5 : -1
  1.5-1 : 1
  1.25-2 : 0
})"));
    REQUIRE(o.rows.size() == 3);
    CHECK(o.rows[0].key.kind == key_kind::odds);
    CHECK(o.rows[0].key.decimal);
    CHECK(o.rows[0].key.lo == 2);  // 1 : 1.5 is 2 : 3
    CHECK(o.rows[0].key.hi == 3);
    CHECK(o.rows[1].key.lo == 3);
    CHECK(o.rows[1].key.hi == 2);
    CHECK(o.rows[2].key.lo == 5);  // 1.25 : 2 is 5 : 8
    CHECK(o.rows[2].key.hi == 8);
    CHECK(o.rows[0].key.text == "1-1.5");
    CHECK(o.keys[0].clamp_hi == std::optional<std::string>("1.5-1"));
    const auto f = only<table_decl>(run(R"(table fire(p: player) : roll fire_roll(p) clamp 0..11, p.strength shift fire_shift(p) clamp {
  columns 1-2, 3+
  0-11 : 1, 2
})"));
    REQUIRE(f.keys.size() == 2);
    REQUIRE(f.keys[1].shift);
    CHECK(sx(*f.keys[1].shift) == "(fire_shift p)");
    CHECK(f.keys[1].shift_clamp);
    CHECK_FALSE(f.keys[1].clamp_lo);
    const auto g = only<table_decl>(run(R"(table fire : roll 1d6, key s: int shift 1 clamp 1..3 {
  columns 1, 2, 3
  1-6 : 1, 2, 3
})"));
    CHECK_FALSE(g.keys[1].shift_clamp);  // this `clamp` is the key's own
    CHECK(g.keys[1].clamp_lo == std::optional<std::string>("1"));
}

TEST_CASE("table keyed by a value, distance bands, negative keys, clamp ..n", "[parser]") {
    auto p = run(R"(table tec §5.0 : key t: terrain {
  Clear : { cost = 1 }
  Woods : { cost = 2 }
}
table fire standin "our numbers" : roll 2d6, key r: int clamp ..2 {
  columns 1-2, 3-5, 6+
  -3--1 : 1, 2, 3;
  -1 "minus one" §L5 : -1, -2, -3
})");
    const auto& d = ok(p);
    const auto& tec = std::get<table_decl>(d[0].node);
    CHECK(tec.keys[0].kind == table_key_kind::key);
    CHECK(tec.keys[0].var.text == "t");
    REQUIRE(tec.keys[0].type);
    CHECK(tec.keys[0].type->id.text == "terrain");
    CHECK(tec.rows[0].key.kind == key_kind::value);
    CHECK(tec.rows[0].key.value.text == "Clear");
    CHECK(tec.rows[1].cells[0].effects[0].kind == stmt_kind::assign);
    const auto& fire = std::get<table_decl>(d[1].node);
    CHECK(fire.standin == std::optional<std::string>("our numbers"));
    CHECK_FALSE(fire.keys[1].clamp_lo);
    CHECK(fire.keys[1].clamp_hi == std::optional<std::string>("2"));
    REQUIRE(fire.columns.size() == 3);
    CHECK(fire.columns[0].kind == key_kind::range);  // not an odds key: distance bands
    CHECK(fire.columns[2].kind == key_kind::at_least);
    CHECK(fire.rows[0].key.kind == key_kind::range);
    CHECK(fire.rows[0].key.lo == -3);
    CHECK(fire.rows[0].key.hi == -1);
    CHECK(fire.rows[1].key.kind == key_kind::exact);
    CHECK(fire.rows[1].key.lo == -1);
    CHECK(fire.rows[1].anchors.size() == 1);
    CHECK(fire.rows[1].cells[0].outcome->value == -1);
}

// ------------------------------------------------------------------ 9/10. rules

TEST_CASE("modifiers", "[parser]") {
    auto p = run(R"(modifier strategy_trait §L25 : + p.traits[Strategy] to campaign_roll;
modifier combined_arms §L96-97 : +1 to campaign_roll
  when any(u in army[p] : u.arm == Infantry) and any(u in army[p] : u.arm == Cavalry);
modifier undisciplined §L95 : -1 to campaign_roll when any(u in army[p] : u.undisciplined);
modifier title_once §L32 overrides title_permanent, other : - p.x to hand_limit(q) aid "x";)");
    const auto& d = ok(p);
    const auto& m0 = std::get<rule_decl>(d[0].node);
    CHECK(m0.kind == rule_kind::modifier);
    CHECK(sx(m0.amount) == "([] (. p traits) Strategy)");
    CHECK(m0.target.text == "campaign_roll");
    const auto& m1 = std::get<rule_decl>(d[1].node);
    CHECK(m1.amount.value == 1);
    CHECK(m1.guard);
    const auto& m2 = std::get<rule_decl>(d[2].node);
    CHECK(m2.amount.kind == expr_kind::integer);
    CHECK(m2.amount.value == -1);
    const auto& m3 = std::get<rule_decl>(d[3].node);
    REQUIRE(m3.overrides.size() == 2);
    CHECK(m3.overrides[0].text == "title_permanent");
    CHECK(sx(m3.amount) == "(- (. p x))");
    CHECK(m3.target_args[0].text == "q");
    CHECK(m3.aid);
}

TEST_CASE("decision, define, legality rules", "[parser]") {
    auto p = run(R"(decision movement_cost(t: terrain) : int total §5.0;
decision morale(u: unit) : 0..9;
define woods_cost §5.0 : movement_cost(t) = 2 when t == Woods;
forbid disrupted_attack §8.4 : attack(u, d) when u.disrupted;
permit bridge_attack §8.5 : attack(u, d) when Bridge in hexside(u.hex, d.hex);
require adjacent_must_attack §8.11 : attack(u, d) when adjacent(u.hex, d.hex);)");
    const auto& d = ok(p);
    const auto& dec = std::get<decision_decl>(d[0].node);
    CHECK(dec.total);
    CHECK(dec.result.id.text == "int");
    CHECK(dec.anchors.size() == 1);
    CHECK_FALSE(std::get<decision_decl>(d[1].node).total);
    const auto& def = std::get<rule_decl>(d[2].node);
    CHECK(def.kind == rule_kind::define);
    CHECK(def.target.text == "movement_cost");
    CHECK(def.target_args[0].text == "t");
    CHECK(def.value.value == 2);
    CHECK(sx(*def.guard) == "(== t Woods)");
    CHECK(std::get<rule_decl>(d[3].node).kind == rule_kind::forbid);
    CHECK(std::get<rule_decl>(d[4].node).kind == rule_kind::permit);
    const auto& req = std::get<rule_decl>(d[5].node);
    CHECK(req.kind == rule_kind::require);
    CHECK(req.target.text == "attack");
    CHECK(req.target_args.size() == 2);
}

TEST_CASE("trigger, invariant, example", "[parser]") {
    auto p = run(R"(trigger lost_all §L98 : on campaign_resolved(p) when p.units_before > 0 and count(army[p]) == 0 {
  reputation[p] -= 1;
}
trigger ran_out : on deck_ran_out { end game exhausted; }
invariant reputation_range §L40-41 : all(p in players : reputation[p] >= -3 and reputation[p] <= 3);
example great_victory §L92 : given { roll campaign_roll = 9; } expect campaign_outcome(p) == "Great Victory";)");
    const auto& d = ok(p);
    const auto& t = std::get<rule_decl>(d[0].node);
    CHECK(t.kind == rule_kind::trigger);
    CHECK(t.target.text == "campaign_resolved");
    CHECK(t.target_args[0].text == "p");
    CHECK(t.guard);
    CHECK(t.body.size() == 1);
    const auto& t2 = std::get<rule_decl>(d[1].node);
    CHECK(t2.target_args.empty());
    CHECK(t2.body[0].kind == stmt_kind::end_game);
    const auto& inv = std::get<rule_decl>(d[2].node);
    CHECK(inv.kind == rule_kind::invariant);
    CHECK(inv.value.kind == expr_kind::aggregate);
    const auto& ex = std::get<rule_decl>(d[3].node);
    CHECK(ex.kind == rule_kind::example);
    REQUIRE(ex.body.size() == 1);
    CHECK(ex.body[0].kind == stmt_kind::assign);
    CHECK(sx(ex.body[0].exprs[0]) == "(roll campaign_roll)");
    CHECK(sx(ex.value) == "(== (campaign_outcome p) \"Great Victory\")");
}

TEST_CASE("a designer's queries: assert always, assert never, reachable", "[parser]") {
    auto p = run(R"(assert always score_not_negative §L56 : all(p in players : score[p] >= 0);
assert never two_dead §8.3 : dead >= 2;
reachable bankrupt §L70 : any(p in players : gold[p] == 0);)");
    const auto& d = ok(p);
    REQUIRE(d.size() == 3);
    CHECK(std::get<rule_decl>(d[0].node).kind == rule_kind::assert_always);
    CHECK(std::get<rule_decl>(d[0].node).id.text == "score_not_negative");
    CHECK(std::get<rule_decl>(d[0].node).value.kind == expr_kind::aggregate);
    CHECK(std::get<rule_decl>(d[1].node).kind == rule_kind::assert_never);
    CHECK(sx(std::get<rule_decl>(d[1].node).value) == "(>= dead 2)");
    CHECK(std::get<rule_decl>(d[2].node).kind == rule_kind::reachable);
    CHECK(std::get<rule_decl>(d[2].node).anchors.size() == 1);
}

TEST_CASE("quantity, predicate, event", "[parser]") {
    auto p = run(R"(quantity hand_limit(p: player) §L100 : int = 7;
predicate line_of_sight(a: hex, b: hex) §5.22 = not any(h in between(a, b) : blocks(h));
event campaign_resolved(p: player);
event deck_ran_out;)");
    const auto& d = ok(p);
    const auto& q = std::get<derived_decl>(d[0].node);
    CHECK_FALSE(q.predicate);
    REQUIRE(q.result);
    CHECK(q.result->id.text == "int");
    CHECK(q.value.value == 7);
    const auto& pr = std::get<derived_decl>(d[1].node);
    CHECK(pr.predicate);
    CHECK_FALSE(pr.result);
    CHECK(sx(pr.value) == "(not (any h (between a b) (blocks h)))");
    CHECK(std::get<event_decl>(d[2].node).params.size() == 1);
    CHECK(std::get<event_decl>(d[3].node).params.empty());
}

// ------------------------------------------------------------------ 11. manifest and errata

TEST_CASE("the manifest", "[parser]") {
    const auto r = only<ruleset_decl>(run(R"(ruleset contractor_cards "Contractor Cards" {
  source "004_a2e63dacbf50c31f.txt" sha256 "2f0f"
  players 2..16
  outline "outline.wph"
  layer base : base { "base/components.wph", "base/sequence.wph" }
  layer clarifications : errata { "errata/clarifications.wph" }
  layer options : options { "options.wph" }
})"));
    CHECK(r.id.text == "contractor_cards");
    CHECK(r.title == "Contractor Cards");
    CHECK(r.source == "004_a2e63dacbf50c31f.txt");
    CHECK(r.sha256 == "2f0f");
    CHECK(r.min_players == 2);
    CHECK(r.max_players == 16);
    CHECK(r.outline == "outline.wph");
    REQUIRE(r.layers.size() == 3);
    CHECK(r.layers[0].kind.text == "base");
    REQUIRE(r.layers[0].files.size() == 2);
    CHECK(r.layers[0].files[1].text == "base/sequence.wph");
    CHECK(r.layers[1].kind.text == "errata");
}

TEST_CASE("errata with all six operations", "[parser]") {
    auto p = run(R"(errata correction "Our clarifications, 2026" §L54 {
  replace rule deck_twice with trigger deck_twice_v2 §L54 : on deck_ran_out when option.end_timing == immediate { end game exhausted; }
  refine rule seek_employment when not p.employed;
  except rule lost_all with forbid lost_all_guard : attack(u, d) when u.x;
  withdraw rule etiquette_renewal;
  amend table campaign_outcome row ..2 "Terrible Defeat" { reputation[p] -= 3; }
  add modifier bonus §L55 : +1 to campaign_roll;
}
errata clarification "c" { }
errata addition "a" { })");
    const auto& d = ok(p);
    REQUIRE(d.size() == 3);
    const auto& e = std::get<errata_decl>(d[0].node);
    CHECK(e.kind == errata_kind::correction);
    CHECK(e.title == "Our clarifications, 2026");
    CHECK(e.anchors.size() == 1);
    REQUIRE(e.ops.size() == 6);
    CHECK(e.ops[0].kind == errata_op_kind::replace);
    CHECK(e.ops[0].target.text == "deck_twice");
    REQUIRE(e.ops[0].replacement.size() == 1);
    CHECK(std::get<rule_decl>(e.ops[0].replacement[0].node).kind == rule_kind::trigger);
    CHECK(e.ops[1].kind == errata_op_kind::refine);
    REQUIRE(e.ops[1].guard);
    CHECK(sx(*e.ops[1].guard) == "(not (. p employed))");
    CHECK(e.ops[2].kind == errata_op_kind::except);
    CHECK(std::get<rule_decl>(e.ops[2].replacement[0].node).kind == rule_kind::forbid);
    CHECK(e.ops[3].kind == errata_op_kind::withdraw);
    CHECK(e.ops[3].target.text == "etiquette_renewal");
    CHECK(e.ops[4].kind == errata_op_kind::amend);
    REQUIRE(e.ops[4].row);
    CHECK(e.ops[4].row->key.kind == key_kind::at_most);
    CHECK(e.ops[4].row->label == std::optional<std::string>("Terrible Defeat"));
    CHECK(e.ops[5].kind == errata_op_kind::add);
    CHECK(e.ops[5].target.text.empty());
    CHECK(std::get<rule_decl>(e.ops[5].replacement[0].node).id.text == "bonus");
    CHECK(std::get<errata_decl>(d[1].node).kind == errata_kind::clarification);
    CHECK(std::get<errata_decl>(d[2].node).kind == errata_kind::addition);
}

// ------------------------------------------------------------------ 12/14. options, missing data

TEST_CASE("options", "[parser]") {
    auto p = run(R"(option end_after_exhaustions §L17 §L54 : 1 | 2 = 2;
option end_timing : immediate | end_of_round = immediate;
option employer_card_stays : bool = true aid "Keep it.";)");
    const auto& d = ok(p);
    const auto& o0 = std::get<option_decl>(d[0].node);
    CHECK(o0.anchors.size() == 2);
    REQUIRE(o0.values.size() == 2);
    CHECK(o0.values[1].value == 2);
    CHECK(o0.default_value.value == 2);
    const auto& o1 = std::get<option_decl>(d[1].node);
    CHECK(o1.values[1].text == "end_of_round");
    CHECK(o1.default_value.text == "immediate");
    const auto& o2 = std::get<option_decl>(d[2].node);
    CHECK(o2.is_bool);
    CHECK(o2.values.empty());
    CHECK(o2.default_value.kind == expr_kind::boolean);
    CHECK(o2.aid);
}

TEST_CASE("missing data", "[parser]") {
    const auto m = only<missing_decl>(run("missing unit_strengths §L140-145 \"the card list gives no unit strengths\";"));
    CHECK(m.id.text == "unit_strengths");
    CHECK(m.what == "the card list gives no unit strengths");
    CHECK(m.anchors[0].first == "L140");
}

// ------------------------------------------------------------------ errors

TEST_CASE("syntax errors report the first error only, where the expectation failed", "[parser][errors]") {
    {
        auto p = run("roll r = 1d6\nroll s = 2d6;");
        const auto d = fails(p);
        CHECK(d.kind == diag_kind::syntax_error);
        CHECK(d.message.find("expected `;`") != std::string::npos);
        REQUIRE(d.where);
        CHECK(d.where->begin == 12);  // right after `1d6`
    }
    {
        auto p = run("action a { let x = ; }");
        const auto d = fails(p);
        CHECK(d.kind == diag_kind::syntax_error);
        CHECK(d.message.find("expected an expression") != std::string::npos);
        CHECK(d.where->begin == 19);
    }
    {
        auto p = run("enum e { A }\nbogus thing;");
        const auto d = fails(p);
        CHECK(d.message.find("expected a declaration") != std::string::npos);
        CHECK(d.where->begin == 13);
    }
    {
        auto p = run("roll r = \"unterminated;\n");
        CHECK(fails(p).kind == diag_kind::syntax_error);
    }
    {
        auto p = run("action a { x; }");
        const auto d = fails(p);
        CHECK(d.message.find("`=`") != std::string::npos);
    }
}

TEST_CASE("invalid UTF-8 is reported at the byte where it breaks", "[parser][errors]") {
    auto p = run(std::string("enum e { A }\nenum f { B\xC3(") + " }");
    const auto d = fails(p);
    CHECK(d.kind == diag_kind::invalid_utf8);
    CHECK(d.where->begin == 23);
    CHECK(fails(run("\xFF")).kind == diag_kind::invalid_utf8);
    CHECK(fails(run("roll r = \"\xED\xA0\x80\";")).kind == diag_kind::invalid_utf8);  // a surrogate
}

TEST_CASE("number out of range", "[parser][errors]") {
    CHECK(expression("9223372036854775807").value == INT64_MAX);
    const auto d = fails(run("roll r = 9223372036854775808;"));
    CHECK(d.kind == diag_kind::number_out_of_range);
    CHECK(d.where->begin == 9);
    CHECK(fails(run("type t = 0..99999999999999999999;")).kind == diag_kind::number_out_of_range);
}

TEST_CASE("bad dice", "[parser][errors]") {
    CHECK(fails(run("roll r = 0d6;")).kind == diag_kind::bad_dice);
    CHECK(fails(run("roll r = 1d0;")).kind == diag_kind::bad_dice);
    CHECK(fails(run("roll r = 1d[5..2];")).kind == diag_kind::bad_dice);
    CHECK(expression("1d[-1..1]").dice.low == -1);
}

TEST_CASE("bad range in a type", "[parser][errors]") {
    const auto d = fails(run("type t = 5..2 clamp;"));
    CHECK(d.kind == diag_kind::bad_range);
    CHECK(fails(run("state { x: 3..-3 = 0 }")).kind == diag_kind::bad_range);
}

TEST_CASE("nesting too deep is a diagnostic, not a crash", "[parser][errors]") {
    const std::string deep = std::string(10000, '(') + "1" + std::string(10000, ')');
    CHECK(fails(run("roll r = " + deep + ";")).kind == diag_kind::nesting_too_deep);
    std::string nots;
    for (int i = 0; i < 10000; ++i) nots += "not ";
    CHECK(fails(run("roll r = " + nots + "x;")).kind == diag_kind::nesting_too_deep);
    std::string blocks = "action a { ";
    for (int i = 0; i < 10000; ++i) blocks += "if x { ";
    CHECK(fails(run(blocks)).kind == diag_kind::nesting_too_deep);
    std::string elifs = "action a { if x { } ";
    for (int i = 0; i < 10000; ++i) elifs += "else if x { } ";
    CHECK(fails(run(elifs + "}")).kind == diag_kind::nesting_too_deep);
    // within the limit is fine
    const std::string ok_deep = std::string(200, '(') + "1" + std::string(200, ')');
    CHECK(expression(ok_deep).value == 1);
}

TEST_CASE("garbage never throws or crashes", "[parser][errors]") {
    const char* inputs[] = {"{", "}", "§", "roll", "table t : {", "\"", "errata", "map m : hexgrid { hex",
                            "1d", "state { x: }", "ruleset r { players 2.. }", "option o : = 1;", "\0\0"};
    for (const char* in : inputs) {
        INFO(in);
        auto p = run(in);
        if (!p->tree) CHECK(p->sink.all().size() == 1);
    }
}

TEST_CASE("the dump is deterministic and shows line:col", "[parser]") {
    const std::string text = "enum arm { Infantry \"I\" }\n\nroll r(p: player) = 1d6 + 2;\n";
    auto a = run(text);
    auto b = run(text);
    REQUIRE(a->tree);
    const std::string d = dump_of(a);
    CHECK(d == dump_of(b));
    CHECK(d.find("enum arm @1:1") != std::string::npos);
    CHECK(d.find("roll r(p: player) = (+ 1d6 2) @3:1") != std::string::npos);
}

// ------------------------------------------------------------------ numbers counted at run time

TEST_CASE("parser: dice counted at run time, `(e)dM` and `(e)d[lo..hi]`", "[parser][counts]") {
    CHECK(sx(expression("(l.rating)d6")) == "(dice (. l rating) 1..6)");
    CHECK(sx(expression("(n + 1)d[0..1] + 2")) == "(+ (dice (+ n 1) 0..1) 2)");
    CHECK(sx(expression("(n)d[-1..1]")) == "(dice n -1..1)");
    CHECK(sx(expression("2 * (min(k, 2))d6")) == "(* 2 (dice (min k 2) 1..6))");
    CHECK(sx(expression("(n)")) == "n");  // no faces: a parenthesised expression
    // the faces follow the `)` with no space; `(n) d6` is not a dice term
    CHECK(run("roll r = (n) d6;")->sink.has_errors());
    CHECK(fails(run("roll r = (n)d[3..1];")).kind == diag_kind::bad_dice);
}

TEST_CASE("parser: ranges where a set is read", "[parser][counts]") {
    auto p = run("sequence game { choose n in 0..k + 1 by p where n > 0 { } for each i in (a)..b { } }");
    const sequence_decl seq = only<sequence_decl>(p);
    const auto& body = seq.body;
    REQUIRE(body.size() == 2);
    CHECK(sx(body[0].exprs[0]) == "(.. 0 (+ k 1))");
    CHECK(sx(body[1].exprs[0]) == "(.. a b)");
    CHECK(sx(expression("sum(i in 1..n : i)")) == "(sum i (.. 1 n) i)");
    // elsewhere `..` is not an operator
    CHECK(run("roll r = 1..3;")->sink.has_errors());
}
