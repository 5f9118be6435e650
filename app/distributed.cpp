// A simulation's share as bytes, for the processes of `--mpi` to send to the first one.
#include "distributed.hpp"

#include <nlohmann/json.hpp>

namespace wp::cli {

distributed_simulator mpi_simulator = nullptr;

std::string part_bytes(const engine::sim_part& part) {
    nlohmann::json j;
    j["indices"] = part.indices;
    nlohmann::json games = nlohmann::json::array();
    for (const engine::sim_game& g : part.outcomes)
        games.push_back({g.decisions, g.end_reason, g.winners, g.error, g.violations, g.query_hits, g.fault.kind,
                         g.fault.subject, g.fault.side, g.fault.node});
    j["games"] = std::move(games);
    j["fires"] = part.fires;
    j["fired_games"] = part.fired_games;
    j["ran"] = part.ran;
    j["keys"] = part.keys;
    j["table_key_first"] = part.table_key_first;
    return j.dump();
}

engine::sim_part part_from_bytes(const std::string& bytes) {
    const nlohmann::json j = nlohmann::json::parse(bytes);
    engine::sim_part part;
    part.indices = j.at("indices").get<std::vector<std::uint64_t>>();
    for (const nlohmann::json& g : j.at("games"))
        part.outcomes.push_back({g.at(0).get<std::uint64_t>(), g.at(1).get<std::string>(), g.at(2).get<std::vector<int>>(),
                                 g.at(3).get<std::string>(), g.at(4).get<std::vector<std::string>>(),
                                 g.at(5).get<std::vector<std::pair<std::uint32_t, std::uint64_t>>>(),
                                 {g.at(6).get<std::string>(), g.at(7).get<std::string>(), g.at(8).get<std::string>(),
                                  g.at(9).get<ir::id>()},
                                 {}});  // no coverage across processes: no faults passed
    part.fires = j.at("fires").get<std::vector<std::uint64_t>>();
    part.fired_games = j.at("fired_games").get<std::vector<std::uint64_t>>();
    part.ran = j.at("ran").get<std::vector<std::uint8_t>>();
    part.keys = j.at("keys").get<std::vector<std::uint8_t>>();
    part.table_key_first = j.at("table_key_first").get<std::vector<std::uint32_t>>();
    return part;
}

}  // namespace wp::cli
