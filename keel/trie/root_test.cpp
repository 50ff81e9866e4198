#include "keel/trie/root.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/encode.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::trie {
namespace {

using testutil::from_hex;
using testutil::hex_of;

// Bytewise lexicographic order (memcmp; g++ 12 warns falsely about std::vector's operator<).
struct BytesLess {
    bool operator()(BytesView a, BytesView b) const noexcept {
        const std::size_t n = std::min(a.size(), b.size());
        const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
        return c < 0 || (c == 0 && a.size() < b.size());
    }
};

Bytes bytes_of(std::string_view s) {
    const BytesView v = as_bytes(s);
    return {v.begin(), v.end()};
}

// ---------------------------------------------------------------------------------------------
// Reference: the yellow paper's definition (appendix D) written as directly as possible, with
// whole node sets and recursion, and nothing shared with root.cpp.
//   c(J, i): |J| = 1 -> leaf; all keys share nibbles [i, j) with j > i -> extension to n(J, j);
//            otherwise a branch over the 16 next nibbles, valued with the key that ends at i.
//   n(J, i): empty -> the empty string; RLP(c(J, i)) when shorter than 32 bytes; else its hash.
// ---------------------------------------------------------------------------------------------

using Nibbles = std::vector<std::uint8_t>;
struct RefPair {
    Nibbles key;
    Bytes value;
};

Nibbles to_nibbles(BytesView key) {
    Nibbles out;
    for (std::uint8_t b : key) {
        out.push_back(static_cast<std::uint8_t>(b >> 4));
        out.push_back(static_cast<std::uint8_t>(b & 15));
    }
    return out;
}

// YP app. C.
Bytes ref_hex_prefix(const Nibbles& x, std::size_t from, std::size_t to, bool leaf) {
    Bytes out;
    const std::size_t n = to - from;
    const unsigned flag = (leaf ? 2u : 0u) + (n % 2);
    std::size_t i = from;
    if (n % 2 == 1) {
        out.push_back(static_cast<std::uint8_t>(flag << 4 | x[i]));
        ++i;
    } else {
        out.push_back(static_cast<std::uint8_t>(flag << 4));
    }
    for (; i < to; i += 2) out.push_back(static_cast<std::uint8_t>(x[i] << 4 | x[i + 1]));
    return out;
}

Bytes ref_node(const std::vector<RefPair>& j, std::size_t i);

// n(J, i) as it appears inside the parent's RLP list.
void ref_add_ref(rlp::Encoder& e, const std::vector<RefPair>& j, std::size_t i) {
    if (j.empty()) {
        e.add_string({});
        return;
    }
    const Bytes node = ref_node(j, i);
    if (node.size() < 32) {
        e.add_raw(node);
    } else {
        e.add_string(crypto::keccak256(node).view());
    }
}

Bytes ref_node(const std::vector<RefPair>& j, std::size_t i) {
    rlp::Encoder e;
    if (j.size() == 1) {
        auto m = e.begin_list();
        e.add_string(ref_hex_prefix(j[0].key, i, j[0].key.size(), true));
        e.add_string(j[0].value);
        e.end_list(m);
        return e.take();
    }
    // Longest prefix beyond i shared by every key.
    std::size_t end = i;
    for (;;) {
        bool all = true;
        for (const auto& p : j) {
            if (p.key.size() <= end || p.key[end] != j[0].key[end]) {
                all = false;
                break;
            }
        }
        if (!all) break;
        ++end;
    }
    if (end > i) {
        auto m = e.begin_list();
        e.add_string(ref_hex_prefix(j[0].key, i, end, false));
        ref_add_ref(e, j, end);
        e.end_list(m);
        return e.take();
    }
    auto m = e.begin_list();
    for (std::uint8_t u = 0; u < 16; ++u) {
        std::vector<RefPair> sub;
        for (const auto& p : j)
            if (p.key.size() > i && p.key[i] == u) sub.push_back(p);
        ref_add_ref(e, sub, i + 1);
    }
    Bytes value;
    for (const auto& p : j)
        if (p.key.size() == i) value = p.value;
    e.add_string(value);
    e.end_list(m);
    return e.take();
}

// TRIE(J) = KEC(RLP(c(J, 0))), and KEC(RLP("")) for the empty set. Later pairs replace earlier
// ones with the same key.
Hash32 ref_root(const std::vector<std::pair<Bytes, Bytes>>& kv) {
    std::map<Bytes, Bytes, BytesLess> m;
    for (const auto& [k, v] : kv) m[k] = v;
    if (m.empty()) {
        const std::uint8_t empty[] = {0x80};
        return crypto::keccak256(empty);
    }
    std::vector<RefPair> j;
    for (const auto& [k, v] : m) j.push_back({to_nibbles(k), v});
    return crypto::keccak256(ref_node(j, 0));
}

Hash32 builder_root(std::vector<std::pair<Bytes, Bytes>> kv) {
    std::sort(kv.begin(), kv.end(),
              [](const auto& a, const auto& b) { return BytesLess{}(a.first, b.first); });
    RootBuilder b;
    for (const auto& [k, v] : kv) b.add(k, v);
    EXPECT_EQ(b.size(), kv.size());
    return b.root();
}

// ---------------------------------------------------------------------------------------------

TEST(TrieRoot, EmptyRoot) {
    const std::uint8_t rlp_empty[] = {0x80};
    EXPECT_EQ(kEmptyRoot, crypto::keccak256(rlp_empty));
    EXPECT_EQ(hex_of(kEmptyRoot),
              "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421");
    RootBuilder b;
    EXPECT_EQ(b.root(), kEmptyRoot);
    EXPECT_EQ(ordered_root(0, [](std::size_t) { return BytesView{}; }), kEmptyRoot);
    EXPECT_EQ(ordered_root(std::span<const BytesView>{}), kEmptyRoot);
    EXPECT_EQ(root_of({}), kEmptyRoot);
}

// Known answers from the Ethereum trie test suite (ethereum/tests TrieTests trieanyorder.json and
// the go-ethereum trie tests), keys and values as ASCII unless marked hex.
TEST(TrieRoot, KnownAnswers) {
    struct Row {
        const char* name;
        std::vector<std::pair<std::string, std::string>> kv;
        bool hex;
        const char* root;
    };
    const std::string a50(50, 'a');
    const std::vector<Row> rows = {
        {"singleItem",
         {{"A", a50}},
         false,
         "d23786fb4a010da3ce639d66d5e904a11dbc02746d1ce25029e53290cabf28ab"},
        {"basic1",
         {{"test", "test"}},
         false,
         "85d106d4edff3b7a4889e91251d0a87d7c17a1dda648ebdba8c6060825be23b8"},
        {"basic",
         {{"a", "A"}, {"b", "B"}},
         false,
         "300eab197a9d9e437aaeb9b0d7bd77d57e8d4e3eeca0b1e6a3fe28a84e2cd70c"},
        {"dogs",
         {{"doe", "reindeer"}, {"dog", "puppy"}, {"dogglesworth", "cat"}},
         false,
         "8aad789dff2f538bca5d8ea56e8abe10f4c7ba3a5dea95fea4cd6e7c3a1168d3"},
        {"puppy",
         {{"do", "verb"}, {"horse", "stallion"}, {"doge", "coin"}, {"dog", "puppy"}},
         false,
         "5991bb8c6514148a29db676a14ac506cd2cd5775ace63c30a4fe457715e9ac84"},
        {"foo",
         {{"foo", "bar"}, {"food", "bass"}},
         false,
         "17beaa1648bafa633cda809c90c04af50fc8aed3cb40d16efbddee6fdf63c4c3"},
        {"smallValues",
         {{"be", "e"}, {"dog", "puppy"}, {"bed", "d"}},
         false,
         "3f67c7a47520f79faa29255d2d3c084a7a6df0453116ed7232ff10277a8be68b"},
        {"testy",
         {{"test", "test"}, {"te", "testy"}},
         false,
         "8452568af70d8d140f58d941338542f645fcca50094b20f3c3d8c3df49337928"},
        {"hex",
         {{"0045", "0123456789"}, {"4500", "9876543210"}},
         true,
         "285505fcabe84badc8aa310e2aae17eddc7d120aabec8a476902c8184b3a3503"},
    };
    for (const Row& row : rows) {
        SCOPED_TRACE(row.name);
        std::vector<std::pair<Bytes, Bytes>> kv;
        for (const auto& [k, v] : row.kv) {
            if (row.hex) {
                kv.emplace_back(from_hex(k), from_hex(v));
            } else {
                kv.emplace_back(bytes_of(k), bytes_of(v));
            }
        }
        EXPECT_EQ(hex_of(root_of(kv)), row.root);
        EXPECT_EQ(hex_of(builder_root(kv)), row.root);
        EXPECT_EQ(hex_of(ref_root(kv)), row.root);  // the reference agrees with the suite too
    }
}

// The "secure" variant hashes the keys first (state and storage tries): keccak(key) as the key.
TEST(TrieRoot, KnownAnswerSecureKeys) {
    std::vector<std::pair<Bytes, Bytes>> kv;
    for (auto [k, v] : {std::pair<std::string_view, std::string_view>{"doe", "reindeer"},
                        {"dog", "puppy"},
                        {"dogglesworth", "cat"}}) {
        const Hash32 h = crypto::keccak256(as_bytes(k));
        kv.emplace_back(Bytes(h.begin(), h.end()), bytes_of(v));
    }
    EXPECT_EQ(hex_of(root_of(kv)),
              "d4cd937e4a4368d7931a9cf51686b7e10abb3dce38a39000fd7902a092b64585");
}

// Shapes one at a time, each checked against the reference: a single short leaf (inlined RLP
// under 32 bytes, still hashed at the root), a key that is a prefix of another (branch value),
// the empty key, keys sharing odd and even numbers of nibbles, long values (long RLP headers).
TEST(TrieRoot, Shapes) {
    const std::vector<std::vector<std::pair<std::string, std::string>>> cases = {
        {{"k", "v"}},
        {{"", "empty key"}},
        {{"", "a"}, {"\x01", "b"}},
        {{"a", "1"}, {"ab", "2"}, {"abc", "3"}},
        {{"ab", "x"}, {"ac", "y"}},      // share one byte: extension of 2 nibbles
        {{"\x10", "x"}, {"\x11", "y"}},  // share one nibble: extension of 1 nibble
        {{"\x10\x00", "x"}, {"\x10\x01", "y"}, {"\x20", "z"}},
        {{"abc", std::string(31, 'v')}, {"abd", std::string(32, 'w')}},
        {{"key", std::string(100, 'q')}, {"kez", std::string(1000, 'r')}},
        {{"x", ""}, {"xy", ""}},  // empty values stay (leaf with the empty string)
    };
    for (const auto& c : cases) {
        std::vector<std::pair<Bytes, Bytes>> kv;
        for (const auto& [k, v] : c) kv.emplace_back(bytes_of(k), bytes_of(v));
        SCOPED_TRACE(hex::encode(kv.front().first) + " x" + std::to_string(kv.size()));
        EXPECT_EQ(hex_of(builder_root(kv)), hex_of(ref_root(kv)));
    }
}

TEST(TrieRoot, RootOfSortsAndLastDuplicateWins) {
    std::vector<std::pair<Bytes, Bytes>> kv = {
        {bytes_of("dog"), bytes_of("cat")},
        {bytes_of("horse"), bytes_of("stallion")},
        {bytes_of("do"), bytes_of("verb")},
        {bytes_of("dog"), bytes_of("puppy")},  // replaces "cat"
        {bytes_of("doge"), bytes_of("coin")},
    };
    EXPECT_EQ(hex_of(root_of(kv)),
              "5991bb8c6514148a29db676a14ac506cd2cd5775ace63c30a4fe457715e9ac84");
}

TEST(TrieRoot, BuilderIsReusableAfterRoot) {
    RootBuilder b;
    b.add(as_bytes("doe"), as_bytes("reindeer"));
    b.add(as_bytes("dog"), as_bytes("puppy"));
    b.add(as_bytes("dogglesworth"), as_bytes("cat"));
    EXPECT_EQ(hex_of(b.root()), "8aad789dff2f538bca5d8ea56e8abe10f4c7ba3a5dea95fea4cd6e7c3a1168d3");
    EXPECT_EQ(b.size(), 0u);
    EXPECT_EQ(b.root(), kEmptyRoot);
    // A smaller first key than last time is fine after root().
    b.add(as_bytes("A"), as_bytes(std::string(50, 'a')));
    EXPECT_EQ(hex_of(b.root()), "d23786fb4a010da3ce639d66d5e904a11dbc02746d1ce25029e53290cabf28ab");
    b.add(as_bytes("zzz"), as_bytes("1"));
    b.reset();
    b.add(as_bytes("a"), as_bytes("A"));
    b.add(as_bytes("b"), as_bytes("B"));
    EXPECT_EQ(hex_of(b.root()), "300eab197a9d9e437aaeb9b0d7bd77d57e8d4e3eeca0b1e6a3fe28a84e2cd70c");
}

TEST(TrieRootDeathTest, KeysOutOfOrderAbort) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            RootBuilder b;
            b.add(as_bytes("b"), as_bytes("1"));
            b.add(as_bytes("a"), as_bytes("2"));
        },
        "assertion failed");
    EXPECT_DEATH(
        {
            RootBuilder b;
            b.add(as_bytes("a"), as_bytes("1"));
            b.add(as_bytes("a"), as_bytes("2"));
        },
        "assertion failed");
}

TEST(TrieRoot, IndexKeysAndTheirOrder) {
    std::uint8_t k[9];
    const auto key = [&](std::size_t i) { return hex::encode(BytesView{k, index_key(i, k)}); };
    EXPECT_EQ(key(0), "80");
    EXPECT_EQ(key(1), "01");
    EXPECT_EQ(key(127), "7f");
    EXPECT_EQ(key(128), "8180");
    EXPECT_EQ(key(255), "81ff");
    EXPECT_EQ(key(256), "820100");
    EXPECT_EQ(key(0x1000000), "8401000000");

    for (std::size_t n : {0u, 1u, 2u, 127u, 128u, 129u, 300u, 70000u}) {
        std::vector<Bytes> keys;
        std::vector<bool> seen(n, false);
        for_each_index_in_key_order(n, [&](std::size_t i) {
            ASSERT_LT(i, n);
            EXPECT_FALSE(seen[i]);
            seen[i] = true;
            keys.emplace_back(k, k + index_key(i, k));
        });
        EXPECT_EQ(keys.size(), n);
        for (std::size_t i = 1; i < keys.size(); ++i) {
            ASSERT_TRUE(BytesLess{}(keys[i - 1], keys[i])) << n << " at " << i;
        }
    }
}

TEST(TrieRoot, OrderedRootMatchesReference) {
    std::mt19937_64 rng(7);
    RootBuilder reused;
    for (std::size_t n : {1u, 2u, 3u, 16u, 17u, 127u, 128u, 129u, 200u, 256u, 300u}) {
        SCOPED_TRACE(n);
        std::vector<Bytes> values(n);
        for (auto& v : values) {
            v.resize(1 + rng() % 120);
            for (auto& b : v) b = static_cast<std::uint8_t>(rng());
        }
        std::vector<std::pair<Bytes, Bytes>> kv;
        std::vector<BytesView> views;
        std::uint8_t k[9];
        for (std::size_t i = 0; i < n; ++i) {
            kv.emplace_back(Bytes(k, k + index_key(i, k)), values[i]);
            views.push_back(values[i]);
        }
        const Hash32 want = ref_root(kv);
        EXPECT_EQ(ordered_root(views), want);
        EXPECT_EQ(ordered_root(n, [&](std::size_t i) { return BytesView(values[i]); }), want);
        EXPECT_EQ(
            ordered_root(n, [&](std::size_t i) { return BytesView(values[i]); }, reused), want);
        EXPECT_EQ(root_of(kv), want);
    }
}

// The value callback may hand out a buffer that it overwrites on the next call.
TEST(TrieRoot, OrderedRootWithReusedValueBuffer) {
    std::vector<Bytes> values;
    for (std::size_t i = 0; i < 150; ++i) values.push_back(Bytes(40 + i % 7, std::uint8_t(i)));
    Bytes buffer;
    const Hash32 got = ordered_root(values.size(), [&](std::size_t i) {
        buffer.assign(values[i].begin(), values[i].end());
        return BytesView(buffer);
    });
    std::vector<BytesView> views(values.begin(), values.end());
    EXPECT_EQ(got, ordered_root(views));
}

// Random key sets built so that keys share prefixes and are prefixes of each other: keys are
// drawn from a small alphabet, some are cut from others, lengths 0..8 bytes; values cross the
// 32-byte inlining boundary and the 56-byte long-header boundary.
TEST(TrieRoot, DifferentialAgainstReference) {
    std::mt19937_64 rng(20240601);
    const std::uint8_t alphabet[] = {0x00, 0x01, 0x0f, 0x10, 0x11, 0x7f, 0x80, 0xf0, 0xff};
    std::size_t checked = 0;
    for (int round = 0; round < 600; ++round) {
        const std::size_t n = rng() % (round < 300 ? 12 : 80);
        std::vector<std::pair<Bytes, Bytes>> kv;
        for (std::size_t i = 0; i < n; ++i) {
            Bytes key;
            if (!kv.empty() && rng() % 4 == 0) {
                const Bytes& other = kv[rng() % kv.size()].first;  // a prefix or an extension
                key.assign(other.begin(),
                           other.begin() + static_cast<std::ptrdiff_t>(rng() % (other.size() + 1)));
                const std::size_t extra = rng() % 3;
                for (std::size_t j = 0; j < extra; ++j)
                    key.push_back(alphabet[rng() % std::size(alphabet)]);
            } else {
                const std::size_t len = rng() % 9;
                for (std::size_t j = 0; j < len; ++j) {
                    key.push_back(rng() % 3 == 0 ? static_cast<std::uint8_t>(rng())
                                                 : alphabet[rng() % std::size(alphabet)]);
                }
            }
            Bytes value(rng() % 4 == 0 ? rng() % 80 : rng() % 6);
            for (auto& b : value) b = static_cast<std::uint8_t>(rng() % 3 == 0 ? rng() : 0x41);
            kv.emplace_back(std::move(key), std::move(value));
        }
        const Hash32 want = ref_root(kv);
        ASSERT_EQ(hex_of(root_of(kv)), hex_of(want)) << "round " << round;
        ++checked;
    }
    EXPECT_EQ(checked, 600u);
}

// 32-byte keys (hashed keys, as in state tries) and many pairs: long shared prefixes are rare,
// the branch fan-out is wide.
TEST(TrieRoot, DifferentialHashedKeys) {
    for (std::size_t n : {1u, 2u, 10u, 100u, 1000u}) {
        std::vector<std::pair<Bytes, Bytes>> kv;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint8_t in[] = {static_cast<std::uint8_t>(i),
                                       static_cast<std::uint8_t>(i >> 8)};
            const Hash32 h = crypto::keccak256(in);
            kv.emplace_back(Bytes(h.begin(), h.end()),
                            Bytes(1 + i % 70, static_cast<std::uint8_t>(i)));
        }
        EXPECT_EQ(hex_of(root_of(kv)), hex_of(ref_root(kv))) << n;
    }
}

}  // namespace
}  // namespace keel::trie
