// The checker's one-shot solver (verify/src/symbolic.cpp) on a question whose Boolean structure
// Z3's SMT core used to copy out at gigabytes a second, deaf to the time limit: one of SPI's
// game-end questions with every option free (data/spi_game_end_question.smt2.xz, dumped by
// `check --dump-smt` and cut down to the facts it needs). It must stop at its limit, small.
#include "source_dir.hpp"
#include "symbolic.hpp"
#include "watchdog.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <memory>
#include <string>

namespace {

std::string unpacked(const std::string& path) {
    std::string text;
    const std::string command = "xz -dc '" + path + "'";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    REQUIRE(pipe);
    char buf[1 << 16];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe.get())) > 0;) text.append(buf, n);
    return text;
}

}  // namespace

TEST_CASE("one-shot solver: a question with shared nested disjunctions stops at its limit, within memory",
          "[verify][cnf]") {
    const std::string smt = unpacked(std::string(WP_SOURCE_DIR) + "/tests/unit/data/spi_game_end_question.smt2.xz");
    INFO("unpacked with `xz -dc` (Debian's xz-utils, which scripts/setup.sh installs)");
    REQUIRE(smt.size() > 1000000);
    z3::context c;
    wp::verify::detail::watchdog dog(c);
    z3::solver s = wp::verify::detail::one_shot_solver(c, true);
    s.add(c.parse_string(smt.c_str()));
    // Without the naming, Z3 passed 1.5 GB within seconds of the search's start; with it, the
    // question stays near 0.4 GB. The limit is Z3's own count, lifted again before the context
    // goes (Z3 4.8.12 aborts freeing a context past it).
    z3::set_param("memory_max_size", 1500);
    std::string why;  // why the question was left undecided, if it was
    try {
        if (dog.check(s, 3000) == z3::unknown) why = s.reason_unknown();
    } catch (const z3::exception& e) {
        why = e.msg();
    }
    z3::set_param("memory_max_size", 0);
    INFO("reason: " << why);
    CHECK(why.find("memory") == std::string::npos);
}
