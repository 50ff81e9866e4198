#include "keel/rlpx/enode.hpp"

#include <charconv>

#include "keel/common/hex.hpp"

namespace keel::rlpx {

std::string_view describe(EnodeErrc e) noexcept {
    switch (e) {
        case EnodeErrc::missing_scheme:
            return "enode URL must start with enode://";
        case EnodeErrc::bad_node_id:
            return "enode node id must be 128 hex digits (a 64-byte public key)";
        case EnodeErrc::missing_host:
            return "enode URL has no @host:port";
        case EnodeErrc::bad_host:
            return "enode host is empty or malformed";
        case EnodeErrc::bad_port:
            return "enode port must be a number from 1 to 65535";
        case EnodeErrc::bad_query:
            return "enode URL may only end with ?discport=N";
    }
    return "bad enode URL";
}

namespace {

constexpr std::string_view kScheme = "enode://";

bool host_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == '_';
}

/// A decimal port in 1..65535.
bool parse_port(std::string_view s, std::uint16_t& out) noexcept {
    unsigned v = 0;
    if (s.empty() || s.size() > 5) return false;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || v == 0 || v > 65535) return false;
    out = static_cast<std::uint16_t>(v);
    return true;
}

}  // namespace

[[nodiscard]] Result<Enode, EnodeError> parse_enode(std::string_view url) {
    if (!url.starts_with(kScheme)) return input_error(EnodeErrc::missing_scheme, 0);
    std::size_t pos = kScheme.size();
    const std::size_t at = url.find('@', pos);
    if (at == std::string_view::npos) {
        if (url.size() - pos != 128) return input_error(EnodeErrc::bad_node_id, pos);
        return input_error(EnodeErrc::missing_host, url.size());
    }
    Enode e;
    const std::string_view id = url.substr(pos, at - pos);
    if (id.size() != 128 || id.starts_with("0x") || !hex::decode_to(id, e.id.mutable_view()))
        return input_error(EnodeErrc::bad_node_id, pos);
    pos = at + 1;
    std::string_view rest = url.substr(pos);
    std::size_t host_end;
    if (rest.starts_with('[')) {
        const std::size_t close = rest.find(']');
        if (close == std::string_view::npos || close == 1)
            return input_error(EnodeErrc::bad_host, pos);
        for (const char c : rest.substr(1, close - 1))
            if (!(host_char(c) || c == ':')) return input_error(EnodeErrc::bad_host, pos);
        e.host = std::string(rest.substr(1, close - 1));
        host_end = close + 1;
    } else {
        host_end = rest.find(':');
        if (host_end == std::string_view::npos) host_end = rest.size();
        if (host_end == 0) return input_error(EnodeErrc::bad_host, pos);
        for (const char c : rest.substr(0, host_end))
            if (!host_char(c)) return input_error(EnodeErrc::bad_host, pos);
        e.host = std::string(rest.substr(0, host_end));
    }
    if (host_end >= rest.size() || rest[host_end] != ':')
        return input_error(EnodeErrc::bad_port, pos + host_end);
    const std::size_t port_start = host_end + 1;
    const std::size_t query = rest.find('?', port_start);
    const std::string_view port = rest.substr(
        port_start, (query == std::string_view::npos ? rest.size() : query) - port_start);
    if (!parse_port(port, e.port)) return input_error(EnodeErrc::bad_port, pos + port_start);
    if (query != std::string_view::npos) {
        constexpr std::string_view kDisc = "?discport=";
        const std::string_view q = rest.substr(query);
        if (!q.starts_with(kDisc) || !parse_port(q.substr(kDisc.size()), e.discport))
            return input_error(EnodeErrc::bad_query, pos + query);
    }
    return e;
}

std::string to_string(const Enode& e) {
    std::string out(kScheme);
    hex::append(out, e.id.view());
    out += '@';
    const bool v6 = e.host.find(':') != std::string::npos;
    if (v6) out += '[';
    out += e.host;
    if (v6) out += ']';
    out += ':';
    out += std::to_string(e.port);
    if (e.discport != 0 && e.discport != e.port) {
        out += "?discport=";
        out += std::to_string(e.discport);
    }
    return out;
}

}  // namespace keel::rlpx
