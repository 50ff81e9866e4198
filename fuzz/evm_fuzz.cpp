// The interpreter on arbitrary bytecode. The first byte picks the fork, the rest is the code of
// a contract called with 200,000 gas (the code also reads itself as call data).
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
//     JSON document whose structLogs count its steps, whatever the program.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "keel/eth/fork.hpp"
#include "keel/evm/evm.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/trace/eip3155.hpp"
#include "keel/trace/struct_logger.hpp"

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
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
    return 0;
}
