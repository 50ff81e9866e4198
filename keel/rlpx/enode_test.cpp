// enode URLs: good ones (IPv4, IPv6, DNS names, discport), bad ones with the error and offset.
#include <gtest/gtest.h>

#include "keel/rlpx/enode.hpp"

namespace keel::rlpx {
namespace {

const std::string kId =
    "ca634cae0d49acb401d8a4c6b6fe8c55b70d115bf400769cc1400f3258cd31387574077f301b421bc84df7266c"
    "44e9e6d569fc56be00812904767bf5ccd1fc7f";

TEST(RlpxEnode, ParsesAndPrints) {
    const auto e = parse_enode("enode://" + kId + "@127.0.0.1:30303");
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->host, "127.0.0.1");
    EXPECT_EQ(e->port, 30303);
    EXPECT_EQ(e->discport, 0);
    EXPECT_EQ(e->id[0], 0xca);
    EXPECT_EQ(e->id[63], 0x7f);
    EXPECT_EQ(to_string(*e), "enode://" + kId + "@127.0.0.1:30303");

    const auto v6 = parse_enode("enode://" + kId + "@[::1]:30304?discport=30301");
    ASSERT_TRUE(v6.has_value());
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->port, 30304);
    EXPECT_EQ(v6->discport, 30301);
    EXPECT_EQ(to_string(*v6), "enode://" + kId + "@[::1]:30304?discport=30301");

    const auto dns = parse_enode("enode://" + kId + "@boot.example-net.org:1");
    ASSERT_TRUE(dns.has_value());
    EXPECT_EQ(dns->host, "boot.example-net.org");
    EXPECT_EQ(dns->port, 1);
}

TEST(RlpxEnode, RejectsBadUrls) {
    struct Case {
        std::string url;
        EnodeErrc code;
        std::size_t offset;
    };
    const std::string pre = "enode://" + kId;
    const Case cases[] = {
        {"enr://x", EnodeErrc::missing_scheme, 0},
        {"enode://abcd@1.2.3.4:5", EnodeErrc::bad_node_id, 8},
        {"enode://" + kId.substr(0, 127) + "g@1.2.3.4:5", EnodeErrc::bad_node_id, 8},
        {pre, EnodeErrc::missing_host, 136},
        {pre + "@:30303", EnodeErrc::bad_host, 137},
        {pre + "@1.2.3.4", EnodeErrc::bad_port, 144},
        {pre + "@1.2.3.4:", EnodeErrc::bad_port, 145},
        {pre + "@1.2.3.4:0", EnodeErrc::bad_port, 145},
        {pre + "@1.2.3.4:65536", EnodeErrc::bad_port, 145},
        {pre + "@1.2.3.4:30x", EnodeErrc::bad_port, 145},
        {pre + "@[::1:30303", EnodeErrc::bad_host, 137},
        {pre + "@bad host:1", EnodeErrc::bad_host, 137},
        {pre + "@1.2.3.4:1?x=2", EnodeErrc::bad_query, 146},
        {pre + "@1.2.3.4:1?discport=", EnodeErrc::bad_query, 146},
    };
    for (const Case& c : cases) {
        const auto r = parse_enode(c.url);
        ASSERT_FALSE(r.has_value()) << c.url;
        EXPECT_EQ(r.error().code, c.code) << c.url << ": " << to_string(r.error());
        EXPECT_EQ(r.error().offset, c.offset) << c.url;
    }
}

}  // namespace
}  // namespace keel::rlpx
