// The display list: pages of positioned text runs, rules and fills, in points from the page's
// top-left corner. The layout makes it; the PDF backend draws it; --dump=layout prints it.
#pragma once

#include "document.hpp"

#include <variant>
#include <vector>

namespace wp::docgen {

struct text_run {
    double x = 0, y = 0;  // baseline start
    face style = face::regular;
    double size = 0;
    double grey = 0;  // 0 black .. 1 white
    std::string text;
    double width = 0;  // measured: the run ends at x + width
};

struct rule_line {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    double width = 0.5;
    double grey = 0;
};

struct fill_rect {
    double x = 0, y = 0, w = 0, h = 0;  // y: top edge
    double grey = 0.9;
};

using item = std::variant<text_run, rule_line, fill_rect>;

struct page {
    std::vector<item> items;
};

struct display_list {
    double width = 0, height = 0;
    std::vector<page> pages;
};

// Measures text as the PDF will draw it (implemented by the backend from the embedded fonts).
class font_metrics {
public:
    virtual ~font_metrics() = default;
    // Width in points of `text` (UTF-8) in `style` at `size`.
    virtual double width(face style, double size, const std::string& text) = 0;
    // Notes each character of `text` that no font can draw in `style` (make_aid fails after the
    // layout, naming them all).
    virtual void check_glyphs(face style, const std::string& text) = 0;
};

}  // namespace wp::docgen
