// Code analysis: jump destinations and basic blocks with their entry costs, worked out by hand
// from the opcode table; the exact walk that names a failing block's first failure.
#include "keel/evm/analysis.hpp"

#include <gtest/gtest.h>

#include <string>

#include "keel/evm/opcodes.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::evm {
namespace {

using eth::Fork;

CodeAnalysis of(const std::string& hex, Fork fork = Fork::cancun) {
    return analyze(testutil::from_hex(hex), fork);
}

void expect_block(const CodeAnalysis& a, std::size_t pc, int gas, int min_height, int max_grow) {
    SCOPED_TRACE("block at pc " + std::to_string(pc));
    EXPECT_EQ(a.blocks.at(pc).gas, gas);
    EXPECT_EQ(a.blocks.at(pc).min_height, 32 * min_height);  // in bytes of stack
    EXPECT_EQ(a.blocks.at(pc).height_range, 32 * (1024 - max_grow - min_height));
}

TEST(Analysis, OneBlockToReturn) {
    // PUSH1 2 PUSH1 3 ADD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: 7 x 3 gas, RETURN 0; the
    // stack peaks at 2 items.
    const CodeAnalysis a = of("600260030160005260206000f3");
    EXPECT_EQ(a.blocks.size(), a.size + 1);
    expect_block(a, 0, 21, 0, 2);
}

TEST(Analysis, AJumpdestIsAnEntryInsideItsBlock) {
    // PUSH1 1 JUMPDEST POP STOP: falling through, the JUMPDEST is paid with the block from pc 0;
    // a jump to it enters there and pays from it on, needing the item the POP takes.
    const CodeAnalysis a = of("60015b5000");
    expect_block(a, 0, 3 + 1 + 2, 0, 1);
    expect_block(a, 2, 1 + 2, 1, 0);
    EXPECT_TRUE(a.is_jumpdest(2));
    EXPECT_FALSE(a.is_jumpdest(1));
    // PUSH1 0x5b POP: the 0x5b is data: one block, no destination.
    const CodeAnalysis b = of("605b50");
    expect_block(b, 0, 3 + 2, 0, 1);
    EXPECT_FALSE(b.is_jumpdest(1));
}

TEST(Analysis, BlocksEndAtJumpsAndAtWhatReadsGas) {
    // PUSH1 1 PUSH1 0 JUMPI | POP STOP
    const CodeAnalysis a =
        of("600160005750"
           "00");
    expect_block(a, 0, 3 + 3 + 10, 0, 2);
    expect_block(a, 5, 2, 1, 0);
    // Entered after an instruction that ends the code: nothing to pay, any height.
    expect_block(of("5a"), 1, 0, 0, 0);
    // GAS | POP | ... : GAS ends its block so that it reads what per-instruction charging leaves.
    const CodeAnalysis g = of("5a5000");
    expect_block(g, 0, 2, 0, 1);
    expect_block(g, 1, 2, 1, 0);
    // SSTORE (EIP-2200's sentry reads the gas) and CALL end blocks too.
    const CodeAnalysis s =
        of("6001600055"
           "600000");
    expect_block(s, 0, 3 + 3 + 0, 0, 2);
    expect_block(s, 5, 3, 0, 1);
}

TEST(Analysis, CostsFollowTheFork) {
    // PUSH1 0 SLOAD: 50 in Frontier, 200 from Tangerine Whistle, 800 in Istanbul, 100 (warm) from
    // Berlin, whose cold surcharge the instruction adds itself.
    EXPECT_EQ(of("600054", Fork::frontier).blocks[0].gas, 3 + 50);
    EXPECT_EQ(of("600054", Fork::tangerine_whistle).blocks[0].gas, 3 + 200);
    EXPECT_EQ(of("600054", Fork::istanbul).blocks[0].gas, 3 + 800);
    EXPECT_EQ(of("600054", Fork::berlin).blocks[0].gas, 3 + 100);
    // PUSH1 1 PUSH0: PUSH0 is undefined before Shanghai and halts the block there.
    expect_block(of("60015f", Fork::paris), 0, 3, 0, 1);
    expect_block(of("60015f", Fork::shanghai), 0, 5, 0, 2);
}

TEST(Analysis, ImpossibleHeightsTakeTheExactWalk) {
    // 1,025 PUSH0s: no stack can enter this block without overflowing.
    std::string pushes;
    for (int i = 0; i < 1025; ++i) pushes += "5f";
    const CodeAnalysis a = of(pushes);
    EXPECT_EQ(a.blocks[0].min_height, BlockCost::kNoHeight);
    EXPECT_EQ(enter_block_exactly(a, 0, 0, 1'000'000).status, Status::stack_overflow);
    // 1,025 POPs: none can enter without underflowing.
    std::string pops;
    for (int i = 0; i < 1025; ++i) pops += "50";
    const CodeAnalysis p = of(pops);
    EXPECT_EQ(p.blocks[0].min_height, BlockCost::kNoHeight);
    EXPECT_EQ(enter_block_exactly(p, 0, 1024, 1'000'000).status, Status::stack_underflow);
}

TEST(Analysis, ExactWalkNamesTheFirstFailure) {
    // POP POP STOP
    const CodeAnalysis a = of("505000");
    EXPECT_EQ(enter_block_exactly(a, 0, 1, 100).status, Status::stack_underflow);
    // 3 gas: the first POP is paid, the second is not.
    EXPECT_EQ(enter_block_exactly(a, 0, 2, 3).status, Status::out_of_gas);
    // 1 gas: out of gas at the first POP, before the second one's underflow.
    EXPECT_EQ(enter_block_exactly(a, 0, 1, 1).status, Status::out_of_gas);
    const BlockEntry ok = enter_block_exactly(a, 0, 2, 10);
    EXPECT_EQ(ok.status, Status::success);
    EXPECT_EQ(ok.gas_left, 6);
    // It walks through a JUMPDEST and stops at the block's end: PUSH1 0 JUMPDEST JUMP | POP
    const CodeAnalysis j = of("60005b5650");
    const BlockEntry j_ok = enter_block_exactly(j, 0, 0, 12);
    EXPECT_EQ(j_ok.status, Status::success);
    EXPECT_EQ(j_ok.gas_left, 0);
}

TEST(Analysis, CacheReanalyzesForAnotherFork) {
    AnalysisCache cache;
    const Bytes code = testutil::from_hex("600054");
    Hash32 h;
    h[0] = 1;
    EXPECT_EQ(cache.get(h, code, Fork::istanbul)->blocks[0].gas, 3 + 800);
    EXPECT_EQ(cache.get(h, code, Fork::berlin)->blocks[0].gas, 3 + 100);
    EXPECT_EQ(cache.size(), 1u);
}

}  // namespace
}  // namespace keel::evm
