// The main program `westphalia sim --compiled` builds around a translated game (game.cpp):
// plays games [0, n) seeded as the simulator seeds them, on several threads, and writes one
// line per game, in game order, to a file:
//   decisions <TAB> winners (bit per seat) <TAB> end reason <TAB> error <TAB> violations
// (violations "name after decision N", separated by '|'; tabs and newlines in texts become spaces).
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
    auto work = [&] {
        auto state = std::make_unique<game_state>();
        for (std::uint64_t i = next++; i < n; i = next++) {
            const std::uint64_t s = game_seed(seed, i);
            result& r = results[i];
            r.o = play(*state, players, s, s ^ 0xA5A5A5A5DEADBEEFull, max_decisions, check, first);
            for (int k = 0; k < state->broken_count; ++k)
                r.violations += std::string(k ? "|" : "") + invariant_names[state->broken_order[k]] + " after decision " +
                                std::to_string(state->broken_after[k]);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    std::FILE* out = std::fopen(argv[8], "w");
    if (!out) return 3;
    for (const result& r : results)
        std::fprintf(out, "%llu\t%u\t%s\t%s\t%s\n", static_cast<unsigned long long>(r.o.decisions), r.o.winners,
                     flat(r.o.end_reason).c_str(), flat(r.o.error).c_str(), flat(r.violations).c_str());
    return std::fclose(out) == 0 ? 0 : 3;
}
)CPP";

}  // namespace wp::codegen
