// Engine API payloads and tokens, the authenticated port's hostile input: the body's first bytes
// choose the payload version (1..3), the rest is read as JSON and handed to payload_of() (with a
// beacon root and requests hash for V3) and to execution_requests_of(); the raw bytes are also a
// JWT for check_jwt(). Properties:
//   - no input crashes, reads out of bounds or trips an assert (a header with an inconsistent set
//     of fork fields would: payload_of must never build one);
//   - an accepted payload's block hashes, and written back as that version it is read again to
//     the same block hash and the same transactions;
//   - a refusal is one line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "keel/common/json_writer.hpp"
#include "keel/rpc/engine_payload.hpp"
#include "keel/rpc/jwt.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

bool one_line(const std::string& s) {
    return s.find('\n') == std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const int version = 1 + data[0] % 3;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    const keel::Bytes32 secret{{1, 2, 3}};
    if (auto why = keel::rpc::check_jwt(text, secret, 1'700'000'000)) check(one_line(*why));

    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) return 0;
    if (auto r = keel::rpc::execution_requests_of(j, 3); !r) check(one_line(r.error().message));
    const std::optional<keel::Hash32> root =
        version >= 3 ? std::optional<keel::Hash32>(keel::Hash32{{7}}) : std::nullopt;
    auto p = keel::rpc::payload_of(j, version, root, std::nullopt);
    if (!p) {
        check(one_line(p.error().message));
        return 0;
    }
    const keel::Hash32 hash = p->block.header.hash();
    if (p->invalid) return 0;
    std::string out;
    keel::json::Writer w(out);
    keel::rpc::write_payload(w, p->block, version);
    auto again = keel::rpc::payload_of(nlohmann::json::parse(out), version, root, std::nullopt);
    check(again.has_value());
    check(again->block.header.hash() == hash);
    check(again->claimed_hash == hash);
    check(again->block.body.transactions.size() == p->block.body.transactions.size());
    return 0;
}
