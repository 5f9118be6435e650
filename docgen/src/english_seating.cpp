// English of a setup's seating: the loop over the players that gives each seat its side, by a
// flag or a count that only the loop itself sets, is run here seat by seat and read as who
// plays what ("seat 1 plays the Imperial camp, seat 2 the Protestant camp"), never as the
// bookkeeping that does it ("seated +1; if seated is 1: your camp = …").
#include "english.hpp"

#include <memory>
#include <set>

namespace wp::docgen {

namespace {

// What one seat is given: a field of the player set to a member ("camp = Imperial"), and the
// game values that name the player ("imperial_player = p").
struct seat {
    std::vector<std::pair<ir::id, std::int64_t>> fields;  // slot, value
    std::vector<ir::id> names;                            // global slots
};

}  // namespace

std::optional<std::string> english::seating(ir::id n) const {
    if (!setup_ || n >= rs_.nodes.size() || rs_.nodes[n].code != ir::op::for_each) return std::nullopt;
    const ir::node& x = rs_.nodes[n];
    const auto kids = ir::children_of(rs_, n);
    if (kids.size() < 3 || rs_.nodes[kids[0]].code != ir::op::builtin || rs_.nodes[kids[0]].ref != static_cast<ir::id>(ir::builtin::players) ||
        rs_.nodes[kids[1]].code != ir::op::absent)
        return std::nullopt;
    if (rs_.min_players != rs_.max_players || rs_.min_players < 2) return std::nullopt;
    // The game values the loop reads: only it may set them, so they hold their first values when it starts.
    std::set<ir::id> inside;
    visit(rs_, n, [&](ir::id m) { inside.insert(m); });
    std::set<ir::id> targets;  // what the loop sets without reading it (`imperial_player = p`)
    visit(rs_, kids[2], [&](ir::id m) {
        if (rs_.nodes[m].code == ir::op::assign && rs_.nodes[m].child_count == 2) targets.insert(ir::children_of(rs_, m)[0]);
    });
    local_values state;
    visit(rs_, kids[2], [&](ir::id m) {
        const ir::node& y = rs_.nodes[m];
        if (y.code == ir::op::global && y.child_count == 0 && y.ref < rs_.slots.size() && !targets.count(m)) state[y.ref] = rs_.slots[y.ref].initial;
    });
    for (std::size_t m = 0; m < rs_.nodes.size(); ++m) {
        const ir::node& y = rs_.nodes[m];
        if (!sets_value(y.code) || y.child_count == 0 || inside.count(static_cast<ir::id>(m))) continue;
        const ir::node& t = rs_.nodes[ir::children_of(rs_, static_cast<ir::id>(m))[0]];
        if (t.code == ir::op::global && state.count(t.ref)) return std::nullopt;
    }
    // Run the body seat by seat: `if`s the state decides, and assignments of what it decides.
    std::vector<seat> seats(static_cast<std::size_t>(rs_.min_players));
    for (std::size_t i = 0; i < seats.size(); ++i) {
        local_values me = bound_;
        me[x.ref] = static_cast<std::int64_t>(i);
        std::function<bool(ir::id)> run = [&](ir::id s) -> bool {
            const ir::node& y = rs_.nodes[s];
            const auto yk = ir::children_of(rs_, s);
            switch (y.code) {
                case ir::op::absent: return true;
                case ir::op::seq:
                    for (ir::id k : yk)
                        if (!run(k)) return false;
                    return true;
                case ir::op::if_: {
                    const auto c = yk.size() >= 2 ? static_value(rs_, yk[0], nullptr, &me, &state) : std::nullopt;
                    if (!c) return false;
                    return *c ? run(yk[1]) : yk.size() < 3 || run(yk[2]);
                }
                case ir::op::assign: case ir::op::add_assign: case ir::op::sub_assign: {
                    if (yk.size() != 2) return false;
                    const auto v = static_value(rs_, yk[1], nullptr, &me, &state);
                    if (!v) return false;
                    const ir::node& t = rs_.nodes[yk[0]];
                    if (t.code == ir::op::global && t.child_count == 0) {
                        std::int64_t& g = state[t.ref];
                        g = y.code == ir::op::assign ? *v : y.code == ir::op::add_assign ? g + *v : g - *v;
                        const bool player = t.type < rs_.types.size() && rs_.types[t.type].kind == ir::type_kind::player;
                        if (player && y.code == ir::op::assign && rs_.nodes[yk[1]].code == ir::op::local && rs_.nodes[yk[1]].ref == x.ref)
                            seats[i].names.push_back(t.ref);
                        return true;
                    }
                    // the player's own field: what the seat is given
                    if (t.code == ir::op::player_field && y.code == ir::op::assign && t.child_count == 1 && t.type < rs_.types.size() &&
                        rs_.types[t.type].kind == ir::type_kind::enumeration) {
                        const ir::node& owner = rs_.nodes[ir::children_of(rs_, yk[0])[0]];
                        if (owner.code != ir::op::local || owner.ref != x.ref) return false;
                        seats[i].fields.emplace_back(t.ref, *v);
                        return true;
                    }
                    return false;
                }
                default: return false;
            }
        };
        if (!run(kids[2]) || (seats[i].fields.empty() && seats[i].names.empty())) return std::nullopt;
    }
    // "seat 1 plays the Imperial camp, seat 2 the Protestant camp"; without a field, "seat 1 is
    // the Imperial player, …".
    std::string out;
    for (std::size_t i = 0; i < seats.size(); ++i) {
        const seat& s = seats[i];
        std::string what;
        if (!s.fields.empty()) {
            const auto& [slot, v] = s.fields.front();
            what = "the " + constant_english(rs_, rs_.slots[slot].type, v) + " " + field_name(rs_.slots[slot].name);
        } else {
            what = player_words(humanize(rs_.slots[s.names.front()].name));
        }
        const std::string verb = s.fields.empty() ? " is " : " plays ";
        out += i == 0 ? "seat 1" + verb + what : ", seat " + std::to_string(i + 1) + " " + what;
    }
    return out;
}

std::string english::seat_player(ir::id slot) const {
    if (!seat_names_) {
        auto names = std::make_shared<std::map<ir::id, std::string>>();
        auto player_global = [&](ir::id m) {
            const ir::node& t = rs_.nodes[m];
            return t.code == ir::op::global && t.child_count == 0 && t.type < rs_.types.size() && rs_.types[t.type].kind == ir::type_kind::player;
        };
        std::map<ir::id, int> sets;  // how many statements set each game value of type player
        for (std::size_t m = 0; m < rs_.nodes.size(); ++m)
            if (sets_value(rs_.nodes[m].code) && rs_.nodes[m].child_count > 0)
                if (const ir::id t = ir::children_of(rs_, static_cast<ir::id>(m))[0]; player_global(t)) ++sets[rs_.nodes[t].ref];
        for (std::size_t n = 0; n < rs_.nodes.size(); ++n) {
            const ir::node& loop = rs_.nodes[n];
            if (loop.code != ir::op::for_each) continue;
            const auto kids = ir::children_of(rs_, static_cast<ir::id>(n));
            if (kids.size() < 3 || rs_.nodes[kids[0]].code != ir::op::builtin || rs_.nodes[kids[0]].ref != static_cast<ir::id>(ir::builtin::players))
                continue;
            auto is_seat = [&](ir::id m) { return rs_.nodes[m].code == ir::op::local && rs_.nodes[m].ref == loop.ref; };
            // In one statement list of the loop: `name = p` beside `p.side = Member`.
            visit(rs_, kids[2], [&](ir::id m) {
                if (rs_.nodes[m].code != ir::op::seq) return;
                std::vector<ir::id> named;
                std::string side;
                for (ir::id c : ir::children_of(rs_, m)) {
                    if (rs_.nodes[c].code != ir::op::assign || rs_.nodes[c].child_count != 2) continue;
                    const auto ck = ir::children_of(rs_, c);
                    const ir::node& target = rs_.nodes[ck[0]];
                    if (player_global(ck[0]) && is_seat(ck[1]) && sets[target.ref] == 1) named.push_back(target.ref);
                    if (target.code == ir::op::player_field && target.child_count == 1 && is_seat(ir::children_of(rs_, ck[0])[0]) &&
                        rs_.nodes[ck[1]].code == ir::op::const_member && side.empty())
                        side = constant_english(rs_, rs_.nodes[ck[1]].type, rs_.nodes[ck[1]].value);
                }
                if (!side.empty())
                    for (ir::id g : named) (*names)[g] = "the " + side + " player";
            });
        }
        seat_names_ = std::move(names);
    }
    const auto it = seat_names_->find(slot);
    return it == seat_names_->end() ? "" : it->second;
}

}  // namespace wp::docgen
