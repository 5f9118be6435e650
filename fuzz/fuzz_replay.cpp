// fuzz_replay: a JSON-lines game log -> a checked replay, the code `westphalia replay` runs:
// engine::read_log_header, the ruleset the header names compiled with the header's options and
// `upto`, engine::replay_log with a trace (the account `replay` prints), the final players'
// fields (its summary) and the `--check` comparison of the re-logged game with the input.
//
// The header's ruleset path is not followed (an input must not pick files to read): the
// header's ruleset name picks one of the rulesets below, the ones scripts/fuzz-corpus.sh plays
// to make the seed logs; an unknown name falls back to the first.
// Promises checked besides "no crash, no leak, no undefined behaviour": a refused log names a
// line inside the log (or the line just past its end, for a missing footer), a message and a
// `log-…` kind.
#include "fuzz_check.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/log.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace wp;

// Relative to the source tree.
const std::vector<std::string> ruleset_paths = {
    "rulesets/contractor-cards",
    "tests/rulesets/play-hex/game.wph",
    "tests/rulesets/engine-odds/odds.wph",
    "tests/rulesets/engine-statements/game.wph",
    "tests/rulesets/engine-errors/overflow.wph",
};

std::string source_path(const std::string& relative) { return std::string(WP_SOURCE_DIR) + "/" + relative; }

// The ruleset's name (as a log header gives it) -> its path.
const std::map<std::string, std::string>& names() {
    static const std::map<std::string, std::string> by_name = [] {
        std::map<std::string, std::string> m;
        for (const std::string& p : ruleset_paths) {
            dsl::source_manager sources;
            dsl::diagnostic_sink sink;
            const auto rs = compiler::compile_ruleset(source_path(p), {}, sources, sink);
            wp::fuzz::require(rs.has_value(), "cannot compile " + p + " (is WP_SOURCE_DIR right?)");
            m.emplace(rs->name, p);
        }
        return m;
    }();
    return by_name;
}

// Compiled rulesets by (path, options, upto), as `replay` would compile them from the header.
const std::optional<ir::ruleset>& compiled(const std::string& path, const std::map<std::string, std::string>& options,
                                           const std::string& upto) {
    using key = std::tuple<std::string, std::map<std::string, std::string>, std::string>;
    static std::map<key, std::optional<ir::ruleset>> cache;
    key k{path, options, upto};
    if (const auto it = cache.find(k); it != cache.end()) return it->second;
    if (cache.size() >= 64) cache.clear();  // bounded: the fuzzer invents options without end
    compiler::compile_options o;
    o.options = options;
    if (!upto.empty()) o.upto_layer = upto;
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    auto rs = compiler::compile_ruleset(source_path(path), o, sources, sink);
    if (sink.has_errors()) rs.reset();
    return cache.emplace(std::move(k), std::move(rs)).first->second;
}

void check_error(const engine::log_error& e, std::size_t lines) {
    wp::fuzz::require(e.line >= 1 && e.line <= lines + 1,
                      "a log error at line " + std::to_string(e.line) + " of " + std::to_string(lines) + ": " + e.message);
    wp::fuzz::require(!e.message.empty(), "a log error without a message");
    wp::fuzz::require(e.kind.rfind("log-", 0) == 0, "a log error of kind `" + e.kind + "`: " + e.message);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    names();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) +
                              (text.empty() || text.back() == '\n' ? 0 : 1);
    engine::log_error error;
    const auto header = engine::read_log_header(text, error);
    if (!header) {
        check_error(error, std::max<std::size_t>(lines, 1));
        return 0;
    }
    const auto named = names().find(header->ruleset_name);
    const std::string& path = named != names().end() ? named->second : ruleset_paths.front();
    const std::optional<ir::ruleset>& rs = compiled(path, header->options, header->upto);
    if (!rs) return 0;  // `replay` reports the ruleset's diagnostics and "cannot load the ruleset"

    std::size_t traced = 0;
    const std::function<void(const std::string&)> trace = [&traced](const std::string& line) { traced += line.size(); };
    const engine::replay_result r = engine::replay_log(text, *rs, *header, &trace);
    if (r.error) {
        check_error(*r.error, lines);
        return 0;
    }
    if (r.result.final_state)
        for (int p = 0; p < r.result.final_state->the_game().players(); ++p)
            (void)engine::player_fields(*r.result.final_state, p);
    // `--check`: the line from which re-logging differs (a log written by hand may differ in
    // spacing or key order and still replay).
    if (r.relog != text) {
        std::size_t line = 1;
        for (std::size_t i = 0; i < text.size() && i < r.relog.size() && text[i] == r.relog[i]; ++i) line += text[i] == '\n';
        check_error({line, "re-logging the replay gives a different log from this line on", "log-check"}, lines);
    }
    return 0;
}
