#pragma once
/// trace::Eip3155: the EIP-3155 JSON-lines tracer (`keel evm statetest --trace`), writing the
/// lines geth's `evm statetest --json` prints, so the tools built on them (goevmlab, diffs
/// between clients) read keel's too.
///
/// One line per instruction, before it runs:
///   {"pc":0,"op":96,"gas":"0x2d1cc4","gasCost":"0x3","memSize":0,"stack":["0x0"],
///    "depth":1,"refund":0,"opName":"PUSH1"}
/// with `"error":"..."` on the line of an instruction that failed, and one line as each frame
/// ends (nested ones too, a precompile's too): {"output":"<hex>","gasUsed":"0x..","error":".."}.
/// The last of those is the transaction's own frame.
///
/// Where clients disagree (docs/evm.md, "Traces"): gasCost is the instruction's whole cost as
/// geth prints it (memory expansion, cold access, and for CALL* and CREATE* the gas passed on;
/// evmone prints the constant part only); for an instruction that runs out of gas keel prints the
/// whole cost it could not pay (geth prints the constant part when its dynamic-gas function
/// fails, nethermind the gas left). The implicit STOP at the end of the code is traced, as geth
/// does (evmone does not). Error strings are geth's phrases where keel knows the same fact.
///
/// Nothing is formatted inside the interpreter: on_step copies the words it prints into this
/// tracer's one line buffer as hex, and whole lines go to the FILE in large writes. Stack words
/// are hex-encoded straight from their limbs, minimal digits, no padding.

#include <cstdio>
#include <string>

#include "keel/eth/fork.hpp"
#include "keel/evm/tracer.hpp"

namespace keel::trace {

struct Eip3155Options {
    bool memory = false;       ///< add "memory":"0x.." (the whole memory) to each step
    bool return_data = false;  ///< add "returnData":"0x.." to each step
};

class Eip3155 final : public evm::Tracer {
  public:
    /// Writes to `out` (not owned; flushed by flush() and the destructor).
    Eip3155(std::FILE* out, eth::Fork fork, Eip3155Options options = {});
    ~Eip3155() override;
    Eip3155(const Eip3155&) = delete;
    Eip3155& operator=(const Eip3155&) = delete;

    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    void on_step(const evm::StepView& step) override;
    void on_step_error(evm::Status status) override;

    /// Appends a raw line (e.g. geth's {"stateRoot": "0x.."} after a test case).
    void line(std::string_view text);
    /// Writes what is buffered to the FILE and fflush()es it.
    void flush();

  private:
    void close_step();
    void maybe_write();

    std::FILE* out_;
    eth::Fork fork_;
    Eip3155Options options_;
    std::string buf_;
    bool step_open_ = false;  // the last step's line lacks its closing brace (an error may come)
    std::uint8_t step_op_ = 0;
    std::size_t step_stack_ = 0;
};

}  // namespace keel::trace
