// Every precompile on arbitrary input: the first byte picks the precompile (0x01-0x11, 0x100)
// and the fork's gas rules (byte 2: before or after Istanbul/Berlin/Osaka repricings), the rest
// is the input, with 10,000,000 gas.
// Properties:
//   - no input crashes or reads out of bounds (ASan/UBSan): the decoders of BN254 points,
//     BLS12-381 (EIP-2537) elements and points, KZG commitments and proofs, MODEXP lengths,
//     BLAKE2F rounds, P256VERIFY and ECRECOVER inputs;
//   - success leaves gas in [0, gas]; a failure uses it all and has no output;
//   - outputs have their fixed sizes (BN254 points 64 bytes, EIP-2537 G1 128 and G2 256, the
//     pairing checks and point evaluation their words);
//   - running twice gives the same result (no hidden state, e.g. in lazily built constants);
//   - the additions (BN254 0x06, EIP-2537 0x0b/0x0d) commute: swapping the two points gives the
//     same result.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "keel/evm/precompiles.hpp"

namespace {

using namespace keel;

void check(bool ok) {
    if (!ok) std::abort();
}

constexpr std::uint16_t kIds[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
                                  0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x100};

bool same(const evm::CallResult& a, const evm::CallResult& b) {
    return a.status == b.status && a.gas_left == b.gas_left && a.output == b.output;
}

// The input with its two halves of `half` bytes swapped (the rest, if any, kept).
Bytes swapped(BytesView in, std::size_t half) {
    Bytes padded(in.begin(), in.end());
    if (padded.size() < 2 * half) padded.resize(2 * half, 0);
    Bytes out(padded.begin() + static_cast<std::ptrdiff_t>(half),
              padded.begin() + static_cast<std::ptrdiff_t>(2 * half));
    out.insert(out.end(), padded.begin(), padded.begin() + static_cast<std::ptrdiff_t>(half));
    out.insert(out.end(), padded.begin() + static_cast<std::ptrdiff_t>(2 * half), padded.end());
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::uint16_t id = kIds[data[0] % std::size(kIds)];
    const eth::Fork fork = data[1] & 1 ? eth::Fork::osaka : eth::Fork::byzantium;
    if (!evm::precompile_exists(id, fork)) return 0;
    const BytesView in(data + 2, size - 2);
    constexpr std::int64_t kGas = 10'000'000;
    const evm::CallResult r = evm::run_precompile(id, in, kGas, fork);
    if (r.status == evm::Status::success) {
        check(r.gas_left >= 0 && r.gas_left <= kGas);
    } else {
        check(r.status == evm::Status::out_of_gas || r.status == evm::Status::precompile_failure);
        check(r.gas_left == 0 && r.output.empty());
    }
    if (r.status == evm::Status::success) {
        switch (id) {
            case 0x06:
            case 0x07:
                check(r.output.size() == 64);
                break;
            case 0x08:
            case 0x0f:
                check(r.output.size() == 32 && r.output[31] <= 1);
                break;
            case 0x0a:
                check(r.output.size() == 64);
                break;
            case 0x0b:
            case 0x0c:
            case 0x10:
                check(r.output.size() == 128);
                break;
            case 0x0d:
            case 0x0e:
            case 0x11:
                check(r.output.size() == 256);
                break;
            default:
                break;
        }
    }
    check(same(r, evm::run_precompile(id, in, kGas, fork)));
    // Addition commutes (for BN254 on the padded 128 bytes; EIP-2537 needs the exact length).
    if (id == 0x06) check(same(r, evm::run_precompile(id, swapped(in, 64), kGas, fork)));
    if ((id == 0x0b && in.size() == 256) || (id == 0x0d && in.size() == 512)) {
        check(same(r, evm::run_precompile(id, swapped(in, in.size() / 2), kGas, fork)));
    }
    return 0;
}
