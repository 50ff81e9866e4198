#include "apps/keel/fixture_json.hpp"

#include <vector>

#include "apps/keel/input.hpp"
#include "keel/common/hex.hpp"

namespace keel::cli::fixture {

void bad(const std::string& where, const std::string& what) {
    throw Failure{kExitBadData, where + ": " + what};
}

Uint256 number(const json& j, const std::string& where) {
    if (!j.is_string()) bad(where, "not a number string");
    auto v = Uint256::from_string(j.get<std::string>());
    if (!v) bad(where, "not a 256-bit number: " + j.get<std::string>());
    return *v;
}

std::uint64_t u64(const json& j, const std::string& where) {
    const Uint256 v = number(j, where);
    if (!v.fits_u64()) bad(where, "wider than 64 bits");
    return v.as_u64();
}

Bytes bytes_of(const json& j, const std::string& where) {
    if (!j.is_string()) bad(where, "not a hex string");
    std::string s = j.get<std::string>();
    // ethereum/tests write some code as ":raw 0x..." (filler syntax kept in fillers only).
    if (s.rfind(":raw ", 0) == 0) s = s.substr(5);
    auto b = hex::decode(s);
    if (!b) bad(where, "not hex");
    return *b;
}

const json& field(const json& j, const char* key, const std::string& where) {
    if (!j.is_object() || !j.contains(key)) bad(where, std::string("missing field '") + key + "'");
    return j.at(key);
}

std::string hex32(const Hash32& h) {
    return hex::encode_prefixed(h.view());
}

state::MemoryState accounts(const json& pre, const std::string& where) {
    if (!pre.is_object()) bad(where, "not an object of accounts");
    state::MemoryState m;
    for (const auto& [address, acc] : pre.items()) {
        const std::string w = where + " " + address;
        std::vector<std::pair<Uint256, Uint256>> slots;
        for (const auto& [k, v] : field(acc, "storage", w).items())
            slots.emplace_back(number(json(k), w + " storage key"), number(v, w + " storage " + k));
        m.put(fixed_of<Address>(json(address), w), u64(field(acc, "nonce", w), w + " nonce"),
              number(field(acc, "balance", w), w + " balance"), bytes_of(field(acc, "code", w), w),
              slots);
    }
    return m;
}

}  // namespace keel::cli::fixture
