// What the harnesses share: a broken promise of the code under test (a parse that fails with no
// diagnostic, an "internal error" reported as if it were the input's fault, an IR the reader
// accepts but cannot write back) is a finding like a crash, so it aborts with a message and
// libFuzzer keeps the input.
#pragma once

#include "westphalia/dsl/diagnostics.hpp"
#include "westphalia/dsl/source.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace wp::fuzz {

[[noreturn]] inline void fail(const std::string& why) {
    std::fprintf(stderr, "\n==westphalia-fuzz== finding: %s\n", why.c_str());
    std::fflush(stderr);
    std::abort();
}

inline void require(bool ok, const std::string& why) {
    if (!ok) fail(why);
}

// Renders the diagnostics in every format, as the commands would print them, and checks that
// each one's span lies inside its file and that none is an internal error.
inline void check_diagnostics(const dsl::source_manager& sources, const dsl::diagnostic_sink& sink) {
    for (const dsl::diagnostic& d : sink.all()) {
        // ("internal parser error: …", "internal error: the compiler built …"; only at the start,
        // since a message may quote the input, and libFuzzer puts the harness's strings in it)
        require(d.message.rfind("internal ", 0) != 0, "an internal error reported as a diagnostic: " + d.message);
        auto in_file = [&](const dsl::span& s) {
            require(s.file < sources.size(), "a diagnostic names file " + std::to_string(s.file) + ": " + d.message);
            const std::size_t size = sources.get(s.file).text.size();
            require(s.begin <= s.end && s.end <= size,
                    "a diagnostic's span " + std::to_string(s.begin) + ".." + std::to_string(s.end) +
                        " lies outside its file of " + std::to_string(size) + " bytes: " + d.message);
        };
        if (d.where) in_file(*d.where);
        for (const dsl::diag_note& n : d.notes)
            if (n.where) in_file(*n.where);
    }
    for (const dsl::diag_format f : {dsl::diag_format::human, dsl::diag_format::gnu, dsl::diag_format::json}) {
        std::ostringstream out;
        dsl::render(out, sources, sink.all(), f);
    }
}

}  // namespace wp::fuzz
