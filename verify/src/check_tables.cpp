// The tables' checks: keys no row or column covers, rows that overlap, cells no key selects.
#include "accepts.hpp"
#include "checker.hpp"

namespace wp::verify {

namespace {
// The engine's words after the position it names ("file:line:col: no row of table t for key 0").
std::string without_position(const std::string& message) {
    const std::size_t sep = message.find(": ");
    return sep == std::string::npos ? message : message.substr(sep + 2);
}
}  // namespace

// A gap of the table that a game of the random play met where the sequence consults it: the
// game decides it, from setup, and no question is asked (on Contractor Cards' `--upto base` the
// two gaps' questions took 0.9 s of the first part's 5.6 s, to find what the games had shown).
// Not where the witness would be searched among few values: the question is cheap there, and
// its witness says why (`the choice at … = Rough`), where a game only shows that it happens.
bool checker::played_table_gap(const ir::table& tb, const std::vector<const detail::table_site*>& sites) {
    for (const fault_met& m : out_.faults) {
        if (m.kind != "table-gap" || m.subject != tb.name || m.message.empty()) continue;
        const auto s = std::find_if(sites.begin(), sites.end(), [&](const detail::table_site* x) {
            return statement_prov(x->node).where == m.at.where;
        });
        if (s == sites.end()) continue;
        // the values a witness there would be searched among (solve's `near`, at most)
        z3::expr_vector keys(ctx_);
        for (const z3::expr& k : (*s)->keys) keys.push_back(k == k);
        std::size_t values = 0;
        for (unsigned v : variables_of(neighbourhood((*s)->facts, z3::mk_and(keys), 1))) values += index_.count(v);
        if (values <= exact_witness_limit) return false;
        const std::string said = without_position(m.message);
        const bool shift = said.find(" shifted by ") != std::string::npos;
        const bool column = said.rfind("no column", 0) == 0;
        finding& f = add("table-gap", severity::error, tb.name,
                         shift ? "the column shift of table `" + tb.name + "` can move the column read off the table (" +
                                     std::to_string(tb.columns.size()) + " columns, no `clamp`)"
                               : "table `" + tb.name + "` has no " + (column ? "column" : "row") + " for a key that can occur");
        f.elements.push_back({"table", tb.name, tb.prov});
        f.elements.push_back({"statement", "use of " + tb.name, statement_prov((*s)->node)});
        if (!shift) modifiers_of(tb, f);
        // the key as a solver's witness says it, where the engine names a plain one
        const std::size_t key_at = said.rfind(" for key ");
        f.witness.push_back(key_at != std::string::npos && !shift
                                ? std::string("the ") + (column ? "column" : "row") + " key = " + said.substr(key_at + 9) + ", in the game below"
                                : "in the game below, the engine: " + said);
        f.reach = reach_kind::trace;
        f.trace = m.trace;
        f.replay = "confirmed: the engine met it in a game from setup (the trace below)";
        return true;
    }
    return false;
}

void checker::table_checks() {
    std::map<id, std::vector<const detail::table_site*>> by_table;
    for (const detail::table_site& s : sym_.table_sites) by_table[s.table].push_back(&s);
    for (auto& [t, sites] : by_table)  // a recursion's summary last: witnesses there rest on it
        std::stable_partition(sites.begin(), sites.end(), [](const detail::table_site* s) { return !s->summarised; });
    for (id t = 0; t < rs_.tables.size(); ++t) {
        const ir::table& tb = rs_.tables[t];
        const bool accepted = detail::accepted_before(rs_, "table-gap", tb.name);  // its witness not searched for
        const slow_check_timer timing{debug_, "table " + tb.name};
        overlaps(tb, tb.rows.size(), [&](std::size_t i) { return tb.rows[i].key; }, "row");
        if (!tb.columns.empty()) overlaps(tb, tb.columns.size(), [&](std::size_t i) { return tb.columns[i]; }, "column");
        auto it = by_table.find(t);
        if (it == by_table.end()) continue;
        // gaps: a key that can occur and that no row (or column) covers
        bool gap = played_table_gap(tb, it->second);
        for (std::size_t k = 0; k < tb.keys.size() && k < 2 && !gap; ++k) {
            for (const detail::table_site* s : it->second) {
                const z3::expr key = s->keys.at(k);
                if (interval_covered(tb, k, *s)) continue;
                z3::expr_vector any(ctx_);
                if (k == 0) {
                    for (const ir::table_row& r : tb.rows)
                        if (!r.natural) any.push_back(detail::key_in(ctx_, r.key, key, ir::odds_fractional(tb, 0)));
                    if (!tb.natural_map.dense.empty()) any.push_back(detail::natural_covers(ctx_, tb, s->keys));
                } else {
                    for (const ir::key_range& c : tb.columns) any.push_back(detail::key_in(ctx_, c, key, ir::odds_fractional(tb, 1)));
                }
                const z3::expr covered = any.empty() ? ctx_.bool_val(false) : z3::mk_or(any);
                const bool odds = (k == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds;
                const std::string label =
                    "the " + std::string(k == 0 ? "row" : "column") +
                    (!odds                         ? " key"
                     : ir::odds_fractional(tb, k) ? " key (odds read as steps of 1048576: 1-1 is 0, 1.5-1 is 524288, 2-1 is 1048576)"
                                                  : " key (odds read as steps: 1-2 is -1, 1-1 is 0, 2-1 is 1)");
                answer a = solve(s->facts, !covered, true, {{label, key}}, table_gap_search(tb.name, accepted));
                if (a.r == z3::unknown) { unknown("whether every key of " + tb.name + " is covered", {{"table", tb.name, tb.prov}}); break; }
                if (a.r != z3::sat) continue;
                finding& f = add("table-gap", severity::error, tb.name,
                                 "table `" + tb.name + "` has no " + (k == 0 ? "row" : "column") + " for a key that can occur");
                f.elements.push_back({"table", tb.name, tb.prov});
                f.reach = reach_of(*s);
                f.elements.push_back({"statement", "use of " + tb.name, statement_prov(s->node)});
                modifiers_of(tb, f);
                f.witness = a.witness;
                if (a.model) replay_later([this, s, k, m = *a.model] { return replay_.table_gap(*s, k, m); });
                gap = true;
                break;
            }
        }
        // a shift without `clamp` that moves the column read off the table
        if (!gap && tb.keys.size() > 1 && tb.keys[1].shift != ir::no_id && !tb.keys[1].shift_clamp) {
            for (const detail::table_site* s : it->second) {
                if (s->keys.size() < 4) continue;
                const z3::expr idx = sym_.unshifted_column(tb, s->keys);
                const z3::expr at = idx + s->keys[3];
                const auto n = static_cast<std::int64_t>(tb.columns.size());
                answer a = solve(s->facts, idx >= 0 && (at < 0 || at >= ctx_.int_val(n)), true,
                                 {{"the column before the shift (0 is `" + tb.columns.front().text + "`)", idx}, {"the shift", s->keys[3]}},
                                 table_gap_search(tb.name, accepted));
                if (a.r == z3::unknown) {
                    unknown("whether the shift of " + tb.name + " stays on the table", {{"table", tb.name, tb.prov}});
                    break;
                }
                if (a.r != z3::sat) continue;
                finding& f = add("table-gap", severity::error, tb.name,
                                 "the column shift of table `" + tb.name + "` can move the column read off the table (" +
                                     std::to_string(n) + " columns, no `clamp`)");
                f.elements.push_back({"table", tb.name, tb.prov});
                f.reach = reach_of(*s);
                f.elements.push_back({"statement", "use of " + tb.name, statement_prov(s->node)});
                f.witness = a.witness;
                if (a.model) replay_later([this, s, m = *a.model] { return replay_.shift_gap(*s, m); });
                break;
            }
        }
        // A table that no play consults under these options but does under others (the
        // printing an option does not pick) has no dead cells: its cells are for those others.
        if (!rs_.options.empty()) {
            bool consulted = false;
            for (std::size_t i = 0; i < tb.rows.size() + tb.columns.size() && !consulted; ++i) consulted = played_key(t, i);
            for (const detail::table_site* s : it->second) {
                if (consulted) break;
                consulted = solve_local_first(s->facts, ctx_.bool_val(true)) != z3::unsat;
            }
            if (!consulted) {
                const z3::check_result elsewhere = reachable_under_other_options(it->second.front()->node);
                if (elsewhere == z3::sat) continue;
                if (elsewhere == z3::unknown) {
                    unknown("whether table " + tb.name + " is consulted under other options", {{"table", tb.name, tb.prov}},
                            severity::warning);
                    continue;
                }
            }
        }
        // dead cells: a row (column) no key that can occur selects
        // a row is read on its key, or a natural row on the natural roll (detail::symbolic::row_reads)
        auto reads = [&](std::size_t k, std::size_t index, const detail::table_site& s) {
            return k == 0 ? sym_.row_reads(tb, index, s.keys) : sym_.column_reads(tb, index - tb.rows.size(), s.keys);
        };
        auto dead = [&](const ir::key_range& key, std::size_t k, std::size_t index, const std::string& what) {
            if (played_key(t, index)) return;
            // A row (column) that play under another option value reads is that value's, as a
            // whole table is above (a scenario's own row of a shared table): not dead here.
            // Asked before the solver, whose questions on such rows are the slow ones.
            if (played_key_under_other_options(t, index)) return;
            for (const detail::table_site* s : it->second) {
                if (outside_interval(tb, k, k == 0 ? index : index - tb.rows.size(), *s)) continue;
                const z3::check_result a = solve_local_first(s->facts, reads(k, index, *s));
                if (a == z3::unknown)
                    unknown("whether " + what + " `" + key.text + "` of table " + tb.name + " can be selected",
                            {{"table", tb.name, tb.prov}}, severity::warning);
                if (a != z3::unsat) return;
            }
            // Never read under these options: under another value it may be (a scenario's own
            // row, not read in the games played under that value), and it is that value's.
            const z3::check_result elsewhere = key_read_under_other_options(tb, t, k, index);
            if (elsewhere == z3::sat) return;
            if (elsewhere == z3::unknown) {
                unknown("whether " + what + " `" + key.text + "` of table " + tb.name + " is read under other options",
                        {{"table", tb.name, tb.prov}}, severity::warning);
                return;
            }
            const bool natural = k == 0 && tb.rows[index].natural;
            const std::string shown = (natural ? "natural " : "") + key.text;
            finding& f = add("dead-cell", severity::warning, tb.name + " " + shown,
                             what + " `" + shown + "` of table `" + tb.name + "` can never be selected");
            f.elements.push_back({"table", tb.name, tb.prov});
            f.proof = proof_kind::proved;
            if (played_) f.replay = "confirmed: none of " + std::to_string(played_) + " random games read it either";
            because_at_sites(f, it->second, [&](const detail::site& s) {
                const auto* ts = static_cast<const detail::table_site*>(&s);
                return std::vector<std::pair<std::string, z3::expr>>{
                    {natural ? "the natural roll falls in `" + key.text + "`"
                     : k == 0 && !tb.natural_map.dense.empty()
                         ? "the key falls in `" + key.text + "` and the natural roll in no natural row"
                         : "the key falls in `" + key.text + "`",
                     reads(k, index, *ts)}};
            });
        };
        for (std::size_t i = 0; i < tb.rows.size(); ++i) dead(tb.rows[i].key, 0, i, "row");
        for (std::size_t i = 0; i < tb.columns.size(); ++i) dead(tb.columns[i], 1, tb.rows.size() + i, "column");
    }
}

z3::check_result checker::key_read_under_other_options(const ir::table& tb, id t, std::size_t k, std::size_t index) {
    if (rs_.options.empty()) return z3::unsat;
    if (!explore_free_options()) return z3::unknown;
    std::vector<const detail::table_site*> at;
    for (const detail::table_site& s : free_->table_sites)
        if (s.table == t) at.push_back(&s);
    return any_place_sat(at.size(), [&](std::size_t i) {
        const detail::table_site& s = *at[i];
        const z3::expr read =
            k == 0 ? free_->row_reads(tb, index, s.keys) : free_->column_reads(tb, index - tb.rows.size(), s.keys);
        return solve_local_first(s.facts, read);
    });
}

namespace {

// The integer keys a row or column covers, as [lo, hi] (open ends at the int64 limits); none
// for odds, whose keys are codes of ratios.
std::optional<detail::interval> covers(const ir::key_range& r) {
    switch (r.kind) {
        case ir::key_range_kind::member: return detail::interval{r.lo, r.lo};
        case ir::key_range_kind::integer:
            return detail::interval{r.open_lo ? INT64_MIN : r.lo, r.open_hi ? INT64_MAX : r.hi};
        case ir::key_range_kind::odds: break;
    }
    return std::nullopt;
}

}  // namespace

bool checker::interval_covered(const ir::table& tb, std::size_t k, const detail::table_site& s) {
    if ((k == 0 ? tb.row_map : tb.column_map).kind == ir::key_range_kind::odds) return false;
    std::vector<detail::interval> ranges;
    if (k == 0) {
        for (const ir::table_row& r : tb.rows)
            if (!r.natural) ranges.push_back(*covers(r.key));  // a natural row reads another key
    } else {
        for (const ir::key_range& c : tb.columns) ranges.push_back(*covers(c));
    }
    const std::optional<detail::interval> x = interval_of(s.facts, s.keys.at(k));
    if (!x) return false;
    std::sort(ranges.begin(), ranges.end(), [](const detail::interval& a, const detail::interval& b) { return a.lo < b.lo; });
    std::int64_t next = x->lo;  // the least key of the interval not yet covered
    for (const detail::interval& r : ranges) {
        if (r.lo > next) break;
        if (r.hi >= x->hi) return true;
        next = std::max(next, r.hi + 1);
    }
    return false;
}

bool checker::outside_interval(const ir::table& tb, std::size_t k, std::size_t i, const detail::table_site& s) {
    const bool natural = k == 0 && tb.rows.at(i).natural;
    const std::optional<detail::interval> range = covers(k == 0 ? tb.rows.at(i).key : tb.columns.at(i));
    if (!range) return false;
    if (k == 1 && tb.keys.size() > 1 && tb.keys[1].shift != ir::no_id) return false;  // read at a shifted column
    const std::optional<detail::interval> x = interval_of(s.facts, s.keys.at(natural ? 2 : k));
    return x && (range->hi < x->lo || range->lo > x->hi);
}

void checker::modifiers_of(const ir::table& tb, finding& f) {
    if (tb.keys.empty() || tb.keys[0].expr == ir::no_id) return;
    const ir::node& key = rs_.nodes.at(tb.keys[0].expr);
    if (key.code != ir::op::roll) return;
    const id g = sym_.group_of_target[static_cast<int>(ir::target_kind::roll)].at(key.ref);
    if (g == ir::no_id) return;
    for (id r : rs_.groups.at(g).rules)
        if (rs_.rules.at(r).kind == ir::rule_kind::modifier) f.elements.push_back(rule_elem(r));
}

void checker::overlaps(const ir::table& tb, std::size_t count, const std::function<ir::key_range(std::size_t)>& key, const std::string& what) {
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = i + 1; j < count; ++j) {
            const ir::key_range a = key(i), b = key(j);
            if (a.kind != b.kind) continue;
            if (what == "row" && tb.rows[i].natural != tb.rows[j].natural) continue;  // read on different values
            bool meet = false;
            std::string common;
            if (a.kind == ir::key_range_kind::member) {
                meet = a.lo == b.lo;
                common = a.text;
            } else if (a.kind == ir::key_range_kind::odds) {
                meet = a.lo * b.hi == b.lo * a.hi;  // the same ratio (the compiler refuses it; an IR file may not)
                common = a.text;
            } else {
                const std::int64_t alo = a.open_lo ? INT64_MIN : a.lo, ahi = a.open_hi ? INT64_MAX : a.hi;
                const std::int64_t blo = b.open_lo ? INT64_MIN : b.lo, bhi = b.open_hi ? INT64_MAX : b.hi;
                meet = alo <= bhi && blo <= ahi;
                const std::int64_t k = std::max(alo, blo) == INT64_MIN ? std::min(ahi, bhi) : std::max(alo, blo);
                common = std::to_string(k);
            }
            if (!meet) continue;
            finding& f = add("table-overlap", severity::error, tb.name,
                             what + "s `" + a.text + "` and `" + b.text + "` of table `" + tb.name + "` cover a common key");
            f.elements.push_back({"table", tb.name, tb.prov});
            if (what == "row") {
                f.elements.push_back({"row", tb.rows[i].key.text, tb.rows[i].prov});
                f.elements.push_back({"row", tb.rows[j].key.text, tb.rows[j].prov});
            }
            f.witness.push_back("the key " + common + " falls in both; the engine reads the first");
        }
}

}  // namespace wp::verify
