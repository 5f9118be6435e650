// The compiled engine's simulation (compiled_sim.hpp): translate, build, run, read back.
#include "westphalia/codegen/compiled_sim.hpp"

#include "driver.hpp"

#include "westphalia/codegen/translate.hpp"

#include <nettle/sha2.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace wp::codegen {

namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

// A folder of its own under the temporary directory, removed with everything in it.
class scratch_folder {
public:
    scratch_folder() {
        std::string pattern = (fs::temp_directory_path() / "westphalia-sim-XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw build_error("cannot make a temporary folder under " + fs::temp_directory_path().string());
        path_ = pattern;
    }
    ~scratch_folder() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    scratch_folder(const scratch_folder&) = delete;
    scratch_folder& operator=(const scratch_folder&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

void write(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out.flush()) throw build_error("cannot write " + p.string());
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Runs a program (no shell) with its standard output and error in `log`; returns its exit
// status, -1 when it could not start or was stopped by a signal.
int run(const std::vector<std::string>& args, const fs::path& log) {
    const pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        if (!freopen(log.c_str(), "w", stdout) || !freopen(log.c_str(), "a", stderr)) _exit(126);
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The first `lines` lines of text, "..." after them when there are more.
std::string first_lines(const std::string& text, std::size_t lines) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < lines; ++i) {
        at = text.find('\n', at);
        if (at == std::string::npos || at + 1 == text.size()) return text;
        ++at;
    }
    return text.substr(0, at) + "...";
}

std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::size_t from = 0;
    for (std::size_t at = line.find(sep); at != std::string::npos; at = line.find(sep, from)) {
        out.push_back(line.substr(from, at - from));
        from = at + 1;
    }
    out.push_back(line.substr(from));
    return out;
}

// The cache's name for a build: the SHA-256 of everything that decides the program.
std::string build_key(const std::vector<std::string>& parts) {
    sha256_ctx sha;
    sha256_init(&sha);
    for (const std::string& p : parts) {
        const std::string size = std::to_string(p.size()) + ':';  // so that no two lists hash alike
        sha256_update(&sha, size.size(), reinterpret_cast<const std::uint8_t*>(size.data()));
        sha256_update(&sha, p.size(), reinterpret_cast<const std::uint8_t*>(p.data()));
    }
    std::uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(&sha, sizeof d, d);
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (std::uint8_t b : d) {
        out += hex[b >> 4];
        out += hex[b & 15];
    }
    return out;
}

// Keeps a built program in the cache: copied beside its place, then renamed there, so that a
// reader never finds half a program. A cache that cannot be written is no error: the next run
// builds again.
void keep(const fs::path& program, const fs::path& cache, const std::string& key) {
    std::error_code ec;
    fs::create_directories(cache, ec);
    const fs::path tmp = cache / ("." + key + ".tmp" + std::to_string(getpid()));
    if (ec || !fs::copy_file(program, tmp, fs::copy_options::overwrite_existing, ec) || ec) {
        fs::remove(tmp, ec);
        return;
    }
    fs::permissions(tmp, fs::perms::owner_all, fs::perm_options::replace, ec);
    fs::rename(tmp, cache / key, ec);
    if (ec) fs::remove(tmp, ec);
}

}  // namespace

std::string default_build_cache() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/') return (fs::path(xdg) / "westphalia" / "compiled").string();
    const char* home = std::getenv("HOME");
    if (home && *home == '/') return (fs::path(home) / ".cache" / "westphalia" / "compiled").string();
    return {};
}

engine::sim_report simulate_compiled(const ir::ruleset& rs, const engine::sim_options& o, const compiled_sim_options& build,
                                     compiled_sim_timing* timing) {
    if (!o.options.empty()) throw build_error("the compiled engine takes its options from the IR (compile with --option)");
    bool seats_differ = false;
    for (const std::string& a : o.seat_agents) seats_differ = seats_differ || (!a.empty() && a != o.agent);
    if ((o.agent != "random" && o.agent != "first") || seats_differ)
        throw build_error("the compiled engine plays random or first agents only, the same at every seat "
                          "(play the others without --compiled)");
    compiled_sim_timing t;
    auto t0 = clock_type::now();
    translate_options to;
    to.name_space = "wp_sim_game";
    const std::string game = translate(rs, to);
    t.translate_seconds = seconds_since(t0);

    scratch_folder folder;
    const fs::path dir = folder.path();
    const std::string main_source = "#define WP_NAMESPACE wp_sim_game\n#define WP_COUNT_FIRES 1\n" + std::string(driver_source);
    write(dir / "game.cpp", game);
    write(dir / "main.cpp", main_source);
    std::string compiler = build.compiler;
    if (compiler.empty()) {
        const char* cxx = std::getenv("CXX");
        compiler = cxx && *cxx ? cxx : "c++";
    }
    const std::vector<std::string> command{compiler, "-std=c++20", "-O2", "-pthread"};
    std::string key;  // the build cache's name for this game (empty: no cache)
    // Builds the game into the scratch folder (and keeps it in the cache when there is a key).
    auto build_game = [&] {
        std::vector<std::string> args = command;
        for (const std::string& a : {std::string("-o"), (dir / "sim").string(), (dir / "main.cpp").string()}) args.push_back(a);
        const int built = run(args, dir / "build.log");
        if (built != 0)
            throw build_error("the C++ compiler `" + compiler + "` could not build the compiled game" +
                              (built == 127 ? " (it was not found; set CXX to a C++20 compiler)" : "") + ":\n" +
                              first_lines(read(dir / "build.log"), 20));
        if (!key.empty()) keep(dir / "sim", build.cache_dir, key);
    };
    // The cache's key: the compiler as named and as it describes itself, the flags and the sources.
    fs::path program = dir / "sim";
    if (!build.cache_dir.empty() && run({compiler, "--version"}, dir / "version.log") == 0) {
        std::vector<std::string> parts = command;
        parts.push_back(read(dir / "version.log"));
        parts.push_back(main_source);
        parts.push_back(game);
        key = build_key(parts);
        std::error_code ec;
        const fs::path kept = fs::path(build.cache_dir) / key;
        if (fs::is_regular_file(kept, ec)) {
            program = kept;
            t.cached = true;
        }
    }
    t0 = clock_type::now();
    if (!t.cached) build_game();
    t.build_seconds = seconds_since(t0);

    t0 = clock_type::now();
    const unsigned threads = o.threads == 0 ? 1 : o.threads;
    const fs::path results = dir / "games.tsv";
    auto play = [&] {
        return run({program.string(), std::to_string(o.games), std::to_string(o.players), std::to_string(o.seed),
                    std::to_string(o.max_decisions), std::to_string(threads), o.check_invariants ? "1" : "0",
                    o.agent == "first" ? "1" : "0", results.string()},
                   dir / "run.log");
    };
    int ran = play();
    if (ran != 0 && t.cached) {
        // A kept program that does not run (damaged, or built for another machine): built again.
        std::error_code ec;
        fs::remove(program, ec);
        program = dir / "sim";
        t.cached = false;
        build_game();
        ran = play();
    }
    t.play_seconds = seconds_since(t0);
    if (ran != 0) throw build_error("the compiled game stopped with status " + std::to_string(ran) + ":\n" + first_lines(read(dir / "run.log"), 20));

    // A fault's node, as the interpreter names it: the element of the fault's kind at the
    // error's position (an assignment's target starts where the assignment does).
    std::map<std::pair<std::string, std::string>, ir::id> fault_nodes;
    {
        const engine::game g(rs, std::max(1, o.players));
        for (ir::id n = 0; n < rs.nodes.size(); ++n) {
            const char* kind = nullptr;
            switch (rs.nodes[n].code) {
                case ir::op::lookup:
                case ir::op::resolve: kind = "table-gap"; break;
                case ir::op::decide: kind = "decide"; break;
                case ir::op::assign:
                case ir::op::add_assign:
                case ir::op::sub_assign: kind = "bound-violation"; break;
                case ir::op::choose_one:
                case ir::op::choose_subset:
                case ir::op::choose_order: kind = "stuck-state"; break;
                case ir::op::do_action:
                case ir::op::move: kind = "unmet-obligation"; break;
                default: break;
            }
            if (kind) fault_nodes.try_emplace({kind, g.position(n)}, n);
        }
    }
    auto fault_of = [&](const std::string& text, const std::string& error) {
        const std::vector<std::string> parts = split(text, '|');
        engine::engine_fault fault;
        if (parts.size() != 3) throw build_error("the compiled game wrote a fault that is not one: " + text);
        fault.kind = parts[0];
        fault.subject = parts[1];
        fault.side = parts[2];
        const std::string kind = fault.kind == "gap" || fault.kind == "contradiction" ? "decide" : fault.kind;
        // the position: the error up to its first ": " after the column (file names hold no ": ")
        const std::size_t colon = error.find(": ");
        if (colon != std::string::npos)
            if (auto it = fault_nodes.find({kind, error.substr(0, colon)}); it != fault_nodes.end()) fault.node = it->second;
        return fault;
    };
    std::vector<engine::sim_game> games;
    games.reserve(o.games);
    std::istringstream in(read(results));
    std::vector<std::string> rule_counts;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("#rules", 0) == 0) {
            rule_counts = split(line, '\t');
            continue;
        }
        const std::vector<std::string> f = split(line, '\t');
        if (f.size() != 7) throw build_error("the compiled game wrote a line that is not a game: " + line);
        engine::sim_game g;
        g.decisions = std::strtoull(f[0].c_str(), nullptr, 10);
        const unsigned long winners = std::strtoul(f[1].c_str(), nullptr, 10);
        for (int p = 0; p < 32; ++p)
            if (winners & (1ul << p)) g.winners.push_back(p);
        g.end_reason = f[2];
        g.error = f[3];
        if (!f[4].empty()) g.violations = split(f[4], '|');
        if (!f[5].empty())
            for (const std::string& h : split(f[5], '|')) {
                const std::size_t at = h.find('@');
                if (at == std::string::npos) throw build_error("the compiled game wrote a query that is not one: " + h);
                g.query_hits.emplace_back(static_cast<std::uint32_t>(std::strtoul(h.c_str(), nullptr, 10)),
                                          std::strtoull(h.c_str() + at + 1, nullptr, 10));
            }
        if (!f[6].empty()) g.fault = fault_of(f[6], g.error);
        games.push_back(std::move(g));
    }
    if (games.size() != o.games)
        throw build_error("the compiled game reported " + std::to_string(games.size()) + " games of " + std::to_string(o.games));
    if (timing) *timing = t;
    engine::sim_report r = engine::summarise(rs, o, games);
    // the rules' firings, as engine::simulate lists them (invariants and examples left out)
    if (rule_counts.size() < rs.rules.size() + 1) throw build_error("the compiled game did not report the rules' firings");
    for (std::size_t k = 0; k < rs.rules.size(); ++k) {
        const ir::rule& rule = rs.rules[k];
        if (!ir::plays(rule.kind)) continue;
        engine::sim_rule sr{rule.name, ir::name_of(rule.kind), 0, 0};
        std::istringstream counts(rule_counts[k + 1]);
        counts >> sr.fires >> sr.games;
        if (sr.fires == 0) r.never_fired.push_back(sr.name);
        r.rules.push_back(std::move(sr));
    }
    return r;
}

}  // namespace wp::codegen
