// KZG on arbitrary bytes: blobs, cells, commitments, proofs and cell indices cut from the input
// (field elements masked below r or left raw, points raw or at infinity).
// Properties:
//   - no input crashes, reads out of bounds or hangs; every refusal is an Error;
//   - the same call twice gives the same answer (the Fiat-Shamir challenges are deterministic);
//   - compute_cells extends a blob systematically: the first 64 cells are the blob itself;
//   - recover_cells_and_kzg_proofs (indices made ascending, 62 to 66 of them, so that both its
//     refusals and its work are reached) returns the extension of a blob: its first 64 cells,
//     extended again, are all of its cells.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "keel/kzg/kzg.hpp"

namespace {

using namespace keel;

void check(bool ok) {
    if (!ok) std::abort();
}

// `size` bytes cycled from `in`; with `canonical`, each 32-byte element's top byte masked
// below r's (0x73) so that every element is a field element.
Bytes cycled(keel::BytesView in, std::size_t size, bool canonical) {
    Bytes out(size, 0);
    if (!in.empty())
        for (std::size_t i = 0; i < size; ++i) out[i] = in[i % in.size()];
    if (canonical)
        for (std::size_t i = 0; i < size; i += 32) out[i] &= 0x3f;
    return out;
}

Bytes point(keel::BytesView in, std::size_t at, bool infinity) {
    Bytes p(48, 0);
    if (infinity) {
        p[0] = 0xc0;
        return p;
    }
    for (std::size_t i = 0; i < 48 && !in.empty(); ++i) p[i] = in[(at + i) % in.size()];
    return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 3) return 0;
    const std::uint8_t mode = data[0], flags = data[1];
    const BytesView rest(data + 2, size - 2);
    const bool canonical = flags & 1, infinity = flags & 2;
    if (mode % 4 == 3) {
        const std::size_t n = 62 + (flags >> 2) % 5;
        std::vector<std::uint64_t> indices;
        std::vector<Bytes> cells;
        std::uint64_t at = 0;
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint8_t b = rest[k % rest.size()];
            at += b == 0 ? 0 : 1 + b % 2;  // steps of 1 or 2; a zero byte repeats an index
            indices.push_back(at - 1);     // may pass 127
            cells.push_back(
                cycled(rest.subspan(std::min(k, rest.size())), kzg::kBytesPerCell, canonical));
        }
        const std::vector<BytesView> views(cells.begin(), cells.end());
        const auto r = kzg::recover_cells_and_kzg_proofs(indices, views);
        if (!r) return 0;
        check(r->cells.size() == kzg::kCellsPerBlob * kzg::kBytesPerCell);
        check(r->proofs.size() == kzg::kCellsPerBlob);
        const auto again = kzg::compute_cells(BytesView(r->cells).first(kzg::kBytesPerBlob));
        check(again.has_value() && *again == r->cells);
    } else if (mode % 3 == 0) {
        const std::size_t n = (flags >> 2) % 4;
        std::vector<Bytes> cells, commitments, proofs;
        std::vector<std::uint64_t> indices;
        for (std::size_t k = 0; k < n; ++k) {
            cells.push_back(
                cycled(rest.subspan(std::min(k, rest.size())), kzg::kBytesPerCell, canonical));
            commitments.push_back(point(rest, 7 * k, infinity));
            proofs.push_back(point(rest, 11 * k + 3, infinity));
            indices.push_back(rest[k % rest.size()]);  // 128..255 are out of range
        }
        const std::vector<BytesView> c(commitments.begin(), commitments.end()),
            ce(cells.begin(), cells.end()), p(proofs.begin(), proofs.end());
        const auto a = kzg::verify_cell_kzg_proof_batch(c, indices, ce, p);
        const auto b = kzg::verify_cell_kzg_proof_batch(c, indices, ce, p);
        check(a == b);
    } else if (mode % 3 == 1) {
        const Bytes blob = cycled(rest, kzg::kBytesPerBlob, canonical);
        const Bytes c = point(rest, 5, infinity), p = point(rest, 17, infinity);
        const auto a = kzg::verify_blob_kzg_proof(blob, c, p);
        check(a == kzg::verify_blob_kzg_proof(blob, c, p));
    } else {
        const Bytes blob = cycled(rest, kzg::kBytesPerBlob, canonical);
        const auto cells = kzg::compute_cells(blob);
        check(cells.has_value() || !canonical);
        if (cells) check(std::equal(blob.begin(), blob.end(), cells->begin()));
    }
    return 0;
}
