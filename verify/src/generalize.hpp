// A question's top levels, with what lies under them let go: a cheap proof of "never" for a
// question whose answer does not depend on the detail of its deepest terms. A table key clamped
// to the table, or a count of three conditions compared with -3..3, is covered whatever the
// conditions are; on SPI such a key is megabytes of terms over the map, and the solver took
// seconds to read it before finding that out.
#pragma once

#include <z3++.h>

#include <cstddef>

namespace wp::verify::detail {

struct generalization {
    z3::expr e;
    std::size_t replaced = 0;  // subterms let go (0: e is the question itself)
};

// e with every subterm more than `depth` levels down, or met once `budget` subterms are kept,
// replaced by a fresh constant of its sort (named `general!N`, N from `counter`). Any model of e
// extends to one of the result (each fresh constant takes the value of the subterm it stands
// for, wherever it occurs), so a result that cannot hold proves that e cannot either. Constants
// and numerals are kept at any depth.
generalization generalize(const z3::expr& e, unsigned depth, std::size_t budget, unsigned& counter);

// Whether e has more than `limit` distinct subterms (a walk of at most limit + 1 of them).
bool larger_than(const z3::expr& e, std::size_t limit);

}  // namespace wp::verify::detail
