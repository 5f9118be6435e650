// The aid's setup and deployment read as what the players set up, never as the plumbing that
// does it (issue 30): a loop that puts one more piece on a space, a piece's starting data, the
// loop that seats the players.
#include "test_support.hpp"

#include "westphalia/docgen/aid.hpp"
// The English templates themselves, below the public API.
#include "../../docgen/src/english.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>

namespace {

std::string aid_text(const std::string& folder, const std::map<std::string, std::string>& options = {}) {
    return wp::docgen::make_aid(wp::test::compile_repo_ruleset(folder, options), {}, wp::docgen::aid_product::text_dump).bytes;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("aid setup: a loop that puts one more piece on an empty space reads as that piece", "[docgen][aid]") {
    // SPI §17.11: after the 3 August line, the lone Bavarian cavalry unit of the outpost.
    for (const char* scenario : {"aug3", "campaign", "siege_campaign"}) {
        INFO(scenario);
        const std::string aid = aid_text("rulesets/spi-thirty-years-war", {{"scenario", scenario}});
        CHECK(has(aid, "14 Bavarian Infantry units, 4 Bavarian Cavalry units, 5 Bavarian guns, von Mercy; "
                       "one more Bavarian Cavalry unit starts in hex 2012, if it has no units; the French player sets up"));
        CHECK_FALSE(has(aid, "for every unit: if the unit’s army is Bavarian"));
        CHECK_FALSE(has(aid, "place unit"));
    }
}

TEST_CASE("aid setup: a piece's starting data read as where it is, said once", "[docgen][aid]") {
    const std::string cuius = aid_text("rulesets/cuius-regio");
    CHECK(has(cuius, "Tilly: it is on the map, in hex 0508, marshal; "));
    CHECK(has(cuius, "0107, 0306, 0402, 0404, 0503: it is held; its holder is Protestant; "));
    CHECK_FALSE(has(cuius, "its where ="));
    CHECK_FALSE(has(cuius, "its at ="));
    CHECK(wp::docgen::states_folded("it is on the map; it is in hex 0508; it is marshal; 0508’s inf +10; it is held") ==
          "it is on the map, in hex 0508, marshal; 0508’s inf +10; it is held");
    CHECK(wp::docgen::states_folded("") == "");
}

TEST_CASE("aid setup: the loop that seats the players reads as who plays what", "[docgen][aid]") {
    // A flag only the loop sets (Cuius Regio), a count only the loop sets (GMT).
    const std::string cuius = aid_text("rulesets/cuius-regio");
    CHECK(has(cuius, "Setup: seat 1 plays the Imperial camp, seat 2 the Protestant camp; "));
    CHECK_FALSE(has(cuius, "imperial seated"));
    const std::string gmt = aid_text("rulesets/gmt-thirty-years-war");
    CHECK(has(gmt, "Setup: seat 1 plays the Protestant camp, seat 2 the Catholic camp; "));
    CHECK_FALSE(has(gmt, "seated +1"));
}

TEST_CASE("aid setup: a player the seating names reads by the side it gets, and the setup's values as a setup card", "[docgen][aid]") {
    // `red_player = p` beside `p.side = Red` in the seating loop: every later use reads "the Red
    // player", not the identifier "red player".
    const std::string rounds = aid_text("tests/rulesets/aid-english/counted_rounds.wph");
    CHECK(has(rounds, "starting with the Red player"));
    CHECK_FALSE(has(rounds, "red player"));
    // Cuius Regio's setup: starting values as "year: 1618", `imperial_player` by its side, and
    // the deployment's call as a pointer to it.
    const std::string cuius = aid_text("rulesets/cuius-regio");
    CHECK(has(cuius, "year: 1618; first turn: yes; the deployment below; initiative: the Imperial player; first: the Imperial player"));
    CHECK_FALSE(has(cuius, "standin setup"));
    CHECK_FALSE(has(cuius, "imperial player"));
}

TEST_CASE("aid sequence: a counted while loop reads as the numbers it counts", "[docgen][aid]") {
    // `round = 0; while round < 4 { round += 1; … }`.
    const std::string rounds = aid_text("tests/rulesets/aid-english/counted_rounds.wph");
    CHECK(has(rounds, "Game: for round from 1 to 4: each player in turn, starting with the Red player: score +1"));
    CHECK_FALSE(has(rounds, "while round"));
}

TEST_CASE("aid cards: in a deck where some cards have events, a card without one says so", "[docgen][aid]") {
    // GMT's card manifest (issue 29): the events the rules describe are printed, and a card whose
    // event the rulebook does not give says it has none here; a deck with no events says nothing.
    const std::string gmt = aid_text("rulesets/gmt-thirty-years-war");
    CHECK(has(gmt, "Event “Richelieu Becomes Chief Minister of France”: french aid: yes"));
    CHECK(has(gmt, "No event in these rules"));
    const std::string cc = aid_text("rulesets/contractor-cards");
    CHECK_FALSE(has(cc, "No event in these rules"));
}
