#pragma once
/// Helpers shared by the rlpx tests (not part of the library): fixed node keys, loopback enodes,
/// deadlines.
#include <chrono>
#include <cstdint>

#include <gtest/gtest.h>

#include "keel/rlpx/enode.hpp"
#include "keel/rlpx/net.hpp"
#include "keel/rlpx/session.hpp"

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

}  // namespace keel::rlpx::test
