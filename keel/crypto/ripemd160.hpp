#pragma once
/// RIPEMD-160 (Dobbertin, Bosselaers, Preneel, 1996): the hash of the EVM's precompile at 0x03.
/// One-shot; allocation-free and thread-safe. Not used anywhere speed matters.

#include <array>
#include <cstdint>

#include "keel/common/bytes.hpp"

namespace keel::crypto {

std::array<std::uint8_t, 20> ripemd160(BytesView data) noexcept;

}  // namespace keel::crypto
