// Terms made with their constant operands folded. Most comparisons the encoder writes are
// between two numbers (a card's attribute against a constant, for each of the 82 cards a choice
// considers), and Z3 hash-conses every term it makes: its table lookups, mostly cache misses,
// were a fifth of the symbolic execution. A folded term is the constant Z3's own simplifier
// would give; any other is made as Z3's operator would make it.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <optional>

namespace wp::verify::detail::terms {

// The value of an integer numeral, if e is one.
std::optional<std::int64_t> number(const z3::expr& e);
// The value of the constants true and false, if e is one.
std::optional<bool> truth(const z3::expr& e);

z3::expr eq(const z3::expr& a, const z3::expr& b);
z3::expr ne(const z3::expr& a, const z3::expr& b);
z3::expr lt(const z3::expr& a, const z3::expr& b);
z3::expr le(const z3::expr& a, const z3::expr& b);
z3::expr gt(const z3::expr& a, const z3::expr& b);
z3::expr ge(const z3::expr& a, const z3::expr& b);
z3::expr and_(const z3::expr& a, const z3::expr& b);
z3::expr or_(const z3::expr& a, const z3::expr& b);
z3::expr not_(const z3::expr& a);
z3::expr implies(const z3::expr& a, const z3::expr& b);
z3::expr ite(const z3::expr& c, const z3::expr& a, const z3::expr& b);
z3::expr add(const z3::expr& a, const z3::expr& b);

}  // namespace wp::verify::detail::terms
