// Time limits for Z3 queries without Z3's own timer. Debian's Z3 (4.8.12) can deadlock in its
// thread-pool `scoped_timer` when a query's "timeout" expires (Z3 issue 5990): a check hung
// for good, now and then, on Contractor Cards. Instead, one watchdog thread per context
// interrupts the query in progress when its limit passes, and Z3 answers `unknown`.
#pragma once

#include <z3++.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace wp::verify::detail {

class watchdog {
public:
    explicit watchdog(z3::context& ctx);
    ~watchdog();
    watchdog(const watchdog&) = delete;
    watchdog& operator=(const watchdog&) = delete;

    z3::check_result check(z3::solver& s, unsigned ms);
    z3::check_result check(z3::solver& s, const z3::expr_vector& assumptions, unsigned ms);
    z3::check_result check(z3::optimize& o, unsigned ms);

private:
    // Arms the watchdog for `ms` milliseconds for as long as it lives.
    class armed {
    public:
        armed(watchdog& w, unsigned ms);
        ~armed();
        armed(const armed&) = delete;
        armed& operator=(const armed&) = delete;

    private:
        watchdog& w_;
    };

    void loop();

    z3::context& ctx_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool armed_ = false;
    bool stop_ = false;
    std::uint64_t generation_ = 0;  // which query the deadline belongs to
    std::chrono::steady_clock::time_point deadline_;
    std::thread thread_;
};

}  // namespace wp::verify::detail
