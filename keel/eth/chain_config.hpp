#pragma once
/// A chain's configuration: its id, when each fork activates, the blob parameters of each fork
/// and of the blob-parameter-only forks (EIP-7892), and the deposit contract (EIP-6110). Block
/// execution (keel/chain) asks it which rules a block follows.
///
/// Forks up to Paris activate at a block number (the Merge: at the first proof-of-stake block,
/// which for mainnet is 15,537,394); Shanghai and later at a timestamp (EIP-6953 onwards). A
/// fork that is not scheduled never activates, and a fork is scheduled only together with all
/// the forks before it (set_fork() schedules the earlier ones at the same point when they are
/// not scheduled yet).
///
/// The blob parameters (EIP-4844, EIP-7691, EIP-7840's `blobSchedule`) are looked up by the
/// block's timestamp: the last blob-parameter change at or before it, a fork's own parameters
/// counting as one at its activation.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/fork.hpp"

namespace keel::eth {

/// Gas per blob (EIP-4844: GAS_PER_BLOB = 2^17).
inline constexpr std::uint64_t kGasPerBlob = 131072;

/// The blob parameters in force for a block (EIP-7840's schedule entry).
struct BlobParams {
    std::uint64_t target = 0;                    ///< blobs per block the fee aims at
    std::uint64_t max = 0;                       ///< blobs per block at most
    std::uint64_t base_fee_update_fraction = 1;  ///< the fake_exponential denominator
    friend bool operator==(const BlobParams&, const BlobParams&) = default;
};

/// A fork's own blob parameters: Cancun 3/6/3338477 (EIP-4844), Prague and Osaka 6/9/5007716
/// (EIP-7691); zeros before Cancun.
BlobParams default_blob_params(Fork f) noexcept;

/// What makes `p` unusable as blob parameters, in words naming the field as EIP-7840's
/// `blobSchedule` does ("baseFeeUpdateFraction is 0"); empty when it is usable. Parameters read
/// from a file (a test's `blobSchedule`) are checked with it before set_blob_params(): a
/// fraction of 0 divides by zero, and a target or max of 2^47 blobs or more overflows their gas.
std::string blob_params_problem(const BlobParams& p);

/// EIP-4844's blob base fee: fake_exponential(1, excess_blob_gas, fraction), the integer
/// approximation of e^(excess / fraction), equal to the spec's loop in unbounded integers for
/// every input; Uint256::max() when that value does not fit in 256 bits (so no transaction can
/// pay it: its blob gas times the fee overflows any balance). Bounded time for every input (a
/// few hundred terms at most). Precondition: fraction > 0 (blob_params_problem()).
Uint256 blob_base_fee(std::uint64_t excess_blob_gas, std::uint64_t fraction);

/// The mainnet deposit contract (EIP-6110: DEPOSIT_CONTRACT_ADDRESS).
inline constexpr Address kMainnetDepositContract{{0x00, 0x00, 0x00, 0x00, 0x21, 0x9a, 0xb5,
                                                  0x40, 0x35, 0x6c, 0xbb, 0x83, 0x9c, 0xbe,
                                                  0x05, 0x30, 0x3d, 0x77, 0x05, 0xfa}};

/// The system contracts of EIP-4788, EIP-2935, EIP-7002 and EIP-7251: where they live, and what
/// a block whose request contract has no code is. The defaults are mainnet's (the EIPs as
/// final): such a block is invalid (SYSTEM_CONTRACT_EMPTY). Pectra devnet-6, and the
/// execution-spec-tests fixtures filled for it (EELS devnets/prague/6, February 2025), skipped
/// the call instead: devnet6(); fixtures of the devnet before it also used other addresses for
/// the last three contracts: devnet5().
struct SystemContracts {
    Address beacon_roots;            ///< 0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02
    Address history_storage;         ///< 0x0000F90827F1C53a10cb7A02335B175320002935
    Address withdrawal_requests;     ///< 0x00000961Ef480Eb55e80D19ad83579A64c007002
    Address consolidation_requests;  ///< 0x0000BBdDc7CE488642fb579F8B00f3a590007251
    /// A request contract (EIP-7002, EIP-7251) without code makes the block invalid; when
    /// false, its call is skipped and adds no requests.
    bool empty_is_invalid = true;

    static SystemContracts mainnet();
    /// The same addresses; a request contract without code is skipped.
    static SystemContracts devnet6();
    /// As devnet6() with the earlier addresses: history 0x0F792be4B0c0cb4DAE440Ef133E90C0eCD48CCCC,
    /// withdrawal requests 0x0c15F14308530b7CDB8460094BbB9cC28b9AaaAA, consolidations
    /// 0x00431F263cE400f4455c2dCf564e53007Ca4bbBb.
    static SystemContracts devnet5();
    friend bool operator==(const SystemContracts&, const SystemContracts&) = default;
};

class ChainConfig {
  public:
    /// A chain with no fork scheduled but Frontier at genesis, chain id 1.
    ChainConfig() noexcept;

    /// Every fork up to and including `f` active from genesis (a test network such as "Prague").
    static ChainConfig from_genesis(Fork f, std::uint64_t chain_id = 1);
    /// Ethereum mainnet: every fork at its mainnet block or time, and the BPO1/BPO2 blob schedule.
    static ChainConfig mainnet();

    Uint256 chain_id = 1;
    Address deposit_contract = kMainnetDepositContract;
    SystemContracts system_contracts = SystemContracts::mainnet();

    /// Schedules `f` at `at` (a block number up to Paris, a timestamp from Shanghai), and every
    /// earlier fork not yet scheduled at the same point (block 0 for those before a time fork).
    void set_fork(Fork f, std::uint64_t at);
    /// When `f` activates: its block number or timestamp, std::nullopt if never.
    std::optional<std::uint64_t> activation(Fork f) const noexcept;
    /// The fork of a block with this number and timestamp.
    Fork fork_at(std::uint64_t number, std::uint64_t timestamp) const noexcept;

    /// Replaces the blob parameters of fork `f` (a test's `blobSchedule` entry).
    void set_blob_params(Fork f, BlobParams p);
    /// Adds a blob-parameter-only fork (EIP-7892) at `timestamp`.
    void add_blob_schedule(std::uint64_t timestamp, BlobParams p);
    /// The blob parameters of a block of fork `fork` at `timestamp`.
    BlobParams blob_params(Fork fork, std::uint64_t timestamp) const noexcept;
    /// The activation times of the blob-parameter-only forks, in order.
    std::vector<std::uint64_t> blob_schedule_times() const;

    /// The DAO fork's block (EIP-779: mainnet 1,920,000): the drain list's balances move to the
    /// refund contract there, and it and the 9 blocks after it carry "dao-hard-fork" as extra
    /// data. std::nullopt: the chain does not take it.
    std::optional<std::uint64_t> dao_fork_block;
    /// The Merge by total difficulty (EIP-3675): a block whose parent's total difficulty has
    /// reached it follows Paris's rules, whatever its number. std::nullopt: Paris activates only
    /// as scheduled (set_fork).
    std::optional<Uint256> terminal_total_difficulty;
    /// Leaves the Merge to the total difficulty: sets terminal_total_difficulty to `ttd` and
    /// unschedules Paris (which set_fork() of a later fork schedules at block 0), so that blocks
    /// follow the rules before Paris until the chain reaches it (a genesis file's
    /// `terminalTotalDifficulty` for a chain that merged after genesis, as mainnet and Sepolia).
    void merge_at_total_difficulty(const Uint256& ttd);

    /// Moves the difficulty bomb back by `delay` blocks from block `number` on (Muir Glacier
    /// EIP-2384, Arrow Glacier EIP-4345, Gray Glacier EIP-5133: forks that change nothing else).
    void set_bomb_delay(std::uint64_t number, std::uint64_t delay);
    /// The bomb delay of a block of fork `fork` numbered `number`: the last set_bomb_delay() at
    /// or before it and not before the fork's activation, else the fork's own (EIP-649 3,000,000
    /// from Byzantium, EIP-1234 5,000,000 from Constantinople, EIP-2384's 9,000,000 from Berlin,
    /// EIP-3554 9,700,000 from London; 0 before Byzantium).
    std::uint64_t bomb_delay(Fork fork, std::uint64_t number) const noexcept;

    /// What EIP-2124's and EIP-6122's fork identifier counts, as go-ethereum gathers it from a
    /// genesis file: every fork block number (bomb-only forks, the DAO fork, EIP-155 and
    /// mergeNetsplitBlock included) and every fork time (the blob-parameter-only forks
    /// included), each list sorted and distinct, without 0 and without times at or before the
    /// genesis timestamp. Filled by chain::parse_genesis(); empty otherwise (no fork id).
    std::vector<std::uint64_t> fork_id_blocks;
    std::vector<std::uint64_t> fork_id_times;

  private:
    std::array<std::optional<std::uint64_t>, kForks.size()> activation_{};
    std::array<std::optional<BlobParams>, kForks.size()> blob_{};
    struct Scheduled {
        std::uint64_t timestamp;
        BlobParams params;
    };
    std::vector<Scheduled> bpo_;  ///< sorted by timestamp
    struct BombDelay {
        std::uint64_t number;
        std::uint64_t delay;
    };
    std::vector<BombDelay> bomb_delays_;  ///< sorted by number
};

/// The chain config of an execution-spec-tests network name: a fork ("Prague", "Paris",
/// "Merge"), or a transition "<A>To<B>AtTime<N>" / "<A>To<B>At<N>" (a timestamp or block number;
/// a "k" suffix multiplies by 1,000: "CancunToPragueAtTime15k"). Also ethereum/tests' bomb-only
/// forks ("MuirGlacier", "ArrowGlacier", "GrayGlacier": the fork before them with their bomb
/// delay), the DAO fork ("HomesteadToDaoAt5") and the Merge by total difficulty
/// ("ArrowGlacierToParisAtDiffC0000": a hexadecimal terminal total difficulty). std::nullopt for a
/// name it does not read.
std::optional<ChainConfig> test_network(std::string_view name, std::uint64_t chain_id = 1);

}  // namespace keel::eth
