#include "keel/rpc/config_methods.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include "keel/blockchain/reads.hpp"
#include "keel/eth/fork_id.hpp"
#include "keel/rpc/params.hpp"
#include "keel/store/state_store.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// EIP-7910's precompile names, with the fork that brought each.
struct Precompile {
    const char* name;
    std::uint8_t low;  // the address: 0x00..00XX, or 0x0100 for P256VERIFY
    eth::Fork since;
};
constexpr std::array kPrecompiles{
    Precompile{"ECREC", 0x01, eth::Fork::frontier},
    Precompile{"SHA256", 0x02, eth::Fork::frontier},
    Precompile{"RIPEMD160", 0x03, eth::Fork::frontier},
    Precompile{"ID", 0x04, eth::Fork::frontier},
    Precompile{"MODEXP", 0x05, eth::Fork::byzantium},
    Precompile{"BN254_ADD", 0x06, eth::Fork::byzantium},
    Precompile{"BN254_MUL", 0x07, eth::Fork::byzantium},
    Precompile{"BN254_PAIRING", 0x08, eth::Fork::byzantium},
    Precompile{"BLAKE2F", 0x09, eth::Fork::istanbul},
    Precompile{"KZG_POINT_EVALUATION", 0x0a, eth::Fork::cancun},
    Precompile{"BLS12_G1ADD", 0x0b, eth::Fork::prague},
    Precompile{"BLS12_G1MSM", 0x0c, eth::Fork::prague},
    Precompile{"BLS12_G2ADD", 0x0d, eth::Fork::prague},
    Precompile{"BLS12_G2MSM", 0x0e, eth::Fork::prague},
    Precompile{"BLS12_PAIRING_CHECK", 0x0f, eth::Fork::prague},
    Precompile{"BLS12_MAP_FP_TO_G1", 0x10, eth::Fork::prague},
    Precompile{"BLS12_MAP_FP2_TO_G2", 0x11, eth::Fork::prague},
    Precompile{"P256VERIFY", 0x00, eth::Fork::osaka},  // 0x0100 (EIP-7951)
};

// One configuration of eth_config: from `time` on, fork `fork`.
struct Config {
    std::uint64_t time = 0;
    eth::Fork fork = eth::Fork::shanghai;
    bool blob_only = false;  ///< a blob-parameter-only fork (after a fork of the same time)
};

// Every timestamp-scheduled configuration, oldest first (a fork and a blob-parameter-only fork
// at the same time are one configuration).
std::vector<Config> configurations(const eth::ChainConfig& c) {
    std::vector<Config> out;
    for (const eth::Fork f : eth::kForks) {
        if (f < eth::Fork::shanghai) continue;
        if (auto at = c.activation(f)) out.push_back({*at, f, false});
    }
    // A blob-parameter-only fork keeps the rules of the newest fork before it (fork_at() cannot
    // say: a chain merged by total difficulty leaves Paris unscheduled).
    std::vector<Config> forks = out;
    for (const std::uint64_t t : c.blob_schedule_times()) {
        eth::Fork f = eth::Fork::shanghai;
        for (const Config& x : forks)
            if (x.time <= t) f = x.fork;
        out.push_back({t, f, true});
    }
    std::sort(out.begin(), out.end(), [](const Config& a, const Config& b) {
        return a.time < b.time || (a.time == b.time && !a.blob_only && b.blob_only);
    });
    out.erase(std::unique(out.begin(), out.end(),
                          [](const Config& a, const Config& b) { return a.time == b.time; }),
              out.end());
    return out;
}

void write_address(keel::json::Writer& w, std::string_view name, const Address& a) {
    w.member_data(name, a.view());
}

void write_config(keel::json::Writer& w, const Config& cfg, std::uint64_t genesis_time,
                  const Hash32& genesis, const eth::ChainConfig& c) {
    w.begin_object();
    w.key("activationTime");
    w.number(cfg.time <= genesis_time ? std::uint64_t{0} : cfg.time);
    w.key("blobSchedule");
    if (cfg.fork >= eth::Fork::cancun) {
        const eth::BlobParams b = c.blob_params(cfg.fork, cfg.time);
        w.begin_object();
        w.key("baseFeeUpdateFraction");
        w.number(b.base_fee_update_fraction);
        w.key("max");
        w.number(b.max);
        w.key("target");
        w.number(b.target);
        w.end_object();
    } else {
        w.null();
    }
    w.member_quantity("chainId", c.chain_id);
    const eth::ForkId id =
        eth::fork_id(genesis, c, std::numeric_limits<std::uint64_t>::max(), cfg.time);
    const std::array<std::uint8_t, 4> hash{
        static_cast<std::uint8_t>(id.hash >> 24), static_cast<std::uint8_t>(id.hash >> 16),
        static_cast<std::uint8_t>(id.hash >> 8), static_cast<std::uint8_t>(id.hash)};
    w.member_data("forkId", BytesView(hash.data(), hash.size()));
    w.key("precompiles");
    w.begin_object();
    for (const Precompile& p : kPrecompiles) {
        if (cfg.fork < p.since) continue;
        Address a{};
        if (p.since == eth::Fork::osaka) {
            a[18] = 0x01;
        } else {
            a[19] = p.low;
        }
        write_address(w, p.name, a);
    }
    w.end_object();
    w.key("systemContracts");
    w.begin_object();
    const eth::SystemContracts& s = c.system_contracts;
    if (cfg.fork >= eth::Fork::cancun) write_address(w, "BEACON_ROOTS_ADDRESS", s.beacon_roots);
    if (cfg.fork >= eth::Fork::prague) {
        write_address(w, "CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS", s.consolidation_requests);
        write_address(w, "DEPOSIT_CONTRACT_ADDRESS", c.deposit_contract);
        write_address(w, "HISTORY_STORAGE_ADDRESS", s.history_storage);
        write_address(w, "WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS", s.withdrawal_requests);
    }
    w.end_object();
    w.end_object();
}

Result<void, RpcError> eth_config(const json& p, keel::json::Writer& w,
                                  const store::ChainStore& store, const eth::ChainConfig& c) {
    if (auto r = at_most(p, 0); !r) return r;
    auto head = head_number(store);
    if (!head) return std::unexpected(head.error());
    auto h = blockchain::canonical_header(store, *head);
    if (!h) return std::unexpected(internal_error(h.error().message));
    auto g = blockchain::canonical_header(store, 0);
    if (!g) return std::unexpected(internal_error(g.error().message));
    const std::vector<Config> all = configurations(c);
    const std::uint64_t now = h->header.timestamp;
    auto next =
        std::find_if(all.begin(), all.end(), [now](const Config& x) { return x.time > now; });
    if (next == all.begin()) {
        return std::unexpected(RpcError{
            ErrorCode::server_error,
            "eth_config describes timestamp-scheduled forks (Shanghai on); the head, block " +
                std::to_string(*head) + ", is of " +
                std::string(eth::name(c.fork_at(*head, now)))});
    }
    w.begin_object();
    w.key("current");
    write_config(w, *(next - 1), g->header.timestamp, g->hash, c);
    w.key("next");
    if (next != all.end()) {
        write_config(w, *next, g->header.timestamp, g->hash, c);
    } else {
        w.null();
    }
    w.key("last");
    if (next != all.end()) {
        write_config(w, all.back(), g->header.timestamp, g->hash, c);
    } else {
        w.null();
    }
    w.end_object();
    return {};
}

void write_resource(keel::json::Writer& w, std::string_view name,
                    std::optional<std::uint64_t> oldest) {
    w.key(name);
    w.begin_object();
    w.key("disabled");
    w.boolean(!oldest.has_value());
    if (oldest) w.member_quantity("oldestBlock", *oldest);
    w.end_object();
}

Result<void, RpcError> eth_capabilities(const json& p, keel::json::Writer& w,
                                        const store::ChainStore& store) {
    if (auto r = at_most(p, 0); !r) return r;
    auto head = head_number(store);
    if (!head) return std::unexpected(head.error());
    auto h = blockchain::canonical_header(store, *head);
    if (!h) return std::unexpected(internal_error(h.error().message));
    auto tail = store.tail();
    if (!tail) return std::unexpected(internal_error(tail.error().message));
    auto state = store::state_floor(store);
    if (!state) return std::unexpected(internal_error(state.error().message));
    const std::uint64_t history = std::max(tail->value_or(0), store.history_floor());
    w.begin_object();
    w.key("head");
    w.begin_object();
    w.member_quantity("number", *head);
    w.member_data("hash", h->hash.view());
    w.end_object();
    write_resource(w, "state", *state);
    write_resource(w, "tx", history);
    write_resource(w, "logs", history);
    write_resource(w, "receipts", history);
    write_resource(w, "blocks", history);
    // Proofs come from the stored tries, which hold the head's state only.
    write_resource(w, "stateproofs", state->has_value() ? std::optional(*head) : std::nullopt);
    w.end_object();
    return {};
}

}  // namespace

void add_config_methods(Dispatcher& d, const NodeContext& node) {
    const store::ChainStore& store = node.store;
    const eth::ChainConfig& config = node.config;
    d.add("eth_config", [&store, &config](const json& p, keel::json::Writer& w) {
        return eth_config(p, w, store, config);
    });
    d.add("eth_capabilities",
          [&store](const json& p, keel::json::Writer& w) { return eth_capabilities(p, w, store); });
    d.add("eth_syncing", [](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 0); !r) return r;
        w.boolean(false);
        return {};
    });
    d.add("eth_accounts", [](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
        if (auto r = at_most(p, 0); !r) return r;
        w.begin_array();
        w.end_array();
        return {};
    });
}

}  // namespace keel::rpc
