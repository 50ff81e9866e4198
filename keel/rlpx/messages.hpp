#pragma once
/// The devp2p base protocol v5 (https://github.com/ethereum/devp2p/blob/master/rlpx.md,
/// "p2p Capability") and the eth/68 Status message (https://github.com/ethereum/devp2p/blob/
/// master/caps/eth.md#status-0x00), as RLP payloads (the message code travels in the frame).
///
///   Hello      0x00  [protocolVersion, clientId, [[cap-name, cap-version], ...], listenPort,
///                     nodeId (64 bytes), ...]           never snappy-compressed
///   Disconnect 0x01  [reason]
///   Ping       0x02  []
///   Pong       0x03  []
///   eth Status 0x10 + 0x00 (eth the first capability)
///                    [version, networkid, td, blockhash, genesis, [forkhash (4 bytes), forknext],
///                     ...]
///
/// Forward compatibility (EIP-8): decoders accept list elements after the known ones and ignore
/// them, and any protocol version. Encoders append to a caller's buffer (rlp::Encoder): reuse it
/// and it only grows. Decoders are noexcept except for the Hello's few owned strings (they may
/// throw std::bad_alloc only); they return MessageError, which names the message and field;
/// to_string() gives one line. Offsets are absolute in the payload given.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/rlp/errors.hpp"

namespace keel::rlpx {

/// Message codes of the base protocol (rlpx.md "p2p Capability").
inline constexpr std::uint64_t kHelloCode = 0x00;
inline constexpr std::uint64_t kDisconnectCode = 0x01;
inline constexpr std::uint64_t kPingCode = 0x02;
inline constexpr std::uint64_t kPongCode = 0x03;
/// Codes 0x00..0x0f belong to the base protocol; the first capability's messages start here.
inline constexpr std::uint64_t kBaseProtocolLength = 0x10;
/// The base protocol version keel speaks (v5: snappy after Hello).
inline constexpr std::uint64_t kP2pVersion = 5;
/// eth/68 Status, relative to the eth capability's offset (0x10 when eth is the only one).
inline constexpr std::uint64_t kEthStatusCode = 0x00;
inline constexpr std::uint64_t kEthVersion = 68;

/// The most capabilities a Hello may list; more is refused (bounds the decoder's allocation).
inline constexpr std::size_t kMaxCapabilities = 64;

/// One capability: a protocol name ("eth", "snap") and a version.
struct Capability {
    std::string name;
    std::uint64_t version = 0;

    friend bool operator==(const Capability&, const Capability&) = default;
};

/// Hello (0x00). Listen port: 0 when the node does not listen; peers' values are kept as sent.
struct Hello {
    std::uint64_t protocol_version = kP2pVersion;
    std::string client_id;
    std::vector<Capability> capabilities;
    std::uint64_t listen_port = 0;
    FixedBytes<64> node_id;  ///< the uncompressed secp256k1 public key without its 0x04 prefix

    friend bool operator==(const Hello&, const Hello&) = default;
};

/// Disconnect reasons (rlpx.md "Disconnect (0x01)"). Other values a peer sends are kept as they
/// are (the enum is the byte).
enum class DisconnectReason : std::uint8_t {
    requested = 0x00,
    tcp_error = 0x01,
    breach_of_protocol = 0x02,
    useless_peer = 0x03,
    too_many_peers = 0x04,
    already_connected = 0x05,
    incompatible_p2p_version = 0x06,
    null_node_identity = 0x07,
    client_quitting = 0x08,
    unexpected_identity = 0x09,
    connected_to_self = 0x0a,
    ping_timeout = 0x0b,
    subprotocol_specific = 0x10,
};

/// "requested", "tcp error", ..., "subprotocol specific"; "unknown reason" for other values.
std::string_view describe(DisconnectReason r) noexcept;

/// The eth fork identifier (EIP-2124): CRC32 of the genesis hash and passed fork blocks, and the
/// next fork (0 when none).
struct ForkId {
    FixedBytes<4> hash;
    std::uint64_t next = 0;

    friend bool operator==(const ForkId&, const ForkId&) = default;
};

/// eth/68 Status (eth.md "Status (0x00)").
struct Status {
    std::uint64_t version = kEthVersion;
    std::uint64_t network_id = 0;
    Uint256 total_difficulty;
    Hash32 head;     ///< blockhash: the best known block
    Hash32 genesis;  ///< the genesis block's hash
    ForkId fork_id;

    friend bool operator==(const Status&, const Status&) = default;
};

/// What was wrong with a message payload.
enum class MessageErrc : std::uint8_t {
    rlp,                    ///< malformed RLP; MessageError::rlp says which rule
    missing_field,          ///< the list ends before the field
    wrong_size,             ///< a fixed-size field (node id, hash, fork hash) of another size
    too_many_capabilities,  ///< more than kMaxCapabilities in a Hello
    reason_out_of_range,    ///< a disconnect reason above 255
};

/// A short human phrase for the code, e.g. "wrong size".
std::string_view describe(MessageErrc e) noexcept;

/// Which message and field an error is about.
enum class MessageField : std::uint8_t {
    hello,  ///< the message as a whole (its list)
    hello_protocol_version,
    hello_client_id,
    hello_capabilities,
    hello_capability,
    hello_capability_name,
    hello_capability_version,
    hello_listen_port,
    hello_node_id,
    disconnect,
    disconnect_reason,
    ping,
    pong,
    status,
    status_version,
    status_network_id,
    status_total_difficulty,
    status_head,
    status_genesis,
    status_fork_id,
    status_fork_hash,
    status_fork_next,
};

/// E.g. "Hello field node id", "Status field fork id hash", "Ping".
std::string field_name(MessageField f);

/// A message error: what, which field, where, and (for MessageErrc::rlp) which RLP rule.
struct MessageError {
    MessageErrc code = MessageErrc::rlp;
    rlp::Errc rlp = rlp::Errc::empty_input;  ///< meaningful when code == MessageErrc::rlp
    MessageField field = MessageField::hello;
    std::uint32_t detail = 0;  ///< wrong_size: the size found; reason_out_of_range: bytes
    std::size_t offset = 0;    ///< of the item at fault, in the payload

    friend constexpr bool operator==(const MessageError&, const MessageError&) = default;
};

/// One line, e.g. "Hello field node id: wrong size (63 bytes, expected 64) at offset 30".
std::string to_string(const MessageError& e);

/// Appends the Hello's RLP to `out`.
void encode_hello(const Hello& hello, Bytes& out);
/// Decodes a Hello; elements after the node id are ignored, and so are elements after the
/// version of each capability. Errors: rlp, missing_field, wrong_size (node id),
/// too_many_capabilities.
[[nodiscard]] Result<Hello, MessageError> decode_hello(BytesView payload);

/// Appends [reason] to `out`.
void encode_disconnect(DisconnectReason reason, Bytes& out);
/// Decodes [reason, ...]; also accepts the bare integer `reason` some clients send, and the
/// empty list [] (as requested). Errors: rlp, reason_out_of_range.
[[nodiscard]] Result<DisconnectReason, MessageError> decode_disconnect(BytesView payload) noexcept;

/// Appends [] (the Ping and Pong payload) to `out`.
void encode_ping(Bytes& out);
void encode_pong(Bytes& out);
/// Checks a Ping or Pong payload: a list (its elements ignored). Errors: rlp.
[[nodiscard]] Result<void, MessageError> decode_ping(BytesView payload) noexcept;
[[nodiscard]] Result<void, MessageError> decode_pong(BytesView payload) noexcept;

/// Appends the Status's RLP to `out`.
void encode_status(const Status& status, Bytes& out);
/// Decodes an eth/68 Status; extra elements (in the Status and in the fork id) are ignored.
/// Errors: rlp (integer_overflow for a total difficulty above 256 bits), missing_field,
/// wrong_size (hashes, fork hash).
[[nodiscard]] Result<Status, MessageError> decode_status(BytesView payload) noexcept;

}  // namespace keel::rlpx
