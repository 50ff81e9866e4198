#pragma once
/// Codecs of Bitvector[N] and Bitlist[N] (consensus-specs ssz/simple-serialize.md,
/// "Bitvector[N]", "Bitlist[N]"): bits packed little-endian into bytes. A Bitvector's unused
/// high bits must be zero; a Bitlist ends with a delimiter bit just above its last bit, which
/// the decoded value does not keep. Roots pack the bits into chunks (limit (N + 255) / 256);
/// a Bitlist mixes in its bit length.

#include <bit>
#include <cstring>
#include <new>
#include <span>
#include <string>

#include "keel/common/assert.hpp"
#include "keel/ssz/codec.hpp"
#include "keel/ssz/merkle.hpp"
#include "keel/ssz/types.hpp"

namespace keel::ssz {

/// Bitvector[N]: exactly (N + 7) / 8 bytes, unused high bits zero.
template <std::size_t N>
struct Codec<Bitvector<N>> {
    static constexpr bool kFixed = true;
    static constexpr std::size_t kFixedSize = (N + 7) / 8;
    static constexpr bool kBasic = false;

    static std::string name() { return "Bitvector[" + std::to_string(N) + "]"; }
    static std::size_t size(const Bitvector<N>&) noexcept { return kFixedSize; }
    static std::uint8_t* write(const Bitvector<N>& v, std::uint8_t* out) noexcept {
        std::memcpy(out, v.bytes.data(), kFixedSize);
        return out + kFixedSize;
    }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, Bitvector<N>& out,
                     Error& err) noexcept {
        if (n != kFixedSize) return detail::fail(err, Errc::wrong_size, at, n, kFixedSize);
        if constexpr (N % 8 != 0) {
            if ((p[kFixedSize - 1] >> (N % 8)) != 0) {
                return detail::fail(err, Errc::bitvector_padding, at + kFixedSize - 1);
            }
        }
        std::memcpy(out.bytes.data(), p, kFixedSize);
        return true;
    }
    static void root(const Bitvector<N>& v, std::uint8_t* out) noexcept {
        merkleize_bytes(v.bytes.data(), kFixedSize, (N + 255) / 256, out);
    }
};

/// Bitlist[N]: the bits, then a delimiter bit set to 1; at most N bits.
template <std::size_t N>
struct Codec<Bitlist<N>> {
    static constexpr bool kFixed = false;
    static constexpr std::size_t kFixedSize = 0;
    static constexpr bool kBasic = false;

    static std::string name() { return "Bitlist[" + std::to_string(N) + "]"; }
    static std::size_t size(const Bitlist<N>& v) noexcept { return v.size / 8 + 1; }
    static std::uint8_t* write(const Bitlist<N>& v, std::uint8_t* out) noexcept {
        KEEL_ASSERT(v.size <= N && v.bytes.size() == (v.size + 7) / 8);
        const std::size_t n = v.size / 8 + 1;
        out[n - 1] = 0;
        if (!v.bytes.empty()) std::memcpy(out, v.bytes.data(), v.bytes.size());
        out[v.size / 8] = static_cast<std::uint8_t>(out[v.size / 8] | (1u << (v.size % 8)));
        return out + n;
    }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, Bitlist<N>& out,
                     Error& err) {
        if (n == 0 || p[n - 1] == 0) {
            return detail::fail(err, Errc::bitlist_no_delimiter, at + (n == 0 ? 0 : n - 1));
        }
        // The delimiter is the highest set bit of the last byte; the limit is checked before
        // anything is allocated.
        const std::size_t top = static_cast<std::size_t>(std::bit_width(p[n - 1])) - 1;
        const std::size_t bits = 8 * (n - 1) + top;
        if (bits > N) return detail::fail(err, Errc::too_many_elements, at, bits, N);
        out.size = bits;
        out.bytes.assign(p, p + (bits + 7) / 8);
        if (top != 0) out.bytes.back() = static_cast<std::uint8_t>(p[n - 1] & ((1u << top) - 1));
        return true;
    }
    static void root(const Bitlist<N>& v, std::uint8_t* out) noexcept {
        merkleize_bytes(v.bytes.data(), v.bytes.size(), (N + 255) / 256, out);
        mix_in_length(out, v.size);
    }

    static constexpr bool kBatchRoots = true;
    /// Many bitlists (a block's attestations' aggregation bits) climb their trees together,
    /// each mixing in its bit count (merkleize_byte_lists).
    template <class Get>
    static void roots(std::size_t count, const Get& get, std::uint8_t* out,
                      std::size_t stride) noexcept {
        if (count == 0) return;
        ScratchFrame views_frame;
        ScratchFrame lengths_frame;
        auto* views = reinterpret_cast<BytesView*>(views_frame.get(sizeof(BytesView) * count));
        auto* lengths =
            reinterpret_cast<std::uint64_t*>(lengths_frame.get(sizeof(std::uint64_t) * count));
        for (std::size_t i = 0; i < count; ++i) {
            const Bitlist<N>& v = get(i);
            new (&views[i]) BytesView(v.bytes.data(), v.bytes.size());
            lengths[i] = v.size;
        }
        merkleize_byte_lists(std::span<const BytesView>(views, count), (N + 255) / 256, out,
                             lengths, stride);
    }
};

}  // namespace keel::ssz
