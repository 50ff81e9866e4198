#pragma once
// Reading execution test fixtures (ethereum/tests, execution-spec-tests) for `keel evm
// statetest` and `keel evm blocktest`: numbers, hex, fixed-size values and pre-states out of
// nlohmann JSON, each failure a Failure (exit 1) naming the test and the field.
#include <bitset>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/common/bytes.hpp"
#include "keel/common/printable.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/state/memory_state.hpp"

namespace keel::cli::fixture {

using nlohmann::json;

/// Throws Failure{kExitBadData, "<where>: <what>"}. Every piece of `where` and `what` taken from
/// a fixture (test names, keys, values) has been through printable() already.
[[noreturn]] void bad(const std::string& where, const std::string& what);

/// A "0x.." or decimal number string of at most 256 bits.
Uint256 number(const json& j, const std::string& where);
/// As number(), at most 64 bits.
std::uint64_t u64(const json& j, const std::string& where);
/// A string member's text.
std::string text(const json& j, const std::string& where);
/// A whole number (JSON number, not a string): the post entries' `indexes`.
std::size_t index(const json& j, const std::string& where);
/// Entry `i` of an array.
const json& element(const json& j, std::size_t i, const std::string& where);
/// Hex bytes ("0x.."; ethereum/tests' ":raw 0x.." too).
Bytes bytes_of(const json& j, const std::string& where);
/// A member that must be there.
const json& field(const json& j, const char* key, const std::string& where);
/// "0x"-prefixed hex of a hash.
std::string hex32(const Hash32& h);

/// Hex of at most Fixed::size() bytes, right-aligned (addresses, hashes, keys).
template <class Fixed>
Fixed fixed_of(const json& j, const std::string& where) {
    const Bytes b = bytes_of(j, where);
    auto f = Fixed::from_right_aligned(b);
    if (!f) bad(where, "longer than " + std::to_string(Fixed::size()) + " bytes");
    return *f;
}

/// A fixture's "pre" (or "postState"): address -> {nonce, balance, code, storage}.
state::MemoryState accounts(const json& pre, const std::string& where);

/// A `blobSchedule` entry ({target, max, baseFeeUpdateFraction}), checked: a value the chain
/// rules cannot use (a fraction of 0, eth::blob_params_problem) is bad data naming the field.
eth::BlobParams blob_params_of(const json& entry, const std::string& where);

/// `text` (already escaped where it came from input) made one line for output: control
/// characters as \xNN, cut after `max` characters.
std::string one_line(std::string_view text, std::size_t max = 1000);

/// Test names, field values and paths from fixtures pass through keel::printable
/// (common/printable.hpp) before they reach an error line.
using keel::printable;

/// The pattern of `--run`: a regular expression searched for in each test name, matched by a
/// Thompson NFA in time linear in the name and without recursion (std::regex's backtracking
/// engine recursed once per character and overflowed the stack on a 30,000-character name).
/// The syntax is ECMAScript's common core: literals, `.`, `[...]` and `[^...]` with ranges,
/// `\d \w \s \D \W \S` and escaped punctuation, `^`, `$`, groups `(...)` and `(?:...)`, `|`,
/// and the quantifiers `*`, `+`, `?` (a lazy `?` suffix is accepted and changes nothing for a
/// yes/no match) and `{n}`, `{n,}`, `{n,m}` up to 100. At most 1,000 characters.
class NamePattern {
  public:
    /// Compiles `pattern`; throws Failure (exit 2) naming what is wrong and where.
    explicit NamePattern(std::string_view pattern);
    /// Whether the pattern matches somewhere in `name`.
    bool search(std::string_view name) const;

  private:
    enum class Op : std::uint8_t { byte, any, set, split, jump, match, line_start, line_end };
    struct Inst {
        Op op;
        std::uint8_t byte = 0;
        std::uint32_t x = 0, y = 0;  ///< jump targets; for set, the index of the set
    };
    std::vector<Inst> prog_;
    std::vector<std::bitset<256>> sets_;
    friend struct PatternCompiler;
};

}  // namespace keel::cli::fixture
