// A human player at the terminal: shows what the seat sees and the legal choices by number,
// reads a number, asks again on invalid input, and abandons the game at end of input. `u`
// undoes (engine::agent_stop with undo_seat: `play` plays the log again up to this seat's
// previous decision), `?N` shows what option N leads to.
#pragma once

#include "westphalia/engine/agents.hpp"

#include <istream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace wp::cli {

class human_agent : public engine::agent {
public:
    human_agent(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
    // Throws engine::agent_stop (not an error) at end of input.
    // Shows the seat's view only (engine::seat_view: hidden cards, other seats' hidden fields and
    // secret plans masked).
    int act(const engine::seat_view& v, engine::rng& r) override;
    // A resumed game's earlier decisions are not asked again; they count for `u`.
    void observe(const engine::seat_view& v, int, engine::rng&) override { ++decided_[v.seat()]; }
    // A new game (or the same one played again from its log, after `u`): no decisions yet.
    void restart() { decided_.clear(); }

private:
    std::istream& in_;
    std::ostream& out_;
    std::map<int, int> decided_;  // seat -> decisions made in this game (its own, for `u`)
    void explain_option(const engine::state& s, const std::vector<engine::numbered_option>& groups, const std::string& which);
};

}  // namespace wp::cli
