#pragma once
/// StateReader: the one way state comes into execution (DESIGN.md §1, "Execution and tracing").
/// A test's pre-state (MemoryState), the store's head or a historical view implement it; the
/// EVM reads through it and writes only into an Overlay on top of it.
///
/// Threading: a reader may be shared by overlays on several threads only if its implementation
/// says so (MemoryState: yes, while nobody applies changes to it).
/// Failures: a reader that cannot read (an I/O error underneath) returns what it has (an absent
/// account, a zero slot) and reports the failure through failure(): the caller checks it once
/// after execution and throws the result away, as geth's StateDB.Error() is used. Execution
/// itself never sees an error from state.

#include <memory>
#include <optional>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"
#include "keel/state/account.hpp"

namespace keel::state {

/// Contract code, shared between the reader, overlays and the EVM's analysis cache. Never null
/// where this header hands one out; the empty code is an empty vector.
using Code = std::shared_ptr<const Bytes>;

/// The empty code, one instance per process.
const Code& empty_code();

class StateReader {
  public:
    virtual ~StateReader() = default;

    /// The account at `address`; std::nullopt when there is none.
    [[nodiscard]] virtual std::optional<Account> account(const Address& address) const = 0;
    /// The value of slot `key` of `address` (zero when unset or the account does not exist).
    [[nodiscard]] virtual Uint256 storage(const Address& address, const Uint256& key) const = 0;
    /// The code whose keccak256 is `code_hash` (empty_code() for kEmptyCodeHash); an unknown
    /// hash is a failure of the reader: it returns the empty code and failure() says so.
    [[nodiscard]] virtual Code code(const Hash32& code_hash) const = 0;
    /// The first failure to read, if there was one (see the header comment).
    [[nodiscard]] virtual std::optional<std::string> failure() const { return std::nullopt; }
};

}  // namespace keel::state
