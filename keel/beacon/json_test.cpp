// JSON through the type registry (registry.hpp, keel/ssz/json.hpp) on real data:
//   - every ssz_static case: SSZ -> JSON -> SSZ gives the same bytes, and the JSON equals the
//     case's official value.yaml (read by the small YAML reader below);
//   - the 11 real mainnet blocks: same round trip, both layouts, and spot checks against meta.yaml;
//   - the registry's errors: unknown names, JSON syntax, a mapping error deep in a real block.
//
// Why a hand-written YAML reader: value.yaml files are PyYAML output using a small subset
// (block and flow mappings and sequences, single-quoted and plain scalars), and keel takes no
// YAML dependency. It turns every scalar into a JSON string (true/false into booleans), which
// is exactly how keel's JSON prints integers, so the two trees compare with ==.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "keel/beacon/electra.hpp"
#include "keel/beacon/registry.hpp"
#include "keel/beacon/test_util.hpp"
#include "keel/common/hex.hpp"

namespace keel::beacon {
namespace {

using testing::children;

namespace fs = std::filesystem;
using nlohmann::json;

/// Reader of the YAML subset in consensus-spec-tests value.yaml files (see the file comment).
/// Throws std::runtime_error on anything outside the subset.
class MiniYaml {
  public:
    explicit MiniYaml(std::string text) : s_(std::move(text)) {}

    json parse() {
        skip_blank();
        json out = at('{') || at('[') ? flow_value() : block(column());
        skip_blank();
        if (p_ != s_.size()) error("trailing text");
        return out;
    }

  private:
    std::string s_;
    std::size_t p_ = 0;

    [[noreturn]] void error(const std::string& what) const {
        throw std::runtime_error("yaml: " + what + " at offset " + std::to_string(p_));
    }
    bool at(char c) const { return p_ < s_.size() && s_[p_] == c; }
    bool at_dash() const {
        return at('-') && (p_ + 1 == s_.size() || s_[p_ + 1] == ' ' || s_[p_ + 1] == '\n');
    }
    /// Column of p_ in its line.
    std::size_t column() const {
        const std::size_t nl = p_ == 0 ? std::string::npos : s_.rfind('\n', p_ - 1);
        return nl == std::string::npos ? p_ : p_ - nl - 1;
    }
    void skip_spaces() {
        while (at(' ')) ++p_;
    }
    /// Spaces, newlines and comment lines: to the next content.
    void skip_blank() {
        while (p_ < s_.size()) {
            if (at(' ') || at('\n') || at('\r')) {
                ++p_;
            } else if (at('#')) {
                while (p_ < s_.size() && !at('\n')) ++p_;
            } else {
                break;
            }
        }
    }
    /// After a value on a block line: only spaces may follow before the line ends.
    void end_line() {
        skip_spaces();
        if (p_ < s_.size() && !at('\n') && !at('#')) error("text after a value");
        skip_blank();
    }
    /// "name:" followed by a space or the line's end.
    bool at_key() const {
        std::size_t q = p_;
        while (q < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[q])) || s_[q] == '_')) {
            ++q;
        }
        return q > p_ && q + 1 <= s_.size() && s_[q] == ':' &&
               (q + 1 == s_.size() || s_[q + 1] == ' ' || s_[q + 1] == '\n');
    }
    std::string key() {
        const std::size_t start = p_;
        while (p_ < s_.size() && s_[p_] != ':') ++p_;
        std::string k = s_.substr(start, p_ - start);
        while (!k.empty() && k.back() == ' ') k.pop_back();
        ++p_;  // ':'
        return k;
    }

    json block(std::size_t col) { return at_dash() ? block_sequence(col) : block_mapping(col); }

    json block_mapping(std::size_t col) {
        json out = json::object();
        while (p_ < s_.size() && column() == col && !at_dash()) {
            if (!at_key()) error("expected a key");
            const std::string k = key();
            skip_spaces();
            if (p_ == s_.size() || at('\n')) {
                skip_blank();
                const std::size_t child = column();
                if (p_ < s_.size() && (child > col || (child == col && at_dash()))) {
                    out[k] = block(child);
                } else {
                    out[k] = nullptr;
                }
            } else {
                out[k] = flow_value(false);
                end_line();
            }
        }
        return out;
    }

    json block_sequence(std::size_t col) {
        json out = json::array();
        while (p_ < s_.size() && column() == col && at_dash()) {
            ++p_;
            skip_spaces();
            if (p_ == s_.size() || at('\n')) {
                skip_blank();
                out.push_back(block(column()));
            } else if (at_key()) {
                out.push_back(block_mapping(column()));
            } else {
                out.push_back(flow_value(false));
                end_line();
            }
        }
        return out;
    }

    /// A scalar or a flow collection (which may span lines).
    json flow_value(bool in_flow = true) {
        if (at('{')) return flow_collection('}');
        if (at('[')) return flow_collection(']');
        if (at('\'') || at('"')) return quoted();
        const std::size_t start = p_;
        while (p_ < s_.size() && !at('\n') && !(in_flow && (at(',') || at(']') || at('}')))) ++p_;
        std::string v = s_.substr(start, p_ - start);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\r')) v.pop_back();
        if (v.empty()) error("expected a value");
        if (v == "true") return true;
        if (v == "false") return false;
        if (v == "null" || v == "~") return nullptr;
        return v;
    }

    json quoted() {
        const char q = s_[p_++];
        std::string v;
        while (true) {
            if (p_ >= s_.size()) error("unterminated string");
            const char c = s_[p_++];
            if (c == q) {
                if (q == '\'' && at('\'')) {  // '' is a quote inside single quotes
                    v.push_back('\'');
                    ++p_;
                    continue;
                }
                return v;
            }
            if (q == '"' && c == '\\') error("escapes are outside the subset");
            v.push_back(c);
        }
    }

    json flow_collection(char close) {
        const bool mapping = close == '}';
        json out = mapping ? json::object() : json::array();
        ++p_;
        skip_blank();
        if (at(close)) {
            ++p_;
            return out;
        }
        while (true) {
            skip_blank();
            if (mapping) {
                const std::string k = key();
                skip_blank();
                out[k] = flow_value();
            } else {
                out.push_back(flow_value());
            }
            skip_blank();
            if (at(',')) {
                ++p_;
                continue;
            }
            if (!at(close)) error(std::string("expected ',' or '") + close + "'");
            ++p_;
            return out;
        }
    }
};

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

TEST(BeaconJson, MiniYamlReadsTheSubset) {
    const json j = MiniYaml(R"(a: 1
b: {c: '0x01', d: [2, 3,
     4], e: []}
f:
  - g: 'x'
    h: true
  - {g: 'y', h: false}
i:
- [5]
- 6
)")
                       .parse();
    EXPECT_EQ(j, json::parse(R"({"a":"1","b":{"c":"0x01","d":["2","3","4"],"e":[]},
        "f":[{"g":"x","h":true},{"g":"y","h":false}],"i":[["5"],"6"]})"));
    EXPECT_THROW(MiniYaml("a: 'x").parse(), std::runtime_error);
}

TEST(BeaconJson, SszStaticCasesRoundTripAndMatchValueYaml) {
    const fs::path root = testutil::vectors_dir("ssz") / "ssz_static" / "mainnet";
    int round_trips = 0, compared = 0;
    for (const fs::path& fork_dir : children(root)) {
        if (!fs::is_directory(fork_dir)) continue;
        for (const fs::path& type_dir : children(fork_dir)) {
            const std::string type =
                fork_dir.filename().string() + "." + type_dir.filename().string();
            for (const fs::path& case_dir : children(type_dir / "ssz_random")) {
                SCOPED_TRACE(case_dir.string());
                const Bytes bytes = testing::read_snappy(case_dir / "serialized.ssz_snappy");
                auto text = to_json(type, "mainnet", bytes);
                ASSERT_TRUE(text) << to_string(text.error());
                auto back = from_json(type, "mainnet", *text);
                ASSERT_TRUE(back) << to_string(back.error());
                EXPECT_TRUE(*back == bytes) << type << ": JSON round trip changed the bytes";
                ++round_trips;
                const fs::path yaml = case_dir / "value.yaml";
                if (!fs::exists(yaml)) continue;  // absent upstream for BeaconState (README)
                EXPECT_EQ(json::parse(*text), MiniYaml(read_text(yaml)).parse()) << type;
                ++compared;
            }
        }
    }
    std::printf("ssz_static JSON: %d round trips, %d compared with value.yaml\n", round_trips,
                compared);
    EXPECT_EQ(round_trips, 101);
    EXPECT_EQ(compared, 96);
}

/// The 11 real blocks: (fork, folder) pairs from INDEX.tsv.
std::vector<std::pair<std::string, fs::path>> mainnet_blocks() {
    const fs::path dir = testutil::vectors_dir("ssz") / "mainnet_blocks";
    std::ifstream index(dir / "INDEX.tsv");
    std::vector<std::pair<std::string, fs::path>> out;
    std::string line;
    while (std::getline(index, line)) {
        const auto tab = line.find('\t');
        const std::string fork = line.substr(0, tab);
        if (fork == "fork" || tab == std::string::npos) continue;
        const auto tab2 = line.find('\t', tab + 1);
        out.emplace_back(fork, dir / fork / line.substr(tab + 1, tab2 - tab - 1));
    }
    return out;
}

TEST(BeaconJson, MainnetBlocksRoundTrip) {
    int n = 0;
    for (const auto& [fork, dir] : mainnet_blocks()) {
        SCOPED_TRACE(dir.string());
        const std::string type = fork + ".BeaconBlock";
        const Bytes bytes = testutil::read_file(dir / "block.ssz");
        auto text = to_json(type, "mainnet", bytes);
        ASSERT_TRUE(text) << to_string(text.error());
        EXPECT_EQ(text->find('\n'), std::string::npos);
        auto back = from_json(type, "mainnet", *text);
        ASSERT_TRUE(back) << to_string(back.error());
        EXPECT_TRUE(*back == bytes);
        auto pretty = to_json(type, "mainnet", bytes, ssz::JsonLayout::pretty);
        ASSERT_TRUE(pretty) << to_string(pretty.error());
        EXPECT_EQ(json::parse(*pretty), json::parse(*text));
        auto pretty_back = from_json(type, "mainnet", *pretty);
        ASSERT_TRUE(pretty_back) << to_string(pretty_back.error());
        EXPECT_TRUE(*pretty_back == bytes);

        const json j = json::parse(*text);
        const fs::path meta = dir / "meta.yaml";
        EXPECT_EQ(j["parent_root"], testing::yaml_string(meta, "parent_root"));
        EXPECT_EQ(j["state_root"], testing::yaml_string(meta, "state_root"));
        EXPECT_EQ(j["body"]["execution_payload"]["block_hash"],
                  testing::yaml_string(meta, "execution_block_hash"));
        EXPECT_EQ("slot_" + j["slot"].get<std::string>(), dir.filename().string());
        ++n;
    }
    EXPECT_EQ(n, 11);
}

TEST(BeaconJson, ErrorPathInARealBlock) {
    const fs::path dir =
        testutil::vectors_dir("ssz") / "mainnet_blocks" / "deneb" / "slot_11378687";
    const Bytes bytes = testutil::read_file(dir / "block.ssz");
    auto text = to_json("deneb.BeaconBlock", "mainnet", bytes);
    ASSERT_TRUE(text) << to_string(text.error());
    json j = json::parse(*text);

    json bad = j;
    bad["body"]["attestations"][3]["data"]["slot"] = 1.5;
    auto r = from_json("deneb.BeaconBlock", "mainnet", bad.dump());
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()),
              "json: BeaconBlock.body.attestations[3].data.slot: expected a decimal string, got "
              "1.5");

    bad = j;
    bad["body"].erase("graffiti");
    r = from_json("deneb.BeaconBlock", "mainnet", bad.dump());
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()), "json: BeaconBlock.body.graffiti: missing field");

    bad = j;
    bad["body"]["execution_payload"]["transactions"][0] = "0xzz";
    r = from_json("deneb.BeaconBlock", "mainnet", bad.dump());
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()),
              "json: BeaconBlock.body.execution_payload.transactions[0]: invalid hex digit 'z' at "
              "character 2");

    bad = j;
    auto& commitments = bad["body"]["blob_kzg_commitments"];
    while (commitments.size() <= 4096) commitments.push_back(commitments[0]);
    r = from_json("deneb.BeaconBlock", "mainnet", bad.dump());
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()),
              "json: BeaconBlock.body.blob_kzg_commitments: list of 4097 elements is longer than "
              "its limit 4096");

    bad = j;
    bad["body"]["sync_aggregate"]["sync_committee_bits"] = "0x00";
    r = from_json("deneb.BeaconBlock", "mainnet", bad.dump());
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()),
              "json: BeaconBlock.body.sync_aggregate.sync_committee_bits: hex string of wrong "
              "length: 1 bytes, Bitvector[512] needs 64");
}

TEST(BeaconJson, RegistryErrors) {
    auto r = from_json("deneb.Nope", "mainnet", "{}");
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()), "unknown type 'deneb.Nope': Nope is not a deneb container");
    r = from_json("deneb.Checkpoint", "gnosis", "{}");
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()), "unknown preset 'gnosis' (expected mainnet or minimal)");
    r = from_json("deneb.Checkpoint", "mainnet", "{\"epoch\": \"1\",");
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()),
              "json: parse error at line 1, column 15: syntax error while parsing object key - "
              "unexpected end of input; expected string literal");
    r = from_json("deneb.Checkpoint", "mainnet", "[1e999]");
    ASSERT_FALSE(r);
    EXPECT_EQ(to_string(r.error()).rfind("json: number overflow", 0), 0u) << to_string(r.error());
    auto t = to_json("deneb.Checkpoint", "mainnet", Bytes(39));
    ASSERT_FALSE(t);
    EXPECT_EQ(to_string(t.error()),
              "ssz: Checkpoint: wrong size (39 bytes, expected 40) at offset 0");
    auto c = from_json("deneb.Checkpoint", "minimal",
                       R"({"epoch":"1","root":"0x)" + std::string(64, 'A') + "\"}");
    ASSERT_TRUE(c) << to_string(c.error());
    EXPECT_EQ(hex::encode(*c), "0100000000000000" + std::string(64, 'a'));
}

TEST(BeaconJson, EveryRegisteredTypeHasJsonHandlers) {
    // Every type is a container: "{}" lacks its first field, and no bytes are not a value of it.
    int n = 0;
    for (const std::string& type : registered_types()) {
        for (const char* preset : {"mainnet", "minimal"}) {
            auto r = from_json(type, preset, "{}");
            ASSERT_FALSE(r) << type;
            EXPECT_NE(to_string(r.error()).find(": missing field"), std::string::npos)
                << to_string(r.error());
            EXPECT_FALSE(to_json(type, preset, Bytes{}));
            ++n;
        }
    }
    EXPECT_GT(n, 300);
}

TEST(BeaconJson, MinimalStateRoundTrip) {
    // A minimal electra state with some content in its lists, through the registry both ways.
    auto state = std::make_unique<electra::minimal::BeaconState>();
    state->slot = 9;
    state->validators.resize(3);
    state->validators[1].exit_epoch = ~0ull;
    state->balances = {1, 2, 3};
    state->previous_epoch_participation = {0, 7, 255};
    state->justification_bits.set(2, true);
    const Bytes bytes = ssz::encode(*state);
    auto text = to_json("electra.BeaconState", "minimal", bytes);
    ASSERT_TRUE(text) << to_string(text.error());
    const json j = json::parse(*text);
    EXPECT_EQ(j["previous_epoch_participation"], json::parse(R"(["0","7","255"])"));
    EXPECT_EQ(j["validators"][1]["exit_epoch"], "18446744073709551615");
    EXPECT_EQ(j["justification_bits"], "0x04");
    auto back = from_json("electra.BeaconState", "minimal", *text);
    ASSERT_TRUE(back) << to_string(back.error());
    EXPECT_TRUE(*back == bytes);
    EXPECT_FALSE(from_json("electra.BeaconState", "mainnet", *text));
}

}  // namespace
}  // namespace keel::beacon
