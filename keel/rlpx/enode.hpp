#pragma once
/// enode URLs, the way devp2p nodes name each other:
///   enode://<128 hex digits: the node's secp256k1 public key x||y>@<host>:<tcp port>[?discport=N]
/// The host is an IPv4 address, an IPv6 address in brackets, or a DNS name (resolved when
/// dialling). Parse errors name what was wrong and the offset in the URL.

#include <cstdint>
#include <string>
#include <string_view>

#include "keel/common/result.hpp"
#include "keel/crypto/signature.hpp"

namespace keel::rlpx {

enum class EnodeErrc : std::uint8_t {
    missing_scheme,  ///< does not start with "enode://"
    bad_node_id,     ///< not 128 hex digits before '@'
    missing_host,    ///< no '@host'
    bad_host,        ///< an empty host, an unclosed '[', or characters a host cannot have
    bad_port,        ///< missing, not a number, 0 or above 65535
    bad_query,       ///< anything after the port but "?discport=N"
};
std::string_view describe(EnodeErrc e) noexcept;
using EnodeError = InputError<EnodeErrc>;

struct Enode {
    crypto::PublicKey id;        ///< x || y, 64 bytes
    std::string host;            ///< without brackets for IPv6
    std::uint16_t port = 0;      ///< TCP (RLPx)
    std::uint16_t discport = 0;  ///< UDP discovery when it differs from port; 0 when absent
};

[[nodiscard]] Result<Enode, EnodeError> parse_enode(std::string_view url);
/// The URL of `e` (IPv6 hosts in brackets; ?discport only when set).
std::string to_string(const Enode& e);

}  // namespace keel::rlpx
