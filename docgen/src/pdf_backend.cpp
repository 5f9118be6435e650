// The libharu backend. libharu reports errors through a callback; we record the error there and
// throw from C++ after the call returns (never longjmp out of the handler).
#include "pdf_backend.hpp"

#include "to_unicode.hpp"

#include "westphalia/docgen/aid.hpp"

#include <hpdf.h>
#include <hpdf_font.h>
#include <hpdf_fontdef.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <unordered_map>
#include <utility>

namespace wp::docgen {

namespace {

// The condensed cut of DejaVu Sans (fonts-dejavu-extra): a player aid is dense text in narrow columns.
constexpr std::array<const char*, 3> font_files = {"DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSansMono.ttf"};

bool all_ascii(const std::string& text) {
    for (char c : text)
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    return true;
}

HPDF_FontDef truetype_def(HPDF_Font font) {
    const auto* attr = font ? static_cast<HPDF_FontAttr>(font->attr) : nullptr;
    HPDF_FontDef def = attr ? attr->fontdef : nullptr;
    return def && def->type == HPDF_FONTDEF_TYPE_TRUETYPE ? def : nullptr;
}

// Only the Basic Multilingual Plane: libharu's UTF-8 encoder and TrueType cmaps it reads stop there.
bool has_glyph(HPDF_FontDef def, char32_t c) {
    return c <= 0xFFFF && HPDF_TTFontDef_GetGlyphid(def, static_cast<HPDF_UINT16>(c)) != 0;
}

// numGlyphs of a TrueType file's maxp table (0 when it cannot be read).
unsigned truetype_glyph_count(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return 0;
    unsigned char dir[12];
    unsigned count = 0;
    auto u16 = [](const unsigned char* p) { return static_cast<unsigned>(p[0] << 8 | p[1]); };
    auto u32 = [](const unsigned char* p) { return static_cast<unsigned long>(p[0]) << 24 | static_cast<unsigned long>(p[1]) << 16 | static_cast<unsigned long>(p[2]) << 8 | p[3]; };
    if (std::fread(dir, 1, sizeof dir, f) == sizeof dir) {
        const unsigned tables = u16(dir + 4);
        for (unsigned i = 0; i < tables && i < 64; ++i) {
            unsigned char entry[16];
            if (std::fread(entry, 1, sizeof entry, f) != sizeof entry) break;
            if (std::equal(entry, entry + 4, "maxp")) {
                unsigned char maxp[6];
                if (std::fseek(f, static_cast<long>(u32(entry + 8)), SEEK_SET) == 0 && std::fread(maxp, 1, sizeof maxp, f) == sizeof maxp)
                    count = u16(maxp + 4);
                break;
            }
        }
    }
    std::fclose(f);
    return count;
}

}  // namespace

std::string code_point_name(char32_t c) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(c));
    return buffer;
}

missing_glyphs_error::missing_glyphs_error(std::vector<missing_glyph> m)
    : aid_error("the aid's fonts have no glyph for " + (m.empty() ? std::string("a character") : code_point_name(m.front().code_point)) +
                (m.size() > 1 ? " and " + std::to_string(m.size() - 1) + " other character" + (m.size() > 2 ? "s" : "") : std::string())),
      missing(std::move(m)) {}

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
    std::array<HPDF_FontDef, 3> defs{};
    std::array<std::string, 3> font_names;
    struct fallback {
        std::string path;
        bool tried = false;  // loaded on first need
        HPDF_Font font = nullptr;
        HPDF_FontDef def = nullptr;
    };
    std::vector<fallback> fallbacks;
    std::unordered_map<std::uint64_t, int> chosen;  // (face, code point) -> font_for's answer
    std::vector<missing_glyph> missing;
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

    static constexpr int no_font = -2, primary = -1;

    // The font that draws `c` in `style`: the face itself (primary), else the first fallback that
    // has it (its index), else no_font. Control characters count as the face's own.
    int font_for(face style, char32_t c) {
        if (c < 0x80) return primary;
        const std::uint64_t key = (static_cast<std::uint64_t>(style) << 32) | c;
        if (const auto it = chosen.find(key); it != chosen.end()) return it->second;
        int answer = no_font;
        if (has_glyph(defs[static_cast<std::size_t>(style)], c)) {
            answer = primary;
        } else {
            for (std::size_t i = 0; i < fallbacks.size() && answer == no_font; ++i)
                if (load(fallbacks[i]) && has_glyph(fallbacks[i].def, c)) answer = static_cast<int>(i);
        }
        check("looking up a glyph");
        chosen.emplace(key, answer);
        return answer;
    }

    bool load(fallback& f) {
        if (!f.tried) {
            f.tried = true;
            std::error_code ec;
            if (!std::filesystem::is_regular_file(f.path, ec)) return false;
            // libharu reads a composite glyph's component ids as signed 16-bit numbers: in a font
            // of more than 32767 glyphs they go negative, the components are not embedded (the
            // glyph prints blank) and libharu writes outside its glyph table. Such a font is not used.
            if (truetype_glyph_count(f.path) > 32767) return false;
            const char* name = HPDF_LoadTTFontFromFile(doc, f.path.c_str(), HPDF_TRUE);
            check("loading font " + f.path);
            if (!name) throw aid_error("font file " + f.path + " could not be read");
            f.font = HPDF_GetFont(doc, name, "UTF-8");
            check("loading font " + f.path);
            f.def = truetype_def(f.font);
            if (!f.def) throw aid_error("font " + f.path + " is not a TrueType font");
        }
        return f.def != nullptr;
    }

    HPDF_Font font_at(face style, int which) const {
        return which == primary ? font(style) : fallbacks[static_cast<std::size_t>(which)].font;
    }

    // `text` cut where the font drawing it changes; characters no font draws are left out.
    std::vector<std::pair<int, std::string>> segments(face style, const std::string& text) {
        std::vector<std::pair<int, std::string>> out;
        for (std::size_t i = 0; i < text.size();) {
            const auto b = static_cast<unsigned char>(text[i]);
            std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
            n = std::min(n, text.size() - i);
            const std::string piece = text.substr(i, n);
            i += n;
            const std::vector<char32_t> cps = code_points(piece);
            const int which = font_for(style, cps.empty() ? 0xFFFD : cps.front());
            if (which == no_font) continue;
            if (out.empty() || out.back().first != which) out.emplace_back(which, std::string());
            out.back().second += piece;
        }
        return out;
    }

    double measure(HPDF_Font f, double size, const std::string& text) {
        const HPDF_TextWidth w = HPDF_Font_TextWidth(f, reinterpret_cast<const HPDF_BYTE*>(text.data()), static_cast<HPDF_UINT>(text.size()));
        check("measuring text");
        return static_cast<double>(w.width) * size / 1000.0;
    }
};

pdf_backend::pdf_backend(const std::string& font_dir, std::vector<std::string> fallbacks) : self_(std::make_unique<impl>()) {
    for (std::string& path : fallbacks) self_->fallbacks.push_back(impl::fallback{std::move(path)});
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
        self_->defs[i] = truetype_def(self_->fonts[i]);
        if (!self_->defs[i]) throw aid_error("font " + self_->font_names[i] + " is not a TrueType font");
    }
}

pdf_backend::~pdf_backend() {
    if (self_ && self_->doc) HPDF_Free(self_->doc);
}

double pdf_backend::width(face style, double size, const std::string& text) {
    if (text.empty()) return 0;
    if (all_ascii(text)) return self_->measure(self_->font(style), size, text);
    double w = 0;
    for (const auto& [which, piece] : self_->segments(style, text)) w += self_->measure(self_->font_at(style, which), size, piece);
    return w;
}

void pdf_backend::check_glyphs(face style, const std::string& text) {
    if (all_ascii(text)) return;
    for (char32_t c : code_points(text)) {
        if (self_->font_for(style, c) != impl::no_font) continue;
        bool known = false;
        for (const missing_glyph& m : self_->missing) known = known || m.code_point == c;
        if (!known) self_->missing.push_back(missing_glyph{c, text});
    }
}

const std::vector<missing_glyph>& pdf_backend::missing() const { return self_->missing; }

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
                // A run mixing DejaVu and a fallback font is drawn piece by piece, each piece
                // starting where the one before ends.
                std::vector<std::pair<int, std::string>> pieces;
                if (all_ascii(t->text)) pieces.emplace_back(impl::primary, t->text);
                else pieces = self_->segments(t->style, t->text);
                double x = t->x;
                for (const auto& [which, piece] : pieces) {
                    const HPDF_Font f = self_->font_at(t->style, which);
                    HPDF_Page_BeginText(pg);
                    HPDF_Page_SetFontAndSize(pg, f, static_cast<HPDF_REAL>(t->size));
                    HPDF_Page_SetGrayFill(pg, static_cast<HPDF_REAL>(t->grey));
                    HPDF_Page_TextOut(pg, static_cast<HPDF_REAL>(x), static_cast<HPDF_REAL>(h - t->y), piece.c_str());
                    HPDF_Page_EndText(pg);
                    if (pieces.size() > 1) x += self_->measure(f, t->size, piece);
                }
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
    return mend_to_unicode(bytes);
}

}  // namespace wp::docgen
