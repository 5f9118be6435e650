// `westphalia translate <ruleset> -o game.cpp`: the compiled engine — the ruleset translated
// into one C++ file that plays it (codegen/), for long simulations and the benchmark.
#include "cli.hpp"
#include "output_file.hpp"
#include "ruleset_input.hpp"

#include "westphalia/codegen/translate.hpp"
#include "westphalia/engine/engine.hpp"

#include <cctype>
#include <optional>

namespace wp::cli {

namespace {

// The span of an IR position in the source files the compiler read (none for an IR file).
std::optional<dsl::span> span_of(const ir::ruleset& rs, const dsl::source_manager& sources, const ir::source_pos& pos) {
    if (pos.file >= rs.files.size() || pos.line == 0) return std::nullopt;
    const std::string& name = rs.files[pos.file];
    for (std::uint32_t id = 0; id < sources.size(); ++id) {
        const dsl::source_file& f = sources.get(id);
        const bool same = f.path == name || (f.path.size() > name.size() && f.path.compare(f.path.size() - name.size(), name.size(), name) == 0 &&
                                             f.path[f.path.size() - name.size() - 1] == '/');
        if (!same || pos.line > f.line_starts.size()) continue;
        // columns count code points: step over the line's UTF-8 sequences
        std::uint32_t at = f.line_starts[pos.line - 1];
        for (std::uint32_t col = 1; col < pos.column && at < f.text.size() && f.text[at] != '\n'; ++col) {
            ++at;
            while (at < f.text.size() && (static_cast<unsigned char>(f.text[at]) & 0xC0) == 0x80) ++at;
        }
        return dsl::span{id, at, at + 1};
    }
    return std::nullopt;
}

}  // namespace

void report_untranslatable(context& ctx, const ir::ruleset& rs, const dsl::source_manager& sources, dsl::diagnostic_sink& sink,
                           const diagnostic_options& options, const codegen::unsupported& e) {
    if (const std::optional<dsl::span> at = span_of(rs, sources, e.where))
        sink.error(dsl::diag_kind::untranslatable, *at, e.what());
    else
        sink.error(dsl::diag_kind::untranslatable, e.what());
    report(ctx, sources, sink, options);
    ctx.exit_code = exit_bad_input;
}

void add_translate_command(CLI::App& app, context& ctx) {
    struct settings {
        ruleset_input input;
        std::string output;
        std::string name_space = "wp_compiled";
    };
    auto s = std::make_shared<settings>();
    CLI::App* command = app.add_subcommand(
        "translate", "Translate a ruleset into C++ that plays it (the compiled engine; --option values are fixed in it)");
    s->input.add_to(*command);
    command->add_option("-o,--output", s->output, "The C++ file to write (default or `-`: standard output)");
    command->add_option("--namespace", s->name_space, "The C++ namespace of the generated code");
    command->callback([s, &ctx] {
        const std::string& ns = s->name_space;
        bool identifier = !ns.empty() && !std::isdigit(static_cast<unsigned char>(ns[0]));
        for (char c : ns) identifier = identifier && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
        if (!identifier) {
            ctx.err << "westphalia: error: --namespace: `" << ns << "` is not a C++ identifier\n";
            ctx.exit_code = exit_bad_input;
            return;
        }
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = s->input.load(ctx, sources, sink);
        report(ctx, sources, sink, s->input.diagnostics, rs && (s->output.empty() || s->output == "-"));
        if (!rs) return;
        const std::vector<std::string> inputs = input_files({s->input.path}, sources);
        if (!check_output(ctx, "--output", s->output, inputs)) return;
        std::string code;
        try {
            codegen::translate_options options;
            options.name_space = ns;
            code = codegen::translate(*rs, options);
        } catch (const codegen::unsupported& e) {
            report_untranslatable(ctx, *rs, sources, sink, s->input.diagnostics, e);
            return;
        } catch (const engine::engine_error& e) {
            ctx.err << "westphalia: error: " << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        }
        if (s->output.empty()) ctx.out << code;
        else write_output(ctx, "--output", s->output, code, inputs);
    });
}

}  // namespace wp::cli
