// The EIP-3155 tracer on small programs whose lines are worked out by hand; test/spec's
// evm_trace compares whole traces with geth's and evmone's.
#include "keel/trace/eip3155.hpp"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "keel/evm/evm.hpp"
#include "keel/state/memory_state.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::trace {
namespace {

using eth::Fork;

Address addr(std::uint8_t last) {
    Address a;
    a[0] = 0xcc;  // not a precompile
    a[19] = last;
    return a;
}

// Runs `code` at 0x..01, called by 0x..02 with `gas`, traced; returns the trace's lines.
std::vector<std::string> trace_of(const std::string& code, Fork fork = Fork::cancun,
                                  std::int64_t gas = 100000, Eip3155Options options = {}) {
    state::MemoryState pre;
    pre.put(addr(1), 0, Uint256(1000), testutil::from_hex(code), {});
    state::Overlay o(pre);
    evm::BlockEnv block;
    evm::TxEnv tx;
    std::FILE* f = std::tmpfile();
    EXPECT_NE(f, nullptr);
    {
        Eip3155 tracer(f, fork, options);
        evm::Evm vm(o, block, tx, fork, &tracer);
        evm::Message msg;
        msg.gas = gas;
        msg.recipient = msg.code_address = addr(1);
        msg.sender = addr(2);
        (void)vm.call(msg);
    }
    std::rewind(f);
    std::string text;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

TEST(Eip3155, OneLinePerStepThenTheFrameEnd) {
    // PUSH1 2 PUSH1 3 ADD, then the implicit STOP at the end of the code.
    const auto lines = trace_of("6002600301");
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[0], R"({"pc":0,"op":96,"gas":"0x186a0","gasCost":"0x3","memSize":0,"stack":[],)"
                        R"("depth":1,"refund":0,"opName":"PUSH1"})");
    EXPECT_EQ(lines[2], R"({"pc":4,"op":1,"gas":"0x1869a","gasCost":"0x3","memSize":0,)"
                        R"("stack":["0x2","0x3"],"depth":1,"refund":0,"opName":"ADD"})");
    EXPECT_EQ(lines[3],
              R"({"pc":5,"op":0,"gas":"0x18697","gasCost":"0x0","memSize":0,"stack":["0x5"],)"
              R"("depth":1,"refund":0,"opName":"STOP"})");
    EXPECT_EQ(lines[4], R"({"output":"","gasUsed":"0x9"})");
}

TEST(Eip3155, TheFailingStepCarriesTheError) {
    // PUSH1 4 JUMP: 4 is no JUMPDEST.
    const auto lines = trace_of("600456");
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[1],
              R"({"pc":2,"op":86,"gas":"0x1869d","gasCost":"0x8","memSize":0,"stack":["0x4"],)"
              R"("depth":1,"refund":0,"opName":"JUMP","error":"invalid jump destination"})");
    EXPECT_EQ(lines[2], R"({"output":"","gasUsed":"0x186a0","error":"invalid jump destination"})");
}

TEST(Eip3155, StackUnderflowNamesBothCountsAsGethDoes) {
    const auto lines = trace_of("600101");  // PUSH1 1 ADD
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_NE(lines[1].find(R"j("opName":"ADD","error":"stack underflow (1 <=> 2)"})j"),
              std::string::npos)
        << lines[1];
}

TEST(Eip3155, NestedFramesEndWithTheirOwnLine) {
    // STATICCALL(gas 0xffff, identity 0x04, in 0..0, out 0..0), POP: the precompile's frame
    // prints no steps but its end line (gas used 15, IDENTITY's base price).
    const auto lines = trace_of("6000600060006000600461fffffa50");
    ASSERT_EQ(lines.size(), 11u);  // 7 steps, the precompile's end, POP, STOP, the end
    EXPECT_NE(lines[6].find(R"("opName":"STATICCALL")"), std::string::npos);
    EXPECT_EQ(lines[7], R"({"output":"","gasUsed":"0xf"})");
    EXPECT_NE(lines[8].find(R"("stack":["0x1"])"), std::string::npos) << lines[8];
}

TEST(Eip3155, UndefinedOpcodeAndDifficultyNames) {
    const auto undefined = trace_of("0c");
    EXPECT_NE(undefined[0].find(R"("opName":"opcode 0xc not defined",)"
                                R"("error":"invalid opcode: opcode 0xc not defined"})"),
              std::string::npos)
        << undefined[0];
    EXPECT_NE(trace_of("44", Fork::london)[0].find(R"("opName":"DIFFICULTY")"), std::string::npos);
    EXPECT_NE(trace_of("44", Fork::paris)[0].find(R"("opName":"PREVRANDAO")"), std::string::npos);
}

TEST(Eip3155, MemoryOnRequest) {
    // PUSH1 0xff PUSH1 0 MSTORE8, STOP: the STOP line shows one word of memory.
    const auto lines = trace_of("60ff600053", Fork::cancun, 100000, {.memory = true});
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_NE(lines[3].find(R"("memory":"0xff)" + std::string(62, '0') + R"(","memSize":32,)"),
              std::string::npos)
        << lines[3];
    EXPECT_EQ(trace_of("60ff600053")[3].find("memory\""), std::string::npos);
}

}  // namespace
}  // namespace keel::trace
