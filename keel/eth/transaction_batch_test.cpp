#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/transaction.hpp"

namespace keel::eth {

// Readable failures: the one-line message instead of the object's bytes (defined in
// transaction_test.cpp, in the same test executable).
void PrintTo(const Error& e, std::ostream* os);

namespace {

using Rng = std::mt19937_64;

template <std::size_t N>
FixedBytes<N> fixed(Rng& rng) {
    FixedBytes<N> out;
    for (auto& b : out.bytes) b = static_cast<std::uint8_t>(rng());
    return out;
}

Bytes bytes(Rng& rng, std::size_t n) {
    Bytes out(n);
    for (auto& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
}

Uint256 word(Rng& rng) {
    return Uint256::from_limbs(rng(), rng(), rng(), rng());
}

// A well-formed transaction of a random type, with random sizes: calldata from empty to about
// 1 KB, so envelopes span one to nine Keccak blocks.
TransactionFields random_fields(Rng& rng) {
    TransactionFields f;
    f.type = static_cast<TxType>(rng() % 5);
    f.chain_id = 1 + rng() % 1000;
    f.nonce = rng() % 3 == 0 ? rng() : rng() % 1000;
    f.max_fee_per_gas = rng() % 4 == 0 ? word(rng) : Uint256(rng() % 100000000000ull);
    f.max_priority_fee_per_gas = rng() % 3000000000ull;
    f.gas_limit = 21000 + rng() % 1000000;
    if (rng() % 8 != 0 || f.type == TxType::blob || f.type == TxType::set_code)
        f.to = fixed<20>(rng);
    f.value = rng() % 2 == 0 ? Uint256(0) : word(rng);
    const std::size_t data_len = rng() % 4 == 0 ? rng() % 1000 : rng() % 200;
    f.data = bytes(rng, data_len);
    if (f.type != TxType::legacy) {
        const std::size_t entries = rng() % 3;
        for (std::size_t e = 0; e < entries; ++e) {
            TransactionFields::AccessListEntry entry;
            entry.address = fixed<20>(rng);
            const std::size_t keys = rng() % 3;
            for (std::size_t k = 0; k < keys; ++k) entry.storage_keys.push_back(fixed<32>(rng));
            f.access_list.push_back(std::move(entry));
        }
    }
    if (f.type == TxType::blob) {
        f.max_fee_per_blob_gas = rng() % 1000000;
        const std::size_t n = 1 + rng() % 6;
        for (std::size_t i = 0; i < n; ++i) {
            Hash32 h = fixed<32>(rng);
            h[0] = 0x01;
            f.blob_versioned_hashes.push_back(h);
        }
    }
    if (f.type == TxType::set_code) {
        const std::size_t n = 1 + rng() % 3;
        for (std::size_t i = 0; i < n; ++i) {
            f.authorization_list.push_back({Uint256(rng() % 3), fixed<20>(rng), rng() % 100,
                                            static_cast<std::uint8_t>(rng() % 2), word(rng),
                                            word(rng)});
        }
    }
    f.v = f.type == TxType::legacy ? Uint256(rng() % 2 == 0 ? 27 + rng() % 2 : 37 + rng() % 2)
                                   : Uint256(rng() % 2);
    f.r = word(rng);
    f.s = word(rng);
    return f;
}

// An envelope that is valid about half the time; otherwise broken in one of several ways, each
// of which decode_transaction() reports with its own error (or, for a lucky byte flip, not).
Bytes random_envelope(Rng& rng) {
    Bytes e = encode(random_fields(rng));
    switch (rng() % 10) {
        case 0:  // truncated
            e.resize(rng() % e.size());
            break;
        case 1:  // one byte changed
            e[rng() % e.size()] ^= static_cast<std::uint8_t>(1 + rng() % 255);
            break;
        case 2:  // trailing byte
            e.push_back(static_cast<std::uint8_t>(rng()));
            break;
        case 3:  // unknown or reserved type byte
            e[0] = rng() % 2 == 0 ? 0x05 : 0x00;
            break;
        case 4:  // garbage of a random length
            e = bytes(rng, rng() % 300);
            break;
        default:
            break;
    }
    return e;
}

// decode_transactions() gives, envelope by envelope, what decode_transaction() gives. Adds the
// number of valid envelopes to `valid`.
void check_batch(const std::vector<Bytes>& envs, std::size_t* valid = nullptr) {
    const std::vector<BytesView> in(envs.begin(), envs.end());
    std::vector<Result<Transaction, Error>> got;
    const std::size_t ok = decode_transactions(in, got);
    ASSERT_EQ(got.size(), in.size());
    std::size_t want_ok = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const auto want = decode_transaction(in[i]);
        ASSERT_EQ(got[i].has_value(), want.has_value()) << "envelope " << i;
        if (!want) {
            EXPECT_EQ(got[i].error(), want.error()) << "envelope " << i;
            continue;
        }
        ++want_ok;
        const Transaction& g = *got[i];
        EXPECT_EQ(g.hash(), want->hash()) << "envelope " << i;
        EXPECT_EQ(g.hash(), crypto::keccak256_with(crypto::KeccakBackend::portable, in[i]))
            << "envelope " << i;
        const BytesView ge = g.encoded(), we = want->encoded();
        EXPECT_EQ(Bytes(ge.begin(), ge.end()), Bytes(we.begin(), we.end())) << "envelope " << i;
        EXPECT_EQ(encode(g), encode(*want)) << "envelope " << i;
        EXPECT_EQ(g.offset_of(Field::s), want->offset_of(Field::s)) << "envelope " << i;
    }
    EXPECT_EQ(ok, want_ok);
    if (valid != nullptr) *valid += want_ok;
}

TEST(DecodeTransactions, EmptyBatch) {
    std::vector<Result<Transaction, Error>> out;
    EXPECT_EQ(decode_transactions({}, out), 0u);
    EXPECT_TRUE(out.empty());
}

TEST(DecodeTransactions, RandomMixesOfValidAndInvalid) {
    Rng rng(7);
    std::size_t total = 0, valid = 0;
    // Batch sizes around the x8 groups and the internal chunk of 128.
    for (const std::size_t n : {1, 2, 7, 8, 9, 15, 16, 17, 50, 127, 128, 129, 255, 256, 257, 600}) {
        std::vector<Bytes> envs;
        for (std::size_t i = 0; i < n; ++i) envs.push_back(random_envelope(rng));
        check_batch(envs, &valid);
        total += n;
    }
    // Both paths were exercised in earnest.
    EXPECT_GT(valid, total / 3);
    EXPECT_GT(total - valid, total / 4);
}

TEST(DecodeTransactions, AllValidAndAllInvalid) {
    Rng rng(8);
    std::vector<Bytes> valid, invalid;
    for (int i = 0; i < 300; ++i) {
        valid.push_back(encode(random_fields(rng)));
        Bytes bad = encode(random_fields(rng));
        bad.push_back(0x00);  // trailing byte: always an error
        invalid.push_back(std::move(bad));
    }
    check_batch(valid);
    check_batch(invalid);
    std::vector<Result<Transaction, Error>> out;
    const std::vector<BytesView> in(invalid.begin(), invalid.end());
    EXPECT_EQ(decode_transactions(in, out), 0u);
}

TEST(DecodeTransactions, AppendsToExistingResults) {
    Rng rng(9);
    const Bytes a = encode(random_fields(rng)), b = encode(random_fields(rng));
    std::vector<Result<Transaction, Error>> out;
    const BytesView first[1] = {a};
    ASSERT_EQ(decode_transactions(first, out), 1u);
    const BytesView second[2] = {b, BytesView{}};
    ASSERT_EQ(decode_transactions(second, out), 1u);
    ASSERT_EQ(out.size(), 3u);
    ASSERT_TRUE(out[0] && out[1]);
    EXPECT_EQ(out[0]->hash(), decode_transaction(a)->hash());
    EXPECT_EQ(out[1]->hash(), decode_transaction(b)->hash());
    ASSERT_FALSE(out[2]);
    EXPECT_EQ(out[2].error(), decode_transaction(BytesView{}).error());
}

}  // namespace
}  // namespace keel::eth
