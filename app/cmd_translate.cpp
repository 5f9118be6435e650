// `westphalia translate <ruleset> -o game.cpp`: the compiled engine — the ruleset translated
// into one C++ file that plays it (codegen/), for long simulations and the benchmark.
#include "cli.hpp"
#include "ruleset_input.hpp"

#include "westphalia/codegen/translate.hpp"
#include "westphalia/engine/engine.hpp"

#include <cctype>

namespace wp::cli {

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
    command->add_option("-o,--output", s->output, "The C++ file to write (default: standard output)");
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
        report(ctx, sources, sink, s->input.diagnostics);
        if (!rs) return;
        std::string code;
        try {
            codegen::translate_options options;
            options.name_space = ns;
            code = codegen::translate(*rs, options);
        } catch (const codegen::unsupported& e) {
            ctx.err << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        } catch (const engine::engine_error& e) {
            ctx.err << "westphalia: error: " << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        }
        if (s->output.empty()) {
            ctx.out << code;
        } else if (!write_file_atomically(ctx, s->output, code)) {
            ctx.exit_code = exit_bad_input;
        }
    });
}

}  // namespace wp::cli
