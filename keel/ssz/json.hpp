#pragma once
/// SSZ values as JSON, in the consensus-specs mapping (ssz/simple-serialize.md, "JSON mapping")
/// that the Beacon API uses:
///
///   uint8 .. uint256          decimal string             "12"
///   boolean                   true / false
///   ByteVector[N], ByteList   0x-prefixed hex             "0x01ab"
///   Bitvector[N], Bitlist[N]  0x-prefixed hex of the SSZ bytes (a Bitlist with its delimiter)
///   Vector / List of others   array                       ["1", "2"]   (also List[uint8, N])
///   container                 object, spec field names in field order
///   Union[...]                {"selector": n, "data": value}; data is null for None
///
/// to_json writes compact (or indented) JSON straight into a string, with no tree in between.
/// from_json reads a parsed nlohmann::json and accepts only what the mapping allows, plus JSON
/// integers for uintN (exact up to 2^64 - 1; the Beacon API and Lodestar send strings, YAML
/// vectors print integers). Hex digits may be upper or lower case; the "0x" prefix is required.
/// Every field must be present and no other field may be (the spec lets parsers ignore extra
/// fields; keel rejects them so that a misspelt field is caught). A value from_json accepts is
/// within every limit, so ssz::encode can write it.
///
///   std::string text = ssz::to_json(block);
///   auto r = ssz::from_json(nlohmann::json::parse(text), block);   // Result<void, JsonError>
///
/// Errors name the JSON path, starting with the type's name, and the rule:
///   json: BeaconBlock.body.attestations[3].data.slot: expected a decimal string, got 1.5
///
/// Thread-safety: none shared; different values may be converted concurrently.

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::ssz {

/// What was wrong with a JSON value (the JsonError's `detail` says it with the numbers).
enum class JsonErrc : std::uint8_t {
    syntax,                  ///< the text is not JSON (reported by callers that parse text)
    wrong_type,              ///< e.g. a number where a hex string belongs
    invalid_number,          ///< not a canonical decimal: empty, a non-digit, a leading zero
    out_of_range,            ///< a number above uintN's maximum, or negative
    missing_prefix,          ///< a hex string without "0x"
    odd_hex_length,          ///< an odd number of hex digits
    invalid_hex_digit,       ///< a character that is not 0-9, a-f, A-F
    wrong_byte_length,       ///< a ByteVector / Bitvector of another length
    wrong_vector_length,     ///< a Vector with another number of elements
    too_long,                ///< a List / ByteList / Bitlist over its limit
    missing_field,           ///< a container field absent from the object
    unknown_field,           ///< an object key that is not a field
    bitlist_no_delimiter,    ///< a Bitlist whose last byte is zero (or no bytes at all)
    bitvector_padding,       ///< a Bitvector with bits set past its length
    invalid_union_selector,  ///< a Union selector that is not one of its options
    none_with_data,          ///< a Union's None option with data other than null
};

/// A short phrase for the code, e.g. "unknown field".
std::string_view describe(JsonErrc e) noexcept;

/// A JSON mapping error: code, the path of the offending value ("BeaconBlock.body.graffiti",
/// "List[uint64, 4][2]") and one line saying what was wrong.
struct JsonError {
    JsonErrc code{};
    std::string path;
    std::string detail;

    friend bool operator==(const JsonError&, const JsonError&) = default;
};

/// One line: "json: <path>: <detail>".
std::string to_string(const JsonError& e);

/// Output layout of to_json.
enum class JsonLayout : std::uint8_t {
    compact,  ///< one line, no spaces
    pretty,   ///< two-space indentation, one value per line
};

/// The JSON mapping of T, one specialization per kind of SSZ type (as Codec<T>):
///   static void write(const T&, detail::JsonWriter&);
///   static bool read(const nlohmann::json&, T& out, JsonError&);  // false after filling the
///                                                                 // error; the path grows
///                                                                 // while unwinding
template <class T>
struct Json;

namespace detail {

/// Appends JSON punctuation and layout to a caller's string.
/// Appends JSON punctuation and layout to a caller's string. Out of line (json.cpp): a
/// container's write is then a run of calls, which keeps every type's instantiation small.
struct JsonWriter {
    std::string& out;
    bool pretty = false;
    int depth = 0;

    /// '{' or '['.
    void open(char c);
    /// '}' or ']'; `empty` when nothing was written inside.
    void close(char c, bool empty);
    /// Before each element: a comma unless it is the first, then the layout.
    void next(bool first);
    /// Before each member: next(first), then the name (field names are identifiers: no escaping
    /// needed) and the colon.
    void member(bool first, std::string_view name);
};

// Writers of the leaf values (json.cpp).
void write_uint(std::string& out, std::uint64_t v);    ///< "12" (quoted)
void write_number(std::string& out, std::uint64_t v);  ///< 12 (a JSON number)
void write_uint128(std::string& out, const Uint128& v);
void write_uint256(std::string& out, const Uint256& v);
void write_hex(std::string& out, BytesView bytes);
void write_bitlist(std::string& out, BytesView bits, std::size_t size);

// Readers of the leaf values and the JSON shapes (json.cpp). Each returns false after filling
// `err` (code and detail; the path is added by the callers while unwinding).
bool read_uint(const nlohmann::json& j, unsigned bits, std::uint64_t& out, JsonError& err);
bool read_big_uint(const nlohmann::json& j, unsigned bits, Uint256& out, JsonError& err);
bool read_bool(const nlohmann::json& j, bool& out, JsonError& err);
/// A hex string of exactly out.size() bytes; `kind` and `n` name the SSZ type for the
/// message ("ByteVector", 48).
bool read_hex_fixed(const nlohmann::json& j, MutableBytesView out, std::string_view kind,
                    std::size_t n, JsonError& err);
/// A hex string of at most `limit` bytes; `what` names the value for the message.
bool read_hex_bytes(const nlohmann::json& j, std::size_t limit, std::string_view what, Bytes& out,
                    JsonError& err);
bool check_bitvector_padding(std::uint8_t last, std::size_t bits, JsonError& err);
/// A Bitlist[limit] as the hex of its SSZ bytes: `bytes` gets the bits without the delimiter,
/// `size` their count.
bool read_bitlist(const nlohmann::json& j, std::size_t limit, Bytes& bytes, std::size_t& size,
                  JsonError& err);
/// An array; `n` = its size.
bool read_array(const nlohmann::json& j, std::size_t& n, JsonError& err);
bool check_vector_length(std::size_t n, std::size_t want, JsonError& err);
bool check_list_limit(std::size_t n, std::size_t limit, JsonError& err);
const nlohmann::json& element(const nlohmann::json& array, std::size_t i);
bool read_object(const nlohmann::json& j, JsonError& err);
/// The member `key` of an object, or nullptr.
const nlohmann::json* member(const nlohmann::json& object, std::string_view key);
std::size_t object_size(const nlohmann::json& object);
/// Reports the first key of `object` not among `names` (the object has more keys than fields).
bool report_unknown_field(const nlohmann::json& object, const std::string_view* names,
                          std::size_t count, std::string_view type, JsonError& err);
bool report_missing_field(std::string_view name, JsonError& err);
/// A union object {"selector": n, "data": ...} with n < options.
bool read_union(const nlohmann::json& j, std::size_t options, std::size_t& selector,
                const nlohmann::json*& data, JsonError& err);
bool read_null(const nlohmann::json& j, JsonError& err);

/// Puts a path segment in front of err.path while unwinding a failure.
void prepend_json_path(JsonError& err, std::string_view segment);
/// "[i]" in front of err.path.
void prepend_json_index(JsonError& err, std::size_t i);
/// ".name" in front of err.path.
void prepend_json_field(JsonError& err, std::string_view name);

}  // namespace detail

/// uint8, uint16, uint32, uint64: decimal strings.
template <std::unsigned_integral T>
    requires(!std::is_same_v<T, bool>)
struct Json<T> {
    static void write(const T& v, detail::JsonWriter& w) { detail::write_uint(w.out, v); }
    static bool read(const nlohmann::json& j, T& out, JsonError& err) {
        std::uint64_t v = 0;
        if (!detail::read_uint(j, 8 * sizeof(T), v, err)) return false;
        out = static_cast<T>(v);
        return true;
    }
};

/// uint128: a decimal string.
template <>
struct Json<Uint128> {
    static void write(const Uint128& v, detail::JsonWriter& w) { detail::write_uint128(w.out, v); }
    static bool read(const nlohmann::json& j, Uint128& out, JsonError& err) {
        Uint256 v;
        if (!detail::read_big_uint(j, 128, v, err)) return false;
        out = {v[0], v[1]};
        return true;
    }
};

/// uint256: a decimal string.
template <>
struct Json<Uint256> {
    static void write(const Uint256& v, detail::JsonWriter& w) { detail::write_uint256(w.out, v); }
    static bool read(const nlohmann::json& j, Uint256& out, JsonError& err) {
        return detail::read_big_uint(j, 256, out, err);
    }
};

/// boolean: true / false.
template <>
struct Json<bool> {
    static void write(bool v, detail::JsonWriter& w) { w.out.append(v ? "true" : "false"); }
    static bool read(const nlohmann::json& j, bool& out, JsonError& err) {
        return detail::read_bool(j, out, err);
    }
};

/// ByteVector[N]: hex of exactly N bytes.
template <std::size_t N>
struct Json<FixedBytes<N>> {
    static void write(const FixedBytes<N>& v, detail::JsonWriter& w) {
        detail::write_hex(w.out, v.view());
    }
    static bool read(const nlohmann::json& j, FixedBytes<N>& out, JsonError& err) {
        return detail::read_hex_fixed(j, out.mutable_view(), "ByteVector", N, err);
    }
};

/// ByteList[N]: hex of at most N bytes.
template <std::size_t N>
struct Json<ByteList<N>> {
    static void write(const ByteList<N>& v, detail::JsonWriter& w) {
        detail::write_hex(w.out, BytesView(v.data(), v.size()));
    }
    static bool read(const nlohmann::json& j, ByteList<N>& out, JsonError& err) {
        return detail::read_hex_bytes(j, N, "ByteList", out, err);
    }
};

/// Bitvector[N]: hex of its (N + 7) / 8 bytes, unused high bits zero.
template <std::size_t N>
struct Json<Bitvector<N>> {
    static void write(const Bitvector<N>& v, detail::JsonWriter& w) {
        detail::write_hex(w.out, BytesView(v.bytes.data(), v.bytes.size()));
    }
    static bool read(const nlohmann::json& j, Bitvector<N>& out, JsonError& err) {
        if (!detail::read_hex_fixed(j, MutableBytesView(out.bytes.data(), out.bytes.size()),
                                    "Bitvector", N, err)) {
            return false;
        }
        return detail::check_bitvector_padding(out.bytes.back(), N, err);
    }
};

/// Bitlist[N]: hex of its SSZ bytes, delimiter bit included.
template <std::size_t N>
struct Json<Bitlist<N>> {
    static void write(const Bitlist<N>& v, detail::JsonWriter& w) {
        detail::write_bitlist(w.out, BytesView(v.bytes.data(), v.bytes.size()), v.size);
    }
    static bool read(const nlohmann::json& j, Bitlist<N>& out, JsonError& err) {
        return detail::read_bitlist(j, N, out.bytes, out.size, err);
    }
};

namespace detail {

/// Writes `count` values as a JSON array.
template <class T>
void write_array(const T* items, std::size_t count, JsonWriter& w) {
    w.open('[');
    for (std::size_t i = 0; i < count; ++i) {
        w.next(i == 0);
        Json<T>::write(items[i], w);
    }
    w.close(']', count == 0);
}

/// Reads `count` elements of a JSON array already checked for its size.
template <class T>
bool read_elements(const nlohmann::json& j, std::size_t count, T* items, JsonError& err) {
    for (std::size_t i = 0; i < count; ++i) {
        if (!Json<T>::read(element(j, i), items[i], err)) {
            prepend_json_index(err, i);
            return false;
        }
    }
    return true;
}

}  // namespace detail

/// Vector[T, N] of non-byte values: an array of exactly N values.
template <class T, std::size_t N>
struct Json<Vector<T, N>> {
    static void write(const Vector<T, N>& v, detail::JsonWriter& w) {
        detail::write_array(v.data(), N, w);
    }
    static bool read(const nlohmann::json& j, Vector<T, N>& out, JsonError& err) {
        std::size_t n = 0;
        if (!detail::read_array(j, n, err) || !detail::check_vector_length(n, N, err)) {
            return false;
        }
        return detail::read_elements(j, N, out.data(), err);
    }
};

/// List[T, N] of non-byte values: an array of at most N values.
template <class T, std::size_t N>
struct Json<List<T, N>> {
    static void write(const List<T, N>& v, detail::JsonWriter& w) {
        detail::write_array(v.data(), v.size(), w);
    }
    static bool read(const nlohmann::json& j, List<T, N>& out, JsonError& err) {
        std::size_t n = 0;
        // The limit is checked before anything is allocated.
        if (!detail::read_array(j, n, err) || !detail::check_list_limit(n, N, err)) return false;
        out.resize(n);
        return detail::read_elements(j, n, out.data(), err);
    }
};

/// None (a Union option): null.
template <>
struct Json<None> {
    static void write(None, detail::JsonWriter& w) { w.out.append("null"); }
    static bool read(const nlohmann::json& j, None&, JsonError& err) {
        return detail::read_null(j, err);
    }
};

/// Union[...]: {"selector": n, "data": value}.
template <class... Ts>
struct Json<Union<Ts...>> {
    using U = Union<Ts...>;

    static void write(const U& v, detail::JsonWriter& w) {
        w.open('{');
        w.member(true, "selector");
        detail::write_number(w.out, v.index());
        w.member(false, "data");
        std::visit([&](const auto& x) { Json<std::decay_t<decltype(x)>>::write(x, w); },
                   static_cast<const typename U::Variant&>(v));
        w.close('}', false);
    }
    static bool read(const nlohmann::json& j, U& out, JsonError& err) {
        std::size_t selector = 0;
        const nlohmann::json* data = nullptr;
        if (!detail::read_union(j, sizeof...(Ts), selector, data, err)) return false;
        bool ok = false;
        // Stops at the selected option; `ok` is that option's result.
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            static_cast<void>(
                ((selector == I && ((ok = read_option<I>(*data, out, err)), true)) || ...));
        }(std::index_sequence_for<Ts...>{});
        return ok;
    }

  private:
    template <std::size_t I>
    static bool read_option(const nlohmann::json& data, U& out, JsonError& err) {
        using T = std::variant_alternative_t<I, typename U::Variant>;
        if (!Json<T>::read(data, out.template emplace<I>(), err)) {
            detail::prepend_json_field(err, "data");
            return false;
        }
        return true;
    }
};

/// A container: an object with every field, by its spec name, in field order. read and write
/// stay out of line: a container nested in many others (AttestationData, Checkpoint) is then
/// compiled once, not inlined into each, which cuts the registry's compile time by a tenth.
template <ContainerType T>
struct Json<T> {
    using Fields = decltype(T::ssz_fields());
    static constexpr Fields kFields = T::ssz_fields();
    static constexpr std::size_t kCount = std::tuple_size_v<Fields>;
    static constexpr std::array<std::string_view, kCount> kNames = std::apply(
        [](const auto&... f) { return std::array<std::string_view, kCount>{f.name...}; }, kFields);

    [[gnu::noinline]] static void write(const T& v, detail::JsonWriter& w) {
        w.open('{');
        bool first = true;
        std::apply(
            [&](const auto&... f) {
                ((w.member(first, f.name), first = false,
                  Json<typename std::decay_t<decltype(f)>::type>::write(v.*(f.member), w)),
                 ...);
            },
            kFields);
        w.close('}', false);
    }

    [[gnu::noinline]] static bool read(const nlohmann::json& j, T& out, JsonError& err) {
        if (!detail::read_object(j, err)) return false;
        std::size_t found = 0;
        const bool ok = std::apply(
            [&](const auto&... f) { return (read_field(f, j, found, out, err) && ...); }, kFields);
        if (!ok) return false;
        if (found != detail::object_size(j)) {
            return detail::report_unknown_field(j, kNames.data(), kCount, T::ssz_name, err);
        }
        return true;
    }

  private:
    template <class F>
    static bool read_field(const F& f, const nlohmann::json& j, std::size_t& found, T& out,
                           JsonError& err) {
        const nlohmann::json* m = detail::member(j, f.name);
        if (m == nullptr) return detail::report_missing_field(f.name, err);
        ++found;
        if (!Json<typename F::type>::read(*m, out.*(f.member), err)) {
            detail::prepend_json_field(err, f.name);
            return false;
        }
        return true;
    }
};

/// Appends the JSON of `v` to `out`.
template <SszType T>
void to_json(const T& v, std::string& out, JsonLayout layout = JsonLayout::compact) {
    // Hex doubles every byte and a uint64's 8 bytes print as up to 22 characters: real blocks
    // come to 2.1-2.3 times their SSZ size, a validator registry to 3. One reservation of 3x
    // spares the copy of regrowth; pages never written are never committed.
    out.reserve(out.size() + 3 * Codec<T>::size(v) + 64);
    detail::JsonWriter w{out, layout == JsonLayout::pretty};
    Json<T>::write(v, w);
}

/// The JSON of `v` as a new string.
template <SszType T>
std::string to_json(const T& v, JsonLayout layout = JsonLayout::compact) {
    std::string out;
    to_json(v, out, layout);
    return out;
}

/// Reads `j` into `out`. On failure only the error is returned (its path starts with the
/// type's name) and `out` is valid but unspecified. A value accepted is within every limit.
/// Throws only std::bad_alloc.
template <SszType T>
[[nodiscard]] Result<void, JsonError> from_json(const nlohmann::json& j, T& out) {
    JsonError err;
    if (!Json<T>::read(j, out, err)) {
        detail::prepend_json_path(err, Codec<T>::name());
        return std::unexpected(std::move(err));
    }
    return {};
}

}  // namespace keel::ssz
