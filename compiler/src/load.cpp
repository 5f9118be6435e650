// Pass `load`: the manifest (ruleset.wph), the outline and every layer file, read and parsed.
// After load: every readable file has a syntax tree; every problem of every file is reported
// (one syntax error per file at most), so a designer sees them all in one run.
#include "westphalia/compiler/passes.hpp"

#include "westphalia/dsl/parser.hpp"

#include <set>

namespace wp::compiler {

namespace {

std::optional<ir::layer_kind> layer_kind_of(const std::string& text) {
    if (text == "base") return ir::layer_kind::base;
    if (text == "exclusive") return ir::layer_kind::exclusive;
    if (text == "errata") return ir::layer_kind::errata;
    if (text == "options") return ir::layer_kind::options;
    return std::nullopt;
}

std::string display_path(const std::filesystem::path& folder, const std::string& relative) {
    return (folder / relative).lexically_normal().generic_string();
}

std::optional<loaded_file> read_and_parse(const std::filesystem::path& folder, const std::string& relative,
                                          std::optional<dsl::span> cited_from, dsl::source_manager& sources,
                                          dsl::diagnostic_sink& sink) {
    const auto id = dsl::load_source(folder / relative, display_path(folder, relative), sources, sink, cited_from);
    if (!id) return std::nullopt;
    loaded_file f;
    f.source = *id;
    f.path = relative;
    f.cited_from = cited_from;
    f.tree = dsl::parse(sources, *id, sink);
    return f;
}

// A file with no declaration (empty, or only comments) is almost always a mistake in a layer.
void check_not_empty(const loaded_file& f, dsl::diagnostic_sink& sink) {
    if (f.tree && f.tree->decls.empty())
        sink.error(dsl::diag_kind::empty_file, dsl::span{f.source, 0, 0},
                   "`" + f.path + "` holds no declaration; remove it from the layer or add its rules");
}

loaded_ruleset load_single_file(const std::filesystem::path& path, dsl::source_manager& sources,
                                dsl::diagnostic_sink& sink) {
    loaded_ruleset out;
    out.single_file = true;
    dsl::ruleset_decl m;
    m.id.text = path.stem().string();
    m.title = m.id.text;
    m.min_players = 1;
    m.max_players = 16;
    const std::string display = path.lexically_normal().generic_string();
    const auto id = dsl::load_source(path, display, sources, sink);
    if (!id) return out;
    loaded_file f;
    f.source = *id;
    f.path = display;
    f.tree = dsl::parse(sources, *id, sink);
    check_not_empty(f, sink);
    m.layers.push_back({{"base", {}}, {"base", {}}, {{display, {}}}, {}});
    out.manifest = m;
    out.layers.push_back({"base", ir::layer_kind::base, {0}, {}});
    out.files.push_back(std::move(f));
    return out;
}

}  // namespace

loaded_ruleset load(const std::filesystem::path& folder, const std::optional<std::string>& upto,
                    dsl::source_manager& sources, dsl::diagnostic_sink& sink, bool keep_options) {
    loaded_ruleset out;
    const std::filesystem::path manifest_path = folder / "ruleset.wph";
    std::error_code ec;
    if (std::filesystem::is_regular_file(folder, ec)) return load_single_file(folder, sources, sink);
    if (!std::filesystem::is_directory(folder, ec)) {
        sink.error(dsl::diag_kind::file_not_found, "cannot find the ruleset folder `" + folder.generic_string() + "`");
        return out;
    }
    if (!std::filesystem::exists(manifest_path, ec)) {
        dsl::diagnostic d{dsl::diag_kind::manifest_missing, dsl::info(dsl::diag_kind::manifest_missing).default_severity, std::nullopt,
                          "this folder has no `ruleset.wph`: a ruleset folder needs a manifest naming its outline "
                          "and layers",
                          {}};
        d.file = folder.generic_string();  // the folder is where the problem is
        sink.report(std::move(d));
        return out;
    }
    out.manifest_file = read_and_parse(folder, "ruleset.wph", std::nullopt, sources, sink);
    if (!out.manifest_file || !out.manifest_file->tree) return out;

    // The manifest holds exactly one `ruleset` declaration and nothing else.
    const dsl::file& mf = *out.manifest_file->tree;
    for (const dsl::decl& d : mf.decls) {
        if (const auto* r = std::get_if<dsl::ruleset_decl>(&d.node)) {
            if (out.manifest) {
                sink.error(dsl::diag_kind::manifest_invalid, r->where, "the manifest declares a second ruleset",
                           {{out.manifest->where, "the first one is here"}});
                continue;
            }
            out.manifest = *r;
        } else {
            const dsl::name* n = decl_name(d);
            dsl::span where = n ? n->where : dsl::span{out.manifest_file->source, 0, 0};
            sink.error(dsl::diag_kind::manifest_invalid, where,
                       "the manifest may only hold the `ruleset { … }` declaration; put rules in a layer file");
        }
    }
    if (!out.manifest) {
        sink.report({dsl::diag_kind::manifest_invalid, dsl::severity::error,
                     dsl::span{out.manifest_file->source, 0, 0},
                     "`ruleset.wph` holds no `ruleset` declaration", {}});
        return out;
    }
    const dsl::ruleset_decl& m = *out.manifest;
    if (m.min_players < 1 || m.max_players < m.min_players) {
        sink.error(dsl::diag_kind::manifest_invalid, m.where,
                   "the manifest needs `players N..M` with 1 <= N <= M (found " + std::to_string(m.min_players) + ".." +
                       std::to_string(m.max_players) + ")");
    }

    // The outline.
    if (m.outline.empty()) {
        sink.error(dsl::diag_kind::manifest_invalid, m.id.where,
                   "the manifest names no outline: add `outline \"outline.wph\"`");
    } else {
        out.outline_file = read_and_parse(folder, m.outline, m.where, sources, sink);
        if (out.outline_file && out.outline_file->tree) {
            for (const dsl::decl& d : out.outline_file->tree->decls) {
                if (const auto* o = std::get_if<dsl::outline_decl>(&d.node)) {
                    if (out.outline) {
                        sink.error(dsl::diag_kind::manifest_invalid, o->where, "the outline file holds a second outline",
                                   {{out.outline->where, "the first one is here"}});
                        continue;
                    }
                    out.outline = *o;
                } else {
                    const dsl::name* n = decl_name(d);
                    sink.error(dsl::diag_kind::manifest_invalid,
                               n ? n->where : dsl::span{out.outline_file->source, 0, 0},
                               "the outline file may only hold the `outline { … }` declaration");
                }
            }
            if (!out.outline)
                sink.report({dsl::diag_kind::manifest_invalid, dsl::severity::error,
                             dsl::span{out.outline_file->source, 0, 0}, "`" + m.outline + "` holds no `outline { … }`",
                             {}});
        }
    }

    // The layers, in manifest order, up to --upto.
    if (upto) {
        bool found = false;
        std::vector<std::string> names;
        for (const dsl::ruleset_layer& l : m.layers) {
            names.push_back(l.id.text);
            found = found || l.id.text == *upto;
        }
        if (!found) {
            std::vector<dsl::diag_note> notes;
            if (auto near = dsl::closest_name(*upto, names)) notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
            std::string list;
            for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
            notes.push_back({m.where, "the layers are: " + list});
            sink.report({dsl::diag_kind::unknown_name, dsl::severity::error, std::nullopt,
                         "--upto names the layer `" + *upto + "`, which the manifest does not declare", notes});
        }
    }
    std::map<std::string, dsl::span> layer_names;
    std::set<std::string> seen_files;
    bool past_upto = false;
    for (const dsl::ruleset_layer& l : m.layers) {
        if (past_upto && !(keep_options && layer_kind_of(l.kind.text) == ir::layer_kind::options)) continue;
        if (auto [it, fresh] = layer_names.emplace(l.id.text, l.id.where); !fresh) {
            sink.error(dsl::diag_kind::duplicate_name, l.id.where, "the manifest declares the layer `" + l.id.text + "` twice",
                       {{it->second, "the first `" + l.id.text + "` is here"}});
        }
        const auto kind = layer_kind_of(l.kind.text);
        if (!kind) {
            sink.error(dsl::diag_kind::bad_layer_kind, l.kind.where,
                       "`" + l.kind.text + "` is not a layer kind; use base, exclusive, errata or options");
        }
        loaded_layer layer;
        layer.name = l.id.text;
        layer.kind = kind.value_or(ir::layer_kind::base);
        layer.where = l.where;
        for (const dsl::name& f : l.files) {
            if (!seen_files.insert(f.text).second) {
                sink.error(dsl::diag_kind::manifest_invalid, f.where, "`" + f.text + "` is named in two layers");
                continue;
            }
            auto file = read_and_parse(folder, f.text, f.where, sources, sink);
            if (!file) {
                ++out.unreadable;
                continue;
            }
            check_not_empty(*file, sink);
            layer.files.push_back(out.files.size());
            out.files.push_back(std::move(*file));
        }
        out.layers.push_back(std::move(layer));
        if (upto && l.id.text == *upto) past_upto = true;
    }
    if (m.layers.empty()) sink.error(dsl::diag_kind::manifest_invalid, m.where, "the manifest declares no layer");
    return out;
}

}  // namespace wp::compiler
