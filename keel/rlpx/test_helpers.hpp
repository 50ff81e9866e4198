#pragma once
/// Helpers shared by the rlpx tests (not part of the library): fixed node keys, loopback enodes,
/// deadlines, the vectors' hex fields.
#include <chrono>
#include <cstdint>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "keel/rlpx/enode.hpp"
#include "keel/rlpx/net.hpp"
#include "keel/rlpx/session.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::rlpx::test {

/// A node key whose secret is 32 bytes of `fill`.
inline NodeKey key(std::uint8_t fill) {
    Bytes32 s;
    for (auto& b : s.bytes) b = fill;
    auto k = node_key_from_secret(s);
    EXPECT_TRUE(k.has_value());
    return *k;
}

/// The enode of `k` listening on 127.0.0.1:`port`.
inline Enode enode_of(const NodeKey& k, std::uint16_t port) {
    Enode e;
    e.id = k.id;
    e.host = "127.0.0.1";
    e.port = port;
    return e;
}

/// A deadline `ms` from now.
inline Deadline in(std::chrono::milliseconds ms) {
    return Clock::now() + ms;
}

/// A vector's hex string as bytes, and as a fixed-size value.
inline Bytes hex_bytes(const nlohmann::json& v) {
    return testutil::from_hex(v.get<std::string>());
}
template <class Fixed>
Fixed fixed_of(const nlohmann::json& v) {
    return testutil::fixed_from_hex<Fixed>(v.get<std::string>());
}

/// vectors/rlpx/frames_after_eip8.json.
inline nlohmann::json frames_vector() {
    return testutil::load_json(testutil::vectors_dir("rlpx") / "frames_after_eip8.json");
}

}  // namespace keel::rlpx::test
