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
        case Status::code_store_out_of_gas:
            return "contract creation code storage out of gas";
    }
    return std::string(evm::describe(status));
}

std::string precompile_failure_phrase(std::uint16_t id, BytesView input) {
    switch (id) {
        case 0x08:  // BN254 pairing: pairs of 192 bytes
            return "bad elliptic curve pairing size";
        case 0x09:  // BLAKE2F: 213 bytes, then the final flag 0 or 1
            return input.size() != 213 ? "invalid input length" : "invalid final flag";
        case 0x0a:  // point evaluation: 192 bytes
            if (input.size() != 192) return "invalid input length";
            break;
        default:
            break;
    }
    return "precompile failed";
}

namespace {

// A big-endian 256-bit word of `d` at `at` as a size, nullopt when it does not fit in 63 bits
// (Go's ABI decoder refuses those).
std::optional<std::uint64_t> word_size(BytesView d, std::size_t at) {
    if (at > d.size() || d.size() - at < 32) return std::nullopt;
    for (std::size_t i = 0; i < 24; ++i) {
        if (d[at + i] != 0) return std::nullopt;
    }
    std::uint64_t v = 0;
    for (std::size_t i = 24; i < 32; ++i) v = v << 8 | d[at + i];
    if (v >> 63 != 0) return std::nullopt;
    return v;
}

// Go's JSON writes invalid UTF-8 as U+FFFD: the same text, so that the values compare equal.
std::string valid_utf8(BytesView b) {
    std::string out;
    out.reserve(b.size());
    std::size_t i = 0;
    while (i < b.size()) {
        const std::uint8_t c = b[i];
        std::size_t n = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
            ++i;
            continue;
        }
        if ((c & 0xe0) == 0xc0) {
            n = 2;
            cp = c & 0x1f;
        } else if ((c & 0xf0) == 0xe0) {
            n = 3;
            cp = c & 0x0f;
        } else if ((c & 0xf8) == 0xf0) {
            n = 4;
            cp = c & 0x07;
        }
        bool ok = n != 0 && i + n <= b.size();
        for (std::size_t k = 1; ok && k < n; ++k) {
            if ((b[i + k] & 0xc0) != 0x80) ok = false;
            cp = cp << 6 | (b[i + k] & 0x3f);
        }
        if (ok) {
            // Overlong forms, surrogates and values past U+10FFFF are invalid too.
            static constexpr std::uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
            ok = cp >= kMin[n] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
        }
        if (ok) {
            out.append(reinterpret_cast<const char*>(b.data() + i), n);
            i += n;
        } else {
            out += "\xef\xbf\xbd";
            ++i;
        }
    }
    return out;
}

}  // namespace

std::optional<std::string> revert_reason(BytesView output) {
    if (output.size() < 4) return std::nullopt;
    const BytesView d = output.subspan(4);
    const std::uint32_t selector = static_cast<std::uint32_t>(output[0]) << 24 |
                                   static_cast<std::uint32_t>(output[1]) << 16 |
                                   static_cast<std::uint32_t>(output[2]) << 8 | output[3];
    if (selector == 0x08c379a0) {  // Error(string): an offset, then a length and the bytes
        const auto offset = word_size(d, 0);
        if (!offset || *offset > d.size() - 32) return std::nullopt;
        const auto length = word_size(d, static_cast<std::size_t>(*offset));
        const std::uint64_t start = *offset + 32;
        if (!length || *length > d.size() - start) return std::nullopt;
        return valid_utf8(
            d.subspan(static_cast<std::size_t>(start), static_cast<std::size_t>(*length)));
    }
    if (selector == 0x4e487b71) {  // Panic(uint256)
        if (d.size() < 32) return std::nullopt;
        const Uint256 code = Uint256::load_be(d.data());
        struct Reason {
            std::uint64_t code;
            std::string_view text;
        };
        static constexpr Reason kReasons[] = {
            {0x00, "generic panic"},
            {0x01, "assert(false)"},
            {0x11, "arithmetic underflow or overflow"},
            {0x12, "division or modulo by zero"},
            {0x21, "enum overflow"},
            {0x22, "invalid encoded storage byte array accessed"},
            {0x31, "out-of-bounds array access; popping on an empty array"},
            {0x32, "out-of-bounds access of an array or bytesN"},
            {0x41, "out of memory"},
            {0x51, "uninitialized function"},
        };
        if (code.fits_u64()) {
            for (const Reason& r : kReasons) {
                if (r.code == code[0]) return std::string(r.text);
            }
        }
        return "unknown panic code: " + code.to_hex();
    }
    return std::nullopt;
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
