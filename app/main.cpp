// westphalia: entry point. Everything else lives in the wp_cli library so tests can run it in-process.
#include "cli.hpp"

#ifdef WP_HAVE_MPI
namespace wp::cli {
void enable_mpi();  // distributed_mpi.cpp
}
#endif

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    try {
#ifdef WP_HAVE_MPI
        wp::cli::enable_mpi();
#endif
        std::vector<std::string> args(argv + 1, argv + argc);
        return wp::cli::run(args, std::cout, std::cerr);
    } catch (const std::exception& e) {
        std::cerr << "westphalia: internal error: " << e.what() << '\n';
        return 70;
    }
}
