#include "keel/devnet/accounts.hpp"

#include <cstring>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/secp256k1.hpp"

namespace keel::devnet {
namespace {

constexpr std::string_view kSenderTag = "keel-devnet/sender";
constexpr std::string_view kAuthorityTag = "keel-devnet/authority";
constexpr std::string_view kContractTag = "keel-devnet/contract";
constexpr std::string_view kMinerTag = "keel-devnet/miner";

// keccak256(tag || seed (8 bytes BE) || index (4 bytes BE) || extra), `extra` omitted when < 0.
Hash32 tagged_hash(std::string_view tag, std::uint64_t seed, std::uint32_t index,
                   int extra) noexcept {
    std::uint8_t msg[64];
    KEEL_ASSERT(tag.size() + 13 <= sizeof msg);
    std::size_t n = tag.size();
    std::memcpy(msg, tag.data(), n);
    for (int shift = 56; shift >= 0; shift -= 8)
        msg[n++] = static_cast<std::uint8_t>(seed >> shift);
    for (int shift = 24; shift >= 0; shift -= 8)
        msg[n++] = static_cast<std::uint8_t>(index >> shift);
    if (extra >= 0) msg[n++] = static_cast<std::uint8_t>(extra);
    return crypto::keccak256(BytesView{msg, n});
}

std::vector<Account> derive_role(std::string_view tag, std::uint64_t seed, std::size_t count) {
    std::vector<Account> out(count);
    parallel::for_each_index(count, 8, [&](std::size_t i) {
        Account& a = out[i];
        a.secret = derive_secret(tag, seed, static_cast<std::uint32_t>(i));
        auto address = crypto::secp256k1::address_of(a.secret);
        KEEL_ASSERT(address.has_value());
        a.address = *address;
    });
    return out;
}

}  // namespace

Bytes32 derive_secret(std::string_view tag, std::uint64_t seed, std::uint32_t index) noexcept {
    for (int attempt = 0; attempt < 256; ++attempt) {
        const Hash32 h = tagged_hash(tag, seed, index, attempt);
        const Uint256 k = Uint256::from_be_bytes(h);
        if (!k.is_zero() && k < crypto::secp256k1::kOrder) return h;
    }
    KEEL_ASSERT(false && "256 keccak outputs outside [1, n-1]");
    return {};
}

Address derive_address(std::string_view tag, std::uint64_t seed, std::uint32_t index) noexcept {
    const Hash32 h = tagged_hash(tag, seed, index, -1);
    Address a;
    std::memcpy(a.data(), h.data() + 12, Address::size());
    return a;
}

AccountSet AccountSet::derive(std::uint64_t seed) {
    AccountSet set;
    set.senders = derive_role(kSenderTag, seed, kSenderCount);
    set.authorities = derive_role(kAuthorityTag, seed, kAuthorityCount);
    set.contracts.reserve(kContractCount);
    for (std::uint32_t i = 0; i < kContractCount; ++i) {
        set.contracts.push_back(derive_address(kContractTag, seed, i));
    }
    set.miners.reserve(kMinerCount);
    for (std::uint32_t i = 0; i < kMinerCount; ++i) {
        set.miners.push_back(derive_address(kMinerTag, seed, i));
    }
    return set;
}

}  // namespace keel::devnet
