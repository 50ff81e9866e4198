// The leaf writers and readers of the JSON mapping (json.hpp). The templates in json.hpp only
// recurse over types; every look at a JSON value happens here, so a type's instantiation stays
// small and nlohmann's header is compiled once.
#include "keel/ssz/json.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"

namespace keel::ssz {

namespace {

using nlohmann::json;

/// Longest rendering of an offending value in a message: a uint256 or a quoted 32-byte hex
/// string fit; a signature is cut.
constexpr std::size_t kShownChars = 100;

/// The value as a message shows it: scalars as JSON (long strings cut), containers by kind.
std::string show(const json& j) {
    switch (j.type()) {
        case json::value_t::array:
            return "an array";
        case json::value_t::object:
            return "an object";
        case json::value_t::discarded:
            return "nothing";
        default:
            break;
    }
    std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
    if (s.size() > kShownChars) {
        std::size_t cut = kShownChars - 4;
        // Never split a UTF-8 sequence: back up over continuation bytes.
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xc0) == 0x80) --cut;
        s.resize(cut);
        s += j.is_string() ? "...\"" : "...";
    }
    return s;
}

bool reject(JsonError& err, JsonErrc code, std::string detail) {
    err.code = code;
    err.detail = std::move(detail);
    err.path.clear();
    return false;
}

bool wrong_type(JsonError& err, std::string_view expected, const json& got) {
    return reject(err, JsonErrc::wrong_type,
                  "expected " + std::string(expected) + ", got " + show(got));
}

/// The "0x"-prefixed hex text of a value, after checking it is one; on failure fills err.
const std::string* hex_text(const json& j, JsonError& err) {
    if (!j.is_string()) {
        wrong_type(err, "a 0x-prefixed hex string", j);
        return nullptr;
    }
    const auto& s = j.get_ref<const std::string&>();
    if (!s.starts_with("0x")) {
        reject(err, JsonErrc::missing_prefix, "hex string " + show(j) + " lacks the 0x prefix");
        return nullptr;
    }
    if (s.size() % 2 != 0) {
        reject(err, JsonErrc::odd_hex_length,
               "odd number of hex digits (" + std::to_string(s.size() - 2) + ")");
        return nullptr;
    }
    return &s;
}

/// Fills err for a hex::decode failure on `s`.
bool hex_failure(const std::string& s, const hex::Error& e, JsonError& err) {
    if (e.code == hex::Errc::invalid_digit && e.offset < s.size()) {
        const auto c = static_cast<unsigned char>(s[e.offset]);
        std::string shown = c >= 0x20 && c < 0x7f
                                ? std::string(1, static_cast<char>(c))
                                : json(std::string(1, static_cast<char>(c)))
                                      .dump(-1, ' ', true, json::error_handler_t::replace);
        return reject(err, JsonErrc::invalid_hex_digit,
                      "invalid hex digit '" + shown + "' at character " + std::to_string(e.offset));
    }
    return reject(err, JsonErrc::invalid_hex_digit, std::string(hex::describe(e.code)));
}

/// True for names that read well after a '.' in a path.
bool plain_name(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    });
}

}  // namespace

std::string_view describe(JsonErrc e) noexcept {
    switch (e) {
        case JsonErrc::syntax:
            return "not valid JSON";
        case JsonErrc::wrong_type:
            return "wrong JSON type";
        case JsonErrc::invalid_number:
            return "not a canonical decimal number";
        case JsonErrc::out_of_range:
            return "number out of range";
        case JsonErrc::missing_prefix:
            return "hex string without 0x prefix";
        case JsonErrc::odd_hex_length:
            return "odd number of hex digits";
        case JsonErrc::invalid_hex_digit:
            return "invalid hex digit";
        case JsonErrc::wrong_byte_length:
            return "hex string of wrong length";
        case JsonErrc::wrong_vector_length:
            return "vector of wrong length";
        case JsonErrc::too_long:
            return "list longer than its limit";
        case JsonErrc::missing_field:
            return "missing field";
        case JsonErrc::unknown_field:
            return "unknown field";
        case JsonErrc::bitlist_no_delimiter:
            return "bitlist without delimiter bit";
        case JsonErrc::bitvector_padding:
            return "unused bitvector bits set";
        case JsonErrc::invalid_union_selector:
            return "union selector out of range";
        case JsonErrc::none_with_data:
            return "data of the None option is not null";
    }
    return "unknown JSON error";
}

std::string to_string(const JsonError& e) {
    std::string out = "json: ";
    if (!e.path.empty()) {
        out += e.path;
        out += ": ";
    }
    out += e.detail.empty() ? std::string(describe(e.code)) : e.detail;
    return out;
}

namespace detail {

namespace {

void newline(JsonWriter& w) {
    w.out.push_back('\n');
    w.out.append(static_cast<std::size_t>(2 * w.depth), ' ');
}

}  // namespace

void JsonWriter::open(char c) {
    out.push_back(c);
    ++depth;
}

void JsonWriter::close(char c, bool empty) {
    --depth;
    if (pretty && !empty) newline(*this);
    out.push_back(c);
}

void JsonWriter::next(bool first) {
    if (!first) out.push_back(',');
    if (pretty) newline(*this);
}

void JsonWriter::member(bool first, std::string_view name) {
    next(first);
    out.push_back('"');
    out.append(name);
    out.append(pretty ? "\": " : "\":");
}

void write_number(std::string& out, std::uint64_t v) {
    char buf[20];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void write_uint(std::string& out, std::uint64_t v) {
    char buf[22];
    buf[0] = '"';
    char* end = std::to_chars(buf + 1, buf + sizeof buf, v).ptr;
    *end++ = '"';
    out.append(buf, end);
}

void write_uint256(std::string& out, const Uint256& v) {
    char buf[Uint256::kMaxDecChars + 2];
    buf[0] = '"';
    const std::size_t n = v.write_dec(buf + 1);
    buf[n + 1] = '"';
    out.append(buf, n + 2);
}

void write_uint128(std::string& out, const Uint128& v) {
    if (v.hi == 0) return write_uint(out, v.lo);
    write_uint256(out, Uint256::from_limbs(v.lo, v.hi, 0, 0));
}

void write_hex(std::string& out, BytesView bytes) {
    out.push_back('"');
    hex::append(out, bytes, {.prefix = true});
    out.push_back('"');
}

void write_bitlist(std::string& out, BytesView bits, std::size_t size) {
    // The wire form: the bits' bytes, then the delimiter bit just above the last bit (in the
    // last byte, or in a byte of its own when the bits fill whole bytes).
    const std::size_t whole = size / 8;
    const std::uint8_t last =
        static_cast<std::uint8_t>((whole < bits.size() ? bits[whole] : 0) | (1u << (size % 8)));
    out.push_back('"');
    hex::append(out, bits.first(whole), {.prefix = true});
    hex::append(out, BytesView(&last, 1));
    out.push_back('"');
}

bool read_uint(const json& j, unsigned bits, std::uint64_t& out, JsonError& err) {
    const std::uint64_t max = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    const std::string type = "uint" + std::to_string(bits);
    if (j.is_number_unsigned()) {
        out = j.get<std::uint64_t>();
    } else if (j.is_number_integer()) {
        return reject(err, JsonErrc::out_of_range, show(j) + " is out of range for " + type);
    } else if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s.empty() ||
            !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            return reject(err, JsonErrc::invalid_number, show(j) + " is not a decimal number");
        }
        if (s.size() > 1 && s[0] == '0') {
            return reject(err, JsonErrc::invalid_number, show(j) + " has a leading zero");
        }
        const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
        if (r.ec != std::errc{}) {
            return reject(err, JsonErrc::out_of_range, show(j) + " is out of range for " + type);
        }
    } else {
        return wrong_type(err, "a decimal string", j);
    }
    if (out > max)
        return reject(err, JsonErrc::out_of_range, show(j) + " is out of range for " + type);
    return true;
}

bool read_big_uint(const json& j, unsigned bits, Uint256& out, JsonError& err) {
    const std::string type = "uint" + std::to_string(bits);
    if (j.is_number_unsigned()) {
        out = Uint256(j.get<std::uint64_t>());
        return true;
    }
    if (j.is_number_integer() || j.is_number_float()) {
        // Floats are what a JSON parser makes of integers past 2^64: their digits are gone.
        return j.is_number_integer()
                   ? reject(err, JsonErrc::out_of_range, show(j) + " is out of range for " + type)
                   : wrong_type(err, "a decimal string", j);
    }
    if (!j.is_string()) return wrong_type(err, "a decimal string", j);
    const auto& s = j.get_ref<const std::string&>();
    auto r = Uint256::from_dec(s);
    if (!r) {
        if (r.error().code == uint256::Errc::overflow) {
            return reject(err, JsonErrc::out_of_range, show(j) + " is out of range for " + type);
        }
        return reject(err, JsonErrc::invalid_number, show(j) + " is not a decimal number");
    }
    if (s.size() > 1 && s[0] == '0') {
        return reject(err, JsonErrc::invalid_number, show(j) + " has a leading zero");
    }
    if (r->bit_length() > bits) {
        return reject(err, JsonErrc::out_of_range, show(j) + " is out of range for " + type);
    }
    out = *r;
    return true;
}

bool read_bool(const json& j, bool& out, JsonError& err) {
    if (!j.is_boolean()) return wrong_type(err, "true or false", j);
    out = j.get<bool>();
    return true;
}

bool read_hex_fixed(const json& j, MutableBytesView out, std::string_view kind, std::size_t n,
                    JsonError& err) {
    const std::string* s = hex_text(j, err);
    if (s == nullptr) return false;
    const std::size_t got = (s->size() - 2) / 2;
    if (got != out.size()) {
        return reject(err, JsonErrc::wrong_byte_length,
                      "hex string of wrong length: " + std::to_string(got) + " bytes, " +
                          std::string(kind) + "[" + std::to_string(n) + "] needs " +
                          std::to_string(out.size()));
    }
    if (auto r = hex::decode_to(*s, out); !r) return hex_failure(*s, r.error(), err);
    return true;
}

bool read_hex_bytes(const json& j, std::size_t limit, std::string_view what, Bytes& out,
                    JsonError& err) {
    const std::string* s = hex_text(j, err);
    if (s == nullptr) return false;
    const std::size_t n = (s->size() - 2) / 2;
    // Checked before decoding, so an oversized string allocates nothing.
    if (n > limit) {
        return reject(err, JsonErrc::too_long,
                      std::string(what) + " of " + std::to_string(n) +
                          " bytes is longer than its limit " + std::to_string(limit));
    }
    out.resize(n);
    if (auto r = hex::decode_to(*s, out); !r) return hex_failure(*s, r.error(), err);
    return true;
}

bool check_bitvector_padding(std::uint8_t last, std::size_t bits, JsonError& err) {
    if (bits % 8 == 0 || (last >> (bits % 8)) == 0) return true;
    return reject(err, JsonErrc::bitvector_padding,
                  "unused bits set in the last byte of Bitvector[" + std::to_string(bits) + "] (" +
                      hex::encode(BytesView(&last, 1), {.prefix = true}) + ")");
}

bool read_bitlist(const json& j, std::size_t limit, Bytes& bytes, std::size_t& size,
                  JsonError& err) {
    const std::string* s = hex_text(j, err);
    if (s == nullptr) return false;
    const std::size_t n = (s->size() - 2) / 2;
    // `limit` bits take at most limit / 8 + 1 bytes with the delimiter; checked before decoding,
    // so an oversized string allocates nothing.
    if (n > limit / 8 + 1) {
        return reject(err, JsonErrc::too_long,
                      "bitlist of at least " + std::to_string(8 * (n - 1)) +
                          " bits is longer than its limit " + std::to_string(limit));
    }
    bytes.resize(n);
    if (auto r = hex::decode_to(*s, bytes); !r) return hex_failure(*s, r.error(), err);
    if (bytes.empty() || bytes.back() == 0) {
        return reject(err, JsonErrc::bitlist_no_delimiter,
                      bytes.empty() ? "bitlist without delimiter bit (no bytes)"
                                    : "bitlist without delimiter bit (the last byte is zero)");
    }
    const auto top = static_cast<std::size_t>(std::bit_width(bytes.back())) - 1;
    const std::size_t bits = 8 * (n - 1) + top;
    if (bits > limit) {
        return reject(err, JsonErrc::too_long,
                      "bitlist of " + std::to_string(bits) + " bits is longer than its limit " +
                          std::to_string(limit));
    }
    // Keep the bits only: clear the delimiter, and drop its byte when it stood alone.
    bytes.back() = static_cast<std::uint8_t>(bytes.back() & ((1u << top) - 1));
    bytes.resize((bits + 7) / 8);
    size = bits;
    return true;
}

bool read_array(const json& j, std::size_t& n, JsonError& err) {
    if (!j.is_array()) return wrong_type(err, "an array", j);
    n = j.size();
    return true;
}

bool check_vector_length(std::size_t n, std::size_t want, JsonError& err) {
    if (n == want) return true;
    return reject(err, JsonErrc::wrong_vector_length,
                  "expected " + std::to_string(want) + " elements, got " + std::to_string(n));
}

bool check_list_limit(std::size_t n, std::size_t limit, JsonError& err) {
    if (n <= limit) return true;
    return reject(err, JsonErrc::too_long,
                  "list of " + std::to_string(n) + " elements is longer than its limit " +
                      std::to_string(limit));
}

const json& element(const json& array, std::size_t i) {
    return array[i];
}

bool read_object(const json& j, JsonError& err) {
    if (!j.is_object()) return wrong_type(err, "an object", j);
    return true;
}

const json* member(const json& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::size_t object_size(const json& object) {
    return object.size();
}

bool report_unknown_field(const json& object, const std::string_view* names, std::size_t count,
                          std::string_view type, JsonError& err) {
    for (const auto& [key, value] : object.items()) {
        if (std::find(names, names + count, key) != names + count) continue;
        reject(err, JsonErrc::unknown_field,
               "unknown field (" + std::string(type) + " has no field of that name)");
        // A key that is not a plain name is shown as a JSON string, so the line stays one line.
        if (plain_name(key)) {
            prepend_json_field(err, key);
        } else {
            prepend_json_path(err,
                              "." + json(key).dump(-1, ' ', true, json::error_handler_t::replace));
        }
        return false;
    }
    return reject(err, JsonErrc::unknown_field, "unknown field");
}

bool report_missing_field(std::string_view name, JsonError& err) {
    reject(err, JsonErrc::missing_field, "missing field");
    prepend_json_field(err, name);
    return false;
}

bool read_union(const json& j, std::size_t options, std::size_t& selector, const json*& data,
                JsonError& err) {
    if (!j.is_object()) return wrong_type(err, "an object {\"selector\": n, \"data\": ...}", j);
    const json* sel = member(j, "selector");
    if (sel == nullptr) return report_missing_field("selector", err);
    data = member(j, "data");
    if (data == nullptr) return report_missing_field("data", err);
    if (j.size() != 2) {
        static constexpr std::string_view kNames[] = {"selector", "data"};
        return report_unknown_field(j, kNames, 2, "a union", err);
    }
    if (!sel->is_number_unsigned()) {
        wrong_type(err, "a selector number", *sel);
        prepend_json_field(err, "selector");
        return false;
    }
    const auto s = sel->get<std::uint64_t>();
    if (s >= options) {
        reject(err, JsonErrc::invalid_union_selector,
               "union selector " + std::to_string(s) + " out of range (" + std::to_string(options) +
                   " options)");
        prepend_json_field(err, "selector");
        return false;
    }
    selector = static_cast<std::size_t>(s);
    return true;
}

bool read_null(const json& j, JsonError& err) {
    if (j.is_null()) return true;
    return reject(err, JsonErrc::none_with_data,
                  "data of the None option must be null, got " + show(j));
}

void prepend_json_path(JsonError& err, std::string_view segment) {
    err.path.insert(0, segment);
}

void prepend_json_index(JsonError& err, std::size_t i) {
    prepend_json_path(err, "[" + std::to_string(i) + "]");
}

void prepend_json_field(JsonError& err, std::string_view name) {
    err.path.insert(err.path.begin(), name.begin(), name.end());
    err.path.insert(err.path.begin(), '.');
}

}  // namespace detail
}  // namespace keel::ssz
