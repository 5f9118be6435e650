// Game logs (JSON lines) and replay.
#include "westphalia/engine/log.hpp"
#include "westphalia/dsl/json_text.hpp"

#include "westphalia/engine/agents.hpp"
#include "westphalia/ir/hidden_flow.hpp"
#include "westphalia/ir/json.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace wp::engine {

namespace {

using ojson = nlohmann::ordered_json;

// A number field that is not an integer of the field's range.
struct bad_integer : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An integer field read as T. nlohmann's get<T> converts a float outside T's range with
// undefined behaviour and wraps an integer outside it (outcome 4294967296 read as 0), so
// anything but an integer within T's range is refused.
template <typename T>
T integer_field(const ojson& j, const char* key) {
    const ojson& v = j.at(key);
    constexpr auto lo = std::numeric_limits<T>::min();
    constexpr auto hi = std::numeric_limits<T>::max();
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(hi)) return static_cast<T>(u);
    } else if (v.is_number_integer()) {  // negative
        if constexpr (std::is_signed_v<T>) {
            const auto i = v.get<std::int64_t>();
            if (i >= static_cast<std::int64_t>(lo)) return static_cast<T>(i);
        }
    }
    throw bad_integer("\"" + std::string(key) + "\" is " + dsl::json_text(v) + ", not an integer from " + std::to_string(lo) +
                      " to " + std::to_string(hi));
}

constexpr std::uint64_t agent_seed_mix = 0xA5A5A5A5DEADBEEFull;  // as play_game

ojson value_json(const std::string& text) {
    bool numeric = !text.empty() && text.size() < 18;
    for (std::size_t i = 0; i < text.size(); ++i)
        numeric = numeric && ((text[i] >= '0' && text[i] <= '9') || (i == 0 && text[i] == '-' && text.size() > 1));
    if (numeric) return ojson(std::stoll(text));
    return ojson(text);
}

std::string header_line(const log_header& h) {
    ojson j;
    j["schema"] = log_schema;
    j["version"] = log_version;
    j["ruleset"] = {{"name", h.ruleset_name}, {"path", h.ruleset_path}, {"fingerprint", h.fingerprint}, {"upto", h.upto}};
    if (!h.with.empty()) j["ruleset"]["with"] = h.with;
    j["players"] = h.players;
    j["seed"] = h.seed;
    j["options"] = ojson::object();
    for (const auto& [k, v] : h.options) j["options"][k] = v;
    j["agents"] = h.agents;
    return dsl::json_text(j) + '\n';
}

// The account's line for a decision: who chose what, and among what when that is short
// ("P1 chooses Pikemen (of Pikemen, Lancers x2, Tilly)"; identical options counted once, with
// their number), else its place ("P2 chooses 0215 (7 of 235)").
std::string choice_account(const state& s, int seat, int action, const std::vector<action_info>& legal) {
    const std::string context = s.decision_context();
    std::string line = "P" + std::to_string(seat + 1) + (context.empty() ? "" : " (" + context + ")") + " chooses " +
                       legal.at(static_cast<std::size_t>(action)).text;
    if (legal.size() == 1) return line + " (the only option)";
    std::string among;
    for (const numbered_option& o : numbered_options(legal))
        among += (among.empty() ? "" : ", ") + o.text + (o.copies > 1 ? " x" + std::to_string(o.copies) : "");
    if (among.size() <= 100) return line + " (of " + among + ")";
    return line + " (" + std::to_string(action + 1) + " of " + std::to_string(legal.size()) + ")";
}

// What a seat's account withholds of the other seats' decisions (viewer < 0: nothing).
class account_view {
public:
    account_view(const game& g, int viewer) : viewer_(viewer) {
        // Per choose statement, a hidden field its options read (ir/hidden_flow.hpp), in this game.
        if (viewer >= 0 && g.has_hidden)
            hidden_source_ = ir::hidden_flow(g.ruleset(), {g.slot_hidden.begin(), g.slot_hidden.end()}).choice_sources();
    }
    // Another seat's decision as the viewer may know it. Inside a simultaneous block before its
    // reveal it is private ("P2 decides in secret"). Where the options are read from a field the
    // game hides from some players, neither they nor the choice is told: under Cuius Regio's fog a
    // detachment of "9 (of 0, 1, ..., 10)" infantry would tell the other side the stack's size.
    // Where only the filter (`where`) reads one, the choice is told but not the options.
    std::string line(const state& s, int seat, int action, const std::vector<action_info>& legal) const {
        if (viewer_ < 0 || viewer_ == seat) return choice_account(s, seat, action, legal);
        const std::string who = "P" + std::to_string(seat + 1);
        if (s.in_secret()) return who + " decides in secret";
        const ir::id n = s.decision_node();
        if (n == ir::no_id || n >= hidden_source_.size()) return choice_account(s, seat, action, legal);
        const ir::hidden_flow::choice_reads& r = hidden_source_[n];
        if (r.set == ir::no_id && r.filter == ir::no_id) return choice_account(s, seat, action, legal);
        const std::string context = s.decision_context();
        const std::string why = "its options read `" + s.the_game().ruleset().slots.at(r.set != ir::no_id ? r.set : r.filter).name +
                                "`, which P" + std::to_string(viewer_ + 1) + " may not see";
        return who + (context.empty() ? "" : " (" + context + ")") + " chooses " +
               (r.set != ir::no_id ? "unseen: " + why : legal.at(static_cast<std::size_t>(action)).text + " (" + why + ")");
    }

private:
    int viewer_;
    std::vector<ir::hidden_flow::choice_reads> hidden_source_;
};

// A decision inside a simultaneous block before its reveal is private to its seat
// (docs/language.md §5): `replay --as` another seat does not show it.
std::string decision_line(std::uint64_t step, int seat, int action, const std::string& text, bool secret = false) {
    ojson j;
    j["step"] = step;
    j["kind"] = "decision";
    j["player"] = seat + 1;
    j["action"] = action;
    j["text"] = text;
    if (secret) j["private"] = true;
    return dsl::json_text(j) + '\n';
}

std::string chance_line(std::uint64_t step, int outcome, const chance_outcome& o) {
    ojson j;
    j["step"] = step;
    j["kind"] = "chance";
    j["outcome"] = outcome;
    j["value"] = o.value;
    j["text"] = o.text;
    return dsl::json_text(j) + '\n';
}

std::string footer_line(const play_result& r, const std::string& stop) {
    ojson j;
    j["end"] = !r.error.empty() ? std::string("error") : !stop.empty() ? std::string("stopped") : r.end_reason;
    j["decisions"] = r.decisions;
    j["winners"] = ojson::array();
    for (int w : r.winners) j["winners"].push_back(w + 1);
    if (!r.error.empty()) j["error"] = r.error;
    if (!stop.empty()) j["stopped"] = stop;
    j["players"] = ojson::array();
    if (r.final_state)
        for (int p = 0; p < r.final_state->the_game().players(); ++p) {
            ojson fields = ojson::object();
            for (const auto& [name, value] : player_fields(*r.final_state, p)) fields[name] = value_json(value);
            j["players"].push_back(fields);
        }
    return dsl::json_text(j) + '\n';
}

// The designer's queries (docs/language.md §9) as a game answers them: each, the first time the
// state after a decision, or the last state, answers it, says so in the account ("query:
// reachable `deck_out_twice` is reached here") and in play_result::queries.
class query_watch {
public:
    explicit query_watch(const ir::ruleset& rs) {
        for (const ir::rule& r : rs.rules)
            if (ir::is_query(r.kind) && r.value != ir::no_id) queries_.push_back(&r);  // as state::query_hits numbers them
        answered_.assign(queries_.size(), 0);
    }
    // Asked where `sim` asks (the state a decision and its dice lead to, and the end; not the
    // setup's before the first decision), so that a game answers each query at the decision
    // `sim` and `check` name.
    void note(const state& s, const std::function<void(const std::string&)>& say) {
        if (queries_.empty() || (!s.is_terminal() && (s.is_chance_node() || s.decisions() == 0))) return;
        for (std::uint32_t k : s.query_hits(skip_)) {
            if (k >= queries_.size() || answered_[k]) continue;
            answered_[k] = s.decisions() + 1;  // 0: not answered
            if (k < 64) skip_ |= std::uint64_t{1} << k;
            say("query: " + std::string(ir::query_words(queries_[k]->kind)) + " `" + queries_[k]->name + "` " + verdict(*queries_[k]) + " here");
        }
    }
    // One line per query, in rule order: "reachable deck_out_twice: reached after decision 431".
    void report(play_result& r) const {
        r.queries.clear();
        for (std::size_t k = 0; k < queries_.size(); ++k)
            r.queries.push_back(std::string(ir::query_words(queries_[k]->kind)) + " " + queries_[k]->name + ": " +
                                (answered_[k] ? std::string(verdict(*queries_[k])) + " after decision " + std::to_string(answered_[k] - 1)
                                              : std::string("not answered in this game")));
    }

private:
    static const char* verdict(const ir::rule& q) { return q.kind == ir::rule_kind::reachable ? "is reached" : "fails"; }
    std::vector<const ir::rule*> queries_;
    std::vector<std::uint64_t> answered_;
    std::uint64_t skip_ = 0;
};

void finish(play_result& r) {
    state& s = *r.final_state;
    r.end_reason = s.is_terminal() ? s.end_reason() : "decision limit";
    r.decisions = s.decisions();
    r.rule_fires = s.rule_fires();
    if (s.is_terminal()) r.winners = s.winners(&r.rule_fires);
}

std::string legal_list(const std::vector<action_info>& legal) {
    std::ostringstream out;
    for (std::size_t i = 0; i < legal.size(); ++i) out << (i ? ", " : "") << i << " `" << legal[i].text << "`";
    return out.str();
}

}  // namespace

std::string ir_fingerprint(const ir::ruleset& rs) {
    const std::string text = ir::to_json_text(rs, -1);
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::vector<std::pair<std::string, std::string>> player_fields(const state& s, int seat, int viewer) {
    std::vector<std::pair<std::string, std::string>> out;
    const game& g = s.the_game();
    const ir::ruleset& rs = g.ruleset();
    for (ir::id sl = 0; sl < rs.slots.size(); ++sl) {
        const ir::slot& slot = rs.slots[sl];
        if (slot.scope != ir::slot_scope::per_player) continue;
        if (viewer >= 0 && viewer != seat && s.hidden_copy(sl, static_cast<std::uint32_t>(seat))) continue;
        const ir::type& t = rs.types[slot.type];
        const ir::id vt = t.kind == ir::type_kind::map_of ? t.value : slot.type;
        std::string text;
        if (t.kind == ir::type_kind::list_of) {
            std::vector<std::int64_t> at;
            for (std::uint32_t k = 0; k < g.slots[sl].width; ++k) at.push_back(s.slot_value(slot.name, seat, static_cast<int>(k)));
            out.emplace_back(slot.name, g.list_text(slot.type, at.data()));
            continue;
        }
        for (std::uint32_t k = 0; k < g.slots[sl].width; ++k)
            text += (k ? "," : "") + g.value_text(vt, s.slot_value(slot.name, seat, static_cast<int>(k)));
        out.emplace_back(slot.name, text);
    }
    return out;
}

namespace {

// The invariants broken since the last look, each told in the account where it is first seen
// ("invariant broken: …") and added to `seen`; never at a chance node, where a log's step may
// stand half-way through a rule.
void tell_invariant_violations(const state& s, std::vector<std::string>& seen, const std::function<void(const std::string&)>& tell) {
    if (s.is_chance_node()) return;
    const std::size_t known = seen.size();
    note_invariant_violations(s, seen);
    for (std::size_t i = known; i < seen.size(); ++i) tell("invariant broken: " + seen[i]);
}

}  // namespace

logged_play play_logged(const ir::ruleset& rs, const log_header& header, const std::vector<agent*>& agents,
                        const play_options& options) {
    logged_play out;
    play_result& result = out.result;
    out.log = header_line(header);
    try {
        auto g = std::make_shared<const game>(rs, header.players, options.options);
        result.the_game = g;
        state_options so;
        so.sampled_chance = false;  // stop at each chance node to log it; the same draws as sampling
        so.trace = options.trace;
        so.trace_verbose = options.trace_verbose;
        so.trace_viewer = options.viewer;
        // the invariants after each decision and inside each step, where the checker assumes them
        so.track_changes = options.check_invariants;
        so.check_in_steps = options.check_invariants;
        rng agent_rng{header.seed ^ agent_seed_mix};
        // While the resumed steps are played the account is silent. The gate lives as long as the
        // final state that points to it (logged_play::trace_gate).
        auto muted = std::make_shared<bool>(options.resume != nullptr);
        out.trace_gate = std::make_shared<std::function<void(const std::string&)>>(
            [muted, to = options.trace](const std::string& line) {
                if (!*muted && to && *to) (*to)(line);
            });
        const std::function<void(const std::string&)>& gated = *out.trace_gate;
        so.trace = out.trace_gate.get();
        // A seat's own account answers no query (it may read what the seat cannot see).
        const std::function<void(const std::string&)> said = [&](const std::string& line) {
            if (options.viewer < 0) gated(line);
        };
        result.final_state = std::make_unique<state>(*g, header.seed, so);
        state& s = *result.final_state;
        query_watch queries(rs);
        const account_view account(*g, options.viewer);
        // a broken invariant told in the account where it is first seen, once: where the state
        // waits for a decision or has ended, as `sim` checks (a chance node, since the log stops at
        // each, may stand half-way through a step), and inside the steps
        auto check = [&] {
            if (options.check_invariants) tell_invariant_violations(s, result.invariant_violations, gated);
        };
        std::uint64_t step = 0;
        auto agent_of = [&](int seat) -> agent* {
            return agents.empty() ? nullptr : agents[agents.size() == 1 ? 0 : static_cast<std::size_t>(seat) % agents.size()];
        };
        if (options.resume) {
            // The logged steps, checked before by replay_log: the same draws, the agents observing.
            std::size_t at = options.resume->find('\n');
            while (at != std::string::npos && at + 1 < options.resume->size()) {
                const std::size_t end = options.resume->find('\n', at + 1);
                const std::string line = options.resume->substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
                at = end;
                if (line.empty()) continue;
                const ojson j = ojson::parse(line);
                if (!j.contains("step")) break;  // the footer
                if (j.at("kind") == "chance") {
                    const std::vector<chance_outcome> outcomes = s.chance_outcomes();
                    const int i = s.apply_sampled();
                    out.log += chance_line(++step, i, outcomes.at(static_cast<std::size_t>(i)));
                    queries.note(s, said);
                    check();
                } else {
                    const int seat = s.current_player();
                    const int action = j.at("action").get<int>();
                    const std::vector<action_info> legal = s.legal_actions();
                    if (action < 0 || static_cast<std::size_t>(action) >= legal.size())
                        throw engine_error("the resumed log's step " + std::to_string(step + 1) + " is not legal");
                    if (agent* a = agent_of(seat)) a->observe(seat_view(s, seat), action, agent_rng);
                    out.log += decision_line(++step, seat, action, legal[static_cast<std::size_t>(action)].text, s.in_secret());
                    result.actions.push_back(action);
                    s.apply(action);
                    queries.note(s, said);
                    check();
                }
            }
            out.resumed = s.decisions();
            *muted = false;
            gated(options.resume_note.empty() ? "resumed after " + std::to_string(s.decisions()) + " decisions"
                                              : options.resume_note);
        }
        while (!s.is_terminal()) {
            if (s.is_chance_node()) {
                const std::vector<chance_outcome> outcomes = s.chance_outcomes();
                const std::uint64_t k = ++step;
                const int i = s.apply_sampled();
                out.log += chance_line(k, i, outcomes.at(static_cast<std::size_t>(i)));
                queries.note(s, said);
                check();
                continue;
            }
            if (s.decisions() >= options.max_decisions) break;
            const int seat = s.current_player();
            agent* a = agent_of(seat);
            const int choice = a ? a->act(seat_view(s, seat), agent_rng) : 0;
            const std::vector<action_info> legal = s.legal_actions();
            if (choice < 0 || static_cast<std::size_t>(choice) >= legal.size())
                throw engine_error("the agent chose action " + std::to_string(choice) + " of " +
                                   std::to_string(legal.size()));
            out.log += decision_line(++step, seat, choice, legal[static_cast<std::size_t>(choice)].text, s.in_secret());
            gated(account.line(s, seat, choice, legal));
            result.actions.push_back(choice);
            s.apply(choice);
            queries.note(s, said);
            check();
        }
        queries.note(s, said);
        check();
        finish(result);
        queries.report(result);
    } catch (const agent_stop& e) {
        out.stop = e.what();
        out.stop_is_error = e.is_error;
        out.save_to = e.save_to;
        out.undo_seat = e.undo_seat;
        if (result.final_state) {
            result.decisions = result.final_state->decisions();
            result.rule_fires = result.final_state->rule_fires();
            result.end_reason = "stopped";
        }
    } catch (const engine_error& e) {
        result.error = e.what();
        if (result.final_state) {
            result.decisions = result.final_state->decisions();
            result.rule_fires = result.final_state->rule_fires();
            // what broke inside the step before the error (the state may be half-changed)
            if (options.check_invariants) note_invariant_violations(*result.final_state, result.invariant_violations, true);
        }
    }
    out.log += footer_line(result, out.stop);
    return out;
}

std::string log_before_last_decision(const std::string& log, int seat) {
    std::size_t cut = std::string::npos;
    for (std::size_t at = log.find('\n'); at != std::string::npos && at + 1 < log.size();) {
        const std::size_t end = log.find('\n', at + 1);
        const ojson j = ojson::parse(log.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1), nullptr, false);
        if (!j.is_object() || !j.contains("step")) break;  // the footer
        if (j.value("kind", "") == "decision" && j.contains("player") && j["player"].is_number_integer() && j["player"].get<int>() == seat + 1)
            cut = at + 1;
        at = end;
    }
    return cut == std::string::npos ? std::string() : log.substr(0, cut);
}

std::optional<log_header> read_log_header(const std::string& text, log_error& error) {
    const std::string line = text.substr(0, text.find('\n'));
    ojson j;
    try {
        j = ojson::parse(line);
    } catch (const nlohmann::json::exception&) {
        error = {1, "the header is not JSON", "log-json"};
        return std::nullopt;
    }
    try {
        if (!j.is_object() || !j.contains("schema") || j["schema"] != log_schema) {
            error = {1, std::string("not a game log: the header's schema is not \"") + log_schema + "\"", "log-schema"};
            return std::nullopt;
        }
        if (!j.contains("version") || !j["version"].is_number_integer() || j["version"] != log_version) {
            error = {1, "log version " + (j.contains("version") ? dsl::json_text(j["version"]) : std::string("(none)")) +
                            " is not supported; this westphalia reads version " + std::to_string(log_version),
                     "log-version"};
            return std::nullopt;
        }
        log_header h;
        const ojson& r = j.at("ruleset");
        h.ruleset_name = r.at("name").get<std::string>();
        h.ruleset_path = r.at("path").get<std::string>();
        h.fingerprint = r.at("fingerprint").get<std::string>();
        h.upto = r.at("upto").get<std::string>();
        if (r.contains("with")) h.with = r.at("with").get<std::vector<std::string>>();
        h.players = integer_field<int>(j, "players");
        h.seed = integer_field<std::uint64_t>(j, "seed");
        for (const auto& [k, v] : j.at("options").items()) h.options[k] = v.get<std::string>();
        h.agents = j.at("agents").get<std::vector<std::string>>();
        if (header_line(h) != line + '\n') {
            error = {1, "the header has fields this version does not know or writes differently", "log-schema"};
            return std::nullopt;
        }
        return h;
    } catch (const nlohmann::json::exception& e) {
        error = {1, std::string("the header lacks a field or has one of the wrong type: ") + e.what(), "log-schema"};
        return std::nullopt;
    } catch (const bad_integer& e) {
        error = {1, std::string("the header lacks a field or has one of the wrong type: ") + e.what(), "log-schema"};
        return std::nullopt;
    }
}

replay_result replay_log(const std::string& text, const ir::ruleset& rs, const log_header& header,
                         const std::function<void(const std::string&)>* trace, bool verbose, int viewer, bool check_invariants) {
    replay_result out;
    play_result& result = out.result;
    std::vector<std::string> lines;
    {
        std::size_t at = 0;
        while (at < text.size()) {
            const std::size_t end = text.find('\n', at);
            lines.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
            if (end == std::string::npos) break;
            at = end + 1;
        }
    }
    if (ir_fingerprint(rs) != header.fingerprint) {
        out.error = log_error{1, "the ruleset's fingerprint is " + ir_fingerprint(rs) + ", not " + header.fingerprint +
                                     " as logged: the rules changed since the game was played",
                              "log-fingerprint"};
        return out;
    }
    if (header.players < rs.min_players || header.players > rs.max_players) {
        out.error = log_error{1, rs.name + " is played by " + std::to_string(rs.min_players) + " to " +
                                     std::to_string(rs.max_players) + " players, not " + std::to_string(header.players),
                              "log-ruleset"};
        return out;
    }
    out.relog = header_line(header);
    const play_options defaults;
    try {
        auto g = std::make_shared<const game>(rs, header.players);  // header.options were compile options
        result.the_game = g;
        state_options so;
        so.sampled_chance = false;
        so.trace = trace;
        so.trace_verbose = verbose;
        so.trace_viewer = viewer;
        so.track_changes = check_invariants;
        so.check_in_steps = check_invariants;
        result.final_state = std::make_unique<state>(*g, header.seed, so);
    } catch (const engine_error& e) {
        out.error = log_error{1, std::string("cannot start the game: ") + e.what(), "log-ruleset"};
        return out;
    }
    state& s = *result.final_state;
    query_watch queries(rs);
    const account_view account(*result.the_game, viewer);
    // A seat's own view says nothing the whole state answers (a query may read hidden fields).
    const std::function<void(const std::string&)> say = [&](const std::string& line) {
        if (trace && *trace && viewer < 0) (*trace)(line);
    };
    // a broken invariant told where it is first seen, as play_logged tells it
    const std::function<void(const std::string&)> told = [&](const std::string& line) {
        if (trace && *trace) (*trace)(line);
    };
    auto check = [&] {
        if (check_invariants) tell_invariant_violations(s, result.invariant_violations, told);
    };
    std::uint64_t step = 0;
    bool errored = false;
    bool footer = false;
    auto fail = [&](std::size_t line, std::string message, const char* kind) -> replay_result&& {
        out.error = log_error{line, std::move(message), kind};
        return std::move(out);
    };
    for (std::size_t n = 1; n < lines.size(); ++n) {
        const std::size_t line = n + 1;
        ojson j;
        try {
            j = ojson::parse(lines[n]);
        } catch (const nlohmann::json::exception&) {
            return fail(line, "not JSON", "log-json");
        }
        try {
            if (footer) return fail(line, "a line after the footer", "log-schema");
            if (!j.is_object()) return fail(line, "not a JSON object", "log-schema");
            if (j.contains("step")) {
                const std::int64_t logged_step = integer_field<std::int64_t>(j, "step");
                if (logged_step != static_cast<std::int64_t>(step + 1))
                    return fail(line, "step " + std::to_string(logged_step) + " where step " + std::to_string(step + 1) +
                                          " was expected", "log-mismatch");
                const std::uint64_t k = ++step;
                if (errored) return fail(line, "step " + std::to_string(k) + " after the engine error", "log-mismatch");
                if (s.is_terminal()) return fail(line, "step " + std::to_string(k) + ": the game is already over", "log-mismatch");
                const std::string kind = j.at("kind").get<std::string>();
                if (kind == "chance") {
                    if (!s.is_chance_node())
                        return fail(line, "step " + std::to_string(k) + " is a chance outcome but P" +
                                              std::to_string(s.current_player() + 1) + " decides here", "log-mismatch");
                    const std::vector<chance_outcome> outcomes = s.chance_outcomes();
                    const int logged = integer_field<int>(j, "outcome");
                    const std::int64_t value = integer_field<std::int64_t>(j, "value");
                    if (logged < 0 || static_cast<std::size_t>(logged) >= outcomes.size())
                        return fail(line, "step " + std::to_string(k) + ": outcome " + std::to_string(logged) +
                                              " is not one of the " + std::to_string(outcomes.size()) + " outcomes",
                                    "log-illegal-action");
                    int i = 0;
                    try {
                        i = s.apply_sampled();
                    } catch (const engine_error& e) {
                        result.error = e.what();
                        errored = true;
                        i = logged;
                        if (check_invariants) note_invariant_violations(s, result.invariant_violations, true);
                    }
                    const chance_outcome& o = outcomes[static_cast<std::size_t>(i)];
                    if (i != logged || o.value != value || o.text != j.at("text").get<std::string>())
                        return fail(line, "step " + std::to_string(k) + ": the log has outcome " + std::to_string(logged) +
                                              " (value " + std::to_string(value) + ") but the seed gives outcome " +
                                              std::to_string(i) + " (value " + std::to_string(o.value) + ")",
                                    "log-mismatch");
                    out.relog += chance_line(k, i, o);
                    if (!errored) {
                        queries.note(s, say);
                        check();
                    }
                } else if (kind == "decision") {
                    if (s.is_chance_node())
                        return fail(line, "step " + std::to_string(k) + " is a decision but the engine is at a chance node",
                                    "log-mismatch");
                    const int player = integer_field<int>(j, "player");
                    if (player != s.current_player() + 1)
                        return fail(line, "step " + std::to_string(k) + " is a decision by P" + std::to_string(player) +
                                              " but P" + std::to_string(s.current_player() + 1) + " decides here",
                                    "log-mismatch");
                    const std::vector<action_info> legal = s.legal_actions();
                    const int a = integer_field<int>(j, "action");
                    const std::string t = j.at("text").get<std::string>();
                    if (a < 0 || static_cast<std::size_t>(a) >= legal.size())
                        return fail(line, "step " + std::to_string(k) + ": action " + std::to_string(a) + " `" + t +
                                              "` is not legal; the legal actions are " + legal_list(legal),
                                    "log-illegal-action");
                    if (legal[static_cast<std::size_t>(a)].text != t)
                        return fail(line, "step " + std::to_string(k) + ": action " + std::to_string(a) + " is `" +
                                              legal[static_cast<std::size_t>(a)].text + "`, not `" + t +
                                              "` as logged; the legal actions are " + legal_list(legal),
                                    "log-mismatch");
                    out.relog += decision_line(k, player - 1, a, t, s.in_secret());
                    if (trace && *trace)
                        (*trace)(account.line(s, player - 1, a, legal));
                    result.actions.push_back(a);
                    try {
                        s.apply(a);
                        queries.note(s, say);
                        check();
                    } catch (const engine_error& e) {
                        result.error = e.what();
                        errored = true;
                        // what broke inside the step before the error (the state may be half-changed)
                        if (check_invariants) note_invariant_violations(s, result.invariant_violations, true);
                    }
                } else {
                    return fail(line, "unknown step kind `" + kind + "`", "log-schema");
                }
            } else if (j.contains("end")) {
                footer = true;
                std::string stop;
                if (errored) {
                    result.decisions = s.decisions();
                    result.rule_fires = s.rule_fires();
                } else if (!s.is_terminal() && j.contains("stopped")) {
                    stop = j.at("stopped").get<std::string>();
                    result.decisions = s.decisions();
                    result.rule_fires = s.rule_fires();
                    result.end_reason = "stopped";
                } else if (!s.is_terminal() && s.decisions() < defaults.max_decisions) {
                    return fail(line, "the footer comes after step " + std::to_string(step) +
                                          " but the game is not over", "log-mismatch");
                } else {
                    queries.note(s, say);
                    check();
                    finish(result);
                    queries.report(result);
                }
                const std::string f = footer_line(result, stop);
                out.relog += f;
                if (f != lines[n] + '\n')
                    return fail(line, "the footer does not match the replay, which ends " + f.substr(0, f.size() - 1),
                                "log-mismatch");
            } else {
                return fail(line, "neither a step nor the footer", "log-schema");
            }
        } catch (const nlohmann::json::exception& e) {
            return fail(line, std::string("a field is missing or of the wrong type: ") + e.what(), "log-schema");
        } catch (const bad_integer& e) {
            return fail(line, std::string("a field is missing or of the wrong type: ") + e.what(), "log-schema");
        }
    }
    if (!footer)
        return fail(lines.size() + 1, "the log ends after step " + std::to_string(step) +
                                          " without a footer: it is truncated", "log-missing-footer");
    return out;
}

}  // namespace wp::engine
