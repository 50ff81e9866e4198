#pragma once
/// The six containers of the consensus-spec-tests `ssz_generic/containers` suite
/// (tests/formats/ssz_generic/README.md), declared with the keel::ssz container API. Used by
/// the spec runner, the fuzz target and the benchmarks; also a worked example of declaring
/// containers.

#include <cstdint>
#include <string_view>
#include <tuple>

#include "keel/ssz/ssz.hpp"

namespace keel::ssz::generic {

/// SingleFieldTestStruct {A: byte}
struct SingleFieldTestStruct {
    std::uint8_t A = 0;
    static constexpr std::string_view ssz_name = "SingleFieldTestStruct";
    static constexpr auto ssz_fields() { return std::tuple{field("A", &SingleFieldTestStruct::A)}; }
    friend bool operator==(const SingleFieldTestStruct&, const SingleFieldTestStruct&) = default;
};

/// SmallTestStruct {A: uint16, B: uint16}
struct SmallTestStruct {
    std::uint16_t A = 0;
    std::uint16_t B = 0;
    static constexpr std::string_view ssz_name = "SmallTestStruct";
    static constexpr auto ssz_fields() {
        using T = SmallTestStruct;
        return std::tuple{field("A", &T::A), field("B", &T::B)};
    }
    friend bool operator==(const SmallTestStruct&, const SmallTestStruct&) = default;
};

/// FixedTestStruct {A: uint8, B: uint64, C: uint32}
struct FixedTestStruct {
    std::uint8_t A = 0;
    std::uint64_t B = 0;
    std::uint32_t C = 0;
    static constexpr std::string_view ssz_name = "FixedTestStruct";
    static constexpr auto ssz_fields() {
        using T = FixedTestStruct;
        return std::tuple{field("A", &T::A), field("B", &T::B), field("C", &T::C)};
    }
    friend bool operator==(const FixedTestStruct&, const FixedTestStruct&) = default;
};

/// VarTestStruct {A: uint16, B: List[uint16, 1024], C: uint8}
struct VarTestStruct {
    std::uint16_t A = 0;
    List<std::uint16_t, 1024> B;
    std::uint8_t C = 0;
    static constexpr std::string_view ssz_name = "VarTestStruct";
    static constexpr auto ssz_fields() {
        using T = VarTestStruct;
        return std::tuple{field("A", &T::A), field("B", &T::B), field("C", &T::C)};
    }
    friend bool operator==(const VarTestStruct&, const VarTestStruct&) = default;
};

/// ComplexTestStruct {A: uint16, B: List[uint16, 128], C: uint8, D: ByteList[256],
///                    E: VarTestStruct, F: Vector[FixedTestStruct, 4],
///                    G: Vector[VarTestStruct, 2]}
struct ComplexTestStruct {
    std::uint16_t A = 0;
    List<std::uint16_t, 128> B;
    std::uint8_t C = 0;
    ByteList<256> D;
    VarTestStruct E;
    Vector<FixedTestStruct, 4> F;
    Vector<VarTestStruct, 2> G;
    static constexpr std::string_view ssz_name = "ComplexTestStruct";
    static constexpr auto ssz_fields() {
        using T = ComplexTestStruct;
        return std::tuple{field("A", &T::A), field("B", &T::B), field("C", &T::C),
                          field("D", &T::D), field("E", &T::E), field("F", &T::F),
                          field("G", &T::G)};
    }
    friend bool operator==(const ComplexTestStruct&, const ComplexTestStruct&) = default;
};

/// BitsStruct {A: Bitlist[5], B: Bitvector[2], C: Bitvector[1], D: Bitlist[6], E: Bitvector[8]}
struct BitsStruct {
    Bitlist<5> A;
    Bitvector<2> B;
    Bitvector<1> C;
    Bitlist<6> D;
    Bitvector<8> E;
    static constexpr std::string_view ssz_name = "BitsStruct";
    static constexpr auto ssz_fields() {
        using T = BitsStruct;
        return std::tuple{field("A", &T::A), field("B", &T::B), field("C", &T::C),
                          field("D", &T::D), field("E", &T::E)};
    }
    friend bool operator==(const BitsStruct&, const BitsStruct&) = default;
};

}  // namespace keel::ssz::generic
