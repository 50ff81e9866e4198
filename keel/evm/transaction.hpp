#pragma once
/// Executing one transaction on an Overlay: the checks that need the state and the block
/// (nonce, balance, fees, gas allowance, EIP-3607), buying gas, warming EIP-2929's sets,
/// EIP-7702's authorizations, the message itself, refunds (with their caps, and EIP-7623's
/// floor), the payment to the coinbase, and the end of the transaction (EIP-161 deletions).
///
/// An invalid transaction is an error (TxError) and changes nothing; a transaction that reverts
/// or runs out of gas is a valid one with that status (its gas is paid).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keel/common/result.hpp"
#include "keel/eth/errors.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/evm/evm.hpp"

namespace keel::evm {

/// Why a transaction is invalid; execution-spec-tests' TransactionException names in brackets.
enum class TxErrc : std::uint8_t {
    static_check,            ///< eth::validate() refused it (TxError::detail says why)
    gas_allowance_exceeded,  ///< gas limit above the block's gas left (GAS_ALLOWANCE_EXCEEDED)
    insufficient_max_fee_per_gas,  ///< fee cap below the base fee (INSUFFICIENT_MAX_FEE_PER_GAS)
    insufficient_max_fee_per_blob_gas,  ///< (INSUFFICIENT_MAX_FEE_PER_BLOB_GAS)
    insufficient_account_funds,         ///< balance below value + gas (INSUFFICIENT_ACCOUNT_FUNDS)
    nonce_too_low,                      ///< (NONCE_MISMATCH_TOO_LOW)
    nonce_too_high,                     ///< (NONCE_MISMATCH_TOO_HIGH)
    sender_not_eoa,                     ///< the sender has code, EIP-3607 (SENDER_NOT_EOA)
    blob_gas_exceeded,                  ///< more blob gas than the block allows
                                        ///< (TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED)
};

struct TxError {
    TxErrc code;
    std::optional<eth::Error> detail;  ///< for static_check
};

/// One line: "insufficient funds for gas * price + value", "nonce too high (state 3, tx 5)"...
std::string to_string(const TxError& e);
/// The execution-spec-tests name of the error ("TransactionException.INTRINSIC_GAS_TOO_LOW").
std::string exception_name(const TxError& e);

struct TxResult {
    Status status = Status::success;
    std::uint64_t gas_used = 0;  ///< after refunds (and the EIP-7623 floor)
    /// Before refunds, and at least the EIP-7623 floor: the most gas the transaction needed at
    /// once (geth's MaxUsedGas, eth_simulateV1's maxUsedGas).
    std::uint64_t peak_gas_used = 0;
    std::uint64_t blob_gas_used = 0;
    Bytes output;  ///< returned or reverted data; of a successful creation, the new code
    std::vector<state::Log> logs;
    std::optional<Address> created;
};

/// The block gas already used before this transaction (for the allowance check) and the block
/// blob gas limit.
struct BlockLimits {
    std::uint64_t gas_used = 0;
    std::uint64_t max_blob_gas = 0;  ///< 0: the fork's default (eth::default_blob_params)
};

/// The checks a call (eth_call, debug_traceCall, trace_call: a message nobody signed) leaves
/// out, as geth's do: the sender's nonce, EIP-3607's "sender has code", and, for a gas price of
/// zero, the fee cap against the base fee (BASEFEE still reads the block's).
struct CallRules {
    bool skip_nonce = false;
    bool skip_sender_code = false;
    bool free_gas = false;  ///< a zero fee cap passes the base-fee check
    /// EIP-7825's cap of 2^24 gas per transaction not enforced (eth_simulateV1's messages, as
    /// geth's SkipTransactionChecks).
    bool skip_gas_cap = false;
};

/// Executes `tx` from `sender` on `state` (ending the transaction: finalize_transaction()).
/// `cache`, when given, keeps code analyses across calls (a block's transactions share one);
/// otherwise each transaction analyses its code afresh.
[[nodiscard]] Result<TxResult, TxError> execute_transaction(
    const eth::Transaction& tx, const Address& sender, const BlockEnv& block, state::Overlay& state,
    eth::Fork fork, Tracer* tracer = nullptr, BlockLimits limits = {},
    AnalysisCache* cache = nullptr, CallRules rules = {});

}  // namespace keel::evm
