#pragma once
/// SSZ, the consensus layer's serialization (consensus-specs ssz/simple-serialize.md): encode,
/// strict decode and hash_tree_root for every SSZ type (types.hpp) and for structs declared as
/// containers (container.hpp).
///
///   auto header = ssz::decode<BeaconBlockHeader>(bytes);      // Result<T, ssz::Error>
///   Bytes out = ssz::encode(*header);                          // exact size, one allocation
///   Hash32 root = ssz::hash_tree_root(*header);
///
/// Decoding enforces every rule of the spec's "Deserialization" section and reports the first
/// broken one with the field path and byte offset (errors.hpp). On failure only the error is
/// returned; decode_into leaves its target valid but unspecified.
///
/// Thread-safety: all functions may run concurrently on different values. hash_tree_root uses
/// per-thread scratch and, for large lists, oneTBB's pool.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "keel/common/assert.hpp"
#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/ssz/codec.hpp"
#include "keel/ssz/codec_basic.hpp"
#include "keel/ssz/codec_bits.hpp"
#include "keel/ssz/codec_sequence.hpp"
#include "keel/ssz/codec_union.hpp"
#include "keel/ssz/container.hpp"
#include "keel/ssz/errors.hpp"
#include "keel/ssz/merkle.hpp"
#include "keel/ssz/types.hpp"

namespace keel::ssz {

/// True when T has a fixed encoded size (known at compile time).
template <SszType T>
inline constexpr bool is_fixed_size = Codec<T>::kFixed;

/// The encoded size of a fixed-size type, at compile time.
template <SszType T>
    requires(Codec<T>::kFixed)
inline constexpr std::size_t fixed_size = Codec<T>::kFixedSize;

/// The exact number of bytes encode(v) produces.
template <SszType T>
std::size_t encoded_size(const T& v) noexcept {
    return Codec<T>::size(v);
}

/// Writes encoded_size(v) bytes to `out`; returns the end. Lists must be within their limits
/// (asserted).
template <SszType T>
std::uint8_t* encode_to(const T& v, std::uint8_t* out) noexcept {
    return Codec<T>::write(v, out);
}

/// The SSZ encoding of `v`, in one allocation of its exact size.
template <SszType T>
Bytes encode(const T& v) {
    Bytes out(Codec<T>::size(v));
    std::uint8_t* end = Codec<T>::write(v, out.data());
    KEEL_ASSERT(end == out.data() + out.size());
    return out;
}

/// Decodes `in` (all of it) into `out`. On failure `out` is valid but unspecified, and the
/// error names the rule, the field path (starting with the type's name) and the byte offset.
template <SszType T>
[[nodiscard]] Result<void, Error> decode_into(BytesView in, T& out) noexcept {
    Error err;
    if (!Codec<T>::read(in.data(), in.size(), 0, out, err)) {
        detail::prepend_path(err, Codec<T>::name());
        return std::unexpected(std::move(err));
    }
    return {};
}

/// Decodes `in` (all of it) as a T; lengths are checked against limits before allocating.
/// The value is built in the result, on the caller's stack: for types with large fixed parts
/// (a mainnet BeaconState holds megabytes of fixed vectors) use decode_boxed().
template <SszType T>
[[nodiscard]] Result<T, Error> decode(BytesView in) noexcept {
    T out{};
    if (auto r = decode_into(in, out); !r) return std::unexpected(std::move(r.error()));
    return out;
}

/// As decode(), with the value on the heap: for large containers (BeaconState) that must not
/// sit on a thread's stack. Throws std::bad_alloc only when the value itself cannot be
/// allocated.
template <SszType T>
[[nodiscard]] Result<std::unique_ptr<T>, Error> decode_boxed(BytesView in) {
    auto out = std::make_unique<T>();
    if (auto r = decode_into(in, *out); !r) return std::unexpected(std::move(r.error()));
    return out;
}

/// hash_tree_root(v) (consensus-specs "Merkleization").
template <SszType T>
Hash32 hash_tree_root(const T& v) noexcept {
    Hash32 out;
    Codec<T>::root(v, out.data());
    return out;
}

}  // namespace keel::ssz
