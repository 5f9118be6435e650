#include "westphalia/ir/hidden_flow.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace wp::ir {

namespace {

// A frame of locals: the element whose body the statements are in.
enum class frame_kind { none, procedure, action, sequence, rule, table };  // none: no locals
using frame = std::pair<frame_kind, id>;

}  // namespace

class hidden_flow::impl {
public:
    impl(const ruleset& rs, std::vector<char> hidden) : rs_(rs), hidden_(std::move(hidden)) {
        hidden_.resize(rs.slots.size(), 0);
        if (!any_hidden()) return;
        // taints the locals until nothing changes
        for (int round = 0; round < 64; ++round) {
            changed_ = false;
            each_body([&](const frame& f, id body) { statements(f, body, nullptr, nullptr); });
            if (!changed_) break;
        }
    }

    bool any_hidden() const { return std::any_of(hidden_.begin(), hidden_.end(), [](char h) { return h != 0; }); }

    void each_leak(const std::function<void(id, id, id)>& said) {
        each_body([&](const frame& f, id b) { statements(f, b, said, nullptr); });
    }
    std::vector<hidden_flow::choice_reads> choice_sources() {
        std::vector<hidden_flow::choice_reads> out(rs_.nodes.size());
        if (!any_hidden()) return out;
        const choice_report chose = [&](const frame& f, id n, id set_source) {
            // children: set, by, where (absent when none), body
            out.at(n) = {set_source, node(n).child_count > 2 ? reads(f, child(n, 2)) : no_id};
        };
        each_body([&](const frame& f, id b) { statements(f, b, nullptr, chose); });
        return out;
    }

private:
    using report = std::function<void(id node, id target_slot, id hidden_slot)>;
    using choice_report = std::function<void(const frame& f, id node, id set_source)>;

    const ir::node& node(id n) const { return rs_.nodes.at(n); }
    id child(id n, std::uint32_t i) const { return rs_.children.at(node(n).first_child + i); }

    template <class F>
    void each_body(F&& f) {
        for (id i = 0; i < rs_.procedures.size(); ++i) f(frame{frame_kind::procedure, i}, rs_.procedures[i].body);
        for (id i = 0; i < rs_.actions.size(); ++i) f(frame{frame_kind::action, i}, rs_.actions[i].body);
        for (id i = 0; i < rs_.sequences.size(); ++i) f(frame{frame_kind::sequence, i}, rs_.sequences[i].body);
        for (id i = 0; i < rs_.rules.size(); ++i)
            if (rs_.rules[i].kind == rule_kind::trigger) f(frame{frame_kind::rule, i}, rs_.rules[i].body);
        for (id i = 0; i < rs_.tables.size(); ++i)
            for (const table_cell& c : rs_.tables[i].cells) f(frame{frame_kind::table, i}, c.effects);
    }

    const std::vector<ir::local>* locals_of(const frame& f) const {
        switch (f.first) {
            case frame_kind::none: return nullptr;
            case frame_kind::procedure: return &rs_.procedures.at(f.second).locals;
            case frame_kind::action: return &rs_.actions.at(f.second).locals;
            case frame_kind::sequence: return &rs_.sequences.at(f.second).locals;
            case frame_kind::rule: return &rs_.rules.at(f.second).locals;
            case frame_kind::table: return &rs_.tables.at(f.second).locals;
        }
        return nullptr;
    }
    // Only a number or a truth value carries a hidden amount. A card, a space, a player or an
    // enum member taken from a hidden field is what a player then plays or names, in the open:
    // Wallenstein's plan is hidden until its card's action comes, and then the county is taxed.
    bool carries(const frame& f, id local) const {
        const std::vector<ir::local>* ls = locals_of(f);
        if (!ls || local >= ls->size()) return false;
        const id t = (*ls)[local].type;
        if (t == no_id || t >= rs_.types.size()) return true;
        const type_kind k = rs_.types[t].kind;
        return k == type_kind::integer || k == type_kind::range || k == type_kind::boolean;
    }
    // A local that holds a value read from hidden slot `source` (the first one found).
    void taint(const frame& f, id local, id source) {
        if (source == no_id || !carries(f, local) || !source_.emplace(std::make_pair(f, local), source).second) return;
        changed_ = true;
    }
    id local_source(const frame& f, id local) const {
        const auto it = source_.find({f, local});
        return it == source_.end() ? no_id : it->second;
    }

    // The first hidden slot expression n reads (no_id: none), in frame f.
    id reads(const frame& f, id n) {
        if (n == no_id || n >= rs_.nodes.size()) return no_id;
        const ir::node& nd = node(n);
        switch (nd.code) {
            case op::global:
            case op::player_field:
            case op::entity_field:
                if (nd.ref < hidden_.size() && hidden_[nd.ref]) return nd.ref;
                break;
            case op::local: return local_source(f, nd.ref);
            case op::quantity:
                if (const id s = derived(nd.ref); s != no_id) return s;
                break;
            case op::decide:
                if (const id s = decided(nd.ref); s != no_id) return s;
                break;
            case op::roll:
                if (const id s = rolled(nd.ref); s != no_id) return s;
                break;
            case op::builtin:
                if (is_map_search(static_cast<builtin>(nd.ref)) && nd.value >= 0)
                    if (const id s = derived(static_cast<id>(nd.value)); s != no_id) return s;
                break;
            default: break;
        }
        for (std::uint32_t i = 0; i < nd.child_count; ++i)
            if (const id s = reads(f, child(n, i)); s != no_id) return s;
        return no_id;
    }
    // What a quantity, predicate, decision or roll reads of its own (its arguments are read at
    // the call): its parameters count as seen by all. A quantity or roll: its expression and its
    // modifiers; a decision: its rules' values and conditions.
    id derived(id d) { return consulted(target_kind::quantity, d); }
    id decided(id d) { return consulted(target_kind::decision, d); }
    id rolled(id d) { return consulted(target_kind::roll, d); }
    id consulted(target_kind kind, id d) {
        const auto key = std::make_pair(kind, d);
        if (auto it = consulted_.find(key); it != consulted_.end()) return it->second;
        consulted_[key] = no_id;  // (a recursive one: what the rest reads)
        const frame none{frame_kind::none, 0};
        id s = kind == target_kind::quantity ? reads(none, rs_.quantities.at(d).expr)
             : kind == target_kind::roll     ? reads(none, rs_.rolls.at(d).expr)
                                                 : no_id;
        const rule_kind contributes = kind == target_kind::decision ? rule_kind::define : rule_kind::modifier;
        for (const rule& r : rs_.rules)
            if (s == no_id && r.kind == contributes && r.target == kind && r.target_id == d)
                s = first_of({reads(none, kind == target_kind::decision ? r.value : r.amount), reads(none, r.guard)});
        return consulted_[key] = s;
    }
    static id first_of(std::initializer_list<id> ids) {
        for (id s : ids)
            if (s != no_id) return s;
        return no_id;
    }

    // The slot an assignment's target writes (through map indexes and record fields), or a local.
    struct written {
        id slot = no_id, local = no_id;
    };
    written target_of(id n) const {
        for (;;) {
            const ir::node& nd = node(n);
            switch (nd.code) {
                case op::global:
                case op::player_field:
                case op::entity_field: return {nd.ref, no_id};
                case op::local: return {no_id, nd.ref};
                case op::index:
                case op::record_field:
                    n = child(n, 0);
                    continue;
                default: return {};
            }
        }
    }

    // The arguments of a call, an action, a table's effects or an event's triggers, into the
    // callee's parameters.
    void pass(const frame& f, id n, const frame& callee, std::uint32_t params) {
        const ir::node& nd = node(n);
        for (std::uint32_t i = 0; i < nd.child_count && i < params; ++i) taint(callee, i, reads(f, child(n, i)));
    }

    void statements(const frame& f, id n, const report& said, const choice_report& chose) {
        if (n == no_id || n >= rs_.nodes.size()) return;
        const ir::node& nd = node(n);
        switch (nd.code) {
            case op::let: taint(f, nd.ref, reads(f, child(n, 0))); return;
            case op::assign:
            case op::add_assign:
            case op::sub_assign: {
                const written w = target_of(child(n, 0));
                const id source = reads(f, child(n, 1));
                if (source == no_id) return;
                if (w.local != no_id) taint(f, w.local, source);
                else if (w.slot != no_id && !hidden_.at(w.slot) && said) said(n, w.slot, source);
                return;
            }
            case op::for_each:
            case op::choose_one:
            case op::choose_subset:
            case op::choose_order: {
                const id source = reads(f, child(n, 0));
                taint(f, nd.ref, source);
                if (chose) chose(f, n, source);
                break;
            }
            case op::call:
                if (nd.ref < rs_.procedures.size()) pass(f, n, {frame_kind::procedure, nd.ref}, rs_.procedures[nd.ref].param_count);
                return;
            case op::do_action:
                if (nd.ref < rs_.actions.size()) pass(f, n, {frame_kind::action, nd.ref}, rs_.actions[nd.ref].param_count);
                return;
            case op::resolve:
                if (nd.ref < rs_.tables.size()) pass(f, n, {frame_kind::table, nd.ref}, rs_.tables[nd.ref].param_count);
                return;
            case op::emit:
                for (id r = 0; r < rs_.rules.size(); ++r)
                    if (rs_.rules[r].kind == rule_kind::trigger && rs_.rules[r].target == target_kind::event && rs_.rules[r].target_id == nd.ref)
                        pass(f, n, {frame_kind::rule, r}, rs_.rules[r].param_count);
                return;
            default: break;
        }
        for (std::uint32_t i = 0; i < nd.child_count; ++i) statements(f, child(n, i), said, chose);
    }

    const ruleset& rs_;
    std::vector<char> hidden_;  // per slot, in this game
    std::map<std::pair<frame, id>, id> source_;
    std::map<std::pair<target_kind, id>, id> consulted_;
    bool changed_ = false;
};

std::vector<char> hidden_slots(const ruleset& rs) {
    std::vector<std::int64_t> option_value;
    for (const option& o : rs.options) option_value.push_back(o.values.empty() ? 0 : o.values.at(o.selected_index));
    std::vector<char> out;
    for (const slot& s : rs.slots) out.push_back(s.hidden && (s.hidden_if == no_id || option_value.at(s.hidden_if) != 0));
    return out;
}

hidden_flow::hidden_flow(const ruleset& rs, std::vector<char> hidden) : impl_(std::make_unique<impl>(rs, std::move(hidden))) {}
hidden_flow::~hidden_flow() = default;
bool hidden_flow::any_hidden() const { return impl_->any_hidden(); }
void hidden_flow::each_leak(const std::function<void(id, id, id)>& f) const { impl_->each_leak(f); }
std::vector<hidden_flow::choice_reads> hidden_flow::choice_sources() const { return impl_->choice_sources(); }

}  // namespace wp::ir
