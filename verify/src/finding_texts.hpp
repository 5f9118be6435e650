// The one-line messages of the findings a question can give, shared by the check that asks it
// and by the step that takes its answer from a game instead (checks.cpp, decide_by_play): the
// same finding reads the same whichever way it was decided.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace wp::verify::detail {

// A field's new value out of its range lo..hi (none when the range is not known: "its range");
// side "above", "below", or "" when not known.
inline std::string bound_message(const std::string& field, const std::string& side,
                                 std::optional<std::pair<std::int64_t, std::int64_t>> range) {
    const std::string r = range ? std::to_string(range->first) + ".." + std::to_string(range->second) : "its range";
    return "this can take `" + field + "` " + (side.empty() ? "outside " : side + (range ? " its range " : " ")) + r +
           ", and its type has no clamp";
}

inline std::string stuck_message() { return "a mandatory choice can face no legal option: the game cannot go on"; }

// An unmet obligation, by its statement: move, draw or deal (subject: the zone), do or may
// (subject: the action).
inline std::string unmet_message(const std::string& statement, const std::string& subject) {
    if (statement == "move") return "the piece this moves can be elsewhere than `" + subject + "`: the game cannot go on";
    if (statement == "draw" || statement == "deal")
        return "this can ask for more cards than `" + subject + "` holds: the engines stop at its last card, and the " + statement +
               " is short";
    if (statement == "do")
        return "this does `" + subject + "` where it can be illegal (its condition fails, or a `forbid` applies): the game cannot go on";
    return "a `require` rule demands `" + subject +
           "` here where it can be illegal (its condition fails and no `permit` applies): the `may` is skipped and the demand is not met";
}

}  // namespace wp::verify::detail
