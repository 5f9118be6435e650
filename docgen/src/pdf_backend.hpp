// The libharu backend: loads and embeds the DejaVu fonts, measures text with them, and draws a
// display list into a PDF. The only file that sees hpdf.h is pdf_backend.cpp.
#pragma once

#include "display_list.hpp"

#include <memory>
#include <string>

namespace wp::docgen {

class pdf_backend final : public font_metrics {
public:
    // Loads DejaVu Sans, Sans Bold and Sans Mono from `font_dir`; throws aid_error when one is
    // missing or unreadable.
    explicit pdf_backend(const std::string& font_dir);
    ~pdf_backend() override;
    pdf_backend(const pdf_backend&) = delete;
    pdf_backend& operator=(const pdf_backend&) = delete;

    double width(face style, double size, const std::string& text) override;
    void check_glyphs(face style, const std::string& text) override;

    // Draws every page and returns the PDF file's bytes. Call once.
    std::string render(const display_list& list, const std::string& title);

private:
    struct impl;
    std::unique_ptr<impl> self_;
};

// The code points of a UTF-8 string (an invalid byte reads as U+FFFD).
std::vector<char32_t> code_points(const std::string& text);

}  // namespace wp::docgen
