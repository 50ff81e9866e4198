#include "keel/eth/tx_validation.hpp"

#include "keel/crypto/signature.hpp"

#include <algorithm>
#include <limits>

namespace keel::eth {

namespace {

// YP §6.2 eq. 60 and appendix G.
constexpr std::uint64_t kTxGas = 21000;                   // G_transaction
constexpr std::uint64_t kTxCreateGas = 53000;             // G_transaction + G_txcreate (EIP-2)
constexpr std::uint64_t kTxDataZeroGas = 4;               // G_txdatazero
constexpr std::uint64_t kTxDataNonZeroGasFrontier = 68;   // G_txdatanonzero
constexpr std::uint64_t kTxDataNonZeroGasIstanbul = 16;   // EIP-2028
constexpr std::uint64_t kAccessListAddressGas = 2400;     // EIP-2930
constexpr std::uint64_t kAccessListStorageKeyGas = 1900;  // EIP-2930
constexpr std::uint64_t kInitcodeWordGas = 2;             // EIP-3860
constexpr std::uint64_t kPerEmptyAccountCost = 25000;     // EIP-7702
constexpr std::uint64_t kTotalCostFloorPerToken = 10;     // EIP-7623
constexpr std::uint64_t kTokensPerNonZeroByte = 4;        // EIP-7623

constexpr std::uint8_t kVersionedHashVersionKzg = 0x01;  // EIP-4844

std::uint32_t saturate32(std::uint64_t n) noexcept {
    return n > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                         : static_cast<std::uint32_t>(n);
}

Result<void, Error> fail(const Transaction& tx, Errc code, Field f,
                         std::uint32_t detail = 0) noexcept {
    return make_error(code, f, tx.offset_of(f), detail);
}

// YP app. F (eq. 311-313) and EIP-2: 0 < r < n, 0 < s < n, and s <= n/2 from Homestead, where
// n is the order of the process-wide curve (secp256k1, or secp256r1 on a private network).
bool r_in_range(const Uint256& r, const crypto::SignatureScheme& curve) noexcept {
    return !r.is_zero() && r < curve.order;
}

}  // namespace

std::uint64_t intrinsic_gas(const Transaction& tx, Fork fork) noexcept {
    const bool create = tx.is_create();
    std::uint64_t gas = create && has_homestead_rules(fork) ? kTxCreateGas : kTxGas;
    const std::uint64_t size = tx.data().size();
    const std::uint64_t zeros = tx.data_zero_bytes();
    const std::uint64_t non_zero_gas =
        has_eip2028(fork) ? kTxDataNonZeroGasIstanbul : kTxDataNonZeroGasFrontier;
    gas += zeros * kTxDataZeroGas + (size - zeros) * non_zero_gas;
    const AccessListView al = tx.access_list();
    gas += al.size() * kAccessListAddressGas + al.storage_key_count() * kAccessListStorageKeyGas;
    if (create && has_eip3860(fork)) gas += kInitcodeWordGas * ((size + 31) / 32);
    gas += tx.authorization_list().size() * kPerEmptyAccountCost;
    return gas;
}

std::uint64_t floor_data_gas(const Transaction& tx) noexcept {
    const std::uint64_t size = tx.data().size();
    const std::uint64_t zeros = tx.data_zero_bytes();
    const std::uint64_t tokens = zeros + (size - zeros) * kTokensPerNonZeroByte;
    return kTxGas + tokens * kTotalCostFloorPerToken;
}

Result<void, Error> validate(const Transaction& tx, Fork fork, std::uint64_t chain_id,
                             ValidateSkips skips) noexcept {
    const TxType type = tx.type();
    const bool legacy = type == TxType::legacy;

    // 1. EIP-2718: the fork must know the type.
    if (!supports_tx_type(fork, static_cast<std::uint8_t>(type))) {
        return fail(tx, Errc::type_not_supported, Field::type, static_cast<std::uint8_t>(type));
    }

    // 2. v / y_parity and the chain id.
    if (legacy) {
        const Uint256& v = tx.v();
        const bool plain = v == 27 || v == 28;  // YP §4.2: v = 27 + y_parity
        if (!plain) {
            if (!has_eip155(fork) || v == 0 || v == 1) {
                return fail(tx, Errc::invalid_signature_values, Field::v);
            }
            // EIP-155: v = chain_id * 2 + 35 + y_parity; any other v names another chain.
            const Uint256 want = Uint256{chain_id} * 2 + 35;
            if (v != want && v != want + 1) return fail(tx, Errc::invalid_chain_id, Field::v);
        }
    } else {
        // EIP-2930 and later: an explicit chain_id and y_parity in {0, 1}.
        if (tx.chain_id() != chain_id) return fail(tx, Errc::invalid_chain_id, Field::chain_id);
        if (tx.v() > 1) return fail(tx, Errc::invalid_signature_values, Field::y_parity);
    }

    // 3. r and s ranges (YP app. F), low s from Homestead (EIP-2).
    const crypto::SignatureScheme& curve = crypto::signature_scheme();
    if (!r_in_range(tx.r(), curve)) return fail(tx, Errc::invalid_signature_values, Field::r);
    const Uint256& s = tx.s();
    const Uint256 s_max = has_homestead_rules(fork) ? curve.half_order : curve.order - 1;
    if (s.is_zero() || s > s_max) return fail(tx, Errc::invalid_signature_values, Field::s);

    // 4. EIP-2681: the nonce stays below 2^64 - 1.
    if (!skips.nonce_bound && tx.nonce() == std::numeric_limits<std::uint64_t>::max()) {
        return fail(tx, Errc::nonce_is_max, Field::nonce);
    }

    // 5. EIP-1559: the tip cannot exceed the fee cap.
    if (tx.max_priority_fee_per_gas() > tx.max_fee_per_gas()) {
        return fail(tx, Errc::priority_fee_greater_than_max_fee, Field::max_priority_fee_per_gas);
    }

    // 6. The up-front cost gas_limit * price must be representable (YP §6.2: v0 fits 256 bits).
    if (mul_overflow(Uint256{tx.gas_limit()}, tx.max_fee_per_gas()).overflow) {
        return fail(tx, Errc::gas_limit_price_overflow, Field::gas_limit);
    }

    // 7. EIP-7825: at most 2^24 gas per transaction from Osaka.
    if (!skips.gas_cap && has_eip7825(fork) && tx.gas_limit() > kMaxTxGasLimit) {
        return fail(tx, Errc::gas_limit_exceeds_maximum, Field::gas_limit);
    }

    // 8. EIP-3860: init code of at most 49152 bytes from Shanghai.
    if (tx.is_create() && has_eip3860(fork) && tx.data().size() > kMaxInitcodeSize) {
        return fail(tx, Errc::initcode_size_exceeded, Field::data, saturate32(tx.data().size()));
    }

    // 9. Intrinsic gas (YP §6.2 eq. 60).
    const std::uint64_t intrinsic = intrinsic_gas(tx, fork);
    if (tx.gas_limit() < intrinsic) {
        return fail(tx, Errc::intrinsic_gas_too_low, Field::gas_limit,
                    saturate32(intrinsic - tx.gas_limit()));
    }

    // 10. EIP-7623: the calldata floor from Prague.
    if (has_eip7623(fork)) {
        const std::uint64_t floor = floor_data_gas(tx);
        if (tx.gas_limit() < floor) {
            return fail(tx, Errc::gas_below_floor_cost, Field::gas_limit,
                        saturate32(floor - tx.gas_limit()));
        }
    }

    // 11. EIP-4844 blob rules.
    if (type == TxType::blob) {
        const BlobHashesView hashes = tx.blob_versioned_hashes();
        if (hashes.empty()) return fail(tx, Errc::blob_list_empty, Field::blob_versioned_hashes);
        if (hashes.size() > max_blobs_per_tx(fork)) {
            return fail(tx, Errc::blob_count_exceeded, Field::blob_versioned_hashes,
                        saturate32(hashes.size()));
        }
        for (std::size_t i = 0; i < hashes.size(); ++i) {
            if (hashes.as_view(i)[0] != kVersionedHashVersionKzg) {
                return make_error(Errc::invalid_blob_versioned_hash, Field::blob_versioned_hash,
                                  tx.offset_of(Field::blob_versioned_hashes),
                                  static_cast<std::uint32_t>(i));
            }
        }
    }

    // 12. EIP-7702: a set-code transaction carries at least one authorization.
    if (type == TxType::set_code && tx.authorization_list().empty()) {
        return fail(tx, Errc::authorization_list_empty, Field::authorization_list);
    }
    return {};
}

}  // namespace keel::eth
