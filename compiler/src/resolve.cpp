// Pass `resolve`: every declaration in force gets its table index and its symbol (duplicate-name
// otherwise); types are resolved (unknown-name, wrong-kind); the declaration tables of the IR are
// built with their parameters, result types and constant data. After resolve: every declared
// name is a symbol with an IR index; bodies still wait for typecheck.
#include "context.hpp"

#include <algorithm>
#include <set>

namespace wp::compiler::detail {

namespace {

const std::set<std::string>& builtin_value_names() {
    static const std::set<std::string> names = {
        "players", "active_player", "opponents", "count", "size", "top", "min", "max", "abs", "ceil_div",
        "floor_div", "odds", "adjacent", "distance", "neighbours", "edge_kind", "hexside", "terrain", "path_exists",
        "line_blocked", "path_length",
        "true", "false", "option", "any", "all", "sum"};
    return names;
}

struct resolver {
    context& cx;

    bool declare_value(const dsl::name& n, symbol s) {
        if (builtin_value_names().count(n.text)) {
            cx.sink.error(dsl::diag_kind::duplicate_name, n.where, "`" + n.text + "` is a built-in name",
                          {{std::nullopt, "choose another name; built-in names cannot be declared again"}});
            return false;
        }
        return cx.declare(cx.values, n, s);
    }

    ir::provenance prov(const placed_decl& p, const dsl::span& where, const dsl::anchor_list& anchors) {
        return cx.prov(where, anchors, p.layer);
    }

    // ------------------------------------------------------------ metadata

    void metadata() {
        const loaded_ruleset& l = cx.loaded;
        auto add_file = [&](const loaded_file& f) {
            cx.file_of_source[f.source] = static_cast<ir::id>(cx.rs.files.size());
            cx.rs.files.push_back(f.path);
        };
        if (l.manifest_file) add_file(*l.manifest_file);
        if (l.outline_file) add_file(*l.outline_file);
        for (const loaded_file& f : l.files) add_file(f);
        if (l.manifest) {
            const dsl::ruleset_decl& m = *l.manifest;
            cx.rs.name = m.id.text;
            cx.rs.title = m.title;
            cx.rs.source = m.source;
            cx.rs.sha256 = m.sha256;
            cx.rs.min_players = m.min_players;
            cx.rs.max_players = m.max_players;
            for (const dsl::checker_setting& c : m.checker) cx.rs.checker.push_back({c.name, c.value});
        }
        for (const loaded_layer& layer : l.layers) {
            ir::layer x;
            x.name = layer.name;
            x.kind = layer.kind;
            for (std::size_t f : layer.files) x.files.push_back(cx.file_id(l.files[f].source));
            x.prov = cx.prov(layer.where, {}, ir::no_id);
            cx.rs.layers.push_back(std::move(x));
        }
        if (cx.options.upto_layer) cx.rs.upto = *cx.options.upto_layer;
        for (const loaded_expansion& e : l.expansions) cx.rs.expansions.push_back({e.name, e.after, e.files, e.selected});
        for (const auto& [name, value] : cx.options.options) cx.rs.selected_options.push_back({name, value});
        const auto& sections = cx.outline.sections();
        for (std::size_t i = 0; i < sections.size(); ++i) {
            ir::section s = sections[i];
            s.prov.where = cx.pos(cx.outline.spans()[i]);
            cx.rs.sections.push_back(std::move(s));
        }
    }

    // ------------------------------------------------------------ declaring

    void builtin_types() {
        ir::type t;
        t.kind = ir::type_kind::void_;
        cx.t_void = cx.intern(t);
        t.kind = ir::type_kind::boolean;
        cx.t_bool = cx.intern(t);
        t.kind = ir::type_kind::integer;
        cx.t_int = cx.intern(t);
        t.kind = ir::type_kind::string;
        cx.t_string = cx.intern(t);
        t.kind = ir::type_kind::player;
        cx.t_player = cx.intern(t);
        t.kind = ir::type_kind::odds;
        cx.t_odds = cx.intern(t);
        cx.types["bool"] = {sym::builtin_type, cx.t_bool, {}, nullptr, ir::no_id};
        cx.types["int"] = {sym::builtin_type, cx.t_int, {}, nullptr, ir::no_id};
        cx.types["player"] = {sym::builtin_type, cx.t_player, {}, nullptr, ir::no_id};
    }

    void collect(const placed_decl& p) {
        std::visit([&](const auto& x) { collect_one(p, x); }, p.d->node);
    }

    void collect_one(const placed_decl&, const dsl::ruleset_decl&) {}
    void collect_one(const placed_decl&, const dsl::outline_decl&) {}
    void collect_one(const placed_decl&, const dsl::errata_decl&) {}

    void collect_one(const placed_decl& p, const dsl::enum_decl& x) {
        const auto id = static_cast<ir::id>(cx.rs.enums.size());
        if (!cx.declare(cx.types, x.id, {sym::enumeration, id, x.id.where, &p, ir::no_id})) return;
        ir::enum_def e;
        e.name = x.id.text;
        e.aid = x.aid.value_or("");
        e.prov = prov(p, x.where, x.anchors);
        std::map<std::string, dsl::span> seen;
        for (const dsl::enum_member& m : x.members) {
            if (auto [it, fresh] = seen.emplace(m.id.text, m.id.where); !fresh) {
                cx.sink.error(dsl::diag_kind::duplicate_name, m.id.where,
                              "`" + x.id.text + "` lists `" + m.id.text + "` twice", {{it->second, "the first is here"}});
                continue;
            }
            cx.members.emplace(m.id.text, std::make_pair(id, static_cast<ir::id>(e.members.size())));
            e.members.push_back({m.id.text, m.label.value_or("")});
        }
        cx.rs.enums.push_back(std::move(e));
    }

    void collect_one(const placed_decl& p, const dsl::type_decl& x) {
        const auto id = static_cast<ir::id>(cx.rs.aliases.size());
        if (!cx.declare(cx.types, x.id, {sym::alias, id, x.id.where, &p, ir::no_id})) return;
        ir::type_alias a;
        a.name = x.id.text;
        a.prov = prov(p, x.where, x.anchors);
        cx.rs.aliases.push_back(std::move(a));
        cx.alias_src.push_back(&p);
    }

    void collect_one(const placed_decl& p, const dsl::record_decl& x) {
        const auto id = static_cast<ir::id>(cx.rs.records.size());
        if (!cx.declare(cx.types, x.id, {sym::record, id, x.id.where, &p, ir::no_id})) return;
        ir::record r;
        r.name = x.id.text;
        r.prov = prov(p, x.where, x.anchors);
        cx.rs.records.push_back(std::move(r));
        cx.record_src.push_back(&p);
    }

    void collect_one(const placed_decl& p, const dsl::state_decl& x) {
        for (const dsl::field_decl& f : x.fields) {
            const auto id = static_cast<ir::id>(cx.rs.slots.size());
            if (!declare_value(f.id, {sym::slot, id, f.id.where, &p, ir::no_id})) continue;
            ir::slot s;
            s.name = f.id.text;
            dsl::anchor_list anchors = x.anchors;
            anchors.insert(anchors.end(), f.anchors.begin(), f.anchors.end());
            s.prov = prov(p, f.where, anchors);
            cx.rs.slots.push_back(std::move(s));
            cx.slot_fields.push_back(&f);
            cx.slot_src.push_back(&p);
        }
    }

    // The stand-in and missing marks of one entry and its values (docs/language.md §14): kept with
    // the element and field they cover; a mark anywhere else is a located error.
    void entity_marks(const dsl::entities_decl& x, const dsl::entity_entry& e, ir::id eid, const ir::provenance& where) {
        const char* const word = x.pieces ? "piece" : "card";
        if (e.id.text == "standin" || e.id.text == "missing")
            cx.sink.error(dsl::diag_kind::misplaced_mark, e.id.where,
                          "`" + e.id.text + "` is not an entry name here: a mark goes after an entry's display name",
                          {{std::nullopt, "write `id \"Name\" " + e.id.text + " \"why\" { … }`"}});
        for (const dsl::data_mark& m : e.late_marks)
            cx.sink.error(dsl::diag_kind::misplaced_mark, m.where,
                          "a " + mark_word(m) + " mark after the values or count of `" + e.id.text + "`",
                          {{std::nullopt, "move it right after the display name: `" + e.id.text + " \"" + e.display + "\" " +
                                              (m.missing ? "missing" : "standin") + " \"…\"`"}});
        const auto record = [&](const dsl::data_mark& m, const std::string& field) {
            if (x.standin) {
                cx.sink.error(dsl::diag_kind::misplaced_mark, m.where,
                              "a " + mark_word(m) + " mark inside `" + x.id.text + "`, which is a stand-in as a whole",
                              {{std::nullopt, "the whole list is already marked; take one of the two marks out"}});
                return;
            }
            const std::string name = e.id.text + (field.empty() ? "" : "." + field);
            if (m.missing)
                cx.rs.missing_data.push_back({name, m.why, where, ir::element_kind::entity, eid, field});
            else
                cx.rs.standins.push_back({ir::element_kind::entity, eid, m.why, where, field});
        };
        const auto one = [&](const std::vector<dsl::data_mark>& ms, const std::string& what) {
            for (std::size_t i = 1; i < ms.size(); ++i)
                cx.sink.error(dsl::diag_kind::misplaced_mark, ms[i].where, "a second mark on " + what,
                              {{std::nullopt, "a " + std::string(word) + " or value takes one `standin` or one `missing`"}});
            return ms.empty() ? nullptr : &ms.front();
        };
        if (const dsl::data_mark* m = one(e.marks, "`" + e.id.text + "`")) record(*m, "");
        for (const dsl::field_value& fv : e.values)
            if (const dsl::data_mark* m = one(fv.marks, "`" + fv.field.text + "` of `" + e.id.text + "`"))
                record(*m, fv.field.text);
    }

    static std::string mark_word(const dsl::data_mark& m) { return m.missing ? "`missing`" : "`standin`"; }

    void collect_one(const placed_decl& p, const dsl::entities_decl& x) {
        const auto id = static_cast<ir::id>(cx.rs.entity_kinds.size());
        if (!cx.declare(cx.types, x.id, {sym::entity_kind, id, x.id.where, &p, ir::no_id})) return;
        ir::entity_kind k;
        k.name = x.id.text;
        k.pieces = x.pieces;
        k.first_entity = static_cast<ir::id>(cx.rs.entities.size());
        k.prov = prov(p, x.where, x.anchors);
        if (x.standin) {
            k.standin = static_cast<ir::id>(cx.rs.standins.size());
            cx.rs.standins.push_back({ir::element_kind::entity_kind, id, *x.standin, k.prov, {}});
        }
        for (const dsl::entity_entry& e : x.entries) {
            const auto eid = static_cast<ir::id>(cx.rs.entities.size());
            if (!declare_value(e.id, {sym::entity, eid, e.id.where, &p, ir::no_id})) continue;
            ir::entity en;
            en.name = e.id.text;
            en.display = e.display;
            en.kind = id;
            en.count = e.count;
            dsl::anchor_list anchors = e.anchors;
            en.prov = prov(p, e.where, anchors);
            entity_marks(x, e, eid, en.prov);
            if (e.count < 1)
                cx.sink.error(dsl::diag_kind::bad_entity, e.where,
                              "`" + e.id.text + "` has " + std::to_string(e.count) + " copies; a count is at least x1");
            cx.rs.entities.push_back(std::move(en));
        }
        k.entity_count = static_cast<std::uint32_t>(cx.rs.entities.size() - k.first_entity);
        cx.rs.entity_kinds.push_back(std::move(k));
        cx.entity_kind_src.push_back(&p);
    }

    void collect_one(const placed_decl& p, const dsl::zone_decl& x) {
        const auto id = static_cast<ir::id>(cx.rs.zones.size());
        if (!declare_value(x.id, {sym::zone, id, x.id.where, &p, ir::no_id})) return;
        ir::zone z;
        z.name = x.id.text;
        z.per_player = x.per_player;
        z.ordered = x.ordered;
        z.vis = x.vis == dsl::visibility::hidden ? ir::visibility::hidden
                : x.vis == dsl::visibility::owner ? ir::visibility::owner
                                                  : ir::visibility::public_;
        z.prov = prov(p, x.where, x.anchors);
        cx.rs.zones.push_back(std::move(z));
        cx.zone_src.push_back(&p);
    }

    void collect_one(const placed_decl& p, const dsl::map_decl& x) {
        const auto id = static_cast<ir::id>(cx.rs.maps.size());
        if (!cx.declare(cx.types, x.id, {sym::map, id, x.id.where, &p, ir::no_id})) return;
        ir::map m;
        m.name = x.id.text;
        if (x.kind.text == "areas") {
            m.kind = ir::map_kind::areas;
        } else if (x.kind.text == "hexgrid") {
            m.kind = ir::map_kind::hexgrid;
        } else {
            cx.sink.error(dsl::diag_kind::wrong_kind_of_name, x.kind.where,
                          "`" + x.kind.text + "` is not a kind of map; use `areas` or `hexgrid`");
        }
        m.prov = prov(p, x.where, x.anchors);
        if (x.standin) {
            m.standin = static_cast<ir::id>(cx.rs.standins.size());
            cx.rs.standins.push_back({ir::element_kind::map, id, *x.standin, m.prov, {}});
        }
        ir::type t;
        t.kind = ir::type_kind::node;
        t.ref = id;
        m.node_type = cx.intern(t);
        std::map<std::string, dsl::span> seen;
        for (const dsl::map_node& n : x.nodes) {
            if (auto [it, fresh] = seen.emplace(n.id.text, n.id.where); !fresh) {
                cx.sink.error(dsl::diag_kind::duplicate_name, n.id.where,
                              "map `" + x.id.text + "` lists `" + n.id.text + "` twice", {{it->second, "the first is here"}});
                continue;
            }
            const auto nid = static_cast<ir::id>(m.nodes.size());
            ir::map_node node;
            node.name = n.id.text;
            node.display = n.display;
            node.prov = prov(p, n.where, {});
            if (m.kind == ir::map_kind::hexgrid) {
                const bool four_digits = n.id.text.size() == 4 &&
                                         std::all_of(n.id.text.begin(), n.id.text.end(), [](char c) { return c >= '0' && c <= '9'; });
                if (!four_digits) {
                    cx.sink.error(dsl::diag_kind::bad_entity, n.id.where,
                                  "`" + n.id.text + "` is not a hex number; hexes are numbered with four digits, column then row (`0101`)");
                } else {
                    node.col = std::stoi(n.id.text.substr(0, 2));
                    node.row = std::stoi(n.id.text.substr(2, 2));
                }
            } else {
                declare_value(n.id, {sym::map_node, nid, n.id.where, &p, id});
            }
            m.nodes.push_back(std::move(node));
        }
        cx.rs.maps.push_back(std::move(m));
        cx.map_src.push_back(&p);
    }

    template <class Table, class Src>
    bool named_entry(const placed_decl& p, const dsl::name& id, sym kind, Table& table, Src& src) {
        const auto index = static_cast<ir::id>(table.size());
        if (!declare_value(id, {kind, index, id.where, &p, ir::no_id})) return false;
        table.emplace_back();
        table.back().name = id.text;
        src.push_back(&p);
        return true;
    }

    void collect_one(const placed_decl& p, const dsl::roll_decl& x) {
        if (!named_entry(p, x.id, sym::roll, cx.rs.rolls, cx.roll_src)) return;
        cx.rs.rolls.back().prov = prov(p, x.where, x.anchors);
        cx.rs.rolls.back().aid = x.aid.value_or("");
    }
    void collect_one(const placed_decl& p, const dsl::derived_decl& x) {
        if (!named_entry(p, x.id, sym::derived, cx.rs.quantities, cx.derived_src)) return;
        cx.rs.quantities.back().prov = prov(p, x.where, x.anchors);
        cx.rs.quantities.back().predicate = x.predicate;
        cx.rs.quantities.back().aid = x.aid.value_or("");
    }
    void collect_one(const placed_decl& p, const dsl::decision_decl& x) {
        if (!named_entry(p, x.id, sym::decision, cx.rs.decisions, cx.decision_src)) return;
        cx.rs.decisions.back().prov = prov(p, x.where, x.anchors);
        cx.rs.decisions.back().total = x.total;
    }
    void collect_one(const placed_decl& p, const dsl::action_decl& x) {
        if (!named_entry(p, x.id, sym::action, cx.rs.actions, cx.action_src)) return;
        cx.rs.actions.back().prov = prov(p, x.where, x.anchors);
        cx.rs.actions.back().aid = x.aid.value_or("");
    }
    void collect_one(const placed_decl& p, const dsl::event_decl& x) {
        if (x.of_card || x.outrank) return;  // plan_card_events made their declarations
        if (!named_entry(p, x.id, sym::event, cx.rs.events, cx.event_src)) return;
        cx.rs.events.back().prov = prov(p, x.where, x.anchors);
    }
    void collect_one(const placed_decl& p, const dsl::procedure_decl& x) {
        if (!named_entry(p, x.id, sym::procedure, cx.rs.procedures, cx.procedure_src)) return;
        cx.rs.procedures.back().prov = prov(p, x.where, x.anchors);
        cx.rs.procedures.back().aid = x.aid.value_or("");
    }
    void collect_one(const placed_decl& p, const dsl::sequence_decl& x) {
        if (!named_entry(p, x.id, sym::sequence, cx.rs.sequences, cx.sequence_src)) return;
        cx.rs.sequences.back().prov = prov(p, x.where, x.anchors);
    }
    void collect_one(const placed_decl& p, const dsl::table_decl& x) {
        if (!named_entry(p, x.id, sym::table, cx.rs.tables, cx.table_src)) return;
        ir::table& t = cx.rs.tables.back();
        t.prov = prov(p, x.where, x.anchors);
        t.aid = x.aid.value_or("");
        if (x.standin) {
            t.standin = static_cast<ir::id>(cx.rs.standins.size());
            cx.rs.standins.push_back({ir::element_kind::table, static_cast<ir::id>(cx.rs.tables.size() - 1), *x.standin, t.prov, {}});
        }
    }
    void collect_one(const placed_decl& p, const dsl::missing_decl& x) {
        if (!named_entry(p, x.id, sym::missing, cx.rs.missing_data, cx.missing_src)) return;
        cx.rs.missing_data.back().what = x.what;
        cx.rs.missing_data.back().prov = prov(p, x.where, x.anchors);
    }
    void collect_one(const placed_decl& p, const dsl::accept_decl& x) {
        const bool known = std::find_if(std::begin(ir::finding_kinds), std::end(ir::finding_kinds),
                                        [&](const char* k) { return x.kind.text == k; }) != std::end(ir::finding_kinds);
        if (!known) {
            std::vector<std::string> kinds(std::begin(ir::finding_kinds), std::end(ir::finding_kinds));
            std::vector<dsl::diag_note> notes;
            if (auto near = dsl::closest_name(x.kind.text, kinds)) notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
            cx.sink.error(dsl::diag_kind::accept_kind, x.kind.where, "`" + x.kind.text + "` is not a kind of checker finding",
                          std::move(notes));
            return;
        }
        if (x.reason.empty()) {
            cx.sink.error(dsl::diag_kind::accept_kind, x.where, "an accepted finding needs a reason");
            return;
        }
        if (!x.side.text.empty() && x.kind.text != "bound-violation") {
            cx.sink.error(dsl::diag_kind::accept_kind, x.side.where,
                          "`" + x.side.text + "` names a side of a field's range: only a bound-violation has one");
            return;
        }
        if (x.upto && !accept_applies(p, *x.upto)) return;
        if (x.if_option) accepts_if_option_.push_back({cx.rs.accepts.size(), *x.if_option});
        cx.rs.accepts.push_back({x.kind.text, x.subject, x.reason, prov(p, x.where, x.anchors), x.side.text});
    }
    // `accept … if option.O` (docs/language.md §15), once the options are chosen: O a `bool`
    // option; the accept is left out of the IR in games where O is off (the finding it names
    // comes only with O on, and the accept is not stale without it).
    std::vector<std::pair<std::size_t, dsl::name>> accepts_if_option_ = {};
    void accepts_if_option() {
        std::vector<std::size_t> off;
        for (const auto& [at, o] : accepts_if_option_) {
            auto it = cx.option_names.find(o.text);
            if (it == cx.option_names.end()) {
                std::vector<std::string> names;
                for (const auto& [n, sy] : cx.option_names) names.push_back(n);
                cx.unknown(o, "option", names);
                continue;
            }
            const ir::option& opt = cx.rs.options[it->second.index];
            if (opt.kind != ir::option_kind::boolean) {
                cx.sink.error(dsl::diag_kind::accept_kind, o.where,
                              "`" + o.text + "` is not a `bool` option: an accept holds in the games where a `bool` option is on");
                continue;
            }
            if (opt.values.empty() || opt.values.at(opt.selected_index) == 0) off.push_back(at);
        }
        for (auto i = off.rbegin(); i != off.rend(); ++i) cx.rs.accepts.erase(cx.rs.accepts.begin() + static_cast<std::ptrdiff_t>(*i));
    }
    // `accept … upto L` (docs/language.md §15): L a layer of the manifest, not below the accept's
    // own; the accept applies only while the compiled stack ends at L or below it (no layer past
    // L but a kept options layer). An accept that does not apply is left out of the IR: the
    // finding is reported, and the accept is not stale.
    bool accept_applies(const placed_decl& p, const dsl::name& upto) {
        if (!cx.loaded.manifest) return true;
        const auto& declared = cx.loaded.manifest->layers;
        auto manifest_index = [&](const std::string& name) -> std::optional<std::size_t> {
            for (std::size_t i = 0; i < declared.size(); ++i)
                if (declared[i].id.text == name) return i;
            return std::nullopt;
        };
        const std::optional<std::size_t> at = manifest_index(upto.text);
        if (!at) {
            std::vector<std::string> names;
            for (const auto& l : declared) names.push_back(l.id.text);
            cx.unknown(upto, "layer", names);
            return false;
        }
        const std::vector<loaded_layer>& stack = cx.loaded.layers;
        const std::string& own = p.layer < stack.size() ? stack[p.layer].name : std::string();
        if (const auto mine = manifest_index(own); mine && *mine > *at) {
            cx.sink.error(dsl::diag_kind::accept_kind, upto.where,
                          "this accept is in the layer `" + own + "`, above `" + upto.text + "`: a stack that ends at `" + upto.text +
                              "` does not hold it");
            return false;
        }
        for (std::size_t i = 0; i < stack.size(); ++i) {
            if (stack[i].name != upto.text) continue;
            for (std::size_t j = i + 1; j < stack.size(); ++j)
                if (stack[j].kind != ir::layer_kind::options) return false;
            return true;
        }
        // L is not compiled: the stack ends below it, unless a layer declared after L is in it
        for (const loaded_layer& l : stack)
            if (const auto k = manifest_index(l.name); k && *k > *at && l.kind != ir::layer_kind::options) return false;
        return true;
    }
    void collect_one(const placed_decl& p, const dsl::rule_decl& x) {
        if (!named_entry(p, x.id, sym::rule, cx.rs.rules, cx.rule_src)) return;
        ir::rule& r = cx.rs.rules.back();
        r.prov = prov(p, x.where, x.anchors);
        r.aid = x.aid.value_or("");
        r.kind = static_cast<ir::rule_kind>(x.kind);
    }
    void collect_one(const placed_decl& p, const dsl::option_decl& x) {
        const auto id = static_cast<ir::id>(cx.rs.options.size());
        if (!cx.declare(cx.option_names, x.id, {sym::option, id, x.id.where, &p, ir::no_id})) return;
        ir::option o;
        o.name = x.id.text;
        o.aid = x.aid.value_or("");
        o.prov = prov(p, x.where, x.anchors);
        cx.rs.options.push_back(std::move(o));
        cx.option_src.push_back(&p);
    }

    // ------------------------------------------------------------ types

    void aliases() {
        for (std::size_t i = 0; i < cx.rs.aliases.size(); ++i) resolve_alias(cx, static_cast<ir::id>(i));
    }

    void hex_and_area() {
        // `hex` and `area` name the node type of the only hexgrid/areas map.
        for (const auto kind : {ir::map_kind::hexgrid, ir::map_kind::areas}) {
            const char* word = kind == ir::map_kind::hexgrid ? "hex" : "area";
            std::vector<ir::id> maps;
            for (std::size_t m = 0; m < cx.rs.maps.size(); ++m)
                if (cx.rs.maps[m].kind == kind) maps.push_back(static_cast<ir::id>(m));
            if (maps.size() == 1 && !cx.types.count(word))
                cx.types[word] = {sym::map, maps.front(), cx.types[cx.rs.maps[maps.front()].name].where, nullptr, ir::no_id};
        }
    }

    void records() {
        for (std::size_t i = 0; i < cx.rs.records.size(); ++i) {
            const auto& decl = std::get<dsl::record_decl>(cx.record_src[i]->d->node);
            std::map<std::string, dsl::span> seen;
            for (const dsl::field_decl& f : decl.fields) {
                if (f.hidden)
                    cx.sink.error(dsl::diag_kind::hidden_field, f.id.where,
                                  "`" + f.id.text + "` is a record field: only a state field can be hidden (per player, or a map hidden "
                                  "entry by entry)");
                if (auto [it, fresh] = seen.emplace(f.id.text, f.id.where); !fresh) {
                    cx.sink.error(dsl::diag_kind::duplicate_name, f.id.where,
                                  "record `" + decl.id.text + "` has two fields `" + f.id.text + "`",
                                  {{it->second, "the first is here"}});
                    continue;
                }
                ir::field x;
                x.name = f.id.text;
                x.type = resolve_type(cx, f.type);
                x.prov = cx.prov(f.where, f.anchors, cx.record_src[i]->layer);
                cx.rs.records[i].fields.push_back(std::move(x));
            }
        }
    }

    void entity_kinds() {
        for (std::size_t i = 0; i < cx.rs.entity_kinds.size(); ++i) {
            const auto& decl = std::get<dsl::entities_decl>(cx.entity_kind_src[i]->d->node);
            auto it = cx.types.find(decl.record.text);
            if (it == cx.types.end()) {
                cx.unknown(decl.record, "record", cx.type_names());
            } else if (it->second.kind != sym::record) {
                cx.wrong_kind(decl.record, it->second, "a record");
            } else {
                cx.rs.entity_kinds[i].record = it->second.index;
            }
        }
    }

    std::optional<ir::id> entity_kind_named(const dsl::name& n) {
        auto it = cx.types.find(n.text);
        if (it == cx.types.end()) {
            cx.unknown(n, "kind of card or piece", cx.type_names());
            return std::nullopt;
        }
        if (it->second.kind != sym::entity_kind) {
            cx.wrong_kind(n, it->second, "a kind of card or piece");
            return std::nullopt;
        }
        return it->second.index;
    }

    void zones() {
        for (std::size_t i = 0; i < cx.rs.zones.size(); ++i) {
            const auto& decl = std::get<dsl::zone_decl>(cx.zone_src[i]->d->node);
            if (auto k = entity_kind_named(decl.of)) cx.rs.zones[i].entity_kind = *k;
            if (!decl.per) continue;
            // `per <map or its location type>`: one zone per location (docs/language.md §3)
            auto it = cx.types.find(decl.per->text);
            if (it != cx.types.end() && it->second.kind == sym::map) {
                cx.rs.zones[i].map = it->second.index;
            } else if (it == cx.types.end()) {
                cx.unknown(*decl.per, "map", cx.type_names(),
                           {{std::nullopt, "a zone is global, `per player`, or per location of a declared map "
                                           "(`per area`, `per hex`, or the map's name)"}});
                cx.rs.zones[i].entity_kind = ir::no_id;
            } else {
                cx.wrong_kind(*decl.per, it->second, "a map's locations (a zone is global, `per player` or per location)");
                cx.rs.zones[i].entity_kind = ir::no_id;
            }
        }
    }

    void slots() {
        for (std::size_t i = 0; i < cx.rs.slots.size(); ++i) {
            const dsl::field_decl& f = *cx.slot_fields[i];
            const auto& block = std::get<dsl::state_decl>(cx.slot_src[i]->d->node);
            ir::slot& s = cx.rs.slots[i];
            if (block.per) {
                const std::string& per = block.per->text;
                auto it = cx.types.find(per);
                if (per == "player") {
                    s.scope = ir::slot_scope::per_player;
                } else if (it != cx.types.end() && it->second.kind == sym::entity_kind) {
                    s.scope = ir::slot_scope::per_entity;
                    s.entity_kind = it->second.index;
                } else if (it != cx.types.end() && it->second.kind == sym::map) {
                    s.scope = ir::slot_scope::per_node;
                    s.map = it->second.index;
                } else if (it == cx.types.end()) {
                    if (&f == &block.fields.front())
                        cx.unknown(*block.per, "kind of card, piece or map", cx.type_names(),
                                   {{std::nullopt, "state is global, `per player`, per card or piece kind, or per map"}});
                    s.type = error_type;
                    continue;
                } else {
                    if (&f == &block.fields.front()) cx.wrong_kind(*block.per, it->second, "a player, card, piece or map kind");
                    s.type = error_type;
                    continue;
                }
            }
            bool flag = false, counter = false;
            s.type = resolve_type(cx, f.type, true, &flag, &counter);
            s.flag = flag;
            s.counter = counter;
        }
    }

    // After options(): `if option.O` needs O's kind.
    void hidden_fields() {
        for (std::size_t i = 0; i < cx.rs.slots.size(); ++i)
            if (cx.slot_fields[i]->hidden && cx.rs.slots[i].type != error_type) {
                hidden(*cx.slot_fields[i], cx.rs.slots[i]);
                if (cx.slot_fields[i]->hidden_unless && cx.rs.slots[i].hidden) hidden_unless(*cx.slot_fields[i], cx.rs.slots[i]);
            }
    }

    // `hidden ... unless F`: F is a bool field held per the same thing (a hex, a player, ...), seen by all.
    void hidden_unless(const dsl::field_decl& f, ir::slot& s) {
        const dsl::name& u = *f.hidden_unless;
        ir::id found = ir::no_id;
        std::vector<std::string> names;
        for (ir::id j = 0; j < cx.rs.slots.size(); ++j) {
            const ir::slot& o = cx.rs.slots[j];
            if (o.scope != s.scope || o.entity_kind != s.entity_kind || o.map != s.map) continue;
            names.push_back(o.name);
            if (o.name == u.text) found = j;
        }
        if (found == ir::no_id) {
            auto held = [&](const ir::slot& o) {
                switch (o.scope) {
                    case ir::slot_scope::global: return std::string("a global field");
                    case ir::slot_scope::per_player: return std::string("a per-player field");
                    case ir::slot_scope::per_entity: return "a field per " + cx.rs.entity_kinds[o.entity_kind].name;
                    case ir::slot_scope::per_node: return "a field per " + cx.rs.maps[o.map].name;
                }
                return std::string("a field");
            };
            for (const ir::slot& o : cx.rs.slots)
                if (o.name == u.text) {
                    cx.sink.error(dsl::diag_kind::hidden_field, u.where,
                                  "`" + u.text + "` is " + held(o) + ", and `" + f.id.text + "` " + held(s) +
                                      ": `unless` names a field held per the same thing, read at the same copy");
                    return;
                }
            cx.unknown(u, "field", names);
            return;
        }
        const ir::slot& o = cx.rs.slots[found];
        if (o.type == error_type) return;
        if (cx.rs.types[o.type].kind != ir::type_kind::boolean || cx.slot_fields[found]->hidden) {
            cx.sink.error(dsl::diag_kind::hidden_field, u.where,
                          "`" + u.text + "` is not a `bool` field seen by all: `unless` names the field that, while true, shows `" +
                              f.id.text + "` to every player");
            return;
        }
        s.hidden_unless = found;
    }

    // `hidden`, `hidden by F`, `hidden ... if option.O` (docs/language.md §2, "Hidden fields").
    void hidden(const dsl::field_decl& f, ir::slot& s) {
        auto error = [&](const dsl::span& at, const std::string& text) { cx.sink.error(dsl::diag_kind::hidden_field, at, text); };
        const ir::type& t = cx.rs.types[s.type];
        if (f.hidden_if) {
            auto it = cx.option_names.find(f.hidden_if->text);
            if (it == cx.option_names.end()) {
                std::vector<std::string> names;
                for (const auto& [n, sy] : cx.option_names) names.push_back(n);
                cx.unknown(*f.hidden_if, "option", names);
                return;
            }
            if (cx.rs.options[it->second.index].kind != ir::option_kind::boolean) {
                error(f.hidden_if->where, "`" + f.hidden_if->text + "` is not a `bool` option: a field is hidden in the games "
                                          "where a `bool` option is on");
                return;
            }
            s.hidden_if = it->second.index;
        }
        if (f.hidden_by) {
            if (s.scope == ir::slot_scope::per_player) {
                error(f.hidden_by->where, "`" + f.id.text + "` is a per-player field, already hidden from the other players: "
                                          "`by` names whose each entry is in a field that is no player's own");
                return;
            }
            ir::id by = ir::no_id;
            for (ir::id j = 0; j < cx.rs.slots.size(); ++j)
                if (cx.rs.slots[j].scope == ir::slot_scope::per_player && cx.rs.slots[j].name == f.hidden_by->text) by = j;
            if (by == ir::no_id) {
                std::vector<std::string> names;
                for (const ir::slot& o : cx.rs.slots)
                    if (o.scope == ir::slot_scope::per_player) names.push_back(o.name);
                cx.unknown(*f.hidden_by, "per-player field", names);
                return;
            }
            const ir::id bt = cx.rs.slots[by].type;
            if (bt == error_type) return;
            if (cx.rs.types[bt].kind != ir::type_kind::enumeration) {
                error(f.hidden_by->where, "`" + f.hidden_by->text + "` is not an enum: `by` names a per-player field whose value "
                                          "is the key of the entries its player sees (as `camp: side`)");
                return;
            }
            if (t.kind != ir::type_kind::map_of || t.key != bt) {
                error(f.id.where, "`" + f.id.text + "` is hidden by `" + f.hidden_by->text + "`, so it must be a map keyed by " +
                                      "its type (`" + f.hidden_by->text + ": " + cx.rs.enums[cx.rs.types[bt].ref].name +
                                      "`): `" + f.id.text + ": " + cx.rs.enums[cx.rs.types[bt].ref].name + " -> ...`");
                return;
            }
            s.hidden_by = by;
            s.hidden = true;
            return;
        }
        if (s.scope == ir::slot_scope::per_player ||
            (t.kind == ir::type_kind::map_of && cx.rs.types[t.key].kind == ir::type_kind::player)) {
            s.hidden = true;
            return;
        }
        error(f.id.where, "`" + f.id.text + "` is hidden, but it is not a per-player field, a map keyed by `player`, nor "
                          "hidden `by` a per-player field: no player owns what it holds");
    }

    std::vector<ir::local> params(const std::vector<dsl::param>& ps) {
        std::vector<ir::local> out;
        std::map<std::string, dsl::span> seen;
        for (const dsl::param& p : ps) {
            if (auto [it, fresh] = seen.emplace(p.id.text, p.id.where); !fresh)
                cx.sink.error(dsl::diag_kind::duplicate_name, p.id.where, "two parameters are named `" + p.id.text + "`",
                              {{it->second, "the first is here"}});
            out.push_back({p.id.text, resolve_type(cx, p.type)});
        }
        return out;
    }

    void signatures() {
        for (std::size_t i = 0; i < cx.rs.rolls.size(); ++i) {
            const auto& d = std::get<dsl::roll_decl>(cx.roll_src[i]->d->node);
            cx.rs.rolls[i].locals = params(d.params);
            cx.rs.rolls[i].param_count = static_cast<std::uint32_t>(d.params.size());
        }
        for (std::size_t i = 0; i < cx.rs.quantities.size(); ++i) {
            const auto& d = std::get<dsl::derived_decl>(cx.derived_src[i]->d->node);
            cx.rs.quantities[i].locals = params(d.params);
            cx.rs.quantities[i].param_count = static_cast<std::uint32_t>(d.params.size());
            cx.rs.quantities[i].result = d.predicate || !d.result ? cx.t_bool : resolve_type(cx, *d.result);
        }
        for (std::size_t i = 0; i < cx.rs.decisions.size(); ++i) {
            const auto& d = std::get<dsl::decision_decl>(cx.decision_src[i]->d->node);
            cx.rs.decisions[i].params = params(d.params);
            cx.rs.decisions[i].result = resolve_type(cx, d.result);
        }
        for (std::size_t i = 0; i < cx.rs.actions.size(); ++i) {
            const auto& d = std::get<dsl::action_decl>(cx.action_src[i]->d->node);
            cx.rs.actions[i].locals = params(d.params);
            cx.rs.actions[i].param_count = static_cast<std::uint32_t>(d.params.size());
        }
        for (std::size_t i = 0; i < cx.rs.events.size(); ++i) {
            const auto& d = std::get<dsl::event_decl>(cx.event_src[i]->d->node);
            cx.rs.events[i].params = params(d.params);
        }
        for (std::size_t i = 0; i < cx.rs.procedures.size(); ++i) {
            const auto& d = std::get<dsl::procedure_decl>(cx.procedure_src[i]->d->node);
            cx.rs.procedures[i].locals = params(d.params);
            cx.rs.procedures[i].param_count = static_cast<std::uint32_t>(d.params.size());
        }
        for (std::size_t i = 0; i < cx.rs.tables.size(); ++i) {
            const auto& d = std::get<dsl::table_decl>(cx.table_src[i]->d->node);
            ir::table& t = cx.rs.tables[i];
            t.locals = params(d.params);
            // A `key name: type` key is an extra argument after the parameters.
            for (const dsl::table_key& k : d.keys) {
                if (k.kind != dsl::table_key_kind::key || k.var.text.empty() || !k.type) continue;
                t.locals.push_back({k.var.text, resolve_type(cx, *k.type)});
            }
            t.param_count = static_cast<std::uint32_t>(t.locals.size());
        }
    }

    // ------------------------------------------------------------ constant data

    void record_defaults() {
        for (std::size_t i = 0; i < cx.rs.records.size(); ++i) {
            const auto& decl = std::get<dsl::record_decl>(cx.record_src[i]->d->node);
            for (ir::field& f : cx.rs.records[i].fields) {
                const auto it = std::find_if(decl.fields.begin(), decl.fields.end(),
                                             [&](const dsl::field_decl& d) { return d.id.text == f.name; });
                if (it == decl.fields.end() || !it->init || f.type == error_type) continue;
                if (auto v = constant(cx, *it->init, f.type, "the default of `" + f.name + "`")) {
                    f.has_default = true;
                    f.default_value = *v;
                }
            }
        }
    }

    void entity_values() {
        for (std::size_t k = 0; k < cx.rs.entity_kinds.size(); ++k) {
            const ir::entity_kind& kind = cx.rs.entity_kinds[k];
            const auto& decl = std::get<dsl::entities_decl>(cx.entity_kind_src[k]->d->node);
            if (kind.record == ir::no_id) continue;
            const ir::record& rec = cx.rs.records[kind.record];
            std::size_t e = kind.first_entity;
            for (const dsl::entity_entry& entry : decl.entries) {
                if (e >= kind.first_entity + kind.entity_count) break;
                if (cx.rs.entities[e].name != entry.id.text) continue;  // a duplicate that was skipped
                ir::entity& ent = cx.rs.entities[e++];
                ent.values.assign(rec.fields.size(), 0);
                std::vector<bool> given(rec.fields.size(), false);
                for (const dsl::field_value& fv : entry.values) {
                    const auto f = std::find_if(rec.fields.begin(), rec.fields.end(),
                                                [&](const ir::field& x) { return x.name == fv.field.text; });
                    if (f == rec.fields.end()) {
                        std::vector<std::string> names;
                        for (const ir::field& x : rec.fields) names.push_back(x.name);
                        std::vector<dsl::diag_note> notes;
                        if (auto near = dsl::closest_name(fv.field.text, names))
                            notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
                        cx.sink.error(dsl::diag_kind::bad_entity, fv.field.where,
                                      "`" + entry.id.text + "` gives `" + fv.field.text + "`, which the record `" +
                                          rec.name + "` does not have",
                                      std::move(notes));
                        continue;
                    }
                    const auto fi = static_cast<std::size_t>(f - rec.fields.begin());
                    if (given[fi]) {
                        cx.sink.error(dsl::diag_kind::bad_entity, fv.field.where,
                                      "`" + entry.id.text + "` gives `" + fv.field.text + "` twice");
                        continue;
                    }
                    given[fi] = true;
                    if (f->type == error_type) continue;
                    if (auto v = constant(cx, fv.value, f->type, "`" + fv.field.text + "` of `" + entry.id.text + "`"))
                        ent.values[fi] = *v;
                }
                for (std::size_t fi = 0; fi < rec.fields.size(); ++fi) {
                    if (given[fi]) continue;
                    if (rec.fields[fi].has_default) {
                        ent.values[fi] = rec.fields[fi].default_value;
                    } else {
                        cx.sink.error(dsl::diag_kind::bad_entity, entry.id.where,
                                      "`" + entry.id.text + "` does not give `" + rec.fields[fi].name +
                                          "`, and the record `" + rec.name + "` has no default for it",
                                      {{std::nullopt, "add `" + rec.fields[fi].name + " = …` to its values"}});
                    }
                }
            }
        }
    }

    std::int64_t zero_of(ir::id t) {
        if (t == error_type) return 0;
        const ir::type& x = cx.type_at(t);
        switch (x.kind) {
            case ir::type_kind::range: return x.lo <= 0 && 0 <= x.hi ? 0 : x.lo;
            case ir::type_kind::entity: case ir::type_kind::node: case ir::type_kind::player: return -1;
            case ir::type_kind::map_of: return zero_of(x.value);
            default: return 0;
        }
    }

    void slot_initials() {
        for (std::size_t i = 0; i < cx.rs.slots.size(); ++i) {
            ir::slot& s = cx.rs.slots[i];
            if (s.type == error_type) continue;
            const dsl::field_decl& f = *cx.slot_fields[i];
            s.initial = s.counter ? 1 : zero_of(s.type);
            if (!f.init) continue;
            ir::id want = s.type;
            const ir::type& t = cx.type_at(s.type);
            if (t.kind == ir::type_kind::map_of) want = t.value;
            if (t.kind == ir::type_kind::list_of || t.kind == ir::type_kind::record) {
                cx.sink.error(dsl::diag_kind::type_mismatch, f.init->where,
                              "`" + s.name + "` holds " + cx.type_text(s.type) + "; it starts empty and takes no initial value");
                continue;
            }
            if (auto v = constant(cx, *f.init, want, "the initial value of `" + s.name + "`")) s.initial = *v;
        }
    }

    // Terrain, attributes, edges and neighbours of each map.
    std::optional<std::pair<ir::id, ir::id>> unique_member(const dsl::name& n, const std::string& what) {
        const auto [b, e] = cx.members.equal_range(n.text);
        if (b == e) {
            std::vector<std::string> names;
            for (const auto& [name, m] : cx.members) names.push_back(name);
            cx.unknown(n, what, names, {{std::nullopt, "declare it as a member of an enum"}});
            return std::nullopt;
        }
        if (std::next(b) != e) {
            std::string enums;
            for (auto it = b; it != e; ++it) enums += (enums.empty() ? "`" : ", `") + cx.rs.enums[it->second.first].name + "`";
            cx.sink.error(dsl::diag_kind::wrong_kind_of_name, n.where,
                          "`" + n.text + "` is a member of several enums (" + enums + "); rename one of them");
            return std::nullopt;
        }
        return b->second;
    }

    void maps() {
        for (std::size_t mi = 0; mi < cx.rs.maps.size(); ++mi) {
            ir::map& m = cx.rs.maps[mi];
            const auto& decl = std::get<dsl::map_decl>(cx.map_src[mi]->d->node);
            std::map<std::string, ir::id> node_ids;
            for (std::size_t n = 0; n < m.nodes.size(); ++n) node_ids.emplace(m.nodes[n].name, static_cast<ir::id>(n));
            // terrain and attributes
            for (const dsl::map_node& dn : decl.nodes) {
                auto found = node_ids.find(dn.id.text);
                if (found == node_ids.end()) continue;
                ir::map_node& node = m.nodes[found->second];
                if (dn.terrain) {
                    if (auto mem = unique_member(*dn.terrain, "terrain")) {
                        if (m.terrain_enum == ir::no_id) m.terrain_enum = mem->first;
                        if (mem->first != m.terrain_enum) {
                            cx.sink.error(dsl::diag_kind::type_mismatch, dn.terrain->where,
                                          "`" + dn.terrain->text + "` is a `" + cx.rs.enums[mem->first].name +
                                              "`, but this map's terrain is `" + cx.rs.enums[m.terrain_enum].name + "`");
                        } else {
                            node.terrain = mem->second;
                        }
                    }
                }
                for (const dsl::field_value& fv : dn.values) {
                    for (const dsl::data_mark& mk : fv.marks)
                        cx.sink.error(dsl::diag_kind::misplaced_mark, mk.where,
                                      "a " + mark_word(mk) + " mark on an attribute of a map location",
                                      {{std::nullopt, "marks go on cards, pieces and their values; mark the map (`map " + m.name +
                                                          " : … standin \"why\"`) or declare the gap with `missing`"}});
                    auto a = std::find_if(m.attributes.begin(), m.attributes.end(),
                                          [&](const ir::map_attribute& x) { return x.name == fv.field.text; });
                    ir::id type = ir::no_id;
                    if (a == m.attributes.end()) {
                        // The first value fixes the attribute's type.
                        if (fv.value.kind == dsl::expr_kind::boolean) type = cx.t_bool;
                        else if (fv.value.kind == dsl::expr_kind::integer ||
                                 (fv.value.kind == dsl::expr_kind::unary && fv.value.text == "-"))
                            type = cx.t_int;
                        else if (fv.value.kind == dsl::expr_kind::name) {
                            dsl::name n{fv.value.text, fv.value.where};
                            if (auto mem = unique_member(n, "value")) {
                                ir::type t;
                                t.kind = ir::type_kind::enumeration;
                                t.ref = mem->first;
                                type = cx.intern(t);
                            } else {
                                continue;
                            }
                        } else {
                            cx.sink.error(dsl::diag_kind::type_mismatch, fv.value.where,
                                          "a map attribute is a number, true/false or an enum member");
                            continue;
                        }
                        m.attributes.push_back({fv.field.text, type});
                        for (ir::map_node& other : m.nodes) other.values.resize(m.attributes.size(), 0);
                        a = m.attributes.end() - 1;
                    }
                    const auto ai = static_cast<std::size_t>(a - m.attributes.begin());
                    node.values.resize(m.attributes.size(), 0);
                    if (auto v = constant(cx, fv.value, a->type, "`" + fv.field.text + "` of `" + dn.id.text + "`"))
                        node.values[ai] = *v;
                }
            }
            for (ir::map_node& node : m.nodes) node.values.resize(m.attributes.size(), 0);
            // edges / hexsides
            for (const dsl::map_edge& de : decl.edges) {
                ir::map_edge e;
                e.directed = de.directed;
                e.prov = cx.prov(de.where, {}, cx.map_src[mi]->layer);
                bool ok = true;
                for (const dsl::name* end : {&de.a, &de.b}) {
                    auto it = node_ids.find(end->text);
                    if (it == node_ids.end()) {
                        std::vector<std::string> names;
                        for (const auto& [name, id] : node_ids) names.push_back(name);
                        cx.unknown(*end, std::string("location of map `") + m.name + "`:", names);
                        ok = false;
                        continue;
                    }
                    (end == &de.a ? e.a : e.b) = it->second;
                }
                for (const dsl::name& k : de.kinds) {
                    auto mem = unique_member(k, m.kind == ir::map_kind::hexgrid ? "hexside feature" : "edge kind");
                    if (!mem) continue;
                    if (m.edge_enum == ir::no_id) m.edge_enum = mem->first;
                    if (mem->first != m.edge_enum) {
                        cx.sink.error(dsl::diag_kind::type_mismatch, k.where,
                                      "`" + k.text + "` is a `" + cx.rs.enums[mem->first].name + "`, but this map's " +
                                          (m.kind == ir::map_kind::hexgrid ? "hexsides" : "edges") + " are `" +
                                          cx.rs.enums[m.edge_enum].name + "`");
                        continue;
                    }
                    e.kinds.push_back(mem->second);
                }
                if (ok) m.edges.push_back(std::move(e));
            }
            // neighbours: edges for areas; the hex geometry for hexgrids (even columns half a hex lower).
            auto link = [&](ir::id a, ir::id b) {
                auto& list = m.nodes[a].neighbours;
                if (a != b && std::find(list.begin(), list.end(), b) == list.end()) list.push_back(b);
            };
            if (m.kind == ir::map_kind::areas) {
                for (const ir::map_edge& e : m.edges) {
                    link(e.a, e.b);
                    if (!e.directed) link(e.b, e.a);
                }
            } else {
                std::map<std::pair<int, int>, ir::id> at;
                for (std::size_t n = 0; n < m.nodes.size(); ++n) at[{m.nodes[n].col, m.nodes[n].row}] = static_cast<ir::id>(n);
                for (std::size_t n = 0; n < m.nodes.size(); ++n) {
                    const int c = m.nodes[n].col, r = m.nodes[n].row;
                    const int up = (c % 2 == 1) ? r - 1 : r;  // the row of the upper side neighbour
                    const std::pair<int, int> around[] = {{c, r - 1}, {c, r + 1}, {c - 1, up}, {c - 1, up + 1}, {c + 1, up}, {c + 1, up + 1}};
                    for (const auto& key : around)
                        if (auto it = at.find(key); it != at.end()) link(static_cast<ir::id>(n), it->second);
                }
            }
            for (ir::map_node& node : m.nodes) std::sort(node.neighbours.begin(), node.neighbours.end());
        }
    }

    void options() {
        for (std::size_t i = 0; i < cx.rs.options.size(); ++i) {
            ir::option& o = cx.rs.options[i];
            const auto& d = std::get<dsl::option_decl>(cx.option_src[i]->d->node);
            if (d.is_bool) {
                o.kind = ir::option_kind::boolean;
                o.type = cx.t_bool;
                o.values = {0, 1};
            } else {
                const bool named = !d.values.empty() && d.values.front().kind == dsl::expr_kind::name;
                o.kind = named ? ir::option_kind::named : ir::option_kind::integer;
                ir::enum_def values_enum;
                std::map<std::string, dsl::span> seen;
                std::int64_t lo = 0, hi = 0;
                for (const dsl::expr& v : d.values) {
                    const bool is_name = v.kind == dsl::expr_kind::name;
                    const bool is_int = v.kind == dsl::expr_kind::integer;
                    if (is_name != named || (!is_name && !is_int)) {
                        cx.sink.error(dsl::diag_kind::type_mismatch, v.where,
                                      "the values of option `" + o.name + "` must be all names or all integers");
                        continue;
                    }
                    const std::string text = is_name ? v.text : std::to_string(v.value);
                    if (auto [it, fresh] = seen.emplace(text, v.where); !fresh) {
                        cx.sink.error(dsl::diag_kind::duplicate_name, v.where,
                                      "option `" + o.name + "` lists the value `" + text + "` twice",
                                      {{it->second, "the first is here"}});
                        continue;
                    }
                    if (is_name) {
                        o.values.push_back(static_cast<std::int64_t>(values_enum.members.size()));
                        values_enum.members.push_back({v.text, ""});
                    } else {
                        if (o.values.empty() || v.value < lo) lo = v.value;
                        if (o.values.empty() || v.value > hi) hi = v.value;
                        o.values.push_back(v.value);
                    }
                }
                if (named) {
                    values_enum.name = "option." + o.name;
                    values_enum.synthesised = true;
                    values_enum.prov = o.prov;
                    o.enum_id = static_cast<ir::id>(cx.rs.enums.size());
                    cx.rs.enums.push_back(std::move(values_enum));
                    ir::type t;
                    t.kind = ir::type_kind::enumeration;
                    t.ref = o.enum_id;
                    o.type = cx.intern(t);
                } else {
                    o.type = o.values.empty() ? cx.t_int : cx.range_type(lo, hi, ir::overflow::error);
                }
            }
            if (o.values.empty()) {
                o.values.push_back(0);  // keeps the IR well formed; the error is reported
                continue;
            }
            // `option scenario : scenario_kind = …` names a type where the values go: say so once,
            // not as a default that is not among the values.
            if (o.kind == ir::option_kind::named && d.values.size() == 1 && cx.types.count(d.values.front().text)) {
                const dsl::expr& v = d.values.front();
                const std::string what = sym_word(cx.types.at(v.text).kind);
                cx.sink.error(dsl::diag_kind::type_mismatch, v.where,
                              "`" + v.text + "` is " + article(what) + " " + what +
                                  ", not a value: an option lists its own values (`option " + o.name +
                                  " : first | second = first`)");
                continue;
            }
            // The default must be one of the values.
            auto value_list = [&] {
                std::string s;
                for (std::int64_t v : o.values) s += (s.empty() ? "" : ", ") + option_value_text(o, v);
                return s;
            };
            std::optional<std::int64_t> def;
            const dsl::expr& dv = d.default_value;
            if (o.kind == ir::option_kind::named && dv.kind == dsl::expr_kind::name) {
                const auto& members = cx.rs.enums[o.enum_id].members;
                for (std::size_t m = 0; m < members.size(); ++m)
                    if (members[m].name == dv.text) def = static_cast<std::int64_t>(m);
            } else if (o.kind == ir::option_kind::integer && dv.kind == dsl::expr_kind::integer) {
                def = dv.value;
            } else if (o.kind == ir::option_kind::integer && dv.kind == dsl::expr_kind::unary && dv.text == "-" &&
                       !dv.args.empty() && dv.args[0].kind == dsl::expr_kind::integer) {
                def = -dv.args[0].value;
            } else if (o.kind == ir::option_kind::boolean && dv.kind == dsl::expr_kind::boolean) {
                def = dv.value;
            }
            const auto at = def ? std::find(o.values.begin(), o.values.end(), *def) : o.values.end();
            if (at == o.values.end()) {
                cx.sink.error(dsl::diag_kind::bad_default, dv.where,
                              "the default of option `" + o.name + "` must be one of its values: " + value_list());
            } else {
                o.default_index = static_cast<std::uint32_t>(at - o.values.begin());
            }
            o.selected_index = o.default_index;
        }
        // --option name=value
        for (const auto& [name, value] : cx.options.options) {
            auto it = cx.option_names.find(name);
            if (it == cx.option_names.end()) {
                std::vector<std::string> names;
                for (const auto& [n, s] : cx.option_names) names.push_back(n);
                std::vector<dsl::diag_note> notes;
                if (auto near = dsl::closest_name(name, names)) notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
                std::string list;
                for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
                notes.push_back({std::nullopt, names.empty() ? "this ruleset declares no option" : "the options are: " + list});
                cx.sink.report({dsl::diag_kind::unknown_option_value, dsl::severity::error, std::nullopt,
                                "--option names `" + name + "`, which the ruleset does not declare", std::move(notes)});
                continue;
            }
            ir::option& o = cx.rs.options[it->second.index];
            std::optional<std::size_t> chosen;
            for (std::size_t v = 0; v < o.values.size(); ++v)
                if (option_value_text(o, o.values[v]) == value) chosen = v;
            if (!chosen) {
                std::string list;
                for (std::int64_t v : o.values) list += (list.empty() ? "" : ", ") + option_value_text(o, v);
                cx.sink.report({dsl::diag_kind::unknown_option_value, dsl::severity::error, std::nullopt,
                                "`" + value + "` is not a value of option `" + name + "`; its values are " + list,
                                {{it->second.where, "option `" + name + "` is declared here"}}});
                continue;
            }
            o.selected_index = static_cast<std::uint32_t>(*chosen);
        }
    }

    std::string option_value_text(const ir::option& o, std::int64_t v) const {
        switch (o.kind) {
            case ir::option_kind::boolean: return v ? "true" : "false";
            case ir::option_kind::integer: return std::to_string(v);
            case ir::option_kind::named:
                if (o.enum_id < cx.rs.enums.size() && v >= 0 &&
                    static_cast<std::size_t>(v) < cx.rs.enums[o.enum_id].members.size())
                    return cx.rs.enums[o.enum_id].members[static_cast<std::size_t>(v)].name;
                return "?";
        }
        return "?";
    }

    void run() {
        metadata();
        builtin_types();
        for (const placed_decl& p : cx.patched.decls) collect(p);
        hex_and_area();
        aliases();
        records();
        entity_kinds();
        zones();
        slots();
        signatures();
        record_defaults();
        entity_values();
        slot_initials();
        maps();
        options();
        accepts_if_option();
        hidden_fields();
    }
};

}  // namespace

// Aliases resolve on first use; one met again while resolving is a cycle.
ir::id resolve_alias(context& cx, ir::id index) {
    constexpr ir::id resolving = ir::no_id - 2;
    ir::id& slot = cx.rs.aliases[index].type;
    if (slot == resolving) {
        const auto& decl = std::get<dsl::type_decl>(cx.alias_src[index]->d->node);
        cx.sink.error(dsl::diag_kind::type_mismatch, decl.id.where,
                      "the type `" + decl.id.text + "` is defined in terms of itself");
        slot = error_type;
        return error_type;
    }
    if (slot != ir::no_id) return slot;
    slot = resolving;
    const auto& decl = std::get<dsl::type_decl>(cx.alias_src[index]->d->node);
    const ir::id r = resolve_type(cx, decl.type);
    if (cx.rs.aliases[index].type == resolving) cx.rs.aliases[index].type = r;
    return cx.rs.aliases[index].type;
}

ir::id resolve_type(context& cx, const dsl::type_expr& t, bool state_field, bool* flag, bool* counter) {
    switch (t.kind) {
        case dsl::type_kind::named: {
            auto it = cx.types.find(t.id.text);
            if (it == cx.types.end()) {
                if (auto v = cx.values.find(t.id.text); v != cx.values.end()) {
                    cx.wrong_kind(t.id, v->second, "a type");
                    return error_type;
                }
                std::vector<dsl::diag_note> notes;
                if (t.id.text == "hex" || t.id.text == "area")
                    notes.push_back({std::nullopt, "`" + t.id.text + "` names the nodes of the only " +
                                                       (t.id.text == "hex" ? "hexgrid" : "areas") +
                                                       " map; with none or several, use the map's name"});
                cx.unknown(t.id, "type", cx.type_names(), std::move(notes));
                return error_type;
            }
            const symbol& s = it->second;
            ir::type x;
            switch (s.kind) {
                case sym::builtin_type: return s.index;
                case sym::enumeration: x.kind = ir::type_kind::enumeration; x.ref = s.index; return cx.intern(x);
                case sym::record: x.kind = ir::type_kind::record; x.ref = s.index; return cx.intern(x);
                case sym::entity_kind: x.kind = ir::type_kind::entity; x.ref = s.index; return cx.intern(x);
                case sym::map: return cx.rs.maps[s.index].node_type;
                case sym::alias: return resolve_alias(cx, s.index);
                default: return error_type;
            }
        }
        case dsl::type_kind::range: {
            if (t.lo > t.hi) {
                cx.sink.error(dsl::diag_kind::bad_range, t.where,
                              "the range " + std::to_string(t.lo) + ".." + std::to_string(t.hi) + " is empty");
                return error_type;
            }
            return cx.range_type(t.lo, t.hi, t.policy == dsl::overflow_policy::clamp ? ir::overflow::clamp : ir::overflow::error);
        }
        case dsl::type_kind::map_of: {
            if (t.args.size() != 2) return error_type;
            const ir::id k = resolve_type(cx, t.args[0]);
            const ir::id v = resolve_type(cx, t.args[1]);
            if (k == error_type || v == error_type) return error_type;
            const auto kk = cx.type_at(k).kind;
            if (kk != ir::type_kind::enumeration && kk != ir::type_kind::entity && kk != ir::type_kind::player &&
                kk != ir::type_kind::node) {
                cx.sink.error(dsl::diag_kind::type_mismatch, t.args[0].where,
                              "`K -> V` keeps one value per member of K; K must be an enum, a kind of card or piece, a map "
                              "or `player`, not " + cx.type_text(k));
                return error_type;
            }
            if (cx.type_at(v).kind == ir::type_kind::list_of) {
                cx.sink.error(dsl::diag_kind::type_mismatch, t.args[1].where,
                              "a map keeps one value per member; a list is not such a value",
                              {{std::nullopt, "keep the lists in a `state per …` field instead"}});
                return error_type;
            }
            return cx.map_of(k, v);
        }
        case dsl::type_kind::list_of: {
            if (t.args.size() != 1) return error_type;
            const ir::id e = resolve_type(cx, t.args[0]);
            if (e == error_type || !state_field) return cx.list_of(e);
            // A stored list holds distinct members (docs/language.md §2): its element type must have
            // few enough members to bound the field.
            const ir::type& et = cx.type_at(e);
            const bool finite = et.kind == ir::type_kind::player || et.kind == ir::type_kind::enumeration ||
                                et.kind == ir::type_kind::entity || et.kind == ir::type_kind::node ||
                                et.kind == ir::type_kind::boolean ||
                                (et.kind == ir::type_kind::range && et.hi - et.lo < 4096);
            if (!finite) {
                cx.sink.error(dsl::diag_kind::type_mismatch, t.args[0].where,
                              "a stored list holds distinct members of a type with few of them (a player, an enum, a "
                              "card or piece, a location, a range of at most 4096 numbers), not " + cx.type_text(e));
                return error_type;
            }
            return cx.list_of(e);
        }
        case dsl::type_kind::flag:
        case dsl::type_kind::counter: {
            const bool is_flag = t.kind == dsl::type_kind::flag;
            if (!state_field) {
                cx.sink.error(dsl::diag_kind::type_mismatch, t.where,
                              std::string("`") + (is_flag ? "flag" : "counter") + "` is only for state fields");
                return error_type;
            }
            if (is_flag && flag) *flag = true;
            if (!is_flag && counter) *counter = true;
            return is_flag ? cx.t_bool : cx.range_type(1, 100000, ir::overflow::error);
        }
    }
    return error_type;
}

void resolve(context& cx) {
    resolver r{cx};
    r.run();
}

}  // namespace wp::compiler::detail
