// geth's callTracer, flatCallTracer and prestateTracer on small transactions whose traces are
// worked out by hand; test/spec's evm_tracers_geth runs go-ethereum's own fixtures.
#include "keel/trace/call_tracer.hpp"

#include <nlohmann/json.hpp>

#include <string>

#include <gtest/gtest.h>

#include "keel/eth/transaction.hpp"
#include "keel/evm/transaction.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/state/overlay.hpp"
#include "keel/trace/phrases.hpp"
#include "keel/trace/prestate_tracer.hpp"
#include "keel/trace/tracer_spec.hpp"
#include "keel/trace/tx_selector.hpp"
#include "test/testutil/vectors.hpp"

// (Its own namespace: the unity build puts this file beside tracers_test.cpp.)
namespace keel::trace::call_tracer_test {
namespace {

using nlohmann::json;

Address addr(std::uint8_t last) {
    Address a;
    a[0] = 0xcc;  // not a precompile
    a[19] = last;
    return a;
}

std::string hex_of(const Address& a) {
    std::string s;
    for (std::uint8_t b : a) {
        static constexpr char d[] = "0123456789abcdef";
        s += d[b >> 4];
        s += d[b & 15];
    }
    return s;
}

const Address kSender = addr(0x50);
const Address kCoinbase = addr(0x60);

// B, 0xcc..02: logs, then reverts with Error("no") (100 bytes: the selector, offset 0x20,
// length 2, "no").
std::string reverting_code() {
    return "6000"
           "6000"
           "a0"  // LOG0 of nothing
           "7f08c379a0" +
           std::string(56, '0') +
           "600052"
           "7f00000020" +
           std::string(56, '0') +
           "602052"
           "7f000000026e6f" +
           std::string(52, '0') +
           "604052"
           "6064"
           "6000"
           "fd";
}

// A, 0xcc..01: CALLs B with 0xffff gas and nothing in or out, pops the result, logs, stops.
std::string calling_code() {
    return "6000600060006000600073" + hex_of(addr(2)) +
           "61ffff"
           "f1"
           "50"
           "6000"
           "6000"
           "a0"
           "00";
}

struct Run {
    json result;
    std::uint64_t gas_used = 0;
};

// Executes a legacy transaction from kSender (gas price 1) on `pre` in Cancun with `tracer`.
evm::TxResult execute(state::MemoryState& pre, evm::Tracer& tracer, std::optional<Address> to,
                      const std::string& data, std::uint64_t gas_limit = 200000,
                      eth::Fork fork = eth::Fork::cancun) {
    pre.put(kSender, 0, Uint256(1'000'000'000), {}, {});
    eth::TransactionFields f;
    f.max_fee_per_gas = Uint256(1);
    f.gas_limit = gas_limit;
    f.to = to;
    f.data = testutil::from_hex(data);
    f.v = Uint256(27);
    f.r = Uint256(1);
    f.s = Uint256(1);
    auto tx = eth::decode_transaction(eth::encode(f));
    EXPECT_TRUE(tx.has_value());
    state::Overlay o(pre);
    evm::BlockEnv block;
    block.gas_limit = 30'000'000;
    block.coinbase = kCoinbase;
    auto r = evm::execute_transaction(*tx, kSender, block, o, fork, &tracer);
    EXPECT_TRUE(r.has_value());
    return r ? *r : evm::TxResult{};
}

json call_trace(state::MemoryState& pre, CallTracerOptions options, std::optional<Address> to,
                const std::string& data, std::uint64_t* gas_used = nullptr) {
    CallTracer t(options);
    const evm::TxResult r = execute(pre, t, to, data);
    if (gas_used != nullptr) *gas_used = r.gas_used;
    EXPECT_TRUE(t.complete());
    std::string out;
    keel::json::Writer w(out);
    t.write_call(w);
    return json::parse(out);
}

state::MemoryState calls_then_revert() {
    state::MemoryState pre;
    pre.put(addr(1), 0, Uint256(0), testutil::from_hex(calling_code()), {});
    pre.put(addr(2), 0, Uint256(0), testutil::from_hex(reverting_code()), {});
    return pre;
}

TEST(CallTracer, NestsCallsWithGethsErrorsAndRevertReason) {
    state::MemoryState pre = calls_then_revert();
    std::uint64_t used = 0;
    const json top = call_trace(pre, {}, addr(1), "", &used);
    EXPECT_EQ(top["type"], "CALL");
    EXPECT_EQ(top["from"], "0x" + hex_of(kSender));
    EXPECT_EQ(top["to"], "0x" + hex_of(addr(1)));
    EXPECT_EQ(top["gas"], "0x30d40");  // the transaction's gas limit, 200,000
    EXPECT_EQ(top["gasUsed"], Uint256(used).to_hex());
    EXPECT_EQ(top["value"], "0x0");
    EXPECT_FALSE(top.contains("error"));
    EXPECT_FALSE(top.contains("output"));  // empty output is left out
    EXPECT_FALSE(top.contains("logs"));    // not without withLog
    ASSERT_EQ(top["calls"].size(), 1u);
    const json& inner = top["calls"][0];
    EXPECT_EQ(inner["type"], "CALL");
    EXPECT_EQ(inner["from"], "0x" + hex_of(addr(1)));
    EXPECT_EQ(inner["to"], "0x" + hex_of(addr(2)));
    EXPECT_EQ(inner["gas"], "0xffff");
    EXPECT_EQ(inner["error"], "execution reverted");
    EXPECT_EQ(inner["revertReason"], "no");
    EXPECT_EQ(inner["output"].get<std::string>().size(), 2u + 200u);  // the 100 bytes reverted
    EXPECT_FALSE(inner.contains("calls"));
}

TEST(CallTracer, OnlyTopCallLeavesTheCallsOut) {
    state::MemoryState pre = calls_then_revert();
    const json top = call_trace(pre, {.only_top_call = true, .with_log = true}, addr(1), "");
    EXPECT_FALSE(top.contains("calls"));
    // The top frame's own log is kept; its position counts no calls.
    ASSERT_EQ(top["logs"].size(), 1u);
    EXPECT_EQ(top["logs"][0]["position"], "0x0");
}

TEST(CallTracer, WithLogDropsTheLogsOfAFrameThatReverted) {
    state::MemoryState pre = calls_then_revert();
    const json top = call_trace(pre, {.with_log = true}, addr(1), "");
    ASSERT_EQ(top["logs"].size(), 1u);
    const json& log = top["logs"][0];
    EXPECT_EQ(log["address"], "0x" + hex_of(addr(1)));
    EXPECT_EQ(log["topics"], json::array());
    EXPECT_EQ(log["data"], "0x");
    // B's log was taken back with its revert: A's is the transaction's first (index 0), and it
    // came after A's one call (position 1).
    EXPECT_EQ(log["index"], "0x0");
    EXPECT_EQ(log["position"], "0x1");
    EXPECT_FALSE(top["calls"][0].contains("logs"));
}

TEST(CallTracer, AFailedCreateHasNoTo) {
    state::MemoryState pre;
    const json top = call_trace(pre, {}, std::nullopt, "fe");  // init code: INVALID
    EXPECT_EQ(top["type"], "CREATE");
    EXPECT_EQ(top["error"], "invalid opcode: INVALID");
    EXPECT_FALSE(top.contains("to"));
    EXPECT_EQ(top["input"], "0xfe");
}

TEST(CallTracer, SelfdestructIsAFrameCarryingTheBalance) {
    state::MemoryState pre;
    pre.put(addr(3), 0, Uint256(1000), testutil::from_hex("73" + hex_of(addr(4)) + "ff"), {});
    const json top = call_trace(pre, {}, addr(3), "");
    ASSERT_EQ(top["calls"].size(), 1u);
    const json& sd = top["calls"][0];
    EXPECT_EQ(sd["type"], "SELFDESTRUCT");
    EXPECT_EQ(sd["from"], "0x" + hex_of(addr(3)));
    EXPECT_EQ(sd["to"], "0x" + hex_of(addr(4)));
    EXPECT_EQ(sd["value"], "0x3e8");
    EXPECT_EQ(sd["gas"], "0x0");
    EXPECT_EQ(sd["gasUsed"], "0x0");
    EXPECT_EQ(sd["input"], "0x");
}

TEST(CallTracer, DeepCallTreesAreWrittenWhole) {
    // A contract that calls itself with all its gas until the gas or the depth runs out: hundreds
    // of nested frames (json::Writer once stopped at 64 levels of nesting).
    state::MemoryState pre;
    pre.put(addr(6), 0, Uint256(0), testutil::from_hex("600080808080305af100"), {});
    CallTracer t;
    (void)execute(pre, t, addr(6), "", 10'000'000);
    std::string out;
    keel::json::Writer w(out);
    t.write_call(w);
    json frame = json::parse(out);
    int depth = 0;
    while (frame.contains("calls")) {
        frame = json(frame["calls"][0]);
        ++depth;
    }
    EXPECT_GT(depth, 100);
}

TEST(FlatCallTracer, ParityShapeWithTraceAddressesAndConvertedErrors) {
    state::MemoryState pre = calls_then_revert();
    CallTracer t;
    (void)execute(pre, t, addr(1), "");
    std::string out;
    keel::json::Writer w(out);
    const Hash32 block_hash{};
    t.write_flat(w, {.convert_parity_errors = true},
                 {.block_hash = &block_hash, .block_number = 7, .tx_index = 3});
    const json flat = json::parse(out);
    ASSERT_EQ(flat.size(), 2u);
    EXPECT_EQ(flat[0]["type"], "call");
    EXPECT_EQ(flat[0]["action"]["callType"], "call");
    EXPECT_EQ(flat[0]["subtraces"], 1);
    EXPECT_EQ(flat[0]["traceAddress"], json::array());
    EXPECT_EQ(flat[0]["blockNumber"], 7);
    EXPECT_EQ(flat[0]["transactionPosition"], 3);
    EXPECT_EQ(flat[0]["transactionHash"], nullptr);
    EXPECT_EQ(flat[1]["traceAddress"], json::array({0}));
    EXPECT_EQ(flat[1]["error"], "Reverted");
    // A revert keeps its result (gas used and the output); other failures have none.
    EXPECT_TRUE(flat[1].contains("result"));
    EXPECT_EQ(flat[1]["result"]["output"].get<std::string>().size(), 202u);
}

TEST(FlatCallTracer, CallsOfPrecompilesOnlyWhenAskedFor) {
    // CALL of the identity precompile (0x04), then STOP.
    state::MemoryState pre;
    pre.put(addr(5), 0, Uint256(0),
            testutil::from_hex("600060006000600060006004"
                               "61ffff"
                               "f1"
                               "00"),
            {});
    CallTracer t;
    (void)execute(pre, t, addr(5), "");
    const auto flat_of = [&](bool include) {
        std::string out;
        keel::json::Writer w(out);
        t.write_flat(w, {.include_precompiles = include});
        return json::parse(out);
    };
    EXPECT_EQ(flat_of(false).size(), 1u);
    EXPECT_EQ(flat_of(false)[0]["subtraces"], 0);
    ASSERT_EQ(flat_of(true).size(), 2u);
    EXPECT_EQ(flat_of(true)[1]["action"]["to"], "0x0000000000000000000000000000000000000004");
}

TEST(PrestateTracer, AnInstructionThatRunsOutOfGasLooksNothingUp) {
    // D: BALANCE of X, cold (2,600 gas from Berlin), then STOP; X holds 5 wei.
    state::MemoryState pre;
    pre.put(addr(7), 0, Uint256(0), testutil::from_hex("73" + hex_of(addr(8)) + "3100"), {});
    pre.put(addr(8), 0, Uint256(5), {}, {});
    const auto prestate = [&](std::uint64_t gas_limit) {
        state::MemoryState copy = pre;
        PrestateTracer t;
        (void)execute(copy, t, addr(7), "", gas_limit);
        std::string out;
        keel::json::Writer w(out);
        t.write(w);
        return json::parse(out);
    };
    const json enough = prestate(100000);
    EXPECT_TRUE(enough.contains("0x" + hex_of(addr(8))));
    EXPECT_EQ(enough["0x" + hex_of(addr(8))]["balance"], "0x5");
    const json starved = prestate(21000 + 100);  // PUSH20 leaves 97 gas: BALANCE fails
    EXPECT_FALSE(starved.contains("0x" + hex_of(addr(8))));
    EXPECT_TRUE(starved.contains("0x" + hex_of(kSender)));
}

TEST(PrestateTracer, DiffModeShowsChangedSlotsBeforeAndAfter) {
    // E: SSTORE(1, 7) over a slot holding 3; SSTORE(2, 9) over an empty one.
    state::MemoryState pre;
    const std::pair<Uint256, Uint256> slots[] = {{Uint256(1), Uint256(3)}};
    pre.put(addr(9), 1, Uint256(0),
            testutil::from_hex("6007600155"
                               "6009600255"
                               "00"),
            slots);
    PrestateTracer t({.diff_mode = true});
    (void)execute(pre, t, addr(9), "");
    std::string out;
    keel::json::Writer w(out);
    t.write(w);
    const json d = json::parse(out);
    const std::string e = "0x" + hex_of(addr(9));
    const std::string slot1 = "0x" + std::string(63, '0') + "1";
    const std::string slot2 = "0x" + std::string(63, '0') + "2";
    EXPECT_EQ(d["pre"][e]["storage"], json({{slot1, "0x" + std::string(63, '0') + "3"}}));
    EXPECT_EQ(d["post"][e]["storage"], json({{slot1, "0x" + std::string(63, '0') + "7"},
                                             {slot2, "0x" + std::string(63, '0') + "9"}}));
    EXPECT_EQ(d["pre"][e]["nonce"], 1);
    EXPECT_FALSE(d["post"][e].contains("nonce"));  // unchanged
    // The sender paid for gas and its nonce went up; the coinbase, empty before, is only in post.
    EXPECT_TRUE(d["post"]["0x" + hex_of(kSender)].contains("balance"));
    EXPECT_EQ(d["post"]["0x" + hex_of(kSender)]["nonce"], 1);
    EXPECT_FALSE(d["pre"].contains("0x" + hex_of(kCoinbase)));
    EXPECT_TRUE(d["post"].contains("0x" + hex_of(kCoinbase)));
}

TEST(FourByteTracer, CountsSelectorsAndArgumentSizes) {
    state::MemoryState pre = calls_then_revert();
    FourByteTracer t;
    (void)execute(pre, t, addr(1), "deadbeef00");  // A's own call; A calls B with no input
    std::string out;
    keel::json::Writer w(out);
    t.write(w);
    EXPECT_EQ(json::parse(out), json({{"0xdeadbeef-1", 1}}));
}

TEST(TracerSpec, NamesAndConfigsAsDebugTraceTakesThem) {
    EXPECT_EQ(parse_tracer_spec("callTracer", R"({"onlyTopCall":true})")->call.only_top_call, true);
    EXPECT_EQ(parse_tracer_spec("structLog", "")->kind, TracerKind::struct_log);
    EXPECT_EQ(parse_tracer_spec("structLog", R"({"limit":5})")->struct_log.limit, 5u);
    EXPECT_EQ(parse_tracer_spec("fooTracer", "").error().rfind("unknown tracer fooTracer", 0), 0u);
    EXPECT_EQ(parse_tracer_spec("callTracer", R"({"withLogs":true})").error(),
              "callTracer: withLogs is not an option");
    EXPECT_EQ(parse_tracer_spec("callTracer", R"({"withLog":1})").error(),
              "callTracer: withLog: not true or false");
    EXPECT_EQ(
        parse_tracer_spec("prestateTracer", R"({"diffMode":true,"includeEmpty":true})").error(),
        "prestateTracer: diffMode cannot be used with includeEmpty");
    EXPECT_EQ(parse_tracer_spec("callTracer", "{").error(), "tracerConfig is not JSON");
    EXPECT_EQ(parse_tracer_spec("noopTracer", R"({"x":1})").error(),
              "noopTracer: x is not an option");
    EXPECT_EQ(parse_tracer_spec("muxTracer", R"({"structLog":{}})").error(),
              "muxTracer: structLog is not one of its tracers (geth's either)");
    EXPECT_EQ(parse_tracer_spec("muxTracer", R"({"callTracer":{"x":true}})").error(),
              "muxTracer: callTracer: x is not an option");
    auto mux = parse_tracer_spec("muxTracer", R"({"prestateTracer":{},"callTracer":{}})");
    ASSERT_TRUE(mux.has_value());
    ASSERT_EQ(mux->mux.size(), 2u);
    EXPECT_EQ(mux->mux[0].name, "callTracer");  // in name order, as geth writes the result
}

TEST(TracerSpec, MuxTracerResultHoldsEachTracersResult) {
    state::MemoryState pre = calls_then_revert();
    auto spec =
        parse_tracer_spec("muxTracer", R"({"callTracer":{"onlyTopCall":true},"4byteTracer":{}})");
    ASSERT_TRUE(spec.has_value());
    TxTracer tracer(*spec, eth::Fork::cancun);
    std::string out;
    evm::Tracer* t = tracer.begin(out, 0);
    ASSERT_NE(t, nullptr);
    // Runs the transaction with the fan-out, then ends it as TxSelector would.
    struct End final : evm::Tracer {
        evm::Tracer* inner;
        std::function<void(const evm::TxEndView&)> done;
        void on_tx_start(const evm::TxStartView& v) override { inner->on_tx_start(v); }
        void on_tx_end(const evm::TxEndView& v) override {
            inner->on_tx_end(v);
            done(v);
        }
        void on_call_start(const evm::Message& m) override { inner->on_call_start(m); }
        void on_call_end(const evm::Message& m, const evm::CallResult& r) override {
            inner->on_call_end(m, r);
        }
        void on_step(const evm::StepView& s) override { inner->on_step(s); }
    } end;
    end.inner = t;
    end.done = [&](const evm::TxEndView& v) { tracer.end(out, v, {}); };
    (void)execute(pre, end, addr(1), "deadbeef");
    const json r = json::parse(out);
    EXPECT_EQ(r["4byteTracer"], json({{"0xdeadbeef-0", 1}}));
    EXPECT_EQ(r["callTracer"]["type"], "CALL");
    EXPECT_FALSE(r["callTracer"].contains("calls"));  // onlyTopCall
}

// A transaction traced through TxSelector with a time limit, as write_debug_traces does.
struct TimedRun {
    std::string out;
    bool timed_out = false;
    bool cut_back = false;  // end_timed_out took the partial result back out of `out`
    std::string drained;
    std::uint64_t gas_used = 0;
};
TimedRun timed_trace(state::MemoryState& pre, const std::string& name,
                     std::chrono::nanoseconds limit, std::uint64_t gas = 200000) {
    auto spec = parse_tracer_spec(name, "");
    EXPECT_TRUE(spec.has_value());
    TimedRun run;
    TxTracer tracer(*spec, eth::Fork::cancun);
    tracer.set_drain(1024, [&](std::string& bytes) {
        run.drained += bytes;
        bytes.clear();
    });
    std::optional<TxSelector> selector;
    selector.emplace([&](std::size_t, std::uint64_t) { return tracer.begin(run.out, 0); },
                     [&](std::size_t, const evm::TxEndView& tx) {
                         run.timed_out = selector->timed_out();
                         run.gas_used = tx.gas_used;
                         if (!run.timed_out)
                             tracer.end(run.out, tx, {});
                         else
                             run.cut_back = !tracer.end_timed_out(run.out, 0, tx);
                     });
    selector->set_timeout(limit);
    (void)execute(pre, *selector, addr(1), "", gas);
    return run;
}

TEST(TxSelector, ATimeoutOfZeroStopsTheTracerAtTheFirstFrame) {
    state::MemoryState pre = calls_then_revert();
    const TimedRun run = timed_trace(pre, "callTracer", std::chrono::nanoseconds{0});
    EXPECT_TRUE(run.timed_out);
    EXPECT_TRUE(run.cut_back);
    EXPECT_EQ(run.out, "");           // the caller writes "execution timeout" in its place
    EXPECT_GT(run.gas_used, 21000u);  // the transaction itself ran to its end
}

TEST(TxSelector, AGenerousTimeoutChangesNothing) {
    state::MemoryState pre = calls_then_revert();
    const TimedRun run = timed_trace(pre, "callTracer", std::chrono::hours{1});
    EXPECT_FALSE(run.timed_out);
    const json r = json::parse(run.out);
    EXPECT_EQ(r["calls"][0]["error"], "execution reverted");
}

TEST(TxSelector, AStreamedStructLogCutShortEndsWithTheError) {
    // JUMPDEST PUSH1 0 JUMP for ever: 10 M gas makes 2.5 M steps, far more than a struct logger
    // writes in 1 ms, so the limit is reached whatever the machine's load.
    state::MemoryState pre;
    pre.put(addr(1), 0, Uint256(0), testutil::from_hex("5b600056"), {});
    const std::uint64_t gas = 10'000'000;
    const TimedRun run = timed_trace(pre, "structLog", std::chrono::milliseconds{1}, gas);
    EXPECT_TRUE(run.timed_out);
    EXPECT_FALSE(run.cut_back);    // part of it had left through the drain
    EXPECT_EQ(run.gas_used, gas);  // the loop ran out of gas, untraced after the limit
    const json r = json::parse(run.drained + run.out);
    EXPECT_EQ(r["error"], std::string(kTimeoutError));
    EXPECT_EQ(r["failed"], true);
    EXPECT_GT(r["structLogs"].size(), 0u);
    EXPECT_LT(r["structLogs"].size(), 2'500'000u);
}

// A tracer that asks for the steps of some opcodes only (Tracer::step_ops) gets those, and the
// failing instruction's whatever its opcode, before on_step_error.
TEST(StepOps, OnlyTheOpcodesAskedForAndTheFailingOne) {
    struct Counting final : evm::Tracer {
        std::array<bool, 256> ops{};
        std::vector<std::uint8_t> seen;
        std::vector<evm::Status> errors;
        const std::array<bool, 256>* step_ops() const override { return &ops; }
        void on_step(const evm::StepView& s) override { seen.push_back(s.op); }
        void on_step_error(evm::Status st) override { errors.push_back(st); }
    } t;
    t.ops[0x01] = true;  // ADD
    state::MemoryState pre;
    // PUSH1 1 PUSH1 2 ADD PUSH1 3 MUL PUSH1 4 ADD POP MUL (stack underflow)
    pre.put(addr(1), 0, Uint256(0), testutil::from_hex("60016002016003026004015002"), {});
    (void)execute(pre, t, addr(1), "");
    EXPECT_EQ(t.seen, (std::vector<std::uint8_t>{0x01, 0x01, 0x02}));
    EXPECT_EQ(t.errors, std::vector<evm::Status>{evm::Status::stack_underflow});
}

TEST(TracerSpec, GethsJavaScriptTracersByNameWithoutOptions) {
    for (const char* name : {"callTracerLegacy", "prestateTracerLegacy"}) {
        auto spec = parse_tracer_spec(name, "{}");
        ASSERT_TRUE(spec.has_value()) << name;
        TxTracer tracer(*spec, eth::Fork::cancun);
        std::string out;
        EXPECT_NE(tracer.begin(out, 0), nullptr);
    }
    EXPECT_EQ(parse_tracer_spec("callTracerLegacy", R"({"onlyTopCall":true})").error(),
              "callTracerLegacy: onlyTopCall is not an option");
}

TEST(Phrases, RevertReasonsAsGethDecodesThem) {
    const auto hex = [](const std::string& h) { return testutil::from_hex(h); };
    const std::string word0 = std::string(64, '0');
    // Error("no")
    EXPECT_EQ(revert_reason(hex("08c379a0" + word0.substr(2) + "20" + word0.substr(1) + "2" +
                                "6e6f" + word0.substr(4))),
              "no");
    // Panic(0x11), Panic(0x99)
    EXPECT_EQ(revert_reason(hex("4e487b71" + word0.substr(2) + "11")),
              "arithmetic underflow or overflow");
    EXPECT_EQ(revert_reason(hex("4e487b71" + word0.substr(2) + "99")), "unknown panic code: 0x99");
    // An offset past the data, a length past it, a short word, another selector: none.
    EXPECT_EQ(revert_reason(hex("08c379a0" + word0.substr(2) + "40" + word0.substr(1) + "2")),
              std::nullopt);
    EXPECT_EQ(revert_reason(hex("08c379a0" + word0.substr(2) + "20" + word0.substr(2) + "ff")),
              std::nullopt);
    EXPECT_EQ(revert_reason(hex("4e487b71" + word0.substr(4))), std::nullopt);
    EXPECT_EQ(revert_reason(hex("deadbeef" + word0)), std::nullopt);
    EXPECT_EQ(revert_reason(hex("08c379")), std::nullopt);
    // Invalid UTF-8 comes out as U+FFFD, as Go's JSON writes it.
    EXPECT_EQ(revert_reason(hex("08c379a0" + word0.substr(2) + "20" + word0.substr(1) + "1" + "ff" +
                                word0.substr(2))),
              "\xef\xbf\xbd");
}

TEST(Phrases, PrecompileFailures) {
    EXPECT_EQ(precompile_failure_phrase(0x09, Bytes(212)), "invalid input length");
    EXPECT_EQ(precompile_failure_phrase(0x09, Bytes(213)), "invalid final flag");
    EXPECT_EQ(precompile_failure_phrase(0x08, Bytes(100)), "bad elliptic curve pairing size");
    EXPECT_EQ(precompile_failure_phrase(0x0a, Bytes(10)), "invalid input length");
    EXPECT_EQ(precompile_failure_phrase(0x06, Bytes(10)), "precompile failed");
}

}  // namespace
}  // namespace keel::trace::call_tracer_test
