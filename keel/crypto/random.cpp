#include "keel/crypto/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

namespace keel::crypto {

std::string to_string(const RandomError& e) {
    std::string out(describe(e.code));
    out += ": ";
    out += std::strerror(e.sys_errno);
    return out;
}

Result<void, RandomError> random_bytes(MutableBytesView out) noexcept {
    std::uint8_t* p = out.data();
    std::size_t left = out.size();
    while (left != 0) {
        // Flags 0: the urandom pool, blocking only before its first initialisation at boot.
        // Requests over 256 bytes may return fewer bytes (or EINTR) when a signal arrives, and
        // one call returns at most 32 MiB - 1, so loop until everything is filled.
        const ssize_t n = ::getrandom(p, left, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int err = errno;
            return unexpected(
                RandomError{err == ENOSYS ? Errc::random_not_supported : Errc::random_failed, err});
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return {};
}

}  // namespace keel::crypto
