// Exact odds from the IR's roll distributions: the chance that a roll plus a net modifier
// reaches a threshold or lands in a table row, and where the procedure compares a roll.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <map>
#include <string>
#include <vector>

namespace wp::docgen {

struct chance {
    std::uint64_t ways = 0;
    std::uint64_t total = 1;
};

// "60%", "27.8%", "<0.1%", ">99.9%", "0%", "100%".
std::string percent_text(chance c);

// The caps and floors that always bound a roll (`at most k` / `at least k` modifiers with no
// `when` and a constant k); `exact` is false when some `=`, cap or floor applies only sometimes
// or by a value known only in play, so odds by net modifier leave it out (and say so).
struct roll_bounds {
    bool has_lo = false, has_hi = false;
    std::int64_t lo = 0, hi = 0;
    bool exact = true;
};
roll_bounds bounds_of(const ir::ruleset& rs, ir::id roll);

// The chance that (roll + shift), then bounded by `b` when given, falls in `key` (an integer key
// range, open ends honoured).
chance chance_in(const ir::distribution& d, std::int64_t shift, const ir::key_range& key, const roll_bounds* b = nullptr);

// The chance that row r of table tb is read when its roll (distribution d, the natural values)
// is modified by `shift`: a natural row on the natural value, first; another row on the
// modified value (then bounded by `b` when given) when no natural row took the dice.
chance row_chance(const ir::distribution& d, std::int64_t shift, const ir::table& tb, std::size_t r, const roll_bounds* b = nullptr);

// A comparison the procedure makes between a roll's result and a constant: `roll >= 6`.
struct threshold {
    ir::op code = ir::op::ge;  // ge, gt, le, lt, eq or ne, with the roll on the left
    std::int64_t value = 0;
    bool operator<(const threshold& o) const { return code != o.code ? code < o.code : value < o.value; }
    bool operator==(const threshold&) const = default;
};

// The key range a threshold selects ("6 or more" is 6..open).
ir::key_range threshold_range(const threshold& t);
// "6 or more", "less than 3".
std::string threshold_text(const threshold& t);

// For each roll (by id): every threshold its result is compared with anywhere in the rules.
std::map<ir::id, std::vector<threshold>> roll_thresholds(const ir::ruleset& rs);

// The net modifiers to tabulate a roll's odds over: the range of its single bounded modifier
// when it has one (reputation −3..3), else −3..+3.
struct modifier_span {
    std::int64_t lo = -3;
    std::int64_t hi = 3;
    std::string label;  // "reputation" or "net modifier"
};
modifier_span odds_span(const ir::ruleset& rs, ir::id roll);

// A roll that is one dice term counted at run time (`(e)dM`) plus fixed dice and whole numbers:
// its exact distribution for each possible count, before modifiers. Empty by_count when the
// roll has another shape (two counted terms, products, calls) or too many outcomes to list.
struct counted_odds {
    ir::id count = ir::no_id;  // the count's expression (node)
    std::vector<std::pair<std::int64_t, ir::distribution>> by_count;
};
counted_odds counted_distributions(const ir::ruleset& rs, ir::id roll);

// The modifier rules of a roll or quantity, in rule order.
std::vector<ir::id> modifiers_of(const ir::ruleset& rs, ir::target_kind kind, ir::id target);

}  // namespace wp::docgen
