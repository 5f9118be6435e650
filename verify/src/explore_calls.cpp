// Running bodies: calls of actions, procedures and triggers, tables, card events; summaries of
// activations past the unrolling depth; phases' starts and the paths an `end turn` took.
#include "explore_impl.hpp"
#include "terms.hpp"

#include <unordered_set>

namespace wp::verify::detail {

namespace {

constexpr int max_depth = 24;

}  // namespace

// Joins path q (which ended the turn at `at`) into p (which ran it to its end); both went on
// from the turn's start, with facts `base` and condition `base_pc` and call depth `depth`.
// A fresh Boolean says which way was taken, so either path's state is kept exactly.
void exec_impl::join_turn_end(path& p, path& q, const fact_list& base, const z3::expr& base_pc, int depth, id turn) {
    if (q.dead) return;
    if (p.dead) {
        p = std::move(q);
        p.depth = depth;
        return;
    }
    z3::expr ended = ctx.bool_const(("turn_ended" + std::to_string(turn) + "_" + std::to_string(S.variables.size())).c_str());
    S.variables.push_back({ended, "whether the turn at " + at(turn) + " ended at once", variable::show::boolean, ir::no_id, 0});
    const z3::expr T = since(p.facts, base);
    const z3::expr F = since(q.facts, base);
    for (std::size_t i = 0; i < p.st.values.size(); ++i)
        if (!z3::eq(p.st.values[i], q.st.values[i])) p.st.values[i] = z3::ite(ended, q.st.values[i], p.st.values[i]);
    for (std::size_t i = 0; i < p.st.loc.size(); ++i)
        if (!z3::eq(p.st.loc[i], q.st.loc[i])) p.st.loc[i] = z3::ite(ended, q.st.loc[i], p.st.loc[i]);
    const z3::expr either = (ended && F) || (!ended && T);
    p.facts = std::make_shared<const fact_node>(fact_node{{either, "the turn at " + at(turn) + " ran to its end or ended at once"}, base});
    p.pc = base_pc && either;
    p.from_setup = p.from_setup && q.from_setup;
    p.depth = depth;
}

// Any arguments of their types (a deeper activation's own), for the summary's run.
std::vector<z3::expr> exec_impl::any_arguments(const std::vector<ir::local>& locals, std::size_t count, path& p, id n) {
    std::vector<z3::expr> out;
    for (std::size_t i = 0; i < count && i < locals.size(); ++i) {
        const ir::local& l = locals[i];
        z3::expr v = S.fresh(l.name, l.type, "`" + l.name + "` in a call past the unrolling depth at " + at(n),
                             variable::show::value, 0);
        add_fact(p, S.in_local_type(v, l.type), "the range of `" + l.name + "` in a call past the unrolling depth at " + at(n));
        out.push_back(v);
    }
    return out;
}

// The summary of body `key`'s activations past the unrolling depth (once per body): `run_it`
// runs it on a path that starts from any state the domain allows (`start`, when the caller
// shares one among several summaries), marked as an approximation; its own recursive calls
// there only forget.
void exec_impl::summary(id key, id n, const path& from, const std::string& what, const std::function<void(path&)>& run_it,
                        bool recursion, const path* start) {
    if (!summarised_.insert(key).second) return;
    if (recursion) S.recursion_summarised.insert(what);
    else S.events_summarised.insert(what);
    path q = start ? *start
                   : any_state(from, " (in " + std::string(recursion ? "a call of " : "") + what +
                                         (recursion ? " past the unrolling depth)" : ", summarised once)"));
    const std::string text = recursion ? "recursion past depth " + std::to_string(S.unroll_depth) + " (" + what + ", first at " + at(n) + ")"
                                       : what + " summarised once (first played at " + at(n) + ")";
    const z3::expr marker = S.fresh("deep", ir::no_id, "~ " + text, variable::show::value, 0);
    S.variables.back().approximate = true;
    add_fact(q, marker == S.num(0), "a call of " + what + " past the unrolling depth");
    const int saved = active_[key];
    active_[key] = S.unroll_depth + 2;  // inside: every recursive call only forgets
    const std::size_t sizes[] = {S.rule_sites.size(),  S.table_sites.size(), S.bound_sites.size(), S.choice_sites.size(),
                                 S.block_sites.size(), S.end_sites.size(),   S.invariant_sites.size(),
                                 S.branch_sites.size(), S.effect_sites.size(), S.obligation_sites.size()};
    turn_ends_.push_back(nullptr);
    run_it(q);
    turn_ends_.pop_back();
    active_[key] = saved;
    // what the summary met rests on it: the checks ask about the other places first
    auto mark = [](auto& sites, std::size_t from) {
        for (std::size_t i = from; i < sites.size(); ++i) sites[i].summarised = true;
    };
    mark(S.rule_sites, sizes[0]);
    mark(S.table_sites, sizes[1]);
    mark(S.bound_sites, sizes[2]);
    mark(S.choice_sites, sizes[3]);
    mark(S.block_sites, sizes[4]);
    mark(S.end_sites, sizes[5]);
    mark(S.invariant_sites, sizes[6]);
    mark(S.branch_sites, sizes[7]);
    mark(S.effect_sites, sizes[8]);
    mark(S.obligation_sites, sizes[9]);
}

// `play event of c by p` (a call of a card kind's dispatcher; docs/language.md, "Events on
// cards"): each event of the kind is summarised once, run from any state the domain allows
// with any player; here the play forgets what any of them may write, and the event of the
// card played is in force if it lasts. The events summarised here share one such state: each
// runs on its own copy, so none sees another's facts, and the state's variables are made once
// rather than once per event (for GMT, 115,684 variables instead of 207,290).
void exec_impl::play_event(id n, const std::vector<z3::expr>& a, path& p) {
    const ir::procedure& d = rs.procedures.at(N(n).ref);
    const id kind = d.locals.empty() ? ir::no_id : rs.types.at(d.locals[0].type).ref;
    std::optional<path> start;
    for (const ir::card_event& ev : rs.card_events) {
        if (rs.entities.at(ev.card).kind != kind) continue;
        const ir::procedure& pr = rs.procedures.at(ev.procedure);
        if (summarised_.count(pr.body)) continue;
        if (!start) start = any_state(p, " (in a card event, summarised once)");
        const std::string what = "the event of card `" + rs.entities.at(ev.card).name + "`";
        summary(pr.body, n, p, what, [&](path& q) {
            env e;
            const std::vector<z3::expr> any = any_arguments(pr.locals, pr.param_count, q, n);
            e.locals.resize(std::max(pr.locals.size(), any.size()));
            for (std::size_t i = 0; i < any.size() && i < e.locals.size(); ++i) e.locals[i] = any[i];
            run(pr.body, e, q);
        }, false, &*start);
    }
    forget_call(p, writes_of(d.body), n);
    if (!a.empty())
        for (const ir::card_event& ev : rs.card_events) {
            if (rs.entities.at(ev.card).kind != kind || ev.flag == ir::no_id) continue;
            const std::uint32_t at_flag = S.lay.slots.at(ev.flag).offset;
            const z3::expr played = a[0] == S.num(static_cast<std::int64_t>(S.lay.entity_first.at(ev.card)));
            p.st.values[at_flag] = z3::ite(played, S.num(1), p.st.values.at(at_flag));
        }
    if (ending_bodies_.count(d.body)) end_turn_here(p);
}

void exec_impl::run_body(id body, const std::vector<ir::local>& locals, std::vector<z3::expr> args, path& p, id n,
                         const std::string& what) {
    if (body == ir::no_id) return;
    // an argument that is a constant (`n - 1` of a known n) is passed as its number, so the
    // body's conditions on it are decided where they are met
    for (z3::expr& a : args)
        if (!terms::number(a))
            if (const z3::expr k = a.simplify(); k.is_numeral()) a = k;
    // open: the activations of this body already running (1 or more: a recursive call)
    const int open = active_[body];
    // An example's call with known arguments is one concrete activation: it runs however
    // deep it goes (max_depth stops a runaway), as the engine runs it.
    const bool concrete = examples_ && std::all_of(args.begin(), args.end(), [](const z3::expr& a) { return terms::number(a).has_value(); });
    // on a branch its known arguments rule out, a recursive activation adds nothing the
    // outer one did not record: the recursion ends there, as in the engine
    if (concrete && p.dead && open > 0) return;
    if (open > S.unroll_depth && !concrete) {
        if (open == S.unroll_depth + 1)
            summary(body, n, p, what, [&](path& q) {
                env e;
                const std::vector<z3::expr> any = any_arguments(locals, args.size(), q, n);
                e.locals.resize(std::max(locals.size(), any.size()));
                for (std::size_t i = 0; i < any.size() && i < e.locals.size(); ++i) e.locals[i] = any[i];
                run(body, e, q);
            });
        forget_call(p, writes_of(body), n);
        if (ending_bodies_.count(body)) end_turn_here(p);  // it may have ended the turn, having written anything
        return;
    }
    if (p.depth >= max_depth) {
        S.approximations.insert("calls nested deeper than " + std::to_string(max_depth) + " (their effects are forgotten)");
        forget(p, writes_of(body), n);
        if (ending_bodies_.count(body)) end_turn_here(p);
        return;
    }
    env e;
    e.locals.resize(std::max(locals.size(), args.size()));
    for (std::size_t i = 0; i < args.size() && i < e.locals.size(); ++i) e.locals[i] = args[i];
    ++p.depth;
    ++active_[body];
    run(body, e, p);
    --active_[body];
    --p.depth;
}

// A phase starts from any state the domain allows: its path forgets the history (which
// keeps its queries small), except whether it is reached at all and what the enclosing
// loops' variables may be.
void exec_impl::start_phase(path& p, env& e, const std::string& name) {
    note_invariants(p, cur_node_, "the start of phase " + name);
    restart(p, "phase " + name + " is not reached");
    for (const std::optional<z3::expr>& local : e.locals) {
        if (!local || !local->is_const() || local->is_numeral()) continue;
        const auto it = S.variable_of.find(local->id());
        if (it == S.variable_of.end()) continue;
        const variable& v = S.variables.at(it->second);
        if (v.type == ir::no_id) continue;
        add_fact(p, S.in_local_type(v.var, v.type), "the range of the loop's `" + v.text + "`");
    }
    std::vector<fact> nf;
    S.forget_history(p.st, nf, " (at the start of phase " + name + ")");
    for (const fact& f : nf) add_fact(p, f.e, f.why);
}

// Whether e has at most `limit` distinct subterms (counting stops there). Walked through Z3's
// C API: the subterms live as long as e, and the C++ wrappers' reference counting made this
// walk cost a third of the symbolic execution.
bool exec_impl::small_term(const z3::expr& e, std::size_t limit) {
    const Z3_context c = e.ctx();
    std::unordered_set<Z3_ast> seen;
    std::vector<Z3_ast> todo{e};
    seen.insert(e);
    while (!todo.empty()) {
        const Z3_ast x = todo.back();
        todo.pop_back();
        if (Z3_get_ast_kind(c, x) != Z3_APP_AST) continue;
        const Z3_app a = Z3_to_app(c, x);
        const unsigned n = Z3_get_app_num_args(c, a);
        for (unsigned i = 0; i < n; ++i) {
            const Z3_ast y = Z3_get_app_arg(c, a, i);
            if (!seen.insert(y).second) continue;
            if (seen.size() > limit) return false;
            todo.push_back(y);
        }
    }
    return true;
}

void exec_impl::resolve(id n, env& e, path& p) {
    const ir::node& nd = N(n);
    const ir::table& tb = rs.tables.at(nd.ref);
    const id marker = tb.cells.empty() || tb.cells.front().effects == ir::no_id ? ir::no_id : tb.cells.front().effects;
    const bool summary_run = summary_args_;
    summary_args_ = false;
    const int open = marker == ir::no_id ? 0 : active_[marker];
    if (!summary_run && open > S.unroll_depth) {  // a use past the unrolling depth: summarised, then forgotten
        if (open == S.unroll_depth + 1)
            summary(marker, n, p, "table `" + tb.name + "`", [&](path& q) {
                summary_args_ = true;
                resolve(n, e, q);
                summary_args_ = false;
            });
        forget_call(p, writes_of(n), n);
        return;
    }
    struct mark {
        std::map<id, int>& s;
        id m;
        mark(std::map<id, int>& ss, id mm) : s(ss), m(mm) { if (m != ir::no_id) ++s[m]; }
        ~mark() { if (m != ir::no_id) --s[m]; }
    } guard(active_, marker);
    replay_point rp;
    rp.recorded = true;
    rp.st = S.snapshot(p.st);
    rp.variables_from = S.variables.size();
    const std::vector<z3::expr> args = summary_run ? any_arguments(tb.locals, N(n).child_count, p, n) : args_of(n, e, p.st);
    for (const z3::expr& a : args) rp.locals.emplace_back(a);
    symbolic::table_binding tb_args = S.bind_table(nd.ref, args, p.st);
    rp.variables_to = S.variables.size();
    env& te = tb_args.frame;
    drain(p, n);
    // A key that is a big term (a strength summed over the pieces of hexes not known here)
    // is named by a variable of its own, defined once: each row's condition then stays
    // small to state and to simplify instead of repeating the whole term.
    std::vector<z3::expr> keys = tb_args.keys;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        if (small_term(keys[k], 2000)) continue;
        const std::string what = tb.name + (keys.size() > 1 ? (k ? " column key" : " row key") : " key") + " at " + at(n);
        const z3::expr v = S.fresh("key", ir::no_id, what, variable::show::value, 0);
        add_fact(p, v == keys[k], "the definition of the " + what);
        keys[k] = v;
    }
    table_site ts(ctx);
    set_place(ts, p, n);
    ts.table = nd.ref;
    ts.keys = keys;
    ts.replay = std::move(rp);
    S.table_sites.push_back(std::move(ts));
    const std::size_t width = std::max<std::size_t>(1, tb.columns.size());
    const std::vector<z3::expr> sel = S.cell_selections(nd.ref, keys);
    for (std::size_t i = 0; i < sel.size(); ++i) {
        const ir::table_cell& cell = tb.cells[i];
        if (cell.effects == ir::no_id) continue;
        branch(p, sel[i], "the key falls in row `" + tb.rows[i / width].key.text + "` of " + tb.name, n,
               [&](path& t) {
                   ++t.depth;
                   run(cell.effects, te, t);
                   --t.depth;
               },
               {});
    }
    z3::expr_vector covered(ctx);
    for (const z3::expr& x : sel) covered.push_back(x);
    // no row: the engine stops with an error, so play goes on only where a row applies
    add_fact(p, covered.empty() ? ctx.bool_val(false) : z3::mk_or(covered), "a row of " + tb.name + " applies");
}

}  // namespace wp::verify::detail
