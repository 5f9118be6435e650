// Parsing of command-line numbers with the checks CLI11's own conversion lacks.
#include "number_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <thread>

namespace wp::cli {

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max, const std::string& what) {
    const std::string description = "INT in [" + std::to_string(min) + " - " + std::to_string(max) + "]";
    return CLI::Validator(
        [min, max, what](std::string& text) -> std::string {
            if (text.empty()) return "a number is needed, not an empty value";
            if (text.find_first_not_of("0123456789") != std::string::npos)
                return "`" + text + "` is not a whole number from " + std::to_string(min) + " to " + std::to_string(max);
            std::uint64_t value = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (ec == std::errc::result_out_of_range || value > max)
                return "`" + text + "` is too large: " + (what.empty() ? "the largest is" : what + " is") + " " +
                       std::to_string(max);
            if (ec != std::errc() || end != text.data() + text.size()) return "`" + text + "` is not a whole number";
            if (value < min) return "`" + text + "` is too small: the smallest is " + std::to_string(min);
            return {};
        },
        description);
}

CLI::Validator finite_number() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size()) return "`" + text + "` is not a number";
            if (!std::isfinite(v)) return "`" + text + "` is not a finite number";
            return {};
        },
        "NUMBER");
}

CLI::Option* add_seconds(CLI::App& command, const std::string& name, double& value, const std::string& help, double lo, double hi) {
    return command.add_option(name, value, help)->check(finite_number())->check(CLI::Range(lo, hi))->capture_default_str();
}

unsigned thread_cap() { return threads_per_core_cap * std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace wp::cli
