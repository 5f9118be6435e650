// Diagnostics as a SARIF 2.1.0 log (for CI annotations on the rule files' lines).
#include "westphalia/dsl/sarif.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <set>

namespace wp::dsl {

namespace {

using nlohmann::json;

const char* level(severity s) {
    switch (s) {
        case severity::error: return "error";
        case severity::warning: return "warning";
        case severity::note: return "note";
    }
    return "error";
}

// A physical location for a span, or for a file alone; null when there is neither.
json physical(const source_manager& sources, const std::optional<span>& where, const std::string& file) {
    if (!where || where->file >= sources.size()) {
        if (file.empty()) return nullptr;
        return {{"artifactLocation", {{"uri", sarif_uri(file)}}}};
    }
    const source_file& f = sources.get(where->file);
    const line_col b = sources.position(where->file, where->begin);
    const line_col e = sources.position(where->file, std::max(where->begin, where->end));
    json region{{"startLine", b.line}, {"startColumn", b.column}};
    if (e.line > b.line || (e.line == b.line && e.column > b.column)) {
        region["endLine"] = e.line;
        region["endColumn"] = e.column;  // SARIF's end column is the one after the region, as ours
    }
    return {{"artifactLocation", {{"uri", sarif_uri(f.path)}}}, {"region", region}};
}

}  // namespace

std::string sarif_uri(const std::string& path) {
    std::string out = path.size() > 0 && path[0] == '/' ? "file://" : "";
    for (const char ch : path) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~' || c == '/') {
            out += ch;
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

json diagnostics_sarif(const source_manager& sources, std::vector<diagnostic> diags, const std::string& automation_id,
                       std::size_t max_errors) {
    std::size_t hidden = 0;
    const std::vector<diagnostic> shown = shown_diagnostics(sources, std::move(diags), max_errors, hidden);
    json results = json::array();
    std::set<std::string> kinds;
    for (const diagnostic& d : shown) {
        const std::string kind(info(d.kind).name);
        kinds.insert(kind);
        std::string text = d.message;
        json related = json::array();
        for (const diag_note& n : d.notes) {
            text += "\nnote: " + n.message;
            const json where = physical(sources, n.where, {});
            if (where.is_null()) continue;
            related.push_back({{"id", related.size() + 1}, {"physicalLocation", where}, {"message", {{"text", n.message}}}});
        }
        json result{{"ruleId", kind}, {"level", level(d.sev)}, {"message", {{"text", text}}}};
        const json where = physical(sources, d.where, d.file);
        result["locations"] = json::array();
        if (!where.is_null()) result["locations"].push_back({{"physicalLocation", where}});
        if (!related.empty()) result["relatedLocations"] = related;
        results.push_back(result);
    }
    json rules = json::array();
    for (const std::string& k : kinds) {
        for (const diag_kind_info& i : all_diag_kinds())
            if (i.name == k) rules.push_back({{"id", k}, {"shortDescription", {{"text", std::string(i.meaning)}}}});
    }
    json run{{"tool", {{"driver", {{"name", "westphalia"}, {"version", "0.1.0"}, {"rules", rules}}}}},
             {"automationDetails", {{"id", automation_id}}},
             {"columnKind", "unicodeCodePoints"},
             {"invocations", {{{"executionSuccessful", false}}}},
             {"results", results}};
    if (hidden > 0) run["properties"] = {{"errorsNotShown", hidden}};
    return {{"$schema", sarif_schema}, {"version", sarif_version}, {"runs", json::array({run})}};
}

}  // namespace wp::dsl
