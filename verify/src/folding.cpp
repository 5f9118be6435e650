#include "folding.hpp"

#include <algorithm>
#include <vector>

namespace wp::verify::detail {

namespace {

using value = constant_folding::value;
using kind = value::kind;

value boolean(bool b) { return {kind::boolean, b ? 1 : 0}; }
value integer(std::int64_t v) { return {kind::integer, v}; }

}  // namespace

value constant_folding::memo(Z3_ast a) const {
    const unsigned id = Z3_get_ast_id(ctx_, a);
    if (id >= kinds_.size()) return {};
    const kind k = kinds_[id];
    if (k != kind::boolean && k != kind::integer) return {k, 0};
    return {k, numbers_.at(id)};
}

bool constant_folding::seen(Z3_ast a) const {
    const unsigned id = Z3_get_ast_id(ctx_, a);
    if (id >= kinds_.size()) return false;
    switch (kinds_[id]) {
        case kind::unseen: return false;
        case kind::none: return hashes_[id] == Z3_get_ast_hash(ctx_, a);  // else another term has the id now
        default: return true;
    }
}

void constant_folding::remember(Z3_ast a, const value& v) {
    const unsigned id = Z3_get_ast_id(ctx_, a);
    if (id >= kinds_.size()) {
        const std::size_t n = std::max<std::size_t>(id + 1, kinds_.size() + kinds_.size() / 2);
        kinds_.resize(n, kind::unseen);
        hashes_.resize(n, 0);
    }
    kinds_[id] = v.known() ? v.k : kind::none;
    if (!v.known()) {
        hashes_[id] = Z3_get_ast_hash(ctx_, a);
        return;
    }
    numbers_[id] = v.v;
    alive_.push_back(z3::expr(ctx_, a));
}

value constant_folding::of(const z3::expr& e) {
    if (seen(e)) return memo(e);
    // Depth-first without recursion: a state after many steps is a deep nest of if-then-else.
    std::vector<std::pair<Z3_ast, bool>> todo{{e, false}};
    const Z3_context c = ctx_;
    while (!todo.empty()) {
        auto [a, args_done] = todo.back();
        todo.pop_back();
        if (seen(a)) continue;
        if (!args_done && Z3_get_ast_kind(c, a) == Z3_APP_AST) {
            const Z3_app app = Z3_to_app(c, a);
            const unsigned n = Z3_get_app_num_args(c, app);
            todo.push_back({a, true});
            for (unsigned i = 0; i < n; ++i) {
                const Z3_ast b = Z3_get_app_arg(c, app, i);
                if (!seen(b)) todo.push_back({b, false});
            }
            continue;
        }
        remember(a, compute(a));
    }
    return memo(e);
}

// The value of a term whose arguments are folded already.
value constant_folding::compute(Z3_ast a) {
    const Z3_context c = ctx_;
    if (Z3_get_ast_kind(c, a) == Z3_NUMERAL_AST) {
        std::int64_t v = 0;
        if (Z3_get_sort_kind(c, Z3_get_sort(c, a)) == Z3_INT_SORT && Z3_get_numeral_int64(c, a, &v)) return integer(v);
        return {};
    }
    if (Z3_get_ast_kind(c, a) != Z3_APP_AST) return {};
    const Z3_app app = Z3_to_app(c, a);
    const unsigned n = Z3_get_app_num_args(c, app);
    auto arg = [&](unsigned i) { return memo(Z3_get_app_arg(c, app, i)); };
    auto same = [&](unsigned i, unsigned j) { return Z3_get_app_arg(c, app, i) == Z3_get_app_arg(c, app, j); };
    switch (Z3_get_decl_kind(c, Z3_get_app_decl(c, app))) {
        case Z3_OP_TRUE: return boolean(true);
        case Z3_OP_FALSE: return boolean(false);
        case Z3_OP_NOT: {
            const value x = arg(0);
            return x.k == kind::boolean ? boolean(!x.v) : value{};
        }
        case Z3_OP_AND:
        case Z3_OP_OR: {
            // any argument at the absorbing value decides; all at the neutral one too
            const bool is_and = Z3_get_decl_kind(c, Z3_get_app_decl(c, app)) == Z3_OP_AND;
            bool all = true;
            for (unsigned i = 0; i < n; ++i) {
                const value x = arg(i);
                if (x.k != kind::boolean) all = false;
                else if (static_cast<bool>(x.v) != is_and) return boolean(!is_and);
            }
            return all ? boolean(is_and) : value{};
        }
        case Z3_OP_IMPLIES: {
            const value x = arg(0), y = arg(1);
            if (x == boolean(false) || y == boolean(true)) return boolean(true);
            if (x == boolean(true) && y.k == kind::boolean) return y;
            return {};
        }
        case Z3_OP_ITE: {
            const value x = arg(0);
            if (x.k == kind::boolean) return arg(x.v ? 1 : 2);
            const value y = arg(1), z = arg(2);
            return y.known() && y == z ? y : value{};
        }
        case Z3_OP_EQ:
        case Z3_OP_IFF: {
            if (same(0, 1)) return boolean(true);
            const value x = arg(0), y = arg(1);
            return x.known() && y.known() ? boolean(x == y) : value{};
        }
        case Z3_OP_DISTINCT: {
            std::vector<value> xs;
            for (unsigned i = 0; i < n; ++i) {
                xs.push_back(arg(i));
                if (!xs.back().known()) return {};
            }
            for (unsigned i = 0; i < n; ++i)
                for (unsigned j = i + 1; j < n; ++j)
                    if (xs[i] == xs[j]) return boolean(false);
            return boolean(true);
        }
        case Z3_OP_LE:
        case Z3_OP_GE:
        case Z3_OP_LT:
        case Z3_OP_GT: {
            const Z3_decl_kind k = Z3_get_decl_kind(c, Z3_get_app_decl(c, app));
            if (same(0, 1)) return boolean(k == Z3_OP_LE || k == Z3_OP_GE);
            const value x = arg(0), y = arg(1);
            if (x.k != kind::integer || y.k != kind::integer) return {};
            switch (k) {
                case Z3_OP_LE: return boolean(x.v <= y.v);
                case Z3_OP_GE: return boolean(x.v >= y.v);
                case Z3_OP_LT: return boolean(x.v < y.v);
                default: return boolean(x.v > y.v);
            }
        }
        case Z3_OP_ADD:
        case Z3_OP_MUL: {
            const bool add = Z3_get_decl_kind(c, Z3_get_app_decl(c, app)) == Z3_OP_ADD;
            std::int64_t r = add ? 0 : 1;
            for (unsigned i = 0; i < n; ++i) {
                const value x = arg(i);
                if (x.k != kind::integer) return {};
                if (add ? __builtin_add_overflow(r, x.v, &r) : __builtin_mul_overflow(r, x.v, &r)) return {};
            }
            return integer(r);
        }
        case Z3_OP_SUB: {
            const value x0 = arg(0);
            if (x0.k != kind::integer) return {};
            std::int64_t r = x0.v;
            for (unsigned i = 1; i < n; ++i) {
                const value x = arg(i);
                if (x.k != kind::integer || __builtin_sub_overflow(r, x.v, &r)) return {};
            }
            return integer(r);
        }
        case Z3_OP_UMINUS: {
            const value x = arg(0);
            std::int64_t r = 0;
            if (x.k != kind::integer || __builtin_sub_overflow(std::int64_t{0}, x.v, &r)) return {};
            return integer(r);
        }
        default: return {};  // variables, division, anything else: not folded
    }
}

}  // namespace wp::verify::detail
