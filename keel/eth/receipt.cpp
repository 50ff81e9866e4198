#include "keel/eth/receipt.hpp"

#include <cstring>
#include <utility>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/detail/block_rlp.hpp"
#include "keel/rlp/decode.hpp"

namespace keel::eth {

namespace {

constexpr std::size_t kBloomItem = 259;  // 0xb9 0x01 0x00 || 256 bytes

std::size_t log_payload_size(const Log& l) noexcept {
    return 21 + rlp::list_length(33 * l.topics.size()) + rlp::string_length(l.data);
}

std::size_t logs_payload_size(const Receipt& r) noexcept {
    std::size_t n = 0;
    for (const Log& l : r.logs) n += rlp::list_length(log_payload_size(l));
    return n;
}

std::size_t payload_size(const Receipt& r, std::size_t logs_payload) noexcept {
    // EIP-658 status: 0 is the empty string (0x80), 1 the byte 0x01; one byte either way.
    const std::size_t status = r.post_state ? 33 : 1;
    return status + rlp::uint_length(r.cumulative_gas_used) + kBloomItem +
           rlp::list_length(logs_payload);
}

bool is_typed(const Receipt& r) noexcept {
    return r.type != TxType::legacy;
}

// The receipt types that exist: those of the transactions (EIP-2718 types 1-4).
bool known_type(std::uint8_t b) noexcept {
    return b >= static_cast<std::uint8_t>(TxType::access_list) &&
           b <= static_cast<std::uint8_t>(TxType::set_code);
}

Result<Log, Error> decode_log(detail::Fields& logs) noexcept {
    auto list = logs.list(Field::receipt_log);
    if (!list) [[unlikely]]
        return unexpected(list.error());
    detail::Fields f(*list);
    Log log;
    Error err{};
    if (!detail::take(log.address, f.fixed<20>(Field::receipt_log_address), err)) [[unlikely]]
        return unexpected(err);
    auto topics = f.list(Field::receipt_log_topics);
    if (!topics) [[unlikely]]
        return unexpected(topics.error());
    auto count = topics->count();
    if (!count) [[unlikely]]
        return unexpected(detail::rlp_error(count.error(), Field::receipt_log_topic));
    log.topics.reserve(*count);
    detail::Fields t(*topics);
    while (!t.empty()) {
        Hash32 topic;
        if (!detail::take(topic, t.fixed<32>(Field::receipt_log_topic), err)) [[unlikely]]
            return unexpected(err);
        log.topics.push_back(topic);
    }
    BytesView data;
    if (!detail::take(data, f.bytes(Field::receipt_log_data), err)) [[unlikely]]
        return unexpected(err);
    if (auto r = f.finish(Field::receipt_log); !r) [[unlikely]]
        return unexpected(r.error());
    log.data.assign(data.begin(), data.end());
    return log;
}

}  // namespace

std::size_t encoded_size(const Receipt& r) noexcept {
    return (is_typed(r) ? 1 : 0) + rlp::list_length(payload_size(r, logs_payload_size(r)));
}

void encode(const Receipt& r, rlp::Encoder& out) {
    const std::size_t logs_payload = logs_payload_size(r);
    const std::size_t payload = payload_size(r, logs_payload);
    out.reserve((is_typed(r) ? 1 : 0) + rlp::list_length(payload));
    if (is_typed(r)) {
        const std::uint8_t type = static_cast<std::uint8_t>(r.type);
        out.add_raw({&type, 1});  // EIP-2718: TransactionType || ReceiptPayload
    }
    out.add_list_header(payload);
    if (r.post_state) {
        out.add_string(r.post_state->view());
    } else {
        out.add_uint(r.success ? 1 : 0);  // EIP-658
    }
    out.add_uint(r.cumulative_gas_used);
    out.add_string(r.logs_bloom.view());
    out.add_list_header(logs_payload);
    for (const Log& l : r.logs) {
        out.add_list_header(log_payload_size(l));
        out.add_string(l.address.view());
        out.add_list_header(33 * l.topics.size());
        for (const Hash32& t : l.topics) out.add_string(t.view());
        out.add_string(l.data);
    }
}

Bytes encode(const Receipt& r) {
    rlp::Encoder e;
    encode(r, e);
    return e.take();
}

void encode_item(const Receipt& r, rlp::Encoder& out) {
    if (is_typed(r)) out.add_string_header(encoded_size(r));
    encode(r, out);
}

Result<Receipt, Error> decode_receipt(BytesView in, std::size_t base_offset) noexcept {
    if (in.empty()) [[unlikely]]
        return unexpected(Error{Errc::rlp, rlp::Errc::empty_input, Field::receipt, 0, base_offset});
    Receipt r;
    BytesView body = in;
    std::size_t body_offset = base_offset;
    if (in[0] < 0xc0) {
        // EIP-2718: a first byte below 0xc0 is a type, and only 0x01-0x04 are receipt types.
        if (!known_type(in[0])) [[unlikely]]
            return make_error(Errc::type_not_supported, Field::receipt_type, base_offset, in[0]);
        r.type = static_cast<TxType>(in[0]);
        body = in.subspan(1);
        body_offset = base_offset + 1;
    }
    auto list = rlp::open_list(body, body_offset);
    if (!list) [[unlikely]]
        return unexpected(detail::rlp_error(list.error(), Field::receipt));
    detail::Fields f(*list);
    Error err{};

    // EIP-658 status or the pre-Byzantium state root (YP eq. 22).
    BytesView status;
    const std::size_t status_offset = f.offset();
    if (!detail::take(status, f.bytes(Field::receipt_status), err)) [[unlikely]]
        return unexpected(err);
    if (status.size() == 32) {
        Hash32 root;
        std::memcpy(root.data(), status.data(), 32);
        r.post_state = root;
    } else if (status.empty() || (status.size() == 1 && status[0] == 0x01)) {
        r.success = !status.empty();
    } else [[unlikely]] {
        return make_error(Errc::invalid_receipt_status, Field::receipt_status, status_offset,
                          detail::saturate32(status.size()));
    }

    rlp::Decoder logs;
    if (!(detail::take(r.cumulative_gas_used, f.u64(Field::receipt_cumulative_gas_used), err) &&
          detail::take(r.logs_bloom, f.fixed<256>(Field::receipt_logs_bloom), err) &&
          detail::take(logs, f.list(Field::receipt_logs), err))) [[unlikely]]
        return unexpected(err);
    if (auto fin = f.finish(Field::receipt); !fin) [[unlikely]]
        return unexpected(fin.error());

    auto count = logs.count();
    if (!count) [[unlikely]]
        return unexpected(detail::rlp_error(count.error(), Field::receipt_log));
    r.logs.reserve(*count);
    detail::Fields lf(logs);
    while (!lf.empty()) {
        auto log = decode_log(lf);
        if (!log) [[unlikely]]
            return unexpected(log.error());
        r.logs.push_back(std::move(*log));
    }
    return r;
}

Result<Receipt, Error> decode_receipt_item(BytesView item, std::size_t base_offset) noexcept {
    auto it = rlp::decode_single(item, base_offset);
    if (!it) [[unlikely]]
        return unexpected(detail::rlp_error(it.error(), Field::receipt));
    if (it->is_list) return decode_receipt(item, base_offset);
    // A string must hold a typed envelope: a type byte, then the list.
    const std::size_t payload_offset = base_offset + it->header_size;
    if (it->payload.empty() || it->payload[0] >= 0xc0) [[unlikely]]
        return make_error(Errc::type_not_supported, Field::receipt_type, payload_offset,
                          it->payload.empty() ? 0u : it->payload[0]);
    return decode_receipt(it->payload, payload_offset);
}

Log LogView::to_log() const {
    Log out;
    out.address = address;
    out.topics.resize(topic_count);
    for (std::size_t i = 0; i < topic_count; ++i)
        std::memcpy(out.topics[i].data(), topic(i).data(), 32);
    out.data.assign(data.begin(), data.end());
    return out;
}

Result<ReceiptLogReader, Error> ReceiptLogReader::open(BytesView receipts) noexcept {
    auto list = rlp::open_list(receipts);
    if (!list) [[unlikely]]
        return unexpected(detail::rlp_error(list.error(), Field::receipt));
    return ReceiptLogReader(*list);
}

Result<std::optional<LogView>, Error> ReceiptLogReader::next() noexcept {
    while (logs_.empty()) {
        if (list_.empty()) return std::optional<LogView>();
        const std::size_t item_offset = list_.offset();
        auto item = list_.next();
        if (!item) [[unlikely]]
            return unexpected(detail::rlp_error(item.error(), Field::receipt));
        BytesView envelope = item->encoded();
        std::size_t offset = item_offset;
        if (!item->is_list) {  // a typed receipt: its type byte, then the list
            const std::size_t payload_offset = item_offset + item->header_size;
            if (item->payload.empty() || !known_type(item->payload[0])) [[unlikely]]
                return make_error(Errc::type_not_supported, Field::receipt_type, payload_offset,
                                  item->payload.empty() ? 0u : item->payload[0]);
            envelope = item->payload.subspan(1);
            offset = payload_offset + 1;
        }
        auto fields = rlp::open_list(envelope, offset);
        if (!fields) [[unlikely]]
            return unexpected(detail::rlp_error(fields.error(), Field::receipt));
        detail::Fields f(*fields);
        Error err{};
        BytesView skipped;
        rlp::Decoder logs;
        if (!(detail::take(skipped, f.bytes(Field::receipt_status), err) &&
              detail::take(skipped, f.bytes(Field::receipt_cumulative_gas_used), err) &&
              detail::take(skipped, f.bytes(Field::receipt_logs_bloom), err) &&
              detail::take(logs, f.list(Field::receipt_logs), err))) [[unlikely]]
            return unexpected(err);
        if (auto fin = f.finish(Field::receipt); !fin) [[unlikely]]
            return unexpected(fin.error());
        logs_ = logs;
        ++receipts_;
    }
    auto one = logs_.next_list();
    if (!one) [[unlikely]]
        return unexpected(detail::rlp_error(one.error(), Field::receipt_log));
    LogView v;
    detail::Fields f(*one);
    Error err{};
    rlp::Decoder topics;
    if (!(detail::take(v.address, f.fixed<20>(Field::receipt_log_address), err) &&
          detail::take(topics, f.list(Field::receipt_log_topics), err))) [[unlikely]]
        return unexpected(err);
    v.topics_rlp = topics.remaining();
    detail::Fields t(topics);
    while (!t.empty()) {
        Hash32 topic;
        if (!detail::take(topic, t.fixed<32>(Field::receipt_log_topic), err)) [[unlikely]]
            return unexpected(err);
        ++v.topic_count;
    }
    if (!(detail::take(v.data, f.bytes(Field::receipt_log_data), err))) [[unlikely]]
        return unexpected(err);
    if (auto fin = f.finish(Field::receipt_log); !fin) [[unlikely]]
        return unexpected(fin.error());
    return std::optional<LogView>(v);
}

void bloom_add(Bloom& bloom, BytesView entry) noexcept {
    const Hash32 h = crypto::keccak256(entry);
    for (std::size_t i = 0; i < 6; i += 2) {
        // YP eq. 30: m(x, i) = KEC(x)[i, i + 1] mod 2048, a bit index counted from the end.
        const unsigned bit = ((static_cast<unsigned>(h[i]) << 8) | h[i + 1]) & 2047u;
        bloom[255 - bit / 8] = static_cast<std::uint8_t>(bloom[255 - bit / 8] | (1u << (bit % 8)));
    }
}

bool bloom_may_contain(const Bloom& bloom, BytesView entry) noexcept {
    Bloom one;
    bloom_add(one, entry);
    for (std::size_t i = 0; i < Bloom::kSize; ++i) {
        if ((bloom[i] & one[i]) != one[i]) return false;
    }
    return true;
}

Bloom logs_bloom(std::span<const Log> logs) noexcept {
    Bloom b;
    for (const Log& l : logs) {
        bloom_add(b, l.address.view());
        for (const Hash32& t : l.topics) bloom_add(b, t.view());
    }
    return b;
}

Bloom block_bloom(std::span<const Receipt> receipts) noexcept {
    Bloom b;
    for (const Receipt& r : receipts)
        for (std::size_t i = 0; i < b.size(); ++i) b[i] |= r.logs_bloom[i];
    return b;
}

Hash32 receipts_root(std::span<const Receipt> receipts, trie::RootBuilder& builder) {
    rlp::Encoder e;  // one buffer for every envelope, grown to the largest
    return trie::ordered_root(
        receipts.size(),
        [&](std::size_t i) {
            e.clear();
            encode(receipts[i], e);
            return e.view();
        },
        builder);
}

Hash32 receipts_root(std::span<const Receipt> receipts) {
    trie::RootBuilder builder;
    return receipts_root(receipts, builder);
}

}  // namespace keel::eth
