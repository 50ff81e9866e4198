#pragma once
/// The account of the world state (yellow paper §4.1): nonce, balance, storage root, code hash;
/// the empty code hash; storage words; logs.
///
/// Storage keys and values are EVM words (Uint256) here; the state trie stores
/// keccak256(be32(key)) -> rlp(value without leading zeros), a zero value meaning "no entry".

#include <cstdint>
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

}  // namespace keel::state
