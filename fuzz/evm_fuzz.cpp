// The interpreter on arbitrary bytecode. The first byte picks the fork, the rest is the code of
// a contract called with 200,000 gas (the code also reads itself as call data).
// A first byte of 0xe0 or more picks the huge-gas mode instead (below, huge_gas_run): one
// memory instruction whose operands the input chooses, either small or beyond what a frame's
// memory may be, run with gas from 2^61 to 2^63 - 1 (a frame with more gas than the internal
// "impossible" cost used to pay it and write outside its memory).
// Properties:
//   - no input crashes, overflows the stack array or reads out of bounds (ASan/UBSan);
//   - gas left is within [0, gas given]; an exceptional halt leaves none and no output;
//   - a failed call leaves no change in the state (the journal restored everything);
//   - the traced interpreter (with an EIP-3155 tracer writing to /dev/null) gives the same
//     status, gas left, output and state changes as the untraced one: the hooks observe, they
//     never steer. (The untraced one checks and charges per basic block, the traced one per
//     instruction: when a block fails both a constant check and a dynamic one, the two may name
//     different exceptional halts, which end the frame alike; keel/evm/analysis.hpp);
//   - the struct logger, every option on (memory, return data), a small drain and the first 64
//     steps (memory on every step would make a long program's trace gigabytes), writes one whole
//     JSON document whose structLogs count its steps, whatever the program;
//   - run as a transaction, with geth's call, prestate, 4byte and erc7562 tracers (a muxTracer)
//     and Parity's trace, vmTrace and stateDiff at once, it does what it does untraced, and each
//     result is one whole JSON document.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

#include "keel/eth/fork.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/evm/evm.hpp"
#include "keel/evm/transaction.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/trace/eip3155.hpp"
#include "keel/trace/parity_tracer.hpp"
#include "keel/trace/struct_logger.hpp"
#include "keel/trace/tracer_spec.hpp"

namespace {

using namespace keel;

void check(bool ok) {
    if (!ok) std::abort();
}

struct Run {
    evm::CallResult result;
    std::vector<state::AccountChange> changes;
};

Run run(const state::MemoryState& pre, eth::Fork fork, BytesView input, evm::Tracer* tracer) {
    state::Overlay o(pre);
    evm::BlockEnv block;
    block.number = 20'000'000;
    block.gas_limit = 30'000'000;
    evm::TxEnv tx;
    Address caller;
    caller[19] = 0xca;
    tx.origin = caller;
    evm::Evm vm(o, block, tx, fork, tracer);
    evm::Message msg;
    msg.gas = 200'000;
    msg.recipient = msg.code_address = Address{};
    msg.recipient[0] = msg.code_address[0] = 0xc0;
    msg.sender = caller;
    msg.value = Uint256(1);
    msg.input = input;
    Run r{vm.call(msg), {}};
    r.changes = o.changes();
    return r;
}

bool same(std::vector<state::AccountChange> a, std::vector<state::AccountChange> b) {
    if (a.size() != b.size()) return false;
    const auto by_address = [](const auto& x, const auto& y) { return x.address < y.address; };
    std::sort(a.begin(), a.end(), by_address);
    std::sort(b.begin(), b.end(), by_address);
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto& x = a[i];
        const auto& y = b[i];
        if (x.address != y.address || x.account != y.account ||
            x.storage_cleared != y.storage_cleared || x.storage != y.storage ||
            (x.code == nullptr) != (y.code == nullptr) || (x.code && *x.code != *y.code))
            return false;
    }
    return true;
}

/// The huge-gas mode: data[1] picks the gas, data[2] the instruction, then each operand is a
/// selector byte and up to eight bytes. An operand is small (under 2^16) or impossible as a
/// memory offset or size (above 2^32 - 32), never a size in between that a frame could pay for
/// (a 4 GiB memory is legal with this much gas, and too much for a fuzzer). Properties: no
/// crash; the traced and untraced runs agree; gas left within [0, gas]; and a memory region of
/// a non-zero size past 2^32 - 32 is out of gas with nothing left, whatever the gas.
void huge_gas_run(const std::uint8_t* data, std::size_t size) {
    struct Op {
        std::uint8_t code;
        std::uint8_t args;
        // memory regions as (offset argument, size argument), 0xff: none; a size argument of
        // 0x80 + n is the constant n
        std::uint8_t regions[2][2];
    };
    constexpr std::uint8_t kNone = 0xff;
    constexpr Op kOps[] = {
        {0x52, 2, {{0, 0x80 + 32}, {kNone, kNone}}},  // MSTORE
        {0x53, 2, {{0, 0x80 + 1}, {kNone, kNone}}},   // MSTORE8
        {0x51, 1, {{0, 0x80 + 32}, {kNone, kNone}}},  // MLOAD
        {0x20, 2, {{0, 1}, {kNone, kNone}}},          // KECCAK256
        {0x37, 3, {{0, 2}, {kNone, kNone}}},          // CALLDATACOPY
        {0x39, 3, {{0, 2}, {kNone, kNone}}},          // CODECOPY
        {0x3c, 4, {{1, 3}, {kNone, kNone}}},          // EXTCODECOPY
        {0x3e, 3, {{0, 2}, {kNone, kNone}}},          // RETURNDATACOPY
        {0x5e, 3, {{0, 2}, {1, 2}}},                  // MCOPY
        {0xa0, 2, {{0, 1}, {kNone, kNone}}},          // LOG0
        {0xa2, 4, {{0, 1}, {kNone, kNone}}},          // LOG2
        {0xf0, 3, {{1, 2}, {kNone, kNone}}},          // CREATE
        {0xf5, 4, {{1, 2}, {kNone, kNone}}},          // CREATE2
        {0xf1, 7, {{3, 4}, {5, 6}}},                  // CALL
        {0xf2, 7, {{3, 4}, {5, 6}}},                  // CALLCODE
        {0xf4, 6, {{2, 3}, {4, 5}}},                  // DELEGATECALL
        {0xfa, 6, {{2, 3}, {4, 5}}},                  // STATICCALL
        {0xf3, 2, {{0, 1}, {kNone, kNone}}},          // RETURN
        {0xfd, 2, {{0, 1}, {kNone, kNone}}},          // REVERT
    };
    if (size < 3) return;
    constexpr eth::Fork kForks[] = {eth::Fork::cancun, eth::Fork::prague, eth::Fork::osaka};
    const eth::Fork fork = kForks[data[0] % std::size(kForks)];
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    const std::int64_t gases[] = {(std::int64_t{1} << 61) - 1, std::int64_t{1} << 61,
                                  (std::int64_t{1} << 61) + 12345, std::int64_t{1} << 62, kMax};
    std::int64_t gas = gases[data[1] % std::size(gases)];
    const Op& op = kOps[data[2] % std::size(kOps)];
    std::size_t at = 3;
    const auto byte = [&]() -> std::uint8_t { return at < size ? data[at++] : 0; };
    Uint256 args[7];
    for (std::uint8_t i = 0; i < op.args; ++i) {
        const std::uint8_t sel = byte();
        std::uint64_t v = 0;
        for (int k = 0; k < 8; ++k) v = v << 8 | byte();
        switch (sel % 8) {
            case 0:
            case 1:
            case 2:
                args[i] = Uint256(v & 0xffff);  // small
                break;
            case 3:
                args[i] = Uint256((std::uint64_t{1} << 32) - 31 + (v & 0xff));  // just past
                break;
            case 4:
                args[i] = Uint256(~std::uint64_t{0} - (v & 0xffff));  // near 2^64
                break;
            case 5:
                args[i] = Uint256((std::uint64_t{1} << 32) + v % (std::uint64_t{1} << 40));
                break;
            case 6:
                args[i] = Uint256::from_limbs(v, 1, 0, 0);  // past 64 bits
                break;
            default:
                args[i] = Uint256::max() - Uint256(v & 0xff);  // near 2^256
                break;
        }
    }
    // A CALL's address: the IDENTITY precompile or an account without code (never the contract
    // itself: 1,024 frames deep, which this much gas reaches, overflows ASan's larger stack
    // frames); its value: none.
    const bool has_value = op.code == 0xf1 || op.code == 0xf2;
    if (op.code == 0xf1 || op.code == 0xf2 || op.code == 0xf4 || op.code == 0xfa) {
        args[1] = (byte() & 1) != 0 ? Uint256(4) : Uint256(0xdead);
        if (has_value) args[2] = Uint256{};
    }
    if (op.code == 0xf0 || op.code == 0xf5) args[0] = Uint256{};  // no value
    const auto region_impossible = [&](std::uint8_t o, std::uint8_t n) {
        if (o == kNone) return false;
        const Uint256 len = n >= 0x80 ? Uint256(n - 0x80u) : args[n];
        if (len.is_zero()) return false;
        const Uint256& off = args[o];
        const std::uint64_t kMaxMemory = (std::uint64_t{1} << 32) - 32;
        return !off.fits_u64() || !len.fits_u64() || off.as_u64() > kMaxMemory ||
               len.as_u64() > kMaxMemory - off.as_u64();
    };
    const bool impossible = region_impossible(op.regions[0][0], op.regions[0][1]) ||
                            region_impossible(op.regions[1][0], op.regions[1][1]);
    Bytes code;
    for (std::uint8_t i = op.args; i-- > 0;) {
        code.push_back(0x7f);  // PUSH32
        const Bytes32 w = args[i].to_bytes32();
        code.insert(code.end(), w.begin(), w.end());
    }
    code.push_back(op.code);
    code.push_back(0x00);

    state::MemoryState pre;
    Address contract;
    contract[0] = 0xc0;
    Address caller;
    caller[19] = 0xca;
    pre.put(contract, 1, Uint256(1000), code, {});
    pre.put(caller, 0, Uint256(1'000'000), Bytes{}, {});
    const auto go = [&](evm::Tracer* tracer) {
        state::Overlay o(pre);
        evm::BlockEnv block;
        block.number = 20'000'000;
        block.gas_limit = 30'000'000;
        evm::TxEnv tx;
        tx.origin = caller;
        evm::Evm vm(o, block, tx, fork, tracer);
        evm::Message msg;
        msg.gas = gas;
        msg.recipient = msg.code_address = contract;
        msg.sender = caller;
        return vm.call(msg);
    };
    const evm::CallResult r = go(nullptr);
    check(r.gas_left >= 0 && r.gas_left <= gas);
    if (impossible) check(r.status == evm::Status::out_of_gas && r.gas_left == 0);
    static std::FILE* null = std::fopen("/dev/null", "w");
    trace::Eip3155 tracer(null, fork);
    const evm::CallResult t = go(&tracer);
    check(t.status == r.status && t.gas_left == r.gas_left && t.output == r.output);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    if (data[0] >= 0xe0) {
        huge_gas_run(data, size);
        return 0;
    }
    constexpr eth::Fork kForks[] = {eth::Fork::frontier, eth::Fork::byzantium, eth::Fork::istanbul,
                                    eth::Fork::london,   eth::Fork::cancun,    eth::Fork::prague,
                                    eth::Fork::osaka};
    const eth::Fork fork = kForks[data[0] % std::size(kForks)];
    const BytesView code(data + 1, size - 1);
    state::MemoryState pre;
    Address contract;
    contract[0] = 0xc0;
    Address caller;
    caller[19] = 0xca;
    pre.put(contract, 1, Uint256(1000), Bytes(code.begin(), code.end()), {});
    pre.put(caller, 0, Uint256(1'000'000), Bytes{}, {});

    const Run plain = run(pre, fork, code, nullptr);
    const auto& r = plain.result;
    check(r.gas_left >= 0 && r.gas_left <= 200'000);
    if (r.status != evm::Status::success && r.status != evm::Status::revert) {
        check(r.gas_left == 0 && r.output.empty());
    }
    if (r.status != evm::Status::success) check(plain.changes.empty());

    static std::FILE* null = std::fopen("/dev/null", "w");
    trace::Eip3155 tracer(null, fork);
    const Run traced = run(pre, fork, code, &tracer);
    const auto halt = [](evm::Status st) {
        return st != evm::Status::success && st != evm::Status::revert;
    };
    check(traced.result.status == r.status || (halt(traced.result.status) && halt(r.status)));
    check(traced.result.gas_left == r.gas_left && traced.result.output == r.output);
    check(same(traced.changes, plain.changes));

    std::string text, drained;
    trace::StructLogger logger(text, fork,
                               {.enable_memory = true, .enable_return_data = true, .limit = 64});
    logger.set_drain(4096, [&drained](std::string& b) {
        drained += b;
        b.clear();
    });
    const Run logged = run(pre, fork, code, &logger);
    logger.finish(static_cast<std::uint64_t>(200'000 - logged.result.gas_left),
                  logged.result.status != evm::Status::success, logged.result.output);
    drained += text;
    const auto doc = nlohmann::json::parse(drained, nullptr, /*allow_exceptions=*/false);
    check(!doc.is_discarded() && doc.is_object());
    check(doc["structLogs"].size() == logger.steps());

    // The call and state tracers over the same program run as a transaction: each writes one
    // whole JSON document, and none changes what the transaction does. For half of the inputs
    // (by the fork byte's bit 3), so that the rest keep the interpreter's throughput.
    if ((data[0] & 0x08) == 0) return 0;
    eth::TransactionFields f;
    f.max_fee_per_gas = Uint256(1);
    f.gas_limit = 221'000;
    f.to = contract;
    f.data.assign(code.begin(), code.end());
    f.v = Uint256(27);
    f.r = Uint256(1);
    f.s = Uint256(1);
    const auto tx = eth::decode_transaction(eth::encode(f));
    if (!tx) return 0;  // code too large for a transaction's data
    const auto as_tx = [&](evm::Tracer* t) {
        state::Overlay o(pre);
        evm::BlockEnv block;
        block.number = 20'000'000;
        block.gas_limit = 30'000'000;
        return evm::execute_transaction(*tx, caller, block, o, fork, t);
    };
    const auto untraced = as_tx(nullptr);
    auto mux = trace::parse_tracer_spec(
        "muxTracer",
        R"({"callTracer":{"withLog":true},"flatCallTracer":{},"prestateTracer":{"diffMode":true},)"
        R"("4byteTracer":{},"erc7562Tracer":{}})");
    check(mux.has_value());
    trace::TxTracer tracers(*mux, fork);
    std::string out;
    trace::ParityTracer parity({.trace = true, .vm_trace = true, .state_diff = true});
    struct Both final : evm::Tracer {
        evm::Tracer* a = nullptr;
        evm::Tracer* b = nullptr;
        void on_tx_start(const evm::TxStartView& v) override {
            a->on_tx_start(v), b->on_tx_start(v);
        }
        void on_tx_end(const evm::TxEndView& v) override { a->on_tx_end(v), b->on_tx_end(v); }
        void on_call_start(const evm::Message& m) override {
            a->on_call_start(m), b->on_call_start(m);
        }
        void on_call_end(const evm::Message& m, const evm::CallResult& r) override {
            a->on_call_end(m, r), b->on_call_end(m, r);
        }
        void on_step(const evm::StepView& st) override { a->on_step(st), b->on_step(st); }
        void on_step_error(evm::Status st) override { a->on_step_error(st), b->on_step_error(st); }
        void on_log(const state::Log& l) override { a->on_log(l), b->on_log(l); }
        void on_selfdestruct(const Address& c, const Address& to, const Uint256& v) override {
            a->on_selfdestruct(c, to, v), b->on_selfdestruct(c, to, v);
        }
    } both;
    both.a = tracers.begin(out, 0);
    both.b = &parity;
    const auto traced_tx = as_tx(&both);
    check(untraced.has_value() == traced_tx.has_value());
    if (!untraced) return 0;
    check(traced_tx->status == untraced->status && traced_tx->gas_used == untraced->gas_used &&
          traced_tx->output == untraced->output);
    state::Overlay after(pre);
    tracers.end(out,
                evm::TxEndView{.status = traced_tx->status,
                               .gas_used = traced_tx->gas_used,
                               .output = traced_tx->output,
                               .state = after},
                {});
    const auto results = nlohmann::json::parse(out, nullptr, false);
    check(!results.is_discarded() && results.is_object() && results.size() == 5);
    std::string replay;
    const Hash32 none{};
    parity.write(replay, &none);
    const auto replay_doc = nlohmann::json::parse(replay, nullptr, false);
    check(!replay_doc.is_discarded() && replay_doc.contains("vmTrace"));
    return 0;
}
