// Reading the `<ruleset>` argument shared by several commands: a ruleset folder, a single .wph
// file, or a compiled IR file (.json), with `--option`, `--upto` and `--with`.
#pragma once

#include "cli.hpp"

#include "westphalia/ir/ir.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wp::cli {

struct ruleset_input {
    std::string path;
    std::vector<std::string> options;  // name=value
    std::string upto;
    std::vector<std::string> with;  // expansions
    diagnostic_options diagnostics;

    // Adds the positional <ruleset>, --option, --upto and --with to a command.
    void add_to(CLI::App& command);
    // Compiles (or reads) the ruleset; reports diagnostics and sets ctx.exit_code on failure.
    std::optional<ir::ruleset> load(context& ctx, dsl::source_manager& sources, dsl::diagnostic_sink& sink) const;
};

// Compiles `in` again up to and including a layer, without reporting (for errata
// obligations and `westphalia diff`); empty for an IR file.
std::function<std::optional<ir::ruleset>(const std::string& layer)> upto_compiler(const ruleset_input& in);

// Adds `--with exp,…` (the expansions to apply) to a command that reads its ruleset otherwise.
void add_with_option(CLI::App& command, std::vector<std::string>& with);

// False, with an explanation and exit code 2, when `players` is outside the ruleset's range.
bool check_player_count(context& ctx, const ir::ruleset& rs, int players);

}  // namespace wp::cli
