// Contractor Cards played by script: the tests choose every chance outcome and every decision
// and check the state after each phase. Seeds only fix the deck order (shuffles use the
// generator): seed 8 (two players) deals P1 an Employer card, a Campaign card and units; seed 5
// (three players) gives both of P1's opponents an Adversary card. Longer stretches that only
// need to reach an end are played by a fixed policy (autoplay_until).
#include "westphalia/compiler/compile.hpp"
#include "source_dir.hpp"
#include "westphalia/engine/engine.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>

using namespace wp;

namespace {

using option_map = std::map<std::string, std::string>;

ir::ruleset compile(const option_map& options = {}) {
    dsl::source_manager sources;
    dsl::diagnostic_sink sink;
    compiler::compile_options opts;
    opts.options = options;
    auto rs = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", opts, sources, sink);
    REQUIRE(rs.has_value());
    return *rs;
}

// A game driven by the test: chance outcomes are chosen by value, decisions by their text.
// Everything applied and every traced event is kept in a transcript, shown when a check fails.
class scripted_game {
public:
    scripted_game(const option_map& options, int players, std::uint64_t seed)
        : game_(compile(options), players, options),
          trace_([this](const std::string& line) {
              transcript_ += "    | " + line + "\n";
              // "turn 3: P2 (game.contractor_turn)"
              const std::size_t seat = line.find(": P");
              if (line.rfind("turn ", 0) == 0 && seat != std::string::npos && line.find("(game.contractor_turn)") != std::string::npos)
                  turns_.push_back(std::stoi(line.substr(seat + 3)) - 1);
          }),
          state_(game_, seed, traced()) {}

    engine::state& state() { return state_; }
    const std::string& transcript() const { return transcript_; }
    const std::vector<int>& turns() const { return turns_; }  // seat of every turn begun

    // At a chance node: the outcome with this value; the outcomes must run from lo to hi.
    void roll(std::int64_t value, std::int64_t lo, std::int64_t hi) {
        INFO(transcript_);
        REQUIRE(state_.is_chance_node());
        const auto outcomes = state_.chance_outcomes();
        CHECK(outcomes.front().value == lo);
        CHECK(outcomes.back().value == hi);
        roll(value);
    }
    void roll(std::int64_t value) {
        INFO(transcript_);
        REQUIRE(state_.is_chance_node());
        const auto outcomes = state_.chance_outcomes();
        for (std::size_t i = 0; i < outcomes.size(); ++i) {
            if (outcomes[i].value != value) continue;
            transcript_ += "roll " + std::to_string(value) + "\n";
            state_.apply(static_cast<int>(i));
            return;
        }
        FAIL("no chance outcome " << value);
    }
    // At a decision: the legal action with this text.
    void choose(const std::string& text) {
        INFO(transcript_);
        REQUIRE_FALSE(state_.is_chance_node());
        REQUIRE_FALSE(state_.is_terminal());
        for (const engine::action_info& a : state_.legal_actions()) {
            if (a.text != text) continue;
            transcript_ += "P" + std::to_string(state_.current_player() + 1) + ": " + text + "\n";
            state_.apply(a.id);
            return;
        }
        FAIL("no legal action `" << text << "`; the choices are " << choices());
    }
    void choose_all(std::initializer_list<const char*> texts) {
        for (const char* t : texts) choose(t);
    }
    std::string choices() const {
        std::string out;
        for (const engine::action_info& a : state_.legal_actions()) out += "[" + a.text + "] ";
        return out;
    }
    bool offers(const std::string& text) const {
        const auto actions = state_.legal_actions();
        return std::any_of(actions.begin(), actions.end(), [&](const engine::action_info& a) { return a.text == text; });
    }

    // Plays on with a fixed policy until `stop` holds or the game ends: every chance node gets
    // its highest outcome, every `may` is declined, every other choice takes the first option.
    // Also checks at the start of every turn that the last player kept to the hand limit.
    // `chance`, when given, picks the outcome index at chance nodes instead.
    void autoplay_until(const std::function<bool(const engine::state&)>& stop,
                        const std::function<int(const engine::state&)>& chance = {}) {
        for (int n = 0; n < 100000 && !state_.is_terminal() && !stop(state_); ++n) {
            const std::size_t turns_before = turns_.size();
            if (state_.is_chance_node()) {
                state_.apply(chance ? chance(state_) : static_cast<int>(state_.chance_outcomes().size()) - 1);
            } else {
                int pick = 0;
                for (const engine::action_info& a : state_.legal_actions())
                    if (a.text.rfind("no: ", 0) == 0) pick = a.id;
                state_.apply(pick);
            }
            if (turns_.size() > turns_before && turns_before > 0) check_hand_limit(turns_[turns_before - 1]);
        }
    }
    void autoplay_to_end() {
        autoplay_until([](const engine::state&) { return false; });
        REQUIRE(state_.is_terminal());
    }
    // Plays on until the given seat's turn begins (its Fate draw roll is next).
    void autoplay_to_turn_of(int seat) {
        const std::size_t seen = turns_.size();
        autoplay_until([&](const engine::state&) { return turns_.size() > seen && turns_.back() == seat; });
    }

    void check_hand_limit(int seat) {
        const auto limit = 7 + state_.slot_value("traits", seat, leadership_index());
        INFO("player " << seat + 1 << " after their Upkeep");
        CHECK(static_cast<std::int64_t>(state_.zone_contents("hand", seat).size()) <= limit);
        ++hand_limit_checks_;
    }
    int hand_limit_checks() const { return hand_limit_checks_; }

    // Reading the state by names.
    std::int64_t slot(const std::string& name, int index = 0, int key = 0) const {
        return state_.slot_value(name, index, key);
    }
    std::vector<std::string> cards(const std::string& zone, int player = 0) const {
        std::vector<std::string> out;
        const ir::ruleset& rs = game_.ruleset();
        for (std::int64_t instance : state_.zone_contents(zone, player))
            out.push_back(rs.entities.at(state_.entity_of(instance)).display);
        return out;
    }
    std::int64_t instance_of(const std::string& zone, int player, const std::string& display) const {
        const ir::ruleset& rs = game_.ruleset();
        for (std::int64_t instance : state_.zone_contents(zone, player))
            if (rs.entities.at(state_.entity_of(instance)).display == display) return instance;
        return -1;
    }
    int member(const std::string& enum_name, const std::string& member) const {
        const ir::ruleset& rs = game_.ruleset();
        for (const ir::enum_def& e : rs.enums) {
            if (e.name != enum_name) continue;
            for (std::size_t i = 0; i < e.members.size(); ++i)
                if (e.members[i].name == member) return static_cast<int>(i);
        }
        FAIL("no member " << member << " of " << enum_name);
        return -1;
    }
    int trait(const std::string& name) const { return member("trait", name); }
    int leadership_index() const { return trait("Leadership"); }

private:
    engine::state_options traced() const {
        engine::state_options o;
        o.trace = &trace_;
        return o;
    }
    engine::game game_;
    std::string transcript_;
    std::vector<int> turns_;
    std::function<void(const std::string&)> trace_;
    engine::state state_;
    int hand_limit_checks_ = 0;
};

// Seed 8, two players. P1 is dealt Pikemen, Count Palatine (an Employer), Surprise, Military
// Campaign and Siege Guns; P2 Arquebusiers, Field Cannons, Change Sides, Persisting Strategy and
// Military Campaign. The deck's top cards are Lancers, Logistics Base, Lancers, Experience.
// This plays setup and P1's first turn up to the Recruit phase: traits Strategy, Discipline
// and Etiquette for P1; P1 draws three cards, is hired and rolls a Contract Score of 8.
void play_to_first_recruit(scripted_game& g) {
    g.roll(0, 0, 1);        // first player: P1
    g.roll(7, 2, 12);       // starting gold P1 (2d6)
    g.roll(7, 2, 12);       // starting gold P2
    g.roll(1, 1, 10);       // P1 traits: Strategy, Discipline, Etiquette
    g.roll(7, 1, 10);
    g.roll(9, 1, 10);
    g.roll(4, 1, 10);       // P2 traits: Negotiations, Leadership, Recruitment
    g.roll(5, 1, 10);
    g.roll(6, 1, 10);
    // 1. Fate: the Draw Roll (1d6, no Entrepreneur)
    g.roll(3, 1, 6);
    CHECK(g.cards("hand", 0).size() == 8);
    CHECK(g.cards("deck").size() == 81 - 10 - 3);
    // 2. Negotiations: an Employer card, then the Employment Roll (1d10 + Etiquette 1 + reputation 0)
    g.choose("yes: seek employment");
    g.choose("Count Palatine");
    CHECK(g.cards("employer_slot", 0) == std::vector<std::string>{"Count Palatine"});
    g.choose("no: do not play a card on this roll");  // P2 could help with Change Sides
    g.roll(6, 2, 11);                                  // 6 or more: hired
    CHECK(g.slot("employed", 0) == 1);
    g.roll(8, 2, 12);                                  // the Contract Roll (2d6 + reputation 0)
    CHECK(g.slot("contract_score", 0) == 8);
    // 3. Revenue: the Revenue Roll (1d3 - 1) and the contract
    g.roll(2, 0, 2);
    CHECK(g.slot("gold", 0) == 7 + 2 + 8);
}

// 4. Recruit: Pikemen and two Lancers (no artillery, so no combined arms); the second roll fails
// and P1 pays 1 gold to keep the unit. Then 5. Campaign: P1 plays its Campaign card.
void recruit_and_go_on_campaign(scripted_game& g) {
    g.choose_all({"yes: put a unit card on the table", "Pikemen", "yes: put a unit card on the table", "Lancers",
                  "yes: put a unit card on the table", "Lancers", "no: do not put a unit card on the table"});
    CHECK(g.cards("recruits", 0).size() == 3);
    g.roll(7, 1, 10);  // the Recruit Roll: 7 or more joins
    g.roll(3, 1, 10);
    g.choose("yes: pay 1 gold to keep this unit");
    g.roll(10, 1, 10);
    CHECK(g.cards("army", 0) == std::vector<std::string>{"Pikemen", "Lancers", "Lancers"});
    CHECK(g.slot("gold", 0) == 16);
    g.choose_all({"yes: go on campaign", "Military Campaign", "no: do not play a card on this roll"});
}

}  // namespace

TEST_CASE("contractor cards: setup deals, gives gold and rolls every row of the trait table", "[contractor][script]") {
    for (const bool reroll : {false, true}) {
        const option_map options = reroll ? option_map{{"trait_duplicates", "reroll"}} : option_map{};
        scripted_game g(options, 4, 8);
        g.roll(1, 0, 1 + 2);  // first player: P2
        CHECK(g.slot("first_player") == 1);
        for (const int gold : {2, 5, 9, 12}) g.roll(gold, 2, 12);
        // Trait rolls, three per player in seat order: every row of the table once.
        g.roll(1, 1, 10);       // P1 Strategy
        g.roll(2, 1, 10);       // P1 Inheritance: 2d6 gold at once
        g.roll(10, 2, 12);
        g.roll(3, 1, 10);       // P1 Estates
        g.roll(4, 1, 10);       // P2 Negotiations, Leadership, Recruitment
        g.roll(5, 1, 10);
        g.roll(6, 1, 10);
        g.roll(7, 1, 10);       // P3 Discipline, Title (+1 reputation), Etiquette
        g.roll(8, 1, 10);
        g.roll(9, 1, 10);
        g.roll(10, 1, 10);      // P4 Entrepreneur, then Title twice
        g.roll(8, 1, 10);
        g.roll(8, 1, 10);
        if (reroll) g.roll(5, 1, 10);  // trait_duplicates=reroll: the second Title is rolled again
        INFO(g.transcript());
        for (int p = 0; p < 4; ++p) CHECK(g.cards("hand", p).size() == 5);
        CHECK(g.cards("deck").size() == 81 - 20);
        CHECK(g.cards("reserve") == std::vector<std::string>{"1648 -End of War"});
        CHECK(g.slot("gold", 0) == 2 + 10);
        CHECK(g.slot("gold", 1) == 5);
        CHECK(g.slot("gold", 3) == 12);
        const char* const names[] = {"Strategy",   "Inheritance", "Estates", "Negotiations", "Leadership",
                                     "Recruitment", "Discipline",  "Title",   "Etiquette",    "Entrepreneur"};
        const int owner[] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3};
        for (int t = 0; t < 10; ++t) {
            INFO(names[t]);
            CHECK(g.slot("traits", owner[t], g.trait(names[t])) == 1);
        }
        CHECK(g.slot("reputation", 2) == 1);
        if (reroll) {
            CHECK(g.slot("traits", 3, g.trait("Title")) == 1);
            CHECK(g.slot("traits", 3, g.trait("Leadership")) == 1);
            CHECK(g.slot("reputation", 3) == 1);
        } else {
            CHECK(g.slot("traits", 3, g.trait("Title")) == 2);  // duplicates stack, and Title acts twice
            CHECK(g.slot("reputation", 3) == 2);
        }
        // The first turn is P2's, with its Draw Roll: 1d6 + Entrepreneur (none for P2).
        REQUIRE(g.state().is_chance_node());
        CHECK(g.turns() == std::vector<int>{1});
    }
}

TEST_CASE("contractor cards: option leadership_scope deals the extra card", "[contractor][script][options]") {
    for (const bool deal : {false, true}) {
        scripted_game g(deal ? option_map{{"leadership_scope", "hand_limit_and_deal"}} : option_map{}, 2, 8);
        g.roll(0);
        g.roll(7);
        g.roll(7);
        for (const int t : {5, 5, 1, 2}) g.roll(t, 1, 10);  // P1: Leadership twice, Strategy; P2: Inheritance
        g.roll(7, 2, 12);                                    // its 2d6 gold, then P2's other traits
        g.roll(3, 1, 10);
        g.roll(4, 1, 10);
        INFO(g.transcript());
        CHECK(g.slot("traits", 0, g.trait("Leadership")) == 2);
        CHECK(g.cards("hand", 0).size() == (deal ? 7u : 5u));
        CHECK(g.cards("hand", 1).size() == 5);
    }
}

TEST_CASE("contractor cards: one turn, every phase and roll: hired, recruited, a campaign, upkeep and back-pay", "[contractor][script]") {
    scripted_game g({}, 2, 8);
    play_to_first_recruit(g);
    recruit_and_go_on_campaign(g);
    // The Campaign Roll: 1d10 + Strategy 1 (no combined arms: no artillery). 8: Well Fought.
    g.roll(8, 2, 11);
    CHECK(g.slot("reputation", 0) == 1);
    g.roll(1, 1, 3);  // casualties: 1d3
    g.choose("Pikemen");
    CHECK(g.cards("army", 0) == std::vector<std::string>{"Lancers", "Lancers"});
    CHECK(g.slot("reputation", 0) == 1);  // units left: no penalty
    // 6. Upkeep: hand within the limit; neither unit is paid, so both roll on the table, with
    // Logistics Base (+2) played before the rolls; Discipline adds 1.
    g.choose("no: do not pay 1 gold upkeep for this unit");
    g.choose("no: do not pay 1 gold upkeep for this unit");
    g.choose("yes: play a card on this roll");
    g.choose("Logistics Base");
    g.roll(5, 4, 13);  // 1-5: Loot & Disband
    CHECK(g.cards("army", 0) == std::vector<std::string>{"Lancers"});
    g.roll(8, 4, 13);  // 6+: remains, undisciplined
    const std::int64_t lancers = g.instance_of("army", 0, "Lancers");
    CHECK(g.slot("undisciplined", static_cast<int>(lancers)) == 1);
    CHECK(g.slot("gold", 0) == 16);
    g.choose("yes: pay 2 gold back-pay to remove this unit's token");
    CHECK(g.slot("undisciplined", static_cast<int>(lancers)) == 0);
    CHECK(g.slot("gold", 0) == 14);
    CHECK(g.cards("discard") == std::vector<std::string>{"Military Campaign", "Pikemen", "Lancers", "Logistics Base"});
    CHECK(g.cards("pending").empty());
    // P2's turn begins with its Draw Roll.
    CHECK(g.turns() == std::vector<int>{0, 1});
    g.roll(6, 1, 6);
}

TEST_CASE("contractor cards: every row of the campaign outcome table", "[contractor][script]") {
    struct row {
        std::int64_t roll;
        const char* name;
        std::int64_t die_lo, die_hi;  // the casualty die
        std::int64_t reputation;      // after, with a casualty die of 1
        std::size_t army;
    };
    const row rows[] = {
        {2, "Terrible Defeat", 1, 6, -3, 0},  // -2, then 1 + 2 = 3 losses take all three units: -1 more
        {4, "Strategic Loss", 1, 6, -1, 1},   // -1, 1 + 1 = 2 losses
        {6, "Hard Fought", 1, 6, 0, 2},       // 1 loss
        {8, "Well Fought", 1, 3, 1, 2},       // +1, 1d3 = 1 loss
        {10, "Great Victory", 1, 3, 2, 3},    // +2, 1d3 - 1 = 0 losses
    };
    for (const row& r : rows) {
        INFO(r.name);
        scripted_game g({}, 2, 8);
        play_to_first_recruit(g);
        recruit_and_go_on_campaign(g);
        g.roll(r.roll, 2, 11);
        g.roll(1, r.die_lo, r.die_hi);
        for (std::size_t lost = 3 - r.army; lost > 0; --lost) g.choose(g.state().legal_actions().front().text);
        CHECK(g.slot("reputation", 0) == r.reputation);
        CHECK(g.cards("army", 0).size() == r.army);
        CHECK(g.slot("casualties", 0) == 0);
    }
}

TEST_CASE("contractor cards: combined arms and an undisciplined army change the campaign roll", "[contractor][script]") {
    scripted_game g({}, 2, 8);
    play_to_first_recruit(g);
    g.choose_all({"yes: put a unit card on the table", "Pikemen", "yes: put a unit card on the table", "Siege Guns",
                  "yes: put a unit card on the table", "Lancers", "no: do not put a unit card on the table"});
    for (int i = 0; i < 3; ++i) g.roll(7, 1, 10);
    g.choose_all({"yes: go on campaign", "Military Campaign", "yes: play a card on this roll", "Surprise"});
    // 1d10 + Strategy 1 + combined arms 1 + Surprise 3
    g.roll(9, 1 + 5, 10 + 5);
    CHECK(g.slot("reputation", 0) == 2);
}

TEST_CASE("contractor cards: losing the whole army, a failed renewal of a negative contract, the hand limit", "[contractor][script]") {
    for (const char* mode : {"floor_gold", "clamp_zero"}) {
        INFO(mode);
        scripted_game g({{"negative_contract", mode}}, 2, 8);
        play_to_first_recruit(g);
        recruit_and_go_on_campaign(g);
        g.roll(2, 2, 11);  // Terrible Defeat: -2, 1d6 + 2 losses
        g.roll(1, 1, 6);
        g.choose_all({"Pikemen", "Lancers", "Lancers"});
        CHECK(g.cards("army", 0).empty());
        CHECK(g.slot("reputation", 0) == -3);  // -2, and -1 for losing every unit
        g.autoplay_to_turn_of(0);              // P2's turn, played by the fixed policy
        REQUIRE(g.hand_limit_checks() == 1);
        // P1's second turn: Draw Roll, then the Renewal Roll at reputation -3.
        g.roll(6, 1, 6);
        CHECK(g.cards("hand", 0) == std::vector<std::string>{"Surprise", "Siege Guns", "Logistics Base", "Bankruptcy",
                                                           "Tilly", "Raiding Strategy", "King of Denmark",
                                                           "Spanish Tactics", "Field Cannons"});
        g.choose("no: do not play a card on this roll");  // Bankruptcy would lower the renewal
        g.roll(7, 1 - 3, 10 - 3);                         // 6 or more: still employed
        g.choose("yes: renegotiate the contract");
        g.choose_all({"yes: play a card on this roll", "Bankruptcy"});
        g.roll(-3, 2 - 3 - 2, 12 - 3 - 2);  // 2d6 - 3 - 2: the Contract Score is -3
        CHECK(g.slot("contract_score", 0) == -3);
        g.roll(0, 0, 2);
        // floor_gold: the contract takes 3 gold; clamp_zero: it pays nothing.
        CHECK(g.slot("gold", 0) == (std::string(mode) == "floor_gold" ? 16 - 3 : 16));
        g.choose("no: do not put a unit card on the table");
        g.choose("no: do not send this leader on campaign");  // P2's Campaign card
        // Upkeep: nine cards, the limit is 7.
        CHECK(g.cards("hand", 0).size() == 8);
        g.choose("Tilly");
        CHECK(g.cards("hand", 0).size() == 7);
        CHECK(g.turns().back() == 1);  // P2's next turn has begun
    }
}

TEST_CASE("contractor cards: the deck runs out twice (two and three players), with the reshuffle", "[contractor][script]") {
    for (const int players : {2, 3}) {
        INFO(players << " players");
        scripted_game g({}, players, 3);
        g.autoplay_until([](const engine::state& s) { return s.slot_value("deck_exhaustions") == 1; });
        INFO(g.transcript());
        // The discard pile became the new deck; the end-of-war card stays out of it.
        CHECK(g.cards("discard").empty());
        CHECK_FALSE(g.cards("deck").empty());
        CHECK(g.cards("reserve") == std::vector<std::string>{"1648 -End of War"});
        g.autoplay_to_end();
        CHECK(g.state().end_reason() == "deck_empty_twice");
        CHECK(g.slot("deck_exhaustions") == 2);
        CHECK(g.hand_limit_checks() > 10);
        CHECK(g.state().violated_invariants().empty());
    }
}

TEST_CASE("contractor cards: four or more players, the 1648 card joins the deck and ends the game", "[contractor][script]") {
    for (const int players : {4, 6}) {
        INFO(players << " players");
        scripted_game g({}, players, 5);
        g.autoplay_until([](const engine::state& s) { return s.slot_value("deck_exhaustions") == 1; });
        const auto deck = g.cards("deck");
        CHECK(std::count(deck.begin(), deck.end(), "1648 -End of War") == 1);
        CHECK(g.cards("reserve").empty());
        CHECK(g.cards("discard").empty());
        g.autoplay_to_end();
        CHECK(g.state().end_reason() == "peace_1648");
        CHECK(g.slot("deck_exhaustions") == 1);
        const auto left = g.cards("deck");
        CHECK(std::count(left.begin(), left.end(), "1648 -End of War") == 0);
    }
}

TEST_CASE("contractor cards: options on the end of the game", "[contractor][script][options]") {
    SECTION("end_after_exhaustions=1: the first empty deck ends it") {
        scripted_game g({{"end_after_exhaustions", "1"}}, 2, 3);
        g.autoplay_to_end();
        CHECK(g.state().end_reason() == "deck_empty");
        CHECK(g.slot("deck_exhaustions") == 1);
    }
    SECTION("end_timing=end_of_round: the round is finished") {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            scripted_game g({{"end_timing", "end_of_round"}}, 3, seed);
            g.autoplay_to_end();
            CHECK(g.state().end_reason() == "deck_empty_twice");
            const int first = static_cast<int>(g.slot("first_player"));
            CHECK(g.turns().back() == (first + 2) % 3);  // the last seat of the round
            CHECK(g.turns().size() % 3 == 0);
        }
    }
    SECTION("exhaustion_check=eager: the deck is never seen empty") {
        // The fixed policy seeks no post, so the only six-sided roll is the Draw Roll: draw
        // exactly the rest of the deck whenever the roll can, so that a Fate phase empties it.
        const auto empty_the_deck = [](const engine::state& s) {
            const auto outcomes = s.chance_outcomes();
            const auto left = static_cast<std::int64_t>(s.zone_contents("deck").size());
            if (outcomes.size() == 6)
                for (std::size_t i = 0; i < outcomes.size(); ++i)
                    if (outcomes[i].value == left) return static_cast<int>(i);
            return static_cast<int>(outcomes.size()) - 1;
        };
        for (const bool eager : {false, true}) {
            INFO("eager " << eager);
            scripted_game g(eager ? option_map{{"exhaustion_check", "eager"}} : option_map{}, 2, 3);
            bool seen_empty = false;
            g.autoplay_until(
                [&](const engine::state& s) {
                    seen_empty = seen_empty || s.zone_contents("deck").empty();
                    return false;
                },
                empty_the_deck);
            CHECK(g.state().end_reason() == "deck_empty_twice");
            CHECK(seen_empty == !eager);
        }
    }
}

TEST_CASE("contractor cards: options on who plays which card", "[contractor][script][options]") {
    // P2 holds Change Sides (+2 to an Employment Roll) when P1 seeks a post.
    for (const char* mode : {"anyone", "owner_only", "by_sign"}) {
        INFO(mode);
        scripted_game g({{"n_card_players", mode}}, 2, 8);
        for (const int v : {0, 7, 7, 1, 7, 9, 4, 5, 6, 3}) g.roll(v);
        g.choose_all({"yes: seek employment", "Count Palatine"});
        // Change Sides helps P1: an opponent may play it only when anyone may play any card.
        CHECK(g.offers("yes: play a card on this roll") == (std::string(mode) == "anyone"));
        CHECK(g.state().is_chance_node() == (std::string(mode) != "anyone"));
    }
}

TEST_CASE("contractor cards: options on the Employer card and the Renewal Roll", "[contractor][script][options]") {
    SECTION("employer_card_stays=false: the card is discarded when hired") {
        scripted_game g({{"employer_card_stays", "false"}}, 2, 8);
        for (const int v : {0, 7, 7, 1, 7, 9, 4, 5, 6, 3}) g.roll(v);
        g.choose_all({"yes: seek employment", "Count Palatine", "no: do not play a card on this roll"});
        g.roll(6);
        CHECK(g.cards("employer_slot", 0).empty());
        CHECK(g.cards("discard") == std::vector<std::string>{"Count Palatine"});
    }
    for (const bool etiquette : {false, true}) {
        INFO("etiquette_on_renewal " << etiquette);
        // After a Well Fought campaign (+1), P1's Renewal Roll in its second turn.
        scripted_game g(etiquette ? option_map{{"etiquette_on_renewal", "true"}} : option_map{}, 2, 8);
        play_to_first_recruit(g);
        recruit_and_go_on_campaign(g);
        g.roll(8);
        g.roll(1);
        g.choose("Pikemen");
        g.choose_all({"yes: pay 1 gold upkeep for this unit", "yes: pay 1 gold upkeep for this unit"});
        g.autoplay_to_turn_of(0);
        g.roll(6, 1, 6);
        g.choose("no: do not play a card on this roll");
        REQUIRE(g.state().is_chance_node());
        const auto outcomes = g.state().chance_outcomes();
        CHECK(outcomes.front().value == 1 + 1 + (etiquette ? 1 : 0));  // reputation 1, Etiquette 1
        // A failed renewal: the post and the Employer card are lost; by default no new post this phase.
        g.roll(outcomes.front().value);
        CHECK(g.slot("employed", 0) == 0);
        CHECK(g.cards("employer_slot", 0).empty());
        CHECK_FALSE(g.offers("yes: seek employment"));
    }
    SECTION("employment_after_failed_renewal=true: a new post at once") {
        scripted_game g({{"employment_after_failed_renewal", "true"}}, 2, 8);
        play_to_first_recruit(g);
        recruit_and_go_on_campaign(g);
        g.roll(8);
        g.roll(1);
        g.choose("Pikemen");
        g.choose_all({"yes: pay 1 gold upkeep for this unit", "yes: pay 1 gold upkeep for this unit"});
        g.autoplay_to_turn_of(0);
        g.roll(6, 1, 6);
        g.choose("no: do not play a card on this roll");
        g.roll(2);  // failed
        CHECK(g.slot("employed", 0) == 0);
        g.choose_all({"yes: seek employment", "King of Denmark"});
        g.roll(9, 1 + 1 + 1, 10 + 1 + 1);  // reputation 1, Etiquette 1
        CHECK(g.slot("employed", 0) == 1);
        CHECK(g.cards("employer_slot", 0) == std::vector<std::string>{"King of Denmark"});
    }
}

TEST_CASE("contractor cards: options on the Upkeep phase", "[contractor][script][options]") {
    // The turn of the upkeep test above, up to the upkeep rolls of two unpaid Lancers.
    auto to_upkeep = [](scripted_game& g) {
        play_to_first_recruit(g);
        recruit_and_go_on_campaign(g);
        g.roll(8);
        g.roll(1);
        g.choose("Pikemen");
        g.choose("no: do not pay 1 gold upkeep for this unit");
        g.choose("no: do not pay 1 gold upkeep for this unit");
    };
    SECTION("upkeep_card_scope=one_roll: a card counts on one roll") {
        scripted_game g({{"upkeep_card_scope", "one_roll"}}, 2, 8);
        to_upkeep(g);
        g.choose_all({"yes: play a card on this roll", "Logistics Base"});
        g.roll(8, 4, 13);  // Discipline 1 + Logistics Base 2
        g.roll(8, 2, 11);  // the card is spent: Discipline only
        CHECK(g.cards("pending").empty());
    }
    SECTION("upkeep_card_scope=all_rolls (default): a card counts on every roll") {
        scripted_game g({}, 2, 8);
        to_upkeep(g);
        g.choose_all({"yes: play a card on this roll", "Logistics Base"});
        g.roll(8, 4, 13);
        g.roll(8, 4, 13);
        CHECK(g.cards("pending").empty());
    }
    SECTION("backpay_timing=before_rolls: no back-pay after the rolls") {
        scripted_game g({{"backpay_timing", "before_rolls"}}, 2, 8);
        to_upkeep(g);
        g.choose_all({"yes: play a card on this roll", "Logistics Base"});
        g.roll(8, 4, 13);
        g.roll(8, 4, 13);
        // The tokens stay: the next thing is P2's Draw Roll.
        REQUIRE(g.state().is_chance_node());
        CHECK(g.turns().back() == 1);
        for (const std::int64_t u : g.state().zone_contents("army", 0)) CHECK(g.slot("undisciplined", static_cast<int>(u)) == 1);
    }
    SECTION("hand_limit_timing: Experience cards before or after the discard") {
        // P2 ends its first turn with eleven cards and two Experience cards.
        for (const bool at_end : {false, true}) {
            scripted_game g(at_end ? option_map{{"hand_limit_timing", "end_of_upkeep"}} : option_map{}, 2, 8);
            to_upkeep(g);
            g.choose_all({"yes: play a card on this roll", "Logistics Base"});
            g.roll(5);
            g.roll(8);
            g.choose("no: do not pay 2 gold back-pay to remove this unit's token");
            g.autoplay_until([](const engine::state& s) {
                return !s.is_chance_node() && s.current_player() == 1 && s.zone_contents("hand", 1).size() > 7 &&
                       s.zone_contents("army", 1).empty() && s.slot_value("campaign_on") == 0 &&
                       s.legal_actions().size() >= 2 &&
                       (s.legal_actions().front().text == "yes: play an Experience card" ||
                        s.legal_actions().size() == s.zone_contents("hand", 1).size());
            });
            INFO(g.transcript());
            REQUIRE_FALSE(g.state().is_terminal());
            CHECK(g.offers("yes: play an Experience card") == at_end);
            CHECK(g.cards("hand", 1).size() > 7);
        }
    }
}

TEST_CASE("contractor cards: options on campaigns without an army", "[contractor][script][options]") {
    for (const char* option : {"", "lose_all_with_zero_units", "campaign_requires_units"}) {
        INFO(option);
        scripted_game g(*option ? option_map{{option, "true"}} : option_map{}, 2, 8);
        play_to_first_recruit(g);
        g.choose("no: do not put a unit card on the table");
        if (std::string(option) == "campaign_requires_units") {
            CHECK_FALSE(g.offers("yes: go on campaign"));
            continue;
        }
        g.choose_all({"yes: go on campaign", "Military Campaign", "no: do not play a card on this roll"});
        g.roll(6, 2, 11);  // Hard Fought: no reputation change
        g.roll(1, 1, 6);
        CHECK(g.cards("army", 0).empty());
        // With no unit to lose, the army was not lost, unless the option says it was.
        CHECK(g.slot("reputation", 0) == (std::string(option) == "lose_all_with_zero_units" ? -1 : 0));
    }
}

TEST_CASE("contractor cards: trait_duplicates=reroll ends when a leader holds every trait", "[contractor][options]") {
    // With this seed P1 comes to hold all ten traits (the reshuffled deck brings Experience cards
    // back); a duplicate rolled then could never be rolled away, and the game used to loop.
    const ir::ruleset rs = compile({{"trait_duplicates", "reroll"}});
    engine::random_agent random;
    const auto r = engine::play_game(rs, 2, 13579198677185207553ull, {&random});
    CHECK(r.error.empty());
    CHECK(r.end_reason == "deck_empty_twice");
    int held = 0;
    for (int t = 0; t < 10; ++t) held += r.final_state->slot_value("traits", 0, t) > 0;
    CHECK(held == 10);
}

TEST_CASE("contractor cards: option adversary_limit, one Adversary card in all or one per opponent", "[contractor][script][options]") {
    // Seed 5, three players: P1 holds King of France and two Campaign cards, P2 Gallas, P3 Tilly.
    for (const char* mode : {"one_total", "one_per_opponent"}) {
        INFO(mode);
        scripted_game g({{"adversary_limit", mode}}, 3, 5);
        g.roll(0, 0, 2);
        for (int p = 0; p < 3; ++p) g.roll(7, 2, 12);
        for (int p = 0; p < 3; ++p)
            for (const int t : {1, 3, 4}) g.roll(t, 1, 10);  // Strategy, Estates, Negotiations each
        g.roll(1, 1, 6);
        g.choose_all({"yes: seek employment", "King of France"});
        g.roll(6, 1, 10);
        g.roll(7, 3, 13);
        g.roll(1, 1, 3);
        g.choose_all({"no: do not put a unit card on the table", "yes: go on campaign", "Military Campaign"});
        CHECK(g.state().current_player() == 1);
        g.choose_all({"yes: play a card on this roll", "Gallas"});
        if (std::string(mode) == "one_total") {
            // P3 may not add Tilly: the roll is 1d10 + Strategy 1 - Gallas 3.
            g.roll(5, 1 + 1 - 3, 10 + 1 - 3);
        } else {
            CHECK(g.state().current_player() == 2);
            g.choose_all({"yes: play a card on this roll", "Tilly"});
            g.roll(5, 1 + 1 - 3 - 1, 10 + 1 - 3 - 1);
        }
        g.roll(1, 1, 6);  // Hard Fought (5): no change of reputation, 1d6 losses of an empty army
        CHECK(g.slot("reputation", 0) == 0);
        CHECK(g.cards("pending").empty());
        const auto discard = g.cards("discard");
        CHECK(std::count(discard.begin(), discard.end(), "Gallas") == 1);
        CHECK(std::count(discard.begin(), discard.end(), "Tilly") == (std::string(mode) == "one_total" ? 0 : 1));
    }
}
