#pragma once
/// Beacon containers by name, for tools that learn the type at run time (the CLI's
/// `ssz decode`/`ssz root`): "deneb.BeaconBlock" with preset "mainnet" or "minimal".
///
/// Every container of every fork is registered under "<fork>.<Type>", including the ones a fork
/// reuses unchanged ("electra.Checkpoint" is phase0's Checkpoint).

#include <string>
#include <string_view>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"

namespace keel::beacon {

/// What decode_and_root gives back for a valid input.
struct TypedResult {
    Hash32 root;    ///< hash_tree_root of the decoded value
    Bytes encoded;  ///< the value re-encoded (equal to the input for a valid encoding)
};

/// Decodes `in` as `type` ("<fork>.<Type>") of `preset` ("mainnet" or "minimal") and returns
/// its root and re-encoding. Errors (one line, for people): an unknown type or preset, or the
/// SSZ decoding error with its field path and byte offset ("ssz: BeaconBlock.body.… at offset
/// n"). Thread-safe; the decoded value lives on the heap only for the call.
Result<TypedResult, std::string> decode_and_root(std::string_view type, std::string_view preset,
                                                 BytesView in);

/// Every registered type name, "<fork>.<Type>", in fork order.
std::vector<std::string> registered_types();

}  // namespace keel::beacon
