#pragma once
/// Static validity of a decoded transaction at a fork: everything that can be checked without
/// the state or the block (no balance, no nonce order, no base fee, no sender recovery).
/// These are the checks of ethereum/tests TransactionTests.
///
/// validate() checks, in this order, and returns the first failure (code after the arrow):
///   1. the fork enables the type (EIP-2718: EIP-2930 Berlin, EIP-1559 London, EIP-4844
///      Cancun, EIP-7702 Prague) -> type_not_supported
///   2. v and the chain id. Legacy before Spurious Dragon: v in {27, 28} ->
///      invalid_signature_values. Legacy from Spurious Dragon (EIP-155): v in {27, 28}, or
///      v = chain_id * 2 + 35/36 with the chain's id; v in {0, 1} is a bare recovery id that a
///      legacy transaction never carries -> invalid_signature_values; any other v names another
///      chain -> invalid_chain_id. Typed: chain_id is the chain's -> invalid_chain_id, and
///      y_parity in {0, 1} -> invalid_signature_values
///   3. r in [1, n-1], s in [1, n-1], and from Homestead s <= n/2 (YP app. F eq. 311-313,
///      EIP-2; n the secp256k1 group order) -> invalid_signature_values
///   4. nonce < 2^64 - 1 (EIP-2681) -> nonce_is_max
///   5. max_priority_fee_per_gas <= max_fee_per_gas (EIP-1559)
///      -> priority_fee_greater_than_max_fee
///   6. gas_limit * max_fee_per_gas (the gas price) < 2^256 -> gas_limit_price_overflow
///   7. from Osaka, gas_limit <= 2^24 (EIP-7825) -> gas_limit_exceeds_maximum
///   8. from Shanghai, a creation's data <= 49152 bytes (EIP-3860) -> initcode_size_exceeded
///   9. gas_limit >= intrinsic_gas(tx, fork) -> intrinsic_gas_too_low
///  10. from Prague, gas_limit >= floor_data_gas(tx) (EIP-7623) -> gas_below_floor_cost
///  11. blob transactions (EIP-4844): at least one blob -> blob_list_empty; at most
///      max_blobs_per_tx(fork) -> blob_count_exceeded; every versioned hash starts with 0x01
///      -> invalid_blob_versioned_hash
///  12. set-code transactions (EIP-7702): at least one authorization -> authorization_list_empty
/// Steps 2 before 3, and 3 before 9, follow ethereum/tests, which name the first of several
/// problems. Sender recovery (keel/eth/sender.hpp) is not part of this: the fixtures' filler
/// recovers the sender after step 3 and before step 9.

#include <cstdint>

#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/eth/errors.hpp"
#include "keel/eth/fork.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::eth {

/// Mainnet's chain id (EIP-155); ethereum/tests use it too.
inline constexpr std::uint64_t kMainnetChainId = 1;

/// The order n of the secp256k1 group (SEC 2 §2.4.1), for callers that reason about mainnet
/// signatures. validate() itself reads the process-wide curve (crypto::signature_scheme()).
inline constexpr const Uint256& kSecp256k1N = crypto::secp256k1::kOrder;
/// n / 2 (rounded down): the largest s allowed from Homestead (EIP-2) on secp256k1.
inline constexpr const Uint256& kSecp256k1HalfN = crypto::secp256k1::kHalfOrder;

/// EIP-3860: the largest init code a creation may carry (2 * 24576).
inline constexpr std::size_t kMaxInitcodeSize = 49152;
/// EIP-7825: the largest gas limit of one transaction from Osaka.
inline constexpr std::uint64_t kMaxTxGasLimit = std::uint64_t{1} << 24;

/// Gas every transaction pays before execution (YP §6.2 eq. 60, g0):
///   21000, or 53000 for a creation from Homestead (EIP-2);
///   calldata: 4 per zero byte, 68 per non-zero byte, 16 from Istanbul (EIP-2028);
///   access list: 2400 per address and 1900 per storage key (EIP-2930);
///   init code: 2 per 32-byte word of a creation's data from Shanghai (EIP-3860);
///   authorizations: 25000 (PER_EMPTY_ACCOUNT_COST) each (EIP-7702).
/// It does not include the EIP-7623 floor (floor_data_gas()).
std::uint64_t intrinsic_gas(const Transaction& tx, Fork fork) noexcept;

/// EIP-7623's floor: 21000 + 10 * tokens, tokens = zero bytes + 4 * non-zero bytes of data.
/// A transaction must have gas_limit >= this from Prague.
std::uint64_t floor_data_gas(const Transaction& tx) noexcept;

/// What validate() leaves out for a message nobody signed (eth_simulateV1), as geth's
/// SkipTransactionChecks and SkipNonceChecks do.
struct ValidateSkips {
    bool gas_cap = false;      ///< step 7, EIP-7825's cap
    bool nonce_bound = false;  ///< step 4, EIP-2681's bound (the nonce then wraps to 0)
};

/// Checks `tx` at `fork` for the chain `chain_id` (see the list at the top of this file).
/// Error offsets point at the field's item in the envelope (offset_of()).
[[nodiscard]] Result<void, Error> validate(const Transaction& tx, Fork fork,
                                           std::uint64_t chain_id = kMainnetChainId,
                                           ValidateSkips skips = {}) noexcept;

}  // namespace keel::eth
