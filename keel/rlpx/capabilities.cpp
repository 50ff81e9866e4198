#include "keel/rlpx/capabilities.hpp"

#include <algorithm>

namespace keel::rlpx {

std::optional<std::uint64_t> known_protocol_length(std::string_view name,
                                                   std::uint64_t version) noexcept {
    // eth: Status .. PooledTransactions = 0x00 .. 0x10 since eth/65; eth/69 adds
    // BlockRangeUpdate (0x11). snap/1: GetAccountRange .. TrieNodes = 0x00 .. 0x07.
    if (name == "eth") {
        if (version >= 62 && version <= 68) return 17;
        if (version == 69) return 18;
        return std::nullopt;
    }
    if (name == "snap" && version == 1) return 8;
    return std::nullopt;
}

std::vector<SharedCapability> match_capabilities(std::span<const Protocol> ours,
                                                 std::span<const Capability> theirs) {
    // Per name, the highest version both sides list.
    std::vector<const Protocol*> best;
    for (const Protocol& p : ours) {
        const bool listed = std::ranges::find(theirs, p.capability) != theirs.end();
        if (!listed) continue;
        auto same = std::ranges::find_if(
            best, [&](const Protocol* b) { return b->capability.name == p.capability.name; });
        if (same == best.end())
            best.push_back(&p);
        else if (p.capability.version > (*same)->capability.version)
            *same = &p;
    }
    std::ranges::sort(best, {},
                      [](const Protocol* p) -> const std::string& { return p->capability.name; });
    std::vector<SharedCapability> out;
    out.reserve(best.size());
    std::uint64_t offset = kBaseProtocolLength;
    for (const Protocol* p : best) {
        out.push_back(SharedCapability{p->capability, offset, p->length});
        offset += p->length;
    }
    return out;
}

const SharedCapability* capability_of(std::span<const SharedCapability> shared,
                                      std::uint64_t code) noexcept {
    for (const SharedCapability& c : shared)
        if (c.holds(code)) return &c;
    return nullptr;
}

const SharedCapability* find_capability(std::span<const SharedCapability> shared,
                                        std::string_view name) noexcept {
    for (const SharedCapability& c : shared)
        if (c.capability.name == name) return &c;
    return nullptr;
}

std::string to_string(const Capability& c) {
    return c.name + "/" + std::to_string(c.version);
}

}  // namespace keel::rlpx
