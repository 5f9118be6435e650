// Layout on a display list. Units are points; y grows down from the page's top edge.
#include "layout.hpp"

#include "pdf_backend.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace wp::docgen {

namespace {

// Type sizes and spacing: a clear hierarchy at sizes a player aid can afford. The body is never
// below 7.5 pt: when a page can be saved, the lines move closer together, never the type smaller
// (see `layout`).
struct type_sizes {
    double body = 7.5;
    double small = 6.9;
    double heading = 9.2;
    double caption = 7.9;
    double leading = 1.15;   // line height / type size, for the body, tables and notes
    double gap = 0.9;        // after a paragraph
    double pad_y = 1.4;      // above and below a table cell's text
    // Closer lines, the same type: `k` 0 as set, 1 as tight as an aid may be.
    static type_sizes tighter(double k) {
        type_sizes t;
        t.leading = 1.15 - 0.07 * k;
        t.gap = 0.9 - 0.6 * k;
        t.pad_y = 1.4 - 0.5 * k;
        return t;
    }
};
constexpr double title_size = 15;
constexpr double subtitle_size = 7.5;
constexpr double footer_size = 5.8;
constexpr double leading = 1.15;  // line height / type size of the title and footer
constexpr double muted_grey = 0.42;
constexpr double indent_step = 9;
constexpr double hanging = 6;      // continuation lines of an entry
constexpr double cell_pad_x = 2.2;
constexpr double margin = 24;  // 0.33 in (8.5 mm) at the sides: inside what office printers can print
constexpr double margin_y = 20;  // 0.28 in at the top and bottom, still above the usual 0.25 in
constexpr double gutter = 12;
constexpr double min_table_scale = 0.72;
constexpr double grid_gap = 4;  // space above a grid that does not open a column

struct piece {
    face style = face::regular;
    bool muted = false;
    std::string text;
    double width = 0;
};

struct word {
    std::vector<piece> pieces;
    double width = 0;
};

struct run {
    double dx = 0;
    face style = face::regular;
    bool muted = false;
    std::string text;
    double width = 0;
};

struct line {
    std::vector<run> runs;
    double width = 0;
};

std::string utf8_of(char32_t c) {
    std::string s;
    if (c < 0x80) s += static_cast<char>(c);
    else if (c < 0x800) { s += static_cast<char>(0xC0 | (c >> 6)); s += static_cast<char>(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) {
        s += static_cast<char>(0xE0 | (c >> 12)); s += static_cast<char>(0x80 | ((c >> 6) & 0x3F)); s += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (c >> 18)); s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F)); s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

class typesetter {
public:
    explicit typesetter(font_metrics& fm) : fm_(fm) {}

    double width(face f, double size, const std::string& s) { return fm_.width(f, size, s); }

    // Words of a rich text: pieces between spaces; adjacent spans without a space stay one word.
    std::vector<word> words(const rich_text& t, double size) {
        std::vector<word> out;
        bool open = false;
        for (const span& sp : t) {
            fm_.check_glyphs(sp.style, sp.text);
            std::size_t i = 0;
            while (i < sp.text.size()) {
                if (sp.text[i] == ' ') {
                    open = false;
                    ++i;
                    continue;
                }
                const std::size_t end = std::min(sp.text.find(' ', i), sp.text.size());
                if (!open) out.emplace_back();
                open = true;
                out.back().pieces.push_back(piece{sp.style, sp.muted, sp.text.substr(i, end - i), 0});
                i = end;
            }
        }
        out = glue_operators(std::move(out));
        for (word& w : out) {
            w.width = 0;
            for (piece& p : w.pieces) {
                p.width = width(p.style, size, p.text);
                w.width += p.width;
            }
        }
        return out;
    }

    // No line starts with an operator, and a short operand stays with it: "1d6 + 2" and
    // "reputation −2" never break at the sign.
    static std::vector<word> glue_operators(std::vector<word> in) {
        static const std::vector<std::string> operators = {"+", "−", "-", "=", "×", "÷", "≤", "≥", "<", ">"};
        auto text_of = [](const word& w) {
            std::string t;
            for (const piece& p : w.pieces) t += p.text;
            return t;
        };
        std::vector<word> out;
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::string t = text_of(in[i]);
            const bool is_operator = std::find(operators.begin(), operators.end(), t) != operators.end();
            if (!is_operator || out.empty()) {
                out.push_back(std::move(in[i]));
                continue;
            }
            word& prev = out.back();
            prev.pieces.push_back(piece{in[i].pieces[0].style, in[i].pieces[0].muted, " " + t, 0});
            if (i + 1 < in.size() && code_points(text_of(in[i + 1])).size() <= 3) {
                ++i;
                for (std::size_t k = 0; k < in[i].pieces.size(); ++k) {
                    piece p = in[i].pieces[k];
                    if (k == 0) p.text = " " + p.text;
                    prev.pieces.push_back(std::move(p));
                }
            }
        }
        return out;
    }

    // Splits a word wider than `max` into parts that fit, by characters.
    std::vector<word> split(const word& w, double size, double max) {
        std::vector<word> parts(1);
        for (const piece& p : w.pieces) {
            for (char32_t c : code_points(p.text)) {
                const std::string ch = utf8_of(c);
                const double cw = width(p.style, size, ch);
                if (parts.back().width + cw > max && !parts.back().pieces.empty()) parts.emplace_back();
                word& cur = parts.back();
                if (cur.pieces.empty() || cur.pieces.back().style != p.style || cur.pieces.back().muted != p.muted)
                    cur.pieces.push_back(piece{p.style, p.muted, "", 0});
                cur.pieces.back().text += ch;
                cur.pieces.back().width += cw;
                cur.width += cw;
            }
        }
        return parts;
    }

    // Greedy line breaking: the first line `first` wide, the others `rest` wide.
    std::vector<line> lines(const rich_text& t, double size, double first, double rest) {
        // A word measured to exactly the room it was given (a grid column sized to its longest
        // word) must fit: widths are sums of floats, so compare with a little slack.
        constexpr double slack = 0.01;
        first += slack;
        rest += slack;
        std::vector<line> out(1);
        auto max_now = [&] { return out.size() == 1 ? first : rest; };
        for (const word& original : words(t, size)) {
            std::vector<word> parts{original};
            if (original.width > std::min(first, rest)) parts = split(original, size, std::min(first, rest));
            for (std::size_t k = 0; k < parts.size(); ++k) {
                const word& w = parts[k];
                line* cur = &out.back();
                const bool glued = k > 0;  // the parts of a split word follow each other directly
                double space = 0;
                if (!cur->runs.empty() && !glued) space = width(cur->runs.back().style, size, " ");
                if (!cur->runs.empty() && cur->width + space + w.width > max_now()) {
                    out.emplace_back();
                    cur = &out.back();
                    space = 0;
                }
                if (space > 0) {
                    cur->runs.back().text += ' ';
                    cur->runs.back().width += space;
                    cur->width += space;
                }
                for (const piece& p : w.pieces) {
                    if (cur->runs.empty() || cur->runs.back().style != p.style || cur->runs.back().muted != p.muted)
                        cur->runs.push_back(run{cur->width, p.style, p.muted, "", 0});
                    cur->runs.back().text += p.text;
                    cur->runs.back().width += p.width;
                    cur->width += p.width;
                }
            }
        }
        if (out.size() > 1 && out.back().runs.empty()) out.pop_back();
        return out;
    }

private:
    font_metrics& fm_;
};

struct geometry {
    double width = 0, height = 0;
    double left = margin, right = margin, top = margin_y, bottom = margin_y;
    int columns = 2;
    double column_width() const { return (width - left - right - gutter * (columns - 1)) / columns; }
    double column_x(int c) const { return left + c * (column_width() + gutter); }
};

class flow {
public:
    flow(const document& doc, font_metrics& fm, geometry g, type_sizes ty) : doc_(doc), ts_(fm), g_(g), ty_(ty) {}

    display_list lay_out() {
        out_.width = g_.width;
        out_.height = g_.height;
        // The page number shares the first footer line.
        footer_height_ = static_cast<double>(footer_lines(1, 1).size() - 1) * footer_size * leading + 6;
        new_page();
        title();
        for (std::size_t i = 0; i < doc_.blocks.size(); ++i) {
            const block& b = doc_.blocks[i];
            const block* next = i + 1 < doc_.blocks.size() ? &doc_.blocks[i + 1] : nullptr;
            if (const auto* h = std::get_if<heading>(&b)) place_heading(*h, next);
            else if (const auto* p = std::get_if<paragraph>(&b)) place_paragraph(*p);
            else if (const auto* gr = std::get_if<grid>(&b)) place_grid(*gr);
        }
        for (std::size_t p = 0; p < out_.pages.size(); ++p) footer(p);
        return std::move(out_);
    }

private:
    // ------------------------------------------------------------ pages and columns

    double content_bottom() const { return g_.height - g_.bottom - footer_height_; }
    double x() const { return g_.column_x(column_); }
    double w() const { return g_.column_width(); }
    page& current() { return out_.pages.back(); }

    void new_page() {
        out_.pages.emplace_back();
        column_ = 0;
        y_ = g_.top;
        column_top_ = g_.top;
    }
    void next_column() {
        if (column_ + 1 < g_.columns) {
            ++column_;
            y_ = column_top_;
        } else {
            new_page();
        }
    }
    bool at_column_top() const { return y_ <= column_top_ + 0.01; }
    // Moves on when `h` more points do not fit here (unless nothing is in the column yet).
    void need(double h) {
        if (y_ + h > content_bottom() && !at_column_top()) next_column();
    }

    void text_at(double x, double baseline, double size, const run& r, double grey_override = -1) {
        const double grey = grey_override >= 0 ? grey_override : r.muted ? muted_grey : 0;
        current().items.push_back(text_run{x + r.dx, baseline, r.style, size, grey, r.text, r.width});
    }
    void line_at(double x, double baseline, double size, const line& l, double grey_override = -1) {
        for (const run& r : l.runs) text_at(x, baseline, size, r, grey_override);
    }
    void rule(double x1, double y1, double x2, double y2, double width, double grey) {
        current().items.push_back(rule_line{x1, y1, x2, y2, width, grey});
    }
    void fill(double x, double y, double w, double h, double grey) { current().items.push_back(fill_rect{x, y, w, h, grey}); }

    // ------------------------------------------------------------ title and footer

    // The title, with the subtitle on its baseline to the right when both fit on one line.
    void title() {
        const double full = g_.width - g_.left - g_.right;
        const double title_w = ts_.width(face::bold, title_size, doc_.title);
        const double subtitle_w = ts_.width(face::regular, subtitle_size, doc_.subtitle);
        if (title_w + 12 + subtitle_w <= full) {
            y_ += title_size;
            line_at(g_.left, y_, title_size, ts_.lines({span{doc_.title, face::bold, false}}, title_size, full, full).front());
            line_at(g_.left + full - subtitle_w, y_, subtitle_size, ts_.lines({span{doc_.subtitle, face::regular, true}}, subtitle_size, full, full).front());
        } else {
            for (const line& l : ts_.lines({span{doc_.title, face::bold, false}}, title_size, full, full)) {
                y_ += title_size;
                line_at(g_.left, y_, title_size, l);
                y_ += title_size * (leading - 1);
            }
            for (const line& l : ts_.lines({span{doc_.subtitle, face::regular, true}}, subtitle_size, full, full)) {
                y_ += subtitle_size * leading;
                line_at(g_.left, y_, subtitle_size, l);
            }
        }
        y_ += 4;
        rule(g_.left, y_, g_.width - g_.right, y_, 1.0, 0);
        y_ += 6;
        column_top_ = y_;
    }

    std::vector<line> footer_lines(std::size_t page_no, std::size_t pages) {
        const double full = g_.width - g_.left - g_.right;
        rich_text t;
        for (std::size_t i = 0; i < doc_.footer.size(); ++i) t.push_back(span{(i ? " · " : "") + doc_.footer[i], face::regular, true});
        const std::string number = "page " + std::to_string(page_no) + " of " + std::to_string(pages);
        // One width for every page number, so the footer wraps (and reserves room) the same way
        // on every page.
        const double number_w = ts_.width(face::bold, footer_size, "page 999 of 999") + 8;
        auto ls = ts_.lines(t, footer_size, full - number_w, full - number_w);
        line n;
        n.width = ts_.width(face::bold, footer_size, number);
        n.runs.push_back(run{0, face::bold, false, number, n.width});
        ls.insert(ls.begin(), n);
        return ls;
    }

    void footer(std::size_t p) {
        const double full = g_.width - g_.left - g_.right;
        auto ls = footer_lines(p + 1, out_.pages.size());
        page& pg = out_.pages[p];
        double y = g_.height - g_.bottom - (ls.size() - 1) * footer_size * leading;
        pg.items.push_back(rule_line{g_.left, y - footer_size * leading, g_.width - g_.right, y - footer_size * leading, 0.5, 0.3});
        // the page number sits at the right of the first footer line
        for (const run& r : ls[0].runs)
            pg.items.push_back(text_run{g_.left + full - ls[0].width + r.dx, y, r.style, footer_size, 0, r.text, r.width});
        for (std::size_t i = 1; i < ls.size(); ++i) {
            for (const run& r : ls[i].runs)
                pg.items.push_back(text_run{g_.left + r.dx, y, r.style, footer_size, r.muted ? muted_grey : 0, r.text, r.width});
            y += footer_size * leading;
        }
    }

    // ------------------------------------------------------------ headings and paragraphs

    // The height the start of the next block needs, so a heading never ends a column.
    // `ahead`: what comes before it here (a heading's band).
    double opening_height(const block* next, double ahead) {
        if (!next) return 0;
        // a margin, so the grid placed after the heading splits wherever this said it would
        if (const auto* g = std::get_if<grid>(next)) return grid_gap + grid_start(*g, ahead + grid_gap, 6).need;
        return ty_.body * ty_.leading * 3;
    }

    void place_heading(const heading& h, const block* next) {
        const double band = ty_.heading * 1.45;
        const double before = at_column_top() ? 0 : 4;
        need(before + band + 2.5 + opening_height(next, before + band + 2.5));
        if (!at_column_top()) y_ += before;
        fill(x(), y_, w(), band, 0.22);
        const auto ls = ts_.lines({span{h.text, face::bold, false}}, ty_.heading, w() - 8, w() - 8);
        line_at(x() + 4, y_ + band / 2 + ty_.heading * 0.36, ty_.heading, ls.front(), 1.0);
        y_ += band + 2.5;
    }

    void place_paragraph(const paragraph& p) {
        const double size = p.small ? ty_.small : ty_.body;
        const double indent = p.indent * indent_step;
        const auto ls = ts_.lines(p.text, size, w() - indent, w() - indent - hanging);
        const double lh = size * ty_.leading;
        // Keep two lines together at the foot of a column.
        need(std::min<double>(2, static_cast<double>(ls.size())) * lh);
        for (std::size_t i = 0; i < ls.size(); ++i) {
            need(lh);
            y_ += lh;
            line_at(x() + indent + (i ? hanging : 0), y_ - size * 0.24, size, ls[i]);
        }
        y_ += p.small ? ty_.gap * 0.45 : ty_.gap;
    }

    // ------------------------------------------------------------ grids

    struct fitted {
        double size = 0;
        std::vector<double> widths;
    };

    // Column widths: each column gets at least its longest word; what is left goes to the
    // columns in proportion to how much more their longest cell wants.
    fitted fit(const grid& g, double avail) {
        const std::size_t n = g.header.empty() ? (g.rows.empty() ? 0 : g.rows[0].size()) : g.header[0].size();
        for (double scale = 1.0;; scale -= 0.04) {
            const double size = ty_.body * std::max(scale, min_table_scale);
            // lo: the longest word of a column (it is never narrower); hi: its longest cell on one
            // line; natural[r][c]: each cell's one-line width.
            std::vector<double> lo(n, 0), hi(n, 0);
            std::vector<std::vector<double>> natural;
            const double space = ts_.width(face::regular, size, " ");
            auto measure = [&](const std::vector<cell>& row) {
                natural.emplace_back(n, 0.0);
                for (std::size_t c = 0; c < n && c < row.size(); ++c) {
                    double total = 0;
                    const auto ws = ts_.words(row[c].text, size);
                    for (std::size_t i = 0; i < ws.size(); ++i) {
                        lo[c] = std::max(lo[c], ws[i].width + 2 * cell_pad_x);
                        total += ws[i].width + (i ? space : 0);
                    }
                    natural.back()[c] = total;
                    hi[c] = std::max(hi[c], total + 2 * cell_pad_x);
                }
            };
            for (const auto& r : g.header) measure(r);
            for (const auto& r : g.rows) measure(r);
            double sum_lo = 0, sum_hi = 0;
            for (std::size_t c = 0; c < n; ++c) {
                sum_lo += lo[c];
                sum_hi += hi[c];
            }
            fitted f{size, std::vector<double>(n, 0)};
            if (sum_hi <= avail) {
                // Everything fits on one line: spread the spare room in proportion.
                for (std::size_t c = 0; c < n; ++c) f.widths[c] = hi[c] + (avail - sum_hi) * hi[c] / sum_hi;
                return f;
            }
            if (sum_lo <= avail) {
                // Greedy: give the room a little at a time to the column where it saves the most
                // lines (a row is as tall as its fullest cell); then share what no column can use.
                f.widths = lo;
                double spare = avail - sum_lo;
                // Row lines (the height), plus a little for every wrapped cell: between two equally
                // tall layouts, the one that splits fewer cells reads better.
                auto lines_of = [&](const std::vector<double>& widths) {
                    double total = 0;
                    for (const auto& row : natural) {
                        double most = 1;
                        for (std::size_t c = 0; c < n; ++c) {
                            const double k = std::max(1.0, std::ceil(row[c] / std::max(1.0, widths[c] - 2 * cell_pad_x) - 1e-9));
                            most = std::max(most, k);
                            total += 0.05 * (k - 1);
                        }
                        total += most;
                    }
                    return total;
                };
                // Candidate widths per column: where some cell of it loses a line (a cell W wide on
                // k lines needs W / (k - 1) to fit on k - 1). Take the jump that saves the most
                // lines per point of width, until none saves any.
                double current = lines_of(f.widths);
                for (;;) {
                    std::size_t best = n;
                    double best_width = 0, best_rate = 0, best_lines = current;
                    for (std::size_t c = 0; c < n; ++c) {
                        std::vector<double> candidates;
                        const double inner = f.widths[c] - 2 * cell_pad_x;
                        for (const auto& row : natural) {
                            const double k = std::ceil(row[c] / std::max(1.0, inner) - 1e-9);
                            if (k > 1) candidates.push_back(row[c] / (k - 1) + 2 * cell_pad_x + 0.01);
                        }
                        std::sort(candidates.begin(), candidates.end());
                        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
                        int tried = 0;
                        for (double cw : candidates) {
                            if (cw <= f.widths[c] || cw - f.widths[c] > spare) continue;
                            if (++tried > 8) break;
                            auto trial = f.widths;
                            trial[c] = cw;
                            const double l = lines_of(trial);
                            const double rate = (current - l) / (cw - f.widths[c]);
                            if (l < current - 1e-9 && rate > best_rate) {
                                best = c;
                                best_width = cw;
                                best_rate = rate;
                                best_lines = l;
                            }
                        }
                    }
                    if (best == n) break;
                    spare -= best_width - f.widths[best];
                    f.widths[best] = best_width;
                    current = best_lines;
                }
                double want = 0;
                for (std::size_t c = 0; c < n; ++c) want += std::max(0.0, hi[c] - f.widths[c]);
                for (std::size_t c = 0; c < n; ++c)
                    f.widths[c] += want > 0 ? spare * std::max(0.0, hi[c] - f.widths[c]) / want : spare / static_cast<double>(n);
                return f;
            }
            if (scale <= min_table_scale) {
                // Still too wide at the smallest type: share the width; long words break.
                for (std::size_t c = 0; c < n; ++c) f.widths[c] = avail * lo[c] / sum_lo;
                return f;
            }
        }
    }

    struct laid_row {
        std::vector<std::vector<line>> cells;
        double height = 0;
    };

    laid_row lay_row(const std::vector<cell>& row, const fitted& f) {
        laid_row r;
        std::size_t most = 1;
        for (std::size_t c = 0; c < f.widths.size(); ++c) {
            const double inner = f.widths[c] - 2 * cell_pad_x;
            r.cells.push_back(c < row.size() ? ts_.lines(row[c].text, f.size, inner, inner) : std::vector<line>{});
            most = std::max(most, r.cells.back().size());
        }
        r.height = most * f.size * ty_.leading + 2 * ty_.pad_y;
        return r;
    }

    // Draws one row: its shading, then the rule above it (drawn after the shading so it stays
    // visible; `top_width` 0 for none), its cells and the column rules.
    struct top_rule {
        double from = 0;  // x where it starts (past a group's label column inside a group)
        double width = 0;
        double grey = 0;
    };
    void draw_row(const std::vector<cell>& row, const laid_row& r, const fitted& f, double shade, top_rule top) {
        double cx = x();
        if (shade < 1) fill(x(), y_, w(), r.height, shade);
        if (top.width > 0) rule(top.from, y_, x() + w(), y_, top.width, top.grey);
        for (std::size_t c = 0; c < r.cells.size(); ++c) {
            const double inner = f.widths[c] - 2 * cell_pad_x;
            double by = y_ + ty_.pad_y;
            for (const line& l : r.cells[c]) {
                by += f.size * ty_.leading;
                const align a = c < row.size() ? row[c].alignment : align::left;
                const double dx = a == align::right ? inner - l.width : a == align::centre ? (inner - l.width) / 2 : 0;
                line_at(cx + cell_pad_x + dx, by - f.size * 0.24, f.size, l);
            }
            if (c > 0) rule(cx, y_, cx, y_ + r.height, 0.3, 0.55);
            cx += f.widths[c];
        }
        y_ += r.height;
    }

    void caption(const grid& g, bool continued) {
        rich_text t{span{g.caption + (continued ? " (continued)" : ""), face::bold, false}};
        if (!g.anchor.empty()) t.push_back(span{" " + g.anchor, face::regular, true});
        for (const line& l : ts_.lines(t, ty_.caption, w(), w() - hanging)) {
            y_ += ty_.caption * ty_.leading;
            line_at(x(), y_ - ty_.caption * 0.24, ty_.caption, l);
        }
        y_ += 1.5;
    }

    void header_block(const grid& g, const fitted& f, bool continued) {
        caption(g, continued);
        for (std::size_t i = 0; i < g.header.size(); ++i)
            draw_row(g.header[i], lay_row(g.header[i], f), f, 0.80, i == 0 ? top_rule{x(), 0.8, 0} : top_rule{x(), 0.3, 0.55});
    }

    // What a grid needs where it starts: its header and first row, or all of it when it is
    // short enough to keep whole. A heading before it asks for the same room. A short grid
    // of four rows or more that does not fit whole where half of it would (`ahead` points
    // further down, with `margin` to spare) starts here with two rows and goes on in the next
    // column under its header again, rather than leaving the rest of the column empty.
    struct grid_opening {
        fitted f;
        std::vector<laid_row> rows;
        double notes_h = 0;
        double need = 0;
    };
    grid_opening grid_start(const grid& g, double ahead = 0, double margin = 0) {
        grid_opening o{fit(g, w()), {}, 0, 0};
        for (const auto& r : g.rows) o.rows.push_back(lay_row(r, o.f));
        double header_h = ty_.caption * ty_.leading * 2 + 1.5;
        for (const auto& h : g.header) header_h += lay_row(h, o.f).height;
        double body_h = 0;
        for (const laid_row& r : o.rows) body_h += r.height;
        for (const std::string& n : g.notes)
            o.notes_h += static_cast<double>(ts_.lines({span{n, face::regular, true}}, ty_.small, w(), w() - hanging).size()) * ty_.small * ty_.leading + 0.8;
        const bool short_grid = header_h + body_h + o.notes_h <= (content_bottom() - column_top_) / 3;
        const double left = content_bottom() - y_ - ahead;
        const bool split = short_grid && o.rows.size() >= 4 && header_h + body_h + o.notes_h > left &&
                           left >= header_h + body_h / 2 + margin;
        o.need = header_h + (split         ? o.rows[0].height + o.rows[1].height
                             : short_grid  ? body_h + o.notes_h
                             : o.rows.empty() ? 0 : o.rows[0].height);
        return o;
    }

    void place_grid(const grid& g) {
        const double before = at_column_top() ? 0 : grid_gap;
        const grid_opening o = grid_start(g, before);
        const fitted& f = o.f;
        const std::vector<laid_row>& rows = o.rows;
        const double notes_h = o.notes_h;
        need(before + o.need);
        if (!at_column_top()) y_ += before;
        header_block(g, f, false);
        // Zebra shading by group: a row whose first cell is empty continues the group above.
        auto continues_group = [](const std::vector<cell>& r) {
            if (r.empty()) return false;
            for (const span& x : r[0].text)
                if (!x.text.empty()) return false;
            return true;
        };
        bool grouped = false;
        for (const auto& r : g.rows) grouped = grouped || continues_group(r);
        int band = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const bool starts_group = !grouped || !continues_group(g.rows[i]);
            if (i > 0 && starts_group) ++band;
            // The last row keeps the notes company.
            const double tail = i + 1 == rows.size() ? notes_h : 0;
            bool after_header = i == 0;
            // Never carry the last row alone into a continued table: the last two go together.
            const bool widow = i + 2 == rows.size() && !after_header &&
                               y_ + rows[i].height + rows[i + 1].height + notes_h > content_bottom();
            if (widow || y_ + rows[i].height + tail > content_bottom()) {
                rule(x(), y_, x() + w(), y_, 0.8, 0);
                next_column();
                header_block(g, f, true);
                after_header = true;
            }
            // Under the header a firm rule; between groups a darker one; inside a group a thin
            // one that leaves the group's label column open.
            const top_rule top = after_header ? top_rule{x(), 0.6, 0}
                               : starts_group && grouped ? top_rule{x(), 0.6, 0.2}
                               : grouped && !f.widths.empty() ? top_rule{x() + f.widths[0], 0.3, 0.55}
                                                              : top_rule{x(), 0.3, 0.55};
            draw_row(g.rows[i], rows[i], f, band % 2 ? 0.92 : 1.0, top);
        }
        rule(x(), y_, x() + w(), y_, 0.8, 0);
        y_ += 1;
        for (const std::string& n : g.notes) place_paragraph(paragraph{{span{n, face::regular, true}}, 0, true});
        y_ += 2;
    }

    const document& doc_;
    typesetter ts_;
    geometry g_;
    type_sizes ty_;
    display_list out_;
    int column_ = 0;
    double y_ = 0;
    double column_top_ = 0;
    double footer_height_ = 0;
};

std::string fixed(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", std::round(v * 10) / 10 + 0.0);
    return buffer;
}

const char* face_name(face f) { return f == face::bold ? "bold" : f == face::mono ? "mono" : "regular"; }

}  // namespace

display_list layout(const document& doc, font_metrics& metrics, paper size) {
    geometry g;
    if (size == paper::letter) {
        g.width = 612;
        g.height = 792;
    } else {
        g.width = 595.28;
        g.height = 841.89;
    }
    // A page saved is worth closer lines, never a smaller type (the body stays 7.5 pt): when
    // tighter spacing needs fewer pages, the loosest such spacing is used (a two-page aid stays
    // two pages when options or Letter paper add a few lines).
    display_list best = flow(doc, metrics, g, type_sizes{}).lay_out();
    for (double k : {0.5, 1.0}) {
        display_list tighter = flow(doc, metrics, g, type_sizes::tighter(k)).lay_out();
        if (tighter.pages.size() < best.pages.size()) return tighter;
    }
    return best;
}

std::string display_list_text(const display_list& list) {
    std::ostringstream out;
    out << "paper " << fixed(list.width) << " x " << fixed(list.height) << ", " << list.pages.size() << " pages\n";
    for (std::size_t p = 0; p < list.pages.size(); ++p) {
        out << "page " << p + 1 << "\n";
        for (const item& it : list.pages[p].items) {
            if (const auto* t = std::get_if<text_run>(&it))
                out << "  text " << fixed(t->x) << " " << fixed(t->y) << " w " << fixed(t->width) << " " << face_name(t->style) << " " << fixed(t->size)
                    << (t->grey > 0 ? " grey " + fixed(t->grey) : "") << " \"" << t->text << "\"\n";
            else if (const auto* r = std::get_if<rule_line>(&it))
                out << "  rule " << fixed(r->x1) << " " << fixed(r->y1) << " " << fixed(r->x2) << " " << fixed(r->y2) << " w "
                    << fixed(r->width) << (r->grey > 0 ? " grey " + fixed(r->grey) : "") << "\n";
            else if (const auto* f = std::get_if<fill_rect>(&it))
                out << "  fill " << fixed(f->x) << " " << fixed(f->y) << " " << fixed(f->w) << " " << fixed(f->h) << " grey "
                    << fixed(f->grey) << "\n";
        }
    }
    return out.str();
}

}  // namespace wp::docgen
