// keel p2p ...: the RLPx transport (keel/rlpx) from the command line.
//
//   keel p2p listen [--host H] [--port P] [--nodekey FILE] [--protocols LIST] [--once] [--echo]
//                   [--quiet] [--timeout S] [--max-peers N] [--max-pending N]
//       prints its enode URL, then one JSON line per event: each peer's Hello, its messages,
//       its Disconnect, and every connection refused (bad handshake, timeout, no room); answers
//       Ping; --echo sends every capability message back. Peers are served concurrently
//       (rlpx::Listener): up to --max-peers sessions, --max-pending handshakes at once, each
//       handshake bounded by --timeout.
//   keel p2p dial ENODE [--nodekey FILE] [--protocols LIST] [--status] [--stream N | --flood N]
//                       [--size BYTES] [--timeout S]
//       connects, prints the peer's Hello, pings, optionally exchanges eth/68 Status (mirroring
//       the peer's network, genesis and fork id), streams N messages of BYTES that the peer
//       echoes back (checked) or floods N messages back to back, then disconnects ("requested").
//       `listen --quiet` prints totals (MB/s, recv calls per frame) in its Disconnect line.
//
// The loopback benchmark that was `keel p2p bench` is keel-bench's BM_RlpxLoopback
// (bench/p2p_loopback_bench.cpp). The node key file holds 64 hex digits (geth's nodekey
// format); without one a random key is used. --protocols lists the capabilities to run, e.g.
// "eth/68,snap/1" (default eth/68); protocols keel does not know need their message count:
// "foo/1:5". Bad input (malformed enode, unreadable key) and failures (unreachable peer, refused
// handshake, protocol error) print one line and exit 1 (2 for usage errors).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/common/hex.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/rlpx/listener.hpp"
#include "keel/rlpx/session.hpp"

namespace keel::cli {
namespace {

using namespace std::chrono_literals;
using rlpx::Clock;

/// eth BlockBodies, the message the stream, flood and bench modes send.
constexpr std::uint64_t kBlockBodies = 0x06;

rlpx::NodeKey load_node_key(const std::optional<std::string>& path) {
    if (!path) {
        auto k = rlpx::generate_node_key();
        if (!k) throw Failure{kExitBadData, "p2p: no randomness for a node key"};
        return *k;
    }
    std::string text = read_text_arg("@" + *path, "p2p: node key");
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    auto secret = hex::decode_fixed<Bytes32>(text);
    if (!secret) {
        throw Failure{kExitBadData, fmt::format("p2p: node key {}: want 64 hex digits ({})", *path,
                                                to_string(secret.error()))};
    }
    auto k = rlpx::node_key_from_secret(*secret);
    if (!k)
        throw Failure{kExitBadData,
                      fmt::format("p2p: node key {}: not a valid secp256k1 key", *path)};
    return *k;
}

/// One JSON line; whole lines only, from any thread (peers are served concurrently). A peer's
/// client id that is not UTF-8 is printed with replacement characters, never thrown on.
void emit(const nlohmann::json& j) {
    static std::mutex out;
    const std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    const std::lock_guard<std::mutex> lock(out);
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

nlohmann::json hello_json(const rlpx::Session& s) {
    const rlpx::Hello& h = s.peer_hello();
    nlohmann::json caps = nlohmann::json::array();
    for (const auto& c : h.capabilities) caps.push_back(rlpx::to_string(c));
    nlohmann::json shared = nlohmann::json::array();
    for (const auto& c : s.shared_capabilities())
        shared.push_back({{"capability", rlpx::to_string(c.capability)},
                          {"offset", c.offset},
                          {"length", c.length}});
    return {{"event", "hello"},
            {"client", h.client_id},
            {"version", h.protocol_version},
            {"capabilities", caps},
            {"shared", shared},
            {"listen_port", h.listen_port},
            {"id", hex::encode(h.node_id.view())},
            {"address", s.peer_address()}};
}

[[noreturn]] void session_failure(std::string_view what, const rlpx::SessionError& e) {
    throw Failure{kExitBadData, fmt::format("p2p {}: {}", what, rlpx::to_string(e))};
}

/// A BlockBodies-shaped message: [request-id, [blob]] with a blob of `size` bytes.
Bytes stream_message(std::uint64_t id, std::size_t size) {
    Bytes blob(size);
    for (std::size_t i = 0; i < size; ++i)
        blob[i] = static_cast<std::uint8_t>((i * 2654435761u + id) >> 7);
    rlp::Encoder enc;
    const auto outer = enc.begin_list();
    enc.add_uint(id);
    const auto inner = enc.begin_list();
    enc.add_string(blob);
    enc.end_list(inner);
    enc.end_list(outer);
    return enc.take();
}

/// `size` pseudo-random bytes (xorshift): incompressible, so snappy passes them through, like
/// block and transaction data.
Bytes incompressible_bytes(std::size_t size) {
    Bytes out(size);
    std::uint64_t x = 0x9e3779b97f4a7c15;
    for (auto& byte : out) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        byte = static_cast<std::uint8_t>(x);
    }
    return out;
}

/// --protocols: "name/version[:messages],..." (the count may be left out for known protocols).
std::vector<rlpx::Protocol> parse_protocols(std::string_view list) {
    std::vector<rlpx::Protocol> out;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string_view item = list.substr(start, comma - start);
        start = comma + 1;
        const auto bad = [&](std::string_view why) {
            return Failure{kExitUsage, fmt::format("p2p: --protocols: \"{}\": {}", item, why)};
        };
        const std::size_t slash = item.find('/');
        if (slash == 0 || slash == std::string_view::npos) throw bad("want name/version");
        const std::size_t colon = item.find(':', slash);
        const auto number = [&](std::string_view digits, std::string_view what) {
            std::uint64_t v = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
            if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
                throw bad(fmt::format("{} is not a number", what));
            return v;
        };
        rlpx::Protocol p;
        p.capability.name = std::string(item.substr(0, slash));
        const std::size_t vend = colon == std::string_view::npos ? item.size() : colon;
        p.capability.version = number(item.substr(slash + 1, vend - slash - 1), "the version");
        if (colon != std::string_view::npos) {
            p.length = number(item.substr(colon + 1), "the message count");
        } else if (auto known =
                       rlpx::known_protocol_length(p.capability.name, p.capability.version)) {
            p.length = *known;
        } else {
            throw bad("unknown protocol: give its message count (name/version:count)");
        }
        if (p.length == 0) throw bad("a protocol needs at least one message");
        out.push_back(std::move(p));
    }
    return out;
}

/// One peer's session for `keel p2p listen`, on the peer's thread: its Hello, its messages
/// (echoed with --echo), then its Disconnect with the totals.
void serve_peer(rlpx::Session& s, bool echo, bool quiet, std::chrono::milliseconds idle) {
    emit(hello_json(s));
    std::uint64_t count = 0, bytes = 0;
    Clock::time_point first{}, last{};
    const auto calls_before = rlpx::syscall_counts();
    const std::uint64_t frames_before = s.frames_received();
    for (;;) {
        auto m = s.receive(Clock::now() + idle);
        if (!m) {
            const auto& e = m.error();
            const double secs = std::chrono::duration<double>(last - first).count();
            const auto calls = rlpx::syscall_counts();
            const double frames = static_cast<double>(
                std::max<std::uint64_t>(1, s.frames_received() - frames_before));
            nlohmann::json totals = {
                {"messages", count},
                {"bytes", bytes},
                {"seconds", secs},
                {"MB_per_s", secs > 0 ? static_cast<double>(bytes) / secs / 1e6 : 0.0},
                {"messages_per_s", secs > 0 ? static_cast<double>(count) / secs : 0.0},
                // Process-wide counts: exact with one peer, as the benchmarks run it.
                {"recvs_per_frame",
                 static_cast<double>(calls.recvs - calls_before.recvs) / frames}};
            if (e.code == rlpx::SessionErrc::disconnected) {
                totals["event"] = "disconnect";
                totals["reason"] = static_cast<int>(e.reason);
                totals["reason_name"] = rlpx::describe(e.reason);
                emit(totals);
            } else {
                emit({{"event", "error"},
                      {"address", s.peer_address()},
                      {"message", rlpx::to_string(e)}});
                s.disconnect(e.code == rlpx::SessionErrc::timeout
                                 ? rlpx::DisconnectReason::ping_timeout
                                 : rlpx::DisconnectReason::breach_of_protocol);
            }
            return;
        }
        last = Clock::now();
        if (count == 0) first = last;
        ++count;
        bytes += m->payload.size();
        if (!quiet) {
            emit({{"event", "message"},
                  {"code", m->code},
                  {"capability", rlpx::to_string(m->capability->capability)},
                  {"message", m->message},
                  {"size", m->payload.size()}});
        }
        if (echo) {
            const Bytes copy(m->payload.begin(), m->payload.end());
            if (auto r = s.send(m->capability->capability.name, m->message, copy); !r) {
                emit({{"event", "error"}, {"message", rlpx::to_string(r.error())}});
                return;
            }
        }
    }
}

struct ListenArgs {
    std::string host = "127.0.0.1";
    std::uint16_t port = 30303;
    std::optional<std::string> nodekey;
    std::string protocols = "eth/68";
    bool once = false, echo = false, quiet = false;
    double timeout = 60;
    std::size_t max_peers = 50, max_pending = 64;
};

void run_listen(const ListenArgs& a, const std::vector<rlpx::Protocol>& protocols) {
    const rlpx::NodeKey key = load_node_key(a.nodekey);
    const auto idle = std::chrono::milliseconds(static_cast<long long>(a.timeout * 1000));
    rlpx::ListenerOptions options;
    options.host = a.host;
    options.port = a.port;
    options.max_peers = a.max_peers;
    options.max_pending = a.max_pending;
    options.session.client_id = "keel/" KEEL_VERSION;
    options.session.protocols = protocols;
    options.session.handshake_timeout = idle;

    // --once: the first peer whose session ends, or the first connection refused, ends the
    // command (exit 1 with the reason for a refusal).
    std::mutex m;
    std::condition_variable cv;
    bool finished = false;
    std::optional<std::string> failure;
    const auto on_peer = [&](rlpx::Session& s) {
        serve_peer(s, a.echo, a.quiet, idle);
        if (!a.once) return;
        const std::lock_guard<std::mutex> lock(m);
        finished = true;
        cv.notify_all();
    };
    const auto on_refused = [&](const std::string& address, const rlpx::SessionError& e) {
        if (!a.once) {
            emit({{"event", "error"}, {"address", address}, {"message", rlpx::to_string(e)}});
            return;
        }
        const std::lock_guard<std::mutex> lock(m);
        if (!finished) failure = "p2p listen: " + rlpx::to_string(e);
        finished = true;
        cv.notify_all();
    };
    auto listener = rlpx::Listener::start(key, options, on_peer, on_refused);
    if (!listener) {
        throw Failure{kExitBadData, fmt::format("p2p listen: {}:{}: {}", a.host, a.port,
                                                rlpx::to_string(listener.error()))};
    }
    rlpx::Enode self;
    self.id = key.id;
    self.host = a.host;
    self.port = (*listener)->port();
    std::printf("%s\n", rlpx::to_string(self).c_str());
    std::fflush(stdout);
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return finished && a.once; });  // without --once: until killed
    }
    (*listener)->stop();
    if (failure) throw Failure{kExitBadData, *failure};
}

void run_dial(const std::string& url, const std::optional<std::string>& key_path,
              const std::vector<rlpx::Protocol>& protocols, bool status, std::size_t stream,
              std::size_t flood, std::size_t size, double timeout_s) {
    auto peer = rlpx::parse_enode(url);
    if (!peer) throw Failure{kExitBadData, fmt::format("p2p dial: {}", to_string(peer.error()))};
    const rlpx::NodeKey key = load_node_key(key_path);
    rlpx::SessionOptions options;
    options.client_id = "keel/" KEEL_VERSION;
    options.protocols = protocols;
    options.handshake_timeout = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
    auto s = rlpx::Session::dial(key, *peer, options);
    if (!s) session_failure("dial", s.error());
    emit(hello_json(*s));
    const auto wait = [&] { return Clock::now() + options.handshake_timeout; };
    auto rtt = s->ping(wait());
    if (!rtt) session_failure("dial: ping", rtt.error());
    emit({{"event", "pong"}, {"rtt_us", rtt->count()}});
    if (status) {
        // Wait for the peer's Status, answer with one on the same chain.
        std::optional<rlpx::Status> theirs;
        while (!theirs) {
            auto m = s->receive(wait());
            if (!m) session_failure("dial: waiting for Status", m.error());
            if (m->capability->capability.name != "eth" || m->message != rlpx::kEthStatusCode)
                continue;
            auto st = rlpx::decode_status(m->payload);
            if (!st) {
                s->disconnect(rlpx::DisconnectReason::breach_of_protocol);
                throw Failure{kExitBadData,
                              fmt::format("p2p dial: Status: {}", rlpx::to_string(st.error()))};
            }
            theirs = *st;
        }
        rlpx::Status ours = *theirs;
        ours.head = theirs->genesis;
        Bytes payload;
        rlpx::encode_status(ours, payload);
        if (auto r = s->send("eth", rlpx::kEthStatusCode, payload); !r)
            session_failure("dial: Status", r.error());
        emit({{"event", "status"},
              {"network_id", theirs->network_id},
              {"genesis", hex::encode_prefixed(theirs->genesis.view())},
              {"fork_hash", hex::encode_prefixed(theirs->fork_id.hash.view())},
              {"fork_next", theirs->fork_id.next}});
    }
    const auto bodies = s->wire_code("eth", kBlockBodies);
    if ((stream > 0 || flood > 0) && !bodies) session_failure("dial", bodies.error());
    if (stream > 0) {
        const auto start = Clock::now();
        for (std::size_t i = 0; i < stream; ++i) {
            const Bytes msg = stream_message(i, size);
            if (auto r = s->send(*bodies, msg); !r) session_failure("dial: stream", r.error());
            for (;;) {
                auto m = s->receive(wait());
                if (!m) session_failure("dial: stream", m.error());
                if (m->code != *bodies) continue;
                if (!std::equal(m->payload.begin(), m->payload.end(), msg.begin(), msg.end())) {
                    s->disconnect(rlpx::DisconnectReason::subprotocol_specific);
                    throw Failure{
                        kExitBadData,
                        fmt::format("p2p dial: stream: message {} came back different ({} "
                                    "bytes sent, {} received)",
                                    i, msg.size(), m->payload.size())};
                }
                break;
            }
        }
        const double secs = std::chrono::duration<double>(Clock::now() - start).count();
        emit({{"event", "stream"},
              {"messages", stream},
              {"size", size},
              {"echoed", stream},
              {"seconds", secs}});
    }
    if (flood > 0) {
        const Bytes msg = incompressible_bytes(size);
        const auto before = rlpx::syscall_counts();
        const auto start = Clock::now();
        for (std::size_t i = 0; i < flood; ++i)
            if (auto r = s->send(*bodies, msg); !r) session_failure("dial: flood", r.error());
        const double secs = std::chrono::duration<double>(Clock::now() - start).count();
        const auto after = rlpx::syscall_counts();
        emit({{"event", "flood"},
              {"messages", flood},
              {"size", size},
              {"seconds", secs},
              {"MB_per_s", static_cast<double>(flood * size) / secs / 1e6},
              {"sends_per_frame",
               static_cast<double>(after.sends - before.sends) / static_cast<double>(flood)}});
    }
    s->disconnect(rlpx::DisconnectReason::requested);
    emit({{"event", "disconnect"}, {"reason", 0}, {"reason_name", "requested"}});
}

}  // namespace

void add_p2p_command(CLI::App& app) {
    auto* p2p = app.add_subcommand("p2p", "RLPx, the devp2p transport: listen, dial");
    p2p->require_subcommand(1);

    auto la = std::make_shared<ListenArgs>();
    auto* listen = p2p->add_subcommand(
        "listen", "Accept peers: print the enode URL, then each peer's Hello and messages");
    listen->add_option("--host", la->host, "address to listen on (default 127.0.0.1)");
    listen->add_option("--port", la->port, "TCP port (default 30303; 0: any free port)");
    listen->add_option("--nodekey", la->nodekey, "file with the node's secret key (64 hex digits)");
    listen->add_option("--protocols", la->protocols,
                       "capabilities to run, e.g. eth/68,snap/1 (default eth/68)");
    listen->add_flag(
        "--once", la->once,
        "exit after the first peer's session ends, or the first connection refused (exit 1)");
    listen->add_flag("--echo", la->echo, "send every capability message back to its sender");
    listen->add_flag("--quiet", la->quiet,
                     "no line per message (the Disconnect line has the totals)");
    listen
        ->add_option("--timeout", la->timeout,
                     "seconds for a peer's handshake (accept to Hello) and for each of its "
                     "messages (default 60)")
        ->check(CLI::PositiveNumber);
    listen->add_option("--max-peers", la->max_peers, "sessions at once (default 50)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
    listen
        ->add_option("--max-pending", la->max_pending,
                     "handshakes under way at once; when full, the one with least progress "
                     "is dropped (default 64)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
    listen->callback([la] { run_listen(*la, parse_protocols(la->protocols)); });

    struct DialArgs {
        std::string enode;
        std::optional<std::string> nodekey;
        std::string protocols = "eth/68";
        bool status = false;
        std::size_t stream = 0, flood = 0, size = 1 << 16;
        double timeout = 10;
    };
    auto da = std::make_shared<DialArgs>();
    auto* dial = p2p->add_subcommand("dial", "Connect to ENODE: print its Hello, ping, disconnect");
    dial->add_option("enode", da->enode, "enode://<128 hex>@host:port")->required();
    dial->add_option("--nodekey", da->nodekey, "file with the node's secret key (64 hex digits)");
    dial->add_option("--protocols", da->protocols,
                     "capabilities to run, e.g. eth/68,snap/1 (default eth/68)");
    dial->add_flag("--status", da->status, "exchange eth/68 Status (mirroring the peer's chain)");
    dial->add_option("--stream", da->stream,
                     "send N messages the peer echoes back, and check them");
    dial->add_option("--flood", da->flood,
                     "send N messages back to back (no echo), then disconnect");
    dial->add_option("--size", da->size, "bytes per streamed or flooded message (default 65536)");
    dial->add_option("--timeout", da->timeout,
                     "seconds for the handshake and each answer (default 10)");
    dial->callback([da] {
        run_dial(da->enode, da->nodekey, parse_protocols(da->protocols), da->status, da->stream,
                 da->flood, da->size, da->timeout);
    });
}

}  // namespace keel::cli
