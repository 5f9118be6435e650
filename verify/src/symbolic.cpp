// The symbolic state: the layout of the state values, the domain, reading the state, rule guards,
// and the Z3 settings. Expressions, tables, map data and the unfolding budget each have a file
// of their own (symbolic_*.cpp).
#include "symbolic.hpp"

#include "terms.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

namespace wp::verify::detail {

using ir::op;

// ---------------------------------------------------------------- layout

std::uint32_t layout::key_width(const ir::ruleset& rs, id key_type) const {
    const ir::type& k = rs.types.at(key_type);
    switch (k.kind) {
        case ir::type_kind::player: return static_cast<std::uint32_t>(players);
        case ir::type_kind::enumeration: return static_cast<std::uint32_t>(rs.enums.at(k.ref).members.size());
        case ir::type_kind::boolean: return 2;
        case ir::type_kind::node: return static_cast<std::uint32_t>(rs.maps.at(k.ref).nodes.size());
        case ir::type_kind::entity: return kind_count.at(k.ref);
        default: return 1;
    }
}

std::int64_t layout::key_first(const ir::ruleset& rs, id key_type) const {
    const ir::type& k = rs.types.at(key_type);
    return k.kind == ir::type_kind::entity ? std::int64_t{kind_first.at(k.ref)} : 0;
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
                if (t.kind == ir::type_kind::map_of) text += "[" + value_text(t.key, lay.key_first(rs, t.key) + k) + "]";
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

bool symbolic::can_hold(id kind, std::int64_t zi, std::int64_t players) const {
    if (zi < 0 || static_cast<std::size_t>(zi) >= lay.zone_instances()) return false;
    const id z = lay.zone_instance_zone[static_cast<std::size_t>(zi)];
    if (rs.zones[z].entity_kind != kind) return false;
    return !rs.zones[z].per_player || zi - static_cast<std::int64_t>(lay.zone_first[z]) < players;
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
        variables.back().kind = kind;
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
    for (std::size_t k = made_before; k < variables.size(); ++k) variables[k].when = when;
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
        const std::size_t made_before = variables.size();
        forget(free, nullptr, nullptr, history_facts_, "", false);
        // one set of variables for every phase's start
        for (std::size_t k = made_before; k < variables.size(); ++k) variables[k].when = " (at the start of a phase)";
        history_free_ = std::move(free);
    } else {
        ++forgets;
    }
    // What every way to this start leaves at one number (a flag a step clears at its end, a
    // counter it resets) stays that number: the history is forgotten, not the state the
    // symbolic execution knows for certain here. A per-location count and a list's length stay
    // forgotten: facts of the shared start tie them to the pieces' places and the cells.
    const store before = std::move(st);
    st = *history_free_;
    // A small term over the number of players and the value's own variable at the starts keeps
    // too: a field cleared for the seats in play (`ite(players >= 4, 0, v)`), v what it was at the
    // phase before's start. That variable then stands for nothing else here, so it cannot be
    // confused with another value's now.
    auto known = [&](std::uint32_t i) {
        const z3::expr& v = before.values[i];
        if (terms::number(v)) return true;
        const z3::expr own = history_free_->values[i];
        std::vector<z3::expr> todo{v};
        for (int seen = 0; !todo.empty(); ++seen) {
            if (seen > 32) return false;
            const z3::expr x = todo.back();
            todo.pop_back();
            if (x.is_numeral() || x.is_true() || x.is_false()) continue;
            if (!x.is_app()) return false;
            if (x.num_args() == 0) {
                if (z3::eq(x, own) || z3::eq(x, n_players)) continue;
                return false;
            }
            if (x.decl().decl_kind() == Z3_OP_UNINTERPRETED) return false;
            for (unsigned a = 0; a < x.num_args(); ++a) todo.push_back(x.arg(a));
        }
        return true;
    };
    for (std::uint32_t i = 0; i < st.values.size() && i < before.values.size(); ++i) {
        if (count_cells_.count(i) || list_lengths_.count(i) || z3::eq(before.values[i], history_free_->values[i]) || !known(i)) continue;
        st.values[i] = before.values[i];
        ++kept_at_starts;
    }
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

// The element type of range n: its span is every number the range can hold.
const ir::type& symbolic::range_element(id n) const { return rs.types.at(rs.types.at(N(n).type).value); }

std::pair<z3::expr, z3::expr> symbolic::range_ends(id n, env& e, const store& st) {
    return {integer(child(n, 0), e, st), integer(child(n, 1), e, st)};
}

// lo..hi: every number of the span the compiler gave the element type, in the set when it
// lies between the ends (exact: the engine stops on ends outside the span)
std::vector<member> symbolic::range_members(id n, const z3::expr& lo, const z3::expr& hi) {
    std::vector<member> out;
    const ir::type& el = range_element(n);
    for (std::int64_t v = el.lo; v <= el.hi; ++v) out.push_back({num(v), terms::and_(terms::le(lo, num(v)), terms::le(num(v), hi))});
    return out;
}

// The same as "some member of range_members(n, lo, hi) is in the set", in three comparisons.
z3::expr symbolic::range_has_member(id n, const z3::expr& lo, const z3::expr& hi) {
    const ir::type& el = range_element(n);
    if (el.lo > el.hi) return ctx.bool_val(false);
    return terms::and_(terms::le(lo, hi), terms::and_(terms::le(lo, num(el.hi)), terms::le(num(el.lo), hi)));
}

// The same as "some member of range_members(n, lo, hi) is x", in four comparisons.
z3::expr symbolic::in_range(id n, const z3::expr& lo, const z3::expr& hi, const z3::expr& x) {
    const ir::type& el = range_element(n);
    return terms::and_(terms::and_(terms::le(lo, x), terms::le(x, hi)), terms::and_(terms::le(num(el.lo), x), terms::le(x, num(el.hi))));
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
        const auto [lo, hi] = range_ends(n, e, st);
        return range_members(n, lo, hi);
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
            const std::int64_t first = lay.key_first(rs, mt.key);
            for (const place& p : inner)
                for (std::uint32_t k = 0; k < width; ++k)
                    out.push_back({p.index + k, p.when && key == num(first + static_cast<std::int64_t>(k))});
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

// The checker's questions are mostly equalities and bounds over small integer ranges. Z3
// 4.8.12's default arithmetic solver (arith.solver=6) took a third longer on them than the older
// simplex-based one (2): the bounds of Contractor Cards 4.5-4.9 s against 3.2-3.8 s, and a slow
// satisfiable group of 2121 facts 0.52 s against 0.28 s. Set for the whole process, because the
// optimizer that makes witnesses smallest takes no per-solver arithmetic setting.
z3_settings::z3_settings() {
    static std::once_flag once;
    std::call_once(once, [] { z3::set_param("smt.arith.solver", 2); });
}

// Z3's SMT core flattens its clauses before the search, copying a shared subformula under each
// disjunction that uses it, and does not stop for an interrupt while it does. On one of SPI's
// game-end questions asked with every option free (716 facts, one of them 56,000 `ite`s: the
// options' `ite`s are not folded away when the options are free) that took memory at gigabytes
// a second until the kernel killed the check at 24 GB. `tseitin-cnf` first names the Boolean
// subterms, and the same question stays under 0.5 GB and stops at its limit. Only those questions
// take it: on every large question it slowed GMT's tables, bounds and choices by a third to a
// double (docs/performance.md).
// Named only past this many terms after the simplification (that question had 172,000): on all
// of GMT's free-option questions the naming left three more undecided within their limits.
constexpr double name_from_terms = 100000;

z3::solver one_shot_solver(z3::context& ctx, bool name_subterms) {
    z3::tactic t = z3::tactic(ctx, "simplify") & z3::tactic(ctx, "propagate-values") & z3::tactic(ctx, "solve-eqs");
    if (name_subterms)
        t = t & z3::cond(z3::probe(ctx, "num-exprs") > name_from_terms, z3::tactic(ctx, "tseitin-cnf"), z3::tactic(ctx, "skip"));
    return (t & z3::tactic(ctx, "smt")).mk_solver();
}

}  // namespace wp::verify::detail
