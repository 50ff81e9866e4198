#include "keel/devnet/beacon_spec.hpp"

#include "keel/beacon/presets.hpp"
#include "keel/common/assert.hpp"
#include "keel/devnet/beacon_values.hpp"

namespace keel::devnet {
namespace {

bool supported(beacon::Fork fork) noexcept {
    return fork == beacon::Fork::deneb || fork == beacon::Fork::electra ||
           fork == beacon::Fork::fulu;
}

std::uint64_t max_attestations(beacon::Fork fork) noexcept {
    return fork >= beacon::Fork::electra ? beacon::Mainnet::MAX_ATTESTATIONS_ELECTRA
                                         : beacon::Mainnet::MAX_ATTESTATIONS;
}

// How far into its fork a generated slot lies: kSlotOffset plus up to kSlotSpread.
constexpr std::uint64_t kSlotOffset = 100'000;
constexpr std::uint64_t kSlotSpread = 200'000;

}  // namespace

std::string_view describe(BeaconSpecErrc e) noexcept {
    switch (e) {
        case BeaconSpecError::unsupported_fork:
            return "fork not generated (want deneb, electra or fulu)";
        case BeaconSpecError::too_many_attestations:
            return "too many attestations for the fork (want at most 128 for deneb, 8 for "
                   "electra and fulu)";
        case BeaconSpecError::too_many_txs:
            return "too many transactions (want at most 5000)";
        case BeaconSpecError::no_validators:
            return "a state needs at least one validator (want 1..2000000)";
        case BeaconSpecError::too_many_validators:
            return "too many validators (want 1..2000000)";
    }
    return "unknown beacon spec error";
}

Result<void, BeaconSpecError> check(const BeaconBlockSpec& spec) noexcept {
    if (!supported(spec.fork)) return unexpected(BeaconSpecError::unsupported_fork);
    if (spec.attestations && *spec.attestations > max_attestations(spec.fork)) {
        return unexpected(BeaconSpecError::too_many_attestations);
    }
    if (spec.transactions > kMaxBeaconBlockTxs) return unexpected(BeaconSpecError::too_many_txs);
    return {};
}

Result<void, BeaconSpecError> check(const BeaconStateSpec& spec) noexcept {
    if (!supported(spec.fork)) return unexpected(BeaconSpecError::unsupported_fork);
    if (spec.validators == 0) return unexpected(BeaconSpecError::no_validators);
    if (spec.validators > kMaxBeaconValidators) {
        return unexpected(BeaconSpecError::too_many_validators);
    }
    return {};
}

std::uint64_t attestation_count(const BeaconBlockSpec& spec) noexcept {
    return spec.attestations.value_or(max_attestations(spec.fork));
}

std::uint64_t generated_slot(beacon::Fork fork, std::uint64_t seed) noexcept {
    KEEL_ASSERT(supported(fork));
    detail::Rng rng(seed, detail::kBeaconBlockStream, detail::kSlotPart);
    return detail::fork_first_slot(fork) + kSlotOffset + rng.below(kSlotSpread);
}

}  // namespace keel::devnet
