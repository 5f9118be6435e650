// Symbolic execution of the sequence of play and of the examples' `given` blocks: statements
// update a store of Z3 terms, branches are followed on both sides and merged, loops forget
// what their bodies write, an `end turn` takes its path to the end of its turn, and every use of
// a rule, table, block, choice, assignment and game end is recorded with its path condition.
// The execution itself (exec_impl) is declared in explore_impl.hpp and defined by concept in
// the explore_*.cpp files; here its runs over the sequence of play and over the examples.
#include "explore_impl.hpp"
#include "terms.hpp"

namespace wp::verify::detail {

z3::expr symbolic::pending_side() {
    z3::expr_vector v(ctx);
    for (const z3::expr& s : side) v.push_back(s);
    return v.empty() ? ctx.bool_val(true) : z3::mk_and(v);
}

void symbolic::explore() {
    exec_impl x(*this);
    exec_impl::path p{initial_store(), {}, ctx.bool_val(true), false, {}, 0};
    const std::int64_t lo = std::max<std::int64_t>(1, rs.min_players);
    x.add_fact(p, n_players >= num(lo) && n_players <= num(lay.players),
               "the number of players is " + std::to_string(lo) + ".." + std::to_string(lay.players));
    on_rule = [&](id rule, const z3::expr& applies, const z3::expr& guard) {
        if (x.cur_)
            x.record_rule(*x.cur_, rule, terms::and_(operand_guard(), pending_side()), applies, guard, x.cur_node_,
                          "the dice and values there");
    };
    on_table = [&](id table, id node, const std::vector<z3::expr>& keys, const replay_point& at) {
        if (!x.cur_) return;
        table_site ts(ctx);
        ts.node = node;
        const z3::expr extra = terms::and_(operand_guard(), pending_side());
        ts.pc = terms::and_(x.cur_->pc, extra);
        ts.facts = std::make_shared<const fact_node>(fact_node{{extra, "the dice and values there"}, x.cur_->facts});
        ts.from_setup = x.cur_->from_setup;
        ts.table = table;
        ts.keys = keys;
        ts.replay = at;
        table_sites.push_back(std::move(ts));
    };
    try {
        for (id s = 0; s < rs.sequences.size(); ++s) {
            const ir::sequence& seq = rs.sequences[s];
            if (s > 0 && seq.name != "game") continue;
            env e;
            e.locals.resize(seq.locals.size());
            exec_impl::path q = p;
            x.run(seq.body, e, q);
        }
    } catch (const out_of_time&) {
        abandon_statement();  // `stopped` is set: the checks conclude nothing from the sequence
    }
    on_rule = nullptr;
    on_table = nullptr;
    if (!events_summarised.empty())
        approximations.insert("card events summarised: each event's block checked once from any state of the domain, with any player; "
                              "playing an event forgets what any event of its kind writes (" + std::to_string(events_summarised.size()) +
                              " events)");
    if (!recursion_summarised.empty()) {
        std::string names;
        for (const std::string& w : recursion_summarised) names += (names.empty() ? "" : ", ") + w;
        approximations.insert("recursion past depth " + std::to_string(unroll_depth) + " (--unroll-depth): the deeper calls of " +
                              names + " summarised, their body checked once from any state of what it writes");
    }
}

void symbolic::run_examples() {
    exec_impl x(*this);
    x.examples_ = true;  // an example's `given` is not play: no invariant obligations there
    for (id r = 0; r < rs.rules.size(); ++r) {
        const ir::rule& rule = rs.rules[r];
        if (rule.kind != ir::rule_kind::example) continue;
        exec_impl::path p{initial_store(), {}, ctx.bool_val(true), false, {}, 0};
        const std::int64_t lo = std::max<std::int64_t>(1, rs.min_players);
        x.add_fact(p, n_players >= num(lo) && n_players <= num(lay.players), "the number of players");
        env e;
        e.locals.resize(rule.locals.size());
        active.reset();
        fixed_rolls = &p.fixed;
        replay_point start;
        start.recorded = true;
        start.st = std::make_shared<const kept_store>(p.st, nullptr);  // constants: cheap to keep, whatever the size
        start.variables_from = variables.size();
        x.run(rule.body, e, p);
        z3::expr expect = rule.value == ir::no_id ? ctx.bool_val(true) : boolean(rule.value, e, p.st);
        // the whole numbers the outcome compares, so a failure shows what the rules give
        std::vector<std::pair<std::string, z3::expr>> shown;
        std::vector<id> shown_nodes;
        std::vector<id> todo;
        if (rule.value != ir::no_id) todo.push_back(rule.value);
        while (!todo.empty()) {
            const id c = todo.back();
            todo.pop_back();
            const ir::node& cn = rs.nodes.at(c);
            if (cn.code == ir::op::and_) {
                for (std::uint32_t i = cn.child_count; i-- > 0;) todo.push_back(rs.children.at(cn.first_child + i));
                continue;
            }
            const bool comparison = cn.code == ir::op::eq || cn.code == ir::op::ne || cn.code == ir::op::lt ||
                                    cn.code == ir::op::le || cn.code == ir::op::gt || cn.code == ir::op::ge;
            if (!comparison || cn.child_count != 2) continue;
            const id left = rs.children.at(cn.first_child);
            const id lt = rs.nodes.at(left).type;
            if (lt == ir::no_id || (rs.types.at(lt).kind != ir::type_kind::integer && rs.types.at(lt).kind != ir::type_kind::range))
                continue;
            shown.push_back({"what the rules give for the expression at " + node_position(left), integer(left, e, p.st)});
            shown_nodes.push_back(left);
        }
        x.drain(p, rule.value == ir::no_id ? rule.body : rule.value);
        start.variables_to = variables.size();
        fixed_rolls = nullptr;
        examples.push_back({r, p.facts, p.pc, expect, std::move(shown), std::move(shown_nodes), std::move(start), active, p.from_setup});
        active.reset();
    }
}

}  // namespace wp::verify::detail
