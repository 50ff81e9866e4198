#include "keel/eth/sender.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "keel/common/hex.hpp"
#include "keel/common/parallel.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/crypto/signature.hpp"
#include "test/testutil/data.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/signature.hpp"

namespace keel::eth {
namespace {

using crypto::SignatureAlgorithm;
using crypto::SignatureScheme;
using testutil::fixed_from_hex;
using testutil::random_secret;
using testutil::ScopedSignatureAlgorithm;
using testutil::uint256_from_string;

Transaction decode(const TransactionFields& f) {
    auto tx = decode_transaction(encode(f));
    if (!tx) throw std::runtime_error(to_string(tx.error()));
    return *tx;
}

// Signs `f` with `secret` on `scheme`: legacy transactions with EIP-155 when `eip155`.
Transaction sign(TransactionFields f, const Bytes32& secret, const SignatureScheme& scheme,
                 bool eip155 = true) {
    const bool legacy = f.type == TxType::legacy;
    const Uint256 v_base = legacy ? (eip155 ? Uint256(f.chain_id * 2 + 35) : Uint256(27)) : 0;
    f.v = v_base;  // the signing hash depends on v only through the EIP-155 chain id
    f.r = 1;
    f.s = 1;
    const Hash32 h = decode(f).signing_hash();
    auto sig = scheme.sign_recoverable(h, secret);
    if (!sig) throw std::runtime_error("sign");
    f.v = v_base + sig->recovery_id;
    f.r = sig->r;
    f.s = sig->s;
    return decode(f);
}

Address address_of(const Bytes32& secret, const SignatureScheme& scheme) {
    return crypto::public_key_to_address(scheme.public_key_of(secret).value());
}

// Fields of a transaction of type `type` with some content.
TransactionFields fields_of(TxType type, std::uint64_t nonce) {
    TransactionFields f;
    f.type = type;
    f.chain_id = 1;
    f.nonce = nonce;
    f.max_fee_per_gas = 30'000'000'000ull + nonce;
    f.max_priority_fee_per_gas = 1'000'000'000ull;
    f.gas_limit = 100'000;
    f.to = fixed_from_hex<Address>("0x3535353535353535353535353535353535353535");
    f.value = nonce * 1000;
    f.data = Bytes(nonce % 50, 0xab);
    if (type != TxType::legacy) f.access_list.push_back({*f.to, {Hash32{}}});
    if (type == TxType::blob) {
        f.max_fee_per_blob_gas = 7;
        Hash32 h{};
        h[0] = 0x01;
        f.blob_versioned_hashes.push_back(h);
    }
    if (type == TxType::set_code) {
        Authorization a;
        a.chain_id = 1;
        a.address = *f.to;
        a.nonce = nonce;
        a.r = 1;
        a.s = 1;
        f.authorization_list.push_back(a);
    }
    return f;
}

// The EIP-155 example (https://eips.ethereum.org/EIPS/eip-155#example).
TransactionFields eip155_fields() {
    TransactionFields f;
    f.type = TxType::legacy;
    f.nonce = 9;
    f.max_fee_per_gas = 20'000'000'000ull;
    f.gas_limit = 21000;
    f.to = fixed_from_hex<Address>("0x3535353535353535353535353535353535353535");
    f.value = uint256_from_string("1000000000000000000");
    f.v = 37;
    f.r = uint256_from_string(
        "18515461264373351373200002665853028612451056578545711640558177340181847433846");
    f.s = uint256_from_string(
        "46948507304638947509940763649030358759909902576025900602547168820602576006531");
    return f;
}
const Address kEip155Sender = fixed_from_hex<Address>("0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F");
const Bytes32 kEip155Secret =
    fixed_from_hex<Bytes32>("0x4646464646464646464646464646464646464646464646464646464646464646");

const SignatureScheme& k1() {
    return crypto::signature_scheme(SignatureAlgorithm::secp256k1);
}

TEST(Sender, Eip155Example) {
    const Transaction tx = decode(eip155_fields());
    EXPECT_EQ(
        hex::encode_prefixed(tx.encoded()),
        "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a7640000"
        "8025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f"
        "761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83");
    EXPECT_EQ(tx.signing_hash(),
              fixed_from_hex<Hash32>(
                  "0xdaf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53"));
    auto a = sender(tx);
    ASSERT_TRUE(a.has_value()) << to_string(a.error());
    EXPECT_EQ(*a, kEip155Sender);
    EXPECT_EQ(address_of(kEip155Secret, k1()), kEip155Sender);
}

TEST(Sender, CachesTheRecoveredAddress) {
    const Transaction tx = decode(eip155_fields());
    EXPECT_FALSE(tx.cached_sender().has_value()) << "decoding does not recover";
    ASSERT_EQ(sender(tx).value(), kEip155Sender);
    ASSERT_TRUE(tx.cached_sender().has_value());
    EXPECT_EQ(*tx.cached_sender(), kEip155Sender);
    EXPECT_EQ(sender(tx).value(), kEip155Sender);
    // A copy carries the published sender; clearing a copy leaves the original alone.
    Transaction copy = tx;
    EXPECT_EQ(copy.cached_sender(), kEip155Sender);
    copy.clear_cached_sender();
    EXPECT_FALSE(copy.cached_sender().has_value());
    EXPECT_EQ(tx.cached_sender(), kEip155Sender);
    EXPECT_EQ(sender(copy).value(), kEip155Sender);
}

// What a holder of a const Transaction can do to its sender: read it, nothing else. (Before the
// sender was published once, sender_cache() handed out a writable slot to any const holder.)
template <class T>
concept CanWriteSenderThroughConst =
    requires(const T& tx, const Address& a) { tx.sender_cache() = a; };
template <class T>
concept CanClearSenderThroughConst = requires(const T& tx) { tx.clear_cached_sender(); };

TEST(Sender, ConstTransactionCannotBeGivenASender) {
    EXPECT_FALSE(CanWriteSenderThroughConst<Transaction>);
    EXPECT_FALSE(CanClearSenderThroughConst<Transaction>);
    EXPECT_FALSE(std::is_default_constructible_v<SenderSlot::Key>);
}

TEST(Sender, EveryTypeRecovers) {
    std::mt19937_64 rng(4844);
    for (TxType type : {TxType::legacy, TxType::access_list, TxType::dynamic_fee, TxType::blob,
                        TxType::set_code}) {
        for (int i = 0; i < 5; ++i) {
            const Bytes32 secret = random_secret(rng, k1().order);
            const Transaction tx =
                sign(fields_of(type, static_cast<std::uint64_t>(i)), secret, k1());
            EXPECT_EQ(sender(tx).value(), address_of(secret, k1()))
                << static_cast<int>(type) << " " << i;
        }
    }
    // Legacy without EIP-155 (v = 27/28).
    const Bytes32 secret = random_secret(rng, k1().order);
    const Transaction pre155 = sign(fields_of(TxType::legacy, 3), secret, k1(), false);
    EXPECT_FALSE(pre155.chain_id().has_value());
    EXPECT_EQ(sender(pre155).value(), address_of(secret, k1()));
}

TEST(Sender, AcceptsHighS) {
    // (r, n - s) with the other parity is the same signature; a Frontier transaction may carry
    // it, so sender() recovers it (validate() applies EIP-2 by fork).
    TransactionFields f = eip155_fields();
    f.s = crypto::secp256k1::kOrder - f.s;
    f.v = 38;
    EXPECT_EQ(sender(decode(f)).value(), kEip155Sender);
}

TEST(Sender, RejectsBadSignatures) {
    auto expect_error = [](const TransactionFields& f, Errc code, Field field) {
        const Transaction tx = decode(f);
        auto a = sender(tx);
        ASSERT_FALSE(a.has_value());
        EXPECT_EQ(a.error().code, code) << to_string(a.error());
        EXPECT_EQ(a.error().field, field) << to_string(a.error());
        EXPECT_EQ(a.error().offset, tx.offset_of(field));
        EXPECT_FALSE(tx.cached_sender().has_value()) << "a failure caches nothing";
    };
    TransactionFields f = eip155_fields();
    f.r = 0;
    expect_error(f, Errc::invalid_signature_values, Field::r);
    f = eip155_fields();
    f.r = crypto::secp256k1::kOrder;
    expect_error(f, Errc::invalid_signature_values, Field::r);
    f = eip155_fields();
    f.s = 0;
    expect_error(f, Errc::invalid_signature_values, Field::s);
    f = eip155_fields();
    f.s = Uint256::max();
    expect_error(f, Errc::invalid_signature_values, Field::s);
    // No point has x = 5 on secp256k1: EC_RECOVERY_FAIL.
    f = eip155_fields();
    f.r = 5;
    expect_error(f, Errc::invalid_signature, Field::none);
    // v selects neither a parity nor a signing hash.
    for (std::uint64_t v : {0, 1, 26, 29, 34}) {
        f = eip155_fields();
        f.v = v;
        expect_error(f, Errc::invalid_signature_values, Field::v);
    }
    TransactionFields typed = fields_of(TxType::dynamic_fee, 1);
    typed.r = 1;
    typed.s = 1;
    typed.v = 2;
    expect_error(typed, Errc::invalid_signature_values, Field::y_parity);
    // The message names the problem.
    f = eip155_fields();
    f.r = 5;
    EXPECT_NE(to_string(sender(decode(f)).error()).find("recovers no public key"),
              std::string::npos);
}

// `n` signed transactions of every type; every 17th spoiled (r = 5: recovers nothing).
std::vector<Transaction> mixed_block(std::size_t n, std::vector<Address>& signers) {
    std::mt19937_64 rng(2718);
    const TxType types[] = {TxType::legacy, TxType::access_list, TxType::dynamic_fee, TxType::blob,
                            TxType::set_code};
    std::vector<Transaction> txs;
    for (std::size_t i = 0; i < n; ++i) {
        const Bytes32 secret = random_secret(rng, k1().order);
        TransactionFields f = fields_of(types[i % 5], i);
        if (i % 17 == 5) {
            f.v = f.type == TxType::legacy ? 37 : 0;
            f.r = 5;
            f.s = 1;
            txs.push_back(decode(f));
            signers.push_back(Address{});
        } else {
            txs.push_back(sign(f, secret, k1()));
            signers.push_back(address_of(secret, k1()));
        }
    }
    return txs;
}

TEST(RecoverSenders, BatchEqualsOneByOne) {
    std::vector<Address> signers;
    const std::vector<Transaction> block = mixed_block(203, signers);
    std::size_t spoiled = 0;
    for (std::size_t i = 0; i < block.size(); ++i) spoiled += i % 17 == 5 ? 1 : 0;

    std::vector<Result<Address, Error>> one_by_one;
    for (const auto& tx : std::vector<Transaction>(block)) one_by_one.push_back(sender(tx));

    for (std::size_t threads : {1, 2, 4}) {
        parallel::ThreadLimit limit(threads);
        const std::vector<Transaction> copy = block;  // fresh, empty caches
        std::vector<Result<Address, Error>> out(copy.size());
        recover_senders(copy, out);
        for (std::size_t i = 0; i < copy.size(); ++i) {
            ASSERT_EQ(out[i].has_value(), one_by_one[i].has_value()) << i;
            if (out[i]) {
                EXPECT_EQ(*out[i], *one_by_one[i]) << i;
                EXPECT_EQ(*out[i], signers[i]) << i;
                EXPECT_EQ(copy[i].cached_sender(), *out[i]) << i;
            } else {
                EXPECT_EQ(out[i].error(), one_by_one[i].error()) << i;
                EXPECT_FALSE(copy[i].cached_sender().has_value()) << i;
            }
        }
        const std::vector<Transaction> copy2 = block;
        EXPECT_EQ(recover_senders(copy2), block.size() - spoiled);
        for (std::size_t i = 0; i < copy2.size(); ++i) {
            EXPECT_EQ(copy2[i].cached_sender().has_value(), i % 17 != 5) << i;
            if (copy2[i].cached_sender()) {
                EXPECT_EQ(*copy2[i].cached_sender(), signers[i]) << i;
            }
        }
    }
}

TEST(RecoverSenders, KeepsCachedSendersAndHandlesSmallBatches) {
    std::vector<Address> signers;
    const std::vector<Transaction> block = mixed_block(20, signers);
    ASSERT_EQ(sender(block[3]).value(), signers[3]);
    EXPECT_EQ(recover_senders(block), block.size() - 1);  // index 5 is spoiled
    EXPECT_EQ(*block[3].cached_sender(), signers[3]);
    EXPECT_EQ(*block[4].cached_sender(), signers[4]);
    EXPECT_FALSE(block[5].cached_sender().has_value());
    EXPECT_EQ(recover_senders(std::span<const Transaction>{}), 0u);
    std::vector<Result<Address, Error>> none;
    recover_senders({}, none);
    std::vector<Transaction> one(block.begin(), block.begin() + 1);
    one[0].clear_cached_sender();
    EXPECT_EQ(recover_senders(one), 1u);
    EXPECT_EQ(*one[0].cached_sender(), signers[0]);
}

// Two threads recovering the same block at once, in a batch and one by one, while a third copies
// the transactions (a copy reads the published sender). Under ThreadSanitizer the old plain slot
// (a const accessor handing out std::optional<Address>&) was a data race here; the published-once
// slot is not. Every thread gets the signer of every transaction, and so does the block after.
TEST(RecoverSenders, ConcurrentRecoveryOfTheSameTransactions) {
    std::vector<Address> signers;
    const std::vector<Transaction> block = mixed_block(60, signers);
    // The batch runs on the calling thread alone, so that the threads racing here are only the
    // three below (oneTBB's own pool is not instrumented: its hand-offs would be reported too).
    parallel::ThreadLimit one(1);
    for (int round = 0; round < 4; ++round) {
        const std::vector<Transaction> txs = block;  // nothing published yet
        std::vector<Result<Address, Error>> batch_out(txs.size());
        std::vector<Result<Address, Error>> single_out(txs.size());
        std::vector<std::optional<Address>> copied(txs.size());
        std::thread batch([&] { recover_senders(txs, batch_out); });
        std::thread single([&] {
            for (std::size_t i = txs.size(); i-- > 0;) single_out[i] = sender(txs[i]);
        });
        std::thread copier([&] {
            for (std::size_t i = 0; i < txs.size(); ++i) {
                const Transaction c = txs[i];
                copied[i] = c.cached_sender();
            }
        });
        batch.join();
        single.join();
        copier.join();
        for (std::size_t i = 0; i < txs.size(); ++i) {
            if (i % 17 == 5) {
                EXPECT_FALSE(batch_out[i].has_value()) << i;
                EXPECT_FALSE(single_out[i].has_value()) << i;
                EXPECT_FALSE(txs[i].cached_sender().has_value()) << i;
                continue;
            }
            EXPECT_EQ(batch_out[i].value(), signers[i]) << i;
            EXPECT_EQ(single_out[i].value(), signers[i]) << i;
            EXPECT_EQ(txs[i].cached_sender(), signers[i]) << i;
            if (copied[i]) {
                EXPECT_EQ(*copied[i], signers[i]) << i;
            }
        }
    }
}

TEST(Sender, FollowsTheProcessWideCurve) {
    const SignatureScheme& r1 = crypto::signature_scheme(SignatureAlgorithm::secp256r1);
    std::mt19937_64 rng(256);
    std::vector<Transaction> txs;
    std::vector<Address> signers;
    for (std::uint64_t i = 0; i < 24; ++i) {
        const Bytes32 secret = random_secret(rng, r1.order);
        txs.push_back(sign(fields_of(i % 2 ? TxType::dynamic_fee : TxType::legacy, i), secret, r1));
        signers.push_back(address_of(secret, r1));
    }
    {
        ScopedSignatureAlgorithm use_r1(SignatureAlgorithm::secp256r1);
        EXPECT_EQ(sender(txs[0]).value(), signers[0]);
        std::vector<Result<Address, Error>> out(txs.size());
        recover_senders(txs, out);
        for (std::size_t i = 0; i < txs.size(); ++i) EXPECT_EQ(out[i].value(), signers[i]) << i;
    }
    // On secp256k1 the same signature is someone else's (or no one's).
    Transaction fresh = txs[1];
    fresh.clear_cached_sender();
    auto other = sender(fresh);
    EXPECT_TRUE(!other || *other != signers[1]);
}

Authorization signed_authorization(const Bytes32& secret, std::uint64_t chain_id,
                                   std::uint64_t nonce) {
    Authorization a;
    a.chain_id = chain_id;
    a.address = fixed_from_hex<Address>("0x00000000000000000000000000000000000000cc");
    a.nonce = nonce;
    auto sig = crypto::secp256k1::sign_recoverable(a.signing_hash(), secret);
    if (!sig) throw std::runtime_error("sign");
    a.y_parity = sig->recovery_id;
    a.r = sig->r;
    a.s = sig->s;
    return a;
}

TEST(Authority, RecoversTheSigner) {
    std::mt19937_64 rng(7702);
    for (std::uint64_t chain_id : {0, 1, 17000}) {
        for (std::uint64_t nonce : {0ull, 1ull, 0xfffffffffffffffeull}) {
            const Bytes32 secret = random_secret(rng, k1().order);
            const Authorization a = signed_authorization(secret, chain_id, nonce);
            auto who = authority(a);
            ASSERT_TRUE(who.has_value()) << to_string(who.error());
            EXPECT_EQ(*who, address_of(secret, k1()));
            // The signature covers chain id, address and nonce.
            Authorization changed = a;
            changed.nonce ^= 1;
            auto other = authority(changed);
            EXPECT_TRUE(!other || *other != *who);
        }
    }
}

TEST(Authority, AppliesTheEipSignatureRules) {
    const Authorization good = signed_authorization(kEip155Secret, 1, 5);
    auto expect_error = [](const Authorization& a, Errc code, Field field) {
        auto r = authority(a);
        ASSERT_FALSE(r.has_value());
        EXPECT_EQ(r.error().code, code) << to_string(r.error());
        EXPECT_EQ(r.error().field, field) << to_string(r.error());
    };
    Authorization a = good;
    a.y_parity = 2;  // a recovery id, but not Ethereum's
    expect_error(a, Errc::invalid_signature_values, Field::authorization_y_parity);
    a.y_parity = 27;
    expect_error(a, Errc::invalid_signature_values, Field::authorization_y_parity);
    a = good;  // the same signature with high s: EIP-7702 requires s <= n/2
    a.s = crypto::secp256k1::kOrder - a.s;
    a.y_parity ^= 1;
    expect_error(a, Errc::invalid_signature_values, Field::authorization_s);
    a = good;
    a.s = 0;
    expect_error(a, Errc::invalid_signature_values, Field::authorization_s);
    a = good;
    a.r = 0;
    expect_error(a, Errc::invalid_signature_values, Field::authorization_r);
    a = good;
    a.r = crypto::secp256k1::kOrder;
    expect_error(a, Errc::invalid_signature_values, Field::authorization_r);
    a = good;
    a.r = 5;
    expect_error(a, Errc::invalid_signature, Field::authorization);
    EXPECT_EQ(authority(good).value(), kEip155Sender);
}

// A set-code transaction carrying `auths`, signed by `secret`.
Transaction set_code_with(std::vector<Authorization> auths, const Bytes32& secret) {
    TransactionFields f = fields_of(TxType::set_code, 3);
    f.authorization_list = std::move(auths);
    return sign(f, secret, k1());
}

TEST(Authorities, RecoveredOnceAndCarriedByCopies) {
    std::mt19937_64 rng(77021);
    const Bytes32 s1 = random_secret(rng, k1().order);
    const Bytes32 s2 = random_secret(rng, k1().order);
    Authorization bad = signed_authorization(s2, 1, 9);
    bad.r = 5;  // recovers no key
    const Transaction tx = set_code_with(
        {signed_authorization(s1, 1, 0), bad, signed_authorization(s2, 0, 7)}, kEip155Secret);
    EXPECT_EQ(tx.authority_slot().get(), nullptr);
    const std::span<const std::optional<Address>> got = authorities(tx);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0], address_of(s1, k1()));
    EXPECT_FALSE(got[1].has_value());
    EXPECT_EQ(got[2], address_of(s2, k1()));
    // Published: the second call hands out the same list, and a copy carries its own.
    ASSERT_NE(tx.authority_slot().get(), nullptr);
    EXPECT_EQ(authorities(tx).data(), got.data());
    Transaction copy = tx;
    ASSERT_NE(copy.authority_slot().get(), nullptr);
    EXPECT_NE(copy.authority_slot().get(), tx.authority_slot().get());
    EXPECT_TRUE(std::ranges::equal(authorities(copy), got));
    copy.clear_cached_sender();
    EXPECT_EQ(copy.authority_slot().get(), nullptr);
    EXPECT_TRUE(std::ranges::equal(authorities(copy), got));
    // A moved-from transaction gives its list up; the moved-to one has it.
    const AuthoritySlot::List* before = copy.authority_slot().get();
    Transaction moved = std::move(copy);
    EXPECT_EQ(moved.authority_slot().get(), before);
    // Other types have none, and nothing is published into them.
    const Transaction plain = sign(fields_of(TxType::dynamic_fee, 1), kEip155Secret, k1());
    EXPECT_TRUE(authorities(plain).empty());
    EXPECT_EQ(plain.authority_slot().get(), nullptr);
}

// `n` authorizations (chain id 1, nonce = index) by random signers, and who each signer is.
std::pair<std::vector<Authorization>, std::vector<Address>> authorizations(std::uint64_t seed,
                                                                           std::uint64_t n) {
    std::mt19937_64 rng(seed);
    std::pair<std::vector<Authorization>, std::vector<Address>> out;
    for (std::uint64_t i = 0; i < n; ++i) {
        const Bytes32 s = random_secret(rng, k1().order);
        out.first.push_back(signed_authorization(s, 1, i));
        out.second.push_back(address_of(s, k1()));
    }
    return out;
}

TEST(Authorities, RecoverSendersPublishesThemAndSkipsWhatIsKnown) {
    const auto [auths, who] = authorizations(77022, 20);
    std::vector<Transaction> txs;
    for (std::uint64_t i = 0; i < 20; ++i) {
        txs.push_back(i % 3 == 0 ? set_code_with({auths[i]}, kEip155Secret)
                                 : sign(fields_of(TxType::dynamic_fee, i), kEip155Secret, k1()));
    }
    // Senders known, authorities not: recover_senders() still recovers the authorities.
    for (const Transaction& tx : txs) ASSERT_TRUE(sender(tx).has_value());
    EXPECT_EQ(recover_senders(txs), txs.size());
    for (std::size_t i = 0; i < txs.size(); i += 3) {
        const AuthoritySlot::List* l = txs[i].authority_slot().get();
        ASSERT_NE(l, nullptr) << i;
        ASSERT_EQ(l->size(), 1u);
        EXPECT_EQ((*l)[0], who[i]) << i;
    }
    // The other overload, on fresh copies.
    std::vector<Transaction> fresh = txs;
    for (Transaction& tx : fresh) tx.clear_cached_sender();
    std::vector<Result<Address, Error>> out(fresh.size());
    recover_senders(fresh, out);
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        EXPECT_EQ(out[i].value(), kEip155Sender) << i;
        if (i % 3 == 0) {
            ASSERT_NE(fresh[i].authority_slot().get(), nullptr) << i;
            EXPECT_EQ((*fresh[i].authority_slot().get())[0], who[i]) << i;
        }
    }
}

// Threads asking for the same transaction's authorities at once all get the one published list
// (ThreadSanitizer checks the publication).
TEST(Authorities, ConcurrentCallersGetThePublishedList) {
    const auto [auths, who] = authorizations(77023, 4);
    const Transaction proto = set_code_with(auths, kEip155Secret);
    for (int round = 0; round < 8; ++round) {
        Transaction tx = proto;
        tx.clear_cached_sender();
        std::vector<const std::optional<Address>*> seen(3);
        std::vector<std::thread> threads;
        for (std::size_t t = 0; t < seen.size(); ++t)
            threads.emplace_back([&, t] { seen[t] = authorities(tx).data(); });
        for (auto& th : threads) th.join();
        for (const auto* p : seen) EXPECT_EQ(p, tx.authority_slot().get()->data());
        ASSERT_EQ(authorities(tx).size(), who.size());
        for (std::size_t i = 0; i < who.size(); ++i) EXPECT_EQ(authorities(tx)[i], who[i]);
    }
}

}  // namespace
}  // namespace keel::eth
