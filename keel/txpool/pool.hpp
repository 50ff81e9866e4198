#pragma once
/// txpool::Pool: the transactions a node has been sent and not yet seen in a block (geth's
/// legacy pool, in its essentials). A transaction is checked when it arrives against the head
/// the caller describes (its fork, block gas limit) and the head's state (the sender's nonce and
/// balance), and kept per sender by nonce:
/// - pending: the sender's transactions from its state nonce on without a gap, ready for a
///   block; queued: those after a gap, waiting for the missing nonce;
/// - a transaction of the same sender and nonce replaces one only when both its fee cap and its
///   tip are at least 10% higher ("replacement transaction underpriced");
/// - limits, each refused with geth's words: 128 KiB a transaction ("oversized data"), 64 a
///   sender ("account limit exceeded"), 6,144 in all ("txpool is full"), a nonce at most 64
///   ahead of the state's ("nonce too high"), a tip of at least 1 wei ("transaction
///   underpriced");
/// - blob transactions come with their sidecar (the network form) and are kept with it: the
///   sidecar of the fork's version (before Osaka a proof per blob, from Osaka a proof per cell,
///   EIP-7594), every commitment hashing to its versioned hash, the KZG proofs verified
///   (keel/kzg; cell proofs against the cells computed from the blobs); a blob fee cap of at
///   least 1 wei; blob gas counted in the cost; at most 128 blob transactions kept ("blob pool is
///   full"); a replacement must raise the blob fee cap by the bump too. find_blob() serves
///   engine_getBlobs.
/// When the head moves (update()), what the new state includes is dropped (and a blob
/// transaction whose sidecar is not of the next block's fork's version: a version-0 one at
/// Osaka, which geth's blob pool drops too, converting none) and the rest
/// sorted again into pending and queued. best() hands a block producer the pending transactions,
/// best effective tip first, each sender's in nonce order.
///
/// Threading: every member may be called from many threads (one mutex).

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/fork.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/state/reader.hpp"

namespace keel::txpool {

/// The head a transaction is checked against (the block it could go in: the head's child).
struct Head {
    std::uint64_t number = 0;              ///< the head's
    eth::Fork fork = eth::Fork::frontier;  ///< the next block's
    std::uint64_t chain_id = 1;
    std::uint64_t gas_limit = 0;  ///< the head's block gas limit
    Uint256 base_fee;             ///< the next block's (0 before London)
};

struct Limits {
    std::size_t max_size = 128 * 1024;
    std::size_t max_per_sender = 64;
    std::size_t max_total = 6144;
    std::uint64_t max_nonce_gap = 64;
    Uint256 min_tip = Uint256(1);
    unsigned price_bump_percent = 10;
    /// Blob transactions kept at most (each up to 6 blobs of 128 KiB, with their proofs).
    std::size_t max_blob_transactions = 128;
};

/// A blob kept in the pool with its commitment and proofs (one, or one per cell).
struct KeptBlob {
    Bytes blob;
    Bytes commitment;
    std::vector<Bytes> proofs;
    std::uint8_t wrapper_version = 0;
};

struct Status {
    std::size_t pending = 0;
    std::size_t queued = 0;
};

/// One kept transaction, as txpool_content shows it.
struct Kept {
    const eth::Transaction* tx;
    Address sender;
    bool pending;
};

/// The sidecar version a block of `fork` carries for its blob transactions: 0 (a proof per
/// blob) before Osaka, 1 (a proof per cell, EIP-7594) from Osaka on.
std::uint8_t sidecar_version(eth::Fork fork) noexcept;

/// Leaves out of `txs` (a block producer's candidates, in order) each blob transaction whose
/// sidecar is not of `fork`'s version (a version-0 one kept from before Osaka, offered for the
/// first Osaka block: its blobsBundle would not be what the consensus client checks), and its
/// sender's later transactions with it (they would have a nonce gap). Transactions without a
/// sidecar stay.
void keep_carriable(std::vector<eth::Transaction>& txs, eth::Fork fork);

class Pool {
  public:
    explicit Pool(Limits limits = {}) : limits_(limits) {}

    /// Checks `raw` (a transaction's canonical envelope) against `head` and `state` (the head's
    /// post-state) and keeps it. Returns its hash; errors are one line in geth's words
    /// ("nonce too low: address 0x..., tx: 3 state: 5", "insufficient funds for gas * price +
    /// value: balance 1, tx cost 21000", "already known", "replacement transaction
    /// underpriced").
    [[nodiscard]] Result<Hash32, std::string> add(BytesView raw, const Head& head,
                                                  const state::StateReader& state);

    /// The head moved: drops what `state` (the new head's) shows as included (nonce below the
    /// sender's) or unpayable, and sorts the rest into pending and queued again.
    void update(const Head& head, const state::StateReader& state);

    /// `f` is told of each transaction add() keeps (a new one or a replacement), on add()'s
    /// thread after the pool's lock is released (eth_subscribe's newPendingTransactions); null:
    /// no one. One listener at a time.
    void set_on_add(std::function<void(const eth::Transaction&)> f);

    Status status() const;
    /// Every kept transaction, by sender then nonce.
    void for_each(const std::function<void(const Kept&)>& f) const;
    /// The nonce after `sender`'s pending transactions: `state_nonce` (the head's) when it has
    /// none in the pool that follow on from it.
    std::uint64_t next_nonce(const Address& sender, std::uint64_t state_nonce) const;
    /// The blob whose commitment has versioned hash `versioned_hash`, from any kept blob
    /// transaction's sidecar (engine_getBlobsV1/V2).
    std::optional<KeptBlob> find_blob(const Hash32& versioned_hash) const;
    /// The transaction `hash`, when kept.
    std::optional<eth::Transaction> get(const Hash32& hash) const;
    /// Pending transactions for a block on the head: best effective tip first (at `base_fee`),
    /// each sender's in nonce order, those whose fee cap is below the base fee left out, at most
    /// `gas_limit` of gas (by their gas limits) in all.
    std::vector<eth::Transaction> best(const Uint256& base_fee, std::uint64_t gas_limit) const;

  private:
    struct Entry {
        eth::Transaction tx;
    };
    struct Account {
        std::uint64_t state_nonce = 0;
        std::map<std::uint64_t, Entry> by_nonce;
        /// The number of consecutive nonces from state_nonce.
        std::size_t pending_count() const;
    };

    Hash32 announce(std::unique_lock<std::mutex>& lock, const Hash32& hash,
                    const eth::Transaction& tx);

    Limits limits_;
    mutable std::mutex mutex_;
    std::function<void(const eth::Transaction&)> on_add_;
    std::map<Address, Account> accounts_;
    std::unordered_map<Hash32, Address> by_hash_;
    std::size_t total_ = 0;
    std::size_t blob_txs_ = 0;
};

}  // namespace keel::txpool
