// Which tables play reads under the chosen options, and which option picks a table. A ruleset
// may print two readings of a chart (SPI's rules folder and Freiburg map) and let an option
// choose; the aid is made for one choice of options, so it prints the table in force and says
// which reading that is ("charts = rules folder"), and leaves out the one no play reads.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <string>
#include <vector>

namespace wp::docgen {

struct table_readings {
    std::vector<bool> in_play;          // per table: some reference outside the branches the options rule out
    std::vector<std::string> reading;   // per table: "charts = rules folder" when an option decides it, else ""
    std::vector<std::string> left_out;  // the tables not in play, each with the reading that would show it
};

table_readings readings_of(const ir::ruleset& rs);

}  // namespace wp::docgen
