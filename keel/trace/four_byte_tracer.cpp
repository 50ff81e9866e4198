#include "keel/trace/four_byte_tracer.hpp"

#include "keel/evm/precompiles.hpp"

namespace keel::trace {

void FourByteTracer::on_call_start(const evm::Message& msg) {
    if (msg.input.size() < 4) return;
    if (msg.kind == evm::CallKind::create || msg.kind == evm::CallKind::create2) return;
    if (const auto id = evm::precompile_id(msg.code_address);
        id && evm::precompile_exists(*id, fork_)) {
        return;
    }
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string key = "0x";
    for (std::size_t i = 0; i < 4; ++i) {
        key.push_back(kDigits[msg.input[i] >> 4]);
        key.push_back(kDigits[msg.input[i] & 15]);
    }
    key += '-';
    key += std::to_string(msg.input.size() - 4);
    ids_[key] += 1;
}

void FourByteTracer::write(json::Writer& w) const {
    w.begin_object();
    for (const auto& [key, count] : ids_) {
        w.key(key);
        w.number(count);
    }
    w.end_object();
}

}  // namespace keel::trace
