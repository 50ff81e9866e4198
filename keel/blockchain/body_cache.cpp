#include "keel/blockchain/body_cache.hpp"

#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "keel/eth/sender.hpp"

namespace keel::blockchain {
namespace {

class BodyCache {
  public:
    std::shared_ptr<const eth::BlockBody> get(const Hash32& hash) {
        std::lock_guard lock(mutex_);
        auto it = index_.find(hash);
        if (it == index_.end()) return nullptr;
        order_.splice(order_.begin(), order_, it->second);  // most recently used first
        return it->second->second;
    }

    void put(const Hash32& hash, std::shared_ptr<const eth::BlockBody> body) {
        std::lock_guard lock(mutex_);
        if (index_.contains(hash)) return;
        order_.emplace_front(hash, std::move(body));
        index_.emplace(hash, order_.begin());
        if (order_.size() > kBodyCacheSize) {
            index_.erase(order_.back().first);
            order_.pop_back();
        }
    }

  private:
    using Entry = std::pair<Hash32, std::shared_ptr<const eth::BlockBody>>;
    std::mutex mutex_;
    std::list<Entry> order_;
    std::unordered_map<Hash32, std::list<Entry>::iterator> index_;
};

BodyCache& cache() {
    static BodyCache c;
    return c;
}

}  // namespace

Result<std::shared_ptr<const eth::BlockBody>, eth::Error> decoded_body(const Hash32& hash,
                                                                       BytesView rlp,
                                                                       bool senders) {
    std::shared_ptr<const eth::BlockBody> body = cache().get(hash);
    if (!body) {
        auto decoded = eth::decode_body(rlp);
        if (!decoded) return std::unexpected(decoded.error());
        body = std::make_shared<const eth::BlockBody>(std::move(*decoded));
        cache().put(hash, body);
    }
    // Recovery publishes into each transaction's sender slot (atomic, once): safe on a shared
    // body; a second caller finds them recovered.
    if (senders) eth::recover_senders(body->transactions);
    return body;
}

}  // namespace keel::blockchain
