#pragma once
// A fresh directory under the system temp folder, removed with everything in it at the end.

#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <system_error>

namespace keel::testutil {

class TempDir {
  public:
    /// A new directory named "keel-<prefix>-<unique tag>".
    explicit TempDir(std::string_view prefix = "test") {
        std::random_device rd;
        const auto tag =
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" +
            std::to_string(rd());
        path_ =
            std::filesystem::temp_directory_path() / ("keel-" + std::string(prefix) + "-" + tag);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace keel::testutil
