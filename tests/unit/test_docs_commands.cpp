// The commands the documentation shows: every `westphalia …` in README.md, docs/*.md and the
// errata walk-through (examples/errata-workflow/README.md, which a designer copies), in code
// blocks and in inline code. One that is runnable as written (its ruleset or file is in the
// repository, no placeholder) is run, with the bounds below made small, and must exit 0 or 1 —
// never 2 (an unknown flag, a bad value) or 70. Every flag of every command, template or not,
// must be one `westphalia <command> --help` lists.
#include "cli.hpp"
#include "source_dir.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <fstream>
#include <regex>
#include <sstream>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string source_dir = WP_SOURCE_DIR;

struct shown_command {
    std::string where;  // file:line
    std::string text;   // as the documentation shows it, after `westphalia `
};

// Everything after "westphalia " when `s` (trimmed) starts with it or with build/app/westphalia.
std::optional<std::string> command_of(std::string s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return std::nullopt;
    s = s.substr(first);
    if (s.rfind("$ ", 0) == 0) s = s.substr(2);
    for (const char* prefix : {"westphalia ", "build/app/westphalia "})
        if (s.rfind(prefix, 0) == 0) return s.substr(std::string(prefix).size());
    return std::nullopt;
}

std::vector<shown_command> shown_commands() {
    std::vector<fs::path> files = {fs::path(source_dir) / "README.md", fs::path(source_dir) / "examples/errata-workflow/README.md"};
    for (const auto& e : fs::directory_iterator(fs::path(source_dir) / "docs"))
        if (e.path().extension() == ".md") files.push_back(e.path());
    std::sort(files.begin() + 2, files.end());
    std::vector<shown_command> out;
    const std::regex inline_code("`([^`]+)`");
    for (const fs::path& file : files) {
        std::ifstream in(file);
        REQUIRE(in);
        const std::string name = fs::relative(file, source_dir).string();
        bool fenced = false;
        int n = 0;
        for (std::string line; std::getline(in, line);) {
            ++n;
            const std::string where = name + ":" + std::to_string(n);
            if (line.rfind("```", 0) == 0) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                // a trailing shell comment is not part of the command
                if (const auto hash = line.find("  #"); hash != std::string::npos) line.resize(hash);
                if (auto c = command_of(line)) out.push_back({where, *c});
                continue;
            }
            for (auto it = std::sregex_iterator(line.begin(), line.end(), inline_code); it != std::sregex_iterator(); ++it) {
                std::string code = (*it)[1].str();
                // `\|` in a Markdown table cell is a `|`
                for (std::size_t at = code.find("\\|"); at != std::string::npos; at = code.find("\\|", at)) code.replace(at, 2, "|");
                if (auto c = command_of(code)) out.push_back({where, *c});
            }
        }
    }
    return out;
}

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// A command is a template when it shows a placeholder: <ruleset>, [optional parts], a|b
// alternatives, …, or an upper-case name (FILE, N, scenario=S).
bool is_template(const std::vector<std::string>& w) {
    static const std::regex placeholder("(^|=)[A-Z][A-Z0-9_]*$");
    for (const std::string& t : w) {
        if (t.find_first_of("<>[]|") != std::string::npos || t.find("…") != std::string::npos || t == "..." ||
            std::regex_search(t, placeholder))
            return true;
    }
    // the first operand must be something in the repository (a ruleset folder, a rule file)
    return w.size() < 2 || w[1].rfind("-", 0) == 0 || !fs::exists(fs::path(source_dir) / w[1]);
}

// The flags a command shows: --name (also --name=value) and -x, each once.
std::vector<std::string> flags_of(const std::string& text) {
    static const std::regex flag(R"((^|[\s\[(|])(--?[A-Za-z][A-Za-z0-9-]*))");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), flag); it != std::sregex_iterator(); ++it)
        if (std::find(out.begin(), out.end(), (*it)[2].str()) == out.end()) out.push_back((*it)[2].str());
    return out;
}

// Bounds that keep the documented runs short: (flag, value shown) -> value used.
struct substitution {
    std::string flag, shown, used;
};
const std::vector<substitution> small_bounds = {
    {"-n", "*", "40"},           // simulated games
    {"--sim", "*", "20"},        // diff's random play
    {"--max-time", "*", "3"},    // the checker's whole budget
};
// Runnable commands left to their flag check, to keep this test near 60 s in CI: (text the
// command contains, why). Each is run elsewhere.
const std::vector<std::pair<std::string, std::string>> not_run = {
    {"check rulesets/spi-thirty-years-war", "its setup alone takes 16 s whatever --max-time says; golden check/spi runs the checker on SPI"},
    {"check rulesets/gmt-thirty-years-war", "its exploration alone takes 15 s whatever --max-time says; golden check/gmt runs the checker on GMT"},
    {"--compiled", "builds the ruleset's C++ (11 s); tests/compiled and the sim goldens cover it"},
    {"diff rulesets/spi-thirty-years-war", "compares every subject of two stacks of the 484-hex game (15 min); tests/unit/test_diff.cpp covers diff"},
    {"diff rulesets/gmt-thirty-years-war", "checks both stacks of GMT's game (4 min); tests/unit/test_diff.cpp covers diff"},
};
// Commands that take long however bounded are run with a budget added (the checker).
const std::vector<std::pair<std::string, std::vector<std::string>>> added_flags = {
    {"check", {"--max-time", "3"}},
};

std::string run_help(const std::string& command) {
    std::ostringstream out, err;
    std::vector<std::string> args;
    if (!command.empty()) args.push_back(command);
    args.push_back("--help");
    const int code = wp::cli::run(args, out, err);
    INFO(err.str());
    CHECK(code == 0);
    return out.str();
}

bool lists_flag(const std::string& help, const std::string& flag) {
    const std::regex listed("(^|[\\s,])" + std::regex_replace(flag, std::regex("-"), "\\-") + "([\\s,=]|$)");
    return std::regex_search(help, listed);
}

}  // namespace

TEST_CASE("docs: every westphalia command shown in README.md, docs/ and the errata example is accepted, and runs as documented", "[docs]") {
    const std::vector<shown_command> commands = shown_commands();
    REQUIRE(commands.size() > 30);
    const std::string top_help = run_help("");
    const fs::path scratch = fs::temp_directory_path() / ("wp-docs-commands-" + std::to_string(::getpid()));
    fs::create_directories(scratch);
    std::map<std::string, std::string> helps;
    int ran = 0, flags_checked = 0;
    // the matcher itself: a flag no command has is not found in a help text
    CHECK_FALSE(lists_flag(run_help("aid"), "--no-such-flag"));
    CHECK(lists_flag(run_help("aid"), "--dump"));
    CHECK(flags_of("aid <ruleset> [-o file.pdf] [--paper a4|letter] [--dump=layout|text]") ==
          std::vector<std::string>{"-o", "--paper", "--dump"});
    for (const shown_command& c : commands) {
        INFO(c.where << ": westphalia " << c.text);
        const std::vector<std::string> w = words(c.text);
        REQUIRE_FALSE(w.empty());
        const std::string sub = w[0];
        if (sub.rfind("-", 0) == 0) {
            CHECK(lists_flag(top_help, sub));
            continue;
        }
        // the subcommand exists
        REQUIRE(lists_flag(top_help, sub));
        if (!helps.count(sub)) helps[sub] = run_help(sub);
        // every flag shown is one the command takes (in the README's table `| diff <old> <new>`
        // is the command's second form: its flags are diff's too)
        for (const std::string& f : flags_of(c.text)) {
            INFO("flag " << f);
            CHECK(lists_flag(helps[sub], f));
            ++flags_checked;
        }
        if (std::getenv("WP_DOCS_VERBOSE") && is_template(w)) {
            std::cerr << c.where << ": template, flags";
            for (const std::string& f : flags_of(c.text)) std::cerr << ' ' << f;
            std::cerr << '\n';
        }
        if (is_template(w)) continue;
        if (std::any_of(not_run.begin(), not_run.end(), [&](const auto& n) { return c.text.find(n.first) != std::string::npos; })) continue;

        std::vector<std::string> args = w;
        for (std::size_t i = 0; i + 1 < args.size(); ++i) {
            for (const substitution& s : small_bounds)
                if (args[i] == s.flag && (s.shown == "*" || args[i + 1] == s.shown)) args[i + 1] = s.used;
            // an MCTS agent's playouts per decision (`--seat 1=mcts:500`: 151 s of this test's 230)
            if (args[i] == "--seat" || args[i] == "--agent")
                args[i + 1] = std::regex_replace(args[i + 1], std::regex("mcts:[0-9]+"), "mcts:10");
            // files the command writes go to the scratch folder
            if (args[i] == "-o" || args[i] == "--output" || args[i] == "--log" || args[i] == "--plot")
                args[i + 1] = (scratch / fs::path(args[i + 1]).filename()).string();
        }
        for (const auto& [command, extra] : added_flags)
            if (sub == command && std::find(args.begin(), args.end(), extra.front()) == args.end())
                args.insert(args.end(), extra.begin(), extra.end());
        std::string shown_args;
        for (const std::string& a : args) shown_args += " " + a;
        INFO("ran: westphalia" << shown_args);
        std::ostringstream out, err;
        std::istringstream no_input;
        // relative paths in the docs are from the repository root
        const fs::path here = fs::current_path();
        fs::current_path(source_dir);
        const auto started = std::chrono::steady_clock::now();
        const int code = wp::cli::run(args, out, err, no_input);
        fs::current_path(here);
        if (std::getenv("WP_DOCS_VERBOSE"))
            std::cerr << c.where << ": exit " << code << " in "
                      << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s: westphalia" << shown_args << '\n';
        INFO(err.str().substr(0, 2000));
        CHECK((code == 0 || code == 1));
        ++ran;
    }
    CHECK(ran >= 8);
    CHECK(flags_checked >= 60);
    fs::remove_all(scratch);
}
