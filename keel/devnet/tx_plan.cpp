#include "keel/devnet/tx_plan.hpp"

#include "keel/devnet/accounts.hpp"
#include "keel/devnet/detail/rng.hpp"
#include "keel/devnet/fee_rules.hpp"

namespace keel::devnet {
namespace {

using eth::TxType;

// Cumulative percentages of the type mix (see the header).
TxType draw_type(detail::Rng& rng, eth::Fork fork) noexcept {
    const std::uint64_t roll = rng.below(100);
    if (fork < eth::Fork::cancun) {
        if (roll < 25) return TxType::legacy;
        if (roll < 40) return TxType::access_list;
        return TxType::dynamic_fee;
    }
    if (roll < 12) return TxType::legacy;
    if (roll < 20) return TxType::access_list;
    if (roll < 68) return TxType::dynamic_fee;
    if (roll < 82) return TxType::blob;
    return fork >= eth::Fork::prague ? TxType::set_code : TxType::dynamic_fee;
}

}  // namespace

TxPlanner::TxPlanner(std::uint64_t seed)
    : seed_(seed), sender_nonce_(kSenderCount, 0), authority_nonce_(kAuthorityCount, 0) {}

void TxPlanner::plan_block(std::uint64_t number, eth::Fork fork, std::uint64_t count,
                           std::vector<TxPlan>& out) {
    std::uint64_t block_blobs = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        detail::Rng rng(seed_, detail::Domain::plan, number, i);
        TxPlan p;
        p.type = draw_type(rng, fork);
        p.sender = static_cast<std::uint16_t>(rng.below(kSenderCount));
        p.nonce = sender_nonce_[p.sender]++;
        if (p.type == TxType::legacy) p.eip155 = !rng.chance(10);
        if (p.type == TxType::blob) {
            p.blobs = static_cast<std::uint8_t>(rng.between(1, 2));
            if (block_blobs + p.blobs > kTargetBlobsPerBlock) {
                p.type = TxType::dynamic_fee;
                p.blobs = 0;
            }
            block_blobs += p.blobs;
        }
        if (p.type == TxType::set_code) {
            p.authorizations = static_cast<std::uint8_t>(rng.between(1, 2));
            const std::uint64_t first = rng.below(kAuthorityCount);
            // A second authority, distinct from the first.
            const std::uint64_t second =
                (first + rng.between(1, kAuthorityCount - 1)) % kAuthorityCount;
            p.authority = {static_cast<std::uint16_t>(first), static_cast<std::uint16_t>(second)};
            for (std::size_t k = 0; k < p.authorizations; ++k) {
                p.authority_nonce[k] = authority_nonce_[p.authority[k]]++;
            }
        }
        out.push_back(p);
    }
}

}  // namespace keel::devnet
