// The symbolic state and the encoding of IR expressions into Z3 terms.
#include "symbolic.hpp"

#include "terms.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

namespace wp::verify::detail {

namespace {

// While a map search evaluates its predicate at every location, the rules and tables that reads
// are not recorded as used (play visits only some locations); recording resumes on leaving.
struct recording_paused {
    symbolic& s;
    decltype(symbolic::on_rule) rule;
    decltype(symbolic::on_table) table;
    explicit recording_paused(symbolic& x) : s(x), rule(std::move(x.on_rule)), table(std::move(x.on_table)) {
        s.on_rule = nullptr;
        s.on_table = nullptr;
    }
    recording_paused(const recording_paused&) = delete;
    recording_paused& operator=(const recording_paused&) = delete;
    ~recording_paused() {
        s.on_rule = std::move(rule);
        s.on_table = std::move(table);
    }
};

}  // namespace

using ir::op;

// ---------------------------------------------------------------- layout

std::uint32_t layout::key_width(const ir::ruleset& rs, id key_type) const {
    const ir::type& k = rs.types.at(key_type);
    switch (k.kind) {
        case ir::type_kind::player: return static_cast<std::uint32_t>(players);
        case ir::type_kind::enumeration: return static_cast<std::uint32_t>(rs.enums.at(k.ref).members.size());
        case ir::type_kind::boolean: return 2;
        case ir::type_kind::node: return static_cast<std::uint32_t>(rs.maps.at(k.ref).nodes.size());
        default: return 1;
    }
}

// As engine::game::list_capacity, for the most players.
std::uint32_t layout::list_capacity(const ir::ruleset& rs, id element) const {
    const ir::type& e = rs.types.at(element);
    switch (e.kind) {
        case ir::type_kind::entity: return kind_count.at(e.ref);
        case ir::type_kind::range: return static_cast<std::uint32_t>(e.hi - e.lo + 1);
        default: return key_width(rs, element);
    }
}

layout::layout(const ir::ruleset& rs, int seats) : players(seats) {
    for (const ir::entity_kind& k : rs.entity_kinds) {
        kind_first.push_back(static_cast<std::uint32_t>(instance_entity.size()));
        for (std::uint32_t e = k.first_entity; e < k.first_entity + k.entity_count; ++e) {
            if (entity_first.size() <= e) entity_first.resize(e + 1, 0);
            entity_first[e] = static_cast<std::uint32_t>(instance_entity.size());
            for (std::int64_t c = 0; c < rs.entities.at(e).count; ++c) instance_entity.push_back(e);
        }
        kind_count.push_back(static_cast<std::uint32_t>(instance_entity.size()) - kind_first.back());
    }
    entity_first.resize(rs.entities.size(), 0);
    for (const ir::slot& s : rs.slots) {
        slot_place p;
        p.offset = value_count;
        const ir::type& t = rs.types.at(s.type);
        if (t.kind == ir::type_kind::map_of) p.width = key_width(rs, t.key);
        if (t.kind == ir::type_kind::list_of) p.width = 1 + list_capacity(rs, t.value);
        switch (s.scope) {
            case ir::slot_scope::global: break;
            case ir::slot_scope::per_player: p.copies = static_cast<std::uint32_t>(players); break;
            case ir::slot_scope::per_entity: p.copies = kind_count.at(s.entity_kind); break;
            case ir::slot_scope::per_node: p.copies = static_cast<std::uint32_t>(rs.maps.at(s.map).nodes.size()); break;
        }
        value_count += p.width * p.copies;
        slots.push_back(p);
    }
    for (id z = 0; z < rs.zones.size(); ++z) {
        zone_first.push_back(static_cast<std::uint32_t>(zone_instance_zone.size()));
        const std::size_t n = ir::zone_instance_count(rs, rs.zones[z], players);
        for (std::size_t i = 0; i < n; ++i) zone_instance_zone.push_back(z);
    }
    // the per-location counts, after the slots' values
    for (id z = 0; z < rs.zones.size(); ++z) {
        if (rs.zones[z].map == ir::no_id || rs.zones[z].entity_kind == ir::no_id) {
            count_first.push_back(no_count);
            continue;
        }
        count_first.push_back(value_count);
        value_count += static_cast<std::uint32_t>(ir::zone_instance_count(rs, rs.zones[z], players));
    }
}

// ---------------------------------------------------------------- basics

z3::expr symbolic::num(std::int64_t v) {
    if (v < num_low || v >= num_low + num_count) return ctx.int_val(v);
    if (small_numbers_.empty()) {
        small_numbers_.reserve(num_count);
        for (std::int64_t k = 0; k < num_count; ++k) small_numbers_.push_back(ctx.int_val(num_low + k));
    }
    return small_numbers_[static_cast<std::size_t>(v - num_low)];
}

symbolic::symbolic(z3::context& c, const ir::ruleset& r, int players)
    : ctx(c), rs(r), lay(r, players), n_players(c.int_const("players")) {
    for (auto& g : group_of_target) g.clear();
    group_of_target[static_cast<int>(ir::target_kind::roll)].assign(rs.rolls.size(), ir::no_id);
    group_of_target[static_cast<int>(ir::target_kind::quantity)].assign(rs.quantities.size(), ir::no_id);
    group_of_target[static_cast<int>(ir::target_kind::decision)].assign(rs.decisions.size(), ir::no_id);
    group_of_target[static_cast<int>(ir::target_kind::action)].assign(rs.actions.size(), ir::no_id);
    group_of_target[static_cast<int>(ir::target_kind::event)].assign(rs.events.size(), ir::no_id);
    for (id g = 0; g < rs.groups.size(); ++g)
        if (rs.groups[g].target != ir::target_kind::none)
            group_of_target[static_cast<int>(rs.groups[g].target)].at(rs.groups[g].target_id) = g;
    // Every instance starts in the first zone declared for its kind (as in the engine).
    initial_loc_.assign(lay.instances(), -1);
    for (id k = 0; k < rs.entity_kinds.size(); ++k)
        for (id z = 0; z < rs.zones.size(); ++z)
            if (rs.zones[z].entity_kind == k) {
                for (std::uint32_t i = 0; i < lay.kind_count[k]; ++i) initial_loc_[lay.kind_first[k] + i] = lay.zone_first[z];
                break;
            }
    variable v{n_players, "players", variable::show::value, ir::no_id,
               std::max<std::int64_t>(1, rs.min_players)};
    variables.push_back(v);
    for (id s = 0; s < rs.slots.size(); ++s) {
        const ir::slot& sl = rs.slots[s];
        const layout::slot_place& p = lay.slots[s];
        const ir::type& t = rs.types.at(sl.type);
        const bool list = t.kind == ir::type_kind::list_of;
        const id elem = t.kind == ir::type_kind::map_of || list ? t.value : sl.type;
        std::int64_t init = sl.initial;
        if (!list && rs.types.at(elem).kind == ir::type_kind::entity && init >= 0)
            init = lay.entity_first.at(static_cast<std::size_t>(init));
        for (std::uint32_t c = 0; c < p.copies; ++c)
            for (std::uint32_t k = 0; k < p.width; ++k) {
                std::string text = sl.name;
                if (sl.scope == ir::slot_scope::per_player) text = "P" + std::to_string(c + 1) + " " + text;
                if (sl.scope == ir::slot_scope::per_entity) text = instance_text(lay.kind_first[sl.entity_kind] + c) + ": " + text;
                if (sl.scope == ir::slot_scope::per_node) text = rs.maps.at(sl.map).nodes.at(c).name + ": " + text;
                if (t.kind == ir::type_kind::map_of) text += "[" + value_text(t.key, k) + "]";
                if (list) text += k == 0 ? " length" : "[" + std::to_string(k) + "]";
                if (list && k == 0) list_lengths_.emplace(static_cast<std::uint32_t>(value_names.size()), stored_list{p.width - 1, elem});
                value_names.push_back(text);
                value_types.push_back(list && k == 0 ? ir::no_id : elem);
                initial_values_.push_back(init);
                value_seat_.push_back(sl.scope == ir::slot_scope::per_player ? static_cast<int>(c) : 0);
            }
    }
    // One count per location of a per-location zone (docs/checker.md, "Per-location counts").
    for (id z = 0; z < rs.zones.size(); ++z) {
        if (lay.count_first[z] == layout::no_count) continue;
        const std::uint32_t n = static_cast<std::uint32_t>(ir::zone_instance_count(rs, rs.zones[z], players));
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t zi = lay.zone_first[z] + i;
            std::int64_t init = 0;
            for (std::int64_t l : initial_loc_) init += l == static_cast<std::int64_t>(zi) ? 1 : 0;
            count_cells_.emplace(static_cast<std::uint32_t>(value_names.size()),
                                 count_cell{z, zi, lay.kind_count.at(rs.zones[z].entity_kind)});
            value_names.push_back("count(" + zone_instance_text(zi) + ")");
            value_types.push_back(ir::no_id);
            initial_values_.push_back(init);
            value_seat_.push_back(0);
        }
    }
}

id symbolic::zone_of(id n) const {
    if (n == ir::no_id) return ir::no_id;
    const ir::node& nd = N(n);
    if (nd.code == op::zone) return nd.ref;
    if (nd.code == op::index && nd.child_count == 2 && N(child(n, 0)).code == op::zone) return N(child(n, 0)).ref;
    return ir::no_id;
}

std::vector<std::uint32_t> symbolic::count_cells(id z) const {
    std::vector<std::uint32_t> out;
    if (z >= lay.count_first.size() || lay.count_first[z] == layout::no_count) return out;
    const std::size_t n = ir::zone_instance_count(rs, rs.zones[z], lay.players);
    for (std::size_t i = 0; i < n; ++i) out.push_back(lay.count_first[z] + static_cast<std::uint32_t>(i));
    return out;
}

z3::expr symbolic::zone_count(id z, const z3::expr& zi, const store& st) {
    const std::vector<std::uint32_t> cells = count_cells(z);
    if (cells.empty()) return num(0);
    const std::int64_t first = lay.zone_first.at(z);
    if (const auto k = terms::number(zi); k && *k >= first && *k < first + static_cast<std::int64_t>(cells.size()))
        return st.values.at(cells[static_cast<std::size_t>(*k - first)]);
    z3::expr acc = st.values.at(cells.front());
    for (std::size_t i = 1; i < cells.size(); ++i)
        acc = terms::ite(terms::eq(zi, num(first + static_cast<std::int64_t>(i))), st.values.at(cells[i]), acc);
    return acc;
}

z3::expr symbolic::pieces_in(id kind, const z3::expr& zi, const store& st) {
    z3::expr n = num(0);
    if (kind != ir::no_id && kind < lay.kind_count.size())
        for (std::uint32_t i = 0; i < lay.kind_count[kind]; ++i)
            n = terms::add(n, terms::ite(terms::eq(st.loc.at(lay.kind_first[kind] + i), zi), num(1), num(0)));
    return n;
}

void symbolic::count_move(store& st, id from_zone, const z3::expr& from, id into_zone, const z3::expr& into,
                          const z3::expr& k, bool all) {
    // what leaves `from`: k, or its whole count (read before anything changes)
    z3::expr moved = k;
    if (all && !count_cells(from_zone).empty()) {
        moved = zone_count(from_zone, from, st);
    } else if (all) {  // a zone without counts: its pieces, from their locations (before the move)
        moved = pieces_in(rs.zones.at(from_zone).entity_kind, from, st);
    }
    const std::vector<std::uint32_t> out = count_cells(from_zone), in = count_cells(into_zone);
    std::vector<z3::expr> before = st.values;
    for (std::uint32_t c : out) {
        const z3::expr here = num(static_cast<std::int64_t>(count_cells_.at(c).zone_instance));
        const z3::expr left = all ? num(0) : before[c] - moved;
        st.values[c] = terms::ite(terms::and_(terms::eq(from, here), terms::ne(from, into)), left, before[c]);
    }
    for (std::uint32_t c : in) {
        const z3::expr here = num(static_cast<std::int64_t>(count_cells_.at(c).zone_instance));
        st.values[c] = terms::ite(terms::and_(terms::eq(into, here), terms::ne(from, into)), terms::add(st.values[c], moved), st.values[c]);
    }
}

void symbolic::count_resync(store& st, id kind) {
    for (const auto& [cell, cc] : count_cells_) {
        if (rs.zones.at(cc.zone).entity_kind != kind) continue;
        z3::expr acc = num(0);
        for (std::uint32_t i = 0; i < lay.kind_count.at(kind); ++i) {
            const std::uint32_t inst = lay.kind_first[kind] + i;
            acc = terms::add(acc, terms::ite(terms::eq(st.loc.at(inst), num(static_cast<std::int64_t>(cc.zone_instance))), num(1), num(0)));
        }
        st.values[cell] = acc;
    }
}

ir::type_kind symbolic::kind_of(id n) const {
    const id t = N(n).type;
    return t == ir::no_id ? ir::type_kind::void_ : rs.types.at(t).kind;
}

z3::expr symbolic::bool_of(const z3::expr& x) { return x.is_bool() ? x : terms::ne(x, num(0)); }
z3::expr symbolic::int_of(const z3::expr& x) { return x.is_bool() ? terms::ite(x, num(1), num(0)) : x; }

z3::expr symbolic::fresh(const std::string& name, id type, const std::string& text, variable::show as,
                         std::int64_t preferred) {
    z3::expr v = ctx.int_const((name + "#" + std::to_string(++counter_)).c_str());
    variable_of.emplace(v.id(), variables.size());
    variables.push_back({v, text, as, type, preferred});
    return v;
}

kept_store::kept_store(const store& st, const kept_store* previous)
    : values_(st.values.size()), size_(st.values.size() + st.loc.size()) {
    auto at = [&](std::size_t i) -> const z3::expr& { return i < values_ ? st.values[i] : st.loc[i - values_]; };
    const bool comparable = previous && previous->values_ == values_ && previous->size_ == size_;
    for (std::size_t from = 0; from < size_; from += chunk) {
        const std::size_t to = std::min(size_, from + chunk);
        if (comparable) {
            const std::vector<z3::expr>& old = *previous->chunks_[from / chunk];
            bool equal = true;
            for (std::size_t i = from; i < to && equal; ++i)
                equal = static_cast<Z3_ast>(old[i - from]) == static_cast<Z3_ast>(at(i));
            if (equal) {
                chunks_.push_back(previous->chunks_[from / chunk]);
                continue;
            }
        }
        auto c = std::make_shared<std::vector<z3::expr>>();
        c->reserve(to - from);
        for (std::size_t i = from; i < to; ++i) c->push_back(at(i));
        chunks_.push_back(std::move(c));
    }
}

bool kept_store::same(const store& st) const {
    if (st.values.size() != values_ || st.values.size() + st.loc.size() != size_) return false;
    for (std::size_t i = 0; i < values_; ++i)
        if (static_cast<Z3_ast>(term(i)) != static_cast<Z3_ast>(st.values[i])) return false;
    for (std::size_t i = 0; i < st.loc.size(); ++i)
        if (static_cast<Z3_ast>(term(values_ + i)) != static_cast<Z3_ast>(st.loc[i])) return false;
    return true;
}

std::shared_ptr<const kept_store> symbolic::snapshot(const store& st) {
    for (auto it = snapshots_.rbegin(); it != snapshots_.rend(); ++it)
        if ((*it)->same(st)) return *it;
    auto kept = std::make_shared<const kept_store>(st, snapshots_.empty() ? nullptr : snapshots_.back().get());
    if (snapshots_.size() == 8) snapshots_.erase(snapshots_.begin());
    snapshots_.push_back(kept);
    return kept;
}

z3::expr symbolic::in_local_type(const z3::expr& x, id type) {
    const z3::expr dom = in_type(x, type);
    if (type == ir::no_id) return dom;
    const ir::type_kind k = rs.types.at(type).kind;
    return k == ir::type_kind::player || k == ir::type_kind::entity ? dom && x >= 0 : dom;
}

z3::expr symbolic::in_type(const z3::expr& x, id type) {
    if (type == ir::no_id) return ctx.bool_val(true);
    const ir::type& t = rs.types.at(type);
    switch (t.kind) {
        case ir::type_kind::boolean: return x >= num(0) && x <= num(1);
        case ir::type_kind::range: return x >= num(t.lo) && x <= num(t.hi);
        case ir::type_kind::enumeration:
            return x >= num(0) && x < num(static_cast<std::int64_t>(rs.enums.at(t.ref).members.size()));
        case ir::type_kind::player: return x >= num(-1) && x < n_players;
        case ir::type_kind::entity:
            return x == num(-1) || (x >= num(static_cast<std::int64_t>(lay.kind_first.at(t.ref))) &&
                                    x < num(static_cast<std::int64_t>(lay.kind_first.at(t.ref) + lay.kind_count.at(t.ref))));
        case ir::type_kind::node:
            return x >= num(-1) && x < num(static_cast<std::int64_t>(rs.maps.at(t.ref).nodes.size()));
        case ir::type_kind::string: return x >= num(0) && x < num(static_cast<std::int64_t>(rs.strings.size()));
        default: return ctx.bool_val(true);
    }
}

std::string symbolic::position(const ir::source_pos& w) const {
    const std::string file = w.file < rs.files.size() ? rs.files[w.file] : "?";
    return file + ":" + std::to_string(w.line) + ":" + std::to_string(w.column);
}

std::string symbolic::node_position(id n) const { return n < rs.nodes.size() ? position(rs.nodes[n].where) : "?"; }

std::string symbolic::instance_text(std::int64_t inst) const {
    if (inst < 0 || static_cast<std::size_t>(inst) >= lay.instances()) return "none";
    const id e = lay.instance_entity[static_cast<std::size_t>(inst)];
    const ir::entity& en = rs.entities.at(e);
    std::string t = en.display.empty() ? en.name : en.display;
    if (en.count > 1)
        t += " (copy " + std::to_string(inst - lay.entity_first[e] + 1) + " of " + std::to_string(en.count) + ")";
    return t;
}

std::string symbolic::zone_instance_text(std::int64_t zi) const {
    if (zi < 0 || static_cast<std::size_t>(zi) >= lay.zone_instances()) return "no zone";
    const id z = lay.zone_instance_zone[static_cast<std::size_t>(zi)];
    return rs.zones[z].name + ir::zone_instance_suffix(rs, rs.zones[z], static_cast<std::size_t>(zi) - lay.zone_first[z]);
}

std::string symbolic::value_text(id type, std::int64_t v) const {
    if (type == ir::no_id) return std::to_string(v);
    const ir::type& t = rs.types.at(type);
    switch (t.kind) {
        case ir::type_kind::boolean: return v ? "true" : "false";
        case ir::type_kind::player: return v < 0 ? "none" : "P" + std::to_string(v + 1);
        case ir::type_kind::entity: return instance_text(v);
        case ir::type_kind::enumeration:
            if (v >= 0 && static_cast<std::size_t>(v) < rs.enums.at(t.ref).members.size())
                return rs.enums.at(t.ref).members[static_cast<std::size_t>(v)].name;
            return std::to_string(v);
        case ir::type_kind::string:
            if (v >= 0 && static_cast<std::size_t>(v) < rs.strings.size()) return "\"" + rs.strings[static_cast<std::size_t>(v)] + "\"";
            return std::to_string(v);
        case ir::type_kind::node:
            if (v >= 0 && static_cast<std::size_t>(v) < rs.maps.at(t.ref).nodes.size())
                return rs.maps.at(t.ref).nodes[static_cast<std::size_t>(v)].name;
            return "none";
        default: return std::to_string(v);
    }
}

// ---------------------------------------------------------------- the domain

store symbolic::free_store(std::vector<fact>& facts) {
    store st = initial_store();
    forget(st, nullptr, nullptr, facts, "");
    return st;
}

store symbolic::initial_store() {
    store st;
    for (std::int64_t v : initial_values_) st.values.push_back(num(v));
    for (std::int64_t z : initial_loc_) st.loc.push_back(num(z));
    return st;
}

void symbolic::forget(store& st, const std::set<std::uint32_t>* values, const std::set<id>* kinds,
                      std::vector<fact>& facts, const std::string& when, bool invariants) {
    ++forgets;
    const std::size_t made_before = variables.size();
    z3::expr_vector bounds(ctx);
    std::string names;
    std::set<id> slots_named;
    for (std::uint32_t i = 0; i < st.values.size(); ++i) {
        const auto cell = count_cells_.find(i);
        // a per-location count is forgotten with its kind's pieces (or with everything)
        if (cell != count_cells_.end() ? (values || kinds) && !(kinds && kinds->count(rs.zones.at(cell->second.zone).entity_kind))
                                       : values && !values->count(i))
            continue;
        if (cell != count_cells_.end()) {
            z3::expr v = fresh("v" + std::to_string(i), ir::no_id, value_names[i], variable::show::value, initial_values_[i]);
            st.values[i] = v;
            bounds.push_back(v >= num(0) && v <= num(cell->second.capacity));
            continue;
        }
        tick();
        const id type = value_types[i];
        variable::show as = variable::show::value;
        switch (type == ir::no_id ? ir::type_kind::integer : rs.types.at(type).kind) {  // no_id: a list's length
            case ir::type_kind::boolean: as = variable::show::boolean; break;
            case ir::type_kind::enumeration: as = variable::show::member; break;
            case ir::type_kind::player: as = variable::show::player; break;
            case ir::type_kind::entity: as = variable::show::instance; break;
            case ir::type_kind::node: as = variable::show::node; break;
            default: break;
        }
        z3::expr v = fresh("v" + std::to_string(i), type, value_names[i], as, initial_values_[i]);
        st.values[i] = v;
        bounds.push_back(in_type(v, type));
        if (const auto length = list_lengths_.find(i); length != list_lengths_.end()) {
            bounds.push_back(v >= num(0) && v <= num(length->second.capacity));
            if (rs.types.at(length->second.element).kind == ir::type_kind::player) bounds.push_back(v <= n_players);
        }
        if (value_seat_[i] > 0) bounds.push_back(z3::implies(n_players <= value_seat_[i], v == num(initial_values_[i])));
    }
    // A stored list holds distinct members (every set it is given from does): pairwise, for the
    // short lists where that is cheap (a turn order), none for a list of hundreds of hexes.
    for (const auto& [at, list] : list_lengths_) {
        if ((values && !values->count(at)) || list.capacity > 16) continue;
        for (std::uint32_t i = 0; i < list.capacity; ++i)
            for (std::uint32_t j = i + 1; j < list.capacity; ++j)
                bounds.push_back(z3::implies(num(j) < st.values[at], st.values[at + 1 + i] != st.values[at + 1 + j]));
    }
    if (!bounds.empty()) facts.push_back({z3::mk_and(bounds), "the declared ranges of the state" + when});
    z3::expr_vector where(ctx);
    for (std::uint32_t i = 0; i < lay.instances(); ++i) {
        const id kind = rs.entities.at(lay.instance_entity[i]).kind;
        if (kinds && !kinds->count(kind)) continue;
        tick();
        z3::expr v = fresh("loc" + std::to_string(i), ir::no_id, instance_text(i), variable::show::zone, initial_loc_[i]);
        // As ranges of zone instances (linear constraints solve much faster than a disjunction
        // of equalities): the zones of the kind, a per-player zone only for seats in play.
        z3::expr_vector can(ctx);
        for (id z = 0; z < rs.zones.size(); ++z) {
            if (rs.zones[z].entity_kind != kind) continue;
            const std::int64_t first = lay.zone_first[z];
            if (rs.zones[z].per_player)
                can.push_back(v >= num(first) && v < num(first) + n_players);
            else if (rs.zones[z].map != ir::no_id)
                can.push_back(v >= num(first) && v < num(first + static_cast<std::int64_t>(ir::zone_instance_count(rs, rs.zones[z], lay.players))));
            else
                can.push_back(v == num(first));
        }
        if (!can.empty()) where.push_back(can.size() == 1 ? can[0] : z3::mk_or(can));
        st.loc[i] = v;
    }
    if (!where.empty()) facts.push_back({z3::mk_and(where), "every card or piece is in one of its zones" + when});
    // A per-location zone's counts sum to the pieces in that zone (one sum per zone, not per count).
    z3::expr_vector sums(ctx);
    for (id z = 0; z < rs.zones.size(); ++z) {
        const std::vector<std::uint32_t> cells = count_cells(z);
        if (cells.empty()) continue;
        const id kind = rs.zones[z].entity_kind;
        if ((values || kinds) && !(kinds && kinds->count(kind))) continue;
        const std::int64_t first = lay.zone_first[z], last = first + static_cast<std::int64_t>(cells.size());
        if (static_cast<std::uint64_t>(cells.size()) * lay.kind_count.at(kind) <= count_link_limit) {
            // small enough: each count is the number of pieces whose location is that zone
            for (std::uint32_t c : cells) {
                z3::expr here = num(0);
                const z3::expr zi = num(static_cast<std::int64_t>(count_cells_.at(c).zone_instance));
                for (std::uint32_t i = 0; i < lay.kind_count.at(kind); ++i)
                    here = terms::add(here, terms::ite(terms::eq(st.loc.at(lay.kind_first[kind] + i), zi), num(1), num(0)));
                sums.push_back(st.values[c] == here);
            }
            continue;
        }
        approximations.insert("the counts of a per-location zone on a large map (they add up to its pieces, "
                              "each not tied to which pieces)");
        z3::expr total = num(0), pieces = num(0);
        for (std::uint32_t c : cells) total = terms::add(total, st.values[c]);
        for (std::uint32_t i = 0; i < lay.kind_count.at(kind); ++i) {
            const z3::expr& l = st.loc.at(lay.kind_first[kind] + i);
            pieces = terms::add(pieces, terms::ite(l >= num(first) && l < num(last), num(1), num(0)));
        }
        sums.push_back(total == pieces);
    }
    if (!sums.empty()) facts.push_back({z3::mk_and(sums), "a per-location zone's counts are its pieces" + when});
    forgotten += variables.size() - made_before;
    if (invariants) assume_invariants(st, facts, when);
}

void symbolic::assume_invariants(const store& st, std::vector<fact>& facts, const std::string& when) {
    for (id r = 0; r < rs.rules.size(); ++r) {
        const ir::rule& rule = rs.rules[r];
        if (rule.kind != ir::rule_kind::invariant || rule.value == ir::no_id || unassumed.count(r)) continue;
        const z3::expr inv = invariant_value(r, st);
        for (const z3::expr& c : conjuncts(inv))
            if (assumed_ids.insert(c.id()).second) assumed_terms.push_back(c);
        facts.push_back({inv, "invariant `" + rule.name + "` (" + position(rule.prov.where) + ")" + when});
    }
}

void symbolic::forget_history(store& st, std::vector<fact>& facts, const std::string& when) {
    if (!history_free_) {
        store free = initial_store();
        forget(free, nullptr, nullptr, history_facts_, "", false);
        history_free_ = std::move(free);
    } else {
        ++forgets;
    }
    st = *history_free_;
    for (const fact& f : history_facts_) facts.push_back({f.e, f.why + when});
    // Encoded again each time (the same terms, which Z3 shares): an invariant may read what
    // differs between the starts (the active player), and its encoding records the rules and
    // tables it consults at this start.
    assume_invariants(st, facts, when);
}

std::vector<z3::expr> symbolic::conjuncts(const z3::expr& e) {
    std::vector<z3::expr> out;
    std::vector<z3::expr> todo{e};
    while (!todo.empty()) {
        const z3::expr x = todo.back();
        todo.pop_back();
        if (x.is_app() && x.decl().decl_kind() == Z3_OP_AND) {
            for (unsigned i = x.num_args(); i-- > 0;) todo.push_back(x.arg(i));
            continue;
        }
        out.push_back(x);
    }
    return out;
}

z3::expr symbolic::invariant_value(id r, const store& st) { return property(r, st, false); }

z3::expr symbolic::query_answered(id r, const store& st) {
    return property(r, st, rs.rules.at(r).kind == ir::rule_kind::assert_always);
}

z3::expr symbolic::property(id r, const store& st, bool negated) {
    const ir::rule& rule = rs.rules.at(r);
    env e;
    e.locals.resize(rule.locals.size());
    std::vector<z3::expr> saved;
    saved.swap(side);
    z3::expr v = boolean(rule.value, e, st);
    if (negated) v = !v;
    for (const z3::expr& s : side) v = v && s;
    side.swap(saved);
    return v;
}

// ---------------------------------------------------------------- state access

sv symbolic::slot_value(id slot, const z3::expr& index, const store& st) {
    const ir::slot& sl = rs.slots.at(slot);
    const layout::slot_place& p = lay.slots.at(slot);
    const ir::type& t = rs.types.at(sl.type);
    // A stored list reads as its cells (its length, then its members), as a map does.
    const bool map = t.kind == ir::type_kind::map_of || t.kind == ir::type_kind::list_of;
    const bool boolean_value = t.kind != ir::type_kind::list_of && rs.types.at(map ? t.value : sl.type).kind == ir::type_kind::boolean;
    std::int64_t base = sl.scope == ir::slot_scope::per_entity ? lay.kind_first.at(sl.entity_kind) : 0;
    const std::optional<std::int64_t> known = terms::number(index);
    auto element = [&](std::uint32_t k) {
        if (known && *known >= base && *known < base + static_cast<std::int64_t>(p.copies)) {
            const std::uint32_t at = p.offset + static_cast<std::uint32_t>(*known - base) * p.width + k;
            return boolean_value ? bool_of(st.values.at(at)) : st.values.at(at);
        }
        z3::expr acc = st.values.at(p.offset + k);
        for (std::uint32_t c = 1; c < p.copies; ++c) {
            acc = z3::ite(index == num(base + c), st.values.at(p.offset + c * p.width + k), acc);
        }
        return boolean_value ? bool_of(acc) : acc;
    };
    if (p.copies == 1) {
        if (!map) {
            return sv(boolean_value ? bool_of(st.values.at(p.offset)) : st.values.at(p.offset));
        }
    }
    if (!map) return sv(element(0));
    sv out(num(0));
    out.is_map = true;
    for (std::uint32_t k = 0; k < p.width; ++k) out.elems.push_back(element(k));
    return out;
}

z3::expr symbolic::instance_attribute(const z3::expr& inst, id kind, std::uint32_t field) {
    const ir::entity_kind& k = rs.entity_kinds.at(kind);
    const ir::record& rec = rs.records.at(k.record);
    const bool boolean_value = rs.types.at(rec.fields.at(field).type).kind == ir::type_kind::boolean;
    if (const auto i = terms::number(inst); i && *i >= 0 && static_cast<std::size_t>(*i) < lay.instances()) {
        const std::int64_t v = rs.entities.at(lay.instance_entity[static_cast<std::size_t>(*i)]).values.at(field);
        return boolean_value ? ctx.bool_val(v != 0) : num(v);
    }
    z3::expr acc = num(0);
    bool first = true;
    for (std::uint32_t e = k.first_entity; e < k.first_entity + k.entity_count; ++e) {
        const std::int64_t v = rs.entities.at(e).values.at(field);
        if (first) { acc = num(v); first = false; continue; }
        const std::int64_t lo = lay.entity_first.at(e);
        const std::int64_t hi = lo + rs.entities.at(e).count;
        acc = z3::ite(inst >= num(lo) && inst < num(hi), num(v), acc);
    }
    return boolean_value ? bool_of(acc) : acc;
}

z3::expr symbolic::zone_instance(id n, env& e, const store& st) {
    sv v = value(n, e, st);
    if (v.is_map) {
        approximations.insert("a per-player zone used without naming the player");
        return v.elems.empty() ? num(-1) : v.elems.front();
    }
    return v.e;
}

std::vector<member> symbolic::set_members(id n, env& e, const store& st) {
    std::vector<member> out;
    const ir::node& nd = N(n);
    const ir::type_kind k = kind_of(n);
    if (nd.code == op::local && nd.ref < e.lists.size() && e.lists[nd.ref]) return *e.lists[nd.ref];
    if (k == ir::type_kind::list_of && (nd.code == op::global || nd.code == op::player_field || nd.code == op::entity_field)) {
        // a stored list: position i holds a member while i is below the length
        const sv cells = value(n, e, st);
        for (std::size_t i = 1; i < cells.elems.size(); ++i)
            out.push_back({cells.elems[i], terms::lt(num(static_cast<std::int64_t>(i - 1)), cells.elems[0])});
        return out;
    }
    if (k == ir::type_kind::zone) {
        const z3::expr zi = zone_instance(n, e, st);
        const id kind = rs.types.at(N(n).type).ref;
        if (kind == ir::no_id || kind >= lay.kind_first.size()) return out;
        for (std::uint32_t i = 0; i < lay.kind_count[kind]; ++i) {
            const std::uint32_t inst = lay.kind_first[kind] + i;
            out.push_back({num(static_cast<std::int64_t>(inst)), terms::eq(st.loc.at(inst), zi)});
        }
        return out;
    }
    if (nd.code == op::builtin) {
        const auto b = static_cast<ir::builtin>(nd.ref);
        if (b == ir::builtin::players) {
            for (int s = 0; s < lay.players; ++s) out.push_back({num(s), n_players > s});
            return out;
        }
        if (b == ir::builtin::opponents) {
            const z3::expr p = integer(child(n, 0), e, st);
            for (int s = 0; s < lay.players; ++s) out.push_back({num(s), n_players > s && p != s});
            return out;
        }
        if (b == ir::builtin::neighbours) {
            const z3::expr v = integer(child(n, 0), e, st);
            const ir::map& m = rs.maps.at(rs.types.at(N(child(n, 0)).type).ref);
            if (const auto known = terms::number(v)) {
                // a known node: its neighbours, in the order of the general case (by node)
                std::set<std::int64_t> near;
                for (std::size_t x = 0; x < m.nodes.size(); ++x)
                    if (static_cast<std::int64_t>(x) == *known)
                        for (id y : m.nodes[x].neighbours) near.insert(static_cast<std::int64_t>(y));
                for (std::int64_t y : near) out.push_back({num(y), ctx.bool_val(true)});
                return out;
            }
            std::vector<z3::expr_vector> near;
            for (std::size_t x = 0; x < m.nodes.size(); ++x) near.emplace_back(ctx);
            for (std::size_t x = 0; x < m.nodes.size(); ++x)
                for (id y : m.nodes[x].neighbours) near.at(y).push_back(v == num(static_cast<std::int64_t>(x)));
            for (std::size_t y = 0; y < m.nodes.size(); ++y)
                if (!near[y].empty()) out.push_back({num(static_cast<std::int64_t>(y)), z3::mk_or(near[y])});
            return out;
        }
        if (b == ir::builtin::hexside) {
            // each feature is in the set where some hexside (edge) between the two bears it
            const z3::expr x = integer(child(n, 0), e, st);
            const z3::expr y = integer(child(n, 1), e, st);
            const id map = rs.types.at(N(child(n, 0)).type).ref;
            const ir::map& m = rs.maps.at(map);
            std::set<std::int64_t> kinds;
            for (const ir::map_edge& ed : m.edges) kinds.insert(ed.kinds.begin(), ed.kinds.end());
            for (std::int64_t k : kinds) out.push_back({num(k), edge_has(map, k, x, y)});
            return out;
        }
    }
    if (nd.code == op::type_members) {
        const ir::type& t = rs.types.at(nd.ref);
        switch (t.kind) {
            case ir::type_kind::player:
                for (int s = 0; s < lay.players; ++s) out.push_back({num(s), n_players > s});
                return out;
            case ir::type_kind::enumeration:
                for (std::size_t m = 0; m < rs.enums.at(t.ref).members.size(); ++m)
                    out.push_back({num(static_cast<std::int64_t>(m)), ctx.bool_val(true)});
                return out;
            case ir::type_kind::entity:
                for (std::uint32_t i = 0; i < lay.kind_count.at(t.ref); ++i)
                    out.push_back({num(static_cast<std::int64_t>(lay.kind_first[t.ref] + i)), ctx.bool_val(true)});
                return out;
            case ir::type_kind::node:
                for (std::size_t m = 0; m < rs.maps.at(t.ref).nodes.size(); ++m)
                    out.push_back({num(static_cast<std::int64_t>(m)), ctx.bool_val(true)});
                return out;
            default: break;
        }
    }
    if (nd.code == op::range) {
        // lo..hi: every number of the span the compiler gave the element type, in the set when
        // it lies between the ends (exact: the engine stops on ends outside the span)
        const z3::expr lo = integer(child(n, 0), e, st);
        const z3::expr hi = integer(child(n, 1), e, st);
        const ir::type& el = rs.types.at(rs.types.at(nd.type).value);
        for (std::int64_t v = el.lo; v <= el.hi; ++v) out.push_back({num(v), terms::and_(terms::le(lo, num(v)), terms::le(num(v), hi))});
        return out;
    }
    approximations.insert(std::string("a set given by `") + ir::name_of(nd.code) + "` (treated as empty)");
    return out;
}

std::vector<place> symbolic::places(id target, env& e, const store& st) {
    std::vector<place> out;
    const ir::node& nd = N(target);
    auto slot_places = [&](id slot, const z3::expr& index, std::int64_t base) {
        const layout::slot_place& p = lay.slots.at(slot);
        for (std::uint32_t c = 0; c < p.copies; ++c)
            out.push_back({p.offset + c * p.width, p.copies == 1 ? ctx.bool_val(true) : terms::eq(index, num(base + c))});
    };
    switch (nd.code) {
        case op::global: slot_places(nd.ref, num(0), 0); break;
        case op::player_field: slot_places(nd.ref, integer(child(target, 0), e, st), 0); break;
        case op::entity_field: {
            const ir::slot& sl = rs.slots.at(nd.ref);
            const std::int64_t base = sl.scope == ir::slot_scope::per_entity ? lay.kind_first.at(sl.entity_kind) : 0;
            slot_places(nd.ref, integer(child(target, 0), e, st), base);
            break;
        }
        case op::index: {
            std::vector<place> inner = places(child(target, 0), e, st);
            const z3::expr key = integer(child(target, 1), e, st);
            const ir::type& mt = rs.types.at(N(child(target, 0)).type);
            const std::uint32_t width = lay.key_width(rs, mt.key);
            for (const place& p : inner)
                for (std::uint32_t k = 0; k < width; ++k)
                    out.push_back({p.index + k, p.when && key == num(static_cast<std::int64_t>(k))});
            break;
        }
        default: approximations.insert("an assignment to a target the checker cannot place"); break;
    }
    return out;
}

// ---------------------------------------------------------------- rules

z3::expr symbolic::rule_guard(id r, const std::vector<z3::expr>& args, const store& st) {
    const ir::rule& rule = rs.rules.at(r);
    if (rule.guard == ir::no_id) return ctx.bool_val(true);
    env e;
    e.locals.resize(std::max(rule.locals.size(), args.size()));
    for (std::size_t i = 0; i < args.size() && i < rule.locals.size(); ++i) e.locals[i] = args[i];
    context_.push_back("rule " + rule.name);
    struct pop { std::vector<std::string>& c; ~pop() { c.pop_back(); } } popper{context_};
    return boolean(rule.guard, e, st);
}

std::map<id, z3::expr> symbolic::group_effective(id group, const std::vector<z3::expr>& args, const store& st,
                                                 std::map<id, z3::expr>* guards) {
    std::map<id, z3::expr> g, out;
    if (group == ir::no_id) return out;
    const ir::rule_group& gr = rs.groups.at(group);
    for (id r : gr.rules) g.emplace(r, rule_guard(r, args, st));
    for (id r : gr.rules) {
        z3::expr a = g.at(r);
        for (const ir::override_edge& edge : gr.edges)
            if (edge.lower == r && g.count(edge.higher)) a = terms::and_(a, terms::not_(g.at(edge.higher)));
        out.emplace(r, a);
    }
    if (guards) *guards = g;
    return out;
}

// ---------------------------------------------------------------- rolls and tables

z3::expr symbolic::roll_value(id r, const std::vector<z3::expr>& args, const store& st,
                              const std::map<id, z3::expr>* fixed, z3::expr* dice_out) {
    const ir::roll& ro = rs.rolls.at(r);
    z3::expr dice = num(0);
    if (fixed && fixed->count(r)) {
        dice = fixed->at(r);
    } else if (ro.linear && !ro.dist.weights.empty()) {
        dice = fresh(ro.name, ir::no_id, ro.name + " (dice)", variable::show::value, ro.dist.min);
        variables.back().roll = r;
        z3::expr dom = dice >= num(ro.dist.min) && dice <= num(ro.dist.max);
        for (std::size_t i = 0; i < ro.dist.weights.size(); ++i)
            if (ro.dist.weights[i] == 0) dom = dom && dice != num(ro.dist.min + static_cast<std::int64_t>(i));
        side.push_back(dom);
    } else {
        env e;
        e.locals.resize(std::max(ro.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < ro.locals.size(); ++i) e.locals[i] = args[i];
        dice = integer(ro.expr, e, st);
    }
    if (dice_out) *dice_out = dice;
    const id group = group_of_target[static_cast<int>(ir::target_kind::roll)].at(r);
    return modified(group, dice, args, st);
}

// The value v of a roll or quantity after the modifiers of its group, as the engines apply them
// (docs/language.md §9): the adds summed in, then a set (where sets disagree the engines stop:
// that is the checker's contradiction; here the first applicable one is taken), then the
// smallest applicable cap, then the largest applicable floor.
z3::expr symbolic::modified(id group, z3::expr v, const std::vector<z3::expr>& args, const store& st) {
    const std::map<id, z3::expr> eff = group_effective(group, args, st);
    auto amount = [&](const ir::rule& m) {
        env e;
        e.locals.resize(std::max(m.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < m.locals.size(); ++i) e.locals[i] = args[i];
        return integer(m.amount, e, st);
    };
    std::vector<std::pair<z3::expr, z3::expr>> sets, caps, floors;  // (applies, amount)
    for (const auto& [rule, applies] : eff) {
        const ir::rule& m = rs.rules.at(rule);
        if (m.kind != ir::rule_kind::modifier || m.amount == ir::no_id) continue;
        switch (m.mod) {
            case ir::modifier_kind::add: v = v + z3::ite(applies, amount(m), num(0)); break;
            case ir::modifier_kind::set: sets.emplace_back(applies, amount(m)); break;
            case ir::modifier_kind::at_most: caps.emplace_back(applies, amount(m)); break;
            case ir::modifier_kind::at_least: floors.emplace_back(applies, amount(m)); break;
        }
        if (on_rule) on_rule(rule, applies, rule_guard(rule, args, st));
    }
    for (auto it = sets.rbegin(); it != sets.rend(); ++it) v = z3::ite(it->first, it->second, v);
    for (const auto& [applies, k] : caps) v = z3::ite(applies && v > k, k, v);
    for (const auto& [applies, k] : floors) v = z3::ite(applies && v < k, k, v);
    return v;
}

z3::expr symbolic::table_key(id t, std::size_t k, env& te, const store& st, z3::expr* natural) {
    const ir::table& tb = rs.tables.at(t);
    const ir::table_key& key = tb.keys.at(k);
    z3::expr v = num(0);
    if (natural && key.source == ir::key_source::roll && key.expr != ir::no_id && N(key.expr).code == op::roll) {
        // one roll gives both: the dice, and the dice with the modifiers
        std::vector<z3::expr> args;
        for (std::uint32_t i = 0; i < N(key.expr).child_count; ++i) args.push_back(integer(child(key.expr, i), te, st));
        v = roll_value(N(key.expr).ref, args, st, fixed_rolls, natural);
    } else if (key.source == ir::key_source::key && key.var != ir::no_id && key.expr == ir::no_id) {
        v = te.locals.at(key.var) ? *te.locals.at(key.var) : num(0);
    } else {
        v = integer(key.expr, te, st);
        if (natural) *natural = v;  // dice written as the key have no modifiers
    }
    const ir::key_map& axis = k == 0 ? tb.row_map : tb.column_map;
    if (axis.kind == ir::key_range_kind::odds) return odds_key(tb, k, te, st);
    if (key.has_clamp) {
        if (!key.clamp_lo.open_lo) {
            const z3::expr lo = num(key.clamp_lo.lo);
            v = z3::ite(v < lo, lo, v);
        }
        if (!key.clamp_hi.open_hi) {
            const z3::expr hi = num(key.clamp_hi.open_lo || key.clamp_lo.open_lo ? key.clamp_hi.hi
                                                                                         : std::max(key.clamp_lo.lo, key.clamp_hi.hi));
            v = z3::ite(v > hi, hi, v);
        }
    }
    return v;
}

// An odds key is encoded as its step on the odds scale (odds_step: 1-2 is -1, 1-1 is 0, 2-1 is
// 1 ...), exactly as the engine reads it: for `odds(a, b)` written as the key, "the ratio reads
// at most step k" is linear in a and b for each constant k, so the step is a chain of those
// tests over the steps the table's columns and clamp name (one below and one above them stand
// for every ratio beyond). Any other expression of odds type is an approximation.
z3::expr symbolic::odds_key(const ir::table& tb, std::size_t k, env& te, const store& st) {
    if (ir::odds_fractional(tb, k)) return odds_key_fractional(tb, k, te, st);
    const ir::table_key& key = tb.keys.at(k);
    std::vector<std::int64_t> steps;
    if (k == 0)
        for (const ir::table_row& r : tb.rows) steps.push_back(odds_step(r.key.lo, r.key.hi));
    else
        for (const ir::key_range& c : tb.columns) steps.push_back(odds_step(c.lo, c.hi));
    if (key.has_clamp && !key.clamp_lo.open_lo) steps.push_back(odds_step(key.clamp_lo.lo, key.clamp_lo.hi));
    if (key.has_clamp && !key.clamp_hi.open_hi) steps.push_back(odds_step(key.clamp_hi.lo, key.clamp_hi.hi));
    if (steps.empty()) steps.push_back(0);
    const std::int64_t lo = *std::min_element(steps.begin(), steps.end()) - 1;
    const std::int64_t hi = *std::max_element(steps.begin(), steps.end()) + 1;
    z3::expr v = num(0);
    const bool direct = key.expr != ir::no_id && N(key.expr).code == op::builtin &&
                        static_cast<ir::builtin>(N(key.expr).ref) == ir::builtin::odds && N(key.expr).child_count == 2;
    if (!direct) {
        approximations.insert("odds keys not written as `odds(a, b)` (table " + tb.name + ")");
        v = key.source == ir::key_source::key && key.var != ir::no_id && key.expr == ir::no_id && te.locals.at(key.var)
                ? *te.locals.at(key.var)
                : integer(key.expr, te, st);
    } else {
        const z3::expr a = integer(child(key.expr, 0), te, st);
        const z3::expr b = integer(child(key.expr, 1), te, st);
        // the engine stops on a defender below 1 or an attacker below 0
        side.push_back(b >= 1 && a >= 0);
        const bool attacker = key.round == ir::rounding::attacker;
        auto at_most = [&](std::int64_t s) -> z3::expr {
            if (s >= 0) return attacker ? a <= num(s + 1) * b : a < num(s + 2) * b;
            const std::int64_t n = 1 - s;
            return attacker ? b >= num(n) * a : b > num(n - 1) * a;
        };
        v = num(hi);
        for (std::int64_t s = hi - 1; s >= lo; --s) v = z3::ite(at_most(s), num(s), v);
    }
    if (key.has_clamp) {
        if (!key.clamp_lo.open_lo) {
            const z3::expr c = num(odds_step(key.clamp_lo.lo, key.clamp_lo.hi));
            v = z3::ite(v < c, c, v);
        }
        if (!key.clamp_hi.open_hi) {
            const z3::expr c = num(odds_step(key.clamp_hi.lo, key.clamp_hi.hi));
            v = z3::ite(v > c, c, v);
        }
    }
    return v;
}

// An odds key on an axis with fractional points, as its code (odds_code, scaled): the points
// are the whole steps around the axis's ratios and its fractional ratios, in order. For the
// defender the ratio reads at most point i when a/b is below point i+1; for the attacker,
// when a/b is at most point i: both linear in a and b (a*q against p*b).
z3::expr symbolic::odds_key_fractional(const ir::table& tb, std::size_t k, env& te, const store& st) {
    const ir::table_key& key = tb.keys.at(k);
    std::vector<ir::key_range> declared;
    if (k == 0)
        for (const ir::table_row& r : tb.rows) declared.push_back(r.key);
    else
        declared = tb.columns;
    const bool lo_clamp = key.has_clamp && !key.clamp_lo.open_lo, hi_clamp = key.has_clamp && !key.clamp_hi.open_hi;
    if (lo_clamp) declared.push_back(key.clamp_lo);
    if (hi_clamp) declared.push_back(key.clamp_hi);
    std::int64_t lo = 0, hi = 0;
    bool first = true;
    for (const ir::key_range& r : declared) {
        const std::int64_t s = odds_step(r.lo, r.hi);
        lo = first ? s : std::min(lo, s);
        hi = first ? s : std::max(hi, s);
        first = false;
    }
    --lo;  // one step below and one above stand for every ratio beyond
    ++hi;
    using point = std::pair<std::int64_t, std::int64_t>;
    std::vector<point> points;
    for (std::int64_t s = lo; s <= hi; ++s) points.push_back(s >= 0 ? point{s + 1, 1} : point{1, 1 - s});
    for (const ir::key_range& r : declared)
        if (!ir::odds_whole(r)) points.push_back({r.lo, r.hi});
    std::sort(points.begin(), points.end(), [](point x, point y) { return x.first * y.second < y.first * x.second; });
    points.erase(std::unique(points.begin(), points.end(), [](point x, point y) { return x.first * y.second == y.first * x.second; }),
                 points.end());
    auto code = [](point p) { return odds_code(p.first, p.second, true); };
    // two ratios closer than 1/odds_fine of a step share a code: the encoding cannot tell them apart
    for (std::size_t i = 0; i + 1 < points.size(); ++i)
        if (code(points[i]) == code(points[i + 1]))
            approximations.insert("odds " + ir::odds_point_text(points[i].first, points[i].second) + " and " +
                                  ir::odds_point_text(points[i + 1].first, points[i + 1].second) + " closer than the checker reads (table " +
                                  tb.name + ")");
    z3::expr v = num(0);
    const bool direct = key.expr != ir::no_id && N(key.expr).code == op::builtin &&
                        static_cast<ir::builtin>(N(key.expr).ref) == ir::builtin::odds && N(key.expr).child_count == 2;
    if (!direct) {
        // the value of an odds expression is not its point on this scale: no exact encoding
        approximations.insert("odds keys not written as `odds(a, b)` (table " + tb.name + ")");
        v = fresh("odds", ir::no_id, "odds of " + tb.name, variable::show::value, 0);
    } else {
        const z3::expr a = integer(child(key.expr, 0), te, st);
        const z3::expr b = integer(child(key.expr, 1), te, st);
        side.push_back(b >= 1 && a >= 0);
        const bool attacker = key.round == ir::rounding::attacker;
        v = num(code(points.back()));
        for (std::size_t i = points.size() - 1; i-- > 0;) {
            const point at = attacker ? points[i] : points[i + 1];
            const z3::expr test = attacker ? a * num(at.second) <= num(at.first) * b : a * num(at.second) < num(at.first) * b;
            v = z3::ite(test, num(code(points[i])), v);
        }
    }
    if (lo_clamp) {
        const z3::expr c = num(odds_code(key.clamp_lo.lo, key.clamp_lo.hi, true));
        v = z3::ite(v < c, c, v);
    }
    if (hi_clamp) {
        const z3::expr c = num(odds_code(key.clamp_hi.lo, key.clamp_hi.hi, true));
        v = z3::ite(v > c, c, v);
    }
    return v;
}

const std::vector<std::pair<std::int64_t, std::int64_t>>& symbolic::edges_bearing(id map, std::int64_t kind) {
    const auto key = std::make_pair(map, kind);
    if (auto it = edges_bearing_.find(key); it != edges_bearing_.end()) return it->second;
    const ir::map& m = rs.maps.at(map);
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (const ir::map_edge& ed : m.edges) {
        if (std::find(ed.kinds.begin(), ed.kinds.end(), kind) == ed.kinds.end()) continue;
        const auto a = static_cast<std::int64_t>(ed.a), b = static_cast<std::int64_t>(ed.b);
        if (seen.insert({a, b}).second) out.push_back({a, b});
        if ((m.kind == ir::map_kind::hexgrid || !ed.directed) && seen.insert({b, a}).second) out.push_back({b, a});
    }
    return edges_bearing_.emplace(key, std::move(out)).first->second;
}

z3::expr symbolic::edge_has(id map, std::int64_t kind, const z3::expr& x, const z3::expr& y) {
    const auto kx = terms::number(x), ky = terms::number(y);
    z3::expr_vector any(ctx);
    for (const auto& [a, b] : edges_bearing(map, kind)) {
        if ((kx && *kx != a) || (ky && *ky != b)) continue;
        if (kx && ky) return ctx.bool_val(true);
        any.push_back(kx ? y == num(b) : ky ? x == num(a) : x == num(a) && y == num(b));
    }
    return any.empty() ? ctx.bool_val(false) : z3::mk_or(any);
}

z3::expr symbolic::edge_kind_at(id map, const z3::expr& x, const z3::expr& y) {
    const ir::map& m = rs.maps.at(map);
    const auto kx = terms::number(x), ky = terms::number(y);
    // the first edge from x to y is read: built from the last, so the first is outermost
    z3::expr acc = num(-1);
    for (std::size_t i = m.edges.size(); i-- > 0;) {
        const ir::map_edge& ed = m.edges[i];
        if (ed.kinds.empty()) continue;
        const auto a = static_cast<std::int64_t>(ed.a), b = static_cast<std::int64_t>(ed.b);
        const z3::expr v = num(ed.kinds.front());
        auto at = [&](std::int64_t p, std::int64_t q) -> std::optional<z3::expr> {
            if ((kx && *kx != p) || (ky && *ky != q)) return std::nullopt;
            if (kx && ky) return ctx.bool_val(true);
            return kx ? y == num(q) : ky ? x == num(p) : x == num(p) && y == num(q);
        };
        // of one edge, its own direction a to b is read before the reverse b to a
        if (m.kind == ir::map_kind::hexgrid || !ed.directed)
            if (const auto c = at(b, a)) acc = c->is_true() ? v : z3::ite(*c, v, acc);
        if (const auto c = at(a, b)) acc = c->is_true() ? v : z3::ite(*c, v, acc);
    }
    return acc;
}

z3::expr symbolic::node_lookup(const std::vector<std::int64_t>& values, const z3::expr& node, std::int64_t otherwise) {
    if (const auto k = terms::number(node))
        return num(*k >= 0 && static_cast<std::size_t>(*k) < values.size() ? values[static_cast<std::size_t>(*k)] : otherwise);
    // grouped by value: one `ite` per distinct value, on the nodes that have it
    std::map<std::int64_t, z3::expr_vector> by_value;
    for (std::size_t i = 0; i < values.size(); ++i)
        by_value.try_emplace(values[i], ctx).first->second.push_back(node == num(static_cast<std::int64_t>(i)));
    z3::expr acc = num(otherwise);
    for (auto& [v, where] : by_value) acc = z3::ite(z3::mk_or(where), num(v), acc);
    return acc;
}

std::int64_t symbolic::hex_x(const ir::map_node& h) { return h.col; }
std::int64_t symbolic::hex_z(const ir::map_node& h) { return h.row - (h.col + (h.col & 1)) / 2; }

z3::expr symbolic::cube_coordinate(id map, int axis, const z3::expr& node) {
    const ir::map& m = rs.maps.at(map);
    std::vector<std::int64_t> values;
    for (const ir::map_node& h : m.nodes) values.push_back(axis == 0 ? hex_x(h) : hex_z(h));
    return node_lookup(values, node, 0);
}

z3::expr symbolic::distance_table(id map) {
    if (auto it = distance_tables_.find(map); it != distance_tables_.end()) return it->second;
    const ir::map& m = rs.maps.at(map);
    const auto n = static_cast<std::int64_t>(m.nodes.size());
    z3::expr table = z3::const_array(ctx.int_sort(), num(-1));
    for (std::int64_t a = 0; a < n; ++a)
        for (std::int64_t b = 0; b < n; ++b) table = z3::store(table, num(a * n + b), num(ir::map_distance(m, a, b)));
    distance_tables_.emplace(map, table);
    return table;
}

std::optional<z3::expr> symbolic::path_length_exact(id n, const z3::expr& a, const z3::expr& b, const std::vector<z3::expr>& extra,
                                                    const store& st, bool& gaps) {
    gaps = false;
    const ir::node& nd = N(n);
    const id map = rs.types.at(N(child(n, 0)).type).ref;
    const ir::map& m = rs.maps.at(map);
    const ir::derived& pred = rs.quantities.at(static_cast<id>(nd.value));
    const auto nodes = static_cast<std::int64_t>(m.nodes.size());
    const auto ka = terms::number(a), kb = terms::number(b);
    const bool known = ka && kb && *ka >= 0 && *kb >= 0 && *ka < nodes && *kb < nodes;
    if (known && *ka == *kb) return num(0);
    if (!known && nodes > max_distance_matrix) return std::nullopt;
    // (arguments that are not constants leave the predicate's values open: nothing is fixed)
    const bool steps = pred.param_count == 2 + extra.size();
    // the predicate as play evaluates it, with no rule or table recorded as used (as a search)
    const std::size_t side_before = side.size();
    const recording_paused paused{*this};
    bool fixed = true;
    auto passes = [&](std::int64_t from, std::int64_t to) {
        env pe;
        std::vector<z3::expr> args;
        if (steps) args.push_back(num(from));
        args.push_back(num(to));
        for (const z3::expr& x : extra) args.push_back(x);
        pe.locals.resize(std::max<std::size_t>(pred.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size(); ++i) pe.locals[i] = args[i];
        context_.push_back("predicate " + pred.name);
        const z3::expr v = boolean(pred.expr, pe, st).simplify();
        context_.pop_back();
        const auto t = terms::truth(v);
        if (!t) fixed = false;
        return t.value_or(false);
    };
    // The engine's breadth-first search (interp::path_search) from `from`, its tests read by
    // `ok(from, k)` (the k-th neighbour); the steps to each location, -1 where none leads.
    auto search = [&](std::size_t from, const auto& ok, std::int64_t until) {
        std::vector<std::int64_t> depth(m.nodes.size(), -1);
        std::vector<std::uint8_t> refused(m.nodes.size(), 0);
        std::vector<std::size_t> queue{from};
        depth[from] = 0;
        for (std::size_t i = 0; i < queue.size() && fixed; ++i)
            for (std::size_t k = 0; k < m.nodes[queue[i]].neighbours.size(); ++k) {
                const id nb = m.nodes[queue[i]].neighbours[k];
                if (depth[nb] >= 0 || refused[nb]) continue;
                if (!ok(queue[i], k)) {
                    if (!fixed) return depth;
                    if (!steps) refused[nb] = 1;
                    continue;
                }
                depth[nb] = depth[queue[i]] + 1;
                if (static_cast<std::int64_t>(nb) == until) return depth;
                queue.push_back(nb);
            }
        return depth;
    };
    std::optional<z3::expr> result;
    if (known) {
        // the tests where the search reaches, stopped at the first that is not fixed
        const auto depth = search(static_cast<std::size_t>(*ka),
                                  [&](std::size_t x, std::size_t k) {
                                      return passes(static_cast<std::int64_t>(x), m.nodes[x].neighbours[k]);
                                  },
                                  *kb);
        gaps = depth[static_cast<std::size_t>(*kb)] < 0;
        result = num(depth[static_cast<std::size_t>(*kb)]);
    } else {
        // every test, then the table of every pair's length (made once for these tests)
        std::vector<std::int64_t> key{static_cast<std::int64_t>(map), steps ? 1 : 0};
        std::vector<std::uint32_t> first;
        for (std::int64_t h = 0; h < nodes && fixed; ++h) {
            first.push_back(static_cast<std::uint32_t>(key.size() - 2));
            const auto& nbs = m.nodes[static_cast<std::size_t>(h)].neighbours;
            if (!steps) { key.push_back(passes(h, h) ? 1 : 0); continue; }
            for (id nb : nbs) key.push_back(passes(h, nb) ? 1 : 0);
        }
        if (fixed) {
            auto it = path_tables_.find(key);
            if (it == path_tables_.end()) {
                auto ok = [&](std::size_t x, std::size_t k) {
                    return key[2 + (steps ? first[x] + k : m.nodes[x].neighbours[k])] != 0;
                };
                z3::expr table = z3::const_array(ctx.int_sort(), num(-1));
                bool holes = false;
                for (std::int64_t x = 0; x < nodes; ++x) {
                    const auto depth = search(static_cast<std::size_t>(x), ok, -1);
                    for (std::int64_t y = 0; y < nodes; ++y) {
                        if (depth[static_cast<std::size_t>(y)] < 0) holes = true;
                        else table = z3::store(table, num(x * nodes + y), num(depth[static_cast<std::size_t>(y)]));
                    }
                }
                it = path_tables_.emplace(key, std::make_pair(table, holes)).first;
            }
            gaps = it->second.second;
            result = z3::select(it->second.first, a * num(nodes) + b);
        }
    }
    const bool clean = side.size() == side_before;
    side.erase(side.begin() + static_cast<std::ptrdiff_t>(side_before), side.end());
    if (!fixed || !clean) return std::nullopt;
    return result;
}

z3::expr symbolic::map_search_value(id n, const z3::expr& a, const z3::expr& b, const std::vector<z3::expr>& extra, const store& st) {
    const ir::node& nd = N(n);
    const bool line = static_cast<ir::builtin>(nd.ref) == ir::builtin::line_blocked;
    const id map = rs.types.at(N(child(n, 0)).type).ref;
    const ir::map& m = rs.maps.at(map);
    const ir::derived& pred = rs.quantities.at(static_cast<id>(nd.value));
    // the number of location parameters: the predicate's own arguments follow them
    const std::size_t places = pred.param_count - extra.size();
    const std::string what = std::string(line ? "line_blocked" : "path_exists") + "(…, " + pred.name + (extra.empty() ? "" : "(_, …)") + ")";
    // The predicate at one location (or step), encoded as play would evaluate it there. Its
    // rules and tables are not recorded as used here (play visits only some locations); an
    // encoding that needs side constraints (a cell that must exist) is left as any value.
    const std::size_t side_before = side.size();
    const recording_paused paused{*this};
    auto call = [&](std::vector<z3::expr> args) {
        for (const z3::expr& x : extra) args.push_back(x);
        env pe;
        pe.locals.resize(std::max<std::size_t>(pred.locals.size(), args.size()));
        for (std::size_t i = 0; i < args.size() && i < pe.locals.size(); ++i) pe.locals[i] = args[i];
        context_.push_back("predicate " + pred.name);
        z3::expr v = boolean(pred.expr, pe, st);
        context_.pop_back();
        return v;
    };
    const auto nodes = static_cast<std::int64_t>(m.nodes.size());
    const auto ka = terms::number(a), kb = terms::number(b);
    auto known = [&](const std::optional<std::int64_t>& k) { return k && *k >= 0 && *k < nodes; };
    std::size_t count = 0;  // steps
    map_search s(ctx);
    s.line = line;
    s.map = map;
    s.a = a;
    s.b = b;
    if (line && places == 3 && !(known(ka) && known(kb)) &&
        line_predicate_cost(static_cast<id>(nd.value), static_cast<std::uint64_t>(nodes)) > 1) {
        // encoded anew at every hex for each line: past the unfolding budget, any value
        const std::uint64_t body = std::max<std::uint64_t>(1, unfold_cost(pred.expr));
        approximations.insert("`" + what + "` over the line's ends (" + std::to_string(nodes) + " × " + std::to_string(body) +
                              "): any value (--unfold-limit " + std::to_string(unfold_limit) + ")");
        z3::expr v = fresh("opaque", nd.type, what, variable::show::value, 0);
        side.push_back(in_type(v, nd.type));
        return bool_of(v);
    }
    if (line) {
        const bool three = places == 3;
        // a line between two known hexes: its steps are known, the answer is a formula
        if (known(ka) && known(kb)) {
            auto blocks = [&](std::int64_t h) {
                if (h < 0 || h == *ka || h == *kb) return ctx.bool_val(false);
                return three ? call({num(h), a, b}) : call({num(h)});
            };
            z3::expr_vector any(ctx);
            for (const ir::line_step& stp : ir::line_steps(m, *ka, *kb))
                any.push_back(stp.second == ir::line_step::no_step ? blocks(stp.first) : blocks(stp.first) && blocks(stp.second));
            if (side.size() == side_before) return any.empty() ? ctx.bool_val(false) : z3::mk_or(any);
        } else if (three) {
            for (std::int64_t h = 0; h < nodes; ++h)
                s.at.push_back(terms::ne(a, num(h)) && terms::ne(b, num(h)) && call({num(h), a, b}));
        }
    } else {
        s.steps = places == 2;
        for (std::int64_t h = 0; h < nodes && s.steps; ++h) {
            s.step_first.push_back(static_cast<std::uint32_t>(count));
            count += m.nodes[static_cast<std::size_t>(h)].neighbours.size();
        }
    }
    if (!line || places == 1) {
        // the predicate reads only its locations (and its own arguments): the same terms for
        // every search on this store with the same predicate and arguments
        std::vector<unsigned> ids;
        ids.reserve(st.values.size() + st.loc.size());
        for (const z3::expr& x : st.values) ids.push_back(x.id());
        for (const z3::expr& x : st.loc) ids.push_back(x.id());
        if (ids != search_places_store_) {
            search_places_.clear();
            search_places_store_ = std::move(ids);
        }
        std::vector<unsigned> key{static_cast<unsigned>(nd.value)};
        for (const z3::expr& x : extra) key.push_back(x.id());
        auto it = search_places_.find(key);
        if (it == search_places_.end()) {
            place_values pv;
            pv.keep = extra;  // the arguments' ids stay theirs while the entry lives
            for (std::int64_t h = 0; h < nodes; ++h) {
                if (!s.steps) { pv.values.push_back(call({num(h)})); continue; }
                for (id nb : m.nodes[static_cast<std::size_t>(h)].neighbours) pv.values.push_back(call({num(h), num(nb)}));
            }
            pv.exact = side.size() == side_before;
            it = search_places_.emplace(std::move(key), std::move(pv)).first;
        }
        if (!it->second.exact) side.push_back(ctx.bool_val(true));  // falls back below
        for (std::size_t i = 0; i < it->second.values.size(); ++i) {
            const z3::expr& v = it->second.values[i];
            if (s.steps) s.step.push_back(v);
            else if (line) s.at.push_back(terms::ne(a, num(static_cast<std::int64_t>(i))) && terms::ne(b, num(static_cast<std::int64_t>(i))) && v);
            else s.at.push_back(v);
        }
    }
    if (side.size() != side_before) {
        side.erase(side.begin() + static_cast<std::ptrdiff_t>(side_before), side.end());
        approximations.insert("`" + what + "` whose predicate needs conditions of its own (a table cell, a decision's rules)");
        z3::expr v = fresh("opaque", nd.type, what, variable::show::value, 0);
        side.push_back(in_type(v, nd.type));
        return bool_of(v);
    }
    s.var = fresh("search", nd.type, what, variable::show::boolean, 0);
    side.push_back(in_type(s.var, nd.type));
    const z3::expr result = bool_of(s.var);
    // What holds whatever the route: these tie the answer to every location it may read.
    z3::expr_vector some(ctx);
    for (const z3::expr& x : s.at) some.push_back(x);
    for (const z3::expr& x : s.step) some.push_back(x);
    const z3::expr any_passes = some.empty() ? ctx.bool_val(false) : z3::mk_or(some);
    if (line) {
        side.push_back(z3::implies(result, any_passes));  // blocked: some hex on it blocks
    } else {
        const z3::expr nowhere = a < 0 || b < 0;
        side.push_back(z3::implies(nowhere, !result));
        side.push_back(z3::implies(!nowhere && a == b, result));
        side.push_back(z3::implies(result && a != b, any_passes));  // b itself passes, or a step to it
    }
    searches.push_back(std::move(s));
    return result;
}

std::vector<z3::expr> symbolic::refine(const z3::model& m) const {
    std::vector<z3::expr> lemmas;
    auto value = [&](const z3::expr& e) -> std::optional<std::int64_t> {
        const z3::expr v = m.eval(e, true);
        std::int64_t k = 0;
        if (v.is_numeral() && v.is_numeral_i64(k)) return k;
        return std::nullopt;
    };
    auto holds = [&](const z3::expr& e) { return m.eval(e, true).is_true(); };
    for (const map_search& s : searches) {
        if (!m.has_interp(s.var.decl())) continue;  // not in this question
        const bool said = value(s.var).value_or(0) != 0;
        const auto va = value(s.a), vb = value(s.b);
        const ir::map& mp = rs.maps.at(s.map);
        const auto nodes = static_cast<std::int64_t>(mp.nodes.size());
        if (!va || !vb || *va < 0 || *vb < 0 || *va >= nodes || *vb >= nodes) continue;  // fixed statically, or play stops
        const z3::expr here = s.a == ctx.int_val(*va) && s.b == ctx.int_val(*vb);
        const z3::expr result = s.var != 0;
        if (s.line) {
            z3::expr_vector any(ctx);
            bool blocked = false;
            auto blocks = [&](std::int64_t h) { return h < 0 ? ctx.bool_val(false) : s.at[static_cast<std::size_t>(h)]; };
            for (const ir::line_step& stp : ir::line_steps(mp, *va, *vb)) {
                const z3::expr e = stp.second == ir::line_step::no_step ? blocks(stp.first) : blocks(stp.first) && blocks(stp.second);
                blocked = blocked || holds(e);
                any.push_back(e);
            }
            if (blocked != said)
                lemmas.push_back(z3::implies(here, result == (any.empty() ? ctx.bool_val(false) : z3::mk_or(any))));
            continue;
        }
        if (*va == *vb) continue;  // fixed statically
        // The engine's breadth-first search, reading the predicate as the model has it.
        auto passes = [&](std::size_t from, std::size_t k) -> const z3::expr& {
            return s.steps ? s.step[s.step_first[from] + k] : s.at[mp.nodes[from].neighbours[k]];
        };
        std::vector<std::int64_t> came(mp.nodes.size(), -2);  // -2 unseen; else the node before
        std::vector<std::size_t> via(mp.nodes.size(), 0);     // the neighbour index taken
        std::vector<std::size_t> queue{static_cast<std::size_t>(*va)};
        came[queue[0]] = -1;
        bool found = false;
        for (std::size_t i = 0; i < queue.size() && !found; ++i)
            for (std::size_t k = 0; k < mp.nodes[queue[i]].neighbours.size(); ++k) {
                const id nb = mp.nodes[queue[i]].neighbours[k];
                if (came[nb] != -2 || !holds(passes(queue[i], k))) continue;
                came[nb] = static_cast<std::int64_t>(queue[i]);
                via[nb] = k;
                if (static_cast<std::int64_t>(nb) == *vb) { found = true; break; }
                queue.push_back(nb);
            }
        if (found == said) continue;
        z3::expr_vector parts(ctx);
        if (found) {  // this route makes a path wherever it passes
            for (auto x = static_cast<std::size_t>(*vb); came[x] >= 0; x = static_cast<std::size_t>(came[x]))
                parts.push_back(passes(static_cast<std::size_t>(came[x]), via[x]));
            lemmas.push_back(z3::implies(here && z3::mk_and(parts), result));
        } else {  // no path unless one of the ways out of the places reached passes
            for (std::size_t x : queue)
                for (std::size_t k = 0; k < mp.nodes[x].neighbours.size(); ++k)
                    if (came[mp.nodes[x].neighbours[k]] == -2) parts.push_back(passes(x, k));
            lemmas.push_back(z3::implies(here && result, parts.empty() ? ctx.bool_val(false) : z3::mk_or(parts)));
        }
    }
    return lemmas;
}

std::int64_t odds_code(std::int64_t a, std::int64_t b, bool scaled) {
    if (!scaled || a <= 0 || b <= 0) return odds_step(a, b);
    if (a >= b) {
        const std::int64_t n = a / b;
        return (n - 1) * odds_fine + (a - n * b) * odds_fine / b;
    }
    const std::int64_t n = b / a;  // 1 : n + rem/a, between the steps 1-n and -n
    return (1 - n) * odds_fine - (b - n * a) * odds_fine / a;
}

std::int64_t odds_step(std::int64_t a, std::int64_t b) {
    if (b <= 0) return 0;
    if (a >= b) return a / b - 1;
    if (a <= 0) return std::numeric_limits<std::int32_t>::min();
    return 1 - (b + a - 1) / a;
}

symbolic::table_binding symbolic::bind_table(id t, const std::vector<z3::expr>& args, const store& st) {
    const ir::table& tb = rs.tables.at(t);
    table_binding b;
    b.frame.locals.resize(std::max(tb.locals.size(), args.size()));
    std::size_t ai = 0;
    for (; ai < tb.param_count && ai < args.size(); ++ai) b.frame.locals[ai] = args[ai];
    for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
        const ir::table_key& key = tb.keys[k];
        if (key.source == ir::key_source::key && key.var != ir::no_id && ai < args.size()) b.frame.locals[key.var] = args[ai++];
        if (k == 0 && !tb.natural_map.dense.empty()) {
            z3::expr natural = num(0);
            b.keys.push_back(table_key(t, k, b.frame, st, &natural));
            b.natural = natural;
        } else {
            b.keys.push_back(table_key(t, k, b.frame, st));
        }
    }
    if (b.natural) {
        if (b.keys.size() < 2) b.keys.push_back(num(0));
        b.keys.push_back(*b.natural);
    }
    if (tb.keys.size() > 1 && tb.keys[1].shift != ir::no_id) {  // fourth: the column shift
        if (b.keys.size() < 3) b.keys.push_back(num(0));
        b.keys.push_back(integer(tb.keys[1].shift, b.frame, st));
    }
    return b;
}

z3::expr natural_covers(z3::context& ctx, const ir::table& tb, const std::vector<z3::expr>& keys) {
    z3::expr any = ctx.bool_val(false);
    if (tb.natural_map.dense.empty()) return any;
    for (const ir::table_row& row : tb.rows)
        if (row.natural) any = any || key_in(ctx, row.key, keys.at(2));
    return any;
}

z3::expr symbolic::row_reads(const ir::table& tb, std::size_t r, const std::vector<z3::expr>& keys) {
    const ir::table_row& row = tb.rows.at(r);
    if (row.natural) return key_in(ctx, row.key, keys.at(2));
    const z3::expr in_row = key_in(ctx, row.key, keys.at(0), ir::odds_fractional(tb, 0));
    return tb.natural_map.dense.empty() ? in_row : in_row && !natural_covers(ctx, tb, keys);
}

z3::expr symbolic::unshifted_column(const ir::table& tb, const std::vector<z3::expr>& keys) {
    z3::expr idx = num(-1);
    for (std::size_t c = tb.columns.size(); c-- > 0;)  // the first column covering the key
        idx = z3::ite(key_in(ctx, tb.columns[c], keys.at(1), ir::odds_fractional(tb, 1)), num(static_cast<std::int64_t>(c)), idx);
    return idx;
}

z3::expr symbolic::column_reads(const ir::table& tb, std::size_t c, const std::vector<z3::expr>& keys) {
    if (tb.keys.size() < 2 || tb.keys[1].shift == ir::no_id || keys.size() < 4)
        return key_in(ctx, tb.columns.at(c), keys.at(1), ir::odds_fractional(tb, 1));
    const z3::expr idx = unshifted_column(tb, keys);
    const z3::expr at = idx + keys[3];
    const auto last = static_cast<std::int64_t>(tb.columns.size()) - 1;
    const auto here = static_cast<std::int64_t>(c);
    z3::expr lands = at == num(here);
    if (tb.keys[1].shift_clamp && here == 0) lands = at <= num(0);
    if (tb.keys[1].shift_clamp && here == last) lands = here == 0 ? ctx.bool_val(true) : at >= num(last);
    return idx >= 0 && lands;
}

std::vector<z3::expr> symbolic::cell_selections(id t, const std::vector<z3::expr>& keys) {
    const ir::table& tb = rs.tables.at(t);
    const std::size_t width = std::max<std::size_t>(1, tb.columns.size());
    std::vector<z3::expr> out;
    z3::expr earlier = ctx.bool_val(false);
    for (std::size_t r = 0; r < tb.rows.size(); ++r) {
        const z3::expr in_row = row_reads(tb, r, keys);
        for (std::size_t c = 0; c < width; ++c) {
            z3::expr sel = in_row;
            if (!tb.columns.empty()) sel = sel && column_reads(tb, c, keys);
            out.push_back(sel && !earlier);
            earlier = earlier || sel;
        }
    }
    return out;
}

// ---------------------------------------------------------------- expressions

z3::expr symbolic::boolean(id n, env& e, const store& st) { return bool_of(value(n, e, st).e); }
z3::expr symbolic::integer(id n, env& e, const store& st) { return int_of(value(n, e, st).e); }

z3::expr symbolic::operand_guard() const {
    if (operand_guards.empty()) return ctx.bool_val(true);
    z3::expr_vector v(ctx);
    for (const z3::expr& g : operand_guards) v.push_back(g);
    return z3::mk_and(v);
}

void symbolic::tick() {
    if (!deadline || ++ticks_ % 256 != 0) return;
    if (std::chrono::steady_clock::now() <= *deadline) return;
    stopped = true;
    throw out_of_time{};
}

void symbolic::abandon_statement() {
    context_.clear();
    operand_guards.clear();
    side.clear();
    busy_.clear();
    active.reset();
    memo_.clear();
    memo_keep_.clear();
    memo_store_.clear();
    memo_for_ = nullptr;
    search_places_.clear();
    search_places_store_.clear();
}

z3::expr symbolic::guarded(const z3::expr& c, const std::function<z3::expr()>& encode) {
    const std::size_t before = side.size();
    operand_guards.push_back(c);
    z3::expr v = encode();
    operand_guards.pop_back();
    if (side.size() > before) {
        z3::expr_vector mine(ctx);
        for (std::size_t i = before; i < side.size(); ++i) mine.push_back(side[i]);
        side.erase(side.begin() + static_cast<std::ptrdiff_t>(before), side.end());
        side.push_back(c.is_true() ? z3::mk_and(mine) : z3::implies(c, z3::mk_and(mine)));
    }
    return v;
}

// The checker's questions are mostly equalities and bounds over small integer ranges. Z3
// 4.8.12's default arithmetic solver (arith.solver=6) took a third longer on them than the older
// simplex-based one (2): the bounds of Contractor Cards 4.5-4.9 s against 3.2-3.8 s, and a slow
// satisfiable group of 2121 facts 0.52 s against 0.28 s. Set for the whole process, because the
// optimizer that makes witnesses smallest takes no per-solver arithmetic setting.
z3_settings::z3_settings() {
    static std::once_flag once;
    std::call_once(once, [] { z3::set_param("smt.arith.solver", 2); });
}

z3::solver one_shot_solver(z3::context& ctx) {
    const z3::tactic t = z3::tactic(ctx, "simplify") & z3::tactic(ctx, "propagate-values") & z3::tactic(ctx, "solve-eqs") &
                         z3::tactic(ctx, "smt");
    return t.mk_solver();
}

z3::expr key_in(z3::context& ctx, const ir::key_range& k, const z3::expr& v, bool scaled) {
    switch (k.kind) {
        case ir::key_range_kind::member: return v == ctx.int_val(k.lo);
        case ir::key_range_kind::odds: return v == ctx.int_val(odds_code(k.lo, k.hi, scaled));
        case ir::key_range_kind::integer: {
            z3::expr c = ctx.bool_val(true);
            if (!k.open_lo) c = c && v >= ctx.int_val(k.lo);
            if (!k.open_hi) c = c && v <= ctx.int_val(k.hi);
            return c;
        }
    }
    return ctx.bool_val(false);
}

sv symbolic::value_uncached(id n, env& e, const store& st) {
    const ir::node& nd = N(n);
    auto kid = [&](std::uint32_t i) { return child(n, i); };
    auto I = [&](std::uint32_t i) { return integer(kid(i), e, st); };
    auto B = [&](std::uint32_t i) { return boolean(kid(i), e, st); };
    // Both operands, left first: the order fresh variables are made in must not depend on the
    // compiler's order of evaluating function arguments (witnesses list them in that order).
    auto I2 = [&]() {
        z3::expr a = I(0);
        z3::expr b = I(1);
        return std::make_pair(a, b);
    };
    auto args_of = [&](std::uint32_t from) {
        std::vector<z3::expr> a;
        for (std::uint32_t i = from; i < nd.child_count; ++i) a.push_back(I(i));
        return a;
    };
    auto opaque = [&](const std::string& why) {
        approximations.insert(why);
        z3::expr v = fresh("opaque", nd.type, why, variable::show::value, 0);
        side.push_back(in_type(v, nd.type));
        return sv(kind_of(n) == ir::type_kind::boolean ? bool_of(v) : v);
    };
    switch (nd.code) {
        case op::absent: return sv(num(0));
        case op::const_int:
        case op::const_string:
        case op::const_member:
        case op::const_node: return sv(num(nd.value));
        case op::const_bool: return sv(ctx.bool_val(nd.value != 0));
        case op::const_entity:
            return sv(num(nd.value < 0 ? -1 : static_cast<std::int64_t>(lay.entity_first.at(static_cast<std::size_t>(nd.value)))));
        case op::dice: {
            const ir::dice_term& d = rs.dice_terms.at(nd.ref);
            z3::expr v = fresh("dice", ir::no_id, "dice " + std::to_string(d.count) + "d at " + node_position(n),
                               variable::show::value, d.count * d.low);
            variables.back().dice = n;
            side.push_back(v >= num(d.count * d.low) && v <= num(d.count * d.high));
            return sv(v);
        }
        case op::dice_count: {
            // k dice of faces lo..hi can total exactly the numbers k*lo .. k*hi: one total in that
            // interval is exact (the count k from its own encoding)
            const ir::dice_term& d = rs.dice_terms.at(nd.ref);
            const z3::expr k = I(0);
            z3::expr v = fresh("dice", ir::no_id, "dice (counted) at " + node_position(n), variable::show::value, nd.value * d.low);
            variables.back().dice = n;
            side.push_back(v >= k * num(d.low) && v <= k * num(d.high));
            return sv(v);
        }
        case op::local: {
            if (nd.ref < e.locals.size() && e.locals[nd.ref]) {
                const z3::expr& v = *e.locals[nd.ref];
                return sv(kind_of(n) == ir::type_kind::boolean ? bool_of(v) : v);
            }
            return opaque("a local with no value the checker knows");
        }
        case op::global: return slot_value(nd.ref, num(0), st);
        case op::player_field:
        case op::entity_field: return slot_value(nd.ref, I(0), st);
        case op::attribute: {
            const id t = N(kid(0)).type;
            if (t == ir::no_id || rs.types.at(t).kind != ir::type_kind::entity) return opaque("an attribute of a non-entity");
            return sv(instance_attribute(I(0), rs.types.at(t).ref, static_cast<std::uint32_t>(nd.ref)));
        }
        case op::node_attribute: {
            const z3::expr v = I(0);
            const ir::map& m = rs.maps.at(rs.types.at(N(kid(0)).type).ref);
            // Fixed map data: one `ite` per distinct value (a terrain has a handful), not one per node.
            std::vector<std::int64_t> values;
            values.reserve(m.nodes.size());
            for (const ir::map_node& x : m.nodes) values.push_back(x.values.at(nd.ref));
            const z3::expr acc = node_lookup(values, v, 0);
            return sv(kind_of(n) == ir::type_kind::boolean ? bool_of(acc) : acc);
        }
        case op::zone: {
            const ir::zone& z = rs.zones.at(nd.ref);
            if (!z.per_player && z.map == ir::no_id) return sv(num(static_cast<std::int64_t>(lay.zone_first.at(nd.ref))));
            sv out(num(0));
            out.is_map = true;
            const int copies = static_cast<int>(ir::zone_instance_count(rs, z, lay.players));
            for (int s = 0; s < copies; ++s)
                out.elems.push_back(num(static_cast<std::int64_t>(lay.zone_first.at(nd.ref) + s)));
            return out;
        }
        case op::index: {
            sv m = value(kid(0), e, st);
            const z3::expr key = I(1);
            if (!m.is_map || m.elems.empty()) return opaque("an index into something that is not a map");
            if (const auto k = terms::number(key); k && *k >= 0 && static_cast<std::size_t>(*k) < m.elems.size())
                return sv(m.elems[static_cast<std::size_t>(*k)]);
            z3::expr acc = m.elems.front();
            for (std::size_t k = 1; k < m.elems.size(); ++k)
                acc = z3::ite(key == num(static_cast<std::int64_t>(k)), m.elems[k], acc);
            return sv(acc);
        }
        case op::option: {
            const ir::option& o = rs.options.at(nd.ref);
            if (free_options && !o.values.empty()) {
                auto it = option_vars.find(nd.ref);
                if (it == option_vars.end()) {
                    z3::expr v = fresh("option", o.type, "option " + o.name, variable::show::value, o.values.at(o.default_index));
                    it = option_vars.emplace(nd.ref, v).first;
                }
                z3::expr_vector one(ctx);
                for (std::int64_t x : o.values) one.push_back(it->second == num(x));
                side.push_back(z3::mk_or(one));
                return sv(kind_of(n) == ir::type_kind::boolean ? bool_of(it->second) : it->second);
            }
            const std::int64_t v = o.values.empty() ? 0 : o.values.at(o.selected_index);
            return sv(kind_of(n) == ir::type_kind::boolean ? ctx.bool_val(v != 0) : num(v));
        }
        case op::roll: return sv(roll_value(nd.ref, args_of(0), st, fixed_rolls));
        case op::quantity: {
            const ir::derived& q = rs.quantities.at(nd.ref);
            std::vector<z3::expr> a = args_of(0);
            context_.push_back((q.predicate ? "predicate " : "quantity ") + q.name);
            struct pop { std::vector<std::string>& c; ~pop() { c.pop_back(); } } popper{context_};
            env qe;
            qe.locals.resize(std::max(q.locals.size(), a.size()));
            for (std::size_t i = 0; i < a.size() && i < q.locals.size(); ++i) qe.locals[i] = a[i];
            if (q.predicate) return sv(boolean(q.expr, qe, st));
            z3::expr v = integer(q.expr, qe, st);
            const id group = group_of_target[static_cast<int>(ir::target_kind::quantity)].at(nd.ref);
            return sv(modified(group, v, a, st));
        }
        case op::decide: {
            const ir::decision& d = rs.decisions.at(nd.ref);
            std::vector<z3::expr> a = args_of(0);
            z3::expr v = fresh("decision", d.result, "decision " + d.name, variable::show::value, 0);
            side.push_back(in_type(v, d.result));
            const id group = group_of_target[static_cast<int>(ir::target_kind::decision)].at(nd.ref);
            std::vector<z3::expr> defined;
            const std::map<id, z3::expr> eff = group_effective(group, a, st);
            for (const auto& [rule, applies] : eff) {
                const ir::rule& r = rs.rules.at(rule);
                if (r.kind != ir::rule_kind::define || r.value == ir::no_id) continue;
                env re;
                re.locals.resize(std::max(r.locals.size(), a.size()));
                for (std::size_t i = 0; i < a.size() && i < r.locals.size(); ++i) re.locals[i] = a[i];
                defined.push_back(z3::implies(applies, v == integer(r.value, re, st)));
            }
            // recorded before the rules' values constrain the decision (they may disagree)
            if (on_rule)
                for (const auto& [rule, applies] : eff) on_rule(rule, applies, rule_guard(rule, a, st));
            for (const z3::expr& d : defined) side.push_back(d);
            return sv(rs.types.at(d.result).kind == ir::type_kind::boolean ? bool_of(v) : v);
        }
        case op::lookup: {
            const ir::table& tb = rs.tables.at(nd.ref);
            if (tb.outcome_type == ir::no_id) return opaque("a table with no outcome looked up");
            replay_point rp;
            rp.variables_from = variables.size();
            const std::vector<z3::expr> a = args_of(0);
            table_binding b = bind_table(nd.ref, a, st);
            if (on_table) {
                rp.recorded = true;
                rp.st = snapshot(st);
                rp.locals.assign(a.begin(), a.end());
                rp.variables_to = variables.size();
                on_table(nd.ref, n, b.keys, rp);
            }
            z3::expr v = fresh("outcome", tb.outcome_type, "outcome of " + tb.name, variable::show::value, 0);
            // the cell the engine reads gives the outcome; with none, the engine stops, so play
            // goes on only where one does
            z3::expr_vector cases(ctx);
            const std::vector<z3::expr> sel = cell_selections(nd.ref, b.keys);
            for (std::size_t i = 0; i < sel.size(); ++i)
                if (tb.cells[i].has_outcome) cases.push_back(sel[i] && v == num(tb.cells[i].outcome));
            side.push_back(cases.empty() ? ctx.bool_val(false) : z3::mk_or(cases));
            return sv(rs.types.at(tb.outcome_type).kind == ir::type_kind::boolean ? bool_of(v) : v);
        }
        case op::builtin: {
            const auto b = static_cast<ir::builtin>(nd.ref);
            switch (b) {
                case ir::builtin::count:
                case ir::builtin::size: {
                    if (kind_of(kid(0)) == ir::type_kind::integer) return sv(I(0));
                    // a per-location zone's count: one value, kept by the zone statements
                    if (const id z = zone_of(kid(0)); z != ir::no_id && !count_cells(z).empty())
                        return sv(zone_count(z, zone_instance(kid(0), e, st), st));
                    z3::expr acc = num(0);
                    for (const member& m : set_members(kid(0), e, st)) acc = terms::add(acc, terms::ite(m.in, num(1), num(0)));
                    return sv(acc);
                }
                case ir::builtin::top: {
                    const std::vector<member> ms = set_members(kid(0), e, st);
                    z3::expr t = fresh("top", N(n).type, "the top card at " + node_position(n), variable::show::instance, -1);
                    z3::expr_vector cases(ctx);
                    z3::expr_vector any(ctx);
                    for (const member& m : ms) {
                        cases.push_back(t == m.value && m.in);
                        any.push_back(m.in);
                    }
                    cases.push_back(t == -1 && !(any.empty() ? ctx.bool_val(false) : z3::mk_or(any)));
                    side.push_back(z3::mk_or(cases));
                    approximations.insert("the order of cards in a zone (`top` is any card of it)");
                    return sv(t);
                }
                case ir::builtin::active_player: {
                    if (active) return sv(*active);
                    z3::expr p = fresh("active", ir::no_id, "the active player", variable::show::player, 0);
                    side.push_back(p >= 0 && p < n_players);
                    active = p;
                    return sv(p);
                }
                case ir::builtin::min: { auto [a, b] = I2(); return sv(z3::ite(a < b, a, b)); }
                case ir::builtin::max: { auto [a, b] = I2(); return sv(z3::ite(a > b, a, b)); }
                case ir::builtin::abs: { const z3::expr a = I(0); return sv(z3::ite(a < 0, -a, a)); }
                case ir::builtin::ceil_div:
                case ir::builtin::floor_div: {
                    const auto [a, d] = I2();
                    // Z3's div is Euclidean: it agrees with floor division for a positive divisor.
                    if (b == ir::builtin::floor_div) return sv(z3::ite(d > 0, a / d, -((-a) / d)));
                    return sv(z3::ite(d > 0, -((-a) / d), a / d));
                }
                case ir::builtin::adjacent: {
                    const auto [a, c] = I2();
                    const ir::map& m = rs.maps.at(rs.types.at(N(kid(0)).type).ref);
                    // a known node on either side: the few edges from it (the same formula)
                    const auto ka = terms::number(a), kc = terms::number(c);
                    if (ka || kc) {
                        z3::expr_vector near(ctx);
                        for (std::size_t x = 0; x < m.nodes.size(); ++x) {
                            if (ka && static_cast<std::int64_t>(x) != *ka) continue;
                            for (id y : m.nodes[x].neighbours) {
                                if (kc && static_cast<std::int64_t>(y) != *kc) continue;
                                if (ka && kc) return sv(ctx.bool_val(true));
                                near.push_back(ka ? c == num(static_cast<std::int64_t>(y))
                                                  : a == num(static_cast<std::int64_t>(x)));
                            }
                        }
                        return sv(near.empty() ? ctx.bool_val(false) : z3::mk_or(near));
                    }
                    z3::expr_vector pairs(ctx);
                    for (std::size_t x = 0; x < m.nodes.size(); ++x)
                        for (id y : m.nodes[x].neighbours)
                            pairs.push_back(a == num(static_cast<std::int64_t>(x)) && c == num(static_cast<std::int64_t>(y)));
                    return sv(pairs.empty() ? ctx.bool_val(false) : z3::mk_or(pairs));
                }
                case ir::builtin::edge_kind: {
                    // the first kind of the first edge from a to b; with none the engine stops
                    const auto [x, y] = I2();
                    const id map = rs.types.at(N(kid(0)).type).ref;
                    const z3::expr v = edge_kind_at(map, x, y);
                    side.push_back(v != -1);
                    return sv(v);
                }
                case ir::builtin::odds: {
                    // as the engine holds it: the attacker in the high 32 bits, the defender low
                    const auto [a, d] = I2();
                    return sv(a * num(static_cast<std::int64_t>(1) << 32) + d);
                }
                case ir::builtin::terrain: {
                    const ir::map& m = rs.maps.at(rs.types.at(N(kid(0)).type).ref);
                    std::vector<std::int64_t> terrain;
                    for (const ir::map_node& x : m.nodes) terrain.push_back(x.terrain);
                    return sv(node_lookup(terrain, I(0), -1));
                }
                case ir::builtin::distance: {
                    // between two known nodes (a worked example's hexes): the map's own count
                    const auto [a, c] = I2();
                    const ir::map& m = rs.maps.at(rs.types.at(N(kid(0)).type).ref);
                    const auto ka = terms::number(a), kc = terms::number(c);
                    const auto inside = [&](std::int64_t k) { return k >= 0 && static_cast<std::size_t>(k) < m.nodes.size(); };
                    if (ka && kc && inside(*ka) && inside(*kc)) {
                        const std::int64_t d = ir::map_distance(m, *ka, *kc);
                        if (d >= 0) return sv(num(d));
                    }
                    // The map is fixed data: the distance between any two of its nodes is exact.
                    // (No location, -1, reads as some node: the engine stops there if it ever
                    // evaluates it, which an `and` before it may prevent, so nothing is assumed.)
                    const auto n = static_cast<std::int64_t>(m.nodes.size());
                    const id map = rs.types.at(N(kid(0)).type).ref;
                    if (m.kind == ir::map_kind::hexgrid) {
                        // cube coordinates (ir::map_distance): the largest of |dx|, |dz|, |dx + dz|
                        auto coordinate = [&](const z3::expr& node, const std::optional<std::int64_t>& known, int axis) {
                            if (known) return num(axis == 0 ? hex_x(m.nodes[static_cast<std::size_t>(*known)])
                                                            : hex_z(m.nodes[static_cast<std::size_t>(*known)]));
                            return cube_coordinate(map, axis, node);
                        };
                        const z3::expr dx = coordinate(a, ka, 0) - coordinate(c, kc, 0);
                        const z3::expr dz = coordinate(a, ka, 1) - coordinate(c, kc, 1);
                        const z3::expr ax = z3::ite(dx >= 0, dx, -dx), az = z3::ite(dz >= 0, dz, -dz);
                        const z3::expr ay = z3::ite(dx + dz >= 0, dx + dz, -(dx + dz));
                        const z3::expr m1 = z3::ite(ax >= az, ax, az);
                        return sv(z3::ite(m1 >= ay, m1, ay));
                    }
                    if (n <= max_distance_matrix) {  // an area map: its matrix of shortest paths
                        // (-1 where no path joins them, as the engine reads it)
                        return sv(z3::select(distance_table(map), a * num(n) + c));
                    }
                    return opaque("the built-in `distance` on an area map of more than " + std::to_string(max_distance_matrix) + " areas");
                }
                case ir::builtin::path_exists:
                case ir::builtin::line_blocked: {
                    if (!map_searches) return opaque(std::string("the built-in `") + ir::name_of(b) + "`");
                    const auto [a, c] = I2();
                    return sv(map_search_value(n, a, c, args_of(2), st));
                }
                case ir::builtin::path_length: {
                    // exact when the search is fixed (known ends, arguments and predicate values:
                    // the map is data); else any value, listed as approximated
                    const auto [a, c] = I2();
                    const std::vector<z3::expr> extra = args_of(2);
                    bool gaps = false;
                    const std::optional<z3::expr> exact = path_length_exact(n, a, c, extra, st, gaps);
                    if (exact && !gaps) return sv(*exact);
                    // with no path (-1 in the table) play stops: any value there
                    const std::string why = exact ? "the built-in `path_length` between locations no path joins (play stops there)"
                                                  : "the built-in `path_length` (its predicate's answers not fixed, or ends that vary on a map of over " +
                                                        std::to_string(max_distance_matrix) + " locations)";
                    approximations.insert(why);
                    std::vector<z3::expr> keep{a, c};
                    for (const z3::expr& x : extra) keep.push_back(x);
                    for (const z3::expr& x : st.values) keep.push_back(x);
                    for (const z3::expr& x : st.loc) keep.push_back(x);
                    std::vector<unsigned> key{static_cast<unsigned>(nd.value), static_cast<unsigned>(extra.size())};
                    for (const z3::expr& x : keep) key.push_back(x.id());
                    auto it = path_lengths_.find(key);
                    if (it == path_lengths_.end())
                        it = path_lengths_.emplace(key, held_length{std::move(keep), fresh("opaque", nd.type, why, variable::show::value, 0)}).first;
                    const z3::expr v = it->second.value;
                    // what holds of any length play reaches (with no path, play stops)
                    side.push_back(v >= 0 && z3::implies(a == c, v == 0) && z3::implies(a != c, v >= 1));
                    if (exact) return sv(terms::number(*exact) ? v : z3::ite(*exact >= 0, *exact, v));
                    return sv(v);
                }
                default: return opaque(std::string("the built-in `") + ir::name_of(b) + "`");
            }
        }
        case op::neg: return sv(-I(0));
        case op::not_: return sv(terms::not_(B(0)));
        case op::add: { auto [a, b] = I2(); return sv(a + b); }
        case op::sub: { auto [a, b] = I2(); return sv(a - b); }
        case op::mul: { auto [a, b] = I2(); return sv(a * b); }
        case op::div:
        case op::mod: {
            const auto [a, d] = I2();
            // two known numbers (a worked example's): the engine's own answer, so the solver
            // never sees a division it might leave undecided
            if (const auto ka = terms::number(a), kd = terms::number(d); ka && kd && *kd != 0 && !(*kd == -1 && *ka == std::numeric_limits<std::int64_t>::min()))
                return sv(num(nd.code == op::div ? *ka / *kd : *ka % *kd));
            side.push_back(d != 0);
            // The engine divides as C++ does (truncating); Z3's div is Euclidean.
            const z3::expr q = z3::ite(a >= 0, a / z3::abs(d), -((-a) / z3::abs(d)));
            const z3::expr tq = z3::ite(d > 0, q, -q);
            return sv(nd.code == op::div ? tq : a - d * tq);
        }
        case op::eq:
        case op::ne: {
            const id l = kid(0), r = kid(1);
            z3::expr a = value(l, e, st).e, c = value(r, e, st).e;
            if (a.is_bool() != c.is_bool()) { a = int_of(a); c = int_of(c); }
            // A card named in the rules stands for every copy of it.
            if (N(l).code == op::const_entity || N(r).code == op::const_entity) {
                const id named = N(l).code == op::const_entity ? l : r;
                const z3::expr other = N(l).code == op::const_entity ? c : a;
                const std::int64_t ent = N(named).value;
                z3::expr same = ctx.bool_val(false);
                if (ent >= 0) {
                    const std::int64_t lo = lay.entity_first.at(static_cast<std::size_t>(ent));
                    same = terms::and_(terms::ge(other, num(lo)), terms::lt(other, num(lo + rs.entities.at(static_cast<std::size_t>(ent)).count)));
                } else {
                    same = terms::lt(other, num(0));
                }
                return sv(nd.code == op::eq ? same : terms::not_(same));
            }
            return sv(nd.code == op::eq ? terms::eq(a, c) : terms::ne(a, c));
        }
        case op::lt: { auto [a, b] = I2(); return sv(terms::lt(a, b)); }
        case op::le: { auto [a, b] = I2(); return sv(terms::le(a, b)); }
        case op::gt: { auto [a, b] = I2(); return sv(terms::gt(a, b)); }
        case op::ge: { auto [a, b] = I2(); return sv(terms::ge(a, b)); }
        case op::in: {
            const z3::expr v = I(0);
            const bool by_entity = N(kid(0)).code == op::const_entity;
            z3::expr_vector any(ctx);
            for (const member& m : set_members(kid(1), e, st)) {
                if (by_entity) {
                    const std::int64_t ent = N(kid(0)).value;
                    const std::int64_t lo = lay.entity_first.at(static_cast<std::size_t>(ent));
                    any.push_back(terms::and_(m.in, terms::and_(terms::ge(m.value, num(lo)),
                                                                terms::lt(m.value, num(lo + rs.entities.at(static_cast<std::size_t>(ent)).count)))));
                } else {
                    any.push_back(terms::and_(m.in, terms::eq(m.value, v)));
                }
            }
            return sv(any.empty() ? ctx.bool_val(false) : z3::mk_or(any));
        }
        case op::and_: {
            const z3::expr a = B(0);
            return sv(terms::and_(a, guarded(a, [&] { return B(1); })));
        }
        case op::or_: {
            const z3::expr a = B(0);
            return sv(terms::or_(a, guarded(!a, [&] { return B(1); })));
        }
        case op::cond: {
            const z3::expr c = B(0);
            z3::expr a = guarded(c, [&] { return value(kid(1), e, st).e; });
            z3::expr d = guarded(!c, [&] { return value(kid(2), e, st).e; });
            if (a.is_bool() != d.is_bool()) { a = int_of(a); d = int_of(d); }
            return sv(terms::ite(c, a, d));
        }
        case op::any:
        case op::all:
        case op::count:
        case op::sum:
        case op::min:
        case op::max: {
            const std::vector<member> ms = set_members(kid(0), e, st);
            // The budget: an unfolding past the limit becomes any value of the aggregate's type
            // (an over-approximation: "never" stays a proof, a witness may rest on it).
            const std::uint64_t body = std::max<std::uint64_t>(1, unfold_cost(kid(1)));
            const std::uint64_t size = ms.size();
            if (unfold_limit > 0 && size > 0 &&
                (body > unfold_limit || size * body > unfold_limit)) {
                std::string what = std::string("aggregate `") + ir::name_of(nd.code) + "` over " + set_text(kid(0)) + " (" +
                                   std::to_string(size) + (body > 1 ? " × " + std::to_string(body) : "") + ")";
                what += context_.empty() ? " at " + node_position(n) : " in " + context_.back();
                const z3::expr v = cut_value(what, nd.type);
                if (nd.code == op::any || nd.code == op::all) {
                    side.push_back(v >= 0 && v <= 1);
                    return sv(bool_of(v));
                }
                if (nd.code == op::count) side.push_back(v >= 0 && v <= num(static_cast<std::int64_t>(size)));
                return sv(v);
            }
            if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
            const std::optional<z3::expr> saved = e.locals[nd.ref];
            z3::expr_vector parts(ctx);  // any, all: the members' terms not known false (true)
            bool decided = false;        // any: one is known true; all: one is known false
            z3::expr acc = num(0);
            bool first = true;
            for (const member& m : ms) {
                e.locals[nd.ref] = m.value;
                sv body = value(kid(1), e, st);
                switch (nd.code) {
                    case op::any:
                    case op::all: {
                        const bool any = nd.code == op::any;
                        const z3::expr t = any ? terms::and_(m.in, bool_of(body.e)) : terms::implies(m.in, bool_of(body.e));
                        const std::optional<bool> known = terms::truth(t);
                        if (!known) parts.push_back(t);
                        else if (*known == any) decided = true;
                        break;
                    }
                    case op::count: acc = terms::add(acc, terms::ite(terms::and_(m.in, bool_of(body.e)), num(1), num(0))); break;
                    case op::sum: acc = terms::add(acc, terms::ite(m.in, int_of(body.e), num(0))); break;
                    case op::min:
                    case op::max: {
                        const z3::expr v = int_of(body.e);
                        if (first) {
                            acc = terms::ite(m.in, v, num(0));
                        } else {
                            // an element not yet seen (all before absent) or better than the best so far
                            const z3::expr better = nd.code == op::min ? terms::lt(v, acc) : terms::gt(v, acc);
                            acc = terms::ite(terms::and_(m.in, terms::or_(better, terms::not_(seen_any(ms, m)))), v, acc);
                        }
                        first = false;
                        break;
                    }
                    default: break;
                }
            }
            e.locals[nd.ref] = saved;
            if (nd.code == op::any) return sv(decided ? ctx.bool_val(true) : parts.empty() ? ctx.bool_val(false) : z3::mk_or(parts));
            if (nd.code == op::all) return sv(decided ? ctx.bool_val(false) : parts.empty() ? ctx.bool_val(true) : z3::mk_and(parts));
            return sv(acc);
        }
        default: return opaque(std::string("the expression `") + ir::name_of(nd.code) + "`");
    }
}

// ---------------------------------------------------------------- the unfolding budget and the cache

namespace {
std::uint64_t add_sat(std::uint64_t a, std::uint64_t b) {
    return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}
std::uint64_t mul_sat(std::uint64_t a, std::uint64_t b) {
    if (a == 0 || b == 0) return 0;
    return a > std::numeric_limits<std::uint64_t>::max() / b ? std::numeric_limits<std::uint64_t>::max() : a * b;
}
}  // namespace

std::uint64_t symbolic::line_predicate_cost(id pred, std::uint64_t places) {
    if (busy_.count(pred)) return 1;
    busy_.insert(pred);
    const std::uint64_t body = std::max<std::uint64_t>(1, unfold_cost(rs.quantities.at(pred).expr));
    busy_.erase(pred);
    // past the budget the search is any value, which costs one
    return unfold_limit != 0 && mul_sat(places, body) > unfold_limit ? 1 : body;
}

z3::expr symbolic::cut_value(const std::string& what, id type) {
    ++cuts;
    approximations.insert(what + ": any value (--unfold-limit " + std::to_string(unfold_limit) + ")");
    z3::expr v = fresh("cut", type, "~ " + what, variable::show::value, 0);
    variables.back().approximate = true;
    return v;
}

std::uint64_t symbolic::set_size_estimate(id n) {
    const ir::node& nd = N(n);
    if (kind_of(n) == ir::type_kind::zone) {
        const id kind = rs.types.at(nd.type).ref;
        return kind < lay.kind_count.size() ? lay.kind_count[kind] : 1;
    }
    if (nd.code == op::builtin) {
        switch (static_cast<ir::builtin>(nd.ref)) {
            case ir::builtin::players:
            case ir::builtin::opponents: return static_cast<std::uint64_t>(lay.players);
            case ir::builtin::neighbours: {
                // a known node has its few neighbours (a node bound by an enclosing aggregate is
                // known in each instance); the estimate is the map's largest degree
                const ir::map& m = rs.maps.at(rs.types.at(N(child(n, 0)).type).ref);
                std::uint64_t most = 1;
                for (const ir::map_node& x : m.nodes) most = std::max<std::uint64_t>(most, x.neighbours.size());
                return most;
            }
            case ir::builtin::hexside: {
                const ir::map& m = rs.maps.at(rs.types.at(N(child(n, 0)).type).ref);
                std::set<std::int64_t> kinds;
                for (const ir::map_edge& ed : m.edges) kinds.insert(ed.kinds.begin(), ed.kinds.end());
                return std::max<std::uint64_t>(1, kinds.size());
            }
            default: return 1;
        }
    }
    if (nd.code == op::range) {
        const ir::type& el = rs.types.at(rs.types.at(nd.type).value);
        return static_cast<std::uint64_t>(std::max<std::int64_t>(1, el.hi - el.lo + 1));
    }
    if (nd.code == op::type_members) {
        const ir::type& t = rs.types.at(nd.ref);
        switch (t.kind) {
            case ir::type_kind::player: return static_cast<std::uint64_t>(lay.players);
            case ir::type_kind::enumeration: return rs.enums.at(t.ref).members.size();
            case ir::type_kind::entity: return lay.kind_count.at(t.ref);
            case ir::type_kind::node: return rs.maps.at(t.ref).nodes.size();
            default: return 1;
        }
    }
    return 1;
}

std::string symbolic::set_text(id n) {
    const ir::node& nd = N(n);
    if (nd.code == op::type_members) {
        const ir::type& t = rs.types.at(nd.ref);
        switch (t.kind) {
            case ir::type_kind::player: return "the players";
            case ir::type_kind::enumeration: return rs.enums.at(t.ref).name;
            case ir::type_kind::entity: return rs.entity_kinds.at(t.ref).name;
            case ir::type_kind::node: return rs.maps.at(t.ref).name;
            default: break;
        }
    }
    if (nd.code == op::zone) return rs.zones.at(nd.ref).name;
    if (nd.code == op::range) return "a range of numbers";
    if (nd.code == op::index && N(child(n, 0)).code == op::zone) return rs.zones.at(N(child(n, 0)).ref).name;
    if (nd.code == op::builtin) return std::string(ir::name_of(static_cast<ir::builtin>(nd.ref))) + "(…)";
    if (nd.code == op::entity_field || nd.code == op::global || nd.code == op::player_field) return rs.slots.at(nd.ref).name;
    return std::string("`") + ir::name_of(nd.code) + "`";
}

// The instances an encoding unfolds: one per member of a set an aggregate (or `count`, `size`,
// `in`) ranges over, times the instances of the body (a body with no aggregate is one); a call
// counts its definition and rules; a search over a map (path_exists, line_blocked) its nodes.
std::uint64_t symbolic::unfold_cost(id n) {
    if (n == ir::no_id) return 0;
    if (auto it = cost_memo_.find(n); it != cost_memo_.end()) return it->second;
    const ir::node& nd = N(n);
    std::uint64_t c = 0;
    auto children = [&](std::uint32_t from) {
        std::uint64_t sum = 0;
        for (std::uint32_t i = from; i < nd.child_count; ++i) sum = add_sat(sum, unfold_cost(child(n, i)));
        return sum;
    };
    auto rules = [&](id group) {
        std::uint64_t sum = 0;
        if (group == ir::no_id) return sum;
        for (id r : rs.groups.at(group).rules) {
            const ir::rule& rule = rs.rules.at(r);
            sum = add_sat(sum, unfold_cost(rule.guard));
            if (rule.kind == ir::rule_kind::modifier) sum = add_sat(sum, unfold_cost(rule.amount));
            if (rule.kind == ir::rule_kind::define) sum = add_sat(sum, unfold_cost(rule.value));
        }
        return sum;
    };
    switch (nd.code) {
        case op::any:
        case op::all:
        case op::count:
        case op::sum:
        case op::min:
        case op::max:
            c = add_sat(unfold_cost(child(n, 0)),
                        mul_sat(set_size_estimate(child(n, 0)), std::max<std::uint64_t>(1, unfold_cost(child(n, 1)))));
            break;
        case op::in: {
            // A named element (a constant, or a local: a choice's or an aggregate's variable, an
            // argument) in a zone or a kind's members, whose values are numbers: each comparison
            // folds to false but the one of the element itself. Anything else (a computed element,
            // or a set of locations found here, as the neighbours of a hex not known) compares
            // with every member.
            const op elem = N(child(n, 0)).code;
            const bool named = elem == op::local || elem == op::const_entity || elem == op::const_node ||
                               elem == op::const_int || elem == op::const_member;
            const ir::node& set = N(child(n, 1));
            const bool numbered = set.code == op::type_members ||
                                  (set.type != ir::no_id && rs.types.at(set.type).kind == ir::type_kind::zone);
            c = add_sat(children(0), named && numbered ? 1 : set_size_estimate(child(n, 1)));
            break;
        }
        case op::quantity: {
            c = children(0);
            if (busy_.count(nd.ref)) break;  // recursion: counted once
            busy_.insert(nd.ref);
            const ir::derived& q = rs.quantities.at(nd.ref);
            c = add_sat(c, unfold_cost(q.expr));
            if (!q.predicate) c = add_sat(c, rules(group_of_target[static_cast<int>(ir::target_kind::quantity)].at(nd.ref)));
            busy_.erase(nd.ref);
            break;
        }
        case op::decide:
            c = add_sat(children(0), rules(group_of_target[static_cast<int>(ir::target_kind::decision)].at(nd.ref)));
            break;
        case op::roll: {
            const ir::roll& ro = rs.rolls.at(nd.ref);
            c = add_sat(children(0), rules(group_of_target[static_cast<int>(ir::target_kind::roll)].at(nd.ref)));
            if (!(ro.linear && !ro.dist.weights.empty())) c = add_sat(c, unfold_cost(ro.expr));
            break;
        }
        case op::builtin:
            c = children(0);
            switch (static_cast<ir::builtin>(nd.ref)) {
                case ir::builtin::count:
                case ir::builtin::size:
                case ir::builtin::top: c = add_sat(c, set_size_estimate(child(n, 0))); break;
                case ir::builtin::path_exists:
                case ir::builtin::path_length:
                case ir::builtin::line_blocked: {
                    // the predicate at every location (every step for a predicate of two)
                    const id t = nd.child_count > 0 ? N(child(n, 0)).type : ir::no_id;
                    if (t == ir::no_id || rs.types.at(t).kind != ir::type_kind::node) break;
                    const ir::map& m = rs.maps.at(rs.types.at(t).ref);
                    const ir::derived& pred = rs.quantities.at(static_cast<id>(nd.value));
                    const std::uint64_t places = m.nodes.size();
                    // a predicate of locations only is encoded once per state, shared by
                    // every search there: a search costs one per location (as any value did);
                    // a line's predicate of three (the line's ends), or one given arguments of
                    // its own that are not constants (they may differ from search to search),
                    // is encoded anew for each
                    bool varying = false;
                    for (std::uint32_t i = 2; i < nd.child_count; ++i) {
                        const ir::op k = N(child(n, i)).code;
                        varying = varying || !(k == op::const_int || k == op::const_bool || k == op::const_member ||
                                               k == op::const_node || k == op::const_entity || k == op::const_string);
                    }
                    const bool own = pred.param_count == 3 + (nd.child_count - 2) || varying;
                    const std::uint64_t body = own ? line_predicate_cost(static_cast<id>(nd.value), places) : 1;
                    c = add_sat(c, mul_sat(places, body));
                    break;
                }
                default: break;
            }
            break;
        default: c = children(0); break;
    }
    // memoised even under a quantity being estimated (a recursive call counts once: an
    // estimate), so shared predicates are estimated once, not once per path to them
    cost_memo_.emplace(n, c);
    return c;
}

bool symbolic::pure(id n) {
    if (n == ir::no_id) return true;
    if (auto it = pure_memo_.find(n); it != pure_memo_.end()) return it->second;
    const ir::node& nd = N(n);
    bool p = true;
    switch (nd.code) {
        case op::dice:
        case op::decide:
        case op::lookup:
        case op::roll:
        case op::div:
        case op::mod:
        case op::option:
        case op::record_field:
            p = false;
            break;
        case op::builtin:
            switch (static_cast<ir::builtin>(nd.ref)) {
                case ir::builtin::players:
                case ir::builtin::opponents:
                case ir::builtin::count:
                case ir::builtin::size:
                case ir::builtin::min:
                case ir::builtin::max:
                case ir::builtin::abs:
                case ir::builtin::ceil_div:
                case ir::builtin::floor_div:
                case ir::builtin::odds:
                case ir::builtin::adjacent:
                case ir::builtin::neighbours:
                case ir::builtin::hexside:
                case ir::builtin::terrain: break;
                default: p = false; break;  // fresh values, side constraints
            }
            break;
        case op::quantity: {
            const ir::derived& q = rs.quantities.at(nd.ref);
            const id group = group_of_target[static_cast<int>(ir::target_kind::quantity)].at(nd.ref);
            if (!q.predicate && group != ir::no_id && !rs.groups.at(group).rules.empty()) p = false;  // on_rule
            else if (busy_.count(nd.ref)) p = false;                                                 // recursion
            else {
                busy_.insert(nd.ref);
                p = pure(q.expr);
                busy_.erase(nd.ref);
            }
            break;
        }
        case op::absent: case op::const_int: case op::const_bool: case op::const_string: case op::const_member:
        case op::const_entity: case op::const_node: case op::local: case op::global: case op::player_field:
        case op::entity_field: case op::attribute: case op::node_attribute: case op::zone: case op::index:
        case op::type_members: case op::neg: case op::not_: case op::add: case op::sub: case op::mul:
        case op::eq: case op::ne: case op::lt: case op::le: case op::gt: case op::ge: case op::in:
        case op::and_: case op::or_: case op::cond: case op::any: case op::all: case op::count: case op::sum:
        case op::min: case op::max: case op::range:
            break;
        default: p = false; break;
    }
    for (std::uint32_t i = 0; p && i < nd.child_count; ++i) p = pure(child(n, i));
    pure_memo_.emplace(n, p);  // impure through recursion only: a conservative answer
    return p;
}

sv symbolic::value(id n, env& e, const store& st) {
    tick();
    if (depth_ == 0 && !memo_.empty()) {
        // the cache holds for one store: the same terms (an explored store is changed in place)
        bool same = memo_store_.size() == st.values.size() + st.loc.size();
        for (std::size_t i = 0; same && i < st.values.size(); ++i) same = z3::eq(memo_store_[i], st.values[i]);
        for (std::size_t i = 0; same && i < st.loc.size(); ++i) same = z3::eq(memo_store_[st.values.size() + i], st.loc[i]);
        if (!same) {
            memo_.clear();
            memo_keep_.clear();
            memo_store_.clear();
        }
    }
    if (depth_ == 0) memo_for_ = &st;
    struct depth_guard {
        int& d;
        explicit depth_guard(int& x) : d(x) { ++d; }
        ~depth_guard() { --d; }
    } guard(depth_);
    // Only encodings big enough to matter are shared (a small one is cheap to write again, and
    // keeping its terms alive would change the term ids, so the solver's choices, of rulesets
    // that never needed the cache).
    const op code = N(n).code;
    const bool worth = code == op::any || code == op::all || code == op::count || code == op::sum || code == op::min ||
                       code == op::max || code == op::quantity;
    if (!worth || memo_for_ != &st || unfold_cost(n) < memo_threshold || !pure(n)) return value_uncached(n, e, st);
    if (memo_.empty() && memo_store_.empty()) {
        memo_store_.reserve(st.values.size() + st.loc.size());
        for (const z3::expr& x : st.values) memo_store_.push_back(x);
        for (const z3::expr& x : st.loc) memo_store_.push_back(x);
    }
    std::pair<id, std::vector<unsigned>> key{n, {}};
    key.second.reserve(e.locals.size());
    for (const auto& l : e.locals) key.second.push_back(l ? l->id() + 1 : 0);
    if (auto it = memo_.find(key); it != memo_.end()) {
        ++memo_hits;
        return it->second;
    }
    ++memo_misses;
    sv v = value_uncached(n, e, st);
    memo_.emplace(std::move(key), v);
    // the key holds the locals' term ids: keep the terms alive so no id is reused meanwhile
    for (const auto& l : e.locals)
        if (l) memo_keep_.push_back(*l);
    return v;
}

z3::expr symbolic::seen_any(const std::vector<member>& ms, const member& upto) {
    z3::expr_vector before(ctx);
    for (const member& m : ms) {
        if (z3::eq(m.value, upto.value) && z3::eq(m.in, upto.in)) break;
        before.push_back(m.in);
    }
    return before.empty() ? ctx.bool_val(false) : z3::mk_or(before);
}

}  // namespace wp::verify::detail
