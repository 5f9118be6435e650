// The layout: the aid model onto pages of a display list. Greedy line breaking on widths
// measured from the embedded fonts, two columns per page, grids with column widths fitted to
// their content (shrinking the type, then wrapping, never overflowing a cell), headers repeated
// when a grid continues, headings kept with what follows, a footer on every page.
#pragma once

#include "display_list.hpp"
#include "document.hpp"

#include "westphalia/docgen/aid.hpp"

namespace wp::docgen {

display_list layout(const document& doc, font_metrics& metrics, paper size);

// The display list as text, positions rounded to 0.1 pt (the layout golden).
std::string display_list_text(const display_list& list);

}  // namespace wp::docgen
