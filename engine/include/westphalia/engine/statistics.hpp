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

// Two sides measured on the same games (the same seeds), a[i] against b[i]: the means, the mean
// difference b - a, its 95% normal-approximation interval and the two-sided p-value that it is 0
// (no games: all 0 and p 1; no spread: the interval is the point, p 1 when it is 0, else 0).
struct paired_comparison {
    std::size_t n = 0;
    double mean_a = 0, mean_b = 0, difference = 0, lo = 0, hi = 0, p = 1;
};
paired_comparison compare_paired(const std::vector<double>& a, const std::vector<double>& b);

// Holm's step-down adjustment of p-values for `p.size()` comparisons made together: reject
// where the adjusted value is below alpha and the family-wise error stays at most alpha.
std::vector<double> holm_adjust(const std::vector<double>& p);

}  // namespace wp::engine
