// What a change to the rules changes (DESIGN.md §5, `westphalia diff`): two compiled stacks of
// one ruleset (before and after an errata layer, or two rule folders) compared outcome by
// outcome with Z3 — every decision, roll, quantity, action, event and table whose outcome
// differs somewhere, with a witness situation — and the checker's findings and random play on
// both sides.
#pragma once

#include "westphalia/ir/ir.hpp"
#include "westphalia/verify/check.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wp::verify {

// One subject whose outcome differs between the two stacks.
struct outcome_change {
    std::string what;     // decision, roll, quantity, predicate, action, event, table
    std::string subject;  // its name
    std::string change;   // changed, added (only in the new stack), removed (only in the old)
    std::string message;  // one line, for a designer
    proof_kind proof = proof_kind::witness;  // witness, or unknown (the solver gave up)
    std::vector<std::string> witness;        // the situation, then "before: …" and "after: …"
    // What the engine, set in the witness's situation under each stack, gives for the subject:
    // "confirmed: …" or "not confirmed: …"; empty when it cannot be set there or has no
    // question for the subject (actions, quantities, predicates, odds tables).
    std::string replay;
    // Every situation where the outcome changed was one the old stack left undecided (a
    // decision no rule decided, a table key no row covered): the change only fills gaps.
    bool only_gaps = false;
    std::vector<involved> elements;  // the subject and its rules, new stack first
    // The touched rules' situations, for errata obligations (set by the caller's scope query).
    bool outside_scope = false;
    std::vector<std::string> outside_witness;
    std::string outside_replay;
};

// A subject's scope for errata obligations: changes of `subject` are expected where one of
// these rules applies (by name, in either stack) or, for a table, where the key is in one of
// these ranges. Empty rule and key lists: anywhere.
struct change_scope {
    std::string what, subject;
    std::vector<std::string> rules;
    std::vector<ir::key_range> rows;
};

struct diff_options {
    unsigned timeout_ms = 10000;
    int max_players = 0;  // as check_options::max_players
    // When set, each changed subject in this list is also asked whether it changes outside the
    // given situations (outcome_change::outside_scope).
    std::vector<change_scope> scopes;
    // When set and false for a subject ("decision", "wins"), a change of it gets no witness
    // (outcome_change::witness stays empty): finding the smallest costs more than the question.
    std::function<bool(const std::string& what, const std::string& subject)> wants_witness;
    // When set, only the subjects it is true for are compared (and reported added or removed):
    // a layer comparison asks only of the subjects the layer's own rules join.
    std::function<bool(const std::string& what, const std::string& subject)> only;
    // A decision's or table's change that is not only a gap filled gets its witness where the
    // old stack decided (the change the caller reports), not anywhere it changed.
    bool decided_witness = false;
};

struct outcome_diff {
    std::vector<outcome_change> changes;
    std::uint64_t subjects = 0;  // compared
    std::uint64_t queries = 0;
    double milliseconds = 0;
};

// Compares every subject of `from` and `to` under their selected options.
outcome_diff compare_outcomes(const ir::ruleset& from, const ir::ruleset& to, const diff_options& options = {});

// The subjects whose rules, expression or cells read `subject` (transitively), in `rs`:
// "decision wins" style keys (what + " " + name).
std::vector<std::string> dependents(const ir::ruleset& rs, const std::string& subject_key);

// Findings present on one side only, matched by kind and subject.
struct finding_changes {
    std::vector<finding> appeared, disappeared;
};
finding_changes compare_findings(const check_result& from, const check_result& to);

}  // namespace wp::verify
