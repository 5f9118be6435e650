// Where `play` and `replay` write the game's account: one line per call, coloured by what the
// line is when the stream is a terminal (`--color`): turns and phases bold, rolls and tables
// cyan, decisions green, state changes yellow, events magenta.
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace wp::cli {

std::function<void(const std::string&)> account_writer(std::ostream& out, bool colour);

// The colour a line of the account takes ("" for none): an ANSI SGR sequence.
const char* account_colour(const std::string& line);

}  // namespace wp::cli
