#pragma once
/// The executing import's executor: each block executed on its parent's post-state as the
/// chain store holds it, through chain::execute_block (the code path of `keel evm blocktest` and
/// of replays for tracing), its header checked against its parent (header_rules.hpp) and its
/// ommers against its ancestors (ommers.hpp), every field execution produces compared with the
/// header (state root, receipts root, logs bloom, gas used, blob gas used, requests hash), and
/// the state rows prepared for the store's atomic write (store/state_store.hpp).
///
/// Layering (docs/architecture.md): the executing import sits above both `store` (where blocks
/// and state are kept) and `chain` (how a block is executed), in `blockchain`, L6.
///
/// Threading: one block at a time on the calling thread (execute_block recovers senders on the
/// oneTBB pool, unless they come recovered: the importer's staging recovers a batch's senders
/// beside the execution of the batch before and hands over the decoded body, LinkedBlock::body).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keel/chain/errors.hpp"
#include "keel/chain/execute.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/import.hpp"
#include "keel/store/state_store.hpp"

namespace keel::blockchain {

/// Why a block could not be executed on the stored state: the block broke a rule (`block` set,
/// with the rule and the values), or the store failed or holds damaged state (`block` empty).
struct ExecError {
    std::optional<chain::BlockError> block;
    std::string message;  ///< one line, without "block <n>" (the caller names the block)
};

/// What executing a block produced, ready to be stored with it.
struct Executed {
    Bytes receipts_rlp;  ///< rlp(list of receipts), typed ones as strings
    store::StateUpdate state;
    std::uint64_t gas_used = 0;
    /// The data of each request type (Prague; empty before): what the requests hash commits
    /// to, and what getPayload hands a consensus client.
    std::vector<Bytes> requests;
    std::vector<eth::Receipt> receipts;  ///< the block's receipts (rlp'd in receipts_rlp)
};

/// Where an executing import's time went, summed over the blocks executed.
struct ExecutionTimes {
    std::chrono::nanoseconds checks{};     ///< decoding, header and ommer rules
    std::chrono::nanoseconds execution{};  ///< transactions, system calls, rewards (EVM)
    std::chrono::nanoseconds state{};      ///< state rows and roots (trie updates)
    std::uint64_t blocks = 0;
    std::uint64_t gas = 0;
};

/// Executes `block` (hash `hash`) on the store's state head, which must be its parent's
/// post-state: the header against the parent, the ommers against the stored ancestors (side
/// blocks included), then chain::execute_block; the Merge's rules from the first block whose
/// parent reached `config`'s terminal total difficulty (by the parent's stored TD). `times`
/// (may be null) is added to. `keep_history`: the state history to keep, in blocks (0: all);
/// the update prunes what falls out of it. Writes nothing.
[[nodiscard]] Result<Executed, ExecError> execute_on_head(
    const store::ChainStore& store, const eth::ChainConfig& config, const eth::Block& block,
    const Hash32& hash, std::size_t encoded_size, ExecutionTimes* times,
    std::uint64_t keep_history = 0);

/// Builds a block on the store's state head (a block producer's, or a generator's, job): sets
/// the header's parent hash, number, base fee and excess blob gas from the head, then executes
/// the body with chain::seal_block(), which fills the header's roots and results. The caller
/// sets the rest of the header (timestamp, gas limit, beneficiary, prev randao, parent beacon
/// block root, extra data; difficulty and nonce zero after the Merge) and the body. Writes
/// nothing: the returned state rows carry the sealed block's hash, ready for put_blocks().
/// Errors: as execute_on_head(), and an invalid transaction fails the whole block.
[[nodiscard]] Result<Executed, ExecError> build_on_head(const store::ChainStore& store,
                                                        const eth::ChainConfig& config,
                                                        eth::Block& block, ExecutionTimes* times,
                                                        std::uint64_t keep_history = 0);

/// The rules for block `number` whose parent is (`parent_number`, `parent_hash`): on a chain
/// that merges by total difficulty (a terminal total difficulty and no Paris activation), a copy
/// of `config` with Paris from this block once the parent's stored total difficulty reached it;
/// nullopt when `config` applies as it is. Errors: the parent's total difficulty not stored, a
/// read failure.
[[nodiscard]] Result<std::optional<eth::ChainConfig>, std::string> merge_rules(
    const store::ChainStore& store, const eth::ChainConfig& config, std::uint64_t number,
    std::uint64_t parent_number, const Hash32& parent_hash);

/// BLOCKHASH from the store's canonical hashes. A hash the store does not have reads as zero
/// and its number is kept in `first_error` ("block hash 5 not stored"; the first one only): the
/// caller reports it after execution.
chain::BlockHashes stored_hashes(const store::ChainStore& store, std::string& first_error);

/// geth's default --history.state: the state of the last 90,000 blocks stays readable.
inline constexpr std::uint64_t kDefaultStateHistory = 90'000;

class StoreExecutor final : public store::BlockExecutor {
  public:
    /// An executor over `store` (which must outlive it) with the rules of the chain spec the
    /// store was initialised from. Errors: no chain spec in the store (not made by keel init),
    /// a chain spec that does not parse, a read failure.
    [[nodiscard]] static Result<std::unique_ptr<StoreExecutor>, std::string> create(
        store::ChainStore& store, std::uint64_t keep_history = kDefaultStateHistory);
    /// The chain spec from the store, parsed (create() uses it; so does blockchain::Chain).
    [[nodiscard]] static Result<eth::ChainConfig, std::string> stored_config(
        const store::ChainStore& store);

    [[nodiscard]] Result<Output, std::string> execute(const store::LinkedBlock& block) override;

    const ExecutionTimes& times() const noexcept { return times_; }
    const eth::ChainConfig& config() const noexcept { return config_; }

  private:
    StoreExecutor(store::ChainStore& store, eth::ChainConfig config, std::uint64_t keep_history)
        : store_(&store), config_(std::move(config)), keep_history_(keep_history) {}

    store::ChainStore* store_;
    eth::ChainConfig config_;
    std::uint64_t keep_history_;
    ExecutionTimes times_;
};

}  // namespace keel::blockchain
