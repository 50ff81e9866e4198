#pragma once
/// The C++ stack as a resource that recursion must not run out of.
///
/// Some recursion depths are set by input, not by keel: the EVM's call depth reaches 1,024
/// frames, each one a C++ frame (or three) of the interpreter. How many bytes a frame takes
/// depends on the build (about 1.5 KB at -O3, over 100 KB in an unoptimized sanitizer build)
/// and how many bytes a thread has depends on its creator (`ulimit -s`, a thread pool's
/// setting). So the recursion asks before it descends: with_headroom(need, fn) runs fn on this
/// thread when at least `need` bytes of stack are left below the caller, and otherwise on a
/// fresh thread with a stack of kFreshStackBytes, waiting for it. The check is a thread-local
/// read and a subtraction; the hand-off happens only when a stack is nearly spent, so a deep
/// recursion runs on a chain of stacks instead of crashing.

#include <cstddef>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

namespace keel::native_stack {

/// The stack of a thread that with_headroom() starts (virtual size; pages are committed only as
/// they are touched).
inline constexpr std::size_t kFreshStackBytes = std::size_t{64} << 20;

/// Bytes of this thread's stack left below the caller's frame (x86-64 stacks grow down).
std::size_t headroom() noexcept;

/// Runs `body(context)` on a new thread whose stack has `stack_bytes` bytes and waits for it.
/// An exception from body reaches the caller. Throws std::system_error when no thread can be
/// started.
void run_on_fresh_stack(std::size_t stack_bytes, void (*body)(void*), void* context);

/// fn() on this thread when `need` bytes of stack are left, else on a fresh stack. fn returns
/// a value (not a reference) or nothing.
template <class F>
std::invoke_result_t<F&> with_headroom(std::size_t need, F&& fn) {
    using R = std::invoke_result_t<F&>;
    static_assert(!std::is_reference_v<R>, "with_headroom: fn must return a value");
    if (headroom() >= need) return fn();
    struct Call {
        std::remove_reference_t<F>* fn;
        std::exception_ptr error;
        std::conditional_t<std::is_void_v<R>, bool, std::optional<R>> result{};
    } call{&fn, {}};
    run_on_fresh_stack(
        kFreshStackBytes,
        [](void* p) {
            auto& c = *static_cast<Call*>(p);
            try {
                if constexpr (std::is_void_v<R>)
                    (*c.fn)();
                else
                    c.result.emplace((*c.fn)());
            } catch (...) {
                c.error = std::current_exception();
            }
        },
        &call);
    if (call.error) std::rethrow_exception(call.error);
    if constexpr (!std::is_void_v<R>) return std::move(*call.result);
}

}  // namespace keel::native_stack
