#pragma once
/// Synthetic chains for the store's tests and benchmarks (not part of the library): linked
/// headers with difficulty and total difficulty, bodies of real transaction envelopes (legacy
/// and EIP-1559, with arbitrary in-range signatures: hashing needs no valid signature), receipts
/// with one item per transaction, written to a ChainStore in batches. Deterministic: the same
/// options give the same blocks and hashes.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::store::synthetic {

/// One block with owned bytes, as the store receives it.
struct Block {
    std::uint64_t number = 0;
    Hash32 hash;
    Bytes header;
    Bytes body;
    Bytes receipts;  ///< empty when the chain has none (as an RLP-chain import stores)
    Uint256 td;
    Uint256 difficulty;
    std::vector<Hash32> tx_hashes;

    /// The view put_blocks() takes; valid while this block lives.
    BlockToStore view() const { return {number, hash, header, body, receipts, td, tx_hashes}; }
};

/// What chain to make.
struct ChainOptions {
    std::uint64_t first = 0;        ///< number of the first block (0: a genesis block)
    std::uint64_t count = 100;      ///< blocks
    std::size_t txs_per_block = 4;  ///< transactions in each block but every 7th (none)
    bool receipts = true;           ///< store receipts (false: none, like an RLP-chain import)
    std::uint64_t merge_block = ~std::uint64_t{0};  ///< blocks from here have difficulty 0
};

/// Transaction `i` of block `number`: legacy (EIP-155) or EIP-1559 by parity, distinct nonces.
inline Bytes make_transaction(std::uint64_t number, std::size_t i) {
    eth::TransactionFields f;
    f.type = i % 2 == 0 ? eth::TxType::legacy : eth::TxType::dynamic_fee;
    f.chain_id = 1;
    f.nonce = number * 1000 + i;
    f.max_fee_per_gas = Uint256(1'000'000'000 + number);
    f.max_priority_fee_per_gas = Uint256(1'000'000);
    f.gas_limit = 21000;
    Address to;
    to[0] = static_cast<std::uint8_t>(i);
    to[19] = static_cast<std::uint8_t>(number);
    f.to = to;
    f.value = Uint256(number * 7 + i);
    f.v = f.type == eth::TxType::legacy ? Uint256(37) : Uint256(1);
    f.r = Uint256(number + 1);
    f.s = Uint256(i + 1);
    return eth::encode(f);
}

/// A legacy receipt rlp([status 1, cumulative gas, 256-byte bloom, []]).
inline void add_receipt(std::uint64_t cumulative_gas, rlp::Encoder& out) {
    const Bloom bloom{};
    const auto m = out.begin_list();
    out.add_uint(1).add_uint(cumulative_gas).add_string(bloom.view());
    out.add_list_header(0);  // no logs
    out.end_list(m);
}

/// The block after `parent` (nullptr: the first block of `options`).
inline Block make_block(std::uint64_t number, const Block* parent, const ChainOptions& options) {
    Block b;
    b.number = number;
    const std::size_t n_txs = number % 7 == 6 ? 0 : options.txs_per_block;
    rlp::Encoder txs;
    rlp::Encoder receipts;
    const auto receipts_list = receipts.begin_list();
    for (std::size_t i = 0; i < n_txs; ++i) {
        const Bytes envelope = make_transaction(number, i);
        b.tx_hashes.push_back(crypto::keccak256(envelope));
        // EIP-2718: a typed transaction sits in a body as an RLP string holding its envelope.
        if (envelope[0] < 0x80) {
            txs.add_string(envelope);
        } else {
            txs.add_raw(envelope);
        }
        add_receipt(21000 * (i + 1), receipts);
    }
    receipts.end_list(receipts_list);
    rlp::Encoder body;
    const auto body_list = body.begin_list();
    body.add_list_header(txs.size()).add_raw(txs.view());
    body.add_list_header(0);  // no ommers
    body.end_list(body_list);
    b.body = body.take();
    if (options.receipts) b.receipts = receipts.take();

    eth::Header h;
    if (parent != nullptr) h.parent_hash = parent->hash;
    if (parent == nullptr && number > 0) h.parent_hash[0] = 0x99;  // a chain that starts later
    h.ommers_hash = eth::kEmptyOmmersHash;
    h.difficulty = number >= options.merge_block ? Uint256(0) : Uint256(131072 + number % 5);
    h.number = number;
    h.gas_limit = 30'000'000;
    h.gas_used = 21000 * n_txs;
    h.timestamp = 1'600'000'000 + 12 * number;
    h.transactions_root[0] = static_cast<std::uint8_t>(n_txs);  // not checked by the store
    b.header = eth::encode(h);
    b.hash = crypto::keccak256(b.header);
    b.difficulty = h.difficulty;
    // A chain that starts later carries on from an arbitrary total difficulty.
    b.td = (parent != nullptr ? parent->td : Uint256(number * 1000)) + h.difficulty;
    return b;
}

/// The whole chain in memory (for small chains; see write_chain() for large ones).
inline std::vector<Block> make_chain(const ChainOptions& options) {
    std::vector<Block> out;
    out.reserve(options.count);
    for (std::uint64_t i = 0; i < options.count; ++i) {
        out.push_back(make_block(options.first + i, out.empty() ? nullptr : &out.back(), options));
    }
    return out;
}

/// Writes `blocks` in put_blocks() batches of `batch` blocks.
[[nodiscard]] inline Result<void, StoreError> put_chain(ChainStore& store,
                                                        const std::vector<Block>& blocks,
                                                        std::size_t batch = 256) {
    for (std::size_t i = 0; i < blocks.size(); i += batch) {
        std::vector<BlockToStore> views;
        for (std::size_t j = i; j < std::min(blocks.size(), i + batch); ++j) {
            views.push_back(blocks[j].view());
        }
        if (auto r = store.put_blocks(views); !r) return r;
    }
    return {};
}

/// Makes and writes the chain batch by batch (memory stays at one batch), flushing every
/// `flush_every` batches (0: never) so the store holds several table files, as a store written
/// over time does. Returns the number of transactions written.
[[nodiscard]] inline Result<std::uint64_t, StoreError> write_chain(ChainStore& store,
                                                                   const ChainOptions& options,
                                                                   std::size_t batch = 256,
                                                                   std::size_t flush_every = 0) {
    std::vector<Block> blocks;
    std::optional<Block> last;
    std::uint64_t txs = 0;
    std::size_t batches = 0;
    for (std::uint64_t i = 0; i < options.count; i += batch) {
        blocks.clear();
        for (std::uint64_t j = i; j < std::min<std::uint64_t>(options.count, i + batch); ++j) {
            const Block* parent = blocks.empty() ? (last ? &*last : nullptr) : &blocks.back();
            blocks.push_back(make_block(options.first + j, parent, options));
            txs += blocks.back().tx_hashes.size();
        }
        if (auto r = put_chain(store, blocks, batch); !r) return unexpected(r.error());
        last = blocks.back();
        if (flush_every != 0 && ++batches % flush_every == 0) {
            if (auto r = store.flush(); !r) return unexpected(r.error());
        }
    }
    return txs;
}

}  // namespace keel::store::synthetic
