// Golden test runner. A golden file holds the command on its first line, then the expected
// exit code, standard output and standard error:
//
//   $ westphalia parse tests/golden/syntax/fail_missing_semicolon.wph
//   exit: 2
//   --- stdout
//   --- stderr
//   tests/golden/syntax/fail_missing_semicolon.wph:3:1: error: … [syntax]
//
// Lines before the command that start with `# generate PATH BYTES` first write a generated rule
// file of about BYTES bytes (valid declarations, then one syntax error at the end), for inputs
// too large to keep in the repository. `# chain PATH OPERANDS OPERATOR` writes a game whose one
// expression is a flat chain (`0 + 0 + …`, `true and true and …`) of that many operands. A line `# stdin PATH` feeds the file at PATH to the
// command as its standard input (a human player's typing for `play --agent human`); without
// it the input is empty.
// The command runs in-process from the repository root. With WP_UPDATE_GOLDEN=1 the file is
// rewritten from the actual output (review the change with `git diff`).
#include "cli.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

std::vector<std::string> split_words(const std::string& line) {
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

// Valid enum declarations up to `bytes`, then an unclosed one: a large file with one late error.
void generate(const std::string& path, std::size_t bytes) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    std::size_t written = 0;
    for (std::size_t i = 0; written < bytes; ++i) {
        const std::string line = "enum generated_" + std::to_string(i) + " { Catholic, Protestant }\n";
        out << line;
        written += line.size();
    }
    out << "enum unfinished { Catholic,\n";
}

// A one-statement game: `let x = 0 + 0 + …;` (or `true and true and …`) with `operands` operands.
void generate_chain(const std::string& path, std::size_t operands, const std::string& op) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const std::string operand = op == "+" || op == "*" || op == "-" ? "0" : "true";
    out << "enum end_reason { done }\nstate { total: 0..1000 error = 0 }\nsequence game {\n  let x = " << operand;
    for (std::size_t i = 1; i < operands; ++i) out << (i % 16 == 0 ? "\n    " : " ") << op << ' ' << operand;
    out << ";\n  end game done;\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: wp_golden <file.expected>   (run from the repository root)\n";
        return 2;
    }
    const std::string path = argv[1];
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "cannot open " << path << '\n';
        return 2;
    }
    std::stringstream whole;
    whole << in.rdbuf();
    const std::string expected = whole.str();
    std::size_t command_start = 0;
    std::string input;
    while (expected.compare(command_start, 1, "#") == 0) {
        const std::size_t end = expected.find('\n', command_start);
        const auto directive = split_words(expected.substr(command_start, end - command_start));
        if (directive.size() == 4 && directive[1] == "generate") generate(directive[2], std::stoul(directive[3]));
        if (directive.size() == 5 && directive[1] == "chain") generate_chain(directive[2], std::stoul(directive[3]), directive[4]);
        if (directive.size() == 3 && directive[1] == "stdin") {
            std::ifstream typed(directive[2], std::ios::binary);
            if (!typed) {
                std::cerr << path << ": cannot open the standard input file " << directive[2] << '\n';
                return 2;
            }
            std::stringstream text;
            text << typed.rdbuf();
            input = text.str();
        }
        if (end == std::string::npos) break;
        command_start = end + 1;
    }
    const std::string preamble = expected.substr(0, command_start);
    const std::string command = expected.substr(command_start, expected.find('\n', command_start) - command_start);
    auto words = split_words(command);
    if (words.size() < 2 || words[0] != "$" || words[1] != "westphalia") {
        std::cerr << path << ": the first line after any `#` directive lines must be `$ westphalia <arguments>`\n";
        return 2;
    }
    const std::vector<std::string> args(words.begin() + 2, words.end());

    std::ostringstream out, err;
    std::istringstream typed(input);
    const int code = wp::cli::run(args, out, err, typed);
    const std::string actual = preamble +
        command + "\nexit: " + std::to_string(code) + "\n--- stdout\n" + out.str() +
        "--- stderr\n" + err.str();

    if (actual == expected) return 0;
    const char* update = std::getenv("WP_UPDATE_GOLDEN");
    if (update && std::string(update) == "1") {
        std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
        std::cerr << "updated " << path << '\n';
        return 0;
    }
    std::cerr << "golden mismatch: " << path << "\n--- expected\n" << expected << "\n--- actual\n" << actual << '\n';
    return 1;
}
