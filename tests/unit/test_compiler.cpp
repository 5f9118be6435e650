// The compiler's passes: load, outline, patch, resolve, typecheck, lower — each through small
// rulesets written to a temporary folder, plus the all-constructs ruleset.
#include "test_support.hpp"
#include "source_dir.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/compiler/passes.hpp"
#include "westphalia/ir/print.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

namespace fs = std::filesystem;
using wp::dsl::diag_kind;

namespace {

using wp::test::temp_ruleset;

const char* const standard_outline = R"(outline {
  §1       "Introduction" flavour
  §2       "Rules"        encoded
  §9.1-9.2 "Combat"       encoded
  §L52-54  "Fate"         encoded
}
)";

std::string manifest(const std::string& layers) {
    return "ruleset test \"Test\" {\n  players 2..4\n  outline \"outline.wph\"\n" + layers + "}\n";
}

struct result {
    std::optional<wp::ir::ruleset> ir;
    wp::dsl::source_manager sources;
    wp::dsl::diagnostic_sink sink;

    std::size_t count(diag_kind k) const {
        return static_cast<std::size_t>(std::count_if(sink.all().begin(), sink.all().end(),
                                                      [&](const wp::dsl::diagnostic& d) { return d.kind == k; }));
    }
    const wp::dsl::diagnostic* first(diag_kind k) const {
        for (const auto& d : sink.all())
            if (d.kind == k) return &d;
        return nullptr;
    }
    std::string rendered() const {
        std::ostringstream out;
        wp::dsl::render(out, sources, sink.all(), wp::dsl::diag_format::gnu);
        return out.str();
    }
    std::string ir_text() const {
        std::ostringstream out;
        if (ir) wp::ir::print(out, *ir);
        return out.str();
    }
};

std::unique_ptr<result> compile_folder(const fs::path& folder, const wp::compiler::compile_options& options = {}) {
    auto r = std::make_unique<result>();
    r->ir = wp::compiler::compile_ruleset(folder, options, r->sources, r->sink);
    return r;
}

// A ruleset with one base file holding `base` (and optional extra files and layers).
std::unique_ptr<result> compile_text(const std::string& base, const std::map<std::string, std::string>& extra = {},
                                     const std::string& extra_layers = "",
                                     const wp::compiler::compile_options& options = {}) {
    std::map<std::string, std::string> files = extra;
    files["ruleset.wph"] = manifest("  layer base : base { \"base.wph\" }\n" + extra_layers);
    files["outline.wph"] = standard_outline;
    files["base.wph"] = base;
    temp_ruleset folder(files);
    return compile_folder(folder.root(), options);
}

const char* const small_game = R"(
enum arm { Infantry, Cavalry, Artillery }
record face { arm: arm, strength: 0..9 error = 1 }
cards card of face { pikemen "Pikemen" { arm = Infantry } x3  lancers "Lancers" { arm = Cavalry, strength = 2 } }
zone deck : ordered hidden of card
zone hand : per player owner of card
state { exhaustions: 0..2 error = 0 }
state per player { gold: 0..100 error = 0  renown: -3..3 clamp = 0 }
roll campaign_roll(p: player) §2 = 1d10;
)";

fs::path all_constructs() { return fs::path(WP_SOURCE_DIR) / "tests" / "rulesets" / "all-constructs"; }

}  // namespace

// ---------------------------------------------------------------- outline

TEST_CASE("outline: section numbers parse and compare numerically", "[compiler][outline]") {
    using wp::compiler::parse_section;
    using wp::compiler::section_key;
    auto l52 = parse_section("L52");
    REQUIRE(l52);
    CHECK(l52->k == section_key::kind::line);
    CHECK(l52->parts == std::vector<std::int64_t>{52});
    auto s = parse_section("9.14");
    REQUIRE(s);
    CHECK(s->k == section_key::kind::numbered);
    CHECK(s->parts == std::vector<std::int64_t>{9, 14});
    CHECK(parse_section("E1")->k == section_key::kind::text);
    // Short range ends: L52-54 ends at L54; 14.2-4 ends at 14.4.
    auto end = wp::compiler::parse_range_end(*l52, "54");
    REQUIRE(end);
    CHECK(end->k == section_key::kind::line);
    CHECK(end->parts == std::vector<std::int64_t>{54});
    auto dotted = wp::compiler::parse_range_end(*parse_section("14.2"), "4");
    REQUIRE(dotted);
    CHECK(dotted->parts == std::vector<std::int64_t>{14, 4});
}

TEST_CASE("outline: containment of cited anchors", "[compiler][outline]") {
    wp::dsl::outline_decl o;
    auto entry = [&](std::string first, std::string last) {
        wp::dsl::outline_entry e;
        e.section.first = std::move(first);
        e.section.last = std::move(last);
        e.title = "t";
        e.status.text = "encoded";
        o.entries.push_back(e);
    };
    entry("L52", "54");
    entry("9.1", "9.2");
    entry("7", "");
    entry("3.2", "");
    wp::dsl::diagnostic_sink sink;
    wp::compiler::outline_index index;
    index.build(o, sink);
    CHECK_FALSE(sink.has_errors());
    auto find = [&](std::string first, std::string last = "") {
        return index.find(wp::dsl::anchor{std::move(first), std::move(last), {}});
    };
    CHECK(find("L53") == 0u);
    CHECK(find("L52", "54") == 0u);
    CHECK_FALSE(find("L55"));
    CHECK_FALSE(find("L50", "53"));  // a range must lie in sections at both ends
    CHECK(find("9.1") == 1u);
    CHECK(find("9.2") == 1u);
    CHECK(find("9.1.3") == 1u);      // inside 9.1
    CHECK(find("9.2.5") == 1u);      // a subsection of the range's last section
    CHECK_FALSE(find("9.14"));       // 9.14 comes after 9.2: numbers compare as numbers
    CHECK(find("7.4") == 2u);        // a parent section covers its subsections
    CHECK(find("7") == 2u);
    CHECK_FALSE(find("3.14"));       // 3.2 is not a parent of 3.14
    CHECK(find("3.2.1") == 3u);
    CHECK_FALSE(find("8"));
}

TEST_CASE("outline: innermost section wins", "[compiler][outline]") {
    wp::dsl::outline_decl o;
    for (auto [f, l] : {std::pair<std::string, std::string>{"5", ""}, {"5.3", ""}}) {
        wp::dsl::outline_entry e;
        e.section.first = f;
        e.section.last = l;
        e.status.text = "encoded";
        o.entries.push_back(e);
    }
    wp::dsl::diagnostic_sink sink;
    wp::compiler::outline_index index;
    index.build(o, sink);
    CHECK(index.find({"5.3.1", "", {}}) == 1u);
    CHECK(index.find({"5.4", "", {}}) == 0u);
}

TEST_CASE("outline: duplicate sections and bad statuses", "[compiler][outline]") {
    temp_ruleset folder({{"ruleset.wph", manifest("  layer base : base { \"base.wph\" }\n")},
                         {"outline.wph", "outline {\n  §1 \"a\" encoded\n  §1 \"b\" flavour\n  §2 \"c\" done\n}\n"},
                         {"base.wph", "enum e { A }\n"}});
    auto r = compile_folder(folder.root());
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::duplicate_section) == 1);
    CHECK(r->count(diag_kind::bad_outline_status) == 1);
    CHECK(r->first(diag_kind::duplicate_section)->notes.size() == 1);
}

TEST_CASE("outline: a pending section is kept with its status", "[compiler][outline]") {
    temp_ruleset folder({{"ruleset.wph", manifest("  layer base : base { \"base.wph\" }\n")},
                         {"outline.wph", "outline {\n  §1 \"a\" encoded\n  §2 \"not yet\" pending\n}\n"},
                         {"base.wph", "enum e §2 { A }\n"}});
    auto r = compile_folder(folder.root());
    INFO(r->rendered());
    REQUIRE(r->ir);
    REQUIRE(r->ir->sections.size() == 2);
    CHECK(r->ir->sections[1].status == wp::ir::section_status::pending);
    CHECK(std::string(wp::ir::name_of(r->ir->sections[1].status)) == "pending");
}

TEST_CASE("outline: every cited anchor must be in the outline", "[compiler][outline]") {
    auto r = compile_text("enum e §2 { A }\nenum f §3 { B }\nenum g §9.14 { C }\nenum h §L53 { D }\n");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::unknown_anchor) == 2);
    CHECK(r->rendered().find("§9.14 is not inside any section of the outline") != std::string::npos);
}

// ---------------------------------------------------------------- load

TEST_CASE("load: a folder without a manifest", "[compiler][load]") {
    temp_ruleset folder(std::map<std::string, std::string>{{"readme.txt", "nothing"}});
    auto r = compile_folder(folder.root());
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::manifest_missing) == 1);
}

TEST_CASE("load: a manifest with something else in it", "[compiler][load]") {
    temp_ruleset folder({{"ruleset.wph", "enum e { A }\n"}, {"outline.wph", standard_outline}});
    auto r = compile_folder(folder.root());
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::manifest_invalid) >= 1);
}

// Expansions (docs/language.md §11): applied only when selected, in their declared order, and
// never cut by --upto; an expansion not selected is not read.
TEST_CASE("load: expansions are applied when selected, in their declared order", "[compiler][load][expansion]") {
    const std::map<std::string, std::string> extra = {
        {"b.wph", "state { b_seen: bool = false }\n"},
        {"a.wph", "state { a_seen: bool = false }\n"},
        {"late.wph", "state { late_seen: bool = false }\n"},
        {"broken.wph", "this does not parse"}};
    // `b` is listed first but comes after `a`; `c` is never selected (its file does not parse).
    const std::string layers = "  layer b : expansion after a { \"b.wph\" }\n"
                               "  layer a : expansion { \"a.wph\" }\n"
                               "  layer c : expansion { \"broken.wph\" }\n"
                               "  layer late : exclusive { \"late.wph\" }\n";
    auto layer_names = [](const wp::ir::ruleset& rs) {
        std::string s;
        for (const auto& l : rs.layers) s += (s.empty() ? "" : " ") + l.name;
        return s;
    };
    {
        auto r = compile_text("enum e { A }\n", extra, layers);
        INFO(r->rendered());
        REQUIRE(r->ir);
        CHECK(layer_names(*r->ir) == "base late");
        REQUIRE(r->ir->expansions.size() == 3);
        CHECK_FALSE(r->ir->expansions[0].selected);
        CHECK(r->ir->expansions[0].after == std::vector<std::string>{"a"});
    }
    for (const std::vector<std::string>& with : {std::vector<std::string>{"a", "b"}, std::vector<std::string>{"b", "a"}}) {
        wp::compiler::compile_options o;
        o.with = with;
        auto r = compile_text("enum e { A }\n", extra, layers, o);
        INFO(r->rendered());
        REQUIRE(r->ir);
        CHECK(layer_names(*r->ir) == "base a b late");
    }
    {
        wp::compiler::compile_options o;
        o.with = {"b"};
        o.upto_layer = "base";
        auto r = compile_text("enum e { A }\n", extra, layers, o);
        INFO(r->rendered());
        REQUIRE(r->ir);
        CHECK(layer_names(*r->ir) == "base b");  // --upto never cuts a selected expansion
    }
    {
        wp::compiler::compile_options o;
        o.with = {"d"};
        auto r = compile_text("enum e { A }\n", extra, layers, o);
        CHECK_FALSE(r->ir);
        CHECK(r->count(diag_kind::unknown_name) == 1);
    }
    {
        wp::compiler::compile_options o;
        o.upto_layer = "a";  // an expansion not selected
        auto r = compile_text("enum e { A }\n", extra, layers, o);
        CHECK_FALSE(r->ir);
        CHECK(r->count(diag_kind::unknown_name) == 1);
    }
}

TEST_CASE("load: an order between expansions that forms a cycle is located", "[compiler][load][expansion]") {
    auto r = compile_text("enum e { A }\n", {{"a.wph", "enum f { B }\n"}, {"b.wph", "enum g { C }\n"}},
                          "  layer a : expansion after b { \"a.wph\" }\n  layer b : expansion after a { \"b.wph\" }\n");
    CHECK_FALSE(r->ir);
    REQUIRE(r->count(diag_kind::manifest_invalid) == 1);
    CHECK(r->first(diag_kind::manifest_invalid)->where);
    CHECK(r->rendered().find("a after b after a") != std::string::npos);
}

TEST_CASE("load: bad layer kind and missing files", "[compiler][load]") {
    temp_ruleset folder({{"ruleset.wph", manifest("  layer base : base { \"base.wph\", \"gone.wph\" }\n"
                                                  "  layer extra : patches { \"base2.wph\" }\n")},
                         {"outline.wph", standard_outline},
                         {"base.wph", "enum e { A }\n"},
                         {"base2.wph", "enum f { B }\n"}});
    auto r = compile_folder(folder.root());
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::bad_layer_kind) == 1);
    CHECK(r->count(diag_kind::file_not_found) == 1);
    // The missing file is reported at the manifest line naming it.
    REQUIRE(r->first(diag_kind::file_not_found)->where);
}

TEST_CASE("load: a file over the size limit", "[compiler][load]") {
    temp_ruleset folder({{"ruleset.wph", manifest("  layer base : base { \"big.wph\" }\n")},
                         {"outline.wph", standard_outline}});
    {
        std::ofstream big(folder.root() / "big.wph", std::ios::binary);
        const std::string line(1023, '/');
        for (int i = 0; i < 4 * 1024 + 1; ++i) big << line << '\n';
    }
    auto r = compile_folder(folder.root());
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::file_too_large) == 1);
}

TEST_CASE("load: syntax errors of every file are reported in one run", "[compiler][load]") {
    temp_ruleset folder({{"ruleset.wph", manifest("  layer base : base { \"a.wph\", \"b.wph\", \"c.wph\" }\n")},
                         {"outline.wph", standard_outline},
                         {"a.wph", "enum e { A \n"},
                         {"b.wph", "enum f { B }\n"},
                         {"c.wph", "roll r = ;\n"}});
    auto r = compile_folder(folder.root());
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::syntax_error) == 2);
    CHECK(r->count(diag_kind::unknown_name) == 0);  // no cascade from the unparsed files
}

TEST_CASE("load: --upto stops the stack at a layer", "[compiler][load][patch]") {
    const std::map<std::string, std::string> files{
        {"errata.wph", "errata correction \"fix\" {\n  withdraw rule strength;\n}\n"}};
    const std::string base = std::string(small_game) + "modifier strength §2 : +1 to campaign_roll;\n";
    wp::compiler::compile_options options;
    options.upto_layer = "base";
    auto r = compile_text(base, files, "  layer fix : errata { \"errata.wph\" }\n", options);
    REQUIRE(r->ir);
    CHECK(r->ir->layers.size() == 1);
    CHECK(r->ir->rules.size() == 1);
    CHECK(r->ir->upto == "base");
    auto full = compile_text(base, files, "  layer fix : errata { \"errata.wph\" }\n");
    REQUIRE(full->ir);
    CHECK(full->ir->rules.empty());
    options.upto_layer = "bas";
    auto bad = compile_text(base, files, "  layer fix : errata { \"errata.wph\" }\n", options);
    CHECK_FALSE(bad->ir);
    REQUIRE(bad->first(diag_kind::unknown_name));
    CHECK(bad->first(diag_kind::unknown_name)->notes.front().message == "did you mean `base`?");
}

// ---------------------------------------------------------------- patch

TEST_CASE("patch: errata operations outside an errata layer", "[compiler][patch]") {
    auto r = compile_text(std::string(small_game) + "errata correction \"x\" { withdraw rule nothing; }\n");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::errata_outside_layer) == 1);
}

TEST_CASE("patch: declarations in an errata layer outside an errata block", "[compiler][patch]") {
    auto r = compile_text(small_game, {{"errata.wph", "enum stray { X }\n"}}, "  layer fix : errata { \"errata.wph\" }\n");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::errata_outside_layer) == 1);
}

TEST_CASE("patch: an errata target that does not exist", "[compiler][patch]") {
    auto r = compile_text(std::string(small_game) + "modifier strength §2 : +1 to campaign_roll;\n",
                          {{"errata.wph", "errata correction \"fix\" {\n  refine rule strenght when true;\n}\n"}},
                          "  layer fix : errata { \"errata.wph\" }\n");
    CHECK_FALSE(r->ir);
    REQUIRE(r->count(diag_kind::errata_target_missing) == 1);
    const auto* d = r->first(diag_kind::errata_target_missing);
    REQUIRE_FALSE(d->notes.empty());
    CHECK(d->notes.front().message == "did you mean `strength`?");
}

TEST_CASE("patch: an exception left pointing at a withdrawn rule", "[compiler][patch]") {
    auto r = compile_text(std::string(small_game) + "modifier strength §2 : +1 to campaign_roll;\n",
                          {{"errata.wph",
                            "errata correction \"one\" {\n  except rule strength with modifier weaker : -1 to campaign_roll;\n}\n"
                            "errata correction \"two\" {\n  withdraw rule strength;\n}\n"}},
                          "  layer fix : errata { \"errata.wph\" }\n");
    CHECK_FALSE(r->ir);
    REQUIRE(r->count(diag_kind::orphan_exception) == 1);
    CHECK(r->first(diag_kind::orphan_exception)->notes.front().message == "`strength` is withdrawn here");
}

TEST_CASE("patch: replace, refine, except, amend, add and the layer of each element", "[compiler][patch]") {
    const std::string base = std::string(small_game) + R"(
modifier strength §2 : +1 to campaign_roll;
modifier other : +2 to campaign_roll when p.gold > 5;
table outcome(p: player) : roll campaign_roll(p) {
  1-5 "Loss" { p.renown -= 1; }
  6+  "Win"  { p.renown += 1; }
}
)";
    const std::string errata = R"(errata correction "fix" §2 {
  replace rule strength with modifier strength_v2 : +3 to campaign_roll;
  refine rule other when p.renown > 0;
  except rule other with modifier other_exception : +1 to campaign_roll when p.gold > 50;
  amend table outcome row ..5 "Loss" { p.renown -= 2; }
  add event nothing_happened(p: player);
}
)";
    auto r = compile_text(base, {{"errata.wph", errata}}, "  layer fix : errata { \"errata.wph\" }\n");
    INFO(r->rendered());
    REQUIRE(r->ir);
    const auto& rs = *r->ir;
    REQUIRE(rs.rules.size() == 3);
    CHECK(rs.rules[0].name == "strength_v2");
    CHECK(rs.rules[0].prov.layer == 1);
    CHECK(rs.rules[1].name == "other");
    CHECK(rs.rules[1].prov.layer == 1);  // refined: the errata layer set it last
    REQUIRE(rs.rules[1].guard != wp::ir::no_id);
    CHECK(rs.nodes[rs.rules[1].guard].code == wp::ir::op::and_);  // the base guard AND the refinement
    CHECK(rs.nodes[rs.rules[1].guard].layer == 1);
    CHECK(rs.rules[2].name == "other_exception");
    REQUIRE(rs.rules[2].overrides.size() == 1);
    CHECK(rs.rules[2].overrides[0] == 1);
    REQUIRE(rs.groups.size() == 1);
    REQUIRE(rs.groups[0].edges.size() == 1);
    CHECK(rs.groups[0].edges[0].reason == wp::ir::override_reason::exception);
    REQUIRE(rs.tables.size() == 1);
    REQUIRE(rs.tables[0].rows.size() == 2);
    CHECK(rs.tables[0].rows[0].key.open_lo);
    CHECK(rs.tables[0].rows[0].prov.layer == 1);
    CHECK(rs.tables[0].rows[1].prov.layer == 0);
    CHECK(rs.events.size() == 1);
    REQUIRE(rs.errata.size() == 5);
    CHECK(rs.errata[0].op == wp::ir::errata_op_kind::replace);
    CHECK(rs.errata[0].result_kind == wp::ir::element_kind::rule);
    CHECK(rs.errata[4].result_kind == wp::ir::element_kind::event);
}

TEST_CASE("patch: amend on something that is not a table, and an ambiguous amendment", "[compiler][patch]") {
    const std::string base = std::string(small_game) + R"(
modifier strength : +1 to campaign_roll;
table outcome(p: player) : roll campaign_roll(p) {
  1-5 "Loss" { p.renown -= 1; }
  6+  "Win"  { p.renown += 1; }
}
)";
    auto r = compile_text(base,
                          {{"errata.wph", "errata correction \"fix\" {\n  amend table strength row 1 \"x\" { }\n"
                                          "  amend table outcome row 4-7 \"Both\" { }\n}\n"}},
                          "  layer fix : errata { \"errata.wph\" }\n");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::wrong_kind_of_name) == 1);
    CHECK(r->count(diag_kind::bad_table) == 1);
}

TEST_CASE("patch: an exclusive layer's definitions override the base ones", "[compiler][patch]") {
    const std::string base = R"(
enum terrain { Clear, Woods }
decision cost(t: terrain) : int;
define woods : cost(t) = 2 when t == Woods;
)";
    auto r = compile_text(base, {{"scenario.wph", "define muddy_woods : cost(t) = 3 when t == Woods;\n"}},
                          "  layer scenario : exclusive { \"scenario.wph\" }\n");
    INFO(r->rendered());
    REQUIRE(r->ir);
    REQUIRE(r->ir->groups.size() == 1);
    REQUIRE(r->ir->groups[0].edges.size() == 1);
    CHECK(r->ir->groups[0].edges[0].reason == wp::ir::override_reason::exclusive_layer);
    CHECK(r->ir->rules[r->ir->groups[0].edges[0].higher].name == "muddy_woods");
}

// ---------------------------------------------------------------- resolve

TEST_CASE("resolve: unknown names get a did-you-mean note", "[compiler][resolve]") {
    auto r = compile_text(std::string(small_game) + "modifier m : +1 to campain_roll;\n");
    CHECK_FALSE(r->ir);
    REQUIRE(r->count(diag_kind::unknown_name) == 1);
    const auto* d = r->first(diag_kind::unknown_name);
    CHECK(d->message == "unknown roll or quantity `campain_roll`");
    REQUIRE(d->notes.size() == 1);
    CHECK(d->notes[0].message == "did you mean `campaign_roll`?");
}

TEST_CASE("resolve: unknown types and unknown names in expressions", "[compiler][resolve]") {
    auto r = compile_text(std::string(small_game) +
                          "quantity q(p: player) : int = p.gld;\nstate { x: arn = Infantry }\npredicate z = exhaustion > 1;\n");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::unknown_name) == 3);
    const std::string text = r->rendered();
    CHECK(text.find("did you mean `gold`?") != std::string::npos);
    CHECK(text.find("did you mean `arm`?") != std::string::npos);
    CHECK(text.find("did you mean `exhaustions`?") != std::string::npos);
}

TEST_CASE("resolve: duplicate names point at the first declaration", "[compiler][resolve]") {
    auto r = compile_text(std::string(small_game) + "roll campaign_roll = 2d6;\nenum arm { X }\nroll count = 1d6;\n");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::duplicate_name) == 3);
    const auto* d = r->first(diag_kind::duplicate_name);
    REQUIRE_FALSE(d->notes.empty());
    CHECK(d->notes[0].where.has_value());
}

TEST_CASE("resolve: a name of the wrong kind", "[compiler][resolve]") {
    auto r = compile_text(std::string(small_game) +
                          "procedure go(p: player) { do campaign_roll(p); }\nstate { y: campaign_roll = 1 }\n");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::wrong_kind_of_name) == 2);
}

// ---------------------------------------------------------------- typecheck

TEST_CASE("typecheck: mismatched types", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
predicate a(p: player) = p.gold;
quantity b(p: player) : int = p.gold + true;
procedure c(p: player) { if p.gold { p.gold = 1; } p.renown = Infantry; }
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::type_mismatch) == 4);
}

TEST_CASE("typecheck: wrong arity", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
quantity a(p: player) : int = roll campaign_roll;
quantity b(p: player) : int = abs(1, 2);
procedure go(p: player, n: int) { }
procedure c(p: player) { go(p); }
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::wrong_arity) == 3);
    CHECK(r->rendered().find("`go` takes 2 arguments (p: player, n: int), not 1") != std::string::npos);
}

TEST_CASE("typecheck: constants outside their declared range", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
state { z: 0..3 error = 5 }
cards other of face { big "Big" { arm = Infantry, strength = 12 } }
procedure c(p: player) { p.renown = 4; exhaustions = 2; }
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::value_out_of_bounds) == 3);
    CHECK(r->rendered().find("outside its range 0..3") != std::string::npos);
}

TEST_CASE("typecheck: option defaults and --option values", "[compiler][typecheck]") {
    auto bad = compile_text(std::string(small_game) + "option end_after : 1 | 2 = 3;\noption timing : now | later = soon;\n");
    CHECK_FALSE(bad->ir);
    CHECK(bad->count(diag_kind::bad_default) == 2);

    const std::string good = std::string(small_game) + "option end_after : 1 | 2 = 2;\noption timing : now | later = now;\n"
                                                       "option strict : bool = false;\n";
    wp::compiler::compile_options options;
    options.options = {{"end_after", "1"}, {"timing", "later"}, {"strict", "true"}};
    auto ok = compile_text(good, {}, "", options);
    INFO(ok->rendered());
    REQUIRE(ok->ir);
    CHECK(ok->ir->options[0].selected_index == 0);
    CHECK(ok->ir->options[0].default_index == 1);
    CHECK(ok->ir->options[1].selected_index == 1);
    CHECK(ok->ir->options[2].selected_index == 1);
    CHECK(ok->ir->selected_options.size() == 3);

    options.options = {{"end_after", "3"}, {"timing_", "now"}};
    auto wrong = compile_text(good, {}, "", options);
    CHECK_FALSE(wrong->ir);
    CHECK(wrong->count(diag_kind::unknown_option_value) == 2);
    const std::string text = wrong->rendered();
    CHECK(text.find("`3` is not a value of option `end_after`; its values are 1, 2") != std::string::npos);
    CHECK(text.find("did you mean `timing`?") != std::string::npos);
}

TEST_CASE("typecheck: assignments only change state", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
state { used: flag }
procedure c(p: player) {
  let n = 3;
  n = 4;
  pikemen.strength = 2;
  used = false;
  roll campaign_roll(p) = 3;
}
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::not_assignable) == 4);
}

TEST_CASE("typecheck: ill-formed tables", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
enum result { Ae, De }
table crt : roll 1d6, odds(3, 1) {
  columns 1-1, 2-1
  1 : Ae, De
  2 : Ae
}
table t(p: player) : roll campaign_roll(p) {
  Infantry "x" { }
}
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::bad_table) == 2);
}

TEST_CASE("typecheck: cards that do not match their record", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
record unit_face { arm: arm, rating: 0..3 error }
cards unit of unit_face { a "A" { arm = Infantry } b "B" { arm = Cavalry, rating = 1, ratin = 2 } }
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::bad_entity) == 2);
    CHECK(r->rendered().find("did you mean `rating`?") != std::string::npos);
}

TEST_CASE("typecheck: rules aimed at the wrong kind of thing", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
table outcome(p: player) : roll campaign_roll(p) { 1-10 "x" { } }
modifier to_table : +1 to outcome;
define bad_define : campaign_roll(p) = 3;
forbid bad_forbid : campaign_roll(p);
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::bad_rule_target) == 3);
    const auto* d = r->first(diag_kind::bad_rule_target);
    REQUIRE(d->notes.size() == 2);
    CHECK(d->notes[1].message == "the table reads the roll `campaign_roll`; aim the modifier at that roll");
}

TEST_CASE("typecheck: override cycles are named", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
modifier a overrides c : +1 to campaign_roll;
modifier b overrides a : +1 to campaign_roll;
modifier c overrides b : +1 to campaign_roll;
modifier d overrides d : +1 to campaign_roll;
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::override_cycle) == 2);
    CHECK(r->rendered().find("these rules override each other in a cycle: `a` → `c` → `b` → `a`") != std::string::npos);
}

TEST_CASE("typecheck: no cascades", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
procedure c(p: player) {
  let x = unknown_thing;
  p.gold = x + 1;
  if x > 2 and x.field == 3 { p.gold += x; }
  p.gold = nothing.there + also_nothing;
}
)");
    CHECK_FALSE(r->ir);
    CHECK(r->sink.error_count() == 3);  // unknown_thing, nothing, also_nothing: nothing about `x`
    CHECK(r->count(diag_kind::unknown_name) == 3);
}

TEST_CASE("typecheck: enum members resolve by the expected type", "[compiler][typecheck]") {
    auto r = compile_text(R"(
enum colour { Red, Green }
enum light { Green, Amber }
state { c: colour = Green  l: light = Amber }
predicate p1 = c == Green;
predicate p2 = Green == l;
predicate p3 = Amber == l and Red == c;
)");
    INFO(r->rendered());
    REQUIRE(r->ir);
    const auto& rs = *r->ir;
    const auto& n = rs.nodes[rs.children[rs.nodes[rs.quantities[0].expr].first_child + 1]];
    CHECK(n.code == wp::ir::op::const_member);
    CHECK(n.value == 1);
    CHECK(rs.slots[0].initial == 1);
}

TEST_CASE("typecheck: scopes of parameters, lets, loops and binders", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
procedure a(p: player) {
  for each q in players { let n = q.gold; }
  p.gold = n;
}
quantity b(p: player) : int = count(c in hand[p] : c.strength > 1) + c.strength;
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::unknown_name) == 2);
}

// ---------------------------------------------------------------- lower: the all-constructs ruleset

TEST_CASE("lower: the all-constructs ruleset compiles", "[compiler][lower]") {
    auto r = compile_folder(all_constructs());
    INFO(r->rendered());
    REQUIRE(r->ir);
    CHECK(r->sink.all().empty());
    const auto& rs = *r->ir;
    CHECK(rs.name == "all_constructs");
    CHECK(rs.min_players == 2);
    CHECK(rs.max_players == 4);
    CHECK(rs.layers.size() == 4);
    CHECK(rs.sections.size() == 10);
    CHECK(rs.entities.size() == 5);
    CHECK(rs.maps.size() == 2);
    REQUIRE(rs.tables.size() == 4);
    CHECK(rs.tables[2].name == "crt_card");
    CHECK(rs.tables[2].printing_of == 1);  // crt
    CHECK(rs.tables[1].printing_of == wp::ir::no_id);
    CHECK(rs.options.size() == 3);
    CHECK(rs.missing_data.size() == 2);  // a declaration, and a card marked `missing`
    CHECK(rs.standins.size() == 3);  // two lists, and one card's strength
    CHECK(rs.standins[0].kind == wp::ir::element_kind::entity);
    CHECK(rs.standins[0].field == "strength");
    CHECK(rs.missing_data[0].kind == wp::ir::element_kind::entity);
    CHECK(rs.missing_data[0].field.empty());
    CHECK(rs.errata.size() == 6);
    CHECK(rs.blocks.size() == 7);
    CHECK(wp::ir::check_integrity(rs).empty());

    SECTION("every element has provenance") {
        for (const auto& rule : rs.rules) {
            CHECK(rule.prov.where.file != wp::ir::no_id);
            CHECK(rule.prov.where.line > 0);
            CHECK(rule.prov.layer != wp::ir::no_id);
            for (const auto& a : rule.prov.anchors) CHECK(a.section != wp::ir::no_id);
        }
        for (const auto& n : rs.nodes) {
            CHECK(n.where.file != wp::ir::no_id);
            CHECK(n.layer != wp::ir::no_id);
        }
    }
    SECTION("rolls keep exact distributions") {
        const auto& upkeep = rs.rolls[3];
        CHECK(upkeep.name == "upkeep");
        REQUIRE(upkeep.linear);
        CHECK(upkeep.dist.min == 2);
        CHECK(upkeep.dist.max == 12);
        CHECK(upkeep.dist.total == 36);
        CHECK(upkeep.dist.weights[5] == 6);
        const auto& revenue = rs.rolls[2];
        CHECK(revenue.dist.min == 0);
        CHECK(revenue.dist.max == 2);
        CHECK(revenue.aid == "one third of a d6, minus one");
        const auto& loot = rs.rolls[1];
        CHECK(loot.terms[0].dice.low == 0);
        CHECK(loot.dist.max == 9);
    }
    SECTION("tables are dense with key maps") {
        const auto& crt = rs.tables[1];
        CHECK(crt.columns.size() == 4);
        CHECK(crt.cells.size() == 24);
        CHECK(crt.columns[2].kind == wp::ir::key_range_kind::odds);
        CHECK(crt.columns[2].lo == 2);
        CHECK(crt.columns[2].hi == 1);
        CHECK(crt.keys[1].round == wp::ir::rounding::defender);
        CHECK(crt.keys[1].has_clamp);
        CHECK(crt.keys[1].clamp_lo.lo == 1);
        CHECK(crt.keys[1].clamp_lo.hi == 2);
        const auto& outcome = rs.tables[0];
        CHECK(outcome.row_map.below == 0);
        CHECK(outcome.row_map.above == 3);
        const auto& tec = rs.tables[3];
        CHECK(tec.row_map.kind == wp::ir::key_range_kind::member);
        CHECK(tec.row_map.dense == std::vector<std::int32_t>{0, 1, 2});
        CHECK(tec.param_count == 1);  // the key variable is its argument
    }
    SECTION("rules are grouped by target with their override edges") {
        bool found = false;
        for (const auto& g : rs.groups) {
            if (g.target != wp::ir::target_kind::decision) continue;
            found = true;
            CHECK(g.rules.size() == 4);
            CHECK(g.edges.size() == 4);
        }
        CHECK(found);
    }
    SECTION("the text dump names everything") {
        const std::string text = r->ir_text();
        CHECK(text.find("block 2 phase game.turn.draw in 1") != std::string::npos);
        CHECK(text.find("errata 5 clarification \"A clarification\" withdraw big_hand") != std::string::npos);
    }
}

TEST_CASE("lower: the all-constructs ruleset with options selected", "[compiler][lower]") {
    wp::compiler::compile_options options;
    options.options = {{"end_timing", "end_of_round"}, {"muddy", "true"}};
    auto r = compile_folder(all_constructs(), options);
    INFO(r->rendered());
    REQUIRE(r->ir);
    CHECK(r->ir->options[1].selected_index == 1);
    CHECK(r->ir->options[2].selected_index == 1);
}

TEST_CASE("lower: hexgrid neighbours follow the documented geometry", "[compiler][lower]") {
    auto r = compile_text(R"(
enum ground { Clear }
map m : hexgrid {
  hex 0101 : Clear  hex 0102 : Clear  hex 0201 : Clear  hex 0202 : Clear  hex 0301 : Clear  hex 0302 : Clear
}
)");
    INFO(r->rendered());
    REQUIRE(r->ir);
    const auto& nodes = r->ir->maps[0].nodes;
    // Even columns sit half a hex lower: 0201 touches 0101, 0102, 0301 and 0302.
    CHECK(nodes[2].neighbours == std::vector<wp::ir::id>{0, 1, 3, 4, 5});
    CHECK(nodes[0].neighbours == std::vector<wp::ir::id>{1, 2});
}

// ---------------------------------------------------------------- more error cases

TEST_CASE("outline: a reversed range", "[compiler][outline]") {
    temp_ruleset folder({{"ruleset.wph", manifest("  layer base : base { \"base.wph\" }\n")},
                         {"outline.wph", "outline {\n  §L54-52 \"backwards\" encoded\n}\n"},
                         {"base.wph", "enum e { A }\n"}});
    auto r = compile_folder(folder.root());
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::bad_range) == 1);
}

TEST_CASE("patch: replacements and exceptions of the wrong kind", "[compiler][patch]") {
    const std::string base = std::string(small_game) + "modifier strength : +1 to campaign_roll;\n";
    auto r = compile_text(base,
                          {{"errata.wph", "errata correction \"fix\" {\n"
                                          "  replace rule strength with roll strength = 1d6;\n"
                                          "  except rule strength with enum e { A }\n"
                                          "  except rule campaign_roll with modifier m : +1 to campaign_roll;\n"
                                          "  refine rule deck when true;\n}\n"}},
                          "  layer fix : errata { \"errata.wph\" }\n");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::wrong_kind_of_name) == 4);
}

TEST_CASE("typecheck: zones in zone statements", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
pieces leader of face { tilly "Tilly" { arm = Infantry } }
zone pool : public of leader
procedure c(p: player) {
  deal 2 from deck to hand[p];
  draw 1 from deck to hand;
  move pikemen from pool to hand[p];
  shuffle p;
}
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::type_mismatch) == 4);
}

TEST_CASE("typecheck: option values and type definitions", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
option o : a | b | a = a;
option mixed : a | 2 = a;
type loop_a = loop_b
type loop_b = loop_a
state { s: arm = Dragoons }
)");
    CHECK_FALSE(r->ir);
    CHECK(r->count(diag_kind::duplicate_name) == 1);
    CHECK(r->count(diag_kind::type_mismatch) == 2);  // the mixed option, the type cycle
    CHECK(r->count(diag_kind::unknown_name) == 1);   // Dragoons
}

TEST_CASE("typecheck: examples fix rolls and see their own names", "[compiler][typecheck]") {
    auto r = compile_text(std::string(small_game) + R"(
table outcome(p: player) : roll campaign_roll(p) { 1-5 "Loss" { } 6+ "Win" { } }
example win §2 : given { let p = active_player; p.gold = 3; roll campaign_roll(p) = 9; } expect outcome(p) == "Win";
)");
    INFO(r->rendered());
    REQUIRE(r->ir);
    const auto& rule = r->ir->rules.at(0);
    CHECK(rule.kind == wp::ir::rule_kind::example);
    REQUIRE(rule.body != wp::ir::no_id);
    const auto kids = wp::ir::children_of(*r->ir, rule.body);
    REQUIRE(kids.size() == 3);
    CHECK(r->ir->nodes[kids[2]].code == wp::ir::op::fix_roll);
    CHECK(r->ir->nodes[rule.value].code == wp::ir::op::eq);
}
