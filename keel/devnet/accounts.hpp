#pragma once
/// The devnet's deterministic keys and addresses, all derived from the chain's seed.
///
/// Secret i of a role is keccak256(tag || seed || i || attempt), with tag the ASCII string
/// "keel-devnet/sender" or "keel-devnet/authority", seed 8 bytes and i 4 bytes big-endian, and
/// attempt one byte: the first attempt (from 0) whose hash is a valid secp256k1 secret, in
/// [1, n-1] (the first one always is, but for probability ~2^-128).

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "keel/common/bytes.hpp"

namespace keel::devnet {

/// Accounts that send the generated transactions.
inline constexpr std::size_t kSenderCount = 256;
/// Accounts that sign EIP-7702 authorizations (and send nothing, so that a valid authorization,
/// which bumps its authority's nonce, never disturbs a sender's nonce sequence).
inline constexpr std::size_t kAuthorityCount = 64;
/// Addresses that stand for contracts: call targets and EIP-7702 delegation targets.
inline constexpr std::size_t kContractCount = 64;
/// Addresses that receive the block rewards or fees (beneficiary / fee recipient).
inline constexpr std::size_t kMinerCount = 4;

/// One key pair: a secp256k1 secret and its Ethereum address.
struct Account {
    Bytes32 secret;   ///< in [1, n-1]
    Address address;  ///< keccak256(public key)[12..32)
};

/// Every key and fixed address of one devnet.
struct AccountSet {
    std::vector<Account> senders;      ///< kSenderCount transaction senders
    std::vector<Account> authorities;  ///< kAuthorityCount EIP-7702 authorities
    std::vector<Address> contracts;    ///< kContractCount call / delegation targets
    std::vector<Address> miners;       ///< kMinerCount beneficiaries

    /// Derives the set for `seed` (public keys computed on the oneTBB pool; the result does not
    /// depend on the thread count). Costs one point multiplication per key.
    static AccountSet derive(std::uint64_t seed);
};

/// Secret `index` of the accounts tagged `tag` (see the top of this file).
Bytes32 derive_secret(std::string_view tag, std::uint64_t seed, std::uint32_t index) noexcept;

/// An address without a key: keccak256(tag || seed || index)[12..32), encoded as above.
Address derive_address(std::string_view tag, std::uint64_t seed, std::uint32_t index) noexcept;

}  // namespace keel::devnet
