// Table against table: each table marked `printing of t` compared with t on what is printed
// (ir/printings.hpp), every key they read differently a line of the finding's witness.
#include "checker.hpp"

#include "westphalia/ir/printings.hpp"

namespace wp::verify {

void checker::printing_checks() {
    for (const ir::table& tb : rs_.tables) {
        if (tb.printing_of == ir::no_id) continue;
        const ir::table& of = rs_.tables.at(tb.printing_of);
        const ir::printing_comparison d = ir::compare_printings(rs_, tb, of);
        if (d.same()) continue;
        std::string message = "table `" + tb.name + "`, a printing of `" + of.name + "`, differs from it";
        std::vector<std::string> how;
        if (!d.cells.empty()) how.push_back("in " + std::to_string(d.cells.size()) + (d.cells.size() == 1 ? " cell" : " cells"));
        if (!d.keys.empty()) how.push_back("in how it reads its keys");
        if (!d.only_a.empty() || !d.only_b.empty()) how.push_back("in the results it prints");
        for (std::size_t i = 0; i < how.size(); ++i) message += (i == 0 ? " " : i + 1 == how.size() ? " and " : ", ") + how[i];
        finding& f = add("table-mismatch", severity::warning, tb.name, message);
        f.elements.push_back({"table", tb.name, tb.prov});
        f.elements.push_back({"table", of.name, of.prov});
        for (const std::string& k : d.keys) f.witness.push_back(k);
        auto at = [&](const ir::table_cell* c) { return c ? " (" + sym_.position(c->prov.where) + ")" : std::string(); };
        for (const ir::printing_cell& c : d.cells)
            f.witness.push_back("row `" + c.row + "`" + (c.column.empty() ? "" : ", column `" + c.column + "`") + ": " + c.a_text +
                                " in `" + tb.name + "`" + at(c.a_cell) + ", " + c.b_text + " in `" + of.name + "`" + at(c.b_cell));
        for (const std::string& o : d.only_a) f.witness.push_back("`" + o + "` is printed in `" + tb.name + "` only");
        for (const std::string& o : d.only_b) f.witness.push_back("`" + o + "` is printed in `" + of.name + "` only");
    }
}

}  // namespace wp::verify
