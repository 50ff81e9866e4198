#include "keel/devnet/beacon_validators.hpp"

#include <algorithm>

#include "keel/devnet/beacon_values.hpp"

namespace keel::devnet {
namespace {

using detail::kEthInGwei;
using detail::kFarFutureEpoch;
using detail::Rng;

constexpr std::uint64_t kGenesisValidators = 21'063;          // mainnet's genesis count
constexpr std::uint64_t kWithdrawabilityDelay = 256;          // MIN_VALIDATOR_WITHDRAWABILITY_DELAY
constexpr std::uint64_t kSlashedWithdrawabilityDelay = 8192;  // EPOCHS_PER_SLASHINGS_VECTOR
constexpr std::uint64_t kTimelyAll = 0b111;                   // altair: source, target, head

// Where the validators' activation epochs lie, for a state of `p`.
struct Schedule {
    std::uint64_t genesis;     // validators [0, genesis) active from epoch 0
    std::uint64_t queued;      // validators [queued, count) waiting for activation
    std::uint64_t last_epoch;  // the activation epoch of validator queued - 1
};

Schedule schedule(const ValidatorParams& p) noexcept {
    Schedule s;
    s.genesis = std::min(p.count, kGenesisValidators);
    s.queued = std::max(s.genesis, p.count - p.count / 200);
    s.last_epoch = p.epoch > 6 ? p.epoch - 5 : 1;
    return s;
}

std::uint8_t credentials_prefix(Rng& rng, beacon::Fork fork) noexcept {
    const std::uint64_t roll = rng.below(100);
    if (fork >= beacon::Fork::electra && roll < 6) return 0x02;
    return roll < 20 ? 0x00 : 0x01;
}

Bytes32 credentials(Rng& rng, std::uint8_t prefix) noexcept {
    if (prefix != 0x00) return detail::address_credentials(prefix, rng.fixed<20>());
    Bytes32 c = rng.fixed<32>();  // stands for sha256(BLS withdrawal key)[1:]
    c[0] = 0x00;
    return c;
}

// 32-2048 ETH, most near 32: 32 + 2016 * x^3 for x uniform in [0, 1].
std::uint64_t compounding_balance(Rng& rng) noexcept {
    const std::uint64_t x = rng.below(1001);
    return (32 + 2016 * x * x * x / 1'000'000'000) * kEthInGwei;
}

void fill_one(const ValidatorParams& p, const Schedule& s, std::size_t i,
              const ValidatorColumns& out) noexcept {
    Rng rng(p.seed, detail::kBeaconValidatorStream, i);
    beacon::deneb::Validator& v = out.validators[i];
    v.pubkey = detail::fake_pubkey(rng);
    const std::uint8_t prefix = credentials_prefix(rng, p.fork);
    v.withdrawal_credentials = credentials(rng, prefix);

    v.exit_epoch = kFarFutureEpoch;
    v.withdrawable_epoch = kFarFutureEpoch;
    if (i < s.genesis) {
        v.activation_eligibility_epoch = 0;
        v.activation_epoch = 0;
    } else if (i >= s.queued) {
        v.activation_eligibility_epoch = p.epoch - std::min(p.epoch, rng.below(4));
        v.activation_epoch = kFarFutureEpoch;
    } else {
        // Activated in index order, from epoch 1 to s.last_epoch.
        const std::uint64_t span = s.queued - s.genesis;
        v.activation_epoch = 1 + (i - s.genesis) * (s.last_epoch - 1) / span;
        v.activation_eligibility_epoch =
            v.activation_epoch - std::min(v.activation_epoch, rng.between(1, 4));
    }

    const bool activated = i < s.queued;
    v.slashed = activated && rng.below(10'000) < 5;
    if (activated && (v.slashed || rng.chance(8))) {
        v.exit_epoch = rng.between(v.activation_epoch + 1, p.epoch + 8);
        v.withdrawable_epoch =
            v.exit_epoch + (v.slashed ? kSlashedWithdrawabilityDelay : kWithdrawabilityDelay);
    }

    std::uint64_t& balance = out.balances[i];
    if (prefix != 0x00 && v.withdrawable_epoch <= p.epoch) {
        v.effective_balance = 0;  // fully withdrawn by the sweep
        balance = 0;
    } else {
        if (prefix == 0x02) {
            v.effective_balance = compounding_balance(rng);
        } else {
            v.effective_balance = (v.slashed || rng.chance(3) ? 31 : 32) * kEthInGwei;
        }
        const std::uint64_t above = prefix == 0x00 ? 2'200'000'000 : 260'000'000;
        balance = v.effective_balance - 200'000'000 + rng.below(above);
    }

    const bool active = is_active(v, p.epoch);
    const auto flags = [&rng]() {
        return static_cast<std::uint8_t>(rng.chance(90) ? kTimelyAll : rng.below(kTimelyAll));
    };
    out.previous_participation[i] = active ? flags() : 0;
    out.current_participation[i] = active ? flags() : 0;
    out.inactivity_scores[i] = active && rng.chance(1) ? rng.between(1, 100) : 0;
}

}  // namespace

void fill_validators(const ValidatorParams& params, std::size_t begin, std::size_t end,
                     const ValidatorColumns& out) noexcept {
    const Schedule s = schedule(params);
    for (std::size_t i = begin; i < end; ++i) fill_one(params, s, i, out);
}

}  // namespace keel::devnet
