#pragma once
/// The Engine API's ExecutionPayload (execution-apis src/engine: paris.md V1, shanghai.md V2
/// with withdrawals, cancun.md V3 with blobGasUsed and excessBlobGas) to and from an eth::Block.
/// A payload becomes a post-Merge block: no ommers, difficulty and nonce zero, mixHash the
/// prevRandao, the transactions and withdrawals roots computed, the parent beacon block root
/// (V3) and the requests hash of EIP-7685 (V4's executionRequests) given beside it.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "keel/common/json_writer.hpp"
#include "keel/eth/block.hpp"
#include "keel/rpc/errors.hpp"

namespace keel::rpc {

/// A payload read from JSON, with the hash it claims (blockHash).
struct Payload {
    eth::Block block;
    Hash32 claimed_hash;
    /// The transactions did not decode: the payload is INVALID (not a parameter error), with
    /// this reason.
    std::optional<std::string> invalid;
};

/// Reads an ExecutionPayloadV`version` (1..3; V4's payload is V3's). Members a version does not
/// have are refused, as are missing ones (-32602, "invalid argument 0: ..."), geth's check.
[[nodiscard]] Result<Payload, RpcError> payload_of(const nlohmann::json& payload, int version,
                                                   std::optional<Hash32> parent_beacon_root,
                                                   std::optional<Hash32> requests_hash);

/// EIP-7685's executionRequests (V4): a list of "type ++ data", types ascending, none empty.
/// Returns each type's data (requests[i]: type i), for chain::requests_hash(). Errors: -32602.
[[nodiscard]] Result<std::vector<Bytes>, RpcError> execution_requests_of(const nlohmann::json& v,
                                                                         std::size_t index);

/// Writes `b` as an ExecutionPayloadV`version` (1..3); as V2, a block without withdrawals (before
/// Shanghai) is written as V1 is, without the member.
void write_payload(json::Writer& w, const eth::Block& b, int version);

/// Writes EIP-7685 requests (requests[i]: type i's data) as executionRequests: the non-empty
/// ones, each "type ++ data".
void write_execution_requests(json::Writer& w, std::span<const Bytes> requests);

}  // namespace keel::rpc
