// The `<ruleset>` argument: compile a folder or file, or read and validate an IR file.
#include "ruleset_input.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/ir/json.hpp"

namespace wp::cli {

void ruleset_input::add_to(CLI::App& command) {
    command.add_option("ruleset", path, "A ruleset folder, a single .wph file, or an IR file (.json)")->required();
    command.add_option("--option", options, "Choose an option's value: --option name=value (repeatable)");
    command.add_option("--upto", upto, "Compile the layers only up to and including this one (e.g. base)");
    add_with_option(command, with);
    diagnostics.add_to(command);
}

void add_with_option(CLI::App& command, std::vector<std::string>& with) {
    command.add_option("--with", with, "Apply these expansions: --with court,cards (in their declared order)")
        ->delimiter(',');
}

std::optional<ir::ruleset> ruleset_input::load(context& ctx, dsl::source_manager& sources,
                                               dsl::diagnostic_sink& sink) const {
    std::optional<ir::ruleset> result;
    const std::filesystem::path p(path);
    if (p.extension() == ".json") {
        if (!options.empty() || !upto.empty() || !with.empty()) {
            sink.error(dsl::diag_kind::unknown_option_value,
                       "--option, --upto and --with apply when compiling rule files, not when reading an IR file");
        } else if (const auto id = dsl::load_source(p, path, sources, sink)) {
            ir::read_error error;
            result = ir::from_json_text(sources.get(*id).text, error);
            if (!result) {
                const auto at = static_cast<std::uint32_t>(error.offset.value_or(0));
                sink.report({error.kind, dsl::severity::error, dsl::span{*id, at, at}, error.message, {}});
            }
        }
    } else {
        compiler::compile_options opts;
        for (const std::string& o : options) {
            const auto eq = o.find('=');
            if (eq == std::string::npos || eq == 0) {
                sink.error(dsl::diag_kind::unknown_option_value, "--option `" + o + "` must be written name=value");
                continue;
            }
            opts.options[o.substr(0, eq)] = o.substr(eq + 1);
        }
        if (!upto.empty()) opts.upto_layer = upto;
        opts.with = with;
        if (!sink.has_errors()) result = compiler::compile_ruleset(p, opts, sources, sink);
    }
    if (!result || sink.has_errors()) {
        result.reset();
        ctx.exit_code = exit_bad_input;
    }
    return result;
}

std::function<std::optional<ir::ruleset>(const std::string&)> upto_compiler(const ruleset_input& in) {
    if (std::filesystem::path(in.path).extension() == ".json") return {};
    return [in](const std::string& layer) -> std::optional<ir::ruleset> {
        compiler::compile_options o;
        for (const std::string& x : in.options)
            if (const auto eq = x.find('='); eq != std::string::npos) o.options[x.substr(0, eq)] = x.substr(eq + 1);
        o.upto_layer = layer;
        o.upto_keeps_options = true;
        o.with = in.with;
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        auto rs = compiler::compile_ruleset(in.path, o, sources, sink);
        if (sink.has_errors()) return std::nullopt;
        return rs;
    };
}

bool check_player_count(context& ctx, const ir::ruleset& rs, int players) {
    if (players >= rs.min_players && players <= rs.max_players) return true;
    ctx.err << "westphalia: error: " << rs.name << " is played by " << rs.min_players << " to " << rs.max_players
            << " players, not " << players << " (--players)\n";
    ctx.exit_code = exit_bad_input;
    return false;
}

}  // namespace wp::cli
