#pragma once
/// A deterministic contract-heavy chain with real state (`keel devnet gen --contracts`): every
/// block built by executing its transactions (blockchain::Chain::build, the import's code path),
/// so its state root, receipts, bloom and gas used are those any client computes. Prague from
/// the genesis (proof of stake, blobs, EIP-7702, requests), the system contracts deployed.
///
/// Block 1 deploys the contracts of keel/devnet/contracts/ (Token x2, Pair, Nft, Churn, Factory,
/// Batch); the next blocks mint both tokens to every sender, approve the pair and add liquidity;
/// from then on each block is filled up to its gas target (half the gas limit, so the base fee
/// never rises) with a drawn mix (docs/devnet.md, "Contract chains"):
///   ETH transfers to new accounts and to senders, ERC-20 transfers (half to new holders), AMM
///   swaps, NFT mints, storage loops (new slots and updates), CREATE2 / CREATE through the
///   factory, a child created and SELFDESTRUCTed in one transaction, SELFDESTRUCT of an older
///   child, CREATE transactions, blob transactions (at most 6 blobs a block), EIP-7702
///   delegations of the authorities to Batch, and delegated payouts to new accounts;
///   16 withdrawals a block, to new accounts.
/// The state grows by about 200 accounts a block.
///
/// The genesis is a go-ethereum genesis file (genesis_json()), for `keel init --genesis`.
/// The generator keeps its own store in a work folder while it runs.
///
/// Threading: one caller; transactions are signed on the oneTBB pool. The output does not depend
/// on the thread count.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/devnet/chain_spec.hpp"

namespace keel::devnet {

/// The chain to generate.
struct ContractChainSpec {
    std::uint64_t blocks = 0;              ///< N: blocks 0..N-1 (2..kMaxBlocks)
    std::uint64_t gas_limit = 60'000'000;  ///< every block's gas limit
    std::uint64_t chain_id = 1337;         ///< EIP-155 chain id, 1..kMaxChainId
    std::uint64_t seed = 1;                ///< every key and arbitrary value derive from it
    /// Blob transactions in the mix. false: none (their share goes to the other kinds), for a
    /// peer that takes transactions through eth_sendRawTransaction, where a blob transaction
    /// needs KZG sidecars that these, random versioned hashes, do not have (anvil).
    bool blobs = true;
};

/// The smallest and largest gas limits a contract chain may have: room for the setup's
/// transactions, and a bound that keeps a block's work and memory reasonable.
inline constexpr std::uint64_t kMinContractGasLimit = 10'000'000;
inline constexpr std::uint64_t kMaxContractGasLimit = 2'000'000'000;

/// The kinds of transaction a contract chain holds.
enum class TxKind : std::uint8_t {
    setup,           ///< deployments, mints, approvals, liquidity (the first blocks)
    new_account,     ///< ETH to a new address
    transfer,        ///< ETH to a sender
    erc20,           ///< Token.transfer
    swap,            ///< Pair.swap
    nft_mint,        ///< Nft.mint
    storage_loop,    ///< Churn.write
    create2,         ///< Factory.create2
    create_destroy,  ///< Factory.createAndDestroy: created and deleted in one transaction
    factory_create,  ///< Factory.create (CREATE)
    destroy_old,     ///< Factory.destroyLast: SELFDESTRUCT of an older child (sends only)
    deploy,          ///< a contract-creation transaction
    blob,            ///< type 3 with 1-2 blobs
    delegate,        ///< type 4: authorities delegate to Batch
    payout,          ///< a delegated authority calls itself: Batch.payout to new addresses
};
inline constexpr std::size_t kTxKindCount = 15;

/// The name of a kind ("new_account", ...).
std::string_view kind_name(TxKind k) noexcept;

/// What a contract chain generator has produced so far.
struct ContractChainStats {
    std::uint64_t blocks = 0;        ///< blocks produced (the genesis included)
    std::uint64_t transactions = 0;  ///< in them
    std::uint64_t bytes = 0;         ///< of their RLP encodings
    std::uint64_t gas_used = 0;      ///< summed over the blocks
    std::uint64_t blobs = 0;         ///< blob versioned hashes carried
    std::uint64_t new_accounts = 0;  ///< addresses the chain sent ETH to for the first time
    std::array<std::uint64_t, kTxKindCount> kinds{};   ///< transactions of each TxKind
    std::array<std::uint64_t, kTxKindCount> failed{};  ///< of them, reverted (status 0)
};

/// Why a contract chain spec is refused: a one-line message naming the option.
using ContractChainError = std::string;

/// Produces the blocks of a ContractChainSpec in order.
class ContractChainGenerator {
  public:
    /// A generator for `spec` that keeps its store in `work_dir` (which must be absent or
    /// empty; removed by the destructor). Errors: a spec outside its bounds (the option named),
    /// a store that cannot be created.
    [[nodiscard]] static Result<ContractChainGenerator, ContractChainError> create(
        const ContractChainSpec& spec, const std::filesystem::path& work_dir);

    ContractChainGenerator(ContractChainGenerator&&) noexcept;
    ContractChainGenerator& operator=(ContractChainGenerator&&) noexcept;
    ContractChainGenerator(const ContractChainGenerator&) = delete;
    ContractChainGenerator& operator=(const ContractChainGenerator&) = delete;
    ~ContractChainGenerator();

    /// The genesis file of the chain (go-ethereum's format).
    const std::string& genesis_json() const noexcept;

    /// True when all spec().blocks blocks have been produced.
    bool done() const noexcept;

    /// The next block's RLP (the genesis first), valid until the next call. Errors: a block the
    /// generator built could not be executed or stored (a defect, or the work folder's disk).
    [[nodiscard]] Result<BytesView, std::string> next();

    const ContractChainSpec& spec() const noexcept;
    const ContractChainStats& stats() const noexcept;

  private:
    struct State;
    explicit ContractChainGenerator(std::unique_ptr<State> state) noexcept;
    std::unique_ptr<State> state_;
};

}  // namespace keel::devnet
