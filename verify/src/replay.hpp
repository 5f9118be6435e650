// Replaying a witness through the engine: the situation a witness describes (the state at the
// place, the element's locals, the dice) is set up on an engine probe, and the engine computes
// what the encoding claims there (a table's keys, an assignment's new value). Agreement
// confirms that the finding is about the rules and not about the checker's encoding of them;
// disagreement says the witness is not one the engine would follow (an approximation, or a
// checker bug). The situation is the one at that place, not a game replayed from setup.
#pragma once

#include "symbolic.hpp"

#include "westphalia/engine/engine.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace wp::verify::detail {

class witness_replay {
public:
    explicit witness_replay(const symbolic& sym) : sym_(sym) {}

    // One line for the report ("confirmed: …", "not confirmed: …"), or empty when the engine
    // cannot be set in the situation (no state recorded there, no game for that many players).
    std::string table_gap(const table_site& s, std::size_t key, const z3::model& m);
    // A column shift off the table: the engine, in the witness's state, stops on the shift.
    std::string shift_gap(const table_site& s, const z3::model& m);
    std::string bound_violation(const bound_site& s, std::size_t place, const z3::model& m);
    std::string stuck_choice(const choice_site& s, const z3::model& m);
    // Rules a and b of group `group` both apply (the locals of `at`: the target's arguments),
    // and, for two `define`s, give different values or the same one.
    enum class values { any, different, same };
    std::string both_apply(const replay_point& at, id group, id a, id b, values v, const z3::model& m);
    // An example's `given` run by the engine from the start of a game gives another outcome.
    std::string example_fails(const example_run& x, const z3::model& m);
    // An example run by the engine from the start of a game at every number of players the check
    // covers and, when its `given` reads the active player, for each of them (a `given` takes no
    // decision and rolls only the dice it fixes, so these runs are every case there is): `holds`
    // when each finds the stated outcome; `fails` with the first run that does not ("confirmed:
    // …"); `undecided` with why not, when a run stops or no game of some size can be set up.
    struct example_verdict {
        enum class kind { holds, fails, undecided } k = kind::undecided;
        std::string how;
        std::vector<std::string> situation;  // the failing run's player count and active player
    };
    example_verdict example_everywhere(const example_run& x);
    // Invariant rule `rule` is false in the state of site s.
    std::string invariant_broken(const invariant_site& s, id rule, const z3::model& m);
    // Query rule `rule` is answered in the state of site s (an `assert always` false, an
    // `assert never` true).
    std::string query_answered(const invariant_site& s, id rule, const z3::model& m);
    // The action of an unmet obligation (a `do`, or a `may` a `require` demands) is not legal
    // there (and, for the `may`, a `require` demands it).
    std::string unmet_action(const obligation_site& s, const z3::model& m);
    // The piece an unmet `move` takes is not in the zone it is taken from.
    std::string unmet_move(const obligation_site& s, const z3::model& m);
    // The zone a `draw` or `deal` takes from holds fewer cards than it asks for.
    std::string short_draw(const obligation_site& s, const z3::model& m);
    // No `define` rule of group `group` applies.
    std::string undecided(const replay_point& at, id group, const z3::model& m);

    // The engine's game of this many players (none when it cannot be set up), made once.
    const engine::game* game_for(int players);
    // The model's value of e: a number, or a boolean as 1 or 0.
    static std::optional<std::int64_t> number(const z3::model& m, const z3::expr& e);
    // compare's line, with the probe set at `at`; empty when it cannot be.
    std::string replayed(const replay_point& at, const z3::model& m, const std::function<std::string(engine::probe&)>& compare);

private:
    // A probe holding the model's values of the state, dice and player count at the place.
    // none, with `refused` saying why when the witness's state is no game's
    std::unique_ptr<engine::probe> probe_at(const replay_point& at, const z3::model& m, std::string& refused);
    // Whether dice variable v (a roll's dice or a dice term) can show total x.
    bool dice_can_show(const variable& v, std::int64_t x) const;
    // a slot's declared range (of each element, for a map), if its type is a range
    std::optional<std::pair<std::int64_t, std::int64_t>> declared_range(id slot) const;
    std::vector<std::int64_t> locals(const replay_point& at, const z3::model& m) const;

    const symbolic& sym_;
    std::map<int, std::unique_ptr<engine::game>> games_;  // nullptr: the engine cannot set it up
};

}  // namespace wp::verify::detail
