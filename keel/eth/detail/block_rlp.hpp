#pragma once
/// Private to keel/eth (headers, receipts, withdrawals, blocks): reads the fields of an RLP list
/// and turns keel::rlp errors into eth::Error naming the field.
///
/// Mapping (the same as for transactions, errors.hpp): a list that ends before the field is
/// too_few_fields (offset: the end of the list); an integer wider than its field is
/// integer_overflow and a fixed-size string of another size too_short / too_long (detail: the
/// size found, offset: the item); every other RLP rule is Errc::rlp with the rule kept.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/errors.hpp"
#include "keel/rlp/decode.hpp"

namespace keel::eth::detail {

/// `n` as an Error::detail (saturating at 2^32 - 1).
constexpr std::uint32_t saturate32(std::size_t n) noexcept {
    return n > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                         : static_cast<std::uint32_t>(n);
}

/// A cursor over the fields of one list (a thin layer over rlp::Decoder). Every read names its
/// field in the error it returns; a failed read does not move the cursor.
class Fields {
  public:
    explicit Fields(rlp::Decoder d) noexcept : d_(d) {}

    /// True when every field has been read.
    bool empty() const noexcept { return d_.empty(); }
    /// Absolute offset of the next field (or of the end of the list).
    std::size_t offset() const noexcept { return d_.offset(); }

    /// A 64-bit integer field.
    [[nodiscard]] Result<std::uint64_t, Error> u64(Field f) noexcept {
        auto r = d_.next_uint<std::uint64_t>();
        if (!r) [[unlikely]]
            return unexpected(map(r.error(), f));
        return *r;
    }

    /// A 256-bit integer field.
    [[nodiscard]] Result<Uint256, Error> u256(Field f) noexcept {
        auto r = d_.next_uint256();
        if (!r) [[unlikely]]
            return unexpected(map(r.error(), f));
        return *r;
    }

    /// A string of exactly N bytes (hash, address, bloom, nonce).
    template <std::size_t N>
    [[nodiscard]] Result<FixedBytes<N>, Error> fixed(Field f) noexcept {
        auto r = d_.next_fixed<N>();
        if (!r) [[unlikely]]
            return unexpected(map(r.error(), f));
        return *r;
    }

    /// A string of any size (a view into the input).
    [[nodiscard]] Result<BytesView, Error> bytes(Field f) noexcept {
        auto r = d_.next_string();
        if (!r) [[unlikely]]
            return unexpected(map(r.error(), f));
        return *r;
    }

    /// A nested list: a cursor over its items.
    [[nodiscard]] Result<rlp::Decoder, Error> list(Field f) noexcept {
        auto r = d_.next_list();
        if (!r) [[unlikely]]
            return unexpected(map(r.error(), f));
        return *r;
    }

    /// The next item, string or list.
    [[nodiscard]] Result<rlp::Item, Error> item(Field f) noexcept {
        auto r = d_.next();
        if (!r) [[unlikely]]
            return unexpected(map(r.error(), f));
        return *r;
    }

    /// Succeeds when no field is left; too_many_fields (offset: the first extra item) otherwise.
    [[nodiscard]] Result<void, Error> finish(Field whole) const noexcept {
        if (!d_.empty()) [[unlikely]]
            return make_error(Errc::too_many_fields, whole, d_.offset());
        return {};
    }

    /// The eth::Error for an RLP failure reading field `f` at the cursor.
    Error map(const rlp::Error& e, Field f) const noexcept {
        switch (e.code) {
            case rlp::Errc::missing_item:
                return Error{Errc::too_few_fields, rlp::Errc::empty_input, f, 0, e.offset};
            case rlp::Errc::integer_overflow:
            case rlp::Errc::wrong_size: {
                // The header itself was fine: read it again for the size found.
                auto it = rlp::Decoder(d_).next();
                const std::size_t size = it ? it->payload.size() : 0;
                Errc code = Errc::integer_overflow;
                if (e.code == rlp::Errc::wrong_size)
                    code = size < fixed_size(f) ? Errc::too_short : Errc::too_long;
                return Error{code, rlp::Errc::empty_input, f, saturate32(size), e.offset};
            }
            default:
                return Error{Errc::rlp, e.code, f, 0, e.offset};
        }
    }

  private:
    rlp::Decoder d_;
};

/// Moves the value of `r` into `dst` and returns true, or copies its error into `err` and returns
/// false: lets a decoder read a run of fields as one && chain, stopping at the first failure.
template <class T, class R>
bool take(T& dst, R&& r, Error& err) noexcept {
    if (!r) [[unlikely]] {
        err = r.error();
        return false;
    }
    dst = std::move(*r);
    return true;
}

/// An RLP error of the structure's own framing (its list header, trailing bytes).
inline Error rlp_error(const rlp::Error& e, Field whole) noexcept {
    return Error{Errc::rlp, e.code, whole, 0, e.offset};
}

}  // namespace keel::eth::detail
