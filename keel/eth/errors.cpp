#include "keel/eth/errors.hpp"

#include <limits>

namespace keel::eth {

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Errc::rlp:
            return "malformed RLP";
        case Errc::type_not_supported:
            return "transaction type not supported";
        case Errc::too_few_fields:
            return "list has too few fields";
        case Errc::too_many_fields:
            return "list has too many fields";
        case Errc::integer_overflow:
            return "integer too large for its field";
        case Errc::too_short:
            return "shorter than its fixed size";
        case Errc::too_long:
            return "longer than its fixed size";
        case Errc::create_not_allowed:
            return "contract creation not allowed for this transaction type";
        case Errc::wrong_wrapper_version:
            return "unknown blob sidecar wrapper version";
        case Errc::sidecar_count_mismatch:
            return "blob sidecar item count does not match the blob count";
        case Errc::invalid_chain_id:
            return "chain id does not match the chain";
        case Errc::invalid_signature_values:
            return "signature values out of range";
        case Errc::nonce_is_max:
            return "nonce is 2^64 - 1";
        case Errc::gas_limit_price_overflow:
            return "gas limit times gas price overflows 256 bits";
        case Errc::priority_fee_greater_than_max_fee:
            return "max priority fee per gas greater than max fee per gas";
        case Errc::initcode_size_exceeded:
            return "init code larger than 49152 bytes";
        case Errc::intrinsic_gas_too_low:
            return "gas limit below the intrinsic gas";
        case Errc::gas_below_floor_cost:
            return "gas limit below the calldata floor cost";
        case Errc::gas_limit_exceeds_maximum:
            return "gas limit above the per-transaction maximum";
        case Errc::blob_list_empty:
            return "blob transaction without blobs";
        case Errc::blob_count_exceeded:
            return "too many blobs in one transaction";
        case Errc::invalid_blob_versioned_hash:
            return "blob versioned hash does not start with version byte 0x01";
        case Errc::authorization_list_empty:
            return "set-code transaction without authorizations";
        case Errc::invalid_signature:
            return "signature recovers no public key";
        case Errc::invalid_receipt_status:
            return "receipt status is neither 0, 1 nor a 32-byte state root";
    }
    return "unknown eth error";
}

std::string_view field_name(Field f) noexcept {
    switch (f) {
        case Field::none:
            return "";
        case Field::type:
            return "type";
        case Field::chain_id:
            return "chain id";
        case Field::nonce:
            return "nonce";
        case Field::gas_price:
            return "gas price";
        case Field::max_priority_fee_per_gas:
            return "max priority fee per gas";
        case Field::max_fee_per_gas:
            return "max fee per gas";
        case Field::gas_limit:
            return "gas limit";
        case Field::to:
            return "to";
        case Field::value:
            return "value";
        case Field::data:
            return "data";
        case Field::access_list:
            return "access list";
        case Field::max_fee_per_blob_gas:
            return "max fee per blob gas";
        case Field::blob_versioned_hashes:
            return "blob versioned hashes";
        case Field::authorization_list:
            return "authorization list";
        case Field::v:
            return "v";
        case Field::y_parity:
            return "y parity";
        case Field::r:
            return "r";
        case Field::s:
            return "s";
        case Field::access_list_entry:
            return "access list entry";
        case Field::access_list_address:
            return "access list address";
        case Field::access_list_storage_keys:
            return "access list storage keys";
        case Field::access_list_storage_key:
            return "access list storage key";
        case Field::blob_versioned_hash:
            return "blob versioned hash";
        case Field::authorization:
            return "authorization";
        case Field::authorization_chain_id:
            return "authorization chain id";
        case Field::authorization_address:
            return "authorization address";
        case Field::authorization_nonce:
            return "authorization nonce";
        case Field::authorization_y_parity:
            return "authorization y parity";
        case Field::authorization_r:
            return "authorization r";
        case Field::authorization_s:
            return "authorization s";
        case Field::network_wrapper:
            return "network wrapper";
        case Field::wrapper_version:
            return "wrapper version";
        case Field::blobs:
            return "blobs";
        case Field::blob:
            return "blob";
        case Field::commitments:
            return "commitments";
        case Field::commitment:
            return "commitment";
        case Field::proofs:
            return "proofs";
        case Field::proof:
            return "proof";
        case Field::header:
        case Field::withdrawal:
        case Field::receipt:
        case Field::block:
            return "";  // the structure as a whole: to_string names it alone
        case Field::header_parent_hash:
            return "parent hash";
        case Field::header_ommers_hash:
            return "ommers hash";
        case Field::header_beneficiary:
            return "beneficiary";
        case Field::header_state_root:
            return "state root";
        case Field::header_transactions_root:
            return "transactions root";
        case Field::header_receipts_root:
            return "receipts root";
        case Field::header_logs_bloom:
        case Field::receipt_logs_bloom:
            return "logs bloom";
        case Field::header_difficulty:
            return "difficulty";
        case Field::header_number:
            return "number";
        case Field::header_gas_limit:
            return "gas limit";
        case Field::header_gas_used:
            return "gas used";
        case Field::header_timestamp:
            return "timestamp";
        case Field::header_extra_data:
            return "extra data";
        case Field::header_mix_hash:
            return "mix hash";
        case Field::header_nonce:
            return "nonce";
        case Field::header_base_fee_per_gas:
            return "base fee per gas";
        case Field::header_withdrawals_root:
            return "withdrawals root";
        case Field::header_blob_gas_used:
            return "blob gas used";
        case Field::header_excess_blob_gas:
            return "excess blob gas";
        case Field::header_parent_beacon_block_root:
            return "parent beacon block root";
        case Field::header_requests_hash:
            return "requests hash";
        case Field::withdrawal_index:
            return "index";
        case Field::withdrawal_validator_index:
            return "validator index";
        case Field::withdrawal_address:
            return "address";
        case Field::withdrawal_amount:
            return "amount";
        case Field::receipt_type:
            return "type";
        case Field::receipt_status:
            return "status";
        case Field::receipt_cumulative_gas_used:
            return "cumulative gas used";
        case Field::receipt_logs:
            return "logs";
        case Field::receipt_log:
            return "log";
        case Field::receipt_log_address:
            return "log address";
        case Field::receipt_log_topics:
            return "log topics";
        case Field::receipt_log_topic:
            return "log topic";
        case Field::receipt_log_data:
            return "log data";
        case Field::block_transactions:
            return "transactions";
        case Field::block_ommers:
            return "ommers";
        case Field::block_withdrawals:
            return "withdrawals";
    }
    return "unknown field";
}

namespace {

const char kHexDigits[] = "0123456789abcdef";

// The structure a field belongs to, which starts the message.
std::string_view owner_name(Field f) noexcept {
    if (f >= Field::block) return "block";
    if (f >= Field::receipt) return "receipt";
    if (f >= Field::withdrawal) return "withdrawal";
    if (f >= Field::header) return "header";
    return "transaction";
}

}  // namespace

std::size_t fixed_size(Field f) noexcept {
    switch (f) {
        case Field::to:
        case Field::access_list_address:
        case Field::authorization_address:
            return 20;
        case Field::access_list_storage_key:
        case Field::blob_versioned_hash:
            return 32;
        case Field::blob:
            return 131072;
        case Field::commitment:
        case Field::proof:
            return 48;
        case Field::header_beneficiary:
        case Field::withdrawal_address:
        case Field::receipt_log_address:
            return 20;
        case Field::header_parent_hash:
        case Field::header_ommers_hash:
        case Field::header_state_root:
        case Field::header_transactions_root:
        case Field::header_receipts_root:
        case Field::header_mix_hash:
        case Field::header_withdrawals_root:
        case Field::header_parent_beacon_block_root:
        case Field::header_requests_hash:
        case Field::receipt_log_topic:
            return 32;
        case Field::header_logs_bloom:
        case Field::receipt_logs_bloom:
            return 256;
        case Field::header_nonce:
            return 8;
        default:
            return 0;
    }
}

std::string to_string(const Error& e) {
    std::string out(owner_name(e.field));
    if (!field_name(e.field).empty()) {
        out += " field ";
        out += field_name(e.field);
    }
    out += ": ";
    out += e.code == Errc::rlp ? rlp::describe(e.rlp) : describe(e.code);
    switch (e.code) {
        case Errc::type_not_supported:
            out += " (type 0x";
            out += kHexDigits[(e.detail >> 4) & 0xf];
            out += kHexDigits[e.detail & 0xf];
            out += ')';
            break;
        case Errc::too_short:
        case Errc::too_long:
            out += " (" + std::to_string(e.detail) + " bytes";
            if (const std::size_t n = fixed_size(e.field); n != 0) {
                out += ", expected " + std::to_string(n);
            }
            out += ')';
            break;
        case Errc::integer_overflow:
        case Errc::invalid_receipt_status:
            out += " (" + std::to_string(e.detail) + " bytes)";
            break;
        case Errc::blob_count_exceeded:
        case Errc::sidecar_count_mismatch:
            out += " (" + std::to_string(e.detail) + ")";
            break;
        case Errc::wrong_wrapper_version:
            out += " (version " + std::to_string(e.detail) + ")";
            break;
        case Errc::invalid_blob_versioned_hash:
            out += " (hash " + std::to_string(e.detail) + ")";
            break;
        case Errc::intrinsic_gas_too_low:
        case Errc::gas_below_floor_cost:
            out += " (short by " + std::to_string(e.detail) +
                   (e.detail == std::numeric_limits<std::uint32_t>::max() ? "+" : "") + " gas)";
            break;
        default:
            break;
    }
    out += " at offset ";
    out += std::to_string(e.offset);
    return out;
}

}  // namespace keel::eth
