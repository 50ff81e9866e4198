#pragma once
/// Key and value formats of the chain store's column families (docs/store.md): block numbers
/// as 8-byte big-endian (BE8) so that key order is block order, `BE8(number) ‖ hash` keys for
/// per-block rows, and `BE8(number) ‖ BE4(index)` tx lookup values. Shared by the store, its
/// prune and verify tools and their tests; pure functions, no allocation.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>

#include "keel/common/bytes.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::store::keys {

/// Size of a number key.
inline constexpr std::size_t kNumberSize = 8;
/// Size of a `BE8(number) ‖ hash` key.
inline constexpr std::size_t kNumberHashSize = 40;
/// Size of a tx lookup value `BE8(number) ‖ BE4(index)`.
inline constexpr std::size_t kTxLocationSize = 12;

/// Writes `v` as 8 bytes big-endian at `out`.
inline void put_be64(std::uint8_t* out, std::uint64_t v) noexcept {
    for (int i = 7; i >= 0; --i) {
        out[i] = static_cast<std::uint8_t>(v);
        v >>= 8;
    }
}

/// The big-endian number in the 8 bytes at `in`.
inline std::uint64_t get_be64(const std::uint8_t* in) noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | in[i];
    return v;
}

/// The big-endian number in the 4 bytes at `in`.
inline std::uint32_t get_be32(const std::uint8_t* in) noexcept {
    return std::uint32_t{in[0]} << 24 | std::uint32_t{in[1]} << 16 | std::uint32_t{in[2]} << 8 |
           std::uint32_t{in[3]};
}

/// BE8(number): the key of `canonical`, and the lower bound of a block's rows in the
/// `BE8(number) ‖ hash` families (every such key of block n sorts in [BE8(n), BE8(n + 1))).
inline std::array<std::uint8_t, kNumberSize> number(std::uint64_t n) noexcept {
    std::array<std::uint8_t, kNumberSize> k{};
    put_be64(k.data(), n);
    return k;
}

/// BE8(number) ‖ hash: the key of headers, td, bodies and receipts.
inline std::array<std::uint8_t, kNumberHashSize> number_hash(std::uint64_t n,
                                                             const Hash32& hash) noexcept {
    std::array<std::uint8_t, kNumberHashSize> k{};
    put_be64(k.data(), n);
    std::memcpy(k.data() + kNumberSize, hash.data(), 32);
    return k;
}

/// The number of an 8-byte number key; nullopt for any other size.
inline std::optional<std::uint64_t> parse_number(BytesView key) noexcept {
    if (key.size() != kNumberSize) return std::nullopt;
    return get_be64(key.data());
}

/// A block's number and hash, as in a `BE8(number) ‖ hash` key.
struct NumberHash {
    std::uint64_t number = 0;
    Hash32 hash;
};

/// Splits a `BE8(number) ‖ hash` key; nullopt when it is not 40 bytes.
inline std::optional<NumberHash> parse_number_hash(BytesView key) noexcept {
    if (key.size() != kNumberHashSize) return std::nullopt;
    NumberHash out;
    out.number = get_be64(key.data());
    std::memcpy(out.hash.data(), key.data() + kNumberSize, 32);
    return out;
}

/// A tx lookup value `BE8(number) ‖ BE4(index)`.
inline std::array<std::uint8_t, kTxLocationSize> tx_location(std::uint64_t number,
                                                             std::uint32_t index) noexcept {
    std::array<std::uint8_t, kTxLocationSize> v{};
    put_be64(v.data(), number);
    v[8] = static_cast<std::uint8_t>(index >> 24);
    v[9] = static_cast<std::uint8_t>(index >> 16);
    v[10] = static_cast<std::uint8_t>(index >> 8);
    v[11] = static_cast<std::uint8_t>(index);
    return v;
}

/// Reads a tx lookup value; nullopt when it is not 12 bytes.
inline std::optional<TxLocation> parse_tx_location(BytesView value) noexcept {
    if (value.size() != kTxLocationSize) return std::nullopt;
    return TxLocation{get_be64(value.data()), get_be32(value.data() + kNumberSize)};
}

}  // namespace keel::store::keys
