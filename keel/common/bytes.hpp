#pragma once
/// Byte vocabulary types shared by every keel module: owned bytes, views, fixed-size arrays.

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace keel {

/// Owned, growable bytes.
using Bytes = std::vector<std::uint8_t>;

/// Non-owning view of bytes; the caller keeps the storage alive.
using BytesView = std::span<const std::uint8_t>;

/// Mutable non-owning view of bytes.
using MutableBytesView = std::span<std::uint8_t>;

/// Views the characters of a string as bytes (no copy).
inline BytesView as_bytes(std::string_view s) noexcept {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

/// Views bytes as characters (no copy).
inline std::string_view as_chars(BytesView b) noexcept {
    return {reinterpret_cast<const char*>(b.data()), b.size()};
}

/// Fixed-size byte array with value semantics: hashes, addresses, keys, signatures.
/// Trivially copyable; ordered and compared bytewise (lexicographically).
template <std::size_t N>
struct FixedBytes {
    static constexpr std::size_t kSize = N;
    std::array<std::uint8_t, N> bytes{};

    /// Copies exactly N bytes from `b`; std::nullopt when `b.size() != N`.
    static std::optional<FixedBytes> from(BytesView b) noexcept {
        if (b.size() != N) return std::nullopt;
        FixedBytes out;
        std::memcpy(out.bytes.data(), b.data(), N);
        return out;
    }

    /// Copies `b` right-aligned (big-endian numbers) when shorter than N; nullopt when longer.
    static std::optional<FixedBytes> from_right_aligned(BytesView b) noexcept {
        if (b.size() > N) return std::nullopt;
        FixedBytes out;
        if (!b.empty()) std::memcpy(out.bytes.data() + (N - b.size()), b.data(), b.size());
        return out;
    }

    constexpr std::uint8_t* data() noexcept { return bytes.data(); }
    constexpr const std::uint8_t* data() const noexcept { return bytes.data(); }
    static constexpr std::size_t size() noexcept { return N; }
    constexpr std::uint8_t& operator[](std::size_t i) noexcept { return bytes[i]; }
    constexpr std::uint8_t operator[](std::size_t i) const noexcept { return bytes[i]; }
    constexpr auto begin() const noexcept { return bytes.begin(); }
    constexpr auto end() const noexcept { return bytes.end(); }
    constexpr auto begin() noexcept { return bytes.begin(); }
    constexpr auto end() noexcept { return bytes.end(); }

    /// A view over the N bytes; valid while this object lives.
    BytesView view() const noexcept { return {bytes.data(), N}; }
    MutableBytesView mutable_view() noexcept { return {bytes.data(), N}; }

    /// True when every byte is zero.
    constexpr bool is_zero() const noexcept {
        return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t x) { return x == 0; });
    }

    /// Word by word: the defaulted comparison called memcmp for every address and hash compared
    /// (the state's hash maps compare one at each lookup).
    friend constexpr bool operator==(const FixedBytes& a, const FixedBytes& b) noexcept {
        if consteval {
            return a.bytes == b.bytes;
        } else {
            std::uint64_t diff = 0;
            std::size_t i = 0;
            for (; i + 8 <= N; i += 8) {
                std::uint64_t x;
                std::uint64_t y;
                std::memcpy(&x, a.bytes.data() + i, 8);
                std::memcpy(&y, b.bytes.data() + i, 8);
                diff |= x ^ y;
            }
            for (; i < N; ++i) diff |= static_cast<std::uint64_t>(a.bytes[i] ^ b.bytes[i]);
            return diff == 0;
        }
    }
    friend constexpr auto operator<=>(const FixedBytes&, const FixedBytes&) = default;
};

using Hash32 = FixedBytes<32>;
using Bytes32 = FixedBytes<32>;
using Address = FixedBytes<20>;
using Bytes48 = FixedBytes<48>;
using Bytes96 = FixedBytes<96>;
using Bloom = FixedBytes<256>;

}  // namespace keel

/// Hashing for unordered containers. The bytes of keys such as Keccak hashes are already uniform,
/// so the first 8 bytes are a good hash; short arrays are folded with FNV-1a.
template <std::size_t N>
struct std::hash<keel::FixedBytes<N>> {
    std::size_t operator()(const keel::FixedBytes<N>& v) const noexcept {
        if constexpr (N >= sizeof(std::size_t)) {
            std::size_t h;
            std::memcpy(&h, v.data(), sizeof h);
            return h;
        } else {
            std::size_t h = 0xcbf29ce484222325ull;
            for (auto b : v.bytes) h = (h ^ b) * 0x100000001b3ull;
            return h;
        }
    }
};
