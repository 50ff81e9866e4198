#pragma once
/// The Parity/OpenEthereum trace family on stored blocks, as Besu, Erigon and Reth serve it
/// (trace_block, trace_transaction, trace_filter, trace_replayBlockTransactions,
/// trace_replayTransaction): each block replayed on its parent's state (replay.hpp) with
/// trace::ParityTracer, the results appended to `out` as the JSON the methods return.
///
/// Before the Merge trace_block and trace_filter add the block's rewards after its
/// transactions' traces: a "reward" action of type "block" for the beneficiary (the block reward
/// and 1/32 of it per ommer) and one of type "uncle" per ommer ((8 - depth)/8 of the reward).
///
/// Threading: any thread; blocks may be traced at once from several.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/trace/parity_tracer.hpp"

namespace keel::blockchain {

/// trace_block: a JSON array of block `number`'s traces (the genesis has none: []).
[[nodiscard]] Result<void, ReadError> write_trace_block(std::string& out,
                                                        const store::ChainStore& store,
                                                        const eth::ChainConfig& config,
                                                        std::uint64_t number);

/// trace_transaction: a JSON array of the transaction's traces. Errors: not found (not_found).
[[nodiscard]] Result<void, ReadError> write_trace_transaction(std::string& out,
                                                              const store::ChainStore& store,
                                                              const eth::ChainConfig& config,
                                                              const Hash32& tx_hash);

/// trace_get: the transaction's trace at position `index` + 1 of its flat list (the top-level
/// call is position 0, as Erigon and OpenEthereum count), or null.
[[nodiscard]] Result<void, ReadError> write_trace_get(std::string& out,
                                                      const store::ChainStore& store,
                                                      const eth::ChainConfig& config,
                                                      const Hash32& tx_hash, std::uint64_t index);

/// trace_replayBlockTransactions: a JSON array of each transaction's result.
[[nodiscard]] Result<void, ReadError> write_replay_block(std::string& out,
                                                         const store::ChainStore& store,
                                                         const eth::ChainConfig& config,
                                                         std::uint64_t number,
                                                         trace::ParityTraceTypes types);

/// trace_replayTransaction: the transaction's result object.
[[nodiscard]] Result<void, ReadError> write_replay_transaction(std::string& out,
                                                               const store::ChainStore& store,
                                                               const eth::ChainConfig& config,
                                                               const Hash32& tx_hash,
                                                               trace::ParityTraceTypes types);

/// trace_filter's filter: blocks [from, to]; an action matches when its `from` (the sender of a
/// call or create, the contract of a suicide, the author of a reward) is among `from_addresses`
/// and its `to` (the callee, the created address, the refund address) among `to_addresses`
/// (an empty list: any); the first `after` matches are skipped, then at most `count` written.
struct TraceFilter {
    std::uint64_t from = 0;
    std::uint64_t to = 0;
    std::vector<Address> from_addresses;
    std::vector<Address> to_addresses;
    std::uint64_t after = 0;
    std::optional<std::uint64_t> count;
};

/// trace_filter: a JSON array of the matching traces, in block order.
[[nodiscard]] Result<void, ReadError> write_trace_filter(std::string& out,
                                                         const store::ChainStore& store,
                                                         const eth::ChainConfig& config,
                                                         const TraceFilter& filter);

}  // namespace keel::blockchain
