// RLP decoder fuzz target. Properties:
//   - no input crashes or reads out of bounds (ASan/UBSan), validated or not;
//   - an input accepted by validate() re-encodes with the Encoder (lists by known length, and
//     lists by begin_list()/end_list()) to exactly itself: the decoder accepts only canonical RLP;
//   - the Decoder's typed reads agree with the item headers they read.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"

namespace {

using keel::BytesView;
using keel::rlp::Decoder;
using keel::rlp::Encoder;
using keel::rlp::Item;

void check(bool ok) {
    if (!ok) std::abort();
}

// Walks a validated tree (depth <= kMaxDepth, so the recursion is bounded) and re-encodes it.
void reencode(const Item& item, Encoder& known, Encoder& marked) {
    if (!item.is_list) {
        known.add_string(item.payload);
        marked.add_string(item.payload);
        return;
    }
    known.add_list_header(item.payload.size());
    auto m = marked.begin_list();
    Decoder d(item.payload, item.offset + item.header_size);
    while (!d.empty()) {
        auto child = d.next();
        check(child.has_value());  // validated input: every nested header is good
        reencode(*child, known, marked);
    }
    marked.end_list(m);
}

// Typed reads over one level of arbitrary (unvalidated) items: must fail cleanly or agree.
void typed_walk(BytesView in) {
    Decoder d(in);
    for (int i = 0; i < 64 && !d.empty(); ++i) {
        Decoder probe = d;
        auto item = probe.next();
        if (!item) {
            check(!d.next_string() && !d.next_list() && !d.next_uint<std::uint64_t>());
            check(d.offset() == item.error().offset);  // failed reads do not move
            return;
        }
        if (auto u = Decoder(d).next_uint<std::uint64_t>(); u) {
            Encoder e;
            e.add_uint(*u);
            check(e.size() == item->size() &&
                  std::memcmp(e.view().data(), item->encoded().data(), e.size()) == 0);
        }
        if (auto f = Decoder(d).next_fixed<32>(); f) check(item->payload.size() == 32);
        if (auto l = Decoder(d).next_list(); l) {
            check(item->is_list);
            (void)l->count();
        }
        check(d.next().has_value());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const BytesView in(data, size);
    auto v = keel::rlp::validate(in);
    auto single = keel::rlp::decode_single(in);
    if (v) {
        check(single.has_value());
        Encoder known, marked;
        reencode(*single, known, marked);
        check(known.size() == size && marked.size() == size);
        check(size == 0 || (std::memcmp(known.view().data(), data, size) == 0 &&
                            std::memcmp(marked.view().data(), data, size) == 0));
    } else {
        check(v.error().offset <= size);
    }
    typed_walk(in);
    if (single && single->is_list) typed_walk(single->payload);
    return 0;
}
