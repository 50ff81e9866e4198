#pragma once
/// rpc::HttpServer: JSON-RPC over HTTP/1.1 on Boost.Beast (docs/architecture.md says why),
/// answering each POST's body with a Dispatcher. Keep-alive; one request at a time per
/// connection; every connection served on a pool of threads. What it refuses, before reading
/// a body it would not keep (geth's answers):
/// - a body over Limits::max_body: 413;
/// - a Host that is neither an IP address nor one of HttpOptions::vhosts: 403 "invalid host
///   specified" (DNS rebinding: a web page's script reaching a loopback node by a name);
/// - a method other than POST: 405; an OPTIONS with Access-Control-Request-Method (a CORS
///   preflight) is answered 204, with the CORS headers when its Origin is allowed;
/// - a Content-Type other than application/json: 415;
/// - with HttpOptions::authorize, a request it refuses: 401;
/// - a client that sends nothing for Limits::idle_seconds, or takes longer than that over one
///   request: the connection is closed.
/// An answer to one request (not a batch) that grows past 1 MiB while it is written (a block's
/// traces, eth_getLogs) streams: chunked transfer encoding, each chunk sent as the writer
/// reaches a flush point (common/answer_stream.hpp), so the server holds about a megabyte of it
/// at a time; the whole answer must be read within Limits::idle_seconds. An error after part of
/// it left cuts it short (the connection closes before the last chunk). Over WebSocket the same
/// answer streams as the fragments of one message (continuation frames), within the same time.
/// Every answer to a request whose Origin is one of HttpOptions::cors_origins carries
/// Access-Control-Allow-Origin (geth's --http.corsdomain; none by default, so browsers refuse to
/// show a page another site's answers).
/// start() binds and listens (port 0: the OS picks one, port() tells which); stop() stops
/// accepting, closes the connections and returns when every thread is done.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keel/common/result.hpp"
#include "keel/rpc/dispatcher.hpp"

namespace keel::rpc {

class Subscriptions;

struct HttpOptions {
    std::string address = "127.0.0.1";  ///< loopback unless asked otherwise
    std::uint16_t port = 8545;
    unsigned threads = 0;             ///< 0: one per core
    std::size_t max_body = 5u << 20;  ///< geth's 5 MB
    unsigned idle_seconds = 30;
    /// Origins a browser may read answers from ("*": any), compared without case; empty: none.
    std::vector<std::string> cors_origins;
    /// Host names accepted in the Host header ("*": any), compared without case; an IP address
    /// (or no Host at all) is always accepted. geth's default: localhost.
    std::vector<std::string> vhosts{"localhost"};
    /// WebSocket upgrades accepted too (geth's --ws): each text message a request or a batch;
    /// an upgrade with an Origin header needs that origin in cors_origins.
    bool websocket = false;
    /// With websocket: a connection whose client said nothing for this long is pinged, and
    /// closed when it says nothing for as long again (geth pings every 30 s too).
    unsigned ws_ping_seconds = 30;
    /// With websocket: eth_subscribe and eth_unsubscribe (must outlive the server); null: they
    /// are the dispatcher's.
    Subscriptions* subscriptions = nullptr;
    /// When set, every request's Authorization header is given to it first: a reason refuses
    /// the request with 401 and that reason, before its body is handled (the Engine API's JWT,
    /// jwt.hpp).
    std::function<std::optional<std::string>(std::string_view authorization)> authorize;
};

class HttpServer {
  public:
    HttpServer(const Dispatcher& dispatcher, HttpOptions options);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    /// Binds, listens and starts serving. Errors: "http: cannot listen on 127.0.0.1:8545:
    /// Address already in use".
    [[nodiscard]] Result<void, std::string> start();
    /// The port it listens on (after start()).
    std::uint16_t port() const noexcept;
    void stop();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace keel::rpc
