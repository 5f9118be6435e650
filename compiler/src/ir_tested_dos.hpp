// dice_in_tested_dos(): dice rolled in the arguments of a `do` the engines test before offering
// it (the first statement of a `may`'s body or of a `choose`'s body). The test evaluates the
// arguments and doing the action evaluates them again, so such dice would be rolled twice; the
// compiler (roll-in-tested-do) and the IR loader reject them.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <vector>

namespace wp::ir {

struct tested_do_dice {
    id offer = no_id;  // the `may` or `choose`
    id act = no_id;    // its first `do`
    id dice = no_id;   // the first roll or dice term in the `do`'s arguments
};

// The first roll or dice term in expression n, or none (an explicit stack: an expression may be
// deep). With through_quantities, the expressions of the quantities it calls are searched too
// (each once), so an expression that must not roll (a turn's number) can't hide dice there.
id chance_in(const ruleset& rs, id n, bool through_quantities = false);

// One entry per such `do`, in node order. Indices out of their tables are skipped.
std::vector<tested_do_dice> dice_in_tested_dos(const ruleset& rs);

}  // namespace wp::ir
