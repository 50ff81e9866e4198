#pragma once
/// Why a block is invalid (keel/chain): the rule it broke, the block, and where in it (a
/// transaction's index, the two values that disagree). DESIGN.md §3, docs/errors.md.
///
/// to_string(error) gives the one line the CLI prints, e.g.
///   "block 3: state root 0x5c..e1 differs from the header's 0x77..0a"
///   "block 7 transaction 2: nonce too high (state 3, tx 5)"
/// exception_name() gives execution-spec-tests' name for the rule
/// ("BlockException.INVALID_REQUESTS", or a transaction's
/// "TransactionException.NONCE_MISMATCH_TOO_HIGH").
///
/// Order follows execution-specs' state_transition(): the header, the ommers, then every
/// transaction (so a transaction's own reason comes before the block's roots), then gas used
/// and the roots.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "keel/evm/transaction.hpp"

namespace keel::chain {

enum class Errc : std::uint8_t {
    // ---- the header against its parent and its fork ----------------------------------------
    wrong_fields,                ///< a field the fork requires is missing, or one it has not
                                 ///< introduced is present (INCORRECT_BLOCK_FORMAT)
    wrong_number,                ///< not the parent's number + 1 (INVALID_BLOCK_NUMBER)
    timestamp_not_after_parent,  ///< (INVALID_BLOCK_TIMESTAMP_OLDER_THAN_PARENT)
    extra_data_too_long,         ///< over 32 bytes (EXTRA_DATA_TOO_BIG)
    gas_limit_out_of_bounds,  ///< moved by parent/1024 or more, or under 5,000 (INVALID_GASLIMIT)
    gas_used_above_limit,     ///< (GAS_USED_OVERFLOW)
    wrong_base_fee,           ///< not EIP-1559's value for the parent (INVALID_BASEFEE_PER_GAS)
    wrong_excess_blob_gas,    ///< not EIP-4844's value (INCORRECT_EXCESS_BLOB_GAS)
    difficulty_after_merge,   ///< a difficulty other than 0 after the Merge (EIP-3675;
                              ///< IMPORT_IMPOSSIBLE_DIFFICULTY_OVER_PARIS)
    ommers_after_merge,       ///< an ommers hash other than the empty list's after the Merge
                              ///< (EIP-3675; IMPORT_IMPOSSIBLE_UNCLES_OVER_PARIS)
    proof_of_work_fields,     ///< a nonce other than 0 after the Merge (EIP-3675)
    block_too_large,          ///< rlp(block) over EIP-7934's limit (RLP_BLOCK_LIMIT_EXCEEDED)
    wrong_difficulty,         ///< not the proof-of-work difficulty for the parent and time
                              ///< (INVALID_DIFFICULTY)
    gas_limit_too_big,        ///< above 2^63 - 1 (GASLIMIT_TOO_BIG)
    wrong_dao_extra_data,     ///< not "dao-hard-fork" in the DAO fork's first 10 blocks
                              ///< (EXTRA_DATA_INVALID_DAO)
    // ---- the block among the others ------------------------------------------------------
    unknown_parent,     ///< no block known by the parent hash (UNKNOWN_PARENT)
    too_many_ommers,    ///< more than 2 (TOO_MANY_UNCLES)
    duplicate_ommer,    ///< included twice, here or by a recent ancestor (UNCLE_IN_CHAIN)
    ommer_is_ancestor,  ///< the ommer is the block itself or an ancestor (UNCLE_IS_ANCESTOR)
    ommer_is_sibling,   ///< the ommer's parent is the block's parent (UNCLE_IS_BROTHER)
    ommer_parent_not_ancestor,  ///< the ommer's parent is not one of the 7 ancestors
                                ///< (UNCLE_PARENT_INCORRECT)
    // ---- the body against the header ------------------------------------------------------
    wrong_transactions_root,  ///< (INVALID_TRANSACTIONS_ROOT)
    wrong_ommers_hash,        ///< (INVALID_UNCLES_HASH)
    wrong_withdrawals_root,   ///< (INVALID_WITHDRAWALS_ROOT)
    wrong_withdrawals,        ///< withdrawals present before Shanghai or absent from it
    // ---- execution ------------------------------------------------------------------------
    invalid_transaction,     ///< a transaction the state refuses (its TxError says why)
    invalid_sender,          ///< a signature that recovers no sender
    wrong_blob_gas_used,     ///< (INCORRECT_BLOB_GAS_USED)
    wrong_gas_used,          ///< (INVALID_GAS_USED)
    wrong_receipts_root,     ///< (INVALID_RECEIPTS_ROOT)
    wrong_logs_bloom,        ///< (INVALID_LOG_BLOOM)
    wrong_state_root,        ///< (INVALID_STATE_ROOT)
    wrong_requests_hash,     ///< (INVALID_REQUESTS)
    system_contract_empty,   ///< EIP-7002/7251 contract without code (SYSTEM_CONTRACT_EMPTY)
    system_contract_failed,  ///< its call failed (SYSTEM_CONTRACT_CALL_FAILED)
    invalid_deposit_event,  ///< a DepositEvent log of another layout (INVALID_DEPOSIT_EVENT_LAYOUT)
};

/// A short phrase: "state root differs from the header's".
std::string_view describe(Errc c) noexcept;

struct BlockError {
    Errc code;
    std::uint64_t number = 0;                  ///< the block's number
    std::optional<std::size_t> tx{};           ///< the transaction at fault, by index in the block
    std::optional<evm::TxError> tx_error{};    ///< for invalid_transaction
    std::optional<eth::Error> sender_error{};  ///< for invalid_sender
    std::string
        detail{};  ///< the values that disagree: "0x5c..e1 differs from the header's 0x77..0a"
    /// For a header rule broken by one of the block's ommers (the code is the rule's), its
    /// index in the body.
    std::optional<std::size_t> ommer{};
};

/// One line: "block <n>[ transaction <i>]: <what>[: <detail>]".
std::string to_string(const BlockError& e);

/// The execution-spec-tests exception name of the error. A transaction of a type its fork does
/// not enable is TransactionException.TYPE_<n>_TX_PRE_FORK.
std::string exception_name(const BlockError& e);

/// The execution-spec-tests exception name of a block that does not decode (eth::decode_block's
/// error): a header that does not decode is INCORRECT_BLOCK_FORMAT (execution-specs decodes it
/// into its fork's Header), a blob or set-code transaction with an empty `to`
/// TransactionException.TYPE_3/4_TX_CONTRACT_CREATION, anything else RLP_STRUCTURES_ENCODING.
std::string decode_exception_name(const eth::Error& e);

}  // namespace keel::chain
