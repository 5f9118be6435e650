// A `--agent script:FILE` checked before the scripted agent reads it: its lines are compared
// with action texts, so a line that is not UTF-8 is bad input, located in the script.
#pragma once

#include "cli.hpp"

#include <cstddef>
#include <string>

namespace wp::cli {

// The offset of the first byte that breaks UTF-8 in `text`, or npos.
std::size_t first_invalid_utf8(const std::string& text);

// False, with `FILE:LINE:COL: error: …` on ctx.err and exit code 2, when the script is not
// UTF-8. An unreadable script passes here: the agent itself reports it.
bool check_script_text(context& ctx, const std::string& path);

}  // namespace wp::cli
