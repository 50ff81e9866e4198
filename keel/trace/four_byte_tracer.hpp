#pragma once
/// trace::FourByteTracer: geth's `4byteTracer`: how often each function selector was called
/// with each size of arguments, over the calls of a transaction (its own call included): a map
/// from "0x<4-byte selector>-<argument bytes>" to the count, as {"0x27dc297e-128": 1}. Creates,
/// calls of precompiles and calls with less than four bytes of input are not counted.
#include <cstdint>
#include <map>
#include <string>

#include "keel/common/json_writer.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/tracer.hpp"

namespace keel::trace {

class FourByteTracer final : public evm::Tracer {
  public:
    void on_tx_start(const evm::TxStartView& tx) override {
        fork_ = tx.fork;
        ids_.clear();
    }
    void on_call_start(const evm::Message& msg) override;
    bool wants_steps() const override { return false; }

    /// Writes the result object (keys in byte order, as Go writes a map).
    void write(json::Writer& w) const;

  private:
    eth::Fork fork_ = eth::Fork::frontier;
    std::map<std::string, std::uint64_t> ids_;
};

/// geth's `noopTracer`: traces nothing; its result is {}.
class NoopTracer final : public evm::Tracer {
  public:
    bool wants_steps() const override { return false; }
    static void write(json::Writer& w) {
        w.begin_object();
        w.end_object();
    }
};

}  // namespace keel::trace
