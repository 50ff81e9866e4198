#pragma once
/// Importing chain history into a ChainStore from era1 archives and RLP chain files.
///
/// An RLP chain file is what `geth export` writes: blocks rlp([header, transactions, ommers(,
/// withdrawals)]) back to back, in order. An era1 archive holds 8192 pre-merge blocks with their
/// receipts and total difficulties (era1.hpp). The kind of a file is told by its first bytes
/// (an era1 archive starts with the e2store Version record "e2"), not by its name.
///
/// Every block is checked before anything of it is written: its header decodes and its number
/// follows the previous block's; its parent hash is the previous block's hash (the stored head,
/// when the file continues the store); the body's transactions root, ommers hash and withdrawals
/// root match the header (and withdrawals are present exactly when the header commits to them);
/// for era1, the receipts root matches and the file's accumulator root is recomputed from every
/// header and total difficulty before the first block is written; total difficulty is the
/// parent's plus the block's difficulty; every transaction that names a chain id names the
/// store's. Blocks are written in atomic batches (ChainStore::put_blocks), so a failure leaves
/// every block up to the last good one stored and nothing after it.
///
/// Resuming: blocks the store already holds (same hash at the same number) are skipped, so
/// re-running an interrupted import continues after the stored head, and a file whose blocks
/// are all stored is skipped after checking its last block's hash. A file that neither
/// continues the store nor overlaps it (a gap) is refused.
///
/// Chain configuration (chain id, genesis hash, merge block) is written to the store's meta the
/// first time it is known: from an era1 file's name ("sepolia-00021-....era1") or a genesis
/// block of a known network (chain_config.hpp); otherwise the chain id from the first
/// transaction that carries one and the merge block from the first block without difficulty
/// after one with difficulty (EIP-3675).
///
/// Receipts: era1 archives carry them and they are stored; an RLP chain file has none (a node
/// makes them by executing the blocks, which keel does not do yet), so RLP imports store no
/// receipts.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keel/common/progress.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/block.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/state_store.hpp"

namespace keel::store {

enum class ChainFileKind : std::uint8_t { era1, rlp };

/// "era1" or "rlp".
std::string_view to_string(ChainFileKind kind) noexcept;

/// What a chain file holds, found without importing it.
struct ChainFileInfo {
    std::filesystem::path path;
    ChainFileKind kind = ChainFileKind::rlp;
    std::uint64_t first = 0;  ///< number of its first block
    std::uint64_t count = 0;  ///< number of blocks (for an RLP file: of whole blocks)
};

/// An import failure: one line naming the file, the block number when one is at fault, and
/// what failed, e.g. "chain.rlp: block 1201: transactions root mismatch (header 0x12..,
/// computed 0x34..)".
struct ImportError {
    ImportError() = default;
    /// An error without a rewind to suggest.
    ImportError(std::string text) : message(std::move(text)) {}  // NOLINT: implicit on purpose

    std::string message;
    /// Set when the file and the store disagree about stored blocks (another chain, or a
    /// stored block that the file's next block does not name as its parent): the highest block
    /// that can stay, so that rewinding the store to it (rewind.hpp) and importing again
    /// replaces what lies above. nullopt when no rewind helps (a different genesis).
    std::optional<std::uint64_t> rewind_to;
};

inline const std::string& to_string(const ImportError& e) noexcept {
    return e.message;
}

/// Reads a file's kind and block range: the era1 structure (no decompression), or the item
/// boundaries of an RLP chain file and its first header. Errors: unreadable file, empty file,
/// a broken structure (for an RLP file only the first block's; later damage is reported by the
/// import, which stores every block before it).
[[nodiscard]] Result<ChainFileInfo, ImportError> inspect_chain_file(
    const std::filesystem::path& path);

/// A block the importer has linked to the store's head (its parent), handed to an executor.
struct LinkedBlock {
    std::uint64_t number = 0;
    Hash32 hash;
    BytesView header_rlp;
    BytesView body_rlp;
    std::size_t tx_count = 0;
    /// The body decoded, its senders recovered (an executing import stages it so, beside the
    /// execution of the blocks before); the executor may move from it. Null: decode body_rlp.
    eth::BlockBody* body = nullptr;
};

/// Executes blocks for an executing import: the block on its parent's post-state, which the
/// store holds. The executing import lives above the store (keel/blockchain); the importer
/// only links, writes and reports.
class BlockExecutor {
  public:
    virtual ~BlockExecutor() = default;
    /// What executing a block produced, to store with it in one atomic write.
    struct Output {
        Bytes receipts_rlp;  ///< rlp(list of receipts), typed ones as strings
        StateUpdate state;
        std::uint64_t gas_used = 0;
    };
    /// Executes `block`. Errors: one line naming what is wrong ("state root: header 0x.., computed
    /// 0x.."); the importer adds the file and the block number.
    [[nodiscard]] virtual Result<Output, std::string> execute(const LinkedBlock& block) = 0;
};

struct ImportOptions {
    /// Blocks per atomic write (history only), and per staged batch: an executing import
    /// writes each block alone and stages 8 blocks at most at a time.
    std::size_t batch_blocks = 256;
    /// Advanced by blocks (and transactions as the secondary count; gas when executing) as they
    /// are stored; blocks the store already holds are taken off its total. May be null.
    Progress* progress = nullptr;
    /// Executes every block before it is stored (one block per atomic write, with its receipts
    /// and state); null: a history-only import. Must outlive the importer.
    BlockExecutor* executor = nullptr;
};

/// What one file's import did.
struct FileImportReport {
    ChainFileInfo file;
    std::uint64_t imported = 0;      ///< blocks written
    std::uint64_t transactions = 0;  ///< transactions in the blocks written
    std::uint64_t skipped = 0;       ///< blocks the store already held
    std::uint64_t gas_used = 0;      ///< gas of the blocks executed
    /// Executing imports: thread time spent recovering senders while staging (beside the
    /// execution of the batch before, on another core when there is one).
    std::chrono::nanoseconds senders{};
    /// Executing imports: the blocks' atomic writes (block, receipts and state rows).
    std::chrono::nanoseconds writes{};
    /// Executing imports: how the import went on, about 100 points evenly spaced over the
    /// file's blocks, the last block imported always one: whether blocks get slower as the
    /// state grows (`keel import` prints the rate by tenths).
    struct Pace {
        std::uint64_t block = 0;           ///< the block just stored
        std::chrono::nanoseconds elapsed;  ///< since the file's import began
        std::uint64_t gas = 0;             ///< executed so far in this file
    };
    std::vector<Pace> pace;
};

/// Imports files into one store, one after the other. Holds the tip (the last block stored) in
/// memory between files.
class Importer {
  public:
    /// An importer for `store` (which must outlive it); reads the stored head and
    /// configuration. Errors: a store read failure, a store whose head cannot be read back.
    [[nodiscard]] static Result<Importer, ImportError> create(ChainStore& store,
                                                              ImportOptions options = {});

    Importer(Importer&&) noexcept;
    Importer& operator=(Importer&&) noexcept;
    ~Importer();

    /// Imports one file (see the file comment for the checks). On error, the blocks before the
    /// failing one are stored (and reported as such by the store's head).
    [[nodiscard]] Result<FileImportReport, ImportError> import_file(
        const std::filesystem::path& path);

  private:
    struct Impl;
    explicit Importer(std::unique_ptr<Impl> impl) noexcept;
    std::unique_ptr<Impl> impl_;
};

}  // namespace keel::store
