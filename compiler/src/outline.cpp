// Pass `outline`: the rulebook's sections and the check that every cited anchor is inside one.
// After outline: every anchor of every file maps to an outline section (or unknown-anchor was
// reported). The containment rule is documented in passes.hpp and docs/language.md.
#include "westphalia/compiler/passes.hpp"

#include <algorithm>
#include <map>

namespace wp::compiler {

namespace {

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<std::int64_t> small_number(const std::string& s) {
    if (!all_digits(s) || s.size() > 12) return std::nullopt;
    return std::stoll(s);
}

// Orders two keys of the same kind: component-wise as integers, a prefix first.
int compare(const section_key& a, const section_key& b) {
    if (a.k == section_key::kind::text) return a.text < b.text ? -1 : a.text == b.text ? 0 : 1;
    const std::size_t n = std::min(a.parts.size(), b.parts.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (a.parts[i] != b.parts[i]) return a.parts[i] < b.parts[i] ? -1 : 1;
    }
    if (a.parts.size() == b.parts.size()) return 0;
    return a.parts.size() < b.parts.size() ? -1 : 1;
}

bool is_prefix(const section_key& parent, const section_key& child) {
    if (parent.k != section_key::kind::numbered || child.k != section_key::kind::numbered) return false;
    if (parent.parts.size() > child.parts.size()) return false;
    return std::equal(parent.parts.begin(), parent.parts.end(), child.parts.begin());
}

std::string spell(const dsl::anchor& a) { return "§" + a.first + (a.last.empty() ? "" : "-" + a.last); }

}  // namespace

std::optional<section_key> parse_section(const std::string& text) {
    section_key k;
    if (text.empty()) return std::nullopt;
    if (text.size() > 1 && (text[0] == 'L' || text[0] == 'l')) {
        if (auto n = small_number(text.substr(1))) {
            k.k = section_key::kind::line;
            k.parts = {*n};
            return k;
        }
    }
    // Dotted numbers: every component digits.
    std::vector<std::int64_t> parts;
    std::size_t start = 0;
    bool numbered = true;
    while (true) {
        const std::size_t dot = text.find('.', start);
        const std::string part = text.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        auto n = small_number(part);
        if (!n) {
            numbered = false;
            break;
        }
        parts.push_back(*n);
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    if (numbered) {
        k.k = section_key::kind::numbered;
        k.parts = std::move(parts);
    } else {
        k.k = section_key::kind::text;
        k.text = text;
    }
    return k;
}

std::optional<section_key> parse_range_end(const section_key& first, const std::string& last) {
    if (last.empty()) return first;
    auto k = parse_section(last);
    if (!k) return std::nullopt;
    if (first.k == section_key::kind::line && k->k == section_key::kind::numbered && k->parts.size() == 1) {
        k->k = section_key::kind::line;  // L52-54
    } else if (first.k == section_key::kind::numbered && k->k == section_key::kind::numbered &&
               k->parts.size() < first.parts.size()) {
        // 14.2-4 ends at 14.4: the short form replaces the last components.
        std::vector<std::int64_t> full(first.parts.begin(), first.parts.end() - static_cast<std::ptrdiff_t>(k->parts.size()));
        full.insert(full.end(), k->parts.begin(), k->parts.end());
        k->parts = std::move(full);
    }
    if (k->k != first.k) return std::nullopt;
    return k;
}

void outline_index::build(const dsl::outline_decl& outline, dsl::diagnostic_sink& sink) {
    std::map<std::string, dsl::span> seen;
    for (const dsl::outline_entry& e : outline.entries) {
        ir::section s;
        s.first = e.section.first;
        s.title = e.title;
        const auto lo = parse_section(e.section.first);
        std::optional<section_key> hi = lo ? parse_range_end(*lo, e.section.last) : std::nullopt;
        if (hi && !e.section.last.empty()) {
            // Keep the normalised end (`L54` for `L52-54`).
            if (hi->k == section_key::kind::line) s.last = "L" + std::to_string(hi->parts[0]);
            else if (hi->k == section_key::kind::numbered) {
                std::string t;
                for (std::size_t i = 0; i < hi->parts.size(); ++i) t += (i ? "." : "") + std::to_string(hi->parts[i]);
                s.last = t;
            } else {
                s.last = e.section.last;
            }
        }
        if (e.status.text == "encoded") s.status = ir::section_status::encoded;
        else if (e.status.text == "flavour") s.status = ir::section_status::flavour;
        else if (e.status.text == "missing-data") s.status = ir::section_status::missing_data;
        else if (e.status.text == "pending") s.status = ir::section_status::pending;
        else
            sink.error(dsl::diag_kind::bad_outline_status, e.status.where,
                       "`" + e.status.text + "` is not a section status; use encoded, flavour, missing-data or pending");
        if (!lo || !hi || compare(*lo, *hi) > 0) {
            sink.error(dsl::diag_kind::bad_range, e.section.where,
                       "the section " + spell(e.section) + " is not a valid range (its end comes before its start)");
            continue;
        }
        const std::string key = s.first + (s.last.empty() ? "" : "-" + s.last);
        if (auto [it, fresh] = seen.emplace(key, e.section.where); !fresh) {
            sink.error(dsl::diag_kind::duplicate_section, e.section.where,
                       "the outline lists " + spell(e.section) + " twice", {{it->second, "the first entry is here"}});
            continue;
        }
        sections_.push_back(std::move(s));
        entries_.push_back({*lo, *hi});
        spans_.push_back(e.where);
    }
}

std::optional<ir::id> outline_index::find_point(const section_key& p) const {
    std::optional<ir::id> best;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        const entry& e = entries_[i];
        if (e.lo.k != p.k) continue;
        const bool inside = compare(e.lo, p) <= 0 && (compare(p, e.hi) <= 0 || is_prefix(e.hi, p));
        if (!inside) continue;
        // Innermost: the latest start, then the earliest end.
        if (!best || compare(e.lo, entries_[*best].lo) > 0 ||
            (compare(e.lo, entries_[*best].lo) == 0 && compare(e.hi, entries_[*best].hi) < 0))
            best = static_cast<ir::id>(i);
    }
    return best;
}

std::optional<ir::id> outline_index::find(const dsl::anchor& a) const {
    const auto first = parse_section(a.first);
    if (!first) return std::nullopt;
    const auto last = parse_range_end(*first, a.last);
    if (!last || compare(*first, *last) > 0) return std::nullopt;
    const auto in_first = find_point(*first);
    if (!in_first) return std::nullopt;
    if (!a.last.empty() && !find_point(*last)) return std::nullopt;
    return in_first;
}

// ---------------------------------------------------------------- every anchor of every file

namespace {

struct anchor_walker {
    const outline_index& outline;
    dsl::diagnostic_sink& sink;
    bool have_outline;

    void check(const dsl::anchor_list& as) {
        for (const dsl::anchor& a : as) {
            if (outline.find(a)) continue;
            if (!have_outline) continue;  // the missing outline is already reported
            sink.error(dsl::diag_kind::unknown_anchor, a.where, spell(a) + " is not inside any section of the outline",
                       {{std::nullopt, "add the section to the outline, or cite a section it lists"}});
        }
    }
    void stmts(const std::vector<dsl::stmt>& ss) {
        for (const dsl::stmt& s : ss) {
            check(s.anchors);
            stmts(s.body);
            stmts(s.else_body);
        }
    }
    void row(const dsl::table_row& r) {
        check(r.anchors);
        for (const dsl::table_cell& c : r.cells) stmts(c.effects);
    }
    void decl(const dsl::decl& d) {
        std::visit(
            [&](const auto& x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, dsl::ruleset_decl> || std::is_same_v<T, dsl::outline_decl>) {
                } else if constexpr (std::is_same_v<T, dsl::record_decl> || std::is_same_v<T, dsl::state_decl>) {
                    check(x.anchors);
                    for (const auto& f : x.fields) check(f.anchors);
                } else if constexpr (std::is_same_v<T, dsl::entities_decl>) {
                    check(x.anchors);
                    for (const auto& e : x.entries) check(e.anchors);
                } else if constexpr (std::is_same_v<T, dsl::action_decl> || std::is_same_v<T, dsl::procedure_decl> ||
                                     std::is_same_v<T, dsl::sequence_decl> || std::is_same_v<T, dsl::rule_decl> ||
                                     std::is_same_v<T, dsl::event_decl>) {
                    check(x.anchors);
                    stmts(x.body);
                } else if constexpr (std::is_same_v<T, dsl::table_decl>) {
                    check(x.anchors);
                    for (const auto& r : x.rows) row(r);
                } else if constexpr (std::is_same_v<T, dsl::errata_decl>) {
                    check(x.anchors);
                    for (const auto& op : x.ops) {
                        check(op.anchors);
                        for (const auto& r : op.replacement) decl(r);
                        if (op.row) row(*op.row);
                        stmts(op.block);
                    }
                } else {
                    check(x.anchors);
                }
            },
            d.node);
    }
};

}  // namespace

void check_anchors(const loaded_ruleset& loaded, const outline_index& outline, dsl::diagnostic_sink& sink) {
    anchor_walker w{outline, sink, loaded.outline.has_value()};
    for (const loaded_file& f : loaded.files) {
        if (!f.tree) continue;
        for (const dsl::decl& d : f.tree->decls) w.decl(d);
    }
}

}  // namespace wp::compiler
