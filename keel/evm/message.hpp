#pragma once
/// What the EVM runs and what comes back: the block and transaction environment, a message
/// (one call frame's inputs), its status and result.
///
/// Reverts, out of gas and every other exceptional halt are outcomes (Status), not errors
/// (DESIGN.md §3): a caller gets them as values and the state of the failed frame is already
/// reverted.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"

namespace keel::evm {

/// The most items the stack holds.
inline constexpr std::size_t kStackLimit = 1024;
/// The alignment of a frame's stack: a power of two above its 32 KiB, so that the interpreter
/// reads the height in bytes from the low bits of its stack pointer (interpreter_impl.hpp).
inline constexpr std::size_t kStackAlign = 65536;
static_assert(kStackLimit * 32 < kStackAlign);

/// The block a transaction executes in.
/// A precompile placed at an address: eth_simulateV1's state overrides move them
/// (movePrecompileToAddress) and replace them with code.
struct PrecompileAt {
    Address address{};
    std::uint16_t id = 0;  ///< precompile_id() of its usual address
};

struct BlockEnv {
    std::uint64_t number = 0;
    std::uint64_t timestamp = 0;
    std::uint64_t gas_limit = 0;
    Address coinbase{};
    Uint256 difficulty{};     ///< DIFFICULTY before Paris
    Hash32 prev_randao{};     ///< PREVRANDAO from Paris on (EIP-4399)
    Uint256 base_fee{};       ///< BASEFEE from London on (EIP-3198)
    Uint256 blob_base_fee{};  ///< BLOBBASEFEE from Cancun on (EIP-7516)
    Uint256 chain_id = 1;
    /// The hash of block `number` for BLOCKHASH; called only for the 256 blocks before this one.
    /// Unset: zero.
    std::function<Hash32(std::uint64_t)> block_hash{};
    /// The precompiles and where they are, when not where the fork puts them (null: the fork's
    /// set). Must outlive the transactions run in this block.
    const std::vector<PrecompileAt>* precompiles = nullptr;
    /// A time limit (a node's eth_call, not a block's transactions): once the clock passes it,
    /// every CALL*, CREATE* and the transaction's own frame fail at their start with all their
    /// gas (out of gas), so a transaction that keeps calling ends soon; code within a frame
    /// runs on, bounded by its gas. The caller tells a timeout by reading the clock after.
    std::optional<std::chrono::steady_clock::time_point> deadline{};
};

/// The transaction's part of the environment.
struct TxEnv {
    Address origin{};
    Uint256 gas_price{};                    ///< the effective gas price (GASPRICE)
    std::span<const Hash32> blob_hashes{};  ///< BLOBHASH (EIP-4844)
};

enum class CallKind : std::uint8_t { call, callcode, delegatecall, staticcall, create, create2 };

/// One call frame's inputs.
struct Message {
    CallKind kind = CallKind::call;
    bool is_static = false;
    std::int32_t depth = 0;
    std::int64_t gas = 0;
    /// The account the code acts on (ADDRESS; its storage and balance). For a create: the new
    /// contract's address, computed by the caller of Evm::create... or by Evm (see evm.hpp).
    Address recipient{};
    Address sender{};        ///< CALLER
    Address code_address{};  ///< whose code runs (the callee of CALLCODE/DELEGATECALL)
    Uint256 value{};         ///< CALLVALUE (DELEGATECALL: the parent's)
    BytesView input{};       ///< call data, or the init code of a create
    Bytes32 salt{};          ///< CREATE2
};

/// How a frame ended. Everything but success and revert is an exceptional halt: all the
/// frame's gas is gone and its state changes are undone.
enum class Status : std::uint8_t {
    success,
    revert,
    out_of_gas,
    invalid_instruction,    ///< the designated INVALID (0xfe)
    undefined_instruction,  ///< an opcode the fork does not have
    stack_underflow,
    stack_overflow,
    bad_jump_destination,
    invalid_memory_access,  ///< RETURNDATACOPY past the end of the return data (EIP-211)
    static_mode_violation,  ///< a state change inside STATICCALL (EIP-214)
    precompile_failure,
    contract_validation_failure,  ///< new code starting with 0xEF (EIP-3541)
    code_size_exceeded,           ///< new code over 24,576 bytes (EIP-170)
    initcode_size_exceeded,       ///< CREATE/CREATE2 init code over 49,152 bytes (EIP-3860)
    create_collision,             ///< the address of a create is already taken
    call_depth_exceeded,          ///< (a failed CALL/CREATE pushes 0; not a halt of the caller)
    insufficient_balance,         ///< the value could not be paid (likewise)
    nonce_overflow,               ///< the creator's nonce is 2^64-1 (EIP-2681; likewise)
    code_store_out_of_gas,        ///< a create's code deposit (200 gas a byte) ran out of gas
                                  ///< (from Homestead, EIP-2; before, the create succeeds
                                  ///< without code)
};

/// A short phrase: "out of gas", "stack underflow", "invalid opcode 0x..."-free forms.
std::string_view describe(Status s) noexcept;

/// What a frame returns.
struct CallResult {
    Status status = Status::success;
    std::int64_t gas_left = 0;
    Bytes output{};     ///< RETURN or REVERT data (empty on an exceptional halt)
    Address created{};  ///< the new contract of a successful create
};

}  // namespace keel::evm
