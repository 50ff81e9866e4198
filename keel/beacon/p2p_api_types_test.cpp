// The networking payloads (p2p-interface.md of phase0, altair, deneb and fulu; the light-client
// p2p-interface.md), the engine's and builder's BlobsBundle (validator.md, builder-specs) and the
// Beacon API's BlockContents (beacon-APIs types/<fork>/block_contents.yaml). consensus-spec-tests
// has no ssz_static cases for them, so every expected value here is derived by hand from the
// spec's field lists: encodings written byte by byte, and roots merkleized by a small independent
// tree builder over crypto::sha256 (zero subtrees computed here, not keel::ssz's table), composed
// with the roots of containers that the official vectors already check (blocks, payloads).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "keel/beacon/fulu.hpp"
#include "keel/beacon/light_client.hpp"
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

using Chunk = Hash32;

/// Root of a zero tree of 2^depth chunks, computed here.
Chunk zero_tree(std::size_t depth) {
    Chunk z{};
    for (std::size_t d = 0; d < depth; ++d) z = hash2(z, z);
    return z;
}

/// merkleize(leaves) in a tree of 2^depth leaves: levels climbed one by one, a missing right
/// sibling being the zero subtree of that level.
Chunk merkle(std::vector<Chunk> level, std::size_t depth) {
    EXPECT_LE(level.size(), depth >= 63 ? level.size() : (std::size_t{1} << depth));
    if (level.empty()) return zero_tree(depth);
    for (std::size_t d = 0; d < depth; ++d) {
        std::vector<Chunk> up;
        for (std::size_t i = 0; i < level.size(); i += 2) {
            up.push_back(hash2(level[i], i + 1 < level.size() ? level[i + 1] : zero_tree(d)));
        }
        level = std::move(up);
    }
    return level[0];
}

/// mix_in_length.
Chunk mix(const Chunk& root, std::uint64_t length) {
    return hash2(root, u64_chunk(length));
}

/// hash_tree_root of a byte vector longer than 32 bytes: its chunks in the smallest tree.
Chunk bytes_root(BytesView b) {
    std::vector<Chunk> chunks;
    for (std::size_t i = 0; i < b.size(); i += 32) {
        chunks.push_back(pad(b.subspan(i, std::min<std::size_t>(32, b.size() - i))));
    }
    std::size_t depth = 0;
    while ((std::size_t{1} << depth) < chunks.size()) ++depth;
    return merkle(chunks, depth);
}

template <std::size_t N>
BytesView view(const FixedBytes<N>& b) {
    return BytesView(b.data(), N);
}

void put_u64(Bytes& out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u32(Bytes& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
template <std::size_t N>
void put(Bytes& out, const FixedBytes<N>& b) {
    out.insert(out.end(), b.begin(), b.end());
}

/// Checks that the registry reads `bytes` as `type` in both presets, gives the same bytes back
/// and the root `want`.
void expect_registry(const char* type, const Bytes& bytes, const Chunk& want,
                     std::initializer_list<const char*> presets = {"mainnet", "minimal"}) {
    for (const char* preset : presets) {
        SCOPED_TRACE(std::string(type) + " " + preset);
        auto r = decode_and_root(type, preset, bytes);
        ASSERT_TRUE(r) << to_string(r.error());
        EXPECT_TRUE(r->encoded == bytes);
        EXPECT_EQ(hex::encode_prefixed(r->root.view()), hex::encode_prefixed(want.view()));
    }
}

// ---- phase0 / altair / light client ---------------------------------------------------------

TEST(BeaconP2pTypes, StatusByHand) {
    phase0::Status s;
    s.fork_digest = FixedBytes<4>::from(Bytes{0xb5, 0x30, 0x3f, 0x2a}).value();
    s.finalized_root = filled<32>(0x11);
    s.finalized_epoch = 260000;
    s.head_root = filled<32>(0x22);
    s.head_slot = 8320123;
    Bytes want;
    put(want, s.fork_digest);
    put(want, s.finalized_root);
    put_u64(want, 260000);
    put(want, s.head_root);
    put_u64(want, 8320123);
    ASSERT_EQ(want.size(), 84u);
    EXPECT_EQ(ssz::fixed_size<phase0::Status>, 84u);
    EXPECT_TRUE(ssz::encode(s) == want);
    // Five fields: a tree of eight leaves.
    const Chunk root = merkle({pad(view(s.fork_digest)), s.finalized_root, u64_chunk(260000),
                               s.head_root, u64_chunk(8320123)},
                              3);
    for (const char* fork : {"phase0", "altair", "deneb", "electra", "fulu"}) {
        expect_registry((std::string(fork) + ".Status").c_str(), want, root);
    }

    // Status v2 (fulu): the same five fields, then earliest_available_slot.
    fulu::StatusV2 v2;
    v2.fork_digest = s.fork_digest;
    v2.finalized_root = s.finalized_root;
    v2.finalized_epoch = s.finalized_epoch;
    v2.head_root = s.head_root;
    v2.head_slot = s.head_slot;
    v2.earliest_available_slot = 8000000;
    Bytes want2 = want;
    put_u64(want2, 8000000);
    EXPECT_EQ(ssz::fixed_size<fulu::StatusV2>, 92u);
    EXPECT_TRUE(ssz::encode(v2) == want2);
    const Chunk root2 = merkle({pad(view(s.fork_digest)), s.finalized_root, u64_chunk(260000),
                                s.head_root, u64_chunk(8320123), u64_chunk(8000000)},
                               3);
    expect_registry("fulu.StatusV2", want2, root2);
    // v1 bytes are not a v2 message (8 bytes short), nor v2 bytes a v1 one.
    EXPECT_FALSE(decode_and_root("fulu.StatusV2", "mainnet", want));
    EXPECT_FALSE(decode_and_root("fulu.Status", "mainnet", want2));
    EXPECT_FALSE(check_type("electra.StatusV2", "mainnet"));
}

TEST(BeaconP2pTypes, MetaDataEachVersion) {
    // attnets: subnets 0 and 63; syncnets: subnet 2.
    Bytes attnets{0x01, 0, 0, 0, 0, 0, 0, 0x80};
    // v1 (phase0): seq_number, attnets.
    phase0::MetaData v1;
    v1.seq_number = 7;
    v1.attnets.set(0, true);
    v1.attnets.set(63, true);
    Bytes want1;
    put_u64(want1, 7);
    want1.insert(want1.end(), attnets.begin(), attnets.end());
    EXPECT_EQ(ssz::fixed_size<phase0::MetaData>, 16u);
    EXPECT_TRUE(ssz::encode(v1) == want1);
    expect_registry("phase0.MetaData", want1, hash2(u64_chunk(7), pad(attnets)));

    // v2 (altair .. electra): and syncnets, one byte.
    altair::MetaData v2;
    v2.seq_number = 7;
    v2.attnets = v1.attnets;
    v2.syncnets.set(2, true);
    Bytes want2 = want1;
    want2.push_back(0x04);
    EXPECT_EQ(ssz::fixed_size<altair::MetaData>, 17u);
    EXPECT_TRUE(ssz::encode(v2) == want2);
    const Chunk root2 = merkle({u64_chunk(7), pad(attnets), pad(Bytes{0x04})}, 2);
    for (const char* fork : {"altair", "bellatrix", "capella", "deneb", "electra"}) {
        expect_registry((std::string(fork) + ".MetaData").c_str(), want2, root2);
    }
    // syncnets has 4 bits: a fifth bit set is not a Bitvector[4].
    Bytes bad = want2;
    bad.back() = 0x10;
    EXPECT_FALSE(decode_and_root("altair.MetaData", "mainnet", bad));

    // v3 (fulu): and custody_group_count.
    fulu::MetaData v3;
    v3.seq_number = 7;
    v3.attnets = v1.attnets;
    v3.syncnets = v2.syncnets;
    v3.custody_group_count = 128;
    Bytes want3 = want2;
    put_u64(want3, 128);
    EXPECT_EQ(ssz::fixed_size<fulu::MetaData>, 25u);
    EXPECT_TRUE(ssz::encode(v3) == want3);
    expect_registry("fulu.MetaData", want3,
                    merkle({u64_chunk(7), pad(attnets), pad(Bytes{0x04}), u64_chunk(128)}, 2));
    EXPECT_FALSE(decode_and_root("electra.MetaData", "mainnet", want3));
    EXPECT_FALSE(decode_and_root("fulu.MetaData", "mainnet", want2));

    // JSON in the consensus-specs mapping: uint64 as a decimal string, bits as hex.
    auto bytes = from_json("fulu.MetaData", "minimal",
                           R"({"seq_number":"7","attnets":"0x0100000000000080","syncnets":"0x04",)"
                           R"("custody_group_count":"128"})");
    ASSERT_TRUE(bytes) << to_string(bytes.error());
    EXPECT_TRUE(*bytes == want3);
}

TEST(BeaconP2pTypes, RangeRequestsAndEnrForkId) {
    // BeaconBlocksByRangeRequest: start_slot, count, step.
    Bytes blocks;
    put_u64(blocks, 1000);
    put_u64(blocks, 64);
    put_u64(blocks, 1);
    EXPECT_EQ(ssz::fixed_size<phase0::BeaconBlocksByRangeRequest>, 24u);
    EXPECT_TRUE(ssz::encode(phase0::BeaconBlocksByRangeRequest{1000, 64, 1}) == blocks);
    const Chunk blocks_root = merkle({u64_chunk(1000), u64_chunk(64), u64_chunk(1)}, 2);
    for (const char* fork :
         {"phase0", "altair", "bellatrix", "capella", "deneb", "electra", "fulu"}) {
        expect_registry((std::string(fork) + ".BeaconBlocksByRangeRequest").c_str(), blocks,
                        blocks_root);
    }

    // ENRForkID: fork_digest, next_fork_version, next_fork_epoch (FAR_FUTURE_EPOCH).
    phase0::ENRForkID enr;
    enr.fork_digest = FixedBytes<4>::from(Bytes{0xaa, 0xbb, 0xcc, 0xdd}).value();
    enr.next_fork_version = FixedBytes<4>::from(Bytes{0x06, 0, 0, 0}).value();
    enr.next_fork_epoch = ~std::uint64_t{0};
    Bytes enr_bytes{0xaa, 0xbb, 0xcc, 0xdd, 0x06, 0, 0, 0};
    put_u64(enr_bytes, ~std::uint64_t{0});
    EXPECT_EQ(ssz::fixed_size<phase0::ENRForkID>, 16u);
    EXPECT_TRUE(ssz::encode(enr) == enr_bytes);
    expect_registry("fulu.ENRForkID", enr_bytes,
                    merkle({pad(view(enr.fork_digest)), pad(view(enr.next_fork_version)),
                            u64_chunk(~std::uint64_t{0})},
                           2));

    // Two-field requests: one pair of chunks.
    Bytes two;
    put_u64(two, 300);
    put_u64(two, 5);
    const Chunk two_root = hash2(u64_chunk(300), u64_chunk(5));
    EXPECT_EQ(ssz::fixed_size<deneb::BlobSidecarsByRangeRequest>, 16u);
    EXPECT_EQ(ssz::fixed_size<light_client::LightClientUpdatesByRange>, 16u);
    for (const char* t : {"deneb.BlobSidecarsByRangeRequest", "electra.BlobSidecarsByRangeRequest",
                          "fulu.BlobSidecarsByRangeRequest", "altair.LightClientUpdatesByRange",
                          "fulu.LightClientUpdatesByRange"}) {
        expect_registry(t, two, two_root);
    }
    EXPECT_FALSE(check_type("capella.BlobSidecarsByRangeRequest", "mainnet"));
    EXPECT_FALSE(check_type("phase0.LightClientUpdatesByRange", "mainnet"));

    // DataColumnSidecarsByRangeRequest: start_slot, count, the columns list's offset (20), then
    // the columns; its root packs the uint64s four to a chunk under a limit of
    // NUMBER_OF_COLUMNS = 128 (32 chunks, depth 5), mixed with the length.
    fulu::mainnet::DataColumnSidecarsByRangeRequest req;
    req.start_slot = 300;
    req.count = 5;
    req.columns = {0, 5, 127, 64, 3};
    Bytes cols = two;
    put_u32(cols, 20);
    for (std::uint64_t c : req.columns) put_u64(cols, c);
    EXPECT_TRUE(ssz::encode(req) == cols);
    Bytes packed;
    for (std::uint64_t c : req.columns) put_u64(packed, c);
    const Chunk columns_root =
        mix(merkle({pad(BytesView(packed).first(32)), pad(BytesView(packed).subspan(32))}, 5), 5);
    expect_registry("fulu.DataColumnSidecarsByRangeRequest", cols,
                    merkle({u64_chunk(300), u64_chunk(5), columns_root}, 2));
    // 129 columns: over NUMBER_OF_COLUMNS.
    Bytes over = two;
    put_u32(over, 20);
    for (int i = 0; i < 129; ++i) put_u64(over, 0);
    EXPECT_FALSE(decode_and_root("fulu.DataColumnSidecarsByRangeRequest", "mainnet", over));
    EXPECT_FALSE(decode_and_root("fulu.DataColumnSidecarsByRangeRequest", "minimal", over));
}

// ---- blobs bundles and block contents ----------------------------------------------------------

/// hash_tree_root of a list of 48-byte values under `depth` (log2 of its limit).
Chunk bytes48_list_root(const std::vector<Bytes48>& items, std::size_t depth) {
    std::vector<Chunk> roots;
    for (const Bytes48& b : items) roots.push_back(bytes_root(view(b)));
    return mix(merkle(roots, depth), items.size());
}

/// hash_tree_root of List[Blob, 4096]: each blob is 4096 chunks (depth 12).
template <class BlobT>
Chunk blob_list_root(const std::vector<BlobT>& blobs) {
    std::vector<Chunk> roots;
    for (const BlobT& b : blobs) roots.push_back(bytes_root(view(b)));
    return mix(merkle(roots, 12), blobs.size());
}

/// A blob whose bytes are not all equal (so a chunk mix-up would show).
template <class BlobT>
std::unique_ptr<BlobT> test_blob(std::uint8_t seed) {
    auto b = std::make_unique<BlobT>();
    for (std::size_t i = 0; i < b->bytes.size(); ++i) {
        b->bytes[i] = static_cast<std::uint8_t>(seed + i * 7 + (i >> 11));
    }
    return b;
}

TEST(BeaconApiTypes, BlobsBundleProofLimits) {
    // deneb/electra: List[KZGProof, MAX_BLOB_COMMITMENTS_PER_BLOCK = 4096] (depth 12); fulu's cell
    // proofs: List[KZGProof, FIELD_ELEMENTS_PER_EXT_BLOB * MAX_BLOB_COMMITMENTS_PER_BLOCK =
    // 8192 * 4096 = 2^25] (depth 25), in both presets.
    EXPECT_EQ(decltype(deneb::mainnet::BlobsBundle{}.proofs)::kLimit, 4096u);
    EXPECT_EQ(decltype(fulu::mainnet::BlobsBundle{}.proofs)::kLimit, std::size_t{1} << 25);
    EXPECT_EQ(decltype(fulu::minimal::BlobsBundle{}.proofs)::kLimit, std::size_t{1} << 25);
    EXPECT_EQ(decltype(fulu::minimal::BlockContents{}.kzg_proofs)::kLimit, std::size_t{1} << 25);
    EXPECT_EQ(decltype(electra::minimal::SignedBlockContents{}.kzg_proofs)::kLimit, 4096u);
    EXPECT_EQ(decltype(fulu::mainnet::BlobsBundle{}.blobs)::kLimit, 4096u);

    // One blob with CELLS_PER_EXT_BLOB = 128 cell proofs (fulu) or its one blob proof (deneb).
    using BlobT = deneb::Blob<Mainnet>;
    auto blob = test_blob<BlobT>(3);
    const Bytes48 commitment = filled<48>(0xc0);
    std::vector<Bytes48> cell_proofs;
    for (int i = 0; i < 128; ++i) {
        Bytes48 p = filled<48>(static_cast<std::uint8_t>(i));
        p[47] = 0xee;
        cell_proofs.push_back(p);
    }
    auto fulu_bundle = std::make_unique<fulu::mainnet::BlobsBundle>();
    fulu_bundle->commitments.push_back(commitment);
    for (const Bytes48& p : cell_proofs) fulu_bundle->proofs.push_back(p);
    fulu_bundle->blobs.push_back(*blob);
    auto deneb_bundle = std::make_unique<deneb::mainnet::BlobsBundle>();
    deneb_bundle->commitments.push_back(commitment);
    deneb_bundle->proofs.push_back(cell_proofs[0]);
    deneb_bundle->blobs.push_back(*blob);

    // Encoding: three offsets, then 48-byte commitments, 48-byte proofs, blobs.
    Bytes want;
    put_u32(want, 12);
    put_u32(want, 12 + 48);
    put_u32(want, 12 + 48 + 128 * 48);
    put(want, commitment);
    for (const Bytes48& p : cell_proofs) put(want, p);
    put(want, *blob);
    EXPECT_TRUE(ssz::encode(*fulu_bundle) == want);

    const Chunk commitments_root = bytes48_list_root({commitment}, 12);
    const Chunk blobs_root = blob_list_root<BlobT>({*blob});
    const Chunk fulu_root =
        merkle({commitments_root, bytes48_list_root(cell_proofs, 25), blobs_root}, 2);
    const Chunk deneb_root =
        merkle({commitments_root, bytes48_list_root({cell_proofs[0]}, 12), blobs_root}, 2);
    EXPECT_EQ(ssz::hash_tree_root(*fulu_bundle), fulu_root);
    EXPECT_EQ(ssz::hash_tree_root(*deneb_bundle), deneb_root);
    expect_registry("fulu.BlobsBundle", want, fulu_root);
    const Bytes deneb_bytes = ssz::encode(*deneb_bundle);
    expect_registry("deneb.BlobsBundle", deneb_bytes, deneb_root);
    expect_registry("electra.BlobsBundle", deneb_bytes, deneb_root);
    // The same one-proof bytes as a fulu bundle: same encoding, deeper proofs tree.
    auto as_fulu = decode_and_root("fulu.BlobsBundle", "mainnet", deneb_bytes);
    ASSERT_TRUE(as_fulu) << to_string(as_fulu.error());
    EXPECT_EQ(as_fulu->root,
              merkle({commitments_root, bytes48_list_root({cell_proofs[0]}, 25), blobs_root}, 2));

    // 4097 proofs: over deneb's limit, within fulu's.
    Bytes many;
    put_u32(many, 12);
    put_u32(many, 12);
    put_u32(many, 12 + 4097 * 48);
    many.resize(many.size() + 4097 * 48, 0x01);
    EXPECT_FALSE(decode_and_root("deneb.BlobsBundle", "mainnet", many));
    EXPECT_FALSE(decode_and_root("electra.BlobsBundle", "minimal", many));
    auto fulu_many = decode_and_root("fulu.BlobsBundle", "minimal", many);
    ASSERT_TRUE(fulu_many) << to_string(fulu_many.error());
    // No commitments, no blobs: each an empty list, mix(zero tree of depth 12, 0).
    const Chunk empty = mix(zero_tree(12), 0);
    EXPECT_EQ(
        fulu_many->root,
        merkle({empty, bytes48_list_root(std::vector<Bytes48>(4097, filled<48>(0x01)), 25), empty},
               2));
}

TEST(BeaconApiTypes, ExecutionPayloadAndBlobsBundle) {
    // execution_payload, blobs_bundle: two fields, one hash of their roots. The payload's root
    // is the ExecutionPayload container's (checked by the official vectors and real blocks).
    using BlobT = deneb::Blob<Minimal>;
    auto blob = test_blob<BlobT>(9);
    auto v = std::make_unique<fulu::minimal::ExecutionPayloadAndBlobsBundle>();
    v->execution_payload.block_number = 77;
    v->execution_payload.transactions.push_back(deneb::Transaction<Minimal>{0x02, 0xf8});
    v->blobs_bundle.commitments.push_back(filled<48>(0xc1));
    for (int i = 0; i < 128; ++i) v->blobs_bundle.proofs.push_back(filled<48>(0xd0));
    v->blobs_bundle.blobs.push_back(*blob);
    const Chunk bundle_root =
        merkle({bytes48_list_root({filled<48>(0xc1)}, 12),
                bytes48_list_root(std::vector<Bytes48>(128, filled<48>(0xd0)), 25),
                blob_list_root<BlobT>({*blob})},
               2);
    const Chunk want = hash2(ssz::hash_tree_root(v->execution_payload), bundle_root);
    const Bytes bytes = ssz::encode(*v);
    expect_registry("fulu.ExecutionPayloadAndBlobsBundle", bytes, want, {"minimal"});
    // Two offsets, then the payload, then the bundle.
    const Bytes payload = ssz::encode(v->execution_payload);
    ASSERT_GT(bytes.size(), 8 + payload.size());
    EXPECT_EQ(bytes[0], 8);
    EXPECT_EQ(bytes[4] | (bytes[5] << 8) | (bytes[6] << 16), static_cast<int>(8 + payload.size()));
    // As a deneb/electra one (one proof per blob), 128 proofs for one blob still fit the 4096
    // limit, but the proofs list hashes under depth 12.
    const Chunk deneb_bundle =
        merkle({bytes48_list_root({filled<48>(0xc1)}, 12),
                bytes48_list_root(std::vector<Bytes48>(128, filled<48>(0xd0)), 12),
                blob_list_root<BlobT>({*blob})},
               2);
    expect_registry("electra.ExecutionPayloadAndBlobsBundle", bytes,
                    hash2(ssz::hash_tree_root(v->execution_payload), deneb_bundle), {"minimal"});
    expect_registry("deneb.ExecutionPayloadAndBlobsBundle", bytes,
                    hash2(ssz::hash_tree_root(v->execution_payload), deneb_bundle), {"minimal"});
}

template <class Contents, class SignedContents>
void check_block_contents(const char* fork, std::size_t proofs_depth) {
    SCOPED_TRACE(fork);
    using BlobT = deneb::Blob<Mainnet>;
    auto blob_a = test_blob<BlobT>(1);
    auto blob_b = test_blob<BlobT>(2);
    auto c = std::make_unique<Contents>();
    c->block.slot = 12345;
    c->block.proposer_index = 42;
    c->block.body.blob_kzg_commitments.push_back(filled<48>(0xa1));
    c->block.body.blob_kzg_commitments.push_back(filled<48>(0xa2));
    const std::vector<Bytes48> proofs{filled<48>(0xb1), filled<48>(0xb2)};
    for (const Bytes48& p : proofs) c->kzg_proofs.push_back(p);
    c->blobs.push_back(*blob_a);
    c->blobs.push_back(*blob_b);

    // Encoding: three offsets, the block, the proofs, the blobs.
    const Bytes block = ssz::encode(c->block);
    Bytes want;
    put_u32(want, 12);
    put_u32(want, static_cast<std::uint32_t>(12 + block.size()));
    put_u32(want, static_cast<std::uint32_t>(12 + block.size() + 2 * 48));
    want.insert(want.end(), block.begin(), block.end());
    for (const Bytes48& p : proofs) put(want, p);
    put(want, *blob_a);
    put(want, *blob_b);
    EXPECT_TRUE(ssz::encode(*c) == want);
    const Chunk proofs_root = bytes48_list_root(proofs, proofs_depth);
    const Chunk blobs_root = blob_list_root<BlobT>({*blob_a, *blob_b});
    expect_registry((std::string(fork) + ".BlockContents").c_str(), want,
                    merkle({ssz::hash_tree_root(c->block), proofs_root, blobs_root}, 2),
                    {"mainnet"});

    // Signed: the signed block in the block's place.
    auto s = std::make_unique<SignedContents>();
    s->signed_block.message = c->block;
    s->signed_block.signature = filled<96>(0x5a);
    s->kzg_proofs = c->kzg_proofs;
    s->blobs = c->blobs;
    const Bytes signed_block = ssz::encode(s->signed_block);
    Bytes want_signed;
    put_u32(want_signed, 12);
    put_u32(want_signed, static_cast<std::uint32_t>(12 + signed_block.size()));
    put_u32(want_signed, static_cast<std::uint32_t>(12 + signed_block.size() + 2 * 48));
    want_signed.insert(want_signed.end(), signed_block.begin(), signed_block.end());
    want_signed.insert(want_signed.end(), want.begin() + 12 + block.size(), want.end());
    EXPECT_TRUE(ssz::encode(*s) == want_signed);
    expect_registry((std::string(fork) + ".SignedBlockContents").c_str(), want_signed,
                    merkle({ssz::hash_tree_root(s->signed_block), proofs_root, blobs_root}, 2),
                    {"mainnet"});
}

TEST(BeaconApiTypes, BlockContentsEachFork) {
    check_block_contents<deneb::mainnet::BlockContents, deneb::mainnet::SignedBlockContents>(
        "deneb", 12);
    check_block_contents<electra::mainnet::BlockContents, electra::mainnet::SignedBlockContents>(
        "electra", 12);
    check_block_contents<fulu::mainnet::BlockContents, fulu::mainnet::SignedBlockContents>("fulu",
                                                                                           25);
    // A deneb block's contents are not electra's (the body differs), and capella has none.
    const Bytes deneb = ssz::encode(*std::make_unique<deneb::mainnet::BlockContents>());
    EXPECT_TRUE(decode_and_root("deneb.BlockContents", "mainnet", deneb));
    EXPECT_FALSE(decode_and_root("electra.BlockContents", "mainnet", deneb));
    EXPECT_FALSE(check_type("capella.BlockContents", "mainnet"));
}

}  // namespace
}  // namespace keel::beacon
