// The README's Commands table says exactly what each command takes: every option a command's
// --help lists is in its row (by one of its names), every option in a row is one the command
// takes, and the --format values agree.
#include "cli.hpp"
#include "source_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace wp;

namespace {

struct command_options {
    std::vector<std::set<std::string>> options;  // each option's names (-o, --output)
    std::set<std::string> format_values;
};

command_options from_help(const std::string& command) {
    std::ostringstream out, err;
    std::istringstream in;
    cli::run({command, "--help"}, out, err, in);
    command_options c;
    std::istringstream lines(out.str());
    bool in_options = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("Options:", 0) == 0) {
            in_options = true;
            continue;
        }
        if (!in_options) continue;
        if (!line.empty() && line[0] != ' ') break;  // the next section
        const auto start = line.find_first_not_of(' ');
        if (start == std::string::npos || line[start] != '-') continue;
        const std::string field = line.substr(start, line.find(' ', start) - start);
        std::set<std::string> names;
        std::stringstream split(field);
        for (std::string name; std::getline(split, name, ',');) names.insert(name);
        if (names.count("--help")) continue;
        if (names.count("--format")) {
            const auto open = line.find('{'), close = line.find('}');
            std::stringstream values(line.substr(open + 1, close - open - 1));
            for (std::string v; std::getline(values, v, ',');) c.format_values.insert(v);
        }
        c.options.push_back(names);
    }
    return c;
}

// The README's rows: command -> the text of its first cell.
std::map<std::string, std::string> readme_rows() {
    std::ifstream in(std::string(WP_SOURCE_DIR) + "/README.md");
    std::map<std::string, std::string> rows;
    for (std::string line; std::getline(in, line);) {
        static const std::regex row(R"(^\| `westphalia ([a-z]+)( [^`]*)?` \|)");
        std::smatch m;
        if (std::regex_search(line, m, row)) rows[m[1]] = m[2];
    }
    return rows;
}

}  // namespace

TEST_CASE("README: each command's row lists exactly the options the command takes", "[cli][docs]") {
    const auto rows = readme_rows();
    for (const char* command : {"parse", "compile", "play", "replay", "sim", "translate", "info", "check", "diff", "aid", "coverage"}) {
        INFO("westphalia " << command);
        REQUIRE(rows.count(command) == 1);
        const std::string& row = rows.at(command);
        std::set<std::string> documented;
        static const std::regex flag(R"((^|[\s\[|])(--?[a-z][a-z-]*))");
        for (auto it = std::sregex_iterator(row.begin(), row.end(), flag); it != std::sregex_iterator(); ++it)
            documented.insert((*it)[2]);
        const command_options help = from_help(command);
        std::set<std::string> taken;
        for (const auto& names : help.options) {
            taken.insert(names.begin(), names.end());
            bool listed = false;
            for (const std::string& n : names) listed = listed || documented.count(n) > 0;
            INFO("option " << *names.rbegin() << " is not in the README's row");
            CHECK(listed);
        }
        for (const std::string& d : documented) {
            INFO("the README's row lists " << d << ", which the command does not take");
            CHECK(taken.count(d) == 1);
        }
        static const std::regex format(R"(--format=([a-z\\|]+))");
        std::smatch m;
        REQUIRE(std::regex_search(row, m, format));
        std::set<std::string> values;
        std::stringstream split(std::regex_replace(std::string(m[1]), std::regex(R"(\\)"), ""));
        for (std::string v; std::getline(split, v, '|');) values.insert(v);
        CHECK(values == help.format_values);
    }
}
