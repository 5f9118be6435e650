// `westphalia coverage <ruleset> [--source FILE] [--verbose] [--strict] [--format=json]`: how much
// of the rulebook the ruleset encodes. For each outline section, in rulebook order: its status and
// the IR elements that cite it; encoded sections nothing cites; lines of the source text that no
// section covers; totals by status over the text's lines.
#include "cli.hpp"
#include "westphalia/dsl/json_text.hpp"
#include "ruleset_input.hpp"

#include "westphalia/compiler/passes.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace wp::cli {

namespace {

// ---------------------------------------------------------------- SHA-256 (FIPS 180-4)
// The manifest pins the rulebook text by its SHA-256; a line anchor means nothing in another text.

class sha256 {
public:
    void update(const std::string& data) {
        for (unsigned char c : data) {
            block_[fill_++] = c;
            if (fill_ == 64) {
                compress();
                fill_ = 0;
            }
        }
        length_ += data.size();
    }
    std::string hex() {
        const std::uint64_t bits = length_ * 8;
        block_[fill_++] = 0x80;
        if (fill_ > 56) {
            while (fill_ < 64) block_[fill_++] = 0;
            compress();
            fill_ = 0;
        }
        while (fill_ < 56) block_[fill_++] = 0;
        for (int i = 7; i >= 0; --i) block_[fill_++] = static_cast<unsigned char>(bits >> (8 * i));
        compress();
        std::string out;
        char buffer[9];
        for (std::uint32_t v : h_) {
            std::snprintf(buffer, sizeof buffer, "%08x", v);
            out += buffer;
        }
        return out;
    }

private:
    static std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
    void compress() {
        static constexpr std::array<std::uint32_t, 64> k = {
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
        std::array<std::uint32_t, 64> w{};
        for (int i = 0; i < 16; ++i)
            w[i] = std::uint32_t(block_[4 * i]) << 24 | std::uint32_t(block_[4 * i + 1]) << 16 |
                   std::uint32_t(block_[4 * i + 2]) << 8 | std::uint32_t(block_[4 * i + 3]);
        for (int i = 16; i < 64; ++i) {
            const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        std::array<std::uint32_t, 8> v = h_;
        for (int i = 0; i < 64; ++i) {
            const std::uint32_t s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
            const std::uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
            const std::uint32_t t1 = v[7] + s1 + ch + k[i] + w[i];
            const std::uint32_t s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
            const std::uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            const std::uint32_t t2 = s0 + maj;
            v = {t1 + t2, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
        }
        for (int i = 0; i < 8; ++i) h_[i] += v[i];
    }
    std::array<std::uint32_t, 8> h_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    std::array<unsigned char, 64> block_{};
    std::size_t fill_ = 0;
    std::uint64_t length_ = 0;
};

// ---------------------------------------------------------------- sections and anchors

using compiler::section_key;

int compare(const section_key& a, const section_key& b) {
    if (a.k == section_key::kind::text) return a.text < b.text ? -1 : a.text == b.text ? 0 : 1;
    for (std::size_t i = 0; i < std::min(a.parts.size(), b.parts.size()); ++i)
        if (a.parts[i] != b.parts[i]) return a.parts[i] < b.parts[i] ? -1 : 1;
    return a.parts.size() == b.parts.size() ? 0 : a.parts.size() < b.parts.size() ? -1 : 1;
}

// p <= hi, where a section includes its subsections (9.14 is inside a range ending at 9).
bool at_most(const section_key& p, const section_key& hi) {
    if (compare(p, hi) <= 0) return true;
    return hi.k == section_key::kind::numbered && hi.parts.size() <= p.parts.size() &&
           std::equal(hi.parts.begin(), hi.parts.end(), p.parts.begin());
}

struct key_range {
    section_key lo;
    section_key hi;
};

std::optional<key_range> range_of(const std::string& first, const std::string& last) {
    const auto lo = compiler::parse_section(first);
    if (!lo) return std::nullopt;
    const auto hi = compiler::parse_range_end(*lo, last);
    if (!hi) return std::nullopt;
    return key_range{*lo, *hi};
}

bool overlaps(const key_range& a, const key_range& b) {
    if (a.lo.k != b.lo.k) return false;
    if (a.lo.k == section_key::kind::text) return a.lo.text == b.lo.text;
    return at_most(a.lo, b.hi) && at_most(b.lo, a.hi);
}

std::string spell(const std::string& first, const std::string& last) {
    return "§" + first + (last.empty() ? "" : "-" + (last.size() > 1 && last[0] == first[0] && first[0] == 'L'
                                                         ? last.substr(1)
                                                         : last));
}

// ---------------------------------------------------------------- what cites what

struct citing_element {
    std::string label;  // "modifier combined_arms"
    const ir::provenance* prov = nullptr;
};

std::vector<citing_element> elements_of(const ir::ruleset& rs) {
    std::vector<citing_element> out;
    auto add = [&](std::string label, const ir::provenance& p) {
        if (!p.anchors.empty()) out.push_back({std::move(label), &p});
    };
    for (const auto& x : rs.enums)
        if (!x.synthesised) add("enum " + x.name, x.prov);  // an option's own enum is the option
    for (const auto& x : rs.aliases) add("type " + x.name, x.prov);
    for (const auto& x : rs.records) {
        add("record " + x.name, x.prov);
        for (const auto& f : x.fields) add("field " + x.name + "." + f.name, f.prov);
    }
    for (const auto& x : rs.slots) add("state " + x.name, x.prov);
    for (const auto& x : rs.entity_kinds) add(std::string(x.pieces ? "pieces " : "cards ") + x.name, x.prov);
    for (const auto& x : rs.entities) add(rs.entity_kinds.at(x.kind).name + " " + x.name, x.prov);
    for (const auto& x : rs.zones) add("zone " + x.name, x.prov);
    for (const auto& x : rs.maps) {
        add("map " + x.name, x.prov);
        for (const auto& n : x.nodes) add("location " + x.name + "." + n.name, n.prov);
    }
    for (const auto& x : rs.rolls) add("roll " + x.name, x.prov);
    for (const auto& x : rs.quantities) add(std::string(x.predicate ? "predicate " : "quantity ") + x.name, x.prov);
    for (const auto& x : rs.decisions) add("decision " + x.name, x.prov);
    for (const auto& x : rs.actions) add("action " + x.name, x.prov);
    for (const auto& x : rs.events) add("event " + x.name, x.prov);
    for (const auto& x : rs.procedures) add("procedure " + x.name, x.prov);
    for (const auto& x : rs.sequences) add("sequence " + x.name, x.prov);
    for (const auto& x : rs.blocks) add(x.word + " " + x.path, x.prov);
    for (const auto& x : rs.tables) {
        add("table " + x.name, x.prov);
        for (const auto& r : x.rows) add("row " + x.name + " " + r.key.text, r.prov);
    }
    for (const auto& x : rs.options) add("option " + x.name, x.prov);
    for (const auto& x : rs.missing_data) add("missing " + x.name, x.prov);
    for (const auto& x : rs.rules) add(std::string(ir::name_of(x.kind)) + " " + x.name, x.prov);
    for (const auto& x : rs.errata)
        add("errata " + std::string(ir::name_of(x.op)) + (x.target.empty() ? "" : " " + x.target), x.prov);
    return out;
}

// ---------------------------------------------------------------- the source text

struct source_text {
    std::string path;  // where it was read, empty when not found
    std::vector<std::string> looked_in;
    std::vector<bool> blank;  // per line (index 0 is line 1)
};

bool is_blank(const std::string& line) {
    return line.find_first_not_of(" \t\r\f\v") == std::string::npos;
}

struct coverage_args {
    ruleset_input input;
    std::string source;
    bool verbose = false;
    bool strict = false;
};

// Finds and reads the source text: --source, else the folders of WESTPHALIA_SOURCES, else the
// ruleset folder. Returns nullopt (after an error, exit 2) when a text was found but is not the
// one the manifest pins.
std::optional<source_text> read_source(context& ctx, const coverage_args& args, const ir::ruleset& rs) {
    source_text s;
    std::vector<std::filesystem::path> candidates;
    if (!args.source.empty()) {
        candidates.emplace_back(args.source);
    } else if (!rs.source.empty()) {
        if (const char* env = std::getenv("WESTPHALIA_SOURCES")) {
            std::stringstream folders(env);
            for (std::string folder; std::getline(folders, folder, ':');)
                if (!folder.empty()) candidates.push_back(std::filesystem::path(folder) / rs.source);
        }
        const std::filesystem::path input(args.input.path);
        if (std::filesystem::is_directory(input)) candidates.push_back(input / rs.source);
    }
    for (const auto& c : candidates) {
        s.looked_in.push_back(c.string());
        std::error_code ec;
        if (!std::filesystem::is_regular_file(c, ec)) continue;
        std::ifstream in(c, std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) continue;
        if (!rs.sha256.empty()) {
            sha256 h;
            h.update(text);
            const std::string got = h.hex();
            if (got != rs.sha256) {
                ctx.err << "westphalia: error: " << c.string() << " is not the text the manifest names: its sha256 is "
                        << got << ", the manifest gives " << rs.sha256 << "\n";
                ctx.exit_code = exit_bad_input;
                return std::nullopt;
            }
        }
        s.path = c.string();
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            s.blank.push_back(is_blank(text.substr(start, end - start)));
            start = end + 1;
        }
        return s;
    }
    if (!args.source.empty()) {
        ctx.err << "westphalia: error: cannot read the source text " << args.source << " (--source)\n";
        ctx.exit_code = exit_bad_input;
        return std::nullopt;
    }
    return s;
}

// ---------------------------------------------------------------- the report

struct section_report {
    const ir::section* section = nullptr;
    std::vector<std::string> cited_by;
    std::size_t text_lines = 0;  // non-blank lines of the source inside it (innermost section only)
};

struct line_run {
    std::size_t first = 0;
    std::size_t last = 0;
};

struct report_data {
    std::vector<section_report> sections;
    bool have_text = false;
    bool line_sections = true;  // every section is a line anchor (so lines can be counted)
    std::size_t lines = 0;
    std::size_t blank = 0;
    std::size_t counted[4] = {0, 0, 0, 0};  // encoded, flavour, missing-data, pending
    std::size_t uncovered = 0;
    std::vector<line_run> uncovered_runs;
    std::vector<std::string> beyond_text;  // sections past the last line
};

report_data build(const ir::ruleset& rs, const source_text& text) {
    report_data r;
    std::vector<std::optional<key_range>> ranges;
    for (const ir::section& s : rs.sections) {
        r.sections.push_back({&s, {}, 0});
        ranges.push_back(range_of(s.first, s.last));
        if (!ranges.back() || ranges.back()->lo.k != section_key::kind::line) r.line_sections = false;
    }
    for (const citing_element& e : elements_of(rs)) {
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            if (!ranges[i]) continue;
            for (const ir::anchor& a : e.prov->anchors) {
                const auto ar = range_of(a.first, a.last);
                if (ar && overlaps(*ar, *ranges[i])) {
                    r.sections[i].cited_by.push_back(e.label);
                    break;
                }
            }
        }
    }
    r.have_text = !text.path.empty();
    if (!r.have_text || !r.line_sections) return r;
    r.lines = text.blank.size();
    for (std::size_t i = 0; i < ranges.size(); ++i)
        if (static_cast<std::size_t>(ranges[i]->lo.parts[0]) > r.lines || ranges[i]->lo.parts[0] < 1 ||
            static_cast<std::size_t>(ranges[i]->hi.parts[0]) > r.lines)
            r.beyond_text.push_back(spell(rs.sections[i].first, rs.sections[i].last));
    for (std::size_t line = 1; line <= r.lines; ++line) {
        if (text.blank[line - 1]) {
            ++r.blank;
            continue;
        }
        // The innermost section holding the line: the latest start, then the earliest end.
        std::optional<std::size_t> best;
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            const auto lo = static_cast<std::size_t>(ranges[i]->lo.parts[0]);
            const auto hi = static_cast<std::size_t>(ranges[i]->hi.parts[0]);
            if (line < lo || line > hi) continue;
            if (!best || lo > static_cast<std::size_t>(ranges[*best]->lo.parts[0]) ||
                (lo == static_cast<std::size_t>(ranges[*best]->lo.parts[0]) &&
                 hi < static_cast<std::size_t>(ranges[*best]->hi.parts[0])))
                best = i;
        }
        if (!best) {
            ++r.uncovered;
            if (!r.uncovered_runs.empty() && r.uncovered_runs.back().last + 1 == line) r.uncovered_runs.back().last = line;
            else r.uncovered_runs.push_back({line, line});
            continue;
        }
        ++r.sections[*best].text_lines;
        ++r.counted[static_cast<int>(rs.sections[*best].status)];
    }
    return r;
}

std::string fixed1(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", v);
    return buffer;
}

std::string pad(std::string s, std::size_t width) {
    // Width in code points, so that `§` counts as one column.
    std::size_t cps = 0;
    for (unsigned char c : s) cps += (c & 0xC0) != 0x80;
    if (cps < width) s.append(width - cps, ' ');
    return s;
}

std::string run_text(const line_run& run) {
    return "L" + std::to_string(run.first) + (run.last == run.first ? "" : "-" + std::to_string(run.last));
}

bool uncited(const section_report& s) {
    return s.section->status == ir::section_status::encoded && s.cited_by.empty();
}

void print_human(std::ostream& out, const ir::ruleset& rs, const source_text& text, const report_data& r,
                 bool verbose) {
    out << "coverage  " << rs.name << " — " << rs.title << '\n';
    if (r.have_text) {
        out << "source    " << text.path << " (" << r.lines << " lines"
            << (rs.sha256.empty() ? ", no sha256 in the manifest to check" : ", sha256 matches the manifest") << ")\n";
    } else if (rs.source.empty()) {
        out << "source    the manifest names no source text: the outline only\n";
    } else {
        out << "source    " << rs.source << " not found";
        if (!text.looked_in.empty()) {
            out << " (looked for";
            for (const auto& p : text.looked_in) out << ' ' << p;
            out << ")";
        }
        out << ": the outline only; give the text with --source\n";
    }
    out << '\n' << pad("section", 12) << pad("status", 14) << "cited by  title\n";
    for (const section_report& s : r.sections) {
        const ir::section& sec = *s.section;
        out << pad(spell(sec.first, sec.last), 12) << pad(ir::name_of(sec.status), 14);
        const std::string count = std::to_string(s.cited_by.size());
        out << std::string(count.size() < 8 ? 8 - count.size() : 0, ' ') << count << "  " << sec.title;
        if (uncited(s)) out << "  (encoded, but nothing cites it)";
        out << '\n';
        if (verbose && !s.cited_by.empty()) {
            std::string line = "    ";
            for (std::size_t i = 0; i < s.cited_by.size(); ++i) {
                const std::string item = s.cited_by[i] + (i + 1 < s.cited_by.size() ? "," : "");
                if (line.size() > 4 && line.size() + 1 + item.size() > 100) {
                    out << line << '\n';
                    line = "    ";
                }
                line += (line.size() > 4 ? " " : "") + item;
            }
            out << line << '\n';
        }
    }
    std::size_t n_uncited = 0;
    for (const section_report& s : r.sections) n_uncited += uncited(s);
    out << '\n' << "sections  " << r.sections.size() << ", " << n_uncited << " encoded but cited by nothing\n";
    if (!r.have_text) return;
    if (!r.line_sections) {
        out << "lines     not counted: the outline's sections are not line anchors (§Lnn)\n";
        return;
    }
    for (const std::string& b : r.beyond_text) out << "warning   " << b << " lies outside the text's " << r.lines << " lines\n";
    if (!r.uncovered_runs.empty()) {
        out << "uncovered";
        for (const line_run& run : r.uncovered_runs) out << ' ' << run_text(run);
        out << "  (lines with text in no section)\n";
    }
    const std::size_t counted = r.lines - r.blank;
    out << "lines     " << r.lines << " in the text, " << counted << " with text (" << r.blank
        << " blank lines not counted)\n";
    const char* names[] = {"encoded", "flavour", "missing-data", "pending"};
    auto row = [&](const char* name, std::size_t n) {
        const std::string num = std::to_string(n);
        out << "  " << pad(name, 14) << std::string(num.size() < 5 ? 5 - num.size() : 0, ' ') << num << "  "
            << (counted ? fixed1(100.0 * static_cast<double>(n) / static_cast<double>(counted)) : std::string("0.0"))
            << "%\n";
    };
    for (int i = 0; i < 4; ++i)
        if (i < 3 || r.counted[i] > 0) row(names[i], r.counted[i]);
    row("uncovered", r.uncovered);
}

nlohmann::ordered_json to_json(const ir::ruleset& rs, const source_text& text, const report_data& r) {
    using nlohmann::ordered_json;
    ordered_json j;
    j["ruleset"] = rs.name;
    j["source"] = {{"name", rs.source}, {"sha256", rs.sha256}, {"found", r.have_text}};
    if (r.have_text) {
        j["source"]["path"] = text.path;
        j["source"]["lines"] = r.lines;
    } else {
        j["source"]["looked_in"] = text.looked_in;
    }
    ordered_json sections = ordered_json::array();
    ordered_json uncited_list = ordered_json::array();
    for (const section_report& s : r.sections) {
        ordered_json x;
        x["section"] = spell(s.section->first, s.section->last).substr(2);  // without the `§`
        x["title"] = s.section->title;
        x["status"] = ir::name_of(s.section->status);
        x["cited_by_count"] = s.cited_by.size();
        x["cited_by"] = s.cited_by;
        if (r.have_text && r.line_sections) x["text_lines"] = s.text_lines;
        if (uncited(s)) uncited_list.push_back(x["section"]);
        sections.push_back(std::move(x));
    }
    j["sections"] = std::move(sections);
    j["encoded_but_uncited"] = std::move(uncited_list);
    if (r.have_text && r.line_sections) {
        ordered_json runs = ordered_json::array();
        for (const line_run& run : r.uncovered_runs) runs.push_back({{"first", run.first}, {"last", run.last}});
        j["uncovered_lines"] = std::move(runs);
        j["sections_outside_text"] = r.beyond_text;
        j["totals"] = {{"lines", r.lines},
                       {"blank", r.blank},
                       {"counted", r.lines - r.blank},
                       {"encoded", r.counted[0]},
                       {"flavour", r.counted[1]},
                       {"missing_data", r.counted[2]},
                       {"pending", r.counted[3]},
                       {"uncovered", r.uncovered}};
    }
    return j;
}

}  // namespace

void add_coverage_command(CLI::App& app, context& ctx) {
    auto args = std::make_shared<coverage_args>();
    CLI::App* command = app.add_subcommand(
        "coverage", "Report which parts of the rulebook a ruleset encodes: each outline section, what cites it, "
                    "and the lines no section covers");
    args->input.add_to(*command);
    command->get_option("--format")->description("How to print the report and any diagnostics: human, gnu or json");
    command->add_option("--source", args->source,
                        "The rulebook text the manifest names (default: look in the folders of $WESTPHALIA_SOURCES, "
                        "then in the ruleset folder)");
    command->add_flag("--verbose", args->verbose, "List the elements citing each section");
    command->get_option("--with")->description(
        "The expansions to read (comma-separated; default: every expansion the manifest declares, as the text "
        "covers them all)");
    command->add_flag("--strict", args->strict,
                      "Exit 1 when an encoded section is cited by nothing or a line of text is in no section");
    command->callback([args, &ctx] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        auto rs = args->input.load(ctx, sources, sink);
        // The text's coverage is the whole ruleset's: without --with, every expansion it declares
        // is read too (an expansion's sections are cited only by its own layer).
        if (rs && args->input.with.empty() && !rs->expansions.empty()) {
            ruleset_input all = args->input;
            for (const ir::expansion& e : rs->expansions) all.with.push_back(e.name);
            dsl::source_manager again;
            dsl::diagnostic_sink again_sink;
            if (auto whole = all.load(ctx, again, again_sink)) {
                rs = std::move(whole);
                sources = std::move(again);
                sink = std::move(again_sink);
            }
        }
        // In JSON the report is the one document on stdout; its diagnostics go to stderr.
        report(ctx, sources, sink, args->input.diagnostics, /*output_follows=*/rs.has_value());
        if (!rs) return;
        if (rs->sections.empty()) {
            ctx.err << "westphalia: error: " << args->input.path
                    << " has no outline; coverage needs a ruleset folder whose manifest names an outline\n";
            ctx.exit_code = exit_bad_input;
            return;
        }
        const auto text = read_source(ctx, *args, *rs);
        if (!text) return;
        const report_data data = build(*rs, *text);
        if (args->input.diagnostics.format == "json")
            ctx.out << dsl::json_text(to_json(*rs, *text, data), 2) << '\n';
        else
            print_human(ctx.out, *rs, *text, data, args->verbose);
        if (args->strict) {
            bool problems = data.uncovered > 0 || !data.beyond_text.empty();
            for (const section_report& s : data.sections) problems = problems || uncited(s);
            if (problems) ctx.exit_code = exit_findings;
        }
    });
}

}  // namespace wp::cli
