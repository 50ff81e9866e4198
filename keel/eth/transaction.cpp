#include "keel/eth/transaction.hpp"

#include <algorithm>
#include <bit>
#include <iterator>
#include <limits>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/rlp/decode.hpp"

namespace keel::eth {

namespace {

constexpr std::uint32_t kMaxInput = std::numeric_limits<std::uint32_t>::max();

constexpr std::uint32_t saturate32(std::size_t n) noexcept {
    return n > kMaxInput ? kMaxInput : static_cast<std::uint32_t>(n);
}

// ---- reading bytes that decode already checked --------------------------------------------------

std::uint64_t be64(const std::uint8_t* p, std::size_t n) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = v << 8 | p[i];
    return v;
}

// Transactions keep kSlack zero bytes after their bytes, so that an integer of n < 8 bytes
// can be read with one 8-byte load instead of a byte loop.
constexpr std::size_t kSlack = 8;

std::uint64_t load64_be(const std::uint8_t* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::little) w = std::byteswap(w);
    return w;
}

// The big-endian value of p[0..n), n <= 8, with 8 readable bytes at p.
std::uint64_t load_be_padded(const std::uint8_t* p, std::size_t n) noexcept {
    if (n == 0) return 0;
    return load64_be(p) >> (64 - 8 * n);
}

// The 256-bit value of the big-endian bytes p[0..n), n <= 32, with 8 readable bytes after them.
// Limbs are loaded straight into registers: staging them in an array would make the value's
// loads wait for the limb stores (a store-forwarding stall per field).
Uint256 load_uint256_padded(const std::uint8_t* p, std::size_t n) noexcept {
    if (n <= 8) return Uint256{load_be_padded(p, n)};
    const std::uint8_t* end = p + n;
    const std::uint64_t l0 = load64_be(end - 8);
    if (n <= 16) return Uint256::from_limbs(l0, load_be_padded(p, n - 8), 0, 0);
    const std::uint64_t l1 = load64_be(end - 16);
    if (n <= 24) return Uint256::from_limbs(l0, l1, load_be_padded(p, n - 16), 0);
    return Uint256::from_limbs(l0, l1, load64_be(end - 24), load_be_padded(p, n - 24));
}

struct RawHeader {
    std::size_t header;  // header bytes (0 for a single byte below 0x80)
    std::size_t length;  // payload bytes
};

// The header at p, which decode already found canonical and in bounds (YP app. B).
RawHeader raw_header(const std::uint8_t* p) noexcept {
    const std::uint8_t b = p[0];
    if (b < 0x80) return {0, 1};
    if (b < 0xb8) return {1, static_cast<std::size_t>(b - 0x80)};
    if (b < 0xc0) {
        const std::size_t k = b - 0xb7u;
        return {1 + k, static_cast<std::size_t>(be64(p + 1, k))};
    }
    if (b < 0xf8) return {1, static_cast<std::size_t>(b - 0xc0)};
    const std::size_t k = b - 0xf7u;
    return {1 + k, static_cast<std::size_t>(be64(p + 1, k))};
}

// ---- a small stack writer for the signing hashes
// -------------------------------------------------

// Writes RLP pieces into a fixed stack buffer (at most a few integers and a list header).
class StackWriter {
  public:
    void byte(std::uint8_t b) noexcept { buf_[n_++] = b; }
    void header(std::size_t payload_length, std::uint8_t short_base) noexcept {
        if (payload_length < 56) {
            byte(static_cast<std::uint8_t>(short_base + payload_length));
            return;
        }
        const std::size_t k = rlp::be_length(payload_length);
        byte(static_cast<std::uint8_t>(short_base + 55 + k));
        for (std::size_t i = k; i-- > 0;)
            byte(static_cast<std::uint8_t>(payload_length >> (8 * i)));
    }
    void string(BytesView s) noexcept {
        if (s.size() == 1 && s[0] < 0x80) {
            byte(s[0]);
            return;
        }
        header(s.size(), 0x80);
        KEEL_ASSERT(n_ + s.size() <= sizeof buf_);
        std::memcpy(buf_ + n_, s.data(), s.size());
        n_ += s.size();
    }
    void uint256(const Uint256& v) noexcept {
        const Bytes32 be = v.to_bytes32();
        string(rlp::strip_leading_zeros(be.view()));
    }
    void uint64(std::uint64_t v) noexcept { uint256(Uint256{v}); }
    BytesView view() const noexcept { return {buf_, n_}; }

  private:
    std::uint8_t buf_[128];
    std::size_t n_ = 0;
};

// ---- field layouts by type
// -----------------------------------------------------------------------

constexpr Field kLegacyFields[] = {Field::nonce, Field::gas_price, Field::gas_limit,
                                   Field::to,    Field::value,     Field::data,
                                   Field::v,     Field::r,         Field::s};
constexpr Field kAccessListFields[] = {
    Field::chain_id, Field::nonce, Field::gas_price, Field::gas_limit,
    Field::to,       Field::value, Field::data,      Field::access_list,
    Field::y_parity, Field::r,     Field::s};
constexpr Field kDynamicFeeFields[] = {
    Field::chain_id,        Field::nonce,     Field::max_priority_fee_per_gas,
    Field::max_fee_per_gas, Field::gas_limit, Field::to,
    Field::value,           Field::data,      Field::access_list,
    Field::y_parity,        Field::r,         Field::s};
constexpr Field kBlobFields[] = {Field::chain_id,
                                 Field::nonce,
                                 Field::max_priority_fee_per_gas,
                                 Field::max_fee_per_gas,
                                 Field::gas_limit,
                                 Field::to,
                                 Field::value,
                                 Field::data,
                                 Field::access_list,
                                 Field::max_fee_per_blob_gas,
                                 Field::blob_versioned_hashes,
                                 Field::y_parity,
                                 Field::r,
                                 Field::s};
constexpr Field kSetCodeFields[] = {Field::chain_id,
                                    Field::nonce,
                                    Field::max_priority_fee_per_gas,
                                    Field::max_fee_per_gas,
                                    Field::gas_limit,
                                    Field::to,
                                    Field::value,
                                    Field::data,
                                    Field::access_list,
                                    Field::authorization_list,
                                    Field::y_parity,
                                    Field::r,
                                    Field::s};

template <TxType T>
constexpr auto& kLayout = kLegacyFields;
template <>
constexpr auto& kLayout<TxType::access_list> = kAccessListFields;
template <>
constexpr auto& kLayout<TxType::dynamic_fee> = kDynamicFeeFields;
template <>
constexpr auto& kLayout<TxType::blob> = kBlobFields;
template <>
constexpr auto& kLayout<TxType::set_code> = kSetCodeFields;

constexpr bool is_known_type(std::uint8_t b) noexcept {
    return b >= 1 && b <= 4;
}

}  // namespace

// ---- decoding
// ------------------------------------------------------------------------------------

/// Fills a Transaction from bytes (friend of Transaction). Every reader returns false and sets
/// err_ on failure; offsets are absolute (the rlp::Decoder objects carry them).
struct TxDecoder {
    Transaction& tx;
    Error err{};

    const std::uint8_t* buf() const noexcept { return tx.buf_.data(); }
    std::uint32_t buf_off(const std::uint8_t* p) const noexcept {
        return static_cast<std::uint32_t>(p - buf());
    }

    bool fail(Errc code, Field f, std::size_t offset, std::uint32_t detail = 0) noexcept {
        err = Error{code, rlp::Errc::empty_input, f, detail, offset};
        return false;
    }
    bool fail_rlp(rlp::Errc code, Field f, std::size_t offset) noexcept {
        err = Error{Errc::rlp, code, f, 0, offset};
        return false;
    }

    // The next item of `d`, for field f. A list that ends early is too_few_fields (field f, at
    // the list's end); other RLP failures keep their rule.
    bool next(rlp::Decoder& d, Field f, rlp::Item& item) noexcept {
        auto r = d.next();
        if (!r) [[unlikely]] {
            if (r.error().code == rlp::Errc::missing_item) {
                return fail(Errc::too_few_fields, f, r.error().offset);
            }
            return fail_rlp(r.error().code, f, r.error().offset);
        }
        item = *r;
        return true;
    }

    bool next_string(rlp::Decoder& d, Field f, rlp::Item& item) noexcept {
        if (!next(d, f, item)) [[unlikely]]
            return false;
        if (item.is_list) [[unlikely]]
            return fail_rlp(rlp::Errc::expected_string, f, item.offset);
        return true;
    }

    bool next_list(rlp::Decoder& d, Field f, rlp::Item& item) noexcept {
        if (!next(d, f, item)) [[unlikely]]
            return false;
        if (!item.is_list) [[unlikely]]
            return fail_rlp(rlp::Errc::expected_list, f, item.offset);
        return true;
    }

    // An integer of at most max_bytes bytes (max_bytes <= 8). The width is checked before the
    // leading zero: a 64-bit field holding 9 bytes overflows whatever its first byte (geth's
    // order, which ethereum/tests' exception names follow).
    bool next_small_uint(rlp::Decoder& d, Field f, std::size_t max_bytes,
                         std::uint64_t& out) noexcept {
        rlp::Item item;
        if (!next_string(d, f, item)) [[unlikely]]
            return false;
        const std::size_t n = item.payload.size();
        if (n > max_bytes) [[unlikely]]
            return fail(Errc::integer_overflow, f, item.offset, saturate32(n));
        if (n != 0 && item.payload[0] == 0) [[unlikely]]
            return fail_rlp(rlp::Errc::leading_zero_in_integer, f, item.offset);
        out = load_be_padded(item.payload.data(), n);
        return true;
    }

    // A 256-bit integer. Here the leading zero is checked first: a 33-byte value with a leading
    // zero is non-canonical before it is too wide (again the order of ethereum/tests).
    bool next_uint256(rlp::Decoder& d, Field f, Uint256& out) noexcept {
        rlp::Item item;
        if (!next_string(d, f, item)) [[unlikely]]
            return false;
        const std::size_t n = item.payload.size();
        if (n != 0 && item.payload[0] == 0) [[unlikely]]
            return fail_rlp(rlp::Errc::leading_zero_in_integer, f, item.offset);
        if (n > 32) [[unlikely]]
            return fail(Errc::integer_overflow, f, item.offset, saturate32(n));
        out = load_uint256_padded(item.payload.data(), n);
        return true;
    }

    // Exactly N bytes.
    template <std::size_t N>
    bool next_fixed(rlp::Decoder& d, Field f, const std::uint8_t*& bytes) noexcept {
        rlp::Item item;
        if (!next_string(d, f, item)) [[unlikely]]
            return false;
        const std::size_t n = item.payload.size();
        if (n != N) [[unlikely]]
            return fail(n < N ? Errc::too_short : Errc::too_long, f, item.offset, saturate32(n));
        bytes = item.payload.data();
        return true;
    }

    bool finish(const rlp::Decoder& d, Field f) noexcept {
        if (!d.empty()) [[unlikely]]
            return fail(Errc::too_many_fields, f, d.offset());
        return true;
    }

    // EIP-2930 access list: [[address, [storage_key, ...]], ...].
    bool access_list(const rlp::Item& list) noexcept {
        tx.access_list_off_ = buf_off(list.payload.data());
        tx.access_list_len_ = static_cast<std::uint32_t>(list.payload.size());
        rlp::Decoder entries(list.payload, list.offset + list.header_size);
        std::uint32_t count = 0;
        std::uint32_t keys = 0;
        while (!entries.empty()) {
            rlp::Item entry;
            if (!next_list(entries, Field::access_list_entry, entry)) return false;
            rlp::Decoder e(entry.payload, entry.offset + entry.header_size);
            const std::uint8_t* address;
            if (!next_fixed<20>(e, Field::access_list_address, address)) return false;
            rlp::Item key_list;
            if (!next_list(e, Field::access_list_storage_keys, key_list)) return false;
            if (!finish(e, Field::access_list_entry)) return false;
            rlp::Decoder k(key_list.payload, key_list.offset + key_list.header_size);
            while (!k.empty()) {
                const std::uint8_t* key;
                if (!next_fixed<32>(k, Field::access_list_storage_key, key)) return false;
                ++keys;
            }
            ++count;
        }
        tx.access_list_count_ = count;
        tx.storage_key_count_ = keys;
        return true;
    }

    // EIP-4844 blob versioned hashes: a list of 32-byte strings.
    bool blob_hashes(const rlp::Item& list) noexcept {
        tx.blob_hashes_off_ = buf_off(list.payload.data());
        rlp::Decoder d(list.payload, list.offset + list.header_size);
        std::uint32_t count = 0;
        while (!d.empty()) {
            const std::uint8_t* h;
            if (!next_fixed<32>(d, Field::blob_versioned_hash, h)) return false;
            ++count;
        }
        tx.blob_hash_count_ = count;
        return true;
    }

    // EIP-7702 authorization list: [[chain_id, address, nonce, y_parity, r, s], ...], with
    // chain_id, r, s < 2^256, nonce < 2^64, y_parity < 2^8.
    bool authorizations(const rlp::Item& list) noexcept {
        tx.authorizations_off_ = buf_off(list.payload.data());
        tx.authorizations_len_ = static_cast<std::uint32_t>(list.payload.size());
        rlp::Decoder d(list.payload, list.offset + list.header_size);
        std::uint32_t count = 0;
        while (!d.empty()) {
            rlp::Item tuple;
            if (!next_list(d, Field::authorization, tuple)) return false;
            rlp::Decoder t(tuple.payload, tuple.offset + tuple.header_size);
            Uint256 word;
            std::uint64_t small;
            const std::uint8_t* address;
            if (!next_uint256(t, Field::authorization_chain_id, word) ||
                !next_fixed<20>(t, Field::authorization_address, address) ||
                !next_small_uint(t, Field::authorization_nonce, 8, small) ||
                !next_small_uint(t, Field::authorization_y_parity, 1, small) ||
                !next_uint256(t, Field::authorization_r, word) ||
                !next_uint256(t, Field::authorization_s, word) || !finish(t, Field::authorization))
                return false;
            ++count;
        }
        tx.authorization_count_ = count;
        return true;
    }

    // One top-level field, chosen at compile time.
    template <TxType T, Field F>
    [[gnu::always_inline]] bool field(rlp::Decoder& d) noexcept {
        tx.field_off_[static_cast<std::size_t>(F)] =
            static_cast<std::uint32_t>(d.offset() - tx.base_offset_);
        if constexpr (F == Field::chain_id) {
            tx.has_chain_id_ = true;
            return next_small_uint(d, F, 8, tx.chain_id_);
        } else if constexpr (F == Field::nonce) {
            return next_small_uint(d, F, 8, tx.nonce_);
        } else if constexpr (F == Field::gas_price) {
            if (!next_uint256(d, F, tx.max_fee_)) return false;
            tx.max_priority_fee_ = tx.max_fee_;
            return true;
        } else if constexpr (F == Field::max_priority_fee_per_gas) {
            return next_uint256(d, F, tx.max_priority_fee_);
        } else if constexpr (F == Field::max_fee_per_gas) {
            return next_uint256(d, F, tx.max_fee_);
        } else if constexpr (F == Field::gas_limit) {
            return next_small_uint(d, F, 8, tx.gas_limit_);
        } else if constexpr (F == Field::to) {
            rlp::Item item;
            if (!next_string(d, F, item)) return false;
            const std::size_t n = item.payload.size();
            if (n == 20) [[likely]] {
                std::memcpy(tx.to_.data(), item.payload.data(), 20);
                return true;
            }
            if (n != 0) {
                return fail(n < 20 ? Errc::too_short : Errc::too_long, F, item.offset,
                            saturate32(n));
            }
            // Blob and set-code transactions name their `to` as an Address, not an optional
            // one (EIP-4844, EIP-7702): they cannot create.
            if constexpr (T == TxType::blob || T == TxType::set_code) {
                return fail(Errc::create_not_allowed, F, item.offset,
                            static_cast<std::uint32_t>(T));
            }
            tx.is_create_ = true;
            return true;
        } else if constexpr (F == Field::value) {
            return next_uint256(d, F, tx.value_);
        } else if constexpr (F == Field::data) {
            rlp::Item item;
            if (!next_string(d, F, item)) return false;
            tx.data_off_ = buf_off(item.payload.data());
            tx.data_len_ = static_cast<std::uint32_t>(item.payload.size());
            return true;
        } else if constexpr (F == Field::access_list) {
            rlp::Item item;
            return next_list(d, F, item) && access_list(item);
        } else if constexpr (F == Field::max_fee_per_blob_gas) {
            return next_uint256(d, F, tx.max_fee_per_blob_gas_);
        } else if constexpr (F == Field::blob_versioned_hashes) {
            rlp::Item item;
            return next_list(d, F, item) && blob_hashes(item);
        } else if constexpr (F == Field::authorization_list) {
            rlp::Item item;
            return next_list(d, F, item) && authorizations(item);
        } else if constexpr (F == Field::v || F == Field::y_parity) {
            tx.sig_off_ = buf_off(d.remaining().data());
            return next_uint256(d, F, tx.v_);
        } else if constexpr (F == Field::r) {
            return next_uint256(d, F, tx.r_);
        } else {
            static_assert(F == Field::s, "layouts list top-level fields only");
            return next_uint256(d, F, tx.s_);
        }
    }

    template <TxType T, std::size_t... I>
    bool all_fields(rlp::Decoder& d, std::index_sequence<I...>) noexcept {
        return (field<T, kLayout<T>[I]>(d) && ...);
    }

    // The fields of a type-T transaction list whose payload is `payload` (a view into buf_) at
    // absolute offset `payload_offset`: straight-line code per type.
    template <TxType T>
    bool typed_fields(BytesView payload, std::size_t payload_offset) noexcept {
        tx.payload_off_ = buf_off(payload.data());
        rlp::Decoder d(payload, payload_offset);
        constexpr std::size_t kCount = std::size(kLayout<T>);
        if (!all_fields<T>(d, std::make_index_sequence<kCount>{})) return false;
        if (!finish(d, Field::none)) return false;
        if constexpr (T == TxType::legacy) legacy_chain_id();
        return true;
    }

    bool fields(BytesView payload, std::size_t payload_offset) noexcept {
        switch (tx.type_) {
            case TxType::legacy:
                return typed_fields<TxType::legacy>(payload, payload_offset);
            case TxType::access_list:
                return typed_fields<TxType::access_list>(payload, payload_offset);
            case TxType::dynamic_fee:
                return typed_fields<TxType::dynamic_fee>(payload, payload_offset);
            case TxType::blob:
                return typed_fields<TxType::blob>(payload, payload_offset);
            case TxType::set_code:
                return typed_fields<TxType::set_code>(payload, payload_offset);
        }
        return false;
    }

    // EIP-155: v = chain_id * 2 + 35 + y_parity; v = 27/28 carries no chain id.
    void legacy_chain_id() noexcept {
        const Uint256& v = tx.v_;
        if (v < 35) return;
        const Uint256 id = (v - 35) >> 1;
        if (!id.fits_u64()) return;
        tx.chain_id_ = id.as_u64();
        tx.has_chain_id_ = true;
    }

    // The envelope `in` (already copied into buf_): legacy list or type || list, exactly.
    bool envelope(std::size_t base_offset) noexcept {
        const BytesView in{buf(), tx.buf_.size() - kSlack};
        const std::uint8_t first = in[0];
        std::size_t start = 0;
        if (first >= 0xc0) {
            tx.type_ = TxType::legacy;
        } else if (is_known_type(first)) {
            tx.type_ = static_cast<TxType>(first);
            start = 1;
        } else {
            // EIP-2718: 0x00-0x7f is a type byte, 0xc0-0xfe a legacy list; 0x80-0xbf is neither.
            return fail(Errc::type_not_supported, Field::type, base_offset, first);
        }
        if (start == in.size()) {
            return fail_rlp(rlp::Errc::empty_input, Field::none, base_offset + start);
        }
        auto h = rlp::decode_header(in.subspan(start), base_offset + start);
        if (!h) return fail_rlp(h.error().code, Field::none, h.error().offset);
        if (!h->is_list) return fail_rlp(rlp::Errc::expected_list, Field::none, h->offset);
        if (start + h->size() != in.size()) {
            return fail_rlp(rlp::Errc::trailing_bytes, Field::none, h->end_offset());
        }
        tx.envelope_len_ = static_cast<std::uint32_t>(in.size());
        return fields(h->payload, h->offset + h->header_size);
    }

    void finish_hash() noexcept { tx.hash_ = crypto::keccak256(tx.encoded()); }

    static Result<Transaction, Error> decode(BytesView in, std::size_t base_offset,
                                             bool hash = true) noexcept {
        // Built in place in the Result and returned by name (NRVO): a Transaction is a few
        // hundred bytes, and copying it out would cost as much as parsing a field or two.
        Result<Transaction, Error> out(std::in_place, Transaction::Key{});
        if (in.empty()) [[unlikely]] {
            out = make_rlp_error({rlp::Errc::empty_input, base_offset}, Field::none);
        } else if (in.size() > kMaxInput) [[unlikely]] {
            out = make_error(Errc::too_long, Field::none, base_offset, kMaxInput);
        } else if (in[0] < 0xc0 && !is_known_type(in[0])) [[unlikely]] {
            out = make_error(Errc::type_not_supported, Field::type, base_offset, in[0]);
        } else {
            Transaction& t = *out;
            t.base_offset_ = base_offset;
            t.buf_.reserve(in.size() + kSlack);
            t.buf_.assign(in.begin(), in.end());
            t.buf_.resize(in.size() + kSlack);
            TxDecoder dec{t};
            if (!dec.envelope(base_offset)) [[unlikely]] {
                out = std::unexpected(dec.err);
            } else if (hash) {
                dec.finish_hash();
            }
        }
        return out;
    }

    // Checks a sidecar list of N-byte strings (offsets are those of the network input) and
    // counts them.
    template <std::size_t N>
    bool sidecar_items(const rlp::Item& list, Field f, std::uint32_t& count) noexcept {
        rlp::Decoder d(list.payload, list.offset + list.header_size);
        std::uint32_t n = 0;
        while (!d.empty()) {
            const std::uint8_t* p;
            if (!next_fixed<N>(d, f, p)) return false;
            ++n;
        }
        count = n;
        return true;
    }

    static Result<Transaction, Error> decode_network(BytesView in) noexcept {
        if (in.empty() || in[0] != static_cast<std::uint8_t>(TxType::blob)) {
            return decode(in, 0);
        }
        if (in.size() > kMaxInput) [[unlikely]]
            return make_error(Errc::too_long, Field::none, 0, kMaxInput);
        Transaction t{Transaction::Key{}};
        TxDecoder dec{t};
        // The wrapper: 0x03 || rlp([body, (version,) blobs, commitments, proofs]).
        if (in.size() == 1) return make_rlp_error({rlp::Errc::empty_input, 1}, Field::none);
        auto outer = rlp::decode_header(in.subspan(1), 1);
        if (!outer) return make_rlp_error(outer.error(), Field::network_wrapper);
        if (!outer->is_list) {
            return make_rlp_error({rlp::Errc::expected_list, 1}, Field::network_wrapper);
        }
        if (1 + outer->size() != in.size()) {
            return make_rlp_error({rlp::Errc::trailing_bytes, outer->end_offset()}, Field::none);
        }
        rlp::Decoder w(outer->payload, 1 + outer->header_size);
        rlp::Item body, second, blobs, commitments, proofs;
        if (!dec.next_list(w, Field::network_wrapper, body) || !dec.next(w, Field::blobs, second))
            return std::unexpected(dec.err);
        std::uint8_t version = 0;
        if (second.is_list) {
            blobs = second;  // EIP-4844: [body, blobs, commitments, proofs]
        } else {
            // EIP-7594: [body, wrapper_version = 1, blobs, commitments, cell_proofs]
            const BytesView v = second.payload;
            if (v.size() != 1 || v[0] != 1) {
                return make_error(Errc::wrong_wrapper_version, Field::wrapper_version,
                                  second.offset,
                                  v.empty() ? 0u : (v.size() == 1 ? v[0] : kMaxInput));
            }
            version = 1;
            if (!dec.next_list(w, Field::blobs, blobs)) return std::unexpected(dec.err);
        }
        if (!dec.next_list(w, Field::commitments, commitments) ||
            !dec.next_list(w, Field::proofs, proofs) || !dec.finish(w, Field::network_wrapper))
            return std::unexpected(dec.err);

        // One buffer: the canonical envelope, then the three sidecar list payloads.
        const BytesView body_bytes = body.encoded();
        auto& buf = t.buf_;
        buf.reserve(1 + body_bytes.size() + blobs.payload.size() + commitments.payload.size() +
                    proofs.payload.size() + kSlack);
        buf.push_back(static_cast<std::uint8_t>(TxType::blob));
        buf.insert(buf.end(), body_bytes.begin(), body_bytes.end());
        t.envelope_len_ = static_cast<std::uint32_t>(buf.size());
        const auto append = [&buf](const rlp::Item& item) {
            const auto off = static_cast<std::uint32_t>(buf.size());
            buf.insert(buf.end(), item.payload.begin(), item.payload.end());
            return off;
        };
        t.blobs_off_ = append(blobs);
        t.commitments_off_ = append(commitments);
        t.proofs_off_ = append(proofs);
        buf.resize(buf.size() + kSlack);

        // Parse the body from the buffer, reporting offsets in the network input.
        t.type_ = TxType::blob;
        const BytesView body_payload{buf.data() + 1 + body.header_size, body.payload.size()};
        if (!dec.fields(body_payload, body.offset + body.header_size)) {
            return std::unexpected(dec.err);
        }
        // Sidecar items, checked on the input (same bytes as the copies).
        std::uint32_t n_blobs = 0, n_commitments = 0, n_proofs = 0;
        if (!dec.sidecar_items<kBlobSize>(blobs, Field::blob, n_blobs) ||
            !dec.sidecar_items<kCommitmentSize>(commitments, Field::commitment, n_commitments) ||
            !dec.sidecar_items<kProofSize>(proofs, Field::proof, n_proofs))
            return std::unexpected(dec.err);
        const std::uint32_t n = t.blob_hash_count_;
        if (n_blobs != n) {
            return make_error(Errc::sidecar_count_mismatch, Field::blobs, blobs.offset, n_blobs);
        }
        if (n_commitments != n) {
            return make_error(Errc::sidecar_count_mismatch, Field::commitments, commitments.offset,
                              n_commitments);
        }
        const std::uint64_t want_proofs = version == 0 ? n : std::uint64_t{n} * kCellProofsPerBlob;
        if (n_proofs != want_proofs) {
            return make_error(Errc::sidecar_count_mismatch, Field::proofs, proofs.offset, n_proofs);
        }
        t.has_sidecar_ = true;
        t.wrapper_version_ = version;
        t.sidecar_blob_count_ = n;
        t.proof_count_ = n_proofs;
        dec.finish_hash();
        return t;
    }
};

Result<Transaction, Error> decode_transaction(BytesView envelope,
                                              std::size_t base_offset) noexcept {
    return TxDecoder::decode(envelope, base_offset);
}

Result<Transaction, Error> detail::decode_transaction_unhashed(BytesView envelope,
                                                               std::size_t base_offset) noexcept {
    return TxDecoder::decode(envelope, base_offset, false);
}

namespace {

Result<Transaction, Error> decode_item(BytesView item, std::size_t base_offset,
                                       bool hash) noexcept {
    auto h = rlp::decode_header(item, base_offset);
    if (!h) return make_rlp_error(h.error(), Field::none);
    Result<Transaction, Error> tx = [&]() -> Result<Transaction, Error> {
        if (h->is_list) return TxDecoder::decode(h->encoded(), base_offset, hash);
        // EIP-2718: a typed transaction sits in the body as a string holding its envelope.
        const BytesView inner = h->payload;
        const std::size_t inner_offset = base_offset + h->header_size;
        if (inner.empty()) {
            return make_rlp_error({rlp::Errc::empty_input, inner_offset}, Field::none);
        }
        if (!is_known_type(inner[0])) {
            return make_error(Errc::type_not_supported, Field::type, inner_offset, inner[0]);
        }
        return TxDecoder::decode(inner, inner_offset, hash);
    }();
    if (tx && h->size() != item.size()) {
        return make_rlp_error({rlp::Errc::trailing_bytes, h->end_offset()}, Field::none);
    }
    return tx;
}

}  // namespace

Result<Transaction, Error> decode_transaction_item(BytesView item,
                                                   std::size_t base_offset) noexcept {
    return decode_item(item, base_offset, true);
}

Result<Transaction, Error> detail::decode_transaction_item_unhashed(
    BytesView item, std::size_t base_offset) noexcept {
    return decode_item(item, base_offset, false);
}

Result<Transaction, Error> decode_transaction_network(BytesView network) noexcept {
    return TxDecoder::decode_network(network);
}

// ---- views
// -----------------------------------------------------------------------------------------

AccessListEntryView AccessListView::iterator::operator*() const noexcept {
    const RawHeader entry = raw_header(p_);
    const std::uint8_t* q = p_ + entry.header;  // [address (0x94 + 20 bytes), [keys]]
    AccessListEntryView out;
    std::memcpy(out.address.data(), q + 1, 20);
    const std::uint8_t* keys = q + 21;
    const RawHeader kh = raw_header(keys);
    out.storage_keys = StorageKeysView(keys + kh.header, kh.length / StorageKeysView::kStride);
    return out;
}

AccessListView::iterator& AccessListView::iterator::operator++() noexcept {
    const RawHeader h = raw_header(p_);
    p_ += h.header + h.length;
    return *this;
}

Authorization AuthorizationListView::iterator::operator*() const noexcept {
    const RawHeader h = raw_header(p_);
    rlp::Decoder d(BytesView{p_ + h.header, h.length});
    Authorization a;
    auto chain_id = d.next_uint256();
    auto address = d.next_fixed<20>();
    auto nonce = d.next_uint<std::uint64_t>();
    auto y = d.next_uint<std::uint8_t>();
    auto r = d.next_uint256();
    auto s = d.next_uint256();
    // The tuple was checked by decode; these reads cannot fail.
    KEEL_ASSERT(chain_id && address && nonce && y && r && s);
    a.chain_id = *chain_id;
    a.address = *address;
    a.nonce = *nonce;
    a.y_parity = *y;
    a.r = *r;
    a.s = *s;
    return a;
}

BytesView AuthorizationListView::iterator::encoded() const noexcept {
    const RawHeader h = raw_header(p_);
    return {p_, h.header + h.length};
}

AuthorizationListView::iterator& AuthorizationListView::iterator::operator++() noexcept {
    const RawHeader h = raw_header(p_);
    p_ += h.header + h.length;
    return *this;
}

Hash32 Authorization::signing_hash() const noexcept {
    // EIP-7702: keccak256(MAGIC || rlp([chain_id, address, nonce])), MAGIC = 0x05.
    StackWriter fields;
    fields.uint256(chain_id);
    fields.string(address.view());
    fields.uint64(nonce);
    StackWriter head;
    head.byte(0x05);
    head.header(fields.view().size(), 0xc0);
    crypto::Keccak256 h;
    h.update(head.view());
    h.update(fields.view());
    return h.finalize();
}

// ---- Transaction
// -----------------------------------------------------------------------------------

Hash32 Transaction::signing_hash() const noexcept {
    const BytesView signed_fields{buf_.data() + payload_off_, sig_off_ - payload_off_};
    crypto::Keccak256 h;
    StackWriter head;
    if (type_ != TxType::legacy) {
        // EIP-2718 / 2930 / 1559 / 4844 / 7702: keccak256(type || rlp(fields but the signature)).
        head.byte(static_cast<std::uint8_t>(type_));
        head.header(signed_fields.size(), 0xc0);
        h.update(head.view());
        h.update(signed_fields);
        return h.finalize();
    }
    if (v_ < 35) {
        // YP §4.2 (eq. 245): rlp([nonce, gas_price, gas_limit, to, value, data]).
        head.header(signed_fields.size(), 0xc0);
        h.update(head.view());
        h.update(signed_fields);
        return h.finalize();
    }
    // EIP-155: rlp([nonce, gas_price, gas_limit, to, value, data, chain_id, 0, 0]).
    StackWriter tail;
    tail.uint256((v_ - 35) >> 1);
    tail.byte(0x80);
    tail.byte(0x80);
    head.header(signed_fields.size() + tail.view().size(), 0xc0);
    h.update(head.view());
    h.update(signed_fields);
    h.update(tail.view());
    return h.finalize();
}

std::size_t Transaction::offset_of(Field f) const noexcept {
    const auto i = static_cast<std::size_t>(f);
    if (i >= std::size(field_off_)) return base_offset_;
    return base_offset_ + field_off_[i];
}

std::size_t Transaction::data_zero_bytes() const noexcept {
    const BytesView d = data();
    return static_cast<std::size_t>(std::count(d.begin(), d.end(), std::uint8_t{0}));
}

// ---- encoding
// --------------------------------------------------------------------------------------

namespace {

// The fields to encode, from either a Transaction (views) or TransactionFields (vectors). Both
// access-list entry types have .address and .storage_keys; both hash lists yield Hash32; both
// authorization lists yield Authorization.
template <class AccessList, class BlobHashes, class Authorizations>
struct Parts {
    TxType type;
    std::uint64_t chain_id;
    std::uint64_t nonce;
    const Uint256& max_priority_fee;
    const Uint256& max_fee;  // gas price for types 0, 1
    std::uint64_t gas_limit;
    std::optional<Address> to;
    const Uint256& value;
    BytesView data;
    const AccessList& access_list;
    const Uint256& max_fee_per_blob_gas;
    const BlobHashes& blob_hashes;
    const Authorizations& authorizations;
    const Uint256& v;
    const Uint256& r;
    const Uint256& s;
};

template <class AccessList>
std::size_t access_list_payload_length(const AccessList& list) {
    std::size_t n = 0;
    for (const auto& entry : list) {
        const std::size_t keys = entry.storage_keys.size() * 33;
        n += rlp::list_length(21 + rlp::list_length(keys));
    }
    return n;
}

std::size_t authorization_payload_length(const Authorization& a) {
    return rlp::uint256_length(a.chain_id) + 21 + rlp::uint_length(a.nonce) +
           rlp::uint_length(a.y_parity) + rlp::uint256_length(a.r) + rlp::uint256_length(a.s);
}

template <class Authorizations>
std::size_t authorizations_payload_length(const Authorizations& list) {
    std::size_t n = 0;
    for (const Authorization& a : list) {
        n += rlp::list_length(authorization_payload_length(a));
    }
    return n;
}

template <class P>
std::size_t payload_length(const P& p) {
    const bool legacy = p.type == TxType::legacy;
    std::size_t n = 0;
    if (!legacy) n += rlp::uint_length(p.chain_id);
    n += rlp::uint_length(p.nonce);
    if (p.type == TxType::legacy || p.type == TxType::access_list) {
        n += rlp::uint256_length(p.max_fee);
    } else {
        n += rlp::uint256_length(p.max_priority_fee) + rlp::uint256_length(p.max_fee);
    }
    n += rlp::uint_length(p.gas_limit);
    n += p.to ? 21 : 1;
    n += rlp::uint256_length(p.value);
    n += rlp::string_length(p.data);
    if (!legacy) n += rlp::list_length(access_list_payload_length(p.access_list));
    if (p.type == TxType::blob) {
        n += rlp::uint256_length(p.max_fee_per_blob_gas);
        n += rlp::list_length(p.blob_hashes.size() * 33);
    }
    if (p.type == TxType::set_code) {
        n += rlp::list_length(authorizations_payload_length(p.authorizations));
    }
    n += rlp::uint256_length(p.v) + rlp::uint256_length(p.r) + rlp::uint256_length(p.s);
    return n;
}

template <class P>
void write(const P& p, rlp::Encoder& out) {
    const bool legacy = p.type == TxType::legacy;
    const std::size_t payload = payload_length(p);
    out.reserve((legacy ? 0 : 1) + rlp::list_length(payload));
    const auto type_byte = static_cast<std::uint8_t>(p.type);
    if (!legacy) out.add_raw(BytesView{&type_byte, 1});
    out.add_list_header(payload);
    if (!legacy) out.add_uint(p.chain_id);
    out.add_uint(p.nonce);
    if (p.type == TxType::legacy || p.type == TxType::access_list) {
        out.add_uint256(p.max_fee);
    } else {
        out.add_uint256(p.max_priority_fee).add_uint256(p.max_fee);
    }
    out.add_uint(p.gas_limit);
    if (p.to) {
        out.add_string(p.to->view());
    } else {
        out.add_string({});
    }
    out.add_uint256(p.value);
    out.add_string(p.data);
    if (!legacy) {
        out.add_list_header(access_list_payload_length(p.access_list));
        for (const auto& entry : p.access_list) {
            const std::size_t keys = entry.storage_keys.size() * 33;
            out.add_list_header(21 + rlp::list_length(keys));
            out.add_string(entry.address.view());
            out.add_list_header(keys);
            for (const Hash32 key : entry.storage_keys) out.add_string(key.view());
        }
    }
    if (p.type == TxType::blob) {
        out.add_uint256(p.max_fee_per_blob_gas);
        out.add_list_header(p.blob_hashes.size() * 33);
        for (const Hash32 h : p.blob_hashes) out.add_string(h.view());
    }
    if (p.type == TxType::set_code) {
        out.add_list_header(authorizations_payload_length(p.authorizations));
        for (const Authorization& a : p.authorizations) {
            out.add_list_header(authorization_payload_length(a));
            out.add_uint256(a.chain_id);
            out.add_string(a.address.view());
            out.add_uint(a.nonce);
            out.add_uint(a.y_parity);
            out.add_uint256(a.r);
            out.add_uint256(a.s);
        }
    }
    out.add_uint256(p.v).add_uint256(p.r).add_uint256(p.s);
}

template <class F>
decltype(auto) with_parts(const TransactionFields& f, F&& fn) {
    const Uint256& fee_cap = f.max_fee_per_gas;
    const Uint256& tip = (f.type == TxType::legacy || f.type == TxType::access_list)
                             ? f.max_fee_per_gas
                             : f.max_priority_fee_per_gas;
    Parts<std::vector<TransactionFields::AccessListEntry>, std::vector<Hash32>,
          std::vector<Authorization>>
        p{f.type,
          f.chain_id,
          f.nonce,
          tip,
          fee_cap,
          f.gas_limit,
          f.to,
          f.value,
          f.data,
          f.access_list,
          f.max_fee_per_blob_gas,
          f.blob_versioned_hashes,
          f.authorization_list,
          f.v,
          f.r,
          f.s};
    return fn(p);
}

template <class F>
decltype(auto) with_parts(const Transaction& tx, F&& fn) {
    const AccessListView al = tx.access_list();
    const BlobHashesView bh = tx.blob_versioned_hashes();
    const AuthorizationListView au = tx.authorization_list();
    Parts<AccessListView, BlobHashesView, AuthorizationListView> p{tx.type(),
                                                                   tx.chain_id().value_or(0),
                                                                   tx.nonce(),
                                                                   tx.max_priority_fee_per_gas(),
                                                                   tx.max_fee_per_gas(),
                                                                   tx.gas_limit(),
                                                                   tx.to(),
                                                                   tx.value(),
                                                                   tx.data(),
                                                                   al,
                                                                   tx.max_fee_per_blob_gas(),
                                                                   bh,
                                                                   au,
                                                                   tx.v(),
                                                                   tx.r(),
                                                                   tx.s()};
    return fn(p);
}

}  // namespace

void encode(const TransactionFields& f, rlp::Encoder& out) {
    with_parts(f, [&out](const auto& p) { write(p, out); });
}

Bytes encode(const TransactionFields& f) {
    rlp::Encoder out;
    encode(f, out);
    return out.take();
}

void encode(const Transaction& tx, rlp::Encoder& out) {
    with_parts(tx, [&out](const auto& p) { write(p, out); });
}

Bytes encode(const Transaction& tx) {
    rlp::Encoder out;
    encode(tx, out);
    return out.take();
}

void encode_item(const Transaction& tx, rlp::Encoder& out) {
    if (tx.type() == TxType::legacy) {
        encode(tx, out);
        return;
    }
    const std::size_t n =
        with_parts(tx, [](const auto& p) { return 1 + rlp::list_length(payload_length(p)); });
    out.reserve(rlp::header_length(n) + n);
    out.add_string_header(n);
    encode(tx, out);
}

Bytes encode_network(const Transaction& tx) {
    if (!tx.has_sidecar()) return encode(tx);
    const BytesView body = tx.encoded().subspan(1);  // rlp([fields...])
    const auto blobs = tx.blobs();
    const auto commitments = tx.commitments();
    const auto proofs = tx.proofs();
    const std::size_t blobs_len = blobs.size() * FixedItemsView<kBlobSize>::kStride;
    const std::size_t commitments_len =
        commitments.size() * FixedItemsView<kCommitmentSize>::kStride;
    const std::size_t proofs_len = proofs.size() * FixedItemsView<kProofSize>::kStride;
    std::size_t payload = body.size() + rlp::list_length(blobs_len) +
                          rlp::list_length(commitments_len) + rlp::list_length(proofs_len);
    if (tx.wrapper_version() != 0) payload += rlp::uint_length(tx.wrapper_version());
    rlp::Encoder out;
    out.reserve(1 + rlp::list_length(payload));
    const std::uint8_t type = static_cast<std::uint8_t>(TxType::blob);
    out.add_raw(BytesView{&type, 1});
    out.add_list_header(payload);
    out.add_raw(body);
    if (tx.wrapper_version() != 0) out.add_uint(tx.wrapper_version());
    out.add_list_header(blobs_len);
    for (std::size_t i = 0; i < blobs.size(); ++i) out.add_string(blobs.as_view(i));
    out.add_list_header(commitments_len);
    for (std::size_t i = 0; i < commitments.size(); ++i) out.add_string(commitments.as_view(i));
    out.add_list_header(proofs_len);
    for (std::size_t i = 0; i < proofs.size(); ++i) out.add_string(proofs.as_view(i));
    return out.take();
}

}  // namespace keel::eth
