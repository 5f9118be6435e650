// The scripted agent reading its actions from a file.
#include "westphalia/engine/agents.hpp"

#include <fstream>
#include <sstream>

namespace wp::engine {

script_agent::script_agent(std::string name, std::vector<std::string> lines) : name_(std::move(name)) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string l = lines[i];
        while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.pop_back();
        std::size_t b = 0;
        while (b < l.size() && (l[b] == ' ' || l[b] == '\t')) ++b;
        l = l.substr(b);
        if (l.empty() || l[0] == '#') continue;
        lines_.push_back(l);
        line_numbers_.push_back(i + 1);
    }
}

script_agent script_agent::from_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw agent_stop("cannot read the script `" + path + "`", true);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return script_agent(path, std::move(lines));
}

int script_agent::act(const state& s, rng&) {
    const std::vector<action_info> legal = s.legal_actions();
    auto legal_list = [&] {
        std::ostringstream out;
        for (std::size_t i = 0; i < legal.size(); ++i) out << (i ? ", " : "") << i << " `" << legal[i].text << "`";
        return out.str();
    };
    const std::uint64_t step = s.decisions() + 1;
    if (next_ >= lines_.size())
        throw agent_stop("script " + name_ + " ended before decision " + std::to_string(step) + " (P" +
                             std::to_string(s.current_player() + 1) + " to choose; legal: " + legal_list() + ")",
                         true);
    const std::string& line = lines_[next_];
    const std::size_t at = line_numbers_[next_];
    ++next_;
    bool numeric = !line.empty() && line.size() < 10;
    for (char c : line) numeric = numeric && c >= '0' && c <= '9';
    if (numeric) {
        const int i = std::stoi(line);
        if (static_cast<std::size_t>(i) < legal.size()) return i;
    } else {
        for (std::size_t i = 0; i < legal.size(); ++i)
            if (legal[i].text == line) return static_cast<int>(i);
    }
    throw agent_stop(name_ + ":" + std::to_string(at) + ": action `" + line + "` is not legal at decision " +
                         std::to_string(step) + " (P" + std::to_string(s.current_player() + 1) +
                         "); the legal actions are " + legal_list(),
                     true);
}

}  // namespace wp::engine
