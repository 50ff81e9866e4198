#include "keel/blockchain/body_cache.hpp"

#include <utility>

#include "keel/common/lru_cache.hpp"
#include "keel/eth/sender.hpp"

namespace keel::blockchain {
namespace {

using Cache = LruCache<Hash32, std::shared_ptr<const eth::BlockBody>>;

Cache& cache() {
    static Cache c(kBodyCacheSize);
    return c;
}

}  // namespace

Result<std::shared_ptr<const eth::BlockBody>, eth::Error> decoded_body(const Hash32& hash,
                                                                       BytesView rlp,
                                                                       bool senders) {
    std::shared_ptr<const eth::BlockBody> body = cache().get(hash).value_or(nullptr);
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
