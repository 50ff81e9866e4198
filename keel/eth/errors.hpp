#pragma once
/// Error codes of the eth module: decoding and validating transactions (and, later, headers,
/// receipts and blocks). DESIGN.md §3, docs/errors.md.
///
/// An eth::Error says what was wrong (Errc), which field (Field), where (absolute byte offset in
/// the caller's input) and, for RLP failures, which RLP rule was broken (rlp::Errc). `detail`
/// carries one number that makes the message concrete: a size found, a type byte, a count.
/// It is 16 bytes and trivially copyable, so a Result carrying it stays cheap.
///
/// to_string(error) gives the one line the CLI prints, e.g.
///   "transaction field value: RLP integer has a leading zero byte at offset 41"
///   "transaction field to: longer than its fixed size (21 bytes, expected 20) at offset 12"
///   "transaction: type not supported (type 0x05) at offset 0"
///
/// ethereum/tests names its invalid transactions `TransactionException.<NAME>`; each name is
/// one (Errc, Field) pair here (the full table is in docs/errors.md):
///   TYPE_NOT_SUPPORTED                  type_not_supported, type
///   RLP_TOO_FEW_ELEMENTS                too_few_fields, the first missing field
///   RLP_TOO_MANY_ELEMENTS               too_many_fields
///   RLP_ERROR_SIZE, RLP_ERROR_EOF, RLP_INVALID_HEADER, RLP_ERROR_SIZE_LEADING_ZEROS
///                                       rlp, none (the envelope's framing)
///   RLP_LEADING_ZEROS_<F>               rlp (leading_zero_in_integer), F
///   RLP_LEADING_ZEROS_<F>_SIZE          rlp (non_canonical_single_byte), F
///   RLP_LEADING_ZEROS_DATA_SIZE         rlp (leading_zero_in_length), data
///   RLP_INVALID_<F>                     rlp (expected_string), F
///   NONCE_OVERFLOW, GASLIMIT_OVERFLOW, VALUE_OVERFLOW, GASPRICE_OVERFLOW, PRIORITY_OVERFLOW
///                                       integer_overflow, nonce / gas_limit / value /
///                                       gas_price or max_fee_per_gas / max_priority_fee_per_gas
///   ADDRESS_TOO_SHORT, ADDRESS_TOO_LONG too_short, too_long, to
///   RLP_INVALID_ACCESS_LIST_ADDRESS_TOO_SHORT / _TOO_LONG
///                                       too_short, too_long, access_list_address
///   RLP_INVALID_ACCESS_LIST_STORAGE_TOO_LONG  too_long, access_list_storage_key
///   INVALID_CHAINID                     invalid_chain_id, v or chain_id
///   INVALID_SIGNATURE_VRS               invalid_signature_values, v / y_parity / r / s
///                                       (an r or s wider than 256 bits: integer_overflow, r/s)
///   NONCE_TOO_BIG (NONCE_IS_MAX)        nonce_is_max, nonce
///   GASLIMIT_PRICE_PRODUCT_OVERFLOW     gas_limit_price_overflow, gas_limit
///   PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS(_2)
///                                       priority_fee_greater_than_max_fee
///   INITCODE_SIZE_EXCEEDED              initcode_size_exceeded, data
///   INTRINSIC_GAS_TOO_LOW               intrinsic_gas_too_low, gas_limit
///   INTRINSIC_GAS_BELOW_FLOOR_GAS_COST  gas_below_floor_cost, gas_limit
///   GAS_LIMIT_EXCEEDS_MAXIMUM           gas_limit_exceeds_maximum, gas_limit
///   TYPE_3_TX_ZERO_BLOBS                blob_list_empty
///   TYPE_3_TX_BLOB_COUNT_EXCEEDED       blob_count_exceeded
///   TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH  invalid_blob_versioned_hash
///   TYPE_3_TX_CONTRACT_CREATION, TYPE_4_TX_CONTRACT_CREATION  create_not_allowed, to
///   TYPE_4_EMPTY_AUTHORIZATION_LIST     authorization_list_empty
///   EC_RECOVERY_FAIL                    invalid_signature

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "keel/common/result.hpp"
#include "keel/rlp/errors.hpp"

namespace keel::eth {

/// What was wrong with a transaction (or, later, another eth structure). Codes up to and
/// including invalid_signature belong to transactions; other engineers append theirs at the end.
enum class Errc : std::uint8_t {
    // ---- decoding (decode_transaction, decode_transaction_network) ----------------------------
    rlp,                    ///< malformed RLP; Error::rlp says which rule (RLP_* fixtures)
    type_not_supported,     ///< unknown EIP-2718 type byte, or a type the fork does not enable
    too_few_fields,         ///< a list ends before a required field; field: the first one missing
    too_many_fields,        ///< items after the last field of a list; offset: the first extra item
    integer_overflow,       ///< an integer wider than its field (64 or 256 bits); detail: its bytes
    too_short,              ///< a fixed-size field (address, hash, blob...) shorter than its size
    too_long,               ///< a fixed-size field longer than its size; detail: its size
    create_not_allowed,     ///< an empty `to` in a type that cannot create (EIP-4844, EIP-7702);
                            ///< detail: the type
    wrong_wrapper_version,  ///< network form: unknown blob sidecar version (EIP-7594)
    sidecar_count_mismatch,  ///< network form: blobs, commitments, proofs, hashes disagree
    // ---- validation (validate) ----------------------------------------------------------------
    invalid_chain_id,                   ///< chain id differs from the chain's (EIP-155, 2930)
    invalid_signature_values,           ///< v/y_parity, r or s out of range (YP app. F, EIP-2)
    nonce_is_max,                       ///< nonce == 2^64 - 1 (EIP-2681)
    gas_limit_price_overflow,           ///< gas limit * gas price (max fee) >= 2^256
    priority_fee_greater_than_max_fee,  ///< max_priority_fee_per_gas > max_fee_per_gas (1559)
    initcode_size_exceeded,             ///< create data longer than 49152 bytes (EIP-3860)
    intrinsic_gas_too_low,              ///< gas limit below the intrinsic gas; detail: shortfall
    gas_below_floor_cost,               ///< gas limit below the calldata floor (EIP-7623)
    gas_limit_exceeds_maximum,          ///< gas limit above 2^24 (EIP-7825)
    blob_list_empty,                    ///< a blob transaction without blobs (EIP-4844)
    blob_count_exceeded,                ///< more blobs than the fork allows per transaction
    invalid_blob_versioned_hash,        ///< a versioned hash not starting with 0x01 (EIP-4844)
    authorization_list_empty,           ///< a set-code transaction without authorizations
    // ---- sender recovery (keel/eth/sender.hpp) -----------------------------------------------
    invalid_signature,  ///< the signature recovers no public key (EC_RECOVERY_FAIL)
    // ---- receipts (keel/eth/receipt.hpp) ------------------------------------------------------
    invalid_receipt_status,  ///< first receipt field neither 0, 1 (EIP-658) nor a 32-byte root;
                             ///< detail: its size
};

/// A short human phrase for the code, e.g. "chain id does not match the chain".
std::string_view describe(Errc e) noexcept;

/// Which field of a transaction (or of one of its lists) an error is about.
enum class Field : std::uint8_t {
    none,  ///< the transaction as a whole: envelope, list header, field count
    type,  ///< the EIP-2718 type byte
    chain_id,
    nonce,
    gas_price,
    max_priority_fee_per_gas,
    max_fee_per_gas,
    gas_limit,
    to,
    value,
    data,
    access_list,
    max_fee_per_blob_gas,
    blob_versioned_hashes,
    authorization_list,
    v,         ///< legacy v (EIP-155: chain_id * 2 + 35 + y_parity)
    y_parity,  ///< typed transactions' signature_y_parity
    r,
    s,
    // nested items
    access_list_entry,
    access_list_address,
    access_list_storage_keys,
    access_list_storage_key,
    blob_versioned_hash,
    authorization,
    authorization_chain_id,
    authorization_address,
    authorization_nonce,
    authorization_y_parity,
    authorization_r,
    authorization_s,
    // network form of blob transactions (EIP-4844, EIP-7594)
    network_wrapper,
    wrapper_version,
    blobs,
    blob,
    commitments,
    commitment,
    proofs,
    proof,
    // headers (keel/eth/header.hpp; YP §4.3, EIPs 1559, 4895, 4844, 4788, 7685)
    header,  ///< a header as a whole: its list, field count
    header_parent_hash,
    header_ommers_hash,
    header_beneficiary,
    header_state_root,
    header_transactions_root,
    header_receipts_root,
    header_logs_bloom,
    header_difficulty,
    header_number,
    header_gas_limit,
    header_gas_used,
    header_timestamp,
    header_extra_data,
    header_mix_hash,
    header_nonce,
    header_base_fee_per_gas,
    header_withdrawals_root,
    header_blob_gas_used,
    header_excess_blob_gas,
    header_parent_beacon_block_root,
    header_requests_hash,
    // withdrawals (keel/eth/withdrawal.hpp, EIP-4895)
    withdrawal,  ///< a withdrawal as a whole
    withdrawal_index,
    withdrawal_validator_index,
    withdrawal_address,
    withdrawal_amount,
    // receipts (keel/eth/receipt.hpp; YP §4.3.1, EIP-658, EIP-2718)
    receipt,  ///< a receipt as a whole: envelope, list, field count
    receipt_type,
    receipt_status,  ///< status (EIP-658) or the pre-Byzantium post-transaction state root
    receipt_cumulative_gas_used,
    receipt_logs_bloom,
    receipt_logs,
    receipt_log,  ///< one log [address, topics, data] as a whole
    receipt_log_address,
    receipt_log_topics,
    receipt_log_topic,
    receipt_log_data,
    // blocks (keel/eth/block.hpp)
    block,  ///< a block or body as a whole: [header, transactions, ommers, withdrawals?]
    block_transactions,
    block_ommers,
    block_withdrawals,
};

/// Number of Field values (for tables indexed by Field).
inline constexpr std::size_t kFieldCount = static_cast<std::size_t>(Field::block_withdrawals) + 1;

/// The field's name as people write it, e.g. "max fee per gas", "access list storage key".
std::string_view field_name(Field f) noexcept;

/// An eth error: what, which field, where, and (for Errc::rlp) which RLP rule.
struct Error {
    Errc code = Errc::rlp;
    /// The RLP rule that was broken; meaningful only when code == Errc::rlp.
    rlp::Errc rlp = rlp::Errc::empty_input;
    Field field = Field::none;
    /// One number for the message, 0 when none: the size found (too_short, too_long,
    /// integer_overflow), the type byte (type_not_supported), the count (blob_count_exceeded),
    /// the missing gas (intrinsic_gas_too_low, gas_below_floor_cost), the index of the hash
    /// (invalid_blob_versioned_hash). Saturates at 2^32 - 1.
    std::uint32_t detail = 0;
    /// Absolute byte offset in the caller's input of the item at fault (for validation errors:
    /// of the field's item in the transaction's envelope, plus the decode's base offset).
    std::size_t offset = 0;

    friend constexpr bool operator==(const Error&, const Error&) = default;
};

static_assert(std::is_trivially_copyable_v<Error>);
static_assert(sizeof(Error) == 16);

/// One line: "<structure>[ field <name>]: <phrase>[ (<detail>)] at offset <n>", the structure
/// being the field's owner (transaction, header, withdrawal, receipt, block); for Errc::rlp the
/// phrase is the RLP rule's (rlp::describe).
/// The size in bytes of a fixed-size field (20 for addresses, 32 for hashes and storage keys,
/// 256 for blooms, 8 for the header nonce, 48 for commitments and proofs, 131072 for blobs);
/// 0 for fields of variable size.
std::size_t fixed_size(Field f) noexcept;

std::string to_string(const Error& e);

/// The error as `unexpected`, ready to return from a function returning Result<T, Error>.
constexpr std::unexpected<Error> make_error(Errc code, Field field, std::size_t offset,
                                            std::uint32_t detail = 0) noexcept {
    return std::unexpected(Error{code, rlp::Errc::empty_input, field, detail, offset});
}

/// An RLP failure of `field`, keeping the RLP rule and its offset.
constexpr std::unexpected<Error> make_rlp_error(const rlp::Error& e, Field field) noexcept {
    return std::unexpected(Error{Errc::rlp, e.code, field, 0, e.offset});
}

}  // namespace keel::eth
