#pragma once
/// The transaction envelopes of a stored body, for the store's own tools (verify, rewind).

#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/rlp/decode.hpp"

namespace keel::store::detail {

/// The transaction envelopes of a body rlp([transactions, ommers(, withdrawals)]): a legacy
/// transaction is the list item itself, a typed one the payload of a string item (EIP-2718);
/// keccak256 of an envelope is the transaction's hash. Only the RLP framing is read: no
/// transaction is decoded. The views point into `body`.
[[nodiscard]] inline Result<std::vector<BytesView>, rlp::Error> envelopes(BytesView body) {
    auto top = rlp::open_list(body);
    if (!top) return unexpected(top.error());
    auto txs = top->next_list();
    if (!txs) return unexpected(txs.error());
    std::vector<BytesView> out;
    while (!txs->empty()) {
        auto item = txs->next();
        if (!item) return unexpected(item.error());
        out.push_back(item->is_list ? item->encoded() : item->payload);
    }
    return out;
}

}  // namespace keel::store::detail
