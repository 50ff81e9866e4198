#include "keel/devnet/beacon_block_gen.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "keel/beacon/deneb.hpp"
#include "keel/beacon/fulu.hpp"
#include "keel/devnet/accounts.hpp"
#include "keel/devnet/beacon_attestations.hpp"
#include "keel/devnet/beacon_payload_txs.hpp"
#include "keel/devnet/beacon_values.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::devnet {
namespace {

using beacon::Mainnet;
using detail::Rng;

constexpr std::size_t kMaxBlobTxs = 3;  // 6 blobs: the deneb target (EIP-4844)
constexpr std::size_t kVoluntaryExits = 3;
constexpr std::size_t kBlsChanges = 4;

struct BlockContext {
    const BeaconBlockSpec& spec;
    std::uint64_t slot;
    std::uint64_t epoch;
};

Rng part_rng(const BlockContext& ctx, detail::BlockPart part) noexcept {
    return Rng(ctx.spec.seed, detail::kBeaconBlockStream, part);
}

Bytes32 graffiti() noexcept {
    Bytes32 g;
    std::memcpy(g.data(), detail::kBeaconGraffiti.data(), detail::kBeaconGraffiti.size());
    return g;
}

beacon::deneb::ProposerSlashing proposer_slashing(Rng& rng, std::uint64_t slot) {
    // Two different headers signed by one proposer for one slot (phase0 process_proposer_
    // slashing's condition).
    beacon::deneb::ProposerSlashing s;
    auto& h1 = s.signed_header_1.message;
    h1.slot = slot - rng.between(1, 1000);
    h1.proposer_index = rng.below(kAssumedActiveValidators);
    h1.parent_root = rng.fixed<32>();
    h1.state_root = rng.fixed<32>();
    h1.body_root = rng.fixed<32>();
    s.signed_header_2.message = h1;
    s.signed_header_2.message.body_root = rng.fixed<32>();
    s.signed_header_1.signature = detail::fake_signature(rng);
    s.signed_header_2.signature = detail::fake_signature(rng);
    return s;
}

// Withdrawals of the capella sweep (capella get_expected_withdrawals): consecutive indices,
// validator indices advancing by 1-3 (the sweep skips those with nothing to withdraw), mostly
// partial withdrawals of the rewards above 32 ETH, now and then a full one.
void append_withdrawals(Rng& rng, std::uint64_t slot, std::vector<beacon::deneb::Withdrawal>& out) {
    const std::uint64_t capella_slot = detail::fork_first_slot(beacon::Fork::capella);
    std::uint64_t index = (slot - capella_slot) * Mainnet::MAX_WITHDRAWALS_PER_PAYLOAD * 99 / 100;
    std::uint64_t validator = rng.below(kAssumedActiveValidators);
    for (std::size_t i = 0; i < Mainnet::MAX_WITHDRAWALS_PER_PAYLOAD; ++i) {
        auto& w = out.emplace_back();
        w.index = index++;
        w.validator_index = validator;
        w.address = rng.fixed<20>();
        w.amount = rng.chance(6) ? 32 * detail::kEthInGwei + rng.below(detail::kEthInGwei / 10)
                                 : rng.between(15'000'000, 20'000'000);
        validator = (validator + rng.between(1, 3)) % kAssumedActiveValidators;
    }
}

template <class Payload>
void fill_payload(const BlockContext& ctx, std::span<const beacon::KZGCommitment> commitments,
                  Payload& p) {
    Rng rng = part_rng(ctx, detail::kPayloadPart);
    const eth::Fork fork = execution_fork(ctx.spec.fork);
    const std::uint64_t base_fee = rng.between(detail::kGweiInWei, 20 * detail::kGweiInWei);

    const AccountSet accounts = AccountSet::derive(ctx.spec.seed);
    PayloadTxs txs = make_payload_transactions(
        PayloadTxParams{ctx.spec.seed, ctx.spec.transactions, fork, base_fee, commitments},
        accounts);

    p.parent_hash = rng.fixed<32>();
    p.fee_recipient = rng.fixed<20>();
    p.state_root = rng.fixed<32>();
    p.receipts_root = rng.fixed<32>();
    rng.fill(p.logs_bloom.mutable_view());  // a busy block's bloom has about half its bits set
    p.prev_randao = rng.fixed<32>();
    p.block_number = detail::execution_block_number(ctx.slot);
    const std::uint64_t limit = detail::payload_gas_limit(ctx.spec.fork);
    p.gas_limit = std::max(limit, txs.charged_gas);
    p.gas_used = std::max(txs.charged_gas, rng.between(limit / 2, limit));
    p.timestamp = detail::slot_time(ctx.slot);
    p.extra_data.assign(detail::kBeaconGraffiti.begin(), detail::kBeaconGraffiti.end());
    p.base_fee_per_gas = base_fee;
    p.block_hash = rng.fixed<32>();
    p.transactions.reserve(txs.envelopes.size());
    for (Bytes& env : txs.envelopes) {
        auto& t = p.transactions.emplace_back();
        static_cast<Bytes&>(t) = std::move(env);
    }
    append_withdrawals(rng, ctx.slot, p.withdrawals);
    p.blob_gas_used = commitments.size() * detail::kBeaconGasPerBlob;
    p.excess_blob_gas = rng.below(64) * detail::kBeaconGasPerBlob;
}

// Everything deneb and electra bodies share but the attestations.
template <class Body>
void fill_common_body(const BlockContext& ctx, Body& body) {
    Rng rng = part_rng(ctx, detail::kBodyPart);
    body.randao_reveal = detail::fake_signature(rng);
    body.eth1_data.deposit_root = rng.fixed<32>();
    body.eth1_data.deposit_count = 1'500'000 + rng.below(500'000);
    body.eth1_data.block_hash = rng.fixed<32>();
    body.graffiti = graffiti();

    Rng ops = part_rng(ctx, detail::kOpsPart);
    if (ctx.spec.proposer_slashing) {
        body.proposer_slashings.push_back(proposer_slashing(ops, ctx.slot));
    }
    for (std::size_t i = 0; i < kVoluntaryExits; ++i) {
        auto& e = body.voluntary_exits.emplace_back();
        e.message.epoch = ctx.epoch - ops.below(4);
        e.message.validator_index = ops.below(kAssumedActiveValidators);
        e.signature = detail::fake_signature(ops);
    }
    for (std::size_t i = 0; i < kBlsChanges; ++i) {
        auto& c = body.bls_to_execution_changes.emplace_back();
        c.message.validator_index = ops.below(kAssumedActiveValidators);
        c.message.from_bls_pubkey = detail::fake_pubkey(ops);
        c.message.to_execution_address = ops.fixed<20>();
        c.signature = detail::fake_signature(ops);
    }
    const std::size_t blobs =
        kBlobsPerPayloadTx * std::min<std::size_t>(kMaxBlobTxs, ctx.spec.transactions);
    for (std::size_t i = 0; i < blobs; ++i) {
        body.blob_kzg_commitments.push_back(detail::fake_commitment(ops));
    }

    Rng sync = part_rng(ctx, detail::kSyncPart);
    for (std::size_t i = 0; i < Mainnet::SYNC_COMMITTEE_SIZE; ++i) {
        body.sync_aggregate.sync_committee_bits.set(i, sync.chance(95));
    }
    body.sync_aggregate.sync_committee_signature = detail::fake_signature(sync);

    fill_payload(ctx, body.blob_kzg_commitments, body.execution_payload);
}

void fill_requests(const BlockContext& ctx, std::uint64_t deposit_count,
                   beacon::electra::mainnet::ExecutionRequests& r) {
    Rng rng = part_rng(ctx, detail::kRequestsPart);
    for (std::uint64_t i = 0; i < 2; ++i) {
        auto& d = r.deposits.emplace_back();
        d.pubkey = detail::fake_pubkey(rng);
        const bool compounding = rng.chance(50);
        d.withdrawal_credentials =
            detail::address_credentials(compounding ? 0x02 : 0x01, rng.fixed<20>());
        d.amount =
            compounding ? rng.between(32, 2048) * detail::kEthInGwei : 32 * detail::kEthInGwei;
        d.signature = detail::fake_signature(rng);
        d.index = deposit_count + i;
    }
    for (std::uint64_t i = 0; i < 2; ++i) {
        auto& w = r.withdrawals.emplace_back();
        w.source_address = rng.fixed<20>();
        w.validator_pubkey = detail::fake_pubkey(rng);
        w.amount = i == 0 ? 0 : rng.between(1, 100) * detail::kEthInGwei;  // 0: a full exit
    }
    auto& c = r.consolidations.emplace_back();
    c.source_address = rng.fixed<20>();
    c.source_pubkey = detail::fake_pubkey(rng);
    c.target_pubkey = detail::fake_pubkey(rng);
}

template <class Signed>
GeneratedBeaconBlock build(const BlockContext& ctx) {
    Signed block;
    auto& m = block.message;
    Rng rng = part_rng(ctx, detail::kHeaderPart);
    m.slot = ctx.slot;
    m.proposer_index = rng.below(kAssumedActiveValidators);
    m.parent_root = detail::history_root(ctx.spec.seed, detail::kBlockRootKind, ctx.slot - 1);
    m.state_root = rng.fixed<32>();
    fill_common_body(ctx, m.body);
    append_attestations(ctx.spec.seed, ctx.slot, attestation_count(ctx.spec), m.body.attestations);
    if constexpr (requires { m.body.execution_requests; }) {
        fill_requests(ctx, m.body.eth1_data.deposit_count, m.body.execution_requests);
    }
    block.signature = detail::fake_signature(rng);

    GeneratedBeaconBlock out;
    out.ssz = ssz::encode(block);
    out.slot = ctx.slot;
    out.block_root = ssz::hash_tree_root(m);
    return out;
}

}  // namespace

Result<GeneratedBeaconBlock, BeaconSpecError> generate_beacon_block(const BeaconBlockSpec& spec) {
    if (auto ok = check(spec); !ok) return unexpected(ok.error());
    const std::uint64_t slot = generated_slot(spec.fork, spec.seed);
    const BlockContext ctx{spec, slot, slot / Mainnet::SLOTS_PER_EPOCH};
    // fulu's block is electra's type (specs/fulu/beacon-chain.md changes no block container);
    // only the slot, and with it the payload's execution fork, differ.
    if (spec.fork == beacon::Fork::electra || spec.fork == beacon::Fork::fulu) {
        return build<beacon::fulu::mainnet::SignedBeaconBlock>(ctx);
    }
    return build<beacon::deneb::mainnet::SignedBeaconBlock>(ctx);
}

}  // namespace keel::devnet
