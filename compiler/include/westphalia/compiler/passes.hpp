// The compiler's passes, one file each, exposed for unit tests and tools. compile_ruleset()
// runs them in order: load → outline → patch → resolve → typecheck → lower.
#pragma once

#include "westphalia/compiler/compile.hpp"
#include "westphalia/dsl/ast.hpp"
#include "westphalia/dsl/diagnostics.hpp"
#include "westphalia/dsl/source.hpp"
#include "westphalia/ir/ir.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wp::compiler {

// ---------------------------------------------------------------- load
// Output: the manifest, the outline and every layer file parsed (files that failed to read or
// parse have no tree; their diagnostics are in the sink). Layers past --upto are not read.

struct loaded_file {
    std::uint32_t source = 0;  // id in the source_manager
    std::string path;          // as the manifest wrote it (relative to the ruleset folder)
    std::optional<dsl::file> tree;
    std::optional<dsl::span> cited_from;  // the manifest entry naming it
};

struct loaded_layer {
    std::string name;
    ir::layer_kind kind = ir::layer_kind::base;
    std::vector<std::size_t> files;  // indices into loaded_ruleset::files
    dsl::span where;
};

struct loaded_expansion {
    std::string name;
    std::vector<std::string> after;
    std::vector<std::string> files;
    bool selected = false;
};

struct loaded_ruleset {
    std::optional<dsl::ruleset_decl> manifest;
    std::vector<loaded_expansion> expansions;  // every declared expansion, in manifest order
    std::optional<loaded_file> manifest_file;
    std::optional<loaded_file> outline_file;
    std::optional<dsl::outline_decl> outline;
    std::vector<loaded_file> files;
    std::vector<loaded_layer> layers;
    std::size_t unreadable = 0;  // layer files that could not be read
    bool single_file = false;    // one .wph file compiled as a one-layer ruleset with no outline
};

// `folder` is a ruleset folder, or a single .wph file: then the file alone is the base layer of
// a ruleset named after it, with no manifest and no outline (anchors are not checked).
// With `keep_options`, the `options` layers past `upto` are read too.
// `with` names the expansions to apply; the others are not read (docs/language.md §11).
loaded_ruleset load(const std::filesystem::path& folder, const std::optional<std::string>& upto,
                    dsl::source_manager& sources, dsl::diagnostic_sink& sink, bool keep_options = false,
                    const std::vector<std::string>& with = {});

// ---------------------------------------------------------------- outline
// Sections are points or ranges of line numbers (`L52`, `L52-54`) or of dotted section numbers
// (`9.14`, `14.2-14.4`). A cited point p lies in an entry lo..hi when lo <= p, and p <= hi or hi
// is a dotted prefix of p (its parent section). Dotted numbers compare component by component
// as integers, so 9.2 < 9.14 and 9 < 9.1. Anything else compares as exact text.

struct section_key {
    enum class kind : std::uint8_t { line, numbered, text } k = kind::text;
    std::vector<std::int64_t> parts;  // line: {n}; numbered: the components
    std::string text;
};

std::optional<section_key> parse_section(const std::string& text);
// The key of the end of a range, completing a short form: `L52-54` ends at L54, `14.2-4` at 14.4.
std::optional<section_key> parse_range_end(const section_key& first, const std::string& last);

class outline_index {
public:
    // Checks statuses and duplicates; reports bad-outline-status and duplicate-section.
    void build(const dsl::outline_decl& outline, dsl::diagnostic_sink& sink);
    // The innermost section containing the anchor (both ends of a range must lie in sections; the
    // answer is the one containing its first end), if any.
    std::optional<ir::id> find(const dsl::anchor& a) const;
    const std::vector<ir::section>& sections() const { return sections_; }
    const std::vector<dsl::span>& spans() const { return spans_; }  // of each section's entry

private:
    struct entry {
        section_key lo;
        section_key hi;
    };
    std::optional<ir::id> find_point(const section_key& p) const;
    std::vector<ir::section> sections_;
    std::vector<entry> entries_;
    std::vector<dsl::span> spans_;
};

// Reports unknown-anchor for every anchor of every parsed file that lies in no outline section.
void check_anchors(const loaded_ruleset& loaded, const outline_index& outline, dsl::diagnostic_sink& sink);

// ---------------------------------------------------------------- patch
// Output: the declarations in force after applying the layers in manifest order, each with the
// layer that last set it. Errata operations are applied in file order; every application is
// recorded for the IR.

struct refinement {
    const dsl::expr* guard = nullptr;
    std::uint32_t layer = 0;
};

struct exception_edge {
    std::string over;  // the rule this one overrides (an `except`)
    dsl::span where;
};

struct placed_decl {
    const dsl::decl* d = nullptr;
    std::uint32_t layer = 0;          // the layer that last set it
    std::uint32_t origin_layer = 0;   // the layer that first introduced its name
    std::uint32_t text_layer = 0;     // the layer whose text it is (a replacement's errata layer)
    std::vector<refinement> refinements;
    std::vector<exception_edge> exceptions;
    std::vector<const dsl::table_row*> amended_rows;  // table: the rows after amendments, when amended
    std::vector<std::uint32_t> row_layers;            // parallel to amended_rows
    bool amended = false;
};

struct applied_errata {
    std::uint32_t layer = 0;
    const dsl::errata_decl* block = nullptr;
    const dsl::errata_op* op = nullptr;
    const dsl::decl* result = nullptr;  // the declaration it set (none for withdraw)
};

// A card's event, planned by plan_card_events() for the passes after it.
struct card_event_plan {
    const dsl::event_decl* decl = nullptr;
    std::uint32_t layer = 0;
    std::string kind;       // the card's `cards` kind
    std::string procedure;  // the procedure holding its block ("c19.event")
    std::string flag;       // its in-force state value ("c19.in_force"); empty when it happens at once
};

struct patched_ruleset {
    std::vector<placed_decl> decls;
    std::map<std::string, std::string> aliases;  // replaced name -> replacement's name
    std::vector<applied_errata> errata;
    // Rules withdrawn, with the withdrawing operation (for orphan-exception notes).
    std::map<std::string, dsl::span> withdrawn;
    // Sequences and procedures whose blocks an errata replaced or inserted: patched copies
    // (placed_decl::d points here), and the layer of each block an errata put in, by path.
    std::vector<std::unique_ptr<dsl::decl>> owned;
    std::map<std::string, std::uint32_t> block_layers;
    // Card events (plan_card_events): the plan of each, the procedure playing the events of each
    // card kind, and `events outrank rules` with its layer.
    std::vector<card_event_plan> card_events;
    std::map<std::string, std::string> event_dispatchers;
    const dsl::event_decl* outrank = nullptr;
    std::uint32_t outrank_layer = 0;
};

patched_ruleset patch(const loaded_ruleset& loaded, dsl::diagnostic_sink& sink);

// ---------------------------------------------------------------- card events
// After patch: each `event of CARD` becomes a procedure, its in-force state value and the card
// kind's dispatching procedure, and turn and phase blocks end the events lasting them
// (card_events.cpp). Unknown cards and second events are reported.
void plan_card_events(patched_ruleset& out, dsl::diagnostic_sink& sink);
// The plan of card `card`'s event, or nothing when it has none.
const card_event_plan* card_event_of(const patched_ruleset& p, const std::string& card);

// The declared name of a declaration, if it has one.
const dsl::name* decl_name(const dsl::decl& d);

// ---------------------------------------------------------------- resolve, typecheck, lower
// resolve: every declaration gets its table index and symbol; types are resolved.
// typecheck: every expression and statement is checked and becomes typed IR nodes.
// lower: tables, rolls, rules and groups are assembled with provenance; options selected.
// These three share state and run through lower_ruleset().

std::optional<ir::ruleset> lower_ruleset(const loaded_ruleset& loaded, const outline_index& outline,
                                         const patched_ruleset& patched, const compile_options& options,
                                         const dsl::source_manager& sources, dsl::diagnostic_sink& sink);

}  // namespace wp::compiler
