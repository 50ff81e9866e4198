#include "keel/devnet/beacon_payload_txs.hpp"

#include <algorithm>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/sha256.hpp"
#include "keel/devnet/beacon_values.hpp"
#include "keel/devnet/signer.hpp"
#include "keel/devnet/tx_gen.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::devnet {
namespace {

using detail::Rng;
using eth::TxType;

constexpr std::uint64_t kGwei = detail::kGweiInWei;
constexpr std::uint64_t kEther = kGwei * detail::kEthInGwei;
constexpr std::uint64_t kChainId = 1;  // mainnet: the block is a mainnet-preset block

// A position's role: it decides the transaction's size range and whether it carries blobs.
enum class Kind : std::uint8_t { blob, large, medium, small };

struct SizeRange {
    std::size_t lo;
    std::size_t hi;
};

SizeRange size_range(Kind k) noexcept {
    switch (k) {
        case Kind::large:
            return {1000, 10000};
        case Kind::medium:
            return {300, 1000};
        case Kind::blob:
        case Kind::small:
            break;
    }
    return {120, 300};
}

// The kinds of the `count` positions: exact class counts (see the header), shuffled.
std::vector<Kind> draw_kinds(std::uint64_t seed, std::size_t count, std::size_t blob_txs) {
    KEEL_ASSERT(blob_txs <= count);
    const std::size_t rest = count - blob_txs;
    const std::size_t large = rest * 4 / 100;
    const std::size_t medium = rest * 18 / 100;
    std::vector<Kind> kinds;
    kinds.reserve(count);
    kinds.insert(kinds.end(), blob_txs, Kind::blob);
    kinds.insert(kinds.end(), large, Kind::large);
    kinds.insert(kinds.end(), medium, Kind::medium);
    kinds.resize(count, Kind::small);
    // Fisher-Yates with the block's own stream: independent of the thread count.
    Rng rng(seed, detail::kBeaconBlockStream, detail::kTxKindsPart);
    for (std::size_t i = count; i > 1; --i) std::swap(kinds[i - 1], kinds[rng.below(i)]);
    return kinds;
}

TxType draw_type(Rng& rng, Kind kind, eth::Fork fork) noexcept {
    if (kind == Kind::blob) return TxType::blob;
    const std::uint64_t roll = rng.below(100);
    if (roll < 12) return TxType::legacy;
    if (roll < 14) return TxType::access_list;
    if (roll < 17 && fork >= eth::Fork::prague) return TxType::set_code;
    return TxType::dynamic_fee;
}

// Call data of exactly `len` bytes: a 4-byte selector, then ABI-like 32-byte words (an address
// with its 12 zero bytes, a small number, or 32 random bytes), the last one cut short.
Bytes draw_calldata(Rng& rng, std::size_t len) {
    Bytes data(len);
    std::size_t i = std::min<std::size_t>(4, len);
    rng.fill(MutableBytesView{data.data(), i});
    while (i < len) {
        std::uint8_t word[32] = {};
        const std::uint64_t kind = rng.below(3);
        const std::size_t skip = kind == 0 ? 12 : kind == 1 ? 32 - rng.between(1, 4) : 0;
        rng.fill(MutableBytesView{word + skip, 32 - skip});
        const std::size_t n = std::min<std::size_t>(32, len - i);
        std::copy(word, word + n, data.begin() + static_cast<std::ptrdiff_t>(i));
        i += n;
    }
    return data;
}

std::vector<eth::TransactionFields::AccessListEntry> draw_access_list(Rng& rng,
                                                                      const AccountSet& accounts) {
    std::vector<eth::TransactionFields::AccessListEntry> list(rng.between(1, 3));
    for (auto& entry : list) {
        entry.address = accounts.contracts[rng.below(accounts.contracts.size())];
        entry.storage_keys.resize(rng.below(5));
        for (Hash32& key : entry.storage_keys) key = rng.fixed<32>();
    }
    return list;
}

// EIP-4844 kzg_to_versioned_hash: 0x01 || sha256(commitment)[1:].
Hash32 versioned_hash(const beacon::KZGCommitment& c) noexcept {
    Hash32 h = crypto::sha256(c.view());
    h[0] = 0x01;
    return h;
}

// The nonce sender `s` starts the block at (its earlier history), a value per (seed, sender).
std::uint64_t first_nonce(std::uint64_t seed, std::size_t s) noexcept {
    Rng rng(seed, detail::kBeaconTxStream, s, 1);
    return rng.below(100'000);
}

struct TxContext {
    const PayloadTxParams& params;
    const AccountSet& accounts;
};

// Transaction `index` of kind `kind`; `blob_hashes` are its versioned hashes (blob kind only).
eth::Transaction make_tx(const TxContext& ctx, std::size_t index, Kind kind,
                         std::vector<Hash32> blob_hashes) {
    const PayloadTxParams& p = ctx.params;
    Rng rng(p.seed, detail::kBeaconTxStream, index);
    const std::size_t sender = index % kSenderCount;

    eth::TransactionFields f;
    f.type = draw_type(rng, kind, p.fork);
    f.chain_id = kChainId;
    f.nonce = first_nonce(p.seed, sender) + index / kSenderCount;
    // At or above the base fee, as a payload's transactions must be (EIP-1559).
    f.max_fee_per_gas = p.base_fee + rng.below(30 * kGwei);
    f.max_priority_fee_per_gas = std::min(rng.below(2 * kGwei), f.max_fee_per_gas.as_u64());
    f.to = rng.chance(70) ? ctx.accounts.contracts[rng.below(kContractCount)]
                          : Address(rng.fixed<20>());
    f.value = rng.chance(40) ? 0 : rng.below(2 * kEther);
    if (f.type == TxType::access_list || (f.type != TxType::legacy && rng.chance(10))) {
        f.access_list = draw_access_list(rng, ctx.accounts);
    }
    if (f.type == TxType::blob) {
        f.max_fee_per_blob_gas = rng.between(1, 10 * kGwei);
        f.blob_versioned_hashes = std::move(blob_hashes);
    }
    if (f.type == TxType::set_code) {
        const std::size_t n = rng.between(1, 2);
        for (std::size_t k = 0; k < n; ++k) {
            eth::Authorization a;
            a.chain_id = kChainId;
            a.address = ctx.accounts.contracts[rng.below(kContractCount)];
            a.nonce = rng.below(1000);
            const std::size_t who = rng.below(kAuthorityCount);
            f.authorization_list.push_back(
                sign_authorization(a, ctx.accounts.authorities[who].secret));
        }
    }

    // Size the call data so that the signed envelope lands on the drawn size: the placeholder
    // signature of decode_unsigned() has one-byte r and s, the real one 32-byte ones (33 with
    // their RLP headers); the gas limit, still zero here, takes 3-4 bytes instead of one; and
    // a longer data or list needs up to two more header bytes each.
    const SizeRange range = size_range(kind);
    const std::size_t target = rng.between(range.lo, range.hi);
    const std::size_t bare = decode_unsigned(f).encoded().size() + 2 * 32 + 3;
    if (target > bare + 4) f.data = draw_calldata(rng, target - bare - 4);

    const std::uint64_t charged = charged_gas(decode_unsigned(f), p.fork);
    f.gas_limit = charged + (rng.chance(50) ? 0 : rng.below(50'000));
    return sign_transaction(std::move(f), ctx.accounts.senders[sender].secret);
}

}  // namespace

PayloadTxs make_payload_transactions(const PayloadTxParams& params, const AccountSet& accounts) {
    const std::size_t count = params.count;
    const std::size_t blob_txs =
        (params.commitments.size() + kBlobsPerPayloadTx - 1) / kBlobsPerPayloadTx;
    const std::vector<Kind> kinds = draw_kinds(params.seed, count, blob_txs);

    // The k-th blob transaction in block order carries the versioned hashes of commitments
    // [2k, 2k + 2): decided here, sequentially, so that the parallel part is pure.
    std::vector<std::vector<Hash32>> blob_hashes(count);
    std::size_t next = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (kinds[i] != Kind::blob) continue;
        for (std::size_t k = 0; k < kBlobsPerPayloadTx && next < params.commitments.size(); ++k) {
            blob_hashes[i].push_back(versioned_hash(params.commitments[next++]));
        }
    }

    PayloadTxs out;
    out.envelopes.resize(count);
    std::vector<std::uint64_t> gas(count);
    const TxContext ctx{params, accounts};
    parallel::for_each_index(count, 8, [&](std::size_t i) {
        const eth::Transaction tx = make_tx(ctx, i, kinds[i], std::move(blob_hashes[i]));
        const BytesView env = tx.encoded();
        out.envelopes[i].assign(env.begin(), env.end());
        gas[i] = charged_gas(tx, params.fork);
    });
    for (std::uint64_t g : gas) out.charged_gas += g;
    return out;
}

}  // namespace keel::devnet
