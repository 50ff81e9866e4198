#pragma once
/// eth_subscribe / eth_unsubscribe over WebSocket (geth's eth/filters "pub-sub"): a connection
/// subscribes to
/// - "newHeads": each new canonical block's header (eth_getBlockByNumber's header members);
/// - "logs" [, {address, topics}]: each log of a new canonical block that matches, one
///   notification per log (eth_getLogs' objects);
/// - "newPendingTransactions" [, true]: the hash of each transaction the pool takes (with
///   true: the whole transaction);
/// and receives {"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription": id,
/// "result": ...}} for each. eth_unsubscribe(id) ends one (true; false for an id the connection
/// does not hold).
///
/// One notifier thread watches the store's head and hears from the pool (its listener, set for
/// the Subscriptions' life): it looks when wake() is called (the engine moved the head) or the
/// pool took a transaction, and every 250 ms in any case. New
/// blocks are reported in order, at most 1,024 a look; after a reorganisation the new branch's
/// blocks are reported from the common ancestor on, after the logs of the blocks it dropped,
/// re-sent with "removed": true (kept for the last 128 blocks, at most 65,536 logs). Memory is
/// bounded: at most 16 subscriptions a connection, and a connection whose sink refuses a message
/// (its send queue is full: a client that does not read) loses its subscriptions.
///
/// Threading: handle() from the connections' threads, the notifications from the notifier's;
/// sinks must be callable from any thread.

#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "keel/rpc/methods.hpp"

namespace keel::rpc {

class Subscriptions {
  public:
    /// Takes one message for the connection; false when it cannot (the connection is gone or
    /// its queue is full), which ends the connection's subscriptions.
    using Sink = std::function<bool(std::string message)>;
    /// A connection's handle; its subscriptions end when it goes.
    class Connection;

    /// Starts the notifier thread over `node` (which must outlive this).
    explicit Subscriptions(const NodeContext& node);
    ~Subscriptions();
    Subscriptions(const Subscriptions&) = delete;
    Subscriptions& operator=(const Subscriptions&) = delete;

    [[nodiscard]] std::shared_ptr<Connection> connect(Sink sink);

    /// If `request` (one JSON-RPC request object) is eth_subscribe or eth_unsubscribe, answers
    /// it for `connection` into `out` and returns true; else false (the dispatcher's).
    bool handle(const std::shared_ptr<Connection>& connection, const nlohmann::json& request,
                std::string& out);

    /// Something may have changed (a head, the pool): look now.
    void wake();

    /// Subscriptions held now (all connections).
    std::size_t count() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// The most subscriptions one connection may hold.
inline constexpr std::size_t kMaxSubscriptionsPerConnection = 16;

}  // namespace keel::rpc
