// SSZ JSON reader fuzz target (keel/ssz/json.hpp). The first input byte picks a type, the rest
// is JSON text read as it. Properties:
//   - no input crashes, reads out of bounds or trips an encoder assert (ASan/UBSan, KEEL_ASSERT):
//     a value from_json accepts is within every limit;
//   - a rejected input has a one-line message naming the type;
//   - an accepted value encodes to SSZ that decodes again, prints the same JSON as the decoded
//     value, and that JSON reads back to the same bytes (compact and indented).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "keel/beacon/deneb.hpp"
#include "keel/beacon/electra.hpp"
#include "keel/beacon/phase0.hpp"
#include "keel/ssz/generic_test_types.hpp"
#include "keel/ssz/json.hpp"
#include "keel/ssz/ssz.hpp"

namespace {

using namespace keel;
using namespace keel::ssz;

void check(bool ok) {
    if (!ok) std::abort();
}

/// Reads `text` (one JSON document) as T; returns the encoding, or nothing when rejected.
template <class T>
bool read(std::string_view text, T& out, Bytes& encoded) {
    const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return false;
    auto r = from_json(j, out);
    if (!r) {
        const std::string message = to_string(r.error());
        check(message.find('\n') == std::string::npos);
        check(r.error().path.starts_with(Codec<T>::name()));
        return false;
    }
    encoded = encode(out);
    return true;
}

template <class T>
void run(std::string_view text) {
    // On the heap: a BeaconBlockBody is kilobytes of fixed fields.
    auto value = std::make_unique<T>();
    Bytes bytes;
    if (!read(text, *value, bytes)) return;
    auto decoded = std::make_unique<T>();
    check(decode_into(bytes, *decoded).has_value());
    const std::string printed = to_json(*value);
    check(to_json(*decoded) == printed);
    for (JsonLayout layout : {JsonLayout::compact, JsonLayout::pretty}) {
        auto again = std::make_unique<T>();
        Bytes bytes_again;
        check(read(to_json(*decoded, layout), *again, bytes_again));
        check(bytes_again == bytes);
    }
}

/// Unions, bit types and every basic type, beyond what the beacon containers use.
struct Mixed {
    Union<None, std::uint64_t, generic::VarTestStruct> U;
    List<Union<None, ByteList<3>, Bitvector<9>>, 5> unions;
    Bitlist<70> bits;
    Vector<bool, 3> flags;
    Uint128 u128;
    Uint256 u256;
    List<std::uint8_t, 4> small;
    static constexpr std::string_view ssz_name = "Mixed";
    static constexpr auto ssz_fields() {
        return std::tuple{field("U", &Mixed::U),        field("unions", &Mixed::unions),
                          field("bits", &Mixed::bits),  field("flags", &Mixed::flags),
                          field("u128", &Mixed::u128),  field("u256", &Mixed::u256),
                          field("small", &Mixed::small)};
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 6) {
        case 0:
            run<beacon::phase0::mainnet::Attestation>(text);
            break;
        case 1:
            run<beacon::deneb::mainnet::BeaconBlockBody>(text);
            break;
        case 2:
            run<Mixed>(text);
            break;
        case 3:
            run<generic::ComplexTestStruct>(text);
            break;
        case 4:
            run<beacon::electra::mainnet::Attestation>(text);
            break;
        default:
            run<List<Union<None, std::uint16_t, generic::BitsStruct>, 3>>(text);
            break;
    }
    return 0;
}
