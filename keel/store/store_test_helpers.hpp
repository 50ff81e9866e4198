#pragma once
/// Helpers for the store's tests and benchmarks (not part of the library): a temporary
/// directory removed at the end, and a digest of everything a store holds, family by family,
/// to tell whether two stores are equal.

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>

#include "keel/common/result.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/keys.hpp"

namespace keel::store::test_helpers {

/// A fresh directory under the system temp folder, removed with everything in it at the end
/// (unless release() was called).
class TempDir {
  public:
    explicit TempDir(std::string_view tag = "keel-store-test") {
        std::random_device rd;
        const auto unique =
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" +
            std::to_string(rd());
        path_ = std::filesystem::temp_directory_path() / (std::string(tag) + "-" + unique);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        if (!path_.empty()) std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    /// The directory.
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

/// Entry count and keccak256 over (BE8 key size, key, BE8 value size, value) of every entry.
struct FamilyDigest {
    std::uint64_t entries = 0;
    Hash32 digest;

    friend bool operator==(const FamilyDigest&, const FamilyDigest&) = default;
};

/// The digest of each family, indexed by Family.
using StoreDigest = std::array<FamilyDigest, kFamilyCount>;

/// Reads every entry of every family (what readers see: deleted rows are not shown).
inline Result<StoreDigest, StoreError> digest_store(const ChainStore& store) {
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

}  // namespace keel::store::test_helpers
