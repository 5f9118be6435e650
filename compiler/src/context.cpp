// The shared compiler state: interned types and strings, provenance, symbol diagnostics.
#include "context.hpp"

#include <algorithm>

namespace wp::compiler::detail {

const char* sym_word(sym k) {
    switch (k) {
        case sym::enumeration: return "enum";
        case sym::alias: return "type";
        case sym::record: return "record";
        case sym::entity_kind: return "kind of card or piece";
        case sym::map: return "map";
        case sym::builtin_type: return "built-in type";
        case sym::slot: return "state field";
        case sym::entity: return "card or piece";
        case sym::map_node: return "map location";
        case sym::zone: return "zone";
        case sym::roll: return "roll";
        case sym::derived: return "quantity";
        case sym::decision: return "decision";
        case sym::action: return "action";
        case sym::event: return "event";
        case sym::procedure: return "procedure";
        case sym::sequence: return "sequence";
        case sym::table: return "table";
        case sym::rule: return "rule";
        case sym::missing: return "missing-data declaration";
        case sym::option: return "option";
    }
    return "name";
}

const char* article(std::string_view word) {
    return !word.empty() && std::string_view("aeiou").find(word.front()) != std::string_view::npos ? "an" : "a";
}

ir::id context::intern(const ir::type& t) {
    const auto key = std::make_tuple(static_cast<int>(t.kind), t.lo, t.hi, static_cast<int>(t.policy), t.ref, t.key, t.value);
    if (auto it = type_ids_.find(key); it != type_ids_.end()) return it->second;
    const auto id = static_cast<ir::id>(rs.types.size());
    rs.types.push_back(t);
    type_ids_.emplace(key, id);
    return id;
}

ir::id context::range_type(std::int64_t lo, std::int64_t hi, ir::overflow policy) {
    ir::type t;
    t.kind = ir::type_kind::range;
    t.lo = lo;
    t.hi = hi;
    t.policy = policy;
    return intern(t);
}

ir::id context::list_of(ir::id element) {
    if (element == error_type) return error_type;
    ir::type t;
    t.kind = ir::type_kind::list_of;
    t.value = element;
    return intern(t);
}

ir::id context::map_of(ir::id key, ir::id value) {
    if (key == error_type || value == error_type) return error_type;
    ir::type t;
    t.kind = ir::type_kind::map_of;
    t.key = key;
    t.value = value;
    return intern(t);
}

std::string context::type_text(ir::id t) const {
    if (t == error_type || t >= rs.types.size()) return "something";
    const ir::type& x = rs.types[t];
    if (x.kind == ir::type_kind::range) return "a number " + std::to_string(x.lo) + ".." + std::to_string(x.hi);
    if (x.kind == ir::type_kind::integer) return "a number";
    if (x.kind == ir::type_kind::boolean) return "true/false";
    if (x.kind == ir::type_kind::string) return "a text label";
    if (x.kind == ir::type_kind::void_) return "nothing";
    if (x.kind == ir::type_kind::enumeration) return "a `" + ir::type_name(rs, t) + "` value";
    return "`" + ir::type_name(rs, t) + "`";
}

ir::id context::file_id(std::uint32_t source) {
    if (auto it = file_of_source.find(source); it != file_of_source.end()) return it->second;
    return ir::no_id;
}

ir::source_pos context::pos(const dsl::span& s) {
    ir::source_pos p;
    if (s.file >= sources.size()) return p;
    p.file = file_id(s.file);
    const auto b = sources.position(s.file, s.begin);
    const auto e = sources.position(s.file, std::max(s.begin, s.end));
    p.line = b.line;
    p.column = b.column;
    p.end_line = e.line;
    p.end_column = e.column;
    return p;
}

std::vector<ir::anchor> context::anchors(const dsl::anchor_list& as) {
    std::vector<ir::anchor> out;
    for (const dsl::anchor& a : as) {
        ir::anchor x;
        x.first = a.first;
        x.last = a.last;
        if (auto s = outline.find(a)) x.section = *s;
        out.push_back(std::move(x));
    }
    return out;
}

ir::provenance context::prov(const dsl::span& s, const dsl::anchor_list& as, ir::id layer) {
    ir::provenance p;
    p.where = pos(s);
    p.anchors = anchors(as);
    p.layer = layer;
    return p;
}

ir::id context::string_id(const std::string& s) {
    if (auto it = string_ids_.find(s); it != string_ids_.end()) return it->second;
    const auto id = static_cast<ir::id>(rs.strings.size());
    rs.strings.push_back(s);
    string_ids_.emplace(s, id);
    return id;
}

void context::unknown(const dsl::name& n, const std::string& what, const std::vector<std::string>& candidates,
                      std::vector<dsl::diag_note> extra) {
    std::vector<dsl::diag_note> notes;
    if (auto near = dsl::closest_name(n.text, candidates)) notes.push_back({std::nullopt, "did you mean `" + *near + "`?"});
    for (auto& e : extra) notes.push_back(std::move(e));
    // "member of `terrain`" reads better after the name: "`Forest` is not a member of `terrain`".
    const std::string message = what.rfind("member of ", 0) == 0 ? "`" + n.text + "` is not a " + what
                                                                 : "unknown " + what + " `" + n.text + "`";
    sink.error(dsl::diag_kind::unknown_name, n.where, message, std::move(notes));
}

void context::wrong_kind(const dsl::name& n, const symbol& found, const std::string& wanted) {
    sink.error(dsl::diag_kind::wrong_kind_of_name, n.where,
               "`" + n.text + "` is " + article(sym_word(found.kind)) + " " + sym_word(found.kind) + ", not " + wanted,
               {{found.where, "`" + n.text + "` is declared here"}});
}

bool context::declare(std::map<std::string, symbol>& table, const dsl::name& n, symbol s) {
    if (auto it = table.find(n.text); it != table.end()) {
        std::vector<dsl::diag_note> notes;
        if (it->second.kind == sym::builtin_type || it->second.where.end == 0)
            notes.push_back({std::nullopt, "`" + n.text + "` is a built-in name"});
        else
            notes.push_back({it->second.where, "the first `" + n.text + "` (" + article(sym_word(it->second.kind)) + " " + sym_word(it->second.kind) + ") is here"});
        sink.error(dsl::diag_kind::duplicate_name, n.where, "`" + n.text + "` is declared twice", std::move(notes));
        return false;
    }
    table.emplace(n.text, s);
    return true;
}

std::vector<std::string> context::type_names() const {
    std::vector<std::string> out;
    for (const auto& [name, s] : types) out.push_back(name);
    return out;
}

std::vector<std::string> context::value_names() const {
    std::vector<std::string> out;
    for (const auto& [name, s] : values) out.push_back(name);
    return out;
}

}  // namespace wp::compiler::detail
