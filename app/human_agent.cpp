// The human agent: reads choices from a stream. Before each decision it shows the seat's own
// fields on one line, then what is being decided and the options, identical ones listed once
// with their number. On a ruleset with a hex map it draws the hexes around the options
// (hex_scene, hex_view), and a hex may be entered by its number. Keys: `s` the seat's whole
// view, `m` the map, `q` quit, `?` help.
#include "human_agent.hpp"

#include "hex_scene.hpp"
#include "hex_view.hpp"

#include "westphalia/engine/log.hpp"

#include <algorithm>
#include <string>

namespace wp::cli {

namespace {

bool has_hex_map(const engine::state& s) {
    for (const ir::map& m : s.the_game().ruleset().maps)
        if (m.kind == ir::map_kind::hexgrid) return true;
    return false;
}

// Where the options are places and `text` is a place's name as the rules write it (a hex's
// number, `Barwalde`): the place as the options show it (`Bärwalde`); else "".
std::string location_named(const engine::state& s, const std::string& text) {
    const ir::id t = s.option_type();
    const ir::ruleset& rs = s.the_game().ruleset();
    if (t == ir::no_id || rs.types[t].kind != ir::type_kind::node) return "";
    for (const ir::map_node& n : rs.maps.at(rs.types[t].ref).nodes)
        if (n.name == text) return engine::game::node_text(n);
    return "";
}

// The seat's own fields on one line, those that changed since the game began (the rest are
// as it started; `s` shows them all): " gold=14 traits=[Leadership 1, Inheritance 1]", a map
// by its entries that changed, a list whole.
std::string own_fields(const engine::state& s, int seat) {
    const engine::game& g = s.the_game();
    const ir::ruleset& rs = g.ruleset();
    std::string out;
    bool any = false;  // a ruleset with no field of a player's has no line
    for (ir::id sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        if (slot.scope != ir::slot_scope::per_player) continue;
        any = true;
        const ir::type& t = rs.types[slot.type];
        if (t.kind == ir::type_kind::list_of) {
            std::vector<std::int64_t> at;
            for (std::uint32_t k = 0; k < g.slots[sl].width; ++k) at.push_back(s.slot_value(slot.name, seat, static_cast<int>(k)));
            if (at[0] != 0) out += " " + slot.name + "=" + g.list_text(slot.type, at.data());
            continue;
        }
        if (t.kind != ir::type_kind::map_of) {
            std::int64_t initial = slot.initial;
            if (t.kind == ir::type_kind::entity && initial >= 0) initial = g.entity_first.at(static_cast<std::size_t>(initial));
            const std::int64_t v = s.slot_value(slot.name, seat);
            if (v != initial) out += " " + slot.name + "=" + g.value_text(slot.type, v);
            continue;
        }
        const ir::type& key = rs.types.at(t.key);
        std::string entries;
        for (std::uint32_t k = 0; k < g.slots[sl].width; ++k) {
            const std::int64_t v = s.slot_value(slot.name, seat, static_cast<int>(k));
            if (v == slot.initial) continue;
            entries += (entries.empty() ? "" : ", ") + g.value_text(t.key, k + (key.kind == ir::type_kind::range ? key.lo : 0)) + " " +
                       g.value_text(t.value, v);
        }
        if (!entries.empty()) out += " " + slot.name + "=[" + entries + "]";
    }
    return out.empty() && any ? " (as at the start)" : out;
}

}  // namespace

int human_agent::act(const engine::seat_view& v, engine::rng&) {
    const engine::state& s = v.seen();
    const int seat = v.seat();
    const std::vector<engine::action_info> legal = v.legal_actions();
    const std::vector<engine::numbered_option> groups = engine::numbered_options(legal);
    const bool hex = has_hex_map(s);
    if (const std::string fields = own_fields(s, seat); !fields.empty()) out_ << "--- P" << seat + 1 << ":" << fields << '\n';
    if (hex)
        if (const auto d = scene_for_decision(s); d && !d->focus.empty()) out_ << render_region(d->scene, d->focus);
    const std::string context = s.decision_context();
    out_ << "--- P" << seat + 1 << " to choose" << (context.empty() ? "" : context.rfind("in ", 0) == 0 ? ", " + context : " " + context) << " (decision "
         << s.decisions() + 1 << "):\n";
    for (std::size_t i = 0; i < groups.size(); ++i)
        out_ << "  " << i + 1 << ") " << groups[i].text << (groups[i].copies > 1 ? " (x" + std::to_string(groups[i].copies) + ")" : "")
             << '\n';
    const ir::id option_type = s.option_type();
    const ir::ruleset& rs = s.the_game().ruleset();
    const bool hex_options = option_type != ir::no_id && rs.types[option_type].kind == ir::type_kind::node &&
                             rs.maps.at(rs.types[option_type].ref).kind == ir::map_kind::hexgrid;
    const std::string keys = std::string(hex_options ? ", or a hex" : "") + "; ?N: option N's rules, s: state" + (hex ? ", m: map" : "") +
                             ", u: undo, w FILE: save, q: quit, ?: help";
    for (;;) {
        out_ << "choice [1-" << groups.size() << keys << "]: " << std::flush;
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
        // Where the options are locations, a location's name first: a hex typed by its number
        // (0215) is never read as the option of that index. Elsewhere a number is an index and
        // any other text an option's own text.
        const std::string place = location_named(s, line);
        const bool locations = !place.empty();
        if (locations || !numeric)
            for (const engine::numbered_option& g : groups)
                if (!line.empty() && (g.text == line || g.text == place)) {
                    ++decided_[seat];
                    return g.action;
                }
        if (locations) {
            out_ << (hex_options ? "hex " : "") << (place == line ? line : place + " (" + line + ")") << " is not one of the options here\n";
            continue;
        }
        if (numeric) {
            const long n = std::stol(line);
            if (n >= 1 && static_cast<std::size_t>(n) <= groups.size()) {
                ++decided_[seat];
                return groups[static_cast<std::size_t>(n - 1)].action;
            }
        }
        if (line.size() > 1 && line[0] == '?') {
            explain_option(s, groups, line.substr(1));
            continue;
        }
        if (line == "u") {
            if (decided_[seat] == 0) {
                out_ << "nothing to undo: this is P" << seat + 1 << "'s first decision\n";
                continue;
            }
            engine::agent_stop undo("P" + std::to_string(seat + 1) + " undid a decision", false);
            undo.undo_seat = seat;
            throw undo;
        }
        if (line == "?") {
            out_ << "enter the number of a choice, from 1 to " << groups.size() << ", or its text";
            out_ << (hex_options ? " (a hex by its number)" : "") << '\n';
            out_ << "  ?N  what option N leads to, up to the next decision: the rules that apply and what they do\n"
                    "      (played on a copy with dice of its own: the game's dice are not shown)\n";
            out_ << "  s  what P" << seat + 1 << " sees: every state field and zone\n";
            if (hex) out_ << "  m  the whole map (only the occupied hexes when it is large)\n";
            out_ << "  u  undo: back to P" << seat + 1 << "'s previous decision (the game is played again from its log)\n";
            out_ << "  w FILE  save the game so far to FILE and stop (`play --resume FILE` continues it)\n";
            out_ << "  q  quit: the game is abandoned (with --log, the log so far is written)\n";
            out_ << "  ?  this help\n";
            continue;
        }
        if (line == "s") {
            out_ << "--- P" << seat + 1 << " sees:\n" << s.view(seat);
            continue;
        }
        if (line == "q") throw engine::agent_stop("P" + std::to_string(seat + 1) + " quit", false);
        if (line.rfind("w ", 0) == 0 && line.size() > 2) {
            std::string file = line.substr(2);
            while (!file.empty() && file.front() == ' ') file.erase(0, 1);
            throw engine::agent_stop("P" + std::to_string(seat + 1) + " saved the game", false, file);
        }
        if (hex && line == "m") {
            if (const auto d = scene_for_decision(s)) out_ << render_whole(d->scene);  // with the options marked
            else if (const auto scene = first_hex_scene(s)) out_ << render_whole(*scene);
            continue;
        }
        out_ << "`" << line << "` is not a choice: enter a number from 1 to " << groups.size() << ", an option's text or a key (? for help)\n";
    }
}

// `?N`: the rules option N brings into play and the account of what it leads to, on a copy.
void human_agent::explain_option(const engine::state& s, const std::vector<engine::numbered_option>& groups, const std::string& which) {
    bool numeric = !which.empty() && which.size() < 9;
    for (char c : which) numeric = numeric && c >= '0' && c <= '9';
    const long n = numeric ? std::stol(which) : 0;
    if (n < 1 || static_cast<std::size_t>(n) > groups.size()) {
        out_ << "`?" << which << "`: give an option's number, from 1 to " << groups.size() << " (?1 for the first)\n";
        return;
    }
    const engine::numbered_option& g = groups[static_cast<std::size_t>(n - 1)];
    const engine::state::preview_result p = s.preview(g.action, 0x5eed0000u + static_cast<std::uint64_t>(n));
    const ir::ruleset& rs = s.the_game().ruleset();
    out_ << "option " << n << ", " << g.text << ":\n";
    if (p.rules.empty()) out_ << "  no rule applies on the way to the next decision\n";
    for (ir::id r : p.rules) {
        const ir::rule& rule = rs.rules.at(r);
        out_ << "  rule " << rule.name;
        for (const ir::anchor& a : rule.prov.anchors) out_ << " \u00a7" << a.first << (a.last.empty() ? "" : "-" + a.last);
        const ir::source_pos& w = rule.prov.where;
        if (w.file < rs.files.size()) out_ << " (" << rs.files[w.file] << ':' << w.line << ')';
        out_ << '\n';
    }
    if (!p.account.empty()) {
        out_ << "  then, with dice of its own (not the game's):\n";
        const std::size_t shown = std::min<std::size_t>(p.account.size(), 30);
        for (std::size_t i = 0; i < shown; ++i) out_ << "    " << p.account[i] << '\n';
        if (shown < p.account.size()) out_ << "    … and " << p.account.size() - shown << " more lines\n";
    }
    if (!p.error.empty()) out_ << "  the engine stops there: " << p.error << '\n';
}

}  // namespace wp::cli
