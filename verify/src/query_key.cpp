// query_key(): each distinct term of the query, children first, is one record in the hash; a
// record names its children by their records' numbers, so the hash describes the DAG exactly.
#include "query_key.hpp"

#include <nettle/sha2.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace wp::verify::detail {

namespace {

class hasher {
public:
    explicit hasher(Z3_context c) : c_(c) { sha256_init(&sha_); }

    void begin(const std::string& format) { word(format); }

    bool add(const z3::expr& root) {
        // iterative: a long chain of sums must not exhaust the stack
        std::vector<std::pair<Z3_ast, bool>> todo{{root, false}};
        while (!todo.empty()) {
            auto [a, expanded] = todo.back();
            todo.pop_back();
            const unsigned id = Z3_get_ast_id(c_, a);
            if (number_.count(id)) continue;
            const Z3_ast_kind kind = Z3_get_ast_kind(c_, a);
            if (kind != Z3_APP_AST && kind != Z3_NUMERAL_AST) return false;
            if (kind == Z3_APP_AST && !expanded) {
                const Z3_app app = Z3_to_app(c_, a);
                todo.push_back({a, true});
                for (unsigned i = Z3_get_app_num_args(c_, app); i-- > 0;) todo.push_back({Z3_get_app_arg(c_, app, i), false});
                continue;
            }
            record(a, kind);
            number_.emplace(id, next_++);
        }
        word("root");
        word(number_.at(Z3_get_ast_id(c_, root)));
        return true;
    }

    std::string digest() {
        std::uint8_t d[SHA256_DIGEST_SIZE];
        sha256_digest(&sha_, sizeof d, d);
        static const char* hex = "0123456789abcdef";
        std::string out;
        for (std::uint8_t b : d) {
            out += hex[b >> 4];
            out += hex[b & 15];
        }
        return out;
    }

private:
    void bytes(const void* p, std::size_t n) { sha256_update(&sha_, n, static_cast<const std::uint8_t*>(p)); }
    void word(const std::string& s) {
        const std::uint64_t n = s.size();
        bytes(&n, sizeof n);
        bytes(s.data(), s.size());
    }
    void word(std::uint64_t v) { bytes(&v, sizeof v); }

    void sort(Z3_sort s) {
        const unsigned id = Z3_get_ast_id(c_, Z3_sort_to_ast(c_, s));
        auto it = sorts_.find(id);
        if (it == sorts_.end()) it = sorts_.emplace(id, Z3_sort_to_string(c_, s)).first;
        word(it->second);
    }

    void record(Z3_ast a, Z3_ast_kind kind) {
        sort(Z3_get_sort(c_, a));
        if (kind == Z3_NUMERAL_AST) {
            word("num");
            word(Z3_get_numeral_string(c_, a));
            return;
        }
        const Z3_app app = Z3_to_app(c_, a);
        const Z3_func_decl d = Z3_get_app_decl(c_, app);
        const unsigned n = Z3_get_app_num_args(c_, app);
        const Z3_decl_kind dk = Z3_get_decl_kind(c_, d);
        if (dk == Z3_OP_UNINTERPRETED && n == 0) {
            // a constant: its place among the query's constants, not its name
            auto [it, added] = constants_.emplace(Z3_get_ast_id(c_, a), constants_.size());
            word("const");
            word(it->second);
            (void)added;
            return;
        }
        word("app");
        word(static_cast<std::uint64_t>(dk));
        // the declaration's name and parameters (an uninterpreted function's name is the
        // encoder's fixed name for it; an interpreted one's parameters are its indices)
        word(Z3_get_symbol_kind(c_, Z3_get_decl_name(c_, d)) == Z3_STRING_SYMBOL
                 ? std::string(Z3_get_symbol_string(c_, Z3_get_decl_name(c_, d)))
                 : std::to_string(Z3_get_symbol_int(c_, Z3_get_decl_name(c_, d))));
        const unsigned params = Z3_get_decl_num_parameters(c_, d);
        word(params);
        for (unsigned i = 0; i < params; ++i) {
            if (Z3_get_decl_parameter_kind(c_, d, i) == Z3_PARAMETER_INT) word(static_cast<std::uint64_t>(Z3_get_decl_int_parameter(c_, d, i)));
            else word(std::string(Z3_func_decl_to_string(c_, d)));  // rare: the whole declaration
        }
        word(n);
        for (unsigned i = 0; i < n; ++i) word(number_.at(Z3_get_ast_id(c_, Z3_get_app_arg(c_, app, i))));
    }

    Z3_context c_;
    sha256_ctx sha_;
    std::unordered_map<unsigned, std::uint64_t> number_;     // term id -> record number
    std::unordered_map<unsigned, std::uint64_t> constants_;  // constant id -> order of appearance
    std::unordered_map<unsigned, std::string> sorts_;
    std::uint64_t next_ = 0;
};

}  // namespace

std::optional<std::string> query_key(const z3::expr_vector& assertions) {
    hasher h(assertions.ctx());
    h.begin("westphalia query key 1");
    for (unsigned i = 0; i < assertions.size(); ++i)
        if (!h.add(assertions[i])) return std::nullopt;
    return h.digest();
}

}  // namespace wp::verify::detail
