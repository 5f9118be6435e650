// `--mpi`: the simulation split across the processes mpirun started (distributed.hpp). MPI is
// started at the first distributed simulation and finished when the program exits.
#include "distributed.hpp"

#include <mpi.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace wp::cli {

namespace {

void start_mpi() {
    int started = 0;
    MPI_Initialized(&started);
    if (started) return;
    MPI_Init(nullptr, nullptr);
    std::atexit([] {
        int finished = 0;
        MPI_Finalized(&finished);
        if (!finished) MPI_Finalize();
    });
}

std::optional<engine::sim_report> simulate_mpi(const ir::ruleset& rs, const engine::sim_options& o) {
    start_mpi();
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    engine::sim_options mine = o;
    mine.progress = nullptr;
    const std::string bytes = part_bytes(engine::simulate_part(rs, mine, static_cast<std::uint64_t>(rank),
                                                               static_cast<std::uint64_t>(size)));
    if (bytes.size() > static_cast<std::size_t>(INT32_MAX)) throw std::runtime_error("a process's share of the games is over 2 GB as JSON");
    const int length = static_cast<int>(bytes.size());
    std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string all;
    if (rank == 0) {
        long long total = 0;
        for (int r = 0; r < size; ++r) {
            offsets[static_cast<std::size_t>(r)] = static_cast<int>(total);
            total += lengths[static_cast<std::size_t>(r)];
        }
        if (total > INT32_MAX) throw std::runtime_error("the games' shares are over 2 GB as JSON: use fewer games per run");
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(bytes.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank != 0) return std::nullopt;
    std::vector<engine::sim_part> parts;
    for (int r = 0; r < size; ++r)
        parts.push_back(part_from_bytes(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                                                   static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)]))));
    return engine::merge_parts(rs, o, std::move(parts));
}

}  // namespace

// Called by main() before the command line runs.
void enable_mpi() { mpi_simulator = &simulate_mpi; }

}  // namespace wp::cli
