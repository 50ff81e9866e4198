#include "keel/store/e2store.hpp"

namespace keel::store {

Result<E2Record, Error> E2Reader::next() noexcept {
    if (file_.size() - pos_ < kE2HeaderSize)
        return input_error(Errc::record_header_truncated, pos_);
    const std::uint8_t* h = file_.data() + pos_;
    const std::uint16_t type = static_cast<std::uint16_t>(h[0] | h[1] << 8);
    const std::size_t len = static_cast<std::size_t>(h[2]) | static_cast<std::size_t>(h[3]) << 8 |
                            static_cast<std::size_t>(h[4]) << 16 |
                            static_cast<std::size_t>(h[5]) << 24;
    // go-ethereum writes a uint32 length and two zero bytes; nimbus reads a 6-byte length. Both
    // agree on files whose reserved bytes are zero, which is what we accept.
    if (h[6] != 0 || h[7] != 0) return input_error(Errc::record_reserved_not_zero, pos_);
    if (file_.size() - pos_ - kE2HeaderSize < len) {
        return input_error(Errc::record_past_end, pos_);
    }
    E2Record r{type, pos_, file_.subspan(pos_ + kE2HeaderSize, len)};
    pos_ += kE2HeaderSize + len;
    return r;
}

}  // namespace keel::store
