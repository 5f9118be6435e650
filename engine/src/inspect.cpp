// Reading a state for tools (the human agent's map, tests): per-entity fields and the current
// decision's options as values, without going through their text.
#include "westphalia/engine/engine.hpp"

#include <algorithm>

namespace wp::engine {

using ir::id;

std::int64_t state::entity_field(id slot, std::int64_t instance) const {
    if (slot >= rs_->slots.size() || rs_->slots[slot].scope != ir::slot_scope::per_entity)
        throw engine_error("slot " + std::to_string(slot) + " is not a per-entity field");
    const id kind = rs_->slots[slot].entity_kind;
    const std::int64_t first = g_->kind_first.at(kind);
    if (instance < first || instance >= first + static_cast<std::int64_t>(g_->kind_count.at(kind)))
        throw engine_error("instance " + std::to_string(instance) + " is not a " + rs_->entity_kinds.at(kind).name);
    const game::slot_layout& l = g_->slots[slot];
    return values_.at(l.offset + static_cast<std::size_t>(instance - first) * l.width);
}

namespace {

// The type of the members of a set expression `n` (a list, or a zone's entity kind).
id member_type(const ir::ruleset& rs, id n) {
    const id set_type = rs.nodes[n].type;
    if (set_type == ir::no_id) return ir::no_id;
    const ir::type& t = rs.types[set_type];
    if (t.kind == ir::type_kind::list_of) return t.value;
    if (t.kind == ir::type_kind::zone)  // a zone's elements: the entity type of its kind
        for (id i = 0; i < rs.types.size(); ++i)
            if (rs.types[i].kind == ir::type_kind::entity && rs.types[i].ref == t.ref) return i;
    return ir::no_id;
}

}  // namespace

id state::option_type() const {
    if (pending_ != pending_kind::decision || pending_node_ == ir::no_id) return ir::no_id;
    const ir::ruleset& rs = *rs_;
    const ir::node& nd = rs.nodes[pending_node_];
    if ((nd.code != ir::op::choose_one && nd.code != ir::op::choose_order && nd.code != ir::op::choose_subset) ||
        nd.child_count == 0)
        return ir::no_id;
    return member_type(rs, rs.children[nd.first_child]);
}

std::string state::piece_place(ir::id entity_type, std::int64_t instance) const {
    const ir::ruleset& rs = *rs_;
    if (entity_type == ir::no_id || instance < 0 || rs.types.at(entity_type).kind != ir::type_kind::entity) return "";
    for (id sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        if (slot.scope != ir::slot_scope::per_entity || slot.entity_kind != rs.types[entity_type].ref ||
            rs.types.at(slot.type).kind != ir::type_kind::node)
            continue;
        const std::int64_t at = entity_field(sl, instance);
        return at >= 0 ? g_->value_text(slot.type, at) : "";
    }
    return "";
}

// The first frame of the waiting decision's region of locals: the body of its procedure, action,
// sequence, rule or table cell (null when there is none).
const state::frame* state::region_body() const {
    for (const frame& f : frames_)
        if (f.fb == pending_fb_) return &f;
    return nullptr;
}

// Whom or what the waiting decision is about: the member the innermost loop around it (in the
// same procedure, rule or block) has reached, "for Bavarian 6-3"; else the procedure's
// arguments other than players, "move_unit(French 4-3)". Players are left out: the prompt and
// the account name the deciding seat already.
std::string state::decision_subject() const {
    if (pending_node_ == ir::no_id) return "";
    const ir::ruleset& rs = *rs_;
    for (std::size_t i = frames_.size(); i-- > 0;) {
        const frame& f = frames_[i];
        if (f.fb != pending_fb_ || f.kind != frame_kind::for_each || f.pc == 0) continue;
        const id t = member_type(rs, rs.children[rs.nodes[f.node].first_child]);
        if (t == ir::no_id || rs.types[t].kind == ir::type_kind::player) continue;
        const std::int64_t v = locals_.at(f.fb + rs.nodes[f.node].ref);
        std::string text = "for " + g_->value_text(t, v);
        if (rs.types[t].kind == ir::type_kind::entity) {  // a piece: where it stands
            const std::string place = piece_place(t, v);
            if (!place.empty()) text += " at " + place;
        }
        return text;
    }
    const frame* first = region_body();
    if (!first) return "";
    for (const ir::procedure& p : rs.procedures) {
        if (p.body != first->node) continue;
        std::string args;
        for (std::uint32_t i = 0; i < p.param_count && i < p.locals.size(); ++i) {
            const id t = p.locals[i].type;
            if (t == ir::no_id || rs.types[t].kind == ir::type_kind::player) continue;
            args += (args.empty() ? "" : ", ") + g_->value_text(t, locals_.at(first->fb + i));
        }
        return args.empty() ? "" : p.name + "(" + args + ")";
    }
    return "";
}

// The name of the local a waiting `choose` binds, its underscores as spaces ("infantry_taken":
// "infantry taken"); empty when its body is not found.
std::string state::chosen_name() const {
    const ir::ruleset& rs = *rs_;
    const frame* first = region_body();
    if (!first) return "";
    const std::vector<ir::local>* locals = nullptr;
    for (const ir::procedure& p : rs.procedures) if (p.body == first->node) locals = &p.locals;
    for (const ir::action& a : rs.actions) if (a.body == first->node) locals = &a.locals;
    for (const ir::sequence& q : rs.sequences) if (q.body == first->node) locals = &q.locals;
    for (const ir::rule& r : rs.rules) if (r.body == first->node) locals = &r.locals;
    for (const ir::table& t : rs.tables)
        for (const ir::table_cell& c : t.cells) if (c.effects == first->node) locals = &t.locals;
    const id local = rs.nodes[pending_node_].ref;
    if (!locals || local >= locals->size()) return "";
    std::string name = (*locals)[local].name;
    std::replace(name.begin(), name.end(), '_', ' ');
    return name;
}

std::vector<std::int64_t> state::option_values() const {
    if (option_type() == ir::no_id || rs_->nodes[pending_node_].code == ir::op::choose_subset) return {};
    return options_;
}

std::int64_t state::subset_item() const {
    if (option_type() == ir::no_id || rs_->nodes[pending_node_].code != ir::op::choose_subset || frames_.empty())
        return -1;
    const frame& f = frames_.back();  // the subset frame waiting (as legal_actions reads it)
    return loop_store_.at(f.aux + f.pc);
}

std::string state::decision_context() const {
    if (pending_ != pending_kind::decision || pending_node_ == ir::no_id) return "";
    const ir::node& nd = rs_->nodes[pending_node_];
    std::string what;
    if (nd.code == ir::op::choose_order) what = "an order";
    else if (nd.code == ir::op::choose_subset) what = "which to include";
    else if (const id t = option_type(); t != ir::no_id && rs_->types[t].kind == ir::type_kind::node) {
        const ir::map& m = rs_->maps.at(rs_->types[t].ref);
        what = (m.kind == ir::map_kind::hexgrid ? "a hex of " : "a place on ") + m.name;
    } else if (t != ir::no_id && rs_->types[t].kind == ir::type_kind::range && nd.code == ir::op::choose_one) {
        // a number says nothing by its range alone: the name the rules give it, "infantry from 0..400"
        const std::string name = chosen_name();
        what = (name.empty() ? "a number" : name) + " from " + ir::type_name(*rs_, t);
    } else if (t != ir::no_id) {
        const std::string name = ir::type_name(*rs_, t);
        what = (name.find_first_of("aeioAEIO") == 0 ? "an " : "a ") + name;  // "a unit", "an army"
    } else if (nd.code == ir::op::choose_one) {
        what = "a value";
    }
    id b = ir::no_id;
    std::string owner = g_->statement_owner(pending_node_, &b);
    if (b != ir::no_id && !rs_->blocks[b].name.empty()) {  // "step 2.1 employment", as the account's headers
        const ir::block& blk = rs_->blocks[b];
        const std::string& number = g_->block_number.at(b);
        owner = blk.word + " " + (number.empty() ? "" : number + " ") + blk.name;
    }
    const std::string subject = decision_subject();
    if (subject.rfind("for ", 0) == 0) what += (what.empty() ? "" : " ") + subject;
    const std::string where = subject.empty() || subject.rfind("for ", 0) == 0 ? owner : "procedure " + subject;
    return what.empty() ? "in " + where : what + ", in " + where;
}

}  // namespace wp::engine
