// Contractor Cards by hand: the rules of rulesets/contractor-cards (base layer, errata layer,
// options at their defaults) as plain C++ over fixed arrays. The order of every random draw
// and every decision is the engine's (statement order, zone order, trigger order), so a seed
// plays the same game; comments cite the rulebook lines the rules encode.
#include "contractor_cards.hpp"

#include "westphalia/engine/engine.hpp"  // the generator (wp::engine::rng) only

#include <algorithm>
#include <array>

namespace wp::bench {

namespace {

using engine::rng;

// ---------------------------------------------------------------- the cards (§L126-181)

enum card_type : std::uint8_t { E, I, C, A, U, X, V, S, R, N, P, untyped };
enum trait : std::uint8_t {
    Strategy, Inheritance, Estates, Negotiations, Leadership, Recruitment, Discipline, Title, Etiquette, Entrepreneur
};
enum roll_kind : std::uint8_t { EmploymentRoll, ContractRoll, RenewalRoll, RevenueRoll, CampaignRoll, UpkeepRoll };

struct card_face {
    card_type kind;
    std::int8_t employment, contract, renewal, revenue_dice, campaign, upkeep;
    bool ends_game;
    std::uint8_t copies;
};

// In the ruleset's order (instances are numbered in this order, copies together).
constexpr card_face faces[] = {
    {E, 0, 0, 0, 0, 0, 0, false, 1}, {E, 0, 0, 0, 0, 0, 0, false, 1}, {E, 0, 0, 0, 0, 0, 0, false, 1},
    {E, 0, 0, 0, 0, 0, 0, false, 1}, {E, 0, 0, 0, 0, 0, 0, false, 1}, {E, 0, 0, 0, 0, 0, 0, false, 1},
    {E, 0, 0, 0, 0, 0, 0, false, 1}, {E, 0, 0, 0, 0, 0, 0, false, 1}, {E, 0, 0, 0, 0, 0, 0, false, 1},
    {E, 0, 0, 0, 0, 0, 0, false, 1},                                   // ten Employers, L127-136
    {N, 0, 0, 1, 0, 0, 0, false, 1},  {N, 0, 0, 2, 0, 0, 0, false, 1},  {N, 0, 0, 3, 0, 0, 0, false, 1},  // L137-139
    {I, 0, 0, 0, 0, 0, 0, false, 3},  {I, 0, 0, 0, 0, 0, 0, false, 4},  // L140-141
    {C, 0, 0, 0, 0, 0, 0, false, 3},  {C, 0, 0, 0, 0, 0, 0, false, 4},  // L142-143
    {A, 0, 0, 0, 0, 0, 0, false, 4},  {A, 0, 0, 0, 0, 0, 0, false, 3},  // L144-145
    {U, 0, 0, 0, 0, 0, -1, false, 1}, {U, 0, 0, 0, 0, 0, -1, false, 1}, {U, 0, 0, 0, 0, 0, -2, false, 1},
    {U, 0, 0, 0, 0, 0, -2, false, 1}, {U, 0, 0, 0, 0, 0, -3, false, 1}, {U, 0, 0, 0, 0, 0, 1, false, 1},
    {U, 0, 0, 0, 0, 0, 2, false, 1},  {U, 0, 0, 0, 0, 0, 3, false, 1},  // L146-153
    {X, 0, 0, 0, 0, 0, 0, false, 5},                                    // L154
    {N, 0, -2, -2, 0, 0, 0, false, 1}, {N, 2, 0, 0, 0, 0, 0, false, 1}, {N, 0, 2, 0, 0, 0, 0, false, 1},
    {N, -1, 0, -1, 0, 0, 0, false, 1},                                  // L155-158
    {R, 0, 0, 0, 1, 0, 0, false, 1},  {R, 0, 0, 0, 1, 0, 0, false, 1},  {R, 0, 0, 0, 1, 0, 0, false, 1},  // L159-161
    {V, 0, 0, 0, 0, -1, 0, false, 1}, {V, 0, 0, 0, 0, -1, 0, false, 1}, {V, 0, 0, 0, 0, -2, 0, false, 1},
    {V, 0, 0, 0, 0, -2, 0, false, 1}, {V, 0, 0, 0, 0, -2, 0, false, 1}, {V, 0, 0, 0, 0, -3, 0, false, 1},
    {V, 0, 0, 0, 0, -3, 0, false, 1},                                   // L162-168
    {S, 0, 0, 0, 0, 1, 0, false, 1},  {S, 0, 0, 0, 0, 1, 0, false, 1},  {S, 0, 0, 0, 0, 1, 0, false, 1},
    {S, 0, 0, 0, 0, 2, 0, false, 1},  {S, 0, 0, 0, 0, 2, 0, false, 1},  {S, 0, 0, 0, 0, 2, 0, false, 1},
    {S, 0, 0, 0, 0, 3, 0, false, 1},  {S, 0, 0, 0, 0, 3, 0, false, 1},  {S, 0, 0, 0, 0, 1, 0, false, 1},
    {S, 0, 0, 0, 0, 3, 0, false, 1},  {S, 0, 0, 0, 0, 3, 0, false, 1},  {S, 0, 0, 0, 0, 1, 1, false, 1},  // L169-180
    {P, 0, 0, 0, 0, 0, 0, false, 8},                                    // L181
    {untyped, 0, 0, 0, 0, 0, 0, true, 1},                               // the end-of-war card, L185
};

constexpr int card_count = [] {
    int n = 0;
    for (const card_face& f : faces) n += f.copies;
    return n;
}();
static_assert(card_count == 82, "81 printed cards and the end-of-war card");

// Instance -> face.
constexpr std::array<card_face, card_count> cards = [] {
    std::array<card_face, card_count> out{};
    int i = 0;
    for (const card_face& f : faces)
        for (int c = 0; c < f.copies; ++c) out[static_cast<std::size_t>(i++)] = f;
    return out;
}();
constexpr int end_of_war = card_count - 1;

// What card c adds to a roll of kind k (the quantity card_value; 0: it cannot be played on it).
constexpr int card_value(int c, roll_kind k) {
    const card_face& f = cards[static_cast<std::size_t>(c)];
    switch (k) {
        case EmploymentRoll: return f.employment;
        case ContractRoll: return f.contract;
        case RenewalRoll: return f.renewal;
        case RevenueRoll: return f.revenue_dice;
        case CampaignRoll: return f.campaign;
        case UpkeepRoll: return f.upkeep;
    }
    return 0;
}
constexpr bool is_unit(int c) { return cards[c].kind == I || cards[c].kind == C || cards[c].kind == A; }

// An ordered pile of cards; the top is the last element.
struct zone {
    std::uint8_t n = 0;
    std::uint8_t c[card_count];

    void add(int card) { c[n++] = static_cast<std::uint8_t>(card); }
    // Removes one card, keeping the order of the others (the engine looks from the top).
    void remove(int card) {
        for (int i = n - 1; i >= 0; --i)
            if (c[i] == card) {
                for (int j = i; j + 1 < n; ++j) c[j] = c[j + 1];
                --n;
                return;
            }
    }
    bool holds(int card) const {
        for (int i = 0; i < n; ++i)
            if (c[i] == card) return true;
        return false;
    }
    template <class Pred>
    bool any(Pred p) const {
        for (int i = 0; i < n; ++i)
            if (p(c[i])) return true;
        return false;
    }
};

// A few of a zone's cards (legal options, or a snapshot a loop walks through).
struct card_list {
    int n = 0;
    std::uint8_t c[card_count];
    void push(int card) { c[n++] = static_cast<std::uint8_t>(card); }
};

// 2d6 by the engine's sampler: a uniform draw below 36 walked through the weights 1..6..1.
constexpr std::array<std::int8_t, 36> two_d6 = [] {
    std::array<std::int8_t, 36> t{};
    int i = 0;
    for (int sum = 2; sum <= 12; ++sum)
        for (int w = 0; w < 6 - (sum > 7 ? sum - 7 : 7 - sum); ++w) t[static_cast<std::size_t>(i++)] = static_cast<std::int8_t>(sum);
    return t;
}();

struct leader {
    int gold = 0;
    int reputation = 0;  // -3..3, clamped (§L40-41)
    int traits[10] = {};
    bool employed = false;
    int contract_score = 0;
    int adversaries_played = 0;
    int units_at_campaign = 0;
    int casualties = 0;
    bool had_undisciplined = false;
    zone hand, recruits, army, employer_slot;

    void add_reputation(int d) { reputation = std::clamp(reputation + d, -3, 3); }
};

struct decision_limit {};  // thrown once, at the decision limit (never in a normal game)

class contractor_cards {
public:
    contractor_cards(std::uint64_t seed, int players, std::uint64_t max_decisions)
        : chance_{seed}, agent_{seed ^ 0xA5A5A5A5DEADBEEFull}, players_(players), max_decisions_(max_decisions) {}

    hw_outcome play() {
        try {
            setup();
            while (!over_)
                for (int i = 0; i < players_ && !over_; ++i) turn((first_player_ + i) % players_);
        } catch (const decision_limit&) {
        }
        hw_outcome out;
        out.decisions = decisions_;
        out.end = end_;
        out.players = players_;
        for (int p = 0; p < players_; ++p) {
            out.gold[p] = leaders_[p].gold;
            out.reputation[p] = leaders_[p].reputation;
        }
        if (end_ != hw_end::decision_limit) out.winners = winners();
        return out;
    }

private:
    rng chance_;  // the state's generator: dice, shuffles, ownerless picks
    rng agent_;   // the random agent's generator
    int players_;
    std::uint64_t max_decisions_;
    std::uint64_t decisions_ = 0;
    hw_end end_ = hw_end::decision_limit;
    leader leaders_[hw_max_players];
    zone deck_, discard_, reserve_, pending_;
    bool undisciplined_[card_count] = {};
    bool to_roll_[card_count] = {};
    int deck_exhaustions_ = 0;
    int first_player_ = 0;
    bool campaign_on_ = false;
    bool over_ = false;

    // ------------------------------------------------ chance and decisions

    int d(int faces) { return static_cast<int>(chance_.below(static_cast<std::uint64_t>(faces))) + 1; }
    int roll_2d6() { return two_d6[chance_.below(36)]; }

    // The random agent at a decision with n options: the index it picks.
    int decide(int n) {
        if (decisions_ >= max_decisions_) throw decision_limit{};
        ++decisions_;
        return static_cast<int>(agent_.below(static_cast<std::uint64_t>(n)));
    }
    bool may() { return decide(2) == 0; }  // options: yes, no

    void end(hw_end why) {
        end_ = why;
        over_ = true;
    }

    void shuffle(zone& z) {
        for (int i = z.n; i > 1; --i) {
            const int j = static_cast<int>(chance_.below(static_cast<std::uint64_t>(i)));
            std::swap(z.c[i - 1], z.c[j]);
        }
    }
    void move(int card, zone& from, zone& to) {
        from.remove(card);
        to.add(card);
    }
    // `reshuffle from into to`: card by card from the top, then shuffled (§L53).
    void reshuffle(zone& from, zone& to) {
        while (from.n > 0) to.add(from.c[--from.n]);
        shuffle(to);
    }
    void discard_pending() {
        for (int i = 0; i < pending_.n; ++i) discard_.add(pending_.c[i]);
        pending_.n = 0;
    }
    int pending_sum(roll_kind k) const {
        int s = 0;
        for (int i = 0; i < pending_.n; ++i) s += card_value(pending_.c[i], k);
        return s;
    }

    // ------------------------------------------------ setup (§L10, §L12-15, §L22)

    void setup() {
        for (int c = 0; c < card_count; ++c) deck_.add(c);
        move(end_of_war, deck_, reserve_);  // joins the deck only with 4+ players (§L184-185)
        shuffle(deck_);
        for (int i = 0; i < 5; ++i)
            for (int p = 0; p < players_; ++p) {
                if (deck_.n == 0) goto dealt;
                leaders_[p].hand.add(deck_.c[--deck_.n]);
            }
    dealt:
        first_player_ = static_cast<int>(chance_.below(static_cast<std::uint64_t>(players_)));
        for (int p = 0; p < players_; ++p) {
            leaders_[p].reputation = 0;
            leaders_[p].gold = roll_2d6();
        }
        for (int p = 0; p < players_; ++p)
            for (int k = 0; k < 3; ++k) trait_roll(p);
    }

    // The trait table (§L24-34) and the traits that act once (§L26, §L32).
    void trait_roll(int p) {
        const int t = d(10) - 1;
        leader& l = leaders_[p];
        ++l.traits[t];
        if (t == Inheritance) l.gold += roll_2d6();
        if (t == Title) l.add_reputation(1);
    }

    // ------------------------------------------------ card windows (§L182)

    // Forbid rules on play_modifier(q, p, c, k) (base §L93-94, errata no. 4 and 5).
    bool may_play(int q, int p, int c) const {
        const card_type kind = cards[c].kind;
        if (kind == V && (q == p || leaders_[q].adversaries_played >= 1)) return false;
        if (kind == V && pending_.any([](int x) { return cards[x].kind == V; })) return false;
        if (kind == S && q != p) return false;
        if (kind == R && q != p) return false;
        return true;
    }

    void offer_cards(int q, int roller, roll_kind k) {
        leader& l = leaders_[q];
        while (l.hand.any([k](int c) { return card_value(c, k) != 0; })) {
            card_list legal;
            for (int i = 0; i < l.hand.n; ++i)
                if (card_value(l.hand.c[i], k) != 0 && may_play(q, roller, l.hand.c[i])) legal.push(l.hand.c[i]);
            if (legal.n == 0 || !may()) return;
            const int c = legal.c[decide(legal.n)];
            move(c, l.hand, pending_);
            if (cards[c].kind == V) ++l.adversaries_played;
        }
    }

    void card_window(int roller, roll_kind k) {
        for (int i = 1; i < players_; ++i) offer_cards((roller + i) % players_, roller, k);
        offer_cards(roller, roller, k);
    }

    // ------------------------------------------------ the turn (§L43-50)

    void turn(int p) {
        fate(p);
        if (over_) return;
        negotiations(p);
        revenue(p);
        recruit(p);
        campaign(p);
        upkeep(p);
    }

    // §L52-54: draw 1d6 (+ Entrepreneur, §L34); an empty deck is reshuffled the first time and
    // ends the game the second (errata no. 1); the end-of-war card ends it when drawn (§L186).
    void fate(int p) {
        leader& l = leaders_[p];
        int to_draw = d(6) + l.traits[Entrepreneur];
        while (to_draw > 0) {
            if (deck_.n == 0) {
                ++deck_exhaustions_;
                deck_ran_out();
                if (over_) return;
            }
            if (deck_.n > 0) {
                const int c = deck_.c[--deck_.n];
                l.hand.add(c);
                if (cards[c].ends_game) return end(hw_end::peace_1648);
            }
            --to_draw;
        }
    }

    void deck_ran_out() {
        if (players_ >= 4 && deck_exhaustions_ == 1) {
            reshuffle(discard_, deck_);
            move(end_of_war, reserve_, deck_);
            shuffle(deck_);
        } else {
            reshuffle(discard_, deck_);
        }
        if (deck_exhaustions_ >= 2) end(hw_end::deck_empty_twice);
    }

    // §L56-68.
    void negotiations(int p) {
        leader& l = leaders_[p];
        if (l.employed) {
            card_window(p, RenewalRoll);
            const int r = d(10) + l.reputation + pending_sum(RenewalRoll);
            discard_pending();
            if (r >= 6) {
                if (may()) contract(p);
            } else {
                l.employed = false;
                for (int i = 0; i < l.employer_slot.n; ++i) discard_.add(l.employer_slot.c[i]);
                l.employer_slot.n = 0;
            }
            return;
        }
        if (!l.hand.any([](int c) { return cards[c].kind == E; }) || !may()) return;
        card_list employers;
        for (int i = 0; i < l.hand.n; ++i)
            if (cards[l.hand.c[i]].kind == E) employers.push(l.hand.c[i]);
        const int e = employers.c[decide(employers.n)];
        move(e, l.hand, l.employer_slot);
        card_window(p, EmploymentRoll);
        const int r = d(10) + l.reputation + l.traits[Etiquette] + pending_sum(EmploymentRoll);
        discard_pending();
        if (r >= 6) {
            l.employed = true;  // the Employer card stays in front of the leader (option default)
            contract(p);
        } else {
            move(e, l.employer_slot, discard_);
        }
    }

    void contract(int p) {
        leader& l = leaders_[p];
        card_window(p, ContractRoll);
        l.contract_score = roll_2d6() + l.reputation + l.traits[Negotiations] + pending_sum(ContractRoll);
        discard_pending();
    }

    // §L70-74: 1d3-1, + Estates, + 1d6 per Revenue card; the contract pays, down to 0 gold at most.
    void revenue(int p) {
        leader& l = leaders_[p];
        card_window(p, RevenueRoll);
        int mod = l.traits[Estates];
        for (int i = 0; i < pending_.n; ++i)
            if (cards[pending_.c[i]].revenue_dice > 0) mod += d(6);
        l.gold += d(3) - 1 + mod;
        discard_pending();
        if (l.employed) l.gold = std::max(0, l.gold + l.contract_score);
    }

    // §L76-81.
    void recruit(int p) {
        leader& l = leaders_[p];
        while (l.hand.any(is_unit)) {
            if (!may()) break;
            card_list units;
            for (int i = 0; i < l.hand.n; ++i)
                if (is_unit(l.hand.c[i])) units.push(l.hand.c[i]);
            move(units.c[decide(units.n)], l.hand, l.recruits);
        }
        const zone waiting = l.recruits;
        for (int i = 0; i < waiting.n; ++i) {
            const int u = waiting.c[i];
            if (d(10) + l.reputation + l.traits[Recruitment] >= 7) {
                move(u, l.recruits, l.army);
                continue;
            }
            if (l.gold >= 1 && may()) {
                l.gold -= 1;
                move(u, l.recruits, l.army);
            }
            if (l.recruits.holds(u)) move(u, l.recruits, discard_);
        }
    }

    // §L83-98, §L190.
    void campaign(int p) {
        leader& l = leaders_[p];
        campaign_on_ = false;
        offer_campaign(p, p);
        for (int i = 1; i < players_; ++i) {
            const int q = (p + i) % players_;
            if (!campaign_on_) offer_campaign(q, p);
        }
        if (!campaign_on_) return;
        for (int q = 0; q < players_; ++q) leaders_[q].adversaries_played = 0;
        card_window(p, CampaignRoll);
        l.units_at_campaign = l.army.n;
        const bool undisciplined = l.army.any([this](int u) { return undisciplined_[u]; });
        const bool combined = l.army.any([](int u) { return cards[u].kind == I; }) &&
                              l.army.any([](int u) { return cards[u].kind == C; }) &&
                              l.army.any([](int u) { return cards[u].kind == A; });
        const int r = d(10) + l.traits[Strategy] + pending_sum(CampaignRoll) - (undisciplined ? 1 : 0) + (combined ? 1 : 0);
        if (r <= 2) {  // errata no. 2: every result below the table is a Terrible Defeat
            l.add_reputation(-2);
            l.casualties = d(6) + 2;
        } else if (r <= 4) {
            l.add_reputation(-1);
            l.casualties = d(6) + 1;
        } else if (r <= 6) {
            l.casualties = d(6);
        } else if (r <= 8) {
            l.add_reputation(1);
            l.casualties = d(3);
        } else {
            l.add_reputation(2);
            l.casualties = d(3) - 1;
        }
        discard_pending();
        while (l.casualties > 0 && l.army.n > 0) {
            const int u = l.army.c[decide(l.army.n)];
            undisciplined_[u] = false;
            move(u, l.army, discard_);
            --l.casualties;
        }
        l.casualties = 0;
        if (l.army.n == 0 && l.units_at_campaign > 0) l.add_reputation(-1);  // §L98, errata no. 6
    }

    // Leader q may play a Campaign card for leader p, who must be employed (§L83).
    void offer_campaign(int q, int p) {
        leader& l = leaders_[q];
        if (!l.hand.any([](int c) { return cards[c].kind == P; })) return;
        if (!leaders_[p].employed || campaign_on_ || !may()) return;
        card_list campaigns;
        for (int i = 0; i < l.hand.n; ++i)
            if (cards[l.hand.c[i]].kind == P) campaigns.push(l.hand.c[i]);
        move(campaigns.c[decide(campaigns.n)], l.hand, discard_);
        campaign_on_ = true;
    }

    // §L100-111, §L154.
    void upkeep(int p) {
        leader& l = leaders_[p];
        while (l.hand.n > 7 + l.traits[Leadership]) move(l.hand.c[decide(l.hand.n)], l.hand, discard_);
        while (l.hand.any([](int c) { return cards[c].kind == X; })) {
            if (!may()) break;
            card_list experience;
            for (int i = 0; i < l.hand.n; ++i)
                if (cards[l.hand.c[i]].kind == X) experience.push(l.hand.c[i]);
            move(experience.c[decide(experience.n)], l.hand, discard_);
            trait_roll(p);
        }
        const zone units = l.army;
        for (int i = 0; i < units.n; ++i) {
            const int u = units.c[i];
            to_roll_[u] = true;
            if (l.gold >= 1 && may()) {
                l.gold -= 1;
                to_roll_[u] = false;
            }
        }
        if (l.army.any([this](int u) { return to_roll_[u]; })) card_window(p, UpkeepRoll);
        l.had_undisciplined = l.army.any([this](int u) { return undisciplined_[u]; });
        const zone rolling = l.army;
        for (int i = 0; i < rolling.n; ++i) {
            const int u = rolling.c[i];
            if (!to_roll_[u]) continue;
            to_roll_[u] = false;
            const int r = d(10) + l.traits[Discipline] - (l.had_undisciplined ? 1 : 0) + pending_sum(UpkeepRoll);
            if (r <= 5) {  // errata no. 2: every result below the table is Loot & Disband
                undisciplined_[u] = false;
                move(u, l.army, discard_);
            } else {
                undisciplined_[u] = true;
            }
        }
        discard_pending();
        const zone paid = l.army;
        for (int i = 0; i < paid.n; ++i) {
            const int u = paid.c[i];
            if (undisciplined_[u] && l.gold >= 2 && may()) {
                l.gold -= 2;
                undisciplined_[u] = false;
            }
        }
    }

    // §L17-18 and errata no. 3: the leaders no one beats on (gold, reputation) win.
    std::uint32_t winners() const {
        std::uint32_t out = 0;
        for (int p = 0; p < players_; ++p) {
            bool beaten = false;
            for (int q = 0; q < players_; ++q) {
                const leader& a = leaders_[p];
                const leader& b = leaders_[q];
                beaten = beaten || b.gold > a.gold || (b.gold == a.gold && b.reputation > a.reputation);
            }
            if (!beaten) out |= 1u << p;
        }
        return out;
    }
};

}  // namespace

const char* hw_end_name(hw_end e) {
    switch (e) {
        case hw_end::deck_empty: return "deck_empty";
        case hw_end::deck_empty_twice: return "deck_empty_twice";
        case hw_end::peace_1648: return "peace_1648";
        case hw_end::decision_limit: return "decision limit";
    }
    return "?";
}

hw_outcome play_contractor_cards(std::uint64_t seed, int players, std::uint64_t max_decisions) {
    contractor_cards g(seed, players, max_decisions);
    return g.play();
}

}  // namespace wp::bench
