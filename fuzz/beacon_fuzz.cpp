// Beacon container decoders and a differential check of their roots. The first input byte picks
// a consensus type (keel/beacon), the rest is decoded as it.
// Properties:
//   - no input crashes or reads out of bounds (ASan/UBSan);
//   - decode -> encode -> decode is stable: an accepted input re-encodes to exactly itself and
//     decodes again to an equal encoding;
//   - the root does not depend on how the value was built: a fresh decode, a decode into a value
//     that held the previous input of that type (lists shrink, bitlists are reused), and the
//     batched path that roots many values at once (detail::batch_roots, used for lists of
//     containers) all give the same hash_tree_root.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "keel/beacon/altair.hpp"
#include "keel/beacon/capella.hpp"
#include "keel/beacon/deneb.hpp"
#include "keel/beacon/electra.hpp"
#include "keel/beacon/fulu.hpp"
#include "keel/beacon/phase0.hpp"
#include "keel/ssz/ssz.hpp"

namespace {

using namespace keel;
using namespace keel::beacon;

void check(bool ok) {
    if (!ok) std::abort();
}

template <class T>
void run(BytesView in) {
    auto fresh = std::make_unique<T>();
    auto r = ssz::decode_into(in, *fresh);
    if (!r) {
        check(!ssz::to_string(r.error()).empty());
        return;
    }
    const Bytes out = ssz::encode(*fresh);
    check(out.size() == in.size() && std::equal(out.begin(), out.end(), in.begin()));
    check(ssz::encoded_size(*fresh) == in.size());

    // One value per type kept across inputs: decoding into it overwrites whatever it held.
    static auto reused = std::make_unique<T>();
    check(ssz::decode_into(out, *reused).has_value());
    check(ssz::encode(*reused) == out);

    const Hash32 root = ssz::hash_tree_root(*fresh);
    check(ssz::hash_tree_root(*reused) == root);
    std::array<std::uint8_t, 3 * 64> batched{};
    const T* values[3] = {fresh.get(), reused.get(), fresh.get()};
    ssz::detail::batch_roots<T>(
        3, [&](std::size_t i) -> const T& { return *values[i]; }, batched.data(), 64);
    for (std::size_t i = 0; i < 3; ++i) {
        check(std::memcmp(batched.data() + 64 * i, root.data(), 32) == 0);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const BytesView in(data + 1, size - 1);
    switch (data[0] % 17) {
        case 0:
            run<phase0::Attestation<Mainnet>>(in);
            break;
        case 1:
            run<deneb::AttesterSlashing<Minimal>>(in);
            break;
        case 2:
            run<deneb::BeaconBlockBody<Minimal>>(in);
            break;
        case 3:
            run<deneb::ExecutionPayload<Minimal>>(in);
            break;
        case 4:
            run<electra::Attestation<Minimal>>(in);
            break;
        case 5:
            run<capella::SignedBLSToExecutionChange>(in);
            break;
        case 6:
            run<altair::SyncAggregate<Minimal>>(in);
            break;
        case 7:
            run<electra::ExecutionRequests<Minimal>>(in);
            break;
        case 8:
            run<electra::SignedBeaconBlock<Minimal>>(in);
            break;
        case 10:
            run<fulu::DataColumnSidecar<Minimal>>(in);
            break;
        case 11:
            run<fulu::DataColumnsByRootIdentifier<Mainnet>>(in);
            break;
        case 12:
            run<phase0::SignedAggregateAndProofOf<
                phase0::AggregateAndProofOf<electra::Attestation<Minimal>>>>(in);
            break;
        case 13:
            run<fulu::MetaData>(in);
            break;
        case 14:
            run<fulu::DataColumnSidecarsByRangeRequest<Minimal>>(in);
            break;
        case 15:
            run<fulu::BlockContents<Minimal>>(in);
            break;
        case 16:
            run<fulu::BlobsBundle<Minimal>>(in);
            break;
        default:
            run<phase0::Validator>(in);
            break;
    }
    return 0;
}
