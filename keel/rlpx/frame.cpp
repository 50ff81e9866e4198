#include "keel/rlpx/frame.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <climits>
#include <cstring>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/rlp/decode.hpp"

namespace keel::rlpx {

namespace {

// AES-256 implementations fetched once per process (DESIGN.md §4.3): EVP_EncryptInit_ex with a
// fetched cipher skips the implicit provider lookup that the legacy EVP_aes_256_*() objects do
// on every context initialisation.
const EVP_CIPHER* aes_256_ctr() noexcept {
    static EVP_CIPHER* const cipher = EVP_CIPHER_fetch(nullptr, "AES-256-CTR", nullptr);
    KEEL_ASSERT(cipher != nullptr);
    return cipher;
}

const EVP_CIPHER* aes_256_ecb() noexcept {
    static EVP_CIPHER* const cipher = EVP_CIPHER_fetch(nullptr, "AES-256-ECB", nullptr);
    KEEL_ASSERT(cipher != nullptr);
    return cipher;
}

EVP_CIPHER_CTX* new_context(const EVP_CIPHER* cipher, const Hash32& key, bool padding_off) {
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    KEEL_ASSERT(ctx != nullptr);
    // rlpx.md: AES-256-CTR with a zero IV (the stream starts at counter 0).
    static constexpr std::uint8_t kZeroIv[16] = {};
    KEEL_ASSERT(EVP_EncryptInit_ex(ctx, cipher, nullptr, key.data(), kZeroIv) == 1);
    if (padding_off) KEEL_ASSERT(EVP_CIPHER_CTX_set_padding(ctx, 0) == 1);
    return ctx;
}

// The body is encrypted (or decrypted) and absorbed into the MAC in chunks of this many bytes,
// so that each chunk is still in L1/L2 when the second pass reads it; a multiple of the Keccak
// rate keeps the MAC on its whole-block absorb path.
constexpr std::size_t kChunk = crypto::Keccak256::kRate * 96;  // 13,056 bytes

constexpr std::size_t padded16(std::size_t n) noexcept {
    return (n + 15) & ~std::size_t{15};
}

// One MAC step (rlpx.md "Framing"): mac.update(aes-ecb(mac-secret, digest[:16]) ^ xor16), then
// out16 = digest(mac)[:16]. For the header, xor16 is the header ciphertext; for the frame, it
// is the digest itself (pass nullptr).
template <class Mac>
void mac_step(Mac& mac, detail::FrameCipher& cipher, const std::uint8_t* xor16,
              std::uint8_t* out16) noexcept {
    std::uint8_t digest[32];
    mac.finalize_to(digest);
    std::uint8_t seed[16];
    cipher.ecb(digest, seed);
    const std::uint8_t* x = xor16 != nullptr ? xor16 : digest;
    for (std::size_t i = 0; i < 16; ++i) seed[i] ^= x[i];
    mac.update(BytesView(seed, 16));
    mac.finalize_to(digest);
    std::memcpy(out16, digest, 16);
}

// rlp(code) at p (`len` = message_code_size(code) bytes): a byte below 0x80 is itself, 0 is
// 0x80 (the empty string), larger values 0x80 + k || BE(code) (YP app. B).
void put_code(std::uint8_t* p, std::uint64_t code, std::size_t len) noexcept {
    if (code < 0x80) {
        p[0] = code == 0 ? std::uint8_t{0x80} : static_cast<std::uint8_t>(code);
        return;
    }
    const std::size_t k = len - 1;
    p[0] = static_cast<std::uint8_t>(0x80 + k);
    for (std::size_t i = 0; i < k; ++i)
        p[1 + i] = static_cast<std::uint8_t>(code >> (8 * (k - 1 - i)));
}

}  // namespace

std::string_view describe(FrameErrc e) noexcept {
    switch (e) {
        case FrameErrc::bad_header_mac:
            return "bad header MAC";
        case FrameErrc::bad_frame_mac:
            return "bad frame MAC";
        case FrameErrc::frame_too_large:
            return "frame too large";
        case FrameErrc::empty_frame:
            return "empty frame (frame-size 0, no message code)";
        case FrameErrc::bad_message_code:
            return "bad message code RLP";
        case FrameErrc::payload_too_large:
            return "message too large for one frame";
        case FrameErrc::reader_failed:
            return "frame stream already failed";
    }
    return "unknown frame error";
}

std::string to_string(const FrameError& e) {
    std::string out = "RLPx frame ";
    out += std::to_string(e.frame);
    out += " at stream offset ";
    out += std::to_string(e.offset);
    out += ": ";
    out += describe(e.code);
    switch (e.code) {
        case FrameErrc::frame_too_large:
        case FrameErrc::payload_too_large:
            out += " (frame-size " + std::to_string(e.size) + ", limit " + std::to_string(e.limit) +
                   ")";
            break;
        case FrameErrc::bad_message_code:
            out += ": ";
            out += rlp::describe(e.rlp);
            break;
        default:
            break;
    }
    return out;
}

void ConstantDigest::finalize_to(std::uint8_t* out32) const noexcept {
    std::memcpy(out32, digest_.data(), 32);
}

// ---- FrameCipher -------------------------------------------------------------------------------

namespace detail {

FrameCipher::FrameCipher(const Hash32& aes_secret, const Hash32& mac_secret)
    : ctr_(new_context(aes_256_ctr(), aes_secret, false)),
      ecb_(new_context(aes_256_ecb(), mac_secret, true)) {}

FrameCipher::FrameCipher(FrameCipher&& other) noexcept
    : ctr_(std::exchange(other.ctr_, nullptr)), ecb_(std::exchange(other.ecb_, nullptr)) {}

FrameCipher& FrameCipher::operator=(FrameCipher&& other) noexcept {
    if (this != &other) {
        EVP_CIPHER_CTX_free(static_cast<EVP_CIPHER_CTX*>(ctr_));
        EVP_CIPHER_CTX_free(static_cast<EVP_CIPHER_CTX*>(ecb_));
        ctr_ = std::exchange(other.ctr_, nullptr);
        ecb_ = std::exchange(other.ecb_, nullptr);
    }
    return *this;
}

FrameCipher::~FrameCipher() {
    EVP_CIPHER_CTX_free(static_cast<EVP_CIPHER_CTX*>(ctr_));
    EVP_CIPHER_CTX_free(static_cast<EVP_CIPHER_CTX*>(ecb_));
}

void FrameCipher::ctr(std::uint8_t* data, std::size_t n) noexcept {
    auto* ctx = static_cast<EVP_CIPHER_CTX*>(ctr_);
    while (n != 0) {
        // EVP lengths are int; frames are below 2^25 bytes, the loop is for form's sake.
        const int len = n > (std::size_t{1} << 30) ? (1 << 30) : static_cast<int>(n);
        int out_len = 0;
        KEEL_ASSERT(EVP_EncryptUpdate(ctx, data, &out_len, data, len) == 1);
        data += len;
        n -= static_cast<std::size_t>(len);
    }
}

void FrameCipher::ecb(const std::uint8_t* in16, std::uint8_t* out16) noexcept {
    int out_len = 0;
    KEEL_ASSERT(EVP_EncryptUpdate(static_cast<EVP_CIPHER_CTX*>(ecb_), out16, &out_len, in16, 16) ==
                1);
    KEEL_ASSERT(out_len == 16);
}

}  // namespace detail

// ---- writer ------------------------------------------------------------------------------------

template <class Mac>
BasicFrameWriter<Mac>::BasicFrameWriter(const Hash32& aes_secret, const Hash32& mac_secret,
                                        const Mac& egress_mac)
    : cipher_(aes_secret, mac_secret), mac_(egress_mac) {}

template <class Mac>
std::unexpected<FrameError> BasicFrameWriter<Mac>::too_large(
    std::size_t frame_size) const noexcept {
    FrameError e;
    e.code = FrameErrc::payload_too_large;
    e.size = frame_size > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(frame_size);
    e.limit = static_cast<std::uint32_t>(kMaxFrameSize);
    e.frame = frames_;
    e.offset = offset_;
    return std::unexpected(e);
}

template <class Mac>
void BasicFrameWriter<Mac>::seal(std::uint8_t* f, std::size_t frame_size) noexcept {
    const std::size_t padded = padded16(frame_size);

    // Header: uint24 frame-size || rlp([capability-id = 0, context-id = 0]) = c2 80 80 || zeros.
    f[0] = static_cast<std::uint8_t>(frame_size >> 16);
    f[1] = static_cast<std::uint8_t>(frame_size >> 8);
    f[2] = static_cast<std::uint8_t>(frame_size);
    f[3] = 0xc2;
    f[4] = 0x80;
    f[5] = 0x80;
    std::memset(f + 6, 0, 10);
    cipher_.ctr(f, 16);
    mac_step(mac_, cipher_, f, f + 16);

    // Body: zero padding to 16, then encrypt in place and absorb the ciphertext chunk by chunk.
    std::uint8_t* body = f + kFrameHeaderSize;
    std::memset(body + frame_size, 0, padded - frame_size);
    for (std::size_t done = 0; done < padded;) {
        const std::size_t n = padded - done < kChunk ? padded - done : kChunk;
        cipher_.ctr(body + done, n);
        mac_.update(BytesView(body + done, n));
        done += n;
    }
    mac_step(mac_, cipher_, nullptr, body + padded);
    ++frames_;
    offset_ += kFrameHeaderSize + padded + kFrameMacSize;
}

template <class Mac>
MutableBytesView BasicFrameWriter<Mac>::begin(std::uint64_t code, std::size_t max_payload,
                                              Bytes& out) {
    KEEL_ASSERT(max_payload <= (std::size_t{1} << 40));
    start_ = out.size();
    code_len_ = message_code_size(code);
    max_payload_ = max_payload;
    open_ = true;
    out.resize(start_ + frame_wire_size(code_len_ + max_payload));
    std::uint8_t* p = out.data() + start_ + kFrameHeaderSize;
    put_code(p, code, code_len_);
    return {p + code_len_, max_payload};
}

template <class Mac>
Result<void, FrameError> BasicFrameWriter<Mac>::finish(std::size_t payload_size, Bytes& out) {
    KEEL_ASSERT(open_ && payload_size <= max_payload_);
    KEEL_ASSERT(out.size() >= start_ + frame_wire_size(code_len_ + max_payload_));
    open_ = false;
    const std::size_t frame_size = code_len_ + payload_size;
    if (frame_size > kMaxFrameSize) [[unlikely]] {
        out.resize(start_);
        return too_large(frame_size);
    }
    seal(out.data() + start_, frame_size);
    out.resize(start_ + frame_wire_size(frame_size));
    return {};
}

template <class Mac>
Result<void, FrameError> BasicFrameWriter<Mac>::write(std::uint64_t code, BytesView payload,
                                                      Bytes& out) {
    open_ = false;
    const std::size_t code_len = message_code_size(code);
    if (payload.size() > kMaxFrameSize - code_len) [[unlikely]]
        return too_large(code_len + payload.size());
    const std::size_t frame_size = code_len + payload.size();
    const std::size_t start = out.size();
    // Appended piece by piece (growing geometrically, as any append): the payload is copied
    // once and no byte is zero-filled only to be overwritten.
    std::uint8_t head[kFrameHeaderSize + 9] = {};
    put_code(head + kFrameHeaderSize, code, code_len);
    out.insert(out.end(), head, head + kFrameHeaderSize + code_len);
    out.insert(out.end(), payload.begin(), payload.end());
    out.insert(out.end(), padded16(frame_size) - frame_size + kFrameMacSize, std::uint8_t{0});
    seal(out.data() + start, frame_size);
    return {};
}

// ---- reader ------------------------------------------------------------------------------------

template <class Mac>
BasicFrameReader<Mac>::BasicFrameReader(const Hash32& aes_secret, const Hash32& mac_secret,
                                        const Mac& ingress_mac, std::size_t max_frame_size)
    : cipher_(aes_secret, mac_secret), mac_(ingress_mac), max_frame_size_(max_frame_size) {
    KEEL_ASSERT(max_frame_size <= kMaxFrameSize);
}

template <class Mac>
std::unexpected<FrameError> BasicFrameReader<Mac>::fail(FrameErrc code,
                                                        std::uint32_t size) noexcept {
    FrameError e;
    e.code = code;
    e.frame = frames_;
    e.offset = offset_;
    if (code == FrameErrc::frame_too_large) {
        e.size = size;
        e.limit = static_cast<std::uint32_t>(max_frame_size_);
    }
    failed_ = true;
    needed_ = 0;
    return std::unexpected(e);
}

template <class Mac>
Result<void, FrameError> BasicFrameReader<Mac>::read_header(MutableBytesView in) noexcept {
    if (failed_) [[unlikely]]
        return fail(FrameErrc::reader_failed);
    KEEL_ASSERT(!in_body_ && in.size() == kFrameHeaderSize);
    std::uint8_t* h = in.data();
    // Verify before decrypting: the MAC covers the header ciphertext.
    std::uint8_t expect[16];
    mac_step(mac_, cipher_, h, expect);
    if (CRYPTO_memcmp(expect, h + 16, 16) != 0) [[unlikely]]
        return fail(FrameErrc::bad_header_mac);
    cipher_.ctr(h, 16);
    // The rest of the header (header-data and padding) is not looked at: capability-id and
    // context-id are unused since the multiplexing was dropped, as go-ethereum does.
    const std::size_t frame_size = std::size_t{h[0]} << 16 | std::size_t{h[1]} << 8 | h[2];
    if (frame_size > max_frame_size_) [[unlikely]]
        return fail(FrameErrc::frame_too_large, static_cast<std::uint32_t>(frame_size));
    frame_size_ = frame_size;
    needed_ = padded16(frame_size) + kFrameMacSize;
    in_body_ = true;
    return {};
}

template <class Mac>
Result<Frame, FrameError> BasicFrameReader<Mac>::read_body(MutableBytesView in) noexcept {
    if (failed_) [[unlikely]]
        return fail(FrameErrc::reader_failed);
    KEEL_ASSERT(in_body_ && in.size() == needed_);
    std::uint8_t* body = in.data();
    const std::size_t padded = needed_ - kFrameMacSize;
    // Absorb and decrypt chunk by chunk (one pass through the cache). Decrypting before the MAC
    // is known to match is harmless: on a mismatch the plaintext is never handed out.
    for (std::size_t done = 0; done < padded;) {
        const std::size_t n = padded - done < kChunk ? padded - done : kChunk;
        mac_.update(BytesView(body + done, n));
        cipher_.ctr(body + done, n);
        done += n;
    }
    std::uint8_t expect[16];
    mac_step(mac_, cipher_, nullptr, expect);
    if (CRYPTO_memcmp(expect, body + padded, 16) != 0) [[unlikely]]
        return fail(FrameErrc::bad_frame_mac);
    if (frame_size_ == 0) [[unlikely]]
        return fail(FrameErrc::empty_frame);

    // rlpx.md: frame-data = rlp(msg-id) || msg-data; the id is a canonical RLP integer.
    rlp::Decoder d(BytesView(body, frame_size_));
    auto code = d.next_uint<std::uint64_t>();
    if (!code) [[unlikely]] {
        auto e = fail(FrameErrc::bad_message_code);
        e.error().rlp = code.error().code;
        return e;
    }
    ++frames_;
    offset_ += kFrameHeaderSize + needed_;
    needed_ = kFrameHeaderSize;
    in_body_ = false;
    return Frame{*code, d.remaining()};
}

template <class Mac>
Result<std::optional<Frame>, FrameError> BasicFrameReader<Mac>::read(
    MutableBytesView in, std::size_t& consumed) noexcept {
    consumed = 0;
    if (failed_) [[unlikely]]
        return fail(FrameErrc::reader_failed);
    if (!in_body_) {
        if (in.size() < kFrameHeaderSize) return std::optional<Frame>{};
        if (auto r = read_header(in.first(kFrameHeaderSize)); !r) [[unlikely]]
            return std::unexpected(r.error());
        consumed = kFrameHeaderSize;
    }
    const std::size_t body = needed_;
    if (in.size() - consumed < body) return std::optional<Frame>{};
    auto frame = read_body(in.subspan(consumed, body));
    if (!frame) [[unlikely]]
        return std::unexpected(frame.error());
    consumed += body;
    return std::optional<Frame>{*frame};
}

template class BasicFrameWriter<crypto::Keccak256>;
template class BasicFrameReader<crypto::Keccak256>;
template class BasicFrameWriter<ConstantDigest>;
template class BasicFrameReader<ConstantDigest>;

}  // namespace keel::rlpx
