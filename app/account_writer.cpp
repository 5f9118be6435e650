#include "account_writer.hpp"

namespace wp::cli {

namespace {

bool starts(const std::string& line, const char* prefix) { return line.rfind(prefix, 0) == 0; }

}  // namespace

const char* account_colour(const std::string& line) {
    if (starts(line, "turn ") || starts(line, "phase ") || starts(line, "end of game")) return "\033[1m";
    if (starts(line, "step ")) return "\033[2m";
    if (starts(line, "roll ") || starts(line, "table ")) return "\033[36m";
    if (starts(line, "event ")) return "\033[35m";
    if (line.find(" chooses ") != std::string::npos) return "\033[32m";
    if (line.find(" \u2192 ") != std::string::npos) return "\033[33m";
    return "";
}

std::function<void(const std::string&)> account_writer(std::ostream& out, bool colour) {
    if (!colour) return [&out](const std::string& line) { out << line << '\n'; };
    return [&out](const std::string& line) {
        const char* c = account_colour(line);
        if (*c) out << c << line << "\033[0m\n";
        else out << line << '\n';
    };
}

}  // namespace wp::cli
