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
    agent_stop(const std::string& message, bool error, std::string save = {})
        : std::runtime_error(message), is_error(error), save_to(std::move(save)) {}
    bool is_error;
    std::string save_to;  // a human's `w FILE`: the game's log is to be written there
    int undo_seat = -1;   // a human's `u`: play again from this seat's previous decision
};

// The options of a decision as a person sees them (the human seat's prompt, a script's
// numbers): identical texts once, numbered from 1 in the order of their first copy; `action` is
// that first copy's index among the legal actions.
struct numbered_option {
    std::string text;
    int action = 0;
    int copies = 0;
};
std::vector<numbered_option> numbered_options(const std::vector<action_info>& legal);
// "1 `Arquebusiers`, 2 `Military Campaign` (x2), …", for messages.
std::string numbered_list(const std::vector<numbered_option>& options);

// The line that opens a script whose numbers count as the prompt does.
inline constexpr const char* script_numbering_line = "#! options from 1";

// Plays the actions of a script, one per line: the option's number as the human prompt shows it
// (from 1, identical options once), or its exact readable text. Blank lines and lines starting
// with `#` are skipped. Numbers need the line `#! options from 1` before them: scripts written
// before 2026-11-29 counted the raw options from 0, and a number in a script without that line is
// an error (never a silent shift to the next option). An action that is not legal, or the end of
// the script before the end of the game, stops the game with an error (agent_stop, is_error)
// naming the step, the action and the options.
class script_agent : public agent {
public:
    script_agent(std::string name, std::vector<std::string> lines);
    // Reads FILE; throws agent_stop when it cannot be read.
    static script_agent from_file(const std::string& path);
    int act(const seat_view& v, rng& r) override;
    // In a resumed game the script's lines are the decisions after the resume.
    void observe(const seat_view&, int, rng&) override {}

private:
    std::string name_;
    std::vector<std::string> lines_;
    std::vector<std::size_t> line_numbers_;
    std::size_t next_ = 0;
    bool numbered_from_one_ = false;  // the script opens with script_numbering_line
};

}  // namespace wp::engine
