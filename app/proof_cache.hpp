// `check --cache [DIR]`: the proofs of one check kept for the next, in DIR/<ruleset>.proofs
// (DIR by default `.westphalia-cache/` in the ruleset's folder, or beside a single rule file or IR
// file). The file is a header line and the SHA-256 keys of the queries found unsatisfiable, one
// per line (verify::check_options::proved_before). A file that is not one, or not of this version,
// is ignored with a warning and rewritten: a key is only ever trusted from a well-formed file.
#pragma once

#include "cli.hpp"

#include <memory>
#include <set>
#include <string>
#include <unordered_set>

namespace wp::cli {

// The cache file of ruleset `name` loaded from `ruleset_path` (with `dir` empty: the default).
std::string proof_cache_path(const std::string& dir, const std::string& ruleset_path, const std::string& name);

// The keys in the file; none (and a warning on ctx.err) when it is missing or not a cache.
std::shared_ptr<const std::unordered_set<std::string>> load_proof_cache(context& ctx, const std::string& path);

// Writes the keys (creating the folder); a failure is a warning: the check's report stands.
void save_proof_cache(context& ctx, const std::string& path, const std::set<std::string>& keys);

}  // namespace wp::cli
