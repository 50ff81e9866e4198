#include "keel/evm/opcodes.hpp"

namespace keel::evm {

namespace {

constexpr std::array<std::string_view, 256> make_names() {
    std::array<std::string_view, 256> n{};
    n[0x00] = "STOP", n[0x01] = "ADD", n[0x02] = "MUL", n[0x03] = "SUB", n[0x04] = "DIV";
    n[0x05] = "SDIV", n[0x06] = "MOD", n[0x07] = "SMOD", n[0x08] = "ADDMOD", n[0x09] = "MULMOD";
    n[0x0a] = "EXP", n[0x0b] = "SIGNEXTEND";
    n[0x10] = "LT", n[0x11] = "GT", n[0x12] = "SLT", n[0x13] = "SGT", n[0x14] = "EQ";
    n[0x15] = "ISZERO", n[0x16] = "AND", n[0x17] = "OR", n[0x18] = "XOR", n[0x19] = "NOT";
    n[0x1a] = "BYTE", n[0x1b] = "SHL", n[0x1c] = "SHR", n[0x1d] = "SAR", n[0x1e] = "CLZ";
    n[0x20] = "KECCAK256";
    n[0x30] = "ADDRESS", n[0x31] = "BALANCE", n[0x32] = "ORIGIN", n[0x33] = "CALLER";
    n[0x34] = "CALLVALUE", n[0x35] = "CALLDATALOAD", n[0x36] = "CALLDATASIZE";
    n[0x37] = "CALLDATACOPY", n[0x38] = "CODESIZE", n[0x39] = "CODECOPY", n[0x3a] = "GASPRICE";
    n[0x3b] = "EXTCODESIZE", n[0x3c] = "EXTCODECOPY", n[0x3d] = "RETURNDATASIZE";
    n[0x3e] = "RETURNDATACOPY", n[0x3f] = "EXTCODEHASH";
    n[0x40] = "BLOCKHASH", n[0x41] = "COINBASE", n[0x42] = "TIMESTAMP", n[0x43] = "NUMBER";
    n[0x44] = "PREVRANDAO", n[0x45] = "GASLIMIT", n[0x46] = "CHAINID", n[0x47] = "SELFBALANCE";
    n[0x48] = "BASEFEE", n[0x49] = "BLOBHASH", n[0x4a] = "BLOBBASEFEE";
    n[0x50] = "POP", n[0x51] = "MLOAD", n[0x52] = "MSTORE", n[0x53] = "MSTORE8";
    n[0x54] = "SLOAD", n[0x55] = "SSTORE", n[0x56] = "JUMP", n[0x57] = "JUMPI", n[0x58] = "PC";
    n[0x59] = "MSIZE", n[0x5a] = "GAS", n[0x5b] = "JUMPDEST", n[0x5c] = "TLOAD";
    n[0x5d] = "TSTORE", n[0x5e] = "MCOPY", n[0x5f] = "PUSH0";
    constexpr std::string_view push[] = {
        "PUSH1",  "PUSH2",  "PUSH3",  "PUSH4",  "PUSH5",  "PUSH6",  "PUSH7",  "PUSH8",
        "PUSH9",  "PUSH10", "PUSH11", "PUSH12", "PUSH13", "PUSH14", "PUSH15", "PUSH16",
        "PUSH17", "PUSH18", "PUSH19", "PUSH20", "PUSH21", "PUSH22", "PUSH23", "PUSH24",
        "PUSH25", "PUSH26", "PUSH27", "PUSH28", "PUSH29", "PUSH30", "PUSH31", "PUSH32"};
    constexpr std::string_view dup[] = {"DUP1",  "DUP2",  "DUP3",  "DUP4",  "DUP5",  "DUP6",
                                        "DUP7",  "DUP8",  "DUP9",  "DUP10", "DUP11", "DUP12",
                                        "DUP13", "DUP14", "DUP15", "DUP16"};
    constexpr std::string_view swap[] = {"SWAP1",  "SWAP2",  "SWAP3",  "SWAP4",  "SWAP5",  "SWAP6",
                                         "SWAP7",  "SWAP8",  "SWAP9",  "SWAP10", "SWAP11", "SWAP12",
                                         "SWAP13", "SWAP14", "SWAP15", "SWAP16"};
    for (int i = 0; i < 32; ++i) n[0x60 + i] = push[i];
    for (int i = 0; i < 16; ++i) n[0x80 + i] = dup[i], n[0x90 + i] = swap[i];
    n[0xa0] = "LOG0", n[0xa1] = "LOG1", n[0xa2] = "LOG2", n[0xa3] = "LOG3", n[0xa4] = "LOG4";
    n[0xf0] = "CREATE", n[0xf1] = "CALL", n[0xf2] = "CALLCODE", n[0xf3] = "RETURN";
    n[0xf4] = "DELEGATECALL", n[0xf5] = "CREATE2", n[0xfa] = "STATICCALL", n[0xfd] = "REVERT";
    n[0xfe] = "INVALID", n[0xff] = "SELFDESTRUCT";
    return n;
}

constexpr auto kNames = make_names();

template <std::size_t... I>
constexpr std::array<OpTable, sizeof...(I)> make_tables(std::index_sequence<I...>) {
    return {make_op_table(static_cast<Fork>(I))...};
}

constexpr auto kTables = make_tables(std::make_index_sequence<eth::kForks.size()>{});

}  // namespace

std::string_view name(std::uint8_t op) noexcept {
    return kNames[op];
}

std::string_view name(std::uint8_t op, Fork fork) noexcept {
    if (op == OP_PREVRANDAO && fork < Fork::paris) return "DIFFICULTY";
    return kNames[op];
}

const OpTable& op_table(Fork fork) noexcept {
    return kTables[static_cast<std::size_t>(fork)];
}

}  // namespace keel::evm
