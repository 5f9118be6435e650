// A set of small unsigned ids (Z3 term ids, conjunct indices) emptied in constant time: each
// id remembers the round it was last marked in, and starting a new round forgets them all.
// The checker's hot loops ask "seen already?" millions of times per check; hash sets there were
// a quarter of the samples of GMT's bound part, most of its time outside the solver
// (docs/performance.md, 2026-12-01, fourth session).
#pragma once

#include <algorithm>
#include <vector>

namespace wp::verify::detail {

class id_marks {
public:
    // Forgets every mark.
    void clear() {
        if (++round_ == 0) {  // wrapped: the old rounds' numbers would come back
            std::fill(round_of_.begin(), round_of_.end(), 0u);
            round_ = 1;
        }
    }
    bool has(unsigned id) const { return id < round_of_.size() && round_of_[id] == round_; }
    // Marks id; false when it was marked already.
    bool mark(unsigned id) {
        if (id >= round_of_.size()) round_of_.resize(std::max<std::size_t>(id + 1, round_of_.size() * 3 / 2), 0u);
        if (round_of_[id] == round_) return false;
        round_of_[id] = round_;
        return true;
    }

private:
    std::vector<unsigned> round_of_;
    unsigned round_ = 1;
};

}  // namespace wp::verify::detail
