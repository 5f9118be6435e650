// fuzz_ir_json: an IR file's text -> a validated ir::ruleset through ir::from_json_text, the
// code `westphalia compile x.json` (and every command given a .json ruleset) uses to read and
// validate an IR file, then what `compile x.json` prints from it: the summary's counts, the
// text form (--emit-ir=text) and the JSON form (--emit-ir=json).
// Promises checked besides "no crash, no leak, no undefined behaviour": a JSON syntax error's
// offset lies inside the text; an IR the reader accepts is written back as JSON that it reads
// again, and that second reading writes the same JSON.
#include "fuzz_check.hpp"

#include "westphalia/ir/json.hpp"
#include "westphalia/ir/print.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace wp;
    // Read as `compile x.json` reads it: from the source the file became (a leading BOM
    // dropped), so that an error's offset and the diagnostic's span count the same bytes.
    dsl::source_manager sources;
    const std::uint32_t id = sources.add("fuzz.ir.json", std::string(reinterpret_cast<const char*>(data), size));
    const std::string_view text = sources.get(id).text;
    ir::read_error error;
    const auto rs = ir::from_json_text(text, error);
    if (!rs) {
        // reported as ruleset_input::load reports it: at the error's offset in the file
        fuzz::require(!error.message.empty(), "an IR file refused without a reason");
        fuzz::require(!error.offset || *error.offset <= text.size(),
                      "a JSON error at byte " + std::to_string(*error.offset) + " of " + std::to_string(text.size()));
        dsl::diagnostic_sink sink;
        const auto at = static_cast<std::uint32_t>(error.offset.value_or(0));
        sink.report({error.kind, dsl::severity::error, dsl::span{id, at, at}, error.message, {}});
        fuzz::check_diagnostics(sources, sink);
        return 0;
    }
    std::size_t copies = 0;  // as the summary counts them
    for (const ir::entity& e : rs->entities) copies += static_cast<std::size_t>(e.count);
    (void)copies;
    std::ostringstream printed;
    ir::print(printed, *rs);
    const std::string json = ir::to_json_text(*rs);
    const auto again = ir::from_json_text(json, error);
    fuzz::require(again.has_value(), "an IR the reader accepted is written back as one it refuses: " + error.message);
    fuzz::require(ir::to_json_text(*again) == json, "an IR read back from its own JSON writes different JSON");
    return 0;
}
