// The balance report's chart, as SVG written by hand (a few rectangles, lines and labels): win
// share per cell and seat with its interval, then a histogram of game length for the baseline
// and each value of the first option varied.
#include "balance.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace wp::cli {

namespace {

std::string escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string num(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", v);
    return buffer;
}

const char* const seat_colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

// The baseline named by the first option varied, at its default: "baseline: scenario = aug3".
std::string cell_label(const balance_report& r, const balance_cell& c) {
    if (!c.option.empty()) return c.option + " = " + c.value;
    return r.defaults.empty() ? "baseline" : "baseline: " + r.defaults[0].first + " = " + r.defaults[0].second;
}

}  // namespace

std::string balance_svg(const balance_report& r) {
    const double left = 230, plot = 480, width = left + plot + 40;
    const double bar = 9, gap = 12;
    const double row = bar * r.players + gap;
    const double chart_top = 60;
    const double chart_height = row * static_cast<double>(r.cells.size());

    // The histogram panels: the baseline and every value of the first option varied.
    std::vector<const balance_cell*> panels{&r.cells.front()};
    const std::string first_option = r.cells.size() > 1 ? r.cells[1].option : "";
    for (const balance_cell& c : r.cells)
        if (!first_option.empty() && c.option == first_option) panels.push_back(&c);
    std::uint64_t lo = UINT64_MAX, hi = 0;
    for (const balance_cell* c : panels)
        for (const engine::sim_game& g : c->report.outcomes)
            if (g.error.empty()) lo = std::min(lo, g.decisions), hi = std::max(hi, g.decisions);
    const int bins = 30;
    const double panel_height = 70, panel_gap = 28;
    const double hist_top = chart_top + chart_height + 70;
    const double height = hist_top + (panel_height + panel_gap) * static_cast<double>(panels.size()) + 20;

    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\"" << num(height)
      << "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"11\">\n";
    o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << escaped(r.ruleset) << ": win share per cell ("
      << r.games << " games each, " << escaped(r.agents) << ")</text>\n";
    o << "<text x=\"10\" y=\"38\">bars: share of wins (a tie splits the win); lines: Wilson 95% interval for all seats together</text>\n";
    // Grid and axis.
    for (int pct = 0; pct <= 100; pct += 25) {
        const double x = left + plot * pct / 100.0;
        o << "<line x1=\"" << num(x) << "\" y1=\"" << num(chart_top - 4) << "\" x2=\"" << num(x) << "\" y2=\""
          << num(chart_top + chart_height) << "\" stroke=\"#ccc\"/>\n";
        o << "<text x=\"" << num(x) << "\" y=\"" << num(chart_top + chart_height + 14) << "\" text-anchor=\"middle\">" << pct
          << "%</text>\n";
    }
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
        const engine::sim_report& s = r.cells[i].report;
        const double y0 = chart_top + row * static_cast<double>(i);
        o << "<text x=\"" << num(left - 8) << "\" y=\"" << num(y0 + bar * r.players / 2 + 4) << "\" text-anchor=\"end\">"
          << escaped(cell_label(r, r.cells[i])) << "</text>\n";
        for (int seat = 0; seat < r.players && s.finished > 0; ++seat) {
            const auto k = static_cast<std::size_t>(seat);
            const double share = s.wins[k] / static_cast<double>(s.finished);
            const double y = y0 + bar * seat;
            o << "<rect x=\"" << num(left) << "\" y=\"" << num(y) << "\" width=\"" << num(plot * share) << "\" height=\""
              << num(bar - 1) << "\" fill=\"" << seat_colours[k % 8] << "\"/>\n";
            o << "<line x1=\"" << num(left + plot * s.win_intervals[k].lo) << "\" y1=\"" << num(y + bar / 2) << "\" x2=\""
              << num(left + plot * s.win_intervals[k].hi) << "\" y2=\"" << num(y + bar / 2) << "\" stroke=\"black\"/>\n";
        }
    }
    // Legend.
    for (int seat = 0; seat < r.players; ++seat) {
        const double x = left + 60.0 * seat;
        o << "<rect x=\"" << num(x) << "\" y=\"" << num(chart_top + chart_height + 24) << "\" width=\"10\" height=\"10\" fill=\""
          << seat_colours[seat % 8] << "\"/><text x=\"" << num(x + 14) << "\" y=\"" << num(chart_top + chart_height + 33)
          << "\">P" << seat + 1 << "</text>\n";
    }
    // Histograms of game length.
    o << "<text x=\"10\" y=\"" << num(hist_top - 16) << "\" font-size=\"14\" font-weight=\"bold\">game length in decisions</text>\n";
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const double top = hist_top + (panel_height + panel_gap) * static_cast<double>(p);
        std::vector<std::uint64_t> counts(bins, 0);
        for (const engine::sim_game& g : panels[p]->report.outcomes) {
            if (!g.error.empty() || hi < lo) continue;
            const double span = static_cast<double>(hi - lo) + 1;
            const auto b = static_cast<std::size_t>(static_cast<double>(g.decisions - lo) / span * bins);
            ++counts[std::min<std::size_t>(b, bins - 1)];
        }
        const std::uint64_t most = std::max<std::uint64_t>(1, *std::max_element(counts.begin(), counts.end()));
        o << "<text x=\"" << num(left - 8) << "\" y=\"" << num(top + panel_height / 2) << "\" text-anchor=\"end\">"
          << escaped(cell_label(r, *panels[p])) << "</text>\n";
        const double w = plot / bins;
        for (int b = 0; b < bins; ++b) {
            const double h = panel_height * static_cast<double>(counts[static_cast<std::size_t>(b)]) / static_cast<double>(most);
            o << "<rect x=\"" << num(left + w * b) << "\" y=\"" << num(top + panel_height - h) << "\" width=\"" << num(w - 1)
              << "\" height=\"" << num(h) << "\" fill=\"#555\"/>\n";
        }
        o << "<line x1=\"" << num(left) << "\" y1=\"" << num(top + panel_height) << "\" x2=\"" << num(left + plot) << "\" y2=\""
          << num(top + panel_height) << "\" stroke=\"black\"/>\n";
        if (hi >= lo) {
            o << "<text x=\"" << num(left) << "\" y=\"" << num(top + panel_height + 12) << "\">" << lo << "</text>\n";
            o << "<text x=\"" << num(left + plot) << "\" y=\"" << num(top + panel_height + 12) << "\" text-anchor=\"end\">" << hi
              << "</text>\n";
        }
    }
    o << "</svg>\n";
    return o.str();
}

}  // namespace wp::cli
