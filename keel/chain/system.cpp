#include "keel/chain/system.hpp"

#include <array>
#include <string_view>

#include "keel/crypto/keccak.hpp"
#include "keel/crypto/sha256.hpp"
#include "keel/evm/evm.hpp"

namespace keel::chain {

evm::CallResult system_call(state::Overlay& state, const evm::BlockEnv& env, eth::Fork fork,
                            const Address& target, BytesView input, evm::AnalysisCache* cache) {
    evm::TxEnv tx;
    tx.origin = kSystemAddress;
    evm::CallResult result;
    if (!state.code(target)->empty()) {
        evm::Evm machine(state, env, tx, fork, nullptr, cache);
        evm::Message msg;
        msg.kind = evm::CallKind::call;
        msg.gas = kSystemCallGas;
        msg.recipient = target;
        msg.sender = kSystemAddress;
        msg.code_address = target;
        msg.input = input;
        result = machine.call(msg);
    }
    state.finalize_transaction({.delete_empty = true});
    return result;
}

const Hash32& deposit_event_topic() {
    static const Hash32 topic = [] {
        constexpr std::string_view sig = "DepositEvent(bytes,bytes,bytes,bytes,bytes)";
        return crypto::keccak256(
            BytesView(reinterpret_cast<const std::uint8_t*>(sig.data()), sig.size()));
    }();
    return topic;
}

namespace {

/// A 32-byte ABI word of `data` at `at` as a small integer, if it is one.
std::optional<std::uint64_t> word(BytesView data, std::size_t at) {
    if (at + 32 > data.size()) return std::nullopt;
    for (std::size_t i = 0; i < 24; ++i)
        if (data[at + i] != 0) return std::nullopt;
    std::uint64_t v = 0;
    for (std::size_t i = 24; i < 32; ++i) v = v << 8 | data[at + i];
    return v;
}

}  // namespace

bool append_deposit(const state::Log& log, Bytes& out) {
    // EIP-6110: the five `bytes` arguments of DepositEvent, each a 32-byte offset in the head and
    // at that offset a 32-byte length and the bytes padded to whole words.
    struct Part {
        std::uint64_t offset, size;
    };
    static constexpr std::array<Part, 5> kLayout = {{
        {160, 48},  // pubkey
        {256, 32},  // withdrawal_credentials
        {320, 8},   // amount (little-endian gwei)
        {384, 96},  // signature
        {512, 8},   // index (little-endian)
    }};
    if (log.topics.empty() || log.topics[0] != deposit_event_topic()) return true;
    const BytesView data = log.data;
    if (data.size() != 576) return false;
    for (std::size_t i = 0; i < kLayout.size(); ++i) {
        if (word(data, 32 * i) != kLayout[i].offset) return false;
        if (word(data, kLayout[i].offset) != kLayout[i].size) return false;
    }
    for (const Part& p : kLayout) {
        const auto* begin = data.data() + p.offset + 32;
        out.insert(out.end(), begin, begin + p.size);
    }
    return true;
}

Hash32 requests_hash(std::span<const Bytes> requests) {
    Bytes hashes;
    Bytes one;
    for (std::size_t type = 0; type < requests.size(); ++type) {
        if (requests[type].empty()) continue;
        one.assign(1, static_cast<std::uint8_t>(type));
        one.insert(one.end(), requests[type].begin(), requests[type].end());
        const Hash32 h = crypto::sha256(one);
        hashes.insert(hashes.end(), h.view().begin(), h.view().end());
    }
    return crypto::sha256(hashes);
}

}  // namespace keel::chain
