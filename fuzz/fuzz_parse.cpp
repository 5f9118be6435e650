// fuzz_parse: one rule file's text -> the syntax tree (dsl::parse, what `westphalia parse` and
// every file of a ruleset go through), then the tree's dump (`westphalia parse`'s output) and
// the diagnostics rendered in every format.
// Promises checked besides "no crash, no leak, no undefined behaviour": a tree exactly when
// there is no error, exactly one diagnostic when there is none (the parser reports the first
// syntax error only), spans inside the file, no internal error.
#include "fuzz_check.hpp"

#include "westphalia/dsl/ast_dump.hpp"
#include "westphalia/dsl/parser.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace wp;
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    const std::uint32_t id = sources.add("fuzz.wph", std::string(reinterpret_cast<const char*>(data), size));
    const auto tree = dsl::parse(sources, id, sink);
    if (tree) {
        fuzz::require(!sink.has_errors(), "a syntax tree and an error");
        std::ostringstream out;
        dsl::dump(out, *tree, sources);
    } else {
        fuzz::require(sink.error_count() == 1,
                      "a failed parse reported " + std::to_string(sink.error_count()) + " errors, not one");
    }
    fuzz::check_diagnostics(sources, sink);
    return 0;
}
