// eth::blob_base_fee against EIP-4844's fake_exponential loop run in GMP's unbounded integers.
// (Here rather than in keel_eth_test because keel_evm, which reads the fee for BLOBBASEFEE,
// already links GMP.) The fee used to be summed in 256-bit words: a term times the numerator
// wrapped, and with a large excess the loop never ended.
#include <gmp.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "keel/eth/chain_config.hpp"
#include "test/testutil/gmp_uint256.hpp"

namespace keel::eth {
namespace {

using testutil::gmp::Z;
__extension__ typedef unsigned __int128 U128;

/// The spec's loop, verbatim, in unbounded integers; false when the result needs more than 256
/// bits (then `out` is untouched). Only called where the loop ends quickly.
bool spec_fee(std::uint64_t excess, std::uint64_t fraction, Uint256& out) {
    Z output, accum, numerator, denominator, step, i;
    mpz_set_ui(numerator, excess);
    mpz_set_ui(denominator, fraction);
    mpz_set(accum, denominator);  // factor (1) * denominator
    mpz_set_ui(i, 1);
    while (mpz_sgn(accum.get()) > 0) {
        mpz_add(output, output, accum);
        mpz_mul(accum, accum, numerator);
        mpz_mul(step, denominator, i);
        mpz_fdiv_q(accum, accum, step);
        mpz_add_ui(i, i, 1);
    }
    mpz_fdiv_q(output, output, denominator);
    if (mpz_sizeinbase(output, 2) > 256) return false;
    std::array<std::uint64_t, 4> limbs{};
    std::size_t count = 0;
    mpz_export(limbs.data(), &count, -1, sizeof(std::uint64_t), 0, 0, output);
    out = Uint256::from_limbs(limbs);
    return true;
}

void expect_as_spec(std::uint64_t excess, std::uint64_t fraction) {
    SCOPED_TRACE("excess " + std::to_string(excess) + ", fraction " + std::to_string(fraction));
    Uint256 want;
    if (spec_fee(excess, fraction, want)) {
        EXPECT_EQ(blob_base_fee(excess, fraction), want);
    } else {
        EXPECT_EQ(blob_base_fee(excess, fraction), Uint256::max());
    }
}

TEST(BlobBaseFee, EqualsTheSpecLoopInUnboundedIntegers) {
    // The forks' fractions and some odd ones, over excesses up to where the value stops fitting
    // (e^(excess/fraction) >= 2^256 from excess/fraction of about 177.4) and a little beyond.
    const std::vector<std::uint64_t> fractions = {1,
                                                  2,
                                                  3,
                                                  7,
                                                  1000,
                                                  3338477,
                                                  5007716,
                                                  8346193,
                                                  11684671,
                                                  std::uint64_t{1} << 40,
                                                  std::numeric_limits<std::uint64_t>::max()};
    std::mt19937_64 rng(4844);
    for (const std::uint64_t d : fractions) {
        for (std::uint64_t k = 0; k <= 200; ++k) {
            const U128 e = static_cast<U128>(d) * k;
            if (e > std::numeric_limits<std::uint64_t>::max()) break;
            expect_as_spec(static_cast<std::uint64_t>(e), d);
            // and a random point inside the next unit
            const U128 r = e + rng() % d;
            if (r <= std::numeric_limits<std::uint64_t>::max())
                expect_as_spec(static_cast<std::uint64_t>(r), d);
        }
    }
    // Random small pairs: the loop's floor divisions at every scale.
    for (int n = 0; n < 2000; ++n) {
        const std::uint64_t d = 1 + rng() % 100000;
        expect_as_spec(rng() % (180 * d), d);
    }
}

TEST(BlobBaseFee, LargeExcessSaturatesInsteadOfLooping) {
    // The reproducer's header fields: an excess of 2^64 - 1 with every fork's fraction. The
    // 256-bit loop never ended on these.
    const std::uint64_t huge = std::numeric_limits<std::uint64_t>::max();
    for (const std::uint64_t d : {std::uint64_t{1}, std::uint64_t{3338477}, std::uint64_t{5007716}})
        EXPECT_EQ(blob_base_fee(huge, d), Uint256::max()) << d;
    // Just below and above the 2^256 boundary for fraction 1: e^177 < 2^256 < e^178 (the
    // truncated series is a little below e^x, so compare with the exact loop).
    for (std::uint64_t x = 170; x <= 190; ++x) expect_as_spec(x, 1);
    // A fraction as large as the excess: e^1.
    EXPECT_EQ(blob_base_fee(huge, huge), Uint256(2));
}

TEST(BlobBaseFee, ParamsProblemsNameTheField) {
    EXPECT_EQ(blob_params_problem({3, 6, 3338477}), "");
    EXPECT_EQ(blob_params_problem({0, 0, 1}), "");
    EXPECT_EQ(blob_params_problem({3, 6, 0}), "baseFeeUpdateFraction is 0");
    EXPECT_NE(blob_params_problem({7, 6, 1}).find("target"), std::string::npos);
    EXPECT_NE(blob_params_problem({1, std::uint64_t{1} << 47, 1}).find("max"), std::string::npos);
}

}  // namespace
}  // namespace keel::eth
