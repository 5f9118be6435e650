// The libharu backend. libharu reports errors through a callback; we record the error there and
// throw from C++ after the call returns (never longjmp out of the handler).
#include "pdf_backend.hpp"

#include "westphalia/docgen/aid.hpp"

#include <hpdf.h>
#include <hpdf_font.h>
#include <hpdf_fontdef.h>

#include <array>
#include <cstdio>
#include <filesystem>

namespace wp::docgen {

namespace {

// The condensed cut of DejaVu Sans (fonts-dejavu-extra): a player aid is dense text in narrow columns.
constexpr std::array<const char*, 3> font_files = {"DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSansMono.ttf"};

std::string hex_code(char32_t c) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(c));
    return buffer;
}

std::string utf8(char32_t c) {
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

}  // namespace

std::vector<char32_t> code_points(const std::string& text) {
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const int extra = b < 0x80 ? 0 : (b >> 5) == 6 ? 1 : (b >> 4) == 14 ? 2 : (b >> 3) == 30 ? 3 : -1;
        if (extra < 0 || (extra > 0 && i + static_cast<std::size_t>(extra) >= text.size())) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        char32_t c = extra == 0 ? b : extra == 1 ? (b & 0x1F) : extra == 2 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k <= extra; ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]) & 0x3F);
        out.push_back(c);
        i += static_cast<std::size_t>(extra) + 1;
    }
    return out;
}

struct pdf_backend::impl {
    HPDF_Doc doc = nullptr;
    std::array<HPDF_Font, 3> fonts{};
    std::array<std::string, 3> font_names;
    std::string error;  // set by the handler, thrown by check()

    static void on_error(HPDF_STATUS code, HPDF_STATUS detail, void* user) {
        auto* self = static_cast<impl*>(user);
        if (self->error.empty()) {
            char buffer[64];
            std::snprintf(buffer, sizeof buffer, "libharu error 0x%04X (detail %u)", static_cast<unsigned>(code),
                          static_cast<unsigned>(detail));
            self->error = buffer;
        }
    }

    void check(const std::string& doing) {
        if (error.empty()) return;
        const std::string what = doing + ": " + error;
        error.clear();
        HPDF_ResetError(doc);
        throw aid_error(what);
    }

    HPDF_Font font(face style) const { return fonts[static_cast<std::size_t>(style)]; }
};

pdf_backend::pdf_backend(const std::string& font_dir) : self_(std::make_unique<impl>()) {
    for (const char* file : font_files) {
        const std::filesystem::path path = std::filesystem::path(font_dir) / file;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec))
            throw aid_error("font file " + path.string() + " not found (install fonts-dejavu-extra and fonts-dejavu-core, or give --font-dir)");
    }
    self_->doc = HPDF_New(&impl::on_error, self_.get());
    if (!self_->doc) throw aid_error("libharu could not start a document");
    HPDF_SetCompressionMode(self_->doc, HPDF_COMP_ALL);
    HPDF_UseUTFEncodings(self_->doc);
    HPDF_SetCurrentEncoder(self_->doc, "UTF-8");
    self_->check("setting up UTF-8");
    for (std::size_t i = 0; i < font_files.size(); ++i) {
        const std::string path = (std::filesystem::path(font_dir) / font_files[i]).string();
        const char* name = HPDF_LoadTTFontFromFile(self_->doc, path.c_str(), HPDF_TRUE);
        self_->check("loading font " + path);
        if (!name) throw aid_error("font file " + path + " could not be read");
        self_->font_names[i] = name;
        self_->fonts[i] = HPDF_GetFont(self_->doc, name, "UTF-8");
        self_->check("loading font " + path);
    }
}

pdf_backend::~pdf_backend() {
    if (self_ && self_->doc) HPDF_Free(self_->doc);
}

double pdf_backend::width(face style, double size, const std::string& text) {
    if (text.empty()) return 0;
    const HPDF_TextWidth w =
        HPDF_Font_TextWidth(self_->font(style), reinterpret_cast<const HPDF_BYTE*>(text.data()), static_cast<HPDF_UINT>(text.size()));
    self_->check("measuring text");
    return static_cast<double>(w.width) * size / 1000.0;
}

void pdf_backend::check_glyphs(face style, const std::string& text) {
    HPDF_Font font = self_->font(style);
    const auto* attr = static_cast<HPDF_FontAttr>(font->attr);
    HPDF_FontDef def = attr ? attr->fontdef : nullptr;
    if (!def || def->type != HPDF_FONTDEF_TYPE_TRUETYPE) throw aid_error("font " + self_->font_names[static_cast<std::size_t>(style)] + " is not a TrueType font");
    for (char32_t c : code_points(text)) {
        if (c < 0x20) continue;
        const bool missing = c > 0xFFFF || HPDF_TTFontDef_GetGlyphid(def, static_cast<HPDF_UINT16>(c)) == 0;
        self_->check("looking up a glyph");
        if (missing)
            throw aid_error("the font " + std::string(font_files[static_cast<std::size_t>(style)]) + " has no glyph for " +
                            hex_code(c) + " '" + utf8(c) + "' in \"" + text + "\"");
    }
}

std::string pdf_backend::render(const display_list& list, const std::string& title) {
    HPDF_Doc doc = self_->doc;
    bool ascii = true;
    for (char c : title) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
    if (ascii) HPDF_SetInfoAttr(doc, HPDF_INFO_TITLE, title.c_str());
    HPDF_SetInfoAttr(doc, HPDF_INFO_CREATOR, "Westphalia");
    self_->check("setting document info");
    const auto h = list.height;
    for (const page& p : list.pages) {
        HPDF_Page pg = HPDF_AddPage(doc);
        HPDF_Page_SetWidth(pg, static_cast<HPDF_REAL>(list.width));
        HPDF_Page_SetHeight(pg, static_cast<HPDF_REAL>(list.height));
        for (const item& it : p.items) {
            if (const auto* f = std::get_if<fill_rect>(&it)) {
                HPDF_Page_SetGrayFill(pg, static_cast<HPDF_REAL>(f->grey));
                HPDF_Page_Rectangle(pg, static_cast<HPDF_REAL>(f->x), static_cast<HPDF_REAL>(h - f->y - f->h),
                                    static_cast<HPDF_REAL>(f->w), static_cast<HPDF_REAL>(f->h));
                HPDF_Page_Fill(pg);
            } else if (const auto* r = std::get_if<rule_line>(&it)) {
                HPDF_Page_SetGrayStroke(pg, static_cast<HPDF_REAL>(r->grey));
                HPDF_Page_SetLineWidth(pg, static_cast<HPDF_REAL>(r->width));
                HPDF_Page_MoveTo(pg, static_cast<HPDF_REAL>(r->x1), static_cast<HPDF_REAL>(h - r->y1));
                HPDF_Page_LineTo(pg, static_cast<HPDF_REAL>(r->x2), static_cast<HPDF_REAL>(h - r->y2));
                HPDF_Page_Stroke(pg);
            } else if (const auto* t = std::get_if<text_run>(&it)) {
                HPDF_Page_BeginText(pg);
                HPDF_Page_SetFontAndSize(pg, self_->font(t->style), static_cast<HPDF_REAL>(t->size));
                HPDF_Page_SetGrayFill(pg, static_cast<HPDF_REAL>(t->grey));
                HPDF_Page_TextOut(pg, static_cast<HPDF_REAL>(t->x), static_cast<HPDF_REAL>(h - t->y), t->text.c_str());
                HPDF_Page_EndText(pg);
            }
        }
        self_->check("drawing page " + std::to_string(&p - list.pages.data() + 1));
    }
    HPDF_SaveToStream(doc);
    self_->check("writing the PDF");
    std::string bytes(HPDF_GetStreamSize(doc), '\0');
    std::size_t got = 0;
    while (got < bytes.size()) {
        HPDF_UINT32 n = static_cast<HPDF_UINT32>(bytes.size() - got);
        const HPDF_STATUS st = HPDF_ReadFromStream(doc, reinterpret_cast<HPDF_BYTE*>(bytes.data() + got), &n);
        got += n;
        if (st == HPDF_STREAM_EOF || n == 0) break;
        self_->check("reading the PDF back");
    }
    self_->error.clear();  // the end-of-stream status is not an error
    bytes.resize(got);
    return bytes;
}

}  // namespace wp::docgen
