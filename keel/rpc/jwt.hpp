#pragma once
/// The Engine API's authentication (execution-apis src/engine/authentication.md): every request
/// on the authenticated port carries "Authorization: Bearer <JWT>", a JSON Web Token signed with
/// HS256 under a 32-byte secret the node and its consensus client share, whose "iat" (issued-at,
/// seconds) lies within 60 seconds of the node's clock. Other claims ("id", "clv") are allowed.
///
/// The secret file holds the secret as 64 hex digits (a "0x" prefix and surrounding whitespace
/// allowed), as geth, Reth and the consensus clients write and read it.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::rpc {

/// How far "iat" may be from the node's clock, either way.
inline constexpr std::int64_t kJwtLeewaySeconds = 60;

/// Checks an Authorization header's value against `secret` at `now` (Unix seconds): nullopt
/// when it is a valid "Bearer" token, else the reason in one line ("missing token", "token is
/// not signed with HS256", "signature invalid", "stale token: iat 1700000000 is 75 s from now").
[[nodiscard]] std::optional<std::string> check_jwt(std::string_view authorization,
                                                   const Bytes32& secret, std::int64_t now);

/// A token with {"iat": iat} signed with `secret` (a consensus client's; tests and tools).
[[nodiscard]] std::string make_jwt(const Bytes32& secret, std::int64_t iat);

/// Reads a secret file. Errors name the file: "jwt secret /d/jwtsecret: want 64 hex digits,
/// got 12".
[[nodiscard]] Result<Bytes32, std::string> read_jwt_secret(const std::filesystem::path& path);

/// Writes a new random secret to `path` (mode 0600), as geth does when none is given. Errors:
/// the file exists already, a write failure, no randomness.
[[nodiscard]] Result<Bytes32, std::string> create_jwt_secret(const std::filesystem::path& path);

}  // namespace keel::rpc
