// The UTF-8 check of a play script, reported like a rule file's (`invalid-utf8`).
#include "script_text.hpp"

#include <fstream>
#include <sstream>

namespace wp::cli {

std::size_t first_invalid_utf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
        const unsigned char b = byte(i);
        std::size_t n = 0;
        std::uint32_t lowest = 0;  // the smallest code point of this length: shorter forms are overlong
        if (b < 0x80) n = 1;
        else if ((b & 0xE0) == 0xC0) n = 2, lowest = 0x80;
        else if ((b & 0xF0) == 0xE0) n = 3, lowest = 0x800;
        else if ((b & 0xF8) == 0xF0) n = 4, lowest = 0x10000;
        else return i;
        if (i + n > text.size()) return i;
        std::uint32_t cp = n == 1 ? b : b & (0x7F >> n);
        for (std::size_t k = 1; k < n; ++k) {
            if ((byte(i + k) & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (byte(i + k) & 0x3F);
        }
        if (cp < lowest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += n;
    }
    return std::string::npos;
}

bool check_script_text(context& ctx, const std::string& path) {
    const std::optional<std::string> text = read_whole_file(path);
    if (!text) return true;
    const std::size_t bad = first_invalid_utf8(*text);
    if (bad == std::string::npos) return true;
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    const std::uint32_t id = sources.add(path, *text);
    const auto at = static_cast<std::uint32_t>(bad);
    sink.error(dsl::diag_kind::invalid_utf8, dsl::span{id, at, at + 1},
               "invalid UTF-8 at byte " + std::to_string(bad) + ": a script's lines are action numbers or action texts, in UTF-8");
    dsl::render(ctx.err, sources, sink.all(), dsl::diag_format::human, 50, ctx.colored(ctx.err));
    ctx.exit_code = exit_bad_input;
    return false;
}

}  // namespace wp::cli
