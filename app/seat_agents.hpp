// `--seat N=AGENT` for the commands that play agents (play, sim, balance).
#pragma once

#include "cli.hpp"

#include <string>
#include <vector>

namespace wp::cli {

// Reads every --seat value into `agents` (one per seat, empty where not given). `problem` says
// why a name is not an agent (empty when it is; default: the computer agents,
// engine::agent_problem). A bad value is reported on ctx.err with exit 2 and false returned.
bool read_seat_agents(context& ctx, const std::vector<std::string>& seats, int players, std::vector<std::string>& agents,
                      std::string (*problem)(const std::string&) = nullptr);

}  // namespace wp::cli
