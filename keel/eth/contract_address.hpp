#pragma once
/// The address of a contract created by a transaction or CREATE (yellow paper eq. 85):
/// the last 20 bytes of keccak256(rlp([sender, nonce])). CREATE2's is the EVM's (evm.hpp).
#include <cstdint>

#include "keel/common/bytes.hpp"

namespace keel::eth {

/// The address a creation by `sender` with account nonce `nonce` gives.
Address contract_address(const Address& sender, std::uint64_t nonce);

}  // namespace keel::eth
