// Historical state reads (issue 26's goal: an account or a slot 100,000 blocks back, warm, p50
// <= 5 us and p99 <= 50 us, one seek per read). A store is built once per process: a genesis of
// 20,000 accounts with 4 slots each, then 100,000 blocks (KEEL_BENCH_STATE_BLOCKS) that each
// change 8 accounts' balances and one slot of each, so every key has a history about 40 rows
// long. The benchmarks read random accounts and slots after a block 100,000 back (or the first
// block), at the head for comparison, and report p50/p99 latency and the database operations
// per read (StateView::counts(): seeks and point reads).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/header.hpp"
#include "keel/store/state_store.hpp"
#include "test/testutil/temp_dir.hpp"

namespace {

using keel::Address;
using keel::Bytes;
using keel::Hash32;
using keel::Uint256;
namespace store = keel::store;
namespace state = keel::state;

constexpr std::uint64_t kAccounts = 20'000;
constexpr std::uint64_t kSlots = 4;
constexpr std::uint64_t kPerBlock = 8;

std::uint64_t blocks_to_build() {
    if (const char* env = std::getenv("KEEL_BENCH_STATE_BLOCKS")) return std::stoull(env);
    return 100'000;
}

Address account_address(std::uint64_t i) {
    Address a{};
    a[0] = 0x5a;
    for (int k = 0; k < 8; ++k) a[19 - k] = static_cast<std::uint8_t>(i >> (8 * k));
    return a;
}

Hash32 hash_of_block(std::uint64_t n) {
    std::uint8_t b[8];
    for (int k = 0; k < 8; ++k) b[k] = static_cast<std::uint8_t>(n >> (56 - 8 * k));
    return keel::crypto::keccak256(keel::BytesView(b, 8));
}

struct StateStoreTemplate {
    keel::testutil::TempDir dir{"state-bench"};
    std::optional<store::ChainStore> db;
    std::uint64_t head = 0;

    void put(std::uint64_t n, std::span<const state::AccountChange> changes) {
        auto u = store::prepare_state_update(*db, n, hash_of_block(n), changes, n > 0);
        if (!u) throw std::runtime_error(u.error().message);
        keel::eth::Header h;
        h.number = n;
        h.state_root = u->state_root;
        const Bytes header = keel::eth::encode(h);
        const Bytes body{0xc2, 0xc0, 0xc0};
        store::BlockToStore b;
        b.number = n;
        b.hash = hash_of_block(n);
        b.header_rlp = header;
        b.body_rlp = body;
        if (auto w = db->put_blocks(std::span(&b, 1), &*u); !w) {
            throw std::runtime_error(w.error().message);
        }
    }

    StateStoreTemplate() {
        auto s = store::ChainStore::create(dir.path() / "db");
        if (!s) throw std::runtime_error(s.error().message);
        db.emplace(std::move(*s));
        std::vector<state::AccountChange> changes;
        for (std::uint64_t i = 0; i < kAccounts; ++i) {
            state::AccountChange c;
            c.address = account_address(i);
            c.account = state::Account{.nonce = 1, .balance = Uint256(1'000'000 + i)};
            for (std::uint64_t k = 0; k < kSlots; ++k)
                c.storage.push_back({Uint256(k), Uint256(i + k + 1)});
            changes.push_back(std::move(c));
        }
        put(0, changes);
        std::mt19937_64 rng(26);
        head = blocks_to_build();
        for (std::uint64_t n = 1; n <= head; ++n) {
            changes.clear();
            std::vector<std::uint64_t> picked;
            while (picked.size() < kPerBlock) {
                const std::uint64_t i = rng() % kAccounts;
                if (std::find(picked.begin(), picked.end(), i) == picked.end()) picked.push_back(i);
            }
            std::sort(picked.begin(), picked.end());
            for (std::uint64_t i : picked) {
                state::AccountChange c;
                c.address = account_address(i);
                c.account = state::Account{.nonce = 1, .balance = Uint256(n * 1000 + i)};
                c.storage.push_back({Uint256(rng() % kSlots), Uint256(n + 1)});
                changes.push_back(std::move(c));
            }
            put(n, changes);
        }
        if (auto f = db->flush(); !f) throw std::runtime_error(f.error().message);
    }
};

StateStoreTemplate& state_template() {
    static StateStoreTemplate t;
    return t;
}

enum class ReadKind { account, slot };

// Times `reads` random reads one by one and reports p50/p99 (microseconds) and the database
// operations per read.
void run_reads(benchmark::State& st, std::uint64_t back, ReadKind kind) {
    StateStoreTemplate& t = state_template();
    const std::uint64_t block = t.head > back ? t.head - back : 0;
    auto view = store::StateView::open(*t.db, block);
    if (!view) {
        st.SkipWithError(view.error().message.c_str());
        return;
    }
    std::mt19937_64 rng(7);
    std::vector<double> us;
    for (auto _ : st) {
        const Address a = account_address(rng() % kAccounts);
        const auto t0 = std::chrono::steady_clock::now();
        if (kind == ReadKind::account) {
            benchmark::DoNotOptimize(view->account(a));
        } else {
            benchmark::DoNotOptimize(view->storage(a, Uint256(rng() % kSlots)));
        }
        us.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    if (us.empty()) return;
    std::sort(us.begin(), us.end());
    st.counters["p50_us"] = us[us.size() / 2];
    st.counters["p99_us"] = us[us.size() * 99 / 100];
    const auto c = view->counts();
    st.counters["seeks_per_read"] = static_cast<double>(c.seeks) / static_cast<double>(us.size());
    st.counters["point_reads_per_read"] =
        static_cast<double>(c.point_reads) / static_cast<double>(us.size());
    st.counters["blocks_back"] = static_cast<double>(t.head - block);
    if (view->failure()) st.SkipWithError(view->failure()->c_str());
}

void BM_StateAccountRead100kBack(benchmark::State& st) {
    run_reads(st, 100'000, ReadKind::account);
}
void BM_StateSlotRead100kBack(benchmark::State& st) {
    run_reads(st, 100'000, ReadKind::slot);
}
void BM_StateAccountReadAtHead(benchmark::State& st) {
    run_reads(st, 0, ReadKind::account);
}
void BM_StateSlotReadAtHead(benchmark::State& st) {
    run_reads(st, 0, ReadKind::slot);
}

}  // namespace

BENCHMARK(BM_StateAccountRead100kBack)->Iterations(200'000);
BENCHMARK(BM_StateSlotRead100kBack)->Iterations(200'000);
BENCHMARK(BM_StateAccountReadAtHead)->Iterations(200'000);
BENCHMARK(BM_StateSlotReadAtHead)->Iterations(200'000);
