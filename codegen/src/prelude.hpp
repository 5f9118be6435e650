// The fixed part of every generated file: the generator, the state's storage and the zone,
// chance and decision helpers. Kept as text; translate.cpp writes it after the layout
// constants (WP_MAXP, WP_VALUES, ...) that it uses.
#pragma once

namespace wp::codegen {

inline constexpr const char* prelude = R"CPP(
// The engine's generator (engine.hpp), repeated here so that the generated file stands alone:
// splitmix64, rejection sampling below n. tests/compiled fails if the two ever differ.
struct rng {
    std::uint64_t s = 0;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t limit = ~0ull - (~0ull % n);
        std::uint64_t x = next();
        while (x >= limit) x = next();
        return x % n;
    }
};

// An engine error; one that is a fault of the rules says which, in the checker's words, as the
// interpreter's does (engine::engine_fault: kind, subject, side; the simulator finds the node
// from the kind and the position).
struct engine_error : std::runtime_error {
    using std::runtime_error::runtime_error;
    engine_error(const std::string& what, const char* k, std::string subj, const char* sd)
        : std::runtime_error(what), kind(k), subject(std::move(subj)), side(sd) {}
    const char* kind = "";
    std::string subject;
    const char* side = "";
};

[[noreturn, gnu::noinline, gnu::cold]] inline void fail(const char* where, const std::string& what) {
    throw engine_error(std::string(where) + ": " + what);
}
[[noreturn, gnu::noinline, gnu::cold]] inline void fail_fault(const char* where, const std::string& what, const char* kind,
                                                              const std::string& subject, const char* side) {
    throw engine_error(std::string(where) + ": " + what, kind, subject, side);
}

// Checked arithmetic, worded as the interpreter words it (engine/src/interp.hpp): `owner` names
// the statement.
[[noreturn, gnu::noinline, gnu::cold]] inline void overflow(const char* where, const char* owner, const std::string& what) {
    fail(where, what + " is outside the 64-bit integers (" + owner + ")");
}
[[gnu::always_inline]] inline i64 add_ck(const char* where, const char* owner, i64 a, i64 b) {
    i64 r;
    if (__builtin_add_overflow(a, b, &r)) [[unlikely]] overflow(where, owner, std::to_string(a) + " + " + std::to_string(b));
    return r;
}
[[gnu::always_inline]] inline i64 sub_ck(const char* where, const char* owner, i64 a, i64 b) {
    i64 r;
    if (__builtin_sub_overflow(a, b, &r)) [[unlikely]] overflow(where, owner, std::to_string(a) + " - " + std::to_string(b));
    return r;
}
[[gnu::always_inline]] inline i64 mul_ck(const char* where, const char* owner, i64 a, i64 b) {
    i64 r;
    if (__builtin_mul_overflow(a, b, &r)) [[unlikely]] overflow(where, owner, std::to_string(a) + " * " + std::to_string(b));
    return r;
}
[[gnu::always_inline]] inline i64 neg_ck(const char* where, const char* owner, i64 a) {
    if (a == std::numeric_limits<i64>::min()) [[unlikely]] overflow(where, owner, "-(" + std::to_string(a) + ")");
    return -a;
}
inline i64 abs_ck(const char* where, const char* owner, i64 a) {
    if (a == std::numeric_limits<i64>::min()) [[unlikely]] overflow(where, owner, "abs(" + std::to_string(a) + ")");
    return a < 0 ? -a : a;
}
// a / d and a % d, d != 0: only the lowest value divided by -1 overflows (its remainder is 0)
inline i64 div_ck(const char* where, const char* owner, i64 a, i64 d, bool mod) {
    if (d == -1 && a == std::numeric_limits<i64>::min()) [[unlikely]] {
        if (mod) return 0;
        overflow(where, owner, std::to_string(a) + " / " + std::to_string(d));
    }
    return mod ? a % d : a / d;
}

class game_state {
public:
    int players() const { return np; }
    // Value `key` of copy `copy` (a seat, a card of the slot's kind) of state slot `slot`
    // (an index into the IR's slots).
    i64 value(std::uint32_t slot, int copy = 0, int key = 0) const {
        return v[slot_offset[slot] + static_cast<std::uint32_t>(copy) * slot_width[slot] + static_cast<std::uint32_t>(key)];
    }
    // The cards or pieces in zone `zone` (an index into the IR's zones) of seat `copy` (0 for a
    // shared zone), bottom first, as entity instances; *size gets their number.
    const std::int32_t* zone(std::uint32_t zone, int copy, std::uint32_t* size) const {
        const std::uint32_t z = zone_first_of[zone] + static_cast<std::uint32_t>(copy);
        *size = zs[z];
        return c + zone_offset[z];
    }

    i64 v[WP_VALUES];
    std::int32_t c[WP_CONTENTS];
    std::uint32_t zs[WP_ZONES];
    int np = 0;
    rng r, ar;
    i64 natural = 0;  // the last roll before its modifiers (tables with natural rows read it)
    std::uint64_t decisions = 0, max_decisions = 0;
    bool done = false, limit = false;
    int end_at = 0;
    bool turn_ends = false;  // an `end turn` in a procedure: its callers return up to the turn's function
    const char* end_reason = "";
    const char* pending_end = "";
    // The lists `choose subset` and `choose order` make, as a stack: a list local holds its
    // start << 24 | its length (the interpreter's encoding).
    i64 list_store[WP_LIST_CAP];
    std::uint32_t list_top = 0;
    // Rule firings (with count_fires; interp::fire): once per step (a statement, a loop's
    // condition, a seat's `wins`) at most; fire_log lists those of the current step.
    bool count_fires = false;
    bool reached_decision = false;  // the interpreter's state constructor has returned
    std::uint64_t fires[WP_RULES] = {};
    std::uint64_t fire_stamp[WP_RULES] = {};
    std::uint64_t step = 1;
    std::uint32_t fire_log[WP_RULES] = {};
    std::uint32_t fire_log_size = 0;
    i64 active = -1;          // the seat of the innermost loop over the players
    i64 pending_player = -1;  // the seat of the last decision (-1: an ownerless pick)
    bool first_agent = false;       // every seat takes the first legal option (else random)
    bool check_invariants = false;  // after every decision and at the end
    // Invariants found broken, in the order found: their index and the decision after which.
    std::uint64_t broken = 0;  // bit k: invariant k
    int broken_count = 0;
    std::uint8_t broken_order[64] = {};
    std::uint64_t broken_after[64] = {};
    // The designer's queries answered, in the order answered: their index and the decision after which.
    std::uint64_t answered = 0;  // bit k: query k
    int answered_count = 0;
    std::uint8_t answered_order[64] = {};
    std::uint64_t answered_after[64] = {};
};

using S = game_state;

static void check_invariants(S& s);

inline void finish(S& s, const char* reason) {
    s.done = true;
    s.end_reason = reason;
}

[[gnu::always_inline]] inline i64 entity_or_none(i64 inst) {
    return inst < 0 || inst >= WP_INSTANCES ? -1 : instance_entity[inst];
}

[[gnu::always_inline]] inline const char* instance_text(i64 inst) { return inst < 0 || inst >= WP_INSTANCES ? "none" : instance_names[inst]; }

[[gnu::always_inline]] inline i64 zone_check(const char* where, i64 z) {
    if (z < 0 || z >= WP_ZONES) [[unlikely]]
        fail(where, "no zone");
    return z;
}

[[gnu::always_inline]] inline i64 seat_check(const S& s, const char* where, i64 p, const char* what) {
    if (p < 0 || p >= s.np) [[unlikely]]
        fail(where, what);
    return p;
}

[[gnu::always_inline]] inline i64 ztop(const S& s, i64 z) { return s.zs[z] > 0 ? s.c[zone_offset[z] + s.zs[z] - 1] : -1; }

inline void zremove(S& s, const char* where, i64 z, i64 inst) {
    std::int32_t* first = s.c + zone_offset[z];
    std::uint32_t& size = s.zs[z];
    for (std::uint32_t i = size; i-- > 0;) {
        if (first[i] == inst) {
            for (std::uint32_t j = i; j + 1 < size; ++j) first[j] = first[j + 1];
            --size;
            return;
        }
    }
    const std::string zone = zone_names[z];  // the fault's subject: the zone as declared (no "[P2]")
    fail_fault(where, std::string(instance_text(inst)) + " is not in " + zone, "unmet-obligation", zone.substr(0, zone.find('[')), "");
}

inline void zadd(S& s, const char* where, i64 z, i64 inst) {
    if (inst < 0 || inst >= WP_INSTANCES || instance_kind[inst] != zone_kind[z]) [[unlikely]]
        fail(where, std::string("cannot put ") + instance_text(inst) + " in " + zone_names[z]);
    s.c[zone_offset[z] + s.zs[z]++] = static_cast<std::int32_t>(inst);
}

// `move all from z to into`: every instance of z, in its order, onto into (a stack moving as one).
inline void zmove_all(S& s, const char* where, i64 z, i64 into) {
    if (z == into) return;
    const std::int32_t* first = s.c + zone_offset[z];
    for (std::uint32_t i = 0; i < s.zs[z]; ++i) zadd(s, where, into, first[i]);
    s.zs[z] = 0;
}

// A location's index into a per-location zone (n locations).
[[gnu::always_inline]] inline i64 location_check(const char* where, i64 k, i64 n) {
    if (k < 0 || k >= n) [[unlikely]]
        fail(where, "zone of no location");
    return k;
}

// The topmost copy of inst's entity in zone z (inst itself when there is none).
inline i64 copy_in(const S& s, i64 z, i64 inst) {
    const std::int32_t* first = s.c + zone_offset[z];
    for (std::uint32_t i = s.zs[z]; i-- > 0;)
        if (entity_or_none(first[i]) == entity_or_none(inst)) return first[i];
    return inst;
}

inline void zshuffle(S& s, i64 z) {
    std::int32_t* first = s.c + zone_offset[z];
    for (std::uint32_t i = s.zs[z]; i > 1; --i) {
        const auto j = static_cast<std::uint32_t>(s.r.below(i));
        std::swap(first[i - 1], first[j]);
    }
}

[[gnu::always_inline]] inline bool zcontains(const S& s, i64 z, i64 v, bool by_entity) {
    const std::int32_t* it = s.c + zone_offset[z];
    const std::int32_t* end = it + s.zs[z];
    if (by_entity) {
        const i64 e = entity_or_none(v);
        for (; it != end; ++it)
            if (entity_or_none(*it) == e) return true;
        return false;
    }
    for (; it != end; ++it)
        if (*it == v) return true;
    return false;
}

// A chance event with outcomes lo + i weighted w[i] out of total (the interpreter's sampling).
[[gnu::always_inline]] inline i64 chance(S& s, i64 lo, const std::uint64_t* w, std::size_t n, std::uint64_t total) {
    std::uint64_t x = s.r.below(total);
    for (std::size_t i = 0; i < n; ++i) {
        if (x < w[i]) return lo + static_cast<i64>(i);
        x -= w[i];
    }
    return lo + static_cast<i64>(n) - 1;
}

// `(e)dM`: c dice, one chance event for their total, from the tables of each count's
// distribution (engine: interp::dice_count).
inline i64 dice_count(S& s, const char* where, const char* owner, i64 c, i64 most, i64 low, const std::uint64_t* const* w,
                      const std::size_t* n, const std::uint64_t* total) {
    if (c < 0) fail(where, "a negative count of dice (" + std::to_string(c) + ") (" + owner + ")");
    if (c > most)
        fail(where, "a count of dice (" + std::to_string(c) + ") above its limit " + std::to_string(most) + " (" + owner + ")");
    if (c == 0) return 0;
    return chance(s, c * low, w[c], n[c], total[c]);
}

// A decision of `player` among n options, by the random agent; false (the game stops) at the
// decision limit.
[[gnu::always_inline]] inline bool decision_allowed(S& s) {
    s.reached_decision = true;
    // the state the last decision led to (the interpreter's simulator checks it there)
    if (s.check_invariants && s.decisions > 0) check_invariants(s);
    if (s.decisions >= s.max_decisions) [[unlikely]] {
        s.done = true;
        s.limit = true;
        return false;
    }
    return true;
}

[[gnu::always_inline]] inline int decide(S& s, i64 player, std::size_t n) {
    ++s.decisions;
    s.pending_player = player;
    return s.first_agent ? 0 : static_cast<int>(s.ar.below(n));
}

// Records invariant k broken after the current decision, the first time only.
inline void broken(S& s, int k) {
    if (s.broken & (1ull << k)) return;
    s.broken |= 1ull << k;
    s.broken_after[s.broken_count] = s.decisions;
    s.broken_order[s.broken_count++] = static_cast<std::uint8_t>(k);
}

// Records query k answered after the current decision, the first time only.
inline void answered(S& s, int k) {
    if (s.answered & (1ull << k)) return;
    s.answered |= 1ull << k;
    s.answered_after[s.answered_count] = s.decisions;
    s.answered_order[s.answered_count++] = static_cast<std::uint8_t>(k);
}

[[gnu::always_inline]] // Counting the rules' firings costs a little on every statement: it is compiled in only when
// the including file defines WP_COUNT_FIRES as 1 (the simulator's driver, the tests).
#ifndef WP_COUNT_FIRES
#define WP_COUNT_FIRES 0
#endif

[[gnu::always_inline]] inline bool counting(const S& s) { return WP_COUNT_FIRES && s.count_fires; }

[[gnu::always_inline]] inline void next_step(S& s) {
    if (counting(s)) {
        ++s.step;
        s.fire_log_size = 0;
    }
}

[[gnu::always_inline]] inline void fire(S& s, std::uint32_t rule) {
    if (!counting(s) || s.fire_stamp[rule] == s.step) return;
    s.fire_stamp[rule] = s.step;
    ++s.fires[rule];
    s.fire_log[s.fire_log_size++] = rule;
}

// Takes back the firings of this step since `mark`.
inline void undo_fires(S& s, std::uint32_t mark) {
    for (std::uint32_t i = mark; i < s.fire_log_size; ++i) {
        --s.fires[s.fire_log[i]];
        s.fire_stamp[s.fire_log[i]] = 0;
    }
    if (s.fire_log_size > mark) s.fire_log_size = mark;
}

inline void push_list(S& s, const char* where, i64 v) {
    if (s.list_top >= WP_LIST_CAP) [[unlikely]]
        fail(where, "too many elements to choose from");
    s.list_store[s.list_top++] = v;
}

inline bool in_list(const S& s, std::uint32_t from, i64 v) {
    for (std::uint32_t i = from; i < s.list_top; ++i)
        if (s.list_store[i] == v) return true;
    return false;
}

inline i64 active_player(const S& s) { return s.active >= 0 ? s.active : s.pending_player; }

inline i64 floor_div(const char* where, const char* owner, i64 a, i64 d) {
    if (d == 0) fail(where, "division by zero");
    i64 q = div_ck(where, owner, a, d, false);
    if (q * d != a && ((a < 0) != (d < 0))) --q;
    return q;
}

inline i64 ceil_div(const char* where, const char* owner, i64 a, i64 d) {
    if (d == 0) fail(where, "division by zero");
    i64 q = div_ck(where, owner, a, d, false);
    if (q * d != a && ((a < 0) == (d < 0))) ++q;
    return q;
}

inline i64 checked_div(const char* where, const char* owner, i64 a, i64 d, bool mod) {
    if (d == 0) fail(where, "division by zero");
    return div_ck(where, owner, a, d, mod);
}
)CPP";

}  // namespace wp::codegen
