// The interpreter on small programs whose results and gas are worked out by hand from the yellow
// paper's prices; the official state tests (test/spec) check every fork's rules at scale.
#include <gtest/gtest.h>

#include "keel/evm/evm.hpp"
#include "keel/state/memory_state.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::evm {
namespace {

using eth::Fork;

Address addr(std::uint8_t last) {
    Address a;
    a[0] = 0xcc;
    a[19] = last;
    return a;
}

struct Outcome {
    CallResult result;
    std::int64_t gas_used;
};

Outcome run_code(const std::string& hex, Fork fork = Fork::cancun, std::int64_t gas = 100000,
                 state::MemoryState* pre = nullptr, Tracer* tracer = nullptr) {
    state::MemoryState empty;
    state::MemoryState& m = pre != nullptr ? *pre : empty;
    m.put(addr(1), 0, Uint256(1000), testutil::from_hex(hex), {});
    state::Overlay o(m);
    BlockEnv block;
    TxEnv tx;
    Evm evm(o, block, tx, fork, tracer);
    Message msg;
    msg.gas = gas;
    msg.recipient = msg.code_address = addr(1);
    msg.sender = addr(2);
    Outcome r{evm.call(msg), 0};
    r.gas_used = gas - r.result.gas_left;
    return r;
}

TEST(Interpreter, AddStoreReturn) {
    // PUSH1 2 PUSH1 3 ADD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const Outcome r = run_code("600260030160005260206000f3");
    ASSERT_EQ(r.result.status, Status::success);
    ASSERT_EQ(r.result.output.size(), 32u);
    EXPECT_EQ(r.result.output[31], 5);
    // 3+3+3+3 + MSTORE 3 + memory 3 (one word) + 3+3 + RETURN 0
    EXPECT_EQ(r.gas_used, 24);
}

TEST(Interpreter, ExceptionalHaltsUseAllGas) {
    EXPECT_EQ(run_code("01").result.status, Status::stack_underflow);  // ADD on an empty stack
    EXPECT_EQ(run_code("01").gas_used, 100000);
    EXPECT_EQ(run_code("600456").result.status, Status::bad_jump_destination);  // JUMP to 4
    EXPECT_EQ(run_code("fe").result.status, Status::invalid_instruction);
    EXPECT_EQ(run_code("0c").result.status, Status::undefined_instruction);
    // PUSH0 arrived in Shanghai.
    EXPECT_EQ(run_code("5f00", Fork::paris).result.status, Status::undefined_instruction);
    EXPECT_EQ(run_code("5f00", Fork::shanghai).result.status, Status::success);
    // Out of gas: an MSTORE far out.
    EXPECT_EQ(run_code("60016401000000005200").result.status, Status::out_of_gas);
}

TEST(Interpreter, JumpOverPushDataIsRefused) {
    // PUSH1 3 JUMP, then PUSH1 0x5b: the 0x5b at 3 is push data, not a JUMPDEST.
    EXPECT_EQ(run_code("600356605b00").result.status, Status::bad_jump_destination);
    // PUSH1 4 JUMP INVALID JUMPDEST STOP
    const Outcome ok = run_code("600456fe5b00");
    EXPECT_EQ(ok.result.status, Status::success);
    EXPECT_EQ(ok.gas_used, 3 + 8 + 1);
}

TEST(Interpreter, RevertKeepsGasAndOutput) {
    // PUSH1 0xaa PUSH1 0 MSTORE8 PUSH1 1 PUSH1 0 REVERT
    const Outcome r = run_code("60aa60005360016000fd");
    EXPECT_EQ(r.result.status, Status::revert);
    EXPECT_EQ(r.result.output, Bytes{0xaa});
    EXPECT_EQ(r.gas_used, 3 + 3 + 3 + 3 + 3 + 3);
}

TEST(Interpreter, SstoreColdSetCostsAndPersists) {
    // PUSH1 1 PUSH1 0 SSTORE STOP under Cancun: cold slot 2100 + set 20000.
    state::MemoryState m;
    const Outcome r = run_code("6001600055", Fork::cancun, 100000, &m);
    EXPECT_EQ(r.result.status, Status::success);
    EXPECT_EQ(r.gas_used, 3 + 3 + 22100);
}

TEST(Interpreter, CallToIdentityPrecompileCopiesTheInput) {
    // MSTORE8(0, 0x42); CALL(gas=1000, to=4, value=0, in=0..1, out=32..33); RETURN 32..33
    // 6042 6000 53 | 6001 6020 6001 6000 6000 6004 6103e8 f1 | 6001 6020 f3
    const Outcome r = run_code(
        "604260005360016020600160006000600461"
        "03e8f160016020f3",
        Fork::cancun);
    ASSERT_EQ(r.result.status, Status::success);
    EXPECT_EQ(r.result.output, Bytes{0x42});
}

TEST(Interpreter, CreateDeploysTheReturnedCode) {
    // Init code 0x6001600053 60016000f3 returns the single byte 0x01; CREATE(0, 0, len) it.
    // PUSH10 <init> PUSH1 0 MSTORE PUSH1 10 PUSH1 22 PUSH1 0 CREATE PUSH1 0 MSTORE PUSH1 32 PUSH1 0
    // RETURN
    const Outcome r = run_code(
        "6960016000536001600"
        "0f3600052600a6016600"
        "0f060005260206000f3",
        Fork::cancun, 1000000);
    ASSERT_EQ(r.result.status, Status::success) << describe(r.result.status);
    ASSERT_EQ(r.result.output.size(), 32u);
    // The new address is keccak(rlp([addr(1), 0]))[12:]; only check it is non-zero here.
    EXPECT_NE(Bytes(r.result.output.begin() + 12, r.result.output.end()), Bytes(20, 0));
}

TEST(Interpreter, BlockChargingAgreesWithPerInstructionCharging) {
    // The untraced interpreter charges constant gas per basic block, the traced one (any tracer)
    // per instruction (analysis.hpp). Programs whose results read the gas: the values below are
    // worked out per instruction.
    Tracer silent;
    // PUSH1 0 POP GAS | PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: GAS sees 100000 - 3 - 2 - 2.
    const std::string gas_in_block = "6000505a60005260206000f3";
    // PUSH1 1 PUSH1 6 JUMPI | INVALID | JUMPDEST GAS ...: the jump's block, then GAS in the next.
    const std::string gas_after_jump = "6001600657fe5b5a60005260206000f3";
    for (const std::string& code : {gas_in_block, gas_after_jump}) {
        SCOPED_TRACE(code);
        const Outcome plain = run_code(code);
        const Outcome traced = run_code(code, Fork::cancun, 100000, nullptr, &silent);
        ASSERT_EQ(plain.result.status, Status::success);
        EXPECT_EQ(plain.result.output, traced.result.output);
        EXPECT_EQ(plain.gas_used, traced.gas_used);
    }
    EXPECT_EQ(run_code(gas_in_block).result.output.back(), (100000 - 7) & 0xff);
    EXPECT_EQ(run_code(gas_after_jump).result.output.back(), (100000 - 3 - 3 - 10 - 1 - 2) & 0xff);
    // Out of gas inside a block: all gas gone either way, and the same halt named.
    // PUSH1 1 PUSH1 2 ADD POP STOP with 8 gas: the POP is not paid.
    const Outcome a = run_code(
        "600160020150"
        "00",
        Fork::cancun, 8);
    const Outcome b = run_code(
        "600160020150"
        "00",
        Fork::cancun, 8, nullptr, &silent);
    EXPECT_EQ(a.result.status, Status::out_of_gas);
    EXPECT_EQ(b.result.status, Status::out_of_gas);
    EXPECT_EQ(a.gas_used, 8);
    // A stack underflow at the block's second instruction: named as such.
    EXPECT_EQ(run_code("60010150").result.status, Status::stack_underflow);
}

}  // namespace
}  // namespace keel::evm
