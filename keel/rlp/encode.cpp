#include "keel/rlp/encode.hpp"

#include <algorithm>
#include <utility>

#include "keel/common/assert.hpp"

namespace keel::rlp {

Encoder::Encoder(Encoder&& other) noexcept
    : own_(std::move(other.own_)),
      out_(other.out_ == &other.own_ ? &own_ : other.out_),
      size_(std::exchange(other.size_, 0)),
      open_(std::exchange(other.open_, kNone)) {
    other.own_.clear();
    other.out_ = &other.own_;
}

Encoder& Encoder::operator=(Encoder&& other) noexcept {
    if (this != &other) {
        trim();
        own_ = std::move(other.own_);
        out_ = other.out_ == &other.own_ ? &own_ : other.out_;
        size_ = std::exchange(other.size_, 0);
        open_ = std::exchange(other.open_, kNone);
        other.own_.clear();
        other.out_ = &other.own_;
    }
    return *this;
}

// Grows the vector ahead (at least doubling) so that n more bytes and the slack fit. The new bytes
// are zeroed by resize() once here, not per item.
void Encoder::grow(std::size_t n) {
    const std::size_t want = std::max({size_ + n + kSlack, 2 * out_->size(), std::size_t{256}});
    out_->resize(want);
}

Bytes Encoder::take() noexcept {
    KEEL_ASSERT(open_ == kNone);
    trim();
    Bytes out = std::move(*out_);
    out_->clear();
    size_ = 0;
    return out;
}

Encoder::ListMarker Encoder::begin_list() {
    ListMarker m{size_, open_};
    add_byte(0xc0);  // header slot, final if the payload stays below 56 bytes
    open_ = m.start;
    return m;
}

void Encoder::end_list(ListMarker m) {
    KEEL_ASSERT(m.start == open_ && m.start < size_);
    open_ = m.outer;
    const std::size_t payload = size_ - m.start - 1;
    if (payload < 56) {
        (*out_)[m.start] = static_cast<std::uint8_t>(0xc0 + payload);
        return;
    }
    // Long header (YP app. B, R_l): move the payload once to make room for the k length bytes.
    const std::size_t k = be_length(payload);
    room(k);
    std::uint8_t* h = out_->data() + m.start;
    std::memmove(h + 1 + k, h + 1, payload);
    size_ += k;
    std::uint8_t len[8];
    detail::store_be_prefix(len, payload, k);
    h[0] = static_cast<std::uint8_t>(0xf7 + k);
    std::memcpy(h + 1, len, k);
}

}  // namespace keel::rlp
