// keel init --datadir D (--genesis FILE | --network NAME): a new datadir holding a chain's
// genesis block and state, ready for an executing import.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "apps/keel/input.hpp"
#include "keel/blockchain/init.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/common/hex.hpp"

namespace keel::cli {
namespace {

struct InitArgs {
    std::string datadir;
    std::string genesis;
    std::string network;
};

// A genesis file is JSON text; the largest public one (mainnet) is under 1 MB.
constexpr std::size_t kMaxGenesisBytes = std::size_t{256} << 20;

void run_init(const InitArgs& args) {
    if (args.genesis.empty() == args.network.empty()) {
        throw Failure{kExitUsage, "init: give one of --genesis FILE and --network NAME"};
    }
    std::string text;
    std::optional<chain::Network> network;
    if (!args.network.empty()) {
        network = chain::parse_network(args.network);
        if (!network) {
            throw Failure{kExitUsage,
                          fmt::format("init: --network {}: not a network keel knows (mainnet, "
                                      "sepolia, holesky, hoodi)",
                                      args.network)};
        }
        text = std::string(chain::network_genesis_json(*network));
    } else {
        text = read_text_arg("@" + args.genesis, "--genesis", kMaxGenesisBytes);
    }
    auto genesis = chain::parse_genesis(text);
    if (!genesis) {
        throw Failure{kExitBadData,
                      fmt::format("init: {}: {}", network ? args.network : args.genesis,
                                  chain::to_string(genesis.error()))};
    }
    if (network && genesis->header.hash() != chain::network_genesis_hash(*network)) {
        throw Failure{
            kExitBadData,
            fmt::format(
                "init: the {} genesis gives hash {}, not the network's {}", args.network,
                hex::encode(genesis->header.hash().view(), {.prefix = true}),
                hex::encode(chain::network_genesis_hash(*network).view(), {.prefix = true}))};
    }
    store::ChainStore chain = open_datadir(args.datadir, Access::create);
    auto r = blockchain::init_store(chain, *genesis, text);
    if (!r) throw Failure{kExitBadData, r.error()};
    if (auto f = chain.flush(); !f) throw Failure{kExitBadData, f.error().message};
    const std::string hash = hex::encode(r->genesis_hash.view(), {.prefix = true});
    if (r->already) {
        std::printf("init: %s already holds genesis %s; nothing to do\n", args.datadir.c_str(),
                    hash.c_str());
        return;
    }
    std::printf(
        "init: genesis %s (block %llu), state root %s, %llu accounts, %llu storage slots, "
        "chain id %s\n",
        hash.c_str(), static_cast<unsigned long long>(genesis->header.number),
        hex::encode(r->state_root.view(), {.prefix = true}).c_str(),
        static_cast<unsigned long long>(r->accounts), static_cast<unsigned long long>(r->slots),
        genesis->config.chain_id.to_dec().c_str());
}

}  // namespace

void add_init_command(CLI::App& app) {
    auto args = std::make_shared<InitArgs>();
    auto* cmd = app.add_subcommand(
        "init", "Make a datadir from a genesis: its block, its state and the chain's rules");
    cmd->add_option("--datadir", args->datadir, "the chain store's directory (created if missing)")
        ->required();
    cmd->add_option("--genesis", args->genesis,
                    "a genesis file in go-ethereum's format (config, alloc, header fields)");
    cmd->add_option("--network", args->network,
                    "a public network: mainnet, sepolia, holesky, hoodi");
    cmd->callback([args] { run_init(*args); });
}

}  // namespace keel::cli
