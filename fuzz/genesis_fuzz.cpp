// Genesis file reader fuzz target (keel/chain/genesis.hpp): the input is a genesis file's text.
// Properties:
//   - no input crashes, reads out of bounds or trips an assert (ASan/UBSan, KEEL_ASSERT);
//   - a refused file gets a one-line message of bounded length that starts with "genesis: ";
//   - an accepted file is read the same way twice (same header hash, same state root) and its
//     header encodes to RLP that decodes back to the same header hash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "keel/chain/genesis.hpp"
#include "keel/eth/header.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto g = keel::chain::parse_genesis(text);
    if (!g) {
        const std::string message = keel::chain::to_string(g.error());
        check(message.starts_with("genesis: "));
        check(message.find('\n') == std::string::npos);
        check(message.size() <= 8192);
        return 0;
    }
    const auto again = keel::chain::parse_genesis(text);
    check(again.has_value());
    check(again->header.hash() == g->header.hash());
    check(again->header.state_root == g->header.state_root);
    const auto decoded = keel::eth::decode_header(keel::eth::encode(g->header));
    check(decoded.has_value() && decoded->hash() == g->header.hash());
    return 0;
}
