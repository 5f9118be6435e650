#include "generalize.hpp"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace wp::verify::detail {

namespace {

// constants, numerals, true and false
bool leaf(const z3::expr& e) { return e.is_app() && e.num_args() == 0; }

struct generalizer {
    std::size_t budget;
    unsigned& counter;
    std::size_t kept = 0, replaced = 0;
    // Each subterm is rewritten once, at the first depth it is met (a term shared at two depths
    // is the same rewrite at both: still a generalization, as every fresh constant stands for
    // one subterm).
    std::unordered_map<unsigned, z3::expr> done;

    z3::expr fresh(const z3::expr& e) {
        ++replaced;
        const std::string name = "general!" + std::to_string(counter++);
        return e.ctx().constant(name.c_str(), e.get_sort());
    }

    z3::expr walk(const z3::expr& e, unsigned left) {
        if (leaf(e)) return e;
        if (auto it = done.find(e.id()); it != done.end()) return it->second;
        z3::expr out = e;
        if (left == 0 || kept >= budget || !e.is_app()) {
            out = fresh(e);
        } else {
            ++kept;
            z3::expr_vector args(e.ctx());
            bool same = true;
            for (unsigned i = 0; i < e.num_args(); ++i) {
                const z3::expr a = e.arg(i);
                args.push_back(walk(a, left - 1));
                same = same && z3::eq(args.back(), a);
            }
            if (!same) out = e.decl()(args);
        }
        done.emplace(e.id(), out);
        return out;
    }
};

}  // namespace

generalization generalize(const z3::expr& e, unsigned depth, std::size_t budget, unsigned& counter) {
    generalizer g{budget, counter, 0, 0, {}};
    z3::expr out = g.walk(e, depth);
    return {out, g.replaced};
}

bool larger_than(const z3::expr& e, std::size_t limit) {
    const Z3_context c = e.ctx();
    std::unordered_set<unsigned> seen;
    std::vector<Z3_ast> todo{e};
    while (!todo.empty()) {
        const Z3_ast a = todo.back();
        todo.pop_back();
        if (!seen.insert(Z3_get_ast_id(c, a)).second) continue;
        if (seen.size() > limit) return true;
        if (Z3_get_ast_kind(c, a) != Z3_APP_AST) continue;
        const Z3_app app = Z3_to_app(c, a);
        for (unsigned i = 0, n = Z3_get_app_num_args(c, app); i < n; ++i) todo.push_back(Z3_get_app_arg(c, app, i));
    }
    return false;
}

}  // namespace wp::verify::detail
