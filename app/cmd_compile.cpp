// `westphalia compile <ruleset>`: compile to the IR; print it (--emit-ir) or a one-line summary.
#include "cli.hpp"
#include "output_file.hpp"
#include "ruleset_input.hpp"

#include "westphalia/ir/json.hpp"
#include "westphalia/ir/print.hpp"

#include <sstream>

namespace wp::cli {

namespace {

std::string summary(const ir::ruleset& rs) {
    std::size_t copies = 0;
    for (const ir::entity& e : rs.entities) copies += static_cast<std::size_t>(e.count);
    std::size_t files = 0;
    for (const ir::layer& l : rs.layers) files += l.files.size();
    std::ostringstream s;
    s << rs.name << ": compiled " << rs.layers.size() << " layer" << (rs.layers.size() == 1 ? "" : "s") << " from "
      << files << " file" << (files == 1 ? "" : "s") << " — " << rs.rules.size() << " rules, " << rs.tables.size()
      << " tables, " << rs.rolls.size() << " rolls, " << rs.entities.size() << " kinds of card or piece (" << copies
      << " in all), " << rs.options.size() << " options";
    if (!rs.missing_data.empty()) s << ", " << rs.missing_data.size() << " missing data";
    if (!rs.standins.empty()) s << ", " << rs.standins.size() << " stand-ins";
    return s.str();
}

}  // namespace

void add_compile_command(CLI::App& app, context& ctx) {
    struct settings {
        ruleset_input input;
        std::string emit;
        std::string output;
    };
    auto s = std::make_shared<settings>();
    CLI::App* command = app.add_subcommand("compile", "Compile a ruleset to the IR (or check that it compiles)");
    s->input.add_to(*command);
    command->add_option("--emit-ir", s->emit, "Print the IR: json or text")->check(CLI::IsMember({"json", "text"}));
    command->add_option("-o,--output", s->output, "Write the IR to this file (`-`: standard output)");
    command->callback([s, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = s->input.load(ctx, sources, sink);
        const bool ir_on_stdout = !s->emit.empty() && (s->output.empty() || s->output == "-");
        report(ctx, sources, sink, s->input.diagnostics, rs && ir_on_stdout);
        if (!rs) return;
        if (s->emit.empty() && s->output.empty()) {
            if (s->input.diagnostics.parsed() != dsl::diag_format::json) ctx.out << summary(*rs) << '\n';
            return;
        }
        std::ostringstream text;
        if (s->emit == "text") {
            ir::print(text, *rs);
        } else {
            text << ir::to_json_text(*rs) << '\n';
        }
        if (s->output.empty()) ctx.out << text.str();
        else write_output(ctx, "--output", s->output, text.str(), input_files({s->input.path}, sources));
    });
}

}  // namespace wp::cli
