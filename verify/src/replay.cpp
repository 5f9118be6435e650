#include "replay.hpp"

#include <algorithm>

namespace wp::verify::detail {

std::optional<std::int64_t> witness_replay::number(const z3::model& m, const z3::expr& e) {
    const z3::expr v = m.eval(e, true);
    if (v.is_true()) return 1;
    if (v.is_false()) return 0;
    std::int64_t x = 0;
    if (v.is_numeral_i64(x)) return x;
    return std::nullopt;
}

const engine::game* witness_replay::game_for(int players) {
    auto it = games_.find(players);
    if (it == games_.end()) {
        std::unique_ptr<engine::game> g;
        try {
            g = std::make_unique<engine::game>(sym_.rs, players);
        } catch (const std::exception&) {
            g = nullptr;  // the engine cannot set up a game of this size
        }
        it = games_.emplace(players, std::move(g)).first;
    }
    return it->second.get();
}

std::optional<std::pair<std::int64_t, std::int64_t>> witness_replay::declared_range(id slot) const {
    const ir::type* t = &sym_.rs.types.at(sym_.rs.slots.at(slot).type);
    if (t->kind == ir::type_kind::map_of) t = &sym_.rs.types.at(t->value);
    if (t->kind != ir::type_kind::range) return std::nullopt;
    return std::make_pair(t->lo, t->hi);
}

std::unique_ptr<engine::probe> witness_replay::probe_at(const replay_point& at, const z3::model& m, std::string& refused) {
    if (!at.recorded || !at.st) return nullptr;
    // A question that does not read the number of players leaves it out of its model: the
    // fewest players then.
    std::optional<std::int64_t> players = number(m, sym_.n_players);
    const std::int64_t fewest = std::max<std::int64_t>(1, sym_.rs.min_players);
    if (!players || *players < fewest || *players > sym_.lay.players) players = fewest;
    const engine::game* g = game_for(static_cast<int>(*players));
    if (!g || g->instance_entity != sym_.lay.instance_entity || g->slots.size() != sym_.lay.slots.size()) return nullptr;
    auto p = std::make_unique<engine::probe>(*g);
    const layout& lay = sym_.lay;
    // Values: the same slot, copy and key in the engine's layout for this many players (the
    // checker's has room for the most players).
    for (std::size_t sl = 0; sl < lay.slots.size(); ++sl) {
        const layout::slot_place& from = lay.slots[sl];
        const engine::game::slot_layout& to = g->slots[sl];
        const std::uint32_t end = sl + 1 < g->slots.size() ? g->slots[sl + 1].offset : g->value_count;
        const std::uint32_t copies = to.width == 0 ? 0 : (end - to.offset) / to.width;
        if (to.width != from.width) return nullptr;
        const auto range = declared_range(static_cast<id>(sl));
        for (std::uint32_t c = 0; c < std::min(copies, from.copies); ++c)
            for (std::uint32_t k = 0; k < from.width; ++k) {
                const z3::expr& held = at.st->value(from.offset + c * from.width + k);
                // A variable of the state (not a number the store holds) is the witness's
                // choice, or free when the question does not read it. A free one is any value
                // of its type: the one nearest 0. (It is not evaluated: an evaluation that
                // completes the model adds the variable to the model every copy shares, at 0,
                // which may be outside the type, a turn counter's 1..9.)
                const bool variable = held.is_const() && !held.is_numeral();
                std::optional<std::int64_t> v;
                if (variable && !m.has_interp(held.decl())) {
                    v = range ? std::clamp<std::int64_t>(0, range->first, range->second) : 0;
                } else {
                    v = number(m, held);
                    if (!v) return nullptr;
                    // A chosen value outside the field's type is no game's state, and nothing
                    // the engine does there confirms anything.
                    if (variable && range && (*v < range->first || *v > range->second)) {
                        refused = std::string("not confirmed: the witness's state holds `") + sym_.rs.slots.at(sl).name +
                                  "` = " + std::to_string(*v) + ", outside its type's range " + std::to_string(range->first) +
                                  ".." + std::to_string(range->second) + ", which no game holds";
                        return nullptr;
                    }
                }
                p->set_value(to.offset + c * to.width + k, *v);
            }
    }
    // Zones: each instance where the model puts it, in instance order (the encoding does not
    // order a zone).
    for (std::size_t inst = 0; inst < at.st->loc_count(); ++inst) {
        const std::optional<std::int64_t> zi = number(m, at.st->loc(inst));
        if (!zi) return nullptr;
        if (*zi < 0 || static_cast<std::size_t>(*zi) >= lay.zone_instance_zone.size()) continue;
        const id z = lay.zone_instance_zone[static_cast<std::size_t>(*zi)];
        const std::uint32_t k = static_cast<std::uint32_t>(*zi) - lay.zone_first.at(z);
        const std::uint32_t end = z + 1 < g->zone_first.size() ? g->zone_first[z + 1] : static_cast<std::uint32_t>(g->zone_instance_zone.size());
        // A seat the game does not have: the question did not constrain where it is (the
        // invariants that would are not in its slice), so it is nowhere.
        if (g->zone_first.at(z) + k >= end) continue;
        // A zone of another kind of entity: the question did not constrain where this one is
        // either (its kind's zones are not in its slice), so it is nowhere.
        const id kind = sym_.rs.entities.at(sym_.lay.instance_entity.at(inst)).kind;
        if (sym_.rs.zones.at(z).entity_kind != ir::no_id && sym_.rs.zones.at(z).entity_kind != kind) continue;
        p->put(g->zone_first[z] + k, static_cast<std::int64_t>(inst));
    }
    // The dice of the rolls and dice terms encoded there, in the order they were met.
    for (std::size_t i = at.variables_from; i < at.variables_to && i < sym_.variables.size(); ++i) {
        const variable& v = sym_.variables[i];
        if (v.roll == ir::no_id && v.dice == ir::no_id) continue;
        // Dice the question does not read are not in its model: their usual value then.
        std::int64_t x = 0;
        if (!m.eval(v.var, false).is_numeral_i64(x)) x = v.preferred;
        // A total the dice cannot show is no game's either (a question that left out the
        // dice's faces once "confirmed" an 8 on one six-sided die).
        if (!dice_can_show(v, x)) {
            refused = "not confirmed: the witness's " + v.text + " = " + std::to_string(x) + ", which the dice cannot show";
            return nullptr;
        }
        if (v.roll != ir::no_id) p->fix_roll(v.roll, x);
        else p->fix_dice(v.dice, x);
    }
    return p;
}

bool witness_replay::dice_can_show(const variable& v, std::int64_t x) const {
    if (v.roll != ir::no_id) {
        const ir::roll& ro = sym_.rs.rolls.at(v.roll);
        if (ro.dist.weights.empty()) return true;  // a roll of an expression: no faces of its own
        if (x < ro.dist.min || x > ro.dist.max) return false;
        return ro.dist.weights.at(static_cast<std::size_t>(x - ro.dist.min)) != 0;
    }
    const ir::node& nd = sym_.rs.nodes.at(v.dice);
    const ir::dice_term& d = sym_.rs.dice_terms.at(nd.ref);
    if (nd.code == ir::op::dice) return x >= d.count * d.low && x <= d.count * d.high;
    return true;  // a counted number of dice: its count is the question's, not known here
}

std::vector<std::int64_t> witness_replay::locals(const replay_point& at, const z3::model& m) const {
    std::vector<std::int64_t> out;
    for (const std::optional<z3::expr>& l : at.locals) {
        const std::optional<std::int64_t> v = l ? number(m, *l) : std::nullopt;
        out.push_back(v ? *v : -1);
    }
    return out;
}

namespace {

// The witness gives the state where the statement runs, not a game leading there: the engine is
// set in that state.
const char* const set_up = "in the witness's state the engine ";

}  // namespace

std::string witness_replay::replayed(const replay_point& at, const z3::model& m,
                                     const std::function<std::string(engine::probe&)>& compare) {
    try {
        std::string refused;
        const std::unique_ptr<engine::probe> p = probe_at(at, m, refused);
        return p ? compare(*p) : refused;
    } catch (const std::exception& e) {
        return std::string("not confirmed: the engine could not be set in the witness's state (") + e.what() + ")";
    }
}

std::string witness_replay::table_gap(const table_site& s, std::size_t key, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const std::optional<std::int64_t> claimed = number(m, s.keys.at(key));
        const engine::probe::outcome o = p.read_table(s.table, s.node, locals(s.replay, m));
        const char* what = key == 0 ? "row" : "column";
        if (o.values.size() <= key)
            return std::string("not confirmed: ") + set_up + "cannot compute the " + what + " key (" + o.error + ")";
        const std::int64_t got = o.values[key];
        // The encoding reads an odds key only as far as the table's steps go (one step past
        // the last stands for every step past it): there the engine's step need not be equal.
        const ir::table& tb = sym_.rs.tables.at(s.table);
        const bool odds = (key == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds;
        if (claimed && got != *claimed && !odds)
            return std::string("not confirmed: ") + set_up + "computes the " + what + " key " + std::to_string(got) +
                   ", not " + std::to_string(*claimed);
        if (o.error.empty())
            return std::string("not confirmed: ") + set_up + "computes the " + what + " key " + std::to_string(got) +
                   " and reads a cell for it";
        if (o.error.find(std::string("no ") + what) == std::string::npos)
            return std::string("not confirmed: ") + set_up + "computes the " + what + " key " + std::to_string(got) +
                   " and stops for another reason (" + o.error + ")";
        return std::string("confirmed: ") + set_up + "computes the " + what + " key " + std::to_string(got) +
               " and stops: no " + what + " covers it";
    });
}

std::string witness_replay::shift_gap(const table_site& s, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const engine::probe::outcome o = p.read_table(s.table, s.node, locals(s.replay, m));
        if (o.error.empty()) return std::string("not confirmed: ") + set_up + "reads a cell of the table";
        if (o.error.find("shifted by") == std::string::npos)
            return std::string("not confirmed: ") + set_up + "stops for another reason (" + o.error + ")";
        return std::string("confirmed: ") + set_up + "stops: " + o.error.substr(o.error.find("no column"));
    });
}

std::string witness_replay::bound_violation(const bound_site& s, std::size_t place, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const std::optional<std::int64_t> claimed = number(m, s.value.at(place));
        const engine::probe::outcome o = p.assign(s.node, locals(s.replay, m));
        if (o.values.empty()) return std::string("not confirmed: ") + set_up + "cannot compute the new value (" + o.error + ")";
        const std::int64_t got = o.values.front();
        const ir::type& t = sym_.rs.types.at(s.type);
        const std::string range = std::to_string(t.lo) + ".." + std::to_string(t.hi);
        if (claimed && got != *claimed)
            return std::string("not confirmed: ") + set_up + "computes the new value " + std::to_string(got) + ", not " +
                   std::to_string(*claimed);
        if (o.error.empty())
            return std::string("not confirmed: ") + set_up + "computes the new value " + std::to_string(got) + ", within " + range;
        if (o.error.find("outside") == std::string::npos)
            return std::string("not confirmed: ") + set_up + "computes the new value " + std::to_string(got) +
                   " and stops for another reason (" + o.error + ")";
        return std::string("confirmed: ") + set_up + "computes the new value " + std::to_string(got) +
               " and stops: it is outside " + range;
    });
}

std::string witness_replay::stuck_choice(const choice_site& s, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const engine::probe::outcome o = p.options(s.node, locals(s.replay, m));
        if (!o.error.empty()) return std::string("not confirmed: ") + set_up + "cannot list the options (" + o.error + ")";
        if (!o.values.empty())
            return std::string("not confirmed: ") + set_up + "finds " + std::to_string(o.values.size()) +
                   (o.values.size() == 1 ? " legal option" : " legal options");
        return std::string("confirmed: ") + set_up + "finds no legal option";
    });
}

std::string witness_replay::unmet_action(const obligation_site& s, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const std::vector<std::int64_t> args = locals(s.replay, m);
        const engine::probe::outcome o = p.legal(s.subject, args);
        if (!o.error.empty() || o.values.size() < 2)
            return std::string("not confirmed: ") + set_up + "cannot tell whether the action is legal (" + o.error + ")";
        const bool legal = o.values[0] != 0, required = o.values[1] != 0;
        const std::string call = sym_.rs.actions.at(s.subject).name;
        if (legal) return std::string("not confirmed: ") + set_up + "finds `" + call + "` legal";
        if (s.kind == obligation_site::what::required && !required)
            return std::string("not confirmed: ") + set_up + "finds `" + call + "` not legal, and no `require` demands it";
        return std::string("confirmed: ") + set_up + "finds `" + call + "` not legal" + (required ? " where a `require` demands it" : "");
    });
}

std::string witness_replay::unmet_move(const obligation_site& s, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const std::vector<std::int64_t> at = locals(s.replay, m);  // the piece, the zone instance
        if (at.size() < 2 || at[1] < 0 || static_cast<std::size_t>(at[1]) >= sym_.lay.zone_instance_zone.size())
            return std::string("not confirmed: the witness names no zone");
        const id zone = sym_.lay.zone_instance_zone[static_cast<std::size_t>(at[1])];
        const std::int64_t index = at[1] - sym_.lay.zone_first.at(zone);
        const engine::probe::outcome o = p.holds(zone, index, at[0]);
        if (!o.error.empty() || o.values.empty())
            return std::string("not confirmed: ") + set_up + "cannot tell what the zone holds (" + o.error + ")";
        const std::string piece = at[0] >= 0 ? sym_.instance_text(at[0]) : "the piece";
        const std::string zone_text = sym_.zone_instance_text(at[1]);
        return o.values[0] ? std::string("not confirmed: ") + set_up + "finds " + piece + " in " + zone_text
                           : std::string("confirmed: ") + set_up + "finds " + piece + " not in " + zone_text;
    });
}

std::string witness_replay::short_draw(const obligation_site& s, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const std::vector<std::int64_t> at = locals(s.replay, m);  // the cards asked for, the zone instance
        if (at.size() < 2 || at[1] < 0 || static_cast<std::size_t>(at[1]) >= sym_.lay.zone_instance_zone.size())
            return std::string("not confirmed: the witness names no zone");
        const id zone = sym_.lay.zone_instance_zone[static_cast<std::size_t>(at[1])];
        const std::int64_t index = at[1] - sym_.lay.zone_first.at(zone);
        const id kind = sym_.rs.zones.at(zone).entity_kind;
        std::int64_t held = 0;
        for (std::uint32_t i = 0; kind != ir::no_id && i < sym_.lay.kind_count.at(kind); ++i) {
            const engine::probe::outcome o = p.holds(zone, index, sym_.lay.kind_first[kind] + i);
            if (!o.error.empty() || o.values.empty())
                return std::string("not confirmed: ") + set_up + "cannot tell what the zone holds (" + o.error + ")";
            held += o.values[0] != 0 ? 1 : 0;
        }
        const std::string found = std::string(set_up) + "finds " + std::to_string(held) + (held == 1 ? " card" : " cards") + " in " +
                                  sym_.zone_instance_text(at[1]) + " where " + std::to_string(at[0]) + " are asked for";
        return std::string(held < at[0] ? "confirmed: " : "not confirmed: ") + found;
    });
}

std::string witness_replay::both_apply(const replay_point& at, id group, id a, id b, values v, const z3::model& m) {
    return replayed(at, m, [&](engine::probe& p) {
        const std::vector<std::int64_t> args = locals(at, m);
        const engine::probe::outcome o = p.applicable(group, args);
        if (!o.error.empty()) return std::string("not confirmed: ") + set_up + "cannot tell which rules apply (" + o.error + ")";
        const std::string& na = sym_.rs.rules.at(a).name;
        const std::string& nb = sym_.rs.rules.at(b).name;
        auto applies = [&](id r) { return std::find(o.values.begin(), o.values.end(), r) != o.values.end(); };
        if (!applies(a) || !applies(b)) {
            const std::string which = !applies(a) && !applies(b) ? "neither `" + na + "` nor `" + nb + "` applies"
                                                                 : "`" + (applies(a) ? nb : na) + "` does not apply";
            return std::string("not confirmed: ") + set_up + "finds that " + which;
        }
        const std::string both = "both `" + na + "` and `" + nb + "` apply";
        if (v == values::any) return std::string("confirmed: ") + set_up + "finds that " + both;
        const engine::probe::outcome va = p.value(a, args), vb = p.value(b, args);
        if (va.values.empty() || vb.values.empty())
            return std::string("not confirmed: ") + set_up + "cannot compute their values (" + va.error + vb.error + ")";
        const std::int64_t x = va.values.front(), y = vb.values.front();
        const std::string given = x == y ? ", both giving " + std::to_string(x) : ", giving " + std::to_string(x) + " and " + std::to_string(y);
        const bool as_said = (x != y) == (v == values::different);
        return std::string(as_said ? "confirmed: " : "not confirmed: ") + set_up + "finds that " + both + given;
    });
}

std::string witness_replay::undecided(const replay_point& at, id group, const z3::model& m) {
    return replayed(at, m, [&](engine::probe& p) {
        const engine::probe::outcome o = p.applicable(group, locals(at, m));
        if (!o.error.empty()) return std::string("not confirmed: ") + set_up + "cannot tell which rules apply (" + o.error + ")";
        for (const std::int64_t r : o.values) {
            const ir::rule& rule = sym_.rs.rules.at(static_cast<std::size_t>(r));
            if (rule.kind == ir::rule_kind::define)
                return std::string("not confirmed: ") + set_up + "finds that `" + rule.name + "` decides it";
        }
        return std::string("confirmed: ") + set_up + "finds no rule that decides it";
    });
}

std::string witness_replay::invariant_broken(const invariant_site& s, id rule, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const engine::probe::outcome o = p.value(rule, {});
        const std::string& name = sym_.rs.rules.at(rule).name;
        if (o.values.empty()) return std::string("not confirmed: ") + set_up + "cannot evaluate `" + name + "` (" + o.error + ")";
        if (o.values.front() != 0) return std::string("not confirmed: ") + set_up + "finds `" + name + "` true";
        return std::string("confirmed: ") + set_up + "finds `" + name + "` false";
    });
}

std::string witness_replay::query_answered(const invariant_site& s, id rule, const z3::model& m) {
    return replayed(s.replay, m, [&](engine::probe& p) {
        const engine::probe::outcome o = p.value(rule, {});
        const ir::rule& q = sym_.rs.rules.at(rule);
        const bool want = q.kind != ir::rule_kind::assert_always;  // the property's value that answers it
        if (o.values.empty()) return std::string("not confirmed: ") + set_up + "cannot evaluate `" + q.name + "` (" + o.error + ")";
        if ((o.values.front() != 0) != want)
            return std::string("not confirmed: ") + set_up + "finds `" + q.name + "` " + (want ? "false" : "true");
        return std::string("confirmed: ") + set_up + "finds `" + q.name + "` " + (want ? "true" : "false");
    });
}

namespace {

// " (the rules give 5, 9)": the numbers an example's run shows after its outcome, if any.
std::string rules_give(const engine::probe::outcome& o) {
    std::string gives;
    for (std::size_t i = 1; i < o.values.size(); ++i) gives += (i > 1 ? ", " : "") + std::to_string(o.values[i]);
    return gives.empty() ? gives : " (the rules give " + gives + ")";
}

}  // namespace

std::string witness_replay::example_fails(const example_run& x, const z3::model& m) {
    return replayed(x.start, m, [&](engine::probe& p) {
        const std::optional<std::int64_t> active = x.active ? number(m, *x.active) : std::nullopt;
        const engine::probe::outcome o = p.example(x.rule, active ? static_cast<int>(*active) : 0, x.shown_nodes);
        const std::string runs = "the engine, running the `given` from the start of a game, ";
        if (o.values.empty()) return "not confirmed: " + runs + "stops (" + o.error + ")";
        const std::string gives = rules_give(o);
        if (o.values.front() != 0) return "not confirmed: " + runs + "finds the stated outcome" + gives;
        return "confirmed: " + runs + "does not find the stated outcome" + gives;
    });
}

witness_replay::example_verdict witness_replay::example_everywhere(const example_run& x) {
    example_verdict v;
    const int fewest = std::max(1, static_cast<int>(sym_.rs.min_players));
    const std::string runs = "the engine, running the `given` from the start of a game";
    for (int players = fewest; players <= sym_.lay.players; ++players) {
        const engine::game* g = game_for(players);
        if (!g) {
            v.how = "no game of " + std::to_string(players) + " players can be set up";
            return v;
        }
        for (int active = 0; active < (x.active ? players : 1); ++active) {
            engine::probe p(*g);
            p.start();
            const engine::probe::outcome o = p.example(x.rule, active, x.shown_nodes);
            const std::string where = " with " + std::to_string(players) + (players == 1 ? " player" : " players") +
                                      (x.active ? ", P" + std::to_string(active + 1) + " active" : "");
            if (o.values.empty()) {
                v.how = runs + where + " stops (" + o.error + ")";
                return v;
            }
            if (o.values.front() != 0) continue;
            v.k = example_verdict::kind::fails;
            v.how = "confirmed: " + runs + where + ", does not find the stated outcome" + rules_give(o);
            v.situation.push_back("players = " + std::to_string(players));
            if (x.active) v.situation.push_back("active player = P" + std::to_string(active + 1));
            return v;
        }
    }
    v.k = example_verdict::kind::holds;
    return v;
}

}  // namespace wp::verify::detail
