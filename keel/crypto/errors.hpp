#pragma once
/// keel/crypto's one error vocabulary (docs/errors.md): signature recovery and signing on
/// either curve, key validation and agreement, and OS randomness report a crypto::Errc, with a
/// phrase from describe(). Signatures, keys and secrets are fixed-size values rather than
/// positions in an input, so recovery, signing and key functions return the code alone
/// (Result<T, Errc>); a caller that decoded the value from bytes knows where it was and wraps
/// the code with that place (eth::sender() names the field and the transaction's offset).
/// crypto::Error = InputError<Errc> is that wrapped form for crypto's own callers.
/// RandomError pairs a randomness code with the errno (an environment failure).
///
/// The old names SigError, KeyError and RandomErrc are this same type.

#include <cstdint>
#include <string_view>

#include "keel/common/result.hpp"

namespace keel::crypto {

/// What went wrong.
enum class Errc : std::uint8_t {
    // Signatures (SEC 1 v2 §4.1.4, §4.1.6).
    invalid_r,            ///< r is zero or not below the curve order n
    invalid_s,            ///< s is zero or not below the curve order n
    invalid_recovery_id,  ///< the recovery id is above 3 (Ethereum signatures use 0 and 1)
    no_public_key,        ///< no curve point has x = r (+ n), or the recovered key is infinity
    // Keys.
    invalid_secret_key,  ///< the secret key is zero or not below n
    invalid_public_key,  ///< x or y not below p, or (x, y) not on the curve
    // Randomness (getrandom(2)).
    random_not_supported,  ///< the kernel has no getrandom(2) (ENOSYS; Linux before 3.17)
    random_failed,         ///< getrandom(2) failed with another errno (see RandomError)
};

/// A short phrase for the code, e.g. "signature s is zero or not below the curve order".
[[nodiscard]] std::string_view describe(Errc e) noexcept;

/// A code with the offset of the value at fault in the caller's input.
using Error = InputError<Errc>;

/// The code of signature recovery and signing (the same type as Errc).
using SigError = Errc;
/// The code of randomness failures (the same type as Errc).
using RandomErrc = Errc;

}  // namespace keel::crypto
