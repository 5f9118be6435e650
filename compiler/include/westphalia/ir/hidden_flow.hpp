// What the rules read out of hidden fields (docs/checker.md, `hidden-leak`; docs/play-testing.md,
// the account as a seat knows it). No solver: the values an expression reads, through `let`s, the
// arguments of procedure calls, actions, tables and events, and the quantities, decisions, rolls
// and map searches it consults. Only numbers and truth values carry a hidden amount; what a
// condition tells is not followed. The checker reports public fields written from hidden ones;
// the engine withholds, from a seat's account, another seat's choice whose options read them.
#pragma once

#include "westphalia/ir/ir.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace wp::ir {

// Per slot, whether it is hidden from some players under the options' selected values.
std::vector<char> hidden_slots(const ruleset& rs);

class hidden_flow {
public:
    // `hidden`: per slot, whether some players do not see it in this game (hidden_slots, or the
    // engine's game::slot_hidden under the options a game was set up with). Follows the locals
    // at once; rs must outlive this.
    hidden_flow(const ruleset& rs, std::vector<char> hidden);
    ~hidden_flow();
    hidden_flow(const hidden_flow&) = delete;
    hidden_flow& operator=(const hidden_flow&) = delete;

    bool any_hidden() const;
    // Each assignment to a field every player sees of a value read from a hidden one, in the
    // order of the bodies (procedures, actions, sequences, triggers, table cells).
    void each_leak(const std::function<void(id node, id public_slot, id hidden_slot)>& f) const;
    // What a choice's options read: the first hidden slot its set reads (then the options and
    // the choice tell of it), and the first its `where` reads (then the options do).
    struct choice_reads {
        id set = no_id, filter = no_id;
    };
    // Per node, for each choice (choose_one, choose_subset, choose_order); {no_id, no_id} for
    // every other node.
    std::vector<choice_reads> choice_sources() const;

private:
    class impl;
    std::unique_ptr<impl> impl_;
};

}  // namespace wp::ir
