// Diagnostic kinds, the collecting sink, "did you mean" and the three renderers.
#include "westphalia/dsl/diagnostics.hpp"
#include "westphalia/dsl/json_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

namespace wp::dsl {

const std::vector<diag_kind_info>& all_diag_kinds() {
    static const std::vector<diag_kind_info> kinds = {
#define WP_DIAG(id, sev, kebab, what) {diag_kind::id, severity::sev, kebab, what},
#include "westphalia/dsl/diagnostic_kinds.def"
#undef WP_DIAG
    };
    return kinds;
}

const diag_kind_info& info(diag_kind k) { return all_diag_kinds().at(static_cast<std::size_t>(k)); }

void diagnostic_sink::report(diagnostic d) {
    if (d.sev == severity::error) ++errors_;
    items_.push_back(std::move(d));
}

void diagnostic_sink::error(diag_kind k, span where, std::string message, std::vector<diag_note> notes) {
    report({k, info(k).default_severity, where, std::move(message), std::move(notes)});
}

void diagnostic_sink::error(diag_kind k, std::string message) {
    report({k, info(k).default_severity, std::nullopt, std::move(message), {}});
}

namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbouring characters each cost 1, so "dekc" is one step from "deck".
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

const char* severity_word(severity s) {
    switch (s) {
        case severity::error: return "error";
        case severity::warning: return "warning";
        case severity::note: return "note";
    }
    return "error";
}

struct located {
    std::string path;
    line_col begin;
    line_col end;
};

located locate(const source_manager& sources, const span& s) {
    const source_file& f = sources.get(s.file);
    return {f.path, sources.position(s.file, s.begin), sources.position(s.file, std::max(s.begin, s.end))};
}

std::string prefix(const source_manager& sources, const std::optional<span>& where, const std::string& file = {}) {
    if ((!where || where->file >= sources.size()) && !file.empty()) return file + ": ";
    if (!where || where->file >= sources.size()) return "westphalia: ";
    const located l = locate(sources, *where);
    return l.path + ":" + std::to_string(l.begin.line) + ":" + std::to_string(l.begin.column) + ": ";
}

// The source line and a caret under the span (a `~` run for the rest of a range on that line).
// Tabs in the line are kept in the caret's padding so the caret stays aligned.
void quote(std::ostream& out, const source_manager& sources, const span& s, bool color) {
    if (s.file >= sources.size()) return;
    const located l = locate(sources, s);
    const std::string_view text = sources.line_text(s.file, l.begin.line);
    const std::string number = std::to_string(l.begin.line);
    out << ' ' << std::string(number.size() < 4 ? 4 - number.size() : 0, ' ') << number << " | " << text << '\n';
    out << ' ' << std::string(std::max<std::size_t>(number.size(), 4), ' ') << " | ";
    std::uint32_t column = 1;
    for (std::size_t i = 0; i < text.size() && column < l.begin.column; ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) == 0x80) continue;
        out << (c == '\t' ? '\t' : ' ');
        ++column;
    }
    if (color) out << ansi::caret;
    out << '^';
    if (l.end.line == l.begin.line && l.end.column > l.begin.column + 1) {
        out << std::string(l.end.column - l.begin.column - 1, '~');
    }
    if (color) out << ansi::reset;
    out << '\n';
}

nlohmann::json position_json(const source_manager& sources, const std::optional<span>& where, const std::string& file = {}) {
    if ((!where || where->file >= sources.size()) && !file.empty()) return {{"file", file}};
    if (!where || where->file >= sources.size()) return nullptr;
    const located l = locate(sources, *where);
    return {{"file", l.path},          {"line", l.begin.line},    {"column", l.begin.column},
            {"end_line", l.end.line}, {"end_column", l.end.column}};
}

}  // namespace

std::optional<std::string> closest_name(std::string_view wanted, const std::vector<std::string>& candidates) {
    const std::size_t limit = std::max<std::size_t>(1, wanted.size() / 3);
    std::optional<std::string> best;
    std::size_t best_distance = limit + 1;
    for (const std::string& c : candidates) {
        if (c == wanted) continue;
        const std::size_t d = edit_distance(wanted, c);
        if (d < best_distance || (d == best_distance && best && c < *best)) {
            best_distance = d;
            best = c;
        }
    }
    if (best_distance > limit) return std::nullopt;
    return best;
}

std::vector<diagnostic> shown_diagnostics(const source_manager& sources, std::vector<diagnostic> diags,
                                          std::size_t max_errors, std::size_t& hidden_errors) {
    auto key = [&](const diagnostic& d) {
        if (!d.where || d.where->file >= sources.size()) return std::make_tuple(d.file, 0u, 0u);
        const located l = locate(sources, *d.where);
        return std::make_tuple(l.path, l.begin.line, l.begin.column);
    };
    std::stable_sort(diags.begin(), diags.end(), [&](const diagnostic& a, const diagnostic& b) { return key(a) < key(b); });

    std::size_t shown_errors = 0;
    hidden_errors = 0;
    std::vector<diagnostic> shown;
    for (diagnostic& d : diags) {
        if (d.sev == severity::error) {
            if (max_errors != 0 && shown_errors >= max_errors) {
                ++hidden_errors;
                continue;
            }
            ++shown_errors;
        }
        shown.push_back(std::move(d));
    }
    return shown;
}

void render(std::ostream& out, const source_manager& sources, std::vector<diagnostic> diags, diag_format fmt,
            std::size_t max_errors, bool color) {
    std::size_t hidden_errors = 0;
    const std::vector<diagnostic> kept = shown_diagnostics(sources, std::move(diags), max_errors, hidden_errors);
    std::vector<const diagnostic*> shown;
    for (const diagnostic& d : kept) shown.push_back(&d);

    if (fmt == diag_format::json) {
        nlohmann::json all = nlohmann::json::array();
        for (const diagnostic* d : shown) {
            nlohmann::json notes = nlohmann::json::array();
            for (const diag_note& n : d->notes) notes.push_back({{"location", position_json(sources, n.where)}, {"message", n.message}});
            all.push_back({{"kind", std::string(info(d->kind).name)},
                           {"severity", severity_word(d->sev)},
                           {"location", position_json(sources, d->where, d->file)},
                           {"message", d->message},
                           {"notes", notes}});
        }
        out << dsl::json_text(nlohmann::json{{"diagnostics", all}, {"errors_not_shown", hidden_errors}}, 2) << '\n';
        return;
    }

    color = color && fmt == diag_format::human;
    // `file:line:col: ` in bold and the severity word in its colour
    auto head = [&](const std::string& where, severity sev) {
        const std::string word = std::string(severity_word(sev)) + ":";
        if (!color) {
            out << where << word;
            return;
        }
        if (!where.empty()) out << ansi::bold << where.substr(0, where.size() - 1) << ansi::reset << ' ';
        out << (sev == severity::error ? ansi::error : sev == severity::warning ? ansi::warning : ansi::note) << word
            << ansi::reset;
    };
    for (const diagnostic* d : shown) {
        head(prefix(sources, d->where, d->file), d->sev);
        out << ' ' << d->message << " [" << info(d->kind).name << "]\n";
        if (fmt == diag_format::human && d->where) quote(out, sources, *d->where, color);
        for (const diag_note& n : d->notes) {
            head(n.where ? prefix(sources, n.where) : std::string(), severity::note);
            out << ' ' << n.message << '\n';
            if (fmt == diag_format::human && n.where) quote(out, sources, *n.where, color);
        }
    }
    if (hidden_errors > 0) out << "westphalia: " << hidden_errors << " more error(s) not shown (--max-errors)\n";
}

}  // namespace wp::dsl
