#pragma once
/// Codecs of the basic types: uint8 .. uint64, uint128 (ssz::Uint128), uint256 (keel::Uint256)
/// and boolean (consensus-specs ssz/simple-serialize.md, "uintN", "boolean"). Each is its own
/// little-endian bytes, and its root is those bytes zero-padded to one chunk.

#include <concepts>
#include <cstring>
#include <string>
#include <type_traits>

#include "keel/common/uint256.hpp"
#include "keel/ssz/codec.hpp"
#include "keel/ssz/types.hpp"

namespace keel::ssz {

namespace detail {

/// Codec of a basic type whose object representation is its SSZ encoding (little-endian uints,
/// Uint128, Uint256, bool), so sequences of them can be copied and hashed as one block.
template <class T, std::size_t Size>
struct MemcpyBasic {
    static_assert(sizeof(T) == Size && std::is_trivially_copyable_v<T>);
    static constexpr bool kFixed = true;
    static constexpr std::size_t kFixedSize = Size;
    static constexpr bool kBasic = true;
    /// The in-memory array of values is the packed SSZ bytes (see codec_sequence.hpp).
    static constexpr bool kMemcpy = true;

    static std::size_t size(const T&) noexcept { return Size; }
    static std::uint8_t* write(const T& v, std::uint8_t* out) noexcept {
        std::memcpy(out, &v, Size);
        return out + Size;
    }
    static void root(const T& v, std::uint8_t* out) noexcept {
        std::memset(out, 0, 32);
        std::memcpy(out, &v, Size);
    }
};

}  // namespace detail

/// uint8, uint16, uint32, uint64.
template <std::unsigned_integral T>
    requires(!std::is_same_v<T, bool>)
struct Codec<T> : detail::MemcpyBasic<T, sizeof(T)> {
    static std::string name() { return "uint" + std::to_string(8 * sizeof(T)); }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, T& out,
                     Error& err) noexcept {
        if (n != sizeof(T)) return detail::fail(err, Errc::wrong_size, at, n, sizeof(T));
        std::memcpy(&out, p, sizeof(T));
        return true;
    }
};

/// uint128.
template <>
struct Codec<Uint128> : detail::MemcpyBasic<Uint128, 16> {
    static std::string name() { return "uint128"; }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, Uint128& out,
                     Error& err) noexcept {
        if (n != 16) return detail::fail(err, Errc::wrong_size, at, n, 16);
        std::memcpy(&out, p, 16);
        return true;
    }
};

/// uint256.
template <>
struct Codec<Uint256> : detail::MemcpyBasic<Uint256, 32> {
    static std::string name() { return "uint256"; }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, Uint256& out,
                     Error& err) noexcept {
        if (n != 32) return detail::fail(err, Errc::wrong_size, at, n, 32);
        std::array<std::uint64_t, 4> limbs;
        std::memcpy(limbs.data(), p, 32);
        out = Uint256::from_limbs(limbs);
        return true;
    }
};

/// boolean: exactly 0x00 or 0x01.
template <>
struct Codec<bool> : detail::MemcpyBasic<bool, 1> {
    static std::string name() { return "boolean"; }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, bool& out,
                     Error& err) noexcept {
        if (n != 1) return detail::fail(err, Errc::wrong_size, at, n, 1);
        if (p[0] > 1) return detail::fail(err, Errc::invalid_bool, at, p[0]);
        out = p[0] == 1;
        return true;
    }
};

}  // namespace keel::ssz
