// The one writer of command outputs: what it does with each kind of destination, and the
// temporary file's life (a recognisable name, removed on a signal or by the next run).
#include "output_file.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wp::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view temp_marker = ".westphalia-tmp.";

// The temporary file being written, for the signal handler: a fixed buffer (no allocation in
// the handler) and a flag set only once the path in it is whole.
char pending_temp[4096];
volatile std::sig_atomic_t pending = 0;

extern "C" void remove_temp_and_reraise(int sig) {
    if (pending) ::unlink(pending_temp);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

// Asked before each write (not once): a signal left at its default gets the handler; one that
// is ignored or handled by someone else (a test framework) is left alone.
void install_handlers() {
    for (int sig : {SIGINT, SIGTERM}) {
        struct sigaction old {};
        ::sigaction(sig, nullptr, &old);
        if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
        struct sigaction action {};
        action.sa_handler = remove_temp_and_reraise;
        sigemptyset(&action.sa_mask);
        ::sigaction(sig, &action, nullptr);
    }
}

std::string reason(int err) { return std::strerror(err); }

bool write_all(int fd, std::string_view content) {
    while (!content.empty()) {
        const ssize_t n = ::write(fd, content.data(), content.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        content.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// The file a chain of symlinks ends at (the last link's target when it dangles), so a
// rename replaces the target and the link stays a link.
fs::path follow_links(fs::path p) {
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(p, ec))) return p;
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) return p;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    return p;
}

// Writes straight into what is there: FIFOs, devices, /dev/stdout, hard-linked files.
std::optional<std::string> write_in_place(const std::string& path, std::string_view content, int flags) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | flags);
    if (fd < 0) return "cannot open it: " + reason(errno);
    const bool ok = write_all(fd, content);
    const int err = errno;
    if (::close(fd) != 0 && ok) return "failed while writing: " + reason(errno);
    if (!ok) return "failed while writing: " + reason(err);
    return std::nullopt;
}

// Removes `.NAME.westphalia-tmp.PID` files of processes that no longer run (killed with -9).
void remove_stale_temps(const fs::path& folder, const std::string& name) {
    const std::string prefix = "." + name + std::string(temp_marker);
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        if (file.rfind(prefix, 0) != 0) continue;
        const std::string digits = file.substr(prefix.size());
        if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
        const auto pid = static_cast<pid_t>(std::stol(digits));
        if (pid == ::getpid()) continue;
        if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // still running (or not ours to ask)
        std::error_code ignored;
        fs::remove(it->path(), ignored);
    }
}

// Writes a temporary file next to `target` and renames it over `target`.
std::optional<std::string> write_by_rename(const fs::path& target, std::string_view content,
                                           std::optional<mode_t> mode) {
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const std::string name = target.filename().string();
    remove_stale_temps(folder, name);
    const fs::path temp = folder / ("." + name + std::string(temp_marker) + std::to_string(::getpid()));
    const std::string temp_text = temp.string();
    if (temp_text.size() >= sizeof pending_temp) return "the path is too long";
    install_handlers();
    ::unlink(temp_text.c_str());  // ours from an earlier write of this process, or a stale one with a reused PID
    std::memcpy(pending_temp, temp_text.c_str(), temp_text.size() + 1);
    pending = 1;
    auto fail = [&](const std::string& why) -> std::optional<std::string> {
        ::unlink(pending_temp);
        pending = 0;
        return why;
    };
    const int fd = ::open(temp_text.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        pending = 0;
        const int err = errno;
        std::error_code ec;
        if (!fs::is_directory(folder, ec)) return "the folder `" + folder.string() + "` does not exist";
        return "cannot create a file in `" + folder.string() + "`: " + reason(err);
    }
    if (mode) ::fchmod(fd, *mode);  // a 0600 file stays 0600
    const bool ok = write_all(fd, content) && ::fsync(fd) == 0;
    const int err = errno;
    if (::close(fd) != 0 || !ok) return fail("failed while writing: " + reason(ok ? errno : err));
    if (::rename(temp_text.c_str(), target.c_str()) != 0) return fail("cannot replace it: " + reason(errno));
    pending = 0;
    return std::nullopt;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
    struct stat sa {}, sb {};
    if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

std::optional<std::string> overwritten_input(const std::string& output, const std::vector<std::string>& inputs) {
    if (is_standard_output(output)) return std::nullopt;
    for (const std::string& in : inputs)
        if (!in.empty() && same_file(output, in)) return in;
    return std::nullopt;
}

std::optional<std::string> write_file(const std::string& path, std::string_view content) {
    if (path.empty()) return "the path is empty";
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT) return "cannot reach it: " + reason(errno);
        return write_by_rename(follow_links(path), content, std::nullopt);  // new, or a dangling link's target
    }
    if (S_ISDIR(st.st_mode)) return "it is a folder";
    // /dev/stdout, /proc/self/fd/N and the like name a stream the shell opened (their links
    // lead to names like `pipe:[N]`): write to the path itself, appending, rather than replace
    // or truncate what the shell redirected there.
    std::error_code ec;
    const std::string absolute = fs::absolute(path, ec).lexically_normal().generic_string();
    const bool system_path = absolute.rfind("/dev/", 0) == 0 || absolute.rfind("/proc/", 0) == 0;
    if (!S_ISREG(st.st_mode) || system_path) return write_in_place(path, content, O_APPEND);
    const fs::path target = follow_links(path);
    // A file with other hard links is written in place so every name sees the new content: the
    // content is whole in memory before the file is truncated, so only a failing write itself
    // (a full disk) could leave it short. A rename would silently split the links.
    if (st.st_nlink > 1) return write_in_place(target.string(), content, O_TRUNC);
    return write_by_rename(target, content, st.st_mode & 07777);
}

bool check_output(context& ctx, const std::string& flag, const std::string& path, const std::vector<std::string>& inputs) {
    if (const auto input = overwritten_input(path, inputs)) {
        ctx.err << "westphalia: error: " << flag << ": `" << path << "` is the input `" << *input
                << "`; refusing to write over it\n";
        ctx.exit_code = exit_bad_input;
        return false;
    }
    return true;
}

bool write_output(context& ctx, const std::string& flag, const std::string& path, std::string_view content,
                  const std::vector<std::string>& inputs) {
    if (!check_output(ctx, flag, path, inputs)) return false;
    if (is_standard_output(path)) {
        ctx.out << content;
        ctx.out.flush();
        return true;
    }
    ctx.out.flush();  // what the command printed comes first when the output is /dev/stdout
    if (const auto why = write_file(path, content)) {
        ctx.err << "westphalia: error: " << flag << ": cannot write `" << path << "`: " << *why << '\n';
        ctx.exit_code = exit_bad_input;
        return false;
    }
    return true;
}

std::vector<std::string> input_files(std::vector<std::string> given, const dsl::source_manager& sources) {
    for (std::uint32_t id = 0; id < sources.size(); ++id) given.push_back(sources.get(id).path);
    return given;
}

}  // namespace wp::cli
