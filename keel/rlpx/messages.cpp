#include "keel/rlpx/messages.hpp"

#include <cstdint>
#include <cstring>

#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::rlpx {

namespace {

using F = MessageField;

// An RLP failure of `field`; a list that ended too early is the field missing.
std::unexpected<MessageError> rlp_error(const rlp::Error& e, MessageField field) noexcept {
    if (e.code == rlp::Errc::missing_item)
        return std::unexpected(
            MessageError{MessageErrc::missing_field, e.code, field, 0, e.offset});
    return std::unexpected(MessageError{MessageErrc::rlp, e.code, field, 0, e.offset});
}

std::unexpected<MessageError> error(MessageErrc code, MessageField field, std::size_t offset,
                                    std::uint32_t detail = 0) noexcept {
    return std::unexpected(MessageError{code, rlp::Errc::empty_input, field, detail, offset});
}

std::uint32_t clamp32(std::size_t n) noexcept {
    return n > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(n);
}

// The next item as exactly N bytes: rlp errors, or wrong_size with the size found.
template <std::size_t N>
[[nodiscard]] Result<FixedBytes<N>, MessageError> next_fixed(rlp::Decoder& d,
                                                             MessageField field) noexcept {
    const std::size_t at = d.offset();
    auto s = d.next_string();
    if (!s) return rlp_error(s.error(), field);
    if (s->size() != N) return error(MessageErrc::wrong_size, field, at, clamp32(s->size()));
    FixedBytes<N> out;
    std::memcpy(out.data(), s->data(), N);
    return out;
}

std::size_t expected_size(MessageField f) noexcept {
    switch (f) {
        case F::hello_node_id:
            return 64;
        case F::status_head:
        case F::status_genesis:
            return 32;
        case F::status_fork_hash:
            return 4;
        default:
            return 0;
    }
}

[[nodiscard]] Result<void, MessageError> decode_empty_list(BytesView payload,
                                                           MessageField field) noexcept {
    // rlpx.md: Ping and Pong carry the empty list; elements a newer version adds are ignored.
    auto d = rlp::open_list(payload);
    if (!d) return rlp_error(d.error(), field);
    return {};
}

}  // namespace

std::string_view describe(DisconnectReason r) noexcept {
    switch (r) {
        case DisconnectReason::requested:
            return "requested";
        case DisconnectReason::tcp_error:
            return "tcp error";
        case DisconnectReason::breach_of_protocol:
            return "breach of protocol";
        case DisconnectReason::useless_peer:
            return "useless peer";
        case DisconnectReason::too_many_peers:
            return "too many peers";
        case DisconnectReason::already_connected:
            return "already connected";
        case DisconnectReason::incompatible_p2p_version:
            return "incompatible p2p version";
        case DisconnectReason::null_node_identity:
            return "null node identity";
        case DisconnectReason::client_quitting:
            return "client quitting";
        case DisconnectReason::unexpected_identity:
            return "unexpected identity";
        case DisconnectReason::connected_to_self:
            return "connected to self";
        case DisconnectReason::ping_timeout:
            return "ping timeout";
        case DisconnectReason::subprotocol_specific:
            return "subprotocol specific";
    }
    return "unknown reason";
}

std::string_view describe(MessageErrc e) noexcept {
    switch (e) {
        case MessageErrc::rlp:
            return "malformed RLP";
        case MessageErrc::missing_field:
            return "missing (the list ends before it)";
        case MessageErrc::wrong_size:
            return "wrong size";
        case MessageErrc::too_many_capabilities:
            return "too many capabilities";
        case MessageErrc::reason_out_of_range:
            return "reason above 255";
    }
    return "unknown message error";
}

std::string field_name(MessageField f) {
    const char* message = "Hello";
    const char* field = "";
    switch (f) {
        case F::hello:
            break;
        case F::hello_protocol_version:
            field = "protocol version";
            break;
        case F::hello_client_id:
            field = "client id";
            break;
        case F::hello_capabilities:
            field = "capabilities";
            break;
        case F::hello_capability:
            field = "capability";
            break;
        case F::hello_capability_name:
            field = "capability name";
            break;
        case F::hello_capability_version:
            field = "capability version";
            break;
        case F::hello_listen_port:
            field = "listen port";
            break;
        case F::hello_node_id:
            field = "node id";
            break;
        case F::disconnect:
            message = "Disconnect";
            break;
        case F::disconnect_reason:
            message = "Disconnect";
            field = "reason";
            break;
        case F::ping:
            message = "Ping";
            break;
        case F::pong:
            message = "Pong";
            break;
        case F::status:
            message = "Status";
            break;
        case F::status_version:
            message = "Status";
            field = "version";
            break;
        case F::status_network_id:
            message = "Status";
            field = "network id";
            break;
        case F::status_total_difficulty:
            message = "Status";
            field = "total difficulty";
            break;
        case F::status_head:
            message = "Status";
            field = "head hash";
            break;
        case F::status_genesis:
            message = "Status";
            field = "genesis hash";
            break;
        case F::status_fork_id:
            message = "Status";
            field = "fork id";
            break;
        case F::status_fork_hash:
            message = "Status";
            field = "fork id hash";
            break;
        case F::status_fork_next:
            message = "Status";
            field = "fork id next";
            break;
    }
    std::string out = message;
    if (*field != '\0') {
        out += " field ";
        out += field;
    }
    return out;
}

std::string to_string(const MessageError& e) {
    std::string out = field_name(e.field);
    out += ": ";
    out += e.code == MessageErrc::rlp ? rlp::describe(e.rlp) : describe(e.code);
    if (e.code == MessageErrc::wrong_size) {
        out += " (" + std::to_string(e.detail) + " bytes, expected " +
               std::to_string(expected_size(e.field)) + ")";
    }
    out += " at offset ";
    out += std::to_string(e.offset);
    return out;
}

// ---- Hello -------------------------------------------------------------------------------------

void encode_hello(const Hello& hello, Bytes& out) {
    rlp::Encoder enc(out);
    const auto list = enc.begin_list();
    enc.add_uint(hello.protocol_version);
    enc.add_string(as_bytes(hello.client_id));
    const auto caps = enc.begin_list();
    for (const Capability& c : hello.capabilities) {
        const auto cap = enc.begin_list();
        enc.add_string(as_bytes(c.name));
        enc.add_uint(c.version);
        enc.end_list(cap);
    }
    enc.end_list(caps);
    enc.add_uint(hello.listen_port);
    enc.add_string(hello.node_id.view());
    enc.end_list(list);
}

[[nodiscard]] Result<Hello, MessageError> decode_hello(BytesView payload) {
    auto d = rlp::open_list(payload);
    if (!d) return rlp_error(d.error(), F::hello);
    Hello h;
    auto version = d->next_uint<std::uint64_t>();
    if (!version) return rlp_error(version.error(), F::hello_protocol_version);
    h.protocol_version = *version;
    auto client = d->next_string();
    if (!client) return rlp_error(client.error(), F::hello_client_id);
    h.client_id.assign(as_chars(*client));

    auto caps = d->next_list();
    if (!caps) return rlp_error(caps.error(), F::hello_capabilities);
    while (!caps->empty()) {
        const std::size_t at = caps->offset();
        if (h.capabilities.size() == kMaxCapabilities)
            return error(MessageErrc::too_many_capabilities, F::hello_capabilities, at);
        auto cap = caps->next_list();
        if (!cap) return rlp_error(cap.error(), F::hello_capability);
        auto name = cap->next_string();
        if (!name) return rlp_error(name.error(), F::hello_capability_name);
        auto cap_version = cap->next_uint<std::uint64_t>();
        if (!cap_version) return rlp_error(cap_version.error(), F::hello_capability_version);
        h.capabilities.push_back(Capability{std::string(as_chars(*name)), *cap_version});
    }

    auto port = d->next_uint<std::uint64_t>();
    if (!port) return rlp_error(port.error(), F::hello_listen_port);
    h.listen_port = *port;
    auto node_id = next_fixed<64>(*d, F::hello_node_id);
    if (!node_id) return std::unexpected(node_id.error());
    h.node_id = *node_id;
    // EIP-8: anything after the node id is ignored (the items' headers were checked by
    // open_list()'s covering list only; their contents are not looked at).
    return h;
}

// ---- Disconnect, Ping, Pong --------------------------------------------------------------------

void encode_disconnect(DisconnectReason reason, Bytes& out) {
    rlp::Encoder enc(out);
    enc.add_list_header(rlp::uint_length(static_cast<std::uint8_t>(reason)));
    enc.add_uint(static_cast<std::uint8_t>(reason));
}

[[nodiscard]] Result<DisconnectReason, MessageError> decode_disconnect(BytesView payload) noexcept {
    auto item = rlp::decode_single(payload);
    if (!item) return rlp_error(item.error(), F::disconnect);
    rlp::Decoder d(item->encoded());
    if (item->is_list) {
        // [reason, ...]; [] is read as "requested" (go-ethereum reads a missing reason as 0).
        auto list = d.next_list();
        if (!list) return rlp_error(list.error(), F::disconnect);
        if (list->empty()) return DisconnectReason::requested;
        d = *list;
    }
    const std::size_t at = d.offset();
    auto reason = d.next_uint<std::uint64_t>();
    if (!reason) return rlp_error(reason.error(), F::disconnect_reason);
    if (*reason > 0xff)
        return error(MessageErrc::reason_out_of_range, F::disconnect_reason, at,
                     clamp32(rlp::be_length(*reason)));
    return static_cast<DisconnectReason>(*reason);
}

void encode_ping(Bytes& out) {
    out.push_back(0xc0);
}

void encode_pong(Bytes& out) {
    out.push_back(0xc0);
}

[[nodiscard]] Result<void, MessageError> decode_ping(BytesView payload) noexcept {
    return decode_empty_list(payload, F::ping);
}

[[nodiscard]] Result<void, MessageError> decode_pong(BytesView payload) noexcept {
    return decode_empty_list(payload, F::pong);
}

// ---- eth/68 Status -----------------------------------------------------------------------------

void encode_status(const Status& s, Bytes& out) {
    const std::size_t fork_payload =
        rlp::string_length(s.fork_id.hash.view()) + rlp::uint_length(s.fork_id.next);
    const std::size_t payload = rlp::uint_length(s.version) + rlp::uint_length(s.network_id) +
                                rlp::uint256_length(s.total_difficulty) + 33 + 33 +
                                rlp::list_length(fork_payload);
    rlp::Encoder enc(out);
    enc.reserve(rlp::list_length(payload));
    enc.add_list_header(payload);
    enc.add_uint(s.version);
    enc.add_uint(s.network_id);
    enc.add_uint256(s.total_difficulty);
    enc.add_string(s.head.view());
    enc.add_string(s.genesis.view());
    enc.add_list_header(fork_payload);
    enc.add_string(s.fork_id.hash.view());
    enc.add_uint(s.fork_id.next);
}

[[nodiscard]] Result<Status, MessageError> decode_status(BytesView payload) noexcept {
    auto d = rlp::open_list(payload);
    if (!d) return rlp_error(d.error(), F::status);
    Status s;
    auto version = d->next_uint<std::uint64_t>();
    if (!version) return rlp_error(version.error(), F::status_version);
    s.version = *version;
    auto network = d->next_uint<std::uint64_t>();
    if (!network) return rlp_error(network.error(), F::status_network_id);
    s.network_id = *network;
    auto td = d->next_uint256();
    if (!td) return rlp_error(td.error(), F::status_total_difficulty);
    s.total_difficulty = *td;
    auto head = next_fixed<32>(*d, F::status_head);
    if (!head) return std::unexpected(head.error());
    s.head = *head;
    auto genesis = next_fixed<32>(*d, F::status_genesis);
    if (!genesis) return std::unexpected(genesis.error());
    s.genesis = *genesis;
    // EIP-2124: forkid = [fork-hash (4 bytes), fork-next].
    auto fork = d->next_list();
    if (!fork) return rlp_error(fork.error(), F::status_fork_id);
    auto fork_hash = next_fixed<4>(*fork, F::status_fork_hash);
    if (!fork_hash) return std::unexpected(fork_hash.error());
    s.fork_id.hash = *fork_hash;
    auto next = fork->next_uint<std::uint64_t>();
    if (!next) return rlp_error(next.error(), F::status_fork_next);
    s.fork_id.next = *next;
    return s;
}

}  // namespace keel::rlpx
