// The tracers on small programs whose output is worked out by hand; test/spec's evm_trace
// compares whole EIP-3155 traces with geth's and evmone's.
#include <nlohmann/json.hpp>

#include "keel/trace/eip3155.hpp"
#include "keel/trace/struct_logger.hpp"

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

// Runs `code` at 0xcc..01, called by 0xcc..02 with `gas`, with `tracer`.
evm::CallResult run_traced(const std::string& code, Fork fork, std::int64_t gas,
                           evm::Tracer& tracer) {
    state::MemoryState pre;
    pre.put(addr(1), 0, Uint256(1000), testutil::from_hex(code), {});
    state::Overlay o(pre);
    evm::BlockEnv block;
    evm::TxEnv tx;
    evm::Evm vm(o, block, tx, fork, &tracer);
    evm::Message msg;
    msg.gas = gas;
    msg.recipient = msg.code_address = addr(1);
    msg.sender = addr(2);
    return vm.call(msg);
}

// The EIP-3155 lines of running `code`.
std::vector<std::string> trace_of(const std::string& code, Fork fork = Fork::cancun,
                                  std::int64_t gas = 100000, Eip3155Options options = {}) {
    std::FILE* f = std::tmpfile();
    EXPECT_NE(f, nullptr);
    {
        Eip3155 tracer(f, fork, options);
        (void)run_traced(code, fork, gas, tracer);
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

// The struct logger's result object for running `code` (gas used as the frame's, no refunds).
nlohmann::json struct_log_of(const std::string& code, StructLoggerOptions options = {},
                             Fork fork = Fork::cancun, std::int64_t gas = 100000) {
    std::string out = "prefix:";  // the logger appends to what the buffer holds
    StructLogger logger(out, fork, options);
    const evm::CallResult r = run_traced(code, fork, gas, logger);
    logger.finish(static_cast<std::uint64_t>(gas - r.gas_left), r.status != evm::Status::success,
                  r.output);
    EXPECT_EQ(out.rfind("prefix:", 0), 0u);
    return nlohmann::json::parse(out.substr(7));
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

TEST(StructLogger, StepsAndTheResult) {
    // PUSH1 2 PUSH1 3 ADD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    const auto j = struct_log_of("600260030160005260206000f3");
    ASSERT_EQ(j.at("structLogs").size(), 8u);
    EXPECT_EQ(j.at("structLogs")[2],
              nlohmann::json::parse(R"({"pc":4,"op":"ADD","gas":99994,"gasCost":3,"depth":1,)"
                                    R"("refund":0,"stack":["0x2","0x3"]})"));
    // MSTORE: 3 and one word of memory.
    EXPECT_EQ(j.at("structLogs")[4].at("gasCost"), 6);
    EXPECT_EQ(j.at("gas"), 24);
    EXPECT_EQ(j.at("failed"), false);
    EXPECT_EQ(j.at("returnValue"), "0x" + std::string(63, '0') + "5");
}

TEST(StructLogger, StructLogsComeFirstInTheText) {
    std::string out;
    StructLogger logger(out, Fork::cancun);
    (void)run_traced("00", Fork::cancun, 100, logger);
    logger.finish(21000, false, {});
    EXPECT_EQ(out,
              R"({"structLogs":[{"pc":0,"op":"STOP","gas":100,"gasCost":0,"depth":1,"refund":0,)"
              R"("stack":[]}],"gas":21000,"failed":false,"returnValue":"0x"})");
}

TEST(StructLogger, StorageAtSloadAndSstoreOnly) {
    // SSTORE(1, 7), SLOAD(2), SSTORE(1, 0): each SLOAD/SSTORE step shows every slot so far.
    const auto j = struct_log_of("6007600155600254506000600155");
    const auto& logs = j.at("structLogs");
    const std::string k1 = "0x" + std::string(63, '0') + "1";
    const std::string k2 = "0x" + std::string(63, '0') + "2";
    const std::string v0 = "0x" + std::string(64, '0');
    const std::string v7 = "0x" + std::string(63, '0') + "7";
    std::vector<nlohmann::json> storage;
    for (const auto& s : logs) {
        const bool access = s.at("op") == "SLOAD" || s.at("op") == "SSTORE";
        EXPECT_EQ(s.contains("storage"), access) << s.dump();
        if (access) storage.push_back(s.at("storage"));
    }
    ASSERT_EQ(storage.size(), 3u);
    EXPECT_EQ(storage[0], (nlohmann::json{{k1, v7}}));
    EXPECT_EQ(storage[1], (nlohmann::json{{k1, v7}, {k2, v0}}));
    EXPECT_EQ(storage[2], (nlohmann::json{{k1, v0}, {k2, v0}}));
    // SSTORE's refund shows on its own line (here: 20000 - 100 back for restoring the original).
    EXPECT_EQ(logs[logs.size() - 2].at("refund"), 19900) << logs[logs.size() - 2].dump();
    const auto off = struct_log_of("6007600155600254506000600155", {.disable_storage = true});
    for (const auto& s : off.at("structLogs")) EXPECT_FALSE(s.contains("storage"));
}

TEST(StructLogger, StorageTextFollowsEveryChange) {
    // SLOAD(1) twice, SSTORE(1, 9), SLOAD(1), SSTORE(1, 9) (no change), SSTORE(3, 0), SLOAD(1):
    // the logger reuses a contract's storage text until a slot is added or changes.
    const auto j = struct_log_of("600154506001545060096001556001545060096001556000600355600154");
    const std::string k1 = "0x" + std::string(63, '0') + "1";
    const std::string k3 = "0x" + std::string(63, '0') + "3";
    const std::string v0 = "0x" + std::string(64, '0');
    const std::string v9 = "0x" + std::string(63, '0') + "9";
    std::vector<nlohmann::json> storage;
    for (const auto& s : j.at("structLogs"))
        if (s.contains("storage")) storage.push_back(s.at("storage"));
    ASSERT_EQ(storage.size(), 7u);
    EXPECT_EQ(storage[0], (nlohmann::json{{k1, v0}}));
    EXPECT_EQ(storage[1], (nlohmann::json{{k1, v0}}));
    EXPECT_EQ(storage[2], (nlohmann::json{{k1, v9}}));
    EXPECT_EQ(storage[3], (nlohmann::json{{k1, v9}}));
    EXPECT_EQ(storage[4], (nlohmann::json{{k1, v9}}));
    EXPECT_EQ(storage[5], (nlohmann::json{{k1, v9}, {k3, v0}}));
    EXPECT_EQ(storage[6], (nlohmann::json{{k1, v9}, {k3, v0}}));
}

TEST(StructLogger, StackWordsOfEveryLength) {
    // PUSHn of values 1..32 bytes long with a leading nibble of 1 or 0xf: each is shown in
    // minimal hex on the next step's stack.
    std::string code;
    std::vector<std::string> want;
    for (int n = 1; n <= 32; ++n) {
        for (const char lead : {'1', 'f'}) {
            std::string digits = std::string(1, lead) + std::string(2 * n - 1, '0');
            for (int i = 1; i < 2 * n; i += 3) digits[static_cast<std::size_t>(i)] = "a7c"[i % 3];
            const int op = 0x5f + n;  // PUSHn
            code += std::string(1, "0123456789abcdef"[op >> 4]) + "0123456789abcdef"[op & 15] +
                    digits + "50";  // PUSHn value, POP
            want.push_back("0x" + digits);
        }
    }
    const auto j = struct_log_of(code, {}, Fork::cancun, 1000000);
    std::size_t k = 0;
    for (const auto& s : j.at("structLogs")) {
        if (s.at("op") != "POP") continue;
        ASSERT_LT(k, want.size());
        ASSERT_EQ(s.at("stack").size(), 1u);
        EXPECT_EQ(s.at("stack")[0], want[k]) << k;
        ++k;
    }
    EXPECT_EQ(k, want.size());
}

TEST(StructLogger, MemoryWordsReturnDataAndNoStack) {
    // PUSH1 0xff PUSH1 33 MSTORE8: memory grows to two words.
    const auto j = struct_log_of(
        "60ff602153", {.disable_stack = true, .enable_memory = true, .enable_return_data = true});
    const auto& last = j.at("structLogs").back();  // the implicit STOP
    EXPECT_FALSE(last.contains("stack"));
    EXPECT_EQ(last.at("memory"),
              (nlohmann::json{"0x" + std::string(64, '0'), "0x00ff" + std::string(60, '0')}));
    EXPECT_EQ(last.at("returnData"), "0x");
    EXPECT_FALSE(struct_log_of("60ff602153").at("structLogs").back().contains("memory"));
}

TEST(StructLogger, ErrorOnTheFailingStepAndLimit) {
    const auto j = struct_log_of("600456");  // PUSH1 4 JUMP: no JUMPDEST there
    ASSERT_EQ(j.at("structLogs").size(), 2u);
    EXPECT_FALSE(j.at("structLogs")[0].contains("error"));
    EXPECT_EQ(j.at("structLogs")[1].at("error"), "invalid jump destination");
    EXPECT_EQ(j.at("failed"), true);
    // limit: two steps recorded, execution goes on (the result is the whole run's).
    const auto limited = struct_log_of("600260030160005260206000f3", {.limit = 2});
    EXPECT_EQ(limited.at("structLogs").size(), 2u);
    EXPECT_EQ(limited.at("gas"), 24);
}

TEST(StructLogger, DrainKeepsTheBufferBoundedAndTheTextWhole) {
    // Twenty PUSH1/ADD pairs: the same text whether drained every 64 bytes or kept whole.
    std::string code;
    for (int i = 0; i < 20; ++i) code += "600101";
    code = "6000" + code;
    const auto run = [&](bool drain, std::size_t* largest) {
        std::string out, collected;
        StructLogger logger(out, Fork::cancun);
        if (drain)
            logger.set_drain(64, [&](std::string& buf) {
                if (largest) *largest = std::max(*largest, buf.size());
                collected += buf;
                buf.clear();
            });
        const evm::CallResult r = run_traced(code, Fork::cancun, 100000, logger);
        logger.finish(static_cast<std::uint64_t>(100000 - r.gas_left), false, r.output);
        return collected + out;
    };
    std::size_t largest = 0;
    const std::string whole = run(false, nullptr);
    const std::string drained = run(true, &largest);
    EXPECT_EQ(drained, whole);
    EXPECT_GT(largest, 0u);
    EXPECT_LT(largest, 64u + 200u);  // the threshold plus at most one step's text
    EXPECT_EQ(nlohmann::json::parse(whole).at("structLogs").size(), 42u);
}

}  // namespace
}  // namespace keel::trace
