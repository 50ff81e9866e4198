// Two keel RLPx sessions over loopback TCP in one process (what `keel p2p bench` was, moved
// out of apps/keel): one thread sends BlockBodies-shaped messages of incompressible bytes
// (snappy passes them through, as it does block and transaction data), the session's reader
// thread on the other end receives them. Each iteration sends a batch and waits until the
// receiver has all of it, so the rate is what arrived, not what was queued; it is wall-clock
// (UseRealTime: two threads work, and a CPU-time rate would count only the sender's).
// Counters: send and recv calls per frame (net.hpp's process-wide syscall counts).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "keel/rlpx/session.hpp"

namespace {

using namespace std::chrono_literals;
using keel::Bytes;
namespace rlpx = keel::rlpx;

/// eth BlockBodies.
constexpr std::uint64_t kBlockBodies = 0x06;
/// Added to the receiver's count when its session ends, so that a sender waiting for it wakes.
constexpr std::uint64_t kReceiverDone = std::uint64_t{1} << 62;

Bytes incompressible(std::size_t size) {
    Bytes out(size);
    std::uint64_t x = 0x9e3779b97f4a7c15;
    for (auto& byte : out) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        byte = static_cast<std::uint8_t>(x);
    }
    return out;
}

void BM_RlpxLoopback(benchmark::State& state) {
    const auto size = static_cast<std::size_t>(state.range(0));
    // About 1 MiB per batch (at least 4 messages), so a batch's round trip to the receiver is
    // small next to the time the batch takes.
    const std::size_t batch = std::max<std::size_t>(4, (std::size_t{1} << 20) / size);
    const auto a = rlpx::generate_node_key(), b = rlpx::generate_node_key();
    auto listener = rlpx::listen_tcp("127.0.0.1", 0);
    if (!a || !b || !listener) {
        state.SkipWithError("no node keys or no listening socket");
        return;
    }
    rlpx::Enode target;
    target.id = b->id;
    target.host = "127.0.0.1";
    target.port = listener->local_port();
    std::atomic<std::uint64_t> received{0};
    std::atomic<bool> accepted{false};
    std::thread receiver([&] {
        auto s = rlpx::Session::accept(*listener, *b, rlpx::Clock::now() + 10s);
        accepted = s.has_value();
        while (s) {
            if (!s->receive(rlpx::Clock::now() + 30s)) break;
            received.fetch_add(1, std::memory_order_release);
            received.notify_all();
        }
        received.fetch_add(kReceiverDone, std::memory_order_release);
        received.notify_all();
    });
    auto s = rlpx::Session::dial(*a, target);
    if (!s) {
        receiver.join();
        state.SkipWithError(rlpx::to_string(s.error()).c_str());
        return;
    }
    const Bytes msg = incompressible(size);
    const auto before = rlpx::syscall_counts();
    std::uint64_t sent = 0;
    bool failed = false;
    for (auto _ : state) {
        for (std::size_t k = 0; k < batch; ++k, ++sent) {
            if (!s->send("eth", kBlockBodies, msg)) {
                failed = true;
                break;
            }
        }
        for (std::uint64_t r = received.load(std::memory_order_acquire); r < sent && !failed;
             r = received.load(std::memory_order_acquire))
            received.wait(r);
        if (received.load(std::memory_order_acquire) >= kReceiverDone) failed = true;
        if (failed) break;
    }
    const auto after = rlpx::syscall_counts();
    s->disconnect(rlpx::DisconnectReason::requested);
    receiver.join();
    if (failed || !accepted) {
        state.SkipWithError("a session failed");
        return;
    }
    const auto frames = static_cast<double>(std::max<std::uint64_t>(sent, 1));
    state.SetBytesProcessed(static_cast<std::int64_t>(sent * size));
    state.SetItemsProcessed(static_cast<std::int64_t>(sent));
    state.counters["sends_per_frame"] = static_cast<double>(after.sends - before.sends) / frames;
    state.counters["recvs_per_frame"] = static_cast<double>(after.recvs - before.recvs) / frames;
}
BENCHMARK(BM_RlpxLoopback)
    ->Arg(1 << 10)
    ->Arg(64 << 10)
    ->Arg(1 << 20)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
