#include "apps/keel/input.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>

#include <fmt/format.h>

#include "keel/common/hex.hpp"

namespace keel::cli {
namespace {

std::string read_stream(std::istream& in) {
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string read_source(std::string_view arg, std::string_view what, bool* literal) {
    *literal = false;
    if (arg == "-") return read_stream(std::cin);
    if (arg.starts_with('@')) {
        std::string path(arg.substr(1));
        std::ifstream f(path, std::ios::binary);
        if (!f) {
            throw Failure{kExitUsage,
                          fmt::format("{}: cannot read {}: {}", what, path, std::strerror(errno))};
        }
        return read_stream(f);
    }
    *literal = true;
    return std::string(arg);
}

}  // namespace

Bytes read_data_arg(std::string_view arg, std::string_view what) {
    bool literal;
    std::string data = read_source(arg, what, &literal);
    if (!literal) return Bytes(data.begin(), data.end());
    auto decoded = hex::decode(data);
    if (!decoded) {
        throw Failure{kExitUsage, fmt::format("{}: {} (give hex, @file or -)", what,
                                              to_string(decoded.error()))};
    }
    return std::move(*decoded);
}

std::string read_text_arg(std::string_view arg, std::string_view what) {
    bool literal;
    return read_source(arg, what, &literal);
}

void write_output(std::string_view path, BytesView data) {
    if (path == "-") {
        std::fwrite(data.data(), 1, data.size(), stdout);
        std::fflush(stdout);
        return;
    }
    std::string p(path);
    std::FILE* f = std::fopen(p.c_str(), "wb");
    if (f == nullptr) {
        throw Failure{kExitUsage, fmt::format("cannot write {}: {}", p, std::strerror(errno))};
    }
    bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
    ok = std::fclose(f) == 0 && ok;
    if (!ok) throw Failure{kExitUsage, fmt::format("cannot write {}: {}", p, std::strerror(errno))};
}

}  // namespace keel::cli
