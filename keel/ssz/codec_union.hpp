#pragma once
/// Codec of Union[T0, T1, ...] (consensus-specs ssz/simple-serialize.md, "Union"): a 1-byte
/// selector (the option's index) then the option's bytes; None (only option 0) has no bytes.
/// Root: mix_in_selector(hash_tree_root(value), selector), a None value's root being the zero
/// chunk.

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "keel/ssz/codec.hpp"
#include "keel/ssz/merkle.hpp"
#include "keel/ssz/types.hpp"

namespace keel::ssz {

/// None: no bytes, root the zero chunk. Only meaningful inside a Union.
template <>
struct Codec<None> {
    static constexpr bool kFixed = true;
    static constexpr std::size_t kFixedSize = 0;
    static constexpr bool kBasic = false;
    static std::string name() { return "None"; }
    static std::size_t size(None) noexcept { return 0; }
    static std::uint8_t* write(None, std::uint8_t* out) noexcept { return out; }
    static bool read(const std::uint8_t*, std::size_t n, std::size_t at, None&, Error& err) {
        if (n != 0) return detail::fail(err, Errc::none_with_payload, at, n);
        return true;
    }
    static void root(None, std::uint8_t* out) noexcept { std::memset(out, 0, 32); }
};

template <class... Ts>
struct Codec<Union<Ts...>> {
    using U = Union<Ts...>;
    static constexpr std::size_t kOptions = sizeof...(Ts);

    template <std::size_t... I>
    static constexpr bool none_only_first(std::index_sequence<I...>) {
        return ((I == 0 || !std::is_same_v<Ts, None>) && ...);
    }
    static_assert(none_only_first(std::index_sequence_for<Ts...>{}),
                  "ssz: None may only be option 0 of a Union");

    static constexpr bool kFixed = false;
    static constexpr std::size_t kFixedSize = 0;
    static constexpr bool kBasic = false;

    static std::string name() {
        std::string out = "Union[";
        ((out += Codec<Ts>::name() + ", "), ...);
        out.resize(out.size() - 2);
        return out + "]";
    }
    static std::size_t size(const U& v) noexcept {
        return 1 +
               std::visit([](const auto& x) { return Codec<std::decay_t<decltype(x)>>::size(x); },
                          static_cast<const typename U::Variant&>(v));
    }
    static std::uint8_t* write(const U& v, std::uint8_t* out) noexcept {
        out[0] = static_cast<std::uint8_t>(v.index());
        return std::visit(
            [&](const auto& x) { return Codec<std::decay_t<decltype(x)>>::write(x, out + 1); },
            static_cast<const typename U::Variant&>(v));
    }
    static bool read(const std::uint8_t* p, std::size_t n, std::size_t at, U& out, Error& err) {
        if (n == 0) return detail::fail(err, Errc::empty_union, at);
        const std::size_t selector = p[0];
        if (selector >= kOptions) {
            return detail::fail(err, Errc::invalid_union_selector, at, selector, kOptions);
        }
        return read_option(selector, p, n, at, out, err, std::index_sequence_for<Ts...>{});
    }
    static void root(const U& v, std::uint8_t* out) noexcept {
        std::visit([&](const auto& x) { Codec<std::decay_t<decltype(x)>>::root(x, out); },
                   static_cast<const typename U::Variant&>(v));
        mix_in_selector(out, static_cast<std::uint8_t>(v.index()));
    }

  private:
    template <std::size_t... I>
    static bool read_option(std::size_t selector, const std::uint8_t* p, std::size_t n,
                            std::size_t at, U& out, Error& err, std::index_sequence<I...>) {
        bool ok = false;
        // Stops at the selected option; `ok` is that option's result.
        static_cast<void>(
            ((selector == I && ((ok = read_one<I>(p, n, at, out, err)), true)) || ...));
        return ok;
    }
    template <std::size_t I>
    static bool read_one(const std::uint8_t* p, std::size_t n, std::size_t at, U& out, Error& err) {
        using T = std::variant_alternative_t<I, typename U::Variant>;
        auto& value = out.template emplace<I>();
        if (!Codec<T>::read(p + 1, n - 1, at + 1, value, err)) {
            detail::prepend_path(err, "#" + std::to_string(I));
            return false;
        }
        return true;
    }
};

}  // namespace keel::ssz
