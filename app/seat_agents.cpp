// `--seat N=AGENT` for play, sim and balance.
#include "seat_agents.hpp"

#include "westphalia/engine/search_agents.hpp"

namespace wp::cli {

bool read_seat_agents(context& ctx, const std::vector<std::string>& seats, int players, std::vector<std::string>& agents,
                      std::string (*problem_of)(const std::string&)) {
    if (!problem_of) problem_of = &engine::agent_problem;
    for (const std::string& seat : seats) {
        const std::size_t eq = seat.find('=');
        const std::string name = eq == std::string::npos ? "" : seat.substr(eq + 1);
        const std::string number = seat.substr(0, eq);
        int p = 0;
        if (!number.empty() && number.size() < 4 && number.find_first_not_of("0123456789") == std::string::npos)
            p = std::stoi(number);
        const std::string problem = eq == std::string::npos ? "" : problem_of(name);
        if (p < 1 || p > players || eq == std::string::npos || !problem.empty()) {
            ctx.err << "westphalia: error: --seat `" << seat << "` must be SEAT=AGENT with SEAT from 1 to " << players
                    << (problem.empty() ? "" : "; " + problem) << '\n';
            ctx.exit_code = exit_bad_input;
            return false;
        }
        agents.resize(static_cast<std::size_t>(players));
        agents[static_cast<std::size_t>(p - 1)] = name;
    }
    return true;
}

}  // namespace wp::cli
