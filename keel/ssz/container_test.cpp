// Containers: declaration, compile-time sizes, offsets rules with field paths, roots.
#include <gtest/gtest.h>

#include "keel/common/hex.hpp"
#include "keel/ssz/generic_test_types.hpp"
#include "keel/ssz/test_helpers.hpp"

namespace keel::ssz::test {
namespace {

using namespace generic;

/// The API as keel/beacon will use it.
struct BeaconBlockHeader {
    std::uint64_t slot = 0;
    std::uint64_t proposer_index = 0;
    Bytes32 parent_root;
    Bytes32 state_root;
    Bytes32 body_root;

    static constexpr std::string_view ssz_name = "BeaconBlockHeader";
    static constexpr auto ssz_fields() {
        using T = BeaconBlockHeader;
        return std::tuple{field("slot", &T::slot), field("proposer_index", &T::proposer_index),
                          field("parent_root", &T::parent_root),
                          field("state_root", &T::state_root), field("body_root", &T::body_root)};
    }
};

TEST(SszContainer, CompileTimeSizes) {
    static_assert(fixed_size<BeaconBlockHeader> == 112);
    static_assert(fixed_size<FixedTestStruct> == 13);
    static_assert(!is_fixed_size<VarTestStruct>);
    static_assert(Codec<ComplexTestStruct>::kFixedPart == 2 + 4 + 1 + 4 + 4 + 4 * 13 + 4);
}

TEST(SszContainer, BeaconBlockHeaderRoot) {
    BeaconBlockHeader h;
    h.slot = 7;
    h.proposer_index = 9;
    h.parent_root[0] = 1;
    h.body_root[31] = 2;
    const Bytes b = encode(h);
    ASSERT_EQ(b.size(), 112u);
    auto d = decode<BeaconBlockHeader>(b);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->body_root, h.body_root);
    const std::vector<Hash32> leaves{length_chunk(7), length_chunk(9), h.parent_root, h.state_root,
                                     h.body_root};
    EXPECT_EQ(hash_tree_root(h), reference_merkleize(leaves, 5));
}

TEST(SszContainer, FixedContainerSizeIsExact) {
    EXPECT_EQ(decode_error<SmallTestStruct>("0100020003").code, Errc::wrong_size);
    EXPECT_EQ(round_trip<SmallTestStruct>("01000200").B, 2);
}

TEST(SszContainer, OffsetRules) {
    // VarTestStruct: A (2) | offset of B (4) | C (1) | B
    round_trip<VarTestStruct>(
        "0100"
        "07000000"
        "02"
        "03000400");
    Error e = decode_error<VarTestStruct>(
        "0100"
        "08000000"
        "02"
        "03000400");
    EXPECT_EQ(e.code, Errc::first_offset_mismatch);
    EXPECT_EQ(to_string(e),
              "ssz: VarTestStruct.B: first offset 8 is not the fixed part size 7 at offset 2");
    e = decode_error<VarTestStruct>(
        "0100"
        "0c000000"
        "02"
        "03000400");
    EXPECT_EQ(e.code, Errc::first_offset_mismatch);
    e = decode_error<VarTestStruct>(
        "0100"
        "07000000");
    EXPECT_EQ(e.code, Errc::fixed_part_too_short);
    EXPECT_EQ(e.path, "VarTestStruct");
}

TEST(SszContainer, NestedOffsetErrorNamesTheFieldPath) {
    ComplexTestStruct c;
    c.B = {1, 2};
    c.D = {9};
    c.E.B = {5, 6, 7};
    c.G[1].B = {8};
    Bytes b = encode(c);
    round_trip<ComplexTestStruct>(hex::encode(b));
    ASSERT_EQ(decode<ComplexTestStruct>(b).value(), c);
    // On the heap: the same value, and the same error for bad bytes.
    auto boxed = decode_boxed<ComplexTestStruct>(b);
    ASSERT_TRUE(boxed);
    EXPECT_EQ(**boxed, c);
    EXPECT_EQ(decode_boxed<ComplexTestStruct>(BytesView(b).first(b.size() - 1)).error().path,
              decode<ComplexTestStruct>(BytesView(b).first(b.size() - 1)).error().path);

    // ComplexTestStruct's fixed part: A(2) B@2 C(1) D@7 E@11 F(52) G@67, 71 bytes.
    const std::size_t e_off = detail::load_offset(b.data() + 11);
    // E (a VarTestStruct) starts at e_off; its B offset sits at e_off + 2. Set it to 8 (> 7).
    Bytes bad = b;
    detail::store_offset(bad.data() + e_off + 2, 8);
    auto r = decode<ComplexTestStruct>(bad);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().path, "ComplexTestStruct.E.B");
    EXPECT_EQ(r.error().offset, e_off + 2);
    // G's offset below E's: "offset is before the previous offset".
    bad = b;
    detail::store_offset(bad.data() + 67, 12);
    r = decode<ComplexTestStruct>(bad);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::offset_decreasing);
    EXPECT_EQ(to_string(r.error()),
              "ssz: ComplexTestStruct.G: offset 12 is before the previous offset " +
                  std::to_string(e_off) + " at offset 67");
    // D's offset past the end.
    bad = b;
    detail::store_offset(bad.data() + 7, static_cast<std::uint32_t>(b.size() + 1));
    r = decode<ComplexTestStruct>(bad);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, Errc::offset_out_of_bounds);
}

TEST(SszContainer, RootIsTheTreeOfFieldRoots) {
    VarTestStruct v;
    v.A = 3;
    v.B = {1, 2, 3};
    v.C = 4;
    const std::vector<Hash32> leaves{length_chunk(3), hash_tree_root(v.B), length_chunk(4)};
    EXPECT_EQ(hash_tree_root(v), reference_merkleize(leaves, 3));
}

/// Shaped like an Attestation with a pubkey: a bitlist, a nested container, 96- and 48-byte
/// vectors and a byte list, so every batched codec runs under the container's batch.
struct BatchProbe {
    Bitlist<2048> bits;
    FixedTestStruct data;
    FixedBytes<96> signature;
    FixedBytes<48> pubkey;
    ByteList<1000> extra;
    bool flag = false;
    static constexpr std::string_view ssz_name = "BatchProbe";
    static constexpr auto ssz_fields() {
        using T = BatchProbe;
        return std::tuple{field("bits", &T::bits),           field("data", &T::data),
                          field("signature", &T::signature), field("pubkey", &T::pubkey),
                          field("extra", &T::extra),         field("flag", &T::flag)};
    }
};

BatchProbe probe(std::size_t i) {
    BatchProbe p;
    for (std::size_t b = 0; b < (i * 37) % 2049; ++b) p.bits.push_back((b * 7 + i) % 3 != 0);
    p.data.A = static_cast<std::uint8_t>(i);
    p.data.B = i * 1000003;
    p.data.C = static_cast<std::uint32_t>(i * 17);
    for (std::size_t k = 0; k < 96; ++k) p.signature[k] = static_cast<std::uint8_t>(i + 3 * k);
    for (std::size_t k = 0; k < 48; ++k) p.pubkey[k] = static_cast<std::uint8_t>(5 * i + k);
    p.extra.resize((i * 53) % 1001, static_cast<std::uint8_t>(i));
    p.flag = i % 2 == 1;
    return p;
}

// Batched roots (many values' trees climbing together) equal each value's own root, for
// counts around the lane count and the batch size, and when written with a stride.
template <class T>
void expect_batch_equals_one_by_one(const std::vector<T>& values) {
    for (std::size_t stride : {std::size_t{32}, std::size_t{80}}) {
        std::vector<std::uint8_t> got(stride * values.size() + 32, 0xee);
        detail::batch_roots<T>(
            values.size(), [&](std::size_t i) -> const T& { return values[i]; }, got.data(),
            stride);
        for (std::size_t i = 0; i < values.size(); ++i) {
            Hash32 one;
            Codec<T>::root(values[i], one.data());
            ASSERT_EQ(0, std::memcmp(got.data() + stride * i, one.data(), 32))
                << Codec<T>::name() << " value " << i << " of " << values.size() << " stride "
                << stride;
        }
    }
}

TEST(SszContainer, BatchedRootsEqualOneByOne) {
    static_assert(detail::has_batch_roots<BatchProbe>());
    static_assert(detail::has_batch_roots<FixedBytes<48>>());
    static_assert(!detail::has_batch_roots<FixedBytes<32>>());
    for (std::size_t count : {0, 1, 2, 15, 16, 17, 259, 700}) {
        std::vector<BatchProbe> probes;
        std::vector<FixedBytes<96>> sigs;
        std::vector<Bitlist<2048>> bits;
        std::vector<ByteList<1000>> lists;
        for (std::size_t i = 0; i < count; ++i) {
            probes.push_back(probe(i));
            sigs.push_back(probes.back().signature);
            bits.push_back(probes.back().bits);
            lists.push_back(probes.back().extra);
        }
        expect_batch_equals_one_by_one(probes);
        expect_batch_equals_one_by_one(sigs);
        expect_batch_equals_one_by_one(bits);
        expect_batch_equals_one_by_one(lists);
    }
    // Containers whose fields are variable and nested (lists, vectors of containers).
    std::vector<ComplexTestStruct> complex(40);
    for (std::size_t i = 0; i < complex.size(); ++i) {
        complex[i].A = static_cast<std::uint16_t>(i);
        complex[i].B.assign(i % 9, static_cast<std::uint16_t>(i * 3));
        complex[i].D.assign(i * 5, static_cast<std::uint8_t>(i));
        complex[i].F[i % 4].B = i;
        complex[i].G[1].B.assign(i % 5, 7);
    }
    expect_batch_equals_one_by_one(complex);
}

// A list's root is the same whether its elements' roots are batched or not: checked against
// the reference tree of the elements' own roots.
TEST(SszContainer, ListOfContainersRootUsesTheElementRoots) {
    List<BatchProbe, 1024> list;
    for (std::size_t i = 0; i < 300; ++i) list.push_back(probe(i));
    std::vector<Hash32> leaves;
    for (const BatchProbe& p : list) {
        Hash32 one;
        Codec<BatchProbe>::root(p, one.data());
        leaves.push_back(one);
    }
    Hash32 want = reference_merkleize(leaves, 1024);
    mix_in_length(want.data(), list.size());
    EXPECT_EQ(hash_tree_root(list), want);
}

}  // namespace
}  // namespace keel::ssz::test
