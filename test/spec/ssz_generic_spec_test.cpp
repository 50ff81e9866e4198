// Runner over ALL of consensus-spec-tests ssz_generic (vectors/ssz/ssz_generic, see its README):
//   valid/<case>    serialized.ssz_snappy must decode as the case's type, re-encode to the same
//                   bytes, and hash to meta.yaml's root
//   invalid/<case>  must be rejected
// Each case's type comes from INDEX.tsv's "type" column. Two kinds of invalid case are not
// decoded, each for a stated reason:
//   - "(illegal type)": Vector[T, 0] and Bitvector[0] are illegal SSZ types; keel rejects them at
//     compile time (static_assert in keel/ssz/types.hpp), so no decoder exists to run. They
//     count as rejected-as-type.
//   - "Bitlist[N] (any N; ...)": bytes without a delimiter bit; run against several N.
// A runner that finds no vectors fails; the case counts are checked against the README.
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "keel/ssz/generic_test_types.hpp"
#include "keel/ssz/snappy_block.hpp"
#include "keel/ssz/ssz.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::ssz {
namespace {

/// What decoding one case as some type gave.
struct Outcome {
    bool decoded = false;
    std::string error;  ///< to_string(Error) when not decoded
    Bytes reencoded;
    Hash32 root;
};

using CaseFn = Outcome (*)(BytesView);

template <class T>
Outcome run_as(BytesView in) {
    auto r = decode<T>(in);
    if (!r) return {false, to_string(r.error()), {}, {}};
    return {true, {}, encode(*r), hash_tree_root(*r)};
}

using Registry = std::map<std::string, CaseFn>;

template <class E, std::size_t... N>
void add_vectors(Registry& r, const std::string& elem, std::index_sequence<N...>) {
    ((r["Vector[" + elem + "," + std::to_string(N) + "]"] = &run_as<Vector<E, N>>), ...);
}

template <std::size_t... N>
void add_bits(Registry& r, std::index_sequence<N...>) {
    ((r["Bitlist[" + std::to_string(N) + "]"] = &run_as<Bitlist<N>>), ...);
    ((r["Bitvector[" + std::to_string(N) + "]"] = &run_as<Bitvector<N>>), ...);
}

/// Every type named in INDEX.tsv, by the name it has there.
const Registry& registry() {
    static const Registry types = [] {
        Registry r;
        using Sizes = std::index_sequence<1, 2, 3, 4, 5, 8, 16, 31, 512, 513>;
        add_vectors<bool>(r, "bool", Sizes{});
        add_vectors<std::uint8_t>(r, "uint8", Sizes{});
        add_vectors<std::uint16_t>(r, "uint16", Sizes{});
        add_vectors<std::uint32_t>(r, "uint32", Sizes{});
        add_vectors<std::uint64_t>(r, "uint64", Sizes{});
        add_vectors<Uint128>(r, "uint128", Sizes{});
        add_vectors<Uint256>(r, "uint256", Sizes{});
        add_bits(r, std::index_sequence<1, 2, 3, 4, 5, 8, 9, 16, 31, 32, 512, 513>{});
        r["boolean"] = &run_as<bool>;
        r["uint8"] = &run_as<std::uint8_t>;
        r["uint16"] = &run_as<std::uint16_t>;
        r["uint32"] = &run_as<std::uint32_t>;
        r["uint64"] = &run_as<std::uint64_t>;
        r["uint128"] = &run_as<Uint128>;
        r["uint256"] = &run_as<Uint256>;
        r["SingleFieldTestStruct"] = &run_as<generic::SingleFieldTestStruct>;
        r["SmallTestStruct"] = &run_as<generic::SmallTestStruct>;
        r["FixedTestStruct"] = &run_as<generic::FixedTestStruct>;
        r["VarTestStruct"] = &run_as<generic::VarTestStruct>;
        r["ComplexTestStruct"] = &run_as<generic::ComplexTestStruct>;
        r["BitsStruct"] = &run_as<generic::BitsStruct>;
        return r;
    }();
    return types;
}

struct Case {
    std::string handler, kind, name, type;
};

std::vector<Case> read_index(const std::filesystem::path& dir) {
    std::ifstream in(dir / "INDEX.tsv");
    if (!in) throw std::runtime_error("cannot read " + (dir / "INDEX.tsv").string());
    std::vector<Case> out;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::istringstream s(line);
        Case c;
        std::getline(s, c.handler, '\t');
        std::getline(s, c.kind, '\t');
        std::getline(s, c.name, '\t');
        std::getline(s, c.type, '\t');
        out.push_back(c);
    }
    return out;
}

/// meta.yaml is one line, `root: '0x<64 hex>'` (or `{root: '0x…'}`): take the 0x… token.
Hash32 read_root(const std::filesystem::path& meta) {
    const Bytes text = testutil::read_file(meta);
    const std::string s(text.begin(), text.end());
    const auto at = s.find("0x");
    if (at == std::string::npos || s.size() < at + 66) {
        throw std::runtime_error("no root in " + meta.string());
    }
    const Bytes b = testutil::from_hex(s.substr(at, 66));
    return *Hash32::from(b);
}

Bytes read_case(const std::filesystem::path& dir) {
    auto r = snappy_block_decode(testutil::read_file(dir / "serialized.ssz_snappy"), 1u << 24);
    if (!r) throw std::runtime_error(to_string(r.error()) + " in " + dir.string());
    return std::move(*r);
}

TEST(SszGenericSpec, AllCases) {
    const auto dir = testutil::vectors_dir("ssz") / "ssz_generic";
    const auto cases = read_index(dir);
    std::size_t valid = 0, invalid = 0, illegal_types = 0;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.handler + "/" + c.kind + "/" + c.name + " as " + c.type);
        const auto case_dir = dir / c.handler / c.kind / c.name;
        const Bytes bytes = read_case(case_dir);
        std::string type = c.type.substr(0, c.type.find(" = "));
        if (c.kind == "valid") {
            const auto it = registry().find(type);
            ASSERT_NE(it, registry().end()) << "no keel type for " << type;
            const Outcome o = it->second(bytes);
            ASSERT_TRUE(o.decoded) << o.error;
            EXPECT_EQ(o.reencoded, bytes);
            EXPECT_EQ(o.root, read_root(case_dir / "meta.yaml"));
            ++valid;
            continue;
        }
        ASSERT_EQ(c.kind, "invalid");
        ++invalid;
        if (type.ends_with(" (illegal type)")) {
            // Zero-length Vector / Bitvector: rejected as types at compile time (types.hpp).
            EXPECT_TRUE(type.find(",0]") != std::string::npos ||
                        type == "Bitvector[0] (illegal type)");
            ++illegal_types;
            continue;
        }
        std::vector<std::string> types{type};
        if (type.starts_with("Bitlist[N]")) types = {"Bitlist[1]", "Bitlist[8]", "Bitlist[512]"};
        for (const auto& t : types) {
            const auto it = registry().find(t);
            ASSERT_NE(it, registry().end()) << "no keel type for " << t;
            const Outcome o = it->second(bytes);
            EXPECT_FALSE(o.decoded) << "accepted as " << t;
        }
    }
    std::cout << "ssz_generic: " << valid << " valid cases passed, " << invalid
              << " invalid cases rejected (" << illegal_types
              << " of them illegal zero-length types, rejected at compile time)\n";
    EXPECT_EQ(valid, 833u);
    EXPECT_EQ(invalid, 1032u);
}

}  // namespace
}  // namespace keel::ssz
