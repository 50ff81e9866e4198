#include "apps/keel/json_objects.hpp"

namespace keel::cli {

std::string transaction_json(const eth::Transaction& tx, const eth::TxPlace* place,
                             std::string* sender_error) {
    std::string out;
    json::Writer w(out, kJsonIndent);
    auto err = eth::write_transaction(w, tx, {.with_sender = true, .place = place});
    if (err && sender_error != nullptr) *sender_error = eth::to_string(*err);
    return out;
}

std::string block_json(const eth::Header& header, const Hash32& hash,
                       const std::optional<Uint256>& total_difficulty,
                       std::optional<std::uint64_t> size, const eth::BlockBody* body, bool full) {
    std::string out;
    json::Writer w(out, kJsonIndent);
    eth::write_block(w, header, hash, total_difficulty, size, body, full);
    return out;
}

}  // namespace keel::cli
