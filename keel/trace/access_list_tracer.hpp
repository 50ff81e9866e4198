#pragma once
/// The accounts and slots a transaction touches, as eth_createAccessList reports them (geth's
/// logger.AccessListTracer): every slot an SLOAD or SSTORE names, with its account; and every
/// account that BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT or a CALL* names,
/// except the excluded ones (the sender, the recipient or created contract, the fork's
/// precompiles: their warmth is free already). Accounts and slots keep the order they were
/// first touched in; the list starts from the one the call already carries.

#include <array>
#include <vector>

#include "keel/eth/transaction.hpp"
#include "keel/evm/tracer.hpp"

namespace keel::trace {

class AccessListTracer final : public evm::Tracer {
  public:
    using Entry = eth::TransactionFields::AccessListEntry;

    /// `excluded`: addresses never listed for themselves (their slots still are).
    AccessListTracer(std::vector<Entry> start, std::vector<Address> excluded);

    const std::vector<Entry>& list() const noexcept { return list_; }

    const std::array<bool, 256>* step_ops() const override;
    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    void on_step(const evm::StepView& step) override;

  private:
    Entry& account(const Address& a);
    void add_account(const Address& a);

    std::vector<Entry> list_;
    std::vector<Address> excluded_;
    std::vector<Address> frames_;  ///< the storage owner of each open frame
};

}  // namespace keel::trace
