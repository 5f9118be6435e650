// Pass `card_events` (after patch, before resolve): a card's event (docs/language.md, "Events on
// cards") becomes declarations the later passes already know, so that every consumer plays it
// as it plays any procedure:
// - a procedure `c19.event(p: player)` holding the event's block;
// - for a lasting event, a Boolean state value `c19.in_force` (false at the start);
// - per card kind with events, a procedure `card.play_event(card, player)` that, for the card
//   played, sets its event in force (a lasting one) and runs its block;
// - after every `turn` block (and `phase` block), statements that end the events lasting it.
// The names hold a dot, which no declared name can, so they never clash with the designer's.
// Typecheck reads the plan for `play event of`, `cancel event of` and `in_force`; lower builds
// the IR's table of card events, the `during` rules and the precedence from it.
#include "westphalia/compiler/passes.hpp"

#include <map>
#include <set>

namespace wp::compiler {

namespace {

dsl::expr name_of(const std::string& text, const dsl::span& at) {
    dsl::expr e;
    e.kind = dsl::expr_kind::name;
    e.text = text;
    e.where = at;
    return e;
}

dsl::expr boolean(bool v, const dsl::span& at) {
    dsl::expr e;
    e.kind = dsl::expr_kind::boolean;
    e.value = v ? 1 : 0;
    e.where = at;
    return e;
}

dsl::stmt assign(const std::string& slot, bool v, const dsl::span& at) {
    dsl::stmt s;
    s.kind = dsl::stmt_kind::assign;
    s.where = at;
    s.word = "=";
    s.exprs = {name_of(slot, at), boolean(v, at)};
    return s;
}

// `if flag { flag = false; }`: the account then says only that an event in force ended.
dsl::stmt end_if_in_force(const std::string& flag, const dsl::span& at) {
    dsl::stmt s;
    s.kind = dsl::stmt_kind::if_else;
    s.where = at;
    s.exprs = {name_of(flag, at)};
    s.body = {assign(flag, false, at)};
    return s;
}

struct planner {
    patched_ruleset& out;
    dsl::diagnostic_sink& sink;
    std::map<std::string, std::string> kind_of_card;  // card name -> its `cards` kind
    std::map<std::string, const dsl::event_decl*> seen;

    void cards() {
        for (const placed_decl& p : out.decls)
            if (const auto* e = std::get_if<dsl::entities_decl>(&p.d->node))
                for (const dsl::entity_entry& x : e->entries)
                    if (!e->pieces) kind_of_card.emplace(x.id.text, e->id.text);
    }

    bool is_piece(const std::string& name) const {
        for (const placed_decl& p : out.decls)
            if (const auto* e = std::get_if<dsl::entities_decl>(&p.d->node))
                if (e->pieces)
                    for (const dsl::entity_entry& x : e->entries)
                        if (x.id.text == name) return true;
        return false;
    }

    void plan() {
        for (const placed_decl& p : out.decls) {
            const auto* e = std::get_if<dsl::event_decl>(&p.d->node);
            if (!e) continue;
            if (e->outrank) {
                if (out.outrank) {
                    sink.error(dsl::diag_kind::duplicate_name, e->where, "a second `events outrank rules`",
                               {{out.outrank->where, "the first is here"}});
                    continue;
                }
                out.outrank = e;
                out.outrank_layer = p.layer;
                continue;
            }
            if (!e->of_card) continue;
            const auto k = kind_of_card.find(e->id.text);
            if (k == kind_of_card.end()) {
                if (is_piece(e->id.text))
                    sink.error(dsl::diag_kind::type_mismatch, e->id.where,
                               "`" + e->id.text + "` is a piece: only a card (of a `cards` list) has an event");
                else
                    sink.error(dsl::diag_kind::unknown_name, e->id.where, "no card is named `" + e->id.text + "`");
                continue;
            }
            if (auto [it, fresh] = seen.emplace(e->id.text, e); !fresh) {
                sink.error(dsl::diag_kind::duplicate_name, e->id.where, "card `" + e->id.text + "` has a second event",
                           {{it->second->id.where, "the first is here"}});
                continue;
            }
            card_event_plan c;
            c.decl = e;
            c.layer = p.layer;
            c.kind = k->second;
            c.procedure = e->id.text + ".event";
            if (e->until_cancelled || !e->lasts.empty()) c.flag = e->id.text + ".in_force";
            out.card_events.push_back(std::move(c));
        }
    }

    void own(const dsl::decl& d, std::uint32_t layer) {
        out.owned.push_back(std::make_unique<dsl::decl>(d));
        placed_decl p;
        p.d = out.owned.back().get();
        p.layer = p.origin_layer = p.text_layer = layer;
        out.decls.push_back(std::move(p));
    }

    void declarations() {
        // the in-force values, one state block
        dsl::state_decl st;
        std::uint32_t st_layer = 0;
        for (const card_event_plan& c : out.card_events) {
            if (c.flag.empty()) continue;
            dsl::field_decl f;
            f.id = {c.flag, c.decl->id.where};
            f.type.kind = dsl::type_kind::named;
            f.type.where = c.decl->id.where;
            f.type.id = {"bool", c.decl->id.where};
            f.init = boolean(false, c.decl->id.where);
            f.anchors = c.decl->anchors;
            f.where = c.decl->where;
            if (st.fields.empty()) {
                st.where = c.decl->where;
                st_layer = c.layer;
            }
            st.fields.push_back(std::move(f));
        }
        if (!st.fields.empty()) own(dsl::decl{std::move(st)}, st_layer);
        // each event's block
        for (const card_event_plan& c : out.card_events) {
            dsl::procedure_decl pr;
            pr.id = {c.procedure, c.decl->id.where};
            dsl::param by;
            by.id = c.decl->player ? *c.decl->player : dsl::name{"$by", c.decl->id.where};
            by.type.kind = dsl::type_kind::named;
            by.type.where = by.id.where;
            by.type.id = {"player", by.id.where};
            pr.params.push_back(std::move(by));
            pr.anchors = c.decl->anchors;
            pr.body = c.decl->body;
            pr.where = c.decl->where;
            own(dsl::decl{std::move(pr)}, c.layer);
        }
        // one dispatcher per card kind
        std::map<std::string, std::vector<const card_event_plan*>> by_kind;
        for (const card_event_plan& c : out.card_events) by_kind[c.kind].push_back(&c);
        for (const auto& [kind, events] : by_kind) {
            const dsl::span at = events.front()->decl->where;
            dsl::procedure_decl pr;
            pr.id = {kind + ".play_event", at};
            dsl::param card, by;
            card.id = {"$card", at};
            card.type.kind = dsl::type_kind::named;
            card.type.where = at;
            card.type.id = {kind, at};
            by.id = {"$by", at};
            by.type.kind = dsl::type_kind::named;
            by.type.where = at;
            by.type.id = {"player", at};
            pr.params = {card, by};
            pr.where = at;
            for (const card_event_plan* c : events) {
                const dsl::span w = c->decl->id.where;
                dsl::stmt s;
                s.kind = dsl::stmt_kind::if_else;
                s.where = w;
                dsl::expr test;
                test.kind = dsl::expr_kind::binary;
                test.text = "==";
                test.where = w;
                test.args = {name_of("$card", w), name_of(c->decl->id.text, w)};
                test.height = 2;
                s.exprs = {std::move(test)};
                if (!c->flag.empty()) s.body.push_back(assign(c->flag, true, w));
                dsl::stmt call;
                call.kind = dsl::stmt_kind::call;
                call.where = w;
                call.id = {c->procedure, w};
                call.exprs = {name_of("$by", w)};
                s.body.push_back(std::move(call));
                pr.body.push_back(std::move(s));
            }
            out.event_dispatchers[kind] = pr.id.text;
            own(dsl::decl{std::move(pr)}, events.front()->layer);
        }
    }

    // After each `turn` block, end the events lasting a turn or a phase; after each `phase`
    // block, those lasting a phase.
    std::vector<std::string> turn_flags, phase_flags;

    bool expire(std::vector<dsl::stmt>& body) {
        bool changed = false;
        for (std::size_t i = 0; i < body.size(); ++i) {
            dsl::stmt& s = body[i];
            changed = expire(s.body) || changed;
            changed = expire(s.else_body) || changed;
            if (s.kind != dsl::stmt_kind::block || (s.word != "turn" && s.word != "phase")) continue;
            const std::vector<std::string>& flags = s.word == "turn" ? turn_flags : phase_flags;
            if (flags.empty()) continue;
            std::vector<dsl::stmt> ends;
            for (const std::string& f : flags) ends.push_back(end_if_in_force(f, s.where));
            body.insert(body.begin() + static_cast<std::ptrdiff_t>(i) + 1, ends.begin(), ends.end());
            i += ends.size();
            changed = true;
        }
        return changed;
    }

    void expiries() {
        for (const card_event_plan& c : out.card_events) {
            if (c.decl->lasts == "turn" || c.decl->lasts == "phase") turn_flags.push_back(c.flag);
            if (c.decl->lasts == "phase") phase_flags.push_back(c.flag);
        }
        if (turn_flags.empty()) return;
        const std::size_t n = out.decls.size();
        for (std::size_t i = 0; i < n; ++i) {
            placed_decl& p = out.decls[i];
            const bool seq = std::holds_alternative<dsl::sequence_decl>(p.d->node);
            if (!seq && !std::holds_alternative<dsl::procedure_decl>(p.d->node)) continue;
            auto copy = std::make_unique<dsl::decl>(*p.d);
            std::vector<dsl::stmt>& body = seq ? std::get<dsl::sequence_decl>(copy->node).body
                                               : std::get<dsl::procedure_decl>(copy->node).body;
            if (!expire(body)) continue;
            const dsl::decl* old = p.d;
            out.owned.push_back(std::move(copy));
            p.d = out.owned.back().get();
            for (applied_errata& a : out.errata)
                if (a.result == old) a.result = p.d;
        }
    }
};

}  // namespace

const card_event_plan* card_event_of(const patched_ruleset& p, const std::string& card) {
    for (const card_event_plan& c : p.card_events)
        if (c.decl->id.text == card) return &c;
    return nullptr;
}

void plan_card_events(patched_ruleset& out, dsl::diagnostic_sink& sink) {
    planner pl{out, sink, {}, {}, {}, {}};
    pl.cards();
    pl.plan();
    if (out.card_events.empty()) return;
    pl.declarations();
    pl.expiries();
}

}  // namespace wp::compiler
