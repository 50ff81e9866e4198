#include "apps/keel/datadir.hpp"

#include <charconv>
#include <system_error>

#include <fmt/format.h>

#include "apps/keel/input.hpp"
#include "keel/blockchain/executor.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/common/hex.hpp"

namespace keel::cli {

store::ChainStore open_datadir(const std::filesystem::path& dir, Access access,
                               std::size_t cache_bytes) {
    std::error_code ec;
    const bool missing = !std::filesystem::exists(dir, ec);
    const bool empty =
        !missing && std::filesystem::is_directory(dir, ec) && std::filesystem::is_empty(dir, ec);
    const bool create = access == Access::create;
    auto opened = (create && (missing || empty))
                      ? store::ChainStore::create(dir)
                      : store::ChainStore::open(
                            dir, {.read_only = access == Access::read, .cache_bytes = cache_bytes});
    if (!opened) {
        if (missing && !create) {
            throw Failure{kExitBadData, fmt::format("datadir {}: no such directory (import a "
                                                    "chain first: keel import --datadir {} FILE)",
                                                    dir.string(), dir.string())};
        }
        throw Failure{kExitBadData, opened.error().message};
    }
    return std::move(*opened);
}

// A block argument: latest, earliest, a 32-byte hash, or a number (decimal or 0x-hex).
std::uint64_t resolve_block(const store::ChainStore& chain, const std::string& arg,
                            std::string_view what) {
    if (arg == "latest") {
        auto head = chain.head();
        if (!head) throw Failure{kExitBadData, head.error().message};
        if (!*head) throw Failure{kExitBadData, fmt::format("{} latest: the store is empty", what)};
        return **head;
    }
    if (arg == "earliest") {
        auto tail = chain.tail();
        if (!tail) throw Failure{kExitBadData, tail.error().message};
        if (!*tail)
            throw Failure{kExitBadData, fmt::format("{} earliest: the store is empty", what)};
        return **tail;
    }
    if (arg.size() == 66 && arg.starts_with("0x")) {
        auto hash = hex::decode_fixed<Hash32>(arg);
        if (!hash)
            throw Failure{kExitUsage,
                          fmt::format("{}: bad hash {}: {}", what, arg, to_string(hash.error()))};
        auto n = chain.block_number(*hash);
        if (!n) throw Failure{kExitBadData, n.error().message};
        if (!n->found())
            throw Failure{kExitBadData,
                          fmt::format("{} {}: no block with this hash in the store", what, arg)};
        return n->value;
    }
    std::uint64_t n = 0;
    const bool is_hex = arg.starts_with("0x");
    const char* b = arg.data() + (is_hex ? 2 : 0);
    const char* e = arg.data() + arg.size();
    auto [p, ec] = std::from_chars(b, e, n, is_hex ? 16 : 10);
    if (b == e || ec != std::errc{} || p != e) {
        throw Failure{kExitUsage, fmt::format("{}: '{}' is not a block number, a 32-byte "
                                              "hash, latest or earliest",
                                              what, arg)};
    }
    return n;
}

Hash32 tx_hash_arg(const std::string& arg, const std::string& what) {
    auto hash = hex::decode_fixed<Hash32>(arg);
    if (!hash) {
        throw Failure{kExitUsage,
                      fmt::format("{}: not a 32-byte hash: {}", what, to_string(hash.error()))};
    }
    return *hash;
}

eth::ChainConfig chain_rules(const store::ChainStore& chain, const std::string& what) {
    auto spec = chain.chain_spec();
    if (spec && *spec) {
        auto c = blockchain::StoreExecutor::stored_config(chain);
        if (!c) throw Failure{kExitBadData, what + ": " + c.error()};
        return std::move(*c);
    }
    auto genesis = chain.genesis_hash();
    if (genesis && *genesis) {
        for (auto n : {chain::Network::mainnet, chain::Network::sepolia, chain::Network::holesky,
                       chain::Network::hoodi}) {
            if (chain::network_genesis_hash(n) == **genesis) {
                return chain::parse_genesis(chain::network_genesis_json(n)).value().config;
            }
        }
    }
    throw Failure{kExitBadData, what +
                                    ": the store has no chain spec (keel init) and is not a "
                                    "known network's: its fork rules are unknown"};
}

}  // namespace keel::cli
