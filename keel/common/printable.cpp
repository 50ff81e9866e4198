#include "keel/common/printable.hpp"

#include <algorithm>

namespace keel {

std::string printable(std::string_view text, std::size_t max) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    const std::size_t n = std::min(text.size(), max);
    out.reserve(n + 32);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        switch (c) {
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\\':
                out += "\\\\";
                break;
            default:
                if (c >= 0x20 && c < 0x7f) {
                    out += static_cast<char>(c);
                } else {
                    out += "\\x";
                    out += kHex[c >> 4];
                    out += kHex[c & 15];
                }
        }
    }
    if (text.size() > max) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

}  // namespace keel
