// The KZG work a node does for a blob transaction (keel/kzg), on one core:
//   BM_KzgComputeCells               a blob extended to its 128 cells (IFFT 4096 + FFT 8192)
//   BM_KzgVerifyCellProofs/<blobs>   the pool's check of a version-1 sidecar: compute_cells of
//                                    each blob, then verify_cell_kzg_proof_batch of all cells
//   BM_KzgVerifyBlobProofs/<blobs>   the pool's check of a version-0 sidecar
//                                    (verify_blob_kzg_proof_batch)
//   BM_KzgBlobToCommitment/<full>    a commitment (an MSM of 4,096 points) of the reference
//                                    blob (0, small elements) or a full-width one (1)
//   BM_KzgComputeCellsAndProofs      a full-width blob's cells and 128 cell proofs (FK20; its
//                                    setup table built before timing)
//   BM_KzgRecoverCellsAndProofs      the same from the upper half of its cells
// The cell proofs are a reference case's (vectors/kzg verify_cell_kzg_proof_batch valid_0: one
// blob's 128 cells); <blobs> copies of it stand for a transaction of that many blobs. The blob
// proofs are computed once before timing.
#include <benchmark/benchmark.h>

#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/parallel.hpp"
#include "keel/kzg/kzg.hpp"
#include "keel/kzg/reference_yaml.hpp"
#include "keel/kzg/setup.hpp"
#include "test/testutil/vectors.hpp"

namespace {

using namespace keel;

Bytes decoded(const std::string& hex_text) {
    auto b = hex::decode(hex_text);
    KEEL_ASSERT(b.has_value());
    return std::move(*b);
}

struct CellCase {
    Bytes blob;  // the cells' blob: the first 64 cells are the blob itself
    Bytes commitment;
    std::vector<Bytes> proofs;
};

const CellCase& cell_case() {
    static const CellCase c = [] {
        const auto doc = kzg::testing::read_yaml(
            testutil::vectors_dir("kzg") / "verify_cell_kzg_proof_batch" / "kzg-mainnet" /
            "verify_cell_kzg_proof_batch_case_valid_0" / "data.yaml");
        const auto& in = doc["input"];
        CellCase out;
        out.commitment = decoded(in["commitments"].items.at(0).scalar);
        for (std::size_t i = 0; i < 64; ++i) {
            const Bytes cell = decoded(in["cells"].items.at(i).scalar);
            out.blob.insert(out.blob.end(), cell.begin(), cell.end());
        }
        for (const auto& p : in["proofs"].items) out.proofs.push_back(decoded(p.scalar));
        KEEL_ASSERT(out.proofs.size() == kzg::kCellsPerBlob);
        return out;
    }();
    return c;
}

// A blob of full-width field elements (31 pseudo-random bytes under a zero byte each, so below
// r): what a rollup's compressed data looks like to an MSM. The reference case's blob above has
// small elements, which make a multi-scalar multiplication look many times cheaper than it is.
const Bytes& full_blob() {
    static const Bytes b = [] {
        Bytes out(kzg::kBytesPerBlob, 0);
        std::uint64_t x = 0x9e3779b97f4a7c15ULL;
        for (std::size_t i = 0; i < out.size(); ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if (i % 32 != 0) out[i] = static_cast<std::uint8_t>(x);
        }
        return out;
    }();
    return b;
}

void BM_KzgComputeCells(benchmark::State& state) {
    const parallel::ThreadLimit one_core(1);
    const Bytes& blob = cell_case().blob;
    for (auto _ : state) benchmark::DoNotOptimize(kzg::compute_cells(blob));
}
BENCHMARK(BM_KzgComputeCells)->Unit(benchmark::kMillisecond);

void BM_KzgComputeCellsAndProofs(benchmark::State& state) {
    const parallel::ThreadLimit one_core(1);
    const auto first = kzg::compute_cells_and_kzg_proofs(full_blob());  // tables built
    KEEL_ASSERT(first.has_value());
    for (auto _ : state) benchmark::DoNotOptimize(kzg::compute_cells_and_kzg_proofs(full_blob()));
    // The first bytes of proofs 0 and 127, for bench/side_by_side_kzg.sh to compare with the peer.
    state.SetLabel(hex::encode(first->proofs[0].view().first(8)) + "/" +
                   hex::encode(first->proofs[127].view().first(8)));
}
BENCHMARK(BM_KzgComputeCellsAndProofs)->Unit(benchmark::kMillisecond);

void BM_KzgRecoverCellsAndProofs(benchmark::State& state) {
    const parallel::ThreadLimit one_core(1);
    const auto all = kzg::compute_cells_and_kzg_proofs(full_blob());
    KEEL_ASSERT(all.has_value());
    std::vector<std::uint64_t> indices;
    std::vector<BytesView> cells;
    for (std::uint64_t k = kzg::kCellsPerBlob / 2; k < kzg::kCellsPerBlob; ++k) {
        indices.push_back(k);
        cells.emplace_back(all->cells.data() + k * kzg::kBytesPerCell, kzg::kBytesPerCell);
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(kzg::recover_cells_and_kzg_proofs(indices, cells));
}
BENCHMARK(BM_KzgRecoverCellsAndProofs)->Unit(benchmark::kMillisecond);

void BM_KzgVerifyCellProofs(benchmark::State& state) {
    const parallel::ThreadLimit one_core(1);
    const CellCase& c = cell_case();
    const auto blobs = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        std::vector<Bytes> cells;
        std::vector<BytesView> cs, views, ps;
        std::vector<std::uint64_t> indices;
        for (std::size_t b = 0; b < blobs; ++b) cells.push_back(kzg::compute_cells(c.blob).value());
        for (std::size_t b = 0; b < blobs; ++b) {
            for (std::size_t k = 0; k < kzg::kCellsPerBlob; ++k) {
                cs.push_back(c.commitment);
                views.push_back(
                    BytesView(cells[b].data() + k * kzg::kBytesPerCell, kzg::kBytesPerCell));
                ps.push_back(c.proofs[k]);
                indices.push_back(k);
            }
        }
        const auto ok = kzg::verify_cell_kzg_proof_batch(cs, indices, views, ps);
        KEEL_ASSERT(ok.has_value() && *ok);
    }
    state.counters["blobs/s"] = benchmark::Counter(static_cast<double>(blobs),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_KzgVerifyCellProofs)->Arg(1)->Arg(6)->Unit(benchmark::kMillisecond);

void BM_KzgVerifyBlobProofs(benchmark::State& state) {
    const parallel::ThreadLimit one_core(1);
    const auto n = static_cast<std::size_t>(state.range(0));
    std::vector<Bytes> blobs, commitments, proofs;
    for (std::size_t i = 0; i < n; ++i) {
        Bytes blob = cell_case().blob;
        blob[31] = static_cast<std::uint8_t>(i);  // distinct blobs
        const auto c = kzg::blob_to_kzg_commitment(blob).value();
        const auto p = kzg::compute_blob_kzg_proof(blob, c.view()).value();
        blobs.push_back(std::move(blob));
        commitments.emplace_back(c.data(), c.data() + 48);
        proofs.emplace_back(p.data(), p.data() + 48);
    }
    const std::vector<BytesView> b(blobs.begin(), blobs.end()),
        c(commitments.begin(), commitments.end()), p(proofs.begin(), proofs.end());
    for (auto _ : state) {
        const auto ok = kzg::verify_blob_kzg_proof_batch(b, c, p);
        KEEL_ASSERT(ok.has_value() && *ok);
    }
    state.counters["blobs/s"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_KzgVerifyBlobProofs)->Arg(1)->Arg(6)->Unit(benchmark::kMillisecond);

void BM_KzgBlobToCommitment(benchmark::State& state) {
    const parallel::ThreadLimit one_core(1);
    const Bytes& blob = state.range(0) == 0 ? cell_case().blob : full_blob();
    for (auto _ : state) benchmark::DoNotOptimize(kzg::blob_to_kzg_commitment(blob));
}
// 0: the reference case's blob (small elements); 1: full-width elements.
BENCHMARK(BM_KzgBlobToCommitment)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
