#pragma once
/// trace::Erc7562Tracer: geth's `erc7562Tracer`, the call tree a bundler checks an ERC-4337
/// user operation's validation against (ERC-7562's rules): callTracer's frames (withLog as
/// there) and, per frame, what the rules look at:
/// - `accessedSlots`: storage slots read (the value before the first read, if the frame did not
///   write the slot first), written (how often), and transient ones read and written;
/// - `usedOpcodes`: how often each opcode ran, except the ignored ones (by default PUSH0..SWAP16
///   and the plain arithmetic, comparison and bit operations); GAS counts only when the next
///   opcode is not a CALL*;
/// - `extCodeAccessInfo`: addresses read by EXTCODE* (an EXTCODESIZE tested by ISZERO next is
///   not listed);
/// - `contractSize`: for each address an EXTCODE* or CALL* names, its code size and the opcode,
///   at the first such access;
/// - `outOfGas`: the frame ran out of gas;
/// and, on the top frame, `keccak`: every KECCAK256 preimage of the transaction, sorted.
/// Config: stackTopItemsSize (3), ignoredOpcodes (list of numbers), withLog.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "keel/common/json_writer.hpp"
#include "keel/trace/call_tracer.hpp"

namespace keel::trace {

struct Erc7562TracerOptions {
    std::uint32_t stack_top_items = 3;
    /// Opcodes usedOpcodes does not count; nullopt: geth's default set.
    std::optional<std::vector<std::uint8_t>> ignored_opcodes;
    bool with_log = false;
};

class Erc7562Tracer final : public evm::Tracer {
  public:
    explicit Erc7562Tracer(Erc7562TracerOptions options = {});

    void on_tx_start(const evm::TxStartView& tx) override;
    void on_tx_end(const evm::TxEndView& tx) override;
    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    void on_step(const evm::StepView& step) override;
    void on_step_error(evm::Status status) override { calls_.on_step_error(status); }
    void on_log(const state::Log& log) override { calls_.on_log(log); }
    void on_selfdestruct(const Address& contract, const Address& beneficiary,
                         const Uint256& balance) override;

    void set_first_log_index(std::uint64_t index) noexcept { calls_.set_first_log_index(index); }

    /// Writes the result: the top frame with its calls nested.
    void write(json::Writer& w) const;

  private:
    struct Extras {
        std::map<Uint256, Uint256> reads;
        std::map<Uint256, std::uint64_t> writes;
        std::map<Uint256, std::uint64_t> transient_reads;
        std::map<Uint256, std::uint64_t> transient_writes;
        std::vector<Address> ext_code_access;
        std::map<std::uint8_t, std::uint64_t> used_opcodes;
        struct Size {
            std::size_t size = 0;
            std::uint8_t op = 0;
        };
        std::map<Address, Size> contract_size;
    };
    Extras& extras_of(std::uint32_t frame);

    Erc7562TracerOptions options_;
    std::array<bool, 256> ignored_{};
    CallTracer calls_;
    state::Overlay* state_ = nullptr;
    std::vector<Extras> extras_;      // by frame index
    std::vector<Address> contracts_;  // the running contract of each open frame
    std::set<std::string> keccak_;    // the preimages' bytes (ordered as bytes.Compare)
    bool have_last_ = false;          // the last opcode, with its stack's top items
    std::uint8_t last_op_ = 0;
    std::vector<Uint256> last_top_;
};

}  // namespace keel::trace
