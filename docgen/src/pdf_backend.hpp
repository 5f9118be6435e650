// The libharu backend: loads and embeds the DejaVu fonts (and, for a character DejaVu lacks, a
// fallback font such as Droid Sans Fallback for CJK), measures text with them, and draws a
// display list into a PDF. The only file that sees hpdf.h is pdf_backend.cpp.
#pragma once

#include "display_list.hpp"

#include "westphalia/docgen/aid.hpp"

#include <memory>
#include <string>
#include <vector>

namespace wp::docgen {

class pdf_backend final : public font_metrics {
public:
    // Loads DejaVu Sans, Sans Bold and Sans Mono from `font_dir`; throws aid_error when one is
    // missing or unreadable.
    // `fallbacks`: TrueType files tried in order for a character a DejaVu face lacks, loaded on
    // first need; one that is not there is skipped.
    explicit pdf_backend(const std::string& font_dir, std::vector<std::string> fallbacks = {});
    ~pdf_backend() override;
    pdf_backend(const pdf_backend&) = delete;
    pdf_backend& operator=(const pdf_backend&) = delete;

    double width(face style, double size, const std::string& text) override;
    void check_glyphs(face style, const std::string& text) override;

    // The characters check_glyphs found no font for, each once, in the order met.
    const std::vector<missing_glyph>& missing() const;

    // Draws every page and returns the PDF file's bytes. Call once.
    std::string render(const display_list& list, const std::string& title);

private:
    struct impl;
    std::unique_ptr<impl> self_;
};

// The code points of a UTF-8 string (an invalid byte reads as U+FFFD).
std::vector<char32_t> code_points(const std::string& text);

}  // namespace wp::docgen
