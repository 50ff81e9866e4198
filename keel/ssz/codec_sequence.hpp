#pragma once
/// Codecs of the sequences: Vector[T, N], List[T, N], ByteVector[N] and ByteList[N]
/// (consensus-specs ssz/simple-serialize.md, "Serialization", "Deserialization",
/// "Merkleization").
///
/// Basic elements are packed: their bytes are copied in and out in one block and hashed in
/// place from the value's own storage. Composite elements are hashed into one per-thread
/// scratch buffer of element roots, in parallel for large lists, then merkleized in place.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <new>
#include <span>
#include <string>
#include <type_traits>

#include "keel/common/assert.hpp"
#include "keel/common/bytes.hpp"
#include "keel/common/huge_pages.hpp"
#include "keel/common/parallel.hpp"
#include "keel/ssz/codec.hpp"
#include "keel/ssz/merkle.hpp"
#include "keel/ssz/types.hpp"

namespace keel::ssz {

namespace detail {

/// A basic type whose values lie in memory as their packed SSZ bytes.
template <class T>
concept PackedBasic = Codec<T>::kBasic && Codec<T>::kMemcpy;

/// Limit in chunks of List[T, N] / Vector[T, N] (consensus-specs "chunk_count").
template <class T>
constexpr std::uint64_t chunk_count(std::uint64_t n) noexcept {
    if constexpr (Codec<T>::kBasic) {
        return (n * Codec<T>::kFixedSize + 31) / 32;
    } else {
        return n;
    }
}

/// Encoded size of `count` values at `items`.
template <class T>
std::size_t elements_size(const T* items, std::size_t count) noexcept {
    if constexpr (Codec<T>::kFixed) {
        return count * Codec<T>::kFixedSize;
    } else {
        std::size_t total = kOffsetSize * count;
        for (std::size_t i = 0; i < count; ++i) total += Codec<T>::size(items[i]);
        return total;
    }
}

/// Writes `count` values (offsets first for variable-size ones); returns the end.
template <class T>
std::uint8_t* write_elements(const T* items, std::size_t count, std::uint8_t* out) noexcept {
    if constexpr (PackedBasic<T>) {
        if (count != 0) std::memcpy(out, items, count * Codec<T>::kFixedSize);
        return out + count * Codec<T>::kFixedSize;
    } else if constexpr (Codec<T>::kFixed) {
        for (std::size_t i = 0; i < count; ++i) out = Codec<T>::write(items[i], out);
        return out;
    } else {
        std::uint8_t* body = out + kOffsetSize * count;
        for (std::size_t i = 0; i < count; ++i) {
            store_offset(out + kOffsetSize * i, static_cast<std::size_t>(body - out));
            body = Codec<T>::write(items[i], body);
        }
        return body;
    }
}

/// Reads `count` fixed-size values from exactly count * kFixedSize bytes.
template <class T>
bool read_fixed_elements(const std::uint8_t* p, std::size_t count, std::size_t at, T* items,
                         Error& err) {
    constexpr std::size_t kSize = Codec<T>::kFixedSize;
    if constexpr (std::is_same_v<T, bool>) {
        for (std::size_t i = 0; i < count; ++i) {
            if (p[i] > 1) {
                fail(err, Errc::invalid_bool, at + i, p[i]);
                prepend_path(err, "[" + std::to_string(i) + "]");
                return false;
            }
        }
    }
    if constexpr (PackedBasic<T>) {
        if (count != 0) std::memcpy(static_cast<void*>(items), p, count * kSize);
        return true;
    } else {
        for (std::size_t i = 0; i < count; ++i) {
            if (!Codec<T>::read(p + i * kSize, kSize, at + i * kSize, items[i], err)) {
                prepend_path(err, "[" + std::to_string(i) + "]");
                return false;
            }
        }
        return true;
    }
}

/// Reads `count` variable-size values from n bytes that start with `count` offsets (already
/// known to fit: n >= 4 * count, and the first offset is 4 * count).
template <class T>
bool read_variable_elements(const std::uint8_t* p, std::size_t n, std::size_t at, std::size_t count,
                            T* items, Error& err) {
    std::size_t prev = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t off = load_offset(p + kOffsetSize * i);
        if (!check_offset(off, prev, i == 0, kOffsetSize * count, n, at + kOffsetSize * i, err)) {
            prepend_path(err, "[" + std::to_string(i) + "]");
            return false;
        }
        if (i != 0 && !Codec<T>::read(p + prev, off - prev, at + prev, items[i - 1], err)) {
            prepend_path(err, "[" + std::to_string(i - 1) + "]");
            return false;
        }
        prev = off;
    }
    if (count != 0 && !Codec<T>::read(p + prev, n - prev, at + prev, items[count - 1], err)) {
        prepend_path(err, "[" + std::to_string(count - 1) + "]");
        return false;
    }
    return true;
}

template <class T>
struct IsByteList : std::false_type {};
template <std::size_t N>
struct IsByteList<ByteList<N>> : std::true_type {};

/// Roots of `count` composite values into `out` (32 bytes each), batched where the element's
/// codec can (containers, long byte vectors, byte lists). Spread over the thread pool when the
/// list holds enough work (estimated in 64-byte hashes) to pay for the tasks; byte lists only
/// from 1 MiB, as a block's transactions (~100 KiB) hash faster on one core than split.
template <class T>
void element_roots(const T* items, std::size_t count, std::uint8_t* out) noexcept {
    auto run = [&](std::size_t begin, std::size_t end) {
        batch_roots<T>(
            end - begin, [items, begin](std::size_t i) -> const T& { return items[begin + i]; },
            out + 32 * begin, 32);
    };
    constexpr std::size_t kParallelHashes = 8192;
    constexpr std::size_t kParallelListBytes = std::size_t{1} << 20;
    bool split = false;
    if (count >= 2 && parallel::concurrency() > 1) {
        if constexpr (IsByteList<T>::value) {
            split = count >= 64 && elements_size(items, count) >= kParallelListBytes;
        } else if constexpr (Codec<T>::kFixed) {
            split = count * (Codec<T>::kFixedSize / 32 + 2) >= kParallelHashes;
        } else {
            split = count >= 16 && 2 * count + elements_size(items, count) / 32 >= kParallelHashes;
        }
    }
    if (!split) return run(0, count);
    const std::size_t tasks = 4 * parallel::concurrency();
    parallel::for_ranges(count, std::max<std::size_t>(16, count / tasks), run);
}

/// merkleize(elements, limit) of `count` values: packed chunks for basic types, element roots
/// otherwise. `limit` is in elements.
template <class T>
void elements_root(const T* items, std::size_t count, std::uint64_t limit,
                   std::uint8_t* out) noexcept {
    if constexpr (PackedBasic<T>) {
        merkleize_bytes(reinterpret_cast<const std::uint8_t*>(items), count * Codec<T>::kFixedSize,
                        chunk_count<T>(limit), out);
    } else if constexpr (std::is_same_v<T, FixedBytes<32>>) {
        // 32-byte values are their own roots and lie back to back: hash them where they are.
        static_assert(sizeof(T) == 32);
        merkleize_bytes(reinterpret_cast<const std::uint8_t*>(items), 32 * count, limit, out);
    } else {
        static_assert(!Codec<T>::kBasic, "basic types are packed");
        ScratchFrame frame;
        std::uint8_t* roots = frame.get(32 * (count + 1));
        element_roots(items, count, roots);
        merkleize_in_place(roots, count, limit, out);
    }
}

}  // namespace detail

/// Vector[T, N]: N values; variable-size values are preceded by N offsets.
template <class T, std::size_t N>
struct Codec<Vector<T, N>> {
    static constexpr bool kFixed = Codec<T>::kFixed;
    static constexpr std::size_t kFixedSize = kFixed ? N * Codec<T>::kFixedSize : 0;
    static constexpr bool kBasic = false;

    static std::string name() {
        return "Vector[" + Codec<T>::name() + ", " + std::to_string(N) + "]";
    }
    static std::size_t size(const Vector<T, N>& v) noexcept {
        return detail::elements_size(v.data(), N);
    }
    static std::uint8_t* write(const Vector<T, N>& v, std::uint8_t* out) noexcept {
        return detail::write_elements(v.data(), N, out);
    }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, Vector<T, N>& out,
                     Error& err) {
        if constexpr (kFixed) {
            if (n != kFixedSize) return detail::fail(err, Errc::wrong_size, at, n, kFixedSize);
            return detail::read_fixed_elements(p, N, at, out.data(), err);
        } else {
            if (n < kOffsetSize * N) {
                return detail::fail(err, Errc::fixed_part_too_short, at, n, kOffsetSize * N);
            }
            return detail::read_variable_elements(p, n, at, N, out.data(), err);
        }
    }
    static void root(const Vector<T, N>& v, std::uint8_t* out) noexcept {
        detail::elements_root(v.data(), N, N, out);
    }
};

/// List[T, N]: up to N values; the root mixes in the length.
template <class T, std::size_t N>
struct Codec<List<T, N>> {
    static constexpr bool kFixed = false;
    static constexpr std::size_t kFixedSize = 0;
    static constexpr bool kBasic = false;

    static std::string name() {
        return "List[" + Codec<T>::name() + ", " + std::to_string(N) + "]";
    }
    static std::size_t size(const List<T, N>& v) noexcept {
        return detail::elements_size(v.data(), v.size());
    }
    static std::uint8_t* write(const List<T, N>& v, std::uint8_t* out) noexcept {
        KEEL_ASSERT(v.size() <= N);
        return detail::write_elements(v.data(), v.size(), out);
    }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, List<T, N>& out,
                     Error& err) {
        std::size_t count = 0;
        if constexpr (Codec<T>::kFixed) {
            constexpr std::size_t kSize = Codec<T>::kFixedSize;
            if (n % kSize != 0) return detail::fail(err, Errc::not_multiple, at, n, kSize);
            count = n / kSize;
        } else if (n != 0) {
            // The first offset says how many values follow: 4 * count.
            if (n < kOffsetSize) return detail::fail(err, Errc::fixed_part_too_short, at, n, 4);
            const std::size_t first = detail::load_offset(p);
            if (first == 0 || first % kOffsetSize != 0) {
                return detail::fail(err, Errc::first_offset_mismatch, at, first,
                                    kOffsetSize * (first / kOffsetSize + 1));
            }
            if (first > n) return detail::fail(err, Errc::offset_out_of_bounds, at, first, n);
            count = first / kOffsetSize;
        }
        // The limit is checked before anything is allocated.
        if (count > N) return detail::fail(err, Errc::too_many_elements, at, count, N);
        if (count > out.capacity() && count * sizeof(T) >= kHugePageAdviceBytes) {
            // A state's validator list: fault it in 2 MiB at a time (huge_pages.hpp).
            out.reserve(count);
            advise_huge_pages(out.data(), count * sizeof(T));
        }
        out.resize(count);
        if constexpr (Codec<T>::kFixed) {
            return detail::read_fixed_elements(p, count, at, out.data(), err);
        } else {
            return detail::read_variable_elements(p, n, at, count, out.data(), err);
        }
    }
    static void root(const List<T, N>& v, std::uint8_t* out) noexcept {
        detail::elements_root(v.data(), v.size(), N, out);
        mix_in_length(out, v.size());
    }
};

/// ByteVector[N] (keel::FixedBytes<N>): N bytes, packed.
template <std::size_t N>
struct Codec<FixedBytes<N>> {
    static_assert(N > 0, "ssz: ByteVector[0] is an illegal SSZ type");
    static constexpr bool kFixed = true;
    static constexpr std::size_t kFixedSize = N;
    static constexpr bool kBasic = false;

    static std::string name() { return "ByteVector[" + std::to_string(N) + "]"; }
    static std::size_t size(const FixedBytes<N>&) noexcept { return N; }
    static std::uint8_t* write(const FixedBytes<N>& v, std::uint8_t* out) noexcept {
        std::memcpy(out, v.data(), N);
        return out + N;
    }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, FixedBytes<N>& out,
                     Error& err) noexcept {
        if (n != N) return detail::fail(err, Errc::wrong_size, at, n, N);
        std::memcpy(out.data(), p, N);
        return true;
    }
    static void root(const FixedBytes<N>& v, std::uint8_t* out) noexcept {
        if constexpr (N == 32) {
            std::memcpy(out, v.data(), 32);  // one chunk is its own root
        } else {
            merkleize_bytes(v.data(), N, (N + 31) / 32, out);
        }
    }

    /// Longer than a chunk (pubkeys, signatures, commitments): batched roots (codec.hpp), each
    /// value zero-padded to its tree's kWidth chunks, then all trees climb together.
    static constexpr bool kBatchRoots = N > 32;
    static constexpr std::size_t kWidth = std::bit_ceil((N + 31) / 32);

    template <class Get>
    static void roots(std::size_t count, const Get& get, std::uint8_t* out,
                      std::size_t stride) noexcept {
        batched_roots<kWidth>(
            count,
            [&](std::size_t base, std::size_t n, std::uint8_t* leaves) {
                for (std::size_t e = 0; e < n; ++e) {
                    std::uint8_t* tree = leaves + 32 * kWidth * e;
                    std::memcpy(tree, get(base + e).data(), N);
                    std::memset(tree + N, 0, 32 * kWidth - N);
                }
            },
            out, stride);
    }
};

/// ByteList[N]: up to N bytes, packed; the root mixes in the length.
template <std::size_t N>
struct Codec<ByteList<N>> {
    static constexpr bool kFixed = false;
    static constexpr std::size_t kFixedSize = 0;
    static constexpr bool kBasic = false;

    static std::string name() { return "ByteList[" + std::to_string(N) + "]"; }
    static std::size_t size(const ByteList<N>& v) noexcept { return v.size(); }
    static std::uint8_t* write(const ByteList<N>& v, std::uint8_t* out) noexcept {
        KEEL_ASSERT(v.size() <= N);
        if (!v.empty()) std::memcpy(out, v.data(), v.size());
        return out + v.size();
    }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, ByteList<N>& out,
                     Error& err) {
        if (n > N) return detail::fail(err, Errc::too_many_elements, at, n, N);
        out.assign(p, p + n);
        return true;
    }
    static void root(const ByteList<N>& v, std::uint8_t* out) noexcept {
        merkleize_bytes(v.data(), v.size(), (std::uint64_t{N} + 31) / 32, out);
        mix_in_length(out, v.size());
    }

    static constexpr bool kBatchRoots = true;
    /// Many byte lists (a payload's transactions) climb their trees together, one batched
    /// SHA-256 call per level (merkleize_byte_lists).
    template <class Get>
    static void roots(std::size_t count, const Get& get, std::uint8_t* out,
                      std::size_t stride) noexcept {
        if (count == 0) return;
        ScratchFrame frame;
        auto* views = reinterpret_cast<BytesView*>(frame.get(sizeof(BytesView) * count));
        for (std::size_t i = 0; i < count; ++i) {
            const ByteList<N>& v = get(i);
            new (&views[i]) BytesView(v.data(), v.size());
        }
        merkleize_byte_lists(std::span<const BytesView>(views, count), (std::uint64_t{N} + 31) / 32,
                             out, nullptr, stride);
    }
};

}  // namespace keel::ssz
