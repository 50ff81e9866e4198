#include "keel/eth/header.hpp"

#include "keel/common/assert.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/detail/block_rlp.hpp"
#include "keel/rlp/decode.hpp"

namespace keel::eth {

namespace {

constexpr std::size_t kHashItem = 33;    // 0xa0 || 32 bytes
constexpr std::size_t kBloomItem = 259;  // 0xb9 0x01 0x00 || 256 bytes
constexpr std::size_t kNonceItem = 9;    // 0x88 || 8 bytes
constexpr std::size_t kAddressItem = 21;

std::size_t payload_size(const Header& h) noexcept {
    std::size_t n = kHashItem * 5 + kAddressItem + kBloomItem;
    n += rlp::uint256_length(h.difficulty);
    n += rlp::uint_length(h.number) + rlp::uint_length(h.gas_limit) + rlp::uint_length(h.gas_used) +
         rlp::uint_length(h.timestamp);
    n += rlp::string_length(h.extra_data);
    n += kHashItem + kNonceItem;
    if (h.base_fee_per_gas) n += rlp::uint256_length(*h.base_fee_per_gas);
    if (h.withdrawals_root) n += kHashItem;
    if (h.blob_gas_used) n += rlp::uint_length(*h.blob_gas_used);
    if (h.excess_blob_gas) n += rlp::uint_length(*h.excess_blob_gas);
    if (h.parent_beacon_block_root) n += kHashItem;
    if (h.requests_hash) n += kHashItem;
    return n;
}

}  // namespace

std::size_t Header::optional_field_count() const noexcept {
    return static_cast<std::size_t>(base_fee_per_gas.has_value()) +
           static_cast<std::size_t>(withdrawals_root.has_value()) +
           static_cast<std::size_t>(blob_gas_used.has_value()) +
           static_cast<std::size_t>(excess_blob_gas.has_value()) +
           static_cast<std::size_t>(parent_beacon_block_root.has_value()) +
           static_cast<std::size_t>(requests_hash.has_value());
}

std::size_t encoded_size(const Header& h) noexcept {
    return rlp::list_length(payload_size(h));
}

void encode(const Header& h, rlp::Encoder& out) {
    // The optional fields are positional (see header.hpp): the present ones must be a prefix.
    const bool present[6] = {h.base_fee_per_gas.has_value(),
                             h.withdrawals_root.has_value(),
                             h.blob_gas_used.has_value(),
                             h.excess_blob_gas.has_value(),
                             h.parent_beacon_block_root.has_value(),
                             h.requests_hash.has_value()};
    for (std::size_t i = 1; i < 6; ++i) KEEL_ASSERT(!present[i] || present[i - 1]);

    const std::size_t payload = payload_size(h);
    out.reserve(rlp::list_length(payload));
    out.add_list_header(payload);
    out.add_string(h.parent_hash.view());
    out.add_string(h.ommers_hash.view());
    out.add_string(h.beneficiary.view());
    out.add_string(h.state_root.view());
    out.add_string(h.transactions_root.view());
    out.add_string(h.receipts_root.view());
    out.add_string(h.logs_bloom.view());
    out.add_uint256(h.difficulty);
    out.add_uint(h.number);
    out.add_uint(h.gas_limit);
    out.add_uint(h.gas_used);
    out.add_uint(h.timestamp);
    out.add_string(h.extra_data);
    out.add_string(h.mix_hash.view());
    out.add_string(h.nonce.view());
    if (h.base_fee_per_gas) out.add_uint256(*h.base_fee_per_gas);
    if (h.withdrawals_root) out.add_string(h.withdrawals_root->view());
    if (h.blob_gas_used) out.add_uint(*h.blob_gas_used);
    if (h.excess_blob_gas) out.add_uint(*h.excess_blob_gas);
    if (h.parent_beacon_block_root) out.add_string(h.parent_beacon_block_root->view());
    if (h.requests_hash) out.add_string(h.requests_hash->view());
}

Bytes encode(const Header& h) {
    rlp::Encoder e;
    encode(h, e);
    return e.take();
}

Hash32 Header::hash() const {
    rlp::Encoder e;
    encode(*this, e);  // one allocation of the exact size
    return crypto::keccak256(e.view());
}

Result<Header, Error> decode_header(BytesView in, std::size_t base_offset) noexcept {
    auto list = rlp::open_list(in, base_offset);
    if (!list) [[unlikely]]
        return unexpected(detail::rlp_error(list.error(), Field::header));
    detail::Fields f(*list);
    Header h;
    BytesView extra;
    Error err{};
    using detail::take;
    const bool ok =
        take(h.parent_hash, f.fixed<32>(Field::header_parent_hash), err) &&
        take(h.ommers_hash, f.fixed<32>(Field::header_ommers_hash), err) &&
        take(h.beneficiary, f.fixed<20>(Field::header_beneficiary), err) &&
        take(h.state_root, f.fixed<32>(Field::header_state_root), err) &&
        take(h.transactions_root, f.fixed<32>(Field::header_transactions_root), err) &&
        take(h.receipts_root, f.fixed<32>(Field::header_receipts_root), err) &&
        take(h.logs_bloom, f.fixed<256>(Field::header_logs_bloom), err) &&
        take(h.difficulty, f.u256(Field::header_difficulty), err) &&
        take(h.number, f.u64(Field::header_number), err) &&
        take(h.gas_limit, f.u64(Field::header_gas_limit), err) &&
        take(h.gas_used, f.u64(Field::header_gas_used), err) &&
        take(h.timestamp, f.u64(Field::header_timestamp), err) &&
        take(extra, f.bytes(Field::header_extra_data), err) &&
        take(h.mix_hash, f.fixed<32>(Field::header_mix_hash), err) &&
        take(h.nonce, f.fixed<8>(Field::header_nonce), err) &&
        // The optional fields, in order: the list may end before any of them.
        (f.empty() || take(h.base_fee_per_gas, f.u256(Field::header_base_fee_per_gas), err)) &&
        (f.empty() || take(h.withdrawals_root, f.fixed<32>(Field::header_withdrawals_root), err)) &&
        (f.empty() || take(h.blob_gas_used, f.u64(Field::header_blob_gas_used), err)) &&
        (f.empty() || take(h.excess_blob_gas, f.u64(Field::header_excess_blob_gas), err)) &&
        (f.empty() || take(h.parent_beacon_block_root,
                           f.fixed<32>(Field::header_parent_beacon_block_root), err)) &&
        (f.empty() || take(h.requests_hash, f.fixed<32>(Field::header_requests_hash), err));
    if (!ok) [[unlikely]]
        return unexpected(err);
    if (auto r = f.finish(Field::header); !r) [[unlikely]]
        return unexpected(r.error());
    h.extra_data.assign(extra.begin(), extra.end());
    return h;
}

}  // namespace keel::eth
