// SSZ decoder fuzz target. The first input byte picks a type, the rest is decoded as it.
// Properties:
//   - no input crashes or reads out of bounds (ASan/UBSan);
//   - an accepted input re-encodes to exactly itself (decoding is strict: one encoding per
//     value), encoded_size agrees, and decoding the re-encoding gives an equal value;
//   - its hash_tree_root is stable (the same twice, and the same for the re-decoded value).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "keel/ssz/generic_test_types.hpp"
#include "keel/ssz/ssz.hpp"

namespace {

using namespace keel;
using namespace keel::ssz;

void check(bool ok) {
    if (!ok) std::abort();
}

template <class T>
void run(BytesView in) {
    auto r = decode<T>(in);
    if (!r) {
        check(!to_string(r.error()).empty());
        return;
    }
    const Bytes out = encode(*r);
    check(out.size() == in.size() && std::equal(out.begin(), out.end(), in.begin()));
    check(encoded_size(*r) == in.size());
    auto again = decode<T>(out);
    check(again.has_value() && *again == *r);
    const Hash32 root = hash_tree_root(*r);
    check(hash_tree_root(*r) == root && hash_tree_root(*again) == root);
}

/// Containers with nesting, unions and bit types beyond the spec's generic ones.
struct Mixed {
    Union<None, std::uint64_t, generic::VarTestStruct> U;
    List<Bitlist<70>, 8> bits;
    Vector<ByteList<9>, 2> pair;
    Bitvector<12> flags;
    static constexpr std::string_view ssz_name = "Mixed";
    static constexpr auto ssz_fields() {
        return std::tuple{field("U", &Mixed::U), field("bits", &Mixed::bits),
                          field("pair", &Mixed::pair), field("flags", &Mixed::flags)};
    }
    friend bool operator==(const Mixed&, const Mixed&) = default;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const BytesView in(data + 1, size - 1);
    switch (data[0] % 9) {
        case 0:
            run<generic::ComplexTestStruct>(in);
            break;
        case 1:
            run<generic::VarTestStruct>(in);
            break;
        case 2:
            run<generic::BitsStruct>(in);
            break;
        case 3:
            run<generic::FixedTestStruct>(in);
            break;
        case 4:
            run<Mixed>(in);
            break;
        case 5:
            run<List<generic::VarTestStruct, 16>>(in);
            break;
        case 6:
            run<Bitlist<513>>(in);
            break;
        case 7:
            run<Vector<Uint256, 3>>(in);
            break;
        default:
            run<List<Union<None, ByteList<3>, Bitvector<9>>, 5>>(in);
            break;
    }
    return 0;
}
