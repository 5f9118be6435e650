// The statistics of play reports (sim, diff --sim, the agents' benchmark): intervals for win
// shares and a correction for comparing many measures at once.
#pragma once

#include <cstddef>
#include <vector>

namespace wp::engine {

// The z with P(|Z| > z) = alpha for a standard normal Z (alpha in (0, 1)): 1.96 for 0.05.
double normal_quantile_two_sided(double alpha);

// P(|Z| > |z|) for a standard normal Z.
double normal_two_sided_p(double z);

struct share_interval {
    double share = 0, lo = 0, hi = 0;
};

// Wilson's score interval for a share of `successes` in `trials` at two-sided level `alpha`
// (successes may be fractional: a tie splits a win). Better than the normal interval near 0
// and 1, where balance questions live. No trials: [0, 1].
share_interval wilson(double successes, double trials, double alpha = 0.05);

// Holm's step-down adjustment of p-values for `p.size()` comparisons made together: reject
// where the adjusted value is below alpha and the family-wise error stays at most alpha.
std::vector<double> holm_adjust(const std::vector<double>& p);

}  // namespace wp::engine
