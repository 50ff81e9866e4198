#pragma once
/// Decoded block bodies, shared by the reads of recent blocks. A node is asked about the same
/// recent blocks again and again (full blocks, receipts, logs, traces): decoding a body and
/// recovering its senders (~30 us a transaction with libsecp256k1) on every request costs more
/// than the rest of the answer. decoded_body() keeps the most recently used bodies (by block
/// hash: a hash names one body, on any branch), senders recovered once when a reader needs them;
/// readers copy what they use (a Transaction's copy carries its recovered sender).
///
/// Threading: any thread; one mutex around the index, none while decoding or recovering.

#include <cstddef>
#include <memory>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/block.hpp"

namespace keel::blockchain {

/// The most bodies kept (~15 KB each for a block of ~45 transactions).
inline constexpr std::size_t kBodyCacheSize = 256;

/// The body of block `hash`, whose stored RLP is `rlp`, decoded (from the cache when kept), its
/// senders recovered (on the oneTBB pool) when `senders`. Errors: the RLP's decode error.
[[nodiscard]] Result<std::shared_ptr<const eth::BlockBody>, eth::Error> decoded_body(
    const Hash32& hash, BytesView rlp, bool senders);

}  // namespace keel::blockchain
