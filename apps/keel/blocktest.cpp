#include "apps/keel/blocktest.hpp"

#include <stdlib.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string_view>
#include <vector>

#include "apps/keel/fixture_json.hpp"
#include "apps/keel/input.hpp"
#include "keel/blockchain/chain.hpp"
#include "keel/blockchain/init.hpp"
#include "keel/chain/block_tree.hpp"
#include "keel/chain/errors.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/common/hex.hpp"
#include "keel/eth/block.hpp"
#include "keel/rpc/dispatcher.hpp"
#include "keel/rpc/engine.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/store/state_store.hpp"

namespace keel::cli {

namespace {

using namespace fixture;

/// One blob-parameter-only fork's parameters (EIP-7892) from the test's `blobSchedule`.
eth::BlobParams bpo_params(const json* cfg, int n, const std::string& where) {
    const std::string name = "BPO" + std::to_string(n);
    const std::string w = where + " config.blobSchedule." + name;
    if (cfg == nullptr || !cfg->contains("blobSchedule") || !cfg->at("blobSchedule").contains(name))
        bad(where, "network needs config.blobSchedule." + name);
    return blob_params_of(cfg->at("blobSchedule").at(name), w);
}

/// The blob-parameter-only fork networks of execution-spec-tests: "BPO<n>" (Osaka with BPO<n>'s
/// blob parameters from genesis) and "<Osaka|BPO<m>>ToBPO<n>AtTime<T>" (BPO<n>'s from time T).
/// Their parameters come from the test's blobSchedule (BPO3 and BPO4 exist only in tests).
std::optional<eth::ChainConfig> bpo_network(const std::string& network, std::uint64_t chain_id,
                                            const json* cfg, const std::string& where) {
    static const std::regex kBpo(
        R"((?:(Osaka|BPO([1-9]))To)?BPO([1-9])(?:AtTime([0-9]{1,15})(k?))?)");
    // A short name only: std::regex recurses per character, and the time has at most 15
    // digits (std::stoull below cannot overflow).
    std::smatch m;
    if (network.size() > 40 || !std::regex_match(network, m, kBpo)) return std::nullopt;
    const bool transition = m[4].matched;
    if (transition != (m[1].matched)) return std::nullopt;
    eth::ChainConfig c = eth::ChainConfig::from_genesis(eth::Fork::osaka, chain_id);
    if (m[2].matched) c.add_blob_schedule(0, bpo_params(cfg, std::stoi(m[2].str()), where));
    std::uint64_t at = 0;
    if (transition) {
        at = std::stoull(m[4].str()) * (m[5].length() != 0 ? 1000 : 1);
        if (m[2].matched && std::stoi(m[2].str()) >= std::stoi(m[3].str())) return std::nullopt;
    }
    c.add_blob_schedule(at, bpo_params(cfg, std::stoi(m[3].str()), where));
    return c;
}

/// The chain config of a test: its network, chain id and blob schedule.
eth::ChainConfig config_of(const json& t, const BlockTestOptions& options,
                           const std::string& where) {
    const std::string network = field(t, "network", where).get<std::string>();
    std::uint64_t chain_id = 1;
    const json* cfg = t.contains("config") ? &t.at("config") : nullptr;
    if (cfg && cfg->contains("chainid"))
        chain_id = u64(cfg->at("chainid"), where + " config.chainid");
    auto config = eth::test_network(network, chain_id);
    if (!config) config = bpo_network(network, chain_id, cfg, where);
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
            if (!fork) continue;  // a blob-parameter-only fork: bpo_network() reads those
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

/// A header from a fixture's JSON (`genesisBlockHeader` of the tests that carry no
/// `genesisRLP`: ethereum/tests' older format). Its `hash` must be the header's.
eth::Header header_of(const json& j, const std::string& where) {
    const auto h32 = [&](const char* key) {
        return fixed_of<Hash32>(field(j, key, where), where + " " + key);
    };
    eth::Header h;
    h.parent_hash = h32("parentHash");
    h.ommers_hash = h32("uncleHash");
    h.beneficiary = fixed_of<Address>(field(j, "coinbase", where), where + " coinbase");
    h.state_root = h32("stateRoot");
    h.transactions_root = h32("transactionsTrie");
    h.receipts_root = h32("receiptTrie");
    h.logs_bloom = fixed_of<Bloom>(field(j, "bloom", where), where + " bloom");
    h.difficulty = number(field(j, "difficulty", where), where + " difficulty");
    h.number = u64(field(j, "number", where), where + " number");
    h.gas_limit = u64(field(j, "gasLimit", where), where + " gasLimit");
    h.gas_used = u64(field(j, "gasUsed", where), where + " gasUsed");
    h.timestamp = u64(field(j, "timestamp", where), where + " timestamp");
    h.extra_data = bytes_of(field(j, "extraData", where), where + " extraData");
    h.mix_hash = h32("mixHash");
    h.nonce = fixed_of<eth::Nonce8>(field(j, "nonce", where), where + " nonce");
    // The optional fields, a prefix of them (header.hpp).
    if (!j.contains("baseFeePerGas")) return h;
    h.base_fee_per_gas = number(j.at("baseFeePerGas"), where + " baseFeePerGas");
    if (!j.contains("withdrawalsRoot")) return h;
    h.withdrawals_root = h32("withdrawalsRoot");
    if (!j.contains("blobGasUsed")) return h;
    h.blob_gas_used = u64(j.at("blobGasUsed"), where + " blobGasUsed");
    h.excess_blob_gas = u64(field(j, "excessBlobGas", where), where + " excessBlobGas");
    h.parent_beacon_block_root = h32("parentBeaconBlockRoot");
    if (!j.contains("requestsHash")) return h;
    h.requests_hash = h32("requestsHash");
    return h;
}

// ethereum/tests' (retesteth's) names for the rules keel names as execution-spec-tests does
// (chain::exception_name()): a fixture's retesteth name matches any of its EEST names here.
struct RetestethName {
    std::string_view retesteth;
    std::string_view eest;
};
constexpr RetestethName kRetestethNames[] = {
    {"InvalidStateRoot", "BlockException.INVALID_STATE_ROOT"},
    {"InvalidReceiptsStateRoot", "BlockException.INVALID_RECEIPTS_ROOT"},
    // Before Byzantium a receipt commits to the state root after its transaction, so a wrong
    // state (wrongCoinbase) breaks both roots; execution-specs checks the state root first.
    {"InvalidReceiptsStateRoot", "BlockException.INVALID_STATE_ROOT"},
    {"InvalidTransactionsRoot", "BlockException.INVALID_TRANSACTIONS_ROOT"},
    {"InvalidLogBloom", "BlockException.INVALID_LOG_BLOOM"},
    {"InvalidGasUsed", "BlockException.INVALID_GAS_USED"},
    {"InvalidGasUsed", "BlockException.GAS_USED_OVERFLOW"},
    {"TooMuchGasUsed", "BlockException.GAS_USED_OVERFLOW"},
    {"InvalidNumber", "BlockException.INVALID_BLOCK_NUMBER"},
    {"InvalidTimestamp", "BlockException.INVALID_BLOCK_TIMESTAMP_OLDER_THAN_PARENT"},
    {"InvalidTimestampOlderParent", "BlockException.INVALID_BLOCK_TIMESTAMP_OLDER_THAN_PARENT"},
    {"ExtraDataTooBig", "BlockException.EXTRA_DATA_TOO_BIG"},
    {"ExtraDataIncorrectDAO", "BlockException.EXTRA_DATA_INVALID_DAO"},
    {"InvalidGasLimit", "BlockException.INVALID_GASLIMIT"},
    {"InvalidGasLimit", "BlockException.GASLIMIT_TOO_BIG"},
    {"InvalidGasLimit2", "BlockException.INVALID_GASLIMIT"},
    // retesteth (geth) checks the gas limit's bounds before two rules execution-specs checks
    // first, and the blocks break both: gas used above the limit (GasLimitIsZero: limit 0,
    // gas used 22,027; validate_header() tests gas used first) and a London header before
    // London (BerlinToLondonTransition block 4: it does not decode as a Berlin header).
    {"InvalidGasLimit2", "BlockException.GAS_USED_OVERFLOW"},
    {"InvalidGasLimit2", "BlockException.INCORRECT_BLOCK_FORMAT"},
    {"InvalidDifficulty", "BlockException.INVALID_DIFFICULTY"},
    // A proof-of-work difficulty once the terminal total difficulty is reached
    // (difficultyFormula_ArrowGlacierToParisAtDiffC0000): Paris's rule, difficulty 0.
    {"InvalidDifficulty", "BlockException.IMPORT_IMPOSSIBLE_DIFFICULTY_OVER_PARIS"},
    {"3675PoSBlockRejected", "BlockException.INVALID_DIFFICULTY"},
    {"3675PoWBlockRejected", "BlockException.IMPORT_IMPOSSIBLE_DIFFICULTY_OVER_PARIS"},
    {"3675PreParis1559BlockRejected", "BlockException.IMPORT_IMPOSSIBLE_DIFFICULTY_OVER_PARIS"},
    {"3675PreParis1559BlockRejected", "BlockException.IMPORT_IMPOSSIBLE_UNCLES_OVER_PARIS"},
    {"PostParisDifficultyIsNot0", "BlockException.IMPORT_IMPOSSIBLE_DIFFICULTY_OVER_PARIS"},
    {"PostParisUncleHashIsNotEmpty", "BlockException.IMPORT_IMPOSSIBLE_UNCLES_OVER_PARIS"},
    {"InvalidUnclesHash", "BlockException.INVALID_UNCLES_HASH"},
    {"InvalidUncleParentHash", "BlockException.UNCLE_PARENT_INCORRECT"},
    {"UncleParentIsNotAncestor", "BlockException.UNCLE_PARENT_INCORRECT"},
    {"UncleInChain", "BlockException.UNCLE_IN_CHAIN"},
    {"UncleInChain", "BlockException.UNCLE_IS_ANCESTOR"},
    {"UncleIsBrother", "BlockException.UNCLE_IS_BROTHER"},
    {"UnknownParent", "BlockException.UNKNOWN_PARENT"},
    {"UnknownParent2", "BlockException.UNKNOWN_PARENT"},
    {"INPUT_UNMARSHAL_ERROR", "BlockException.RLP_STRUCTURES_ENCODING"},
    {"INPUT_UNMARSHAL_ADDRESS_ERROR", "BlockException.RLP_STRUCTURES_ENCODING"},
    {"RLP_ExpectedAsList", "BlockException.RLP_STRUCTURES_ENCODING"},
    // A Shanghai block whose body has no withdrawals list (shanghaiWithoutWithdrawalsRLP).
    {"RLP_ExpectedAsList", "BlockException.INCORRECT_BLOCK_FORMAT"},
    {"InvalidWithdrawals", "BlockException.INVALID_WITHDRAWALS_ROOT"},
    {"1559BlockImportImpossible_BaseFeeWrong", "BlockException.INVALID_BASEFEE_PER_GAS"},
    {"1559BlockImportImpossible_HeaderIsLegacy", "BlockException.INCORRECT_BLOCK_FORMAT"},
    {"LegacyBlockImportImpossible", "BlockException.INCORRECT_BLOCK_FORMAT"},
    {"LegacyBlockImportImpossible2", "BlockException.INCORRECT_BLOCK_FORMAT"},
    {"ParisBlockImportImpossible", "BlockException.INCORRECT_BLOCK_FORMAT"},
    {"ShanghaiBlockImportImpossible", "BlockException.INCORRECT_BLOCK_FORMAT"},
    {"BlockGasLimitReached", "TransactionException.GAS_ALLOWANCE_EXCEEDED"},
    {"TR_GasLimitReached", "TransactionException.GAS_ALLOWANCE_EXCEEDED"},
    {"TR_IntrinsicGas", "TransactionException.INTRINSIC_GAS_TOO_LOW"},
    {"TR_NoFunds", "TransactionException.INSUFFICIENT_ACCOUNT_FUNDS"},
    {"TR_TipGtFeeCap", "TransactionException.PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS"},
    {"TR_FeeCapLessThanBlocks", "TransactionException.INSUFFICIENT_MAX_FEE_PER_GAS"},
    {"TR_TypeNotSupported", "TransactionException.TYPE_1_TX_PRE_FORK"},
    {"TR_TypeNotSupported", "TransactionException.TYPE_2_TX_PRE_FORK"},
    {"TR_TypeNotSupported", "TransactionException.TYPE_3_TX_PRE_FORK"},
    {"TR_TypeNotSupported", "TransactionException.TYPE_4_TX_PRE_FORK"},
};

/// Whether `refused_as` (keel's name) is one of `expected`'s alternatives ("A|B"), by its EEST
/// name or a retesteth name for it.
bool names_match(std::string_view expected, std::string_view refused_as) {
    while (!expected.empty()) {
        const auto bar = expected.find('|');
        const std::string_view want = expected.substr(0, bar);
        if (want == refused_as) return true;
        for (const RetestethName& n : kRetestethNames)
            if (n.retesteth == want && n.eest == refused_as) return true;
        expected = bar == std::string_view::npos ? std::string_view{} : expected.substr(bar + 1);
    }
    return false;
}

/// What the fixture expects of a block: valid, or refused (for one of the named reasons, or
/// for any when it names none).
struct Expectation {
    bool invalid = false;
    std::string names;  ///< "" with invalid: any reason (older format: no blockHeader)
};

/// `expectException`, or the older format's `expectException<network>` / `expectExceptionALL`;
/// a block without `blockHeader` that names no reason is invalid too (the older format, as
/// geth's runner reads it).
Expectation expectation_of(const json& b, const std::string& network) {
    const std::array<std::string, 3> keys = {"expectException", "expectException" + network,
                                             "expectExceptionALL"};
    for (const std::string& key : keys) {
        if (b.contains(key) && b.at(key).is_string()) return {true, b.at(key).get<std::string>()};
    }
    return {!b.contains("blockHeader"), {}};
}

/// The first account or slot of `want` that `got` (a store's state) reads differently.
std::string first_difference(const state::StateReader& got, const state::MemoryState& want) {
    for (const auto& [address, stored] : want.accounts()) {
        const std::string a = hex::encode_prefixed(address.view());
        const auto mine = got.account(address);
        if (!mine) return "account " + a + " missing";
        if (mine->nonce != stored.account.nonce)
            return "account " + a + " nonce " + std::to_string(mine->nonce) + ", want " +
                   std::to_string(stored.account.nonce);
        if (mine->balance != stored.account.balance)
            return "account " + a + " balance " + mine->balance.to_dec() + ", want " +
                   stored.account.balance.to_dec();
        if (mine->code_hash != stored.account.code_hash) return "account " + a + " code differs";
        for (const auto& [k, v] : stored.storage) {
            const Uint256 have = got.storage(address, k);
            if (have != v)
                return "account " + a + " slot " + k.to_hex() + " = " + have.to_hex() + ", want " +
                       v.to_hex();
        }
        if (mine->storage_root != stored.account.storage_root)
            return "account " + a + " has a slot the fixture does not list";
    }
    return "an account the fixture does not list exists";
}

/// Where a test's blocks go: chain::BlockTree in memory, or (--store) blockchain::Chain on a
/// chain store in a temporary datadir.
class Runner {
  public:
    virtual ~Runner() = default;
    /// The block's hash when accepted; the refusal otherwise. A store failure is thrown.
    virtual Result<Hash32, chain::BlockError> import(const eth::Block& block, std::size_t size) = 0;
    virtual Hash32 head() const = 0;
    /// The head's state root, and the first difference from `want` (when it has accounts).
    virtual Hash32 head_root() const = 0;
    virtual std::string difference(const state::MemoryState& want) const = 0;
};

class TreeRunner final : public Runner {
  public:
    TreeRunner(const eth::ChainConfig& config, const eth::Header& genesis,
               std::shared_ptr<const state::MemoryState> pre)
        : tree_(config, genesis, std::move(pre)) {}
    Result<Hash32, chain::BlockError> import(const eth::Block& block, std::size_t size) override {
        return tree_.import(block, size);
    }
    Hash32 head() const override { return tree_.head().hash; }
    Hash32 head_root() const override { return tree_.head().state->state_root(); }
    std::string difference(const state::MemoryState& want) const override {
        return first_difference(*tree_.head().state, want);
    }

  private:
    chain::BlockTree tree_;
};

/// A fresh directory under the system's temporary folder, removed with its contents at the end.
class ScratchDir {
  public:
    ScratchDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "keel-blocktest-XXXXXX");
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw Failure{kExitBadData, "blocktest --store: cannot make a temporary directory"};
        }
        path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

class StoreRunner final : public Runner {
  public:
    StoreRunner(const std::string& where, const eth::ChainConfig& config,
                const eth::Header& genesis, const state::MemoryState& pre) {
        auto s = store::ChainStore::create(dir_.path() / "db");
        if (!s) throw Failure{kExitBadData, where + ": store: " + s.error().message};
        store_.emplace(std::move(*s));
        const chain::Genesis g{.config = config, .alloc = pre, .header = genesis};
        if (auto r = blockchain::init_store(*store_, g, {}); !r) {
            throw Failure{kExitBadData, where + ": " + r.error()};
        }
        auto c = blockchain::Chain::open(*store_, config);
        if (!c) throw Failure{kExitBadData, where + ": " + c.error()};
        chain_.emplace(std::move(*c));
        where_ = where;
    }
    Result<Hash32, chain::BlockError> import(const eth::Block& block, std::size_t size) override {
        auto r = chain_->insert(block, size);
        if (!r) {
            if (r.error().block) return std::unexpected(std::move(*r.error().block));
            throw Failure{kExitBadData, where_ + ": store: " + r.error().message};
        }
        return block.header.hash();
    }
    Hash32 head() const override { return chain_->head().hash; }
    Hash32 head_root() const override {
        auto h = store::state_head(*store_);
        if (!h || !*h) throw Failure{kExitBadData, where_ + ": store: no state head"};
        return (*h)->state_root;
    }
    std::string difference(const state::MemoryState& want) const override {
        auto view = store::StateView::open(*store_);
        if (!view) return "store: " + view.error().message;
        return first_difference(*view, want);
    }

    store::ChainStore& store() { return *store_; }
    blockchain::Chain& chain() { return *chain_; }

  private:
    ScratchDir dir_;
    std::optional<store::ChainStore> store_;
    std::optional<blockchain::Chain> chain_;
    std::string where_;
};

// An Engine API fixture's payloads (engineNewPayloads), each sent to engine_newPayloadV<n> of an
// rpc::Engine on the store, as a consensus client sends them, and each valid one made the head
// with engine_forkchoiceUpdatedV<m>. What each answers is checked against the fixture: a
// JSON-RPC error of its errorCode, INVALID where it names a validationError, VALID otherwise.
void run_payloads(const json& payloads, StoreRunner& runner, BlockTestCase& c,
                  const std::string& where) {
    rpc::Engine engine(runner.chain(), runner.store(), {});
    rpc::Dispatcher d;
    engine.add_methods(d);
    const auto ask = [&d](const std::string& method, const json& params) {
        std::string out;
        d.handle(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}}.dump(),
                 out);
        return json::parse(out);
    };
    std::size_t index = 0;
    for (const json& p : payloads) {
        const std::string w = "payload " + std::to_string(index++);
        const std::string version = text(field(p, "newPayloadVersion", where), where + " " + w);
        const json answer = ask("engine_newPayloadV" + version, field(p, "params", where));
        if (p.contains("errorCode")) {
            const std::int64_t want =
                std::stoll(p.at("errorCode").is_string() ? p.at("errorCode").get<std::string>()
                                                         : p.at("errorCode").dump());
            if (!answer.contains("error") || answer["error"]["code"] != want) {
                c.error = w + ": want error " + std::to_string(want) + ", got " + answer.dump();
                return;
            }
            ++c.refused;
            continue;
        }
        if (!answer.contains("result")) {
            c.error = w + ": " + answer.dump();
            return;
        }
        const std::string status = answer["result"].value("status", "");
        if (p.contains("validationError")) {
            if (status != "INVALID") {
                c.error =
                    w + ": " + status + ", want INVALID (" + p.at("validationError").dump() + ")";
                return;
            }
            ++c.refused;
            continue;
        }
        if (status != "VALID") {
            c.error = w + ": " + answer["result"].dump() + ", want VALID";
            return;
        }
        const json& payload = p.at("params").at(0);
        const std::string fcu = text(field(p, "forkchoiceUpdatedVersion", where), where + " " + w);
        const std::string zero = "0x" + std::string(64, '0');
        const json state = {{"headBlockHash", payload.at("blockHash")},
                            {"safeBlockHash", zero},
                            {"finalizedBlockHash", zero}};
        const json head = ask("engine_forkchoiceUpdatedV" + fcu, json::array({state, nullptr}));
        if (!head.contains("result") || head["result"]["payloadStatus"]["status"] != "VALID") {
            c.error = w + ": forkchoiceUpdated: " + head.dump();
            return;
        }
        ++c.blocks;
    }
}

void run_one(const std::string& name, const json& t, const BlockTestOptions& options,
             BlockTestCase& c) {
    const std::string where = printable(c.file) + " " + printable(name);
    const eth::ChainConfig config = config_of(t, options, where);

    // Genesis: its block (from genesisRLP, or the older format's genesisBlockHeader), and the
    // pre-state it commits to.
    eth::Header genesis;
    if (t.contains("genesisRLP")) {
        const Bytes genesis_rlp = bytes_of(t.at("genesisRLP"), where + " genesisRLP");
        const auto block = eth::decode_block(genesis_rlp);
        if (!block) bad(where, "genesisRLP: " + eth::to_string(block.error()));
        genesis = block->header;
    } else {
        const std::string w = where + " genesisBlockHeader";
        const json& j = field(t, "genesisBlockHeader", where);
        genesis = header_of(j, w);
        if (j.contains("hash") && fixed_of<Hash32>(j.at("hash"), w + " hash") != genesis.hash())
            bad(w, "hash " + hex32(fixed_of<Hash32>(j.at("hash"), w + " hash")) +
                       " is not the header's, " + hex32(genesis.hash()));
    }
    auto pre =
        std::make_shared<state::MemoryState>(accounts(field(t, "pre", where), where + " pre"));
    if (const Hash32 root = pre->state_root(); root != genesis.state_root) {
        c.error =
            "genesis: pre-state root " + hex32(root) + ", header has " + hex32(genesis.state_root);
        return;
    }
    std::unique_ptr<Runner> runner;
    if (t.contains("engineNewPayloads")) {
        // Engine API fixtures run on the store, through rpc::Engine.
        auto store_runner = std::make_unique<StoreRunner>(where, config, genesis, *pre);
        run_payloads(t.at("engineNewPayloads"), *store_runner, c, where);
        if (!c.error.empty()) return;
        runner = std::move(store_runner);
    } else if (options.store) {
        runner = std::make_unique<StoreRunner>(where, config, genesis, *pre);
    } else {
        runner = std::make_unique<TreeRunner>(config, genesis, std::move(pre));
    }

    std::size_t index = 0;
    static const json kNoBlocks = json::array();
    for (const json& b : t.contains("engineNewPayloads") ? kNoBlocks : field(t, "blocks", where)) {
        const std::string w = "block " + std::to_string(index++);
        const Expectation expect = expectation_of(b, c.network);
        const Bytes rlp = bytes_of(field(b, "rlp", where + " " + w), where + " " + w + " rlp");
        std::string refusal, refused_as;
        const auto block = eth::decode_block(rlp);
        Hash32 hash{};
        if (!block) {
            refusal = "rlp: " + eth::to_string(block.error());
            refused_as = chain::decode_exception_name(block.error());
        } else if (auto r = runner->import(*block, rlp.size()); !r) {
            refusal = chain::to_string(r.error());
            refused_as = chain::exception_name(r.error());
        } else {
            hash = *r;
        }
        if (!refusal.empty()) {
            if (!expect.invalid) {
                c.error = w + " refused: " + refusal + " [" + refused_as + "]";
                return;
            }
            if (!expect.names.empty() && !names_match(expect.names, refused_as)) {
                c.error =
                    w + " refused as " + refused_as + " (" + refusal + "), want " + expect.names;
                return;
            }
            ++c.refused;
            continue;
        }
        if (expect.invalid) {
            c.error = w + " accepted, want " +
                      (expect.names.empty() ? std::string("a refusal") : expect.names);
            return;
        }
        if (b.contains("blockHeader") && b.at("blockHeader").contains("hash")) {
            const Hash32 want =
                fixed_of<Hash32>(b.at("blockHeader").at("hash"), where + " " + w + " hash");
            if (want != hash) {
                c.error = w + ": hash " + hex32(hash) + ", fixture has " + hex32(want);
                return;
            }
        }
        ++c.blocks;
    }

    const Hash32 head = runner->head();
    c.head = hex32(head);
    const Hash32 want_head =
        fixed_of<Hash32>(field(t, "lastblockhash", where), where + " lastblockhash");
    if (head != want_head) {
        c.error = "head " + c.head + ", want " + hex32(want_head);
        return;
    }
    if (t.contains("postState")) {
        const state::MemoryState want = accounts(t.at("postState"), where + " postState");
        if (runner->head_root() != want.state_root()) {
            c.error = "post state: " + runner->difference(want);
            return;
        }
    } else {
        const Hash32 want =
            fixed_of<Hash32>(field(t, "postStateHash", where), where + " postStateHash");
        if (const Hash32 root = runner->head_root(); root != want) {
            c.error = "post state root " + hex32(root) + ", want " + hex32(want);
            return;
        }
    }
    c.pass = true;
}

}  // namespace

void run_block_test_file(const std::filesystem::path& path, const BlockTestOptions& options,
                         const std::function<void(const BlockTestCase&)>& report) {
    // A file that cannot be read or is not a fixture is one failed case; a test whose fields
    // are bad is a failed case too: the run goes on with the next.
    json file;
    try {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw Failure{kExitUsage, path.string() + ": cannot read"};
        std::stringstream text;
        text << in.rdbuf();
        file = parse_json(text.str(), path.string());
        if (!file.is_object())
            bad(path.string(), "not a blockchain test fixture (an object of tests)");
    } catch (const Failure& f) {
        BlockTestCase c;
        c.file = path.filename().string();
        c.name = path.string();
        c.error = f.message;
        report(c);
        return;
    }
    for (const auto& [name, t] : file.items()) {
        if (options.run && !options.run->search(name)) continue;
        BlockTestCase c;
        c.file = path.filename().string();
        c.name = name;
        try {
            const std::string where = printable(c.file) + " " + printable(name);
            c.network = text(field(t, "network", where), where + " network");
            run_one(name, t, options, c);
        } catch (const Failure& f) {
            c.pass = false;
            c.error = f.message;
        } catch (const json::exception& e) {
            // A value of the wrong JSON type in a field the helpers do not read: the library's
            // words without its prefix, named by file and test.
            std::string what = e.what();
            if (const auto p = what.find("] "); p != std::string::npos) what.erase(0, p + 2);
            c.pass = false;
            c.error = printable(c.file) + " " + printable(name) + ": " + printable(what);
        }
        report(c);
    }
}

}  // namespace keel::cli
