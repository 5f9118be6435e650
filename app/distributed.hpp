// Simulations split across processes (`sim --mpi`, `balance --mpi`): every process plays its
// share of the games (index % processes == rank, engine::simulate_part), the first process
// gathers the shares and merges them (engine::merge_parts) into the report one process would
// have written, byte for byte. The MPI implementation (distributed_mpi.cpp) is linked into the
// `westphalia` program only, when CMake finds MPI; it sets `mpi_simulator` before the command
// line runs. Without it `--mpi` is refused.
#pragma once

#include "westphalia/engine/sim.hpp"

#include <optional>

namespace wp::cli {

// The report on the first process, std::nullopt on the others (which print nothing).
using distributed_simulator = std::optional<engine::sim_report> (*)(const ir::ruleset&, const engine::sim_options&);
extern distributed_simulator mpi_simulator;  // null: built without MPI

// For the tests and the MPI code: a share as bytes and back (JSON text).
std::string part_bytes(const engine::sim_part& part);
engine::sim_part part_from_bytes(const std::string& bytes);

}  // namespace wp::cli
