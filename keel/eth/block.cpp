#include "keel/eth/block.hpp"

#include <utility>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/detail/block_rlp.hpp"
#include "keel/rlp/decode.hpp"

namespace keel::eth {

namespace {

// Size of a transaction as an element of the body's list (EIP-2718): the legacy list itself, or
// an RLP string around the typed envelope (which is at least 2 bytes, so always has a header).
std::size_t tx_item_size(const Transaction& tx) noexcept {
    const std::size_t n = tx.encoded().size();
    return tx.type() == TxType::legacy ? n : rlp::header_length(n) + n;
}

void add_tx_item(const Transaction& tx, rlp::Encoder& out) {
    if (tx.type() != TxType::legacy) out.add_string_header(tx.encoded().size());
    out.add_raw(tx.encoded());
}

struct BodySizes {
    std::size_t txs = 0;          // payload of the transactions list
    std::size_t ommers = 0;       // payload of the ommers list
    std::size_t withdrawals = 0;  // payload of the withdrawals list
    std::size_t payload = 0;      // payload of the body's fields (without a header)
};

BodySizes body_sizes(const BlockBody& b) noexcept {
    BodySizes s;
    for (const Transaction& tx : b.transactions) s.txs += tx_item_size(tx);
    for (const Header& h : b.ommers) s.ommers += encoded_size(h);
    if (b.withdrawals) {
        for (const Withdrawal& w : *b.withdrawals) s.withdrawals += encoded_size(w);
    }
    s.payload = rlp::list_length(s.txs) + rlp::list_length(s.ommers) +
                (b.withdrawals ? rlp::list_length(s.withdrawals) : 0);
    return s;
}

void encode_body_fields(const BlockBody& b, const BodySizes& s, rlp::Encoder& out) {
    out.add_list_header(s.txs);
    for (const Transaction& tx : b.transactions) add_tx_item(tx, out);
    out.add_list_header(s.ommers);
    for (const Header& h : b.ommers) encode(h, out);
    if (b.withdrawals) {
        out.add_list_header(s.withdrawals);
        for (const Withdrawal& w : *b.withdrawals) encode(w, out);
    }
}

// Reads [transactions, ommers(, withdrawals)] from `f`, the fields after the header (if any).
Result<void, Error> decode_body_fields(detail::Fields& f, BlockBody& body) noexcept {
    Error err{};

    // Transactions: each element is a legacy list or a string holding a typed envelope.
    rlp::Decoder txs;
    if (!detail::take(txs, f.list(Field::block_transactions), err)) [[unlikely]]
        return unexpected(err);
    auto n = txs.count();
    if (!n) [[unlikely]]
        return unexpected(detail::rlp_error(n.error(), Field::block_transactions));
    body.transactions.reserve(*n);
    while (!txs.empty()) {
        auto item = txs.next();  // counted above: the header is good
        if (!item) [[unlikely]]
            return unexpected(detail::rlp_error(item.error(), Field::block_transactions));
        auto tx = detail::decode_transaction_item_unhashed(item->encoded(), item->offset);
        if (!tx) [[unlikely]]
            return unexpected(tx.error());
        body.transactions.push_back(std::move(*tx));
    }
    // All parsed: hash them eight at a time (AVX-512 Keccak where the CPU has it).
    detail::hash_transactions(body.transactions);

    // Ommers: full headers (YP eq. 34).
    rlp::Decoder ommers;
    if (!detail::take(ommers, f.list(Field::block_ommers), err)) [[unlikely]]
        return unexpected(err);
    while (!ommers.empty()) {
        auto item = ommers.next();
        if (!item) [[unlikely]]
            return unexpected(detail::rlp_error(item.error(), Field::block_ommers));
        auto h = decode_header(item->encoded(), item->offset);
        if (!h) [[unlikely]]
            return unexpected(h.error());
        body.ommers.push_back(std::move(*h));
    }

    // Withdrawals (EIP-4895): a fourth list from Shanghai on.
    if (!f.empty()) {
        rlp::Decoder ws;
        if (!detail::take(ws, f.list(Field::block_withdrawals), err)) [[unlikely]]
            return unexpected(err);
        auto count = ws.count();
        if (!count) [[unlikely]]
            return unexpected(detail::rlp_error(count.error(), Field::block_withdrawals));
        auto& out = body.withdrawals.emplace();
        out.reserve(*count);
        while (!ws.empty()) {
            auto item = ws.next();
            if (!item) [[unlikely]]
                return unexpected(detail::rlp_error(item.error(), Field::block_withdrawals));
            auto w = decode_withdrawal(item->encoded(), item->offset);
            if (!w) [[unlikely]]
                return unexpected(w.error());
            out.push_back(*w);
        }
    }
    return f.finish(Field::block);
}

}  // namespace

Result<Block, Error> decode_block(BytesView in, std::size_t base_offset) noexcept {
    auto list = rlp::open_list(in, base_offset);
    if (!list) [[unlikely]]
        return unexpected(detail::rlp_error(list.error(), Field::block));
    detail::Fields f(*list);
    Block b;
    auto header_item = f.item(Field::header);
    if (!header_item) [[unlikely]]
        return unexpected(header_item.error());
    auto header = decode_header(header_item->encoded(), header_item->offset);
    if (!header) [[unlikely]]
        return unexpected(header.error());
    b.header = std::move(*header);
    if (auto r = decode_body_fields(f, b.body); !r) [[unlikely]]
        return unexpected(r.error());
    return b;
}

Result<BlockBody, Error> decode_body(BytesView in, std::size_t base_offset) noexcept {
    auto list = rlp::open_list(in, base_offset);
    if (!list) [[unlikely]]
        return unexpected(detail::rlp_error(list.error(), Field::block));
    detail::Fields f(*list);
    BlockBody body;
    if (auto r = decode_body_fields(f, body); !r) [[unlikely]]
        return unexpected(r.error());
    return body;
}

std::size_t encoded_size(const BlockBody& b) noexcept {
    return rlp::list_length(body_sizes(b).payload);
}

std::size_t encoded_size(const Block& b) noexcept {
    return rlp::list_length(encoded_size(b.header) + body_sizes(b.body).payload);
}

void encode(const BlockBody& b, rlp::Encoder& out) {
    const BodySizes s = body_sizes(b);
    out.reserve(rlp::list_length(s.payload));
    out.add_list_header(s.payload);
    encode_body_fields(b, s, out);
}

Bytes encode(const BlockBody& b) {
    rlp::Encoder e;
    encode(b, e);
    return e.take();
}

void encode(const Block& b, rlp::Encoder& out) {
    const BodySizes s = body_sizes(b.body);
    const std::size_t payload = encoded_size(b.header) + s.payload;
    out.reserve(rlp::list_length(payload));
    out.add_list_header(payload);
    encode(b.header, out);
    encode_body_fields(b.body, s, out);
}

Bytes encode(const Block& b) {
    rlp::Encoder e;
    encode(b, e);
    return e.take();
}

Hash32 transactions_root(std::span<const Transaction> transactions, trie::RootBuilder& builder) {
    return trie::ordered_root(
        transactions.size(), [&](std::size_t i) { return transactions[i].encoded(); }, builder);
}

Hash32 transactions_root(std::span<const Transaction> transactions) {
    trie::RootBuilder builder;
    return transactions_root(transactions, builder);
}

Hash32 ommers_hash(std::span<const Header> ommers) {
    std::size_t payload = 0;
    for (const Header& h : ommers) payload += encoded_size(h);
    rlp::Encoder e;
    e.reserve(rlp::list_length(payload));
    e.add_list_header(payload);
    for (const Header& h : ommers) encode(h, e);
    return crypto::keccak256(e.view());
}

}  // namespace keel::eth
