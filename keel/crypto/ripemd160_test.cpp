// RIPEMD-160: the designers' test vectors, and OpenSSL's RIPEMD-160 on every length 0..300
// (each padding case: the tail fits the last block or needs another).
#include "keel/crypto/ripemd160.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <string>

#include "keel/common/hex.hpp"
#include "test/testutil/data.hpp"

namespace keel::crypto {
namespace {

std::string hex_ripemd(std::string_view s) {
    const auto h = ripemd160({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
    return hex::encode(BytesView(h.data(), h.size()));
}

TEST(Ripemd160, DesignersVectors) {
    EXPECT_EQ(hex_ripemd(""), "9c1185a5c5e9fc54612808977ee8f548b2258d31");
    EXPECT_EQ(hex_ripemd("a"), "0bdc9d2d256b3ee9daae347be6f4dc835a467ffe");
    EXPECT_EQ(hex_ripemd("abc"), "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc");
    EXPECT_EQ(hex_ripemd("message digest"), "5d0689ef49d2fae572b881b123a85ffa21595f36");
    EXPECT_EQ(hex_ripemd("abcdefghijklmnopqrstuvwxyz"), "f71c27109c692c1b56bbdceb5b9d2865b3708dbc");
    EXPECT_EQ(hex_ripemd("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "12a053384a9c0c88e405a06c27dcf49ada62eb2b");
    EXPECT_EQ(hex_ripemd(std::string(1000000, 'a')), "52783243c1697bdbe16d37f97f68f08325dc1528");
}

TEST(Ripemd160, AgreesWithOpenSslOnEveryLengthTo300) {
    EVP_MD* md = EVP_MD_fetch(nullptr, "RIPEMD160", nullptr);
    ASSERT_NE(md, nullptr) << "OpenSSL has no RIPEMD160 (Debian 12's 3.0 has it in the default "
                              "provider)";
    const Bytes data = testutil::seeded_bytes(300, 7);
    for (std::size_t n = 0; n <= data.size(); ++n) {
        std::uint8_t want[EVP_MAX_MD_SIZE];
        unsigned len = 0;
        ASSERT_EQ(EVP_Digest(data.data(), n, want, &len, md, nullptr), 1);
        ASSERT_EQ(len, 20u);
        const auto got = ripemd160(BytesView(data).first(n));
        EXPECT_EQ(hex::encode(BytesView(got.data(), 20)), hex::encode(BytesView(want, 20)))
            << n << " bytes";
    }
    EVP_MD_free(md);
}

}  // namespace
}  // namespace keel::crypto
