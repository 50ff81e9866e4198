#pragma once
// Shared by the blockchain module's tests: the hive rpc-compat chain's files, and a store made
// from its genesis (optionally with the whole chain imported, executing).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "keel/blockchain/executor.hpp"
#include "keel/blockchain/init.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/common/hex.hpp"
#include "keel/store/import.hpp"
#include "test/testutil/temp_dir.hpp"

namespace keel::blockchain::testing {

inline const std::filesystem::path kHiveDir =
    std::filesystem::path(KEEL_VECTORS_DIR) / "rpc" / "tests";

inline std::string file_text(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A store initialised with the hive chain's genesis.
struct HiveStore {
    testutil::TempDir dir{"blockchain"};
    std::optional<store::ChainStore> store;
    chain::Genesis genesis;
};

inline void init_hive(HiveStore& out) {
    const std::string json = file_text(kHiveDir / "genesis.json");
    ASSERT_FALSE(json.empty()) << "missing " << (kHiveDir / "genesis.json");
    auto g = chain::parse_genesis(json);
    ASSERT_TRUE(g.has_value()) << chain::to_string(g.error());
    out.genesis = std::move(*g);
    auto s = store::ChainStore::create(out.dir.path() / "db");
    ASSERT_TRUE(s.has_value()) << s.error().message;
    out.store.emplace(std::move(*s));
    auto r = init_store(*out.store, out.genesis, json);
    ASSERT_TRUE(r.has_value()) << r.error();
    EXPECT_FALSE(r->already);
    EXPECT_EQ(r->state_root, out.genesis.header.state_root);
}

/// init_hive(), then chain.rlp imported executing.
inline void import_hive(HiveStore& out) {
    init_hive(out);
    auto executor = StoreExecutor::create(*out.store);
    ASSERT_TRUE(executor.has_value()) << executor.error();
    auto importer = store::Importer::create(*out.store, {.executor = executor->get()});
    ASSERT_TRUE(importer.has_value()) << importer.error().message;
    auto report = importer->import_file(kHiveDir / "chain.rlp");
    ASSERT_TRUE(report.has_value()) << report.error().message;
}

/// One exchange of hive's rpc-compat suite: the request and the response it expects.
struct Exchange {
    std::filesystem::path file;
    nlohmann::json request;
    nlohmann::json response;
    /// "// speconly:": only the result's schema is checked; the recorded answer is an example.
    bool speconly = false;
};

/// The exchanges of one method's folder, sorted by file name.
inline std::vector<Exchange> exchanges(const std::string& method) {
    std::vector<Exchange> out;
    for (const auto& e : std::filesystem::directory_iterator(kHiveDir / method)) {
        if (e.path().extension() != ".io") continue;
        std::istringstream lines(file_text(e.path()));
        // A file may hold several exchanges (">>" then "<<", in order); each is one entry.
        std::string line, request;
        bool speconly = false;
        std::vector<std::pair<std::string, std::string>> pairs;
        while (std::getline(lines, line)) {
            if (line.starts_with(">> ")) request = line.substr(3);
            if (line.starts_with("<< ")) pairs.emplace_back(request, line.substr(3));
            if (line.starts_with("// speconly")) speconly = true;
        }
        for (const auto& [req, resp] : pairs) {
            out.push_back(
                {e.path(), nlohmann::json::parse(req), nlohmann::json::parse(resp), speconly});
        }
    }
    // By file, a file's exchanges in their order (std::sort with the position as the tie-break:
    // libstdc++'s stable_sort trips clang's deprecation of get_temporary_buffer).
    std::vector<std::size_t> order(out.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&out](std::size_t a, std::size_t b) {
        return out[a].file < out[b].file || (out[a].file == out[b].file && a < b);
    });
    std::vector<Exchange> sorted;
    sorted.reserve(out.size());
    for (std::size_t i : order) sorted.push_back(std::move(out[i]));
    return sorted;
}

// A block parameter of the suite: a number, latest, earliest or a block hash; nullopt for a
// hash the store does not have.
inline std::optional<std::uint64_t> block_of(const store::ChainStore& s, const std::string& b) {
    if (b == "latest") return s.head().value().value();
    if (b == "earliest") return 0;
    if (b.size() == 66) {
        auto n = s.block_number(*hex::decode_fixed<Hash32>(b));
        if (!n.value().found()) return std::nullopt;
        return n->value;
    }
    return std::stoull(b, nullptr, 16);
}

}  // namespace keel::blockchain::testing
