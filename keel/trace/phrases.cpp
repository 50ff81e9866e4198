#include "keel/trace/phrases.hpp"

#include <cstdio>

#include "keel/evm/evm.hpp"
#include "keel/evm/opcodes.hpp"

namespace keel::trace {

std::string status_phrase(evm::Status status, std::uint8_t op, std::size_t stack_size,
                          eth::Fork fork) {
    using evm::Status;
    const evm::OpTraits& t = evm::op_table(fork)[op];
    switch (status) {
        case Status::success:
            return {};
        case Status::revert:
            return "execution reverted";
        case Status::out_of_gas:
            return "out of gas";
        case Status::invalid_instruction:
            return "invalid opcode: INVALID";
        case Status::undefined_instruction: {
            char tmp[40];
            std::snprintf(tmp, sizeof tmp, "invalid opcode: opcode 0x%x not defined", op);
            return tmp;
        }
        case Status::stack_underflow:
            return "stack underflow (" + std::to_string(stack_size) + " <=> " +
                   std::to_string(t.stack_in) + ")";
        case Status::stack_overflow:
            return "stack limit reached " + std::to_string(stack_size) + " (" +
                   std::to_string(static_cast<int>(evm::kStackLimit) - t.stack_change) + ")";
        case Status::bad_jump_destination:
            return "invalid jump destination";
        case Status::invalid_memory_access:
            return "return data out of bounds";
        case Status::static_mode_violation:
            return "write protection";
        case Status::precompile_failure:
            return "precompile failed";
        case Status::contract_validation_failure:
            return "invalid code: must not begin with 0xef";
        case Status::code_size_exceeded:
            return "max code size exceeded";
        case Status::initcode_size_exceeded:
            return "max initcode size exceeded";
        case Status::create_collision:
            return "contract address collision";
        case Status::call_depth_exceeded:
            return "max call depth exceeded";
        case Status::insufficient_balance:
            return "insufficient balance for transfer";
        case Status::nonce_overflow:
            return "nonce uint64 overflow";
    }
    return std::string(evm::describe(status));
}

void append_op_name(std::string& out, std::uint8_t op, eth::Fork fork) {
    const std::string_view name = evm::name(op, fork);
    if (!name.empty()) {
        out += name;
        return;
    }
    char tmp[32];
    const int n = std::snprintf(tmp, sizeof tmp, "opcode 0x%x not defined", op);
    out.append(tmp, static_cast<std::size_t>(n));
}

}  // namespace keel::trace
