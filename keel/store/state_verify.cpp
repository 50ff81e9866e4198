#include "keel/store/state_verify.hpp"

#include <rocksdb/iterator.h>
#include <rocksdb/options.h>

#include <memory>
#include <unordered_set>

#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/header.hpp"
#include "keel/store/detail/db.hpp"
#include "keel/store/detail/state_rows.hpp"
#include "keel/trie/root.hpp"
#include "keel/trie/updater.hpp"

namespace keel::store {
namespace {

constexpr std::uint64_t kHistorySample = 64;

VerifyError fail(std::string what, std::optional<std::uint64_t> block = std::nullopt) {
    return VerifyError{block, "state: " + std::move(what)};
}

BytesView view_of(const rocksdb::Slice& s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

std::string hex_of(BytesView b) {
    return hex::encode(b, {.prefix = true});
}

std::unique_ptr<rocksdb::Iterator> iterate(const detail::Db& d, const rocksdb::ReadOptions& ro,
                                           Cf cf) {
    std::unique_ptr<rocksdb::Iterator> it(d.db->NewIterator(ro, d.cfs[cf]));
    it->SeekToFirst();
    return it;
}

Result<std::uint64_t, VerifyError> count_rows(const detail::Db& d, const rocksdb::ReadOptions& ro,
                                              Cf cf) {
    auto it = iterate(d, ro, cf);
    std::uint64_t n = 0;
    for (; it->Valid(); it->Next()) ++n;
    if (!it->status().ok())
        return unexpected(VerifyError{{}, d.error("read", it->status()).message});
    return n;
}

}  // namespace

Result<std::optional<StateVerifyReport>, VerifyError> verify_state(const ChainStore& store) {
    const detail::Db& d = detail::Access::of(store);
    const detail::Snapshot snapshot(d);
    const rocksdb::ReadOptions& ro = snapshot.ro;
    auto read_error = [&](const rocksdb::Status& s) {
        return unexpected(VerifyError{{}, d.error("read", s).message});
    };

    // The head: a canonical block whose header has the state root.
    auto stored_head = detail::read_state_head(d, ro);
    if (!stored_head) return unexpected(VerifyError{{}, stored_head.error().message});
    if (!*stored_head) return std::optional<StateVerifyReport>{};
    StateVerifyReport report;
    StateHead& head = report.head;
    head = **stored_head;
    rocksdb::Status s;
    auto canonical = store.canonical_hash(head.number);
    if (!canonical) return unexpected(VerifyError{{}, canonical.error().message});
    if (!canonical->found() || canonical->value != head.hash) {
        return unexpected(fail("the state head block " + std::to_string(head.number) + " (" +
                                   hex_of(head.hash.view()) + ") is not canonical",
                               head.number));
    }
    auto header_rlp = store.header_by_number(head.number);
    if (!header_rlp) return unexpected(VerifyError{{}, header_rlp.error().message});
    auto header = header_rlp->found() ? eth::decode_header(header_rlp->value)
                                      : Result<eth::Header, eth::Error>(unexpected(eth::Error{}));
    if (!header) {
        return unexpected(fail("the state head's header is missing or damaged", head.number));
    }
    if (header->state_root != head.state_root) {
        return unexpected(fail("block " + std::to_string(head.number) +
                                   "'s header has state root " + hex_of(header->state_root.view()) +
                                   ", the state head " + hex_of(head.state_root.view()),
                               head.number));
    }

    // The flat state, in key order: every storage root, then the state root.
    trie::RootBuilder accounts_root;
    trie::RootBuilder slots_root;
    std::unordered_set<Hash32> codes;
    auto acc = iterate(d, ro, kAccounts);
    auto slot = iterate(d, ro, kStorage);
    for (; acc->Valid(); acc->Next()) {
        const BytesView key = view_of(acc->key());
        if (key.size() != 32) return unexpected(fail("an account key is not 32 bytes"));
        const std::string who = "account " + hex_of(key);
        auto a = decode_account(view_of(acc->value()));
        if (!a) return unexpected(fail(who + ": the value does not decode"));
        ++report.accounts;
        slots_root.reset();
        std::uint64_t account_slots = 0;
        for (; slot->Valid(); slot->Next()) {
            const BytesView sk = view_of(slot->key());
            if (sk.size() != 64) return unexpected(fail("a storage key is not 64 bytes"));
            const int c = std::memcmp(sk.data(), key.data(), 32);
            if (c > 0) break;
            if (c < 0) {
                return unexpected(
                    fail("slots of " + hex_of(sk.first(32)) + ", which has no account"));
            }
            const BytesView v = view_of(slot->value());
            auto word = decode_storage_value(v);
            if (!word || word->is_zero()) {
                return unexpected(fail(who + ": slot " + hex_of(sk.subspan(32)) + " holds " +
                                       hex_of(v) + ", not a non-zero word"));
            }
            slots_root.add(sk.subspan(32), v);
            ++report.slots;
            ++account_slots;
        }
        if (!slot->status().ok()) return read_error(slot->status());
        const Hash32 storage_root = slots_root.root();
        if (storage_root != a->storage_root) {
            return unexpected(fail(who + ": storage root " + hex_of(a->storage_root.view()) +
                                   ", its slots give " + hex_of(storage_root.view())));
        }
        if (a->code_hash != state::kEmptyCodeHash && codes.insert(a->code_hash).second) {
            std::string code;
            s = d.db->Get(ro, d.cfs[kCode], slice(a->code_hash.view()), &code);
            if (s.IsNotFound()) {
                return unexpected(fail(who + ": code " + hex_of(a->code_hash.view()) + " missing"));
            }
            if (!s.ok()) return read_error(s);
            if (crypto::keccak256(as_bytes(code)) != a->code_hash) {
                return unexpected(fail(who + ": code " + hex_of(a->code_hash.view()) +
                                       " does not hash to its key"));
            }
        }
        if (a->storage_root != trie::kEmptyRoot) {
            const detail::TrieRows rows(d, kStorageTrie, key, ro);
            auto t = trie::check_stored(rows, a->storage_root);
            if (!t) return unexpected(fail(who + ": storage trie: " + t.error()));
            if (t->leaves != account_slots) {
                return unexpected(fail(who + ": the storage trie has " + std::to_string(t->leaves) +
                                       " slots, the flat state " + std::to_string(account_slots)));
            }
            report.storage_trie_rows += t->rows;
        }
        accounts_root.add(key, view_of(acc->value()));
    }
    if (!acc->status().ok()) return read_error(acc->status());
    if (slot->Valid()) {
        return unexpected(
            fail("slots of " + hex_of(view_of(slot->key()).first(32)) + ", which has no account"));
    }
    report.codes = codes.size();
    const Hash32 root = accounts_root.root();
    if (root != head.state_root) {
        return unexpected(fail("the flat state gives root " + hex_of(root.view()) +
                                   ", the state head says " + hex_of(head.state_root.view()),
                               head.number));
    }

    // The tries: complete, hash-consistent, and no row left over.
    const detail::TrieRows account_rows(d, kAccountTrie, {}, ro);
    auto t = trie::check_stored(account_rows, head.state_root);
    if (!t) return unexpected(fail("account trie: " + t.error()));
    report.account_trie_rows = t->rows;
    if (t->leaves != report.accounts) {
        return unexpected(fail("the account trie has " + std::to_string(t->leaves) +
                               " accounts, the flat state " + std::to_string(report.accounts)));
    }
    auto stored = count_rows(d, ro, kAccountTrie);
    if (!stored) return unexpected(stored.error());
    if (*stored != report.account_trie_rows) {
        return unexpected(fail(std::to_string(*stored - report.account_trie_rows) +
                               " account trie rows that the trie does not reach"));
    }
    stored = count_rows(d, ro, kStorageTrie);
    if (!stored) return unexpected(stored.error());
    if (*stored != report.storage_trie_rows) {
        return unexpected(fail(std::to_string(*stored - report.storage_trie_rows) +
                               " storage trie rows that no storage trie reaches"));
    }

    // The latest change sets: every key they name has its history row.
    const std::uint64_t from = head.number > kHistorySample ? head.number - kHistorySample + 1 : 0;
    std::unique_ptr<rocksdb::Iterator> cs(d.db->NewIterator(ro, d.cfs[kChangeSets]));
    const NumKey from_key = num_key(from);
    for (cs->Seek(slice(from_key)); cs->Valid(); cs->Next()) {
        if (cs->key().size() != 8) return unexpected(fail("a change set key is not 8 bytes"));
        const std::uint64_t block = get_be64(cs->key().data());
        std::optional<VerifyError> missing;
        const bool whole =
            detail::for_each_change(view_of(cs->value()), [&](bool is_slot, BytesView key) {
                if (missing) return;
                Bytes row_key(key.begin(), key.end());
                row_key.resize(row_key.size() + 8);
                keys::put_be64(row_key.data() + row_key.size() - 8, block);
                std::string row;
                s = d.db->Get(ro, d.cfs[is_slot ? kStorageHistory : kAccountHistory],
                              slice(row_key), &row);
                if (s.IsNotFound()) {
                    missing = fail("block " + std::to_string(block) + ": the history row of " +
                                       hex_of(key.first(32)) + " is missing",
                                   block);
                } else if (!s.ok()) {
                    missing = VerifyError{{}, d.error("read", s).message};
                } else {
                    ++report.history_rows_checked;
                }
            });
        if (missing) return unexpected(std::move(*missing));
        if (!whole) {
            return unexpected(
                fail("block " + std::to_string(block) + "'s change set is damaged", block));
        }
        ++report.change_sets_checked;
    }
    if (!cs->status().ok()) return read_error(cs->status());
    return std::optional<StateVerifyReport>{report};
}

}  // namespace keel::store
