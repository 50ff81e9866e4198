// keel devnet gen: writes a deterministic generated chain (keel/devnet) as an RLP chain file,
// the blocks back to back as `geth export` writes them.
// keel devnet gen-beacon-block / gen-beacon-state: a deterministic generated mainnet-preset
// SignedBeaconBlock or BeaconState (deneb or electra) as raw SSZ, for SSZ benchmarks.
// Files are written as FILE.tmp and renamed when complete, so FILE never holds a partial output.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <sys/stat.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/beacon/fork.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/progress.hpp"
#include "keel/devnet/beacon_block_gen.hpp"
#include "keel/devnet/beacon_state_gen.hpp"
#include "keel/devnet/chain_gen.hpp"
#include "keel/devnet/contract_chain.hpp"

namespace keel::cli {
namespace {

struct GenOptions {
    devnet::ChainSpec spec;
    std::string out;
    bool contracts = false;
    std::uint64_t gas_limit = devnet::ContractChainSpec{}.gas_limit;
    std::string genesis_out;  // --contracts: empty = the chain file's name with .genesis.json
    bool no_blobs = false;    // --contracts: no blob transactions
};

// The option a spec error is about, and its value.
std::string spec_error_message(devnet::Error e, const devnet::ChainSpec& spec) {
    using devnet::Error;
    switch (e) {
        case Error::no_blocks:
        case Error::too_many_blocks:
            return fmt::format("--blocks {}: {}", spec.blocks, devnet::describe(e));
        case Error::merge_after_end:
            return fmt::format("--merge-at {} > --blocks {}: {}", spec.merge_at, spec.blocks,
                               devnet::describe(e));
        case Error::too_many_txs:
            return fmt::format("--txs-per-block {}: {}", spec.txs_per_block, devnet::describe(e));
        case Error::chain_id_zero:
        case Error::chain_id_too_large:
            return fmt::format("--chain-id {}: {}", spec.chain_id, devnet::describe(e));
    }
    return std::string(devnet::describe(e));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// FILE.tmp while it is being written: removed unless commit() renamed it to its final name.
// `label` (the command) starts every error message.
class TempFile {
  public:
    TempFile(std::string label, std::string final_path)
        : label_(std::move(label)), final_(std::move(final_path)), tmp_(final_ + ".tmp") {
        // A directory can never be renamed over: refuse it now, before anything is generated
        // (the rename at the end would fail after all the work).
        struct stat st{};
        if (::stat(final_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
            throw Failure{kExitUsage, fmt::format("{}: --out {}: is a directory (want a file path)",
                                                  label_, final_)};
        }
        f_ = std::fopen(tmp_.c_str(), "wb");
        if (f_ == nullptr) {
            throw Failure{kExitUsage, fmt::format("{}: cannot write {}: {}", label_, tmp_,
                                                  std::strerror(errno))};
        }
        // Large sequential writes: one buffer of 4 MiB instead of the default few KiB.
        std::setvbuf(f_, nullptr, _IOFBF, 4 << 20);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() {
        if (f_ != nullptr) std::fclose(f_);
        if (!committed_) std::remove(tmp_.c_str());
    }

    void write(BytesView data) {
        if (std::fwrite(data.data(), 1, data.size(), f_) != data.size()) fail("writing");
    }

    // Flushes, closes and renames to the final path.
    void commit() {
        std::FILE* f = f_;
        f_ = nullptr;
        if (std::fclose(f) != 0) fail("writing");
        if (std::rename(tmp_.c_str(), final_.c_str()) != 0) {
            throw Failure{kExitBadData, fmt::format("{}: cannot rename {} to {}: {}", label_, tmp_,
                                                    final_, std::strerror(errno))};
        }
        committed_ = true;
    }

  private:
    [[noreturn]] void fail(const char* what) {
        throw Failure{kExitBadData,
                      fmt::format("{}: {} {}: {}", label_, what, tmp_, std::strerror(errno))};
    }

    std::string label_;
    std::string final_;
    std::string tmp_;
    std::FILE* f_ = nullptr;
    bool committed_ = false;
};

// The genesis file beside a chain file: chain.rlp -> chain.genesis.json.
std::string genesis_path_for(const std::string& chain_path) {
    std::filesystem::path p(chain_path);
    p.replace_extension(".genesis.json");
    return p.string();
}

void run_gen_contracts(const GenOptions& o) {
    constexpr const char* kLabel = "devnet gen";
    const devnet::ContractChainSpec spec{.blocks = o.spec.blocks,
                                         .gas_limit = o.gas_limit,
                                         .chain_id = o.spec.chain_id,
                                         .seed = o.spec.seed,
                                         .blobs = !o.no_blobs};
    const std::string genesis_out = o.genesis_out.empty() ? genesis_path_for(o.out) : o.genesis_out;
    const std::filesystem::path work = o.out + ".work";
    std::error_code ec;
    std::filesystem::remove_all(work, ec);  // a run killed earlier leaves its work folder
    TempFile file(kLabel, o.out);
    TempFile genesis_file(kLabel, genesis_out);
    auto gen = devnet::ContractChainGenerator::create(spec, work);
    if (!gen) throw Failure{kExitUsage, fmt::format("{}: {}", kLabel, gen.error())};
    genesis_file.write(as_bytes(gen->genesis_json()));
    const auto t0 = std::chrono::steady_clock::now();
    {
        Progress progress(kLabel, spec.blocks, Progress::Options{.unit = "blocks"});
        while (!gen->done()) {
            auto block = gen->next();
            if (!block) throw Failure{kExitBadData, block.error()};
            file.write(*block);
            progress.advance();
        }
        progress.finish();
    }
    const double secs = seconds_since(t0);
    genesis_file.commit();
    file.commit();
    const devnet::ContractChainStats& st = gen->stats();
    std::string kinds;
    for (std::size_t k = 0; k < devnet::kTxKindCount; ++k) {
        kinds += fmt::format("{}{} {}", k == 0 ? "" : ", ",
                             devnet::kind_name(static_cast<devnet::TxKind>(k)), st.kinds[k]);
        if (st.failed[k] != 0) kinds += fmt::format(" ({} reverted)", st.failed[k]);
    }
    std::printf(
        "devnet: %llu blocks (0-%llu), %llu transactions, %.3f Ggas, %llu new accounts, %llu "
        "blobs, %llu bytes -> %s, genesis %s (chain id %llu, %.1f s)\n",
        static_cast<unsigned long long>(st.blocks), static_cast<unsigned long long>(st.blocks - 1),
        static_cast<unsigned long long>(st.transactions), static_cast<double>(st.gas_used) / 1e9,
        static_cast<unsigned long long>(st.new_accounts), static_cast<unsigned long long>(st.blobs),
        static_cast<unsigned long long>(st.bytes), o.out.c_str(), genesis_out.c_str(),
        static_cast<unsigned long long>(spec.chain_id), secs);
    std::printf("devnet: transactions by kind: %s\n", kinds.c_str());
}

void run_gen(const GenOptions& o) {
    if (o.contracts) return run_gen_contracts(o);
    auto gen = devnet::ChainGenerator::create(o.spec);
    if (!gen) {
        throw Failure{kExitUsage,
                      fmt::format("devnet gen: {}", spec_error_message(gen.error(), o.spec))};
    }
    TempFile file("devnet gen", o.out);
    {
        Progress progress("devnet gen", o.spec.blocks, Progress::Options{.unit = "blocks"});
        while (!gen->done()) {
            file.write(gen->next());
            progress.advance();
        }
        progress.finish();
    }
    file.commit();
    const devnet::ChainStats& st = gen->stats();
    std::printf(
        "devnet: %llu blocks (0-%llu), %llu transactions, %llu bytes -> %s (merge at %llu, "
        "chain id %llu)\n",
        static_cast<unsigned long long>(st.blocks), static_cast<unsigned long long>(st.blocks - 1),
        static_cast<unsigned long long>(st.transactions), static_cast<unsigned long long>(st.bytes),
        o.out.c_str(), static_cast<unsigned long long>(o.spec.merge_at),
        static_cast<unsigned long long>(o.spec.chain_id));
}

struct BeaconBlockOptions {
    std::string fork = "deneb";
    std::uint64_t seed = 1;
    std::uint64_t attestations = 0;  // used when --attestations is given
    std::uint64_t txs = 200;
    std::string out;
};

struct BeaconStateOptions {
    std::string fork = "deneb";
    std::uint64_t seed = 1;
    std::uint64_t validators = 0;
    std::string out;
};

// The fork named by --fork; an unknown name is a usage error of `label`.
beacon::Fork parse_beacon_fork(const char* label, const std::string& name) {
    auto fork = beacon::parse_fork(name);
    if (!fork) {
        throw Failure{
            kExitUsage,
            fmt::format("{}: --fork {}: unknown fork (want deneb, electra or fulu)", label, name)};
    }
    return *fork;
}

// The option a beacon spec error is about, and its value.
std::string beacon_error_message(devnet::BeaconSpecError e, const std::string& fork,
                                 std::uint64_t count) {
    using devnet::BeaconSpecError;
    switch (e) {
        case BeaconSpecError::unsupported_fork:
            return fmt::format("--fork {}: {}", fork, devnet::describe(e));
        case BeaconSpecError::too_many_attestations:
            return fmt::format("--attestations {} with --fork {}: {}", count, fork,
                               devnet::describe(e));
        case BeaconSpecError::too_many_txs:
            return fmt::format("--txs {}: {}", count, devnet::describe(e));
        case BeaconSpecError::no_validators:
        case BeaconSpecError::too_many_validators:
            return fmt::format("--validators {}: {}", count, devnet::describe(e));
    }
    return std::string(devnet::describe(e));
}

void run_gen_beacon_block(const BeaconBlockOptions& o, bool attestations_given) {
    constexpr const char* kLabel = "devnet gen-beacon-block";
    devnet::BeaconBlockSpec spec;
    spec.fork = parse_beacon_fork(kLabel, o.fork);
    spec.seed = o.seed;
    if (attestations_given) spec.attestations = o.attestations;
    spec.transactions = o.txs;
    if (auto ok = devnet::check(spec); !ok) {
        const auto e = ok.error();
        const std::uint64_t count =
            e == devnet::BeaconSpecError::too_many_attestations ? o.attestations : o.txs;
        throw Failure{kExitUsage,
                      fmt::format("{}: {}", kLabel, beacon_error_message(e, o.fork, count))};
    }
    TempFile file(kLabel, o.out);
    const auto t0 = std::chrono::steady_clock::now();
    auto block = devnet::generate_beacon_block(spec);
    KEEL_ASSERT(block.has_value());  // the spec was checked above
    const double gen_s = seconds_since(t0);
    file.write(block->ssz);
    file.commit();
    std::printf(
        "devnet: %s SignedBeaconBlock, slot %llu, %zu bytes, %llu attestations, %llu "
        "transactions, block root %s -> %s (%.1f ms)\n",
        o.fork.c_str(), static_cast<unsigned long long>(block->slot), block->ssz.size(),
        static_cast<unsigned long long>(devnet::attestation_count(spec)),
        static_cast<unsigned long long>(spec.transactions),
        hex::encode_prefixed(block->block_root.view()).c_str(), o.out.c_str(), gen_s * 1e3);
}

void run_gen_beacon_state(const BeaconStateOptions& o) {
    constexpr const char* kLabel = "devnet gen-beacon-state";
    devnet::BeaconStateSpec spec;
    spec.fork = parse_beacon_fork(kLabel, o.fork);
    spec.seed = o.seed;
    spec.validators = o.validators;
    if (auto ok = devnet::check(spec); !ok) {
        throw Failure{
            kExitUsage,
            fmt::format("{}: {}", kLabel, beacon_error_message(ok.error(), o.fork, o.validators))};
    }
    TempFile file(kLabel, o.out);
    const auto t0 = std::chrono::steady_clock::now();
    auto state = [&] {
        Progress progress(kLabel, spec.validators, Progress::Options{.unit = "validators"});
        auto s = devnet::generate_beacon_state(spec, &progress);
        progress.finish();
        return s;
    }();
    KEEL_ASSERT(state.has_value());  // the spec was checked above
    const double gen_s = seconds_since(t0);
    const auto t1 = std::chrono::steady_clock::now();
    const Hash32 root = state->hash_tree_root();
    const double root_s = seconds_since(t1);
    const Bytes bytes = state->encode();
    file.write(bytes);
    file.commit();
    std::printf(
        "devnet: %s BeaconState, slot %llu, %llu validators, %zu bytes, root %s -> %s "
        "(generate %.2f s, hash_tree_root %.2f s)\n",
        o.fork.c_str(), static_cast<unsigned long long>(state->slot()),
        static_cast<unsigned long long>(spec.validators), bytes.size(),
        hex::encode_prefixed(root.view()).c_str(), o.out.c_str(), gen_s, root_s);
}

void add_gen_beacon_block(CLI::App& devnet) {
    auto* cmd = devnet.add_subcommand(
        "gen-beacon-block",
        "Write a deterministic busy mainnet-preset SignedBeaconBlock (deneb or electra) as raw "
        "SSZ; signatures are not valid BLS (see docs/devnet.md)");
    auto o = std::make_shared<BeaconBlockOptions>();
    cmd->add_option("--fork", o->fork, "deneb, electra or fulu")->capture_default_str();
    cmd->add_option("--seed", o->seed, "seed of every value")
        ->capture_default_str()
        ->check(whole_number("a seed"));
    auto* attestations =
        cmd->add_option("--attestations", o->attestations,
                        "attestations (default and maximum: 128 for deneb, 8 for electra)")
            ->check(whole_number("an attestation count"));
    cmd->add_option("--txs", o->txs, "execution payload transactions (at most 5000)")
        ->capture_default_str()
        ->check(whole_number("a transaction count"));
    cmd->add_option("--out", o->out, "the .ssz file to write")->required();
    cmd->callback([o, attestations] { run_gen_beacon_block(*o, attestations->count() > 0); });
}

void add_gen_beacon_state(CLI::App& devnet) {
    auto* cmd = devnet.add_subcommand(
        "gen-beacon-state",
        "Write a deterministic mainnet-preset BeaconState (deneb or electra) with N validators "
        "as raw SSZ; keys are not valid BLS (see docs/devnet.md)");
    auto o = std::make_shared<BeaconStateOptions>();
    cmd->add_option("--validators", o->validators, "N: validators (1..2000000)")
        ->required()
        ->check(whole_number("a validator count"));
    cmd->add_option("--fork", o->fork, "deneb, electra or fulu")->capture_default_str();
    cmd->add_option("--seed", o->seed, "seed of every value")
        ->capture_default_str()
        ->check(whole_number("a seed"));
    cmd->add_option("--out", o->out, "the .ssz file to write")->required();
    cmd->callback([o] { run_gen_beacon_state(*o); });
}

}  // namespace

void add_devnet_command(CLI::App& app) {
    auto* devnet = app.add_subcommand("devnet", "Generated development chains");
    devnet->require_subcommand(1);
    auto* gen = devnet->add_subcommand(
        "gen",
        "Write a deterministic chain of signed transactions (types 0-4) as an RLP chain "
        "file (geth export format); see docs/devnet.md");
    auto o = std::make_shared<GenOptions>();
    // CLI11 reads "-3" into an unsigned option as 2^64 - 3, and its own range checks print a
    // double's bounds: whole_number checks digits first and says what the value should be.
    gen->add_option("--blocks", o->spec.blocks, "N: blocks 0..N-1 (block 0 is the genesis)")
        ->required()
        ->check(whole_number("a block count"));
    auto* txs = gen->add_option("--txs-per-block", o->spec.txs_per_block,
                                "M: transactions per block after the genesis (at most 5000)")
                    ->check(whole_number("a transaction count"));
    auto* merge =
        gen->add_option(
               "--merge-at", o->spec.merge_at,
               "K: first proof-of-stake block (London before, Prague from it; K = N: none)")
            ->check(whole_number("a block number"));
    auto* contracts = gen->add_flag(
        "--contracts", o->contracts,
        "a contract-heavy chain with real state, every block executed (docs/devnet.md)");
    contracts->excludes(txs)->excludes(merge);
    gen->add_option("--gas-limit", o->gas_limit, "--contracts: every block's gas limit")
        ->capture_default_str()
        ->check(whole_number("a gas limit"))
        ->needs(contracts);
    gen->add_option("--genesis-out", o->genesis_out,
                    "--contracts: the genesis file to write (default: FILE.genesis.json beside "
                    "--out's FILE.rlp)")
        ->needs(contracts);
    gen->add_flag("--no-blobs", o->no_blobs,
                  "--contracts: no blob transactions (a chain whose transactions a peer can take "
                  "through eth_sendRawTransaction: these blobs have no KZG sidecars)")
        ->needs(contracts);
    gen->add_option("--out", o->out, "the chain file to write")->required();
    gen->add_option("--chain-id", o->spec.chain_id, "EIP-155 chain id")
        ->capture_default_str()
        ->check(whole_number("a chain id"));
    gen->add_option("--seed", o->spec.seed, "seed of every key and value")
        ->capture_default_str()
        ->check(whole_number("a seed"));
    gen->callback([o, txs, merge] {
        if (!o->contracts && (txs->count() == 0 || merge->count() == 0)) {
            throw Failure{kExitUsage,
                          "devnet gen: --txs-per-block and --merge-at are required (or "
                          "--contracts)"};
        }
        run_gen(*o);
    });
    add_gen_beacon_block(*devnet);
    add_gen_beacon_state(*devnet);
}

}  // namespace keel::cli
