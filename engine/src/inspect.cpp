// Reading a state for tools (the human agent's map, tests): per-entity fields and the current
// decision's options as values, without going through their text.
#include "westphalia/engine/engine.hpp"

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

id state::option_type() const {
    if (pending_ != pending_kind::decision || pending_node_ == ir::no_id) return ir::no_id;
    const ir::ruleset& rs = *rs_;
    const ir::node& nd = rs.nodes[pending_node_];
    if ((nd.code != ir::op::choose_one && nd.code != ir::op::choose_order && nd.code != ir::op::choose_subset) ||
        nd.child_count == 0)
        return ir::no_id;
    const id set_type = rs.nodes[rs.children[nd.first_child]].type;
    if (set_type == ir::no_id) return ir::no_id;
    const ir::type& t = rs.types[set_type];
    if (t.kind == ir::type_kind::list_of) return t.value;
    if (t.kind == ir::type_kind::zone)  // a zone's elements: the entity type of its kind
        for (id i = 0; i < rs.types.size(); ++i)
            if (rs.types[i].kind == ir::type_kind::entity && rs.types[i].ref == t.ref) return i;
    return ir::no_id;
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
    } else if (t != ir::no_id) {
        const std::string name = ir::type_name(*rs_, t);
        what = (name.find_first_of("aeioAEIO") == 0 ? "an " : "a ") + name;  // "a unit", "an army"
    } else if (nd.code == ir::op::choose_one) {
        what = "a value";
    }
    const std::string owner = g_->statement_owner(pending_node_);
    return what.empty() ? "in " + owner : what + ", in " + owner;
}

}  // namespace wp::engine
