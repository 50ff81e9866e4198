#include "keel/common/native_stack.hpp"

#include <pthread.h>

#include <cstdint>
#include <limits>
#include <system_error>

namespace keel::native_stack {
namespace {

struct Bounds {
    std::uintptr_t low = 0;   // lowest usable address
    std::uintptr_t high = 0;  // one past the highest
    bool known = false;
};

// This thread's stack, asked of glibc once per thread (for the main thread it reads
// /proc/self/maps and the stack rlimit: too slow to ask per call).
const Bounds& bounds() noexcept {
    thread_local Bounds b = [] {
        Bounds r;
        pthread_attr_t attr;
        if (::pthread_getattr_np(::pthread_self(), &attr) != 0) return r;
        void* addr = nullptr;
        std::size_t size = 0;
        if (::pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != nullptr && size != 0) {
            std::size_t guard = 0;
            (void)::pthread_attr_getguardsize(&attr, &guard);
            r.low = reinterpret_cast<std::uintptr_t>(addr) + guard;
            r.high = reinterpret_cast<std::uintptr_t>(addr) + size;
            r.known = r.low < r.high;
        }
        ::pthread_attr_destroy(&attr);
        return r;
    }();
    return b;
}

}  // namespace

std::size_t headroom() noexcept {
    const Bounds& b = bounds();
    const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    // A stack glibc does not know (a coroutine's, a signal stack): nothing to measure against.
    if (!b.known || here < b.low || here >= b.high) return std::numeric_limits<std::size_t>::max();
    return here - b.low;
}

void run_on_fresh_stack(std::size_t stack_bytes, void (*body)(void*), void* context) {
    struct Start {
        void (*body)(void*);
        void* context;
    } start{body, context};
    pthread_attr_t attr;
    int err = ::pthread_attr_init(&attr);
    if (err == 0) {
        pthread_t thread{};
        err = ::pthread_attr_setstacksize(&attr, stack_bytes);
        if (err == 0)
            err = ::pthread_create(
                &thread, &attr,
                [](void* p) -> void* {
                    auto* s = static_cast<Start*>(p);
                    s->body(s->context);
                    return nullptr;
                },
                &start);
        ::pthread_attr_destroy(&attr);
        if (err == 0) err = ::pthread_join(thread, nullptr);
    }
    if (err != 0)
        throw std::system_error(err, std::generic_category(),
                                "cannot start a thread with a fresh stack");
}

}  // namespace keel::native_stack
