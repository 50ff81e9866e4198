#include "keel/rpc/jwt.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "keel/common/hex.hpp"
#include "keel/crypto/hmac.hpp"
#include "keel/crypto/random.hpp"

namespace keel::rpc {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// base64url without padding (RFC 7515 §2).
std::string base64url(BytesView in) {
    std::string out;
    out.reserve((in.size() * 4 + 2) / 3);
    std::size_t i = 0;
    for (; i + 3 <= in.size(); i += 3) {
        const std::uint32_t v =
            std::uint32_t{in[i]} << 16 | std::uint32_t{in[i + 1]} << 8 | in[i + 2];
        for (int k = 3; k >= 0; --k) out += kAlphabet[(v >> (6 * k)) & 63];
    }
    const std::size_t rest = in.size() - i;
    if (rest == 1) {
        const std::uint32_t v = std::uint32_t{in[i]} << 16;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
    } else if (rest == 2) {
        const std::uint32_t v = std::uint32_t{in[i]} << 16 | std::uint32_t{in[i + 1]} << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
    }
    return out;
}

std::optional<Bytes> unbase64url(std::string_view in) {
    if (in.size() % 4 == 1) return std::nullopt;
    Bytes out;
    out.reserve(in.size() * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (const char c : in) {
        const auto at = kAlphabet.find(c);
        if (at == std::string_view::npos) return std::nullopt;
        acc = acc << 6 | static_cast<std::uint32_t>(at);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>(acc >> bits));
        }
    }
    return out;
}

BytesView bytes_of(std::string_view s) {
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

Hash32 signature(const Bytes32& secret, std::string_view signed_part) {
    return crypto::hmac_sha256(secret.view(), bytes_of(signed_part));
}

bool equal_constant_time(BytesView a, BytesView b) {
    if (a.size() != b.size()) return false;
    std::uint8_t diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<std::uint8_t>(a[i] ^ b[i]);
    return diff == 0;
}

}  // namespace

std::optional<std::string> check_jwt(std::string_view authorization, const Bytes32& secret,
                                     std::int64_t now) {
    if (authorization.empty()) return "missing token";
    constexpr std::string_view kBearer = "Bearer ";
    if (!authorization.starts_with(kBearer)) return "not a Bearer token";
    const std::string_view token = authorization.substr(kBearer.size());
    const auto dot1 = token.find('.');
    const auto dot2 = dot1 == std::string_view::npos ? dot1 : token.find('.', dot1 + 1);
    if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos)
        return "malformed token: want header.claims.signature";
    auto header = unbase64url(token.substr(0, dot1));
    auto claims = unbase64url(token.substr(dot1 + 1, dot2 - dot1 - 1));
    auto sig = unbase64url(token.substr(dot2 + 1));
    if (!header || !claims || !sig) return "malformed token: not base64url";
    const auto h = nlohmann::json::parse(header->begin(), header->end(), nullptr, false);
    if (!h.is_object() || h.value("alg", "") != "HS256") return "token is not signed with HS256";
    const Hash32 want = signature(secret, token.substr(0, dot2));
    if (!equal_constant_time(*sig, want.view())) return "signature invalid";
    const auto c = nlohmann::json::parse(claims->begin(), claims->end(), nullptr, false);
    if (!c.is_object()) return "malformed token: claims are not a JSON object";
    const auto iat = c.find("iat");
    if (iat == c.end() || !iat->is_number_integer()) return "token has no iat claim";
    const std::int64_t at = iat->get<std::int64_t>();
    const std::int64_t off = at > now ? at - now : now - at;
    if (off > kJwtLeewaySeconds) {
        return "stale token: iat " + std::to_string(at) + " is " + std::to_string(off) + " s " +
               (at > now ? "ahead of" : "behind") + " the node's clock (at most " +
               std::to_string(kJwtLeewaySeconds) + " s)";
    }
    return std::nullopt;
}

std::string make_jwt(const Bytes32& secret, std::int64_t iat) {
    const std::string header = base64url(bytes_of(R"({"alg":"HS256","typ":"JWT"})"));
    const std::string claims = base64url(bytes_of("{\"iat\":" + std::to_string(iat) + "}"));
    const std::string signed_part = header + "." + claims;
    return signed_part + "." + base64url(signature(secret, signed_part).view());
}

Result<Bytes32, std::string> read_jwt_secret(const std::filesystem::path& path) {
    const std::string where = "jwt secret " + path.string() + ": ";
    std::ifstream in(path);
    if (!in) return unexpected(where + "cannot read it: " + std::strerror(errno));
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str();
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t start = 0;
    while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
    std::string_view digits = std::string_view(s).substr(start);
    if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2);
    if (digits.size() != 64)
        return unexpected(where + "want 64 hex digits, got " + std::to_string(digits.size()));
    auto secret = hex::decode_fixed<Bytes32>(digits);
    if (!secret) return unexpected(where + "not hex");
    return *secret;
}

Result<Bytes32, std::string> create_jwt_secret(const std::filesystem::path& path) {
    const std::string where = "jwt secret " + path.string() + ": ";
    Bytes32 secret;
    if (auto r = crypto::random_bytes(secret.mutable_view()); !r)
        return unexpected(where + "no randomness");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return unexpected(where + "cannot create it: " + std::strerror(errno));
    const std::string text = hex::encode(secret.view()) + "\n";
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const bool closed = ::close(fd) == 0;
    if (!ok || !closed) return unexpected(where + "cannot write it: " + std::strerror(errno));
    return secret;
}

}  // namespace keel::rpc
