#pragma once
/// trace::PrestateTracer: geth's `prestateTracer` for one transaction: every account the
/// transaction touches as it was before the transaction (balance, nonce, code, code hash and
/// the storage slots it read or wrote), or with `diffMode` the accounts it changed, before and
/// after, changed fields only.
///
/// Which accounts: the sender, the recipient (or the address a create makes), the coinbase,
/// EIP-7702 authorities and delegation targets, then whatever an instruction names as it runs
/// (BALANCE, EXTCODE*, SELFDESTRUCT's beneficiary, the callee of every CALL*, the address of
/// every CREATE/CREATE2, the slot of every SLOAD/SSTORE), each looked up in the state the first
/// time it is named, before the instruction changes anything. An instruction that fails its gas
/// or stack check names nothing (geth looks up only instructions that start). Accounts that did
/// not exist before are left out unless `includeEmpty` (which diffMode refuses).
///
/// diffMode compares, at the transaction's end, each account looked up with the state after it:
/// `pre` keeps the accounts with a change (storage: the changed non-zero slots), `post` holds
/// what changed (storage: the changed slots that are not zero after); an account destroyed by
/// SELFDESTRUCT (before Cancun; from Cancun, one created in the transaction) stays in `pre`
/// only.
///
/// Values are read through the transaction's overlay (evm::TxStartView::state) when first
/// needed, and written as geth writes them (balance hex, nonce a JSON number, code hex, storage
/// keys and values 32-byte hex, members sorted by address).

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "keel/common/json_writer.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/tracer.hpp"
#include "keel/state/reader.hpp"

namespace keel::trace {

/// prestateTracer's tracerConfig.
struct PrestateTracerOptions {
    bool diff_mode = false;        ///< diffMode
    bool disable_code = false;     ///< disableCode
    bool disable_storage = false;  ///< disableStorage
    bool include_empty = false;    ///< includeEmpty (not with diffMode)
};

class PrestateTracer final : public evm::Tracer {
  public:
    explicit PrestateTracer(PrestateTracerOptions options = {}) : options_(options) {}

    void on_tx_start(const evm::TxStartView& tx) override;
    void on_tx_end(const evm::TxEndView& tx) override;
    void on_call_start(const evm::Message& msg) override;
    void on_call_end(const evm::Message& msg, const evm::CallResult& result) override;
    void on_step(const evm::StepView& step) override;
    void on_step_error(evm::Status status) override;
    /// The instructions that name an account or a slot (SLOAD, SSTORE, BALANCE, EXTCODE*,
    /// SELFDESTRUCT, the calls and creates): the only steps it looks at.
    const std::array<bool, 256>* step_ops() const override;

    /// Writes the result: the accounts before, or {"post":{...},"pre":{...}} in diffMode.
    void write(json::Writer& w) const;

    /// An account as looked up before the transaction (and, in diffMode after on_tx_end,
    /// `post`'s changed fields).
    struct Account {
        Uint256 balance{};
        std::uint64_t nonce = 0;
        state::Code code;  // pre: set when not empty; post: when changed (shared, not copied)
        std::optional<Hash32> code_hash;  // pre: present when the account has code
        std::map<Uint256, Uint256> storage;
        bool has_balance = true;  // post: only what changed
        bool empty = false;       // pre: did not exist before the transaction
    };
    /// The accounts looked up so far, with their values before the transaction (what `pre`
    /// shows; with includeEmpty, the ones that did not exist too).
    const std::map<Address, Account>& accounts() const noexcept { return pre_; }

  private:
    void lookup_account(const Address& a);
    void lookup_storage(const Address& a, const Uint256& slot);
    Hash32 code_hash_of(const Address& a);
    void diff();
    void write_account(json::Writer& w, const Account& a) const;

    PrestateTracerOptions options_;
    eth::Fork fork_ = eth::Fork::frontier;
    state::Overlay* state_ = nullptr;
    std::map<Address, Account> pre_;
    std::map<Address, Account> post_;
    std::set<Address> created_;
    std::set<Address> deleted_;
    std::vector<Address> frames_;  // the running contract of each depth
    // What the last step looked up, undone when the step fails its gas or stack check.
    std::vector<Address> step_accounts_;
    std::vector<std::pair<Address, Uint256>> step_slots_;
    std::vector<Address> step_created_;
    std::vector<Address> step_deleted_;
    bool step_dirty_ = false;  // the step_* lists hold the last instruction's lookups
};

}  // namespace keel::trace
