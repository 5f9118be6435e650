#include "watchdog.hpp"

namespace wp::verify::detail {

watchdog::watchdog(z3::context& ctx) : ctx_(ctx), thread_([this] { loop(); }) {}

watchdog::~watchdog() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

watchdog::armed::armed(watchdog& w, unsigned ms) : w_(w) {
    {
        std::lock_guard<std::mutex> lock(w_.mutex_);
        w_.armed_ = true;
        ++w_.generation_;
        w_.deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    }
    w_.wake_.notify_all();
}

watchdog::armed::~armed() {
    std::lock_guard<std::mutex> lock(w_.mutex_);
    w_.armed_ = false;
}

// Interrupting under the lock: a query that has just returned disarms only after the interrupt,
// and then settle() undoes what the interrupt left behind.
void watchdog::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
        if (!armed_) {
            wake_.wait(lock);
            continue;
        }
        const std::uint64_t generation = generation_;
        const auto deadline = deadline_;
        wake_.wait_until(lock, deadline);
        if (armed_ && generation_ == generation && std::chrono::steady_clock::now() >= deadline) {
            ctx_.interrupt();
            fired_ = true;
            armed_ = false;
        }
    }
}

// Z3 clears a context's cancellation when a check begins: the cheapest check, of an empty
// solver, does it.
void watchdog::settle() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!fired_) return;
        fired_ = false;
    }
    z3::solver empty(ctx_);
    empty.check();
}

z3::check_result watchdog::check(z3::solver& s, unsigned ms) {
    return run(ms, [&] { return s.check(); });
}

z3::check_result watchdog::check(z3::solver& s, const z3::expr_vector& assumptions, unsigned ms) {
    return run(ms, [&] { return s.check(assumptions); });
}

z3::check_result watchdog::check(z3::optimize& o, unsigned ms) {
    return run(ms, [&] { return o.check(); });
}

}  // namespace wp::verify::detail
