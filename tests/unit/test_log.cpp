// Game logs, replay, the scripted agent reading a script and the human agent.
#include "human_agent.hpp"
#include "source_dir.hpp"
#include "test_support.hpp"

#include "westphalia/compiler/compile.hpp"
#include "westphalia/engine/agents.hpp"
#include "westphalia/engine/log.hpp"
#include "westphalia/engine/sim.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

using namespace wp;

namespace {

const ir::ruleset& contractor_cards() {
    static const ir::ruleset rs = [] {
        dsl::source_manager sources;
        dsl::diagnostic_sink sink;
        auto r = compiler::compile_ruleset(std::string(WP_SOURCE_DIR) + "/rulesets/contractor-cards", {}, sources, sink);
        REQUIRE(r.has_value());
        return *r;
    }();
    return rs;
}

engine::log_header header_for(int players, std::uint64_t seed, const std::string& agent = "random") {
    engine::log_header h;
    h.ruleset_name = contractor_cards().name;
    h.ruleset_path = "rulesets/contractor-cards";
    h.fingerprint = engine::ir_fingerprint(contractor_cards());
    h.players = players;
    h.seed = seed;
    h.agents = {agent};
    return h;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += l + '\n';
    return out;
}

engine::log_error replay_error(const std::string& text) {
    engine::log_error error;
    const auto h = engine::read_log_header(text, error);
    if (!h) return error;
    const engine::replay_result r = engine::replay_log(text, contractor_cards(), *h);
    REQUIRE(r.error.has_value());
    return *r.error;
}

std::size_t find_line(const std::vector<std::string>& lines, const std::string& part) {
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find(part) != std::string::npos) return i;
    FAIL("no line contains " << part);
    return 0;
}

}  // namespace

TEST_CASE("log: a logged game replays byte for byte and is the game play_game plays", "[log]") {
    engine::random_agent random;
    for (int players : {2, 3, 5}) {
        for (std::uint64_t seed : {1u, 2u, 7u}) {
            CAPTURE(players, seed);
            const auto h = header_for(players, seed);
            const engine::logged_play played = engine::play_logged(contractor_cards(), h, {&random});
            REQUIRE(played.result.error.empty());
            const engine::play_result direct = engine::play_game(contractor_cards(), players, seed, {&random});
            CHECK(played.result.actions == direct.actions);
            CHECK(played.result.end_reason == direct.end_reason);
            CHECK(played.result.winners == direct.winners);

            engine::log_error error;
            const auto read = engine::read_log_header(played.log, error);
            REQUIRE(read.has_value());
            const engine::replay_result r = engine::replay_log(played.log, contractor_cards(), *read);
            REQUIRE_FALSE(r.error.has_value());
            CHECK(r.relog == played.log);
            CHECK(r.result.actions == played.result.actions);
            CHECK(r.result.winners == played.result.winners);
            CHECK(split_lines(played.log).back().rfind("{\"end\":", 0) == 0);
        }
    }
}

TEST_CASE("log: every corruption is an error on its line", "[log]") {
    engine::random_agent random;
    const std::string log = engine::play_logged(contractor_cards(), header_for(2, 3), {&random}).log;
    const std::vector<std::string> lines = split_lines(log);
    REQUIRE(lines.size() > 60);

    SECTION("truncated") {
        const auto e = replay_error(join_lines({lines.begin(), lines.begin() + 50}));
        CHECK(e.line == 51);
        CHECK(e.kind == "log-missing-footer");
    }
    SECTION("not JSON") {
        auto bad = lines;
        bad[9] = "{\"step\": 9, \"kind\"";
        const auto e = replay_error(join_lines(bad));
        CHECK(e.line == 10);
        CHECK(e.kind == "log-json");
    }
    SECTION("header not JSON") {
        auto bad = lines;
        bad[0] = "westphalia";
        CHECK(replay_error(join_lines(bad)).kind == "log-json");
    }
    SECTION("wrong version") {
        auto bad = lines;
        bad[0].replace(bad[0].find("\"version\":1"), 11, "\"version\":7");
        const auto e = replay_error(join_lines(bad));
        CHECK(e.line == 1);
        CHECK(e.kind == "log-version");
    }
    SECTION("wrong schema") {
        auto bad = lines;
        bad[0].replace(bad[0].find("westphalia-log"), 14, "other-log-kind");
        CHECK(replay_error(join_lines(bad)).kind == "log-schema");
    }
    SECTION("fingerprint mismatch") {
        auto bad = lines;
        const std::size_t at = bad[0].find("\"fingerprint\":\"") + 15;
        bad[0].replace(at, 16, "0123456789abcdef");
        const auto e = replay_error(join_lines(bad));
        CHECK(e.line == 1);
        CHECK(e.kind == "log-fingerprint");
    }
    SECTION("an illegal action") {
        auto bad = lines;
        const std::size_t k = find_line(bad, "\"kind\":\"decision\"");
        const std::size_t a = bad[k].find("\"action\":");
        bad[k].replace(a, bad[k].find(',', a) - a, "\"action\":999");
        const auto e = replay_error(join_lines(bad));
        CHECK(e.line == k + 1);
        CHECK(e.kind == "log-illegal-action");
    }
    SECTION("an edited action text") {
        auto bad = lines;
        const std::size_t k = find_line(bad, "\"kind\":\"decision\"");
        const std::size_t t = bad[k].find("\"text\":\"");
        bad[k].replace(t, bad[k].size() - t, "\"text\":\"something else\"}");
        const auto e = replay_error(join_lines(bad));
        CHECK(e.line == k + 1);
        CHECK(e.kind == "log-mismatch");
    }
    SECTION("an edited chance outcome") {
        auto bad = lines;
        const std::size_t k = find_line(bad, "\"kind\":\"chance\",\"outcome\":9");
        bad[k].replace(bad[k].find("\"outcome\":9"), 11, "\"outcome\":0");
        const auto e = replay_error(join_lines(bad));
        CHECK(e.line == k + 1);
        CHECK(e.kind == "log-mismatch");
    }
    SECTION("an edited footer") {
        auto bad = lines;
        bad.back().replace(bad.back().find("\"gold\":"), 7, "\"gold\":1");
        const auto e = replay_error(join_lines(bad));
        CHECK(e.line == lines.size());
        CHECK(e.kind == "log-mismatch");
    }
    SECTION("a missing footer") {
        const auto e = replay_error(join_lines({lines.begin(), lines.end() - 1}));
        CHECK(e.line == lines.size());
        CHECK(e.kind == "log-missing-footer");
    }
}

TEST_CASE("agents: a script plays indices or texts and stops on an illegal action or its end", "[log]") {
    engine::first_legal_agent first;
    const auto direct = engine::play_logged(contractor_cards(), header_for(2, 3, "first"), {&first});
    std::vector<std::string> texts;
    for (const std::string& l : split_lines(direct.log))
        if (l.find("\"kind\":\"decision\"") != std::string::npos) {
            const std::size_t t = l.find("\"text\":\"") + 8;
            texts.push_back(l.substr(t, l.size() - 2 - t));
        }
    REQUIRE(texts.size() == direct.result.decisions);

    SECTION("the whole game as texts and indices") {
        std::vector<std::string> script{"# the first-legal game", engine::script_numbering_line};
        for (std::size_t i = 0; i < texts.size(); ++i) script.push_back(i % 2 ? "1" : texts[i]);
        engine::script_agent s("script", script);
        const auto played = engine::play_logged(contractor_cards(), header_for(2, 3, "first"), {&s});
        CHECK(played.stop.empty());
        CHECK(played.log == direct.log);
    }
    SECTION("an action that is not legal") {
        engine::script_agent s("moves.txt", {texts[0], "Not an action"});
        const auto played = engine::play_logged(contractor_cards(), header_for(2, 3), {&s});
        CHECK(played.stop_is_error);
        CHECK_THAT(played.stop, Catch::Contains("moves.txt:2") && Catch::Contains("Not an action") &&
                                    Catch::Contains("decision 2") && Catch::Contains("the options are 1 `"));
    }
    SECTION("a number in a script that does not say how it counts: an error, never a shift") {
        engine::script_agent s("old.txt", {"# written before 2026-11-29", "1"});
        const auto played = engine::play_logged(contractor_cards(), header_for(2, 3), {&s});
        CHECK(played.stop_is_error);
        CHECK_THAT(played.stop, Catch::Contains("old.txt:2") && Catch::Contains("#! options from 1"));
        CHECK(played.result.actions.empty());
    }
    SECTION("numbers count the options from 1, identical ones once, as the prompt does") {
        // decision 2 of this game: Military Campaign twice (raw 4 and 6), Distraction raw 5
        engine::script_agent s("moves.txt", {engine::script_numbering_line, "2", "6"});
        const auto played = engine::play_logged(contractor_cards(), header_for(2, 3), {&s});
        REQUIRE(played.result.actions.size() >= 2);
        CHECK(played.result.actions[0] == 1);
        CHECK(played.result.actions[1] == 5);
    }
    SECTION("the end of the script") {
        engine::script_agent s("moves.txt", {engine::script_numbering_line, "1"});
        const auto played = engine::play_logged(contractor_cards(), header_for(2, 3), {&s});
        CHECK(played.stop_is_error);
        CHECK_THAT(played.stop, Catch::Contains("ended before decision 2"));
        CHECK(played.result.actions.size() == 1);
    }
}

TEST_CASE("agents: the human agent quits on `q`, the game abandoned cleanly", "[log]") {
    std::istringstream in("2\nq\n");
    std::ostringstream out;
    cli::human_agent human(in, out);
    const auto played = engine::play_logged(contractor_cards(), header_for(2, 3, "human"), {&human});
    CHECK(played.result.actions == std::vector<int>{1});
    CHECK_FALSE(played.stop_is_error);
    CHECK(played.stop == "P1 quit");
}

TEST_CASE("agents: the human agent asks again on invalid input and leaves at end of input", "[log]") {
    std::istringstream in("abc\n0\n\ns\n2\n");
    std::ostringstream out;
    cli::human_agent human(in, out);
    const auto played = engine::play_logged(contractor_cards(), header_for(2, 3, "human"), {&human});
    CHECK(played.result.actions == std::vector<int>{1});
    CHECK_FALSE(played.stop_is_error);
    CHECK_THAT(played.stop, Catch::Contains("end of input"));
    const std::string text = out.str();
    CHECK_THAT(text, Catch::Contains("--- P1: gold=") && Catch::Contains("P1 sees:") && Catch::Contains("gold[P1] =") &&
                         Catch::Contains("  1) ") && Catch::Contains("`abc` is not a choice") &&
                         Catch::Contains("`0` is not a choice"));
    // The abandoned game's log still replays.
    engine::log_error error;
    const auto h = engine::read_log_header(played.log, error);
    REQUIRE(h.has_value());
    const auto r = engine::replay_log(played.log, contractor_cards(), *h);
    CHECK_FALSE(r.error.has_value());
    CHECK(r.relog == played.log);
}

namespace {

// Plays like the random agent until decision `stop_at`, where it saves (as a human's `w FILE`).
class saving_agent : public engine::agent {
public:
    explicit saving_agent(std::uint64_t stop_at) : stop_at_(stop_at) {}
    int act(const engine::seat_view& v, engine::rng& r) override {
        if (v.decisions() + 1 == stop_at_) throw engine::agent_stop("saved", false, "saved.jsonl");
        return random_.act(v, r);
    }

private:
    std::uint64_t stop_at_;
    engine::random_agent random_;
};

}  // namespace

TEST_CASE("a game saved and resumed is the game played through: the same log", "[log]") {
    const ir::ruleset rs = contractor_cards();
    engine::random_agent random;
    const engine::logged_play whole = engine::play_logged(rs, header_for(2, 3), {&random});
    REQUIRE(whole.stop.empty());
    for (std::uint64_t stop_at : {1u, 2u, 40u, 200u}) {
        INFO("saved before decision " << stop_at);
        saving_agent saver(stop_at);
        const engine::logged_play saved = engine::play_logged(rs, header_for(2, 3), {&saver});
        REQUIRE(saved.save_to == "saved.jsonl");
        REQUIRE(saved.result.decisions == stop_at - 1);
        // The saved log replays (the CLI checks it so before resuming).
        engine::log_error error;
        const auto h = engine::read_log_header(saved.log, error);
        REQUIRE(h.has_value());
        REQUIRE_FALSE(engine::replay_log(saved.log, rs, *h).error.has_value());
        engine::play_options options;
        options.resume = &saved.log;
        const engine::logged_play resumed = engine::play_logged(rs, header_for(2, 3), {&random}, options);
        CHECK(resumed.resumed == stop_at - 1);
        CHECK(resumed.log == whole.log);
    }
}

namespace {

// Plays like the random agent, but undoes (as a human's `u`) once, at decision `undo_at`.
class undoing_agent : public engine::agent {
public:
    explicit undoing_agent(std::uint64_t undo_at) : undo_at_(undo_at) {}
    int act(const engine::seat_view& v, engine::rng& r) override {
        if (v.decisions() + 1 == undo_at_) {
            engine::agent_stop undo("undo", false);
            undo.undo_seat = v.seat();
            throw undo;
        }
        return random_.act(v, r);
    }

private:
    std::uint64_t undo_at_;
    engine::random_agent random_;
};

}  // namespace

TEST_CASE("an undo plays the log again up to the seat's previous decision, which is asked again", "[log]") {
    const ir::ruleset rs = contractor_cards();
    engine::random_agent random;
    const engine::logged_play whole = engine::play_logged(rs, header_for(2, 3), {&random});
    for (std::uint64_t undo_at : {5u, 40u}) {
        INFO("undo at decision " << undo_at);
        undoing_agent undoer(undo_at);
        const engine::logged_play stopped = engine::play_logged(rs, header_for(2, 3), {&undoer});
        REQUIRE(stopped.undo_seat >= 0);
        const std::string cut = engine::log_before_last_decision(stopped.log, stopped.undo_seat);
        REQUIRE_FALSE(cut.empty());
        // The cut ends before a decision of that seat: the last step line kept is not it.
        const std::vector<std::string> kept = split_lines(cut);
        const std::vector<std::string> all = split_lines(stopped.log);
        REQUIRE(kept.size() < all.size());
        CHECK(all[kept.size()].find("\"kind\":\"decision\"") != std::string::npos);
        CHECK(all[kept.size()].find("\"player\":" + std::to_string(stopped.undo_seat + 1)) != std::string::npos);
        // Played on from there by the same generators, the game is the game played through.
        engine::play_options options;
        options.resume = &cut;
        options.resume_note = "undo";
        const engine::logged_play again = engine::play_logged(rs, header_for(2, 3), {&random}, options);
        CHECK(again.log == whole.log);
    }
}

TEST_CASE("a log with no decision of a seat has nothing to undo", "[log]") {
    const ir::ruleset rs = contractor_cards();
    undoing_agent undoer(1);
    const engine::logged_play stopped = engine::play_logged(rs, header_for(2, 3), {&undoer});
    REQUIRE(stopped.undo_seat >= 0);
    CHECK(engine::log_before_last_decision(stopped.log, stopped.undo_seat).empty());
}

TEST_CASE("a preview plays an option on a copy and leaves the state as it was", "[log]") {
    const auto g = std::make_shared<const engine::game>(contractor_cards(), 2);
    engine::state s(*g, 3);
    while (!s.is_terminal() && s.legal_actions().size() < 2) s.apply(0);
    REQUIRE_FALSE(s.is_terminal());
    const std::uint64_t decisions = s.decisions();
    const std::string view = s.view(-1);
    const engine::state::preview_result p = s.preview(0, 7);
    CHECK(s.decisions() == decisions);
    CHECK(s.view(-1) == view);
    CHECK(p.error.empty());
    // The same seed previews the same way.
    CHECK(s.preview(0, 7).account == p.account);
}

TEST_CASE("the account numbers phases and steps and names what a state change changed", "[log]") {
    const engine::game g(contractor_cards(), 2);
    const ir::ruleset& rs = g.ruleset();
    std::map<std::string, std::string> numbers;
    for (ir::id b = 0; b < rs.blocks.size(); ++b) numbers[rs.blocks[b].path] = g.block_number[b];
    CHECK(numbers.at("game.contractor_turn.fate") == "1");
    CHECK(numbers.at("game.contractor_turn.negotiations") == "2");
    // As the aid numbers them: a step the options leave empty (the errata's employment after a
    // failed renewal, off by default) takes no number.
    CHECK(numbers.at("game.contractor_turn.negotiations.renewal.renegotiation") == "2.1.1");
    CHECK(numbers.at("game.contractor_turn.negotiations.employment_after_renewal").empty());
    CHECK(numbers.at("game.contractor_turn.negotiations.employment") == "2.2");
    CHECK(numbers.at("game.contractor_turn").empty());
    bool own = false;
    for (ir::id sl = 0; sl < rs.slots.size(); ++sl)
        if (rs.slots[sl].name == "gold") {
            CHECK(g.value_place(g.slots[sl].offset + g.slots[sl].width, own) == "P2 gold");
            CHECK(own);
        }
}

TEST_CASE("log: play and replay answer each designer's query at the decision sim and check name", "[log][queries]") {
    // Contractor Cards' base/queries.wph: sim's first game answering a query names a seed and a
    // decision; `play` with that seed must say the same decision (it once said the next one: it
    // asked before the dice a decision leads to were rolled), and `replay` of its log too.
    engine::sim_options o;
    o.games = 20;
    o.players = 2;
    o.seed = 5;
    const engine::sim_report r = engine::simulate(contractor_cards(), o);
    REQUIRE_FALSE(r.queries.empty());
    std::size_t compared = 0;
    for (const engine::sim_query& q : r.queries) {
        if (!q.first) continue;
        engine::random_agent random;
        const engine::logged_play played = engine::play_logged(contractor_cards(), header_for(2, q.first->seed), {&random});
        const std::string said = q.kind + " " + q.name + ": is reached " + q.first->text;
        INFO(said);
        CHECK(std::find(played.result.queries.begin(), played.result.queries.end(), said) != played.result.queries.end());
        engine::log_error error;
        const auto h = engine::read_log_header(played.log, error);
        REQUIRE(h);
        const engine::replay_result again = engine::replay_log(played.log, contractor_cards(), *h);
        REQUIRE_FALSE(again.error);
        CHECK(again.result.queries == played.result.queries);
        ++compared;
    }
    CHECK(compared >= 3);
}

// `play` checks the invariants as `sim` does: where the state waits for a decision or has ended,
// and inside the steps. The log stops at each chance node, which may stand half-way through a
// step: Wallenstein's cubes, counted while the tower drops them one roll at a time, broke
// `cubes_add_up` there in every game before the check skipped chance nodes.
TEST_CASE("log: play_logged tells a broken invariant where it breaks, and none at a chance node", "[log][invariants]") {
    auto play = [](const ir::ruleset& rs, int players, std::uint64_t seed, std::vector<std::string>& account) {
        engine::log_header h;
        h.ruleset_name = rs.name;
        h.fingerprint = engine::ir_fingerprint(rs);
        h.players = players;
        h.seed = seed;
        h.agents = {"random"};
        engine::random_agent random;
        const std::function<void(const std::string&)> trace = [&](const std::string& line) { account.push_back(line); };
        engine::play_options o;
        o.check_invariants = true;
        o.trace = &trace;
        return engine::play_logged(rs, h, {&random}, o).result;
    };
    std::vector<std::string> account;
    const engine::play_result broken = play(test::compile_repo_ruleset("tests/rulesets/engine-invariants/drained.wph"), 2, 1, account);
    REQUIRE(broken.invariant_violations.size() == 1);
    CHECK(broken.invariant_violations[0].rfind("stock_kept at the end of the loop", 0) == 0);
    CHECK(broken.invariant_violations[0].find("last changed by rule drain") != std::string::npos);
    CHECK(std::count_if(account.begin(), account.end(), [](const std::string& l) { return l.rfind("invariant broken: stock_kept", 0) == 0; }) == 1);
    const ir::ruleset wallenstein = test::compile_repo_ruleset("rulesets/wallenstein");
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        INFO("Wallenstein, 4 players, seed " << seed);
        account.clear();
        const engine::play_result r = play(wallenstein, 4, seed, account);
        CHECK(r.error.empty());
        CHECK(r.invariant_violations.empty());
    }
}
