#include "keel/chain/genesis.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"
#include "keel/common/uint256.hpp"
#include "keel/crypto/sha256.hpp"
#include "keel/trie/root.hpp"

namespace keel::chain {

namespace {

using json = nlohmann::json;

/// What the reader throws inside parse_genesis() (and nowhere else): the error to return.
struct Bad {
    GenesisError error;
};

[[noreturn]] void bad(std::string field, std::string detail) {
    throw Bad{{std::move(field), std::move(detail)}};
}

/// A JSON value for a message: compact, ASCII only, at most 60 characters.
std::string shown(const json& j) {
    std::string s = j.dump(-1, ' ', true, json::error_handler_t::replace);
    if (s.size() > 60) s = s.substr(0, 57) + "...";
    return s;
}

/// A key from the file for a field path: printable ASCII, at most 60 characters.
std::string key_text(std::string_view k) {
    std::string out;
    for (const char c : k.substr(0, 60)) {
        const auto u = static_cast<unsigned char>(c);
        out += u >= 0x20 && u < 0x7f ? c : '?';
    }
    if (k.size() > 60) out += "...";
    return out;
}

/// Builds the document as json::parse() would, except that an integer too large for 64 bits
/// keeps its digits (as a string) instead of becoming a double: go-ethereum reads a
/// `terminalTotalDifficulty` of 58750000000000000000000 exactly.
class ExactIntegers final : public nlohmann::json_sax<json> {
  public:
    json root;
    std::string error;

    bool null() override { return put(nullptr); }
    bool boolean(bool v) override { return put(v); }
    bool number_integer(number_integer_t v) override { return put(v); }
    bool number_unsigned(number_unsigned_t v) override { return put(v); }
    bool number_float(number_float_t v, const string_t& text) override {
        const bool digits =
            !text.empty() && std::ranges::all_of(text, [](char c) { return c >= '0' && c <= '9'; });
        return digits ? put(text) : put(v);
    }
    bool string(string_t& v) override { return put(std::move(v)); }
    bool binary(binary_t&) override { return put(nullptr); }
    bool start_object(std::size_t) override {
        stack_.push_back(place(json::object()));
        return true;
    }
    bool key(string_t& k) override {
        key_ = std::move(k);
        return true;
    }
    bool end_object() override {
        stack_.pop_back();
        return true;
    }
    bool start_array(std::size_t) override {
        stack_.push_back(place(json::array()));
        return true;
    }
    bool end_array() override {
        stack_.pop_back();
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        std::string_view what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 7: ..."
        if (const auto close = what.find("] "); what.starts_with("[") && close != what.npos)
            what.remove_prefix(close + 2);
        error = std::string(what) + " (byte " + std::to_string(position) + ")";
        return false;
    }

  private:
    json* place(json v) {
        if (stack_.empty()) {
            root = std::move(v);
            return &root;
        }
        json& top = *stack_.back();
        if (top.is_array()) {
            top.push_back(std::move(v));
            return &top.back();
        }
        json& slot = top[key_];  // a repeated key: the last one counts, as in json::parse()
        slot = std::move(v);
        return &slot;
    }
    bool put(json v) {
        place(std::move(v));
        return true;
    }

    std::vector<json*> stack_;
    std::string key_;
};

bool same_key(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

/// The member `key` of `obj` (matched without regard to case, as Go's encoding/json does), or
/// null when absent or JSON null.
const json* member(const json& obj, std::string_view key) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (same_key(it.key(), key)) return it->is_null() ? nullptr : &*it;
    }
    return nullptr;
}

/// A number: a JSON integer, "0x" hex or decimal digits in a string.
Uint256 number(const json& j, const std::string& field) {
    if (j.is_number_unsigned()) return Uint256(j.get<std::uint64_t>());
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (auto v = Uint256::from_string(s)) return *v;
        bad(field, "expected a number (\"0x\" hex or decimal) below 2^256, got " + shown(j));
    }
    bad(field, "expected a non-negative integer, got " + shown(j));
}

std::uint64_t u64(const json& j, const std::string& field) {
    const Uint256 v = number(j, field);
    if (!v.fits_u64()) bad(field, shown(j) + " is above 2^64-1");
    return v.as_u64();
}

/// Hex bytes, "0x" or not ("" is empty).
Bytes bytes_of(const json& j, const std::string& field) {
    if (!j.is_string()) bad(field, "expected a hex string, got " + shown(j));
    auto b = hex::decode(j.get_ref<const std::string&>());
    if (!b) {
        bad(field, std::string(hex::describe(b.error().code)) + " at character " +
                       std::to_string(b.error().offset));
    }
    return std::move(*b);
}

/// Exactly Fixed::size() bytes of hex.
template <class Fixed>
Fixed exact(const json& j, const std::string& field) {
    const Bytes b = bytes_of(j, field);
    if (b.size() != Fixed::size()) {
        bad(field, "expected " + std::to_string(Fixed::size()) + " bytes, got " +
                       std::to_string(b.size()));
    }
    return *Fixed::from_right_aligned(b);
}

/// At most 32 bytes of hex as a word (storage keys and values: go-ethereum pads them on the left).
Uint256 word(const json& j, const std::string& field) {
    const Bytes b = bytes_of(j, field);
    if (b.size() > 32) bad(field, "longer than 32 bytes");
    return *Uint256::from_be_bytes(b);
}

// ---- config -------------------------------------------------------------------------------

struct ForkKey {
    const char* key;
    eth::Fork fork;
};

// The forks by block number and by time, in order (go-ethereum's ChainConfig names).
constexpr std::array kBlockForks{
    ForkKey{"homesteadBlock", eth::Fork::homestead},
    ForkKey{"eip150Block", eth::Fork::tangerine_whistle},
    ForkKey{"eip158Block", eth::Fork::spurious_dragon},
    ForkKey{"byzantiumBlock", eth::Fork::byzantium},
    ForkKey{"constantinopleBlock", eth::Fork::constantinople},
    ForkKey{"petersburgBlock", eth::Fork::petersburg},
    ForkKey{"istanbulBlock", eth::Fork::istanbul},
    ForkKey{"berlinBlock", eth::Fork::berlin},
    ForkKey{"londonBlock", eth::Fork::london},
};
constexpr std::array kTimeForks{
    ForkKey{"shanghaiTime", eth::Fork::shanghai},
    ForkKey{"cancunTime", eth::Fork::cancun},
    ForkKey{"pragueTime", eth::Fork::prague},
    ForkKey{"osakaTime", eth::Fork::osaka},
};
/// The blob-parameter-only forks keel reads (EIP-7892: bpo<n>Time with blobSchedule.bpo<n>).
constexpr int kMaxBpo = 5;

/// The bomb-only forks (block, delay).
struct BombKey {
    const char* key;
    std::uint64_t delay;
};
constexpr std::array kBombForks{
    BombKey{"muirGlacierBlock", 9'000'000},    // EIP-2384
    BombKey{"arrowGlacierBlock", 10'700'000},  // EIP-4345
    BombKey{"grayGlacierBlock", 11'400'000},   // EIP-5133
};

/// Keys that are read, or known and deliberately not (they change no rule keel applies).
bool known_config_key(std::string_view k) {
    for (const auto& f : kBlockForks)
        if (same_key(k, f.key)) return true;
    for (const auto& f : kTimeForks)
        if (same_key(k, f.key)) return true;
    for (const auto& f : kBombForks)
        if (same_key(k, f.key)) return true;
    for (int n = 1; n <= kMaxBpo; ++n)
        if (same_key(k, "bpo" + std::to_string(n) + "Time")) return true;
    for (const char* other : {"eip155Block", "daoForkBlock", "mergeNetsplitBlock",
                              "mergeNetSplitBlock", "preMergeForkBlock"}) {
        if (same_key(k, other)) return true;
    }
    return false;
}

eth::BlobParams blob_params(const json& entry, const std::string& field) {
    if (!entry.is_object()) bad(field, "expected an object, got " + shown(entry));
    eth::BlobParams p;
    const auto get = [&](const char* key) {
        const json* v = member(entry, key);
        if (v == nullptr) bad(field + "." + key, "missing");
        return u64(*v, field + "." + key);
    };
    p.target = get("target");
    p.max = get("max");
    p.base_fee_update_fraction = get("baseFeeUpdateFraction");
    if (const std::string problem = eth::blob_params_problem(p); !problem.empty())
        bad(field, problem);
    return p;
}

eth::ChainConfig read_config(const json& c) {
    if (!c.is_object()) bad("config", "expected an object, got " + shown(c));
    eth::ChainConfig config;
    const json* id = member(c, "chainId");
    if (id == nullptr) bad("config.chainId", "missing");
    config.chain_id = number(*id, "config.chainId");

    // A fork keel does not implement is refused, not ignored.
    for (auto it = c.begin(); it != c.end(); ++it) {
        const std::string_view k = it.key();
        if ((k.ends_with("Block") || k.ends_with("Time")) && !it->is_null() &&
            !known_config_key(k)) {
            bad("config." + key_text(k), "a fork keel does not implement");
        }
    }

    // Block forks: each must come at or after the one before it that is set.
    std::uint64_t last = 0;
    std::string last_key;
    const auto block_of = [&](const char* key) -> std::optional<std::uint64_t> {
        const json* v = member(c, key);
        if (v == nullptr) return std::nullopt;
        return u64(*v, std::string("config.") + key);
    };
    const auto eip155 = block_of("eip155Block");
    const auto eip158 = block_of("eip158Block");
    if (eip155 && eip158 && *eip155 != *eip158) {
        bad("config.eip155Block", std::to_string(*eip155) + " differs from eip158Block " +
                                      std::to_string(*eip158) +
                                      " (keel runs EIP-155 and EIP-158 as one fork)");
    }
    for (const ForkKey& f : kBlockForks) {
        auto at = block_of(f.key);
        if (!at && f.fork == eth::Fork::spurious_dragon) at = eip155;
        // No petersburgBlock: Petersburg comes with Constantinople (go-ethereum's IsPetersburg).
        if (!at && f.fork == eth::Fork::petersburg)
            at = config.activation(eth::Fork::constantinople);
        if (!at) continue;
        if (!last_key.empty() && *at < last) {
            bad(std::string("config.") + f.key,
                std::to_string(*at) + " is before " + last_key + " " + std::to_string(last));
        }
        config.set_fork(f.fork, *at);
        last = *at;
        last_key = f.key;
    }
    for (const BombKey& b : kBombForks) {
        if (const auto at = block_of(b.key)) config.set_bomb_delay(*at, b.delay);
    }
    if (const auto dao = block_of("daoForkBlock")) {
        const json* support = member(c, "daoForkSupport");
        if (support != nullptr && !support->is_boolean())
            bad("config.daoForkSupport", "expected true or false, got " + shown(*support));
        // Besu's files name the block without daoForkSupport: they take the fork.
        if (support != nullptr && !support->get<bool>())
            bad("config.daoForkSupport",
                "false (a chain that refused the DAO fork) is not supported");
        config.dao_fork_block = *dao;
    }

    // Time forks: after London, in order.
    std::uint64_t last_time = 0;
    std::string last_time_key;
    for (const ForkKey& f : kTimeForks) {
        const json* v = member(c, f.key);
        if (v == nullptr) continue;
        const std::string field = std::string("config.") + f.key;
        const std::uint64_t at = u64(*v, field);
        if (last_key != "londonBlock") bad(field, "set without londonBlock");
        if (!last_time_key.empty() && at < last_time) {
            bad(field, std::to_string(at) + " is before " + last_time_key + " " +
                           std::to_string(last_time));
        }
        config.set_fork(f.fork, at);
        last_time = at;
        last_time_key = f.key;
    }

    // The Merge (see genesis.hpp).
    if (const json* ttd = member(c, "terminalTotalDifficulty")) {
        const Uint256 td = number(*ttd, "config.terminalTotalDifficulty");
        const auto london = config.activation(eth::Fork::london);
        if (td.is_zero()) {
            if (!london) bad("config.terminalTotalDifficulty", "0 without londonBlock");
            config.set_fork(eth::Fork::paris, *london);
            config.terminal_total_difficulty = td;
        } else {
            config.merge_at_total_difficulty(td);
        }
    }

    // Blob parameters: a fork's own entry, and the blob-parameter-only forks.
    const json* schedule = member(c, "blobSchedule");
    if (schedule != nullptr && !schedule->is_object())
        bad("config.blobSchedule", "expected an object, got " + shown(*schedule));
    for (const auto& [name, fork] :
         {std::pair{"cancun", eth::Fork::cancun}, std::pair{"prague", eth::Fork::prague},
          std::pair{"osaka", eth::Fork::osaka}}) {
        const json* e = schedule != nullptr ? member(*schedule, name) : nullptr;
        if (e != nullptr)
            config.set_blob_params(fork,
                                   blob_params(*e, std::string("config.blobSchedule.") + name));
    }
    for (int n = 1; n <= kMaxBpo; ++n) {
        const std::string name = "bpo" + std::to_string(n);
        const json* time = member(c, name + "Time");
        const json* e = schedule != nullptr ? member(*schedule, name) : nullptr;
        if (time == nullptr && e == nullptr) continue;
        if (time == nullptr)
            bad("config.blobSchedule." + name, "set without config." + name + "Time");
        if (e == nullptr) bad("config." + name + "Time", "set without config.blobSchedule." + name);
        const std::uint64_t at = u64(*time, "config." + name + "Time");
        const auto osaka = config.activation(eth::Fork::osaka);
        if (!osaka || at < *osaka) bad("config." + name + "Time", "before osakaTime");
        config.add_blob_schedule(at, blob_params(*e, "config.blobSchedule." + name));
    }

    // Contracts.
    if (const json* d = member(c, "depositContractAddress"))
        config.deposit_contract = exact<Address>(*d, "config.depositContractAddress");
    if (const json* w = member(c, "withdrawalRequestContractAddress"))
        config.system_contracts.withdrawal_requests =
            exact<Address>(*w, "config.withdrawalRequestContractAddress");
    if (const json* w = member(c, "consolidationRequestContractAddress"))
        config.system_contracts.consolidation_requests =
            exact<Address>(*w, "config.consolidationRequestContractAddress");
    return config;
}

// ---- alloc --------------------------------------------------------------------------------

state::MemoryState read_alloc(const json& a) {
    if (!a.is_object()) bad("alloc", "expected an object, got " + shown(a));
    state::MemoryState state;
    std::map<Address, std::string> seen;
    for (auto it = a.begin(); it != a.end(); ++it) {
        const std::string where = "alloc." + key_text(it.key());
        auto raw = hex::decode(it.key());
        if (!raw || raw->size() != Address::size()) bad(where, "not a 20-byte hex address");
        const Address address = *Address::from_right_aligned(*raw);
        if (auto [at, fresh] = seen.emplace(address, it.key()); !fresh)
            bad(where, "the same address as alloc." + key_text(at->second));
        const json& acc = *it;
        if (!acc.is_object()) bad(where, "expected an object, got " + shown(acc));
        const json* balance = member(acc, "balance");
        if (balance == nullptr) bad(where + ".balance", "missing");
        const Uint256 bal = number(*balance, where + ".balance");
        const json* nonce = member(acc, "nonce");
        const std::uint64_t n = nonce != nullptr ? u64(*nonce, where + ".nonce") : 0;
        const json* code = member(acc, "code");
        Bytes c = code != nullptr ? bytes_of(*code, where + ".code") : Bytes{};
        std::vector<std::pair<Uint256, Uint256>> slots;
        if (const json* storage = member(acc, "storage")) {
            if (!storage->is_object())
                bad(where + ".storage", "expected an object, got " + shown(*storage));
            for (auto s = storage->begin(); s != storage->end(); ++s) {
                const std::string at = where + ".storage." + key_text(s.key());
                slots.emplace_back(word(json(s.key()), at), word(*s, at));
            }
        }
        state.put(address, n, bal, std::move(c), slots);
    }
    return state;
}

// ---- header -------------------------------------------------------------------------------

/// sha256 of nothing: EIP-7685's requests hash of a block without requests.
Hash32 empty_requests_hash() {
    return crypto::sha256(BytesView{});
}

eth::Header read_header(const json& g, const eth::ChainConfig& config, const Hash32& state_root) {
    eth::Header h;
    const auto opt_u64 = [&](const char* key, std::uint64_t fallback) {
        const json* v = member(g, key);
        return v != nullptr ? u64(*v, key) : fallback;
    };
    h.number = opt_u64("number", 0);
    h.timestamp = opt_u64("timestamp", 0);
    h.gas_limit = opt_u64("gasLimit", 0);
    if (h.gas_limit == 0) h.gas_limit = 5000;  // go-ethereum's GenesisGasLimit
    h.gas_used = opt_u64("gasUsed", 0);
    const std::uint64_t nonce = opt_u64("nonce", 0);
    for (int i = 0; i < 8; ++i) h.nonce[i] = static_cast<std::uint8_t>(nonce >> (56 - 8 * i));
    if (const json* x = member(g, "extraData")) h.extra_data = bytes_of(*x, "extraData");
    if (const json* m = member(g, "mixHash")) h.mix_hash = exact<Hash32>(*m, "mixHash");
    if (const json* d = member(g, "difficulty")) {
        h.difficulty = number(*d, "difficulty");
    } else if (h.mix_hash == Hash32{}) {
        h.difficulty = Uint256(131072);  // go-ethereum's GenesisDifficulty
    }
    if (const json* c = member(g, "coinbase")) h.beneficiary = exact<Address>(*c, "coinbase");
    if (const json* p = member(g, "parentHash")) h.parent_hash = exact<Hash32>(*p, "parentHash");
    h.ommers_hash = eth::kEmptyOmmersHash;
    h.state_root = state_root;
    h.transactions_root = trie::kEmptyRoot;
    h.receipts_root = trie::kEmptyRoot;

    // The fields of the forks active at the genesis block (go-ethereum's ToBlock: London by
    // number, the later forks by time once London is active).
    const auto active = [&](eth::Fork f) {
        const auto at = config.activation(f);
        const auto london = config.activation(eth::Fork::london);
        if (!at || !london || *london > h.number) return false;
        return (f <= eth::Fork::paris ? h.number : h.timestamp) >= *at;
    };
    if (active(eth::Fork::london)) {
        const json* fee = member(g, "baseFeePerGas");
        h.base_fee_per_gas =
            fee != nullptr ? number(*fee, "baseFeePerGas") : Uint256(1'000'000'000);
    }
    if (active(eth::Fork::shanghai)) h.withdrawals_root = trie::kEmptyRoot;
    if (active(eth::Fork::cancun)) {
        h.blob_gas_used = opt_u64("blobGasUsed", 0);
        h.excess_blob_gas = opt_u64("excessBlobGas", 0);
        h.parent_beacon_block_root = Hash32{};
    }
    if (active(eth::Fork::prague)) h.requests_hash = empty_requests_hash();
    return h;
}

}  // namespace

std::string to_string(const GenesisError& e) {
    return e.field.empty() ? "genesis: " + e.detail : "genesis: " + e.field + ": " + e.detail;
}

namespace {

// The fork id's points (eth::ChainConfig::fork_id_blocks / fork_id_times), read from the keys
// read_config() accepted.
void gather_fork_points(const json& c, std::uint64_t genesis_time, eth::ChainConfig& config) {
    std::vector<std::uint64_t> blocks;
    std::vector<std::uint64_t> times;
    const auto add = [&c](std::vector<std::uint64_t>& to, const std::string& key) {
        if (const json* v = member(c, key)) to.push_back(u64(*v, "config." + key));
    };
    for (const auto& f : kBlockForks) add(blocks, f.key);
    for (const auto& b : kBombForks) add(blocks, b.key);
    for (const char* other : {"eip155Block", "daoForkBlock", "mergeNetsplitBlock",
                              "mergeNetSplitBlock", "preMergeForkBlock"}) {
        add(blocks, other);
    }
    for (const auto& f : kTimeForks) add(times, f.key);
    for (int n = 1; n <= kMaxBpo; ++n) add(times, "bpo" + std::to_string(n) + "Time");
    const auto tidy = [](std::vector<std::uint64_t>& v, std::uint64_t floor) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        std::erase_if(v, [floor](std::uint64_t x) { return x <= floor; });
    };
    tidy(blocks, 0);
    tidy(times, genesis_time);
    config.fork_id_blocks = std::move(blocks);
    config.fork_id_times = std::move(times);
}

}  // namespace

Result<Genesis, GenesisError> parse_genesis(std::string_view json_text) {
    ExactIntegers doc;
    bool ok = false;
    try {
        ok = json::sax_parse(json_text, &doc);
    } catch (const json::exception& e) {
        return std::unexpected(GenesisError{"", e.what()});
    }
    if (!ok) return std::unexpected(GenesisError{"", "not JSON: " + doc.error});
    const json& g = doc.root;
    try {
        if (!g.is_object()) bad("", "expected a JSON object, got " + shown(g));
        const json* config = member(g, "config");
        if (config == nullptr) bad("config", "missing");
        const json* alloc = member(g, "alloc");
        Genesis out;
        out.config = read_config(*config);
        if (alloc != nullptr) out.alloc = read_alloc(*alloc);
        out.header = read_header(g, out.config, out.alloc.state_root());
        gather_fork_points(*config, out.header.timestamp, out.config);
        return out;
    } catch (const Bad& b) {
        return std::unexpected(b.error);
    }
}

std::string_view network_name(Network n) noexcept {
    switch (n) {
        case Network::mainnet:
            return "mainnet";
        case Network::sepolia:
            return "sepolia";
        case Network::holesky:
            return "holesky";
        case Network::hoodi:
            return "hoodi";
    }
    return "?";
}

std::optional<Network> parse_network(std::string_view name) noexcept {
    for (Network n : {Network::mainnet, Network::sepolia, Network::holesky, Network::hoodi})
        if (name == network_name(n)) return n;
    return std::nullopt;
}

std::uint64_t network_chain_id(Network n) noexcept {
    switch (n) {
        case Network::mainnet:
            return 1;
        case Network::sepolia:
            return 11'155'111;
        case Network::holesky:
            return 17'000;
        case Network::hoodi:
            return 560'048;
    }
    return 0;
}

Hash32 network_genesis_hash(Network n) noexcept {
    // go-ethereum's params.{Mainnet,Sepolia,Holesky,Hoodi}GenesisHash.
    const char* hex_hash = "";
    switch (n) {
        case Network::mainnet:
            hex_hash = "d4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3";
            break;
        case Network::sepolia:
            hex_hash = "25a5cc106eea7138acab33231d7160d69cb777ee0c2c553fcddf5138993e6dd9";
            break;
        case Network::holesky:
            hex_hash = "b5f7f912443c940f21fd611f12828d75b534364ed9e95ca4e307729a4661bde4";
            break;
        case Network::hoodi:
            hex_hash = "bbe312868b376a3001692a646dd2d7d1e4406380dfd86b98aa8a34d1557c971b";
            break;
    }
    return hex::decode_fixed<Hash32>(hex_hash).value();
}

}  // namespace keel::chain
