#include "keel/state/memory_state.hpp"

#include <utility>

#include "keel/common/assert.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::state {

Bytes encode_account(const Account& a) {
    rlp::Encoder enc;
    const auto list = enc.begin_list();
    enc.add_uint(a.nonce);
    enc.add_uint256(a.balance);
    enc.add_string(a.storage_root.view());
    enc.add_string(a.code_hash.view());
    enc.end_list(list);
    return enc.take();
}

Hash32 MemoryState::storage_root(const std::map<Uint256, Uint256>& storage) {
    if (storage.empty()) return trie::kEmptyRoot;
    std::vector<std::pair<Bytes, Bytes>> kv;
    kv.reserve(storage.size());
    for (const auto& [key, value] : storage) {
        const Bytes32 k = key.to_bytes32();
        const Hash32 hk = crypto::keccak256(k.view());
        rlp::Encoder enc;
        enc.add_uint256(value);
        kv.emplace_back(Bytes(hk.begin(), hk.end()), enc.take());
    }
    return trie::root_of(std::move(kv));
}

void MemoryState::store_code(const Code& code, const Hash32& hash) {
    if (hash != kEmptyCodeHash) codes_.try_emplace(hash, code);
}

void MemoryState::put(const Address& address, std::uint64_t nonce, const Uint256& balance,
                      Bytes code, std::span<const std::pair<Uint256, Uint256>> storage) {
    Stored s;
    s.account.nonce = nonce;
    s.account.balance = balance;
    s.account.code_hash = crypto::keccak256(code);
    store_code(std::make_shared<const Bytes>(std::move(code)), s.account.code_hash);
    for (const auto& [key, value] : storage) {
        if (!value.is_zero()) s.storage[key] = value;
    }
    s.account.storage_root = storage_root(s.storage);
    accounts_[address] = std::move(s);
}

void MemoryState::apply(std::span<const AccountChange> changes) {
    for (const AccountChange& c : changes) {
        if (!c.account) {
            accounts_.erase(c.address);
            continue;
        }
        Stored& s = accounts_[c.address];
        if (c.storage_cleared) s.storage.clear();
        for (const auto& [key, value] : c.storage) {
            if (value.is_zero()) {
                s.storage.erase(key);
            } else {
                s.storage[key] = value;
            }
        }
        s.account = *c.account;
        if (c.code) store_code(c.code, s.account.code_hash);
        s.account.storage_root = storage_root(s.storage);
    }
}

Hash32 MemoryState::state_root() const {
    std::vector<std::pair<Bytes, Bytes>> kv;
    kv.reserve(accounts_.size());
    for (const auto& [address, s] : accounts_) {
        const Hash32 k = crypto::keccak256(address.view());
        kv.emplace_back(Bytes(k.begin(), k.end()), encode_account(s.account));
    }
    return trie::root_of(std::move(kv));
}

std::optional<Account> MemoryState::account(const Address& address) const {
    const auto it = accounts_.find(address);
    if (it == accounts_.end()) return std::nullopt;
    return it->second.account;
}

Uint256 MemoryState::storage(const Address& address, const Uint256& key) const {
    const auto it = accounts_.find(address);
    if (it == accounts_.end()) return {};
    const auto slot = it->second.storage.find(key);
    return slot == it->second.storage.end() ? Uint256{} : slot->second;
}

Code MemoryState::code(const Hash32& code_hash) const {
    if (code_hash == kEmptyCodeHash) return empty_code();
    const auto it = codes_.find(code_hash);
    KEEL_ASSERT(it != codes_.end());
    return it->second;
}

}  // namespace keel::state
