// The command line run in-process, for the unit tests that need what the goldens cannot spell:
// its exit code and what it printed on standard output and standard error.
#pragma once

#include "cli.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace wp::test {

struct cli_outcome {
    int code;
    std::string out, err;
};

inline cli_outcome run_cli(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    std::istringstream in;
    const int code = cli::run(args, out, err, in);
    return {code, out.str(), err.str()};
}

}  // namespace wp::test
