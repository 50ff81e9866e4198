#pragma once
// Test helpers: field elements as the vector files write them (hex of any length up to 96
// digits, with or without 0x; Fp2 as "c0,c1"). A value outside the field fails the test that
// reads it (the vectors are trusted data, so that is a broken file, not an input to handle).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "keel/bls/detail/fp2.hpp"
#include "keel/common/hex.hpp"

namespace keel::bls::test {

inline Fp fp_of(std::string s) {
    if (s.starts_with("0x")) s = s.substr(2);
    s.insert(0, 96 - std::min<std::size_t>(96, s.size()), '0');
    const auto b = hex::decode(s);
    EXPECT_TRUE(b.has_value() && b->size() == 48) << s;
    if (!b || b->size() != 48) return Fp();
    const auto v = Fp::from_bytes(std::span<const std::uint8_t, 48>(b->data(), 48));
    EXPECT_TRUE(v.has_value()) << "not below p: " << s;
    return v.value_or(Fp());
}

inline Fp2 fp2_of(const std::string& s) {
    const auto comma = s.find(',');
    return {fp_of(s.substr(0, comma)), fp_of(s.substr(comma + 1))};
}

}  // namespace keel::bls::test
