// Two printings of one table (`table b … printing of a`, docs/language.md §8): whether they can
// be compared, and where they differ, cell by cell on what is printed. The checker reports the
// differences (`table-mismatch`), the aid notes them under the printing; both read this.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <string>
#include <vector>

namespace wp::ir {

// Why tables a and b cannot be compared as two printings ("…: the first reads odds, the second
// numbers"), or empty when they can: the same number of keys, each axis of the same kind (numbers,
// odds, members of one enum), the same outcome type. Their parameters may differ.
std::string printings_incomparable(const ruleset& rs, const table& a, const table& b);

// One key (row and column) that the two printings read differently.
struct printing_cell {
    std::string row;     // the row key as printed ("2", "natural 1", "3-4"; pieces where the rows differ)
    std::string column;  // the column key, empty for a one-key table
    std::string a_text;  // what printing a gives there: the outcome and effects, or "no row"/"no column"
    std::string b_text;
    const table_cell* a_cell = nullptr;  // the cell of a read there (none: no row or no column)
    const table_cell* b_cell = nullptr;
};

struct printing_comparison {
    std::vector<printing_cell> cells;
    // How the two read their keys, where it differs ("the column key: clamp 1-5..6-1 in one, none
    // in the other").
    std::vector<std::string> keys;
    // Outcomes one printing gives in some cell and the other in none, as written.
    std::vector<std::string> only_a;
    std::vector<std::string> only_b;
    bool same() const { return cells.empty() && keys.empty() && only_a.empty() && only_b.empty(); }
};

// Compares printing a with printing b (comparable, as above). Cells are matched by the keys
// they cover: every key either printing has a row and column for is one comparison, and
// neighbouring keys with the same rows and columns in both are reported once.
printing_comparison compare_printings(const ruleset& rs, const table& a, const table& b);

}  // namespace wp::ir
