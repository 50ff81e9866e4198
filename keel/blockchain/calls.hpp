#pragma once
/// Messages nobody signed, executed on a stored block's state: eth_call, eth_estimateGas,
/// eth_createAccessList, and the call traces (call_traces.hpp) run through run_calls().
///
/// As geth runs them (internal/ethapi, core/state_transition with NoBaseFee and the nonce and
/// EOA checks skipped):
/// - the message executes on the state after block `number`, in a block context of that block's
///   header (what BlockOverrides replace), with StateOverrides applied to the state first;
/// - a call that names no fee, or fees of zero, pays nothing and sees BASEFEE (and, without a
///   blob fee cap, BLOBBASEFEE) as zero; one that names a fee pays it, so the sender needs the
///   balance ("insufficient funds for gas * price + value");
/// - the gas defaults to the block's gas limit; any gas is capped at 50 M (geth's RPCGasCap),
///   and from Osaka at 2^24 (EIP-7825);
/// - the sender's nonce and code are not checked; its nonce is the state's.
/// Nothing is written anywhere: each run_calls() has its own overlay, thrown away at the end.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/eth/withdrawal.hpp"
#include "keel/evm/tracer.hpp"
#include "keel/evm/transaction.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::blockchain {

/// The message (the members of geth's TransactionArgs a call uses).
struct CallRequest {
    Address from{};
    std::optional<Address> to;  ///< nullopt: a creation
    Bytes data;
    Uint256 value{};
    /// The sender's nonce when given (eth_simulateV1 checks it with validation); else the
    /// state's.
    std::optional<std::uint64_t> nonce;
    std::optional<std::uint64_t> gas;
    /// A legacy gas price, or EIP-1559's caps (a missing tip is 0; a missing cap, the tip).
    /// None of them, or all zero: a free call.
    std::optional<Uint256> gas_price;
    std::optional<Uint256> max_fee_per_gas;
    std::optional<Uint256> max_priority_fee_per_gas;
    /// EIP-2930 (from Berlin): accounts and slots warm from the start, paid for as a
    /// transaction's.
    std::vector<eth::TransactionFields::AccessListEntry> access_list;
    /// EIP-4844: a blob transaction's hashes and fee cap (needs `to`).
    std::vector<Hash32> blob_versioned_hashes;
    std::optional<Uint256> max_fee_per_blob_gas;
    /// EIP-7702: a set-code transaction's authorizations (needs `to`).
    std::vector<eth::Authorization> authorization_list;
};

/// The request a signed transaction makes: its sender, callee, data, value, gas, fees, access
/// list, blob hashes and authorizations (trace_rawTransaction). Errors: a signature that does
/// not recover.
[[nodiscard]] Result<CallRequest, std::string> call_of(const eth::Transaction& tx);

/// geth's default RPCGasCap: the most gas a call gets.
inline constexpr std::uint64_t kCallGasCap = 50'000'000;

/// What a call replaces of an account before it runs (geth's OverrideAccount): its balance,
/// nonce, code, and storage: `state` replaces all of it (slots not named read zero),
/// `state_diff` the slots it names.
struct AccountOverride {
    std::optional<Uint256> balance;
    std::optional<std::uint64_t> nonce;
    std::optional<Bytes> code;
    std::optional<std::vector<std::pair<Uint256, Uint256>>> state;
    std::vector<std::pair<Uint256, Uint256>> state_diff;
    /// The precompile at this address moves there (eth_simulateV1; eth_call refuses it).
    std::optional<Address> move_precompile_to;
};
using StateOverrides = std::vector<std::pair<Address, AccountOverride>>;

/// The precompiles of `fork` after `overrides`, as geth's StateOverride.Apply leaves them: an
/// overridden address is no longer a precompile, and movePrecompileToAddress puts the one that
/// was there at another address. nullopt when no override names a precompile (the fork's set
/// holds). Errors, geth's: a move from an address that holds no precompile, a move to an address
/// that is itself overridden, an override of an address a precompile moved to.
[[nodiscard]] Result<std::optional<std::vector<evm::PrecompileAt>>, std::string> precompiles_after(
    const StateOverrides& overrides, eth::Fork fork);

/// What a call replaces of its block context (geth's BlockOverrides).
struct BlockOverrides {
    std::optional<std::uint64_t> number;
    std::optional<std::uint64_t> time;
    std::optional<std::uint64_t> gas_limit;
    std::optional<Address> fee_recipient;
    std::optional<Hash32> prev_randao;
    std::optional<Uint256> base_fee;
    std::optional<Uint256> blob_base_fee;
    /// eth_simulateV1's blocks only (a call's context has no use for them): the difficulty
    /// (before the Merge), the parent beacon block root (from Cancun; zero when not given) and
    /// the withdrawals (from Shanghai; none when not given).
    std::optional<Uint256> difficulty;
    std::optional<Hash32> beacon_root;
    std::optional<std::vector<eth::Withdrawal>> withdrawals;
};

/// A time limit for calls (geth's --rpc.evmtimeout, 5 s by default there and in keel node),
/// started by start(): past its deadline every frame fails at its start (BlockEnv::deadline),
/// so the call ends soon, and the request fails with message() ("execution aborted (timeout =
/// 5s)", geth's words). A zero limit is none.
struct CallTimeout {
    std::chrono::nanoseconds limit{0};
    std::chrono::steady_clock::time_point deadline{};

    static CallTimeout start(std::chrono::nanoseconds limit) {
        return {limit, std::chrono::steady_clock::now() + limit};
    }
    bool expired() const {
        return limit.count() > 0 && std::chrono::steady_clock::now() >= deadline;
    }
    std::optional<std::chrono::steady_clock::time_point> evm_deadline() const {
        if (limit.count() <= 0) return std::nullopt;
        return deadline;
    }
    std::string message() const;
};

struct CallOptions {
    StateOverrides state;
    BlockOverrides block;
    CallTimeout timeout;
};

/// Runs `calls` one after the other on the state after block `number` (each sees what the ones
/// before it changed), call i with the tracer `make_tracer(i, fork)` gives (null: none), then
/// `done(i, result)`. Errors: the block or its state not kept (not_found), a message the rules
/// refuse (`invalid`: "insufficient funds for gas * price + value", naming the call when there
/// are several), the time limit reached (`timed_out`, CallTimeout::message()), a read failure.
[[nodiscard]] Result<void, ReadError> run_calls(
    const store::ChainStore& store, const eth::ChainConfig& config, std::uint64_t number,
    std::span<const CallRequest> calls, const CallOptions& options,
    const std::function<evm::Tracer*(std::size_t, eth::Fork)>& make_tracer,
    const std::function<void(std::size_t, const evm::TxResult&)>& done);

/// One call's outcome (eth_call): run_calls() of one call without a tracer.
[[nodiscard]] Result<evm::TxResult, ReadError> execute_call(const store::ChainStore& store,
                                                            const eth::ChainConfig& config,
                                                            std::uint64_t number,
                                                            const CallRequest& call,
                                                            const CallOptions& options = {});

}  // namespace keel::blockchain
