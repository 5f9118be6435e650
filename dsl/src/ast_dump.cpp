// dump(): the syntax tree as indented text, one node per line (expressions and types are
// written inline as s-expressions on their owner's line). Deterministic; used by
// `westphalia parse` and the syntax golden tests.
#include "westphalia/dsl/ast_dump.hpp"

#include <string>
#include <type_traits>

namespace wp::dsl {

namespace {

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    out.push_back('"');
    return out;
}

std::string anchor_text(const anchor& a) { return "§" + a.first + (a.last.empty() ? "" : "-" + a.last); }

std::string anchors_text(const anchor_list& as) {
    std::string out;
    for (const auto& a : as) out += " " + anchor_text(a);
    return out;
}

std::string expr_text(const expr& e);

std::string join_args(const std::vector<expr>& args, std::size_t from = 0, std::size_t count = std::string::npos) {
    std::string out;
    for (std::size_t i = from; i < args.size() && i - from < count; ++i) out += " " + expr_text(args[i]);
    return out;
}

std::string expr_text(const expr& e) {
    switch (e.kind) {
        case expr_kind::none: return "_";
        case expr_kind::integer: return std::to_string(e.value);
        case expr_kind::boolean: return e.value ? "true" : "false";
        case expr_kind::string: return quote(e.text);
        case expr_kind::dice:
            if (e.dice.low == 1) return std::to_string(e.dice.count) + "d" + std::to_string(e.dice.high);
            return std::to_string(e.dice.count) + "d[" + std::to_string(e.dice.low) + ".." +
                   std::to_string(e.dice.high) + "]";
        case expr_kind::name: return e.text;
        case expr_kind::option_ref: return "option." + e.text;
        case expr_kind::member: return "(." + join_args(e.args) + " " + e.text + ")";
        case expr_kind::index: return "([]" + join_args(e.args) + ")";
        case expr_kind::call: return "(call " + e.text + join_args(e.args) + ")";
        case expr_kind::roll: return "(roll " + e.text + join_args(e.args) + ")";
        case expr_kind::unary:
        case expr_kind::binary: return "(" + e.text + join_args(e.args) + ")";
        case expr_kind::conditional: return "(if" + join_args(e.args) + ")";
        case expr_kind::aggregate:
            return "(" + e.text + " " + e.binder.text + (e.args.empty() ? "" : " " + expr_text(e.args[0])) +
                   (e.args.size() < 2 ? "" : " : " + expr_text(e.args[1])) + ")";
        case expr_kind::range: return "(.." + join_args(e.args) + ")";
        case expr_kind::dice_count: return "(dice " + e.text + join_args(e.args) + ")";
    }
    return "?";
}

std::string type_text(const type_expr& t) {
    switch (t.kind) {
        case type_kind::named: return t.id.text;
        case type_kind::range: {
            std::string s = std::to_string(t.lo) + ".." + std::to_string(t.hi);
            if (t.policy == overflow_policy::clamp) s += " clamp";
            if (t.policy == overflow_policy::error) s += " error";
            return s;
        }
        case type_kind::map_of:
            return "(" + (t.args.size() > 0 ? type_text(t.args[0]) : "?") + " -> " +
                   (t.args.size() > 1 ? type_text(t.args[1]) : "?") + ")";
        case type_kind::list_of: return "(list of " + (t.args.empty() ? "?" : type_text(t.args[0])) + ")";
        case type_kind::flag: return "flag";
        case type_kind::counter: return "counter";
    }
    return "?";
}

std::string params_text(const std::vector<param>& ps) {
    std::string out = "(";
    for (std::size_t i = 0; i < ps.size(); ++i) {
        if (i) out += ", ";
        out += ps[i].id.text + ": " + type_text(ps[i].type);
    }
    return out + ")";
}

std::string names_text(const std::vector<name>& ns, const char* sep = ", ") {
    std::string out;
    for (std::size_t i = 0; i < ns.size(); ++i) out += (i ? sep : "") + ns[i].text;
    return out;
}

const char* stmt_kind_name(stmt_kind k) {
    switch (k) {
        case stmt_kind::block: return "block";
        case stmt_kind::let: return "let";
        case stmt_kind::assign: return "assign";
        case stmt_kind::if_else: return "if";
        case stmt_kind::for_each: return "for-each";
        case stmt_kind::repeat_until: return "repeat-until";
        case stmt_kind::while_loop: return "while";
        case stmt_kind::shuffle: return "shuffle";
        case stmt_kind::draw: return "draw";
        case stmt_kind::deal: return "deal";
        case stmt_kind::move: return "move";
        case stmt_kind::reshuffle: return "reshuffle";
        case stmt_kind::choose: return "choose";
        case stmt_kind::may: return "may";
        case stmt_kind::do_action: return "do";
        case stmt_kind::resolve: return "resolve";
        case stmt_kind::emit: return "emit";
        case stmt_kind::call: return "call";
        case stmt_kind::end_game: return "end-game";
        case stmt_kind::end_turn: return "end-turn";
        case stmt_kind::play_event: return "play-event";
        case stmt_kind::cancel_event: return "cancel-event";
        case stmt_kind::simultaneous: return "simultaneous";
        case stmt_kind::reveal: return "reveal";
        case stmt_kind::move_all: return "move-all";
    }
    return "?";
}

const char* key_kind_name(key_kind k) {
    switch (k) {
        case key_kind::exact: return "exact";
        case key_kind::range: return "range";
        case key_kind::at_least: return "at-least";
        case key_kind::at_most: return "at-most";
        case key_kind::odds: return "odds";
        case key_kind::value: return "value";
    }
    return "?";
}

const char* rule_kind_name(rule_kind k) {
    switch (k) {
        case rule_kind::modifier: return "modifier";
        case rule_kind::define: return "define";
        case rule_kind::forbid: return "forbid";
        case rule_kind::permit: return "permit";
        case rule_kind::require: return "require";
        case rule_kind::trigger: return "trigger";
        case rule_kind::invariant: return "invariant";
        case rule_kind::example: return "example";
        case rule_kind::assert_always: return "assert always";
        case rule_kind::assert_never: return "assert never";
        case rule_kind::reachable: return "reachable";
        case rule_kind::chances: return "chances";
    }
    return "?";
}

const char* errata_op_name(errata_op_kind k) {
    switch (k) {
        case errata_op_kind::replace: return "replace";
        case errata_op_kind::refine: return "refine";
        case errata_op_kind::except: return "except";
        case errata_op_kind::withdraw: return "withdraw";
        case errata_op_kind::amend: return "amend";
        case errata_op_kind::add: return "add";
        case errata_op_kind::replace_block: return "replace-block";
        case errata_op_kind::insert_block: return "insert-block";
    }
    return "?";
}

class dumper {
public:
    dumper(std::ostream& out, const source_manager& sources) : out_(out), sources_(sources) {}

    void file(const wp::dsl::file& f) {
        line(0, "file " + sources_.get(f.id).path);
        for (const auto& d : f.decls) decl(1, d);
    }

private:
    std::ostream& out_;
    const source_manager& sources_;

    void line(int depth, const std::string& text) { out_ << std::string(static_cast<std::size_t>(depth) * 2, ' ') << text << '\n'; }

    std::string at(const span& s) const {
        const line_col lc = sources_.position(s.file, s.begin);
        return " @" + std::to_string(lc.line) + ":" + std::to_string(lc.column);
    }

    void body(int depth, const std::vector<stmt>& ss) {
        for (const auto& s : ss) statement(depth, s);
    }

    void statement(int d, const stmt& s) {
        std::string head = stmt_kind_name(s.kind);
        switch (s.kind) {
            case stmt_kind::block:
                head += " " + s.word + (s.id.text.empty() ? "" : " " + s.id.text) + anchors_text(s.anchors) +
                        (s.exprs.empty() ? "" : " numbered " + expr_text(s.exprs[0])) +
                        (s.aid.empty() ? "" : " aid " + quote(s.aid));
                break;
            case stmt_kind::let: head += " " + s.id.text + " =" + join_args(s.exprs); break;
            case stmt_kind::assign:
                head += " " + (s.exprs.empty() ? "?" : expr_text(s.exprs[0])) + " " + s.word + join_args(s.exprs, 1);
                break;
            case stmt_kind::for_each:
                head += " " + s.id.text + " in" + join_args(s.exprs, 0, 1);
                if (s.exprs.size() > 1) head += " from " + expr_text(s.exprs[1]);
                break;
            case stmt_kind::choose:
                head += " " + s.word + " " + s.id.text + " in" + join_args(s.exprs, 0, 1);
                if (s.exprs.size() > 1 && s.exprs[1].kind != expr_kind::none) head += " by " + expr_text(s.exprs[1]);
                if (s.exprs.size() > 2 && s.exprs[2].kind != expr_kind::none) head += " where " + expr_text(s.exprs[2]);
                if (s.exprs.size() > 3 && !s.goal.empty()) head += " " + s.goal + " " + expr_text(s.exprs[3]);
                break;
            case stmt_kind::may:
                if (!s.exprs.empty() && s.exprs[0].kind != expr_kind::none) head += " by " + expr_text(s.exprs[0]);
                head += " " + quote(s.word);
                break;
            case stmt_kind::draw:
            case stmt_kind::deal:
            case stmt_kind::move:
                head += join_args(s.exprs, 0, 1) + " from" + join_args(s.exprs, 1, 1) + " to" + join_args(s.exprs, 2, 1);
                break;
            case stmt_kind::reshuffle: head += join_args(s.exprs, 0, 1) + " into" + join_args(s.exprs, 1, 1); break;
            case stmt_kind::move_all: head += " from" + join_args(s.exprs, 0, 1) + " to" + join_args(s.exprs, 1, 1); break;
            case stmt_kind::do_action:
            case stmt_kind::resolve:
            case stmt_kind::emit:
            case stmt_kind::call: head += " " + s.id.text + join_args(s.exprs); break;
            case stmt_kind::simultaneous: head += anchors_text(s.anchors); break;
            case stmt_kind::end_game: head += " " + s.id.text + (s.word.empty() ? "" : " at end of " + s.word); break;
            default: head += join_args(s.exprs); break;
        }
        line(d, head + at(s.where));
        body(d + 1, s.body);
        if (!s.else_body.empty()) {
            line(d, "else");
            body(d + 1, s.else_body);
        }
    }

    void fields(int d, const std::vector<field_decl>& fs) {
        for (const auto& f : fs) {
            std::string hid = f.hidden ? "hidden " : "";
            if (f.hidden_by) hid += "by " + f.hidden_by->text + " ";
            if (f.hidden_if) hid += "if option." + f.hidden_if->text + " ";
            if (f.hidden_unless) hid += "unless " + f.hidden_unless->text + " ";
            line(d, hid + "field " + f.id.text + ": " + type_text(f.type) + (f.init ? " = " + expr_text(*f.init) : "") +
                        anchors_text(f.anchors));
        }
    }

    void values(int d, const std::vector<field_value>& vs) {
        for (const auto& v : vs) line(d, "value " + v.field.text + " = " + expr_text(v.value) + marks_text(v.marks));
    }

    std::string marks_text(const std::vector<data_mark>& ms) const {
        std::string s;
        for (const auto& m : ms) s += std::string(m.missing ? " missing " : " standin ") + quote(m.why);
        return s;
    }

    void aid(int d, const std::optional<std::string>& a) {
        if (a) line(d, "aid " + quote(*a));
    }

    std::string key_text(const key_range& k) const { return std::string(key_kind_name(k.kind)) + " " + k.text; }

    void row(int d, const table_row& r) {
        line(d, "row " + std::string(r.natural ? "natural " : "") + key_text(r.key) + (r.label ? " " + quote(*r.label) : "") + anchors_text(r.anchors) + at(r.where));
        for (const auto& c : r.cells) {
            line(d + 1, "cell" + (c.outcome ? " " + expr_text(*c.outcome) : std::string()) + at(c.where));
            body(d + 2, c.effects);
        }
    }

    void decl(int d, const wp::dsl::decl& dd) {
        std::visit([&](const auto& n) { node(d, n); }, dd.node);
    }

    void node(int d, const ruleset_decl& n) {
        line(d, "ruleset " + n.id.text + " " + quote(n.title) + at(n.where));
        line(d + 1, "source " + quote(n.source) + " sha256 " + quote(n.sha256));
        line(d + 1, "players " + std::to_string(n.min_players) + ".." + std::to_string(n.max_players));
        line(d + 1, "outline " + quote(n.outline));
        for (const auto& l : n.layers) {
            std::string files;
            for (const auto& f : l.files) files += " " + quote(f.text);
            std::string after;
            for (const auto& a : l.after) after += (after.empty() ? " after " : ", ") + a.text;
            line(d + 1, "layer " + l.id.text + " : " + l.kind.text + after + files);
        }
    }
    void node(int d, const outline_decl& n) {
        line(d, "outline" + at(n.where));
        for (const auto& e : n.entries) line(d + 1, anchor_text(e.section) + " " + quote(e.title) + " " + e.status.text);
    }
    void node(int d, const enum_decl& n) {
        line(d, "enum " + n.id.text + anchors_text(n.anchors) + at(n.where));
        for (const auto& m : n.members) line(d + 1, "member " + m.id.text + (m.label ? " " + quote(*m.label) : ""));
        aid(d + 1, n.aid);
    }
    void node(int d, const type_decl& n) {
        line(d, "type " + n.id.text + anchors_text(n.anchors) + " = " + type_text(n.type) + at(n.where));
    }
    void node(int d, const record_decl& n) {
        line(d, "record " + n.id.text + anchors_text(n.anchors) + at(n.where));
        fields(d + 1, n.fields);
    }
    void node(int d, const state_decl& n) {
        line(d, "state" + (n.per ? " per " + n.per->text : std::string()) + anchors_text(n.anchors) + at(n.where));
        fields(d + 1, n.fields);
    }
    void node(int d, const entities_decl& n) {
        line(d, std::string(n.pieces ? "pieces " : "cards ") + n.id.text + " of " + n.record.text + anchors_text(n.anchors) +
                    (n.standin ? " standin " + quote(*n.standin) : "") + at(n.where));
        for (const auto& e : n.entries) {
            line(d + 1, "entry " + e.id.text + " " + quote(e.display) + marks_text(e.marks) + " x" +
                            std::to_string(e.count) + anchors_text(e.anchors) +
                            (e.late_marks.empty() ? "" : " late" + marks_text(e.late_marks)));
            values(d + 2, e.values);
        }
    }
    void node(int d, const zone_decl& n) {
        const char* vis = n.vis == visibility::hidden ? "hidden" : n.vis == visibility::owner ? "owner" : "public";
        line(d, "zone " + n.id.text + (n.per_player ? " per-player" : "") +
                    (n.per ? " per-" + n.per->text : std::string()) + (n.ordered ? " ordered" : "") + " " + vis +
                    " of " + n.of.text + anchors_text(n.anchors) + at(n.where));
    }
    void node(int d, const map_decl& n) {
        line(d, "map " + n.id.text + " : " + n.kind.text + anchors_text(n.anchors) +
                    (n.standin ? " standin " + quote(*n.standin) : "") + at(n.where));
        for (const auto& m : n.nodes) {
            line(d + 1, "node " + m.id.text + (m.display.empty() ? "" : " " + quote(m.display)) +
                            (m.terrain ? " : " + m.terrain->text : ""));
            values(d + 2, m.values);
        }
        for (const auto& e : n.edges) {
            line(d + 1, "edge " + e.a.text + (e.directed ? " -> " : " -- ") + e.b.text + " : " + names_text(e.kinds));
        }
    }
    void node(int d, const roll_decl& n) {
        line(d, "roll " + n.id.text + params_text(n.params) + anchors_text(n.anchors) + " = " + expr_text(n.dice) +
                    at(n.where));
        aid(d + 1, n.aid);
    }
    void node(int d, const derived_decl& n) {
        line(d, std::string(n.predicate ? "predicate " : "quantity ") + n.id.text + params_text(n.params) +
                    anchors_text(n.anchors) + (n.result ? " : " + type_text(*n.result) : "") + " = " +
                    expr_text(n.value) + at(n.where));
        aid(d + 1, n.aid);
    }
    void node(int d, const decision_decl& n) {
        line(d, "decision " + n.id.text + params_text(n.params) + " : " + type_text(n.result) + (n.total ? " total" : "") +
                    anchors_text(n.anchors) + at(n.where));
    }
    void node(int d, const action_decl& n) {
        line(d, "action " + n.id.text + params_text(n.params) + anchors_text(n.anchors) +
                    (n.guard ? " when " + expr_text(*n.guard) : "") + at(n.where));
        body(d + 1, n.body);
        aid(d + 1, n.aid);
    }
    void node(int d, const event_decl& n) {
        if (n.outrank) {
            line(d, "events outrank rules" + anchors_text(n.anchors) + (n.names.empty() ? "" : " except " + names_text(n.names)) +
                        at(n.where));
            return;
        }
        if (!n.of_card) {
            line(d, "event " + n.id.text + params_text(n.params) + anchors_text(n.anchors) + at(n.where));
            return;
        }
        std::string s = "event of " + n.id.text + (n.title ? " " + quote(*n.title) : "") + anchors_text(n.anchors);
        if (n.player) s += " by " + n.player->text;
        if (n.until_cancelled) s += " lasts until cancelled";
        else if (!n.lasts.empty()) s += " lasts " + n.lasts;
        if (!n.names.empty()) s += " lifts " + names_text(n.names);
        line(d, s + at(n.where));
        body(d + 1, n.body);
        aid(d + 1, n.aid);
    }
    void node(int d, const procedure_decl& n) {
        line(d, "procedure " + n.id.text + params_text(n.params) + anchors_text(n.anchors) + at(n.where));
        body(d + 1, n.body);
        aid(d + 1, n.aid);
    }
    void node(int d, const sequence_decl& n) {
        line(d, "sequence " + n.id.text + anchors_text(n.anchors) + at(n.where));
        body(d + 1, n.body);
    }
    void node(int d, const option_decl& n) {
        std::string vals;
        if (n.is_bool) vals = "bool";
        for (std::size_t i = 0; i < n.values.size(); ++i) vals += (i ? " | " : "") + expr_text(n.values[i]);
        line(d, "option " + n.id.text + anchors_text(n.anchors) + " : " + vals + " = " + expr_text(n.default_value) +
                    at(n.where));
        aid(d + 1, n.aid);
    }
    void node(int d, const missing_decl& n) {
        line(d, "missing " + n.id.text + anchors_text(n.anchors) + " " + quote(n.what) + at(n.where));
    }
    void node(int d, const accept_decl& n) {
        line(d, "accept " + n.kind.text + " " + quote(n.subject) + (n.side.text.empty() ? "" : " " + n.side.text) +
                    (n.upto ? " upto " + n.upto->text : "") + (n.if_option ? " if option." + n.if_option->text : "") + anchors_text(n.anchors) + " " + quote(n.reason) + at(n.where));
    }
    void node(int d, const table_decl& n) {
        line(d, "table " + n.id.text + params_text(n.params) + anchors_text(n.anchors) +
                    (n.printing_of ? " printing of " + n.printing_of->text : "") + (n.standin ? " standin " + quote(*n.standin) : "") + at(n.where));
        for (const auto& k : n.keys) {
            std::string s = "key ";
            switch (k.kind) {
                case table_key_kind::roll: s += "roll " + expr_text(k.source); break;
                case table_key_kind::dice: s += "dice " + expr_text(k.source); break;
                case table_key_kind::key:
                    s += k.var.text.empty() ? expr_text(k.source) : k.var.text + ": " + (k.type ? type_text(*k.type) : "?");
                    break;
            }
            if (k.rounding) s += " round " + k.rounding->text;
            if (k.clamp_lo || k.clamp_hi) s += " clamp " + k.clamp_lo.value_or("") + ".." + k.clamp_hi.value_or("");
            if (k.shift) s += " shift " + expr_text(*k.shift) + (k.shift_clamp ? " clamp" : "");
            line(d + 1, s);
        }
        if (!n.columns.empty()) {
            std::string s = "columns";
            for (const auto& c : n.columns) s += " " + key_text(c) + ";";
            s.pop_back();
            line(d + 1, s);
        }
        for (const auto& r : n.rows) row(d + 1, r);
        aid(d + 1, n.aid);
    }
    void node(int d, const rule_decl& n) {
        std::string s = std::string(rule_kind_name(n.kind)) + " " + n.id.text +
                        (n.kind == rule_kind::chances ? params_text(n.params) : "") + anchors_text(n.anchors);
        if (!n.overrides.empty()) s += " overrides " + names_text(n.overrides);
        if (n.during) s += " during " + n.during->text;
        line(d, s + at(n.where));
        if (!n.target.text.empty()) line(d + 1, "target " + n.target.text + "(" + names_text(n.target_args) + ")");
        if (n.kind == rule_kind::modifier)
            line(d + 1, std::string(n.mod == modifier_kind::set        ? "set "
                                    : n.mod == modifier_kind::at_most  ? "at most "
                                    : n.mod == modifier_kind::at_least ? "at least "
                                                                       : "amount ") +
                            expr_text(n.amount));
        if (n.kind == rule_kind::define || n.kind == rule_kind::invariant || n.kind == rule_kind::assert_always ||
            n.kind == rule_kind::assert_never || n.kind == rule_kind::reachable)
            line(d + 1, "value " + expr_text(n.value));
        if (n.guard) line(d + 1, "when " + expr_text(*n.guard));
        if (n.kind == rule_kind::example || n.kind == rule_kind::chances) line(d + 1, "given");
        body(d + 2 - (n.kind == rule_kind::trigger ? 1 : 0), n.body);
        if (n.kind == rule_kind::example) line(d + 1, "expect " + expr_text(n.value));
        if (n.kind == rule_kind::chances) line(d + 1, "chance " + expr_text(n.value));
        aid(d + 1, n.aid);
    }
    void node(int d, const errata_decl& n) {
        const char* k = n.kind == errata_kind::correction      ? "correction"
                        : n.kind == errata_kind::clarification ? "clarification"
                                                               : "addition";
        line(d, std::string("errata ") + k + " " + quote(n.title) + anchors_text(n.anchors) + at(n.where));
        for (const auto& op : n.ops) {
            line(d + 1, std::string(errata_op_name(op.kind)) + (op.position.empty() ? "" : " " + op.position) +
                            (op.block_word.empty() ? "" : " " + op.block_word) +
                            (op.decl_word.empty() ? "" : " " + op.decl_word) +
                            (op.target.text.empty() ? "" : " " + op.target.text) + anchors_text(op.anchors) +
                            (op.guard ? " when " + expr_text(*op.guard) : "") + at(op.where));
            body(d + 2, op.block);
            for (const auto& r : op.replacement) decl(d + 2, r);
            if (op.row) row(d + 2, *op.row);
        }
    }
};

}  // namespace

void dump(std::ostream& out, const file& f, const source_manager& sources) { dumper(out, sources).file(f); }

}  // namespace wp::dsl
