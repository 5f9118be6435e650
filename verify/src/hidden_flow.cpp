#include "hidden_flow.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace wp::verify::detail {

namespace {

using ir::id;
using ir::op;

// A frame of locals: the element whose body the statements are in.
enum class frame_kind { none, procedure, action, sequence, rule, table };  // none: no locals
using frame = std::pair<frame_kind, id>;

class flow {
public:
    explicit flow(const ir::ruleset& rs) : rs_(rs) {
        std::vector<std::int64_t> option_value;
        for (const ir::option& o : rs.options) option_value.push_back(o.values.empty() ? 0 : o.values.at(o.selected_index));
        for (const ir::slot& s : rs.slots)
            hidden_.push_back(s.hidden && (s.hidden_if == ir::no_id || option_value.at(s.hidden_if) != 0));
    }

    bool any_hidden() const { return std::any_of(hidden_.begin(), hidden_.end(), [](char h) { return h != 0; }); }

    // Taints the locals until nothing changes, then reports.
    void run(check_result& out) {
        for (int round = 0; round < 64; ++round) {
            changed_ = false;
            each_body([&](const frame& f, id body) { statements(f, body, nullptr); });
            if (!changed_) break;
        }
        std::map<std::pair<id, id>, finding> found;  // (public slot, hidden slot)
        std::vector<std::pair<id, id>> order;
        each_body([&](const frame& f, id body) {
            statements(f, body, [&](id n, id target, id source) {
                const auto key = std::make_pair(target, source);
                const ir::node& nd = rs_.nodes.at(n);
                const ir::provenance at{nd.where, {}, nd.layer};
                if (auto it = found.find(key); it != found.end()) {
                    if (it->second.elements.front().prov != at && std::find(it->second.also.begin(), it->second.also.end(), at) == it->second.also.end())
                        it->second.also.push_back(at);
                    return;
                }
                order.push_back(key);
                found.emplace(key, make(target, source, at));
            });
        });
        for (const auto& key : order) out.findings.push_back(std::move(found.at(key)));
    }

private:
    using report = std::function<void(id node, id target_slot, id hidden_slot)>;

    const ir::node& node(id n) const { return rs_.nodes.at(n); }
    id child(id n, std::uint32_t i) const { return rs_.children.at(node(n).first_child + i); }

    template <class F>
    void each_body(F&& f) {
        for (id i = 0; i < rs_.procedures.size(); ++i) f(frame{frame_kind::procedure, i}, rs_.procedures[i].body);
        for (id i = 0; i < rs_.actions.size(); ++i) f(frame{frame_kind::action, i}, rs_.actions[i].body);
        for (id i = 0; i < rs_.sequences.size(); ++i) f(frame{frame_kind::sequence, i}, rs_.sequences[i].body);
        for (id i = 0; i < rs_.rules.size(); ++i)
            if (rs_.rules[i].kind == ir::rule_kind::trigger) f(frame{frame_kind::rule, i}, rs_.rules[i].body);
        for (id i = 0; i < rs_.tables.size(); ++i)
            for (const ir::table_cell& c : rs_.tables[i].cells) f(frame{frame_kind::table, i}, c.effects);
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
        if (t == ir::no_id || t >= rs_.types.size()) return true;
        const ir::type_kind k = rs_.types[t].kind;
        return k == ir::type_kind::integer || k == ir::type_kind::range || k == ir::type_kind::boolean;
    }
    // A local that holds a value read from hidden slot `source` (the first one found).
    void taint(const frame& f, id local, id source) {
        if (source == ir::no_id || !carries(f, local) || !source_.emplace(std::make_pair(f, local), source).second) return;
        changed_ = true;
    }
    id local_source(const frame& f, id local) const {
        const auto it = source_.find({f, local});
        return it == source_.end() ? ir::no_id : it->second;
    }

    // The first hidden slot expression n reads (no_id: none), in frame f.
    id reads(const frame& f, id n) {
        if (n == ir::no_id || n >= rs_.nodes.size()) return ir::no_id;
        const ir::node& nd = node(n);
        switch (nd.code) {
            case op::global:
            case op::player_field:
            case op::entity_field:
                if (nd.ref < hidden_.size() && hidden_[nd.ref]) return nd.ref;
                break;
            case op::local: return local_source(f, nd.ref);
            case op::quantity:
                if (const id s = derived(nd.ref); s != ir::no_id) return s;
                break;
            case op::decide:
                if (const id s = decided(nd.ref); s != ir::no_id) return s;
                break;
            case op::roll:
                if (const id s = rolled(nd.ref); s != ir::no_id) return s;
                break;
            case op::builtin:
                if (ir::is_map_search(static_cast<ir::builtin>(nd.ref)) && nd.value >= 0)
                    if (const id s = derived(static_cast<id>(nd.value)); s != ir::no_id) return s;
                break;
            default: break;
        }
        for (std::uint32_t i = 0; i < nd.child_count; ++i)
            if (const id s = reads(f, child(n, i)); s != ir::no_id) return s;
        return ir::no_id;
    }
    // What a quantity, predicate, decision or roll reads of its own (its arguments are read at
    // the call): its parameters count as seen by all. A quantity or roll: its expression and its
    // modifiers; a decision: its rules' values and conditions.
    id derived(id d) { return consulted(ir::target_kind::quantity, d); }
    id decided(id d) { return consulted(ir::target_kind::decision, d); }
    id rolled(id d) { return consulted(ir::target_kind::roll, d); }
    id consulted(ir::target_kind kind, id d) {
        const auto key = std::make_pair(kind, d);
        if (auto it = consulted_.find(key); it != consulted_.end()) return it->second;
        consulted_[key] = ir::no_id;  // (a recursive one: what the rest reads)
        const frame none{frame_kind::none, 0};
        id s = kind == ir::target_kind::quantity ? reads(none, rs_.quantities.at(d).expr)
             : kind == ir::target_kind::roll     ? reads(none, rs_.rolls.at(d).expr)
                                                 : ir::no_id;
        const ir::rule_kind contributes = kind == ir::target_kind::decision ? ir::rule_kind::define : ir::rule_kind::modifier;
        for (const ir::rule& r : rs_.rules)
            if (s == ir::no_id && r.kind == contributes && r.target == kind && r.target_id == d)
                s = first_of({reads(none, kind == ir::target_kind::decision ? r.value : r.amount), reads(none, r.guard)});
        return consulted_[key] = s;
    }
    static id first_of(std::initializer_list<id> ids) {
        for (id s : ids)
            if (s != ir::no_id) return s;
        return ir::no_id;
    }

    // The slot an assignment's target writes (through map indexes and record fields), or a local.
    struct written {
        id slot = ir::no_id, local = ir::no_id;
    };
    written target_of(id n) const {
        for (;;) {
            const ir::node& nd = node(n);
            switch (nd.code) {
                case op::global:
                case op::player_field:
                case op::entity_field: return {nd.ref, ir::no_id};
                case op::local: return {ir::no_id, nd.ref};
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

    void statements(const frame& f, id n, const report& said) {
        if (n == ir::no_id || n >= rs_.nodes.size()) return;
        const ir::node& nd = node(n);
        switch (nd.code) {
            case op::let: taint(f, nd.ref, reads(f, child(n, 0))); return;
            case op::assign:
            case op::add_assign:
            case op::sub_assign: {
                const written w = target_of(child(n, 0));
                const id source = reads(f, child(n, 1));
                if (source == ir::no_id) return;
                if (w.local != ir::no_id) taint(f, w.local, source);
                else if (w.slot != ir::no_id && !hidden_.at(w.slot) && said) said(n, w.slot, source);
                return;
            }
            case op::for_each:
            case op::choose_one:
            case op::choose_subset:
            case op::choose_order: taint(f, nd.ref, reads(f, child(n, 0))); break;
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
                    if (rs_.rules[r].kind == ir::rule_kind::trigger && rs_.rules[r].target == ir::target_kind::event && rs_.rules[r].target_id == nd.ref)
                        pass(f, n, {frame_kind::rule, r}, rs_.rules[r].param_count);
                return;
            default: break;
        }
        for (std::uint32_t i = 0; i < nd.child_count; ++i) statements(f, child(n, i), said);
    }

    std::string hidden_how(id s) const {
        const ir::slot& h = rs_.slots.at(s);
        std::string how = h.hidden_by != ir::no_id ? "only the players whose " + rs_.slots.at(h.hidden_by).name + " is its key see it"
                        : h.scope == ir::slot_scope::per_player ? "only its own player sees it"
                                                                : "only the player it belongs to sees it";
        if (h.hidden_if != ir::no_id) how += ", with option " + rs_.options.at(h.hidden_if).name + " on";
        if (h.hidden_unless != ir::no_id)
            how += "; all see it while " + rs_.slots.at(h.hidden_unless).name +
                   " is set (where the value is written only then, accept the finding with that reason)";
        return how;
    }

    finding make(id target, id source, const ir::provenance& at) const {
        finding f;
        f.kind = "hidden-leak";
        f.level = severity::warning;
        f.subject = rs_.slots.at(target).name;
        f.message = "`" + rs_.slots.at(target).name + "` is seen by every player, but here it takes a value read from `" +
                    rs_.slots.at(source).name + "`, which is hidden (" + hidden_how(source) + ")";
        f.elements.push_back({"statement", "assignment to " + rs_.slots.at(target).name, at});
        f.elements.push_back({"field", rs_.slots.at(target).name, rs_.slots.at(target).prov});
        f.elements.push_back({"field", rs_.slots.at(source).name, rs_.slots.at(source).prov});
        f.proof = proof_kind::proved;
        return f;
    }

    const ir::ruleset& rs_;
    std::vector<char> hidden_;  // per slot, in this game
    std::map<std::pair<frame, id>, id> source_;
    std::map<std::pair<ir::target_kind, id>, id> consulted_;
    bool changed_ = false;
};

}  // namespace

void hidden_leaks(const ir::ruleset& rs, check_result& out) {
    flow f(rs);
    if (!f.any_hidden()) return;
    f.run(out);
}

}  // namespace wp::verify::detail
