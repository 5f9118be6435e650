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
        if (l == script_numbering_line && lines_.empty()) numbered_from_one_ = true;
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

std::vector<numbered_option> numbered_options(const std::vector<action_info>& legal) {
    std::vector<numbered_option> out;
    for (std::size_t i = 0; i < legal.size(); ++i) {
        bool found = false;
        for (numbered_option& o : out)
            if (o.text == legal[i].text) {
                ++o.copies;
                found = true;
                break;
            }
        if (!found) out.push_back({legal[i].text, static_cast<int>(i), 1});
    }
    return out;
}

std::string numbered_list(const std::vector<numbered_option>& options) {
    std::ostringstream out;
    for (std::size_t i = 0; i < options.size(); ++i)
        out << (i ? ", " : "") << i + 1 << " `" << options[i].text << "`"
            << (options[i].copies > 1 ? " (x" + std::to_string(options[i].copies) + ")" : "");
    return out.str();
}

int script_agent::act(const seat_view& v, rng&) {
    const std::vector<numbered_option> options = numbered_options(v.legal_actions());
    auto legal_list = [&] { return numbered_list(options); };
    const std::uint64_t step = v.decisions() + 1;
    if (next_ >= lines_.size())
        throw agent_stop("script " + name_ + " ended before decision " + std::to_string(step) + " (P" +
                             std::to_string(v.seat() + 1) + " to choose; options: " + legal_list() + ")",
                         true);
    const std::string& line = lines_[next_];
    const std::size_t at = line_numbers_[next_];
    ++next_;
    bool numeric = !line.empty() && line.size() < 10;
    for (char c : line) numeric = numeric && c >= '0' && c <= '9';
    if (numeric && !numbered_from_one_)
        throw agent_stop(name_ + ":" + std::to_string(at) + ": `" + line +
                             "` is a number, but this script does not say how it counts: options count from 1 as the "
                             "prompt shows them (identical ones once) since 2026-11-29, and from 0 before; check the "
                             "numbers, then put the line `" + script_numbering_line + "` first",
                         true);
    if (numeric) {
        const int i = std::stoi(line);
        if (i >= 1 && static_cast<std::size_t>(i) <= options.size()) return options[static_cast<std::size_t>(i - 1)].action;
    } else {
        for (const numbered_option& o : options)
            if (o.text == line) return o.action;
    }
    throw agent_stop(name_ + ":" + std::to_string(at) + ": action `" + line + "` is not legal at decision " +
                         std::to_string(step) + " (P" + std::to_string(v.seat() + 1) + "); the options are " +
                         legal_list(),
                     true);
}

}  // namespace wp::engine
