#pragma once
/// Beacon containers by name, for tools that learn the type at run time (the CLI's
/// `ssz root`, `ssz decode`, `ssz encode`): "deneb.BeaconBlock" with preset "mainnet" or
/// "minimal".
///
/// Every container of every fork is registered under "<fork>.<Type>", including the ones a fork
/// reuses unchanged ("electra.Checkpoint" is phase0's Checkpoint).

#include <string>
#include <string_view>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/ssz/json.hpp"

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

/// Decodes `in` as `type` of `preset` and prints it as JSON in the consensus-specs mapping
/// (keel/ssz/json.hpp): one line, or indented. Errors (one line): an unknown type or preset, or
/// the SSZ decoding error with its field path and byte offset. Thread-safe.
Result<std::string, std::string> to_json(std::string_view type, std::string_view preset,
                                         BytesView in,
                                         ssz::JsonLayout layout = ssz::JsonLayout::compact);

/// Parses `json_text`, reads it as `type` of `preset` and returns its SSZ encoding. Errors (one
/// line): an unknown type or preset, text that is not JSON ("json: parse error at line 1,
/// column 7: ..."), or a value the mapping rejects, with its path ("json: BeaconBlock.slot:
/// expected a decimal string, got 1.5"). Thread-safe.
Result<Bytes, std::string> from_json(std::string_view type, std::string_view preset,
                                     std::string_view json_text);

/// Every registered type name, "<fork>.<Type>", in fork order.
std::vector<std::string> registered_types();

}  // namespace keel::beacon
