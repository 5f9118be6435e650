// Two-sample tests for the benchmark's cross-check: do two implementations play the same game?
// Kolmogorov–Smirnov for numeric samples (game length, final gold), chi-square for categories
// (end reasons).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wp::bench {

struct test_result {
    double statistic = 0;  // D for Kolmogorov–Smirnov, X² for chi-square
    double p_value = 1;
    int degrees_of_freedom = 0;  // chi-square only
};

// Two-sample Kolmogorov–Smirnov: D = sup |F_a - F_b|, p from the asymptotic Kolmogorov
// distribution with the Stephens small-sample correction. Conservative for discrete data
// (ties only make D smaller).
test_result kolmogorov_smirnov(std::vector<double> a, std::vector<double> b);

// Chi-square test of homogeneity on a 2 × k table of category counts (categories missing from
// one side count 0 there; categories absent from both are dropped). One category: X² = 0, p = 1.
test_result chi_square(const std::map<std::string, std::uint64_t>& a, const std::map<std::string, std::uint64_t>& b);

// Upper tail of the chi-square distribution with k degrees of freedom at x.
double chi_square_upper_tail(double x, int k);

}  // namespace wp::bench
