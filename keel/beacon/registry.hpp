#pragma once
/// Beacon containers by name, for tools that learn the type at run time (the CLI's
/// `ssz root`, `ssz decode`, `ssz encode`): "deneb.BeaconBlock" with preset "mainnet" or
/// "minimal".
///
/// Every container of every fork is registered under "<fork>.<Type>", including the ones a fork
/// reuses unchanged ("electra.Checkpoint" is phase0's Checkpoint): the specs' containers, the
/// req/resp and ENR payloads of the p2p specs ("fulu.StatusV2", "altair.MetaData"), the builder
/// API's ("deneb.BlindedBeaconBlock", "fulu.BlobsBundle") and the Beacon API's BlockContents.

#include <string>
#include <string_view>
#include <vector>

#include "keel/beacon/errors.hpp"
#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/ssz/json.hpp"

namespace keel::beacon {

/// What decode_and_root gives back for a valid input.
struct TypedResult {
    Hash32 root;    ///< hash_tree_root of the decoded value
    Bytes encoded;  ///< the value re-encoded (equal to the input for a valid encoding)
};

/// Checks that `type` ("<fork>.<Type>") is registered and `preset` is "mainnet" or "minimal",
/// without touching any input: Errc::unknown_type or Errc::unknown_preset (is_usage()), so a
/// tool can refuse a bad name before it reads a file.
[[nodiscard]] Result<void, Error> check_type(std::string_view type, std::string_view preset);

/// Decodes `in` as `type` ("<fork>.<Type>") of `preset` ("mainnet" or "minimal") and returns
/// its root and re-encoding. Errors (errors.hpp; to_string() gives the line): an unknown type or
/// preset, or Errc::ssz with the SSZ rule, field path and byte offset ("ssz:
/// BeaconBlock.body.… at offset n"). Thread-safe; the decoded value lives on the heap only for
/// the call.
[[nodiscard]] Result<TypedResult, Error> decode_and_root(std::string_view type,
                                                         std::string_view preset, BytesView in);

/// Decodes `in` as `type` of `preset` and prints it as JSON in the consensus-specs mapping
/// (keel/ssz/json.hpp): one line, or indented. Errors: an unknown type or preset, or
/// Errc::ssz with its field path and byte offset. Thread-safe.
[[nodiscard]] Result<std::string, Error> to_json(std::string_view type, std::string_view preset,
                                                 BytesView in,
                                                 ssz::JsonLayout layout = ssz::JsonLayout::compact);

/// Parses `json_text`, reads it as `type` of `preset` and returns its SSZ encoding. Errors: an
/// unknown type or preset, Errc::json_syntax for text that is not JSON ("json: parse error at
/// line 1, column 7: ...", offset: the character), or Errc::json for a value the mapping
/// rejects, with its path ("json: BeaconBlock.slot: expected a decimal string, got 1.5").
/// Thread-safe.
[[nodiscard]] Result<Bytes, Error> from_json(std::string_view type, std::string_view preset,
                                             std::string_view json_text);

/// Every registered type name, "<fork>.<Type>", in fork order.
std::vector<std::string> registered_types();

}  // namespace keel::beacon
