// A report command's ruleset that does not compile, in the report's format.
#include "compile_failure.hpp"
#include "westphalia/dsl/json_text.hpp"
#include "output_file.hpp"

#include "westphalia/dsl/parser.hpp"
#include "westphalia/dsl/sarif.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace wp::cli {

std::string ruleset_name(const std::string& path, const dsl::source_manager& sources) {
    std::filesystem::path p = std::filesystem::path(path).lexically_normal();
    if (std::error_code ec; std::filesystem::is_directory(p, ec)) {
        // a folder's first source is its manifest, when it could be read
        dsl::diagnostic_sink quiet;
        if (sources.size() > 0 && std::filesystem::path(sources.get(0).path).filename() == "ruleset.wph")
            if (const auto tree = dsl::parse(sources, 0, quiet))
                for (const dsl::decl& d : tree->decls)
                    if (const auto* r = std::get_if<dsl::ruleset_decl>(&d.node)) return r->id.text;
        if (p.filename().empty()) p = p.parent_path();
        return p.filename().string();
    }
    return p.stem().string();
}

void report_not_compiled(context& ctx, const report_target& target, const std::vector<std::string>& rulesets,
                         const dsl::source_manager& sources, const dsl::diagnostic_sink& sink) {
    const bool to_file = !target.output.empty() && !is_standard_output(target.output);
    if (target.format == "human" || to_file)
        dsl::render(ctx.err, sources, sink.all(), dsl::diag_format::human, target.max_errors, ctx.colored(ctx.err));
    if (target.format != "human") {
        std::ostringstream doc;
        if (target.format == "sarif") {
            const std::string name = rulesets.empty() ? std::string("ruleset") : ruleset_name(rulesets.front(), sources);
            doc << dsl::json_text(dsl::diagnostics_sarif(sources, sink.all(), target.tool + "/" + name, target.max_errors), 2) << '\n';
        } else {
            dsl::render(doc, sources, sink.all(), dsl::diag_format::json, target.max_errors);
        }
        if (target.output.empty()) ctx.out << doc.str();
        else write_output(ctx, "--output", target.output, doc.str(), input_files(rulesets, sources));
    }
    ctx.exit_code = exit_bad_input;
}

}  // namespace wp::cli
