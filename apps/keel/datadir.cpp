#include "apps/keel/datadir.hpp"

#include <system_error>

#include <fmt/format.h>

#include "apps/keel/input.hpp"

namespace keel::cli {

store::ChainStore open_datadir(const std::filesystem::path& dir, Access access) {
    std::error_code ec;
    const bool missing = !std::filesystem::exists(dir, ec);
    const bool empty =
        !missing && std::filesystem::is_directory(dir, ec) && std::filesystem::is_empty(dir, ec);
    const bool create = access == Access::create;
    auto opened = (create && (missing || empty))
                      ? store::ChainStore::create(dir)
                      : store::ChainStore::open(dir, {.read_only = access == Access::read});
    if (!opened) {
        if (missing && !create) {
            throw Failure{kExitBadData, fmt::format("datadir {}: no such directory (import a "
                                                    "chain first: keel import --datadir {} FILE)",
                                                    dir.string(), dir.string())};
        }
        throw Failure{kExitBadData, opened.error().message};
    }
    return std::move(*opened);
}

}  // namespace keel::cli
