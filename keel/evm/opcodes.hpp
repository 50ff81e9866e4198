#pragma once
/// EVM opcodes: their numbers, names, and per fork whether they exist, their constant gas and
/// their stack shape (yellow paper appendix H; the EIPs that changed them are named below).
///
/// Constant gas is the part of an instruction's cost that does not depend on its operands;
/// memory expansion, copy words, cold accesses (EIP-2929), value transfers and the like are the
/// interpreter's dynamic part. For EIP-2929's accessors (BALANCE, EXT*, SLOAD, CALL*) the
/// constant part from Berlin on is the warm price; the interpreter adds the cold surcharge.

#include <array>
#include <cstdint>
#include <string_view>

#include "keel/eth/fork.hpp"

namespace keel::evm {

using eth::Fork;

enum Opcode : std::uint8_t {
    OP_STOP = 0x00,
    OP_ADD = 0x01,
    OP_MUL = 0x02,
    OP_SUB = 0x03,
    OP_DIV = 0x04,
    OP_SDIV = 0x05,
    OP_MOD = 0x06,
    OP_SMOD = 0x07,
    OP_ADDMOD = 0x08,
    OP_MULMOD = 0x09,
    OP_EXP = 0x0a,
    OP_SIGNEXTEND = 0x0b,
    OP_LT = 0x10,
    OP_GT = 0x11,
    OP_SLT = 0x12,
    OP_SGT = 0x13,
    OP_EQ = 0x14,
    OP_ISZERO = 0x15,
    OP_AND = 0x16,
    OP_OR = 0x17,
    OP_XOR = 0x18,
    OP_NOT = 0x19,
    OP_BYTE = 0x1a,
    OP_SHL = 0x1b,
    OP_SHR = 0x1c,
    OP_SAR = 0x1d,
    OP_CLZ = 0x1e,
    OP_KECCAK256 = 0x20,
    OP_ADDRESS = 0x30,
    OP_BALANCE = 0x31,
    OP_ORIGIN = 0x32,
    OP_CALLER = 0x33,
    OP_CALLVALUE = 0x34,
    OP_CALLDATALOAD = 0x35,
    OP_CALLDATASIZE = 0x36,
    OP_CALLDATACOPY = 0x37,
    OP_CODESIZE = 0x38,
    OP_CODECOPY = 0x39,
    OP_GASPRICE = 0x3a,
    OP_EXTCODESIZE = 0x3b,
    OP_EXTCODECOPY = 0x3c,
    OP_RETURNDATASIZE = 0x3d,
    OP_RETURNDATACOPY = 0x3e,
    OP_EXTCODEHASH = 0x3f,
    OP_BLOCKHASH = 0x40,
    OP_COINBASE = 0x41,
    OP_TIMESTAMP = 0x42,
    OP_NUMBER = 0x43,
    OP_PREVRANDAO = 0x44,
    OP_GASLIMIT = 0x45,
    OP_CHAINID = 0x46,
    OP_SELFBALANCE = 0x47,
    OP_BASEFEE = 0x48,
    OP_BLOBHASH = 0x49,
    OP_BLOBBASEFEE = 0x4a,
    OP_POP = 0x50,
    OP_MLOAD = 0x51,
    OP_MSTORE = 0x52,
    OP_MSTORE8 = 0x53,
    OP_SLOAD = 0x54,
    OP_SSTORE = 0x55,
    OP_JUMP = 0x56,
    OP_JUMPI = 0x57,
    OP_PC = 0x58,
    OP_MSIZE = 0x59,
    OP_GAS = 0x5a,
    OP_JUMPDEST = 0x5b,
    OP_TLOAD = 0x5c,
    OP_TSTORE = 0x5d,
    OP_MCOPY = 0x5e,
    OP_PUSH0 = 0x5f,
    OP_PUSH1 = 0x60,
    OP_PUSH32 = 0x7f,
    OP_DUP1 = 0x80,
    OP_DUP16 = 0x8f,
    OP_SWAP1 = 0x90,
    OP_SWAP16 = 0x9f,
    OP_LOG0 = 0xa0,
    OP_LOG4 = 0xa4,
    OP_CREATE = 0xf0,
    OP_CALL = 0xf1,
    OP_CALLCODE = 0xf2,
    OP_RETURN = 0xf3,
    OP_DELEGATECALL = 0xf4,
    OP_CREATE2 = 0xf5,
    OP_STATICCALL = 0xfa,
    OP_REVERT = 0xfd,
    OP_INVALID = 0xfe,
    OP_SELFDESTRUCT = 0xff,
};

/// The mnemonic of `op` ("ADD", "PUSH1", "PREVRANDAO" for 0x44 ...), or "" where no fork
/// defines one. Names are the ones EIP-3155 traces print (0x20 is "KECCAK256", 0x44 is
/// "DIFFICULTY" before Paris: see name(op, fork)).
std::string_view name(std::uint8_t op) noexcept;
/// As name(op), with the fork's name where it differs (0x44: "DIFFICULTY" before Paris).
std::string_view name(std::uint8_t op, Fork fork) noexcept;

/// One instruction's traits in one fork.
struct OpTraits {
    std::int16_t gas = 0;          ///< constant gas; meaningless when !defined
    std::int8_t stack_in = 0;      ///< items it needs on the stack
    std::int8_t stack_change = 0;  ///< items it adds (negative: removes)
    bool defined = false;          ///< the fork has this instruction
};

using OpTable = std::array<OpTraits, 256>;

/// The traits of every opcode in `fork`, built at compile time (the interpreter's template per
/// fork uses it as a constant).
constexpr OpTable make_op_table(Fork fork) noexcept {
    OpTable t{};
    const auto def = [&t](std::uint8_t op, int gas, int in, int out) {
        t[op] = OpTraits{static_cast<std::int16_t>(gas), static_cast<std::int8_t>(in),
                         static_cast<std::int8_t>(out - in), true};
    };
    const bool tw = fork >= Fork::tangerine_whistle;  // EIP-150 repricing
    const bool istanbul = fork >= Fork::istanbul;     // EIP-1884
    const bool berlin = fork >= Fork::berlin;         // EIP-2929: warm prices here
    // 0x00s: arithmetic
    def(OP_STOP, 0, 0, 0);
    def(OP_ADD, 3, 2, 1);
    def(OP_MUL, 5, 2, 1);
    def(OP_SUB, 3, 2, 1);
    def(OP_DIV, 5, 2, 1);
    def(OP_SDIV, 5, 2, 1);
    def(OP_MOD, 5, 2, 1);
    def(OP_SMOD, 5, 2, 1);
    def(OP_ADDMOD, 8, 3, 1);
    def(OP_MULMOD, 8, 3, 1);
    def(OP_EXP, 10, 2, 1);
    def(OP_SIGNEXTEND, 5, 2, 1);
    // 0x10s: comparison and bits
    for (std::uint8_t op = OP_LT; op <= OP_XOR; ++op) def(op, 3, 2, 1);
    def(OP_ISZERO, 3, 1, 1);
    def(OP_NOT, 3, 1, 1);
    def(OP_BYTE, 3, 2, 1);
    if (fork >= Fork::constantinople) {  // EIP-145
        def(OP_SHL, 3, 2, 1);
        def(OP_SHR, 3, 2, 1);
        def(OP_SAR, 3, 2, 1);
    }
    if (fork >= Fork::osaka) def(OP_CLZ, 5, 1, 1);  // EIP-7939
    def(OP_KECCAK256, 30, 2, 1);
    // 0x30s: the environment
    def(OP_ADDRESS, 2, 0, 1);
    def(OP_BALANCE, berlin ? 100 : istanbul ? 700 : tw ? 400 : 20, 1, 1);
    def(OP_ORIGIN, 2, 0, 1);
    def(OP_CALLER, 2, 0, 1);
    def(OP_CALLVALUE, 2, 0, 1);
    def(OP_CALLDATALOAD, 3, 1, 1);
    def(OP_CALLDATASIZE, 2, 0, 1);
    def(OP_CALLDATACOPY, 3, 3, 0);
    def(OP_CODESIZE, 2, 0, 1);
    def(OP_CODECOPY, 3, 3, 0);
    def(OP_GASPRICE, 2, 0, 1);
    def(OP_EXTCODESIZE, berlin ? 100 : tw ? 700 : 20, 1, 1);
    def(OP_EXTCODECOPY, berlin ? 100 : tw ? 700 : 20, 4, 0);
    if (fork >= Fork::byzantium) {  // EIP-211
        def(OP_RETURNDATASIZE, 2, 0, 1);
        def(OP_RETURNDATACOPY, 3, 3, 0);
    }
    if (fork >= Fork::constantinople)  // EIP-1052
        def(OP_EXTCODEHASH, berlin ? 100 : istanbul ? 700 : 400, 1, 1);
    // 0x40s: the block
    def(OP_BLOCKHASH, 20, 1, 1);
    def(OP_COINBASE, 2, 0, 1);
    def(OP_TIMESTAMP, 2, 0, 1);
    def(OP_NUMBER, 2, 0, 1);
    def(OP_PREVRANDAO, 2, 0, 1);
    def(OP_GASLIMIT, 2, 0, 1);
    if (istanbul) {
        def(OP_CHAINID, 2, 0, 1);      // EIP-1344
        def(OP_SELFBALANCE, 5, 0, 1);  // EIP-1884
    }
    if (fork >= Fork::london) def(OP_BASEFEE, 2, 0, 1);  // EIP-3198
    if (fork >= Fork::cancun) {
        def(OP_BLOBHASH, 3, 1, 1);     // EIP-4844
        def(OP_BLOBBASEFEE, 2, 0, 1);  // EIP-7516
    }
    // 0x50s: stack, memory, storage, flow
    def(OP_POP, 2, 1, 0);
    def(OP_MLOAD, 3, 1, 1);
    def(OP_MSTORE, 3, 2, 0);
    def(OP_MSTORE8, 3, 2, 0);
    def(OP_SLOAD, berlin ? 100 : istanbul ? 800 : tw ? 200 : 50, 1, 1);
    def(OP_SSTORE, 0, 2, 0);
    def(OP_JUMP, 8, 1, 0);
    def(OP_JUMPI, 10, 2, 0);
    def(OP_PC, 2, 0, 1);
    def(OP_MSIZE, 2, 0, 1);
    def(OP_GAS, 2, 0, 1);
    def(OP_JUMPDEST, 1, 0, 0);
    if (fork >= Fork::cancun) {
        def(OP_TLOAD, 100, 1, 1);   // EIP-1153
        def(OP_TSTORE, 100, 2, 0);  // EIP-1153
        def(OP_MCOPY, 3, 3, 0);     // EIP-5656
    }
    if (fork >= Fork::shanghai) def(OP_PUSH0, 2, 0, 1);  // EIP-3855
    for (int i = 0; i < 32; ++i) def(static_cast<std::uint8_t>(OP_PUSH1 + i), 3, 0, 1);
    for (int i = 0; i < 16; ++i) {
        def(static_cast<std::uint8_t>(OP_DUP1 + i), 3, i + 1, i + 2);
        def(static_cast<std::uint8_t>(OP_SWAP1 + i), 3, i + 2, i + 2);
    }
    for (int i = 0; i <= 4; ++i)
        def(static_cast<std::uint8_t>(OP_LOG0 + i), 375 * (i + 1), i + 2, 0);
    // 0xf0s: calls and creation
    const int call = berlin ? 100 : tw ? 700 : 40;
    def(OP_CREATE, 32000, 3, 1);
    def(OP_CALL, call, 7, 1);
    def(OP_CALLCODE, call, 7, 1);
    def(OP_RETURN, 0, 2, 0);
    if (fork >= Fork::homestead) def(OP_DELEGATECALL, call, 6, 1);   // EIP-7
    if (fork >= Fork::constantinople) def(OP_CREATE2, 32000, 4, 1);  // EIP-1014
    if (fork >= Fork::byzantium) {
        def(OP_STATICCALL, call, 6, 1);  // EIP-214
        def(OP_REVERT, 0, 2, 0);         // EIP-140
    }
    def(OP_SELFDESTRUCT, tw ? 5000 : 0, 1, 0);
    return t;
}

/// make_op_table(fork), computed once per fork.
const OpTable& op_table(Fork fork) noexcept;

}  // namespace keel::evm
