// The human agent: reads choices from a stream.
#include "human_agent.hpp"

#include <string>

namespace wp::cli {

int human_agent::act(const engine::state& s, engine::rng&) {
    const int seat = s.current_player();
    const std::vector<engine::action_info> legal = s.legal_actions();
    out_ << "--- P" << seat + 1 << " sees:\n" << s.view(seat);
    out_ << "--- P" << seat + 1 << " to choose (decision " << s.decisions() + 1 << "):\n";
    for (std::size_t i = 0; i < legal.size(); ++i) out_ << "  " << i + 1 << ") " << legal[i].text << '\n';
    for (;;) {
        out_ << "choice [1-" << legal.size() << "]: " << std::flush;
        std::string line;
        if (!std::getline(in_, line)) {
            out_ << '\n';
            throw engine::agent_stop("end of input: P" + std::to_string(seat + 1) + " left the game", false);
        }
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        std::size_t b = 0;
        while (b < line.size() && line[b] == ' ') ++b;
        line = line.substr(b);
        bool numeric = !line.empty() && line.size() < 9;
        for (char c : line) numeric = numeric && c >= '0' && c <= '9';
        if (numeric) {
            const long n = std::stol(line);
            if (n >= 1 && static_cast<std::size_t>(n) <= legal.size()) return static_cast<int>(n - 1);
        }
        out_ << "`" << line << "` is not a choice: enter a number from 1 to " << legal.size() << '\n';
    }
}

}  // namespace wp::cli
