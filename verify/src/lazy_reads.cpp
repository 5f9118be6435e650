// Fields of a large map's locations read at a location the solver picks, made exact lazily
// (symbolic.hpp, lazy_read): a variable per read, tied to what the model's location holds.
#include "symbolic.hpp"

#include "terms.hpp"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace wp::verify::detail {

namespace {

// The constants (ids) a read stands on: those of its index and values, and what an earlier lazy
// read among them stands on; sorted.
std::vector<unsigned> stands_on(const symbolic& sym, const z3::expr& index, const std::vector<z3::expr>& values) {
    const Z3_context c = index.ctx();
    std::vector<unsigned> out;
    std::unordered_set<unsigned> seen;
    std::vector<Z3_ast> todo{index};
    for (const z3::expr& v : values) todo.push_back(v);
    while (!todo.empty()) {
        const Z3_ast a = todo.back();
        todo.pop_back();
        if (!seen.insert(Z3_get_ast_id(c, a)).second || Z3_get_ast_kind(c, a) != Z3_APP_AST) continue;
        const Z3_app app = Z3_to_app(c, a);
        const unsigned n = Z3_get_app_num_args(c, app);
        if (n == 0 && Z3_get_decl_kind(c, Z3_get_app_decl(c, app)) == Z3_OP_UNINTERPRETED) {
            const unsigned id = Z3_get_ast_id(c, a);
            out.push_back(id);
            if (const std::vector<unsigned>* d = sym.lazy_deps(id)) out.insert(out.end(), d->begin(), d->end());
            continue;
        }
        for (unsigned i = 0; i < n; ++i) todo.push_back(Z3_get_app_arg(c, app, i));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace

std::optional<z3::expr> symbolic::lazy_slot_read(const z3::expr& index, std::int64_t base, std::vector<z3::expr> values,
                                                 id value_type) {
    if (values.empty()) return std::nullopt;
    const z3::sort sort = values.front().get_sort();
    for (const z3::expr& v : values)
        if (!z3::eq(v.get_sort(), sort)) return std::nullopt;
    lazy_read r{ctx.constant(("read#" + std::to_string(lazy_reads.size())).c_str(), sort), index, base, std::move(values), {}, std::nullopt};
    r.deps = stands_on(*this, index, r.values);
    const z3::expr var = r.var;
    if (sort.is_int()) side.push_back(in_type(var, value_type));
    lazy_by_var.emplace(var.id(), lazy_reads.size());
    lazy_reads.push_back(std::move(r));
    return var;
}

z3::expr symbolic::lazy_lookup(const std::vector<std::int64_t>& values, const z3::expr& node, std::int64_t otherwise) {
    std::size_t h = std::hash<std::int64_t>{}(otherwise);
    for (std::int64_t v : values) h = h * 1000003u ^ std::hash<std::int64_t>{}(v);
    auto& known = lookups_[{h, node.id()}];  // (the node term is kept there, so its id is not reused)
    for (const auto& [n, var] : known)
        if (z3::eq(n, node)) {
            const lazy_read& r = lazy_reads[lazy_by_var.at(var.id())];
            bool same = r.values.size() == values.size() && r.outside && terms::number(*r.outside) == otherwise;
            for (std::size_t i = 0; same && i < values.size(); ++i) same = terms::number(r.values[i]) == values[i];
            if (same) return var;
        }
    std::vector<z3::expr> nums;
    nums.reserve(values.size());
    for (std::int64_t v : values) nums.push_back(num(v));
    const std::size_t k = lazy_reads.size();
    lazy_read r{ctx.int_const(("lookup#" + std::to_string(k)).c_str()), node, 0, std::move(nums), {}, num(otherwise)};
    r.deps = stands_on(*this, node, {});
    const z3::expr var = r.var;
    // (no range as a side fact: a map search's predicate read at a symbolic node would then need
    // conditions of its own, and be any value)
    lazy_by_var.emplace(var.id(), k);
    lazy_reads.push_back(std::move(r));
    known.emplace_back(node, var);
    return var;
}

const std::vector<unsigned>* symbolic::lazy_deps(unsigned var) const {
    const auto it = lazy_by_var.find(var);
    return it == lazy_by_var.end() ? nullptr : &lazy_reads[it->second].deps;
}

z3::expr symbolic::whole_definition(const lazy_read& r) const {
    if (r.outside) {
        // fixed data: one `ite` per distinct value, on the nodes that have it
        std::map<std::int64_t, z3::expr_vector> by_value;
        for (std::size_t i = 0; i < r.values.size(); ++i)
            by_value.try_emplace(*terms::number(r.values[i]), ctx)
                .first->second.push_back(r.index == ctx.int_val(r.base + static_cast<std::int64_t>(i)));
        z3::expr acc = *r.outside;
        for (auto& [v, where] : by_value) acc = z3::ite(z3::mk_or(where), ctx.int_val(v), acc);
        return acc;
    }
    z3::expr acc = r.values.front();
    for (std::size_t c = 1; c < r.values.size(); ++c)
        acc = z3::ite(r.index == ctx.int_val(r.base + static_cast<std::int64_t>(c)), r.values[c], acc);
    return acc;
}

std::vector<std::pair<z3::expr, z3::expr>> symbolic::read_definitions(const std::vector<unsigned>& constants) const {
    std::vector<std::pair<z3::expr, z3::expr>> out;
    std::vector<std::size_t> todo;
    for (unsigned c : constants)
        if (const auto it = lazy_by_var.find(c); it != lazy_by_var.end()) todo.push_back(it->second);
    // a value written from an earlier read holds that read: it is defined too
    std::unordered_set<std::size_t> done;
    while (!todo.empty()) {
        const std::size_t k = todo.back();
        todo.pop_back();
        if (!done.insert(k).second) continue;
        const lazy_read& r = lazy_reads[k];
        out.emplace_back(r.var, whole_definition(r));
        for (unsigned d : r.deps)
            if (const auto it = lazy_by_var.find(d); it != lazy_by_var.end()) todo.push_back(it->second);
    }
    return out;
}

}  // namespace wp::verify::detail
