// Source files held in memory, with a line table so spans turn into line:column
// (columns counted in code points, so "Lützen" does not shift a caret).
#pragma once

#include "westphalia/dsl/ast.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wp::dsl {

struct line_col {
    std::uint32_t line = 1;    // 1-based
    std::uint32_t column = 1;  // 1-based, in code points
};

struct source_file {
    std::string path;     // as shown in diagnostics (relative where possible)
    std::string text;
    std::vector<std::uint32_t> line_starts;  // byte offset of each line
};

class source_manager {
public:
    // Adds a file held in memory; returns its id.
    std::uint32_t add(std::string path, std::string text);
    const source_file& get(std::uint32_t id) const;
    std::size_t size() const { return files_.size(); }

    line_col position(std::uint32_t file, std::uint32_t offset) const;
    std::string_view line_text(std::uint32_t file, std::uint32_t line) const;  // without the newline

private:
    std::vector<source_file> files_;
};

class diagnostic_sink;

// Largest rule file we read; bigger files are `file-too-large` (a guard against runaway input).
inline constexpr std::uintmax_t max_source_bytes = 4u << 20;

// Reads a file into `sources` under the display path `display` (relative, as the user wrote it).
// Reports file-not-found, file-unreadable or file-too-large (at `cited_from`, if given: the
// manifest line naming it) and returns nothing on failure. Does not check UTF-8 (the parser does).
std::optional<std::uint32_t> load_source(const std::filesystem::path& path, const std::string& display,
                                         source_manager& sources, diagnostic_sink& sink,
                                         std::optional<span> cited_from = std::nullopt);

}  // namespace wp::dsl
