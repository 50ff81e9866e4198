// The blob and cell functions against every consensus-spec reference case here
// (../shared/vectors/kzg, SOURCES.md there): blob_to_kzg_commitment, compute_kzg_proof,
// compute_challenge, compute_blob_kzg_proof, verify_blob_kzg_proof(_batch), compute_cells,
// compute_cells_and_kzg_proofs, compute_verify_cell_kzg_proof_batch_challenge,
// verify_cell_kzg_proof_batch and recover_cells_and_kzg_proofs. `output: null` cases must fail
// with an Error (or carry an input no 0x-hex decoding accepts). The embedded setup is checked
// against the file; FK20's proofs against the spec's division, cell by cell.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "keel/common/hex.hpp"
#include "keel/kzg/cell_proofs.hpp"
#include "keel/kzg/domain.hpp"
#include "keel/kzg/field_and_points.hpp"
#include "keel/kzg/kzg.hpp"
#include "keel/kzg/reference_yaml.hpp"
#include "keel/kzg/setup.hpp"
#include "test/testutil/vectors.hpp"

namespace keel::kzg::blob_cells_test {
namespace {

namespace fs = std::filesystem;
using testing::read_yaml;
using testing::YamlNode;

std::vector<fs::path> cases(const std::string& function) {
    std::vector<fs::path> out;
    for (const auto& e :
         fs::directory_iterator(testutil::vectors_dir("kzg") / function / "kzg-mainnet"))
        out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<Bytes> bytes_of(const YamlNode& n) {
    auto b = hex::decode(n.scalar);
    if (!b) return std::nullopt;
    return std::move(*b);
}

// Every item of a list decoded; nullopt when one is not hex.
std::optional<std::vector<Bytes>> bytes_list(const YamlNode& n) {
    std::vector<Bytes> out;
    for (const auto& item : n.items) {
        auto b = bytes_of(item);
        if (!b) return std::nullopt;
        out.push_back(std::move(*b));
    }
    return out;
}

std::vector<BytesView> views(const std::vector<Bytes>& v) {
    return {v.begin(), v.end()};
}

std::vector<std::uint64_t> u64_list(const YamlNode& n) {
    std::vector<std::uint64_t> out;
    for (const auto& item : n.items) out.push_back(std::stoull(item.scalar));
    return out;
}

std::string hex0x(BytesView b) {
    return "0x" + hex::encode(b);
}

// The cells and proofs of a [cells, proofs] output, compared item by item.
void expect_cells_and_proofs(const CellsAndProofs& got, const YamlNode& out) {
    ASSERT_EQ(out.items.size(), 2u);  // [cells, proofs]
    ASSERT_EQ(out.items[0].items.size(), kCellsPerBlob);
    ASSERT_EQ(out.items[1].items.size(), kCellsPerBlob);
    for (std::size_t i = 0; i < kCellsPerBlob; ++i) {
        ASSERT_EQ(hex0x(BytesView(got.cells.data() + i * kBytesPerCell, kBytesPerCell)),
                  out.items[0].items[i].scalar)
            << "cell " << i;
        ASSERT_EQ(hex0x(got.proofs[i].view()), out.items[1].items[i].scalar) << "proof " << i;
    }
}

// Runs `check` over each case of `function` (at least `min_cases` of them must be there).
template <class Check>
void run_cases(const std::string& function, std::size_t min_cases, Check check) {
    std::size_t n = 0;
    for (const auto& dir : cases(function)) {
        SCOPED_TRACE(dir.filename().string());
        const YamlNode doc = read_yaml(dir / "data.yaml");
        const bool want_null = doc["output"].is_null();
        check(doc["input"], doc["output"], want_null);
        ++n;
    }
    EXPECT_GE(n, min_cases) << function;  // a runner that finds no cases must fail
}

TEST(KzgReference, BlobToKzgCommitment) {
    run_cases("blob_to_kzg_commitment", 5, [](const YamlNode& in, const YamlNode& out, bool null) {
        const auto blob = bytes_of(in["blob"]);
        if (!blob) {
            EXPECT_TRUE(null);
            return;
        }
        const auto r = blob_to_kzg_commitment(*blob);
        if (null) {
            EXPECT_FALSE(r.has_value());
            return;
        }
        ASSERT_TRUE(r.has_value()) << describe(r.error().code);
        EXPECT_EQ(hex0x(r->view()), out.scalar);
    });
}

TEST(KzgReference, ComputeKzgProof) {
    run_cases("compute_kzg_proof", 6, [](const YamlNode& in, const YamlNode& out, bool null) {
        const auto blob = bytes_of(in["blob"]);
        const auto z = bytes_of(in["z"]);
        if (!blob || !z || z->size() != 32) {
            EXPECT_TRUE(null);
            return;
        }
        const auto r = compute_kzg_proof(*blob, *Bytes32::from(*z));
        if (null) {
            EXPECT_FALSE(r.has_value());
            return;
        }
        ASSERT_TRUE(r.has_value()) << describe(r.error().code);
        ASSERT_EQ(out.items.size(), 2u);
        EXPECT_EQ(hex0x(r->first.view()), out.items[0].scalar);
        EXPECT_EQ(hex0x(r->second.view()), out.items[1].scalar);
    });
}

TEST(KzgReference, ComputeChallenge) {
    run_cases("compute_challenge", 3, [](const YamlNode& in, const YamlNode& out, bool null) {
        const auto blob = bytes_of(in["blob"]);
        const auto c = bytes_of(in["commitment"]);
        if (!blob || !c) {
            EXPECT_TRUE(null);
            return;
        }
        const auto r = compute_challenge(*blob, *c);
        if (null) {
            EXPECT_FALSE(r.has_value());
            return;
        }
        ASSERT_TRUE(r.has_value()) << describe(r.error().code);
        EXPECT_EQ(hex0x(r->view()), out.scalar);
    });
}

TEST(KzgReference, ComputeBlobKzgProof) {
    run_cases("compute_blob_kzg_proof", 6, [](const YamlNode& in, const YamlNode& out, bool null) {
        const auto blob = bytes_of(in["blob"]);
        const auto c = bytes_of(in["commitment"]);
        if (!blob || !c) {
            EXPECT_TRUE(null);
            return;
        }
        const auto r = compute_blob_kzg_proof(*blob, *c);
        if (null) {
            EXPECT_FALSE(r.has_value());
            return;
        }
        ASSERT_TRUE(r.has_value()) << describe(r.error().code);
        EXPECT_EQ(hex0x(r->view()), out.scalar);
    });
}

TEST(KzgReference, VerifyBlobKzgProof) {
    std::size_t valid = 0;
    run_cases("verify_blob_kzg_proof", 20, [&](const YamlNode& in, const YamlNode& out, bool null) {
        const auto blob = bytes_of(in["blob"]);
        const auto c = bytes_of(in["commitment"]);
        const auto p = bytes_of(in["proof"]);
        if (!blob || !c || !p) {
            EXPECT_TRUE(null);
            return;
        }
        const auto r = verify_blob_kzg_proof(*blob, *c, *p);
        if (null) {
            EXPECT_FALSE(r.has_value());
            return;
        }
        ASSERT_TRUE(r.has_value()) << describe(r.error().code);
        EXPECT_EQ(*r, out.scalar == "true");
        valid += *r ? 1 : 0;
    });
    EXPECT_GT(valid, 0u);
}

TEST(KzgReference, VerifyBlobKzgProofBatch) {
    run_cases("verify_blob_kzg_proof_batch", 5,
              [](const YamlNode& in, const YamlNode& out, bool null) {
                  const auto blobs = bytes_list(in["blobs"]);
                  const auto cs = bytes_list(in["commitments"]);
                  const auto ps = bytes_list(in["proofs"]);
                  if (!blobs || !cs || !ps) {
                      EXPECT_TRUE(null);
                      return;
                  }
                  const auto r = verify_blob_kzg_proof_batch(views(*blobs), views(*cs), views(*ps));
                  if (null) {
                      EXPECT_FALSE(r.has_value());
                      return;
                  }
                  ASSERT_TRUE(r.has_value()) << describe(r.error().code);
                  EXPECT_EQ(*r, out.scalar == "true");
              });
}

TEST(KzgReference, ComputeCells) {
    run_cases("compute_cells", 2, [](const YamlNode& in, const YamlNode& out, bool null) {
        const auto blob = bytes_of(in["blob"]);
        if (!blob) {
            EXPECT_TRUE(null);
            return;
        }
        const auto r = compute_cells(*blob);
        if (null) {
            EXPECT_FALSE(r.has_value());
            return;
        }
        ASSERT_TRUE(r.has_value()) << describe(r.error().code);
        ASSERT_EQ(out.items.size(), kCellsPerBlob);
        for (std::size_t i = 0; i < kCellsPerBlob; ++i)
            ASSERT_EQ(hex0x(BytesView(r->data() + i * kBytesPerCell, kBytesPerCell)),
                      out.items[i].scalar)
                << "cell " << i;
    });
}

TEST(KzgReference, ComputeCellsAndKzgProofs) {
    run_cases("compute_cells_and_kzg_proofs", 2,
              [](const YamlNode& in, const YamlNode& out, bool null) {
                  const auto blob = bytes_of(in["blob"]);
                  if (!blob) {
                      EXPECT_TRUE(null);
                      return;
                  }
                  const auto r = compute_cells_and_kzg_proofs(*blob);
                  if (null) {
                      EXPECT_FALSE(r.has_value());
                      return;
                  }
                  ASSERT_TRUE(r.has_value()) << describe(r.error().code);
                  expect_cells_and_proofs(*r, out);
              });
}

TEST(KzgReference, RecoverCellsAndKzgProofs) {
    std::size_t valid = 0;
    run_cases("recover_cells_and_kzg_proofs", 6,
              [&](const YamlNode& in, const YamlNode& out, bool null) {
                  const auto cells = bytes_list(in["cells"]);
                  if (!cells) {
                      EXPECT_TRUE(null);
                      return;
                  }
                  const auto r =
                      recover_cells_and_kzg_proofs(u64_list(in["cell_indices"]), views(*cells));
                  if (null) {
                      EXPECT_FALSE(r.has_value());
                      return;
                  }
                  ASSERT_TRUE(r.has_value()) << describe(r.error().code);
                  expect_cells_and_proofs(*r, out);
                  ++valid;
              });
    EXPECT_GT(valid, 0u);
}

TEST(KzgReference, ComputeVerifyCellKzgProofBatchChallenge) {
    run_cases("compute_verify_cell_kzg_proof_batch_challenge", 10,
              [](const YamlNode& in, const YamlNode& out, bool null) {
                  const auto cs = bytes_list(in["commitments"]);
                  const auto ps = bytes_list(in["proofs"]);
                  // Each cell's evaluations (a list of field elements) joined into the cell's
                  // bytes.
                  std::vector<Bytes> cells;
                  for (const auto& evals : in["cosets_evals"].items) {
                      Bytes cell;
                      for (const auto& e : evals.items) {
                          const auto b = bytes_of(e);
                          ASSERT_TRUE(b.has_value());
                          cell.insert(cell.end(), b->begin(), b->end());
                      }
                      cells.push_back(std::move(cell));
                  }
                  ASSERT_TRUE(cs && ps);
                  const auto r = compute_verify_cell_kzg_proof_batch_challenge(
                      views(*cs), u64_list(in["commitment_indices"]), u64_list(in["cell_indices"]),
                      views(cells), views(*ps));
                  if (null) {
                      EXPECT_FALSE(r.has_value());
                      return;
                  }
                  ASSERT_TRUE(r.has_value()) << describe(r.error().code);
                  EXPECT_EQ(hex0x(r->view()), out.scalar);
              });
}

TEST(KzgReference, VerifyCellKzgProofBatch) {
    std::size_t valid = 0, invalid = 0;
    run_cases("verify_cell_kzg_proof_batch", 25,
              [&](const YamlNode& in, const YamlNode& out, bool null) {
                  const auto cs = bytes_list(in["commitments"]);
                  const auto cells = bytes_list(in["cells"]);
                  const auto ps = bytes_list(in["proofs"]);
                  if (!cs || !cells || !ps) {
                      EXPECT_TRUE(null);
                      return;
                  }
                  const auto r = verify_cell_kzg_proof_batch(
                      views(*cs), u64_list(in["cell_indices"]), views(*cells), views(*ps));
                  if (null) {
                      EXPECT_FALSE(r.has_value());
                      return;
                  }
                  ASSERT_TRUE(r.has_value()) << describe(r.error().code);
                  EXPECT_EQ(*r, out.scalar == "true");
                  (*r ? valid : invalid) += 1;
              });
    EXPECT_GT(valid, 0u);
    EXPECT_GT(invalid, 0u);
}

TEST(KzgSetup, EmbeddedSetupIsTheReferenceFile) {
    std::ifstream in(testutil::vectors_dir("kzg") / "trusted_setup.txt");
    std::vector<std::string> want;
    for (std::string line; std::getline(in, line);) want.push_back(line);
    const auto embedded = setup::text_lines();
    ASSERT_EQ(embedded.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(embedded[i], want[i]) << "line " << i + 1;
    ASSERT_EQ(setup::g2_monomial().size(), 65u);
    EXPECT_EQ(setup::g1_lagrange_brp().size(), 4096u);
}

TEST(KzgCells, TheExtensionIsSystematic) {
    // The first half of the extended evaluations, in bit-reversed order, are the blob's own.
    Bytes blob(kBytesPerBlob);
    for (std::size_t i = 0; i < blob.size(); ++i) blob[i] = static_cast<std::uint8_t>(i * 131 + 7);
    for (std::size_t i = 0; i < blob.size(); i += 32) blob[i] &= 0x3f;
    const auto cells = compute_cells(blob);
    ASSERT_TRUE(cells.has_value());
    EXPECT_TRUE(std::equal(blob.begin(), blob.end(), cells->begin()));
    EXPECT_FALSE(std::equal(blob.begin(), blob.end(), cells->begin() + kBytesPerBlob));
}

// A blob of full-width field elements (not the small ones a pattern of bytes gives).
Bytes random_blob(std::uint64_t seed) {
    Bytes blob(kBytesPerBlob);
    std::uint64_t x = seed;
    for (auto& b : blob) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        b = static_cast<std::uint8_t>(x >> 56);
    }
    for (std::size_t i = 0; i < blob.size(); i += 32) blob[i] &= 0x72;  // below r's 0x73
    return blob;
}

TEST(KzgCells, Fk20ProofsAreTheSpecsDivisionProofs) {
    // FK20 computes every proof at once; the spec divides per cell. Cells at both ends and a
    // few between (each division is a 4,032-point multi-scalar multiplication).
    const Bytes blob = random_blob(1);
    const auto all = compute_cells_and_kzg_proofs(blob);
    ASSERT_TRUE(all.has_value());
    std::vector<Fr> coeffs(kFieldElementsPerBlob);
    std::size_t bad = 0;
    ASSERT_TRUE(detail::field_elements(blob, coeffs, &bad));
    bit_reverse(coeffs);
    fft(coeffs, /*inverse=*/true);
    for (const std::size_t k : {0, 1, 64, 93, 127}) {
        const auto p = detail::cell_proof_by_division(coeffs, k).to_affine_vartime();
        EXPECT_EQ(hex0x(detail::compressed(p).view()), hex0x(all->proofs[k].view())) << k;
    }
    // And the proofs verify, six cells at once.
    const auto commitment = blob_to_kzg_commitment(blob);
    ASSERT_TRUE(commitment.has_value());
    const std::vector<std::uint64_t> indices{0, 5, 64, 100, 126, 127};
    std::vector<BytesView> cs, cells, ps;
    for (const auto k : indices) {
        cs.push_back(commitment->view());
        cells.push_back(BytesView(all->cells.data() + k * kBytesPerCell, kBytesPerCell));
        ps.push_back(all->proofs[k].view());
    }
    EXPECT_EQ(verify_cell_kzg_proof_batch(cs, indices, cells, ps), true);
}

TEST(KzgCells, RecoveryFromAnyHalfGivesEverything) {
    const Bytes blob = random_blob(2);
    const auto all = compute_cells_and_kzg_proofs(blob);
    ASSERT_TRUE(all.has_value());
    const auto cell = [&](std::uint64_t k) {
        return BytesView(all->cells.data() + k * kBytesPerCell, kBytesPerCell);
    };
    // The upper half only (the blob's own cells all missing), a scattered half, all of them.
    std::vector<std::vector<std::uint64_t>> sets(3);
    for (std::uint64_t k = 64; k < 128; ++k) sets[0].push_back(k);
    for (std::uint64_t k = 0; k < 128; ++k)
        if ((k * 37 + 11) % 128 < 64) sets[1].push_back(k);
    for (std::uint64_t k = 0; k < 128; ++k) sets[2].push_back(k);
    for (const auto& indices : sets) {
        std::vector<BytesView> cells;
        for (const auto k : indices) cells.push_back(cell(k));
        const auto r = recover_cells_and_kzg_proofs(indices, cells);
        ASSERT_TRUE(r.has_value()) << describe(r.error().code);
        EXPECT_EQ(r->cells, all->cells) << indices.size() << " from " << indices.front();
        EXPECT_EQ(r->proofs, all->proofs);
    }
}

TEST(KzgErrors, RecoveryRefusesWhatTheSpecRefuses) {
    const Bytes zero(kBytesPerCell, 0);
    std::vector<std::uint64_t> indices;
    std::vector<BytesView> cells;
    for (std::uint64_t k = 0; k < 64; ++k) {
        indices.push_back(k * 2);
        cells.push_back(zero);
    }
    ASSERT_TRUE(recover_cells_and_kzg_proofs(indices, cells).has_value());  // the zero blob
    EXPECT_EQ(recover_cells_and_kzg_proofs(indices, std::span(cells).first(63)).error().code,
              Errc::length_mismatch);
    EXPECT_EQ(recover_cells_and_kzg_proofs(std::span(indices).first(63), std::span(cells).first(63))
                  .error()
                  .code,
              Errc::wrong_cell_count);
    auto swapped = indices;
    std::swap(swapped[10], swapped[11]);
    EXPECT_EQ(recover_cells_and_kzg_proofs(swapped, cells).error(),
              (Error{Errc::cell_indices_not_ascending, 11}));
    auto repeated = indices;
    repeated[11] = repeated[10];
    EXPECT_EQ(recover_cells_and_kzg_proofs(repeated, cells).error(),
              (Error{Errc::cell_indices_not_ascending, 11}));
    auto past = indices;
    past[63] = 128;
    EXPECT_EQ(recover_cells_and_kzg_proofs(past, cells).error(), (Error{Errc::bad_cell_index, 63}));
    Bytes not_field = zero;
    std::fill(not_field.begin(), not_field.begin() + 32, 0xff);
    auto with_bad = cells;
    with_bad[7] = not_field;
    EXPECT_EQ(recover_cells_and_kzg_proofs(indices, with_bad).error(), (Error{Errc::bad_cell, 7}));
    with_bad[7] = BytesView(zero).first(100);
    EXPECT_EQ(recover_cells_and_kzg_proofs(indices, with_bad).error(), (Error{Errc::bad_cell, 7}));
}

TEST(KzgErrors, NameTheItemAtFault) {
    const Bytes blob(kBytesPerBlob, 0);
    Bytes inf(48, 0);
    inf[0] = 0xc0;
    Bytes bad_blob = blob;
    std::fill(bad_blob.begin() + 64, bad_blob.begin() + 96, 0xff);  // element 2 >= r
    EXPECT_EQ(blob_to_kzg_commitment(bad_blob).error(), (Error{Errc::bad_blob, 64}));
    EXPECT_EQ(blob_to_kzg_commitment(Bytes(100, 0)).error().code, Errc::bad_blob);
    const std::vector<BytesView> blobs{blob, bad_blob}, cs{inf, inf}, ps{inf, inf};
    EXPECT_EQ(verify_blob_kzg_proof_batch(blobs, cs, ps).error(), (Error{Errc::bad_blob, 1}));
    EXPECT_EQ(verify_blob_kzg_proof_batch(blobs, std::span(cs).first(1), ps).error().code,
              Errc::length_mismatch);
    const Bytes cell(kBytesPerCell, 0);
    const std::vector<BytesView> one_c{inf}, one_cell{cell}, one_p{inf};
    const std::vector<std::uint64_t> index{128};
    EXPECT_EQ(verify_cell_kzg_proof_batch(one_c, index, one_cell, one_p).error(),
              (Error{Errc::bad_cell_index, 0}));
    // The zero blob: commitment and every proof at infinity, its cells all zero.
    const std::vector<std::uint64_t> zero{5};
    EXPECT_EQ(verify_cell_kzg_proof_batch(one_c, zero, one_cell, one_p), true);
    EXPECT_EQ(verify_blob_kzg_proof(blob, inf, inf), true);
}

}  // namespace
}  // namespace keel::kzg::blob_cells_test
