// compile_ruleset(): the passes in order — load → outline → patch → resolve → typecheck → lower.
#include "westphalia/compiler/compile.hpp"

#include "westphalia/compiler/passes.hpp"

namespace wp::compiler {

std::optional<ir::ruleset> compile_ruleset(const std::filesystem::path& folder, const compile_options& options,
                                           dsl::source_manager& sources, dsl::diagnostic_sink& sink) {
    const loaded_ruleset loaded = load(folder, options.upto_layer, sources, sink, options.upto_keeps_options, options.with);
    if (!loaded.manifest) return std::nullopt;
    outline_index outline;
    if (loaded.outline) outline.build(*loaded.outline, sink);
    check_anchors(loaded, outline, sink);
    // A file that could not be read or parsed leaves its names undeclared: checking the other
    // files' bodies would only report those names as unknown, so stop after the structural passes.
    bool all_parsed = loaded.outline.has_value() || loaded.single_file;
    for (const loaded_file& f : loaded.files) all_parsed = all_parsed && f.tree.has_value();
    if (loaded.unreadable > 0) all_parsed = false;
    patched_ruleset patched = patch(loaded, sink);
    if (!all_parsed) return std::nullopt;
    plan_card_events(patched, sink);
    return lower_ruleset(loaded, outline, patched, options, sources, sink);
}

}  // namespace wp::compiler
