// The compiled engine's writer: rule groups and elements: quantities, rolls, decisions, actions, events, procedures, tables (writer.hpp).
#include "writer.hpp"

#include <algorithm>

namespace wp::codegen {

// Code that sets, for each live rule of group gi, whether it applies to the arguments and no
// applicable overriding rule defeats it (`names` gets the flags, in group order).
std::string writer::applicable(id gi, const std::vector<std::string>& args, std::vector<std::pair<id, std::string>>& names) {
    std::string code;
    const std::vector<id>& live = g_.live_rules[gi];
    std::vector<std::string> applies;
    for (id r : live) {
        applies.push_back(fresh("ok"));
        const std::string guard = rs_.rules[r].guard == ir::no_id ? "true" : call_text("rg" + std::to_string(r), args);
        code += "[[maybe_unused]] const bool " + applies.back() + " = " + guard + "; ";
    }
    for (std::size_t i = 0; i < live.size(); ++i) {
        std::string defeated;
        for (const ir::override_edge& e : rs_.groups[gi].edges) {
            if (e.lower != live[i]) continue;
            const auto h = std::find(live.begin(), live.end(), e.higher);
            if (h != live.end()) defeated += " || " + applies[static_cast<std::size_t>(h - live.begin())];
        }
        if (defeated.empty()) {
            names.emplace_back(live[i], applies[i]);
        } else {
            const std::string u = fresh("u");
            code += "[[maybe_unused]] const bool " + u + " = " + applies[i] + " && !(false" + defeated + "); ";
            names.emplace_back(live[i], u);
        }
    }
    return code;
}

// Parameters "i64 a0, i64 a1" and their names.
std::string writer::params(std::size_t count, std::vector<std::string>* names) {
    std::string p;
    for (std::size_t i = 0; i < count; ++i) {
        p += ", [[maybe_unused]] i64 a" + std::to_string(i);
        if (names) names->push_back("a" + std::to_string(i));
    }
    return p;
}

// The locals of an element: parameters bound to the arguments, the rest -1.
std::string writer::locals(std::size_t count, std::size_t bound) {
    std::string code;
    for (std::size_t i = 0; i < count; ++i)
        code += "[[maybe_unused]] i64 l" + std::to_string(i) + " = " + (i < bound ? "a" + std::to_string(i) : "-1") + "; ";
    return code;
}

void writer::function(const std::string& signature, const std::string& body) {
    // every function takes the state; some do not read it
    std::string sig = signature;
    const std::size_t at = sig.find("(S& s");
    if (at != std::string::npos) sig.replace(at, 5, "([[maybe_unused]] S& s");
    protos_ << "[[maybe_unused]] static " << sig << ";\n";
    fns_ << "static " << sig << " {\n" << body << "}\n\n";
}

std::size_t writer::group_arity(id gi) const {
    const ir::rule_group& gr = rs_.groups[gi];
    switch (gr.target) {
        case ir::target_kind::roll: return rs_.rolls[gr.target_id].param_count;
        case ir::target_kind::quantity: return rs_.quantities[gr.target_id].param_count;
        case ir::target_kind::decision: return rs_.decisions[gr.target_id].params.size();
        case ir::target_kind::action: return rs_.actions[gr.target_id].param_count;
        case ir::target_kind::event: return rs_.events[gr.target_id].params.size();
        case ir::target_kind::none: return 0;
    }
    return 0;
}

void writer::rule_functions(id r, std::size_t arity) {
    const ir::rule& rule = rs_.rules[r];
    const std::string head = locals(std::max(rule.locals.size(), arity), std::min(rule.locals.size(), arity));
    const std::string ps = params(arity);
    if (rule.guard != ir::no_id)
        function("bool rg" + std::to_string(r) + "(S& s" + ps + ")", "    " + head + "\n    return " + E(rule.guard) + " != 0;\n");
    if (rule.kind == ir::rule_kind::modifier && rule.amount != ir::no_id)
        function("i64 ra" + std::to_string(r) + "(S& s" + ps + ")", "    " + head + "\n    return " + E(rule.amount) + ";\n");
    if (rule.kind == ir::rule_kind::define && rule.value != ir::no_id)
        function("i64 rv" + std::to_string(r) + "(S& s" + ps + ")", "    " + head + "\n    return " + E(rule.value) + ";\n");
    if (rule.kind == ir::rule_kind::trigger) {
        std::string body = "    " + head + "\n";
        if (rule.body != ir::no_id) statement(rule.body, body, 1);
        function("void rt" + std::to_string(r) + "(S& s" + ps + ")", body);
    }
}

// mods<g>: the sum of the applicable modifiers of group gi, their guards first.
void writer::modifier_function(id gi) {
    std::vector<std::string> args;
    const std::string ps = params(group_arity(gi), &args);
    std::vector<std::pair<id, std::string>> names;
    std::string body = "    " + applicable(gi, args, names) + "\n    i64 total = 0;\n";
    for (const auto& [r, flag] : names)
        if (rs_.rules[r].kind == ir::rule_kind::modifier && rs_.rules[r].mod == ir::modifier_kind::add)
            body += "    if (" + flag + ") { total = add_ck(" + at(rs_.rules[r].amount) + ", total, " + call_text("ra" + std::to_string(r), args) +
                    "); fire(s, " + std::to_string(r) + "); }\n";
    function("i64 mods" + std::to_string(gi) + "(S& s" + ps + ")", body + "    return total;\n");
}

// bnd<g>: the value v after the modifiers of group gi that set, cap or floor it, as the
// interpreter's interp::bounded (a set replaces, then the smallest cap, then the largest floor).
bool writer::has_bounds(id gi) const {
    if (gi == ir::no_id) return false;
    for (id r : g_.live_rules[gi])
        if (rs_.rules[r].kind == ir::rule_kind::modifier && rs_.rules[r].mod != ir::modifier_kind::add) return true;
    return false;
}

void writer::bound_function(id gi, const std::string& what) {
    std::vector<std::string> args;
    const std::string ps = params(group_arity(gi), &args);
    std::vector<std::pair<id, std::string>> names;
    std::string body = "    " + applicable(gi, args, names) +
                       "\n    bool set = false, capped = false, floored = false;\n    i64 to = 0, cap = 0, floor = 0;\n"
                       "    [[maybe_unused]] const char* setter = \"\";\n";
    for (const auto& [r, flag] : names) {
        const ir::rule& rule = rs_.rules[r];
        if (rule.kind != ir::rule_kind::modifier || rule.mod == ir::modifier_kind::add) continue;
        body += "    if (" + flag + ") {\n        const i64 k = " + call_text("ra" + std::to_string(r), args) + ";\n        fire(s, " +
                std::to_string(r) + ");\n";
        switch (rule.mod) {
            case ir::modifier_kind::set:
                body += "        if (set && k != to) fail(where, std::string(\"modifiers \") + setter + " +
                        quoted(" and " + rule.name + " set " + what + " to different values (") +
                        " + std::to_string(to) + \" and \" + std::to_string(k) + \")\");\n        set = true;\n        to = k;\n"
                        "        setter = " + quoted(rule.name) + ";\n";
                break;
            case ir::modifier_kind::at_most: body += "        cap = capped ? std::min(cap, k) : k;\n        capped = true;\n"; break;
            case ir::modifier_kind::at_least: body += "        floor = floored ? std::max(floor, k) : k;\n        floored = true;\n"; break;
            case ir::modifier_kind::add: break;
        }
        body += "    }\n";
    }
    body += "    if (set) v = to;\n    if (capped) v = std::min(v, cap);\n    if (floored) v = std::max(v, floor);\n    return v;\n";
    std::string head = "i64 bnd" + std::to_string(gi) + "(S& s, [[maybe_unused]] const char* where, i64 v";
    for (const std::string& a : args) head += ", i64 " + a;
    function(head + ")", body);
}

std::string writer::bound_call(id gi, const std::string& at_text, const std::string& v, const std::vector<std::string>& args) const {
    if (!has_bounds(gi)) return v;
    std::string c = "bnd" + std::to_string(gi) + "(s, " + at_text + ", " + v;
    for (const std::string& a : args) c += ", " + a;
    return c + ")";
}

std::string writer::mods_call(id gi, const std::vector<std::string>& args) const {
    if (gi == ir::no_id) return "i64(0)";
    return call_text("mods" + std::to_string(gi), args);
}

void writer::quantity_function(id q) {
    const ir::derived& d = rs_.quantities[q];
    std::vector<std::string> args;
    const std::string ps = params(d.param_count, &args);
    std::string body;
    const engine::game::tabulated& table = g_.quantity_tables[q];
    if (!table.values.empty() && table.sizes.size() == d.param_count) {
        // tabulated by the engine (it reads only its parameters): a table index inside it
        const std::string name = fresh("table");
        write_array(consts_, "i64", name, numbers(table.values));
        std::string inside = "true", index = "0";
        for (std::size_t i = 0; i < table.sizes.size(); ++i) {
            const std::string v = "(a" + std::to_string(i) + " - " + num(table.bases[i]) + ")";
            inside += " && " + v + " >= 0 && " + v + " < " + num(table.sizes[i]);
            index = "(" + index + ") * " + num(table.sizes[i]) + " + " + v;
        }
        body += "    if (" + inside + ") return " + name + "[" + index + "];\n";
    }
    body += "    " + locals(std::max<std::size_t>(d.locals.size(), d.param_count), d.param_count) + "\n";
    body += "    const i64 v = " + E(d.expr) + ";\n";
    if (!d.predicate && g_.group_of_quantity[q] != ir::no_id)
        body += "    return " +
                bound_call(g_.group_of_quantity[q], where(d.expr),
                           "add_ck(" + where(d.expr) + ", " + quoted("quantity " + d.name) + ", v, " +
                               mods_call(g_.group_of_quantity[q], args) + ")",
                           args) +
                ";\n";
    else
        body += "    return v;\n";
    function("i64 q" + std::to_string(q) + "(S& s" + ps + ")", body);
}

void writer::roll_function(id r) {
    const ir::roll& ro = rs_.rolls[r];
    std::vector<std::string> args;
    const std::string ps = params(ro.param_count, &args);
    std::string body = "    const i64 mod = " + mods_call(g_.group_of_roll[r], args) + ";\n";
    const std::string in_roll = where(ro.expr) + ", " + quoted("roll " + ro.name);  // adding the modifiers
    std::string value;
    if (ro.linear && !ro.dist.weights.empty()) {
        const bool uniform = std::all_of(ro.dist.weights.begin(), ro.dist.weights.end(), [](std::uint64_t w) { return w == 1; });
        // every total of the roll, modified, must be a 64-bit integer (the interpreter's order)
        const std::string lowest = "add_ck(" + in_roll + ", " + num(ro.dist.min) + ", mod)";
        body += "    add_ck(" + in_roll + ", " + num(ro.dist.max) + ", mod);\n";
        if (uniform)
            value = lowest + " + static_cast<i64>(s.r.below(" + std::to_string(ro.dist.total) + "ULL))";
        else
            value = "chance(s, " + lowest + ", " + weights(ro.dist.weights) + ", " + std::to_string(ro.dist.weights.size()) + ", " +
                    std::to_string(ro.dist.total) + "ULL)";
        if (natural_rows_) {  // the dice before the modifiers, for the natural rows (interp::roll)
            body += "    const i64 t = " + value + ";\n    s.natural = t - mod;\n";
            value = "t";
        }
    } else {
        body += "    " + locals(std::max<std::size_t>(ro.locals.size(), ro.param_count), ro.param_count) + "\n";
        if (natural_rows_) {
            body += "    const i64 t = " + E(ro.expr) + ";\n    s.natural = t;\n";
            value = "add_ck(" + in_roll + ", t, mod)";
        } else {
            value = "add_ck(" + in_roll + ", " + E(ro.expr) + ", mod)";
        }
    }
    // the modifiers that set, cap or floor it apply to the total (rolled first)
    if (has_bounds(g_.group_of_roll[r]))
        body += "    const i64 v = " + value + ";\n    return " + bound_call(g_.group_of_roll[r], where(ro.expr), "v", args) + ";\n";
    else
        body += "    return " + value + ";\n";
    function("i64 roll" + std::to_string(r) + "(S& s" + ps + ")", body);
}

void writer::decision_function(id d) {
    const ir::decision& dec = rs_.decisions[d];
    std::vector<std::string> args;
    const std::string ps = params(dec.params.size(), &args);
    const id gi = g_.group_of_decision[d];
    std::string body;
    const std::string on = args_text_code(dec.params, args);
    const std::string gap = ", \"gap\", " + quoted(dec.name) + ", \"\"";  // the fault's kind, subject, side
    if (gi != ir::no_id) {
        std::vector<std::pair<id, std::string>> names;
        body += "    " + applicable(gi, args, names) + "\n    bool have = false;\n    i64 value = 0;\n    const char* first = \"\";\n";
        for (const auto& [r, flag] : names) {
            if (rs_.rules[r].kind != ir::rule_kind::define) continue;
            body += "    if (" + flag + ") { const i64 v = " + call_text("rv" + std::to_string(r), args) + "; fire(s, " +
                    std::to_string(r) + "); if (have && v != value) fail_fault(where, std::string(\"rules \") + first + " +
                    quoted(" and " + rs_.rules[r].name + " contradict each other on " + dec.name) + " + " + on +
                    ", \"contradiction\", std::string(first) + " + quoted(" " + rs_.rules[r].name) + ", \"\"); if (!have) first = " + quoted(rs_.rules[r].name) + "; have = true; value = v; }\n";
        }
        body += "    if (!have) fail_fault(where, " + quoted("no rule decides " + dec.name) + " + " + on + gap + ");\n    return value;\n";
    } else {
        body = "    fail_fault(where, " + quoted("no rule decides " + dec.name) + " + " + on + gap + ");\n";
    }
    function("i64 dec" + std::to_string(d) + "(S& s, const char* where" + ps + ")", body);
}

void writer::action_functions(id a) {
    const ir::action& act = rs_.actions[a];
    std::vector<std::string> args;
    const std::string ps = params(act.param_count, &args);
    const std::string head = locals(std::max<std::size_t>(act.locals.size(), act.param_count), act.param_count);
    const id gi = g_.group_of_action[a];
    // legal<a>: its guard or an applicable permit, and no applicable forbid
    std::string legal = "    " + head + "\n    const bool guard = " +
                        (act.guard == ir::no_id ? std::string("true") : E(act.guard) + " != 0") + ";\n";
    if (gi == ir::no_id) {
        legal += "    return guard;\n";
        function("bool req" + std::to_string(a) + "(S& s" + ps + ")", "    return false;\n");
    } else {
        std::string forbidden = "false", permitted = "false", required = "false";
        std::vector<std::pair<id, std::string>> names, req_names;
        legal += "    " + applicable(gi, args, names) + "\n";
        for (const auto& [r, flag] : names) {
            if (rs_.rules[r].kind == ir::rule_kind::forbid) forbidden += " || " + flag;
            if (rs_.rules[r].kind == ir::rule_kind::permit) permitted += " || " + flag;
        }
        // a forbid counts where it removes an option that would be legal, a permit where it
        // makes legal one whose guard fails (interp::action_legal)
        legal += "    const bool forbidden = " + forbidden + ", permitted = " + permitted + ";\n";
        legal += "    if (counting(s)) {\n";
        for (const auto& [r, flag] : names) {
            if (rs_.rules[r].kind == ir::rule_kind::forbid)
                legal += "        if (" + flag + " && (guard || permitted)) fire(s, " + std::to_string(r) + ");\n";
            if (rs_.rules[r].kind == ir::rule_kind::permit)
                legal += "        if (" + flag + " && !guard && !forbidden) fire(s, " + std::to_string(r) + ");\n";
        }
        legal += "    }\n    return (guard || permitted) && !forbidden;\n";
        std::string req = "    " + applicable(gi, args, req_names) + "\n";
        for (const auto& [r, flag] : req_names)
            if (rs_.rules[r].kind == ir::rule_kind::require) {
                required += " || " + flag;
                req += "    if (" + flag + ") fire(s, " + std::to_string(r) + ");  // it takes \"no\" away from the `may`\n";
            }
        function("bool req" + std::to_string(a) + "(S& s" + ps + ")", req + "    return " + required + ";\n");
    }
    function("bool legal" + std::to_string(a) + "(S& s" + ps + ")", legal);
    std::string body = "    " + head + "\n";
    if (act.body != ir::no_id) statement(act.body, body, 1);
    function("void act" + std::to_string(a) + "(S& s" + ps + ")", body);
}

void writer::event_function(id e) {
    const ir::event& ev = rs_.events[e];
    std::vector<std::string> args;
    const std::string ps = params(ev.params.size(), &args);
    const id gi = g_.group_of_event[e];
    std::string body;
    if (gi != ir::no_id) {
        std::vector<std::pair<id, std::string>> names;
        body += "    " + applicable(gi, args, names) + "\n";
        // every applicable trigger counts when the event is emitted, before any runs
        for (const auto& [r, flag] : names)
            if (rs_.rules[r].kind == ir::rule_kind::trigger) body += "    if (" + flag + ") fire(s, " + std::to_string(r) + ");\n";
        for (const auto& [r, flag] : names)
            if (rs_.rules[r].kind == ir::rule_kind::trigger)
                body += "    if (" + flag + ") { " + call_text("rt" + std::to_string(r), args) + "; if (s.done) return; }\n";
    }
    if (body.empty()) body = "    (void)s;\n";
    function("void emit" + std::to_string(e) + "(S& s" + ps + ")", body);
}

void writer::procedure_function(id p) {
    const ir::procedure& pr = rs_.procedures[p];
    const std::string ps = params(pr.param_count);
    std::string body = "    " + locals(std::max<std::size_t>(pr.locals.size(), pr.param_count), pr.param_count) + "\n";
    if (pr.body != ir::no_id) statement(pr.body, body, 1);
    function("void proc" + std::to_string(p) + "(S& s" + ps + ")", body);
}

// A key map (ir::key_map) as code: the row or column index of key k, -1 when none.
std::string writer::key_index(id table_node, const ir::key_map& km, const std::string& k) {
    if (km.kind == ir::key_range_kind::odds) refuse(table_node, "odds tables");
    const std::string name = fresh("keys");
    write_array(consts_, "std::int32_t", name, numbers(std::vector<std::int64_t>(km.dense.begin(), km.dense.end())), "-1");
    if (km.kind == ir::key_range_kind::member)
        return "(" + k + " < 0 || " + k + " >= " + std::to_string(km.dense.size()) + " ? -1 : " + name + "[" + k + "])";
    return "(" + k + " < " + num(km.min) + " ? " + std::to_string(km.below) + " : " + k + " > " + num(km.max) + " ? " +
           std::to_string(km.above) + " : " + name + "[" + k + " - " + num(km.min) + "])";
}

// res<t> (the effects of the cell the keys give) and look<t> (its outcome).
void writer::table_functions(id t) {
    const ir::table& tb = rs_.tables[t];
    const id at = tb.keys.empty() ? ir::no_id : tb.keys[0].expr;
    // as many arguments as its uses give (the table's parameters, perhaps then keys)
    const std::size_t arity = table_arity_[t];
    const std::string ps = params(arity);
    std::string head = "    " + locals(std::max<std::size_t>(tb.locals.size(), arity), tb.param_count) + "\n";
    std::size_t a = tb.param_count;
    for (std::size_t k = 0; k < tb.keys.size() && k < 2; ++k) {
        const ir::table_key& key = tb.keys[k];
        const std::string kv = "k" + std::to_string(k);
        if (key.source == ir::key_source::key && key.var != ir::no_id && a < arity)
            head += "    l" + std::to_string(key.var) + " = a" + std::to_string(a++) + ";\n";
        const std::string value = key.source == ir::key_source::key && key.var != ir::no_id && key.expr == ir::no_id
                                      ? "l" + std::to_string(key.var)
                                      : E(key.expr);
        head += "    i64 " + kv + " = " + value + ";\n";
        if (k == 0 && !tb.natural_map.dense.empty())
            head += std::string("    const i64 natural = ") + (key.source == ir::key_source::dice ? "k0" : "s.natural") + ";\n";
        const bool odds = (k == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds;
        if (key.has_clamp && !odds) {
            const std::string lo = key.clamp_lo.open_lo ? "std::numeric_limits<i64>::min()" : num(key.clamp_lo.lo);
            const std::string hi = key.clamp_hi.open_hi ? "std::numeric_limits<i64>::max()" : num(key.clamp_hi.hi);
            head += "    " + kv + " = std::clamp(" + kv + ", " + lo + ", std::max(" + lo + ", " + hi + "));\n";
        }
    }
    const std::string pos = "where";  // the statement or expression that reads the table
    const std::string table_gap = ", \"table-gap\", " + quoted(tb.name) + ", \"\"";  // the fault's kind, subject, side
    if (tb.row_map.kind == ir::key_range_kind::odds) {
        std::vector<ir::key_range> ranges;
        for (const ir::table_row& r : tb.rows) ranges.push_back(r.key);
        head += "    const std::int32_t row = " + odds_index(tb, tb.keys.at(0), ranges, "k0", "row") + ";\n";
    } else if (!tb.natural_map.dense.empty()) {
        // a natural row decides first, whatever the modified total (interp::table_cell)
        head += "    std::int32_t row = " + key_index(at, tb.natural_map, "natural") + ";\n";
        head += "    if (row < 0) row = " + key_index(at, tb.row_map, "k0") + ";\n";
        head += "    if (row < 0) fail_fault(" + pos + ", " + quoted("no row of table " + tb.name + " for key ") + " + std::to_string(k0)" + table_gap + ");\n";
    } else {
        head += "    const std::int32_t row = " + key_index(at, tb.row_map, "k0") + ";\n";
        head += "    if (row < 0) fail_fault(" + pos + ", " + quoted("no row of table " + tb.name + " for key ") + " + std::to_string(k0)" + table_gap + ");\n";
    }
    if (!tb.columns.empty()) {
        const bool shifted = tb.keys.size() > 1 && tb.keys[1].shift != ir::no_id;
        const std::string col_decl = shifted ? "std::int32_t col = " : "const std::int32_t col = ";
        if (tb.column_map.kind == ir::key_range_kind::odds && tb.keys.size() > 1) {
            head += "    " + col_decl + odds_index(tb, tb.keys[1], tb.columns, "k1", "column") + ";\n";
        } else {
            head += "    " + col_decl + key_index(at, tb.column_map, "k1") + ";\n";
            head += "    if (col < 0) fail_fault(" + pos + ", " + quoted("no column of table " + tb.name + " for key ") + " + std::to_string(k1)" + table_gap + ");\n";
        }
        if (shifted) {
            // interp::shift_column: the column `by` places to the right; off the table, the end or an error
            const std::string last = std::to_string(tb.columns.size() - 1);
            std::string names = "static const char* const names[] = {";
            for (std::size_t c = 0; c < tb.columns.size(); ++c) names += (c ? ", " : "") + quoted(tb.columns[c].text);
            head += "    const i64 by = " + E(tb.keys[1].shift) + ";\n";
            head += "    if (by < 0 ? by < -static_cast<i64>(col) : by > " + last + " - static_cast<i64>(col)) {\n";
            if (tb.keys[1].shift_clamp)
                head += "        col = by < 0 ? 0 : " + last + ";\n";
            else
                head += "        " + names + "};\n        fail_fault(" + pos + ", " + quoted("no column of table " + tb.name + " for column ") +
                        " + std::string(names[col]) + \" shifted by \" + std::to_string(by)" + table_gap + ");\n";
            head += "    } else {\n        col = static_cast<std::int32_t>(col + by);\n    }\n";
        }
        head += "    const std::size_t cell = static_cast<std::size_t>(row) * " + std::to_string(tb.columns.size()) + " + static_cast<std::size_t>(col);\n";
    } else {
        head += "    const std::size_t cell = static_cast<std::size_t>(row);\n";
    }
    std::string res = head + "    switch (cell) {\n";
    for (std::size_t c = 0; c < tb.cells.size(); ++c) {
        if (tb.cells[c].effects == ir::no_id) continue;
        std::string effects;
        statement(tb.cells[c].effects, effects, 3);
        res += "        case " + std::to_string(c) + ": {\n" + effects + "            return;\n        }\n";
    }
    res += "        default: return;\n    }\n";
    function("void res" + std::to_string(t) + "(S& s, const char* where" + ps + ")", res);
    std::string look = head + "    static const i64 outcome[] = {";
    std::string has = "    static const bool has[] = {";
    for (std::size_t c = 0; c < tb.cells.size(); ++c) {
        look += (c ? ", " : "") + num(tb.cells[c].outcome);
        has += std::string(c ? ", " : "") + (tb.cells[c].has_outcome ? "true" : "false");
    }
    if (tb.cells.empty()) {
        look += "0";
        has += "false";
    }
    look += "};\n" + has + "};\n";
    look += "    if (!has[cell]) fail(" + pos + ", " + quoted("table " + tb.name + " gives no outcome here") + ");\n";
    look += "    return outcome[cell];\n";
    function("i64 look" + std::to_string(t) + "(S& s, const char* where" + ps + ")", look);
}

}  // namespace wp::codegen
