// era1, e2store and snappy-framing fuzz target. Properties:
//   - no input crashes, reads out of bounds or trips a sanitizer, accepted or not;
//   - every error names an offset within the input (or at its end), and its message is one line;
//   - a framing decode that fails leaves the caller's buffer as it was;
//   - for an accepted era1 file, every block either decodes (with the number start + i) or
//     fails with a one-line error, and verify_accumulator() returns the stored root or an error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "keel/store/e2store.hpp"
#include "keel/store/era1.hpp"
#include "keel/store/snappy_frame.hpp"

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

void check_line(const keel::store::Era1Error& e, std::size_t size) {
    check(e.offset <= size);
    check(e.record <= size);
    check(keel::store::to_string(e).find('\n') == std::string::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace keel::store;
    const keel::BytesView in(data, size);

    keel::Bytes out{1, 2, 3};
    if (auto r = decode_snappy_frames(in, out)) {
        check(out.size() == 3 + *r);
    } else {
        check(r.error().offset <= size);
        check(out.size() == 3);
    }

    E2Reader reader(in);
    while (!reader.at_end()) {
        auto r = reader.next();
        if (!r) {
            check(r.error().offset <= size);
            break;
        }
        check(r->value.data() + r->value.size() <= data + size);
    }

    auto era = Era1::open(in);
    if (!era) {
        check_line(era.error(), size);
        return 0;
    }
    check(era->count() <= kEra1MaxBlocks);
    keel::Bytes scratch;
    for (std::size_t i = 0; i < era->count(); ++i) {
        if (auto b = era->block(i, scratch)) {
            check(b->header.number == era->start_block() + i);
            check(b->hash == b->header.hash());
        } else {
            check_line(b.error(), size);
        }
    }
    if (auto acc = era->verify_accumulator()) {
        check(*acc == era->accumulator());
    } else {
        check_line(acc.error(), size);
    }
    return 0;
}
