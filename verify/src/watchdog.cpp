#include "watchdog.hpp"

#include "westphalia/verify/check.hpp"

#include <atomic>
#include <cstdint>
#include <string>

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

namespace {
std::atomic<unsigned> limit_mb{0};
}  // namespace

void set_memory_limit(unsigned mb) {
    limit_mb = mb;
    z3::set_param("memory_max_size", static_cast<int>(mb));
}

void make_room_for_context() {
    const std::uint64_t limit = limit_mb;
    if (limit == 0) return;
    const std::uint64_t used_mb = Z3_get_estimated_alloc_size() / (1024 * 1024);
    if (used_mb + context_room_mb > limit)
        throw out_of_memory("the check ran out of memory: the solver holds " + std::to_string(used_mb) +
                            " MB, too near --max-memory (" + std::to_string(limit) +
                            " MB) to begin another part of the check; give it more, or check fewer layers (--upto)");
}

bool watchdog::is_out_of_memory(const z3::exception& e) {
    return std::string(e.msg()).find("out of memory") != std::string::npos;
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
