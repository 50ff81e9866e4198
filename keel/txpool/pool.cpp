#include "keel/txpool/pool.hpp"

#include <algorithm>
#include <queue>
#include <set>

#include "keel/common/hex.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/tx_validation.hpp"
#include "keel/kzg/kzg.hpp"

namespace keel::txpool {
namespace {

std::string address_text(const Address& a) {
    return hex::encode_prefixed(a.view());
}

// The most the transaction can cost its sender: gas * fee cap + value + blob gas * blob fee cap.
// validate() refused gas * fee cap >= 2^256; the sums saturate (a cost near 2^256 is more than
// any balance).
Uint256 max_cost(const eth::Transaction& tx) {
    const Uint256 gas = Uint256(tx.gas_limit()) * tx.max_fee_per_gas();
    auto sum = add_overflow(gas, tx.value());
    if (sum.overflow) return Uint256::max();
    const std::size_t blobs = tx.blob_versioned_hashes().size();
    if (blobs == 0) return sum.value;
    const auto blob_fee =
        mul_overflow(Uint256(blobs * eth::kGasPerBlob), tx.max_fee_per_blob_gas());
    if (blob_fee.overflow) return Uint256::max();
    sum = add_overflow(sum.value, blob_fee.value);
    return sum.overflow ? Uint256::max() : sum.value;
}

// A blob transaction's sidecar, as geth's pool checks it: present, of the fork's version (0,
// a proof per blob, before Osaka; 1, a proof per cell, from Osaka), each commitment hashing to
// its versioned hash, and the KZG proofs holding for the blobs.
Result<void, std::string> check_sidecar(const eth::Transaction& tx, eth::Fork fork) {
    if (!tx.has_sidecar()) return unexpected(std::string("missing sidecar in blob transaction"));
    const unsigned want = sidecar_version(fork);
    if (tx.wrapper_version() != want) {
        return unexpected("invalid sidecar: unexpected sidecar version, want: " +
                          std::to_string(want) + ", got: " + std::to_string(tx.wrapper_version()));
    }
    const auto hashes = tx.blob_versioned_hashes();
    const auto commitments = tx.commitments();
    const auto blobs = tx.blobs();
    const auto proofs = tx.proofs();
    if (commitments.size() != hashes.size()) {
        return unexpected("invalid number of " + std::to_string(commitments.size()) +
                          " blob commitments compared to " + std::to_string(hashes.size()) +
                          " blob hashes");
    }
    for (std::size_t i = 0; i < hashes.size(); ++i) {
        const Hash32 computed = kzg::versioned_hash(commitments.as_view(i));
        if (computed != hashes[i]) {
            return unexpected("blob " + std::to_string(i) + ": computed hash " +
                              hex::encode_prefixed(computed.view()) +
                              " mismatches transaction one " +
                              hex::encode_prefixed(hashes[i].view()));
        }
    }
    const std::size_t per_blob = want == 1 ? kzg::kCellsPerBlob : 1;
    if (proofs.size() != commitments.size() * per_blob || blobs.size() != commitments.size()) {
        return unexpected("invalid sidecar: invalid number of " + std::to_string(proofs.size()) +
                          " blob proofs expected " + std::to_string(commitments.size() * per_blob));
    }
    std::vector<BytesView> c, b, p;
    for (std::size_t i = 0; i < proofs.size(); ++i) p.push_back(proofs.as_view(i));
    if (want == 0) {
        for (std::size_t i = 0; i < blobs.size(); ++i) {
            b.push_back(blobs.as_view(i));
            c.push_back(commitments.as_view(i));
        }
        auto ok = kzg::verify_blob_kzg_proof_batch(b, c, p);
        if (!ok)
            return unexpected("invalid blob " + std::to_string(ok.error().offset) + ": " +
                              std::string(kzg::describe(ok.error().code)));
        if (!*ok) return unexpected(std::string("invalid blob proof"));
        return {};
    }
    // Version 1: the blobs' cells, computed here, against the sender's cell proofs.
    std::vector<Bytes> cells;
    std::vector<std::uint64_t> indices;
    for (std::size_t i = 0; i < blobs.size(); ++i) {
        auto ext = kzg::compute_cells(blobs.as_view(i));
        if (!ext)
            return unexpected("invalid blob " + std::to_string(i) + ": " +
                              std::string(kzg::describe(ext.error().code)));
        cells.push_back(std::move(*ext));
    }
    for (std::size_t i = 0; i < blobs.size(); ++i) {
        for (std::size_t k = 0; k < kzg::kCellsPerBlob; ++k) {
            c.push_back(commitments.as_view(i));
            b.push_back(BytesView(cells[i].data() + k * kzg::kBytesPerCell, kzg::kBytesPerCell));
            indices.push_back(k);
        }
    }
    auto ok = kzg::verify_cell_kzg_proof_batch(c, indices, b, p);
    if (!ok)
        return unexpected("invalid cell proof " + std::to_string(ok.error().offset) + ": " +
                          std::string(kzg::describe(ok.error().code)));
    if (!*ok) return unexpected(std::string("invalid cell proofs"));
    return {};
}

// The tip the transaction pays at `base_fee` (EIP-1559); nullopt when its fee cap is below it.
std::optional<Uint256> tip_at(const eth::Transaction& tx, const Uint256& base_fee) {
    if (tx.max_fee_per_gas() < base_fee) return std::nullopt;
    const Uint256 room = tx.max_fee_per_gas() - base_fee;
    return std::min(room, tx.max_priority_fee_per_gas());
}

// a >= b * (100 + percent) / 100, without overflow for fee values.
bool bumped(const Uint256& a, const Uint256& b, unsigned percent) {
    return a * Uint256(100) >= b * Uint256(100 + percent);
}

}  // namespace

std::size_t Pool::Account::pending_count() const {
    std::size_t n = 0;
    std::uint64_t next = state_nonce;
    for (auto it = by_nonce.find(next); it != by_nonce.end() && it->first == next; ++it, ++next)
        ++n;
    return n;
}

Result<Hash32, std::string> Pool::add(BytesView raw, const Head& head,
                                      const state::StateReader& state) {
    // A blob transaction comes in its network form, the sidecar after the transaction: the size
    // limit is the transaction's, the sidecar's is its blob count's (checked by validate()).
    const bool blob = !raw.empty() && raw[0] == static_cast<std::uint8_t>(eth::TxType::blob);
    if (!blob && raw.size() > limits_.max_size) {
        return unexpected("oversized data: transaction size " + std::to_string(raw.size()) +
                          ", limit " + std::to_string(limits_.max_size));
    }
    auto decoded = blob ? eth::decode_transaction_network(raw) : eth::decode_transaction(raw);
    // A blob transaction in its canonical form (as a block carries it) has no sidecar to keep.
    if (!decoded && blob && eth::decode_transaction(raw))
        return unexpected(std::string("missing sidecar in blob transaction"));
    if (!decoded) return unexpected("invalid transaction: " + eth::to_string(decoded.error()));
    eth::Transaction tx = std::move(*decoded);
    if (tx.encoded().size() > limits_.max_size) {
        return unexpected("oversized data: transaction size " +
                          std::to_string(tx.encoded().size()) + ", limit " +
                          std::to_string(limits_.max_size));
    }
    if (auto v = eth::validate(tx, head.fork, head.chain_id); !v) {
        switch (v.error().code) {
            case eth::Errc::type_not_supported:
                return unexpected(std::string("transaction type not supported"));
            case eth::Errc::invalid_chain_id:
                return unexpected(std::string("invalid chain id"));
            case eth::Errc::intrinsic_gas_too_low:
                return unexpected(std::string("intrinsic gas too low"));
            default:
                return unexpected(eth::to_string(v.error()));
        }
    }
    if (tx.gas_limit() > head.gas_limit) return unexpected(std::string("exceeds block gas limit"));
    if (tx.max_priority_fee_per_gas() < limits_.min_tip)
        return unexpected(std::string("transaction underpriced: tip below the pool's minimum"));
    if (blob) {
        if (tx.max_fee_per_blob_gas() < Uint256(1)) {
            return unexpected("transaction underpriced: blob fee cap " +
                              tx.max_fee_per_blob_gas().to_dec() + ", minimum needed 1");
        }
        if (auto ok = check_sidecar(tx, head.fork); !ok) return unexpected(ok.error());
    }
    auto from = eth::sender(tx);
    if (!from) return unexpected("invalid sender: " + eth::to_string(from.error()));
    const Address sender = *from;
    const Hash32 hash = tx.hash();

    const state::Account acc = state.account(sender).value_or(state::Account{});
    if (auto f = state.failure()) return unexpected("state read: " + *f);
    if (tx.nonce() < acc.nonce) {
        return unexpected("nonce too low: address " + address_text(sender) + ", tx: " +
                          std::to_string(tx.nonce()) + " state: " + std::to_string(acc.nonce));
    }
    if (tx.nonce() > acc.nonce + limits_.max_nonce_gap) {
        return unexpected("nonce too high: address " + address_text(sender) +
                          ", tx: " + std::to_string(tx.nonce()) +
                          " state: " + std::to_string(acc.nonce) + " (the pool keeps at most " +
                          std::to_string(limits_.max_nonce_gap) + " ahead)");
    }
    const Uint256 cost = max_cost(tx);
    if (acc.balance < cost) {
        return unexpected("insufficient funds for gas * price + value: balance " +
                          acc.balance.to_dec() + ", tx cost " + cost.to_dec() + ", overshot " +
                          (cost - acc.balance).to_dec());
    }

    std::unique_lock lock(mutex_);
    if (by_hash_.contains(hash)) return unexpected(std::string("already known"));
    Account& a = accounts_[sender];
    a.state_nonce = acc.nonce;
    auto old = a.by_nonce.find(tx.nonce());
    if (old != a.by_nonce.end()) {
        const eth::Transaction& o = old->second.tx;
        if (!bumped(tx.max_fee_per_gas(), o.max_fee_per_gas(), limits_.price_bump_percent) ||
            !bumped(tx.max_priority_fee_per_gas(), o.max_priority_fee_per_gas(),
                    limits_.price_bump_percent) ||
            !bumped(tx.max_fee_per_blob_gas(), o.max_fee_per_blob_gas(),
                    limits_.price_bump_percent)) {
            return unexpected(std::string("replacement transaction underpriced"));
        }
        by_hash_.erase(o.hash());
        blob_txs_ += blob ? 1 : 0;
        blob_txs_ -= o.type() == eth::TxType::blob ? 1 : 0;
        old->second.tx = std::move(tx);
        by_hash_.emplace(hash, sender);
        return announce(lock, hash, old->second.tx);
    }
    if (a.by_nonce.size() >= limits_.max_per_sender) {
        if (a.by_nonce.empty()) accounts_.erase(sender);
        return unexpected("account limit exceeded: " + address_text(sender) + " has " +
                          std::to_string(limits_.max_per_sender) + " transactions in the pool");
    }
    if (total_ >= limits_.max_total) {
        if (a.by_nonce.empty()) accounts_.erase(sender);
        return unexpected(std::string("txpool is full"));
    }
    if (blob && blob_txs_ >= limits_.max_blob_transactions) {
        if (a.by_nonce.empty()) accounts_.erase(sender);
        return unexpected("blob pool is full: " + std::to_string(limits_.max_blob_transactions) +
                          " blob transactions kept");
    }
    if (blob) ++blob_txs_;
    const auto placed = a.by_nonce.emplace(tx.nonce(), Entry{std::move(tx)}).first;
    by_hash_.emplace(hash, sender);
    ++total_;
    return announce(lock, hash, placed->second.tx);
}

Hash32 Pool::announce(std::unique_lock<std::mutex>& lock, const Hash32& hash,
                      const eth::Transaction& tx) {
    if (!on_add_) return hash;
    const auto listener = on_add_;
    const eth::Transaction copy = tx;
    lock.unlock();
    listener(copy);
    return hash;
}

void Pool::set_on_add(std::function<void(const eth::Transaction&)> f) {
    std::lock_guard lock(mutex_);
    on_add_ = std::move(f);
}

std::uint8_t sidecar_version(eth::Fork fork) noexcept {
    return fork >= eth::Fork::osaka ? 1 : 0;
}

void keep_carriable(std::vector<eth::Transaction>& txs, eth::Fork fork) {
    const std::uint8_t want = sidecar_version(fork);
    std::set<Address> held;
    std::erase_if(txs, [&](const eth::Transaction& tx) {
        const auto sender = tx.cached_sender();
        if (sender && held.contains(*sender)) return true;
        if (!tx.has_sidecar() || tx.wrapper_version() == want) return false;
        if (sender) held.insert(*sender);
        return true;
    });
}

void Pool::update(const Head& head, const state::StateReader& state) {
    std::lock_guard lock(mutex_);
    for (auto it = accounts_.begin(); it != accounts_.end();) {
        const state::Account acc = state.account(it->first).value_or(state::Account{});
        Account& a = it->second;
        a.state_nonce = acc.nonce;
        for (auto t = a.by_nonce.begin(); t != a.by_nonce.end();) {
            const bool included = t->first < acc.nonce;
            const bool unpayable = acc.balance < max_cost(t->second.tx);
            const bool too_big = t->second.tx.gas_limit() > head.gas_limit;
            // A sidecar of the wrong version for the next block's fork (a version-0 one kept
            // from before Osaka once Osaka comes; geth drops those too and converts none).
            const eth::Transaction& tx = t->second.tx;
            const bool stale_sidecar =
                tx.has_sidecar() && tx.wrapper_version() != sidecar_version(head.fork);
            if (included || unpayable || too_big || stale_sidecar) {
                by_hash_.erase(t->second.tx.hash());
                blob_txs_ -= t->second.tx.type() == eth::TxType::blob ? 1 : 0;
                t = a.by_nonce.erase(t);
                --total_;
            } else {
                ++t;
            }
        }
        it = a.by_nonce.empty() ? accounts_.erase(it) : std::next(it);
    }
}

Status Pool::status() const {
    std::lock_guard lock(mutex_);
    Status s;
    for (const auto& [sender, a] : accounts_) {
        const std::size_t p = a.pending_count();
        s.pending += p;
        s.queued += a.by_nonce.size() - p;
    }
    return s;
}

void Pool::for_each(const std::function<void(const Kept&)>& f) const {
    std::lock_guard lock(mutex_);
    for (const auto& [sender, a] : accounts_) {
        std::uint64_t next = a.state_nonce;
        for (const auto& [nonce, e] : a.by_nonce) {
            const bool pending = nonce == next;
            if (pending) ++next;
            f(Kept{&e.tx, sender, pending});
        }
    }
}

std::optional<KeptBlob> Pool::find_blob(const Hash32& versioned_hash) const {
    std::lock_guard lock(mutex_);
    for (const auto& [sender, a] : accounts_) {
        for (const auto& [nonce, e] : a.by_nonce) {
            const eth::Transaction& tx = e.tx;
            if (!tx.has_sidecar()) continue;
            const auto hashes = tx.blob_versioned_hashes();
            for (std::size_t i = 0; i < hashes.size(); ++i) {
                if (hashes[i] != versioned_hash) continue;
                KeptBlob out;
                const BytesView blob = tx.blobs().as_view(i), c = tx.commitments().as_view(i);
                out.blob.assign(blob.begin(), blob.end());
                out.commitment.assign(c.begin(), c.end());
                out.wrapper_version = tx.wrapper_version();
                const std::size_t per = tx.wrapper_version() == 1 ? kzg::kCellsPerBlob : 1;
                for (std::size_t k = 0; k < per; ++k) {
                    const BytesView p = tx.proofs().as_view(i * per + k);
                    out.proofs.emplace_back(p.begin(), p.end());
                }
                return out;
            }
        }
    }
    return std::nullopt;
}

std::uint64_t Pool::next_nonce(const Address& sender, std::uint64_t state_nonce) const {
    std::lock_guard lock(mutex_);
    auto it = accounts_.find(sender);
    if (it == accounts_.end()) return state_nonce;
    std::uint64_t next = state_nonce;
    const auto& txs = it->second.by_nonce;
    for (auto t = txs.find(next); t != txs.end() && t->first == next; ++t) ++next;
    return next;
}

std::optional<eth::Transaction> Pool::get(const Hash32& hash) const {
    std::lock_guard lock(mutex_);
    auto it = by_hash_.find(hash);
    if (it == by_hash_.end()) return std::nullopt;
    const Account& a = accounts_.at(it->second);
    for (const auto& [nonce, e] : a.by_nonce)
        if (e.tx.hash() == hash) return e.tx;
    return std::nullopt;
}

std::vector<eth::Transaction> Pool::best(const Uint256& base_fee, std::uint64_t gas_limit) const {
    std::lock_guard lock(mutex_);
    // Each sender's next pending transaction competes by tip; taking one exposes its successor.
    struct Next {
        Uint256 tip;
        const Account* account;
        std::uint64_t nonce;
    };
    const auto worse = [](const Next& a, const Next& b) { return a.tip < b.tip; };
    std::priority_queue<Next, std::vector<Next>, decltype(worse)> heads(worse);
    const auto push = [&](const Account& a, std::uint64_t nonce) {
        auto it = a.by_nonce.find(nonce);
        if (it == a.by_nonce.end()) return;
        if (auto tip = tip_at(it->second.tx, base_fee)) heads.push(Next{*tip, &a, nonce});
    };
    for (const auto& [sender, a] : accounts_) push(a, a.state_nonce);
    std::vector<eth::Transaction> out;
    std::uint64_t gas = 0;
    while (!heads.empty()) {
        const Next h = heads.top();
        heads.pop();
        const eth::Transaction& tx = h.account->by_nonce.at(h.nonce).tx;
        if (gas + tx.gas_limit() > gas_limit) continue;  // this sender's later ones wait too
        gas += tx.gas_limit();
        out.push_back(tx);
        push(*h.account, h.nonce + 1);
    }
    return out;
}

}  // namespace keel::txpool
