// The journaled overlay: reads through to the reader, every kind of change undone by revert(),
// the end of a transaction (self-destruct, EIP-161 deletion, the RIPEMD-160 exception, original
// values, per-transaction sets), contract creation over an existing account, and changes().
#include "keel/state/overlay.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "keel/crypto/keccak.hpp"
#include "keel/state/memory_state.hpp"

namespace keel::state {
namespace {

Address addr(std::uint8_t last) {
    Address a;
    a[19] = last;
    a[0] = 0xaa;
    return a;
}

const Address kRipemdAddress = [] {
    Address a;
    a[19] = 3;
    return a;
}();

Uint256 w(std::uint64_t v) {
    return Uint256(v);
}

// A reader with two accounts: 1 with balance 100, nonce 7, code and slots {1: 11, 2: 22}; 2
// empty but existing (as pre-EIP-161 chains have them).
MemoryState pre_state() {
    MemoryState m;
    const std::pair<Uint256, Uint256> slots[] = {{w(1), w(11)}, {w(2), w(22)}};
    m.put(addr(1), 7, w(100), Bytes{0x60, 0x00}, slots);
    m.put(addr(2), 0, w(0), Bytes{}, {});
    return m;
}

TEST(StateOverlay, ReadsThroughToTheReader) {
    const MemoryState m = pre_state();
    Overlay o(m);
    EXPECT_TRUE(o.exists(addr(1)));
    EXPECT_FALSE(o.is_empty(addr(1)));
    EXPECT_EQ(o.nonce(addr(1)), 7u);
    EXPECT_EQ(o.balance(addr(1)), w(100));
    EXPECT_EQ(*o.code(addr(1)), (Bytes{0x60, 0x00}));
    EXPECT_EQ(o.code_hash(addr(1)), crypto::keccak256(Bytes{0x60, 0x00}));
    EXPECT_EQ(o.storage(addr(1), w(1)), w(11));
    EXPECT_EQ(o.storage(addr(1), w(3)), w(0));
    EXPECT_TRUE(o.has_storage(addr(1)));
    EXPECT_TRUE(o.exists(addr(2)));
    EXPECT_TRUE(o.is_empty(addr(2)));
    EXPECT_TRUE(o.is_dead(addr(2)));
    EXPECT_FALSE(o.exists(addr(3)));
    EXPECT_TRUE(o.is_dead(addr(3)));
    EXPECT_EQ(o.code_hash(addr(3)), kEmptyCodeHash);
    EXPECT_TRUE(o.code(addr(3))->empty());
    EXPECT_FALSE(o.has_storage(addr(3)));
    // Reading changes nothing.
    EXPECT_TRUE(o.changes().empty());
}

// A reader that counts the accounts read through it.
class CountingReader final : public StateReader {
  public:
    explicit CountingReader(const StateReader& inner) : inner_(inner) {}
    std::optional<Account> account(const Address& a) const override {
        ++accounts;
        return inner_.account(a);
    }
    Uint256 storage(const Address& a, const Uint256& key) const override {
        return inner_.storage(a, key);
    }
    Code code(const Hash32& h) const override { return inner_.code(h); }
    std::optional<std::string> failure() const override { return inner_.failure(); }
    mutable int accounts = 0;

  private:
    const StateReader& inner_;
};

TEST(StateOverlay, WarmingReadsNoAccountUntilOneIsAskedFor) {
    const MemoryState m = pre_state();
    const CountingReader r(m);
    Overlay o(r);
    EXPECT_TRUE(o.access_account(addr(1)));  // cold
    EXPECT_FALSE(o.access_account(addr(1)));
    EXPECT_TRUE(o.is_warm(addr(1)));
    EXPECT_TRUE(o.access_account(addr(3)));
    EXPECT_EQ(r.accounts, 0);
    // A warmed account reads as it is, once.
    EXPECT_EQ(o.balance(addr(1)), w(100));
    EXPECT_EQ(o.nonce(addr(1)), 7u);
    EXPECT_FALSE(o.exists(addr(3)));
    EXPECT_EQ(r.accounts, 2);
    EXPECT_TRUE(o.is_warm(addr(1)));
    // Only warmed, or read: no change. A revert cools a warmed address, then it reads.
    const Overlay::Snapshot s = o.snapshot();
    EXPECT_TRUE(o.access_account(addr(2)));
    o.revert(s);
    EXPECT_FALSE(o.is_warm(addr(2)));
    EXPECT_TRUE(o.exists(addr(2)));
    EXPECT_EQ(r.accounts, 3);
    EXPECT_TRUE(o.changes().empty());
    o.finalize_transaction({.delete_empty = true});
    EXPECT_FALSE(o.is_warm(addr(1)));
    EXPECT_TRUE(o.changes().empty());
}

TEST(StateOverlay, EmptyCodeHashIsKeccakOfNothing) {
    EXPECT_EQ(kEmptyCodeHash, crypto::keccak256(BytesView{}));
}

TEST(StateOverlay, RevertUndoesEveryKindOfChange) {
    const MemoryState m = pre_state();
    Overlay o(m);
    const auto s = o.snapshot();
    o.add_balance(addr(1), w(5));
    o.sub_balance(addr(1), w(3));
    o.set_nonce(addr(1), 8);
    o.set_code(addr(1), Bytes{0x00});
    o.set_storage(addr(1), w(1), w(12));
    o.set_storage(addr(1), w(9), w(99));
    o.set_transient_storage(addr(1), w(4), w(44));
    EXPECT_TRUE(o.access_account(addr(1)));
    EXPECT_FALSE(o.access_account(addr(1)));
    EXPECT_TRUE(o.access_storage(addr(1), w(1)));
    EXPECT_FALSE(o.access_storage(addr(1), w(1)));
    o.add_refund(4800);
    o.add_log(Log{addr(1), {Hash32{}}, Bytes{1, 2}});
    EXPECT_TRUE(o.mark_destructed(addr(1)));
    EXPECT_FALSE(o.mark_destructed(addr(1)));
    o.add_balance(addr(3), w(1));  // brings an account into existence
    o.create_contract(addr(4));
    EXPECT_EQ(o.balance(addr(1)), w(102));
    EXPECT_EQ(o.nonce(addr(1)), 8u);
    EXPECT_EQ(*o.code(addr(1)), Bytes{0x00});
    EXPECT_EQ(o.storage(addr(1), w(1)), w(12));
    EXPECT_EQ(o.original_storage(addr(1), w(1)), w(11));
    EXPECT_EQ(o.transient_storage(addr(1), w(4)), w(44));
    EXPECT_EQ(o.refund(), 4800);
    EXPECT_EQ(o.logs().size(), 1u);
    EXPECT_TRUE(o.exists(addr(3)));
    EXPECT_TRUE(o.created_in_transaction(addr(4)));

    o.revert(s);
    EXPECT_EQ(o.balance(addr(1)), w(100));
    EXPECT_EQ(o.nonce(addr(1)), 7u);
    EXPECT_EQ(*o.code(addr(1)), (Bytes{0x60, 0x00}));
    EXPECT_EQ(o.code_hash(addr(1)), crypto::keccak256(Bytes{0x60, 0x00}));
    EXPECT_EQ(o.storage(addr(1), w(1)), w(11));
    EXPECT_EQ(o.storage(addr(1), w(9)), w(0));
    EXPECT_EQ(o.transient_storage(addr(1), w(4)), w(0));
    EXPECT_FALSE(o.is_warm(addr(1)));
    EXPECT_FALSE(o.is_warm(addr(1), w(1)));
    EXPECT_EQ(o.refund(), 0);
    EXPECT_TRUE(o.logs().empty());
    EXPECT_FALSE(o.is_destructed(addr(1)));
    EXPECT_FALSE(o.exists(addr(3)));
    EXPECT_FALSE(o.exists(addr(4)));
    EXPECT_FALSE(o.created_in_transaction(addr(4)));
    EXPECT_TRUE(o.changes().empty());
}

TEST(StateOverlay, AccessSlotReadsBothValuesAndWarmsOnRequest) {
    const MemoryState m = pre_state();
    Overlay o(m);
    o.set_storage(addr(1), w(1), w(12));  // the pre-state holds 11
    // Without warming: the values, cold, and still cold after.
    Overlay::SlotAccess a = o.access_slot(addr(1), w(1), false);
    EXPECT_EQ(a.current, w(12));
    EXPECT_EQ(a.original, w(11));
    EXPECT_TRUE(a.was_cold);
    EXPECT_FALSE(o.is_warm(addr(1), w(1)));
    // Warming: cold the first time, warm the second, and a revert makes it cold again.
    const auto s = o.snapshot();
    EXPECT_TRUE(o.access_slot(addr(1), w(1), true).was_cold);
    EXPECT_TRUE(o.is_warm(addr(1), w(1)));
    a = o.access_slot(addr(1), w(1), true);
    EXPECT_FALSE(a.was_cold);
    EXPECT_EQ(a.current, w(12));
    o.revert(s);
    EXPECT_FALSE(o.is_warm(addr(1), w(1)));
    // A slot nobody wrote reads zero for both.
    a = o.access_slot(addr(1), w(77), true);
    EXPECT_EQ(a.current, w(0));
    EXPECT_EQ(a.original, w(0));
}

TEST(StateOverlay, NestedSnapshotsRevertOnlyTheirPart) {
    const MemoryState m = pre_state();
    Overlay o(m);
    o.set_storage(addr(1), w(1), w(1000));
    const auto outer = o.snapshot();
    o.set_storage(addr(1), w(1), w(2000));
    const auto inner = o.snapshot();
    o.set_storage(addr(1), w(1), w(3000));
    o.set_transient_storage(addr(1), w(1), w(5));
    o.revert(inner);
    EXPECT_EQ(o.storage(addr(1), w(1)), w(2000));
    EXPECT_EQ(o.transient_storage(addr(1), w(1)), w(0));
    o.revert(outer);
    EXPECT_EQ(o.storage(addr(1), w(1)), w(1000));
    // The original value is the one at the start of the transaction throughout.
    EXPECT_EQ(o.original_storage(addr(1), w(1)), w(11));
}

TEST(StateOverlay, TransientStorageOverwrittenAndClearedToZero) {
    const MemoryState m = pre_state();
    Overlay o(m);
    o.set_transient_storage(addr(1), w(1), w(5));
    const auto s = o.snapshot();
    o.set_transient_storage(addr(1), w(1), w(6));
    o.set_transient_storage(addr(1), w(1), w(0));
    EXPECT_EQ(o.transient_storage(addr(1), w(1)), w(0));
    o.revert(s);
    EXPECT_EQ(o.transient_storage(addr(1), w(1)), w(5));
    // Transient storage is per address: another account's slot 1 is separate.
    EXPECT_EQ(o.transient_storage(addr(2), w(1)), w(0));
    o.finalize_transaction({});
    EXPECT_EQ(o.transient_storage(addr(1), w(1)), w(0));
}

TEST(StateOverlay, FinalizeMakesCurrentValuesOriginalAndForgetsTheTransaction) {
    const MemoryState m = pre_state();
    Overlay o(m);
    o.set_storage(addr(1), w(1), w(12));
    EXPECT_TRUE(o.access_account(addr(1)));
    EXPECT_TRUE(o.access_storage(addr(1), w(2)));
    o.add_refund(100);
    o.add_log(Log{addr(1), {}, {}});
    o.create_contract(addr(5));
    o.finalize_transaction({});
    EXPECT_EQ(o.original_storage(addr(1), w(1)), w(12));
    EXPECT_EQ(o.storage(addr(1), w(1)), w(12));
    EXPECT_FALSE(o.is_warm(addr(1)));
    EXPECT_FALSE(o.is_warm(addr(1), w(2)));
    EXPECT_EQ(o.refund(), 0);
    EXPECT_TRUE(o.logs().empty());
    EXPECT_FALSE(o.created_in_transaction(addr(5)));
    // The next transaction's accesses are cold again.
    EXPECT_TRUE(o.access_account(addr(1)));
    EXPECT_TRUE(o.access_storage(addr(1), w(2)));
}

TEST(StateOverlay, SelfDestructedAccountsGoAtTheEndOfTheTransaction) {
    const MemoryState m = pre_state();
    Overlay o(m);
    o.mark_destructed(addr(1));
    // Until the transaction ends the account is still there.
    EXPECT_TRUE(o.exists(addr(1)));
    EXPECT_EQ(o.storage(addr(1), w(1)), w(11));
    o.finalize_transaction({.delete_empty = false});
    EXPECT_FALSE(o.exists(addr(1)));
    EXPECT_EQ(o.storage(addr(1), w(1)), w(0));
    EXPECT_EQ(o.storage(addr(1), w(2)), w(0));
    EXPECT_FALSE(o.has_storage(addr(1)));
    // Given value again in a later transaction, it is a new account with no storage.
    o.add_balance(addr(1), w(1));
    EXPECT_EQ(o.nonce(addr(1)), 0u);
    EXPECT_EQ(o.storage(addr(1), w(1)), w(0));
    const auto changes = o.changes();
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_TRUE(changes[0].storage_cleared);
    ASSERT_TRUE(changes[0].account.has_value());
    EXPECT_EQ(changes[0].account->balance, w(1));
    EXPECT_EQ(changes[0].account->code_hash, kEmptyCodeHash);
}

TEST(StateOverlay, TouchedEmptyAccountsAreDeletedFromSpuriousDragonOn) {
    for (const bool eip161 : {false, true}) {
        const MemoryState m = pre_state();
        Overlay o(m);
        o.add_balance(addr(2), w(0));  // the existing empty account, touched
        o.add_balance(addr(3), w(0));  // a zero-value transfer to nobody
        o.touch(addr(1));              // touched but not empty: stays
        o.finalize_transaction({.delete_empty = eip161});
        EXPECT_EQ(o.exists(addr(2)), !eip161);
        EXPECT_EQ(o.exists(addr(3)), !eip161);
        EXPECT_TRUE(o.exists(addr(1)));
        const auto changes = o.changes();
        if (eip161) {
            // Only the deletion of the reader's empty account differs from the reader.
            ASSERT_EQ(changes.size(), 1u);
            EXPECT_EQ(changes[0].address, addr(2));
            EXPECT_FALSE(changes[0].account.has_value());
        } else {
            // Before EIP-161 the zero-value transfer created an empty account.
            ASSERT_EQ(changes.size(), 1u);
            EXPECT_EQ(changes[0].address, addr(3));
            ASSERT_TRUE(changes[0].account.has_value());
            EXPECT_TRUE(is_empty(*changes[0].account));
        }
    }
}

TEST(StateOverlay, RevertedTouchIsForgottenExceptRipemds) {
    MemoryState m;
    m.put(kRipemdAddress, 0, w(0), Bytes{}, {});
    m.put(addr(2), 0, w(0), Bytes{}, {});
    Overlay o(m);
    const auto s = o.snapshot();
    o.add_balance(kRipemdAddress, w(0));
    o.add_balance(addr(2), w(0));
    o.revert(s);
    o.finalize_transaction({.delete_empty = true});
    EXPECT_FALSE(o.exists(kRipemdAddress));  // the quirk: still touched, deleted as empty
    EXPECT_TRUE(o.exists(addr(2)));          // a reverted touch does not count
}

TEST(StateOverlay, CreateContractOverAFundedAddressKeepsOnlyTheBalance) {
    const MemoryState m = pre_state();
    Overlay o(m);
    EXPECT_TRUE(o.access_storage(addr(1), w(2)));
    const auto s = o.snapshot();
    o.create_contract(addr(1));
    EXPECT_TRUE(o.exists(addr(1)));
    EXPECT_EQ(o.balance(addr(1)), w(100));
    EXPECT_EQ(o.nonce(addr(1)), 0u);
    EXPECT_TRUE(o.code(addr(1))->empty());
    EXPECT_EQ(o.storage(addr(1), w(1)), w(0));
    EXPECT_EQ(o.original_storage(addr(1), w(1)), w(0));
    EXPECT_FALSE(o.has_storage(addr(1)));
    EXPECT_TRUE(o.is_warm(addr(1), w(2)));  // the access set belongs to the transaction
    EXPECT_TRUE(o.created_in_transaction(addr(1)));
    o.set_storage(addr(1), w(7), w(70));
    o.set_code(addr(1), Bytes{0xfe});
    o.revert(s);
    EXPECT_EQ(o.nonce(addr(1)), 7u);
    EXPECT_EQ(o.storage(addr(1), w(1)), w(11));
    EXPECT_EQ(o.storage(addr(1), w(7)), w(0));
    EXPECT_EQ(*o.code(addr(1)), (Bytes{0x60, 0x00}));
    EXPECT_TRUE(o.is_warm(addr(1), w(2)));
    EXPECT_FALSE(o.created_in_transaction(addr(1)));
    EXPECT_TRUE(o.changes().empty());
}

TEST(StateOverlay, ChangesListWhatDiffersSortedAndCommitToTheSameRoot) {
    const MemoryState m = pre_state();
    Overlay o(m);
    o.set_storage(addr(1), w(2), w(0));   // deleted
    o.set_storage(addr(1), w(1), w(11));  // unchanged: a no-op
    o.set_storage(addr(1), w(5), w(55));  // new
    o.set_storage(addr(1), w(3), w(33));
    o.set_storage(addr(1), w(3), w(0));  // written and cleared again: no change
    o.create_contract(addr(9));
    o.set_code(addr(9), Bytes{0x60, 0x01, 0x00});
    o.set_nonce(addr(9), 1);
    o.finalize_transaction({});
    const auto changes = o.changes();
    ASSERT_EQ(changes.size(), 2u);
    EXPECT_EQ(changes[0].address, addr(1));
    EXPECT_FALSE(changes[0].storage_cleared);
    EXPECT_EQ(changes[0].code, nullptr);
    ASSERT_EQ(changes[0].storage.size(), 2u);
    EXPECT_EQ(changes[0].storage[0], std::make_pair(w(2), w(0)));
    EXPECT_EQ(changes[0].storage[1], std::make_pair(w(5), w(55)));
    EXPECT_EQ(changes[1].address, addr(9));
    ASSERT_NE(changes[1].code, nullptr);
    EXPECT_EQ(*changes[1].code, (Bytes{0x60, 0x01, 0x00}));

    // Committing gives the same state as writing the result directly.
    MemoryState committed = pre_state();
    committed.apply(changes);
    MemoryState direct;
    const std::pair<Uint256, Uint256> slots[] = {{w(1), w(11)}, {w(5), w(55)}};
    direct.put(addr(1), 7, w(100), Bytes{0x60, 0x00}, slots);
    direct.put(addr(2), 0, w(0), Bytes{}, {});
    direct.put(addr(9), 1, w(0), Bytes{0x60, 0x01, 0x00}, {});
    EXPECT_EQ(committed.state_root(), direct.state_root());
    EXPECT_EQ(*committed.code(crypto::keccak256(Bytes{0x60, 0x01, 0x00})),
              (Bytes{0x60, 0x01, 0x00}));
}

}  // namespace
}  // namespace keel::state
