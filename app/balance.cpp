// Balance reports: cells of seeded games, one option value at a time, compared with the
// baseline game by game (balance.hpp). The chart is in balance_plot.cpp.
#include "balance.hpp"

#include "westphalia/engine/statistics.hpp"
#include "westphalia/ir/print.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace wp::cli {

namespace {

std::string fixed(double v, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
    return buffer;
}

// Each game's share of the win for `seat` (1/k of a win shared by k seats), or -1 when the game
// did not finish.
double seat_share(const engine::sim_game& g, int seat) {
    if (!g.error.empty()) return -1;
    double share = 0;
    for (int w : g.winners)
        if (w == seat) share = 1.0 / static_cast<double>(g.winners.size());
    return share;
}

}  // namespace

std::optional<balance_report> run_balance(const ir::ruleset& rs, engine::sim_options base, const std::vector<std::string>& vary,
                                          distributed_simulator distributed) {
    balance_report r;
    r.ruleset = rs.name;
    r.with = ir::expansions_applied(rs);
    r.players = base.players;
    r.games = base.games;
    r.seed = base.seed;
    r.agents = engine::agents_text(base);
    base.keep_outcomes = true;
    base.progress = nullptr;
    // Every process plays every cell (its share of it); only the first gets the reports.
    bool first_process = true;
    auto play = [&](const engine::sim_options& o) {
        if (!distributed) return engine::simulate(rs, o);
        std::optional<engine::sim_report> report = distributed(rs, o);
        first_process = report.has_value();
        return report ? std::move(*report) : engine::sim_report{};
    };
    r.cells.push_back({"", "", play(base)});
    for (const ir::option& o : rs.options) {
        if (!vary.empty() && std::find(vary.begin(), vary.end(), o.name) == vary.end()) continue;
        if (base.options.count(o.name)) continue;  // fixed by --option
        if (o.values.size() > 1) r.defaults.emplace_back(o.name, ir::constant_text(rs, o.type, o.values[o.default_index]));
        for (std::size_t v = 0; v < o.values.size(); ++v) {
            if (v == o.default_index) continue;  // the baseline
            engine::sim_options cell = base;
            const std::string value = ir::constant_text(rs, o.type, o.values[v]);
            cell.options[o.name] = value;
            r.cells.push_back({o.name, value, play(cell)});
        }
    }
    if (!first_process) return std::nullopt;
    // Each cell against the baseline, game by game (the same seeds), then Holm over them all.
    const balance_cell& baseline = r.cells.front();
    std::vector<double> p;
    for (std::size_t c = 1; c < r.cells.size(); ++c)
        for (int seat = 0; seat < r.players; ++seat) {
            // The games both sides finished, paired by seed.
            std::vector<double> before, after;
            const auto& a = baseline.report.outcomes;
            const auto& b = r.cells[c].report.outcomes;
            for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
                const double x = seat_share(a[i], seat), y = seat_share(b[i], seat);
                if (x >= 0 && y >= 0) before.push_back(x), after.push_back(y);
            }
            r.comparisons.push_back({c, seat, engine::compare_paired(before, after), 1.0});
            p.push_back(r.comparisons.back().share.p);
        }
    const std::vector<double> adjusted = engine::holm_adjust(p);
    for (std::size_t i = 0; i < r.comparisons.size(); ++i) r.comparisons[i].p_holm = adjusted[i];
    return r;
}

std::string balance_text(const balance_report& r) {
    std::ostringstream out;
    out << r.ruleset << (r.with.empty() ? "" : " with " + r.with) << ": balance over " << r.cells.size() << " cells of " << r.games << " games, " << r.players
        << " players, seed " << r.seed << ", " << (r.agents.rfind("P1 ", 0) == 0 ? "agents " + r.agents : r.agents + " agents")
        << "\n";
    out << "each cell plays the same seeds; win shares with Wilson intervals at 95% for all seats together; a tie splits the win\n\n";
    for (const balance_cell& c : r.cells) {
        const engine::sim_report& s = c.report;
        if (c.option.empty()) {
            out << "baseline";
            for (std::size_t i = 0; i < r.defaults.size(); ++i)
                out << (i ? ", " : " (") << r.defaults[i].first << " = " << r.defaults[i].second << (i + 1 == r.defaults.size() ? ")" : "");
            out << '\n';
        } else {
            out << c.option << " = " << c.value << '\n';
        }
        out << "  wins:";
        for (std::size_t seat = 0; seat < s.wins.size(); ++seat) {
            out << " P" << seat + 1 << ' ';
            if (s.finished == 0) {
                out << '-';
            } else {
                out << fixed(100 * s.wins[seat] / static_cast<double>(s.finished), 1) << "% [" << fixed(100 * s.win_intervals[seat].lo, 1)
                    << '-' << fixed(100 * s.win_intervals[seat].hi, 1) << ']';
            }
            out << (seat + 1 < s.wins.size() ? "," : "");
        }
        out << "; no winner " << s.games_without_winner << '\n';
        out << "  length: ";
        if (s.finished == 0) out << "no finished game\n";
        else
            out << "mean " << fixed(s.mean_decisions, 1) << ", median " << s.decision_percentiles.at(50) << ", p5 "
                << s.decision_percentiles.at(5) << ", p95 " << s.decision_percentiles.at(95) << '\n';
        out << "  ends:";
        bool first = true;
        for (const auto& [reason, count] : s.end_reasons) {
            out << (first ? " " : ", ") << reason << ' ' << fixed(100.0 * static_cast<double>(count) / static_cast<double>(s.games), 1)
                << '%';
            first = false;
        }
        out << '\n';
    }
    out << "\nagainst the baseline, game by game: win share difference, its 95% interval, and the p-value adjusted by\n"
           "Holm's method over the "
        << r.comparisons.size() << " comparisons (`changed` below 0.05)\n";
    if (r.comparisons.empty()) out << "  none: no option varied\n";
    for (const balance_comparison& k : r.comparisons) {
        const balance_cell& c = r.cells[k.cell];
        out << "  " << c.option << " = " << c.value << ", P" << k.seat + 1 << ": " << (k.share.difference >= 0 ? "+" : "")
            << fixed(k.share.difference, 3) << " [" << fixed(k.share.lo, 3) << ", " << fixed(k.share.hi, 3) << "], p "
            << fixed(k.p_holm, 3)
            << (k.p_holm < 0.05 ? ", changed" : "") << '\n';
    }
    return out.str();
}

}  // namespace wp::cli
