#include "keel/chain/ommers.hpp"

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "keel/chain/header_rules.hpp"

namespace keel::chain {

Result<void, BlockError> check_ommers(const eth::Block& block, const eth::ChainConfig& config,
                                      const AncestorByHash& ancestor) {
    const auto& ommers = block.body.ommers;
    const eth::Header& h = block.header;
    if (ommers.empty()) return {};
    if (ommers.size() > 2) {
        return std::unexpected(BlockError{.code = Errc::too_many_ommers,
                                          .number = h.number,
                                          .detail = std::to_string(ommers.size())});
    }
    // The block's ancestors (and the block itself), and every ommer they included.
    std::vector<Ancestor> line;
    line.reserve(kOmmerGenerations);
    Hash32 next = h.parent_hash;
    for (int i = 0; i < kOmmerGenerations; ++i) {
        auto a = ancestor(next);
        if (!a) break;
        next = a->header.parent_hash;
        line.push_back(std::move(*a));
    }
    std::unordered_map<Hash32, const eth::Header*> ancestors;
    std::unordered_set<Hash32> included;
    const Hash32 self = h.hash();
    ancestors.emplace(self, &h);
    included.insert(self);
    for (const Ancestor& a : line) {
        ancestors.emplace(a.hash, &a.header);
        included.insert(a.ommers.begin(), a.ommers.end());
    }
    for (std::size_t i = 0; i < ommers.size(); ++i) {
        const eth::Header& ommer = ommers[i];
        const Hash32 hash = ommer.hash();
        auto at_ommer = [&](Errc code, std::string detail = {}) {
            BlockError e{.code = code, .number = h.number, .detail = std::move(detail)};
            e.ommer = i;
            return std::unexpected(std::move(e));
        };
        if (!included.insert(hash).second) return at_ommer(Errc::duplicate_ommer);
        if (ancestors.contains(hash)) return at_ommer(Errc::ommer_is_ancestor);
        if (ommer.parent_hash == h.parent_hash) return at_ommer(Errc::ommer_is_sibling);
        const auto p = ancestors.find(ommer.parent_hash);
        if (p == ancestors.end()) return at_ommer(Errc::ommer_parent_not_ancestor);
        if (auto v = validate_header(ommer, *p->second, config); !v) {
            BlockError e = std::move(v.error());
            e.number = h.number;
            e.ommer = i;
            return std::unexpected(std::move(e));
        }
    }
    return {};
}

}  // namespace keel::chain
