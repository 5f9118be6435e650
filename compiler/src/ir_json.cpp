// IR <-> JSON. One list of fields per IR struct (`fields`) drives both directions, so the
// two cannot drift apart; reading checks presence, JSON types and unknown keys, then
// check_integrity() checks every index.
#include "westphalia/ir/json.hpp"
#include "westphalia/dsl/json_text.hpp"

#include <algorithm>

#include "ir_names.hpp"

#include <limits>
#include <type_traits>

namespace wp::ir {

namespace {

using nlohmann::json;

// ---------------------------------------------------------------- the field lists

template <class V> void fields(V& v, source_pos& x) {
    v("file", x.file);
    v("line", x.line);
    v("column", x.column);
    v("end_line", x.end_line);
    v("end_column", x.end_column);
}
template <class V> void fields(V& v, anchor& x) {
    v("first", x.first);
    v("last", x.last);
    v("section", x.section);
}
template <class V> void fields(V& v, provenance& x) {
    v("where", x.where);
    v("anchors", x.anchors);
    v("layer", x.layer);
}
template <class V> void fields(V& v, layer& x) {
    v("name", x.name);
    v("kind", x.kind);
    v("files", x.files);
    v("prov", x.prov);
}
template <class V> void fields(V& v, section& x) {
    v("first", x.first);
    v("last", x.last);
    v("title", x.title);
    v("status", x.status);
    v("prov", x.prov);
}
template <class V> void fields(V& v, type& x) {
    v("kind", x.kind);
    v("lo", x.lo);
    v("hi", x.hi);
    v("policy", x.policy);
    v("ref", x.ref);
    v("key", x.key);
    v("value", x.value);
}
template <class V> void fields(V& v, enum_member& x) {
    v("name", x.name);
    v("label", x.label);
}
template <class V> void fields(V& v, enum_def& x) {
    v("name", x.name);
    v("members", x.members);
    v("aid", x.aid);
    v("synthesised", x.synthesised);
    v("prov", x.prov);
}
template <class V> void fields(V& v, type_alias& x) {
    v("name", x.name);
    v("type", x.type);
    v("prov", x.prov);
}
template <class V> void fields(V& v, field& x) {
    v("name", x.name);
    v("type", x.type);
    v("has_default", x.has_default);
    v("default", x.default_value);
    v("prov", x.prov);
}
template <class V> void fields(V& v, record& x) {
    v("name", x.name);
    v("fields", x.fields);
    v("prov", x.prov);
}
template <class V> void fields(V& v, slot& x) {
    v("name", x.name);
    v("scope", x.scope);
    v("entity_kind", x.entity_kind);
    v("map", x.map);
    v("type", x.type);
    v("initial", x.initial);
    v("flag", x.flag);
    v("counter", x.counter);
    v("?hidden", x.hidden);  // schema 6, written only when true
    v("?hidden_by", x.hidden_by);  // since 6, without a new version: written only when set
    v("?hidden_if", x.hidden_if);
    v("?hidden_unless", x.hidden_unless);
    v("prov", x.prov);
}
template <class V> void fields(V& v, entity_kind& x) {
    v("name", x.name);
    v("pieces", x.pieces);
    v("record", x.record);
    v("first_entity", x.first_entity);
    v("entity_count", x.entity_count);
    v("standin", x.standin);
    v("prov", x.prov);
}
template <class V> void fields(V& v, entity& x) {
    v("name", x.name);
    v("display", x.display);
    v("kind", x.kind);
    v("count", x.count);
    v("values", x.values);
    v("prov", x.prov);
}
template <class V> void fields(V& v, zone& x) {
    v("name", x.name);
    v("per_player", x.per_player);
    v("map", x.map);
    v("ordered", x.ordered);
    v("visibility", x.vis);
    v("entity_kind", x.entity_kind);
    v("prov", x.prov);
}
template <class V> void fields(V& v, map_attribute& x) {
    v("name", x.name);
    v("type", x.type);
}
template <class V> void fields(V& v, map_node& x) {
    v("name", x.name);
    v("display", x.display);
    v("terrain", x.terrain);
    v("col", x.col);
    v("row", x.row);
    v("values", x.values);
    v("neighbours", x.neighbours);
    v("prov", x.prov);
}
template <class V> void fields(V& v, map_edge& x) {
    v("a", x.a);
    v("b", x.b);
    v("directed", x.directed);
    v("kinds", x.kinds);
    v("prov", x.prov);
}
template <class V> void fields(V& v, map& x) {
    v("name", x.name);
    v("kind", x.kind);
    v("node_type", x.node_type);
    v("terrain_enum", x.terrain_enum);
    v("edge_enum", x.edge_enum);
    v("attributes", x.attributes);
    v("nodes", x.nodes);
    v("edges", x.edges);
    v("standin", x.standin);
    v("prov", x.prov);
}
template <class V> void fields(V& v, local& x) {
    v("name", x.name);
    v("type", x.type);
}
template <class V> void fields(V& v, dice_term& x) {
    v("count", x.count);
    v("low", x.low);
    v("high", x.high);
}
template <class V> void fields(V& v, distribution& x) {
    v("min", x.min);
    v("max", x.max);
    v("weights", x.weights);
    v("total", x.total);
}
template <class V> void fields(V& v, signed_dice& x) {
    v("dice", x.dice);
    v("negative", x.negative);
}
template <class V> void fields(V& v, roll& x) {
    v("name", x.name);
    v("param_count", x.param_count);
    v("locals", x.locals);
    v("expr", x.expr);
    v("linear", x.linear);
    v("terms", x.terms);
    v("constant", x.constant);
    v("distribution", x.dist);
    v("aid", x.aid);
    v("prov", x.prov);
}
template <class V> void fields(V& v, derived& x) {
    v("name", x.name);
    v("predicate", x.predicate);
    v("param_count", x.param_count);
    v("locals", x.locals);
    v("result", x.result);
    v("expr", x.expr);
    v("aid", x.aid);
    v("prov", x.prov);
}
template <class V> void fields(V& v, decision& x) {
    v("name", x.name);
    v("params", x.params);
    v("result", x.result);
    v("total", x.total);
    v("prov", x.prov);
}
template <class V> void fields(V& v, action& x) {
    v("name", x.name);
    v("param_count", x.param_count);
    v("locals", x.locals);
    v("guard", x.guard);
    v("body", x.body);
    v("aid", x.aid);
    v("prov", x.prov);
}
template <class V> void fields(V& v, event& x) {
    v("name", x.name);
    v("params", x.params);
    v("prov", x.prov);
}
template <class V> void fields(V& v, procedure& x) {
    v("name", x.name);
    v("param_count", x.param_count);
    v("locals", x.locals);
    v("body", x.body);
    v("prov", x.prov);
    v("?aid", x.aid);
}
template <class V> void fields(V& v, sequence& x) {
    v("name", x.name);
    v("locals", x.locals);
    v("body", x.body);
    v("prov", x.prov);
}
template <class V> void fields(V& v, block& x) {
    v("word", x.word);
    v("name", x.name);
    v("path", x.path);
    v("parent", x.parent);
    v("node", x.node);
    v("aid", x.aid);
    v("?number", x.number);  // written only for a `numbered` turn
    v("prov", x.prov);
}
template <class V> void fields(V& v, card_event& x) {
    v("card", x.card);
    v("title", x.title);
    v("procedure", x.procedure);
    v("duration", x.duration);
    v("flag", x.flag);
    v("lifts", x.lifts);
    v("rules", x.rules);
    v("aid", x.aid);
    v("prov", x.prov);
}
template <class V> void fields(V& v, event_precedence& x) {
    v("except", x.except);
    v("prov", x.prov);
}
template <class V> void fields(V& v, key_range& x) {
    v("kind", x.kind);
    v("lo", x.lo);
    v("hi", x.hi);
    v("open_lo", x.open_lo);
    v("open_hi", x.open_hi);
    v("text", x.text);
}
template <class V> void fields(V& v, key_map& x) {
    v("kind", x.kind);
    v("min", x.min);
    v("max", x.max);
    v("dense", x.dense);
    v("below", x.below);
    v("above", x.above);
}
template <class V> void fields(V& v, table_key& x) {
    v("source", x.source);
    v("expr", x.expr);
    v("var", x.var);
    v("type", x.type);
    v("rounding", x.round);
    v("has_clamp", x.has_clamp);
    v("shift", x.shift);
    v("shift_clamp", x.shift_clamp);
    v("clamp_lo", x.clamp_lo);
    v("clamp_hi", x.clamp_hi);
    v("prov", x.prov);
}
template <class V> void fields(V& v, table_row& x) {
    v("natural", x.natural);
    v("key", x.key);
    v("label", x.label);
    v("prov", x.prov);
}
template <class V> void fields(V& v, table_cell& x) {
    v("has_outcome", x.has_outcome);
    v("outcome", x.outcome);
    v("effects", x.effects);
    v("prov", x.prov);
}
template <class V> void fields(V& v, table& x) {
    v("name", x.name);
    v("param_count", x.param_count);
    v("locals", x.locals);
    v("keys", x.keys);
    v("rows", x.rows);
    v("columns", x.columns);
    v("cells", x.cells);
    v("row_map", x.row_map);
    v("column_map", x.column_map);
    v("natural_map", x.natural_map);
    v("outcome_type", x.outcome_type);
    v("?printing_of", x.printing_of);  // written only when set
    v("standin", x.standin);
    v("aid", x.aid);
    v("prov", x.prov);
}
template <class V> void fields(V& v, option& x) {
    v("name", x.name);
    v("kind", x.kind);
    v("type", x.type);
    v("enum", x.enum_id);
    v("values", x.values);
    v("default_index", x.default_index);
    v("selected_index", x.selected_index);
    v("aid", x.aid);
    v("prov", x.prov);
}
template <class V> void fields(V& v, missing& x) {
    v("name", x.name);
    v("what", x.what);
    v("prov", x.prov);
    v("kind", x.kind);
    v("element", x.element);
    v("field", x.field);
}
template <class V> void fields(V& v, accepted_finding& x) {
    v("kind", x.kind);
    v("subject", x.subject);
    v("reason", x.reason);
    v("prov", x.prov);
    v("?side", x.side);  // written only when the accept names a side
}
template <class V> void fields(V& v, standin& x) {
    v("kind", x.kind);
    v("element", x.element);
    v("why", x.why);
    v("prov", x.prov);
    v("field", x.field);
}
template <class V> void fields(V& v, rule& x) {
    v("name", x.name);
    v("kind", x.kind);
    v("target", x.target);
    v("target_id", x.target_id);
    v("locals", x.locals);
    v("param_count", x.param_count);
    v("amount", x.amount);
    v("modifier", x.mod);
    v("value", x.value);
    v("guard", x.guard);
    v("body", x.body);
    v("overrides", x.overrides);
    v("group", x.group);
    v("aid", x.aid);
    v("prov", x.prov);
}
template <class V> void fields(V& v, override_edge& x) {
    v("higher", x.higher);
    v("lower", x.lower);
    v("reason", x.reason);
}
template <class V> void fields(V& v, rule_group& x) {
    v("target", x.target);
    v("target_id", x.target_id);
    v("rules", x.rules);
    v("edges", x.edges);
}
template <class V> void fields(V& v, errata_op& x) {
    v("layer", x.layer);
    v("kind", x.kind);
    v("title", x.title);
    v("op", x.op);
    v("target", x.target);
    v("result_kind", x.result_kind);
    v("result", x.result);
    v("prov", x.prov);
}
template <class V> void fields(V& v, node& x) {
    v("op", x.code);
    v("type", x.type);
    v("value", x.value);
    v("ref", x.ref);
    v("first_child", x.first_child);
    v("child_count", x.child_count);
    v("where", x.where);
    v("layer", x.layer);
}
template <class V> void fields(V& v, expansion& x) {
    v("name", x.name);
    v("after", x.after);
    v("files", x.files);
    v("selected", x.selected);
}
template <class V> void fields(V& v, selected_option& x) {
    v("name", x.name);
    v("value", x.value);
}
template <class V> void fields(V& v, checker_setting& x) {
    v("name", x.name);
    v("value", x.value);
}
template <class V> void fields(V& v, ruleset& x) {
    v("name", x.name);
    v("title", x.title);
    v("source", x.source);
    v("sha256", x.sha256);
    v("min_players", x.min_players);
    v("max_players", x.max_players);
    v("files", x.files);
    v("layers", x.layers);
    v("upto", x.upto);
    // Optional (a `?` before the key): written only when the manifest declares an expansion, so
    // the IR of a ruleset without one, and the fingerprints of its logs, are as before.
    v("?expansions", x.expansions);
    v("selected_options", x.selected_options);
    // Optional: only a manifest that sets the checker's budgets writes them.
    v("?checker", x.checker);
    v("sections", x.sections);
    v("types", x.types);
    v("enums", x.enums);
    v("aliases", x.aliases);
    v("records", x.records);
    v("slots", x.slots);
    v("entity_kinds", x.entity_kinds);
    v("entities", x.entities);
    v("zones", x.zones);
    v("maps", x.maps);
    v("rolls", x.rolls);
    v("quantities", x.quantities);
    v("decisions", x.decisions);
    v("actions", x.actions);
    v("events", x.events);
    v("procedures", x.procedures);
    v("sequences", x.sequences);
    v("blocks", x.blocks);
    // Optional, as expansions: only a ruleset with card events writes them.
    v("?card_events", x.card_events);
    v("?event_dispatchers", x.event_dispatchers);
    v("?events_outrank", x.events_outrank);
    v("tables", x.tables);
    v("options", x.options);
    v("missing_data", x.missing_data);
    v("accepts", x.accepts);
    v("standins", x.standins);
    v("rules", x.rules);
    v("groups", x.groups);
    v("errata", x.errata);
    v("nodes", x.nodes);
    v("children", x.children);
    v("dice_terms", x.dice_terms);
    v("strings", x.strings);
}

template <class T> struct is_vector : std::false_type {};
template <class U> struct is_vector<std::vector<U>> : std::true_type {};

// ---------------------------------------------------------------- writing

template <class T> json put(const T& x);

struct writer {
    json& out;
    template <class T> void operator()(const char* key, const T& value) {
        if (key[0] == '?') {
            if constexpr (is_vector<T>::value)
                if (value.empty()) return;
            if constexpr (std::is_same_v<T, bool>)
                if (!value) return;
            if constexpr (std::is_same_v<T, std::string>)
                if (value.empty()) return;
            if constexpr (std::is_same_v<T, id>)
                if (value == no_id) return;
            ++key;
        }
        out[key] = put(value);
    }
};

template <class T> json put(const T& x) {
    if constexpr (std::is_same_v<T, bool>) {
        return x;
    } else if constexpr (std::is_same_v<T, std::uint32_t>) {
        if (x == no_id) return nullptr;  // "no element"
        return x;
    } else if constexpr (std::is_integral_v<T>) {
        return x;
    } else if constexpr (std::is_enum_v<T>) {
        return std::string(detail::spell(x));
    } else if constexpr (std::is_same_v<T, std::string>) {
        return x;
    } else if constexpr (is_vector<T>::value) {
        json a = json::array();
        for (const auto& e : x) a.push_back(put(e));
        return a;
    } else {
        json o = json::object();
        writer w{o};
        fields(w, const_cast<T&>(x));  // the field lists take non-const for the reader's sake; writing reads only
        return o;
    }
}

// ---------------------------------------------------------------- reading

struct bad_ir {
    dsl::diag_kind kind;
    std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw bad_ir{dsl::diag_kind::ir_invalid, (path.empty() ? std::string("the IR") : path) + ": " + what};
}

const char* json_type_name(const json& j) {
    switch (j.type()) {
        case json::value_t::null: return "null";
        case json::value_t::object: return "an object";
        case json::value_t::array: return "an array";
        case json::value_t::string: return "a string";
        case json::value_t::boolean: return "a boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: return "an integer";
        case json::value_t::number_float: return "a fractional number";
        default: return "something else";
    }
}

template <class T> void get(const json& j, T& x, const std::string& path);

struct reader {
    const json& in;
    const std::string& path;
    std::size_t seen = 0;
    template <class T> void operator()(const char* key, T& value) {
        const bool optional = key[0] == '?';
        if (optional) ++key;
        const auto it = in.find(key);
        if (it == in.end() && optional) return;
        if (it == in.end()) fail(path, std::string("missing field `") + key + "`");
        ++seen;
        get(*it, value, path.empty() ? std::string(key) : path + "." + key);
    }
};

template <class Int> Int get_integer(const json& j, const std::string& path) {
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<Int>::max())) fail(path, "number out of range");
        return static_cast<Int>(u);
    }
    if (j.is_number_integer()) {
        const auto s = j.get<std::int64_t>();
        if constexpr (std::is_unsigned_v<Int>) {
            if (s < 0) fail(path, "a negative number where a count or index belongs");
            if (static_cast<std::uint64_t>(s) > static_cast<std::uint64_t>(std::numeric_limits<Int>::max()))
                fail(path, "number out of range");
        } else {
            if (s < static_cast<std::int64_t>(std::numeric_limits<Int>::min()) ||
                s > static_cast<std::int64_t>(std::numeric_limits<Int>::max()))
                fail(path, "number out of range");
        }
        return static_cast<Int>(s);
    }
    fail(path, std::string("expected an integer, found ") + json_type_name(j));
}

template <class T> void get(const json& j, T& x, const std::string& path) {
    if constexpr (std::is_same_v<T, bool>) {
        if (!j.is_boolean()) fail(path, std::string("expected true or false, found ") + json_type_name(j));
        x = j.get<bool>();
    } else if constexpr (std::is_same_v<T, std::uint32_t>) {
        if (j.is_null()) {
            x = no_id;
            return;
        }
        x = get_integer<std::uint32_t>(j, path);
        if (x == no_id) fail(path, "number out of range");
    } else if constexpr (std::is_integral_v<T>) {
        x = get_integer<T>(j, path);
    } else if constexpr (std::is_enum_v<T>) {
        if (!j.is_string()) fail(path, std::string("expected a name, found ") + json_type_name(j));
        const auto& text = j.get_ref<const std::string&>();
        const auto e = detail::parse_enum<T>(text);
        if (!e) {
            std::string valid;
            for (const auto& n : detail::enum_names<T>::names) valid += (valid.empty() ? "" : ", ") + std::string(n);
            fail(path, "`" + text + "` is not one of " + valid);
        }
        x = *e;
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!j.is_string()) fail(path, std::string("expected a string, found ") + json_type_name(j));
        x = j.get<std::string>();
    } else if constexpr (is_vector<T>::value) {
        if (!j.is_array()) fail(path, std::string("expected an array, found ") + json_type_name(j));
        x.clear();
        x.resize(j.size());
        for (std::size_t i = 0; i < j.size(); ++i) get(j[i], x[i], path + "[" + std::to_string(i) + "]");
    } else {
        if (!j.is_object()) fail(path, std::string("expected an object, found ") + json_type_name(j));
        reader r{j, path};
        fields(r, x);
        if (r.seen != j.size()) {
            // Find the key no field list names.
            T probe{};
            for (auto it = j.begin(); it != j.end(); ++it) {
                const std::string key = it.key();  // not a structured binding: clang 14 cannot capture one
                bool known = false;
                auto finder = [&](const char* k, auto&) {
                    if (key == (k[0] == '?' ? k + 1 : k)) known = true;
                };
                fields(finder, probe);
                if (!known) fail(path, "unknown field `" + key + "`");
            }
        }
    }
}

// nlohmann's parse errors quote the bytes last read, which may be anything the file holds; a
// diagnostic's message must be UTF-8 (the JSON renderer refuses anything else), so every byte
// that does not begin a well-formed sequence is written as `\xNN`.
std::string valid_utf8(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        std::size_t len = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
        bool ok = len > 0 && i + len <= text.size();
        for (std::size_t k = 1; ok && k < len; ++k) {
            const auto c = static_cast<unsigned char>(text[i + k]);
            unsigned char lo = 0x80;
            unsigned char hi = 0xBF;
            if (k == 1 && b == 0xE0) lo = 0xA0;
            if (k == 1 && b == 0xED) hi = 0x9F;
            if (k == 1 && b == 0xF0) lo = 0x90;
            if (k == 1 && b == 0xF4) hi = 0x8F;
            ok = c >= lo && c <= hi;
        }
        if (ok) {
            out.append(text, i, len);
            i += len;
        } else {
            static const char digits[] = "0123456789ABCDEF";
            out += "\\x";
            out += digits[b >> 4];
            out += digits[b & 15];
            ++i;
        }
    }
    return out;
}

}  // namespace

json to_json(const ruleset& rs) {
    json j = json::object();
    j["schema"] = std::string(schema_name);
    j["version"] = schema_version;
    writer w{j};
    fields(w, const_cast<ruleset&>(rs));
    return j;
}

std::string to_json_text(const ruleset& rs, int indent) { return dsl::json_text(to_json(rs), indent) + "\n"; }

std::optional<ruleset> from_json(const json& j, read_error& error) {
    try {
        if (!j.is_object()) fail("", std::string("expected a JSON object, found ") + json_type_name(j));
        const auto schema = j.find("schema");
        if (schema == j.end() || !schema->is_string() || schema->get<std::string>() != schema_name)
            fail("", "this is not a Westphalia IR file (no \"schema\": \"westphalia-ir\")");
        const auto version = j.find("version");
        if (version == j.end() || !version->is_number_integer())
            fail("version", "missing or not an integer");
        if (version->get<std::int64_t>() != schema_version) {
            throw bad_ir{dsl::diag_kind::ir_version,
                         "this IR was written with schema version " + version->dump() +
                             "; this westphalia reads version " + std::to_string(schema_version) +
                             " (compile the ruleset again)"};
        }
        json rest = j;
        rest.erase("schema");
        rest.erase("version");
        ruleset rs;
        get(rest, rs, "");
        std::string problem = check_integrity(rs);
        if (!problem.empty()) throw bad_ir{dsl::diag_kind::ir_invalid, std::move(problem)};
        return rs;
    } catch (const bad_ir& e) {
        error = {e.kind, e.message, std::nullopt};
    } catch (const json::exception& e) {
        error = {dsl::diag_kind::ir_invalid, std::string("malformed JSON value: ") + e.what(), std::nullopt};
    }
    return std::nullopt;
}

std::optional<ruleset> from_json_text(std::string_view text, read_error& error) {
    json j;
    try {
        j = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // nlohmann's message is "[json.exception…] parse error at line L, column C: what"; keep `what`
        // and give the position as a byte offset so the diagnostic can point at it.
        std::string what = e.what();
        if (const auto column = what.find("column "); column != std::string::npos) {
            if (const auto colon = what.find(": ", column); colon != std::string::npos) what = what.substr(colon + 2);
        }
        error = {dsl::diag_kind::ir_invalid, "not valid JSON: " + valid_utf8(what), std::nullopt};
        if (e.byte > 0) error.offset = std::min<std::size_t>(e.byte - 1, text.size());
        return std::nullopt;
    } catch (const json::exception& e) {
        // A number too large for a double: "[json.exception.out_of_range.406] number overflow
        // parsing '1e9999'". It carries no position; the number's first occurrence stands for it.
        std::string what = e.what();
        if (const auto bracket = what.find("] "); what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
            what = what.substr(bracket + 2);
        error = {dsl::diag_kind::ir_invalid, "not valid JSON: " + valid_utf8(what), std::nullopt};
        const auto open = what.find(" '");
        if (open != std::string::npos && what.size() > open + 3 && what.back() == '\'') {
            const std::string number = what.substr(open + 2, what.size() - open - 3);
            if (const auto at = text.find(number); at != std::string_view::npos) error.offset = at;
        }
        return std::nullopt;
    }
    return from_json(j, error);
}

}  // namespace wp::ir
