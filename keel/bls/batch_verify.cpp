#include "keel/bls/batch_verify.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "keel/bls/g1.hpp"
#include "keel/bls/hash_to_curve.hpp"
#include "keel/bls/pairing.hpp"
#include "keel/common/parallel.hpp"

namespace keel::bls {

namespace {

/// The sets of one message: their indices.
struct Group {
    BytesView message;
    std::vector<std::size_t> sets;
};

/// What one task contributes: the Miller loop product of its groups, and its part of the
/// scalar-weighted signature sum.
struct Partial {
    Fp12 f = Fp12::one();
    G2Jacobian sig_sum;
};

/// Orders messages by their bytes (grouping must see equal messages, not equal pointers).
struct MessageLess {
    bool operator()(BytesView a, BytesView b) const noexcept {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    }
};

std::vector<Group> group_by_message(std::span<const SignatureSet> sets) {
    std::map<BytesView, std::size_t, MessageLess> index;
    std::vector<Group> groups;
    for (std::size_t i = 0; i < sets.size(); ++i) {
        auto [it, fresh] = index.try_emplace(sets[i].message, groups.size());
        if (fresh) groups.push_back(Group{sets[i].message, {}});
        groups[it->second].sets.push_back(i);
    }
    return groups;
}

Partial run_groups(std::span<const SignatureSet> sets, std::span<const std::uint64_t> scalars,
                   std::span<const Group> groups) {
    Partial out;
    std::vector<std::pair<G1Affine, G2Affine>> pairs;
    pairs.reserve(groups.size());
    // The weighted signatures are summed kMaxTerms at a time over one shared chain of
    // doublings (Straus–Shamir, sum_of_products_vartime) instead of one chain per signature.
    std::array<G2Jacobian, G2Jacobian::kMaxTerms> sig_points;
    std::array<std::array<std::uint64_t, 2>, G2Jacobian::kMaxTerms> sig_scalars;
    std::size_t pending = 0;
    auto flush = [&] {
        out.sig_sum = out.sig_sum.add_vartime(G2Jacobian::sum_of_products_vartime(
            std::span(sig_points.data(), pending), std::span(sig_scalars.data(), pending)));
        pending = 0;
    };
    // Every message's hash at once: their square roots run together (hash_to_g2_many).
    std::vector<BytesView> messages;
    messages.reserve(groups.size());
    for (const Group& g : groups) messages.push_back(g.message);
    std::vector<G2Jacobian> hashes(groups.size());
    hash_to_g2_many(messages, hashes);
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const Group& g = groups[gi];
        G1Jacobian key_sum;
        for (const std::size_t i : g.sets) {
            const Scalar r({scalars[i], 0, 0, 0});
            key_sum =
                key_sum.add_vartime(G1Jacobian::from_affine(sets[i].pubkey.point()).mul_vartime(r));
            sig_points[pending] = G2Jacobian::from_affine(sets[i].signature.point());
            sig_scalars[pending] = {scalars[i], 0};
            if (++pending == G2Jacobian::kMaxTerms) flush();
        }
        pairs.emplace_back(key_sum.to_affine_vartime(), hashes[gi].to_affine_vartime());
    }
    if (pending != 0) flush();
    out.f = miller_loop(pairs);
    return out;
}

}  // namespace

bool batch_verify_with_scalars(std::span<const SignatureSet> sets,
                               std::span<const std::uint64_t> scalars) {
    if (sets.empty() || scalars.size() != sets.size()) return false;
    const std::vector<Group> groups = group_by_message(sets);
    // A task per few groups: each group costs a hash to G2 and a Miller loop, ~1 ms.
    const std::size_t grain = std::max<std::size_t>(
        1, groups.size() / (4 * std::max<std::size_t>(1, parallel::concurrency())));
    const Partial total = parallel::map_reduce(
        groups.size(), grain, Partial{},
        [&](std::size_t begin, std::size_t end) {
            return run_groups(sets, scalars, std::span(groups).subspan(begin, end - begin));
        },
        [](Partial a, const Partial& b) {
            a.f = a.f * b.f;
            a.sig_sum = a.sig_sum.add_vartime(b.sig_sum);
            return a;
        });
    const std::array<std::pair<G1Affine, G2Affine>, 1> last{
        std::pair{kG1GeneratorNeg, total.sig_sum.to_affine_vartime()}};
    return final_exponentiation(total.f * miller_loop(last)).is_one();
}

Result<bool, crypto::RandomError> batch_verify(std::span<const SignatureSet> sets) {
    std::vector<std::uint64_t> scalars(sets.size());
    for (;;) {
        auto r = crypto::random_bytes(
            MutableBytesView(reinterpret_cast<std::uint8_t*>(scalars.data()), scalars.size() * 8));
        if (!r) return std::unexpected(r.error());
        // Zero would drop a set from the check: draw again (probability n / 2^64).
        if (std::find(scalars.begin(), scalars.end(), 0) == scalars.end()) break;
    }
    return batch_verify_with_scalars(sets, scalars);
}

std::optional<std::size_t> find_invalid_set(std::span<const SignatureSet> sets) {
    std::atomic<std::size_t> first{sets.size()};
    parallel::for_each_index(sets.size(), 1, [&](std::size_t i) {
        if (i >= first.load(std::memory_order_relaxed)) return;
        if (!verify(sets[i].pubkey, sets[i].message, sets[i].signature)) {
            std::size_t cur = first.load(std::memory_order_relaxed);
            while (i < cur && !first.compare_exchange_weak(cur, i, std::memory_order_relaxed)) {
            }
        }
    });
    const std::size_t bad = first.load();
    if (bad == sets.size()) return std::nullopt;
    return bad;
}

}  // namespace keel::bls
