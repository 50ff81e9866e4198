// SetDigest: the same records in any order (and split between add() and merge()) give the same
// digest; one changed, missing or extra record changes it.
#include "keel/store/set_digest.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace keel::store {
namespace {

constexpr std::size_t kSize = 12;

// 40 000 records (more than one internal batch) of 12 bytes: BE8(i) and 4 bytes of i * 7.
std::vector<Bytes> records() {
    std::vector<Bytes> out;
    for (std::uint32_t i = 0; i < 40000; ++i) {
        Bytes r(kSize, 0);
        for (int b = 0; b < 4; ++b) r[7 - b] = static_cast<std::uint8_t>(i >> (8 * b));
        for (int b = 0; b < 4; ++b) r[11 - b] = static_cast<std::uint8_t>((i * 7) >> (8 * b));
        out.push_back(std::move(r));
    }
    return out;
}

SetDigest digest_of(const std::vector<Bytes>& rs) {
    SetDigest d(kSize);
    for (const Bytes& r : rs) d.add(BytesView(r).first(8), BytesView(r).subspan(8));
    d.flush();
    return d;
}

TEST(SetDigest, OrderDoesNotMatter) {
    auto rs = records();
    const SetDigest a = digest_of(rs);
    std::mt19937 rng(7);
    std::shuffle(rs.begin(), rs.end(), rng);
    const SetDigest b = digest_of(rs);
    EXPECT_EQ(a.count(), 40000u);
    EXPECT_EQ(a.count(), b.count());
    EXPECT_EQ(a.sum(), b.sum());
    EXPECT_NE(a.sum(), Uint256{});
}

TEST(SetDigest, MergeEqualsAdd) {
    const auto rs = records();
    Bytes flat;
    for (std::size_t i = 0; i < 1000; ++i) flat.insert(flat.end(), rs[i].begin(), rs[i].end());
    SetDigest d(kSize);
    d.merge(SetDigest::sum_of(flat, kSize), 1000);
    for (std::size_t i = 1000; i < rs.size(); ++i) d.add(rs[i], {});
    d.flush();
    const SetDigest all = digest_of(rs);
    EXPECT_EQ(d.count(), all.count());
    EXPECT_EQ(d.sum(), all.sum());
}

TEST(SetDigest, AnyDifferenceShows) {
    const auto rs = records();
    const SetDigest base = digest_of(rs);

    auto changed = rs;
    changed[123][11] ^= 1;
    EXPECT_NE(digest_of(changed).sum(), base.sum());

    // Two records exchanging their tails: a linear mix (XOR) would not see it.
    auto swapped = rs;
    std::swap_ranges(swapped[5].begin() + 8, swapped[5].end(), swapped[6].begin() + 8);
    EXPECT_NE(digest_of(swapped).sum(), base.sum());

    auto fewer = rs;
    fewer.pop_back();
    EXPECT_NE(digest_of(fewer).count(), base.count());
    EXPECT_NE(digest_of(fewer).sum(), base.sum());
}

}  // namespace
}  // namespace keel::store
