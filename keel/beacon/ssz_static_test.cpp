// Every official ssz_static case under vectors/ssz/ssz_static/mainnet/<fork>/<Type>/ssz_random/
// (consensus-spec-tests; roots computed independently, see the vectors' README): decode as
// <fork>.<Type> with the mainnet preset through the registry, re-encode byte-equal, and compare
// hash_tree_root with roots.yaml.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "keel/beacon/registry.hpp"
#include "keel/beacon/test_util.hpp"
#include "keel/common/hex.hpp"

namespace keel::beacon {
namespace {

using testing::children;

namespace fs = std::filesystem;

TEST(BeaconSszStatic, AllMainnetCases) {
    const fs::path root = testutil::vectors_dir("ssz") / "ssz_static" / "mainnet";
    int passed = 0;
    for (const fs::path& fork_dir : children(root)) {
        if (!fs::is_directory(fork_dir)) continue;
        for (const fs::path& type_dir : children(fork_dir)) {
            const std::string type =
                fork_dir.filename().string() + "." + type_dir.filename().string();
            for (const fs::path& case_dir : children(type_dir / "ssz_random")) {
                SCOPED_TRACE(case_dir.string());
                const Bytes bytes = testing::read_snappy(case_dir / "serialized.ssz_snappy");
                auto r = decode_and_root(type, "mainnet", bytes);
                ASSERT_TRUE(r) << type << ": " << to_string(r.error());
                EXPECT_TRUE(r->encoded == bytes) << type << ": re-encoding differs";
                EXPECT_EQ(hex::encode_prefixed(r->root.view()),
                          testing::yaml_string(case_dir / "roots.yaml", "root"))
                    << type;
                ++passed;
            }
        }
    }
    std::printf("ssz_static mainnet: %d passed, 0 skipped\n", passed);
    EXPECT_GT(passed, 0);
}

}  // namespace
}  // namespace keel::beacon
