// Pass `patch`: the layer stack. Declarations of base, exclusive and options layers are added in
// manifest order; errata blocks (in errata, exclusive and expansion layers) replace, refine,
// except, withdraw, amend and add; they also replace and insert named blocks of sequences and
// procedures (on a copy of the declaration, so the parsed files stay as written). After patch: one list of declarations
// in force, each knowing the layer that last set it; errata targets exist; no exception is left
// pointing at a withdrawn rule; block_layers names the layer of every block an errata put in.
#include "westphalia/compiler/passes.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>

namespace wp::compiler {

const dsl::name* decl_name(const dsl::decl& d) {
    return std::visit(
        [](const auto& x) -> const dsl::name* {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, dsl::outline_decl> || std::is_same_v<T, dsl::state_decl> ||
                          std::is_same_v<T, dsl::errata_decl> || std::is_same_v<T, dsl::accept_decl>) {
                return nullptr;
            } else {
                return &x.id;
            }
        },
        d.node);
}

namespace {

dsl::span decl_where(const dsl::decl& d) {
    return std::visit([](const auto& x) { return x.where; }, d.node);
}

const char* decl_kind_word(const dsl::decl& d) {
    return std::visit(
        [](const auto& x) -> const char* {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, dsl::ruleset_decl>) return "manifest";
            else if constexpr (std::is_same_v<T, dsl::outline_decl>) return "outline";
            else if constexpr (std::is_same_v<T, dsl::enum_decl>) return "enum";
            else if constexpr (std::is_same_v<T, dsl::type_decl>) return "type";
            else if constexpr (std::is_same_v<T, dsl::record_decl>) return "record";
            else if constexpr (std::is_same_v<T, dsl::state_decl>) return "state block";
            else if constexpr (std::is_same_v<T, dsl::entities_decl>) return x.pieces ? "piece list" : "card list";
            else if constexpr (std::is_same_v<T, dsl::zone_decl>) return "zone";
            else if constexpr (std::is_same_v<T, dsl::map_decl>) return "map";
            else if constexpr (std::is_same_v<T, dsl::roll_decl>) return "roll";
            else if constexpr (std::is_same_v<T, dsl::derived_decl>) return x.predicate ? "predicate" : "quantity";
            else if constexpr (std::is_same_v<T, dsl::decision_decl>) return "decision";
            else if constexpr (std::is_same_v<T, dsl::action_decl>) return "action";
            else if constexpr (std::is_same_v<T, dsl::event_decl>) return "event";
            else if constexpr (std::is_same_v<T, dsl::procedure_decl>) return "procedure";
            else if constexpr (std::is_same_v<T, dsl::sequence_decl>) return "sequence";
            else if constexpr (std::is_same_v<T, dsl::option_decl>) return "option";
            else if constexpr (std::is_same_v<T, dsl::missing_decl>) return "missing-data declaration";
            else if constexpr (std::is_same_v<T, dsl::accept_decl>) return "accepted finding";
            else if constexpr (std::is_same_v<T, dsl::table_decl>) return "table";
            else if constexpr (std::is_same_v<T, dsl::rule_decl>) return "rule";
            else return "errata block";
        },
        d.node);
}

// Integer extent of a row key, for overlap tests.
struct extent {
    bool integer = false;
    std::int64_t lo = 0;
    std::int64_t hi = 0;
};

extent extent_of(const dsl::key_range& k) {
    switch (k.kind) {
        case dsl::key_kind::exact: return {true, k.lo, k.lo};
        case dsl::key_kind::range: return {true, std::min(k.lo, k.hi), std::max(k.lo, k.hi)};
        case dsl::key_kind::at_least: return {true, k.lo, std::numeric_limits<std::int64_t>::max()};
        case dsl::key_kind::at_most: return {true, std::numeric_limits<std::int64_t>::min(), k.hi};
        default: return {};
    }
}

bool keys_overlap(const dsl::key_range& a, const dsl::key_range& b) {
    const extent x = extent_of(a);
    const extent y = extent_of(b);
    if (x.integer && y.integer) return std::max(x.lo, y.lo) <= std::min(x.hi, y.hi);
    if (a.kind == dsl::key_kind::value && b.kind == dsl::key_kind::value) return a.value.text == b.value.text;
    if (a.kind == dsl::key_kind::odds && b.kind == dsl::key_kind::odds) return a.lo == b.lo && a.hi == b.hi;
    return false;
}

// ---- blocks of sequences and procedures, found by dotted path

std::string block_component(const dsl::stmt& s) { return s.id.text.empty() ? s.word : s.id.text; }

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = path.find('.', start);
        parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos) return parts;
        start = dot + 1;
    }
}

// Where a block statement sits: the statement list holding it and its index there.
struct block_site {
    std::vector<dsl::stmt>* list = nullptr;
    std::size_t index = 0;
    dsl::stmt& get() const { return (*list)[index]; }
};

// The blocks at path parts[at..] below `ss`. Statements that are not blocks (if, while, for,
// may, choose) do not add to a path, as in typecheck.
void find_blocks(std::vector<dsl::stmt>& ss, const std::vector<std::string>& parts, std::size_t at,
                 std::vector<block_site>& found) {
    for (std::size_t i = 0; i < ss.size(); ++i) {
        dsl::stmt& s = ss[i];
        if (s.kind == dsl::stmt_kind::block) {
            if (block_component(s) != parts[at]) continue;
            if (at + 1 == parts.size()) found.push_back({&ss, i});
            else find_blocks(s.body, parts, at + 1, found);
            continue;
        }
        find_blocks(s.body, parts, at, found);
        find_blocks(s.else_body, parts, at, found);
    }
}

void block_paths(const std::vector<dsl::stmt>& ss, const std::string& prefix, std::vector<std::string>& out) {
    for (const dsl::stmt& s : ss) {
        if (s.kind == dsl::stmt_kind::block) {
            const std::string path = prefix + "." + block_component(s);  // a copy: `out` grows below
            out.push_back(path);
            block_paths(s.body, path, out);
            continue;
        }
        block_paths(s.body, prefix, out);
        block_paths(s.else_body, prefix, out);
    }
}

std::vector<dsl::stmt>* body_of(dsl::decl& d) {
    if (auto* x = std::get_if<dsl::sequence_decl>(&d.node)) return &x->body;
    if (auto* x = std::get_if<dsl::procedure_decl>(&d.node)) return &x->body;
    return nullptr;
}

struct patcher {
    const loaded_ruleset& loaded;
    dsl::diagnostic_sink& sink;
    patched_ruleset out;
    std::vector<bool> live;
    std::map<const dsl::decl*, const dsl::decl*> copied;  // original -> patched copy (own())

    std::optional<std::size_t> find(const std::string& name) const {
        for (std::size_t i = 0; i < out.decls.size(); ++i) {
            if (!live[i]) continue;
            const dsl::name* n = decl_name(*out.decls[i].d);
            if (n && n->text == name) return i;
        }
        if (auto it = out.aliases.find(name); it != out.aliases.end() && it->second != name) return find(it->second);
        return std::nullopt;
    }

    void add(const dsl::decl* d, std::uint32_t layer, std::uint32_t origin) {
        placed_decl p;
        p.d = d;
        p.layer = layer;
        p.origin_layer = origin;
        p.text_layer = layer;
        out.decls.push_back(std::move(p));
        live.push_back(true);
    }

    void missing_target(const dsl::errata_op& op, const char* what) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < out.decls.size(); ++i) {
            if (!live[i]) continue;
            if (const dsl::name* n = decl_name(*out.decls[i].d)) names.push_back(n->text);
        }
        std::vector<dsl::diag_note> notes;
        if (auto near = dsl::closest_name(op.target.text, names)) notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
        if (auto w = out.withdrawn.find(op.target.text); w != out.withdrawn.end())
            notes.push_back({w->second, "`" + op.target.text + "` was withdrawn here"});
        sink.error(dsl::diag_kind::errata_target_missing, op.target.where,
                   std::string("this errata ") + what + " `" + op.target.text +
                       "`, but no layer below declares it",
                   std::move(notes));
    }

    void wrong_kind(const dsl::errata_op& op, const dsl::decl& target, const std::string& needs) {
        sink.error(dsl::diag_kind::wrong_kind_of_name, op.target.where,
                   "`" + op.target.text + "` is a " + decl_kind_word(target) + "; " + needs,
                   {{decl_where(target), "`" + op.target.text + "` is declared here"}});
    }

    // `replace map X`: the word before the name must be X's kind; `rule` names any declaration.
    bool word_fits(const dsl::errata_op& op, const dsl::decl& target) {
        static const std::map<std::string, std::string> kinds{{"table", "table"},         {"map", "map"},
                                                              {"pieces", "piece list"},   {"cards", "card list"},
                                                              {"procedure", "procedure"}, {"decision", "decision"},
                                                              {"option", "option"}};
        const auto k = kinds.find(op.decl_word);
        if (k == kinds.end() || k->second == decl_kind_word(target)) return true;
        std::string word = "rule";
        for (const auto& [w, kind] : kinds)
            if (kind == decl_kind_word(target)) word = w;
        sink.error(dsl::diag_kind::wrong_kind_of_name, op.target.where,
                   "`" + op.target.text + "` is a " + decl_kind_word(target) + ", not a " + k->second + "; write `" +
                       (op.kind == dsl::errata_op_kind::withdraw ? "withdraw " : "replace ") + word + " " + op.target.text + "`",
                   {{decl_where(target), "`" + op.target.text + "` is declared here"}});
        return false;
    }

    const dsl::decl* single_replacement(const dsl::errata_op& op) {
        if (op.replacement.size() != 1) return nullptr;  // the grammar gives exactly one
        return &op.replacement.front();
    }

    // A placed sequence or procedure the patcher may change: its own copy of the declaration.
    dsl::decl& own(placed_decl& p) {
        for (const auto& o : out.owned)
            if (o.get() == p.d) return *o;
        out.owned.push_back(std::make_unique<dsl::decl>(*p.d));
        copied[p.d] = out.owned.back().get();
        p.d = out.owned.back().get();
        return *out.owned.back();
    }

    std::vector<std::string> all_block_paths() const {
        std::vector<std::string> paths;
        for (std::size_t i = 0; i < out.decls.size(); ++i) {
            if (!live[i]) continue;
            const dsl::decl& d = *out.decls[i].d;
            if (const auto* x = std::get_if<dsl::sequence_decl>(&d.node)) block_paths(x->body, x->id.text, paths);
            if (const auto* x = std::get_if<dsl::procedure_decl>(&d.node)) block_paths(x->body, x->id.text, paths);
        }
        return paths;
    }

    void missing_block(const dsl::errata_op& op, const std::string& why) {
        std::vector<dsl::diag_note> notes;
        if (auto near = dsl::closest_name(op.target.text, all_block_paths()))
            notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
        else
            notes.push_back({std::nullopt, "a block path starts with the sequence or procedure name: `game.turn.phase.step`"});
        sink.error(dsl::diag_kind::errata_target_missing, op.target.where, why, std::move(notes));
    }

    // replace_block and insert_block: the target block, found by path in its sequence or procedure.
    bool apply_block_op(const dsl::errata_op& op, std::uint32_t layer) {
        if (op.block.size() != 1) return false;  // the grammar gives exactly one
        const dsl::stmt& incoming = op.block.front();
        const std::vector<std::string> parts = split_path(op.target.text);
        const auto owner = find(parts.front());
        if (!owner || parts.size() < 2) {
            missing_block(op, "this errata names the block `" + op.target.text + "`, but no layer below has it");
            return false;
        }
        placed_decl& p = out.decls[*owner];
        if (!std::holds_alternative<dsl::sequence_decl>(p.d->node) &&
            !std::holds_alternative<dsl::procedure_decl>(p.d->node)) {
            sink.error(dsl::diag_kind::wrong_kind_of_name, op.target.where,
                       "`" + parts.front() + "` is a " + decl_kind_word(*p.d) +
                           "; a block path starts with the name of a sequence or a procedure",
                       {{decl_where(*p.d), "`" + parts.front() + "` is declared here"}});
            return false;
        }
        // The patcher's own copy of the declaration; when the operation fails it stays unchanged.
        dsl::decl& d = own(p);
        std::vector<block_site> found;
        find_blocks(*body_of(d), parts, 1, found);
        if (found.size() != 1) {
            if (found.empty())
                missing_block(op, "this errata names the block `" + op.target.text + "`, but no layer below has it");
            else
                sink.error(dsl::diag_kind::errata_target_missing, op.target.where,
                           "`" + op.target.text + "` names " + std::to_string(found.size()) +
                               " blocks; give the blocks different names so each has its own path");
            return false;
        }
        const block_site site = found.front();
        const dsl::stmt& target = site.get();
        if (target.word != op.block_word) {
            sink.error(dsl::diag_kind::wrong_kind_of_name, op.target.where,
                       "`" + op.target.text + "` is a " + target.word + ", not a " + op.block_word,
                       {{target.where, "the " + target.word + " is here"},
                        {std::nullopt, "write `" + target.word + " " + op.target.text + "`"}});
            return false;
        }
        if (op.kind == dsl::errata_op_kind::replace_block && incoming.word != target.word) {
            sink.error(dsl::diag_kind::wrong_kind_of_name, incoming.where,
                       "a " + target.word + " can only be replaced by a " + target.word + ", not by a " + incoming.word,
                       {{target.where, "the " + target.word + " being replaced is here"}});
            return false;
        }
        // The path the incoming block will have, which no other block may have.
        std::string parent;
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) parent += (i ? "." : "") + parts[i];
        const std::string new_path = parent + "." + block_component(incoming);
        if (op.kind == dsl::errata_op_kind::insert_block || new_path != op.target.text) {
            std::vector<block_site> clash;
            find_blocks(*body_of(d), split_path(new_path), 1, clash);
            if (!clash.empty()) {
                sink.error(dsl::diag_kind::duplicate_name, incoming.id.text.empty() ? incoming.where : incoming.id.where,
                           "a block `" + new_path + "` already exists; each block needs its own path",
                           {{clash.front().get().where, "the existing block is here"}});
                return false;
            }
        }
        if (op.kind == dsl::errata_op_kind::replace_block) {
            // The replaced block's inner blocks are gone with it.
            for (auto it = out.block_layers.begin(); it != out.block_layers.end();) {
                const std::string& k = it->first;
                if (k == op.target.text || k.rfind(op.target.text + ".", 0) == 0) it = out.block_layers.erase(it);
                else ++it;
            }
            site.get() = incoming;
        } else {
            const std::size_t at = site.index + (op.position == "after" ? 1 : 0);
            site.list->insert(site.list->begin() + static_cast<std::ptrdiff_t>(at), incoming);
        }
        out.block_layers[new_path] = layer;
        p.layer = layer;
        return true;
    }

    void apply(const dsl::errata_decl& block, const dsl::errata_op& op, std::uint32_t layer) {
        applied_errata record{layer, &block, &op, nullptr};
        switch (op.kind) {
            case dsl::errata_op_kind::replace: {
                const dsl::decl* r = single_replacement(op);
                const auto i = find(op.target.text);
                if (!i) return missing_target(op, "replaces");
                if (!r) return;
                placed_decl& p = out.decls[*i];
                if (!word_fits(op, *p.d)) return;
                const bool both_rules = std::holds_alternative<dsl::rule_decl>(p.d->node) &&
                                        std::holds_alternative<dsl::rule_decl>(r->node);
                if (!both_rules && p.d->node.index() != r->node.index())
                    return wrong_kind(op, *p.d, std::string("it can only be replaced by another ") + decl_kind_word(*p.d));
                const dsl::name* old_name = decl_name(*p.d);
                const dsl::name* new_name = decl_name(*r);
                if (old_name && new_name && old_name->text != new_name->text) out.aliases[old_name->text] = new_name->text;
                p.d = r;
                p.layer = layer;
                p.text_layer = layer;
                p.refinements.clear();
                p.amended = false;
                p.amended_rows.clear();
                p.row_layers.clear();
                record.result = r;
                break;
            }
            case dsl::errata_op_kind::refine: {
                const auto i = find(op.target.text);
                if (!i) return missing_target(op, "refines");
                placed_decl& p = out.decls[*i];
                if (!std::holds_alternative<dsl::rule_decl>(p.d->node) && !std::holds_alternative<dsl::action_decl>(p.d->node))
                    return wrong_kind(op, *p.d, "`refine` narrows the guard of a rule or an action");
                if (op.guard) p.refinements.push_back({&*op.guard, layer});
                p.layer = layer;
                record.result = p.d;
                break;
            }
            case dsl::errata_op_kind::except: {
                const dsl::decl* r = single_replacement(op);
                const auto i = find(op.target.text);
                if (!i) return missing_target(op, "makes an exception to");
                if (!std::holds_alternative<dsl::rule_decl>(out.decls[*i].d->node))
                    return wrong_kind(op, *out.decls[*i].d, "`except` adds an exception to a rule");
                if (!r) return;
                if (!std::holds_alternative<dsl::rule_decl>(r->node)) {
                    sink.error(dsl::diag_kind::wrong_kind_of_name, decl_where(*r),
                               std::string("an exception must be a rule, not a ") + decl_kind_word(*r));
                    return;
                }
                add(r, layer, layer);
                out.decls.back().exceptions.push_back({op.target.text, op.target.where});
                record.result = r;
                break;
            }
            case dsl::errata_op_kind::withdraw: {
                const auto i = find(op.target.text);
                if (!i) return missing_target(op, "withdraws");
                if (!word_fits(op, *out.decls[*i].d)) return;
                live[*i] = false;
                if (const dsl::name* n = decl_name(*out.decls[*i].d)) out.withdrawn[n->text] = op.where;
                out.withdrawn[op.target.text] = op.where;
                break;
            }
            case dsl::errata_op_kind::amend: {
                const auto i = find(op.target.text);
                if (!i) return missing_target(op, "amends");
                placed_decl& p = out.decls[*i];
                const auto* t = std::get_if<dsl::table_decl>(&p.d->node);
                if (!t) return wrong_kind(op, *p.d, "`amend` changes a row of a table");
                if (!op.row) return;
                if (!p.amended) {
                    p.amended = true;
                    for (const dsl::table_row& row : t->rows) {
                        p.amended_rows.push_back(&row);
                        p.row_layers.push_back(p.layer);
                    }
                }
                std::vector<std::size_t> overlapping;
                for (std::size_t r = 0; r < p.amended_rows.size(); ++r)
                    if (p.amended_rows[r]->natural == op.row->natural && keys_overlap(p.amended_rows[r]->key, op.row->key)) overlapping.push_back(r);
                if (overlapping.size() > 1) {
                    std::vector<dsl::diag_note> notes;
                    for (std::size_t r : overlapping) notes.push_back({p.amended_rows[r]->where, "it overlaps this row"});
                    sink.error(dsl::diag_kind::bad_table, op.row->key.where,
                               "the amended row `" + op.row->key.text + "` overlaps " + std::to_string(overlapping.size()) +
                                   " rows of `" + op.target.text + "`; amend one row at a time",
                               std::move(notes));
                    return;
                }
                if (overlapping.size() == 1) {
                    p.amended_rows[overlapping.front()] = &*op.row;
                    p.row_layers[overlapping.front()] = layer;
                } else {
                    // A new row: in key order for integer keys, else at the end.
                    std::size_t at = p.amended_rows.size();
                    const extent e = extent_of(op.row->key);
                    if (e.integer) {
                        for (std::size_t r = 0; r < p.amended_rows.size(); ++r) {
                            const extent x = extent_of(p.amended_rows[r]->key);
                            if (x.integer && x.lo > e.lo) {
                                at = r;
                                break;
                            }
                        }
                    }
                    p.amended_rows.insert(p.amended_rows.begin() + static_cast<std::ptrdiff_t>(at), &*op.row);
                    p.row_layers.insert(p.row_layers.begin() + static_cast<std::ptrdiff_t>(at), layer);
                }
                p.layer = layer;
                record.result = p.d;
                break;
            }
            case dsl::errata_op_kind::replace_block:
            case dsl::errata_op_kind::insert_block: {
                if (!apply_block_op(op, layer)) return;
                record.result = out.decls[*find(split_path(op.target.text).front())].d;
                break;
            }
            case dsl::errata_op_kind::add: {
                const dsl::decl* r = single_replacement(op);
                if (!r) return;
                if (std::holds_alternative<dsl::errata_decl>(r->node) || std::holds_alternative<dsl::ruleset_decl>(r->node) ||
                    std::holds_alternative<dsl::outline_decl>(r->node)) {
                    sink.error(dsl::diag_kind::errata_outside_layer, decl_where(*r),
                               std::string("an errata `add` adds a declaration, not a ") + decl_kind_word(*r));
                    return;
                }
                add(r, layer, layer);
                record.result = r;
                break;
            }
        }
        out.errata.push_back(record);
    }

    void run() {
        for (std::uint32_t li = 0; li < loaded.layers.size(); ++li) {
            const loaded_layer& layer = loaded.layers[li];
            const bool errata_layer = layer.kind == ir::layer_kind::errata;
            for (std::size_t fi : layer.files) {
                const loaded_file& f = loaded.files[fi];
                if (!f.tree) continue;
                for (const dsl::decl& d : f.tree->decls) {
                    if (const auto* e = std::get_if<dsl::errata_decl>(&d.node)) {
                        if (!errata_layer && layer.kind != ir::layer_kind::expansion &&
                            layer.kind != ir::layer_kind::exclusive) {
                            sink.error(dsl::diag_kind::errata_outside_layer, e->where,
                                       "an errata block in the " + std::string(ir::name_of(layer.kind)) + " layer `" +
                                           layer.name + "`; errata go in a layer of kind `errata` (or `exclusive` or `expansion`)",
                                       {{layer.where, "the layer is declared here"}});
                            continue;
                        }
                        for (const dsl::errata_op& op : e->ops) apply(*e, op, li);
                        continue;
                    }
                    if (std::holds_alternative<dsl::ruleset_decl>(d.node) || std::holds_alternative<dsl::outline_decl>(d.node)) {
                        sink.error(dsl::diag_kind::manifest_invalid, decl_where(d),
                                   std::string("a ") + decl_kind_word(d) + " belongs in its own file (" +
                                       (std::holds_alternative<dsl::ruleset_decl>(d.node) ? "ruleset.wph" : "the outline file") +
                                       "), not in a layer");
                        continue;
                    }
                    if (errata_layer) {
                        const dsl::name* n = decl_name(d);
                        sink.error(dsl::diag_kind::errata_outside_layer, n ? n->where : decl_where(d),
                                   std::string("a ") + decl_kind_word(d) + " outside an errata block in the errata layer `" +
                                       layer.name + "`; write it as `add …` inside `errata … { }`");
                        continue;
                    }
                    add(&d, li, li);
                }
            }
        }
        // Orphans: exceptions and overrides that point at a withdrawn rule.
        for (std::size_t i = 0; i < out.decls.size(); ++i) {
            if (!live[i]) continue;
            const placed_decl& p = out.decls[i];
            auto orphan = [&](const std::string& over, dsl::span where, const char* how) {
                auto w = out.withdrawn.find(over);
                if (w == out.withdrawn.end() || find(over)) return;
                sink.error(dsl::diag_kind::orphan_exception, where,
                           std::string(how) + " `" + over + "`, which an errata withdraws",
                           {{w->second, "`" + over + "` is withdrawn here"},
                            {std::nullopt, "withdraw the exception too, or point it at the rule that takes over"}});
            };
            for (const exception_edge& e : p.exceptions) orphan(e.over, e.where, "this exception overrides");
            if (const auto* r = std::get_if<dsl::rule_decl>(&p.d->node))
                for (const dsl::name& o : r->overrides) orphan(o.text, o.where, "this rule overrides");
        }
        // Errata records that set a declaration later copied by a block operation point at the copy.
        for (applied_errata& a : out.errata) {
            while (a.result) {
                auto it = copied.find(a.result);
                if (it == copied.end()) break;
                a.result = it->second;
            }
        }
        std::vector<placed_decl> kept;
        for (std::size_t i = 0; i < out.decls.size(); ++i)
            if (live[i]) kept.push_back(std::move(out.decls[i]));
        out.decls = std::move(kept);
    }
};

}  // namespace

patched_ruleset patch(const loaded_ruleset& loaded, dsl::diagnostic_sink& sink) {
    patcher p{loaded, sink, {}, {}, {}};
    p.run();
    return std::move(p.out);
}

}  // namespace wp::compiler
