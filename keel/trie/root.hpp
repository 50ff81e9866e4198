#pragma once
/// Merkle-Patricia trie roots computed in one pass, without a node database.
///
/// Spec: Ethereum yellow paper, appendix D ("Modified Merkle Patricia Tree"), and
/// ethereum.org/developers/docs/data-structures-and-encoding/patricia-merkle-trie. A trie over
/// key/value byte strings has three kinds of node, each an RLP list:
///   leaf       [HP(rest of key, t=1), value]
///   extension  [HP(shared nibbles, t=0), n(child)]
///   branch     [n(c0), ..., n(c15), value or empty string]
/// where HP is the hex-prefix encoding (YP app. C) and n(x) is the node's RLP itself when that is
/// shorter than 32 bytes (inlined into its parent) and its Keccak-256 otherwise (YP app. D, eq.
/// for n(J, i)). The root is Keccak-256 of the root node's RLP, even when that is short; the
/// root of the empty trie is Keccak-256(RLP("")) = kEmptyRoot.
///
/// RootBuilder takes the pairs in strictly increasing key order and keeps only the open path:
/// one frame per unfinished branch (at most 2 * key length + 1 of them) plus the last pair. A
/// node is hashed as soon as no later key can reach it, so the work is one encoding and at most
/// one Keccak per node, and memory does not grow with the number of pairs.
///
/// Values are stored as given: an empty value is a leaf holding the empty string (unlike a state
/// trie, where writing an empty value deletes the key). Ethereum's ordered lists (transactions,
/// receipts, withdrawals) never have empty values.
///
/// Threading: a RootBuilder is used by one thread at a time; the free functions are pure.
/// Errors: none on input; out-of-order keys are a programming error (KEEL_ASSERT).

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "keel/common/bytes.hpp"

namespace keel::trie {

/// Root of the empty trie: Keccak-256(0x80) (YP app. D: TRIE(∅) = KEC(RLP(""))).
inline constexpr Hash32 kEmptyRoot{{0x56, 0xe8, 0x1f, 0x17, 0x1b, 0xcc, 0x55, 0xa6,
                                    0xff, 0x83, 0x45, 0xe6, 0x92, 0xc0, 0xf8, 0x6e,
                                    0x5b, 0x48, 0xe0, 0x1b, 0x99, 0x6c, 0xad, 0xc0,
                                    0x01, 0x62, 0x2f, 0xb5, 0xe3, 0x63, 0xb4, 0x21}};

/// Builds the root of a trie from key/value pairs given in strictly increasing key order
/// (bytewise lexicographic; a key sorts before every key it is a prefix of).
///
/// Buffers are kept across tries: after root() (or reset()) the builder is empty and ready for
/// the next trie without allocating again until a longer key or value arrives. Copyable and
/// movable (a copy continues independently).
class RootBuilder {
  public:
    /// An empty builder (root() gives kEmptyRoot).
    RootBuilder() = default;

    /// Adds one pair. `key` must be greater than every key added since the last root()/reset()
    /// (asserted: equal or smaller keys abort). Both are copied as needed; the views need not
    /// outlive the call. Finishes and hashes every node the new key closes.
    void add(BytesView key, BytesView value);

    /// Number of pairs added since the last root()/reset().
    std::size_t size() const noexcept { return count_; }

    /// The root of every pair added since construction or the last root()/reset(). Leaves the
    /// builder empty (as reset() does) and keeps its buffers.
    Hash32 root();

    /// Forgets every pair, keeping the buffers.
    void reset() noexcept;

  private:
    /// n(x) of a finished node as it appears inside its parent: the node's RLP when shorter than
    /// 32 bytes, otherwise 0xa0 || Keccak-256(RLP) (the hash as a 32-byte RLP string).
    struct Ref {
        std::array<std::uint8_t, 33> bytes{};
        std::uint8_t size = 0;
        BytesView view() const noexcept { return {bytes.data(), size}; }
    };

    /// An unfinished branch node at nibble depth `depth` of the previous key.
    struct Frame {
        std::size_t depth = 0;
        std::uint16_t used = 0;  ///< bit i: child slot i is filled
        bool has_value = false;
        std::array<Ref, 16> children;
        Bytes value;  ///< reused; valid when has_value
    };

    Frame& push_frame(std::size_t depth);
    void place_pending(Frame& f);
    void close_top(std::size_t parent_depth, bool force_hash, Ref& out);
    void leaf_ref(std::size_t from_nibble, bool force_hash, Ref& out);
    void branch_ref(const Frame& f, bool force_hash, Ref& out);
    void extension_ref(std::size_t from_nibble, std::size_t to_nibble, const Ref& child,
                       bool force_hash, Ref& out);
    void finish(BytesView rlp, bool force_hash, Ref& out) const noexcept;
    std::uint8_t* scratch(std::size_t n);
    std::size_t write_hp(std::uint8_t* p, std::size_t from, std::size_t to,
                         bool leaf) const noexcept;

    std::vector<Frame> frames_;  ///< frames_[0 .. open_) are the open branches, depth ascending
    std::size_t open_ = 0;
    std::size_t count_ = 0;
    Bytes prev_key_;    ///< the last key added (its leaf is not placed yet)
    Bytes prev_value_;  ///< its value
    Bytes scratch_;     ///< node encodings, reused
};

/// Writes the key RLP(index) of position `index` of an ordered list into `out` (at least 9
/// bytes) and returns its length: the keys of the transactions, receipts and withdrawals tries
/// (YP §4.3.2 / §4.4.4, EIP-4895).
std::size_t index_key(std::size_t index, std::uint8_t* out) noexcept;

/// Calls `visit(i)` for i in 0..n-1 in the byte order of their keys RLP(i):
/// 1..127 (single bytes 0x01..0x7f), then 0 (0x80), then 128.. (0x81.., 0x82.., ...).
template <class Visit>
void for_each_index_in_key_order(std::size_t n, Visit&& visit) {
    for (std::size_t i = 1; i < n && i < 0x80; ++i) visit(i);
    if (n > 0) visit(std::size_t{0});
    for (std::size_t i = 0x80; i < n; ++i) visit(i);
}

/// Root of the trie mapping RLP(i) to value_at(i) for i in 0..n-1: the transactions, receipts
/// and withdrawals roots of a block. `value_at(i)` returns something convertible to BytesView
/// (it may point into a buffer that the next call reuses). Each index is visited once, in key
/// order (see for_each_index_in_key_order), not in 0..n-1 order.
template <class F>
    requires std::convertible_to<std::invoke_result_t<F&, std::size_t>, BytesView>
Hash32 ordered_root(std::size_t n, F value_at, RootBuilder& builder) {
    builder.reset();
    std::uint8_t key[9];
    for_each_index_in_key_order(n, [&](std::size_t i) {
        const std::size_t k = index_key(i, key);
        builder.add(BytesView{key, k}, BytesView(value_at(i)));
    });
    return builder.root();
}

/// As above with a fresh builder.
template <class F>
    requires std::convertible_to<std::invoke_result_t<F&, std::size_t>, BytesView>
Hash32 ordered_root(std::size_t n, F value_at) {
    RootBuilder builder;
    return ordered_root(n, std::move(value_at), builder);
}

/// Root of the ordered list `values` (keys RLP(0), RLP(1), ...).
Hash32 ordered_root(std::span<const BytesView> values);

/// Root of an unordered set of pairs: sorts them by key (the vector is taken by value and
/// sorted in place). When a key appears more than once the last occurrence in `kv` wins, as if
/// the pairs were written one after another into a trie.
Hash32 root_of(std::vector<std::pair<Bytes, Bytes>> kv);

}  // namespace keel::trie
