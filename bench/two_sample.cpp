// Two-sample Kolmogorov–Smirnov and chi-square homogeneity tests (formulas as in Numerical
// Recipes, 3rd ed., §6.2 and §14.3; our own code).
#include "two_sample.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace wp::bench {

namespace {

// Q_KS(λ) = 2 Σ_{j≥1} (-1)^{j-1} exp(-2 j² λ²).
double kolmogorov_q(double lambda) {
    if (lambda < 1e-3) return 1.0;
    double sum = 0, sign = 1;
    for (int j = 1; j <= 200; ++j) {
        const double term = sign * std::exp(-2.0 * j * j * lambda * lambda);
        sum += term;
        if (std::fabs(term) < 1e-12) break;
        sign = -sign;
    }
    return std::clamp(2.0 * sum, 0.0, 1.0);
}

// Regularised lower incomplete gamma P(a, x) by its series, upper Q(a, x) by its continued
// fraction, each where it converges fast.
double gamma_p_series(double a, double x) {
    double sum = 1.0 / a, term = sum, ap = a;
    for (int n = 0; n < 1000; ++n) {
        ap += 1;
        term *= x / ap;
        sum += term;
        if (std::fabs(term) < std::fabs(sum) * 1e-15) break;
    }
    return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

double gamma_q_fraction(double a, double x) {
    const double tiny = 1e-300;
    double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
    for (int i = 1; i < 1000; ++i) {
        const double an = -i * (i - a);
        b += 2;
        d = an * d + b;
        if (std::fabs(d) < tiny) d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1) < 1e-15) break;
    }
    return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

}  // namespace

double chi_square_upper_tail(double x, int k) {
    if (k <= 0 || x <= 0) return 1.0;
    const double a = k / 2.0, h = x / 2.0;
    return h < a + 1 ? 1.0 - gamma_p_series(a, h) : gamma_q_fraction(a, h);
}

test_result kolmogorov_smirnov(std::vector<double> a, std::vector<double> b) {
    test_result r;
    if (a.empty() || b.empty()) return r;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
    std::size_t i = 0, j = 0;
    double d = 0;
    while (i < a.size() && j < b.size()) {
        const double x = std::min(a[i], b[j]);
        while (i < a.size() && a[i] == x) ++i;  // step past every tie on both sides
        while (j < b.size() && b[j] == x) ++j;
        d = std::max(d, std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
    }
    const double ne = std::sqrt(na * nb / (na + nb));
    r.statistic = d;
    r.p_value = kolmogorov_q((ne + 0.12 + 0.11 / ne) * d);
    return r;
}

test_result chi_square(const std::map<std::string, std::uint64_t>& a, const std::map<std::string, std::uint64_t>& b) {
    test_result r;
    std::set<std::string> categories;
    for (const auto& [k, v] : a)
        if (v > 0) categories.insert(k);
    for (const auto& [k, v] : b)
        if (v > 0) categories.insert(k);
    double na = 0, nb = 0;
    for (const auto& [k, v] : a) na += static_cast<double>(v);
    for (const auto& [k, v] : b) nb += static_cast<double>(v);
    if (categories.size() < 2 || na == 0 || nb == 0) return r;
    auto count = [](const std::map<std::string, std::uint64_t>& m, const std::string& k) {
        const auto it = m.find(k);
        return it == m.end() ? 0.0 : static_cast<double>(it->second);
    };
    double x2 = 0;
    for (const std::string& k : categories) {
        const double ca = count(a, k), cb = count(b, k);
        const double total = ca + cb;
        const double ea = total * na / (na + nb), eb = total * nb / (na + nb);
        x2 += (ca - ea) * (ca - ea) / ea + (cb - eb) * (cb - eb) / eb;
    }
    r.statistic = x2;
    r.degrees_of_freedom = static_cast<int>(categories.size()) - 1;
    r.p_value = chi_square_upper_tail(x2, r.degrees_of_freedom);
    return r;
}

}  // namespace wp::bench
