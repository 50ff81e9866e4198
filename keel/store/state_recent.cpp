// keep_recent_state(): the latest blocks' state changes loaded into memory from their change
// sets and history rows (detail/recent_state.hpp).
#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "keel/store/detail/db.hpp"
#include "keel/store/detail/recent_state.hpp"
#include "keel/store/detail/state_rows.hpp"
#include "keel/store/state_store.hpp"

namespace keel::store {

Result<RecentStateStats, StoreError> keep_recent_state(const ChainStore& store,
                                                       std::size_t max_blocks,
                                                       std::size_t max_bytes) {
    detail::Db& d = detail::Access::of(store);
    const std::lock_guard lock(d.write_mutex);  // no state is written while they load
    d.recent.enable(max_blocks, max_bytes);
    const rocksdb::ReadOptions ro;
    auto head = read_state_head(d, ro);
    if (!head) return unexpected(head.error());
    auto floor = read_state_floor(d, ro);
    if (!floor) return unexpected(floor.error());
    std::vector<RecentState::Block> blocks;  // newest first while read
    if (max_blocks != 0 && *head && *floor) {
        // The state after the floor is the oldest kept, so the oldest change set is the next one.
        std::size_t bytes = 0;
        for (std::uint64_t n = (*head)->number; n > **floor && blocks.size() < max_blocks; --n) {
            const NumKey nk = num_key(n);
            auto set = get_at(d, ro, kChangeSets,
                              BytesView(reinterpret_cast<const std::uint8_t*>(nk.data()), 8));
            if (!set) return unexpected(set.error());
            if (!*set) break;  // a block imported without its history
            RecentState::Block block;
            block.number = n;
            std::optional<StoreError> failure;
            const bool whole = for_each_change(as_bytes(**set), [&](bool is_slot, BytesView key) {
                if (failure) return;
                auto before =
                    get_at(d, ro, is_slot ? kStorageHistory : kAccountHistory, with_block(key, n));
                if (!before) {
                    failure = before.error();
                } else if (!*before) {
                    failure = state_error(d, "history row of block " + std::to_string(n) +
                                                 " missing for a key its change set names");
                } else {
                    bytes += key.size() + (*before)->size();
                    block.changes.emplace_back(
                        std::string(reinterpret_cast<const char*>(key.data()), key.size()),
                        std::move(**before));
                }
            });
            if (failure) return unexpected(*failure);
            if (!whole)
                return unexpected(corrupt(d.path, "change set of block " + std::to_string(n)));
            blocks.push_back(std::move(block));
            if (bytes > max_bytes) break;  // the oldest of these would drop out at once
        }
    }
    std::reverse(blocks.begin(), blocks.end());
    d.recent.load(std::move(blocks));
    const RecentState::Stats s = d.recent.stats();
    return RecentStateStats{s.first, s.last, s.blocks, s.keys, s.bytes};
}

}  // namespace keel::store
