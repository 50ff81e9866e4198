#include "keel/common/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>

namespace keel {
namespace {

constexpr std::int64_t kTtyPeriodNs = 100'000'000;  // redraw a live line at most 10 times/s
constexpr int kBarWidth = 24;

std::int64_t now_ns(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                start)
        .count();
}

// One lock for all reporters: rendering is rare and must not interleave lines on the terminal.
std::mutex& render_mutex() {
    static std::mutex m;
    return m;
}

}  // namespace

std::string format_count(double value) {
    static constexpr const char* kSuffix[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (std::fabs(value) >= 1000.0 && i < 5) {
        value /= 1000.0;
        ++i;
    }
    char buf[32];
    if (i == 0) {
        std::snprintf(buf, sizeof buf, "%.0f", value);
    } else {
        std::snprintf(buf, sizeof buf,
                      value < 10    ? "%.2f%s"
                      : value < 100 ? "%.1f%s"
                                    : "%.0f%s",
                      value, kSuffix[i]);
    }
    return buf;
}

std::string format_duration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "?";
    auto s = static_cast<std::uint64_t>(seconds + 0.5);
    char buf[32];
    if (s < 60) {
        std::snprintf(buf, sizeof buf, "%llus", static_cast<unsigned long long>(s));
    } else if (s < 3600) {
        std::snprintf(buf, sizeof buf, "%llum%02llus", static_cast<unsigned long long>(s / 60),
                      static_cast<unsigned long long>(s % 60));
    } else {
        std::snprintf(buf, sizeof buf, "%lluh%02llum", static_cast<unsigned long long>(s / 3600),
                      static_cast<unsigned long long>(s / 60 % 60));
    }
    return buf;
}

Progress::Progress(std::string label, std::uint64_t total, Options options)
    : label_(std::move(label)),
      options_(options),
      tty_(options.enabled && options.out != nullptr && isatty(fileno(options.out)) != 0),
      total_(total),
      start_(std::chrono::steady_clock::now()) {
    next_render_ns_.store(tty_ ? kTtyPeriodNs : options_.plain_interval.count() * 1'000'000LL,
                          std::memory_order_relaxed);
}

Progress::~Progress() {
    finish();
}

void Progress::set_total(std::uint64_t total) noexcept {
    total_.store(total, std::memory_order_relaxed);
}

void Progress::advance(std::uint64_t n, std::uint64_t secondary) noexcept {
    secondary_.fetch_add(secondary, std::memory_order_relaxed);
    advance(n);
}

void Progress::advance(std::uint64_t n) noexcept {
    done_.fetch_add(n, std::memory_order_relaxed);
    if (!options_.enabled) return;
    std::int64_t now = now_ns(start_);
    std::int64_t due = next_render_ns_.load(std::memory_order_relaxed);
    if (now < due) return;
    // Exactly one thread wins the right to draw this period.
    std::int64_t period = tty_ ? kTtyPeriodNs : options_.plain_interval.count() * 1'000'000LL;
    if (next_render_ns_.compare_exchange_strong(due, now + period, std::memory_order_relaxed)) {
        render(false);
    }
}

void Progress::finish() noexcept {
    if (finished_.exchange(true)) return;
    if (options_.enabled) render(true);
}

std::string Progress::status_line(std::uint64_t done, double elapsed_s,
                                  std::uint64_t secondary) const {
    const std::uint64_t total = total_.load(std::memory_order_relaxed);
    std::string s = label_;
    s += ": ";
    s += std::to_string(done);
    if (total != 0) {
        s += '/';
        s += std::to_string(total);
    }
    s += ' ';
    s += options_.unit;
    char buf[64];
    if (total != 0) {
        double pct =
            100.0 * static_cast<double>(std::min(done, total)) / static_cast<double>(total);
        std::snprintf(buf, sizeof buf, " (%.1f%%)", pct);
        s += buf;
    }
    double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0.0;
    s += ", ";
    s += format_count(rate);
    s += ' ';
    s += options_.unit;
    s += "/s";
    if (options_.secondary_unit != nullptr) {
        s += ", ";
        s += format_count(elapsed_s > 0 ? static_cast<double>(secondary) / elapsed_s : 0.0);
        s += ' ';
        s += options_.secondary_unit;
        s += "/s";
    }
    if (total != 0 && done < total && rate > 0) {
        s += ", ETA ";
        s += format_duration(static_cast<double>(total - done) / rate);
    } else if (total != 0 && done >= total) {
        s += ", took ";
        s += format_duration(elapsed_s);
    }
    return s;
}

void Progress::render(bool final) noexcept {
    try {
        const std::uint64_t done = done_.load(std::memory_order_relaxed);
        const std::uint64_t total = total_.load(std::memory_order_relaxed);
        const double elapsed = static_cast<double>(now_ns(start_)) / 1e9;
        std::string line = status_line(done, elapsed, secondary_.load(std::memory_order_relaxed));
        std::lock_guard lock(render_mutex());
        if (tty_) {
            std::string bar;
            if (total != 0) {
                int filled = static_cast<int>(kBarWidth * std::min(done, total) / total);
                bar = "[" + std::string(filled, '=') + std::string(kBarWidth - filled, ' ') + "] ";
            }
            // \r returns to the line start, \x1b[K clears what a longer previous line left.
            std::fprintf(options_.out, "\r%s%s\x1b[K%s", bar.c_str(), line.c_str(),
                         final ? "\n" : "");
        } else {
            std::fprintf(options_.out, "%s\n", line.c_str());
        }
        std::fflush(options_.out);
    } catch (...) {
        // Out of memory while formatting a progress line: skip this line, keep working.
    }
}

}  // namespace keel
