#include "apps/keel/blocktest.hpp"

#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "apps/keel/fixture_json.hpp"
#include "apps/keel/input.hpp"
#include "keel/chain/execute.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/block.hpp"
#include "keel/state/memory_state.hpp"

namespace keel::cli {

namespace {

using namespace fixture;

/// A block keel accepted, and the state after it.
struct Node {
    eth::Header header;
    std::shared_ptr<const state::MemoryState> state;
};

using Chain = std::unordered_map<Hash32, Node>;

/// The chain config of a test: its network, chain id and blob schedule.
eth::ChainConfig config_of(const json& t, const BlockTestOptions& options,
                           const std::string& where) {
    const std::string network = text(field(t, "network", where), where + " network");
    std::uint64_t chain_id = 1;
    const json* cfg = t.contains("config") ? &t.at("config") : nullptr;
    if (cfg && cfg->contains("chainid"))
        chain_id = u64(cfg->at("chainid"), where + " config.chainid");
    auto config = eth::test_network(network, chain_id);
    if (!config)
        bad(where,
            "network " + printable(network) + " is not a fork or a fork transition keel knows");
    if (options.devnet_system_contracts) {
        const eth::SystemContracts early = eth::SystemContracts::devnet5();
        bool uses_early = false;
        for (const char* part : {"pre", "postState"}) {
            if (!t.contains(part) || !t.at(part).is_object()) continue;
            for (const auto& [address, acc] : t.at(part).items()) {
                const auto a = hex::decode_fixed<Address>(address);
                const bool has_code =
                    acc.contains("code") && acc.at("code") != "0x" && acc.at("code") != "";
                if (a && has_code &&
                    (*a == early.history_storage || *a == early.withdrawal_requests ||
                     *a == early.consolidation_requests))
                    uses_early = true;
            }
        }
        config->system_contracts = uses_early ? early : eth::SystemContracts::devnet6();
    }
    if (cfg && cfg->contains("blobSchedule")) {
        for (const auto& [fork_name, p] : cfg->at("blobSchedule").items()) {
            const std::string w = where + " config.blobSchedule." + printable(fork_name);
            const auto fork = eth::parse_fork(fork_name);
            if (!fork) continue;  // a blob-parameter-only fork keel does not schedule from a test
            config->set_blob_params(*fork, blob_params_of(p, w));
        }
    }
    return *config;
}

/// The first account where `got` and `want` differ, in words.
std::string first_difference(const state::MemoryState& got, const state::MemoryState& want) {
    const auto& g = got.accounts();
    const auto& w = want.accounts();
    for (const auto& [address, stored] : w) {
        const std::string a = hex::encode_prefixed(address.view());
        const auto it = g.find(address);
        if (it == g.end()) return "account " + a + " missing";
        const auto& mine = it->second;
        if (mine.account.nonce != stored.account.nonce)
            return "account " + a + " nonce " + std::to_string(mine.account.nonce) + ", want " +
                   std::to_string(stored.account.nonce);
        if (mine.account.balance != stored.account.balance)
            return "account " + a + " balance " + mine.account.balance.to_dec() + ", want " +
                   stored.account.balance.to_dec();
        if (mine.account.code_hash != stored.account.code_hash)
            return "account " + a + " code differs";
        for (const auto& [k, v] : stored.storage) {
            const auto s = mine.storage.find(k);
            const Uint256 have = s == mine.storage.end() ? Uint256{} : s->second;
            if (have != v)
                return "account " + a + " slot " + k.to_hex() + " = " + have.to_hex() + ", want " +
                       v.to_hex();
        }
        for (const auto& [k, v] : mine.storage)
            if (!stored.storage.contains(k))
                return "account " + a + " slot " + k.to_hex() + " = " + v.to_hex() + ", want 0x0";
    }
    for (const auto& [address, stored] : g)
        if (!w.contains(address))
            return "account " + hex::encode_prefixed(address.view()) + " should not exist";
    return "state differs";
}

void run_one(const std::string& name, const json& t, const BlockTestOptions& options,
             BlockTestCase& c) {
    const std::string where = printable(c.file) + " " + printable(name);
    const eth::ChainConfig config = config_of(t, options, where);

    // Genesis: its block, its hash, and the pre-state it commits to.
    const Bytes genesis_rlp = bytes_of(field(t, "genesisRLP", where), where + " genesisRLP");
    const auto genesis = eth::decode_block(genesis_rlp);
    if (!genesis) bad(where, "genesisRLP: " + eth::to_string(genesis.error()));
    auto pre =
        std::make_shared<state::MemoryState>(accounts(field(t, "pre", where), where + " pre"));
    const Hash32 genesis_hash = genesis->hash();
    if (const Hash32 root = pre->state_root(); root != genesis->header.state_root) {
        c.error = "genesis: pre-state root " + hex32(root) + ", header has " +
                  hex32(genesis->header.state_root);
        return;
    }
    Chain chain;
    chain.emplace(genesis_hash, Node{genesis->header, pre});
    Hash32 head = genesis_hash;

    std::size_t index = 0;
    for (const json& b : field(t, "blocks", where)) {
        const std::string w = "block " + std::to_string(index++);
        const bool expect_invalid = b.contains("expectException");
        const std::string expected =
            expect_invalid ? b.at("expectException").get<std::string>() : std::string();
        const Bytes rlp = bytes_of(field(b, "rlp", where + " " + w), where + " " + w + " rlp");
        std::string refusal, refused_as;
        const auto block = eth::decode_block(rlp);
        const Node* parent = nullptr;
        if (!block) {
            refusal = "rlp: " + eth::to_string(block.error());
            refused_as = "BlockException.RLP_STRUCTURES_ENCODING";
        } else if (const auto p = chain.find(block->header.parent_hash); p == chain.end()) {
            refusal = "unknown parent " + hex32(block->header.parent_hash);
            refused_as = "BlockException.UNKNOWN_PARENT";
        } else {
            parent = &p->second;
        }
        std::shared_ptr<state::MemoryState> post;
        if (parent != nullptr) {
            // BLOCKHASH: up the parent links; `h` is always the hash of `at`.
            const auto hashes = [&chain, parent,
                                 first = block->header.parent_hash](std::uint64_t n) {
                Hash32 h = first;
                const Node* at = parent;
                while (at != nullptr && at->header.number > n) {
                    h = at->header.parent_hash;
                    const auto up = chain.find(h);
                    at = up == chain.end() ? nullptr : &up->second;
                }
                return at != nullptr && at->header.number == n ? h : Hash32{};
            };
            const auto root_of = [&](std::span<const state::AccountChange> changes) {
                post = std::make_shared<state::MemoryState>(*parent->state);
                post->apply(changes);
                return post->state_root();
            };
            auto r = chain::execute_block(*block, parent->header, config, *parent->state, hashes,
                                          root_of, nullptr, rlp.size());
            if (!r) {
                refusal = chain::to_string(r.error());
                refused_as = chain::exception_name(r.error());
            }
        }
        if (!refusal.empty()) {
            if (expect_invalid) {
                // Refused for the expected reason: the fixture lists one name or several
                // alternatives separated by '|'.
                bool named = false;
                std::string_view rest = expected;
                while (!named && !rest.empty()) {
                    const auto bar = rest.find('|');
                    named = rest.substr(0, bar) == refused_as;
                    rest =
                        bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
                }
                if (!named) {
                    c.error =
                        w + " refused as " + refused_as + " (" + refusal + "), want " + expected;
                    return;
                }
                ++c.refused;
                continue;
            }
            c.error = w + " refused: " + refusal + " [" + refused_as + "]";
            return;
        }
        if (expect_invalid) {
            c.error = w + " accepted, want " + expected;
            return;
        }
        const Hash32 hash = block->hash();
        if (b.contains("blockHeader") && b.at("blockHeader").contains("hash")) {
            const Hash32 want =
                fixed_of<Hash32>(b.at("blockHeader").at("hash"), where + " " + w + " hash");
            if (want != hash) {
                c.error = w + ": hash " + hex32(hash) + ", fixture has " + hex32(want);
                return;
            }
        }
        chain.insert_or_assign(hash, Node{block->header, std::move(post)});
        head = hash;
        ++c.blocks;
    }

    c.head = hex32(head);
    const Hash32 want_head =
        fixed_of<Hash32>(field(t, "lastblockhash", where), where + " lastblockhash");
    if (head != want_head) {
        c.error = "head " + c.head + ", want " + hex32(want_head);
        return;
    }
    const state::MemoryState& final_state = *chain.at(head).state;
    if (t.contains("postState")) {
        const state::MemoryState want = accounts(t.at("postState"), where + " postState");
        if (final_state.state_root() != want.state_root()) {
            c.error = "post state: " + first_difference(final_state, want);
            return;
        }
    } else {
        const Hash32 want =
            fixed_of<Hash32>(field(t, "postStateHash", where), where + " postStateHash");
        if (const Hash32 root = final_state.state_root(); root != want) {
            c.error = "post state root " + hex32(root) + ", want " + hex32(want);
            return;
        }
    }
    c.pass = true;
}

}  // namespace

void run_block_test_file(const std::filesystem::path& path, const BlockTestOptions& options,
                         const std::function<void(const BlockTestCase&)>& report) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Failure{kExitUsage, path.string() + ": cannot read"};
    std::stringstream contents;
    contents << in.rdbuf();
    const json file = parse_json(contents.str(), path.string());
    if (!file.is_object()) bad(path.string(), "not a blockchain test fixture (an object of tests)");
    for (const auto& [name, t] : file.items()) {
        if (options.run && !options.run->search(name)) continue;
        BlockTestCase c;
        c.file = path.filename().string();
        c.name = name;
        const std::string where = printable(c.file) + " " + printable(name);
        try {
            c.network = text(field(t, "network", where), where + " network");
            run_one(name, t, options, c);
        } catch (const json::exception& e) {
            // A value of the wrong JSON type in a field the helpers do not read: the library's
            // words without its prefix, named by file and test, on one line.
            std::string what = e.what();
            if (const auto p = what.find("] "); p != std::string::npos) what.erase(0, p + 2);
            bad(where, printable(what));
        }
        report(c);
    }
}

}  // namespace keel::cli
