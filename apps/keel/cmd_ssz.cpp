// keel ssz root --type <fork>.<Type> [--preset mainnet|minimal] FILE: the hash_tree_root of an
// SSZ value (raw .ssz, or .ssz_snappy as consensus-spec-tests store it).
// keel ssz decode --type T [--preset P] [--pretty] FILE: the value as JSON (consensus-specs
// mapping, keel/ssz/json.hpp), one line unless --pretty.
// keel ssz encode --type T [--preset P] FILE.json [--out FILE.ssz]: JSON to SSZ, written raw to
// --out or printed as 0x-hex.
// keel ssz block-root FILE [--fork F] [--repeat N]: the root of a beacon block's message
// (a SignedBeaconBlock or a bare BeaconBlock, mainnet preset), fork from the slot unless given,
// timed over N runs like Lighthouse's `lcli block-root`.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/beacon/fork.hpp"
#include "keel/beacon/registry.hpp"
#include "keel/common/hex.hpp"
#include "keel/ssz/snappy_block.hpp"

namespace keel::cli {
namespace {

// Largest value a file may expand to (a mainnet BeaconState with ~2M validators is ~300 MB).
constexpr std::size_t kMaxSszSize = std::size_t{1} << 30;

/// The SSZ bytes of FILE ("-": standard input), decompressed when it ends in .ssz_snappy.
Bytes read_ssz_file(const std::string& path) {
    Bytes raw = read_data_arg(path == "-" ? path : "@" + path, "ssz input");
    if (!path.ends_with(".ssz_snappy")) return raw;
    auto plain = ssz::snappy_block_decode(raw, kMaxSszSize);
    if (!plain) {
        throw Failure{kExitBadData, fmt::format("ssz: {}: {}", path, to_string(plain.error()))};
    }
    return std::move(*plain);
}

std::uint64_t load_le64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
    return v;
}

struct RootArgs {
    std::string type;
    std::string preset = "mainnet";
    std::string file;
};

struct DecodeArgs {
    std::string type;
    std::string preset = "mainnet";
    std::string file;
    bool pretty = false;
};

struct EncodeArgs {
    std::string type;
    std::string preset = "mainnet";
    std::string file;
    std::string out;
};

struct BlockRootArgs {
    std::string file;
    std::string fork;
    unsigned repeat = 1;
};

/// Refuses an unknown --type or --preset before any input is read: bad usage (exit 2).
void check_type_arg(std::string_view verb, const std::string& type, const std::string& preset) {
    if (auto ok = beacon::check_type(type, preset); !ok) {
        throw Failure{kExitUsage, fmt::format("ssz {}: {}", verb, beacon::to_string(ok.error()))};
    }
}

/// The failure for a registry error on FILE: exit 2 for a name, 1 for the data.
Failure registry_failure(std::string_view verb, const std::string& file, const beacon::Error& e) {
    return Failure{beacon::is_usage(e.code) ? kExitUsage : kExitBadData,
                   fmt::format("ssz {}: {}: {}", verb, file, beacon::to_string(e))};
}

void run_root(const RootArgs& a) {
    check_type_arg("root", a.type, a.preset);
    const Bytes in = read_ssz_file(a.file);
    auto r = beacon::decode_and_root(a.type, a.preset, in);
    if (!r) throw registry_failure("root", a.file, r.error());
    std::printf("%s\n", hex::encode_prefixed(r->root.view()).c_str());
}

void run_decode(const DecodeArgs& a) {
    check_type_arg("decode", a.type, a.preset);
    const Bytes in = read_ssz_file(a.file);
    auto r = beacon::to_json(a.type, a.preset, in,
                             a.pretty ? ssz::JsonLayout::pretty : ssz::JsonLayout::compact);
    if (!r) throw registry_failure("decode", a.file, r.error());
    r->push_back('\n');
    // One write: a mainnet state prints hundreds of megabytes.
    std::fwrite(r->data(), 1, r->size(), stdout);
}

void run_encode(const EncodeArgs& a) {
    check_type_arg("encode", a.type, a.preset);
    const std::string text = read_text_arg(a.file == "-" ? a.file : "@" + a.file, "json input");
    auto r = beacon::from_json(a.type, a.preset, text);
    if (!r) throw registry_failure("encode", a.file, r.error());
    if (!a.out.empty()) return write_output(a.out, *r);
    std::string hex = hex::encode(*r, {.prefix = true});
    hex.push_back('\n');
    std::fwrite(hex.data(), 1, hex.size(), stdout);
}

void run_block_root(const BlockRootArgs& a) {
    const Bytes in = read_ssz_file(a.file);
    // A SignedBeaconBlock is {message: BeaconBlock (variable), signature: 96 bytes}: its fixed
    // part is the 4-byte offset of the message (100) and the signature, and the message's bytes
    // run from there to the end. A bare BeaconBlock starts with its 8-byte slot.
    BytesView message = in;
    bool is_signed = false;
    if (in.size() >= 108 && in[0] == 100 && in[1] == 0 && in[2] == 0 && in[3] == 0) {
        message = BytesView(in).subspan(100);
        is_signed = true;
    }
    if (message.size() < 8) {
        throw Failure{kExitBadData,
                      fmt::format("ssz block-root: {}: {} bytes is too short for a beacon block",
                                  a.file, in.size())};
    }
    const std::uint64_t slot = load_le64(message.data());
    std::optional<beacon::Fork> fork;
    if (!a.fork.empty()) {
        fork = beacon::parse_fork(a.fork);
        if (!fork)
            throw Failure{kExitUsage, fmt::format("ssz block-root: unknown fork '{}'", a.fork)};
    } else {
        fork = beacon::mainnet_fork_at_slot(slot);
    }
    const std::string type = std::string(beacon::fork_name(*fork)) + ".BeaconBlock";
    double best = 1e30, total = 0;
    Hash32 root;
    for (unsigned i = 0; i < a.repeat; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = beacon::decode_and_root(type, "mainnet", message);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r) {
            throw Failure{
                kExitBadData,
                fmt::format("ssz block-root: {}: {}{}", a.file, beacon::to_string(r.error()),
                            is_signed ? " (in the message of a SignedBeaconBlock)" : "")};
        }
        root = r->root;
        best = std::min(best, s);
        total += s;
    }
    std::printf("%s\n", hex::encode_prefixed(root.view()).c_str());
    std::fprintf(
        stderr, "slot %llu, %s, %s, %zu bytes: decode + root %.3f ms (best of %u), mean %.3f ms\n",
        static_cast<unsigned long long>(slot), type.c_str(), is_signed ? "signed block" : "block",
        message.size(), best * 1e3, a.repeat, total / a.repeat * 1e3);
}

}  // namespace

void add_ssz_command(CLI::App& app) {
    auto* ssz = app.add_subcommand(
        "ssz", "SSZ: roots of consensus containers, and their JSON (decode / encode)");
    ssz->require_subcommand(1);

    auto root_args = std::make_shared<RootArgs>();
    auto* root = ssz->add_subcommand("root", "Print the hash_tree_root of an SSZ value");
    root->add_option("--type", root_args->type, "<fork>.<Type>, e.g. deneb.BeaconBlock")
        ->required();
    root->add_option("--preset", root_args->preset, "mainnet (default) or minimal")
        ->check(CLI::IsMember({"mainnet", "minimal"}));
    root->add_option("file", root_args->file, "raw .ssz, or .ssz_snappy (snappy block)")
        ->required();
    root->callback([root_args] { run_root(*root_args); });

    auto decode_args = std::make_shared<DecodeArgs>();
    auto* decode = ssz->add_subcommand(
        "decode", "Print an SSZ value as JSON (consensus-specs mapping, as the Beacon API)");
    decode->add_option("--type", decode_args->type, "<fork>.<Type>, e.g. deneb.BeaconBlock")
        ->required();
    decode->add_option("--preset", decode_args->preset, "mainnet (default) or minimal")
        ->check(CLI::IsMember({"mainnet", "minimal"}));
    decode->add_flag("--pretty", decode_args->pretty, "indent the JSON (default: one line)");
    decode
        ->add_option("file", decode_args->file,
                     "raw .ssz, or .ssz_snappy (snappy block); - for stdin")
        ->required();
    decode->callback([decode_args] { run_decode(*decode_args); });

    auto encode_args = std::make_shared<EncodeArgs>();
    auto* encode =
        ssz->add_subcommand("encode", "Encode a JSON value (consensus-specs mapping) as SSZ");
    encode->add_option("--type", encode_args->type, "<fork>.<Type>, e.g. deneb.BeaconBlock")
        ->required();
    encode->add_option("--preset", encode_args->preset, "mainnet (default) or minimal")
        ->check(CLI::IsMember({"mainnet", "minimal"}));
    encode->add_option("file", encode_args->file, "JSON file; - for stdin")->required();
    encode->add_option("--out", encode_args->out,
                       "write the raw SSZ to this file (default: print 0x-hex)");
    encode->callback([encode_args] { run_encode(*encode_args); });

    auto block_args = std::make_shared<BlockRootArgs>();
    auto* block = ssz->add_subcommand(
        "block-root",
        "Print the root of a beacon block's message (SignedBeaconBlock or BeaconBlock, mainnet)");
    block->add_option("file", block_args->file, "raw .ssz, or .ssz_snappy")->required();
    block->add_option("--fork", block_args->fork, "phase0 .. electra (default: from the slot)");
    block->add_option("--repeat", block_args->repeat, "time N runs (decode + root)")
        ->check(CLI::Range(1u, 1000000u));
    block->callback([block_args] { run_block_root(*block_args); });
}

}  // namespace keel::cli
