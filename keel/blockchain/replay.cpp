#include "keel/blockchain/replay.hpp"

#include <string>
#include <utility>

#include "keel/blockchain/body_cache.hpp"
#include "keel/blockchain/executor.hpp"
#include "keel/store/state_store.hpp"

namespace keel::blockchain {
namespace {

std::unexpected<ReadError> failed(std::string m) {
    return std::unexpected(ReadError{false, false, std::move(m)});
}

}  // namespace

Result<StoredBlock, ReadError> load_for_replay(const store::ChainStore& store,
                                               const eth::ChainConfig& config,
                                               std::uint64_t number) {
    const std::string where = "block " + std::to_string(number);
    if (number == 0) {
        return std::unexpected(
            ReadError{true, false, "genesis is not traceable (no parent state to replay on)"});
    }
    auto stored = canonical_header(store, number);
    if (!stored) return std::unexpected(stored.error());
    const Hash32 hash = stored->hash;
    auto header = std::optional<eth::Header>(std::move(stored->header));
    auto body_rlp = store.body(number);
    if (!body_rlp) return failed(body_rlp.error().message);
    if (body_rlp->status == store::ReadStatus::pruned) {
        return std::unexpected(ReadError{false, true, where + ": history pruned"});
    }
    if (!body_rlp->found()) return failed(where + ": body missing");
    auto body = decoded_body(hash, body_rlp->value, true);
    if (!body) return failed(where + ": stored body: " + eth::to_string(body.error()));
    auto parent_rlp = store.header_by_hash(header->parent_hash);
    if (!parent_rlp) return failed(parent_rlp.error().message);
    if (!parent_rlp->found()) return failed(where + ": the parent's header is missing");
    auto parent = eth::decode_header(parent_rlp->value);
    if (!parent) return failed(where + ": the parent's header: " + eth::to_string(parent.error()));
    auto rules = merge_rules(store, config, number, number - 1, header->parent_hash);
    if (!rules) return failed(where + ": " + rules.error());
    StoredBlock out{.hash = hash,
                    .block = eth::Block{std::move(*header), **body},
                    .parent = std::move(*parent),
                    .config = *rules ? std::move(**rules) : config};
    return out;
}

Result<chain::ExecutedBlock, ReadError> replay(const store::ChainStore& store, const StoredBlock& b,
                                               evm::Tracer* tracer, chain::ReplayOptions options) {
    const std::uint64_t number = b.block.header.number;
    const std::string where = "block " + std::to_string(number);
    auto view = store::StateView::open(store, number - 1);
    if (!view) return std::unexpected(ReadError{true, false, where + ": " + view.error().message});
    std::string read_error;
    const chain::BlockHashes hashes = stored_hashes(store, read_error);
    if (options.analyses == nullptr) options.analyses = &evm::AnalysisCache::this_thread();
    auto r = chain::replay_block(b.block, b.parent, b.config, *view, hashes, tracer, options);
    if (auto f = view->failure()) return failed(where + ": state read: " + *f);
    if (!read_error.empty()) return failed(where + ": " + read_error);
    if (!r) return failed("the replay of " + chain::to_string(r.error()));
    return std::move(*r);
}

}  // namespace keel::blockchain
