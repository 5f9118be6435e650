// Time limits for Z3 queries without Z3's own timer. Debian's Z3 (4.8.12) can deadlock in its
// thread-pool `scoped_timer` when a query's "timeout" expires (Z3 issue 5990): a check hung
// for good, now and then, on Contractor Cards. Instead, one watchdog thread per context
// interrupts the query in progress when its limit passes, and Z3 answers `unknown`.
//
// An interrupt that lands when no check runs (the query has just returned, or not yet begun)
// is not ignored: Z3 4.8.12 keeps the context cancelled until its next check, and meanwhile
// every simplify and model evaluation throws "canceled" (CI saw one escape the whole check
// under --timeout 0.001). So a query the watchdog interrupted clears that state before the
// caller goes on.
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

    // Runs `ask` (a query on this context) with the watchdog armed for `ms` milliseconds.
    template <class Ask>
    z3::check_result run(unsigned ms, Ask&& ask) {
        z3::check_result r = z3::unknown;
        {
            armed a(*this, ms);
            r = ask();
        }
        settle();
        return r;
    }

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

    // After a query (disarmed): if the watchdog interrupted it, leaves the context no longer
    // cancelled, whenever the interrupt landed.
    void settle();

    void loop();

    z3::context& ctx_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool armed_ = false;
    bool stop_ = false;
    bool fired_ = false;            // an interrupt was sent since the last settle()
    std::uint64_t generation_ = 0;  // which query the deadline belongs to
    std::chrono::steady_clock::time_point deadline_;
    std::thread thread_;
};

}  // namespace wp::verify::detail
