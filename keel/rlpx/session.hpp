#pragma once
/// An RLPx session over TCP, the part of devp2p a node drives: dial or accept, the EIP-8
/// handshake, Hello (p2p v5: snappy for every later message), then messages by capability and
/// code (capabilities.hpp: every shared capability gets its range of wire codes after the base
/// protocol's 0x10; eth/68 Status is 0x10 when eth is the first), Ping answered with Pong on
/// the way, and a Disconnect with a reason at the end.
///
/// I/O: one reusable read buffer per session (each recv asks for everything that fits, so a
/// stream of frames costs about one recv per frame or less), one reusable write buffer (each
/// message is framed and encrypted in place there and leaves in one send), snappy buffers that
/// only grow, the declared decompressed size checked against 16 MiB before allocating. Every
/// wait has a deadline. A bad MAC, bad snappy, an oversized frame, a protocol breach or a
/// timeout ends the session with the matching Disconnect reason (sent when the transport still
/// works) and an error whose to_string() is one line.
///
/// Threads: full duplex, as a node uses a peer: one thread reads (receive(), ping()) while any
/// threads send (send(), send_batch(), disconnect()); sends take a write lock, so frames never
/// interleave. A Ping is answered by the reading thread when no send is under way, else by the
/// sender holding the lock, together with its frame, so the reader never waits behind a send
/// that waits for the peer to read. disconnect() from any thread wakes a blocked receive()
/// (SessionErrc::closed). Receive calls must not overlap each other.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/crypto/signature.hpp"
#include "keel/rlpx/capabilities.hpp"
#include "keel/rlpx/enode.hpp"
#include "keel/rlpx/frame.hpp"
#include "keel/rlpx/frame_guess.hpp"
#include "keel/rlpx/handshake.hpp"
#include "keel/rlpx/messages.hpp"
#include "keel/rlpx/net.hpp"

namespace keel::rlpx {

/// This node's static key: the secp256k1 secret and its public key (the node id).
struct NodeKey {
    Bytes32 secret;
    crypto::PublicKey id;
};
/// The key of `secret` (nullopt when it is not a valid secret key).
std::optional<NodeKey> node_key_from_secret(const Bytes32& secret) noexcept;
/// A fresh random key (nullopt only when the OS gives no randomness).
std::optional<NodeKey> generate_node_key() noexcept;

enum class SessionErrc : std::uint8_t {
    network,       ///< connect/read/write failed (NetError in the text)
    timeout,       ///< a deadline passed (handshake, Hello, Pong, or a read)
    handshake,     ///< the peer's auth/ack was refused (HandshakeError in the text)
    frame,         ///< a frame failed its MAC, size or code check
    snappy,        ///< a compressed payload was refused
    protocol,      ///< a malformed or unexpected p2p message (wrong Hello, message before Hello,
                   ///< a code in no shared capability)
    capability,    ///< send(): a capability the peer does not share, or a code outside it
    disconnected,  ///< the peer sent Disconnect (its reason in `reason`)
    closed,        ///< the session was closed (by disconnect() on this side, or before)
    busy,          ///< a Listener had no room: too many peers, or too many pending handshakes
};

/// A short phrase for `c`, e.g. "the peer sent Disconnect".
std::string_view describe(SessionErrc c) noexcept;

/// A session failure: the code, the one line that says exactly what (layers below name the
/// field or offset there: "auth: bad MAC at offset 301"), and the peer's reason when it sent
/// Disconnect. Not an InputError: a session's failures are mostly the environment's or the
/// peer's conduct, with no single input offset.
struct SessionError {
    SessionErrc code = SessionErrc::closed;
    std::string detail;                                     ///< what exactly, one line
    DisconnectReason reason = DisconnectReason::requested;  ///< for `disconnected`
};
/// One line, e.g. "peer disconnected: too many peers" or "frame: bad frame MAC ...".
std::string to_string(const SessionError& e);

struct SessionOptions {
    std::string client_id = "keel";
    /// The protocols this node runs, listed in Hello (each with its message count).
    std::vector<Protocol> protocols{{{"eth", kEthVersion}, 17}};
    std::uint16_t listen_port = 0;                        ///< advertised in Hello
    std::chrono::milliseconds handshake_timeout{10'000};  ///< connect + handshake + Hello
    /// receive() pings a peer it has heard nothing from for this long (go-ethereum: 15 s) ...
    std::chrono::milliseconds ping_interval{15'000};
    /// ... and ends the session (Disconnect "ping timeout") when no Pong comes within this.
    std::chrono::milliseconds pong_timeout{20'000};
};

/// A received message: its code and payload (decompressed), valid until the next receive().
struct Message {
    std::uint64_t code = 0;  ///< as on the wire
    BytesView payload;
    /// The shared capability it belongs to (owned by the session) and its code there, e.g.
    /// eth and 0x00 for Status. nullptr for the base protocol (Hello, Disconnect).
    const SharedCapability* capability = nullptr;
    std::uint64_t message = 0;
};

class Session {
  public:
    /// Connects to `peer`, runs the handshake as initiator and exchanges Hello.
    [[nodiscard]] static Result<Session, SessionError> dial(const NodeKey& key, const Enode& peer,
                                                            const SessionOptions& options = {});
    /// Accepts the next connection on `listener` (waiting until `deadline`), runs the handshake
    /// as recipient and exchanges Hello.
    [[nodiscard]] static Result<Session, SessionError> accept(const Socket& listener,
                                                              const NodeKey& key, Deadline deadline,
                                                              const SessionOptions& options = {});

    Session(Session&&) noexcept = default;
    Session& operator=(Session&&) noexcept = default;
    ~Session();

    const Hello& peer_hello() const noexcept { return peer_hello_; }
    const crypto::PublicKey& peer_id() const noexcept { return peer_hello_.node_id; }
    std::string peer_address() const { return socket_.peer_address(); }
    bool open() const noexcept;

    /// The capabilities both sides run, in wire-code order (set by the Hello exchange).
    const std::vector<SharedCapability>& shared_capabilities() const noexcept { return shared_; }
    /// The wire code of `capability`'s message `code` (SessionErrc::capability: not shared or
    /// not one of its codes).
    [[nodiscard]] Result<std::uint64_t, SessionError> wire_code(std::string_view capability,
                                                                std::uint64_t code) const;

    /// Sends `capability`'s message `code` (e.g. "eth", 0x00 for Status), snappy-compressed
    /// (p2p v5), in one write.
    [[nodiscard]] Result<void, SessionError> send(std::string_view capability, std::uint64_t code,
                                                  BytesView payload);
    /// Sends a message by its wire code (wire_code() gives it; base protocol codes as they are).
    [[nodiscard]] Result<void, SessionError> send(std::uint64_t code, BytesView payload);
    /// Frames several messages (by wire code) into the write buffer and sends them together
    /// (one write).
    [[nodiscard]] Result<void, SessionError> send_batch(
        std::span<const std::pair<std::uint64_t, BytesView>> msgs);
    /// The next capability message, waiting until `deadline`; one whose code no shared
    /// capability holds ends the session ("breach of protocol"). Pings are answered on the
    /// way, other base protocol codes skipped; a peer silent for ping_interval is pinged, and one
    /// that leaves the Ping unanswered for pong_timeout is disconnected ("ping timeout",
    /// SessionErrc::timeout); a Disconnect ends the session with SessionErrc::disconnected.
    [[nodiscard]] Result<Message, SessionError> receive(Deadline deadline);
    /// Sends Ping and waits for the Pong until `deadline`; other messages that arrive meanwhile
    /// are kept for receive().
    [[nodiscard]] Result<std::chrono::microseconds, SessionError> ping(Deadline deadline);
    /// Sends Disconnect(reason) (best effort) and closes the connection.
    void disconnect(DisconnectReason reason);

    /// Frames and bytes so far, and the socket calls of the whole process (net.hpp).
    std::uint64_t frames_sent() const noexcept;
    std::uint64_t frames_received() const noexcept;

  private:
    Session(Socket socket, const Secrets& secrets);
    friend class Listener;  // drives the handshake and Hello of many peers in one poll loop

    [[nodiscard]] static Result<Session, SessionError> finish(Socket socket, const Secrets& secrets,
                                                              const NodeKey& key,
                                                              const SessionOptions& options,
                                                              Deadline deadline);
    /// Sends our Hello (options_ set), uncompressed.
    [[nodiscard]] Result<void, SessionError> send_hello(const NodeKey& key);
    /// Checks the peer's first frame: a valid Hello from the handshake's node id (then the
    /// session is open for messages), else the session ends with the matching reason.
    [[nodiscard]] Result<void, SessionError> take_hello(const Message& first, const NodeKey& key);
    /// Without waiting: reads what the socket holds of the peer's first frame (never past it)
    /// and, once it is whole, take_hello(). True when Hello is done, false while more bytes
    /// are needed. A first frame above kMaxHelloFrame is refused before it is buffered.
    [[nodiscard]] Result<bool, SessionError> pump_hello(const NodeKey& key);
    /// The next frame of any code (Ping answered, Disconnect reported), decompressed; after
    /// disconnect() every failure reads as SessionErrc::closed.
    [[nodiscard]] Result<Message, SessionError> next_frame(Deadline deadline);
    [[nodiscard]] Result<Message, SessionError> read_frame(Deadline deadline);
    [[nodiscard]] Result<Message, SessionError> receive_frame(Deadline deadline);
    /// `e`, or SessionErrc::closed once disconnect() was called on this side.
    SessionError unless_hung_up(SessionError e) const;
    /// Sends Disconnect(reason) (best effort) and shuts the socket, once.
    void hang_up(DisconnectReason reason);
    /// Frames `msgs` into the write buffer and sends them in one write, under the write lock
    /// (an owed Pong rides along); then pays a Pong that came meanwhile.
    [[nodiscard]] Result<void, SessionError> write_frames(
        std::span<const std::pair<std::uint64_t, BytesView>> msgs, bool compress);
    [[nodiscard]] Result<void, SessionError> write_frame(std::uint64_t code, BytesView payload,
                                                         bool compress);
    /// Frames one message at the end of the write buffer (snappy into the frame's slot).
    [[nodiscard]] Result<void, SessionError> append_frame(std::uint64_t code, BytesView payload,
                                                          bool compress);
    /// Writes the write buffer (one send when the kernel has room).
    [[nodiscard]] Result<void, SessionError> flush();
    [[nodiscard]] Result<void, SessionError> send_ping();
    SessionError fail(SessionErrc code, std::string detail, DisconnectReason send_reason);
    /// Marks the session closed and shuts the socket down (both directions) once.
    void shut() noexcept;
    /// Sends an owed Pong if the write lock is free (see Sync::pong_owed).
    void pay_owed_pong();
    /// A Message with its capability and relative code filled in.
    Message message(std::uint64_t code, BytesView payload) const noexcept;

    Socket socket_;
    crypto::PublicKey remote_id_;  // the handshake's: Hello must carry the same node id
    /// What the reading thread and the sending threads share; on the heap so that a Session
    /// stays movable. `write` guards writer_, out_, control_ and the socket's send side.
    struct Sync {
        std::timed_mutex write;
        std::atomic<bool> closed{false};
        // disconnect() was called. Set before the Disconnect leaves, so a reader that the
        // peer's answer (its close, its own Disconnect) wakes still reports `closed`.
        std::atomic<bool> hung_up{false};
        std::atomic<bool> pong_owed{false};  // a Ping came; the next holder of `write` answers
    };
    std::unique_ptr<Sync> sync_;
    SessionOptions options_;
    Clock::time_point last_heard_ = Clock::now();
    std::optional<Clock::time_point> ping_sent_;  // a keep-alive Ping awaiting its Pong
    FrameWriter writer_;
    FrameReader reader_;
    FrameGuess guess_;  // the next frame's size, for the read-ahead between frames
    Hello peer_hello_;
    std::vector<SharedCapability> shared_;
    bool hello_done_ = false;
    bool snappy_ = false;
    Bytes in_;  // read buffer: [in_start_, in_end_) holds unread bytes
    std::size_t in_start_ = 0, in_end_ = 0;
    Bytes out_;      // write buffer: one frame or batch at a time
    Bytes plain_;    // decompressed payload
    Bytes control_;  // Pong and Disconnect payloads (under sync_->write)
    Bytes held_;     // a message ping() kept, returned by receive()
    std::vector<std::pair<std::uint64_t, Bytes>> pending_;  // kept by ping() for receive()
};

}  // namespace keel::rlpx
