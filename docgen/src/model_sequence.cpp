// The aid's sequence of play: each sequence with its turns, phases and steps numbered as on a
// published aid, and under the setup a scenario's deployment, read for the chosen scenario.
#include "model_builder.hpp"

namespace wp::docgen::detail {

// A numbered list, as on a published aid: the phases and steps inside a turn or a setup are
// "1. Fate", "2.1 Renewal", "2.1.1 Renegotiation"; a turn or the setup is named alone.
bool builder::numbered(const ir::block& b) { return b.word == "phase" || b.word == "step"; }

std::string builder::block_title(const ir::block& b, const std::string& number) const {
    const std::string name = b.name.empty() ? capitalised(b.word) : capitalised(humanize(b.name));
    if (number.empty()) {
        // "turn contractor_turn" reads "Contractor turn", not "Turn Contractor turn".
        return b.name.empty() || humanize(b.name).find(b.word) != std::string::npos ? name : capitalised(b.word) + " · " + name;
    }
    return number + (number.find('.') == std::string::npos ? ". " : " ") + name;
}

void builder::nested_blocks(const english& en, const std::vector<ir::id>& nested, int depth, const std::string& prefix) {
    int k = 0;  // a block the options leave empty is not printed, and takes no number
    for (ir::id n : nested) {
        const bool counted = numbered(rs.blocks[n]);
        const std::string number = counted ? (prefix.empty() ? "" : prefix + ".") + std::to_string(k + 1) : "";
        if (sequence_block(en, n, depth, number) && counted) ++k;
    }
}

// Whether it printed anything.
bool builder::sequence_block(const english& en, ir::id b, int depth, const std::string& number) {
    const ir::block& bl = rs.blocks[b];
    const auto kids = ir::children_of(rs, bl.node);
    std::vector<ir::id> nested;
    english here = en;
    here.in_setup(bl.word == "setup");  // its seating reads as who plays what
    // A setup's deployment is printed under it; the call that makes it reads as a pointer to it
    // ("standin_setup()" reads "the deployment below").
    const std::vector<deployed> deploys = bl.word == "setup" && !kids.empty() ? deployment(en, kids[0]) : std::vector<deployed>{};
    for (const deployed& d : deploys) here.name_call(d.call, "the deployment below");
    std::string what = kids.empty() ? "" : here.statements(kids[0], &nested, true);
    if (what.empty() && nested.empty()) return false;  // nothing happens here under the chosen options
    // The designer's own words stand for the block's statements (its nested blocks still follow).
    if (!bl.aid.empty()) what = bl.aid;
    rich_text t{bold(block_title(bl, number))};
    // A turn the rules number (`numbered`) says by what: "Game turn (numbered by the turn)".
    if (bl.number != ir::no_id) t.push_back(text(" (numbered by " + here.expr(bl.number) + ")"));
    if (!what.empty()) t.push_back(text(": " + what));
    t.push_back(source(bl.prov));
    entry(std::move(t), depth);
    for (const deployed& d : deploys) {
        rich_text line;
        line.push_back(bold(d.title));
        line.push_back(text(": " + d.what));
        line.push_back(source(rs.procedures[rs.nodes[d.call].ref].prov));
        entry(std::move(line), depth + 1);
    }
    nested_blocks(en, nested, depth + 1, number);
    return true;
}

// Whether option `o` decides anything in what `n` reaches through procedures and quantities.
bool builder::reads_option(ir::id n, ir::id o, std::set<ir::id>& seen) const {
    bool found = false;
    visit(rs, n, [&](ir::id m) {
        const ir::node& x = rs.nodes[m];
        if (found) return;
        if (x.code == ir::op::option && x.ref == o) found = true;
        else if (x.code == ir::op::call && x.ref < rs.procedures.size() && seen.insert(x.ref).second)
            found = reads_option(rs.procedures[x.ref].body, o, seen);
    });
    return found;
}

// A scenario's deployment: each call of the setup that the `scenario` option decides, read for
// the chosen scenario, with the procedures its constants decide expanded ("deploy units
// (Bavarian Army, Infantry, 14, aug3 line)") instead of the setup's "deploy"; and each call
// that places pieces from their data, read piece by piece ("Tilly: …").
std::vector<builder::deployed> builder::deployment(const english& en, ir::id body) const {
    std::vector<deployed> out;
    ir::id scenario = ir::no_id;
    for (std::size_t o = 0; o < rs.options.size(); ++o)
        if (rs.options[o].name == "scenario" && rs.options[o].selected_index < rs.options[o].values.size()) scenario = static_cast<ir::id>(o);
    if (scenario == ir::no_id) return out;
    const ir::option& o = rs.options[scenario];
    std::vector<ir::id> statements{body};
    if (rs.nodes[body].code == ir::op::seq) {
        const auto kids = ir::children_of(rs, body);
        statements.assign(kids.begin(), kids.end());
    }
    english expanded = en;
    expanded.expand_calls(3);
    expanded.fix_globals(&fixed_flags);
    for (ir::id st : statements) {
        const ir::node& x = rs.nodes[st];
        std::set<ir::id> seen;
        if (x.code != ir::op::call || x.ref >= rs.procedures.size()) continue;
        // what the scenario decides, or what the pieces' and spaces' data place
        const std::string what = expanded.statements(st);
        const bool by_scenario = reads_option(st, scenario, seen);
        if (what.empty() || (!by_scenario && what == en.statements(st))) continue;
        // "Deployment, 5 August"; a set-up no scenario changes says so.
        const std::string title = by_scenario ? "Deployment, " + option_value_words(rs, o, o.selected_index) : "Deployment (every scenario)";
        out.push_back(deployed{st, title, what});
    }
    return out;
}

void builder::sequence_of_play() {
    if (rs.sequences.empty()) return;
    section("Sequence of play");
    for (const ir::sequence& s : rs.sequences) {
        const english en = speaker(s.locals, {s.body});
        std::vector<ir::id> nested;
        const std::string top = en.statements(s.body, &nested, true);
        rich_text line;  // built a span at a time: GCC 12 warns falsely on the braced list here
        line.push_back(bold(title_of(s.name)));
        line.push_back(text(": " + top));
        line.push_back(source(s.prov));
        entry(std::move(line));
        nested_blocks(en, nested, 1, "");
    }
}

}  // namespace wp::docgen::detail
