#include "keel/blockchain/trace_export.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "keel/blockchain/block_traces.hpp"
#include "keel/blockchain/parity_traces.hpp"
#include "keel/common/hex.hpp"

namespace keel::blockchain {
namespace {

namespace fs = std::filesystem;

// A file written from a buffer, every write checked.
class Output {
  public:
    explicit Output(const fs::path& path) : path_(path) {
        fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    }
    ~Output() {
        if (fd_ >= 0) ::close(fd_);
    }
    Output(const Output&) = delete;
    Output& operator=(const Output&) = delete;

    bool ok() const { return fd_ >= 0 && error_.empty(); }
    const std::string& error() const { return error_; }
    std::uint64_t bytes() const { return bytes_; }

    // Writes and empties `buf`.
    void write(std::string& buf) {
        std::size_t at = 0;
        while (ok() && at < buf.size()) {
            const ssize_t n = ::write(fd_, buf.data() + at, buf.size() - at);
            if (n < 0) {
                if (errno == EINTR) continue;
                error_ = path_.string() + ": write: " + std::strerror(errno);
                break;
            }
            at += static_cast<std::size_t>(n);
        }
        bytes_ += at;
        buf.clear();
    }
    // Flushes to disk and closes.
    bool close() {
        if (fd_ < 0) return false;
        const bool synced = ::fsync(fd_) == 0;
        const bool closed = ::close(fd_) == 0;
        fd_ = -1;
        if (!synced || !closed) error_ = path_.string() + ": cannot flush to disk";
        return error_.empty();
    }

  private:
    fs::path path_;
    int fd_ = -1;
    std::string error_;
    std::uint64_t bytes_ = 0;
};

void sync_dir(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)::fsync(fd);
        ::close(fd);
    }
}

}  // namespace

std::string trace_chunk_name(std::uint64_t first, std::uint64_t last) {
    char name[64];
    std::snprintf(name, sizeof name, "traces-%012llu-%012llu.jsonl",
                  static_cast<unsigned long long>(first), static_cast<unsigned long long>(last));
    return name;
}

Result<TraceExportReport, std::string> export_traces(const store::ChainStore& store,
                                                     const eth::ChainConfig& config,
                                                     const TraceExportOptions& o) {
    if (o.from > o.to) return unexpected(std::string("trace export: the range is empty"));
    if (o.chunk_blocks == 0) return unexpected(std::string("trace export: chunks of 0 blocks"));
    std::error_code ec;
    fs::create_directories(o.dir, ec);
    if (ec) return unexpected("trace export: " + o.dir.string() + ": " + ec.message());

    struct Chunk {
        std::uint64_t first, last;
    };
    std::vector<Chunk> todo;
    TraceExportReport report;
    for (std::uint64_t first = o.from;; first += o.chunk_blocks) {
        const std::uint64_t last =
            o.to - first < o.chunk_blocks - 1 ? o.to : first + o.chunk_blocks - 1;
        ++report.chunks;
        if (fs::exists(o.dir / trace_chunk_name(first, last), ec)) {
            ++report.skipped;
        } else {
            todo.push_back({first, last});
        }
        if (last == o.to) break;
    }

    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex m;
    std::string error;
    const auto fail = [&](std::string e) {
        const std::lock_guard lock(m);
        if (error.empty()) error = std::move(e);
        stop = true;
    };
    const auto work = [&] {
        std::string out;
        for (;;) {
            const std::size_t k = next.fetch_add(1);
            if (k >= todo.size() || stop) return;
            const Chunk c = todo[k];
            const fs::path final_path = o.dir / trace_chunk_name(c.first, c.last);
            fs::path part = final_path;
            part += ".part";
            Output file(part);
            if (!file.ok()) return fail("trace export: cannot create " + part.string());
            std::uint64_t blocks = 0;
            for (std::uint64_t n = c.first; n <= c.last && !stop; ++n) {
                const std::string where = "trace export: block " + std::to_string(n) + ": ";
                // The replay's own errors name the block already.
                const auto named = [&](const std::string& message) {
                    return message.starts_with("block ") ? "trace export: " + message
                                                         : where + message;
                };
                auto hash = store.canonical_hash(n);
                if (!hash) return fail(where + hash.error().message);
                if (!hash->found()) return fail(where + "not stored");
                out = "{\"block\":" + std::to_string(n) + ",\"hash\":\"" +
                      hex::encode_prefixed(hash->value.view()) + "\",\"traces\":";
                std::uint64_t gas = 0;
                if (n == 0) {
                    out += "[]";
                } else if (o.parity) {
                    auto r = write_trace_block(out, store, config, n);
                    if (!r) return fail(named(r.error().message));
                } else {
                    auto b = load_for_replay(store, config, n);
                    if (!b) return fail(named(b.error().message));
                    gas = b->block.header.gas_used;
                    const auto drain = [&file](std::string& buf) { file.write(buf); };
                    auto r = write_debug_traces(out, store, *b, o.spec, std::nullopt, drain);
                    if (!r) return fail(named(r.error().message));
                }
                out += "}\n";
                file.write(out);
                if (!file.ok()) return fail("trace export: " + file.error());
                ++blocks;
                if (o.on_block) o.on_block(gas);
            }
            if (stop) return;
            if (!file.close()) return fail("trace export: " + file.error());
            fs::rename(part, final_path, ec);
            if (ec) return fail("trace export: " + final_path.string() + ": " + ec.message());
            sync_dir(o.dir);
            const std::lock_guard lock(m);
            report.written += 1;
            report.blocks += blocks;
            report.bytes += file.bytes();
        }
    };
    const unsigned n = std::max(
        1u, std::min<unsigned>(o.threads != 0 ? o.threads : std::thread::hardware_concurrency(),
                               static_cast<unsigned>(todo.size())));
    std::vector<std::thread> workers;
    for (unsigned i = 1; i < n; ++i) workers.emplace_back(work);
    work();
    for (auto& t : workers) t.join();
    if (!error.empty()) return unexpected(std::move(error));
    return report;
}

}  // namespace keel::blockchain
