// The variables of a set of facts, partitioned by the facts that join them: two variables are in
// one class when some chain of facts links them. Facts of different classes share no variable,
// so a question needs only the classes its target touches, and each other class holds or fails
// on its own (docs/checker.md, "How", step 4). A union-find over Z3 term ids.
#pragma once

#include <unordered_map>
#include <vector>

namespace wp::verify::detail {

class var_partition {
public:
    // Puts all of vars (one fact's variables) in one class.
    void unite(const std::vector<unsigned>& vars) {
        if (vars.empty()) return;
        for (std::size_t i = 1; i < vars.size(); ++i) {
            const unsigned a = root(vars[0]), b = root(vars[i]);
            if (a != b) parent_[a] = b;
        }
        root(vars[0]);
    }
    // The class of variable v, named by one of its members.
    unsigned root(unsigned v) {
        auto it = parent_.find(v);
        if (it == parent_.end()) {
            parent_.emplace(v, v);
            return v;
        }
        while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
        return v;
    }

private:
    std::unordered_map<unsigned, unsigned> parent_;
};

}  // namespace wp::verify::detail
