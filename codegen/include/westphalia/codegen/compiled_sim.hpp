// `westphalia sim --compiled`: a simulation through the compiled engine. The ruleset is
// translated (translate.hpp), built with the machine's C++ compiler into a program that plays
// the games on several threads, and its games are summarised as the interpreter's simulation
// summarises its own: the same seeds give the same games and the same report (the rules'
// firings included), except that an invariant violation does not name the statement that last
// changed what the invariant reads.
#pragma once

#include "westphalia/engine/sim.hpp"
#include "westphalia/ir/ir.hpp"

#include <stdexcept>
#include <string>

namespace wp::codegen {

// The C++ compiler failed (its first lines of output in what()), or the built program did.
class build_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct compiled_sim_options {
    std::string compiler;  // empty: $CXX, else c++
    // A folder that keeps built games, each under the SHA-256 of what built it (the compiler,
    // its --version, the flags and both sources): the same rules built by the same compiler are
    // not built again. Empty: no cache (westphalia sim passes default_build_cache()).
    std::string cache_dir;
};

// $XDG_CACHE_HOME/westphalia/compiled, else $HOME/.cache/westphalia/compiled; empty without either.
std::string default_build_cache();

struct compiled_sim_timing {
    double translate_seconds = 0, build_seconds = 0, play_seconds = 0;
    bool cached = false;  // the game came from the cache, not from the compiler
};

// Throws unsupported (a construct not translated), engine::engine_error (an unknown option) or
// build_error. sim_options::options must be empty: the IR's selected options are the game's.
// A progress callback is not called.
engine::sim_report simulate_compiled(const ir::ruleset& rs, const engine::sim_options& options,
                                     const compiled_sim_options& build = {}, compiled_sim_timing* timing = nullptr);

}  // namespace wp::codegen
