// HMAC-SHA256 against RFC 4231 and HKDF-SHA256 against RFC 5869 (appendix A.1-A.3).
#include <gtest/gtest.h>

#include <string_view>

#include "keel/common/hex.hpp"
#include "keel/crypto/hmac.hpp"

namespace keel::crypto {
namespace {

Bytes h(std::string_view s) {
    return *hex::decode(s);
}
BytesView text(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

TEST(Hmac, Rfc4231) {
    // Test case 1: key 20 x 0x0b, "Hi There".
    EXPECT_EQ(hex::encode(hmac_sha256(Bytes(20, 0x0b), text("Hi There")).view()),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    // Test case 2: key "Jefe".
    EXPECT_EQ(hex::encode(hmac_sha256(text("Jefe"), text("what do ya want for nothing?")).view()),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(Hkdf, Rfc5869) {
    // A.1: basic test case.
    const Hash32 prk = hkdf_sha256_extract(h("000102030405060708090a0b0c"), Bytes(22, 0x0b));
    EXPECT_EQ(hex::encode(prk.view()),
              "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
    Bytes okm(42);
    hkdf_sha256_expand(prk.view(), h("f0f1f2f3f4f5f6f7f8f9"), okm);
    EXPECT_EQ(
        hex::encode(okm),
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    // A.3: zero-length salt and info.
    const Hash32 prk3 = hkdf_sha256_extract({}, Bytes(22, 0x0b));
    EXPECT_EQ(hex::encode(prk3.view()),
              "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04");
    hkdf_sha256_expand(prk3.view(), {}, okm);
    EXPECT_EQ(
        hex::encode(okm),
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
}

}  // namespace
}  // namespace keel::crypto
