#include "keel/eth/chain_config.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>

#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"

namespace keel::eth {

namespace {

constexpr std::size_t index_of(Fork f) noexcept {
    return static_cast<std::size_t>(f);
}

constexpr bool by_time(Fork f) noexcept {
    return f >= Fork::shanghai;
}

Address address_of(std::string_view hex_text) {
    const auto a = hex::decode_fixed<Address>(hex_text);
    KEEL_ASSERT(a.has_value());
    return *a;
}

}  // namespace

SystemContracts SystemContracts::mainnet() {
    return {address_of("0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02"),
            address_of("0x0000F90827F1C53a10cb7A02335B175320002935"),
            address_of("0x00000961Ef480Eb55e80D19ad83579A64c007002"),
            address_of("0x0000BBdDc7CE488642fb579F8B00f3a590007251")};
}

SystemContracts SystemContracts::devnet6() {
    SystemContracts c = mainnet();
    c.empty_is_invalid = false;
    return c;
}

SystemContracts SystemContracts::devnet5() {
    return {address_of("0x000F3df6D732807Ef1319fB7B8bB8522d0Beac02"),
            address_of("0x0F792be4B0c0cb4DAE440Ef133E90C0eCD48CCCC"),
            address_of("0x0c15F14308530b7CDB8460094BbB9cC28b9AaaAA"),
            address_of("0x00431F263cE400f4455c2dCf564e53007Ca4bbBb"), false};
}

BlobParams default_blob_params(Fork f) noexcept {
    if (f < Fork::cancun) return {0, 0, 1};
    if (f == Fork::cancun) return {3, 6, 3338477};  // EIP-4844
    return {6, 9, 5007716};                         // EIP-7691 (Prague; Osaka keeps them)
}

std::string blob_params_problem(const BlobParams& p) {
    constexpr std::uint64_t kMaxBlobs = ~std::uint64_t{0} / kGasPerBlob;  // 2^47 - 1
    if (p.base_fee_update_fraction == 0) return "baseFeeUpdateFraction is 0";
    if (p.max > kMaxBlobs) return "max " + std::to_string(p.max) + " is above 2^47 - 1 blobs";
    if (p.target > p.max)
        return "target " + std::to_string(p.target) + " is above max " + std::to_string(p.max);
    return {};
}

namespace {

__extension__ typedef unsigned __int128 U128;

/// A 512-bit unsigned number, limbs least significant first: fake_exponential's sum and terms,
/// which reach 2^256 times the denominator (2^320) before the sum is known not to fit, and a
/// term times the numerator (2^384).
struct Wide {
    std::array<std::uint64_t, 8> limb{};

    bool is_zero() const noexcept {
        for (const std::uint64_t x : limb)
            if (x != 0) return false;
        return true;
    }
    /// *this >= o.
    bool at_least(const Wide& o) const noexcept {
        for (std::size_t i = limb.size(); i-- > 0;)
            if (limb[i] != o.limb[i]) return limb[i] > o.limb[i];
        return true;
    }
    /// *this += o (the callers' bounds keep it below 2^512).
    void add(const Wide& o) noexcept {
        unsigned carry = 0;
        for (std::size_t i = 0; i < limb.size(); ++i) {
            const U128 t = static_cast<U128>(limb[i]) + o.limb[i] + carry;
            limb[i] = static_cast<std::uint64_t>(t);
            carry = static_cast<unsigned>(t >> 64);
        }
    }
    /// *this *= m (likewise).
    void mul(std::uint64_t m) noexcept {
        std::uint64_t carry = 0;
        for (std::uint64_t& x : limb) {
            const U128 t = static_cast<U128>(x) * m + carry;
            x = static_cast<std::uint64_t>(t);
            carry = static_cast<std::uint64_t>(t >> 64);
        }
    }
    /// *this = floor(*this / d), d > 0.
    void div(std::uint64_t d) noexcept {
        U128 rem = 0;
        for (std::size_t i = limb.size(); i-- > 0;) {
            const U128 cur = rem << 64 | limb[i];
            limb[i] = static_cast<std::uint64_t>(cur / d);
            rem = cur % d;
        }
    }
};

}  // namespace

Uint256 blob_base_fee(std::uint64_t excess_blob_gas, std::uint64_t fraction) {
    KEEL_ASSERT(fraction > 0);
    // fake_exponential(factor, numerator, denominator) of EIP-4844 with factor 1: the Taylor
    // series of e^(n/d) summed in integers until a term is zero. The spec's integers are
    // unbounded; 256 bits are not enough for the terms (a term times the numerator wrapped, and
    // with a large excess the loop never reached zero). Here the sum and the terms are exact in
    // 512 bits, and the loop stops as soon as the sum reaches 2^256 * d, when the result cannot
    // fit: at most a few hundred terms for any input (past i = 2n/d each term at most halves,
    // and below that point a sum that stays under 2^256 * d needs n/d < 178).
    Wide output;
    Wide accum;  // factor * denominator
    accum.limb[0] = fraction;
    Wide limit;  // 2^256 * denominator
    limit.limb[4] = fraction;
    for (std::uint64_t i = 1; !accum.is_zero(); ++i) {
        output.add(accum);
        if (output.at_least(limit)) return Uint256::max();
        // accum < 2^320 here, so accum * n < 2^384; floor(floor(x / d) / i) = floor(x / (d i)).
        accum.mul(excess_blob_gas);
        accum.div(fraction);
        accum.div(i);
    }
    output.div(fraction);
    return Uint256::from_limbs(output.limb[0], output.limb[1], output.limb[2], output.limb[3]);
}

ChainConfig::ChainConfig() noexcept {
    activation_[index_of(Fork::frontier)] = 0;
}

ChainConfig ChainConfig::from_genesis(Fork f, std::uint64_t chain_id) {
    ChainConfig c;
    c.chain_id = chain_id;
    c.set_fork(f, 0);
    return c;
}

ChainConfig ChainConfig::mainnet() {
    // Activation points of Ethereum mainnet (execution-specs' fork criteria; EIP-7568's meta
    // EIPs). Constantinople and Petersburg activated at the same block (EIP-1716).
    ChainConfig c;
    c.set_fork(Fork::homestead, 1'150'000);
    c.set_fork(Fork::tangerine_whistle, 2'463'000);
    c.set_fork(Fork::spurious_dragon, 2'675'000);
    c.set_fork(Fork::byzantium, 4'370'000);
    c.set_fork(Fork::constantinople, 7'280'000);
    c.set_fork(Fork::petersburg, 7'280'000);
    c.set_fork(Fork::istanbul, 9'069'000);
    c.set_fork(Fork::berlin, 12'244'000);
    c.set_fork(Fork::london, 12'965'000);
    c.set_fork(Fork::paris, 15'537'394);  // the first proof-of-stake block
    c.set_fork(Fork::shanghai, 1'681'338'455);
    c.set_fork(Fork::cancun, 1'710'338'135);
    c.set_fork(Fork::prague, 1'746'612'311);
    c.set_fork(Fork::osaka, 1'764'798'551);
    // EIP-7892 blob-parameter-only forks of the Fusaka rollout.
    c.add_blob_schedule(1'765'290'071, {10, 15, 8'346'193});   // BPO1
    c.add_blob_schedule(1'767'747'671, {14, 21, 11'684'671});  // BPO2
    c.dao_fork_block = 1'920'000;                              // EIP-779
    c.set_bomb_delay(9'200'000, 9'000'000);                    // Muir Glacier, EIP-2384
    c.set_bomb_delay(13'773'000, 10'700'000);                  // Arrow Glacier, EIP-4345
    c.set_bomb_delay(15'050'000, 11'400'000);                  // Gray Glacier, EIP-5133
    c.terminal_total_difficulty = Uint256::from_dec("58750000000000000000000").value();
    return c;
}

void ChainConfig::set_fork(Fork f, std::uint64_t at) {
    activation_[index_of(f)] = at;
    // Earlier forks not scheduled yet: at the same point, or at block 0 when `f` is a time fork
    // and they are block forks.
    for (std::size_t i = index_of(f); i-- > 0;) {
        if (activation_[i]) continue;
        const Fork earlier = kForks[i];
        activation_[i] = by_time(f) && !by_time(earlier) ? 0 : at;
    }
}

void ChainConfig::merge_at_total_difficulty(const Uint256& ttd) {
    terminal_total_difficulty = ttd;
    activation_[index_of(Fork::paris)] = std::nullopt;
}

std::optional<std::uint64_t> ChainConfig::activation(Fork f) const noexcept {
    return activation_[index_of(f)];
}

Fork ChainConfig::fork_at(std::uint64_t number, std::uint64_t timestamp) const noexcept {
    Fork result = Fork::frontier;
    for (const Fork f : kForks) {
        const auto at = activation_[index_of(f)];
        if (!at) break;
        if ((by_time(f) ? timestamp : number) < *at) break;
        result = f;
    }
    return result;
}

void ChainConfig::set_blob_params(Fork f, BlobParams p) {
    blob_[index_of(f)] = p;
}

void ChainConfig::add_blob_schedule(std::uint64_t timestamp, BlobParams p) {
    const auto at = std::ranges::lower_bound(bpo_, timestamp, {}, &Scheduled::timestamp);
    bpo_.insert(at, Scheduled{timestamp, p});
}

std::vector<std::uint64_t> ChainConfig::blob_schedule_times() const {
    std::vector<std::uint64_t> out;
    out.reserve(bpo_.size());
    for (const Scheduled& s : bpo_) out.push_back(s.timestamp);
    return out;
}

BlobParams ChainConfig::blob_params(Fork fork, std::uint64_t timestamp) const noexcept {
    BlobParams p = blob_[index_of(fork)].value_or(default_blob_params(fork));
    const auto fork_time = activation_[index_of(fork)].value_or(0);
    for (const Scheduled& s : bpo_) {
        if (s.timestamp > timestamp) break;
        if (s.timestamp >= fork_time) p = s.params;
    }
    return p;
}

void ChainConfig::set_bomb_delay(std::uint64_t number, std::uint64_t delay) {
    const auto at = std::ranges::lower_bound(bomb_delays_, number, {}, &BombDelay::number);
    bomb_delays_.insert(at, BombDelay{number, delay});
}

std::uint64_t ChainConfig::bomb_delay(Fork fork, std::uint64_t number) const noexcept {
    std::uint64_t delay = 0;
    if (fork >= Fork::london)
        delay = 9'700'000;  // EIP-3554
    else if (fork >= Fork::berlin)
        delay = 9'000'000;  // EIP-2384 (Muir Glacier, before Berlin everywhere)
    else if (fork >= Fork::constantinople)
        delay = 5'000'000;  // EIP-1234
    else if (fork >= Fork::byzantium)
        delay = 3'000'000;  // EIP-649
    const auto fork_block = activation_[index_of(fork)].value_or(0);
    for (const BombDelay& d : bomb_delays_) {
        if (d.number > number) break;
        if (d.number >= fork_block) delay = d.delay;
    }
    return delay;
}

namespace {

/// A test network's fork name: a fork, or a fork that only moved the bomb (with its delay).
struct TestFork {
    Fork fork;
    std::optional<std::uint64_t> bomb_delay;
};

std::optional<TestFork> test_fork(std::string_view name) {
    if (name == "Merge") return TestFork{Fork::paris, {}};
    if (name == "MuirGlacier") return TestFork{Fork::istanbul, 9'000'000};  // EIP-2384
    if (name == "ArrowGlacier") return TestFork{Fork::london, 10'700'000};  // EIP-4345
    if (name == "GrayGlacier") return TestFork{Fork::london, 11'400'000};   // EIP-5133
    if (const auto f = parse_fork(name)) return TestFork{*f, {}};
    return std::nullopt;
}

ChainConfig from_test_fork(const TestFork& f, std::uint64_t chain_id) {
    ChainConfig c = ChainConfig::from_genesis(f.fork, chain_id);
    if (f.bomb_delay) c.set_bomb_delay(0, *f.bomb_delay);
    return c;
}

std::optional<std::uint64_t> count(std::string_view s) {
    std::uint64_t scale = 1;
    if (!s.empty() && s.back() == 'k') {
        scale = 1000;
        s.remove_suffix(1);
    }
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
    if (v > ~std::uint64_t{0} / scale) return std::nullopt;
    return v * scale;
}

}  // namespace

std::optional<ChainConfig> test_network(std::string_view name, std::uint64_t chain_id) {
    if (const auto f = test_fork(name)) return from_test_fork(*f, chain_id);
    // "<A>To<B>At[Time|Diff]<N>": A from genesis, B from N.
    const auto to = name.find("To");
    const auto at = name.rfind("At");
    if (to == std::string_view::npos || at == std::string_view::npos || at <= to) return {};
    const auto from = test_fork(name.substr(0, to));
    if (!from) return {};
    const std::string_view next_name = name.substr(to + 2, at - to - 2);
    std::string_view point = name.substr(at + 2);
    ChainConfig c = from_test_fork(*from, chain_id);
    if (next_name == "Dao") {  // EIP-779 at block N
        const auto n = count(point);
        if (!n || from->fork != Fork::homestead) return {};
        c.dao_fork_block = *n;
        return c;
    }
    const auto next = test_fork(next_name);
    if (!next || next->fork <= from->fork) return {};
    if (point.starts_with("Diff")) {  // the Merge at a terminal total difficulty (hex)
        point.remove_prefix(4);
        const auto ttd = Uint256::from_hex(point);
        if (next->fork != Fork::paris || point.empty() || !ttd) return {};
        c.terminal_total_difficulty = *ttd;
        return c;
    }
    const bool time = point.starts_with("Time");
    if (time) point.remove_prefix(4);
    const auto n = count(point);
    if (!n || time != by_time(next->fork)) return {};
    c.set_fork(next->fork, *n);
    if (next->bomb_delay) c.set_bomb_delay(*n, *next->bomb_delay);
    return c;
}

}  // namespace keel::eth
