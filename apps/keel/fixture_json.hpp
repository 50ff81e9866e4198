#pragma once
// Reading execution test fixtures (ethereum/tests, execution-spec-tests) for `keel evm
// statetest` and `keel evm blocktest`: numbers, hex, fixed-size values and pre-states out of
// nlohmann JSON, each failure a Failure (exit 1) naming the test and the field.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"
#include "keel/state/memory_state.hpp"

namespace keel::cli::fixture {

using nlohmann::json;

/// Throws Failure{kExitBadData, "<where>: <what>"}.
[[noreturn]] void bad(const std::string& where, const std::string& what);

/// A "0x.." or decimal number string of at most 256 bits.
Uint256 number(const json& j, const std::string& where);
/// As number(), at most 64 bits.
std::uint64_t u64(const json& j, const std::string& where);
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

}  // namespace keel::cli::fixture
