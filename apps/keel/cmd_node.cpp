// keel node --datadir D [--http.addr A] [--http.port P] [--http.threads N]: the chain store
// served over JSON-RPC (keel/rpc). Issue 28, first part: the HTTP server, the methods that
// answer from the node, blocks, state and receipts; the transaction, log and trace methods, the
// Engine API, WebSocket and the transaction pool follow. SIGINT or SIGTERM stops it (exit 0).

#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include "apps/keel/commands.hpp"
#include "apps/keel/datadir.hpp"
#include "keel/rpc/http_server.hpp"
#include "keel/rpc/methods.hpp"

namespace keel::cli {
namespace {

struct NodeArgs {
    std::string datadir;
    rpc::HttpOptions http;
    std::uint64_t max_log_blocks = 100'000;
    std::uint64_t max_logs = 100'000;
};

void run_node(const NodeArgs& a) {
    // The stop signals are taken by this thread alone (sigwait below): block them before any
    // server thread starts, so that every thread inherits the mask.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    const std::string what = "node";
    store::ChainStore chain = open_datadir(a.datadir, Access::read);
    const eth::ChainConfig config = chain_rules(chain, what);
    const std::uint64_t chain_id = config.chain_id.as_u64();
    rpc::Dispatcher dispatcher;
    rpc::add_methods(dispatcher, rpc::NodeContext{.store = chain,
                                                  .config = config,
                                                  .info = {.client_version =
                                                               "keel/v" KEEL_VERSION "/linux-amd64",
                                                           .chain_id = chain_id,
                                                           .network_id = chain_id},
                                                  .max_log_blocks = a.max_log_blocks,
                                                  .max_logs = a.max_logs});

    rpc::HttpServer server(dispatcher, a.http);
    if (auto started = server.start(); !started) throw Failure{kExitBadData, started.error()};
    auto head = chain.head();
    std::printf("node: JSON-RPC over HTTP on http://%s:%u (chain id %llu, head %llu)\n",
                a.http.address.c_str(), static_cast<unsigned>(server.port()),
                static_cast<unsigned long long>(chain_id),
                static_cast<unsigned long long>(head && *head ? **head : 0));
    std::fflush(stdout);

    int signal = 0;
    sigwait(&stop_signals, &signal);
    std::printf("node: %s: stopping\n", signal == SIGINT ? "SIGINT" : "SIGTERM");
    std::fflush(stdout);
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
    node->add_option("--rpc.logs.maxblocks", args->max_log_blocks,
                     "eth_getLogs: the most blocks one query may span (default 100000)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
    node->add_option("--rpc.logs.maxresults", args->max_logs,
                     "eth_getLogs: the most logs one query may return (default 100000)")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
    node->callback([args] { run_node(*args); });
}

}  // namespace keel::cli
