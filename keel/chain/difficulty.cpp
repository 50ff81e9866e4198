#include "keel/chain/difficulty.hpp"

namespace keel::chain {

Uint256 expected_difficulty(const eth::Header& parent, std::uint64_t number,
                            std::uint64_t timestamp, eth::Fork fork, std::uint64_t bomb_delay) {
    using eth::Fork;
    const Uint256& pd = parent.difficulty;
    const Uint256 step = pd / Uint256(2048);
    const std::uint64_t elapsed = timestamp - parent.timestamp;
    Uint256 d = pd;
    if (fork < Fork::homestead) {
        // Frontier: up by a step when the block came within 13 seconds, else down by one.
        if (elapsed < 13)
            d = pd + step;
        else
            d = pd - step;
    } else {
        // EIP-2: the step times max(1 - elapsed / 10, -99); EIP-100 from Byzantium: times
        // max((2 if the parent has ommers else 1) - elapsed / 9, -99).
        const bool byzantium = fork >= Fork::byzantium;
        const std::int64_t base = byzantium && parent.ommers_hash != eth::kEmptyOmmersHash ? 2 : 1;
        const std::uint64_t periods = elapsed / (byzantium ? 9 : 10);
        const std::int64_t factor =
            periods >= 100 ? -99 : std::max<std::int64_t>(base - std::int64_t(periods), -99);
        if (factor >= 0) {
            d = pd + step * Uint256(std::uint64_t(factor));
        } else {
            const Uint256 down = step * Uint256(std::uint64_t(-factor));
            d = down > pd ? Uint256(0) : pd - down;
        }
    }
    if (d < Uint256(kMinimumDifficulty)) d = Uint256(kMinimumDifficulty);
    // The bomb: 2^(n / 100,000 - 2) once n / 100,000 >= 2, n the number less the fork's delay
    // (geth clamps before adding the bomb, as here; the two orders differ only below the
    // minimum).
    const std::uint64_t fake = number > bomb_delay ? number - bomb_delay : 0;
    const std::uint64_t bomb_periods = fake / 100'000;
    if (bomb_periods >= 2) d += Uint256(1) << static_cast<unsigned>(bomb_periods - 2);
    return d;
}

}  // namespace keel::chain
