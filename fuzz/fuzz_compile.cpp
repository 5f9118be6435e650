// fuzz_compile: rule text -> the IR through compiler::compile_ruleset, the code `westphalia
// compile <ruleset>` runs, with every pass and every diagnostic path (manifest, outline,
// layers, errata, options, --upto, names, types, lowering).
//
// An input is one rule file, compiled as a single-file ruleset, or a whole ruleset folder
// written as a bundle (scripts/fuzz-corpus.sh makes these from the repository's rulesets):
//
//   //@ option NAME=VALUE    (any number, before the first file: --option NAME=VALUE)
//   //@ upto LAYER           (before the first file: --upto LAYER)
//   //@ file ruleset.wph     (each file starts with its path inside the folder)
//   ruleset … ;
//   //@ file base/rules.wph
//   …
//
// The lines are comments in the rule language, so a bundle whose markers the fuzzer breaks is
// still a rule file. Files are written to a private folder under $TMPDIR, rewritten per input.
// Promises checked besides "no crash, no leak, no undefined behaviour": an IR exactly when
// there is no error (never a silent failure), spans inside their files, no internal error,
// and an IR that `compile --emit-ir=json` would write and `compile x.json` read back unchanged.
#include "fuzz_check.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/ir/json.hpp"
#include "westphalia/ir/print.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct bundle {
    std::vector<std::pair<std::string, std::string>> options;
    std::string upto;
    bool has_upto = false;
    std::vector<std::pair<std::string, std::string>> files;  // path inside the folder, text
};

// A relative path of plain components: letters, digits, `_`, `-`, `.`; no `.` or `..`.
bool safe_path(std::string_view p) {
    if (p.empty() || p.size() > 120) return false;
    std::size_t depth = 0;
    std::size_t at = 0;
    while (at <= p.size()) {
        const std::size_t slash = std::min(p.find('/', at), p.size());
        const std::string_view part = p.substr(at, slash - at);
        if (part.empty() || part == "." || part == ".." || ++depth > 4) return false;
        for (const char c : part)
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                  c == '.'))
                return false;
        at = slash + 1;
    }
    return true;
}

// False when a marker names an unusable path (the input is then not worth keeping).
bool split(std::string_view text, bundle& out) {
    std::size_t at = 0;
    std::string* current = nullptr;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        end = end == std::string_view::npos ? text.size() : end + 1;
        const std::string_view line = text.substr(at, end - at);
        at = end;
        std::string_view body = line;
        while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) body.remove_suffix(1);
        if (body.rfind("//@ file ", 0) == 0) {
            const std::string_view path = body.substr(9);
            if (!safe_path(path) || out.files.size() >= 64) return false;
            out.files.emplace_back(std::string(path), std::string());
            current = &out.files.back().second;
            continue;
        }
        if (!current && body.rfind("//@ option ", 0) == 0) {
            const std::string_view o = body.substr(11);
            const std::size_t eq = o.find('=');
            if (eq == std::string_view::npos) return false;
            out.options.emplace_back(std::string(o.substr(0, eq)), std::string(o.substr(eq + 1)));
            continue;
        }
        if (!current && body.rfind("//@ upto ", 0) == 0) {
            out.upto = std::string(body.substr(9));
            out.has_upto = true;
            continue;
        }
        if (current) current->append(line);
    }
    if (out.files.empty()) out.files.emplace_back("", std::string(text));  // one rule file
    return true;
}

const fs::path& work_folder() {
    static const fs::path folder = [] {
        const char* tmp = std::getenv("TMPDIR");
        fs::path f = fs::path(tmp && *tmp ? tmp : "/tmp") / ("wp-fuzz-compile-" + std::to_string(::getpid()));
        fs::create_directories(f);
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(work_folder(), ec);
        });
        return f;
    }();
    return folder;
}

// Skips a file whose path collides with another's (`a` and `a/b`): that folder is not writable.
void write_file(const fs::path& p, const std::string& text) {
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    if (ec || fs::is_directory(p, ec)) return;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace wp;
    bundle b;
    if (!split(std::string_view(reinterpret_cast<const char*>(data), size), b)) return -1;

    const fs::path folder = work_folder() / "ruleset";
    std::error_code ec;
    fs::remove_all(folder, ec);
    fs::create_directories(folder);
    fs::path target = folder;
    if (b.files.size() == 1 && b.files[0].first.empty()) {
        target = folder / "fuzz.wph";
        write_file(target, b.files[0].second);
    } else {
        for (const auto& [path, text] : b.files) write_file(folder / path, text);
    }

    compiler::compile_options options;
    for (const auto& [k, v] : b.options) options.options[k] = v;
    if (b.has_upto) options.upto_layer = b.upto;

    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    const auto rs = compiler::compile_ruleset(target, options, sources, sink);
    fuzz::check_diagnostics(sources, sink);
    fuzz::require(rs.has_value() != sink.has_errors(),
                  rs ? "an IR despite errors" : "no IR and no error: the command would fail without saying why");
    if (!rs) return 0;

    // `compile --emit-ir=text`, `--emit-ir=json`, and `compile x.json` on what it wrote.
    std::ostringstream text;
    ir::print(text, *rs);
    const std::string json = ir::to_json_text(*rs);
    ir::read_error error;
    const auto back = ir::from_json_text(json, error);
    fuzz::require(back.has_value(), "the compiled IR does not read back: " + error.message);
    fuzz::require(ir::to_json_text(*back) == json, "the compiled IR reads back different");
    return 0;
}
