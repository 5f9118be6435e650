// The shared output writer (app/output_file): symlinks, FIFOs, modes, hard links, the command's
// own input, `-o -`, stale temporary files and the temporary file's removal on SIGTERM.
#include "output_file.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace wp;

namespace {

// A fresh folder per test, removed at the end.
struct scratch {
    fs::path dir;
    scratch() {
        dir = fs::temp_directory_path() / ("wp-output-test-" + std::to_string(::getpid()) + "-" +
                                           std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir);
    }
    ~scratch() {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
    std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void put(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// The number of entries in a folder.
std::size_t entries(const fs::path& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

}  // namespace

TEST_CASE("the writer replaces a regular file atomically and leaves no temporary file", "[output]") {
    scratch s;
    put(s / "out.json", "old");
    REQUIRE_FALSE(cli::write_file(s / "out.json", "new"));
    CHECK(read(s / "out.json") == "new");
    CHECK(entries(s.dir) == 1);
    REQUIRE_FALSE(cli::write_file(s / "fresh.json", "made"));
    CHECK(read(s / "fresh.json") == "made");
    CHECK(entries(s.dir) == 2);
}

TEST_CASE("the writer writes through a symlink and the link stays a link", "[output]") {
    scratch s;
    put(s / "real.json", "precious");
    fs::create_symlink("real.json", s / "link.json");
    REQUIRE_FALSE(cli::write_file(s / "link.json", "new"));
    CHECK(fs::is_symlink(fs::symlink_status(s / "link.json")));
    CHECK(read(s / "real.json") == "new");
}

TEST_CASE("the writer keeps a 0600 file's mode", "[output]") {
    scratch s;
    put(s / "private.json", "x");
    fs::permissions(s / "private.json", fs::perms::owner_read | fs::perms::owner_write);
    REQUIRE_FALSE(cli::write_file(s / "private.json", "new"));
    struct stat st {};
    REQUIRE(::stat((s / "private.json").c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0600);
    CHECK(read(s / "private.json") == "new");
}

TEST_CASE("the writer keeps hard links: every name sees the new content", "[output]") {
    scratch s;
    put(s / "h1", "orig");
    fs::create_hard_link(s / "h1", s / "h2");
    REQUIRE_FALSE(cli::write_file(s / "h1", "new"));
    CHECK(read(s / "h2") == "new");
    CHECK(fs::hard_link_count(s / "h1") == 2);
}

TEST_CASE("the writer writes into a FIFO instead of replacing it", "[output]") {
    scratch s;
    const std::string pipe = s / "pipe";
    REQUIRE(::mkfifo(pipe.c_str(), 0600) == 0);
    // the reader opens the FIFO in another thread, so the writer's open does not block forever
    auto reader = std::async(std::launch::async, [&] { return read(pipe); });
    REQUIRE_FALSE(cli::write_file(pipe, "through the pipe"));
    REQUIRE(reader.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    CHECK(reader.get() == "through the pipe");
    CHECK(fs::is_fifo(fs::symlink_status(pipe)));
}

TEST_CASE("the writer writes /dev/null directly", "[output]") {
    REQUIRE_FALSE(cli::write_file("/dev/null", "gone"));
    CHECK(fs::is_character_file(fs::status("/dev/null")));
}

TEST_CASE("the writer writes /proc/self/fd/N of a pipe (what /dev/stdout is in a pipeline)", "[output]") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const std::string path = "/proc/self/fd/" + std::to_string(fds[1]);
    const auto why = cli::write_file(path, "piped");
    ::close(fds[1]);
    CHECK_FALSE(why);
    char buffer[16] = {};
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    ::close(fds[0]);
    CHECK(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0) == "piped");
}

TEST_CASE("an output that is the command's input is refused and nothing is written", "[output]") {
    scratch s;
    put(s / "r.wph", "rules");
    fs::create_symlink("r.wph", s / "alias.wph");
    fs::create_hard_link(s / "r.wph", s / "hard.wph");
    for (const std::string& out : {s / "r.wph", s / "alias.wph", s / "hard.wph"}) {
        std::ostringstream o, e;
        cli::context ctx{o, e, cli::exit_clean, nullptr};
        CHECK_FALSE(cli::write_output(ctx, "--output", out, "IR", {s / "r.wph"}));
        CHECK(ctx.exit_code == cli::exit_bad_input);
        CHECK(e.str().find("refusing to write over it") != std::string::npos);
        CHECK(read(s / "r.wph") == "rules");
    }
    std::ostringstream o, e;
    cli::context ctx{o, e, cli::exit_clean, nullptr};
    CHECK(cli::write_output(ctx, "--output", s / "other.json", "IR", {s / "r.wph"}));
    CHECK(read(s / "other.json") == "IR");
}

TEST_CASE("`-o -` writes to standard output", "[output]") {
    std::ostringstream o, e;
    cli::context ctx{o, e, cli::exit_clean, nullptr};
    CHECK(cli::write_output(ctx, "--output", "-", "the report\n", {"-"}));
    CHECK(o.str() == "the report\n");
    CHECK(e.str().empty());
}

TEST_CASE("a stale temporary file of a process that no longer runs is removed by the next write", "[output]") {
    scratch s;
    // a PID that ran and ended: a child that exits at once
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    REQUIRE(child > 0);
    ::waitpid(child, nullptr, 0);
    const std::string stale = s / (".ir.json.westphalia-tmp." + std::to_string(child));
    const std::string live = s / (".ir.json.westphalia-tmp." + std::to_string(::getppid()));
    const std::string other = s / ".notes.westphalia-tmp.1";
    put(stale, "half");
    put(live, "someone else's, still running");
    put(other, "another file's");
    REQUIRE_FALSE(cli::write_file(s / "ir.json", "whole"));
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(live));
    CHECK(fs::exists(other));
    CHECK(read(s / "ir.json") == "whole");
}

TEST_CASE("SIGTERM during a write removes the temporary file", "[output]") {
    scratch s;
    const pid_t child = ::fork();
    if (child == 0) {
        // the command's own signal disposition, not the test framework's
        std::signal(SIGTERM, SIG_DFL);
        // a write long enough for the parent to see its temporary file and kill it while writing
        const std::string big(std::size_t{256} << 20, 'x');
        (void)cli::write_file(s / "big.json", big);
        ::_exit(0);
    }
    REQUIRE(child > 0);
    const std::string temp = s / (".big.json.westphalia-tmp." + std::to_string(child));
    for (int i = 0; i < 5000 && !fs::exists(temp); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const bool started = fs::exists(temp);
    ::kill(child, SIGTERM);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!started) {
        WARN("the write ended before the signal; nothing to check");
        return;
    }
    CHECK(WIFSIGNALED(status));
    CHECK_FALSE(fs::exists(temp));
    CHECK_FALSE(fs::exists(s / "big.json"));
}
