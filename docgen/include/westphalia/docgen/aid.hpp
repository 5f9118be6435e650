// Player aids (DESIGN.md §7): one compiled ruleset in, a printable PDF out, or the text dumps
// of its layout and content that the golden tests record.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace wp::docgen {

enum class paper { a4, letter };

struct aid_options {
    paper size = paper::a4;
    std::string font_dir = "/usr/share/fonts/truetype/dejavu";
    // TrueType fonts tried in order for a character DejaVu lacks (loaded only when one is needed;
    // a file that is not there is skipped): IPAGothic (fonts-ipafont-gothic) for Japanese and
    // kanji, AR PL SungtiL GB (fonts-arphic-gbsn00lp) for simplified Chinese, NanumGothic
    // (fonts-nanum) for Korean. libharu embeds TrueType outlines only (not Noto CJK's CFF), and
    // mishandles fonts of more than 32767 glyphs (Droid Sans Fallback, WenQuanYi): those are refused.
    std::vector<std::string> fallback_fonts = {"/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
                                               "/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf",
                                               "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"};
    bool test_page = false;  // print the character test page instead of the ruleset's aid
};

// The aid cannot be made: a font file is missing, or the fonts lack a character of the text.
struct aid_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Characters of the aid's text that no font draws (neither DejaVu nor a fallback): each once,
// with the first text of the aid (a name, a sentence, a cell) that holds it.
struct missing_glyph {
    char32_t code_point = 0;
    std::string text;
};
struct missing_glyphs_error : aid_error {
    std::vector<missing_glyph> missing;
    explicit missing_glyphs_error(std::vector<missing_glyph> m);
};

// "U+1F3B2" for a code point.
std::string code_point_name(char32_t c);

enum class aid_product { pdf, layout_dump, text_dump };

struct aid_output {
    std::string bytes;      // the PDF, or the dump asked for
    std::size_t pages = 0;  // page count of the laid-out aid
};

// Builds the aid of `rs` (whatever layers and options it was compiled with). Throws aid_error,
// missing_glyphs_error when characters of the text have no glyph in any font (after laying out
// the whole aid, so every such character is named).
aid_output make_aid(const ir::ruleset& rs, const aid_options& options, aid_product product);

}  // namespace wp::docgen
