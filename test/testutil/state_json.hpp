#pragma once
/// A test fixture's accounts ("pre", "postState", "alloc": address -> {nonce, balance, code,
/// storage}) as a state::MemoryState. Header-only: the test that includes it links keel::state.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/state/memory_state.hpp"
#include "test/testutil/hex.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::testutil {

inline state::MemoryState memory_state_of(const nlohmann::json& alloc) {
    state::MemoryState m;
    for (const auto& [address, acc] : alloc.items()) {
        std::vector<std::pair<Uint256, Uint256>> slots;
        for (const auto& [k, v] : acc.at("storage").items())
            slots.emplace_back(uint256_from_string(k), uint256_from_string(v.get<std::string>()));
        const Uint256 nonce = uint256_from_string(acc.at("nonce").get<std::string>());
        m.put(fixed_from_hex<Address>(address), nonce.as_u64(),
              uint256_from_string(acc.at("balance").get<std::string>()),
              from_hex(acc.at("code").get<std::string>()), slots);
    }
    return m;
}

}  // namespace keel::testutil
