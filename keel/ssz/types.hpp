#pragma once
/// SSZ value types (consensus-specs ssz/simple-serialize.md, "Typing").
///
/// Basic types map to plain C++: `bool`, `std::uint8_t` .. `std::uint64_t`, `ssz::Uint128` and
/// `keel::Uint256`. Composite types are thin wrappers over standard containers, so a decoded
/// value is used like any vector or array:
///
///   Vector<T, N>    std::array<T, N>            (N > 0, checked at compile time)
///   List<T, N>      std::vector<T>, at most N   (the limit is checked on decode and encode)
///   ByteVector<N>   keel::FixedBytes<N>         (so Bytes32 / Hash32 are SSZ types as they are)
///   ByteList<N>     keel::Bytes, at most N
///   Bitvector<N>    N bits, packed little-endian (bit i in byte i / 8, position i % 8)
///   Bitlist<N>      up to N bits, packed the same way (the delimiter bit exists only on the wire)
///   Union<Ts...>    std::variant<Ts...>; `None` is allowed only as the first option
///
/// Containers are plain structs that list their fields once (see container.hpp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"

namespace keel::ssz {

/// uint128: two 64-bit halves, least significant first (the SSZ byte order on little-endian
/// hosts, so a Vector of them is already packed).
struct Uint128 {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    friend constexpr bool operator==(const Uint128&, const Uint128&) = default;
};

/// Vector[T, N]: exactly N values. Zero-length vectors are illegal SSZ types.
template <class T, std::size_t N>
struct Vector : std::array<T, N> {
    static_assert(N > 0, "ssz: Vector[T, 0] is an illegal SSZ type");
    static constexpr std::size_t kLength = N;
};

/// List[T, N]: up to N values.
template <class T, std::size_t N>
struct List : std::vector<T> {
    using std::vector<T>::vector;
    static constexpr std::size_t kLimit = N;
};

/// ByteVector[N] (= Vector[byte, N]): keel's fixed-size byte array.
template <std::size_t N>
using ByteVector = FixedBytes<N>;

/// ByteList[N] (= List[byte, N]): up to N bytes.
template <std::size_t N>
struct ByteList : Bytes {
    using Bytes::Bytes;
    static constexpr std::size_t kLimit = N;
};

/// Bitvector[N]: exactly N bits; bits past N in the last byte are always zero.
template <std::size_t N>
struct Bitvector {
    static_assert(N > 0, "ssz: Bitvector[0] is an illegal SSZ type");
    static constexpr std::size_t kLength = N;
    std::array<std::uint8_t, (N + 7) / 8> bytes{};

    /// Bit i (i < N).
    constexpr bool get(std::size_t i) const noexcept { return (bytes[i / 8] >> (i % 8)) & 1; }
    /// Sets bit i (i < N) to v.
    constexpr void set(std::size_t i, bool v) noexcept {
        auto mask = static_cast<std::uint8_t>(1u << (i % 8));
        bytes[i / 8] =
            static_cast<std::uint8_t>(v ? (bytes[i / 8] | mask) : (bytes[i / 8] & ~mask));
    }
    friend constexpr bool operator==(const Bitvector&, const Bitvector&) = default;
};

/// Bitlist[N]: up to N bits. `bytes` holds ceil(size / 8) bytes with the bits past `size` zero.
template <std::size_t N>
struct Bitlist {
    static constexpr std::size_t kLimit = N;
    Bytes bytes;
    std::size_t size = 0;  ///< number of bits

    /// Bit i (i < size).
    bool get(std::size_t i) const noexcept { return (bytes[i / 8] >> (i % 8)) & 1; }
    /// Appends one bit (the caller keeps size <= N; encode asserts it).
    void push_back(bool v) {
        if (size % 8 == 0) bytes.push_back(0);
        if (v) bytes[size / 8] = static_cast<std::uint8_t>(bytes[size / 8] | (1u << (size % 8)));
        ++size;
    }
    friend bool operator==(const Bitlist&, const Bitlist&) = default;
};

/// The empty Union option; only allowed as option 0 of a Union, and with an empty payload.
struct None {
    friend constexpr bool operator==(None, None) noexcept { return true; }
};

/// Union[T0, T1, ...]: one value of the listed types; the wire form is a 1-byte selector (the
/// option's index) then the value. `None` may only be option 0, and Union[None] alone is illegal.
template <class... Ts>
struct Union : std::variant<Ts...> {
    static_assert(sizeof...(Ts) >= 1 && sizeof...(Ts) <= 128, "ssz: Union needs 1..128 options");
    static_assert(!(sizeof...(Ts) == 1 && (std::is_same_v<Ts, None> && ...)),
                  "ssz: Union[None] is an illegal SSZ type");
    using std::variant<Ts...>::variant;
    using Variant = std::variant<Ts...>;
    static constexpr std::size_t kOptions = sizeof...(Ts);
};

}  // namespace keel::ssz
