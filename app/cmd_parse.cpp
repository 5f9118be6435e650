// `westphalia parse <files>`: parse rule files and print their syntax trees.
#include "cli.hpp"

#include "westphalia/dsl/ast_dump.hpp"
#include "westphalia/dsl/parser.hpp"

namespace wp::cli {

void add_parse_command(CLI::App& app, context& ctx) {
    struct settings {
        std::vector<std::string> files;
        bool quiet = false;
        diagnostic_options diagnostics;
    };
    auto s = std::make_shared<settings>();
    CLI::App* command = app.add_subcommand("parse", "Parse rule files and print their syntax trees");
    command->add_option("files", s->files, "Rule files (.wph)")->required();
    command->add_flag("-q,--quiet", s->quiet, "Only report errors; print no tree (as with --format=json)");
    s->diagnostics.add_to(*command);
    command->callback([s, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        for (const std::string& path : s->files) {
            const auto id = dsl::load_source(path, path, sources, sink);
            if (!id) continue;
            const auto tree = dsl::parse(sources, *id, sink);
            if (tree && !s->quiet && s->diagnostics.parsed() != dsl::diag_format::json) dsl::dump(ctx.out, *tree, sources);
        }
        report(ctx, sources, sink, s->diagnostics);
        ctx.exit_code = sink.has_errors() ? exit_bad_input : exit_clean;
    });
}

}  // namespace wp::cli
