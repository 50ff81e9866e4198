#include "keel/kzg/setup.hpp"

#include <vector>

#include "keel/bls/serialize.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"

namespace keel::kzg::setup {

namespace {

// An array, not a string_view: a constexpr strlen of 800 KB passes the compilers' limits.
constexpr char kTextChars[] =
#include "keel/kzg/trusted_setup.inc"
    ;
constexpr std::string_view kText(kTextChars, sizeof kTextChars - 1);

// Lines of the file: [0] = "4096", [1] = "65", then 4096 G1 Lagrange, 65 G2 monomial, 4096 G1
// monomial points.
constexpr std::size_t kFirstG1Lagrange = 2;
constexpr std::size_t kFirstG2 = kFirstG1Lagrange + kG1Points;
constexpr std::size_t kFirstG1Monomial = kFirstG2 + kG2Points;

const std::vector<std::string_view>& lines() {
    static const std::vector<std::string_view> all = [] {
        std::vector<std::string_view> out;
        std::string_view rest = kText;
        while (!rest.empty()) {
            const auto nl = rest.find('\n');
            const auto line = rest.substr(0, nl);
            if (!line.empty()) out.push_back(line);
            if (nl == std::string_view::npos) break;
            rest.remove_prefix(nl + 1);
        }
        KEEL_ASSERT(out.size() == kFirstG1Monomial + kG1Points);
        KEEL_ASSERT(out[0] == "4096" && out[1] == "65");
        return out;
    }();
    return all;
}

bls::G1Affine g1_at(std::size_t line) {
    const auto bytes = hex::decode(lines()[line]);
    KEEL_ASSERT(bytes && bytes->size() == 48);
    const auto p = bls::g1_from_bytes(*bytes, bls::SubgroupCheck::kSkip);
    KEEL_ASSERT(p.has_value());  // the embedded constant: cannot fail
    return *p;
}

std::size_t reverse_bits_12(std::size_t i) {
    std::size_t r = 0;
    for (int b = 0; b < 12; ++b) r |= ((i >> b) & 1) << (11 - b);
    return r;
}

}  // namespace

std::span<const bls::G1Affine> g1_lagrange_brp() {
    static const std::vector<bls::G1Affine> points = [] {
        std::vector<bls::G1Affine> out(kG1Points);
        for (std::size_t i = 0; i < kG1Points; ++i)
            out[i] = g1_at(kFirstG1Lagrange + reverse_bits_12(i));
        return out;
    }();
    return points;
}

std::span<const bls::G1Affine> g1_monomial() {
    static const std::vector<bls::G1Affine> points = [] {
        std::vector<bls::G1Affine> out(kG1Points);
        for (std::size_t i = 0; i < kG1Points; ++i) out[i] = g1_at(kFirstG1Monomial + i);
        return out;
    }();
    return points;
}

std::span<const bls::G2Affine> g2_monomial() {
    static const std::vector<bls::G2Affine> points = [] {
        std::vector<bls::G2Affine> out(kG2Points);
        for (std::size_t i = 0; i < kG2Points; ++i) {
            const auto bytes = hex::decode(lines()[kFirstG2 + i]);
            KEEL_ASSERT(bytes && bytes->size() == 96);
            const auto p = bls::g2_from_bytes(*bytes, bls::SubgroupCheck::kSkip);
            KEEL_ASSERT(p.has_value());
            out[i] = *p;
        }
        return out;
    }();
    return points;
}

std::string_view text() noexcept {
    return kText;
}

}  // namespace keel::kzg::setup
