#include "keel/trie/updater.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "keel/crypto/keccak.hpp"
#include "keel/trie/root.hpp"

namespace keel::trie {
namespace {

// Node rows in memory, keyed by path, as a database would hold them.
class MapSource final : public NodeSource {
  public:
    std::optional<Bytes> node(BytesView path) const override {
        auto it = rows.find(Bytes(path.begin(), path.end()));
        if (it == rows.end()) return std::nullopt;
        return it->second;
    }
    void apply(const NodeChanges& c) {
        for (const Bytes& p : c.deletes) rows.erase(p);
        for (const auto& [p, v] : c.writes) rows[p] = v;
    }
    std::map<Bytes, Bytes> rows;
};

Bytes key_of(std::uint64_t i) {
    std::uint8_t be[8];
    for (int k = 0; k < 8; ++k) be[k] = static_cast<std::uint8_t>(i >> (56 - 8 * k));
    const Hash32 h = crypto::keccak256(BytesView(be, 8));
    return Bytes(h.begin(), h.end());
}

Bytes value_of(std::uint64_t v, std::size_t len) {
    Bytes out(len, static_cast<std::uint8_t>(v | 1));
    out[0] = static_cast<std::uint8_t>(v >> 8);
    return out;
}

Hash32 expected_root(const std::map<Bytes, Bytes>& kv) {
    std::vector<std::pair<Bytes, Bytes>> pairs(kv.begin(), kv.end());
    return root_of(std::move(pairs));
}

// Writes a trie of keys 0..n-1 (values 40 bytes long) into `src` from nothing; its root.
Hash32 build_trie(MapSource& src, std::uint64_t n) {
    Updater build(src, kEmptyRoot);
    for (std::uint64_t i = 0; i < n; ++i) build.put(key_of(i), value_of(i, 40));
    NodeChanges c;
    auto root = build.commit(c);
    EXPECT_TRUE(root.has_value());
    EXPECT_EQ(c.write_hashes.size(), c.writes.size());
    for (std::size_t i = 0; i < c.writes.size() && i < c.write_hashes.size(); ++i)
        EXPECT_EQ(c.write_hashes[i], crypto::keccak256(c.writes[i].second)) << i;
    src.apply(c);
    return root.value_or(kEmptyRoot);
}

// Builds the rows of `kv` from nothing.
std::map<Bytes, Bytes> rows_from_scratch(const std::map<Bytes, Bytes>& kv) {
    MapSource src;
    Updater u(src, kEmptyRoot);
    for (const auto& [k, v] : kv) u.put(k, v);
    NodeChanges c;
    EXPECT_TRUE(u.commit(c).has_value());
    src.apply(c);
    return src.rows;
}

TEST(TrieUpdater, EmptyTrieStaysEmpty) {
    MapSource src;
    Updater u(src, kEmptyRoot);
    u.put(key_of(1), {});  // deleting an absent key
    NodeChanges c;
    auto root = u.commit(c);
    ASSERT_TRUE(root.has_value());
    EXPECT_EQ(*root, kEmptyRoot);
    EXPECT_TRUE(c.writes.empty());
    EXPECT_TRUE(c.deletes.empty());
}

TEST(TrieUpdater, OneKeyRootIsStoredEvenWhenShort) {
    MapSource src;
    Updater u(src, kEmptyRoot);
    const Bytes k = key_of(7);
    u.put(k, Bytes{0x01});
    NodeChanges c;
    auto root = u.commit(c);
    ASSERT_TRUE(root.has_value());
    EXPECT_EQ(*root, expected_root({{k, Bytes{0x01}}}));
    ASSERT_EQ(c.writes.size(), 1u);
    EXPECT_TRUE(c.writes[0].first.empty());  // the root's path
    src.apply(c);

    Updater del(src, *root);
    del.put(k, {});
    auto empty = del.commit(c);
    ASSERT_TRUE(empty.has_value());
    EXPECT_EQ(*empty, kEmptyRoot);
    src.apply(c);
    EXPECT_TRUE(src.rows.empty());
}

// Random batches of inserts, updates and deletes: after each commit the root equals the
// one-pass root of the same pairs, and the stored rows equal those of a trie built from nothing
// (no stale row is left behind, none is missing).
TEST(TrieUpdater, IncrementalEqualsFromScratch) {
    std::mt19937_64 rng(26);
    for (int round = 0; round < 6; ++round) {
        MapSource src;
        std::map<Bytes, Bytes> kv;
        Hash32 root = kEmptyRoot;
        const std::uint64_t universe = round < 3 ? 40 : 3000;
        for (int batch = 0; batch < 25; ++batch) {
            Updater u(src, root);
            const int ops = 1 + static_cast<int>(rng() % (round < 3 ? 12 : 300));
            for (int i = 0; i < ops; ++i) {
                const Bytes k = key_of(rng() % universe);
                if (rng() % 3 == 0) {
                    u.put(k, {});
                    kv.erase(k);
                } else {
                    // Short values make nodes that are inlined into their parents.
                    const Bytes v = value_of(rng(), 1 + rng() % (rng() % 2 ? 3 : 40));
                    u.put(k, v);
                    kv[k] = v;
                }
            }
            NodeChanges c;
            auto r = u.commit(c);
            ASSERT_TRUE(r.has_value()) << r.error();
            src.apply(c);
            root = *r;
            ASSERT_EQ(root, expected_root(kv)) << "round " << round << " batch " << batch;
            ASSERT_EQ(src.rows, rows_from_scratch(kv)) << "round " << round << " batch " << batch;
        }
    }
}

TEST(TrieUpdater, ShortKeysInlineNodes) {
    // 2-byte keys and 1-byte values: every leaf and most branches are shorter than 32 bytes.
    std::mt19937_64 rng(5);
    MapSource src;
    std::map<Bytes, Bytes> kv;
    Hash32 root = kEmptyRoot;
    for (int batch = 0; batch < 40; ++batch) {
        Updater u(src, root);
        for (int i = 0; i < 8; ++i) {
            const Bytes k{static_cast<std::uint8_t>(rng() % 4),
                          static_cast<std::uint8_t>(rng() % 6)};
            if (rng() % 3 == 0) {
                u.put(k, {});
                kv.erase(k);
            } else {
                const Bytes v{static_cast<std::uint8_t>(1 + rng() % 100)};
                u.put(k, v);
                kv[k] = v;
            }
        }
        NodeChanges c;
        auto r = u.commit(c);
        ASSERT_TRUE(r.has_value()) << r.error();
        src.apply(c);
        root = *r;
        ASSERT_EQ(root, expected_root(kv));
        ASSERT_EQ(src.rows, rows_from_scratch(kv));
    }
}

TEST(TrieUpdater, DamagedOrMissingRowIsReported) {
    MapSource src;
    std::map<Bytes, Bytes> kv;
    Updater build(src, kEmptyRoot);
    for (std::uint64_t i = 0; i < 200; ++i) build.put(key_of(i), value_of(i, 40));
    NodeChanges c;
    auto root = build.commit(c);
    ASSERT_TRUE(root.has_value());
    src.apply(c);

    // Damage the row of one child of the root.
    MapSource damaged = src;
    auto it = damaged.rows.begin();
    while (it->first.size() != 1) ++it;
    it->second.back() ^= 1;
    Updater u(damaged, *root);
    const Bytes k = key_of(0);
    for (std::uint64_t i = 0; i < 200; ++i) u.put(key_of(i), value_of(i + 1, 40));
    auto r = u.commit(c);
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().find("trie node at path 0x"), std::string::npos) << r.error();
    EXPECT_NE(r.error().find("its parent names"), std::string::npos) << r.error();

    MapSource missing = src;
    missing.rows.erase(Bytes{});
    Updater m(missing, *root);
    m.put(k, Bytes{1});
    auto r2 = m.commit(c);
    ASSERT_FALSE(r2.has_value());
    EXPECT_EQ(r2.error().rfind("trie node at path 0x missing", 0), 0u) << r2.error();
}

// A source that knows its nodes' hashes (a cache of nodes it hashed: hashed_node) saves the
// updater the hashing; the updater still compares each with the reference that names the node,
// and the hashes of what it writes come with the changes.
class HashedSource final : public NodeSource {
  public:
    explicit HashedSource(const MapSource& rows, bool wrong = false)
        : rows_(&rows), wrong_(wrong) {}
    std::optional<Bytes> node(BytesView path) const override { return rows_->node(path); }
    std::optional<Bytes> hashed_node(BytesView path, std::optional<Hash32>& hash) const override {
        auto n = rows_->node(path);
        if (n) {
            hash = crypto::keccak256(*n);
            if (wrong_) (*hash)[0] ^= 1;
            ++given;
        }
        return n;
    }
    mutable std::size_t given = 0;

  private:
    const MapSource* rows_;
    bool wrong_;
};

TEST(TrieUpdater, KnownHashesAreComparedNotRecomputed) {
    MapSource src;
    const Hash32 root = build_trie(src, 300);  // checks NodeChanges::write_hashes too

    auto update = [&](const NodeSource& from, NodeChanges& out) {
        Updater u(from, root);
        for (std::uint64_t i = 0; i < 300; i += 7) u.put(key_of(i), value_of(i + 5, 40));
        return u.commit(out);
    };
    NodeChanges plain_changes, hashed_changes, wrong_changes;
    auto plain = update(src, plain_changes);
    const HashedSource hashed(src);
    auto with_hashes = update(hashed, hashed_changes);
    ASSERT_TRUE(plain.has_value() && with_hashes.has_value());
    EXPECT_EQ(*plain, *with_hashes);
    EXPECT_EQ(plain_changes.writes, hashed_changes.writes);
    EXPECT_GT(hashed.given, 16u);

    const HashedSource wrong(src, true);  // a hash that does not name the node: refused
    auto refused = update(wrong, wrong_changes);
    ASSERT_FALSE(refused.has_value());
    EXPECT_NE(refused.error().find("its parent names"), std::string::npos) << refused.error();
}

TEST(TrieUpdater, CheckStoredWalksEveryRowAndFindsDamage) {
    MapSource src;
    Updater build(src, kEmptyRoot);
    for (std::uint64_t i = 0; i < 300; ++i) build.put(key_of(i), value_of(i, 1 + i % 40));
    NodeChanges c;
    auto root = build.commit(c);
    ASSERT_TRUE(root.has_value());
    src.apply(c);
    auto ok = check_stored(src, *root);
    ASSERT_TRUE(ok.has_value()) << ok.error();
    EXPECT_EQ(ok->leaves, 300u);
    EXPECT_EQ(ok->rows, src.rows.size());
    auto empty = check_stored(src, kEmptyRoot);
    ASSERT_TRUE(empty.has_value());
    EXPECT_EQ(empty->rows, 0u);

    MapSource damaged = src;
    damaged.rows.rbegin()->second[3] ^= 0x40;
    auto bad = check_stored(damaged, *root);
    ASSERT_FALSE(bad.has_value());
    EXPECT_NE(bad.error().find("its parent names"), std::string::npos) << bad.error();
}

// A proof's nodes chain by hash from the root, and the last one ends the key's path: walked back
// with the same rules a verifier uses (each node's keccak is named by its parent).
TEST(TrieUpdater, ProofsChainFromTheRoot) {
    MapSource src;
    const std::optional<Hash32> root = build_trie(src, 500);
    for (std::uint64_t i : {0ull, 7ull, 499ull, 100000ull}) {
        auto proof = prove(src, *root, key_of(i));
        ASSERT_TRUE(proof.has_value()) << proof.error();
        ASSERT_FALSE(proof->empty());
        EXPECT_EQ(crypto::keccak256(proof->front()), *root);
        for (std::size_t k = 1; k < proof->size(); ++k) {
            const Hash32 h = crypto::keccak256((*proof)[k]);
            const Bytes& parent = (*proof)[k - 1];
            // The child's hash appears in its parent's RLP.
            EXPECT_NE(std::search(parent.begin(), parent.end(), h.begin(), h.end()), parent.end());
        }
        if (i < 500) {
            // The value is in the last node (a leaf), and a proof of exclusion has no leaf for it.
            const Bytes v = value_of(i, 40);
            const Bytes& last = proof->back();
            EXPECT_NE(std::search(last.begin(), last.end(), v.begin(), v.end()), last.end());
        }
    }
    auto none = prove(src, kEmptyRoot, key_of(1));
    ASSERT_TRUE(none.has_value());
    EXPECT_TRUE(none->empty());
}

TEST(TrieUpdater, PackPathIsInjective) {
    EXPECT_EQ(pack_path({}), Bytes{0});
    EXPECT_EQ(pack_path(Bytes{0xa}), (Bytes{0xa0, 1}));
    EXPECT_EQ(pack_path(Bytes{0xa, 0}), (Bytes{0xa0, 2}));
    EXPECT_EQ(pack_path(Bytes{1, 2, 3}), (Bytes{0x12, 0x30, 3}));
    EXPECT_EQ(to_nibbles(Bytes{0xab, 0x01}), (Bytes{0xa, 0xb, 0, 1}));
}

}  // namespace
}  // namespace keel::trie
