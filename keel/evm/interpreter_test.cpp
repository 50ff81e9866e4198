// The interpreter on small programs whose results and gas are worked out by hand from the yellow
// paper's prices; the official state tests (test/spec) check every fork's rules at scale.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "keel/common/native_stack.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/transaction.hpp"
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

TEST(Interpreter, PastItsDeadlineAFrameFailsAtItsStart) {
    // The identity call of the test above, under a block whose time limit is far ahead, then
    // one already past: the transaction's own frame fails before any code, with all its gas.
    const std::string code = "60426000536001602060016000600060046103e8f160016020f3";
    for (const bool past : {false, true}) {
        SCOPED_TRACE(past);
        state::MemoryState m;
        m.put(addr(1), 0, Uint256(1000), testutil::from_hex(code), {});
        state::Overlay o(m);
        BlockEnv block;
        const auto now = std::chrono::steady_clock::now();
        block.deadline = past ? now - std::chrono::seconds(1) : now + std::chrono::hours(1);
        TxEnv tx;
        Evm evm(o, block, tx, Fork::cancun, nullptr);
        Message msg;
        msg.gas = 100000;
        msg.recipient = msg.code_address = addr(1);
        msg.sender = addr(2);
        const CallResult r = evm.call(msg);
        EXPECT_EQ(r.status, past ? Status::out_of_gas : Status::success);
        EXPECT_EQ(r.gas_left == 0, past);
        EXPECT_EQ(r.output, past ? Bytes{} : Bytes{0x42});
    }
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

// Memory and copies beyond what keel lets a frame have (kMaxMemory, 2^32 - 32 bytes) are out of
// gas for every gas amount a frame can hold, before anything is grown or written: with more gas
// than the internal "impossible" cost (about 2^61) the write used to land outside the frame's
// memory, and at 2^62 RETURN of 2^256 - 1 bytes threw from std::vector.
TEST(Interpreter, HugeMemoryIsOutOfGasWhateverTheGas) {
    const std::string kP32 = "640100000000";                                 // PUSH5 2^32
    const std::string kP64 = "67ffffffffffffffff";                           // PUSH8 2^64 - 1
    const std::string kMax = "7f" + std::string(64, 'f');                    // PUSH32 2^256 - 1
    const std::string kAddr = "73cc00000000000000000000000000000000000001";  // PUSH20 addr(1)
    struct Case {
        const char* what;
        std::string code;
        Fork fork;
    };
    const std::vector<Case> cases = {
        {"MSTORE at 2^32", "6001" + kP32 + "5200", Fork::cancun},
        {"MSTORE8 at 2^32", "6001" + kP32 + "5300", Fork::cancun},
        {"MLOAD at 2^32", kP32 + "5100", Fork::cancun},
        {"MSTORE at 2^256-1", "6001" + kMax + "5200", Fork::cancun},
        {"KECCAK256 of 2^64-1 bytes",
         kP64 + "600020"
                "00",
         Fork::cancun},
        {"KECCAK256 at 2^32",
         "6001" + kP32 +
             "20"
             "00",
         Fork::cancun},
        {"CALLDATACOPY of 2^32 bytes",
         kP32 + "6000600037"
                "00",
         Fork::cancun},
        {"CALLDATACOPY to 2^32",
         "60016000" + kP32 +
             "37"
             "00",
         Fork::cancun},
        {"CODECOPY of 2^256-1 bytes",
         kMax + "6000600039"
                "00",
         Fork::cancun},
        {"EXTCODECOPY to 2^32",
         "60016000" + kP32 + kAddr +
             "3c"
             "00",
         Fork::cancun},
        {"RETURNDATACOPY to 2^32",
         "60016000" + kP32 +
             "3e"
             "00",
         Fork::cancun},
        {"MCOPY to 2^32",
         "60016000" + kP32 +
             "5e"
             "00",
         Fork::cancun},
        {"MCOPY from 2^32",
         "6001" + kP32 +
             "60005e"
             "00",
         Fork::cancun},
        {"LOG0 of 2^64-1 bytes",
         kP64 + "6000a0"
                "00",
         Fork::cancun},
        {"LOG2 at 2^32",
         "600060006001" + kP32 +
             "a2"
             "00",
         Fork::cancun},
        {"CREATE of 2^32 bytes",
         kP32 + "60006000f0"
                "00",
         Fork::cancun},
        {"CREATE of 2^32 bytes, London",
         kP32 + "60006000f0"
                "00",
         Fork::london},
        {"CREATE2 of 2^256-1 bytes",
         "6000" + kMax +
             "60006000f5"
             "00",
         Fork::cancun},
        {"CALL with input at 2^32",
         "600060006001" + kP32 + "6000" + kAddr +
             "6000f1"
             "00",
         Fork::cancun},
        {"CALL with output at 2^32",
         "6001" + kP32 + "600060006000" + kAddr +
             "6000f1"
             "00",
         Fork::cancun},
        {"STATICCALL with output of 2^256-1",
         kMax + "600060006000" + kAddr +
             "6000fa"
             "00",
         Fork::cancun},
        {"CALL asking 2^256-1 gas, Frontier",
         "60006000600060006000" + kAddr + kMax +
             "f1"
             "00",
         Fork::frontier},
        {"RETURN of 2^256-1 bytes", kMax + "5ff3", Fork::cancun},
        {"RETURN at 2^32", "6001" + kP32 + "f3", Fork::cancun},
        {"REVERT of 2^64-1 bytes", kP64 + "6000fd", Fork::cancun},
    };
    const std::int64_t gases[] = {100000, std::int64_t{1} << 61, (std::int64_t{1} << 61) + 8,
                                  std::int64_t{1} << 62, std::numeric_limits<std::int64_t>::max()};
    Tracer silent;
    for (const Case& c : cases) {
        for (const std::int64_t gas : gases) {
            for (Tracer* tracer : {static_cast<Tracer*>(nullptr), &silent}) {
                SCOPED_TRACE(std::string(c.what) + ", gas " + std::to_string(gas) +
                             (tracer ? ", traced" : ""));
                const Outcome r = run_code(c.code, c.fork, gas, nullptr, tracer);
                EXPECT_EQ(r.result.status, Status::out_of_gas) << describe(r.result.status);
                EXPECT_EQ(r.result.gas_left, 0);
                EXPECT_TRUE(r.result.output.empty());
            }
        }
    }
}

// With plenty of gas the same programs at sizes within the limit still run: the limit is on the
// size, not on the gas.
TEST(Interpreter, HugeGasStillPaysForOrdinaryMemory) {
    // PUSH1 1 PUSH2 0x1000 MSTORE GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const std::int64_t gas = std::numeric_limits<std::int64_t>::max();
    const Outcome r = run_code(
        "600161100052"
        "5a60005260206000f3",
        Fork::cancun, gas);
    ASSERT_EQ(r.result.status, Status::success) << describe(r.result.status);
    // Memory to 0x1020: 129 words, 3 * 129 + 129^2 / 512 = 419; then 3+3+3+2 before GAS.
    const std::int64_t seen = gas - 3 - 3 - 3 - 419 - 2;
    std::uint64_t word = 0;
    for (int i = 24; i < 32; ++i) word = word << 8 | r.result.output[static_cast<std::size_t>(i)];
    EXPECT_EQ(word, static_cast<std::uint64_t>(seen));
    // CALL(2^62 gas, an account without code, no value, no memory) under Frontier, where the
    // callee gets what is asked for: 2^62 of 2^63 - 1 is there to give.
    const Outcome call = run_code(
        "6000600060006000600073cc0000000000000000000000000000000000000367"
        "4000000000000000f100",
        Fork::frontier, gas);
    EXPECT_EQ(call.result.status, Status::success) << describe(call.result.status);
}

// A transaction's gas limit may be up to 2^64 - 1 where the block allows it; a frame holds at most
// 2^63 - 1, the rest comes back unused unless the frame halts exceptionally, which takes it all.
// The frame's gas used to wrap to a negative amount: any code at all ran out of gas at once.
TEST(Interpreter, TransactionGasLimitAbove63Bits) {
    // GAS PUSH1 0 SSTORE: stores what GAS saw; and an MSTORE far out.
    for (const std::string& code : {std::string("5a600055"), std::string("6001640100000000"
                                                                         "5200")}) {
        SCOPED_TRACE(code);
        state::MemoryState m;
        m.put(addr(1), 1, Uint256{}, testutil::from_hex(code), {});
        m.put(addr(2), 0, Uint256::max(), Bytes{}, {});
        state::Overlay o(m);
        BlockEnv block;
        block.gas_limit = std::numeric_limits<std::uint64_t>::max();
        eth::TransactionFields f;
        f.gas_limit = std::numeric_limits<std::uint64_t>::max();
        f.to = addr(1);
        f.v = 27;
        f.r = 1;
        f.s = 1;
        const auto tx = eth::decode_transaction(eth::encode(f));
        ASSERT_TRUE(tx.has_value());
        const auto r = execute_transaction(*tx, addr(2), block, o, Fork::london);
        ASSERT_TRUE(r.has_value()) << to_string(r.error());
        if (code.starts_with("5a")) {
            EXPECT_EQ(r->status, Status::success) << describe(r->status);
            // intrinsic 21000, GAS 2, PUSH1 3, a cold set 22100
            EXPECT_EQ(r->gas_used, 21000u + 2 + 3 + 22100);
            const auto changes = o.changes();
            bool stored = false;
            for (const auto& c : changes)
                for (const auto& [k, v] : c.storage)
                    if (c.address == addr(1) && k.is_zero())
                        stored = v == Uint256(static_cast<std::uint64_t>(
                                          std::numeric_limits<std::int64_t>::max() - 2));
            EXPECT_TRUE(stored);
        } else {
            EXPECT_EQ(r->status, Status::out_of_gas);
            EXPECT_EQ(r->gas_used, std::numeric_limits<std::uint64_t>::max());
        }
    }
}

// 1,025 nested frames (depths 0 to 1,024; the call from depth 1,024 fails) from a thread whose
// stack holds 256 KB, far less than 1,025 interpreter frames take in any build: the frames that
// do not fit continue on fresh stacks (Evm::interpret) instead of overflowing this one. Each
// frame adds one to slot 0 of the contract and calls the contract again with all its gas.
TEST(Interpreter, FullCallDepthFromASmallThreadStack) {
    struct Run {
        Uint256 count;
        Status status = Status::invalid_instruction;
    } run;
    native_stack::run_on_fresh_stack(
        std::size_t{256} << 10,
        [](void* p) {
            auto& out = *static_cast<Run*>(p);
            state::MemoryState m;
            // PUSH0 SLOAD PUSH1 1 ADD PUSH0 SSTORE, then CALL(GAS, ADDRESS, 0, 0, 0, 0, 0) STOP
            m.put(addr(1), 0, Uint256(0), testutil::from_hex("5f546001015f555f5f5f5f5f305af100"),
                  {});
            state::Overlay o(m);
            BlockEnv block;
            TxEnv tx;
            Evm evm(o, block, tx, Fork::cancun);
            Message msg;
            msg.gas = 1'000'000'000'000;
            msg.recipient = msg.code_address = addr(1);
            msg.sender = addr(2);
            out.status = evm.call(msg).status;
            out.count = o.storage(addr(1), Uint256(0));
        },
        &run);
    EXPECT_EQ(run.status, Status::success) << describe(run.status);
    EXPECT_EQ(run.count, Uint256(1025));
}

}  // namespace
}  // namespace keel::evm
