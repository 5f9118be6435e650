// The main program `westphalia sim --compiled` builds around a translated game (game.cpp):
// plays games [0, n) seeded as the simulator seeds them, on several threads, and writes one
// line per game, in game order, to a file:
//   decisions <TAB> winners (bit per seat) <TAB> end reason <TAB> error <TAB> violations <TAB> queries
// (violations "name after decision N", separated by '|'; queries answered "k@N", query k after
// decision N, separated by '|'; tabs and newlines in texts become spaces),
// then a line `#rules` with, per IR rule, "fires games" (its firings in all games, and the games
// in which it fired).
#pragma once

namespace wp::codegen {

inline constexpr const char* driver_source = R"CPP(
#include "game.cpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace WP_NAMESPACE;

struct result {
    outcome o;
    std::string violations;
    std::string queries;
};

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index) {
    rng r{seed + index * 0x9E3779B97F4A7C15ull};
    return r.next();
}

std::string flat(std::string t) {
    for (char& c : t)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 9) {
        std::fprintf(stderr, "usage: sim games players seed max-decisions threads check first output\n");
        return 2;
    }
    const std::uint64_t n = std::strtoull(argv[1], nullptr, 10);
    const int players = std::atoi(argv[2]);
    const std::uint64_t seed = std::strtoull(argv[3], nullptr, 10);
    const std::uint64_t max_decisions = std::strtoull(argv[4], nullptr, 10);
    const unsigned threads = static_cast<unsigned>(std::max(1, std::atoi(argv[5])));
    const bool check = std::atoi(argv[6]) != 0;
    const bool first = std::atoi(argv[7]) != 0;
    std::vector<result> results(n);
    std::atomic<std::uint64_t> next{0};
    // per thread, per rule: firings, and games in which it fired (sums: the order does not matter)
    std::vector<std::vector<std::uint64_t>> fires(threads, std::vector<std::uint64_t>(2 * WP_RULES, 0));
    auto work = [&](unsigned t) {
        auto state = std::make_unique<game_state>();
        for (std::uint64_t i = next++; i < n; i = next++) {
            const std::uint64_t s = game_seed(seed, i);
            result& r = results[i];
            r.o = play(*state, players, s, s ^ 0xA5A5A5A5DEADBEEFull, max_decisions, check, first, true);
            for (int k = 0; k < state->broken_count; ++k)
                r.violations += std::string(k ? "|" : "") + invariant_names[state->broken_order[k]] + " after decision " +
                                std::to_string(state->broken_after[k]);
            for (int k = 0; k < state->answered_count; ++k)
                r.queries += std::string(k ? "|" : "") + std::to_string(state->answered_order[k]) + "@" +
                             std::to_string(state->answered_after[k]);
            // as the interpreter's simulator: a game stopped by an error before its first decision
            // (in the state's constructor there) leaves no firings
            if (!r.o.error.empty() && !state->reached_decision) continue;
            for (std::uint32_t k = 0; k < WP_RULES; ++k) {
                fires[t][2 * k] += state->fires[k];
                fires[t][2 * k + 1] += state->fires[k] > 0;
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (std::thread& t : pool) t.join();
    std::FILE* out = std::fopen(argv[8], "w");
    if (!out) return 3;
    for (const result& r : results)
        std::fprintf(out, "%llu\t%u\t%s\t%s\t%s\t%s\t%s\n", static_cast<unsigned long long>(r.o.decisions), r.o.winners,
                     flat(r.o.end_reason).c_str(), flat(r.o.error).c_str(), flat(r.violations).c_str(), r.queries.c_str(),
                     flat(r.o.fault).c_str());
    std::fprintf(out, "#rules");
    for (std::uint32_t k = 0; k < WP_RULES; ++k) {
        std::uint64_t f = 0, g = 0;
        for (const auto& t : fires) {
            f += t[2 * k];
            g += t[2 * k + 1];
        }
        std::fprintf(out, "\t%llu %llu", static_cast<unsigned long long>(f), static_cast<unsigned long long>(g));
    }
    std::fprintf(out, "\n");
    return std::fclose(out) == 0 ? 0 : 3;
}
)CPP";

}  // namespace wp::codegen
