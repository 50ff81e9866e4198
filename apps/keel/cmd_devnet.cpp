// keel devnet gen: writes a deterministic generated chain (keel/devnet) as an RLP chain file,
// the blocks back to back as `geth export` writes them. The file is written as FILE.tmp and
// renamed when complete, so FILE never holds a partial chain.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/common/progress.hpp"
#include "keel/devnet/chain_gen.hpp"

namespace keel::cli {
namespace {

struct GenOptions {
    devnet::ChainSpec spec;
    std::string out;
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

// FILE.tmp while it is being written: removed unless commit() renamed it to its final name.
class TempFile {
  public:
    explicit TempFile(std::string final_path)
        : final_(std::move(final_path)), tmp_(final_ + ".tmp") {
        f_ = std::fopen(tmp_.c_str(), "wb");
        if (f_ == nullptr) {
            throw Failure{kExitUsage, fmt::format("devnet gen: cannot write {}: {}", tmp_,
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
            throw Failure{kExitBadData, fmt::format("devnet gen: cannot rename {} to {}: {}", tmp_,
                                                    final_, std::strerror(errno))};
        }
        committed_ = true;
    }

  private:
    [[noreturn]] void fail(const char* what) {
        throw Failure{kExitBadData,
                      fmt::format("devnet gen: {} {}: {}", what, tmp_, std::strerror(errno))};
    }

    std::string final_;
    std::string tmp_;
    std::FILE* f_ = nullptr;
    bool committed_ = false;
};

void run_gen(const GenOptions& o) {
    auto gen = devnet::ChainGenerator::create(o.spec);
    if (!gen) {
        throw Failure{kExitUsage,
                      fmt::format("devnet gen: {}", spec_error_message(gen.error(), o.spec))};
    }
    TempFile file(o.out);
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

}  // namespace

void add_devnet_command(CLI::App& app) {
    auto* devnet = app.add_subcommand("devnet", "Generated development chains");
    devnet->require_subcommand(1);
    auto* gen = devnet->add_subcommand(
        "gen",
        "Write a deterministic chain of signed transactions (types 0-4) as an RLP chain "
        "file (geth export format); see docs/devnet.md");
    auto o = std::make_shared<GenOptions>();
    // CLI11 reads "-3" into an unsigned option as 2^64 - 3: numbers are checked for a sign first.
    gen->add_option("--blocks", o->spec.blocks, "N: blocks 0..N-1 (block 0 is the genesis)")
        ->required()
        ->check(CLI::NonNegativeNumber);
    gen->add_option("--txs-per-block", o->spec.txs_per_block,
                    "M: transactions per block after the genesis (at most 5000)")
        ->required()
        ->check(CLI::NonNegativeNumber);
    gen->add_option("--merge-at", o->spec.merge_at,
                    "K: first proof-of-stake block (London before, Prague from it; K = N: none)")
        ->required()
        ->check(CLI::NonNegativeNumber);
    gen->add_option("--out", o->out, "the chain file to write")->required();
    gen->add_option("--chain-id", o->spec.chain_id, "EIP-155 chain id")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    gen->add_option("--seed", o->spec.seed, "seed of every key and value")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    gen->callback([o] { run_gen(*o); });
}

}  // namespace keel::cli
