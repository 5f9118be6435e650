#include "proof_cache.hpp"
#include "output_file.hpp"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace wp::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* header = "westphalia proof cache 1";

bool is_key(const std::string& line) {
    if (line.size() != 64) return false;
    for (char c : line)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    return true;
}

void warn(context& ctx, const std::string& what) { ctx.err << "westphalia: warning: " << what << '\n'; }

}  // namespace

std::string proof_cache_path(const std::string& dir, const std::string& ruleset_path, const std::string& name) {
    fs::path folder = dir;
    if (folder.empty()) {
        std::error_code ec;
        const fs::path p(ruleset_path);
        folder = (fs::is_directory(p, ec) ? p : p.parent_path()) / ".westphalia-cache";
    }
    return (folder / (name + ".proofs")).string();
}

std::shared_ptr<const std::unordered_set<std::string>> load_proof_cache(context& ctx, const std::string& path) {
    auto keys = std::make_shared<std::unordered_set<std::string>>();
    std::error_code ec;
    if (!fs::exists(path, ec)) return keys;  // a first run: nothing to say
    if (!fs::is_regular_file(path, ec)) {
        warn(ctx, path + ": not a file; the proof cache is not used");
        return keys;
    }
    std::ifstream in(path, std::ios::binary);
    std::string line;
    if (!std::getline(in, line) || line != header) {
        warn(ctx, path + ": not a proof cache of this version of westphalia; ignored, and rewritten after this check");
        return keys;
    }
    for (std::size_t n = 2; std::getline(in, line); ++n) {
        if (!is_key(line)) {
            warn(ctx, path + ":" + std::to_string(n) + ": not a proof's key; the cache is ignored, and rewritten after this check");
            keys->clear();
            return keys;
        }
        keys->insert(line);
    }
    if (in.bad()) {
        warn(ctx, path + ": cannot be read; the proof cache is not used");
        keys->clear();
    }
    return keys;
}

void save_proof_cache(context& ctx, const std::string& path, const std::set<std::string>& keys) {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    std::string text = std::string(header) + '\n';
    for (const std::string& k : keys) text += k + '\n';
    if (const auto why = write_file(path, text)) warn(ctx, "the proof cache " + path + " was not written: " + *why);
}

}  // namespace wp::cli
