// One ruleset translated by the compiled engine at build time (tests/CMakeLists.txt), as the
// equivalence test sees it: a game played with the engine's random agents, and its final state.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wp::test {

struct compiled_run {
    std::uint64_t decisions = 0;
    std::string end_reason;
    std::string error;
    std::uint32_t winners = 0;
    std::vector<std::uint64_t> fires;  // per IR rule
    std::function<std::int64_t(std::uint32_t slot, int copy, int key)> value;
    std::function<std::vector<std::int64_t>(std::uint32_t zone, int copy)> zone;
};

struct compiled_case {
    std::string ruleset;  // relative to the source folder
    std::string options;  // name=value,... the translation fixed ("" for the defaults)
    std::uint64_t games = 150;  // per player count
    std::function<compiled_run(std::uint64_t seed, std::uint64_t agent_seed, int players, std::uint64_t max_decisions)> play;
};

std::vector<compiled_case>& compiled_cases();
bool add_compiled_case(compiled_case c);

}  // namespace wp::test
