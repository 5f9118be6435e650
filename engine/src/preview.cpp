// The human seat's `?N`: what one option leads to, played on a copy of the state up to the next
// decision with dice of the copy's own, so that the game's own dice stay unseen.
#include "westphalia/engine/engine.hpp"

namespace wp::engine {

state::preview_result state::preview(int action, std::uint64_t seed) const {
    preview_result out;
    state copy = lookahead(seed);
    const std::function<void(const std::string&)> collect = [&out](const std::string& line) { out.account.push_back(line); };
    copy.opt_.trace = &collect;
    copy.opt_.trace_verbose = opt_.trace_verbose;
    const std::vector<std::uint64_t> before = copy.rule_fires();
    try {
        copy.apply(action);
    } catch (const engine_error& e) {
        out.error = e.what();
    }
    const std::vector<std::uint64_t>& after = copy.rule_fires();
    for (ir::id r = 0; r < after.size() && r < before.size(); ++r)
        if (after[r] > before[r]) out.rules.push_back(r);
    copy.opt_.trace = nullptr;
    return out;
}

}  // namespace wp::engine
