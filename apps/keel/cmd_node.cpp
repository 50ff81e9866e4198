// keel node --datadir D [--http.addr A] [--http.port P] [--http.threads N] [--http.corsdomain O]
// [--http.vhosts H] [--ws --ws.addr A --ws.port P --ws.origins O] [--authrpc.addr A]
// [--authrpc.port P] [--authrpc.jwtsecret FILE]: the chain store served over JSON-RPC
// (keel/rpc), and followed through the Engine API on the authenticated port: the node is the
// store's writer (blockchain::Chain), rpc::Engine executes the payloads a consensus client sends
// and moves the head where its forkchoice says. SIGINT or SIGTERM stops it (exit 0).

#include <sys/resource.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "keel/blockchain/chain.hpp"
#include "keel/common/hex.hpp"
#include "keel/rpc/engine.hpp"
#include "keel/rpc/http_server.hpp"
#include "keel/rpc/jwt.hpp"
#include "keel/rpc/methods.hpp"
#include "keel/rpc/pool_methods.hpp"
#include "keel/rpc/subscriptions.hpp"
#include "keel/store/state_store.hpp"
#include "keel/trace/duration.hpp"
#include "keel/txpool/pool.hpp"

namespace keel::cli {
namespace {

// The Engine API's defaults: loopback, 8551 (as every execution client), and bodies up to
// 64 MiB: a payload near the gas limit in calldata is several megabytes, twice that in hex.
rpc::HttpOptions engine_port() {
    rpc::HttpOptions o;
    o.port = 8551;
    o.max_body = 64u << 20;
    return o;
}

// WebSocket's defaults: loopback, 8546 (geth's --ws.port).
rpc::HttpOptions ws_port() {
    rpc::HttpOptions o;
    o.port = 8546;
    o.websocket = true;
    return o;
}

struct NodeArgs {
    std::string datadir;
    rpc::HttpOptions http;
    bool ws = false;  ///< serve WebSocket (and eth_subscribe) on ws.port
    rpc::HttpOptions ws_options = ws_port();
    rpc::HttpOptions auth = engine_port();
    std::string jwt_secret;  ///< empty: <datadir>/jwtsecret, made when missing
    bool testing = false;    ///< serve testing_buildBlockV1
    std::uint64_t gas_ceiling = 60'000'000;
    std::string extra_data;
    std::uint64_t max_log_blocks = 100'000;
    std::uint64_t max_logs = 100'000;
    std::string evm_timeout = "5s";   ///< Go duration syntax, as geth's --rpc.evmtimeout
    std::size_t recent_blocks = 128;  ///< blocks whose state changes are kept in memory
};

// What replays (traces) of recent blocks read without a history seek: at most this much of the
// latest blocks' state changes in memory (128 mainnet blocks take ~60 MB).
constexpr std::size_t kRecentStateBytes = std::size_t{128} << 20;

void run_node(const NodeArgs& a) {
    // The stop signals are taken by this thread alone (sigwait below): block them before any
    // server thread starts, so that every thread inherits the mask.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    const std::string what = "node";
    // Each connection is a file descriptor: take the hard limit (Debian's soft limit is 1,024),
    // as geth does, so that a thousand clients at once do not starve the store's files.
    if (rlimit lim{}; getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        (void)setrlimit(RLIMIT_NOFILE, &lim);
    }
    auto call_timeout = trace::parse_duration(a.evm_timeout);
    if (!call_timeout || call_timeout->count() < 0) {
        throw Failure{kExitUsage,
                      what + ": --rpc.evmtimeout: " +
                          (call_timeout ? "a negative duration" : call_timeout.error())};
    }
    store::ChainStore chain = open_datadir(a.datadir, Access::write);
    const eth::ChainConfig config = chain_rules(chain, what);
    auto writer = blockchain::Chain::open(chain, config);
    if (!writer) throw Failure{kExitBadData, what + ": " + writer.error()};
    {
        const auto started = std::chrono::steady_clock::now();
        auto recent = store::keep_recent_state(chain, a.recent_blocks, kRecentStateBytes);
        if (!recent) throw Failure{kExitBadData, what + ": " + recent.error().message};
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - started)
                            .count();
        if (recent->blocks != 0) {
            std::printf(
                "node: recent state: blocks %llu..%llu in memory (%zu keys, %.1f MB, "
                "loaded in %lld ms)\n",
                static_cast<unsigned long long>(recent->first),
                static_cast<unsigned long long>(recent->last), recent->keys,
                static_cast<double>(recent->bytes) / 1e6, static_cast<long long>(ms));
        }
    }

    // The Engine API's secret: the one given, or the datadir's (made once, as geth does).
    const std::filesystem::path secret_path = a.jwt_secret.empty()
                                                  ? std::filesystem::path(a.datadir) / "jwtsecret"
                                                  : std::filesystem::path(a.jwt_secret);
    auto secret = a.jwt_secret.empty() && !std::filesystem::exists(secret_path)
                      ? rpc::create_jwt_secret(secret_path)
                      : rpc::read_jwt_secret(secret_path);
    if (!secret) throw Failure{kExitUsage, what + ": " + secret.error()};
    txpool::Pool pool;
    const std::uint64_t chain_id = config.chain_id.as_u64();
    const rpc::NodeContext node{.store = chain,
                                .config = config,
                                .info = {.client_version = "keel/v" KEEL_VERSION "/linux-amd64",
                                         .chain_id = chain_id,
                                         .network_id = chain_id},
                                .max_log_blocks = a.max_log_blocks,
                                .max_logs = a.max_logs,
                                .call_timeout = *call_timeout,
                                .pool = &pool};
    std::optional<rpc::Subscriptions> subscriptions;
    if (a.ws) subscriptions.emplace(node);
    rpc::EngineOptions engine_options;
    engine_options.client_version = KEEL_VERSION;
    engine_options.log = [](const std::string& line) {
        std::printf("node: %s\n", line.c_str());
        std::fflush(stdout);
    };
    engine_options.transactions = [&chain, &config, &pool](std::uint64_t gas) {
        auto head = rpc::pool_head(chain, config);
        return head ? pool.best(head->base_fee, gas) : std::vector<eth::Transaction>{};
    };
    engine_options.on_head = [&chain, &config, &pool, &subscriptions] {
        auto head = rpc::pool_head(chain, config);
        auto view = store::StateView::open(chain);
        if (head && view) pool.update(*head, *view);
        if (subscriptions) subscriptions->wake();
    };
    engine_options.blobs = [&pool](const Hash32& h) { return pool.find_blob(h); };
    engine_options.gas_ceiling = a.gas_ceiling;
    if (!a.extra_data.empty()) {
        auto extra =
            hex::decode(a.extra_data.starts_with("0x") ? a.extra_data.substr(2) : a.extra_data);
        if (!extra || extra->size() > 32)
            throw Failure{kExitUsage, what + ": --miner.extradata: want at most 32 bytes of hex"};
        engine_options.extra_data = std::move(*extra);
    }
    rpc::Engine engine(*writer, chain, engine_options);
    rpc::Dispatcher engine_dispatcher;
    engine.add_methods(engine_dispatcher);
    rpc::HttpOptions auth = a.auth;
    auth.authorize = [key = *secret](std::string_view authorization) {
        return rpc::check_jwt(authorization, key, std::time(nullptr));
    };
    rpc::Dispatcher dispatcher;
    rpc::add_methods(dispatcher, node);
    if (a.testing) engine.add_testing_methods(dispatcher);

    rpc::HttpServer server(dispatcher, a.http);
    if (auto started = server.start(); !started) throw Failure{kExitBadData, started.error()};
    rpc::HttpServer auth_server(engine_dispatcher, auth);
    if (auto started = auth_server.start(); !started) {
        server.stop();
        throw Failure{kExitBadData, "authrpc: " + started.error()};
    }
    std::optional<rpc::HttpServer> ws_server;
    if (subscriptions) {
        rpc::HttpOptions ws = a.ws_options;
        ws.subscriptions = &*subscriptions;
        ws_server.emplace(dispatcher, ws);
        if (auto started = ws_server->start(); !started) {
            auth_server.stop();
            server.stop();
            throw Failure{kExitBadData, "ws: " + started.error()};
        }
    }
    auto head = chain.head();
    std::printf("node: JSON-RPC over HTTP on http://%s:%u (chain id %llu, head %llu)\n",
                a.http.address.c_str(), static_cast<unsigned>(server.port()),
                static_cast<unsigned long long>(chain_id),
                static_cast<unsigned long long>(head && *head ? **head : 0));
    std::printf("node: Engine API on http://%s:%u (JWT secret %s)\n", auth.address.c_str(),
                static_cast<unsigned>(auth_server.port()), secret_path.string().c_str());
    if (ws_server) {
        std::printf("node: JSON-RPC over WebSocket on ws://%s:%u (eth_subscribe)\n",
                    a.ws_options.address.c_str(), static_cast<unsigned>(ws_server->port()));
    }
    std::fflush(stdout);

    int signal = 0;
    sigwait(&stop_signals, &signal);
    std::printf("node: %s: stopping\n", signal == SIGINT ? "SIGINT" : "SIGTERM");
    std::fflush(stdout);
    if (ws_server) ws_server->stop();
    auth_server.stop();
    server.stop();
    std::printf("node: stopped\n");
}

}  // namespace

void add_node_command(CLI::App& app) {
    auto args = std::make_shared<NodeArgs>();
    auto* node = app.add_subcommand(
        "node", "serve the chain store over JSON-RPC (HTTP); SIGINT or SIGTERM stops it");
    node->add_option("--datadir", args->datadir, "the chain store (keel init, keel import)")
        ->required();
    node->add_option("--http.addr", args->http.address,
                     "the address to listen on (default 127.0.0.1: loopback only)");
    node->add_option("--http.port", args->http.port, "the port (default 8545; 0: any free one)");
    node->add_option("--http.threads", args->http.threads,
                     "threads serving connections (default: one per core)")
        ->check(CLI::Range(0u, 1024u));
    node->add_option("--http.maxbody", args->http.max_body,
                     "largest request body in bytes (default 5 MB, as geth)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
    node->add_option("--http.corsdomain", args->http.cors_origins,
                     "origins whose pages may read the answers, comma-separated (\"*\": any; "
                     "default none)")
        ->delimiter(',');
    node->add_option("--http.vhosts", args->http.vhosts,
                     "host names accepted in requests' Host header, comma-separated (\"*\": "
                     "any; default localhost; IP addresses always)")
        ->delimiter(',');
    node->add_option("--authrpc.vhosts", args->auth.vhosts,
                     "the Engine API's accepted host names (default localhost)")
        ->delimiter(',');
    node->add_flag("--ws", args->ws,
                   "serve JSON-RPC over WebSocket too, with eth_subscribe (newHeads, logs, "
                   "newPendingTransactions)");
    node->add_option("--ws.addr", args->ws_options.address,
                     "the WebSocket address (default 127.0.0.1)");
    node->add_option("--ws.port", args->ws_options.port,
                     "the WebSocket port (default 8546; 0: any free one)");
    node->add_option("--ws.origins", args->ws_options.cors_origins,
                     "origins whose pages may connect, comma-separated (\"*\": any; default "
                     "none: only clients that send no Origin, which browsers always send)")
        ->delimiter(',');
    node->add_option("--authrpc.addr", args->auth.address,
                     "the Engine API's address (default 127.0.0.1)");
    node->add_option("--authrpc.port", args->auth.port,
                     "the Engine API's port (default 8551; 0: any free one)");
    node->add_option("--authrpc.jwtsecret", args->jwt_secret,
                     "the file holding the hex JWT secret shared with the consensus client "
                     "(default <datadir>/jwtsecret, made when missing)");
    node->add_flag("--testing", args->testing,
                   "serve testing_buildBlockV1 on the JSON-RPC port (for test tools such as hive's "
                   "rpc-compat; off by default, as the method's spec asks)");
    node->add_option("--miner.gaslimit", args->gas_ceiling,
                     "the gas limit built blocks move toward (default 60000000, as geth)")
        ->check(CLI::Range(std::uint64_t{5000}, std::uint64_t{1} << 62));
    node->add_option("--miner.extradata", args->extra_data,
                     "built blocks' extra data, hex, at most 32 bytes (default none)");
    node->add_option("--rpc.logs.maxblocks", args->max_log_blocks,
                     "eth_getLogs: the most blocks one query may span (default 100000)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
    node->add_option("--rpc.logs.maxresults", args->max_logs,
                     "eth_getLogs: the most logs one query may return (default 100000)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
    node->add_option("--rpc.evmtimeout", args->evm_timeout,
                     "eth_call, eth_estimateGas, eth_createAccessList, eth_simulateV1: the time "
                     "one request may execute, a Go duration (default 5s, as geth; 0: none)");
    node->add_option("--state.recent", args->recent_blocks,
                     "blocks whose state changes are kept in memory, so that traces and calls "
                     "at those blocks read no state history from disk (default 128; 0: none)")
        ->check(CLI::Range(std::size_t{0}, std::size_t{100'000}));
    node->callback([args] { run_node(*args); });
}

void add_jwt_command(CLI::App& app) {
    auto secret = std::make_shared<std::string>();
    auto iat = std::make_shared<std::int64_t>(0);
    auto* jwt = app.add_subcommand(
        "jwt",
        "print an Engine API token (JWT, HS256) for a secret file, as a consensus client "
        "makes one: curl -H \"Authorization: Bearer $(keel jwt SECRET)\" ...");
    jwt->add_option("secret", *secret, "the hex JWT secret file (keel node's --authrpc.jwtsecret)")
        ->required();
    jwt->add_option("--iat", *iat, "the issued-at time, Unix seconds (default now)");
    jwt->callback([secret, iat] {
        auto key = rpc::read_jwt_secret(*secret);
        if (!key) throw Failure{kExitUsage, "jwt: " + key.error()};
        const std::int64_t at = *iat != 0 ? *iat : static_cast<std::int64_t>(std::time(nullptr));
        std::printf("%s\n", rpc::make_jwt(*key, at).c_str());
    });
}

}  // namespace keel::cli
