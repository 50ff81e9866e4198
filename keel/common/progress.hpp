#pragma once
/// Progress reporting for long work (imports, pruning, verification of many items).
///
/// On a terminal it draws one live line (bar, percentage, count, rate, ETA) redrawn at most
/// every 100 ms; elsewhere (logs, CI) it prints a plain line every `plain_interval`.
/// advance() is thread-safe and cheap (one relaxed atomic add and a clock read), so workers in a
/// parallel loop can call it directly.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

namespace keel {

class Progress {
  public:
    struct Options {
        std::FILE* out = stderr;  ///< where to write; never written when `enabled` is false
        bool enabled = true;      ///< false: count silently (e.g. --quiet)
        std::chrono::milliseconds plain_interval{5000};  ///< period of plain (non-TTY) lines
        const char* unit = "items";                      ///< shown after the count and in the rate
        /// A second counted quantity with only a rate shown (e.g. "tx" while counting blocks),
        /// or nullptr for none.
        const char* secondary_unit = nullptr;
    };

    /// `total` may be 0 when unknown: no bar, percentage or ETA is shown then.
    Progress(std::string label, std::uint64_t total, Options options);
    Progress(std::string label, std::uint64_t total)
        : Progress(std::move(label), total, Options{}) {}
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    /// Adds `n` to the count done; redraws when the redraw period has passed. Thread-safe.
    void advance(std::uint64_t n = 1) noexcept;

    /// Adds `n` to the count done and `secondary` to the secondary count. Thread-safe.
    void advance(std::uint64_t n, std::uint64_t secondary) noexcept;

    /// Sets the total when it becomes known late.
    void set_total(std::uint64_t total) noexcept;

    /// Draws the final state and ends the line; called by the destructor if not before.
    void finish() noexcept;

    std::uint64_t done() const noexcept { return done_.load(std::memory_order_relaxed); }
    std::uint64_t total() const noexcept { return total_.load(std::memory_order_relaxed); }
    std::uint64_t secondary_done() const noexcept {
        return secondary_.load(std::memory_order_relaxed);
    }

    /// The text of the status line for `done` items after `elapsed` seconds (no bar, no
    /// control characters), e.g. "import: 1200/5000 items (24.0%), 300 items/s, ETA 13s"; with
    /// a secondary unit, its rate follows the first: "..., 300 blocks/s, 15.0k tx/s, ETA 13s".
    /// Exposed for tests and for callers that log through their own channel.
    std::string status_line(std::uint64_t done, double elapsed_s,
                            std::uint64_t secondary = 0) const;

  private:
    void render(bool final) noexcept;

    std::string label_;
    Options options_;
    bool tty_;
    std::atomic<std::uint64_t> done_{0};
    std::atomic<std::uint64_t> secondary_{0};
    std::atomic<std::uint64_t> total_;
    std::atomic<std::int64_t> next_render_ns_{0};
    std::atomic<bool> finished_{false};
    std::chrono::steady_clock::time_point start_;
};

/// "1.5k", "2.3M": a count in at most 4 significant characters plus a suffix.
std::string format_count(double value);

/// "45s", "3m07s", "2h05m": a duration for ETAs.
std::string format_duration(double seconds);

}  // namespace keel
