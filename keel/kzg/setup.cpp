#include "keel/kzg/setup.hpp"

#include <string_view>
#include <vector>

#include "keel/bls/serialize.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"
#include "keel/kzg/domain.hpp"

namespace keel::kzg::setup {

namespace {

// The file's lines, each a string literal (one literal of the whole file would pass the
// length compilers are required to support).
constexpr const char* kLines[] = {
#include "keel/kzg/trusted_setup.inc"
};

// Lines of the file: [0] = "4096", [1] = "65", then 4096 G1 Lagrange, 65 G2 monomial, 4096 G1
// monomial points.
constexpr std::size_t kFirstG1Lagrange = 2;
constexpr std::size_t kFirstG2 = kFirstG1Lagrange + kG1Points;
constexpr std::size_t kFirstG1Monomial = kFirstG2 + kG2Points;

std::span<const char* const> lines() {
    static_assert(std::size(kLines) == kFirstG1Monomial + kG1Points);
    return kLines;
}

bls::G1Affine g1_at(std::size_t line) {
    const auto bytes = hex::decode(std::string_view(lines()[line]));
    KEEL_ASSERT(bytes && bytes->size() == 48);
    const auto p = bls::g1_from_bytes(*bytes, bls::SubgroupCheck::kSkip);
    KEEL_ASSERT(p.has_value());  // the embedded constant: cannot fail
    return *p;
}

}  // namespace

std::span<const bls::G1Affine> g1_lagrange_brp() {
    static const std::vector<bls::G1Affine> points = [] {
        std::vector<bls::G1Affine> out(kG1Points);
        for (std::size_t i = 0; i < kG1Points; ++i)
            out[i] = g1_at(kFirstG1Lagrange + reverse_bits(i, kG1Points));
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
            const auto bytes = hex::decode(std::string_view(lines()[kFirstG2 + i]));
            KEEL_ASSERT(bytes && bytes->size() == 96);
            const auto p = bls::g2_from_bytes(*bytes, bls::SubgroupCheck::kSkip);
            KEEL_ASSERT(p.has_value());
            out[i] = *p;
        }
        return out;
    }();
    return points;
}

std::span<const char* const> text_lines() noexcept {
    return kLines;
}

}  // namespace keel::kzg::setup
