#include "keel/devnet/tx_gen.hpp"

#include <algorithm>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/common/uint256.hpp"
#include "keel/devnet/chain_spec.hpp"
#include "keel/devnet/detail/rng.hpp"
#include "keel/devnet/fee_rules.hpp"
#include "keel/devnet/signer.hpp"
#include "keel/eth/tx_validation.hpp"

namespace keel::devnet {
namespace {

using detail::Rng;
using eth::TxType;

constexpr std::uint64_t kGwei = 1'000'000'000;
constexpr std::uint64_t kEther = kGwei * kGwei;
constexpr std::uint64_t kMaxSlack = 100'000;

// A 32-byte ABI-like word: an address (12 zero bytes first), a small number, or 32 random bytes.
void append_word(Rng& rng, Bytes& out) {
    std::uint8_t word[32] = {};
    const std::uint64_t kind = rng.below(3);
    const std::size_t skip = kind == 0 ? 12 : kind == 1 ? 32 - rng.between(1, 4) : 0;
    rng.fill(MutableBytesView{word + skip, 32 - skip});
    out.insert(out.end(), word, word + 32);
}

Bytes draw_data(Rng& rng, bool create) {
    Bytes data;
    if (create) {
        data.resize(rng.between(32, 300));
        rng.fill(data);
        return data;
    }
    if (rng.chance(35)) return data;
    data.resize(4);
    rng.fill(data);  // the selector
    const std::uint64_t words = rng.below(10);
    for (std::uint64_t w = 0; w < words; ++w) append_word(rng, data);
    return data;
}

Address draw_recipient(Rng& rng, const AccountSet& accounts) {
    const std::uint64_t roll = rng.below(100);
    if (roll < 60) return accounts.senders[rng.below(accounts.senders.size())].address;
    if (roll < 90) return accounts.contracts[rng.below(accounts.contracts.size())];
    return rng.fixed<20>();
}

std::vector<eth::TransactionFields::AccessListEntry> draw_access_list(Rng& rng,
                                                                      const AccountSet& accounts) {
    std::vector<eth::TransactionFields::AccessListEntry> list(rng.between(1, 3));
    for (auto& entry : list) {
        entry.address = rng.chance(80) ? accounts.contracts[rng.below(accounts.contracts.size())]
                                       : rng.fixed<20>();
        entry.storage_keys.resize(rng.below(5));
        for (Hash32& key : entry.storage_keys) {
            // Low slots (a small number) or hashed ones (mapping entries).
            if (rng.chance(50)) {
                key[31] = static_cast<std::uint8_t>(rng.below(16));
            } else {
                key = rng.fixed<32>();
            }
        }
    }
    return list;
}

}  // namespace

std::uint64_t charged_gas(const eth::Transaction& tx, eth::Fork fork) noexcept {
    const std::uint64_t gas = eth::intrinsic_gas(tx, fork);
    if (!eth::has_eip7623(fork)) return gas;
    return std::max(gas, eth::floor_data_gas(tx));
}

eth::Transaction make_transaction(const TxPlan& plan, const TxSite& site,
                                  const AccountSet& accounts) {
    Rng rng(site.seed, detail::Domain::content, site.block, site.index);
    eth::TransactionFields f;
    f.type = plan.type;
    f.chain_id = site.chain_id;
    f.nonce = plan.nonce;

    // Fee caps at or above the initial base fee: the base fee never exceeds it on this chain.
    f.max_fee_per_gas = kInitialBaseFee + rng.below(100 * kGwei);
    f.max_priority_fee_per_gas = std::min(rng.below(3 * kGwei + 1), f.max_fee_per_gas.as_u64());

    const bool may_create = plan.type <= TxType::dynamic_fee;
    const bool create = may_create && rng.chance(3);
    if (!create) f.to = draw_recipient(rng, accounts);
    f.value = rng.chance(30) ? 0 : rng.below(5 * kEther + 1);
    f.data = draw_data(rng, create);

    if (plan.type == TxType::access_list || (plan.type > TxType::access_list && rng.chance(30))) {
        f.access_list = draw_access_list(rng, accounts);
    }
    if (plan.type == TxType::blob) {
        f.max_fee_per_blob_gas = rng.between(1, kGwei);
        f.blob_versioned_hashes.resize(plan.blobs);
        for (Hash32& h : f.blob_versioned_hashes) {
            h = rng.fixed<32>();
            h[0] = 0x01;  // EIP-4844 VERSIONED_HASH_VERSION_KZG
        }
    }
    if (plan.type == TxType::set_code) {
        for (std::size_t k = 0; k < plan.authorizations; ++k) {
            eth::Authorization a;
            a.chain_id = rng.chance(10) ? 0 : site.chain_id;  // 0: valid on any chain
            a.address = accounts.contracts[rng.below(accounts.contracts.size())];
            a.nonce = plan.authority_nonce[k];
            f.authorization_list.push_back(
                sign_authorization(a, accounts.authorities[plan.authority[k]].secret));
        }
    }

    // The gas limit: what the transaction is charged at least, plus some slack.
    const LegacyV legacy_v = plan.eip155 ? LegacyV::eip155 : LegacyV::pre_eip155;
    const std::uint64_t charged = charged_gas(decode_unsigned(f, legacy_v), site.fork);
    f.gas_limit = charged + (rng.chance(50) ? 0 : rng.below(kMaxSlack + 1));
    KEEL_ASSERT(f.gas_limit <= kTxGasCap);

    return sign_transaction(std::move(f), accounts.senders[plan.sender].secret, legacy_v);
}

}  // namespace keel::devnet
