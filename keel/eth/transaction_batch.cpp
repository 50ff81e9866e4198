#include "keel/eth/transaction.hpp"

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "keel/crypto/keccak.hpp"

namespace keel::eth {

std::size_t decode_transactions(std::span<const BytesView> envelopes,
                                std::vector<Result<Transaction, Error>>& out) noexcept {
    // Envelopes are parsed and hashed in chunks, so that each chunk's bytes are still in cache
    // when Keccak reads them back. keccak256_many() keeps its eight slots busy across messages of
    // different lengths and idles only while the last few of a call finish, so a larger chunk
    // wastes less; this one keeps the staging arrays at about 7 KiB of stack.
    constexpr std::size_t kChunk = 128;
    BytesView views[kChunk];
    Hash32 hashes[kChunk];
    Transaction* txs[kChunk];

    out.reserve(out.size() + envelopes.size());
    std::size_t decoded = 0;
    for (std::size_t start = 0; start < envelopes.size(); start += kChunk) {
        const std::size_t end = std::min(envelopes.size(), start + kChunk);
        std::size_t n = 0;
        for (std::size_t i = start; i < end; ++i) {
            // The same parse as decode_transaction(), which then hashes encoded(); here the hash
            // follows for the whole chunk.
            Result<Transaction, Error>& r =
                out.emplace_back(detail::decode_transaction_unhashed(envelopes[i]));
            if (!r) continue;
            txs[n] = &*r;
            views[n] = r->encoded();
            ++n;
        }
        // `out` does not reallocate after the reserve above, so txs[] stay valid.
        crypto::keccak256_many(std::span<const BytesView>(views, n), std::span<Hash32>(hashes, n));
        for (std::size_t k = 0; k < n; ++k) txs[k]->hash_ = hashes[k];
        decoded += n;
    }
    return decoded;
}

void detail::hash_transactions(std::span<Transaction> txs) noexcept {
    constexpr std::size_t kChunk = 128;
    BytesView views[kChunk];
    Hash32 hashes[kChunk];
    for (std::size_t start = 0; start < txs.size(); start += kChunk) {
        const std::size_t n = std::min(txs.size() - start, kChunk);
        for (std::size_t k = 0; k < n; ++k) views[k] = txs[start + k].encoded();
        crypto::keccak256_many(std::span<const BytesView>(views, n), std::span<Hash32>(hashes, n));
        for (std::size_t k = 0; k < n; ++k) txs[start + k].hash_ = hashes[k];
    }
}

}  // namespace keel::eth
