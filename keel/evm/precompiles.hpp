#pragma once
/// The precompiled contracts, by fork (yellow paper appendix E and the EIPs named below):
///   0x01 ECRECOVER, 0x02 SHA256, 0x03 RIPEMD160, 0x04 IDENTITY (Frontier)
///   0x05 MODEXP (EIP-198, Byzantium; EIP-2565 Berlin; EIP-7823/7883 Osaka)
///   0x06-0x08 BN254 add, mul, pairing (EIP-196/197, Byzantium; EIP-1108 prices, Istanbul;
///             keel/bn254)
///   0x09 BLAKE2F (EIP-152, Istanbul)
///   0x0a point evaluation (EIP-4844, Cancun; keel/kzg)
///   0x0b-0x11 BLS12-381 (EIP-2537, Prague; keel/bls/eip2537.hpp)
///   0x100 P256VERIFY (EIP-7951, Osaka)

#include <cstdint>
#include <optional>

#include "keel/common/bytes.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/message.hpp"

namespace keel::evm {

/// The precompile number of `a` (0x01..0x11, 0x100) when it has the form of one; whether it is
/// one in a fork is precompile_exists().
std::optional<std::uint16_t> precompile_id(const Address& a) noexcept;
bool precompile_exists(std::uint16_t id, eth::Fork fork) noexcept;

/// Runs precompile `id` (which exists in `fork`) on `input` with `gas`. Success leaves the gas
/// not used; out_of_gas and precompile_failure use all of it (and have no output).
CallResult run_precompile(std::uint16_t id, BytesView input, std::int64_t gas, eth::Fork fork);

}  // namespace keel::evm
