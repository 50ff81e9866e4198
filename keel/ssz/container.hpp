#pragma once
/// How a C++ struct becomes an SSZ container, and its codec (consensus-specs
/// ssz/simple-serialize.md, "Container").
///
/// A container is a plain struct that names itself and lists its fields, in SSZ order, as
/// member pointers with names; no macros:
///
///   struct BeaconBlockHeader {
///       std::uint64_t slot = 0;
///       std::uint64_t proposer_index = 0;
///       Bytes32 parent_root, state_root, body_root;
///
///       static constexpr std::string_view ssz_name = "BeaconBlockHeader";
///       static constexpr auto ssz_fields() {
///           using T = BeaconBlockHeader;
///           return std::tuple{ssz::field("slot", &T::slot),
///                             ssz::field("proposer_index", &T::proposer_index),
///                             ssz::field("parent_root", &T::parent_root),
///                             ssz::field("state_root", &T::state_root),
///                             ssz::field("body_root", &T::body_root)};
///       }
///   };
///
/// Sizes are known at compile time: ssz::fixed_size<BeaconBlockHeader> == 112.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "keel/ssz/codec.hpp"
#include "keel/ssz/merkle.hpp"

namespace keel::ssz {

/// One field of a container: its name (for error paths) and its member pointer.
template <class S, class M>
struct Field {
    using Struct = S;
    using type = M;
    std::string_view name;
    M S::* member;
};

/// Declares a field: ssz::field("slot", &BeaconBlockHeader::slot).
template <class S, class M>
constexpr Field<S, M> field(std::string_view name, M S::* member) noexcept {
    return {name, member};
}

/// A struct declared as an SSZ container (see the file comment).
template <class T>
concept ContainerType = requires {
    { T::ssz_name } -> std::convertible_to<std::string_view>;
    T::ssz_fields();
};

/// Codec of a container: the fields in order; fixed-size fields inline and an offset for each
/// variable-size one, whose bytes follow the fixed part in field order.
template <ContainerType T>
struct Codec<T> {
    using Fields = decltype(T::ssz_fields());
    static constexpr Fields kFields = T::ssz_fields();
    static constexpr std::size_t kCount = std::tuple_size_v<Fields>;
    static_assert(kCount > 0, "ssz: a container needs at least one field");

    template <std::size_t I>
    using FieldType = typename std::tuple_element_t<I, Fields>::type;

    template <std::size_t... I>
    static constexpr bool all_fixed(std::index_sequence<I...>) {
        return (Codec<FieldType<I>>::kFixed && ...);
    }
    template <std::size_t... I>
    static constexpr std::size_t fixed_part(std::index_sequence<I...>) {
        return (kFixedPartSize<FieldType<I>> + ...);
    }
    template <std::size_t... I>
    static constexpr std::size_t variable_count(std::index_sequence<I...>) {
        return ((Codec<FieldType<I>>::kFixed ? 0 : 1) + ...);
    }
    using Indices = std::make_index_sequence<kCount>;

    static constexpr bool kFixed = all_fixed(Indices{});
    /// Bytes of the fixed part: fixed-size fields plus 4 per variable-size field.
    static constexpr std::size_t kFixedPart = fixed_part(Indices{});
    static constexpr std::size_t kFixedSize = kFixed ? kFixedPart : 0;
    static constexpr std::size_t kVariableCount = variable_count(Indices{});
    static constexpr bool kBasic = false;

    static std::string name() { return std::string(T::ssz_name); }

    static std::size_t size(const T& v) noexcept {
        if constexpr (kFixed) {
            return kFixedPart;
        } else {
            std::size_t total = kFixedPart;
            std::apply(
                [&](const auto&... f) { ((total += field_variable_size(v.*(f.member))), ...); },
                kFields);
            return total;
        }
    }

    static std::uint8_t* write(const T& v, std::uint8_t* out) noexcept {
        std::uint8_t* fixed = out;
        std::uint8_t* body = out + kFixedPart;
        std::apply([&](const auto&... f) { (write_field(v.*(f.member), out, fixed, body), ...); },
                   kFields);
        return body;
    }

    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, T& out, Error& err) {
        if constexpr (kFixed) {
            if (n != kFixedPart) return detail::fail(err, Errc::wrong_size, at, n, kFixedPart);
        } else {
            if (n < kFixedPart) {
                return detail::fail(err, Errc::fixed_part_too_short, at, n, kFixedPart);
            }
        }
        // Pass 1: fixed-size fields, and the offsets of the variable-size ones, checked.
        std::array<std::size_t, kVariableCount + 1> offsets{};
        std::size_t pos = 0;
        std::size_t k = 0;
        const bool fixed_ok = std::apply(
            [&](const auto&... f) {
                return (read_fixed_field(f, p, n, at, pos, k, offsets.data(), out, err) && ...);
            },
            kFields);
        if (!fixed_ok) return false;
        if constexpr (kVariableCount == 0) {
            return true;
        } else {
            // Pass 2: each variable-size field spans from its offset to the next one (or end).
            offsets[kVariableCount] = n;
            k = 0;
            return std::apply(
                [&](const auto&... f) {
                    return (read_variable_field(f, p, at, k, offsets.data(), out, err) && ...);
                },
                kFields);
        }
    }

    static void root(const T& v, std::uint8_t* out) noexcept {
        // Field roots on the stack (one spare chunk for the in-place padding), then one tree.
        std::array<std::uint8_t, 32 * (kCount + 1)> roots;
        std::size_t i = 0;
        std::apply(
            [&](const auto&... f) {
                ((Codec<typename std::decay_t<decltype(f)>::type>::root(v.*(f.member),
                                                                        roots.data() + 32 * i++)),
                 ...);
            },
            kFields);
        merkleize_in_place(roots.data(), kCount, kCount, out);
    }

    static constexpr bool kBatchRoots = true;
    /// Leaves per container tree: the field count rounded up to a power of two.
    static constexpr std::size_t kWidth = std::bit_ceil(kCount);

    /// Roots of many containers (codec.hpp): field i of each container in a batch is rooted
    /// for the whole batch at once (batched again where the field's codec can) straight into
    /// leaf i of that container's tree, then all the trees climb together.
    template <class Get>
    static void roots(std::size_t count, const Get& get, std::uint8_t* out,
                      std::size_t stride) noexcept {
        batched_roots<kWidth>(
            count,
            [&](std::size_t base, std::size_t n, std::uint8_t* leaves) {
                std::size_t i = 0;
                std::apply(
                    [&](const auto&... f) { (field_roots(f, i++, base, n, get, leaves), ...); },
                    kFields);
                if constexpr (kWidth > kCount) {
                    for (std::size_t e = 0; e < n; ++e) {
                        std::memset(leaves + 32 * (kWidth * e + kCount), 0, 32 * (kWidth - kCount));
                    }
                }
            },
            out, stride);
    }

  private:
    /// Leaf `i` (field f) of containers base .. base + n - 1 into their trees at `leaves`.
    template <class F, class Get>
    static void field_roots(const F& f, std::size_t i, std::size_t base, std::size_t n,
                            const Get& get, std::uint8_t* leaves) noexcept {
        using M = typename F::type;
        detail::batch_roots<M>(
            n, [&](std::size_t j) -> const M& { return get(base + j).*(f.member); },
            leaves + 32 * i, 32 * kWidth);
    }

    template <class M>
    static std::size_t field_variable_size(const M& m) noexcept {
        if constexpr (Codec<M>::kFixed) {
            return 0;
        } else {
            return Codec<M>::size(m);
        }
    }

    template <class M>
    static void write_field(const M& m, std::uint8_t* start, std::uint8_t*& fixed,
                            std::uint8_t*& body) noexcept {
        if constexpr (Codec<M>::kFixed) {
            fixed = Codec<M>::write(m, fixed);
        } else {
            detail::store_offset(fixed, static_cast<std::size_t>(body - start));
            fixed += kOffsetSize;
            body = Codec<M>::write(m, body);
        }
    }

    template <class F>
    static bool read_fixed_field(const F& f, const std::uint8_t* p, std::size_t n, std::size_t at,
                                 std::size_t& pos, std::size_t& k, std::size_t* offsets, T& out,
                                 Error& err) {
        using M = typename F::type;
        if constexpr (Codec<M>::kFixed) {
            constexpr std::size_t kSize = Codec<M>::kFixedSize;
            if (!Codec<M>::read(p + pos, kSize, at + pos, out.*(f.member), err)) {
                detail::prepend_path(err, "." + std::string(f.name));
                return false;
            }
            pos += kSize;
        } else {
            const std::size_t off = detail::load_offset(p + pos);
            const std::size_t prev = k == 0 ? 0 : offsets[k - 1];
            if (!detail::check_offset(off, prev, k == 0, kFixedPart, n, at + pos, err)) {
                detail::prepend_path(err, "." + std::string(f.name));
                return false;
            }
            offsets[k++] = off;
            pos += kOffsetSize;
        }
        return true;
    }

    template <class F>
    static bool read_variable_field(const F& f, const std::uint8_t* p, std::size_t at,
                                    std::size_t& k, const std::size_t* offsets, T& out,
                                    Error& err) {
        using M = typename F::type;
        if constexpr (!Codec<M>::kFixed) {
            const std::size_t begin = offsets[k];
            const std::size_t end = offsets[k + 1];
            ++k;
            if (!Codec<M>::read(p + begin, end - begin, at + begin, out.*(f.member), err)) {
                detail::prepend_path(err, "." + std::string(f.name));
                return false;
            }
        }
        return true;
    }
};

}  // namespace keel::ssz
