#pragma once
/// The words the tracers print for instructions and errors: geth's, so that traces diff cleanly
/// against geth's (and the tools built on them read keel's).

#include <cstddef>
#include <cstdint>
#include <string>

#include "keel/eth/fork.hpp"
#include "keel/evm/message.hpp"

namespace keel::trace {

/// geth's phrase for a status ("out of gas", "execution reverted", "write protection", ...);
/// `op` and `stack_size` complete the phrases that name them (undefined opcode, stack bounds).
std::string status_phrase(evm::Status status, std::uint8_t op, std::size_t stack_size,
                          eth::Fork fork);

/// Appends the mnemonic of `op` in `fork` ("PUSH1", "DIFFICULTY" before Paris), or geth's
/// "opcode 0xef not defined" for one the fork lacks.
void append_op_name(std::string& out, std::uint8_t op, eth::Fork fork);

}  // namespace keel::trace
