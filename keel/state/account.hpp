#pragma once
/// The account of the world state (yellow paper §4.1): nonce, balance, storage root, code hash;
/// the empty code hash; storage words; logs.
///
/// Storage keys and values are EVM words (Uint256) here; the state trie stores
/// keccak256(be32(key)) -> rlp(value without leading zeros), a zero value meaning "no entry".

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"
#include "keel/trie/root.hpp"

namespace keel::state {

/// keccak256 of the empty string: the code hash of every account without code.
inline constexpr Hash32 kEmptyCodeHash{{0xc5, 0xd2, 0x46, 0x01, 0x86, 0xf7, 0x23, 0x3c,
                                        0x92, 0x7e, 0x7d, 0xb2, 0xdc, 0xc7, 0x03, 0xc0,
                                        0xe5, 0x00, 0xb6, 0x53, 0xca, 0x82, 0x27, 0x3b,
                                        0x7b, 0xfa, 0xd8, 0x04, 0x5d, 0x85, 0xa4, 0x70}};

struct Account {
    std::uint64_t nonce = 0;
    Uint256 balance;
    /// The root of the account's storage trie as the reader has it. The overlay does not keep
    /// it up to date while it writes slots: roots are computed when state is committed.
    Hash32 storage_root = trie::kEmptyRoot;
    Hash32 code_hash = kEmptyCodeHash;

    friend bool operator==(const Account&, const Account&) = default;
};

/// EIP-161's "empty": no code, nonce 0, balance 0 (the storage does not count).
constexpr bool is_empty(const Account& a) noexcept {
    return a.nonce == 0 && a.balance.is_zero() && a.code_hash == kEmptyCodeHash;
}

/// A log record (yellow paper §4.3.1): the emitting address, up to four topics and data.
struct Log {
    Address address;
    std::vector<Hash32> topics;
    Bytes data;

    friend bool operator==(const Log&, const Log&) = default;
};

/// Hashing of storage keys for unordered containers: the limbs folded with a multiply, so
/// small keys (slots 0, 1, 2, ...) spread as well as hashed ones.
struct WordHash {
    std::size_t operator()(const Uint256& v) const noexcept {
        const std::uint64_t x = v[0] ^ (v[1] * 0x9e3779b97f4a7c15ull) ^ (v[2] >> 7) ^ (v[3] << 3);
        return static_cast<std::size_t>((x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull);
    }
};

/// Hashing of addresses for unordered containers. Unlike std::hash<FixedBytes> (the first 8
/// bytes, right for Keccak outputs), every byte counts: precompiles, system contracts and test
/// accounts share long runs of zero bytes (0x00..01, 0x00..0100), and a hash of their first
/// bytes put them all in one bucket (a test creating thousands of accounts spent 94 % of its
/// time comparing addresses).
struct AddressHash {
    std::size_t operator()(const Address& a) const noexcept {
        std::uint64_t w[3] = {};
        std::memcpy(w, a.data(), 8);
        std::memcpy(w + 1, a.data() + 8, 8);
        std::memcpy(w + 2, a.data() + 16, 4);
        std::uint64_t x = w[0] * 0x9e3779b97f4a7c15ull ^ w[1] * 0xc2b2ae3d27d4eb4full ^ w[2];
        x ^= x >> 31;
        x *= 0xbf58476d1ce4e5b9ull;
        return static_cast<std::size_t>(x ^ (x >> 29));
    }
};

}  // namespace keel::state
