// Drawing a hex_scene as text. Each hex is the classic two-line flat-topped shape, its
// neighbours in the next column half a hex up and down, the slanted sides shared:
/*
     ___________
    /0201 C     \___________
    \_tilly_____/0302 C *2  \
    /0202 C *1  \___________/
*/
// The middle line holds the number, the terrain initial and the option marks; the lower edge
// the pieces in the hex. Even columns sit half a hex lower (the compiler's geometry).
#include "hex_view.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace wp::cli {

namespace {

using hex_set = std::vector<std::size_t>;  // sorted, distinct

struct geometry {
    const hex_scene& scene;
    std::map<std::pair<int, int>, std::size_t> at;

    explicit geometry(const hex_scene& s) : scene(s) {
        for (std::size_t h = 0; h < s.hexes.size(); ++h) at.emplace(std::pair{s.hexes[h].col, s.hexes[h].row}, h);
    }
    // The hex and its neighbours that exist, sorted.
    hex_set around(std::size_t h) const {
        const int c = scene.hexes[h].col, r = scene.hexes[h].row;
        const int up = (c % 2 != 0) ? r - 1 : r;
        const std::pair<int, int> keys[] = {{c, r - 1}, {c, r + 1}, {c - 1, up}, {c - 1, up + 1}, {c + 1, up}, {c + 1, up + 1}};
        hex_set out{h};
        for (const auto& k : keys)
            if (auto it = at.find(k); it != at.end()) out.push_back(it->second);
        std::sort(out.begin(), out.end());
        return out;
    }
};

int text_line(const hex_scene::hex& h) { return 2 * h.row + (h.col % 2 == 0 ? 1 : 0); }

std::size_t picture_width(const hex_scene& s, const hex_set& hexes, std::size_t cell) {
    if (hexes.empty()) return 0;
    int lo = s.hexes[hexes[0]].col, hi = lo;
    for (std::size_t h : hexes) {
        lo = std::min(lo, s.hexes[h].col);
        hi = std::max(hi, s.hexes[h].col);
    }
    return static_cast<std::size_t>(hi - lo + 1) * (cell + 1) + 1;
}

// The pieces' tags in `room` characters: "tilly,horn", else "tilly+2", else "til+2".
std::string fit_tags(const std::vector<std::string>& tags, std::size_t room) {
    std::string all;
    for (const std::string& t : tags) all += (all.empty() ? "" : ",") + t;
    if (all.size() <= room) return all;
    for (std::size_t k = tags.size() - 1; k >= 1; --k) {
        std::string s;
        for (std::size_t i = 0; i < k; ++i) s += (i ? "," : "") + tags[i];
        s += "+" + std::to_string(tags.size() - k);
        if (s.size() <= room) return s;
    }
    const std::string more = tags.size() > 1 ? "+" + std::to_string(tags.size() - 1) : "";
    return tags[0].substr(0, room > more.size() ? room - more.size() : 0) + more;
}

void put(std::vector<std::string>& canvas, std::size_t line, std::size_t x, const std::string& text) {
    std::string& l = canvas[line];
    if (l.size() < x + text.size()) l.resize(x + text.size(), ' ');
    l.replace(x, text.size(), text);
}

std::string number_list(const hex_scene& s, const hex_set& hexes) {
    std::string out;
    for (std::size_t h : hexes) out += (out.empty() ? "" : " ") + s.hexes[h].number;
    return out;
}

// One picture of `hexes`, then its pieces and hexsides. Adds the terrain initials it uses to
// `used` and whether it shows an option mark to `marked`.
std::string picture(const hex_scene& s, const hex_set& hexes, const hex_view_options& o, std::set<std::string>& used,
                    bool& marked) {
    if (hexes.empty()) return "";
    const std::size_t w = o.cell;
    int col_lo = s.hexes[hexes[0]].col, line_lo = text_line(s.hexes[hexes[0]]), line_hi = line_lo;
    for (std::size_t h : hexes) {
        col_lo = std::min(col_lo, s.hexes[h].col);
        line_lo = std::min(line_lo, text_line(s.hexes[h]));
        line_hi = std::max(line_hi, text_line(s.hexes[h]));
    }
    std::vector<std::string> canvas(static_cast<std::size_t>(line_hi - line_lo + 3));
    auto origin = [&](std::size_t h) {
        return std::pair{static_cast<std::size_t>(s.hexes[h].col - col_lo) * (w + 1),
                         static_cast<std::size_t>(text_line(s.hexes[h]) - line_lo)};
    };
    for (std::size_t h : hexes) {  // outlines first: a neighbour's edge never covers text
        const auto [x, y] = origin(h);
        put(canvas, y, x + 1, std::string(w, '_'));
        put(canvas, y + 1, x, "/");
        put(canvas, y + 1, x + w + 1, "\\");
        put(canvas, y + 2, x, "\\" + std::string(w, '_') + "/");
    }
    std::map<std::size_t, std::vector<const hex_scene::piece*>> inside;
    for (const hex_scene::piece& p : s.pieces)
        if (std::binary_search(hexes.begin(), hexes.end(), p.hex)) inside[p.hex].push_back(&p);
    for (std::size_t h : hexes) {
        const auto [x, y] = origin(h);
        const hex_scene::hex& hx = s.hexes[h];
        std::string middle = hx.number;
        if (!hx.terrain.empty()) {
            middle += " " + hx.terrain;
            used.insert(hx.terrain);
        }
        if (h < s.marks.size() && !s.marks[h].empty()) {
            middle += " *" + s.marks[h];
            marked = true;
        }
        middle.resize(w, ' ');
        put(canvas, y + 1, x + 1, middle);
        if (auto it = inside.find(h); it != inside.end()) {
            std::vector<std::string> tags;
            for (const hex_scene::piece* p : it->second) tags.push_back(p->tag);
            std::string lower = "_" + fit_tags(tags, w - 1);
            lower.resize(w, '_');
            put(canvas, y + 2, x + 1, lower);
        }
    }
    std::string out;
    for (std::string& l : canvas) {
        while (!l.empty() && l.back() == ' ') l.pop_back();
        out += l + '\n';
    }
    if (!inside.empty()) {
        out += "pieces:\n";
        for (const auto& [h, list] : inside)
            for (const hex_scene::piece* p : list) {
                out += "  " + s.hexes[h].number + "  " + p->tag;
                if (!p->mark.empty()) {
                    out += " *" + p->mark;
                    marked = true;
                }
                if (!p->details.empty()) out += ": " + p->details;
                out += '\n';
            }
    }
    // The hexes' own fields where the decision looks: the hexes with pieces or options (a field
    // true over most of the map, as SPI's far_from_town, would crowd every picture).
    bool fields = false;
    for (std::size_t h : hexes) {
        const bool looked_at = inside.count(h) > 0 || (h < s.marks.size() && !s.marks[h].empty());
        if (s.hexes[h].fields.empty() || !looked_at) continue;
        if (!fields) out += "in the hexes:\n";
        fields = true;
        out += "  " + s.hexes[h].number + "  " + s.hexes[h].fields + '\n';
    }
    bool sides = false;
    for (const hex_scene::hexside& e : s.hexsides) {
        if (!std::binary_search(hexes.begin(), hexes.end(), e.a) || !std::binary_search(hexes.begin(), hexes.end(), e.b))
            continue;
        if (!sides) out += "hexsides:\n";
        sides = true;
        out += "  " + s.hexes[e.a].number + "|" + s.hexes[e.b].number + "  " + e.features + '\n';
    }
    return out;
}

std::string legend(const hex_scene& s, const std::set<std::string>& used, bool marked) {
    std::string out;
    for (const auto& [initial, name] : s.legend)
        if (used.count(initial)) out += (out.empty() ? "terrain: " : ", ") + initial + " " + name;
    if (marked) out += std::string(out.empty() ? "" : "; ") + "*N: choice N";
    return out.empty() ? "" : out + '\n';
}

// Groups of focus hexes whose neighbourhoods overlap, each as (focus hexes, hexes shown).
std::vector<std::pair<hex_set, hex_set>> clusters(const geometry& g, const std::vector<std::size_t>& focus) {
    std::vector<std::pair<hex_set, hex_set>> groups;
    std::set<std::size_t> seen;
    for (std::size_t f : focus) {
        if (f >= g.scene.hexes.size() || !seen.insert(f).second) continue;
        std::pair<hex_set, hex_set> mine{{f}, g.around(f)};
        // Merge every group that shares a hex with this neighbourhood (repeatedly: a merged
        // group may now touch another).
        for (bool merged = true; merged;) {
            merged = false;
            for (std::size_t i = 0; i < groups.size(); ++i) {
                hex_set both;
                std::set_intersection(groups[i].second.begin(), groups[i].second.end(), mine.second.begin(),
                                      mine.second.end(), std::back_inserter(both));
                if (both.empty()) continue;
                hex_set fs, hs;
                std::set_union(groups[i].first.begin(), groups[i].first.end(), mine.first.begin(), mine.first.end(),
                               std::back_inserter(fs));
                std::set_union(groups[i].second.begin(), groups[i].second.end(), mine.second.begin(),
                               mine.second.end(), std::back_inserter(hs));
                mine = {fs, hs};
                groups.erase(groups.begin() + static_cast<std::ptrdiff_t>(i));
                merged = true;
                break;
            }
        }
        groups.push_back(std::move(mine));
    }
    std::sort(groups.begin(), groups.end());
    return groups;
}

std::string pictures(const hex_scene& s, const std::vector<std::size_t>& focus, const hex_view_options& o,
                     std::size_t limit, const std::string& lead) {
    const geometry g(s);
    std::vector<std::pair<hex_set, hex_set>> shown;
    for (auto& group : clusters(g, focus)) {
        if (picture_width(s, group.second, o.cell) <= o.max_width) {
            shown.push_back(std::move(group));
            continue;
        }
        // Too wide: windows that fit, the focus hexes taken from left to right (a deployment
        // row of 20 hexes is three pictures, not 20 overlapping ones).
        std::vector<std::size_t> order(group.first.begin(), group.first.end());
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return s.hexes[a].col < s.hexes[b].col; });
        std::pair<hex_set, hex_set> window;
        for (std::size_t f : order) {
            const hex_set near = g.around(f);
            hex_set hs;
            std::set_union(window.second.begin(), window.second.end(), near.begin(), near.end(), std::back_inserter(hs));
            if (!window.first.empty() && picture_width(s, hs, o.cell) > o.max_width) {
                shown.push_back(std::move(window));
                window = {{f}, near};
                continue;
            }
            window.first.insert(std::lower_bound(window.first.begin(), window.first.end(), f), f);
            window.second = std::move(hs);
        }
        if (!window.first.empty()) shown.push_back(std::move(window));
    }
    std::string out;
    std::set<std::string> used;
    bool marked = false;
    for (std::size_t i = 0; i < shown.size() && i < limit; ++i)
        out += s.map_name + lead + number_list(s, shown[i].first) + ":\n" + picture(s, shown[i].second, o, used, marked);
    if (shown.size() > limit)
        out += "… and " + std::to_string(shown.size() - limit) + " more (`m` shows the whole map)\n";
    return out + legend(s, used, marked);
}

}  // namespace

std::string render_region(const hex_scene& scene, const std::vector<std::size_t>& focus, const hex_view_options& options) {
    return pictures(scene, focus, options, options.max_pictures, " around ");
}

std::string render_whole(const hex_scene& scene, const hex_view_options& options) {
    hex_set all;
    for (std::size_t h = 0; h < scene.hexes.size(); ++h) all.push_back(h);
    if (!all.empty() && all.size() <= 200 && picture_width(scene, all, options.cell) <= options.max_width) {
        std::set<std::string> used;
        bool marked = false;
        std::string out = scene.map_name + ", the whole map (" + std::to_string(all.size()) + " hexes):\n" +
                          picture(scene, all, options, used, marked);
        return out + legend(scene, used, marked);
    }
    std::vector<std::size_t> occupied;
    for (const hex_scene::piece& p : scene.pieces) occupied.push_back(p.hex);
    std::sort(occupied.begin(), occupied.end());
    occupied.erase(std::unique(occupied.begin(), occupied.end()), occupied.end());
    if (occupied.empty()) return scene.map_name + ": no piece is on the map\n";
    return pictures(scene, occupied, options, occupied.size(), ", pieces at ");
}

}  // namespace wp::cli
