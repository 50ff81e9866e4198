#pragma once
/// Operating-system randomness for keys, nonces and batch-verification scalars.
///
/// Reads getrandom(2) with flags 0: the kernel's CSPRNG (the urandom source), which blocks only
/// until the pool has been initialised once after boot and never reads the blocking /dev/random
/// device (DESIGN.md §1, bls: "randomness from getrandom, never a blocking device").

#include <cstdint>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/crypto/errors.hpp"

namespace keel::crypto {

/// An environment failure reading randomness: what failed and the errno it failed with.
struct RandomError {
    Errc code;  ///< random_not_supported or random_failed
    int sys_errno = 0;

    friend constexpr bool operator==(const RandomError&, const RandomError&) = default;
};

/// One line for humans: "<phrase>: <strerror(errno)>".
std::string to_string(const RandomError& e);

/// Fills `out` entirely with cryptographically secure random bytes. Retries partial reads and
/// EINTR, so any size works (0 bytes included). On failure the contents of `out` are
/// unspecified (possibly partly written) and must not be used. Thread-safe; no allocation.
[[nodiscard]] Result<void, RandomError> random_bytes(MutableBytesView out) noexcept;

}  // namespace keel::crypto
