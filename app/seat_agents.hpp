// `--seat N=AGENT` for the commands that play computer agents only (sim, balance).
#pragma once

#include "cli.hpp"

#include <string>
#include <vector>

namespace wp::cli {

// Reads every --seat value into `agents` (one per seat, empty where not given). A bad value is
// reported on ctx.err with exit 2 and false returned.
bool read_seat_agents(context& ctx, const std::vector<std::string>& seats, int players, std::vector<std::string>& agents);

}  // namespace wp::cli
