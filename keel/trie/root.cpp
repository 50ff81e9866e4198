#include "keel/trie/root.hpp"

#include <algorithm>
#include <cstring>

#include "keel/common/assert.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::trie {

namespace {

/// Nibble i of `key` (YP app. D: keys are read as sequences of 4-bit nibbles, high first).
inline std::uint8_t nibble(const Bytes& key, std::size_t i) noexcept {
    const std::uint8_t b = key[i / 2];
    return (i & 1) ? static_cast<std::uint8_t>(b & 0x0f) : static_cast<std::uint8_t>(b >> 4);
}

/// Length, in nibbles, of the longest common prefix of a and b.
std::size_t common_nibbles(BytesView a, BytesView b) noexcept {
    const std::size_t n = std::min(a.size(), b.size());
    const auto diff =
        std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n), b.begin());
    const auto i = static_cast<std::size_t>(diff.first - a.begin());
    if (i == n) return 2 * n;
    return 2 * i + ((a[i] >> 4) == (b[i] >> 4) ? 1 : 0);
}

/// Bytewise lexicographic a < b (memcmp on the shared length; g++ 12 warns falsely about the
/// std::vector operator<).
bool bytes_less(BytesView a, BytesView b) noexcept {
    const std::size_t n = std::min(a.size(), b.size());
    const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
    return c < 0 || (c == 0 && a.size() < b.size());
}

/// Writes an RLP header for a payload of `len` bytes (base 0x80: string, 0xc0: list) and returns
/// its size (YP app. B, R_b and R_l).
inline std::size_t put_header(std::uint8_t* p, std::size_t len, std::uint8_t base) noexcept {
    if (len < 56) {
        p[0] = static_cast<std::uint8_t>(base + len);
        return 1;
    }
    const std::size_t k = rlp::be_length(len);
    p[0] = static_cast<std::uint8_t>(base + 55 + k);
    for (std::size_t i = 0; i < k; ++i)
        p[1 + i] = static_cast<std::uint8_t>(len >> (8 * (k - 1 - i)));
    return 1 + k;
}

/// Writes the RLP string of `s` (a single byte below 0x80 as itself) and returns its size.
inline std::size_t put_string(std::uint8_t* p, BytesView s) noexcept {
    if (s.size() == 1 && s[0] < 0x80) {
        p[0] = s[0];
        return 1;
    }
    const std::size_t h = put_header(p, s.size(), 0x80);
    if (!s.empty()) std::memcpy(p + h, s.data(), s.size());
    return h + s.size();
}

}  // namespace

std::uint8_t* RootBuilder::scratch(std::size_t n) {
    if (scratch_.size() < n) scratch_.resize(std::max(n, 2 * scratch_.size()));
    return scratch_.data();
}

// YP app. C, hex-prefix encoding HP(x, t): the flag nibble is 2t + (|x| mod 2); an odd-length path
// carries its first nibble in the low half of the first byte, an even one pads it with zero.
// Writes the HP bytes of nibbles [from, to) of the previous key; returns their count, which is
// (to - from) / 2 + 1.
std::size_t RootBuilder::write_hp(std::uint8_t* p, std::size_t from, std::size_t to,
                                  bool leaf) const noexcept {
    std::uint8_t first = leaf ? 0x20 : 0x00;
    if ((to - from) & 1) {
        first = static_cast<std::uint8_t>(first | 0x10 | nibble(prev_key_, from));
        ++from;
    }
    p[0] = first;
    std::size_t n = 1;
    if ((from & 1) == 0) {
        // Byte-aligned: the remaining nibble pairs are whole key bytes.
        const std::size_t bytes = (to - from) / 2;
        if (bytes != 0) std::memcpy(p + 1, prev_key_.data() + from / 2, bytes);
        return 1 + bytes;
    }
    for (std::size_t i = from; i < to; i += 2) {
        p[n++] = static_cast<std::uint8_t>(nibble(prev_key_, i) << 4 | nibble(prev_key_, i + 1));
    }
    return n;
}

// YP app. D, n(J, i): a node whose RLP is under 32 bytes is inlined into its parent, otherwise the
// parent holds its Keccak-256 (as a 32-byte string, 0xa0 || hash). The root is always hashed.
void RootBuilder::finish(BytesView rlp, bool force_hash, Ref& out) const noexcept {
    if (rlp.size() < 32 && !force_hash) {
        std::memcpy(out.bytes.data(), rlp.data(), rlp.size());
        out.size = static_cast<std::uint8_t>(rlp.size());
        return;
    }
    const Hash32 h = crypto::keccak256(rlp);
    out.bytes[0] = 0xa0;
    std::memcpy(out.bytes.data() + 1, h.data(), 32);
    out.size = 33;
}

// Leaf node [HP(nibbles [from, end) of the previous key, t=1), value] (YP app. D, c(J, i) case
// |J| = 1).
void RootBuilder::leaf_ref(std::size_t from_nibble, bool force_hash, Ref& out) {
    const std::size_t to = 2 * prev_key_.size();
    const std::size_t hp_len = (to - from_nibble) / 2 + 1;
    const std::size_t hp_item = hp_len == 1 ? 1 : rlp::header_length(hp_len) + hp_len;
    const std::size_t payload = hp_item + rlp::string_length(prev_value_);
    std::uint8_t* p = scratch(rlp::list_length(payload));
    std::size_t n = put_header(p, payload, 0xc0);
    if (hp_len == 1) {
        n += write_hp(p + n, from_nibble, to, true);  // one byte <= 0x3f: its own encoding
    } else {
        n += put_header(p + n, hp_len, 0x80);
        n += write_hp(p + n, from_nibble, to, true);
    }
    n += put_string(p + n, prev_value_);
    finish({p, n}, force_hash, out);
}

// Extension node [HP(nibbles [from, to) of the previous key, t=0), n(child)] (YP app. D: the
// shared nibbles of every key below, then the branch that follows them).
void RootBuilder::extension_ref(std::size_t from_nibble, std::size_t to_nibble, const Ref& child,
                                bool force_hash, Ref& out) {
    const std::size_t hp_len = (to_nibble - from_nibble) / 2 + 1;
    const std::size_t hp_item = hp_len == 1 ? 1 : rlp::header_length(hp_len) + hp_len;
    const std::size_t payload = hp_item + child.size;
    std::uint8_t* p = scratch(rlp::list_length(payload));
    std::size_t n = put_header(p, payload, 0xc0);
    if (hp_len != 1) n += put_header(p + n, hp_len, 0x80);
    n += write_hp(p + n, from_nibble, to_nibble, false);
    std::memcpy(p + n, child.bytes.data(), child.size);
    n += child.size;
    finish({p, n}, force_hash, out);
}

// Branch node [n(c0), ..., n(c15), value] with the empty string for an empty slot or no value
// (YP app. D, c(J, i) branch case).
void RootBuilder::branch_ref(const Frame& f, bool force_hash, Ref& out) {
    std::size_t payload = f.has_value ? rlp::string_length(f.value) : 1;
    for (unsigned i = 0; i < 16; ++i) payload += (f.used >> i & 1) ? f.children[i].size : 1;
    std::uint8_t* p = scratch(rlp::list_length(payload));
    std::size_t n = put_header(p, payload, 0xc0);
    for (unsigned i = 0; i < 16; ++i) {
        if (f.used >> i & 1) {
            std::memcpy(p + n, f.children[i].bytes.data(), f.children[i].size);
            n += f.children[i].size;
        } else {
            p[n++] = 0x80;
        }
    }
    if (f.has_value) {
        n += put_string(p + n, f.value);
    } else {
        p[n++] = 0x80;
    }
    finish({p, n}, force_hash, out);
}

RootBuilder::Frame& RootBuilder::push_frame(std::size_t depth) {
    if (open_ == frames_.size()) frames_.emplace_back();
    Frame& f = frames_[open_++];
    f.depth = depth;
    f.used = 0;
    f.has_value = false;
    return f;
}

// The previous key's leaf goes into the deepest open branch, below the slot of its next nibble.
// Every open branch lies on the previous key's path, and sits shallower than its end.
void RootBuilder::place_pending(Frame& f) {
    const std::uint8_t slot = nibble(prev_key_, f.depth);
    leaf_ref(f.depth + 1, false, f.children[slot]);
    f.used = static_cast<std::uint16_t>(f.used | (1u << slot));
}

// Finishes the top branch as a child of a branch at `parent_depth`: the branch, behind an
// extension over the nibbles strictly between the two when there are any.
void RootBuilder::close_top(std::size_t parent_depth, bool force_hash, Ref& out) {
    const Frame& top = frames_[open_ - 1];
    if (top.depth == parent_depth + 1) {
        branch_ref(top, force_hash, out);
        return;
    }
    Ref branch;
    branch_ref(top, false, branch);
    extension_ref(parent_depth + 1, top.depth, branch, force_hash, out);
}

void RootBuilder::add(BytesView key, BytesView value) {
    if (count_ == 0) {
        prev_key_.assign(key.begin(), key.end());
        prev_value_.assign(value.begin(), value.end());
        count_ = 1;
        return;
    }
    // Strictly increasing keys: the previous key must sort before this one.
    KEEL_ASSERT(bytes_less(prev_key_, key));

    // The new key leaves the previous key's path after `split` nibbles: a branch at that depth
    // has both below it, and every open branch deeper than it is complete.
    const std::size_t split = common_nibbles(prev_key_, key);
    if (open_ == 0 || frames_[open_ - 1].depth < split) {
        Frame& f = push_frame(split);
        if (2 * prev_key_.size() == split) {
            // The previous key ends at the branch: it is the branch's value.
            f.has_value = true;
            f.value.assign(prev_value_.begin(), prev_value_.end());
        } else {
            place_pending(f);
        }
    } else {
        place_pending(frames_[open_ - 1]);
        while (frames_[open_ - 1].depth > split) {
            Ref r;
            if (open_ >= 2 && frames_[open_ - 2].depth >= split) {
                // The branch below takes the finished one.
                const std::size_t parent = frames_[open_ - 2].depth;
                close_top(parent, false, r);
                --open_;
                Frame& p = frames_[open_ - 1];
                const std::uint8_t slot = nibble(prev_key_, parent);
                p.children[slot] = r;
                p.used = static_cast<std::uint16_t>(p.used | (1u << slot));
            } else {
                // A new branch at `split` goes between: it reuses the finished frame.
                close_top(split, false, r);
                Frame& f = frames_[open_ - 1];
                f.depth = split;
                f.has_value = false;
                const std::uint8_t slot = nibble(prev_key_, split);
                f.children[slot] = r;
                f.used = static_cast<std::uint16_t>(1u << slot);
            }
        }
    }
    prev_key_.assign(key.begin(), key.end());
    prev_value_.assign(value.begin(), value.end());
    ++count_;
}

Hash32 RootBuilder::root() {
    if (count_ == 0) return kEmptyRoot;
    Ref r;
    if (open_ == 0) {
        leaf_ref(0, true, r);  // one pair: the root is a leaf holding the whole key
    } else {
        place_pending(frames_[open_ - 1]);
        while (open_ > 1) {
            const std::size_t parent = frames_[open_ - 2].depth;
            Ref child;
            close_top(parent, false, child);
            --open_;
            Frame& p = frames_[open_ - 1];
            const std::uint8_t slot = nibble(prev_key_, parent);
            p.children[slot] = child;
            p.used = static_cast<std::uint16_t>(p.used | (1u << slot));
        }
        const Frame& bottom = frames_[0];
        if (bottom.depth == 0) {
            branch_ref(bottom, true, r);
        } else {
            Ref branch;
            branch_ref(bottom, false, branch);
            extension_ref(0, bottom.depth, branch, true, r);
        }
    }
    reset();
    Hash32 out;
    std::memcpy(out.data(), r.bytes.data() + 1, 32);
    return out;
}

void RootBuilder::reset() noexcept {
    open_ = 0;
    count_ = 0;
    prev_key_.clear();
    prev_value_.clear();
}

std::size_t index_key(std::size_t index, std::uint8_t* out) noexcept {
    if (index == 0) {
        out[0] = 0x80;
        return 1;
    }
    if (index < 0x80) {
        out[0] = static_cast<std::uint8_t>(index);
        return 1;
    }
    const std::size_t k = rlp::be_length(index);
    out[0] = static_cast<std::uint8_t>(0x80 + k);
    for (std::size_t i = 0; i < k; ++i)
        out[1 + i] = static_cast<std::uint8_t>(index >> (8 * (k - 1 - i)));
    return 1 + k;
}

Hash32 ordered_root(std::span<const BytesView> values) {
    return ordered_root(values.size(), [&](std::size_t i) { return values[i]; });
}

Hash32 root_of(std::vector<std::pair<Bytes, Bytes>> kv) {
    // Sort positions by (key, position) so that, of equal keys, the last written comes last.
    // (std::stable_sort would do, but libstdc++ 12's uses an API clang 19 marks deprecated.)
    std::vector<std::size_t> order(kv.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (bytes_less(kv[a].first, kv[b].first)) return true;
        if (bytes_less(kv[b].first, kv[a].first)) return false;
        return a < b;
    });
    RootBuilder builder;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto& [key, value] = kv[order[i]];
        // Of equal keys only the last occurrence counts.
        if (i + 1 < order.size() && !bytes_less(key, kv[order[i + 1]].first)) continue;
        builder.add(key, value);
    }
    return builder.root();
}

}  // namespace keel::trie
