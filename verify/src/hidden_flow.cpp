#include "hidden_flow.hpp"

#include "westphalia/ir/hidden_flow.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace wp::verify::detail {

namespace {

using ir::id;

class leaks {
public:
    explicit leaks(const ir::ruleset& rs) : rs_(rs) {}

    // One finding per pair of fields, in the order first met.
    void report(const ir::hidden_flow& flow, check_result& out) const {
        std::map<std::pair<id, id>, finding> found;  // (public slot, hidden slot)
        std::vector<std::pair<id, id>> order;
        flow.each_leak([&](id n, id target, id source) {
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
        for (const auto& key : order) out.findings.push_back(std::move(found.at(key)));
    }

private:
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
};

}  // namespace

void hidden_leaks(const ir::ruleset& rs, check_result& out) {
    const ir::hidden_flow flow(rs, ir::hidden_slots(rs));
    if (flow.any_hidden()) leaks(rs).report(flow, out);
}

}  // namespace wp::verify::detail
