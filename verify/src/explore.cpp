// Symbolic execution of the sequence of play and of the examples' `given` blocks: statements
// update a store of Z3 terms, branches are followed on both sides and merged, loops forget
// what their bodies write, an `end turn` takes its path to the end of its turn, and every use of
// a rule, table, block, choice, assignment and game end is recorded with its path condition.
#include "symbolic.hpp"
#include "folding.hpp"
#include "terms.hpp"

#include <functional>
#include <optional>
#include <unordered_set>

namespace wp::verify::detail {

using ir::op;

namespace {

// What a statement may change: store values, the places of instances of some kinds.
struct writes {
    std::set<std::uint32_t> values;
    std::set<id> kinds;
};

constexpr int max_depth = 24;

}  // namespace

struct exec_impl {
    symbolic& S;
    z3::context& ctx;
    const ir::ruleset& rs;
    std::map<id, writes> memo_;
    std::set<id> in_progress_;

    struct path {
        store st;
        fact_list facts;
        z3::expr pc;
        bool dead = false;
        std::map<id, z3::expr> fixed;
        int depth = 0;
        bool from_setup = true;  // nothing forgotten on the way from the initial state
    };
    using env = symbolic::env;

    explicit exec_impl(symbolic& s) : S(s), ctx(s.ctx), rs(s.rs) {}

    const ir::node& N(id n) const { return rs.nodes.at(n); }
    id child(id n, std::uint32_t i) const { return rs.children.at(rs.nodes.at(n).first_child + i); }
    std::string at(id n) const { return S.node_position(n); }

    // ------------------------------------------------------------ write sets

    id kind_of_zone_node(id n) const {
        id t = N(n).type;
        if (t == ir::no_id) return ir::no_id;
        if (rs.types.at(t).kind == ir::type_kind::map_of) t = rs.types.at(t).value;
        if (t == ir::no_id || rs.types.at(t).kind != ir::type_kind::zone) return ir::no_id;
        return rs.types.at(t).ref;
    }

    // The zone a zone expression names (`hand[p]`: hand), or none (a location's zone read otherwise).
    id zone_of_node(id n) const {
        if (N(n).code == op::zone) return N(n).ref;
        return N(n).code == op::index && N(n).child_count > 0 ? zone_of_node(child(n, 0)) : ir::no_id;
    }

    id slot_of(id n) const { return N(n).code == op::index ? slot_of(child(n, 0)) : N(n).ref; }

    void add_slot(writes& w, id slot) {
        const layout::slot_place& p = S.lay.slots.at(slot);
        for (std::uint32_t i = 0; i < p.width * p.copies; ++i) w.values.insert(p.offset + i);
    }

    void merge_into(writes& w, const writes& o) {
        w.values.insert(o.values.begin(), o.values.end());
        w.kinds.insert(o.kinds.begin(), o.kinds.end());
    }

    // Whether expression n reads an option, directly or through a quantity or predicate.
    std::map<id, bool> reads_option_memo_;
    bool reads_option(id n) {
        if (n == ir::no_id) return false;
        if (auto it = reads_option_memo_.find(n); it != reads_option_memo_.end()) return it->second;
        reads_option_memo_[n] = false;  // a recursive quantity adds nothing the first visit misses
        const ir::node& nd = N(n);
        bool r = nd.code == op::option;
        if (!r && nd.code == op::quantity) r = reads_option(rs.quantities.at(nd.ref).expr);
        for (std::uint32_t i = 0; !r && i < nd.child_count; ++i) r = reads_option(child(n, i));
        return reads_option_memo_[n] = r;
    }

    // The blocks and `end game`s statement n holds or calls, into S.skipped_blocks_and_ends: the
    // reach checks ask those of a skipped way under the other options (see skipped_ways).
    std::set<id> blocks_walked_;
    void note_blocks_and_ends(id n) {
        if (n == ir::no_id || !blocks_walked_.insert(n).second) return;
        const ir::node& nd = N(n);
        if (nd.code == op::block || nd.code == op::end_game) S.skipped_blocks_and_ends.insert(n);
        if (nd.code == op::call) note_blocks_and_ends(rs.procedures.at(nd.ref).body);
        if (nd.code == op::do_action) note_blocks_and_ends(rs.actions.at(nd.ref).body);
        for (std::uint32_t i = 0; i < nd.child_count; ++i) note_blocks_and_ends(child(n, i));
    }

    const writes& writes_of(id n) {
        if (auto it = memo_.find(n); it != memo_.end() && !in_progress_.count(n)) return it->second;
        writes& w = memo_[n];
        if (in_progress_.count(n)) return w;
        in_progress_.insert(n);
        writes acc;
        collect(n, acc);
        memo_[n] = acc;
        in_progress_.erase(n);
        return memo_[n];
    }

    void collect(id n, writes& w) {
        if (n == ir::no_id) return;
        const ir::node& nd = N(n);
        switch (nd.code) {
            case op::assign:
            case op::add_assign:
            case op::sub_assign: add_slot(w, slot_of(child(n, 0))); break;
            case op::move: {
                const id t = N(child(n, 0)).type;
                if (t != ir::no_id && rs.types.at(t).kind == ir::type_kind::entity) w.kinds.insert(rs.types.at(t).ref);
                break;
            }
            case op::draw:
            case op::deal:
            case op::reshuffle: {
                const id k = kind_of_zone_node(child(n, nd.code == op::reshuffle ? 0 : 1));
                if (k != ir::no_id) w.kinds.insert(k);
                break;
            }
            case op::do_action: merge_into(w, writes_of(rs.actions.at(nd.ref).body)); break;
            case op::call: merge_into(w, writes_of(rs.procedures.at(nd.ref).body)); break;
            case op::resolve:
                for (const ir::table_cell& c : rs.tables.at(nd.ref).cells)
                    if (c.effects != ir::no_id) merge_into(w, writes_of(c.effects));
                break;
            case op::emit:
                for (id r = 0; r < rs.rules.size(); ++r) {
                    const ir::rule& rule = rs.rules[r];
                    if (rule.kind == ir::rule_kind::trigger && rule.target == ir::target_kind::event &&
                        rule.target_id == nd.ref && rule.body != ir::no_id)
                        merge_into(w, writes_of(rule.body));
                }
                break;
            default: break;
        }
        // statements nest in statements; expressions never write
        switch (nd.code) {
            case op::seq:
            case op::block:
            case op::if_:
            case op::for_each:
            case op::while_:
            case op::repeat_until:
            case op::choose_one:
            case op::choose_subset:
            case op::choose_order:
            case op::may:
            case op::simultaneous:
                for (std::uint32_t i = 0; i < nd.child_count; ++i) collect(child(n, i), w);
                break;
            default: break;
        }
    }

    // WP_CHECK_NO_LOOP_FRAMES=1: loops forget where every piece they may move is (to measure
    // what keeping the pieces they cannot move costs)
    const bool no_frames_ = std::getenv("WP_CHECK_NO_LOOP_FRAMES") != nullptr;

    // The kind of piece a loop over `set` visits, each once, when the set is one of distinct
    // pieces: a zone, every piece of a kind, a chosen subset (a list local). A stored list may
    // hold a piece twice: none.
    id loop_piece_kind(id set) const {
        const ir::node& nd = N(set);
        if (nd.type == ir::no_id) return ir::no_id;
        const ir::type& t = rs.types.at(nd.type);
        if (t.kind == ir::type_kind::zone) return t.ref;
        if (nd.code == op::type_members) {
            const ir::type& m = rs.types.at(nd.ref);
            return m.kind == ir::type_kind::entity ? m.ref : ir::no_id;
        }
        if (nd.code == op::local && t.kind == ir::type_kind::list_of && t.value != ir::no_id &&
            rs.types.at(t.value).kind == ir::type_kind::entity)
            return rs.types.at(t.value).ref;
        return ir::no_id;
    }

    // Whether the only statements in n that move pieces of `kind` are `move`s of local `var`
    // (the loop's own piece): then a round never moves the piece of another round.
    bool moves_only_local(id n, std::uint32_t var, id kind) {
        if (n == ir::no_id) return true;
        const ir::node& nd = N(n);
        switch (nd.code) {
            case op::move: {
                const ir::node& what = N(child(n, 0));
                const bool same_kind = what.type != ir::no_id && rs.types.at(what.type).kind == ir::type_kind::entity &&
                                       rs.types.at(what.type).ref == kind;
                return !same_kind || (what.code == op::local && what.ref == var);
            }
            case op::draw:
            case op::deal:
            case op::reshuffle:
            case op::do_action:
            case op::call:
            case op::resolve:
            case op::emit: return !writes_of(n).kinds.count(kind);
            case op::seq:
            case op::block:
            case op::if_:
            case op::for_each:
            case op::while_:
            case op::repeat_until:
            case op::choose_one:
            case op::choose_subset:
            case op::choose_order:
            case op::may:
            case op::simultaneous:
                for (std::uint32_t i = 0; i < nd.child_count; ++i)
                    if (!moves_only_local(child(n, i), var, kind)) return false;
                return true;
            default: return true;
        }
    }

    // The zones a statement may take pieces from (a move's, draw's or deal's source, what a
    // reshuffle empties), through the actions, procedures, table effects and triggers it runs;
    // `any` when one is not known (a source that is no named zone, a card's event).
    struct takes {
        std::set<id> zones;
        bool any = false;
    };
    std::map<id, takes> takes_memo_;
    std::set<id> takes_in_progress_;

    const takes& takes_of(id n) {
        if (auto it = takes_memo_.find(n); it != takes_memo_.end() && !takes_in_progress_.count(n)) return it->second;
        takes& t = takes_memo_[n];
        if (takes_in_progress_.count(n)) return t;  // a recursion: its own takes are added where it started
        takes_in_progress_.insert(n);
        takes acc;
        collect_takes(n, acc);
        takes_memo_[n] = acc;
        takes_in_progress_.erase(n);
        return takes_memo_[n];
    }

    void collect_takes(id n, takes& t) {
        if (n == ir::no_id) return;
        const ir::node& nd = N(n);
        auto from = [&](id z) {
            const id zone = zone_of_node(z);
            if (zone == ir::no_id) t.any = true;
            else t.zones.insert(zone);
        };
        auto merge = [&](id body) {
            const takes& o = takes_of(body);
            t.zones.insert(o.zones.begin(), o.zones.end());
            t.any = t.any || o.any;
        };
        switch (nd.code) {
            case op::move:
            case op::draw:
            case op::deal: from(child(n, 1)); break;
            case op::reshuffle: from(child(n, 0)); break;
            case op::do_action: merge(rs.actions.at(nd.ref).body); break;
            case op::call:
                if (std::find(rs.event_dispatchers.begin(), rs.event_dispatchers.end(), nd.ref) != rs.event_dispatchers.end()) t.any = true;
                else merge(rs.procedures.at(nd.ref).body);
                break;
            case op::resolve:
                for (const ir::table_cell& c : rs.tables.at(nd.ref).cells)
                    if (c.effects != ir::no_id) merge(c.effects);
                break;
            case op::emit:
                for (const ir::rule& rule : rs.rules)
                    if (rule.kind == ir::rule_kind::trigger && rule.target == ir::target_kind::event && rule.target_id == nd.ref &&
                        rule.body != ir::no_id)
                        merge(rule.body);
                break;
            case op::seq:
            case op::block:
            case op::if_:
            case op::for_each:
            case op::while_:
            case op::repeat_until:
            case op::choose_one:
            case op::choose_subset:
            case op::choose_order:
            case op::may:
            case op::simultaneous:
                for (std::uint32_t i = 0; i < nd.child_count; ++i) collect_takes(child(n, i), t);
                break;
            default: break;
        }
    }

    // ------------------------------------------------------------ paths

    // Whether e has at most `limit` distinct subterms (counting stops there). Walked through Z3's
    // C API: the subterms live as long as e, and the C++ wrappers' reference counting made this
    // walk cost a third of the symbolic execution.
    static bool small_term(const z3::expr& e, std::size_t limit) {
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

    // Whether a new fact is already settled by the constants in it. Only that is asked: the fact
    // is kept as it is (a simplified copy would cost a walk of its whole term, most of which the
    // state shares with every other fact; the folding remembers what it has seen).
    constant_folding fold_{ctx};

    // frame: the fact starts a loop round's facts (fact_node::frame). False when the fact is
    // true by folding and so not added.
    bool add_fact(path& p, const z3::expr& e, const std::string& why, bool frame = false) {
        if (fold_.is_true(e)) return false;
        p.facts = std::make_shared<const fact_node>(fact_node{{e, why}, p.facts, frame});
        p.pc = p.pc && e;
        if (fold_.is_false(e)) p.dead = true;  // remembered: no second walk
        return true;
    }

    // The facts of a loop round's start, the first one marked (fact_node::frame).
    void add_frame(path& p, const std::vector<fact>& facts) {
        bool first = true;
        for (const fact& f : facts)
            if (add_fact(p, f.e, f.why, first)) first = false;
    }

    // The conjunction of the facts of `from` added since `base` (a fact list it extends).
    z3::expr since(const fact_list& from, const fact_list& base) {
        z3::expr_vector v(ctx);
        for (const fact_node* f = from.get(); f && f != base.get(); f = f->prev.get()) v.push_back(f->f.e);
        return v.empty() ? ctx.bool_val(true) : z3::mk_and(v);
    }

    // Encoding is done for the innermost path being run: rules consulted are recorded there.
    path* cur_ = nullptr;
    id cur_node_ = ir::no_id;
    struct current {
        exec_impl& x;
        path* saved;
        id saved_node;
        current(exec_impl& xx, path& p, id n) : x(xx), saved(xx.cur_), saved_node(xx.cur_node_) {
            x.cur_ = &p;
            x.cur_node_ = n;
        }
        ~current() {
            x.cur_ = saved;
            x.cur_node_ = saved_node;
        }
    };

    // Moves the constraints of fresh variables made while encoding into the path.
    void drain(path& p, id n) {
        if (S.side.empty()) return;
        z3::expr_vector all(ctx);
        for (const z3::expr& s : S.side) all.push_back(s);
        S.side.clear();
        add_fact(p, z3::mk_and(all), "the possible dice and values at " + at(n));
    }

    // The invariants' obligation at a place where they must hold (see invariant_site): each
    // invariant's value in the state there, unless it is the very term assumed earlier or
    // constant folding settles it. Nothing is recorded on a path already dead.
    void note_invariants(path& p, id n, const std::string& what) {
        if (examples_ || p.dead) return;
        if (S.record_queries && has_queries_) note_queries(p, n, what);
        if (!has_invariants_) return;
        // Without the induction (S.prove_invariants), only the places play reaches from setup with
        // nothing forgotten: the base case, cheap and exact.
        if (!p.from_setup && !S.prove_invariants) return;
        invariant_site site(ctx);
        for (id r = 0; r < rs.rules.size(); ++r) {
            const ir::rule& rule = rs.rules[r];
            if (rule.kind != ir::rule_kind::invariant || rule.value == ir::no_id || S.unassumed.count(r)) continue;
            // Only the conjuncts that changed since an assumption (one per piece of an `all`
            // over the pieces, say): the others were assumed as they are.
            z3::expr_vector open(ctx);
            for (const z3::expr& c : S.conjuncts(S.invariant_value(r, p.st)))
                if (!S.assumed_ids.count(c.id()) && !fold_.is_true(c)) open.push_back(c);
            if (open.empty()) continue;
            site.holds.emplace_back(r, open.size() == 1 ? open[0] : z3::mk_and(open));
        }
        if (site.holds.empty()) return;
        // the same question on the same path (a loop's start, met again at its end) is asked once
        std::vector<std::pair<id, z3::expr>> fresh;
        for (auto& h : site.holds)
            if (noted_.insert({p.facts.get(), h.second.id()}).second) fresh.push_back(std::move(h));
        if (fresh.empty()) return;
        site.holds = std::move(fresh);
        S.invariant_sites.push_back(placed(std::move(site), p, n, what));
    }
    // site, at statement n of path p, with what the question and its replay need of the path
    invariant_site placed(invariant_site site, const path& p, id n, const std::string& what) {
        site.node = n;
        site.pc = p.pc;
        site.facts = p.facts;
        site.what = what;
        site.from_setup = p.from_setup;
        site.replay.recorded = true;
        site.replay.st = S.snapshot(p.st);
        site.replay.variables_from = site.replay.variables_to = S.variables.size();
        return site;
    }
    // The designer's queries where the invariants must hold (decisions, phase starts, loop rounds,
    // the end), from setup or after a forgotten history: each answer not settled false by folding.
    void note_queries(path& p, id n, const std::string& what) {
        invariant_site site(ctx);
        for (id r = 0; r < rs.rules.size(); ++r) {
            const ir::rule& rule = rs.rules[r];
            if (!ir::is_query(rule.kind) || rule.value == ir::no_id || S.queries_played.count(r)) continue;
            z3::expr answered = S.query_answered(r, p.st);
            if (fold_.is_false(answered)) continue;
            // the same question of the same query on the same path (a loop's start, met again at its end) is asked once
            if (!queried_.insert({p.facts.get(), r, answered.id()}).second) continue;
            site.holds.emplace_back(r, std::move(answered));
        }
        if (site.holds.empty()) return;
        S.query_sites.push_back(placed(std::move(site), p, n, what));
    }
    std::set<std::tuple<const fact_node*, id, unsigned>> queried_;
    // some query is left to ask (not answered by random play)
    const bool has_queries_ = [this] {
        for (id r = 0; r < rs.rules.size(); ++r)
            if (ir::is_query(rs.rules[r].kind) && rs.rules[r].value != ir::no_id && !S.queries_played.count(r)) return true;
        return false;
    }();
    bool examples_ = false;
    std::set<std::pair<const fact_node*, unsigned>> noted_;
    const bool has_invariants_ = std::any_of(rs.rules.begin(), rs.rules.end(), [](const ir::rule& r) {
        return r.kind == ir::rule_kind::invariant && r.value != ir::no_id;
    });

    // Whether a loop over these members can run round by round: each member known, and known
    // to be in the set or not, and not so many that the path grows past reason.
    static bool unrolls(const std::vector<member>& ms) {
        constexpr std::size_t most_rounds = 4096;
        if (ms.size() > most_rounds) return false;
        return std::all_of(ms.begin(), ms.end(), [](const member& m) {
            return (m.in.is_true() || m.in.is_false()) && terms::number(m.value).has_value();
        });
    }

    // Forgets what w writes; the invariants are assumed again, so they must hold just before.
    // A loop's head, when asked for: the state and the facts the forgetting made.
    struct loop_head {
        store st;
        std::vector<fact> facts;
    };
    void forget(path& p, const writes& w, id n, loop_head* head = nullptr) {
        if (w.values.empty() && w.kinds.empty()) return;
        note_invariants(p, n, "the statement at " + at(n));
        p.from_setup = false;
        std::vector<fact> nf;
        S.forget(p.st, &w.values, &w.kinds, nf, " (after any number of rounds of the loop at " + at(n) + ")", true);
        add_frame(p, nf);
        if (head) *head = {p.st, std::move(nf)};
    }
    // The state after a loop is one its head allows, as the start of a round is (the loop ends
    // where a next round would start): so p, still at the loop's entry, leaves with the very
    // variables and facts of the head its rounds started from, not a second set of its own.
    // Sound as any path's facts are: no question joins p with a round's path. On SPI this halved
    // what loops forget (deploying 54 units, say, forgot 2,139 values twice).
    void leave_loop(path& p, const writes& w, const loop_head& head, id n) {
        if (w.values.empty() && w.kinds.empty()) return;
        note_invariants(p, n, "the statement at " + at(n));
        p.from_setup = false;
        p.st = head.st;
        add_frame(p, head.facts);
    }

    // At the head of a loop whose rounds were forgotten (b, from p before the loop): a piece in
    // a zone that no round takes pieces from is still where it was (a card window's loop plays
    // cards from the hands, and the employer card in its slot stays there).
    // The fact joins the head's, so the state after the loop keeps it too.
    void keep_untaken(path& b, const path& p, id body, const writes& w, id n, loop_head& head) {
        if (w.kinds.empty() || no_frames_) return;
        const takes& t = takes_of(body);
        if (t.any) return;
        z3::expr_vector kept(ctx);
        for (const id kind : w.kinds) {
            if (kind >= S.lay.kind_first.size()) continue;
            std::vector<std::pair<std::int64_t, std::int64_t>> ranges;  // zone instances [first, end)
            for (id z = 0; z < rs.zones.size(); ++z) {
                if (rs.zones[z].entity_kind != kind || t.zones.count(z)) continue;
                const std::int64_t first = S.lay.zone_first.at(z);
                const std::int64_t end = z + 1 < S.lay.zone_first.size() ? S.lay.zone_first[z + 1] : S.lay.zone_instances();
                ranges.emplace_back(first, end);
            }
            if (ranges.empty()) continue;
            for (std::uint32_t i = 0; i < S.lay.kind_count[kind]; ++i) {
                const std::uint32_t k = S.lay.kind_first[kind] + i;
                if (z3::eq(b.st.loc[k], p.st.loc[k])) continue;
                z3::expr_vector in(ctx);
                for (const auto& [first, end] : ranges) in.push_back(p.st.loc[k] >= S.num(first) && p.st.loc[k] < S.num(end));
                kept.push_back(z3::implies(z3::mk_or(in), b.st.loc[k] == p.st.loc[k]));
            }
        }
        if (kept.empty()) return;
        const fact f{z3::mk_and(kept), "the pieces in zones the loop at " + at(n) + " never takes from stay there"};
        add_fact(b, f.e, f.why);
        head.facts.push_back(f);
    }

    void merge(path& p, path& t, path& f, const z3::expr& c, id n) {
        if (t.dead && f.dead) {
            p = std::move(t);
            return;
        }
        if (t.dead) { p = std::move(f); return; }
        if (f.dead) { p = std::move(t); return; }
        const z3::expr T = since(t.facts, p.facts);
        const z3::expr F = since(f.facts, p.facts);
        for (std::size_t i = 0; i < p.st.values.size(); ++i) {
            p.st.values[i] = z3::eq(t.st.values[i], f.st.values[i]) ? t.st.values[i]
                                                                   : z3::ite(c, t.st.values[i], f.st.values[i]);
        }
        for (std::size_t i = 0; i < p.st.loc.size(); ++i)
            p.st.loc[i] = z3::eq(t.st.loc[i], f.st.loc[i]) ? t.st.loc[i] : z3::ite(c, t.st.loc[i], f.st.loc[i]);
        // Either branch's facts hold. Not simplified: this disjunction holds the whole of both
        // branches, and simplifying it again at every enclosing merge cost most of the time of
        // a big ruleset's exploration. Only the plain case (no fact but the condition on either
        // side, always true) is left out.
        const bool plain = t.facts && f.facts && t.facts->prev == p.facts && f.facts->prev == p.facts &&
                           z3::eq(t.facts->f.e, c) && z3::eq(f.facts->f.e, !c);
        if (plain) return;
        p.facts = std::make_shared<const fact_node>(fact_node{{T || F, "either way through " + at(n)}, p.facts});
        p.pc = p.pc && (T || F);
    }

    void branch(path& p, const z3::expr& c, const std::string& why, id n, const std::function<void(path&)>& then_fn,
                const std::function<void(path&)>& else_fn) {
        // An example's run records nothing a dead way reaches (its sites could never be met), and
        // running it anyway cost GMT's set-up examples most of their time and memory: every
        // `place` loop's body, ruled out by its known condition, kept a state and a bound per unit.
        path t = p;
        add_fact(t, c, why);
        if (!(examples_ && t.dead)) then_fn(t);
        path f = p;
        add_fact(f, !c, "not: " + why);
        if (else_fn && !(examples_ && f.dead)) else_fn(f);
        merge(p, t, f, c, n);
    }

    int in_setup_ = 0;  // inside the sequence's setup (no effect_site there)

    // A site at node n with the circumstances of path p.
    static void set_place(site& s, const path& p, id n) {
        s.node = n;
        s.pc = p.pc;
        s.facts = p.facts;
        s.from_setup = p.from_setup;
    }

    // A way out of an `if` or `may` taken from path `before` (see branch_site); not from a dead
    // path (nothing there is reached) nor in an example's run. A way its condition folds to
    // false is recorded: that is the finding.
    void note_branch(const path& before, const path& side, id n, id body, bool taken) {
        if (examples_ || before.dead) return;
        branch_site b(ctx);
        set_place(b, side, body);
        b.before = before.facts;
        b.branch = n;
        b.taken = taken;
        S.branch_sites.push_back(std::move(b));
    }

    // ------------------------------------------------------------ obligations

    // The first statement of a body when it is a `do` (what the engines test before offering a
    // `may` or an option of a `choose`); else none.
    id first_do(id body) const {
        if (body == ir::no_id) return ir::no_id;
        const ir::node& nd = N(body);
        if (nd.code == op::seq) return nd.child_count == 0 ? ir::no_id : first_do(child(body, 0));
        return nd.code == op::do_action ? body : ir::no_id;
    }

    // The `do` statements the engines test before offering them: any other is an obligation.
    const std::set<id> tested_dos_ = [this] {
        std::set<id> out;
        for (id n = 0; n < rs.nodes.size(); ++n) {
            const op c = rs.nodes[n].code;
            const id body = c == op::may ? child(n, 1) : c == op::choose_one ? child(n, 3) : ir::no_id;
            if (const id d = first_do(body); d != ir::no_id) out.insert(d);
        }
        return out;
    }();
    const bool has_require_ = std::any_of(rs.rules.begin(), rs.rules.end(), [](const ir::rule& r) { return r.kind == ir::rule_kind::require; });

    // A statement play must carry out, met on path p: `unmet` says when it cannot be (see
    // obligation_site); not from a dead path nor in an example's run. `args`: the action's
    // arguments, made from the variables at `variables_from` on (for the replay).
    void note_obligation(const path& p, id n, obligation_site::what kind, id subject, const z3::expr& unmet,
                         const std::vector<z3::expr>& args, std::size_t variables_from) {
        if (examples_ || p.dead || fold_.is_false(unmet)) return;
        obligation_site o(ctx);
        set_place(o, p, n);
        o.kind = kind;
        o.subject = subject;
        o.unmet = unmet;
        o.replay.recorded = true;
        o.replay.st = S.snapshot(p.st);
        for (const z3::expr& a : args) o.replay.locals.emplace_back(a);
        o.replay.variables_from = variables_from;
        o.replay.variables_to = S.variables.size();
        S.obligation_sites.push_back(std::move(o));
    }

    // A `may` whose body starts with a `do` that a `require` rule demands there: the engines
    // offer it as the only answer, or skip it when the action is not legal. Notes when it is
    // skipped though demanded, where no `forbid` applies (a forbid against a require is a
    // contradiction, reported as such). The action's legality and its demand are read of the
    // same arguments, and what encoding them needs (a die's faces, an approximated value's
    // range) joins the path before the site is noted: a `do spend(p, roll r(p))` once had a
    // demand for a face the die never shows "unmet" with an 8 on a six-sided die (the compiler
    // now rejects dice there: roll-in-tested-do).
    void note_demanded(path& p, id n, id body, env& e) {
        const id d = first_do(body);
        if (!has_require_ || d == ir::no_id) return;
        const id group = S.group_of_target[static_cast<int>(ir::target_kind::action)].at(N(d).ref);
        if (group == ir::no_id) return;
        const std::size_t from = S.variables.size();
        const std::vector<z3::expr> args = args_of(d, e, p.st);
        const z3::expr legal = action_legal(N(d).ref, args, p, ctx.bool_val(true), d, false);
        z3::expr required = ctx.bool_val(false), forbidden = ctx.bool_val(false);
        for (const auto& [r, applies] : S.group_effective(group, args, p.st, nullptr)) {
            const ir::rule_kind k = rs.rules.at(r).kind;
            if (k == ir::rule_kind::require) required = terms::or_(required, applies);
            if (k == ir::rule_kind::forbid) forbidden = terms::or_(forbidden, applies);
        }
        drain(p, n);
        if (fold_.is_false(required)) return;
        note_obligation(p, n, obligation_site::what::required, N(d).ref,
                        terms::and_(required, terms::and_(terms::not_(forbidden), terms::not_(legal))), args, from);
    }

    // ------------------------------------------------------------ ending the turn

    // `end turn;` leaves the innermost turn being run: the path, as it is there, waits in that
    // turn's list and joins the path that ran the turn to its end; the rest of the turn runs on
    // with the path dead (what it reaches there is never reached that way). A summary's run has
    // no turn around it (nullptr): its exits are the caller's, taken where the call only forgets.
    std::vector<std::vector<path>*> turn_ends_;
    const std::vector<bool> ending_ = ir::procedures_ending_turn(rs);
    std::set<id> ending_bodies_ = [this] {
        std::set<id> out;
        for (std::size_t i = 0; i < rs.procedures.size(); ++i)
            if (ending_[i] && rs.procedures[i].body != ir::no_id) out.insert(rs.procedures[i].body);
        return out;
    }();

    void end_turn_here(const path& p) {
        if (!turn_ends_.empty() && turn_ends_.back() && !p.dead) turn_ends_.back()->push_back(p);
    }

    // Joins path q (which ended the turn at `at`) into p (which ran it to its end); both went on
    // from the turn's start, with facts `base` and condition `base_pc` and call depth `depth`.
    // A fresh Boolean says which way was taken, so either path's state is kept exactly.
    void join_turn_end(path& p, path& q, const fact_list& base, const z3::expr& base_pc, int depth, id turn) {
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

    // ------------------------------------------------------------ legality

    void record_rule(const path& p, id r, const z3::expr& extra, const z3::expr& applies, const z3::expr& guard, id n,
                     const std::string& extra_why = "the option considered") {
        rule_site s(ctx);
        s.node = n;
        s.pc = terms::and_(p.pc, extra);
        s.facts = p.facts;
        s.extra = extra;
        s.extra_why = extra_why + " at " + at(n);
        s.rule = r;
        s.applies = applies;
        s.guard = guard;
        S.rule_sites.push_back(std::move(s));
    }

    // Whether action a may be done with args: its guard or an applicable permit, and no
    // applicable forbid. Records every legality rule consulted, unless `record` is false (a
    // second reading of a test already recorded).
    z3::expr action_legal(id a, const std::vector<z3::expr>& args, const path& p, const z3::expr& extra, id n, bool record = true) {
        const ir::action& act = rs.actions.at(a);
        z3::expr guard = ctx.bool_val(true);
        if (act.guard != ir::no_id) {
            env e;
            e.locals.resize(std::max(act.locals.size(), args.size()));
            for (std::size_t i = 0; i < args.size() && i < act.locals.size(); ++i) e.locals[i] = args[i];
            guard = S.boolean(act.guard, e, p.st);
        }
        std::map<id, z3::expr> guards;
        const id group = S.group_of_target[static_cast<int>(ir::target_kind::action)].at(a);
        z3::expr permitted = ctx.bool_val(false), forbidden = ctx.bool_val(false);
        for (const auto& [r, applies] : S.group_effective(group, args, p.st, &guards)) {
            const ir::rule_kind k = rs.rules.at(r).kind;
            if (k == ir::rule_kind::forbid) forbidden = terms::or_(forbidden, applies);
            if (k == ir::rule_kind::permit) permitted = terms::or_(permitted, applies);
            if (record) record_rule(p, r, extra, applies, guards.at(r), n);
        }
        return terms::and_(terms::or_(guard, permitted), terms::not_(forbidden));
    }

    std::vector<z3::expr> args_of(id n, env& e, const store& st, std::uint32_t from = 0) {
        std::vector<z3::expr> a;
        for (std::uint32_t i = from; i < N(n).child_count; ++i) a.push_back(S.integer(child(n, i), e, st));
        return a;
    }

    // The engine's test before offering a `may` or an option of a `choose`: the body's first
    // statement can be done (a legal `do`, a `choose` with a legal option).
    z3::expr possible(id body, env& e, const path& p, const z3::expr& extra) {
        if (body == ir::no_id) return ctx.bool_val(true);
        const ir::node& nd = N(body);
        if (nd.code == op::seq) return nd.child_count == 0 ? ctx.bool_val(true) : possible(child(body, 0), e, p, extra);
        if (nd.code == op::do_action) return action_legal(nd.ref, args_of(body, e, p.st), p, extra, body);
        if (nd.code == op::choose_one) return options(body, e, p, extra).second;
        if (nd.code == op::choose_subset && N(child(body, 2)).code != op::absent) return some_subset(body, e, p);
        return ctx.bool_val(true);
    }

    // Whether some subset of a `choose subset`'s candidates satisfies its `where` (as the engines
    // ask before a `may` whose body is the choice): every subset written out, as subset() does;
    // over more candidates, any value (a cut, reported).
    z3::expr some_subset(id n, env& e, const path& p) {
        const std::vector<member> ms = S.set_members(child(n, 0), e, p.st);
        if (ms.size() > max_subset_candidates) {
            const z3::expr some = S.cut_value("whether some subset of " + S.set_text(child(n, 0)) + " (" + std::to_string(ms.size()) +
                                                  " candidates) satisfies the condition at " + at(n),
                                              ir::no_id);
            S.side.push_back(some >= 0 && some <= 1);
            return some == 1;
        }
        z3::expr_vector any(ctx);
        each_subset(ms, N(n).ref, e, [&](std::size_t, const z3::expr& valid) {
            any.push_back(terms::and_(valid, S.boolean(child(n, 2), e, p.st)));
        });
        return z3::mk_or(any);
    }

    // Binds list local `var` to each subset of the candidates ms in turn (bit i of m: candidate
    // i) and calls f(m, when that subset's candidates are all in the set); restores the local.
    void each_subset(const std::vector<member>& ms, std::uint32_t var, env& e,
                     const std::function<void(std::size_t, const z3::expr&)>& f) {
        if (var >= e.lists.size()) e.lists.resize(var + 1);
        const std::optional<std::vector<member>> saved = e.lists[var];
        for (std::size_t m = 0; m < (std::size_t{1} << ms.size()); ++m) {
            std::vector<member> alt;
            z3::expr valid = ctx.bool_val(true);
            for (std::size_t i = 0; i < ms.size(); ++i) {
                const bool take = (m >> i) & 1;
                alt.push_back({ms[i].value, take ? ms[i].in : ctx.bool_val(false)});
                if (take) valid = terms::and_(valid, ms[i].in);
            }
            e.lists[var] = alt;
            f(m, valid);
        }
        e.lists[var] = saved;
    }

    // The estimated size of `possible(body)` (the unfolding budget).
    std::uint64_t legality_cost(id body) {
        if (body == ir::no_id) return 0;
        const ir::node& nd = N(body);
        if (nd.code == op::seq) return nd.child_count == 0 ? 0 : legality_cost(child(body, 0));
        if (nd.code == op::do_action) {
            std::uint64_t c = S.unfold_cost(rs.actions.at(nd.ref).guard);
            const id group = S.group_of_target[static_cast<int>(ir::target_kind::action)].at(nd.ref);
            if (group != ir::no_id)
                for (id r : rs.groups.at(group).rules) c += S.unfold_cost(rs.rules.at(r).guard);
            return c;
        }
        if (nd.code == op::choose_one) {
            const std::uint64_t each = S.unfold_cost(child(body, 2)) + legality_cost(child(body, 3));
            return S.set_size_estimate(child(body, 0)) * std::max<std::uint64_t>(1, each);
        }
        return 0;
    }

    // The options of a choice: each member with when it is a legal option; and whether any is.
    std::pair<std::vector<member>, z3::expr> options(id n, env& e, const path& p, const z3::expr& extra) {
        const id set = child(n, 0), where = child(n, 2), body = child(n, 3);
        const std::uint32_t var = N(n).ref;
        std::vector<member> ms = S.set_members(set, e, p.st);
        std::vector<member> out;
        z3::expr_vector any(ctx);
        // The unfolding budget: legality over a large set of options is not written out; any
        // member of the set may be chosen, and whether one is legal is any value.
        const std::uint64_t each = std::max<std::uint64_t>(1, S.unfold_cost(where) + legality_cost(body));
        if (S.unfold_limit > 0 && ms.size() > 1 && (each > S.unfold_limit || ms.size() * each > S.unfold_limit)) {
            const z3::expr some = S.cut_value("the legality of the options of a choice over " + S.set_text(set) + " (" +
                                                  std::to_string(ms.size()) + (each > 1 ? " × " + std::to_string(each) : "") +
                                                  ") at " + at(n),
                                              ir::no_id);
            S.side.push_back(some >= 0 && some <= 1);
            z3::expr_vector in(ctx);
            for (const member& m : ms) in.push_back(m.in);
            return {ms, in.empty() ? ctx.bool_val(false) : (some == 1) && z3::mk_or(in)};
        }
        if (var >= e.locals.size()) e.locals.resize(var + 1);
        const std::optional<z3::expr> saved = e.locals[var];
        for (const member& m : ms) {
            e.locals[var] = m.value;
            z3::expr ok = m.in;
            if (N(where).code != op::absent) ok = terms::and_(ok, S.boolean(where, e, p.st));
            ok = terms::and_(ok, possible(body, e, p, terms::and_(extra, ok)));
            out.push_back({m.value, ok});
            any.push_back(ok);
        }
        e.locals[var] = saved;
        return {out, any.empty() ? ctx.bool_val(false) : z3::mk_or(any)};
    }

    // `choose subset xs of S [where c [maximizing|minimizing e]]`, exactly: one Boolean per
    // candidate says whether the chosen list holds it; every subset of the candidates (at most
    // max_subset_candidates of them) is written out once to say which subsets are legal (c holds;
    // with an objective, e is the best of all legal subsets: a fresh `best` bounded by every legal
    // subset's e and reached by one), so the chosen one is legal, and none is where the engines
    // stop with "a choice with no legal option" (a stuck-state). The body runs with the list.
    // False (nothing done) past the limit: the caller forgets the body's effects instead.
    static constexpr std::size_t max_subset_candidates = 10;
    bool subset(id n, env& e, path& p) {
        const ir::node& nd = N(n);
        const id where = child(n, 2);
        const std::int64_t goal = nd.value;
        std::vector<member> ms = S.set_members(child(n, 0), e, p.st);
        if (ms.size() > max_subset_candidates) return false;
        note_invariants(p, n, "the decision at " + at(n));
        choice_site cs(ctx);
        cs.replay.recorded = true;
        cs.replay.st = S.snapshot(p.st);
        cs.replay.locals = e.locals;
        cs.replay.variables_from = S.variables.size();
        const std::uint32_t var = nd.ref;
        if (var >= e.lists.size()) e.lists.resize(var + 1);
        const std::optional<std::vector<member>> saved = e.lists[var];
        const std::size_t n_subsets = std::size_t{1} << ms.size();
        std::vector<z3::expr> legal, aim;  // per subset (bit i: candidate i)
        z3::expr_vector any(ctx);
        each_subset(ms, var, e, [&](std::size_t, const z3::expr& valid) {
            z3::expr ok = valid;
            if (N(where).code != op::absent) ok = terms::and_(ok, S.boolean(where, e, p.st));
            legal.push_back(ok);
            aim.push_back(goal != 0 ? S.integer(child(n, 4), e, p.st) : S.num(0));
            any.push_back(ok);
        });
        cs.replay.variables_to = S.variables.size();
        drain(p, n);
        cs.node = n;
        cs.pc = p.pc;
        cs.facts = p.facts;
        cs.from_setup = p.from_setup;
        cs.none_legal = !z3::mk_or(any);
        S.choice_sites.push_back(std::move(cs));
        // the chosen subset: a Boolean per candidate, and the subset it spells is legal (and best)
        std::vector<member> chosen;
        z3::expr_vector is(ctx);
        std::vector<z3::expr> picks;
        for (std::size_t i = 0; i < ms.size(); ++i) {
            z3::expr b = ctx.bool_const(("subset" + std::to_string(n) + "_" + std::to_string(i) + "_" + std::to_string(S.variables.size())).c_str());
            S.variables.push_back({b, "whether the subset chosen at " + at(n) + " holds candidate " + std::to_string(i + 1),
                                   variable::show::boolean, ir::no_id, 0});
            picks.push_back(b);
            chosen.push_back({ms[i].value, b});
        }
        std::optional<z3::expr> best;
        if (goal != 0) {
            best = S.fresh("best", ir::no_id, "the best objective of the subsets legal at " + at(n), variable::show::value, 0);
            z3::expr_vector bounds(ctx);
            z3::expr_vector reached(ctx);
            for (std::size_t m = 0; m < n_subsets; ++m) {
                bounds.push_back(z3::implies(legal[m], goal == 1 ? aim[m] <= *best : aim[m] >= *best));
                reached.push_back(legal[m] && aim[m] == *best);
            }
            add_fact(p, z3::mk_and(bounds) && z3::implies(z3::mk_or(any), z3::mk_or(reached)),
                     "the best objective of the subsets legal at " + at(n));
        }
        for (std::size_t m = 0; m < n_subsets; ++m) {
            z3::expr spelled = ctx.bool_val(true);
            for (std::size_t i = 0; i < ms.size(); ++i) spelled = spelled && (((m >> i) & 1) ? picks[i] : !picks[i]);
            is.push_back(spelled && legal[m] && (best ? aim[m] == *best : ctx.bool_val(true)));
        }
        add_fact(p, z3::mk_or(is), "a legal subset is chosen at " + at(n));
        e.lists[var] = chosen;
        run(child(n, 3), e, p);
        e.lists[var] = saved;
        return true;
    }

    // ------------------------------------------------------------ statements

    // Bodies being run, with how many of their activations are open. A body that leads back to
    // itself (a procedure, action, trigger or table) is unrolled S.unroll_depth times; a call
    // past that depth forgets what the body writes (any values of their types, the invariants
    // assumed). Its deeper activations are still checked: once per body, the body is run from
    // any state the domain allows with any arguments (summary()), so every use in it is seen
    // with circumstances that cover every activation's. Witnesses resting on that run say so.
    std::map<id, int> active_;
    std::set<id> summarised_;
    bool summary_args_ = false;  // the next resolve() is a summary's: any arguments

    // Any arguments of their types (a deeper activation's own), for the summary's run.
    std::vector<z3::expr> any_arguments(const std::vector<ir::local>& locals, std::size_t count, path& p, id n) {
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

    // The path a summary starts on: from any state the domain allows, whether or not the call at
    // `from` is reached. A deeper activation may start mid-phase, where the invariants need not
    // hold: under the induction (--checks invariants) they are not assumed there; otherwise they
    // are assumed after setup everywhere, as the report says.
    path any_state(const path& from, const std::string& when) {
        path q = from;
        restart(q, "");
        forget_all(q, when, !S.prove_invariants);
        return q;
    }

    // The summary of body `key`'s activations past the unrolling depth (once per body): `run_it`
    // runs it on a path that starts from any state the domain allows (`start`, when the caller
    // shares one among several summaries), marked as an approximation; its own recursive calls
    // there only forget.
    void summary(id key, id n, const path& from, const std::string& what, const std::function<void(path&)>& run_it,
                 bool recursion = true, const path* start = nullptr) {
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
    const std::set<id> dispatchers_{rs.event_dispatchers.begin(), rs.event_dispatchers.end()};
    void play_event(id n, const std::vector<z3::expr>& a, path& p) {
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
        forget(p, writes_of(d.body), n);
        if (!a.empty())
            for (const ir::card_event& ev : rs.card_events) {
                if (rs.entities.at(ev.card).kind != kind || ev.flag == ir::no_id) continue;
                const std::uint32_t at_flag = S.lay.slots.at(ev.flag).offset;
                const z3::expr played = a[0] == S.num(static_cast<std::int64_t>(S.lay.entity_first.at(ev.card)));
                p.st.values[at_flag] = z3::ite(played, S.num(1), p.st.values.at(at_flag));
            }
        if (ending_bodies_.count(d.body)) end_turn_here(p);
    }

    void run_body(id body, const std::vector<ir::local>& locals, std::vector<z3::expr> args, path& p, id n,
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
            forget(p, writes_of(body), n);
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
    void start_phase(path& p, env& e, const std::string& name) {
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

    // A path that forgets its history: no facts but, if it was dead and `if_dead` says why, that
    // it is not reached, and the number of players (the state is forgotten by forget_all, after
    // what the caller adds about its locals).
    void restart(path& p, const std::string& if_dead) {
        const bool dead = p.dead;
        p.facts = nullptr;
        p.pc = ctx.bool_val(true);
        p.dead = false;
        p.from_setup = false;
        if (dead && !if_dead.empty()) add_fact(p, ctx.bool_val(false), if_dead);
        const std::int64_t lo = std::max<std::int64_t>(1, rs.min_players);
        add_fact(p, S.n_players >= S.num(lo) && S.n_players <= S.num(S.lay.players), "the number of players");
    }

    // Every value and every card's place any within the domain (the invariants assumed or not).
    void forget_all(path& p, const std::string& when, bool invariants) {
        std::vector<fact> nf;
        S.forget(p.st, nullptr, nullptr, nf, when, invariants);
        for (const fact& f : nf) add_fact(p, f.e, f.why);
    }

    // `list = value;` (engine: interp::store_list): the members of value, packed in order. A
    // member's position is the number of members present before it.
    void assign_list(id n, env& e, path& p) {
        const id target = child(n, 0);
        std::vector<place> places = S.places(target, e, p.st);
        const std::vector<member> members = S.set_members(child(n, 1), e, p.st);
        drain(p, n);
        const std::uint32_t width = S.lay.slots.at(slot_of(target)).width;
        std::vector<z3::expr> cells(width, S.num(0));
        z3::expr before = S.num(0);
        std::vector<z3::expr> position;
        for (const member& m : members) {
            position.push_back(before);
            before = before + z3::ite(m.in, S.num(1), S.num(0));
        }
        cells[0] = before.simplify();
        for (std::uint32_t j = 1; j < width; ++j)
            for (std::size_t i = members.size(); i-- > 0;)
                cells[j] = z3::ite(members[i].in && position[i] == S.num(j - 1), members[i].value, cells[j]);
        for (const place& pl : places)
            for (std::uint32_t k = 0; k < width; ++k) {
                const z3::expr old = p.st.values.at(pl.index + k);
                p.st.values[pl.index + k] = fold_.is_true(pl.when) ? cells[k] : z3::ite(pl.when, cells[k], old);
            }
        // the sets a list is given from hold distinct members: it always fits (the engine checks)
        add_fact(p, cells[0] <= S.num(width - 1), "the list fits at " + at(n));
    }

    void assign(id n, env& e, path& p) {
        const ir::node& nd = N(n);
        const id target = child(n, 0);
        const id target_type = N(target).type;
        if (target_type != ir::no_id && S.rs.types.at(target_type).kind == ir::type_kind::list_of) return assign_list(n, e, p);
        const std::size_t variables_from = S.variables.size();
        std::vector<place> places = S.places(target, e, p.st);
        z3::expr v = S.integer(child(n, 1), e, p.st);
        const id type = N(target).type;
        const ir::type* rt = type != ir::no_id && S.rs.types.at(type).kind == ir::type_kind::range ? &S.rs.types.at(type) : nullptr;
        // the target read where it is (bound_site::whole), in the state v was computed in
        std::optional<z3::expr> read;
        if (rt && rt->policy == ir::overflow::error && places.size() > 1) read = S.integer(target, e, p.st);
        drain(p, n);
        bound_site bs(ctx);
        set_place(bs, p, n);
        bs.slot = slot_of(target);
        bs.type = type;
        if (rt && rt->policy == ir::overflow::error) {
            bs.replay.recorded = true;
            bs.replay.st = S.snapshot(p.st);
            bs.replay.locals = e.locals;
            bs.replay.variables_from = variables_from;
            bs.replay.variables_to = S.variables.size();
        }
        if (read) bs.whole = nd.code == op::assign ? v : nd.code == op::add_assign ? *read + v : *read - v;
        z3::expr_vector changes(ctx);
        for (place& pl : places) {
            const z3::expr old = p.st.values.at(pl.index);
            z3::expr nv = nd.code == op::assign ? v : nd.code == op::add_assign ? old + v : old - v;
            if (rt) {
                const z3::expr lo = S.num(rt->lo), hi = S.num(rt->hi);
                if (rt->policy == ir::overflow::error) {
                    bs.out.push_back(pl.when && (nv < lo || nv > hi));
                    bs.value.push_back(nv);
                    bs.when.push_back(pl.when);
                }
                if (rt->policy == ir::overflow::clamp) nv = z3::ite(nv < lo, lo, z3::ite(nv > hi, hi, nv));
            }
            changes.push_back(pl.when && nv != old);
            p.st.values[pl.index] = fold_.is_true(pl.when) ? nv : z3::ite(pl.when, nv, old);
        }
        // `+= 0` is a designer's explicit "no effect" (a table cell's), not a rule that fails
        const bool says_nothing = nd.code != op::assign && N(child(n, 1)).code == op::const_int && N(child(n, 1)).value == 0;
        if (!examples_ && !p.dead && in_setup_ == 0 && !says_nothing && !changes.empty()) {
            effect_site es(ctx);
            set_place(es, p, n);  // the facts before the assignment, as the bound site
            es.slot = bs.slot;
            es.changes = z3::mk_or(changes);
            S.effect_sites.push_back(std::move(es));
        }
        if (!bs.out.empty()) S.bound_sites.push_back(std::move(bs));
        if (rt && rt->policy == ir::overflow::error) {
            // the engine stops with an error otherwise: the game goes on only within range
            z3::expr_vector ok(ctx);
            for (const place& pl : places) ok.push_back(z3::implies(pl.when, S.in_type(p.st.values[pl.index], type)));
            if (!ok.empty()) add_fact(p, z3::mk_and(ok), "the value stays in range at " + at(n));
        }
    }

    // The per-location counts follow a move of one piece (all: of every piece of `from`) from
    // the zone node `zf` names to the one `zt` names; counted again from membership where a zone
    // is not named by its declaration.
    void move_counts(path& p, id kind, id zf, const z3::expr& from, id zt, const z3::expr& to, bool all) {
        if (kind == ir::no_id) return;
        const id a = S.zone_of(zf), b = S.zone_of(zt);
        if (a == ir::no_id || b == ir::no_id) {
            S.count_resync(p.st, kind);
            return;
        }
        if (S.count_cells(a).empty() && S.count_cells(b).empty()) return;
        S.count_move(p.st, a, from, b, to, S.num(1), all);
    }

    void move_instances(path& p, id kind, const std::function<z3::expr(std::uint32_t, const z3::expr&)>& new_loc) {
        if (kind == ir::no_id || kind >= S.lay.kind_first.size()) return;
        for (std::uint32_t i = 0; i < S.lay.kind_count[kind]; ++i) {
            const std::uint32_t inst = S.lay.kind_first[kind] + i;
            p.st.loc[inst] = new_loc(inst, p.st.loc[inst]);
        }
    }

    // Dead paths are run too: what they reach is recorded with a false path condition, so
    // the checks can say why it is never reached.
    void run(id n, env& e, path& p) {
        if (n == ir::no_id || S.stopped) return;
        if (S.deadline && std::chrono::steady_clock::now() > *S.deadline) {
            S.stopped = true;
            return;
        }
        current here(*this, p, n);
        const ir::node& nd = N(n);
        switch (nd.code) {
            case op::seq:
                for (std::uint32_t i = 0; i < nd.child_count; ++i) run(child(n, i), e, p);
                return;
            case op::block: {
                block_site b(ctx);
                b.node = n;
                b.pc = p.pc;
                b.facts = p.facts;
                b.block = nd.ref;
                S.block_sites.push_back(std::move(b));
                // Each phase is checked from any state the declared domain allows (ranges,
                // zones, invariants), not from what the phases before it did: a sound summary
                // that keeps every query about one phase small.
                if (rs.blocks.at(nd.ref).word == "phase") start_phase(p, e, rs.blocks.at(nd.ref).path);
                if (rs.blocks.at(nd.ref).word != "turn") {
                    const bool setup = rs.blocks.at(nd.ref).word == "setup";
                    in_setup_ += setup ? 1 : 0;
                    for (std::uint32_t i = 0; i < nd.child_count; ++i) run(child(n, i), e, p);
                    in_setup_ -= setup ? 1 : 0;
                    return;
                }
                // a turn: the paths an `end turn` took out of it join at its end
                const fact_list base = p.facts;
                const z3::expr base_pc = p.pc;
                const int depth = p.depth;
                std::vector<path> ended;
                turn_ends_.push_back(&ended);
                for (std::uint32_t i = 0; i < nd.child_count; ++i) run(child(n, i), e, p);
                turn_ends_.pop_back();
                for (path& q : ended) join_turn_end(p, q, base, base_pc, depth, n);
                return;
            }
            case op::let: {
                sv v = S.value(child(n, 0), e, p.st);
                drain(p, n);
                if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
                if (!v.is_map) e.locals[nd.ref] = v.e.is_bool() ? z3::ite(v.e, S.num(1), S.num(0)) : v.e;
                return;
            }
            case op::assign:
            case op::add_assign:
            case op::sub_assign: assign(n, e, p); return;
            case op::if_: {
                const z3::expr c = S.boolean(child(n, 0), e, p.st);
                drain(p, n);
                const id then_ = child(n, 1), else_ = child(n, 2);
                // A way an option closes is not run (see skipped_ways): its questions all had a
                // false fact, and asking them cost GMT's check as much as the rest (19.8's
                // guarded second activation). The way is still noted, for the dead-branch check.
                const bool option_closed = !S.free_options && reads_option(child(n, 0));
                auto way = [&](path& w, id body, bool taken) {
                    note_branch(p, w, n, body, taken);
                    if (option_closed && w.dead && (taken ? fold_.is_false(c) : fold_.is_true(c))) {
                        S.skipped_ways.push_back(body);
                        note_blocks_and_ends(body);
                        return;
                    }
                    run(body, e, w);
                };
                branch(p, c, "the `if` at " + at(n) + " holds", n, [&](path& t) { way(t, then_, true); },
                       N(else_).code == op::absent ? std::function<void(path&)>() : [&](path& f) { way(f, else_, false); });
                return;
            }
            case op::for_each: {
                const id set = child(n, 0), body = child(n, 2);
                std::vector<member> ms = S.set_members(set, e, p.st);
                drain(p, n);
                const writes& w = writes_of(body);
                // the type of the loop's variable: a list's element type (none for a zone)
                const ir::type& set_type = rs.types.at(N(set).type);
                const id elem_type = set_type.kind == ir::type_kind::list_of ? set_type.value : ir::no_id;
                const bool seats = elem_type != ir::no_id && rs.types.at(elem_type).kind == ir::type_kind::player;
                if (examples_ && unrolls(ms)) {
                    // An example's `given` is one situation from the start of a game: a loop over
                    // members known there runs round by round, over the members as they are at its
                    // start (the engine's order and snapshot), not forgetting what it writes.
                    if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
                    const std::optional<z3::expr> saved = e.locals[nd.ref], saved_active = S.active;
                    for (const member& m : ms) {
                        if (m.in.is_false()) continue;
                        e.locals[nd.ref] = m.value;
                        if (seats) S.active = m.value;
                        run(body, e, p);
                    }
                    e.locals[nd.ref] = saved;
                    S.active = saved_active;
                    return;
                }
                if (!ms.empty()) {
                    path b = p;
                    loop_head head;
                    forget(b, w, n, &head);
                    keep_untaken(b, p, body, w, n, head);
                    // the members as they are at the start of this round, encoded on the round's
                    // path: a rule or table consulted there has the facts of the round's start
                    {
                        current in_round(*this, b, n);
                        ms = S.set_members(set, e, b.st);
                    }
                    drain(b, n);
                    z3::expr x = S.fresh("each", elem_type, "the element of the loop at " + at(n), variable::show::value, 0);
                    z3::expr_vector which(ctx);
                    for (const member& m : ms) which.push_back(x == m.value && m.in);
                    add_fact(b, z3::mk_or(which), "an element of the loop at " + at(n));
                    // The loop visits each piece once and its rounds move only their own piece:
                    // this round's piece is where it was before the loop (the forgetting above
                    // lost that). Else a `move x from Z` of the loop's piece would be unmet in
                    // states no game holds.
                    if (const id kind = loop_piece_kind(set);
                        !no_frames_ && kind != ir::no_id && w.kinds.count(kind) && kind < S.lay.kind_first.size() && moves_only_local(body, nd.ref, kind)) {
                        z3::expr_vector kept(ctx);
                        for (std::uint32_t i = 0; i < S.lay.kind_count[kind]; ++i) {
                            const std::uint32_t k = S.lay.kind_first[kind] + i;
                            if (!z3::eq(b.st.loc[k], p.st.loc[k])) kept.push_back(z3::implies(x == S.num(k), b.st.loc[k] == p.st.loc[k]));
                        }
                        if (!kept.empty()) add_fact(b, z3::mk_and(kept), "the piece of the loop at " + at(n) + " is where it was before the loop");
                    }
                    if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
                    const std::optional<z3::expr> saved = e.locals[nd.ref], saved_active = S.active;
                    e.locals[nd.ref] = x;
                    if (seats) S.active = x;
                    run(body, e, b);
                    note_invariants(b, n, "the end of a round of the loop at " + at(n));
                    e.locals[nd.ref] = saved;
                    S.active = saved_active;
                    leave_loop(p, w, head, n);
                    return;
                }
                forget(p, w, n);
                return;
            }
            case op::while_:
            case op::repeat_until: {
                const bool is_while = nd.code == op::while_;
                const id cond = child(n, is_while ? 0 : 1), body = child(n, is_while ? 1 : 0);
                const writes& w = writes_of(body);
                path b = p;
                loop_head head;
                forget(b, w, n, &head);
                keep_untaken(b, p, body, w, n, head);
                if (is_while) {
                    current in_round(*this, b, n);  // as a for-each's members above
                    const z3::expr c = S.boolean(cond, e, b.st);
                    drain(b, n);
                    add_fact(b, c, "the loop condition at " + at(n) + " holds");
                }
                run(body, e, b);
                note_invariants(b, n, "the end of a round of the loop at " + at(n));
                leave_loop(p, w, head, n);
                const z3::expr c = S.boolean(cond, e, p.st);
                drain(p, n);
                add_fact(p, is_while ? !c : c, "the loop at " + at(n) + " has ended");
                return;
            }
            case op::shuffle: return;  // the order of a zone is not modelled
            case op::draw:
            case op::deal: {
                const std::size_t variables_from = S.variables.size();
                const z3::expr count = S.integer(child(n, 0), e, p.st);
                const z3::expr from = S.zone_instance(child(n, 1), e, p.st);
                sv to = S.value(child(n, 2), e, p.st);
                drain(p, n);
                const id kind = kind_of_zone_node(child(n, 1));
                if (kind != ir::no_id) {
                    // the cards asked for: `count` to each zone given to (each seat in play's, for
                    // a per-player zone), as the engines draw them; fewer in `from` is a short draw
                    z3::expr asked = count;
                    if (to.is_map) {
                        asked = S.num(0);
                        for (std::size_t s = 0; s < to.elems.size(); ++s)
                            asked = terms::add(asked, terms::ite(S.n_players > static_cast<int>(s), count, S.num(0)));
                    }
                    note_obligation(p, n, obligation_site::what::draw, zone_of_node(child(n, 1)),
                                    terms::lt(S.pieces_in(kind, from, p.st), asked), {asked, from}, variables_from);
                }
                S.approximations.insert("which cards a draw or deal takes (any cards of the zone)");
                move_instances(p, kind, [&](std::uint32_t inst, const z3::expr& old) {
                    z3::expr moved = ctx.bool_const(("drawn" + std::to_string(inst) + "_" + std::to_string(n)).c_str());
                    z3::expr dest = to.e;
                    if (to.is_map) {
                        dest = S.fresh("dealt", ir::no_id, "where a dealt card went", variable::show::zone, -1);
                        z3::expr_vector opts(ctx);
                        for (std::size_t s = 0; s < to.elems.size(); ++s) opts.push_back(dest == to.elems[s] && S.n_players > static_cast<int>(s));
                        S.side.push_back(z3::mk_or(opts));
                    }
                    return z3::ite(moved && old == from, dest, old);
                });
                drain(p, n);
                S.count_resync(p.st, kind);  // how many a draw takes is not followed: counted again
                return;
            }
            case op::move: {
                const id what = child(n, 0);
                const z3::expr from = S.zone_instance(child(n, 1), e, p.st);
                const z3::expr to = S.zone_instance(child(n, 2), e, p.st);
                z3::expr inst = S.integer(what, e, p.st);
                const id t = N(what).type;
                const id kind = t != ir::no_id && rs.types.at(t).kind == ir::type_kind::entity ? rs.types.at(t).ref : ir::no_id;
                std::optional<z3::expr> no_copy_here;  // a named card of several copies: none is in the zone
                if (N(what).code == op::const_entity && N(what).value >= 0) {
                    // a named card stands for any copy of it in the zone
                    const ir::entity& en = rs.entities.at(static_cast<std::size_t>(N(what).value));
                    if (en.count > 1) {
                        const std::int64_t lo = S.lay.entity_first.at(static_cast<std::size_t>(N(what).value));
                        inst = S.fresh("copy", t, "the copy moved at " + at(n), variable::show::instance, lo);
                        S.side.push_back(inst >= S.num(lo) && inst < S.num(lo + en.count));
                        z3::expr_vector copies(ctx);
                        for (std::int64_t c = 0; c < en.count; ++c) copies.push_back(p.st.loc.at(static_cast<std::size_t>(lo + c)) == from);
                        no_copy_here = !z3::mk_or(copies);
                    }
                }
                drain(p, n);
                z3::expr_vector here(ctx);
                if (kind != ir::no_id)
                    for (std::uint32_t i = 0; i < S.lay.kind_count[kind]; ++i) {
                        const std::uint32_t k = S.lay.kind_first[kind] + i;
                        here.push_back(inst == S.num(static_cast<std::int64_t>(k)) && p.st.loc[k] == from);
                    }
                if (!here.empty()) {
                    note_obligation(p, n, obligation_site::what::move, zone_of_node(child(n, 1)),
                                    no_copy_here ? *no_copy_here : terms::not_(z3::mk_or(here)), {inst, from}, S.variables.size());
                    add_fact(p, z3::mk_or(here), "the card moved at " + at(n) + " is where it is taken from");
                }
                move_instances(p, kind, [&](std::uint32_t k, const z3::expr& old) {
                    return z3::ite(inst == S.num(static_cast<std::int64_t>(k)), to, old);
                });
                move_counts(p, kind, child(n, 1), from, child(n, 2), to, false);
                return;
            }
            case op::reshuffle: {
                const z3::expr from = S.zone_instance(child(n, 0), e, p.st);
                const z3::expr into = S.zone_instance(child(n, 1), e, p.st);
                drain(p, n);
                // (also `move all from … to …`, value 1: the same in membership, the order not modelled)
                move_counts(p, kind_of_zone_node(child(n, 0)), child(n, 0), from, child(n, 1), into, true);
                move_instances(p, kind_of_zone_node(child(n, 0)),
                               [&](std::uint32_t, const z3::expr& old) { return z3::ite(old == from, into, old); });
                return;
            }
            case op::choose_one: {
                note_invariants(p, n, "the decision at " + at(n));
                const z3::expr extra = ctx.bool_val(true);
                choice_site cs(ctx);
                cs.replay.recorded = true;
                cs.replay.st = S.snapshot(p.st);
                cs.replay.locals = e.locals;
                cs.replay.variables_from = S.variables.size();
                auto [opts, any] = options(n, e, p, extra);
                cs.replay.variables_to = S.variables.size();
                drain(p, n);
                cs.node = n;
                cs.pc = p.pc;
                cs.facts = p.facts;
                cs.from_setup = p.from_setup;
                cs.none_legal = !any;
                S.choice_sites.push_back(std::move(cs));
                const id set = child(n, 0);
                id elem_type = ir::no_id;
                if (N(set).type != ir::no_id) {
                    const ir::type& st = rs.types.at(N(set).type);
                    if (st.kind == ir::type_kind::list_of) elem_type = st.value;
                }
                z3::expr x = S.fresh("chosen", elem_type, "the choice at " + at(n), variable::show::value, 0);
                z3::expr_vector which(ctx);
                for (const member& m : opts) which.push_back(x == m.value && m.in);
                add_fact(p, which.empty() ? ctx.bool_val(false) : z3::mk_or(which), "a legal option is chosen at " + at(n));
                if (nd.ref >= e.locals.size()) e.locals.resize(nd.ref + 1);
                e.locals[nd.ref] = x;
                run(child(n, 3), e, p);
                return;
            }
            case op::choose_subset:
                if (subset(n, e, p)) return;
                [[fallthrough]];
            case op::choose_order: {
                S.approximations.insert("choices of subsets and orders (their effects are forgotten)");
                forget(p, writes_of(child(n, 3)), n);
                return;
            }
            case op::may: {
                note_invariants(p, n, "the decision at " + at(n));
                const id body = child(n, 1);
                const z3::expr poss = possible(body, e, p, ctx.bool_val(true));
                drain(p, n);
                note_demanded(p, n, body, e);
                z3::expr yes = ctx.bool_const(("may" + std::to_string(n) + "_" + std::to_string(S.variables.size())).c_str());
                S.variables.push_back({yes, "the answer at " + at(n) + " (" + rs.strings.at(static_cast<std::size_t>(nd.value)) + ")",
                                       variable::show::boolean, ir::no_id, 0});
                branch(p, yes && poss, "the player takes the option at " + at(n), n,
                       [&](path& t) {
                           note_branch(p, t, n, body, true);
                           run(body, e, t);
                       },
                       {});
                return;
            }
            case op::do_action: {
                const std::size_t from = S.variables.size();
                std::vector<z3::expr> a = args_of(n, e, p.st);
                const z3::expr legal = action_legal(nd.ref, a, p, ctx.bool_val(true), n);
                drain(p, n);
                if (!tested_dos_.count(n)) note_obligation(p, n, obligation_site::what::action, nd.ref, terms::not_(legal), a, from);
                add_fact(p, legal, "the action at " + at(n) + " is legal");
                const ir::action& act = rs.actions.at(nd.ref);
                run_body(act.body, act.locals, a, p, n, "action `" + act.name + "`");
                return;
            }
            case op::call: {
                std::vector<z3::expr> a = args_of(n, e, p.st);
                drain(p, n);
                // an example that plays a named card's event runs that event, as the engine does
                const bool named_card = examples_ && !a.empty() && a[0].simplify().is_numeral();
                if (dispatchers_.count(nd.ref) && !named_card) return play_event(n, a, p);
                const ir::procedure& pr = rs.procedures.at(nd.ref);
                run_body(pr.body, pr.locals, a, p, n, "procedure `" + pr.name + "`");
                return;
            }
            case op::resolve: resolve(n, e, p); return;
            case op::emit: {
                std::vector<z3::expr> a = args_of(n, e, p.st);
                drain(p, n);
                const id group = S.group_of_target[static_cast<int>(ir::target_kind::event)].at(nd.ref);
                if (group == ir::no_id) return;
                std::map<id, z3::expr> guards;
                std::map<id, z3::expr> eff = S.group_effective(group, a, p.st, &guards);
                drain(p, n);
                for (id r : rs.groups.at(group).rules) {
                    const ir::rule& rule = rs.rules.at(r);
                    if (rule.kind != ir::rule_kind::trigger) continue;
                    record_rule(p, r, ctx.bool_val(true), eff.at(r), guards.at(r), n);
                    branch(p, eff.at(r), "trigger `" + rule.name + "` fires at " + at(n), n,
                           [&](path& t) { run_body(rule.body, rule.locals, a, t, n, "trigger `" + rule.name + "`"); }, {});
                }
                return;
            }
            case op::end_game: {
                note_invariants(p, n, "the end of the game at " + at(n));
                end_site es(ctx);
                es.node = n;
                es.pc = p.pc;
                es.facts = p.facts;
                es.reason = nd.value >= 0 && static_cast<std::size_t>(nd.value) < rs.strings.size()
                                ? rs.strings[static_cast<std::size_t>(nd.value)]
                                : std::to_string(nd.value);
                S.end_sites.push_back(std::move(es));
                if (nd.ref == 0) {
                    p.dead = true;
                    p.pc = ctx.bool_val(false);
                }
                return;
            }
            case op::simultaneous:
                // docs/language.md §5: for the checker the players' secret choices are their
                // choices in the block's order, with no information between them but the state
                // (every outcome of secret play is one of open play); the reveal does nothing.
                run(child(n, 0), e, p);
                return;
            case op::reveal: return;
            case op::end_turn:
                end_turn_here(p);
                p.dead = true;
                p.pc = ctx.bool_val(false);
                return;
            case op::fix_roll: {
                const id roll = child(n, 0);
                z3::expr v = S.integer(child(n, 1), e, p.st);
                drain(p, n);
                p.fixed.insert_or_assign(N(roll).ref, v);
                return;
            }
            default: return;
        }
    }

    void resolve(id n, env& e, path& p) {
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
            forget(p, writes_of(n), n);
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
};

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
        examples.push_back({r, p.facts, p.pc, expect, std::move(shown), std::move(shown_nodes), std::move(start), active});
        active.reset();
    }
}

}  // namespace wp::verify::detail
