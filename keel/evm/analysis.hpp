#pragma once
/// Code analysis, once per code: the valid jump destinations (a JUMPDEST byte that is an
/// instruction, not push data) and the code padded so that the interpreter never reads past
/// the end (a PUSH cut short reads zeros, as the yellow paper says; the padding's first byte is
/// STOP, so running off the end stops).
///
/// AnalysisCache keeps analyses by code hash for the contracts an Evm runs again and again.
/// Threading: an analysis is immutable and may be shared; a cache is used by one thread.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "keel/common/bytes.hpp"

namespace keel::evm {

struct CodeAnalysis {
    /// Bytes after the end of the code: enough for a PUSH32 at the last byte, plus a STOP.
    static constexpr std::size_t kPadding = 33;

    Bytes padded;                        ///< the code, then kPadding zero bytes
    std::vector<std::uint8_t> jumpdest;  ///< 1 at every valid jump destination
    std::size_t size = 0;                ///< the code's own length

    bool is_jumpdest(std::uint64_t pc) const noexcept { return pc < size && jumpdest[pc] != 0; }
    BytesView code() const noexcept { return {padded.data(), size}; }
};

CodeAnalysis analyze(BytesView code);

class AnalysisCache {
  public:
    /// The analysis of `code`, whose keccak256 is `code_hash`, made on first use.
    std::shared_ptr<const CodeAnalysis> get(const Hash32& code_hash, BytesView code);
    std::size_t size() const noexcept { return map_.size(); }

  private:
    std::unordered_map<Hash32, std::shared_ptr<const CodeAnalysis>> map_;
};

}  // namespace keel::evm
