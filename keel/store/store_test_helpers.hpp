#pragma once
/// Helpers for the store's tests and benchmarks (not part of the library): a digest of
/// everything a store holds, family by family, to tell whether two stores are equal; small
/// builders the tests share.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "keel/common/result.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/keys.hpp"
#include "keel/store/prune.hpp"

namespace keel::store::test_helpers {

/// Entry count and keccak256 over (BE8 key size, key, BE8 value size, value) of every entry.
struct FamilyDigest {
    std::uint64_t entries = 0;
    Hash32 digest;

    friend bool operator==(const FamilyDigest&, const FamilyDigest&) = default;
};

/// The digest of each family, indexed by Family.
using StoreDigest = std::array<FamilyDigest, kFamilyCount>;

/// Reads every entry of every family (what readers see: deleted rows are not shown).
[[nodiscard]] inline Result<StoreDigest, StoreError> digest_store(const ChainStore& store) {
    StoreDigest out;
    for (std::size_t f = 0; f < kFamilyCount; ++f) {
        auto c = store.cursor(static_cast<Family>(f));
        if (!c) return unexpected(c.error());
        crypto::Keccak256 k;
        std::array<std::uint8_t, 8> size{};
        for (; c->valid(); c->next()) {
            keys::put_be64(size.data(), c->key().size());
            k.update(size);
            k.update(c->key());
            keys::put_be64(size.data(), c->value().size());
            k.update(size);
            k.update(c->value());
            ++out[f].entries;
        }
        if (auto r = c->status(); !r) return unexpected(r.error());
        out[f].digest = k.finalize();
    }
    return out;
}

/// Appends the n low bytes of v, little-endian (the era1 and snappy framing fields).
[[gnu::noinline]] inline void put_le(Bytes& out, std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

/// Prune options that remove the history of blocks before `until`.
inline PruneOptions prune_to(std::uint64_t until) {
    PruneOptions options;
    options.until = until;
    return options;
}

}  // namespace keel::store::test_helpers
