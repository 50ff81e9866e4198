#include "keel/blockchain/reads.hpp"

#include <algorithm>
#include <span>

#include "keel/blockchain/body_cache.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/json.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/eth/sender.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::blockchain {
namespace {

std::unexpected<ReadError> failed(std::string m) {
    return std::unexpected(ReadError{false, false, std::move(m)});
}

// A canonical block with its receipts, decoded.
struct BlockWithReceipts {
    Hash32 hash;
    eth::Header header;
    eth::BlockBody body;
    std::vector<eth::Receipt> receipts;
};

}  // namespace

Result<StoredHeader, ReadError> canonical_header(const store::ChainStore& store,
                                                 std::uint64_t number) {
    const std::string where = "block " + std::to_string(number);
    auto hash = store.canonical_hash(number);
    if (!hash) return failed(hash.error().message);
    if (!hash->found()) return std::unexpected(ReadError{true, false, where + " is not stored"});
    auto header_rlp = store.header_by_number(number);
    if (!header_rlp) return failed(header_rlp.error().message);
    if (!header_rlp->found()) return failed(where + ": header missing");
    auto header = eth::decode_header(header_rlp->value);
    if (!header) return failed(where + ": stored header: " + eth::to_string(header.error()));
    return StoredHeader{hash->value, std::move(*header)};
}

namespace {

// A block's stored receipts list, decoded; errors name the block (`where`).
Result<std::vector<eth::Receipt>, ReadError> decode_receipts(BytesView rlp,
                                                             const std::string& where) {
    std::vector<eth::Receipt> out;
    auto list = rlp::open_list(rlp);
    if (!list) return failed(where + ": stored receipts are not a list");
    while (!list->empty()) {
        auto item = list->next();
        if (!item) return failed(where + ": stored receipts do not decode");
        auto r = eth::decode_receipt_item(item->encoded());
        if (!r) return failed(where + ": stored receipt: " + eth::to_string(r.error()));
        out.push_back(std::move(*r));
    }
    return out;
}

// A block's receipts row read: a failed read, pruned history or no receipts (a block imported
// without execution) as the reads report them; `where` names the block.
Result<void, ReadError> receipts_found(const Result<store::Read<Bytes>, store::StoreError>& row,
                                       const std::string& where) {
    if (!row) return failed(row.error().message);
    if (row->status == store::ReadStatus::pruned)
        return std::unexpected(ReadError{false, true, where + ": history pruned"});
    if (!row->found()) {
        return std::unexpected(
            ReadError{true, false, where + ": no receipts stored (imported with --no-execute)"});
    }
    return {};
}

// The body and receipts of block `out` (its hash and header read), from `body_rlp` and
// `receipts_rlp`; `senders`: recover the transactions' senders (receipts show them; logs do not).
Result<void, ReadError> fill(BlockWithReceipts& out,
                             const Result<store::Read<Bytes>, store::StoreError>& body_rlp,
                             const Result<store::Read<Bytes>, store::StoreError>& receipts_rlp,
                             bool senders) {
    const std::string where = "block " + std::to_string(out.header.number);
    if (!body_rlp) return failed(body_rlp.error().message);
    if (!receipts_rlp) return failed(receipts_rlp.error().message);
    if (body_rlp->status == store::ReadStatus::pruned ||
        receipts_rlp->status == store::ReadStatus::pruned) {
        return std::unexpected(ReadError{false, true, where + ": history pruned"});
    }
    if (!body_rlp->found()) return failed(where + ": body missing");
    if (!receipts_rlp->found()) {
        return std::unexpected(
            ReadError{true, false, where + ": no receipts stored (imported with --no-execute)"});
    }
    auto body = decoded_body(out.hash, body_rlp->value, senders);
    if (!body) return failed(where + ": stored body: " + eth::to_string(body.error()));
    out.body = **body;
    auto receipts = decode_receipts(receipts_rlp->value, where);
    if (!receipts) return std::unexpected(receipts.error());
    out.receipts = std::move(*receipts);
    if (out.receipts.size() != out.body.transactions.size()) {
        return failed(where + ": " + std::to_string(out.receipts.size()) + " receipts for " +
                      std::to_string(out.body.transactions.size()) + " transactions");
    }
    return {};
}

// Canonical block `number` with its receipts (only its hash and header when `header_only_if`).
Result<BlockWithReceipts, ReadError> load(const store::ChainStore& store, std::uint64_t number,
                                          bool header_only_if = false, bool senders = true) {
    auto h = canonical_header(store, number);
    if (!h) return std::unexpected(h.error());
    BlockWithReceipts out{h->hash, std::move(h->header), {}, {}};
    if (header_only_if) return out;
    if (auto r = fill(out, store.body(number), store.receipts(number), senders); !r)
        return std::unexpected(r.error());
    return out;
}

eth::ReceiptPlace place_of(const Hash32& hash, const eth::Header& header,
                           const eth::ChainConfig& config) {
    eth::ReceiptPlace p;
    p.block_hash = hash;
    p.block_number = header.number;
    p.block_timestamp = header.timestamp;
    p.base_fee = header.base_fee_per_gas;
    if (header.excess_blob_gas) {
        const auto fork = config.fork_at(header.number, header.timestamp);
        p.blob_gas_price =
            eth::blob_base_fee(*header.excess_blob_gas,
                               config.blob_params(fork, header.timestamp).base_fee_update_fraction);
    }
    return p;
}

eth::ReceiptPlace place_of(const BlockWithReceipts& b, const eth::ChainConfig& config) {
    return place_of(b.hash, b.header, config);
}

// Writes receipt i of `b` (place advanced by the caller).
Result<void, ReadError> write_one(json::Writer& w, const BlockWithReceipts& b, std::size_t i,
                                  eth::ReceiptPlace& p) {
    const std::uint64_t before = i == 0 ? 0 : b.receipts[i - 1].cumulative_gas_used;
    p.index = i;
    p.gas_used = b.receipts[i].cumulative_gas_used - before;
    if (auto e = eth::write_rpc_receipt(w, b.receipts[i], b.body.transactions[i], p)) {
        return failed("block " + std::to_string(b.header.number) + " transaction " +
                      std::to_string(i) + ": " + eth::to_string(*e));
    }
    return {};
}

bool bloom_may_match(const Bloom& bloom, const LogFilter& f) {
    if (!f.addresses.empty()) {
        bool any = false;
        for (const Address& a : f.addresses) any = any || eth::bloom_may_contain(bloom, a.view());
        if (!any) return false;
    }
    for (const auto& position : f.topics) {
        if (position.empty()) continue;
        bool any = false;
        for (const Hash32& t : position) any = any || eth::bloom_may_contain(bloom, t.view());
        if (!any) return false;
    }
    return true;
}

}  // namespace

namespace {

// Whether a log of `address` with `topic_count` topics, topic i being topic_at(i), passes the
// filter's addresses and topics.
template <typename TopicAt>
bool matches(const Address& address, std::size_t topic_count, TopicAt&& topic_at,
             const LogFilter& f) {
    if (!f.addresses.empty() &&
        std::find(f.addresses.begin(), f.addresses.end(), address) == f.addresses.end()) {
        return false;
    }
    // A position the filter names that the log does not have: no match, unless the filter
    // leaves it open (geth: a log with fewer topics than the filter's positions fails).
    if (f.topics.size() > topic_count) return false;
    for (std::size_t i = 0; i < f.topics.size(); ++i) {
        const auto& any = f.topics[i];
        if (any.empty()) continue;
        const BytesView topic = topic_at(i);
        if (std::none_of(any.begin(), any.end(), [&topic](const Hash32& h) {
                return std::equal(topic.begin(), topic.end(), h.view().begin());
            })) {
            return false;
        }
    }
    return true;
}

// log_matches() on a log seen in place.
bool log_matches(const eth::LogView& log, const LogFilter& f) {
    return matches(log.address, log.topic_count, [&log](std::size_t i) { return log.topic(i); }, f);
}

}  // namespace

bool log_matches(const eth::Log& log, const LogFilter& f) {
    return matches(
        log.address, log.topics.size(), [&log](std::size_t i) { return log.topics[i].view(); }, f);
}

Result<StoredBlockView, ReadError> stored_block(const store::ChainStore& store,
                                                std::uint64_t number, bool senders) {
    const std::string where = "block " + std::to_string(number);
    const auto failed_read = [&](const std::string& m) {
        return std::unexpected(ReadError{false, false, where + ": " + m});
    };
    auto hash = store.canonical_hash(number);
    if (!hash) return failed_read(hash.error().message);
    auto header_rlp = store.header_by_number(number);
    if (!header_rlp) return failed_read(header_rlp.error().message);
    if (!hash->found() || !header_rlp->found())
        return std::unexpected(ReadError{true, false, where + " is not stored"});
    auto header = eth::decode_header(header_rlp->value);
    if (!header) return failed_read("stored header: " + eth::to_string(header.error()));
    StoredBlockView b;
    b.hash = hash->value;
    b.header = std::move(*header);
    auto td = store.total_difficulty(number);
    if (!td) return failed_read(td.error().message);
    if (td->found()) b.total_difficulty = td->value;
    auto body_rlp = store.body(number);
    if (!body_rlp) return failed_read(body_rlp.error().message);
    b.body_pruned = body_rlp->status == store::ReadStatus::pruned;
    if (body_rlp->found()) {
        auto body = decoded_body(b.hash, body_rlp->value, senders);
        if (!body) return failed_read("stored body: " + eth::to_string(body.error()));
        b.body = **body;
        // rlp(block) = a list header over rlp(header) and the body's items.
        auto list = rlp::decode_header(body_rlp->value);
        if (!list) return failed_read("stored body: not an RLP list");
        b.size = rlp::list_length(header_rlp->value.size() + list->payload.size());
    }
    return b;
}

Result<StoredTransaction, ReadError> stored_transaction_at(const store::ChainStore& store,
                                                           std::uint64_t number,
                                                           std::uint64_t index) {
    auto b = stored_block(store, number);
    if (!b) return std::unexpected(b.error());
    const std::string where = "block " + std::to_string(number);
    if (!b->body) {
        if (b->body_pruned) return std::unexpected(ReadError{false, true, where + ": pruned"});
        return failed(where + ": body missing");
    }
    if (index >= b->body->transactions.size()) {
        return std::unexpected(ReadError{true, false,
                                         where + " has " +
                                             std::to_string(b->body->transactions.size()) +
                                             " transactions, not " + std::to_string(index + 1)});
    }
    return StoredTransaction{
        std::move(b->body->transactions[index]),
        eth::TxPlace{b->hash, number, index, b->header.base_fee_per_gas, b->header.timestamp}};
}

Result<StoredTransaction, ReadError> stored_transaction(const store::ChainStore& store,
                                                        const Hash32& tx_hash) {
    auto where = store.tx_lookup(tx_hash);
    if (!where) return failed(where.error().message);
    if (where->status == store::ReadStatus::pruned) {
        return std::unexpected(ReadError{false, true, "its block's history is pruned"});
    }
    if (!where->found()) return std::unexpected(ReadError{true, false, "transaction not found"});
    auto t = stored_transaction_at(store, where->value.number, where->value.index);
    if (!t) {
        if (t.error().not_found) t.error().not_found = false;  // the index said it is there
        return t;
    }
    if (t->tx.hash() != tx_hash) {
        return failed("the lookup entry for " + hex::encode_prefixed(tx_hash.view()) +
                      " names block " + std::to_string(where->value.number) + " index " +
                      std::to_string(where->value.index) +
                      ", which holds another transaction (run keel storage verify)");
    }
    return t;
}

Result<std::vector<eth::Receipt>, ReadError> stored_receipts(const store::ChainStore& store,
                                                             std::uint64_t number) {
    const std::string where = "block " + std::to_string(number);
    auto hash = store.canonical_hash(number);
    if (!hash) return failed(hash.error().message);
    if (!hash->found()) return std::unexpected(ReadError{true, false, where + " is not stored"});
    auto rlp = store.receipts(number);
    if (auto r = receipts_found(rlp, where); !r) return std::unexpected(r.error());
    return decode_receipts(rlp->value, where);
}

Result<void, ReadError> write_block_receipts(json::Writer& w, const store::ChainStore& store,
                                             const eth::ChainConfig& config, std::uint64_t number) {
    auto b = load(store, number);
    if (!b) return std::unexpected(b.error());
    eth::ReceiptPlace p = place_of(*b, config);
    w.begin_array();
    for (std::size_t i = 0; i < b->receipts.size(); ++i) {
        if (auto r = write_one(w, *b, i, p); !r) return r;
        p.first_log_index += b->receipts[i].logs.size();
    }
    w.end_array();
    return {};
}

Result<void, ReadError> write_transaction_receipt(json::Writer& w, const store::ChainStore& store,
                                                  const eth::ChainConfig& config,
                                                  const Hash32& tx_hash) {
    auto where = store.tx_lookup(tx_hash);
    if (!where) return failed(where.error().message);
    if (where->status == store::ReadStatus::pruned) {
        return std::unexpected(ReadError{false, true, "its block's history is pruned"});
    }
    if (!where->found()) {
        return std::unexpected(ReadError{true, false, "transaction not found"});
    }
    auto b = load(store, where->value.number);
    if (!b) return std::unexpected(b.error());
    const std::size_t index = where->value.index;
    if (index >= b->body.transactions.size() || b->body.transactions[index].hash() != tx_hash) {
        return failed("the lookup entry names another transaction (run keel storage verify)");
    }
    eth::ReceiptPlace p = place_of(*b, config);
    for (std::size_t i = 0; i < index; ++i) p.first_log_index += b->receipts[i].logs.size();
    return write_one(w, *b, index, p);
}

namespace {

// The hashes of the transactions at the ascending indices `wanted` of a stored body, read off
// its RLP without decoding the transactions (keccak of a legacy transaction's list, of a typed
// one's envelope); `count`: how many transactions the body holds. Errors: a body that is not a
// list of transaction items.
Result<std::vector<Hash32>, std::string> tx_hashes_at(BytesView body_rlp,
                                                      std::span<const std::size_t> wanted,
                                                      std::size_t& count) {
    auto body = rlp::open_list(body_rlp);
    if (!body) return std::unexpected(std::string("not a list"));
    auto txs = body->next_list();
    if (!txs) return std::unexpected(std::string("no transaction list"));
    std::vector<BytesView> envelopes;
    envelopes.reserve(wanted.size());
    count = 0;
    std::size_t next = 0;
    while (!txs->empty()) {
        auto item = txs->next();
        if (!item) return std::unexpected("transaction " + std::to_string(count) + ": bad RLP");
        if (next < wanted.size() && wanted[next] == count) {
            envelopes.push_back(item->is_list ? item->encoded() : item->payload);
            ++next;
        }
        ++count;
    }
    if (next != wanted.size())
        return std::unexpected(std::string("fewer transactions than receipts"));
    std::vector<Hash32> out(envelopes.size());
    crypto::keccak256_many(envelopes, out);
    return out;
}

// The logs of stored block `hash` (header `header`, canonical or not) that match `filter` (all
// of them when null), visited in order; stats and filter->max_logs as for_each_log(). The
// receipts are decoded; the body only when a log matches, and then only the hashes of the
// transactions whose logs are shown are computed (a log shows no sender, no other field).
Result<void, ReadError> visit_block_logs(const store::ChainStore& store,
                                         const eth::ChainConfig& config, const Hash32& hash,
                                         const eth::Header& header, const LogFilter* filter,
                                         const LogVisitor& visit, LogStats& s) {
    const std::uint64_t number = header.number;
    const std::string where = "block " + std::to_string(number);
    auto receipts_rlp = store.receipts_at(number, hash);
    if (auto r = receipts_found(receipts_rlp, where); !r) return r;
    // The logs that match, copied out of the receipts as they are met (most are not).
    struct Match {
        std::size_t receipt;
        eth::Log log;
        std::uint64_t index;
    };
    std::vector<Match> matches;
    std::vector<std::size_t> wanted;  // the receipts with a match, ascending
    auto reader = eth::ReceiptLogReader::open(receipts_rlp->value);
    if (!reader) return failed(where + ": stored receipts: " + eth::to_string(reader.error()));
    for (std::uint64_t log_index = 0;; ++log_index) {
        auto log = reader->next();
        if (!log) return failed(where + ": stored receipt: " + eth::to_string(log.error()));
        if (!*log) break;
        if (filter != nullptr && !log_matches(**log, *filter)) continue;
        const std::size_t i = reader->receipts() - 1;
        matches.push_back(Match{i, (*log)->to_log(), log_index});
        if (wanted.empty() || wanted.back() != i) wanted.push_back(i);
    }
    if (matches.empty()) return {};
    auto body_rlp = store.body_at(number, hash);
    if (!body_rlp) return failed(body_rlp.error().message);
    if (body_rlp->status == store::ReadStatus::pruned)
        return std::unexpected(ReadError{false, true, where + ": history pruned"});
    if (!body_rlp->found()) return failed(where + ": body missing");
    std::size_t count = 0;
    auto hashes = tx_hashes_at(body_rlp->value, wanted, count);
    if (!hashes) return failed(where + ": stored body: " + hashes.error());
    if (count != reader->receipts()) {
        return failed(where + ": " + std::to_string(reader->receipts()) + " receipts for " +
                      std::to_string(count) + " transactions");
    }
    eth::ReceiptPlace p = place_of(hash, header, config);
    std::size_t k = 0;  // matches[m]'s transaction is wanted[k]
    for (const Match& m : matches) {
        if (filter != nullptr && filter->max_logs != 0 && s.logs == filter->max_logs) {
            return std::unexpected(ReadError{
                .message =
                    "query returned more than " + std::to_string(filter->max_logs) + " results",
                .limit_exceeded = true});
        }
        while (wanted[k] != m.receipt) ++k;
        p.index = m.receipt;
        visit(m.log, p, (*hashes)[k], m.index);
        ++s.logs;
    }
    return {};
}

}  // namespace

Result<void, ReadError> for_each_log(const store::ChainStore& store, const eth::ChainConfig& config,
                                     const LogFilter& filter, const LogVisitor& visit,
                                     LogStats* stats) {
    LogStats local;
    LogStats& s = stats != nullptr ? *stats : local;
    for (std::uint64_t n = filter.from; n <= filter.to; ++n) {
        auto h = canonical_header(store, n);
        if (!h) return std::unexpected(h.error());
        ++s.blocks;
        if (bloom_may_match(h->header.logs_bloom, filter)) {
            ++s.bloom_hits;
            if (auto r = visit_block_logs(store, config, h->hash, h->header, &filter, visit, s); !r)
                return r;
        }
        if (n == filter.to) break;  // to = 2^64 - 1 must not wrap
    }
    return {};
}

Result<void, ReadError> for_each_block_log(const store::ChainStore& store,
                                           const eth::ChainConfig& config, std::uint64_t number,
                                           const Hash32& hash, const LogVisitor& visit) {
    const std::string where =
        "block " + std::to_string(number) + " (" + hex::encode_prefixed(hash.view()) + ")";
    auto header_rlp = store.header_by_hash(hash);
    if (!header_rlp) return failed(header_rlp.error().message);
    if (!header_rlp->found())
        return std::unexpected(ReadError{true, false, where + " is not stored"});
    auto header = eth::decode_header(header_rlp->value);
    if (!header) return failed(where + ": stored header: " + eth::to_string(header.error()));
    if (header->number != number)
        return failed(where + ": stored header is block " + std::to_string(header->number));
    LogStats s;
    return visit_block_logs(store, config, hash, *header, nullptr, visit, s);
}

Result<void, ReadError> write_logs(json::Writer& w, const store::ChainStore& store,
                                   const eth::ChainConfig& config, const LogFilter& filter,
                                   LogStats* stats) {
    w.begin_array();
    auto r = for_each_log(
        store, config, filter,
        [&w](const eth::Log& log, const eth::ReceiptPlace& place, const Hash32& tx_hash,
             std::uint64_t index) {
            eth::write_rpc_log(w, log, place, tx_hash, index);
            w.flush_point();
        },
        stats);
    if (!r) return r;
    w.end_array();
    return {};
}

void write_account_proof(json::Writer& w, const store::AccountProof& p) {
    const state::Account a = p.account.value_or(state::Account{});
    w.begin_object();
    w.member_data("address", p.address.view());
    w.key("accountProof");
    w.begin_array();
    for (const Bytes& node : p.account_proof) w.data(node);
    w.end_array();
    w.member_quantity("balance", a.balance);
    w.member_data("codeHash", a.code_hash.view());
    w.member_quantity("nonce", a.nonce);
    w.member_data("storageHash", a.storage_root.view());
    w.key("storageProof");
    w.begin_array();
    for (const store::StorageProof& sp : p.storage) {
        w.begin_object();
        w.member_quantity("key", sp.key);
        w.member_quantity("value", sp.value);
        w.key("proof");
        w.begin_array();
        for (const Bytes& node : sp.proof) w.data(node);
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

}  // namespace keel::blockchain
