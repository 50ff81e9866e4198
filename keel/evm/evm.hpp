#pragma once
/// Evm: runs messages (calls and creates) of one transaction on a state::Overlay, for one fork.
///
/// Evm::call() and Evm::create() are the frame boundary: depth and balance checks, the value
/// transfer, the snapshot that a failed frame reverts to, precompiles, EIP-7702 delegations,
/// and for creates the new address, the collision rule and the code deposit. The interpreter
/// (interpreter_impl.hpp) runs bytecode and comes back here for every CALL* and CREATE*.
///
/// The fork is chosen once per Evm: each fork has its own instance of the interpreter (a
/// template), and a tracer or none chooses between the two builds of it (tracer.hpp).
///
/// Threading: an Evm, its overlay and its tracer are used by one thread at a time. The C++ stack
/// holds one interpreter frame per call depth (1,024 at most); when the thread's stack runs low,
/// deeper frames continue on a fresh thread's stack while the caller waits (Evm::interpret), so
/// a tracer may see hooks from more than one thread, never two at once. Stacks and memories of
/// the frames are heap buffers reused across calls.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "keel/eth/fork.hpp"
#include "keel/evm/analysis.hpp"
#include "keel/evm/frame_memory.hpp"
#include "keel/evm/message.hpp"
#include "keel/evm/tracer.hpp"
#include "keel/state/overlay.hpp"

namespace keel::evm {

/// EIP-170 and EIP-3860 limits.
inline constexpr std::size_t kMaxCodeSize = 24576;
inline constexpr std::size_t kMaxInitcodeSize = 2 * kMaxCodeSize;
inline constexpr std::int32_t kMaxDepth = 1024;
/// C++ stack that a frame needs left before it runs bytecode; with less, the frame runs on a
/// fresh stack (Evm::interpret). Covers one depth level of the slowest build with its
/// precompiles and tracer hooks.
inline constexpr std::size_t kFrameStackReserve = std::size_t{512} << 10;

/// The address a CREATE from `sender` with `nonce` makes: keccak256(rlp([sender, nonce]))[12:].
Address create_address(const Address& sender, std::uint64_t nonce);
/// The address of a CREATE2 (EIP-1014): keccak256(0xff ++ sender ++ salt ++ keccak256(init))[12:].
Address create2_address(const Address& sender, const Bytes32& salt, BytesView init_code);

/// The precompiles of `fork` at their usual addresses, in address order (the set an
/// eth_simulateV1 block starts from before its overrides move some: BlockEnv::precompiles).
std::vector<PrecompileAt> fork_precompiles(eth::Fork fork);

/// The delegation designator of EIP-7702 (0xef0100 ++ address), if `code` is one.
std::optional<Address> delegation_target(BytesView code) noexcept;

class Evm {
  public:
    Evm(state::Overlay& state, const BlockEnv& block, const TxEnv& tx, eth::Fork fork,
        Tracer* tracer = nullptr, AnalysisCache* cache = nullptr);
    Evm(const Evm&) = delete;
    Evm& operator=(const Evm&) = delete;
    ~Evm();

    /// Runs a CALL, CALLCODE, DELEGATECALL or STATICCALL frame (msg.kind), including a call to
    /// a precompile. Depth and balance failures come back as a status with all gas returned.
    CallResult call(const Message& msg);
    /// Runs a CREATE or CREATE2 frame; msg.recipient is ignored (the new address is computed
    /// here from the sender's nonce or the salt, and returned in CallResult::created). A
    /// tracer's hooks get the message with the new address as its recipient.
    CallResult create(const Message& msg);

    eth::Fork fork() const noexcept { return fork_; }
    state::Overlay& state() noexcept { return state_; }
    const BlockEnv& block() const noexcept { return block_; }
    const TxEnv& tx() const noexcept { return tx_; }
    Tracer* tracer() const noexcept { return tracer_; }

    /// Whether `a` is a precompile in this fork (or in the block's own set: BlockEnv::precompiles).
    bool is_precompile(const Address& a) const noexcept;
    /// Whether `a` is one of this fork's precompiles at its usual address: warm from a
    /// transaction's start (EIP-2929), even when BlockEnv::precompiles moves them, as geth warms
    /// them. Not put in the state's warm set: the cost checks ask this first (access_is_cold),
    /// so a transaction does not warm the fork's 10-18 precompiles one journal entry each.
    bool warm_from_start(const Address& a) const noexcept;
    /// The access cost check of EIP-2929: whether touching `a` now is a cold access (and from now
    /// on it is warm).
    bool access_is_cold(const Address& a) {
        return !warm_from_start(a) && state_.access_account(a);
    }

    // ---- for the interpreter ------------------------------------------------------------------
    /// A frame's stack space (1,024 words, aligned to kStackAlign) and memory buffer, reused per
    /// depth.
    struct FrameBuffers {
        struct Free {
            void operator()(Uint256* p) const noexcept;
        };
        std::unique_ptr<Uint256, Free> stack_words;  ///< 1,024 words, kStackAlign-aligned
        Uint256* stack = nullptr;                    ///< stack_words.get()
        FrameMemory memory;
    };
    FrameBuffers& buffers(std::int32_t depth);
    std::shared_ptr<const CodeAnalysis> analysis(const Hash32& code_hash, BytesView code);

  private:
    bool out_of_time() const noexcept;
    CallResult call_frame(const Message& msg);
    CallResult create_frame(const Message& msg);  // msg.recipient: the new address
    CallResult run_precompile(const Address& a, const Message& msg);
    std::optional<std::uint16_t> moved_precompile(const Address& a) const noexcept;
    CallResult interpret(const Message& msg, const CodeAnalysis& code);

    state::Overlay& state_;
    const BlockEnv& block_;
    const TxEnv& tx_;
    eth::Fork fork_;
    Tracer* tracer_;
    AnalysisCache own_cache_;
    AnalysisCache* cache_;
    std::vector<std::unique_ptr<FrameBuffers>> buffers_;
    using Interpreter = CallResult (*)(Evm&, const Message&, const CodeAnalysis&);
    Interpreter interpreter_;
};

/// The interpreter of `fork`, traced or not (interpreter_untraced.cpp).
CallResult (*select_interpreter(eth::Fork fork, bool tracing))(Evm&, const Message&,
                                                               const CodeAnalysis&);

}  // namespace keel::evm
