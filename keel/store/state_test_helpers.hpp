#pragma once
/// Builders the state tests share (not part of the library): addresses and block hashes by
/// number, a block written with its state update, random blocks of changes, and a view checked
/// against a reference state.

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/header.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/store/chain_store.hpp"
#include "keel/store/state_store.hpp"

namespace keel::store::state_testing {

inline Address address_of(std::uint64_t i) {
    Address a{};
    a[0] = 0xaa;
    for (int k = 0; k < 8; ++k) a[19 - k] = static_cast<std::uint8_t>(i >> (8 * k));
    return a;
}

inline Hash32 block_hash_of(std::uint64_t n) {
    std::uint8_t b[8];
    for (int k = 0; k < 8; ++k) b[k] = static_cast<std::uint8_t>(n >> (56 - 8 * k));
    return crypto::keccak256(BytesView(b, 8));
}

// Writes block `n` (placeholder rows: the state is under test) with its state update.
inline void put_block(ChainStore& store, std::uint64_t n,
                      std::span<const state::AccountChange> changes, bool history, Hash32& root_out,
                      std::uint64_t keep_history = 0) {
    const Hash32 h = block_hash_of(n);
    auto u = prepare_state_update(store, n, h, changes, history, keep_history);
    ASSERT_TRUE(u.has_value()) << u.error().message;
    eth::Header h_fields;
    h_fields.number = n;
    h_fields.state_root = u->state_root;
    const Bytes header = eth::encode(h_fields);
    const Bytes body{0xc2, 0xc0, 0xc0};
    BlockToStore b;
    b.number = n;
    b.hash = h;
    b.header_rlp = header;
    b.body_rlp = body;
    ASSERT_TRUE(store.put_blocks(std::span(&b, 1), &*u).has_value());
    root_out = u->state_root;
}

// `count` accounts (address_of(i), balance i + 1); every `every`-th one also gets slots 0..slots-1
// set to k + 1 + offset.
inline std::vector<state::AccountChange> funded_accounts(std::uint64_t count, std::uint64_t every,
                                                         std::uint64_t slots,
                                                         std::uint64_t offset) {
    std::vector<state::AccountChange> out;
    for (std::uint64_t i = 0; i < count; ++i) {
        state::AccountChange c;
        c.address = address_of(i);
        c.account = state::Account{.balance = Uint256(i + 1)};
        if (i % every == 0) {
            for (std::uint64_t k = 0; k < slots; ++k)
                c.storage.push_back({Uint256(k), Uint256(k + 1 + offset)});
        }
        out.push_back(c);
    }
    return out;
}

// Writes `changes` as block 0 (a genesis: no history), applies them to `reference` and checks
// the state root against it.
inline void put_genesis(ChainStore& store, std::span<const state::AccountChange> changes,
                        state::MemoryState& reference) {
    reference.apply(changes);
    Hash32 root;
    put_block(store, 0, changes, false, root);
    EXPECT_EQ(root, reference.state_root());
}

// Every account and slot of `expected` reads the same through `view`, and a few that do not
// exist read as absent / zero.
inline void expect_same(const StateView& view, const state::MemoryState& expected,
                        std::uint64_t universe, const std::string& where) {
    for (std::uint64_t i = 0; i < universe; ++i) {
        const Address a = address_of(i);
        auto got = view.account(a);
        auto want = expected.account(a);
        ASSERT_EQ(got.has_value(), want.has_value()) << where << " account " << i;
        if (!want) continue;
        EXPECT_EQ(*got, *want) << where << " account " << i;
        EXPECT_EQ(*view.code(got->code_hash), *expected.code(want->code_hash)) << where;
        for (std::uint64_t k = 0; k < 12; ++k) {
            EXPECT_EQ(view.storage(a, Uint256(k)), expected.storage(a, Uint256(k)))
                << where << " account " << i << " slot " << k;
        }
    }
    EXPECT_FALSE(view.failure().has_value()) << *view.failure();
}

// A block's worth of random changes against `state`: accounts of address_of(0..universe-1)
// deleted, updated, destroyed and re-created, with slots 0..11 written (some to zero).
inline std::vector<state::AccountChange> random_changes(std::mt19937_64& rng,
                                                        const state::MemoryState& state,
                                                        std::uint64_t universe) {
    std::vector<state::AccountChange> changes;
    std::map<std::uint64_t, bool> picked;
    const int count = 1 + static_cast<int>(rng() % 8);
    for (int j = 0; j < count; ++j) picked[rng() % universe] = true;
    for (const auto& [i, unused] : picked) {
        state::AccountChange c;
        c.address = address_of(i);
        const auto old = state.account(c.address);
        const int what = static_cast<int>(rng() % 6);
        if (what == 0 && old) {  // deleted (with its storage)
            changes.push_back(c);
            continue;
        }
        c.account = old.value_or(state::Account{});
        c.account->balance = Uint256(rng() % 100000);
        c.account->nonce += 1;
        if (what == 1) c.storage_cleared = true;  // destroyed and re-created
        const int slots = static_cast<int>(rng() % 5);
        std::map<std::uint64_t, std::uint64_t> writes;
        for (int s = 0; s < slots; ++s) writes[rng() % 12] = rng() % 3 == 0 ? 0 : 1 + rng() % 500;
        for (const auto& [k, v] : writes) c.storage.push_back({Uint256(k), Uint256(v)});
        changes.push_back(c);
    }
    return changes;
}

}  // namespace keel::store::state_testing
