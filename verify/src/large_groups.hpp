// The large independent groups of a path's facts the solver has decided (checker::groups_hold):
// a group is a sorted list of fact numbers. A group inside one that holds holds too (the same
// model satisfies it). A group that holds all of one the solver left undecided within its full
// limits is taken as undecided without asking: on GMT the groups of one path, thousands of facts
// each, were asked again at every question along it, 20-40 s each, to the same `unknown`. That
// can only turn an answer into `unknown`, never into a wrong one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace wp::verify::detail {

class large_groups {
public:
    using group = std::vector<unsigned>;  // sorted

    // What the groups seen say of g: the index of a held group it is inside (its model is g's),
    // or `undecided` when it holds an undecided one; nothing when neither.
    struct verdict {
        std::optional<std::size_t> inside_held;
        bool undecided = false;
    };
    verdict of(const group& g) const {
        verdict v;
        for (std::size_t i = 0; i < held_.size(); ++i)
            if (within(g, held_[i])) {
                v.inside_held = i;
                return v;
            }
        v.undecided = std::any_of(undecided_.begin(), undecided_.end(), [&](const group& u) { return within(u, g); });
        return v;
    }
    const group& held(std::size_t i) const { return held_.at(i); }

    void add_held(const group& g) { held_.push_back(g); }
    void add_undecided(const group& g) { undecided_.push_back(g); }

private:
    static bool within(const group& a, const group& b) {
        return a.size() <= b.size() && std::includes(b.begin(), b.end(), a.begin(), a.end());
    }
    std::vector<group> held_, undecided_;
};

}  // namespace wp::verify::detail
