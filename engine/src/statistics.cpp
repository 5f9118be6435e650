// Intervals and multiple-comparison corrections for play reports.
#include "westphalia/engine/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace wp::engine {

double normal_two_sided_p(double z) { return std::erfc(std::fabs(z) / std::sqrt(2.0)); }

double normal_quantile_two_sided(double alpha) {
    // Bisection on the tail (monotone, 80 halvings: far below double's resolution here).
    double lo = 0, hi = 40;
    for (int i = 0; i < 80; ++i) {
        const double mid = (lo + hi) / 2;
        (normal_two_sided_p(mid) > alpha ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

share_interval wilson(double successes, double trials, double alpha) {
    share_interval r;
    if (trials <= 0) {
        r.hi = 1;
        return r;
    }
    const double z = normal_quantile_two_sided(alpha), z2 = z * z;
    const double p = std::clamp(successes / trials, 0.0, 1.0);
    const double centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
    const double half = z / (1 + z2 / trials) * std::sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials));
    r.share = p;
    r.lo = std::max(0.0, centre - half);
    r.hi = std::min(1.0, centre + half);
    return r;
}

paired_comparison compare_paired(const std::vector<double>& a, const std::vector<double>& b) {
    paired_comparison r;
    r.n = std::min(a.size(), b.size());
    if (r.n == 0) return r;
    double sa = 0, sb = 0;
    for (std::size_t i = 0; i < r.n; ++i) {
        sa += a[i];
        sb += b[i];
    }
    const auto n = static_cast<double>(r.n);
    r.mean_a = sa / n;
    r.mean_b = sb / n;
    r.difference = r.mean_b - r.mean_a;
    double var = 0;
    for (std::size_t i = 0; i < r.n; ++i) {
        const double d = (b[i] - a[i]) - r.difference;
        var += d * d;
    }
    const double se = r.n > 1 ? std::sqrt(var / (n - 1) / n) : 0;
    r.lo = r.difference - 1.96 * se;
    r.hi = r.difference + 1.96 * se;
    r.p = se > 0 ? normal_two_sided_p(r.difference / se) : r.difference == 0 ? 1.0 : 0.0;
    return r;
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
    const std::size_t m = p.size();
    std::vector<std::size_t> order(m);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    std::vector<double> adjusted(m, 1.0);
    double running = 0;
    for (std::size_t k = 0; k < m; ++k) {
        running = std::max(running, std::min(1.0, static_cast<double>(m - k) * p[order[k]]));
        adjusted[order[k]] = running;
    }
    return adjusted;
}

}  // namespace wp::engine
