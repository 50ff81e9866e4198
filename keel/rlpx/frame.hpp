#pragma once
/// The RLPx frame codec (devp2p rlpx.md, "Framing"): AES-256-CTR over header and body, the
/// Keccak-256 ingress/egress MACs with the AES-256-ECB step, 16-byte padding.
///
/// Wire form of one frame (https://github.com/ethereum/devp2p/blob/master/rlpx.md#framing):
///
///   header-ciphertext(16) || header-mac(16) || frame-ciphertext(ceil(frame-size/16)*16) ||
///   frame-mac(16)
///
///   header   = frame-size (uint24, big-endian) || rlp([capability-id, context-id]) = c2 80 80
///              || zero padding to 16 bytes
///   frame    = rlp(msg-code) || msg-payload || zero padding to a multiple of 16
///   frame-size = length of rlp(msg-code) || msg-payload (without the padding)
///
///   header-mac-seed = aes-ecb(mac-secret, digest(mac)[:16]) ^ header-ciphertext
///   mac.update(header-mac-seed); header-mac = digest(mac)[:16]
///   mac.update(frame-ciphertext)
///   frame-mac-seed  = aes-ecb(mac-secret, digest(mac)[:16]) ^ digest(mac)[:16]
///   mac.update(frame-mac-seed);  frame-mac  = digest(mac)[:16]
///
/// Both directions encrypt with AES-256-CTR keyed by the aes secret, zero IV, one continuous
/// key stream per direction for the whole session (the header and body of every frame follow
/// each other in the stream). The message code is an RLP integer (code 0x80 is `81 80`).
///
/// Speed: one EVP context per direction (CTR) plus one for the ECB step, set up once per
/// session; frames are encrypted and decrypted in place in the caller's buffer; the body
/// ciphertext is absorbed into the MAC in large blocks; no allocation per frame once the
/// caller's buffers have grown. MAC states are plain copyable hash objects.
///
/// Errors: FrameError (code + frame index + stream offset), to_string() gives one line. A
/// reader that has returned an error is spent: the peer's stream can no longer be followed, so
/// every later call fails with FrameErrc::reader_failed and the session must be closed.
///
/// Threading: a writer and a reader are each used by one thread at a time; the writer and the
/// reader of one session are independent and may run on different threads.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/errors.hpp"

namespace keel::rlpx {

/// Size of the encrypted header plus its MAC: what a reader needs before it knows a frame's size.
inline constexpr std::size_t kFrameHeaderSize = 32;

/// Size of a MAC on the wire (header-mac, frame-mac).
inline constexpr std::size_t kFrameMacSize = 16;

/// The largest frame-size the uint24 header field can carry (16 MiB - 1): the default and the
/// upper bound of a reader's cap.
inline constexpr std::size_t kMaxFrameSize = (std::size_t{1} << 24) - 1;

/// Bytes of a frame whose frame-size (rlp(code) || payload) is `frame_size`: header, header MAC,
/// the body padded to 16, frame MAC.
constexpr std::size_t frame_wire_size(std::size_t frame_size) noexcept {
    return kFrameHeaderSize + ((frame_size + 15) & ~std::size_t{15}) + kFrameMacSize;
}

/// Encoded size of the message code (an RLP integer: 1 byte below 0x80, else 1 + its bytes).
constexpr std::size_t message_code_size(std::uint64_t code) noexcept {
    std::size_t n = 1;
    if (code >= 0x80)
        for (std::uint64_t v = code; v != 0; v >>= 8) ++n;
    return n;
}

/// What was wrong with a frame.
enum class FrameErrc : std::uint8_t {
    bad_header_mac,     ///< the header MAC does not match (tampered, corrupt, or wrong secrets)
    bad_frame_mac,      ///< the frame MAC over the body ciphertext does not match
    frame_too_large,    ///< frame-size above the cap; FrameError::size and ::limit say how much
    empty_frame,        ///< frame-size 0: no room for the message code
    bad_message_code,   ///< the body does not start with a canonical RLP integer; ::rlp says why
    payload_too_large,  ///< (writer) rlp(code) || payload does not fit a frame; ::size, ::limit
    reader_failed,      ///< an earlier frame failed; the stream cannot be followed any more
};

/// A short human phrase for the code, e.g. "bad frame MAC".
std::string_view describe(FrameErrc e) noexcept;

/// A frame error: what went wrong, in which frame, where in the stream.
struct FrameError {
    FrameErrc code = FrameErrc::bad_header_mac;
    /// The RLP rule broken by the message code (code == bad_message_code only).
    rlp::Errc rlp = rlp::Errc::empty_input;
    /// frame_too_large, payload_too_large: the size found and the cap; 0 otherwise.
    std::uint32_t size = 0;
    std::uint32_t limit = 0;
    /// Index of the frame in its direction of the session (0 = the first frame).
    std::uint64_t frame = 0;
    /// Stream offset of the frame's first byte (bytes of earlier frames in this direction).
    std::uint64_t offset = 0;

    friend constexpr bool operator==(const FrameError&, const FrameError&) = default;
};

/// One line, e.g. "RLPx frame 3 at stream offset 4160: bad frame MAC".
std::string to_string(const FrameError& e);

/// A decoded frame: the message code and a view of the payload (after the code, without the
/// padding) into the caller's buffer, valid while that buffer is.
struct Frame {
    std::uint64_t code = 0;
    BytesView payload;
};

/// A stand-in for the MAC hash whose digest is always the same 32 bytes and whose update()
/// ignores its input. Exists only for go-ethereum's frame vector (rlpx_test.go
/// TestFrameReadWrite), which was written with such a fake hash; real sessions use
/// crypto::Keccak256.
class ConstantDigest {
  public:
    /// A hash whose every digest is `digest`.
    explicit ConstantDigest(const Hash32& digest) noexcept : digest_(digest) {}
    void update(BytesView) noexcept {}
    void finalize_to(std::uint8_t* out32) const noexcept;

  private:
    Hash32 digest_;
};

namespace detail {

/// AES-256 keyed once, through OpenSSL EVP: a CTR stream (zero IV) and the single-block ECB step
/// of the MAC. Owns two EVP contexts; movable, not copyable. Aborts (KEEL_ASSERT) only if OpenSSL
/// cannot set up AES at all, which no input can cause.
class FrameCipher {
  public:
    FrameCipher(const Hash32& aes_secret, const Hash32& mac_secret);
    FrameCipher(FrameCipher&& other) noexcept;
    FrameCipher& operator=(FrameCipher&& other) noexcept;
    FrameCipher(const FrameCipher&) = delete;
    FrameCipher& operator=(const FrameCipher&) = delete;
    ~FrameCipher();

    /// XORs the next `n` bytes of the CTR key stream into `data`, in place.
    void ctr(std::uint8_t* data, std::size_t n) noexcept;
    /// out16 = AES-256-ECB(mac-secret, in16); in and out may be the same.
    void ecb(const std::uint8_t* in16, std::uint8_t* out16) noexcept;

  private:
    void* ctr_ = nullptr;  // EVP_CIPHER_CTX*, kept opaque so that OpenSSL stays out of the header
    void* ecb_ = nullptr;
};

}  // namespace detail

/// Writes frames: encrypts and MACs them in place in a caller's buffer (egress direction).
/// `Mac` is crypto::Keccak256 for real sessions (FrameWriter); see ConstantDigest.
template <class Mac>
class BasicFrameWriter {
  public:
    /// A writer for a session's egress side: `egress_mac` is the MAC state the handshake seeded
    /// ((mac-secret ^ recipient nonce) || initiator's packet, or the mirror image).
    BasicFrameWriter(const Hash32& aes_secret, const Hash32& mac_secret, const Mac& egress_mac);

    /// Appends one whole frame carrying message `code` and `payload` to `out` (after what is
    /// there, so several frames can be batched into one send). `payload` must not point into
    /// `out`. Errors: payload_too_large (out unchanged, writer unchanged).
    [[nodiscard]] Result<void, FrameError> write(std::uint64_t code, BytesView payload, Bytes& out);

    /// Starts a frame at the end of `out` for a payload of at most `max_payload` bytes whose
    /// bytes the caller writes into the returned slot (e.g. snappy straight into the frame:
    /// no copy), then calls finish(). The slot is valid until `out` is touched otherwise.
    /// A begin() not followed by finish() is forgotten by the next begin()/write(); its bytes
    /// stay in `out` until the caller cuts `out` back to its size before begin().
    MutableBytesView begin(std::uint64_t code, std::size_t max_payload, Bytes& out);

    /// Completes the frame begun last, whose payload is the first `payload_size` (<=
    /// max_payload, asserted) bytes of the slot: encrypts, MACs, cuts `out` to the frame's end.
    /// Errors: payload_too_large (the begun frame is removed from `out`, writer unchanged).
    [[nodiscard]] Result<void, FrameError> finish(std::size_t payload_size, Bytes& out);

    /// Frames written so far, and their bytes.
    std::uint64_t frames() const noexcept { return frames_; }
    std::uint64_t stream_offset() const noexcept { return offset_; }

  private:
    // Writes the header of the frame at f (frame-size bytes of body already in place), pads,
    // encrypts and MACs it; counts it.
    void seal(std::uint8_t* f, std::size_t frame_size) noexcept;
    std::unexpected<FrameError> too_large(std::size_t frame_size) const noexcept;

    detail::FrameCipher cipher_;
    Mac mac_;
    std::uint64_t frames_ = 0;
    std::uint64_t offset_ = 0;
    std::size_t start_ = 0;     // begin(): where the frame starts in out
    std::size_t code_len_ = 0;  // begin(): rlp(code) bytes
    std::size_t max_payload_ = 0;
    bool open_ = false;
};

/// Reads frames: verifies and decrypts them in place in a caller's buffer (ingress direction).
///
/// Use: give it exactly needed() bytes at a time: first the 32-byte header (read_header()),
/// then the padded body and its MAC (read_body()), which returns the frame; repeat.
template <class Mac>
class BasicFrameReader {
  public:
    /// A reader for a session's ingress side; frames whose frame-size exceeds `max_frame_size`
    /// (at most kMaxFrameSize, asserted) are refused after the header MAC is checked.
    BasicFrameReader(const Hash32& aes_secret, const Hash32& mac_secret, const Mac& ingress_mac,
                     std::size_t max_frame_size = kMaxFrameSize);

    /// Bytes the next call needs: kFrameHeaderSize when a header is due, else the padded body
    /// plus kFrameMacSize; 0 once the reader has failed.
    std::size_t needed() const noexcept { return needed_; }

    /// True when the next call is read_header().
    bool expects_header() const noexcept { return !in_body_; }

    /// Checks the header MAC, decrypts the header (in place) and takes the frame-size from it.
    /// `in` must be exactly needed() bytes and a header must be due (asserted).
    /// Errors: bad_header_mac, frame_too_large, reader_failed.
    [[nodiscard]] Result<void, FrameError> read_header(MutableBytesView in) noexcept;

    /// Checks the frame MAC, decrypts the body in place and splits it into code and payload.
    /// `in` must be exactly needed() bytes after a successful read_header() (asserted); the
    /// payload views `in`. Errors: bad_frame_mac, empty_frame, bad_message_code, reader_failed.
    [[nodiscard]] Result<Frame, FrameError> read_body(MutableBytesView in) noexcept;

    /// Does what `in` allows towards the next frame, from its front: reads the header if one is
    /// due and `in` holds it, then the body if `in` holds it. `consumed` is set to the bytes
    /// used (the caller drops them, they were decrypted in place): 0, the header, the body, or
    /// both. Returns the frame once its body was read, std::nullopt while more bytes are needed
    /// (needed() says how many). Errors: those of read_header() and read_body().
    [[nodiscard]] Result<std::optional<Frame>, FrameError> read(MutableBytesView in,
                                                                std::size_t& consumed) noexcept;

    /// Frames read so far, and their bytes.
    std::uint64_t frames() const noexcept { return frames_; }
    std::uint64_t stream_offset() const noexcept { return offset_; }

  private:
    std::unexpected<FrameError> fail(FrameErrc code, std::uint32_t size = 0) noexcept;

    detail::FrameCipher cipher_;
    Mac mac_;
    std::size_t max_frame_size_;
    std::size_t frame_size_ = 0;  // of the frame whose header was read
    std::size_t needed_ = kFrameHeaderSize;
    std::uint64_t frames_ = 0;
    std::uint64_t offset_ = 0;
    bool in_body_ = false;
    bool failed_ = false;
};

/// The frame codec of real sessions.
using FrameWriter = BasicFrameWriter<crypto::Keccak256>;
using FrameReader = BasicFrameReader<crypto::Keccak256>;

extern template class BasicFrameWriter<crypto::Keccak256>;
extern template class BasicFrameReader<crypto::Keccak256>;
extern template class BasicFrameWriter<ConstantDigest>;
extern template class BasicFrameReader<ConstantDigest>;

}  // namespace keel::rlpx
