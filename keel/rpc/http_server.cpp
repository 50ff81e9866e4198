#include "keel/rpc/http_server.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "keel/common/answer_stream.hpp"
#include "keel/rpc/subscriptions.hpp"

namespace keel::rpc {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// Writes `bytes` on `socket` now, the calling (serving) thread waiting, until `deadline`: a
// client that stops reading loses its answer. The streamed answers' path (HTTP chunks and
// WebSocket frames), where the serving thread is writing the answer anyway.
bool send_within(tcp::socket& socket, std::string_view bytes,
                 std::chrono::steady_clock::time_point deadline) {
    beast::error_code ec;
    socket.non_blocking(true, ec);
    if (ec) return false;
    const int fd = socket.native_handle();
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n > 0) {
            bytes.remove_prefix(static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return false;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLOUT, 0};
        (void)::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
    }
    return true;
}

// The head of a WebSocket frame a server sends (RFC 6455 section 5.2: unmasked): a text frame
// when `first`, a continuation otherwise; FIN when `last`; the payload's length in 7, 16 or
// 64 bits.
std::string ws_frame_head(bool first, bool last, std::size_t length) {
    std::string h;
    h.push_back(static_cast<char>((last ? 0x80 : 0x00) | (first ? 0x1 : 0x0)));
    if (length < 126) {
        h.push_back(static_cast<char>(length));
    } else if (length <= 0xffff) {
        h.push_back(static_cast<char>(126));
        for (int shift = 8; shift >= 0; shift -= 8)
            h.push_back(static_cast<char>((length >> shift) & 0xff));
    } else {
        h.push_back(static_cast<char>(127));
        for (int shift = 56; shift >= 0; shift -= 8)
            h.push_back(static_cast<char>((static_cast<std::uint64_t>(length) >> shift) & 0xff));
    }
    return h;
}

// An open connection, HTTP or WebSocket, as stop() closes it.
class Connection {
  public:
    virtual ~Connection() = default;
    virtual void close() = 0;
};

// The connections open now, so that stop() can close them.
struct Registry {
    std::mutex mutex;
    std::set<std::shared_ptr<Connection>> open;
    bool stopping = false;  // no more sessions join once stop() has taken the list
};

// A WebSocket connection (HttpOptions::websocket): each text message is a request (or batch)
// answered by the dispatcher, or eth_subscribe / eth_unsubscribe answered by the
// subscriptions. Everything the server sends goes out through one queue, in order: answers,
// notifications (from any thread) and keep-alive pings, bounded in bytes: a client that stops
// reading is disconnected instead of growing it. An answer to one request that grows past
// AnswerStream's flush size (a block's traces) is not queued: it streams as WebSocket
// fragments, written by the serving thread while the dispatcher writes the answer (as HTTP's
// chunks are), so the server holds a megabyte of it at a time, not the answer. Fragments of
// one message must not interleave with other frames, so the serving thread answers only while
// no queued write is in flight (a request that arrives during one waits for it to finish) and
// queued messages wait for the answer (a streamed answer may so overtake notifications queued
// before it; a queued answer goes ahead of those queued while it was answered). Beast's own
// keep-alive pings would be writes outside the queue: the session sends its own instead
// (HttpOptions::ws_ping_seconds).
class WsSession final : public Connection, public std::enable_shared_from_this<WsSession> {
  public:
    static constexpr std::size_t kMaxQueued = 16u << 20;

    WsSession(beast::tcp_stream stream, const Dispatcher& dispatcher, const HttpOptions& options,
              Registry& registry)
        : ws_(std::move(stream)),
          timer_(ws_.get_executor()),
          dispatcher_(dispatcher),
          options_(options),
          registry_(registry) {}

    void start(http::request<http::string_body> req) {
        {
            std::lock_guard lock(registry_.mutex);
            if (registry_.stopping) return;
            registry_.open.insert(shared_from_this());
        }
        beast::get_lowest_layer(ws_).expires_never();  // the websocket's own timeouts from here
        websocket::stream_base::timeout t{};
        t.handshake_timeout = std::chrono::seconds(30);
        t.idle_timeout = websocket::stream_base::none();
        t.keep_alive_pings = false;  // the session's own, through its queue (arm_ping)
        ws_.set_option(t);
        ws_.read_message_max(options_.max_body);
        ws_.control_callback([this](websocket::frame_type, beast::string_view) { heard_ = true; });
        ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) {
            if (ec) return self->finish();
            if (self->options_.subscriptions != nullptr) {
                std::weak_ptr<WsSession> weak = self;
                self->subscriber_ =
                    self->options_.subscriptions->connect([weak](std::string message) {
                        auto s = weak.lock();
                        return s && s->enqueue(std::move(message));
                    });
            }
            self->arm_ping();
            self->read();
        });
    }

    void close() override {
        asio::post(ws_.get_executor(), [self = shared_from_this()] {
            beast::error_code ec;
            self->timer_.cancel();
            beast::get_lowest_layer(self->ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
            beast::get_lowest_layer(self->ws_).close();
        });
    }

    // From any thread: queues `message`; false when the queue is full or the connection gone.
    bool enqueue(std::string message) { return push(Out{std::move(message), false}); }

  private:
    struct Out {
        std::string text;
        bool ping = false;  ///< a ping frame, not a message
    };

    bool push(Out out) {
        std::lock_guard lock(queue_mutex_);
        if (closed_ || queued_bytes_ + out.text.size() > kMaxQueued) return false;
        queued_bytes_ += out.text.size();
        queue_.push_back(std::move(out));
        if (!writing_ && !answering_) {
            writing_ = true;
            asio::post(ws_.get_executor(), [self = shared_from_this()] { self->write_next(); });
        }
        return true;
    }

    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            self->on_read(ec);
        });
    }

    void on_read(beast::error_code ec) {
        if (ec) return finish();
        heard_ = true;
        std::string request = beast::buffers_to_string(buffer_.data());
        buffer_.consume(buffer_.size());
        {
            std::lock_guard lock(queue_mutex_);
            answering_ = true;  // no queued write starts until the answer is out
            if (writing_) {     // one is in flight: write_next answers once it is done
                held_ = std::move(request);
                return;
            }
        }
        answer(request);
    }

    // Answers `request` (answering_ set, no write in flight), then reads the next one.
    void answer(const std::string& request) {
        std::size_t slot = 0;  // where a queued answer goes: before what queues meanwhile
        {
            std::lock_guard lock(queue_mutex_);
            slot = queue_.size();
        }
        std::string out;
        bool handled = false;
        if (subscriber_ && request.find("eth_", 0) != std::string::npos &&
            (request.find("eth_subscribe") != std::string::npos ||
             request.find("eth_unsubscribe") != std::string::npos)) {
            const auto j = nlohmann::json::parse(request, nullptr, false);
            if (!j.is_discarded()) handled = options_.subscriptions->handle(subscriber_, j, out);
        }
        bool ok = true;
        if (!handled) {
            const auto lead = request.find_first_not_of(" \t\r\n");
            if (lead != std::string::npos && request[lead] == '[') {
                dispatcher_.handle(request, out);  // a batch: answered whole
            } else {
                first_fragment_ = true;
                deadline_ =
                    std::chrono::steady_clock::now() + std::chrono::seconds(options_.idle_seconds);
                keel::json::AnswerStream stream(
                    out, [this](std::string_view chunk) { return send_fragment(chunk, false); });
                dispatcher_.handle(request, out);
                if (stream.flushed()) {
                    // The rest as the last fragment; a broken answer is cut short by closing.
                    ok = !stream.broken() && !stream.failed() && send_fragment(out, true);
                    out.clear();
                }
            }
        }
        {
            std::lock_guard lock(queue_mutex_);
            answering_ = false;
            if (ok && !out.empty()) {
                ok = !closed_ && queued_bytes_ + out.size() <= kMaxQueued;
                if (ok) {
                    // Ahead of the notifications queued while it was answered: an
                    // eth_subscribe's answer precedes its subscription's first notification.
                    queued_bytes_ += out.size();
                    queue_.insert(queue_.begin() + static_cast<std::ptrdiff_t>(slot),
                                  Out{std::move(out), false});
                }
            }
            if (ok && !writing_ && !queue_.empty()) {
                writing_ = true;
                asio::post(ws_.get_executor(), [self = shared_from_this()] { self->write_next(); });
            }
        }
        if (!ok) return close();
        read();
    }

    // One fragment of a streamed answer, written now within the answer's deadline.
    bool send_fragment(std::string_view bytes, bool last) {
        if (bytes.empty() && !last) return true;
        const std::string head = ws_frame_head(first_fragment_, last, bytes.size());
        first_fragment_ = false;
        auto& socket = beast::get_lowest_layer(ws_).socket();
        return send_within(socket, head, deadline_) && send_within(socket, bytes, deadline_);
    }

    void write_next() {
        Out* next = nullptr;
        std::optional<std::string> held;
        {
            std::lock_guard lock(queue_mutex_);
            if (closed_ || (queue_.empty() && !answering_)) {
                writing_ = false;
                return;
            }
            if (answering_) {  // a request arrived while a write was in flight: answer it now
                writing_ = false;
                held = std::move(held_);
                held_.clear();
            } else {
                next = &queue_.front();  // stays put: a deque keeps its elements when pushed to
            }
        }
        if (held) return answer(*held);
        auto done = [self = shared_from_this()](beast::error_code ec, std::size_t = 0) {
            self->on_written(ec);
        };
        if (next->ping) {
            ws_.async_ping({}, done);
        } else {
            ws_.text(true);
            ws_.async_write(asio::buffer(next->text), done);
        }
    }

    void on_written(beast::error_code ec) {
        {
            std::lock_guard lock(queue_mutex_);
            queued_bytes_ -= queue_.front().text.size();
            queue_.pop_front();
        }
        if (ec) return finish();
        write_next();
    }

    // Every ws_ping_seconds: a ping when the client said nothing since the last tick; closed
    // when it said nothing since the ping before.
    void arm_ping() {
        timer_.expires_after(std::chrono::seconds(std::max(1u, options_.ws_ping_seconds)));
        timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
            if (ec || self->is_closed()) return;
            if (self->heard_) {
                self->heard_ = false;
                self->pinged_ = false;
            } else if (self->pinged_) {
                return self->close();
            } else {
                self->pinged_ = true;
                if (!self->push(Out{{}, true})) return self->close();
            }
            self->arm_ping();
        });
    }

    bool is_closed() {
        std::lock_guard lock(queue_mutex_);
        return closed_;
    }

    void finish() {
        {
            std::lock_guard lock(queue_mutex_);
            closed_ = true;
        }
        timer_.cancel();
        subscriber_.reset();
        std::lock_guard lock(registry_.mutex);
        registry_.open.erase(shared_from_this());
    }

    websocket::stream<beast::tcp_stream> ws_;
    asio::steady_timer timer_;
    beast::flat_buffer buffer_;
    const Dispatcher& dispatcher_;
    const HttpOptions& options_;
    Registry& registry_;
    std::shared_ptr<Subscriptions::Connection> subscriber_;
    // Serving thread only:
    bool heard_ = false;   ///< the client sent something since the last ping tick
    bool pinged_ = false;  ///< a ping went out at the last tick
    bool first_fragment_ = true;
    std::chrono::steady_clock::time_point deadline_;  ///< for the streamed answer
    std::string held_;  ///< the request waiting for the write in flight (answering_)
    // Shared with enqueue()'s threads, under queue_mutex_:
    std::mutex queue_mutex_;
    std::deque<Out> queue_;
    std::size_t queued_bytes_ = 0;
    bool writing_ = false;    ///< a queued write is in flight (or posted)
    bool answering_ = false;  ///< a request is being answered: queued writes wait
    bool closed_ = false;
};

class Session final : public Connection, public std::enable_shared_from_this<Session> {
  public:
    Session(tcp::socket socket, const Dispatcher& dispatcher, const HttpOptions& options,
            Registry& registry)
        : stream_(std::move(socket)),
          dispatcher_(dispatcher),
          options_(options),
          registry_(registry) {}

    void start() {
        {
            std::lock_guard lock(registry_.mutex);
            if (registry_.stopping) return;  // the socket closes with the session
            registry_.open.insert(shared_from_this());
        }
        read();
    }

    void close() override {
        asio::post(stream_.get_executor(), [self = shared_from_this()] {
            beast::error_code ec;
            self->stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
            self->stream_.close();
        });
    }

  private:
    void read() {
        parser_.emplace();
        parser_->body_limit(options_.max_body);
        parser_->header_limit(16 * 1024);
        stream_.expires_after(std::chrono::seconds(options_.idle_seconds));
        http::async_read(
            stream_, buffer_, *parser_,
            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
    }

    void on_read(beast::error_code ec) {
        if (ec == http::error::body_limit)
            return respond_status(http::status::payload_too_large, "request body too large", false);
        if (ec) return finish();
        const auto& req = parser_->get();
        origin_ = allowed_origin(req[http::field::origin]);
        if (req.method() == http::verb::options &&
            req.find(http::field::access_control_request_method) != req.end()) {
            return respond(http::status::no_content, {}, {}, req.keep_alive());
        }
        if (!host_allowed(req[http::field::host])) {
            return respond_status(http::status::forbidden, "invalid host specified",
                                  req.keep_alive());
        }
        if (options_.websocket && websocket::is_upgrade(req)) {
            // A browser page may open a WebSocket to any host: only allowed origins may.
            if (req.find(http::field::origin) != req.end() && origin_.empty()) {
                return respond_status(http::status::forbidden, "origin not allowed", false);
            }
            auto ws =
                std::make_shared<WsSession>(std::move(stream_), dispatcher_, options_, registry_);
            ws->start(parser_->release());
            std::lock_guard lock(registry_.mutex);
            registry_.open.erase(shared_from_this());
            return;
        }
        if (options_.authorize) {
            const auto auth = req[http::field::authorization];
            if (auto refused = options_.authorize(std::string_view(auth.data(), auth.size())))
                return respond_status(http::status::unauthorized, *refused, req.keep_alive());
        }
        if (req.method() != http::verb::post) {
            return respond_status(http::status::method_not_allowed, "method not allowed",
                                  req.keep_alive());
        }
        const auto type = req[http::field::content_type];
        if (!type.starts_with("application/json")) {
            return respond_status(http::status::unsupported_media_type,
                                  "invalid content type, only application/json is supported",
                                  req.keep_alive());
        }
        // One request may stream its answer as chunks while it is written (a block's traces):
        // the buffer is then bounded by AnswerStream's flush size, not by the answer.
        const std::string& payload = req.body();
        const auto lead = payload.find_first_not_of(" \t\r\n");
        const bool keep_alive = req.keep_alive();
        std::string body;
        bool streamed = false;
        bool broken = false;
        if (lead == std::string::npos || payload[lead] != '[') {
            chunked_ = false;
            keel::json::AnswerStream stream(body, [this, keep_alive](std::string_view chunk) {
                return send_chunk(chunk, keep_alive);
            });
            dispatcher_.handle(payload, body);
            streamed = stream.flushed();
            broken = stream.broken() || stream.failed();
        } else {
            dispatcher_.handle(payload, body);
        }
        if (!streamed)
            return respond(http::status::ok, std::move(body), "application/json", keep_alive);
        // The rest and the last chunk; a broken answer is cut short by closing the connection.
        if (!broken && send_chunk(body, keep_alive) && send_all("0\r\n\r\n") && keep_alive)
            return read();
        finish();
    }

    // Writes `bytes` now, within the answer's deadline (send_within).
    bool send_all(std::string_view bytes) {
        return send_within(stream_.socket(), bytes, deadline_);
    }

    // One chunk of a streamed answer, after the response's head the first time.
    bool send_chunk(std::string_view chunk, bool keep_alive) {
        if (!chunked_) {
            chunked_ = true;
            deadline_ =
                std::chrono::steady_clock::now() + std::chrono::seconds(options_.idle_seconds);
            std::string head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: "
                "chunked\r\n";
            if (!origin_.empty())
                head += "Access-Control-Allow-Origin: " + origin_ + "\r\nVary: Origin\r\n";
            if (!keep_alive) head += "Connection: close\r\n";
            head += "\r\n";
            if (!send_all(head)) return false;
        }
        if (chunk.empty()) return true;  // an empty chunk would end the answer
        char size[32];
        const int n = std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
        return send_all(std::string_view(size, static_cast<std::size_t>(n))) && send_all(chunk) &&
               send_all("\r\n");
    }

    void respond_status(http::status status, std::string_view text, bool keep_alive) {
        respond(status, std::string(text) + "\n", "text/plain", keep_alive);
    }

    // The Origin to name in Access-Control-Allow-Origin ("*" when any is allowed), or empty.
    std::string allowed_origin(beast::string_view origin) const {
        if (origin.empty()) return {};
        for (const std::string& o : options_.cors_origins) {
            if (o == "*") return "*";
            if (beast::iequals(o, origin)) return std::string(origin);
        }
        return {};
    }

    // geth's virtual-host check: the Host header's name without its port.
    bool host_allowed(beast::string_view host) const {
        if (host.empty()) return true;
        std::string_view name(host.data(), host.size());
        if (name.starts_with('[')) {
            name = name.substr(
                1, name.find(']') == std::string_view::npos ? name.size() - 1 : name.find(']') - 1);
        } else if (std::count(name.begin(), name.end(), ':') == 1) {
            name = name.substr(0, name.find(':'));
        }
        beast::error_code ec;
        (void)asio::ip::make_address(std::string(name), ec);
        if (!ec) return true;
        for (const std::string& v : options_.vhosts)
            if (v == "*" || beast::iequals(v, beast::string_view(name.data(), name.size())))
                return true;
        return false;
    }

    void respond(http::status status, std::string body, std::string_view type, bool keep_alive) {
        response_.emplace(status, 11);
        if (!type.empty())
            response_->set(http::field::content_type, beast::string_view(type.data(), type.size()));
        if (!origin_.empty()) {
            response_->set(http::field::access_control_allow_origin, origin_);
            response_->set(http::field::vary, "Origin");
            if (status == http::status::no_content) {  // a preflight
                response_->set(http::field::access_control_allow_methods, "POST, GET");
                response_->set(http::field::access_control_allow_headers, "*");
                response_->set(http::field::access_control_max_age, "600");
            }
        }
        response_->keep_alive(keep_alive);
        response_->body() = std::move(body);
        response_->prepare_payload();
        stream_.expires_after(std::chrono::seconds(options_.idle_seconds));
        http::async_write(
            stream_, *response_,
            [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                if (ec || !keep_alive) return self->finish();
                self->read();
            });
    }

    void finish() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        std::lock_guard lock(registry_.mutex);
        registry_.open.erase(shared_from_this());
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::optional<http::response<http::string_body>> response_;
    std::string origin_;    ///< the current request's allowed Origin, or empty
    bool chunked_ = false;  ///< the current answer is streaming: its head has been sent
    std::chrono::steady_clock::time_point deadline_;  ///< for the whole streamed answer
    const Dispatcher& dispatcher_;
    const HttpOptions& options_;
    Registry& registry_;
};

}  // namespace

// One io_context per serving thread, each run by that thread alone: a connection stays on the
// context it was given when accepted, so its handlers never run on two threads and need no
// strand, and the threads share no scheduler lock (Asio's io_context-per-core layout). The
// acceptor runs on the first context and hands connections out in turn.
struct HttpServer::Impl {
    using Guard = asio::executor_work_guard<asio::io_context::executor_type>;
    const Dispatcher& dispatcher;
    HttpOptions options;
    std::vector<std::unique_ptr<asio::io_context>> contexts;
    std::vector<Guard> guards;  ///< keep each context running while it has no connection
    std::optional<tcp::acceptor> acceptor;
    std::vector<std::thread> threads;
    Registry registry;
    std::atomic<bool> stopping{false};
    std::uint16_t port = 0;
    std::size_t next = 0;  ///< the context the next connection goes to (the acceptor's thread)
    std::optional<asio::steady_timer> retry;  ///< after a failed accept

    Impl(const Dispatcher& d, HttpOptions o) : dispatcher(d), options(std::move(o)) {
        const unsigned n = options.threads != 0 ? options.threads
                                                : std::max(1u, std::thread::hardware_concurrency());
        for (unsigned i = 0; i < n; ++i) {
            contexts.push_back(std::make_unique<asio::io_context>(1));
            guards.emplace_back(asio::make_work_guard(*contexts.back()));
        }
        acceptor.emplace(*contexts.front());
        retry.emplace(*contexts.front());
    }

    void accept() {
        asio::io_context& target = *contexts[next];
        next = (next + 1) % contexts.size();
        acceptor->async_accept(target, [this](beast::error_code ec, tcp::socket s) {
            if (stopping.load()) return;
            if (!ec) {
                std::make_shared<Session>(std::move(s), dispatcher, options, registry)->start();
                return accept();
            }
            // Out of file descriptors (EMFILE) or another failure that would come straight back:
            // try again in 50 ms rather than spin on it; the connections already open go on.
            retry->expires_after(std::chrono::milliseconds(50));
            retry->async_wait([this](beast::error_code) {
                if (!stopping.load()) accept();
            });
        });
    }
};

HttpServer::HttpServer(const Dispatcher& dispatcher, HttpOptions options)
    : impl_(std::make_unique<Impl>(dispatcher, std::move(options))) {}

HttpServer::~HttpServer() {
    stop();
}

Result<void, std::string> HttpServer::start() {
    Impl& m = *impl_;
    const std::string where = m.options.address + ":" + std::to_string(m.options.port);
    beast::error_code ec;
    const auto address = asio::ip::make_address(m.options.address, ec);
    if (ec) return unexpected("http: " + m.options.address + " is not an IP address");
    const tcp::endpoint endpoint(address, m.options.port);
    m.acceptor->open(endpoint.protocol(), ec);
    if (!ec) m.acceptor->set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) m.acceptor->bind(endpoint, ec);
    if (!ec) m.acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return unexpected("http: cannot listen on " + where + ": " + ec.message());
    m.port = m.acceptor->local_endpoint().port();
    m.accept();
    for (auto& io : m.contexts) m.threads.emplace_back([&io] { io->run(); });
    return {};
}

std::uint16_t HttpServer::port() const noexcept {
    return impl_->port;
}

void HttpServer::stop() {
    Impl& m = *impl_;
    if (m.stopping.exchange(true)) return;
    asio::post(*m.contexts.front(), [&m] {
        beast::error_code ec;
        m.acceptor->close(ec);
        m.retry->cancel();
    });
    std::vector<std::shared_ptr<Connection>> open;
    {
        std::lock_guard lock(m.registry.mutex);
        m.registry.stopping = true;
        open.assign(m.registry.open.begin(), m.registry.open.end());
    }
    for (auto& s : open) s->close();
    // Each io_context runs out of work once the acceptor and its connections are closed.
    for (auto& g : m.guards) g.reset();
    for (std::thread& t : m.threads) t.join();
    m.threads.clear();
}

}  // namespace keel::rpc
