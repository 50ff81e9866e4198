#include "keel/store/detail/trie_cache.hpp"

#include <utility>

#include "keel/crypto/keccak.hpp"

namespace keel::store::detail {

namespace {

// The slot of a path of at most kMaxDepth nibbles: the paths shorter than it come first, then
// its own length's in numeric order. kSlots for a deeper path (not kept).
std::uint32_t slot_of(BytesView path) {
    if (path.size() > TrieNodeCache::kMaxDepth) return TrieNodeCache::kSlots;
    std::uint32_t value = 0;
    for (std::uint8_t nibble : path) value = value << 4 | (nibble & 0xfu);
    const std::uint32_t shorter = ((1u << (4 * path.size())) - 1) / 15;
    return shorter + value;
}

}  // namespace

TrieNodeCache::Session TrieNodeCache::open(const Hash32& head_root) {
    std::unique_lock lock(mutex_);
    // Allocated at the first state update, not with every store (readers never use it).
    if (account_.empty()) account_.resize(kSlots);
    if (valid_ && pending_root_ && *pending_root_ == head_root) {
        // The last update was written: its changes are the head's tries now.
        for (Op& op : pending_) apply(std::move(op));
        root_ = head_root;
    } else if (!valid_ || root_ != head_root) {
        clear();
        root_ = head_root;
        valid_ = true;
    }
    pending_.clear();
    pending_root_.reset();
    if (bytes_ > kMaxBytes) clear();
    return Session(*this, std::move(lock));
}

TrieNodeCache::Stats TrieNodeCache::stats() const {
    std::lock_guard lock(mutex_);
    return {hits_, entries_};
}

void TrieNodeCache::set(Entry& at, Entry&& value) {
    bytes_ -= at.rlp.size();
    entries_ -= at.rlp.empty() ? 0 : 1;
    at = std::move(value);
    bytes_ += at.rlp.size();
    entries_ += at.rlp.empty() ? 0 : 1;
}

void TrieNodeCache::apply(Op&& op) {
    if (!op.account) {
        set(account_[op.slot], std::move(op.value));
        return;
    }
    if (op.slot == kSlots) {  // the account's whole storage trie
        if (auto it = storage_.find(*op.account); it != storage_.end()) {
            for (auto& [slot, node] : it->second) set(node, {});
            storage_.erase(it);
        }
        return;
    }
    if (op.value.rlp.empty()) {
        auto it = storage_.find(*op.account);
        if (it == storage_.end()) return;
        if (auto n = it->second.find(op.slot); n != it->second.end()) {
            set(n->second, {});
            it->second.erase(n);
        }
        return;
    }
    set(storage_[*op.account][op.slot], std::move(op.value));
}

void TrieNodeCache::clear() {
    for (Entry& e : account_) Bytes().swap(e.rlp);
    storage_.clear();
    bytes_ = 0;
    entries_ = 0;
}

TrieNodeCache::Session::~Session() = default;

std::optional<Bytes> TrieNodeCache::Session::find(const Hash32* account, BytesView path,
                                                  Hash32& hash) {
    const std::uint32_t slot = slot_of(path);
    if (slot == kSlots) return std::nullopt;
    const Entry* node = nullptr;
    if (account == nullptr) {
        node = &cache_->account_[slot];
    } else {
        auto it = cache_->storage_.find(*account);
        if (it == cache_->storage_.end()) return std::nullopt;
        auto n = it->second.find(slot);
        if (n == it->second.end()) return std::nullopt;
        node = &n->second;
    }
    if (node->rlp.empty()) return std::nullopt;
    ++cache_->hits_;
    hash = node->hash;
    return node->rlp;
}

void TrieNodeCache::Session::remember(const Hash32* account, BytesView path, BytesView node,
                                      const Hash32& hash) {
    const std::uint32_t slot = slot_of(path);
    if (slot == kSlots || node.empty()) return;
    cache_->apply(Op{account ? std::optional<Hash32>(*account) : std::nullopt, slot,
                     Entry{Bytes(node.begin(), node.end()), hash}});
}

void TrieNodeCache::Session::stage_erase(const Hash32& account) {
    staged_.push_back(Op{account, kSlots, {}});
}

void TrieNodeCache::Session::stage(const Hash32* account, const trie::NodeChanges& changes) {
    const std::optional<Hash32> owner =
        account ? std::optional<Hash32>(*account) : std::optional<Hash32>();
    for (const Bytes& p : changes.deletes) {
        if (const std::uint32_t slot = slot_of(p); slot != kSlots)
            staged_.push_back(Op{owner, slot, {}});
    }
    for (std::size_t i = 0; i < changes.writes.size(); ++i) {
        const auto& [p, rlp] = changes.writes[i];
        const std::uint32_t slot = slot_of(p);
        if (slot == kSlots || rlp.empty()) continue;
        // The updater's hash of the node; computed here for changes that come without one.
        const Hash32 h =
            i < changes.write_hashes.size() ? changes.write_hashes[i] : crypto::keccak256(rlp);
        staged_.push_back(Op{owner, slot, Entry{rlp, h}});
    }
}

void TrieNodeCache::Session::close(const Hash32& new_root) {
    cache_->pending_ = std::move(staged_);
    cache_->pending_root_ = new_root;
}

}  // namespace keel::store::detail
