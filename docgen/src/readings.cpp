// A table is out of play when every node that reads it (a lookup or a resolve) lies in a branch
// the chosen options rule out: the other arm of an `if` or a `cond` whose condition they decide,
// the right side of an `and` they make false or an `or` they make true, a rule whose guard they
// make false. A table nothing in play reads, or only a worked example, stays in: it is data.
#include "readings.hpp"

#include "english.hpp"

#include <functional>

namespace wp::docgen {

namespace {

enum class reach : unsigned char { play, ruled_out, example };

// Where each node is: in play, in a branch `chosen` rules out, or in a worked example.
std::vector<reach> reach_of(const ir::ruleset& rs, const option_choice* chosen) {
    std::vector<reach> where(rs.nodes.size(), reach::play);
    std::function<void(ir::id, reach)> mark = [&](ir::id n, reach r) {
        if (n >= where.size() || where[n] == r) return;
        where[n] = r;
        for (ir::id k : ir::children_of(rs, n)) mark(k, r);
    };
    auto kill = [&](ir::id n) { mark(n, reach::ruled_out); };
    for (ir::id n = 0; n < rs.nodes.size(); ++n) {
        const ir::node& x = rs.nodes[n];
        const auto kids = ir::children_of(rs, n);
        if ((x.code == ir::op::if_ || x.code == ir::op::cond) && kids.size() >= 2) {
            if (const auto v = static_value(rs, kids[0], chosen)) {
                if (*v) {
                    if (kids.size() > 2) kill(kids[2]);
                } else {
                    kill(kids[1]);
                }
            }
        } else if ((x.code == ir::op::and_ || x.code == ir::op::or_) && kids.size() == 2) {
            const auto v = static_value(rs, kids[0], chosen);
            if (v && ((x.code == ir::op::and_ && !*v) || (x.code == ir::op::or_ && *v))) kill(kids[1]);
        }
    }
    for (const ir::rule& r : rs.rules) {
        const auto guard = r.guard == ir::no_id ? std::nullopt : static_value(rs, r.guard, chosen);
        if (ir::runs_a_given(r.kind) || ir::is_query(r.kind))  // not rules of play
            for (ir::id n : {r.amount, r.value, r.guard, r.body}) mark(n, reach::example);
        else if (guard && !*guard)
            for (ir::id n : {r.amount, r.value, r.guard, r.body}) kill(n);
    }
    return where;
}

// Per table: read by play (1), read only where play cannot go (0), or read nowhere (2).
std::vector<int> table_use(const ir::ruleset& rs, const option_choice* chosen) {
    const std::vector<reach> where = reach_of(rs, chosen);
    std::vector<int> use(rs.tables.size(), 2);
    for (ir::id n = 0; n < rs.nodes.size(); ++n) {
        const ir::node& x = rs.nodes[n];
        if ((x.code != ir::op::lookup && x.code != ir::op::resolve) || x.ref >= use.size()) continue;
        if (where[n] == reach::play) use[x.ref] = 1;
        else if (where[n] == reach::ruled_out && use[x.ref] == 2) use[x.ref] = 0;
    }
    return use;
}

std::string choice_text(const ir::ruleset& rs, const ir::option& o, std::size_t index) {
    // "scenario = 5 August" where the option's aid text names each value, else "charts = freiburg map"
    const std::vector<std::string> labels = option_labels(o);
    return humanize(o.name) + " = " + (labels.empty() ? constant_english(rs, o.type, o.values.at(index)) : labels.at(index));
}

}  // namespace

table_readings readings_of(const ir::ruleset& rs) {
    table_readings r;
    const std::vector<int> now = table_use(rs, nullptr);
    r.in_play.resize(rs.tables.size());
    r.reading.resize(rs.tables.size());
    for (std::size_t t = 0; t < rs.tables.size(); ++t) r.in_play[t] = now[t] != 0;
    std::vector<std::string> shown_by(rs.tables.size());  // a left-out table's reading
    for (ir::id o = 0; o < rs.options.size(); ++o) {
        const ir::option& opt = rs.options[o];
        for (std::size_t v = 0; v < opt.values.size(); ++v) {
            if (v == opt.selected_index) continue;
            const option_choice other{{o, v}};
            const std::vector<int> then = table_use(rs, &other);
            for (std::size_t t = 0; t < rs.tables.size(); ++t) {
                if ((now[t] != 0) == (then[t] != 0)) continue;
                if (now[t] != 0 && r.reading[t].empty()) r.reading[t] = choice_text(rs, opt, opt.selected_index);
                if (now[t] == 0 && shown_by[t].empty()) shown_by[t] = choice_text(rs, opt, v);
            }
        }
    }
    for (std::size_t t = 0; t < rs.tables.size(); ++t)
        if (!r.in_play[t])
            r.left_out.push_back(table_name(rs.tables[t].name) + (shown_by[t].empty() ? "" : " (" + shown_by[t] + ")"));
    return r;
}

}  // namespace wp::docgen
