#pragma once
/// Batch verification of many signature sets (pubkey, message, signature) at once, as beacon
/// nodes verify a block's signatures: each set i gets a random non-zero 64-bit scalar r_i
/// (from the OS, getrandom), and the batch holds when
///
///   prod_m e(sum_{i with message m} [r_i]PK_i, H(m)) · e(-G1, sum_i [r_i]sig_i) == 1
///
/// — sets that share a message are grouped under one hash and one pairing, every Miller loop
/// feeds one product, and there is a single final exponentiation. The groups are split over
/// oneTBB's pool, each task running its own multi-Miller loop. The random scalars make a
/// forged batch pass with probability about 2^-64 (a batch whose invalid signatures cancel
/// out, as in batch_verify_invalid_forged_signature_set, fails).
///
/// When a batch fails, find_invalid_set() verifies the sets one by one (in parallel) to name a
/// bad one.

#include <cstddef>
#include <optional>
#include <span>

#include "keel/bls/signature.hpp"
#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/crypto/random.hpp"

namespace keel::bls {

/// One signature to check: the key and signature already decoded and validated, the message
/// borrowed (it must outlive the call).
struct SignatureSet {
    PublicKey pubkey;
    BytesView message;
    Signature signature;
};

/// True when every set is valid (with the probability above); false for an empty batch or any
/// invalid set. The only error is the OS refusing randomness.
[[nodiscard]] Result<bool, crypto::RandomError> batch_verify(std::span<const SignatureSet> sets);

/// As batch_verify, with the 64-bit scalars given (non-zero; tests and reproducible benches).
bool batch_verify_with_scalars(std::span<const SignatureSet> sets,
                               std::span<const std::uint64_t> scalars);

/// The index of the first set that does not verify on its own, or nullopt when all do.
std::optional<std::size_t> find_invalid_set(std::span<const SignatureSet> sets);

}  // namespace keel::bls
