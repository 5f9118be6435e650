// The aid model's builder, private to docgen: what every section of the aid reads (the ruleset,
// what play reaches under the chosen options, the document written so far) and the span and
// number helpers the sections share. Its sections are written in model*.cpp, one concept a file;
// build_document (model.cpp) calls them in the order a player needs them at the table.
#pragma once

#include "model.hpp"

#include "english.hpp"
#include "odds.hpp"
#include "readings.hpp"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace wp::docgen::detail {

inline span bold(std::string s) { return {std::move(s), face::bold, false}; }
inline span text(std::string s) { return {std::move(s), face::regular, false}; }
inline span muted(std::string s) { return {std::move(s), face::regular, true}; }

// "Renewal roll" for a table/roll name, title-like.
inline std::string title_of(const std::string& identifier) { return capitalised(humanize(identifier)); }

// A bound this far from the other end is the engine's bookkeeping (gold 0..100000), not a limit
// of the game: the aid says "0 or more".
inline constexpr std::int64_t bookkeeping_span = 5000;

// "0 to 13", "−3 to +3" (a scale through zero shows both signs), "0 or more".
inline std::string range_text(std::int64_t lo, std::int64_t hi) {
    if (hi - lo > bookkeeping_span) {
        if (lo >= -bookkeeping_span) return number(lo) + " or more";
        if (hi <= bookkeeping_span) return number(hi) + " or less";
        return "any number";
    }
    return number(lo) + " to " + (lo < 0 ? signed_number(hi) : number(hi));
}

// Under odds that leave out a `=`, cap or floor applying only sometimes (or by a value of play).
inline constexpr const char* bounds_caveat =
    "Odds before the modifiers that set or bound the roll only sometimes (listed with the roll): where one applies, "
    "the roll becomes or is held to its value.";

// One aid in the making: the sections append their blocks to `doc`.
struct builder {
    const ir::ruleset& rs;
    document doc;
    std::map<ir::id, std::vector<threshold>> thresholds = roll_thresholds(rs);
    table_readings readings = readings_of(rs);
    std::map<ir::id, std::string> charted;  // define rules the terrain charts print whole
    // The procedures and quantities play reaches under the chosen options (see `reach`).
    std::vector<bool> reached_procedures, reached_quantities;
    // The game's yes/no values no play under the options sets, at their first value.
    local_values fixed_flags;
    // The game's values of an enum the setup sets and play under the options never changes (SPI's
    // `today` in a one-day scenario), at that value: a rule on another value is left out.
    local_values settled;
    // The stand-ins already marked where their element is printed (a table's, a list's, a map's
    // note): the closing list of stand-in data names only the others.
    std::set<ir::id> standins_noted;

    // model.cpp: what play reaches, the phrasing the sections share, header and footer, options and sources
    void reach();
    void add(block b) { doc.blocks.push_back(std::move(b)); }
    bool live(const ir::rule& r) const;
    // An errata operation of an expansion, or of an exclusive layer (a game's own map, counters
    // or procedures in place of the series rules' stand-ins): neither is an errata of the rules.
    bool from_expansion(const ir::errata_op& e) const { return from_layer_kind(e, ir::layer_kind::expansion); }
    bool from_exclusive(const ir::errata_op& e) const { return from_layer_kind(e, ir::layer_kind::exclusive); }
    bool from_layer_kind(const ir::errata_op& e, ir::layer_kind k) const {
        return e.layer < rs.layers.size() && rs.layers[e.layer].kind == k;
    }
    std::string when(const english& en, ir::id guard) const;
    std::size_t dead_rules() const;
    void section(const std::string& title) { add(heading{1, title, ""}); }
    void entry(rich_text t, int indent = 0, bool small = false) { add(paragraph{std::move(t), indent, small}); }
    std::string layer_note(const ir::provenance& p) const;
    span source(const ir::provenance& p) const;
    english speaker(const std::vector<ir::local>& frame, const std::vector<ir::id>& roots) const;
    void header_and_footer();
    void options_paragraph();
    void errata_paragraphs();
    void options_and_sources();

    // model_sequence.cpp: the sequence of play and a scenario's deployment
    static bool numbered(const ir::block& b);
    std::string block_title(const ir::block& b, const std::string& number) const;
    void nested_blocks(const english& en, const std::vector<ir::id>& nested, int depth, const std::string& prefix);
    bool sequence_block(const english& en, ir::id b, int depth, const std::string& number);
    bool reads_option(ir::id n, ir::id o, std::set<ir::id>& seen) const;
    // A scenario's deployment: each call of the setup it reads (the call, its title, what it places).
    struct deployed {
        ir::id call;
        std::string title, what;
    };
    std::vector<deployed> deployment(const english& en, ir::id body) const;
    void sequence_of_play();

    // model_rolls.cpp: rolls, their modifiers and their odds
    std::vector<ir::id> tables_reading(ir::id roll) const;
    void modifier_lines(const std::vector<ir::id>& mods, int indent);
    void rolls();
    void counted_odds_grids();
    void success_odds();

    // model_tables.cpp: tables, their odds and the key to their results
    std::string key_words(const ir::table& tb, std::size_t axis, const ir::key_range& k, bool natural = false) const;
    bool stores_constants(ir::id statements) const;
    std::string key_label(const ir::table& tb, std::size_t k) const;
    std::string cell_result(const ir::table& tb, const ir::table_cell& c) const;
    void table_grid(ir::id t);
    void printing_notes(ir::id t, grid& g) const;
    void table_odds(ir::id t);
    void tables();
    // model_chances.cpp: odds computed from the rules (`chances`), by the engine
    void chances();
    void each_element(const std::function<void(const std::string&, const std::vector<ir::local>&, std::vector<ir::id>)>& f) const;
    std::vector<std::int64_t> tested_members(ir::id c, ir::id e, ir::id* rest = nullptr, std::set<ir::id>* used = nullptr) const;
    void results_key(ir::id t);

    // model_components.cpp: zones of control and stacking, actions, cards and pieces, maps, limits
    void zones_and_stacking();
    std::vector<ir::id> rules_on(ir::target_kind kind, ir::id target, std::initializer_list<ir::rule_kind> kinds) const;
    std::string params_text(const std::vector<ir::local>& locals, std::size_t count) const;
    std::string typed_params(const std::vector<ir::local>& locals, std::size_t count) const;
    void actions();
    std::string field_value(const ir::field& f, std::int64_t v) const;
    void components();
    std::string entity_mark_signs(ir::id e) const;
    std::string card_event_text(ir::id card) const;
    void entity_mark_notes(const ir::entity_kind& kind, std::vector<std::string>& notes) const;
    void components_section();
    void secrets();
    void maps();
    void limits();

    // model_victory.cpp: triggers, end of game, victory and the other decisions
    void trigger_entry(const ir::rule& r);
    bool is_victory(const ir::decision& d) const;
    void end_and_victory();
    void other_decisions();
    void decisions(bool victory);
    void triggers();
};

}  // namespace wp::docgen::detail
