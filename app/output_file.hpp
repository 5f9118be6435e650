// The one writer of every file a command produces (-o, --log): standard output for `-`, never
// over one of the command's inputs, through symlinks, into FIFOs and devices, atomically otherwise.
#pragma once

#include "cli.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wp::cli {

// The path that means standard output.
inline bool is_standard_output(const std::string& path) { return path == "-"; }

// Whether `a` and `b` name the same existing file (device and inode, after following symlinks).
bool same_file(const std::string& a, const std::string& b);

// The input among `inputs` that `output` would overwrite, if any.
std::optional<std::string> overwritten_input(const std::string& output, const std::vector<std::string>& inputs);

// Writes `content` to the file at `path` (not `-`); returns the reason when it cannot.
// A regular file with one link is replaced by a rename of a temporary file in its folder, with
// its mode kept, so a failure never leaves half a file; a symlink is followed and stays a link;
// a FIFO, a device or a file in /dev or /proc is written directly. The temporary file is named
// `.NAME.westphalia-tmp.PID`, removed on SIGINT and SIGTERM, and a stale one left by a process
// that no longer runs (after kill -9) is removed by the next write to NAME.
std::optional<std::string> write_file(const std::string& path, std::string_view content);

// The command-level writer: `-` is ctx.out; refuses (exit 2, nothing written) a path that is one
// of `inputs`; explains any failure on ctx.err after `flag` and sets exit code 2.
bool write_output(context& ctx, const std::string& flag, const std::string& path, std::string_view content,
                  const std::vector<std::string>& inputs);

// Only the refusal, for commands that check before their (long) work.
bool check_output(context& ctx, const std::string& flag, const std::string& path, const std::vector<std::string>& inputs);

// A command's inputs: the paths given and every source file the load read.
std::vector<std::string> input_files(std::vector<std::string> given, const dsl::source_manager& sources);

}  // namespace wp::cli
