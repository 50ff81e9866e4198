#include "keel/eth/withdrawal.hpp"

#include <array>

#include "keel/eth/detail/block_rlp.hpp"
#include "keel/rlp/decode.hpp"

namespace keel::eth {

namespace {

std::size_t payload_size(const Withdrawal& w) noexcept {
    return rlp::uint_length(w.index) + rlp::uint_length(w.validator_index) + 21 +
           rlp::uint_length(w.amount_gwei);
}

// rlp(withdrawal) written into a fixed buffer: at most 1 + 3 * 9 + 21 = 49 bytes.
struct Encoded {
    std::array<std::uint8_t, 64> bytes;
    std::size_t size;
};

std::uint8_t* put_uint(std::uint8_t* p, std::uint64_t v) noexcept {
    if (v == 0) {
        *p = 0x80;
        return p + 1;
    }
    if (v < 0x80) {
        *p = static_cast<std::uint8_t>(v);
        return p + 1;
    }
    const std::size_t k = rlp::be_length(v);
    *p++ = static_cast<std::uint8_t>(0x80 + k);
    for (std::size_t i = 0; i < k; ++i) *p++ = static_cast<std::uint8_t>(v >> (8 * (k - 1 - i)));
    return p;
}

Encoded encode_fixed(const Withdrawal& w) noexcept {
    Encoded e;
    std::uint8_t* p = e.bytes.data();
    *p++ = static_cast<std::uint8_t>(0xc0 + payload_size(w));  // payload <= 48 < 56
    p = put_uint(p, w.index);
    p = put_uint(p, w.validator_index);
    *p++ = 0x94;  // 20-byte string
    for (std::uint8_t b : w.address) *p++ = b;
    p = put_uint(p, w.amount_gwei);
    e.size = static_cast<std::size_t>(p - e.bytes.data());
    return e;
}

}  // namespace

std::size_t encoded_size(const Withdrawal& w) noexcept {
    return rlp::list_length(payload_size(w));
}

void encode(const Withdrawal& w, rlp::Encoder& out) {
    out.add_list_header(payload_size(w));
    out.add_uint(w.index);
    out.add_uint(w.validator_index);
    out.add_string(w.address.view());
    out.add_uint(w.amount_gwei);
}

Bytes encode(const Withdrawal& w) {
    const Encoded e = encode_fixed(w);
    return Bytes(e.bytes.begin(), e.bytes.begin() + static_cast<std::ptrdiff_t>(e.size));
}

Result<Withdrawal, Error> decode_withdrawal(BytesView in, std::size_t base_offset) noexcept {
    auto list = rlp::open_list(in, base_offset);
    if (!list) [[unlikely]]
        return unexpected(detail::rlp_error(list.error(), Field::withdrawal));
    detail::Fields f(*list);
    Withdrawal w;
    Error err{};
    using detail::take;
    const bool ok = take(w.index, f.u64(Field::withdrawal_index), err) &&
                    take(w.validator_index, f.u64(Field::withdrawal_validator_index), err) &&
                    take(w.address, f.fixed<20>(Field::withdrawal_address), err) &&
                    take(w.amount_gwei, f.u64(Field::withdrawal_amount), err);
    if (!ok) [[unlikely]]
        return unexpected(err);
    if (auto r = f.finish(Field::withdrawal); !r) [[unlikely]]
        return unexpected(r.error());
    return w;
}

Hash32 withdrawals_root(std::span<const Withdrawal> withdrawals, trie::RootBuilder& builder) {
    Encoded buf;
    return trie::ordered_root(
        withdrawals.size(),
        [&](std::size_t i) {
            buf = encode_fixed(withdrawals[i]);
            return BytesView{buf.bytes.data(), buf.size};
        },
        builder);
}

Hash32 withdrawals_root(std::span<const Withdrawal> withdrawals) {
    trie::RootBuilder builder;
    return withdrawals_root(withdrawals, builder);
}

}  // namespace keel::eth
