#include "keel/trace/duration.hpp"

#include <cstdint>
#include <limits>

#include "keel/common/printable.hpp"

namespace keel::trace {
namespace {

// Nanoseconds in each unit; "µs" is written in UTF-8 (two encodings of µ, as Go takes both).
struct Unit {
    std::string_view name;
    std::uint64_t ns;
};
constexpr Unit kUnits[] = {
    {"ns", 1},
    {"us", 1'000},
    {"\xc2\xb5s", 1'000},  // U+00B5 micro sign
    {"\xce\xbcs", 1'000},  // U+03BC Greek small letter mu
    {"ms", 1'000'000},
    {"s", 1'000'000'000},
    {"m", 60'000'000'000},
    {"h", 3'600'000'000'000},
};

}  // namespace

Result<std::chrono::nanoseconds, std::string> parse_duration(std::string_view text) {
    const auto refusal = [&](std::string_view why) {
        return unexpected(std::string(why) + " \"" + printable(text, 64) + "\"");
    };
    const auto invalid = [&] { return refusal("invalid duration"); };
    std::string_view s = text;
    bool negative = false;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        negative = s[0] == '-';
        s.remove_prefix(1);
    }
    if (s == "0") return std::chrono::nanoseconds{0};
    if (s.empty()) return invalid();
    // The total in nanoseconds, kept below 2^63 (or 2^63 itself for a negative one).
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
    std::uint64_t total = 0;
    while (!s.empty()) {
        std::uint64_t whole = 0;
        bool digits = false;
        bool overflow = false;
        while (!s.empty() && s[0] >= '0' && s[0] <= '9') {
            const std::uint64_t d = static_cast<std::uint64_t>(s[0] - '0');
            if (whole > (kLimit - d) / 10) overflow = true;
            if (!overflow) whole = whole * 10 + d;
            digits = true;
            s.remove_prefix(1);
        }
        // The fraction's digits, as many as 18 of them count (finer than a nanosecond of an
        // hour they cannot matter); the rest are read and dropped.
        std::uint64_t frac = 0;
        std::uint64_t scale = 1;
        if (!s.empty() && s[0] == '.') {
            s.remove_prefix(1);
            while (!s.empty() && s[0] >= '0' && s[0] <= '9') {
                if (scale < 1'000'000'000'000'000'000ULL) {
                    frac = frac * 10 + static_cast<std::uint64_t>(s[0] - '0');
                    scale *= 10;
                }
                digits = true;
                s.remove_prefix(1);
            }
        }
        if (!digits) return invalid();
        const Unit* unit = nullptr;
        for (const Unit& u : kUnits) {
            // The longest name that matches: "ms" before "m", "ns" before neither.
            if (s.starts_with(u.name) && (unit == nullptr || u.name.size() > unit->name.size()))
                unit = &u;
        }
        if (unit == nullptr) {
            return s.empty() ? refusal("missing unit in duration") : invalid();
        }
        s.remove_prefix(unit->name.size());
        if (overflow || whole > kLimit / unit->ns) return invalid();
        std::uint64_t ns = whole * unit->ns;
        // frac / scale of a unit, rounded down (below 10^18 times at most 3.6 * 10^12 fits in
        // 128 bits; the result is below one unit).
        __extension__ using U128 = unsigned __int128;
        ns += static_cast<std::uint64_t>(U128{frac} * unit->ns / scale);
        if (ns > kLimit - total) return invalid();
        total += ns;
    }
    if (total == kLimit) {
        if (!negative) return invalid();
        return std::chrono::nanoseconds{std::numeric_limits<std::int64_t>::min()};
    }
    const auto signed_total = static_cast<std::int64_t>(total);
    return std::chrono::nanoseconds{negative ? -signed_total : signed_total};
}

namespace {

// `v` units of 10^-digits written as a decimal: the whole part, then the fraction without its
// trailing zeros ("1.5", "2").
std::string decimal(std::uint64_t v, int digits) {
    std::uint64_t scale = 1;
    for (int i = 0; i < digits; ++i) scale *= 10;
    std::string out = std::to_string(v / scale);
    std::uint64_t frac = v % scale;
    if (frac == 0) return out;
    std::string f(static_cast<std::size_t>(digits), '0');
    for (int i = digits - 1; i >= 0; --i, frac /= 10)
        f[static_cast<std::size_t>(i)] = static_cast<char>('0' + frac % 10);
    while (f.back() == '0') f.pop_back();
    return out + "." + f;
}

}  // namespace

std::string format_duration(std::chrono::nanoseconds d) {
    const std::int64_t v = d.count();
    const bool negative = v < 0;
    const std::uint64_t u =
        negative ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    std::string out;
    if (u == 0) return "0s";
    if (u < 1'000) {
        out = std::to_string(u) + "ns";
    } else if (u < 1'000'000) {
        out = decimal(u, 3) + "\xc2\xb5s";  // µs, as Go writes it
    } else if (u < 1'000'000'000) {
        out = decimal(u, 6) + "ms";
    } else {
        constexpr std::uint64_t kMinute = 60'000'000'000;
        out = decimal(u % kMinute, 9) + "s";
        const std::uint64_t minutes = u / kMinute;
        if (minutes > 0) {
            out = std::to_string(minutes % 60) + "m" + out;
            if (minutes >= 60) out = std::to_string(minutes / 60) + "h" + out;
        }
    }
    return negative ? "-" + out : out;
}

}  // namespace keel::trace
