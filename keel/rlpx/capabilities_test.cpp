// Capability matching (rlpx.md "Message ID-based Multiplexing"): highest shared version per
// name, sorted by name, consecutive code ranges from 0x10; lookups by code and by name.
#include "keel/rlpx/capabilities.hpp"

#include <gtest/gtest.h>

namespace keel::rlpx {
namespace {

Protocol proto(std::string name, std::uint64_t version) {
    auto length = known_protocol_length(name, version);
    return Protocol{{std::move(name), version}, length ? *length : 5};
}

TEST(RlpxCapabilities, KnownLengths) {
    EXPECT_EQ(known_protocol_length("eth", 66), 17U);
    EXPECT_EQ(known_protocol_length("eth", 68), 17U);
    EXPECT_EQ(known_protocol_length("eth", 69), 18U);
    EXPECT_EQ(known_protocol_length("snap", 1), 8U);
    EXPECT_FALSE(known_protocol_length("eth", 70).has_value());
    EXPECT_FALSE(known_protocol_length("les", 4).has_value());
}

TEST(RlpxCapabilities, HighestSharedVersionPerNameSortedByName) {
    // Ours lists snap before eth and eth/67 after eth/68; the peer lacks our eth/69 and has a
    // wit/0 we do not run.
    const std::vector<Protocol> ours = {proto("snap", 1), proto("eth", 68), proto("eth", 67),
                                        proto("eth", 69)};
    const std::vector<Capability> theirs = {
        {"eth", 66}, {"eth", 67}, {"eth", 68}, {"snap", 1}, {"wit", 0}};
    const auto shared = match_capabilities(ours, theirs);
    ASSERT_EQ(shared.size(), 2U);
    EXPECT_EQ(shared[0].capability, (Capability{"eth", 68}));
    EXPECT_EQ(shared[0].offset, 0x10U);
    EXPECT_EQ(shared[0].length, 17U);
    EXPECT_EQ(shared[1].capability, (Capability{"snap", 1}));
    EXPECT_EQ(shared[1].offset, 0x21U);
    EXPECT_EQ(shared[1].length, 8U);

    EXPECT_EQ(capability_of(shared, 0x0f), nullptr);
    EXPECT_EQ(capability_of(shared, 0x10), &shared[0]);
    EXPECT_EQ(capability_of(shared, 0x20), &shared[0]);
    EXPECT_EQ(capability_of(shared, 0x21), &shared[1]);
    EXPECT_EQ(capability_of(shared, 0x28), &shared[1]);
    EXPECT_EQ(capability_of(shared, 0x29), nullptr);
    EXPECT_EQ(find_capability(shared, "snap"), &shared[1]);
    EXPECT_EQ(find_capability(shared, "wit"), nullptr);
    EXPECT_EQ(to_string(shared[0].capability), "eth/68");
}

TEST(RlpxCapabilities, NothingInCommon) {
    const std::vector<Protocol> ours = {proto("eth", 68)};
    EXPECT_TRUE(match_capabilities(ours, std::vector<Capability>{{"eth", 67}}).empty());
    EXPECT_TRUE(match_capabilities(ours, std::vector<Capability>{{"ETH", 68}}).empty());
    EXPECT_TRUE(match_capabilities(ours, std::vector<Capability>{}).empty());
    EXPECT_TRUE(match_capabilities({}, std::vector<Capability>{{"eth", 68}}).empty());
}

TEST(RlpxCapabilities, NamesSortByteWise) {
    // "Eth" < "eth" < "eth2" < "snap" in byte order; lengths from the protocols.
    const std::vector<Protocol> ours = {
        {{"snap", 1}, 8}, {{"eth2", 1}, 3}, {{"Eth", 1}, 2}, {{"eth", 68}, 17}};
    const std::vector<Capability> theirs = {{"eth", 68}, {"snap", 1}, {"Eth", 1}, {"eth2", 1}};
    const auto shared = match_capabilities(ours, theirs);
    ASSERT_EQ(shared.size(), 4U);
    EXPECT_EQ(shared[0].capability.name, "Eth");
    EXPECT_EQ(shared[0].offset, 0x10U);
    EXPECT_EQ(shared[1].capability.name, "eth");
    EXPECT_EQ(shared[1].offset, 0x12U);
    EXPECT_EQ(shared[2].capability.name, "eth2");
    EXPECT_EQ(shared[2].offset, 0x23U);
    EXPECT_EQ(shared[3].capability.name, "snap");
    EXPECT_EQ(shared[3].offset, 0x26U);
}

}  // namespace
}  // namespace keel::rlpx
