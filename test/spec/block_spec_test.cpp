// Block runners over real and official chain data (see ../shared/vectors/evm/SOURCES.md and
// ../shared/vectors/era1/SOURCES.md):
//
//   evm/blockchain_tests/**.json  execution-spec-tests blockchain fixtures. For every test:
//     genesisRLP and every block's "rlp" are decoded with decode_block(); a decoded block must
//     re-encode to exactly its input, its header hash must equal the fixture's, every header field
//     must equal the fixture's blockHeader, its transactions root, withdrawals root and ommers hash
//     must equal the header's, and the withdrawals must equal the fixture's. A block marked
//     "expectException" may fail to decode (it is invalid for some rule); when it decodes, the
//     round trip and hash are still checked. Blocks with a single transaction and no logs (zero
//     bloom) also check the receipts root: one receipt [status, gasUsed, 0, []] of the
//     transaction's type, status 1 or 0.
//
//   evm/traces/rpc_structlog_execution_apis/tests/chain.rlp  the hive test chain (every fork's
//     header shape): every block decodes, round-trips, chains by parent hash to the head hash of
//     headfcu.json, and its roots match its header.
//
//   era1/sepolia-*.era1  two real Sepolia era1 archives (16,384 blocks, pre-merge proof of work
//     with London fields, ommers, 93 transactions). keel::store::Era1 reads the records and
//     decompresses their payloads (CRC-32C checked), and every block is checked: header and body
//     decode and re-encode to their bytes, each header's hash is the next one's parent hash and
//     matches expected.json at both ends, transactions root and ommers hash match the header, the
//     receipts decode and re-encode, their root matches the header's receipts root, each receipt's
//     bloom is the bloom of its logs and the header's bloom their OR.
//
// A runner that finds no vectors fails (vectors_dir throws; every count must be > 0).
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/fork.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/store/era1.hpp"
#include "keel/trie/root.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::eth {
namespace {

using nlohmann::json;

std::string hex_of(BytesView b) {
    return "0x" + hex::encode(b);
}

const std::string& str(const json& j, const char* key) {
    return j.at(key).get_ref<const std::string&>();
}

std::uint64_t u64_of(const json& j, const char* key) {
    auto v = Uint256::from_string(str(j, key));
    if (!v || (*v >> 64) != 0) throw std::runtime_error(std::string("bad u64 in fixture: ") + key);
    return (*v)[0];
}

Uint256 u256_of(const json& j, const char* key) {
    auto v = Uint256::from_string(str(j, key));
    if (!v) throw std::runtime_error(std::string("bad number in fixture: ") + key);
    return *v;
}

// Every header field against the fixture's blockHeader object.
void expect_header_matches(const Header& h, const json& jh) {
    EXPECT_EQ(hex_of(h.parent_hash.view()), str(jh, "parentHash"));
    EXPECT_EQ(hex_of(h.ommers_hash.view()), str(jh, "uncleHash"));
    EXPECT_EQ(hex_of(h.beneficiary.view()), str(jh, "coinbase"));
    EXPECT_EQ(hex_of(h.state_root.view()), str(jh, "stateRoot"));
    EXPECT_EQ(hex_of(h.transactions_root.view()), str(jh, "transactionsTrie"));
    EXPECT_EQ(hex_of(h.receipts_root.view()), str(jh, "receiptTrie"));
    EXPECT_EQ(hex_of(h.logs_bloom.view()), str(jh, "bloom"));
    EXPECT_EQ(h.difficulty, u256_of(jh, "difficulty"));
    EXPECT_EQ(h.number, u64_of(jh, "number"));
    EXPECT_EQ(h.gas_limit, u64_of(jh, "gasLimit"));
    EXPECT_EQ(h.gas_used, u64_of(jh, "gasUsed"));
    EXPECT_EQ(h.timestamp, u64_of(jh, "timestamp"));
    EXPECT_EQ(hex_of(h.extra_data), str(jh, "extraData"));
    EXPECT_EQ(hex_of(h.mix_hash.view()), str(jh, "mixHash"));
    EXPECT_EQ(hex_of(h.nonce.view()), str(jh, "nonce"));
    EXPECT_EQ(h.base_fee_per_gas.has_value(), jh.contains("baseFeePerGas"));
    if (h.base_fee_per_gas && jh.contains("baseFeePerGas")) {
        EXPECT_EQ(*h.base_fee_per_gas, u256_of(jh, "baseFeePerGas"));
    }
    EXPECT_EQ(h.withdrawals_root.has_value(), jh.contains("withdrawalsRoot"));
    if (h.withdrawals_root && jh.contains("withdrawalsRoot")) {
        EXPECT_EQ(hex_of(h.withdrawals_root->view()), str(jh, "withdrawalsRoot"));
    }
    EXPECT_EQ(h.blob_gas_used.has_value(), jh.contains("blobGasUsed"));
    if (h.blob_gas_used && jh.contains("blobGasUsed")) {
        EXPECT_EQ(*h.blob_gas_used, u64_of(jh, "blobGasUsed"));
    }
    EXPECT_EQ(h.excess_blob_gas.has_value(), jh.contains("excessBlobGas"));
    if (h.excess_blob_gas && jh.contains("excessBlobGas")) {
        EXPECT_EQ(*h.excess_blob_gas, u64_of(jh, "excessBlobGas"));
    }
    EXPECT_EQ(h.parent_beacon_block_root.has_value(), jh.contains("parentBeaconBlockRoot"));
    if (h.parent_beacon_block_root && jh.contains("parentBeaconBlockRoot")) {
        EXPECT_EQ(hex_of(h.parent_beacon_block_root->view()), str(jh, "parentBeaconBlockRoot"));
    }
    EXPECT_EQ(h.requests_hash.has_value(), jh.contains("requestsHash"));
    if (h.requests_hash && jh.contains("requestsHash")) {
        EXPECT_EQ(hex_of(h.requests_hash->view()), str(jh, "requestsHash"));
    }
}

struct BlockCounts {
    std::size_t files = 0;
    std::size_t tests = 0;
    std::size_t genesis = 0;
    std::size_t blocks_checked = 0;    // decoded, round trip, hash, roots
    std::size_t invalid_decoded = 0;   // expectException blocks that still decode
    std::size_t invalid_rejected = 0;  // expectException blocks that decode_block() rejects
    std::size_t transactions = 0;
    std::size_t withdrawals = 0;
    std::size_t receipts_roots = 0;
};

// The checks every decodable block gets: round trip and roots.
void check_decoded(const Block& b, BytesView in) {
    EXPECT_EQ(hex::encode(encode(b)), hex::encode(in));
    EXPECT_EQ(encoded_size(b), in.size());
    EXPECT_EQ(b.hash(), crypto::keccak256(
                            rlp::decode_single(in).value().payload.first(encoded_size(b.header))));
}

void check_roots(const Block& b) {
    EXPECT_EQ(hex_of(transactions_root(b.body.transactions).view()),
              hex_of(b.header.transactions_root.view()));
    EXPECT_EQ(hex_of(ommers_hash(b.body.ommers).view()), hex_of(b.header.ommers_hash.view()));
    EXPECT_EQ(b.body.withdrawals.has_value(), b.header.withdrawals_root.has_value());
    if (b.body.withdrawals && b.header.withdrawals_root) {
        EXPECT_EQ(hex_of(withdrawals_root(*b.body.withdrawals).view()),
                  hex_of(b.header.withdrawals_root->view()));
    }
}

// A header object whose optional fields (EIP-1559 onwards, each appended after the last) have a
// gap: one absent while a later one is present. RLP is positional, so such a header (written by
// the fillers for invalid blocks, e.g. excessBlobGas without blobGasUsed) decodes with the later
// value in the earlier field; its bytes, hash and round trip are still checked, field by field
// comparison is meaningless.
bool has_optional_field_gap(const json& jh) {
    bool absent = false;
    for (const char* key : {"baseFeePerGas", "withdrawalsRoot", "blobGasUsed", "excessBlobGas",
                            "parentBeaconBlockRoot", "requestsHash"}) {
        if (!jh.contains(key)) {
            absent = true;
        } else if (absent) {
            return true;
        }
    }
    return false;
}

// One transaction, no logs: the receipts root is that of [status, gasUsed, zero bloom, []].
// Only from Byzantium (EIP-658): before it a receipt holds the post-transaction state root,
// which a decoding test cannot know.
bool check_single_receipt_root(const Block& b, Fork fork) {
    if (fork < Fork::byzantium) return false;
    if (b.body.transactions.size() != 1 || !b.header.logs_bloom.is_zero()) return false;
    Receipt r;
    r.type = b.body.transactions[0].type();
    r.cumulative_gas_used = b.header.gas_used;
    r.success = true;
    const Hash32 ok = receipts_root(std::span<const Receipt>(&r, 1));
    r.success = false;
    const Hash32 failed = receipts_root(std::span<const Receipt>(&r, 1));
    EXPECT_TRUE(ok == b.header.receipts_root || failed == b.header.receipts_root)
        << "receipts root " << hex_of(b.header.receipts_root.view());
    return true;
}

TEST(BlockSpec, BlockchainTests) {
    const auto dir = testutil::vectors_dir("evm") / "blockchain_tests";
    BlockCounts n;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
        ++n.files;
        const json suite = testutil::load_json(entry.path());
        for (const auto& [name, tc] : suite.items()) {
            SCOPED_TRACE(entry.path().filename().string() + ": " + name);
            ++n.tests;
            const std::string network = str(tc, "network");
            // The BPO networks are built from each test's blobSchedule (keel evm blocktest);
            // they all start at Osaka or later, which is all this test needs to know of them.
            const auto config = test_network(network);
            const bool bpo = network.find("BPO") != std::string::npos;
            ASSERT_TRUE(config || bpo) << "unknown network " << network;

            // The genesis block: [header, [], [], (withdrawals)]. Older-format tests give only
            // its header object (keel evm blocktest builds and hashes it from that): no bytes to
            // decode here.
            if (tc.contains("genesisRLP")) {
                const Bytes genesis = testutil::from_hex(str(tc, "genesisRLP"));
                auto g = decode_block(genesis);
                ASSERT_TRUE(g) << "genesis: " << to_string(g.error());
                EXPECT_EQ(hex_of(g->hash().view()), str(tc.at("genesisBlockHeader"), "hash"));
                expect_header_matches(g->header, tc.at("genesisBlockHeader"));
                check_decoded(*g, genesis);
                check_roots(*g);
                ++n.genesis;
            }

            std::size_t index = 0;
            for (const json& jb : tc.at("blocks")) {
                SCOPED_TRACE("block " + std::to_string(index++));
                const Bytes in = testutil::from_hex(str(jb, "rlp"));
                auto b = decode_block(in);
                // Invalid: an expectException key, or in the older (retesteth) format a per-fork
                // expectException<Fork> key or no blockHeader at all (a block no client takes).
                bool invalid = !jb.contains("blockHeader");
                for (const auto& [key, value] : jb.items()) {
                    if (key.starts_with("expectException")) invalid = true;
                }
                if (invalid) {
                    // Invalid for some rule, possibly a structural one: decoding may fail. When
                    // it decodes, it still round-trips and hashes as the fixture says.
                    if (!b) {
                        ++n.invalid_rejected;
                        continue;
                    }
                    ++n.invalid_decoded;
                    check_decoded(*b, in);
                    if (jb.contains("rlp_decoded")) {
                        const json& jh = jb.at("rlp_decoded").at("blockHeader");
                        EXPECT_EQ(hex_of(b->hash().view()), str(jh, "hash"));
                        if (!has_optional_field_gap(jh)) expect_header_matches(b->header, jh);
                    }
                    continue;
                }
                ASSERT_TRUE(b) << to_string(b.error());
                const json& jh = jb.at("blockHeader");
                EXPECT_EQ(hex_of(b->hash().view()), str(jh, "hash"));
                expect_header_matches(b->header, jh);
                check_decoded(*b, in);
                check_roots(*b);

                EXPECT_EQ(b->body.transactions.size(), jb.at("transactions").size());
                for (std::size_t i = 0; i < b->body.transactions.size(); ++i) {
                    const Transaction& tx = b->body.transactions[i];
                    const json& jt = jb.at("transactions").at(i);
                    // The older (retesteth) format writes no type for a legacy transaction.
                    EXPECT_EQ(static_cast<std::uint64_t>(tx.type()),
                              jt.contains("type") ? u64_of(jt, "type") : 0);
                    EXPECT_EQ(tx.nonce(), u64_of(jt, "nonce"));
                    EXPECT_EQ(tx.gas_limit(), u64_of(jt, "gasLimit"));
                }
                n.transactions += b->body.transactions.size();

                const json& jw = jb.contains("withdrawals") ? jb.at("withdrawals") : json::array();
                const std::size_t nw = b->body.withdrawals ? b->body.withdrawals->size() : 0;
                EXPECT_EQ(nw, jw.size());
                for (std::size_t i = 0; i < nw && i < jw.size(); ++i) {
                    const Withdrawal& w = (*b->body.withdrawals)[i];
                    EXPECT_EQ(w.index, u64_of(jw[i], "index"));
                    EXPECT_EQ(w.validator_index, u64_of(jw[i], "validatorIndex"));
                    EXPECT_EQ(hex_of(w.address.view()), str(jw[i], "address"));
                    EXPECT_EQ(w.amount_gwei, u64_of(jw[i], "amount"));
                }
                n.withdrawals += nw;
                const Fork fork =
                    config ? config->fork_at(b->header.number, b->header.timestamp) : Fork::osaka;
                if (check_single_receipt_root(*b, fork)) ++n.receipts_roots;
                if (b->body.transactions.empty()) {
                    EXPECT_EQ(b->header.receipts_root, trie::kEmptyRoot);
                    ++n.receipts_roots;
                }
                ++n.blocks_checked;
            }
        }
    }
    std::cout << "[ block spec ] blockchain_tests: " << n.files << " files, " << n.tests
              << " tests, " << n.genesis << " genesis blocks, " << n.blocks_checked
              << " valid blocks checked (" << n.transactions << " transactions, " << n.withdrawals
              << " withdrawals, " << n.receipts_roots
              << " receipts roots), invalid blocks: " << n.invalid_decoded << " decoded, "
              << n.invalid_rejected << " rejected\n";
    EXPECT_GT(n.files, 0u);
    EXPECT_GT(n.blocks_checked, 0u);
    EXPECT_GT(n.withdrawals, 0u);
    EXPECT_GT(n.receipts_roots, 0u);
}

// The hive "rpc-compat" chain of the execution-apis conformance tests: blocks 1..N in one file,
// from Homestead through the Merge, Shanghai, Cancun, Prague and Osaka (every header shape),
// whose head hash is given by headfcu.json.
TEST(BlockSpec, HiveChainFile) {
    const auto dir =
        testutil::vectors_dir("evm") / "traces" / "rpc_structlog_execution_apis" / "tests";
    const Bytes chain = testutil::read_file(dir / "chain.rlp");
    const json fcu = testutil::load_json(dir / "headfcu.json");
    const std::string head = str(fcu.at("params").at(0), "headBlockHash");

    std::size_t blocks = 0, txs = 0, withdrawals = 0;
    std::size_t shapes[7] = {};  // blocks by number of optional header fields
    std::size_t types[5] = {};   // transactions by type
    std::optional<Hash32> parent;
    Hash32 last;
    std::size_t pos = 0;
    while (pos < chain.size()) {
        SCOPED_TRACE("block at offset " + std::to_string(pos));
        auto item = rlp::decode_header(BytesView(chain).subspan(pos), pos);
        ASSERT_TRUE(item) << to_string(item.error());
        const BytesView in = BytesView(chain).subspan(pos, item->size());
        auto b = decode_block(in, pos);
        ASSERT_TRUE(b) << to_string(b.error());
        check_decoded(*b, in);
        check_roots(*b);
        if (parent) {
            EXPECT_EQ(b->header.parent_hash, *parent);
        }
        EXPECT_EQ(b->header.number, blocks + 1);
        last = b->hash();
        parent = last;
        ++shapes[b->header.optional_field_count()];
        for (const Transaction& tx : b->body.transactions) ++types[static_cast<int>(tx.type())];
        txs += b->body.transactions.size();
        withdrawals += b->body.withdrawals ? b->body.withdrawals->size() : 0;
        ++blocks;
        pos += item->size();
    }
    EXPECT_EQ(hex_of(last.view()), head);
    std::cout << "[ block spec ] hive chain.rlp: " << blocks << " blocks (by optional header "
              << "fields 0-6: " << shapes[0] << " " << shapes[1] << " " << shapes[2] << " "
              << shapes[3] << " " << shapes[4] << " " << shapes[5] << " " << shapes[6] << "), "
              << txs << " transactions (types 0-4: " << types[0] << " " << types[1] << " "
              << types[2] << " " << types[3] << " " << types[4] << "), " << withdrawals
              << " withdrawals\n";
    EXPECT_GT(blocks, 0u);
    EXPECT_GT(txs, 0u);
}

// ---- era1: read with keel::store::Era1 (snappy framing with CRC-32C on libsnappy) -------------

// Every block's decompressed header, body and receipts, in order.
std::vector<store::Era1RawBlock> read_era1(const std::filesystem::path& path) {
    const Bytes file = testutil::read_file(path);
    auto era = store::Era1::open(file);
    if (!era) throw std::runtime_error(store::to_string(era.error()));
    std::vector<store::Era1RawBlock> blocks(era->count());
    for (std::size_t i = 0; i < era->count(); ++i) {
        if (auto r = era->raw_block(i, blocks[i]); !r) {
            throw std::runtime_error(store::to_string(r.error()));
        }
    }
    return blocks;
}

TEST(BlockSpec, Era1SepoliaBlocks) {
    const auto dir = testutil::vectors_dir("era1");
    const json expected = testutil::load_json(dir / "expected.json");
    std::size_t files = 0, blocks = 0, txs = 0, ommers = 0, receipts = 0, logs = 0, typed = 0;
    for (const json& jf : expected.at("files")) {
        const std::string file = str(jf, "file");
        SCOPED_TRACE(file);
        const std::vector<store::Era1RawBlock> era = read_era1(dir / file);
        ASSERT_EQ(era.size(), jf.at("count").get<std::size_t>());
        ++files;
        std::optional<Hash32> parent;
        trie::RootBuilder builder;
        for (std::size_t i = 0; i < era.size(); ++i) {
            const store::Era1RawBlock& e = era[i];
            const std::uint64_t number = jf.at("startBlock").get<std::uint64_t>() + i;
            SCOPED_TRACE("block " + std::to_string(number));

            auto h = decode_header(e.header);
            ASSERT_TRUE(h) << to_string(h.error());
            EXPECT_EQ(h->number, number);
            EXPECT_EQ(hex::encode(encode(*h)), hex::encode(e.header));
            const Hash32 hash = h->hash();
            EXPECT_EQ(hash, crypto::keccak256(e.header));
            if (parent) {
                EXPECT_EQ(h->parent_hash, *parent);
            }
            parent = hash;
            if (i == 0) {
                EXPECT_EQ(hex_of(hash.view()), str(jf.at("firstBlock"), "hash"));
            }
            if (i + 1 == era.size()) {
                EXPECT_EQ(hex_of(hash.view()), str(jf.at("lastBlock"), "hash"));
            }

            auto body = decode_body(e.body);
            ASSERT_TRUE(body) << to_string(body.error());
            EXPECT_EQ(hex::encode(encode(*body)), hex::encode(e.body));
            EXPECT_EQ(transactions_root(body->transactions, builder), h->transactions_root);
            EXPECT_EQ(ommers_hash(body->ommers), h->ommers_hash);
            EXPECT_FALSE(body->withdrawals.has_value());
            for (const Header& o : body->ommers) EXPECT_LT(o.number, number);
            txs += body->transactions.size();
            ommers += body->ommers.size();
            for (const Transaction& tx : body->transactions) typed += tx.type() != TxType::legacy;

            // Receipts: a list of consensus receipts (typed ones as strings).
            auto list = rlp::open_list(e.receipts);
            ASSERT_TRUE(list) << to_string(list.error());
            std::vector<Receipt> rs;
            rlp::Encoder again;
            while (!list->empty()) {
                const auto item = list->next().value();
                auto r = decode_receipt_item(item.encoded(), item.offset);
                ASSERT_TRUE(r) << to_string(r.error());
                EXPECT_EQ(r->logs_bloom, logs_bloom(r->logs));
                logs += r->logs.size();
                rs.push_back(std::move(*r));
            }
            ASSERT_EQ(rs.size(), body->transactions.size());
            Bloom all;
            std::size_t payload = 0;
            for (std::size_t k = 0; k < rs.size(); ++k) {
                EXPECT_EQ(rs[k].type, body->transactions[k].type());
                for (std::size_t j = 0; j < 256; ++j) all[j] |= rs[k].logs_bloom[j];
                payload +=
                    (rs[k].type == TxType::legacy ? 0 : rlp::header_length(encoded_size(rs[k]))) +
                    encoded_size(rs[k]);
            }
            again.add_list_header(payload);
            for (const Receipt& r : rs) encode_item(r, again);
            EXPECT_EQ(hex::encode(again.view()), hex::encode(e.receipts));
            EXPECT_EQ(receipts_root(rs, builder), h->receipts_root);
            EXPECT_EQ(all, h->logs_bloom);
            receipts += rs.size();
            ++blocks;
        }
    }
    std::cout << "[ block spec ] era1: " << files << " files, " << blocks << " blocks, " << txs
              << " transactions (" << typed << " typed), " << ommers << " ommers, " << receipts
              << " receipts, " << logs << " logs\n";
    EXPECT_EQ(files, 2u);
    EXPECT_EQ(blocks, 16384u);
    EXPECT_EQ(txs, 93u);
    EXPECT_EQ(receipts, 93u);
    EXPECT_GT(ommers, 0u);
}

}  // namespace
}  // namespace keel::eth
