// What several unit test files share: a ruleset folder written for one test, compiling a ruleset
// of the repository, engine options, and finding an action or a chance outcome when a game is
// played step by step.
#pragma once

#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/engine/engine.hpp"
#include "westphalia/ir/json.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace wp::test {

// The IR written as JSON and read back: the reader accepts it, and writing what it read gives the
// same JSON. Returns what it read.
inline ir::ruleset json_round_trip(const ir::ruleset& rs) {
    const nlohmann::json once = ir::to_json(rs);
    ir::read_error error;
    auto back = ir::from_json(once, error);
    INFO(error.message);
    REQUIRE(back);
    CHECK(ir::to_json(*back) == once);
    return std::move(*back);
}

// A ruleset folder in the temporary directory, with the files given (path -> text), removed at
// the end of the test.
class temp_ruleset {
public:
    explicit temp_ruleset(const std::map<std::string, std::string>& files) {
        static std::atomic<int> counter{0};
        root_ = std::filesystem::temp_directory_path() /
                ("wp-test-ruleset-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::remove_all(root_);
        std::filesystem::create_directories(root_);
        for (const auto& [path, text] : files) write(path, text);
    }
    ~temp_ruleset() {
        std::error_code ec;
        std::filesystem::remove_all(root_, ec);
    }
    temp_ruleset(const temp_ruleset&) = delete;
    temp_ruleset& operator=(const temp_ruleset&) = delete;
    void write(const std::string& path, const std::string& text) const {
        std::filesystem::create_directories((root_ / path).parent_path());
        std::ofstream out(root_ / path, std::ios::binary);
        out << text;
    }
    const std::filesystem::path& root() const { return root_; }

private:
    std::filesystem::path root_;
};

// A ruleset compiled by a test: the IR (none when it did not compile) and its diagnostics.
struct compiled_ruleset {
    std::optional<ir::ruleset> ir;
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    std::string rendered() const {
        std::ostringstream out;
        dsl::render(out, sources, sink.all(), dsl::diag_format::gnu);
        return out.str();
    }
    const dsl::diagnostic* first(dsl::diag_kind k) const {
        for (const dsl::diagnostic& d : sink.all())
            if (d.kind == k) return &d;
        return nullptr;
    }
    bool has(dsl::diag_kind k) const { return first(k) != nullptr; }
};

// Runs a shell command as given; returns its exit status and fills `out` with its standard
// output (and its standard error when the command says 2>&1).
inline int run_shell(const std::string& command, std::string& out) {
    out.clear();
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    const int status = ::pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Compiles the ruleset at `relative` (from the repository root) with the given options; the
// test fails if it does not compile.
inline ir::ruleset compile_repo_ruleset(const std::string& relative, const std::map<std::string, std::string>& options = {}) {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    compiler::compile_options opts;
    opts.options = options;
    auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/" + relative, opts, sources, sink);
    REQUIRE(rs.has_value());
    return *rs;
}

// Compiles one rule file of the given text (in a temp_ruleset, removed on return); the test
// fails if it does not compile.
inline ir::ruleset compile_rules_text(const std::string& text) {
    const temp_ruleset dir({{"rules.wph", text}});
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    compiler::compile_options opts;
    auto rs = compiler::compile_ruleset((dir.root() / "rules.wph").string(), opts, sources, sink);
    REQUIRE(rs.has_value());
    return *rs;
}

// Chance events stop the engine and wait for an outcome (a test picks it), rather than sampled.
inline engine::state_options explicit_chance() {
    engine::state_options o;
    o.sampled_chance = false;
    return o;
}

// Chance events are sampled by the engine itself.
inline engine::state_options sampled_chance() {
    engine::state_options o;
    o.sampled_chance = true;
    return o;
}

// The id of the legal action whose text is `text` (the test fails when there is none).
inline int action_with_text(const engine::state& s, const std::string& text) {
    for (const engine::action_info& a : s.legal_actions())
        if (a.text == text) return a.id;
    FAIL("no legal action `" << text << "`");
    return -1;
}

// The index of the chance outcome of value `value` (the test fails when there is none).
inline int outcome_with_value(const engine::state& s, std::int64_t value) {
    const auto outcomes = s.chance_outcomes();
    for (std::size_t i = 0; i < outcomes.size(); ++i)
        if (outcomes[i].value == value) return static_cast<int>(i);
    FAIL("no chance outcome " << value);
    return -1;
}

// The texts of the legal actions, in order.
inline std::vector<std::string> texts(const engine::state& s) {
    std::vector<std::string> out;
    for (const engine::action_info& a : s.legal_actions()) out.push_back(a.text);
    return out;
}

}  // namespace wp::test
