#include "keel/store/verify.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <utility>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/common/parallel.hpp"
#include "keel/common/progress.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/errors.hpp"
#include "keel/eth/header.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/store/detail/envelopes.hpp"
#include "keel/store/keys.hpp"
#include "keel/store/prune.hpp"
#include "keel/store/rewind.hpp"
#include "keel/store/set_digest.hpp"

namespace keel::store {
namespace {

using Clock = std::chrono::steady_clock;
using Fail = unexpected<VerifyError>;

// Bodies are hashed in parallel in chunks of about this many bytes (owned copies) or blocks.
constexpr std::size_t kChunkBytes = std::size_t{16} << 20;
constexpr std::size_t kChunkBlocks = 4096;
// A header_numbers record: hash ‖ BE8(number).
constexpr std::size_t kNumberRecordSize = 32 + keys::kNumberSize;

std::string hex(const Hash32& h) {
    return hex::encode_prefixed(h.view());
}

std::string hex(BytesView b) {
    return hex::encode_prefixed(b);
}

Fail block_error(std::uint64_t number, const std::string& what) {
    return Fail(VerifyError{number, "block " + std::to_string(number) + ": " + what});
}

Fail store_error(const StoreError& e) {
    return Fail(VerifyError{std::nullopt, e.message});
}

bool less(BytesView a, BytesView b) noexcept {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

bool equal(BytesView a, BytesView b) noexcept {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

using detail::envelopes;

// A stored body whose transactions are still to be hashed (and, in the exact search, looked up).
struct QueuedBody {
    std::uint64_t number = 0;
    Bytes body;
    std::size_t transactions = 0;
    std::optional<VerifyError> error;  // the first problem with its transactions
};

class Verifier {
  public:
    Verifier(const ChainStore& store, const VerifyOptions& options)
        : store_(store), options_(options) {}

    Result<VerifyReport, VerifyError> run() {
        const auto start = Clock::now();
        if (auto r = read_meta(); !r) return unexpected(r.error());
        if (auto r = walk_chain(); !r) return unexpected(r.error());
        if (auto r = check_header_numbers(); !r) return unexpected(r.error());
        if (auto r = check_lookups(); !r) return unexpected(r.error());
        report_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return report_;
    }

  private:
    // ---- meta --------------------------------------------------------------------------------

    Result<void, VerifyError> read_meta() {
        report_.floor = store_.history_floor();
        auto pending = store_.pending_operation();
        if (!pending) return store_error(pending.error());
        report_.pending = *pending;
        if (*pending && (*pending)->kind == kRewindOperation) {
            // Blocks above the new head are being removed: the store is not whole until the
            // rewind is finished, and it says so instead of reporting half-removed blocks.
            const auto to = rewind_marker_target((*pending)->argument);
            return Fail(VerifyError{
                to, "meta: a rewind" + (to ? " to block " + std::to_string(*to) : std::string()) +
                        " was interrupted; run the rewind again to finish it"});
        }
        if (*pending && (*pending)->kind == kPruneOperation) {
            // The prune's first step wrote the marker and the floor in one batch.
            const Bytes& arg = (*pending)->argument;
            const std::uint64_t target = arg.size() >= 8 ? keys::get_be64(arg.data()) : 0;
            if ((arg.size() != 8 && arg.size() != 16) || target != report_.floor) {
                return Fail(VerifyError{std::nullopt, "meta: the pending prune (argument " +
                                                          hex(arg) + ") disagrees with the " +
                                                          "history floor " +
                                                          std::to_string(report_.floor)});
            }
            pending_prune_ = true;
        }
        auto head = store_.head();
        if (!head) return store_error(head.error());
        meta_head_ = *head;
        auto tail = store_.tail();
        if (!tail) return store_error(tail.error());
        report_.tail = *tail;
        if (meta_head_ && report_.floor > *meta_head_) {
            return Fail(
                VerifyError{std::nullopt, "meta: history floor " + std::to_string(report_.floor) +
                                              " is above the head " + std::to_string(*meta_head_)});
        }
        auto genesis = store_.genesis_hash();
        if (!genesis) return store_error(genesis.error());
        genesis_ = *genesis;
        return {};
    }

    // ---- the canonical chain, with bodies and receipts ---------------------------------------

    Result<void, VerifyError> walk_chain() {
        auto canonical = store_.cursor(Family::canonical);
        auto headers = store_.cursor(Family::headers);
        auto tds = store_.cursor(Family::td);
        auto bodies = store_.cursor(Family::bodies);
        auto receipts = store_.cursor(Family::receipts);
        for (auto* c : {&canonical, &headers, &tds, &bodies, &receipts}) {
            if (!*c) return store_error(c->error());
        }
        const std::uint64_t total = report_.tail && meta_head_ && *meta_head_ >= *report_.tail
                                        ? *meta_head_ - *report_.tail + 1
                                        : 0;
        Progress progress("verify blocks", total,
                          Progress::Options{.enabled = options_.progress, .unit = "blocks"});

        std::optional<std::uint64_t> prev;
        Hash32 prev_hash;
        Uint256 prev_td;
        for (; canonical->valid(); canonical->next()) {
            const auto n = keys::parse_number(canonical->key());
            const auto hash = Hash32::from(canonical->value());
            if (!n || !hash) {
                return Fail(VerifyError{std::nullopt, "canonical: corrupt entry " +
                                                          hex(canonical->key()) + " -> " +
                                                          hex(canonical->value())});
            }
            if (prev && *n != *prev + 1) {
                return block_error(
                    *prev + 1, "missing from the canonical chain (the next canonical block is " +
                                   std::to_string(*n) + ")");
            }
            const auto key = keys::number_hash(*n, *hash);

            // Header: present, hashes to the canonical hash, names its number and its parent.
            skip_before(*headers, key);
            if (!headers->valid() || !equal(headers->key(), key)) {
                if (auto r = headers->status(); !r) return store_error(r.error());
                return block_error(*n, "no header stored for the canonical hash " + hex(*hash));
            }
            const Hash32 computed = crypto::keccak256(headers->value());
            if (computed != *hash) {
                return block_error(*n, "the header hashes to " + hex(computed) +
                                           ", not to the canonical hash " + hex(*hash));
            }
            auto header = eth::decode_header(headers->value());
            if (!header) {
                return block_error(*n,
                                   "the header does not decode: " + eth::to_string(header.error()));
            }
            if (header->number != *n) {
                return block_error(*n, "the header says number " + std::to_string(header->number));
            }
            if (prev && header->parent_hash != prev_hash) {
                return block_error(*n, "parent hash " + hex(header->parent_hash) +
                                           " is not the canonical hash of block " +
                                           std::to_string(*prev) + " (" + hex(prev_hash) + ")");
            }
            if (*n == 0 && genesis_ && *genesis_ != *hash) {
                return block_error(0, "canonical hash " + hex(*hash) +
                                          " is not the genesis hash in meta (" + hex(*genesis_) +
                                          ")");
            }
            // header_numbers is matched against the chain as a whole after the walk.
            canonical_digest_.add(hash->view(), keys::number(*n));

            // Total difficulty: present, and the parent's plus this block's difficulty.
            skip_before(*tds, key);
            if (!tds->valid() || !equal(tds->key(), key)) {
                if (auto r = tds->status(); !r) return store_error(r.error());
                return block_error(*n, "no total difficulty stored");
            }
            const auto td_bytes = Bytes32::from(tds->value());
            if (!td_bytes) {
                return block_error(*n, "total difficulty of " +
                                           std::to_string(tds->value().size()) + " bytes, want 32");
            }
            const Uint256 td = Uint256::from_be_bytes(*td_bytes);
            if (prev || *n == 0) {
                const Uint256 want = (prev ? prev_td : Uint256{}) + header->difficulty;
                if (td != want) {
                    return block_error(*n, "total difficulty " + td.to_dec() +
                                               " is not the parent's plus " + "the difficulty (" +
                                               want.to_dec() + ")");
                }
            }

            if (auto r = check_history(*n, key, *bodies, *receipts); !r) return r;
            prev = *n;
            prev_hash = *hash;
            prev_td = td;
            ++report_.blocks;
            progress.advance();
        }
        for (auto* c : {&canonical, &headers, &tds, &bodies, &receipts}) {
            if (auto r = (*c)->status(); !r) return store_error(r.error());
        }
        fold_chunk();
        report_.head = prev;
        if (meta_head_ != prev) {
            return Fail(VerifyError{prev, "meta: head is " +
                                              (meta_head_ ? std::to_string(*meta_head_) : "unset") +
                                              " but the highest canonical block is " +
                                              (prev ? std::to_string(*prev) : "none")});
        }
        // History rows after the last canonical block belong to no canonical block.
        std::array<std::uint8_t, keys::kNumberHashSize> end{};
        end.fill(0xff);
        if (auto r = stray_history(*bodies, "body", end); !r) return r;
        if (auto r = stray_history(*receipts, "receipts", end); !r) return r;
        for (auto* c : {&bodies, &receipts}) {
            if (auto r = (*c)->status(); !r) return store_error(r.error());
        }
        progress.finish();
        return {};
    }

    // Moves `c` to the first key at least `key` (rows of side blocks are passed over).
    static void skip_before(StoreCursor& c, BytesView key) {
        while (c.valid() && less(c.key(), key)) c.next();
    }

    // Rows of `c` before `key` belong to no canonical block at or above the floor: an error,
    // except below the floor while a prune is pending (it will remove them).
    Result<void, VerifyError> stray_history(StoreCursor& c, const char* what, BytesView key) {
        for (; c.valid() && less(c.key(), key); c.next()) {
            const auto nh = keys::parse_number_hash(c.key());
            if (!nh) {
                return Fail(
                    VerifyError{std::nullopt, std::string(what) + ": corrupt key " + hex(c.key())});
            }
            if (nh->number < report_.floor) {
                if (pending_prune_) continue;
                return block_error(nh->number, std::string(what) +
                                                   " stored below the history floor " +
                                                   std::to_string(report_.floor));
            }
            return block_error(nh->number, std::string(what) + " stored for " + hex(nh->hash) +
                                               ", which is not the canonical hash");
        }
        return {};
    }

    // Body and receipts of canonical block n (key: BE8(n) ‖ hash).
    Result<void, VerifyError> check_history(std::uint64_t n, BytesView key, StoreCursor& bodies,
                                            StoreCursor& receipts) {
        if (auto r = stray_history(bodies, "body", key); !r) return r;
        if (auto r = stray_history(receipts, "receipts", key); !r) return r;
        const bool has_body = bodies.valid() && equal(bodies.key(), key);
        const bool has_receipts = receipts.valid() && equal(receipts.key(), key);
        if (n < report_.floor) {
            if (has_body) bodies.next();
            if (has_receipts) receipts.next();
            if ((has_body || has_receipts) && !pending_prune_) {
                return block_error(n, std::string(has_body ? "body" : "receipts") +
                                          " stored below the history floor " +
                                          std::to_string(report_.floor));
            }
            return {};
        }
        if (!has_body) {
            if (auto r = bodies.status(); !r) return store_error(r.error());
            return block_error(
                n, "no body stored (history floor " + std::to_string(report_.floor) + ")");
        }
        // The body's shape and transaction count here; hashes and lookups in parallel later.
        auto txs = envelopes(bodies.value());
        if (!txs) {
            return block_error(n, "the body is not rlp([transactions, ommers, ...]): " +
                                      keel::to_string(txs.error()));
        }
        ++report_.bodies;
        report_.transactions += txs->size();
        if (has_receipts && !receipts.value().empty()) {
            auto list = rlp::open_list(receipts.value());
            Result<std::size_t, rlp::Error> count =
                list ? list->count() : Result<std::size_t, rlp::Error>(unexpected(list.error()));
            if (!count) {
                return block_error(
                    n, "the receipts are not an RLP list: " + keel::to_string(count.error()));
            }
            if (*count != txs->size()) {
                return block_error(n, std::to_string(*count) + " receipts for " +
                                          std::to_string(txs->size()) + " transactions");
            }
            ++report_.receipts;
        } else {
            ++report_.no_receipts;
        }
        if (!txs->empty()) queue_body(n, bodies.value(), txs->size());
        bodies.next();
        if (has_receipts) receipts.next();
        return {};
    }

    // ---- header_numbers ----------------------------------------------------------------------

    // Every canonical block's hash maps to its number. The family is read in key order and
    // matched against the canonical chain by digest (as the lookup index is, below); only when
    // they differ is each canonical hash looked up, to name the block at fault (entries of side
    // blocks make them differ, and are fine).
    Result<void, VerifyError> check_header_numbers() {
        canonical_digest_.flush();
        auto c = store_.cursor(Family::header_numbers);
        if (!c) return store_error(c.error());
        SetDigest entries(kNumberRecordSize);
        for (; c->valid(); c->next()) {
            if (c->key().size() != 32 || c->value().size() != keys::kNumberSize) {
                return Fail(VerifyError{
                    std::nullopt,
                    "header_numbers: corrupt entry " + hex(c->key()) + " -> " + hex(c->value())});
            }
            entries.add(c->key(), c->value());
        }
        if (auto r = c->status(); !r) return store_error(r.error());
        entries.flush();
        if (entries.count() == canonical_digest_.count() &&
            entries.sum() == canonical_digest_.sum()) {
            return {};
        }
        auto canonical = store_.cursor(Family::canonical);
        if (!canonical) return store_error(canonical.error());
        for (; canonical->valid(); canonical->next()) {
            const auto n = keys::parse_number(canonical->key());
            const auto hash = Hash32::from(canonical->value());
            if (!n || !hash) continue;  // reported while walking
            auto number = store_.block_number(*hash);
            if (!number) return store_error(number.error());
            if (!number->found()) {
                return block_error(*n, "header_numbers has no entry for its hash " + hex(*hash));
            }
            if (number->value != *n) {
                return block_error(
                    *n, "header_numbers maps its hash to block " + std::to_string(number->value));
            }
        }
        if (auto r = canonical->status(); !r) return store_error(r.error());
        return {};
    }

    // ---- body transactions against the lookup index ------------------------------------------
    //
    // Both sides are folded into an order-independent digest: the sum mod 2^256 of
    // keccak256(tx hash ‖ BE8(block) ‖ BE4(index)) over every transaction of every body at or
    // above the floor, and over every lookup entry (key ‖ value) at or above it. Equal sums and
    // counts mean equal sets (a difference goes unnoticed with probability about 2^-256: the
    // check is meant for damage, not for an adversary), so both sides are read in key order,
    // without a point read per transaction. Only when they differ is each transaction looked
    // up, to name the first block at fault.

    static constexpr std::size_t kTxRecordSize = 32 + keys::kTxLocationSize;

    // The hashes of a body's transactions (its framing was checked while walking).
    static void tx_hashes(BytesView body, std::vector<Hash32>& out) {
        out.clear();
        auto txs = envelopes(body);
        if (!txs) return;
        out.resize(txs->size());
        crypto::keccak256_many(*txs, out);
    }

    // Queues a body; folds the queue into the digest when it is large.
    void queue_body(std::uint64_t n, BytesView body, std::size_t txs) {
        chunk_bytes_ += body.size();
        chunk_.push_back(QueuedBody{n, Bytes(body.begin(), body.end()), txs, std::nullopt});
        if (chunk_bytes_ >= kChunkBytes || chunk_.size() >= kChunkBlocks) fold_chunk();
    }

    // Adds the queued bodies' transactions to the bodies' digest, in parallel.
    void fold_chunk() {
        const Uint256 sum = parallel::map_reduce(
            chunk_.size(), 1, Uint256{},
            [this](std::size_t begin, std::size_t end) {
                Uint256 part;
                std::vector<Hash32> hashes;
                Bytes records;
                for (std::size_t i = begin; i < end; ++i) {
                    tx_hashes(chunk_[i].body, hashes);
                    records.resize(hashes.size() * kTxRecordSize);
                    for (std::size_t t = 0; t < hashes.size(); ++t) {
                        const auto loc =
                            keys::tx_location(chunk_[i].number, static_cast<std::uint32_t>(t));
                        std::uint8_t* out = records.data() + t * kTxRecordSize;
                        std::memcpy(out, hashes[t].data(), 32);
                        std::memcpy(out + 32, loc.data(), loc.size());
                    }
                    part += SetDigest::sum_of(records, kTxRecordSize);
                }
                return part;
            },
            [](Uint256 a, const Uint256& b) { return a + b; });
        std::uint64_t txs = 0;
        for (const QueuedBody& q : chunk_) txs += q.transactions;
        body_digest_.merge(sum, txs);
        chunk_.clear();
        chunk_bytes_ = 0;
    }

    // The exact search, once the digests differ: each body transaction at or above the floor is
    // looked up, in parallel chunks; fails at the first block whose transactions are not all
    // indexed at their own place.
    Result<void, VerifyError> find_unindexed_transaction() {
        const auto from = keys::number(report_.floor);
        auto bodies = store_.cursor(Family::bodies, from);
        if (!bodies) return store_error(bodies.error());
        for (; bodies->valid(); bodies->next()) {
            const auto nh = keys::parse_number_hash(bodies->key());
            if (!nh) continue;  // reported while walking
            chunk_bytes_ += bodies->value().size();
            chunk_.push_back(QueuedBody{nh->number,
                                        Bytes(bodies->value().begin(), bodies->value().end()), 0,
                                        std::nullopt});
            if (chunk_bytes_ >= kChunkBytes || chunk_.size() >= kChunkBlocks) {
                if (auto r = look_up_chunk(); !r) return r;
            }
        }
        if (auto r = bodies->status(); !r) return store_error(r.error());
        return look_up_chunk();
    }

    Result<void, VerifyError> look_up_chunk() {
        parallel::for_each_index(chunk_.size(), 1, [this](std::size_t i) { look_up(chunk_[i]); });
        for (const QueuedBody& q : chunk_) {
            if (q.error) return Fail(*q.error);
        }
        chunk_.clear();
        chunk_bytes_ = 0;
        return {};
    }

    void look_up(QueuedBody& q) const {
        std::vector<Hash32> hashes;
        tx_hashes(q.body, hashes);
        for (std::size_t t = 0; t < hashes.size(); ++t) {
            auto loc = store_.tx_lookup(hashes[t]);
            if (!loc) {
                q.error = VerifyError{std::nullopt, loc.error().message};
                return;
            }
            if (loc->found() && loc->value == TxLocation{q.number, static_cast<std::uint32_t>(t)}) {
                continue;
            }
            std::string what = "transaction " + std::to_string(t) + " (" + hex(hashes[t]) + ")";
            if (loc->found()) {
                what += " has a lookup entry for block " + std::to_string(loc->value.number) +
                        " index " + std::to_string(loc->value.index);
            } else {
                what += " has no lookup entry";
            }
            q.error = block_error(q.number, what).error();
            return;
        }
    }

    // ---- tx lookup entries -------------------------------------------------------------------

    // Reads every entry in key order: none below the floor (unless a prune is pending), each
    // well formed, and the digest of those at or above the floor equal to the bodies' one.
    Result<void, VerifyError> check_lookups() {
        auto c = store_.cursor(Family::tx_lookup);
        if (!c) return store_error(c.error());
        Progress progress("verify tx lookups", report_.transactions,
                          Progress::Options{.enabled = options_.progress, .unit = "entries"});
        SetDigest entries(kTxRecordSize);
        for (; c->valid(); c->next()) {
            const auto loc = keys::parse_tx_location(c->value());
            if (!loc || c->key().size() != 32) {
                return Fail(VerifyError{std::nullopt, "tx lookup entry " + hex(c->key()) +
                                                          ": corrupt (value " + hex(c->value()) +
                                                          ")"});
            }
            if (loc->number < report_.floor) {
                if (pending_prune_) continue;
                return block_error(loc->number, "tx lookup entry " + hex(c->key()) +
                                                    " points below the history floor " +
                                                    std::to_string(report_.floor));
            }
            entries.add(c->key(), c->value());
            ++report_.tx_lookups;
            progress.advance();
        }
        if (auto r = c->status(); !r) return store_error(r.error());
        entries.flush();
        progress.finish();
        if (entries.count() == body_digest_.count() && entries.sum() == body_digest_.sum()) {
            return {};
        }
        if (auto r = find_unindexed_transaction(); !r) return r;
        return find_wrong_lookup();
    }

    // Reads each entry's block and checks the transaction at its index; names the first wrong.
    Result<void, VerifyError> find_wrong_lookup() {
        auto c = store_.cursor(Family::tx_lookup);
        if (!c) return store_error(c.error());
        std::optional<std::uint64_t> cached;
        std::vector<Hash32> hashes;
        for (; c->valid(); c->next()) {
            const auto loc = keys::parse_tx_location(c->value());
            if (!loc || loc->number < report_.floor) continue;
            const std::string entry = "tx lookup entry " + hex(c->key());
            if (cached != loc->number) {
                auto body = store_.body(loc->number);
                if (!body) return store_error(body.error());
                hashes.clear();
                if (body->found()) {
                    auto txs = envelopes(body->value);
                    if (txs) {
                        hashes.resize(txs->size());
                        crypto::keccak256_many(*txs, hashes);
                    }
                }
                cached = loc->number;
            }
            if (loc->index >= hashes.size()) {
                return block_error(loc->number,
                                   entry + " points at index " + std::to_string(loc->index) +
                                       ", but the block has " + std::to_string(hashes.size()) +
                                       " transactions stored");
            }
            if (!equal(hashes[loc->index].view(), c->key())) {
                return block_error(loc->number,
                                   entry + " points at index " + std::to_string(loc->index) +
                                       ", whose transaction hashes to " + hex(hashes[loc->index]));
            }
        }
        if (auto r = c->status(); !r) return store_error(r.error());
        return Fail(VerifyError{std::nullopt, "tx_lookup: " + std::to_string(report_.tx_lookups) +
                                                  " entries for " +
                                                  std::to_string(report_.transactions) +
                                                  " transactions (duplicate hashes?)"});
    }

    const ChainStore& store_;
    const VerifyOptions& options_;
    VerifyReport report_;
    std::optional<std::uint64_t> meta_head_;
    std::optional<Hash32> genesis_;
    bool pending_prune_ = false;
    std::vector<QueuedBody> chunk_;
    std::size_t chunk_bytes_ = 0;
    SetDigest body_digest_{kTxRecordSize};           // body transactions: hash ‖ block ‖ index
    SetDigest canonical_digest_{kNumberRecordSize};  // canonical blocks: hash ‖ BE8(number)
};

}  // namespace

Result<VerifyReport, VerifyError> verify_store(const ChainStore& store,
                                               const VerifyOptions& options) {
    return Verifier(store, options).run();
}

}  // namespace keel::store
