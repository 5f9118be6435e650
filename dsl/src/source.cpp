// Source files and their line tables.
#include "westphalia/dsl/source.hpp"

#include <algorithm>
#include <stdexcept>

namespace wp::dsl {

std::uint32_t source_manager::add(std::string path, std::string text) {
    source_file f;
    f.path = std::move(path);
    f.text = std::move(text);
    // A UTF-8 byte order mark (some Windows editors write one) is not part of the rules.
    if (f.text.rfind("\xEF\xBB\xBF", 0) == 0) f.text.erase(0, 3);
    // Lines end at "\n", "\r\n" or a lone "\r" (old Mac files).
    f.line_starts.push_back(0);
    for (std::size_t i = 0; i < f.text.size(); ++i) {
        const bool lone_cr = f.text[i] == '\r' && (i + 1 == f.text.size() || f.text[i + 1] != '\n');
        if (f.text[i] == '\n' || lone_cr) f.line_starts.push_back(static_cast<std::uint32_t>(i + 1));
    }
    files_.push_back(std::move(f));
    return static_cast<std::uint32_t>(files_.size() - 1);
}

const source_file& source_manager::get(std::uint32_t id) const {
    if (id >= files_.size()) throw std::out_of_range("source_manager: no file with this id");
    return files_[id];
}

line_col source_manager::position(std::uint32_t file, std::uint32_t offset) const {
    const source_file& f = get(file);
    offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(f.text.size()));
    auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
    const auto line_index = static_cast<std::uint32_t>(it - f.line_starts.begin() - 1);
    std::uint32_t column = 1;
    // Count code points: every byte that is not a UTF-8 continuation byte starts one.
    for (std::uint32_t i = f.line_starts[line_index]; i < offset; ++i) {
        if ((static_cast<unsigned char>(f.text[i]) & 0xC0) != 0x80) ++column;
    }
    return {line_index + 1, column};
}

std::string_view source_manager::line_text(std::uint32_t file, std::uint32_t line) const {
    const source_file& f = get(file);
    if (line == 0 || line > f.line_starts.size()) return {};
    const std::uint32_t begin = f.line_starts[line - 1];
    std::uint32_t end = line < f.line_starts.size() ? f.line_starts[line] : static_cast<std::uint32_t>(f.text.size());
    std::string_view s(f.text.data() + begin, end - begin);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

}  // namespace wp::dsl

#include "westphalia/dsl/diagnostics.hpp"

#include <fstream>
#include <sstream>

namespace wp::dsl {

std::optional<std::uint32_t> load_source(const std::filesystem::path& path, const std::string& display,
                                         source_manager& sources, diagnostic_sink& sink,
                                         std::optional<span> cited_from) {
    auto fail = [&](diag_kind kind, std::string message) {
        diagnostic d{kind, info(kind).default_severity, cited_from, std::move(message), {}};
        // a file that exists but cannot be read is the location (when no manifest line cites it)
        if (!cited_from && kind != diag_kind::file_not_found) d.file = display;
        sink.report(std::move(d));
        return std::nullopt;
    };
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) return fail(diag_kind::file_not_found, "cannot find `" + display + "`");
    if (std::filesystem::is_directory(status))
        return fail(diag_kind::file_unreadable, (cited_from ? "`" + display + "` is" : "this is") + std::string(" a folder, not a rule file"));
    const auto bytes = std::filesystem::file_size(path, ec);
    if (ec) return fail(diag_kind::file_unreadable, "cannot read `" + display + "`: " + ec.message());
    if (bytes > max_source_bytes)
        return fail(diag_kind::file_too_large, (cited_from ? "`" + display + "` is " : "this file is ") + std::to_string(bytes) +
                                                   " bytes; rule files may be at most " +
                                                   std::to_string(max_source_bytes) + " bytes");
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(diag_kind::file_unreadable, "cannot open `" + display + "`");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return fail(diag_kind::file_unreadable, "error while reading `" + display + "`");
    return sources.add(display, std::move(text).str());
}

}  // namespace wp::dsl
