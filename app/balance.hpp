// Balance reports: the same seeded games played under each value of each option, one option at
// a time (the others at their defaults or as --option fixes them), with win shares and their
// intervals, game lengths and end reasons per cell, and each cell's win shares compared with the
// baseline's (every option at its default) game by game, the p-values adjusted by Holm's method
// over every comparison made. The report depends only on its options, never on the threads.
#pragma once

#include "distributed.hpp"

#include "westphalia/engine/sim.hpp"
#include "westphalia/engine/statistics.hpp"
#include "westphalia/ir/ir.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wp::cli {

struct balance_cell {
    std::string option;  // empty: the baseline
    std::string value;
    engine::sim_report report;  // with its outcomes
};

struct balance_comparison {
    std::size_t cell = 0;  // into balance_report::cells
    int seat = 0;
    engine::paired_comparison share;  // win share, baseline (a) against the cell (b), games finished in both
    double p_holm = 1;
};

struct balance_report {
    std::string ruleset;
    std::string with;  // the expansions applied, or empty
    int players = 0;
    std::uint64_t games = 0, seed = 0;
    std::string agents;
    std::vector<balance_cell> cells;  // the baseline first
    std::vector<std::pair<std::string, std::string>> defaults;  // each option varied, its baseline value
    std::vector<balance_comparison> comparisons;
};

// Plays the cells: `vary` names the options to vary (empty: every option); fixed are the
// --option values. With `distributed` (--mpi) every process plays its share of each cell and
// only the first gets the report (the others std::nullopt). Throws engine::engine_error on a bad
// option name or value.
std::optional<balance_report> run_balance(const ir::ruleset& rs, engine::sim_options base, const std::vector<std::string>& vary,
                                          distributed_simulator distributed = nullptr);

// The report as text (a table per cell, then the comparisons) and as an SVG chart: win share
// per cell with its interval, and a histogram of game length per cell of the first option varied.
std::string balance_text(const balance_report& r);
std::string balance_svg(const balance_report& r);

}  // namespace wp::cli
