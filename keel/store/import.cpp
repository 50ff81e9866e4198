#include "keel/store/import.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/eth/sender.hpp"
#include "keel/eth/withdrawal.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/store/chain_config.hpp"
#include "keel/store/era1.hpp"
#include "keel/store/mapped_file.hpp"
#include "keel/store/rewind.hpp"
#include "keel/trie/root.hpp"

namespace keel::store {
namespace {

std::string hex_of(const Hash32& h) {
    return hex::encode_prefixed(h.view());
}

std::string block_prefix(std::uint64_t number) {
    return "block " + std::to_string(number) + ": ";
}

ImportError file_error(const std::filesystem::path& path, std::string_view what) {
    std::string msg = path.string();
    msg += ": ";
    msg += what;
    return ImportError{std::move(msg)};
}

bool looks_like_era1(BytesView file) noexcept {
    // Every e2store file starts with the Version record, type bytes "e2" (0x65 0x32).
    return file.size() >= 2 && file[0] == 0x65 && file[1] == 0x32;
}

// ---- staging: one block decoded and checked on its own -------------------------------------

// A block decoded and checked against its own header, ready to be linked to its parent and
// stored. The buffers are reused from batch to batch.
// The batch of an executing import, in blocks: staging a batch (its senders recovered) takes
// less time than executing the one before, and two batches of decoded bodies stay small.
constexpr std::size_t kExecutingBatch = 8;

struct Staged {
    std::uint64_t number = 0;
    Hash32 hash;
    Hash32 parent;
    Uint256 difficulty;
    Uint256 td;  // era1: from the file; RLP: computed when linked
    Bytes header_rlp;
    Bytes body_rlp;
    Bytes receipts_rlp;  // empty for RLP files
    std::vector<Hash32> tx_hashes;
    std::optional<std::uint64_t> chain_id;  // named by the block's transactions, if any
    std::string error;                      // what failed (with the block), empty when fine
    // Executing imports only: the body as staging decoded it, every sender recovered that
    // recovers. Staging runs beside the execution of the batch before (run_batches), so the
    // signatures, a third of a contract-heavy block's work on one core, are off the executing
    // thread; the executor takes the body instead of decoding it again.
    std::optional<eth::BlockBody> body;
};

// Staging an executing import's block keeps its body with its senders recovered, and adds the
// time that took to `sender_ns`.
void keep_body(eth::BlockBody&& body, std::atomic<std::int64_t>& sender_ns, Staged& out) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const eth::Transaction& tx : body.transactions) (void)eth::sender(tx);
    sender_ns.fetch_add(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count(),
        std::memory_order_relaxed);
    out.body = std::move(body);
}

std::string root_mismatch(std::string_view what, const Hash32& header, const Hash32& computed) {
    std::string s(what);
    s += " mismatch (header ";
    s += hex_of(header);
    s += ", computed ";
    s += hex_of(computed);
    s += ')';
    return s;
}

// Checks the body against the header's commitments and collects what the store keeps of the
// transactions. Returns an error phrase, empty when fine.
std::string check_body(const eth::Header& header, const eth::BlockBody& body,
                       trie::RootBuilder& builder, Staged& out) {
    const Hash32 tx_root = eth::transactions_root(body.transactions, builder);
    if (tx_root != header.transactions_root) {
        return root_mismatch("transactions root", header.transactions_root, tx_root);
    }
    const Hash32 ommers = eth::ommers_hash(body.ommers);
    if (ommers != header.ommers_hash)
        return root_mismatch("ommers hash", header.ommers_hash, ommers);
    if (header.withdrawals_root.has_value() != body.withdrawals.has_value()) {
        return header.withdrawals_root ? "the header commits to withdrawals the body lacks"
                                       : "the body has withdrawals the header does not commit to";
    }
    if (body.withdrawals) {
        const Hash32 w = eth::withdrawals_root(*body.withdrawals, builder);
        if (w != *header.withdrawals_root) {
            return root_mismatch("withdrawals root", *header.withdrawals_root, w);
        }
    }
    out.tx_hashes.clear();
    out.chain_id.reset();
    for (std::size_t i = 0; i < body.transactions.size(); ++i) {
        const eth::Transaction& tx = body.transactions[i];
        out.tx_hashes.push_back(tx.hash());
        if (auto id = tx.chain_id()) {
            if (out.chain_id && *out.chain_id != *id) {
                return "transaction " + std::to_string(i) + " names chain id " +
                       std::to_string(*id) + ", an earlier one " + std::to_string(*out.chain_id);
            }
            out.chain_id = id;
        }
    }
    return {};
}

void take_header_facts(const eth::Header& header, Staged& out) {
    out.number = header.number;
    out.parent = header.parent_hash;
    out.difficulty = header.difficulty;
}

// One block of an RLP chain file: `item` is the block's whole encoding at `offset` in the file.
// `sender_ns`: executing imports only (null: history only, no body kept), see keep_body().
void stage_rlp_block(BytesView item, std::size_t offset, std::uint64_t expected_number,
                     trie::RootBuilder& builder, std::atomic<std::int64_t>* sender_ns,
                     Staged& out) {
    out.error.clear();
    out.body.reset();
    out.number = expected_number;
    auto block = eth::decode_block(item, offset);
    if (!block) {
        out.error = block_prefix(expected_number) + eth::to_string(block.error());
        return;
    }
    take_header_facts(block->header, out);
    // The block list is [header, transactions, ommers(, withdrawals)]; the body is the same list
    // without the header, so its encoding is a new list header over the remaining items.
    auto list = rlp::open_list(item, offset).value();  // decode_block accepted it
    const rlp::Item header_item = list.next().value();
    const BytesView header_rlp = header_item.encoded();
    const BytesView rest = list.remaining();
    out.header_rlp.assign(header_rlp.begin(), header_rlp.end());
    out.hash = crypto::keccak256(header_rlp);
    out.body_rlp.clear();
    {
        rlp::Encoder enc(out.body_rlp);  // appends; trims the buffer when it goes
        enc.add_list_header(rest.size());
        enc.add_raw(rest);
    }
    out.receipts_rlp.clear();
    if (std::string e = check_body(block->header, block->body, builder, out); !e.empty()) {
        out.error = block_prefix(out.number) + e;
        return;
    }
    if (sender_ns != nullptr) keep_body(std::move(block->body), *sender_ns, out);
}

// Block i of an era1 archive.
void stage_era1_block(const Era1& era, std::size_t i, Era1RawBlock& raw, trie::RootBuilder& builder,
                      std::atomic<std::int64_t>* sender_ns, Staged& out) {
    out.error.clear();
    out.body.reset();
    out.number = era.start_block() + i;
    if (auto r = era.raw_block(i, raw); !r) {
        out.error = to_string(r.error());
        return;
    }
    auto fail_eth = [&](std::string_view part, const eth::Error& e) {
        out.error = block_prefix(out.number);
        out.error += part;
        out.error += ": ";
        out.error += eth::to_string(e);
    };
    auto header = eth::decode_header(raw.header);
    if (!header) return fail_eth("header", header.error());
    if (header->number != out.number) {
        out.error =
            block_prefix(out.number) + "the header says block " + std::to_string(header->number);
        return;
    }
    take_header_facts(*header, out);
    out.hash = crypto::keccak256(raw.header);
    auto body = eth::decode_body(raw.body);
    if (!body) return fail_eth("body", body.error());
    if (std::string e = check_body(*header, *body, builder, out); !e.empty()) {
        out.error = block_prefix(out.number) + e;
        return;
    }
    std::vector<eth::Receipt> receipts;
    auto list = rlp::open_list(raw.receipts);
    if (!list) {
        return fail_eth("receipts", eth::make_rlp_error(list.error(), eth::Field::receipt).error());
    }
    while (!list->empty()) {
        auto item = list->next();
        if (!item) {
            return fail_eth("receipts",
                            eth::make_rlp_error(item.error(), eth::Field::receipt).error());
        }
        auto receipt = eth::decode_receipt_item(item->encoded(), item->offset);
        if (!receipt) return fail_eth("receipts", receipt.error());
        receipts.push_back(std::move(*receipt));
    }
    if (receipts.size() != body->transactions.size()) {
        out.error = block_prefix(out.number) + std::to_string(receipts.size()) + " receipts for " +
                    std::to_string(body->transactions.size()) + " transactions";
        return;
    }
    const Hash32 root = eth::receipts_root(receipts, builder);
    if (root != header->receipts_root) {
        out.error =
            block_prefix(out.number) + root_mismatch("receipts root", header->receipts_root, root);
        return;
    }
    out.td = era.total_difficulty(i);
    if (sender_ns != nullptr) keep_body(std::move(*body), *sender_ns, out);
    std::swap(out.header_rlp, raw.header);
    std::swap(out.body_rlp, raw.body);
    std::swap(out.receipts_rlp, raw.receipts);
}

// ---- RLP chain files -----------------------------------------------------------------------

// The whole blocks of an RLP chain file, and what stopped the walk early, if anything.
struct RlpBlocks {
    std::vector<BytesView> items;
    std::vector<std::size_t> offsets;
    std::string tail_error;  // damage after the last whole block ("" when none)
};

RlpBlocks split_rlp_file(BytesView file) {
    RlpBlocks out;
    rlp::Decoder d(file);
    while (!d.empty()) {
        const std::size_t at = d.offset();
        auto item = d.next();
        if (!item) {
            out.tail_error = "after the last whole block (offset " + std::to_string(at) +
                             "): " + to_string(item.error());
            break;
        }
        if (!item->is_list) {
            out.tail_error = "offset " + std::to_string(at) + ": an RLP string, not a block";
            break;
        }
        out.items.push_back(item->encoded());
        out.offsets.push_back(at);
    }
    return out;
}

// The header item (the first element) of a block item at `offset` in the file.
Result<rlp::Item, std::string> header_item_of(BytesView item, std::size_t offset) {
    auto list = rlp::open_list(item, offset);
    if (!list) return unexpected(to_string(list.error()));
    auto h = list->next();
    if (!h) return unexpected(to_string(h.error()));
    return *h;
}

// The header of a block item, decoded (for the file's range).
Result<eth::Header, std::string> header_of(BytesView item, std::size_t offset) {
    auto h = header_item_of(item, offset);
    if (!h) return unexpected(std::move(h.error()));
    auto header = eth::decode_header(h->encoded(), h->offset);
    if (!header) return unexpected(eth::to_string(header.error()));
    return std::move(*header);
}

// keccak256 of a block item's header (for the skip check).
Result<Hash32, std::string> header_hash_of(BytesView item, std::size_t offset) {
    auto h = header_item_of(item, offset);
    if (!h) return unexpected(std::move(h.error()));
    return crypto::keccak256(h->encoded());
}

}  // namespace

std::string_view to_string(ChainFileKind kind) noexcept {
    return kind == ChainFileKind::era1 ? "era1" : "rlp";
}

Result<ChainFileInfo, ImportError> inspect_chain_file(const std::filesystem::path& path) {
    auto file = MappedFile::open(path);
    if (!file) return unexpected(ImportError{file.error().message});
    const BytesView bytes = file->bytes();
    if (bytes.empty()) return unexpected(file_error(path, "empty file"));
    ChainFileInfo info{.path = path};
    if (looks_like_era1(bytes)) {
        auto era = Era1::open(bytes);
        if (!era) return unexpected(file_error(path, to_string(era.error())));
        info.kind = ChainFileKind::era1;
        info.first = era->start_block();
        info.count = era->count();
        return info;
    }
    info.kind = ChainFileKind::rlp;
    const RlpBlocks blocks = split_rlp_file(bytes);
    if (blocks.items.empty()) {
        return unexpected(file_error(path, "no block: " + blocks.tail_error));
    }
    auto header = header_of(blocks.items.front(), 0);
    if (!header) return unexpected(file_error(path, "first block: " + header.error()));
    info.first = header->number;
    info.count = blocks.items.size();
    return info;
}

// ---- the importer ----------------------------------------------------------------------------

struct Importer::Impl {
    struct Tip {
        std::uint64_t number = 0;
        Hash32 hash;
        Uint256 td;
        Uint256 difficulty;
    };

    ChainStore* store = nullptr;
    ImportOptions options;
    std::optional<Tip> tip;             // the last block stored
    std::optional<std::uint64_t> tail;  // the first block stored
    std::optional<std::uint64_t> chain_id;
    std::optional<Hash32> genesis;
    std::optional<std::uint64_t> merge_block;

    // Two batches, reused: one is staged while the other is linked and written.
    std::vector<Staged> staged;
    std::vector<Staged> staged_next;
    std::vector<BlockToStore> rows;
    std::chrono::steady_clock::time_point file_started;  // of the file being imported

    Result<void, ImportError> load();
    Result<void, ImportError> adopt_network(const std::filesystem::path& path,
                                            const NetworkConfig& net);
    // Resolves where to start in a file holding blocks [first, first + count): the index of
    // the first block to import (count when everything is stored), or an error.
    template <class HashAt>
    Result<std::size_t, ImportError> start_index(const ChainFileInfo& info, HashAt&& hash_at);
    // Links the staged blocks to the tip in order and stores the good prefix; returns the
    // error of the first bad block, if any.
    Result<void, ImportError> link_and_store(const std::filesystem::path& path,
                                             std::span<Staged> batch, ChainFileKind kind,
                                             FileImportReport& report);
    // Takes blocks the store already holds off the progress total.
    void skip_in_progress(std::uint64_t blocks) const;
    // Writes configuration learnt from the blocks being linked (and clears what it wrote).
    Result<void, ImportError> write_config(std::optional<std::uint64_t>& new_chain_id,
                                           std::optional<Hash32>& new_genesis,
                                           std::optional<std::uint64_t>& new_merge);
    // Executes one linked block and stores it with its receipts and state in one write.
    Result<void, ImportError> execute_and_store(const std::filesystem::path& path, Staged& s,
                                                FileImportReport& report);
};

Result<void, ImportError> Importer::Impl::write_config(std::optional<std::uint64_t>& new_chain_id,
                                                       std::optional<Hash32>& new_genesis,
                                                       std::optional<std::uint64_t>& new_merge) {
    auto store_fail = [](const StoreError& e) { return unexpected(ImportError{e.message}); };
    if (new_chain_id) {
        if (auto r = store->set_chain_id(*new_chain_id); !r) return store_fail(r.error());
        chain_id = new_chain_id;
        new_chain_id.reset();
    }
    if (new_genesis) {
        if (auto r = store->set_genesis_hash(*new_genesis); !r) return store_fail(r.error());
        genesis = new_genesis;
        new_genesis.reset();
    }
    if (new_merge) {
        if (auto r = store->set_merge_block(*new_merge); !r) return store_fail(r.error());
        merge_block = new_merge;
        new_merge.reset();
    }
    return {};
}

Result<void, ImportError> Importer::Impl::execute_and_store(const std::filesystem::path& path,
                                                            Staged& s, FileImportReport& report) {
    auto out = options.executor->execute(LinkedBlock{.number = s.number,
                                                     .hash = s.hash,
                                                     .header_rlp = s.header_rlp,
                                                     .body_rlp = s.body_rlp,
                                                     .tx_count = s.tx_hashes.size(),
                                                     .body = s.body ? &*s.body : nullptr});
    if (!out) return unexpected(file_error(path, block_prefix(s.number) + out.error()));
    // An archive's receipts must be the ones execution made (their root is already checked
    // against the header; this compares every byte).
    if (!s.receipts_rlp.empty() && s.receipts_rlp != out->receipts_rlp) {
        return unexpected(file_error(
            path, block_prefix(s.number) + "the archive's receipts differ from execution's"));
    }
    const BlockToStore row{.number = s.number,
                           .hash = s.hash,
                           .header_rlp = s.header_rlp,
                           .body_rlp = s.body_rlp,
                           .receipts_rlp = out->receipts_rlp,
                           .total_difficulty = s.td,
                           .tx_hashes = s.tx_hashes};
    const auto w0 = std::chrono::steady_clock::now();
    if (auto r = store->put_blocks(std::span(&row, 1), &out->state); !r) {
        return unexpected(ImportError{r.error().message});
    }
    const auto w1 = std::chrono::steady_clock::now();
    report.writes += w1 - w0;
    tip = Tip{s.number, s.hash, s.td, s.difficulty};
    if (!tail) tail = s.number;
    report.imported += 1;
    report.transactions += s.tx_hashes.size();
    report.gas_used += out->gas_used;
    const std::uint64_t stride = std::max<std::uint64_t>(1, report.file.count / 100);
    if (report.imported % stride == 0 || s.number + 1 == report.file.first + report.file.count) {
        report.pace.push_back(
            {.block = s.number, .elapsed = w1 - file_started, .gas = report.gas_used});
    }
    // Executing: the secondary count is gas (the rate reads as gas/s).
    if (options.progress) options.progress->advance(1, out->gas_used);
    return {};
}

Result<void, ImportError> Importer::Impl::load() {
    auto fail = [](const StoreError& e) { return unexpected(ImportError{e.message}); };
    auto pending = store->pending_operation();
    if (!pending) return fail(pending.error());
    if (*pending && (*pending)->kind == kRewindOperation) {
        const auto to = rewind_marker_target((*pending)->argument);
        ImportError e{"store: a rewind" +
                      (to ? " to block " + std::to_string(*to) : std::string()) +
                      " was interrupted; run it again to finish it before importing"};
        e.rewind_to = to;
        return unexpected(std::move(e));
    }
    auto head = store->head();
    if (!head) return fail(head.error());
    auto first = store->tail();
    if (!first) return fail(first.error());
    tail = *first;
    auto id = store->chain_id();
    if (!id) return fail(id.error());
    chain_id = *id;
    auto g = store->genesis_hash();
    if (!g) return fail(g.error());
    genesis = *g;
    auto merge = store->merge_block();
    if (!merge) return fail(merge.error());
    merge_block = *merge;
    if (!*head) {
        if (options.executor == nullptr) return {};
        return unexpected(ImportError{
            "store: the datadir holds no state to execute on: run keel init first, or import "
            "with --no-execute (history only)"});
    }
    const std::uint64_t n = **head;
    auto hash = store->canonical_hash(n);
    auto td = store->total_difficulty(n);
    auto header_rlp = store->header_by_number(n);
    if (!hash) return fail(hash.error());
    if (!td) return fail(td.error());
    if (!header_rlp) return fail(header_rlp.error());
    if (!hash->found() || !td->found() || !header_rlp->found()) {
        return unexpected(ImportError{"store: the head block " + std::to_string(n) +
                                      " is incomplete (run keel storage verify)"});
    }
    auto header = eth::decode_header(header_rlp->value);
    if (!header) {
        return unexpected(
            ImportError{"store: the head block " + std::to_string(n) +
                        "'s header does not decode: " + eth::to_string(header.error())});
    }
    tip = Tip{n, hash->value, td->value, header->difficulty};
    if (options.executor != nullptr) {
        // Executing needs the head's state: a history-only import may have gone past it.
        auto state = state_head(*store);
        if (!state) return fail(state.error());
        if (!*state) {
            return unexpected(ImportError{
                "store: the datadir holds no state to execute on: run keel init first, or "
                "import with --no-execute (history only)"});
        }
        if ((*state)->number != n || (*state)->hash != hash->value) {
            return unexpected(ImportError{
                "store: the state is at block " + std::to_string((*state)->number) +
                " but the chain head is block " + std::to_string(n) +
                " (imported with --no-execute): executing from here needs the head's state"});
        }
    }
    return {};
}

Result<void, ImportError> Importer::Impl::adopt_network(const std::filesystem::path& path,
                                                        const NetworkConfig& net) {
    auto fail = [](const StoreError& e) { return unexpected(ImportError{e.message}); };
    if (chain_id && *chain_id != net.chain_id) {
        return unexpected(file_error(path, "a " + std::string(net.name) +
                                               " file, but the store holds chain id " +
                                               std::to_string(*chain_id)));
    }
    if (genesis && *genesis != net.genesis_hash) {
        return unexpected(file_error(path, "a " + std::string(net.name) +
                                               " file, but the store's genesis is " +
                                               hex_of(*genesis)));
    }
    if (!chain_id) {
        if (auto r = store->set_chain_id(net.chain_id); !r) return fail(r.error());
        chain_id = net.chain_id;
    }
    if (!genesis) {
        if (auto r = store->set_genesis_hash(net.genesis_hash); !r) return fail(r.error());
        genesis = net.genesis_hash;
    }
    if (!merge_block) {
        if (auto r = store->set_merge_block(net.merge_block); !r) return fail(r.error());
        merge_block = net.merge_block;
    }
    return {};
}

template <class HashAt>
Result<std::size_t, ImportError> Importer::Impl::start_index(const ChainFileInfo& info,
                                                             HashAt&& hash_at) {
    const std::filesystem::path& path = info.path;
    const std::uint64_t last = info.first + info.count - 1;
    if (!tip) {
        if (info.kind == ChainFileKind::rlp && info.first != 0) {
            return unexpected(file_error(
                path, block_prefix(info.first) +
                          "an RLP chain file must start at block 0 when the store is empty "
                          "(total difficulty needs every block from genesis)"));
        }
        return std::size_t{0};
    }
    if (tail && last < *tail) {
        return unexpected(file_error(path, "blocks " + std::to_string(info.first) + "-" +
                                               std::to_string(last) +
                                               " lie before the stored chain, which starts at "
                                               "block " +
                                               std::to_string(*tail)));
    }
    if (info.first > tip->number + 1) {
        return unexpected(file_error(path, block_prefix(info.first) +
                                               "gap: the store ends at block " +
                                               std::to_string(tip->number)));
    }
    if (info.first == tip->number + 1) return std::size_t{0};  // continues the store
    // Already stored up to the tip: compare the file's block at the tip (or its last) with the
    // stored one, so a file of another chain is not skipped silently.
    const std::uint64_t probe = std::min(last, tip->number);
    auto stored = store->canonical_hash(probe);
    if (!stored) return unexpected(ImportError{stored.error().message});
    auto ours = hash_at(static_cast<std::size_t>(probe - info.first));
    if (!ours) return unexpected(file_error(path, block_prefix(probe) + ours.error()));
    if (stored->found() && stored->value != *ours) {
        // Where the two chains part: the highest block at which they agree (if they agree at a
        // block, they agree at every block below it: each header names its parent's hash).
        const std::uint64_t low = tail ? std::max(info.first, *tail) : info.first;
        std::optional<std::uint64_t> agree;
        std::uint64_t lo = low, hi = probe;  // the answer lies in [lo - 1, hi - 1]
        while (lo < hi) {
            const std::uint64_t mid = lo + (hi - lo) / 2;
            auto s = store->canonical_hash(mid);
            if (!s) return unexpected(ImportError{s.error().message});
            auto f = hash_at(static_cast<std::size_t>(mid - info.first));
            if (!f) return unexpected(file_error(path, block_prefix(mid) + f.error()));
            if (s->found() && s->value == *f) {
                agree = mid;
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        std::string what = block_prefix(probe) + "hash " + hex_of(*ours) +
                           " differs from the stored block's " + hex_of(stored->value) +
                           " (another chain";
        ImportError e;
        if (agree) {
            what += "; the file and the store agree up to block " + std::to_string(*agree);
            e.rewind_to = agree;
        } else if (low > (tail ? *tail : 0)) {
            // They differ from the file's first block on: it must continue the block before.
            what += " from block " + std::to_string(low) + ", the file's first, on";
            e.rewind_to = low - 1;
        }
        what += ')';
        e.message = file_error(path, what).message;
        return unexpected(std::move(e));
    }
    return static_cast<std::size_t>(probe + 1 - info.first);
}

void Importer::Impl::skip_in_progress(std::uint64_t blocks) const {
    if (options.progress == nullptr || blocks == 0) return;
    // Stored blocks take no time: leave them out of the count and the rate.
    Progress& p = *options.progress;
    p.set_total(p.total() - std::min<std::uint64_t>(p.total(), blocks));
}

Result<void, ImportError> Importer::Impl::link_and_store(const std::filesystem::path& path,
                                                         std::span<Staged> batch,
                                                         ChainFileKind kind,
                                                         FileImportReport& report) {
    auto store_fail = [](const StoreError& e) { return unexpected(ImportError{e.message}); };
    std::optional<ImportError> error;
    std::optional<std::uint64_t> new_chain_id;
    std::optional<Hash32> new_genesis;
    std::optional<std::uint64_t> new_merge;
    std::optional<Tip> t = tip;
    std::size_t good = 0;
    for (; good < batch.size(); ++good) {
        Staged& s = batch[good];
        auto fail = [&](const std::string& what) {
            error = file_error(path, block_prefix(s.number) + what);
        };
        if (!s.error.empty()) {
            error = file_error(path, s.error);
            break;
        }
        if (t) {
            if (s.number != t->number + 1) {
                fail("expected block " + std::to_string(t->number + 1) +
                     " next (blocks must be consecutive)");
                break;
            }
            if (s.parent != t->hash) {
                fail("parent hash " + hex_of(s.parent) + " is not block " +
                     std::to_string(t->number) + "'s hash " + hex_of(t->hash));
                // Block t is stored (now, or by this batch below). If it is the damaged one,
                // removing it and importing a good file is the way back.
                if (t->number > (tail ? *tail : batch[0].number)) {
                    error->rewind_to = t->number - 1;
                }
                break;
            }
            const Uint256 expected_td = t->td + s.difficulty;
            if (kind == ChainFileKind::era1 && s.td != expected_td) {
                fail("total difficulty " + s.td.to_dec() + ", parent's plus difficulty is " +
                     expected_td.to_dec());
                break;
            }
            s.td = expected_td;
            const std::optional<std::uint64_t> merge = merge_block ? merge_block : new_merge;
            if (!t->difficulty.is_zero() && s.difficulty.is_zero() && !merge) {
                new_merge = s.number;  // the first proof-of-stake block (EIP-3675)
            } else if (merge && s.number >= *merge && !s.difficulty.is_zero()) {
                fail("difficulty " + s.difficulty.to_dec() + " after the merge (block " +
                     std::to_string(*merge) + ")");
                break;
            }
        } else if (s.number == 0) {
            if (!s.parent.is_zero()) {
                fail("the genesis block's parent hash is not zero");
                break;
            }
            if (kind == ChainFileKind::rlp) s.td = s.difficulty;
        }
        if (s.number == 0) {
            if (genesis && *genesis != s.hash) {
                fail("genesis hash " + hex_of(s.hash) + " differs from the store's " +
                     hex_of(*genesis));
                break;
            }
            if (!genesis) new_genesis = s.hash;
            if (!chain_id && !new_chain_id) {
                if (auto net = network_by_genesis(s.hash)) {
                    new_chain_id = net->chain_id;
                    if (!merge_block) new_merge = net->merge_block;
                }
            }
        }
        if (s.chain_id) {
            const std::optional<std::uint64_t> cid = chain_id ? chain_id : new_chain_id;
            if (cid && *cid != *s.chain_id) {
                fail("a transaction names chain id " + std::to_string(*s.chain_id) +
                     ", the chain's is " + std::to_string(*cid));
                break;
            }
            if (!cid) new_chain_id = s.chain_id;
        }
        if (options.executor != nullptr) {
            // Executing: this block is executed on the stored head's state and written alone,
            // with its receipts and state, before the next one is executed on top of it.
            if (auto r = write_config(new_chain_id, new_genesis, new_merge); !r) return r;
            if (auto r = execute_and_store(path, s, report); !r) {
                error = std::move(r.error());
                break;
            }
        }
        t = Tip{s.number, s.hash, s.td, s.difficulty};
    }
    if (options.executor != nullptr) {
        if (error) return unexpected(std::move(*error));
        return {};
    }

    if (good > 0) {
        // Configuration first: a crash between these writes and the blocks' batch leaves values
        // that the re-run derives again.
        if (auto r = write_config(new_chain_id, new_genesis, new_merge); !r) return r;
        rows.clear();
        std::uint64_t txs = 0;
        for (std::size_t i = 0; i < good; ++i) {
            const Staged& s = batch[i];
            rows.push_back(BlockToStore{.number = s.number,
                                        .hash = s.hash,
                                        .header_rlp = s.header_rlp,
                                        .body_rlp = s.body_rlp,
                                        .receipts_rlp = s.receipts_rlp,
                                        .total_difficulty = s.td,
                                        .tx_hashes = s.tx_hashes});
            txs += s.tx_hashes.size();
        }
        if (auto r = store->put_blocks(rows); !r) return store_fail(r.error());
        tip = t;
        if (!tail) tail = batch[0].number;
        report.imported += good;
        report.transactions += txs;
        if (options.progress) options.progress->advance(good, txs);
    }
    if (error) return unexpected(std::move(*error));
    return {};
}

Importer::Importer(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Importer::Importer(Importer&&) noexcept = default;
Importer& Importer::operator=(Importer&&) noexcept = default;
Importer::~Importer() = default;

Result<Importer, ImportError> Importer::create(ChainStore& store, ImportOptions options) {
    auto impl = std::make_unique<Impl>();
    impl->store = &store;
    impl->options = options;
    impl->options.batch_blocks = std::max<std::size_t>(options.batch_blocks, 1);
    if (auto r = impl->load(); !r) return unexpected(r.error());
    return Importer(std::move(impl));
}

Result<FileImportReport, ImportError> Importer::import_file(const std::filesystem::path& path) {
    Impl& d = *impl_;
    auto file = MappedFile::open(path);
    if (!file) return unexpected(ImportError{file.error().message});
    const BytesView bytes = file->bytes();
    if (bytes.empty()) return unexpected(file_error(path, "empty file"));
    FileImportReport report;
    report.file.path = path;
    d.file_started = std::chrono::steady_clock::now();
    const bool executing = d.options.executor != nullptr;
    std::atomic<std::int64_t> sender_time{0};
    std::atomic<std::int64_t>* const sender_ns = executing ? &sender_time : nullptr;
    const auto senders_into_report = [&] {
        report.senders = std::chrono::nanoseconds(sender_time.load(std::memory_order_relaxed));
    };
    // An executing import keeps the decoded bodies of two batches (the one executing, the one
    // staging): at most kExecutingBatch blocks each.
    const std::size_t batch =
        executing ? std::min(d.options.batch_blocks, kExecutingBatch) : d.options.batch_blocks;
    if (d.staged.size() < batch) d.staged.resize(batch);
    if (d.staged_next.size() < batch) d.staged_next.resize(batch);

    // Stages batches of blocks [begin, end) in parallel and links and stores them in order;
    // batch k + 1 is staged while batch k is written, in the other buffer.
    // stage_range(from, b, e, out) stages blocks from + b .. from + e into out[b, e).
    auto run_batches = [&](std::size_t begin, std::size_t end, auto&& stage_range,
                           ChainFileKind kind) -> Result<void, ImportError> {
        auto stage_batch = [&](std::size_t from, std::vector<Staged>& out) {
            const std::size_t n = std::min(batch, end - from);
            parallel::for_ranges(
                n, 4, [&](std::size_t b, std::size_t e) { stage_range(from, b, e, out); });
        };
        std::vector<Staged>* current = &d.staged;
        std::vector<Staged>* next = &d.staged_next;
        if (begin < end) stage_batch(begin, *current);
        for (std::size_t from = begin; from < end; from += batch) {
            const std::size_t n = std::min(batch, end - from);
            const std::size_t next_from = from + batch;
            Result<void, ImportError> stored;
            auto store_current = [&] {
                stored = d.link_and_store(path, std::span(*current).first(n), kind, report);
            };
            if (next_from < end) {
                parallel::both(store_current, [&] { stage_batch(next_from, *next); });
            } else {
                store_current();
            }
            if (!stored) return stored;
            std::swap(current, next);
        }
        return {};
    };

    if (looks_like_era1(bytes)) {
        auto era = Era1::open(bytes);
        if (!era) return unexpected(file_error(path, to_string(era.error())));
        report.file.kind = ChainFileKind::era1;
        report.file.first = era->start_block();
        report.file.count = era->count();
        if (era->count() == 0) return report;
        if (auto net = network_of_era1_name(path.filename().string())) {
            if (auto r = d.adopt_network(path, *net); !r) return unexpected(r.error());
        }
        Bytes scratch;
        auto start = d.start_index(report.file, [&](std::size_t i) -> Result<Hash32, std::string> {
            auto h = era->header_hash(i, scratch);
            if (!h) return unexpected(to_string(h.error()));
            return *h;
        });
        if (!start) return unexpected(start.error());
        report.skipped = *start;
        d.skip_in_progress(*start);
        if (*start == era->count()) return report;
        // The accumulator covers every header and TD of the file: check it before writing.
        if (auto r = era->verify_accumulator(); !r) {
            return unexpected(file_error(path, to_string(r.error())));
        }
        auto stage = [&](std::size_t from, std::size_t b, std::size_t e, std::vector<Staged>& out) {
            Era1RawBlock raw;
            trie::RootBuilder builder;
            for (std::size_t k = b; k < e; ++k) {
                stage_era1_block(*era, from + k, raw, builder, sender_ns, out[k]);
            }
        };
        if (auto r = run_batches(*start, era->count(), stage, ChainFileKind::era1); !r) {
            return unexpected(r.error());
        }
        senders_into_report();
        return report;
    }

    report.file.kind = ChainFileKind::rlp;
    const RlpBlocks blocks = split_rlp_file(bytes);
    if (blocks.items.empty()) return unexpected(file_error(path, "no block: " + blocks.tail_error));
    auto first = header_of(blocks.items.front(), 0);
    if (!first) return unexpected(file_error(path, "first block: " + first.error()));
    report.file.first = first->number;
    report.file.count = blocks.items.size();
    auto start = d.start_index(report.file, [&](std::size_t i) {
        return header_hash_of(blocks.items[i], blocks.offsets[i]);
    });
    if (!start) return unexpected(start.error());
    report.skipped = *start;
    d.skip_in_progress(*start);
    const std::uint64_t first_number = report.file.first;
    auto stage = [&](std::size_t from, std::size_t b, std::size_t e, std::vector<Staged>& out) {
        trie::RootBuilder builder;
        for (std::size_t k = b; k < e; ++k) {
            const std::size_t i = from + k;
            stage_rlp_block(blocks.items[i], blocks.offsets[i], first_number + i, builder,
                            sender_ns, out[k]);
        }
    };
    if (auto r = run_batches(*start, blocks.items.size(), stage, ChainFileKind::rlp); !r) {
        return unexpected(r.error());
    }
    if (!blocks.tail_error.empty()) {
        const std::uint64_t last = first_number + blocks.items.size() - 1;
        return unexpected(
            file_error(path, block_prefix(last + 1) + "truncated or damaged " + blocks.tail_error));
    }
    senders_into_report();
    return report;
}

}  // namespace keel::store
