// keel kzg ...: the KZG commitments of EIP-4844 and the cells of EIP-7594 (keel/kzg, the mainnet
// trusted setup embedded) from the command line: what a blob transaction's sidecar holds and
// what a node checks of it.
//
//   keel kzg commit BLOB                   the 48-byte commitment
//   keel kzg versioned-hash COMMITMENT     the 32-byte versioned hash (0x01 ‖ sha256[1:])
//   keel kzg proof BLOB [COMMITMENT]       the blob's proof (version-0 sidecars)
//   keel kzg verify-blob BLOB COMMITMENT PROOF          valid (exit 0) or invalid (exit 1)
//   keel kzg cells BLOB [--proofs]         {"cells": [...128], "proofs": [...128]} (FK20)
//   keel kzg recover FILE                  {"cell_indices", "cells"} (half or more) -> all cells
//                                          and proofs, as `cells --proofs` prints them
//   keel kzg verify-cells FILE             {"commitments", "cell_indices", "cells", "proofs"}:
//                                          valid or invalid (version-1 sidecars)
//
// BLOB, COMMITMENT and PROOF are hex, @file (raw bytes) or - (standard input, one argument);
// FILE is a JSON file or - . Bad data (a wrong length, a field element >= r, a point off the
// curve or outside G1, a cell index past 127) is one line naming the argument or the list item
// and the rule, exit 1.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/common/hex.hpp"
#include "keel/kzg/kzg.hpp"

namespace keel::cli {
namespace {

/// Reads a data argument of a fixed size.
Bytes read_sized(const std::string& arg, std::string_view where, std::size_t size) {
    Bytes b = read_data_arg(arg, where, size + 1);
    if (b.size() != size)
        throw Failure{kExitBadData, fmt::format("{}: {} bytes, want {}", where, b.size(), size)};
    return b;
}

Bytes read_blob(const std::string& arg, std::string_view cmd) {
    return read_sized(arg, fmt::format("kzg {}: blob", cmd), kzg::kBytesPerBlob);
}

/// The one line for a refusal: the blob's element at fault, or the list item (`items` names
/// what the list functions' offsets count).
[[noreturn]] void fail_kzg(std::string_view cmd, const kzg::Error& e, std::string_view items) {
    std::string where;
    if (e.code == kzg::Errc::bad_blob)
        where = fmt::format(" (field element {})", e.offset / 32);
    else if (!items.empty() && e.code != kzg::Errc::length_mismatch &&
             e.code != kzg::Errc::wrong_cell_count)
        where = fmt::format(" ({} {})", items, e.offset);
    throw Failure{kExitBadData, fmt::format("kzg {}: {}{}", cmd, kzg::describe(e.code), where)};
}

void print_cells(const Bytes& cells, const std::vector<kzg::G1Bytes>* proofs) {
    nlohmann::json out;
    out["cells"] = nlohmann::json::array();
    for (std::size_t i = 0; i < kzg::kCellsPerBlob; ++i)
        out["cells"].push_back(hex::encode_prefixed(
            BytesView(cells.data() + i * kzg::kBytesPerCell, kzg::kBytesPerCell)));
    if (proofs != nullptr) {
        out["proofs"] = nlohmann::json::array();
        for (const auto& p : *proofs) out["proofs"].push_back(hex::encode_prefixed(p.view()));
    }
    std::printf("%s\n", out.dump().c_str());
}

/// The JSON object of a FILE argument.
nlohmann::json read_object(const std::string& file, std::string_view cmd) {
    const std::string text =
        read_text_arg(file == "-" ? file : "@" + file, fmt::format("kzg {}", cmd));
    nlohmann::json doc = parse_json(text, fmt::format("kzg {}: {}", cmd, file));
    if (!doc.is_object())
        throw Failure{kExitBadData, fmt::format("kzg {}: {}: want a JSON object", cmd, file)};
    return doc;
}

/// The list `key` of `doc`: hex strings decoded.
std::vector<Bytes> hex_list(const nlohmann::json& doc, const char* key, std::string_view cmd) {
    auto it = doc.find(key);
    if (it == doc.end() || !it->is_array())
        throw Failure{kExitBadData,
                      fmt::format("kzg {}: {}: want a list of hex strings", cmd, key)};
    std::vector<Bytes> out;
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto& item = (*it)[i];
        if (!item.is_string())
            throw Failure{kExitBadData,
                          fmt::format("kzg {}: {} {}: want a hex string", cmd, key, i)};
        auto b = hex::decode(item.get_ref<const std::string&>());
        if (!b)
            throw Failure{kExitBadData,
                          fmt::format("kzg {}: {} {}: {}", cmd, key, i, to_string(b.error()))};
        out.push_back(std::move(*b));
    }
    return out;
}

/// The list "cell_indices" of `doc`: whole numbers.
std::vector<std::uint64_t> index_list(const nlohmann::json& doc, std::string_view cmd) {
    auto it = doc.find("cell_indices");
    if (it == doc.end() || !it->is_array())
        throw Failure{kExitBadData,
                      fmt::format("kzg {}: cell_indices: want a list of numbers", cmd)};
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < it->size(); ++i) {
        const auto& item = (*it)[i];
        if (!item.is_number_unsigned())
            throw Failure{kExitBadData,
                          fmt::format("kzg {}: cell_indices {}: want a whole number", cmd, i)};
        out.push_back(item.get<std::uint64_t>());
    }
    return out;
}

std::vector<BytesView> views(const std::vector<Bytes>& v) {
    return {v.begin(), v.end()};
}

void run_commit(const std::string& blob_arg) {
    const Bytes blob = read_blob(blob_arg, "commit");
    auto c = kzg::blob_to_kzg_commitment(blob);
    if (!c) fail_kzg("commit", c.error(), "");
    print_hex_line(c->view());
}

void run_versioned_hash(const std::string& arg) {
    const Bytes c = read_sized(arg, "kzg versioned-hash: commitment", kzg::kBytesPerPoint);
    print_hex_line(kzg::versioned_hash(c).view());
}

void run_proof(const std::string& blob_arg, const std::string& commitment_arg) {
    const Bytes blob = read_blob(blob_arg, "proof");
    Bytes commitment;
    if (commitment_arg.empty()) {
        auto c = kzg::blob_to_kzg_commitment(blob);
        if (!c) fail_kzg("proof", c.error(), "");
        commitment.assign(c->begin(), c->end());
    } else {
        commitment = read_sized(commitment_arg, "kzg proof: commitment", kzg::kBytesPerPoint);
    }
    auto p = kzg::compute_blob_kzg_proof(blob, commitment);
    if (!p) fail_kzg("proof", p.error(), "");
    print_hex_line(p->view());
}

void run_verify_blob(const std::string& blob_arg, const std::string& commitment_arg,
                     const std::string& proof_arg) {
    const Bytes blob = read_blob(blob_arg, "verify-blob");
    const Bytes c = read_sized(commitment_arg, "kzg verify-blob: commitment", kzg::kBytesPerPoint);
    const Bytes p = read_sized(proof_arg, "kzg verify-blob: proof", kzg::kBytesPerPoint);
    auto ok = kzg::verify_blob_kzg_proof(blob, c, p);
    if (!ok) fail_kzg("verify-blob", ok.error(), "");
    report_validity(*ok, "kzg verify-blob",
                    "the proof does not show that the commitment is the blob's");
}

void run_cells(const std::string& blob_arg, bool proofs) {
    const Bytes blob = read_blob(blob_arg, "cells");
    if (!proofs) {
        auto cells = kzg::compute_cells(blob);
        if (!cells) fail_kzg("cells", cells.error(), "");
        print_cells(*cells, nullptr);
        return;
    }
    auto both = kzg::compute_cells_and_kzg_proofs(blob);
    if (!both) fail_kzg("cells", both.error(), "");
    print_cells(both->cells, &both->proofs);
}

void run_recover(const std::string& file) {
    const nlohmann::json doc = read_object(file, "recover");
    const std::vector<std::uint64_t> indices = index_list(doc, "recover");
    const std::vector<Bytes> cells = hex_list(doc, "cells", "recover");
    auto r = kzg::recover_cells_and_kzg_proofs(indices, views(cells));
    if (!r) fail_kzg("recover", r.error(), "item");
    print_cells(r->cells, &r->proofs);
}

void run_verify_cells(const std::string& file) {
    const nlohmann::json doc = read_object(file, "verify-cells");
    const std::vector<Bytes> commitments = hex_list(doc, "commitments", "verify-cells");
    const std::vector<std::uint64_t> indices = index_list(doc, "verify-cells");
    const std::vector<Bytes> cells = hex_list(doc, "cells", "verify-cells");
    const std::vector<Bytes> proofs = hex_list(doc, "proofs", "verify-cells");
    auto ok =
        kzg::verify_cell_kzg_proof_batch(views(commitments), indices, views(cells), views(proofs));
    if (!ok) fail_kzg("verify-cells", ok.error(), "item");
    report_validity(*ok, "kzg verify-cells", "the cell proofs do not verify");
}

}  // namespace

void add_kzg_command(CLI::App& app) {
    auto* kzg_cmd = app.add_subcommand(
        "kzg",
        "KZG commitments, proofs and cells of blobs (EIP-4844, EIP-7594), on the mainnet setup");
    kzg_cmd->require_subcommand(1);
    const char* blob_help = "131,072 bytes: hex, @file (raw bytes) or - (stdin)";
    const char* point_help = "48 bytes: hex, @file or -";

    auto commit_blob = std::make_shared<std::string>();
    auto* commit = kzg_cmd->add_subcommand("commit", "Print the blob's 48-byte KZG commitment");
    commit->add_option("blob", *commit_blob, blob_help)->required();
    commit->callback([commit_blob] { run_commit(*commit_blob); });

    auto vh_arg = std::make_shared<std::string>();
    auto* vh = kzg_cmd->add_subcommand(
        "versioned-hash", "Print a commitment's versioned hash (what a blob transaction names)");
    vh->add_option("commitment", *vh_arg, point_help)->required();
    vh->callback([vh_arg] { run_versioned_hash(*vh_arg); });

    auto proof_args = std::make_shared<std::array<std::string, 2>>();
    auto* proof = kzg_cmd->add_subcommand(
        "proof", "Print the blob's KZG proof (a version-0 sidecar's, compute_blob_kzg_proof)");
    proof->add_option("blob", (*proof_args)[0], blob_help)->required();
    proof->add_option("commitment", (*proof_args)[1],
                      "48 bytes: hex, @file or - (default: computed from the blob)");
    proof->callback([proof_args] { run_proof((*proof_args)[0], (*proof_args)[1]); });

    auto vb_args = std::make_shared<std::array<std::string, 3>>();
    auto* vb = kzg_cmd->add_subcommand(
        "verify-blob", "Check a blob's proof against its commitment: print valid or invalid");
    vb->add_option("blob", (*vb_args)[0], blob_help)->required();
    vb->add_option("commitment", (*vb_args)[1], point_help)->required();
    vb->add_option("proof", (*vb_args)[2], point_help)->required();
    vb->callback([vb_args] { run_verify_blob((*vb_args)[0], (*vb_args)[1], (*vb_args)[2]); });

    auto cells_blob = std::make_shared<std::string>();
    auto cells_proofs = std::make_shared<bool>(false);
    auto* cells = kzg_cmd->add_subcommand(
        "cells", "Print the blob's 128 cells as JSON (with --proofs, each cell's proof too)");
    cells->add_option("blob", *cells_blob, blob_help)->required();
    cells->add_flag("--proofs", *cells_proofs,
                    "compute the cell proofs too (a version-1 sidecar's; FK20, ~0.2 s a blob)");
    cells->callback([cells_blob, cells_proofs] { run_cells(*cells_blob, *cells_proofs); });

    auto recover_file = std::make_shared<std::string>();
    auto* recover = kzg_cmd->add_subcommand(
        "recover",
        "Recover all cells and proofs from half or more of the cells: FILE is JSON "
        "{\"cell_indices\": [...], \"cells\": [...]}, the indices ascending");
    recover->add_option("file", *recover_file, "JSON file; - for stdin")->required();
    recover->callback([recover_file] { run_recover(*recover_file); });

    auto vc_file = std::make_shared<std::string>();
    auto* vc = kzg_cmd->add_subcommand(
        "verify-cells",
        "Check cell proofs at once: FILE is JSON {\"commitments\", \"cell_indices\", \"cells\", "
        "\"proofs\"} (lists of equal length); print valid or invalid");
    vc->add_option("file", *vc_file, "JSON file; - for stdin")->required();
    vc->callback([vc_file] { run_verify_cells(*vc_file); });
}

}  // namespace keel::cli
