// The large independent groups of a path's facts the solver has decided (checker::groups_hold):
// a group is a sorted list of fact numbers. A group inside one that holds holds too (the same
// model satisfies it). A group that holds all of one the solver left undecided within its full
// limits is taken as undecided without asking: on GMT the groups of one path, thousands of facts
// each, were asked again at every question along it, 20-40 s each, to the same `unknown`. That
// can only turn an answer into `unknown`, never into a wrong one. A huge group (asked with a
// larger limit, checker.hpp's huge_group) is taken as undecided only for a huge group left
// undecided: one left so within the ordinary limit may yet be decided within the larger.
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
    // or `undecided` when it holds an undecided one asked with a limit at least g's (`larger`:
    // g is asked with the larger limit); nothing when neither.
    struct verdict {
        std::optional<std::size_t> inside_held;
        bool undecided = false;
    };
    verdict of(const group& g, bool larger = false) const {
        verdict v;
        for (std::size_t i = 0; i < held_.size(); ++i)
            if (within(g, held_[i])) {
                v.inside_held = i;
                return v;
            }
        v.undecided = std::any_of(undecided_.begin(), undecided_.end(),
                                  [&](const left& u) { return (u.larger || !larger) && within(u.g, g); });
        return v;
    }
    const group& held(std::size_t i) const { return held_.at(i); }

    void add_held(const group& g) { held_.push_back(g); }
    // `larger`: left undecided within the larger limit.
    void add_undecided(const group& g, bool larger = false) { undecided_.push_back({g, larger}); }

private:
    static bool within(const group& a, const group& b) {
        return a.size() <= b.size() && std::includes(b.begin(), b.end(), a.begin(), a.end());
    }
    struct left {
        group g;
        bool larger = false;
    };
    std::vector<group> held_;
    std::vector<left> undecided_;
};

// How many facts two groups (sorted) share.
inline std::size_t shared_facts(const large_groups::group& a, const large_groups::group& b) {
    std::size_t n = 0;
    for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end();) {
        if (*i < *j) ++i;
        else if (*j < *i) ++j;
        else ++n, ++i, ++j;
    }
    return n;
}

// The entry of `known` (a map keyed by groups) of more than `min_size` facts that shares the
// most facts with g, the first of those in the map's order; none when none shares one. A new
// large group of a path is mostly such a group with a few facts more or other, so that group's
// model is the nearest to one of g (checker::groups_hold).
template <class Map>
const typename Map::value_type* nearest_group(const Map& known, const large_groups::group& g, std::size_t min_size) {
    const typename Map::value_type* best = nullptr;
    std::size_t most = 0;
    for (const auto& entry : known) {
        if (entry.first.size() <= min_size) continue;
        const std::size_t n = shared_facts(entry.first, g);
        if (n > most) most = n, best = &entry;
    }
    return best;
}

}  // namespace wp::verify::detail
