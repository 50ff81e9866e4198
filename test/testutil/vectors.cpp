#include "test/testutil/vectors.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "keel/common/hex.hpp"

namespace keel::testutil {

std::filesystem::path vectors_dir(std::string_view area) {
    std::filesystem::path dir = std::filesystem::path(KEEL_VECTORS_DIR) / area;
    if (!std::filesystem::is_directory(dir)) {
        throw std::runtime_error("test vectors not found: " + dir.string() +
                                 " (set -DKEEL_VECTORS_DIR=...)");
    }
    return dir;
}

Bytes read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

nlohmann::json load_json(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    try {
        return nlohmann::json::parse(in);
    } catch (const std::exception& e) {
        throw std::runtime_error("bad JSON in " + path.string() + ": " + e.what());
    }
}

Bytes from_hex(std::string_view text) {
    auto r = hex::decode(text);
    if (!r) throw std::runtime_error("bad hex literal in test: " + to_string(r.error()));
    return std::move(*r);
}

}  // namespace keel::testutil
