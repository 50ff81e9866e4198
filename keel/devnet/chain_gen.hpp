#pragma once
/// A deterministic generated Ethereum chain, block by block, as `geth export` writes chain
/// files: each block rlp([header, transactions, ommers]) before the merge, rlp([header,
/// transactions, ommers, withdrawals]) from it. See docs/devnet.md for what each block holds.
///
/// The output depends only on the ChainSpec: not on the thread count, the batch size or the
/// machine. Transactions are built and signed a batch of blocks at a time on the oneTBB pool
/// (keel/common/parallel.hpp), each from its own random stream; what must be sequential
/// (nonces, parent hashes, base fee, excess blob gas) is done in block order.
///
/// Memory: one batch of blocks (about 2048 transactions) and the last block's encoding.

#include <cstdint>
#include <memory>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/devnet/accounts.hpp"
#include "keel/devnet/chain_spec.hpp"

namespace keel::devnet {

/// Totals of what a generator has produced so far.
struct ChainStats {
    std::uint64_t blocks = 0;        ///< blocks produced
    std::uint64_t transactions = 0;  ///< transactions in them
    std::uint64_t bytes = 0;         ///< bytes of their RLP encodings
};

/// Produces the blocks of a ChainSpec in order. Not thread-safe (one caller); it uses the oneTBB
/// pool internally.
class ChainGenerator {
  public:
    /// A generator for `spec`, or the first rule `spec` breaks (see check()). Derives the
    /// accounts (a few milliseconds).
    [[nodiscard]] static Result<ChainGenerator, Error> create(const ChainSpec& spec);

    /// Movable (the state moves with it), not copyable.
    ChainGenerator(ChainGenerator&&) noexcept;
    ChainGenerator& operator=(ChainGenerator&&) noexcept;
    ChainGenerator(const ChainGenerator&) = delete;
    ChainGenerator& operator=(const ChainGenerator&) = delete;
    ~ChainGenerator();

    /// True when all spec().blocks blocks have been produced.
    bool done() const noexcept;

    /// The number of the block next() produces (the count produced so far).
    std::uint64_t next_number() const noexcept;

    /// Produces the next block and returns its RLP, a view valid until the next call to next()
    /// (or the generator's end). Precondition (asserted): !done(). The first call of each batch
    /// builds and signs that batch's transactions in parallel.
    BytesView next();

    /// The chain being produced.
    const ChainSpec& spec() const noexcept;

    /// The accounts that sign the transactions and authorizations.
    const AccountSet& accounts() const noexcept;

    /// What has been produced so far.
    const ChainStats& stats() const noexcept;

  private:
    struct State;
    explicit ChainGenerator(std::unique_ptr<State> state) noexcept;
    std::unique_ptr<State> state_;
};

}  // namespace keel::devnet
