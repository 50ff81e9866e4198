// Block, header, body, receipt and withdrawal decoder fuzz target. Properties:
//   - no input crashes, reads out of bounds or trips a sanitizer, accepted or not;
//   - every accepted input re-encodes to exactly itself (the decoders accept only canonical
//     encodings), and encoded_size() agrees;
//   - a rejected input's error offset lies within the input (or at its end);
//   - the roots and hashes of accepted blocks can be computed (transactions, withdrawals,
//     ommers, header hash), and the header hash equals Keccak-256 of the header's bytes;
//   - the trie builder copes with any key set: pairs cut from the input go through root_of();
//   - ReceiptLogReader over a list of receipt items sees the logs decode_receipt_item() gives.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/eth/withdrawal.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/trie/root.hpp"

namespace {

using keel::Bytes;
using keel::BytesView;

void check(bool ok) {
    if (!ok) std::abort();
}

bool same(BytesView a, BytesView b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

template <class R>
void check_error_offset(const R& r, std::size_t size) {
    if (!r) check(r.error().offset <= size);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const BytesView in(data, size);
    using namespace keel::eth;

    if (auto b = decode_block(in)) {
        check(same(encode(*b), in));
        check(encoded_size(*b) == size);
        const keel::Hash32 h = b->hash();
        const auto outer = keel::rlp::decode_single(in);
        check(outer.has_value());
        check(h == keel::crypto::keccak256(outer->payload.first(encoded_size(b->header))));
        (void)transactions_root(b->body.transactions);
        (void)ommers_hash(b->body.ommers);
        if (b->body.withdrawals) (void)withdrawals_root(*b->body.withdrawals);
    } else {
        check_error_offset(b, size);
    }

    if (auto body = decode_body(in)) {
        check(same(encode(*body), in));
        check(encoded_size(*body) == size);
    } else {
        check_error_offset(body, size);
    }

    if (auto h = decode_header(in)) {
        check(same(encode(*h), in));
        check(encoded_size(*h) == size);
        check(h->hash() == keel::crypto::keccak256(in));
    } else {
        check_error_offset(h, size);
    }

    if (auto r = decode_receipt(in)) {
        check(same(encode(*r), in));
        check(encoded_size(*r) == size);
        (void)logs_bloom(r->logs);
        (void)receipts_root(std::span<const Receipt>(&*r, 1));
    } else {
        check_error_offset(r, size);
    }

    if (auto r = decode_receipt_item(in)) {
        keel::rlp::Encoder e;
        encode_item(*r, e);
        check(same(e.view(), in));
    } else {
        check_error_offset(r, size);
    }

    // A list of receipt items: the logs read in place are the decoded receipts' logs, when
    // every item decodes; any list ends (a log at least per step, or an error).
    if (auto reader = ReceiptLogReader::open(in)) {
        std::vector<Log> seen;
        bool failed = false;
        for (;;) {
            auto log = reader->next();
            if (!log) {
                check(log.error().offset <= size);
                failed = true;
                break;
            }
            if (!*log) break;
            seen.push_back((*log)->to_log());
        }
        std::vector<Log> decoded;
        bool all = true;
        auto items = keel::rlp::open_list(in);
        while (all && items && !items->empty()) {
            auto item = items->next();
            if (!item) {
                all = false;
                break;
            }
            auto r = decode_receipt_item(item->encoded());
            if (!r) {
                all = false;
                break;
            }
            decoded.insert(decoded.end(), r->logs.begin(), r->logs.end());
        }
        if (all && items) check(!failed && seen == decoded);
    }

    if (auto w = decode_withdrawal(in)) {
        check(same(encode(*w), in));
        check(encoded_size(*w) == size);
    } else {
        check_error_offset(w, size);
    }

    // Pairs for the trie: a length byte, a key of that many bytes (mod 8), a value byte count
    // (mod 40), and so on. Keys repeat and are prefixes of each other often enough.
    std::vector<std::pair<Bytes, Bytes>> kv;
    std::size_t pos = 0;
    while (pos < size && kv.size() < 64) {
        const std::size_t klen = data[pos++] % 8;
        if (pos + klen > size) break;
        Bytes key(data + pos, data + pos + klen);
        pos += klen;
        if (pos >= size) break;
        const std::size_t vlen = data[pos++] % 40;
        if (pos + vlen > size) break;
        Bytes value(data + pos, data + pos + vlen);
        pos += vlen;
        kv.emplace_back(std::move(key), std::move(value));
    }
    (void)keel::trie::root_of(std::move(kv));
    return 0;
}
