#pragma once
/// The Engine API (execution-apis src/engine: paris, shanghai, cancun, prague, osaka) on the node
/// that keeps the chain: rpc::Engine is the only writer of the store (blockchain::Chain), and
/// its methods run one at a time; the JSON-RPC readers go on beside it on their own snapshots.
///
/// - engine_newPayloadV1..V4: the payload checked against its version (-32602 for a wrong
///   shape, -38005 for a fork the version does not serve), its hash recomputed, its blob
///   versioned hashes matched, then executed on its parent (blockchain::Chain::insert: a side
///   block is executed too): VALID with its hash, INVALID with the last valid ancestor and the
///   reason, SYNCING when the parent is not known; a known block is VALID at once.
/// - engine_forkchoiceUpdatedV1..V3: the head made canonical (a reorg when it is on a side
///   branch; a canonical ancestor of the head is left as it is, as geth does), safe and
///   finalized checked (-38002 when not known) and kept in the store (the "safe" and
///   "finalized" block tags), and with payload attributes (checked: -38003,
///   -38005) a block built at once on the new head from the transaction source and given a
///   payload id.
/// - engine_getPayloadV1..V5: the built block as the version shows it (blockValue, from V3 the
///   blobsBundle of its blob transactions' sidecars as the pool kept them, executionRequests
///   from V4); -38001 for an unknown id, -38005 for a version that does not serve the payload's
///   fork.
/// - engine_getPayloadBodiesByHashV1 / ByRangeV1 (at most 1,024), engine_getBlobsV1 / V2 (the
///   pool's blobs by versioned hash: V1 a proof per blob or null for each hash, V2 the cell
///   proofs or null for the whole request when one is missing), engine_exchangeCapabilities,
///   engine_getClientVersionV1.
///
/// Reference: execution-apis src/engine/*.md (../shared/vectors/rpc/src/engine).

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "keel/blockchain/chain.hpp"
#include "keel/eth/block.hpp"
#include "keel/rpc/dispatcher.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/txpool/pool.hpp"

namespace keel::rpc {

/// Where a block producer's transactions come from (the transaction pool): candidates for a
/// block on the current head, best first. Called under the engine's lock.
using TransactionSource = std::function<std::vector<eth::Transaction>(std::uint64_t gas_limit)>;

struct EngineOptions {
    std::string client_name = "keel";
    std::string client_version = "0.0.0";
    std::string commit = "00000000";  ///< 4 bytes, hex
    /// A line for the node's log (imports, head changes, reorgs, payloads built).
    std::function<void(const std::string&)> log;
    TransactionSource transactions;
    /// Called (under the engine's lock) after the head moved: the pool drops what it included.
    std::function<void()> on_head;
    /// The pool's blob by versioned hash (engine_getBlobsV1/V2); null: none kept.
    std::function<std::optional<txpool::KeptBlob>(const Hash32&)> blobs;
    /// A built block's extra data (geth's --miner.extradata; empty by default, as geth).
    Bytes extra_data;
    /// The gas limit built blocks move toward, by at most 1/1024 of the parent's a block
    /// (geth's --miner.gaslimit, 60 M).
    std::uint64_t gas_ceiling = 60'000'000;
};

class Engine {
  public:
    /// `chain` and `store` (the one the chain writes) must outlive the engine.
    Engine(blockchain::Chain& chain, store::ChainStore& store, EngineOptions options);

    /// Registers the engine_* methods on `d` (the authenticated port's dispatcher).
    void add_methods(Dispatcher& d);
    /// Registers testing_buildBlockV1 on `d` (the JSON-RPC port, as geth with --http.api
    /// testing): a block built on the head from the attributes and the given transactions (or,
    /// for null, the pool's), returned as getPayload returns it, nothing stored. A transaction
    /// that does not apply is the whole call's error (-32000). A parent other than the head is
    /// refused: keel builds on its head's state only.
    void add_testing_methods(Dispatcher& d);

    /// A block built as a payload: the block, its value to the fee recipient, its requests.
    struct Built {
        eth::Block block;
        Uint256 value;
        std::vector<Bytes> requests;
    };
    /// Builds a block on the head (or on `parent` when it is the head) from `txs` and the
    /// attributes in `block`'s header and withdrawals: nothing is stored. A transaction that is
    /// not valid on the state is dropped when `drop_invalid` (a pool's candidates), else it fails
    /// the build with its reason (testing_buildBlockV1). Takes the engine's lock.
    Result<Built, std::string> build(eth::Block attributes, std::vector<eth::Transaction> txs,
                                     bool drop_invalid);

  private:
    struct Invalid {
        Hash32 last_valid;
        std::string reason;
    };

    Result<void, RpcError> new_payload(const nlohmann::json& p, int version, json::Writer& w);
    Result<void, RpcError> forkchoice_updated(const nlohmann::json& p, int version,
                                              json::Writer& w);
    Result<void, RpcError> get_payload(const nlohmann::json& p, int version, json::Writer& w);
    Result<void, RpcError> build_block(const nlohmann::json& p, json::Writer& w);
    /// PayloadAttributesV`version` (argument `index`), checked against the head and its fork.
    Result<eth::Block, RpcError> attributes(const nlohmann::json& a, int version,
                                            std::size_t index);
    Result<Built, std::string> build_locked(eth::Block attributes,
                                            std::vector<eth::Transaction> txs, bool drop_invalid);
    void log(const std::string& line) const;

    blockchain::Chain& chain_;
    store::ChainStore& store_;
    EngineOptions options_;
    mutable std::mutex mutex_;
    std::map<std::uint64_t, Built> payloads_;  ///< by payload id; the newest few kept
    std::vector<std::uint64_t> payload_order_;
    std::map<Hash32, Invalid> invalid_;  ///< blocks found invalid (bounded)
};

}  // namespace keel::rpc
