// Constant folding of Z3 terms with a memory across terms: whether a path's new fact is already
// true or false by the constants in it (a condition on a value the sequence fixed earlier). The
// symbolic execution asks this of every fact; its facts share most of their subterms (the state
// as it evolves), so each subterm is folded once for the whole execution, where Z3's `simplify`
// walked the whole of every fact again.
#pragma once

#include <z3++.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace wp::verify::detail {

class constant_folding {
public:
    explicit constant_folding(z3::context& ctx) : ctx_(ctx), alive_(ctx) {}

    // The constant a term folds to, if it does.
    struct value {
        enum class kind : std::uint8_t { unseen, none, boolean, integer } k = kind::unseen;
        std::int64_t v = 0;
        bool known() const { return k == kind::boolean || k == kind::integer; }
        bool operator==(const value& o) const { return k == o.k && v == o.v; }
    };
    value of(const z3::expr& e);

    bool is_true(const z3::expr& e) { return of(e) == value{value::kind::boolean, 1}; }
    bool is_false(const z3::expr& e) { return of(e) == value{value::kind::boolean, 0}; }

private:
    value compute(Z3_ast a);

    bool seen(Z3_ast a) const;
    value memo(Z3_ast a) const;
    void remember(Z3_ast a, const value& v);

    z3::context& ctx_;
    // By the term's id: its kind (one byte, for the millions of terms of a big game), and the
    // constants apart. Z3 reuses a term's id once the term is gone, so the terms found constant
    // are kept alive: an id found constant always names that term. The others are not (keeping
    // every fact alive doubled the memory of the SPI game's exploration, 2 to 4 GB); their hash
    // tells when another term has the id now (when two terms share it too, the later one is
    // taken as not constant: it only folds less).
    std::vector<value::kind> kinds_;
    std::vector<std::uint32_t> hashes_;
    std::unordered_map<unsigned, std::int64_t> numbers_;  // integers and booleans (0, 1)
    z3::expr_vector alive_;
};

}  // namespace wp::verify::detail
