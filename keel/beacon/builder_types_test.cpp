// The builder API's containers (ethereum/builder-specs specs/<fork>/builder.md; the blinded
// blocks are also beacon-APIs types/<fork>/block.yaml). No official vectors exist for them, so:
//   - a blinded block carries its payload's header in the payload's place, and a header's root
//     equals its payload's, so the blinded form of each real mainnet block (vectors/ssz/
//     mainnet_blocks) must root, through the registry, to that block's canonical root from
//     meta.yaml; electra (no real block in the vectors) to its full block's root;
//   - bids and registrations: encodings written byte by byte, roots composed by hand over
//     crypto::sha256 from their fields' roots.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "keel/beacon/fulu.hpp"
#include "keel/beacon/registry.hpp"
#include "keel/beacon/test_util.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/sha256.hpp"

namespace keel::beacon {
namespace {

using testing::filled;
using testing::hash2;
using testing::pad;
using testing::u64_chunk;

namespace fs = std::filesystem;

/// Root of four chunks (a tree of depth 2).
Hash32 root4(const Hash32& a, const Hash32& b, const Hash32& c, const Hash32& d) {
    return hash2(hash2(a, b), hash2(c, d));
}

/// Root of a 48-byte value (two chunks) and of a 96-byte one (three chunks in a tree of four).
Hash32 root48(const Bytes48& b) {
    return hash2(pad(BytesView(b.data(), 32)), pad(BytesView(b.data() + 32, 16)));
}
Hash32 root96(const Bytes96& b) {
    return root4(pad(BytesView(b.data(), 32)), pad(BytesView(b.data() + 32, 32)),
                 pad(BytesView(b.data() + 64, 32)), Hash32{});
}

/// The header of a payload: every field copied, the lists replaced by their roots.
template <class Header, class Payload>
Header header_of(const Payload& p) {
    Header h;
    h.parent_hash = p.parent_hash;
    h.fee_recipient = p.fee_recipient;
    h.state_root = p.state_root;
    h.receipts_root = p.receipts_root;
    h.logs_bloom = p.logs_bloom;
    h.prev_randao = p.prev_randao;
    h.block_number = p.block_number;
    h.gas_limit = p.gas_limit;
    h.gas_used = p.gas_used;
    h.timestamp = p.timestamp;
    h.extra_data = p.extra_data;
    h.base_fee_per_gas = p.base_fee_per_gas;
    h.block_hash = p.block_hash;
    h.transactions_root = ssz::hash_tree_root(p.transactions);
    if constexpr (requires { h.withdrawals_root; }) {
        h.withdrawals_root = ssz::hash_tree_root(p.withdrawals);
    }
    if constexpr (requires { h.blob_gas_used; }) {
        h.blob_gas_used = p.blob_gas_used;
        h.excess_blob_gas = p.excess_blob_gas;
    }
    return h;
}

/// The blinded form of a block: every body field copied, the payload replaced by its header.
template <class Blinded, class Block>
std::unique_ptr<Blinded> blind(const Block& b) {
    auto out = std::make_unique<Blinded>();
    out->slot = b.slot;
    out->proposer_index = b.proposer_index;
    out->parent_root = b.parent_root;
    out->state_root = b.state_root;
    auto& ob = out->body;
    const auto& ib = b.body;
    ob.randao_reveal = ib.randao_reveal;
    ob.eth1_data = ib.eth1_data;
    ob.graffiti = ib.graffiti;
    ob.proposer_slashings = ib.proposer_slashings;
    ob.attester_slashings = ib.attester_slashings;
    ob.attestations = ib.attestations;
    ob.deposits = ib.deposits;
    ob.voluntary_exits = ib.voluntary_exits;
    ob.sync_aggregate = ib.sync_aggregate;
    ob.execution_payload_header =
        header_of<std::remove_cvref_t<decltype(ob.execution_payload_header)>>(ib.execution_payload);
    if constexpr (requires { ob.bls_to_execution_changes; }) {
        ob.bls_to_execution_changes = ib.bls_to_execution_changes;
    }
    if constexpr (requires { ob.blob_kzg_commitments; }) {
        ob.blob_kzg_commitments = ib.blob_kzg_commitments;
    }
    if constexpr (requires { ob.execution_requests; }) {
        ob.execution_requests = ib.execution_requests;
    }
    return out;
}

/// Blinds every real block of one fork and checks the registry's roots of the blinded block,
/// its body and the signed blinded block; adds the number of blocks checked to `n`.
template <class Block, class Blinded, class SignedBlinded>
void check_real_blocks(const std::string& fork, int& n) {
    const fs::path dir = testutil::vectors_dir("ssz") / "mainnet_blocks" / fork;
    for (const auto& e : fs::directory_iterator(dir)) {
        SCOPED_TRACE(e.path().string());
        const Bytes bytes = testutil::read_file(e.path() / "block.ssz");
        auto block = std::make_unique<Block>();
        ASSERT_TRUE(ssz::decode_into(bytes, *block));
        const auto blinded = blind<Blinded>(*block);
        const Bytes blinded_bytes = ssz::encode(*blinded);
        // Far shorter: the transactions are gone.
        EXPECT_LT(blinded_bytes.size(), bytes.size());
        auto r = decode_and_root(fork + ".BlindedBeaconBlock", "mainnet", blinded_bytes);
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_TRUE(r->encoded == blinded_bytes);
        EXPECT_EQ(hex::encode_prefixed(r->root.view()),
                  testing::yaml_string(e.path() / "meta.yaml", "beacon_block_root"));
        auto body = decode_and_root(fork + ".BlindedBeaconBlockBody", "mainnet",
                                    ssz::encode(blinded->body));
        ASSERT_TRUE(body) << to_string(body.error());
        EXPECT_EQ(body->root, ssz::hash_tree_root(block->body));
        // Signed: hash(message root, signature root).
        auto signed_blinded = std::make_unique<SignedBlinded>();
        signed_blinded->message = *blinded;
        signed_blinded->signature = filled<96>(0x77);
        auto s = decode_and_root(fork + ".SignedBlindedBeaconBlock", "mainnet",
                                 ssz::encode(*signed_blinded));
        ASSERT_TRUE(s) << to_string(s.error());
        EXPECT_EQ(s->root, hash2(r->root, root96(signed_blinded->signature)));
        // The blinded bytes are not a full block of the fork.
        auto as_full = decode_and_root(fork + ".BeaconBlock", "mainnet", blinded_bytes);
        EXPECT_FALSE(as_full && as_full->root == r->root);
        ++n;
    }
}

TEST(BeaconBuilderTypes, BlindedRealBlocksKeepTheirRoots) {
    int n = 0;
    check_real_blocks<bellatrix::mainnet::BeaconBlock, bellatrix::mainnet::BlindedBeaconBlock,
                      bellatrix::mainnet::SignedBlindedBeaconBlock>("bellatrix", n);
    check_real_blocks<capella::mainnet::BeaconBlock, capella::mainnet::BlindedBeaconBlock,
                      capella::mainnet::SignedBlindedBeaconBlock>("capella", n);
    check_real_blocks<deneb::mainnet::BeaconBlock, deneb::mainnet::BlindedBeaconBlock,
                      deneb::mainnet::SignedBlindedBeaconBlock>("deneb", n);
    EXPECT_EQ(n, 11);
}

TEST(BeaconBuilderTypes, BlindedElectraAndFuluBlock) {
    // An electra block with a payload, a commitment and an execution request in it.
    auto block = std::make_unique<electra::minimal::BeaconBlock>();
    block->slot = 99;
    block->proposer_index = 3;
    block->body.graffiti = filled<32>(0x67);
    auto& payload = block->body.execution_payload;
    payload.block_number = 1234;
    payload.extra_data = {0x6b, 0x65, 0x65, 0x6c};
    payload.transactions.push_back(deneb::Transaction<Minimal>{0x02, 0xf8, 0x70});
    payload.withdrawals.push_back(capella::Withdrawal{5, 6, filled<20>(0x01), 7});
    payload.blob_gas_used = 131072;
    payload.excess_blob_gas = 42;
    block->body.blob_kzg_commitments.push_back(filled<48>(0xc0));
    block->body.execution_requests.withdrawals.push_back(
        electra::WithdrawalRequest{filled<20>(0x02), filled<48>(0x03), 9});
    const Hash32 full_root = ssz::hash_tree_root(*block);
    const auto blinded = blind<electra::minimal::BlindedBeaconBlock>(*block);
    const Bytes bytes = ssz::encode(*blinded);
    for (const char* fork : {"electra", "fulu"}) {
        auto r = decode_and_root(std::string(fork) + ".BlindedBeaconBlock", "minimal", bytes);
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_TRUE(r->encoded == bytes);
        EXPECT_EQ(r->root, full_root) << fork;
    }
    // A deneb blinded body has no execution_requests: the same bytes do not root the same.
    auto deneb = decode_and_root("deneb.BlindedBeaconBlock", "minimal", bytes);
    EXPECT_FALSE(deneb && deneb->root == full_root);
}

TEST(BeaconBuilderTypes, ValidatorRegistrationByHand) {
    bellatrix::SignedValidatorRegistrationV1 s;
    s.message.fee_recipient = filled<20>(0xfe);
    s.message.gas_limit = 36000000;
    s.message.timestamp = 1606824023;
    s.message.pubkey = filled<48>(0xab);
    s.signature = filled<96>(0xcd);
    // fee_recipient (20), gas_limit, timestamp, pubkey (48): 84 bytes; then the signature.
    Bytes want(20, 0xfe);
    for (std::uint64_t v : {std::uint64_t{36000000}, std::uint64_t{1606824023}}) {
        for (int i = 0; i < 8; ++i) want.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    want.insert(want.end(), 48, 0xab);
    EXPECT_EQ(ssz::fixed_size<bellatrix::ValidatorRegistrationV1>, 84u);
    EXPECT_TRUE(ssz::encode(s.message) == want);
    want.insert(want.end(), 96, 0xcd);
    EXPECT_TRUE(ssz::encode(s) == want);
    const Hash32 message_root =
        root4(pad(BytesView(s.message.fee_recipient.data(), 20)), u64_chunk(36000000),
              u64_chunk(1606824023), root48(s.message.pubkey));
    for (const char* fork : {"bellatrix", "capella", "deneb", "electra", "fulu"}) {
        auto r =
            decode_and_root(std::string(fork) + ".SignedValidatorRegistrationV1", "minimal", want);
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_EQ(r->root, hash2(message_root, root96(s.signature))) << fork;
    }
    EXPECT_FALSE(check_type("altair.ValidatorRegistrationV1", "mainnet"));
}

TEST(BeaconBuilderTypes, BuilderBidsByHand) {
    // value: uint256, little-endian in its own chunk.
    const Uint256 value = Uint256::from_limbs({0x1122334455667788ull, 1, 0, 0});
    Hash32 value_chunk{};
    for (int i = 0; i < 8; ++i)
        value_chunk[i] = static_cast<std::uint8_t>(0x1122334455667788ull >> (8 * i));
    value_chunk[8] = 1;
    const Bytes48 pubkey = filled<48>(0x9a);

    // bellatrix and capella: header, value, pubkey.
    capella::minimal::SignedBuilderBid capella_bid;
    capella_bid.message.header.block_number = 5;
    capella_bid.message.value = value;
    capella_bid.message.pubkey = pubkey;
    capella_bid.signature = filled<96>(0x31);
    const Hash32 capella_msg = root4(ssz::hash_tree_root(capella_bid.message.header), value_chunk,
                                     root48(pubkey), Hash32{});
    auto r = decode_and_root("capella.SignedBuilderBid", "minimal", ssz::encode(capella_bid));
    ASSERT_TRUE(r) << to_string(r.error());
    EXPECT_EQ(r->root, hash2(capella_msg, root96(capella_bid.signature)));

    // deneb: header, blob_kzg_commitments (List[KZGCommitment, 4096]: depth 12), value, pubkey.
    deneb::minimal::BuilderBid deneb_bid;
    deneb_bid.header.excess_blob_gas = 8;
    deneb_bid.blob_kzg_commitments.push_back(filled<48>(0xc3));
    deneb_bid.value = value;
    deneb_bid.pubkey = pubkey;
    Hash32 commitments = root48(filled<48>(0xc3));
    Hash32 zero{};
    for (int d = 0; d < 12; ++d) {
        commitments = hash2(commitments, zero);
        zero = hash2(zero, zero);
    }
    commitments = hash2(commitments, u64_chunk(1));
    const Hash32 deneb_root =
        root4(ssz::hash_tree_root(deneb_bid.header), commitments, value_chunk, root48(pubkey));
    r = decode_and_root("deneb.BuilderBid", "minimal", ssz::encode(deneb_bid));
    ASSERT_TRUE(r) << to_string(r.error());
    EXPECT_EQ(r->root, deneb_root);

    // electra (and fulu): execution_requests after the commitments; five fields, depth 3.
    electra::minimal::BuilderBid electra_bid;
    electra_bid.header = deneb_bid.header;
    electra_bid.blob_kzg_commitments = deneb_bid.blob_kzg_commitments;
    electra_bid.execution_requests.consolidations.push_back(
        electra::ConsolidationRequest{filled<20>(0x04), filled<48>(0x05), filled<48>(0x06)});
    electra_bid.value = value;
    electra_bid.pubkey = pubkey;
    const Hash32 electra_root =
        hash2(root4(ssz::hash_tree_root(electra_bid.header), commitments,
                    ssz::hash_tree_root(electra_bid.execution_requests), value_chunk),
              root4(root48(pubkey), Hash32{}, Hash32{}, Hash32{}));
    const Bytes electra_bytes = ssz::encode(electra_bid);
    for (const char* fork : {"electra", "fulu"}) {
        r = decode_and_root(std::string(fork) + ".BuilderBid", "minimal", electra_bytes);
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_EQ(r->root, electra_root) << fork;
    }
    EXPECT_FALSE(decode_and_root("deneb.BuilderBid", "minimal", electra_bytes));

    // JSON: value as a decimal string.
    auto j = to_json("bellatrix.BuilderBid", "mainnet",
                     ssz::encode(bellatrix::mainnet::BuilderBid{{}, value, pubkey}));
    ASSERT_TRUE(j) << to_string(j.error());
    // 2^64 + 0x1122334455667788 = 18446744073709551616 + 1234605616436508552.
    EXPECT_NE(j->find("\"value\":\"19681349690146060168\""), std::string::npos) << *j;
}

}  // namespace
}  // namespace keel::beacon
