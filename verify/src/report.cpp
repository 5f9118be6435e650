// Rendering findings: text in the style of a compiler diagnostic, JSON, SARIF 2.1.0.
#include "westphalia/verify/report.hpp"
#include "westphalia/dsl/json_text.hpp"

#include "westphalia/dsl/diagnostics.hpp"
#include "westphalia/dsl/sarif.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <sstream>

namespace wp::verify {

namespace {

using nlohmann::json;

std::string anchors(const ir::provenance& p) {
    std::string s;
    for (const ir::anchor& a : p.anchors) s += (s.empty() ? "§" : " §") + a.first + (a.last.empty() ? "" : "-" + a.last);
    return s;
}

std::string layer_name(const ir::ruleset& rs, ir::id layer) {
    return layer < rs.layers.size() ? rs.layers[layer].name : "";
}

std::string at(const ir::provenance& p, const report_source& src) {
    if (p.where.file == ir::no_id) return "";
    return src.path(p.where.file) + ":" + std::to_string(p.where.line) + ":" + std::to_string(p.where.column);
}

// The element a finding points at: the first with a file position.
const involved* primary(const finding& f) {
    for (const involved& e : f.elements)
        if (e.prov.where.file != ir::no_id) return &e;
    return nullptr;
}

std::string code_points_prefix(const std::string& line, std::uint32_t column) {
    // the caret goes under column `column` (code points): copy tabs, blank everything else
    std::string pad;
    std::uint32_t cp = 1;
    for (std::size_t i = 0; i < line.size() && cp < column; ++i) {
        const unsigned char c = static_cast<unsigned char>(line[i]);
        if ((c & 0xC0) == 0x80) continue;
        pad += c == '\t' ? '\t' : ' ';
        ++cp;
    }
    while (cp++ < column) pad += ' ';
    return pad;
}

}  // namespace

void render_human(std::ostream& out, const ir::ruleset& rs, const check_result& r, const report_source& src,
                  const report_header& h, bool show_stats, bool color) {
    namespace ansi = dsl::ansi;
    auto paint = [color](const char* colour, const std::string& text) {
        return color ? std::string(colour) + text + ansi::reset : text;
    };
    std::size_t errors = 0, warnings = 0, accepted = 0, unshown = 0;
    for (const finding& f : r.findings) {
        const involved* p = primary(f);
        const std::string where = p ? at(p->prov, src) : rs.name;
        // An accepted finding, or one play is not shown to reach, keeps its place in the report
        // but is not an error or a warning.
        const std::string level(name_of(f.level));
        const bool not_shown = f.reach == reach_kind::not_shown;
        const std::string word = f.accepted ? paint(ansi::note, "accepted " + level + ":")
                                 : !counts(r, f) ? paint(ansi::note, "not shown reachable " + level + ":")
                                 : paint(f.level == severity::error ? ansi::error : ansi::warning,
                                         level + (not_shown ? " (not shown reachable):" : ":"));
        out << paint(ansi::bold, where + ":") << ' ' << word << ' ' << f.message << " [" << f.kind << "]\n";
        if (p) {
            if (auto line = src.line(p->prov.where.file, p->prov.where.line)) {
                const std::string num = std::to_string(p->prov.where.line);
                out << "  " << num << " | " << *line << '\n';
                out << "  " << std::string(num.size(), ' ') << " | " << code_points_prefix(*line, p->prov.where.column)
                    << paint(ansi::caret, "^") << '\n';
            }
        }
        if (!f.also.empty()) {
            out << "  the same at " << f.also.size() << " more place" << (f.also.size() == 1 ? "" : "s") << ":";
            for (std::size_t i = 0; i < f.also.size(); ++i) out << (i ? ", " : " ") << at(f.also[i], src);
            out << '\n';
        }
        for (const involved& e : f.elements) {
            out << "  " << paint(ansi::note, "note:") << ' ' << e.role << " `" << e.name << "`";
            const std::string a = at(e.prov, src);
            if (!a.empty()) out << " at " << a;
            const std::string an = anchors(e.prov);
            if (!an.empty()) out << ' ' << an;
            const std::string ln = layer_name(rs, e.prov.layer);
            if (!ln.empty()) out << " (layer " << ln << ")";
            out << '\n';
        }
        if (!f.witness.empty()) {
            out << "  witness:\n";
            for (const std::string& w : f.witness) out << "    " << w << '\n';
        }
        if (!f.because.empty()) {
            out << "  never, because:\n";
            for (const std::string& b : f.because) out << "    " << b << '\n';
        }
        if (!f.replay.empty()) out << "  state replay: " << f.replay << '\n';
        if (!f.trace.empty()) out << "  trace from setup: " << f.trace << '\n';
        if (f.reach == reach_kind::setup_path) out << "  reach: the witness's path runs from setup, nothing forgotten on the way\n";
        if (not_shown && f.kind == "gap")
            out << "  reach: not shown reachable: the witness is a state of the domain (any value of each field), and no "
                   "game the checker played met it\n";
        else if (not_shown)
            out << "  reach: not shown reachable: the witness rests on the checker's summary of play (what a loop or a "
                   "phase's start forgets), and no game the checker played met it\n";
        if (f.accepted) out << "  accepted in the ruleset: " << f.accepted_reason << '\n';
        if (f.accepted) ++accepted;
        else if (!counts(r, f)) ++unshown;
        else if (f.level == severity::error) ++errors;
        else ++warnings;
    }
    // the designer's queries, each with its answer (those that fail or are unknown are findings too)
    if (!r.answers.empty()) {
        out << "queries:\n";
        for (const query_answer& q : r.answers) {
            const std::string where = at(q.prov, src), an = anchors(q.prov);
            out << "  " << q.kind << ' ' << q.name << ": " << q.verdict;
            if (!where.empty() || !an.empty()) out << " (" << where << (where.empty() || an.empty() ? "" : " ") << an << ")";
            out << "\n    " << q.how << '\n';
        }
    }
    out << rs.name << ": " << errors << " error" << (errors == 1 ? "" : "s") << ", " << warnings << " warning"
        << (warnings == 1 ? "" : "s");
    if (accepted) out << ", " << accepted << " accepted";
    if (unshown) out << ", " << unshown << " not shown reachable";
    out << " (" << rs.layers.size() << " layer" << (rs.layers.size() == 1 ? "" : "s");
    if (!rs.upto.empty()) out << " up to " << rs.upto;
    if (const std::string with = ir::expansions_applied(rs); !with.empty()) out << "; with " << with;
    // the games checked: the ruleset's fewest players up to the most checked
    const std::int64_t fewest = std::max<std::int64_t>(1, rs.min_players);
    out << "; options " << h.options << "; ";
    if (fewest < h.players_checked) out << fewest << "..";
    out << h.players_checked << (h.players_checked == 1 ? " player" : " players");
    if (!r.only.empty()) {
        out << "; only";
        for (const std::string& k : r.only) out << ' ' << k;
    }
    out << ")\n";
    if (!r.approximations.empty()) {
        out << "approximated:";
        for (std::size_t i = 0; i < r.approximations.size(); ++i) out << (i ? "; " : " ") << r.approximations[i];
        out << '\n';
    }
    std::uint64_t skipped = 0;
    for (const auto& [k, s] : r.stats) skipped += s.skipped;
    if (r.out_of_time && skipped)
        out << "out of time: the check's time budget (--max-time) ran out; " << skipped << " question"
            << (skipped == 1 ? " was" : "s were") << " not asked, and what they would have decided is reported as unknown\n";
    else if (r.out_of_time)
        out << "out of time: the check's time budget (--max-time) ran out; what it left undecided is reported as unknown\n";
    if (show_stats) {
        std::uint64_t q = 0;
        for (const auto& [k, s] : r.stats) {
            out << "  " << std::left << std::setw(10) << k << std::right << std::setw(7) << s.queries << " queries "
                << std::fixed << std::setprecision(1) << std::setw(9) << s.milliseconds << " ms";
            if (s.skipped) out << ", " << s.skipped << " not asked";
            out << '\n';
            q += s.queries;
        }
        out << "  total     " << std::setw(7) << q << " queries " << std::fixed << std::setprecision(1) << std::setw(9)
            << r.milliseconds << " ms\n";
        if (r.cache_hits || !r.proved.empty())
            out << "  cache: " << r.cache_hits << " queries answered from it, " << r.proved.size() << " proofs kept for the next run\n";
        if (r.general_proofs)
            out << "  general: " << r.general_proofs << " questions proved from their top levels alone\n";
        auto questions = [](std::uint64_t n) { return std::to_string(n) + (n == 1 ? " question" : " questions"); };
        if (r.hinted_answers) out << "  hints: " << questions(r.hinted_answers) << " shown to hold by a model found before\n";
        if (r.implied_answers)
            out << "  implied: " << questions(r.implied_answers) << " implied by a path already shown to hold\n";
        if (!r.encoder.empty()) {
            out << "  encoder:";
            bool first = true;
            for (const auto& [k, n] : r.encoder) {
                out << (first ? " " : ", ") << n << ' ' << k;
                first = false;
            }
            out << '\n';
        }
    }
}

namespace {

json element_json(const ir::ruleset& rs, const involved& e, const report_source& src) {
    json j{{"role", e.role}, {"name", e.name}};
    if (e.prov.where.file != ir::no_id) {
        j["file"] = src.path(e.prov.where.file);
        j["line"] = e.prov.where.line;
        j["column"] = e.prov.where.column;
    }
    const std::string a = anchors(e.prov);
    if (!a.empty()) j["anchors"] = a;
    const std::string l = layer_name(rs, e.prov.layer);
    if (!l.empty()) j["layer"] = l;
    return j;
}

}  // namespace

void render_json(std::ostream& out, const ir::ruleset& rs, const check_result& r, const report_source& src,
                 const report_header& h) {
    json j;
    j["ruleset"] = rs.name;
    j["upto"] = rs.upto;
    j["options"] = h.options;
    j["players_checked"] = h.players_checked;
    j["findings"] = json::array();
    for (const finding& f : r.findings) {
        json x{{"kind", f.kind},       {"severity", name_of(f.level)}, {"subject", f.subject},
               {"message", f.message}, {"proof", name_of(f.proof)},    {"accepted", f.accepted}};
        if (f.accepted) x["accepted_reason"] = f.accepted_reason;
        x["elements"] = json::array();
        for (const involved& e : f.elements) x["elements"].push_back(element_json(rs, e, src));
        if (!f.also.empty()) {
            x["also"] = json::array();
            for (const ir::provenance& p : f.also)
                if (p.where.file != ir::no_id)
                    x["also"].push_back({{"file", src.path(p.where.file)}, {"line", p.where.line}, {"column", p.where.column}});
        }
        x["witness"] = f.witness;
        x["because"] = f.because;
        if (!f.replay.empty()) x["replay"] = f.replay;
        if (f.reach != reach_kind::none) x["reach"] = name_of(f.reach);
        if (!f.trace.empty()) x["trace"] = f.trace;
        if (f.reach == reach_kind::not_shown) x["counted"] = counts(r, f);
        j["findings"].push_back(x);
    }
    j["errors"] = error_count(r);
    if (!r.answers.empty()) {
        j["queries"] = json::array();
        for (const query_answer& q : r.answers) {
            json x{{"name", q.name}, {"kind", q.kind}, {"verdict", q.verdict}, {"how", q.how}};
            if (q.prov.where.file != ir::no_id) {
                x["file"] = src.path(q.prov.where.file);
                x["line"] = q.prov.where.line;
            }
            const std::string a = anchors(q.prov);
            if (!a.empty()) x["anchors"] = a;
            j["queries"].push_back(std::move(x));
        }
    }
    j["approximations"] = r.approximations;
    if (r.out_of_time) j["out_of_time"] = true;
    if (!r.only.empty()) j["only"] = r.only;
    out << dsl::json_text(j, 2) << '\n';
}

void render_sarif(std::ostream& out, const ir::ruleset& rs, const check_result& r, const report_source& src) {
    static const std::pair<const char*, const char*> kinds[] = {
        {"contradiction", "Two rules that no override orders give incompatible outcomes"},
        {"ambiguity", "Two rules that no override orders both decide the same thing"},
        {"gap", "A decision declared total is left undecided in some situation"},
        {"table-gap", "A table key that can occur is covered by no row or column"},
        {"table-overlap", "Two rows or columns of a table cover a common key"},
        {"table-mismatch", "Two printings of one table differ: a cell, a key read differently, or a result only one prints"},
        {"dead-rule", "A rule that can never apply, is always overridden, or is never reached in play"},
        {"dead-cell", "A table row or column that no key that can occur selects"},
        {"dead-branch", "A way out of an if or a may that no state where it is met can take"},
        {"no-op", "An assignment that never changes what it writes, wherever play runs it"},
        {"bound-violation", "An effect can take a value outside its declared range without a clamp"},
        {"example-failure", "A rulebook example whose stated outcome the rules do not produce"},
        {"unreachable", "A phase, step or game end that no play reaches"},
        {"stuck-state", "A mandatory choice that can face no legal option"},
        {"unmet-obligation", "A statement play must carry out, met where it cannot: an action not legal, a piece not in its zone"},
        {"invariant-violation", "An invariant that a step of play can break, or that the checker cannot prove"},
        {"errata-obligation", "An errata block changes outcomes its kind (correction, clarification, addition) does not allow"},
        {"undeclared-change", "A layer changes what the rules below it decide without declaring it (no overrides, no errata block)"},
        {"query", "A designer's query the rules fail: an assertion false in play, or a reachable property that never holds"},
        {"aid-drift", "An element's aid text names a number the element no longer uses"},
        {"hidden-leak", "A field every player sees takes a value read from a hidden field"},
        {"unknown", "The solver could not decide a property within its limits"},
        {"stale-accept", "An accept in the ruleset that matches no finding"},
    };
    json rules = json::array();
    for (const auto& [id, text] : kinds) rules.push_back({{"id", id}, {"shortDescription", {{"text", text}}}});
    json results = json::array();
    for (const finding& f : r.findings) {
        json res{{"ruleId", f.kind}, {"level", counts(r, f) ? name_of(f.level) : "note"}};
        std::string text = f.message;
        for (const std::string& w : f.witness) text += "\nwitness: " + w;
        for (const std::string& b : f.because) text += "\nbecause: " + b;
        if (!f.replay.empty()) text += "\nstate replay: " + f.replay;
        if (!f.trace.empty()) text += "\ntrace from setup: " + f.trace;
        if (f.reach == reach_kind::not_shown)
            text += f.kind == "gap" ? "\nnot shown reachable: the witness is a state of the domain"
                                    : "\nnot shown reachable: the witness rests on the checker's summary of play";
        if (f.accepted) text += "\naccepted: " + f.accepted_reason;
        res["message"] = {{"text", text}};
        json locations = json::array(), related = json::array();
        int n = 0;
        for (const involved& e : f.elements) {
            if (e.prov.where.file == ir::no_id) continue;
            json loc{{"physicalLocation",
                      {{"artifactLocation", {{"uri", dsl::sarif_uri(src.path(e.prov.where.file))}}},
                       {"region", {{"startLine", e.prov.where.line}, {"startColumn", e.prov.where.column}}}}},
                     {"message", {{"text", e.role + " " + e.name + (anchors(e.prov).empty() ? "" : " " + anchors(e.prov))}}}};
            if (locations.empty()) {
                locations.push_back(loc);
            } else {
                loc["id"] = ++n;
                related.push_back(loc);
            }
        }
        for (const ir::provenance& p : f.also) {  // the same finding's other places
            if (p.where.file == ir::no_id) continue;
            related.push_back({{"id", ++n},
                               {"physicalLocation",
                                {{"artifactLocation", {{"uri", dsl::sarif_uri(src.path(p.where.file))}}},
                                 {"region", {{"startLine", p.where.line}, {"startColumn", p.where.column}}}}},
                               {"message", {{"text", "the same finding here"}}}});
        }
        res["locations"] = locations;
        if (!related.empty()) res["relatedLocations"] = related;
        if (f.accepted) {
            // suppressed in the rule files themselves: the `accept` declaration, with its reason
            json suppression{{"kind", "inSource"}, {"status", "accepted"}, {"justification", f.accepted_reason}};
            for (const involved& e : f.elements)
                if (e.role == "accept" && e.prov.where.file != ir::no_id) {
                    suppression["location"] = {
                        {"physicalLocation",
                         {{"artifactLocation", {{"uri", dsl::sarif_uri(src.path(e.prov.where.file))}}},
                          {"region", {{"startLine", e.prov.where.line}, {"startColumn", e.prov.where.column}}}}}};
                    break;
                }
            res["suppressions"] = json::array({suppression});
        }
        results.push_back(res);
    }
    json sarif{{"$schema", dsl::sarif_schema},
               {"version", dsl::sarif_version},
               {"runs",
                {{{"tool", {{"driver", {{"name", "westphalia"}, {"version", "0.1.0"}, {"rules", rules}}}}},
                  {"automationDetails", {{"id", "westphalia-check/" + rs.name}}},
                  {"columnKind", "unicodeCodePoints"},
                  {"results", results}}}}};
    out << dsl::json_text(sarif, 2) << '\n';
}

}  // namespace wp::verify
