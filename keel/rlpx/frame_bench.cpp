// RLPx frame codec throughput, in memory, judged against its two physical limits measured in the
// same run: Keccak-256 absorb (the MAC reads every body byte once per side) and AES-256-CTR
// (the cipher does too). One side's ceiling is 1 / (1/keccak + 1/aes); the goal is
// >= 350 MB/s per direction for 64 KiB messages without snappy (about 0.7 of the Keccak limit).
//
//   BM_RlpxFrameWrite      encrypt + MAC one message into a reused buffer (the sending side)
//   BM_RlpxFrameRead       verify + decrypt it in place (the receiving side)
//   BM_RlpxFrameRoundTrip  both sides on one core: bytes/s per message, i.e. half of either
//   ..Snappy variants      the same with snappy: compressed into the frame slot, decompressed
//                          into a reused buffer; bytes/s counts the uncompressed message
//   BM_RlpxKeccakAbsorb    Keccak256::update alone (the MAC limit)
//   BM_RlpxAesCtr          AES-256-CTR alone, the codec's own EVP context (the cipher limit)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "keel/rlpx/compress.hpp"
#include "keel/rlpx/frame.hpp"
#include "test/testutil/data.hpp"

namespace {

using keel::Bytes;
using keel::BytesView;
using keel::Hash32;
using keel::MutableBytesView;
using keel::crypto::Keccak256;
using namespace keel::rlpx;

constexpr std::uint64_t kCode = 0x10;  // the first eth message

Hash32 secret(std::uint64_t seed) {
    keel::testutil::Xorshift64 rng(seed);
    return rng.fixed<32>();
}

Keccak256 seeded_mac() {
    Keccak256 m;
    m.update(secret(3).view());
    return m;
}

FrameWriter make_writer() {
    return FrameWriter(secret(1), secret(2), seeded_mac());
}

FrameReader make_reader() {
    return FrameReader(secret(1), secret(2), seeded_mac());
}

// A message of n bytes: random (what encryption sees anyway) or, for snappy, about half
// compressible: each 32-byte chunk is fresh random bytes or a copy of an earlier chunk.
Bytes message(std::size_t n, bool compressible) {
    keel::testutil::Xorshift64 rng(0x5eed);
    Bytes m = rng.bytes(n);
    if (compressible) {
        for (std::size_t at = 64; at + 32 <= n; at += 32) {
            if (rng.below(2) == 0) continue;
            const std::size_t from = rng.below(at / 32) * 32;
            std::memcpy(m.data() + at, m.data() + from, 32);
        }
    }
    return m;
}

// Writes one message (snappy: compressed straight into the frame's payload slot).
void write_message(FrameWriter& w, BytesView msg, bool snappy, Bytes& out) {
    if (!snappy) {
        if (!w.write(kCode, msg, out)) std::abort();
        return;
    }
    const MutableBytesView slot = w.begin(kCode, snappy_max_compressed_length(msg.size()), out);
    if (!w.finish(snappy_compress_into(msg, slot), out)) std::abort();
}

// Reads the frame at the front of `wire` (snappy: decompressed into `plain`); returns its size.
std::size_t read_message(FrameReader& r, MutableBytesView wire, bool snappy, Bytes& plain) {
    if (!r.read_header(wire.first(kFrameHeaderSize))) std::abort();
    const std::size_t body = r.needed();
    auto frame = r.read_body(wire.subspan(kFrameHeaderSize, body));
    if (!frame) std::abort();
    if (snappy) {
        auto m = snappy_decompress(frame->payload, plain);
        if (!m) std::abort();
        benchmark::DoNotOptimize(m->data());
    } else {
        benchmark::DoNotOptimize(frame->payload.data());
    }
    return kFrameHeaderSize + body;
}

void BM_RlpxFrameWrite(benchmark::State& state) {
    const bool snappy = state.range(1) != 0;
    const Bytes msg = message(static_cast<std::size_t>(state.range(0)), snappy);
    FrameWriter w = make_writer();
    Bytes out;
    for (auto _ : state) {
        out.clear();
        write_message(w, msg, snappy, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * msg.size()));
    state.SetLabel(snappy ? "snappy" : "raw");
}

// The reader needs fresh ciphertext from its own session for every frame: a batch of frames
// (at least 4 MiB) is written outside the timing and read frame by frame inside it.
void BM_RlpxFrameRead(benchmark::State& state) {
    const bool snappy = state.range(1) != 0;
    const Bytes msg = message(static_cast<std::size_t>(state.range(0)), snappy);
    FrameWriter w = make_writer();
    FrameReader r = make_reader();
    const std::size_t per_batch = std::max<std::size_t>(8, (std::size_t{4} << 20) / msg.size());
    Bytes batch, plain;
    std::size_t pos = 0, left = 0;
    for (auto _ : state) {
        if (left == 0) {
            state.PauseTiming();
            batch.clear();
            for (std::size_t i = 0; i < per_batch; ++i) write_message(w, msg, snappy, batch);
            pos = 0;
            left = per_batch;
            state.ResumeTiming();
        }
        pos += read_message(r, MutableBytesView(batch).subspan(pos), snappy, plain);
        --left;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * msg.size()));
    state.SetLabel(snappy ? "snappy" : "raw");
}

// Both sides on one core, as an in-memory connection: each message written then read.
void BM_RlpxFrameRoundTrip(benchmark::State& state) {
    const bool snappy = state.range(1) != 0;
    const Bytes msg = message(static_cast<std::size_t>(state.range(0)), snappy);
    FrameWriter w = make_writer();
    FrameReader r = make_reader();
    Bytes wire, plain;
    for (auto _ : state) {
        wire.clear();
        write_message(w, msg, snappy, wire);
        read_message(r, wire, snappy, plain);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * msg.size()));
    state.SetLabel(snappy ? "snappy" : "raw");
}

void frame_args(benchmark::internal::Benchmark* b) {
    for (int snappy : {0, 1})
        for (int size : {1 << 10, 64 << 10, 1 << 20}) b->Args({size, snappy});
}

BENCHMARK(BM_RlpxFrameWrite)->Apply(frame_args);
BENCHMARK(BM_RlpxFrameRead)->Apply(frame_args);
BENCHMARK(BM_RlpxFrameRoundTrip)->Apply(frame_args);

// The MAC limit: Keccak-256 absorbing one running state, 64 KiB per update.
void BM_RlpxKeccakAbsorb(benchmark::State& state) {
    const Bytes data = message(static_cast<std::size_t>(state.range(0)), false);
    Keccak256 h = seeded_mac();
    for (auto _ : state) {
        h.update(data);
        benchmark::DoNotOptimize(&h);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}
BENCHMARK(BM_RlpxKeccakAbsorb)->Arg(64 << 10);

// The cipher limit: AES-256-CTR in place through the codec's EVP context.
void BM_RlpxAesCtr(benchmark::State& state) {
    Bytes data = message(static_cast<std::size_t>(state.range(0)), false);
    detail::FrameCipher c(secret(1), secret(2));
    for (auto _ : state) {
        c.ctr(data.data(), data.size());
        benchmark::DoNotOptimize(data.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}
BENCHMARK(BM_RlpxAesCtr)->Arg(64 << 10);

}  // namespace
