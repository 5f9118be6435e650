// `westphalia aid <ruleset>`: the ruleset's player aid as a PDF (through the shared output
// writer), or the text dumps of its layout and content that the goldens record.
#include "cli.hpp"
#include "output_file.hpp"
#include "ruleset_input.hpp"

#include "westphalia/docgen/aid.hpp"

#include <filesystem>
#include <optional>

namespace wp::cli {

namespace {

bool word_byte(unsigned char b) { return b >= 0x80 || b == '_' || (b >= '0' && b <= '9') || ((b | 0x20) >= 'a' && (b | 0x20) <= 'z'); }

std::string utf8_of(char32_t c) {
    std::string s;
    if (c < 0x80) {
        s += static_cast<char>(c);
    } else if (c < 0x800) {
        s += static_cast<char>(0xC0 | (c >> 6));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

// Where the rule files spell `c`: the string literal or name holding it, skipping comments. The
// aid's text comes from the rules' names and strings (its own words are drawn by DejaVu), so a
// character no font has is in one of them. Preferred: a token whose text is part of `aid_text`
// (the sentence or cell of the aid that holds it); else the first one.
std::optional<dsl::span> locate(const dsl::source_manager& sources, char32_t c, const std::string& aid_text) {
    const std::string needle = utf8_of(c);
    std::optional<dsl::span> first;
    for (std::uint32_t id = 0; id < sources.size(); ++id) {
        const std::string& t = sources.get(id).text;
        std::size_t i = 0;
        while (i < t.size()) {
            const auto b = static_cast<unsigned char>(t[i]);
            if (b == '/' && i + 1 < t.size() && t[i + 1] == '/') {
                i = std::min(t.find('\n', i), t.size());
                continue;
            }
            std::size_t begin = i, end = i;
            std::string content;
            if (b == '"') {
                end = i + 1;
                while (end < t.size() && t[end] != '"' && t[end] != '\n') {
                    if (t[end] == '\\' && end + 1 < t.size()) ++end;
                    content += t[end];
                    ++end;
                }
                if (end < t.size() && t[end] == '"') ++end;
            } else if (word_byte(b)) {
                while (end < t.size() && word_byte(static_cast<unsigned char>(t[end]))) ++end;
                content = t.substr(begin, end - begin);
            } else {
                ++i;
                continue;
            }
            i = end;
            if (content.find(needle) == std::string::npos) continue;
            const dsl::span where{id, static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end)};
            if (aid_text.find(content) != std::string::npos) return where;
            if (!first) first = where;
        }
    }
    return first;
}

// The fallback font files that are not there, for the message: "; not installed: a.ttf, b.ttf".
std::string fallbacks_missing(const docgen::aid_options& options) {
    std::string s;
    for (const std::string& f : options.fallback_fonts) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(f, ec)) s += (s.empty() ? "; not installed: " : ", ") + f;
    }
    return s;
}

// At most `n` code points of `text`, with "…" when cut.
std::string shortened(const std::string& text, std::size_t n) {
    std::size_t at = 0, count = 0;
    while (at < text.size() && count < n) {
        ++at;
        while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
        ++count;
    }
    return at < text.size() ? text.substr(0, at) + "…" : text;
}

}  // namespace

void add_aid_command(CLI::App& app, context& ctx) {
    struct settings {
        ruleset_input input;
        std::string output;
        std::string paper = "a4";
        std::string dump;
        std::string font_dir = docgen::aid_options{}.font_dir;
        bool test_page = false;
    };
    auto s = std::make_shared<settings>();
    CLI::App* command = app.add_subcommand("aid", "Print a ruleset's player aid (PDF) from its IR");
    s->input.add_to(*command);
    command->add_option("-o,--output", s->output, "The PDF to write (default: <ruleset>.pdf in this folder; `-`: standard output)");
    command->add_option("--paper", s->paper, "Paper size: a4 or letter")->check(CLI::IsMember({"a4", "letter"}));
    command->add_option("--dump", s->dump, "Print the layout (display list) or the text instead of writing a PDF")
        ->check(CLI::IsMember({"layout", "text"}));
    command->add_option("--font-dir", s->font_dir, "The folder holding DejaVuSansCondensed.ttf, DejaVuSansCondensed-Bold.ttf and DejaVuSansMono.ttf");
    command->add_flag("--test-page", s->test_page, "Print the character test page (Ö, ü, —, ×, ½, ≤) instead of the aid");
    command->callback([s, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        const auto rs = s->input.load(ctx, sources, sink);
        if (!rs) {
            report(ctx, sources, sink, s->input.diagnostics);
            return;
        }
        docgen::aid_options options;
        options.size = s->paper == "letter" ? docgen::paper::letter : docgen::paper::a4;
        options.font_dir = s->font_dir;
        options.test_page = s->test_page;
        const auto product = s->dump == "layout" ? docgen::aid_product::layout_dump
                           : s->dump == "text"   ? docgen::aid_product::text_dump
                                                 : docgen::aid_product::pdf;
        const std::string path = s->output.empty() ? rs->name + ".pdf" : s->output;
        const std::vector<std::string> inputs = input_files({s->input.path}, sources);
        docgen::aid_output out;
        try {
            out = docgen::make_aid(*rs, options, product);
        } catch (const docgen::missing_glyphs_error& e) {
            // Each character where the rules spell it, before anything is written.
            for (const docgen::missing_glyph& m : e.missing) {
                const std::string message = "the aid's fonts have no glyph for " + docgen::code_point_name(m.code_point) + " '" +
                                            utf8_of(m.code_point) + "' (DejaVu Sans Condensed, and its CJK fallbacks" +
                                            fallbacks_missing(options) + "); the aid prints it in \"" + shortened(m.text, 60) + "\"";
                if (const auto where = locate(sources, m.code_point, m.text)) {
                    sink.error(dsl::diag_kind::missing_glyph, *where, message);
                } else {
                    dsl::diagnostic d{dsl::diag_kind::missing_glyph, dsl::severity::error, std::nullopt, message, {}};
                    d.file = s->input.path;
                    sink.report(std::move(d));
                }
            }
            report(ctx, sources, sink, s->input.diagnostics);
            ctx.exit_code = exit_bad_input;
            return;
        } catch (const docgen::aid_error& e) {
            report(ctx, sources, sink, s->input.diagnostics);
            ctx.err << "westphalia: error: cannot make the aid: " << e.what() << '\n';
            ctx.exit_code = exit_bad_input;
            return;
        }
        report(ctx, sources, sink, s->input.diagnostics, product != docgen::aid_product::pdf || path == "-");
        if (product != docgen::aid_product::pdf) {
            ctx.out << out.bytes;
            return;
        }
        if (!check_output(ctx, "--output", path, inputs)) return;
        if (!write_output(ctx, "--output", path, out.bytes, inputs)) return;
        if (is_standard_output(path)) return;  // the PDF is the whole output
        ctx.out << "wrote " << path << ": " << out.pages << " page" << (out.pages == 1 ? "" : "s") << ", "
                << (options.size == docgen::paper::letter ? "Letter" : "A4") << '\n';
    });
}

}  // namespace wp::cli
