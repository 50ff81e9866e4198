// Keccak-f[1600] on one state held in five ZMM registers (AVX-512F), selected at run time.

// GCC 12's AVX-512 intrinsics initialise their "undefined" pass-through operand from itself, which
// -Wuninitialized reports wherever they are inlined (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <immintrin.h>

#include <cstdint>
#include <utility>

#include "keel/crypto/detail/keccak_backend.hpp"
#include "keel/crypto/detail/keccak_tables.hpp"

namespace keel::crypto::detail {
namespace {

// ---------------------------------------------------------------------------------------------
// Layouts.
//
// Each ZMM register holds five lanes (elements 0..4; 5..7 are don't-care and never read back).
// A round needs the lanes grouped two ways (FIPS 202 §3.2):
//  - θ sums columns: it wants every lane of column x in element x of some register, so the five
//    column parities are one vertical XOR of the five registers ("T layout");
//  - χ combines lanes x, x+1, x+2 of one row: it wants row y in element y, with lane x+1 in the
//    register after lane x's, so χ is five whole-register ternary-logic ops ("X layout").
// Moving lanes between registers is the only costly part (every permute runs on one port), so
// the layouts are chosen to make the two moves per round cheap: a T layout is any assignment
// of each column's five lanes to the five registers (tau), and an X layout is row y rotated by
// c[y] registers. The pair used below was found by exhaustive search so that π moves every
// destination register from at most two source registers (one vpermt2q) and the χ-to-θ move
// from at most three (no single layout pair gets both moves down to two; with the row layout
// itself, the χ-to-θ move is a full 5x5 transpose, and the whole permutation measured about 25%
// slower).
struct Layout {
    int tau[5][5];  ///< tau[x][y]: T register of lane (x, y); element x
    int c[5];       ///< X layout: lane (x, y) in register (x + c[y]) mod 5, element y
};

// The lanes' standard row order ("R layout": register y, element x) is a T layout too (tau = y);
// state is loaded and stored in it.
constexpr Layout kRowLayout{
    {{0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}},
    {0, 0, 0, 0, 0}};

// The round layouts, used in turn: round r takes its input in T layout kRoundLayouts[r % kPeriod]
// and moves χ's output into the T layout of the next entry. kPeriod divides 24, so the state
// leaves the 24 rounds in the layout it entered in.
constexpr int kPeriod = 1;
constexpr Layout kRoundLayouts[kPeriod] = {
    {{{0, 1, 2, 3, 4}, {1, 4, 3, 2, 0}, {0, 1, 2, 4, 3}, {4, 2, 0, 1, 3}, {2, 3, 1, 0, 4}},
     {0, 4, 2, 1, 0}}};
static_assert(24 % kPeriod == 0);

constexpr int mod5(int v) {
    return ((v % 5) + 5) % 5;
}

// Where each lane of a destination register comes from.
struct Move {
    int src_reg[5][5];   // [dest reg][dest element]
    int src_elem[5][5];  // [dest reg][dest element]
};

// Element of lane x in T register j: x; which y: the inverse of tau[x][.].
constexpr int tau_inv(const Layout& l, int j, int x) {
    for (int y = 0; y < 5; ++y)
        if (l.tau[x][y] == j) return y;
    return -1;
}

// π (FIPS 202 §3.2.3: A'[x, y] = A[(x + 3y) mod 5, x]) from T layout `t` to X layout `x`:
// B lane (xb, yb) comes from A lane (xb + 3yb, xb).
constexpr Move pi_move(const Layout& t, const Layout& xl) {
    Move m{};
    for (int k = 0; k < 5; ++k)
        for (int yb = 0; yb < 5; ++yb) {
            const int xb = mod5(k - xl.c[yb]);
            const int x = mod5(xb + 3 * yb), y = xb;
            m.src_reg[k][yb] = t.tau[x][y];
            m.src_elem[k][yb] = x;
        }
    return m;
}

// After χ, lane (x, y) is in X register x + c[y], element y; move it to T layout `t`.
constexpr Move chi_to_theta_move(const Layout& xl, const Layout& t) {
    Move m{};
    for (int j = 0; j < 5; ++j)
        for (int x = 0; x < 5; ++x) {
            const int y = tau_inv(t, j, x);
            m.src_reg[j][x] = mod5(x + xl.c[y]);
            m.src_elem[j][x] = y;
        }
    return m;
}

// From T layout `from` to T layout `to` (used to enter and leave the round layout).
constexpr Move theta_to_theta_move(const Layout& from, const Layout& to) {
    Move m{};
    for (int j = 0; j < 5; ++j)
        for (int x = 0; x < 5; ++x) {
            const int y = tau_inv(to, j, x);
            m.src_reg[j][x] = from.tau[x][y];
            m.src_elem[j][x] = x;
        }
    return m;
}

// A Move compiled to permutes: per destination register, its sources in order of use; the first
// two are combined by one vpermt2q, each further one merged by a masked vpermq.
struct DestPlan {
    int nsrc;
    int src[5];
    alignas(64) long long idx[5][8];
    unsigned mask[5];
};
struct MovePlan {
    DestPlan d[5];
};

constexpr MovePlan plan(const Move& m) {
    MovePlan p{};
    for (int j = 0; j < 5; ++j) {
        DestPlan& d = p.d[j];
        // Sources by descending number of lanes (ties: lower register first).
        int count[5] = {};
        for (int e = 0; e < 5; ++e) ++count[m.src_reg[j][e]];
        d.nsrc = 0;
        for (int n = 5; n >= 1; --n)
            for (int s = 0; s < 5; ++s)
                if (count[s] == n) d.src[d.nsrc++] = s;
        for (int k = 0; k < 5; ++k) {
            for (int e = 0; e < 8; ++e) d.idx[k][e] = 0;
            d.mask[k] = 0;
        }
        for (int e = 0; e < 5; ++e) {
            int k = 0;
            while (d.src[k] != m.src_reg[j][e]) ++k;
            const int se = m.src_elem[j][e];
            if (k <= 1 && d.nsrc >= 2) {
                d.idx[0][e] = se + 8 * k;  // vpermt2q: 0..7 first table, 8..15 second
            } else {
                d.idx[k][e] = se;
                d.mask[k] |= 1u << e;
            }
        }
    }
    return p;
}

// Per-register ρ rotation counts (FIPS 202 §3.2.2), applied after π, in X layout `xl`: element yb
// of register k holds B lane (xb, yb) = (k - c[yb], yb), which came from A lane (xb + 3yb, xb).
struct RhoPlan {
    alignas(64) long long rot[5][8];
};
constexpr RhoPlan rho_plan(const Layout& xl) {
    RhoPlan r{};
    for (int k = 0; k < 5; ++k)
        for (int yb = 0; yb < 8; ++yb) {
            if (yb >= 5) {
                r.rot[k][yb] = 0;
                continue;
            }
            const int xb = mod5(k - xl.c[yb]);
            r.rot[k][yb] = kRho[lane(mod5(xb + 3 * yb), xb)];
        }
    return r;
}

// Everything a round in phase Ph (= r mod kPeriod) needs, as compile-time constants.
constexpr MovePlan kEnter = plan(theta_to_theta_move(kRowLayout, kRoundLayouts[0]));
constexpr MovePlan kLeave = plan(theta_to_theta_move(kRoundLayouts[0], kRowLayout));
template <int Ph>
constexpr MovePlan kPi = plan(pi_move(kRoundLayouts[Ph], kRoundLayouts[Ph]));
template <int Ph>
constexpr MovePlan kChiToTheta =
    plan(chi_to_theta_move(kRoundLayouts[Ph], kRoundLayouts[(Ph + 1) % kPeriod]));
template <int Ph>
constexpr RhoPlan kRhoRot = rho_plan(kRoundLayouts[Ph]);
/// T register holding lane (0, 0), where ι's constant goes.
template <int Ph>
constexpr int kLane00 = kRoundLayouts[Ph].tau[0][0];

alignas(64) constexpr long long kPrevColumn[8] = {4, 0, 1, 2, 3, 0, 0, 0};
alignas(64) constexpr long long kNextColumn[8] = {1, 2, 3, 4, 0, 0, 0, 0};

// ---------------------------------------------------------------------------------------------
// Kernels. Everything below is AVX-512F only; the functions are compiled for it individually and
// reached only after the CPUID check in keccak.cpp. The plans are template arguments so that every
// register index, source count and mask is a compile-time constant for either compiler.

#define KEEL_AVX512 [[gnu::target("avx512f"), gnu::always_inline]] inline

KEEL_AVX512 __m512i load_idx(const long long (&v)[8]) {
    return _mm512_load_si512(static_cast<const void*>(v));
}

// Builds destination register J of move plan P from the source registers `s`.
template <const MovePlan& P, int J>
KEEL_AVX512 __m512i build(const __m512i (&s)[5]) {
    constexpr const DestPlan& d = P.d[J];
    if constexpr (d.nsrc == 1) {
        return _mm512_permutexvar_epi64(load_idx(d.idx[0]), s[d.src[0]]);
    } else {
        __m512i acc = _mm512_permutex2var_epi64(s[d.src[0]], load_idx(d.idx[0]), s[d.src[1]]);
        // Further sources are merged by masked permutes. (Permuting the third source in parallel
        // and blending measured slower: the extra blend competes for the same two ports.)
#pragma GCC unroll 3
        for (int k = 2; k < d.nsrc; ++k)
            acc = _mm512_mask_permutexvar_epi64(acc, static_cast<__mmask8>(d.mask[k]),
                                                load_idx(d.idx[k]), s[d.src[k]]);
        return acc;
    }
}

template <const MovePlan& P>
KEEL_AVX512 void apply(const __m512i (&s)[5], __m512i (&out)[5]) {
    out[0] = build<P, 0>(s);
    out[1] = build<P, 1>(s);
    out[2] = build<P, 2>(s);
    out[3] = build<P, 3>(s);
    out[4] = build<P, 4>(s);
}

// Ternary-logic truth tables (vpternlogq imm8 for inputs a, b, c).
constexpr int kXor3 = 0x96;  // a ^ b ^ c
constexpr int kChi = 0xd2;   // a ^ (~b & c)

// One round, except that ι (FIPS 202 §3.2.5) is applied at the start of the next round instead of
// at the end of this one: XORing the constant into lane (0, 0) right before θ reads it is the same
// permutation, and there it runs in parallel with the column parities instead of after χ.
// `rc_prev` is the previous round's constant (0 for round 0); the caller applies the last one.
template <int Ph>
KEEL_AVX512 void round(__m512i (&t)[5], __m512i rc_prev) {
    constexpr int l00 = kLane00<Ph>;
    constexpr int o0 = l00 == 0 ? 1 : 0;  // the four registers other than l00
    constexpr int o1 = l00 <= 1 ? 2 : 1;
    constexpr int o2 = l00 <= 2 ? 3 : 2;
    constexpr int o3 = l00 <= 3 ? 4 : 3;
    t[l00] = _mm512_xor_si512(t[l00], rc_prev);
    // θ (§3.2.1): column parities are a vertical XOR in T layout (element x = column x). The
    // register that took ι's constant enters at the second level, so ι adds no latency.
    const __m512i c3 = _mm512_ternarylogic_epi64(t[o0], t[o1], t[o2], kXor3);
    const __m512i c = _mm512_ternarylogic_epi64(c3, t[o3], t[l00], kXor3);
    const __m512i cm1 = _mm512_permutexvar_epi64(load_idx(kPrevColumn), c);
    // (Rotating before permuting puts the rotate beside the first permute instead of after both.)
    const __m512i cp1 = _mm512_permutexvar_epi64(load_idx(kNextColumn), _mm512_rol_epi64(c, 1));
    // θ's D applied: one ternary op per register.
    __m512i b[5];
#pragma GCC unroll 5
    for (int j = 0; j < 5; ++j) b[j] = _mm512_ternarylogic_epi64(t[j], cm1, cp1, kXor3);
    // π (§3.2.3): into X layout, at most two sources per register; then ρ (§3.2.2), one
    // variable rotate per register. (Rotating after the move rather than before lets each
    // rotate, which has a single port, start as soon as its permute is done instead of all five
    // queueing before the first permute.)
    __m512i x[5];
    apply<kPi<Ph>>(b, x);
#pragma GCC unroll 5
    for (int k = 0; k < 5; ++k) x[k] = _mm512_rolv_epi64(x[k], load_idx(kRhoRot<Ph>.rot[k]));
    // χ (§3.2.4): register k is lane x, k+1 lane x+1, k+2 lane x+2 of the same row.
    __m512i a[5];
#pragma GCC unroll 5
    for (int k = 0; k < 5; ++k)
        a[k] = _mm512_ternarylogic_epi64(x[k], x[(k + 1) % 5], x[(k + 2) % 5], kChi);
    apply<kChiToTheta<Ph>>(a, t);
}

// ι constants as vectors with the constant in element 0 (lane (0, 0) is element x = 0).
struct RoundConstantVectors {
    alignas(64) long long v[25][8];  // v[r]: the constant of round r - 1; v[0] = 0
};
constexpr RoundConstantVectors make_rc_vectors() {
    RoundConstantVectors r{};
    for (int i = 1; i <= 24; ++i) r.v[i][0] = static_cast<long long>(kRoundConstants[i - 1]);
    return r;
}
constexpr RoundConstantVectors kRcVec = make_rc_vectors();

// Rounds r .. r + kPeriod - 1, one of each phase.
template <int... Ph>
KEEL_AVX512 void round_group(__m512i (&t)[5], int r, std::integer_sequence<int, Ph...>) {
    (round<Ph>(t, load_idx(kRcVec.v[r + Ph])), ...);
}

KEEL_AVX512 void rounds(__m512i (&t)[5]) {
#pragma GCC unroll 1
    for (int r = 0; r < 24; r += kPeriod)
        round_group(t, r, std::make_integer_sequence<int, kPeriod>{});
    t[kLane00<0>] = _mm512_xor_si512(t[kLane00<0>], load_idx(kRcVec.v[24]));
}

KEEL_AVX512 void load_rows(const std::uint64_t* state, __m512i (&t)[5]) {
    __m512i rows[5];
#pragma GCC unroll 5
    for (int y = 0; y < 5; ++y) rows[y] = _mm512_maskz_loadu_epi64(0x1f, state + 5 * y);
    apply<kEnter>(rows, t);
}

KEEL_AVX512 void store_rows(const __m512i (&t)[5], std::uint64_t* state) {
    __m512i rows[5];
    apply<kLeave>(t, rows);
#pragma GCC unroll 5
    for (int y = 0; y < 5; ++y) _mm512_mask_storeu_epi64(state + 5 * y, 0x1f, rows[y]);
}

[[gnu::target("avx512f")]] void permute_avx512(std::uint64_t* state) noexcept {
    __m512i t[5];
    load_rows(state, t);
    rounds(t);
    store_rows(t, state);
}

[[gnu::target("avx512f")]] void absorb_avx512(std::uint64_t* state, const std::uint8_t* in,
                                              std::size_t nblocks) noexcept {
    __m512i t[5];
    load_rows(state, t);
    for (std::size_t k = 0; k < nblocks; ++k, in += 136) {
        // The block's 17 lanes are rows 0..2 and lanes 15, 16 of row 3: four masked loads.
        __m512i rows[5];
        rows[0] = _mm512_maskz_loadu_epi64(0x1f, in);
        rows[1] = _mm512_maskz_loadu_epi64(0x1f, in + 40);
        rows[2] = _mm512_maskz_loadu_epi64(0x1f, in + 80);
        rows[3] = _mm512_maskz_loadu_epi64(0x03, in + 120);
        rows[4] = _mm512_setzero_si512();
        // Rearranged into the round layout; this does not depend on the state, so it overlaps
        // the previous block's permutation.
        __m512i m[5];
        apply<kEnter>(rows, m);
#pragma GCC unroll 5
        for (int j = 0; j < 5; ++j) t[j] = _mm512_xor_si512(t[j], m[j]);
        rounds(t);
    }
    store_rows(t, state);
}

}  // namespace

const KeccakImpl kKeccakAvx512{permute_avx512, absorb_avx512};

}  // namespace keel::crypto::detail
