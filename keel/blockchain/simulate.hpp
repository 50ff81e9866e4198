#pragma once
/// eth_simulateV1 (execution-apis, "eth_simulateV1"): blocks that were never mined, built on a
/// stored block's state from calls nobody signed, each with its own block and state overrides,
/// and shown as real blocks: numbers, hashes, roots, receipts and logs.
///
/// As geth builds them (internal/ethapi/simulate.go), so that hashes and roots agree:
/// - blocks: numbers strictly increasing (gaps filled with empty blocks, 256 at most after the
///   base), timestamps strictly increasing (12 s apart by default); the fee recipient, gas limit
///   and difficulty carry over from the block before; difficulty 0 from the Merge; from
///   Shanghai no withdrawals unless given, from Cancun a zero parent beacon root unless given;
/// - the base fee: overridden, else EIP-1559's from the parent with `validation`, else zero;
///   the excess blob gas from the parent (zero when the parent is before Cancun);
/// - before each block's calls its state overrides are applied to the state (moving a
///   precompile with movePrecompileToAddress), then the system calls run;
/// - each call becomes a transaction with a zero signature: its nonce is the sender's unless
///   given, its gas the block's gas left unless given, capped by a budget of `gas_cap` for the
///   whole request; the type is EIP-1559's from London (legacy with a gasPrice), a blob or
///   set-code transaction when it has their fields;
/// - without `validation` a call skips the nonce check and pays no fee unless it names one
///   (geth's NoBaseFee); the sender's code is never checked (EIP-3607), nor EIP-7825's cap;
/// - after the calls: withdrawals, the requests from Prague, the rewards before the Merge; the
///   state root is that of the state so far (store::StateRoots).
/// A call that fails to run (its rules refuse it) fails the whole request with the spec's code
/// (-38010 nonce too low ... -38026 too many blocks); one that reverts or halts is a result
/// with status 0 and an error.
///
/// Threading: one request on the calling thread; the store is read through snapshots.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keel/blockchain/calls.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/withdrawal.hpp"
#include "keel/state/account.hpp"

namespace keel::blockchain {

/// One block to simulate: its overrides and its calls.
struct SimBlock {
    BlockOverrides block;
    StateOverrides state;
    std::vector<CallRequest> calls;
};

struct SimOptions {
    /// Each ether transfer shown as an ERC-7528 Transfer log of 0xeeee...eeee.
    bool trace_transfers = false;
    /// Check nonces and fees as a block's transactions are checked.
    bool validation = false;
    /// The gas all calls of the request may use together (geth's RPCGasCap).
    std::uint64_t gas_cap = kCallGasCap;
    /// The request's time limit (CallTimeout): past it, -32000 with its message.
    CallTimeout timeout;
};

/// A log of a simulated call, with its index in the block.
struct SimLog {
    state::Log log;
    std::uint64_t index = 0;
};

/// One call's outcome.
struct SimCall {
    Bytes return_data;
    std::vector<SimLog> logs;  ///< none when the call failed
    std::uint64_t gas_used = 0;
    std::uint64_t peak_gas_used = 0;
    bool success = true;
    /// When not a success: the error (3 with the output for a revert, -32015 for a halt).
    int error_code = 0;
    std::string error_message;
    std::optional<Bytes> error_data;
};

struct SimBlockResult {
    eth::Block block;  ///< header complete; the transactions carry zero signatures
    Hash32 hash;
    std::uint64_t size = 0;        ///< of rlp(block)
    std::vector<Address> senders;  ///< each transaction's (no signature to recover it from)
    std::vector<SimCall> calls;
};

/// Why a request failed as a whole: the spec's code and a line.
struct SimError {
    int code = -32603;
    std::string message;
};

/// The spec's limits: blocks per request, calls per block, calls in all.
inline constexpr std::size_t kMaxSimBlocks = 256;
inline constexpr std::size_t kMaxSimCallsPerBlock = 5000;
inline constexpr std::size_t kMaxSimCalls = 10000;

/// Simulates `blocks` on the state after stored block `base`. Errors: SimError (-32602 bad
/// input, -38010..-38026 the spec's, -32000 a block or state not kept, -32603 a read failure).
[[nodiscard]] Result<std::vector<SimBlockResult>, SimError> simulate(const store::ChainStore& store,
                                                                     const eth::ChainConfig& config,
                                                                     std::uint64_t base,
                                                                     std::vector<SimBlock> blocks,
                                                                     const SimOptions& options);

}  // namespace keel::blockchain
