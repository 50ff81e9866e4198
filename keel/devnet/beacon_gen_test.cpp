// Generated beacon blocks and states (beacon_block_gen.hpp, beacon_state_gen.hpp): they decode
// strictly as the right mainnet type and re-encode to the same bytes, are deterministic (also
// across thread counts), and have the shape the headers promise.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <set>
#include <unordered_set>
#include <vector>

#include "keel/beacon/deneb.hpp"
#include "keel/beacon/electra.hpp"
#include "keel/beacon/fork.hpp"
#include "keel/beacon/fulu.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/sha256.hpp"
#include "keel/devnet/accounts.hpp"
#include "keel/devnet/beacon_attestations.hpp"
#include "keel/devnet/beacon_block_gen.hpp"
#include "keel/devnet/beacon_state_gen.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/tx_validation.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::devnet {
namespace {

using DenebBlock = beacon::deneb::mainnet::SignedBeaconBlock;
using ElectraBlock = beacon::electra::mainnet::SignedBeaconBlock;
using DenebState = beacon::deneb::mainnet::BeaconState;
using ElectraState = beacon::electra::mainnet::BeaconState;
using FuluBlock = beacon::fulu::mainnet::SignedBeaconBlock;
using FuluState = beacon::fulu::mainnet::BeaconState;

constexpr std::uint64_t kFarFuture = ~std::uint64_t{0};
constexpr std::uint64_t kEth = 1'000'000'000;

GeneratedBeaconBlock block_of(const BeaconBlockSpec& spec) {
    auto b = generate_beacon_block(spec);
    EXPECT_TRUE(b.has_value()) << describe(b.error());
    return b ? std::move(*b) : GeneratedBeaconBlock{};
}

// Decodes `bytes` strictly as T (on the heap), checks that it re-encodes to the same bytes.
template <class T>
std::unique_ptr<T> decode_exact(const Bytes& bytes) {
    auto v = ssz::decode_boxed<T>(bytes);
    EXPECT_TRUE(v.has_value()) << (v ? "" : ssz::to_string(v.error()));
    if (!v) return nullptr;
    EXPECT_TRUE(ssz::encode(**v) == bytes) << "re-encoding differs";
    return std::move(*v);
}

std::size_t count_bits(BytesView bytes) {
    std::size_t n = 0;
    for (std::uint8_t b : bytes) n += static_cast<std::size_t>(std::popcount(b));
    return n;
}

// Each payload transaction decodes, is valid at `fork` for chain 1, recovers one of the
// seed's senders, and has a size in [100, 10240]; returns the versioned hashes they carry.
template <class Payload>
std::vector<Hash32> check_transactions(const Payload& p, eth::Fork fork, std::uint64_t seed) {
    const AccountSet accounts = AccountSet::derive(seed);
    std::set<Address> senders;
    for (const Account& a : accounts.senders) senders.insert(a.address);
    std::vector<Hash32> hashes;
    std::set<int> types;
    std::size_t large = 0;
    for (std::size_t i = 0; i < p.transactions.size(); ++i) {
        const Bytes& env = p.transactions[i];
        EXPECT_GE(env.size(), 100u) << i;
        EXPECT_LE(env.size(), 10240u) << i;
        large += env.size() > 1000;
        auto tx = eth::decode_transaction(env);
        EXPECT_TRUE(tx.has_value()) << i;
        if (!tx) continue;
        auto ok = eth::validate(*tx, fork, 1);
        EXPECT_TRUE(ok.has_value()) << i << ": " << eth::to_string(ok.error());
        auto from = eth::sender(*tx);
        EXPECT_TRUE(from.has_value() && senders.contains(*from)) << i;
        EXPECT_GE(tx->max_fee_per_gas(), p.base_fee_per_gas) << i;
        types.insert(static_cast<int>(tx->type()));
        for (const Hash32& h : tx->blob_versioned_hashes()) hashes.push_back(h);
    }
    if (p.transactions.size() >= 100) {
        EXPECT_GE(types.size(), 4u);
        // A few large ones (4% of the non-blob transactions).
        EXPECT_GE(large, p.transactions.size() / 50);
    }
    return hashes;
}

// The blob transactions' versioned hashes are those of the body's commitments, in order.
template <class Body>
void check_blobs(const Body& body, const std::vector<Hash32>& hashes) {
    ASSERT_EQ(hashes.size(), body.blob_kzg_commitments.size());
    for (std::size_t i = 0; i < hashes.size(); ++i) {
        Hash32 want = crypto::sha256(body.blob_kzg_commitments[i].view());
        want[0] = 0x01;
        EXPECT_EQ(hashes[i], want) << i;
    }
    EXPECT_EQ(body.execution_payload.blob_gas_used, 131072u * hashes.size());
}

// What deneb and electra bodies share.
template <class Body>
void check_common_body(const Body& body, std::uint64_t slot) {
    const auto& p = body.execution_payload;
    EXPECT_EQ(p.withdrawals.size(), 16u);
    for (std::size_t i = 1; i < p.withdrawals.size(); ++i) {
        EXPECT_EQ(p.withdrawals[i].index, p.withdrawals[i - 1].index + 1);
    }
    EXPECT_EQ(body.blob_kzg_commitments.size(), 6u);
    for (const auto& c : body.blob_kzg_commitments) EXPECT_EQ(c[0] & 0xc0, 0x80);  // flags
    const std::size_t sync = count_bits(body.sync_aggregate.sync_committee_bits.bytes);
    EXPECT_GE(sync, 460u);
    EXPECT_LE(sync, 505u);
    EXPECT_EQ(body.proposer_slashings.size(), 1u);
    EXPECT_GE(body.voluntary_exits.size(), 1u);
    EXPECT_GE(body.bls_to_execution_changes.size(), 1u);
    EXPECT_LE(p.gas_used, p.gas_limit);
    EXPECT_EQ(p.timestamp, 1'606'824'023 + 12 * slot);
    EXPECT_GT(p.block_number, 19'000'000u);
}

TEST(BeaconBlockGen, DenebBlockHasTheShapeOfABusyMainnetBlock) {
    const GeneratedBeaconBlock b = block_of(BeaconBlockSpec{});
    EXPECT_EQ(beacon::mainnet_fork_at_slot(b.slot), beacon::Fork::deneb);
    // About 140 KB.
    EXPECT_GE(b.ssz.size(), 125'000u);
    EXPECT_LE(b.ssz.size(), 160'000u);
    auto block = decode_exact<DenebBlock>(b.ssz);
    ASSERT_TRUE(block);
    const auto& m = block->message;
    EXPECT_EQ(m.slot, b.slot);
    EXPECT_EQ(ssz::hash_tree_root(m), b.block_root);
    check_common_body(m.body, m.slot);

    ASSERT_EQ(m.body.attestations.size(), 128u);
    std::set<std::uint64_t> slots, indexes;
    std::set<Hash32> heads;
    for (const auto& a : m.body.attestations) {
        const std::size_t size = a.aggregation_bits.size;
        EXPECT_EQ(size, committee_size(a.data.slot, a.data.index));
        EXPECT_GE(size, 400u);
        EXPECT_LE(size, 500u);
        EXPECT_GE(count_bits(a.aggregation_bits.bytes), size / 2);  // mostly set
        EXPECT_LT(a.data.slot, m.slot);
        EXPECT_GE(a.data.slot + 5, m.slot);
        EXPECT_EQ(a.data.target.epoch, a.data.slot / 32);
        EXPECT_EQ(a.data.source.epoch + 1, a.data.target.epoch);
        slots.insert(a.data.slot);
        indexes.insert(a.data.index);
        heads.insert(a.data.beacon_block_root);
    }
    EXPECT_GE(slots.size(), 3u);
    EXPECT_EQ(indexes.size(), 64u);
    EXPECT_GE(heads.size(), slots.size());

    const auto& p = m.body.execution_payload;
    ASSERT_EQ(p.transactions.size(), 200u);
    check_blobs(m.body, check_transactions(p, eth::Fork::cancun, 1));
}

TEST(BeaconBlockGen, ElectraBlockSpansCommitteesAndCarriesRequests) {
    BeaconBlockSpec spec;
    spec.fork = beacon::Fork::electra;
    const GeneratedBeaconBlock b = block_of(spec);
    EXPECT_EQ(beacon::mainnet_fork_at_slot(b.slot), beacon::Fork::electra);
    auto block = decode_exact<ElectraBlock>(b.ssz);
    ASSERT_TRUE(block);
    const auto& m = block->message;
    EXPECT_EQ(ssz::hash_tree_root(m), b.block_root);
    check_common_body(m.body, m.slot);

    ASSERT_EQ(m.body.attestations.size(), 8u);
    for (std::size_t k = 0; k < m.body.attestations.size(); ++k) {
        const auto& a = m.body.attestations[k];
        std::size_t want_bits = 0;
        std::size_t committees = 0;
        for (std::size_t c = 0; c < 64; ++c) {
            if (!a.committee_bits.get(c)) continue;
            want_bits += committee_size(a.data.slot, c);
            ++committees;
        }
        EXPECT_GE(committees, 1u);
        if (k == 0) {
            EXPECT_EQ(committees, 64u);
        }
        EXPECT_EQ(a.aggregation_bits.size, want_bits) << k;
        EXPECT_EQ(a.data.index, 0u);
    }
    const auto& r = m.body.execution_requests;
    EXPECT_EQ(r.deposits.size(), 2u);
    EXPECT_EQ(r.withdrawals.size(), 2u);
    EXPECT_EQ(r.consolidations.size(), 1u);

    const auto& p = m.body.execution_payload;
    ASSERT_EQ(p.transactions.size(), 200u);
    check_blobs(m.body, check_transactions(p, eth::Fork::prague, 1));
}

TEST(BeaconBlockGen, FuluBlockAtAFuluSlotWithOsakaPayload) {
    BeaconBlockSpec spec;
    spec.fork = beacon::Fork::fulu;
    const GeneratedBeaconBlock b = block_of(spec);
    EXPECT_EQ(beacon::mainnet_fork_at_slot(b.slot), beacon::Fork::fulu);
    EXPECT_GE(b.slot, 411392u * 32u + 100'000u);
    auto block = decode_exact<FuluBlock>(b.ssz);
    ASSERT_TRUE(block);
    const auto& m = block->message;
    EXPECT_EQ(ssz::hash_tree_root(m), b.block_root);
    check_common_body(m.body, m.slot);
    EXPECT_EQ(m.body.attestations.size(), 8u);
    EXPECT_EQ(m.body.execution_requests.deposits.size(), 2u);
    const auto& p = m.body.execution_payload;
    EXPECT_EQ(p.gas_limit, 60'000'000u);
    ASSERT_EQ(p.transactions.size(), 200u);
    check_blobs(m.body, check_transactions(p, eth::Fork::osaka, 1));

    // Not the electra block moved: another slot, another block.
    spec.fork = beacon::Fork::electra;
    EXPECT_NE(block_of(spec).block_root, b.block_root);
}

TEST(BeaconBlockGen, OptionsSetTheCounts) {
    BeaconBlockSpec spec;
    spec.seed = 9;
    spec.attestations = 10;
    spec.transactions = 2;
    spec.proposer_slashing = false;
    const GeneratedBeaconBlock b = block_of(spec);
    auto block = decode_exact<DenebBlock>(b.ssz);
    ASSERT_TRUE(block);
    const auto& body = block->message.body;
    EXPECT_EQ(body.attestations.size(), 10u);
    EXPECT_EQ(body.execution_payload.transactions.size(), 2u);
    EXPECT_TRUE(body.proposer_slashings.empty());
    // Both transactions carry blobs: 2 each.
    EXPECT_EQ(body.blob_kzg_commitments.size(), 4u);
    check_blobs(body, check_transactions(body.execution_payload, eth::Fork::cancun, 9));

    spec.transactions = 0;
    spec.attestations = 0;
    auto empty = decode_exact<DenebBlock>(block_of(spec).ssz);
    ASSERT_TRUE(empty);
    EXPECT_TRUE(empty->message.body.attestations.empty());
    EXPECT_TRUE(empty->message.body.blob_kzg_commitments.empty());
}

TEST(BeaconBlockGen, DeterministicAcrossRunsAndThreadCounts) {
    for (const beacon::Fork fork :
         {beacon::Fork::deneb, beacon::Fork::electra, beacon::Fork::fulu}) {
        BeaconBlockSpec spec;
        spec.fork = fork;
        const GeneratedBeaconBlock a = block_of(spec);
        const GeneratedBeaconBlock b = block_of(spec);
        EXPECT_TRUE(a.ssz == b.ssz);
        {
            parallel::ThreadLimit one(1);
            EXPECT_TRUE(block_of(spec).ssz == a.ssz);
        }
        spec.seed = 2;
        const GeneratedBeaconBlock c = block_of(spec);
        EXPECT_FALSE(c.ssz == a.ssz);
        EXPECT_NE(c.block_root, a.block_root);
    }
}

TEST(BeaconBlockGen, RefusesBadSpecs) {
    BeaconBlockSpec spec;
    spec.attestations = 129;
    EXPECT_EQ(generate_beacon_block(spec).error(), BeaconSpecError::too_many_attestations);
    spec.fork = beacon::Fork::electra;
    spec.attestations = 9;
    EXPECT_EQ(generate_beacon_block(spec).error(), BeaconSpecError::too_many_attestations);
    spec.attestations = 8;
    EXPECT_TRUE(check(spec).has_value());
    spec.fork = beacon::Fork::fulu;
    EXPECT_TRUE(check(spec).has_value());
    spec.attestations = 9;
    EXPECT_EQ(generate_beacon_block(spec).error(), BeaconSpecError::too_many_attestations);
    spec.attestations = 8;
    spec.fork = beacon::Fork::capella;
    EXPECT_EQ(generate_beacon_block(spec).error(), BeaconSpecError::unsupported_fork);
    spec.fork = beacon::Fork::deneb;
    spec.transactions = kMaxBeaconBlockTxs + 1;
    EXPECT_EQ(generate_beacon_block(spec).error(), BeaconSpecError::too_many_txs);
    EXPECT_FALSE(describe(BeaconSpecError::too_many_txs).empty());
}

GeneratedBeaconState state_of(const BeaconStateSpec& spec) {
    auto s = generate_beacon_state(spec);
    EXPECT_TRUE(s.has_value()) << describe(s.error());
    return std::move(*s);
}

// Checks shared by both forks on a decoded state of `n` validators.
template <class State>
void check_state(const State& s, std::size_t n, beacon::Fork fork) {
    EXPECT_EQ(beacon::mainnet_fork_at_slot(s.slot), fork);
    EXPECT_EQ(s.fork.current_version[0], static_cast<std::uint8_t>(fork));
    EXPECT_EQ(s.fork.epoch, beacon::mainnet_fork_epoch(fork));
    ASSERT_EQ(s.validators.size(), n);
    EXPECT_EQ(s.balances.size(), n);
    EXPECT_EQ(s.previous_epoch_participation.size(), n);
    EXPECT_EQ(s.current_epoch_participation.size(), n);
    EXPECT_EQ(s.inactivity_scores.size(), n);

    std::unordered_set<beacon::BLSPubkey> pubkeys;
    std::set<std::uint8_t> prefixes;
    std::size_t at_32 = 0, far_exit = 0, zero_scores = 0;
    const std::uint64_t epoch = s.slot / 32;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& v = s.validators[i];
        pubkeys.insert(v.pubkey);
        prefixes.insert(v.withdrawal_credentials[0]);
        at_32 += v.effective_balance == 32 * kEth;
        far_exit += v.exit_epoch == kFarFuture;
        zero_scores += s.inactivity_scores[i] == 0;
        EXPECT_LE(s.previous_epoch_participation[i], 7);
        if (v.exit_epoch != kFarFuture) {
            EXPECT_GT(v.withdrawable_epoch, v.exit_epoch);
        }
        if (v.activation_epoch != kFarFuture) {
            EXPECT_LE(v.activation_epoch, epoch);
        }
        if (i > 0 && v.activation_epoch != kFarFuture) {
            EXPECT_GE(v.activation_epoch, s.validators[i - 1].activation_epoch);
        }
        if (v.effective_balance > 0) {
            EXPECT_GT(s.balances[i], v.effective_balance - kEth / 4) << i;
        }
    }
    EXPECT_EQ(pubkeys.size(), n);
    EXPECT_TRUE(prefixes.contains(0x00));
    EXPECT_TRUE(prefixes.contains(0x01));
    EXPECT_GT(at_32, n * 7 / 10);
    EXPECT_GT(far_exit, n * 8 / 10);
    EXPECT_LT(far_exit, n);
    EXPECT_GT(zero_scores, n * 9 / 10);

    for (const auto* committee : {&s.current_sync_committee, &s.next_sync_committee}) {
        for (const auto& pk : committee->pubkeys) EXPECT_TRUE(pubkeys.contains(pk));
        EXPECT_FALSE(pubkeys.contains(committee->aggregate_pubkey));
    }
    // Roots: filled, and the checkpoints agree with block_roots.
    EXPECT_EQ(std::count(s.block_roots.begin(), s.block_roots.end(), beacon::Root{}), 0);
    EXPECT_EQ(std::count(s.randao_mixes.begin(), s.randao_mixes.end(), Bytes32{}), 0);
    const auto& cj = s.current_justified_checkpoint;
    EXPECT_EQ(cj.epoch + 1, epoch);
    EXPECT_EQ(cj.root, s.block_roots[(cj.epoch * 32) % 8192]);
    EXPECT_EQ(s.justification_bits.bytes[0], 0x0f);
    EXPECT_GE(s.historical_summaries.size(), 100u);
    EXPECT_LE(s.historical_summaries.size(), 2000u);
    EXPECT_EQ(s.latest_execution_payload_header.timestamp, 1'606'824'023 + 12 * s.slot);
    EXPECT_LT(s.next_withdrawal_validator_index, n);
}

TEST(BeaconStateGen, DenebStateOf1000Validators) {
    BeaconStateSpec spec;
    spec.validators = 1000;
    const GeneratedBeaconState g = state_of(spec);
    EXPECT_EQ(g.fork(), beacon::Fork::deneb);
    EXPECT_EQ(g.validator_count(), 1000u);
    ASSERT_NE(g.deneb(), nullptr);
    EXPECT_EQ(g.electra(), nullptr);
    const Bytes bytes = g.encode();
    EXPECT_EQ(bytes.size(), g.encoded_size());
    auto s = decode_exact<DenebState>(bytes);
    ASSERT_TRUE(s);
    EXPECT_EQ(ssz::hash_tree_root(*s), g.hash_tree_root());
    EXPECT_EQ(s->slot, g.slot());
    check_state(*s, 1000, beacon::Fork::deneb);
}

TEST(BeaconStateGen, ElectraStateOf100000ValidatorsIsTheSameOnOneThread) {
    BeaconStateSpec spec;
    spec.fork = beacon::Fork::electra;
    spec.validators = 100'000;
    spec.seed = 5;
    const GeneratedBeaconState g = state_of(spec);
    const Bytes bytes = g.encode();
    {
        parallel::ThreadLimit one(1);
        EXPECT_TRUE(state_of(spec).encode() == bytes);
    }
    auto s = decode_exact<ElectraState>(bytes);
    ASSERT_TRUE(s);
    check_state(*s, 100'000, beacon::Fork::electra);
    // Compounding validators with balances above 32 ETH; the queues filled.
    std::size_t compounding = 0, above_32 = 0, queued = 0;
    for (const auto& v : s->validators) {
        compounding += v.withdrawal_credentials[0] == 0x02;
        above_32 += v.effective_balance > 32 * kEth;
        queued += v.activation_epoch == kFarFuture;
        EXPECT_LE(v.effective_balance, 2048 * kEth);
    }
    EXPECT_GT(compounding, 3000u);
    EXPECT_GT(above_32, 1000u);
    EXPECT_EQ(queued, 500u);
    EXPECT_EQ(s->pending_deposits.size(), 1000u);
    EXPECT_EQ(s->pending_partial_withdrawals.size(), 100u);
    EXPECT_EQ(s->pending_consolidations.size(), 20u);
}

TEST(BeaconStateGen, FuluStateHasTheProposerLookahead) {
    BeaconStateSpec spec;
    spec.fork = beacon::Fork::fulu;
    spec.validators = 5000;
    const GeneratedBeaconState g = state_of(spec);
    EXPECT_EQ(g.fork(), beacon::Fork::fulu);
    ASSERT_NE(g.fulu(), nullptr);
    EXPECT_EQ(g.electra(), nullptr);
    EXPECT_EQ(g.deneb(), nullptr);
    EXPECT_EQ(beacon::mainnet_fork_at_slot(g.slot()), beacon::Fork::fulu);
    const Bytes bytes = g.encode();
    EXPECT_EQ(bytes.size(), g.encoded_size());
    auto s = decode_exact<FuluState>(bytes);
    ASSERT_TRUE(s);
    EXPECT_EQ(ssz::hash_tree_root(*s), g.hash_tree_root());
    check_state(*s, 5000, beacon::Fork::fulu);
    EXPECT_EQ(s->pending_deposits.size(), 1000u);
    ASSERT_EQ(s->proposer_lookahead.size(), 64u);
    std::set<std::uint64_t> proposers;
    for (std::uint64_t v : s->proposer_lookahead) {
        EXPECT_LT(v, 5000u);
        proposers.insert(v);
    }
    EXPECT_GT(proposers.size(), 50u);  // drawn, not all the same
    EXPECT_EQ(s->latest_execution_payload_header.gas_limit, 60'000'000u);
}

TEST(BeaconStateGen, SeedMattersAndBadSpecsAreRefused) {
    BeaconStateSpec spec;
    spec.validators = 600;
    const Bytes a = state_of(spec).encode();
    spec.seed = 2;
    EXPECT_FALSE(state_of(spec).encode() == a);

    spec.validators = 0;
    EXPECT_EQ(generate_beacon_state(spec).error(), BeaconSpecError::no_validators);
    spec.validators = kMaxBeaconValidators + 1;
    EXPECT_EQ(generate_beacon_state(spec).error(), BeaconSpecError::too_many_validators);
    spec.validators = 10;
    spec.fork = beacon::Fork::altair;
    EXPECT_EQ(generate_beacon_state(spec).error(), BeaconSpecError::unsupported_fork);
}

TEST(BeaconStateGen, TinyRegistryStillFillsTheSyncCommittees) {
    BeaconStateSpec spec;
    spec.validators = 1;
    auto s = decode_exact<DenebState>(state_of(spec).encode());
    ASSERT_TRUE(s);
    for (const auto& pk : s->current_sync_committee.pubkeys) {
        EXPECT_EQ(pk, s->validators[0].pubkey);
    }
}

}  // namespace
}  // namespace keel::devnet
