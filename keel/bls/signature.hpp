#pragma once
/// Ethereum's BLS signatures: the ciphersuite BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_ of
/// draft-irtf-cfrg-bls-signature-05 (public keys in G1, 48 bytes; signatures in G2, 96 bytes;
/// proof-of-possession scheme), with the consensus specs' eth_aggregate_pubkeys and
/// eth_fast_aggregate_verify.
///
///   auto sk = SecretKey::key_gen(ikm);                  // or SecretKey::from_bytes(32 bytes)
///   PublicKey pk = sk->public_key();
///   Signature sig = sign(*sk, msg);
///   bool ok = verify(pk, msg, sig);
///
/// PublicKey holds the decompressed point, already checked the way KeyValidate asks (on the
/// curve, in G1, not the identity): decode a validator's key once, verify with it many times.
/// Signature holds a point checked to be in G2 (the identity is a valid encoding; it verifies
/// nothing). Secret-key operations run in constant time and secret values are wiped.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "keel/bls/affine.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/hash_to_curve.hpp"
#include "keel/bls/scalar.hpp"
#include "keel/bls/serialize.hpp"
#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::bls {

class PublicKey;

/// A secret key: a non-zero scalar below r. Not copyable (one owner, wiped on destruction).
class SecretKey {
  public:
    /// 32 big-endian bytes of a value in 1..r-1, or nullopt.
    static std::optional<SecretKey> from_bytes(BytesView be) noexcept;
    /// KeyGen(IKM) (scalar.hpp); nullopt when IKM is shorter than 32 bytes.
    static std::optional<SecretKey> key_gen(BytesView ikm, BytesView key_info = {});

    SecretKey(SecretKey&& o) noexcept : s_(o.s_) { o.s_.wipe(); }
    SecretKey& operator=(SecretKey&& o) noexcept;
    SecretKey(const SecretKey&) = delete;
    SecretKey& operator=(const SecretKey&) = delete;
    ~SecretKey() { s_.wipe(); }

    /// 32 big-endian bytes.
    std::array<std::uint8_t, 32> to_bytes() const noexcept;
    /// SkToPk: [sk]G1, in constant time.
    PublicKey public_key() const noexcept;
    const Scalar& scalar() const noexcept { return s_; }

  private:
    explicit SecretKey(const Scalar& s) noexcept : s_(s) {}
    Scalar s_;
};

/// A public key that passed KeyValidate: on E1, in G1, not the identity.
class PublicKey {
  public:
    /// Decodes 48 compressed (or 96 uncompressed) bytes and validates the point. Errors: the
    /// encoding's (serialize.hpp), not_in_subgroup, or identity_public_key for the point at
    /// infinity.
    [[nodiscard]] static Result<PublicKey, Error> from_bytes(BytesView in) noexcept;
    /// Wraps a point the caller has already validated (KeyValidate: not checked again).
    static PublicKey from_validated(const G1Affine& p) noexcept;

    const G1Affine& point() const noexcept { return p_; }
    std::array<std::uint8_t, 48> to_bytes() const noexcept { return g1_compress(p_); }
    friend bool operator==(const PublicKey&, const PublicKey&) = default;

  private:
    explicit PublicKey(const G1Affine& p) noexcept : p_(p) {}
    G1Affine p_;
};

/// A signature: a point of G2 (possibly the identity).
class Signature {
  public:
    /// Decodes 96 compressed (or 192 uncompressed) bytes, checking the subgroup.
    [[nodiscard]] static Result<Signature, Error> from_bytes(BytesView in) noexcept;
    static Signature from_point(const G2Affine& p) noexcept { return Signature(p); }

    const G2Affine& point() const noexcept { return p_; }
    std::array<std::uint8_t, 96> to_bytes() const noexcept { return g2_compress(p_); }
    friend bool operator==(const Signature&, const Signature&) = default;

  private:
    explicit Signature(const G2Affine& p) noexcept : p_(p) {}
    G2Affine p_;
};

/// Sign(SK, message) = [SK]H(message), in constant time in SK.
Signature sign(const SecretKey& sk, BytesView msg);

/// Verify: e(PK, H(msg)) == e(G1, sig), as one two-pair Miller loop and final exponentiation.
bool verify(const PublicKey& pk, BytesView msg, const Signature& sig);

/// Aggregate(signatures): their sum; nullopt for an empty list.
std::optional<Signature> aggregate(std::span<const Signature> sigs);

/// AggregateVerify(PKs, messages, sig) of the POP scheme: n >= 1 pairs, one Miller loop over
/// n + 1 pairs. False for empty or mismatched lists.
bool aggregate_verify(std::span<const PublicKey> pks, std::span<const BytesView> msgs,
                      const Signature& sig);

/// FastAggregateVerify(PKs, message, sig): the keys summed, then Verify. False for no keys.
bool fast_aggregate_verify(std::span<const PublicKey> pks, BytesView msg, const Signature& sig);

/// eth_aggregate_pubkeys (consensus specs, altair): the sum of n >= 1 validated keys, as a
/// point (it may be the identity); nullopt for an empty list.
std::optional<G1Affine> eth_aggregate_pubkeys(std::span<const PublicKey> pks);

/// eth_fast_aggregate_verify: true for no keys and the identity signature, else
/// FastAggregateVerify.
bool eth_fast_aggregate_verify(std::span<const PublicKey> pks, BytesView msg, const Signature& sig);

}  // namespace keel::bls
