// Hex decoder: never crashes; accepted text round-trips; rejected text names an in-range offset.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "keel/common/hex.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    auto r = keel::hex::decode(text);
    if (r) {
        std::string back = keel::hex::encode(*r);
        std::string_view digits = text.substr(
            text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') ? 2 : 0);
        if (back.size() != digits.size()) std::abort();
        for (std::size_t i = 0; i < back.size(); ++i) {
            char c = digits[i];
            if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
            if (back[i] != c) std::abort();
        }
    } else if (r.error().offset > text.size()) {
        std::abort();
    }
    return 0;
}
