#include "keel/chain/errors.hpp"

#include "keel/eth/fork.hpp"

namespace keel::chain {

std::string_view describe(Errc c) noexcept {
    switch (c) {
        case Errc::wrong_fields:
            return "header fields do not match its fork";
        case Errc::wrong_number:
            return "number is not the parent's plus one";
        case Errc::timestamp_not_after_parent:
            return "timestamp is not after the parent's";
        case Errc::extra_data_too_long:
            return "extra data longer than 32 bytes";
        case Errc::gas_limit_out_of_bounds:
            return "gas limit out of bounds";
        case Errc::gas_used_above_limit:
            return "gas used above the gas limit";
        case Errc::wrong_base_fee:
            return "base fee differs from EIP-1559's";
        case Errc::wrong_excess_blob_gas:
            return "excess blob gas differs from EIP-4844's";
        case Errc::difficulty_after_merge:
            return "difficulty other than 0 after the Merge";
        case Errc::ommers_after_merge:
            return "ommers after the Merge";
        case Errc::proof_of_work_fields:
            return "nonce other than 0 after the Merge";
        case Errc::block_too_large:
            return "block larger than EIP-7934 allows";
        case Errc::wrong_difficulty:
            return "difficulty differs from the proof-of-work rule's";
        case Errc::gas_limit_too_big:
            return "gas limit above 2^63 - 1";
        case Errc::wrong_dao_extra_data:
            return "extra data is not \"dao-hard-fork\" in the DAO fork's first 10 blocks";
        case Errc::unknown_parent:
            return "parent unknown";
        case Errc::too_many_ommers:
            return "more than 2 ommers";
        case Errc::duplicate_ommer:
            return "ommer already included";
        case Errc::ommer_is_ancestor:
            return "ommer is an ancestor";
        case Errc::ommer_is_sibling:
            return "ommer is a sibling (same parent)";
        case Errc::ommer_parent_not_ancestor:
            return "ommer's parent is not one of the 7 ancestors";
        case Errc::wrong_transactions_root:
            return "transactions root differs from the body's";
        case Errc::wrong_ommers_hash:
            return "ommers hash differs from the body's";
        case Errc::wrong_withdrawals_root:
            return "withdrawals root differs from the body's";
        case Errc::wrong_withdrawals:
            return "withdrawals do not match the fork";
        case Errc::invalid_transaction:
            return "invalid transaction";
        case Errc::invalid_sender:
            return "signature recovers no sender";
        case Errc::wrong_blob_gas_used:
            return "blob gas used differs from the header's";
        case Errc::wrong_gas_used:
            return "gas used differs from the header's";
        case Errc::wrong_receipts_root:
            return "receipts root differs from the header's";
        case Errc::wrong_logs_bloom:
            return "logs bloom differs from the header's";
        case Errc::wrong_state_root:
            return "state root differs from the header's";
        case Errc::wrong_requests_hash:
            return "requests hash differs from the header's";
        case Errc::system_contract_empty:
            return "system contract has no code";
        case Errc::system_contract_failed:
            return "system contract call failed";
        case Errc::invalid_deposit_event:
            return "deposit event of an invalid layout";
    }
    return "invalid block";
}

std::string to_string(const BlockError& e) {
    std::string out = "block " + std::to_string(e.number);
    if (e.tx) out += " transaction " + std::to_string(*e.tx);
    if (e.ommer) out += " ommer " + std::to_string(*e.ommer);
    out += ": ";
    if (e.tx_error) {
        out += evm::to_string(*e.tx_error);
    } else if (e.sender_error) {
        out += std::string(describe(e.code)) + " (" + eth::to_string(*e.sender_error) + ")";
    } else {
        out += describe(e.code);
    }
    if (!e.detail.empty()) out += ": " + e.detail;
    return out;
}

std::string exception_name(const BlockError& e) {
    if (e.tx_error) {
        // A type a later fork enables: execution-spec-tests names it by the type.
        const auto& d = e.tx_error->detail;
        if (e.tx_error->code == evm::TxErrc::static_check && d &&
            d->code == eth::Errc::type_not_supported && d->detail <= 0xff &&
            eth::fork_introducing_tx_type(static_cast<std::uint8_t>(d->detail)))
            return "TransactionException.TYPE_" + std::to_string(d->detail) + "_TX_PRE_FORK";
        return evm::exception_name(*e.tx_error);
    }
    const char* name = "";
    switch (e.code) {
        case Errc::wrong_fields:
            name = "INCORRECT_BLOCK_FORMAT";
            break;
        case Errc::wrong_number:
            name = "INVALID_BLOCK_NUMBER";
            break;
        case Errc::timestamp_not_after_parent:
            name = "INVALID_BLOCK_TIMESTAMP_OLDER_THAN_PARENT";
            break;
        case Errc::extra_data_too_long:
            name = "EXTRA_DATA_TOO_BIG";
            break;
        case Errc::gas_limit_out_of_bounds:
            name = "INVALID_GASLIMIT";
            break;
        case Errc::gas_used_above_limit:
            name = "GAS_USED_OVERFLOW";
            break;
        case Errc::wrong_base_fee:
            name = "INVALID_BASEFEE_PER_GAS";
            break;
        case Errc::wrong_excess_blob_gas:
            name = "INCORRECT_EXCESS_BLOB_GAS";
            break;
        case Errc::difficulty_after_merge:
            name = "IMPORT_IMPOSSIBLE_DIFFICULTY_OVER_PARIS";
            break;
        case Errc::ommers_after_merge:
        case Errc::proof_of_work_fields:
            name = "IMPORT_IMPOSSIBLE_UNCLES_OVER_PARIS";
            break;
        case Errc::block_too_large:
            name = "RLP_BLOCK_LIMIT_EXCEEDED";
            break;
        case Errc::wrong_difficulty:
            name = "INVALID_DIFFICULTY";
            break;
        case Errc::gas_limit_too_big:
            name = "GASLIMIT_TOO_BIG";
            break;
        case Errc::wrong_dao_extra_data:
            name = "EXTRA_DATA_INVALID_DAO";
            break;
        case Errc::unknown_parent:
            name = "UNKNOWN_PARENT";
            break;
        case Errc::too_many_ommers:
            name = "TOO_MANY_UNCLES";
            break;
        case Errc::duplicate_ommer:
            name = "UNCLE_IN_CHAIN";
            break;
        case Errc::ommer_is_ancestor:
            name = "UNCLE_IS_ANCESTOR";
            break;
        case Errc::ommer_is_sibling:
            name = "UNCLE_IS_BROTHER";
            break;
        case Errc::ommer_parent_not_ancestor:
            name = "UNCLE_PARENT_INCORRECT";
            break;
        case Errc::wrong_transactions_root:
            name = "INVALID_TRANSACTIONS_ROOT";
            break;
        case Errc::wrong_ommers_hash:
            name = "INVALID_UNCLES_HASH";
            break;
        case Errc::wrong_withdrawals_root:
            name = "INVALID_WITHDRAWALS_ROOT";
            break;
        case Errc::wrong_withdrawals:
            name = "INCORRECT_BLOCK_FORMAT";
            break;
        case Errc::invalid_transaction:
        case Errc::invalid_sender:
            return "TransactionException.INVALID_SIGNATURE_VRS";
        case Errc::wrong_blob_gas_used:
            name = "INCORRECT_BLOB_GAS_USED";
            break;
        case Errc::wrong_gas_used:
            name = "INVALID_GAS_USED";
            break;
        case Errc::wrong_receipts_root:
            name = "INVALID_RECEIPTS_ROOT";
            break;
        case Errc::wrong_logs_bloom:
            name = "INVALID_LOG_BLOOM";
            break;
        case Errc::wrong_state_root:
            name = "INVALID_STATE_ROOT";
            break;
        case Errc::wrong_requests_hash:
            name = "INVALID_REQUESTS";
            break;
        case Errc::system_contract_empty:
            name = "SYSTEM_CONTRACT_EMPTY";
            break;
        case Errc::system_contract_failed:
            name = "SYSTEM_CONTRACT_CALL_FAILED";
            break;
        case Errc::invalid_deposit_event:
            name = "INVALID_DEPOSIT_EVENT_LAYOUT";
            break;
    }
    return std::string("BlockException.") + name;
}

std::string decode_exception_name(const eth::Error& e) {
    using eth::Field;
    if (e.code == eth::Errc::create_not_allowed && (e.detail == 3 || e.detail == 4))
        return "TransactionException.TYPE_" + std::to_string(e.detail) + "_TX_CONTRACT_CREATION";
    if (e.field >= Field::header && e.field <= Field::header_requests_hash)
        return "BlockException.INCORRECT_BLOCK_FORMAT";
    return "BlockException.RLP_STRUCTURES_ENCODING";
}

}  // namespace keel::chain
