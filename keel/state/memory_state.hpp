#pragma once
/// MemoryState: a whole world state held in memory, readable (StateReader) and committable
/// (apply the changes of an Overlay), with its state root. It is a state test's pre- and post-
/// state, a genesis allocation, and the reference the store's persisted state is tested against.
///
/// The state root (yellow paper §4.1, appendix D): the trie of keccak256(address) ->
/// rlp([nonce, balance, storage_root, code_hash]), each storage_root the trie of
/// keccak256(be32(key)) -> rlp(value) over the non-zero slots. Storage roots are recomputed for
/// the accounts whose storage changed when changes are applied (put, apply), so account() always
/// reports a true storage root.
///
/// Threading: readers on several threads at once are fine; put/apply need exclusive use.

#include <cstdint>
#include <map>
#include <span>
#include <unordered_map>
#include <vector>

#include "keel/state/overlay.hpp"
#include "keel/state/reader.hpp"

namespace keel::state {

class MemoryState final : public StateReader {
  public:
    struct Stored {
        Account account;
        std::map<Uint256, Uint256> storage;  ///< non-zero slots only
    };

    /// Sets the account at `address` (replacing any there) with this code and storage (zero
    /// values are dropped).
    void put(const Address& address, std::uint64_t nonce, const Uint256& balance, Bytes code,
             std::span<const std::pair<Uint256, Uint256>> storage);
    /// Commits what an overlay changed (Overlay::changes()).
    void apply(std::span<const AccountChange> changes);

    /// The state root (kEmptyRoot for no accounts).
    Hash32 state_root() const;
    const std::map<Address, Stored>& accounts() const noexcept { return accounts_; }

    std::optional<Account> account(const Address& address) const override;
    Uint256 storage(const Address& address, const Uint256& key) const override;
    /// Every code of every account was stored with it, so an unknown hash is a caller's bug
    /// (asserted), not a failure to read.
    Code code(const Hash32& code_hash) const override;

  private:
    void store_code(const Code& code, const Hash32& hash);
    static Hash32 storage_root(const std::map<Uint256, Uint256>& storage);

    std::map<Address, Stored> accounts_;
    std::unordered_map<Hash32, Code> codes_;
};

/// rlp([nonce, balance, storage_root, code_hash]): an account as the state trie holds it.
Bytes encode_account(const Account& a);

}  // namespace keel::state
