#pragma once
/// The words the tracers print for instructions and errors: geth's, so that traces diff cleanly
/// against geth's (and the tools built on them read keel's).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "keel/common/bytes.hpp"
#include "keel/eth/fork.hpp"
#include "keel/evm/message.hpp"

namespace keel::trace {

/// geth's phrase for a status ("out of gas", "execution reverted", "write protection", ...);
/// `op` and `stack_size` complete the phrases that name them (undefined opcode, stack bounds).
std::string status_phrase(evm::Status status, std::uint8_t op, std::size_t stack_size,
                          eth::Fork fork);

/// geth's error for a precompile that failed on `input` (`id`: 0x01..0x11, 0x100): BLAKE2F's
/// "invalid input length" and "invalid final flag", the point evaluation's and BLS12-381's
/// length errors, the BN254 pairing's size; "precompile failed" where keel does not say why.
std::string precompile_failure_phrase(std::uint16_t id, BytesView input);

/// The reason a revert's output gives, as geth's callTracer shows it (`revertReason`): the
/// string of an ABI-encoded Error(string), or Solidity's words for a Panic(uint256) code
/// ("assert(false)", "unknown panic code: 0x..."). nullopt for any other output.
std::optional<std::string> revert_reason(BytesView output);

/// Appends the mnemonic of `op` in `fork` ("PUSH1", "DIFFICULTY" before Paris), or geth's
/// "opcode 0xef not defined" for one the fork lacks.
void append_op_name(std::string& out, std::uint8_t op, eth::Fork fork);

}  // namespace keel::trace
