// Pass `load`: the manifest (ruleset.wph), the outline and every layer file, read and parsed.
// After load: every readable file has a syntax tree; every problem of every file is reported
// (one syntax error per file at most), so a designer sees them all in one run.
#include "westphalia/compiler/passes.hpp"

#include "westphalia/dsl/parser.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace wp::compiler {

namespace {

std::optional<ir::layer_kind> layer_kind_of(const std::string& text) {
    if (text == "base") return ir::layer_kind::base;
    if (text == "exclusive") return ir::layer_kind::exclusive;
    if (text == "errata") return ir::layer_kind::errata;
    if (text == "options") return ir::layer_kind::options;
    if (text == "expansion") return ir::layer_kind::expansion;
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
    m.layers.push_back({{"base", {}}, {"base", {}}, {}, {{display, {}}}, {}});
    out.manifest = m;
    out.layers.push_back({"base", ir::layer_kind::base, {0}, {}});
    out.files.push_back(std::move(f));
    return out;
}

// The layers in the order they are applied: the manifest's, with the expansions `with` selects
// in the place of the first expansion declared, ordered by their `after` (then manifest order).
// Reports a `--with` naming no expansion, an `after` naming no expansion, and a cycle.
std::vector<const dsl::ruleset_layer*> applied_stack(const dsl::ruleset_decl& m, const std::vector<std::string>& with,
                                                     dsl::diagnostic_sink& sink, std::vector<loaded_expansion>& declared) {
    std::vector<const dsl::ruleset_layer*> exps;
    std::map<std::string, std::size_t> index;
    for (const dsl::ruleset_layer& l : m.layers) {
        if (l.kind.text != "expansion") {
            for (const dsl::name& a : l.after)
                sink.error(dsl::diag_kind::manifest_invalid, a.where,
                           "only an expansion declares an order (`after " + a.text + "`); `" + l.id.text + "` is a " +
                               l.kind.text + " layer, applied in manifest order");
            continue;
        }
        index.emplace(l.id.text, exps.size());
        exps.push_back(&l);
    }
    std::string list;
    std::vector<std::string> names;
    for (const dsl::ruleset_layer* e : exps) {
        list += (list.empty() ? "" : ", ") + e->id.text;
        names.push_back(e->id.text);
    }
    std::vector<bool> selected(exps.size(), false);
    for (const std::string& w : with) {
        auto it = index.find(w);
        if (it != index.end()) {
            selected[it->second] = true;
            continue;
        }
        std::vector<dsl::diag_note> notes;
        if (auto near = dsl::closest_name(w, names)) notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
        notes.push_back({m.where, list.empty() ? std::string("the manifest declares no expansion")
                                               : "the expansions are: " + list});
        sink.report({dsl::diag_kind::unknown_name, dsl::severity::error, std::nullopt,
                     "--with names the expansion `" + w + "`, which the manifest does not declare", notes});
    }
    // The declared order: an edge from each `after` name to the expansion declaring it.
    std::vector<std::vector<std::size_t>> before(exps.size());  // before[i]: the expansions i comes after
    for (std::size_t i = 0; i < exps.size(); ++i) {
        for (const dsl::name& a : exps[i]->after) {
            auto it = index.find(a.text);
            if (it == index.end()) {
                std::vector<dsl::diag_note> notes;
                if (auto near = dsl::closest_name(a.text, names)) notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
                sink.error(dsl::diag_kind::unknown_name, a.where,
                           "`" + exps[i]->id.text + "` comes after `" + a.text + "`, which is not an expansion of this manifest",
                           notes);
                continue;
            }
            before[i].push_back(it->second);
        }
    }
    // Topological order, the earliest declared first among those ready (Kahn's algorithm).
    std::vector<std::size_t> order;
    std::vector<bool> placed(exps.size(), false);
    while (order.size() < exps.size()) {
        bool progress = false;
        for (std::size_t i = 0; i < exps.size(); ++i) {
            if (placed[i]) continue;
            bool ready = true;
            for (std::size_t b : before[i]) ready = ready && placed[b];
            if (!ready) continue;
            placed[i] = true;
            order.push_back(i);
            progress = true;
            break;
        }
        if (progress) continue;
        // A cycle: follow the `after` edges from the first unplaced expansion until one repeats.
        std::size_t at = 0;
        while (placed[at]) ++at;
        std::vector<std::size_t> path;
        std::vector<bool> on_path(exps.size(), false);
        while (!on_path[at]) {
            on_path[at] = true;
            path.push_back(at);
            for (std::size_t b : before[at])
                if (!placed[b]) {
                    at = b;
                    break;
                }
        }
        // The cycle is the path from `at`'s first visit on: c0 after c1 after … after c0.
        std::vector<std::size_t> cycle(std::find(path.begin(), path.end(), at), path.end());
        auto after_name = [&](std::size_t from, std::size_t to) -> const dsl::name* {
            for (const dsl::name& a : exps[from]->after)
                if (a.text == exps[to]->id.text) return &a;
            return nullptr;
        };
        std::string text = exps[cycle[0]]->id.text;
        std::vector<dsl::diag_note> notes;
        for (std::size_t j = 0; j < cycle.size(); ++j) {
            const std::size_t next = cycle[(j + 1) % cycle.size()];
            text += " after " + exps[next]->id.text;
            if (j > 0)
                if (const dsl::name* a = after_name(cycle[j], next))
                    notes.push_back({a->where, "`" + exps[cycle[j]]->id.text + "` comes after `" + a->text + "` here"});
        }
        const dsl::name* first = after_name(cycle[0], cycle[1 % cycle.size()]);
        sink.error(dsl::diag_kind::manifest_invalid, first ? first->where : exps[cycle[0]]->where,
                   "the expansions' declared order forms a cycle: " + text, notes);
        for (std::size_t i = 0; i < exps.size(); ++i)
            if (!placed[i]) {
                placed[i] = true;
                order.push_back(i);
            }
    }
    for (const dsl::ruleset_layer* e : exps) {
        loaded_expansion x;
        x.name = e->id.text;
        for (const dsl::name& a : e->after) x.after.push_back(a.text);
        for (const dsl::name& f : e->files) x.files.push_back(f.text);
        x.selected = selected[index.at(e->id.text)];
        declared.push_back(std::move(x));
    }
    std::vector<const dsl::ruleset_layer*> stack;
    bool expansions_placed = false;
    for (const dsl::ruleset_layer& l : m.layers) {
        if (l.kind.text != "expansion") {
            stack.push_back(&l);
            continue;
        }
        if (expansions_placed) continue;
        expansions_placed = true;
        for (std::size_t i : order)
            if (selected[i]) stack.push_back(exps[i]);
    }
    return stack;
}

}  // namespace

loaded_ruleset load(const std::filesystem::path& folder, const std::optional<std::string>& upto,
                    dsl::source_manager& sources, dsl::diagnostic_sink& sink, bool keep_options,
                    const std::vector<std::string>& with) {
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
    // The checker's budgets (docs/language.md §11): each at most once, in the command line's range.
    for (std::size_t i = 0; i < m.checker.size(); ++i) {
        const dsl::checker_setting& c = m.checker[i];
        const bool depth = c.name == "unroll_depth", games = c.name == "evidence_games", resources = c.name == "resource_limit";
        // `bounds part with tables, choices`: a stage named twice
        const bool stage = c.name == "tables_with_bounds" || c.name == "choices_with_bounds";
        const char* words = depth ? "unroll depth" : games ? "evidence games" : resources ? "resource limit" : "unfold limit";
        for (std::size_t j = 0; j < i; ++j)
            if (m.checker[j].name == c.name) {
                sink.error(dsl::diag_kind::manifest_invalid, c.where,
                           stage ? std::string("`bounds part with` names `") + (c.name == "tables_with_bounds" ? "tables" : "choices") +
                                       "` twice in the manifest"
                                 : std::string("`") + words + "` is set twice in the manifest");
                break;
            }
        if (stage) continue;  // value 1, from the grammar
        if (c.value < 0 || (depth && c.value > 64) || (games && c.value > ir::max_evidence_games) ||
            (resources && c.value > ir::max_resource_limit))
            sink.error(dsl::diag_kind::manifest_invalid, c.where,
                       std::string("`") + words + "` must be " +
                           (depth       ? "0 to 64"
                            : games     ? "0 (no play) to " + std::to_string(ir::max_evidence_games)
                            : resources ? "0 (no limit) to " + std::to_string(ir::max_resource_limit)
                                        : "0 (no limit) or more") +
                           " (found " + std::to_string(c.value) + ")");
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

    // The expansions: which `--with` selects, and the order they are applied in.
    const std::vector<const dsl::ruleset_layer*> stack = applied_stack(m, with, sink, out.expansions);

    // The layers, in the order applied (manifest order, the selected expansions in the place of
    // the first one declared), up to --upto.
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
        } else {
            bool in_stack = false;
            for (const dsl::ruleset_layer* l : stack) in_stack = in_stack || l->id.text == *upto;
            if (!in_stack)
                sink.report({dsl::diag_kind::unknown_name, dsl::severity::error, std::nullopt,
                             "--upto names the expansion `" + *upto + "`, which --with does not select",
                             {{std::nullopt, "add it: --with " + *upto}}});
        }
    }
    std::map<std::string, dsl::span> layer_names;
    std::set<std::string> seen_files;
    // --upto cuts the layers after its layer (after the expansions, when it names one), except
    // the selected expansions, which are always applied, and with keep_options the options layers.
    std::size_t last_kept = stack.size();
    if (upto) {
        for (std::size_t i = 0; i < stack.size(); ++i)
            if (stack[i]->id.text == *upto && last_kept == stack.size()) last_kept = i;
        if (last_kept < stack.size())
            while (last_kept + 1 < stack.size() && stack[last_kept]->kind.text == "expansion" &&
                   stack[last_kept + 1]->kind.text == "expansion")
                ++last_kept;
    }
    std::size_t at = 0;
    for (const dsl::ruleset_layer* lp : stack) {
        const dsl::ruleset_layer& l = *lp;
        const bool past_upto = last_kept < stack.size() && at++ > last_kept;
        if (past_upto && l.kind.text != "expansion" &&
            !(keep_options && layer_kind_of(l.kind.text) == ir::layer_kind::options))
            continue;
        if (auto [it, fresh] = layer_names.emplace(l.id.text, l.id.where); !fresh) {
            sink.error(dsl::diag_kind::duplicate_name, l.id.where, "the manifest declares the layer `" + l.id.text + "` twice",
                       {{it->second, "the first `" + l.id.text + "` is here"}});
        }
        const auto kind = layer_kind_of(l.kind.text);
        if (!kind) {
            sink.error(dsl::diag_kind::bad_layer_kind, l.kind.where,
                       "`" + l.kind.text + "` is not a layer kind; use base, exclusive, errata, options or expansion");
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
    }
    if (m.layers.empty()) sink.error(dsl::diag_kind::manifest_invalid, m.where, "the manifest declares no layer");
    return out;
}

}  // namespace wp::compiler
