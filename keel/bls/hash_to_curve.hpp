#pragma once
/// Hashing to BLS12-381 (RFC 9380): expand_message_xmd with SHA-256 (§5.3.1), hash_to_field
/// (§5.2, L = 64 bytes per element) and the simplified SWU map to E2 through its 3-isogenous
/// curve (§6.6.2, appendix E.3) — the suite BLS12381G2_XMD:SHA-256_SSWU_RO_ that Ethereum's
/// signatures use — and the same for G1 through its 11-isogenous curve (appendix E.2).
///
/// Messages and domain tags are public: these functions are not constant time.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "keel/bls/affine.hpp"
#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/common/bytes.hpp"

namespace keel::bls {

/// expand_message_xmd(msg, DST, len_in_bytes) with SHA-256. A DST longer than 255 bytes is
/// first hashed as RFC 9380 §5.3.3 says. nullopt when len_in_bytes is 0, above 65535 or needs
/// more than 255 SHA-256 blocks (8160 bytes).
std::optional<Bytes> expand_message_xmd(BytesView msg, BytesView dst, std::size_t len_in_bytes);

/// hash_to_field(msg, count) over Fp2: `count` elements from 128 * count expanded bytes.
std::vector<Fp2> hash_to_field_fp2(BytesView msg, BytesView dst, std::size_t count);

/// hash_to_field(msg, count) over Fp: `count` elements from 64 * count expanded bytes.
std::vector<Fp> hash_to_field_fp(BytesView msg, BytesView dst, std::size_t count);

/// map_to_curve for E2: simplified SWU on E2': y^2 = x^3 + 240u·x + 1012(1 + u) with
/// Z = -(2 + u), then the 3-isogeny to E2. The result is on E2 but not yet in G2 (its cofactor
/// is not cleared).
G2Affine map_to_curve_g2(const Fp2& u) noexcept;

/// map_to_curve for E1: simplified SWU on the 11-isogenous E1' (Z = 11), then the isogeny to
/// E1 (appendix E.2). On E1, not yet in G1.
G1Affine map_to_curve_g1(const Fp& u) noexcept;

/// The domain separation tag of Ethereum's signatures (the POP ciphersuite).
inline constexpr std::string_view kEthereumDst = "BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";

/// hash_to_curve(msg) for G2 with the given DST (suite BLS12381G2_XMD:SHA-256_SSWU_RO_):
/// hash_to_field, two SWU maps, their sum, the cofactor cleared (Budroni–Pintore).
G2Jacobian hash_to_g2(BytesView msg, std::string_view dst = kEthereumDst);
/// hash_to_g2 of every message (out[i] for msgs[i]; the same size): the square roots of all
/// their SWU maps are taken together, eight at a time on AVX-512 IFMA where the CPU has it
/// (fp_x8.hpp), so a batch costs less per message than one at a time.
void hash_to_g2_many(std::span<const BytesView> msgs, std::span<G2Jacobian> out,
                     std::string_view dst = kEthereumDst);

/// hash_to_curve(msg) for G1 (suite BLS12381G1_XMD:SHA-256_SSWU_RO_): the same steps on E1,
/// the cofactor cleared by h_eff = 1 - x.
G1Jacobian hash_to_g1(BytesView msg, std::string_view dst);

}  // namespace keel::bls
