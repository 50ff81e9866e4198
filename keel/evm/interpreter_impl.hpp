#pragma once
// The interpreter: one instance per fork and per tracing choice (evm.hpp, tracer.hpp). Internal
// to keel/evm: included only by interpreter_untraced.cpp and interpreter_traced.cpp, which
// instantiate the untraced and the traced instances in two translation units, so that the
// compiler's inlining choices for the untraced loop are those of a build with no hooks at all
// (one unit with both instances had the traced twin's extra call sites keep memory_need and
// sdiv out of line: 2.3 % more instructions untraced; bench/evm_hooks_cost.sh).
//
// Dispatch is computed goto over a table of 256 labels. The untraced instance checks the stack
// and charges the constant gas once per basic block, when execution enters one (analysis.hpp);
// each instruction then charges only its dynamic gas and runs. The traced instance checks and
// charges per instruction, as a tracer's step line shows it. The fork is a template parameter,
// so every fork rule below is an `if constexpr` (or a constant folded into the code) and costs
// nothing at run time; an opcode the fork lacks jumps to the undefined-instruction exit. With
// Tracing false no hook code is generated at all.
//
// Gas amounts and rules follow the yellow paper and the EIPs named where they apply; the
// memory expansion cost is 3 per word plus words^2/512 (yellow paper eq. 326).
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <utility>

#include "keel/crypto/keccak.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/opcodes.hpp"

// Computed goto (labels as values) is a GNU extension that g++ and clang both have; the
// interpreter is built on it (DESIGN.md: computed-goto dispatch).
#pragma GCC diagnostic ignored "-Wpedantic"
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wgnu-label-as-value"
#endif

namespace keel::evm {

namespace {

/// A cost no gas can pay (memory beyond 4 GiB, a copy of 2^64 bytes): adding a few of them
/// never overflows. A frame may hold more gas than this (up to 2^63 - 1), so it is not enough for
/// the cost to exceed the gas: CHARGE refuses any cost of kImpossible or more whatever the gas.
/// Every honest single cost stays far below it (memory of kMaxMemory bytes costs under 2^46).
constexpr std::int64_t kImpossible = std::numeric_limits<std::int64_t>::max() / 4;
/// The largest memory keel lets a frame have: 2^32 - 32 bytes, as evmone. It would cost about
/// 2^45 gas; a frame with more gas than that still runs out of gas for memory beyond it (the
/// spec's formula would let 2^63 gas buy terabytes), before anything is grown or written.
constexpr std::uint64_t kMaxMemory = (std::uint64_t{1} << 32) - 32;

constexpr std::int64_t memory_cost(std::uint64_t words) noexcept {
    return static_cast<std::int64_t>(3 * words + words * words / 512);
}

constexpr std::uint64_t words(std::uint64_t bytes) noexcept {
    return (bytes + 31) / 32;
}

/// What growing memory to hold [offset, offset + size) costs, and the size it grows to.
struct MemoryNeed {
    std::int64_t cost = 0;
    std::uint64_t end = 0;  ///< 0: no growth needed
};

inline MemoryNeed memory_need(std::size_t current, const Uint256& offset, const Uint256& size) {
    if (size.is_zero()) return {};
    if (!offset.fits_u64() || !size.fits_u64() || offset[0] > kMaxMemory || size[0] > kMaxMemory)
        return {kImpossible, 0};
    const std::uint64_t end = offset[0] + size[0];
    if (end > kMaxMemory) return {kImpossible, 0};
    if (end <= current) return {};
    return {memory_cost(words(end)) - memory_cost(current / 32), words(end) * 32};
}

/// The gas of copying `size` bytes at `per_word` a word; kImpossible when size is absurd (the
/// memory cost already fails it then).
inline std::int64_t copy_cost(const Uint256& size, std::int64_t per_word) {
    if (!size.fits_u64() || size[0] > kMaxMemory) return kImpossible;
    return static_cast<std::int64_t>(words(size[0])) * per_word;
}

inline Address to_address(const Uint256& w) noexcept {
    const Bytes32 b = w.to_bytes32();
    Address a;
    std::memcpy(a.data(), b.data() + 12, 20);
    return a;
}

inline Uint256 from_address(const Address& a) noexcept {
    std::uint8_t b[32] = {};
    std::memcpy(b + 12, a.data(), 20);
    return Uint256::load_be(b);
}

inline Uint256 from_hash(const Hash32& h) noexcept {
    return Uint256::load_be(h.data());
}

/// Copies src[offset, offset + size) into dst, zero-filling what lies past src's end.
inline void copy_padded(std::uint8_t* dst, BytesView src, const Uint256& offset, std::size_t size) {
    std::size_t n = 0;
    if (offset.fits_u64() && offset[0] < src.size()) {
        n = std::min<std::size_t>(size, src.size() - offset[0]);
        if (n != 0) std::memcpy(dst, src.data() + offset[0], n);
    }
    if (size != n) std::memset(dst + n, 0, size - n);
}

/// dst = a + b and dst = a - b (dst may be a or b), the carry chain and the stores in asm: in the
/// interpreter's one large function g++ kept the intrinsics' carry outputs in stack slots and
/// packed the result limbs into vector registers before storing them.
#if defined(__x86_64__)
#define KEEL_EVM_CARRY_CHAIN(name, first, rest)                                           \
    [[gnu::always_inline]] inline void name(Uint256& dst, const Uint256& a,               \
                                            const Uint256& b) noexcept {                  \
        std::uint64_t t;                                                                  \
        __asm__("movq %[a0], %[t]\n\t" first                                              \
                " %[b0], %[t]\n\tmovq %[t], %[d0]\n\t"                                    \
                "movq %[a1], %[t]\n\t" rest                                               \
                " %[b1], %[t]\n\tmovq %[t], %[d1]\n\t"                                    \
                "movq %[a2], %[t]\n\t" rest                                               \
                " %[b2], %[t]\n\tmovq %[t], %[d2]\n\t"                                    \
                "movq %[a3], %[t]\n\t" rest " %[b3], %[t]\n\tmovq %[t], %[d3]"            \
                : [t] "=&r"(t), [d0] "=m"(dst[0]), [d1] "=m"(dst[1]), [d2] "=m"(dst[2]),  \
                  [d3] "=m"(dst[3])                                                       \
                : [a0] "m"(a.limbs()[0]), [a1] "m"(a.limbs()[1]), [a2] "m"(a.limbs()[2]), \
                  [a3] "m"(a.limbs()[3]), [b0] "m"(b.limbs()[0]), [b1] "m"(b.limbs()[1]), \
                  [b2] "m"(b.limbs()[2]), [b3] "m"(b.limbs()[3])                          \
                : "cc");                                                                  \
    }
KEEL_EVM_CARRY_CHAIN(add_into, "addq", "adcq")
KEEL_EVM_CARRY_CHAIN(sub_into, "subq", "sbbq")
#undef KEEL_EVM_CARRY_CHAIN
#else
inline void add_into(Uint256& dst, const Uint256& a, const Uint256& b) noexcept {
    dst = a + b;
}
inline void sub_into(Uint256& dst, const Uint256& a, const Uint256& b) noexcept {
    dst = a - b;
}
#endif

/// A stack word copied or swapped as four 8-byte limbs, the width every instruction writes
/// them in: a 16-byte load of a word stored as limbs waits for a failed store-to-load forward
/// (the interpreter's units are built without the SLP vectorizer, which would pair them again;
/// CMakeLists.txt).
[[gnu::always_inline]] inline void copy_word(Uint256& dst, const Uint256& src) noexcept {
    const std::uint64_t l0 = src[0], l1 = src[1], l2 = src[2], l3 = src[3];
    dst[0] = l0;
    dst[1] = l1;
    dst[2] = l2;
    dst[3] = l3;
}

[[gnu::always_inline]] inline void swap_words(Uint256& x, Uint256& y) noexcept {
    for (std::size_t i = 0; i < 4; ++i) {
        const std::uint64_t t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

/// a * b mod 2^256, with one multiplication when both fit in 64 bits (indices, lengths and
/// counters: most MULs a contract runs).
[[gnu::always_inline]] inline Uint256 mul_word(const Uint256& a, const Uint256& b) noexcept {
    if ((a[1] | a[2] | a[3] | b[1] | b[2] | b[3]) == 0) {
        const auto p = static_cast<unsigned __int128>(a[0]) * b[0];
        return Uint256::from_limbs(static_cast<std::uint64_t>(p),
                                   static_cast<std::uint64_t>(p >> 64), 0, 0);
    }
    return a * b;
}

/// The value of a PUSHn: the n bytes at `p`, big-endian. Reads up to 8 bytes past them, which
/// the code's padding holds.
template <unsigned N>
[[gnu::always_inline]] inline Uint256 push_value(const std::uint8_t* p) noexcept {
    const auto be64 = [](const std::uint8_t* q) {
        std::uint64_t w;
        std::memcpy(&w, q, 8);
        return std::endian::native == std::endian::little ? std::byteswap(w) : w;
    };
    std::uint64_t l[4] = {0, 0, 0, 0};
    constexpr unsigned kFull = N / 8;
    constexpr unsigned kRest = N % 8;
    for (unsigned i = 0; i < kFull; ++i) l[i] = be64(p + N - 8 * (i + 1));
    if constexpr (kRest != 0) l[kFull] = be64(p) >> (64 - 8 * kRest);
    return Uint256::from_limbs(l[0], l[1], l[2], l[3]);
}

inline Uint256 load_word_padded(BytesView src, const Uint256& offset) {
    std::uint8_t b[32];
    copy_padded(b, src, offset, 32);
    return Uint256::load_be(b);
}

// interpret<F, Tracing> stays in this unnamed namespace too: each of the two units that include
// this file has its own copy, built with its own inlining choices.
template <Fork F, bool Tracing>
CallResult interpret(Evm& evm, const Message& msg, const CodeAnalysis& analysis) {
    static constexpr OpTable T = make_op_table(F);
    static const void* const kTable[256] = {
        &&op_STOP,
        &&op_ADD,
        &&op_MUL,
        &&op_SUB,
        &&op_DIV,
        &&op_SDIV,
        &&op_MOD,
        &&op_SMOD,
        &&op_ADDMOD,
        &&op_MULMOD,
        &&op_EXP,
        &&op_SIGNEXTEND,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_LT,
        &&op_GT,
        &&op_SLT,
        &&op_SGT,
        &&op_EQ,
        &&op_ISZERO,
        &&op_AND,
        &&op_OR,
        &&op_XOR,
        &&op_NOT,
        &&op_BYTE,
        &&op_SHL,
        &&op_SHR,
        &&op_SAR,
        &&op_CLZ,
        &&op_undefined,
        &&op_KECCAK256,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_ADDRESS,
        &&op_BALANCE,
        &&op_ORIGIN,
        &&op_CALLER,
        &&op_CALLVALUE,
        &&op_CALLDATALOAD,
        &&op_CALLDATASIZE,
        &&op_CALLDATACOPY,
        &&op_CODESIZE,
        &&op_CODECOPY,
        &&op_GASPRICE,
        &&op_EXTCODESIZE,
        &&op_EXTCODECOPY,
        &&op_RETURNDATASIZE,
        &&op_RETURNDATACOPY,
        &&op_EXTCODEHASH,
        &&op_BLOCKHASH,
        &&op_COINBASE,
        &&op_TIMESTAMP,
        &&op_NUMBER,
        &&op_PREVRANDAO,
        &&op_GASLIMIT,
        &&op_CHAINID,
        &&op_SELFBALANCE,
        &&op_BASEFEE,
        &&op_BLOBHASH,
        &&op_BLOBBASEFEE,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_POP,
        &&op_MLOAD,
        &&op_MSTORE,
        &&op_MSTORE8,
        &&op_SLOAD,
        &&op_SSTORE,
        &&op_JUMP,
        &&op_JUMPI,
        &&op_PC,
        &&op_MSIZE,
        &&op_GAS,
        &&op_JUMPDEST,
        &&op_TLOAD,
        &&op_TSTORE,
        &&op_MCOPY,
        &&op_PUSH0,
        &&op_PUSH1,
        &&op_PUSH2,
        &&op_PUSH3,
        &&op_PUSH4,
        &&op_PUSH5,
        &&op_PUSH6,
        &&op_PUSH7,
        &&op_PUSH8,
        &&op_PUSH9,
        &&op_PUSH10,
        &&op_PUSH11,
        &&op_PUSH12,
        &&op_PUSH13,
        &&op_PUSH14,
        &&op_PUSH15,
        &&op_PUSH16,
        &&op_PUSH17,
        &&op_PUSH18,
        &&op_PUSH19,
        &&op_PUSH20,
        &&op_PUSH21,
        &&op_PUSH22,
        &&op_PUSH23,
        &&op_PUSH24,
        &&op_PUSH25,
        &&op_PUSH26,
        &&op_PUSH27,
        &&op_PUSH28,
        &&op_PUSH29,
        &&op_PUSH30,
        &&op_PUSH31,
        &&op_PUSH32,
        &&op_DUP1,
        &&op_DUP2,
        &&op_DUP3,
        &&op_DUP4,
        &&op_DUP5,
        &&op_DUP6,
        &&op_DUP7,
        &&op_DUP8,
        &&op_DUP9,
        &&op_DUP10,
        &&op_DUP11,
        &&op_DUP12,
        &&op_DUP13,
        &&op_DUP14,
        &&op_DUP15,
        &&op_DUP16,
        &&op_SWAP1,
        &&op_SWAP2,
        &&op_SWAP3,
        &&op_SWAP4,
        &&op_SWAP5,
        &&op_SWAP6,
        &&op_SWAP7,
        &&op_SWAP8,
        &&op_SWAP9,
        &&op_SWAP10,
        &&op_SWAP11,
        &&op_SWAP12,
        &&op_SWAP13,
        &&op_SWAP14,
        &&op_SWAP15,
        &&op_SWAP16,
        &&op_LOG,
        &&op_LOG,
        &&op_LOG,
        &&op_LOG,
        &&op_LOG,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_CREATE,
        &&op_CALL,
        &&op_CALLCODE,
        &&op_RETURN,
        &&op_DELEGATECALL,
        &&op_CREATE2,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_undefined,
        &&op_STATICCALL,
        &&op_undefined,
        &&op_undefined,
        &&op_REVERT,
        &&op_INVALID,
        &&op_SELFDESTRUCT,
    };

    Evm::FrameBuffers& buf = evm.buffers(msg.depth);
    Uint256* const bottom = buf.stack;
    Uint256* sp = bottom;  // one past the top: the top is sp[-1]
    FrameMemory& mem = buf.memory;
    mem.clear();
    std::int64_t gas = msg.gas;
    const std::uint8_t* const code = analysis.padded.data();
    const std::uint8_t* ip = code;  // the instruction running; its pc is ip - code
    state::Overlay& st = evm.state();
    const Address self = msg.recipient;
    Bytes return_data;
    CallResult result;
    Status status = Status::success;
    CallKind kind = CallKind::call;
    [[maybe_unused]] Tracer* const tracer = evm.tracer();
    // The untraced instance checks and charges per basic block; a tracer sees every step's gas,
    // so the traced one does it per instruction.
    constexpr bool kBlocks = !Tracing;
    // blocks[ip - code] as one address computation from ip (unsigned arithmetic, exact modulo
    // 2^64): the interpreter keeps no register for the table's base and the code's.
    [[maybe_unused]] const std::uintptr_t block_bias =
        reinterpret_cast<std::uintptr_t>(analysis.blocks.data()) -
        reinterpret_cast<std::uintptr_t>(code) * sizeof(BlockCost);
    [[maybe_unused]] const std::uint8_t* traced_ip = nullptr;
    // A tracer that wants no steps (Tracer::wants_steps: call-level tracers) gets the step of a
    // failing instruction only, before on_step_error; one that wants some (Tracer::step_ops)
    // gets those and the failing one. Asked once per frame; null: no steps.
    [[maybe_unused]] const bool* step_ops = nullptr;
    if constexpr (Tracing) {
        if (tracer->wants_steps()) {
            static constexpr auto kEvery = [] {
                std::array<bool, 256> t{};
                t.fill(true);
                return t;
            }();
            const std::array<bool, 256>* some = tracer->step_ops();
            step_ops = (some != nullptr ? *some : kEvery).data();
        }
    }
    // The step hook, a macro rather than a lambda: a lambda capturing pc, gas and op by
    // reference made them addressable, and g++ kept them in memory in the untraced loop too (a
    // load and a store of pc and gas in every dispatch).
#define TRACE_STEP(cost_expr)                                                     \
    do {                                                                          \
        traced_ip = ip;                                                           \
        tracer->on_step(StepView{static_cast<std::uint32_t>(ip - code),           \
                                 *ip,                                             \
                                 msg.depth,                                       \
                                 gas,                                             \
                                 (cost_expr),                                     \
                                 st.refund(),                                     \
                                 {bottom, static_cast<std::size_t>(sp - bottom)}, \
                                 mem,                                             \
                                 return_data});                                   \
    } while (0)
#define TRACE(cost_expr)                                                     \
    do {                                                                     \
        if constexpr (Tracing) {                                             \
            if (step_ops != nullptr && step_ops[*ip]) TRACE_STEP(cost_expr); \
        }                                                                    \
    } while (0)
    const auto grow = [&mem](const MemoryNeed& need) { mem.grow_to(need.end); };

#define DISPATCH()         \
    do {                   \
        goto* kTable[*ip]; \
    } while (0)
#define NEXT(n)     \
    do {            \
        ip += (n);  \
        DISPATCH(); \
    } while (0)
#define FAIL(s)       \
    do {              \
        status = (s); \
        goto fail;    \
    } while (0)
// Entering the basic block at ip: one check of the stack height and of the gas for all its
// instructions, and the block's constant gas charged (analysis.hpp). The stack's base is
// aligned to 64 KiB (Evm::buffers), so the height in bytes is the low 16 bits of sp: no register
// holds the base. When a check fails (or the block's sums did not fit), the exact walk names the
// failure.
#define BEGIN_BLOCK()                                                                      \
    do {                                                                                   \
        const BlockCost b_ = *reinterpret_cast<const BlockCost*>(                          \
            block_bias + reinterpret_cast<std::uintptr_t>(ip) * sizeof(BlockCost));        \
        const std::uint64_t h_ = reinterpret_cast<std::uintptr_t>(sp) & (kStackAlign - 1); \
        if (h_ - b_.min_height > b_.height_range || gas < b_.gas) [[unlikely]] {           \
            const BlockEntry e_ = enter_block_exactly(                                     \
                analysis, static_cast<std::size_t>(ip - code), sp - bottom, gas);          \
            if (e_.status != Status::success) FAIL(e_.status);                             \
            gas = e_.gas_left;                                                             \
        } else {                                                                           \
            gas -= b_.gas;                                                                 \
        }                                                                                  \
    } while (0)
// After an instruction that ends a block and falls through: the next block starts.
#define NEXT_BLOCK(n)                         \
    do {                                      \
        ip += (n);                            \
        if constexpr (kBlocks) BEGIN_BLOCK(); \
        DISPATCH();                           \
    } while (0)
// The fork lacks the opcode, or the stack cannot serve it.
// With blocks, the block's entry checked the stack.
#define GUARD(opc)                                                                            \
    do {                                                                                      \
        if constexpr (!T[opc].defined) goto op_undefined;                                     \
        if constexpr (!kBlocks && T[opc].stack_in > 0) {                                      \
            if (sp - bottom < T[opc].stack_in) FAIL(Status::stack_underflow);                 \
        }                                                                                     \
        if constexpr (!kBlocks && T[opc].stack_change > 0) {                                  \
            if (sp - bottom + T[opc].stack_change > static_cast<std::ptrdiff_t>(kStackLimit)) \
                FAIL(Status::stack_overflow);                                                 \
        }                                                                                     \
    } while (0)
// An instruction's constant gas, where the instruction charges it: 0 with blocks, whose entry
// charged it (analysis.hpp).
#define STATIC(opc) (kBlocks ? std::int64_t{0} : std::int64_t{T[opc].gas})
// The step's whole cost is known: the tracer sees it, then the gas is charged. A cost of
// kImpossible or more is out of gas however much gas the frame holds: a frame may hold 2^63 - 1,
// more than kImpossible, and what such a cost stands for (memory past kMaxMemory) must never be
// grown or written. (Where the cost is a known constant the second test folds away.)
#define CHARGE(cost)                                                 \
    do {                                                             \
        const std::int64_t c_ = (cost);                              \
        TRACE(c_);                                                   \
        if (gas < c_ || c_ >= kImpossible) FAIL(Status::out_of_gas); \
        gas -= c_;                                                   \
    } while (0)
// A cost already known to be payable: a call's cost with the gas it forwards (which may exceed
// kImpossible when the frame holds more), checked against what is left before.
#define CHARGE_PAYABLE(cost)            \
    do {                                \
        const std::int64_t c_ = (cost); \
        TRACE(c_);                      \
        gas -= c_;                      \
    } while (0)
#define STATIC_OP(opc) \
    GUARD(opc);        \
    if constexpr (!kBlocks) CHARGE(T[opc].gas)
#define BINARY(opc, expr)          \
    op_##opc : {                   \
        STATIC_OP(OP_##opc);       \
        const Uint256& a = sp[-1]; \
        const Uint256& b = sp[-2]; \
        sp[-2] = (expr);           \
        --sp;                      \
        NEXT(1);                   \
    }
#define PUSH_VALUE(opc, expr) \
    op_##opc : {              \
        STATIC_OP(OP_##opc);  \
        *sp++ = (expr);       \
        NEXT(1);              \
    }

    if constexpr (kBlocks) BEGIN_BLOCK();
    DISPATCH();

    // ---- arithmetic, comparison, bits
    // ------------------------------------------------------------
op_STOP: {
    STATIC_OP(OP_STOP);
    result.status = Status::success;
    result.gas_left = gas;
    return result;
}
op_ADD: {
    STATIC_OP(OP_ADD);
    add_into(sp[-2], sp[-1], sp[-2]);
    --sp;
    NEXT(1);
}
    BINARY(MUL, mul_word(a, b))
op_SUB: {
    STATIC_OP(OP_SUB);
    sub_into(sp[-2], sp[-1], sp[-2]);
    --sp;
    NEXT(1);
}
    BINARY(DIV, a / b)
    BINARY(SDIV, sdiv(a, b))
    BINARY(MOD, a % b)
    BINARY(SMOD, smod(a, b))
op_ADDMOD: {
    STATIC_OP(OP_ADDMOD);
    sp[-3] = addmod(sp[-1], sp[-2], sp[-3]);
    sp -= 2;
    NEXT(1);
}
op_MULMOD: {
    STATIC_OP(OP_MULMOD);
    sp[-3] = mulmod(sp[-1], sp[-2], sp[-3]);
    sp -= 2;
    NEXT(1);
}
op_EXP: {
    GUARD(OP_EXP);
    constexpr std::int64_t per_byte = F >= Fork::spurious_dragon ? 50 : 10;  // EIP-160
    CHARGE(STATIC(OP_EXP) + per_byte * static_cast<std::int64_t>(sp[-2].byte_length()));
    sp[-2] = exp(sp[-1], sp[-2]);
    --sp;
    NEXT(1);
}
    BINARY(SIGNEXTEND, signextend(a, b))
    BINARY(LT, Uint256(a < b ? 1 : 0))
    BINARY(GT, Uint256(a > b ? 1 : 0))
    BINARY(SLT, Uint256(slt(a, b) ? 1 : 0))
    BINARY(SGT, Uint256(sgt(a, b) ? 1 : 0))
    BINARY(EQ, Uint256(a == b ? 1 : 0))
op_ISZERO: {
    STATIC_OP(OP_ISZERO);
    sp[-1] = Uint256(sp[-1].is_zero() ? 1 : 0);
    NEXT(1);
}
    BINARY(AND, a & b)
    BINARY(OR, a | b)
    BINARY(XOR, a ^ b)
op_NOT: {
    STATIC_OP(OP_NOT);
    sp[-1] = ~sp[-1];
    NEXT(1);
}
    BINARY(BYTE, byte(a, b))
    BINARY(SHL, shl(b, a))
    BINARY(SHR, shr(b, a))
    BINARY(SAR, sar(b, a))
op_CLZ: {
    STATIC_OP(OP_CLZ);
    sp[-1] = Uint256(sp[-1].count_leading_zeros());
    NEXT(1);
}
op_KECCAK256: {
    GUARD(OP_KECCAK256);
    const MemoryNeed need = memory_need(mem.size(), sp[-1], sp[-2]);
    CHARGE(STATIC(OP_KECCAK256) + need.cost + copy_cost(sp[-2], 6));
    grow(need);
    const std::size_t n = sp[-2].is_zero() ? 0 : sp[-2][0];
    const Hash32 h = crypto::keccak256(n == 0 ? BytesView{} : BytesView(mem.data() + sp[-1][0], n));
    sp[-2] = from_hash(h);
    --sp;
    NEXT(1);
}

    // ---- the environment ---------------------------------------------------------------------
    PUSH_VALUE(ADDRESS, from_address(self))
op_BALANCE: {
    GUARD(OP_BALANCE);
    const Address a = to_address(sp[-1]);
    std::int64_t cost = STATIC(OP_BALANCE);
    if constexpr (F >= Fork::berlin) cost += evm.access_is_cold(a) ? 2500 : 0;
    CHARGE(cost);
    sp[-1] = st.balance(a);
    NEXT(1);
}
    PUSH_VALUE(ORIGIN, from_address(evm.tx().origin))
    PUSH_VALUE(CALLER, from_address(msg.sender))
    PUSH_VALUE(CALLVALUE, msg.value)
op_CALLDATALOAD: {
    STATIC_OP(OP_CALLDATALOAD);
    sp[-1] = load_word_padded(msg.input, sp[-1]);
    NEXT(1);
}
    PUSH_VALUE(CALLDATASIZE, Uint256(msg.input.size()))
op_CALLDATACOPY:
op_CODECOPY: {
    // CALLDATACOPY and CODECOPY: (memory offset, source offset, size) from a byte string.
    if (*ip == OP_CALLDATACOPY) {
        GUARD(OP_CALLDATACOPY);
    } else {
        GUARD(OP_CODECOPY);
    }
    const MemoryNeed need = memory_need(mem.size(), sp[-1], sp[-3]);
    CHARGE(STATIC(OP_CALLDATACOPY) + need.cost + copy_cost(sp[-3], 3));  // CODECOPY's too
    grow(need);
    if (!sp[-3].is_zero()) {
        const BytesView src = *ip == OP_CALLDATACOPY ? msg.input : analysis.code();
        copy_padded(mem.data() + sp[-1][0], src, sp[-2], sp[-3][0]);
    }
    sp -= 3;
    NEXT(1);
}
    PUSH_VALUE(CODESIZE, Uint256(analysis.size))
    PUSH_VALUE(GASPRICE, evm.tx().gas_price)
op_EXTCODESIZE: {
    GUARD(OP_EXTCODESIZE);
    const Address a = to_address(sp[-1]);
    std::int64_t cost = STATIC(OP_EXTCODESIZE);
    if constexpr (F >= Fork::berlin) cost += evm.access_is_cold(a) ? 2500 : 0;
    CHARGE(cost);
    sp[-1] = Uint256(st.code(a)->size());
    NEXT(1);
}
op_EXTCODECOPY: {
    GUARD(OP_EXTCODECOPY);
    const Address a = to_address(sp[-1]);
    const MemoryNeed need = memory_need(mem.size(), sp[-2], sp[-4]);
    std::int64_t cost = STATIC(OP_EXTCODECOPY) + need.cost + copy_cost(sp[-4], 3);
    if constexpr (F >= Fork::berlin) cost += evm.access_is_cold(a) ? 2500 : 0;
    CHARGE(cost);
    grow(need);
    if (!sp[-4].is_zero()) copy_padded(mem.data() + sp[-2][0], *st.code(a), sp[-3], sp[-4][0]);
    sp -= 4;
    NEXT(1);
}
    PUSH_VALUE(RETURNDATASIZE, Uint256(return_data.size()))
op_RETURNDATACOPY: {
    GUARD(OP_RETURNDATACOPY);
    const MemoryNeed need = memory_need(mem.size(), sp[-1], sp[-3]);
    CHARGE(STATIC(OP_RETURNDATACOPY) + need.cost + copy_cost(sp[-3], 3));
    const Uint256& from = sp[-2];
    const Uint256& n = sp[-3];
    if (!from.fits_u64() || !n.fits_u64() || from[0] > return_data.size() ||
        n[0] > return_data.size() - from[0])
        FAIL(Status::invalid_memory_access);
    grow(need);
    if (n[0] != 0) std::memcpy(mem.data() + sp[-1][0], return_data.data() + from[0], n[0]);
    sp -= 3;
    NEXT(1);
}
op_EXTCODEHASH: {
    GUARD(OP_EXTCODEHASH);
    const Address a = to_address(sp[-1]);
    std::int64_t cost = STATIC(OP_EXTCODEHASH);
    if constexpr (F >= Fork::berlin) cost += evm.access_is_cold(a) ? 2500 : 0;
    CHARGE(cost);
    sp[-1] = st.is_dead(a) ? Uint256{} : from_hash(st.code_hash(a));
    NEXT(1);
}

    // ---- the block -----------------------------------------------------------------------------
op_BLOCKHASH: {
    STATIC_OP(OP_BLOCKHASH);
    const std::uint64_t number = evm.block().number;
    const Uint256& n = sp[-1];
    Uint256 h;
    if (n.fits_u64() && n[0] < number && number - n[0] <= 256 && evm.block().block_hash)
        h = from_hash(evm.block().block_hash(n[0]));
    sp[-1] = h;
    NEXT(1);
}
    PUSH_VALUE(COINBASE, from_address(evm.block().coinbase))
    PUSH_VALUE(TIMESTAMP, Uint256(evm.block().timestamp))
    PUSH_VALUE(NUMBER, Uint256(evm.block().number))
    PUSH_VALUE(PREVRANDAO,
               F >= Fork::paris ? from_hash(evm.block().prev_randao) : evm.block().difficulty)
    PUSH_VALUE(GASLIMIT, Uint256(evm.block().gas_limit))
    PUSH_VALUE(CHAINID, evm.block().chain_id)
    PUSH_VALUE(SELFBALANCE, st.balance(self))
    PUSH_VALUE(BASEFEE, evm.block().base_fee)
op_BLOBHASH: {
    STATIC_OP(OP_BLOBHASH);
    const auto& hashes = evm.tx().blob_hashes;
    const Uint256& i = sp[-1];
    sp[-1] = i.fits_u64() && i[0] < hashes.size() ? from_hash(hashes[i[0]]) : Uint256{};
    NEXT(1);
}
    PUSH_VALUE(BLOBBASEFEE, evm.block().blob_base_fee)

    // ---- stack, memory, storage, flow ----------------------------------------------------------
op_POP: {
    STATIC_OP(OP_POP);
    --sp;
    NEXT(1);
}
op_MLOAD: {
    GUARD(OP_MLOAD);
    const MemoryNeed need = memory_need(mem.size(), sp[-1], Uint256(32));
    CHARGE(STATIC(OP_MLOAD) + need.cost);
    grow(need);
    sp[-1] = Uint256::load_be(mem.data() + sp[-1][0]);
    NEXT(1);
}
op_MSTORE: {
    GUARD(OP_MSTORE);
    const MemoryNeed need = memory_need(mem.size(), sp[-1], Uint256(32));
    CHARGE(STATIC(OP_MSTORE) + need.cost);
    grow(need);
    sp[-2].to_be_bytes(mem.data() + sp[-1][0]);
    sp -= 2;
    NEXT(1);
}
op_MSTORE8: {
    GUARD(OP_MSTORE8);
    const MemoryNeed need = memory_need(mem.size(), sp[-1], Uint256(1));
    CHARGE(STATIC(OP_MSTORE8) + need.cost);
    grow(need);
    mem.data()[sp[-1][0]] = static_cast<std::uint8_t>(sp[-2][0]);
    sp -= 2;
    NEXT(1);
}
op_SLOAD: {
    GUARD(OP_SLOAD);
    std::int64_t cost = STATIC(OP_SLOAD);
    const state::Overlay::SlotAccess slot = st.access_slot(self, sp[-1], F >= Fork::berlin);
    if constexpr (F >= Fork::berlin) cost += slot.was_cold ? 2000 : 0;
    const Uint256 v = slot.current;
    if constexpr (Tracing) {
        // The read is reported before the charge, so a tracer sees the slot on an SLOAD that
        // then runs out of gas too (geth's struct logger reads it when it logs the step).
        TRACE(cost);
        tracer->on_storage_read(self, sp[-1], v);
        if (gas < cost) FAIL(Status::out_of_gas);
        gas -= cost;
    } else {
        CHARGE(cost);
    }
    sp[-1] = v;
    NEXT(1);
}
op_SSTORE: {
    GUARD(OP_SSTORE);
    if (msg.is_static) {
        TRACE(0);
        FAIL(Status::static_mode_violation);
    }
    // EIP-2200's sentry: SSTORE needs more than the call stipend left.
    if constexpr (F >= Fork::istanbul) {
        if (gas <= 2300) {
            TRACE(0);
            FAIL(Status::out_of_gas);
        }
    }
    const Uint256 key = sp[-1];
    const Uint256 value = sp[-2];
    std::int64_t cost = 0;
    const state::Overlay::SlotAccess slot = st.access_slot(self, key, F >= Fork::berlin);
    if constexpr (F >= Fork::berlin) cost += slot.was_cold ? 2100 : 0;  // EIP-2929
    const Uint256 current = slot.current;
    std::int64_t refund = 0;
    if constexpr (F == Fork::constantinople || F >= Fork::istanbul) {
        // Net gas metering: EIP-1283 (Constantinople), EIP-2200 (Istanbul), with EIP-2929's
        // prices from Berlin and EIP-3529's smaller refund from London.
        constexpr std::int64_t sload = F >= Fork::berlin ? 100 : F >= Fork::istanbul ? 800 : 200;
        constexpr std::int64_t set = 20000;
        constexpr std::int64_t reset = F >= Fork::berlin ? 5000 - 2100 : 5000;
        constexpr std::int64_t clear = F >= Fork::london ? 4800 : 15000;
        const Uint256& original = slot.original;
        if (current == value) {
            cost += sload;
        } else if (original == current) {
            if (original.is_zero()) {
                cost += set;
            } else {
                cost += reset;
                if (value.is_zero()) refund += clear;
            }
        } else {
            cost += sload;
            if (!original.is_zero()) {
                if (current.is_zero()) refund -= clear;
                if (value.is_zero()) refund += clear;
            }
            if (original == value) refund += original.is_zero() ? set - sload : reset - sload;
        }
    } else {
        cost += current.is_zero() && !value.is_zero() ? 20000 : 5000;
        if (!current.is_zero() && value.is_zero()) refund += 15000;
    }
    // The refund first: a tracer's step line shows it, as geth, erigon and EELS print it (an
    // out-of-gas halt below reverts the frame, and the refund with it).
    if (refund != 0) st.add_refund(refund);
    CHARGE(cost);
    st.set_storage(self, key, value);
    if constexpr (Tracing) tracer->on_storage_write(self, key, value);
    sp -= 2;
    NEXT_BLOCK(1);
}
op_JUMP: {
    STATIC_OP(OP_JUMP);
    const Uint256& dest = sp[-1];
    if (!dest.fits_u64() || !analysis.is_jumpdest(dest[0])) FAIL(Status::bad_jump_destination);
    --sp;
    ip = code + dest[0];
    if constexpr (kBlocks) BEGIN_BLOCK();
    DISPATCH();
}
op_JUMPI: {
    STATIC_OP(OP_JUMPI);
    if (sp[-2].is_zero()) {
        sp -= 2;
        NEXT_BLOCK(1);
    }
    const Uint256& dest = sp[-1];
    if (!dest.fits_u64() || !analysis.is_jumpdest(dest[0])) FAIL(Status::bad_jump_destination);
    sp -= 2;
    ip = code + dest[0];
    if constexpr (kBlocks) BEGIN_BLOCK();
    DISPATCH();
}
    PUSH_VALUE(PC, Uint256(static_cast<std::uint64_t>(ip - code)))
    PUSH_VALUE(MSIZE, Uint256(mem.size()))
op_GAS: {
    STATIC_OP(OP_GAS);
    *sp++ = Uint256(static_cast<std::uint64_t>(gas));
    NEXT_BLOCK(1);
}
op_JUMPDEST: {
    STATIC_OP(OP_JUMPDEST);  // with blocks: paid by the block it falls into, or the jump's
    NEXT(1);
}
op_TLOAD: {
    STATIC_OP(OP_TLOAD);
    sp[-1] = st.transient_storage(self, sp[-1]);
    NEXT(1);
}
op_TSTORE: {
    STATIC_OP(OP_TSTORE);
    if (msg.is_static) FAIL(Status::static_mode_violation);
    st.set_transient_storage(self, sp[-1], sp[-2]);
    sp -= 2;
    NEXT(1);
}
op_MCOPY: {
    GUARD(OP_MCOPY);
    const MemoryNeed to = memory_need(mem.size(), sp[-1], sp[-3]);
    const MemoryNeed from = memory_need(mem.size(), sp[-2], sp[-3]);
    const MemoryNeed need = to.end >= from.end ? to : from;
    CHARGE(STATIC(OP_MCOPY) + std::max(to.cost, from.cost) + copy_cost(sp[-3], 3));
    grow(need);
    if (!sp[-3].is_zero()) std::memmove(mem.data() + sp[-1][0], mem.data() + sp[-2][0], sp[-3][0]);
    sp -= 3;
    NEXT(1);
}
    PUSH_VALUE(PUSH0, Uint256{})
op_PUSH1: {
    STATIC_OP(OP_PUSH1);
    *sp++ = Uint256(ip[1]);
    NEXT(2);
}
// PUSH2..PUSH32, DUP1..DUP16, SWAP1..SWAP16: one handler per n, so that the width and the
// stack offsets are constants (a shift by a variable width cost more than the rest of a PUSH).
#define PUSH_N(n)                          \
    op_PUSH##n : {                         \
        GUARD(OP_PUSH1 + (n) - 1);         \
        if constexpr (!kBlocks) CHARGE(3); \
        *sp++ = push_value<n>(ip + 1);     \
        NEXT(1 + n);                       \
    }
#define DUP_N(n)                           \
    op_DUP##n : {                          \
        GUARD(OP_DUP1 + (n) - 1);          \
        if constexpr (!kBlocks) CHARGE(3); \
        copy_word(*sp, sp[-(n)]);          \
        ++sp;                              \
        NEXT(1);                           \
    }
#define SWAP_N(n)                          \
    op_SWAP##n : {                         \
        GUARD(OP_SWAP1 + (n) - 1);         \
        if constexpr (!kBlocks) CHARGE(3); \
        swap_words(sp[-1], sp[-1 - (n)]);  \
        NEXT(1);                           \
    }
    // clang-format off
    PUSH_N(2) PUSH_N(3) PUSH_N(4) PUSH_N(5) PUSH_N(6) PUSH_N(7) PUSH_N(8) PUSH_N(9)
    PUSH_N(10) PUSH_N(11) PUSH_N(12) PUSH_N(13) PUSH_N(14) PUSH_N(15) PUSH_N(16) PUSH_N(17)
    PUSH_N(18) PUSH_N(19) PUSH_N(20) PUSH_N(21) PUSH_N(22) PUSH_N(23) PUSH_N(24) PUSH_N(25)
    PUSH_N(26) PUSH_N(27) PUSH_N(28) PUSH_N(29) PUSH_N(30) PUSH_N(31) PUSH_N(32)
    DUP_N(1) DUP_N(2) DUP_N(3) DUP_N(4) DUP_N(5) DUP_N(6) DUP_N(7) DUP_N(8)
    DUP_N(9) DUP_N(10) DUP_N(11) DUP_N(12) DUP_N(13) DUP_N(14) DUP_N(15) DUP_N(16)
    SWAP_N(1) SWAP_N(2) SWAP_N(3) SWAP_N(4) SWAP_N(5) SWAP_N(6) SWAP_N(7) SWAP_N(8)
    SWAP_N(9) SWAP_N(10) SWAP_N(11) SWAP_N(12) SWAP_N(13) SWAP_N(14) SWAP_N(15) SWAP_N(16)
    // clang-format on
#undef PUSH_N
#undef DUP_N
#undef SWAP_N
                                    op_LOG : {
        GUARD(OP_LOG0);
        const std::ptrdiff_t topics = *ip - OP_LOG0;
        if constexpr (!kBlocks) {
            if (sp - bottom < topics + 2) FAIL(Status::stack_underflow);
        }
        const MemoryNeed need = memory_need(mem.size(), sp[-1], sp[-2]);
        CHARGE((kBlocks ? 0 : 375 + 375 * topics) + need.cost +
               (sp[-2].fits_u64() && sp[-2][0] <= kMaxMemory
                    ? 8 * static_cast<std::int64_t>(sp[-2][0])
                    : kImpossible));
        if (msg.is_static) FAIL(Status::static_mode_violation);
        grow(need);
        {  // (objects with destructors end before the dispatch: clang's rule for computed goto)
            state::Log log;
            log.address = self;
            for (std::ptrdiff_t i = 0; i < topics; ++i)
                log.topics.push_back(sp[-3 - i].to_bytes32());
            if (!sp[-2].is_zero())
                log.data.assign(mem.data() + sp[-1][0], mem.data() + sp[-1][0] + sp[-2][0]);
            if constexpr (Tracing) tracer->on_log(log);
            st.add_log(std::move(log));
        }
        sp -= 2 + topics;
        NEXT(1);
    }

    // ---- calls and creation
    // ----------------------------------------------------------------------
op_CREATE: {
    GUARD(OP_CREATE);
    kind = CallKind::create;
    goto do_create;
}
op_CREATE2: {
    GUARD(OP_CREATE2);
    kind = CallKind::create2;
    goto do_create;
}
do_create: {
    const MemoryNeed need = memory_need(mem.size(), sp[-2], sp[-3]);
    std::int64_t cost = STATIC(OP_CREATE) + need.cost;  // CREATE2's too
    if constexpr (F >= Fork::shanghai) {                // EIP-3860: a price per word, and a limit
        cost += copy_cost(sp[-3], 2);
        if (!sp[-3].fits_u64() || sp[-3][0] > kMaxInitcodeSize) cost = kImpossible;
    }
    if (kind == CallKind::create2) cost += copy_cost(sp[-3], 6);  // hashing the init code
    CHARGE(cost);
    if (msg.is_static) FAIL(Status::static_mode_violation);
    grow(need);
    Message m;
    m.kind = kind;
    m.depth = msg.depth + 1;
    m.gas = F >= Fork::tangerine_whistle ? gas - gas / 64 : gas;  // EIP-150
    m.sender = self;
    m.value = sp[-1];
    if (!sp[-3].is_zero()) m.input = BytesView(mem.data() + sp[-2][0], sp[-3][0]);
    if (kind == CallKind::create2) m.salt = sp[-4].to_bytes32();
    sp -= kind == CallKind::create2 ? 4 : 3;
    gas -= m.gas;
    {
        CallResult r = evm.create(m);
        gas += r.gas_left;
        return_data = r.status == Status::revert ? std::move(r.output) : Bytes{};
        *sp++ = r.status == Status::success ? from_address(r.created) : Uint256{};
    }
    NEXT_BLOCK(1);
}
op_CALL: {
    GUARD(OP_CALL);
    kind = CallKind::call;
    goto do_call;
}
op_CALLCODE: {
    GUARD(OP_CALLCODE);
    kind = CallKind::callcode;
    goto do_call;
}
op_DELEGATECALL: {
    GUARD(OP_DELEGATECALL);
    kind = CallKind::delegatecall;
    goto do_call;
}
op_STATICCALL: {
    GUARD(OP_STATICCALL);
    kind = CallKind::staticcall;
    goto do_call;
}
do_call: {
    const bool has_value = kind == CallKind::call || kind == CallKind::callcode;
    const std::ptrdiff_t at = has_value ? 4 : 3;  // where the memory arguments start
    const Uint256 requested = sp[-1];
    const Address to = to_address(sp[-2]);
    const Uint256 value = has_value ? sp[-3] : Uint256{};
    const Uint256 in_offset = sp[-at], in_size = sp[-at - 1];
    const Uint256 out_offset = sp[-at - 2], out_size = sp[-at - 3];
    const MemoryNeed in_need = memory_need(mem.size(), in_offset, in_size);
    const MemoryNeed out_need = memory_need(mem.size(), out_offset, out_size);
    const MemoryNeed need = in_need.end >= out_need.end ? in_need : out_need;
    std::int64_t cost = (kBlocks ? 0 : T[*ip].gas) + std::max(in_need.cost, out_need.cost);
    if constexpr (F >= Fork::berlin) cost += evm.access_is_cold(to) ? 2500 : 0;
    if (!value.is_zero()) cost += 9000;
    if (kind == CallKind::call) {
        if constexpr (F >= Fork::spurious_dragon) {  // EIP-161: only value creates accounts
            if (!value.is_zero() && st.is_dead(to)) cost += 25000;
        } else {
            if (!st.exists(to)) cost += 25000;
        }
    }
    if constexpr (F >= Fork::prague) {  // EIP-7702: the delegate's code is read too
        if (const auto target = delegation_target(*st.code(to)))
            cost += evm.access_is_cold(*target) ? 2600 : 100;
    }
    std::int64_t callee = 0;
    if constexpr (F >= Fork::tangerine_whistle) {
        // EIP-150: at most all but one 64th of what is left after the cost.
        if (cost > gas || cost >= kImpossible) {
            CHARGE(cost);  // fails: out of gas
        }
        const std::int64_t left = gas - cost;
        const std::int64_t cap = left - left / 64;
        callee = requested.fits_u64() && requested[0] < static_cast<std::uint64_t>(cap)
                     ? static_cast<std::int64_t>(requested[0])
                     : cap;
    } else {
        // Before EIP-150 the callee gets what was asked for: more than is left is out of gas.
        if (cost > gas || cost >= kImpossible || !requested.fits_u64() ||
            requested[0] > static_cast<std::uint64_t>(gas - cost)) {
            // fails: out of gas (the tracer sees the cost with the gas asked for, capped)
            CHARGE(cost +
                   (requested.fits_u64() && requested[0] <= static_cast<std::uint64_t>(kImpossible)
                        ? static_cast<std::int64_t>(requested[0])
                        : kImpossible));
        }
        callee = static_cast<std::int64_t>(requested[0]);
    }
    CHARGE_PAYABLE(cost + callee);
    if (kind == CallKind::call && msg.is_static && !value.is_zero())
        FAIL(Status::static_mode_violation);
    grow(need);
    sp -= has_value ? 7 : 6;
    Message m;
    m.kind = kind;
    m.depth = msg.depth + 1;
    m.gas = callee + (value.is_zero() ? 0 : 2300);  // the stipend is free
    m.is_static = msg.is_static || kind == CallKind::staticcall;
    m.code_address = to;
    switch (kind) {
        case CallKind::call:
        case CallKind::staticcall:
            m.recipient = to;
            m.sender = self;
            m.value = value;
            break;
        case CallKind::callcode:
            m.recipient = self;
            m.sender = self;
            m.value = value;
            break;
        default:  // delegatecall
            m.recipient = self;
            m.sender = msg.sender;
            m.value = msg.value;
            break;
    }
    if (!in_size.is_zero()) m.input = BytesView(mem.data() + in_offset[0], in_size[0]);
    {
        CallResult r = evm.call(m);
        gas += r.gas_left;
        return_data = std::move(r.output);
        if (!out_size.is_zero()) {
            const std::size_t n = std::min<std::size_t>(out_size[0], return_data.size());
            if (n != 0) std::memcpy(mem.data() + out_offset[0], return_data.data(), n);
        }
        *sp++ = Uint256(r.status == Status::success ? 1 : 0);
    }
    NEXT_BLOCK(1);
}
op_RETURN:
op_REVERT: {
    if (*ip == OP_RETURN) {
        GUARD(OP_RETURN);
    } else {
        GUARD(OP_REVERT);
    }
    const MemoryNeed need = memory_need(mem.size(), sp[-1], sp[-2]);
    CHARGE(need.cost);
    grow(need);
    if (!sp[-2].is_zero())
        result.output.assign(mem.data() + sp[-1][0], mem.data() + sp[-1][0] + sp[-2][0]);
    result.status = *ip == OP_RETURN ? Status::success : Status::revert;
    result.gas_left = gas;
    return result;
}
op_INVALID: {
    GUARD(OP_STOP);
    FAIL(Status::invalid_instruction);
}
op_SELFDESTRUCT: {
    GUARD(OP_SELFDESTRUCT);
    const Address beneficiary = to_address(sp[-1]);
    std::int64_t cost = STATIC(OP_SELFDESTRUCT);
    if constexpr (F >= Fork::berlin) cost += evm.access_is_cold(beneficiary) ? 2600 : 0;
    if constexpr (F >= Fork::spurious_dragon) {
        if (st.is_dead(beneficiary) && !st.balance(self).is_zero()) cost += 25000;
    } else if constexpr (F >= Fork::tangerine_whistle) {
        if (!st.exists(beneficiary)) cost += 25000;
    }
    CHARGE(cost);
    if (msg.is_static) FAIL(Status::static_mode_violation);
    if constexpr (F < Fork::london) {  // EIP-3529 removed the refund
        if (!st.is_destructed(self)) st.add_refund(24000);
    }
    const Uint256 balance = st.balance(self);
    if constexpr (Tracing) tracer->on_selfdestruct(self, beneficiary, balance);
    if constexpr (F >= Fork::cancun) {
        // EIP-6780: only a contract created in this transaction goes; any other just pays out.
        if (st.created_in_transaction(self)) {
            st.add_balance(beneficiary, balance);
            st.sub_balance(self, st.balance(self));
            st.mark_destructed(self);
        } else if (beneficiary != self) {
            st.sub_balance(self, balance);
            st.add_balance(beneficiary, balance);
        } else {
            st.touch(self);
        }
    } else {
        st.add_balance(beneficiary, balance);
        st.sub_balance(self, st.balance(self));  // paid to itself, the balance is burnt
        st.mark_destructed(self);
    }
    result.status = Status::success;
    result.gas_left = gas;
    return result;
}
op_undefined: { FAIL(Status::undefined_instruction); }

fail:
    if constexpr (Tracing) {
        if (traced_ip != ip) TRACE_STEP(T[*ip].defined ? T[*ip].gas : 0);
        tracer->on_step_error(status);
    }
    result.status = status;
    result.gas_left = 0;
    return result;

#undef TRACE
#undef TRACE_STEP
#undef DISPATCH
#undef NEXT
#undef FAIL
#undef GUARD
#undef CHARGE
#undef CHARGE_PAYABLE
#undef STATIC_OP
#undef STATIC
#undef BEGIN_BLOCK
#undef NEXT_BLOCK
#undef BINARY
#undef PUSH_VALUE
}

using InterpreterFn = CallResult (*)(Evm&, const Message&, const CodeAnalysis&);

/// The instances of one tracing choice, indexed by fork.
template <bool Tracing, std::size_t... I>
constexpr std::array<InterpreterFn, sizeof...(I)> make_interpreters(std::index_sequence<I...>) {
    return {{&interpret<static_cast<Fork>(I), Tracing>...}};
}

}  // namespace

/// The untraced and the traced instance for a fork (interpreter_untraced.cpp,
/// interpreter_traced.cpp).
CallResult (*untraced_interpreter(Fork fork) noexcept)(Evm&, const Message&, const CodeAnalysis&);
CallResult (*traced_interpreter(Fork fork) noexcept)(Evm&, const Message&, const CodeAnalysis&);

}  // namespace keel::evm
