#include "keel/eth/sender.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "keel/common/assert.hpp"
#include "keel/common/parallel.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/signature.hpp"

namespace keel::eth {

namespace {

using crypto::SigError;
using crypto::SignatureScheme;

// Transactions per batch task: one recovery costs tens of microseconds, so a task of 8 keeps
// oneTBB's scheduling cost far below 1% while a block of 100-300 transactions still splits into
// enough tasks to keep every core busy.
constexpr std::size_t kBatchGrain = 8;

std::unexpected<Error> signature_error(const Transaction& tx, SigError e) noexcept {
    switch (e) {
        case SigError::invalid_r:
            return make_error(Errc::invalid_signature_values, Field::r, tx.offset_of(Field::r));
        case SigError::invalid_s:
            return make_error(Errc::invalid_signature_values, Field::s, tx.offset_of(Field::s));
        case SigError::invalid_recovery_id: {
            const Field f = tx.type() == TxType::legacy ? Field::v : Field::y_parity;
            return make_error(Errc::invalid_signature_values, f, tx.offset_of(f));
        }
        case SigError::no_public_key:
        case SigError::invalid_secret_key:
        case SigError::invalid_public_key:
        case SigError::random_not_supported:
        case SigError::random_failed:
            break;
    }
    return make_error(Errc::invalid_signature, Field::none, tx.offset_of(Field::none));
}

// Recovery without the cache, on a given scheme (read once by the caller).
Result<Address, Error> recover(const Transaction& tx, const SignatureScheme& scheme) noexcept {
    // v selects the signing hash (EIP-155) and the parity; values that select neither cannot be
    // recovered. Legacy: 27/28 (YP eq. 311) or chain_id * 2 + 35/36 with a 64-bit chain id.
    // Typed: the y_parity field, 0 or 1 (EIP-2930 and later).
    const Uint256& v = tx.v();
    if (tx.type() == TxType::legacy) {
        if (v != 27 && v != 28 && !tx.chain_id()) {
            return make_error(Errc::invalid_signature_values, Field::v, tx.offset_of(Field::v));
        }
    } else if (v > 1) {
        return make_error(Errc::invalid_signature_values, Field::y_parity,
                          tx.offset_of(Field::y_parity));
    }
    auto a = scheme.recover_address(tx.signing_hash(), tx.r(), tx.s(), tx.y_parity());
    if (!a) return signature_error(tx, a.error());
    return *a;
}

}  // namespace

// The one holder of SenderSlot's key: publishes what recovery yields, and nothing else.
struct SenderPublisher {
    // sender() on a given scheme: the published sender, or a recovery that publishes (once; a
    // thread that loses the race to publish returns its own result, which is the same address).
    static Result<Address, Error> sender(const Transaction& tx,
                                         const SignatureScheme& scheme) noexcept {
        if (auto known = tx.cached_sender()) return *known;
        auto a = recover(tx, scheme);
        if (a) tx.sender_slot().publish(SenderSlot::Key{}, *a);
        return a;
    }

    // authorities(): the published list, or one recovered and published.
    static std::span<const std::optional<Address>> authorities(const Transaction& tx) {
        if (tx.type() != TxType::set_code) return {};  // none to recover, nothing to publish
        if (const AuthoritySlot::List* known = tx.authority_slot().get()) return *known;
        auto list = std::make_unique<AuthoritySlot::List>();
        list->reserve(tx.authorization_list().size());
        for (const Authorization auth : tx.authorization_list()) {
            auto a = authority(auth);
            list->push_back(a ? std::optional<Address>(*a) : std::nullopt);
        }
        return *tx.authority_slot().publish(AuthoritySlot::Key{}, std::move(list));
    }
};

namespace {
Result<Address, Error> cached_sender(const Transaction& tx,
                                     const SignatureScheme& scheme) noexcept {
    return SenderPublisher::sender(tx, scheme);
}

// Whether everything recover_senders() recovers is published for `tx`: its sender and, for a
// set-code transaction, its authorities.
bool recovered(const Transaction& tx) noexcept {
    return tx.cached_sender() &&
           (tx.type() != TxType::set_code || tx.authority_slot().get() != nullptr);
}

// One transaction's share of a batch: its sender and its authorities (none but a set-code
// transaction's: authorities() looks at the type).
Result<Address, Error> recover_one(const Transaction& tx, const SignatureScheme& scheme) {
    (void)SenderPublisher::authorities(tx);
    return cached_sender(tx, scheme);
}
}  // namespace

std::span<const std::optional<Address>> authorities(const Transaction& tx) {
    return SenderPublisher::authorities(tx);
}

Result<Address, Error> sender(const Transaction& tx) noexcept {
    return cached_sender(tx, crypto::signature_scheme());
}

std::size_t recover_senders(std::span<const Transaction> txs) {
    // A body read again (kept decoded by its reader) has everything published: no parallel
    // loop, whose start wakes the pool's threads for nothing.
    if (std::ranges::all_of(txs, recovered)) return txs.size();
    const SignatureScheme& scheme = crypto::signature_scheme();
    return parallel::map_reduce(
        txs.size(), kBatchGrain, std::size_t{0},
        [&](std::size_t begin, std::size_t end) {
            std::size_t known = 0;
            for (std::size_t i = begin; i < end; ++i) known += recover_one(txs[i], scheme) ? 1 : 0;
            return known;
        },
        [](std::size_t a, std::size_t b) { return a + b; });
}

void recover_senders(std::span<const Transaction> txs, std::span<Result<Address, Error>> out) {
    KEEL_ASSERT(txs.size() == out.size());
    // Senders recovered ahead (an executing import's staging does it beside execution): no
    // parallel loop, whose waiting thread could pick up unrelated pool work meanwhile.
    std::size_t known = 0;
    while (known < txs.size() && recovered(txs[known])) {
        out[known] = *txs[known].cached_sender();
        ++known;
    }
    if (known == txs.size()) return;
    const SignatureScheme& scheme = crypto::signature_scheme();
    parallel::for_ranges(txs.size(), kBatchGrain, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) out[i] = recover_one(txs[i], scheme);
    });
}

Result<Address, Error> authority(const Authorization& auth) noexcept {
    // EIP-7702: authority = ecrecover(msg, y_parity, r, s), with s <= n/2 as in EIP-2. The
    // decoder allows any y_parity below 2^8; recovery ids 2 and 3 are not Ethereum's.
    if (auth.y_parity > 1) {
        return make_error(Errc::invalid_signature_values, Field::authorization_y_parity, 0);
    }
    const SignatureScheme& scheme = crypto::signature_scheme();
    if (auth.s > scheme.half_order) {
        return make_error(Errc::invalid_signature_values, Field::authorization_s, 0);
    }
    auto a = scheme.recover_address(auth.signing_hash(), auth.r, auth.s, auth.y_parity);
    if (a) return *a;
    switch (a.error()) {
        case SigError::invalid_r:
            return make_error(Errc::invalid_signature_values, Field::authorization_r, 0);
        case SigError::invalid_s:
            return make_error(Errc::invalid_signature_values, Field::authorization_s, 0);
        case SigError::invalid_recovery_id:
            return make_error(Errc::invalid_signature_values, Field::authorization_y_parity, 0);
        case SigError::no_public_key:
        case SigError::invalid_secret_key:
        case SigError::invalid_public_key:
        case SigError::random_not_supported:
        case SigError::random_failed:
            break;
    }
    return make_error(Errc::invalid_signature, Field::authorization, 0);
}

}  // namespace keel::eth
