// Agents beyond the built-in ones: a scripted agent reading its actions from a file.
#pragma once

#include "westphalia/engine/engine.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace wp::engine {

// Thrown by an agent that cannot or will not go on: `is_error` false when the game is abandoned
// cleanly (a human player's end of input), true for a bad script.
class agent_stop : public std::runtime_error {
public:
    agent_stop(const std::string& message, bool error) : std::runtime_error(message), is_error(error) {}
    bool is_error;
};

// Plays the actions of a script, one per line: the action's index among the legal actions, or
// its exact readable text. Blank lines and lines starting with `#` are skipped. An action that is
// not legal, or the end of the script before the end of the game, stops the game with an error
// (agent_stop, is_error) naming the step, the action and the legal ones.
class script_agent : public agent {
public:
    script_agent(std::string name, std::vector<std::string> lines);
    // Reads FILE; throws agent_stop when it cannot be read.
    static script_agent from_file(const std::string& path);
    int act(const state& s, rng& r) override;

private:
    std::string name_;
    std::vector<std::string> lines_;
    std::vector<std::size_t> line_numbers_;
    std::size_t next_ = 0;
};

}  // namespace wp::engine
