// Player aids (DESIGN.md §7): one compiled ruleset in, a printable PDF out, or the text dumps
// of its layout and content that the golden tests record.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace wp::docgen {

enum class paper { a4, letter };

struct aid_options {
    paper size = paper::a4;
    std::string font_dir = "/usr/share/fonts/truetype/dejavu";
    bool test_page = false;  // print the character test page instead of the ruleset's aid
};

// The aid cannot be made: a font file is missing, or the fonts lack a character of the text.
struct aid_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class aid_product { pdf, layout_dump, text_dump };

struct aid_output {
    std::string bytes;      // the PDF, or the dump asked for
    std::size_t pages = 0;  // page count of the laid-out aid
};

// Builds the aid of `rs` (whatever layers and options it was compiled with). Throws aid_error.
aid_output make_aid(const ir::ruleset& rs, const aid_options& options, aid_product product);

}  // namespace wp::docgen
