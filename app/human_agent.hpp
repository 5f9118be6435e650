// A human player at the terminal: shows what the seat sees and the legal choices by number,
// reads a number, asks again on invalid input, and abandons the game at end of input.
#pragma once

#include "westphalia/engine/agents.hpp"

#include <istream>
#include <ostream>

namespace wp::cli {

class human_agent : public engine::agent {
public:
    human_agent(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
    // Throws engine::agent_stop (not an error) at end of input.
    int act(const engine::state& s, engine::rng& r) override;
    // A resumed game's earlier decisions are not asked again.
    void observe(const engine::state&, int, engine::rng&) override {}

private:
    std::istream& in_;
    std::ostream& out_;
};

}  // namespace wp::cli
