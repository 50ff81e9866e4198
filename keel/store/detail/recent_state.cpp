#include "keel/store/detail/recent_state.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <random>

#include "keel/store/keys.hpp"
#include "keel/store/state_store.hpp"

namespace keel::store::detail {

namespace {

// What one kept change costs: its key and value, the map node and vector slot around them.
constexpr std::size_t kOverhead = 96;

std::size_t cost(std::string_view key, std::string_view before) {
    return key.size() + before.size() + kOverhead;
}

}  // namespace

// The keys are Keccak-256 hashes (of an address, or of an address and then a slot): their last 8
// bytes are already uniform. They are mixed with a per-process seed so that keys ground to
// collide in one process's buckets do not collide in another's.
std::size_t RecentState::KeyHash::operator()(std::string_view key) const noexcept {
    std::uint64_t tail = 0;
    const std::size_t n = std::min<std::size_t>(key.size(), 8);
    std::memcpy(&tail, key.data() + key.size() - n, n);
    return static_cast<std::size_t>((tail ^ seed) * 0x9e3779b97f4a7c15ULL);
}

RecentState::RecentState() {
    std::random_device rd;
    const std::size_t seed = (std::size_t{rd()} << 32) ^ rd();
    keys_ = Map(0, KeyHash{seed}, KeyEqual{});
}

void RecentState::enable(std::size_t max_blocks, std::size_t max_bytes) {
    const std::unique_lock lock(mutex_);
    max_blocks_ = max_blocks;
    max_bytes_ = max_bytes;
    clear_locked();
}

std::uint64_t RecentState::epoch() const {
    const std::shared_lock lock(mutex_);
    return epoch_;
}

RecentState::Answer RecentState::find(std::uint64_t epoch, std::uint64_t number, std::uint64_t head,
                                      BytesView key, std::optional<std::string>& value) const {
    const std::shared_lock lock(mutex_);
    if (epoch != epoch_ || blocks_.empty() || number >= head) return Answer::unknown;
    // Every block of (number, head] must be kept.
    if (number + 1 < blocks_.front().number || head > blocks_.back().number) return Answer::unknown;
    const auto it =
        keys_.find(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
    if (it == keys_.end()) return Answer::unchanged;
    const std::vector<Change>& changes = it->second;  // by block, ascending
    const auto first =
        std::upper_bound(changes.begin(), changes.end(), number,
                         [](std::uint64_t n, const Change& c) { return n < c.block; });
    if (first == changes.end() || first->block > head) return Answer::unchanged;
    if (first->before.empty()) {
        value.reset();
    } else {
        value = first->before;
    }
    return Answer::changed;
}

bool RecentState::continues(std::uint64_t number) const {
    const std::shared_lock lock(mutex_);
    return max_blocks_ == 0 || (last_ && number == *last_ + 1);
}

void RecentState::written(const StateUpdate& update) {
    const std::unique_lock lock(mutex_);
    if (max_blocks_ == 0) return;
    Block block;
    block.number = update.number;
    std::uint8_t own[8];
    keys::put_be64(own, update.number);
    bool change_set = false;
    for (const StateUpdate::Row& r : update.rows) {
        if (r.op != StateUpdate::Row::Op::put) continue;
        if (r.family == Family::change_sets) {
            change_set =
                change_set || (r.key.size() == 8 && std::memcmp(r.key.data(), own, 8) == 0);
            continue;
        }
        if (r.family != Family::account_history && r.family != Family::storage_history) continue;
        // key || BE8(block): only this block's rows (the update's own history).
        if (r.key.size() < 8 || std::memcmp(r.key.data() + r.key.size() - 8, own, 8) != 0) {
            continue;
        }
        block.changes.emplace_back(
            std::string(reinterpret_cast<const char*>(r.key.data()), r.key.size() - 8),
            std::string(reinterpret_cast<const char*>(r.value.data()), r.value.size()));
    }
    if (!change_set) {  // no history for this block: nothing below it can be answered
        clear_locked();
        return;
    }
    if (!last_ || update.number != *last_ + 1) clear_locked();
    append_locked(std::move(block));
}

void RecentState::forget() {
    const std::unique_lock lock(mutex_);
    clear_locked();
}

void RecentState::load(std::vector<Block> blocks) {
    const std::unique_lock lock(mutex_);
    clear_locked();
    if (max_blocks_ == 0) return;
    for (Block& b : blocks) {
        if (last_ && b.number != *last_ + 1) clear_locked();
        append_locked(std::move(b));
    }
}

RecentState::Stats RecentState::stats() const {
    const std::shared_lock lock(mutex_);
    Stats s;
    s.blocks = blocks_.size();
    s.keys = keys_.size();
    s.bytes = bytes_;
    if (!blocks_.empty()) {
        s.first = blocks_.front().number;
        s.last = blocks_.back().number;
    }
    return s;
}

void RecentState::clear_locked() {
    ++epoch_;
    last_.reset();
    keys_.clear();
    blocks_.clear();
    bytes_ = 0;
}

void RecentState::append_locked(Block&& block) {
    last_ = block.number;
    Kept kept;
    kept.number = block.number;
    kept.keys.reserve(block.changes.size());
    for (auto& [key, before] : block.changes) {
        auto [it, fresh] = keys_.try_emplace(std::move(key));
        std::vector<Change>& changes = it->second;
        if (!changes.empty() && changes.back().block == block.number) {
            // The same key twice in one update: the later row is the one the store keeps.
            kept.bytes -= cost(it->first, changes.back().before);
            kept.bytes += cost(it->first, before);
            changes.back().before = std::move(before);
            continue;
        }
        kept.bytes += cost(it->first, before);
        changes.push_back(Change{block.number, std::move(before)});
        kept.keys.push_back(&it->first);
    }
    bytes_ += kept.bytes;
    blocks_.push_back(std::move(kept));
    while (!blocks_.empty() && (blocks_.size() > max_blocks_ || bytes_ > max_bytes_))
        drop_oldest_locked();
}

void RecentState::drop_oldest_locked() {
    const Kept& oldest = blocks_.front();
    for (const std::string* key : oldest.keys) {
        const auto it = keys_.find(std::string_view(*key));
        if (it == keys_.end()) continue;
        std::vector<Change>& changes = it->second;
        if (!changes.empty() && changes.front().block == oldest.number)
            changes.erase(changes.begin());
        if (changes.empty()) keys_.erase(it);
    }
    bytes_ -= oldest.bytes;
    blocks_.pop_front();
}

}  // namespace keel::store::detail
