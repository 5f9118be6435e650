// The human agent: reads choices from a stream. On a ruleset with a hex map it draws the hexes
// around the options before listing them (hex_scene, hex_view) and answers `m` and `?`.
#include "human_agent.hpp"

#include "hex_scene.hpp"
#include "hex_view.hpp"

#include <string>

namespace wp::cli {

namespace {

bool has_hex_map(const engine::state& s) {
    for (const ir::map& m : s.the_game().ruleset().maps)
        if (m.kind == ir::map_kind::hexgrid) return true;
    return false;
}

}  // namespace

int human_agent::act(const engine::state& s, engine::rng&) {
    const int seat = s.current_player();
    const std::vector<engine::action_info> legal = s.legal_actions();
    const bool hex = has_hex_map(s);
    out_ << "--- P" << seat + 1 << " sees:\n" << s.view(seat);
    if (hex)
        if (const auto d = scene_for_decision(s); d && !d->focus.empty()) out_ << render_region(d->scene, d->focus);
    out_ << "--- P" << seat + 1 << " to choose (decision " << s.decisions() + 1 << "):\n";
    for (std::size_t i = 0; i < legal.size(); ++i) out_ << "  " << i + 1 << ") " << legal[i].text << '\n';
    for (;;) {
        out_ << "choice [1-" << legal.size() << (hex ? ", m: map, ?: help" : "") << "]: " << std::flush;
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
        if (line == "?") {
            out_ << "enter the number of a choice, from 1 to " << legal.size() << '\n';
            if (hex) out_ << "  m  the whole map (only the occupied hexes when it is large)\n";
            out_ << "  ?  this help\n";
            continue;
        }
        if (hex && line == "m") {
            if (const auto d = scene_for_decision(s)) out_ << render_whole(d->scene);  // with the options marked
            else if (const auto scene = first_hex_scene(s)) out_ << render_whole(*scene);
            continue;
        }
        out_ << "`" << line << "` is not a choice: enter a number from 1 to " << legal.size() << '\n';
    }
}

}  // namespace wp::cli
