// English from the IR by templates: expressions, conditions and statements read as short
// sentences in our own words ("p's reputation −2", "if the renewal roll is 6 or more").
#pragma once

#include "westphalia/ir/ir.hpp"

#include <functional>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wp::docgen {

// "renewal_roll" -> "renewal roll"; "EmploymentRoll" -> "employment roll".
std::string humanize(const std::string& identifier);
// A field's name: humanized, less a one-letter prefix that only keeps names apart in the rules
// ("l_mp" of a leader -> "mp", "g_in_play" of a gun -> "in play").
std::string field_name(const std::string& identifier);
// "an employment roll", "a renewal roll".
std::string with_article(const std::string& noun);
// "campaign outcome table" for campaign_outcome and for trait_table alike.
std::string table_name(const std::string& identifier);
// The first letter in upper case ("renewal roll" -> "Renewal roll").
std::string capitalised(std::string text);
// "§L56-62 §L63-68" (empty when the element cites nothing).
std::string anchors_text(const ir::provenance& p);
// "+1", "−2" (a true minus sign), "0".
std::string signed_number(std::int64_t v);
// "−2", "3".
std::string number(std::int64_t v);
// A constant of type `t` for a reader: a member's label, an entity's display name, a number.
std::string constant_english(const ir::ruleset& rs, ir::id t, std::int64_t v);
// What value `index` of option `o` is called for a reader: the phrase of the option's aid text
// that names it when that text names each value in order ("3 August, 5 August, …, or the
// siege"), else the value humanised ("short" of `scenario` reads "short scenario").
std::string option_value_words(const ir::ruleset& rs, const ir::option& o, std::size_t index);
// The phrases of the option's aid text, one per value in order, or none when it is not such a list.
std::vector<std::string> option_labels(const ir::option& o);
// The dice of a linear roll as printed ("2d6", "1d3 − 1", "1d[0..9]").
std::string dice_text(const ir::roll& r);

// The value of an expression that depends only on constants and the chosen options
// (`option.end_timing == end_of_round`), or nothing when it depends on the game state.
// The aid prints what the chosen options make of the rules, so a branch no option reaches is
// left out.
// Every node reachable from `root` (none when `root` is no_id), parents before children.
void visit(const ir::ruleset& rs, ir::id root, const std::function<void(ir::id)>& f);

// A statement that sets a value: `=`, `+=` or `-=`.
inline bool sets_value(ir::op c) { return c == ir::op::assign || c == ir::op::add_assign || c == ir::op::sub_assign; }

// The member of enum `e` that comparison `c` holds a value against, when `c`'s operator is one
// of `ops`: `x == Woods`, `x != Dd` (either side), `Woods in hexside(a, b)` (the member first).
std::optional<std::int64_t> compared_member(const ir::ruleset& rs, ir::id c, ir::id e, std::initializer_list<ir::op> ops);

// `chosen` reads some options at other values than the ruleset's (option -> index of its value).
using option_choice = std::map<ir::id, std::size_t>;
// `locals` gives constants for some locals of the element (a procedure expanded for one call).
using local_values = std::map<ir::id, std::int64_t>;
// `globals` gives constants for some of the game's values (flags no play under the options sets).
std::optional<std::int64_t> static_value(const ir::ruleset& rs, ir::id n, const option_choice* chosen = nullptr,
                                         const local_values* locals = nullptr, const local_values* globals = nullptr);

// What a value of type `t` is called in the aid: "player", "card", "hex", "roll kind".
std::string role_noun(const ir::ruleset& rs, ir::id t);
// "cards", "hexes", "armies".
std::string plural(const std::string& noun);

// The card event whose in-force value slot `s` is, or nothing; a card event's card as printed.
const ir::card_event* event_of_flag(const ir::ruleset& rs, ir::id s);
std::string event_card_name(const ir::ruleset& rs, const ir::card_event& e);
// A piece's clauses of what it is, in a row, said once: "it is on the map; it is in hex 0508; it
// is marshal" reads "it is on the map, in hex 0508, marshal".
std::string states_folded(const std::string& clauses);

// Renders nodes of one element (its locals in `frame`) as English.
//
// A local with a one-letter name, perhaps numbered or plural (`p`, `u2`, `cs`), is the rule language's shorthand, not a
// word a player knows: it reads as its role, from its type ("the player", "the card"). A second
// such name of the same role in the element reads "the other player", a third "the third
// player". A longer name is the designer's word and reads as it is written ("the winner").
// The first player of an element (its parameter, or each player of a loop over the players) is
// the reader, as on a published aid: "you", "your gold"; a player someone chooses is not.
class english {
public:
    english(const ir::ruleset& rs, const std::vector<ir::local>& frame);

    // Orders the role names by scope: a local bound where another of its role is in scope (a
    // `q` in `for each q in opponents(p)`) is "the other player"; one bound where none is, "the
    // player", whatever else the element binds elsewhere. Without this, the frame's order counts.
    void scope_roles(const std::vector<ir::id>& roots);
    // Reads local `l` as `words` ("the renewal roll" for a local bound to that roll).
    void name_local(ir::id l, std::string words) { renamed_[l] = std::move(words); }
    // Reads call node `call` as `words` ("the deployment below" for the call a setup's
    // deployment, printed under it, reads out).
    void name_call(ir::id call, std::string words) { renamed_calls_[call] = std::move(words); }
    // The statements read hold under `guard` (a trigger's `when`): an `if` on one of its
    // conjuncts is decided, and reads as its branch.
    void assume(ir::id guard);
    // Binds local `l` to a constant: a condition on it is decided where it is read, and it reads
    // as the constant ("3 Aug").
    void bind(ir::id l, std::int64_t v) { bound_[l] = v; }
    // A call of a procedure some of whose branches its constant arguments or the options decide
    // (a scenario's orders of battle) reads as the procedure's body for that call, `depth`
    // levels deep; any other call reads as a call ("deploy units (Bavarian, Infantry, 14, …)").
    void expand_calls(int depth) { expand_ = depth; }
    // Game values that keep their first value under the chosen options (`defends_town` where no
    // scenario but one sets it): a condition on them is decided too. Not owned.
    void fix_globals(const local_values* globals) { globals_ = globals; }
    // Whether `emit` statements are read out ("→ hired (p, e)"); table cells leave them out.
    void show_events(bool show) { show_events_ = show; }
    // Whether the statements read are a setup's, run once before play: a loop that seats the
    // players reads as who plays what ("seat 1 plays the Imperial camp").
    void in_setup(bool setup) { setup_ = setup; }

    std::string expr(ir::id n) const;
    // An expression read as a condition: a flag field reads as a statement about its owner
    // ("you are employed", "the unit is not disrupted"); anything else as expr().
    std::string condition(ir::id n) const;
    // The first `count` parameters as a reader needs them: named ones by name ("winner, high"),
    // role ones left out (the text names them "the player"); with `typed`, every one with what it
    // is ("a player, another player, a card"). Empty, or " (…)".
    std::string parameters(std::size_t count, bool typed) const;
    // A statement sequence as one run of clauses; nested blocks (steps) are not entered: they
    // are named and appended to `nested` so the caller can print them as entries of their own.
    // At the top of a block (`top`), a nested block is only collected, not named in the text.
    std::string statements(ir::id n, std::vector<ir::id>* nested = nullptr, bool top = false) const;

private:
    std::string operand(ir::id n, ir::op parent) const;
    // A flag field (or its negation; negated again with `negate`) as a statement.
    std::optional<std::string> flag_phrase(ir::id n, bool negate = false) const;
    std::string owner_field(ir::id owner_node, const std::string& field) const;
    std::string local_name(ir::id l) const;
    // What local `l` ranges over when a binder introduces it: "card", "other player", or its name.
    std::string local_kind(ir::id l) const;
    bool is_role(ir::id l) const { return l < roles_.size() && roles_[l].ordinal >= 0; }
    std::string range_words(ir::id range) const;  // "from 0 to k"
    std::string among(ir::id collection) const;  // " in the player’s hand", or "" for every member of a type
    std::string statement(ir::id n, std::vector<ir::id>* nested) const;
    // A loop over every piece or space of a kind whose body is `if`s its data decides, where calls
    // are expanded: each member and the branch it takes, in order; else nothing.
    std::optional<std::vector<std::pair<std::int64_t, ir::id>>> unrolled(ir::id n) const;
    std::string body(ir::id n, std::vector<ir::id>* nested) const;
    std::string args(ir::id n, std::size_t from = 0) const;
    // english_setup.cpp: a scenario's deployment, read as a player sets up.
    // A call in a deployment that places pieces: who places them, where, and what ("11 French
    // Regular Infantry units", "von Mercy"); nothing when the call is not one.
    struct placing {
        std::string who, where, what;
    };
    std::optional<placing> placement(ir::id call) const;
    // A call the engine makes to prepare the map (no argument, no choice for anyone): not printed.
    bool plumbing(ir::id call) const;
    // "the Bavarian player" for "bavarian player": the game's words for a side keep their capitals.
    std::string player_words(std::string words) const;
    // Calls in a row read as placings, the same player and place shared: "the French player sets
    // up in the French 5 August area: 11 French Regular Infantry units, …, Turenne".
    static std::string placings_text(const std::vector<placing>& run);
    // A loop over the pieces of a kind that puts the first one its data pick that is not yet
    // placed on a given space while that space is empty: "one more Bavarian Cavalry unit starts
    // in hex 2012, if it has no units"; nothing when the loop is not one.
    std::optional<std::string> placing_loop(ir::id n) const;
    // In a deployment, a piece's field set to a constant of its data: "it is on the map", "it is
    // in hex 0508", "its holder is Imperial"; nothing when the assignment is not one.
    std::optional<std::string> piece_data(ir::id assign) const;
    // english_seating.cpp: a setup's loop over the players that gives each seat its side, by
    // flags or a count only that loop sets, read as one sentence ("seat 1 plays the Imperial
    // camp, seat 2 the Protestant camp"); nothing when the loop is not one.
    std::optional<std::string> seating(ir::id n) const;
    // A game value of type player that only a seating loop sets, to the seat it gives a side
    // (`prot_player = p` beside `p.camp = Protestant`): "the Protestant player"; else "".
    std::string seat_player(ir::id slot) const;
    // english_bookkeeping.cpp: a game value only the conditions of forbid, permit and require
    // rules read, kept to refuse a choice: the statements that set it are not printed.
    bool bookkeeping(ir::id slot) const;
    // english_loops.cpp: `v = a; while v < b { v += 1; … }` (statements `start` and `loop` in a
    // row) read as "for v from a+1 to b: …"; nothing when the two are not such a loop.
    std::optional<std::string> counted_loop(ir::id start, ir::id loop, std::vector<ir::id>* nested) const;
    std::string comparison(ir::op code, ir::id left, ir::id right) const;
    bool is_zero_size(ir::id n) const;

    const ir::ruleset& rs_;
    const std::vector<ir::local>& frame_;
    std::map<ir::id, std::string> renamed_;
    std::map<ir::id, std::string> renamed_calls_;
    std::vector<std::string> assumed_;  // the conjuncts assume() holds true, as condition() reads them
    struct role {
        std::string noun;  // "player"
        int ordinal = -1;  // 0 "the player", 1 "the other player", …; -1: the local's own name
        bool you = false;  // the player the rule speaks to: "you", "your gold"
    };
    std::vector<role> roles_;
    bool show_events_ = true;
    bool setup_ = false;
    mutable int secret_depth_ = 0;  // statements inside a `simultaneous` block being read
    mutable local_values bound_;  // a `let` of a decided value binds it as it is read
    // A yes/no game value a `may` just set (`may "defend the town" { defends_town = true; }`):
    // an `if` on it right after reads "if they do".
    mutable ir::id chosen_flag_ = ir::no_id;
    int expand_ = 0;
    const local_values* globals_ = nullptr;
    // per procedure: running it can end the turn (ir::procedures_ending_turn), found when first asked
    mutable std::shared_ptr<const std::vector<bool>> ending_;
    mutable std::shared_ptr<const std::set<ir::id>> bookkeeping_;  // bookkeeping's, found when first asked
    mutable std::shared_ptr<const std::map<ir::id, std::string>> seat_names_;  // seat_player's, found when first asked
};

}  // namespace wp::docgen
